"""Multilabel indicator targets (2-D 0/1 y_true/y_pred) against scikit-learn.

Per-label counts for micro/macro/weighted, per-sample counts for
average="samples", all through evalkit._ratios.prf; the report's "samples
avg" row; multilabel_confusion_matrix (per label and samplewise); subset
accuracy. Randomized cases, then some of scikit-learn's own test cases.
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit.classification import multilabel_confusion_matrix

AVERAGES = [None, "micro", "macro", "weighted", "samples"]


def random_indicators(rng):
    n, n_labels = int(rng.integers(1, 30)), int(rng.integers(2, 7))
    y_true = (rng.random((n, n_labels)) < rng.random()).astype(int)
    y_pred = (rng.random((n, n_labels)) < rng.random()).astype(int)
    w = None
    if rng.random() < 0.5:
        w = rng.random(n) * (rng.random(n) < 0.8)
        w = w if w.any() else None
    labels = None
    if rng.random() < 0.3:
        labels = rng.permutation(n_labels)[: int(rng.integers(1, n_labels + 1))].tolist()
    return y_true, y_pred, w, labels


def run(fn, *args, **kwargs):
    """(value, sorted warning messages) of a call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(*args, **kwargs)
    return value, sorted(str(c.message) for c in caught if "ill-defined" in str(c.message))


@pytest.mark.parametrize("seed", range(60))
def test_prfs_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred, w, labels = random_indicators(rng)
    for average in AVERAGES:
        for zero_division in ["warn", 0.0, 1.0, np.nan]:
            beta = float(rng.choice([0.5, 1.0, 2.0]))
            kw = dict(average=average, zero_division=zero_division, sample_weight=w,
                      labels=labels, beta=beta)
            ours, ours_w = run(ek.precision_recall_fscore_support, y_true, y_pred, **kw)
            theirs, theirs_w = run(skm.precision_recall_fscore_support, y_true, y_pred, **kw)
            assert ours_w == theirs_w, (kw, ours_w, theirs_w)
            for a, b in zip(ours, theirs):
                if b is None:
                    assert a is None
                else:
                    np.testing.assert_allclose(a, b, rtol=1e-13, atol=0, equal_nan=True)


@pytest.mark.parametrize("seed", range(30))
def test_single_metrics_and_accuracy_equal_sklearn(seed):
    rng = np.random.default_rng(100 + seed)
    y_true, y_pred, w, _ = random_indicators(rng)
    for name in ["precision_score", "recall_score", "f1_score"]:
        for average in AVERAGES:
            kw = dict(average=average, sample_weight=w, zero_division=0.0)
            np.testing.assert_allclose(getattr(ek, name)(y_true, y_pred, **kw),
                                       getattr(skm, name)(y_true, y_pred, **kw), rtol=1e-13)
    for normalize in (True, False):
        assert ek.accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=w) == \
            pytest.approx(skm.accuracy_score(y_true, y_pred, normalize=normalize,
                                             sample_weight=w), rel=1e-13)


@pytest.mark.parametrize("seed", range(40))
def test_report_equal_sklearn(seed):
    rng = np.random.default_rng(200 + seed)
    y_true, y_pred, w, labels = random_indicators(rng)
    kw = dict(sample_weight=w, labels=labels, zero_division=0.0)
    ours = ek.classification_report(y_true, y_pred, **kw)
    assert ours == skm.classification_report(y_true, y_pred, **kw)
    assert "samples avg" in ours
    assert ek.classification_report(y_true, y_pred, output_dict=True, **kw) == \
        skm.classification_report(y_true, y_pred, output_dict=True, **kw)


@pytest.mark.parametrize("seed", range(40))
def test_multilabel_confusion_matrix_equal_sklearn(seed):
    rng = np.random.default_rng(300 + seed)
    y_true, y_pred, w, labels = random_indicators(rng)
    for samplewise in (False, True):
        kw = dict(sample_weight=w, labels=labels, samplewise=samplewise)
        ours = multilabel_confusion_matrix(y_true, y_pred, **kw)
        theirs = skm.multilabel_confusion_matrix(y_true, y_pred, **kw)
        assert ours.shape == theirs.shape and ours.dtype.kind == theirs.dtype.kind
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    # label vectors: one-vs-rest per class
    a, b = rng.integers(0, 4, 25), rng.integers(0, 4, 25)
    kw = dict(sample_weight=None if w is None else rng.random(25),
              labels=None if labels is None else [3, 0, 5])
    np.testing.assert_allclose(multilabel_confusion_matrix(a, b, **kw),
                               skm.multilabel_confusion_matrix(a, b, **kw), rtol=1e-12)


# -- scikit-learn's own cases (sklearn/metrics/tests/test_classification.py) ------------

def test_sklearn_multilabel_confusion_matrix_multilabel():
    y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    y_pred = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 1]])
    assert multilabel_confusion_matrix(y_true, y_pred).tolist() == \
        [[[1, 0], [1, 1]], [[1, 0], [1, 1]], [[0, 2], [1, 0]]]
    assert multilabel_confusion_matrix(y_true, y_pred, samplewise=True).tolist() == \
        [[[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [2, 0]]]
    assert multilabel_confusion_matrix(y_true, y_pred, labels=[2, 0]).tolist() == \
        [[[0, 2], [1, 0]], [[1, 0], [1, 1]]]
    w = np.array([2, 1, 3])
    assert multilabel_confusion_matrix(y_true, y_pred, sample_weight=w).tolist() == \
        [[[1, 0], [3, 2]], [[2, 0], [3, 1]], [[0, 4], [2, 0]]]


def test_sklearn_precision_recall_f1_score_multilabel_1():
    y_true = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1]])
    y_pred = np.array([[0, 1, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, r, f, s = ek.precision_recall_fscore_support(y_true, y_pred)
        np.testing.assert_allclose(p, [0.0, 0.5, 1.0, 0.0])
        np.testing.assert_allclose(r, [0.0, 1.0, 1.0, 0.0])
        np.testing.assert_allclose(f, [0.0, 2 / 3, 1.0, 0.0])
        assert s.tolist() == [1, 1, 1, 1]
        p, r, f, _ = ek.precision_recall_fscore_support(y_true, y_pred, average="samples")
        assert (p, r, f) == pytest.approx((0.5, 0.5, 0.5))
        p, r, f, _ = ek.precision_recall_fscore_support(y_true, y_pred, average="micro")
        assert (p, r, f) == pytest.approx((0.5, 0.5, 0.5))


def test_sklearn_multilabel_accuracy_is_subset_accuracy():
    y1 = np.array([[0, 1, 1], [1, 0, 1]])
    y2 = np.array([[0, 0, 1], [1, 0, 1]])
    assert ek.accuracy_score(y1, y2) == 0.5
    assert ek.accuracy_score(y1, y1) == 1
    assert ek.accuracy_score(y2, y2) == 1
    assert ek.accuracy_score(y2, np.logical_not(y2)) == 0
    assert ek.accuracy_score(y1, np.zeros(y1.shape)) == 0


def test_mixed_and_bad_targets_are_refused():
    with pytest.raises(ValueError, match="^y_pred must be a 0/1 indicator matrix"):
        ek.f1_score([[0, 1], [1, 0]], [0, 1], average="macro")
    with pytest.raises(ValueError, match="^y_true must be a 0/1 indicator matrix"):
        ek.f1_score([[0, 2], [1, 0]], [[0, 1], [1, 0]], average="macro")
    with pytest.raises(ValueError, match="^average='binary' needs a binary target"):
        ek.f1_score([[0, 1], [1, 0]], [[0, 1], [1, 1]])
    with pytest.raises(ValueError, match="^average='samples' needs a multilabel target"):
        ek.f1_score([0, 1, 2], [0, 1, 1], average="samples")
    with pytest.raises(ValueError, match="^labels must be column indices"):
        ek.f1_score([[0, 1], [1, 0]], [[0, 1], [1, 1]], average="macro", labels=[0, 2])
    with pytest.raises(ValueError, match="^samplewise=True needs multilabel targets"):
        multilabel_confusion_matrix([0, 1], [1, 1], samplewise=True)
