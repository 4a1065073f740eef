"""Exercises of notebook 06, the top-k report.

* 06.1 -- write ``recall_at_k(y_true, y_topk, k)``, the micro recall@k:
  the share of rows whose true label is among their first k;
* 06.2 -- write ``class_precision_at_k(y_true, y_topk, k, label)``, the
  precision@k of one class, a row counting once even if it repeats the label;
* 06.3 -- write ``weighted_precision_at_k(y_true, y_topk, k)`` without the
  seed's rounding before averaging.

Every expected value is computed with evalkit.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from . import Case, Exercise, register

__all__ = ["EX_06_1", "EX_06_2", "EX_06_3", "WRONG_ANSWERS", "SEED_Y", "SEED_TOP5"]

#: Seed 002's six-class example: true labels and each row's top 5.
SEED_Y = [0, 5, 0, 3, 4, 2, 1, 1, 5, 4]
SEED_TOP5 = [[0, 0, 2, 1, 5], [2, 2, 4, 1, 4], [4, 5, 1, 3, 5], [5, 4, 2, 4, 3],
             [2, 0, 0, 2, 3], [3, 3, 4, 1, 4], [1, 1, 0, 1, 2], [1, 4, 4, 2, 4],
             [4, 1, 3, 3, 5], [2, 4, 2, 2, 3]]


def _random_ranking(seed, n=120, n_classes=12, m=6):
    """Ranked lists from a noisy score matrix: distinct labels, the true one often high."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    scores = rng.random((n, n_classes))
    scores[np.arange(n), y] += rng.random(n)
    top = ek.top_k_labels(scores, m)
    return y.tolist(), top.tolist()


_RANDOM_Y, _RANDOM_TOP = _random_ranking(6)


def _case(description, y_true, y_topk, k, **extra):
    return (description, {"y_true": list(y_true), "y_topk": [list(r) for r in y_topk],
                          "k": k, **extra})


# --------------------------------------------------------------------------
# 06.1  micro recall@k = top-k accuracy


def _recall_at_k_solution(y_true, y_topk, k):
    return float(np.mean([y in row[:k] for y, row in zip(y_true, y_topk)]))


def _micro_recall(y_true, y_topk, k):
    return ek.precision_recall_fscore_at_k(y_true, y_topk, k=k, average="micro")[1]


EX_06_1 = register(Exercise(
    id="06.1",
    prompt="recall_at_k(y_true, y_topk, k): the share of rows whose label is in their first k",
    kind="function",
    cases=[Case(d, kw, _micro_recall) for d, kw in [
        _case("seed 002, k = 1", SEED_Y, SEED_TOP5, 1),
        _case("seed 002, k = 3", SEED_Y, SEED_TOP5, 3),
        _case("seed 002, k = 5", SEED_Y, SEED_TOP5, 5),
        _case("120 ranked rows, 12 classes, k = 2", _RANDOM_Y, _RANDOM_TOP, 2),
    ]],
    solution=_recall_at_k_solution,
))


# --------------------------------------------------------------------------
# 06.2  precision@k of one class, repeats counted once


def _class_precision_solution(y_true, y_topk, k, label):
    listed = [label in row[:k] for row in y_topk]
    hits = [ok and y == label for ok, y in zip(listed, y_true)]
    return sum(hits) / sum(listed) if sum(listed) else 0.0


def _class_precision(y_true, y_topk, k, label):
    p, _, _, _ = ek.precision_recall_fscore_at_k(y_true, y_topk, k=k, labels=[label])
    return float(p[0])


EX_06_2 = register(Exercise(
    id="06.2",
    prompt="class_precision_at_k(y_true, y_topk, k, label): precision@k of one class",
    kind="function",
    cases=[Case(d, kw, _class_precision) for d, kw in [
        _case("seed 002, class 1, k = 4 (rows repeat it)", SEED_Y, SEED_TOP5, 4, label=1),
        _case("seed 002, class 0, k = 3", SEED_Y, SEED_TOP5, 3, label=0),
        _case("seed 002, class 4, k = 5", SEED_Y, SEED_TOP5, 5, label=4),
        _case("seed 002, class 3, k = 1 (no row lists it)", SEED_Y, SEED_TOP5, 1, label=3),
        _case("120 ranked rows, class 7, k = 3", _RANDOM_Y, _RANDOM_TOP, 3, label=7),
    ]],
    solution=_class_precision_solution,
))


# --------------------------------------------------------------------------
# 06.3  weighted precision@k from unrounded values


def _weighted_solution(y_true, y_topk, k):
    total, n = 0.0, len(y_true)
    for c in set(y_true) | {x for row in y_topk for x in row[:k]}:
        listed = sum(c in row[:k] for row in y_topk)
        hits = sum(c in row[:k] and y == c for y, row in zip(y_true, y_topk))
        support = sum(y == c for y in y_true)
        total += (hits / listed if listed else 0.0) * support
    return total / n


def _weighted(y_true, y_topk, k):
    return ek.precision_recall_fscore_at_k(y_true, y_topk, k=k, average="weighted")[0]


EX_06_3 = register(Exercise(
    id="06.3",
    prompt="weighted_precision_at_k(y_true, y_topk, k): support-weighted precision@k, unrounded",
    kind="function",
    cases=[Case(d, kw, _weighted) for d, kw in [
        _case("seed 002, k = 3", SEED_Y, SEED_TOP5, 3),
        _case("seed 002, k = 5", SEED_Y, SEED_TOP5, 5),
        _case("120 ranked rows, 12 classes, k = 3", _RANDOM_Y, _RANDOM_TOP, 3),
    ]],
    solution=_weighted_solution,
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).

def _macro_recall(y_true, y_topk, k):
    return ek.precision_recall_fscore_at_k(y_true, y_topk, k=k, average="macro")[1]


def _precision_counting_repeats(y_true, y_topk, k, label):
    listed = sum(row[:k].count(label) for row in y_topk)
    hits = sum(row[:k].count(label) for y, row in zip(y_true, y_topk) if y == label)
    return hits / listed if listed else 0.0


def _seed_rounding(y_true, y_topk, k):
    p, _, _, s = ek.precision_recall_fscore_at_k(y_true, y_topk, k=k)
    return round(float(np.sum(np.round(p, 2) * s) / len(y_true)), 2)


WRONG_ANSWERS = {
    "06.1": [_macro_recall],
    "06.2": [_precision_counting_repeats],
    "06.3": [_seed_rounding],
}
