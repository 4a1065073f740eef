"""Spark MLlib's ``BinaryClassificationMetrics`` on a DataFrame: the threshold sweep as counts.

The numpy siblings: :class:`evalkit.mllib.BinaryClassificationMetrics` (whose
methods every result has) and :mod:`evalkit.curves`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import functools

import numpy as np

from .._curves import pr_points, roc_points, trapezoid
from .._sweep import Sweep, sweep_of
from .._validation import NUM_BINS, Options, validate_params
from ..mllib import BinaryClassificationMetrics
from ._frame import _COLUMN, _DF, _NOT_FINITE, _NUMERIC, _column, _not_finite, _raise_first
from .session import _OnExecutors

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
    count = "double" if weighted else "long"
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
    local = _sweep_of_counts(*(table.column(i).to_numpy() for i in (1, 2, 3)), weighted)
    t0, f0, d0 = offsets[b]
    index = np.arange(int(d0), int(d0) + len(local))   # the global distinct index
    keep = ((index + 1) % grouping == 0) | (index == m - 1) if grouping >= 2 else slice(None)
    t, tps, fps = local.thresholds[keep], local.tps[keep] + t0, local.fps[keep] + f0
    if ends is None:
        return pa.table({"t": t, "tp": tps, "fp": fps})
    # the first bucket starts at Spark's first points: (0, 0) and (0, precision at the top)
    lead = int(b != ends[0])
    points = Sweep(None, np.r_[t0, tps][1 - lead:], np.r_[f0, fps][1 - lead:], *totals)
    fpr, tpr = (v[lead:None if b == ends[1] else -1] for v in roc_points(points, "spark"))
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
                 exact: Any = None, **plan: Any) -> None:
        # The base's __init__ sweeps rows on the driver; these rows stay on the cluster. So the
        # same options are set here -- Spark's: one partition, a chunk labelled by its last
        # score, Spark's first PR point -- and `sweep` is the property that collects it.
        self.num_bins, self.bin_threshold, self.convention = num_bins, "last", "spark"
        self.num_partitions, self.zero_weight = 1, zero_weight
        self.n_pos, self.n_neg = totals
        self._exact, self._plan, self._cut, self._sweep, self._areas = exact, plan, None, None, None

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
        if not self._plan:
            return "grouped"
        return "buckets" if self._plan["distinct"] > _MAX_COLLECTED else "partitions"

    @property
    def num_buckets(self) -> int:
        """The ranges of scores the executors sweep (cut on first use; 0 but on ``"buckets"``)."""
        return len(self._buckets()["offsets"]) if self.path == "buckets" else 0

    @property
    def num_distinct(self) -> int | None:
        """The number of distinct scores, when counted (see the class's attributes)."""
        if self.path != "buckets":
            return len(self._exact_sweep())
        return self._buckets()["m"] if self.num_bins else None

    @property
    def sweep(self) -> Sweep:
        """The (binned) threshold sweep, collected from the cluster on first use."""
        if self._sweep is None and self.path == "buckets" and self.num_bins:
            self._sweep = self._binned_on_buckets()
        elif self._sweep is None:
            self._sweep = self._exact_sweep().binned(self.num_bins)
        return self._sweep

    @property
    def areaUnderROC(self) -> float:
        """Area under the ROC curve by trapezoids, as Spark's ``areaUnderROC``.

        On ``"buckets"`` with ``num_bins=0`` computed on the executors (each
        bucket sums its trapezoids from the point before it; the driver adds
        the buckets' sums) until the curve is collected; otherwise the numpy
        mirror's computation on the curve.
        """
        return self._executor_areas()[0] if self._areas_on_cluster() else super().areaUnderROC

    @property
    def areaUnderPR(self) -> float:
        """Area under the PR curve by trapezoids, as Spark's ``areaUnderPR``.

        Computed where :attr:`areaUnderROC` is.
        """
        return self._executor_areas()[1] if self._areas_on_cluster() else super().areaUnderPR

    def _areas_on_cluster(self):
        return self._sweep is None and self.path == "buckets" and not self.num_bins

    def _buckets(self):
        """Cut the scores into buckets (ranges) and total each: two jobs, on first use.

        The per-bucket totals (and distinct scores with ``num_bins``) become
        offsets, the counts above each bucket, as Spark's ``scanLeft``.
        """
        if self._cut is not None:
            return self._cut
        from pyspark.sql import functions as F

        plan, S = self._plan, F.col(_S)
        counted, ties = plan["counted"], plan["ties"]
        num = int(min(max(1, -(-plan["n"] // _ROWS_PER_BUCKET)), 4 * plan["parallelism"],
                      _QUANTILES))
        q = []
        if num > 1:
            q = sorted(set(counted.agg(F.percentile_approx(
                S, [i / _QUANTILES for i in range(1, _QUANTILES)], 100)).head()[0] or []))
        bounds = sorted({q[min(int(i), len(q) - 1)] for i in np.linspace(0, len(q), num + 1)[1:-1]}
                        if q else [], reverse=True)
        # bucket 0 holds the highest scores: the number of bounds above the score
        bucket = sum(((S < float(v)).cast("int") for v in bounds), F.lit(0))
        rows = counted.select(bucket.alias(_BUCKET), S, "p", "q")
        if ties:  # one row per (bucket, score), combined map-side; small, so cached
            rows = rows.groupBy(_BUCKET, _S).agg(F.sum("p").alias("p"), F.sum("q").alias("q"))
            rows = rows.cache()
        per = [(0, self.n_pos, self.n_neg, 0)]
        if bounds or self.num_bins:
            d = (F.count(F.lit(1)) if ties else F.countDistinct(_S)) if self.num_bins else F.lit(0)
            per = sorted(tuple(r) for r in rows.groupBy(_BUCKET).agg(F.sum("p"), F.sum("q"), d)
                         .collect())
        totals = np.array([r[1:] for r in per], dtype=np.float64 if plan["weighted"] else np.int64)
        above = np.cumsum(np.r_[np.zeros((1, 3), totals.dtype), totals[:-1]], axis=0)
        self._cut = {"rows": rows, "offsets": dict(zip([r[0] for r in per], above.tolist())),
                     "m": int(totals[:, 2].sum()), "ends": (per[0][0], per[-1][0])}
        return self._cut

    def _on_buckets(self, schema, **ends):
        cut, weighted = self._buckets(), self._plan["weighted"]
        fn = functools.partial(_bucket, offsets=cut["offsets"], totals=(self.n_pos, self.n_neg),
                               grouping=cut["m"] // self.num_bins if self.num_bins else 0,
                               m=cut["m"], weighted=weighted, **ends)
        with _OnExecutors():
            return cut["rows"].groupBy(_BUCKET).applyInArrow(fn, schema).toArrow()

    def _executor_areas(self):
        if self._areas is None:
            ends = self._buckets()["ends"]
            table = self._on_buckets("b long, roc double, pr double", ends=ends).sort_by("b")
            self._areas = tuple(sum(table.column(c).to_pylist()) for c in ("roc", "pr"))
        return self._areas

    def _binned_on_buckets(self):
        table = self._on_buckets(_schema(self._plan["weighted"])).sort_by([("t", "descending")])
        return Sweep(*(table.column(c).to_numpy() for c in ("t", "tp", "fp")), self.n_pos,
                     self.n_neg)

    def _exact_sweep(self):
        """The counts per distinct score, collected once (one job, no shuffle)."""
        if self._exact is not None:
            return self._exact
        from pyspark.sql import functions as F

        weighted, counted = self._plan["weighted"], self._plan["counted"]
        if self._plan["ties"]:  # few distinct scores: Spark's own hash aggregation, map-side
            table = counted.groupBy(_S).agg(F.sum("p"), F.sum("q")).toArrow()
        else:  # distinct scores: each partition counts its own in numpy, no shuffle
            with _OnExecutors():
                table = counted.mapInArrow(functools.partial(
                    _partition_counts, weighted=weighted), _schema(weighted)).toArrow()
        columns = (table.column(i).to_numpy() for i in range(3))
        self._exact = _sweep_of_counts(*columns, weighted)
        return self._exact


ZERO_WEIGHTS = Options({"keep": "Spark: a row of weight 0 still makes its score a threshold",
                        "drop": "scikit-learn: rows of weight 0 are left out"})


@validate_params(df=_DF, label_col=_COLUMN, score_col=_COLUMN, weight_col=[None, _COLUMN],
                 num_bins=NUM_BINS, zero_weight=ZERO_WEIGHTS)
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
      score and checks the columns at once; at most 131,072 scores reach
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
    from pyspark.sql import functions as F

    _column(df, "score_col", score_col, _NUMERIC, "numbers")
    _column(df, "label_col", label_col, _NUMERIC + ("BooleanType",), "0 or 1 (numbers or booleans)")
    _column(df, "weight_col", weight_col, _NUMERIC, "numbers")
    weighted = weight_col is not None
    S, Y, W = F.col(_S), F.col(_Y), F.col(_W)
    base = df.select(F.col(score_col).cast("double").alias(_S),
                     F.col(label_col).cast("double").alias(_Y),
                     (F.col(weight_col).cast("double") if weighted else F.lit(1).cast("long"))
                     .alias(_W))
    if weighted and zero_weight == "drop":   # null and NaN weights stay, for the checks
        base = base.where(F.coalesce(W != 0.0, F.lit(True)))
    pos, neg = (F.when(Y == v, W).otherwise(0) for v in (1.0, 0.0))
    bad_label = ~F.coalesce(Y.isin(0.0, 1.0), F.lit(False))
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(_not_finite(S)).alias("s_bad"),
            F.count_if(bad_label).alias("y_bad"), F.min(F.when(bad_label, Y)).alias("y_example"),
            F.coalesce(F.sum(pos), F.lit(0)).alias("pos"),
            F.coalesce(F.sum(neg), F.lit(0)).alias("neg")]
    if weighted:
        aggs += [F.count_if(_not_finite(W)).alias("w_bad"), F.count_if(W < 0).alias("w_neg"),
                 F.min(W).alias("w_min")]
    # Few distinct scores (rounded, or a model with few leaves): one job counts the rows
    # per score and checks the columns at once, and everything else is numpy on the
    # driver. The first rows decide whether to try; more than _MAX_GROUPED scores after
    # all and the job's result is dropped for the general path.
    exact = None
    if _MAX_GROUPED > 0:
        probe = base.select(S).limit(_PROBE_ROWS).toArrow().column(0).to_numpy()
        if len(probe) and len(np.unique(probe)) <= len(probe) // 2:
            grouped = base.groupBy(S).agg(*aggs).limit(_MAX_GROUPED + 1).toArrow()
            if grouped.num_rows <= _MAX_GROUPED:
                import pyarrow.compute as pc

                exact = grouped   # the checks and totals: the per-score rows added up
                first = {c: (pc.min if c in ("y_example", "w_min") else pc.sum)(exact[c]).as_py()
                         for c in exact.column_names}
    if exact is None:
        # the distinct scores, estimated from 1 score in _HLL_SAMPLE (chosen by hash)
        sampled = F.when(F.xxhash64(S) % _HLL_SAMPLE == 0, S)
        first = base.withColumn("__evalkit_part", F.spark_partition_id()).agg(
            *aggs, F.approx_count_distinct(sampled, 0.05).alias("nd"),
            F.max("__evalkit_part").alias("parts")).collect()[0].asDict()
    sc, lc, wc = (f"{arg} {col!r}" for arg, col in (
        ("score_col", score_col), ("label_col", label_col), ("weight_col", weight_col)))
    _raise_first([
        (first["n"] == 0, "df is empty: binary_metrics needs at least one row"),
        (first["s_bad"], sc + _NOT_FINITE),
        (first["y_bad"], lc + " must hold 0 or 1; {count} rows hold other values, such as "
         + repr(first["y_example"])),
        (first.get("w_bad"), wc + _NOT_FINITE),
        (first.get("w_neg"), wc + " contains {count} negative values, such as "
         + repr(first.get("w_min")) + ": weights count rows and must be >= 0"),
        (weighted and first["pos"] + first["neg"] == 0,
         wc + " is all zeros: at least one row must count"),
    ])
    totals = tuple((float if weighted else int)(first[c]) for c in ("pos", "neg"))
    if exact is not None:
        return SparkBinaryClassificationMetrics(num_bins, zero_weight, totals, _sweep_of_counts(
            *(exact[c].to_numpy() for c in (_S, "pos", "neg")), weighted))
    n, distinct = int(first["n"]), (first["nd"] or 0) * _HLL_SAMPLE
    # many ties (rounded scores): count per distinct score first, map-side, in the JVM;
    # the input's partitions from the first job (no sparkContext, which Spark Connect lacks)
    return SparkBinaryClassificationMetrics(
        num_bins, zero_weight, totals, counted=base.select(S, pos.alias("p"), neg.alias("q")),
        n=n, weighted=weighted, parallelism=int(first["parts"]) + 1, distinct=distinct,
        ties=distinct < n / 4)


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

