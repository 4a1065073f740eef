"""evalkit.mllib: the Spark post's Spark output digit for digit, brute-force and scikit-learn
oracles, bad input, and (marker ``spark``) real PySpark on randomized data.

The real-Spark tests share one local SparkSession per module. They are skipped
when pyspark or Java is missing -- unless the environment variable CI is
"true", where a missing Spark is a failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit._ratios import precision_of
from evalkit._sweep import threshold_sweep
from evalkit.course.datasets import students_hard_scores, students_soft_scores
from evalkit._spark_sweep import range_partition_sizes

SEED_FIRST = list(zip(*students_hard_scores()))
SEED_SCORES = list(zip(*students_soft_scores()))


def spark_lines(curve):
    return [ek.spark_format(row) for row in curve]


def random_rows(rng, n=None, decimals=None, weighted=False, zero_weights=False):
    """Scores with ties (rounded), labels drawn from them, optional weights."""
    n = int(rng.integers(20, 150)) if n is None else n
    decimals = int(rng.integers(1, 3)) if decimals is None else decimals
    s = np.round(rng.random(n), decimals)
    y = (rng.random(n) < s).astype(float)
    cols = [s, y]
    if weighted:
        w = rng.random(n) * 3
        if zero_weights:
            w[rng.random(n) < 0.2] = 0.0
        cols.append(w)
    return np.column_stack(cols)


# -- the Spark post, digit for digit ---------------------------------------------------------


def test_seed_first_data_set_prints_what_spark_printed():
    m = ek.BinaryClassificationMetrics(SEED_FIRST)
    assert spark_lines(m.precisionByThreshold()) == ["(1.0,1.0)", "(0.0,0.11)"]
    assert spark_lines(m.recallByThreshold()) == ["(1.0,0.09090909090909091)", "(0.0,1.0)"]
    assert spark_lines(m.fMeasureByThreshold()) == [
        "(1.0,0.16666666666666669)", "(0.0,0.19819819819819817)"]


def test_seed_second_data_set_prints_what_spark_printed():
    m = ek.BinaryClassificationMetrics(SEED_SCORES)
    assert spark_lines(m.precisionByThreshold()) == [
        "(1.0,1.0)", "(0.6,1.0)", "(0.4,1.0)", "(0.0,0.11)"]
    assert spark_lines(m.recallByThreshold()) == [
        "(1.0,0.09090909090909091)", "(0.6,0.5454545454545454)", "(0.4,1.0)", "(0.0,1.0)"]
    assert spark_lines(m.fMeasureByThreshold()) == [
        "(1.0,0.16666666666666669)", "(0.6,0.7058823529411764)", "(0.4,1.0)",
        "(0.0,0.19819819819819817)"]
    assert m.thresholds().tolist() == [1.0, 0.6, 0.4, 0.0]


def test_seed_intermediate_steps_in_two_partitions():
    steps = ek.spark_steps(SEED_SCORES, num_partitions=2)
    assert steps.partition_sizes == (2, 2)
    assert steps.partition_index.tolist() == [0, 0, 1, 1]
    assert steps.lines("binned_counts") == [
        "(1.0,{numPos: 1, numNeg: 0})",
        "(0.6,{numPos: 5, numNeg: 0})",
        "(0.4,{numPos: 5, numNeg: 0})",
        "(0.0,{numPos: 0, numNeg: 89})",
    ]
    assert steps.lines("agg") == ["{numPos: 6, numNeg: 0}", "{numPos: 5, numNeg: 89}"]
    assert steps.lines("partitionwise_cumulative_counts") == [
        "{numPos: 0, numNeg: 0}", "{numPos: 6, numNeg: 0}", "{numPos: 11, numNeg: 89}"]
    assert steps.lines("total_count") == ["Total counts: {numPos: 11, numNeg: 89}"]
    assert steps.lines("cumulative_counts") == [
        "(1.0,{numPos: 1, numNeg: 0})",
        "(0.6,{numPos: 6, numNeg: 0})",
        "(0.4,{numPos: 11, numNeg: 0})",
        "(0.0,{numPos: 11, numNeg: 89})",
    ]
    assert steps.lines("confusions") == [
        "(1.0,BinaryConfusionMatrixImpl({numPos: 1, numNeg: 0},{numPos: 11, numNeg: 89}))",
        "(0.6,BinaryConfusionMatrixImpl({numPos: 6, numNeg: 0},{numPos: 11, numNeg: 89}))",
        "(0.4,BinaryConfusionMatrixImpl({numPos: 11, numNeg: 0},{numPos: 11, numNeg: 89}))",
        "(0.0,BinaryConfusionMatrixImpl({numPos: 11, numNeg: 89},{numPos: 11, numNeg: 89}))",
    ]
    assert [repr(c) for _, c in steps.confusions()][0] == "BinaryCounts(tp=1, fp=0, fn=10, tn=89)"
    assert spark_lines(steps.metrics().precisionByThreshold()) == [
        "(1.0,1.0)", "(0.6,1.0)", "(0.4,1.0)", "(0.0,0.11)"]


def test_spark_f1_differs_from_counts_f1_in_the_last_digit():
    m = ek.BinaryClassificationMetrics(SEED_FIRST)
    _, counts = m.confusions()[0]
    assert m.fMeasureByThreshold()[0, 1] == 0.16666666666666669
    assert counts.f1() == 0.16666666666666666 == skm.f1_score([1] + [1] * 10 + [0] * 89,
                                                              [1] + [0] * 99)


# -- oracles: brute force per threshold, scikit-learn, evalkit's own mirrors ------------------


def brute_force(rows):
    """Metrics at every distinct score, one scikit-learn call per threshold."""
    s, y = rows[:, 0], rows[:, 1] > 0.5
    w = rows[:, 2] if rows.shape[1] == 3 else None
    out = []
    for t in np.unique(s)[::-1]:
        pred = s >= t
        tp = float(np.sum(np.where(pred & y, 1.0 if w is None else w, 0.0)))
        fp = float(np.sum(np.where(pred & ~y, 1.0 if w is None else w, 0.0)))
        p = 1.0 if tp + fp == 0 else skm.precision_score(y, pred, sample_weight=w, zero_division=0.0)
        r = skm.recall_score(y, pred, sample_weight=w, zero_division=0.0)
        out.append((t, tp, fp, p, r))
    return np.array(out)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_by_threshold_against_brute_force(seed, weighted):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng, weighted=weighted, zero_weights=weighted)
    m = ek.BinaryClassificationMetrics(rows)
    want = brute_force(rows)
    np.testing.assert_array_equal(m.thresholds(), want[:, 0])
    np.testing.assert_allclose(m.cumulativeCounts()[:, 1:], want[:, 1:3], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(m.precisionByThreshold()[:, 1], want[:, 3], rtol=1e-12)
    np.testing.assert_allclose(m.recallByThreshold()[:, 1], want[:, 4], rtol=1e-12)
    p, r = want[:, 3], want[:, 4]
    for beta in (0.5, 1.0, 2.0):
        b2 = beta * beta
        f = np.where(p + r == 0, 0.0, (1 + b2) * p * r / np.where(p + r == 0, 1, b2 * p + r))
        np.testing.assert_allclose(m.fMeasureByThreshold(beta)[:, 1], f, rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_area_under_roc_is_roc_auc_score_without_binning(seed):
    rows = random_rows(np.random.default_rng(seed))
    y, s = rows[:, 1], rows[:, 0]
    auc = ek.BinaryClassificationMetrics(rows).areaUnderROC
    assert auc == pytest.approx(skm.roc_auc_score(y, s), rel=1e-12)
    assert auc == pytest.approx(ek.roc_auc_score(y, s), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_roc_points_are_roc_curve_points(seed):
    rows = random_rows(np.random.default_rng(seed))
    roc = ek.BinaryClassificationMetrics(rows).roc()
    fpr, tpr, _ = ek.roc_curve(rows[:, 1], rows[:, 0], drop_intermediate=False)
    # Spark: (0, 0), one point per distinct score, (1, 1); sklearn: (0, 0), one per score
    np.testing.assert_array_equal(roc[:-1], np.column_stack((fpr, tpr)))
    assert roc[-1].tolist() == [1.0, 1.0]


def test_precision_is_the_sweeps_except_where_nothing_is_predicted_positive():
    # the top score has weight 0: nothing is predicted positive at threshold 0.9
    rows = [(0.9, 1.0, 0.0), (0.7, 1.0, 1.0), (0.5, 0.0, 2.0), (0.1, 1.0, 1.0)]
    s, y, w = np.array(rows).T
    got = ek.BinaryClassificationMetrics(rows).precisionByThreshold()[:, 1]
    sweep = threshold_sweep(y, s, sample_weight=w, zero_weight="keep")
    sweep = precision_of(sweep.tps, sweep.fps, zero_division=0.0)
    sk = [skm.precision_score(y, s >= t, sample_weight=w, zero_division=0.0)
          for t in [0.9, 0.7, 0.5, 0.1]]
    assert got[0] == 1.0 and sweep[0] == sk[0] == 0.0    # Spark's 1.0, sklearn's zero_division
    np.testing.assert_array_equal(got[1:], sweep[1:])
    np.testing.assert_allclose(got[1:], sk[1:], rtol=1e-12)


def test_best_threshold_by_f1_is_argmax_of_f_measure_by_threshold():
    rows = random_rows(np.random.default_rng(7), n=300)
    f = ek.BinaryClassificationMetrics(rows).fMeasureByThreshold()
    t, v = ek.best_threshold(rows[:, 1], rows[:, 0])
    assert t == f[np.argmax(f[:, 1]), 0]
    assert v == pytest.approx(f[:, 1].max(), rel=1e-12)


def test_pr_first_point_conventions():
    rows = [(0.9, 0), (0.9, 1), (0.3, 1), (0.2, 0)]   # a tie at the top: precision 1/2 there
    new = ek.BinaryClassificationMetrics(rows)
    old = ek.BinaryClassificationMetrics(rows, convention="legacy")
    assert new.pr()[0].tolist() == [0.0, 0.5]
    assert old.pr()[0].tolist() == [0.0, 1.0]
    np.testing.assert_array_equal(new.pr()[1:], old.pr()[1:])
    # the first trapezoid spans recall 0 to 0.5: (1.0 - 0.5) * 0.5 / 2 more area
    assert old.areaUnderPR - new.areaUnderPR == pytest.approx(0.125)


def test_area_is_the_trapezoid_sum():
    m = ek.BinaryClassificationMetrics(random_rows(np.random.default_rng(3)))
    for curve, area in [(m.roc(), m.areaUnderROC), (m.pr(), m.areaUnderPR)]:
        assert area == pytest.approx(np.trapezoid(curve[:, 1], curve[:, 0]), rel=1e-12)


# -- numBins ------------------------------------------------------------------------


@pytest.mark.parametrize("num_bins", [1, 3, 10, 40])
def test_binned_points_are_exact_points_of_the_full_curve(num_bins):
    rows = random_rows(np.random.default_rng(11), n=200, decimals=3)
    full = ek.BinaryClassificationMetrics(rows)
    last = ek.BinaryClassificationMetrics(rows, num_bins)
    first = ek.BinaryClassificationMetrics(rows, num_bins, bin_threshold="first")
    m = len(full.thresholds())
    g = m // num_bins
    if g < 2:
        np.testing.assert_array_equal(last.cumulativeCounts(), full.cumulativeCounts())
        return
    assert len(last.thresholds()) == -(-m // g)
    where = np.searchsorted(-full.thresholds(), -last.thresholds())
    # "last": each kept point is the full curve's point at its threshold
    np.testing.assert_array_equal(last.cumulativeCounts(), full.cumulativeCounts()[where])
    # "first": same counts, labelled with the chunk's highest score
    np.testing.assert_array_equal(first.cumulativeCounts()[:, 1:], last.cumulativeCounts()[:, 1:])
    assert (first.thresholds() >= last.thresholds()).all()
    assert first.thresholds()[0] == full.thresholds()[0]


def test_spark_steps_with_one_partition_is_the_evaluator():
    rows = random_rows(np.random.default_rng(5), n=120, decimals=2)
    for num_bins in (0, 3, 10):
        for bt in ("last", "first"):
            steps = ek.spark_steps(rows, num_partitions=1, num_bins=num_bins, bin_threshold=bt)
            m = ek.BinaryClassificationMetrics(rows, num_bins, bin_threshold=bt)
            np.testing.assert_array_equal(steps.cumulative_counts, m.cumulativeCounts())
            np.testing.assert_array_equal(steps.metrics().fMeasureByThreshold(),
                                          m.fMeasureByThreshold())


@pytest.mark.parametrize("num_partitions", [1, 2, 3, 7])
def test_without_binning_the_partitioning_does_not_matter(num_partitions):
    rows = random_rows(np.random.default_rng(num_partitions), n=90)
    steps = ek.spark_steps(rows, num_partitions=num_partitions)
    m = ek.BinaryClassificationMetrics(rows)
    np.testing.assert_array_equal(steps.cumulative_counts, m.cumulativeCounts())
    np.testing.assert_array_equal(steps.counts, m.binnedCounts())
    np.testing.assert_array_equal(steps.agg.sum(axis=0), steps.total_count)
    assert steps.total_count.tolist() == [m.sweep.n_pos, m.sweep.n_neg]
    assert sum(steps.partition_sizes) == len(m.thresholds())


def test_with_binning_the_partitioning_matters():
    rows = np.column_stack((np.arange(12) / 12, np.arange(12) % 2))
    one = ek.spark_steps(rows, num_partitions=1, num_bins=4)     # chunks of 3: 3 + 3 + 3 + 3
    two = ek.spark_steps(rows, num_partitions=2, num_bins=4)     # 6 | 6: 3 + 3 | 3 + 3
    five = ek.spark_steps(rows, partition_sizes=(5, 7), num_bins=4)  # 3 + 2 | 3 + 3 + 1
    assert len(one.binned_counts) == len(two.binned_counts) == 4
    np.testing.assert_array_equal(one.cumulative_counts, two.cumulative_counts)
    assert five.binned_counts[:, 1:].sum(axis=1).tolist() == [3, 2, 3, 3, 1]
    assert len(five.cumulative_counts) == 5
    # every kept point is still exact: a chunk's counts are the full counts at its lowest score
    full = ek.BinaryClassificationMetrics(rows).cumulativeCounts()
    where = np.searchsorted(-full[:, 0], -five.cumulative_counts[:, 0])
    np.testing.assert_array_equal(five.cumulative_counts, full[where])


@pytest.mark.parametrize("m, p, sizes", [
    (4, 2, (2, 2)),      # the Spark post: 1.0, 0.6 | 0.4, 0.0
    (5, 2, (2, 3)),      # the lower half takes the extra score (bounds are found ascending)
    (10, 4, (2, 3, 2, 3)),
    (7, 3, (2, 2, 3)),
    (1, 2, (0, 1)),
    (9, 1, (9,)),
])
def test_range_partition_sizes(m, p, sizes):
    assert range_partition_sizes(m, p) == sizes


# -- printing --------------------------------------------------------------------------


@pytest.mark.parametrize("value, text", [
    (1.0, "1.0"), (0.11, "0.11"), (100.0, "100.0"), (0.001, "0.001"), (0.0001, "1.0E-4"),
    (1.5e-7, "1.5E-7"), (9999999.0, "9999999.0"), (1e7, "1.0E7"), (1.2345678e10, "1.2345678E10"),
    (-2.5, "-2.5"), (0.0, "0.0"), (-0.0, "-0.0"), (float("nan"), "NaN"),
    (float("inf"), "Infinity"), (-float("inf"), "-Infinity"), (89, "89"), (np.int64(6), "6"),
    (np.float64(0.19819819819819817), "0.19819819819819817"), (True, "true"),
    ((1.0, 0.5), "(1.0,0.5)"), (np.array([0.6, 1.0]), "(0.6,1.0)"),
])
def test_spark_format(value, text):
    assert ek.spark_format(value) == text


#: Double.toString(x) printed by OpenJDK 17.0.15 (the Java Spark runs on here); Java 19+ prints
#: the shortest digits instead where the two differ (marked *: Java 25 prints the value after #)
JAVA_17 = [
    (5e-324, "4.9E-324"), (1e-323, "1.0E-323"),  # * 9.9E-324
    (1.5e-323, "1.5E-323"), (2e-323, "2.0E-323"), (4e-323, "4.0E-323"),
    (1e-322, "1.0E-322"),  # * 9.9E-323
    (32 * 5e-324, "1.58E-322"),  # * 1.6E-322
    (128 * 5e-324, "6.32E-322"),  # * 6.3E-322
    (2048 * 5e-324, "1.0118E-320"),  # * 1.012E-320
    (131072 * 5e-324, "6.47582E-319"),  # * 6.4758E-319
    (2.2250738585072014e-308, "2.2250738585072014E-308"), (1e-310, "1.0E-310"),
    (1e23, "9.999999999999999E22"),  # * 1.0E23
    (2e23, "1.9999999999999998E23"),  # * 2.0E23
    (2.0 ** 60, "1.15292150460684698E18"),
    (2.0 ** 62 + 2 ** 10, "4.6116860184273889E18"), (3.602879701896397e16, "3.6028797018963968E16"),
    (2.9660096386720333e25, "2.9660096386720332E25"),
    (1e-4, "1.0E-4"), (0.001, "0.001"), (1e7, "1.0E7"), (9999999.0, "9999999.0"),
    (12345678.0, "1.2345678E7"), (1 / 3, "0.3333333333333333"), (1e21, "1.0E21"), (1e22, "1.0E22"),
    (1.7976931348623157e308, "1.7976931348623157E308"), (0.30000000000000004, "0.30000000000000004"),
]


@pytest.mark.parametrize("value, text", JAVA_17)
def test_spark_format_prints_java_17_digits(value, text):
    """The review's case: 2 x Double.MIN_VALUE is 1.0E-323 in Java 17 (the old code said 9.9E-324)."""
    assert ek.spark_format(value) == text
    assert ek.spark_format(-value) == "-" + text


def test_spark_format_against_a_java_17_run(tmp_path):
    """Random doubles of every exponent through real ``java`` (17), when it is on PATH."""
    import shutil
    import struct
    import subprocess

    java = shutil.which("java")
    if java is None:
        pytest.skip("no java on PATH")
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    if not re.search(r'version "17[."]', version):
        pytest.skip(f"java on PATH is not Java 17: {version.splitlines()[0]}")
    source = tmp_path / "D.java"
    source.write_text(
        "public class D { public static void main(String[] a) throws Exception {"
        " var r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)); String l;"
        " while ((l = r.readLine()) != null)"
        " System.out.println(Double.toString(Double.longBitsToDouble(Long.parseLong(l)))); } }")
    rng = np.random.default_rng(17)
    bits = np.r_[rng.integers(0, 2 ** 63, 3000, dtype=np.int64), np.arange(1, 300),
                 [struct.unpack("<q", struct.pack("<d", float(v)))[0]
                  for v in np.r_[rng.random(500), np.round(rng.random(500), 3)]]]
    out = subprocess.run([java, str(source)], input="\n".join(map(str, bits.tolist())) + "\n",
                         capture_output=True, text=True, check=True).stdout.split()
    values = [struct.unpack("<d", struct.pack("<q", int(b)))[0] for b in bits.tolist()]
    assert [ek.spark_format(v) for v in values] == out


def test_spark_format_round_trips():
    rng = np.random.default_rng(0)
    for x in np.r_[rng.random(200), rng.random(50) * 1e-5, rng.random(50) * 1e9]:
        assert float(ek.spark_format(float(x))) == x


# -- MulticlassMetrics -------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_multiclass_against_sklearn(seed):
    """Per label and weighted P/R/F, accuracy, the matrix: scikit-learn over Spark's labels."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 200))
    y = rng.integers(0, 4, n).astype(float)
    pred = np.where(rng.random(n) < 0.5, y, rng.integers(0, 6, n)).astype(float)  # 4, 5: never labels
    w = rng.random(n) * 2 if seed % 2 else None
    rows = np.column_stack([pred, y] + ([w] if w is not None else []))
    m = ek.MulticlassMetrics(rows)
    labels = np.unique(y)
    np.testing.assert_array_equal(m.labels, labels)
    np.testing.assert_allclose(m.confusionMatrix().toArray(),
                               skm.confusion_matrix(y, pred, labels=labels, sample_weight=w))
    for beta in (1.0, 0.5, 2.0):
        p, r, f, _ = skm.precision_recall_fscore_support(y, pred, labels=labels, beta=beta,
                                                         sample_weight=w, zero_division=0.0)
        ours = np.array([[m.precision(c), m.recall(c), m.fMeasure(c, beta)] for c in labels])
        np.testing.assert_allclose(ours, np.column_stack((p, r, f)), rtol=1e-12, atol=1e-15)
        wp, wr, wf, _ = skm.precision_recall_fscore_support(
            y, pred, labels=labels, beta=beta, sample_weight=w, average="weighted", zero_division=0.0)
        assert (m.weightedPrecision, m.weightedRecall, m.weightedFMeasure(beta)) == \
            pytest.approx((wp, wr, wf), rel=1e-12)
    assert m.accuracy == pytest.approx(skm.accuracy_score(y, pred, sample_weight=w), rel=1e-12)
    assert m.hammingLoss == pytest.approx(1 - m.accuracy, rel=1e-12, abs=1e-15)
    assert m.weightedTruePositiveRate == m.weightedRecall == pytest.approx(m.accuracy, rel=1e-12)
    ww = np.ones(n) if w is None else w
    fpr = [ww[(pred == c) & (y != c)].sum() / ww[y != c].sum() for c in labels]
    np.testing.assert_allclose([m.falsePositiveRate(c) for c in labels], fpr, rtol=1e-12)
    assert m.weightedFalsePositiveRate == pytest.approx(
        np.sum(np.array(fpr) * np.array([ww[y == c].sum() for c in labels])) / ww.sum(), rel=1e-12)


def test_multiclass_log_loss_brute_force():
    rng = np.random.default_rng(8)
    proba = rng.dirichlet(np.ones(3), 50)
    proba[0] = [0.0, 1.0, 0.0]
    y = rng.integers(0, 3, 50)
    y[0] = 0                                       # probability 0: clipped to eps
    w = rng.random(50)
    rows = [(0.0, float(t), float(v), list(q)) for t, v, q in zip(y, w, proba)]
    for eps in (1e-15, 0.1):
        p = np.clip(proba[np.arange(50), y], eps, 1 - eps)
        assert ek.MulticlassMetrics(rows).logLoss(eps) == pytest.approx(
            np.sum(-np.log(p) * w) / w.sum(), rel=1e-12)
    with pytest.raises(ValueError, match="eps must be"):
        ek.MulticlassMetrics(rows).logLoss(0.5)
    with pytest.raises(ValueError, match="logLoss needs rows"):
        ek.MulticlassMetrics([(0.0, 1.0)]).logLoss()


def test_multiclass_edges():
    m = ek.MulticlassMetrics([(1.0, 0.0), (1.0, 0.0)])      # one label, never predicted
    assert m.precision(0.0) == 0.0 and m.recall(0.0) == 0.0 and m.fMeasure(0.0) == 0.0
    assert np.isnan(m.falsePositiveRate(0.0))               # 0 / 0, as Spark's Double division
    with pytest.raises(ValueError, match="label 1.0 is not one of the labels"):
        m.precision(1.0)                                    # predicted only: no row, as Spark
    with pytest.raises(ValueError, match="beta must be"):
        m.fMeasure(0.0, -1.0)
    assert isinstance(m.confusionMatrix(), np.ndarray)


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize("rows, error, words", [
    ([(0.5, 1.0), (np.nan, 0.0)], ValueError, r"score_and_labels contains NaN scores \(column 0\)"),
    ([(0.5, 1.0), (np.inf, 0.0)], ValueError, "score_and_labels contains infinite scores"),
    ([(0.5, np.nan)], ValueError, "score_and_labels contains NaN labels"),
    ([(0.5, 1.0, 2.0, 3.0)], ValueError, r"score_and_labels must hold n rows .* shape \(1, 4\)"),
    ([0.5, 0.2, 0.1], ValueError, r"score_and_labels must hold n rows .* shape \(3,\)"),
    ([[0.1, 0.2, 0.3, 0.4], [0, 1, 0, 1]], ValueError, "columns, not rows"),
    (np.empty((0, 2)), ValueError, "score_and_labels is empty"),
    ([(0.5, 1.0), (0.2,)], ValueError, "score_and_labels has rows of different lengths"),
    ([(0.5, 1.0, -1.0)], ValueError, r"score_and_labels column 2 \(weights\) contains negative"),
    ([(0.5, 1.0, 0.0)], ValueError, r"score_and_labels column 2 \(weights\) is all zeros"),
    ([("a", "b")], TypeError, "score_and_labels must hold numbers"),
    (None, TypeError, "score_and_labels is required"),
    (0.5, TypeError, "score_and_labels must be rows"),
])
def test_bad_score_and_labels(rows, error, words):
    with pytest.raises(error, match=words.replace("score_and_labels", "scoreAndLabels")):
        ek.BinaryClassificationMetrics(rows)
    with pytest.raises(error, match=words):
        ek.spark_steps(rows)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"num_bins": -1}, ValueError, r"num_bins must be >= 0 \(0 means no down-sampling\); got -1"),
    ({"num_bins": 2.5}, TypeError, "num_bins must be an integer"),
    ({"num_bins": True}, TypeError, "num_bins must be an integer"),
    ({"bin_threshold": "middle"}, ValueError, "bin_threshold must be 'last'"),
    ({"convention": "sklearn"}, ValueError, "convention must be 'spark'"),
])
def test_bad_options(kwargs, error, words):
    with pytest.raises(error, match=words):
        ek.BinaryClassificationMetrics(SEED_SCORES, **kwargs)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"num_partitions": 0}, ValueError, "num_partitions must be >= 1"),
    ({"num_partitions": "2"}, TypeError, "num_partitions must be an integer"),
    ({"partition_sizes": (1, 2)}, ValueError, r"partition_sizes must add up to the 4 distinct"),
    ({"partition_sizes": (5, -1)}, ValueError, "partition_sizes must be >= 0"),
    ({"partition_sizes": 4}, TypeError, "partition_sizes must be a list of integers"),
    ({"num_bins": -2}, ValueError, "num_bins must be >= 0"),
])
def test_bad_steps_options(kwargs, error, words):
    with pytest.raises(error, match=words):
        ek.spark_steps(SEED_SCORES, **kwargs)


def test_bad_beta_and_step():
    m = ek.BinaryClassificationMetrics(SEED_SCORES)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        m.fMeasureByThreshold(-1.0)
    with pytest.raises(ValueError, match="step must be"):
        ek.spark_steps(SEED_SCORES).lines("sorted")


# -- one constructor, Spark's split said, examples without the course -----------------------

OPTIONS = ("num_bins", "bin_threshold", "convention", "num_partitions", "zero_weight")


def test_every_way_to_build_the_evaluator_sets_every_option():
    """__init__, from_sweep and SparkSteps.metrics go through one constructor: nothing unset."""
    rows = random_rows(np.random.default_rng(12), n=80, decimals=2)
    made = {
        "init": ek.BinaryClassificationMetrics(rows, 3, num_partitions=2, convention="legacy"),
        "from_sweep": ek.BinaryClassificationMetrics.from_sweep(
            threshold_sweep(rows[:, 1], rows[:, 0]), 3, convention="legacy"),
        "steps": ek.spark_steps(rows, num_partitions=2, num_bins=3).metrics(convention="legacy"),
    }
    for how, m in made.items():
        assert set(OPTIONS) | {"sweep"} <= set(vars(m)), how   # on the instance, not the class
        assert (m.num_bins, m.convention) == (3, "legacy"), how
    assert (made["init"].num_partitions, made["steps"].num_partitions) == (2, 2)
    assert (made["from_sweep"].num_partitions, made["from_sweep"].zero_weight) == (1, "keep")
    np.testing.assert_array_equal(made["init"].pr(), made["steps"].pr())


def _scores_by_hash_partition(sizes, seed=0):
    """Distinct scores, ``sizes[p]`` of them in partition p of Java's HashPartitioner."""
    rng = np.random.default_rng(seed)
    pool = np.unique(np.round(rng.random(20 * sum(sizes)), 6))
    bits = pool.view(np.uint64)
    java_hash = ((bits ^ (bits >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    part = java_hash.view(np.int32).astype(np.int64) % len(sizes)
    return np.concatenate([pool[part == p][:n] for p, n in enumerate(sizes)])


def test_an_even_split_spark_would_not_make_is_said():
    """More than 60 distinct scores in a partition of the combined counts: Spark samples."""
    rng = np.random.default_rng(0)
    many = np.column_stack((rng.random(1000), rng.random(1000) < 0.3))   # 1000 distinct scores
    with pytest.warns(UserWarning, match=r"num_partitions=2 splits the 1000 distinct scores "
                                         r"evenly.*one holds 5\d\d here.*partition_sizes="):
        steps = ek.spark_steps(many, num_partitions=2, num_bins=10)
    assert steps.partition_sizes == (500, 500)     # still the even split, as documented
    with pytest.warns(UserWarning, match=r"spark_steps\(\.\.\., partition_sizes=\.\.\.\)"):
        ek.BinaryClassificationMetrics(many, 10, num_partitions=2)
    # 61 scores in one hash partition and 10 in the other: 71 < 2 x 60, and still sampled
    lopsided = _scores_by_hash_partition([61, 10])
    rows = np.column_stack((lopsided, np.arange(71) % 2))
    with pytest.warns(UserWarning, match="one holds 61 here"):
        ek.spark_steps(rows, num_partitions=2, num_bins=5)


@pytest.mark.filterwarnings("error::UserWarning")
def test_no_word_where_the_even_split_is_sparks_or_does_not_matter():
    rng = np.random.default_rng(0)
    many = np.column_stack((rng.random(1000), rng.random(1000) < 0.3))
    ek.spark_steps(many, num_partitions=2)                        # no binning: any split
    ek.spark_steps(many, num_partitions=1, num_bins=10)           # one partition: no bounds
    ek.spark_steps(many, num_partitions=2, num_bins=600)          # chunks of 1: nothing grouped
    ek.spark_steps(many, partition_sizes=(430, 570), num_bins=10)  # Spark's split, given
    ek.BinaryClassificationMetrics(many, 10)
    sixty = np.column_stack((_scores_by_hash_partition([60, 60]), np.arange(120) % 2))
    ek.spark_steps(sixty, num_partitions=2, num_bins=5)          # the sample holds every score
    ek.spark_steps(SEED_SCORES, num_partitions=2, num_bins=2)


def test_docstring_examples_need_no_course():
    """The wheel leaves evalkit.course out: mllib's and mllib_steps' examples run without it."""
    import subprocess
    import sys

    code = """
import doctest, importlib.abc, sys
from _doctest_in_venv import FLAGS, NumberChecker   # the flags `make test` runs examples with
class NoCourse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "evalkit.course" or name.startswith("evalkit.course."):
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, NoCourse())
import evalkit.mllib, evalkit.mllib_steps
for module in (evalkit.mllib, evalkit.mllib_steps):
    runner = doctest.DocTestRunner(checker=NumberChecker(), optionflags=FLAGS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
    print(module.__name__, runner.tries, runner.failures)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parent).stdout.split()
    assert out[0::3] == ["evalkit.mllib", "evalkit.mllib_steps"]
    assert all(int(n) > 5 for n in out[1::3]) and out[2::3] == ["0", "0"], out


# -- real PySpark ----------------------------------------------------------------------


_NUMBER = r"-?(?:\d+\.\d*(?:E-?\d+)?|NaN|Infinity)"


def _collect_pairs(jrdd):
    """Collect a JVM RDD[(Double, Double)] through its toString (Double.toString round-trips)."""
    text = jrdd.toJavaRDD().collect().toString()
    pairs = re.findall(rf"\(({_NUMBER}),({_NUMBER})\)", text)
    return np.array([[float(a), float(b)] for a, b in pairs]).reshape(-1, 2)


def _jvm_dataset(spark, rows, num_partitions):
    """The JVM Dataset of (score, label[, weight]) tuples PySpark's wrapper would build."""
    from pyspark.sql.types import DoubleType, StructField, StructType

    rows = [tuple(float(v) for v in r) for r in rows]
    ncol = len(rows[0])
    names = ["score", "label", "weight"][:ncol]
    schema = StructType([StructField(n, DoubleType(), False) for n in names])
    sc = spark.sparkContext
    df = spark.createDataFrame(sc.parallelize(rows, num_partitions), schema)
    enc = sc._jvm.org.apache.spark.sql.Encoders
    return getattr(df._jdf, "as")(enc.tuple(*[enc.DOUBLE()] * ncol))


class RealSpark:
    """Spark's BinaryClassificationMetrics on an RDD of `rows` in `num_partitions` partitions.

    PySpark's wrapper has no numBins and no curves, so the JVM class is built
    directly (from the DataFrame PySpark would make, as a Dataset of tuples).
    """

    def __init__(self, spark, rows, num_bins=0, num_partitions=1):
        jrdd = _jvm_dataset(spark, rows, num_partitions).rdd()
        self.j = spark.sparkContext._jvm.org.apache.spark.mllib.evaluation \
            .BinaryClassificationMetrics(jrdd, num_bins)

    def thresholds(self):
        text = self.j.thresholds().toJavaRDD().collect().toString()
        return np.array([float(v) for v in re.findall(_NUMBER, text)])

    def curve(self, name, *args):
        return _collect_pairs(getattr(self.j, name)(*args))


def assert_same_as_spark(ours, theirs, exact=True):
    """Every curve equal to real Spark's: bit for bit (unweighted), else to 1e-12; areas to 1e-12.

    Spark adds the areas' trapezoids per partition of its curve, evalkit from
    left to right, and weights in its own order: the last bits may differ.
    """
    check = (np.testing.assert_array_equal if exact else
             lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15))
    check(ours.thresholds(), theirs.thresholds())
    check(ours.precisionByThreshold(), theirs.curve("precisionByThreshold"))
    check(ours.recallByThreshold(), theirs.curve("recallByThreshold"))
    for beta in (1.0, 0.5, 2.0):
        check(ours.fMeasureByThreshold(beta), theirs.curve("fMeasureByThreshold", beta))
    check(ours.roc(), theirs.curve("roc"))
    check(ours.pr(), theirs.curve("pr"))
    assert ours.areaUnderROC == pytest.approx(theirs.j.areaUnderROC(), rel=1e-12)
    assert ours.areaUnderPR == pytest.approx(theirs.j.areaUnderPR(), rel=1e-12)


@pytest.mark.spark
def test_real_spark_prints_the_seeds_numbers(spark):
    for rows in (SEED_FIRST, SEED_SCORES):
        theirs = RealSpark(spark, rows, num_partitions=2)
        ours = ek.BinaryClassificationMetrics(rows)
        assert spark_lines(theirs.curve("precisionByThreshold")) == \
            spark_lines(ours.precisionByThreshold())
        assert_same_as_spark(ours, theirs)


def _jvm_sorted_split(spark, rows, num_partitions):
    """The distinct scores in each partition of the JVM's sortByKey(ascending = false)."""
    jvm = spark.sparkContext._jvm
    pairs = jvm.org.apache.spark.api.java.JavaPairRDD.fromJavaRDD(
        _jvm_dataset(spark, rows, num_partitions).toJavaRDD())
    # groupByKey hash-partitions the keys as combineByKey does; no Scala closure needed
    text = pairs.groupByKey().sortByKey(False).keys().glom().collect().toString()
    return [[float(v) for v in re.findall(_NUMBER, part)]
            for part in re.findall(r"\[([^\[\]]*)\]", text)]


@pytest.mark.spark
def test_real_spark_sorted_counts_split_as_the_seed_says(spark):
    """The JVM's sortByKey (RangePartitioner) puts 1.0, 0.6 | 0.4, 0.0 in 2 partitions."""
    split = _jvm_sorted_split(spark, SEED_SCORES, 2)
    assert split == [[1.0, 0.6], [0.4, 0.0]]
    assert tuple(map(len, split)) == ek.spark_steps(SEED_SCORES, num_partitions=2).partition_sizes
    rows = random_rows(np.random.default_rng(400), n=100, decimals=2)
    for p in (3, 4):
        split = _jvm_sorted_split(spark, rows, p)
        steps = ek.spark_steps(rows, num_partitions=p)
        assert tuple(map(len, split)) == steps.partition_sizes
        assert [s for part in split for s in part] == steps.counts[:, 0].tolist()


@pytest.mark.spark
def test_real_spark_rdd_steps_replay_the_seeds_code(spark):
    """The seed's Scala walk-through as PySpark RDD operations, on the split they make."""
    sc = spark.sparkContext
    rdd = sc.parallelize([(float(s), float(y)) for s, y in SEED_SCORES], 2)
    binned = rdd.combineByKey(
        lambda label: (int(label > 0.5), int(label <= 0.5)),
        lambda c, label: (c[0] + int(label > 0.5), c[1] + int(label <= 0.5)),
        lambda a, b: (a[0] + b[0], a[1] + b[1]),
    ).sortByKey(ascending=False)
    agg = binned.values().mapPartitions(
        lambda it: [tuple(map(sum, zip((0, 0), *it)))]).collect()
    scan = [(0, 0)]
    for p, n in agg:
        scan.append((scan[-1][0] + p, scan[-1][1] + n))

    def running(index, it):
        p, n = scan[index]
        for score, (dp, dn) in it:
            p, n = p + dp, n + dn
            yield score, p, n

    cumulative = binned.mapPartitionsWithIndex(running).collect()
    # Python's sortByKey samples its own bounds: 1.0 | 0.6, 0.4, 0.0, not the JVM's 2 | 2
    sizes = tuple(binned.glom().map(len).collect())
    steps = ek.spark_steps(SEED_SCORES, partition_sizes=sizes)
    assert [list(a) for a in agg] == steps.agg.tolist()
    assert [list(s) for s in scan] == steps.partitionwise_cumulative_counts.tolist()
    assert [list(c) for c in cumulative] == steps.cumulative_counts.tolist()
    assert steps.cumulative_counts.tolist() == \
        ek.spark_steps(SEED_SCORES, num_partitions=2).cumulative_counts.tolist()


@pytest.mark.spark
@pytest.mark.parametrize("seed", range(2))
def test_real_spark_one_partition_random_data_with_ties(spark, seed):
    rng = np.random.default_rng(100 + seed)
    rows = random_rows(rng, n=int(rng.integers(30, 120)), decimals=2)
    for num_bins in (0, 3, 10):
        theirs = RealSpark(spark, rows, num_bins=num_bins, num_partitions=1)
        assert_same_as_spark(ek.BinaryClassificationMetrics(rows, num_bins), theirs)


@pytest.mark.spark
@pytest.mark.parametrize("seed, num_partitions", [(0, 2), (1, 3)])
def test_real_spark_binning_in_several_partitions(spark, seed, num_partitions):
    """Spark's chunks restart at partition boundaries: spark_steps replays that exactly."""
    rng = np.random.default_rng(200 + seed)
    rows = random_rows(rng, n=150, decimals=2)          # at most 101 distinct scores
    differs = False
    for num_bins in (3, 10):
        theirs = RealSpark(spark, rows, num_bins=num_bins, num_partitions=num_partitions)
        steps = ek.spark_steps(rows, num_partitions=num_partitions, num_bins=num_bins)
        assert_same_as_spark(steps.metrics(), theirs)
        one = ek.BinaryClassificationMetrics(rows, num_bins)
        differs |= not np.array_equal(one.thresholds(), theirs.thresholds())
    assert differs, "expected at least one partitioned result to differ from one partition"


@pytest.mark.spark
@pytest.mark.parametrize("seed", range(2))
def test_real_spark_weights(spark, seed):
    """Weighted rows, ties across the input slices, zero weights: Spark's numbers to 1e-12.

    At most ~100 distinct scores in 2-3 partitions: Spark's range partitioner
    then sees every score, and its split is the one evalkit replays.
    """
    from pyspark.mllib.evaluation import BinaryClassificationMetrics as PySparkMetrics

    rng = np.random.default_rng(300 + seed)
    rows = random_rows(rng, n=int(rng.integers(60, 150)), decimals=2, weighted=True,
                       zero_weights=True)
    for p in (1, 3 - seed):
        for num_bins in (0, 5):
            ours = ek.BinaryClassificationMetrics(rows, num_bins, num_partitions=p)
            assert_same_as_spark(ours, RealSpark(spark, rows, num_bins, num_partitions=p),
                                 exact=False)
            steps = ek.spark_steps(rows, num_partitions=p, num_bins=num_bins)
            np.testing.assert_array_equal(steps.metrics().roc(), ours.roc())
            assert steps.metrics().areaUnderPR == ours.areaUnderPR
    # the public PySpark API takes (score, label, weight) rows since Spark 3.0
    theirs = PySparkMetrics(spark.sparkContext.parallelize([tuple(map(float, r)) for r in rows], 2))
    ours = ek.BinaryClassificationMetrics(rows, num_partitions=2)
    assert ours.areaUnderROC == pytest.approx(theirs.areaUnderROC, rel=1e-12)
    assert ours.areaUnderPR == pytest.approx(theirs.areaUnderPR, rel=1e-12)


@pytest.mark.spark
def test_real_spark_weights_where_the_range_partitioner_samples(spark):
    """Over 60 distinct scores per partition Spark samples its bounds: equal to rounding."""
    rng = np.random.default_rng(310)
    rows = random_rows(rng, n=400, decimals=3, weighted=True)   # ~330 distinct scores
    ours = ek.BinaryClassificationMetrics(rows, num_partitions=2)
    assert_same_as_spark(ours, RealSpark(spark, rows, num_partitions=2), exact=False)


def _split_from_thresholds(theirs, scores):
    """Spark's split of the sorted counts, read off its binned thresholds (one list a partition).

    Spark labels each chunk by its last score, so a partition's last threshold
    is its lowest score: the distinct scores from there up to the previous
    partition's lowest are that partition's.
    """
    text = theirs.j.thresholds().toJavaRDD().glom().collect().toString()
    parts = [re.findall(_NUMBER, part) for part in re.findall(r"\[([^\[\]]*)\]", text)]
    lowest = [float(part[-1]) for part in parts if part]
    at_or_above = [int((scores >= low).sum()) for low in lowest]
    return tuple(int(n) for n in np.diff([0, *at_or_above]))


@pytest.mark.spark
def test_real_spark_sampled_split_is_replayed_from_its_thresholds(spark):
    """Over 60 distinct scores a partition Spark samples its split; given it, spark_steps is exact."""
    rng = np.random.default_rng(320)
    rows = random_rows(rng, n=2000, decimals=6)   # ~2,000 distinct scores in 2 partitions
    scores = np.unique(rows[:, 0])
    theirs = RealSpark(spark, rows, num_bins=10, num_partitions=2)
    split = _split_from_thresholds(theirs, scores)
    assert len(split) == 2 and sum(split) == len(scores) and min(split) > 60
    assert_same_as_spark(ek.spark_steps(rows, partition_sizes=split, num_bins=10).metrics(),
                         theirs)
    with pytest.warns(UserWarning, match=r"partition_sizes="):
        ek.spark_steps(rows, num_partitions=2, num_bins=10)


@pytest.mark.spark
def test_spark_format_is_javas_double_to_string(spark):
    """The JVM Spark runs on: Java 17 digits exactly (Java 19+ prints the shortest, see the table)."""
    jvm = spark.sparkContext._jvm
    to_string = jvm.java.lang.Double.toString
    rng = np.random.default_rng(500)
    values = np.r_[rng.random(300), rng.random(50) * 1e-5, rng.random(50) * 1e9,
                   0.001, 1e7, 0.11, 100.0, 1e23, -2.5e-7, 1e-323, 5e-324, 2.0 ** 60].tolist()
    if int(jvm.java.lang.System.getProperty("java.specification.version").split(".")[0]) >= 19:
        pytest.skip("Spark runs on Java 19+: shortest digits, not Java 17's")
    for x in values:
        assert to_string(x) == ek.spark_format(x), x


# -- RegressionMetrics and MultilabelMetrics --------------------------------------------------


def _regression_rows(rng, n, weighted):
    y = rng.normal(2, 3, n)
    pred = y + rng.normal(0.5, 1.5, n)
    cols = [pred, y] + ([rng.integers(0, 4, n) + rng.random(n)] if weighted else [])
    return np.column_stack(cols)


def test_regression_metrics_mirror_agrees_with_sklearn_where_the_definitions_meet():
    rng = np.random.default_rng(5)
    rows = _regression_rows(rng, 60, weighted=True)
    pred, y, w = rows.T
    m = ek.RegressionMetrics(rows)
    assert m.meanAbsoluteError == pytest.approx(skm.mean_absolute_error(y, pred, sample_weight=w))
    assert m.meanSquaredError == pytest.approx(skm.mean_squared_error(y, pred, sample_weight=w))
    assert m.rootMeanSquaredError == pytest.approx(
        skm.root_mean_squared_error(y, pred, sample_weight=w))
    plain = ek.RegressionMetrics(rows[:, :2])
    assert plain.r2 == pytest.approx(skm.r2_score(y, pred))
    # Spark's explained variance is the predictions' spread around the mean label
    assert plain.explainedVariance == pytest.approx(np.mean((pred - y.mean()) ** 2))
    assert plain.explainedVariance != pytest.approx(skm.explained_variance_score(y, pred))


def test_regression_metrics_constant_observations_follow_spark():
    m = ek.RegressionMetrics([(1.0, 2.0), (3.0, 2.0)])
    assert m.r2 == -np.inf and m.explainedVariance == 1.0
    assert np.isnan(ek.RegressionMetrics([(2.0, 2.0), (2.0, 2.0)]).r2)


@pytest.mark.parametrize("rows, words", [
    ([(1.0,), (2.0,)], "predictionAndObservations must hold"),
    ([(1.0, np.nan), (2.0, 1.0)], "predictionAndObservations contains NaN observations"),
    ([(1.0, 2.0, -1.0)], "predictionAndObservations column 2"),
])
def test_regression_metrics_bad_rows(rows, words):
    with pytest.raises(ValueError, match=words):
        ek.RegressionMetrics(rows)
    with pytest.raises(TypeError, match="^throughOrigin"):
        ek.RegressionMetrics([(1.0, 2.0)], throughOrigin=1)


def _multilabel_rows(rng, n, n_labels=4):
    rows = []
    for _ in range(n):
        truth = rng.permutation(n_labels)[:rng.integers(0, 3)].astype(float)
        pred = rng.permutation(n_labels)[:rng.integers(0, 3)].astype(float)
        if rng.random() < 0.2:
            pred = truth.copy()
        rows.append((pred.tolist(), truth.tolist()))
    return rows


def _indicators(rows, n_labels=4):
    p = np.zeros((len(rows), n_labels), int)
    t = np.zeros((len(rows), n_labels), int)
    for i, (pred, truth) in enumerate(rows):
        p[i, np.asarray(pred, int)] = 1
        t[i, np.asarray(truth, int)] = 1
    return t, p


def test_multilabel_metrics_mirror_is_sklearn_where_the_definitions_meet():
    rng = np.random.default_rng(6)
    rows = [(p, t) for p, t in _multilabel_rows(rng, 80) if t]   # every document has a label
    rows = [(sorted(p), sorted(t)) for p, t in rows]             # Spark compares arrays in order
    t, p = _indicators(rows)
    m = ek.MultilabelMetrics(rows)
    assert m.microPrecision == pytest.approx(skm.precision_score(t, p, average="micro"))
    assert m.microRecall == pytest.approx(skm.recall_score(t, p, average="micro"))
    assert m.microF1Measure == pytest.approx(skm.f1_score(t, p, average="micro"))
    assert m.subsetAccuracy == pytest.approx(skm.accuracy_score(t, p))
    # Spark divides by the number of distinct true labels, scikit-learn by the columns
    n_true = int(t.any(axis=0).sum())
    assert m.hammingLoss == pytest.approx(skm.hamming_loss(t, p) * t.shape[1] / n_true)
    assert m.precision() == pytest.approx(skm.precision_score(t, p, average="samples",
                                                              zero_division=0.0))
    assert m.recall() == pytest.approx(skm.recall_score(t, p, average="samples"))
    assert m.f1Measure() == pytest.approx(skm.f1_score(t, p, average="samples"))
    assert m.accuracy == pytest.approx(skm.jaccard_score(t, p, average="samples"))
    for label in m.labels:
        c = int(label)
        assert m.precision(label) == pytest.approx(skm.precision_score(t[:, c], p[:, c]))
        assert m.recall(label) == pytest.approx(skm.recall_score(t[:, c], p[:, c]))
        assert m.f1Measure(label) == pytest.approx(skm.f1_score(t[:, c], p[:, c]))
    with pytest.raises(ValueError, match="label 9.0 is not one of the labels"):
        m.precision(9.0)


@pytest.mark.spark
@pytest.mark.parametrize("seed", range(3))
def test_real_spark_regression_metrics(spark, seed):
    from pyspark.mllib.evaluation import RegressionMetrics

    rng = np.random.default_rng(700 + seed)
    for weighted in (False, True):
        rows = _regression_rows(rng, int(rng.integers(5, 80)), weighted)
        theirs = RegressionMetrics(spark.sparkContext.parallelize(
            [tuple(map(float, r)) for r in rows], 3))
        ours = ek.RegressionMetrics(rows)
        for name in ("explainedVariance", "meanAbsoluteError", "meanSquaredError",
                     "rootMeanSquaredError", "r2"):
            assert getattr(ours, name) == pytest.approx(getattr(theirs, name), rel=1e-10), name


@pytest.mark.spark
@pytest.mark.parametrize("seed", range(3))
def test_real_spark_multilabel_metrics(spark, seed):
    from pyspark.mllib.evaluation import MultilabelMetrics

    rng = np.random.default_rng(800 + seed)
    rows = _multilabel_rows(rng, int(rng.integers(5, 60)))
    rows[0] = ([1.0, 0.0], [0.0, 1.0])        # the same set in another order: not a subset hit
    theirs = MultilabelMetrics(spark.sparkContext.parallelize(rows, 2))
    ours = ek.MultilabelMetrics(rows)
    for name in ("subsetAccuracy", "accuracy", "hammingLoss", "microPrecision", "microRecall",
                 "microF1Measure"):
        np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-12,
                                   err_msg=name)
    for name in ("precision", "recall", "f1Measure"):
        np.testing.assert_allclose(getattr(ours, name)(), getattr(theirs, name)(), rtol=1e-12,
                                   err_msg=name)
        for label in ours.labels:
            assert getattr(ours, name)(label) == pytest.approx(getattr(theirs, name)(float(label)),
                                                               rel=1e-12), (name, label)
    assert ours.labels.tolist() == list(theirs.call("labels"))
