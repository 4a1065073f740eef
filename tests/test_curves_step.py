"""evalkit._curves, the one sweep-to-curve step, and Spark's order of additions in _sweep.

Oracles: scikit-learn's curves and average precision (bit for bit), numpy's
trapezoid, and a plain-Python replay of Spark's AreaUnderCurve.of on randomized
data with ties, weights and zero weights.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit import _curves
from evalkit._sweep import threshold_sweep


def random_case(rng, weighted=True):
    n = int(rng.integers(5, 200))
    s = np.round(rng.random(n), int(rng.integers(1, 4)))
    y = (rng.random(n) < s).astype(int)
    y[:2] = [0, 1]
    w = None
    if weighted:
        w = rng.random(n) * 3
        w[rng.random(n) < 0.15] = 0.0
        w[:2] = 1.0
    return y, s, w


@pytest.mark.parametrize("seed", range(12))
def test_sklearn_layout_is_sklearns_curves_bit_for_bit(seed):
    y, s, w = random_case(np.random.default_rng(seed), weighted=seed % 3 != 0)
    sweep = threshold_sweep(y, s, sample_weight=w, zero_weight="drop")
    fpr, tpr = _curves.roc_points(sweep)
    sk_fpr, sk_tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(fpr, sk_fpr)
    np.testing.assert_array_equal(tpr, sk_tpr)
    recall, precision = _curves.pr_points(sweep)
    sk_p, sk_r, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(recall, sk_r)
    np.testing.assert_array_equal(precision, sk_p)
    assert _curves.average_precision(sweep.tps, sweep.fps) == \
        skm.average_precision_score(y, s, sample_weight=w)
    assert _curves.trapezoid(fpr, tpr) == skm.auc(sk_fpr, sk_tpr)


def test_spark_layout_points_and_undefined_rates():
    sweep = threshold_sweep([0, 1, 0, 1], [0.9, 0.8, 0.8, 0.1])
    fpr, tpr = _curves.roc_points(sweep, "spark")
    assert fpr.tolist() == [0.0, 0.5, 1.0, 1.0, 1.0]
    assert tpr.tolist() == [0.0, 0.0, 0.5, 1.0, 1.0]
    recall, precision = _curves.pr_points(sweep, "spark")
    assert recall.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert precision.tolist() == [0.0, 0.0, 1 / 3, 0.5]
    legacy = _curves.pr_points(sweep, "spark_legacy")[1]
    assert legacy[0] == 1.0 and legacy[1:].tolist() == precision[1:].tolist()
    # no negatives: scikit-learn's FPR is nan everywhere, Spark's 0.0
    one_class = threshold_sweep([1, 1], [0.3, 0.6])
    assert np.isnan(_curves.roc_points(one_class)[0]).all()
    assert _curves.roc_points(one_class, "spark")[0].tolist() == [0.0, 0.0, 0.0, 1.0]
    # no positives: scikit-learn's recall is 1.0 (then the final 0), Spark's 0.0
    none = threshold_sweep([0, 0], [0.3, 0.6])
    assert _curves.pr_points(none)[0].tolist() == [1.0, 1.0, 0.0]
    assert _curves.pr_points(none, "spark")[0].tolist() == [0.0, 0.0, 0.0]
    # precision 0/0 (a top score of weight 0): 0.0 for scikit-learn, 1.0 for Spark
    zero_top = threshold_sweep([1, 0, 1], [0.9, 0.5, 0.2], sample_weight=[0.0, 1.0, 1.0],
                               zero_weight="keep")
    assert _curves.pr_points(zero_top)[1][-2] == 0.0
    assert _curves.pr_points(zero_top, "spark")[1][:2].tolist() == [1.0, 1.0]
    # Spark before 2.3 ("spark_legacy"): (0, 1.0) first, the rest as "spark"
    legacy = _curves.pr_points(zero_top, "spark_legacy")
    assert legacy[1][0] == 1.0 and legacy[1][1:].tolist() == _curves.pr_points(zero_top, "spark")[1][1:].tolist()


def spark_area(points, partitions):
    """AreaUnderCurve.of, transcribed loop by loop in Python floats."""
    local, ends = [], []
    i = 0
    for size in partitions:
        if size == 0:
            continue
        part = points[i:i + size]
        i += size
        area = 0.0
        for a, b in zip(part[:-1], part[1:]):
            area += (b[0] - a[0]) * (b[1] + a[1]) / 2.0
        local.append(area)
        ends.append((part[0], part[-1]))
    total = 0.0
    for area in local:
        total += area
    joins = 0.0
    for (_, last), (first, _) in zip(ends[:-1], ends[1:]):
        joins += (first[0] - last[0]) * (first[1] + last[1]) / 2.0
    return total + joins


@pytest.mark.parametrize("seed", range(10))
def test_one_trapezoid_rule_summed_numpys_or_sparks_way(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    x = np.sort(rng.random(n))
    y = rng.random(n)
    assert _curves.trapezoid(x, y) == np.trapezoid(y, x)
    cuts = np.sort(rng.integers(0, n + 1, int(rng.integers(0, 5))))
    sizes = np.diff(np.r_[0, cuts, n]).tolist()  # may hold empty partitions
    points = list(zip(x.tolist(), y.tolist()))
    assert _curves.trapezoid(x, y, partitions=sizes) == spark_area(points, sizes)


def test_doubled_trapezoids_are_exact_on_integer_counts():
    fps = np.array([0, 0, 1, 1, 3], dtype=np.int64)
    tps = np.array([0, 2, 2, 3, 3], dtype=np.int64)
    d = _curves.doubled_trapezoids(fps, tps)
    assert d.dtype == np.int64 and d.tolist() == [0, 4, 0, 12]


def test_zero_weight_options():
    y, s, w = [1, 0, 1, 0], [0.9, 0.7, 0.5, 0.3], [1.0, 0.0, 2.0, 1.0]
    drop = threshold_sweep(y, s, sample_weight=w, zero_weight="drop")
    keep = threshold_sweep(y, s, sample_weight=w, zero_weight="keep")
    assert drop.thresholds.tolist() == [0.9, 0.5, 0.3]
    assert keep.thresholds.tolist() == [0.9, 0.7, 0.5, 0.3]
    assert threshold_sweep(y, s, sample_weight=w).thresholds.tolist() == [0.9, 0.5, 0.3]
    with pytest.raises(ValueError, match="^zero_weight must be 'drop'"):  # declared by the public functions
        ek.best_threshold(y, s, zero_weight="ignore")


def test_zero_weight_is_a_named_option_of_the_mirror_and_the_tables():
    import evalkit as ek

    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.95, 0.9, 0.8, 0.7, 0.6, 0.5])
    w = np.array([1.0, 0.0, 2.0, 1.0, 0.0, 1.0])
    rows = np.column_stack([s, y, w])
    spark = ek.BinaryClassificationMetrics(rows)                       # Spark keeps them
    sk = ek.BinaryClassificationMetrics(rows, zero_weight="drop")
    assert spark.thresholds().tolist() == s.tolist()
    assert sk.thresholds().tolist() == s[w > 0].tolist()
    np.testing.assert_array_equal(sk.roc(), ek.BinaryClassificationMetrics(rows[w > 0]).roc())
    fpr, tpr, _ = ek.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(sk.roc()[:-1], np.column_stack([fpr, tpr]))
    table = ek.threshold_table(y, s, sample_weight=w)                  # scikit-learn drops them
    kept = ek.threshold_table(y, s, sample_weight=w, zero_weight="keep", zero_division="spark")
    assert table["threshold"].tolist() == s[w > 0].tolist()
    assert kept["threshold"].tolist() == s.tolist()
    np.testing.assert_array_equal(kept["precision"], spark.precisionByThreshold()[:, 1])
    assert ek.best_threshold(y, s, sample_weight=w) == \
        ek.best_threshold(y, s, sample_weight=w, zero_weight="keep")
    with pytest.raises(ValueError, match="^zero_weight must be"):
        ek.BinaryClassificationMetrics(rows, zero_weight="ignore")
    with pytest.raises(ValueError, match="^zero_weight must be"):
        ek.threshold_table(y, s, zero_weight=None)


def _groups(y, s, w=None):
    """Positives and negatives per distinct score, highest score first (brute force)."""
    keys = np.unique(s)[::-1]
    weight = np.ones(len(y), dtype=np.int64) if w is None else w
    pos = np.array([weight[(s == k) & (y == 1)].sum() for k in keys])
    neg = np.array([weight[(s == k) & (y != 1)].sum() for k in keys])
    return pos, neg


@pytest.mark.parametrize("seed", range(10))
def test_auc_and_ap_from_groups_are_sklearns(seed):
    rng = np.random.default_rng(seed)
    y, s, w = random_case(rng, weighted=seed % 2 == 1)
    pos, neg = _groups(y, s, w)
    auc = _curves.auc_from_groups(pos, neg)
    assert auc == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    ap = _curves.ap_from_groups(pos, neg)
    if w is None:  # integer counts: scikit-learn's number bit for bit
        assert ap == skm.average_precision_score(y, s)
    else:
        assert ap == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), abs=1e-12)


def test_auc_and_ap_from_groups_are_batched_and_nan_without_a_class():
    rng = np.random.default_rng(5)
    pos, neg = rng.integers(0, 4, (3, 5, 8)), rng.integers(0, 4, (3, 5, 8))
    pos[0, 0], neg[0, 1] = 0, 0
    auc, ap = _curves.auc_from_groups(pos, neg), _curves.ap_from_groups(pos, neg)
    assert auc.shape == ap.shape == (3, 5)
    for i in range(3):
        for j in range(5):
            p, n = pos[i, j], neg[i, j]
            if p.sum() and n.sum():
                y = np.repeat(np.r_[np.ones(8), np.zeros(8)], np.r_[p, n])
                s = np.repeat(np.r_[-np.arange(8), -np.arange(8)], np.r_[p, n])
                assert auc[i, j] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-15)
                assert ap[i, j] == pytest.approx(skm.average_precision_score(y, s), abs=1e-15)
            else:
                assert np.isnan(auc[i, j])
    assert np.isnan(ap[0, 0]) and np.isnan(auc[0, 1]) and ap[0, 1] == 1.0
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("error")
        assert np.isnan(_curves.auc_from_groups([0, 0], [1, 2]))
        assert np.isnan(_curves.ap_from_groups([0, 0], [1, 2]))
