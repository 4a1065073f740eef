"""Per-class reports: scikit-learn's ``classification_report``, and the one formatter.

A report is per-class counts turned into rows: precision, recall, F1 and
support for each class, then the micro, macro and weighted averages. The
counts come from :mod:`evalkit._counts` once; the ratios from one pass of
:func:`evalkit.classification._scores_from_counts`; the averages are taken
from those per-class values (never by recounting). :func:`render_report`
lays the rows out as text (character for character as scikit-learn does),
a dict (as ``output_dict=True``) or a pandas DataFrame; the top-k report
(:mod:`evalkit.topk`) uses the same formatter.
"""

from __future__ import annotations


import numpy as np

from ._counts import _class_counts, _select, _take
from ._validation import (check_digits, check_output, check_sample_weight, check_target_names,
                          check_targets, check_zero_division)
from .classification import _nanaverage, _scores_from_counts

__all__ = ["classification_report", "render_report"]

HEADERS = ("precision", "recall", "f1-score", "support")
_LONGEST_AVERAGE = "weighted avg"


def _rows(tp, predicted, support, *, zero_division, micro_heading):
    """A report's numbers from per-class counts: ``(p, r, f, support, averages)``.

    Per class, the ratios of :func:`_scores_from_counts`; then the three
    average rows ``(heading, P, R, F, support)`` from them. micro: the ratios
    of the summed counts; macro: the plain mean of the per-class values;
    weighted: their mean weighted by support (classes whose value is nan --
    ``zero_division=nan`` -- are left out, as in scikit-learn). Called by the
    public report functions themselves, so that warnings point at their caller.
    """
    p, r, f, s = _scores_from_counts(tp, predicted, support, zero_division=zero_division,
                                     stacklevel=5)
    total = np.sum(support)
    mp, mr, mf, _ = _scores_from_counts(tp, predicted, support, average="micro",
                                        zero_division=zero_division, stacklevel=5)
    values = np.stack([p, r, f])
    if np.isnan(values).any():  # zero_division=nan: leave those classes out
        macro = [_nanaverage(v) for v in values]
        weighted = [_nanaverage(v, support) for v in values]
    else:  # the same arithmetic as numpy's mean and average, row by row
        macro = values.mean(axis=1).tolist()
        weight = np.sum(support, dtype=float)
        if weight > 0:
            weighted = (np.multiply(values, support, dtype=float).sum(axis=1) / weight).tolist()
        else:
            weighted = macro
    return p, r, f, s, [
        (micro_heading, mp, mr, mf, total),
        ("macro avg", *macro, total),
        ("weighted avg", *weighted, total),
    ]


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
    values = [yt.dtype.type(c) if t else yp.dtype.type(c) for c, t in zip(classes.tolist(), in_true)]
    return np.asarray(values)


def _py(x):
    """A numpy scalar as the Python number it holds (formats like numpy's)."""
    return x.item() if isinstance(x, np.generic) else x


def render_report(names, precision, recall, fscore, support, averages, *,
                  headers=HEADERS, digits=2, output="text", name_pool=None):
    """Lay out a per-class report as text, a dict or a pandas DataFrame.

    One row per class -- ``names[i]`` with ``precision[i]``, ``recall[i]``,
    ``fscore[i]`` and ``support[i]`` (rows stop at the shorter of ``names``
    and the arrays) -- then one row per average ``(heading, P, R, F,
    support)``. An average headed ``"accuracy"`` shows only its F column,
    as scikit-learn shows accuracy (its dict value is the P column).

    Text: the name column is as wide as the longest of ``name_pool``
    (default ``names``), "weighted avg" and ``digits``; number columns are
    as wide as the longest header, and at least 9 (scikit-learn's layout).

    Parameters
    ----------
    names : sequence of str
    precision, recall, fscore, support : array-like
    averages : list of tuples ``(heading, P, R, F, support)``
    headers : 4 str, default ("precision", "recall", "f1-score", "support")
    digits : int, default 2
    output : {"text", "dict", "frame"}
    name_pool : sequence of str, optional

    Examples
    --------
    >>> print(render_report(["a", "b"], [1.0, 0.5], [0.5, 1.0], [2 / 3, 2 / 3], [2, 1],
    ...                     [("macro avg", 0.75, 0.75, 2 / 3, 3)]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               a       1.00      0.50      0.67         2
               b       0.50      1.00      0.67         1
    <BLANKLINE>
       macro avg       0.75      0.75      0.67         3
    <BLANKLINE>
    """
    columns = [np.asarray(x).tolist() for x in (precision, recall, fscore, support)]
    rows = list(zip(names, *columns))  # Python numbers: they format as numpy's do
    if output == "dict":
        h0, h1, h2, h3 = headers
        report = {name: {h0: float(p), h1: float(r), h2: float(f), h3: float(s)}
                  for name, p, r, f, s in rows}
        for heading, p, r, f, s in averages:
            if heading == "accuracy":
                report[heading] = float(p)
            else:
                report[heading] = dict(zip(headers, (float(p), float(r), float(f), float(s))))
        return report
    if output == "frame":
        import pandas as pd

        table = [list(row[1:]) for row in rows]
        index = [row[0] for row in rows]
        for heading, p, r, f, s in averages:
            nan = float("nan")
            table.append([nan, nan, _py(f), _py(s)] if heading == "accuracy"
                         else [_py(p), _py(r), _py(f), _py(s)])
            index.append(heading)
        return pd.DataFrame(table, index=index, columns=list(headers))
    pool = [str(n) for n in (names if name_pool is None else name_pool)]
    width = max(max(len(n) for n in pool), len(_LONGEST_AVERAGE), digits)
    col = max(9, *(len(h) for h in headers))
    lines = [f"{'':>{width}} " + "".join(f" {h:>{col}}" for h in headers), ""]
    for name, p, r, f, s in rows:
        lines.append(f"{str(name):>{width}} " + "".join(f" {v:>{col}.{digits}f}" for v in (p, r, f))
                     + f" {s:>{col}}")
    lines.append("")
    for heading, p, r, f, s in averages:
        s = _py(s)
        if heading == "accuracy":
            cells = " " * (2 * (col + 1)) + f" {_py(f):>{col}.{digits}f}"
        else:
            cells = "".join(f" {_py(v):>{col}.{digits}f}" for v in (p, r, f))
        lines.append(f"{heading:>{width}} " + cells + f" {s:>{col}}")
    return "\n".join(lines) + "\n"


def classification_report(y_true, y_pred, *, labels=None, target_names=None,
                          sample_weight=None, digits=2, output_dict=False,
                          zero_division="warn", output=None):
    """Precision, recall, F1 and support per class, and their averages, as scikit-learn's.

    For class c: ``P_c = tp_c / predicted_c``, ``R_c = tp_c / support_c``,
    ``F1_c = 2·tp_c / (support_c + predicted_c)``. Then three averages:

    * micro (微平均): the ratios of the summed counts,
      ``Σ tp_c / Σ predicted_c`` -- shown as the ``accuracy`` row when the
      report covers every class present (P = R = F1 = accuracy then), as
      ``micro avg`` when ``labels`` leaves some out;
    * macro (宏平均): ``(1/m) Σ_c P_c`` over the m classes shown;
    * weighted (加权平均): ``Σ_c support_c·P_c / Σ_c support_c``.

    Counts are made once (:func:`evalkit._counts.class_counts`), per-class
    ratios once, and the averages from them. The text is scikit-learn's,
    character for character; so is the dict (``output_dict=True``).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    labels : array-like, default=None
        Classes to report, in this order (default: every class present, sorted).
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
    output : {None, "text", "dict", "frame"}, default=None
        ``"frame"`` gives a pandas DataFrame (the accuracy row has only
        f1-score and support). None follows ``output_dict``.

    Returns
    -------
    str, dict or pandas.DataFrame

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
    zero_division = check_zero_division(zero_division)
    digits = check_digits(digits)
    output = check_output(output, output_dict)
    _, yt, yp = check_targets(y_true, y_pred)
    w = check_sample_weight(sample_weight, len(yt))
    counts = _class_counts(yt, yp, None, w)  # every class present, counted once
    tp, predicted, support = counts.tp, counts.predicted, counts.support
    if labels is None:
        shown, labels_given, covers_all = counts.labels, False, True
    else:
        shown, sel = _select(counts.labels, labels)
        covered = np.zeros(len(counts.labels), dtype=bool)
        covered[sel[sel >= 0]] = True
        labels_given, covers_all = True, bool(covered.all())
        tp, predicted, support = _take(tp, sel), _take(predicted, sel), _take(support, sel)
    if w is None and counts.tp.sum() == 0:
        # scikit-learn's counts turn float when no sample at all is correct
        # (its support then prints as "2.0"); mirrored for the same text.
        tp, predicted, support = (x.astype(float) for x in (tp, predicted, support))
    # scikit-learn rebuilds the sums as tp + fp and tp + fn; the same
    # arithmetic gives the same last bits with fractional weights.
    predicted = tp + (predicted - tp)
    support = tp + (support - tp)

    if target_names is None:
        if labels is None:
            shown = _typed_as_sklearn(shown, yt, yp)
        names = ["%s" % label for label in shown]
    else:
        names = check_target_names(target_names, len(shown), strict=not labels_given,
                                   stacklevel=3)

    p, r, f, s, averages = _rows(tp, predicted, support, zero_division=zero_division,
                                 micro_heading="accuracy" if covers_all else "micro avg")
    return render_report(names, p, r, f, s, averages, digits=digits, output=output)
