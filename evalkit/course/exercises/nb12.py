"""Exercises of notebook 12, comparing models.

* 12.0 -- check your understanding, in the body after section 4: three
  p-values under Holm's correction; which comparisons still show a difference;
* 12.1 -- a judgement on a new situation: a baseline chosen after the all-pairs
  table was seen, which makes the correction milder; what is reported?
* 12.2 -- transfer: three classifiers on the same patients, McNemar's test
  of every pair, Holm's correction; the smallest adjusted p-value;
* 12.3 -- a judgement on a new situation: two models tested on different
  hospitals' patients, where no pairing exists; which comparison?

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
    kind_of_question="check",
    data=THREE_P,
    hint="Sort the p-values; multiply the smallest by 3, the next by 2, the last by 1; then no "
         "adjusted value may be smaller than the one before it.",
))


# --------------------------------------------------------------------------
# 12.1  a baseline chosen after the table was seen

#: Four models on one test set, every pair on the AUC: each pair's p-value before the correction.
#: The team then picks ``logistic`` as the baseline, after seeing ``gbm`` on top.
ALL_PAIRS_12_1 = {"gbm vs logistic": 0.02, "gbm vs forest": 0.19, "gbm vs tree": 0.0004,
                  "logistic vs forest": 0.016, "logistic vs tree": 0.002, "forest vs tree": 0.03}
BASELINE_12_1 = "logistic"
PAIR_12_1 = "gbm vs logistic"


def _baseline_pairs(pairs, baseline):
    return {name: p for name, p in pairs.items() if baseline in name.split(" vs ")}


def _after_the_fact_choice():
    """The option to report when the baseline family was chosen after the all-pairs table."""
    names = list(ALL_PAIRS_12_1)
    all_pairs = dict(zip(names, _holm(list(ALL_PAIRS_12_1.values()))))
    chosen = _baseline_pairs(ALL_PAIRS_12_1, BASELINE_12_1)
    against_baseline = dict(zip(chosen, _holm(list(chosen.values()))))
    if all_pairs[PAIR_12_1] >= 0.05 > against_baseline[PAIR_12_1]:
        return "b"
    raise RuntimeError("12.1's p-values should make the two families disagree on the pair")


EX_12_1 = register(Exercise(
    id="12.1",
    prompt="every pair of four models on the AUC, then logistic picked as the baseline after "
           "gbm came out on top: what is reported about gbm vs logistic?",
    kind="choice",
    choices={
        "a": "gbm beats logistic: against the baseline, Holm's adjusted p is below 0.05",
        "b": "not shown: the table that was looked at had all six pairs, and there Holm's "
             "adjusted p is above 0.05; a baseline counts only if it is chosen before the "
             "results, so test gbm against logistic again on new data",
        "c": "gbm beats logistic: its own p-value is below 0.05, and it is the one comparison "
             "the team cares about",
        "d": "both analyses are correct, so report the smaller adjusted p-value",
    },
    feedback={
        "a": "logistic became the baseline once gbm was seen on top, so the comparisons actually "
             "made were six: the milder correction for three was earned by looking first.",
        "b": "the correction must count every comparison the choice was made from; after all "
             "six, this pair's adjusted p is above 0.05. Choosing the baseline in advance "
             "(section 5) is what makes the milder correction honest.",
        "c": "the one comparison the team cares about was picked out of six by scanning them: "
             "read alone, its p-value ignores the five other chances of a false winner.",
        "d": "choosing the smaller of two p-values after computing both is one more comparison "
             "made after looking: the reported p is then too small.",
    },
    cases=[Case("a baseline chosen after the all-pairs table", {}, _after_the_fact_choice)],
    solution="b",
    kind_of_question="judgement",
    data={"p_values_all_pairs": dict(ALL_PAIRS_12_1), "baseline_chosen_afterwards": BASELINE_12_1,
          "alpha": 0.05},
    hint="Apply Holm to the six p-values, then to the three that involve logistic. Which family "
         "of comparisons did the team actually look at before choosing the baseline?",
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


# --------------------------------------------------------------------------
# 12.3  two models, two hospitals: no pairing

#: Model X was tested at hospital A, model Y at hospital B, on different patients: each AUC with
#: its DeLong standard error.
HOSPITALS_12_3 = {"model_x_at_hospital_a": {"patients": 300, "auc": 0.874, "standard_error": 0.021},
                  "model_y_at_hospital_b": {"patients": 300, "auc": 0.822, "standard_error": 0.026}}


def _no_pairing_choice():
    """Different patients: no paired test applies; the unpaired z-test of the two AUCs does."""
    x, y = HOSPITALS_12_3["model_x_at_hospital_a"], HOSPITALS_12_3["model_y_at_hospital_b"]
    same_patients = False          # the story: two hospitals, two sets of patients
    z = (x["auc"] - y["auc"]) / np.hypot(x["standard_error"], y["standard_error"])
    if not same_patients and np.isfinite(z):
        return "b"
    raise RuntimeError("12.3's story should call for an unpaired comparison")


EX_12_3 = register(Exercise(
    id="12.3",
    prompt="model X tested on hospital A's patients, model Y on hospital B's: how are their AUCs "
           "compared?",
    kind="choice",
    choices={
        "a": "DeLong's paired test: test={'roc_auc': 'delong'}",
        "b": "an unpaired test, z = (AUC_X - AUC_Y) / sqrt(se_X² + se_Y²), and a warning that the "
             "difference mixes the models with the hospitals",
        "c": "McNemar's test on the two models' right and wrong answers",
        "d": "none: models scored on different patients cannot be compared at all",
    },
    feedback={
        "a": "a paired test needs both scores of every patient, so that one patient's luck "
             "cancels in the difference; here no patient was scored by both models.",
        "b": "with two independent samples the variance of the difference is the sum of the two "
             "variances; and a difference between two hospitals' patients can come from the "
             "patients as well as from the models.",
        "c": "McNemar's test counts the patients on which two classifiers disagree, which needs "
             "both answers for each patient, and it compares accuracy, not AUCs.",
        "d": "two independent estimates can be compared, only less precisely than paired ones "
             "(no shared luck cancels), and with the hospitals as a second explanation.",
    },
    cases=[Case("two AUCs on different patients", {}, _no_pairing_choice)],
    solution="b",
    kind_of_question="judgement",
    data={k: dict(v) for k, v in HOSPITALS_12_3.items()},
    hint="Which tests of notebooks 10 and 12 need every patient to be scored by both models? "
         "What is the variance of a difference of two independent estimates?",
))


WRONG_ANSWERS = {
    "12.0": ["a", "c"],
    "12.1": ["a", "c", "d"],
    "12.2": [round(_smallest_raw_p(_own_data()), 3)],          # no correction
    "12.3": ["a", "c", "d"],
}
