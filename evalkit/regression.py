"""Rating errors: MAE, MSE, RMSE (scikit-learn's) and NMAE, for predicted ratings.

A recommender that predicts ratings is scored by how far the predicted
ratings ``p_ui`` fall from the actual ``r_ui`` (the recommender-metrics post,
§ 评分预测的指标). The three scikit-learn mirrors keep sklearn's names,
arguments (``sample_weight``, ``multioutput``) and numbers, bit for bit: the
inputs are validated once (:func:`evalkit._validation.check_regression_targets`),
turned into per-output weighted means with :func:`numpy.average` as sklearn
does, and averaged over outputs. :func:`normalized_mean_absolute_error`
divides the MAE by the width of the rating scale and, given ``groups``
(a user id per rating), computes it per user, as the post defines it.

Differences from scikit-learn, all refusals of input sklearn accepts without
meaning: negative sample or output weights raise ``ValueError`` (sklearn
computes with them), and weights that sum to zero raise ``ValueError``
(sklearn: ``ZeroDivisionError``).
"""

from __future__ import annotations

import numpy as np

from ._ratios import ratio
from ._validation import (check_bool, check_labels, check_rating_range,
                          check_regression_targets, check_same_length)

__all__ = ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
           "normalized_mean_absolute_error"]


def _over_outputs(output_errors, multioutput):
    """The per-output errors as asked: all of them, their mean, or a weighted mean."""
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return output_errors
        multioutput = None  # uniform_average
    return float(np.average(output_errors, weights=multioutput))


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean absolute error (平均绝对误差), as :func:`sklearn.metrics.mean_absolute_error`.

    .. math::

        \\mathrm{MAE} = \\frac{\\sum_i w_i\\,|\\hat y_i - y_i|}{\\sum_i w_i}

    per output (``w_i = 1`` without ``sample_weight``); the recommender-metrics
    post writes it :math:`\\frac1n\\sum_{(u,i)}|p_{ui} - r_{ui}|` over the n
    rated (user, item) pairs. In the units of the ratings.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Actual and predicted values (ratings).
    sample_weight : array-like of shape (n_samples,), optional
        Weights >= 0, not all zero.
    multioutput : {"uniform_average", "raw_values"} or array-like of shape (n_outputs,)
        How the outputs' errors are combined: their plain mean (default),
        all of them (an array), or their mean weighted by the given weights.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        The error (an array for ``multioutput="raw_values"``); 0 is perfect.

    Examples
    --------
    >>> mean_absolute_error([3, 5, 2, 4], [2.5, 5, 3, 4])
    0.375
    >>> mean_absolute_error([[1, 2], [3, 4]], [[1, 3], [2, 4]], multioutput="raw_values")
    array([0.5, 0.5])
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput)
    return _over_outputs(np.average(np.abs(yp - yt), weights=w, axis=0), multioutput)


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error (均方误差), as :func:`sklearn.metrics.mean_squared_error`.

    .. math::

        \\mathrm{MSE} = \\frac{\\sum_i w_i\\,(\\hat y_i - y_i)^2}{\\sum_i w_i}

    per output. In squared units of the ratings (stars²), so it is compared
    with other MSEs, not with the ratings; :func:`root_mean_squared_error` is
    its square root.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Actual and predicted values.
    sample_weight : array-like of shape (n_samples,), optional
        Weights >= 0, not all zero.
    multioutput : {"uniform_average", "raw_values"} or array-like of shape (n_outputs,)
        How the outputs' errors are combined (see :func:`mean_absolute_error`).

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Examples
    --------
    >>> mean_squared_error([3, 5, 2, 4], [2.5, 5, 3, 4])
    0.3125
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput)
    return _over_outputs(np.average((yt - yp) ** 2, weights=w, axis=0), multioutput)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None,
                            multioutput="uniform_average"):
    """Root mean squared error (均方根误差), as :func:`sklearn.metrics.root_mean_squared_error`.

    .. math::

        \\mathrm{RMSE} = \\sqrt{\\frac{\\sum_i w_i\\,(\\hat y_i - y_i)^2}{\\sum_i w_i}}

    per output, then combined over outputs as ``multioutput`` says (so the
    uniform average of several outputs is the mean of their RMSEs, not the
    square root of the mean MSE, as in scikit-learn). In the units of the
    ratings, like the MAE, and never smaller than it; it grows more than the
    MAE when one error is large.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Actual and predicted values.
    sample_weight : array-like of shape (n_samples,), optional
        Weights >= 0, not all zero.
    multioutput : {"uniform_average", "raw_values"} or array-like of shape (n_outputs,)
        How the outputs' errors are combined (see :func:`mean_absolute_error`).

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Examples
    --------
    >>> root_mean_squared_error([3, 5, 2, 4], [2.5, 5, 3, 4])
    0.5590169943749475
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput)
    return _over_outputs(np.sqrt(np.average((yt - yp) ** 2, weights=w, axis=0)), multioutput)


def _group_codes(groups):
    """``(users, codes)``: the sorted distinct groups and each rating's index into them.

    Integer ids in a range not much wider than the number of ratings are
    coded by counting (linear time); other ids by :func:`numpy.unique` (a sort).
    """
    if groups.dtype.kind in "iu":
        lo, hi = int(groups.min()), int(groups.max())
        if hi - lo <= 2 * len(groups):
            offset = (groups - lo).astype(np.intp)
            present = np.bincount(offset, minlength=hi - lo + 1) > 0
            codes = np.cumsum(present) - 1
            return (np.flatnonzero(present) + lo).astype(groups.dtype), codes[offset]
    users, inverse = np.unique(groups, return_inverse=True)
    return users, inverse.reshape(-1)


def normalized_mean_absolute_error(y_true, y_pred, *, rating_range, groups=None,
                                   per_group=False, sample_weight=None):
    """Normalized mean absolute error (标准平均绝对误差): the MAE over the width of the scale.

    .. math::

        \\mathrm{NMAE} = \\frac{\\mathrm{MAE}}{r_{max} - r_{min}}

    with ``rating_range=(r_min, r_max)`` the lowest and highest possible
    rating, so that errors on a 1–5 and a 1–10 scale compare (0 is perfect,
    1 the worst possible). The recommender-metrics post defines it for one
    user u (单个用户u的标准平均绝对误差), following Goldberg et al.'s
    Eigentaste (2001), where it is then averaged over users.

    * ``groups=None``: one NMAE over all ratings (every rating counts once).
    * ``groups`` = the user (or any group) of each rating: each user's NMAE
      from that user's ratings, and their plain mean over users (every user
      counts once, however many ratings they have); ``per_group=True``
      returns ``(users, values)`` instead, users sorted.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Actual and predicted ratings. Actual ratings must lie in
        ``rating_range``; predictions may fall outside it.
    rating_range : (float, float)
        ``(lo, hi)``, the lowest and highest possible rating, lo < hi.
    groups : array-like of shape (n_samples,), optional
        The user id (integers or strings) of each rating.
    per_group : bool, default False
        With ``groups``: return every user's value instead of their mean.
    sample_weight : array-like of shape (n_samples,), optional
        Weights >= 0; with ``groups``, every user needs a non-zero weight.

    Returns
    -------
    float, or (ndarray, ndarray) with ``per_group=True``

    Examples
    --------
    >>> normalized_mean_absolute_error([4, 2, 5, 3], [3, 2, 4, 4], rating_range=(1, 5))
    0.1875
    >>> normalized_mean_absolute_error([4, 2, 5, 3], [3, 2, 4, 4], rating_range=(1, 5),
    ...                                groups=["ann", "ann", "bob", "bob"], per_group=True)
    (array(['ann', 'bob'], dtype='<U3'), array([0.125, 0.25 ]))
    """
    lo, hi = check_rating_range(rating_range)
    per_group = check_bool(per_group, "per_group")
    yt, yp, w, _ = check_regression_targets(y_true, y_pred, sample_weight)
    if yt.shape[1] != 1 or np.ndim(y_true) != 1 or np.ndim(y_pred) != 1:
        raise ValueError("y_true and y_pred must be 1-D: one rating per (user, item) pair")
    outside = (yt < lo) | (yt > hi)
    if outside.any():
        raise ValueError(f"y_true contains {yt[outside][0].item()!r}, outside rating_range "
                         f"{(lo, hi)}: give the scale the ratings are on")
    errors = np.abs(yp - yt)[:, 0] / (hi - lo)
    if groups is None:
        if per_group:
            raise ValueError("per_group=True needs groups: the user of each rating")
        return float(np.average(errors, weights=w))
    g = check_labels(groups, "groups")
    check_same_length(y_true=yt, groups=g)
    users, inverse = _group_codes(g)
    weights = np.ones_like(errors) if w is None else w
    totals = np.bincount(inverse, weights=weights, minlength=len(users))
    if (totals == 0).any():
        raise ValueError(f"sample_weight is zero for every rating of group "
                         f"{users[np.argmax(totals == 0)].item()!r}: its error is undefined")
    values = np.bincount(inverse, weights=weights * errors, minlength=len(users)) / totals
    if per_group:
        return users, values
    return float(values.mean())


def _errors_from_sums(total_weight, abs_sum, sq_sum, *, width=None):
    """MAE, MSE, RMSE (and NMAE) from the three sums that add across parts of the data.

    With ``W = Σ w_i``, ``A = Σ w_i |ŷ_i − y_i|`` and ``S = Σ w_i (ŷ_i − y_i)²``
    (``w_i = 1`` unweighted): MAE = A / W, MSE = S / W, RMSE = √(S / W) and,
    given the scale's ``width`` (r_max − r_min), NMAE = MAE / width. The
    sums of two partitions add to the sums of the whole, which is how
    :func:`evalkit.spark.regression_metrics` computes them on a cluster;
    the values equal :func:`mean_absolute_error` and the others up to the
    order of the additions. ``total_weight`` must be > 0 (checked by the caller).

    >>> _errors_from_sums(4, 3.0, 3.0, width=4)
    {'mae': 0.75, 'mse': 0.75, 'rmse': 0.8660254037844386, 'nmae': 0.1875}
    """
    mse = ratio(sq_sum, total_weight)
    out = {"mae": ratio(abs_sum, total_weight), "mse": mse, "rmse": float(np.sqrt(mse))}
    if width is not None:
        out["nmae"] = out["mae"] / width
    return out

