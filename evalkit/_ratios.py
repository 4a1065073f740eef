"""Counts to ratios: the one zero-division-aware division every metric goes through."""

from __future__ import annotations

import warnings

import numpy as np

from .exceptions import UndefinedMetricWarning

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
            warnings.warn(
                f"{what} is ill-defined and being set to 0.0 {where} {because}. "
                "Use `zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=stacklevel,
            )
    return float(out[0]) if scalar else out
