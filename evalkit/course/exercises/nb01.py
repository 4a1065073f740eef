"""Exercises of notebook 01, the accuracy paradox.

* 01.0 -- in the body, after section 3 (find the bug): a fraud filter that
  flags nothing, reported with precision 0.995 and recall 1.0; why;
* 01.1 -- transfer: precision, recall and F1 of a new table laid out as the
  Spark post lays it out (rows are the prediction);
* 01.2 -- judgement: which of two screening models, and by which number
  (F2, since a missed cancer is the costly error); a choice;
* 01.3 -- transfer: write ``majority_accuracy(class_sizes)``, the accuracy
  of always predicting the largest class, for any number of classes.

Every expected value is computed with evalkit (``BinaryCounts``,
``accuracy_score``), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_01_0", "EX_01_1", "EX_01_2", "EX_01_3", "WRONG_ANSWERS"]

# --------------------------------------------------------------------------
# 01.0  (in the body) a fraud filter that flags nothing, and its glowing report

FRAUD_FILTER = {"transactions": 1000, "fraudulent": 5}


def _fraud_filter_choice():
    """The option whose claim holds: the report scored *legit* as the positive class."""
    n, fraud = FRAUD_FILTER["transactions"], FRAUD_FILTER["fraudulent"]
    y_true = np.array(["fraud"] * fraud + ["legit"] * (n - fraud))
    y_pred = np.full(n, "legit")
    legit = ek.binary_counts(y_true, y_pred, pos_label="legit")
    fraud_found = ek.binary_counts(y_true, y_pred, pos_label="fraud")
    if legit.precision() == 0.995 and legit.recall() == 1.0 and fraud_found.recall() == 0.0:
        return "b"
    raise AssertionError("the fraud filter's data no longer give the reported numbers")


EX_01_0 = register(Exercise(
    id="01.0",
    prompt="a fraud filter passes all 1000 transactions (5 are fraud); its report says precision "
           "0.995, recall 1.0: what happened?",
    kind="choice",
    choices={
        "a": "nothing: the filter misses no transaction, as recall 1.0 says",
        "b": "the report took 'legit' as the positive class; for fraud, recall is 0",
        "c": "precision and recall were swapped in the report",
    },
    feedback={
        "a": "a filter that passes everything flags none of the 5 frauds, so it misses every one "
             "of them: whatever the report's recall of 1.0 measures, it is not frauds caught.",
        "b": "these are the precision and recall of 'legit', the 995-strong majority; with "
             "fraud positive (the class to find) the filter finds none of the 5: recall 0, "
             "precision 0/0.",
        "c": "swapped, they would read recall 0.995 and precision 1.0: a filter that flags "
             "nothing reaches neither number for the transactions it is meant to catch.",
    },
    cases=[Case("a filter that flags nothing", {}, _fraud_filter_choice)],
    solution="b",
    kind_of_question="find the bug",
    data=FRAUD_FILTER,
    hint="Which class does a filter that passes everything ever predict? Recall of a class is "
         "the share of its members the filter predicts as that class.",
))


# --------------------------------------------------------------------------
# 01.1  precision, recall and F1 of a table in the Spark post's layout
#       (predicted x actual):
#
#                       actual spam  actual not spam
#   predicted spam           45             5
#   predicted not spam       15           935

SPAM_COUNTS = dict(tp=45, fp=5, fn=15, tn=935)


def _spam_table(tp, fp, fn, tn):
    return {"predicted_spam": {"actual_spam": tp, "actual_not_spam": fp},
            "predicted_not_spam": {"actual_spam": fn, "actual_not_spam": tn}}


def _spam_prf(d):
    """[precision, recall, F1] of spam, read from the table (rows: predicted)."""
    counts = ek.BinaryCounts(tp=d.predicted_spam["actual_spam"],
                             fp=d.predicted_spam["actual_not_spam"],
                             fn=d.predicted_not_spam["actual_spam"],
                             tn=d.predicted_not_spam["actual_not_spam"])
    return [counts.precision(), counts.recall(), counts.f1()]


def _new_spam_week(rng):
    """Another week of the filter: FP and FN differ, so the table read the wrong way round fails."""
    tp, fp, tn = int(rng.integers(20, 90)), int(rng.integers(2, 30)), int(rng.integers(800, 1000))
    fn = int(rng.choice([v for v in range(5, 40) if v != fp]))
    return _spam_table(tp, fp, fn, tn)


EX_01_1 = register(Exercise(
    id="01.1",
    prompt="[precision, recall, F1] of spam in the table (rows: predicted, columns: actual)",
    kind="value",
    cases=[Case("spam in the table")],
    expect=_spam_prf,
    variant=_new_spam_week,
    solution=[Fraction(45, 50), Fraction(45, 60), Fraction(90, 110)],
    components=("precision", "recall", "F1"),
    kind_of_question="transfer",
    data=_spam_table(**SPAM_COUNTS),
    hint="Rows are the prediction here: the first row is everything called spam (precision "
         "divides by it), the first column everything that is spam (recall divides by it). "
         "F1 = 2·TP / (2·TP + FP + FN).",
))


# --------------------------------------------------------------------------
# 01.2  which model for a cancer screening, and by which number

SCREENING_COUNTS = {"X": dict(tp=30, fp=5, fn=20, tn=945), "Y": dict(tp=47, fp=60, fn=3, tn=890)}
SCREENING = {name: ek.BinaryCounts(**c) for name, c in SCREENING_COUNTS.items()}


def _screening_choice():
    """The option whose claim holds: recall-weighted F2 (a missed cancer is the costly error)."""
    x, y = SCREENING["X"], SCREENING["Y"]
    if y.f_beta(2) > x.f_beta(2) and y.recall() > x.recall():
        return "b"
    raise AssertionError("the screening data no longer make the F2 option true")


EX_01_2 = register(Exercise(
    id="01.2",
    prompt="cancer screening, missed cancers are the costly error: model X or Y, and by which "
           "number?",
    kind="choice",
    choices={
        "a": "X: its F0.5 is higher, and precision is what matters",
        "b": "Y: its F2 is higher, and recall should count more when a missed cancer is the costly "
             "error",
        "c": "X: its accuracy is higher",
    },
    cases=[Case("the model and the number for a screening test", {}, _screening_choice)],
    solution="b",
    kind_of_question="judgement",
    data={"model_X": SCREENING_COUNTS["X"], "model_Y": SCREENING_COUNTS["Y"]},
    feedback={
        "a": "F0.5 weighs precision more, which suits a test where a false alarm is the costly "
             "error; in this screening a false alarm is not the costly error.",
        "b": "a missed cancer is the costly error, so recall should weigh more: F2 does that, and "
             "Y misses 3 cancers where X misses 20.",
        "c": "with 950 of 1000 patients healthy, accuracy is decided mostly by the healthy ones: "
             "it says little about the missed cancers, the costly error here.",
    },
    hint="Which error is expensive here, a false positive or a false negative? F-beta with beta > "
         "1 counts recall more, beta < 1 precision. Compute both models' F0.5 and F2 with "
         "ek.BinaryCounts(tp=..., fp=..., fn=..., tn=...).f_beta(beta), and remember that 950 of "
         "the 1000 patients are healthy when you look at accuracy.",
))


# --------------------------------------------------------------------------
# 01.3  the accuracy of "predict the largest class"


def _majority_accuracy_reference(class_sizes):
    y_true = np.repeat(np.arange(len(class_sizes)), class_sizes)
    majority = int(np.argmax(class_sizes))
    return ek.accuracy_score(y_true, np.full(len(y_true), majority))


def _majority_case(description, class_sizes):
    return Case(description, {"class_sizes": list(class_sizes)},
                lambda class_sizes: _majority_accuracy_reference(class_sizes))


def _new_departments(rng):
    """Two more cases: class sizes drawn for this variant (2 to 5 classes, one largest)."""
    cases = []
    for description in ("class sizes drawn for you", "more class sizes drawn for you"):
        sizes = rng.integers(1, 200, int(rng.integers(2, 6)))
        sizes[rng.integers(len(sizes))] = sizes.max() + int(rng.integers(1, 50))
        cases.append(_majority_case(description, sizes.tolist()))
    return cases


EX_01_3 = register(Exercise(
    id="01.3",
    prompt="majority_accuracy(class_sizes): accuracy of always predicting the largest class",
    kind="function",
    cases=[
        _majority_case("90 men, 10 women", [90, 10]),
        _majority_case("1 healthy, 99 with cancer", [1, 99]),
        _majority_case("three classes of 20, 50 and 30", [20, 50, 30]),
        _majority_case("a tie: 50 and 50", [50, 50]),
    ],
    variant=_new_departments,
    solution=lambda class_sizes: max(class_sizes) / sum(class_sizes),
    kind_of_question="transfer",
    data={"department": [90, 10]},
    hint='the lazy model is right exactly on the members of the class it always predicts',
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    "01.0": ["a", "c"],
    "01.1": [
        [45 / 60, 45 / 50, 90 / 110],     # the table read as actual x predicted
        [0.9, 0.75, 0.825],               # the arithmetic mean for F1
    ],
    "01.2": ["a", "c"],
    "01.3": [
        lambda class_sizes: class_sizes[0] / sum(class_sizes),  # "the first class is the majority"
        lambda class_sizes: min(class_sizes) / sum(class_sizes),
    ],
}
