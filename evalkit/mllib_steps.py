"""Spark MLlib's ``BinaryClassificationMetrics`` step by step, printed as Spark prints it.

Spark gets its confusion matrices in five steps on an RDD of ``(score,
label)`` rows (see :mod:`evalkit.mllib`): ``combineByKey`` (counts per
distinct score), ``sortByKey(ascending = false)`` (range-partitioned;
``numBins`` chunks cut within each partition), ``mapPartitions`` (a sum per
partition), ``scanLeft`` (the counts before each partition) and
``mapPartitionsWithIndex`` (running sums from each partition's offset).

* :func:`spark_steps` replays them on a given partitioning and returns every
  intermediate value (:class:`SparkSteps`), and why ``numBins`` depends on
  the partitioning;
* :meth:`SparkSteps.lines` prints each step as ``rdd.collect().foreach(println)``
  does, and :func:`spark_format` a number or a tuple as Scala prints it
  (Java 17's ``Double.toString``: :mod:`evalkit._java`).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._binary import BinaryCounts
from ._java import double_to_string
from ._spark_sweep import (BIN_THRESHOLDS, PR_CONVENTIONS, count_table, range_partition_sizes,
                           sweep_of_rows, warn_if_sampled)
from ._sweep import Sweep
from ._validation import NUM_BINS, InstanceOf, Integer, Options, check, validate_params
from .mllib import BinaryClassificationMetrics

__all__ = ["SparkSteps", "spark_steps", "spark_format"]


# -- printing as Spark prints ----------------------------------------------------


def _format(value):
    """:func:`spark_format` of a value already checked."""
    if isinstance(value, (tuple, list, np.ndarray)):
        parts = [_format(v) for v in value]
        return "(" + ",".join(parts) + ")"
    if isinstance(value, (bool, np.bool_)):
        if value:
            return "true"
        return "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return double_to_string(float(value))


_NUMBERS = InstanceOf((numbers.Real, np.bool_, tuple, list, np.ndarray),
                      "a number or a sequence of numbers")


@validate_params(value=_NUMBERS)
def spark_format(value: float | tuple | list | np.ndarray) -> str:
    """Format a number, or a tuple / row of numbers, as Spark prints it.

    Spark prints Scala values with ``toString``: a float as Java's
    ``Double.toString`` -- digits that identify the double, ``1.0E-4``
    below 10⁻³ and ``1.0E7`` from 10⁷ on, always a digit after the point --
    an integer (a ``Long``) plainly, and a tuple as ``(a,b)``, no space after
    the comma. The digits are those of Java 17, the Java Spark runs on here
    (and the oldest Spark 4 supports): usually the shortest that round-trip,
    as Python's ``repr``, but Java 17 prints at least two digits in E-form
    and now and then one digit more or differently rounded
    (``Double.MIN_VALUE`` is ``4.9E-324``, 2 x MIN_VALUE ``1.0E-323``, 1e23
    ``9.999999999999999E22``). Java 19 and later print the shortest digits
    everywhere (2 x MIN_VALUE as ``9.9E-324``, 1e23 as ``1.0E23``; JDK-4511638).

    Parameters
    ----------
    value : float, int, bool or sequence of them
        A number, or a tuple, list or 1-D array (a curve's row).

    Returns
    -------
    str

    Examples
    --------
    >>> spark_format((1.0, 0.09090909090909091))
    '(1.0,0.09090909090909091)'
    >>> spark_format(0.0001), spark_format(12345678.0), spark_format(89)
    ('1.0E-4', '1.2345678E7', '89')
    >>> spark_format(5e-324), spark_format(1e-323)
    ('4.9E-324', '1.0E-323')
    """
    return _format(value)


def _counter(positives, negatives, integral):
    """``BinaryLabelCounter.toString``: {numPos: 6, numNeg: 0} (the Spark post; 1.6: Longs)."""
    if integral:
        positives_text = str(int(round(positives)))
        negatives_text = str(int(round(negatives)))
    else:
        positives_text = _format(positives)
        negatives_text = _format(negatives)
    return f"{{numPos: {positives_text}, numNeg: {negatives_text}}}"


# -- Spark's computation, step by step -------------------------------------------

STEPS = ("counts", "binned_counts", "agg", "partitionwise_cumulative_counts",
         "total_count", "cumulative_counts", "confusions")


@dataclass(frozen=True, eq=False)
class SparkSteps:
    """The intermediate values of Spark's ``BinaryClassificationMetrics``, partition by partition.

    Returned by :func:`spark_steps`. Arrays hold one row per point, highest
    score first; counts are numbers of rows (sums of weights when weighted).

    Attributes
    ----------
    counts : ndarray of shape (m, 3)
        ``(score, numPos, numNeg)`` per distinct score: ``combineByKey`` then
        ``sortByKey(ascending = false)``.
    partition_sizes : tuple of int
        How many of those rows each partition of the sorted RDD holds.
    binned_counts : ndarray of shape (k, 3)
        ``(threshold, numPos, numNeg)`` after ``numBins`` grouping within each
        partition (the same as ``counts`` when nothing is grouped).
    partition_index : ndarray of shape (k,)
        The partition of each row of ``binned_counts``.
    agg : ndarray of shape (P, 2)
        ``(numPos, numNeg)`` summed over each partition (``mapPartitions``).
    partitionwise_cumulative_counts : ndarray of shape (P + 1, 2)
        ``agg.scanLeft((0, 0))(_ + _)``: the counts before each partition; the
        last row is the total.
    cumulative_counts : ndarray of shape (k, 3)
        ``(threshold, TP, FP)``: running sums within each partition, started
        at its offset (``mapPartitionsWithIndex``).
    num_bins, bin_threshold, weighted
        How the steps were made.
    """

    counts: np.ndarray
    partition_sizes: tuple
    binned_counts: np.ndarray
    partition_index: np.ndarray
    agg: np.ndarray
    partitionwise_cumulative_counts: np.ndarray
    cumulative_counts: np.ndarray
    num_bins: int
    bin_threshold: str
    weighted: bool

    STEPS = STEPS

    @property
    def total_count(self) -> np.ndarray:
        """``(numPos, numNeg)`` of all rows: the last ``partitionwise_cumulative_counts``."""
        return self.partitionwise_cumulative_counts[-1]

    def _sweep(self):
        """The cumulative counts as a :class:`~evalkit._sweep.Sweep` (ints when unweighted)."""
        if self.weighted:
            cast = float
        else:
            cast = int
        cumulative = self.cumulative_counts
        n_pos, n_neg = self.total_count
        return Sweep(cumulative[:, 0].copy(), cumulative[:, 1].astype(cast),
                     cumulative[:, 2].astype(cast), cast(n_pos), cast(n_neg))

    def _metrics(self, convention):
        return BinaryClassificationMetrics._of_sweep(
            self._sweep(),
            num_bins=self.num_bins,
            bin_threshold=self.bin_threshold,
            convention=convention,
            num_partitions=len(self.partition_sizes),
            zero_weight="keep",
        )

    def confusions(self) -> list[tuple[float, BinaryCounts]]:
        """``(threshold, BinaryCounts)`` per row: ``BinaryConfusionMatrixImpl(cumulative,
        total)``."""
        return self._metrics("spark").confusions()

    @validate_params(convention=Options(PR_CONVENTIONS))
    def metrics(self, *, convention: str = "spark") -> BinaryClassificationMetrics:
        """A :class:`BinaryClassificationMetrics` over these cumulative counts (this
        partitioning)."""
        return self._metrics(convention)

    @validate_params(step=Options(STEPS))
    def lines(self, step: str) -> list[str]:
        """The lines Spark prints for ``step`` (``rdd.collect().foreach(println)``), as strings.

        ``step`` is one of ``SparkSteps.STEPS``: "counts", "binned_counts",
        "agg", "partitionwise_cumulative_counts", "total_count",
        "cumulative_counts", "confusions". Counts print as the Spark post's
        Spark 1.6 prints its ``Long`` counters, ``{numPos: 6, numNeg: 0}``.
        """
        integral = not self.weighted
        if step in ("counts", "binned_counts", "cumulative_counts"):
            rows = getattr(self, step)
            return [f"({_format(s)},{_counter(p, n, integral)})" for s, p, n in rows]
        if step in ("agg", "partitionwise_cumulative_counts"):
            return [_counter(p, n, integral) for p, n in getattr(self, step)]
        total = _counter(*self.total_count, integral)
        if step == "total_count":
            return [f"Total counts: {total}"]
        lines = []
        for s, p, n in self.cumulative_counts:   # "confusions"
            matrix = f"BinaryConfusionMatrixImpl({_counter(p, n, integral)},{total})"
            lines.append(f"({_format(s)},{matrix})")
        return lines


_SIZES = InstanceOf((list, tuple, np.ndarray), "a list of integers")
_SIZE = Integer(0, meaning="numbers of distinct scores")
_SPARKS_SPLIT = ("Give Spark's own split as partition_sizes=: the distinct scores in each "
                 "partition of its sorted counts.")


def _checked_sizes(partition_sizes, m):
    """``partition_sizes`` as a tuple of ints that add up to the ``m`` distinct scores."""
    sizes = tuple(int(check(s, _SIZE, "partition_sizes")) for s in partition_sizes)
    if not sizes or sum(sizes) != m:
        raise ValueError(f"partition_sizes must add up to the {m} distinct scores; "
                         f"got {list(sizes)} (sum {sum(sizes)})")
    return sizes


@validate_params(num_partitions=Integer(1, meaning="the partitions of the sorted counts"),
                 partition_sizes=[None, _SIZES],
                 num_bins=NUM_BINS, bin_threshold=Options(BIN_THRESHOLDS))
def spark_steps(score_and_labels: ArrayLike, num_partitions: int = 2, *,
                partition_sizes: list[int] | None = None, num_bins: int = 0,
                bin_threshold: str = "last") -> SparkSteps:
    """Replay Spark's ``BinaryClassificationMetrics`` step by step on a given partitioning.

    The binned counts (positives and negatives per distinct score, highest
    first) are split into contiguous partitions, as ``sortByKey`` leaves
    them; then, as Spark does:

    * ``numBins`` grouping, within each partition: chunks of
      ``g = floor(m / num_bins)`` rows (``m`` distinct scores in all), the last
      chunk of a partition possibly smaller; only when ``g >= 2``;
    * ``agg[p]`` = Σ counts in partition ``p``;
    * ``partitionwise_cumulative_counts`` = (0, 0), agg[0], agg[0] + agg[1], ...
      (``scanLeft``), the last being the total (P, N);
    * ``cumulative_counts`` = partitionwise_cumulative_counts[p] + the running
      sum within partition ``p``: ``(threshold, TP, FP)``;
    * one confusion matrix per row: TP, FP, FN = P - TP, TN = N - FP.

    Without binning the cumulative counts do not depend on the partitioning;
    with binning the chunks restart at every partition boundary, so the kept
    points do. Weighted counts are added in numpy's order, not Spark's: they
    agree with Spark's to 1e-12, not to the last bit.

    Parameters
    ----------
    score_and_labels : array-like of shape (n, 2) or (n, 3)
        As for :class:`BinaryClassificationMetrics`.
    num_partitions : int, default 2
        Partitions of the sorted counts, split evenly, as Spark's
        ``RangePartitioner`` splits them when its sample holds every distinct
        score. Spark samples up to 60 keys from each partition of the combined
        counts (``combineByKey`` hash-partitions the distinct scores into
        ``num_partitions``); when one holds more, Spark's split comes from a
        random sample (seeded by the RDD's id) and changes from run to run.
        With ``num_bins`` grouping on 2 or more partitions that is a
        ``UserWarning`` (the points may not be Spark's): give Spark's split as
        ``partition_sizes``. On the Spark post's data the first of 2
        partitions gets the scores 1.0 and 0.6.
    partition_sizes : sequence of int, optional
        The number of distinct scores in each partition, highest scores
        first, instead of ``num_partitions`` (they must add up to ``m``):
        Spark's own split (``thresholds().toJavaRDD().glom()`` of Spark's
        binned evaluator holds each partition's chunks, the last labelled by
        the partition's lowest score).
    num_bins : int, default 0
        Spark's ``numBins`` (0: no grouping).
    bin_threshold : {"last", "first"}, default "last"
        The score that labels a chunk, as in :class:`BinaryClassificationMetrics`.

    Returns
    -------
    SparkSteps

    Warns
    -----
    UserWarning
        ``num_partitions`` (2 or more) with ``num_bins`` grouping, where Spark
        would sample its split (see ``num_partitions``).

    Examples
    --------
    The Spark post's second data set in 2 partitions: one woman scored 1.0,
    five 0.6, five 0.4, and 89 men 0.0.

    >>> rows = [(1.0, 1)] + [(0.6, 1)] * 5 + [(0.4, 1)] * 5 + [(0.0, 0)] * 89
    >>> steps = spark_steps(rows, num_partitions=2)
    >>> steps.partition_sizes
    (2, 2)
    >>> print("\\n".join(steps.lines("agg")))
    {numPos: 6, numNeg: 0}
    {numPos: 5, numNeg: 89}
    >>> print("\\n".join(steps.lines("partitionwise_cumulative_counts")))
    {numPos: 0, numNeg: 0}
    {numPos: 6, numNeg: 0}
    {numPos: 11, numNeg: 89}
    >>> print("\\n".join(steps.lines("cumulative_counts")))
    (1.0,{numPos: 1, numNeg: 0})
    (0.6,{numPos: 6, numNeg: 0})
    (0.4,{numPos: 11, numNeg: 0})
    (0.0,{numPos: 11, numNeg: 89})
    """
    sweep, weighted = sweep_of_rows(score_and_labels, "score_and_labels")
    m = len(sweep)
    if partition_sizes is None:
        sizes = range_partition_sizes(m, num_partitions)
        warn_if_sampled(sweep.thresholds, num_partitions, num_bins, _SPARKS_SPLIT)
    else:
        sizes = _checked_sizes(partition_sizes, m)
    binned, partition = sweep.chunked(num_bins, bin_threshold, sizes)
    # the offsets: cumulative counts at each partition's start (scanLeft), the total last
    rows_per_partition = np.bincount(partition, minlength=len(sizes))
    ends = np.r_[0, np.cumsum(rows_per_partition)]
    scan = np.column_stack((np.r_[0, binned.tps][ends], np.r_[0, binned.fps][ends]))
    return SparkSteps(
        counts=count_table(sweep),
        partition_sizes=sizes,
        binned_counts=count_table(binned),
        partition_index=partition,
        agg=np.diff(scan, axis=0).astype(float),
        partitionwise_cumulative_counts=scan.astype(float),
        cumulative_counts=count_table(binned, cumulative=True),
        num_bins=num_bins,
        bin_threshold=bin_threshold,
        weighted=weighted,
    )
