"""Exercises of notebook 03, ROC by hand.

* 03.1 -- transfer: the six ROC points of a new ranking of the
  logistic-regression post's six impressions, taking samples from the top
  one at a time;
* 03.2 -- transfer: the AUC that ``roc_auc_score`` reports for predicted
  classes (hard predictions: two blocks of ties), as the post's API example
  computes it;
* 03.3 -- judgement: what an AUC of 0.08 most likely means (a choice).

Every expected value is computed with evalkit (``roc_curve``,
``roc_auc_score``, ``datasets.labels_from_counts``), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..datasets import click_sequences, labels_from_counts
from . import Case, Exercise, register

__all__ = ["EX_03_1", "EX_03_2", "EX_03_3", "WRONG_ANSWERS"]

_Y, _SEQUENCES = click_sequences()          # clicks (1, 0, 1, 0, 0, 0)

# --------------------------------------------------------------------------
# 03.1  the six (FPR, TPR) points of a fourth ranking of the post's impressions

SCORES_03_1 = np.array([0.3, 0.9, 0.8, 0.2, 0.7, 0.1])


def _points(y_true, y_score):
    """(FPR, TPR) after each sample taken from the top: the ROC curve without (0, 0)."""
    fpr, tpr, _ = ek.roc_curve(y_true, y_score, drop_intermediate=False)
    return np.column_stack([fpr, tpr])[1:]


EX_03_1 = register(Exercise(
    id="03.1",
    prompt="the six (FPR, TPR) points of the ranking (0.3, 0.9, 0.8, 0.2, 0.7, 0.1), as a 6 x 2 list",
    kind="value",
    cases=[Case("six points, one per sample taken", {}, lambda: _points(_Y, SCORES_03_1))],
    solution=[[0.25, 0.0], [0.25, 0.5], [0.5, 0.5], [0.5, 1.0], [0.75, 1.0], [1.0, 1.0]],
    hint="Sort by score, highest first; a click moves you up by 1/2, a non-click right by 1/4. "
         "Write each point x first: [FPR, TPR].",
))


# --------------------------------------------------------------------------
# 03.2  the AUC of hard predictions: 36 of 40 malignant flagged, 12 of 60 benign

_HARD = ek.BinaryCounts(tp=36, fp=12, fn=4, tn=48)


def _hard_auc():
    y_true, y_pred = labels_from_counts(_HARD)
    return ek.roc_auc_score(y_true, y_pred)


EX_03_2 = register(Exercise(
    id="03.2",
    prompt="roc_auc_score(y_true, y_pred) for predicted classes: 36 of 40 positives and 12 of 60 "
           "negatives predicted positive",
    kind="value",
    cases=[Case("hard predictions, two blocks of ties", {}, _hard_auc)],
    solution=Fraction(1, 2) * (Fraction(36, 40) + 1 - Fraction(12, 60)),
    hint="With two distinct scores the ROC path has one corner, at (FPR, TPR) of the predictions; "
         "both segments are diagonals of tied blocks. Add the area of the triangle and trapezoid "
         "under it, or count pairs: a positive predicted 1 beats a negative predicted 0, and equal "
         "predictions tie (count 1/2).",
))


# --------------------------------------------------------------------------
# 03.3  an AUC of 0.08


def _flipped_scores(seed=3, n=400):
    """Fraud scores with their sign flipped: (y_true, y_score) whose AUC is far below 1/2."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    s = rng.normal(0.0, 1.0, n) + 2.0 * y
    return y, -s


def _explain_low_auc():
    y, s = _flipped_scores()
    auc, flipped = ek.roc_auc_score(y, s), ek.roc_auc_score(y, -s)
    # AUC(-s) = 1 - AUC(s): a ranking near 0 is a good ranking upside down
    return "b" if auc < 0.2 and np.isclose(flipped, 1 - auc) and flipped > 0.8 else "a"


EX_03_3 = register(Exercise(
    id="03.3",
    prompt="an AUC of 0.08 on the test set: what is the most likely explanation?",
    kind="choice",
    choices={
        "a": "the model has learnt nothing about fraud",
        "b": "the scores (or the labels) are the wrong way round: negated, they would rank well",
        "c": "fraud is rare, and the AUC is unreliable on imbalanced data",
    },
    cases=[Case("what an AUC far below 1/2 says", {}, _explain_low_auc)],
    solution="b",
    hint="What AUC does a model that knows nothing get? And what happens to the AUC when every "
         "score is negated (section 5)? The class ratio does not enter the AUC at all.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

WRONG_ANSWERS = {
    # (TPR, FPR) instead of (FPR, TPR): the order the post lists each step in
    "03.1": [[[0.0, 0.25], [0.5, 0.25], [0.5, 0.5], [1.0, 0.5], [1.0, 0.75], [1.0, 1.0]]],
    "03.2": [0.9,                 # the TPR
             0.7,                 # TPR - FPR (Youden's J)
             0.5 * 0.9],          # only the triangle under the first segment
    "03.3": ["a", "c"],
}
