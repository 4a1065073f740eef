"""evalkit.calibration against scikit-learn (randomized) and ECE/MCE against a direct count."""

import warnings

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm

import evalkit as ek
from evalkit import calibration as cal


def outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kwargs)
        except (ValueError, TypeError):
            return "error", None
    kinds = sorted({w.category.__name__ for w in caught if "sum to one" in str(w.message)
                    or "ordered lexicographically" in str(w.message)})
    return out, kinds


def same(a, b):
    (va, wa), (vb, wb) = a, b
    if isinstance(va, str) or isinstance(vb, str):
        assert va == vb, (va, vb)
        return
    assert wa == wb, (wa, wb)
    if isinstance(va, tuple):
        for x, y in zip(va, vb):
            np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-15)
    else:
        np.testing.assert_allclose(va, vb, rtol=1e-12, atol=1e-15)


def binary_case(rng):
    n = int(rng.integers(1, 200))
    y = rng.integers(0, 2, n)
    p = np.clip(np.round(0.6 * rng.random(n) + 0.3 * y, int(rng.integers(1, 4))), 0, 1)
    if rng.random() < 0.2:
        p[: n // 3] = rng.choice([0.0, 1.0], n // 3)
    return y, p


@pytest.mark.parametrize("seed", range(40))
def test_binary_losses_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    y, p = binary_case(rng)
    w = rng.random(len(y))
    for kw in ({}, {"sample_weight": w}, {"pos_label": 0}, {"scale_by_half": False}):
        same(outcome(ek.brier_score_loss, y, p, **kw), outcome(skm.brier_score_loss, y, p, **kw))
    for kw in ({}, {"sample_weight": w}, {"normalize": False}, {"labels": [0, 1]}):
        same(outcome(ek.log_loss, y, p, **kw), outcome(skm.log_loss, y, p, **kw))
    labels = np.array(["ham", "spam"])[y]
    same(outcome(ek.brier_score_loss, labels, p, pos_label="spam"),
         outcome(skm.brier_score_loss, labels, p, pos_label="spam"))
    same(outcome(ek.log_loss, labels, p), outcome(skm.log_loss, labels, p))
    same(outcome(ek.brier_score_loss, y + 1, p), outcome(skm.brier_score_loss, y + 1, p))
    same(outcome(ek.log_loss, y, p.astype(np.float32)), outcome(skm.log_loss, y, p.astype(np.float32)))


@pytest.mark.parametrize("seed", range(30))
def test_multiclass_losses_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(2, 150)), int(rng.integers(2, 6))
    y = rng.integers(0, c, n)
    p = rng.dirichlet(np.ones(c), n)
    if seed % 3 == 0:
        p[0] *= 0.9  # rows not summing to 1: the warning
    w = rng.random(n)
    for kw in ({}, {"sample_weight": w}, {"labels": list(range(c))},
               {"labels": list(range(c))[::-1]}, {"scale_by_half": True}):
        same(outcome(ek.brier_score_loss, y, p, **kw), outcome(skm.brier_score_loss, y, p, **kw))
    for kw in ({}, {"sample_weight": w}, {"normalize": False}, {"labels": list(range(c))},
               {"labels": list(range(c + 1))}):
        same(outcome(ek.log_loss, y, p, **kw), outcome(skm.log_loss, y, p, **kw))
    p0 = p.copy()
    p0[:, 0] = 0.0  # log(0): clipped to eps
    same(outcome(ek.log_loss, y, p0), outcome(skm.log_loss, y, p0))


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_curve_equals_sklearn(seed, strategy):
    rng = np.random.default_rng(seed)
    y, p = binary_case(rng)
    for n_bins in (1, 3, 5, 10):
        same(outcome(ek.calibration_curve, y, p, n_bins=n_bins, strategy=strategy),
             outcome(skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy))
    same(outcome(ek.calibration_curve, y, p, pos_label=0, strategy=strategy),
         outcome(skc.calibration_curve, y, p, pos_label=0, strategy=strategy))


def test_refusals_match_sklearn():
    y, p = np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.8, 0.3])
    cases = [
        (skm.brier_score_loss, ek.brier_score_loss, (y, p * 2), {}),
        (skm.brier_score_loss, ek.brier_score_loss, (y, p - 0.5), {}),
        (skm.brier_score_loss, ek.brier_score_loss, ([0, 1, 2, 0], p), {}),
        (skm.brier_score_loss, ek.brier_score_loss, (["a", "b", "b", "a"], p), {}),
        (skm.brier_score_loss, ek.brier_score_loss, (y, p[:3]), {}),
        (skm.log_loss, ek.log_loss, ([1, 1, 1, 1], p), {}),
        (skm.log_loss, ek.log_loss, ([0, 1, 2, 0], p), {}),
        (skm.log_loss, ek.log_loss, (y, p), {"labels": [1]}),
        (skm.log_loss, ek.log_loss, ([0, 1, 2, 0], p), {"labels": [0, 1]}),
        (skm.log_loss, ek.log_loss, (y, np.c_[1 - p, p, 0 * p]), {}),
        (skc.calibration_curve, ek.calibration_curve, (y, p * 2), {}),
        (skc.calibration_curve, ek.calibration_curve, ([0, 1, 2, 0], p), {}),
        (skc.calibration_curve, ek.calibration_curve, (y + 1, p), {}),
        (skc.calibration_curve, ek.calibration_curve, (y, p), {"strategy": "kmeans"}),
        (skc.calibration_curve, ek.calibration_curve, (y, p), {"n_bins": 0}),
    ]
    for theirs, ours, args, kw in cases:
        assert outcome(theirs, *args, **kw)[0] == "error", (theirs, args, kw)
        assert outcome(ours, *args, **kw)[0] == "error", (ours, args, kw)


def ece_by_hand(y, p, n_bins, strategy):
    """Bins from calibration_curve's definition, counted with a Python loop."""
    p = np.asarray(p, dtype=float)
    if strategy == "uniform":
        edges = np.linspace(0, 1, n_bins + 1)
    else:
        edges = np.percentile(p, np.linspace(0, 100, n_bins + 1))
    gaps, sizes = [], []
    for k in range(n_bins):
        lo, hi = edges[k], edges[k + 1]
        inside = [i for i in range(len(p))
                  if (p[i] <= hi or k == n_bins - 1) and (p[i] > lo or k == 0)
                  and not any(p[i] <= edges[j + 1] and (p[i] > edges[j] or j == 0)
                              for j in range(k))]
        if inside:
            gaps.append(abs(np.mean(y[inside]) - np.mean(p[inside])))
            sizes.append(len(inside))
    return np.dot(sizes, gaps) / len(p), max(gaps)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_ece_and_mce_by_hand(seed, strategy):
    rng = np.random.default_rng(seed)
    y, p = binary_case(rng)
    for n_bins in (1, 4, 10):
        ece, mce = ece_by_hand(y, p, n_bins, strategy)
        assert ek.expected_calibration_error(y, p, n_bins=n_bins, strategy=strategy) == \
            pytest.approx(ece, rel=1e-12, abs=1e-15)
        assert ek.maximum_calibration_error(y, p, n_bins=n_bins, strategy=strategy) == \
            pytest.approx(mce, rel=1e-12, abs=1e-15)


def test_ece_from_sklearn_calibration_curve():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 5000)
    p = np.clip(0.5 * rng.random(5000) + 0.4 * y, 0, 1)
    true, pred = skc.calibration_curve(y, p, n_bins=10)
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], p), minlength=10)
    counts = counts[counts > 0]
    assert ek.expected_calibration_error(y, p) == pytest.approx(
        np.dot(counts, np.abs(true - pred)) / 5000, rel=1e-12)


def test_top_label_ece():
    rng = np.random.default_rng(4)
    n, c = 400, 4
    probs = rng.dirichlet(np.ones(c) * 0.5, n)
    y = np.array([rng.choice(c, p=row) for row in probs])  # calibrated by construction
    conf, top = probs.max(axis=1), probs.argmax(axis=1)
    expected = ek.expected_calibration_error((top == y).astype(int), conf, n_bins=8)
    assert ek.expected_calibration_error(y, probs, n_bins=8) == pytest.approx(expected, rel=1e-12)
    names = np.array(list("abcd"))
    assert ek.expected_calibration_error(names[y], probs, n_bins=8, labels=list("abcd")) == \
        pytest.approx(expected, rel=1e-12)
    over = probs ** 3 / (probs ** 3).sum(axis=1, keepdims=True)  # over-confident
    assert ek.expected_calibration_error(y, over) > ek.expected_calibration_error(y, probs)


def test_auc_unchanged_by_a_shift_but_log_loss_not():
    # the recommender-metrics post's remark
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    p = np.clip(0.3 + 0.4 * y + 0.2 * rng.normal(size=300), 0.01, 0.8)
    shifted = p + 0.19
    assert ek.roc_auc_score(y, p) == ek.roc_auc_score(y, shifted)
    assert ek.log_loss(y, p) != ek.log_loss(y, shifted)
    assert ek.brier_score_loss(y, p) != ek.brier_score_loss(y, shifted)


@pytest.mark.parametrize("fn", [ek.expected_calibration_error, ek.maximum_calibration_error])
def test_ece_bad_input(fn):
    with pytest.raises(ValueError, match="n_bins must be >= 1"):
        fn([0, 1], [0.2, 0.8], n_bins=0)
    with pytest.raises(ValueError, match="strategy must be 'uniform'"):
        fn([0, 1], [0.2, 0.8], strategy="kmeans")
    with pytest.raises(ValueError, match="^y_proba contains values"):
        fn([0, 1], [0.2, 1.8])
    with pytest.raises(ValueError, match="y_true and y_proba have different lengths"):
        fn([0, 1, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match="y_true has 3 classes but y_proba has 2 columns"):
        fn([0, 1, 2], [[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]])
    with pytest.raises(ValueError, match="labels is for 2-D y_proba"):
        fn([0, 1], [0.2, 0.8], labels=[0, 1])


def test_pos_label_absent_is_refused():
    with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
        ek.brier_score_loss([0, 1], [0.2, 0.8], pos_label=2)
    with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
        ek.calibration_curve([0, 1], [0.2, 0.8], pos_label=2)


def test_module_functions_are_exported():
    for name in cal.__all__:
        assert getattr(ek, name) is getattr(cal, name)


# -- plot.reliability --------------------------------------------------------------


@pytest.fixture
def plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_reliability_points_are_sklearns_calibration_curve(plt, strategy):
    from evalkit import plot

    rng = np.random.default_rng(6)
    y, p = binary_case(rng)
    y, p = np.r_[y, 0, 1], np.r_[p, 0.3, 0.7]
    ax = plot.reliability(y, p, n_bins=7, strategy=strategy)
    line = [ln for ln in ax.lines if ln.get_gid() == "evalkit-reliability"][0]
    true, pred = skc.calibration_curve(y, p, n_bins=7, strategy=strategy)
    np.testing.assert_allclose(line.get_xdata(), pred, rtol=1e-12)
    np.testing.assert_allclose(line.get_ydata(), true, rtol=1e-12)
    ece = ek.expected_calibration_error(y, p, n_bins=7, strategy=strategy)
    assert line.get_label() == f"ECE = {ece:.3f}"
    heights = [b.get_height() for b in ax.evalkit_hist_axes.patches]
    assert sum(heights) == len(y) and len(heights) == 7


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_reliability_bars_are_sklearns_bins(plt, strategy):
    # the bars' edges are scikit-learn's bin edges to the last bit: its calibration_curve takes
    # np.percentile(y_prob, np.linspace(0, 1, n_bins + 1) * 100) for "quantile" (on these
    # probabilities np.linspace(0, 100, 8) gives other edges in the last bit)
    from evalkit import plot

    rng = np.random.default_rng(7)
    p = rng.random(101)
    y = (rng.random(101) < p).astype(int)
    ax = plot.reliability(y, p, n_bins=7, strategy=strategy)
    edges = (np.linspace(0.0, 1.0, 8) if strategy == "uniform" else
             np.percentile(p, np.linspace(0, 1, 8) * 100))
    bars = ax.evalkit_hist_axes.patches
    assert [b.get_x() for b in bars] == edges[:-1].tolist()
    ids = np.searchsorted(edges[1:-1], p)  # scikit-learn's bins: an edge goes to the lower bin
    assert [b.get_height() for b in bars] == np.bincount(ids, minlength=7).tolist()


def test_reliability_on_a_given_ax_twice(plt):
    from evalkit import plot

    fig, ax = plt.subplots()
    y = [0, 0, 1, 1, 0, 1]
    out = plot.reliability(y, [0.1, 0.3, 0.7, 0.9, 0.4, 0.6], ax=ax, n_bins=3, label="model a")
    plot.reliability(y, [0.2, 0.2, 0.9, 0.9, 0.5, 0.5], ax=ax, n_bins=3, label="model b")
    assert out is ax
    assert [ln.get_label() for ln in ax.lines if ln.get_gid() == "evalkit-reliability"] == \
        ["model a", "model b"]
    assert sum(ln.get_gid() == "evalkit-diagonal" for ln in ax.lines) == 1
    assert len(fig.axes) == 2  # one twin for the histograms


def test_reliability_bad_input(plt):
    from evalkit import plot

    with pytest.raises(ValueError, match="^y_proba? contains values"):
        plot.reliability([0, 1], [0.5, 2.0])
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        plot.reliability([0, 1], [0.5, 0.6], ax="left")
    with pytest.raises(TypeError, match="hist must be True or False"):
        plot.reliability([0, 1], [0.5, 0.6], hist="yes")


def test_log_loss_clips_at_the_eps_of_the_input_dtype():
    # float16 probabilities clip at float16's eps (the docstring's promise), as scikit-learn
    p16 = np.array([1, 0], dtype=np.float16)
    assert ek.log_loss([0, 1], p16) == skm.log_loss([0, 1], p16)
    assert ek.log_loss([0, 1], p16) == pytest.approx(6.93, abs=0.01)
    rng = np.random.default_rng(11)
    for dtype in (np.float16, np.float32, np.float64):
        for _ in range(20):
            n = int(rng.integers(2, 40))
            y = rng.integers(0, 2, n)
            y[:2] = [0, 1]
            p = rng.random(n).astype(dtype)
            w = rng.random(n) if rng.random() < 0.5 else None
            assert ek.log_loss(y, p, sample_weight=w) == skm.log_loss(y, p, sample_weight=w)
            assert ek.brier_score_loss(y, p, sample_weight=w) == \
                skm.brier_score_loss(y, p, sample_weight=w)


@pytest.mark.parametrize("seed", range(20))
def test_one_hot_y_true_as_sklearn(seed):
    rng = np.random.default_rng(300 + seed)
    n, c = int(rng.integers(4, 40)), int(rng.integers(2, 5))
    y = rng.integers(0, c, n)
    y[:c] = np.arange(c)
    onehot = np.eye(c, dtype=int)[y]
    p = rng.dirichlet(np.ones(c), n)
    w = rng.random(n) if seed % 2 else None
    for fn, ref in ((ek.log_loss, skm.log_loss), (ek.brier_score_loss, skm.brier_score_loss)):
        assert fn(onehot, p, sample_weight=w) == pytest.approx(ref(onehot, p, sample_weight=w),
                                                              rel=1e-12)
        assert fn(onehot, p, sample_weight=w) == pytest.approx(fn(y, p, sample_weight=w), rel=1e-12)


def test_calibration_functions_take_y_proba():
    y, p = [0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.4, 0.8, 0.9]
    assert ek.expected_calibration_error(y, y_proba=p, n_bins=2) == pytest.approx(0.1)
    assert ek.maximum_calibration_error(y, y_proba=p, n_bins=2) == pytest.approx(0.1)
    true, pred = ek.calibration_curve(y, y_prob=p, n_bins=2)  # scikit-learn's name kept
    assert true.tolist() == pytest.approx([1 / 3, 2 / 3])
