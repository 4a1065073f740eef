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

import itertools

import numpy as np

from ._validation import (check_column_classes, check_indicator, check_labels, check_rules,
                          check_same_length, check_sample_weight, check_score_matrix)

__all__ = ["multiclass_roc_auc", "multiclass_average_precision"]

_SHAPE = (lambda v: v["truth"] is not None and v["scores"].shape != v["truth"].shape,
          "y_score must have the shape of the multilabel y_true {truth.shape}, got {scores.shape}")
_AUC_RULES = (  # multiclass ROC AUC: scikit-learn's refusals, in its order
    (lambda v: v["scores"].ndim == 1, "y_score must be of shape (n_samples, n_classes) since "
                                      "y_true contains {n} classes, got shape {scores.shape}"),
    (lambda v: v["n"] <= 2 and v["scores"].shape[1] <= 2, "y_score must be 1-D (the scores of the "
     "larger label) since y_true is binary, got shape {scores.shape}{hint}"),
    (lambda v: v["max_fpr"] not in (None, 1), "max_fpr must be None for multiclass ROC AUC "
     "(partial AUC is binary only); got {max_fpr!r}"),
    (lambda v: v["multi_class"] == "raise", "multi_class must be 'ovr' (one-vs-rest) or 'ovo' "
     "(one-vs-one, Hand & Till 2001) for multiclass y_true; got 'raise'"),
    (lambda v: not np.allclose(1, v["scores"].sum(axis=1)), "y_score rows must sum to 1 for "
     "multiclass ROC AUC (probabilities over the classes, e.g. predict_proba)"),
    (lambda v: v["average"] not in v["allowed"], "average must be one of {allowed} for multiclass "
     "ROC AUC with multi_class={multi_class!r}; got {average!r}"),
    (lambda v: v["average"] is None and v["multi_class"] == "ovo", "average=None (per pair) is not "
     "available for multi_class='ovo'; use 'macro' or 'weighted'"),
    (lambda v: v["w"] is not None and v["multi_class"] == "ovo", "sample_weight is not supported "
     "for multi_class='ovo' (as in scikit-learn); use multi_class='ovr'"))
_FIXED = (lambda v: v["pos_label"] != 1, "pos_label is fixed to 1 for multiclass or multilabel "
                                         "y_true (each class is positive in turn): do not set it")
_AP_RULES = (
    (lambda v: v["n"] <= 2, "y_score must be 1-D (the scores of pos_label) since y_true is binary, "
                            "got shape {scores.shape}"),
    _FIXED,
    (lambda v: v["scores"].shape != (len(v["y"]), v["n"]), "y_score must be of shape (n_samples, "
     "n_classes) = {shape} since y_true contains {n} classes, got shape {scores.shape}"))


def _average_columns(binary, truth, scores, average, w):
    """Score each column (or row for "samples", or all cells for "micro") and average.

    ``w``: the checked sample weights, or None.
    """
    if average == "micro":
        return binary(truth.ravel(), scores.ravel(),
                      None if w is None else np.repeat(w, truth.shape[1]))
    weights = None
    if average == "weighted":
        weights = truth.sum(axis=0) if w is None else (truth * w[:, None]).sum(axis=0)
        if np.isclose(weights.sum(), 0):
            return 0.0
    if average == "samples":
        weights, per = w, [binary(t, s, None) for t, s in zip(truth, scores)]
    else:
        per = [binary(truth[:, c], scores[:, c], w) for c in range(scores.shape[1])]
    per = np.array(per, dtype=np.float64)
    if average is None:
        return per
    if weights is not None:
        per = np.where(np.asarray(weights) == 0, 0.0, per)
    return float(np.average(per, weights=weights))


def multiclass_roc_auc(y_true, y_score, *, binary, average, sample_weight, max_fpr, multi_class,
                       labels):
    """ROC AUC of multiclass (ovr / ovo) or multilabel input, as scikit-learn computes it.

    ``binary(y01, scores, sample_weight, max_fpr)`` scores one column.
    """
    truth = check_indicator(y_true, "y_true").astype(np.int64) if np.ndim(y_true) == 2 else None
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is not None:  # multilabel: one-vs-rest on each column
        check_rules([_SHAPE], truth=truth, scores=scores)
        w = check_sample_weight(sample_weight, len(truth))
        return _average_columns(lambda t, s, sw: binary(t, s, sw, max_fpr), truth, scores,
                                average, w)
    y = check_labels(y_true, "y_true")
    check_same_length(y_true=y, y_score=scores)
    w = check_sample_weight(sample_weight, len(y))
    check_rules(_AUC_RULES, scores=scores, n=len(np.unique(y)), max_fpr=max_fpr, w=w,
                multi_class=multi_class, average=average, hint=": pass y_score[:, 1]" if
                scores.shape[-1] == 2 else "", allowed=("macro", "weighted", None) + (
                    ("micro",) if multi_class == "ovr" else ()))
    classes, codes = check_column_classes(y, labels, scores.shape[1])
    if multi_class == "ovo":
        pair_scores, prevalence = [], []
        for a, b in itertools.combinations(np.unique(codes), 2):
            mask = (codes == a) | (codes == b)
            ya = (codes[mask] == a).astype(np.int64)
            pair_scores.append((binary(ya, scores[mask, a], None, None)
                                + binary(1 - ya, scores[mask, b], None, None)) / 2)
            prevalence.append(mask.mean())
        return float(np.average(pair_scores,
                                weights=prevalence if average == "weighted" else None))
    truth = (codes[:, None] == np.arange(len(classes))).astype(np.int64)
    return _average_columns(lambda t, s, sw: binary(t, s, sw, None), truth, scores, average, w)


def multiclass_average_precision(y_true, y_score, *, binary, average, pos_label, sample_weight):
    """Average precision of multiclass (one-vs-rest) or multilabel input, as scikit-learn.

    ``binary(y01, scores, sample_weight)`` scores one column.
    """
    truth = check_indicator(y_true, "y_true").astype(np.int64) if np.ndim(y_true) == 2 else None
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is None:
        y = check_labels(y_true, "y_true")
        classes = np.unique(y)
        check_rules(_AP_RULES, y=y, n=len(classes), pos_label=pos_label, scores=scores,
                    shape=(len(y), len(classes)))
        truth = (np.searchsorted(classes, y)[:, None] == np.arange(len(classes))).astype(np.int64)
    check_rules([_FIXED, _SHAPE], pos_label=pos_label, truth=truth, scores=scores)
    w = check_sample_weight(sample_weight, len(truth))
    return _average_columns(binary, truth, scores, average, w)
