"""Exercises of notebook 03, ROC by hand.

* 03.0 -- in the body, after section 4 (predict): the AUC of a ranking whose
  clicks and non-clicks alternate, from its pairs; a choice;
* 03.1 -- predict, then compute: the misordered (click, non-click) pairs of a
  new ranking of the logistic-regression post's six impressions, its AUC, and
  the AUC after swapping its top two;
* 03.2 -- transfer: the AUC that ``roc_auc_score`` reports for predicted
  classes (hard predictions: two blocks of ties), as the post's API example
  computes it;
* 03.3 -- find the bug: a colleague's AUC far below 1/2 (``predict_proba``'s
  column 0 scored); a choice, every option explained.

Every expected value is computed with evalkit (``roc_curve``,
``roc_auc_score``, ``datasets.labels_from_counts``), never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..datasets import click_sequences, labels_from_counts
from ..exercise_data import fraud_model
from . import Case, Exercise, register

__all__ = ["EX_03_0", "EX_03_1", "EX_03_2", "EX_03_3", "WRONG_ANSWERS", "fraud_model"]

_Y, _SEQUENCES = click_sequences()          # clicks (1, 0, 1, 0, 0, 0)

# --------------------------------------------------------------------------
# 03.0  (in the body) clicks and non-clicks alternating down the ranking

ALTERNATING = {"clicked": [1, 0, 1, 0, 1, 0], "scores": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]}
_ALTERNATING_OPTIONS = {"a": Fraction(1, 2), "b": Fraction(2, 3), "c": Fraction(5, 6)}


def _alternating_choice():
    """The option whose AUC is the ranking's (its pairs counted by roc_auc_score)."""
    auc = ek.roc_auc_score(ALTERNATING["clicked"], ALTERNATING["scores"])
    found = [k for k, v in _ALTERNATING_OPTIONS.items() if np.isclose(auc, float(v))]
    if len(found) != 1:
        raise AssertionError("no option holds the alternating ranking's AUC")
    return found[0]


EX_03_0 = register(Exercise(
    id="03.0",
    prompt="six impressions ranked clicked, not, clicked, not, clicked, not: predict the AUC",
    kind="choice",
    choices={
        "a": "1/2: clicks and non-clicks alternate, as in a random ranking",
        "b": "2/3: 6 of the 9 (clicked, not clicked) pairs are ordered right",
        "c": "5/6: only the last impression is out of place",
    },
    feedback={
        "a": "alternation is a pattern, not randomness: the AUC compares each click with each "
             "non-click, and here the first click sits above every non-click.",
        "b": "3 clicks x 3 non-clicks = 9 pairs; the clicks beat 3 + 2 + 1 = 6 of them.",
        "c": "the AUC counts (click, non-click) comparisons, not misplaced impressions: one "
             "impression out of place can put several comparisons the wrong way round.",
    },
    cases=[Case("clicks and non-clicks alternating", {}, _alternating_choice)],
    solution="b",
    kind_of_question="predict",
    data=ALTERNATING,
    hint="List the (clicked, not clicked) pairs: how many are there, and in how many is the "
         "clicked impression scored higher?",
))


# --------------------------------------------------------------------------
# 03.1  the six (FPR, TPR) points of a fourth ranking of the post's impressions

SCORES_03_1 = np.array([0.3, 0.9, 0.8, 0.2, 0.7, 0.1])


def _pairs_auc_and_swapped(y_true, y_score):
    """[misordered (click, non-click) pairs, AUC, AUC with the top two samples swapped]."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    pos, neg = y_score[y_true == 1], y_score[y_true == 0]
    misordered = int(np.sum(pos[:, None] < neg[None, :]))
    top = np.argsort(-y_score, kind="stable")[:2]
    swapped = y_score.copy()
    swapped[top] = swapped[top[::-1]]
    return [misordered, ek.roc_auc_score(y_true, y_score), ek.roc_auc_score(y_true, swapped)]


EX_03_1 = register(Exercise(
    id="03.1",
    prompt="[misordered pairs, AUC, AUC after swapping the top two] of a fourth ranking, "
           "predicted by counting pairs before you draw",
    kind="value",
    cases=[Case("the fourth model's ranking of the six impressions")],
    expect=lambda d: _pairs_auc_and_swapped(d.clicked, d.scores),
    variant=lambda rng: {"clicked": [int(v) for v in _Y],
                         "scores": (rng.choice(np.arange(1, 10), 6, replace=False) / 10).tolist()},
    solution=[3, Fraction(5, 8), Fraction(3, 4)],
    components=("the misordered pairs", "the AUC", "the AUC after the swap"),
    kind_of_question="predict, then compute",
    data={"clicked": [int(v) for v in _Y], "scores": SCORES_03_1.tolist()},
    hint="A pair is one clicked and one not-clicked impression (2 x 4 = 8 pairs); it is misordered "
         "when the non-clicked one scores higher. The AUC is the share of pairs in the right "
         "order. Swapping two neighbours in the ranking changes the order of one pair only -- "
         "does it fix or break it here?",
))


_HARD = ek.BinaryCounts(tp=36, fp=12, fn=4, tn=48)


def _hard_auc(d):
    counts = ek.BinaryCounts(tp=d.malignant_flagged, fp=d.benign_flagged,
                             fn=d.malignant - d.malignant_flagged, tn=d.benign - d.benign_flagged)
    return ek.roc_auc_score(*labels_from_counts(counts))


def _hard_counts(counts):
    return {"malignant": counts.tp + counts.fn, "malignant_flagged": counts.tp,
            "benign": counts.fp + counts.tn, "benign_flagged": counts.fp}


def _new_hard_counts(rng):
    """Another biopsy set: 20-60 malignant, most flagged; 40-100 benign, a few flagged."""
    malignant, benign = int(rng.integers(20, 61)), int(rng.integers(40, 101))
    tp = int(rng.integers(int(0.6 * malignant), malignant))
    fp = int(rng.integers(1, int(0.4 * benign)))
    return _hard_counts(ek.BinaryCounts(tp=tp, fp=fp, fn=malignant - tp, tn=benign - fp))


EX_03_2 = register(Exercise(
    id="03.2",
    prompt="roc_auc_score(y_true, y_pred) for predicted classes (1 = flagged malignant)",
    kind="value",
    cases=[Case("hard predictions, two blocks of ties")],
    expect=_hard_auc,
    variant=_new_hard_counts,
    solution=Fraction(1, 2) * (Fraction(36, 40) + 1 - Fraction(12, 60)),
    kind_of_question="transfer",
    data=_hard_counts(_HARD),
    hint="With two distinct scores the ROC path has one corner, at (FPR, TPR) of the predictions; "
         "both segments are diagonals of tied blocks. Add the area of the triangle and trapezoid "
         "under it, or count pairs: a positive predicted 1 beats a negative predicted 0, and equal "
         "predictions tie (count 1/2).",
))


# --------------------------------------------------------------------------
# 03.3  an AUC of 0.08


def _explain_low_auc():
    y, proba = fraud_model()
    printed, fixed = ek.roc_auc_score(y, proba[:, 0]), ek.roc_auc_score(y, proba[:, 1])
    # column 0 ranks "no fraud" first: its AUC is 1 - the AUC of column 1
    return "b" if printed < 0.2 and np.isclose(fixed, 1 - printed) and fixed > 0.8 else "a"


EX_03_3 = register(Exercise(
    id="03.3",
    prompt="the colleague's fraud AUC is far below 1/2: what is wrong?",
    kind="choice",
    choices={
        "a": "the model has learnt nothing about fraud",
        "b": "proba[:, 0] is the probability of no fraud: scored with proba[:, 1], the same model "
             "ranks well",
        "c": "fraud is rare, and the AUC is unreliable on imbalanced data",
        "d": "roc_auc_score must be given predicted classes (proba[:, 1] >= 0.5), not "
             "probabilities",
    },
    feedback={
        "a": "a model that knows nothing orders the payments at random, and random orders have an "
             "AUC near 1/2, not far below it.",
        "b": "column 0 ranks the honest payments first; the AUC of column 1 is exactly 1 minus the "
             "printed one (section 5: negating the scores flips the curve).",
        "c": "the AUC divides by the positives and by the negatives separately, so the class ratio "
             "does not enter it; rarity widens its uncertainty but cannot push it far below 1/2.",
        "d": "the AUC needs scores; predicted classes give the two-block AUC of exercise 03.2 and "
             "throw the ranking away.",
    },
    cases=[Case("what an AUC far below 1/2 says", {}, _explain_low_auc)],
    solution="b",
    kind_of_question="find the bug",
    data={"y_test, proba": fraud_model},
    hint="Compute the AUC of each column of proba. What does a model that knows nothing get? What "
         "does negating every score do to the AUC (section 5)?",
))


WRONG_ANSWERS = {
    "03.0": ["a", "c"],
    "03.1": [[5, Fraction(5, 8), Fraction(3, 4)],      # pairs in the right order, as misordered
             [3, Fraction(3, 8), Fraction(1, 2)],      # the misordered share given as the AUC
             [3, Fraction(5, 8), Fraction(1, 2)]],     # the swap read as breaking a pair
    "03.2": [0.9,                 # the TPR
             0.7,                 # TPR - FPR (Youden's J)
             0.5 * 0.9],          # only the triangle under the first segment
    "03.3": ["a", "c", "d"],
}
