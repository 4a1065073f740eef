"""Exercises of notebook 06, the top-k report.

* 06.1 -- transfer: the precision@2 of one class on a new, small set of
  suggestions, a repeated label counting once per row;
* 06.2 -- transfer: the micro-averaged F1@2 of the same suggestions,
  2·Σtp / (Σsupport + Σpredicted);
* 06.3 -- judgement: which number of the top-k report answers "how often was
  the bought item among the k suggestions?" (micro recall@k, the top-k
  accuracy); a choice.

Every expected value is computed with evalkit, never typed in.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_06_1", "EX_06_2", "EX_06_3", "WRONG_ANSWERS", "BOOKSHOP_BOUGHT",
           "BOOKSHOP_SUGGESTED"]

#: The bookshop of 06.1 and 06.2: the genre each customer bought, and the
#: three genres suggested to them, best first (customer 3's list repeats "crime").
BOOKSHOP_BOUGHT = ["poetry", "crime", "crime", "history", "poetry", "crime", "scifi", "history"]
BOOKSHOP_SUGGESTED = [["poetry", "crime", "scifi"],
                      ["history", "crime", "crime"],
                      ["crime", "crime", "poetry"],
                      ["crime", "history", "scifi"],
                      ["scifi", "crime", "poetry"],
                      ["poetry", "history", "crime"],
                      ["scifi", "scifi", "history"],
                      ["crime", "poetry", "history"]]


# --------------------------------------------------------------------------
# 06.1  precision@2 of "crime", once per row


def _crime_precision_at_2():
    p, _, _, _ = ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                                 labels=["crime"])
    return float(p[0])


EX_06_1 = register(Exercise(
    id="06.1",
    prompt="the precision@2 of the genre 'crime' in the bookshop's suggestions",
    kind="value",
    cases=[Case("precision@2 of crime, first two suggestions only", {}, _crime_precision_at_2)],
    solution=Fraction(2, 6),
    hint="Look only at the first two suggestions of each row. Count the customers whose first two "
         "include crime -- once per customer, even where crime appears twice -- and, among them, "
         "those who bought crime.",
))


# --------------------------------------------------------------------------
# 06.2  micro F1@2


def _micro_f1_at_2():
    return ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                           average="micro")[2]


EX_06_2 = register(Exercise(
    id="06.2",
    prompt="the micro-averaged F1@2 of the bookshop's suggestions",
    kind="value",
    cases=[Case("micro F1@2 over all genres", {}, _micro_f1_at_2)],
    solution=Fraction(2 * 5, 8 + 14),
    hint="Pool the counts over the genres: the hits (customers whose first two include what they "
         "bought), the supports (one per customer) and the predictions (distinct genres in each "
         "customer's first two). Then F1 = 2 x hits / (supports + predictions).",
))


# --------------------------------------------------------------------------
# 06.3  which number is "how often was the bought item among the suggestions?"

_NAMES = {"a": ("macro", 0), "b": ("micro", 0), "c": ("macro", 1), "d": ("micro", 1)}


def _random_shop(seed=63, n=300, n_items=12, k=3):
    rng = np.random.default_rng(seed)
    bought = rng.integers(0, n_items, n)
    scores = rng.random((n, n_items))
    scores[np.arange(n), bought] += rng.random(n)
    return bought, ek.top_k_labels(scores, k)


def _the_number_that_answers():
    """The one entry of the report that equals the share of rows whose label is in the top 3."""
    bought, shown = _random_shop()
    share = float(np.mean([b in row for b, row in zip(bought, shown)]))
    matches = [letter for letter, (average, which) in _NAMES.items()
               if np.isclose(ek.precision_recall_fscore_at_k(bought, shown, k=3, average=average)[which],
                             share)]
    if len(matches) != 1:
        raise RuntimeError(f"06.3's data should single out one entry, got {matches}")
    return matches[0]


EX_06_3 = register(Exercise(
    id="06.3",
    prompt="which number of the top-k report is 'how often was the bought item among the three?'",
    kind="choice",
    choices={"a": "macro precision@3", "b": "micro precision@3", "c": "macro recall@3",
             "d": "micro recall@3"},
    cases=[Case("the report entry that is the share of page views with a hit", {},
                _the_number_that_answers)],
    solution="d",
    hint="The question divides by the number of page views: one per customer, whatever they bought. "
         "Which ratio has the customers of the class in its denominator, and which average pools "
         "the counts before dividing rather than averaging the classes?",
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).


def _counting_repeats():
    rows = [row[:2] for row in BOOKSHOP_SUGGESTED]
    listed = sum(row.count("crime") for row in rows)
    hits = sum(row.count("crime") for b, row in zip(BOOKSHOP_BOUGHT, rows) if b == "crime")
    return hits / listed


WRONG_ANSWERS = {
    "06.1": [_counting_repeats(),                                      # a repeat counted twice
             ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=3,
                                             labels=["crime"])[0][0]],  # all three suggestions
    "06.2": [ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                             average="macro")[2],
             ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                             average="weighted")[2]],
    "06.3": ["a", "b", "c"],
}
