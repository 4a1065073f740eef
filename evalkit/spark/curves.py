"""Spark MLlib's ``BinaryClassificationMetrics`` on a DataFrame: the threshold sweep as counts.

The numpy siblings: :class:`evalkit.mllib.BinaryClassificationMetrics` (whose
methods every result has) and :mod:`evalkit.curves`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import dataclasses
import functools
import threading
import weakref

import numpy as np

from .._curves import pr_points, roc_points, trapezoid
from .._sweep import Sweep, sweep_of
from .._validation import NUM_BINS, ZERO_WEIGHT, validate_params
from ..mllib import BinaryClassificationMetrics
from ._frame import (COLUMN, DATAFRAME, NOT_FINITE, NUMERIC, OnExecutors, column_type, not_finite,
                     raise_first)

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame

_BUCKET, _S, _Y, _W = "__evalkit_bucket", "__evalkit_s", "__evalkit_y", "__evalkit_w"
_QUANTILES = 64           # score quantiles taken in the first job, to cut buckets from
_ROWS_PER_BUCKET = 250_000   # rows per bucket the executors sweep (at most 4 per core)
_PROBE_ROWS = 10_000      # the first rows, read to guess whether the scores are few
_MAX_GROUPED = 1 << 17    # at most this many distinct scores: counted per score in one job
_HLL_SAMPLE = 16          # the distinct-score estimate hashes 1 score in 16
# At most this many distinct scores (estimated): counted per partition and collected, areas
# too (one scan beats the buckets' three jobs and shuffle). The driver's bound: about 24
# bytes a score arrive (400 MB here), and its numpy sweep peaks near 100 bytes a score.
_MAX_COLLECTED = 1 << 24


def _sweep_of_counts(s, pos, neg, weighted):
    """The exact sweep of ``(score, positives, negatives)`` rows, in any order.

    One sample a row (no weights): evalkit's sort-only sweep; else the rows
    are counts (or weights) per score, a score possibly repeated: the sweep
    of their positive and negative halves as weighted samples, every score
    kept as a threshold (a score of weight 0 too, as Spark keeps it).
    """
    if not weighted and (pos + neg == 1).all():
        return sweep_of(pos.astype(bool), s)
    return sweep_of(np.arange(2 * len(s)) < len(s), np.r_[s, s], np.r_[pos, neg], "keep")


def _schema(weighted):
    count = "long"
    if weighted:
        count = "double"
    return f"t double, tp {count}, fp {count}"


def _partition_counts(batches, *, weighted):
    """Runs on an executor: the counts per distinct score of one input partition.

    No shuffle: each partition sweeps its own rows (evalkit's numpy sweep);
    the driver adds the partitions' counts -- counts add.
    """
    import pyarrow as pa

    batches = [b for b in batches if b.num_rows]
    if batches:
        table = pa.Table.from_batches(batches)
        local = _sweep_of_counts(*(table.column(i).to_numpy() for i in range(3)), weighted)
        tp, fp = local.groups()
        yield from pa.table({"t": local.thresholds, "tp": tp, "fp": fp}).to_batches()


def _bucket(table, *, offsets, totals, grouping, m, weighted, ends=None):
    """Runs on an executor: the sweep of one bucket (a range of scores), from its offsets.

    ``table`` holds the rows of one bucket (all copies of each of its scores):
    the bucket id, score and positive and negative counts (or weights).
    Sorted and counted per distinct score with evalkit's own sweep, then
    started at the bucket's offsets -- the counts of every higher bucket --
    to give the global cumulative counts; ``numBins`` chunks (``grouping``
    distinct scores each) are cut at global distinct indices. Returns the
    kept points, or with ``ends`` (the first and the last bucket; every
    distinct score a point) one row: the bucket's ROC and PR trapezoids,
    from the point before it (its offsets), left to right.
    """
    import pyarrow as pa

    b = int(table.column(0)[0].as_py())
    columns = (table.column(i).to_numpy() for i in (1, 2, 3))
    local = _sweep_of_counts(*columns, weighted)
    t0, f0, d0 = offsets[b]
    index = np.arange(int(d0), int(d0) + len(local))   # the global distinct index
    keep = slice(None)
    if grouping >= 2:
        # the last score of each numBins chunk, and the last score of all
        keep = ((index + 1) % grouping == 0) | (index == m - 1)
    t = local.thresholds[keep]
    tps = local.tps[keep] + t0
    fps = local.fps[keep] + f0
    if ends is None:
        return pa.table({"t": t, "tp": tps, "fp": fps})
    # the first bucket starts at Spark's first points: (0, 0) and (0, precision at the top);
    # every other bucket starts at the point before it (its offsets): its first trapezoid
    # starts there
    lead = int(b != ends[0])
    points = Sweep(None, np.r_[t0, tps][1 - lead:], np.r_[f0, fps][1 - lead:], *totals)
    fpr, tpr = roc_points(points, "spark")
    # Spark's last ROC point (1, 1) belongs to the last bucket only
    stop = -1
    if b == ends[1]:
        stop = None
    fpr, tpr = fpr[lead:stop], tpr[lead:stop]
    recall, precision = (v[lead:] for v in pr_points(points, "spark"))
    return pa.table({"b": [b], "roc": [trapezoid(fpr, tpr, partitions=[len(fpr)])],
                     "pr": [trapezoid(recall, precision, partitions=[len(recall)])]})


class SparkBinaryClassificationMetrics(BinaryClassificationMetrics):
    """:class:`evalkit.BinaryClassificationMetrics` whose counts live on a Spark cluster.

    Returned by :func:`binary_metrics`. Every method of the numpy mirror is
    here, with the same numbers. How the counts are made is :attr:`path`:
    grouped in the first job, or by each input partition when the curve is
    first needed (an area too), or -- beyond 16,777,216 distinct scores --
    the two exact areas on the executors (one row per bucket reaches the
    driver) and the curve collected only when a method needs it
    (``thresholds``, ``roc``, ``pr``, ``*ByThreshold``, ``sweep``). Once
    collected, everything is numpy on the driver.

    Attributes
    ----------
    n_pos, n_neg : int or float
        The positives and negatives (sums of weights with a weight column).
    num_distinct : int or None
        The number of distinct scores, when counted (not with ``"buckets"``
        and ``num_bins=0``).
    num_buckets : int
        The ranges of scores the sweep was cut into on the cluster (0 but
        with ``"buckets"``).
    """

    def __init__(self, num_bins: int, zero_weight: str, totals: tuple[float, float],
                 exact: Sweep | None = None, plan: _Plan | None = None) -> None:
        # Spark's options -- one partition, a chunk labelled by its last score, Spark's first
        # PR point -- through the numpy mirror's one constructor; the rows stay on the
        # cluster, so the sweep starts as None and `sweep` collects it on first use.
        self._exact = exact
        self._plan = plan
        self._cut = None
        self._areas = None
        # one lock for every memo: two threads using a new result run each job once
        self._lock = threading.RLock()
        self._start(None, num_bins=num_bins, bin_threshold="last", convention="spark",
                    num_partitions=1, zero_weight=zero_weight)
        self.n_pos, self.n_neg = totals

    def __repr__(self):
        return (f"SparkBinaryClassificationMetrics(P={self.n_pos}, N={self.n_neg}, num_bins="
                f"{self.num_bins}, curve {'not ' * (self._sweep is None)}collected)")

    @property
    def path(self) -> str:
        """How the counts are made: ``"grouped"``, ``"partitions"`` or ``"buckets"``.

        ``"grouped"``: few distinct scores (at most 131,072; the first 10,000
        rows decide whether to try), so the first job counted the rows per
        score and everything since is numpy on the driver. ``"partitions"``:
        at most 16,777,216 distinct scores (the first job's estimate): the
        first use of the curve or of an area runs one job without a shuffle
        -- each input partition counts its own scores, the driver adds the
        counts (about 24 bytes a score, 400 MB at most) -- and everything since is numpy on
        the driver. ``"buckets"``: more distinct scores; the executors sweep
        ranges of scores and only the two areas, or the ``num_bins`` points,
        reach the driver (see :func:`binary_metrics`); the exact curve, when
        a method needs it, is counted as with ``"partitions"``.
        """
        if self._plan is None:
            return "grouped"
        if self._plan.distinct > _MAX_COLLECTED:
            return "buckets"
        return "partitions"

    @property
    def num_buckets(self) -> int:
        """The ranges of scores the executors sweep (cut on first use; 0 but on ``"buckets"``)."""
        if self.path != "buckets":
            return 0
        return len(self._buckets()["offsets"])

    @property
    def num_distinct(self) -> int | None:
        """The number of distinct scores, when counted (see the class's attributes)."""
        if self.path != "buckets":
            return len(self._exact_sweep())
        if not self.num_bins:
            return None
        return self._buckets()["m"]

    @property
    def sweep(self) -> Sweep:
        """The (binned) threshold sweep, collected from the cluster on first use."""
        with self._lock:
            if self._sweep is None:
                self._sweep = self._collect_sweep()
        return self._sweep

    @sweep.setter
    def sweep(self, value):
        # the one constructor (`_start`) sets None here: not collected yet
        self._sweep = value

    def _collect_sweep(self):
        if self.path == "buckets" and self.num_bins:
            return self._binned_on_buckets()
        return self._exact_sweep().binned(self.num_bins)

    @property
    def areaUnderROC(self) -> float:
        """Area under the ROC curve by trapezoids, as Spark's ``areaUnderROC``.

        On ``"buckets"`` with ``num_bins=0`` computed on the executors (each
        bucket sums its trapezoids from the point before it; the driver adds
        the buckets' sums) until the curve is collected; otherwise the numpy
        mirror's computation on the curve.
        """
        if self._areas_on_cluster():
            return self._executor_areas()[0]
        return super().areaUnderROC

    @property
    def areaUnderPR(self) -> float:
        """Area under the PR curve by trapezoids, as Spark's ``areaUnderPR``.

        Computed where :attr:`areaUnderROC` is.
        """
        if self._areas_on_cluster():
            return self._executor_areas()[1]
        return super().areaUnderPR

    def _areas_on_cluster(self):
        return self._sweep is None and self.path == "buckets" and not self.num_bins

    def _buckets(self):
        """The scores cut into buckets and each bucket's offsets (see :meth:`_cut_buckets`)."""
        with self._lock:
            if self._cut is None:
                self._cut = self._cut_buckets()
        return self._cut

    def _cut_buckets(self):
        """Cut the scores into buckets (ranges) and total each: two jobs.

        The per-bucket totals (and distinct scores with ``num_bins``) become
        offsets, the counts above each bucket, as Spark's ``scanLeft``.
        """
        from pyspark.sql import functions as F

        plan = self._plan
        bounds = _bucket_bounds(plan)
        S = F.col(_S)
        # bucket 0 holds the highest scores: a score's bucket is the number of bounds above it
        below_each = [(S < float(bound)).cast("int") for bound in bounds]
        bucket = sum(below_each, F.lit(0))
        rows = plan.counted.select(bucket.alias(_BUCKET), S, "p", "q")
        if plan.ties:
            # one row per (bucket, score), combined map-side: small, so cached for the two
            # jobs that read it (unpersisted after the second, or when this result goes)
            per_score = rows.groupBy(_BUCKET, _S).agg(F.sum("p").alias("p"),
                                                      F.sum("q").alias("q"))
            rows = per_score.cache()
            release = weakref.finalize(self, rows.unpersist)
            release.atexit = False   # at exit the session may be gone
        per_bucket = self._bucket_totals(rows, bounds)
        ids = [row[0] for row in per_bucket]
        dtype = np.int64
        if plan.weighted:
            dtype = np.float64
        totals = np.array([row[1:] for row in per_bucket], dtype=dtype)
        # each bucket's offsets: the positives, negatives and distinct scores above it
        before = np.r_[np.zeros((1, 3), dtype), totals[:-1]]
        offsets = np.cumsum(before, axis=0)
        return {"rows": rows, "offsets": dict(zip(ids, offsets.tolist())),
                "m": int(totals[:, 2].sum()), "ends": (ids[0], ids[-1])}

    def _bucket_totals(self, rows, bounds):
        """``(bucket, positives, negatives, distinct scores)`` per bucket, in order (one job).

        One bucket and no ``num_bins``: the totals are known, no job.
        """
        from pyspark.sql import functions as F

        if not bounds and not self.num_bins:
            return [(0, self.n_pos, self.n_neg, 0)]
        # the distinct scores are counted only to cut num_bins chunks
        distinct = F.lit(0)
        if self.num_bins and self._plan.ties:
            distinct = F.count(F.lit(1))   # the rows are one per score already
        elif self.num_bins:
            distinct = F.countDistinct(_S)
        totals = rows.groupBy(_BUCKET).agg(F.sum("p"), F.sum("q"), distinct).collect()
        return sorted(tuple(row) for row in totals)

    def _on_buckets(self, schema, **ends):
        """Sweep every bucket on an executor (:func:`_bucket`): one job, its table."""
        cut = self._buckets()
        grouping = 0
        if self.num_bins:
            grouping = cut["m"] // self.num_bins
        fn = functools.partial(_bucket, offsets=cut["offsets"], totals=(self.n_pos, self.n_neg),
                               grouping=grouping, m=cut["m"], weighted=self._plan.weighted,
                               **ends)
        job = cut["rows"].groupBy(_BUCKET).applyInArrow(fn, schema)
        try:
            with OnExecutors():
                return job.toArrow()
        finally:
            # the last job that reads the rows (the areas, or the num_bins points: one of them)
            cut["rows"].unpersist()

    def _executor_areas(self):
        with self._lock:
            if self._areas is None:
                ends = self._buckets()["ends"]
                table = self._on_buckets("b long, roc double, pr double", ends=ends)
                table = table.sort_by("b")
                self._areas = tuple(sum(table.column(c).to_pylist()) for c in ("roc", "pr"))
        return self._areas

    def _binned_on_buckets(self):
        table = self._on_buckets(_schema(self._plan.weighted))
        table = table.sort_by([("t", "descending")])
        columns = (table.column(c).to_numpy() for c in ("t", "tp", "fp"))
        return Sweep(*columns, self.n_pos, self.n_neg)

    def _exact_sweep(self):
        """The counts per distinct score, collected once (see :meth:`_count_exact`)."""
        with self._lock:
            if self._exact is None:
                self._exact = self._count_exact()
        return self._exact

    def _count_exact(self):
        """The counts per distinct score: one job, no shuffle."""
        from pyspark.sql import functions as F

        weighted = self._plan.weighted
        counted = self._plan.counted
        if self._plan.ties:
            # few distinct scores: Spark's own hash aggregation, map-side
            table = counted.groupBy(_S).agg(F.sum("p"), F.sum("q")).toArrow()
        else:
            # distinct scores: each partition counts its own in numpy, no shuffle
            count = functools.partial(_partition_counts, weighted=weighted)
            with OnExecutors():
                table = counted.mapInArrow(count, _schema(weighted)).toArrow()
        columns = (table.column(i).to_numpy() for i in range(3))
        return _sweep_of_counts(*columns, weighted)


def _bucket_bounds(plan):
    """The scores that cut the rows into buckets, highest first (a job; none for one bucket).

    About ``_ROWS_PER_BUCKET`` rows a bucket, at most 4 buckets a core and
    ``_QUANTILES`` in all; the bounds are among the scores' approximate
    quantiles, evenly spaced, duplicates merged (all copies of a score fall
    in one bucket).
    """
    from pyspark.sql import functions as F

    wanted = -(-plan.n // _ROWS_PER_BUCKET)   # rows / rows per bucket, rounded up
    num = int(min(max(1, wanted), 4 * plan.parallelism, _QUANTILES))
    if num == 1:
        return []
    levels = [i / _QUANTILES for i in range(1, _QUANTILES)]
    found = plan.counted.agg(F.percentile_approx(F.col(_S), levels, 100)).head()[0]
    quantiles = sorted(set(found or []))
    if not quantiles:
        return []
    positions = np.linspace(0, len(quantiles), num + 1)[1:-1]
    last = len(quantiles) - 1
    bounds = {quantiles[min(int(i), last)] for i in positions}
    return sorted(bounds, reverse=True)


@dataclasses.dataclass(frozen=True)
class _Plan:
    """What the first job found, for the paths that count on the cluster later."""

    counted: Any       # DataFrame: a row's score, and its positive and negative count or weight
    n: int             # the rows
    weighted: bool
    parallelism: int   # the input's partitions
    distinct: int      # the distinct scores (estimated)
    ties: bool         # many rows a score: aggregate per score (in the JVM) first


@validate_params(df=DATAFRAME, label_col=COLUMN, score_col=COLUMN, weight_col=[None, COLUMN],
                 num_bins=NUM_BINS, zero_weight=ZERO_WEIGHT)
def binary_metrics(df: DataFrame, *, label_col: str = "label", score_col: str = "score",
                   weight_col: str | None = None, num_bins: int = 0,
                   zero_weight: str = "keep") -> SparkBinaryClassificationMetrics:
    """Spark MLlib's ``BinaryClassificationMetrics`` on a DataFrame, computed as counts.

    Every distinct score ``t`` (highest first) is a threshold; ``TP(t)`` and
    ``FP(t)`` count the positive and negative rows scored ``>= t`` (sums of
    weights with ``weight_col``); precision, recall, F-measure, ROC and PR
    follow with Spark's conventions (see :class:`evalkit.BinaryClassificationMetrics`).
    The sweep is computed on the cluster the way Spark computes it --
    counts per distinct score, sorted descending, a total per part of the
    sorted scores, offsets, running sums from each offset -- with DataFrame
    aggregations and Arrow batches instead of RDDs of Java objects, one of
    three ways (``path`` of the result says which):

    * ``"grouped"``, few distinct scores: when at most half of the first
      10,000 rows are distinct scores, one aggregation counts the rows per
      score and label (per score, with weights: their sums and checks), and
      the driver checks the columns on those counts; at most 131,072 scores reach
      the driver (more, and that result is dropped for the other ways), and
      everything after is the numpy mirror's code;
    * otherwise one aggregation validates the columns and takes the totals
      and an estimate of the distinct scores (from one score in 16); then

      - ``"partitions"``, at most 16,777,216 distinct scores (estimated):
        the first method that needs the curve or an area runs one job with
        no shuffle -- each input partition counts its own scores in numpy
        (Spark's hash aggregation when most scores repeat) and the driver
        adds the counts -- and everything after is numpy on the driver:
        a shuffle and two more jobs would cost more than those counts;
      - ``"buckets"``, more distinct scores, so the driver keeps only what
        is asked for: 64 approximate score quantiles cut the scores into
        buckets (ranges; all copies of a score fall in one) and one
        aggregation totals each bucket (and counts its distinct scores when
        ``num_bins > 0``); the driver turns the totals into offsets, as
        Spark's ``scanLeft``; each bucket is sorted and swept on an
        executor by evalkit's numpy sweep, started at its offset: without
        ``num_bins`` only its two areas leave it, with ``num_bins`` only
        its kept points. The exact curve, when a method needs it, is
        counted as on ``"partitions"``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col : str, default "label"
        0 or 1 (numeric or boolean); anything else is an error.
    score_col : str, default "score"
        Numeric, finite, not null.
    weight_col : str, optional
        Numeric, finite, >= 0; Spark 3's weighted metrics.
    num_bins : int, default 0
        Spark's ``numBins``: 0 keeps every distinct score; ``k > 0`` groups
        the ``m`` distinct scores into chunks of ``floor(m / k)`` consecutive
        ones (when that is >= 2), each labelled by its lowest score, as the
        numpy mirror does on one partition (Spark cuts its chunks within each
        partition of its own sort, so on several partitions its points move
        with the partitioning; these do not).
    zero_weight : {"keep", "drop"}, default "keep"
        With ``weight_col``: ``"keep"`` (Spark) lets a row of weight 0 make
        its score a threshold (its counts add nothing); ``"drop"``
        (scikit-learn's curves) leaves such rows out first.

    Returns
    -------
    SparkBinaryClassificationMetrics
        An :class:`evalkit.BinaryClassificationMetrics`.

    Raises
    ------
    ValueError
        Naming the column: missing, or of a non-numeric type (before any job
        runs); null, NaN or infinite scores, labels other than 0 and 1,
        null, NaN, infinite or negative weights, or no rows at all (from the
        first aggregation, after the small job that reads the first rows).

    Examples
    --------
    The Spark post's second data set (a session is needed; the tests run it):

    >>> from evalkit.spark import session, binary_metrics
    >>> spark = session()                                                 # doctest: +SKIP
    >>> rows = [(1.0, 1)] + [(0.6, 1)] * 5 + [(0.4, 1)] * 5 + [(0.0, 0)] * 89
    >>> df = spark.createDataFrame(rows, ["score", "label"])              # doctest: +SKIP
    >>> m = binary_metrics(df)                                            # doctest: +SKIP
    >>> m.fMeasureByThreshold()[:, 1].tolist()                         # doctest: +SKIP
    [0.16666666666666669, 0.7058823529411764, 1.0, 0.19819819819819817]
    """
    column_type(df, "score_col", score_col, NUMERIC, "numbers")
    column_type(df, "label_col", label_col, NUMERIC + ("BooleanType",),
                "0 or 1 (numbers or booleans)")
    column_type(df, "weight_col", weight_col, NUMERIC, "numbers")
    weighted = weight_col is not None
    base = _three_columns(df, score_col, label_col, weight_col, zero_weight)
    names = {"score": f"score_col {score_col!r}", "label": f"label_col {label_col!r}",
             "weight": f"weight_col {weight_col!r}"}
    per_score = _per_score_counts(base, weighted)
    if per_score is not None:
        first, table = per_score
        _raise_bad_values(first, names, weighted)
        columns = (table[c].to_numpy() for c in (_S, "pos", "neg"))
        exact = _sweep_of_counts(*columns, weighted)
        return SparkBinaryClassificationMetrics(num_bins, zero_weight, _totals(first, weighted),
                                                exact)
    first = _first_aggregation(base, weighted)
    _raise_bad_values(first, names, weighted)
    n = int(first["n"])
    distinct = (first["nd"] or 0) * _HLL_SAMPLE
    pos, neg = _label_weights()
    # many ties (rounded scores): count per distinct score first, map-side, in the JVM;
    # the input's partitions from the first job (no sparkContext, which Spark Connect lacks)
    plan = _Plan(counted=base.select(_S, pos.alias("p"), neg.alias("q")), n=n, weighted=weighted,
                 parallelism=int(first["parts"]) + 1, distinct=distinct, ties=distinct < n / 4)
    return SparkBinaryClassificationMetrics(num_bins, zero_weight, _totals(first, weighted),
                                            plan=plan)


def _three_columns(df, score_col, label_col, weight_col, zero_weight):
    """The score, label and weight as doubles (the weight a long 1 without ``weight_col``)."""
    from pyspark.sql import functions as F

    weight = F.lit(1).cast("long")
    if weight_col is not None:
        weight = F.col(weight_col).cast("double")
    base = df.select(F.col(score_col).cast("double").alias(_S),
                     F.col(label_col).cast("double").alias(_Y), weight.alias(_W))
    if weight_col is not None and zero_weight == "drop":
        # null and NaN weights stay, for the checks
        base = base.where(F.coalesce(F.col(_W) != 0.0, F.lit(True)))
    return base


def _label_weights():
    """A row's positive and negative count (or weight): its weight on its label's side."""
    from pyspark.sql import functions as F

    Y, W = F.col(_Y), F.col(_W)
    return F.when(Y == 1.0, W).otherwise(0), F.when(Y == 0.0, W).otherwise(0)


def _bad_label():
    """A label that is not 0 or 1 (null too)."""
    from pyspark.sql import functions as F

    return ~F.coalesce(F.col(_Y).isin(0.0, 1.0), F.lit(False))


def _weight_checks():
    """The weight column's checks, as aggregates: bad values, negative ones, the smallest."""
    from pyspark.sql import functions as F

    W = F.col(_W)
    return [F.count_if(not_finite(W)).alias("w_bad"), F.count_if(W < 0).alias("w_neg"),
            F.min(W).alias("w_min")]


def _per_score_counts(base, weighted):
    """Few distinct scores: the rows counted per score in one job, and its checks; else None.

    The first rows decide whether to try (rounded scores, or a model with
    few leaves); with more than ``_MAX_GROUPED`` scores after all the job's
    result is dropped for the general path. The probe is a job of its own
    because trying without it costs more: on distinct scores the grouped job
    shuffles every row before it can give up. Returns what the general path's
    first job gives (the checks and the totals) and the per-score table
    (columns ``_S``, ``pos``, ``neg``).
    """
    if _MAX_GROUPED <= 0:
        return None
    probe = base.select(_S).limit(_PROBE_ROWS).toArrow().column(0).to_numpy()
    if not len(probe) or len(np.unique(probe)) > len(probe) // 2:
        return None
    if weighted:
        return _per_score_weights(base)
    return _per_score_rows(base)


def _per_score_rows(base):
    """Without weights: the rows counted per (score, label) pair -- one count, no sums.

    The driver reads the checks off the pairs: a score that is not finite is
    a key, a label other than 0 or 1 (null too) is a key.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    pairs = base.groupBy(_S, _Y).count().limit(2 * _MAX_GROUPED + 1).toArrow()
    scores = pairs[_S].to_numpy()   # a null reads NaN
    labels = pairs[_Y].to_numpy()
    n = pairs["count"].to_numpy()
    keys, index = np.unique(scores, return_inverse=True)
    if len(pairs) > 2 * _MAX_GROUPED or len(keys) > _MAX_GROUPED:
        return None
    pos = np.bincount(index, weights=n * (labels == 1.0), minlength=len(keys))
    neg = np.bincount(index, weights=n * (labels == 0.0), minlength=len(keys))
    bad_label = ~np.isin(labels, (0.0, 1.0))
    first = {"n": int(n.sum()), "pos": int(pos.sum()), "neg": int(neg.sum()),
             "s_bad": int(n[~np.isfinite(scores)].sum()), "y_bad": int(n[bad_label].sum()),
             "y_example": pc.min(pairs[_Y].filter(pa.array(bad_label))).as_py()}
    table = pa.table({_S: keys, "pos": pos.astype(np.int64), "neg": neg.astype(np.int64)})
    return first, table


def _per_score_weights(base):
    """With weights: per score the rows, the labelled ones, the weights' sums and checks."""
    import pyarrow.compute as pc
    from pyspark.sql import functions as F

    pos, neg = _label_weights()
    example = F.min(F.when(_bad_label(), F.col(_Y)))
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(~_bad_label()).alias("labelled"),
            F.sum(pos).alias("pos"), F.sum(neg).alias("neg"), example.alias("y_example"),
            *_weight_checks()]
    table = base.groupBy(_S).agg(*aggs).limit(_MAX_GROUPED + 1).toArrow()
    if table.num_rows > _MAX_GROUPED:
        return None
    scores = table[_S].to_numpy()   # a null reads NaN
    n = table["n"].to_numpy()
    sums = {c: pc.sum(table[c]).as_py() for c in ("n", "labelled", "pos", "neg", "w_bad",
                                                  "w_neg")}
    first = {"n": sums["n"], "pos": sums["pos"], "neg": sums["neg"],
             "s_bad": int(n[~np.isfinite(scores)].sum()), "y_bad": sums["n"] - sums["labelled"],
             "y_example": pc.min(table["y_example"]).as_py(), "w_bad": sums["w_bad"],
             "w_neg": sums["w_neg"], "w_min": pc.min(table["w_min"]).as_py()}
    return first, table


def _first_aggregation(base, weighted):
    """The general path's first job: every check, the totals and the distinct scores, estimated."""
    from pyspark.sql import functions as F

    S, Y = F.col(_S), F.col(_Y)
    pos, neg = _label_weights()
    bad_label = _bad_label()
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(not_finite(S)).alias("s_bad"),
            F.count_if(bad_label).alias("y_bad"), F.min(F.when(bad_label, Y)).alias("y_example"),
            F.coalesce(F.sum(pos), F.lit(0)).alias("pos"),
            F.coalesce(F.sum(neg), F.lit(0)).alias("neg")]
    if weighted:
        aggs += _weight_checks()
    # the distinct scores, estimated from 1 score in _HLL_SAMPLE (chosen by hash)
    sampled = F.when(F.xxhash64(S) % _HLL_SAMPLE == 0, S)
    aggs += [F.approx_count_distinct(sampled, 0.05).alias("nd"),
             F.max("__evalkit_part").alias("parts")]
    row = base.withColumn("__evalkit_part", F.spark_partition_id()).agg(*aggs).collect()[0]
    return row.asDict()


def _raise_bad_values(first, names, weighted):
    """A ValueError naming the column, for the first check the first job found failing."""
    raise_first([
        (first["n"] == 0, "df is empty: binary_metrics needs at least one row"),
        (first["s_bad"], names["score"] + NOT_FINITE),
        (first["y_bad"], names["label"] + " must hold 0 or 1; {count} rows hold other values, "
         "such as " + repr(first["y_example"])),
        (first.get("w_bad"), names["weight"] + NOT_FINITE),
        (first.get("w_neg"), names["weight"] + " contains {count} negative values, such as "
         + repr(first.get("w_min")) + ": weights count rows and must be >= 0"),
        (weighted and first["pos"] + first["neg"] == 0,
         names["weight"] + " is all zeros: at least one row must count"),
    ])


def _totals(first, weighted):
    """The positives and negatives: counts, or sums of weights."""
    if weighted:
        return float(first["pos"]), float(first["neg"])
    return int(first["pos"]), int(first["neg"])


# -- Spark's own objects --------------------------------------------------------------------


def jvm_curve(metrics: Any, name: str, *args: Any) -> np.ndarray:
    """A curve of Spark's own ``BinaryClassificationMetrics``, as an ``(m, 2)`` numpy array.

    PySpark's Python ``BinaryClassificationMetrics`` exposes only the two
    areas; its JVM object has every curve (``"precisionByThreshold"``,
    ``"recallByThreshold"``, ``"fMeasureByThreshold"`` (with an optional
    beta), ``"roc"``, ``"pr"``) as an RDD of Scala tuples, which PySpark
    cannot convert. Its keys and its values (``JavaPairRDD.fromJavaRDD(...)
    .keys()`` / ``.values()``) are RDDs of doubles, which it can, in bulk.

    Parameters
    ----------
    metrics : pyspark.mllib.evaluation.BinaryClassificationMetrics or a py4j JavaObject
        PySpark's evaluator, or the JVM object itself.
    name : str
        The JVM method.
    *args
        Its arguments (beta for ``fMeasureByThreshold``).

    Returns
    -------
    ndarray of shape (m, 2)

    Raises
    ------
    RuntimeError
        On Spark Connect (no py4j, no RDDs): :func:`binary_metrics` gives the
        same curves from the DataFrame there.
    """
    from pyspark import SparkContext
    from pyspark.sql.utils import is_remote

    if is_remote() or SparkContext._active_spark_context is None:
        raise RuntimeError(
            "jvm_curve reads Spark's JVM objects through py4j, which a Spark Connect session "
            "does not have: use evalkit.spark.binary_metrics(df), whose roc(), pr() and "
            "*ByThreshold curves are Spark's, computed from the DataFrame")
    from pyspark.mllib.common import _java2py

    sc = SparkContext._active_spark_context
    java = getattr(metrics, "_java_model", metrics)
    pairs = sc._jvm.org.apache.spark.api.java.JavaPairRDD.fromJavaRDD(
        getattr(java, name)(*args).toJavaRDD())
    return np.column_stack([np.array(_java2py(sc, part).collect(), dtype=float)
                            for part in (pairs.keys(), pairs.values())])

