"""Numbers the course's newer sections print, checked against independent libraries.

Notebook 05: kappa and the MCC from the formulas section 7 writes (scikit-learn's). Notebook 02: the
nested cross-validation loop of section 5.5 (scikit-learn's ``cross_val_score``).
Notebook 10: the DummyClassifier baselines (scikit-learn's metrics), cross-validation fold scores
(scikit-learn's ``cross_val_score``), McNemar's test (statsmodels' ``mcnemar``), the per-resample F1
of the paired-bootstrap figure (scikit-learn's ``f1_score``). Notebook 11: the ECE noise floor (an
ECE written here from its definition). Each test computes the notebook's way (evalkit, as the notebook calls
it) and the independent way on the same inputs. Notebooks 01-04, 06, 09 and 11 put
``DummyClassifier`` baselines beside their headline scores; the metrics they use on them are
checked against scikit-learn's below.
"""

from __future__ import annotations

import numpy as np
import pytest

import evalkit as ek

sklearn = pytest.importorskip("sklearn")
from sklearn import metrics as skm  # noqa: E402


def _two_classifiers(seed, n=300):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    signal = rng.normal(size=n) + 1.5 * y
    a = (signal + rng.normal(scale=0.5, size=n) > 0.8).astype(int)
    b = (signal + rng.normal(scale=0.9, size=n) > 0.8).astype(int)
    return y, a, b


@pytest.mark.parametrize("seed", range(5))
def test_mcnemar_as_notebook_10_computes_it_matches_statsmodels(seed):
    contingency = pytest.importorskip("statsmodels.stats.contingency_tables")

    y, a, b_pred = _two_classifiers(seed)
    right_a, right_b = (a == y).astype(int), (b_pred == y).astype(int)
    table = skm.confusion_matrix(right_a, right_b, labels=[1, 0])   # rows: A right / wrong
    exact = ek.mcnemar_test(y, a, b_pred)
    np.testing.assert_array_equal(exact.table, table)
    b, c = int(table[0, 1]), int(table[1, 0])
    assert b + c > 0
    assert (exact.estimate_a, exact.estimate_b) == pytest.approx((right_a.mean(), right_b.mean()))
    sm_exact = contingency.mcnemar(table, exact=True)
    assert exact.statistic == pytest.approx(sm_exact.statistic)
    assert exact.p_value == pytest.approx(sm_exact.pvalue, rel=1e-10)
    for correction in (True, False):
        mine = ek.mcnemar_test(y, a, b_pred, exact=False, correction=correction)
        theirs = contingency.mcnemar(table, exact=False, correction=correction)
        assert mine.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert mine.p_value == pytest.approx(theirs.pvalue, rel=1e-10)
    # the notebook prints the corrected statistic beside its formula
    corrected = ek.mcnemar_test(y, a, b_pred, exact=False)
    assert corrected.statistic == pytest.approx((abs(b - c) - 1) ** 2 / (b + c), rel=1e-12)


@pytest.mark.parametrize("strategy", ["most_frequent", "stratified", "uniform", "prior"])
def test_dummy_baselines_match_sklearn(strategy):
    from sklearn.dummy import DummyClassifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    y = (rng.random(400) < 0.37).astype(int)
    dummy = DummyClassifier(strategy=strategy, random_state=0).fit(X[:200], y[:200])
    pred, proba = dummy.predict(X[200:]), dummy.predict_proba(X[200:])[:, 1]
    truth = y[200:]
    assert ek.accuracy_score(truth, pred) == pytest.approx(skm.accuracy_score(truth, pred))
    assert ek.f1_score(truth, pred, zero_division=0.0) == pytest.approx(
        skm.f1_score(truth, pred, zero_division=0.0))
    assert ek.roc_auc_score(truth, proba) == pytest.approx(skm.roc_auc_score(truth, proba))


@pytest.mark.parametrize("strategy", ["prior", "stratified"])
def test_dummy_probability_baselines_match_sklearn(strategy):
    """The probability scores notebooks 04 and 11 print for the prior baseline, and the ECE
    (written here from its definition) that a constant prediction gets."""
    from sklearn.dummy import DummyClassifier

    rng = np.random.default_rng(2)
    X = rng.normal(size=(600, 2))
    y = (rng.random(600) < 0.3).astype(int)
    proba = DummyClassifier(strategy=strategy, random_state=0).fit(X[:300], y[:300]).predict_proba(X[300:])
    truth, q = y[300:], proba[:, 1]
    assert ek.brier_score_loss(truth, q) == pytest.approx(skm.brier_score_loss(truth, q))
    assert ek.log_loss(truth, proba) == pytest.approx(skm.log_loss(truth, proba))
    assert ek.roc_auc_score(truth, q) == pytest.approx(skm.roc_auc_score(truth, q))
    if strategy == "prior":
        assert ek.roc_auc_score(truth, q) == 0.5
        assert ek.expected_calibration_error(truth, q) == pytest.approx(abs(truth.mean() - q[0]), abs=1e-12)


def test_dummy_top_k_baseline_of_notebook_06_matches_sklearn():
    """A prior baseline's scores are the same row for every sample; top-k takes its k largest
    (ties as scikit-learn breaks them)."""
    from sklearn.dummy import DummyClassifier

    rng = np.random.default_rng(3)
    y = rng.choice(10, size=800, p=np.r_[np.full(5, 0.12), np.full(5, 0.08)])
    X = np.zeros((800, 1))
    proba = DummyClassifier(strategy="prior").fit(X[:400], y[:400]).predict_proba(X[400:])
    for k in (1, 2, 3, 5):
        assert ek.top_k_accuracy_score(y[400:], proba, k=k) == pytest.approx(
            skm.top_k_accuracy_score(y[400:], proba, k=k, labels=np.arange(10)))


def test_cross_validation_fold_f1_matches_sklearn():
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    y = 1 - y
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    pipeline = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    cv_f1 = cross_val_score(pipeline, X, y, cv=folds, scoring="f1")
    cv_pred = cross_val_predict(pipeline, X, y, cv=folds)
    by_fold = [ek.f1_score(y[test], cv_pred[test]) for _, test in folds.split(X, y)]
    np.testing.assert_allclose(by_fold, cv_f1, rtol=1e-12)


def test_paired_bootstrap_figure_f1_per_resample_matches_sklearn():
    y, a, b = _two_classifiers(7, n=285)
    draws = np.random.default_rng(0).integers(0, len(y), size=(50, len(y)))
    for d in draws:
        assert ek.f1_score(y[d], a[d]) == pytest.approx(skm.f1_score(y[d], a[d]), rel=1e-12)
        assert ek.f1_score(y[d], b[d]) == pytest.approx(skm.f1_score(y[d], b[d]), rel=1e-12)


def _ece_uniform(y, p, n_bins):
    """The ECE from its definition: equal-width bins, the last one closed."""
    bins = np.minimum((p * n_bins).astype(int), n_bins - 1)
    return sum(np.mean(bins == k) * abs(y[bins == k].mean() - p[bins == k].mean())
               for k in range(n_bins) if np.any(bins == k))


def test_ece_noise_floor_of_notebook_11():
    """Labels drawn from a model's own probabilities: evalkit's ECE is the definition's, and the
    floor of notebook 11's logistic regression is about 0.007 (10 bins) and 0.009 (20 bins),
    far below its measured 0.041."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    X2, y2 = make_classification(n_samples=20000, n_features=20, n_informative=2, n_redundant=10,
                                 random_state=42)
    X_train, X_rest, y_train, y_rest = train_test_split(X2, y2, train_size=2000, random_state=0)
    _, X_test, _, y_test = train_test_split(X_rest, y_rest, train_size=4000, random_state=0)
    p = LogisticRegression().fit(X_train, y_train).predict_proba(X_test)[:, 1]
    rng = np.random.default_rng(0)
    floors = {}
    for n_bins in (10, 20):
        values = []
        for _ in range(50):
            fake = (rng.random(len(p)) < p).astype(int)
            mine = _ece_uniform(fake, p, n_bins)
            assert ek.expected_calibration_error(fake, p, n_bins=n_bins) == pytest.approx(mine, rel=1e-9)
            values.append(mine)
        floors[n_bins] = np.mean(values)
    measured = _ece_uniform(y_test, p, 10)
    assert 0.005 < floors[10] < 0.009 and 0.007 < floors[20] < 0.012
    assert measured == pytest.approx(0.0406, abs=5e-4) and measured > 3 * floors[10]
    # 5 bins: the first bin merges two 10-bin bins whose gaps have opposite signs
    five = np.minimum((p * 5).astype(int), 4)
    ten = np.minimum((p * 10).astype(int), 9)
    gap = [y_test[ten == k].mean() - p[ten == k].mean() for k in (0, 1)]
    assert gap[0] > 0 > gap[1]
    assert abs(y_test[five == 0].mean() - p[five == 0].mean()) < min(abs(g) for g in gap) / 5


def test_prior_correction_of_notebook_04():
    """The correction is the log-odds shift by log(beta) (scipy's logit), keeps the AUC (sklearn)
    and brings the ECE (written here from its definition, equal-mass bins) near 0."""
    from scipy.special import logit
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split

    X_d, y_d = make_classification(n_samples=60_000, n_features=8, n_informative=4, weights=[0.97],
                                   flip_y=0, random_state=0)
    X_fit, X_new, y_fit, y_new = train_test_split(X_d, y_d, test_size=0.5, random_state=0, stratify=y_d)
    beta = 0.1
    keep = (y_fit == 1) | (np.random.default_rng(0).random(len(y_fit)) < beta)
    p_s = LogisticRegression(max_iter=1000).fit(X_fit[keep], y_fit[keep]).predict_proba(X_new)[:, 1]
    p = beta * p_s / (beta * p_s - p_s + 1)
    np.testing.assert_allclose(logit(p), logit(p_s) + np.log(beta), rtol=1e-9, atol=1e-9)
    assert skm.roc_auc_score(y_new, p) == pytest.approx(skm.roc_auc_score(y_new, p_s), abs=1e-12)

    def ece_quantile(y, q, n_bins=10):
        order = np.argsort(q, kind="stable")
        return sum(len(part) / len(q) * abs(y[part].mean() - q[part].mean())
                   for part in np.array_split(order, n_bins))

    before, after = ece_quantile(y_new, p_s), ece_quantile(y_new, p)
    assert before > 0.1 and after < 0.02
    assert ek.expected_calibration_error(y_new, p, n_bins=10, strategy="quantile") == pytest.approx(after, abs=2e-3)
    assert abs(p.mean() - y_new.mean()) < 0.005 < p_s.mean() - y_new.mean()


def test_score_distribution_figure_of_notebook_03():
    """The counts at the threshold (sklearn's confusion_matrix) and the point on the ROC curve."""
    rng = np.random.default_rng(0)
    neg, pos = rng.normal(0.0, 1.0, 2000), rng.normal(1.5, 1.0, 500)
    y = np.r_[np.zeros(2000, dtype=int), np.ones(500, dtype=int)]
    s = np.r_[neg, pos]
    c = ek.binary_counts(y, (s >= 1.0).astype(int))
    tn, fp, fn, tp = skm.confusion_matrix(y, (s >= 1.0).astype(int)).ravel()
    assert (c.tp, c.fp, c.fn, c.tn) == (tp, fp, fn, tn)
    fpr, tpr, thresholds = skm.roc_curve(y, s, drop_intermediate=False)
    at = np.flatnonzero(thresholds >= 1.0)[-1]
    assert (fpr[at], tpr[at]) == pytest.approx((c.fpr(), c.tpr()))
    assert c.precision() == pytest.approx(skm.precision_score(y, s >= 1.0))


def _coverage(low, high, n, p):
    """Exact coverage at each p of intervals (low[k], high[k]) for k successes of n."""
    from scipy.stats import binom

    inside = (low <= p[:, None]) & (p[:, None] <= high)
    return (binom.pmf(np.arange(n + 1), n, p[:, None]) * inside).sum(axis=1)


@pytest.mark.parametrize("n", [20, 50])
def test_wilson_and_clopper_pearson_coverage_of_notebook_10(n):
    """Notebook 10 §4: Wilson dips to about 0.84, Clopper-Pearson never below 0.95 (statsmodels' intervals)."""
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    counts = np.arange(n + 1)
    for method, theirs in (("wilson", "wilson"), ("clopper-pearson", "beta")):
        mine = [ek.proportion_ci(int(k), n, method=method) for k in counts]
        low_sm, high_sm = proportion.proportion_confint(counts, n, alpha=0.05, method=theirs)
        low_sm, high_sm = np.nan_to_num(low_sm), np.nan_to_num(high_sm, nan=1.0)
        np.testing.assert_allclose([c.low for c in mine], low_sm, atol=1e-10)
        np.testing.assert_allclose([c.high for c in mine], high_sm, atol=1e-10)
        ends = (np.concatenate([low_sm, high_sm])[:, None] + [-1e-9, 1e-9]).ravel()
        p = np.concatenate([np.linspace(0.0005, 0.9995, 1999), ends[(ends > 0) & (ends < 1)]])
        lowest = _coverage(low_sm, high_sm, n, p).min()
        if method == "wilson":
            assert 0.83 < lowest < 0.85            # the notebook's 0.837 (n = 20) and 0.838 (n = 50)
        else:
            assert lowest >= 0.95


def test_first_segment_split_of_notebook_09():
    """Notebook 09 §5: the binned PR area = exact area + first-segment loss + chord gain; (0, 1) first point = legacy area."""
    rng = np.random.default_rng(5)
    y = (rng.random(20_000) < 0.1).astype(float)
    s = (rng.random(20_000) + 0.5 * y) / 1.5
    rows = np.column_stack((s, y))
    exact = ek.BinaryClassificationMetrics(rows).pr()
    binned_metrics = ek.BinaryClassificationMetrics(rows, 10)
    binned = binned_metrics.pr()
    r1, p1 = binned[1]
    j = int(np.flatnonzero(np.isclose(exact[:, 0], r1) & np.isclose(exact[:, 1], p1))[0])

    def area(c):
        return float(np.sum(np.diff(c[:, 0]) * (c[1:, 1] + c[:-1, 1]) / 2))

    assert area(binned) == pytest.approx(binned_metrics.areaUnderPR, rel=1e-12)
    assert area(exact) == pytest.approx(skm.auc(exact[:, 0], exact[:, 1]), rel=1e-12)
    loss = area(binned[:2]) - area(exact[:j + 1])
    chords = area(binned[1:]) - area(exact[j:])
    assert area(binned) - area(exact) == pytest.approx(loss + chords, abs=1e-12)
    legacy = ek.BinaryClassificationMetrics(rows, 10, convention="legacy").areaUnderPR
    assert area(np.vstack([[0, 1], binned[1:]])) == pytest.approx(legacy, rel=1e-12)


def test_reliability_bins_of_notebook_11_match_sklearn():
    """Notebook 11 §4: the by-hand bins (edges to the lower bin) give sklearn's calibration_curve."""
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(6)
    q = rng.beta(0.5, 0.5, 5000)
    y = (rng.random(5000) < 0.2 + 0.6 * q).astype(int)
    edges = np.linspace(0, 1, 11)
    bin_of = np.clip(np.searchsorted(edges, q) - 1, 0, 9)
    shares = [y[bin_of == b].mean() for b in range(10) if np.any(bin_of == b)]
    means = [q[bin_of == b].mean() for b in range(10) if np.any(bin_of == b)]
    share_sk, mean_sk = calibration_curve(y, q, n_bins=10)
    np.testing.assert_allclose(shares, share_sk, rtol=1e-12)
    np.testing.assert_allclose(means, mean_sk, rtol=1e-12)


def test_arhr_is_mrr_truncated_at_k_of_notebook_08():
    """Notebook 08 §2: with one relevant item per user, ARHR@k = MRR with first hits below k counted 0."""
    rng = np.random.default_rng(7)
    lists = [rng.permutation(20).tolist() for _ in range(200)]
    relevant = [{int(rng.integers(20))} for _ in range(200)]
    rank = np.array([lst.index(next(iter(rel))) + 1 for lst, rel in zip(lists, relevant)])
    for k in (1, 3, 10, 20):
        truncated = np.where(rank <= k, 1 / rank, 0.0).mean()
        assert ek.arhr_at_k(lists, relevant, k) == pytest.approx(truncated, rel=1e-12)
    assert ek.mean_reciprocal_rank(lists, relevant) == pytest.approx(np.mean(1 / rank), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_kappa_and_mcc_formulas_of_notebook_05_match_sklearn(seed):
    """Section 7's p_o, p_e and Gorodkin's R_K from a confusion matrix, against scikit-learn."""
    rng = np.random.default_rng(seed)
    classes = int(rng.integers(2, 6))
    y = rng.integers(0, classes, 200)
    pred = np.where(rng.random(200) < 0.5, y, rng.integers(0, classes, 200))
    C = skm.confusion_matrix(y, pred).astype(float)
    n, actual, predicted = C.sum(), C.sum(axis=1), C.sum(axis=0)
    p_o, p_e = np.trace(C) / n, actual @ predicted / n**2
    kappa = (p_o - p_e) / (1 - p_e)
    mcc = (n * np.trace(C) - predicted @ actual) / np.sqrt(
        (n**2 - predicted @ predicted) * (n**2 - actual @ actual))
    assert kappa == pytest.approx(skm.cohen_kappa_score(y, pred), rel=1e-12)
    assert mcc == pytest.approx(skm.matthews_corrcoef(y, pred), rel=1e-12)
    assert ek.cohen_kappa_score(y, pred) == pytest.approx(kappa, rel=1e-12)
    assert ek.matthews_corrcoef(y, pred) == pytest.approx(mcc, rel=1e-12)


def test_nested_loop_of_notebook_02_is_cross_val_score():
    """Section 5.5's outer loop (clone, fit the tuner, evalkit's F1 on the held-out fold)."""
    from sklearn.base import clone
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import (StratifiedKFold, TunedThresholdClassifierCV,
                                         cross_val_score)
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, target = load_breast_cancer(return_X_y=True)
    y = (target == 0).astype(int)
    untuned = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, random_state=0))
    procedure = TunedThresholdClassifierCV(untuned, scoring="f1", cv=3, thresholds=20)
    outer = StratifiedKFold(n_splits=3, shuffle=True, random_state=1)
    loop = [ek.f1_score(y[test], clone(procedure).fit(X[fit], y[fit]).predict(X[test]))
            for fit, test in outer.split(X, y)]
    np.testing.assert_allclose(loop, cross_val_score(procedure, X, y, cv=outer, scoring="f1"),
                               rtol=1e-12)
