"""Sweep to curves: the one step from cumulative counts to ROC and PR points and their areas.

Every curve, area, plot and widget of evalkit goes through here, so a plotted
point, a metric and a mirror's number for the same threshold cannot disagree:

* :func:`roc_points` -- (FPR, TPR) = (FP / N, TP / P) at every row of a
  :class:`~evalkit._sweep.Sweep`, in scikit-learn's or Spark's layout;
* :func:`pr_points` -- (recall, precision) = (TP / P, TP / (TP + FP)), in
  scikit-learn's layout (increasing threshold, then (0, 1)) or Spark's
  (a first point at recall 0, then decreasing threshold);
* :func:`trapezoid` -- the one trapezoid rule, summed numpy's way (pairwise,
  as ``np.trapezoid`` and scikit-learn's ``auc``) or Spark's way (within each
  partition first, then the trapezoids joining the partitions);
* :func:`average_precision` -- the one step sum Σ (R_n − R_{n−1}) · P_n.

The rates divide by the totals ``n_pos`` and ``n_neg`` (not by tp + fn,
which can differ from the total in the last bit for weighted counts), as both
scikit-learn and Spark do.
"""

from __future__ import annotations

import functools

import numpy as np

from ._sweep_packed import BLOCK
from ._threads import run_all, spans, threads_for

__all__ = ["auc_from_groups", "ap_from_groups", "CONVENTIONS", "rate", "roc_points", "pr_points",
           "prepend", "trapezoid", "average_precision", "doubled_trapezoids", "roc_bends",
           "pr_bends"]

#: The libraries' layouts of a curve (``convention=``) and what each means.
CONVENTIONS = {
    "sklearn": "scikit-learn: (0, 0) first for ROC; PR by increasing threshold, then (0, 1)",
    "spark": "Spark MLlib 2.3 and later: ROC from (0, 0) to an appended (1, 1); PR from "
             "(0, precision at the highest threshold)",
    "spark_legacy": "Spark MLlib 1.x to 2.2: as 'spark', but PR from (0, 1.0)",
}


def rate(counts, total, undefined, out):
    """``counts / total`` into ``out`` (float64, so a curve is filled in place); every entry
    is ``undefined`` when ``total`` is 0."""
    if float(total) == 0:
        out[:] = undefined
    else:
        np.divide(counts, float(total), out=out)
    return out


def _fill_in_spans(length, n_threads, fill):
    """Call ``fill(start, stop)`` on consecutive spans of ``range(length)``, one per thread."""
    threads = threads_for(length, n_threads)
    run_all([functools.partial(fill, start, stop) for start, stop in spans(length, threads)])


def prepend(first, values, n_threads=1):
    """``[first, *values]`` as float64 (a curve's thresholds), copied on ``n_threads`` threads.

    >>> prepend(np.inf, np.array([0.8, 0.4])).tolist()
    [inf, 0.8, 0.4]
    """
    out = np.empty(len(values) + 1)
    out[0] = first

    def fill(start, stop):
        out[1 + start:1 + stop] = values[start:stop]

    _fill_in_spans(len(values), n_threads, fill)
    return out


def _precision(tps, fps, undefined, out):
    """``tps / (tps + fps)`` into ``out``, block by block.

    ``undefined`` where nothing is predicted positive.
    """
    for i in range(0, len(tps), BLOCK):
        predicted = tps[i:i + BLOCK] + fps[i:i + BLOCK]
        block = out[i:i + BLOCK]
        if predicted.all():
            np.divide(tps[i:i + BLOCK], predicted, out=block)
        else:
            block[:] = undefined
            np.divide(tps[i:i + BLOCK], predicted, out=block, where=predicted != 0)
    return out


def roc_bends(tps, fps):
    """Mask of the sweep rows where the step of tps or of fps changes; both ends kept.

    scikit-learn's ``drop_intermediate``: a point with ``diff(x, 2) == 0`` for
    both coordinates lies on a straight segment and changes no area. Computed
    block by block (exact on integer counts; for floats a difference of
    finite floats is 0 only when they are equal), so no curve-sized
    temporary is made.
    """
    m = len(tps)
    keep = np.empty(m, dtype=bool)
    keep[0] = keep[-1] = True
    for i in range(1, m - 1, BLOCK):
        j = min(i + BLOCK, m - 1)  # points i .. j-1, which need steps i-1 .. j
        out = keep[i:j]
        step = np.diff(fps[i - 1:j + 1])
        np.not_equal(step[1:], step[:-1], out=out)
        step = np.diff(tps[i - 1:j + 1])
        out |= step[1:] != step[:-1]
    return keep


def pr_bends(tps, fps=None):
    """Mask of the sweep rows kept by the PR curve's ``drop_intermediate``.

    A row is dropped when tps is the same before and after it (inside a
    vertical run of equal recall); both ends are kept. (``fps`` is unused:
    a bend rule takes both counts, :func:`roc_bends`.)
    """
    keep = np.empty(len(tps), dtype=bool)
    keep[0] = keep[-1] = True
    step = np.diff(tps) != 0
    np.logical_or(step[:-1], step[1:], out=keep[1:-1])
    return keep


def roc_points(sweep, convention="sklearn", n_threads=1):
    """The ROC curve of a sweep: ``(fpr, tpr)``, FPR = FP / N and TPR = TP / P.

    ``convention="sklearn"``: (0, 0), then one point per sweep row (highest
    threshold first); a rate whose total is 0 is nan everywhere (the caller
    warns, as scikit-learn does). ``"spark"``: (0, 0), one point per row,
    then (1, 1) appended; a rate whose total is 0 is 0.0 (Spark's
    ``FalsePositiveRate`` and ``Recall``). ``drop_intermediate`` is the
    sweep's (``bends=roc_bends``). A long curve is filled on up to
    ``n_threads`` threads.

    >>> from evalkit._sweep import threshold_sweep
    >>> s = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> [v.tolist() for v in roc_points(s)]
    [[0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0]]
    >>> [v.tolist() for v in roc_points(s, "spark")][0]
    [0.0, 0.0, 0.5, 0.5, 1.0, 1.0]
    """
    tps, fps = sweep.tps, sweep.fps
    m = len(tps)
    spark = convention != "sklearn"
    undefined = np.nan
    size = m + 1
    if spark:
        undefined = 0.0
        size = m + 2  # (1, 1) appended
    fpr = np.empty(size)
    tpr = np.empty(size)

    def fill(start, stop):
        rate(fps[start:stop], sweep.n_neg, undefined, out=fpr[1 + start:1 + stop])
        rate(tps[start:stop], sweep.n_pos, undefined, out=tpr[1 + start:1 + stop])

    _fill_in_spans(m, n_threads, fill)
    fpr[0] = fpr[1] * 0.0  # (0, 0), nan where the rate is undefined
    tpr[0] = tpr[1] * 0.0
    if spark:
        fpr[-1] = 1.0
        tpr[-1] = 1.0
    return fpr, tpr


def pr_points(sweep, convention="sklearn", n_threads=1):
    """The precision-recall curve of a sweep: ``(recall, precision)``.

    recall = TP / P, precision = TP / (TP + FP).

    * ``convention="sklearn"`` (``precision_recall_curve``): the rows by
      increasing threshold, then (recall 0, precision 1) appended; precision
      0/0 (only rows of weight 0 scored that high) is 0.0, and with no
      positives recall is 1.0 everywhere (the caller warns).
    * ``"spark"`` (``BinaryClassificationMetrics.pr()``): first a point at
      recall 0 -- (0, precision at the highest threshold), Spark 2.3 and
      later; ``"spark_legacy"``: (0, 1.0), Spark 1.x to 2.2 -- then the rows
      by decreasing threshold; precision 0/0 is 1.0 and recall with no
      positives 0.0 (Spark's ``Precision`` and ``Recall``).

    ``drop_intermediate`` is the sweep's (``bends=pr_bends``). The caller
    checks ``convention`` (:data:`CONVENTIONS`). A long curve is filled on up
    to ``n_threads`` threads.

    >>> from evalkit._sweep import threshold_sweep
    >>> s = threshold_sweep([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> r, p = pr_points(s)
    >>> r.tolist(), [round(v, 4) for v in p.tolist()]
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.5, 0.6667, 0.5, 1.0, 1.0])
    >>> r, p = pr_points(s, "spark")
    >>> r.tolist(), [round(v, 4) for v in p.tolist()]
    ([0.0, 0.5, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.6667, 0.5])
    """
    m = len(sweep.tps)
    recall = np.empty(m + 1)
    precision = np.empty(m + 1)
    if convention == "sklearn":
        # by increasing threshold: the sweep's rows, read backwards, fill the first m entries
        tps, fps = sweep.tps[::-1], sweep.fps[::-1]
        recall_rows, precision_rows = recall[:m], precision[:m]
        no_positives, nothing_predicted = 1.0, 0.0
        first = m  # the point at recall 0 comes last
    else:
        tps, fps = sweep.tps, sweep.fps
        recall_rows, precision_rows = recall[1:], precision[1:]
        no_positives, nothing_predicted = 0.0, 1.0
        first = 0

    def fill(start, stop):
        rate(tps[start:stop], sweep.n_pos, no_positives, out=recall_rows[start:stop])
        _precision(tps[start:stop], fps[start:stop], nothing_predicted,
                   out=precision_rows[start:stop])

    _fill_in_spans(m, n_threads, fill)
    recall[first] = 0.0
    precision[first] = 1.0
    if convention == "spark" and m:
        precision[first] = precision[1]  # the precision at the highest threshold
    return recall, precision


def doubled_trapezoids(x, y):
    """Twice the area of each trapezoid between consecutive points: ``(x₂ − x₁)·(y₂ + y₁)``.

    The one trapezoid formula; on integer counts the terms are exact integers.
    """
    return (x[1:] - x[:-1]) * (y[1:] + y[:-1])


def trapezoid(x, y, *, partitions=None):
    """Area under the polyline through ``(x, y)`` by the trapezoid rule: Σ (x₂ − x₁)·(y₂ + y₁) / 2.

    Each trapezoid is ``(x₂ − x₁)·(y₂ + y₁) / 2.0``, as numpy's
    ``trapezoid``, scikit-learn's ``auc`` and Spark's ``AreaUnderCurve``
    compute it. Summed:

    * ``partitions=None`` -- numpy's pairwise sum, as ``np.trapezoid`` (so
      scikit-learn's ``auc``) sums;
    * ``partitions`` -- a sequence of point counts, one per partition of
      Spark's curve RDD (in order; 0 for an empty partition, which Spark
      skips): Spark's ``AreaUnderCurve.of`` adds the trapezoids within each
      partition from left to right, then the partitions' areas in order, then
      the trapezoids that join the last point of a partition to the first of
      the next (from left to right), and adds the two sums.

    >>> trapezoid(np.array([0.0, 0.0, 0.5, 0.5, 1.0]), np.array([0.0, 0.5, 0.5, 1.0, 1.0]))
    0.75
    >>> trapezoid(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0]), partitions=[1, 2])
    0.75
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if len(x) < 2:
        return 0.0
    terms = doubled_trapezoids(x, y) / 2.0
    if partitions is None:
        return float(np.sum(terms))
    sizes = np.asarray(partitions, dtype=np.int64)
    ends = np.cumsum(sizes[sizes > 0])  # one past each partition's last point
    starts = np.r_[0, ends[:-1]]
    # the trapezoids between the points of each partition, left to right, then the partitions'
    # areas in order (running sums, as Spark adds them)
    areas = [0.0]
    for start, end in zip(starts, ends):
        if end - start > 1:
            areas.append(np.cumsum(terms[start:end - 1])[-1])
    inside = np.cumsum(areas)[-1]
    # the trapezoids that join the last point of a partition to the first of the next
    joins = np.cumsum(np.r_[0.0, terms[ends[:-1] - 1]])[-1]
    return float(inside + joins)


def average_precision(tps, fps):
    """Average precision from the cumulative counts of a sweep, batched: ``(..., G)`` -> ``(...,)``.

    ``tps[..., g]`` and ``fps[..., g]`` are the positives and negatives
    scored at or above the g-th threshold (DEcreasing, a
    :class:`~evalkit._sweep.Sweep`'s rows). scikit-learn's step sum
    ``AP = Σ_g (R_g − R_{g−1}) · P_g`` with recall ``R_g = TP_g / P`` and
    precision ``P_g = TP_g / (TP_g + FP_g)`` (0 where nothing is predicted
    positive), summed as scikit-learn sums it (by increasing threshold,
    ``-np.sum(np.diff(recall) * precision[:-1])``), never below 0, so the
    binary number is its number. nan where there is no positive
    (``P == 0``), without a warning; with no negative it is 1.0, as
    scikit-learn gives. Every average precision of evalkit is this one.

    >>> average_precision(np.array([1, 1, 2, 2]), np.array([0, 1, 1, 2]))
    0.8333333333333333
    """
    tps = np.asarray(tps, dtype=np.float64)
    fps = np.asarray(fps, dtype=np.float64)
    if tps.shape[-1]:
        total = tps[..., -1:]
    else:
        total = np.zeros(tps.shape[:-1] + (1,))
    predicted = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = tps[..., ::-1] / total
        precision = np.where(predicted > 0, tps / predicted, 0.0)[..., ::-1]
    gained = np.diff(recall, axis=-1, append=0.0)  # R_{g-1} - R_g, by increasing threshold
    out = np.maximum(0.0, -np.sum(gained * precision, axis=-1))
    out = np.where(total[..., 0] > 0, out, np.nan)
    return _scalar_if_0d(out)


def _scalar_if_0d(values):
    """A float for a 0-d result, else the array: one value, or one per batch."""
    if values.ndim:
        return values
    return float(values)


def _cumulative(pos, neg):
    """``(pos, neg, tps, fps)``: counts per group as int64 (float64 when weighted), and their
    running sums."""
    pos = np.asarray(pos)
    neg = np.asarray(neg)
    dtype = np.int64
    if pos.dtype.kind not in "iub" or neg.dtype.kind not in "iub":
        dtype = np.float64
    pos = pos.astype(dtype, copy=False)
    neg = neg.astype(dtype, copy=False)
    return pos, neg, np.cumsum(pos, axis=-1), np.cumsum(neg, axis=-1)


def auc_from_groups(pos, neg):
    """ROC AUC from counts per distinct score, batched: ``(..., G)`` -> ``(...,)``.

    ``pos[..., g]`` and ``neg[..., g]`` are the positives and negatives (or
    sums of their weights) scored at the g-th distinct score, groups in
    DEcreasing score order. With ``TP_g`` the positives scored above group g::

        AUC = Σ_g neg_g · (TP_g + pos_g / 2) / (P · N)

    -- every positive-negative pair won counts 1, a tie 1/2: the trapezoid
    area under the ROC curve. Integer counts are summed exactly in int64
    (``2U / 2PN``, one rounding); float counts in float64. nan where a class
    is absent (``P == 0`` or ``N == 0``), without a warning (callers warn).
    Leading axes are anything batched over (resamples, users, partitions).

    >>> auc_from_groups([1, 0, 1, 0], [0, 1, 0, 1])  # y 1, 0, 1, 0 scored 0.8, 0.4, 0.35, 0.1
    0.75
    >>> auc_from_groups([[1, 1], [2, 0]], [[1, 1], [0, 0]]).tolist()  # one row per resample
    [0.5, nan]
    """
    pos, neg, tps, fps = _cumulative(pos, neg)
    twice_u = np.sum(neg * (2 * tps - pos), axis=-1)  # Σ neg_g (TP_{g-1} + TP_g)
    if pos.shape[-1]:
        twice_pn = 2 * tps[..., -1] * fps[..., -1]
    else:
        twice_pn = np.zeros(pos.shape[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(twice_u, twice_pn, dtype=np.float64)
    out = np.where(twice_pn == 0, np.nan, out)
    return _scalar_if_0d(out)


def ap_from_groups(pos, neg):
    """Average precision from counts per distinct score, batched: ``(..., G)`` -> ``(...,)``.

    Groups as in :func:`auc_from_groups` (decreasing score), summed into the
    cumulative counts of :func:`average_precision`, which computes it.

    >>> round(float(ap_from_groups([1, 0, 1, 0], [0, 1, 0, 1])), 4)
    0.8333
    """
    _, _, tps, fps = _cumulative(pos, neg)
    return average_precision(tps, fps)
