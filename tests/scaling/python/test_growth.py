"""Growth models: known synthetic laws come back with the right terms and verdicts."""
import math

import pytest
from fabricate import fabricate

from hpart_scaling.cli import main
from hpart_scaling.growth import PARSIMONY, choose_model, describe, evaluate, verdict

P = [1, 2, 4, 8, 16]


@pytest.mark.parametrize("law,terms,verdict_start", [
    (lambda p: 100 + 50 * math.log2(p), {"1", "log2P"}, "ready for 1e5"),
    (lambda p: 10 * p, {"P"}, "O(P) term"),
    (lambda p: 40 + 3 * p, {"1", "P"}, "O(P) term"),
    (lambda p: 7.0, {"1"}, "ready for 1e5"),
])
def test_communication_laws_are_recovered(law, terms, verdict_start):
    ranks = P[1:]  # a single rank sends nothing: P = 1 is left out of communication fits
    model, rel = choose_model(ranks, [law(p) for p in ranks], n=1e6, weak=True)
    assert set(model) == terms and rel < 1e-6, describe("y", model)
    assert evaluate(model, 1e5, 1e6) == pytest.approx(law(1e5), rel=1e-6)
    assert verdict("bytes_max", model, 1e6).startswith(verdict_start)


def test_strong_memory_shrinking_as_n_over_p_is_ready_and_growing_memory_is_flagged():
    n = 1e6
    shrinking, _ = choose_model(P, [30 + 4e-4 * n / p for p in P], n, weak=False)
    assert set(shrinking) == {"1", "N/P"}
    assert verdict("peak_rss_mean_mb", shrinking, n) == "ready for 1e5"
    growing, _ = choose_model(P, [30 + 2 * math.log2(p) for p in P], n, weak=False)
    assert verdict("peak_rss_mean_mb", growing, n).startswith("memory grows with log2P")


def test_a_small_p_term_in_exact_counts_is_kept():
    """1000 log2 P + 8 P: within 5% of log2 P alone up to P = 16, but 98% P at 1e5: kept and flagged."""
    ranks = P[1:]
    model, _ = choose_model(ranks, [1000 * math.log2(p) + 8 * p for p in ranks], 1e6, weak=True)
    assert set(model) == {"log2P", "P"}
    assert verdict("bytes_max", model, 1e6).startswith("O(P) term: 8·P is 98%")


def test_noisy_memory_is_not_mistaken_for_growth():
    noise = [1.02, 0.97, 1.01, 0.99, 1.02]
    values = [(30 + 4e-4 * 1e6 / p) * e for p, e in zip(P, noise)]
    model, _ = choose_model(P, values, 1e6, weak=False, tolerance=PARSIMONY["memory"])
    assert verdict("peak_rss_mean_mb", model, 1e6) == "ready for 1e5", describe("y", model)


def test_models_command_writes_the_table(tmp_path, capsys):
    run = fabricate(tmp_path / "run.jsonl", seed=1)
    assert main(["models", run, "--report", str(tmp_path / "m.md")]) == 0
    text = (tmp_path / "m.md").read_text()
    # fabricate's bytes_max = 1000 log2 P + 8 P: the P term is 8e5 of 8.17e5 at 1e5 ranks
    assert "| points/hilbert | bytes_max |" in text and "O(P) term: 8·P" in text
    assert "| graph/kway | messages_max | messages_max ≈ 2·log2P |" in text
    assert "Limits:" in text


def test_poor_fits_and_negligible_memory():
    assert verdict("bytes_max", {"1": 5.0}, 1e6, rel=0.2).startswith("poor fit (rms 20%)")
    assert verdict("rss_growth_mb", {"log2P": 0.1}, 1e6, largest=0.3) == "ready for 1e5 (under 1 MiB)"
    assert verdict("rss_growth_mb", {"log2P": 2.0}, 1e6, largest=8.0).startswith("memory grows with log2P")
