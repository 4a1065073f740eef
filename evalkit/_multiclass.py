"""Multiclass and multilabel ROC AUC and average precision, by averaging binary scores.

:func:`evalkit.roc_auc_score` and :func:`evalkit.average_precision_score`
send 2-D input here. Each class is scored by the binary metric (passed in
by :mod:`evalkit.curves`, so this module imports nothing above it), then
averaged as scikit-learn averages:

* one-vs-rest (``multi_class="ovr"``, and every multilabel column): class c
  against all the others, on column c of the scores; ``"macro"`` the plain
  mean, ``"weighted"`` weighted by each class's number of positives,
  ``"micro"`` one binary score of all the (sample, class) cells pooled,
  ``"samples"`` (multilabel) the mean over rows, ``None`` the per-class
  scores;
* one-vs-one (``multi_class="ovo"``, Hand & Till 2001): for each pair of
  classes (a, b) present in ``y_true``, the samples of a or b only,
  ``(AUC(a vs b on column a) + AUC(b vs a on column b)) / 2``; ``"macro"``
  the mean over pairs, ``"weighted"`` weighted by the pair's share of the
  samples.
"""

from __future__ import annotations

import numpy as np

from ._validation import (check_column_labels, check_columns_match_classes, check_labels,
                          check_labels_name_columns, check_same_length, check_sample_weight,
                          check_score_matrix, check_sorted_labels)

__all__ = ["multiclass_roc_auc", "multiclass_average_precision"]


def _indicator(y_true):
    """A 2-D multilabel-indicator ``y_true`` as an int matrix, or None if ``y_true`` is 1-D."""
    arr = np.asarray(y_true)
    if arr.ndim != 2:
        return None
    if arr.shape[1] < 2:
        raise ValueError(f"y_true must be 1-D labels or a multilabel indicator matrix with at "
                         f"least 2 columns, got an array of shape {arr.shape}")
    if arr.dtype.kind not in "biuf" or not np.isin(arr, (0, 1)).all():
        raise ValueError("y_true is 2-D, so it must be a multilabel indicator matrix of 0 and 1 "
                         "(one column per label)")
    return arr.astype(np.int64)


def _average_columns(binary, truth, scores, average, sample_weight):
    """Score each column (or row for "samples", or all cells for "micro") and average."""
    w = sample_weight
    if average == "micro":
        return binary(truth.ravel(), scores.ravel(),
                      None if w is None else np.repeat(w, truth.shape[1]))
    weights = None
    if average == "weighted":
        weights = truth.sum(axis=0) if w is None else (truth * w[:, None]).sum(axis=0)
        if np.isclose(weights.sum(), 0):
            return 0.0
    axis_scores = []
    if average == "samples":
        weights = w
        for i in range(truth.shape[0]):
            axis_scores.append(binary(truth[i], scores[i], None))
    else:
        for c in range(scores.shape[1]):
            axis_scores.append(binary(truth[:, c], scores[:, c], w))
    per = np.array(axis_scores, dtype=np.float64)
    if average is None:
        return per
    if weights is not None:
        per = np.where(np.asarray(weights) == 0, 0.0, per)
    return float(np.average(per, weights=weights))


def _codes_of(y, labels, n_columns):
    """Each sample's column: ``labels`` (sorted, unique, one per column) or the classes of y name them."""
    if labels is None:
        classes = np.unique(y)
        check_columns_match_classes(n_columns, len(classes))
    else:
        classes = check_sorted_labels(check_column_labels(labels, n_columns))
    return classes, check_labels_name_columns(y, classes)


def multiclass_roc_auc(y_true, y_score, *, binary, average, sample_weight, max_fpr, multi_class,
                       labels):
    """ROC AUC of multiclass (ovr / ovo) or multilabel input, as scikit-learn computes it.

    ``binary(y01, scores, sample_weight, max_fpr)`` scores one column.
    """
    truth = _indicator(y_true)
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is not None:  # multilabel: one-vs-rest on each column
        if scores.shape != truth.shape:
            raise ValueError(f"y_score must have the shape of the multilabel y_true "
                             f"{truth.shape}, got {scores.shape}")
        w = check_sample_weight(sample_weight, len(truth))
        return _average_columns(lambda t, s, sw: binary(t, s, sw, max_fpr), truth, scores,
                                average, w)
    y = check_labels(y_true, "y_true")
    present = np.unique(y)
    if scores.ndim == 1:
        raise ValueError(
            f"y_score must be of shape (n_samples, n_classes) since y_true contains "
            f"{len(present)} classes, got shape {scores.shape}")
    check_same_length(y_true=y, y_score=scores)
    w = check_sample_weight(sample_weight, len(y))
    if len(present) <= 2 and scores.shape[1] <= 2:  # binary y_true: 1-D scores only
        raise ValueError(
            f"y_score must be 1-D (the scores of the larger label) since y_true is binary, got "
            f"shape {scores.shape}" + (": pass y_score[:, 1]" if scores.shape[1] == 2 else ""))
    if max_fpr is not None and max_fpr != 1:
        raise ValueError(f"max_fpr must be None for multiclass ROC AUC (partial AUC is "
                         f"binary only); got {max_fpr!r}")
    if multi_class == "raise":
        raise ValueError("multi_class must be 'ovr' (one-vs-rest) or 'ovo' (one-vs-one, "
                         "Hand & Till 2001) for multiclass y_true; got 'raise'")
    if not np.allclose(1, scores.sum(axis=1)):
        raise ValueError("y_score rows must sum to 1 for multiclass ROC AUC (probabilities "
                         "over the classes, e.g. predict_proba)")
    allowed = ("macro", "weighted", None) + (("micro",) if multi_class == "ovr" else ())
    if average not in allowed:
        raise ValueError(f"average must be one of {allowed} for multiclass ROC AUC with "
                         f"multi_class={multi_class!r}; got {average!r}")
    if average is None and multi_class == "ovo":
        raise ValueError("average=None (per pair) is not available for multi_class='ovo'; use "
                         "'macro' or 'weighted'")
    classes, codes = _codes_of(y, labels, scores.shape[1])
    if multi_class == "ovo":
        if w is not None:
            raise ValueError("sample_weight is not supported for multi_class='ovo' (as in "
                             "scikit-learn); use multi_class='ovr'")
        present = np.unique(codes)
        pair_scores, prevalence = [], []
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                mask = (codes == a) | (codes == b)
                ya = (codes[mask] == a).astype(np.int64)
                s_ab = binary(ya, scores[mask, a], None, None)
                s_ba = binary(1 - ya, scores[mask, b], None, None)
                pair_scores.append((s_ab + s_ba) / 2)
                prevalence.append(mask.mean())
        return float(np.average(pair_scores,
                                weights=prevalence if average == "weighted" else None))
    truth = (codes[:, None] == np.arange(len(classes))).astype(np.int64)
    return _average_columns(lambda t, s, sw: binary(t, s, sw, None), truth, scores, average, w)


def multiclass_average_precision(y_true, y_score, *, binary, average, pos_label, sample_weight):
    """Average precision of multiclass (one-vs-rest) or multilabel input, as scikit-learn.

    ``binary(y01, scores, sample_weight)`` scores one column.
    """
    truth = _indicator(y_true)
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is None:
        y = check_labels(y_true, "y_true")
        classes = np.unique(y)
        if len(classes) <= 2:
            raise ValueError(f"y_score must be 1-D (the scores of pos_label) since y_true is "
                             f"binary, got shape {scores.shape}")
        if pos_label != 1:
            raise ValueError("pos_label is fixed to 1 for multiclass y_true (each class is "
                             "positive in turn): do not set it")
        if scores.shape != (len(y), len(classes)):
            raise ValueError(f"y_score must be of shape (n_samples, n_classes) = "
                             f"{(len(y), len(classes))} since y_true contains {len(classes)} "
                             f"classes, got shape {scores.shape}")
        truth = (np.searchsorted(classes, y)[:, None] == np.arange(len(classes))).astype(np.int64)
    else:
        if pos_label != 1:
            raise ValueError("pos_label is fixed to 1 for multilabel-indicator y_true: do not "
                             "set it")
        if scores.shape != truth.shape:
            raise ValueError(f"y_score must have the shape of the multilabel y_true "
                             f"{truth.shape}, got {scores.shape}")
    w = check_sample_weight(sample_weight, len(truth))
    return _average_columns(binary, truth, scores, average, w)
