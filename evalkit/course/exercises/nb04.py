"""Exercises of notebook 04, AUC three ways and the area under the PR curve.

* 04.1 -- transfer: the rank sum W of the positives and the ROC AUC from it,
  by hand, on nine new scores with ties (W is not U: the AUC is
  (W - M(M+1)/2) / (M N));
* 04.2 -- judgement: two fraud models, rare positives, a review budget of
  the top 100: the ROC AUC prefers one model, the top of the ranking (and
  the average precision) the other; a choice;
* 04.3 -- transfer: Spark's ``areaUnderPR`` of a small ranking whose top
  score is tied between a positive and a negative (so its first point
  matters).

Every expected value is computed (numpy ranks, ``roc_auc_score``, the
precision of the top 100, ``mllib.BinaryClassificationMetrics``), never typed
in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ...mllib import BinaryClassificationMetrics
from . import Case, Exercise, register

__all__ = ["EX_04_1", "EX_04_2", "EX_04_3", "WRONG_ANSWERS", "fraud_scores"]


def _average_ranks(y_score):
    """Ranks 1 (lowest) .. n, tied scores sharing their average rank."""
    y_score = np.asarray(y_score, dtype=float)
    ordinal = np.empty(len(y_score))
    ordinal[np.argsort(y_score, kind="stable")] = np.arange(1, len(y_score) + 1)
    _, group = np.unique(y_score, return_inverse=True)
    return (np.bincount(group, weights=ordinal) / np.bincount(group))[group]


# --------------------------------------------------------------------------
# 04.1  the rank sum W and the AUC from it, by hand

Y_04_1 = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0])
S_04_1 = np.array([0.9, 0.8, 0.8, 0.6, 0.5, 0.5, 0.4, 0.2, 0.1])


def _w_and_auc():
    w = float(_average_ranks(S_04_1)[Y_04_1 == 1].sum())
    return [w, ek.roc_auc_score(Y_04_1, S_04_1)]


EX_04_1 = register(Exercise(
    id="04.1",
    prompt="[W, auc] for y = [1, 0, 1, 1, 0, 0, 1, 0, 0], "
           "scores = [0.9, 0.8, 0.8, 0.6, 0.5, 0.5, 0.4, 0.2, 0.1]",
    kind="value",
    cases=[Case("the rank sum W and the AUC of the nine scores", {}, _w_and_auc)],
    solution=[Fraction(51, 2), Fraction(31, 40)],
    hint="Sort the scores from lowest to highest; two tied scores both get the mean of the two "
         "ranks they occupy. W adds the ranks of the clicked items only. W is not yet the "
         "number of pairs won: subtract M(M+1)/2 (M clicked items) to get U, then divide U "
         "by M times N.",
))


# --------------------------------------------------------------------------
# 04.2  which fraud model: ROC AUC or the top of the ranking?


def fraud_scores():
    """Two fraud models on the same 20,000 payments, about 1 in 200 fraud.

    Returns ``(y_true, score_a, score_b)``. Model A shifts every fraud's score
    up a little; model B scores half the frauds very high and the other half
    only a little above the honest payments.

    >>> y, a, b = fraud_scores()
    >>> y.shape, a.shape, b.shape
    ((20000,), (20000,), (20000,))
    """
    rng = np.random.default_rng(1)
    n = 20_000
    y = (rng.random(n) < 0.005).astype(int)
    score_a = rng.normal(0.0, 1.0, n) + 2.3 * y
    score_b = rng.normal(0.0, 1.0, n)
    frauds = np.flatnonzero(y == 1)
    obvious = rng.random(len(frauds)) < 0.5
    score_b[frauds] += np.where(obvious, 4.0, 1.5)
    return y, score_a, score_b


def _precision_of_top(y_true, y_score, k=100):
    return float(np.mean(y_true[np.argsort(-y_score, kind="stable")[:k]]))


def _better_for_the_review_team():
    y, a, b = fraud_scores()
    return "a" if _precision_of_top(y, a) > _precision_of_top(y, b) else "b"


EX_04_2 = register(Exercise(
    id="04.2",
    prompt="two fraud models, the team reviews the top 100 a day: which one?",
    kind="choice",
    choices={
        "a": "model A, because its ROC AUC is higher",
        "b": "model B, because the team sees the top of the ranking, where its precision "
             "(and its AP) is higher",
        "c": "either; their ROC AUCs are within a few hundredths",
    },
    cases=[Case("the model that serves a team reviewing the top 100", {},
                _better_for_the_review_team)],
    solution="b",
    hint="Compute ek.roc_auc_score and ek.average_precision_score for each model, and the share "
         "of fraud among the 100 payments each model scores highest (sort by score, descending). "
         "The ROC curve divides false alarms by all the honest payments; the reviewers only "
         "see the ones at the top.",
))


# --------------------------------------------------------------------------
# 04.3  Spark's areaUnderPR, first point (0, precision at the highest threshold)

Y_04_3 = np.array([1, 0, 0, 1, 0, 1, 0])
S_04_3 = np.array([0.8, 0.8, 0.6, 0.5, 0.4, 0.3, 0.1])


def _spark_area(pr_first_point="spark"):
    rows = np.column_stack([S_04_3, Y_04_3])
    return BinaryClassificationMetrics(rows, pr_first_point=pr_first_point).area_under_pr()


EX_04_3 = register(Exercise(
    id="04.3",
    prompt="Spark's areaUnderPR for y = [1, 0, 0, 1, 0, 1, 0], "
           "scores = [0.8, 0.8, 0.6, 0.5, 0.4, 0.3, 0.1]",
    kind="value",
    cases=[Case("trapezoids from (0, precision at the highest score)", {}, _spark_area)],
    solution=Fraction(1, 6) + Fraction(1, 3) * (Fraction(1, 3) + Fraction(1, 2)) / 2
    + Fraction(1, 3) * (Fraction(2, 5) + Fraction(1, 2)) / 2,
    hint="One point per distinct score, from the highest: (recall, precision) with recall = TP / 3 "
         "and precision = TP / (TP + FP) of everything scored at or above it. Spark starts at "
         "recall 0 with the precision of the first point, then joins the points by straight "
         "lines: add up the trapezoids, (R_k - R_k-1) times the mean of the two precisions.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).


def _ordinal_w_and_auc():
    """Ties broken by position instead of averaged."""
    ranks = np.empty(len(S_04_1))
    ranks[np.argsort(S_04_1, kind="stable")] = np.arange(1, len(S_04_1) + 1)
    m, n = int(Y_04_1.sum()), int(len(Y_04_1) - Y_04_1.sum())
    w = float(ranks[Y_04_1 == 1].sum())
    return [w, (w - m * (m + 1) / 2) / (m * n)]


_W, _AUC = _w_and_auc()
_M, _N = int(Y_04_1.sum()), int(len(Y_04_1) - Y_04_1.sum())

WRONG_ANSWERS = {
    "04.1": [[_W, _W / (_M * _N)],                                  # W divided without subtracting
             [_W - _M * (_M + 1) / 2, _AUC],                        # U given for W
             [_W, (_W - _M * (_M - 1) / 2) / (_M * _N)],            # "pairs of two positives"
             _ordinal_w_and_auc()],
    "04.2": ["a", "c"],
    "04.3": [ek.average_precision_score(Y_04_3, S_04_3),    # AP (steps), not trapezoids
             _spark_area("legacy")],                        # first point (0, 1)
}
