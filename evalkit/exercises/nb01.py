"""Exercises of notebook 01, the accuracy paradox.

* 01.1 -- read a confusion matrix laid out as seed 000 lays it out (rows are
  the prediction) and give the recall;
* 01.2 -- write ``f_beta(p, r, beta)`` from precision and recall (the
  misprinted formula of seed 000 passes beta = 1 and fails the rest);
* 01.3 -- write ``majority_accuracy(class_sizes)``, the accuracy of always
  predicting the largest class.

Every expected value is computed with evalkit: F-beta from the counts of a
real table (as scikit-learn computes it), the learner from that table's
precision and recall.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_01_1", "EX_01_2", "EX_01_3", "WRONG_ANSWERS"]

# --------------------------------------------------------------------------
# 01.1  the recall of a table in seed 000's layout (predicted x actual):
#
#                   actual woman  actual man
#   predicted woman        6           2
#   predicted man          4          88

_TABLE_01_1 = ek.BinaryCounts(tp=6, fp=2, fn=4, tn=88)

EX_01_1 = register(Exercise(
    id="01.1",
    prompt="the recall of the women in the table (rows: predicted, columns: actual)",
    kind="value",
    cases=[Case("recall of 'woman' in the 6 / 2 / 4 / 88 table", {},
                lambda: _TABLE_01_1.recall())],
    solution=6 / (6 + 4),
    hint='recall divides by the women who are really there: find the column of actual women',
))


# --------------------------------------------------------------------------
# 01.2  f_beta(p, r, beta) from precision and recall


def _fbeta_case(description, counts, beta):
    """A case whose arguments are the table's P and R, and whose reference is F from counts."""
    p = counts.precision(zero_division=0.0)
    r = counts.recall(zero_division=0.0)
    return Case(description, {"p": p, "r": r, "beta": beta},
                lambda p, r, beta: counts.f_beta(beta, zero_division=0.0))


_SEED_A = ek.BinaryCounts(tp=1, fp=0, fn=10, tn=89)         # P = 1,   R = 1/11
_SEED_B = ek.BinaryCounts(tp=171, fp=19, fn=729, tn=9081)   # P = 0.9, R = 0.19
_PERFECT = ek.BinaryCounts(tp=10, fp=0, fn=0, tn=90)        # P = R = 1
_HOPELESS = ek.BinaryCounts(tp=0, fp=3, fn=10, tn=87)       # P = R = 0


def _f_beta_solution(p, r, beta):
    b2 = beta * beta
    den = b2 * p + r
    return 0.0 if den == 0 else (1 + b2) * p * r / den


EX_01_2 = register(Exercise(
    id="01.2",
    prompt="f_beta(p, r, beta): F-beta from precision and recall (0.0 when p = r = 0)",
    kind="function",
    cases=[
        _fbeta_case("P = 1, R = 1/11, beta = 1 (seed 000's table)", _SEED_A, 1.0),
        _fbeta_case("P = 0.9, R = 0.19, beta = 1", _SEED_B, 1.0),
        _fbeta_case("P = 0.9, R = 0.19, beta = 2", _SEED_B, 2.0),
        _fbeta_case("P = 1, R = 1/11, beta = 0.5", _SEED_A, 0.5),
        _fbeta_case("P = R = 1, beta = 2 (a perfect model)", _PERFECT, 2.0),
        _fbeta_case("P = R = 0, beta = 1", _HOPELESS, 1.0),
    ],
    solution=_f_beta_solution,
    hint='F-beta is a weighted harmonic mean; beta > 1 weights recall. Check where beta² goes in the denominator',
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
    solution=lambda class_sizes: max(class_sizes) / sum(class_sizes),
    hint='the lazy model is right exactly on the members of the class it always predicts',
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    "01.1": [6 / (6 + 2)],  # the precision: the table read as actual x predicted
    "01.2": [
        # seed 000's misprinted weighted F: (1 + b²)·P·R / (b²·(P + R))
        lambda p, r, beta: 0.0 if p + r == 0 else (1 + beta**2) * p * r / (beta**2 * (p + r)),
        # the arithmetic mean, whatever beta
        lambda p, r, beta: (p + r) / 2,
        # beta weighting precision instead of recall
        lambda p, r, beta: _f_beta_solution(r, p, beta),
    ],
    "01.3": [
        lambda class_sizes: class_sizes[0] / sum(class_sizes),  # "the first class is the majority"
        lambda class_sizes: min(class_sizes) / sum(class_sizes),
    ],
}
