""":func:`evalkit.compare` on a DataFrame: counts on the cluster, resampling on the driver."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import Satisfies, validate_params
from ..compare import ModelComparison
from ..compare import compare as _compare_counts
from ._frame import COLUMN, DATAFRAME, column_type, labels_array, raise_first, type_name
from ._hit_frame import hit_columns, read_hits

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame


def _column_names(v):
    """Whether ``v`` names two or more columns (a list of strings)."""
    if isinstance(v, str) or len(v) < 2:
        return False
    return all(isinstance(c, str) for c in v)


_COLUMNS = Satisfies(_column_names,
                     "a list of at least 2 column names, one per model")


@validate_params(df=DATAFRAME, label_col=COLUMN, prediction_cols=_COLUMNS,
                 relevance_col=[None, COLUMN])
def compare(
    df: DataFrame,
    metrics: list,
    *,
    prediction_cols: list[str],
    label_col: str = "label",
    relevance_col: str | None = None,
    **options: Any,
) -> ModelComparison:
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
    kinds = set()
    for col in prediction_cols:
        dtype = column_type(df, "prediction_cols", col)
        kinds.add(type_name(dtype) == "ArrayType")
    mixed = (len(kinds) > 1, "prediction_cols must be all ranked lists (arrays) "
             "or all labels or scores")
    raise_first([mixed])
    if kinds == {True}:
        return _compare_rankers(df, metrics, prediction_cols, label_col,
                                relevance_col, options)
    column_type(df, "label_col", label_col)
    grouped = df.groupBy(label_col, *prediction_cols).count()
    rows = grouped.collect()
    raise_first(_null_problems(rows, label_col, prediction_cols))
    columns = list(zip(*rows))
    labels = labels_array(columns[0])
    predictions = {}
    for col, values in zip(prediction_cols, columns[1:-1]):
        predictions[col] = labels_array(values)
    counts = np.array(columns[-1], dtype=np.int64)
    return _compare_counts(labels, predictions, metrics,
                           sample_counts=counts, **options)


def _null_problems(rows, label_col, prediction_cols):
    """``(count, message)`` of an empty result and of each column's distinct nulls."""
    problems = [(not rows, "df is empty: compare needs at least one row")]
    named = [("label_col", label_col)]
    named += [("prediction_cols", col) for col in prediction_cols]
    for i, (arg, col) in enumerate(named):
        nulls = sum(row[i] is None for row in rows)
        message = f"{arg} {col!r} contains {{count}} distinct null values"
        problems.append((nulls, message))
    return problems


def _compare_rankers(df, metrics, prediction_cols, label_col, relevance_col,
                     options):
    """Every model's per-user hits in one job (users aligned), resampled on the driver."""
    column_type(df, "label_col", label_col, ("ArrayType",),
            "arrays of relevant item ids (prediction_cols hold ranked lists)")
    columns = {}
    for i, col in enumerate(prediction_cols):
        hits = hit_columns(df, col, label_col, None, relevance_col)
        for name, column in hits.items():
            columns[f"{i}:{name}"] = column
    aliased = (column.alias(name) for name, column in columns.items())
    table = df.select(*aliased).toArrow()
    empty = (table.num_rows == 0, "df is empty: compare needs at least one row")
    raise_first([empty])
    hits = {}
    for i, col in enumerate(prediction_cols):
        def read(name, i=i):
            return table.column(f"{i}:{name}")
        hits[col] = read_hits(read, None, relevance_col)
    # y_true None: evalkit.compare reads each model's RankingHits as they are
    return _compare_counts(None, hits, metrics, **options)
