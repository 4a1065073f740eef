"""Exercises of notebook 08, ranking metrics.

* 08.0 -- check your understanding, in the body after section 1.6: a
  first-place hit for one user or second-place hits for both; MRR and hit rate;
* 08.1 -- a judgement: two search engines, queries with 1 to 4 relevant
  documents; precision@10 prefers one, R-precision the other; which fits
  users who read the first few results?
* 08.2 -- find the bug: a colleague's ``ndcg_binary(ranked, relevant, k)``
  (NDCG@k, binary gains, the ideal DCG from all relevant items: trec_eval's
  convention) does not cut the ideal list at k; hand in the fixed function;
* 08.3 -- a judgement: which convention explains a colleague's higher MAP@10;
* 08.4 -- transfer: the 11-point interpolated average precision of a list
  shorter than its query's number of relevant documents.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import colleague, digital_library
from . import Case, Exercise, Known, register

__all__ = ["EX_08_0", "EX_08_1", "EX_08_2", "EX_08_3", "EX_08_4", "WRONG_ANSWERS", "colleague",
           "digital_library"]


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
    kind_of_question="check",
    data=TWO_SYSTEMS,
    hint="Write each user's reciprocal rank (0 without a hit) and average; then count the users "
         "with a hit in the top 5.",
))


# --------------------------------------------------------------------------
# 08.1  precision@10 or R-precision, for queries with few relevant documents


def _engine_for_first_results():
    """B when R-precision prefers it and precision@10 prefers A (the story's two metrics part)."""
    ranked_a, ranked_b, relevant = digital_library()
    p10 = [ek.precision_at_k(rows, relevant, 10) for rows in (ranked_a, ranked_b)]
    rp = [ek.r_precision(rows, relevant) for rows in (ranked_a, ranked_b)]
    if p10[0] > p10[1] and rp[1] > rp[0]:
        return "b"
    raise RuntimeError("08.1's engines should split precision@10 and R-precision")


EX_08_1 = register(Exercise(
    id="08.1",
    prompt="two engines' top 10 for the same 60 queries of 1 to 4 relevant documents, for users "
           "who read the first few results: which engine, by which metric?",
    kind="choice",
    choices={
        "a": "engine A: its precision@10 is higher",
        "b": "engine B: its R-precision is several times A's; precision@10 cannot pass R/10 here, "
             "and A's hits sit below the top places users read",
        "c": "either: the two metrics count the same hits and only scale them differently",
        "d": "neither metric can tell: queries with different numbers of relevant documents must "
             "not be averaged together",
    },
    feedback={
        "a": "precision@10 counts a hit at rank 9 as much as one at rank 1, so it rewards finding "
             "more of the few documents somewhere in the ten, whether or not a reader gets there.",
        "b": "R-precision cuts each query's list at its own R: one relevant document is wanted at "
             "rank 1, four in the top 4, where these users read. Precision@10 of a query with two "
             "relevant documents is at most 0.2 however well it ranks them.",
        "c": "the two cut the lists at different ranks, ten for every query or each query's own "
             "R, so the same hits count differently, and here they order the engines in opposite "
             "ways.",
        "d": "both metrics are means over queries; cutting each query at its own number of "
             "relevant documents is how one of them makes queries of different sizes comparable.",
    },
    cases=[Case("two engines, 60 queries of 1 to 4 relevant documents", {},
                _engine_for_first_results)],
    solution="b",
    kind_of_question="judgement",
    data={"ranked_a, ranked_b, relevant": digital_library},
    hint="Compute ek.precision_at_k(ranked, relevant, 10) and ek.r_precision(ranked, relevant) "
         "for both engines. What is the largest precision@10 a query with two relevant documents "
         "can have? Where in its list does each metric look?",
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
# 08.4  the 11-point interpolated average precision of a list shorter than R

#: The engine returned 5 documents for a query with 8 relevant ones: hits at ranks 1, 2 and 4.
SHORT_LIST_08_4 = {"ranked": ["doc14", "doc03", "doc27", "doc08", "doc19"],
                   "relevant": ["doc03", "doc05", "doc08", "doc11", "doc14", "doc21", "doc30",
                                "doc33"]}


def _eleven_point(d):
    return ek.interpolated_average_precision([d.ranked], [set(d.relevant)])


def _reached_levels_only(d):
    """The mistake: the mean over the recall levels the list reaches, not over all eleven."""
    levels = np.arange(11) / 10
    p = ek.interpolated_precision([d.ranked], [set(d.relevant)], levels)
    return float(p[p > 0].mean())


def _r_as_retrieved(d):
    """The mistake: R counted as the relevant documents the list holds, not all of them."""
    return ek.interpolated_average_precision([d.ranked], [set(d.relevant)], relevant_in="ranked")


def _new_short_list(rng):
    """Another query: a list of 4 to 7 documents, 2 to 6 relevant ones beyond it, 2 or more hits."""
    length = int(rng.integers(4, 8))
    n_hits = int(rng.integers(2, length))
    n_relevant = n_hits + int(rng.integers(2, 7))
    docs = [f"doc{i:02d}" for i in rng.permutation(40)[:length + n_relevant - n_hits]]
    hit_places = set(rng.choice(length, size=n_hits, replace=False).tolist())
    listed_relevant, missed = docs[:n_hits], docs[n_hits:n_relevant]
    others = iter(docs[n_relevant:])
    relevant_in_order = iter(listed_relevant)
    ranked = [next(relevant_in_order) if place in hit_places else next(others)
              for place in range(length)]
    return {"ranked": ranked, "relevant": sorted(listed_relevant + missed)}


EX_08_4 = register(Exercise(
    id="08.4",
    prompt="the 11-point interpolated average precision of a list shorter than its query's "
           "number of relevant documents",
    kind="value",
    cases=[Case("a list shorter than its query's number of relevant documents")],
    expect=_eleven_point,
    variant=_new_short_list,
    known=(Known("the mean over the recall levels the list reaches only: a level it never "
                 "reaches still counts, with an interpolated precision of 0", _reached_levels_only),
           Known("R counted as the relevant documents in the list: recall is measured against "
                 "every relevant document of the query, found or not", _r_as_retrieved)),
    solution=_eleven_point(SimpleNamespace(**SHORT_LIST_08_4)),
    kind_of_question="transfer",
    data=dict(SHORT_LIST_08_4),
    hint="Write the recall and the precision at each hit (recall over all 8 relevant documents). "
         "At each of the levels 0, 0.1, ..., 1, take the highest precision at a recall of that "
         "level or more, 0 where the list never gets that far; then the mean of the eleven. "
         "Check with ek.interpolated_average_precision.",
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
    "08.4": [_reached_levels_only(SimpleNamespace(**SHORT_LIST_08_4)),
             _r_as_retrieved(SimpleNamespace(**SHORT_LIST_08_4))],
}
