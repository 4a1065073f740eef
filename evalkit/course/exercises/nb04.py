"""Exercises of notebook 04, AUC three ways and the area under the PR curve.

* 04.0 -- check (in the body, after section 7): every negative of a test set
  counted ten times; what happens to the ROC AUC and to the average precision;
* 04.1 -- transfer: the ROC AUC from a rank sum alone (no scores), and the
  rank sums of the worst and the best ranking (W is not U: the AUC is
  (W - M(M+1)/2) / (M N));
* 04.2 -- judgement: two fraud models, rare positives, a review budget of
  the top 100: the ROC AUC prefers one model, the top of the ranking (and
  the average precision) the other; a choice;
* 04.3 -- find the bug: a new model's scikit-learn AP compared with an old
  model's Spark ``areaUnderPR`` (two summaries of a PR curve).

Every expected value is computed (numpy ranks, ``roc_auc_score``, the
precision of the top 100, ``mllib.BinaryClassificationMetrics``), never typed
in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from ...mllib import BinaryClassificationMetrics
from ..exercise_data import fraud_scores
from . import Case, Exercise, register

__all__ = ["EX_04_0", "EX_04_1", "EX_04_2", "EX_04_3", "WRONG_ANSWERS", "fraud_scores"]


def _average_ranks(y_score):
    """Ranks 1 (lowest) .. n, tied scores sharing their average rank."""
    y_score = np.asarray(y_score, dtype=float)
    ordinal = np.empty(len(y_score))
    ordinal[np.argsort(y_score, kind="stable")] = np.arange(1, len(y_score) + 1)
    _, group = np.unique(y_score, return_inverse=True)
    return (np.bincount(group, weights=ordinal) / np.bincount(group))[group]


# --------------------------------------------------------------------------
# 04.0  (in the body) ten times the negatives, same scores

TEN_TIMES = {"clicked": [1, 0, 1, 0, 0, 1, 0, 0],
             "scores": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
             "copies_of_each_negative": 10}


def _ten_times_choice():
    """The option whose claim holds when every negative (and its score) is repeated."""
    y, s = np.array(TEN_TIMES["clicked"]), np.array(TEN_TIMES["scores"])
    weight = np.where(y == 1, 1, TEN_TIMES["copies_of_each_negative"])
    y10, s10 = np.repeat(y, weight), np.repeat(s, weight)
    same_auc = np.isclose(ek.roc_auc_score(y10, s10), ek.roc_auc_score(y, s))
    ap_falls = ek.average_precision_score(y10, s10) < ek.average_precision_score(y, s)
    if same_auc and ap_falls:
        return "c"
    raise AssertionError("the ten-times data no longer make the right option true")


EX_04_0 = register(Exercise(
    id="04.0",
    prompt="the same model and scores, every non-click counted 10 times: the ROC AUC and the AP?",
    kind="choice",
    choices={
        "a": "the ROC AUC falls: ten times as many negatives must be ranked below the clicks",
        "b": "both stay the same: the model and its scores did not change",
        "c": "the ROC AUC stays the same; the average precision falls",
    },
    feedback={
        "a": "each copy of a negative has the same share of clicks above it as the original, and "
             "the AUC is the mean of those shares over the negatives: copies do not move it.",
        "b": "the model did not change, but the test set did: a summary that counts the negatives "
             "above each threshold sees the copies.",
        "c": "the AUC averages, over the negatives, the share of clicks above each: ten copies of "
             "every negative leave that average as it was. Precision divides by everything above "
             "the threshold, now ten times the negatives there, so AP falls.",
    },
    cases=[Case("every non-click ten times", {}, _ten_times_choice)],
    solution="c",
    kind_of_question="check",
    data=TEN_TIMES,
    hint="The AUC is an average over the negatives of one share each; precision at a threshold "
         "is clicks above it over everything above it.",
))


# --------------------------------------------------------------------------
# 04.1  the rank sum W and the AUC from it, by hand

M_04_1, N_04_1, W_04_1 = 20, 30, 700   # positives, negatives, the positives' rank sum


def _ranking_with_rank_sum(m, n, w):
    """Scores (the ranks 1..m+n themselves) whose m positives have rank sum ``w``."""
    ranks = list(range(n + 1, n + m + 1))           # positives on top: the largest sum
    deficit = sum(ranks) - w
    free = sorted(set(range(1, m + n + 1)) - set(ranks))
    for i in range(m):                              # move the lowest positives down first
        while deficit > 0 and free and free[0] < ranks[i]:
            lower = max(r for r in free if r < ranks[i] and ranks[i] - r <= deficit) \
                if any(ranks[i] - r <= deficit for r in free if r < ranks[i]) else None
            if lower is None:
                break
            free.remove(lower)
            free.append(ranks[i])
            free.sort()
            deficit -= ranks[i] - lower
            ranks[i] = lower
    if deficit:
        raise ValueError("no ranking has that rank sum")
    y = np.zeros(m + n, dtype=int)
    y[np.array(ranks) - 1] = 1
    return y, np.arange(1, m + n + 1, dtype=float)


def _auc_and_bounds(d):
    m, n = d.positives, d.negatives
    auc = ek.roc_auc_score(*_ranking_with_rank_sum(m, n, d.rank_sum_of_positives))
    bottom = float(_average_ranks(np.arange(m + n))[:m].sum())
    top = float(_average_ranks(np.arange(m + n))[-m:].sum())
    return [auc, bottom, top]


def _new_report(rng):
    """Another lab: 10-30 positives, 15-40 negatives, a rank sum of an AUC between 0.55 and 0.95."""
    m, n = int(rng.integers(10, 31)), int(rng.integers(15, 41))
    u = int(rng.integers(int(0.55 * m * n), int(0.95 * m * n)))
    return {"positives": m, "negatives": n, "rank_sum_of_positives": u + m * (m + 1) // 2}


EX_04_1 = register(Exercise(
    id="04.1",
    prompt="[AUC, the smallest and the largest rank sum possible] from a rank sum alone",
    kind="value",
    cases=[Case("the positives' rank sum, no ties")],
    expect=_auc_and_bounds,
    variant=_new_report,
    solution=[Fraction(49, 60), 210, 810],
    components=("the AUC", "the smallest rank sum", "the largest rank sum"),
    kind_of_question="transfer",
    data={"positives": M_04_1, "negatives": N_04_1, "rank_sum_of_positives": W_04_1},
    hint="With no ties, the positives' ranks are distinct: the smallest sum puts them at ranks "
         "1..M, the largest at the top M ranks. U = W - M(M+1)/2 counts the (positive, negative) "
         "pairs in the right order; the AUC is U over all M·N pairs.",
))


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
    kind_of_question="judgement",
    data={"y_fraud, score_a, score_b": fraud_scores, "reviewed_per_day": 100},
    feedback={
        "a": "the ROC AUC averages over the whole list of about 20,000 payments, and its "
             "false-positive rate divides by about 19,900 honest ones; the reviewers see 100 "
             "payments a day.",
        "b": "the team's work is the top of the ranking; B's precision among its 100 highest "
             "scores, and its average precision, which weighs the top, are higher.",
        "c": "equal ROC AUCs do not make equal models for this team: the AUC averages over the "
             "whole list, and two lists with the same AUC can hold very different payments in any "
             "100 places.",
    },
    hint="Compute ek.roc_auc_score and ek.average_precision_score for each model, and the share "
         "of fraud among the 100 payments each model scores highest (sort by score, descending). "
         "The ROC curve divides false alarms by all the honest payments; the reviewers only "
         "see the ones at the top.",
))


# --------------------------------------------------------------------------
# 04.3  Spark's areaUnderPR, first point (0, precision at the highest threshold)

Y_04_3 = np.array([0, 1, 1, 0, 1, 0, 0, 1, 0, 0])                # the new model's ranking
S_04_3 = np.array([0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05])
OLD_AREA_UNDER_PR = 0.50                                         # the old model, from Spark


def _spark_area(y=Y_04_3, s=S_04_3):
    return BinaryClassificationMetrics(np.column_stack([s, y])).areaUnderPR


def _what_is_wrong():
    spark_new, sklearn_new = _spark_area(), ek.average_precision_score(Y_04_3, S_04_3)
    # the claim compares sklearn's AP of the new model with Spark's area of the old one
    return "b" if spark_new < OLD_AREA_UNDER_PR < sklearn_new else "a"


EX_04_3 = register(Exercise(
    id="04.3",
    prompt="the new model's average_precision_score beats the old model's areaUnderPR: is it "
           "better?",
    kind="choice",
    choices={
        "a": "nothing is wrong: both numbers are areas under the PR curve, so they compare",
        "b": "the numbers are two different summaries of a PR curve; on the old model's "
             "summary, Spark's, the new model scores lower",
        "c": "PR areas can never be compared between two models; compare ROC AUCs",
        "d": "Spark bins the scores, so its number is approximate; more bins would settle it",
    },
    feedback={
        "a": "scikit-learn's AP is a step sum (each recall step times the precision there); "
             "Spark's areaUnderPR joins the points by straight lines from a first point at recall "
             "0: one ranking can get two numbers.",
        "b": "compute the new model's areaUnderPR the way the old number was computed "
             "(evalkit.mllib.BinaryClassificationMetrics): it is below the old model's.",
        "c": "PR areas of two models compare well when both are computed by the same rule on the "
             "same test set; and the ROC AUC answers another question (section 9).",
        "d": "with numBins = 0, and with ten distinct scores even at the default, Spark keeps "
             "every threshold: its number is exact, and more bins would change nothing.",
    },
    cases=[Case("a new model's AP against an old model's areaUnderPR", {}, _what_is_wrong)],
    solution="b",
    kind_of_question="find the bug",
    data={"y_new": Y_04_3.tolist(), "scores_new": S_04_3.tolist(),
          "old_area_under_pr": OLD_AREA_UNDER_PR},
    hint="Compute both summaries of the new model: ek.average_precision_score(y_new, scores_new) "
         "and Spark's areaUnderPR (evalkit.mllib.BinaryClassificationMetrics on (score, label) "
         "rows). Which one is the old number?",
))


_M, _N, _W = M_04_1, N_04_1, W_04_1


WRONG_ANSWERS = {
    "04.0": ["a", "b"],
    "04.1": [[_W / (_M * _N), 210, 810],                             # W divided without subtracting
             [(_W - _M * (_M - 1) / 2) / (_M * _N), 210, 810],       # "pairs of two positives"
             [Fraction(49, 60), 1, 50]],                             # one rank, not a sum
    "04.2": ["a", "c"],
    "04.3": ["a", "c", "d"],
}
