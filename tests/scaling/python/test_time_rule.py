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


def launched_run(seed, passes, launch_sigma=0.12, sigma=0.05):
    """A run of `passes` launches: each launch its own run_records (machine and round factors), and
    on top a factor per launch and record that the floor does not share (where the launch's memory
    landed, which ranks share a core): the noise a permutation of rounds cannot see."""
    rng = np.random.default_rng([seed, 7])
    merged = {}
    for k in range(passes):
        for rec in run_records(seed=1000 * seed + k, sigma=sigma, methods=[METHOD]):
            key = (rec["case"], rec["ranks"])
            factor = 1.0 if rec["case"] == "floor" else math.exp(rng.normal(0, launch_sigma))
            times = [t * factor for t in rec["times_s"]]
            if key not in merged:
                merged[key] = dict(rec, times_s=times, pass_rounds=[len(times)])
            else:
                merged[key]["times_s"] += times
                merged[key]["pass_rounds"] += [len(times)]
    return RunFile(f"run{seed}", meta(passes=passes), list(merged.values()))


def test_launches_are_the_unit_when_launches_differ():
    """With launch effects as measured on the 2-core VM, a test on rounds cries wolf; one on launch
    medians (3 passes each side) keeps false alarms within 5% and still catches 25%."""
    opts = RuleOptions()
    pairs = 120
    by_rounds = by_launch = caught = 0
    for pair in range(pairs):
        base, cur = launched_run(2 * pair, 3), launched_run(2 * pair + 1, 3)
        rounds_b, rounds_c = log_samples(base, True)[METHOD], log_samples(cur, True)[METHOD]
        launch_b, launch_c = log_samples(base, True, True)[METHOD], log_samples(cur, True, True)[METHOD]
        assert all(v.size == 3 for v in launch_b.values())
        by_rounds += judge_method(*METHOD, rounds_b, rounds_c, opts).regression
        by_launch += judge_method(*METHOD, launch_b, launch_c, opts).regression
        caught += judge_method(*METHOD, launch_b, launch_c, opts, shift=math.log(1.25)).regression
    print(f"false alarms: rounds {by_rounds}/{pairs}, launches {by_launch}/{pairs}; 25% caught {caught}/{pairs}")
    assert by_launch <= 0.05 * pairs
    assert caught >= 0.90 * pairs
    assert by_rounds > 2 * max(by_launch, 1)  # why the launches are the unit
