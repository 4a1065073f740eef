"""A per-class report from counts: its rows and their layout as text or a dict.

Shared by :func:`evalkit.classification_report`, :func:`evalkit.topk_report`
and the reports of :mod:`evalkit.spark`. The numbers come from one call of
:func:`evalkit._ratios.prf` per class and one for the micro average; the
macro and weighted averages are taken from the per-class values (never by
recounting). The text is scikit-learn's, character for character; the dict
is ``output_dict=True``'s (a pandas frame is ``pd.DataFrame(report).T``).
"""

from __future__ import annotations

import numpy as np

from ._ratios import nanaverage, prf
from ._validation import check_target_names, python_scalar

__all__ = ["HEADERS", "report_rows", "render", "topk_headers", "labelled_report",
           "topk_report_from_counts"]

HEADERS = ("precision", "recall", "f1-score", "support")
_LONGEST_AVERAGE = "weighted avg"


def report_rows(tp, predicted, support, *, zero_division, micro_heading="accuracy",
                samples=None):
    """A report's numbers from per-class counts: ``(p, r, f, support, averages)``.

    Per class, :func:`prf`'s values; then the average rows ``(heading, P, R,
    F, support)``: micro (the ratios of the summed counts), macro (the plain
    mean of the per-class values), weighted (their mean weighted by
    support); classes whose value is nan (``zero_division=nan``) are left
    out, as in scikit-learn. ``samples``: the ``(tp, predicted, actual,
    sample_weight)`` of each sample, for a multilabel report's "samples avg".

    >>> tp, predicted, support = np.array([1, 1]), np.array([1, 2]), np.array([2, 1])
    >>> report_rows(tp, predicted, support, zero_division=0.0)[4][1][:4]
    ('macro avg', 0.75, 0.75, 0.6666666666666666)
    """
    p, r, f, s = prf(tp, predicted, support, zero_division=zero_division)
    mp, mr, mf, _ = prf(tp, predicted, support, average="micro", zero_division=zero_division)
    values = np.stack([p, r, f])
    total = np.sum(support)
    rows = [(micro_heading, mp, mr, mf, total),
            ("macro avg", *nanaverage(values).tolist(), total),
            ("weighted avg", *nanaverage(values, support).tolist(), total)]
    if samples is not None:
        sp, sr, sf, _ = prf(*samples[:3], average="samples", weights=samples[3],
                            zero_division=zero_division)
        rows.append(("samples avg", sp, sr, sf, total))
    return p, r, f, s, rows


def render(names, precision, recall, fscore, support, averages, *, headers=HEADERS, digits=2,
           output_dict=False):
    """Lay out a per-class report as text, or as a dict (``output_dict=True``).

    One row per class -- ``names[i]`` with ``precision[i]``, ``recall[i]``,
    ``fscore[i]`` and ``support[i]`` (rows stop at the shorter of ``names``
    and the arrays) -- then one row per average ``(heading, P, R, F,
    support)``. An average headed ``"accuracy"`` shows only its F column,
    as scikit-learn shows accuracy (its dict value is the P column). Text:
    the name column is as wide as the longest of ``names``, "weighted avg"
    and ``digits``; number columns as wide as the
    longest header, at least 9 (scikit-learn's layout).

    >>> print(render(["a", "b"], [1.0, 0.5], [0.5, 1.0], [2 / 3, 2 / 3], [2, 1],
    ...              [("macro avg", 0.75, 0.75, 2 / 3, 3)]))
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
    if output_dict:
        return _as_dict(rows, averages, headers)
    width = max(max(len(str(n)) for n in names), len(_LONGEST_AVERAGE), digits)
    column = max(9, *(len(h) for h in headers))
    heads = "".join(f" {h:>{column}}" for h in headers)
    lines = [f"{'':>{width}} " + heads, ""]
    for name, p, r, f, s in rows:
        ratios = _cells((p, r, f), column, digits)
        lines.append(f"{str(name):>{width}} {ratios} {s:>{column}}")
    lines.append("")
    for heading, p, r, f, s in averages:
        shown = (p, r, f)
        blank = ""
        if heading == "accuracy":  # scikit-learn shows only accuracy's F column
            shown = (f,)
            blank = " " * (column + 1) * 2
        ratios = _cells(shown, column, digits)
        lines.append(f"{heading:>{width}} {blank}{ratios} {python_scalar(s):>{column}}")
    return "\n".join(lines) + "\n"


def _cells(values, column, digits):
    """Ratios right-aligned in columns of ``column`` characters, ``digits`` decimals each."""
    return "".join(f" {python_scalar(v):>{column}.{digits}f}" for v in values)


def _as_dict(rows, averages, headers):
    """The report as scikit-learn's ``output_dict=True`` dict (accuracy: a float, P's value)."""
    report = {}
    for name, *values in rows:
        report[name] = dict(zip(headers, map(float, values)))
    for heading, *values in averages:
        if heading == "accuracy":
            report[heading] = float(values[0])
        else:
            report[heading] = dict(zip(headers, map(float, values)))
    return report


def topk_headers(k):
    """The top-k report's headers: ``precision@k``, ``recall@k``, ``f1-score@k``, ``support``."""
    return (f"precision@{k}", f"recall@{k}", f"f1-score@{k}", "support")


def labelled_report(labels, tp, predicted, support, *, zero_division, target_names=None,
                    strict=True, classes=None, none_correct=False, micro_heading="accuracy",
                    samples=None, **layout):
    """The whole report from per-class counts: rows named, counts typed as scikit-learn's.

    Rows are named ``target_names`` (one per label, checked: another number
    raises if ``strict``, else warns; ``classes`` are named in the message)
    or the labels as text. ``none_correct``: scikit-learn's integer counts
    turn float when no sample at all is correct (its support then prints as
    "2.0"); mirrored for the same text. Then :func:`report_rows`
    (``zero_division``, ``micro_heading``, ``samples``) and :func:`render`
    (``layout``: ``headers``, ``digits``, ``output_dict``).

    >>> print(labelled_report([0, 1], np.array([1, 1]), np.array([1, 2]), np.array([2, 1]),
    ...                       zero_division=0.0, headers=topk_headers(2),
    ...                       micro_heading="micro avg"), end="")
                  precision@2    recall@2  f1-score@2     support
    <BLANKLINE>
               0         1.00        0.50        0.67           2
               1         0.50        1.00        0.67           1
    <BLANKLINE>
       micro avg         0.67        0.67        0.67           3
       macro avg         0.75        0.75        0.67           3
    weighted avg         0.83        0.67        0.67           3
    """
    if target_names is None:
        names = ["%s" % c for c in labels]
    else:
        names = check_target_names(target_names, len(labels), strict=strict, classes=classes)
    if none_correct:
        tp = np.asarray(tp, dtype=float)
        predicted = np.asarray(predicted, dtype=float)
        support = np.asarray(support, dtype=float)
    p, r, f, s, averages = report_rows(tp, predicted, support, zero_division=zero_division,
                                       micro_heading=micro_heading, samples=samples)
    return render(names, p, r, f, s, averages, **layout)


def topk_report_from_counts(counts, k, *, target_names=None, digits=2, output_dict=False,
                            zero_division=0.0):
    """The top-k report (``evalkit.topk_report``'s layout) from per-class top-k ``ClassCounts``.

    Rows are named ``target_names`` (one per class of ``counts``) or the classes.
    """
    return labelled_report(counts.labels, counts.tp, counts.predicted, counts.support,
                           target_names=target_names, classes=counts.labels.tolist(),
                           zero_division=zero_division, digits=digits, output_dict=output_dict,
                           micro_heading="micro avg", headers=topk_headers(k))
