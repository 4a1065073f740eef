"""Rating errors from sums that add: MAE, MSE, RMSE and NMAE of any part of the data."""

from __future__ import annotations

import numpy as np

from ._ratios import ratio

__all__ = ["errors_from_sums", "explained_fraction", "spark_fit_scores"]


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
        mse = ratio(sq_sum, total_weight)
        out["mse"] = mse
        out["rmse"] = np.sqrt(mse)
        if np.ndim(mse) == 0:
            out["rmse"] = float(out["rmse"])
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
    residual = np.asarray(residual)
    total = np.asarray(total)
    with np.errstate(divide="ignore", invalid="ignore"):
        plain = 1 - residual / total
    if not force_finite:
        return plain
    finite = np.where(total == 0, 0.0, plain)  # an imperfect prediction of a constant y
    finite = np.where(residual == 0, 1.0, finite)  # a perfect prediction
    return finite.astype(residual.dtype)


def spark_fit_scores(total_weight, weight_sq, sq_sum, ss_mean, ss_pred, ss_zero, *,
                     through_origin=False):
    """Spark's ``r2`` and ``var`` (``RegressionMetrics.r2`` and ``explainedVariance``) from sums.

    With ``W = Σ w``, ``W₂ = Σ w²``, ``S = Σ w (y − ŷ)²``, ``M = Σ w (y − ȳ)²``,
    ``R = Σ w (ŷ − ȳ)²`` and ``Z = Σ w y²`` (ȳ the weighted mean of y):

    * ``var = R / W`` -- the variance of the predictions around the mean
      label (not scikit-learn's explained variance score);
    * ``r2 = 1 − S / Z`` through the origin, else ``1 − S / SStot`` with
      Spark's ``SStot = M / (W − W₂ / W) · (W − 1)`` (its summarizer's
      unbiased weighted variance times ``W − 1``): ``M`` without weights,
      but not with them, where scikit-learn's R² divides by ``M``. No
      ``force_finite``: a constant label gives −inf or nan, as in Spark.

    >>> spark_fit_scores(4.0, 4.0, 1.0, 5.0, 4.0, 30.0)
    {'r2': 0.8, 'var': 1.0}
    """
    unbiased = total_weight - weight_sq / total_weight
    variance = 0.0  # one row: variance 0, as Spark's
    if unbiased > 0:
        variance = ss_mean / unbiased
    ss_tot = variance * (total_weight - 1)
    if through_origin:
        ss_tot = ss_zero
    r2 = explained_fraction(np.float64(sq_sum), np.float64(ss_tot), force_finite=False)
    return {"r2": float(r2), "var": ratio(ss_pred, total_weight)}
