"""The sweep's fast path: one ``np.sort`` of 64-bit keys that carry the label.

The plain sweep (:func:`evalkit._sweep.sorted_sweep`, read it first) argsorts
the scores, gathers the labels in that order and sums them. Here each sample
becomes one unsigned 64-bit key that holds both its score and its label, so a
single ``np.sort`` of the keys orders the samples: no argsort, no gather. The
sorted keys are then read block by block (:data:`BLOCK` keys, sized to stay in
the CPU cache) into the rows of the sweep, or into the AUC's rank sum.

A key, from its highest bit to its lowest:

* a float's bits sort like the float when the float is not negative; when
  some score is negative, the bits of the negative floats are inverted and
  the others get their top bit set (then all sort like the floats), less
  the smallest such value (``offset``), so they still fit in 63 bits;
* shifted left by one, which frees the lowest bit for the label (1: positive);
* the low 63 bits inverted, so ascending keys run from the highest score,
  and in a group of tied scores the positives come first (their lowest bit
  is now 0, a negative's is 1). The top bit is left as it was and the keys
  are sorted as int64, which orders them as the fully inverted unsigned
  keys would be (numpy sorts int64 a little faster than uint64).

Scores that do not fit (integers beyond 2**53, longdouble, or negative and
positive floats more than 2**63 key values apart) take the plain path.
``tests/test_sweep_packed.py`` holds every step here to the plain sweep.
"""

from __future__ import annotations

import functools

import numpy as np

from ._threads import run_all

__all__ = ["BLOCK", "RUN", "fits_float64", "flipped_offset", "write_keys", "write_all_keys",
           "sort_keys", "label_keys", "key_groups", "first_group", "count_negatives", "write_rows",
           "rank_sum", "packed_sweep", "first_rows"]

ONE = np.uint64(1)
TOP = np.uint64(1 << 63)
LOW = np.uint64((1 << 63) - 1)
#: Keys read at once: a block's temporaries stay in the CPU cache.
BLOCK = 1 << 15
#: A run of one score at least this long is measured by two binary searches, not read.
RUN = 1 << 10


# -- scores to keys ------------------------------------------------------------------------


def _flipped(x, out):
    """Write into ``out`` (uint64) the bits of floats ``x`` made to sort like the floats."""
    as_float = out.view(np.float64)
    np.add(x, 0.0, out=as_float)  # -0.0 becomes 0.0: one key for zero
    negative = out >= TOP
    np.invert(out, out=out, where=negative)
    np.bitwise_or(out, TOP, out=out, where=~negative)


def _as_float64(scores):
    if scores.dtype == np.float64:
        return scores
    return scores.astype(np.float64)


def fits_float64(scores):
    """True when every score is a float64 exactly: no longdouble, no integer beyond 2**53."""
    kind = scores.dtype.kind
    if kind == "f" and scores.dtype.itemsize > 8:
        return False
    if kind in "iu" and len(scores) and np.abs(scores).max() > 2**53:
        return False
    return True


def flipped_offset(lowest, highest):
    """``(True, offset)`` for keys of scores from ``lowest`` (negative) to ``highest``.

    ``offset`` is the flipped bits of the lowest score, subtracted from every
    key; ``(False, None)`` when the keys would still span 2**63 or more.
    """
    ends = np.empty(2, dtype=np.uint64)
    _flipped(np.array([lowest, highest], dtype=np.float64), ends)
    if ends[1] - ends[0] >= TOP:
        return False, None
    return True, ends[0]


def write_keys(pos, scores, offset, out):
    """Write the unsorted keys of ``scores`` and labels ``pos`` (bool) into ``out`` (uint64).

    With ``offset`` None the scores are taken to be non-negative: at the
    first block that holds a negative score it stops and returns True (the
    keys must then be written again with flipped bits and an offset).
    """
    x = _as_float64(scores)
    for start in range(0, len(x), BLOCK):
        stop = start + BLOCK
        block = out[start:stop]
        if offset is None:
            if x[start:stop].min() < 0:
                return True
            np.left_shift(x[start:stop].view(np.uint64), ONE, out=block)  # -0.0 is 0.0's key
        else:
            _flipped(x[start:stop], block)
            block -= offset
            np.left_shift(block, ONE, out=block)
        np.bitwise_or(block, pos[start:stop], out=block)
        np.bitwise_xor(block, LOW, out=block)
    return False


def _extremes(scores):
    return scores.min(), scores.max()


def write_all_keys(pos, scores, keys, slices):
    """Write the keys into ``keys``, each ``(start, stop)`` slice on a thread of its own.

    Returns ``(fits, offset)`` as :func:`flipped_offset` says. The scores are
    first taken to be non-negative; only when a slice finds a negative one are
    the lowest and highest looked up and the keys written again, with flipped
    bits less the lowest.
    """
    def write_all(offset):
        if len(slices) == 1:   # one thread: no views, no partials (they cost small input ~7 %)
            return [write_keys(pos, scores, offset, keys)]
        steps = [functools.partial(write_keys, pos[a:b], scores[a:b], offset, keys[a:b])
                 for a, b in slices]
        return run_all(steps)

    negative = write_all(None)
    if not any(negative):
        return True, None
    extremes = run_all([functools.partial(_extremes, scores[a:b]) for a, b in slices])
    lowest = min(low for low, _ in extremes)
    highest = max(high for _, high in extremes)
    fits, offset = flipped_offset(lowest, highest)
    if fits:
        write_all(offset)
    return fits, offset


def sort_keys(keys):
    """Sort keys in place, as int64 (see the module's docstring)."""
    keys.view(np.int64).sort()


def label_keys(pos, scores):
    """The sorted keys of the samples and their ``offset``, or None when the scores do not fit.

    ``pos`` is the boolean mask of the positives.
    """
    if not fits_float64(scores):
        return None
    keys = np.empty(len(scores), dtype=np.uint64)
    fits, offset = write_all_keys(pos, scores, keys, [(0, len(scores))])
    if not fits:
        return None
    sort_keys(keys)
    return keys, offset


def _write_scores(score, offset, out):
    """Write into ``out`` (uint64) the float64 bits of ``score``: keys shifted right by one."""
    np.bitwise_xor(score, LOW >> ONE, out=out)  # undo the inversion of the low bits
    if offset is None:
        return
    out += offset
    negative = out < TOP
    np.invert(out, out=out, where=negative)
    np.bitwise_xor(out, TOP, out=out, where=~negative)


# -- sorted keys to groups of tied scores ---------------------------------------------------


def _run(keys, i):
    """``(split, end)`` when a run of one score, at least RUN long, starts at ``i``; else None.

    The run's positives (lowest bit 0) end at ``split``, its negatives (bit 1)
    and the run at ``end``: two binary searches instead of reading the run.
    """
    if i + RUN > len(keys):
        return None
    score = keys[i] >> ONE
    if keys[i + RUN - 1] >> ONE != score:
        return None
    rest = keys[i:].view(np.int64)  # sorted as int64
    positive_key = (score << ONE).view(np.int64)
    split = i + int(rest.searchsorted(positive_key, "right"))
    end = i + int(rest.searchsorted(positive_key | 1, "right"))
    return split, end


def first_group(keys):
    """``(positives, negatives)`` of the first group of tied scores of sorted keys."""
    score = keys[0] >> ONE
    positive_key = (score << ONE).view(np.int64)
    as_int = keys.view(np.int64)
    split = int(as_int.searchsorted(positive_key, "right"))
    end = int(as_int.searchsorted(positive_key | 1, "right"))
    return split, end - split


def count_negatives(keys):
    """The negatives among keys (their lowest bit is 1), block by block."""
    bits = np.empty(min(len(keys), BLOCK), dtype=np.uint64)
    negatives = 0
    for start in range(0, len(keys), BLOCK):
        block = keys[start:start + BLOCK]
        label = bits[:len(block)]
        np.bitwise_and(block, ONE, out=label)
        negatives += int(np.count_nonzero(label))
    return negatives


def _block_groups(keys, i, stop, origin, carry, with_keys):
    """``(ends, fps, scores, carry)`` of the groups that end in ``keys[i:stop]`` (see key_groups).

    The last ``carry`` counts the negatives through the whole block.
    """
    block = keys[i:stop + 1]  # one key more: does the block's last group end in it?
    size = stop - i
    score = block >> ONE
    last = np.ones(size, dtype=bool)  # last[j]: sample j is the last of its group
    np.not_equal(score[:-1], score[1:], out=last[:len(score) - 1])
    fps = (block[:size] & ONE).view(np.int64)
    fps[0] += carry
    np.cumsum(fps, out=fps)
    carry = int(fps[-1])
    if last.all():  # no ties: every sample is a group of its own
        ends = np.arange(origin + i, origin + stop)
        score = score[:size]
    else:
        ends = np.flatnonzero(last)
        fps = fps[ends]
        score = score[ends]
        ends += origin + i
    if not with_keys:
        score = None
    return ends, fps, score, carry


def _pieces(keys):
    """Sorted keys cut into pieces to read: ``(start, stop, run)``.

    ``run`` is ``(split, end)`` for a long run of one score (see :func:`_run`),
    else None for a block of at most BLOCK keys.
    """
    n = len(keys)
    i = 0
    while i < n:
        run = _run(keys, i)
        if run is None:
            stop = min(i + BLOCK, n)
        else:
            stop = run[1]
        yield i, stop, run
        i = stop


def key_groups(keys, with_keys=True, start=0, carry=0):
    """Chunk by chunk of sorted keys: ``(ends, fps, scores)`` at the last sample of each group.

    A group is a run of tied scores. ``ends`` are the positions of the
    groups' last samples (``start`` added, so ``tps = ends + 1 - fps``),
    ``fps`` the negatives up to them (``carry`` more, the negatives before
    ``keys``) and ``scores`` their keys shifted right by one (None unless
    ``with_keys``). A long run of one score is one row, measured by :func:`_run`.
    """
    for i, stop, run in _pieces(keys):
        if run is None:
            ends, fps, score, carry = _block_groups(keys, i, stop, start, carry, with_keys)
            yield ends, fps, score
            continue
        split, end = run
        carry += end - split
        score = None
        if with_keys:
            score = keys[end - 1:end] >> ONE
        yield np.array([start + end - 1]), np.array([carry]), score


# -- groups to the sweep's rows -------------------------------------------------------------


class _Rows:
    """Rows of the sweep: cumulative ``tps`` and ``fps`` and the score keys at each."""

    def __init__(self, tps, fps, scores):
        self.tps, self.fps, self.scores = tps, fps, scores

    def __len__(self):
        return len(self.tps)

    def __getitem__(self, rows):
        return _Rows(self.tps[rows], self.fps[rows], self.scores[rows])


class _Writer:
    """Writes rows into a sweep's arrays: thresholds over the keys, counts into tps and fps.

    Row ``m`` is written at position ``m`` of the keys, which the groups have
    been read up to (a row ends at a sample at or after it): the thresholds
    need no array of their own.
    """

    def __init__(self, keys, offset, tps, fps):
        self.keys, self.offset, self.tps, self.fps = keys, offset, tps, fps
        self.m = 0

    def write(self, rows):
        stop = self.m + len(rows)
        self.tps[self.m:stop] = rows.tps
        self.fps[self.m:stop] = rows.fps
        _write_scores(rows.scores, self.offset, self.keys[self.m:stop])
        self.m = stop

    def write_kept(self, rows, kept):
        """Write the rows at the indices ``kept``, gathered straight into the arrays."""
        stop = self.m + len(kept)
        np.take(rows.tps, kept, out=self.tps[self.m:stop])
        np.take(rows.fps, kept, out=self.fps[self.m:stop])
        _write_scores(rows.scores[kept], self.offset, self.keys[self.m:stop])
        self.m = stop


class _Bends:
    """The rows a curve keeps (``bends``), written as the chunks of rows come.

    A row's fate needs the rows just before and after it, so the last row of
    each chunk waits for the next one. The rows are decided in one buffer:
    ``held`` rows at its front carry over from the chunk before, the row that
    waits led by the row before it, whose fate is already known
    (``context``: how many rows lead, 0 at the curve's start).
    """

    def __init__(self, bends, writer, before):
        self.bends, self.writer = bends, writer
        size = BLOCK + 2  # a chunk's rows, after the two held ones
        self.rows = _Rows(np.empty(size, np.int64), np.empty(size, np.int64),
                          np.empty(size, np.uint64))
        self.held = 0
        self.context = 0
        if before is not None:  # the larger sweep's row before these: context only
            self._put(0, before[0], before[1], 0)
            self.held = 1
            self.context = 1

    def _put(self, at, tps, fps, scores):
        stop = at + np.size(tps)
        self.rows.tps[at:stop] = tps
        self.rows.fps[at:stop] = fps
        self.rows.scores[at:stop] = scores
        return stop

    def _write_decided(self, stop, decided_stop):
        """Write the rows kept among those from ``context`` up to ``decided_stop``."""
        rows = self.rows[:stop]
        keep = self.bends(rows.tps, rows.fps)
        kept = np.flatnonzero(keep[self.context:decided_stop]) + self.context
        self.writer.write_kept(rows, kept)

    def add(self, chunk):
        stop = self._put(self.held, chunk.tps, chunk.fps, chunk.scores)
        self._write_decided(stop, stop - 1)  # all but the last row
        self.held = min(2, stop)  # the last decided row and the one that waits go to the front
        last = self.rows[stop - self.held:stop]
        self._put(0, last.tps.copy(), last.fps.copy(), last.scores.copy())
        self.context = self.held - 1

    def finish(self, after):
        """Decide the waiting row, given the row after it (None at the curve's end: kept)."""
        stop = self.held
        if after is not None:
            stop = self._put(self.held, after[0], after[1], 0)
        self._write_decided(stop, self.held)


def write_rows(keys, offset, tps, fps, *, start=0, carry=0, bends=None, before=None, after=None):
    """Write the sweep's rows of sorted keys; return how many.

    Row ``m`` gets its threshold's float64 bits at ``keys[m]`` and its counts at
    ``tps[m]`` and ``fps[m]``. ``start`` and ``carry``: the samples and the
    negatives before ``keys`` (a part of a larger sweep). ``bends`` (a rule
    ``(tps, fps) -> mask``, :func:`evalkit._curves.roc_bends`) keeps only the
    rows a curve's ``drop_intermediate`` keeps (:class:`_Bends`). ``before``
    and ``after``: the rows ``(tps, fps)`` of the larger sweep just before and
    after these (None at the curve's ends).
    """
    writer = _Writer(keys, offset, tps, fps)
    kept = None
    if bends is not None:
        kept = _Bends(bends, writer, before)
    for ends, chunk_fps, scores in key_groups(keys, start=start, carry=carry):
        rows = _Rows(ends + 1 - chunk_fps, chunk_fps, scores)
        if len(rows) == 0:  # a chunk inside one group of ties
            continue
        if kept is None:
            writer.write(rows)
        else:
            kept.add(rows)
    if kept is not None and kept.held > kept.context:  # a row waits
        kept.finish(after)
    return writer.m


def packed_sweep(pos, scores, bends=None):
    """The sweep of unweighted input by sorted keys: ``(thresholds, tps, fps, n_pos, n_neg)``.

    None when the scores do not fit in keys. The thresholds overwrite the
    sorted keys (see :func:`write_rows`).
    """
    packed = label_keys(pos, scores)
    if packed is None:
        return None
    keys, offset = packed
    n = len(keys)
    tps = np.empty(n, dtype=np.int64)
    fps = np.empty(n, dtype=np.int64)
    m = write_rows(keys, offset, tps, fps, bends=bends)
    return first_rows(keys, tps, fps, m, scores.dtype, bends)


def first_rows(keys, tps, fps, m, dtype, bends):
    """The sweep of the first ``m`` rows written: ``(thresholds, tps, fps, n_pos, n_neg)``.

    The thresholds are the keys' first ``m`` entries, as ``dtype``. A short
    sweep lets go of the sample-sized arrays: it copies its rows when they
    fill at most half of them. A curve's sweep (with ``bends``) keeps views,
    as the curves copy their points anyway.
    """
    thresholds = keys[:m].view(np.float64).astype(dtype, copy=False)
    arrays = [thresholds, tps[:m], fps[:m]]
    if 2 * m <= len(tps) and bends is None:
        arrays = [array.copy() for array in arrays]
    n_neg = 0
    if m:
        n_neg = int(arrays[2][-1])
    n_pos = len(tps) - n_neg
    return (*arrays, n_pos, n_neg)


# -- sorted keys to the AUC's rank sum -----------------------------------------------------


class _TiedPairs:
    """Σ pos·neg over the groups of tied scores, fed piece by piece.

    A group may span pieces (blocks, runs): the group still open is kept
    until a piece starts another score.
    """

    def __init__(self):
        self.pairs = 0
        self.score = None  # the open group's score key
        self.positives = 0
        self.size = 0

    def close(self):
        self.pairs += self.positives * (self.size - self.positives)
        self.positives = 0
        self.size = 0

    def add(self, score, positives, size):
        """A piece of one group: ``positives`` of its ``size`` samples scored ``score``."""
        if score != self.score:
            self.close()
            self.score = score
        self.positives += positives
        self.size += size


def _add_block_ties(ties, score, negative):
    """Feed ``ties`` the groups of one block: its score keys and its negative flags (0/1)."""
    new = score[1:] != score[:-1]  # new[i]: sample i + 1 starts a group
    if new.all():  # no two neighbours tie: every group in the block is one sample
        ties.add(int(score[0]), 1 - int(negative[0]), 1)  # it may join the open group
        if len(score) > 1:  # the samples between the first and the last tie with nothing
            ties.add(int(score[-1]), 1 - int(negative[-1]), 1)
        return
    starts = np.r_[0, np.flatnonzero(new) + 1]
    sizes = np.diff(starts, append=len(score))
    positives = sizes - np.add.reduceat(negative, starts)
    ties.add(int(score[0]), int(positives[0]), int(sizes[0]))  # it may join the open group
    if len(starts) == 1:  # the whole block is one group, still open
        return
    ties.close()
    inner = slice(1, -1)  # the groups that start and end in the block
    ties.pairs += int(np.dot(positives[inner], sizes[inner] - positives[inner]))
    ties.add(int(score[-1]), int(positives[-1]), int(sizes[-1]))


def rank_sum(keys):
    """``(2U, P, N)`` of sorted keys: the AUC's count, no curve made (AUC = 2U / 2PN).

    ``U = #(s+ > s-) + #(s+ = s-) / 2`` over the positive-negative pairs.
    The keys run from the highest score and in a group of ties the
    positives come first, so the j-th negative (from 0), at position
    ``i_j``, has ``i_j - j`` positives before it, its tied ones included.
    Summed over the negatives, ``Σ_j i_j - N(N - 1)/2`` counts every pair
    won and every pair tied; each group of ties then gives back half of
    its ``pos · neg`` pairs. One pass over the keys, block by block; a
    long run of one score is measured (:func:`_run`) instead of read.
    """
    n = len(keys)
    size = min(n, BLOCK)
    index = np.arange(size, dtype=np.int64)
    labels = np.empty(size, dtype=np.uint64)
    negatives = 0
    position_sum = 0  # Σ of the negatives' positions
    ties = _TiedPairs()
    for i, stop, run in _pieces(keys):
        if run is not None:
            split, end = run
            negatives += end - split
            position_sum += (split + end - 1) * (end - split) // 2  # split + ... + (end - 1)
            ties.add(int(keys[i]) >> 1, split - i, end - i)
            continue
        block = keys[i:stop]
        m = stop - i
        negative = labels[:m]
        np.bitwise_and(block, ONE, out=negative)
        negative = negative.view(np.int64)
        block_negatives = int(np.count_nonzero(negative))
        negatives += block_negatives
        # einsum, not np.dot: numpy's integer dot is slower
        position_sum += i * block_negatives + int(np.einsum("i,i->", negative, index[:m]))
        _add_block_ties(ties, block >> ONE, negative)
    ties.close()
    pairs_at_or_above = position_sum - negatives * (negatives - 1) // 2
    return 2 * pairs_at_or_above - ties.pairs, n - negatives, negatives
