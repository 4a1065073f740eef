"""scikit-learn's ``classification_report``: per-class precision, recall, F1, support, averages.

The counts come from :mod:`evalkit._counts` once; the rows and their layout
from :mod:`evalkit._report` (the same rows as :func:`evalkit.topk_report`
and the reports of :mod:`evalkit.spark`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._counts import class_counts_of, multilabel_counts, select, take, targets
from ._report import labelled_report
from ._validation import DIGITS, ZERO_DIVISION, Bool, validate_params

__all__ = ["classification_report"]


def _typed_as_sklearn(classes, yt, yp):
    """The classes as scikit-learn's ``unique_labels`` types them, for the row names.

    scikit-learn collects the labels of ``y_true`` first, then those of
    ``y_pred`` not already there (``0 == 0.0 == False``), into one numpy
    array: a class keeps ``y_true``'s type when it occurs there. So
    ``[True, False]`` against integer predictions names its rows
    ``False``/``True``, and ``[0, 1, 2]`` against float predictions ``0``,
    ``1``, ``2`` -- but ``2.0`` once a float-only class joins them.
    """
    if yt.dtype == yp.dtype or yt.dtype.kind not in "biuf" or yp.dtype.kind not in "biuf":
        return classes
    in_true = np.isin(classes, yt)
    typed = []
    for label, from_true in zip(classes.tolist(), in_true):
        if from_true:
            typed.append(yt.dtype.type(label))
        else:
            typed.append(yp.dtype.type(label))
    return np.asarray(typed)


@validate_params(digits=DIGITS, output_dict=Bool(), zero_division=ZERO_DIVISION)
def classification_report(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                          target_names: ArrayLike | None = None,
                          sample_weight: ArrayLike | None = None, digits: int = 2,
                          output_dict: bool = False,
                          zero_division: str | float = "warn") -> str | dict:
    """Precision, recall, F1 and support per class, and their averages, as scikit-learn's.

    For class c: ``P_c = tp_c / predicted_c``, ``R_c = tp_c / support_c``,
    ``F1_c = 2·tp_c / (support_c + predicted_c)``. Then three averages:

    * micro (微平均): the ratios of the summed counts,
      ``Σ tp_c / Σ predicted_c`` -- shown as the ``accuracy`` row when the
      report covers every class present (P = R = F1 = accuracy then), as
      ``micro avg`` when ``labels`` leaves some out (and always for
      multilabel targets);
    * macro (宏平均): ``(1/m) Σ_c P_c`` over the m classes shown;
    * weighted (加权平均): ``Σ_c support_c·P_c / Σ_c support_c``;
    * samples (multilabel indicator targets only): the mean over samples
      of each sample's P, R and F1 over its labels.

    Counts are made once (:func:`evalkit._counts.class_counts`), per-class
    ratios once, and the averages from them. The text is scikit-learn's,
    character for character; so is the dict (``output_dict=True``); a pandas
    DataFrame is ``pd.DataFrame(report).T`` of the dict.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or 0/1 multilabel indicator matrices (dense or scipy.sparse).
        A column of shape (n, 1) beside a 1-D target is refused (scikit-learn
        ravels it).
    labels : array-like, default=None
        Classes to report, in this order (default: every class present,
        sorted; multilabel: column indices). A label listed twice is refused
        (scikit-learn reports it twice).
    target_names : list of str, default=None
        Row names for ``labels``. A length that differs from the number of
        classes is an error when ``labels`` is None, else a warning (rows
        stop at the shorter), as in scikit-learn.
    sample_weight : array-like of shape (n_samples,), default=None
    digits : int, default=2
        Decimals shown in the text.
    output_dict : bool, default=False
        scikit-learn's switch: return a dict.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"

    Returns
    -------
    str or dict

    Examples
    --------
    The top-k post's three classes:

    >>> print(classification_report([0, 1, 2, 2, 0], [1, 0, 2, 1, 1], zero_division=0.0))
                  precision    recall  f1-score   support
    <BLANKLINE>
               0       0.00      0.00      0.00         2
               1       0.00      0.00      0.00         1
               2       1.00      0.50      0.67         2
    <BLANKLINE>
        accuracy                           0.20         5
       macro avg       0.33      0.17      0.22         5
    weighted avg       0.40      0.20      0.27         5
    <BLANKLINE>
    """
    kind, yt, yp, w = targets(y_true, y_pred, sample_weight, labels)
    if kind == "multilabel":
        shown, tp, predicted, support, rows = _multilabel_rows(yt, yp, w, labels)
    else:
        shown, tp, predicted, support, rows = _class_rows(yt, yp, w, labels)
    # scikit-learn rebuilds the sums as tp + fp and tp + fn; the same
    # arithmetic gives the same last bits with fractional weights.
    predicted = tp + (predicted - tp)
    support = tp + (support - tp)
    return labelled_report(shown, tp, predicted, support, target_names=target_names,
                           strict=labels is None, zero_division=zero_division, digits=digits,
                           output_dict=output_dict, **rows)


def _multilabel_rows(yt, yp, w, labels):
    """The rows of a multilabel report: one per label (column), and a "samples avg"."""
    tp, predicted, support = multilabel_counts(yt, yp, w)
    if labels is None:
        shown = np.arange(yt.shape[1])
    else:
        shown = np.asarray(labels)
    per_sample = multilabel_counts(yt, yp, w, samplewise=True)
    rows = dict(micro_heading="micro avg", samples=(*per_sample, w))
    return shown, tp, predicted, support, rows


def _class_rows(yt, yp, w, labels):
    """The rows of a report of label vectors: every class present, or those of ``labels``.

    The micro average is headed "accuracy" when the rows cover every class present.
    """
    counts = class_counts_of(yt, yp, None, w)  # every class present, counted once
    tp, predicted, support = counts.tp, counts.predicted, counts.support
    shown = _typed_as_sklearn(counts.labels, yt, yp)
    covers_all = True
    if labels is not None:
        shown, positions = select(counts.labels, labels)
        covers_all = bool(np.isin(np.arange(len(counts.labels)), positions).all())
        tp = take(tp, positions)
        predicted = take(predicted, positions)
        support = take(support, positions)
    heading = "micro avg"
    if covers_all:
        heading = "accuracy"
    rows = dict(none_correct=w is None and counts.tp.sum() == 0, micro_heading=heading)
    return shown, tp, predicted, support, rows
