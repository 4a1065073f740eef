"""Counts to ratios: the one zero-division-aware division every metric goes through."""

from __future__ import annotations

import numpy as np

from .exceptions import warn_at_caller

__all__ = ["ratio", "zero_division_value"]


def zero_division_value(zero_division):
    """The number a ratio takes when its denominator is 0 ("warn" means 0.0)."""
    return 0.0 if zero_division == "warn" else float(zero_division)


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
            where = "due to" if out.size == 1 else f"in {per} with"
            warn_at_caller(
                f"{what} is ill-defined and being set to 0.0 {where} {because}. "
                "Use `zero_division` parameter to control this behavior.")
    return float(out[0]) if scalar else out


# -- the binary ratios, for one 2 x 2 table or a whole sweep of them ---------
#
# Each takes counts (scalars or arrays of the same shape) and ``zero_division``:
# "warn", 0.0, 1.0, nan, or "spark" -- Spark MLlib's convention, where
# precision is 1.0 when nothing is predicted positive and every other
# undefined ratio is 0.0.

_SPARK = {"precision": 1.0}


def _resolve(zero_division, metric):
    from ._validation import check_zero_division

    zd = check_zero_division(zero_division, allow_spark=True)
    return _SPARK.get(metric, 0.0) if zd == "spark" else zd


def precision_of(tp, fp, zero_division="warn"):
    """Precision = tp / (tp + fp); Spark: 1.0 when tp + fp = 0.

    >>> precision_of(3, 1)
    0.75
    """
    return ratio(tp, np.add(tp, fp), zero_division=_resolve(zero_division, "precision"),
                 what="Precision", because="no predicted samples", per="thresholds", stacklevel=4)


def recall_of(tp, fn, zero_division="warn"):
    """Recall = TPR = tp / (tp + fn).

    >>> recall_of(3, 1)
    0.75
    """
    return ratio(tp, np.add(tp, fn), zero_division=_resolve(zero_division, "recall"),
                 what="Recall", because="no true samples", per="thresholds", stacklevel=4)


def fpr_of(fp, tn, zero_division="warn"):
    """False positive rate = fp / (fp + tn).

    >>> fpr_of(1, 3)
    0.25
    """
    return ratio(fp, np.add(fp, tn), zero_division=_resolve(zero_division, "fpr"),
                 what="False positive rate", because="no negative samples", per="thresholds",
                 stacklevel=4)


def f_beta_of(tp, fp, fn, beta=1.0, zero_division="warn"):
    """F-beta from counts, as scikit-learn: (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp).

    With ``zero_division="spark"``, as Spark: (1 + β²)·(P·R) / (β²·P + R) from
    Spark's precision and recall, 0.0 when P + R = 0 (can differ in the last digit).
    beta = 0 is precision and beta = inf recall; where those are undefined they take
    the ``zero_division`` value without a warning, exactly as ``fbeta_score`` does.

    >>> f_beta_of(1, 0, 10), f_beta_of(1, 0, 10, zero_division="spark")
    (0.16666666666666666, 0.16666666666666669)
    """
    from ._validation import check_beta, check_zero_division

    b2 = check_beta(beta) ** 2
    zd = check_zero_division(zero_division, allow_spark=True)
    if zd == "spark":
        p = precision_of(tp, fp, "spark")
        r = recall_of(tp, fn, "spark")
        if np.isinf(b2):
            return r
        num = (1.0 + b2) * np.multiply(p, r)
        den = b2 * np.asarray(p) + r
        out = np.where(den == 0, 0.0, num / np.where(den == 0, 1.0, den))
        return float(out) if out.ndim == 0 else out
    # beta = inf is recall and beta = 0 precision; as in scikit-learn's fbeta_score, an
    # undefined one takes the zero_division value without a warning (no F-score is divided)
    if np.isinf(b2):
        return recall_of(tp, fn, zero_division_value(zd) if zd == "warn" else zd)
    if b2 == 0:
        return precision_of(tp, fp, zero_division_value(zd) if zd == "warn" else zd)
    tp1 = (1.0 + b2) * np.asarray(tp, dtype=float)
    return ratio(tp1, tp1 + b2 * np.asarray(fn, dtype=float) + fp, zero_division=zd,
                 what="F-score", because="no true nor predicted samples", per="thresholds",
                 stacklevel=4)
