"""Exercises of notebook 03, ROC by hand.

* 03.1 -- build seed 001's six ROC points for a new ranking of its six
  impressions, taking samples from the top one at a time;
* 03.2 -- write ``pair_auc(y_true, y_score)``: the share of positive-negative
  pairs ordered right, a tie counting one half;
* 03.3 -- the AUC of a ranking with ties, by reading the ROC path (ties move
  diagonally).

Every expected value is computed with evalkit (``roc_curve`` and
``roc_auc_score``), never typed in.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from ..datasets import click_sequences
from . import Case, Exercise, register

__all__ = ["EX_03_1", "EX_03_2", "EX_03_3", "WRONG_ANSWERS"]

_Y, _SEQUENCES = click_sequences()          # clicks (1, 0, 1, 0, 0, 0)

# --------------------------------------------------------------------------
# 03.1  the six (FPR, TPR) points of a fourth ranking of seed 001's impressions

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
    hint='sort by score, highest first; a click moves you up by 1/2, a non-click right by 1/4',
))


# --------------------------------------------------------------------------
# 03.2  pair_auc(y_true, y_score): count the positive-negative pairs


def _auc_case(description, y_true, y_score):
    return Case(description, {"y_true": np.asarray(y_true), "y_score": np.asarray(y_score)},
                lambda y_true, y_score: ek.roc_auc_score(y_true, y_score))


_rng = np.random.default_rng(3)
_Y_RANDOM = _rng.integers(0, 2, 40)
_S_RANDOM = np.round(_Y_RANDOM * 0.5 + _rng.random(40), 1)   # rounded: many ties


def _pair_auc_solution(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    wins = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    return (wins + 0.5 * ties) / (len(pos) * len(neg))


EX_03_2 = register(Exercise(
    id="03.2",
    prompt="pair_auc(y_true, y_score): the share of (positive, negative) pairs with the positive "
           "scored higher, a tie counting 1/2",
    kind="function",
    cases=[
        _auc_case("seed 001, sequence 1", _Y, _SEQUENCES["sequence 1"]),
        _auc_case("seed 001, sequence 2", _Y, _SEQUENCES["sequence 2"]),
        _auc_case("seed 001, sequence 3", _Y, _SEQUENCES["sequence 3"]),
        _auc_case("hard predictions (every score 0 or 1)", _Y, [1, 1, 0, 0, 0, 0]),
        _auc_case("40 samples with many ties", _Y_RANDOM, _S_RANDOM),
    ],
    solution=_pair_auc_solution,
    hint="compare every positive's score with every negative's (numpy broadcasting: pos[:, None] > neg[None, :])",
))


# --------------------------------------------------------------------------
# 03.3  the AUC of a ranking with ties

SCORES_03_3 = np.array([0.9, 0.7, 0.7, 0.6, 0.6, 0.4])

EX_03_3 = register(Exercise(
    id="03.3",
    prompt="the AUC of the scores (0.9, 0.7, 0.7, 0.6, 0.6, 0.4) for seed 001's clicks",
    kind="value",
    cases=[Case("samples 2 and 3 tied, 4 and 5 tied", {},
                lambda: ek.roc_auc_score(_Y, SCORES_03_3))],
    solution=7.5 / 8,
    hint='list the 8 (click, non-click) pairs; a pair whose scores are equal counts one half',
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _ties_lost(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    return (pos[:, None] > neg[None, :]).mean()


def _ties_won(y_true, y_score):
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    return (pos[:, None] >= neg[None, :]).mean()


WRONG_ANSWERS = {
    # (TPR, FPR) instead of (FPR, TPR): the order seed 001 lists each step in
    "03.1": [[[0.0, 0.25], [0.5, 0.25], [0.5, 0.5], [1.0, 0.5], [1.0, 0.75], [1.0, 1.0]]],
    "03.2": [_ties_lost, _ties_won],
    "03.3": [7 / 8, 8 / 8],       # a tie counted as lost, as won
}
