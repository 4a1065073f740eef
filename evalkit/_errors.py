"""Rating errors from sums that add: MAE, MSE, RMSE and NMAE of any part of the data."""

from __future__ import annotations

import numpy as np

from ._ratios import ratio

__all__ = ["errors_from_sums", "explained_fraction"]


def errors_from_sums(total_weight, abs_sum, sq_sum=None, *, width=None):
    """MAE, MSE, RMSE (and NMAE) from the three sums that add across parts of the data.

    With ``W = Σ w_i``, ``A = Σ w_i |ŷ_i − y_i|`` and ``S = Σ w_i (ŷ_i − y_i)²``
    (``w_i = 1`` unweighted): MAE = A / W, MSE = S / W, RMSE = √(S / W) and,
    given the scale's ``width`` (r_max − r_min), NMAE = MAE / width. The
    sums of two partitions add to the sums of the whole, which is how
    :func:`evalkit.spark.regression_metrics` computes them on a cluster;
    the values equal :func:`evalkit.mean_absolute_error` and the others up to
    the order of the additions. ``total_weight`` must be > 0 (checked by the
    caller). Scalars or arrays (one value per user, partition, ...); without
    ``sq_sum``, no MSE and RMSE.

    >>> errors_from_sums(4, 3.0, 3.0, width=4)
    {'mae': 0.75, 'mse': 0.75, 'rmse': 0.8660254037844386, 'nmae': 0.1875}
    """
    out = {"mae": ratio(abs_sum, total_weight)}
    if sq_sum is not None:
        out["mse"] = ratio(sq_sum, total_weight)
        out["rmse"] = np.sqrt(out["mse"]) if np.ndim(out["mse"]) else float(np.sqrt(out["mse"]))
    if width is not None:
        out["nmae"] = out["mae"] / width
    return out


def explained_fraction(residual, total, force_finite=True):
    """R² and explained variance per output from two sums: ``1 − residual / total``.

    ``residual`` and ``total`` (arrays, one per output) are the weighted sums
    of squares the two scores compare: for R² the squared errors and the
    squared deviations of ``y`` from its mean; for explained variance the
    same with the errors centred. scikit-learn's ``force_finite=True``: a
    perfect prediction (residual 0) scores 1.0 even when ``y`` is constant,
    and an imperfect prediction of a constant ``y`` (total 0) scores 0.0
    instead of −inf; ``False`` gives the plain formula (nan, −inf), as
    Spark does.

    >>> explained_fraction(np.array([1.0, 0.0, 2.0]), np.array([4.0, 0.0, 0.0])).tolist()
    [0.75, 1.0, 0.0]
    """
    residual, total = np.asarray(residual), np.asarray(total)
    with np.errstate(divide="ignore", invalid="ignore"):
        plain = 1 - residual / total
    if not force_finite:
        return plain
    return np.where(residual == 0, 1.0, np.where(total == 0, 0.0, plain)).astype(residual.dtype)
