"""evalkit.mllib.RankingMetrics against real PySpark (marker ``spark``): Spark's numbers to 1e-12.

Binary relevance through PySpark's own ``RankingMetrics``; graded relevance through the
JVM's ``RankingMetrics.of`` on an RDD of 3-tuples, because PySpark 4.3's Python wrapper
passes only the first two columns to the JVM (graded NDCG through it returns the binary
value). One local SparkSession for the module; skipped without pyspark or Java unless CI=true.
"""

from __future__ import annotations


import numpy as np
import pytest

import evalkit as ek

pytestmark = pytest.mark.spark

SUITE = [([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
         ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
         ([1, 2, 3, 4, 5], [])]
SUITE_RELEVANCE = [[3, 2, 1, 1, 1], [2, 0, 0], []]
KS = (1, 2, 3, 5, 10, 15)


def _floats(rows):
    return [tuple([float(v) for v in col] for col in row) for row in rows]


def python_wrapper(spark, rows, num_partitions):
    """PySpark's RankingMetrics (binary: it drops a relevance column)."""
    import warnings

    from pyspark.mllib.evaluation import RankingMetrics

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)   # its SQLContext use
        return RankingMetrics(spark.sparkContext.parallelize(_floats(rows), num_partitions))


def jvm_metrics(spark, rows, num_partitions):
    """The JVM's RankingMetrics.of on a JavaRDD of Tuple2/Tuple3 of java lists of doubles."""
    sc = spark.sparkContext
    jvm = sc._jvm

    def jlist(values):
        out = jvm.java.util.ArrayList()
        for v in values:
            out.add(float(v))
        return out

    tuples = jvm.java.util.ArrayList()
    for row in rows:
        cols = [jlist(c) for c in row]
        tuples.add(jvm.scala.Tuple3(*cols) if len(cols) == 3 else jvm.scala.Tuple2(*cols))
    return jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(sc._jsc.parallelize(tuples, num_partitions))


def random_rows(rng, n_rows, graded):
    rows = []
    for _ in range(n_rows):
        n_items = int(rng.integers(3, 30))
        pred = list(rng.integers(0, n_items, int(rng.integers(0, 15))))   # may repeat, as Spark allows
        labels = list(rng.permutation(n_items)[:int(rng.integers(0, 8))])
        if rng.random() < 0.2 and labels:          # a repeated label (Spark takes the set; the
            labels.append(labels[0])               # graded ideal reads the array as given)
        if graded:
            rel = list(rng.integers(0, 4, len(labels)))
            rows.append((pred, labels, rel))
        else:
            rows.append((pred, labels))
    return rows


def test_spark_suite_through_pyspark_and_the_jvm(spark):
    ours = ek.RankingMetrics(SUITE)
    theirs = python_wrapper(spark, SUITE, 2)
    for k in KS:
        assert ours.precisionAt(k) == pytest.approx(theirs.precisionAt(k), rel=1e-12, abs=1e-15)
        assert ours.recallAt(k) == pytest.approx(theirs.recallAt(k), rel=1e-12, abs=1e-15)
        assert ours.ndcgAt(k) == pytest.approx(theirs.ndcgAt(k), rel=1e-12, abs=1e-15)
        assert ours.meanAveragePrecisionAt(k) == pytest.approx(theirs.meanAveragePrecisionAt(k), rel=1e-12, abs=1e-15)
    assert ours.meanAveragePrecision == pytest.approx(theirs.meanAveragePrecision, rel=1e-12, abs=1e-15)
    graded = [(p, lab, r) for (p, lab), r in zip(SUITE, SUITE_RELEVANCE)]
    jm = jvm_metrics(spark, graded, 2)
    ours_graded = ek.RankingMetrics(graded)
    for k in KS:
        assert ours_graded.ndcgAt(k) == pytest.approx(jm.ndcgAt(k), rel=1e-12, abs=1e-15)
    assert round(jm.ndcgAt(3), 6) == 0.51196
    # PySpark's Python wrapper drops the relevance column: it returns the binary NDCG
    assert python_wrapper(spark, graded, 2).ndcgAt(3) == pytest.approx(ours.ndcgAt(3), rel=1e-12)
    assert ours.ndcgAt(3) != pytest.approx(jm.ndcgAt(3), rel=1e-3)


def test_spark_graded_ideal_is_the_given_order(spark):
    reversed_rows = [(p, lab[::-1], r[::-1]) for (p, lab), r in zip(SUITE, SUITE_RELEVANCE)]
    jm = jvm_metrics(spark, reversed_rows, 1)
    assert jm.ndcgAt(3) == pytest.approx(ek.RankingMetrics(reversed_rows).ndcgAt(3), rel=1e-12)
    assert jm.ndcgAt(3) > 1.75


@pytest.mark.parametrize("graded", [False, True])
def test_randomized_rows_bit_for_bit(spark, graded):
    rng = np.random.default_rng(11 + graded)
    for n_rows, parts in [(40, 1), (60, 2)]:
        rows = random_rows(rng, n_rows, graded)
        ours = ek.RankingMetrics(rows)
        jm = jvm_metrics(spark, rows, parts)
        for k in (1, 4, 15):
            assert ours.ndcgAt(k) == pytest.approx(jm.ndcgAt(k), rel=1e-12, abs=1e-15), k
            assert ours.precisionAt(k) == pytest.approx(jm.precisionAt(k), rel=1e-12, abs=1e-15), k
            assert ours.recallAt(k) == pytest.approx(jm.recallAt(k), rel=1e-12, abs=1e-15), k
            assert ours.meanAveragePrecisionAt(k) == pytest.approx(jm.meanAveragePrecisionAt(k), rel=1e-12, abs=1e-15), k
        assert ours.meanAveragePrecision == pytest.approx(jm.meanAveragePrecision(), rel=1e-12, abs=1e-15)
        if not graded:
            py = python_wrapper(spark, rows, parts)
            assert ours.ndcgAt(5) == pytest.approx(py.ndcgAt(5), rel=1e-12, abs=1e-15)
            assert ours.meanAveragePrecision == pytest.approx(py.meanAveragePrecision, rel=1e-12, abs=1e-15)


def test_ranking_presets_agree_with_spark_on_distinct_rows(spark):
    # evalkit.ranking with convention="spark" (distinct predictions, labels sorted by relevance)
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(50):
        items = rng.permutation(40)
        pred = [int(v) for v in items[:int(rng.integers(1, 20))]]
        labels = [int(v) for v in rng.permutation(40)[:int(rng.integers(1, 10))]]
        rel = sorted((int(v) for v in rng.integers(1, 4, len(labels))), reverse=True)
        rows.append((pred, labels, rel))
    jm = jvm_metrics(spark, rows, 1)
    ranked = [p for p, _, _ in rows]
    sets = [set(lab) for _, lab, _ in rows]
    grades = [dict(zip(lab, rel)) for _, lab, rel in rows]
    for k in (1, 5, 10):
        assert ek.ndcg_at_k(ranked, grades, k, convention="spark") == pytest.approx(jm.ndcgAt(k), abs=1e-14)
        assert ek.precision_at_k(ranked, sets, k, convention="spark") == pytest.approx(jm.precisionAt(k), abs=1e-14)
        assert ek.mean_average_precision(ranked, sets, k, convention="spark") == pytest.approx(
            jm.meanAveragePrecisionAt(k), abs=1e-14)
    assert ek.mean_average_precision(ranked, sets, convention="spark") == pytest.approx(
        jm.meanAveragePrecision(), abs=1e-14)


@pytest.mark.filterwarnings("ignore:.*no relevant items:evalkit.exceptions.UndefinedMetricWarning")
def test_evalkit_spark_graded_ranking_equals_the_jvm_and_evalkit(spark):
    """evalkit.spark.ranking_metrics with relevance_col: Spark's graded NDCG, evalkit's otherwise."""
    import evalkit.spark as eks

    rng = np.random.default_rng(17)
    rows = []
    for _ in range(80):
        pred = [float(v) for v in rng.permutation(30)[:int(rng.integers(0, 12))]]
        labels = [float(v) for v in rng.permutation(30)[:int(rng.integers(0, 8))]]
        rel = [float(v) for v in rng.integers(1, 4, len(labels))]   # Spark counts 0 as relevant
        rows.append((pred, labels, rel))
    df = spark.createDataFrame(rows, ["ranked", "relevant", "grade"]).repartition(3)
    with pytest.warns(ek.UndefinedMetricWarning, match="no relevant items") as caught:
        eks.ranking_metrics(df, k=5)                      # evalkit's rule for them: warn
    assert {w.filename for w in caught} == {__file__}, "warnings point at the caller's line"
    binary = eks.ranking_metrics(df, k=5, convention="spark")   # Spark's: 0, silently
    jm = jvm_metrics(spark, rows, 2)
    lists = [p for p, _, _ in rows]
    grades = [dict(zip(lab, rel)) for _, lab, rel in rows]
    for k in (1, 5, 10):
        ours = eks.ranking_metrics(df, k=k, relevance_col="grade", convention="spark")
        assert ours["ndcg_at_k"] == pytest.approx(jm.ndcgAt(k), rel=1e-12)
        assert ours["precision_at_k"] == pytest.approx(jm.precisionAt(k), rel=1e-12)
        assert ours["recall_at_k"] == pytest.approx(jm.recallAt(k), rel=1e-12)
        assert ours["mean_average_precision"] == pytest.approx(jm.meanAveragePrecisionAt(k),
                                                               rel=1e-12)
        # every other convention: evalkit.ranking on the same lists, grades sorted for the ideal
        for convention in ("evalkit", "trec", "ranx"):
            mine = eks.ranking_metrics(df, k=k, relevance_col="grade", convention=convention)
            assert mine["ndcg_at_k"] == pytest.approx(
                ek.ndcg_at_k(lists, grades, k, convention=convention), rel=1e-12), convention
    assert binary["ndcg_at_k"] != pytest.approx(jm.ndcgAt(5), rel=1e-6)   # graded differs

    # a grade of 0: not relevant for evalkit (Spark's precision would count it)
    zero = spark.createDataFrame([([1.0, 2.0, 3.0], [2.0, 3.0], [0.0, 2.0])],
                                 ["ranked", "relevant", "grade"])
    out = eks.ranking_metrics(zero, k=3, relevance_col="grade")
    assert out["precision_at_k"] == pytest.approx(1 / 3)
    assert out["ndcg_at_k"] == pytest.approx(ek.ndcg_at_k([[1, 2, 3]], [{2: 0, 3: 2}], 3))
    bad = spark.createDataFrame([([1.0], [1.0, 2.0], [1.0])], ["ranked", "relevant", "grade"])
    with pytest.raises(ValueError, match="relevance_col 'grade' must hold one grade per item"):
        eks.ranking_metrics(bad, k=3, relevance_col="grade")
    neg = spark.createDataFrame([([1.0], [1.0], [-1.0])], ["ranked", "relevant", "grade"])
    with pytest.raises(ValueError, match="relevance_col 'grade' must hold finite grades >= 0"):
        eks.ranking_metrics(neg, k=3, relevance_col="grade")
    with pytest.raises(ValueError, match="relevance_col 'nope' is not a column"):
        eks.ranking_metrics(df, k=3, relevance_col="nope")


def test_defects_of_issue_16_against_the_jvm(spark):
    # no row with a hit: 0.0, not a numpy casting error; a label graded 0 counts in P, R, MAP
    for rows in ([([1.0, 2.0], [3.0])], [([1.0, 2.0], [3.0], [2.0])],
                 [([1.0, 2.0, 3.0], [1.0, 2.0, 4.0], [0.0, 1.0, 0.0])]):
        jm = jvm_metrics(spark, rows, 1)
        ours = ek.RankingMetrics(rows)
        for k in (1, 2, 3):
            assert ours.ndcgAt(k) == pytest.approx(jm.ndcgAt(k), rel=1e-12, abs=1e-15)
            assert ours.precisionAt(k) == pytest.approx(jm.precisionAt(k), rel=1e-12, abs=1e-15)
            assert ours.recallAt(k) == pytest.approx(jm.recallAt(k), rel=1e-12, abs=1e-15)
            assert ours.meanAveragePrecisionAt(k) == pytest.approx(jm.meanAveragePrecisionAt(k),
                                                                   rel=1e-12, abs=1e-15)
        assert ours.meanAveragePrecision == pytest.approx(jm.meanAveragePrecision(), rel=1e-12, abs=1e-15)
    jm = jvm_metrics(spark, [([1.0, 2.0], [1.0, 2.0], [0.0, 1.0])], 1)
    assert ek.precision_at_k([[1, 2]], [{1: 0, 2: 1}], 2, convention="spark") == jm.precisionAt(2) == 1.0


def test_pyspark_snippet_runs_unchanged_on_the_mirror(spark):
    from pyspark.mllib.evaluation import RankingMetrics as PySparkRankingMetrics

    def snippet(metrics):
        return (metrics.precisionAt(5), metrics.recallAt(5), metrics.meanAveragePrecision,
                metrics.meanAveragePrecisionAt(3), metrics.ndcgAt(10))

    rows = _floats(SUITE)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        theirs = snippet(PySparkRankingMetrics(spark.sparkContext.parallelize(rows, 2)))
    assert snippet(ek.RankingMetrics(rows)) == pytest.approx(theirs, rel=1e-12, abs=1e-15)


def test_issue_torchmetrics_recall_at_1_on_the_cluster(spark):
    import evalkit.spark as eks

    df = spark.createDataFrame([(["a", "b", "c"], ["a", "c"])], ["ranked", "relevant"])
    for convention in ("torchmetrics", "sklearn"):
        out = eks.ranking_metrics(df, k=1, convention=convention)
        assert out["recall_at_k"] == ek.recall_at_k([["a", "b", "c"]], [{"a", "c"}], 1,
                                                    convention=convention) == 0.5


@pytest.mark.filterwarnings("ignore:.*ill-defined:evalkit.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("graded", [False, True])
def test_every_preset_on_the_cluster_equals_the_numpy_preset(spark, graded):
    """evalkit.spark.ranking_metrics: every convention, every metric it offers, = evalkit.ranking."""
    import evalkit.spark as eks

    rng = np.random.default_rng(23 + graded)
    rows = []
    for _ in range(70):
        pred = [int(v) for v in rng.permutation(25)[:int(rng.integers(0, 14))]]   # distinct
        labels = [int(v) for v in rng.permutation(25)[:int(rng.integers(0, 9))]]
        grades = [float(v) for v in rng.integers(0, 4, len(labels))]
        rows.append((pred, labels, grades))
    df = spark.createDataFrame(rows, "ranked array<long>, relevant array<long>, grade array<double>")
    df = df.repartition(3)
    ordered = [(r["ranked"], r["relevant"], r["grade"]) for r in df.collect()]   # the users' order
    lists = [p for p, _, _ in ordered]
    judged = [dict(zip(lab, g)) if graded else set(lab) for _, lab, g in ordered]
    column = "grade" if graded else None
    checked = 0
    for convention in ek.ranking.CONVENTIONS:
        for k in (1, 3, 10):
            ours = eks.ranking_metrics(df, k=k, convention=convention, relevance_col=column)
            assert set(ours) == set(eks.RANKING_METRICS)
            for name in eks.RANKING_METRICS:
                numpy = getattr(ek, name)(lists, judged, k, convention=convention)
                assert ours[name] == pytest.approx(numpy, rel=1e-12, abs=1e-15), (convention, k, name)
                checked += 1
    assert checked == len(ek.ranking.CONVENTIONS) * 3 * len(eks.RANKING_METRICS)


@pytest.mark.filterwarnings("ignore:.*no relevant items:evalkit.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("graded", [False, True])
def test_compare_of_rankers_on_the_cluster_equals_evalkit_compare(spark, graded):
    """Per-user hits from the cluster, users resampled on the driver: evalkit.compare's numbers
    on the same lists collected in the same order (one partition keeps that order)."""
    import evalkit.spark as eks

    rng = np.random.default_rng(21 + graded)
    users, models = 80, ("a", "b", "c")
    rows = []
    for _ in range(users):
        relevant = rng.choice(30, int(rng.integers(0, 6)), replace=False).tolist()
        grades = rng.integers(0 if not graded else 1, 4, len(relevant)).tolist()
        lists = [rng.choice(30, int(rng.integers(0, 15)), replace=False).tolist()
                 for _ in models]
        lists[0] = None if rng.random() < 0.05 else lists[0]      # a null list ranks nothing
        rows.append((*lists, relevant, [float(g) for g in grades]))
    schema = ", ".join(f"{m} array<long>" for m in models) + \
        ", relevant array<long>, grade array<double>"
    df = spark.createDataFrame(rows, schema).coalesce(1)
    metrics = ["ndcg@5", "map@10", "precision@3", "recall@10", "mrr"]
    options = {"n_resamples": 300, "random_state": 4, "baseline": "a"}
    ours = eks.compare(df, metrics, prediction_cols=list(models), label_col="relevant",
                       relevance_col="grade" if graded else None, **options)
    relevant = [dict(zip(r[-2], r[-1])) if graded else r[-2] for r in rows]
    local = ek.compare(relevant, {m: [r[i] or [] for r in rows] for i, m in enumerate(models)},
                       metrics, **options)
    for field in ("values", "low", "high"):
        np.testing.assert_allclose(getattr(ours, field), getattr(local, field), rtol=1e-12)
    assert [(p["metric"], p["model_a"]) for p in ours.pairs] == \
        [(p["metric"], p["model_a"]) for p in local.pairs]
    np.testing.assert_allclose([p["p_value"] for p in ours.pairs],
                               [p["p_value"] for p in local.pairs], rtol=1e-12)
    assert len(set(ours.values[:, 0].round(12))) == 3        # the models differ: not vacuous
    from pyspark.sql import functions as F

    with pytest.raises(ValueError, match="^label_col 'first' must hold arrays of relevant"):
        eks.compare(df.withColumn("first", F.col("relevant")[0]), metrics,
                    prediction_cols=list(models), label_col="first")
    with pytest.raises(ValueError, match="^prediction_cols must be all ranked lists"):
        eks.compare(df.withColumn("b", F.col("b")[0]), metrics, prediction_cols=list(models),
                    label_col="relevant")
