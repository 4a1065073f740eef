"""Bootstrap resamples as counts: the one drawing step of ``uncertainty`` and ``compare``.

A bootstrap resample of n rows only matters through how often each kind of
row (a cell: a confusion-matrix cell, a score group and label, a user) was
drawn, so resamples are drawn as count arrays ``(B, K)`` over the K cells.
"""

from __future__ import annotations

import numpy as np

from . import _curves

_CHUNK = 1 << 22  # about this many numbers per block of resamples
_FEW = 64  # a stratum of up to this many cells is drawn as one multinomial; more, row by row


def _side_by_side(code, size, rows):
    """``rows`` resamples' codes ``0..size-1`` as one array: row b's code c is ``b size + c``."""
    return (code + (np.arange(rows) * size)[:, None]).ravel()


def _tally(code, size, weights):
    """Per resample (row of ``weights``), the weights of each code ``0..size-1``: (B, size)."""
    flat = _side_by_side(code, size, len(weights))
    return np.bincount(flat, weights=weights.ravel(), minlength=len(weights) * size).reshape(
        len(weights), size)


def _draw(rng, counts, strata, size, stratify):
    """``size`` bootstrap resamples of the cells, as counts (size, K): the exact ordinary bootstrap.

    Stratified: each stratum's ``n_s`` rows are drawn with replacement from
    its own cells, ``Multinomial(n_s, counts_s / n_s)``; otherwise all ``n``
    rows from all cells. Few cells: one multinomial draw; many (a sweep's
    score groups): rows drawn and counted, faster than a binomial per cell.
    """
    out = np.empty((size, len(counts)), dtype=np.int64)
    for idx in ([np.flatnonzero(strata == s) for s in np.unique(strata)] if stratify
                else [np.arange(len(counts))]):
        c = counts[idx]
        n = int(c.sum())
        if len(idx) <= _FEW:
            out[:, idx] = rng.multinomial(n, c / n, size=size)
            continue
        # the cell of each row; None where every cell is one row (the row is the cell)
        cell = None if (c == 1).all() else np.repeat(np.arange(len(idx), dtype=np.int32), c)
        for row in out:
            drawn = rng.integers(0, n, n, dtype=np.int32)
            row[idx] = np.bincount(drawn if cell is None else cell[drawn], minlength=len(idx))
    return out


def _draws(rng, counts, strata, total, stratify):
    """``total`` resamples of the cells (:func:`_draw`), in blocks sized by the work of one."""
    per = len(counts) + (int(counts.sum()) if len(counts) > _FEW else 0)  # rows drawn one by one
    for size in _chunks(total, per):
        yield _draw(rng, counts, strata, size, stratify)


def _chunks(total, per):
    """Block sizes for ``total`` resamples of ``per`` numbers each (about ``_CHUNK`` per block)."""
    size = max(1, min(total, _CHUNK // max(per, 1)))
    return [min(size, total - start) for start in range(0, total, size)]


def _bootstrap_p(dist, estimate):
    """Two-sided bootstrap p-value of "no difference": ``(1 + #{|d*_b - d̂| >= |d̂|}) / (B + 1)``.

    The resampled differences shifted to mean 0 (Hall & Wilson 1991); a
    relative tolerance of 1e-12 counts a tie as extreme.
    """
    extreme = np.count_nonzero(np.abs(dist - estimate) >= abs(estimate) - 1e-12 * abs(estimate))
    return (1 + extreme) / (len(dist) + 1)


def _runs(fn, pos, neg):
    """Where the runs of score groups the metric cannot tell apart start.

    Neighbouring groups of negatives only (and, for the AUC, of positives
    only) are one run: every sample of a run beats, and is beaten by, the
    same samples of the other class, and AP's steps are only at positives.
    A resample's counts of a run are the sums of its groups' (a
    multinomial's margins) and give the same metric; fewer cells, less work
    per resample (about half as many with distinct scores).
    """
    kind = np.where(pos == 0, 0, np.where(neg == 0, 1 if fn is _curves.auc_from_groups else 2, 2))
    return np.flatnonzero(np.r_[True, (kind[1:] != kind[:-1]) | (kind[1:] == 2)])
