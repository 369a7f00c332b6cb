"""The time rule's promises on synthetic runs with a realistic noise (fabricate.py): at most 5% false
alarms per method, and a 25% slowdown caught at least 90% of the time. These assert the rule: a
change to it that loses power or cries wolf fails here."""
import math

import numpy as np
import pytest
from fabricate import meta, run_records

from hpart_scaling.records import RunFile
from hpart_scaling.time_rule import RuleOptions, judge_method, log_samples, stratified_test

PAIRS = 200
METHOD = ("graph", "kway")


def synthetic_run(seed, sigma, **kw):
    run = RunFile(f"run{seed}", meta(), run_records(seed=seed, sigma=sigma, methods=[METHOD], **kw))
    return log_samples(run, normalise=True)[METHOD]


@pytest.mark.parametrize("sigma", [0.05, 0.1])
def test_false_alarms_and_power_on_independent_pairs(sigma):
    opts = RuleOptions()
    false_alarms = caught = caught_2x = 0
    for pair in range(PAIRS):
        base = synthetic_run(10_000 + 2 * pair, sigma)
        cur = synthetic_run(10_001 + 2 * pair, sigma)
        false_alarms += judge_method(*METHOD, base, cur, opts).regression
        caught += judge_method(*METHOD, base, cur, opts, shift=math.log(1.25)).regression
        caught_2x += judge_method(*METHOD, base, cur, opts, shift=math.log(2.0)).regression
    print(f"sigma {sigma}: false alarms {false_alarms}/{PAIRS}, 25% caught {caught}/{PAIRS}, "
          f"2x caught {caught_2x}/{PAIRS}")
    assert false_alarms <= 0.05 * PAIRS
    assert caught >= 0.90 * PAIRS
    assert caught_2x == PAIRS


def test_a_slower_machine_is_not_a_regression():
    """A run on a machine 40% slower throughout (floor included) is not a regression: the floor cancels it."""
    base = RunFile("b", meta(), run_records(seed=1, methods=[METHOD]))
    cur_records = run_records(seed=2, methods=[METHOD])
    for rec in cur_records:
        rec["times_s"] = [t * 1.4 for t in rec["times_s"]]
    cur = RunFile("c", meta(), cur_records)
    verdict = judge_method(*METHOD, log_samples(base, True)[METHOD], log_samples(cur, True)[METHOD], RuleOptions())
    assert not verdict.regression and abs(verdict.effect - 1) < 0.1


def test_exact_enumeration_gives_the_textbook_p():
    """Fully separated samples, 3 + 3 rounds at one P: with the rank sum the only relabelling as
    extreme as the observed one is itself, p = 1/C(6, 3) = 1/20, exactly (no random permutations).
    The difference of medians ties once more (exchanging 1.0 and 0.2 leaves it at 1.0): p = 2/20."""
    b, c = np.array([0.0, 0.1, 0.2]), np.array([1.0, 1.1, 1.2])
    assert stratified_test([(b, c)], statistic="ranks")[1] == pytest.approx(1 / 20)
    d, p = stratified_test([(b, c)])
    assert d == pytest.approx(1.0) and p == pytest.approx(2 / 20)
    assert stratified_test([(b, c), (b, c)], statistic="ranks")[1] == pytest.approx(1 / 400)


def test_random_permutations_are_reproducible():
    rng = np.random.default_rng(5)
    strata = [(rng.normal(0, 0.1, 5), rng.normal(0.05, 0.1, 5)) for _ in range(5)]
    assert stratified_test(strata) == stratified_test(strata)
    assert stratified_test(strata)[1] >= 1 / 4001
