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

import functools
import itertools

import numpy as np

from ._validation import (check_column_classes, check_indicator, check_labels, check_rules,
                          check_same_length, check_sample_weight, check_score_matrix)

__all__ = ["multiclass_roc_auc", "multiclass_average_precision"]

def _wrong_shape(v):
    return v["truth"] is not None and v["scores"].shape != v["truth"].shape


def _one_column(v):
    return v["scores"].ndim == 1


def _binary_matrix(v):
    return v["n"] <= 2 and v["scores"].shape[1] <= 2


def _partial(v):
    return v["max_fpr"] not in (None, 1)


def _no_scheme(v):
    return v["multi_class"] == "raise"


def _not_probabilities(v):
    return not np.allclose(1, v["scores"].sum(axis=1))


def _average_not_allowed(v):
    return v["average"] not in v["allowed"]


def _per_pair(v):
    return v["average"] is None and v["multi_class"] == "ovo"


def _weighted_pairs(v):
    return v["w"] is not None and v["multi_class"] == "ovo"


def _pos_label_set(v):
    return v["pos_label"] != 1


def _binary(v):
    return v["n"] <= 2


def _not_one_column_per_class(v):
    return v["scores"].shape != (len(v["y"]), v["n"])


_SHAPE = (_wrong_shape, "y_score must have the shape of the multilabel y_true {truth.shape}, "
                        "got {scores.shape}")
_AUC_RULES = (  # multiclass ROC AUC: scikit-learn's refusals, in its order
    (_one_column, "y_score must be of shape (n_samples, n_classes) since y_true contains {n} "
                  "classes, got shape {scores.shape}"),
    (_binary_matrix, "y_score must be 1-D (the scores of the larger label) since y_true is "
                     "binary, got shape {scores.shape}{hint}"),
    (_partial, "max_fpr must be None for multiclass ROC AUC (partial AUC is binary only); "
               "got {max_fpr!r}"),
    (_no_scheme, "multi_class must be 'ovr' (one-vs-rest) or 'ovo' (one-vs-one, Hand & Till "
                 "2001) for multiclass y_true; got 'raise'"),
    (_not_probabilities, "y_score rows must sum to 1 for multiclass ROC AUC (probabilities "
                         "over the classes, e.g. predict_proba)"),
    (_average_not_allowed, "average must be one of {allowed} for multiclass ROC AUC with "
                           "multi_class={multi_class!r}; got {average!r}"),
    (_per_pair, "average=None (per pair) is not available for multi_class='ovo'; use 'macro' "
                "or 'weighted'"),
    (_weighted_pairs, "sample_weight is not supported for multi_class='ovo' (as in "
                      "scikit-learn); use multi_class='ovr'"))
_FIXED = (_pos_label_set, "pos_label is fixed to 1 for multiclass or multilabel y_true (each "
                          "class is positive in turn): do not set it")
_AP_RULES = (
    (_binary, "y_score must be 1-D (the scores of pos_label) since y_true is binary, got shape "
              "{scores.shape}"),
    _FIXED,
    (_not_one_column_per_class, "y_score must be of shape (n_samples, n_classes) = {shape} "
                                "since y_true contains {n} classes, got shape {scores.shape}"))


def _weights_of_columns(truth, w):
    """Each column's weight for ``"weighted"``: its positives (their weights, with ``w``)."""
    if w is None:
        return truth.sum(axis=0)
    return (truth * w[:, None]).sum(axis=0)


def _average_columns(binary, truth, scores, average, w):
    """Score each column (or row for "samples", or all cells for "micro") and average.

    ``w``: the checked sample weights, or None.
    """
    if average == "micro":
        cell_weights = None
        if w is not None:
            cell_weights = np.repeat(w, truth.shape[1])
        return binary(truth.ravel(), scores.ravel(), cell_weights)
    weights = None
    if average == "weighted":
        weights = _weights_of_columns(truth, w)
        if np.isclose(weights.sum(), 0):
            return 0.0
    if average == "samples":
        weights = w
        per = [binary(t, s, None) for t, s in zip(truth, scores)]
    else:
        per = [binary(truth[:, c], scores[:, c], w) for c in range(scores.shape[1])]
    per = np.array(per, dtype=np.float64)
    if average is None:
        return per
    if weights is not None:
        per = np.where(np.asarray(weights) == 0, 0.0, per)
    return float(np.average(per, weights=weights))


def _indicator_or_none(y_true):
    """A 2-D ``y_true`` as a 0/1 int matrix (multilabel); None for labels."""
    if np.ndim(y_true) != 2:
        return None
    return check_indicator(y_true, "y_true").astype(np.int64)


def _one_vs_one(binary, codes, scores, average):
    """Hand & Till's mean over pairs of classes a, b of (AUC(a vs b) + AUC(b vs a)) / 2."""
    pair_scores = []
    prevalence = []
    for a, b in itertools.combinations(np.unique(codes), 2):
        in_pair = (codes == a) | (codes == b)
        is_a = (codes[in_pair] == a).astype(np.int64)
        a_vs_b = binary(is_a, scores[in_pair, a], None, None)
        b_vs_a = binary(1 - is_a, scores[in_pair, b], None, None)
        pair_scores.append((a_vs_b + b_vs_a) / 2)
        prevalence.append(in_pair.mean())
    weights = None
    if average == "weighted":
        weights = prevalence
    return float(np.average(pair_scores, weights=weights))


def _auc_words(scores, multi_class):
    """The values the multiclass AUC's messages name: the hint, the averages allowed."""
    hint = ""
    if scores.shape[-1] == 2:
        hint = ": pass y_score[:, 1]"
    allowed = ("macro", "weighted", None)
    if multi_class == "ovr":
        allowed += ("micro",)
    return hint, allowed


def multiclass_roc_auc(y_true, y_score, *, binary, average, sample_weight, max_fpr, multi_class,
                       labels):
    """ROC AUC of multiclass (ovr / ovo) or multilabel input, as scikit-learn computes it.

    ``binary(y01, scores, sample_weight, max_fpr)`` scores one column.
    """
    truth = _indicator_or_none(y_true)
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is not None:  # multilabel: one-vs-rest on each column, with max_fpr
        check_rules([_SHAPE], truth=truth, scores=scores)
        w = check_sample_weight(sample_weight, len(truth))
        column_auc = functools.partial(_with_max_fpr, binary, max_fpr)
        return _average_columns(column_auc, truth, scores, average, w)
    y = check_labels(y_true, "y_true")
    check_same_length(y_true=y, y_score=scores)
    w = check_sample_weight(sample_weight, len(y))
    hint, allowed = _auc_words(scores, multi_class)
    check_rules(_AUC_RULES, scores=scores, n=len(np.unique(y)), max_fpr=max_fpr, w=w,
                multi_class=multi_class, average=average, hint=hint, allowed=allowed)
    classes, codes = check_column_classes(y, labels, scores.shape[1])
    if multi_class == "ovo":
        return _one_vs_one(binary, codes, scores, average)
    truth = (codes[:, None] == np.arange(len(classes))).astype(np.int64)
    column_auc = functools.partial(_with_max_fpr, binary, None)
    return _average_columns(column_auc, truth, scores, average, w)


def _with_max_fpr(binary, max_fpr, truth, scores, sample_weight):
    """``binary`` of one column, with ``max_fpr``."""
    return binary(truth, scores, sample_weight, max_fpr)


def multiclass_average_precision(y_true, y_score, *, binary, average, pos_label, sample_weight):
    """Average precision of multiclass (one-vs-rest) or multilabel input, as scikit-learn.

    ``binary(y01, scores, sample_weight)`` scores one column.
    """
    truth = _indicator_or_none(y_true)
    scores = check_score_matrix(y_score, allow_1d=True)
    if truth is None:
        y = check_labels(y_true, "y_true")
        classes = np.unique(y)
        check_rules(_AP_RULES, y=y, n=len(classes), pos_label=pos_label, scores=scores,
                    shape=(len(y), len(classes)))
        codes = np.searchsorted(classes, y)
        truth = (codes[:, None] == np.arange(len(classes))).astype(np.int64)
    check_rules([_FIXED, _SHAPE], pos_label=pos_label, truth=truth, scores=scores)
    w = check_sample_weight(sample_weight, len(truth))
    return _average_columns(binary, truth, scores, average, w)
