"""The sweep's fast path on several threads: the keys cut by score, each part sorted apart.

numpy's sort releases the GIL, so two threads sort two arrays at once. The
sweep needs one order, though, so the keys of :mod:`evalkit._sweep_packed`
are first cut by score into buckets: every key of a bucket sorts before every
key of the next, and no group of tied scores is cut. Then each thread sorts
one bucket and reads it -- into its part of the AUC's rank sum, or into its
rows of the sweep -- and the parts join by counts alone:

1. each thread writes the keys of one slice of the samples;
2. the cut points are quantiles of a sample of the keys, each rounded down
   to a positive's key (even), the first key of its score's group;
3. each key goes to its bucket by ``np.partition`` (linear, no sort): for
   two buckets, each thread partitions its slice and one swap joins them;
   for more, each thread counts its slice's keys below each cut point (the
   sums are where the buckets begin) and one partition places them all;
4. each thread sorts one bucket and reads it.

A positive of a bucket outranks every negative of the later buckets, and a
bucket's rows continue the counts of the buckets before it.
``tests/test_sweep_parallel.py`` holds this path to the plain sweep.
"""

from __future__ import annotations

import functools

import numpy as np

from ._sweep_packed import (count_negatives, first_group, first_rows, fits_float64, rank_sum,
                            sort_keys, write_all_keys, write_rows)
from ._threads import run_all, spans

__all__ = ["bucketed_keys", "parallel_rank_sum", "parallel_sweep"]

#: Keys drawn per thread to place the cut points.
SAMPLE_PER_THREAD = 1 << 10


def _cut_points(keys, parts):
    """``parts - 1`` increasing even int64 keys that cut ``keys`` into about equal parts."""
    step = max(1, len(keys) // (SAMPLE_PER_THREAD * parts))
    sample = np.sort(keys.view(np.int64)[::step])
    quantiles = sample[len(sample) * np.arange(1, parts) // parts]
    return np.unique(quantiles & ~1)  # a positive's key: the first of its score's group


def _count_below(keys, cuts):
    as_int = keys.view(np.int64)
    return [int(np.count_nonzero(as_int < cut)) for cut in cuts]


def _partition_below(keys, cut):
    """Partition ``keys`` in place, those below ``cut`` first; how many they are."""
    as_int = keys.view(np.int64)
    below = int(np.count_nonzero(as_int < cut))
    if 0 < below < len(keys):
        as_int.partition(below)
    return below


def _swap(keys, first, second, length):
    """Swap ``keys[first:first + length]`` and ``keys[second:second + length]`` (apart)."""
    kept = keys[first:first + length].copy()
    keys[first:first + length] = keys[second:second + length]
    keys[second:second + length] = kept


def _split_in_two(keys, slices, cut):
    """Two buckets, below ``cut`` and from it; where the second begins.

    Each thread partitions its slice in place, which leaves
    ``[A below | A above | B below | B above]``; swapping the shorter of the
    middle two with as many keys of the other (the order inside a bucket does
    not matter) makes ``[A below, B below | A above, B above]``.
    """
    (a_start, a_stop), (b_start, _) = slices
    below = run_all([functools.partial(_partition_below, keys[a:b], cut) for a, b in slices])
    above_in_a = a_stop - a_start - below[0]
    below_in_b = below[1]
    length = min(above_in_a, below_in_b)
    first = a_start + below[0]
    second = b_start + below_in_b - length
    run_all([functools.partial(_swap, keys, first + i, second + i, j - i)
             for i, j in spans(length, len(slices))])
    return first + below_in_b


def _split_by_one_partition(keys, slices, cuts):
    """Buckets at ``cuts``: the keys below each counted on threads, then one np.partition."""
    below = run_all([functools.partial(_count_below, keys[a:b], cuts) for a, b in slices])
    starts = np.sum(below, axis=0, dtype=np.int64).tolist()
    inner = [start for start in starts if 0 < start < len(keys)]
    if inner:
        keys.view(np.int64).partition(inner)
    return starts


def bucketed_keys(pos, scores, threads):
    """Keys in buckets of scores: ``(keys, offset, bounds)``, or None when the scores do not fit.

    Bucket ``b`` is ``keys[bounds[b]:bounds[b + 1]]``, unsorted; every key of
    a bucket sorts before the keys of the next. Empty buckets are left out.
    Two buckets are split on both threads (:func:`_split_in_two`), more by
    one partition of all the keys.
    """
    if not fits_float64(scores):
        return None
    n = len(scores)
    slices = spans(n, threads)
    keys = np.empty(n, dtype=np.uint64)
    fits, offset = write_all_keys(pos, scores, keys, slices)
    if not fits:
        return None
    cuts = _cut_points(keys, threads)
    if len(cuts) == 1 and threads == 2:
        starts = [_split_in_two(keys, slices, int(cuts[0]))]
    else:
        starts = _split_by_one_partition(keys, slices, cuts)
    bounds = np.unique(np.array([0, *starts, n], dtype=np.int64))
    return keys, offset, bounds


def _sorted_rank_sum(bucket):
    sort_keys(bucket)
    return rank_sum(bucket)


def parallel_rank_sum(pos, scores, threads):
    """``(2U, P, N)`` as :func:`evalkit._sweep_packed.rank_sum` gives it, each bucket on a thread.

    None when the scores do not fit in keys. Every positive of a bucket
    outranks every negative of the later buckets: ``2 · pos_b · neg_later``
    more to 2U.
    """
    bucketed = bucketed_keys(pos, scores, threads)
    if bucketed is None:
        return None
    keys, _, bounds = bucketed
    steps = [functools.partial(_sorted_rank_sum, keys[a:b]) for a, b in zip(bounds, bounds[1:])]
    parts = run_all(steps)
    twice_u = 0
    n_pos = 0
    n_neg = 0
    for part_twice_u, part_pos, part_neg in reversed(parts):  # from the lowest scores
        twice_u += part_twice_u + 2 * part_pos * n_neg
        n_pos += part_pos
        n_neg += part_neg
    return twice_u, n_pos, n_neg


def _sorted_negatives(bucket):
    sort_keys(bucket)
    return count_negatives(bucket)


def _neighbours(keys, bounds, carries):
    """The rows just before and just after each bucket, as ``(tps, fps)`` (None at the ends).

    The row before bucket ``b`` is the counts of the buckets before it; the
    row after is the first group of bucket ``b + 1`` on top of those.
    """
    starts = bounds[:-1]
    before = [None]
    after = []
    for b in range(1, len(starts)):
        start = int(starts[b])
        carry = carries[b]
        before.append((start - carry, carry))
        positives, negatives = first_group(keys[start:bounds[b + 1]])
        after.append((start - carry + positives, carry + negatives))
    after.append(None)
    return before, after


def _close_gaps(arrays, starts, counts):
    """Move each bucket's rows (``counts[b]`` at ``starts[b]``) down behind the earlier ones."""
    m = 0
    for start, count in zip(starts, counts):
        if start != m:
            for array in arrays:
                array[m:m + count] = array[start:start + count]
        m += count
    return m


def parallel_sweep(pos, scores, bends, threads):
    """:func:`evalkit._sweep_packed.packed_sweep` with each bucket sorted and read on a thread.

    First each thread sorts a bucket and counts its negatives, so each
    bucket knows the counts before it; then each writes its rows where its
    keys begin, and the rows are moved together.
    """
    bucketed = bucketed_keys(pos, scores, threads)
    if bucketed is None:
        return None
    keys, offset, bounds = bucketed
    pairs = list(zip(bounds[:-1].tolist(), bounds[1:].tolist()))
    negatives = run_all([functools.partial(_sorted_negatives, keys[a:b]) for a, b in pairs])
    carries = np.cumsum([0, *negatives[:-1]]).tolist()  # the negatives before each bucket
    before, after = _neighbours(keys, bounds, carries)
    n = len(keys)
    tps = np.empty(n, dtype=np.int64)
    fps = np.empty(n, dtype=np.int64)
    steps = []
    for (a, b), carry, row_before, row_after in zip(pairs, carries, before, after):
        step = functools.partial(write_rows, keys[a:b], offset, tps[a:b], fps[a:b], start=a,
                                 carry=carry, bends=bends, before=row_before, after=row_after)
        steps.append(step)
    counts = run_all(steps)
    m = _close_gaps([keys, tps, fps], bounds[:-1].tolist(), counts)
    return first_rows(keys, tps, fps, m, scores.dtype, bends)
