"""Rating errors: MAE, MSE, RMSE (scikit-learn's) and NMAE, for predicted ratings.

A recommender that predicts ratings is scored by how far the predicted
ratings ``p_ui`` fall from the actual ``r_ui`` (the recommender-metrics post,
§ 评分预测的指标). The three scikit-learn mirrors keep sklearn's names,
arguments (``sample_weight``, ``multioutput``) and numbers, bit for bit: the
inputs are validated once (:func:`evalkit._validation.check_regression_targets`),
turned into per-output weighted means with :func:`numpy.average` as sklearn
does, and averaged over outputs. :func:`normalized_mean_absolute_error`
divides the MAE by the width of the rating scale and, given ``users``
(a user id per rating), computes it per user, as the post defines it.

Differences from scikit-learn: negative sample or output weights raise
``ValueError`` (sklearn computes with them), and weights that sum to zero
raise ``ValueError`` (sklearn: ``ZeroDivisionError``). One output with a
one-element ``multioutput`` weight array gives that output's error in all
three functions, as scikit-learn's ``root_mean_squared_error`` does (its
``mean_absolute_error`` and ``mean_squared_error`` raise "Custom weights are
useful only in multi-output cases" there): the weighted mean of one value is
that value.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._counts import encode_labels
from ._errors import errors_from_sums, explained_fraction
from ._validation import (MULTIOUTPUT_R2, RATING_RANGE, Bool, check_labels,
                          check_regression_targets, check_rules, check_same_length,
                          validate_params)
from .exceptions import UndefinedMetricWarning, warn_at_caller

__all__ = ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
           "normalized_mean_absolute_error", "r2_score", "explained_variance_score",
           "mean_absolute_percentage_error", "median_absolute_error"]


def _any_outside(v):
    return v["outside"].any()


def _per_user_without_users(v):
    return v["per_user"] and v["users"] is None


def _user_without_weight(v):
    return v["zero"].any()


_NMAE_RULES = (
    (_any_outside, "y_true contains {first!r}, outside rating_range {scale}: give the scale the "
                   "ratings are on"),
    (_per_user_without_users, "per_user=True needs users: the user of each rating"))
_USER_WEIGHTS = [(_user_without_weight, "sample_weight is zero for every rating of user "
                                        "{user!r}: its error is undefined")]


def _over_outputs(output_errors, multioutput, variance=None):
    """The per-output errors as asked: all of them, their mean, or a weighted mean.

    ``"variance_weighted"`` (R², explained variance) weighs each output by
    ``variance``, the spread of its y_true (all equal when none has any).
    """
    if isinstance(multioutput, str) and multioutput == "variance_weighted":
        multioutput = "uniform_average"  # no output varies: all weigh the same
        if np.any(variance != 0):
            multioutput = variance
    if isinstance(multioutput, str) and multioutput == "raw_values":
        return output_errors
    if not isinstance(multioutput, str):  # weights of the outputs
        return float(np.average(output_errors, weights=multioutput))
    if len(output_errors) == 1:  # one output: no np.mean overhead
        return float(output_errors[0])
    return float(np.mean(output_errors))


def mean_absolute_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                        sample_weight: ArrayLike | None = None,
                        multioutput: str | ArrayLike = "uniform_average") -> float | np.ndarray:
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
    output_errors = np.average(np.abs(yp - yt), weights=w, axis=0)
    return _over_outputs(output_errors, multioutput)


def mean_squared_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                       sample_weight: ArrayLike | None = None,
                       multioutput: str | ArrayLike = "uniform_average") -> float | np.ndarray:
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
    output_errors = np.average((yt - yp) ** 2, weights=w, axis=0)
    return _over_outputs(output_errors, multioutput)


def root_mean_squared_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                            sample_weight: ArrayLike | None = None,
                            multioutput: str | ArrayLike = "uniform_average") -> float | np.ndarray:
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
    squared = np.average((yt - yp) ** 2, weights=w, axis=0)
    return _over_outputs(np.sqrt(squared), multioutput)


@validate_params(rating_range=RATING_RANGE, per_user=Bool())
def normalized_mean_absolute_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                                   rating_range: tuple[float, float],
                                   users: ArrayLike | None = None, per_user: bool = False,
                                   sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """Normalized mean absolute error (标准平均绝对误差): the MAE over the width of the scale.

    .. math::

        \\mathrm{NMAE} = \\frac{\\mathrm{MAE}}{r_{max} - r_{min}}

    with ``rating_range=(r_min, r_max)`` the lowest and highest possible
    rating, so that errors on a 1–5 and a 1–10 scale compare (0 is perfect,
    1 the worst possible). The recommender-metrics post defines it for one
    user u (单个用户u的标准平均绝对误差), following Goldberg et al.'s
    Eigentaste (2001), where it is then averaged over users.

    * ``users=None``: one NMAE over all ratings (every rating counts once).
    * ``users`` = the user of each rating: each user's NMAE from that user's
      ratings, and their plain mean over users (every user counts once,
      however many ratings they have); ``per_user=True`` returns
      ``(users, values)`` instead, users sorted.

    Both are :func:`evalkit._errors.errors_from_sums` of per-user sums
    (W = Σ w, A = Σ w·|ŷ − y|), the sums :func:`evalkit.spark.regression_metrics`
    adds on a cluster.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Actual and predicted ratings. Actual ratings must lie in
        ``rating_range``; predictions may fall outside it.
    rating_range : (float, float)
        ``(lo, hi)``, the lowest and highest possible rating, lo < hi.
    users : array-like of shape (n_samples,), optional
        The user id (integers or strings) of each rating.
    per_user : bool, default False
        With ``users``: return every user's value instead of their mean.
    sample_weight : array-like of shape (n_samples,), optional
        Weights >= 0; with ``users``, every user needs a non-zero weight.

    Returns
    -------
    float, or (ndarray, ndarray) with ``per_user=True``

    Examples
    --------
    >>> normalized_mean_absolute_error([4, 2, 5, 3], [3, 2, 4, 4], rating_range=(1, 5))
    0.1875
    >>> normalized_mean_absolute_error([4, 2, 5, 3], [3, 2, 4, 4], rating_range=(1, 5),
    ...                                users=["ann", "ann", "bob", "bob"], per_user=True)
    (array(['ann', 'bob'], dtype='<U3'), array([0.125, 0.25 ]))
    """
    lo, hi = map(float, rating_range)
    yt, yp, w, _ = check_regression_targets(y_true, y_pred, sample_weight, max_ndim=1)
    yt = yt[:, 0]
    yp = yp[:, 0]
    outside = (yt < lo) | (yt > hi)
    first = None
    if outside.any():
        first = yt[outside][0].item()
    check_rules(_NMAE_RULES, outside=outside, first=first, scale=(lo, hi), per_user=per_user,
                users=users)
    ids, codes = _user_codes(users, yt)
    if w is None:
        w = np.ones(len(yt))
    total = np.bincount(codes, weights=w)
    unweighted = total == 0
    user = None
    if ids is not None:
        user = ids[np.argmax(unweighted)].item()
    check_rules(_USER_WEIGHTS, zero=unweighted, user=user)
    abs_sum = np.bincount(codes, weights=w * np.abs(yp - yt))
    values = errors_from_sums(total, abs_sum, width=hi - lo)["nmae"]
    if per_user:
        return ids, values
    return float(values.mean())


def _user_codes(users, yt):
    """The sorted user ids and each rating's user as a code; no ids and code 0 without users."""
    if users is None:
        return None, np.zeros(len(yt), dtype=np.intp)
    u = check_labels(users, "users")
    check_same_length(y_true=yt, users=u)
    ids, codes, _ = encode_labels(u, u[:1])
    return ids, codes


def _fraction_explained(residual, total, multioutput, force_finite):
    scores = explained_fraction(residual, total, force_finite)
    return _over_outputs(scores, multioutput, variance=total)


@validate_params(force_finite=Bool())
def r2_score(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None,
             multioutput: str | ArrayLike = "uniform_average",
             force_finite: bool = True) -> float | np.ndarray:
    """Coefficient of determination R² (决定系数), as :func:`sklearn.metrics.r2_score`.

    .. math::

        R^2 = 1 - \\frac{\\sum_i w_i (y_i - \\hat y_i)^2}{\\sum_i w_i (y_i - \\bar y)^2}

    per output, ``ȳ`` the weighted mean of ``y_true``: 1 is perfect, 0 is
    as good as always predicting the mean, and it is negative for worse.
    Conventions (scikit-learn's, :func:`evalkit._errors.explained_fraction`):
    with ``force_finite=True`` a constant ``y_true`` gives 1.0 when predicted
    exactly and 0.0 otherwise; ``False`` gives nan or −inf there, as Spark's
    ``RegressionEvaluator(metricName="r2")``. Fewer than two samples: nan and
    an :class:`~evalkit.exceptions.UndefinedMetricWarning`.
    ``multioutput="variance_weighted"`` weighs each output's score by the
    spread of its ``y_true``.

    Examples
    --------
    >>> r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.9486081370449679
    >>> r2_score([2, 2, 2], [2, 2, 2]), r2_score([2, 2, 2], [2, 2, 3], force_finite=False)
    (1.0, -inf)
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput,
                                                      spec=MULTIOUTPUT_R2)
    if len(yt) < 2:
        warn_at_caller("R^2 score is not well-defined with less than two samples.",
                       UndefinedMetricWarning)
        return float("nan")
    weight = 1.0
    if w is not None:
        weight = w[:, None]
    residual = np.sum(weight * (yt - yp) ** 2, axis=0)
    mean = np.average(yt, axis=0, weights=w)
    total = np.sum(weight * (yt - mean) ** 2, axis=0)
    return _fraction_explained(residual, total, multioutput, force_finite)


@validate_params(force_finite=Bool())
def explained_variance_score(y_true: ArrayLike, y_pred: ArrayLike, *,
                             sample_weight: ArrayLike | None = None,
                             multioutput: str | ArrayLike = "uniform_average",
                             force_finite: bool = True) -> float | np.ndarray:
    """Explained variance score (可解释方差), as :func:`sklearn.metrics.explained_variance_score`.

    .. math::

        EV = 1 - \\frac{\\mathrm{Var}(y - \\hat y)}{\\mathrm{Var}(y)}

    per output, both variances weighted by ``sample_weight``. It equals R²
    when the errors have mean 0; unlike R² it does not see a constant bias.
    Spark's ``RegressionMetrics.explainedVariance`` (``metricName="var"``)
    is another quantity, ``Σ w (ŷ − ȳ)² / Σ w`` (:class:`evalkit.mllib.RegressionMetrics`).
    ``force_finite`` and ``multioutput`` as in :func:`r2_score`.

    Examples
    --------
    >>> explained_variance_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.9571734475374732
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput,
                                                      spec=MULTIOUTPUT_R2)
    diff = yt - yp
    diff_mean = np.average(diff, axis=0, weights=w)
    residual = np.average((diff - diff_mean) ** 2, axis=0, weights=w)
    mean = np.average(yt, axis=0, weights=w)
    total = np.average((yt - mean) ** 2, axis=0, weights=w)
    return _fraction_explained(residual, total, multioutput, force_finite)


def mean_absolute_percentage_error(
        y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None,
        multioutput: str | ArrayLike = "uniform_average") -> float | np.ndarray:
    """Mean absolute percentage error (平均绝对百分比误差), as scikit-learn's.

    .. math::

        \\mathrm{MAPE} = \\frac{\\sum_i w_i\\,|\\hat y_i - y_i| / \\max(|y_i|, \\epsilon)}
                             {\\sum_i w_i}

    per output, ε the float64 machine epsilon: a relative error, returned as
    a fraction (0.25, not 25 %), and huge when some ``y_i`` is 0 (as in
    scikit-learn; there is no symmetric variant here).

    Examples
    --------
    >>> mean_absolute_percentage_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.3273809523809524
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput)
    eps = yt.dtype.type(np.finfo(np.float64).eps)  # in the targets' dtype, as scikit-learn
    relative = np.abs(yp - yt) / np.maximum(np.abs(yt), eps)
    output_errors = np.average(relative, weights=w, axis=0)
    return _over_outputs(output_errors, multioutput)


def _weighted_median(values, w):
    """Per column, scikit-learn's weighted median (``_weighted_percentile(..., average=True)``).

    The first value whose cumulative weight reaches half the total; where it
    reaches exactly half, the mean of that value and the next of positive weight.
    """
    out = np.empty(values.shape[1], dtype=values.dtype)
    eps = np.finfo(values.dtype).eps
    for j, column in enumerate(values.T):
        order = np.argsort(column)
        cdf = np.cumsum(w[order])
        half = cdf[-1] / 2
        last = len(cdf) - 1
        i = min(int(np.searchsorted(cdf, half)), last)
        out[j] = column[order[i]]
        if cdf[i] - half <= eps:  # exactly half the weight: the mean with the next value
            following = int(np.searchsorted(cdf, cdf[i], side="right"))
            if following > last:
                following = i
            out[j] = (column[order[i]] + column[order[following]]) / 2
    return out


def median_absolute_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                          multioutput: str | ArrayLike = "uniform_average",
                          sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """Median absolute error (中位数绝对误差), as :func:`sklearn.metrics.median_absolute_error`.

    The median of ``|ŷ_i − y_i|`` per output: robust to a few huge errors.
    With ``sample_weight``, scikit-learn's weighted median: the smallest
    error whose cumulative weight reaches half the total weight, averaged
    with the next error when it reaches exactly half (so integer weights
    equal repeated samples).

    Examples
    --------
    >>> median_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    yt, yp, w, multioutput = check_regression_targets(y_true, y_pred, sample_weight, multioutput)
    errors = np.abs(yp - yt)
    if w is None:
        return _over_outputs(np.median(errors, axis=0), multioutput)
    return _over_outputs(_weighted_median(errors, w), multioutput)
