"""The 2 x 2 confusion matrix as a value: :class:`BinaryCounts`."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._counts import binary_cells
from ._ratios import f_beta_of, fpr_of, precision_of, ratio, recall_of, zero_division_for
from ._validation import (BETA, COUNT, POS_LABEL, ZERO_DIVISION_SPARK, Options, check,
                          check_sample_weight, check_targets, sum_from_zero, validate_params)

__all__ = ["BinaryCounts", "binary_counts", "accuracy_of", "tnr_of"]

#: Layouts of the 2 x 2 table. "actual-by-predicted" (rows are the actual
#: class, as in scikit-learn and the macro/micro post); "predicted-by-actual"
#: (rows are the prediction, as in the Spark post and the recommender-metrics post).
LAYOUTS = ("actual-by-predicted", "predicted-by-actual")


def accuracy_of(tp, tn, total, zero_division="warn"):
    """Accuracy = (tp + tn) / total, the correct predictions among all; arrays of counts too.

    >>> accuracy_of(1, 89, 100)
    0.9
    """
    return ratio(tp + tn, total, what="Accuracy", because="no samples",
                 zero_division=zero_division_for(zero_division, "accuracy"))


def tnr_of(tn, fp, zero_division="warn"):
    """True negative rate, specificity = tn / (tn + fp); arrays of counts too.

    >>> tnr_of(3, 1)
    0.75
    """
    return ratio(tn, np.add(tn, fp), what="True negative rate", because="no negative samples",
                 zero_division=zero_division_for(zero_division, "tnr"))


def _headings(layout):
    """Row and column names of the 2 x 2 table in ``layout``."""
    rows, cols = "actual", "predicted"
    if layout == "predicted-by-actual":
        rows, cols = cols, rows
    return [f"{rows} positive", f"{rows} negative"], [f"{cols} positive", f"{cols} negative"]


def _as_count(value, name):
    """A checked count: an int stays an int, any other number becomes a float."""
    check(value, COUNT, name)
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value)


def _aligned(cells, widths):
    """Cells right-aligned in columns of ``widths``, two spaces before each."""
    return "".join(f"  {cell:>{width}}" for cell, width in zip(cells, widths))


@dataclass(frozen=True)
class BinaryCounts:
    """The four counts of a binary prediction: tp, fp, fn, tn.

    An immutable value; counts must be non-negative (weighted counts may be
    fractional). Every ratio is a method taking ``zero_division``, the value
    used when its denominator is 0: ``"warn"`` (0.0 and a warning, as
    scikit-learn), ``0.0``, ``1.0``, ``nan``, or ``"spark"`` -- Spark MLlib's
    convention: precision is 1.0 when nothing is predicted positive, every
    other ratio 0.0, and F-beta computed from precision and recall.

    Examples
    --------
    The Spark post's table: 1 woman found, 10 missed, 89 men correctly left out.

    >>> c = BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    >>> c.accuracy(), c.precision(), round(c.recall(), 4), round(c.f1(), 4)
    (0.9, 1.0, 0.0909, 0.1667)
    >>> print(c.table(layout="predicted-by-actual"))
                    actual positive  actual negative
    predicted positive          1                0
    predicted negative         10               89
    """

    tp: float
    fp: float
    fn: float
    tn: float

    def __post_init__(self):
        for name in ("tp", "fp", "fn", "tn"):
            object.__setattr__(self, name, _as_count(getattr(self, name), name))

    # -- sizes ------------------------------------------------------------
    @property
    def positives(self):
        """Samples actually positive: tp + fn."""
        return self.tp + self.fn

    @property
    def negatives(self):
        """Samples actually negative: fp + tn."""
        return self.fp + self.tn

    @property
    def predicted_positives(self):
        """Samples predicted positive: tp + fp."""
        return self.tp + self.fp

    @property
    def total(self):
        """All samples: tp + fp + fn + tn."""
        return self.tp + self.fp + self.fn + self.tn

    # -- ratios -----------------------------------------------------------
    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def accuracy(self, zero_division="warn"):
        """Accuracy (准确率) = (tp + tn) / (tp + fp + fn + tn).

        >>> BinaryCounts(1, 0, 10, 89).accuracy()
        0.9
        """
        return accuracy_of(self.tp, self.tn, self.total, zero_division)

    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def precision(self, zero_division="warn"):
        """Precision (精确率) = tp / (tp + fp); undefined when nothing is predicted positive.

        With ``zero_division="spark"`` that case gives 1.0, as Spark does.

        >>> BinaryCounts(0, 0, 3, 5).precision(zero_division="spark")
        1.0
        """
        return precision_of(self.tp, self.fp, zero_division)

    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def recall(self, zero_division="warn"):
        """Recall (召回率), the true positive rate = tp / (tp + fn).

        >>> round(BinaryCounts(1, 0, 10, 89).recall(), 6)
        0.090909
        """
        return recall_of(self.tp, self.fn, zero_division)

    tpr = recall

    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def fpr(self, zero_division="warn"):
        """False positive rate (假阳性率) = fp / (fp + tn).

        >>> BinaryCounts(2, 1, 0, 3).fpr()
        0.25
        """
        return fpr_of(self.fp, self.tn, zero_division)

    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def tnr(self, zero_division="warn"):
        """True negative rate, specificity = tn / (fp + tn) = 1 - fpr.

        >>> BinaryCounts(2, 1, 0, 3).tnr()
        0.75
        """
        return tnr_of(self.tn, self.fp, zero_division)

    @validate_params(beta=BETA, zero_division=ZERO_DIVISION_SPARK)
    def f_beta(self, beta=1.0, zero_division="warn"):
        """F-beta = (1 + β²)·P·R / (β²·P + R) = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp).

        ``beta`` weighs recall ``beta`` times as much as precision: beta > 1
        favours recall, beta < 1 precision; beta = 1 is F1, the harmonic mean.
        Computed from counts, as scikit-learn does (undefined only when
        tp + fp + fn = 0). With ``zero_division="spark"`` it is computed from
        Spark's precision and recall instead (0.0 when both are 0), which can
        differ in the last digit. ``beta=0`` is precision and ``beta=inf`` recall;
        undefined, they give the ``zero_division`` value without a warning, as
        :func:`evalkit.fbeta_score` and scikit-learn's do.

        >>> c = BinaryCounts(tp=1, fp=0, fn=10, tn=89)
        >>> c.f_beta(1.0), c.f_beta(1.0, zero_division="spark")
        (0.16666666666666666, 0.16666666666666669)
        """
        return f_beta_of(self.tp, self.fp, self.fn, beta, zero_division)

    @validate_params(zero_division=ZERO_DIVISION_SPARK)
    def f1(self, zero_division="warn"):
        """F1 (F1值) = 2·P·R / (P + R) = 2·tp / (2·tp + fp + fn), the harmonic mean of P and R.

        >>> round(BinaryCounts(tp=1, fp=0, fn=10, tn=89).f1(), 4)
        0.1667
        """
        return f_beta_of(self.tp, self.fp, self.fn, 1.0, zero_division)

    # -- display ----------------------------------------------------------
    @validate_params(layout=Options(LAYOUTS))
    def matrix(self, layout="actual-by-predicted"):
        """The counts as a 2 x 2 numpy array, positive class first.

        >>> BinaryCounts(1, 0, 10, 89).matrix()
        array([[ 1, 10],
               [ 0, 89]])
        """
        return self._matrix(layout)

    def _matrix(self, layout):
        m = np.array([[self.tp, self.fn], [self.fp, self.tn]])
        if layout == "predicted-by-actual":
            return m.T
        return m

    @validate_params(layout=Options(LAYOUTS))
    def table(self, layout="actual-by-predicted"):
        """A readable text table in either layout the posts use.

        >>> print(BinaryCounts(1, 0, 10, 89).table())
                     predicted positive  predicted negative
        actual positive             1                  10
        actual negative             0                  89
        """
        return self._table(layout)

    def _table(self, layout):
        names, heads = _headings(layout)
        cells = [[f"{v:g}" for v in row] for row in self._matrix(layout)]
        name_width = max(len(name) for name in names)
        widths = []
        for j, head in enumerate(heads):
            column = [row[j] for row in cells]
            widths.append(max(len(head), *(len(cell) for cell in column)))
        lines = [" " * name_width + _aligned(heads, widths)]
        for name, row in zip(names, cells):
            lines.append(f"{name:<{name_width}}" + _aligned(row, widths))
        return "\n".join(lines)

    @validate_params(layout=Options(LAYOUTS))
    def to_frame(self, layout="actual-by-predicted"):
        """The table as a pandas DataFrame (pandas is imported only here)."""
        import pandas as pd

        names, heads = _headings(layout)
        return pd.DataFrame(self._matrix(layout), index=names, columns=heads)

    def __str__(self):
        return self._table("actual-by-predicted")

    # -- counts add ---------------------------------------------------------
    def __add__(self, other):
        """The counts of two disjoint parts of the data add up to the counts of the whole.

        ``(a + b).tp = a.tp + b.tp``, and so for fp, fn and tn: split the
        samples into partitions (Spark's partitions, batches of a stream),
        count each, add the counts; every ratio of the sum is the ratio of the
        whole. ``sum(parts)`` works too (it starts from 0).

        >>> BinaryCounts(tp=1, fp=0, fn=4, tn=40) + BinaryCounts(tp=0, fp=0, fn=6, tn=49)
        BinaryCounts(tp=1, fp=0, fn=10, tn=89)
        """
        if not isinstance(other, BinaryCounts):
            return NotImplemented
        return BinaryCounts(tp=self.tp + other.tp, fp=self.fp + other.fp,
                            fn=self.fn + other.fn, tn=self.tn + other.tn)

    __radd__ = sum_from_zero


@validate_params(pos_label=POS_LABEL)
def binary_counts(y_true: ArrayLike, y_pred: ArrayLike, *, pos_label: int | str = 1,
                  sample_weight: ArrayLike | None = None) -> BinaryCounts:
    """Count tp, fp, fn and tn of the class ``pos_label``.

    ``tp = #(y_true = pos and y_pred = pos)``, ``fp = #(y_true ≠ pos and
    y_pred = pos)``, ``fn = #(y_true = pos and y_pred ≠ pos)``, ``tn`` the rest;
    sums of ``sample_weight`` when given. Works for any labels: every class
    other than ``pos_label`` counts as negative.

    Examples
    --------
    >>> binary_counts(["m", "w", "w", "m"], ["m", "w", "m", "m"], pos_label="w")
    BinaryCounts(tp=1, fp=0, fn=1, tn=2)
    """
    _, yt, yp = check_targets(y_true, y_pred)
    weight = check_sample_weight(sample_weight, len(yt))
    tp, fp, fn, tn = binary_cells(yt, yp, pos_label, weight)
    return BinaryCounts(tp, fp, fn, tn)
