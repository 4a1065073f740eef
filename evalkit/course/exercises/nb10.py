"""Exercises of notebook 10, how sure a metric is.

* 10.1 -- choose the method: an interval for a recall of 20/20 (Wald and
  the bootstrap collapse to a point, Wilson does not); a choice;
* 10.2 -- a judgement: two separate intervals overlap, the paired one does
  not; what follows?
* 10.3 -- choose the method, then compute: the paired (DeLong) test of two
  AUCs on the same patients; three decimals count.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import two_scorers
from . import Case, Exercise, register

__all__ = ["EX_10_1", "EX_10_2", "EX_10_3", "WRONG_ANSWERS", "two_scorers"]


# --------------------------------------------------------------------------
# 10.1  the Wilson interval of a recall

CAUGHT, CANCERS = 20, 20          # every cancer caught: recall 1


def _interval_that_does_not_collapse():
    wald = ek.proportion_ci(CAUGHT, CANCERS, method="normal")
    wilson = ek.proportion_ci(CAUGHT, CANCERS, method="wilson")
    y = np.ones(CANCERS, dtype=int)
    boot = ek.bootstrap_ci(ek.recall_score, y, y, random_state=0)
    collapsed = wald.high - wald.low < 1e-12 and boot.high - boot.low < 1e-12
    return "b" if collapsed and wilson.low < 0.9 else "a"


EX_10_1 = register(Exercise(
    id="10.1",
    prompt="a screening model caught every one of 20 cancers: which interval for its recall?",
    kind="choice",
    choices={
        "a": "the normal (Wald) interval, p ± 1.96·sqrt(p(1 - p)/n): the textbook one",
        "b": "the Wilson interval: it stays honest at 0 and n successes",
        "c": "a percentile bootstrap over the 20 cancers",
        "d": "none: the recall is 1, there is nothing uncertain about it",
    },
    feedback={
        "a": "at p = 1 the Wald standard error sqrt(p(1 - p)/n) is 0: the interval is [1, 1], as if "
             "20 cancers proved the model never misses.",
        "b": "Wilson's interval inverts the score test and keeps a width at 0 and n successes: its "
             "lower end says how low the true recall could plausibly be after 20 of 20.",
        "c": "every resample of 20 caught cancers has recall 1, so the bootstrap interval is [1, 1] "
             "too: resampling cannot invent a miss it never saw.",
        "d": "20 cancers are a small sample: a model that misses 1 cancer in 10 catches all of 20 "
             "about 12 % of the time.",
    },
    cases=[Case("20 of 20 cancers caught", {}, _interval_that_does_not_collapse)],
    solution="b",
    kind_of_question="choose the method",
    data={"cancers": CANCERS, "caught": CAUGHT},
    hint="Compute each candidate: ek.proportion_ci(caught, cancers, method='normal' or 'wilson'), "
         "and ek.bootstrap_ci(ek.recall_score, y, y) with y = np.ones(20, int). Which ones "
         "collapse to a single point?",
))


EX_10_2 = register(Exercise(
    id="10.2",
    prompt="two spam filters on the same mails: separate intervals overlap, the paired one is above 0",
    kind="choice",
    choices={
        "a": "the filters cannot be told apart, because their intervals overlap",
        "b": "A is better on F1 on mails like these; the difference is small but not luck",
        "c": "A is better by 0.007 and will be better by 0.007 on next month's mail",
        "d": "nothing can be said without a bigger test set",
    },
    cases=[Case("the paired difference 0.007, 95 % interval 0.002 to 0.012, p = 0.01", {},
                lambda: "b")],
    solution="b",
    kind_of_question="judgement",
    feedback={
        "a": "overlapping separate intervals do not settle it when both filters saw the same "
             "mails: their errors are correlated, and only the paired analysis uses that.",
        "b": "the paired interval for the difference excludes 0: on mails like these A is better, "
             "by about 0.002 to 0.012 of F1, a small difference that is not luck.",
        "c": "the interval says the difference on mail like this lies between 0.002 and 0.012; "
             "next month's mail may differ, and 0.007 is only the middle of the interval.",
        "d": "the paired test already separates them at this size; a bigger set would narrow the "
             "interval, not change its sign.",
    },
    hint="Both filters saw the same mails, so their errors are correlated: which of the two "
         "analyses uses that? And does an interval for the difference say the difference will be "
         "exactly 0.007 next time?",
))


# --------------------------------------------------------------------------
# 10.3  DeLong's test on new data


def _delong_p(d):
    return ek.delong_test(d.y, d.score_a, d.score_b).p_value


def _own_scorers():
    return SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), two_scorers())))


def _new_scorers(rng):
    """Another 400 patients, drawn until the p-value is neither about 0 nor about 1 (3 decimals)."""
    while True:
        loader = functools.partial(two_scorers, seed=int(rng.integers(2**31)))
        p = _delong_p(SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), loader()))))
        if 0.001 < p < 0.999:
            return {"y, score_a, score_b": loader}


EX_10_3 = register(Exercise(
    id="10.3",
    prompt="the p-value of the test that fits: do two risk scores on the same 400 patients differ "
           "in AUC? (two-sided, 3 decimals)",
    kind="value",
    cases=[Case("two risk scores on the same 400 patients")],
    expect=_delong_p,
    variant=_new_scorers,
    decimals=3,
    solution=round(_delong_p(_own_scorers()), 3),
    kind_of_question="choose the method, then compute",
    data={"y, score_a, score_b": two_scorers},
    hint="Both scores were computed on the same patients, so their AUCs are correlated: a test "
         "that treats them as two separate samples overstates the variance of the difference. "
         "Which test of notebook 10 is paired for AUCs?",
))


def _unpaired_p():
    # two independent DeLong intervals read as a z-test: ignores the correlation
    y, a, b = two_scorers()
    ca, cb = ek.roc_auc_ci(y, a), ek.roc_auc_ci(y, b)
    z = (ca.estimate - cb.estimate) / np.hypot(ca.standard_error, cb.standard_error)
    from statistics import NormalDist
    return 2 * (1 - NormalDist().cdf(abs(z)))


WRONG_ANSWERS = {
    "10.1": ["a", "c", "d"],
    "10.2": ["a", "c", "d"],
    "10.3": [round(_unpaired_p(), 3), round(1 - _delong_p(_own_scorers()), 3)],
}
