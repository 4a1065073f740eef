"""MAE, MSE, RMSE, R², Spark's "var" and NMAE of a DataFrame's predictions, from sums."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._errors import errors_from_sums, spark_fit_scores
from .._validation import RATING_RANGE, Bool, validate_params
from ._frame import _COLUMN, _DF, _NOT_FINITE, _NUMERIC, _column, _not_finite, _raise_first

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


@validate_params(df=_DF, label_col=_COLUMN, prediction_col=_COLUMN, weight_col=[None, _COLUMN],
                 user_col=[None, _COLUMN], rating_range=[None, RATING_RANGE],
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
    from pyspark.sql import functions as F

    lo, hi = (None, None) if rating_range is None else map(float, rating_range)
    _raise_first([(user_col is not None and rating_range is None,
                   "user_col needs rating_range: the per-user error is the NMAE")])
    for arg, col in (("label_col", label_col), ("prediction_col", prediction_col),
                     ("weight_col", weight_col)):
        _column(df, arg, col, _NUMERIC, "numbers")
    _column(df, "user_col", user_col)
    y, p = F.col(label_col).cast("double"), F.col(prediction_col).cast("double")
    w = F.col(weight_col).cast("double") if weight_col is not None else F.lit(1.0)
    err = F.abs(p - y)
    aggs = [F.count(F.lit(1)).alias("n"), F.count_if(_not_finite(y)).alias("y_bad"),
            F.count_if(_not_finite(p)).alias("p_bad"), F.count_if(_not_finite(w)).alias("w_bad"),
            F.count_if(w < 0).alias("w_neg"), F.sum(w).alias("W"), F.sum(w * err).alias("A"),
            F.sum(w * err * err).alias("S"), F.sum(w * w).alias("W2"), F.sum(w * y).alias("Y"),
            F.sum(w * y * y).alias("Y2"), F.sum(w * p).alias("P"), F.sum(w * p * p).alias("P2"),
            F.count_if((y < lo) | (y > hi) if lo is not None else F.lit(False)).alias("outside")]
    rows = (df.groupBy(user_col) if user_col is not None else df).agg(*aggs).collect()
    total = {a: sum(r[a] or 0 for r in rows) for a in ("n", "y_bad", "p_bad", "w_bad", "w_neg",
                                                        "W", "A", "S", "outside", "W2", "Y",
                                                        "Y2", "P", "P2")}
    lc, pc, wc = (f"{arg} {col!r}" for arg, col in (
        ("label_col", label_col), ("prediction_col", prediction_col), ("weight_col", weight_col)))
    zero = [r[user_col] for r in rows if r["W"] == 0] if user_col is not None else []
    _raise_first([
        (total["n"] == 0, "df is empty: regression_metrics needs at least one row"),
        (total["y_bad"], lc + _NOT_FINITE),
        (total["p_bad"], pc + _NOT_FINITE),
        (total["w_bad"], wc + _NOT_FINITE),
        (total["w_neg"], wc + " contains {count} negative values: weights must be >= 0"),
        (total["W"] == 0, wc + " is all zeros: at least one row must count"),
        (total["outside"], lc + " holds {count} ratings outside rating_range "
         + repr((lo, hi)) + ": give the scale the ratings are on"),
        (zero, f"{wc} is zero for every rating of user {(zero or [None])[0]!r}: its error is "
         "undefined"),
    ])
    width = None if lo is None else hi - lo
    out = errors_from_sums(total["W"], total["A"], total["S"], width=width)
    out.update(_fit_scores(total, through_origin))
    if user_col is not None:
        per_user = errors_from_sums(*(np.array([r[a] for r in rows], dtype=float)
                                      for a in ("W", "A")), width=width)
        out["nmae"] = float(per_user["nmae"].mean())
    return out


