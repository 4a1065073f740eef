"""The threshold sweep: one 2 x 2 table per distinct score, all at once.

Sort the scores in descending order; every distinct score ``t`` is a
threshold ("predict positive when score >= t"); the cumulative number of
positives and negatives at or above it are the true and false positives
there. ROC and PR curves, AUC, metric-by-threshold, the best threshold, the
Spark mirror, the plots and the widgets all read this one sweep.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._ratios import f_beta_of, fpr_of, precision_of, ratio, recall_of
from ._validation import (
    check_choice,
    check_labels,
    check_same_length,
    check_sample_weight,
    check_scores,
)

__all__ = ["Sweep", "threshold_sweep", "sweep_scores", "positive_mask", "combine_by_key",
           "sequential_sums", "ZERO_WEIGHTS", "ORDERS"]


def positive_mask(y_true, pos_label=None, name="y_true"):
    """Validate binary ``y_true`` and return a boolean mask of the positive class.

    Follows scikit-learn: with ``pos_label=None`` the labels must be {0, 1},
    {-1, 1} or a single one of those, and 1 is positive; otherwise
    ``pos_label`` names the positive class and every other label is negative
    (so more than two classes are allowed then).

    >>> positive_mask([0, 1, 1]).tolist()
    [False, True, True]
    >>> positive_mask(["ham", "spam"], pos_label="spam").tolist()
    [False, True]
    """
    y = check_labels(y_true, name)
    if pos_label is None:
        if y.dtype.kind == "b":
            return y
        allowed = False
        if y.dtype.kind in "iuf":
            lo, hi = y.min(), y.max()
            allowed = lo >= -1 and hi <= 1 and not (lo == -1 and (y == 0).any())
        if not allowed:
            classes = np.unique(y)
            shown = classes.tolist() if len(classes) <= 10 else classes[:10].tolist() + ["..."]
            raise ValueError(
                f"{name} takes values in {shown} and pos_label is not specified: either make "
                f"{name} take values in {{0, 1}} or {{-1, 1}}, or pass pos_label explicitly"
            )
        return y == 1
    classes = np.unique(y)
    if len(classes) >= 2 and pos_label not in classes.tolist():
        raise ValueError(
            f"pos_label={pos_label!r} is not a valid label: it should be one of {classes.tolist()}")
    return y == pos_label


@dataclass(frozen=True)
class Sweep:
    """Cumulative counts at every threshold, highest threshold first.

    At index ``i`` a sample is predicted positive when its score is
    ``>= thresholds[i]``: ``tps[i]`` positives and ``fps[i]`` negatives are.
    ``n_pos`` and ``n_neg`` are the totals, so ``fns = n_pos - tps`` and
    ``tns = n_neg - fps``. Weighted sweeps hold sums of weights.
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

    def __radd__(self, other):
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # sum(parts) starts from 0
        return NotImplemented

    def precision(self, zero_division="warn"):
        """Precision at each threshold: tps / (tps + fps)."""
        return precision_of(self.tps, self.fps, zero_division)

    def recall(self, zero_division="warn"):
        """Recall (TPR) at each threshold: tps / n_pos."""
        return recall_of(self.tps, self.fns, zero_division)

    def fpr(self, zero_division="warn"):
        """False positive rate at each threshold: fps / n_neg."""
        return fpr_of(self.fps, self.tns, zero_division)

    def f_beta(self, beta=1.0, zero_division="warn"):
        """F-beta at each threshold (see :func:`evalkit._ratios.f_beta_of`)."""
        return f_beta_of(self.tps, self.fps, self.fns, beta, zero_division)

    def accuracy(self):
        """Accuracy at each threshold: (tps + tns) / (n_pos + n_neg)."""
        return ratio(self.tps + self.tns, self.n_pos + self.n_neg)

    def index_of(self, threshold):
        """How many sweep rows have a threshold >= ``threshold``.

        Predicting positive when ``score >= threshold`` gives the counts of row
        ``index_of(threshold) - 1`` (nothing predicted positive when it is 0).
        One binary search: a slider can call it on every move.
        """
        # thresholds are descending; search the ascending view
        return len(self.thresholds) - int(np.searchsorted(self.thresholds[::-1], threshold, "left"))

    def counts_at(self, threshold):
        """The :class:`~evalkit.BinaryCounts` of predicting ``score >= threshold``.

        >>> s = threshold_sweep([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
        >>> s.counts_at(0.35)
        BinaryCounts(tp=2, fp=1, fn=0, tn=1)
        """
        from ._binary import BinaryCounts

        i = self.index_of(threshold)
        tp, fp = (self.tps[i - 1], self.fps[i - 1]) if i else (0, 0)
        cast = int if self.tps.dtype.kind in "iu" else float
        return BinaryCounts(tp=cast(tp), fp=cast(fp), fn=cast(self.n_pos - tp),
                            tn=cast(self.n_neg - fp))

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
        partition; this is the one-partition result.
        """
        if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)):
            raise TypeError(f"num_bins must be an integer, got {num_bins!r}")
        if num_bins < 0:
            raise ValueError(f"num_bins must be >= 0 (0 means no down-sampling); got {num_bins}")
        if bin_threshold not in ("last", "first"):
            raise ValueError(f"bin_threshold must be 'last' or 'first'; got {bin_threshold!r}")
        m = len(self.thresholds)
        grouping = m // num_bins if num_bins else 0
        if grouping < 2:
            return self
        ends = np.r_[np.arange(grouping - 1, m, grouping), m - 1]
        ends = np.unique(ends)
        starts = np.r_[0, ends[:-1] + 1]
        thresholds = self.thresholds[ends if bin_threshold == "last" else starts]
        return Sweep(thresholds, self.tps[ends], self.fps[ends], self.n_pos, self.n_neg)


#: What a sample of weight 0 does to a curve: the two libraries differ.
ZERO_WEIGHTS = {
    "drop": "scikit-learn: dropped before the sweep, its score makes no threshold",
    "keep": "Spark: its score is a threshold like any other (no counts added there)",
}


#: In which order weighted counts are added: the last bits of the sums depend on it.
ORDERS = {
    "samples": "scikit-learn: one running sum over the samples, highest score first",
    "spark": "Spark: the weights summed per distinct score in input order, then running sums",
}


def sweep_scores(y_true, y_score, *, pos_label=None, sample_weight=None, zero_weight="drop",
                 order="samples"):
    """Validate binary labels, scores and weights and sweep once: ``(sweep, dtype of the scores)``.

    ``zero_weight`` says what a sample of weight 0 does (:data:`ZERO_WEIGHTS`):
    ``"drop"`` -- scikit-learn's ``roc_curve`` and ``precision_recall_curve``
    drop it, so its score makes no threshold; ``"keep"`` -- Spark keeps its
    score as a threshold whose counts are those of the next higher one (where
    nothing else is scored that high, precision there is 0/0). ``order``
    (:data:`ORDERS`) is the order weights are added in, so that the sums are
    scikit-learn's or Spark's to the last bit. Unweighted input takes the
    sort-only path (integer counts are exact in any order).
    """
    check_choice(zero_weight, ZERO_WEIGHTS, "zero_weight")
    check_choice(order, ORDERS, "order")
    pos = positive_mask(y_true, pos_label)
    scores = check_scores(y_score)
    check_same_length(y_true=pos, y_score=scores)
    w = check_sample_weight(sample_weight, len(pos))
    if w is None:
        return _sweep_unweighted(pos, scores), scores.dtype
    if zero_weight == "drop":
        keep = w != 0
        if not keep.all():
            pos, scores, w = pos[keep], scores[keep], w[keep]
    if order == "spark":
        return _sweep_spark(pos, scores, w), scores.dtype
    return _sweep_weighted(pos, scores, w), scores.dtype


def threshold_sweep(y_true, y_score, *, pos_label=None, sample_weight=None, num_bins=0,
                    bin_threshold="last", zero_weight="keep"):
    """Validate binary labels and scores and sweep every threshold once.

    Returns a :class:`Sweep`: distinct scores in descending order (ties share
    a row) with the cumulative true and false positives at each. Unweighted
    input takes a sort-only path (the positives' and negatives' scores sorted
    apart, counted with ``searchsorted``, no argsort); weighted input an
    argsort and cumulative sums. ``num_bins`` > 0 down-samples as Spark does
    (:meth:`Sweep.binned`). Samples of weight 0 keep their thresholds, as in
    Spark (``zero_weight="keep"``); ``"drop"`` drops them, as scikit-learn's
    curves do.

    Examples
    --------
    The Spark post's data: 1 positive at 1.0, 5 at 0.6, 5 at 0.4, 89 negatives at 0.0.

    >>> y = [1] * 11 + [0] * 89
    >>> s = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89
    >>> sw = threshold_sweep(y, s)
    >>> sw.thresholds.tolist(), sw.tps.tolist(), sw.fps.tolist()
    ([1.0, 0.6, 0.4, 0.0], [1, 6, 11, 11], [0, 0, 0, 89])
    """
    sweep, _ = sweep_scores(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                            zero_weight=zero_weight)
    return sweep.binned(num_bins, bin_threshold=bin_threshold) if num_bins else sweep


# -- Spark's order of additions ------------------------------------------------

_SHORT = 64  # segments up to this long are summed column by column, longer ones one by one


def sequential_sums(values, starts):
    """The sum of each segment ``values[starts[i]:starts[i + 1]]``, added left to right from 0.0.

    As a Scala loop adds (``counter += x``), not numpy's pairwise ``sum`` or
    ``reduceat``: bit for bit Spark's sums. Short segments are added column by
    column (the j-th value of every segment longer than j at once), long ones
    by one sequential ``cumsum`` each.
    """
    n = len(values)
    ends = np.r_[starts[1:], n]
    lengths = ends - starts
    out = np.add(0.0, values[starts])  # Spark starts every counter at 0.0
    short = np.flatnonzero((lengths > 1) & (lengths <= _SHORT))
    if len(short):
        order = short[np.argsort(-lengths[short], kind="stable")]
        lens, first = lengths[order], starts[order]
        acc = out[order]
        active = np.searchsorted(-lens, -np.arange(1, int(lens[0])), side="left")
        for j, k in enumerate(active, start=1):  # k segments are longer than j
            acc[:k] += values[first[:k] + j]
        out[order] = acc
    for i in np.flatnonzero(lengths > _SHORT):
        out[i] = np.cumsum(values[starts[i]:ends[i]])[-1] + 0.0
    return out


def _slices(n, num_slices):
    """Which slice of ``sc.parallelize(rows, num_slices)`` each of ``n`` rows lands in.

    Spark cuts a local collection at ``i * n / num_slices`` (integer division).
    """
    bounds = (np.arange(num_slices + 1, dtype=np.int64) * n) // num_slices
    return np.searchsorted(bounds, np.arange(n), side="right") - 1


def combine_by_key(scores, pos, weights, input_partitions):
    """Spark's ``combineByKey``: weighted positives and negatives per distinct score.

    Returns ``(scores, numPos, numNeg)``, highest score first. In each input
    partition (a slice of the rows, as ``sc.parallelize`` cuts them) a
    counter per score adds the rows' weights in input order; the partitions'
    counters are then merged in partition order. Without weights the counts
    are integers, exact in any order.
    """
    n = len(scores)
    order = np.argsort(-scores, kind="stable")  # descending, ties in input order
    s = scores[order] + 0.0  # -0.0 and 0.0 are one key here
    key_start = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    p = pos[order]
    if weights is None:
        n_pos = np.add.reduceat(p.astype(np.int64), key_start)
        n_all = np.diff(np.r_[key_start, n])
        return s[key_start], n_pos, n_all - n_pos
    w = weights[order]
    wp = np.where(p, w, 0.0)  # x + 0.0 == x: adding the other class's rows changes nothing
    wn = np.where(p, 0.0, w)
    if input_partitions <= 1:
        return s[key_start], sequential_sums(wp, key_start), sequential_sums(wn, key_start)
    part = _slices(n, input_partitions)[order]
    new = np.r_[True, (s[1:] != s[:-1]) | (part[1:] != part[:-1])]
    run_start = np.flatnonzero(new)  # one run per (score, input partition)
    run_pos, run_neg = sequential_sums(wp, run_start), sequential_sums(wn, run_start)
    key_of_run = np.searchsorted(run_start, key_start)
    return (s[key_start], sequential_sums(run_pos, key_of_run),
            sequential_sums(run_neg, key_of_run))



def _sweep_spark(pos, scores, w):
    """Sweep in Spark's order: the weights summed per distinct score, then running sums (one partition)."""
    keys, num_pos, num_neg = combine_by_key(scores, pos, w, 1)
    tps, fps = np.cumsum(num_pos), np.cumsum(num_neg)
    if scores.dtype.kind != "f":
        keys = keys.astype(scores.dtype)
    return Sweep(keys, tps, fps, tps[-1].item(), fps[-1].item())


_TOP = np.uint64(1 << 63)
_ONE = np.uint64(1)


def _sweep_unweighted(pos, scores):
    """Sweep by one sort of 64-bit keys that carry the label in their lowest bit.

    A float's bits, flipped for negative numbers, sort like the float itself;
    shifted left by one after subtracting the smallest key (it fits whenever
    the keys span less than 2**63, always true for non-negative scores), the
    free lowest bit holds the label. The keys are inverted so that one
    ascending ``np.sort`` orders the scores from the highest, positives first
    within a tie -- no argsort, no gather. Then the lowest bit marks the
    negatives, its cumulative sum at the last sample of each group of equal
    scores is ``fps``, and ``tps = samples so far - fps``. With distinct
    scores every sample ends a group and nothing is gathered at all. Keys too
    far apart (or integers beyond 2**53) fall back to argsort.
    """
    if scores.dtype.kind in "iu" and len(scores) and np.abs(scores).max() > 2**53:
        return _sweep_weighted(pos, scores, None)  # not exact as float64
    if scores.dtype.kind == "f" and scores.dtype.itemsize > 8:
        return _sweep_weighted(pos, scores, None)  # longdouble: float64 keys would make false ties
    x = np.add(scores, 0.0, dtype=np.float64)  # a copy; -0.0 becomes 0.0
    k = x.view(np.uint64)
    signed = bool(x.min() < 0)
    if signed:
        negative = k >= _TOP
        np.invert(k, out=k, where=negative)
        np.bitwise_or(k, _TOP, out=k, where=~negative)
    kmin = k.min()
    k -= kmin
    if k.max() >= _TOP:
        return _sweep_weighted(pos, scores, None)
    k <<= _ONE
    k |= pos
    np.invert(k, out=k)  # ascending order of ~key = descending score, positives first
    k.sort()
    n = len(k)
    fps = (k & _ONE).view(np.int64)  # 1 for a negative
    np.cumsum(fps, out=fps)
    k >>= _ONE  # (2**63 - 1) - score key
    last = np.empty(n, dtype=bool)  # last sample of each group of equal scores
    last[-1] = True
    np.not_equal(k[:-1], k[1:], out=last[:-1])
    if last.all():
        tps = np.arange(1, n + 1, dtype=np.int64)
        tps -= fps
        keys = k
    else:
        ends = np.flatnonzero(last)
        fps = fps[ends]
        tps = ends + 1
        tps -= fps
        keys = k[ends]
    n_neg = int(fps[-1])
    np.subtract(_TOP - _ONE, keys, out=keys)
    keys += kmin
    if signed:
        high = keys >= _TOP
        keys = np.where(high, keys ^ _TOP, ~keys)
    thresholds = keys.view(np.float64)
    if scores.dtype.kind != "f":
        thresholds = thresholds.astype(scores.dtype)
    return Sweep(thresholds, tps, fps, n - n_neg, n_neg)


def _sweep_weighted(pos, scores, w):
    """Sweep by argsort and cumulative sums (weights, or keys too far apart).

    Without weights the order within ties does not matter (only the last row
    of each group is read, and integer sums are exact). With weights, ties
    are put back in input order -- scikit-learn's stable order -- so the
    float cumulative sums are bit-identical to scikit-learn's: one fast
    (unstable) argsort, then, only if there are ties, one sort of the int64
    keys ``group * n + index``, cheaper than a stable argsort.
    """
    order = np.argsort(scores)[::-1]
    s = scores[order]
    change = s[1:] != s[:-1]
    last = np.r_[np.flatnonzero(change), len(s) - 1]
    if w is not None and len(last) < len(s):
        n = len(s)
        group = np.zeros(n, dtype=np.int64)
        np.cumsum(change, out=group[1:])
        group *= n
        order = group + order
        order.sort()
        order -= group
    p = pos[order]
    if w is None:
        tps = np.cumsum(p, dtype=np.int64)[last]
        return Sweep(s[last], tps, last + 1 - tps, int(tps[-1]), int(len(s) - tps[-1]))
    ws = w[order]
    wp = np.where(p, ws, 0.0)
    tps = np.cumsum(wp)[last]
    fps = np.cumsum(ws - wp)[last]
    return Sweep(s[last], tps, fps, float(tps[-1]), float(fps[-1]))
