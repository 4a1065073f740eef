"""Spark MLlib's ``BinaryClassificationMetrics`` on numpy, and the steps behind it.

Spark evaluates a scorer "by threshold" (按阈值): every distinct score ``t``
is a threshold, the rows scored ``>= t`` are predicted positive, and one
2 x 2 confusion matrix per threshold gives precision, recall and F there.
Spark gets the matrices in five steps on an RDD of ``(score, label)`` rows:

1. ``combineByKey`` -- count positives and negatives per distinct score
   (a label > 0.5 is positive): the binned counts;
2. ``sortByKey(ascending = false)`` -- highest score first, range-partitioned;
   with ``numBins > 0``, consecutive scores are then grouped into chunks,
   within each partition;
3. ``mapPartitions`` -- the sum of each partition (``agg``);
4. ``scanLeft`` -- the counts before each partition
   (``partitionwiseCumulativeCounts``), the last one the total;
5. ``mapPartitionsWithIndex`` -- running sums within each partition, started
   at its offset: the cumulative counts, i.e. TP and FP at each threshold;
   ``BinaryConfusionMatrixImpl(cumulative, total)`` is the matrix.

:class:`BinaryClassificationMetrics` reads the same numbers off evalkit's one
threshold sweep (the cumulative counts *are* the sweep's ``tps`` and ``fps``)
and applies Spark's ratios (``zero_division="spark"``). :func:`spark_steps`
replays steps 1-5 for a given partitioning, to show every intermediate value
-- and why ``numBins`` depends on the partitioning. :func:`spark_format`
prints numbers and tuples as Spark (Scala) prints them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np

from ._curves import PR_FIRST_POINTS, pr_points, roc_points, trapezoid
from ._sweep import ZERO_WEIGHTS, Sweep, combine_by_key, sequential_sums, threshold_sweep
from ._validation import check_beta, check_choice, check_integer, check_score_and_labels

__all__ = ["BinaryClassificationMetrics", "SparkSteps", "spark_steps", "spark_format"]

BIN_THRESHOLDS = {
    "last": "the chunk's lowest score, Spark 3.0 and later",
    "first": "the chunk's highest score, Spark before SPARK-27577",
}


# -- printing as Spark prints ----------------------------------------------------


def _two_digits(x):
    """The two-digit decimal closest to ``x``'s exact value, if it rounds back to ``x``."""
    exact = Decimal(x)
    shift = exact.adjusted() - 1  # 10**shift is the unit of the second digit
    n = int((exact.scaleb(-shift)).to_integral_value(rounding=ROUND_HALF_EVEN))
    candidate = Decimal(n).scaleb(shift)
    return candidate.as_tuple() if float(candidate) == x else None


def _java_double(x):
    """Java's ``Double.toString``: shortest digits; plain for 1e-3 <= |x| < 1e7, else d.dddE±n."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    t = Decimal(repr(abs(x))).as_tuple()  # repr: the shortest digits that round-trip
    if len(t.digits) == 1:
        # Java prints at least two digits, and of the two-digit decimals that round to x
        # it takes the closest to x's exact value: Double.MIN_VALUE is 4.9E-324, not 5.0E-324
        t = _two_digits(abs(x)) or t
    digits = "".join(map(str, t.digits)).rstrip("0")
    exp10 = len("".join(map(str, t.digits))) + t.exponent - 1  # position of the first digit
    digits = digits.lstrip("0") or "0"
    if 1e-3 <= abs(x) < 1e7:
        if exp10 >= 0:
            whole = digits[: exp10 + 1].ljust(exp10 + 1, "0")
            frac = digits[exp10 + 1:] or "0"
            return f"{sign}{whole}.{frac}"
        return f"{sign}0.{'0' * (-exp10 - 1)}{digits}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exp10}"


def spark_format(value):
    """Format a number, or a tuple / row of numbers, as Spark prints it.

    Spark prints Scala values with ``toString``: a float as Java's
    ``Double.toString`` (the shortest digits that identify the double, like
    Python's ``repr``, but ``1.0E-4`` below 10⁻³ and ``1.0E7`` from 10⁷ on,
    and always a digit after the point), an integer (a ``Long``) plainly, and
    a tuple as ``(a,b)`` -- no space after the comma. Java prints at least
    two significant digits: where the shortest has one, it takes the
    two-digit decimal closest to the double's exact value, so
    ``Double.MIN_VALUE`` (5e-324) prints ``4.9E-324``. Java 17 and older
    occasionally print one digit more than the shortest (1e23 as
    ``9.999999999999999E22``, 2 x MIN_VALUE as ``1.0E-323``); Java 19 and
    later follow the rule above everywhere, as this does.

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
    >>> spark_format(5e-324)
    '4.9E-324'
    """
    if isinstance(value, (tuple, list, np.ndarray)):
        return "(" + ",".join(spark_format(v) for v in value) + ")"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"value must be a number or a sequence of numbers, got {value!r}") from None
    return _java_double(x)


def _counter(pos, neg, integral):
    """``BinaryLabelCounter.toString``: {numPos: 6, numNeg: 0} (the Spark post, Spark 1.6: Longs)."""
    f = (lambda v: str(int(round(v)))) if integral else spark_format
    return f"{{numPos: {f(pos)}, numNeg: {f(neg)}}}"


# -- Spark's order of operations -------------------------------------------------

def _range_partition_sizes(m, num_partitions):
    """How many of ``m`` distinct scores each partition of ``sortByKey(ascending = false)`` holds.

    Spark's ``RangePartitioner`` samples keys and places bounds so that
    every partition holds about the same weight of sample. When the sample
    holds every distinct score once (weight 1 each), its ``determineBounds``
    walks the scores in ascending order and closes a partition at the first
    score where the running weight reaches the next multiple of
    ``m / num_partitions``; a descending sort numbers the partitions from the
    top. Fewer partitions than asked are possible when ``m`` is small.
    """
    if num_partitions <= 1:
        return (m,)
    step = m / num_partitions
    cum, target, bounds = 0.0, step, []
    for i in range(m):  # ascending key index
        if len(bounds) >= num_partitions - 1:
            break
        cum += 1.0
        if cum >= target:
            bounds.append(i)
            target += step
    edges = [-1, *bounds, m - 1]
    ascending = [edges[j + 1] - edges[j] for j in range(len(edges) - 1)]
    return tuple(reversed(ascending))


def _replay(scores, pos, weights, *, sizes, input_partitions, num_bins, bin_threshold):
    """Spark's steps 1-5 on numpy, in Spark's order of operations: a dict of every stage.

    ``sizes``: distinct scores per partition of the sorted RDD (None: Spark's
    split into ``input_partitions`` range partitions).
    """
    keys, num_pos, num_neg = combine_by_key(scores, pos, weights, input_partitions)
    m = len(keys)
    if sizes is None:
        sizes = _range_partition_sizes(m, input_partitions)
    bounds = np.cumsum((0,) + tuple(sizes))
    grouping = m // num_bins if num_bins else 0

    # numBins: chunks of `grouping` rows within each partition, summed from 0.0 in order
    starts, labels, part_of = [], [], []
    for p in range(len(sizes)):
        a, b = int(bounds[p]), int(bounds[p + 1])
        if a == b:
            continue
        if grouping >= 2:
            first = np.arange(a, b, grouping)
            last = np.minimum(first + grouping, b) - 1
        else:
            first = last = np.arange(a, b)
        starts.append(first)
        labels.append(keys[last] if bin_threshold == "last" else keys[first])
        part_of.append(np.full(len(first), p))
    starts, labels = np.concatenate(starts), np.concatenate(labels)
    partition_index = np.concatenate(part_of)
    if grouping >= 2:
        bin_pos, bin_neg = sequential_sums(num_pos, starts), sequential_sums(num_neg, starts)
        if weights is None:
            bin_pos, bin_neg = bin_pos.astype(np.int64), bin_neg.astype(np.int64)
    else:
        bin_pos, bin_neg = num_pos, num_neg

    # mapPartitions: one counter per partition; scanLeft: the offsets; then running sums
    parts = np.flatnonzero(np.diff(bounds) > 0)
    rows = np.bincount(partition_index, minlength=len(sizes))
    firsts = np.r_[0, np.cumsum(rows)[:-1]]
    zero = 0 if weights is None else 0.0
    agg = np.zeros((len(sizes), 2), dtype=bin_pos.dtype)
    tps, fps = np.empty_like(bin_pos), np.empty_like(bin_neg)
    for p in parts:
        sl = slice(int(firsts[p]), int(firsts[p] + rows[p]))
        agg[p] = np.cumsum(bin_pos[sl])[-1] + zero, np.cumsum(bin_neg[sl])[-1] + zero
    scan = np.zeros((len(sizes) + 1, 2), dtype=agg.dtype)
    np.cumsum(agg, axis=0, out=scan[1:])
    for p in parts:
        sl = slice(int(firsts[p]), int(firsts[p] + rows[p]))
        tps[sl] = np.cumsum(np.r_[scan[p, 0], bin_pos[sl]])[1:]
        fps[sl] = np.cumsum(np.r_[scan[p, 1], bin_neg[sl]])[1:]
    return {
        "counts": (keys, num_pos, num_neg), "sizes": tuple(int(v) for v in sizes),
        "binned": (labels, bin_pos, bin_neg), "partition_index": partition_index,
        "agg": agg, "scan": scan, "tps": tps, "fps": fps, "rows": tuple(int(v) for v in rows),
    }


def _spark_f_measure(precision, recall, beta):
    """Spark's ``FMeasure``: (1 + β²)·(P·R) / (β²·P + R) from Spark's P and R; 0.0 when P + R = 0."""
    b2 = beta * beta
    if np.isinf(b2):
        return np.asarray(recall, dtype=float)
    den = b2 * precision + recall
    zero = den == 0  # P + R = 0 (and, for beta = 0, R = 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (1.0 + b2) * (precision * recall) / np.where(zero, 1.0, den)
    return np.where(zero, 0.0, out)


# -- the evaluator ---------------------------------------------------------------


class BinaryClassificationMetrics:
    """Spark MLlib's evaluator for a binary scorer, on ``(score, label[, weight])`` rows.

    Every distinct score ``t`` (highest first) is a threshold: rows scored
    ``>= t`` are predicted positive. ``TP(t)`` and ``FP(t)`` count the positive
    and negative rows scored ``>= t`` (sums of weights with a weight column),
    ``P`` and ``N`` all positives and negatives. A label is positive when it
    is > 0.5, as in Spark. With Spark's conventions for 0/0
    (``zero_division="spark"``; scikit-learn's ``zero_division`` is the other):

    * precision(t) = TP / (TP + FP), **1.0** when TP + FP = 0;
    * recall(t) = TPR(t) = TP / P, 0.0 when P = 0;
    * FPR(t) = FP / N, 0.0 when N = 0;
    * F_β(t) = (1 + β²)·(precision·recall) / (β²·precision + recall), computed
      from that precision and recall (scikit-learn computes it from the counts,
      which can differ in the last digit), 0.0 when precision + recall = 0.

    Samples of weight 0 keep their scores as thresholds, as in Spark
    (scikit-learn's curves drop them: ``zero_weight="drop"`` elsewhere in
    evalkit).

    **Bit for bit.** The numbers are Spark's own, to the last bit, also with
    weights: Spark's order of additions is replayed -- the weights summed per
    distinct score in input order (per input partition, then the partitions
    in order), the chunks of ``numBins`` summed in order, the running sums
    started at each partition's offset, recall and FPR divided by Spark's
    totals, and the areas summed within each partition first, then the
    trapezoids joining the partitions.

    Parameters
    ----------
    score_and_labels : array-like of shape (n, 2) or (n, 3)
        Rows of ``(score, label)``, or ``(score, label, weight)`` (weights:
        Spark 3.0 and later), as Spark's ``RDD[(Double, Double)]``: an array,
        a list of tuples or a two- or three-column DataFrame.
    num_bins : int, default 0
        Spark's ``numBins``. When > 0, the ``m`` thresholds are grouped into
        chunks of ``g = floor(m / num_bins)`` consecutive ones, provided
        ``g >= 2`` (else nothing is grouped); a chunk carries the counts of
        all its rows, i.e. the cumulative counts at its lowest score. Spark
        groups within each partition of its sorted RDD, so its chunks restart
        at partition boundaries (see ``num_partitions``).
    bin_threshold : {"last", "first"}, default "last"
        The score that labels a chunk: ``"last"``, its lowest score, whose
        counts the chunk does carry (Spark 3.0 and later, SPARK-27577), or
        ``"first"``, its highest score (earlier Spark, e.g. the 1.6.1 that
        the Spark post reads), which labels the point with a threshold that
        does not produce it.
    pr_first_point : {"spark", "legacy"}, default "spark"
        The point :meth:`pr` prepends at recall 0: ``"spark"`` is
        (0, precision at the highest threshold) (Spark 2.3 and later,
        SPARK-21806); ``"legacy"`` is (0, 1.0) (Spark 1.x to 2.2).
    num_partitions : int, default 1
        The partitions of Spark's RDD: the rows cut into ``num_partitions``
        slices as ``sc.parallelize(rows, num_partitions)`` cuts them, and the
        sorted counts into as many range partitions, as Spark's defaults do.
        Spark places its range bounds by sampling at most 60 distinct scores
        per partition, so the result is Spark's exactly while no partition
        holds more; beyond that Spark's split depends on its sample (the
        counts agree to rounding, ``numBins`` chunks may differ).
    zero_weight : {"keep", "drop"}, default "keep"
        A row of weight 0: ``"keep"``, its score is a threshold like any other
        (Spark); ``"drop"``, it is left out first, so its score makes no
        threshold (scikit-learn's curves).

    Attributes
    ----------
    num_bins, bin_threshold, pr_first_point, num_partitions, zero_weight
        The options, as given.
    sweep : Sweep
        The (binned) threshold sweep every method reads: ``thresholds``,
        ``tps``, ``fps`` (Spark's cumulative counts), ``n_pos``, ``n_neg``
        (Spark's totals).

    See Also
    --------
    BinaryClassificationMetrics.from_sweep : the same evaluator built from a
        :class:`~evalkit._sweep.Sweep` (e.g. the sum of the sweeps of a data
        set's partitions: counts add).
    spark_steps : the intermediate values of Spark's computation, by partition.

    Notes
    -----
    Curves are ``(m, 2)`` float arrays, one row per point, as Spark's
    ``RDD[(Double, Double)]`` collected. Spark keys its counts by the score's
    Java ``Double``, so it keeps ``-0.0`` and ``0.0`` apart; evalkit merges them.

    Examples
    --------
    The Spark post's second data set: one woman scored 1.0, five 0.6, five
    0.4, and 89 men 0.0.

    >>> from evalkit.course.datasets import students_soft_scores
    >>> scores, labels = students_soft_scores()
    >>> m = BinaryClassificationMetrics(list(zip(scores, labels)))
    >>> for row in m.f_measure_by_threshold():
    ...     print(spark_format(row))
    (1.0,0.16666666666666669)
    (0.6,0.7058823529411764)
    (0.4,1.0)
    (0.0,0.19819819819819817)
    >>> m.area_under_roc(), m.area_under_pr()
    (1.0, 1.0)
    """

    #: (numPos, numNeg) per sweep row as Spark sums them; None: the steps of the cumulative counts
    _binned = None
    #: sweep rows per partition of Spark's sorted RDD; None: one partition
    _partition_rows = None

    def __init__(self, score_and_labels, num_bins=0, *, bin_threshold="last",
                 pr_first_point="spark", num_partitions=1, zero_weight="keep"):
        scores, labels, weights = check_score_and_labels(score_and_labels)
        self.zero_weight = check_choice(zero_weight, ZERO_WEIGHTS, "zero_weight")
        if weights is not None and zero_weight == "drop":
            keep = weights != 0
            scores, labels, weights = scores[keep], labels[keep], weights[keep]
        self.num_bins = check_integer(num_bins, "num_bins", meaning="0 means no down-sampling")
        self.bin_threshold = check_choice(bin_threshold, BIN_THRESHOLDS, "bin_threshold")
        self.pr_first_point = check_choice(pr_first_point, PR_FIRST_POINTS, "pr_first_point")
        self.num_partitions = check_integer(num_partitions, "num_partitions", minimum=1,
                                            meaning="the partitions of Spark's RDD")
        pos = labels > 0.5
        if weights is None and self.num_partitions == 1:
            # integer counts: exact in any order; the sort-only sweep
            self.sweep = threshold_sweep(pos, scores).binned(self.num_bins,
                                                             bin_threshold=self.bin_threshold)
            return
        r = _replay(scores, pos, weights, sizes=None, input_partitions=self.num_partitions,
                    num_bins=self.num_bins, bin_threshold=self.bin_threshold)
        self._set_replay(r)

    def _set_replay(self, r):
        labels, bin_pos, bin_neg = r["binned"]
        total_pos, total_neg = r["scan"][-1]
        cast = float if bin_pos.dtype.kind == "f" else int
        self.sweep = Sweep(labels, r["tps"], r["fps"], cast(total_pos), cast(total_neg))
        self._binned = (bin_pos, bin_neg)
        self._partition_rows = r["rows"]

    @classmethod
    def from_sweep(cls, sweep, num_bins=0, *, bin_threshold="last", pr_first_point="spark"):
        """The evaluator of counts already made: a :class:`~evalkit._sweep.Sweep`.

        Counts are the seam for scale: a cluster (or a loop over batches)
        only has to produce a sweep per part of the data; the parts' sweeps
        add up (``sweep_a + sweep_b``, see :meth:`Sweep.__add__`) to the sweep
        of the whole, and this builds Spark's evaluator on it. The sweep's
        ``tps`` and ``fps`` are taken as Spark's cumulative counts and
        ``n_pos``, ``n_neg`` as its totals, in one partition; ``num_bins``
        then down-samples as the constructor does.

        Parameters
        ----------
        sweep : Sweep
            From :func:`~evalkit._sweep.threshold_sweep` (which keeps samples
            of weight 0, as Spark does), or a sum of them.
        num_bins, bin_threshold, pr_first_point
            As for :class:`BinaryClassificationMetrics`.

        Examples
        --------
        >>> from evalkit._sweep import threshold_sweep
        >>> a = threshold_sweep([1, 0, 1], [0.9, 0.5, 0.5])
        >>> b = threshold_sweep([0, 1], [0.7, 0.5])
        >>> whole = BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.5, 1), (0.7, 0), (0.5, 1)])
        >>> m = BinaryClassificationMetrics.from_sweep(a + b)
        >>> m.cumulative_counts().tolist() == whole.cumulative_counts().tolist()
        True
        >>> m.area_under_roc() == whole.area_under_roc()
        True
        """
        if not isinstance(sweep, Sweep):
            raise TypeError(f"sweep must be a Sweep (from threshold_sweep, or a sum of them), "
                            f"got {type(sweep).__name__}")
        self = cls.__new__(cls)
        self.num_bins = check_integer(num_bins, "num_bins", meaning="0 means no down-sampling")
        self.bin_threshold = check_choice(bin_threshold, BIN_THRESHOLDS, "bin_threshold")
        self.pr_first_point = check_choice(pr_first_point, PR_FIRST_POINTS, "pr_first_point")
        self.num_partitions, self.zero_weight = 1, "keep"
        self.sweep = sweep.binned(self.num_bins, bin_threshold=self.bin_threshold)
        return self

    def __repr__(self):
        return (f"BinaryClassificationMetrics({len(self.sweep)} thresholds, "
                f"P={self.sweep.n_pos}, N={self.sweep.n_neg}, num_bins={self.num_bins})")

    # -- the counts ----------------------------------------------------------
    def thresholds(self):
        """The thresholds, in descending order: the distinct scores (one per chunk when binned).

        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).thresholds().tolist()
        [0.8, 0.2]
        """
        return np.array(self.sweep.thresholds, dtype=float)

    def binned_counts(self):
        """Spark's binned counts: positives and negatives *at* each threshold (in each chunk).

        Row ``i`` is ``(threshold_i, numPos_i, numNeg_i)``; with no binning the
        rows scored exactly ``threshold_i``. The cumulative counts are their
        running sums: ``TP_i = TP_(i-1) + numPos_i``.

        Returns
        -------
        ndarray of shape (m, 3)

        Examples
        --------
        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).binned_counts().tolist()
        [[0.8, 1.0, 0.0], [0.2, 1.0, 1.0]]
        """
        sw = self.sweep
        if self._binned is not None:
            bin_pos, bin_neg = self._binned
        else:
            bin_pos, bin_neg = np.diff(sw.tps, prepend=0), np.diff(sw.fps, prepend=0)
        return np.column_stack((self.thresholds(), bin_pos, bin_neg)).astype(float)

    def cumulative_counts(self):
        """Spark's cumulative counts: ``(threshold, TP, FP)`` -- the rows scored ``>= threshold``.

        Returns
        -------
        ndarray of shape (m, 3)

        Examples
        --------
        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).cumulative_counts().tolist()
        [[0.8, 1.0, 0.0], [0.2, 2.0, 1.0]]
        """
        sw = self.sweep
        return np.column_stack((self.thresholds(), sw.tps, sw.fps)).astype(float)

    def confusions(self):
        """Spark's confusions: ``(threshold, BinaryCounts)``, one confusion matrix per threshold.

        At threshold ``t``: TP and FP are the cumulative counts, FN = P - TP, TN = N - FP.

        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).confusions()[0]
        (0.8, BinaryCounts(tp=1, fp=0, fn=1, tn=1))
        """
        from ._binary import BinaryCounts

        sw = self.sweep
        return [(float(t), BinaryCounts(tp=tp, fp=fp, fn=sw.n_pos - tp, tn=sw.n_neg - fp))
                for t, tp, fp in zip(sw.thresholds, sw.tps, sw.fps)]

    # -- metrics by threshold -------------------------------------------------
    def _by_threshold(self, values):
        return np.column_stack((self.thresholds(), np.asarray(values, dtype=float)))

    def _precision(self):
        # Spark's Precision: TP / (TP + FP), 1.0 when TP + FP = 0 (the PR curve's convention)
        return pr_points(self.sweep, "spark")[1][1:]

    def _recall(self):
        # Spark's Recall: TP / P with Spark's total P, 0.0 when P = 0
        return roc_points(self.sweep, "spark")[1][1:-1]

    def precision_by_threshold(self):
        """``(threshold, precision)``: precision = TP / (TP + FP), 1.0 when TP + FP = 0 (Spark).

        scikit-learn's ``zero_division`` gives 0.0 (and a warning) there instead;
        at a sweep's thresholds TP + FP = 0 only when rows of weight 0 are all
        that is scored that high.

        Returns
        -------
        ndarray of shape (m, 2)

        Examples
        --------
        >>> m = BinaryClassificationMetrics([(0.9, 1, 0.0), (0.5, 0, 1.0), (0.1, 1, 1.0)])
        >>> m.precision_by_threshold().tolist()
        [[0.9, 1.0], [0.5, 0.0], [0.1, 0.5]]
        """
        return self._by_threshold(self._precision())

    def recall_by_threshold(self):
        """``(threshold, recall)``: recall = TP / P, 0.0 when there are no positives (Spark).

        >>> BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.1, 1)]).recall_by_threshold().tolist()
        [[0.9, 0.5], [0.5, 0.5], [0.1, 1.0]]
        """
        return self._by_threshold(self._recall())

    def f_measure_by_threshold(self, beta=1.0):
        """``(threshold, F_β)``: F_β = (1 + β²)·(P·R) / (β²·P + R) from Spark's P and R.

        P and R are :meth:`precision_by_threshold` and
        :meth:`recall_by_threshold`; F is 0.0 when P + R = 0. From P and R, F1
        can differ from scikit-learn's ``2·TP / (2·TP + FP + FN)`` in the last
        digit: 0.16666666666666669 against 0.16666666666666666 on the Spark
        post's data.

        Parameters
        ----------
        beta : float, default 1.0
            Recall counts ``beta`` times as much as precision.

        Returns
        -------
        ndarray of shape (m, 2)

        Examples
        --------
        >>> m = BinaryClassificationMetrics([(1.0, 1)] + [(0.0, 1)] * 10 + [(0.0, 0)] * 89)
        >>> float(m.f_measure_by_threshold()[0, 1])
        0.16666666666666669
        """
        beta = check_beta(beta)
        return self._by_threshold(_spark_f_measure(self._precision(), self._recall(), beta))

    # -- curves and areas ------------------------------------------------------
    def roc(self):
        """The ROC curve: ``(FPR, TPR)`` at each threshold, with (0, 0) prepended and (1, 1) appended.

        FPR = FP / N and TPR = recall = TP / P (0.0 when N or P is 0).

        Returns
        -------
        ndarray of shape (m + 2, 2)

        Examples
        --------
        >>> BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.1, 1)]).roc().tolist()
        [[0.0, 0.0], [0.0, 0.5], [1.0, 0.5], [1.0, 1.0], [1.0, 1.0]]
        """
        return np.column_stack(roc_points(self.sweep, "spark"))

    def pr(self):
        """The precision-recall curve: ``(recall, precision)`` at each threshold, one point prepended.

        The prepended point at recall 0 is (0, precision at the highest
        threshold) with ``pr_first_point="spark"`` (Spark 2.3 and later), or
        (0, 1.0) with ``"legacy"`` (Spark 1.x to 2.2).

        Returns
        -------
        ndarray of shape (m + 1, 2)

        Examples
        --------
        >>> rows = [(0.9, 0), (0.5, 1), (0.1, 1)]
        >>> BinaryClassificationMetrics(rows).pr().tolist()
        [[0.0, 0.0], [0.0, 0.0], [0.5, 0.5], [1.0, 0.6666666666666666]]
        >>> BinaryClassificationMetrics(rows, pr_first_point="legacy").pr()[0].tolist()
        [0.0, 1.0]
        """
        return np.column_stack(pr_points(self.sweep, "spark", first_point=self.pr_first_point))

    def _rows_per_partition(self):
        rows = self._partition_rows
        return (len(self.sweep),) if rows is None else rows

    def area_under_roc(self):
        """Area under :meth:`roc`: Σ (x₂ − x₁)·(y₂ + y₁) / 2 over consecutive points (trapezoids).

        Summed as Spark's ``AreaUnderCurve.of`` sums: within each partition of
        the curve (the sorted partitions, (0, 0) added to the first and (1, 1)
        to the last) first, then the trapezoids joining them. Without binning it equals
        scikit-learn's ``roc_auc_score`` (ties count half), up to the order of
        the additions.

        >>> BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.1, 1)]).area_under_roc()
        0.5
        """
        fpr, tpr = roc_points(self.sweep, "spark")
        rows = list(self._rows_per_partition())
        rows[0] += 1
        rows[-1] += 1
        return trapezoid(fpr, tpr, partitions=rows)

    def area_under_pr(self):
        """Area under :meth:`pr` by trapezoids -- not scikit-learn's average precision (steps).

        Summed as :meth:`area_under_roc` is (the first point belongs to the first partition).

        >>> BinaryClassificationMetrics([(0.9, 0), (0.5, 1), (0.1, 1)]).area_under_pr()
        0.41666666666666663
        """
        recall, precision = pr_points(self.sweep, "spark", first_point=self.pr_first_point)
        rows = list(self._rows_per_partition())
        rows[0] += 1
        return trapezoid(recall, precision, partitions=rows)


# -- Spark's computation, step by step -------------------------------------------


@dataclass(frozen=True, eq=False)
class SparkSteps:
    """The intermediate values of Spark's ``BinaryClassificationMetrics``, partition by partition.

    Returned by :func:`spark_steps`. Arrays hold one row per point, highest
    score first; counts are numbers of rows (sums of weights when weighted),
    added in Spark's order.

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

    _replayed = None  # the replay these steps come from (set by spark_steps)

    STEPS = ("counts", "binned_counts", "agg", "partitionwise_cumulative_counts",
             "total_count", "cumulative_counts", "confusions")

    @property
    def total_count(self):
        """``(numPos, numNeg)`` of all rows: the last ``partitionwise_cumulative_counts``."""
        return self.partitionwise_cumulative_counts[-1]

    def confusions(self):
        """``(threshold, BinaryCounts)`` per row: ``BinaryConfusionMatrixImpl(cumulative, total)``."""
        return self.metrics().confusions()

    def metrics(self, *, pr_first_point="spark"):
        """A :class:`BinaryClassificationMetrics` over these cumulative counts (this partitioning)."""
        m = BinaryClassificationMetrics.__new__(BinaryClassificationMetrics)
        m.num_bins, m.bin_threshold = self.num_bins, self.bin_threshold
        m.pr_first_point = check_choice(pr_first_point, PR_FIRST_POINTS, "pr_first_point")
        m.num_partitions = len(self.partition_sizes)
        r = self._replayed
        if r is None:  # built by hand: read the steps off the arrays
            cum, binned = self.cumulative_counts, self.binned_counts
            cast = np.float64 if self.weighted else np.int64
            r = {"binned": (cum[:, 0].copy(), binned[:, 1].astype(cast), binned[:, 2].astype(cast)),
                 "scan": self.partitionwise_cumulative_counts.astype(cast),
                 "tps": cum[:, 1].astype(cast), "fps": cum[:, 2].astype(cast),
                 "rows": tuple(np.bincount(self.partition_index,
                                           minlength=len(self.partition_sizes)).tolist())}
        m._set_replay(r)
        return m

    def lines(self, step):
        """The lines Spark prints for ``step`` (``rdd.collect().foreach(println)``), as strings.

        ``step`` is one of ``SparkSteps.STEPS``: "counts", "binned_counts",
        "agg", "partitionwise_cumulative_counts", "total_count",
        "cumulative_counts", "confusions". Counts print as the Spark post's
        Spark 1.6 prints its ``Long`` counters, ``{numPos: 6, numNeg: 0}``.
        """
        check_choice(step, dict.fromkeys(self.STEPS, ""), "step")
        integral = not self.weighted
        if step in ("counts", "binned_counts", "cumulative_counts"):
            return [f"({spark_format(s)},{_counter(p, n, integral)})"
                    for s, p, n in getattr(self, step)]
        if step in ("agg", "partitionwise_cumulative_counts"):
            return [_counter(p, n, integral) for p, n in getattr(self, step)]
        total = _counter(*self.total_count, integral)
        if step == "total_count":
            return [f"Total counts: {total}"]
        return [f"({spark_format(s)},BinaryConfusionMatrixImpl({_counter(p, n, integral)},{total}))"
                for s, p, n in self.cumulative_counts]


def spark_steps(score_and_labels, num_partitions=2, *, partition_sizes=None, num_bins=0,
                bin_threshold="last", input_partitions=None):
    """Replay Spark's ``BinaryClassificationMetrics`` step by step on a given partitioning.

    The rows are cut into input partitions as ``sc.parallelize`` cuts them;
    the binned counts (positives and negatives per distinct score, highest
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

    Every sum is added in Spark's order (weights per score in input order,
    input partitions in order, running sums from each offset), so weighted
    counts are Spark's to the last bit. Without binning the cumulative counts
    do not depend on the partitioning (up to that rounding); with binning the
    chunks restart at every partition boundary, so the kept points do.

    Parameters
    ----------
    score_and_labels : array-like of shape (n, 2) or (n, 3)
        As for :class:`BinaryClassificationMetrics`.
    num_partitions : int, default 2
        Partitions of the sorted counts, split as Spark's ``RangePartitioner``
        splits them when its sample holds every distinct score (Spark samples
        up to 60 keys per partition, so this is Spark's split whenever each
        partition of the combined counts holds at most 60 distinct scores;
        beyond that Spark's split depends on its random sample). On the Spark
        post's data the first of 2 partitions gets the scores 1.0 and 0.6.
    partition_sizes : sequence of int, optional
        The number of distinct scores in each partition, highest scores
        first, instead of ``num_partitions`` (they must add up to ``m``).
    num_bins : int, default 0
        Spark's ``numBins`` (0: no grouping).
    bin_threshold : {"last", "first"}, default "last"
        The score that labels a chunk, as in :class:`BinaryClassificationMetrics`.
    input_partitions : int, optional
        The slices of the input rows (``sc.parallelize(rows, input_partitions)``),
        which decide the order weights are added in; by default as many as the
        sorted partitions, as Spark's defaults keep the number of partitions.

    Returns
    -------
    SparkSteps

    Examples
    --------
    The Spark post's second data set in 2 partitions:

    >>> from evalkit.course.datasets import students_soft_scores
    >>> steps = spark_steps(list(zip(*students_soft_scores())), num_partitions=2)
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
    scores, labels, weights = check_score_and_labels(score_and_labels)
    num_bins = check_integer(num_bins, "num_bins", meaning="0 means no down-sampling")
    bin_threshold = check_choice(bin_threshold, BIN_THRESHOLDS, "bin_threshold")
    pos = labels > 0.5
    m = len(np.unique(scores))
    if partition_sizes is None:
        num_partitions = check_integer(num_partitions, "num_partitions", minimum=1,
                                       meaning="the partitions of the sorted counts")
        sizes = _range_partition_sizes(m, num_partitions)
    else:
        if isinstance(partition_sizes, (str, bytes)) or np.isscalar(partition_sizes):
            raise TypeError(f"partition_sizes must be a sequence of integers, "
                            f"got {partition_sizes!r}")
        sizes = tuple(check_integer(s, "partition_sizes", minimum=0,
                                    meaning="numbers of distinct scores")
                      for s in partition_sizes)
        if not sizes or sum(sizes) != m:
            raise ValueError(f"partition_sizes must add up to the {m} distinct scores; "
                             f"got {list(sizes)} (sum {sum(sizes)})")
    if input_partitions is None:
        input_partitions = len(sizes)
    input_partitions = check_integer(input_partitions, "input_partitions", minimum=1,
                                     meaning="the slices of the input rows")
    r = _replay(scores, pos, weights, sizes=sizes, input_partitions=input_partitions,
                num_bins=num_bins, bin_threshold=bin_threshold)
    keys, num_pos, num_neg = r["counts"]
    labels_b, bin_pos, bin_neg = r["binned"]
    steps = SparkSteps(
        counts=np.column_stack((keys, num_pos, num_neg)).astype(float),
        partition_sizes=r["sizes"],
        binned_counts=np.column_stack((labels_b, bin_pos, bin_neg)).astype(float),
        partition_index=r["partition_index"], agg=r["agg"].astype(float),
        partitionwise_cumulative_counts=r["scan"].astype(float),
        cumulative_counts=np.column_stack((labels_b, r["tps"], r["fps"])).astype(float),
        num_bins=num_bins, bin_threshold=bin_threshold, weighted=weights is not None)
    object.__setattr__(steps, "_replayed", r)  # frozen: set once, here
    return steps


# -- MulticlassMetrics (one block, appended: Spark's per-label arithmetic on the confusion table) --

__all__ += ["MulticlassMetrics"]


class MulticlassMetrics:
    """Spark MLlib's ``MulticlassMetrics`` on numpy: ``(prediction, label[, weight])`` rows.

    Spark sums the weight of every ``(label, prediction)`` pair (the confusion
    table; weight 1.0 per row without a weight column), then, for a label c
    with ``tp_c`` (rows of c predicted c), ``fp_c`` (rows of another label
    predicted c), ``n_c`` (rows of c) and ``n`` (all rows):

    * precision(c) = tp_c / (tp_c + fp_c), **0.0** when nothing is predicted c;
    * recall(c) = true_positive_rate(c) = tp_c / n_c;
    * false_positive_rate(c) = fp_c / (n - n_c);
    * f_measure(c, β) = (1 + β²)·P·R / (β²·P + R), 0.0 when P + R = 0;
    * accuracy = Σ tp_c / n; hamming_loss = (rows with prediction ≠ label) / n;
    * weighted_*: Σ_c metric(c)·n_c / n over the labels (scikit-learn's
      ``average="weighted"``; weighted recall equals accuracy).

    ``labels()`` are the distinct *true* labels, ascending, as Spark's (a
    class that is only ever predicted has no row, and no precision: Spark
    raises there, this raises a ``ValueError``). scikit-learn's report covers
    the union of true and predicted labels instead; its weighted averages are
    the same whenever every predicted class also occurs as a label.

    Parameters
    ----------
    prediction_and_labels : array-like of shape (n, 2) or (n, 3)
        Rows of ``(prediction, label)`` or ``(prediction, label, weight)``;
        note Spark's order, prediction first.

    Examples
    --------
    >>> m = MulticlassMetrics([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (2.0, 2.0), (1.0, 2.0)])
    >>> m.labels().tolist(), m.precision(1.0), m.recall(2.0), m.accuracy()
    ([0.0, 1.0, 2.0], 0.3333333333333333, 0.5, 0.6)
    >>> m.confusion_matrix().tolist()
    [[1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 1.0]]
    """

    def __init__(self, prediction_and_labels):
        from ._validation import _array_like, check_real_values, check_sample_weight

        name = "prediction_and_labels"
        _array_like(prediction_and_labels, name, "rows of (prediction, label[, weight])",
                    ordered=True)
        try:
            arr = np.asarray(prediction_and_labels)
        except ValueError:
            raise ValueError(f"{name} has rows of different lengths") from None
        if arr.ndim != 2 or arr.shape[1] not in (2, 3) or arr.shape[0] == 0:
            raise ValueError(f"{name} must hold n >= 1 rows of (prediction, label) or "
                             f"(prediction, label, weight), got an array of shape {arr.shape}")
        arr = check_real_values(arr, name, finite=False).astype(np.float64)
        if not np.isfinite(arr[:, :2]).all():
            raise ValueError(f"{name} contains NaN or infinite predictions or labels")
        w = (np.ones(len(arr)) if arr.shape[1] == 2 else
             check_sample_weight(arr[:, 2], len(arr), name=f"{name} column 2 (weights)"))
        pred, label = arr[:, 0], arr[:, 1]
        classes, codes = np.unique(np.r_[label, pred], return_inverse=True)
        k = len(classes)
        t, p = codes[:len(arr)], codes[len(arr):]
        cells = np.zeros(k * k)
        np.add.at(cells, t * k + p, w)  # in row order, as one partition of reduceByKey
        self._classes = classes
        self._cells = cells.reshape(k, k)  # rows: label, columns: prediction
        self._n_c = self._cells.sum(axis=1)
        self._is_label = np.bincount(t, minlength=k) > 0
        self._n = float(self._n_c.sum())

    def _index(self, label):
        i = int(np.searchsorted(self._classes, label))
        if i >= len(self._classes) or self._classes[i] != label or not self._is_label[i]:
            raise ValueError(f"label {label!r} is not one of the labels {self.labels().tolist()}")
        return i

    def labels(self):
        """The distinct true labels, ascending (Spark's ``labels``)."""
        return self._classes[self._is_label].copy()

    def confusion_matrix(self):
        """Rows: true label, columns: predicted label, both over :meth:`labels` (Spark's layout)."""
        keep = self._is_label
        return self._cells[np.ix_(keep, keep)].copy()

    def _tp_fp(self, i):
        tp = float(self._cells[i, i])
        fp = float(self._cells[:, i].sum() - self._cells[i, i])
        return tp, fp

    def precision(self, label):
        """tp / (tp + fp) for ``label``; 0.0 when nothing is predicted ``label``."""
        tp, fp = self._tp_fp(self._index(label))
        return 0.0 if tp + fp == 0 else tp / (tp + fp)

    def recall(self, label):
        """tp / n_label: the share of rows of ``label`` predicted ``label``."""
        i = self._index(label)
        return float(self._cells[i, i]) / float(self._n_c[i])

    def true_positive_rate(self, label):
        """The same as :meth:`recall`."""
        return self.recall(label)

    def false_positive_rate(self, label):
        """fp / (n - n_label): of the rows of other labels, the share predicted ``label``."""
        i = self._index(label)
        _, fp = self._tp_fp(i)
        return fp / (self._n - float(self._n_c[i]))

    def f_measure(self, label, beta=1.0):
        """(1 + β²)·P·R / (β²·P + R) for ``label``; 0.0 when P + R = 0."""
        from ._validation import check_beta

        beta = check_beta(beta)
        p, r = self.precision(label), self.recall(label)
        b2 = beta * beta
        return 0.0 if p + r == 0 else (1 + b2) * p * r / (b2 * p + r)

    def accuracy(self):
        """Σ tp / n (the weight of the diagonal over the total)."""
        return float(np.trace(self._cells)) / self._n

    def hamming_loss(self):
        """The weight of rows whose prediction differs from the label, over n."""
        return float(self._cells.sum() - np.trace(self._cells)) / self._n

    def _weighted(self, metric):
        total = 0.0
        for c in self.labels():
            total += metric(c) * float(self._n_c[self._index(c)]) / self._n
        return total

    def weighted_recall(self):
        """Σ_c recall(c)·n_c / n (equals accuracy)."""
        return self._weighted(self.recall)

    def weighted_true_positive_rate(self):
        """The same as :meth:`weighted_recall`."""
        return self.weighted_recall()

    def weighted_precision(self):
        """Σ_c precision(c)·n_c / n."""
        return self._weighted(self.precision)

    def weighted_false_positive_rate(self):
        """Σ_c false_positive_rate(c)·n_c / n."""
        return self._weighted(self.false_positive_rate)

    def weighted_f_measure(self, beta=1.0):
        """Σ_c f_measure(c, β)·n_c / n."""
        return self._weighted(lambda c: self.f_measure(c, beta))


# -- RankingMetrics (one block, appended: evalkit.ranking with the Spark convention) -------

__all__ += ["RankingMetrics"]


class RankingMetrics:
    """Spark MLlib's ``RankingMetrics`` on numpy: :mod:`evalkit.ranking` with ``convention="spark"``.

    Each row is ``(prediction, labels)`` -- a ranked array of item ids and the
    array of relevant ids -- or, as in Spark 3.4 and later, ``(prediction,
    labels, relevance)`` with one relevance value per label (graded NDCG).
    The metrics are :mod:`evalkit.ranking`'s with Spark's convention (every
    label relevant in P, R and MAP; grades only in NDCG), under PySpark's
    names. For each row (with L = the distinct labels, n = the prediction's
    length):

    * ``precisionAt(k)`` = |{first min(n, k) predictions} ∩ L| / k;
    * ``recallAt(k)`` = the same count / |L|;
    * ``meanAveragePrecisionAt(k)`` = (Σ_{hits i ≤ k} hits so far / i) /
      min(|L|, k); ``meanAveragePrecision`` (a property, as in PySpark) the
      same with k = max(n, |L|), i.e. / |L|;
    * ``ndcgAt(k)``: binary (no relevance): DCG = Σ 1/log(i+1) over hits in the
      first min(n, k), IDCG = Σ_{i ≤ min(|L|, k)} 1/log(i+1); graded: gains
      2^rel - 1 with rel looked up by item (0 when absent), and the IDCG from
      **the labels in the order given** (``labels[0..min(|L|,k)-1]``), not
      sorted by relevance.

    A row with no labels scores 0 (Spark logs "Empty ground truth set"), and
    the result is the mean over all rows (equal to Spark's ``RDD.mean()`` to
    about 1e-15: Spark sums in its own order). A prediction that repeats an
    item counts each occurrence, as Spark does.

    The graded ideal DCG is a Spark slip, reproduced, not fixed: Spark does
    not sort the labels by relevance, so with the labels given in increasing
    order of relevance NDCG can exceed 1 (Spark's own test data with both
    label arrays reversed gives NDCG@3 = 1.7502). Pass labels sorted by
    relevance, best first, or use :func:`evalkit.ndcg_at_k` (which sorts).
    PySpark 4.3's Python wrapper passes only the first two columns to the JVM,
    so graded NDCG through it silently returns the binary value; the JVM's
    ``RankingMetrics.of`` on 3-tuples gives the graded one, which this class
    reproduces.

    Parameters
    ----------
    predictionAndLabels : iterable of tuples
        ``(prediction, labels)`` or ``(prediction, labels, relevance)`` rows
        (PySpark takes an RDD of them).

    Examples
    --------
    Spark's own test data (``RankingMetricsSuite``):

    >>> rows = [([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
    ...         ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
    ...         ([1, 2, 3, 4, 5], [])]
    >>> m = RankingMetrics(rows)
    >>> round(m.precisionAt(5), 6), round(m.meanAveragePrecision, 6), round(m.ndcgAt(3), 6)
    (0.266667, 0.355026, 0.333333)
    >>> graded = [(p, l, r) for (p, l), r in zip(rows, [[3, 2, 1, 1, 1], [2, 0, 0], []])]
    >>> round(RankingMetrics(graded).ndcgAt(3), 6)
    0.511959
    """

    def __init__(self, predictionAndLabels):
        from ._hits import ranking_hits
        from ._validation import check_grades, check_ranked

        name = "predictionAndLabels"
        rows = [tuple(r) if isinstance(r, (tuple, list)) else r for r in predictionAndLabels]
        if not rows or not all(isinstance(r, tuple) and len(r) in (2, 3) for r in rows):
            raise ValueError(f"{name} must hold at least one (prediction, labels) or (prediction, "
                             f"labels, relevance) row, got {rows[:3]!r}")
        p_items, p_off = check_ranked([r[0] for r in rows], f"{name} predictions")
        l_items, l_off = check_ranked([r[1] for r in rows], f"{name} labels")
        labels = [l_items[a:b].tolist() for a, b in zip(l_off[:-1], l_off[1:])]
        rels = [check_grades(list(r[2]), f"{name} relevance").tolist() if len(r) == 3 else []
                for r in rows]
        # Spark: labSet = labels.toSet; relMap = (labels zip relevance).toMap (the last grade wins)
        maps = [dict(zip(lab, rel)) if rel else dict.fromkeys(lab, 1.0) for lab, rel in zip(labels, rels)]
        judged = [list(dict.fromkeys(lab)) for lab in labels]
        flat = [x for j in judged for x in j]
        t_items = l_items[:0] if not flat else np.asarray(flat, dtype=l_items.dtype)
        t_off = np.concatenate([[0], np.cumsum([len(j) for j in judged])])
        graded = any(rels)
        grades = np.array([maps[i].get(x, 0.0) for i, j in enumerate(judged) for x in j]) if graded \
            else None
        self._hits = ranking_hits(p_items, p_off, t_items, t_off, grades, repeats="count",
                                  names=(f"{name} predictions", f"{name} labels"))
        if graded:   # Spark's ideal: the label array as given, its first |labSet| entries
            given = np.zeros((len(rows), max(map(len, judged), default=0)))
            for i, (lab, j) in enumerate(zip(labels, judged)):
                given[i, :len(j)] = [maps[i].get(x, 0.0) for x in lab[:len(j)]]
            self._hits.given = given

    def __repr__(self):
        return f"RankingMetrics({self._hits.n_users} rows)"

    def precisionAt(self, k):
        """Mean precision at k: labels among the first k predictions / k (0 for no labels)."""
        from .ranking import precision_at_k
        return precision_at_k(self._hits, None, k, convention="spark")

    def recallAt(self, k):
        """Mean recall at k: labels among the first k predictions / |labels| (Spark 3.0+)."""
        from .ranking import recall_at_k
        return recall_at_k(self._hits, None, k, convention="spark")

    @property
    def meanAveragePrecision(self):
        """Mean average precision: per row (Σ_{hits} precision at the hit) / |labels|."""
        from .ranking import mean_average_precision
        return mean_average_precision(self._hits, None, convention="spark")

    def meanAveragePrecisionAt(self, k):
        """Mean average precision at k: per row (Σ_{hits ≤ k} precision at the hit) / min(|labels|, k)."""
        from .ranking import mean_average_precision
        return mean_average_precision(self._hits, None, k, convention="spark")

    def ndcgAt(self, k):
        """Mean NDCG at k, Spark's way: gains 2^rel - 1 (1 for binary rows), ideal as given."""
        from .ranking import ndcg_at_k
        return ndcg_at_k(self._hits, None, k, convention="spark")

    # the old snake_case names, until the notebooks and test_common move (removed after)
    def precision_at(self, k):
        return self.precisionAt(k)

    def recall_at(self, k):
        return self.recallAt(k)

    def mean_average_precision(self):
        return self.meanAveragePrecision

    def mean_average_precision_at(self, k):
        return self.meanAveragePrecisionAt(k)

    def ndcg_at(self, k):
        return self.ndcgAt(k)
