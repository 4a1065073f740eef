"""Plots of the threshold sweep: ROC, PR, the confusion matrix, and ROC by hand.

Every curve here is read off one threshold sweep of its scores
(:func:`~evalkit._sweep.threshold_sweep`, as :mod:`evalkit.curves` calls it)
and turned into points and areas by the one sweep-to-curve step
(:mod:`evalkit._curves`) the metrics and the Spark mirror use, so a plotted
point and the number a metric reports for that threshold cannot disagree.
ROC plots draw the chance diagonal and PR plots the prevalence baseline
(a random ranking's curves) unless asked not to. matplotlib is
imported only when a function needs a new figure (``import evalkit`` never
imports it). Each function takes ``ax=None`` (a new figure is made then) and
returns the Axes it drew on, so figures can be composed and tested through
the Axes' data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ._binary import LAYOUTS, BinaryCounts
from ._counts import calibration_bins
from ._curves import average_precision, pr_points, roc_points, trapezoid
from ._ratios import ratio
from ._sweep import threshold_sweep
from ._validation import (BOTH_CLASSES, CALIBRATION_BINS, POSITIVES, ZERO_WEIGHT, Bool, Options,
                          Satisfies, check_count_matrix, check_row_labels, check_rules,
                          validate_params)

if TYPE_CHECKING:  # matplotlib is optional: imported when a function makes a figure
    from matplotlib.axes import Axes

__all__ = ["roc", "pr", "confusion", "roc_steps", "reliability"]

CONVENTIONS = {"sklearn": "scikit-learn's precision_recall_curve, drawn as steps",
               "spark": "Spark's BinaryClassificationMetrics.pr(), straight lines"}
NORMALIZES = (None, "true", "pred", "all")


def _is_axes(v):
    return hasattr(v, "plot") and hasattr(v, "figure")


_AX = [None, Satisfies(_is_axes, "a matplotlib Axes")]


# -- helpers ------------------------------------------------------------------


def _axes(ax, figsize=(4.8, 4.8)):
    """``ax`` itself, or the Axes of a new figure (pyplot imported only then)."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize)
    return ax


def _roc_points(y_true, y_score, pos_label=None, sample_weight=None, zero_weight="drop"):
    """The sweep and its (FPR, TPR) from (0, 0), as :func:`evalkit.roc_curve`; both classes
    needed."""
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, zero_weight=zero_weight)
    check_rules(BOTH_CLASSES, sweep=sweep,
                why="the ROC curve needs both classes (TPR = TP / P and FPR = FP / N)")
    return sweep, *roc_points(sweep, "sklearn")


def _reference(ax, gid, y, label, linestyle="--"):
    """A reference line from x = 0 to x = 1 at heights ``y``, once per Axes and height.

    The lines a curve is read against: a random ranking's ROC diagonal and PR
    prevalence, perfect calibration. ``gid`` names the kind, so a second call
    on the same Axes draws no second line of that kind at the same height.
    """
    drawn = (line.get_gid() == gid and line.get_ydata()[0] == y[0] for line in ax.lines)
    if not any(drawn):
        ax.plot([0, 1], y, color="k", linestyle=linestyle, linewidth=0.8, label=label,
                gid=gid)


def _chance(ax, chance):
    """The diagonal of a random ranking (AUC = 0.5), once per Axes."""
    if chance:
        _reference(ax, "evalkit-chance", [0, 1], "chance level (AUC = 0.5)")


def _fmt(v, digits=3):
    """A short number for a label: 0, 0.5, 0.25, 0.333."""
    return f"{float(v):.{digits}g}"


#: The axis names of every ROC plot (x, y).
_ROC_AXES = ("False positive rate, FPR = FP / N", "True positive rate, TPR = TP / P")


def _finish(ax, xlabel, ylabel, legend):
    """Name the axes, show the unit square (equal scales) and place the legend at ``legend``."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.legend(loc=legend)


# -- ROC ----------------------------------------------------------------------


@validate_params(ax=_AX, chance=Bool(), zero_weight=ZERO_WEIGHT)
def roc(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str | None = None,
        sample_weight: ArrayLike | None = None, ax: Axes | None = None, label: str | None = None,
        chance: bool = True, zero_weight: str = "drop", **line_kw: Any) -> Axes:
    """Plot the ROC curve: true positive rate against false positive rate.

    One point per distinct score ``t`` (predict positive when ``score >= t``),
    ``FPR(t) = FP(t) / N`` on x and ``TPR(t) = TP(t) / P`` on y, preceded by
    (0, 0) (nothing predicted positive) -- the points of scikit-learn's
    ``roc_curve(..., drop_intermediate=False)``, joined by straight lines as
    ``RocCurveDisplay`` joins them. Tied scores are one point, so a tie
    between positives and negatives is a diagonal segment. The legend shows
    the area under this polyline (the trapezoid rule, = ``roc_auc_score``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1}, {-1, 1}, or any two labels with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    pos_label : label, optional
        The positive class (scikit-learn's rule when None).
    sample_weight : array-like of shape (n_samples,), optional
        Weights: TP and FP become sums of weights.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    label : str, optional
        Legend label of the curve; ``"AUC = 0.xx"`` when None.
    chance : bool, default True
        Also draw the diagonal of a random ranking (AUC = 0.5), once per Axes.
    zero_weight : {"drop", "keep"}, default "drop"
        A sample of weight 0: ``"drop"`` makes no point (scikit-learn's
        ``roc_curve``), ``"keep"`` keeps its score's point (Spark's ``roc()``).
    **line_kw
        Passed to ``ax.plot`` for the curve.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` (the first curve drawn on a new Axes) holds the (FPR, TPR) points.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> ax.lines[0].get_xydata().tolist()
    [[0.0, 0.0], [0.0, 0.5], [0.5, 0.5], [0.5, 1.0], [1.0, 1.0]]
    >>> ax.lines[0].get_label()
    'AUC = 0.75'
    >>> plt.close(ax.figure)
    """
    _, fpr, tpr = _roc_points(y_true, y_score, pos_label, sample_weight, zero_weight)
    ax = _axes(ax)
    if label is None:
        label = f"AUC = {trapezoid(fpr, tpr):.2f}"
    ax.plot(fpr, tpr, label=label, **line_kw)
    _chance(ax, chance)
    _finish(ax, *_ROC_AXES, "lower right")
    return ax


# -- PR -----------------------------------------------------------------------


@validate_params(ax=_AX, convention=Options(CONVENTIONS), baseline=Bool(), zero_weight=ZERO_WEIGHT)
def pr(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str | None = None,
       sample_weight: ArrayLike | None = None, ax: Axes | None = None, label: str | None = None,
       convention: str = "sklearn", baseline: bool = True, zero_weight: str = "drop",
       **line_kw: Any) -> Axes:
    """Plot the precision-recall curve: precision against recall.

    At each distinct score ``t``, ``recall(t) = TP(t) / P`` on x and
    ``precision(t) = TP(t) / (TP(t) + FP(t))`` on y. The two libraries differ
    at recall 0, where no threshold lies, and in how they join the points:

    * ``convention="sklearn"`` -- scikit-learn's ``precision_recall_curve``:
      the points from the lowest threshold to the highest, then (0, 1), drawn
      as steps (``drawstyle="steps-post"``) as ``PrecisionRecallDisplay``
      does, since average precision ``AP = Σ (R_k − R_{k−1}) P_k`` is the area
      under those steps. Legend: ``"AP = 0.xx"``.
    * ``convention="spark"`` -- Spark MLlib's ``BinaryClassificationMetrics.pr()``:
      first (0, precision at the highest threshold), then the points from the
      highest threshold to the lowest, joined by straight lines, whose
      trapezoid area is Spark's ``areaUnderPR``. Legend: ``"area = 0.xx"``.
      These are exactly the points of
      :meth:`evalkit.BinaryClassificationMetrics.pr` (with
      ``zero_weight="keep"``, as samples of weight 0 keep their thresholds there).

    The baseline is a random ranking's curve: precision = P / (P + N), the
    prevalence (正例比例), at every recall.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As for :func:`roc`; ``y_true`` needs at least one positive.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    label : str, optional
        Legend label; the area under the drawn curve (AP, or Spark's trapezoid area) when None.
    convention : {"sklearn", "spark"}, default "sklearn"
        Whose curve to draw (the library preset, evalkit's one word for it).
    baseline : bool, default True
        Also draw the prevalence line of a random ranking, once per value per Axes.
    zero_weight : {"drop", "keep"}, default "drop"
        A sample of weight 0: ``"drop"`` makes no point (scikit-learn),
        ``"keep"`` keeps its score's point (Spark, and evalkit's Spark mirrors).
    **line_kw
        Passed to ``ax.plot`` (e.g. ``drawstyle="default"`` to join
        scikit-learn's points by straight lines instead).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` (the first curve drawn on a new Axes) holds the (recall,
        precision) points in the library's order; the baseline follows it.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> ax = pr(y, s)
    >>> ax.lines[0].get_xydata().round(4).tolist()
    [[1.0, 0.5], [1.0, 0.6667], [0.5, 0.5], [0.5, 1.0], [0.0, 1.0]]
    >>> ax.lines[0].get_drawstyle(), ax.lines[0].get_label()
    ('steps-post', 'AP = 0.83')
    >>> ax.lines[1].get_label()  # the baseline: half of the samples are positive
    'chance level (prevalence = 0.5)'
    >>> ax = pr(y, s, convention="spark", ax=ax)
    >>> ax.lines[2].get_xydata().round(4).tolist()
    [[0.0, 1.0], [0.5, 1.0], [0.5, 0.5], [1.0, 0.6667], [1.0, 0.5]]
    >>> plt.close(ax.figure)
    """
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, zero_weight=zero_weight)
    check_rules(POSITIVES, sweep=sweep, why="recall = TP / P is undefined")
    ax = _axes(ax)
    x, y = pr_points(sweep, convention)
    if convention == "sklearn":
        area_label = f"AP = {average_precision(sweep.tps, sweep.fps):.2f}"
        line_kw = {"drawstyle": "steps-post", **line_kw}
    else:  # Spark's areaUnderPR, one partition
        area_label = f"area = {trapezoid(x, y, partitions=[len(x)]):.2f}"
    if label is None:
        label = area_label
    ax.plot(x, y, label=label, **line_kw)
    if baseline:  # a random ranking's PR curve: precision = P / (P + N) at every recall
        p = float(sweep.n_pos) / float(sweep.n_pos + sweep.n_neg)
        _reference(ax, "evalkit-prevalence", [p, p], f"chance level (prevalence = {_fmt(p)})",
                   linestyle=":")
    _finish(ax, "Recall = TP / P", "Precision = TP / (TP + FP)", "lower left")
    return ax


# -- the confusion matrix -------------------------------------------------------


@validate_params(layout=Options(LAYOUTS), normalize=Options(NORMALIZES), ax=_AX)
def confusion(counts: BinaryCounts | ArrayLike, *, labels: ArrayLike | None = None,
              layout: str = "actual-by-predicted", ax: Axes | None = None,
              normalize: str | None = None, cmap: str = "Blues") -> Axes:
    """Draw a confusion matrix as an annotated heat map.

    ``counts`` is a :class:`~evalkit.BinaryCounts` (positive class first) or
    a square matrix read as :func:`~evalkit.confusion_matrix` and
    scikit-learn return it: ``C[i, j]`` = samples of actual class ``i``
    predicted as class ``j``. ``layout`` only chooses how it is drawn:
    ``"actual-by-predicted"`` puts the actual class on the rows
    (scikit-learn's ``ConfusionMatrixDisplay``, the macro/micro post),
    ``"predicted-by-actual"`` the prediction (the Spark and recommender-metrics
    posts). The axis
    labels say which is which.

    ``normalize`` as in scikit-learn, by class, whatever the layout:
    ``"true"`` divides by the number of samples of each actual class (the
    cells of a class sum to 1: recall on the diagonal), ``"pred"`` by the
    number predicted as each class (precision on the diagonal), ``"all"`` by
    the total; a class with no samples gives 0.

    Parameters
    ----------
    counts : BinaryCounts or array-like of shape (C, C)
        The counts, rows actual and columns predicted for a matrix.
    labels : list of str, optional
        Class names in the matrix's order; ``["positive", "negative"]`` for a
        BinaryCounts, ``0 .. C-1`` otherwise.
    layout : {"actual-by-predicted", "predicted-by-actual"}
        What the rows of the drawing are.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    normalize : {None, "true", "pred", "all"}
        Show counts (None) or shares.
    cmap : str or Colormap, default "Blues"

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0]`` holds the drawn matrix, ``ax.texts`` one annotation
        per cell, row by row.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = confusion(BinaryCounts(tp=1, fp=0, fn=10, tn=89), layout="predicted-by-actual")
    >>> [t.get_text() for t in ax.texts]
    ['1', '0', '10', '89']
    >>> ax.get_ylabel(), ax.get_xlabel()
    ('Predicted class', 'Actual class')
    >>> plt.close(ax.figure)
    """
    if isinstance(counts, BinaryCounts):
        m = counts.matrix("actual-by-predicted")
        default = ["positive", "negative"]
    else:
        m = check_count_matrix(counts)
        default = range(len(m))
    if labels is None:
        labels = default
    else:
        labels = check_row_labels(labels, len(m))
    m = m.astype(float)
    if normalize is not None:  # by actual class (rows), predicted class (columns) or the total
        axis = {"true": 1, "pred": 0, "all": None}[normalize]
        sums = np.broadcast_to(m.sum(axis=axis, keepdims=True), m.shape)
        m = ratio(m, sums, zero_division=0.0)
    cell_format = _cell_format(m, normalize)
    rows, cols = ("Actual", "Predicted")
    if layout == "predicted-by-actual":
        m = m.T
        rows, cols = cols, rows
    size = m.shape[0]
    ax = _axes(ax, figsize=(1.6 + 1.1 * size, 1.3 + 1.1 * size))
    image = ax.imshow(m, cmap=cmap, vmin=0.0, vmax=max(float(m.max()), 1e-12))
    mid = (float(m.max()) + float(m.min())) / 2.0
    dark, light = image.cmap(1.0), image.cmap(0.0)
    for (i, j), v in np.ndenumerate(m):
        color = dark  # on a light cell
        if v > mid:
            color = light
        ax.text(j, i, cell_format.format(v), ha="center", va="center", color=color)
    ticks = np.arange(m.shape[0])
    names = [str(v) for v in labels]
    ax.set_xticks(ticks, names)
    ax.set_yticks(ticks, names)
    ax.set_xlabel(f"{cols} class")
    ax.set_ylabel(f"{rows} class")
    return ax


def _cell_format(m, normalize):
    """How cells are written: shares with 2 decimals, whole counts as integers, else 4 digits."""
    if normalize:
        return "{:.2f}"
    if np.all(m == np.round(m)):
        return "{:.0f}"
    return "{:.4g}"


# -- ROC by hand (the logistic-regression post) --------------------------------


def _step_label(fpr, tpr, k):
    """Where point ``k``'s label goes: beside a step up, upright off a step right, below a
    diagonal, and turned inwards near the right and top edges. Keywords of ``ax.annotate``."""
    up = tpr[k] > tpr[k - 1]
    right = fpr[k] > fpr[k - 1]
    place = {"xytext": (5, 0), "ha": "left", "va": "center", "rotation": 0}
    if up and not right:  # a positive: beside the vertical step
        if fpr[k] > 0.6:
            place.update(xytext=(-5, 0), ha="right")
        if tpr[k] == 1:
            place.update(xytext=(place["xytext"][0], -4), va="top")
    elif right and not up:  # a negative: upright, off the horizontal step
        place.update(rotation=90, xytext=(0, 5), ha="left", va="top")
        if tpr[k] > 0.5:  # below the step
            place.update(xytext=(0, -5), ha="right")
        if fpr[k] > 0.8:
            place.update(va="bottom")
    elif right and up:  # a tied block: below the diagonal's end
        place.update(xytext=(5, -3), va="top")
        if fpr[k] > 0.8:
            place.update(xytext=(-8, -6), ha="right")
    return place


@validate_params(ax=_AX, annotate=Bool(), chance=Bool())
def roc_steps(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str | None = None,
              ax: Axes | None = None, annotate: bool = True, chance: bool = True) -> Axes:
    """Draw the ROC curve as the logistic-regression post builds it by hand, sample by sample.

    Sort the samples by score, highest first, and take them from the top one
    at a time, predicting positive every sample taken so far. Each positive
    taken moves the point up by 1/P (TPR = TP / P), each negative right by
    1/N (FPR = FP / N); the path from (0, 0) to (1, 1) is a staircase and the
    shaded area under it is the AUC. Point ``k`` (after ``k`` samples) is
    annotated ``"k: (FPR, TPR)"``, as in the post's list of six points.

    Ties: samples with the same score cannot be taken one at a time (no
    threshold separates them), so a block of tied scores is taken at once and
    the path moves **diagonally**, by (negatives in the block / N, positives
    in the block / P); the point is numbered by the samples taken so far. The
    area under a diagonal counts each tied positive-negative pair as ½.

    Parameters
    ----------
    y_true, y_score, pos_label
        As for :func:`roc`.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    annotate : bool, default True
        Write ``"k: (FPR, TPR)"`` beside each point.
    chance : bool, default True
        Also draw the diagonal of a random ranking (AUC = 0.5), once per Axes.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` holds the path: (0, 0), then one point per block of
        samples taken; ``ax.collections[0]`` is the shaded area; ``ax.texts``
        the annotations.

    Examples
    --------
    The logistic-regression post's sequence 2: sample 2 (a negative) is ranked above sample 3
    (a positive).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = roc_steps([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> ax.lines[0].get_xydata()[1:].tolist()
    [[0.0, 0.5], [0.25, 0.5], [0.25, 1.0], [0.5, 1.0], [0.75, 1.0], [1.0, 1.0]]
    >>> [t.get_text() for t in ax.texts][:3]
    ['1: (0, 0.5)', '2: (0.25, 0.5)', '3: (0.25, 1)']
    >>> ax.lines[0].get_label()
    'area = 0.875'
    >>> plt.close(ax.figure)
    """
    sweep, fpr, tpr = _roc_points(y_true, y_score, pos_label)
    taken = np.r_[0, sweep.tps + sweep.fps]
    ax = _axes(ax)
    area = trapezoid(fpr, tpr)
    (path,) = ax.plot(fpr, tpr, marker="o", markersize=4, label=f"area = {_fmt(area, 4)}")
    ax.fill_between(fpr, tpr, color=path.get_color(), alpha=0.2, linewidth=0)
    _chance(ax, chance)
    if annotate:
        for k in range(1, len(fpr)):
            text = f"{taken[k]}: ({_fmt(fpr[k])}, {_fmt(tpr[k])})"
            ax.annotate(text, (fpr[k], tpr[k]), textcoords="offset points",
                        rotation_mode="anchor", fontsize=8, **_step_label(fpr, tpr, k))
    if sweep.n_neg <= 20 and sweep.n_pos <= 20:  # a grid of one sample per cell
        ax.set_xticks(np.linspace(0, 1, int(sweep.n_neg) + 1))
        ax.set_yticks(np.linspace(0, 1, int(sweep.n_pos) + 1))
        ax.grid(True, linewidth=0.5, alpha=0.5)
    _finish(ax, *_ROC_AXES, "best")
    return ax


# -- calibration: the reliability diagram ------------------------------------------


@validate_params(**CALIBRATION_BINS, ax=_AX, hist=Bool())
def reliability(y_true: ArrayLike, y_proba: ArrayLike, *, n_bins: int = 10,
                strategy: str = "uniform", pos_label: int | str | None = None,
                ax: Axes | None = None, label: str | None = None, hist: bool = True,
                **line_kw: Any) -> Axes:
    """Plot the reliability diagram: observed share of positives against mean prediction.

    One point per non-empty bin of :func:`evalkit.calibration_curve` (same
    bins: ``strategy="uniform"`` equal-width, ``"quantile"`` equal-mass;
    edges belong to the lower bin), x = the bin's mean predicted
    probability, y = its share of positives; a calibrated model lies on the
    dashed diagonal, an over-confident one below it on the right and above
    it on the left. ``hist=True`` adds the histogram of ``y_proba`` (the same
    ``n_bins`` bins) as light bars on a second y-axis, scaled to the lower
    third, so sparse bins are visible. The legend shows the expected
    calibration error on these bins (:func:`evalkit.expected_calibration_error`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_proba : array-like of shape (n_samples,)
        Probabilities of ``pos_label``, in [0, 1].
    n_bins : int, default=10
    strategy : {"uniform", "quantile"}, default="uniform"
    pos_label : label, optional
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    label : str, optional
        Legend label of the curve; ``"ECE = 0.xxx"`` when None.
    hist : bool, default=True
        Draw the histogram of the predictions.
    **line_kw
        Passed to ``ax.plot`` for the curve.

    Returns
    -------
    matplotlib.axes.Axes
        The curve is the Axes' line with gid ``"evalkit-reliability"``; the
        histogram's bars are on ``ax.evalkit_hist_axes`` (a twin Axes).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> ax = reliability([0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.4, 0.8, 0.9], n_bins=2)
    >>> line = [ln for ln in ax.lines if ln.get_gid() == "evalkit-reliability"][0]
    >>> [[round(v, 4) for v in xy] for xy in line.get_xydata().tolist()]
    [[0.2333, 0.3333], [0.7667, 0.6667]]
    >>> line.get_label()
    'ECE = 0.100'
    >>> plt.close(ax.figure)
    """
    bins = calibration_bins(y_true, y_proba, pos_label, n_bins, strategy, name="y_proba")
    _, y, x = bins.points()
    ece = bins.ece()
    ax = _axes(ax)
    _reference(ax, "evalkit-diagonal", [0, 1], "perfectly calibrated")
    line_kw.setdefault("marker", "o")
    if label is None:
        label = f"ECE = {ece:.3f}"
    ax.plot(x, y, label=label, gid="evalkit-reliability", **line_kw)
    if hist:
        _histogram(ax, bins)
    _finish(ax, "Mean predicted probability (per bin)", "Share of positives (per bin)",
            "upper left")
    if getattr(ax, "evalkit_hist_axes", None) is not None:
        # a twinned Axes cannot keep an equal data aspect with fixed limits
        # (matplotlib would move the limits and log that it did): keep the
        # unit square square through the box aspect instead
        ax.set_aspect("auto")
        ax.set_box_aspect(1)
    return ax


def _histogram(ax, bins):
    """The predictions per bin as light bars on a twin Axes, scaled to its lower third."""
    if getattr(ax, "evalkit_hist_axes", None) is None:
        ax.evalkit_hist_axes = ax.twinx()
    twin = ax.evalkit_hist_axes
    twin.bar(bins.edges[:-1], bins.total, width=np.diff(bins.edges), align="edge", alpha=0.25,
             color=ax.lines[-1].get_color(), edgecolor="none", gid="evalkit-histogram")
    highest = max(bar.get_height() for bar in twin.patches)
    twin.set_ylim(0, 3 * max(1, highest))
    twin.set_ylabel("samples per bin")
