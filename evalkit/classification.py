"""Classification metrics from labels, mirroring ``sklearn.metrics``.

Same names, positional arguments, keywords, defaults and numbers as
scikit-learn, for label vectors and for multilabel indicator matrices
(2-D 0/1 ``y_true``/``y_pred``, one column per label; scipy.sparse
indicator matrices are accepted, as scikit-learn accepts them). Each function
validates its input once, counts once (:mod:`evalkit._counts`) and computes
from counts in one batched step (:func:`evalkit._ratios.prf`).

Two refusals scikit-learn does not make: a ``y_true`` or ``y_pred`` column
of shape (n, 1) beside a 1-D target (scikit-learn ravels it silently; here a
ValueError names the column: pass ``.ravel()``), and a ``labels=`` that
lists a label twice (scikit-learn reports it twice).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._counts import (class_counts_of, confusion_counts, encode_labels, multilabel_counts,
                      position_of, targets)
from ._ratios import prf, ratio
from ._validation import (AVERAGES_SAMPLES, BETA, POS_LABEL, WARN_FOR, ZERO_DIVISION, Bool,
                          Options, Real, Satisfies, check_label_list, check_rules,
                          check_sample_weight, check_targets, validate_params)
from .exceptions import UndefinedMetricWarning, warn_at_caller

__all__ = ["confusion_matrix", "multilabel_confusion_matrix", "accuracy_score",
           "precision_recall_fscore_support", "precision_score", "recall_score", "f1_score",
           "fbeta_score", "macro_f1", "balanced_accuracy_score", "matthews_corrcoef",
           "cohen_kappa_score", "jaccard_score", "hamming_loss", "zero_one_loss",
           "class_likelihood_ratios"]

_SET_WISE = dict(average=Options(AVERAGES_SAMPLES), zero_division=ZERO_DIVISION,
                 pos_label=[None, POS_LABEL])
#: The averages a kind of target cannot take: "binary" needs a binary target, "samples" a
#: multilabel one.
_AVERAGE_REFUSED = {("binary", "multiclass"), ("binary", "multilabel"), ("samples", "binary"),
                    ("samples", "multiclass")}


def _average_refused(v):
    return (v["average"], v["kind"]) in _AVERAGE_REFUSED


def _samplewise_refused(v):
    return v["samplewise"] and v["kind"] != "multilabel"


_KIND_RULES = (  # options that need a kind of target
    (_average_refused, "average={average!r} needs a {need} target: Target is {kind} but "
                       "average={average!r}. Choose another average: one of [None, 'micro', "
                       "'macro', 'weighted']."),
    (_samplewise_refused, "samplewise=True needs multilabel targets: samplewise metrics are not "
                          "available outside of multilabel classification."))


@validate_params(normalize=Options((None, "true", "pred", "all")))
def confusion_matrix(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                     sample_weight: ArrayLike | None = None,
                     normalize: str | None = None) -> np.ndarray:
    """Confusion matrix (混淆矩阵): ``C[i, j]`` = samples of class i predicted as class j.

    Rows are actual classes, columns predicted classes, both in the order of
    ``labels`` (default: every label present, sorted). Samples whose label is
    not in ``labels`` are left out. ``normalize`` divides by row sums
    (``"true"``), column sums (``"pred"``) or the total (``"all"``); an empty
    row or column gives 0. Integer weights sum exactly in int64 (as
    scikit-learn), float weights in float64.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Actual and predicted labels (a column of shape (n, 1) is refused).
    labels : array-like, default=None
        Classes to index the matrix, in this order (no label twice).
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
    >>> int(confusion_matrix([0], [0], labels=[0, 1], sample_weight=[2**53 + 1])[0, 0])
    9007199254740993
    """
    cm = _confusion(y_true, y_pred, labels, sample_weight)
    if normalize is None:
        return cm
    axis = _NORMALIZE_AXIS[normalize]
    with np.errstate(all="ignore"):
        sums = cm.sum(axis=axis, keepdims=axis is not None)
        return np.nan_to_num(cm / sums)


#: The axis ``normalize`` divides by: rows (actual classes), columns (predicted), all.
_NORMALIZE_AXIS = {"true": 1, "pred": 0, "all": None}


def _confusion(y_true, y_pred, labels, sample_weight):
    """The confusion matrix of :func:`confusion_matrix` from unchecked input, not normalized."""
    _, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt), keep_int=True)  # int64: summed exactly
    if labels is not None:
        labels = check_label_list(labels, classes=yt, in_y_true=yt)
    cm = confusion_counts(yt, yp, labels, w)[1]
    if w is None or w.dtype.kind == "i":
        cm = cm.astype(np.int64)
    else:
        cm = cm.astype(np.float64)
    if cm.shape == (1, 1):
        warn_at_caller(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix "
            "to have the correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning)
    return cm


@validate_params(samplewise=Bool())
def multilabel_confusion_matrix(y_true: ArrayLike, y_pred: ArrayLike, *,
                                sample_weight: ArrayLike | None = None,
                                labels: ArrayLike | None = None,
                                samplewise: bool = False) -> np.ndarray:
    """One-vs-rest 2 x 2 confusion matrices, one per label (or per sample), as scikit-learn's.

    ``MCM[i] = [[tn, fp], [fn, tp]]`` of label i: for multilabel indicator
    matrices (n x L, 0/1) column i is label i's binary problem; for label
    vectors, class i against the rest. ``samplewise=True`` (multilabel only)
    gives one matrix per sample, over its labels. ``labels``: the classes
    (multilabel: column indices) to report, in this order. Weighted entries
    sum ``sample_weight``.

    Returns
    -------
    MCM : ndarray of shape (n_outputs, 2, 2)

    Examples
    --------
    >>> multilabel_confusion_matrix([[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]]).tolist()
    [[[1, 0], [0, 1]], [[1, 0], [0, 1]], [[0, 1], [1, 0]]]
    >>> multilabel_confusion_matrix(["a", "b", "a"], ["a", "a", "b"])[0].tolist()
    [[0, 1], [1, 1]]
    """
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight, labels)
    check_rules(_KIND_RULES, kind=kind, average=None, samplewise=samplewise)
    if kind == "multilabel":
        tp, predicted, actual = multilabel_counts(yt, yp, w, samplewise=samplewise)
        total = _multilabel_total(yt, w, samplewise)
    else:
        c = class_counts_of(yt, yp, labels, w)
        tp, predicted, actual, total = c.tp, c.predicted, c.support, c.total
    fp = predicted - tp
    fn = actual - tp
    tn = total - tp - fp - fn
    return np.stack([tn, fp, fn, tp]).T.reshape(-1, 2, 2)


def _multilabel_total(yt, w, samplewise):
    """What one 2 x 2 matrix counts in all: the samples (weighted), or a sample's labels."""
    n_samples, n_labels = yt.shape
    if samplewise and w is None:
        return n_labels
    if samplewise:
        return w * n_labels
    if w is None:
        return n_samples
    return w.sum()


@validate_params(normalize=Bool())
def accuracy_score(y_true: ArrayLike, y_pred: ArrayLike, *, normalize: bool = True,
                   sample_weight: ArrayLike | None = None) -> float:
    """Accuracy (准确率) = correct predictions / all predictions = Σ tp_c / n.

    With ``normalize=False`` the number (or weight) of correct predictions.
    Multilabel indicator matrices: subset accuracy, a sample is correct when
    its whole row of labels is (as scikit-learn). Under class imbalance
    accuracy rewards predicting the majority: 90 men and 10 women all
    predicted "man" score 0.9.

    Examples
    --------
    >>> accuracy_score(["m"] * 90 + ["w"] * 10, ["m"] * 100)
    0.9
    >>> accuracy_score([[1, 0], [1, 1]], [[1, 0], [0, 1]])
    0.5
    """
    return _accuracy(*targets(y_true, y_pred, sample_weight), normalize)


def _accuracy(kind, yt, yp, w, normalize):
    if kind == "multilabel":
        correct = (yt == yp).all(axis=1)  # subset accuracy: the whole row right
        if normalize:
            return float(np.average(correct, weights=w))
        if w is None:
            return float(correct.sum())
        return float(np.dot(correct, w))
    counts = class_counts_of(yt, yp, None, w)
    correct = float(counts.tp.sum())
    if normalize:
        return ratio(correct, counts.total)
    return correct


def _set_wise_counts(y_true, y_pred, average, labels, pos_label, sample_weight):
    """``(tp, predicted, actual, weights)`` as scikit-learn's set-wise rules choose them."""
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight, labels)
    need = "binary"
    if average == "samples":
        need = "multilabel"
    check_rules(_KIND_RULES, kind=kind, average=average, samplewise=False, need=need)
    if average != "binary" and pos_label not in (None, 1):
        warn_at_caller(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single "
            "positive class.", UserWarning)
    if kind == "multilabel":
        tp, predicted, actual = multilabel_counts(yt, yp, w, samplewise=average == "samples")
        # scikit-learn rebuilds the sums as tp + fp and tp + fn: the same last bits
        return tp, tp + (predicted - tp), tp + (actual - tp), w
    if average == "binary":
        classes = encode_labels(yt, yp)[0]
        if position_of(pos_label, classes) < 0:  # one class present, and not pos_label
            return _no_counts(w)
        labels = [pos_label]
    c = class_counts_of(yt, yp, labels, w)
    return c.tp, c.tp + (c.predicted - c.tp), c.tp + (c.support - c.tp), None


def _no_counts(w):
    """tp, predicted and actual of a positive class that does not occur: zeros."""
    dtype = int
    if w is not None:
        dtype = float
    zero = np.zeros(1, dtype=dtype)
    return zero, zero, zero, None


@validate_params(beta=BETA, warn_for=WARN_FOR, **_SET_WISE)
def precision_recall_fscore_support(y_true: ArrayLike, y_pred: ArrayLike, *, beta: float = 1.0,
                                    labels: ArrayLike | None = None, pos_label: int | str = 1,
                                    average: str | None = None,
                                    warn_for: tuple = ("precision", "recall", "f-score"),
                                    sample_weight: ArrayLike | None = None,
                                    zero_division: str | float = "warn") -> tuple:
    """Precision, recall, F-beta and support per class, or averaged.

    For class c: ``P_c = tp_c / predicted_c``, ``R_c = tp_c / support_c`` and
    ``F_c = (1 + β²)·tp_c / (β²·support_c + predicted_c)``
    (= (1 + β²)·P·R / (β²·P + R)). Averages: ``"binary"`` reports ``pos_label``
    only; ``"micro"`` divides the summed counts (for single-label data
    P = R = F = accuracy); ``"macro"`` is the plain mean over classes;
    ``"weighted"`` the mean weighted by support; ``"samples"`` (multilabel
    only) the mean over samples of each sample's P, R, F over its labels;
    ``None`` returns per-class arrays. Multilabel indicator matrices (n x L,
    0/1) count each label (column) as a binary problem, as scikit-learn. A
    0/0 takes ``zero_division`` ("warn": 0.0 and an
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
    >>> precision_recall_fscore_support([[1, 0, 1], [0, 1, 1]], [[1, 1, 0], [0, 1, 1]],
    ...                                 average="samples")[:3]
    (0.75, 0.75, 0.75)
    """
    return _prfs(y_true, y_pred, beta, labels, pos_label, average, warn_for, sample_weight,
                 zero_division)


def _prfs(y_true, y_pred, beta, labels, pos_label, average, warn_for, sample_weight,
          zero_division):
    """:func:`precision_recall_fscore_support` once its options are checked."""
    tp, predicted, actual, w = _set_wise_counts(y_true, y_pred, average, labels, pos_label,
                                                sample_weight)
    return prf(tp, predicted, actual, beta=beta, average=average, zero_division=zero_division,
               warn_for=warn_for, weights=w)


@validate_params(**_SET_WISE)
def precision_score(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                    pos_label: int | str = 1, average: str = "binary",
                    sample_weight: ArrayLike | None = None,
                    zero_division: str | float = "warn") -> float | np.ndarray:
    """Precision (精确率) = tp / (tp + fp): of the samples predicted positive, the share that are.

    See :func:`precision_recall_fscore_support` for ``average`` and
    ``zero_division``.

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    precision, _, _, _ = _prfs(y_true, y_pred, 1.0, labels, pos_label, average,
                               ("precision",), sample_weight, zero_division)
    return precision


@validate_params(**_SET_WISE)
def recall_score(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                 pos_label: int | str = 1, average: str = "binary",
                 sample_weight: ArrayLike | None = None,
                 zero_division: str | float = "warn") -> float | np.ndarray:
    """Recall (召回率) = tp / (tp + fn): of the positive samples, the share found.

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    _, recall, _, _ = _prfs(y_true, y_pred, 1.0, labels, pos_label, average, ("recall",),
                            sample_weight, zero_division)
    return recall


@validate_params(beta=BETA, **_SET_WISE)
def fbeta_score(y_true: ArrayLike, y_pred: ArrayLike, *, beta: float,
                labels: ArrayLike | None = None, pos_label: int | str = 1, average: str = "binary",
                sample_weight: ArrayLike | None = None,
                zero_division: str | float = "warn") -> float | np.ndarray:
    """F-beta = (1 + β²)·P·R / (β²·P + R): recall counts β times as much as precision.

    Examples
    --------
    >>> round(fbeta_score([0, 1, 1, 0], [1, 1, 1, 0], beta=2), 4)
    0.9091
    """
    _, _, fscore, _ = _prfs(y_true, y_pred, beta, labels, pos_label, average, ("f-score",),
                            sample_weight, zero_division)
    return fscore


@validate_params(**_SET_WISE)
def f1_score(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
             pos_label: int | str = 1, average: str = "binary",
             sample_weight: ArrayLike | None = None,
             zero_division: str | float = "warn") -> float | np.ndarray:
    """F1 (F1值) = 2·P·R / (P + R), the harmonic mean of precision and recall.

    Examples
    --------
    >>> round(f1_score([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2], average="macro"), 4)
    0.6556
    """
    _, _, fscore, _ = _prfs(y_true, y_pred, 1.0, labels, pos_label, average, ("f-score",),
                            sample_weight, zero_division)
    return fscore


_DEFINITIONS = {
    "mean_of_f1": "the mean of the per-class F1, as scikit-learn",
    "f1_of_means": "the harmonic mean of macro precision and macro recall",
}


@validate_params(definition=Options(_DEFINITIONS), zero_division=ZERO_DIVISION)
def macro_f1(y_true: ArrayLike, y_pred: ArrayLike, *, definition: str = "mean_of_f1",
             labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None,
             zero_division: str | float = "warn") -> float:
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
    warned = ("f-score",)
    if definition == "f1_of_means":
        warned = ("precision", "recall", "f-score")
    p, r, f, _ = _prfs(y_true, y_pred, 1.0, labels, 1, "macro", warned, sample_weight,
                       zero_division)
    if definition == "mean_of_f1":
        return f
    return ratio(2 * p * r, p + r, zero_division=zero_division, what="F1 of macro means",
                 because="macro precision and recall both 0")



# -- more metrics of the same counts ---------------------------------------------------

def _is_multilabel(v):
    return v["kind"] == "multilabel"


_SINGLE_LABEL = ((_is_multilabel, "y_true and y_pred must be label vectors: {what} does not "
                                  "support multilabel-indicator targets"),)


def _label_counts(y_true, y_pred, sample_weight, what):
    """Per-class counts of two label vectors (multilabel refused, naming the metric)."""
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight)
    check_rules(_SINGLE_LABEL, kind=kind, what=what)
    return class_counts_of(yt, yp, None, w)


@validate_params(adjusted=Bool())
def balanced_accuracy_score(y_true: ArrayLike, y_pred: ArrayLike, *,
                            sample_weight: ArrayLike | None = None,
                            adjusted: bool = False) -> float:
    """Balanced accuracy (平衡准确率): the mean of the per-class recalls.

    ``BA = (1/m) Σ_c tp_c / support_c`` over the m classes present in
    ``y_true`` (a class only predicted has no recall: it is left out with a
    warning, as in scikit-learn). Under imbalance it does not reward
    predicting the majority: 90 men and 10 women all predicted "man" score
    0.5, where accuracy says 0.9. ``adjusted=True`` rescales so chance is 0
    and perfect 1: ``(BA − 1/m) / (1 − 1/m)``.

    Examples
    --------
    >>> balanced_accuracy_score(["m"] * 90 + ["w"] * 10, ["m"] * 100)
    0.5
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1], adjusted=True)
    0.25
    """
    c = _label_counts(y_true, y_pred, sample_weight, "balanced_accuracy_score")
    present = c.support > 0
    if not present.all():
        warn_at_caller("y_pred contains classes not in y_true", UserWarning)
    score = np.mean(ratio(c.tp[present], c.support[present]))  # the recalls of present classes
    if adjusted:
        chance = 1 / np.count_nonzero(present)
        with np.errstate(divide="ignore", invalid="ignore"):  # one class: nan, as scikit-learn
            score = (score - chance) / (1 - chance)
    return float(score)


def matthews_corrcoef(y_true: ArrayLike, y_pred: ArrayLike, *,
                      sample_weight: ArrayLike | None = None) -> float:
    """Matthews correlation coefficient (马修斯相关系数), binary or multiclass (Gorodkin's R_K).

    From the per-class counts, with ``n`` samples, ``c = Σ tp`` correct,
    ``t_k`` = support and ``p_k`` = predicted of class k:

    ``MCC = (c·n − Σ t_k p_k) / sqrt((n² − Σ p_k²)(n² − Σ t_k²))``

    For two classes it is ``(tp·tn − fp·fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn))``:
    1 perfect, 0 chance, −1 always wrong. When the denominator is 0 (one
    class predicted or present) it is 0.0, as scikit-learn (no warning).

    Examples
    --------
    >>> round(matthews_corrcoef([1, 1, 1, -1], [1, -1, 1, 1]), 4)
    -0.3333
    """
    c = _label_counts(y_true, y_pred, sample_weight, "matthews_corrcoef")
    t_sum = c.support.astype(np.float64)
    p_sum = c.predicted.astype(np.float64)
    n = float(p_sum.sum())
    cov_tp = float(c.tp.sum()) * n - np.dot(t_sum, p_sum)
    cov_pp = n ** 2 - np.dot(p_sum, p_sum)
    cov_tt = n ** 2 - np.dot(t_sum, t_sum)
    if cov_pp * cov_tt == 0:
        return 0.0
    return float(cov_tp / np.sqrt(cov_pp * cov_tt))


_KAPPA_WEIGHTS = Options({None: "disagreement 1 off the diagonal",
                          "linear": "|i − j|", "quadratic": "(i − j)²"})


def _undefined(message, replace_undefined_by, key=None):
    """Warn that a metric is undefined (scikit-learn's words) and give its replacement value.

    ``replace_undefined_by`` is a value, or a dict of values by ``key``.
    """
    warn_at_caller(message, UndefinedMetricWarning)
    if isinstance(replace_undefined_by, dict):
        return float(replace_undefined_by[key])
    return replace_undefined_by


_KAPPA_UNDEFINED = (" `cohen_kappa_score` is undefined and set to the value defined by the "
                    "`replace_undefined_by` param, which is set to {}.")


@validate_params(weights=_KAPPA_WEIGHTS,
                 replace_undefined_by=[Real(-1, 1), Options({np.nan: ""})])
def cohen_kappa_score(y1: ArrayLike, y2: ArrayLike, *, labels: ArrayLike | None = None,
                      weights: str | None = None, sample_weight: ArrayLike | None = None,
                      replace_undefined_by: float = np.nan) -> float:
    """Cohen's kappa (科恩卡帕系数): agreement of two raters beyond chance.

    From the confusion matrix ``C`` of ``y1`` against ``y2`` (over
    ``labels``, in their order), its row and column sums and a disagreement
    weight matrix ``W``: ``κ = 1 − Σ W·C / Σ W·E`` with
    ``E = outer(col sums, row sums) / n`` the counts expected by chance.
    ``weights=None``: W = 1 off the diagonal (plain kappa); ``"linear"``:
    ``|i − j|``; ``"quadratic"``: ``(i − j)²`` (ordinal labels, in the order
    of ``labels``). Undefined (no sample in the matrix, or chance
    disagreement 0): ``replace_undefined_by`` (nan by default) and an
    UndefinedMetricWarning, as scikit-learn 1.9.

    Examples
    --------
    >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 1]), 4)
    0.2
    >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 1], weights="quadratic"), 4)
    0.6364
    """
    cm = _confusion(y1, y2, labels, sample_weight).astype(np.float64)
    undefined = _KAPPA_UNDEFINED.format(replace_undefined_by)
    n = cm.sum(axis=0).sum()
    if n == 0:
        message = "`y2` contains no labels that are present in both `y1` and `labels`."
        return _undefined(message + undefined, replace_undefined_by)
    expected = np.outer(cm.sum(axis=0), cm.sum(axis=1)) / n
    disagreement = _disagreement_weights(len(cm), weights)
    chance = np.sum(disagreement * expected)
    if chance == 0:
        message = "`y1`, `y2` and `labels` have only one label in common."
        return _undefined(message + undefined, replace_undefined_by)
    return float(1 - np.sum(disagreement * cm) / chance)


def _disagreement_weights(n_classes, weights):
    """Kappa's weight of each cell (i, j): 1 off the diagonal, ``|i − j|`` or ``(i − j)²``."""
    steps = np.arange(n_classes)
    gap = np.abs(steps[:, None] - steps[None, :]).astype(np.float64)
    if weights == "linear":
        return gap
    if weights == "quadratic":
        return gap ** 2
    return gap > 0


@validate_params(**{**_SET_WISE, "zero_division": Options({"warn": "", 0.0: "", 1.0: ""})})
def jaccard_score(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                  pos_label: int | str = 1, average: str = "binary",
                  sample_weight: ArrayLike | None = None,
                  zero_division: str | float = "warn") -> float | np.ndarray:
    """Jaccard index (杰卡德系数, intersection over union) = tp / (tp + fp + fn).

    Per class, or per sample for ``average="samples"`` (multilabel), from
    the same counts as :func:`precision_recall_fscore_support`; it equals
    F1 / (2 − F1). Averages as there (``"micro"`` divides the summed
    counts; ``"weighted"`` weighs by support). A class with no true or
    predicted sample takes ``zero_division`` ("warn": 0.0 and an
    UndefinedMetricWarning; 0.0 or 1.0 -- scikit-learn's jaccard_score
    takes no nan).

    Examples
    --------
    >>> jaccard_score([0, 1, 2, 2], [0, 2, 1, 2], average=None).round(4).tolist()
    [1.0, 0.0, 0.3333]
    >>> round(jaccard_score([[0, 1, 1], [1, 1, 0]], [[1, 1, 1], [1, 0, 0]], average="samples"), 4)
    0.5833
    """
    tp, predicted, actual, w = _set_wise_counts(y_true, y_pred, average, labels, pos_label,
                                                sample_weight)
    union = predicted + actual - tp
    if average == "micro":
        tp = tp.sum(keepdims=True)
        union = union.sum(keepdims=True)
    per, counted = "labels", "samples"  # "in labels with no true or predicted samples"
    if average == "samples":
        per, counted = "samples", "labels"
    scores = ratio(tp, union, zero_division=zero_division, what="Jaccard", per=per,
                   because=f"no true or predicted {counted}")
    if average is None:
        return scores
    weights = None
    if average == "weighted" and np.any(actual):
        weights = actual
    elif average == "samples":
        weights = w
    return float(np.average(scores, weights=weights))


def hamming_loss(y_true: ArrayLike, y_pred: ArrayLike, *,
                 sample_weight: ArrayLike | None = None) -> float:
    """Hamming loss (汉明损失): the share of labels predicted wrong.

    Label vectors: ``1 − Σ tp / n`` (= 1 − accuracy). Multilabel indicator
    matrices (n x L): the wrong cells ``Σ_labels (fp + fn)`` over ``n·L``,
    so a sample with one of three labels wrong counts 1/3 (subset accuracy
    would count it wholly wrong). Weighted counts with ``sample_weight``.

    Examples
    --------
    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> hamming_loss([[0, 1], [1, 1]], [[0, 0], [0, 0]])
    0.75
    """
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight)
    if kind != "multilabel":
        return _wrong(yt, yp, w, normalize=True)
    tp, predicted, actual = multilabel_counts(yt, yp, w)
    n = len(yt)
    if w is not None:
        n = float(w.sum())
    wrong_cells = float(np.sum(predicted + actual - 2 * tp))  # fp + fn of every label
    return wrong_cells / (yt.shape[1] * n)


@validate_params(normalize=Bool())
def zero_one_loss(y_true: ArrayLike, y_pred: ArrayLike, *, normalize: bool = True,
                  sample_weight: ArrayLike | None = None) -> float:
    """Zero-one loss (0-1损失) = 1 − accuracy: the share of samples predicted wrong.

    ``normalize=False``: the number (weight) of wrong samples. Multilabel:
    a sample is wrong unless its whole row is right (1 − subset accuracy).

    Examples
    --------
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4]), zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4],
    ...                                                          normalize=False)
    (0.25, 1.0)
    """
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight)
    if kind != "multilabel":
        return _wrong(yt, yp, w, normalize)
    score = _accuracy(kind, yt, yp, w, normalize)
    if normalize:
        return 1 - score
    if w is None:
        return len(yt) - score
    return float(w.sum()) - score


def _wrong(yt, yp, w, normalize):
    """The weight of the wrong predictions (off the diagonal: Σ predicted − tp), or its share.

    Summed from the misses themselves, not as total − correct: no predictions
    wrong is exactly 0, as scikit-learn's mean of ``y_true != y_pred``.
    """
    c = class_counts_of(yt, yp, None, w)
    wrong = float(np.sum(c.predicted - c.tp))
    if normalize:
        return ratio(wrong, c.total)
    return wrong


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _lr_values(v):
    """``{"LR+": value >= 1 or nan, "LR-": value in [0, 1] or nan}``."""
    if set(v) != {"LR+", "LR-"} or not all(_is_number(x) for x in v.values()):
        return False
    positive, negative = v["LR+"], v["LR-"]
    positive_ok = positive != positive or positive >= 1
    negative_ok = negative != negative or 0 <= negative <= 1
    return positive_ok and negative_ok


def _lr_option(v):
    """``replace_undefined_by``: nan, 1.0, or a value for each ratio."""
    if isinstance(v, dict):
        return _lr_values(v)
    return isinstance(v, float) and (v != v or v == 1.0)


def _not_two(v):
    return v["n"] != 2


def _float_or_dict(v):
    return isinstance(v, (float, dict))


_LR_UNDEFINED = Satisfies(_lr_option, "np.nan, 1.0 or {'LR+': value >= 1 or nan, "
                          "'LR-': value in [0, 1] or nan}", of=_float_or_dict)
_NEED_TWO = ((_not_two, "y_true and y_pred must hold a binary problem: class_likelihood_ratios "
                        "needs exactly two labels (give labels=[negative, positive]); got {n}"),)
_LR_WARN = " Use the `replace_undefined_by` param to control this behavior. To suppress this " \
           "warning or turn it into an error, see Python's `warnings` module and " \
           "`warnings.catch_warnings()`."


@validate_params(replace_undefined_by=_LR_UNDEFINED)
def class_likelihood_ratios(y_true: ArrayLike, y_pred: ArrayLike, *,
                            labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None,
                            replace_undefined_by: float = np.nan) -> tuple[float, float]:
    """Positive and negative likelihood ratios (似然比) of a binary prediction.

    From the 2 x 2 counts (the second of ``labels`` -- by default the larger
    label -- is positive), ``P = tp + fn``, ``N = fp + tn``:

    * ``LR+ = sensitivity / (1 − specificity) = (tp / P) / (fp / N)``;
    * ``LR− = (1 − sensitivity) / specificity = (fn / P) / (tn / N)``.

    LR+ > 1 and LR− < 1 mean a prediction that changes the odds of the
    positive class. Undefined ratios (``fp = 0`` for LR+, ``tn = 0`` for LR−,
    no positive sample for both) are nan with an UndefinedMetricWarning, or
    ``replace_undefined_by``: 1.0 for both or ``{"LR+": ..., "LR-": ...}``
    (scikit-learn 1.9; its removed ``raise_warning`` is not offered).

    Returns
    -------
    (positive_likelihood_ratio, negative_likelihood_ratio) : tuple of float

    Examples
    --------
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    """
    _, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt))
    if labels is not None:
        labels = check_label_list(labels, classes=yt, in_y_true=yt)
    labels, cm = confusion_counts(yt, yp, labels, w)
    check_rules(_NEED_TWO, n=len(labels))
    (tn, fp), (fn, tp) = cm.astype(np.float64)
    if tp + fn == 0:
        warn_at_caller("No samples of the positive class are present in `y_true`. "
                       "`positive_likelihood_ratio` and `negative_likelihood_ratio` are both "
                       "set to `np.nan`." + _LR_WARN, UndefinedMetricWarning)
    lr_pos = _positive_lr(tp, fp, fn, tn, replace_undefined_by)
    lr_neg = _negative_lr(tp, fp, fn, tn, replace_undefined_by)
    return float(lr_pos), float(lr_neg)


def _positive_lr(tp, fp, fn, tn, replace_undefined_by):
    """LR+ = (tp / P) / (fp / N); undefined when fp = 0 (warned), nan when P = 0."""
    positives = tp + fn
    negatives = tn + fp
    if fp == 0:
        start = "`positive_likelihood_ratio` is ill-defined and "
        if tp == 0:
            start = ("No samples were predicted for the positive class and "
                     "`positive_likelihood_ratio` is ")
        message = start + "set to `np.nan`." + _LR_WARN
        return _undefined(message, replace_undefined_by, "LR+")
    if positives == 0:  # no positive sample: undefined, warned once for both
        return np.nan
    return tp * negatives / (fp * positives)


def _negative_lr(tp, fp, fn, tn, replace_undefined_by):
    """LR− = (fn / P) / (tn / N); undefined when tn = 0 (warned), nan when P = 0."""
    positives = tp + fn
    negatives = tn + fp
    if tn == 0:
        message = "`negative_likelihood_ratio` is ill-defined and set to `np.nan`." + _LR_WARN
        return _undefined(message, replace_undefined_by, "LR-")
    if positives == 0:
        return np.nan
    return fn * negatives / (tn * positives)
