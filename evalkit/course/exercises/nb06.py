"""Exercises of notebook 06, the top-k report.

* 06.0 -- check (in the body, after section 2): as k grows, which of
  precision@k and recall@k of a class can fall; a choice;
* 06.1 -- transfer: write ``prior_top_k_accuracy(class_sizes, k)``, the
  top-k accuracy of section 6's prior baseline (the k most frequent classes
  for every row) when the classes are *not* equally frequent, where the
  digits' "about k in 10" no longer holds;
* 06.2 -- judgement: a recommender that shows three suggestions against one
  that shows five: precision@3 of one against precision@5 of the other, or
  recall@5 against recall@3, compare list lengths as much as rankings;
  compare at the same k; a choice;
* 06.3 -- find the bug, the notebook's lesson turned round: the ad team asks
  what share of the suggestion slots earns a sale, and an analyst quotes
  micro recall@3, the top-3 accuracy the notebook recommends for "how often
  was the bought item among the three" (the share of slots is micro
  precision@3); a choice, every option explained.

Every expected value is computed with evalkit, never typed in.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from ..exercise_data import shop, two_recommenders
from . import Case, Exercise, register

__all__ = ["EX_06_0", "EX_06_1", "EX_06_2", "EX_06_3", "WRONG_ANSWERS", "shop",
           "two_recommenders"]


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
    kind_of_question="check",
    data=GROWING_K,
    hint="For a class c, which of tp_c, predicted_c and support_c change when k grows, and in "
         "which direction?",
))


# --------------------------------------------------------------------------
# 06.1  the top-k accuracy of the prior baseline, classes of any sizes


def _prior_top_k_reference(class_sizes, k):
    """Every row scored with the classes' shares (the prior baseline), then the top-k accuracy."""
    sizes = np.asarray(class_sizes)
    y = np.repeat(np.arange(len(sizes)), sizes)
    shares = np.tile(sizes / sizes.sum(), (len(y), 1))
    return ek.top_k_accuracy_score(y, shares, k=k, labels=np.arange(len(sizes)))


def _prior_case(description, class_sizes, k):
    return Case(description, {"class_sizes": list(class_sizes), "k": k},
                lambda class_sizes, k: _prior_top_k_reference(class_sizes, k))


def _new_ticket_mixes(rng):
    """Two more cases: 3 to 8 classes of sizes drawn for this variant, k below their number."""
    cases = []
    for description in ("class sizes drawn for you", "more class sizes drawn for you"):
        sizes = rng.integers(1, 300, int(rng.integers(3, 9)))
        cases.append(_prior_case(description, sizes.tolist(), int(rng.integers(1, len(sizes)))))
    return cases


EX_06_1 = register(Exercise(
    id="06.1",
    prompt="prior_top_k_accuracy(class_sizes, k): the top-k accuracy of the prior baseline, "
           "which lists the same k classes for every row",
    kind="function",
    cases=[
        _prior_case("ten digits of 90 each, k = 3", [90] * 10, 3),
        _prior_case("tickets: 500 billing, 300 tech, 120 sales, 80 legal; k = 1",
                    [500, 300, 120, 80], 1),
        _prior_case("the same tickets, k = 2", [500, 300, 120, 80], 2),
        _prior_case("five classes in no order, k = 3", [15, 40, 5, 30, 10], 3),
        _prior_case("a tie for the second place, k = 2", [50, 30, 30, 10], 2),
    ],
    variant=_new_ticket_mixes,
    solution=lambda class_sizes, k: sum(sorted(class_sizes, reverse=True)[:k]) / sum(class_sizes),
    kind_of_question="transfer",
    data={"tickets": [500, 300, 120, 80], "k": 2},
    hint="The baseline gives every row the same scores, the classes' shares, so its top k are "
         "the same k classes for every row: which ones? A row is a hit when its own class is "
         "among them.",
))


# --------------------------------------------------------------------------
# 06.2  three suggestions against five: which comparison is fair?


def _at(bought, lists, k):
    """Micro precision@k and recall@k of ranked lists (the first k of each row)."""
    p, r, _, _ = ek.precision_recall_fscore_at_k(bought, lists, k=k, average="micro")
    return p, r


def _compare_at_the_same_k():
    """A's precision@3 beats B's precision@5 and B's recall@5 beats A's recall@3, but at k = 3
    B leads on both: the option that compares at the same k."""
    bought, top3_a, top5_b = two_recommenders()
    p_a, r_a = _at(bought, top3_a, 3)
    p_b5, r_b5 = _at(bought, top5_b, 5)
    p_b3, r_b3 = _at(bought, top5_b, 3)
    f_a = ek.precision_recall_fscore_at_k(bought, top3_a, k=3, average="micro")[2]
    f_b5 = ek.precision_recall_fscore_at_k(bought, top5_b, k=5, average="micro")[2]
    if p_a > p_b5 and r_b5 > r_a and f_a > f_b5 and p_b3 > p_a and r_b3 > r_a:
        return "c"
    raise AssertionError("06.2's lists no longer make the same-k option the one that holds")


EX_06_2 = register(Exercise(
    id="06.2",
    prompt="model A shows three suggestions, model B five: which comparison of the two is fair?",
    kind="choice",
    choices={
        "a": "A is better: its precision@3 is above B's precision@5",
        "b": "B is better: its recall@5 is above A's recall@3",
        "c": "compare both at k = 3, B's first three suggestions against A's three: there B "
             "leads on precision@3 and on recall@3",
        "d": "A is better: F1@k weighs precision and recall together, and A's F1@3 is above "
             "B's F1@5",
    },
    feedback={
        "a": "precision@k of any model tends to fall as k grows: five slots hold more misses "
             "than three for the same one purchase per customer, so a list of five is held to a "
             "lower precision whatever its ranking.",
        "b": "recall@k can only stay or rise as k grows: two more slots find more purchases for "
             "any model, so a list of five wins recall by its length alone.",
        "c": "B's top three are the first three of its five, so at k = 3 both are judged on three "
             "slots: B finds more purchases there, and with one purchase per customer that "
             "raises its precision@3 too. Whether to show five is a question for the shop, not "
             "for the ranking.",
        "d": "F1@k moves with k as both its parts do, so F1 of a list of three beside F1 of a list "
             "of five mixes the rankings with the list lengths.",
    },
    cases=[Case("A's three suggestions against B's five", {}, _compare_at_the_same_k)],
    solution="c",
    kind_of_question="judgement",
    data={"bought, top3_a, top5_b": two_recommenders},
    hint="Compute ek.precision_recall_fscore_at_k(bought, lists, k=..., average='micro') for A "
         "at k = 3 and for B at k = 5, then for B at k = 3 (its first three). What does making "
         "a list longer do to precision@k and recall@k of any model (section 5)?",
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
    kind_of_question="find the bug",
    data={"bought, shown": shop},
    hint="Count the slots (three per page view) and the slots whose item was bought. Then compute "
         "ek.precision_recall_fscore_at_k(bought, shown, k=3, average=...) for 'micro' and "
         "'macro': which ratio divides by what was suggested, which by what was bought?",
))


WRONG_ANSWERS = {
    "06.0": ["a", "c"],
    "06.1": [lambda class_sizes, k: k / len(class_sizes),           # "about k in C": equal classes
             lambda class_sizes, k: max(class_sizes) / sum(class_sizes),   # k left out
             lambda class_sizes, k: sum(class_sizes[:k]) / sum(class_sizes)],  # the first k listed
    "06.2": ["a", "b", "d"],
    "06.3": ["a", "c", "d"],
}
