"""The threshold sweep: one 2 x 2 table per distinct score, all at once.

Sort the scores in descending order; every distinct score ``t`` is a
threshold ("predict positive when score >= t"); the cumulative number of
positives and negatives at or above it are the true and false positives
there. ROC and PR curves, AUC, metric-by-threshold, the best threshold, the
Spark mirror, the plots and the widgets all read this one sweep. Unweighted,
it is one ``np.sort`` of keys carrying the label (:func:`label_keys`), read
block by block; weighted, an argsort and running sums as scikit-learn's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import ZERO_WEIGHTS, check_labels, check_scores, positive_of, sum_from_zero

__all__ = ["Sweep", "threshold_sweep", "sweep_of", "positive_mask", "label_keys", "twice_u",
           "key_groups", "ZERO_WEIGHTS"]


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

        tp, fp = (v[0] for v in self.counts_above([threshold]))
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
        partition; this is the one-partition result (:meth:`chunked`).
        """
        return self.chunked(num_bins, bin_threshold, (len(self),))[0]

    def chunked(self, num_bins, bin_threshold, sizes):
        """Spark's ``numBins`` chunks, cut within each partition: ``(sweep, partition of each)``.

        ``sizes``: the number of rows (distinct scores) in each of Spark's
        partitions, in order. With ``m`` rows, chunks of ``g = m // num_bins``
        consecutive rows (only when g >= 2), restarting at every partition
        boundary, as :meth:`binned` describes.
        """
        g = len(self) // num_bins if num_bins else 0
        if g < 2:  # nothing grouped: every distinct score is its own point
            return self, np.repeat(np.arange(len(sizes)), sizes)
        bounds = np.cumsum((0, *sizes))
        starts = [np.arange(a, b, g) for a, b in zip(bounds[:-1], bounds[1:])]
        part = np.repeat(np.arange(len(sizes)), [len(s) for s in starts])
        first = np.concatenate(starts).astype(np.intp)
        last = np.minimum(first + g, bounds[1:][part]) - 1
        keys = self.thresholds[last if bin_threshold == "last" else first]
        return Sweep(keys, self.tps[last], self.fps[last], self.n_pos, self.n_neg), part


def threshold_sweep(y_true, y_score, pos_label=None, sample_weight=None, *, num_bins=0,
                    bin_threshold="last", zero_weight="drop", bends=None):
    """Validate binary labels and scores and sweep every threshold once.

    Returns a :class:`Sweep`: distinct scores in descending order (ties share
    a row) with the cumulative true and false positives at each. Unweighted
    input takes a sort-only path (:func:`label_keys`: one ``np.sort``, no
    argsort); weighted input an argsort and cumulative sums. ``num_bins`` > 0
    down-samples as Spark does (:meth:`Sweep.binned`). Samples of weight 0
    are dropped, as scikit-learn's curves do (``zero_weight="drop"``);
    ``"keep"`` keeps their thresholds, as Spark does (its mirrors pass it;
    :data:`ZERO_WEIGHTS`). Thresholds keep the scores' dtype; weighted counts
    are scikit-learn's running sums (Spark's order of additions agrees to
    1e-12), unweighted ones exact integers. ``bends`` (a rule ``(tps, fps) ->
    mask``, :func:`evalkit._curves.roc_bends`) keeps only the rows a curve's
    ``drop_intermediate`` keeps, without making the others.

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
    sweep = sweep_of(pos, scores, w, zero_weight, bends)
    return sweep.binned(num_bins, bin_threshold=bin_threshold)


# -- the sweep itself: one sort of label-carrying keys, or argsort with weights -----------

ONE = np.uint64(1)
TOP = np.uint64(1 << 63)
LOW = np.uint64((1 << 63) - 1)
BLOCK = 1 << 15  # elements per block: a block's temporaries stay in the CPU cache
RUN = 1 << 10  # a run of equal scores at least this long is measured, not read


def label_keys(pos, scores):
    """Sort the samples from the highest score by one ``np.sort`` of 64-bit keys.

    Returns ``(keys, offset)``.

    A float's bits, flipped for negative numbers, sort like the float; less
    the smallest such key (only when a score is negative: ``offset``) and
    shifted left by one, the free lowest bit holds the label (1: positive);
    inverted, ascending keys put the highest score first -- no argsort, no
    gather. After the inversion the lowest bit is 1 for a negative. The top
    bit is kept as it was (xor with LOW, not a full inversion) and the keys are
    sorted as int64, which orders them as the inverted uint64 keys and sorts
    about 10 % faster than uint64 (numpy's x86 sort). None
    when the keys span 2**63 or more, for integers beyond 2**53 and for
    longdouble (those go through argsort). ``pos`` is a boolean mask or 0/1 integers.
    """
    kind = scores.dtype.kind
    if (kind == "f" and scores.dtype.itemsize > 8) or (
            kind in "iu" and len(scores) and np.abs(scores).max() > 2**53):
        return None
    x = scores if scores.dtype == np.float64 else scores.astype(np.float64)
    keys = np.empty(len(x), dtype=np.uint64)
    bits, offset, i = x.view(np.uint64), None, 0  # -0.0 shifted left by one is +0.0's key
    while i < len(x):
        if offset is None and x[i:i + BLOCK].min() < 0:  # a negative score: flip, offset, restart
            np.add(x, 0.0, out=keys.view(np.float64))  # -0.0 becomes 0.0
            negative = keys >= TOP
            np.invert(keys, out=keys, where=negative)
            np.bitwise_or(keys, TOP, out=keys, where=~negative)
            offset = keys.min()
            keys -= offset
            if keys.max() >= TOP:
                return None
            bits, i = keys, 0
        block = keys[i:i + BLOCK]
        np.left_shift(bits[i:i + BLOCK], ONE, out=block)
        np.bitwise_or(block, pos[i:i + BLOCK], out=block)
        np.bitwise_xor(block, LOW, out=block)
        i += BLOCK
    keys.view(np.int64).sort()
    return keys, offset


def _scores_of(score, offset, out):
    """Write into ``out`` (uint64) the float64 bits of the scores whose keys, shifted right by
    one, are ``score``."""
    # = ~key >> 1 (the stored keys kept the top bit)
    np.bitwise_xor(score, LOW ^ TOP >> ONE, out=out)
    if offset is not None:
        out += offset
        negative = out < TOP
        np.invert(out, out=out, where=negative)
        np.bitwise_xor(out, TOP, out=out, where=~negative)


def _run(keys, i):
    """``(split, end)`` when a run of one score RUN long starts at ``i``, else None.

    Its positives (bit 0, key 2h) end at ``split``, its negatives (2h + 1) and the run at ``end``:
    two binary searches instead of reading the run.
    """
    head = keys[i] >> ONE
    if i + RUN > len(keys) or keys[i + RUN - 1] >> ONE != head:
        return None
    rest, low = keys[i:].view(np.int64), (head << ONE).view(np.int64)  # sorted as int64
    return i + int(rest.searchsorted(low, "right")), i + int(rest.searchsorted(low | 1, "right"))


def key_groups(keys, with_keys=True):
    """Chunk by chunk of sorted keys: ``(ends, fps, scores)`` at the last sample of each tie group.

    ``ends`` are the positions of each group's last sample (so ``tps = ends +
    1 - fps``), ``fps`` the negatives up to it and ``scores`` its key shifted
    right by one (None unless ``with_keys``). A block reads the next block's
    first key, to know whether its last group ends in it; a block without
    ties is passed whole (no gather); a long run of one score is one row,
    measured by :func:`_run`. The one loop over sorted keys that makes rows.
    """
    n, i, carry = len(keys), 0, 0
    index = np.arange(min(n, BLOCK))
    while i < n:
        run = _run(keys, i)
        if run is not None:
            carry += run[1] - run[0]
            i = run[1]
            score = keys[i - 1:i] >> ONE if with_keys else None
            yield np.array([i - 1]), np.array([carry]), score
            continue
        block = keys[i:i + BLOCK + 1]
        b = min(BLOCK, n - i)
        score = block >> ONE
        last = np.ones(b, dtype=bool)
        np.not_equal(score[:-1], score[1:], out=last[:len(score) - 1])
        fps = (block[:b] & ONE).view(np.int64)
        fps[0] += carry
        np.cumsum(fps, out=fps)
        carry = int(fps[-1])
        if last.all():
            yield index[:b] + i, fps, (score[:b] if with_keys else None)
        else:
            e = np.flatnonzero(last)
            yield e + i, fps[e], (score[e] if with_keys else None)
        i += b


def twice_u(keys):
    """``(2U, P, N)`` from sorted keys (:func:`label_keys`), no curve made: the AUC's fast path.

    ``U = #(s+ > s-) + #(s+ = s-) / 2``, so ``AUC = 2U / (2 P N)``, exact in
    integers (:func:`evalkit._curves.auc_from_groups`' number). The keys run
    from the highest score, a negative's lowest bit is 1 and within a group of
    tied scores the positives sort first, so the j-th negative (from 0) at
    sorted position ``i_j`` has ``i_j - j`` positives before it, tied ones
    included. Summed, ``U_le = Σ_j i_j - N(N-1)/2`` (the
    rank-sum formula); each group of ties then gives back half of its
    ``pos·neg`` pairs. One pass over the keys, block by block; a long run of
    one score is measured by :func:`_run` instead of being read. (Rows of
    the sweep, :func:`key_groups`, would cost a cumulative sum more.)
    """
    n = len(keys)
    size = min(n, BLOCK)
    label, score = np.empty(size, dtype=np.uint64), np.empty(size, dtype=np.uint64)
    starts = np.empty(size, dtype=bool)  # starts[i]: position i begins a group of equal scores
    index = np.arange(size, dtype=np.int64)
    # negatives so far, Σ of their sorted positions, Σ over groups of pos·neg
    p = index_sum = tied = 0
    open_pos = open_size = 0  # the group still open where the previous step stopped
    previous, i = -1, 0  # the open group's score key
    while i < n:
        run = _run(keys, i)
        if run is not None:
            (split, end), head = run, int(keys[i]) >> 1
            p += end - split
            index_sum += (split + end - 1) * (end - split) // 2  # split + ... + (end - 1)
            if head != previous:
                tied += open_pos * (open_size - open_pos)
                open_pos = open_size = 0
            open_pos, open_size = open_pos + end - split, open_size + end - i
            previous, i = head, end
            continue
        block = keys[i:i + BLOCK]
        m = len(block)
        lab, key, new = label[:m], score[:m], starts[:m]
        np.bitwise_and(block, ONE, out=lab)
        lab = lab.view(np.int64)
        p_block = int(np.count_nonzero(lab))
        p += p_block
        index_sum += i * p_block + int(np.dot(lab, index[:m]))
        np.right_shift(block, ONE, out=key)
        new[0] = int(key[0]) != previous
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
    return 2 * (index_sum - p * (p - 1) // 2) - tied, n - p, p  # p counted the negatives


def _sweep_sorted(keys, offset, dtype, bends=None):
    """The sweep of sorted keys, from the rows of :func:`key_groups`; the keys are overwritten.

    The thresholds overwrite the keys already read (row ``m`` <= position
    ``i``): no new array, no page faults. With ``bends`` (a rule
    ``(tps, fps) -> mask`` that keeps both ends, :func:`evalkit._curves.roc_bends`)
    only the rows it keeps are written, block by block; a row's fate needs the
    next row, so the last two rows wait for the next block (``held``).
    """
    n, m, held = len(keys), 0, None
    tps, fps = np.empty(n, np.int64), np.empty(n, np.int64)
    for ends, f, score in key_groups(keys):
        t = ends + 1 - f
        if bends is None:
            tps[m:m + len(t)], fps[m:m + len(t)] = t, f
        else:
            start = int(held is not None and len(held[0]) == 2)  # the first held row is decided
            if held is not None:
                t, f, score = (np.concatenate(pair) for pair in zip(held, (t, f, score)))
            held = t[-2:], f[-2:], score[-2:]
            rows = np.flatnonzero(bends(t, f)[start:-1]) + start
            np.take(t, rows, out=tps[m:m + len(rows)])
            np.take(f, rows, out=fps[m:m + len(rows)])
            score = score[rows]
        _scores_of(score, offset, keys[m:m + len(score)])
        m += len(score)
    if bends is not None:  # the last row: always kept
        tps[m], fps[m] = held[0][-1], held[1][-1]
        _scores_of(held[2][-1:], offset, keys[m:m + 1])
        m += 1
    # a short sweep lets go of the curve-sized arrays (the curves copy theirs anyway)
    thresholds, tps, fps = (a[:m] if 2 * m > n or bends is not None else a[:m].copy()
                            for a in (keys.view(np.float64), tps, fps))
    n_neg = int(fps[-1]) if m else 0
    return Sweep(thresholds.astype(dtype, copy=False), tps, fps, n - n_neg, n_neg)


def _sweep_weighted(pos, scores, w):
    """Sweep by argsort and cumulative sums (weights, or keys too far apart).

    With weights, ties are put back in input order -- scikit-learn's stable
    order -- so the float cumulative sums are bit-identical to
    scikit-learn's: one fast (unstable) argsort, then, only if there are
    ties, one sort of the int64 keys ``group * n + index``, cheaper than a
    stable argsort.
    """
    order = np.argsort(scores)[::-1]
    s = scores[order]
    change = s[1:] != s[:-1]
    last = np.r_[np.flatnonzero(change), len(s) - 1]
    if w is not None and len(last) < len(s):
        group = np.zeros(len(s), dtype=np.int64)
        np.cumsum(change, out=group[1:])
        group *= len(s)
        order = group + order
        order.sort()
        order -= group
    ws = np.ones(len(s), dtype=np.int64) if w is None else w[order]
    wp = np.where(pos[order], ws, 0)
    tps, fps = np.cumsum(wp)[last], np.cumsum(ws - wp)[last]
    return Sweep(s[last], tps, fps, tps[-1].item(), fps[-1].item())


def sweep_of(pos, scores, w=None, zero_weight="drop", bends=None):
    """The :class:`Sweep` of validated input: a positive mask, 1-D scores, weights or None.

    ``bends``: keep only the rows this rule keeps (``drop_intermediate``; see
    :func:`_sweep_sorted`).
    """
    packed = label_keys(pos, scores) if w is None else None
    if packed is not None:
        return _sweep_sorted(*packed, scores.dtype, bends)
    if w is not None and zero_weight == "drop" and not w.all():
        pos, scores, w = pos[w != 0], scores[w != 0], w[w != 0]
    sweep = _sweep_weighted(pos, scores, w)
    if bends is None:
        return sweep
    kept = np.flatnonzero(bends(sweep.tps, sweep.fps))
    return Sweep(sweep.thresholds[kept], sweep.tps[kept], sweep.fps[kept], sweep.n_pos, sweep.n_neg)
