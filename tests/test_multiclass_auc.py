"""Multiclass and multilabel roc_auc_score and average_precision_score equal scikit-learn's.

Randomized inputs (ties, weights, absent classes, string labels); the outcome
-- number (rtol 1e-12), nan, or refusal -- must agree with sklearn's.
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek


def outcome(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = fn(*args, **kwargs)
        except (ValueError, TypeError, NotImplementedError, IndexError):
            return "error"
    return np.asarray(out, dtype=float)


def same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        assert a == b, (a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, equal_nan=True)


def probabilities(rng, n, c, digits=None):
    p = rng.dirichlet(np.ones(c), n)
    if digits is not None:  # ties; renormalise so rows still sum to 1
        p = np.round(p, digits)
        p[:, -1] = 1 - p[:, :-1].sum(axis=1)
        p = np.clip(p, 0, 1)
    return p


def multiclass_case(rng):
    n = int(rng.integers(8, 120))
    c = int(rng.integers(3, 6))
    y = rng.integers(0, c, n)
    y[:c] = np.arange(c)
    p = probabilities(rng, n, c, digits=rng.choice([None, 1, 2]))
    p = 0.5 * p + 0.5 * np.eye(c)[y] * rng.random()  # some signal
    p /= p.sum(axis=1, keepdims=True)
    return y, p


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
@pytest.mark.parametrize("average", ["macro", "weighted", None, "micro"])
def test_multiclass_roc_auc(seed, multi_class, average):
    rng = np.random.default_rng(seed)
    y, p = multiclass_case(rng)
    same(outcome(ek.roc_auc_score, y, p, multi_class=multi_class, average=average),
         outcome(skm.roc_auc_score, y, p, multi_class=multi_class, average=average))
    names = np.array(["ant", "bee", "cat", "dog", "eel"])[y]
    same(outcome(ek.roc_auc_score, names, p, multi_class=multi_class, average=average),
         outcome(skm.roc_auc_score, names, p, multi_class=multi_class, average=average))
    w = rng.random(len(y)) * (rng.random(len(y)) < 0.9)
    same(outcome(ek.roc_auc_score, y, p, multi_class=multi_class, average=average,
                 sample_weight=w),
         outcome(skm.roc_auc_score, y, p, multi_class=multi_class, average=average,
                 sample_weight=w))


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
def test_multiclass_roc_auc_with_labels(seed, multi_class):
    rng = np.random.default_rng(seed)
    y, p = multiclass_case(rng)
    c = p.shape[1]
    # a class absent from y_true: label it with labels=
    extra = np.c_[p, np.zeros(len(y))]
    y2 = np.where(y == c - 1, 0, y)
    for labels in (list(range(c + 1)), list(range(c)), list(range(c + 1))[::-1]):
        for average in ("macro", "weighted", None):
            for score in (extra, p):
                same(outcome(ek.roc_auc_score, y2, score, multi_class=multi_class,
                             average=average, labels=labels),
                     outcome(skm.roc_auc_score, y2, score, multi_class=multi_class,
                             average=average, labels=labels))


def test_multiclass_roc_auc_refusals_match_sklearn():
    rng = np.random.default_rng(0)
    y, p = multiclass_case(rng)
    cases = [
        dict(multi_class="raise"),
        dict(multi_class="ovr", average="samples"),
        dict(multi_class="ovo", average="micro"),
        dict(multi_class="ovo", average=None),
        dict(multi_class="ovr", max_fpr=0.5),
        dict(multi_class="ovo", sample_weight=np.ones(len(y))),
        dict(multi_class="ovr", labels=[0, 1]),
        dict(multi_class="ovr", labels=[0, 0, 1, 2][:p.shape[1]] + list(range(3, p.shape[1]))),
    ]
    for kw in cases:
        assert outcome(ek.roc_auc_score, y, p, **kw) == "error", kw
        assert outcome(skm.roc_auc_score, y, p, **kw) == "error", kw
    bad = p.copy()
    bad[0, 0] += 0.5  # rows must sum to 1
    assert outcome(ek.roc_auc_score, y, bad, multi_class="ovr") == "error"
    assert outcome(skm.roc_auc_score, y, bad, multi_class="ovr") == "error"
    # 1-D scores for multiclass y_true, 2 columns for binary y_true
    assert outcome(ek.roc_auc_score, y, p[:, 0], multi_class="ovr") == "error"
    yb = (y > 0).astype(int)
    assert outcome(ek.roc_auc_score, yb, p[:, :2]) == "error"
    assert outcome(skm.roc_auc_score, yb, p[:, :2]) == "error"
    # a column (n, 1) for binary y_true: scikit-learn 1.9 reads it as 1-D; evalkit refuses it,
    # as every evalkit function refuses a column vector (issue 16)
    with pytest.raises(ValueError, match=r"^y_score must be 1-D"):
        ek.roc_auc_score(yb, p[:, :1])


def multilabel_case(rng):
    n = int(rng.integers(6, 80))
    c = int(rng.integers(2, 6))
    y = (rng.random((n, c)) < rng.random(c)).astype(int)
    s = np.round(rng.random((n, c)) + 0.5 * y, int(rng.integers(1, 4)))
    return y, s


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples", None])
def test_multilabel_roc_auc_and_average_precision(seed, average):
    rng = np.random.default_rng(seed)
    y, s = multilabel_case(rng)
    same(outcome(ek.roc_auc_score, y, s, average=average),
         outcome(skm.roc_auc_score, y, s, average=average))
    same(outcome(ek.average_precision_score, y, s, average=average),
         outcome(skm.average_precision_score, y, s, average=average))
    w = rng.random(len(y))
    same(outcome(ek.roc_auc_score, y, s, average=average, sample_weight=w),
         outcome(skm.roc_auc_score, y, s, average=average, sample_weight=w))
    same(outcome(ek.average_precision_score, y, s, average=average, sample_weight=w),
         outcome(skm.average_precision_score, y, s, average=average, sample_weight=w))
    if average != "samples":
        same(outcome(ek.roc_auc_score, y, s, average=average, max_fpr=0.3),
             outcome(skm.roc_auc_score, y, s, average=average, max_fpr=0.3))


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_multiclass_average_precision(seed, average):
    rng = np.random.default_rng(seed)
    y, p = multiclass_case(rng)
    same(outcome(ek.average_precision_score, y, p, average=average),
         outcome(skm.average_precision_score, y, p, average=average))
    w = rng.random(len(y))
    same(outcome(ek.average_precision_score, y, p, average=average, sample_weight=w),
         outcome(skm.average_precision_score, y, p, average=average, sample_weight=w))
    names = np.array(["ant", "bee", "cat", "dog", "eel"])[y]
    same(outcome(ek.average_precision_score, names, p, average=average),
         outcome(skm.average_precision_score, names, p, average=average))


def test_average_precision_refusals_match_sklearn():
    rng = np.random.default_rng(1)
    y, p = multiclass_case(rng)
    for args, kw in [((y, p), dict(pos_label=2)), ((y, p[:, :2]), {}), ((y, p[:, 0]), {}),
                     (((y > 0).astype(int), p[:, :2]), {})]:
        assert outcome(ek.average_precision_score, *args, **kw) == "error", kw
        assert outcome(skm.average_precision_score, *args, **kw) == "error", kw
    ym, s = multilabel_case(rng)
    assert outcome(ek.average_precision_score, ym, s, pos_label=0) == "error"
    assert outcome(skm.average_precision_score, ym, s, pos_label=0) == "error"


def test_the_error_names_the_fix():
    with pytest.raises(ValueError, match="multi_class must be 'ovr'"):
        ek.roc_auc_score([0, 1, 2], np.eye(3))
    with pytest.raises(ValueError, match=r"y_score must be of shape \(n_samples, n_classes\)"):
        ek.roc_auc_score([0, 1, 2], [0.1, 0.5, 0.9], multi_class="ovr")
    with pytest.raises(ValueError, match="rows must sum to 1"):
        ek.roc_auc_score([0, 1, 2], np.eye(3) * 2, multi_class="ovr")
    with pytest.raises(ValueError, match="multilabel indicator"):
        ek.roc_auc_score([[0, 2], [1, 0]], [[0.1, 0.2], [0.3, 0.4]])


def test_doc_example():
    y = [0, 1, 2, 2, 1, 0]
    p = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
         [0.3, 0.3, 0.4], [0.4, 0.4, 0.2], [0.5, 0.3, 0.2]]
    for mc in ("ovr", "ovo"):
        assert ek.roc_auc_score(y, p, multi_class=mc) == pytest.approx(
            skm.roc_auc_score(y, p, multi_class=mc), rel=1e-12)
