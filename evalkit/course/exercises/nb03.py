"""Exercises of notebook 03, ROC by hand.

* 03.0 -- check (in the body, after section 4): the AUC of a ranking whose
  clicks and non-clicks alternate, from its pairs; a choice;
* 03.1 -- transfer: the misordered (click, non-click) pairs of a new ranking
  of the logistic-regression post's six impressions, its AUC, and the AUC
  after swapping its top two;
* 03.2 -- transfer: the AUC of a radiologist's five-point ratings, given only
  how many scans of each class got each rating (no scores: a table of counts,
  every rating a block of ties);
* 03.3 -- judgement: one model, two hospitals, AUCs of 0.84 and 0.85, but
  0.76 on the two pooled: why the pooled AUC lies below both (the pairs
  across hospitals, whose scores are shifted); a choice, every option
  explained.

Every expected value is computed with evalkit (``roc_auc_score``), never
typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ..datasets import click_sequences
from ..exercise_data import two_hospitals
from . import Case, Exercise, Known, register

__all__ = ["EX_03_0", "EX_03_1", "EX_03_2", "EX_03_3", "WRONG_ANSWERS", "two_hospitals"]

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
    kind_of_question="check",
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
    kind_of_question="transfer",
    data={"clicked": [int(v) for v in _Y], "scores": SCORES_03_1.tolist()},
    hint="A pair is one clicked and one not-clicked impression (2 x 4 = 8 pairs); it is misordered "
         "when the non-clicked one scores higher. The AUC is the share of pairs in the right "
         "order. Swapping two neighbours in the ranking changes the order of one pair only -- "
         "does it fix or break it here?",
))


# --------------------------------------------------------------------------
# 03.2  a radiologist's five-point ratings: how many scans of each class got each rating

RATINGS = {"ratings": [1, 2, 3, 4, 5],
           "malignant": [2, 3, 5, 12, 18],     # scans of each rating, 40 malignant in all
           "benign": [20, 15, 10, 4, 1]}       # 50 benign


def _rated(d):
    """One (label, rating) pair per scan: 1 = malignant."""
    y = np.r_[np.ones(sum(d.malignant), dtype=int), np.zeros(sum(d.benign), dtype=int)]
    rating = np.r_[np.repeat(d.ratings, d.malignant), np.repeat(d.ratings, d.benign)]
    return y, rating


def _ratings_auc(d):
    return ek.roc_auc_score(*_rated(d))


def _ratings_pairs(d, tie):
    """(won + tie x tied) / pairs: ``tie`` 0 (ties lost) or 1 (ties won), the tempting mistakes."""
    y, rating = _rated(d)
    pos, neg = rating[y == 1], rating[y == 0]
    won = np.sum(pos[:, None] > neg[None, :])
    tied = np.sum(pos[:, None] == neg[None, :])
    return Fraction(int(won + tie * tied), len(pos) * len(neg))


def _new_ratings(rng):
    """Another radiologist: 30-60 malignant scans rated mostly high, 30-80 benign mostly low."""
    malignant = rng.multinomial(int(rng.integers(30, 61)), [0.05, 0.1, 0.15, 0.3, 0.4])
    benign = rng.multinomial(int(rng.integers(30, 81)), [0.35, 0.3, 0.2, 0.1, 0.05])
    return {"ratings": [1, 2, 3, 4, 5], "malignant": malignant.tolist(), "benign": benign.tolist()}


KNOWN_03_2 = (
    Known("tied pairs counted as lost: a malignant and a benign scan with the same rating are "
          "in no order, and count 1/2", lambda d: _ratings_pairs(d, 0)),
    Known("tied pairs counted as won: a malignant and a benign scan with the same rating are "
          "in no order, and count 1/2", lambda d: _ratings_pairs(d, 1)),
)


EX_03_2 = register(Exercise(
    id="03.2",
    prompt="the AUC of the ratings (5 = surely malignant), from how many scans of each class got "
           "each rating",
    kind="value",
    cases=[Case("five ratings, every rating a block of ties")],
    expect=_ratings_auc,
    variant=_new_ratings,
    known=KNOWN_03_2,
    solution=Fraction(703, 800),
    kind_of_question="transfer",
    data=RATINGS,
    hint="The ratings are scores with many ties. Count (malignant, benign) pairs: a malignant "
         "scan rated higher wins, one rated the same ties (1/2), one rated lower loses. Or draw "
         "the ROC path: one step per rating, from 5 down, each a diagonal.",
))


# --------------------------------------------------------------------------
# 03.3  one model, two hospitals: the pooled AUC below both


def _explain_pooled_auc():
    """The pooled AUC is below both hospitals' though each hospital's class ratio is the same:
    the pairs across hospitals, where B's shift outranks A's sick patients, pull it down."""
    hospital, sick, score = two_hospitals()
    within = [ek.roc_auc_score(sick[hospital == h], score[hospital == h]) for h in ("A", "B")]
    pooled = ek.roc_auc_score(sick, score)
    a_sick = score[(hospital == "A") & (sick == 1)]
    b_well = score[(hospital == "B") & (sick == 0)]
    across = ek.roc_auc_score(np.r_[np.ones(len(a_sick)), np.zeros(len(b_well))],
                              np.r_[a_sick, b_well])
    same_ratio = sick[hospital == "A"].mean() == sick[hospital == "B"].mean()
    if pooled < min(within) and across < 0.5 and same_ratio:
        return "b"
    raise AssertionError("the two hospitals no longer make the pairs-across option true")


EX_03_3 = register(Exercise(
    id="03.3",
    prompt="one model, two hospitals: each hospital's AUC is above the AUC of the two pooled; why?",
    kind="choice",
    choices={
        "a": "a bug in the pooling: the AUC of pooled data always lies between the AUCs of its "
             "parts",
        "b": "pooling adds pairs of a sick patient of one hospital and a healthy one of the "
             "other; B's scores run higher for everyone, so its healthy patients outrank many "
             "of A's sick ones",
        "c": "the pooled set is twice as large, and an AUC falls as the number of patients grows",
        "d": "the hospitals have different shares of sick patients, and the AUC depends on the "
             "class ratio",
    },
    feedback={
        "a": "compute the three AUCs: the pooled one is below both, so no rule keeps it between "
             "them. An accuracy of pooled data does lie between its parts' accuracies, being a "
             "share of patients; an AUC is not a share of patients.",
        "b": "each hospital's pairs keep their order when pooled, but the new pairs across the "
             "hospitals are ordered by the scanner's shift as much as by sickness: a sick "
             "patient of A loses to many healthy patients of B.",
        "c": "an AUC is a share, not a count: more patients make it less noisy, not smaller.",
        "d": "both hospitals have 100 sick patients in 400, and the AUC divides by the sick and by "
             "the well separately: the class ratio does not enter it.",
    },
    cases=[Case("what pulls the pooled AUC below both", {}, _explain_pooled_auc)],
    solution="b",
    kind_of_question="judgement",
    data={"hospital, sick, score": two_hospitals},
    hint="Compute the AUC of each hospital and of all 800 patients. The AUC counts (sick, "
         "healthy) pairs: which pairs does the pooled set have that neither hospital has? Look "
         "at the scores of the healthy patients of each hospital.",
))


WRONG_ANSWERS = {
    "03.0": ["a", "c"],
    "03.1": [[5, Fraction(5, 8), Fraction(3, 4)],      # pairs in the right order, as misordered
             [3, Fraction(3, 8), Fraction(1, 2)],      # the misordered share given as the AUC
             [3, Fraction(5, 8), Fraction(1, 2)]],     # the swap read as breaking a pair
    "03.2": [Fraction(1657, 2000),                      # tied pairs counted as lost
             Fraction(929, 1000)],                      # tied pairs counted as won
    "03.3": ["a", "c", "d"],
}
