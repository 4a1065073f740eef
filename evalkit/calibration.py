"""Are the scores probabilities? Brier score, log loss, reliability curves and ECE.

A ranking metric such as the AUC only looks at the order of the scores: add
a constant to every score and the AUC does not move (the recommender-metrics
post makes the point), but the scores stop being probabilities. The
metrics here look at the values themselves:

* :func:`brier_score_loss` and :func:`log_loss` -- scikit-learn's mirrors,
  same arguments, numbers and refusals;
* :func:`calibration_curve` -- scikit-learn's reliability curve: bin the
  predicted probabilities, compare each bin's mean prediction with its
  share of positives;
* :func:`expected_calibration_error` and :func:`maximum_calibration_error`
  -- the bin-weighted mean and the largest of those gaps, with the binning
  named (``strategy="uniform"`` equal-width bins, ``"quantile"`` equal-mass
  bins).

:func:`evalkit.plot.reliability` draws the reliability diagram.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._counts import calibration_bins
from ._validation import (BINARY_PROBA, CALIBRATION_BINS, Bool, Options, check_indicator,
                          check_labels, check_real, check_rules, check_same_length,
                          check_sample_weight, positive_of, validate_params)
from .exceptions import warn_at_caller

__all__ = ["brier_score_loss", "log_loss", "calibration_curve", "expected_calibration_error",
           "maximum_calibration_error"]

def _has_missing(v):
    return v["missing"]


def _fewer_than_two(v):
    return len(v["classes"]) < 2


def _other_count(v):
    return len(v["classes"]) != v["n"]


_ONE_HOT_RULES = (  # y_true against the classes and the columns of y_proba
    (_has_missing, "y_true contains values {missing} not belonging to the passed labels "
                   "{classes}."),
    (_fewer_than_two, "{who} needs at least two labels, got {classes}: give every class "
                      "through the labels argument"),
    (_other_count, "y_true and y_proba contain different numbers of classes: {c} vs {n}. Give "
                   "the labels explicitly through labels=; classes found: {classes}"))


def _classes_of(y, labels):
    """The sorted classes: of ``labels`` when given (warning when they were not sorted)."""
    if labels is None:
        return np.unique(y)
    classes = np.unique(check_labels(labels, "labels"))
    if not np.array_equal(classes, np.asarray(labels)):
        warn_at_caller(f"Labels passed were {list(labels)}. But this function assumes labels "
                       f"are ordered lexicographically. Pass the ordered labels="
                       f"{classes.tolist()} and ensure that the columns of y_proba correspond "
                       "to this ordering.", UserWarning)
    return classes


def _check_classes(classes, missing, p, labels):
    """The classes of ``y_true`` (``missing``: its labels not among them) against ``p``."""
    who = "labels"
    if labels is None:
        who = "y_true"
    check_rules(_ONE_HOT_RULES, missing=missing, classes=classes.tolist(), c=len(classes),
                n=p.shape[1], who=who)


def _one_hot(y_true, labels, p):
    """The one-hot matrix LabelBinarizer would make of ``y_true`` (labels or one-hot).

    Its classes are checked against the columns of the probabilities ``p``, its rows counted.
    """
    if np.ndim(y_true) == 2 and labels is None:  # already one-hot (a label indicator matrix)
        onehot = check_indicator(y_true, "y_true")
        _check_classes(np.arange(onehot.shape[1]), set(), p, labels)
    else:
        y = check_labels(y_true, "y_true")
        classes = _classes_of(y, labels)
        missing = set(np.setdiff1d(y, classes).tolist())
        _check_classes(classes, missing, p, labels)
        onehot = np.searchsorted(classes, y)[:, None] == np.arange(len(classes))
    check_same_length(y_true=onehot, y_proba=p)
    return onehot


def _check_sums(y_proba):
    eps = np.finfo(y_proba.dtype).eps
    if not np.allclose(y_proba.sum(axis=1), 1, rtol=np.sqrt(eps), atol=1e-8):
        warn_at_caller("The y_prob values do not sum to one. Make sure to pass probabilities.",
                       UserWarning)


def _average(values, w, normalize=True):
    """The (weighted) mean of per-sample values, or their (weighted) sum unless ``normalize``."""
    if w is None and normalize:
        return float(values.mean())
    if w is None:
        return float(values.sum())
    if normalize:
        return float(np.average(values, weights=w))
    return float(np.dot(values, w))


def _two_columns(p):
    """1-D probabilities of the positive class as two columns: (1 - p, p)."""
    return np.stack([1 - p, p], axis=1)


# -- the scikit-learn mirrors ---------------------------------------------------------


@validate_params(scale_by_half=[Options({"auto": "halve for 1-D or 2-column input"}), Bool()])
def brier_score_loss(y_true: ArrayLike, y_proba: ArrayLike, *,
                     sample_weight: ArrayLike | None = None, pos_label: int | str | None = None,
                     labels: ArrayLike | None = None, scale_by_half: bool | str = "auto") -> float:
    """Brier score: the mean squared distance between predicted probabilities and outcomes.

    ``BS = (1/n) Σ_i Σ_c (p_ic - y_ic)²`` over the one-hot outcomes ``y_ic``,
    halved when ``scale_by_half`` (by default for binary input, where it is
    the familiar ``(1/n) Σ (p_i - y_i)²`` on the positive class). Lower is
    better; 0 is perfect; always predicting the base rate p gives
    ``p(1 - p)``. Proper: it rewards honest probabilities. scikit-learn's
    function, same arguments and numbers; one deviation: a ``pos_label``
    that is not one of two labels present is refused (scikit-learn would
    count no positives).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Labels, or their one-hot matrix (as scikit-learn).
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities of ``pos_label`` (1-D) or of each class (2-D, columns in
        sorted label order), in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : int, float, bool or str, default=None
        1-D only; default 1 for labels {0, 1} / {-1, 1}, else the larger label.
    labels : array-like, default=None
        2-D only: the classes naming the columns (default: those of y_true).
    scale_by_half : bool or "auto", default="auto"
        Halve the sum over classes; "auto" halves for 1-D or 2-column input.

    Returns
    -------
    float

    Examples
    --------
    >>> brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])
    0.0375
    >>> round(brier_score_loss([0, 1, 2], [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.3, 0.6]]), 4)
    0.1533
    """
    p = check_real(y_proba, "y_proba", ndim=(1, 2), proba=True)
    if (p.ndim == 1 or p.shape[1] == 1) and np.ndim(y_true) == 1:
        y = check_labels(y_true, "y_true")
        check_same_length(y_true=y, y_proba=p)
        binary = BINARY_PROBA.format(what="y_proba")
        pos = positive_of(y, pos_label, larger="numbers", binary=binary)
        onehot = np.stack([~pos, pos], axis=1)
        p = _two_columns(p.reshape(len(p), -1)[:, 0])
    else:
        if p.ndim == 1:
            p = _two_columns(p)
        onehot = _one_hot(y_true, labels, p)
        _check_sums(p)
    per = ((onehot.astype(p.dtype) - p) ** 2).sum(axis=1)
    w = check_sample_weight(sample_weight, len(p))
    score = _average(per, w)
    if scale_by_half == "auto":  # p has two columns or more by now
        scale_by_half = p.shape[1] < 3
    if scale_by_half:
        return score * 0.5
    return score


@validate_params(normalize=Bool())
def log_loss(y_true: ArrayLike, y_proba: ArrayLike, *, normalize: bool = True,
             sample_weight: ArrayLike | None = None, labels: ArrayLike | None = None) -> float:
    """Log loss (cross-entropy, 对数损失): the mean negative log-probability of the true class.

    ``L = -(1/n) Σ_i log p_{i, y_i}`` (binary: ``-(1/n) Σ y log p + (1 - y)
    log(1 - p)``), natural log, probabilities clipped to ``[eps, 1 - eps]``
    with eps the machine epsilon of their dtype. Lower is better; a
    confident wrong answer costs a lot (``-log(eps)`` ≈ 36 at most).
    scikit-learn's function, same arguments, numbers, clipping and
    warnings (rows not summing to 1, unsorted ``labels``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Labels, or their one-hot matrix (as scikit-learn).
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the larger label; 2-D: one column per class
        in sorted label order. Clipped at the eps of its own dtype
        (float16, float32 or float64).
    normalize : bool, default=True
        The mean (True) or the sum (False) of the per-sample losses.
    sample_weight : array-like of shape (n_samples,), default=None
    labels : array-like, default=None
        The classes (default: those of y_true; at least two are needed).

    Returns
    -------
    float

    Examples
    --------
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    p = check_real(y_proba, "y_proba", ndim=(1, 2), proba=True)
    if p.ndim == 1 or p.shape[1] == 1:
        p = _two_columns(p.reshape(len(p), -1)[:, 0])
    onehot = _one_hot(y_true, labels, p)
    w = check_sample_weight(sample_weight, len(p))
    _check_sums(p)
    eps = np.finfo(p.dtype).eps
    clipped = np.clip(p, eps, 1 - eps)
    per = -np.where(onehot, np.log(clipped), 0).sum(axis=1)
    return _average(per, w, normalize)


@validate_params(**CALIBRATION_BINS)
def calibration_curve(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: int | str | None = None,
                      n_bins: int = 5,
                      strategy: str = "uniform") -> tuple[np.ndarray, np.ndarray]:
    """The reliability curve: observed share of positives against mean prediction, per bin.

    The predictions are put into ``n_bins`` bins -- ``"uniform"``: equal
    width on [0, 1]; ``"quantile"``: equal numbers of samples, edges at the
    quantiles of ``y_prob`` -- a prediction on an edge going to the lower
    bin (bins ``(e_k, e_{k+1}]``, the first closed). For each non-empty bin
    ``prob_true = positives / count`` and ``prob_pred = Σ predictions /
    count``; a calibrated model's points lie on the diagonal.
    scikit-learn's ``sklearn.calibration.calibration_curve``, same numbers
    and refusals; one deviation: a ``pos_label`` that is not one of two
    labels present is refused (scikit-learn would count no positives).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_prob : array-like of shape (n_samples,)
        Probabilities of ``pos_label``, in [0, 1].
    pos_label : int, float, bool or str, default=None
    n_bins : int, default=5
    strategy : {"uniform", "quantile"}, default="uniform"

    Returns
    -------
    prob_true, prob_pred : ndarray of shape (n_nonempty_bins,)

    Examples
    --------
    >>> prob_true, prob_pred = calibration_curve([0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.4, 0.8, 0.9],
    ...                                          n_bins=2)
    >>> prob_true.tolist(), [round(v, 4) for v in prob_pred.tolist()]
    ([0.3333, 0.6667], [0.2333, 0.7667])
    """
    bins = calibration_bins(y_true, y_prob, pos_label, n_bins, strategy)
    _, prob_true, prob_pred = bins.points()
    return prob_true, prob_pred


def _bins(y_true, y_proba, pos_label, n_bins, strategy, labels):
    """The :class:`~evalkit._counts.CalibrationBins`, binary or top-label."""
    scores = check_real(y_proba, "y_proba", ndim=(1, 2), proba=True)
    if scores.ndim == 1:
        if labels is not None:
            raise ValueError("labels is for 2-D y_proba (the top-label error); 1-D y_proba takes "
                             "pos_label")
        return calibration_bins(y_true, scores, pos_label, n_bins, strategy, "y_proba")
    y = check_labels(y_true, "y_true")
    check_same_length(y_true=y, y_proba=scores)
    who = "labels"
    if labels is None:
        who = "y_true"
        columns = np.unique(y)
    else:
        columns = check_labels(labels, "labels")
    if len(columns) != scores.shape[1]:
        raise ValueError(f"{who} has {len(columns)} classes but y_proba has {scores.shape[1]} "
                         "columns: give labels= naming the columns, one label per column")
    # top-label calibration (Guo et al. 2017): confidence = the largest probability,
    # correct = its class is the true one (ties: the first column, as argmax)
    top = np.argmax(scores, axis=1)
    correct = (columns[top] == y).astype(np.int64)
    confidence = scores[np.arange(len(y)), top].astype(np.float64)
    return calibration_bins(correct, confidence, 1, n_bins, strategy, "y_proba")


@validate_params(**CALIBRATION_BINS)
def expected_calibration_error(y_true: ArrayLike, y_proba: ArrayLike, *, n_bins: int = 10,
                               strategy: str = "uniform", pos_label: int | str | None = None,
                               labels: ArrayLike | None = None) -> float:
    """Expected calibration error: the bin-weighted mean gap between outcome rate and prediction.

    ``ECE = Σ_b (n_b / n) · |acc_b - conf_b|`` over the non-empty bins of
    :func:`calibration_curve` (same bins and edges), where ``acc_b`` is the
    share of positives in bin b and ``conf_b`` its mean prediction (Naeini
    et al. 2015; Guo et al. 2017). 0 for a perfectly calibrated model.

    Conventions, named: the binning is ``strategy="uniform"`` (``n_bins``
    equal-width bins, Guo et al.'s ECE, the default) or ``"quantile"``
    (equal-mass bins, the "adaptive" ECE of Nixon et al. 2019); ``n_bins``
    changes the number (10 is the usual default, calibration_curve's is 5).
    1-D ``y_proba`` is the probability of ``pos_label`` (binary ECE); 2-D
    ``y_proba`` (one column per class) gives the top-label ECE of Guo et
    al.: confidence = the largest probability, correct = its class is the
    true one. The L1 gap is used (the L2 and max variants: see
    :func:`maximum_calibration_error`). ECE is biased upward on small
    samples and depends on the binning: compare models with the same bins.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    n_bins : int, default=10
    strategy : {"uniform", "quantile"}, default="uniform"
    pos_label : int, float, bool or str, default=None
        1-D ``y_proba`` only.
    labels : array-like, default=None
        2-D ``y_proba`` only: the label of each column (default: the sorted
        classes of ``y_true``).

    Returns
    -------
    float

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> p = [0.1, 0.2, 0.6, 0.4, 0.8, 0.9]
    >>> round(expected_calibration_error(y, p, n_bins=2), 4)  # (3·0.1 + 3·0.1) / 6
    0.1
    """
    return _bins(y_true, y_proba, pos_label, n_bins, strategy, labels).ece()


@validate_params(**CALIBRATION_BINS)
def maximum_calibration_error(y_true: ArrayLike, y_proba: ArrayLike, *, n_bins: int = 10,
                              strategy: str = "uniform", pos_label: int | str | None = None,
                              labels: ArrayLike | None = None) -> float:
    """Maximum calibration error: the largest gap ``max_b |acc_b - conf_b|`` over non-empty bins.

    Same bins and conventions as :func:`expected_calibration_error` (Naeini
    et al. 2015). Sensitive to sparse bins: a bin of one sample can set it.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> p = [0.1, 0.2, 0.6, 0.4, 0.8, 0.9]
    >>> round(maximum_calibration_error(y, p, n_bins=2), 4)
    0.1
    """
    bins = _bins(y_true, y_proba, pos_label, n_bins, strategy, labels)
    _, accuracy, confidence = bins.points()
    return float(np.abs(accuracy - confidence).max())
