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

from ._validation import check_labels, check_same_length, check_sample_weight

__all__ = ["multiclass_roc_auc", "multiclass_average_precision"]


def _scores_2d(y_score):
    arr = np.asarray(y_score)
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"y_score must hold numbers, got dtype {arr.dtype}") from None
    if arr.size == 0:
        raise ValueError("y_score is empty: at least one sample is needed")
    if not np.isfinite(arr).all():
        raise ValueError("y_score contains NaN" if np.isnan(arr).any()
                         else "y_score contains infinite values")
    return arr.astype(np.float64, copy=False) if arr.dtype.kind != "f" else arr


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


def _classes_of(y, labels, n_columns):
    """The classes naming the score columns (``labels``, sorted and unique, or those of y)."""
    if labels is not None:
        lab = check_labels(labels, "labels")
        uniq = np.unique(lab)
        if len(uniq) != len(lab):
            raise ValueError("labels must be unique (one per column of y_score)")
        if not np.array_equal(uniq, lab):
            raise ValueError("labels must be ordered (sorted): column j of y_score scores the "
                             "j-th smallest label, as in scikit-learn")
        if len(lab) != n_columns:
            raise ValueError(f"labels has {len(lab)} entries but y_score has {n_columns} "
                             "columns: give one label per column")
        if np.setdiff1d(y, lab).size:
            raise ValueError("y_true contains labels not in labels, such as "
                             f"{np.setdiff1d(y, lab)[0].item()!r}")
        return lab
    classes = np.unique(y)
    if len(classes) != n_columns:
        raise ValueError(f"y_true has {len(classes)} classes but y_score has {n_columns} "
                         "columns: give labels= with every class, in sorted order")
    return classes


def multiclass_roc_auc(y_true, y_score, *, binary, average, sample_weight, max_fpr, multi_class,
                       labels):
    """ROC AUC of multiclass (ovr / ovo) or multilabel input, as scikit-learn computes it.

    ``binary(y01, scores, sample_weight, max_fpr)`` scores one column.
    """
    truth = _indicator(y_true)
    scores = _scores_2d(y_score)
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
    if scores.ndim != 2:
        raise ValueError(f"y_score must be 1-D or 2-D, got an array of shape {scores.shape}")
    check_same_length(y_true=y, y_score=scores)
    w = check_sample_weight(sample_weight, len(y))
    if len(present) <= 2 and scores.shape[1] <= 2:  # binary y_true: scikit-learn's binary path
        if scores.shape[1] == 2:
            raise ValueError(
                "y_true is binary, so y_score must be 1-D (the scores of the larger label), got "
                f"shape {scores.shape}: pass y_score[:, 1]")
        return binary((y == present[-1]).astype(np.int64), scores[:, 0], w, max_fpr)
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
    classes = _classes_of(y, labels, scores.shape[1])
    codes = np.searchsorted(classes, y)
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
    scores = _scores_2d(y_score)
    if truth is None:
        y = check_labels(y_true, "y_true")
        classes = np.unique(y)
        if len(classes) <= 2:
            raise ValueError(
                f"y_true is binary, so y_score must be 1-D (the scores of pos_label), got shape "
                f"{scores.shape}")
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
