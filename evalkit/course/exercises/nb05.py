"""Exercises of notebook 05, multiclass averaging.

* 05.1 -- predict, then compute: how much macro recall gains when five
  errors of the largest class are fixed, and when five of the smallest are;
* 05.2 -- predict, then compute: the micro-averaged F1 of a screening model
  over its findings only (classes 1 and 2, class 0 "no finding" left out):
  is it still the accuracy? (No: an error between a finding and "no
  finding" counts once, on one side only.);
* 05.3 -- judgement: which average to report so that a model missing the
  rare, critical class cannot look good; a choice.

Every expected value is computed with evalkit from the matrices below
(``datasets.labels_from_counts`` turns them into labels), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..datasets import labels_from_counts
from . import Case, Exercise, register

__all__ = ["FIXED", "EX_05_1", "EX_05_2", "EX_05_3", "WRONG_ANSWERS", "EXERCISE_MATRIX", "SCREENING_MATRIX",
           "TRIAGE_CLASSES", "TRIAGE_X", "TRIAGE_Y"]

#: The matrix of 05.1 and 05.2: rows actual, columns predicted.
EXERCISE_MATRIX = np.array([[50, 3, 2],
                            [4, 30, 6],
                            [1, 9, 15]])

# --------------------------------------------------------------------------
# 05.1  macro recall of the matrix


FIXED = 5   # misclassified samples of one class moved to the diagonal


def _fixed(matrix, cls, n=FIXED):
    """The matrix with ``n`` errors of class ``cls`` (largest off-diagonal cells first) fixed."""
    m = np.array(matrix)
    for j in sorted((j for j in range(len(m)) if j != cls), key=lambda c: -m[cls, c]):
        moved = min(n, m[cls, j])
        m[cls, j] -= moved
        m[cls, cls] += moved
        n -= moved
    return m


def _recall_gains(d):
    def macro(matrix):
        return ek.recall_score(*labels_from_counts(matrix), average="macro")

    base = macro(d.confusion_matrix)
    return [macro(_fixed(d.confusion_matrix, 0, d.fixed)) - base,
            macro(_fixed(d.confusion_matrix, 2, d.fixed)) - base]


def _new_matrix(rng):
    """Another model's 3 x 3 matrix: class 0 the largest, class 2 the smallest, 6 or more errors a row."""
    sizes = np.sort(rng.choice(np.arange(20, 90), 3, replace=False))[::-1]
    matrix = np.zeros((3, 3), dtype=int)
    for c, size in enumerate(sizes):
        errors = int(rng.integers(6, size // 3 + 1))
        first = int(rng.integers(0, errors + 1))
        others = [j for j in range(3) if j != c]
        matrix[c, c], matrix[c, others[0]], matrix[c, others[1]] = size - errors, first, errors - first
    return matrix.tolist()


EX_05_1 = register(Exercise(
    id="05.1",
    prompt="[gain in macro recall when 5 errors of class 0 are fixed, gain when 5 of class 2 are]",
    kind="value",
    cases=[Case("five errors fixed in the largest class, or in the smallest")],
    expect=_recall_gains,
    variant=lambda rng: {"confusion_matrix": _new_matrix(rng), "fixed": FIXED},
    solution=[Fraction(5, 55) / 3, Fraction(5, 25) / 3],
    kind_of_question="predict, then compute",
    data={"confusion_matrix": EXERCISE_MATRIX.tolist(), "fixed": FIXED},
    hint="Recall divides by the actual class, the row. Fixing an error of class c raises only "
         "class c's recall, by 1 / (its row's total); macro divides the sum of the recalls by the "
         "number of classes. (Micro recall would rise by the same fixed / (all samples) either way.)",
))


#: The matrix of 05.2: a screening model, class 0 "no finding", classes 1 and 2 findings.
SCREENING_MATRIX = np.array([[70, 8, 4],
                             [6, 25, 3],
                             [5, 2, 12]])
FINDINGS = [1, 2]


def _micro_f1(d):
    return ek.f1_score(*labels_from_counts(d.confusion_matrix), labels=d.findings, average="micro")


def _new_screening(rng):
    """Another screening matrix whose findings' micro precision and micro recall differ."""
    while True:
        m = np.array(_new_matrix(rng))
        if m[:, 1:].sum() != m[1:, :].sum():       # predicted findings != actual findings
            return {"confusion_matrix": m.tolist(), "findings": FINDINGS}


EX_05_2 = register(Exercise(
    id="05.2",
    prompt="the micro F1 over the findings only (labels=findings): is it the accuracy?",
    kind="value",
    cases=[Case("micro F1 over classes 1 and 2 of the 3 x 3 matrix")],
    expect=_micro_f1,
    variant=_new_screening,
    solution=Fraction(2 * (25 + 12), (8 + 25 + 2 + 4 + 3 + 12) + (6 + 25 + 3 + 5 + 2 + 12)),
    kind_of_question="predict, then compute",
    data={"confusion_matrix": SCREENING_MATRIX.tolist(), "findings": FINDINGS},
    hint="Pool the counts of the listed classes only: TP = the findings' diagonal cells, "
         "TP + FP = their columns, TP + FN = their rows. A finding predicted as 'no finding' is a "
         "false negative with no false positive beside it in the pool (and the reverse for "
         "'no finding' predicted as a finding), so precision and recall need not be equal.",
))


# --------------------------------------------------------------------------
# 05.3  which average cannot hide a class the model ignores?

TRIAGE_CLASSES = ["routine", "urgent", "critical"]
#: Model X never predicts "critical"; model Y finds most critical calls.
TRIAGE_X = np.array([[885, 15, 0],
                     [20, 70, 0],
                     [4, 6, 0]])
TRIAGE_Y = np.array([[860, 30, 10],
                     [18, 68, 4],
                     [1, 2, 7]])
_AVERAGES = {"a": "micro", "b": "weighted", "c": "macro"}


def _f1(matrix, average):
    y_true, y_pred = labels_from_counts(matrix, labels=TRIAGE_CLASSES)
    return ek.f1_score(y_true, y_pred, average=average, zero_division=0.0)


def _the_average_that_sees_the_missed_class():
    """The one average under which the model that never predicts 'critical' scores lower."""
    seeing = [letter for letter, average in _AVERAGES.items()
              if _f1(TRIAGE_X, average) < _f1(TRIAGE_Y, average)]
    if len(seeing) != 1:
        raise RuntimeError(f"05.3's matrices should single out one average, got {seeing}")
    return seeing[0]


EX_05_3 = register(Exercise(
    id="05.3",
    prompt="which headline F1 cannot look good for a model that misses the critical calls?",
    kind="choice",
    choices={
        "a": "micro F1, because it counts every call, and the classes are imbalanced",
        "b": "weighted F1, because it weights each class by its number of calls",
        "c": "macro F1, because each class counts the same, however few its calls",
    },
    cases=[Case("the average that a model ignoring the critical calls cannot game", {},
                _the_average_that_sees_the_missed_class)],
    solution="c",
    kind_of_question="judgement",
    data={"classes": TRIAGE_CLASSES, "model_X": TRIAGE_X.tolist(), "model_Y": TRIAGE_Y.tolist()},
    feedback={
        "a": "micro F1 pools every call, so the 10 critical calls are 1 % of it: model X, which "
             "never predicts critical, still scores higher than Y on it.",
        "b": "weighting by calls gives the critical class a weight of 10 in 1,000, so its F1 of 0 "
             "barely moves the average: X still beats Y.",
        "c": "each class counts a third, so X's F1 of 0 on the critical calls costs it a third of "
             "the scale: the only average that ranks X below Y.",
    },
    hint="Model X never predicts the critical class, so that class's F1 is 0 for X. How much can "
         "10 calls out of 1,000 move an average that counts calls, or weights classes by their "
         "calls? Compute all three averages for both models and see which one ranks X below Y.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

_Y, _YHAT = labels_from_counts(EXERCISE_MATRIX)
_S, _SHAT = labels_from_counts(SCREENING_MATRIX)

WRONG_ANSWERS = {
    "05.1": [ek.recall_score(_Y, _YHAT, average="micro"),          # the accuracy
             ek.precision_score(_Y, _YHAT, average="macro"),        # columns, not rows
             ek.recall_score(_Y, _YHAT, average="weighted")],       # weighted = accuracy
    "05.2": [ek.accuracy_score(_S, _SHAT),                           # the identity of section 4
             ek.precision_score(_S, _SHAT, labels=FINDINGS, average="micro"),   # precision, not F1
             ek.f1_score(_S, _SHAT, labels=FINDINGS, average="macro"),
             ek.recall_score(_S, _SHAT, labels=FINDINGS, average="micro")],   # recall, not F1
    "05.3": ["a", "b"],
}
