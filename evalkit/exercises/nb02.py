"""Exercises of notebook 02, thresholds the Spark way.

* 02.1 -- read the confusion matrix Spark builds at threshold 0.6 on seed
  000's second data set, as (tp, fp, fn, tn);
* 02.2 -- write ``scan_left(agg)``: Spark's ``partitionwiseCumulativeCounts``
  from the per-partition sums;
* 02.3 -- write ``best_threshold_f1(scores, labels)``: the threshold of the
  highest F1 Spark reports, the highest threshold on a tie (seed 000 takes
  the first row of Spark's descending list).

Every expected value is computed with evalkit (``spark_steps`` and
``BinaryClassificationMetrics``), never typed in.
"""

from __future__ import annotations

import numpy as np

import evalkit as ek

from ..datasets import students_hard_scores, students_soft_scores
from . import Case, Exercise, register

__all__ = ["EX_02_1", "EX_02_2", "EX_02_3", "WRONG_ANSWERS"]

_SEED_SCORES = np.column_stack(students_soft_scores())
_SEED_FIRST = np.column_stack(students_hard_scores())

# --------------------------------------------------------------------------
# 02.1  the confusion matrix at threshold 0.6


def _counts_at(rows, threshold):
    for t, c in ek.BinaryClassificationMetrics(rows).confusions():
        if t == threshold:
            return [c.tp, c.fp, c.fn, c.tn]
    raise ValueError(f"{threshold} is not a threshold")


EX_02_1 = register(Exercise(
    id="02.1",
    prompt="(tp, fp, fn, tn) of Spark's confusion matrix at threshold 0.6, seed 000's second data set",
    kind="value",
    cases=[Case("threshold 0.6: score >= 0.6 is predicted a woman", {},
                lambda: _counts_at(_SEED_SCORES, 0.6))],
    solution=(6, 0, 5, 89),
    hint='at threshold t Spark predicts positive every score >= t; count the women and men on each side',
))


# --------------------------------------------------------------------------
# 02.2  scan_left(agg): the counts before each partition, then the total


def _rows(seed, n, decimals):
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(n), decimals)
    return np.column_stack((s, (rng.random(n) < s).astype(float)))


def _scan_case(description, rows, num_partitions):
    steps = ek.spark_steps(rows, num_partitions=num_partitions)
    return Case(description, {"agg": steps.agg.astype(int).tolist()},
                lambda agg: steps.partitionwise_cumulative_counts)


def _scan_left_solution(agg):
    out = [[0, 0]]
    for pos, neg in agg:
        out.append([out[-1][0] + pos, out[-1][1] + neg])
    return out


EX_02_2 = register(Exercise(
    id="02.2",
    prompt="scan_left(agg): [[0, 0], then the running sums of the per-partition [numPos, numNeg]]",
    kind="function",
    cases=[
        _scan_case("seed 000's data in 2 partitions", _SEED_SCORES, 2),
        _scan_case("seed 000's data in 3 partitions", _SEED_SCORES, 3),
        _scan_case("seed 000's first data set, 1 partition", _SEED_FIRST, 1),
        _scan_case("60 rows with ties in 4 partitions", _rows(1, 60, 1), 4),
        _scan_case("200 rows in 7 partitions", _rows(2, 200, 2), 7),
    ],
    solution=_scan_left_solution,
    hint='scanLeft starts from an empty counter and keeps every running total, the last one included',
))


# --------------------------------------------------------------------------
# 02.3  best_threshold_f1(scores, labels): argmax of fMeasureByThreshold


def _best_f1_threshold(scores, labels):
    f = ek.BinaryClassificationMetrics(np.column_stack((scores, labels))).f_measure_by_threshold()
    return f[np.argmax(f[:, 1]), 0]  # rows run from the highest threshold: the first max wins


def _best_case(description, rows):
    return Case(description, {"scores": rows[:, 0].copy(), "labels": rows[:, 1].copy()},
                _best_f1_threshold)


# F1 = 2/3 both at 0.9 (tp 1, fp 0 of 2 positives) and at 0.5 (tp 2, fp 2): the highest wins
_TIE = np.array([(0.9, 1), (0.6, 0), (0.5, 1), (0.5, 0), (0.1, 0)], dtype=float)


def _best_solution(scores, labels):
    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels) > 0.5
    best_t, best_f = None, -1.0
    for t in sorted(set(scores.tolist()), reverse=True):
        pred = scores >= t
        tp = np.sum(pred & labels)
        p = tp / pred.sum()
        r = tp / labels.sum()
        f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
        if f > best_f:
            best_t, best_f = t, f
    return best_t


EX_02_3 = register(Exercise(
    id="02.3",
    prompt="best_threshold_f1(scores, labels): the threshold of the highest F1, the highest on a tie",
    kind="function",
    cases=[
        _best_case("seed 000's second data set", _SEED_SCORES),
        _best_case("seed 000's first data set", _SEED_FIRST),
        _best_case("a tie between two thresholds", _TIE),
        _best_case("80 rows with ties", _rows(3, 80, 1)),
        _best_case("300 rows", _rows(4, 300, 3)),
    ],
    solution=_best_solution,
    hint='walk the thresholds from the highest down and keep the first one that beats the best F1 so far',
))


# --------------------------------------------------------------------------
# Tempting wrong answers the checker must reject (tests/test_exercises.py).


def _lowest_of_ties(scores, labels):
    f = ek.BinaryClassificationMetrics(np.column_stack((scores, labels))).f_measure_by_threshold()
    last = len(f) - 1 - np.argmax(f[::-1, 1])
    return f[last, 0]


def _best_precision(scores, labels):
    p = ek.BinaryClassificationMetrics(np.column_stack((scores, labels))).precision_by_threshold()
    return p[np.argmax(p[:, 1]), 0]


WRONG_ANSWERS = {
    "02.1": [
        (6, 5, 0, 89),        # fp and fn swapped: the seed's FP1 array read as false positives
        (1, 0, 10, 89),       # the matrix at threshold 1.0
    ],
    "02.2": [
        lambda agg: np.cumsum(agg, axis=0).tolist(),           # no (0, 0) first row
        lambda agg: [[0, 0]] + np.cumsum(agg, axis=0).tolist()[:-1],   # no total at the end
    ],
    "02.3": [
        _lowest_of_ties,      # the last maximum: the lowest threshold on a tie
        _best_precision,      # the best precision instead of F1
    ],
}
