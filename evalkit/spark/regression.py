"""MAE, MSE, RMSE, R², Spark's "var" and NMAE of a DataFrame's predictions, from sums."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._errors import errors_from_sums, spark_fit_scores
from .._validation import RATING_RANGE, Bool, validate_params
from ._frame import COLUMN, DATAFRAME, NOT_FINITE, NUMERIC, column_type, not_finite, raise_first

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame


def _fit_scores(total, through_origin):
    """Spark's r2 and var from the raw sums of one aggregation (deviations from ȳ by expansion)."""
    mean = total["Y"] / total["W"]
    ss_mean = max(total["Y2"] - mean * total["Y"], 0.0)   # Σ w (y − ȳ)²
    # Σ w (ŷ − ȳ)²
    ss_pred = max(total["P2"] - 2 * mean * total["P"] + mean * mean * total["W"], 0.0)
    return spark_fit_scores(total["W"], total["W2"], total["S"], ss_mean, ss_pred, total["Y2"],
                            through_origin=through_origin)


@validate_params(df=DATAFRAME, label_col=COLUMN, prediction_col=COLUMN, weight_col=[None, COLUMN],
                 user_col=[None, COLUMN], rating_range=[None, RATING_RANGE],
                 through_origin=Bool())
def regression_metrics(df: DataFrame, *, label_col: str = "label",
                       prediction_col: str = "prediction", weight_col: str | None = None,
                       rating_range: tuple[float, float] | None = None, user_col: str | None = None,
                       through_origin: bool = False) -> dict[str, float]:
    """MAE, MSE, RMSE, R² and Spark's "var" (and NMAE) of predictions in a DataFrame, from sums.

    One aggregation computes ``W = Σ w``, ``A = Σ w |ŷ − y|`` and
    ``S = Σ w (ŷ − y)²`` (``w = 1`` without ``weight_col``) and checks the
    columns; sums add across partitions, and the driver finishes with
    :mod:`evalkit.regression`'s arithmetic: MAE = A / W, MSE = S / W,
    RMSE = √(S / W) -- scikit-learn's and Spark's ``RegressionEvaluator``'s
    definitions, equal to theirs up to the order of the additions.

    The same aggregation sums ``Σ w²``, ``Σ w y``, ``Σ w y²``, ``Σ w ŷ`` and
    ``Σ w ŷ²``, from which the driver gets Spark's ``RegressionEvaluator``
    metrics ``r2`` and ``var`` (:func:`evalkit._errors.spark_fit_scores`):
    ``var = Σ w (ŷ − ȳ)² / W`` (Spark's explained variance, not
    scikit-learn's) and ``r2 = 1 − S / SStot`` (scikit-learn's
    :func:`evalkit.r2_score` without weights; Spark's SStot with them;
    ``through_origin=True``: ``1 − S / Σ w y²``, Spark's ``throughOrigin``).
    The squared deviations come from raw sums (``Σ w y² − (Σ w y)² / W``):
    exact enough for ratings, but they lose digits when the labels' mean
    is many orders of magnitude above their spread (Spark's own summarizer
    updates a running mean instead).

    With ``rating_range=(lo, hi)`` the result also has ``nmae`` = MAE / (hi − lo)
    over all ratings (:func:`evalkit.normalized_mean_absolute_error`), and
    labels outside the range are an error. With ``user_col`` too (the user
    of each rating), the sums are made per user in the same one
    aggregation and ``nmae`` is the mean of the users' NMAEs -- every user
    counts once, as in the recommender-metrics post -- while MAE, MSE and
    RMSE stay over all ratings (the groups' sums add up to them).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col, prediction_col : str
        Numeric columns: the actual and the predicted rating (finite, not null).
    weight_col : str, optional
        Numeric, finite, >= 0, not all zero.
    rating_range : (float, float), optional
    user_col : str, optional
        The user of each rating (as in :func:`~evalkit.spark.lists_from_frame`); needs
        ``rating_range``; every user needs a non-zero weight.

    Returns
    -------
    dict
        ``mae``, ``mse``, ``rmse``, ``r2``, ``var`` (and ``nmae``), as Python floats.

    Raises
    ------
    ValueError
        Naming the column: missing or non-numeric (before any job), null,
        NaN or infinite values, negative weights, no rows, labels outside
        ``rating_range``, a user whose weights are all zero (from the job).

    Examples
    --------
    >>> from evalkit.spark import session, regression_metrics
    >>> df = session().createDataFrame([(4.0, 3.0), (2.0, 2.0), (5.0, 4.0), (3.0, 4.0)],
    ...                                ["label", "prediction"])              # doctest: +SKIP
    >>> regression_metrics(df, rating_range=(1, 5))                           # doctest: +SKIP
    {'mae': 0.75, 'mse': 0.75, 'rmse': 0.8660254037844386, 'nmae': 0.1875, 'r2': 0.4, 'var': 0.75}
    """
    lo, hi = None, None
    if rating_range is not None:
        lo, hi = map(float, rating_range)
    raise_first([(user_col is not None and rating_range is None,
                   "user_col needs rating_range: the per-user error is the NMAE")])
    for arg, col in (("label_col", label_col), ("prediction_col", prediction_col),
                     ("weight_col", weight_col)):
        column_type(df, arg, col, NUMERIC, "numbers")
    column_type(df, "user_col", user_col)
    aggs = _sum_aggregates(label_col, prediction_col, weight_col, lo, hi)
    frame = df
    if user_col is not None:
        frame = df.groupBy(user_col)
    rows = frame.agg(*aggs).collect()
    total = {name: sum(row[name] or 0 for row in rows) for name in _SUMS}
    names = {"label": f"label_col {label_col!r}", "prediction": f"prediction_col "
             f"{prediction_col!r}", "weight": f"weight_col {weight_col!r}"}
    zero_weight_users = []
    if user_col is not None:
        zero_weight_users = [row[user_col] for row in rows if row["W"] == 0]
    _raise_bad_sums(total, names, (lo, hi), zero_weight_users)
    width = None
    if lo is not None:
        width = hi - lo
    out = errors_from_sums(total["W"], total["A"], total["S"], width=width)
    out.update(_fit_scores(total, through_origin))
    if user_col is not None:
        weights = np.array([row["W"] for row in rows], dtype=float)
        errors = np.array([row["A"] for row in rows], dtype=float)
        per_user = errors_from_sums(weights, errors, width=width)
        out["nmae"] = float(per_user["nmae"].mean())
    return out


#: The sums of the one aggregation (per user with ``user_col``), added up on the driver.
_SUMS = ("n", "y_bad", "p_bad", "w_bad", "w_neg", "W", "A", "S", "outside", "W2", "Y", "Y2",
         "P", "P2")


def _sum_aggregates(label_col, prediction_col, weight_col, lo, hi):
    """The aggregates of :data:`_SUMS`: the checks' counts and the weighted sums."""
    from pyspark.sql import functions as F

    y = F.col(label_col).cast("double")
    p = F.col(prediction_col).cast("double")
    w = F.lit(1.0)
    if weight_col is not None:
        w = F.col(weight_col).cast("double")
    err = F.abs(p - y)
    outside = F.lit(False)
    if lo is not None:
        outside = (y < lo) | (y > hi)
    return [F.count(F.lit(1)).alias("n"), F.count_if(not_finite(y)).alias("y_bad"),
            F.count_if(not_finite(p)).alias("p_bad"), F.count_if(not_finite(w)).alias("w_bad"),
            F.count_if(w < 0).alias("w_neg"), F.sum(w).alias("W"), F.sum(w * err).alias("A"),
            F.sum(w * err * err).alias("S"), F.sum(w * w).alias("W2"), F.sum(w * y).alias("Y"),
            F.sum(w * y * y).alias("Y2"), F.sum(w * p).alias("P"), F.sum(w * p * p).alias("P2"),
            F.count_if(outside).alias("outside")]


def _raise_bad_sums(total, names, rating_range, zero_weight_users):
    """A ValueError naming the column, for the first check the aggregation found failing."""
    first_user = None
    if zero_weight_users:
        first_user = zero_weight_users[0]
    weight = names["weight"]
    raise_first([
        (total["n"] == 0, "df is empty: regression_metrics needs at least one row"),
        (total["y_bad"], names["label"] + NOT_FINITE),
        (total["p_bad"], names["prediction"] + NOT_FINITE),
        (total["w_bad"], weight + NOT_FINITE),
        (total["w_neg"], weight + " contains {count} negative values: weights must be >= 0"),
        (total["W"] == 0, weight + " is all zeros: at least one row must count"),
        (total["outside"], names["label"] + " holds {count} ratings outside rating_range "
         + repr(rating_range) + ": give the scale the ratings are on"),
        (len(zero_weight_users), f"{weight} is zero for every rating of user {first_user!r}: its "
         "error is undefined"),
    ])


