"""Ranking metrics: ROC and PR curves, AUC three ways, and the best threshold.

Everything here reads the one threshold sweep (:mod:`evalkit._sweep`): the
scores sorted once, cumulative true and false positives at every distinct
score. The scikit-learn mirrors (:func:`confusion_matrix_at_thresholds`,
:func:`roc_curve`, :func:`roc_auc_score`, :func:`precision_recall_curve`,
:func:`average_precision_score`, :func:`auc`) keep sklearn 1.9's names,
keywords, defaults, warnings and numbers; Spark's conventions are named in
each docstring. Like scikit-learn, samples of weight 0 are dropped before the
sweep, so they never make a threshold.

The area under the ROC curve is computed three ways that agree exactly:

* :func:`roc_auc_score` -- the area (trapezoids between the curve's points);
* :func:`roc_auc_rank` -- the rank-sum (Mann-Whitney) formula of the recommender-metrics post;
* :func:`roc_auc_pairs` -- every positive-negative pair counted, a tie as 1/2.
"""

from __future__ import annotations


import numpy as np

from ._curves import average_precision, doubled_trapezoids, pr_bends, pr_points, roc_bends, roc_points, trapezoid
from ._ratios import f_beta_of, fpr_of, precision_of, ratio, recall_of
from ._sweep import _sweep_weighted, positive_mask, sweep_scores
from ._validation import (
    check_average,
    check_beta,
    check_bool,
    check_choice,
    check_curve_coordinates,
    check_integer,
    check_labels,
    check_max_fpr,
    check_same_length,
    check_sample_weight,
    check_scores,
    check_zero_division,
)
from .exceptions import UndefinedMetricWarning, warn_at_caller

__all__ = [
    "confusion_matrix_at_thresholds",
    "roc_curve",
    "roc_auc_score",
    "precision_recall_curve",
    "average_precision_score",
    "auc",
    "roc_auc_rank",
    "roc_auc_pairs",
    "best_threshold",
    "threshold_table",
]

_AVERAGES = (None, "micro", "macro", "samples", "weighted")
_MULTI_CLASS = {"raise": "", "ovr": "one-vs-rest", "ovo": "one-vs-one"}
_ONE_CLASS = ("Only one class is present in y_true. ROC AUC score is not defined in that case.")
_ONE = np.uint64(1)
_TOP = np.uint64(1 << 63)


# -- shared plumbing -----------------------------------------------------------


def _sweep(y_true, y_score, pos_label=None, sample_weight=None, zero_weight="drop"):
    """Validate and sweep as scikit-learn does; return ``(sweep, dtype of the scores)``.

    Samples of weight 0 are dropped first (scikit-learn's convention: they
    make no threshold) unless ``zero_weight="keep"`` (Spark's). Unweighted
    input takes the sweep's sort-only path.
    """
    return sweep_scores(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                        zero_weight=zero_weight)


def _float_counts(sweep):
    return (np.asarray(sweep.tps, dtype=np.float64), np.asarray(sweep.fps, dtype=np.float64))


def _warn(message, category=UndefinedMetricWarning):
    warn_at_caller(message, category)


# -- the scikit-learn mirrors ----------------------------------------------------


def confusion_matrix_at_thresholds(y_true, y_score, *, pos_label=None, sample_weight=None):
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
    sweep, dtype = _sweep(y_true, y_score, pos_label, sample_weight)
    tps, fps = _float_counts(sweep)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, sweep.thresholds.astype(dtype, copy=False)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
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
    y_true, y_score, pos_label, sample_weight
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
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    sweep, _ = _sweep(y_true, y_score, pos_label, sample_weight)
    kept = None
    if drop_intermediate and len(sweep) > 2:
        kept = np.flatnonzero(roc_bends(sweep.tps, sweep.fps))
    fpr, tpr = roc_points(sweep, "sklearn", kept=kept)
    thr = np.empty(len(fpr))
    thr[0] = np.inf  # the extra point (0, 0): nothing predicted positive
    thr[1:] = sweep.thresholds if kept is None else sweep.thresholds[kept]
    if sweep.n_neg <= 0:
        _warn("No negative samples in y_true, false positive value should be meaningless")
    if sweep.n_pos <= 0:
        _warn("No positive samples in y_true, true positive value should be meaningless")
    return fpr, tpr, thr


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False):
    """Precision-recall curve (P-R 曲线): precision and recall at every threshold.

    ``precision = tps / (tps + fps)`` and ``recall = tps / P`` at each
    distinct score, listed by increasing threshold, then the point (recall 0,
    precision 1) appended with no threshold -- scikit-learn's convention,
    mirrored exactly (``len(thresholds) = len(precision) - 1``). With no
    positive sample, recall is 1 everywhere and a warning says so.
    ``drop_intermediate=True`` keeps only the first and last point of each run
    of equal recall. Spark's ``pr()`` runs the other way: descending
    thresholds, starting with the point (recall 0, precision at the highest
    threshold).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
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
    drop_intermediate = check_bool(drop_intermediate, "drop_intermediate")
    sweep, dtype = _sweep(y_true, y_score, pos_label, sample_weight)
    thresholds = sweep.thresholds.astype(dtype, copy=False)
    kept = None
    if drop_intermediate and len(sweep) > 2:
        kept = np.flatnonzero(pr_bends(sweep.tps))
        thresholds = thresholds[kept]
    recall, precision = pr_points(sweep, "sklearn", kept=kept)
    if sweep.n_pos == 0:
        _warn("No positive class found in y_true, recall is set to one for all thresholds.")
    return precision, recall, thresholds[::-1]


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
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

    Returns
    -------
    float

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    check_average(average, _AVERAGES)
    y = None if np.ndim(y_true) == 2 else check_labels(y_true, "y_true")
    classes = None if y is None else np.unique(y)
    if y is None or np.ndim(y_score) == 2 or len(classes) > 2:
        from ._multiclass import multiclass_average_precision  # multiclass / multilabel

        return multiclass_average_precision(
            y_true, y_score, average=average, pos_label=pos_label, sample_weight=sample_weight,
            binary=lambda t, s, w: average_precision_score(t, s, sample_weight=w))
    if len(classes) == 2 and pos_label not in classes.tolist():
        raise ValueError(
            f"pos_label={pos_label!r} is not a valid label: it should be one of {classes.tolist()}")
    precision, recall, _ = precision_recall_curve(y, y_score, pos_label=pos_label,
                                                  sample_weight=sample_weight)
    return average_precision(recall, precision)


def auc(x, y):
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
    xs = check_curve_coordinates(x, "x")
    ys = check_curve_coordinates(y, "y")
    check_same_length(x=xs, y=ys)
    if len(xs) < 2:
        raise ValueError(
            f"At least 2 points are needed to compute area under curve, but x has {len(xs)}")
    dx = np.diff(xs)
    direction = 1.0
    if np.any(dx < 0):
        if not np.all(dx <= 0):
            raise ValueError(
                "x is neither increasing nor decreasing: the trapezoidal rule needs monotonic x "
                "(sort the points by x first)")
        direction = -1.0
    return direction * trapezoid(xs, ys)


# -- the area under the ROC curve, three ways ----------------------------------------


def _larger_class(y):
    """``(n_classes, positive)`` for roc_auc_score: the larger of two labels is positive.

    ``positive`` is a boolean mask, or the labels themselves when they are
    integers 0/1 (no copy). Integer and boolean labels need only min and max.
    """
    n = len(y)
    if y.dtype.kind == "b":
        p = int(np.count_nonzero(y))
        return (2 if 0 < p < n else 1), y
    if y.dtype.kind in "iuf":
        lo, hi = y.min(), y.max()
        if lo == hi:
            return 1, None
        if y.dtype.kind in "iu" and int(hi) - int(lo) == 1:
            if lo == 0 and y.dtype.itemsize == 8:
                return 2, y
            return 2, y == hi
        positive = y == hi
        if int(np.count_nonzero(positive)) + int(np.count_nonzero(y == lo)) == n:
            return 2, positive
        return len(np.unique(y)), None
    classes = np.unique(y)
    return len(classes), (y == classes[-1] if len(classes) == 2 else None)


_BLOCK = 1 << 15  # elements per block: a block's temporaries stay in the CPU cache
_RUN = 1 << 10  # a run of equal scores at least this long is measured, not read


def _sorted_label_keys(positive, scores):
    """Sort the scores with the label in the lowest bit of 64-bit keys, or None.

    A non-negative float's bits sort like the float (and -0.0 shifted left
    by one becomes +0.0's key 0); other scores are mapped to order-keeping
    unsigned keys first, as the sweep does. ``None`` when the keys span
    2**63 or more (they would not fit with the label bit). Keys are built
    block by block into one array, so no other large temporary is made.
    """
    if scores.dtype == np.float64:
        x = scores
    elif (scores.dtype.kind == "f" and scores.dtype.itemsize <= 8) or (
            scores.dtype.kind in "biu" and np.abs(scores).max() <= 2**53):
        x = scores.astype(np.float64)
    else:
        return None
    n = len(x)
    keys = np.empty(n, dtype=np.uint64)
    label = positive if positive.dtype == np.bool_ else positive.view(np.uint64)
    if x.min() >= 0:
        bits = x.view(np.uint64)
        for i in range(0, n, _BLOCK):
            block = keys[i:i + _BLOCK]
            np.left_shift(bits[i:i + _BLOCK], _ONE, out=block)
            np.bitwise_or(block, label[i:i + _BLOCK], out=block)
    else:
        as_float = keys.view(np.float64)
        for i in range(0, n, _BLOCK):
            block = keys[i:i + _BLOCK]
            np.add(x[i:i + _BLOCK], 0.0, out=as_float[i:i + _BLOCK])  # -0.0 becomes 0.0
            negative = block >= _TOP
            np.invert(block, out=block, where=negative)
            np.bitwise_or(block, _TOP, out=block, where=~negative)
        keys -= keys.min()
        if keys.max() >= _TOP:
            return None
        for i in range(0, n, _BLOCK):
            block = keys[i:i + _BLOCK]
            np.left_shift(block, _ONE, out=block)
            np.bitwise_or(block, label[i:i + _BLOCK], out=block)
    keys.sort()
    return keys


def _fast_sorted_label_keys(y, scores):
    """The common case in one pass: labels 0/1 (int64, uint64 or bool), scores >= 0 (float64).

    Checks the labels and the scores' sign block by block while building
    the keys (no separate min/max passes); ``None`` as soon as a label is
    not 0/1 or a score is negative -- the general path takes over.
    """
    n = len(scores)
    keys = np.empty(n, dtype=np.uint64)
    bits = scores.view(np.uint64)
    label = y if y.dtype == np.bool_ else y.view(np.uint64)  # -1 reads as 2**64 - 1
    for i in range(0, n, _BLOCK):
        lab = label[i:i + _BLOCK]
        if scores[i:i + _BLOCK].min() < 0 or (lab.dtype != np.bool_ and lab.max() > 1):
            return None
        block = keys[i:i + _BLOCK]
        np.left_shift(bits[i:i + _BLOCK], _ONE, out=block)
        np.bitwise_or(block, lab, out=block)
    keys.sort()
    return keys


def _auc_twice_u(positive, scores):
    """``(2U, P, N)`` for a positive mask (or 0/1 int64 labels) and scores.

    See :func:`_twice_u_of_sorted_keys`; keys that do not fit (scores
    spanning 2**63 ulps or more) go through the sweep's argsort path and
    integer trapezoids instead.
    """
    keys = _sorted_label_keys(positive, scores)
    if keys is None:
        sweep = _sweep_weighted(np.asarray(positive, dtype=bool), scores, None)
        return _twice_u_from_sweep(sweep)
    return _twice_u_of_sorted_keys(keys)


def _twice_u_of_sorted_keys(keys):
    """``(2U, P, N)``: 2 x the Mann-Whitney count of positive-negative pairs won.

    ``U = #(s+ > s-) + #(s+ = s-) / 2``, so ``AUC = 2U / (2 P N)``, exact in
    integers. The keys are sorted and carry the label in their lowest bit:
    within a group of tied scores the negatives sort first, so the j-th
    positive (from 0) at sorted position ``i_j`` has ``i_j - j`` negatives
    before it, tied ones included. Summed, ``U_le = Σ_j i_j - P(P-1)/2`` (the
    rank-sum formula); each group of ties then gives back half of its
    ``pos·neg`` pairs. One pass over the keys, block by block; a long run of
    one score is measured by two binary searches instead of being read.
    """
    n = len(keys)
    size = min(n, _BLOCK)
    label = np.empty(size, dtype=np.uint64)
    score = np.empty(size, dtype=np.uint64)
    starts = np.empty(size, dtype=bool)  # starts[i]: position i begins a group of equal scores
    index = np.arange(size, dtype=np.int64)
    p = 0  # positives so far
    index_sum = 0  # Σ of the positives' sorted positions
    tied = 0  # Σ over groups of ties of pos·neg
    open_pos = open_size = 0  # the group still open where the previous step stopped
    previous = -1  # its score key
    i = 0
    while i < n:
        head = int(keys[i]) >> 1
        if i + _RUN <= n and int(keys[i + _RUN - 1]) >> 1 == head:
            # a long run of one score: negatives (key 2h) then positives (2h + 1)
            rest = keys[i:]
            split = i + int(rest.searchsorted(np.uint64(2 * head), "right"))
            end = i + int(rest.searchsorted(np.uint64(2 * head + 1), "right"))
            run_pos = end - split
            p += run_pos
            index_sum += (split + end - 1) * run_pos // 2  # split + ... + (end - 1)
            if head != previous:
                tied += open_pos * (open_size - open_pos)
                open_pos = open_size = 0
            open_pos += run_pos
            open_size += end - i
            previous = head
            i = end
            continue
        block = keys[i:i + _BLOCK]
        m = len(block)
        lab, key, new = label[:m], score[:m], starts[:m]
        np.bitwise_and(block, _ONE, out=lab)
        lab = lab.view(np.int64)
        p_block = int(np.count_nonzero(lab))
        p += p_block
        index_sum += i * p_block + int(np.dot(lab, index[:m]))
        np.right_shift(block, _ONE, out=key)
        new[0] = head != previous
        np.not_equal(key[1:], key[:-1], out=new[1:])
        previous = int(key[-1])
        i += m
        if new.all():  # no ties inside: only the open group may close
            tied += open_pos * (open_size - open_pos)
            open_pos, open_size = int(lab[-1]), 1
            continue
        cuts = np.flatnonzero(new)
        if len(cuts) == 0:  # the whole block continues the open group
            open_pos += p_block
            open_size += m
            continue
        # groups starting in this block: their positives and sizes (the last runs on)
        pos_in = np.add.reduceat(lab, cuts)
        sizes = np.diff(cuts, append=m)
        # before the first cut, the open group ends
        open_pos += p_block - int(pos_in.sum())
        open_size += int(cuts[0])
        tied += open_pos * (open_size - open_pos)
        tied += int(np.dot(pos_in[:-1], sizes[:-1] - pos_in[:-1]))
        open_pos, open_size = int(pos_in[-1]), int(sizes[-1])
    tied += open_pos * (open_size - open_pos)
    return 2 * (index_sum - p * (p - 1) // 2) - tied, p, n - p


def _twice_u_from_sweep(sweep):
    # trapezoids on integer counts from (0, 0): 2U = Σ Δfps_i (tps_i + tps_{i-1}), exact
    tps = np.r_[0, np.asarray(sweep.tps, dtype=np.int64)]
    fps = np.r_[0, np.asarray(sweep.fps, dtype=np.int64)]
    return int(np.sum(doubled_trapezoids(fps, tps))), int(sweep.n_pos), int(sweep.n_neg)


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None,
                  multi_class="raise", labels=None):
    """Area under the ROC curve (AUC): the chance a positive outranks a negative.

    ``AUC = ∫ TPR d(FPR)``, the trapezoid area under :func:`roc_curve`, which
    equals ``(#(s+ > s-) + #(s+ = s-)/2) / (P·N)`` over all positive-negative
    pairs (the logistic-regression post's "probability that a positive scores higher"). Binary:
    the larger of the two labels is positive (``np.unique`` order), as in
    scikit-learn, whose numbers this mirrors. Unweighted input takes an exact
    integer path: one sort of keys carrying the label bit, no argsort, no
    curve (see :func:`roc_auc_rank` for the same count as a rank sum).
    ``max_fpr`` gives the standardized partial AUC up to that false positive
    rate with the McClish correction, ``(1 + (A - m²/2) / (m - m²/2)) / 2``
    (0.5 for a random ranking, 1 for a perfect one). Spark's
    ``areaUnderROC`` is the same trapezoid area (exact without ``numBins``).
    With one class present the AUC is undefined: nan and an
    ``UndefinedMetricWarning``, as scikit-learn does.

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
    check_average(average, _AVERAGES)
    check_choice(multi_class, _MULTI_CLASS, "multi_class")
    max_fpr = check_max_fpr(max_fpr)
    if np.ndim(y_score) == 2 or np.ndim(y_true) == 2:
        from ._multiclass import multiclass_roc_auc  # multiclass (ovr / ovo) and multilabel

        return multiclass_roc_auc(
            y_true, y_score, average=average, sample_weight=sample_weight, max_fpr=max_fpr,
            multi_class=multi_class, labels=labels,
            binary=lambda t, s, w, m: roc_auc_score(t, s, sample_weight=w, max_fpr=m))
    y = check_labels(y_true, "y_true")
    scores = check_scores(y_score)
    check_same_length(y_true=y, y_score=scores)
    w = check_sample_weight(sample_weight, len(y))
    if (w is None and (max_fpr is None or max_fpr == 1) and scores.dtype == np.float64
            and y.dtype in (np.int64, np.uint64, np.bool_)):
        keys = _fast_sorted_label_keys(y, scores)
        if keys is not None:
            twice_u, p, n = _twice_u_of_sorted_keys(keys)
            if p == 0 or n == 0:
                _warn(_ONE_CLASS)
                return np.nan
            return twice_u / (2 * p * n)
    n_classes, positive = _larger_class(y)
    if n_classes > 2:
        raise ValueError(
            f"y_true has {n_classes} classes, so y_score must be of shape (n_samples, "
            f"n_classes) with multi_class='ovr' or 'ovo'; got 1-D scores")
    if n_classes < 2:
        _warn(_ONE_CLASS)
        return np.nan
    if w is None and (max_fpr is None or max_fpr == 1):
        twice_u, p, n = _auc_twice_u(positive, scores)
        return twice_u / (2 * p * n)
    positive = np.asarray(positive, dtype=bool)
    fpr, tpr, _ = roc_curve(positive, scores, sample_weight=w)
    if max_fpr is None or max_fpr == 1:
        return auc(fpr, tpr)
    if np.isnan(fpr[-1]) or np.isnan(tpr[-1]):  # a class of total weight 0: roc_curve warned
        return np.nan
    # the curve up to max_fpr, closed by a point interpolated on the crossing segment
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    y_cut = np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1])
    partial = auc(np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], y_cut])
    lowest, highest = 0.5 * max_fpr**2, max_fpr  # areas of the diagonal and of a perfect curve
    return 0.5 * (1 + (partial - lowest) / (highest - lowest))


def _binary_ranking_input(y_true, y_score, pos_label):
    positive = positive_mask(y_true, pos_label)
    scores = check_scores(y_score)
    check_same_length(y_true=positive, y_score=scores)
    return positive, scores


def roc_auc_rank(y_true, y_score, *, pos_label=None):
    """ROC AUC by the rank-sum (Mann-Whitney, 秩和) formula of the recommender-metrics post.

    Rank all samples by score from the lowest (rank 1) to the highest (rank
    n), tied scores sharing their average rank; with ``P`` positives and
    ``N`` negatives::

        AUC = (Σ ranks of the positives - P(P + 1)/2) / (P·N)

    ``Σ ranks - P(P+1)/2`` is the Mann-Whitney U: the number of
    positive-negative pairs the positive wins, a tie counting 1/2. Computed
    in integers (twice the sum of average ranks), so it equals
    :func:`roc_auc_score` (the area) and :func:`roc_auc_pairs` (the pair
    count). One class present: nan with an ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1}, {-1, 1}, booleans) or any labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
    pos_label : int, float, bool or str, default=None

    Returns
    -------
    float

    Examples
    --------
    The logistic-regression post's second sequence: ranks of the positives 6 and 4 among 6.

    >>> roc_auc_rank([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])  # (10 - 3) / 8
    0.875
    """
    positive, scores = _binary_ranking_input(y_true, y_score, pos_label)
    n = len(scores)
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])  # first position of each tie group
    stops = np.r_[starts[1:], n]  # one past its last position
    pos_in = np.add.reduceat(positive[order].astype(np.int64), starts)
    p = int(pos_in.sum())
    if p == 0 or p == n:
        _warn(_ONE_CLASS)
        return np.nan
    # a group's 1-based ranks are starts+1 .. stops: twice their average is starts + stops + 1
    twice_rank_sum = int(np.dot(pos_in, starts + stops + 1))
    return (twice_rank_sum - p * (p + 1)) / (2 * p * (n - p))


def roc_auc_pairs(y_true, y_score, *, pos_label=None, max_pairs=10**7):
    """ROC AUC by brute force: compare every positive with every negative.

    ``AUC = (#(s+ > s-) + #(s+ = s-)/2) / (P·N)``, the definition in seeds
    001 and 003 ("the probability that a random positive scores higher than
    a random negative"), counted pair by pair in integers. It needs P·N
    comparisons, so inputs with more than ``max_pairs`` pairs are refused;
    :func:`roc_auc_score` and :func:`roc_auc_rank` give the same number after
    one sort. One class present: nan with an ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1}, {-1, 1}, booleans) or any labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
    pos_label : int, float, bool or str, default=None
    max_pairs : int, default=10**7
        The largest P·N accepted.

    Returns
    -------
    float

    Examples
    --------
    The logistic-regression post's second sequence: of the 2 x 4 pairs, only (sample 3,
    sample 2) is lost.

    >>> roc_auc_pairs([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])  # 7 / 8
    0.875
    """
    max_pairs = check_integer(max_pairs, "max_pairs", minimum=1, meaning="the most pairs compared")
    positive, scores = _binary_ranking_input(y_true, y_score, pos_label)
    s_pos, s_neg = scores[positive], scores[~positive]
    p, n = len(s_pos), len(s_neg)
    if p * n > max_pairs:
        raise ValueError(
            f"roc_auc_pairs would compare {p} positives x {n} negatives = {p * n} pairs, more "
            f"than max_pairs={max_pairs}: use roc_auc_score or roc_auc_rank (the same number "
            "after one sort), or raise max_pairs")
    if p == 0 or n == 0:
        _warn(_ONE_CLASS)
        return np.nan
    wins = ties = 0
    rows = max(1, (1 << 20) // n)  # about a million comparisons at a time
    for i in range(0, p, rows):
        block = s_pos[i:i + rows, None]
        wins += int(np.count_nonzero(block > s_neg))
        ties += int(np.count_nonzero(block == s_neg))
    return (2 * wins + ties) / (2 * p * n)


# -- choosing a threshold ------------------------------------------------------------

_METRICS = {
    "f1": "F-beta, F1 at beta=1",
    "fbeta": "the same F-beta",
    "precision": "",
    "recall": "",
    "accuracy": "",
    "youden": "TPR - FPR",
}


def best_threshold(y_true, y_score, *, metric="f1", beta=1.0, pos_label=None, sample_weight=None,
                   zero_weight="drop"):
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
    y_true, y_score, pos_label, sample_weight
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
    if not callable(metric):
        check_choice(metric, _METRICS, "metric")
    beta = check_beta(beta)
    sweep, dtype = _sweep(y_true, y_score, pos_label, sample_weight, zero_weight)
    tp, fp, fn, tn = sweep.tps, sweep.fps, sweep.fns, sweep.tns
    if callable(metric):
        values = np.asarray(metric(tp, fp, fn, tn), dtype=np.float64)
        if values.shape != tp.shape:
            raise ValueError(
                f"metric must return one value per threshold: expected shape {tp.shape}, got "
                f"{values.shape}")
    elif metric in ("f1", "fbeta"):
        values = f_beta_of(tp, fp, fn, beta)
    elif metric == "precision":
        values = precision_of(tp, fp)
    elif metric == "recall":
        values = recall_of(tp, fn)
    elif metric == "accuracy":
        values = ratio(tp + tn, np.full(tp.shape, sweep.n_pos + sweep.n_neg), what="Accuracy",
                       because="no samples")
    else:
        values = np.asarray(recall_of(tp, fn), dtype=np.float64) - fpr_of(fp, tn)
    values = np.atleast_1d(np.asarray(values, dtype=np.float64))
    if np.isnan(values).all():
        raise ValueError("metric is NaN at every threshold: there is no best threshold")
    i = int(np.nanargmax(values))  # the first maximum: the highest threshold
    return sweep.thresholds.astype(dtype, copy=False)[i].item(), float(values[i])


def threshold_table(y_true, y_score, *, pos_label=None, sample_weight=None, num_bins=0,
                    beta=1.0, zero_division=0.0, zero_weight="drop"):
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
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    num_bins : int, default=0
        0 keeps every threshold.
    beta : float, default=1.0
    zero_division : {0.0, 1.0, nan, "warn", "spark"}, default=0.0
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

    num_bins = check_integer(num_bins, "num_bins", meaning="0 means no down-sampling")
    beta = check_beta(beta)
    zero_division = check_zero_division(zero_division, allow_spark=True)
    sweep, dtype = _sweep(y_true, y_score, pos_label, sample_weight, zero_weight)
    sweep = sweep.binned(num_bins)
    tp, fp, fn, tn = sweep.tps, sweep.fps, sweep.fns, sweep.tns
    f_name = "f1" if beta == 1 else f"f{beta:g}"
    return pd.DataFrame({
        "threshold": sweep.thresholds.astype(dtype, copy=False),
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": precision_of(tp, fp, zero_division),
        "recall": recall_of(tp, fn, zero_division),
        f_name: f_beta_of(tp, fp, fn, beta, zero_division),
        "fpr": fpr_of(fp, tn, zero_division),
    })
