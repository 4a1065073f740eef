"""The threshold sweep: one 2 x 2 table per distinct score, all at once.

Sort the scores in descending order; every distinct score ``t`` is a
threshold ("predict positive when score >= t"); the cumulative number of
positives and negatives at or above it are the true and false positives
there. ROC and PR curves, AUC, metric-by-threshold, the best threshold, the
Spark mirror, the plots and the widgets all read this one sweep.

:func:`sorted_sweep` is the algorithm, as scikit-learn's
``confusion_matrix_at_thresholds`` writes it: a stable descending sort, the
indices where the score changes, a cumulative sum. Weighted input takes it.
Unweighted input takes a fast path that gives the same sweep from one sort
of keys carrying the label (:mod:`evalkit._sweep_packed`), on several threads
for large input (:mod:`evalkit._sweep_parallel`); tests hold both to this one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._sweep_packed import label_keys, packed_sweep, rank_sum
from ._sweep_parallel import parallel_rank_sum, parallel_sweep
from ._threads import threads_for
from ._validation import ZERO_WEIGHTS, check_labels, check_scores, positive_of, sum_from_zero

__all__ = ["Sweep", "threshold_sweep", "sweep_of", "rank_sum_of", "positive_mask", "sorted_sweep",
           "stable_descending_order", "kept_rows", "ZERO_WEIGHTS"]


def positive_mask(y_true, pos_label=None, name="y_true"):
    """Validate labels ``y_true`` and return the mask of the positive class.

    The rule is scikit-learn's, resolved in one place
    (:func:`evalkit._validation.positive_of`): ``pos_label`` names the
    positive class (more than two labels are then allowed); unnamed, labels
    in {0, 1} or {-1, 1} take 1 as positive.

    >>> positive_mask([0, 1, 1]).tolist()
    [False, True, True]
    >>> positive_mask(["ham", "spam"], pos_label="spam").tolist()
    [False, True]
    """
    return positive_of(check_labels(y_true, name), pos_label, name=name)


@dataclass(frozen=True)
class Sweep:
    """Cumulative counts at every threshold, highest threshold first.

    At index ``i`` a sample is predicted positive when its score is
    ``>= thresholds[i]``: ``tps[i]`` positives and ``fps[i]`` negatives are.
    ``n_pos`` and ``n_neg`` are the totals, so ``fns = n_pos - tps`` and
    ``tns = n_neg - fps``. Weighted sweeps hold sums of weights. A curve's
    sweep (``threshold_sweep(..., bends=...)``) holds only the rows its
    ``drop_intermediate`` keeps, with the same counts at each.
    """

    thresholds: np.ndarray
    tps: np.ndarray
    fps: np.ndarray
    n_pos: float
    n_neg: float

    @property
    def fns(self):
        """False negatives at each threshold: n_pos - tps."""
        return self.n_pos - self.tps

    @property
    def tns(self):
        """True negatives at each threshold: n_neg - fps."""
        return self.n_neg - self.fps

    def __len__(self):
        return len(self.thresholds)

    def counts_above(self, thresholds):
        """Cumulative ``(tps, fps)`` of predicting ``score >= t`` for each ``t`` of ``thresholds``.

        ``t`` need not be one of this sweep's thresholds: the counts are those
        of the lowest threshold ``>= t`` (0 when there is none).

        >>> s = threshold_sweep([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
        >>> [v.tolist() for v in s.counts_above(np.array([0.9, 0.5, 0.35]))]
        [[0, 0, 2], [0, 1, 1]]
        """
        t = np.asarray(thresholds)
        rows = len(self.thresholds) - np.searchsorted(self.thresholds[::-1], t, "left")
        return np.r_[0, self.tps][rows], np.r_[0, self.fps][rows]

    def __add__(self, other):
        """Merge the sweeps of two disjoint parts of the data: the sweep of the whole.

        The thresholds of the sum are the union of both parts' thresholds
        (descending); at each threshold ``t`` the counts are the parts'
        counts of ``score >= t`` added, ``tps(t) = tps_a(t) + tps_b(t)`` (a
        part without the score ``t`` contributes the counts at its lowest
        threshold above ``t``), and so are the totals. With integer counts the
        sum equals :func:`threshold_sweep` of the concatenated data exactly;
        weighted counts agree up to the order of the float additions. The
        parts must be unbinned (or binned with ``bin_threshold="last"``,
        whose points are exact). ``sum(parts)`` works too (it starts from 0).

        >>> a = threshold_sweep([1, 0, 1], [0.9, 0.5, 0.5])
        >>> b = threshold_sweep([0, 1], [0.7, 0.5])
        >>> s = a + b
        >>> s.thresholds.tolist(), s.tps.tolist(), s.fps.tolist(), s.n_pos, s.n_neg
        ([0.9, 0.7, 0.5], [1, 1, 3], [0, 1, 2], 3, 2)
        """
        if not isinstance(other, Sweep):
            return NotImplemented
        thresholds = np.union1d(self.thresholds, other.thresholds)[::-1]
        tps_a, fps_a = self.counts_above(thresholds)
        tps_b, fps_b = other.counts_above(thresholds)
        return Sweep(thresholds, tps_a + tps_b, fps_a + fps_b, self.n_pos + other.n_pos,
                     self.n_neg + other.n_neg)

    __radd__ = sum_from_zero

    def groups(self):
        """``(pos, neg)``: the positives and negatives scored at each threshold (not cumulative).

        >>> [v.tolist() for v in threshold_sweep([0, 1, 1, 0], [0.1, 0.4, 0.4, 0.8]).groups()]
        [[0, 2, 0], [1, 0, 1]]
        """
        return np.diff(self.tps, prepend=0), np.diff(self.fps, prepend=0)

    def counts_at(self, threshold):
        """The :class:`~evalkit.BinaryCounts` of predicting ``score >= threshold``.

        >>> s = threshold_sweep([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
        >>> s.counts_at(0.35)
        BinaryCounts(tp=2, fp=1, fn=0, tn=1)
        """
        from ._binary import BinaryCounts

        tps, fps = self.counts_above([threshold])
        tp, fp = tps[0], fps[0]
        fn = self.n_pos - tp
        tn = self.n_neg - fp
        if self.tps.dtype.kind in "iu":
            return BinaryCounts(tp=int(tp), fp=int(fp), fn=int(fn), tn=int(tn))
        return BinaryCounts(tp=float(tp), fp=float(fp), fn=float(fn), tn=float(tn))

    def binned(self, num_bins, *, bin_threshold="last"):
        """Down-sample as Spark's ``numBins`` does.

        Consecutive rows (distinct scores, highest first) are grouped into
        chunks of ``floor(len / num_bins)`` rows, only when that is at least 2;
        a chunk keeps the counts of all its rows, i.e. the cumulative counts of
        its last row. Its threshold is the chunk's last (lowest) score, as
        Spark >= 3.0 does (SPARK-27577), so every kept point is exact
        (``bin_threshold="last"``); Spark before 3.0 used the first (highest)
        score (``bin_threshold="first"``), which labels the point with a
        threshold that does not produce its counts. Spark groups within each
        partition; this is the one-partition result (:meth:`chunked`).
        """
        if self._chunk(num_bins) < 2:  # nothing grouped (and no partition labels made)
            return self
        return self.chunked(num_bins, bin_threshold, (len(self),))[0]

    def _chunk(self, num_bins):
        """Rows per chunk of Spark's ``numBins``: ``len // num_bins`` (0 without bins)."""
        if not num_bins:
            return 0
        return len(self) // num_bins

    def chunked(self, num_bins, bin_threshold, sizes):
        """Spark's ``numBins`` chunks, cut within each partition: ``(sweep, partition of each)``.

        ``sizes``: the number of rows (distinct scores) in each of Spark's
        partitions, in order. With ``m`` rows, chunks of ``g = m // num_bins``
        consecutive rows (only when g >= 2), restarting at every partition
        boundary, as :meth:`binned` describes.
        """
        partitions = np.arange(len(sizes))
        chunk = self._chunk(num_bins)
        if chunk < 2:  # nothing grouped: every distinct score is its own point
            return self, np.repeat(partitions, sizes)
        bounds = np.cumsum((0, *sizes))
        starts = [np.arange(a, b, chunk) for a, b in zip(bounds[:-1], bounds[1:])]
        part = np.repeat(partitions, [len(s) for s in starts])
        first = np.concatenate(starts).astype(np.intp)
        last = np.minimum(first + chunk, bounds[1:][part]) - 1
        labelled_by = first
        if bin_threshold == "last":
            labelled_by = last
        sweep = Sweep(self.thresholds[labelled_by], self.tps[last], self.fps[last], self.n_pos,
                      self.n_neg)
        return sweep, part


def threshold_sweep(y_true, y_score, pos_label=None, sample_weight=None, *, num_bins=0,
                    bin_threshold="last", zero_weight="drop", bends=None, n_threads=1):
    """Validate binary labels and scores and sweep every threshold once.

    Returns a :class:`Sweep`: distinct scores in descending order (ties share
    a row) with the cumulative true and false positives at each (see
    :func:`sweep_of`). ``num_bins`` > 0 down-samples as Spark does
    (:meth:`Sweep.binned`). Samples of weight 0 are dropped, as
    scikit-learn's curves do (``zero_weight="drop"``); ``"keep"`` keeps
    their thresholds, as Spark does (its mirrors pass it; :data:`ZERO_WEIGHTS`).

    Examples
    --------
    The Spark post's data: 1 positive at 1.0, 5 at 0.6, 5 at 0.4, 89 negatives at 0.0.

    >>> y = [1] * 11 + [0] * 89
    >>> s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    >>> sw = threshold_sweep(y, s)
    >>> sw.thresholds.tolist(), sw.tps.tolist(), sw.fps.tolist()
    ([1.0, 0.6, 0.4, 0.0], [1, 6, 11, 11], [0, 0, 0, 89])
    """
    pos = positive_mask(y_true, pos_label)
    scores, w = check_scores(pos, y_score, sample_weight)
    sweep = sweep_of(pos, scores, w, zero_weight, bends, n_threads)
    return sweep.binned(num_bins, bin_threshold=bin_threshold)


def sweep_of(pos, scores, w=None, zero_weight="drop", bends=None, n_threads=1):
    """The :class:`Sweep` of validated input: a positive mask, 1-D scores, weights or None.

    Thresholds keep the scores' dtype; unweighted counts are exact integers,
    weighted ones scikit-learn's running sums (Spark's order of additions
    agrees to 1e-12). Unweighted input takes the fast path
    (:mod:`evalkit._sweep_packed`: one ``np.sort``, no argsort), on up to
    ``n_threads`` threads when it is large enough to gain from them. ``bends``
    (a rule ``(tps, fps) -> mask``, :func:`evalkit._curves.roc_bends`) keeps
    only the rows a curve's ``drop_intermediate`` keeps.
    """
    if w is None:
        threads = threads_for(len(scores), n_threads)
        if threads > 1:
            arrays = parallel_sweep(pos, scores, bends, threads)
        else:
            arrays = packed_sweep(pos, scores, bends)
        if arrays is not None:
            return Sweep(*arrays)
    if w is not None and zero_weight == "drop" and not w.all():
        weighed = w != 0
        pos = pos[weighed]
        scores = scores[weighed]
        w = w[weighed]
    return kept_rows(sorted_sweep(pos, scores, w), bends)


def kept_rows(sweep, bends):
    """The rows of ``sweep`` that ``bends`` keeps (all of them when ``bends`` is None)."""
    if bends is None:
        return sweep
    kept = np.flatnonzero(bends(sweep.tps, sweep.fps))
    return Sweep(sweep.thresholds[kept], sweep.tps[kept], sweep.fps[kept], sweep.n_pos,
                 sweep.n_neg)


def rank_sum_of(pos, scores, n_threads=1):
    """``(2U, P, N)``: the AUC's exact count of unweighted input, no curve made (AUC = 2U / 2PN).

    ``U = #(s+ > s-) + #(s+ = s-) / 2`` over the positive-negative pairs, as
    :func:`evalkit._curves.auc_from_groups` counts it from the sweep's groups;
    here from the sorted keys (:func:`evalkit._sweep_packed.rank_sum`), on up
    to ``n_threads`` threads. None when the scores do not fit in keys.
    """
    threads = threads_for(len(scores), n_threads)
    if threads > 1:
        return parallel_rank_sum(pos, scores, threads)
    packed = label_keys(pos, scores)
    if packed is None:
        return None
    return rank_sum(packed[0])


# -- the algorithm: a stable descending sort, where the score changes, a cumulative sum ------


def stable_descending_order(scores):
    """The indices that sort ``scores`` from the highest, ties in input order.

    scikit-learn's order (a stable descending sort), so weighted running sums
    add in the same order and agree bit for bit. Computed as one fast
    (unstable) argsort and, only when some scores tie, one sort of the int64
    keys ``group * n + index``, which puts each group of ties back in input
    order: cheaper than numpy's stable argsort.
    """
    n = len(scores)
    order = np.argsort(scores)[::-1]
    ordered = scores[order]
    changes = ordered[1:] != ordered[:-1]
    if changes.all():  # no ties: the order is already the stable one
        return order
    group = np.zeros(n, dtype=np.int64)  # group[i]: the tie group of the i-th highest score
    np.cumsum(changes, out=group[1:])
    group *= n
    order = group + order
    order.sort()
    order -= group
    return order


def sorted_sweep(pos, scores, w=None):
    """The sweep, as scikit-learn computes it: sort, find where the score changes, sum.

    ``pos``: the positive mask; ``w``: weights or None. The rows are the last
    sample of each group of tied scores in the descending order; the counts
    are running sums up to them (sums of weights when weighted).
    """
    order = stable_descending_order(scores)
    ordered = scores[order]
    last = np.r_[np.flatnonzero(ordered[1:] != ordered[:-1]), len(ordered) - 1]
    if w is None:
        weights = np.ones(len(ordered), dtype=np.int64)
    else:
        weights = w[order]
    positive_weights = np.where(pos[order], weights, 0)
    tps = np.cumsum(positive_weights)[last]
    fps = np.cumsum(weights - positive_weights)[last]
    return Sweep(ordered[last], tps, fps, tps[-1].item(), fps[-1].item())
