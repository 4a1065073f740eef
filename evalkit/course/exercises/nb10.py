"""Exercises of notebook 10, how sure a metric is.

* 10.1 -- the Wilson interval of a recall read as a proportion: transfer of
  section 4 to new counts;
* 10.2 -- a judgement: two separate intervals overlap, the paired one does
  not; what follows?
* 10.3 -- DeLong's test of two correlated AUCs on new data.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_10_1", "EX_10_2", "EX_10_3", "WRONG_ANSWERS", "two_scorers"]


# --------------------------------------------------------------------------
# 10.1  the Wilson interval of a recall

CAUGHT, CANCERS, BIOPSIES = 51, 57, 60

EX_10_1 = register(Exercise(
    id="10.1",
    prompt="the lower end of the 95 % Wilson interval of a recall of 51/57",
    kind="value",
    cases=[Case("51 of 57 cancers caught", {},
                lambda: ek.proportion_ci(CAUGHT, CANCERS, method="wilson").low)],
    rtol=1e-4,
    solution=ek.proportion_ci(CAUGHT, CANCERS).low,
    hint="Recall is a proportion of the actual positives: successes are the cancers caught, trials "
         "the cancers there were (not the biopsies). ek.proportion_ci(successes, trials) gives a "
         "Wilson interval by default; its .low is the lower end.",
))


# --------------------------------------------------------------------------
# 10.2  overlapping separate intervals, a paired interval above 0

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
    hint="Both filters saw the same mails, so their errors are correlated: which of the two "
         "analyses uses that? And does an interval for the difference say the difference will be "
         "exactly 0.007 next time?",
))


# --------------------------------------------------------------------------
# 10.3  DeLong's test on new data


def two_scorers():
    """400 patients and two risk scores on the same patients: ``(y, score_a, score_b)``.

    Both scores see the same underlying risk; score B sees it through more
    noise.

    >>> y, a, b = two_scorers()
    >>> y.shape, a.shape, b.shape, int(y.sum())
    ((400,), (400,), (400,), 102)
    """
    rng = np.random.default_rng(10)
    n = 400
    risk = rng.normal(size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(2.0 * risk - 1.2)))).astype(int)
    score_a = risk + rng.normal(scale=0.6, size=n)
    score_b = risk + rng.normal(scale=0.9, size=n)
    return y, score_a, score_b


def _delong_p():
    y, a, b = two_scorers()
    return ek.delong_test(y, a, b).p_value


EX_10_3 = register(Exercise(
    id="10.3",
    prompt="the two-sided p-value of DeLong's test of AUC(A) - AUC(B) on 400 patients",
    kind="value",
    cases=[Case("two risk scores on the same 400 patients", {}, _delong_p)],
    rtol=1e-6,
    solution=_delong_p(),
    hint="The two scores were computed on the same patients, so their ROC curves are correlated: "
         "ek.delong_test(y, score_a, score_b) takes that into account; its .p_value is the answer.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _unpaired_p():
    # two independent DeLong intervals read as a z-test: ignores the correlation
    y, a, b = two_scorers()
    ca, cb = ek.roc_auc_ci(y, a), ek.roc_auc_ci(y, b)
    z = (ca.estimate - cb.estimate) / np.hypot(ca.standard_error, cb.standard_error)
    from statistics import NormalDist
    return 2 * (1 - NormalDist().cdf(abs(z)))


WRONG_ANSWERS = {
    "10.1": [ek.proportion_ci(CAUGHT, BIOPSIES).low,
             ek.proportion_ci(CAUGHT, CANCERS, method="normal").low,
             ek.proportion_ci(CAUGHT, CANCERS, method="clopper-pearson").low,
             CAUGHT / CANCERS],
    "10.2": ["a", "c", "d"],
    "10.3": [_unpaired_p(), 1 - _delong_p()],
}
