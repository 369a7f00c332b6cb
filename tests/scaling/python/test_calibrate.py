"""`calibrate`: false alarms and power from repeated runs, and runs with a real injection."""
from fabricate import fabricate

from hpart_scaling.cli import main


def test_calibrate_reports_false_alarms_power_and_injections(tmp_path, capsys):
    runs = [fabricate(tmp_path / f"run{i}.jsonl", seed=100 + i) for i in range(4)]
    injected = fabricate(tmp_path / "inj.jsonl", seed=200, slow={("graph", "kway"): 2.0},
                         meta_extra={"inject": "graph.kway:slow:2.0"})
    code = main(["calibrate", *runs, injected, "--report", str(tmp_path / "c.md")])
    assert code == 0
    text = (tmp_path / "c.md").read_text()
    assert "4 clean runs (12 ordered pairs)" in text
    assert "| method | false alarms | +10% | +25% | 2x |" in text
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in text.splitlines() if line.startswith("| graph/kway") or line.startswith("| points")}
    assert rows["graph/kway"][3] == "100% (12/12)"  # 2x always caught
    assert rows["points/hilbert"][0].startswith("0%")
    assert "| graph.kway:slow:2.0 | 4 | 4/4 | 0/4 | 0/4 |" in text


def test_calibrate_needs_two_clean_runs(tmp_path, capsys):
    run = fabricate(tmp_path / "run.jsonl", seed=1)
    assert main(["calibrate", run]) == 2
    assert "at least two runs" in capsys.readouterr().err
