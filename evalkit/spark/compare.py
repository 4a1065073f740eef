""":func:`evalkit.compare` on a DataFrame: counts on the cluster, resampling on the driver."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import Satisfies, validate_params
from ..compare import ModelComparison
from ..compare import compare as _compare_counts
from ._frame import _COLUMN, _DF, _column, _labels_array, _raise_first, _type_name
from .ranking import _hit_columns, _read_hits

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame


def _column_names(v):
    return not isinstance(v, str) and len(v) >= 2 and all(isinstance(c, str) for c in v)


_COLUMNS = Satisfies(_column_names, "a list of at least 2 column names, one per model")


@validate_params(df=_DF, label_col=_COLUMN, prediction_cols=_COLUMNS,
                 relevance_col=[None, _COLUMN])
def compare(df: DataFrame, metrics: list, *, prediction_cols: list[str], label_col: str = "label",
            relevance_col: str | None = None, **options: Any) -> ModelComparison:
    """:func:`evalkit.compare` of several models' columns, counted on the cluster.

    Classifiers (``prediction_cols`` of labels or scores): one
    ``groupBy(label, *prediction_cols).count()``; each distinct row of the
    label and the models' predictions, with how many rows it stands for,
    reaches the driver (for labels at most ``C^(models + 1)`` rows), and the
    resampling runs there from those counts
    (``evalkit.compare(..., sample_counts=...)``): no row is collected.
    Scores make almost every row distinct: round them first (e.g.
    ``F.round("score", 3)``) to keep the counts small; the AUC of the rounded
    scores is then exact.

    Rankers (``prediction_cols`` of arrays, one row per user, as
    :func:`~evalkit.spark.ranking_metrics` reads them; ``label_col`` the
    array of the user's relevant items): one job finds every model's
    per-user hits on the cluster (:func:`~evalkit.spark.ranking_hits` of
    whole lists: the hits' positions and grades, R and the list lengths,
    never the lists), and :func:`evalkit.compare` computes each user's
    metric values from them and resamples the users on the driver -- the
    numbers :func:`evalkit.compare` gives on the lists collected in the
    same order.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    metrics : list
        As in :func:`evalkit.compare`: classification metrics, or ranking
        names such as ``"ndcg@10"``.
    prediction_cols : list of str
        One column per model (labels, scores, or ranked item ids); the
        model names.
    label_col : str, default="label"
        The labels, or each user's relevant items.
    relevance_col : str, optional
        Rankers: an array of grades, one per item of ``label_col``.
    **options
        Passed to :func:`evalkit.compare` (``test``, ``correction``,
        ``baseline``, ``threshold``, ``n_resamples``, ``random_state``, and
        for rankers ``convention``, ``gain``, ...).

    Returns
    -------
    evalkit.ModelComparison

    Examples
    --------
    >>> from evalkit.spark import session, compare
    >>> df = session().createDataFrame([(0, 0, 1), (1, 1, 1), (1, 1, 0)] * 50,
    ...                                ["label", "a", "b"])  # doctest: +SKIP
    >>> out = compare(df, ["accuracy"], prediction_cols=["a", "b"])       # doctest: +SKIP
    >>> out.values.round(4).tolist()                                     # doctest: +SKIP
    [[1.0], [0.3333]]
    >>> lists = session().createDataFrame([([1, 2, 3], [2, 3], [1])] * 20,
    ...                                   ["a", "b", "relevant"])       # doctest: +SKIP
    >>> out = compare(lists, ["precision@1"], prediction_cols=["a", "b"],
    ...               label_col="relevant")                             # doctest: +SKIP
    >>> out.values.tolist()                                              # doctest: +SKIP
    [[1.0], [0.0]]
    """
    kinds = {_type_name(_column(df, "prediction_cols", c)) == "ArrayType" for c in prediction_cols}
    _raise_first([(len(kinds) > 1, "prediction_cols must be all ranked lists (arrays) or all "
                   "labels or scores")])
    if kinds == {True}:
        return _compare_rankers(df, metrics, prediction_cols, label_col, relevance_col, options)
    _column(df, "label_col", label_col)
    named = [("label_col", label_col)] + [("prediction_cols", c) for c in prediction_cols]
    rows = df.groupBy(label_col, *prediction_cols).count().collect()
    _raise_first([(not rows, "df is empty: compare needs at least one row")] + [
        (sum(r[i] is None for r in rows), f"{arg} {col!r} contains {{count}} distinct null values")
        for i, (arg, col) in enumerate(named)])
    columns = list(zip(*rows))
    labels = _labels_array(columns[0])
    predictions = {c: _labels_array(v) for c, v in zip(prediction_cols, columns[1:-1])}
    counts = np.array(columns[-1], dtype=np.int64)
    return _compare_counts(labels, predictions, metrics, sample_counts=counts, **options)


def _compare_rankers(df, metrics, prediction_cols, label_col, relevance_col, options):
    """Every model's per-user hits in one job (users aligned), resampled on the driver."""
    _column(df, "label_col", label_col, ("ArrayType",),
            "arrays of relevant item ids (prediction_cols hold ranked lists)")
    columns = {}
    for i, col in enumerate(prediction_cols):
        hits = _hit_columns(df, col, label_col, None, relevance_col)
        columns.update({f"{i}:{name}": c for name, c in hits.items()})
    table = df.select(*(c.alias(name) for name, c in columns.items())).toArrow()
    _raise_first([(table.num_rows == 0, "df is empty: compare needs at least one row")])
    hits = {col: _read_hits(lambda name, i=i: table.column(f"{i}:{name}"), None, relevance_col)
            for i, col in enumerate(prediction_cols)}
    # y_true None: evalkit.compare hands each RankingHits to evalkit.evaluate_ranking
    return _compare_counts(None, hits, metrics, **options)
