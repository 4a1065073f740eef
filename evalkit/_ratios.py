"""Counts to ratios: one zero-division-aware division, and the one step from counts to P/R/F.

:func:`prf` is the batched compute step every precision/recall/F-beta in
evalkit goes through (classification, reports, top-k, the Spark mirrors, the
bootstrap); :func:`ratio` the one division under it.
"""

from __future__ import annotations

import numpy as np

from .exceptions import warn_at_caller

__all__ = ["ratio", "zero_division_value", "zero_division_for", "prf", "nanaverage",
           "precision_of", "recall_of", "fpr_of", "f_beta_of"]

#: Spark MLlib's zero-division convention: precision is 1.0 when nothing is
#: predicted positive, every other undefined ratio 0.0, and F-beta is computed
#: from P and R (0.0 when both are 0).
_SPARK = {"precision": 1.0}


def zero_division_value(zero_division):
    """The number a ratio takes when its denominator is 0 ("warn" means 0.0)."""
    if zero_division == "warn":
        return 0.0
    return float(zero_division)


def ratio(numerator, denominator, *, zero_division="warn", what="Precision",
          because="no predicted samples", per="labels", stacklevel=3):
    """Divide counts, giving ``zero_division`` where the denominator is 0.

    ``ratio = numerator / denominator``; where ``denominator == 0`` the ratio
    is undefined and takes the value ``zero_division`` (0.0 for ``"warn"``,
    which also emits an :class:`UndefinedMetricWarning` worded as
    scikit-learn words it). Scalars give a Python float, arrays an array.

    Parameters
    ----------
    numerator, denominator : float or array-like
        Non-negative counts (or weighted counts).
    zero_division : {"warn", 0.0, 1.0, nan}
        Value for an undefined ratio (already validated).
    what, because, per : str
        Words of the warning: "{what} is ill-defined and being set to 0.0
        in {per} with {because}".
    stacklevel : int
        Ignored (kept for callers): the warning always points at the first
        line outside evalkit (:func:`evalkit.exceptions.warn_at_caller`).

    Examples
    --------
    >>> ratio(1, 4)
    0.25
    >>> ratio([1, 0], [2, 0], zero_division=1.0)
    array([0.5, 1. ])
    """
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    scalar = num.ndim == 0 and den.ndim == 0
    num, den = np.broadcast_arrays(np.atleast_1d(num), np.atleast_1d(den))
    undefined = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / np.where(undefined, 1.0, den)
    if undefined.any():
        out = np.where(undefined, zero_division_value(zero_division), out)
        if zero_division == "warn":
            _warn_undefined(what, because, per, one=out.shape[-1] == 1)
    if scalar:
        return float(out[0])
    return out


def _warn_undefined(what, because, per, one):
    """scikit-learn's warning of an undefined ratio (``one``: one ratio, not one per ``per``)."""
    where = f"in {per} with"
    if one:
        where = "due to"
    warn_at_caller(f"{what} is ill-defined and being set to 0.0 {where} {because}. "
                   "Use `zero_division` parameter to control this behavior.")


def nanaverage(values, weights=None):
    """Mean over the last axis leaving nan out (scikit-learn's ``_nanaverage``), batched.

    ``weights`` (same shape, or None) weigh the mean; where the kept weights
    sum to 0 the plain mean is taken. All-nan rows give nan. Returns an array
    of the leading shape (a float when there is none).

    >>> nanaverage(np.array([1.0, np.nan, 3.0])), nanaverage(np.array([1.0, 3.0]), [1, 3])
    (2.0, 2.5)
    """
    values = np.asarray(values, dtype=float)
    nan = np.isnan(values)
    kept = (~nan).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if not nan.any():
            out = values.mean(axis=-1)
        else:
            out = np.where(nan, 0.0, values).sum(axis=-1) / kept
        if weights is not None:
            out = _weighted_nanmean(values, nan, weights, out)
    out = np.where(kept == 0, np.nan, out)
    if out.ndim == 0:
        return float(out)
    return out


def _weighted_nanmean(values, nan, weights, plain):
    """The mean of ``values`` weighted by ``weights``, nan left out; ``plain`` where no weight."""
    weights = np.broadcast_to(np.asarray(weights, dtype=float), values.shape)
    w = np.where(nan, 0.0, weights)
    total = w.sum(axis=-1)
    weighted = np.multiply(np.where(nan, 0.0, values), w).sum(axis=-1) / total
    return np.where(total > 0, weighted, plain)


def prf(tp, predicted, actual, *, beta=1.0, average=None, zero_division="warn",
        warn_for=("precision", "recall", "f-score"), weights=None, per="labels"):
    """Precision, recall, F-beta and support from counts, batched over leading axes.

    ``tp``, ``predicted`` (tp + fp) and ``actual`` (tp + fn, the support) are
    arrays of shape (..., C): C classes (or labels), or C samples for
    ``average="samples"``; any leading axes (bootstrap resamples, users,
    partitions, thresholds) are carried through. Per column:
    ``P = tp / predicted``, ``R = tp / actual`` and
    ``F = (1 + β²)·tp / (β²·actual + predicted)`` (β = 0 is P, β = inf R).

    Averages, as scikit-learn: None (per column), ``"binary"`` (the caller
    passes the one positive column), ``"micro"`` (ratios of the counts
    summed over C), ``"macro"`` (plain mean), ``"weighted"`` (mean weighted
    by ``actual``), ``"samples"`` (mean over the samples, weighted by
    ``weights`` = sample_weight). A 0/0 takes ``zero_division``: ``"warn"``
    (0.0 and an UndefinedMetricWarning for the metrics in ``warn_for``),
    0.0, 1.0, nan (left out of the averages, scikit-learn >= 1.3), or
    ``"spark"`` (Spark MLlib: precision 1.0, recall 0.0, F from P and R,
    no warning).

    Returns
    -------
    precision, recall, fscore : ndarray (..., C), or (...,) when averaged (a
        float when there are no leading axes)
    support : ``actual`` when not averaged, else None

    Examples
    --------
    >>> p, r, f, s = prf(np.array([2, 1, 1]), np.array([2, 2, 2]), np.array([3, 2, 1]))
    >>> p.round(4).tolist(), f.round(4).tolist()
    ([1.0, 0.5, 0.5], [0.8, 0.5, 0.6667])
    >>> prf(np.array([[2, 1], [0, 0]]), np.array([[2, 2], [1, 0]]), np.array([[3, 2], [0, 1]]),
    ...     average="macro", zero_division=0.0)[0].tolist()
    [0.75, 0.0]
    """
    tp = np.asarray(tp)
    predicted = np.asarray(predicted)
    actual = np.asarray(actual)
    support = actual
    if average == "micro":
        tp = tp.sum(axis=-1, keepdims=True)
        predicted = predicted.sum(axis=-1, keepdims=True)
        actual = actual.sum(axis=-1, keepdims=True)
    divide = _Division(zero_division, warn_for, average, per)
    precision = divide(tp, predicted, "precision", "predicted")
    recall = divide(tp, actual, "recall", "true")
    fscore = _fscore(tp, predicted, actual, precision, recall, float(beta) ** 2, divide)
    if average is None:
        return precision, recall, fscore, support
    weight = None
    if average == "weighted":
        weight = support
    elif average == "samples":
        weight = weights
    precision = nanaverage(precision, weight)
    recall = nanaverage(recall, weight)
    fscore = nanaverage(fscore, weight)
    return precision, recall, fscore, None


class _Division:
    """:func:`ratio` as :func:`prf` divides: each metric's ``zero_division`` and warning words."""

    def __init__(self, zero_division, warn_for, average, per):
        self.zero_division = zero_division
        self.warn_for = warn_for
        self.spark = isinstance(zero_division, str) and zero_division == "spark"
        self.counted = "sample"  # what a 0/0 has none of: "no predicted samples"
        across = "label"         # what the warning is given in: "in labels with"
        if average == "samples":
            self.counted = "label"
            across = "sample"
        self.per = per
        if per == "labels":
            self.per = f"{across}s"

    def value_for(self, metric):
        """The ``zero_division`` of ``metric``: Spark's, or a warning only if it is warned for."""
        if self.spark:
            return _SPARK.get(metric, 0.0)
        if metric in self.warn_for:
            return self.zero_division
        return zero_division_value(self.zero_division)

    def __call__(self, num, den, metric, modifier):
        return ratio(num, den, zero_division=self.value_for(metric), what=metric.capitalize(),
                     because=f"no {modifier} {self.counted}s", per=self.per)


def _fscore(tp, predicted, actual, precision, recall, b2, divide):
    """F-beta (``b2`` = β²) from the counts, as scikit-learn; from P and R for Spark."""
    if np.isinf(b2):
        return recall
    if divide.spark:  # Spark's F from its P and R: 0.0 when both are 0, no warning
        return ratio((1 + b2) * (precision * recall), b2 * precision + recall, zero_division=0.0)
    if b2 == 0:
        return precision
    numerator = (1 + b2) * np.asarray(tp, dtype=float)
    denominator = b2 * np.asarray(actual, dtype=float) + predicted
    return divide(numerator, denominator, "f-score", "true nor predicted")


# -- the binary ratios, for one 2 x 2 table or a whole sweep of them ---------
#
# Each takes counts (scalars or arrays of the same shape) and ``zero_division``:
# "warn", 0.0, 1.0, nan, or "spark" (see _SPARK). They are prf's columns.


def zero_division_for(zero_division, metric):
    """``zero_division`` of ``metric`` (checked by the caller), "spark" resolved (1.0 or 0.0)."""
    if zero_division == "spark":
        return _SPARK.get(metric, 0.0)
    if isinstance(zero_division, str):  # "warn"
        return zero_division
    return float(zero_division)


def precision_of(tp, fp, zero_division="warn"):
    """Precision = tp / (tp + fp); Spark: 1.0 when tp + fp = 0.

    >>> precision_of(3, 1)
    0.75
    """
    return ratio(tp, np.add(tp, fp), what="Precision", because="no predicted samples",
                 per="thresholds", zero_division=zero_division_for(zero_division, "precision"))


def recall_of(tp, fn, zero_division="warn"):
    """Recall = TPR = tp / (tp + fn).

    >>> recall_of(3, 1)
    0.75
    """
    return ratio(tp, np.add(tp, fn), what="Recall", because="no true samples",
                 per="thresholds", zero_division=zero_division_for(zero_division, "recall"))


def fpr_of(fp, tn, zero_division="warn"):
    """False positive rate = fp / (fp + tn).

    >>> fpr_of(1, 3)
    0.25
    """
    return ratio(fp, np.add(fp, tn), what="False positive rate", because="no negative samples",
                 per="thresholds", zero_division=zero_division_for(zero_division, "fpr"))


def f_beta_of(tp, fp, fn, beta=1.0, zero_division="warn"):
    """F-beta from counts, as scikit-learn: (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp).

    With ``zero_division="spark"``, as Spark: (1 + β²)·(P·R) / (β²·P + R) from
    Spark's precision and recall, 0.0 when P + R = 0 (can differ in the last digit).
    beta = 0 is precision and beta = inf recall; where those are undefined they take
    the ``zero_division`` value without a warning, exactly as ``fbeta_score`` does.

    >>> f_beta_of(1, 0, 10), f_beta_of(1, 0, 10, zero_division="spark")
    (0.16666666666666666, 0.16666666666666669)
    """
    scalar = np.ndim(tp) == 0 and np.ndim(fp) == 0 and np.ndim(fn) == 0
    tp, fp, fn = np.broadcast_arrays(np.atleast_1d(tp), np.atleast_1d(fp), np.atleast_1d(fn))
    f = prf(tp, tp + fp, tp + fn, beta=beta, warn_for=("f-score",), per="thresholds",
            zero_division=zero_division)[2]
    if scalar:
        return float(f[0])
    return f
