"""Exercises of notebook 08, ranking metrics.

* 08.1 -- one user's AP under the post's denominator (R) and Spark's
  ``meanAveragePrecisionAt(5)`` (min(R, k)): transfer to a new list;
* 08.2 -- write ``ndcg_binary(ranked, relevant, k)``, NDCG@k with the ideal
  DCG from all relevant items (trec_eval's convention);
* 08.3 -- a judgement: which convention explains a colleague's higher MAP@10.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_08_1", "EX_08_2", "EX_08_3", "WRONG_ANSWERS", "colleague"]


# --------------------------------------------------------------------------
# 08.1  AP with R and with min(R, k)

#: A list of 10 with hits at ranks 2, 3 and 7; the fourth relevant item is never recommended.
LIST_08_1 = ["x1", "r1", "r2", "x2", "x3", "x4", "r3", "x5", "x6", "x7"]
RELEVANT_08_1 = {"r1", "r2", "r3", "r4"}


def _ap_and_spark_ap5():
    ap = ek.mean_average_precision([LIST_08_1], [RELEVANT_08_1])
    spark = ek.RankingMetrics([(LIST_08_1, sorted(RELEVANT_08_1))]).mean_average_precision_at(5)
    return [ap, spark]


EX_08_1 = register(Exercise(
    id="08.1",
    prompt="[AP with denominator R, Spark's AP@5 with denominator min(R, 5)] for hits at ranks "
           "2, 3, 7 of R = 4",
    kind="value",
    cases=[Case("hits at ranks 2, 3 and 7, four relevant items", {}, _ap_and_spark_ap5)],
    solution=[(Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 7)) / 4,
              (Fraction(1, 2) + Fraction(2, 3)) / 4],
    hint="For each hit, the precision at its rank: (hits so far) / (its rank). AP sums them and "
         "divides by R. At k = 5 only the hits in the first 5 ranks count, and Spark divides by "
         "min(R, 5).",
))


# --------------------------------------------------------------------------
# 08.2  NDCG@k, binary, ideal from all relevant items


def _random_case(seed, n_users=40, n_items=30, strings=False):
    rng = np.random.default_rng(seed)
    ranked, relevant = [], []
    for _ in range(n_users):
        length = int(rng.integers(0, 12))
        row = rng.choice(n_items, size=length, replace=False).tolist()
        rel = set(rng.choice(n_items, size=int(rng.integers(0, 8)), replace=False).tolist())
        if strings:
            row, rel = [f"film{i}" for i in row], {f"film{i}" for i in rel}
        ranked.append(row)
        relevant.append(rel)
    return ranked, relevant


_SECTION_1 = ([list("abcdef"), list("gbhaic"), list("jihgfe")],
              [{"a", "c", "f", "j"}, {"a", "g"}, {"b", "d"}])

_CASES_08_2 = [
    ("the three users of section 1, k = 3", *_SECTION_1, 3),
    ("the three users of section 1, k = 6", *_SECTION_1, 6),
    ("a user with more relevant items than k", [[1, 2, 3, 4]], [{2, 4, 6, 8, 10}], 2),
    ("a user with no relevant item, and an empty list", [[1, 2], [], [3]], [set(), {1}, {3}], 5),
    ("40 random users, short lists, k = 5", *_random_case(1), 5),
    ("40 random users, string ids, k = 10", *_random_case(2, strings=True), 10),
]


def _ndcg_reference(ranked, relevant, k):
    return ek.ndcg_at_k(ranked, relevant, k, empty="zero")


def _ndcg_binary_solution(ranked, relevant, k):
    values = []
    for row, rel in zip(ranked, relevant):
        discount = 1 / np.log2(np.arange(1, k + 1) + 1)
        gains = np.array([item in rel for item in row[:k]], dtype=float)
        dcg = gains @ discount[:len(gains)]
        idcg = discount[:min(len(rel), k)].sum()
        values.append(dcg / idcg if idcg > 0 else 0.0)
    return float(np.mean(values))


EX_08_2 = register(Exercise(
    id="08.2",
    prompt="ndcg_binary(ranked, relevant, k): mean NDCG@k, binary gains, ideal from all relevant",
    kind="function",
    cases=[Case(d, {"ranked": [list(r) for r in ranked], "relevant": [set(s) for s in rel],
                    "k": k}, _ndcg_reference)
           for d, ranked, rel, k in _CASES_08_2],
    solution=_ndcg_binary_solution,
    hint="Per user: DCG = the sum over the first k ranks i (1-based) of 1/log2(i + 1) where the item "
         "is relevant; the ideal DCG puts min(R, k) relevant items first, R the user's relevant "
         "items (found or not). Lists may be shorter than k. Divide, then average over users.",
))


# --------------------------------------------------------------------------
# 08.3  why a colleague's MAP@10 is higher


def colleague():
    """A recommender's lists and the colleague's MAP@10: ``(ranked, relevant, their_map)``.

    300 users, a catalogue of 200 items; users have 0 to 40 relevant items
    (some none); each list has 20 items.

    >>> ranked, relevant, their_map = colleague()
    >>> len(ranked), len(relevant), 0 < their_map < 1
    (300, 300, True)
    """
    rng = np.random.default_rng(8)
    n_users, n_items = 300, 200
    ranked, relevant = [], []
    for _ in range(n_users):
        m = int(rng.integers(0, 41)) if rng.random() > 0.05 else 0
        rel = rng.choice(n_items, size=m, replace=False)
        score = rng.normal(0, 0.8, n_items)
        score[rel] += 1.0
        ranked.append(np.argsort(-score, kind="stable")[:20].tolist())
        relevant.append(set(rel.tolist()))
    their_map = ek.mean_average_precision(ranked, relevant, 10, denominator="min_relevant_k",
                                          empty="zero")
    return ranked, relevant, their_map


def _which_convention():
    ranked, relevant, their_map = colleague()
    candidates = {
        "a": ek.mean_average_precision(ranked, relevant, 10, denominator="min_relevant_k",
                                       empty="zero"),
        "b": ek.mean_average_precision(ranked, relevant, 10, denominator="hits", empty="zero"),
        "c": ek.mean_average_precision(ranked, relevant, 10, denominator="relevant",
                                       empty="skip"),
    }
    return min(candidates, key=lambda c: abs(candidates[c] - their_map))


EX_08_3 = register(Exercise(
    id="08.3",
    prompt="a colleague's MAP@10 is higher than yours on the same lists: which convention?",
    kind="choice",
    choices={
        "a": "they divide each user's AP@10 by min(R, 10), as Spark and RecBole do",
        "b": "they divide by the number of hits in the top 10, as torchmetrics does",
        "c": "they leave out the users with no relevant item, as trec_eval does",
    },
    cases=[Case("the convention that reproduces the colleague's number", {}, _which_convention)],
    solution="a",
    hint="ek.mean_average_precision(ranked, relevant, 10, ...) takes denominator='relevant', "
         "'min_relevant_k' or 'hits', and empty='zero' or 'skip'. Compute the three candidates "
         "and compare each with their_map.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _ideal_from_candidates(ranked, relevant, k):
    return ek.ndcg_at_k(ranked, relevant, k, ideal="candidates", empty="zero")


def _ideal_not_cut(ranked, relevant, k):
    values = []
    for row, rel in zip(ranked, relevant):
        width = max(k, len(rel))
        discount = 1 / np.log2(np.arange(1, width + 1) + 1)
        gains = np.array([item in rel for item in row[:k]], dtype=float)
        idcg = discount[:len(rel)].sum()
        values.append(gains @ discount[:len(gains)] / idcg if idcg > 0 else 0.0)
    return float(np.mean(values))


WRONG_ANSWERS = {
    "08.1": [[(1 / 2 + 2 / 3 + 3 / 7) / 3, (1 / 2 + 2 / 3) / 4],       # divided by the hits
             [(1 / 2 + 2 / 3 + 3 / 7) / 4, (1 / 2 + 2 / 3) / 5]],      # divided by k
    "08.2": [_ideal_from_candidates, _ideal_not_cut],
    "08.3": ["b", "c"],
}
