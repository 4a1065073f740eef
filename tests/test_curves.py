"""evalkit.curves against scikit-learn and brute-force references, on randomized inputs.

Oracles: scikit-learn 1.9 for the mirrors (same numbers, rtol 1e-12, same
dtypes and warnings); pair counting, per-threshold sweeps and per-threshold
metrics written out below in plain Python for the rest.
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit.course.definitions import roc_auc_pairs, roc_auc_rank
from evalkit import _curves, _sweep, _sweep_packed, curves
from evalkit._sweep import threshold_sweep

from _sweep_data import random_scores

RTOL = 1e-12


# -- brute-force references ------------------------------------------------------------


def brute_pairs_auc(positive, scores):
    """Every positive-negative pair: a win counts 1, a tie 1/2."""
    s_pos = [s for s, p in zip(scores.tolist(), positive.tolist()) if p]
    s_neg = [s for s, p in zip(scores.tolist(), positive.tolist()) if not p]
    won = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in s_pos for b in s_neg)
    return won / (len(s_pos) * len(s_neg))


def brute_sweep(positive, scores, weights=None):
    """For each distinct score t, highest first: (t, tp, fp) of predicting score >= t."""
    w = np.ones(len(scores)) if weights is None else np.asarray(weights, dtype=float)
    keep = w != 0
    rows = []
    for t in sorted(set(scores[keep].tolist()), reverse=True):
        predicted = (scores >= t) & keep
        tp, fp = w[predicted & positive].sum(), w[predicted & ~positive].sum()
        rows.append((t, float(tp), float(fp)))
    return rows


# -- random inputs -----------------------------------------------------------------


def random_labels(rng, n):
    """(y_true, pos_label for the mirrors, positive mask)."""
    kind = rng.choice(["01", "pm1", "bool", "float", "str", "multi"])
    y = rng.integers(0, 2, n)
    if kind == "01":
        return y, None, y == 1
    if kind == "pm1":
        return 2 * y - 1, None, y == 1
    if kind == "bool":
        return y == 1, None, y == 1
    if kind == "float":
        return y.astype(float), 1.0, y == 1
    if kind == "str":
        names = np.array(["ham", "spam"])
        return names[y], "spam", y == 1
    three = rng.integers(0, 3, n)  # one class against the rest, via pos_label
    pos_label = int(three[-1])  # present, so valid
    return three, pos_label, three == pos_label


def random_weights(rng, n):
    kind = rng.choice(["none", "none", "float", "int", "zeros"])
    if kind == "none":
        return None
    if kind == "float":
        return rng.random(n) * 3
    if kind == "int":
        return rng.integers(1, 4, n).astype(float)
    w = rng.choice([0.0, 0.5, 1.0, 2.3], n)
    return w if w.any() else None


def cases(seed, count, min_n=1, max_n=40):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(min_n, max_n))
        y, pos_label, positive = random_labels(rng, n)
        yield y, random_scores(rng, n), pos_label, positive, random_weights(rng, n)


def run(fn, *args, **kwargs):
    """(result, sorted warning messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, sorted({str(w.message) for w in caught})


def assert_arrays(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype, (a.dtype, b.dtype)
        assert a.shape == b.shape, (a, b)
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=0, equal_nan=True)


# -- the scikit-learn mirrors -----------------------------------------------------------


def test_curves_equal_sklearn():
    for y, s, pos_label, _, w in cases(0, 300):
        kw = dict(pos_label=pos_label, sample_weight=w)
        ours, our_warnings = run(ek.confusion_matrix_at_thresholds, y, s, **kw)
        theirs, their_warnings = run(skm.confusion_matrix_at_thresholds, y, s, **kw)
        assert_arrays(ours, theirs)
        for drop in (True, False):
            for name in ("roc_curve", "precision_recall_curve"):
                ours, our_warnings = run(getattr(ek, name), y, s, drop_intermediate=drop, **kw)
                theirs, their_warnings = run(getattr(skm, name), y, s, drop_intermediate=drop, **kw)
                assert_arrays(ours, theirs)
                assert our_warnings == their_warnings


def test_weighted_curves_are_bit_identical_to_sklearn():
    # the weighted sweep sums in scikit-learn's order, so even collinearity tests agree
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(2, 60))
        y, s = rng.integers(0, 2, n), np.round(rng.normal(size=n), 1)
        w = rng.choice([0.1, 0.7, 1.3, 2.3], n)
        for ours, theirs in zip(run(ek.roc_curve, y, s, sample_weight=w)[0],
                                run(skm.roc_curve, y, s, sample_weight=w)[0]):
            assert np.array_equal(ours, theirs, equal_nan=True)


def test_roc_auc_score_equals_sklearn():
    rng = np.random.default_rng(2)
    for y, s, _, _, w in cases(2, 300, min_n=2):
        if len(np.unique(y)) != 2:
            continue  # roc_auc_score: binary labels, the larger one positive
        for max_fpr in (None, 0.1, 0.37, 0.5, 0.99, 1.0):
            try:
                theirs, _ = run(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
            except ValueError:  # sklearn fails where a class has total weight 0
                continue
            ours, _ = run(ek.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
            np.testing.assert_allclose(ours, theirs, rtol=RTOL, atol=0, equal_nan=True)
    # large enough for many blocks and long runs of ties
    n = 200_000
    y = (rng.random(n) < 0.3).astype(np.int64)
    for s in (rng.random(n), np.round(rng.random(n), 3), np.round(rng.normal(size=n), 2)):
        assert abs(ek.roc_auc_score(y, s) - skm.roc_auc_score(y, s)) <= RTOL


def test_average_precision_equals_sklearn():
    for y, s, pos_label, _, w in cases(3, 300):
        if len(np.unique(y)) > 2:
            continue  # binary only
        pos_label = 1 if pos_label is None else pos_label
        if pos_label not in np.unique(y).tolist() and len(np.unique(y)) == 2:
            continue
        ours, our_warnings = run(ek.average_precision_score, y, s, pos_label=pos_label,
                                 sample_weight=w)
        theirs, their_warnings = run(skm.average_precision_score, y, s, pos_label=pos_label,
                                     sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=RTOL, atol=0)
        assert our_warnings == their_warnings


def test_auc_equals_sklearn():
    rng = np.random.default_rng(4)
    for _ in range(200):
        n = int(rng.integers(2, 30))
        x = np.sort(np.round(rng.random(n), 1))
        if rng.random() < 0.5:
            x = x[::-1]
        y = rng.normal(size=n)
        np.testing.assert_allclose(ek.auc(x, y), skm.auc(x, y), rtol=RTOL, atol=1e-15)


def test_curves_of_seed_001():
    # the logistic-regression post, sequence 1: the six (FPR, TPR) points after (0, 0)
    y = [1, 0, 1, 0, 0, 0]
    fpr, tpr, _ = ek.roc_curve(y, [0.9, 0.7, 0.8, 0.6, 0.5, 0.4], drop_intermediate=False)
    points = list(zip(fpr.tolist(), tpr.tolist()))
    assert points == [(0, 0), (0, 0.5), (0, 1.0), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)]
    fpr, tpr, _ = ek.roc_curve(y, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], drop_intermediate=False)
    assert list(zip(fpr.tolist(), tpr.tolist()))[1:] == [
        (0, 0.5), (0.25, 0.5), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)]
    fpr, tpr, _ = ek.roc_curve(y, [0.4, 0.6, 0.5, 0.7, 0.8, 0.9], drop_intermediate=False)
    assert list(zip(fpr.tolist(), tpr.tolist()))[1:] == [
        (0.25, 0.0), (0.5, 0.0), (0.75, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)]


# -- AUC three ways ---------------------------------------------------------------------------

SEED_001 = [
    ([0.9, 0.7, 0.8, 0.6, 0.5, 0.4], 1.0),
    ([0.9, 0.8, 0.7, 0.6, 0.5, 0.4], 0.875),
    ([0.4, 0.6, 0.5, 0.7, 0.8, 0.9], 0.0),
]


@pytest.mark.parametrize("scores, expected", SEED_001)
@pytest.mark.parametrize("fn", [ek.roc_auc_score, roc_auc_rank, roc_auc_pairs])
def test_seed_001_auc(fn, scores, expected):
    assert fn([1, 0, 1, 0, 0, 0], scores) == expected


def test_seed_003_rank_sum_by_hand():
    # scores 0.1 < 0.35 = 0.35 < 0.8 get ranks 1, 2.5, 2.5, 4; positives hold 2.5 and 4
    y, s = [0, 0, 1, 1], [0.1, 0.35, 0.35, 0.8]
    expected = (2.5 + 4 - 2 * 3 / 2) / (2 * 2)  # 0.875
    assert roc_auc_rank(y, s) == expected == roc_auc_pairs(y, s) == ek.roc_auc_score(y, s)


def test_three_aucs_agree_with_brute_force():
    for y, s, pos_label, positive, _ in cases(5, 400, min_n=2):
        if positive.all() or not positive.any():
            continue
        expected = brute_pairs_auc(positive, s)
        rank = roc_auc_rank(y, s, pos_label=pos_label)
        pairs = roc_auc_pairs(y, s, pos_label=pos_label)
        area = ek.roc_auc_score(positive, s)
        assert rank == pairs == area  # all exact integer counts
        assert abs(area - expected) <= RTOL * expected + 1e-15


def test_three_aucs_agree_across_blocks(monkeypatch):
    # tiny blocks and runs, so block edges cut through groups of ties everywhere
    for block, run_length in [(3, 2), (4, 3), (7, 5), (16, 4)]:
        monkeypatch.setattr(_sweep_packed, "BLOCK", block)
        monkeypatch.setattr(_sweep_packed, "RUN", run_length)
        monkeypatch.setattr(_curves, "BLOCK", block)
        for y, s, pos_label, positive, _ in cases(6 + block, 120, min_n=2, max_n=90):
            if positive.all() or not positive.any():
                continue
            expected = roc_auc_pairs(y, s, pos_label=pos_label)
            assert ek.roc_auc_score(positive, s) == expected
            assert ek.roc_auc_score(positive.astype(np.int64), s) == expected
            sweep, brute = _sweep.sweep_of(positive, s), np.array(brute_sweep(positive, s)).T
            np.testing.assert_array_equal(sweep.thresholds, brute[0])
            np.testing.assert_array_equal(sweep.tps, brute[1])
            np.testing.assert_array_equal(sweep.fps, brute[2])
            fpr, tpr, _ = ek.roc_curve(positive, s)
            sk_fpr, sk_tpr, _ = skm.roc_curve(positive, s)
            np.testing.assert_array_equal(fpr, sk_fpr)
            np.testing.assert_array_equal(tpr, sk_tpr)


def test_exact_where_float64_is_not():
    # integers beyond 2**53 differ by 1: a float64 sweep would call them a tie
    big = 2**60
    y, s = [0, 1, 0, 1], np.array([big, big + 1, big + 2, big + 3], dtype=np.int64)
    assert ek.roc_auc_score(y, s) == roc_auc_rank(y, s) == roc_auc_pairs(y, s) == 0.75
    assert threshold_sweep(y, s).thresholds.tolist() == [big + 3, big + 2, big + 1, big]


def test_sweep_equals_brute_force():
    for y, s, pos_label, positive, w in cases(7, 300):
        sweep = threshold_sweep(y, s, pos_label=pos_label, sample_weight=w)
        tns, fps, fns, tps, thr = ek.confusion_matrix_at_thresholds(
            y, s, pos_label=pos_label, sample_weight=w)
        expected = brute_sweep(positive, s, w)
        assert thr.tolist() == [t for t, _, _ in expected]
        np.testing.assert_allclose(tps, [tp for _, tp, _ in expected], rtol=RTOL)
        np.testing.assert_allclose(fps, [fp for _, _, fp in expected], rtol=RTOL)
        if w is None:  # the sweep itself keeps weight-0 samples (Spark does)
            assert sweep.thresholds.tolist() == thr.tolist()
            assert sweep.tps.tolist() == tps.tolist() and sweep.fps.tolist() == fps.tolist()


# -- the best threshold ------------------------------------------------------------------


def brute_metric(metric, y01, y_pred, w, beta=1.0):
    """The metric of one prediction, from evalkit's label metrics."""
    kw = dict(sample_weight=w)
    if metric in ("f1", "fbeta"):
        return ek.fbeta_score(y01, y_pred, beta=beta, **kw)
    if metric == "precision":
        return ek.precision_score(y01, y_pred, **kw)
    if metric == "recall":
        return ek.recall_score(y01, y_pred, **kw)
    if metric == "accuracy":
        return ek.accuracy_score(y01, y_pred, **kw)
    c = ek.binary_counts(y01, y_pred, sample_weight=w)
    if metric == "youden":
        return c.recall() - c.fpr()
    return metric(c.tp, c.fp, c.fn, c.tn)


def net_benefit(tp, fp, fn, tn):
    return np.asarray(tp, dtype=float) - 2.0 * np.asarray(fp, dtype=float)


@pytest.mark.parametrize("metric", ["f1", "fbeta", "precision", "recall", "accuracy", "youden",
                                    net_benefit])
def test_best_threshold_equals_brute_force(metric):
    beta = 2.0 if metric == "fbeta" else 1.0
    for y, s, pos_label, positive, w in cases(8, 60, min_n=2):
        if positive.all() or not positive.any():
            continue
        y01 = positive.astype(int)
        keep = np.ones(len(s), bool) if w is None else w != 0
        candidates = sorted(set(s[keep].tolist()), reverse=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [brute_metric(metric, y01, (s >= t).astype(int), w, beta) for t in candidates]
            threshold, value = ek.best_threshold(y, s, metric=metric, beta=beta,
                                                 pos_label=pos_label, sample_weight=w)
        best = max(values)
        assert abs(value - best) <= RTOL * abs(best) + 1e-12
        # ties: the highest threshold among the maxima (up to rounding) wins
        first = next(t for t, v in zip(candidates, values)
                     if abs(v - best) <= RTOL * abs(best) + 1e-12)
        assert threshold == first


def test_best_threshold_equals_sklearn_metric_at_thresholds():
    for y, s, _, positive, w in cases(9, 60, min_n=2):
        if positive.all() or not positive.any():
            continue
        values, thresholds = skm.metric_at_thresholds(
            positive.astype(int), s, skm.f1_score, sample_weight=w,
            metric_params={"zero_division": 0.0})
        threshold, value = ek.best_threshold(positive, s, sample_weight=w)
        i = int(np.argmax(values))
        assert value == pytest.approx(values[i], rel=RTOL)
        assert threshold == thresholds[i]


def test_best_threshold_of_seed_000():
    y = [1] * 11 + [0] * 89
    s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    assert ek.best_threshold(y, s) == (0.4, 1.0)
    assert ek.best_threshold(y, s, metric="precision") == (1.0, 1.0)  # tie: highest wins
    assert ek.best_threshold(y, s, metric="recall") == (0.4, 1.0)
    assert ek.best_threshold(y, s, metric="youden") == (0.4, 1.0)


def test_best_threshold_calls_the_callable_once_with_arrays():
    calls = []

    def metric(tp, fp, fn, tn):
        calls.append((tp.copy(), fp.copy(), fn.copy(), tn.copy()))
        return tp - fp

    assert ek.best_threshold([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], metric=metric) == (0.35, 1.0)
    assert len(calls) == 1
    assert [a.tolist() for a in calls[0]] == [[0, 1, 2, 2], [1, 1, 1, 2], [2, 1, 0, 0],
                                              [1, 1, 1, 0]]


# -- the threshold table ---------------------------------------------------------------


def test_threshold_table_equals_sklearn():
    for y, s, pos_label, positive, w in cases(10, 80, min_n=2):
        weight = np.ones(len(s)) if w is None else w
        if not weight[positive].any() or not weight[~positive].any():
            continue  # a class without weight: sklearn's nan, the table's zero_division
        table = ek.threshold_table(y, s, pos_label=pos_label, sample_weight=w)
        kw = dict(pos_label=pos_label, sample_weight=w)
        tns, fps, fns, tps, thr = skm.confusion_matrix_at_thresholds(y, s, **kw)
        assert table["threshold"].tolist() == thr.tolist()
        for name, col in [("tp", tps), ("fp", fps), ("fn", fns), ("tn", tns)]:
            np.testing.assert_allclose(table[name], col, rtol=RTOL)
        precision, recall, _ = skm.precision_recall_curve(y, s, **kw)
        np.testing.assert_allclose(table["precision"], precision[-2::-1], rtol=RTOL)
        np.testing.assert_allclose(table["recall"], recall[-2::-1], rtol=RTOL)
        fpr, _, _ = skm.roc_curve(y, s, drop_intermediate=False, **kw)
        np.testing.assert_allclose(table["fpr"], fpr[1:], rtol=RTOL)
        f1, _ = skm.metric_at_thresholds(positive.astype(int), s, skm.f1_score, sample_weight=w,
                                          metric_params={"zero_division": 0.0})
        np.testing.assert_allclose(table["f1"], f1, rtol=RTOL)


def test_threshold_table_beta_and_bins():
    rng = np.random.default_rng(11)
    y, s = rng.integers(0, 2, 200), np.round(rng.random(200), 2)
    full = ek.threshold_table(y, s, beta=2.0)
    assert list(full.columns) == ["threshold", "tp", "fp", "fn", "tn", "precision", "recall",
                                  "f2", "fpr"]
    for t, f2 in zip(full["threshold"], full["f2"]):
        assert f2 == pytest.approx(skm.fbeta_score(y, s >= t, beta=2.0), rel=RTOL)
    binned = ek.threshold_table(y, s, num_bins=10)
    ends = threshold_sweep(y, s).binned(10).thresholds
    assert binned["threshold"].tolist() == ends.tolist()
    expected = full.set_index("threshold").loc[ends].reset_index()
    np.testing.assert_allclose(binned.drop(columns="f1").to_numpy(float),
                               expected.drop(columns="f2").to_numpy(float), rtol=RTOL)


def test_threshold_table_of_seed_000():
    # Spark's precisionByThreshold, recallByThreshold and fMeasureByThreshold in the Spark post
    t = ek.threshold_table([1] * 11 + [0] * 89, [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89)
    assert t["threshold"].tolist() == [1.0, 0.6, 0.4, 0.0]
    assert t["precision"].tolist() == [1.0, 1.0, 1.0, 0.11]
    np.testing.assert_allclose(t["recall"], [0.09090909090909091, 0.5454545454545454, 1, 1])
    np.testing.assert_allclose(t["f1"], [1 / 6, 0.7058823529411764, 1, 0.19819819819819817],
                               rtol=1e-15)


# -- undefined cases: nan and the warning scikit-learn gives --------------------------


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1]])
def test_auc_with_one_class_is_nan_with_sklearns_warning(y):
    s = [0.2, 0.5, 0.9]
    theirs, their_warnings = run(skm.roc_auc_score, y, s)
    assert np.isnan(theirs)
    for fn in (ek.roc_auc_score, roc_auc_rank, roc_auc_pairs):
        with pytest.warns(ek.UndefinedMetricWarning, match="Only one class is present"):
            ours = fn(y, s)
        assert np.isnan(ours)
        assert run(fn, y, s)[1] == their_warnings


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1]])
def test_roc_curve_with_one_class_warns_like_sklearn(y):
    ours, our_warnings = run(ek.roc_curve, y, [0.2, 0.5, 0.9])
    theirs, their_warnings = run(skm.roc_curve, y, [0.2, 0.5, 0.9])
    assert_arrays(ours, theirs)
    assert our_warnings == their_warnings and len(our_warnings) == 1
    with pytest.warns(ek.UndefinedMetricWarning, match="meaningless"):
        ek.roc_curve(y, [0.2, 0.5, 0.9])


def test_pr_curve_and_ap_without_positives_warn_like_sklearn():
    y, s = [0, 0, 0], [0.2, 0.5, 0.9]
    for name in ("precision_recall_curve", "average_precision_score"):
        ours, our_warnings = run(getattr(ek, name), y, s)
        theirs, their_warnings = run(getattr(skm, name), y, s)
        assert our_warnings == their_warnings == [
            "No positive class found in y_true, recall is set to one for all thresholds."]
        if name == "average_precision_score":
            assert ours == theirs == 0.0
        else:
            assert_arrays(ours, theirs)


def run_classes(fn, *args, **kwargs):
    """(result, sorted (warning class name, message)): the class too, by name (sklearn's and
    evalkit's UndefinedMetricWarning are different classes of the same name)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, sorted({(w.category.__name__, str(w.message)) for w in caught})


def test_pr_curve_and_ap_without_positives_warn_sklearns_class():
    rng = np.random.default_rng(8)
    for _ in range(20):
        n = int(rng.integers(2, 30))
        s = np.round(rng.random(n), 1)
        w = rng.random(n) + 0.1
        y = rng.integers(0, 2, n)
        w_none = np.where(y == 1, 0.0, w)                      # the positives weigh nothing
        for y_, w_ in ((np.zeros(n, int), None), (y, w_none)):
            if w_ is not None and not (y_ == 0).any():
                continue
            for name in ("precision_recall_curve", "average_precision_score"):
                ours, our_warnings = run_classes(getattr(ek, name), y_, s, sample_weight=w_)
                theirs, their_warnings = run_classes(getattr(skm, name), y_, s, sample_weight=w_)
                assert our_warnings == their_warnings, name
                assert [c for c, _ in our_warnings] == ["UserWarning"]
                if name == "average_precision_score":
                    assert ours == theirs
                else:
                    assert_arrays(ours, theirs)
    with pytest.warns(UserWarning, match="No positive class found") as caught:
        ek.precision_recall_curve([0, 0], [0.1, 0.2])
    assert caught[0].category is UserWarning and caught[0].filename == __file__


def test_roc_auc_with_a_weightless_class_warns_like_sklearn():
    # both labels present, weights that zero one of them out: nan, and roc_curve's warning
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(30):
        n = int(rng.integers(3, 40))
        y = rng.integers(0, 2, n)
        if len(np.unique(y)) < 2:
            continue
        s = np.round(rng.random(n), 1)
        for zeroed in (0, 1):
            w = np.where(y == zeroed, 0.0, rng.random(n) + 0.1)
            ours, our_warnings = run_classes(ek.roc_auc_score, y, s, sample_weight=w)
            theirs, their_warnings = run_classes(skm.roc_auc_score, y, s, sample_weight=w)
            assert np.isnan(ours) and np.isnan(theirs)
            assert our_warnings == their_warnings and len(our_warnings) == 1
            checked += 1
    assert checked > 20
    with pytest.warns(ek.UndefinedMetricWarning, match="No negative samples in y_true") as caught:
        assert np.isnan(ek.roc_auc_score([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[0.0, 1.0, 1.0]))
    assert caught[0].filename == __file__


@pytest.mark.parametrize("average", ["macro", "weighted", None])
def test_multiclass_ovr_auc_with_a_weightless_class_warns_like_sklearn(average):
    rng = np.random.default_rng(10)
    for _ in range(10):
        n = int(rng.integers(9, 40))
        y = np.r_[0, 1, 2, rng.integers(0, 3, n - 3)]
        p = rng.dirichlet([1.0, 1.0, 1.0], n)
        w = np.where(y == int(rng.integers(0, 3)), 0.0, rng.random(n) + 0.1)
        ours, our_warnings = run_classes(ek.roc_auc_score, y, p, sample_weight=w, multi_class="ovr",
                                         average=average)
        theirs, their_warnings = run_classes(skm.roc_auc_score, y, p, sample_weight=w,
                                             multi_class="ovr", average=average)
        np.testing.assert_allclose(ours, theirs, rtol=RTOL, equal_nan=True)
        assert our_warnings == their_warnings and our_warnings
    with pytest.raises(ValueError) as ours:                 # one-vs-one takes no weights, as sklearn
        ek.roc_auc_score(y, p, sample_weight=w, multi_class="ovo")
    with pytest.raises(ValueError) as theirs:
        skm.roc_auc_score(y, p, sample_weight=w, multi_class="ovo")
    assert "sample_weight" in str(ours.value) and "sample_weight" in str(theirs.value)


def test_partial_auc_with_a_weightless_class_is_nan():
    # sklearn fails here (an interpolation on one point); evalkit gives nan after the warning
    with pytest.warns(ek.UndefinedMetricWarning, match="No positive samples"):
        value = ek.roc_auc_score([0, 1, 0], [0.1, 0.5, 0.7], sample_weight=[1, 0, 1],
                                 max_fpr=0.5)
    assert np.isnan(value)


# -- bad input: one test per kind --------------------------------------------------------

CURVES = [ek.confusion_matrix_at_thresholds, ek.roc_curve, ek.precision_recall_curve,
          ek.roc_auc_score, ek.average_precision_score, roc_auc_rank, roc_auc_pairs,
          ek.best_threshold, ek.threshold_table]


@pytest.mark.parametrize("fn", CURVES)
def test_nan_scores(fn):
    with pytest.raises(ValueError, match="y_score contains NaN"):
        fn([0, 1, 1], [0.1, np.nan, 0.3])


@pytest.mark.parametrize("fn", CURVES)
def test_infinite_scores(fn):
    with pytest.raises(ValueError, match="y_score contains infinite values"):
        fn([0, 1, 1], [0.1, np.inf, 0.3])


@pytest.mark.parametrize("fn", CURVES)
def test_lengths_differ(fn):
    with pytest.raises(ValueError, match=r"y_true and y_score have different lengths \(3 and 2\)"):
        fn([0, 1, 1], [0.1, 0.3])


@pytest.mark.parametrize("fn", CURVES)
def test_two_dimensional_scores(fn):
    with pytest.raises(ValueError, match=r"y_score must be 1-D"):
        fn([0, 1], [[0.1, 0.9], [0.8, 0.2]])


@pytest.mark.parametrize("fn", [ek.confusion_matrix_at_thresholds, ek.roc_curve,
                                ek.precision_recall_curve, roc_auc_rank, roc_auc_pairs,
                                ek.best_threshold, ek.threshold_table])
def test_labels_not_binary_without_pos_label(fn):
    with pytest.raises(ValueError, match=r"y_true takes values in \['a', 'b'\] and pos_label "
                                         "is not specified"):
        fn(["a", "b", "a"], [0.1, 0.5, 0.3])


@pytest.mark.parametrize("fn", [ek.confusion_matrix_at_thresholds, ek.roc_curve,
                                ek.precision_recall_curve, ek.average_precision_score])
def test_pos_label_not_among_labels(fn):
    with pytest.raises(ValueError, match=r"pos_label='c' is not a valid label"):
        fn(["a", "b", "a"], [0.1, 0.5, 0.3], pos_label="c")


def test_negative_num_bins():
    with pytest.raises(ValueError, match=r"num_bins must be >= 0"):
        ek.threshold_table([0, 1], [0.1, 0.9], num_bins=-1)


@pytest.mark.parametrize("fn", [ek.roc_curve, ek.roc_auc_score, ek.best_threshold])
def test_negative_sample_weight(fn):
    with pytest.raises(ValueError, match="sample_weight contains negative values"):
        fn([0, 1], [0.1, 0.9], sample_weight=[1, -1])


@pytest.mark.parametrize("max_fpr", [0, -0.5, 1.5])
def test_max_fpr_out_of_range(max_fpr):
    with pytest.raises(ValueError, match=r"max_fpr must be in \(0, 1\]"):
        ek.roc_auc_score([0, 1], [0.1, 0.9], max_fpr=max_fpr)


def test_multiclass_auc_needs_a_score_matrix():
    # multiclass AUC and AP themselves: tests/test_multiclass_auc.py
    with pytest.raises(ValueError, match=r"y_score must be of shape \(n_samples, n_classes\)"):
        ek.roc_auc_score([0, 1, 2], [0.1, 0.5, 0.9], multi_class="ovr", labels=[0, 1, 2])
    with pytest.raises(ValueError, match="multi_class must be 'ovr'"):
        ek.roc_auc_score([0, 1, 2], [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]])
    with pytest.raises(ValueError, match=r"y_score must be of shape \(n_samples, n_classes\)"):
        ek.average_precision_score([0, 1, 2], [0.1, 0.5, 0.9])


def test_unknown_options():
    with pytest.raises(ValueError, match="average must be one of"):
        ek.roc_auc_score([0, 1], [0.1, 0.9], average="mean")
    with pytest.raises(ValueError, match=r"multi_class must be 'raise', 'ovr' \(one-vs-rest\)"):
        ek.roc_auc_score([0, 1], [0.1, 0.9], multi_class="ova")
    with pytest.raises(TypeError, match="drop_intermediate must be True or False"):
        ek.roc_curve([0, 1], [0.1, 0.9], drop_intermediate="yes")


def test_too_many_pairs():
    with pytest.raises(ValueError, match=r"2 positives x 2 negatives = 4 pairs, more than "
                                         r"max_pairs=3: use roc_auc_score or roc_auc_rank"):
        roc_auc_pairs([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], max_pairs=3)


def test_unknown_metric():
    with pytest.raises(ValueError, match=r"metric must be 'f1' \(F-beta, F1 at beta=1\), 'fbeta'"):
        ek.best_threshold([0, 1], [0.1, 0.9], metric="auc")


def test_callable_metric_of_the_wrong_shape():
    with pytest.raises(ValueError, match="metric must return one value per threshold"):
        ek.best_threshold([0, 1], [0.1, 0.9], metric=lambda tp, fp, fn, tn: 1.0)


def test_auc_of_x_not_monotonic():
    with pytest.raises(ValueError, match="x is neither increasing nor decreasing"):
        ek.auc([0, 1, 0.5], [0, 1, 1])


def test_auc_of_too_few_points():
    with pytest.raises(ValueError, match="At least 2 points are needed"):
        ek.auc([0.5], [1.0])


def test_every_function_is_exported():
    for name in curves.__all__:
        assert getattr(ek, name) is getattr(curves, name)
        assert name in ek.__all__


@pytest.mark.parametrize("fn", [ek.roc_auc_score, ek.roc_curve, ek.precision_recall_curve,
                                ek.average_precision_score])
def test_a_column_of_scores_is_refused_like_everywhere(fn):
    # issue 16: roc_auc_score took an (n, 1) column (and returned a number); every other
    # function refuses it with the message of evalkit's score reader
    column = np.array([[0.1], [0.4], [0.35], [0.8]])
    with pytest.raises(ValueError, match=r"^y_score must be 1-D"):
        fn([0, 1, 1, 0], column)
    with pytest.raises(ValueError, match=r"^y_score must be 1-D"):
        fn([True, False, True, False], column)


# -- det_curve: the ROC sweep's other two rates ------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_det_curve_matches_sklearn(seed):
    rng = np.random.default_rng(5000 + seed)
    n = int(rng.integers(2, 60))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    scores = rng.integers(0, 8, n) + y * rng.integers(0, 3)    # ties, some separation
    if seed % 4 == 1:
        scores = scores / 7.0
    w = None if seed % 3 == 0 else rng.integers(0, 4, n) + (seed % 2) * rng.random(n)
    if w is not None:
        w[:2] = 1.0
    labels = np.array(["ham", "spam"])[y] if seed % 5 == 2 else y
    pos = "spam" if seed % 5 == 2 else None
    for drop in (False, True):
        ours = ek.det_curve(labels, scores, pos_label=pos, sample_weight=w, drop_intermediate=drop)
        theirs = skm.det_curve(labels, scores, pos_label=pos, sample_weight=w,
                               drop_intermediate=drop)
        for a, b in zip(ours, theirs):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_det_curve_is_the_roc_curve_turned():
    y, s = [0, 0, 1, 1, 1], [0.1, 0.4, 0.35, 0.8, 0.8]
    fpr, fnr, thr = ek.det_curve(y, s)
    roc_fpr, tpr, roc_thr = ek.roc_curve(y, s, drop_intermediate=False)
    at = {t: (f, 1 - r) for f, r, t in zip(roc_fpr, tpr, roc_thr)}
    np.testing.assert_allclose([at[t] for t in thr], np.column_stack([fpr, fnr]), rtol=1e-15)


def test_det_curve_needs_both_classes():
    with pytest.raises(ValueError, match="Only one class is present in y_true"):
        ek.det_curve([1, 1, 1], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("call", [
    lambda y, s, w: ek.roc_auc_score(y, s, sample_weight=w),
    lambda y, s, w: ek.roc_auc_score(y, s, sample_weight=w, max_fpr=0.5),
    lambda y, s, w: ek.average_precision_score(y, s, sample_weight=w),
    lambda y, s, w: ek.roc_curve(y, s, sample_weight=w),
    lambda y, s, w: ek.precision_recall_curve(y, s, sample_weight=w),
    lambda y, s, w: ek.best_threshold(y, s, sample_weight=w),
    lambda y, s, w: ek.roc_auc_score(np.c_[y, 1 - y], np.c_[s, 1 - s], sample_weight=w),
    lambda y, s, w: ek.average_precision_score(np.c_[y, 1 - y], np.c_[s, s], sample_weight=w),
])
@pytest.mark.parametrize("weighted", [False, True])
def test_arrays_are_validated_once(call, weighted, monkeypatch):
    # public functions validate at the boundary once and call private steps, not each
    # other: every array reader goes through _validation's as_array, which counts here
    from evalkit._validation import _arrays, _labels, _lists

    read, as_array = [], _arrays.as_array
    for module in (_arrays, _labels, _lists):
        monkeypatch.setattr(module, "as_array",
                            lambda y, name, **kw: read.append(name) or as_array(y, name, **kw))
    rng = np.random.default_rng(0)
    y, s = rng.integers(0, 2, 50), rng.random(50)
    call(y, s, rng.random(50) if weighted else None)
    assert sorted(read) == sorted(["y_true", "y_score"] + ["sample_weight"] * weighted)
