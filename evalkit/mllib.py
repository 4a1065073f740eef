"""Spark MLlib's evaluators on numpy, under PySpark's names.

:class:`BinaryClassificationMetrics`, :class:`MulticlassMetrics` and
:class:`RankingMetrics` answer to ``pyspark.mllib.evaluation``'s names with
PySpark's kinds (``metrics.areaUnderROC`` and ``metrics.accuracy`` are
properties, ``metrics.fMeasure(label, beta)`` and ``metrics.ndcgAt(k)``
methods), so code written for PySpark runs unchanged on a list of rows where
PySpark takes an RDD; methods only Scala has keep Scala's names (``roc()``,
``pr()``, ``thresholds()``, ``precisionByThreshold()``, ...).

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
and applies Spark's ratios (``zero_division="spark"``).
:func:`evalkit.spark_steps` (:mod:`evalkit.mllib_steps`) shows every
intermediate value of steps 1-5 for a given partitioning -- and why
``numBins`` depends on the partitioning -- and :func:`evalkit.spark_format`
prints numbers and tuples as Spark (Scala on Java 17) prints them.

Spark's partitions decide which points ``numBins`` keeps (its chunks restart
at every partition boundary); that is replayed exactly. The order in which
Spark adds weights and trapezoids moves only the last bits of weighted
counts and of the areas: evalkit adds in numpy's order, and agrees with
Spark to 1e-12 (bit for bit without weights, one partition).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from ._binary import BinaryCounts
from ._counts import confusion_counts, encode_labels, multilabel_counts
from ._curves import pr_points, roc_points, trapezoid
from ._errors import errors_from_sums, spark_fit_scores
from ._hit_metrics import METRICS, resolve_options
from ._hits import RankingHits, ranking_hits
from ._ratios import f_beta_of, prf, ratio
from ._spark_sweep import (BIN_THRESHOLDS, PR_CONVENTIONS, count_table, pr_layout,
                           range_partition_sizes, sweep_of_rows, warn_if_sampled)
from ._sweep import Sweep
from ._validation import (BETA, NUM_BINS, ZERO_WEIGHT, Bool, Integer, InstanceOf, Options, Real,
                          check_grades, check_ranked, check_ranking_rows, check_relevant,
                          K, check_score_and_labels, validate_params)

__all__ = ["BinaryClassificationMetrics", "MulticlassMetrics", "RankingMetrics",
           "RegressionMetrics", "MultilabelMetrics"]

_ONE_SPLIT_ADVICE = ("Replay Spark's own split with spark_steps(..., partition_sizes=...): the "
                     "distinct scores in each partition of its sorted counts.")


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
    (``zero_weight="keep"``; scikit-learn's curves drop them, ``"drop"``).

    The names and kinds are PySpark's: ``areaUnderROC`` and ``areaUnderPR``
    are properties; the methods only Scala has keep Scala's names
    (``thresholds()``, ``roc()``, ``pr()``, ``precisionByThreshold()``,
    ``recallByThreshold()``, ``fMeasureByThreshold(beta)``), and so do the
    steps behind them (``binnedCounts()``, ``cumulativeCounts()``,
    ``confusions()``, private in Scala). Without weights the numbers are
    Spark's to the last bit; with weights Spark's order of additions moves
    the last bits, and they agree to 1e-12.

    Parameters
    ----------
    scoreAndLabels : array-like of shape (n, 2) or (n, 3)
        Rows of ``(score, label)``, or ``(score, label, weight)`` (weights:
        Spark 3.0 and later), as PySpark's RDD: an array, a list of tuples or
        a two- or three-column DataFrame.
    num_bins : int, default 0
        Scala's ``numBins``. When > 0, the ``m`` thresholds are grouped into
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
    convention : {"spark", "legacy"}, default "spark"
        The point :meth:`pr` prepends at recall 0: ``"spark"`` is
        (0, precision at the highest threshold) (Spark 2.3 and later,
        SPARK-21806); ``"legacy"`` is (0, 1.0) (Spark 1.x to 2.2).
    num_partitions : int, default 1
        The partitions of Spark's sorted counts, split evenly, as Spark's
        ``RangePartitioner`` splits them when its sample holds every distinct
        score (up to 60 in each partition of the combined counts; beyond,
        Spark's split depends on its random sample, and with ``num_bins``
        grouping that is a ``UserWarning``: replay Spark's own split with
        :func:`evalkit.spark_steps`). Only ``num_bins`` chunks depend on it.
    zero_weight : {"keep", "drop"}, default "keep"
        A row of weight 0: ``"keep"``, its score is a threshold like any other
        (Spark); ``"drop"``, it is left out first, so its score makes no
        threshold (scikit-learn's curves).

    Attributes
    ----------
    num_bins, bin_threshold, convention, num_partitions, zero_weight
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
    evalkit.spark_steps : the intermediate values of Spark's computation, by partition.

    Notes
    -----
    Curves are ``(m, 2)`` float arrays, one row per point, as Spark's
    ``RDD[(Double, Double)]`` collected. Spark keys its counts by the score's
    Java ``Double``, so it keeps ``-0.0`` and ``0.0`` apart; evalkit merges them.

    Examples
    --------
    PySpark's own example, on a list where PySpark takes ``sc.parallelize(rows, 2)``:

    >>> scoreAndLabels = [(0.1, 0.0), (0.1, 1.0), (0.4, 0.0), (0.6, 0.0), (0.6, 1.0),
    ...                   (0.6, 1.0), (0.8, 1.0)]
    >>> metrics = BinaryClassificationMetrics(scoreAndLabels)
    >>> round(metrics.areaUnderROC, 4), round(metrics.areaUnderPR, 4)
    (0.7083, 0.8339)

    The Spark post's second data set: one woman scored 1.0, five 0.6, five
    0.4, and 89 men 0.0.

    >>> from evalkit import spark_format
    >>> rows = [(1.0, 1)] + [(0.6, 1)] * 5 + [(0.4, 1)] * 5 + [(0.0, 0)] * 89
    >>> m = BinaryClassificationMetrics(rows)
    >>> for row in m.fMeasureByThreshold():
    ...     print(spark_format(row))
    (1.0,0.16666666666666669)
    (0.6,0.7058823529411764)
    (0.4,1.0)
    (0.0,0.19819819819819817)
    >>> m.areaUnderROC, m.areaUnderPR
    (1.0, 1.0)
    """

    # The defaults, as class attributes too (the public API pins them); every instance sets its own.
    num_bins = 0
    bin_threshold = "last"
    convention = "spark"
    num_partitions = 1
    zero_weight = "keep"

    @validate_params(num_bins=NUM_BINS, bin_threshold=Options(BIN_THRESHOLDS),
                     convention=Options(PR_CONVENTIONS),
                     num_partitions=Integer(1, meaning="the partitions of Spark's RDD"),
                     zero_weight=ZERO_WEIGHT)
    def __init__(self, scoreAndLabels: ArrayLike, num_bins: int = 0, *, bin_threshold: str = "last",
                 convention: str = "spark", num_partitions: int = 1,
                 zero_weight: str = "keep") -> None:
        sweep, _ = sweep_of_rows(scoreAndLabels, "scoreAndLabels", zero_weight)
        sizes = range_partition_sizes(len(sweep), num_partitions)
        warn_if_sampled(sweep.thresholds, num_partitions, num_bins, _ONE_SPLIT_ADVICE)
        binned, _ = sweep.chunked(num_bins, bin_threshold, sizes)
        self._start(binned, num_bins=num_bins, bin_threshold=bin_threshold,
                    convention=convention, num_partitions=num_partitions,
                    zero_weight=zero_weight)

    def _start(self, sweep, *, num_bins, bin_threshold, convention, num_partitions,
               zero_weight):
        """The one constructor's body: every way to build an evaluator sets all of it here.

        ``sweep`` is the (binned) sweep every method reads; evalkit.spark's
        subclass passes None and collects it on first use.
        """
        self.num_bins = num_bins
        self.bin_threshold = bin_threshold
        self.convention = convention
        self.num_partitions = num_partitions
        self.zero_weight = zero_weight
        self.sweep = sweep

    @classmethod
    def _of_sweep(cls, sweep, **options):
        """An evaluator of a sweep already binned, with every option given (``_start``'s)."""
        self = cls.__new__(cls)
        self._start(sweep, **options)
        return self

    @classmethod
    @validate_params(sweep=InstanceOf(Sweep, "a Sweep (from threshold_sweep, or a sum of them)"),
                     num_bins=NUM_BINS, bin_threshold=Options(BIN_THRESHOLDS),
                     convention=Options(PR_CONVENTIONS))
    def from_sweep(cls, sweep: Sweep, num_bins: int = 0, *, bin_threshold: str = "last",
                   convention: str = "spark") -> BinaryClassificationMetrics:
        """The evaluator of counts already made: a :class:`~evalkit._sweep.Sweep`.

        Counts are the seam for scale: a cluster (or a loop over batches)
        only has to produce a sweep per part of the data; the parts' sweeps
        add up (``sweep_a + sweep_b``, see :meth:`Sweep.__add__`) to the sweep
        of the whole, and this builds Spark's evaluator on it. The sweep's
        ``tps`` and ``fps`` are taken as Spark's cumulative counts and
        ``n_pos``, ``n_neg`` as its totals, in one partition; ``num_bins``
        then down-samples as the constructor does. A row of weight 0 counts
        as the sweep counts it (``zero_weight="keep"``: a threshold).

        Parameters
        ----------
        sweep : Sweep
            From :func:`~evalkit._sweep.threshold_sweep` (which keeps samples
            of weight 0, as Spark does), or a sum of them.
        num_bins, bin_threshold, convention
            As for :class:`BinaryClassificationMetrics`.

        Examples
        --------
        >>> from evalkit._sweep import threshold_sweep
        >>> a = threshold_sweep([1, 0, 1], [0.9, 0.5, 0.5])
        >>> b = threshold_sweep([0, 1], [0.7, 0.5])
        >>> whole = BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.5, 1), (0.7, 0), (0.5, 1)])
        >>> m = BinaryClassificationMetrics.from_sweep(a + b)
        >>> m.cumulativeCounts().tolist() == whole.cumulativeCounts().tolist()
        True
        >>> m.areaUnderROC == whole.areaUnderROC
        True
        """
        binned = sweep.binned(num_bins, bin_threshold=bin_threshold)
        return cls._of_sweep(binned, num_bins=num_bins, bin_threshold=bin_threshold,
                             convention=convention, num_partitions=1, zero_weight="keep")

    def __repr__(self):
        return (f"BinaryClassificationMetrics({len(self.sweep)} thresholds, "
                f"P={self.sweep.n_pos}, N={self.sweep.n_neg}, num_bins={self.num_bins})")

    # -- the counts (Scala's private vals, public here) ------------------------
    def thresholds(self) -> np.ndarray:
        """The thresholds, in descending order: the distinct scores (one per chunk when binned).

        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).thresholds().tolist()
        [0.8, 0.2]
        """
        return np.array(self.sweep.thresholds, dtype=float)

    def binnedCounts(self) -> np.ndarray:
        """Spark's binned counts: positives and negatives *at* each threshold (in each chunk).

        Row ``i`` is ``(threshold_i, numPos_i, numNeg_i)``; with no binning the
        rows scored exactly ``threshold_i``. The cumulative counts are their
        running sums: ``TP_i = TP_(i-1) + numPos_i``.

        Returns
        -------
        ndarray of shape (m, 3)

        Examples
        --------
        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).binnedCounts().tolist()
        [[0.8, 1.0, 0.0], [0.2, 1.0, 1.0]]
        """
        return count_table(self.sweep)

    def cumulativeCounts(self) -> np.ndarray:
        """Spark's cumulative counts: ``(threshold, TP, FP)`` -- the rows scored ``>= threshold``.

        Returns
        -------
        ndarray of shape (m, 3)

        Examples
        --------
        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).cumulativeCounts().tolist()
        [[0.8, 1.0, 0.0], [0.2, 2.0, 1.0]]
        """
        return count_table(self.sweep, cumulative=True)

    def confusions(self) -> list[tuple[float, BinaryCounts]]:
        """Spark's confusions: ``(threshold, BinaryCounts)``, one confusion matrix per threshold.

        At threshold ``t``: TP and FP are the cumulative counts, FN = P - TP, TN = N - FP.

        >>> BinaryClassificationMetrics([(0.2, 0), (0.8, 1), (0.2, 1)]).confusions()[0]
        (0.8, BinaryCounts(tp=1, fp=0, fn=1, tn=1))
        """
        sw = self.sweep
        return [(float(t), BinaryCounts(tp=tp, fp=fp, fn=sw.n_pos - tp, tn=sw.n_neg - fp))
                for t, tp, fp in zip(sw.thresholds, sw.tps, sw.fps)]

    # -- metrics by threshold -------------------------------------------------
    def _by_threshold(self, values):
        return np.column_stack((self.thresholds(), np.asarray(values, dtype=float)))

    def precisionByThreshold(self) -> np.ndarray:
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
        >>> m.precisionByThreshold().tolist()
        [[0.9, 1.0], [0.5, 0.0], [0.1, 0.5]]
        """
        return self._by_threshold(pr_points(self.sweep, "spark")[1][1:])

    def recallByThreshold(self) -> np.ndarray:
        """``(threshold, recall)``: recall = TP / P, 0.0 when there are no positives (Spark).

        >>> BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.1, 1)]).recallByThreshold().tolist()
        [[0.9, 0.5], [0.5, 0.5], [0.1, 1.0]]
        """
        return self._by_threshold(roc_points(self.sweep, "spark")[1][1:-1])

    @validate_params(beta=BETA)
    def fMeasureByThreshold(self, beta: float = 1.0) -> np.ndarray:
        """``(threshold, F_β)``: F_β = (1 + β²)·(P·R) / (β²·P + R) from Spark's P and R.

        P and R are :meth:`precisionByThreshold` and
        :meth:`recallByThreshold`; F is 0.0 when P + R = 0. From P and R, F1
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
        >>> float(m.fMeasureByThreshold()[0, 1])
        0.16666666666666669
        """
        sw = self.sweep
        return self._by_threshold(f_beta_of(sw.tps, sw.fps, sw.n_pos - sw.tps, beta,
                                             zero_division="spark"))

    # -- curves and areas ------------------------------------------------------
    def roc(self) -> np.ndarray:
        """The ROC curve: ``(FPR, TPR)`` at each threshold, (0, 0) prepended, (1, 1) appended.

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

    def pr(self) -> np.ndarray:
        """The precision-recall curve: ``(recall, precision)`` at each threshold, one point first.

        The prepended point at recall 0 is (0, precision at the highest
        threshold) with ``convention="spark"`` (Spark 2.3 and later), or
        (0, 1.0) with ``"legacy"`` (Spark 1.x to 2.2).

        Returns
        -------
        ndarray of shape (m + 1, 2)

        Examples
        --------
        >>> rows = [(0.9, 0), (0.5, 1), (0.1, 1)]
        >>> BinaryClassificationMetrics(rows).pr().tolist()
        [[0.0, 0.0], [0.0, 0.0], [0.5, 0.5], [1.0, 0.6666666666666666]]
        >>> BinaryClassificationMetrics(rows, convention="legacy").pr()[0].tolist()
        [0.0, 1.0]
        """
        return np.column_stack(pr_points(self.sweep, pr_layout(self.convention)))

    @property
    def areaUnderROC(self) -> float:
        """Area under :meth:`roc`: Σ (x₂ − x₁)·(y₂ + y₁) / 2 over consecutive points (trapezoids).

        Without binning it equals scikit-learn's ``roc_auc_score`` (ties count
        half), up to the order of the additions. Summed from left to right,
        as Spark sums one partition.

        >>> BinaryClassificationMetrics([(0.9, 1), (0.5, 0), (0.1, 1)]).areaUnderROC
        0.5
        """
        fpr, tpr = roc_points(self.sweep, "spark")
        return trapezoid(fpr, tpr, partitions=[len(fpr)])

    @property
    def areaUnderPR(self) -> float:
        """Area under :meth:`pr` by trapezoids -- not scikit-learn's average precision (steps).

        >>> BinaryClassificationMetrics([(0.9, 0), (0.5, 1), (0.1, 1)]).areaUnderPR
        0.41666666666666663
        """
        recall, precision = pr_points(self.sweep, pr_layout(self.convention))
        return trapezoid(recall, precision, partitions=[len(recall)])


# -- MulticlassMetrics -----------------------------------------------------------

def _label_prf(tp, predicted, actual):
    """Spark's per-label precision, recall and F1 of ``MulticlassMetrics`` and
    ``MultilabelMetrics``: precision 0.0 when nothing is predicted.

    The 0 / 0 is made 0 / 1 here: ``prf``'s ``zero_division="spark"`` follows
    Spark's binary evaluator, which says 1.0 there.
    """
    return prf(tp, np.where(predicted == 0, 1, predicted), actual, zero_division="spark")[:3]


def _position(classes, label, note=""):
    """The index of ``label`` in the ascending ``classes``; a ValueError naming them if absent."""
    i = int(np.searchsorted(classes, label))
    if i >= len(classes) or classes[i] != label:
        raise ValueError(f"label {label!r} is not one of the labels {classes.tolist()}{note}")
    return i


def _has_probabilities(rows):
    """Rows of ``(prediction, label, weight, probabilities)``: a list of 4-tuples."""
    if not isinstance(rows, (list, tuple)) or not rows:
        return False
    first = rows[0]
    return isinstance(first, (list, tuple)) and len(first) == 4


class _Matrix(np.ndarray):
    """A confusion matrix that is also PySpark's ``DenseMatrix`` enough: ``.toArray()``."""

    def toArray(self):
        """The matrix as a plain ndarray (PySpark's ``Matrix.toArray()``)."""
        return np.asarray(self).copy()


class MulticlassMetrics:
    """Spark MLlib's ``MulticlassMetrics`` on numpy.

    Rows ``(prediction, label[, weight[, probabilities]])``.

    Spark sums the weight of every ``(label, prediction)`` pair (the confusion
    table; weight 1.0 per row without a weight column), then, for a label c
    with ``tp_c`` (rows of c predicted c), ``fp_c`` (rows of another label
    predicted c), ``n_c`` (rows of c) and ``n`` (all rows):

    * ``precision(c)`` = tp_c / (tp_c + fp_c), **0.0** when nothing is predicted c
      (Spark's binary evaluator says 1.0 there);
    * ``recall(c)`` = ``truePositiveRate(c)`` = tp_c / n_c;
    * ``falsePositiveRate(c)`` = fp_c / (n - n_c) (NaN when every row is c);
    * ``fMeasure(c, β)`` = (1 + β²)·P·R / (β²·P + R) from that P and R, 0.0
      when P + R = 0 (``zero_division="spark"``);
    * ``accuracy`` = Σ tp_c / n; ``hammingLoss`` = (rows with prediction ≠ label) / n;
    * ``weighted*``: Σ_c metric(c)·n_c / n over the labels (scikit-learn's
      ``average="weighted"``; weighted recall equals accuracy);
    * ``logLoss(eps)`` = Σ w·(−ln p_label) / Σ w, from the probabilities
      column (the probability of the true label, clipped to [eps, 1 − eps],
      as Spark clips).

    The names and kinds are PySpark's: ``accuracy``, ``weightedRecall``,
    ``weightedPrecision``, ``weightedTruePositiveRate`` and
    ``weightedFalsePositiveRate`` are properties, ``weightedFMeasure(beta)``,
    ``fMeasure(label, beta)`` and ``confusionMatrix()`` methods;
    ``labels`` and ``hammingLoss`` (Scala only) are properties, as Scala's
    vals. :attr:`labels` are the distinct *true* labels, ascending, as
    Spark's (a class that is only ever predicted has no row, and no
    precision: Spark raises there, this raises a ``ValueError``).
    scikit-learn's report covers the union of true and predicted labels
    instead; its weighted averages are the same whenever every predicted
    class also occurs as a label.

    Parameters
    ----------
    predictionAndLabels : array-like of shape (n, 2) or (n, 3), or a list of 4-tuples
        Rows of ``(prediction, label)``, ``(prediction, label, weight)`` or
        ``(prediction, label, weight, probabilities)``; note Spark's order,
        prediction first.

    Examples
    --------
    PySpark's own example, on a list where PySpark takes ``sc.parallelize(rows)``:

    >>> predictionAndLabels = [(0.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0), (1.0, 1.0),
    ...                        (1.0, 1.0), (1.0, 1.0), (2.0, 2.0), (2.0, 0.0)]
    >>> metrics = MulticlassMetrics(predictionAndLabels)
    >>> metrics.confusionMatrix().toArray().tolist()
    [[2.0, 1.0, 1.0], [1.0, 3.0, 0.0], [0.0, 0.0, 1.0]]
    >>> metrics.precision(1.0), round(metrics.fMeasure(0.0, 2.0), 4), round(metrics.accuracy, 4)
    (0.75, 0.5263, 0.6667)
    >>> round(metrics.weightedFalsePositiveRate, 4), round(metrics.weightedFMeasure(2.0), 4)
    (0.1917, 0.6598)
    """

    def __init__(self, predictionAndLabels: ArrayLike) -> None:
        rows = predictionAndLabels
        self._proba = None
        if _has_probabilities(rows):
            self._proba = [r[3] for r in rows]
            rows = [tuple(r[:3]) for r in rows]
        pred, label, w = check_score_and_labels(rows, "predictionAndLabels")
        if w is None:
            w = np.ones(len(pred))
        self._w = w
        classes, cells = confusion_counts(label, pred, None, w)
        self._label = label
        self._n = float(cells.sum())
        keep = np.isin(classes, label)  # Spark's labels: the distinct true labels
        self._classes = classes[keep]
        self._cells = cells[np.ix_(keep, keep)]
        # per label: tp, predicted (tp + fp, all rows predicted c) and actual (n_c)
        self._tp = np.diag(cells)[keep]
        self._predicted = cells.sum(axis=0)[keep]
        self._actual = cells.sum(axis=1)[keep]

    def _index(self, label):
        return _position(self._classes, label)

    def _prf(self, beta=None):
        p, r, _ = _label_prf(self._tp, self._predicted, self._actual)
        b2 = 1.0   # β = 1 by default
        if beta is not None:
            b2 = float(beta) ** 2
        if np.isinf(b2):
            return p, r, r
        # F from P and R grouped as Spark's MulticlassMetrics does, (1 + β²)·P·R / (β²·P + R);
        # its binary evaluator (and prf) multiply (1 + β²)·(P·R), which can differ in the last bit
        with np.errstate(invalid="ignore", divide="ignore"):
            f = (1 + b2) * p * r / (b2 * p + r)
        f = np.where(p + r == 0, 0.0, f)
        return p, r, f

    def _weighted(self, values):
        """Σ_c value(c)·n_c / n, each term as Spark adds it."""
        return float(np.sum(values * self._actual / self._n))

    @property
    def labels(self) -> np.ndarray:
        """The distinct true labels, ascending (Scala's ``labels``)."""
        return self._classes.copy()

    def confusionMatrix(self) -> np.ndarray:
        """Rows: true label, columns: predicted label, both over :attr:`labels` (Spark's layout).

        A matrix with PySpark's ``.toArray()`` (and every numpy operation).
        """
        return self._cells.copy().view(_Matrix)

    def precision(self, label: float) -> float:
        """tp / (tp + fp) for ``label``; 0.0 when nothing is predicted ``label``."""
        return float(self._prf()[0][self._index(label)])

    def recall(self, label: float) -> float:
        """tp / n_label: the share of rows of ``label`` predicted ``label``."""
        return float(self._prf()[1][self._index(label)])

    truePositiveRate = recall   # the same, under Spark's other name

    def _fpr(self):
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self._predicted - self._tp) / (self._n - self._actual)

    def falsePositiveRate(self, label: float) -> float:
        """fp / (n - n_label): of the rows of other labels, the share predicted ``label``."""
        return float(self._fpr()[self._index(label)])

    @validate_params(beta=[None, BETA])
    def fMeasure(self, label: float, beta: float | None = None) -> float:
        """(1 + β²)·P·R / (β²·P + R) for ``label`` (β = 1 by default); 0.0 when P + R = 0."""
        return float(self._prf(beta)[2][self._index(label)])

    @property
    def accuracy(self) -> float:
        """Σ tp / n (the weight of the diagonal over the total)."""
        return float(self._tp.sum()) / self._n

    @property
    def hammingLoss(self) -> float:
        """The weight of rows whose prediction differs from the label, over n."""
        return float(self._n - self._tp.sum()) / self._n

    @property
    def weightedRecall(self) -> float:
        """Σ_c recall(c)·n_c / n (equals accuracy)."""
        return self._weighted(self._prf()[1])

    weightedTruePositiveRate = weightedRecall   # the same, under Spark's other name

    @property
    def weightedPrecision(self) -> float:
        """Σ_c precision(c)·n_c / n."""
        return self._weighted(self._prf()[0])

    @property
    def weightedFalsePositiveRate(self) -> float:
        """Σ_c falsePositiveRate(c)·n_c / n."""
        return self._weighted(self._fpr())

    @validate_params(beta=[None, BETA])
    def weightedFMeasure(self, beta: float | None = None) -> float:
        """Σ_c fMeasure(c, β)·n_c / n (β = 1 by default)."""
        return self._weighted(self._prf(beta)[2])

    @validate_params(eps=Real(0, 0.5, closed="neither", meaning="the smallest probability used"))
    def logLoss(self, eps: float = 1e-15) -> float:
        """Σ w·(−ln p) / Σ w, p the true label's probability clipped to [eps, 1 − eps] (Spark 3.0+).

        Needs rows of ``(prediction, label, weight, probabilities)``; the
        label is the index of its probability, as in Spark.

        >>> MulticlassMetrics([(1.0, 1.0, 1.0, [0.1, 0.8, 0.1]), (0.0, 2.0, 1.0, [0.9, 0.05, 0.05])]
        ...                   ).logLoss()
        1.6094379124341003
        """
        if self._proba is None:
            raise ValueError("logLoss needs rows of (prediction, label, weight, probabilities)")
        p = np.array([row[int(c)] for row, c in zip(self._proba, self._label)], dtype=float)
        return float(np.sum(-np.log(np.clip(p, eps, 1 - eps)) * self._w) / np.sum(self._w))


# -- RankingMetrics (one block, appended: evalkit.ranking with the Spark convention) -------

def _relevance_of(row, name):
    """A row's relevance grades (Spark 3.4+: ``(prediction, labels, relevance)``), or []."""
    if len(row) == 3:
        return check_grades(list(row[2]), f"{name} relevance").tolist()
    return []


def _grade_map(labels, relevance):
    """Spark's ``relMap``: label -> grade (the last wins), every label 1.0 without grades."""
    if relevance:
        return dict(zip(labels, relevance))
    return dict.fromkeys(labels, 1.0)


def _with_given_ideal(hits, labels, grade_maps, judged):
    """``hits`` with Spark's graded ideal: the label array as given, its first |labSet| grades."""
    given = np.zeros((len(labels), max(map(len, judged), default=0)))
    for i, (lab, grade_of) in enumerate(zip(labels, grade_maps)):
        n_judged = len(judged[i])
        given[i, :n_judged] = [grade_of.get(x, 0.0) for x in lab[:n_judged]]
    # a new RankingHits: hits are never changed once built
    return RankingHits(hits.user, hits.position, hits.gain, hits.n_relevant, hits.n_ranked,
                       hits.ideal, given, hits.graded, hits.n_judged)


#: Spark's options for evalkit.ranking's steps: a row without labels scores 0, unwarned.
_SPARK_RANKING = resolve_options("spark", zero_division=0.0)


class RankingMetrics:
    """Spark MLlib's ``RankingMetrics`` on numpy: :mod:`evalkit.ranking`, ``convention="spark"``.

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

    def __init__(self, predictionAndLabels: Iterable[tuple]) -> None:
        name = "predictionAndLabels"
        rows = check_ranking_rows(predictionAndLabels, name)
        p_items, p_off = check_ranked([r[0] for r in rows], f"{name} predictions")
        l_items, l_off = check_ranked([r[1] for r in rows], f"{name} labels")
        labels = [l_items[a:b].tolist() for a, b in zip(l_off[:-1], l_off[1:])]
        relevances = [_relevance_of(row, name) for row in rows]
        graded = any(relevances)
        # Spark: labSet = labels.toSet; relMap = (labels zip relevance).toMap (the last grade wins)
        grade_maps = [_grade_map(lab, rel) for lab, rel in zip(labels, relevances)]
        judged = []   # labSet's grades
        for lab, grade_of in zip(labels, grade_maps):
            judged.append({x: grade_of.get(x, 0.0) for x in lab})
        t_items, t_off, grades = check_relevant(judged, len(rows), f"{name} labels")
        if not graded:
            grades = None
        hits = ranking_hits(p_items, p_off, t_items, t_off, grades, repeats="count",
                            names=(f"{name} predictions", f"{name} labels"))
        if graded:
            hits = _with_given_ideal(hits, labels, grade_maps, judged)
        self._hits = hits

    def __repr__(self):
        return f"RankingMetrics({self._hits.n_users} rows)"

    def _spark(self, metric, k=None):
        """One metric by its step in evalkit.ranking's table (not its public function)."""
        return METRICS[metric].score(self._hits, k, _SPARK_RANKING)

    @validate_params(k=K)
    def precisionAt(self, k: int) -> float:
        """Mean precision at k: labels among the first k predictions / k (0 for no labels)."""
        return self._spark("precision", k)

    @validate_params(k=K)
    def recallAt(self, k: int) -> float:
        """Mean recall at k: labels among the first k predictions / |labels| (Spark 3.0+)."""
        return self._spark("recall", k)

    @property
    def meanAveragePrecision(self) -> float:
        """Mean average precision: per row (Σ_{hits} precision at the hit) / |labels|."""
        return self._spark("map")

    @validate_params(k=K)
    def meanAveragePrecisionAt(self, k: int) -> float:
        """Mean average precision at k.

        Per row (Σ_{hits ≤ k} precision at the hit) / min(|labels|, k).
        """
        return self._spark("map", k)

    @validate_params(k=K)
    def ndcgAt(self, k: int) -> float:
        """Mean NDCG at k, Spark's way: gains 2^rel - 1 (1 for binary rows), ideal as given."""
        return self._spark("ndcg", k)


# -- RegressionMetrics (one block, appended: evalkit._errors' sums, Spark's formulas) -------

class RegressionMetrics:
    """Spark MLlib's ``RegressionMetrics`` on numpy: ``(prediction, observation[, weight])`` rows.

    With weights ``w`` (1.0 per row without a weight column), ``W = Σ w`` and
    ``ȳ`` the weighted mean observation:

    * ``meanAbsoluteError`` = Σ w |y − ŷ| / W, ``meanSquaredError`` =
      Σ w (y − ŷ)² / W, ``rootMeanSquaredError`` its square root (as
      :func:`evalkit.mean_absolute_error` and the others);
    * ``explainedVariance`` = Σ w (ŷ − ȳ)² / W: Spark's "explained
      variance" is the spread of the predictions around the mean label --
      not :func:`evalkit.explained_variance_score` (scikit-learn's
      ``1 − Var(y − ŷ) / Var(y)``);
    * ``r2`` = 1 − Σ w (y − ŷ)² / SStot, Spark's ``SStot`` (equal to
      scikit-learn's Σ w (y − ȳ)² without weights, not with them:
      :func:`evalkit._errors.spark_fit_scores`); with ``throughOrigin=True``
      (a model without intercept, Scala's constructor argument) 1 − Σ w (y − ŷ)² / Σ w y².
      No ``force_finite``: a constant observation gives −inf or nan.

    The names and kinds are PySpark's: every metric is a property.

    Parameters
    ----------
    predictionAndObservations : array-like of shape (n, 2) or (n, 3)
        Rows of ``(prediction, observation)`` or ``(prediction, observation,
        weight)``; Spark's order, prediction first.
    throughOrigin : bool, default False

    Examples
    --------
    >>> metrics = RegressionMetrics([(2.5, 3.0), (0.0, -0.5), (2.0, 2.0), (8.0, 7.0)])
    >>> metrics.meanAbsoluteError, metrics.meanSquaredError, round(metrics.r2, 4)
    (0.5, 0.375, 0.9486)
    >>> round(metrics.explainedVariance, 4)
    8.859
    """

    @validate_params(throughOrigin=Bool())
    def __init__(self, predictionAndObservations: ArrayLike, throughOrigin: bool = False) -> None:
        pred, y, w = check_score_and_labels(predictionAndObservations, "predictionAndObservations",
                                            what=("predictions", "observations"))
        if w is None:
            w = np.ones(len(y))
        total = float(w.sum())
        mean = float(np.dot(w, y)) / total
        error = y - pred
        abs_sum = float(np.dot(w, np.abs(error)))
        sq_sum = float(np.dot(w, error ** 2))   # Σ w (y − ŷ)², for both tables
        self._errors = errors_from_sums(total, abs_sum, sq_sum)
        self._fit = spark_fit_scores(
            total,
            float(np.dot(w, w)),
            sq_sum,
            float(np.dot(w, (y - mean) ** 2)),
            float(np.dot(w, (pred - mean) ** 2)),
            float(np.dot(w, y ** 2)),
            through_origin=throughOrigin,
        )

    # Spark's properties, each one number of the sums above

    @property
    def explainedVariance(self) -> float:
        """Σ w (ŷ − ȳ)² / Σ w: the predictions' spread around ȳ."""
        return self._fit["var"]

    @property
    def meanAbsoluteError(self) -> float:
        """Σ w |y − ŷ| / Σ w."""
        return self._errors["mae"]

    @property
    def meanSquaredError(self) -> float:
        """Σ w (y − ŷ)² / Σ w."""
        return self._errors["mse"]

    @property
    def rootMeanSquaredError(self) -> float:
        """√(Σ w (y − ŷ)² / Σ w)."""
        return self._errors["rmse"]

    @property
    def r2(self) -> float:
        """1 − Σ w (y − ŷ)² / SStot (Spark's SStot; Σ w y² through the origin)."""
        return self._fit["r2"]


# -- MultilabelMetrics (one block, appended: multilabel counts through _ratios) -----------

def _indicators(codes, offsets, n_rows, n_classes):
    """An n_rows x n_classes boolean matrix: True where a row's list holds the class."""
    matrix = np.zeros((n_rows, n_classes), bool)
    row_of = np.repeat(np.arange(n_rows), np.diff(offsets))
    matrix[row_of, codes] = True
    return matrix


class MultilabelMetrics:
    """Spark MLlib's ``MultilabelMetrics`` on numpy: ``(predictions, labels)`` rows of label sets.

    Each row (a document) holds the array of predicted labels and the array
    of true labels (numbers, each array without repeats). From the indicator
    counts of :func:`evalkit._counts.multilabel_counts` -- per document
    ``|P ∩ L|``, ``|P|``, ``|L|``; per label tp, fp, fn -- and Spark's
    conventions, with n documents:

    * ``subsetAccuracy`` = documents whose predicted array equals the true
      array, element by element in order (Spark compares the arrays, not
      the sets), / n;
    * ``accuracy`` = mean of ``|P ∩ L| / |P ∪ L|`` (nan when a document has
      neither); ``hammingLoss`` = Σ (|P| + |L| − 2 |P ∩ L|) / (n · number of
      distinct true labels);
    * ``precision()`` = mean of ``|P ∩ L| / |P|`` (0 for an empty P),
      ``recall()`` = mean of ``|P ∩ L| / |L|`` (nan for an empty L),
      ``f1Measure()`` = mean of ``2 |P ∩ L| / (|P| + |L|)``: scikit-learn's
      ``average="samples"`` with other empty-set rules;
    * ``precision(label)``, ``recall(label)`` = tp / (tp + fp), tp / (tp + fn)
      of one label (0.0 when undefined), ``f1Measure(label)`` = 2·P·R / (P + R)
      (0.0 when P + R = 0); ``microPrecision``, ``microRecall``,
      ``microF1Measure`` from the counts summed over labels (scikit-learn's
      ``average="micro"``).

    :attr:`labels` are Spark's: the labels with at least one true positive,
    ascending; the per-label metrics take those (Spark fails on others).

    Examples
    --------
    PySpark's own example:

    >>> metrics = MultilabelMetrics([([0.0, 1.0], [0.0, 2.0]), ([0.0, 2.0], [0.0, 1.0]),
    ...     ([], [0.0]), ([2.0], [2.0]), ([2.0, 0.0], [2.0, 0.0]),
    ...     ([0.0, 1.0, 2.0], [0.0, 1.0]), ([1.0], [1.0, 2.0])])
    >>> metrics.precision(0.0), round(metrics.recall(1.0), 4), metrics.f1Measure(2.0)
    (1.0, 0.6667, 0.5)
    >>> round(metrics.precision(), 4), round(metrics.recall(), 4), round(metrics.f1Measure(), 4)
    (0.6667, 0.6429, 0.6381)
    >>> round(metrics.microF1Measure, 4), round(metrics.hammingLoss, 4), \
round(metrics.subsetAccuracy, 4)
    (0.6957, 0.3333, 0.2857)
    """

    def __init__(self, predictionAndLabels: Iterable[tuple]) -> None:
        name = "predictionAndLabels"
        rows = check_ranking_rows(predictionAndLabels, name)
        p_items, p_off = check_ranked([r[0] for r in rows], f"{name} predictions")
        l_items, l_off = check_ranked([r[1] for r in rows], f"{name} labels")
        classes, l_codes, p_codes = encode_labels(l_items.astype(np.float64),
                                                  p_items.astype(np.float64))
        n = len(rows)
        truth = _indicators(l_codes, l_off, n, len(classes))
        predicted = _indicators(p_codes, p_off, n, len(classes))
        self._n = n
        self._n_labels = int(truth.any(axis=0).sum())
        # per document: |P∩L|, |P|, |L|
        self._hit, self._n_pred, self._n_true = multilabel_counts(truth, predicted, samplewise=True)
        per_label = multilabel_counts(truth, predicted)   # tp, tp + fp, tp + fn
        keep = per_label[0] > 0   # Spark's labels: those with a true positive
        self._classes = classes[keep]
        precision, recall, f1 = _label_prf(*per_label)
        self._per_label = [precision[keep], recall[keep], f1[keep]]
        totals = [np.sum(x, keepdims=True) for x in per_label]
        self._micro = prf(*totals, zero_division=np.nan, warn_for=())[:3]
        same = [np.array_equal(np.asarray(r[0], float), np.asarray(r[1], float)) for r in rows]
        self._subset = float(np.sum(same)) / n

    def _of_label(self, metric, label):
        i = _position(self._classes, label, " (Spark's: those with a true positive)")
        return float(self._per_label[metric][i])

    @property
    def labels(self) -> np.ndarray:
        """The labels with at least one true positive, ascending (Scala's ``labels``)."""
        return self._classes.copy()

    def _mean(self, numerator, denominator, undefined):
        values = ratio(numerator, denominator, zero_division=undefined)
        return float(np.sum(values)) / self._n

    def precision(self, label: float | None = None) -> float:
        """Mean of |P ∩ L| / |P| over documents (0 for an empty P); or a label's tp / (tp + fp)."""
        if label is not None:
            return self._of_label(0, label)
        return self._mean(self._hit, self._n_pred, 0.0)

    def recall(self, label: float | None = None) -> float:
        """Mean of |P ∩ L| / |L| over documents (nan for an empty L), or a label's tp / (tp + fn).
        """
        if label is not None:
            return self._of_label(1, label)
        return self._mean(self._hit, self._n_true, np.nan)

    def f1Measure(self, label: float | None = None) -> float:
        """Mean of 2 |P ∩ L| / (|P| + |L|) over documents; or one label's 2·P·R / (P + R)."""
        if label is not None:
            return self._of_label(2, label)
        return self._mean(2.0 * self._hit, self._n_pred + self._n_true, np.nan)

    @property
    def microPrecision(self) -> float:
        """Σ tp / (Σ tp + Σ fp) over labels."""
        return float(self._micro[0][0])

    @property
    def microRecall(self) -> float:
        """Σ tp / (Σ tp + Σ fn) over labels."""
        return float(self._micro[1][0])

    @property
    def microF1Measure(self) -> float:
        """2 Σ tp / (2 Σ tp + Σ fp + Σ fn) over labels."""
        return float(self._micro[2][0])

    @property
    def hammingLoss(self) -> float:
        """Σ (|P| + |L| − 2 |P ∩ L|) / (n · number of distinct true labels)."""
        differ = self._n_pred + self._n_true - 2 * self._hit
        return float(np.sum(differ)) / (self._n * self._n_labels)

    @property
    def subsetAccuracy(self) -> float:
        """The share of documents whose predicted array equals the true array."""
        return self._subset

    @property
    def accuracy(self) -> float:
        """Mean of |P ∩ L| / |P ∪ L| over documents (nan when a document has neither)."""
        return self._mean(self._hit, self._n_pred + self._n_true - self._hit, np.nan)
