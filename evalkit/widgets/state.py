"""The pure state functions behind :mod:`evalkit.widgets` (numpy only).

Each widget of :mod:`evalkit.widgets` shows one of these functions, so a plain
cell can call the same function at a fixed value and print the same text the
widget shows: :func:`explorer_state` / :func:`explorer_text` (counts and
metrics at one threshold of a sweep, with :func:`confusion_html` as its
table), :func:`imbalance_state` / :func:`imbalance_text` (the "always predict
the majority" baseline at one class ratio) and :func:`roc_builder_state` /
:func:`roc_builder_text` (a ROC curve built one sample at a time).
"""

from __future__ import annotations

import html

import numpy as np
from numpy.typing import ArrayLike

from .._binary import LAYOUTS, BinaryCounts, accuracy_of, tnr_of
from .._curves import roc_points, trapezoid
from .._ratios import f_beta_of, fpr_of, precision_of, recall_of
from .._sweep import Sweep, positive_mask, threshold_sweep
from .._validation import (BETA, BOTH_CLASSES, ZERO_DIVISION_SPARK, InstanceOf, Integer, Options,
                           Real, Satisfies, check, check_rules, validate_params)

__all__ = ["explorer_state", "explorer_text", "confusion_html", "imbalance_state", "imbalance_text",
           "roc_builder_state", "roc_builder_text", "LAYOUTS", "EXPLORER_KEYS", "IMBALANCE_KEYS",
           "ROC_BUILDER_KEYS"]

#: The keys of :func:`explorer_text`, in the order the explorer shows them.
EXPLORER_KEYS = ("threshold", "accuracy", "precision", "recall", "f1", "f_beta", "above", "below")
#: The keys of :func:`imbalance_text`.
IMBALANCE_KEYS = ("ratio", "accuracy", "minority_recall", "majority_recall", "balanced_accuracy")
#: The keys of :func:`roc_builder_text`.
ROC_BUILDER_KEYS = ("step", "taken", "tpr", "fpr", "area")
#: What each widget's figure shows, in words, by the widget's CSS class: its alt text in the course
#: site's static copy (tools/make_site.py). (An ipywidgets Image has no alt text, and a tooltip on
#: one breaks its view in the browser.) Not exported.
FIGURE_ALT = {
    "evalkit-threshold-explorer": "The scores of each class as histograms with the threshold as "
                                  "a vertical line, and the threshold's point on the ROC curve "
                                  "and on the precision-recall curve",
    "evalkit-imbalance-explorer": "Accuracy, balanced accuracy and the minority's recall of the "
                                  "always-the-majority baseline against the majority's share, with "
                                  "the chosen share marked",
    "evalkit-roc-builder": "The ROC curve built so far, one distinct score at a time from the "
                           "highest, with the area under it shaded",
}


def _num(x):
    """A count as text: integers without a decimal point, weights with up to 6 digits."""
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _decimals(state, **names):
    """The line ``"<name> <value>"`` of each key, with four decimals: stable text for nbval."""
    return {key: f"{name} {state[key]:.4f}" for key, name in names.items()}


# -- the threshold explorer ---------------------------------------------------


def _sweep_or_pair(v):
    return isinstance(v, Sweep) or (isinstance(v, tuple) and len(v) == 2)


@validate_params(sweep=Satisfies(_sweep_or_pair,
                                 "a Sweep from threshold_sweep or a (y_true, y_score) pair"),
                 threshold=Real(finite=False), beta=BETA, zero_division=ZERO_DIVISION_SPARK)
def explorer_state(sweep: Sweep | tuple, threshold: float, beta: float = 1.0, *,
                   zero_division: str | float = "warn", pos_label: int | str | None = None) -> dict:
    """Counts and metrics of predicting positive when ``score >= threshold``.

    One lookup in the sweep (:meth:`Sweep.counts_at`, a binary search), then
    ratios of the four counts: accuracy = (tp + tn) / n, precision =
    tp / (tp + fp), recall = tp / (tp + fn), fpr = fp / (fp + tn), F1 and
    F-beta = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp). "Above" are the samples
    scored at or above the threshold (predicted positive, tp + fp), "below"
    the rest (fn + tn). A ratio whose denominator is 0 (precision when nothing
    is predicted positive) takes ``zero_division``: ``"warn"`` (scikit-learn's
    default, 0.0 and a warning), 0.0 (the widget's choice, without a warning,
    since a slider passes through such thresholds), 1.0, nan, or ``"spark"``
    (Spark's 1.0 for precision).

    Parameters
    ----------
    sweep : Sweep or (y_true, y_score)
        From :func:`~evalkit._sweep.threshold_sweep`, computed once (a widget
        does); or the labels and scores, swept here (with ``pos_label``).
    threshold : float
    beta : float, default 1.0
    zero_division : {"warn", 0.0, 1.0, nan, "spark"}, default "warn"
    pos_label : optional
        The positive class, only when ``sweep`` is ``(y_true, y_score)``.

    Returns
    -------
    dict
        ``threshold``, ``beta``, ``counts`` (a :class:`~evalkit.BinaryCounts`),
        ``tp``, ``fp``, ``fn``, ``tn``, ``above``, ``below``, ``accuracy``,
        ``precision``, ``recall``, ``fpr``, ``f1``, ``f_beta``.

    Examples
    --------
    The Spark post's scores: one woman at 1.0, five at 0.6, five at 0.4, 89 men at 0.0.

    >>> y = [1] * 11 + [0] * 89
    >>> s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    >>> st = explorer_state(threshold_sweep(y, s), 0.5, beta=2.0)
    >>> st["counts"], st["above"], st["below"]
    (BinaryCounts(tp=6, fp=0, fn=5, tn=89), 6, 94)
    >>> round(st["accuracy"], 4), st["precision"], round(st["recall"], 4), round(st["f_beta"], 4)
    (0.95, 1.0, 0.5455, 0.6)
    >>> explorer_state((y, s), 0.5)["counts"] == st["counts"]
    True
    """
    if isinstance(sweep, tuple):
        y_true, y_score = sweep
        sweep = threshold_sweep(y_true, y_score, pos_label=pos_label)
    threshold = float(threshold)
    beta = float(beta)
    zd = zero_division
    if not isinstance(zero_division, str):
        zd = float(zero_division)
    c = sweep.counts_at(threshold)
    return {
        "threshold": threshold,
        "beta": beta,
        "counts": c,
        "tp": c.tp,
        "fp": c.fp,
        "fn": c.fn,
        "tn": c.tn,
        "above": c.tp + c.fp,
        "below": c.fn + c.tn,
        "accuracy": accuracy_of(c.tp, c.tn, c.total, zero_division=0.0),
        "precision": precision_of(c.tp, c.fp, zd),
        "recall": recall_of(c.tp, c.fn, zd),
        "fpr": fpr_of(c.fp, c.tn, zd),
        "f1": f_beta_of(c.tp, c.fp, c.fn, 1.0, zd),
        "f_beta": f_beta_of(c.tp, c.fp, c.fn, beta, zd),
    }


def explorer_text(state: dict) -> dict:
    """The lines the threshold explorer shows for ``state``, by key.

    Numbers are printed with four decimals, so the text is stable (the
    browser test and nbval compare it). Keys: ``EXPLORER_KEYS``.

    >>> y = [1] * 11 + [0] * 89
    >>> s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    >>> for line in explorer_text(explorer_state(threshold_sweep(y, s), 0.5, 2)).values():
    ...     print(line)
    threshold 0.5000
    accuracy 0.9500
    precision 1.0000
    recall 0.5455
    F1 0.7059
    F-beta (beta 2.00) 0.6000
    above threshold (predicted positive) 6: 6 positive, 0 negative
    below threshold (predicted negative) 94: 5 positive, 89 negative
    """
    s = state
    return {
        **_decimals(s, threshold="threshold", accuracy="accuracy", precision="precision",
                    recall="recall", f1="F1"),
        "f_beta": f"F-beta (beta {s['beta']:.2f}) {s['f_beta']:.4f}",
        "above": (f"above threshold (predicted positive) {_num(s['above'])}: "
                  f"{_num(s['tp'])} positive, {_num(s['fp'])} negative"),
        "below": (f"below threshold (predicted negative) {_num(s['below'])}: "
                  f"{_num(s['fn'])} positive, {_num(s['tn'])} negative"),
    }


@validate_params(counts=InstanceOf(BinaryCounts, "a BinaryCounts"), layout=Options(LAYOUTS))
def confusion_html(counts: BinaryCounts, layout: str = "actual-by-predicted") -> str:
    """The 2 x 2 table of ``counts`` as an HTML table, in either layout the seeds use.

    Cells carry ``data-cell="tp"`` (``fp``, ``fn``, ``tn``) so a test can find them.

    >>> table = confusion_html(BinaryCounts(1, 0, 10, 89), "predicted-by-actual")
    >>> print(table.replace("<tr>", "\\n<tr>").replace("<td", "\\n  <td"))
    <table class="evalkit-confusion">
    <tr><th></th><th>actual positive</th><th>actual negative</th></tr>
    <tr><th>predicted positive</th>
      <td data-cell="tp">TP 1</td>
      <td data-cell="fp">FP 0</td></tr>
    <tr><th>predicted negative</th>
      <td data-cell="fn">FN 10</td>
      <td data-cell="tn">TN 89</td></tr></table>
    """
    cells = [["tp", "fn"], ["fp", "tn"]]  # actual-by-predicted: rows are the actual class
    rows, cols = "actual", "predicted"
    if layout == "predicted-by-actual":
        cells = [["tp", "fp"], ["fn", "tn"]]
        rows, cols = cols, rows
    head = f"<th>{cols} positive</th><th>{cols} negative</th>"
    body = ""
    for label, names in zip(("positive", "negative"), cells):
        row = "".join(_cell_html(counts, name) for name in names)
        body += f"<tr><th>{rows} {label}</th>{row}</tr>"
    return f'<table class="evalkit-confusion"><tr><th></th>{head}</tr>{body}</table>'


def _cell_html(counts, name):
    """One cell of the table: ``<td data-cell="tp">TP 6</td>``."""
    value = html.escape(_num(getattr(counts, name)))
    return f'<td data-cell="{name}">{name.upper()} {value}</td>'


# -- class imbalance ----------------------------------------------------------


@validate_params(majority=Real(0.5, 1, closed="left", meaning="the share of the majority class"),
                 n=Integer(2, meaning="the number of samples"))
def imbalance_state(majority: float, *, n: int = 100) -> dict:
    """The "always predict the majority class" baseline on ``n`` samples.

    ``round(majority * n)`` samples are of the majority class, the rest of the
    minority class, which is taken as positive. Predicting the majority for
    everyone gives tp = fp = 0, fn = #minority, tn = #majority, so

    accuracy = #majority / n = ``majority`` (it climbs with the imbalance),
    minority recall = 0 / #minority = 0 (always), majority recall = 1, and
    balanced accuracy = (0 + 1) / 2 = 0.5. Precision of the minority is 0/0,
    reported as 0.0 (scikit-learn's ``zero_division`` default). The Spark
    post (90 men / 10 women: 90 %) and the logistic-regression post (99 / 1:
    99 %) are two points of it.

    Parameters
    ----------
    majority : float
        Share of the majority class, 0.5 <= majority < 1.
    n : int, default 100

    Examples
    --------
    >>> st = imbalance_state(0.9)
    >>> st["counts"], st["accuracy"], st["minority_recall"], st["balanced_accuracy"]
    (BinaryCounts(tp=0, fp=0, fn=10, tn=90), 0.9, 0.0, 0.5)
    """
    majority, n = float(majority), int(n)
    n_major = int(round(majority * n))
    n_minor = check(n - n_major, Integer(1, meaning=f"of n={n} samples"),
                    f"majority={majority!r} leaves a minority count that")
    c = BinaryCounts(tp=0, fp=0, fn=n_minor, tn=n_major)
    minority_recall = recall_of(c.tp, c.fn, 0.0)
    majority_recall = tnr_of(c.tn, c.fp, 0.0)  # the negative class's recall
    return {
        "majority": majority,
        "n": n,
        "n_majority": n_major,
        "n_minority": n_minor,
        "counts": c,
        "accuracy": accuracy_of(c.tp, c.tn, c.total, 0.0),
        "minority_recall": minority_recall,
        "minority_precision": precision_of(c.tp, c.fp, 0.0),
        "minority_f1": f_beta_of(c.tp, c.fp, c.fn, 1.0, 0.0),
        "majority_recall": majority_recall,
        "balanced_accuracy": (minority_recall + majority_recall) / 2,
    }


def imbalance_text(state: dict) -> dict:
    """The lines the imbalance explorer shows for ``state``, by key.

    >>> for line in imbalance_text(imbalance_state(0.99)).values():
    ...     print(line)
    majority 99 / minority 1 (of 100)
    accuracy of always predicting the majority 0.9900
    minority recall 0.0000
    majority recall 1.0000
    balanced accuracy 0.5000
    """
    s = state
    return {
        "ratio": f"majority {s['n_majority']} / minority {s['n_minority']} (of {s['n']})",
        **_decimals(s, accuracy="accuracy of always predicting the majority",
                    minority_recall="minority recall", majority_recall="majority recall",
                    balanced_accuracy="balanced accuracy"),
    }


# -- building the ROC curve by hand -------------------------------------------


@validate_params(step=Integer(0, meaning="one step per distinct score"))
def roc_builder_state(y_true: ArrayLike, y_score: ArrayLike, step: int, *,
                      pos_label: int | str | None = None) -> dict:
    """The logistic-regression post's ROC construction after ``step`` steps: the path, its area.

    Sort the samples by score, highest first; each step predicts the next
    sample positive too, i.e. lowers the threshold to its score: a positive
    moves the point up by 1 / #positives (TPR), a negative right by
    1 / #negatives (FPR). Samples with tied scores enter in the same step (a
    diagonal segment), as any threshold takes them together; with distinct
    scores a step is one sample. The running area is the trapezoid sum under
    the path so far; after the last step it is the AUC.

    Parameters
    ----------
    y_true, y_score : array-like
        Binary labels and scores, as for ``roc_auc_score``.
    step : int
        0 (nothing predicted positive, the point (0, 0)) to ``n_steps``.
    pos_label : optional
        As in :func:`~evalkit._sweep.threshold_sweep`.

    Returns
    -------
    dict
        ``step``, ``n_steps``, ``order`` (0-based sample indices, highest
        score first, ties in input order), ``new`` (the indices that entered at
        this step), ``new_labels`` (True for positives), ``threshold`` (their
        score; None at step 0), ``fpr_path``, ``tpr_path`` (lists of length
        step + 1, from (0, 0)), ``fpr``, ``tpr``, ``area``, ``counts``.

    Examples
    --------
    The logistic-regression post, sequence 1: samples 1 and 3 (1-based) are clicked and scored
    highest.

    >>> y = [1, 0, 1, 0, 0, 0]
    >>> p = [0.9, 0.7, 0.8, 0.6, 0.5, 0.4]
    >>> st = roc_builder_state(y, p, 2)
    >>> st["new"], st["fpr"], st["tpr"], st["area"]
    ([2], 0.0, 1.0, 0.0)
    >>> roc_builder_state(y, p, 6)["area"]
    1.0
    """
    sw = threshold_sweep(y_true, y_score, pos_label=pos_label)
    check_rules(BOTH_CLASSES, sweep=sw, why="the ROC curve needs both classes")
    n_steps = len(sw)
    steps = Integer(0, n_steps, meaning="one step per distinct score")
    step = int(check(step, steps, "step"))
    scores = np.asarray(y_score, dtype=float)
    order = np.argsort(-scores, kind="stable")
    fpr, tpr = roc_points(sw)
    fpr_path = fpr[:step + 1]
    tpr_path = tpr[:step + 1]
    threshold = None  # step 0: nothing predicted positive
    lowest = np.inf
    if step:
        lowest = sw.thresholds[step - 1]
        threshold = float(lowest)
    new = [int(i) for i in order if scores[i] == threshold]  # none at step 0
    pos = positive_mask(y_true, pos_label)
    return {
        "step": step,
        "n_steps": n_steps,
        "order": [int(i) for i in order],
        "new": new,
        "new_labels": [bool(pos[i]) for i in new],
        "threshold": threshold,
        "fpr_path": fpr_path.tolist(),
        "tpr_path": tpr_path.tolist(),
        "fpr": float(fpr_path[-1]),
        "tpr": float(tpr_path[-1]),
        "area": trapezoid(fpr_path, tpr_path),
        "counts": sw.counts_at(lowest),
    }


def roc_builder_text(state: dict) -> dict:
    """The lines the ROC builder shows for ``state``, by key (samples numbered from 1, as the post).

    >>> y, p = [1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    >>> for line in roc_builder_text(roc_builder_state(y, p, 3)).values():
    ...     print(line)
    step 3 of 6
    took sample 3 (score 0.7, positive)
    TPR 1.0000
    FPR 0.2500
    area so far 0.1250
    """
    s = state
    taken = "nothing predicted positive yet: the point (0, 0)"
    if s["new"]:
        taken = _taken_words(s)
    return {
        "step": f"step {s['step']} of {s['n_steps']}",
        "taken": taken,
        **_decimals(s, tpr="TPR", fpr="FPR", area="area so far"),
    }


def _taken_words(state):
    """What a step took: ``took samples 2, 5 (score 0.7, positive and negative)``."""
    who = ", ".join(f"{i + 1}" for i in state["new"])
    kinds = set()
    for positive in state["new_labels"]:
        if positive:
            kinds.add("positive")
        else:
            kinds.add("negative")
    kinds = " and ".join(sorted(kinds, reverse=True))
    plural = ""
    if len(state["new"]) > 1:
        plural = "s"
    return f"took sample{plural} {who} (score {state['threshold']:g}, {kinds})"
