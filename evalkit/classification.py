"""Classification metrics from labels, mirroring ``sklearn.metrics``.

Same names, positional arguments, keywords, defaults and numbers as
scikit-learn. Each function validates its input once, counts once
(:mod:`evalkit._counts`) and divides counts through one zero-division-aware
helper (:mod:`evalkit._ratios`).
"""

from __future__ import annotations

import numpy as np

from ._counts import _class_counts, confusion_counts, position_of, encode_labels
from ._ratios import ratio, zero_division_value
from .exceptions import warn_at_caller
from ._validation import (check_average, check_beta, check_binary_average, check_bool,
                          check_choice, check_labels_in_y_true, check_pos_label_type,
                          check_sample_weight, check_targets, check_warn_for,
                          check_zero_division)

__all__ = [
    "confusion_matrix",
    "accuracy_score",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "macro_f1",
]


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix (混淆矩阵): ``C[i, j]`` = samples of class i predicted as class j.

    Rows are actual classes, columns predicted classes, both in the order of
    ``labels`` (default: every label present, sorted). Samples whose label is
    not in ``labels`` are left out. ``normalize`` divides by row sums
    (``"true"``), column sums (``"pred"``) or the total (``"all"``); an empty
    row or column gives 0.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Actual and predicted labels.
    labels : array-like, default=None
        Classes to index the matrix, in this order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; the matrix then holds sums of weights.
    normalize : {"true", "pred", "all"}, default=None

    Returns
    -------
    C : ndarray of shape (n_classes, n_classes)
        int64 counts (float64 with non-integer weights or ``normalize``).

    Examples
    --------
    >>> confusion_matrix([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2])
    array([[2, 1, 0],
           [0, 1, 1],
           [0, 0, 1]])
    """
    check_choice(normalize, (None, "true", "pred", "all"), "normalize")
    _, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt))
    labels_used, cm = confusion_counts(yt, yp, labels, w)
    if labels is not None:
        check_labels_in_y_true(labels_used, yt)
    integral = sample_weight is None or np.asarray(sample_weight).dtype.kind in "biu"
    cm = cm.astype(np.int64 if integral else np.float64)
    if cm.shape == (1, 1):
        warn_at_caller(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix "
            "to have the correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning)
    if normalize is None:
        return cm
    with np.errstate(all="ignore"):
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        else:
            cm = cm / cm.sum()
    return np.nan_to_num(cm)


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Accuracy (准确率) = correct predictions / all predictions = Σ tp_c / n.

    With ``normalize=False`` the number (or weight) of correct predictions.
    Under class imbalance accuracy rewards predicting the majority: 90 men and
    10 women all predicted "man" score 0.9.

    Examples
    --------
    >>> accuracy_score(["m"] * 90 + ["w"] * 10, ["m"] * 100)
    0.9
    """
    normalize = check_bool(normalize, "normalize")
    _, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt))
    counts = _class_counts(yt, yp, None, w)
    correct = float(counts.tp.sum())
    if not normalize:
        return correct
    return ratio(correct, counts.total)


def _set_wise_labels(kind, yt, yp, average, labels, pos_label):
    """Which labels the set-wise metrics score, following scikit-learn's rules."""
    if average == "binary":
        check_binary_average(kind, average)
        classes, _, _ = encode_labels(yt, yp)
        if position_of(pos_label, classes) < 0:
            return "absent"  # one class present and it is not pos_label: all negative
        return [pos_label]
    if pos_label not in (None, 1):
        warn_at_caller(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single "
            "positive class.",
            UserWarning)
    return labels


def _nanaverage(values, weights=None):
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    values = values[keep]
    if weights is not None:
        weights = np.asarray(weights, dtype=float)[keep]
        if weights.sum() > 0:
            return float(np.average(values, weights=weights))
    return float(values.mean())


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1,
                                    average=None, warn_for=("precision", "recall", "f-score"),
                                    sample_weight=None, zero_division="warn"):
    """Precision, recall, F-beta and support per class, or averaged.

    For class c: ``P_c = tp_c / predicted_c``, ``R_c = tp_c / support_c`` and
    ``F_c = (1 + β²)·tp_c / (β²·support_c + predicted_c)``
    (= (1 + β²)·P·R / (β²·P + R)). Averages: ``"binary"`` reports ``pos_label``
    only; ``"micro"`` divides the summed counts (for single-label data
    P = R = F = accuracy); ``"macro"`` is the plain mean over classes;
    ``"weighted"`` the mean weighted by support; ``None`` returns per-class
    arrays. A 0/0 takes ``zero_division`` ("warn": 0.0 and an
    :class:`~evalkit.exceptions.UndefinedMetricWarning`); with
    ``zero_division=nan`` such classes are left out of the average.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray
    support : ndarray of int (float if weighted), or None when averaged

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2])
    >>> p.round(4).tolist(), r.round(4).tolist(), f.round(4).tolist(), s.tolist()
    ([1.0, 0.5, 0.5], [0.6667, 0.5, 1.0], [0.8, 0.5, 0.6667], [3, 2, 1])
    """
    zero_division = check_zero_division(zero_division)
    check_average(average)
    beta = check_beta(beta)
    warn_for = check_warn_for(warn_for)
    check_pos_label_type(pos_label)
    kind, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt))
    labels = _set_wise_labels(kind, yt, yp, average, labels, pos_label)
    if isinstance(labels, str) and labels == "absent":
        tp = predicted = support = np.zeros(1, dtype=int if w is None else float)
    else:
        counts = _class_counts(yt, yp, labels, w)
        tp, predicted, support = counts.tp, counts.predicted, counts.support
    return _scores_from_counts(tp, predicted, support, beta=beta, average=average,
                               zero_division=zero_division, warn_for=warn_for, stacklevel=5)


def _scores_from_counts(tp, predicted, support, *, beta=1.0, average=None,
                        zero_division="warn", warn_for=("precision", "recall", "f-score"),
                        stacklevel=4):
    """Precision, recall, F-beta (and support) from per-class counts, maybe averaged.

    The arithmetic half of :func:`precision_recall_fscore_support`, shared by
    the reports (:mod:`evalkit.report`, :mod:`evalkit.topk`): ``tp``,
    ``predicted`` and ``support`` are per-class arrays; arguments are
    already validated.
    """
    if average == "micro":
        tp, predicted, support = (np.array([x.sum()]) for x in (tp, predicted, support))
    per = "labels"
    zp = zero_division if "precision" in warn_for else zero_division_value(zero_division)
    zr = zero_division if "recall" in warn_for else zero_division_value(zero_division)
    zf = zero_division if "f-score" in warn_for else zero_division_value(zero_division)
    precision = ratio(tp, predicted, zero_division=zp, what="Precision",
                      because="no predicted samples", per=per, stacklevel=stacklevel)
    recall = ratio(tp, support, zero_division=zr, what="Recall",
                   because="no true samples", per=per, stacklevel=stacklevel)
    if np.isinf(beta):
        fscore = recall
    elif beta == 0:
        fscore = precision
    else:
        b2 = beta * beta
        fscore = ratio((1 + b2) * tp, b2 * support + predicted, zero_division=zf,
                       what="F-score", because="no true nor predicted samples",
                       per=per, stacklevel=stacklevel)
    if average is None:
        return precision, recall, fscore, support
    weights = support if average == "weighted" else None
    return (_nanaverage(precision, weights), _nanaverage(recall, weights),
            _nanaverage(fscore, weights), None)


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    """Precision (精确率) = tp / (tp + fp): of the samples predicted positive, the share that are.

    See :func:`precision_recall_fscore_support` for ``average`` and
    ``zero_division``.

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    p, _, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("precision",), sample_weight=sample_weight, zero_division=zero_division)
    return p


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    """Recall (召回率) = tp / (tp + fn): of the positive samples, the share found.

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    _, r, _, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=("recall",), sample_weight=sample_weight, zero_division=zero_division)
    return r


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    """F-beta = (1 + β²)·P·R / (β²·P + R): recall counts β times as much as precision.

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 1, 0], beta=2), 4)
    0.9091
    """
    _, _, f, _ = precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=("f-score",), sample_weight=sample_weight, zero_division=zero_division)
    return f


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
             sample_weight=None, zero_division="warn"):
    """F1 (F1值) = 2·P·R / (P + R), the harmonic mean of precision and recall.

    Examples
    --------
    >>> round(f1_score([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2], average="macro"), 4)
    0.6556
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight,
                       zero_division=zero_division)


_DEFINITIONS = {
    "mean_of_f1": "the mean of the per-class F1, as scikit-learn",
    "f1_of_means": "the harmonic mean of macro precision and macro recall",
}


def macro_f1(y_true, y_pred, *, definition="mean_of_f1", labels=None, sample_weight=None,
             zero_division="warn"):
    """Macro-averaged F1 under either of its two definitions (the macro/micro post).

    * ``"mean_of_f1"`` (scikit-learn's ``f1_score(average="macro")``):
      ``(1/m) Σ_c F1_c``;
    * ``"f1_of_means"``: the harmonic mean of macro precision P̄ and macro
      recall R̄, ``2·P̄·R̄ / (P̄ + R̄)``.

    They differ whenever per-class precision and recall are unbalanced.

    Examples
    --------
    >>> y, yhat = [0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2]
    >>> round(macro_f1(y, yhat), 4), round(macro_f1(y, yhat, definition="f1_of_means"), 4)
    (0.6556, 0.6933)
    """
    check_choice(definition, _DEFINITIONS, "definition")
    p, r, f, _ = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, average="macro", sample_weight=sample_weight,
        zero_division=zero_division,
        warn_for=("precision", "recall", "f-score") if definition == "f1_of_means" else ("f-score",))
    if definition == "mean_of_f1":
        return f
    return ratio(2 * p * r, p + r, zero_division=check_zero_division(zero_division),
                 what="F1 of macro means", because="macro precision and recall both 0")
