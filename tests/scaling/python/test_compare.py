"""`compare`: exit 0 for runs that agree, 1 naming the figure for a regression, 2 when it cannot compare."""
import subprocess

import pytest
from conftest import LAUNCHER
from fabricate import fabricate, find

from hpart_scaling.cli import main


def compare(capsys, base, cur, *extra):
    code = main(["compare", base, cur, *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def base(tmp_path):
    return fabricate(tmp_path / "base.jsonl", seed=1)


def test_identical_runs_pass(capsys, base, tmp_path):
    code, out = compare(capsys, base, base, "--report", str(tmp_path / "r.md"))
    assert code == 0, out
    assert out.startswith("PASS")
    assert (tmp_path / "r.md").read_text().splitlines()[2] == "**PASS**"


def test_another_noisy_run_of_the_same_commit_passes(capsys, base, tmp_path):
    cur = fabricate(tmp_path / "cur.jsonl", seed=2)
    code, out = compare(capsys, base, cur)
    assert code == 0, out


def edit_record(case, method, p, **changes):
    def edit(records):
        find(records, case, method, p).update(changes)
    return edit


@pytest.mark.parametrize("figure,value", [("checksum", "ffffffffffffffff"), ("messages_max", 3),
                                          ("bytes_mean", 801.0), ("collective_kinds", {"Allreduce": 5}),
                                          ("imbalance", 0.0140001)])
def test_changed_deterministic_figure_is_a_regression(capsys, base, tmp_path, figure, value):
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, edit=edit_record("points", "hilbert", 4, **{figure: value}))
    code, out = compare(capsys, base, cur, "--deterministic-only", "--report", str(tmp_path / "r.md"))
    assert code == 1, out
    assert f"points/hilbert P=4: {figure}" in out
    assert "**REGRESSION**" in (tmp_path / "r.md").read_text()


def test_printing_noise_within_tolerance_passes(capsys, base, tmp_path):
    cur = fabricate(tmp_path / "cur.jsonl", seed=1,
                    edit=edit_record("points", "hilbert", 4, imbalance=0.014 * (1 + 1e-12)))
    assert compare(capsys, base, cur, "--deterministic-only")[0] == 0


def test_missing_record_is_a_regression(capsys, base, tmp_path):
    def drop(records):
        records.remove(find(records, "graph", "kway", 8))
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, edit=drop)
    code, out = compare(capsys, base, cur, "--deterministic-only")
    assert code == 1
    assert "graph/kway P=8: record missing" in out


def test_a_rank_count_without_records_is_a_regression(capsys, base, tmp_path):
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, edit=lambda records: records.__setitem__(
        slice(None), [r for r in records if r["ranks"] != 16]))
    code, out = compare(capsys, base, cur)
    assert code == 1 and "points/hilbert P=16: record missing" in out


def test_missing_figure_is_a_regression(capsys, base, tmp_path):
    def drop(records):
        del find(records, "graph", "kway", 8)["edge_cut"]
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, edit=drop)
    code, out = compare(capsys, base, cur, "--deterministic-only")
    assert code == 1 and "edge_cut" in out


def test_memory_growth_is_a_regression_unless_deterministic_only(capsys, base, tmp_path):
    cur = fabricate(tmp_path / "cur.jsonl", seed=1,
                    edit=edit_record("grid", "sfc", 16, peak_rss_mean_mb=90.0))  # limit 56.25*1.25+16 = 86.3
    code, out = compare(capsys, base, cur)
    assert code == 1 and "grid/sfc P=16: peak_rss_mean_mb" in out
    assert compare(capsys, base, cur, "--deterministic-only")[0] == 0
    ok = fabricate(tmp_path / "ok.jsonl", seed=1, edit=edit_record("grid", "sfc", 16, peak_rss_mean_mb=85.0))
    assert compare(capsys, base, ok)[0] == 0


def test_doubled_time_is_a_regression_unless_deterministic_only(capsys, base, tmp_path):
    cur = fabricate(tmp_path / "cur.jsonl", seed=2, slow={("graph", "kway"): 2.0})
    code, out = compare(capsys, base, cur)
    assert code == 1 and "graph/kway: time" in out
    assert "points/hilbert: time" not in out
    assert compare(capsys, base, cur, "--deterministic-only")[0] == 0


def test_slowdown_at_the_largest_p_only_is_caught_per_p(capsys, tmp_path):
    base = fabricate(tmp_path / "base.jsonl", seed=1, rounds=7)
    cur = fabricate(tmp_path / "cur.jsonl", seed=2, rounds=7, slow={("grid", "sfc", 16): 3.0})
    code, out = compare(capsys, base, cur)
    assert code == 1 and "slower at P=16" in out, out


def test_without_floor_times_are_raw_and_said_so(capsys, tmp_path):
    base = fabricate(tmp_path / "base.jsonl", seed=1, floor=False)
    code, out = compare(capsys, base, base, "--report", str(tmp_path / "r.md"))
    assert code == 0
    assert "times compared raw" in (tmp_path / "r.md").read_text()


@pytest.mark.parametrize("kw", [{"mode": "weak"}, {"ranks": (1, 2, 4, 8)}, {"meta_extra": {"threads": 2}},
                                {"meta_extra": {"size": "small"}}])
def test_runs_of_different_kinds_cannot_be_compared(capsys, base, tmp_path, kw):
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, **kw)
    code, out = compare(capsys, base, cur)
    assert code == 2 and "not comparable" in out


def test_missing_or_malformed_files_cannot_be_compared(capsys, base, tmp_path):
    assert compare(capsys, base, str(tmp_path / "nope.jsonl"))[0] == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(open(base).read() + "{not json\n")
    code, out = compare(capsys, base, str(bad))
    assert code == 2 and "bad.jsonl:" in out
    no_meta = tmp_path / "nometa.jsonl"
    no_meta.write_text("".join(open(base).readlines()[1:]))
    assert compare(capsys, base, str(no_meta))[0] == 2


def test_launcher_exit_status(base, tmp_path):
    """The launcher script itself: a regression is exit status 1 from the command line."""
    cur = fabricate(tmp_path / "cur.jsonl", seed=1, edit=edit_record("points", "hilbert", 2, messages_max=99))
    proc = subprocess.run([LAUNCHER, "compare", base, cur, "--deterministic-only"], capture_output=True, text=True)
    assert proc.returncode == 1 and "messages_max" in proc.stdout
