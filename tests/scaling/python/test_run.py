"""`run` end to end with a fake mpirun and a fake worker (no MPI): the run file, passes, failures."""
import json
import os
import subprocess
import sys

import pytest
from conftest import HERE, LAUNCHER

FAKE_MPIRUN = f"{sys.executable} {os.path.join(HERE, 'fake_mpirun.py')}"
FAKE_WORKER = os.path.join(HERE, "fake_worker.py")


def run(tmp_path, *extra, env=None, out="out"):
    """`hpart-scaling run` (or, when extra starts with "check ...", `check`) with the fakes."""
    command = list(extra[:1]) if extra[:1] == ("check",) else ["run"]
    extra = extra[len(command):] if command == ["check"] else extra
    cmd = [LAUNCHER, *command, "--mpirun", FAKE_MPIRUN, "--worker", FAKE_WORKER, "--ranks", "1,2,4",
           "--size", "ci", "--rounds", "3", "--machine-class", "test", "--out", str(tmp_path / out),
           "--mode", "strong", "--passes", "1", *extra]  # the defaults are both and 6: a later option wins
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **(env or {})))


def read(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f]
    return lines[0]["meta"], lines[1:]


def test_run_writes_meta_and_records_of_every_rank_count(tmp_path):
    proc = run(tmp_path, "--mode", "both")
    assert proc.returncode == 0, proc.stderr
    assert "strong P=4 pass 1/1" in proc.stdout
    for mode in ("strong", "weak"):
        meta, records = read(tmp_path / "out" / f"{mode}.jsonl")
        assert meta["mode"] == mode and meta["ranks"] == [1, 2, 4] and meta["machine_class"] == "test"
        assert meta["compiler"] == "fake-cc 1" and meta["inject"] is None and meta["mpi"] == "fake mpirun 0.0"
        assert meta["commit"] and meta["date"].endswith("+00:00") and meta["cores"] == os.cpu_count()
        assert "-np 4" not in meta["mpirun"] and "-np 1" in meta["mpirun"]
        assert sorted({r["ranks"] for r in records}) == [1, 2, 4]
        assert {r["case"] for r in records} == {"floor", "points", "grid", "graph"}


def test_passes_append_rounds_and_keep_pairing(tmp_path):
    proc = run(tmp_path, "--passes", "2")
    assert proc.returncode == 0, proc.stderr
    _, records = read(tmp_path / "out" / "strong.jsonl")
    for rec in records:
        assert len(rec["times_s"]) == 6 and rec["rounds"] == 6 and rec["passes"] == 2
        assert rec["pass_rounds"] == [3, 3]  # the time rule's launches


def test_passes_that_disagree_are_reported(tmp_path):
    proc = run(tmp_path, "--passes", "2", env={"HPART_FAKE_NONDETERMINISTIC": "1"})
    assert proc.returncode == 1
    assert "grid/sfc P=1 pass 2: checksum" in proc.stderr
    meta, _ = read(tmp_path / "out" / "strong.jsonl")
    assert meta["nondeterministic"]


def test_failing_worker_exits_2_with_its_stderr(tmp_path):
    proc = run(tmp_path, env={"HPART_FAKE_FAIL_AT": "2"})
    assert proc.returncode == 2
    assert "out of memory in the splitter search" in proc.stderr and "exit status 3" in proc.stderr


def test_missing_worker_exits_2(tmp_path):
    proc = subprocess.run([LAUNCHER, "run", "--worker", str(tmp_path / "none"), "--machine-class", "x",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "not an executable" in proc.stderr


def test_injected_regression_is_recorded_and_caught(tmp_path):
    """The CI story: HPART_SCALING_INJECT passes through to the worker, lands in meta.inject, and
    compare turns red naming the figure."""
    assert run(tmp_path, out="base").returncode == 0
    proc = run(tmp_path, out="bad", env={"HPART_SCALING_INJECT": "points.hilbert:messages"})
    assert proc.returncode == 0
    meta, _ = read(tmp_path / "bad" / "strong.jsonl")
    assert meta["inject"] == "points.hilbert:messages"
    cmp = subprocess.run([LAUNCHER, "compare", str(tmp_path / "base" / "strong.jsonl"),
                          str(tmp_path / "bad" / "strong.jsonl"), "--deterministic-only"],
                         capture_output=True, text=True)
    assert cmp.returncode == 1 and "points/hilbert P=2: messages_max" in cmp.stdout


@pytest.mark.parametrize("command", [[], ["run"], ["compare"], ["calibrate"], ["models"], ["plot"], ["check"]])
def test_help(command):
    proc = subprocess.run([LAUNCHER, *command, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "usage: hpart-scaling" in proc.stdout
    assert "example" in proc.stdout


def test_check_passes_against_its_own_kind_and_catches_an_injection(tmp_path):
    """`check` = run + compare: green against a baseline of the same commit; with
    --expect-regression green only when the injected regression is seen; 2 without a baseline."""
    assert run(tmp_path, out="base").returncode == 0
    check = ["check", "--baseline", str(tmp_path / "base"), "--deterministic-only"]
    proc = run(tmp_path, *check, out="now")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "strong: PASS" in proc.stdout
    inject = {"HPART_SCALING_INJECT": "points.hilbert:messages"}
    assert run(tmp_path, *check, "--expect-regression", out="bad", env=inject).returncode == 0
    missed = run(tmp_path, *check, "--expect-regression", out="good")
    assert missed.returncode == 1 and "missed" in missed.stderr
    nothing = run(tmp_path, "check", "--baseline", str(tmp_path / "none"), "--expect-regression", out="x")
    assert nothing.returncode == 2
