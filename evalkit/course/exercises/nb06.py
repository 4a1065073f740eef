"""Exercises of notebook 06, the top-k report.

* 06.0 -- in the body, after section 2 (predict): as k grows, which of
  precision@k and recall@k of a class can fall;
* 06.1 -- transfer: the precision@2 of one class on a new, small set of
  suggestions, a repeated label counting once per row;
* 06.2 -- transfer: the micro-averaged F1@2 of the same suggestions,
  2·Σtp / (Σsupport + Σpredicted);
* 06.3 -- find the bug, the notebook's lesson turned round: the ad team asks
  what share of the suggestion slots earns a sale, and an analyst quotes
  micro recall@3, the top-3 accuracy the notebook recommends for "how often
  was the bought item among the three" (the share of slots is micro
  precision@3); a choice, every option explained.

Every expected value is computed with evalkit, never typed in.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np

import evalkit as ek

from ..exercise_data import shop
from . import Case, Exercise, Known, register

__all__ = ["EX_06_0", "EX_06_1", "EX_06_2", "EX_06_3", "WRONG_ANSWERS", "BOOKSHOP_BOUGHT",
           "BOOKSHOP_SUGGESTED", "shop"]

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
# 06.0  (in the body) what a longer list does to precision@k and recall@k

GROWING_K = {"y_true": [0, 1, 2, 0, 1],
             "y_top3": [[1, 0, 2], [1, 2, 0], [0, 1, 2], [2, 1, 0], [0, 2, 1]]}


def _growing_k_choice():
    """The option whose claim holds from k = 1 to 3: recall never falls, precision does."""
    y, top = GROWING_K["y_true"], GROWING_K["y_top3"]
    p, r = zip(*(ek.precision_recall_fscore_at_k(y, top, k=k)[:2] for k in (1, 2, 3)))
    recall_never_falls = bool(np.all(np.diff(np.array(r), axis=0) >= 0))
    precision_falls = bool(np.any(np.diff(np.array(p), axis=0) < 0))
    if recall_never_falls and precision_falls:
        return "b"
    raise AssertionError("the growing-k data no longer make the right option true")


EX_06_0 = register(Exercise(
    id="06.0",
    prompt="k grows from 1 to 3: which of precision@k and recall@k of a class can fall?",
    kind="choice",
    choices={
        "a": "neither can fall: a longer list finds more",
        "b": "recall@k can only stay or rise; precision@k can fall",
        "c": "both can fall: a longer list adds wrong guesses",
    },
    feedback={
        "a": "tp grows, but so does predicted: rows that newly list the class without being of "
             "it lower its precision.",
        "b": "a row's top k is inside its top k + 1, so tp of a class only grows while its "
             "support stays: recall cannot fall. Predicted grows too, and faster than tp when the "
             "rows that add the class are not of it: precision can fall.",
        "c": "recall divides tp, which only grows, by the support, which does not change with k.",
    },
    cases=[Case("k from 1 to 3", {}, _growing_k_choice)],
    solution="b",
    kind_of_question="predict",
    data=GROWING_K,
    hint="For a class c, which of tp_c, predicted_c and support_c change when k grows, and in "
         "which direction?",
))


# --------------------------------------------------------------------------
# 06.1  precision@2 of "crime", once per row


def _crime_precision_at_2(d):
    p, _, _, _ = ek.precision_recall_fscore_at_k(d.bought, d.suggested, k=d.k, labels=["crime"])
    return float(p[0])


GENRES = ["poetry", "crime", "history", "scifi"]


def _new_bookshop(rng):
    """Other customers (10 to 16): three distinct genres suggested a row, except one row that
    lists crime first and second; crime among the first two of 4 or more rows, bought by some."""
    while True:
        bought = rng.choice(GENRES, int(rng.integers(10, 17))).tolist()
        suggested = [rng.choice(GENRES, 3, replace=False).tolist() for _ in bought]
        twice = int(rng.integers(len(bought)))
        suggested[twice][:2] = ["crime", "crime"]
        if suggested[twice][2] == "crime":
            suggested[twice][2] = str(rng.choice([g for g in GENRES if g != "crime"]))
        listed = [b for b, row in zip(bought, suggested) if "crime" in row[:2]]
        if len(listed) >= 4 and 0 < listed.count("crime") < len(listed):
            return {"bought": bought, "suggested": suggested, "k": 2}


def _counting_repeats(d):
    """The precision@k of crime with a row that lists crime twice counted twice: the mistake."""
    rows = [row[:d.k] for row in d.suggested]
    listed = sum(row.count("crime") for row in rows)
    hits = sum(row.count("crime") for b, row in zip(d.bought, rows) if b == "crime")
    return Fraction(hits, listed)


KNOWN_06_1 = (
    Known("crime counted twice in the row that suggests it twice: a row predicts a genre or "
          "does not, so a repeat counts once", _counting_repeats),
)


EX_06_1 = register(Exercise(
    id="06.1",
    prompt="the precision@2 of the genre 'crime' in the bookshop's suggestions",
    kind="value",
    cases=[Case("precision@2 of crime, first two suggestions only")],
    expect=_crime_precision_at_2,
    variant=_new_bookshop,
    known=KNOWN_06_1,
    solution=Fraction(2, 6),
    kind_of_question="transfer",
    data={"bought": BOOKSHOP_BOUGHT, "suggested": BOOKSHOP_SUGGESTED, "k": 2},
    hint="Look only at the first two suggestions of each row. Count the customers whose first two "
         "include crime -- once per customer, even where crime appears twice -- and, among them, "
         "those who bought crime.",
))


# --------------------------------------------------------------------------
# 06.2  micro F1@2


def _micro_f1_at_2(d):
    return ek.precision_recall_fscore_at_k(d.bought, d.suggested, k=d.k, average="micro")[2]


EX_06_2 = register(Exercise(
    id="06.2",
    prompt="the micro-averaged F1@2 of the bookshop's suggestions",
    kind="value",
    cases=[Case("micro F1@2 over all genres")],
    expect=_micro_f1_at_2,
    variant=_new_bookshop,
    variant_stream="06.1",  # the same suggestions as 06.1
    solution=Fraction(2 * 5, 8 + 14),
    kind_of_question="transfer",
    data={"bought": BOOKSHOP_BOUGHT, "suggested": BOOKSHOP_SUGGESTED, "k": 2},
    hint="Pool the counts over the genres: the hits (customers whose first two include what they "
         "bought), the supports (one per customer) and the predictions (distinct genres in each "
         "customer's first two). Then F1 = 2 x hits / (supports + predictions).",
))


# --------------------------------------------------------------------------
# 06.3  which number is "what share of the suggestion slots earns a sale?"

_NAMES = [("macro", 0), ("micro", 0), ("macro", 1), ("micro", 1)]


def _the_number_that_answers():
    """The one entry of the report that equals the share of suggestion slots that earn a sale."""
    bought, shown = shop()
    slots = sum(len(row[:3]) for row in shown)
    share = sum(b in row[:3] for b, row in zip(bought, shown)) / slots
    reports = {average: ek.precision_recall_fscore_at_k(bought, shown, k=3, average=average)
               for average in ("macro", "micro")}
    matches = [(average, which) for average, which in _NAMES
               if np.isclose(reports[average][which], share)]
    if matches != [("micro", 0)]:
        raise RuntimeError(f"06.3's data should single out micro precision, got {matches}")
    micro_r = ek.precision_recall_fscore_at_k(bought, shown, k=3, average="micro")[1]
    return "b" if np.isclose(micro_r, 3 * share) else "a"


EX_06_3 = register(Exercise(
    id="06.3",
    prompt="the analyst quotes micro recall@3 as 'the share of suggestion slots that earn a sale'",
    kind="choice",
    choices={
        "a": "nothing is wrong: recall@3 is the top-3 accuracy, the number the top-k report is for",
        "b": "recall@3 divides the sales by the page views; the share of slots divides them by "
             "three slots a page, which is micro precision@3, a third of the number quoted",
        "c": "the analyst should have quoted macro recall@3, which counts each item alike",
        "d": "the analyst should have quoted micro F1@3, which balances the two",
    },
    feedback={
        "a": "the top-3 accuracy answers 'how often was the bought item among the three?', one "
             "question per customer visit; the ad team asks about each suggestion slot, a "
             "different count.",
        "b": "the question divides by slots, three a page: pooled over all items, the sales over "
             "the suggestions made is micro precision@3, and here micro recall@3 is exactly 3 "
             "times it, so the quoted share overstates the slots' earnings threefold.",
        "c": "macro recall weighs a rarely bought item like a best-seller, which the ad team's "
             "question never asks for: its slots are all alike.",
        "d": "F1 mixes two ratios into one; the ad team's question asks for a single ratio, not a "
             "blend.",
    },
    cases=[Case("the report entry that is the share of slots with a sale", {},
                _the_number_that_answers)],
    solution="b",
    kind_of_question="find the bug (transfer)",
    data={"bought, shown": shop},
    hint="Count the slots (three per page view) and the slots whose item was bought. Then compute "
         "ek.precision_recall_fscore_at_k(bought, shown, k=3, average=...) for 'micro' and "
         "'macro': which ratio divides by what was suggested, which by what was bought?",
))


WRONG_ANSWERS = {
    "06.0": ["a", "c"],
    "06.1": [_counting_repeats(SimpleNamespace(bought=BOOKSHOP_BOUGHT, suggested=BOOKSHOP_SUGGESTED,
                                               k=2)),                  # a repeat counted twice
             ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=3,
                                             labels=["crime"])[0][0]],  # all three suggestions
    "06.2": [ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                             average="macro")[2],
             ek.precision_recall_fscore_at_k(BOOKSHOP_BOUGHT, BOOKSHOP_SUGGESTED, k=2,
                                             average="weighted")[2]],
    "06.3": ["a", "c", "d"],
}
