"""DeLong's one-model variance block by block of the sorted keys: the fast path of ``roc_auc_ci``.

The plain sweep (:func:`evalkit._delong.auc_variance`) builds the whole
curve, then the structural components of every score group. Here the
label-carrying sort keys of :func:`evalkit._sweep_packed.label_keys` are read one
cache-sized block at a time (:func:`evalkit._sweep_packed.key_groups`): each
block's components give its moments per class (count, exact total, M2),
and the blocks' moments are merged as Chan et al.'s update -- one sort and
one pass, no curve (1.5x faster than the plain sweep at 10^6 scores).
Tests hold it equal to the plain sweep on random scores with ties, across
block edges.
"""

from __future__ import annotations

import numpy as np

from ._delong import auc_variance as plain_auc_variance
from ._delong import components, moments, variance
from ._sweep_packed import key_groups, label_keys


def auc_variance(positive, scores):
    """The AUC and DeLong's variance of one model (as the plain sweep), block by block.

    Scores whose keys do not pack (:func:`evalkit._sweep_packed.label_keys` gives
    None) take the plain sweep.
    """
    packed = label_keys(positive, scores)
    if packed is None:
        return plain_auc_variance(positive, scores)
    n_pos = int(np.count_nonzero(positive))
    n_neg = len(positive) - n_pos
    parts = _block_moments(packed[0], n_pos, n_neg)
    twice_u = sum(total for _, total, _ in parts[1::2])  # the negatives' totals, exact ints
    rows, totals, m2 = (np.array(column, dtype=np.float64).reshape(-1, 2)
                        for column in zip(*parts))
    mean = totals.sum(axis=0) / rows.sum(axis=0)
    # Chan et al.: the blocks' M2, plus each block's mean's spread about the mean of all
    spread = totals / np.maximum(rows, 1) - mean
    m2 = m2.sum(axis=0) + (rows * spread ** 2).sum(axis=0)
    auc = twice_u / (2.0 * n_pos * n_neg)
    return auc, variance(m2[0], m2[1], n_pos, n_neg)


def _block_moments(keys, n_pos, n_neg):
    """Per block of the sorted keys, the moments of the positives' then the negatives' components.

    A list of ``(count, total, M2)`` (:func:`evalkit._delong.moments`), two
    per block; a block inside one long group of tied scores ends no group
    and is skipped.
    """
    parts = []
    before = (0, 0)  # the cumulative counts through the previous block
    for ends, fps, _ in key_groups(keys, with_keys=False):
        if not len(ends):
            continue
        tps = ends + 1 - fps
        a, pos, b, neg = components(tps, fps, n_pos, n_neg, before)
        parts.append(moments(a, pos, int(tps[-1] - before[0])))
        parts.append(moments(b, neg, int(fps[-1] - before[1])))
        before = (tps[-1], fps[-1])
    return parts
