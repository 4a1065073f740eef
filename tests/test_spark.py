"""evalkit.spark against real PySpark (local mode) and against the numpy code.

Oracles: Spark's own JVM ``BinaryClassificationMetrics`` (built with the same
numBins, curves reached through the JVM object and converted in bulk),
``pyspark.ml.evaluation.BinaryClassificationEvaluator``, PySpark's
``MulticlassMetrics``, scikit-learn and evalkit's numpy functions on the
collected data. One SparkSession for the whole run (``spark`` fixture, session
scope); skipped without pyspark or Java -- except under ``CI=true``, where a
missing Spark fails. Data stay small: a few hundred rows per case.

The parity tests take ``any_spark`` (tests/conftest.py): each runs on a local
classic session, on Spark Connect and on a standalone cluster whose executors
lack evalkit (shipped with ``evalkit.spark.ship``), and must give the numpy
mirror's numbers on all three; the oracles that need the JVM (py4j) run on the
local session. Connect and the cluster run a representative subset of the
randomized cases (seeds marked below), the local session all of them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
import evalkit.spark as eks
from evalkit.spark import curves as spark_curves   # its tunables (bucket sizes) are patched
from evalkit.spark.session import _is_connect

SEED_FIRST = [(1.0, 1.0)] + [(0.0, 0.0)] * 89 + [(0.0, 1.0)] * 10
SEED_SCORES = [(1.0, 1.0)] + [(0.0, 0.0)] * 89 + [(0.6, 1.0)] * 5 + [(0.4, 1.0)] * 5

def frame(spark, rows, names=("score", "label", "weight"), partitions=1):
    """A DataFrame of doubles in ``partitions`` partitions (classic or Spark Connect)."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    rows = [tuple(None if v is None else float(v) for v in r) for r in rows]
    schema = StructType([StructField(n, DoubleType(), True) for n in names[:len(rows[0])]])
    df = spark.createDataFrame(rows, schema)
    return df.repartition(partitions) if partitions > 1 else df.coalesce(1)


def classic(spark):
    """A classic session (py4j and the JVM's own classes as oracles), not Spark Connect."""
    return not _is_connect(spark)


def subset(spark, representative):
    """Connect and the cluster run the representative cases; the local session runs all."""
    if not (classic(spark) or representative):
        pytest.skip("randomized case run on the local session only (a representative one runs here)")


def random_rows(rng, n, decimals=2, weighted=False):
    s = np.round(rng.random(n), decimals)
    y = (rng.random(n) < s).astype(float)
    cols = [s, y]
    if weighted:
        w = rng.random(n) * 3
        w[rng.random(n) < 0.1] = 0.0
        cols.append(w)
    return np.column_stack(cols)


# -- Spark's own classes, reached through the JVM ---------------------------------------


def _to_numpy(spark, jrdd):
    """A JVM RDD[Double] collected as a numpy array (pickled in bulk by PySpark's SerDe)."""
    from pyspark.mllib.common import _java2py

    return np.array(_java2py(spark.sparkContext, jrdd).collect(), dtype=float)


class JvmBinaryMetrics:
    """org.apache.spark.mllib.evaluation.BinaryClassificationMetrics(rdd, numBins) itself.

    PySpark's wrapper always passes numBins = 1000 and exposes only the two
    areas; the JVM class takes any numBins, and its curves (RDDs of Scala
    tuples, which ``_java2py`` cannot convert) come out in bulk as
    ``JavaPairRDD.fromJavaRDD(curve).keys()`` and ``.values()``.
    """

    def __init__(self, spark, df, num_bins=0):
        self.spark = spark
        jvm = spark.sparkContext._jvm
        enc = jvm.org.apache.spark.sql.Encoders
        cols = df.columns
        ds = getattr(df._jdf, "as")(enc.tuple(*[enc.DOUBLE()] * len(cols)))
        self.j = jvm.org.apache.spark.mllib.evaluation.BinaryClassificationMetrics(
            ds.rdd(), num_bins)
        self._pair = jvm.org.apache.spark.api.java.JavaPairRDD.fromJavaRDD

    def thresholds(self):
        return _to_numpy(self.spark, self.j.thresholds().toJavaRDD())

    def curve(self, name, *args):
        pairs = self._pair(getattr(self.j, name)(*args).toJavaRDD())
        return np.column_stack((_to_numpy(self.spark, pairs.keys()),
                                _to_numpy(self.spark, pairs.values())))


def assert_same(ours, theirs, exact=True, exact_areas=None):
    """Thresholds, P/R/F by threshold (beta 1 and 0.5), roc, pr and both areas agree.

    Spark sums the areas' trapezoids per partition of its curve RDD (a
    partition of its own for the first and the last point) and then adds
    the partial sums: one ulp from a left-to-right sum, so the areas are
    compared to 1e-12 against the JVM, exactly against the mirror.
    """
    if exact_areas is None:
        exact_areas = not isinstance(theirs, JvmBinaryMetrics)
    check = (np.testing.assert_array_equal if exact else
             lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15))
    check(ours.thresholds(), theirs.thresholds())
    for name, args in (("precisionByThreshold", ()), ("recallByThreshold", ()),
                       ("fMeasureByThreshold", (1.0,)), ("fMeasureByThreshold", (0.5,)),
                       ("roc", ()), ("pr", ())):
        mine = getattr(ours, name)(*args)
        other = theirs.curve(name, *args) if isinstance(theirs, JvmBinaryMetrics) else \
            getattr(theirs, name)(*args)
        check(mine, other)
    for name in ("areaUnderROC", "areaUnderPR"):
        a = getattr(ours, name)
        b = getattr(theirs.j, name)() if isinstance(theirs, JvmBinaryMetrics) else \
            getattr(theirs, name)
        if exact and exact_areas:
            assert a == b, (name, a, b)
        else:
            assert a == pytest.approx(b, rel=1e-12, abs=1e-15), (name, a, b)


def evaluator_areas(df, num_bins=0, weight_col=None):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    out = []
    for metric in ("areaUnderROC", "areaUnderPR"):
        e = BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="label",
                                          metricName=metric, numBins=num_bins)
        if weight_col:
            e.setWeightCol(weight_col)
        out.append(e.evaluate(df))
    return out


# -- without Spark ----------------------------------------------------------------------


def test_import_evalkit_spark_does_not_import_pyspark():
    code = ("import sys, evalkit, evalkit.spark\n"
            "print(sorted(m for m in ('pyspark', 'py4j', 'pyarrow') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_evalkit_dot_spark_after_import_evalkit_alone():
    code = ("import sys, evalkit\n"
            "assert 'matplotlib' not in sys.modules and 'ipywidgets' not in sys.modules\n"
            "print(evalkit.spark.binary_metrics.__module__, evalkit.plot.__name__,\n"
            "      'pyspark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "evalkit.spark.curves evalkit.plot False"


def test_not_a_dataframe():
    pytest.importorskip("pyspark")
    with pytest.raises(TypeError, match=r"df must be a pyspark.sql.DataFrame, got \[\(0.5"):
        eks.binary_metrics([(0.5, 1.0)])
    with pytest.raises(TypeError, match="df must be a pyspark.sql.DataFrame"):
        eks.classification_counts(None)


# -- binary metrics: the Spark post, randomized data, weights ------------------------------


@pytest.fixture(params=["grouped", "partitions", "buckets"])
def path(request, monkeypatch):
    """The three ways binary_metrics counts: per score in the first job, per input partition,
    or buckets on the executors (each taken here on small data by lowering its limits)."""
    if request.param != "grouped":
        monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 0)
    if request.param == "buckets":
        monkeypatch.setattr(spark_curves, "_MAX_COLLECTED", -1)
    return request.param


@pytest.mark.spark
@pytest.mark.parametrize("rows", [SEED_FIRST, SEED_SCORES], ids=["first", "second"])
def test_binary_metrics_the_spark_posts_example(any_spark, rows, path):
    spark = any_spark
    df = frame(spark, rows, partitions=2)
    ours = eks.binary_metrics(df)
    assert isinstance(ours, ek.BinaryClassificationMetrics)
    assert ours.path == path    # two or three distinct scores in 100 rows: grouped if allowed
    mirror = ek.BinaryClassificationMetrics(rows)
    roc, pr = ours.areaUnderROC, ours.areaUnderPR   # on the executors
    if path == "buckets":
        assert ours._sweep is None, "areas must not collect the curve"
    else:   # one job counted every score: the curve is on the driver, for every later method
        assert ours._sweep is not None
    assert (roc, pr) == (mirror.areaUnderROC, mirror.areaUnderPR)
    assert_same(ours, mirror)
    assert [ek.spark_format(r) for r in ours.fMeasureByThreshold()][0] == \
        "(1.0,0.16666666666666669)"
    assert evaluator_areas(df) == pytest.approx([roc, pr], rel=1e-12)
    if classic(spark):
        assert_same(ours, JvmBinaryMetrics(spark, df))


@pytest.mark.spark
@pytest.mark.parametrize("seed, partitions", [(0, 1), (1, 2), (2, 4)])
def test_binary_metrics_random_ties_any_partitioning(any_spark, seed, partitions, path):
    spark = any_spark
    subset(spark, seed == 1)
    rng = np.random.default_rng(seed)
    rows = random_rows(rng, n=int(rng.integers(150, 300)), decimals=int(rng.integers(1, 3)))
    df = frame(spark, rows, partitions=partitions)
    for num_bins in (0, 7):
        ours = eks.binary_metrics(df, num_bins=num_bins)
        assert ours.path == path
        mirror = ek.BinaryClassificationMetrics(rows, num_bins)
        areas = ours.areaUnderROC, ours.areaUnderPR
        assert areas == (mirror.areaUnderROC, mirror.areaUnderPR)
        # counts are exact whatever the partitioning: the numpy mirror bit for bit
        assert_same(ours, mirror)
        if not classic(spark):
            continue
        jvm = JvmBinaryMetrics(spark, df, num_bins)
        if num_bins == 0 or partitions == 1:
            # without binning Spark's cumulative counts do not depend on its partitions
            assert_same(ours, jvm)
        else:
            # Spark cuts its chunks within each partition of its sort: the one-partition
            # chunks are evalkit's (and the mirror's)
            assert_same(ours, JvmBinaryMetrics(spark, df.coalesce(1), num_bins))
    assert evaluator_areas(df) == pytest.approx(areas_exact(rows), rel=1e-12)


def areas_exact(rows):
    m = ek.BinaryClassificationMetrics(rows)
    return [m.areaUnderROC, m.areaUnderPR]


@pytest.mark.spark
def test_binary_metrics_many_buckets(any_spark, monkeypatch):
    """Several buckets on the executors: offsets, chunks across buckets, boundary trapezoids."""
    spark = any_spark
    monkeypatch.setattr(spark_curves, "_ROWS_PER_BUCKET", 40)
    monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 0)
    monkeypatch.setattr(spark_curves, "_MAX_COLLECTED", -1)
    rng = np.random.default_rng(7)
    rows = random_rows(rng, n=400, decimals=3)
    df = frame(spark, rows, partitions=3)
    for num_bins in (0, 5, 33):
        ours = eks.binary_metrics(df, num_bins=num_bins)
        assert ours.num_buckets > 3
        areas = ours.areaUnderROC, ours.areaUnderPR
        mirror = ek.BinaryClassificationMetrics(rows, num_bins)
        assert areas == pytest.approx((mirror.areaUnderROC, mirror.areaUnderPR),
                                      rel=1e-13)
        assert_same(ours, mirror)  # the collected curve: exact


@pytest.mark.spark
def test_binary_metrics_unpersists_the_rows_it_cached(spark, monkeypatch):
    """The buckets' per-score rows are cached for two jobs, then released (areas or points)."""
    monkeypatch.setattr(spark_curves, "_ROWS_PER_BUCKET", 40)
    monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 0)
    monkeypatch.setattr(spark_curves, "_MAX_COLLECTED", -1)
    rows = random_rows(np.random.default_rng(3), n=400, decimals=1)   # ties: rows per score
    df = frame(spark, rows, partitions=2)
    for num_bins in (0, 3):
        ours = eks.binary_metrics(df, num_bins=num_bins)
        assert ours.num_buckets > 1
        cached = ours._buckets()["rows"]
        assert cached.storageLevel.useMemory, "the per-score rows are cached for the jobs"
        mirror = ek.BinaryClassificationMetrics(rows, num_bins)
        assert ours.areaUnderROC == pytest.approx(mirror.areaUnderROC, rel=1e-13)
        level = cached.storageLevel
        assert not (level.useMemory or level.useDisk), "cached rows left behind"
        assert_same(ours, mirror)


@pytest.mark.spark
@pytest.mark.parametrize("path", ["partitions", "buckets"], indirect=True)
def test_binary_metrics_first_use_from_two_threads_runs_each_job_once(spark, path,
                                                                       monkeypatch):
    """The result's memos hold a lock: two threads asking at once share one job's counts."""
    import threading
    import time

    jobs = []
    cls = spark_curves.SparkBinaryClassificationMetrics
    methods = {"partitions": "_count_exact", "buckets": "_cut_buckets"}
    counting = getattr(cls, methods[path])

    def slow_job(self):
        jobs.append(1)
        time.sleep(0.5)   # both threads are inside the first use now, without the lock
        return counting(self)

    monkeypatch.setattr(cls, methods[path], slow_job)
    rows = random_rows(np.random.default_rng(4), n=200, decimals=3)
    ours = eks.binary_metrics(frame(spark, rows))
    assert ours.path == path
    areas = []
    threads = [threading.Thread(target=lambda: areas.append(ours.areaUnderROC))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    mirror = ek.BinaryClassificationMetrics(rows)
    assert len(jobs) == 1
    assert areas == [pytest.approx(mirror.areaUnderROC, rel=1e-13)] * 2


@pytest.mark.spark
def test_binary_metrics_weighted(any_spark, monkeypatch, path):
    spark = any_spark
    rng = np.random.default_rng(11)
    rows = random_rows(rng, n=250, decimals=2, weighted=True)
    df = frame(spark, rows, partitions=2)
    for num_bins in (0, 6):
        ours = eks.binary_metrics(df, weight_col="weight", num_bins=num_bins)
        assert ours.path == path    # 101 distinct scores in 250 rows
        areas = ours.areaUnderROC, ours.areaUnderPR
        mirror = ek.BinaryClassificationMetrics(rows, num_bins)
        # sums of weights are added in another order: equal to ~1e-15, not bit for bit
        assert areas == pytest.approx((mirror.areaUnderROC, mirror.areaUnderPR),
                                      rel=1e-12)
        assert_same(ours, mirror, exact=False)
        if classic(spark):
            assert_same(ours, JvmBinaryMetrics(spark, df.coalesce(1), num_bins), exact=False)
    ours = eks.binary_metrics(df, weight_col="weight")
    # zero_weight="drop" (scikit-learn's curves): rows of weight 0 make no threshold
    drop = eks.binary_metrics(df, weight_col="weight", zero_weight="drop")
    assert_same(drop, ek.BinaryClassificationMetrics(rows, zero_weight="drop"), exact=False)
    assert len(drop.thresholds()) < len(ours.thresholds()) == len(np.unique(rows[:, 0]))
    assert evaluator_areas(df, weight_col="weight") == \
        pytest.approx([ours.areaUnderROC, ours.areaUnderPR], rel=1e-12)
    monkeypatch.setattr(spark_curves, "_ROWS_PER_BUCKET", 30)
    monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 0)
    monkeypatch.setattr(spark_curves, "_MAX_COLLECTED", -1)
    many = eks.binary_metrics(df, weight_col="weight")
    assert many.num_buckets > 2
    assert many.areaUnderPR == pytest.approx(ours.areaUnderPR, rel=1e-12)
    assert_same(many, ek.BinaryClassificationMetrics(rows), exact=False)


@pytest.mark.spark
def test_binary_metrics_column_names_types_and_one_class(any_spark):
    spark = any_spark
    df = spark.createDataFrame([(True, 3), (False, 1), (True, 2), (False, 2)], ["clicked", "s"])
    ours = eks.binary_metrics(df, label_col="clicked", score_col="s")
    mirror = ek.BinaryClassificationMetrics([(3, 1), (1, 0), (2, 1), (2, 0)])
    assert_same(ours, mirror)
    only = eks.binary_metrics(frame(spark, [(0.3, 0.0), (0.7, 0.0)]))   # no positives
    assert only.areaUnderROC == ek.BinaryClassificationMetrics([(0.3, 0), (0.7, 0)]) \
        .areaUnderROC
    assert_same(only, ek.BinaryClassificationMetrics([(0.3, 0), (0.7, 0)]))


@pytest.mark.spark
def test_binary_metrics_grouped_falls_back_when_the_first_rows_mislead(any_spark, monkeypatch):
    """Tied first rows, then many distinct scores: the per-score job is dropped."""
    spark = any_spark
    monkeypatch.setattr(spark_curves, "_PROBE_ROWS", 40)
    monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 30)
    rng = np.random.default_rng(5)
    rows = np.vstack([np.column_stack([np.full(40, 0.5), rng.random(40) < 0.5]),
                      random_rows(rng, n=200, decimals=6)])
    df = frame(spark, rows, partitions=1)
    ours = eks.binary_metrics(df)
    assert ours.path == "partitions"
    assert_same(ours, ek.BinaryClassificationMetrics(rows))
    monkeypatch.setattr(spark_curves, "_MAX_GROUPED", 1000)
    grouped = eks.binary_metrics(df, num_bins=9)
    assert grouped.path == "grouped" and grouped.num_distinct == len(np.unique(rows[:, 0]))
    assert_same(grouped, ek.BinaryClassificationMetrics(rows, 9))


# -- bad input ----------------------------------------------------------------------------


def _jobs(spark):
    return len(spark.sparkContext.statusTracker().getJobIdsForGroup())


@pytest.mark.spark
@pytest.mark.parametrize("kwargs, words", [
    ({"score_col": "prob"}, r"score_col 'prob' is not a column of the DataFrame; its columns"),
    ({"label_col": "y"}, r"label_col 'y' is not a column"),
    ({"weight_col": "w"}, r"weight_col 'w' is not a column"),
    ({"score_col": "name"}, r"score_col 'name' must hold numbers, but its type is string"),
    ({"weight_col": "name"}, r"weight_col 'name' must hold numbers"),
])
def test_bad_columns_fail_before_any_job(spark, kwargs, words):
    df = spark.createDataFrame([(0.5, 1.0, "a")], ["score", "label", "name"])
    before = _jobs(spark)
    with pytest.raises(ValueError, match=words):
        eks.binary_metrics(df, **kwargs)
    assert _jobs(spark) == before


@pytest.mark.spark
@pytest.mark.parametrize("rows, kwargs, words", [
    ([(0.5, 1.0, 1.0), (None, 0.0, 1.0)], {},
     r"score_col 'score' contains 1 null, NaN or infinite values"),
    ([(0.5, 1.0, 1.0), (float("nan"), 0.0, 1.0)], {}, r"score_col 'score' contains 1 null, NaN"),
    ([(0.5, 1.0, 1.0), (float("inf"), 0.0, 1.0)], {}, r"score_col 'score' contains 1 null, NaN"),
    ([(0.5, 2.0, 1.0), (0.2, 0.0, 1.0)], {},
     r"label_col 'label' must hold 0 or 1; 1 rows hold other values, such as 2.0"),
    ([(0.5, None, 1.0)], {}, r"label_col 'label' must hold 0 or 1; 1 rows hold other values, "
                             r"such as None"),
    ([(0.5, 1.0, -1.0), (0.2, 0.0, 1.0)], {"weight_col": "weight"},
     r"weight_col 'weight' contains 1 negative values, such as -1.0"),
    ([(0.5, 1.0, None)], {"weight_col": "weight"},
     r"weight_col 'weight' contains 1 null, NaN or infinite"),
    ([(0.5, 1.0, 0.0)], {"weight_col": "weight"}, r"weight_col 'weight' is all zeros"),
])
@pytest.mark.parametrize("tied", [False, True], ids=["distinct", "tied"])
def test_bad_values_fail_in_the_first_job(spark, rows, kwargs, words, tied):
    rows = rows + [(0.3, 0.0, 0.0)] * 20 if tied else rows   # tied: checked per score
    df = frame(spark, rows)
    before = _jobs(spark)
    with pytest.raises(ValueError, match=words):
        eks.binary_metrics(df, **kwargs)
    # the small job that reads the first rows, then one query (with adaptive execution
    # its shuffle stage and its result stage are two jobs)
    assert _jobs(spark) - before <= 3


@pytest.mark.spark
def test_bad_options_and_empty(any_spark):
    spark = any_spark
    df = frame(spark, SEED_SCORES)
    with pytest.raises(ValueError, match="num_bins must be >= 0"):
        eks.binary_metrics(df, num_bins=-1)
    with pytest.raises(TypeError, match="score_col must be a column name"):
        eks.binary_metrics(df, score_col=3)
    with pytest.raises(ValueError, match="df is empty"):
        eks.binary_metrics(df.limit(0))


# -- per-class counts and the reports ----------------------------------------------------------


@pytest.mark.spark
def test_classification_counts_report_equals_spark_sklearn_and_evalkit(any_spark):
    spark = any_spark
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 300)
    pred = np.where(rng.random(300) < 0.6, y, rng.integers(0, 4, 300))
    df = spark.createDataFrame([(int(a), int(b)) for a, b in zip(y, pred)],
                               ["label", "prediction"]).repartition(3)
    counts = eks.classification_counts(df)
    assert counts.classification_report() == ek.classification_report(y, pred) == \
        skm.classification_report(y, pred)
    assert counts.classification_report(output_dict=True) == \
        skm.classification_report(y, pred, output_dict=True)
    for average in (None, "macro", "weighted", "micro"):
        ours = counts.precision_recall_fscore_support(average=average)
        np.testing.assert_array_equal(
            np.array(ours[:3], dtype=float),
            np.array(skm.precision_recall_fscore_support(y, pred, average=average)[:3],
                     dtype=float))
    np.testing.assert_array_equal(counts.confusion_matrix(), skm.confusion_matrix(y, pred))
    names = eks.classification_counts(
        spark.createDataFrame([("cat", "dog"), ("dog", "dog"), ("cat", "cat")], ["t", "p"]),
        "t", "p")
    assert names.classification_report() == skm.classification_report(
        ["cat", "dog", "cat"], ["dog", "dog", "cat"])
    if not classic(spark):
        return
    from pyspark.mllib.evaluation import MulticlassMetrics as PySparkMulticlass

    spark_mc = PySparkMulticlass(spark.sparkContext.parallelize(
        [(float(b), float(a)) for a, b in zip(y, pred)], 2))
    p, r, f, _ = counts.precision_recall_fscore_support(average="weighted")
    assert p == pytest.approx(spark_mc.weightedPrecision, rel=1e-12)
    assert r == pytest.approx(spark_mc.weightedRecall, rel=1e-12)
    assert f == pytest.approx(spark_mc.weightedFMeasure(), rel=1e-12)
    assert counts.accuracy_score() == spark_mc.accuracy == skm.accuracy_score(y, pred)
    mirror = counts.multiclass_metrics()
    assert mirror.weightedPrecision == pytest.approx(spark_mc.weightedPrecision, rel=1e-12)


@pytest.mark.spark
def test_multiclass_metrics_mirror_equals_spark(spark):
    from pyspark.mllib.evaluation import MulticlassMetrics as PySparkMulticlass

    rng = np.random.default_rng(9)
    for weighted in (False, True):
        y = rng.integers(0, 4, 200).astype(float)
        pred = np.where(rng.random(200) < 0.5, y, rng.integers(0, 5, 200)).astype(float)
        cols = [pred, y] + ([rng.random(200) * 2] if weighted else [])
        rows = np.column_stack(cols)
        ours = ek.MulticlassMetrics(rows)
        theirs = PySparkMulticlass(spark.sparkContext.parallelize(
            [tuple(r) for r in rows.tolist()], 1))
        close = (lambda a, b: a == pytest.approx(b, rel=1e-12)) if weighted else \
            (lambda a, b: a == b)
        np.testing.assert_allclose(ours.confusionMatrix().toArray(),
                                   theirs.confusionMatrix().toArray(),
                                   rtol=0 if not weighted else 1e-12)
        for c in ours.labels:
            for name in ("precision", "recall", "falsePositiveRate", "truePositiveRate",
                         "fMeasure"):
                assert close(getattr(ours, name)(c), getattr(theirs, name)(c)), (name, c)
            assert close(ours.fMeasure(c, 0.5), theirs.fMeasure(c, 0.5))
        assert close(ours.accuracy, theirs.accuracy)
        assert close(ours.hammingLoss, theirs.call("hammingLoss"))  # no Python wrapper
        for name in ("weightedPrecision", "weightedRecall", "weightedFalsePositiveRate",
                     "weightedTruePositiveRate"):
            assert getattr(ours, name) == pytest.approx(getattr(theirs, name), rel=1e-12)
        assert ours.weightedFMeasure(0.5) == pytest.approx(theirs.weightedFMeasure(0.5),
                                                           rel=1e-12)


# -- top-k ---------------------------------------------------------------------------------------


@pytest.mark.spark
def test_topk_report_equals_evalkit_on_collected_data(any_spark):
    spark = any_spark
    rng = np.random.default_rng(3)
    n, c = 300, 6
    y = rng.integers(0, c, n)
    top = np.argsort(rng.random((n, c)) + np.eye(c)[y] * 0.3, axis=1)[:, ::-1][:, :4]
    top[::7, 1] = top[::7, 0]          # repeats inside a row count once
    df = spark.createDataFrame([(int(a), [int(v) for v in row]) for a, row in zip(y, top)],
                               ["label", "topk"]).repartition(2)
    for k in (1, 3):
        assert eks.topk_report(df, topk_col="topk", k=k) == ek.topk_report(y, top, k=k)
        assert eks.topk_report(df, topk_col="topk", k=k, output_dict=True) == \
            ek.topk_report(y, top, k=k, output_dict=True)
    with pytest.raises(ValueError, match=r"topk_col 'topk' has 300 rows with fewer than k=5"):
        eks.topk_report(df, topk_col="topk", k=5)
    with pytest.raises(ValueError, match=r"topk_col 'label' must hold arrays of labels"):
        eks.topk_report(df, topk_col="label", k=1)
    null_row = spark.createDataFrame([(0, [0, 1]), (1, None)], "label long, topk array<long>")
    with pytest.raises(ValueError, match=r"topk_col 'topk' has 1 rows with fewer than k=2"):
        eks.topk_report(null_row, k=2)     # a null list is a short one, not a row left out


# -- the package mirrors its numpy siblings -------------------------------------------------------

SIBLINGS = [(eks.topk_report, ek.topk_report), (eks.ranking_metrics, ek.evaluate_ranking),
            (eks.SparkClassCounts.classification_report, ek.classification_report),
            (eks.SparkClassCounts.precision_recall_fscore_support,
             ek.precision_recall_fscore_support)]


@pytest.mark.parametrize("ours, sibling", SIBLINGS, ids=lambda f: f.__qualname__)
def test_an_argument_shared_with_the_numpy_sibling_has_its_default(ours, sibling):
    import inspect

    mine, theirs = (inspect.signature(f).parameters for f in (ours, sibling))
    shared = [name for name in mine if name in theirs and inspect.Parameter.empty not in (
        mine[name].default, theirs[name].default)]
    assert shared, "nothing compared"
    assert {n: mine[n].default for n in shared} == {n: theirs[n].default for n in shared}


@pytest.mark.spark
def test_topk_report_warns_where_evalkit_warns(spark):
    from evalkit.exceptions import UndefinedMetricWarning

    y, top = [0, 1, 2, 2], [[0, 1], [1, 0], [0, 1], [1, 0]]   # class 2 is never predicted
    df = spark.createDataFrame([(a, row) for a, row in zip(y, top)], ["label", "topk"])
    with pytest.warns(UndefinedMetricWarning) as theirs:
        expected = ek.topk_report(y, top, k=2)
    with pytest.warns(UndefinedMetricWarning) as ours:
        assert eks.topk_report(df, k=2) == expected
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]


@pytest.mark.spark
def test_the_spark_evaluator_holds_the_numpy_mirrors_options(spark, path):
    mirror = ek.BinaryClassificationMetrics(SEED_SCORES)
    options = {name: value for name, value in vars(mirror).items() if name != "sweep"}
    ours = eks.binary_metrics(frame(spark, SEED_SCORES))
    assert len(options) == 5 and {name: vars(ours).get(name) for name in options} == options


@pytest.mark.spark
def test_every_docstring_example_runs_on_a_session(spark):
    """The examples are skipped where no session runs (``make test``'s doctests); here they run."""
    import doctest
    import importlib

    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for name in ("curves", "classification", "compare", "topk", "regression", "ranking"):
        module = importlib.import_module(f"evalkit.spark.{name}")
        for test in finder.find(module, module.__name__):
            for example in test.examples:
                example.options.pop(doctest.SKIP, None)
            ran += len(test.examples)
            runner.run(test)
    assert ran > 20 and runner.failures == 0, f"{runner.failures} examples failed (printed above)"


# -- the session -----------------------------------------------------------------------------------


@pytest.mark.spark
def test_regression_metrics_equal_evalkit_sklearn_and_spark(any_spark):
    spark = any_spark
    from pyspark.ml.evaluation import RegressionEvaluator

    rng = np.random.default_rng(31)
    n = 400
    users = rng.integers(0, 25, n)
    label = rng.integers(1, 6, n).astype(float)
    pred = np.clip(label + rng.normal(0, 0.8, n), 0, 6)     # predictions may leave the scale
    weight = rng.random(n) * 2
    rows = [(int(u), float(y), float(q), float(w)) for u, y, q, w in zip(users, label, pred, weight)]
    df = spark.createDataFrame(rows, ["user", "rating", "predicted", "w"]).repartition(3)
    kw = {"label_col": "rating", "prediction_col": "predicted"}
    for weights in (None, weight):
        ours = eks.regression_metrics(df, weight_col=None if weights is None else "w",
                                      rating_range=(1, 5), **kw)
        assert ours["mae"] == pytest.approx(ek.mean_absolute_error(label, pred, sample_weight=weights),
                                            rel=1e-12)
        assert ours["mse"] == pytest.approx(ek.mean_squared_error(label, pred, sample_weight=weights),
                                            rel=1e-12)
        assert ours["rmse"] == pytest.approx(
            ek.root_mean_squared_error(label, pred, sample_weight=weights), rel=1e-12)
        assert ours["nmae"] == pytest.approx(ek.normalized_mean_absolute_error(
            label, pred, rating_range=(1, 5), sample_weight=weights), rel=1e-12)
        for metric in ("mae", "mse", "rmse"):
            ev = RegressionEvaluator(labelCol="rating", predictionCol="predicted", metricName=metric)
            if weights is not None:
                ev.setWeightCol("w")
            assert ours[metric] == pytest.approx(ev.evaluate(df), rel=1e-12), metric
    per_user = eks.regression_metrics(df, rating_range=(1, 5), user_col="user", **kw)
    assert per_user["nmae"] == pytest.approx(ek.normalized_mean_absolute_error(
        label, pred, rating_range=(1, 5), users=users), rel=1e-12)
    assert per_user["mae"] == pytest.approx(ek.mean_absolute_error(label, pred), rel=1e-12)
    assert eks.regression_metrics(df, **kw).keys() == {"mae", "mse", "rmse", "r2", "var"}


@pytest.mark.spark
def test_regression_r2_and_var_equal_spark_regression_evaluator(spark):
    from pyspark.ml.evaluation import RegressionEvaluator

    rng = np.random.default_rng(32)
    n = 300
    label = rng.normal(3, 2, n)
    pred = label + rng.normal(0.3, 1, n)                    # biased: R² and var tell it apart
    weight = rng.integers(0, 4, n) + rng.random(n)
    df = spark.createDataFrame([(float(y), float(q), float(w)) for y, q, w in
                                zip(label, pred, weight)], ["label", "prediction", "w"]).repartition(3)
    for weights in (None, weight):
        col = None if weights is None else "w"
        for origin in (False, True):
            ours = eks.regression_metrics(df, weight_col=col, through_origin=origin)
            for name, metric in (("r2", "r2"), ("var", "var")):
                ev = RegressionEvaluator(metricName=metric, throughOrigin=origin)
                if col:
                    ev.setWeightCol(col)
                assert ours[name] == pytest.approx(ev.evaluate(df), rel=1e-10), (name, col, origin)
            rows = np.column_stack([pred, label] + ([] if weights is None else [weights]))
            mirror = ek.RegressionMetrics(rows, throughOrigin=origin)
            assert ours["r2"] == pytest.approx(mirror.r2, rel=1e-10)
            assert ours["var"] == pytest.approx(mirror.explainedVariance, rel=1e-10)
    # without weights Spark's R² is scikit-learn's; with them it is not
    plain = eks.regression_metrics(df)
    assert plain["r2"] == pytest.approx(skm.r2_score(label, pred), rel=1e-10)
    weighted = eks.regression_metrics(df, weight_col="w")
    assert weighted["r2"] != pytest.approx(skm.r2_score(label, pred, sample_weight=weight), rel=1e-6)


@pytest.mark.spark
@pytest.mark.parametrize("rows, kwargs, words", [
    ([(None, 1.0, 1.0)], {}, r"label_col 'label' contains 1 null, NaN or infinite"),
    ([(2.0, float("nan"), 1.0)], {}, r"prediction_col 'prediction' contains 1 null, NaN"),
    ([(2.0, 1.0, -1.0)], {"weight_col": "weight"}, r"weight_col 'weight' contains 1 negative"),
    ([(2.0, 1.0, 0.0)], {"weight_col": "weight"}, r"weight_col 'weight' is all zeros"),
    ([(7.0, 1.0, 1.0)], {"rating_range": (1, 5)}, r"label_col 'label' holds 1 ratings outside"),
    ([(2.0, 1.0, 1.0)], {"user_col": "weight"}, r"user_col needs rating_range"),
    ([(2.0, 1.0, 1.0)], {"label_col": "y"}, r"label_col 'y' is not a column"),
    ([(2.0, 1.0, 1.0)], {"rating_range": (5, 1)}, r"rating_range must be a pair \(lo, hi\)"),
    # users by their weight column: user 0.0's one rating weighs 0
    ([(2.0, 1.0, 1.0), (3.0, 2.0, 0.0)], {"rating_range": (1, 5), "user_col": "weight",
                                         "weight_col": "weight"},
     r"weight_col 'weight' is zero for every rating of user 0.0: its error is undefined"),
])
def test_regression_metrics_bad_input(spark, rows, kwargs, words):
    df = frame(spark, rows, names=("label", "prediction", "weight"))
    with pytest.raises(ValueError, match=words):
        eks.regression_metrics(df, **kwargs)
    with pytest.raises(ValueError, match="df is empty"):
        eks.regression_metrics(df.limit(0))


@pytest.mark.spark
def test_session_returns_the_running_session_untouched(spark):
    assert spark.conf.get("spark.sql.shuffle.partitions") == "2"
    again = eks.session(shuffle_partitions=7, log_level="INFO")
    assert again is spark
    assert spark.conf.get("spark.sql.shuffle.partitions") == "2"
    assert spark.conf.get("spark.sql.execution.arrow.pyspark.enabled") == "true"


@pytest.mark.spark
def test_session_leaves_the_environment_warnings_and_stderr_as_they_were(spark, tmp_path):
    """A new session: PYSPARK_PYTHON put back, one narrow warning filter, fd 2 untouched."""
    code = """
import os, sys, warnings
os.dup2 = lambda *args: sys.exit("session() called os.dup2")   # fd 2 is shared by all threads
os.environ["PYSPARK_PYTHON"] = "the-user-s-python"
filters = list(warnings.filters)
from evalkit.spark import session
spark = session(config={"spark.pyspark.python": sys.executable}, log_file="jvm.log")
added = [f for f in warnings.filters if f not in filters and f[2] is FutureWarning]
print(os.environ["PYSPARK_PYTHON"], "PYSPARK_DRIVER_PYTHON" in os.environ)
print([(f[0], getattr(f[1], "pattern", f[1]), getattr(f[3], "pattern", f[3])) for f in added])
rows = spark.range(4).mapInArrow(lambda batches: batches, "id long").count()
print(rows, os.path.getsize("jvm.log") > 0)
spark.stop()
"""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SPARK_CONNECT_MODE_ENABLED", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.splitlines() == [
        "the-user-s-python False",
        "[('ignore', 'Deprecated in 3.0.0. Use SparkSession.builder', 'pyspark.sql.context')]",
        "4 True"], out.stdout + out.stderr[-2000:]
    assert "WARN" not in out.stderr and "Setting default log level" not in out.stderr


# -- ranking -------------------------------------------------------------------------------------


@pytest.mark.spark
def test_ranking_metrics_equal_spark_and_evalkit(any_spark):
    from pyspark.ml.evaluation import RankingEvaluator

    spark = any_spark
    rng = np.random.default_rng(21)
    ranked, relevant = [], []
    for u in range(60):
        ranked.append([float(v) for v in rng.permutation(30)[:int(rng.integers(0, 12))]])
        relevant.append([float(v) for v in rng.choice(30, int(rng.integers(1, 8)), replace=False)])
    df = spark.createDataFrame(list(zip(ranked, relevant)), ["ranked", "relevant"]).repartition(3)
    theirs = None
    if classic(spark):
        from pyspark.mllib.evaluation import RankingMetrics as PySparkRanking

        theirs = PySparkRanking(spark.sparkContext.parallelize(list(zip(ranked, relevant)), 2))
    for k in (1, 5, 10):
        ours = eks.ranking_metrics(df, k=k, convention="spark")
        if theirs is not None:
            assert ours["precision_at_k"] == pytest.approx(theirs.precisionAt(k), rel=1e-12)
            assert ours["recall_at_k"] == pytest.approx(theirs.recallAt(k), rel=1e-12)
            assert ours["mean_average_precision"] == pytest.approx(
                theirs.meanAveragePrecisionAt(k), rel=1e-12)
            assert ours["ndcg_at_k"] == pytest.approx(theirs.ndcgAt(k), rel=1e-12)
        ev = RankingEvaluator(predictionCol="ranked", labelCol="relevant", k=k)
        for metric, name in (("precisionAtK", "precision_at_k"), ("ndcgAtK", "ndcg_at_k"),
                             ("meanAveragePrecisionAtK", "mean_average_precision"),
                             ("recallAtK", "recall_at_k")):
            assert ours[name] == pytest.approx(ev.setMetricName(metric).evaluate(df), rel=1e-12)
        # every convention: the numpy functions on the collected lists
        rows = df.collect()
        lists = [r["ranked"] for r in rows]
        sets = [set(r["relevant"]) for r in rows]
        mine = eks.ranking_metrics(df, k=k)
        assert mine["ndcg_at_k"] == pytest.approx(ek.ndcg_at_k(lists, sets, k), rel=1e-12)
        assert mine["mean_reciprocal_rank"] == pytest.approx(
            ek.mean_reciprocal_rank(lists, sets, k=k), rel=1e-12)
        assert mine["hit_rate_at_k"] == pytest.approx(ek.hit_rate_at_k(lists, sets, k), rel=1e-12)
    with pytest.raises(ValueError, match="ranked_col 'nope' is not a column"):
        eks.ranking_metrics(df, k=3, ranked_col="nope")


@pytest.mark.spark
@pytest.mark.filterwarnings("ignore:.*no relevant items:evalkit.exceptions.UndefinedMetricWarning")
def test_ranking_metrics_spark_counts_labels_graded_0(any_spark):
    """convention="spark": a label graded 0 counts in P, R and MAP, as in Spark's RankingMetrics.of.

    The oracle is the numpy mirror, itself checked against the JVM's RankingMetrics
    (tests/test_ranking_spark.py); evalkit's convention leaves such labels out.
    """
    rows = [([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], [0.0, 1.0, 0.0]), ([4.0, 5.0], [5.0, 6.0], [2.0, 0.0]),
            ([7.0, 8.0], [8.0], [0.0]), ([9.0], [9.0, 9.0], [1.0, 3.0])]
    df = any_spark.createDataFrame(rows, ["ranked", "relevant", "grade"])
    mirror = ek.RankingMetrics(rows)
    for k in (1, 2, 3):
        ours = eks.ranking_metrics(df, k=k, relevance_col="grade", convention="spark")
        assert ours["precision_at_k"] == pytest.approx(mirror.precisionAt(k), rel=1e-12)
        assert ours["recall_at_k"] == pytest.approx(mirror.recallAt(k), rel=1e-12)
        assert ours["mean_average_precision"] == pytest.approx(mirror.meanAveragePrecisionAt(k),
                                                               rel=1e-12)
        assert ours["ndcg_at_k"] == pytest.approx(mirror.ndcgAt(k), rel=1e-12)
    # at 1: items 1 (graded 0) and 9 are hits for Spark; only 9 for evalkit
    assert eks.ranking_metrics(df, k=1, relevance_col="grade", convention="spark")[
        "precision_at_k"] == 0.5
    assert eks.ranking_metrics(df, k=1, relevance_col="grade")["precision_at_k"] == \
        pytest.approx(ek.precision_at_k([r[0] for r in rows],
                                         [dict(zip(r[1], r[2])) for r in rows], 1))


@pytest.mark.spark
def test_lists_from_frame_is_evalkit_lists_from_frame(spark):
    rng = np.random.default_rng(11)
    n = 400
    pred = {"user": rng.integers(0, 30, n), "item": rng.integers(0, 50, n),
            "score": np.round(rng.random(n), 1)}          # ties: the larger item first
    pairs = np.unique(np.column_stack([rng.integers(0, 35, 200), rng.integers(0, 60, 200)]), axis=0)
    truth = {"user": pairs[:, 0], "item": pairs[:, 1]}     # users 30 to 34 have no prediction
    users, ranked, relevant = ek.lists_from_frame(pred, truth, score="score", ties="item_desc")

    def table(columns, schema):
        return spark.createDataFrame([tuple(v.item() for v in row)
                                      for row in zip(*columns.values())], schema)
    rows = {r["user"]: r for r in eks.lists_from_frame(
        table(pred, "user long, item long, score double"), table(truth, "user long, item long")).collect()}
    assert sorted(rows) == users.tolist()
    for u, r, t in zip(users.tolist(), ranked, relevant):
        assert (rows[u]["ranked"] or []) == r.tolist()
        assert sorted(rows[u]["relevant"]) == sorted(t.tolist())


@pytest.mark.spark
def test_lists_from_frame_tables(any_spark):
    spark = any_spark
    preds = spark.createDataFrame([(1, 10, 0.9), (1, 11, 0.8), (1, 12, 0.1), (2, 20, 0.5),
                                   (2, 21, 0.7), (3, 30, 0.2)], ["user", "item", "score"])
    truth = spark.createDataFrame([(1, 11), (1, 12), (2, 20), (4, 40)], ["user", "item"])
    lists = {r["user"]: (r["ranked"], sorted(r["relevant"]))
             for r in eks.lists_from_frame(preds, truth).collect()}
    assert lists == {1: ([10, 11, 12], [11, 12]), 2: ([21, 20], [20]), 4: (None, [40])}
    out = eks.ranking_metrics(eks.lists_from_frame(preds, truth, k=2), k=2)
    assert out["precision_at_k"] == pytest.approx(ek.precision_at_k(
        [[10, 11], [21, 20], []], [{11, 12}, {20}, {40}], 2))
    graded = spark.createDataFrame([(1, 11, 1), (1, 12, 3), (2, 20, 2), (4, 40, 1)],
                                   ["user", "item", "grade"])
    lists = eks.lists_from_frame(preds, graded, grade_col="grade")
    rows = {r["user"]: (r["relevant"], r["relevance"]) for r in lists.collect()}
    assert rows == {1: ([12, 11], [3.0, 1.0]), 2: ([20], [2.0]), 4: ([40], [1.0])}
    out = eks.ranking_metrics(lists, k=3, relevance_col="relevance", convention="spark")
    # sorted by grade, Spark's given-order ideal is the true one: evalkit's sorted ideal
    sorted_ideal = ek.ndcg_at_k([[10, 11, 12], [21, 20], []], [{11: 1, 12: 3}, {20: 2}, {40: 1}],
                                3, gain="exponential")
    assert out["ndcg_at_k"] == pytest.approx(sorted_ideal, rel=1e-12)
    assert out["ndcg_at_k"] != pytest.approx(ek.ndcg_at_k(   # the ideal in the order 11, 12
        [[10, 11, 12], [21, 20], []], [{11: 1, 12: 3}, {20: 2}, {40: 1}], 3, convention="spark"))


# -- Spark Connect and a cluster whose executors lack evalkit ---------------------------------------


@pytest.mark.spark
def test_jvm_curve_says_what_to_use_on_spark_connect(spark_services, connect_mode):
    pytest.importorskip("grpc")
    spark_services.connect_session()
    with pytest.raises(RuntimeError, match=r"jvm_curve reads Spark's JVM .* Spark Connect .* "
                                           r"use evalkit.spark.binary_metrics\(df\)"):
        eks.jvm_curve(None, "roc")


@pytest.mark.spark
def test_executors_without_evalkit_fail_clearly_until_it_is_shipped(spark_services, connect_mode):
    """The cluster's executors run a Python with numpy, pandas and pyarrow but no evalkit."""
    pytest.importorskip("grpc")
    spark = spark_services.cluster_server().session()      # a new session: nothing shipped
    rows = random_rows(np.random.default_rng(3), n=300, decimals=4)
    df = frame(spark, rows, partitions=2)
    grouped = eks.binary_metrics(frame(spark, SEED_SCORES))  # DataFrame functions only:
    assert grouped.path == "grouped" and grouped.areaUnderROC == \
        ek.BinaryClassificationMetrics(SEED_SCORES).areaUnderROC   # no evalkit needed
    m = eks.binary_metrics(df)
    assert m.path == "partitions"
    with pytest.raises(ModuleNotFoundError, match=r"evalkit is not installed on the Spark "
                       r"executors.*evalkit.spark.ship\(spark\)"):
        m.areaUnderROC
    path = eks.ship(spark)
    assert eks.ship(spark) == path and path.endswith(".zip")
    assert_same(eks.binary_metrics(df), ek.BinaryClassificationMetrics(rows))


@pytest.mark.spark
def test_ship_on_a_classic_cluster_session(spark_services, tmp_path):
    """A classic session of the cluster: a clear failure without evalkit, addPyFile ships it.

    Its own driver process (one SparkContext a process).
    """
    pytest.importorskip("grpc")
    master = spark_services.standalone().url
    code = f"""
import numpy as np, evalkit as ek, evalkit.spark as eks
spark = eks.session(master={master!r}, config={{
    "spark.pyspark.python": {spark_services.executor_python!r},
    "spark.executor.memory": "512m", "spark.executor.cores": "1", "spark.cores.max": "2"}})
rows = np.column_stack([np.round(np.linspace(0, 1, 300), 4), np.arange(300) % 3 == 0]).astype(float)
df = spark.createDataFrame([tuple(r) for r in rows.tolist()], ["score", "label"]).repartition(2)
try:
    eks.binary_metrics(df).areaUnderROC
except ModuleNotFoundError as e:
    print("before ship:", str(e)[:47])
eks.ship(spark)
m = eks.binary_metrics(df)
print("after ship:", m.path, m.areaUnderROC == ek.BinaryClassificationMetrics(rows).areaUnderROC)
spark.stop()
"""
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_CONNECT_MODE_ENABLED", "PYSPARK_PYTHON")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    # the executors run the cluster's evalkit-less Python (spark.pyspark.python, which
    # session() hands them as PYSPARK_PYTHON: a classic driver reads only that variable):
    # evalkit fails there until it is shipped (addPyFile)
    lines = out.stdout.splitlines()
    assert lines[-1] == "after ship: partitions True", out.stdout + out.stderr[-2000:]
    assert lines[:-1] == ["before ship: evalkit is not installed on the Spark executors"], \
        out.stdout + out.stderr[-2000:]
