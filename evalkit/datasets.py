"""The seeds' worked examples, in one place, for the notebooks and the tests.

Each function returns fresh numpy arrays (or a :class:`~evalkit.BinaryCounts`)
exactly as the blog post builds them; the docstring says which post and
section.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "students",
    "seed000_table",
    "seed000_spark_first",
    "seed000_spark_scores",
    "seed001_sequences",
    "seed002_three_class",
    "seed002_topk",
    "seed004_macro",
]


def students():
    """Seed 000: a department of 100 students, 90 men and 10 women.

    Returns ``(y_true, y_pred)``: the students' sexes and the lazy model that
    predicts "man" for everyone.

    >>> y_true, y_pred = students()
    >>> int((y_true == "woman").sum()), bool((y_pred == "man").all())
    (10, True)
    """
    y_true = np.array(["man"] * 90 + ["woman"] * 10)
    return y_true, np.full(100, "man")


def seed000_table():
    """Seed 000's adjusted table (women are positive): TP=1, FP=0, FN=10, TN=89.

    Note that TP + FN = 11 actual positives, not the story's 10 women.

    >>> seed000_table()
    BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    """
    from .binary import BinaryCounts

    return BinaryCounts(tp=1, fp=0, fn=10, tn=89)


def seed000_spark_first():
    """Seed 000's first Spark input, as (score, label) pairs in the seed's order.

    ``TP ++ TN ++ FP``: one (1.0, 1.0), 89 times (0.0, 0.0) and 10 times
    (0.0, 1.0) -- the array the seed calls ``FP`` holds false negatives.

    Returns ``(scores, labels)`` as float arrays.

    >>> s, y = seed000_spark_first()
    >>> len(s), int(y.sum())
    (100, 11)
    """
    scores = np.r_[1.0, np.zeros(89), np.zeros(10)]
    labels = np.r_[1.0, np.zeros(89), np.ones(10)]
    return scores, labels


def seed000_spark_scores():
    """Seed 000's second Spark input: its 10 missed women now scored 0.6 (5) and 0.4 (5).

    ``TP ++ TN ++ FP1 ++ FP2`` = (1.0, 1) once, (0.0, 0) 89 times, (0.6, 1)
    5 times, (0.4, 1) 5 times, in that order (``sc.parallelize(all, 2)``
    splits it into the first and second 50).

    Returns ``(scores, labels)`` as float arrays.

    >>> s, y = seed000_spark_scores()
    >>> sorted(set(s.tolist())), int(y.sum())
    ([0.0, 0.4, 0.6, 1.0], 11)
    """
    scores = np.r_[1.0, np.zeros(89), np.full(5, 0.6), np.full(5, 0.4)]
    labels = np.r_[1.0, np.zeros(89), np.ones(5), np.ones(5)]
    return scores, labels


def seed001_sequences():
    """Seed 001's six impressions, two clicked, and its three score sequences.

    Returns ``(y_true, sequences)``: ``y_true = [1, 0, 1, 0, 0, 0]`` (sample
    i+1 clicked or not) and a dict of the three probability sequences, whose
    ROC areas the seed gives as 1.0, 0.875 and 0.0.

    >>> y, seqs = seed001_sequences()
    >>> y.tolist(), seqs["sequence 2"].tolist()
    ([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    """
    y_true = np.array([1, 0, 1, 0, 0, 0])
    sequences = {
        "sequence 1": np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4]),
        "sequence 2": np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4]),
        "sequence 3": np.array([0.4, 0.6, 0.5, 0.7, 0.8, 0.9]),
    }
    return y_true, sequences


def seed002_three_class():
    """Seed 002's classification_report example: ``(y_true, y_pred)``.

    >>> seed002_three_class()
    (array([0, 1, 2, 2, 0]), array([1, 0, 2, 1, 1]))
    """
    return np.array([0, 1, 2, 2, 0]), np.array([1, 0, 2, 1, 1])


def seed002_topk():
    """Seed 002's six-class top-5 example: ``(y_true, y_top5)``, most likely first.

    >>> y, top5 = seed002_topk()
    >>> y.shape, top5.shape
    ((10,), (10, 5))
    """
    y_true = np.array([0, 5, 0, 3, 4, 2, 1, 1, 5, 4])
    y_top5 = np.array([
        [0, 0, 2, 1, 5],
        [2, 2, 4, 1, 4],
        [4, 5, 1, 3, 5],
        [5, 4, 2, 4, 3],
        [2, 0, 0, 2, 3],
        [3, 3, 4, 1, 4],
        [1, 1, 0, 1, 2],
        [1, 4, 4, 2, 4],
        [4, 1, 3, 3, 5],
        [2, 4, 2, 2, 3],
    ])
    return y_true, y_top5


def seed004_macro():
    """Seed-004-style data where the two macro-F1 definitions differ: ``(y_true, y_pred)``.

    >>> seed004_macro()
    (array([0, 0, 0, 1, 1, 2]), array([0, 0, 1, 1, 2, 2]))
    """
    return np.array([0, 0, 0, 1, 1, 2]), np.array([0, 0, 1, 1, 2, 2])
