"""Exercises of notebook 10, how sure a metric is.

* 10.0 -- check your understanding (in the body, after the groups and time
  section): several X-rays per patient, a model for new patients; which
  cross-validation? a choice;
* 10.1 -- a judgement (choose the method): an interval for a recall of 20/20
  (Wald and the bootstrap collapse to a point, Wilson does not); a choice;
* 10.2 -- a judgement on a new result: a paired interval that contains 0
  and a difference that would matter; does "p > 0.05" mean the filters are
  equally good?
* 10.3 -- transfer (choose the method, then compute): a paired test of two AUCs on the
  same patients. DeLong's p counts to three decimals; the paired bootstrap's
  and the permutation test's p with 20,000 draws are accepted within their
  Monte Carlo error; one with the default 2,000 draws, too rough for three
  decimals, is told so, and an answer matching a known mistake (the unpaired
  test, 1 - p, a one-sided p) is told which it matches.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import two_scorers
from . import Case, Exercise, Known, register

__all__ = ["EX_10_0", "EX_10_1", "EX_10_2", "EX_10_3", "WRONG_ANSWERS", "two_scorers"]


# --------------------------------------------------------------------------
# 10.0  the split that matches how the model will be used

XRAYS_10_0 = {"images": 3_000, "patients": 500, "used_on": "patients never seen before",
              "kfold_auc": 0.97}


def _split_for_new_patients():
    """Group by patient when rows share patients and the model meets new ones."""
    d = SimpleNamespace(**XRAYS_10_0)
    if d.images > d.patients and d.used_on.startswith("patients never"):
        return "b"
    raise RuntimeError("10.0's story should call for a group split")


EX_10_0 = register(Exercise(
    id="10.0",
    prompt="3,000 X-rays of 500 patients, a model for new patients: which cross-validation?",
    kind="choice",
    choices={
        "a": "KFold with shuffle=True: shuffling the images removes any order that could leak",
        "b": "GroupKFold with the patient as the group: no patient has images on both sides "
             "of a fold",
        "c": "TimeSeriesSplit on the order the images were taken",
        "d": "StratifiedKFold: the same share of positive images in every fold",
    },
    feedback={
        "a": "shuffling puts images of one patient in the training and the test folds alike: the "
             "model is tested on patients it has already seen, which new patients never are.",
        "b": "the model will meet new patients, so each fold must test on patients it never "
             "trained on; grouping by patient makes the folds ask that question.",
        "c": "nothing in this story changes with time: the model's use is new patients, not a "
             "later period, so an order in time is not the thing to split on.",
        "d": "stratifying keeps the class shares but still puts one patient's images in "
             "training and test alike, so the score is still inflated.",
    },
    cases=[Case("several images per patient, used on new patients", {},
                _split_for_new_patients)],
    solution="b",
    kind_of_question="check",
    data=dict(XRAYS_10_0),
    hint="Ask what the model will face in use, then which split makes every test fold face "
         "the same: where can rows of one patient end up?",
))


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
        "a": "at p = 1 the Wald standard error sqrt(p(1 - p)/n) vanishes: the interval is [1, 1], "
             "as if 20 cancers proved the model never misses.",
        "b": "Wilson's interval inverts the score test and keeps a width at 0 and n successes: "
             "its lower end says how low the true recall could plausibly be after 20 of 20.",
        "c": "every resample of 20 caught cancers has recall 1, so the bootstrap interval is "
             "[1, 1] too: resampling cannot invent a miss it never saw.",
        "d": "20 cancers are a small sample: a model that misses 1 cancer in 10 catches all of 20 "
             "about 12 % of the time.",
    },
    cases=[Case("20 of 20 cancers caught", {}, _interval_that_does_not_collapse)],
    solution="b",
    kind_of_question="judgement",
    data={"cancers": CANCERS, "caught": CAUGHT},
    hint="Compute each candidate: ek.proportion_ci(caught, cancers, method='normal' or 'wilson'), "
         "and ek.bootstrap_ci(ek.recall_score, y, y) with y = np.ones(20, int). Which ones "
         "collapse to a single point?",
))


#: 10.2: the paired bootstrap of F1(A) - F1(B) on the same 2,000 mails, and the smallest
#: difference the team would act on.
PAIRED_10_2 = {"difference": 0.007, "ci_low": -0.001, "ci_high": 0.015, "p_value": 0.09,
               "difference_that_matters": 0.01}


def _what_the_paired_result_says():
    """'Cannot tell' when the interval holds 0 and a difference that matters (neither settled)."""
    r = SimpleNamespace(**PAIRED_10_2)
    holds_zero = r.ci_low < 0 < r.ci_high
    holds_what_matters = r.ci_high >= r.difference_that_matters
    if holds_zero and holds_what_matters:
        return "b"
    raise RuntimeError("10.2's numbers should leave the question open")


EX_10_2 = register(Exercise(
    id="10.2",
    prompt="two spam filters on the same mails: the paired interval of the F1 difference holds 0; "
           "are they equally good?",
    kind="choice",
    choices={
        "a": "yes: p > 0.05, so the two filters are equally good and either can be shipped",
        "b": "not known: the difference lies somewhere from about 0 to 0.015 of F1, which includes "
             "differences that would matter; more mails are needed to settle it",
        "c": "A is better: the observed difference is positive",
        "d": "the paired test is the wrong tool here: with the same mails, compare the two "
             "separate intervals instead",
    },
    cases=[Case("paired difference 0.007, 95 % interval -0.001 to 0.015, p = 0.09", {},
                _what_the_paired_result_says)],
    solution="b",
    kind_of_question="judgement",
    data=dict(PAIRED_10_2),
    feedback={
        "a": "a p-value above 0.05 says the data do not rule out a difference of 0; it does not "
             "say the difference is 0.",
        "b": "the interval holds 0 and 0.01 alike: the data rule out neither 'no difference' nor "
             "one that matters. A larger test set would narrow it, as section 5's 1/sqrt(n) says.",
        "c": "0.007 is the middle of an interval that reaches below 0: a difference this size "
             "arises by luck often enough (p = 0.09) that it is not evidence A is better.",
        "d": "both filters saw the same mails, which is what a paired analysis is for (section "
             "6); two separate intervals ignore the pairing and come out wider.",
    },
    hint="Read the interval, not only the p-value: which differences does it hold? Is 0 among "
         "them? Is the difference the team would act on among them? What would each "
         "possibility mean?",
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


def _monte_carlo_error(p, draws=20_000):
    """Three standard errors of a resampling p-value of ``draws`` draws, plus the rounding.

    The paired bootstrap and the permutation test estimate the same p as
    DeLong's test; a seed moves them by about sqrt(p(1-p)/B). For the
    notebook's patients (DeLong 0.167) 2,000 draws gave 0.152 to 0.178 over ten
    seeds, too rough for three decimals and a band that would let classmates'
    answers pass each other's variants; 20,000 draws gave 0.163 and 0.169.
    """
    return 3 * float(np.sqrt(p * (1 - p) / draws)) + 0.0005


KNOWN_10_3 = (
    Known("the unpaired test (two separate AUC intervals read as independent samples)", _unpaired),
    Known("1 - p: the confidence, not the p-value", lambda d: 1 - _delong_p(d)),
    Known("a one-sided p-value (half the two-sided one)", lambda d: _delong_p(d) / 2),
    Known("a paired resampling test (paired bootstrap or permutation, 20,000 draws), within its "
          "Monte Carlo error (DeLong's test gives this comparison's p without resampling)",
          _delong_p, accepted=True, within=_monte_carlo_error),
    Known("the p of a paired test, to within the Monte Carlo error of 2,000 draws: too rough for 3 "
          "decimals; run it with n_resamples=20_000, or use DeLong's test", _delong_p,
          within=lambda p: _monte_carlo_error(p, draws=2000)),
)


def _own_scorers():
    return SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), two_scorers())))


#: the p-value bands a variant's p is drawn in, one chosen at random: most draws of 400 patients
#: give a small p, and a resampling answer is accepted within a band of up to ±0.011, so without
#: spreading them two students' answers would often pass each other's variants (no p below 0.01:
#: there a resampling p's own bias, not its Monte Carlo error, would decide)
P_BANDS = ((0.01, 0.05), (0.05, 0.15), (0.15, 0.35), (0.35, 0.65), (0.65, 0.999))


def _new_scorers(rng):
    """Another 400 patients, drawn until the p-value is near a target in a band of ``P_BANDS``.

    A p that a resampling answer to the notebook's own patients (public,
    answers shared online) would pass for is drawn again: copying it must
    not pay.
    """
    low, high = P_BANDS[int(rng.integers(len(P_BANDS)))]
    target = rng.uniform(low, high)     # spread evenly in the band: natural draws crowd its low end
    while True:
        loader = functools.partial(two_scorers, seed=int(rng.integers(2**31)))
        p = _delong_p(SimpleNamespace(**dict(zip(("y", "score_a", "score_b"), loader()))))
        if (abs(p - target) <= (high - low) / 6
                and abs(p - OWN_P) > _monte_carlo_error(p) + _monte_carlo_error(OWN_P)):
            return {"y, score_a, score_b": loader}


OWN_P = _delong_p(_own_scorers())   # the notebook's own p, which a variant keeps away from


EX_10_3 = register(Exercise(
    id="10.3",
    prompt="the p-value of the test that fits: do two risk scores on the same 400 patients "
           "differ in AUC? (two-sided; DeLong's to 3 decimals, a resampling test's with 20,000 "
           "draws within its Monte Carlo error)",
    kind="value",
    cases=[Case("two risk scores on the same 400 patients")],
    expect=_delong_p,
    variant=_new_scorers,
    decimals=3,
    known=KNOWN_10_3,
    solution=round(OWN_P, 3),
    kind_of_question="transfer",
    data={"y, score_a, score_b": two_scorers},
    hint="Both scores were computed on the same patients, so their AUCs are correlated: a test "
         "that treats them as two separate samples overstates the variance of the difference. "
         "Which test of notebook 10 is paired for AUCs?",
))


WRONG_ANSWERS = {
    "10.0": ["a", "c", "d"],
    "10.1": ["a", "c", "d"],
    "10.2": ["a", "c", "d"],
    "10.3": [round(_unpaired(_own_scorers()), 3), round(1 - _delong_p(_own_scorers()), 3),
             round(_delong_p(_own_scorers()) / 2, 3)],
}
