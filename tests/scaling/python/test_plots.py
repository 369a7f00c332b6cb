"""Plots: every PNG is written, non-empty, with and without a baseline, for both modes."""
import os

import pytest
from fabricate import fabricate

from hpart_scaling.cli import main


@pytest.mark.parametrize("mode", ["strong", "weak"])
def test_plot_writes_pngs(tmp_path, capsys, mode):
    run = fabricate(tmp_path / "run.jsonl", mode=mode, seed=1)
    base = fabricate(tmp_path / "base.jsonl", mode=mode, seed=2, slow={("graph", "kway"): 1.5})
    assert main(["plot", run, "--baseline", base, "--out", str(tmp_path / "png")]) == 0
    for name in ("speedup", "efficiency", "bytes_per_rank", "messages_per_rank", "memory_per_rank"):
        path = tmp_path / "png" / f"{name}_{mode}.png"
        assert path.stat().st_size > 10_000, path
        with open(path, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert main(["plot", run, "--out", str(tmp_path / "alone")]) == 0
    assert len(os.listdir(tmp_path / "alone")) == 5
