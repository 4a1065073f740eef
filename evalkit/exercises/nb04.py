"""Exercises of notebook 04, AUC three ways and the area under the PR curve.

* 04.1 -- write ``rank_auc(y_true, y_score)``: the ROC AUC by seed 003's
  rank-sum formula, tied scores sharing their average rank;
* 04.2 -- write ``average_precision(y_true, y_score)`` from seed 003's AP
  formula with its index corrected, (1/r)·Σ_j j / r_j, for distinct scores;
* 04.3 -- Spark's ``areaUnderPR`` of a small ranking whose top score is tied
  between a positive and a negative (so its first point matters).

Every expected value is computed with evalkit (``roc_auc_score``,
``average_precision_score``, ``spark.BinaryClassificationMetrics``).
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from ..datasets import click_sequences
from ..mllib import BinaryClassificationMetrics
from . import Case, Exercise, register

__all__ = ["EX_04_1", "EX_04_2", "EX_04_3", "WRONG_ANSWERS"]

_Y, _SEQUENCES = click_sequences()


def _case(description, y_true, y_score, metric):
    return Case(description, {"y_true": np.asarray(y_true), "y_score": np.asarray(y_score)},
                lambda y_true, y_score: metric(y_true, y_score))


# --------------------------------------------------------------------------
# 04.1  rank_auc(y_true, y_score)

_rng = np.random.default_rng(4)
_Y_TIES = _rng.integers(0, 2, 60)
_S_TIES = np.round(_Y_TIES * 0.8 + _rng.normal(0, 1, 60))          # integers: many ties
_Y_BIG = _rng.integers(0, 2, 500)
_S_BIG = _Y_BIG + _rng.normal(0, 1.5, 500)


def _average_ranks(y_score):
    y_score = np.asarray(y_score, dtype=float)
    ordinal = np.empty(len(y_score))
    ordinal[np.argsort(y_score, kind="stable")] = np.arange(1, len(y_score) + 1)
    _, group = np.unique(y_score, return_inverse=True)
    return (np.bincount(group, weights=ordinal) / np.bincount(group))[group]


def _rank_auc_solution(y_true, y_score):
    y_true = np.asarray(y_true)
    ranks = _average_ranks(y_score)
    m = int(y_true.sum())
    n = len(y_true) - m
    return (ranks[y_true == 1].sum() - m * (m + 1) / 2) / (m * n)


EX_04_1 = register(Exercise(
    id="04.1",
    prompt="rank_auc(y_true, y_score): ROC AUC by the rank-sum formula, average ranks for ties",
    kind="function",
    cases=[
        _case("seed 001, sequence 2", _Y, _SEQUENCES["sequence 2"], ek.roc_auc_score),
        _case("seed 001, sequence 3", _Y, _SEQUENCES["sequence 3"], ek.roc_auc_score),
        _case("hard predictions (scores 0 and 1)", _Y, [1, 1, 0, 0, 0, 0], ek.roc_auc_score),
        _case("60 samples, integer scores with many ties", _Y_TIES, _S_TIES, ek.roc_auc_score),
        _case("500 samples, distinct scores", _Y_BIG, _S_BIG, ek.roc_auc_score),
    ],
    solution=_rank_auc_solution,
))


# --------------------------------------------------------------------------
# 04.2  average_precision(y_true, y_score), distinct scores

_Y_AP = _rng.integers(0, 2, 200)
_Y_AP[0] = 1
_S_AP = _Y_AP * 0.7 + _rng.random(200)                               # distinct (continuous)


def _ap_solution(y_true, y_score):
    ranked = np.asarray(y_true)[np.argsort(-np.asarray(y_score), kind="stable")]
    r_j = np.flatnonzero(ranked == 1) + 1
    return float(np.mean(np.arange(1, len(r_j) + 1) / r_j))


EX_04_2 = register(Exercise(
    id="04.2",
    prompt="average_precision(y_true, y_score): (1/r)·Σ_j j / r_j for distinct scores",
    kind="function",
    cases=[
        _case("seed 001, sequence 1", _Y, _SEQUENCES["sequence 1"], ek.average_precision_score),
        _case("seed 001, sequence 2", _Y, _SEQUENCES["sequence 2"], ek.average_precision_score),
        _case("seed 001, sequence 3", _Y, _SEQUENCES["sequence 3"], ek.average_precision_score),
        _case("one positive, ranked third", [0, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
              ek.average_precision_score),
        _case("200 samples", _Y_AP, _S_AP, ek.average_precision_score),
    ],
    solution=_ap_solution,
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
    cases=[Case("trapezoids from (0, precision at 0.8)", {}, _spark_area)],
    solution=1 / 6 + (1 / 3) * (1 / 3 + 1 / 2) / 2 + (1 / 3) * (2 / 5 + 1 / 2) / 2,
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).


def _rank_auc_ordinal(y_true, y_score):
    """Ties broken by position instead of averaged."""
    y_true = np.asarray(y_true)
    ranks = np.empty(len(y_true))
    ranks[np.argsort(np.asarray(y_score), kind="stable")] = np.arange(1, len(y_true) + 1)
    m = int(y_true.sum())
    return (ranks[y_true == 1].sum() - m * (m + 1) / 2) / (m * (len(y_true) - m))


def _rank_auc_pairs_of_positives(y_true, y_score):
    """Subtracting M(M-1)/2, 'the pairs of two positives'."""
    y_true = np.asarray(y_true)
    m = int(y_true.sum())
    return (_average_ranks(y_score)[y_true == 1].sum() - m * (m - 1) / 2) / (m * (len(y_true) - m))


def _ap_mean_precision_at_every_rank(y_true, y_score):
    ranked = np.asarray(y_true)[np.argsort(-np.asarray(y_score), kind="stable")]
    return float(np.mean(np.cumsum(ranked) / np.arange(1, len(ranked) + 1)))


WRONG_ANSWERS = {
    "04.1": [_rank_auc_ordinal, _rank_auc_pairs_of_positives],
    "04.2": [_ap_mean_precision_at_every_rank],
    "04.3": [ek.average_precision_score(Y_04_3, S_04_3),    # AP (steps), not trapezoids
             _spark_area("legacy")],                        # first point (0, 1)
}
