"""Per-class counts of a classifier on a DataFrame, and :mod:`evalkit.classification`'s reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._counts import ClassCounts
from .._ratios import prf
from .._report import labelled_report
from .._validation import (AVERAGES_TOP_K, BETA, DIGITS, ZERO_DIVISION, Bool, Options,
                           validate_params)
from ..mllib import MulticlassMetrics
from ._frame import COLUMN, DATAFRAME, column_type, labels_array, raise_first, same_kind

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import DataFrame


class SparkClassCounts:
    """Per-class counts computed on a cluster, and the reports that read them.

    ``matrix`` is the confusion matrix of the ``(label, prediction, count)``
    rows the cluster returned (rows actual, columns predicted, ``labels``
    sorted); the per-class counts (``counts``: labels, tp, predicted,
    support, total) are its diagonal and its column and row sums. The
    methods are evalkit's, run on these counts.

    Attributes
    ----------
    labels : ndarray
        Every label seen in either column, sorted.
    matrix : ndarray of shape (C, C)
    """

    def __init__(self, labels: np.ndarray, matrix: np.ndarray) -> None:
        self.labels, self.matrix = labels, matrix

    @property
    def counts(self) -> ClassCounts:
        """The per-class counts, :class:`~evalkit._counts.ClassCounts`, from :attr:`matrix`."""
        m = self.matrix
        return ClassCounts(self.labels, np.diagonal(m).copy(), m.sum(axis=0), m.sum(axis=1),
                           int(m.sum()))

    def confusion_matrix(self) -> np.ndarray:
        """The confusion matrix: rows actual, columns predicted, classes sorted."""
        return self.matrix.copy()

    def as_weighted_samples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(y_true, y_pred, sample_weight)``: one row per non-empty cell, its count the weight."""
        t, p = np.nonzero(self.matrix)
        return self.labels[t], self.labels[p], self.matrix[t, p].astype(float)

    def multiclass_metrics(self) -> MulticlassMetrics:
        """Spark's ``MulticlassMetrics`` (the numpy mirror) on these counts (numeric labels).

        Each cell of the confusion table becomes one ``(prediction, label,
        weight = count)`` row: Spark's weighted counts are those very sums.
        """
        raise_first([(self.labels.dtype.kind not in "biuf", "multiclass_metrics needs numeric "
                        "labels, as Spark's MulticlassMetrics; the labels are "
                        + repr(self.labels.tolist()))])
        y, predicted, weight = self.as_weighted_samples()
        return MulticlassMetrics(np.column_stack((predicted.astype(float), y.astype(float),
                                                  weight)))

    def accuracy_score(self) -> float:
        """Accuracy = Σ tp / n."""
        return float(np.trace(self.matrix) / self.matrix.sum())

    @validate_params(digits=DIGITS, output_dict=Bool(), zero_division=ZERO_DIVISION)
    def classification_report(self, *, target_names: list[str] | None = None, digits: int = 2,
                              output_dict: bool = False,
                              zero_division: str | float = "warn") -> str | dict:
        """:func:`evalkit.classification_report` on these counts (every class shown)."""
        c = self.counts
        return labelled_report(c.labels, c.tp, c.predicted, c.support,
                               target_names=target_names, classes=c.labels.tolist(),
                               none_correct=c.tp.sum() == 0, zero_division=zero_division,
                               digits=digits, output_dict=output_dict)

    @validate_params(beta=BETA, average=Options(AVERAGES_TOP_K),
                     zero_division=ZERO_DIVISION)
    def precision_recall_fscore_support(self, *, beta: float = 1.0, average: str | None = None,
                                        zero_division: str | float = "warn") -> tuple:
        """:func:`evalkit.precision_recall_fscore_support` on these counts (every class)."""
        c = self.counts
        return prf(c.tp, c.predicted, c.support, beta=beta, average=average,
                   zero_division=zero_division)


@validate_params(df=DATAFRAME, label_col=COLUMN, prediction_col=COLUMN)
def classification_counts(df: DataFrame, label_col: str = "label",
                          prediction_col: str = "prediction") -> SparkClassCounts:
    """Per-class counts of a classifier's predictions, by one ``groupBy`` on the cluster.

    ``count(label, prediction)`` for every pair that occurs: the confusion
    matrix, from which ``tp_c`` (the diagonal), ``predicted_c`` (column
    sums) and ``support_c`` (row sums) follow -- everything the
    classification report, ``precision_recall_fscore_support`` and Spark's
    ``MulticlassMetrics`` need. Only the non-empty cells (at most C²
    numbers) reach the driver.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    label_col, prediction_col : str
        Columns of the same kind (numbers, strings or booleans), not null.

    Returns
    -------
    SparkClassCounts

    Examples
    --------
    >>> from evalkit.spark import session, classification_counts
    >>> df = session().createDataFrame([(0, 0), (1, 1), (1, 0)],
    ...                                ["label", "prediction"])             # doctest: +SKIP
    >>> classification_counts(df).confusion_matrix().tolist()                       # doctest: +SKIP
    [[1, 0], [1, 1]]
    """
    from pyspark.sql import functions as F

    label_type = column_type(df, "label_col", label_col)
    prediction_type = column_type(df, "prediction_col", prediction_col)
    same_kind(("label_col", label_col, label_type),
              ("prediction_col", prediction_col, prediction_type))
    rows = df.groupBy(F.col(label_col), F.col(prediction_col)).count().collect()
    raise_first([(not rows, "df is empty: classification_counts needs at least one row")] + [
        (sum(r[i] is None or isinstance(r[i], float) and not np.isfinite(r[i]) for r in rows),
         f"{arg} {col!r} contains {{count}} distinct null, NaN or infinite values")
        for i, arg, col in ((0, "label_col", label_col), (1, "prediction_col", prediction_col))])
    values = sorted({v for r in rows for v in r[:2]})
    index = {v: i for i, v in enumerate(values)}
    matrix = np.zeros((len(values), len(values)), dtype=np.int64)
    np.add.at(matrix, tuple(np.array([[index[r[0]], index[r[1]]] for r in rows]).T),
              [r[2] for r in rows])
    return SparkClassCounts(labels_array(values), matrix)


