""":func:`evalkit.topk_report` over a DataFrame with an array column of ranked labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._counts import ClassCounts
from .._report import topk_report_from_counts
from .._validation import DIGITS, ZERO_DIVISION, Bool, K, validate_params
from ._frame import (COLUMN, DATAFRAME, NUMERIC, column_type, labels_array, raise_first, same_kind,
                     type_name)

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame


@validate_params(df=DATAFRAME, label_col=COLUMN, topk_col=COLUMN, k=K, digits=DIGITS,
                 output_dict=Bool(), zero_division=ZERO_DIVISION)
def topk_report(df: DataFrame, *, label_col: str = "label", topk_col: str = "topk", k: int,
                target_names: list[str] | None = None, digits: int = 2, output_dict: bool = False,
                zero_division: str | float = "warn") -> str | dict:
    """:func:`evalkit.topk_report` over a DataFrame with an array column of ranked labels.

    For class c: ``tp_c`` = rows of class c whose first ``k`` labels contain c,
    ``predicted_c`` = rows whose first ``k`` labels contain c (once per row),
    ``support_c`` = rows of class c -- counted on the cluster in one
    ``groupBy`` over the exploded first ``k`` labels; the report is then
    laid out on the driver as :func:`evalkit.topk_report` lays it out
    (precision@k, recall@k, F1@k, micro/macro/weighted averages).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col : str
    topk_col : str
        An array column, most likely label first, at least ``k`` long in every row.
    k : int
    target_names, digits, output_dict, zero_division
        As :func:`evalkit.topk_report`.

    Returns
    -------
    str or dict

    Examples
    --------
    >>> from evalkit.spark import session, topk_report
    >>> df = session().createDataFrame([(0, [0, 1]), (1, [1, 0]), (2, [2, 0])],
    ...                                ["label", "topk"])                  # doctest: +SKIP
    >>> print(topk_report(df, k=2))                                        # doctest: +SKIP
                  precision@2    recall@2  f1-score@2     support
    <BLANKLINE>
               0         0.33        1.00        0.50           1
               1         0.50        1.00        0.67           1
               2         1.00        1.00        1.00           1
    <BLANKLINE>
       micro avg         0.50        1.00        0.67           3
       macro avg         0.61        1.00        0.72           3
    weighted avg         0.61        1.00        0.72           3
    <BLANKLINE>
    """
    from pyspark.sql import functions as F

    lt = column_type(df, "label_col", label_col)
    et = column_type(df, "topk_col", topk_col, ("ArrayType",), "arrays of labels").elementType
    same_kind(("label_col", label_col, lt), ("topk_col", topk_col, et))
    numeric = type_name(lt) in NUMERIC and type_name(et) in NUMERIC
    # numbers are compared as doubles; other labels as their own type
    label, element = "double", "double"
    if not numeric:
        label, element = lt.simpleString(), et.simpleString()
    top = F.coalesce(F.slice(topk_col, 1, k), F.array().cast(f"array<{element}>"))
    # position 0: the row's own label (its support); then each distinct label of its top k
    entries = df.select(F.col(label_col).cast(label).alias("t"), F.posexplode(F.concat(
        F.array(F.col(label_col).cast(element)), F.array_distinct(top).cast(f"array<{element}>"))),
        (F.coalesce(F.size(topk_col), F.lit(-1)) < k).alias("short"))
    rows = entries.groupBy((F.col("pos") == 0).alias("own"), F.col("col").alias("c"),
                           (F.col("col") == F.col("t")).alias("hit"), "short").count().collect()
    own = [r for r in rows if r["own"]]
    raise_first([
        (not rows, "df is empty: topk_report needs at least one row"),
        (sum(r["count"] for r in own if r["short"]),
         f"topk_col {topk_col!r} has {{count}} rows with fewer than k={k} labels (or null)"),
        (sum(r["count"] for r in own if r["c"] is None),
         f"label_col {label_col!r} contains {{count}} null values"),
        (any(r["c"] is None for r in rows), f"topk_col {topk_col!r} contains null labels"),
    ])
    values = sorted({r["c"] for r in rows})
    labels = labels_array(values)
    if labels.dtype.kind == "f" and all(float(v).is_integer() for v in labels) \
            and type_name(lt) not in ("FloatType", "DoubleType", "DecimalType"):
        labels = labels.astype(np.int64)
    tp, predicted, support = _class_counts(rows, values)
    return topk_report_from_counts(
        ClassCounts(labels, tp, predicted, support, int(support.sum())), k,
        target_names=target_names, digits=digits, output_dict=output_dict,
        zero_division=zero_division)


def _class_counts(rows, values):
    """Per label of ``values``: hits, predictions (in a top k) and support, from the rows.

    A row with ``own`` counts a sample's own label (its support); any other
    counts the label in a top k, a hit when it is the sample's label.
    """
    index = {c: i for i, c in enumerate(values)}
    tp, predicted, support = np.zeros((3, len(index)), dtype=np.int64)
    for r in rows:
        i = index[r["c"]]
        if r["own"]:
            support[i] += r["count"]
            continue
        predicted[i] += r["count"]
        if r["hit"]:
            tp[i] += r["count"]
    return tp, predicted, support
