"""Exercises of notebook 12, comparing models.

* 12.0 -- in the body, after section 4 (predict): three p-values under Holm's
  correction; which comparisons still show a difference;
* 12.1 -- a judgement: one pair of a 40-comparison table is "significant"
  before the correction and not after; what is reported?
* 12.2 -- compute: three classifiers on the same patients, McNemar's test
  of every pair, Holm's correction; the smallest adjusted p-value.
* 12.3 -- choose the method: the test for two AUCs on the same patients.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import three_classifiers
from . import Case, Exercise, Known, register

__all__ = ["EX_12_0", "EX_12_1", "EX_12_2", "EX_12_3", "WRONG_ANSWERS", "three_classifiers"]

_NAMES = ("y", "pred_a", "pred_b", "pred_c")


# --------------------------------------------------------------------------
# 12.0  (in the body) three p-values and Holm's correction

THREE_P = {"p_values": {"A vs B": 0.01, "A vs C": 0.04, "B vs C": 0.03}, "alpha": 0.05}
_THREE_P_OPTIONS = {"a": {"A vs B", "A vs C", "B vs C"}, "b": {"A vs B"}, "c": {"A vs B", "A vs C"}}


def _holm(p):
    """Holm's step-down: the i-th smallest (from 0) times m - i, kept non-decreasing, at most 1.

    The rule compare(correction="holm") applies; the tests check both against statsmodels.
    """
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    stepped = np.maximum.accumulate(p[order] * (len(p) - np.arange(len(p))))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def _three_p_choice():
    """The option naming the comparisons whose Holm-adjusted p-value stays below alpha."""
    names = list(THREE_P["p_values"])
    adjusted = _holm(list(THREE_P["p_values"].values()))
    kept = {n for n, a in zip(names, adjusted) if a < THREE_P["alpha"]}
    return next(k for k, v in _THREE_P_OPTIONS.items() if v == kept)


EX_12_0 = register(Exercise(
    id="12.0",
    prompt="three comparisons, p = 0.01, 0.04 and 0.03: which still show a difference after Holm?",
    kind="choice",
    choices={
        "a": "all three: each p-value is below 0.05",
        "b": "only A vs B",
        "c": "A vs B and A vs C: the largest p-value is multiplied by 1 and 0.04 stays below 0.05",
    },
    feedback={
        "a": "that is no correction: three comparisons of equal models would find a false winner "
             "far more often than 5 % of the time.",
        "b": "sorted, 0.01 × 3 = 0.03, 0.03 × 2 = 0.06, 0.04 × 1 = 0.04, and the adjusted values "
             "are kept non-decreasing: 0.03, 0.06, 0.06. Only the first stays below 0.05.",
        "c": "Holm steps down from the smallest p-value and stops at the first that fails: a "
             "larger p-value is never kept once a smaller one has failed, whatever it is "
             "multiplied by.",
    },
    cases=[Case("three comparisons, Holm at 0.05", {}, _three_p_choice)],
    solution="b",
    kind_of_question="predict",
    data=THREE_P,
    hint="Sort the p-values; multiply the smallest by 3, the next by 2, the last by 1; then no "
         "adjusted value may be smaller than the one before it.",
))


EX_12_1 = register(Exercise(
    id="12.1",
    prompt="5 models x 4 metrics, all pairs: 40 comparisons; one has p = 0.02, Holm-adjusted 0.6",
    kind="choice",
    choices={
        "a": "report that model B beats model A on recall (p = 0.02)",
        "b": "report no difference shown after the correction; test that one pair again on new "
             "data",
        "c": "report that all five models are equally good",
        "d": "drop the correction: with 40 comparisons it is too strict to be useful",
    },
    feedback={
        "a": "among 40 comparisons of equal models, a p-value of 0.02 somewhere is expected: "
             "picking it out once the table is in front of you is the error the correction guards "
             "against.",
        "b": "after Holm's correction nothing in the table is significant; the pair is a lead to "
             "test on fresh data, where it is one planned comparison.",
        "c": "finding nothing is not proof that the models are equal: the intervals say how large "
             "a gap is still possible.",
        "d": "without a correction a table of 40 comparisons finds a false winner most of the "
             "time; Holm keeps that chance at 5 % and is the least strict way to do it.",
    },
    cases=[Case("40 comparisons, one uncorrected p = 0.02", {}, lambda: "b")],
    solution="b",
    kind_of_question="judgement",
    hint="How often does a table of 40 comparisons of equal models show at least one p below 0.05? "
         "And does 'not shown to differ' mean 'equal'?",
))


# --------------------------------------------------------------------------
# 12.2  McNemar for every pair, then Holm


def _pairs(d):
    """McNemar's test of every pair of the three classifiers, Holm-adjusted: compare's pairs."""
    models = {"a": d.pred_a, "b": d.pred_b, "c": d.pred_c}
    table = ek.compare(d.y, models, ["accuracy"], test="mcnemar", correction="holm", n_resamples=10)
    return table.pairs


def _smallest_holm_p(d):
    return min(p["p_adjusted"] for p in _pairs(d))


def _smallest_raw_p(d):
    """The smallest p-value before the correction: the mistake."""
    return min(p["p_value"] for p in _pairs(d))


KNOWN_12_2 = (
    Known("the smallest p-value with no correction for the three comparisons: each comparison "
          "is one more chance of a false winner, which Holm's correction accounts for",
          _smallest_raw_p),
)


def _own_data():
    return SimpleNamespace(**dict(zip(_NAMES, three_classifiers())))


def _new_data(rng):
    """Another 300 patients, drawn until the answer is neither about 0 nor capped at 1."""
    while True:
        loader = functools.partial(three_classifiers, seed=int(rng.integers(2**31)))
        p = _smallest_holm_p(SimpleNamespace(**dict(zip(_NAMES, loader()))))
        if 0.001 < p < 0.999:
            return {", ".join(_NAMES): loader}


EX_12_2 = register(Exercise(
    id="12.2",
    prompt="three classifiers on the same 300 patients: McNemar's exact test for every pair, "
           "Holm's correction; the smallest adjusted p-value (3 decimals)",
    kind="value",
    cases=[Case("three classifiers, three pairs")],
    expect=_smallest_holm_p,
    variant=_new_data,
    decimals=3,
    known=KNOWN_12_2,
    solution=round(_smallest_holm_p(_own_data()), 3),
    kind_of_question="transfer",
    data={", ".join(_NAMES): three_classifiers},
    hint="ek.compare takes the three label arrays as a dict, the metric 'accuracy', "
         "test='mcnemar' and correction='holm'; each pair's adjusted p-value is in .pairs.",
))


EX_12_3 = register(Exercise(
    id="12.3",
    prompt="two risk scores on the same 400 patients: which test of their AUCs?",
    kind="choice",
    choices={
        "a": "DeLong's test, paired: test={'roc_auc': 'delong'}",
        "b": "McNemar's test: test='mcnemar'",
        "c": "none: look whether the two separate AUC intervals overlap",
        "d": "a two-sample t-test of the two models' scores",
    },
    feedback={
        "a": "DeLong's test compares two AUCs computed on the same samples and uses their "
             "correlation: the paired test made for this question.",
        "b": "McNemar's test compares two classifiers' right and wrong answers (accuracy), not "
             "two rankings by score.",
        "c": "overlapping intervals do not show that two AUCs are equal, and two separate "
             "intervals treat scores of the same patients as if they came from different ones.",
        "d": "a t-test of the scores asks whether their means differ, which says nothing about "
             "how well either ranks the sick above the healthy.",
    },
    cases=[Case("two AUCs on the same patients", {}, lambda: "a")],
    solution="a",
    kind_of_question="choose the method",
    hint="Which test of notebook 10 is made for two AUCs on the same samples, and which metric "
         "does McNemar's test compare?",
))


WRONG_ANSWERS = {
    "12.0": ["a", "c"],
    "12.1": ["a", "c", "d"],
    "12.2": [round(_smallest_raw_p(_own_data()), 3)],          # no correction
    "12.3": ["b", "c", "d"],
}
