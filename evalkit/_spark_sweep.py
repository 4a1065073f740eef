"""Spark's binary evaluator on evalkit's sweep: its options, its rows, its split, its tables.

What :class:`evalkit.mllib.BinaryClassificationMetrics`, Spark's steps
(:mod:`evalkit.mllib_steps`) and :mod:`evalkit.spark` share:

* :data:`BIN_THRESHOLDS` and :data:`PR_CONVENTIONS` -- the declared values of
  ``bin_threshold`` and ``convention`` (the PR curve's first point, read
  from :data:`evalkit._curves.CONVENTIONS`), and :func:`pr_layout`;
* :func:`sweep_of_rows` -- Spark's ``(score, label[, weight])`` rows validated
  and swept once;
* :func:`range_partition_sizes` -- how ``sortByKey``'s ``RangePartitioner``
  splits the sorted counts when its sample holds every distinct score, and
  :func:`warn_if_sampled`, which says when it does not;
* :func:`count_table` -- Spark's ``(threshold, numPos, numNeg)`` rows.
"""

from __future__ import annotations

import numpy as np

from ._curves import CONVENTIONS
from ._sweep import sweep_of
from ._validation import check_score_and_labels
from .exceptions import warn_at_caller

__all__ = ["BIN_THRESHOLDS", "PR_CONVENTIONS", "pr_layout", "sweep_of_rows",
           "range_partition_sizes", "warn_if_sampled", "count_table"]

#: The score that labels a ``numBins`` chunk (``bin_threshold=``).
BIN_THRESHOLDS = {
    "last": "the chunk's lowest score, Spark 3.0 and later",
    "first": "the chunk's highest score, Spark before SPARK-27577",
}

#: ``convention=`` of the evaluator -> the curve layout of :data:`evalkit._curves.CONVENTIONS`.
_LAYOUTS = {"spark": "spark", "legacy": "spark_legacy"}
#: The point at recall 0 of Spark's PR curve, by Spark version (``_curves``' words).
PR_CONVENTIONS = {name: CONVENTIONS[layout] for name, layout in _LAYOUTS.items()}

#: Keys RangePartitioner samples from each partition of its input: 3 x 20 per partition.
SAMPLED_PER_PARTITION = 60


def pr_layout(convention):
    """The ``_curves`` layout of the evaluator's ``convention``."""
    return _LAYOUTS[convention]


def sweep_of_rows(rows, name, zero_weight="keep"):
    """``(sweep, weighted)``: Spark's rows validated and swept once (every distinct score)."""
    scores, labels, weights = check_score_and_labels(rows, name)
    sweep = sweep_of(labels > 0.5, scores, weights, zero_weight)
    return sweep, weights is not None


def range_partition_sizes(m, num_partitions):
    """How many of ``m`` distinct scores each partition of ``sortByKey(ascending = false)`` holds.

    Spark's ``RangePartitioner`` samples keys and places bounds so that
    every partition holds about the same weight of sample. When the sample
    holds every distinct score once (weight 1 each), its ``determineBounds``
    walks the scores in ascending order and closes a partition at the first
    score where the running weight reaches the next multiple of
    ``m / num_partitions``; a descending sort numbers the partitions from the
    top. Fewer partitions than asked are possible when ``m`` is small.
    """
    step = m / num_partitions
    target = step
    bounds = []
    for i in range(m):   # ascending key index; the running weight is i + 1
        if len(bounds) >= num_partitions - 1:
            break
        if i + 1 >= target:
            bounds.append(i)
            target += step
    sizes = np.diff([-1, *bounds, m - 1])
    return tuple(sizes[::-1].tolist())


def _largest_hash_partition(scores, num_partitions):
    """The most distinct scores one partition of ``combineByKey``'s ``HashPartitioner`` holds.

    The partition of a score is Java's ``Double.hashCode`` -- the two halves
    of its bits XORed -- modulo ``num_partitions`` (made non-negative).
    """
    bits = np.ascontiguousarray(scores, dtype=np.float64).view(np.uint64)
    java_hash = ((bits ^ (bits >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    partition = java_hash.view(np.int32).astype(np.int64) % num_partitions
    return int(np.bincount(partition, minlength=num_partitions).max())


def warn_if_sampled(scores, num_partitions, num_bins, advice):
    """Warn when Spark would not split these distinct scores evenly (binned, on 2+ partitions).

    ``RangePartitioner`` takes up to :data:`SAMPLED_PER_PARTITION` keys from
    each partition of the combined counts (hash-partitioned as
    ``combineByKey`` leaves them, into ``num_partitions``); only when that
    sample holds every distinct score is its split the even one of
    :func:`range_partition_sizes`. Otherwise the split comes from a random
    sample (seeded by the RDD's id) and changes from run to run, and with
    ``numBins`` so do the chunks. ``advice`` says what to pass instead.
    """
    grouped = num_bins > 0 and len(scores) // num_bins >= 2
    if not grouped or num_partitions < 2:
        return
    largest = _largest_hash_partition(scores, num_partitions)
    if largest <= SAMPLED_PER_PARTITION:
        return
    warn_at_caller(
        f"num_partitions={num_partitions} splits the {len(scores)} distinct scores evenly, "
        f"as Spark's RangePartitioner does only when its sample holds every score (at most "
        f"{SAMPLED_PER_PARTITION} in each partition of the combined counts; one holds "
        f"{largest} here): Spark samples them, so its split, and the num_bins={num_bins} "
        f"points and areas it prints, change from run to run. {advice}", UserWarning)


def count_table(sweep, cumulative=False):
    """Spark's ``(threshold, numPos, numNeg)`` rows of a sweep: at each threshold, or cumulative."""
    if cumulative:
        positives, negatives = sweep.tps, sweep.fps
    else:
        positives, negatives = sweep.groups()
    thresholds = np.asarray(sweep.thresholds, dtype=float)
    return np.column_stack((thresholds, positives, negatives)).astype(float)
