"""evalkit.uncertainty against independent oracles.

* the count paths (cells of the confusion matrix, groups of the sweep) equal
  the metric itself called on the resample they stand for;
* percentile and BCa intervals equal scipy.stats.bootstrap's on the same
  resamples; proportion intervals equal statsmodels';
* DeLong equals an O(n^2) structural-components DeLong written here and the
  ``confidenceinterval`` package;
* coverage: 95 % intervals cover the true AUC / F1 of a known process
  93-97 % of the time;
* one test per kind of bad input.
"""

import math
import warnings

import numpy as np
import pytest
import scipy.stats
from statistics import NormalDist

import evalkit as ek
from evalkit import uncertainty as U
from evalkit._delong_blocked import auc_variance
from evalkit._resample import METRICS, draw, runs
from evalkit.exceptions import UndefinedMetricWarning

from _oracle import delong_brute, delong_midranks


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def labels(rng, n, n_classes, acc=0.7):
    y = rng.integers(0, n_classes, n)
    yhat = np.where(rng.random(n) < acc, y, rng.integers(0, n_classes, n))
    return y, yhat


# -- the count paths equal the metric on the resample they stand for ----------------

LABEL_CASES = [
    (ek.accuracy_score, {}),
    (ek.accuracy_score, {"normalize": False}),
    (ek.precision_score, {}),
    (ek.recall_score, {"pos_label": 0}),
    (ek.f1_score, {}),
    (ek.f1_score, {"zero_division": 1.0}),
    (ek.f1_score, {"average": "macro"}),
    (ek.f1_score, {"average": "micro"}),
    (ek.f1_score, {"average": "weighted"}),
    (ek.precision_score, {"average": "macro", "zero_division": np.nan}),
    (ek.recall_score, {"average": "weighted", "labels": [2, 0, 7]}),
    (ek.fbeta_score, {"beta": 2.0, "average": "macro"}),
    (ek.fbeta_score, {"beta": 0.5}),
    (ek.macro_f1, {}),
    (ek.macro_f1, {"definition": "f1_of_means"}),
]


@pytest.mark.parametrize("metric, kwargs", LABEL_CASES)
@pytest.mark.parametrize("seed", range(4))
def test_cell_counts_equal_the_metric_on_the_resample(metric, kwargs, seed):
    rng = np.random.default_rng(seed)
    binary = kwargs.get("average", "binary") == "binary"
    n_classes = 2 if binary else int(rng.integers(3, 6))
    y, yhat = labels(rng, int(rng.integers(5, 40)), n_classes, acc=rng.random())
    name = U._NAMES[metric]
    path = U._label_path(name, kwargs, y, [yhat])
    cells, _ = U._label_cells(name, kwargs, y, [yhat])
    classes = np.unique(np.r_[y, yhat])
    ct, cp = cells.cells.T
    drawn = np.vstack([draw(rng, path.counts, path.strata, 30, True),
                       draw(rng, path.counts, path.strata, 30, False),
                       rng.integers(0, 3, (30, len(ct)))])  # also counts no bootstrap draws
    drawn = drawn[drawn.sum(axis=1) > 0]
    values, _ = quiet(path.evaluate, drawn)
    for row, v in zip(drawn, values):
        yt = np.repeat(classes[ct], row)
        yp = np.repeat(classes[cp], row)
        expected = quiet(metric, yt, yp, **kwargs)
        np.testing.assert_allclose(v, expected, rtol=1e-12, atol=1e-15, equal_nan=True)


@pytest.mark.parametrize("metric", [ek.roc_auc_score, ek.average_precision_score])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("stratify", [True, False])
def test_sweep_counts_equal_the_metric_on_the_resample(metric, seed, stratify):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.random(n) + 0.5 * y, int(rng.integers(1, 3)))  # ties
    path = U._score_path(U._NAMES[metric], {}, y, [s])
    g = len(path.counts) // 2
    assert path.evaluate(path.counts[None])[0][0] == pytest.approx(metric(y, s), rel=1e-12)
    drawn = draw(rng, path.counts, path.strata, 40, stratify)
    pos, neg = drawn[:, :g], drawn[:, g:]
    values, _ = path.evaluate(drawn)
    undefined = np.isnan(values)
    # the same resample, as rows: run g's score (distinct, decreasing) repeated by its counts
    group_scores = np.arange(g, 0, -1)
    for b in range(40):
        yt = np.r_[np.ones(pos[b].sum(), int), np.zeros(neg[b].sum(), int)]
        ss = np.r_[np.repeat(group_scores, pos[b]), np.repeat(group_scores, neg[b])]
        if undefined[b]:
            assert len(np.unique(yt)) < 2
            continue
        assert values[b] == pytest.approx(metric(yt, ss), rel=1e-12)


@pytest.mark.parametrize("metric", [ek.roc_auc_score, ek.average_precision_score])
def test_sweep_jackknife_is_leave_one_out(metric):
    rng = np.random.default_rng(3)
    n = 40
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) + 0.4 * y, 1)
    values, weights = U._score_path(U._NAMES[metric], {}, y, [s]).jackknife()
    loo = sorted(metric(np.delete(y, i), np.delete(s, i)) for i in range(n))
    got = sorted(np.repeat(values, weights.astype(int)))
    np.testing.assert_allclose(got, loo, rtol=1e-12)


def test_label_jackknife_is_leave_one_out():
    rng = np.random.default_rng(4)
    y, yhat = labels(rng, 30, 3)
    values, weights = U._label_path("f1", {"average": "macro"}, y, [yhat]).jackknife()
    loo = sorted(quiet(ek.f1_score, np.delete(y, i), np.delete(yhat, i), average="macro")
                 for i in range(30))
    np.testing.assert_allclose(sorted(np.repeat(values, weights)), loo, rtol=1e-12)


def test_count_path_and_row_path_give_the_same_distribution():
    rng = np.random.default_rng(5)
    y, yhat = labels(rng, 300, 2, acc=0.8)
    fast = ek.bootstrap_ci(ek.f1_score, y, yhat, n_resamples=4000, random_state=1)
    slow = ek.bootstrap_ci(lambda a, b: ek.f1_score(a, b), y, yhat, n_resamples=4000,
                           random_state=2)
    assert fast.scheme.startswith("cell counts") and slow.scheme.startswith("rows")
    assert fast.estimate == slow.estimate
    sd = slow.distribution.std()
    assert abs(fast.distribution.mean() - slow.distribution.mean()) < 4 * sd / math.sqrt(4000)
    assert fast.distribution.std() == pytest.approx(sd, rel=0.08)
    assert fast.low == pytest.approx(slow.low, abs=sd / 4)
    assert fast.high == pytest.approx(slow.high, abs=sd / 4)


def test_stratified_accuracy_has_the_binomial_variance():
    rng = np.random.default_rng(6)
    y, yhat = labels(rng, 400, 3, acc=0.6)
    n_c = np.bincount(y)
    r_c = np.bincount(y[y == yhat], minlength=3) / n_c
    strat = ek.bootstrap_ci(ek.accuracy_score, y, yhat, n_resamples=20000, random_state=0)
    plain = ek.bootstrap_ci(ek.accuracy_score, y, yhat, n_resamples=20000, random_state=0,
                            stratify=False)
    acc = np.mean(y == yhat)
    assert plain.distribution.var() == pytest.approx(acc * (1 - acc) / 400, rel=0.05)
    assert strat.distribution.var() == pytest.approx(
        np.sum(n_c * r_c * (1 - r_c)) / 400**2, rel=0.05)
    assert "stratified" in strat.scheme and "not stratified" in plain.scheme


# -- intervals: scipy.stats.bootstrap on the same resamples ---------------------------


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_intervals_equal_scipy_on_the_same_resamples(method, seed, confidence):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 200))
    y = rng.integers(0, 2, n)
    yhat = np.where(rng.random(n) < 0.75, y, 1 - y)

    def accuracy(a, b, axis=-1):
        return np.mean(a == b, axis=axis)

    ours = ek.bootstrap_ci(lambda a, b: float(accuracy(a, b)), y, yhat, n_resamples=999,
                           confidence=confidence, method=method, stratify=False,
                           random_state=np.random.default_rng(100 + seed))
    ref = scipy.stats.bootstrap((y, yhat), accuracy, paired=True, n_resamples=999,
                                confidence_level=confidence, method=method,
                                rng=np.random.default_rng(100 + seed))
    np.testing.assert_allclose(np.sort(ours.distribution), np.sort(ref.bootstrap_distribution),
                               rtol=1e-12)
    assert ours.low == pytest.approx(ref.confidence_interval.low, rel=1e-10)
    assert ours.high == pytest.approx(ref.confidence_interval.high, rel=1e-10)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_per_user_mean_equals_scipy(method):
    rng = np.random.default_rng(7)
    ap = rng.beta(2, 3, 150)  # per-user average precision, say
    ours = ek.bootstrap_ci(np.mean, ap, method=method, n_resamples=1500,
                           random_state=np.random.default_rng(9))
    ref = scipy.stats.bootstrap((ap,), np.mean, n_resamples=1500, method=method,
                                rng=np.random.default_rng(9))
    assert ours.low == pytest.approx(ref.confidence_interval.low, rel=1e-10)
    assert ours.high == pytest.approx(ref.confidence_interval.high, rel=1e-10)
    assert ours.scheme.startswith("rows") and "not stratified" in ours.scheme


def test_bca_on_the_count_path_is_close_to_scipy():
    rng = np.random.default_rng(8)
    y, yhat = labels(rng, 250, 2, acc=0.85)

    def accuracy(a, b, axis=-1):
        return np.mean(a == b, axis=axis)

    ours = ek.bootstrap_ci(ek.accuracy_score, y, yhat, method="bca", stratify=False,
                           n_resamples=20000, random_state=0)
    ref = scipy.stats.bootstrap((y, yhat), accuracy, paired=True, n_resamples=20000,
                                method="bca", rng=np.random.default_rng(0))
    sd = ours.distribution.std()
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=sd / 5)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=sd / 5)


# -- proportions: statsmodels ------------------------------------------------------


@pytest.mark.parametrize("method, sm", [("wilson", "wilson"), ("clopper-pearson", "beta"),
                                        ("normal", "normal")])
def test_proportion_ci_equals_statsmodels(method, sm):
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(10)
    cases = [(0, 10), (10, 10), (1, 1), (0, 1), (90, 100), (3, 7)]
    cases += [(int(x), int(n)) for n in rng.integers(1, 500, 30) for x in [rng.integers(0, n + 1)]]
    for x, n in cases:
        for conf in (0.8, 0.95, 0.99):
            ci = ek.proportion_ci(x, n, confidence=conf, method=method)
            lo, hi = proportion_confint(x, n, alpha=1 - conf, method=sm)
            assert ci.estimate == x / n
            assert ci.low == pytest.approx(max(lo, 0.0), abs=1e-12)
            assert ci.high == pytest.approx(min(hi, 1.0), abs=1e-12)


# -- McNemar: statsmodels ------------------------------------------------------------


@pytest.mark.parametrize("exact, correction", [(True, True), (False, True), (False, False)])
def test_mcnemar_equals_statsmodels(exact, correction):
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(23)
    checked = 0
    for _ in range(300):
        n, k = int(rng.integers(1, 600)), int(rng.integers(2, 5))
        y = rng.integers(0, k, n)
        a, b = (np.where(rng.random(n) < rng.random(), y, rng.integers(0, k, n)) for _ in "ab")
        t = quiet(ek.mcnemar_test, y, a, b, exact=exact, correction=correction)
        right_a, right_b = a == y, b == y
        table = [[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                 [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]]
        assert t.table.tolist() == table
        if table[0][1] + table[1][0] == 0:
            continue
        ref = mcnemar(table, exact=exact, correction=correction)
        assert t.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert t.p_value == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
        assert t.estimate == pytest.approx(np.mean(right_a) - np.mean(right_b), abs=1e-15)
        assert (t.estimate_a, t.estimate_b) == (np.mean(right_a), np.mean(right_b))
        checked += 1
    assert checked > 250


def test_mcnemar_large_and_string_labels():
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(24)
    y = rng.choice(["cat", "dog"], 20_000)
    a = np.where(rng.random(20_000) < 0.8, y, "dog")
    b = np.where(rng.random(20_000) < 0.79, y, "cat")
    for exact in (True, False):
        t = ek.mcnemar_test(y, a, b, exact=exact)
        ref = mcnemar(t.table, exact=exact)
        assert t.p_value == pytest.approx(ref.pvalue, rel=1e-9)


def test_mcnemar_without_disagreement():
    y, a = [0, 1, 1, 0], [0, 1, 0, 0]
    t = ek.mcnemar_test(y, a, a)  # exact: statsmodels' statistic 0, p 1
    assert (t.statistic, t.p_value, t.estimate) == (0.0, 1.0, 0.0)
    for correction in (True, False):
        with pytest.warns(UndefinedMetricWarning, match="b \\+ c = 0"):
            t = ek.mcnemar_test(y, a, a, exact=False, correction=correction)
        assert (t.statistic, t.p_value) == (0.0, 1.0)


def test_mcnemar_bad_input():
    with pytest.raises(TypeError, match="^exact must be True or False"):
        ek.mcnemar_test([0, 1], [0, 1], [1, 1], exact="yes")
    with pytest.raises(TypeError, match="^correction must be True or False"):
        ek.mcnemar_test([0, 1], [0, 1], [1, 1], correction=1)
    with pytest.raises(ValueError, match="^y_true and y_pred_b have different lengths"):
        ek.mcnemar_test([0, 1], [0, 1], [1, 1, 0])
    with pytest.raises(TypeError, match="^y_true and y_pred_a hold different kinds of labels"):
        ek.mcnemar_test([0, 1], ["a", "b"], [1, 1])
    with pytest.raises(ValueError, match="^y_pred_b contains non-integer numbers"):
        ek.mcnemar_test([0, 1], [0, 1], [0.5, 1])


# -- DeLong: an O(n^2) structural-components oracle and the confidenceinterval package ---


@pytest.mark.parametrize("seed", range(8))
def test_delong_equals_the_structural_components(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 300))
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    s = np.round(rng.normal(size=n) + y * rng.random() * 2, int(rng.integers(0, 3)))
    if seed % 2:
        y = np.where(y == 1, "spam", "ham")  # the larger label is positive
    aucs, cov = delong_brute(y, [s])
    ci = ek.roc_auc_ci(y, s, confidence=0.9)
    assert ci.estimate == pytest.approx(aucs[0], rel=1e-12)
    assert ci.standard_error == pytest.approx(math.sqrt(cov[0, 0]), rel=1e-10)
    z = NormalDist().inv_cdf(0.95)
    assert ci.low == pytest.approx(max(0, aucs[0] - z * ci.standard_error), rel=1e-12)
    assert ci.high == pytest.approx(min(1, aucs[0] + z * ci.standard_error), rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_delong_test_equals_the_structural_components(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 300))
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    a = np.round(rng.normal(size=n) + y, int(rng.integers(0, 3)))
    b = np.round(0.5 * a + rng.normal(size=n) + 0.5 * y, 1)
    aucs, cov = delong_brute(y, [a, b])
    t = ek.delong_test(y, a, b)
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    z = (aucs[0] - aucs[1]) / math.sqrt(var)
    assert t.estimate_a == pytest.approx(aucs[0], rel=1e-12)
    assert t.estimate_b == pytest.approx(aucs[1], rel=1e-12)
    assert t.statistic == pytest.approx(z, rel=1e-9)
    assert t.p_value == pytest.approx(2 * (1 - NormalDist().cdf(abs(z))), rel=1e-9, abs=1e-15)
    half = NormalDist().inv_cdf(0.975) * math.sqrt(var)
    assert t.low == pytest.approx(max(-1, t.estimate - half), rel=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_delong_equals_the_confidenceinterval_package(seed):
    from confidenceinterval import roc_auc_score as ci_auc

    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 2000))
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y * (0.2 + rng.random())
    ours = ek.roc_auc_ci(y, s)
    auc, (lo, hi) = ci_auc(list(y), list(s), confidence_level=0.95, method="delong")
    assert ours.estimate == pytest.approx(auc, rel=1e-6)  # the package rounds to float32
    assert ours.low == pytest.approx(max(lo, 0.0), rel=1e-6)
    assert ours.high == pytest.approx(min(hi, 1.0), rel=1e-6)


def test_roc_auc_ci_bootstrap_is_bootstrap_ci():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    s = rng.random(200) + 0.3 * y
    a = ek.roc_auc_ci(y, s, method="bootstrap", random_state=3)
    b = ek.bootstrap_ci(ek.roc_auc_score, y, s, random_state=3)
    assert (a.low, a.high, a.estimate) == (b.low, b.high, b.estimate)
    d = ek.roc_auc_ci(y, s)
    assert d.low == pytest.approx(a.low, abs=0.02) and d.high == pytest.approx(a.high, abs=0.02)


# -- coverage -------------------------------------------------------------------------


def test_delong_and_bootstrap_cover_the_true_auc():
    # binormal: positives N(1, 1), negatives N(0, 1): AUC = Phi(1 / sqrt 2)
    true_auc = NormalDist().cdf(1 / math.sqrt(2))
    rng = np.random.default_rng(12)
    hits_delong = hits_boot = 0
    sims = 1000
    for _ in range(sims):
        y = np.r_[np.ones(60, int), np.zeros(90, int)]
        s = rng.normal(size=150) + y
        d = ek.roc_auc_ci(y, s)
        b = ek.bootstrap_ci(ek.roc_auc_score, y, s, n_resamples=500, random_state=rng)
        hits_delong += d.low <= true_auc <= d.high
        hits_boot += b.low <= true_auc <= b.high
    assert 0.93 <= hits_delong / sims <= 0.97
    assert 0.93 <= hits_boot / sims <= 0.97


def test_bootstrap_covers_the_true_f1():
    # y ~ Bernoulli(0.3); P(pred 1 | y 1) = 0.8, P(pred 1 | y 0) = 0.1:
    # F1 = 2 tp / (2 tp + fp + fn) with tp = 0.24, fp = 0.07, fn = 0.06
    true_f1 = 0.48 / (0.48 + 0.13)
    rng = np.random.default_rng(13)
    sims = 1000
    hits = {True: 0, False: 0}
    for _ in range(sims):
        y = (rng.random(400) < 0.3).astype(int)
        yhat = np.where(y == 1, rng.random(400) < 0.8, rng.random(400) < 0.1).astype(int)
        for stratify in (True, False):
            ci = ek.bootstrap_ci(ek.f1_score, y, yhat, n_resamples=1000, stratify=stratify,
                                 random_state=rng)
            hits[stratify] += ci.low <= true_f1 <= ci.high
    assert 0.93 <= hits[False] / sims <= 0.97
    assert 0.92 <= hits[True] / sims <= 0.97  # stratified: conditional on the class counts


# -- paired comparisons ---------------------------------------------------------------


def test_paired_bootstrap_of_a_model_against_itself():
    rng = np.random.default_rng(14)
    y, yhat = labels(rng, 100, 3)
    d = ek.paired_bootstrap(ek.f1_score, y, yhat, yhat, average="macro", random_state=0)
    assert (d.estimate, d.low, d.high, d.p_value) == (0.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize("metric, kwargs", [(ek.f1_score, {"average": "macro"}),
                                            (ek.accuracy_score, {}),
                                            (ek.roc_auc_score, {})])
def test_paired_bootstrap_count_path_matches_the_row_path(metric, kwargs):
    rng = np.random.default_rng(15)
    n = 300
    if metric is ek.roc_auc_score:
        y = rng.integers(0, 2, n)
        a = np.round(rng.random(n) + 0.5 * y, 2)
        b = np.round(rng.random(n) + 0.3 * y + 0.3 * a, 2)
    else:
        y, a = labels(rng, n, 3, acc=0.75)
        b = np.where(rng.random(n) < 0.8, a, rng.integers(0, 3, n))
    fast = ek.paired_bootstrap(metric, y, a, b, n_resamples=3000, random_state=1, **kwargs)
    slow = ek.paired_bootstrap(lambda t, p: metric(t, p, **kwargs), y, a, b, n_resamples=3000,
                               random_state=2)
    assert not fast.scheme.startswith("rows") and slow.scheme.startswith("rows")
    assert fast.estimate == pytest.approx(slow.estimate, rel=1e-12)
    sd = slow.distribution.std()
    assert fast.distribution.std() == pytest.approx(sd, rel=0.1)
    assert fast.low == pytest.approx(slow.low, abs=sd / 3)
    assert fast.high == pytest.approx(slow.high, abs=sd / 3)
    assert fast.p_value == pytest.approx(slow.p_value, abs=0.05)
    bca = ek.paired_bootstrap(metric, y, a, b, n_resamples=3000, random_state=1, method="bca",
                              **kwargs)
    assert bca.low == pytest.approx(fast.low, abs=sd / 2)


def test_permutation_test_exact_for_per_user_values():
    rng = np.random.default_rng(16)
    a = rng.random(10)
    b = a - 0.1 + 0.3 * rng.random(10)
    d = a - b
    signs = np.array(np.meshgrid(*[[1, -1]] * 10)).reshape(10, -1).T
    exact = np.mean(np.abs((signs * d).mean(axis=1)) >= abs(d.mean()) - 1e-12)
    t = ek.permutation_test(np.mean, None, a, b, n_permutations=20000, random_state=0)
    assert t.estimate == pytest.approx(d.mean())
    assert t.p_value == pytest.approx(exact, abs=0.01)
    assert t.low is None and t.high is None


def test_permutation_test_count_path_matches_the_row_path():
    rng = np.random.default_rng(17)
    y, a = labels(rng, 200, 3, acc=0.7)
    b = np.where(rng.random(200) < 0.85, a, rng.integers(0, 3, 200))
    fast = ek.permutation_test(ek.f1_score, y, a, b, average="macro", n_permutations=4000,
                               random_state=0)
    slow = ek.permutation_test(lambda t, p: ek.f1_score(t, p, average="macro"), y, a, b,
                               n_permutations=2000, random_state=0)
    assert fast.scheme.startswith("swap counts") and slow.scheme.startswith("rows")
    assert fast.p_value == pytest.approx(slow.p_value, abs=0.04)
    assert fast.distribution.std() == pytest.approx(slow.distribution.std(), rel=0.1)


def test_per_user_paired_bootstrap():
    rng = np.random.default_rng(18)
    a = rng.beta(2, 3, 300)
    b = np.clip(a - 0.05 + 0.1 * rng.random(300), 0, 1)
    d = ek.paired_bootstrap(np.mean, None, a, b, random_state=0)
    ref = scipy.stats.bootstrap((a - b,), np.mean, n_resamples=2000,
                                rng=np.random.default_rng(0), method="percentile")
    assert d.low == pytest.approx(ref.confidence_interval.low, rel=1e-10)
    assert d.high == pytest.approx(ref.confidence_interval.high, rel=1e-10)


# -- results ---------------------------------------------------------------------------


def test_result_objects_read_well():
    ci = ek.bootstrap_ci(ek.accuracy_score, [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], random_state=0,
                         n_resamples=100)
    text = repr(ci)
    assert text.startswith("ConfidenceInterval(estimate=0.8, low=")
    assert "method='percentile', n_resamples=100, n_skipped=0" in text
    assert ci.interval == (ci.low, ci.high) and ci.width == ci.high - ci.low
    assert "95 % CI" in str(ci)
    t = ek.delong_test([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.6, 0.2, 0.4],
                       [0.2, 0.8, 0.1, 0.7, 0.5, 0.3])
    assert repr(t).startswith("Comparison(estimate=") and "p_value=" in repr(t)
    assert "p = " in str(t)


# -- bad input ---------------------------------------------------------------------------

Y, P = [0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1]


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, 95, float("nan")])
def test_confidence_outside_0_1(confidence):
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        ek.bootstrap_ci(ek.f1_score, Y, P, confidence=confidence)
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        ek.roc_auc_ci(Y, P, confidence=confidence)
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        ek.proportion_ci(3, 6, confidence=confidence)


@pytest.mark.parametrize("confidence", ["0.95", True, None])
def test_confidence_not_a_number(confidence):
    with pytest.raises(TypeError, match="confidence must be a real number"):
        ek.paired_bootstrap(ek.f1_score, Y, P, P, confidence=confidence)


@pytest.mark.parametrize("n", [0, -5])
def test_n_resamples_below_1(n):
    with pytest.raises(ValueError, match="n_resamples must be >= 1"):
        ek.bootstrap_ci(ek.f1_score, Y, P, n_resamples=n)
    with pytest.raises(ValueError, match="n_permutations must be >= 1"):
        ek.permutation_test(ek.f1_score, Y, P, P, n_permutations=n)


def test_n_resamples_not_an_integer():
    with pytest.raises(TypeError, match="n_resamples must be an integer"):
        ek.bootstrap_ci(ek.f1_score, Y, P, n_resamples=100.5)


def test_unknown_method():
    with pytest.raises(ValueError, match="method must be 'percentile'"):
        ek.bootstrap_ci(ek.f1_score, Y, P, method="basic")
    with pytest.raises(ValueError, match="method must be 'delong'"):
        ek.roc_auc_ci(Y, P, method="hanley")
    with pytest.raises(ValueError, match="method must be 'wilson'"):
        ek.proportion_ci(3, 6, method="beta")


def test_bad_random_state():
    with pytest.raises(TypeError, match="random_state must be an integer >= 0, a numpy.random.Generator or None"):
        ek.bootstrap_ci(ek.f1_score, Y, P, random_state="seed")
    with pytest.raises(ValueError, match="random_state must be an integer >= 0"):  # numpy's rule
        ek.bootstrap_ci(ek.f1_score, Y, P, random_state=-1)


def test_metric_not_callable_or_no_arrays():
    with pytest.raises(TypeError, match="metric must be a callable"):
        ek.bootstrap_ci("f1", Y, P)
    with pytest.raises(TypeError, match=r"arrays\[0\] is required"):
        ek.bootstrap_ci(ek.f1_score)


def test_arrays_of_different_lengths():
    with pytest.raises(ValueError, match="different lengths"):
        ek.bootstrap_ci(lambda a, b: 0.5, Y, P[:-1])
    with pytest.raises(ValueError, match="score_b"):
        ek.delong_test(Y, P, P[:-1])


def test_metric_returning_many_numbers():
    with pytest.raises(TypeError, match="metric must be a function returning a single number"):
        ek.bootstrap_ci(ek.f1_score, Y, P, average=None)


def test_metric_undefined_on_the_data():
    with pytest.raises(ValueError, match="undefined \\(nan\\) on the data itself"):
        quiet(ek.bootstrap_ci, ek.roc_auc_score, [1, 1, 1], [0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="y_true has one class"):
        ek.roc_auc_ci([1, 1, 1], [0.2, 0.3, 0.4])


@pytest.mark.parametrize("metric", [ek.roc_auc_score, lambda t, s: ek.roc_auc_score(t, s)])
def test_resamples_with_one_class_are_skipped_and_counted(metric):
    y = np.r_[1, np.zeros(19, int)]
    s = np.linspace(0, 1, 20)
    with pytest.warns(UndefinedMetricWarning, match=r"of 500 resamples were skipped"):
        ci = ek.bootstrap_ci(metric, y, s, n_resamples=500, stratify=False, random_state=0)
    assert 100 < ci.n_skipped < 250  # P(no positive drawn) = (19/20)^20 = 0.36
    assert len(ci.distribution) == 500 - ci.n_skipped
    assert not np.isnan(ci.distribution).any() and not math.isnan(ci.low)
    assert "n_skipped=" in repr(ci)
    strat = ek.bootstrap_ci(metric, y, s, n_resamples=500, random_state=0)  # stratified: never
    assert strat.n_skipped == 0


def test_metric_undefined_on_every_resample():
    def unique_only(a, b):
        return 0.5 if len(np.unique(a)) == len(a) else float("nan")

    with pytest.raises(ValueError, match=r"undefined \(nan\) on every one of the 200 resamples"):
        quiet(ek.bootstrap_ci, unique_only, np.arange(20), np.arange(20), n_resamples=200,
              stratify=False)


def test_zero_division_on_resamples_is_reported():
    y = np.r_[np.ones(2, int), np.zeros(30, int)]
    yhat = np.r_[1, 0, np.zeros(30, int)]
    with pytest.warns(UndefinedMetricWarning, match=r"ill-defined \(0/0\) on \d+ of 1000"):
        ek.bootstrap_ci(ek.precision_score, y, yhat, n_resamples=1000, stratify=False,
                        random_state=0)
    with pytest.warns(UndefinedMetricWarning, match="resamples were skipped"):
        ci = ek.bootstrap_ci(ek.precision_score, y, yhat, n_resamples=1000, stratify=False,
                             random_state=0, zero_division=np.nan)
    assert ci.n_skipped > 0 and not np.isnan(ci.distribution).any()


def test_bca_undefined():
    def distinct(a, b):  # a resample has fewer distinct rows than the data: all below
        return float(len(np.unique(a)))

    with pytest.raises(ValueError, match="method='bca' is undefined here"):
        ek.bootstrap_ci(distinct, np.arange(30), np.arange(30), method="bca", stratify=False,
                        random_state=0, n_resamples=200)


@pytest.mark.parametrize("successes, trials, error, words", [
    (11, 10, ValueError, r"successes \(11\) must not exceed trials \(10\)"),
    (0, 0, ValueError, "trials must be >= 1"),
    (-1, 10, ValueError, "successes must be >= 0"),
    (2.5, 10, TypeError, "successes must be an integer count"),
    (True, 10, TypeError, "successes must be an integer count"),
    (3, "10", TypeError, "trials must be an integer count"),
])
def test_bad_proportion(successes, trials, error, words):
    with pytest.raises(error, match=words):
        ek.proportion_ci(successes, trials)


def test_delong_bad_input():
    with pytest.raises(ValueError, match="y_true has 3 classes: the AUC"):
        ek.roc_auc_ci([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="y_true has 1 sample of one class: .* at least 2 samples"):
        ek.delong_test([0, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="score_a contains NaN"):
        ek.delong_test([0, 1, 1, 0], [0.1, np.nan, 0.3, 0.2], [0.3, 0.2, 0.1, 0.0])


def test_bad_stratify():
    with pytest.raises(ValueError, match="stratify and arrays have different lengths"):
        ek.bootstrap_ci(ek.f1_score, Y, P, stratify=[0, 1])


def test_weighted_and_multiclass_metrics_take_the_row_path():
    rng = np.random.default_rng(19)
    y, yhat = labels(rng, 120, 3)
    w = rng.random(120)
    ci = ek.bootstrap_ci(ek.f1_score, y, yhat, average="macro", sample_weight=w, n_resamples=300,
                         random_state=0)
    assert ci.scheme.startswith("rows") and "stratified" in ci.scheme
    assert ci.estimate == ek.f1_score(y, yhat, average="macro", sample_weight=w)
    # the weights travel with their rows: equal weights give the unweighted distribution
    even = ek.bootstrap_ci(ek.accuracy_score, y, yhat, sample_weight=np.full(120, 2.0),
                           n_resamples=300, random_state=0)
    plain = ek.bootstrap_ci(lambda a, b: ek.accuracy_score(a, b), y, yhat, n_resamples=300,
                            random_state=0)
    np.testing.assert_allclose(even.distribution, plain.distribution, rtol=1e-12)
    p = rng.dirichlet(np.ones(3), 120)
    auc = ek.bootstrap_ci(ek.roc_auc_score, y, p, multi_class="ovr", n_resamples=200,
                          random_state=0)
    assert auc.low <= auc.estimate <= auc.high and auc.n_skipped == 0


def test_bca_with_many_rows_uses_a_grouped_jackknife():
    rng = np.random.default_rng(20)
    v = rng.exponential(size=5000)
    ci = ek.bootstrap_ci(lambda x: float(np.mean(x)), v, method="bca", n_resamples=500,
                         random_state=0)
    ref = scipy.stats.bootstrap((v,), np.mean, method="bca", n_resamples=500,
                                rng=np.random.default_rng(0))
    sd = ci.distribution.std()
    assert ci.low == pytest.approx(ref.confidence_interval.low, abs=sd / 3)
    assert ci.high == pytest.approx(ref.confidence_interval.high, abs=sd / 3)


@pytest.mark.parametrize("kwargs", [{"k": 2}, {"k": 1}, {"k": 3, "ties": "first"},
                                    {"k": 2, "normalize": False}])
def test_top_k_accuracy_count_path(kwargs):
    rng = np.random.default_rng(21)
    n, c = 300, 5
    y = rng.integers(0, c, n)
    s = np.round(rng.dirichlet(np.ones(c), n) + 0.3 * np.eye(c)[y], 1)  # ties
    fast = ek.bootstrap_ci(ek.top_k_accuracy_score, y, s, n_resamples=3000, random_state=0,
                           **kwargs)
    slow = ek.bootstrap_ci(lambda a, b: ek.top_k_accuracy_score(a, b, **kwargs), y, s,
                           n_resamples=3000, random_state=1)
    assert fast.scheme.startswith("cell counts: (class, hit)") and slow.scheme.startswith("rows")
    assert fast.estimate == slow.estimate
    sd = slow.distribution.std()
    assert fast.distribution.std() == pytest.approx(sd, rel=0.1)
    assert fast.low == pytest.approx(slow.low, abs=sd / 3)
    bca = ek.bootstrap_ci(ek.top_k_accuracy_score, y, s, n_resamples=3000, random_state=0,
                          method="bca", **kwargs)
    slow_bca = ek.bootstrap_ci(lambda a, b: ek.top_k_accuracy_score(a, b, **kwargs), y, s,
                               n_resamples=3000, random_state=1, method="bca")
    step = 1 / n if kwargs.get("normalize", True) else 1  # the values are multiples of 1/n
    assert bca.low == pytest.approx(slow_bca.low, abs=sd / 3 + step)
    assert bca.high == pytest.approx(slow_bca.high, abs=sd / 3 + step)


def test_ranking_metrics_over_users():
    # the ranking metrics' per-user values: users are the resampled units
    rng = np.random.default_rng(23)
    rel = np.stack([rng.permutation(10)[:2] for _ in range(150)])
    good = np.stack([np.r_[r, rng.permutation(np.setdiff1d(np.arange(10), r))[:3]]
                     if rng.random() < 0.5 else rng.permutation(10)[:5] for r in rel])
    bad = np.stack([rng.permutation(10)[:5] for _ in range(150)])
    ap_good = ek.mean_average_precision(good, rel, per_user=True)
    ap_bad = ek.mean_average_precision(bad, rel, per_user=True)
    ci = ek.bootstrap_ci(ek.mean_average_precision, good, rel, n_resamples=400, random_state=0)
    by_users = ek.bootstrap_ci(np.mean, ap_good, n_resamples=400, random_state=0)
    assert ci.estimate == pytest.approx(by_users.estimate)
    sd = by_users.distribution.std()
    assert ci.low == pytest.approx(by_users.low, abs=sd / 2)
    d = ek.paired_bootstrap(np.mean, None, ap_good, ap_bad, random_state=0)
    assert d.estimate == pytest.approx(ap_good.mean() - ap_bad.mean())
    assert d.low > 0 and d.p_value < 0.01
    t = ek.permutation_test(np.mean, None, ap_good, ap_bad, random_state=0)
    assert t.p_value < 0.01


# -- one DeLong from the score groups; the defects of issue 16 ---------------------------


@pytest.mark.parametrize("seed", range(6))
def test_delong_groups_equal_brute_force_ties_signs_and_wide_keys(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]
    s = np.tanh(rng.normal(size=n) + y) - (seed % 2) * 0.5  # negative scores on odd seeds
    s[1] = s[0]  # ties
    s[3:6] = s[2]
    variants = [s, np.round(s, seed % 3), np.r_[-3.0, 3.0, s[2:]] * 1e300,  # keys too wide: argsort
                s.astype(np.float32), s.astype(np.longdouble)]
    for v in variants:
        auc, var = auc_variance(y == 1, v)
        aucs, ref = delong_brute(y, [v])
        assert auc == pytest.approx(aucs[0], rel=1e-12) and auc == pytest.approx(ek.roc_auc_score(y, v), rel=1e-12)
        assert var == pytest.approx(ref[0, 0], rel=1e-9)


@pytest.mark.parametrize("digits", [None, 0, 2])
def test_delong_large_equals_scipy_midranks(digits):
    rng = np.random.default_rng(26)
    n = 200_000
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.random(n) + 0.2 * y
    if digits is not None:
        s = np.round(s, digits)  # few distinct scores
    auc, var = delong_midranks(y, s)
    ci = ek.roc_auc_ci(y, s)
    assert ci.estimate == pytest.approx(auc, rel=1e-12)
    assert ci.standard_error == pytest.approx(math.sqrt(var), rel=1e-9)


@pytest.mark.parametrize("method", ["delong", "bootstrap"])
def test_roc_auc_ci_refuses_a_single_sample_of_a_class_as_delong_test(method):
    # issue 16: one positive (or negative) gave that class's variance 0 and an interval, silently
    s = [0.1, 0.4, 0.35, 0.8, 0.2]
    for y in ([0, 0, 0, 1, 0], [1, 1, 0, 1, 1]):
        with pytest.raises(ValueError, match="y_true has 1 sample of one class"):
            ek.roc_auc_ci(y, s, method=method)
        with pytest.raises(ValueError, match="y_true has 1 sample of one class"):
            ek.delong_test(y, s, s[::-1])
    assert ek.roc_auc_ci([0, 0, 0, 1, 1], s).standard_error > 0  # two of each: fine


@pytest.mark.parametrize("seed", range(3))
def test_delong_test_equals_the_midrank_oracle_on_one_model_twice(seed):
    rng = np.random.default_rng(40 + seed)
    n = 3000
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(a + rng.normal(size=n), 1)
    t = ek.delong_test(y, a, b)
    assert t.estimate_a == pytest.approx(delong_midranks(y, a)[0], rel=1e-12)
    assert t.estimate_b == pytest.approx(delong_midranks(y, b)[0], rel=1e-12)
    same = ek.delong_test(y, a, a)
    assert (same.estimate, same.p_value, same.statistic) == (0.0, 1.0, 0.0)


def test_top_k_accuracy_with_labels_bootstraps():
    # issue 16: raised AttributeError (the bootstrap's copy of the top-k rule called a removed helper)
    rng = np.random.default_rng(27)
    n = 400
    y = rng.integers(0, 3, n)
    S = np.round(rng.dirichlet(np.ones(3), n) + 0.4 * np.eye(3)[y], 1)
    ci = ek.bootstrap_ci(ek.top_k_accuracy_score, y, S, k=2, labels=[0, 1, 2], n_resamples=3000,
                         random_state=0)
    slow = ek.bootstrap_ci(lambda a, b: ek.top_k_accuracy_score(a, b, k=2, labels=[0, 1, 2]), y, S,
                           n_resamples=3000, random_state=1)
    assert ci.scheme.startswith("cell counts: (class, hit)")
    assert ci.estimate == slow.estimate == ek.top_k_accuracy_score(y, S, k=2, labels=[0, 1, 2])
    sd = slow.distribution.std()
    assert ci.low == pytest.approx(slow.low, abs=sd / 3) and ci.high == pytest.approx(slow.high, abs=sd / 3)
    # a label of the score columns absent from y_true; binary scores
    y2 = np.where(y == 2, 0, y)
    ci2 = ek.bootstrap_ci(ek.top_k_accuracy_score, y2, S, k=1, labels=[0, 1, 2], random_state=0)
    assert ci2.estimate == ek.top_k_accuracy_score(y2, S, k=1, labels=[0, 1, 2])


@pytest.mark.parametrize("kwargs", [{"k": 1}, {"k": 2, "ties": "first"}, {"k": 1, "normalize": False}])
def test_top_k_hits_are_the_metrics(kwargs):
    rng = np.random.default_rng(22)
    for _ in range(20):
        n, c = int(rng.integers(5, 60)), int(rng.integers(2, 6))
        y = rng.integers(0, c, n)
        y[:c] = np.arange(c)
        s = np.round(rng.random((n, c)), 1)
        if c == 2:
            s = s[:, 1]
        path = U._topk_path(kwargs, y, [s])
        expected = quiet(ek.top_k_accuracy_score, y, s, **kwargs)
        assert path.evaluate(path.counts[None])[0][0] == pytest.approx(expected, rel=1e-12)
        assert np.array_equal(np.add.reduceat(path.counts, np.arange(0, 2 * len(np.unique(y)), 2)),
                              np.bincount(y))


@pytest.mark.parametrize("n_cells", [5, 300])  # one multinomial; rows drawn and counted
def test_draw_is_the_ordinary_bootstrap(n_cells):
    rng = np.random.default_rng(28)
    counts = rng.integers(0, 6, n_cells)
    counts[:2] = [3, 4]
    strata = rng.integers(0, 2, n_cells)
    strata[:2] = [0, 1]
    for stratify in (True, False):
        drawn = draw(rng, counts, strata, 4000, stratify)
        n = counts.sum()
        if stratify:
            for s in (0, 1):
                assert (drawn[:, strata == s].sum(axis=1) == counts[strata == s].sum()).all()
        assert (drawn.sum(axis=1) == n).all()
        p = counts / (np.array([counts[strata == s].sum() for s in strata]) if stratify else n)
        m = np.array([counts[strata == s].sum() for s in strata]) if stratify else n
        np.testing.assert_allclose(drawn.mean(axis=0), counts, atol=5 * np.sqrt(m * p * (1 - p) / 4000).max() + 1e-12)
        np.testing.assert_allclose(drawn.var(axis=0), m * p * (1 - p), atol=0.15 * max(1, (m * p * (1 - p)).max()))


@pytest.mark.parametrize("metric", [ek.roc_auc_score, ek.average_precision_score])
@pytest.mark.parametrize("seed", range(4))
def test_runs_of_groups_keep_the_metric_of_every_resample(metric, seed):
    rng = np.random.default_rng(50 + seed)
    n = int(rng.integers(20, 300))
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.random(n) + 0.3 * y, int(rng.integers(1, 4)))
    table = METRICS[U._NAMES[metric]]
    fn = table.from_groups
    groups = np.unique(-s, return_inverse=True)[1].reshape(-1)
    pos, neg = np.bincount(groups, y), np.bincount(groups, 1 - y)
    start = runs(pos, neg, table.merge_positives)
    assert len(start) < len(pos) or (pos > 0).sum() + (neg > 0).sum() == 2 * len(pos)
    for _ in range(30):  # resamples of the rows, counted per group, then per run
        rows = rng.integers(0, n, n)
        p, q = np.bincount(groups[rows], y[rows], len(pos)), np.bincount(groups[rows], 1 - y[rows], len(pos))
        if p.sum() == 0:
            continue
        expected = quiet(metric, y[rows], s[rows])
        got = fn(np.add.reduceat(p, start), np.add.reduceat(q, start))
        assert got == pytest.approx(expected, rel=1e-12, nan_ok=True)


@pytest.mark.parametrize("n", [7, 300, 5000])
def test_permutation_of_means_at_once_equals_the_loop(n):
    """Per-row values under np.mean take the all-swaps-at-once path; a wrapped mean takes the
    loop: the same seed gives the same permutation distribution, so the same p."""
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = a + rng.normal(0.01, 0.1, n)
    fast = ek.permutation_test(np.mean, None, a, b, random_state=5, n_permutations=1500)
    loop = ek.permutation_test(lambda x: np.mean(x), None, a, b, random_state=5,
                               n_permutations=1500)
    assert fast.p_value == loop.p_value and fast.estimate == loop.estimate
