"""Ranking metrics: ROC and PR curves, AUC three ways, and the best threshold.

Everything here reads the one threshold sweep (:mod:`evalkit._sweep`): the
scores sorted once, cumulative true and false positives at every distinct
score. The scikit-learn mirrors (:func:`confusion_matrix_at_thresholds`,
:func:`roc_curve`, :func:`roc_auc_score`, :func:`precision_recall_curve`,
:func:`average_precision_score`, :func:`auc`) keep sklearn 1.9's names,
keywords, defaults, warnings and numbers; Spark's conventions are named in
each docstring. Like scikit-learn, samples of weight 0 are dropped before the
sweep, so they never make a threshold.

Every area comes from counts: the AUC and AP from the positives and negatives
per distinct score (:func:`evalkit._curves.auc_from_groups`, the sweep and
:mod:`evalkit._curves`' points); unweighted AUC takes one fast path, the same
exact count read block by block from the sorted label-carrying keys
(:func:`evalkit._sweep.rank_sum_of`). The course's rank-sum and pair-count
definitions (:mod:`evalkit.course.definitions`) agree with it to the last bit.

Unweighted scores are sorted on several threads when there are many
(``n_threads``: by default the cores this process may use, at most the
environment variable ``EVALKIT_NUM_THREADS``); the numbers do not change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ._binary import accuracy_of
from ._curves import (auc_from_groups, average_precision, pr_bends, pr_points, prepend, rate,
                      roc_bends, roc_points, trapezoid)
from ._ratios import f_beta_of, fpr_of, precision_of, recall_of
from ._sweep import rank_sum_of, sweep_of, threshold_sweep
from ._threads import N_THREADS, thread_count
from ._validation import (AVERAGES_OF_SCORES, BETA, MAX_FPR, NUM_BINS, ZERO_WEIGHT,
                          ZERO_DIVISION_SPARK, Bool, Options, Satisfies, check_labels,
                          check_monotonic, check_real, check_same_length, check_scores, positive_of,
                          validate_params)
from .exceptions import UndefinedMetricWarning, warn_at_caller

if TYPE_CHECKING:  # pandas is optional: threshold_table imports it when called
    import pandas as pd

__all__ = ["confusion_matrix_at_thresholds", "roc_curve", "roc_auc_score", "precision_recall_curve",
           "average_precision_score", "auc", "best_threshold", "threshold_table", "det_curve"]

_AVERAGE = Options(AVERAGES_OF_SCORES)
_MULTI_CLASS = Options({"raise": "", "ovr": "one-vs-rest", "ovo": "one-vs-one"})
_BINARY_AUC = ("y_score must be of shape (n_samples, n_classes) with multi_class='ovr' or "
               "'ovo'; got 1-D scores")
_ONE_CLASS = ("Only one class is present in y_true. ROC AUC score is not defined in that case.")


def _warn(message):
    warn_at_caller(message, UndefinedMetricWarning)


# -- the scikit-learn mirrors ----------------------------------------------------


@validate_params(n_threads=N_THREADS)
def confusion_matrix_at_thresholds(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    n_threads: int | None = None,
) -> tuple[np.ndarray, ...]:
    """The four cells of the binary confusion matrix at every distinct score.

    At threshold ``t = thresholds[i]`` a sample is predicted positive when
    ``score >= t``: ``tps[i] = #(positive, score >= t)``, ``fps[i] =
    #(negative, score >= t)``, ``fns = tps[-1] - tps``, ``tns = fps[-1] -
    fps`` (sums of ``sample_weight`` when given). Thresholds are the distinct
    scores, highest first -- scikit-learn 1.9's function of the same name,
    same order of outputs and same dtypes (float64 counts, thresholds of the
    scores' dtype). Spark calls these rows ``confusions`` (a
    ``BinaryConfusionMatrix`` per threshold), in the same descending order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: {0, 1}, {-1, 1} or booleans, or any labels with
        ``pos_label`` (every other label is then negative).
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite numbers.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` means 1 (labels must then be {0, 1} or
        {-1, 1}). A ``pos_label`` that is not one of the labels present is
        refused with a ValueError, where scikit-learn would silently count no
        positives.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; samples of weight 0 are dropped.
    n_threads : int, default=None
        The threads that may sort unweighted scores (a thread is started for
        every half million samples at most); None means the cores this
        process may use, at most the environment variable
        ``EVALKIT_NUM_THREADS``. Weighted input is swept on one thread. Not
        in scikit-learn; the numbers do not depend on it.

    Returns
    -------
    tns, fps, fns, tps : ndarray of shape (n_thresholds,), float64
    thresholds : ndarray of shape (n_thresholds,)
        Decreasing distinct scores.

    Examples
    --------
    >>> tns, fps, fns, tps, thr = confusion_matrix_at_thresholds(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> tps.tolist(), fps.tolist(), fns.tolist(), tns.tolist()
    ([1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 1.0, 2.0], [1.0, 1.0, 0.0, 0.0], [2.0, 1.0, 1.0, 0.0])
    >>> thr.tolist()
    [0.8, 0.4, 0.35, 0.1]
    """
    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, n_threads=threads)
    tps = sweep.tps.astype(np.float64)
    fps = sweep.fps.astype(np.float64)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, sweep.thresholds


@validate_params(drop_intermediate=Bool(), n_threads=N_THREADS)
def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = True,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic (ROC 曲线): (FPR, TPR) at every threshold.

    ``tpr = tps / P`` (recall) and ``fpr = fps / N`` where ``tps``/``fps`` are
    the positives/negatives scored ``>= thresholds[i]``. scikit-learn's
    convention, mirrored exactly: the curve starts at (0, 0) with the extra
    threshold ``np.inf``; ``drop_intermediate=True`` drops the points where
    neither fps nor tps bends (second differences both 0 -- collinear points,
    which change no area). With no negatives (no positives) ``fpr`` (``tpr``)
    is all nan and an ``UndefinedMetricWarning`` says so. Spark's ``roc()``
    instead lists every threshold's point without thresholds, starting at
    (0, 0) and ending with an appended (1, 1).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=True
        Drop the points that lie on a straight segment.

    Returns
    -------
    fpr, tpr : ndarray of shape (n_points,), increasing
    thresholds : ndarray of shape (n_points,), float64
        Decreasing; ``thresholds[0] = inf`` (nothing predicted positive).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thr.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    """
    bends = None
    if drop_intermediate:
        bends = roc_bends
    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, bends=bends,
                            n_threads=threads)
    fpr, tpr = roc_points(sweep, "sklearn", threads)
    # the extra point (0, 0) at threshold inf: nothing predicted positive
    thresholds = prepend(np.inf, sweep.thresholds, threads)
    _warn_empty_class(sweep)
    return fpr, tpr, thresholds


def _warn_no_positive():
    warn_at_caller("No positive class found in y_true, recall is set to one for all thresholds.",
                   UserWarning)   # scikit-learn warns UserWarning here, not UndefinedMetricWarning


def _warn_empty_class(sweep):
    """scikit-learn's roc_curve warnings for a class of total weight 0 (FPR or TPR is then nan)."""
    if sweep.n_neg <= 0:
        _warn("No negative samples in y_true, false positive value should be meaningless")
    if sweep.n_pos <= 0:
        _warn("No positive samples in y_true, true positive value should be meaningless")


@validate_params(drop_intermediate=Bool(), n_threads=N_THREADS)
def det_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
    *,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff (DET 曲线): false positive and false negative rates by threshold.

    The same sweep as :func:`roc_curve`: at threshold ``t`` a sample is
    predicted positive when ``score >= t``; ``fpr = fps / N`` and
    ``fnr = fns / P = 1 − tpr``, with scikit-learn 1.9's layout: the points
    from the last threshold with no false positive (the extra threshold
    ``inf`` when every score makes one) to the first with no false
    negative, listed by increasing threshold (``fpr`` decreasing).
    ``drop_intermediate=True`` drops the thresholds where tps (so ``fnr``)
    stays the same before and after. Undefined with one class: ValueError,
    as scikit-learn. (``pos_label``, ``sample_weight`` and
    ``drop_intermediate`` are positional-or-keyword, as there.)

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False

    Returns
    -------
    fpr, fnr : ndarray of shape (n_thresholds,)
    thresholds : ndarray of shape (n_thresholds,), float64
        Increasing.

    Examples
    --------
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, n_threads=threads)
    # the extra point at threshold inf (nothing predicted positive), as roc_curve's
    tps = np.concatenate([[0], sweep.tps]).astype(np.float64)
    fps = np.concatenate([[0], sweep.fps]).astype(np.float64)
    thresholds = np.concatenate([[np.inf], sweep.thresholds.astype(np.float64)])
    if drop_intermediate and len(fps) > 2:
        keep = pr_bends(tps)  # tps unchanged before and after: a flat run of fnr
        tps, fps, thresholds = tps[keep], fps[keep], thresholds[keep]
    if sweep.n_pos == 0 or sweep.n_neg == 0:
        raise ValueError("Only one class is present in y_true. Detection error tradeoff curve "
                         "is not defined in that case.")
    first = np.searchsorted(fps, fps[0], side="right") - 1  # the last point with fps = 0
    last = np.searchsorted(tps, tps[-1]) + 1  # the first point with fns = 0
    fpr = np.empty(last - first)
    fnr = np.empty(last - first)
    rate(fps[first:last][::-1], sweep.n_neg, np.nan, fpr)
    rate(tps[-1] - tps[first:last][::-1], sweep.n_pos, np.nan, fnr)
    return fpr, fnr, thresholds[first:last][::-1].copy()


@validate_params(drop_intermediate=Bool(), n_threads=N_THREADS)
def precision_recall_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall curve (P-R 曲线): precision and recall at every threshold.

    ``precision = tps / (tps + fps)`` and ``recall = tps / P`` at each
    distinct score, listed by increasing threshold, then the point (recall 0,
    precision 1) appended with no threshold -- scikit-learn's convention,
    mirrored exactly (``len(thresholds) = len(precision) - 1``). With no
    positive sample, recall is 1 everywhere and a ``UserWarning`` says so
    (scikit-learn's class here, not ``UndefinedMetricWarning``).
    ``drop_intermediate=True`` keeps only the first and last point of each run
    of equal recall. Spark's ``pr()`` runs the other way: descending
    thresholds, starting with the point (recall 0, precision at the highest
    threshold).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop the points inside vertical runs (same recall).

    Returns
    -------
    precision, recall : ndarray of shape (n_thresholds + 1,)
        Recall decreasing; the last point is (recall 0, precision 1).
    thresholds : ndarray of shape (n_thresholds,)
        Increasing distinct scores, of the scores' dtype.

    Examples
    --------
    >>> p, r, thr = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> [round(v, 4) for v in p.tolist()], r.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0])
    >>> thr.tolist()
    [0.1, 0.35, 0.4, 0.8]
    """
    bends = None
    if drop_intermediate:
        bends = pr_bends
    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, bends=bends,
                            n_threads=threads)
    recall, precision = pr_points(sweep, "sklearn", threads)
    if sweep.n_pos == 0:
        _warn_no_positive()
    thresholds = sweep.thresholds[::-1]
    if drop_intermediate:  # the kept rows are a view of the sample-sized keys: let those go
        thresholds = thresholds.copy()
    return precision, recall, thresholds


@validate_params(average=_AVERAGE, n_threads=N_THREADS)
def average_precision_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    pos_label: int | str = 1,
    sample_weight: ArrayLike | None = None,
    n_threads: int | None = None,
) -> float | np.ndarray:
    """Average precision (平均精度, AP): the step sum of precision over recall.

    ``AP = Σ_n (R_n - R_{n-1}) · P_n`` over the points of
    :func:`precision_recall_curve` (increasing recall), each precision
    weighted by the recall gained at its threshold -- scikit-learn's
    uninterpolated definition, mirrored exactly. It is not the trapezoid
    area: Spark's ``areaUnderPR`` joins the PR points with straight lines
    and starts from (recall 0, precision at the highest threshold), which
    is often more optimistic. Multiclass ``y_true`` (one-vs-rest on the
    columns of 2-D ``y_score``) and multilabel-indicator ``y_true`` are
    averaged over the classes by ``average``, as scikit-learn does
    (:mod:`evalkit._multiclass`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (at most two distinct values).
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    average : {"macro", "micro", "samples", "weighted"} or None, default="macro"
        Accepted for scikit-learn compatibility; ignored for binary input.
    pos_label : int, float, bool or str, default=1
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
    n_threads : int, default=None
        As in :func:`confusion_matrix_at_thresholds`.

    Returns
    -------
    float

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    threads = thread_count(n_threads)
    several_classes = True  # a 2-D y_true: multilabel indicators
    if np.ndim(y_true) != 2:
        y = check_labels(y_true, "y_true")
        several_classes = len(np.unique(y)) > 2
    if several_classes or _is_score_matrix(y_score):
        from ._multiclass import multiclass_average_precision  # multiclass / multilabel

        def binary(labels, scores, w):  # one column: its labels, scores and weights
            return _average_precision(positive_of(labels, 1), scores, w, threads)

        return multiclass_average_precision(y_true, y_score, average=average,
                                            pos_label=pos_label, sample_weight=sample_weight,
                                            binary=binary)
    scores, w = check_scores(y, y_score, sample_weight)
    return _average_precision(positive_of(y, pos_label), scores, w, threads)


def _is_score_matrix(y_score):
    """Scores of shape (n_samples, n_classes), more than one column."""
    return np.ndim(y_score) == 2 and np.shape(y_score)[1] != 1


def _average_precision(positive, scores, w, threads):
    """The binary AP of validated input (:func:`evalkit._curves.average_precision`)."""
    sweep = sweep_of(positive, scores, w, n_threads=threads)
    if sweep.n_pos == 0:  # recall is 1 at every threshold, AP 0, as scikit-learn
        _warn_no_positive()
        return 0.0
    return average_precision(sweep.tps, sweep.fps)


def auc(x: ArrayLike, y: ArrayLike) -> float:
    """Area under a curve by the trapezoidal rule: ``Σ (x_{i+1} - x_i)(y_i + y_{i+1}) / 2``.

    ``x`` must be monotonic (increasing, or decreasing -- then the sign is
    flipped so the area is positive), as in scikit-learn; Spark's
    ``AreaUnderCurve.of`` is the same trapezoid sum. For the ROC area of
    scores use :func:`roc_auc_score`; for a PR summary,
    :func:`average_precision_score` (a step sum, not a trapezoid). NaN
    propagates to the result (scikit-learn does the same after a curve
    warned that it is undefined).

    Parameters
    ----------
    x : array-like of shape (n,)
        Monotonic x coordinates, n >= 2.
    y : array-like of shape (n,)

    Returns
    -------
    float

    Examples
    --------
    >>> auc([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    0.75
    """
    xs = check_real(x, "x", empty=False, allow_nan=True)  # NaN propagates to the area
    ys = check_real(y, "y", empty=False, allow_nan=True)
    xs = xs.astype(np.result_type(xs, np.float64))
    ys = ys.astype(np.result_type(ys, np.float64))
    check_same_length(x=xs, y=ys)
    return check_monotonic(xs) * trapezoid(xs, ys)


# -- the area under the ROC curve ---------------------------------------------------


@validate_params(average=_AVERAGE, max_fpr=MAX_FPR, multi_class=_MULTI_CLASS,
                 n_threads=N_THREADS)
def roc_auc_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: ArrayLike | None = None,
    n_threads: int | None = None,
) -> float | np.ndarray:
    """Area under the ROC curve (AUC): the chance a positive outranks a negative.

    ``AUC = ∫ TPR d(FPR)``, the trapezoid area under :func:`roc_curve`, which
    equals ``(#(s+ > s-) + #(s+ = s-)/2) / (P·N)`` over all positive-negative
    pairs (the logistic-regression post's "probability that a positive scores higher"). Binary:
    the larger of the two labels is positive (``np.unique`` order), as in
    scikit-learn, whose numbers this mirrors. Unweighted input takes an exact
    integer path: one sort of keys carrying the label bit, no argsort, no
    curve (the course's ``roc_auc_rank`` gives the same count as a rank sum),
    the keys cut by score and sorted on ``n_threads`` threads when there are
    many.
    ``max_fpr`` gives the standardized partial AUC up to that false positive
    rate with the McClish correction, ``(1 + (A - m²/2) / (m - m²/2)) / 2``
    (0.5 for a random ranking, 1 for a perfect one). Spark's
    ``areaUnderROC`` is the same trapezoid area (exact without ``numBins``).
    With one class present, or weights that give a class total weight 0,
    the AUC is undefined: nan and an ``UndefinedMetricWarning`` worded as
    scikit-learn's ("Only one class is present ...", or its ``roc_curve``'s
    "No negative samples ..." / "No positive samples ...").

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (at most two distinct values; the larger is positive).
    y_score : array-like of shape (n_samples,)
        Scores for the larger label.
    average : {"macro", "micro", "samples", "weighted"} or None, default="macro"
        Accepted for scikit-learn compatibility; ignored for binary input.
    sample_weight : array-like of shape (n_samples,), default=None
    max_fpr : float in (0, 1], default=None
        Partial AUC over ``FPR <= max_fpr``, McClish-standardized.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
    labels : array-like, default=None
        Multiclass only: the sorted classes naming the columns of ``y_score``
        (default: the classes of ``y_true``).
    n_threads : int, default=None
        As in :func:`confusion_matrix_at_thresholds`.

    Multiclass ``y_true`` with 2-D ``y_score`` (rows summing to 1): one-vs-rest
    (``multi_class="ovr"``, averages "macro", "weighted", "micro" or None) or
    one-vs-one (``"ovo"``, Hand & Till 2001, "macro" or "weighted");
    multilabel-indicator ``y_true``: one AUC per column, averaged by
    ``average`` -- scikit-learn's numbers (:mod:`evalkit._multiclass`).

    Returns
    -------
    float

    Examples
    --------
    The logistic-regression post's three score sequences for the clicks (1, 0, 1, 0, 0, 0):

    >>> y = [1, 0, 1, 0, 0, 0]
    >>> roc_auc_score(y, [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    1.0
    >>> roc_auc_score(y, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    0.875
    >>> roc_auc_score(y, [0.4, 0.6, 0.5, 0.7, 0.8, 0.9])
    0.0
    """
    threads = thread_count(n_threads)
    if np.ndim(y_true) == 2 or _is_score_matrix(y_score):
        from ._multiclass import multiclass_roc_auc  # multiclass (ovr / ovo) and multilabel

        def binary(labels, scores, w, max_fpr):  # one column, or one pair of classes
            return _roc_auc(labels, scores, w, max_fpr, threads)

        return multiclass_roc_auc(y_true, y_score, average=average, sample_weight=sample_weight,
                                  max_fpr=max_fpr, multi_class=multi_class, labels=labels,
                                  binary=binary)
    y = check_labels(y_true, "y_true")
    scores, w = check_scores(y, y_score, sample_weight)
    return _roc_auc(y, scores, w, max_fpr, threads)


def _roc_auc(y, scores, w, max_fpr, threads):
    """The binary AUC of validated labels (the larger one positive), scores and weights."""
    positive = positive_of(y, larger=True, binary=_BINARY_AUC)
    if not positive.any() or positive.all():
        _warn(_ONE_CLASS)
        return np.nan
    if max_fpr is None or max_fpr == 1:
        return _whole_auc(positive, scores, w, threads)
    return _partial_auc(positive, scores, w, max_fpr, threads)


def _whole_auc(positive, scores, w, threads):
    """The AUC as an exact count: 2U / 2PN from the sorted keys, or from the sweep's groups."""
    if w is None:
        counts = rank_sum_of(positive, scores, threads)
        if counts is not None:  # the fast path: the exact count from the sorted keys
            twice_u, n_pos, n_neg = counts
            return twice_u / (2 * n_pos * n_neg)
    sweep = sweep_of(positive, scores, w)
    _warn_empty_class(sweep)   # both classes present, one of weight 0: the AUC is nan
    return float(auc_from_groups(*sweep.groups()))


def _partial_auc(positive, scores, w, max_fpr, threads):
    """The McClish-standardized area of roc_curve's points up to ``max_fpr``."""
    sweep = sweep_of(positive, scores, w, bends=roc_bends, n_threads=threads)
    fpr, tpr = roc_points(sweep, "sklearn", threads)
    _warn_empty_class(sweep)
    if np.isnan(fpr[-1]) or np.isnan(tpr[-1]):  # a class of total weight 0
        return np.nan
    # the curve up to max_fpr, closed by a point interpolated on the crossing segment
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    crossing = slice(stop - 1, stop + 1)
    y_cut = np.interp(max_fpr, fpr[crossing], tpr[crossing])
    partial = trapezoid(np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], y_cut])
    lowest = 0.5 * max_fpr**2  # the area of the diagonal up to max_fpr
    highest = max_fpr  # the area of a perfect curve
    return 0.5 * (1 + (partial - lowest) / (highest - lowest))


# -- choosing a threshold ------------------------------------------------------------

_METRICS = {
    "f1": "F-beta, F1 at beta=1",
    "fbeta": "the same F-beta",
    "precision": "",
    "recall": "",
    "accuracy": "",
    "youden": "TPR - FPR",
}


@validate_params(metric=[Options(_METRICS),
                         Satisfies(callable, "a callable metric(tp, fp, fn, tn)")],
                 beta=BETA, zero_weight=ZERO_WEIGHT, n_threads=N_THREADS)
def best_threshold(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str | Callable[..., ArrayLike] = "f1",
    beta: float = 1.0,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    zero_weight: str = "drop",
    n_threads: int | None = None,
) -> tuple[float, float]:
    """The threshold whose predictions ``score >= t`` maximize a metric, and that maximum.

    The Spark post's recipe ("pick the threshold with the highest F-measure"), in
    one pass over the sweep: the metric is computed at every distinct score
    at once, then ``argmax``. The candidates are the distinct scores (as
    Spark's ``fMeasureByThreshold`` and scikit-learn's
    ``metric_at_thresholds``), so "predict nothing positive" is not one.
    **Ties: the highest threshold wins** -- the Spark post takes ``.head()`` of
    Spark's rows, which come in descending threshold order. Undefined ratios
    are 0.0 with an ``UndefinedMetricWarning`` (scikit-learn's default).

    Metrics (tp, fp, fn, tn at each threshold):

    * ``"f1"`` / ``"fbeta"``: F_β = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp)
      (F1 at the default ``beta=1``);
    * ``"precision"``: tp / (tp + fp); ``"recall"``: tp / (tp + fn);
    * ``"accuracy"``: (tp + tn) / (tp + fp + fn + tn);
    * ``"youden"``: Youden's J = TPR - FPR = tp / (tp + fn) - fp / (fp + tn);
    * a callable ``metric(tp, fp, fn, tn) -> values``: called once with the
      sweep's four arrays (one entry per threshold, highest first; float
      sums of weights when weighted) and returning an array of the same
      length. NaN values are skipped.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    metric : str or callable, default="f1"
    beta : float, default=1.0
        The F-measure's weight of recall (``metric="f1"`` or ``"fbeta"`` only).
    zero_weight : {"drop", "keep"}, default="drop"
        A sample of weight 0: dropped, so its score is no candidate
        (scikit-learn's curves), or kept as a threshold (Spark's
        ``fMeasureByThreshold``).

    Returns
    -------
    threshold : scalar
        A score of ``y_score``; predict positive when ``score >= threshold``.
    value : float
        The metric there.

    Examples
    --------
    The Spark post's data: the best F1 (1.0) is reached at threshold 0.4.

    >>> y = [1] * 11 + [0] * 89
    >>> s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    >>> best_threshold(y, s)
    (0.4, 1.0)
    >>> best_threshold(y, s, metric="precision")  # 1.0 at 1.0, 0.6 and 0.4: the highest wins
    (1.0, 1.0)
    """
    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, zero_weight=zero_weight,
                            n_threads=threads)
    if callable(metric):
        values = _called_metric(metric, sweep)
    else:
        values = _named_metric(metric, sweep, beta)
    values = np.atleast_1d(np.asarray(values, dtype=np.float64))
    if np.isnan(values).all():
        raise ValueError("metric is NaN at every threshold: there is no best threshold")
    i = int(np.nanargmax(values))  # the first maximum: the highest threshold
    return sweep.thresholds[i].item(), float(values[i])


def _called_metric(metric, sweep):
    """A callable ``metric(tp, fp, fn, tn)`` at every row of the sweep, checked for its shape."""
    tp = sweep.tps
    values = np.asarray(metric(tp, sweep.fps, sweep.fns, sweep.tns), dtype=np.float64)
    if values.shape != tp.shape:
        raise ValueError(
            f"metric must return one value per threshold: expected shape {tp.shape}, got "
            f"{values.shape}")
    return values


def _named_metric(metric, sweep, beta):
    """One of _METRICS at every row of the sweep: only the one asked for is computed (it warns)."""
    tp, fp, fn, tn = sweep.tps, sweep.fps, sweep.fns, sweep.tns
    if metric in ("f1", "fbeta"):
        return f_beta_of(tp, fp, fn, beta)
    if metric == "precision":
        return precision_of(tp, fp)
    if metric == "recall":
        return recall_of(tp, fn)
    if metric == "accuracy":
        return accuracy_of(tp, tn, sweep.n_pos + sweep.n_neg)
    recall = np.asarray(recall_of(tp, fn), dtype=float)  # "youden"
    return recall - fpr_of(fp, tn)


@validate_params(num_bins=NUM_BINS, beta=BETA, zero_division=ZERO_DIVISION_SPARK,
                 zero_weight=ZERO_WEIGHT, n_threads=N_THREADS)
def threshold_table(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: int | str | None = None,
    sample_weight: ArrayLike | None = None,
    num_bins: int = 0,
    beta: float = 1.0,
    zero_division: str | float = "warn",
    zero_weight: str = "drop",
    n_threads: int | None = None,
) -> pd.DataFrame:
    """The sweep as a table: counts and ratios at every threshold, for display.

    One row per distinct score (highest first), predicting positive when
    ``score >= threshold``: ``tp, fp, fn, tn``, ``precision = tp / (tp +
    fp)``, ``recall = tp / (tp + fn)`` (TPR), F_β (column ``f1`` at
    ``beta=1``, else ``f{beta}``, e.g. ``f2``) and ``fpr = fp / (fp + tn)``
    -- Spark's ``precisionByThreshold``, ``recallByThreshold`` and
    ``fMeasureByThreshold`` side by side. ``num_bins`` > 0 down-samples as
    Spark's ``numBins`` (:meth:`Sweep.binned`). Undefined ratios take
    ``zero_division`` (0.0, 1.0, nan, "warn" or "spark" -- Spark's 1.0 for
    precision). Needs pandas (imported here only).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    num_bins : int, default=0
        0 keeps every threshold.
    beta : float, default=1.0
    zero_division : {"warn", 0.0, 1.0, nan, "spark"}, default="warn"
    zero_weight : {"drop", "keep"}, default="drop"
        A sample of weight 0: dropped, so its score makes no row
        (scikit-learn), or kept as a threshold (Spark, whose by-threshold
        curves list it).

    Returns
    -------
    pandas.DataFrame
        Columns threshold, tp, fp, fn, tn, precision, recall, f1, fpr.

    Examples
    --------
    >>> t = threshold_table([1] * 11 + [0] * 89, [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89)
    >>> print(t.round(4).to_string(index=False))
     threshold  tp  fp  fn  tn  precision  recall     f1  fpr
           1.0   1   0  10  89       1.00  0.0909 0.1667  0.0
           0.6   6   0   5  89       1.00  0.5455 0.7059  0.0
           0.4  11   0   0  89       1.00  1.0000 1.0000  0.0
           0.0  11  89   0   0       0.11  1.0000 0.1982  1.0
    """
    import pandas as pd

    threads = thread_count(n_threads)
    sweep = threshold_sweep(y_true, y_score, pos_label, sample_weight, zero_weight=zero_weight,
                            num_bins=num_bins, n_threads=threads)
    tp, fp, fn, tn = sweep.tps, sweep.fps, sweep.fns, sweep.tns
    f_name = f"f{beta:g}"  # f1 at beta=1
    return pd.DataFrame({
        "threshold": sweep.thresholds,
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": precision_of(tp, fp, zero_division),
        "recall": recall_of(tp, fn, zero_division),
        f_name: f_beta_of(tp, fp, fn, beta, zero_division),
        "fpr": fpr_of(fp, tn, zero_division),
    })
