"""Exercises of notebook 10, how sure a metric is.

* 10.1 -- choose the method: an interval for a recall of 20/20 (Wald and
  the bootstrap collapse to a point, Wilson does not); a choice;
* 10.2 -- a judgement: two separate intervals overlap, the paired one does
  not; what follows?
* 10.3 -- choose the method, then compute: a paired test of two AUCs on the
  same patients. DeLong's p counts to three decimals; the paired bootstrap's
  and the permutation test's p (2,000 draws) are accepted within their Monte
  Carlo error, and an answer matching a known mistake (the unpaired test,
  1 - p, a one-sided p) is told which it matches.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import two_scorers
from . import Case, Exercise, Known, register

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


def _unpaired(d):
    """Two separate DeLong intervals read as independent: the test that ignores the pairing."""
    from statistics import NormalDist
    ca, cb = ek.roc_auc_ci(d.y, d.score_a), ek.roc_auc_ci(d.y, d.score_b)
    z = (ca.estimate - cb.estimate) / np.hypot(ca.standard_error, cb.standard_error)
    return 2 * (1 - NormalDist().cdf(abs(z)))


def _monte_carlo_error(p, draws=2000):
    """Three standard errors of a resampling p-value of ``draws`` draws, plus the 3-decimal rounding.

    The paired bootstrap and the permutation test estimate the same p as
    DeLong's test (their values for the notebook's patients: 0.152 to 0.178
    over ten seeds, DeLong 0.167); a seed moves them by about sqrt(p(1-p)/B).
    """
    return 3 * float(np.sqrt(p * (1 - p) / draws)) + 0.0005


KNOWN_10_3 = (
    Known("the unpaired test (two separate AUC intervals read as independent samples)", _unpaired),
    Known("1 - p: the confidence, not the p-value", lambda d: 1 - _delong_p(d)),
    Known("a one-sided p-value (half the two-sided one)", lambda d: _delong_p(d) / 2),
    Known("a paired resampling test (paired bootstrap or permutation, 2,000 draws), within its Monte "
          "Carlo error (DeLong's test gives this comparison's p without resampling)", _delong_p,
          accepted=True, within=_monte_carlo_error),
)


def _own_scorers():
    return SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), two_scorers())))


#: the p-value bands a variant's p is drawn in, one chosen at random: most draws of 400 patients
#: give a small p, and a resampling answer is accepted within a band of about ±0.02, so without
#: spreading them two students' answers would often pass each other's variants
P_BANDS = ((0.001, 0.05), (0.05, 0.15), (0.15, 0.35), (0.35, 0.65), (0.65, 0.999))


def _new_scorers(rng):
    """Another 400 patients, drawn until the p-value falls in a band of ``P_BANDS`` chosen at random.

    A p that a resampling answer to the notebook's own patients (public,
    answers shared online) would pass for is drawn again: copying it must
    not pay.
    """
    low, high = P_BANDS[int(rng.integers(len(P_BANDS)))]
    while True:
        loader = functools.partial(two_scorers, seed=int(rng.integers(2**31)))
        p = _delong_p(SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), loader()))))
        if low < p < high and abs(p - OWN_P) > _monte_carlo_error(p) + _monte_carlo_error(OWN_P):
            return {"y, score_a, score_b": loader}


OWN_P = _delong_p(_own_scorers())   # the notebook's own p, which a variant keeps away from


EX_10_3 = register(Exercise(
    id="10.3",
    prompt="the p-value of the test that fits: do two risk scores on the same 400 patients differ "
           "in AUC? (two-sided; DeLong's to 3 decimals, a resampling test's within its Monte Carlo error)",
    kind="value",
    cases=[Case("two risk scores on the same 400 patients")],
    expect=_delong_p,
    variant=_new_scorers,
    decimals=3,
    known=KNOWN_10_3,
    solution=round(OWN_P, 3),
    kind_of_question="choose the method, then compute",
    data={"y, score_a, score_b": two_scorers},
    hint="Both scores were computed on the same patients, so their AUCs are correlated: a test "
         "that treats them as two separate samples overstates the variance of the difference. "
         "Which test of notebook 10 is paired for AUCs?",
))


WRONG_ANSWERS = {
    "10.1": ["a", "c", "d"],
    "10.2": ["a", "c", "d"],
    "10.3": [round(_unpaired(_own_scorers()), 3), round(1 - _delong_p(_own_scorers()), 3),
             round(_delong_p(_own_scorers()) / 2, 3)],
}
