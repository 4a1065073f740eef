"""Counts add: the counts of the parts of a data set sum to the counts of the whole.

BinaryCounts, the per-class counts (ClassCounts) and the threshold sweep (Sweep)
of randomly partitioned data -- ties, weights, classes missing from a part --
are added and compared with the counts of the whole data. Integer counts and
dyadic weights (multiples of 1/4, whose sums are exact) must agree bit for bit,
other weights to rounding.
"""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek
from evalkit._counts import ClassCounts, class_counts
from evalkit._sweep import Sweep, threshold_sweep


def split(rng, n, parts):
    """Random disjoint index sets covering range(n) (some may be tiny)."""
    order = rng.permutation(n)
    cuts = np.sort(rng.choice(np.arange(1, n), size=parts - 1, replace=False))
    return np.split(order, cuts)


def weights(rng, n, kind):
    if kind is None:
        return None
    if kind == "dyadic":
        w = rng.integers(0, 12, n) / 4.0  # exact sums; zeros included
    else:
        w = rng.random(n) * 3
        w[rng.random(n) < 0.1] = 0.0
    return w


def take(w, idx):
    return None if w is None else w[idx]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", [None, "dyadic", "float"])
def test_binary_counts_of_parts_add_up(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 300))
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.7, y, 1 - y)
    w = weights(rng, n, kind)
    parts = split(rng, n, int(rng.integers(2, 6)))
    got = sum(ek.binary_counts(y[i], p[i], sample_weight=take(w, i)) for i in parts)
    want = ek.binary_counts(y, p, sample_weight=w)
    if kind == "float":
        np.testing.assert_allclose(got.matrix().astype(float), want.matrix().astype(float),
                                   rtol=1e-12)
    else:
        assert got == want
        assert got.f1() == want.f1()


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("kind", [None, "dyadic", "float"])
def test_class_counts_of_parts_add_up(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 300))
    y = rng.integers(0, 6, n)          # some parts miss some classes
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 6, n))
    w = weights(rng, n, kind)
    parts = split(rng, n, int(rng.integers(2, 7)))
    got = sum(class_counts(y[i], p[i], sample_weight=take(w, i)) for i in parts)
    want = class_counts(y, p, sample_weight=w)
    np.testing.assert_array_equal(got.labels, want.labels)
    for name in ("tp", "predicted", "support"):
        if kind == "float":
            np.testing.assert_allclose(getattr(got, name), getattr(want, name), rtol=1e-12)
        else:
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
    assert got.total == pytest.approx(want.total, rel=1e-12)


def test_class_counts_add_by_label_not_by_position():
    a = class_counts(["b", "c"], ["b", "b"])
    b = class_counts(["a", "c"], ["c", "c"])
    c = a + b
    assert isinstance(c, ClassCounts) and len(c) == 5  # not a tuple concatenation
    assert c.labels.tolist() == ["a", "b", "c"]
    assert c.tp.tolist() == [0, 1, 1]
    assert c.predicted.tolist() == [0, 2, 2]
    assert c.support.tolist() == [1, 1, 2]
    assert c.total == 4
    # explicit label orders: the first part's order, then the second's new labels
    d = class_counts([1, 2], [1, 2], labels=[2, 1]) + class_counts([3], [3], labels=[3, 1])
    assert d.labels.tolist() == [2, 1, 3]
    assert d.tp.tolist() == [1, 1, 1]


def test_adding_counts_of_different_kinds_is_refused():
    with pytest.raises(TypeError, match=r"^self and other hold different kinds of labels \(strings"):
        class_counts(["a"], ["a"]) + class_counts([1], [1])
    with pytest.raises(TypeError):
        ek.BinaryCounts(1, 2, 3, 4) + class_counts([1], [1])
    with pytest.raises(TypeError):
        ek.BinaryCounts(1, 2, 3, 4) + 1
    with pytest.raises(TypeError):
        threshold_sweep([0, 1], [0.2, 0.4]) + ek.BinaryCounts(1, 2, 3, 4)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("kind", [None, "dyadic", "float"])
def test_sweeps_of_parts_add_up(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 400))
    s = np.round(rng.random(n), int(rng.integers(1, 3)))  # ties within and across parts
    y = (rng.random(n) < s).astype(int)
    w = weights(rng, n, kind)
    parts = split(rng, n, int(rng.integers(2, 6)))
    pieces = [threshold_sweep(y[i], s[i], sample_weight=take(w, i)) for i in parts]
    got = sum(pieces)
    assert isinstance(got, Sweep)
    want = threshold_sweep(y, s, sample_weight=w)
    np.testing.assert_array_equal(got.thresholds, want.thresholds)
    if kind == "float":
        np.testing.assert_allclose(got.tps, want.tps, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got.fps, want.fps, rtol=1e-12, atol=1e-12)
        assert got.n_pos == pytest.approx(want.n_pos, rel=1e-12)
        return
    np.testing.assert_array_equal(got.tps, want.tps)
    np.testing.assert_array_equal(got.fps, want.fps)
    assert (got.n_pos, got.n_neg) == (want.n_pos, want.n_neg)
    # the order of the parts does not matter, nor their grouping
    again = pieces[-1] + sum(pieces[:-1])
    np.testing.assert_array_equal(again.tps, want.tps)
    # and the counts at any threshold are the whole's
    t = float(rng.choice(s))
    assert got.counts_at(t) == want.counts_at(t) == sum(p.counts_at(t) for p in pieces)


@pytest.mark.parametrize("seed", range(4))
def test_spark_mirror_from_the_sum_of_parts_is_the_mirror_of_the_whole(seed):
    rng = np.random.default_rng(50 + seed)
    n = int(rng.integers(30, 300))
    s = np.round(rng.random(n), 2)
    y = (rng.random(n) < s).astype(float)
    w = rng.integers(0, 8, n) / 4.0 if seed % 2 else None
    parts = split(rng, n, 3)
    total = sum(threshold_sweep(y[i] > 0.5, s[i], sample_weight=take(w, i), zero_weight="keep")
                for i in parts)  # Spark keeps a score of weight 0 as a threshold
    rows = np.column_stack([s, y] if w is None else [s, y, w])
    for num_bins in (0, 7):
        whole = ek.BinaryClassificationMetrics(rows, num_bins)
        merged = ek.BinaryClassificationMetrics.from_sweep(total, num_bins)
        np.testing.assert_array_equal(merged.cumulativeCounts(), whole.cumulativeCounts())
        np.testing.assert_array_equal(merged.roc(), whole.roc())
        np.testing.assert_array_equal(merged.pr(), whole.pr())
        assert merged.areaUnderROC == whole.areaUnderROC
        assert merged.areaUnderPR == whole.areaUnderPR


def test_from_sweep_refuses_other_things():
    with pytest.raises(TypeError, match="sweep must be a Sweep"):
        ek.BinaryClassificationMetrics.from_sweep([(0.5, 1.0)])
    with pytest.raises(ValueError, match="num_bins must be >= 0"):
        ek.BinaryClassificationMetrics.from_sweep(threshold_sweep([0, 1], [0.1, 0.2]), -1)
