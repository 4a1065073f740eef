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

from ._validation import (
    check_choice,
    check_integer,
    check_labels,
    check_same_length,
    check_sample_weight,
    check_scores,
)
from .exceptions import warn_at_caller

__all__ = [
    "brier_score_loss",
    "log_loss",
    "calibration_curve",
    "expected_calibration_error",
    "maximum_calibration_error",
]

_STRATEGIES = {"uniform": "equal-width bins on [0, 1]",
               "quantile": "equal-mass bins at the quantiles of y_prob"}


# -- input ---------------------------------------------------------------------------


def _probabilities(y_prob, name):
    """Probabilities as a float array (float32 kept, as scikit-learn computes in it)."""
    if y_prob is None:
        raise TypeError(f"{name} is required, got None")
    arr = np.asarray(y_prob)
    if arr.ndim == 0:
        raise TypeError(f"{name} must be an array-like of probabilities, got the scalar {y_prob!r}")
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}") from None
    if arr.dtype.kind != "f" or arr.dtype == np.float16:
        arr = arr.astype(np.float64)
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D or 2-D (n samples x C classes), got an array of "
                         f"shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN" if np.isnan(arr).any()
                         else f"{name} contains infinite values")
    if arr.max() > 1:
        raise ValueError(f"{name} contains values greater than 1 such as {arr.max().item()!r}: "
                         "give probabilities, not decision scores")
    if arr.min() < 0:
        raise ValueError(f"{name} contains values less than 0 such as {arr.min().item()!r}: "
                         "give probabilities, not decision scores")
    return arr


def _binary_positive(y, pos_label, what, larger=False):
    """The positive mask of binary ``y`` (scikit-learn's pos_label rule).

    ``pos_label=None`` means 1 for labels in {0, 1} or {-1, 1}; other labels
    need ``pos_label``, except that with ``larger=True`` (the Brier score's
    rule) numeric labels take the larger one.
    """
    classes = np.unique(y)
    if len(classes) > 2:
        raise ValueError(f"y_true has {len(classes)} classes but {what} is binary here: give a "
                         "2-D y_prob (one column per class) or one class's labels")
    if pos_label is None:
        ok = classes.dtype.kind in "biuf" and (set(classes.tolist()) <= {0, 1}
                                               or set(classes.tolist()) <= {-1, 1})
        if ok:
            pos_label = 1
        elif larger and classes.dtype.kind in "biuf":
            pos_label = classes[-1].item()
        else:
            raise ValueError(f"y_true takes values in {classes.tolist()} and pos_label is not "
                             "specified: either make y_true take values in {0, 1} or {-1, 1}, "
                             "or pass pos_label (the class whose probability y_prob is)")
    elif len(classes) == 2 and pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label!r} is not a valid label: it should be one of "
                         f"{classes.tolist()}")
    return y == pos_label


def _one_hot(y_true, labels, n_columns):
    """``(one-hot matrix, classes)`` as LabelBinarizer would encode ``y_true``."""
    y = check_labels(y_true, "y_true")
    if labels is not None:
        lab = check_labels(labels, "labels")
        classes = np.unique(lab)
        if not np.array_equal(classes, lab):
            warn_at_caller(f"Labels passed were {lab.tolist()}. But this function assumes labels "
                           f"are ordered lexicographically. Pass the ordered labels="
                           f"{classes.tolist()} and ensure that the columns of y_prob correspond "
                           "to this ordering.", UserWarning)
        missing = np.setdiff1d(y, classes)
        if missing.size:
            raise ValueError(f"y_true contains values {set(missing.tolist())} not belonging to "
                             f"the passed labels {lab.tolist()}.")
        if len(classes) < 2:
            raise ValueError(f"labels needs at least two labels, got {classes.tolist()}")
    else:
        classes = np.unique(y)
        if len(classes) < 2:
            raise ValueError(f"y_true contains only one label ({classes[0].item()!r}): give "
                             "every class through the labels argument")
    if len(classes) != n_columns:
        if labels is None:
            raise ValueError(f"y_true and y_prob contain different numbers of classes: "
                             f"{len(classes)} vs {n_columns}. Give the labels explicitly "
                             f"through labels=; classes found in y_true: {classes.tolist()}")
        raise ValueError(f"labels has {len(classes)} classes but y_prob has {n_columns} "
                         f"columns; classes in labels: {classes.tolist()}")
    codes = np.searchsorted(classes, y)
    return (codes[:, None] == np.arange(len(classes))), y


def _two_columns(y_prob):
    p = y_prob[:, 0] if y_prob.ndim == 2 else y_prob
    return np.stack([1 - p, p], axis=1)


def _check_sums(y_prob):
    eps = np.finfo(y_prob.dtype).eps
    if not np.allclose(y_prob.sum(axis=1), 1, rtol=np.sqrt(eps), atol=1e-8):
        warn_at_caller("The y_prob values do not sum to one. Make sure to pass probabilities.",
                       UserWarning)


def _average(values, w, normalize=True):
    if w is None:
        return float(values.mean() if normalize else values.sum())
    return float(np.average(values, weights=w) if normalize else np.dot(values, w))


# -- the scikit-learn mirrors ---------------------------------------------------------


def brier_score_loss(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None,
                     scale_by_half="auto"):
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
    y_true : array-like of shape (n_samples,)
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
    if not (scale_by_half == "auto" or isinstance(scale_by_half, (bool, np.bool_))):
        raise ValueError(f"scale_by_half must be True, False or 'auto'; got {scale_by_half!r}")
    p = _probabilities(y_proba, "y_proba")
    if p.ndim == 1 or p.shape[1] == 1:
        y = check_labels(y_true, "y_true")
        check_same_length(y_true=y, y_proba=p)
        w = check_sample_weight(sample_weight, len(y))
        truth = _binary_positive(y, pos_label, "y_proba", larger=True).astype(p.dtype)
        probs = p if p.ndim == 1 else p[:, 0]
        per = 2 * (truth - probs) ** 2  # the one-hot sum: both columns contribute
    else:
        onehot, y = _one_hot(y_true, labels, p.shape[1])
        check_same_length(y_true=y, y_proba=p)
        w = check_sample_weight(sample_weight, len(y))
        _check_sums(p)
        per = ((onehot.astype(p.dtype) - p) ** 2).sum(axis=1)
    score = _average(per, w)
    if scale_by_half == "auto":
        scale_by_half = p.ndim == 1 or p.shape[1] < 3
    return score * 0.5 if scale_by_half else score


def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, labels=None):
    """Log loss (cross-entropy, 对数损失): the mean negative log-probability of the true class.

    ``L = -(1/n) Σ_i log p_{i, y_i}`` (binary: ``-(1/n) Σ y log p + (1 - y)
    log(1 - p)``), natural log, probabilities clipped to ``[eps, 1 - eps]``
    with eps the machine epsilon of their dtype. Lower is better; a
    confident wrong answer costs a lot (``-log(eps)`` ≈ 36 at most).
    scikit-learn's function, same arguments, numbers, clipping and
    warnings (rows not summing to 1, unsorted ``labels``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the larger label; 2-D: one column per class
        in sorted label order.
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
    if not isinstance(normalize, (bool, np.bool_)):
        raise TypeError(f"normalize must be True or False, got {normalize!r}")
    p = _probabilities(y_proba, "y_proba")
    if p.ndim == 1 or p.shape[1] == 1:
        p = _two_columns(p)
    onehot, y = _one_hot(y_true, labels, p.shape[1])
    check_same_length(y_true=y, y_proba=p)
    w = check_sample_weight(sample_weight, len(y))
    _check_sums(p)
    eps = np.finfo(p.dtype).eps
    clipped = np.clip(p, eps, 1 - eps)
    per = -np.where(onehot, np.log(clipped), 0).sum(axis=1)
    return _average(per, w, normalize)


def _bins(y_true, y_prob, pos_label, n_bins, strategy):
    """Per bin: count, sum of predictions, sum of outcomes (scikit-learn's binning)."""
    y = check_labels(y_true, "y_true")
    p = check_scores(y_prob, "y_prob").astype(np.float64, copy=False)
    check_same_length(y_true=y, y_prob=p)
    positive = _binary_positive(y, pos_label, "the calibration curve")
    if p.min() < 0 or p.max() > 1:
        raise ValueError("y_prob has values outside [0, 1]: give probabilities, not decision "
                         "scores")
    n_bins = check_integer(n_bins, "n_bins", minimum=1, meaning="the number of bins")
    check_choice(strategy, _STRATEGIES, "strategy")
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)  # a prediction on an edge belongs to the lower bin
    total = np.bincount(ids, minlength=n_bins)
    pred = np.bincount(ids, weights=p, minlength=n_bins)
    true = np.bincount(ids, weights=positive, minlength=n_bins)
    return total, pred, true


def calibration_curve(y_true, y_prob, *, pos_label=None, n_bins=5, strategy="uniform"):
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
    total, pred, true = _bins(y_true, y_prob, pos_label, n_bins, strategy)
    keep = total != 0
    return true[keep] / total[keep], pred[keep] / total[keep]


def _gaps(y_true, y_prob, pos_label, n_bins, strategy, labels):
    """(bin counts, |accuracy - confidence| per non-empty bin), binary or top-label."""
    p = np.asarray(y_prob) if y_prob is not None else None
    if p is not None and p.ndim == 2:
        # top-label calibration (Guo et al. 2017): confidence = the largest probability,
        # correct = its class is the true one (ties: the first column, as argmax)
        scores = _probabilities(p, "y_prob")
        y = check_labels(y_true, "y_true")
        check_same_length(y_true=y, y_prob=scores)
        if labels is None:
            columns = np.unique(y)
            if len(columns) != scores.shape[1]:
                raise ValueError(f"y_true has {len(columns)} classes but y_prob has "
                                 f"{scores.shape[1]} columns: give labels= naming the columns")
        else:
            columns = check_labels(labels, "labels")
            if len(columns) != scores.shape[1]:
                raise ValueError(f"labels has {len(columns)} entries but y_prob has "
                                 f"{scores.shape[1]} columns: give one label per column")
        top = np.argmax(scores, axis=1)
        correct = (columns[top] == y).astype(np.int64)
        confidence = scores[np.arange(len(y)), top].astype(np.float64)
        total, pred, true = _bins(correct, confidence, 1, n_bins, strategy)
    else:
        if labels is not None:
            raise ValueError("labels is for 2-D y_prob (the top-label error); 1-D y_prob "
                             "takes pos_label")
        total, pred, true = _bins(y_true, y_prob, pos_label, n_bins, strategy)
    keep = total != 0
    return total[keep], np.abs(true[keep] / total[keep] - pred[keep] / total[keep])


def expected_calibration_error(y_true, y_prob, *, n_bins=10, strategy="uniform", pos_label=None,
                               labels=None):
    """Expected calibration error: the bin-weighted mean gap between outcome rate and prediction.

    ``ECE = Σ_b (n_b / n) · |acc_b - conf_b|`` over the non-empty bins of
    :func:`calibration_curve` (same bins and edges), where ``acc_b`` is the
    share of positives in bin b and ``conf_b`` its mean prediction (Naeini
    et al. 2015; Guo et al. 2017). 0 for a perfectly calibrated model.

    Conventions, named: the binning is ``strategy="uniform"`` (``n_bins``
    equal-width bins, Guo et al.'s ECE, the default) or ``"quantile"``
    (equal-mass bins, the "adaptive" ECE of Nixon et al. 2019); ``n_bins``
    changes the number (10 is the usual default, calibration_curve's is 5).
    1-D ``y_prob`` is the probability of ``pos_label`` (binary ECE); 2-D
    ``y_prob`` (one column per class) gives the top-label ECE of Guo et
    al.: confidence = the largest probability, correct = its class is the
    true one. The L1 gap is used (the L2 and max variants: see
    :func:`maximum_calibration_error`). ECE is biased upward on small
    samples and depends on the binning: compare models with the same bins.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_prob : array-like of shape (n_samples,) or (n_samples, n_classes)
    n_bins : int, default=10
    strategy : {"uniform", "quantile"}, default="uniform"
    pos_label : int, float, bool or str, default=None
        1-D ``y_prob`` only.
    labels : array-like, default=None
        2-D ``y_prob`` only: the label of each column (default: the sorted
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
    total, gaps = _gaps(y_true, y_prob, pos_label, n_bins, strategy, labels)
    return float(np.dot(total, gaps) / total.sum())


def maximum_calibration_error(y_true, y_prob, *, n_bins=10, strategy="uniform", pos_label=None,
                              labels=None):
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
    _, gaps = _gaps(y_true, y_prob, pos_label, n_bins, strategy, labels)
    return float(gaps.max())
