"""Numbers the course's newer sections print, checked against independent libraries.

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
