"""Exercises of notebook 08, ranking metrics.

* 08.0 -- in the body, after section 1.5 (predict): a first-place hit for one
  user or second-place hits for both; MRR and hit rate;
* 08.1 -- predict, then compute: a perfect top 5 for a user with 12 relevant
  items, under the post's denominator (R) and Spark's (min(R, k)); a choice;
* 08.2 -- find the bug: a colleague's ``ndcg_binary(ranked, relevant, k)``
  (NDCG@k, binary gains, the ideal DCG from all relevant items: trec_eval's
  convention) does not cut the ideal list at k; hand in the fixed function;
* 08.3 -- a judgement: which convention explains a colleague's higher MAP@10.

Every expected value is computed with evalkit.
"""

from __future__ import annotations


import numpy as np

import evalkit as ek

from ..exercise_data import colleague
from . import Case, Exercise, register

__all__ = ["EX_08_0", "EX_08_1", "EX_08_2", "EX_08_3", "WRONG_ANSWERS", "colleague"]


# --------------------------------------------------------------------------
# 08.0  (in the body) one first-place hit, or two second-place hits

TWO_SYSTEMS = {"relevant": [["x"], ["y"]],
               "ranked_A": [["x", "a", "b", "c", "d"], ["a", "b", "c", "d", "e"]],
               "ranked_B": [["a", "x", "b", "c", "d"], ["a", "y", "b", "c", "d"]]}


def _two_systems_choice():
    """The option whose claim holds: the same MRR, B's hit rate@5 higher."""
    rel = TWO_SYSTEMS["relevant"]
    a, b = TWO_SYSTEMS["ranked_A"], TWO_SYSTEMS["ranked_B"]
    same_mrr = ek.mean_reciprocal_rank(a, rel) == ek.mean_reciprocal_rank(b, rel)
    hr_a = ek.hit_rate_at_k(a, rel, 5, hit_rate="any_hit")
    hr_b = ek.hit_rate_at_k(b, rel, 5, hit_rate="any_hit")
    if same_mrr and hr_b > hr_a:
        return "b"
    raise AssertionError("the two systems no longer make the right option true")


EX_08_0 = register(Exercise(
    id="08.0",
    prompt="A ranks user 1's item first and misses user 2's; B ranks both second: MRR and HR@5?",
    kind="choice",
    choices={
        "a": "A has the higher MRR: a first-place hit counts most",
        "b": "the same MRR; B has the higher hit rate@5 (users with a hit)",
        "c": "B has both the higher MRR and the higher hit rate@5",
    },
    feedback={
        "a": "a first place counts 1, but a miss counts 0, and MRR is the mean of the two: A's "
             "first place is averaged with its miss.",
        "b": "(1 + 0) / 2 = (1/2 + 1/2) / 2 = 0.5, but B finds something for both users and A "
             "for one: hit rate 1.0 against 0.5.",
        "c": "a second place counts only 1/2 in MRR, and B has no first place: B's two hits do "
             "not put its MRR above A's.",
    },
    cases=[Case("a first place and a miss, or two second places", {}, _two_systems_choice)],
    solution="b",
    kind_of_question="predict",
    data=TWO_SYSTEMS,
    hint="Write each user's reciprocal rank (0 without a hit) and average; then count the users "
         "with a hit in the top 5.",
))


# --------------------------------------------------------------------------
# 08.1  AP with R and with min(R, k)

#: A list of 10 with hits at ranks 2, 3 and 7; the fourth relevant item is never recommended.
LIST_08_1 = ["r1", "r2", "r3", "r4", "r5", "x1", "r6", "x2", "x3", "x4"]
RELEVANT_08_1 = {f"r{i}" for i in range(1, 13)}           # 12 relevant items
K_08_1 = 5


def _ap_at_5_two_ways():
    by_r = ek.mean_average_precision([LIST_08_1], [RELEVANT_08_1], K_08_1, denominator="relevant")
    spark = ek.mean_average_precision([LIST_08_1], [RELEVANT_08_1], K_08_1,
                                      denominator="min_relevant_k")
    if np.isclose(by_r, K_08_1 / len(RELEVANT_08_1)) and np.isclose(spark, 1.0):
        return "b"
    raise RuntimeError("08.1's list no longer separates the two denominators")


EX_08_1 = register(Exercise(
    id="08.1",
    prompt="AP@5 of a user with 12 relevant items and five hits in the top 5: the post's "
           "denominator R and Spark's min(R, k)",
    kind="choice",
    choices={
        "a": "both give 1: the top 5 could not be better",
        "b": "the post's (divided by R) gives 5/12, Spark's (divided by min(R, 5)) gives 1",
        "c": "both give 5/12: seven relevant items are missing from the top 5",
        "d": "the post's gives 1, Spark's gives 5/12",
    },
    feedback={
        "a": "a perfect top 5 is not perfect under every denominator: one that counts all 12 "
             "relevant items charges the list for items it had no room for.",
        "b": "each hit's precision is 1, their sum 5; the post divides by R = 12, Spark by "
             "min(R, k) = 5, the most hits a top 5 can have.",
        "c": "5/12 has all 12 relevant items in its denominator; min(R, k) is a different number "
             "when R > k.",
        "d": "the post's denominator is R = 12, all the user's relevant items: five precisions of "
             "at most 1 each, over 12, stay below 1.",
    },
    cases=[Case("five hits in the top 5, twelve relevant items", {}, _ap_at_5_two_ways)],
    solution="b",
    kind_of_question="predict, then compute",
    data={"ranked": LIST_08_1, "relevant": sorted(RELEVANT_08_1, key=lambda r: int(r[1:])),
          "k": K_08_1},
    hint="Write each hit's precision at its rank (hits so far / rank) for the first 5 ranks, add "
         "them, then divide once by R and once by min(R, k). Predict first, then check with "
         "ek.mean_average_precision(ranked_lists, relevant_sets, k, denominator=...).",
))


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
    return ek.ndcg_at_k(ranked, relevant, k, zero_division=0.0)


def _ndcg_binary_solution(ranked, relevant, k):
    values = []
    for row, rel in zip(ranked, relevant):
        discount = 1 / np.log2(np.arange(1, k + 1) + 1)
        gains = np.array([item in rel for item in row[:k]], dtype=float)
        dcg = gains @ discount[:len(gains)]
        idcg = discount[:min(len(rel), k)].sum()
        values.append(dcg / idcg if idcg > 0 else 0.0)
    return float(np.mean(values))


def _new_users(rng):
    """One more case: 40 users with string ids drawn for this variant, k from 3 to 10."""
    ranked, relevant = _random_case(int(rng.integers(2**31)), strings=True)
    return [Case("users drawn for you", {"ranked": ranked, "relevant": relevant,
                                         "k": int(rng.integers(3, 11))}, _ndcg_reference)]


EX_08_2 = register(Exercise(
    id="08.2",
    prompt="the colleague's ndcg_binary(ranked, relevant, k) with its bug fixed: mean NDCG@k, "
           "binary gains, ideal from all relevant",
    kind="function",
    cases=[Case(d, {"ranked": [list(r) for r in ranked], "relevant": [set(s) for s in rel],
                    "k": k}, _ndcg_reference)
           for d, ranked, rel, k in _CASES_08_2],
    variant=_new_users,
    solution=_ndcg_binary_solution,
    kind_of_question="find the bug",
    data={"ranked": _SECTION_1[0], "relevant": [sorted(r) for r in _SECTION_1[1]], "k": 3},
    hint="Run the colleague's function and evalkit's ek.ndcg_at_k(ranked, relevant, k) user by "
         "user (per_user=True): which users differ, and what do they have in common? The ideal "
         "list is a list of k items too.",
))


# --------------------------------------------------------------------------
# 08.3  why a colleague's MAP@10 is higher


def _which_convention():
    ranked, relevant, their_map = colleague()
    candidates = {
        "a": ek.mean_average_precision(ranked, relevant, 10, denominator="min_relevant_k",
                                       zero_division=0.0),
        "b": ek.mean_average_precision(ranked, relevant, 10, denominator="hits", zero_division=0.0),
        "c": ek.mean_average_precision(ranked, relevant, 10, denominator="relevant",
                                       zero_division=np.nan),
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
    kind_of_question="judgement",
    data={"ranked, relevant, their_map": colleague},
    feedback={
        "a": "their number is reproduced by the min(R, 10) denominator: users with more than 10 "
             "relevant items are no longer charged for the ones a list of 10 cannot hold.",
        "b": "dividing by the hits gives an even higher number than theirs: a list whose one hit "
             "is at rank 1 scores 1.",
        "c": "leaving out the few lists with no relevant item moves the mean a little, not as far "
             "as their number.",
    },
    hint="ek.mean_average_precision(ranked, relevant, 10, ...) takes denominator='relevant', "
         "'min_relevant_k' or 'hits', and zero_division=0.0 or np.nan (left out). Compute the "
         "three candidates and compare each with their_map.",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _ideal_from_candidates(ranked, relevant, k):
    return ek.ndcg_at_k(ranked, relevant, k, ideal="candidates", zero_division=0.0)


def _ideal_not_cut(ranked, relevant, k):
    """The colleague's function of 08.2, as the notebook shows it: the ideal DCG not cut at k."""
    values = []
    for row, rel in zip(ranked, relevant):
        width = max(k, len(rel))
        discount = 1 / np.log2(np.arange(1, width + 1) + 1)
        gains = np.array([item in rel for item in row[:k]], dtype=float)
        idcg = discount[:len(rel)].sum()
        values.append(gains @ discount[:len(gains)] / idcg if idcg > 0 else 0.0)
    return float(np.mean(values))


WRONG_ANSWERS = {
    "08.0": ["a", "c"],
    "08.1": ["a", "c", "d"],
    "08.2": [_ideal_from_candidates, _ideal_not_cut],
    "08.3": ["b", "c"],
}
