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

from ._counts import encode_labels
from ._errors import errors_from_sums
from ._validation import (RATING_RANGE, Bool, check_labels, check_regression_targets,
                          check_rules, check_same_length, validate_params)

__all__ = ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
           "normalized_mean_absolute_error"]


_NMAE_RULES = (
    (lambda v: v["outside"].any(), "y_true contains {first!r}, outside rating_range {scale}: give "
                                   "the scale the ratings are on"),
    (lambda v: v["per_user"] and v["users"] is None, "per_user=True needs users: the user of each rating"))


def _over_outputs(output_errors, multioutput):
    """The per-output errors as asked: all of them, their mean, or a weighted mean."""
    if isinstance(multioutput, str):  # "raw_values" or "uniform_average"
        return output_errors if multioutput == "raw_values" else float(  # one output: no np.mean overhead
            output_errors[0] if len(output_errors) == 1 else np.mean(output_errors))
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


@validate_params(rating_range=RATING_RANGE, per_user=Bool())
def normalized_mean_absolute_error(y_true, y_pred, *, rating_range, users=None, per_user=False,
                                   sample_weight=None):
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
    yt, yp, outside = yt[:, 0], yp[:, 0], (yt[:, 0] < lo) | (yt[:, 0] > hi)
    check_rules(_NMAE_RULES, outside=outside, first=yt[outside][:1].tolist()[0] if outside.any()
                else None, scale=(lo, hi), per_user=per_user, users=users)
    if users is None:
        ids, codes = None, np.zeros(len(yt), dtype=np.intp)
    else:
        u = check_labels(users, "users")
        check_same_length(y_true=yt, users=u)
        ids, codes, _ = encode_labels(u, u[:1])
    w = np.ones(len(yt)) if w is None else w
    total = np.bincount(codes, weights=w)
    check_rules([(lambda v: v["zero"].any(), "sample_weight is zero for every rating of user "
                  "{user!r}: its error is undefined")], zero=total == 0,
                user=None if ids is None else ids[np.argmax(total == 0)].item())
    values = errors_from_sums(total, np.bincount(codes, weights=w * np.abs(yp - yt)),
                              width=hi - lo)["nmae"]
    return (ids, values) if per_user else float(values.mean())
