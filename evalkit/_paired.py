"""Paired tests of two models on the same rows, from validated input.

The steps ``permutation_test``, ``mcnemar_test`` and ``compare`` share: the
permutation p-value, the permuted differences of per-row values (a
sign-flip test) and of label cells (swapped counts), and McNemar's table
and p-value. DeLong's test is in :mod:`evalkit._delong`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ._counts import confusion_counts
from ._resample import ModelCounts, chunks
from .exceptions import warn_at_caller


def permutation_p(dist, estimate):
    """Two-sided permutation p-value: ``(1 + #{|d_perm| >= |d_obs|}) / (n + 1)``.

    Never 0: the observed split is one of the permutations. A tolerance of
    1e-12 (relative above 1) counts a tie as extreme.
    """
    bound = abs(estimate) - 1e-12 * max(1.0, abs(estimate))
    extreme = np.count_nonzero(np.abs(dist) >= bound)
    return (1 + extreme) / (len(dist) + 1)


def sign_flips(rng, a, b, size):
    """``size`` permuted mean differences: each row's pair swapped with probability 1/2."""
    swapped = rng.random((size, len(a))) < 0.5
    mean_a = np.mean(np.where(swapped, b, a), axis=1)
    mean_b = np.mean(np.where(swapped, a, b), axis=1)
    return mean_a - mean_b


def sign_flip_distribution(rng, a, b, n_permutations):
    """The permuted mean differences of per-row values, every swap at once, block by block.

    ``rng.random((k, n))`` draws what k calls of ``rng.random(n)`` draw, in
    order, so the distribution is that of swapping row by row.
    """
    blocks = []
    for size in chunks(n_permutations, len(a)):
        blocks.append(sign_flips(rng, a, b, size))
    return np.concatenate(blocks)


def swap_distribution(rng, cells, rule, n_permutations):
    """The permuted differences ``rule(a') - rule(b')`` of two models' label cells.

    ``cells`` is a :class:`evalkit._resample.LabelCells` of (actual, a, b);
    the swapped rows of each cell are ``Binomial(count, 1/2)``, drawn as
    counts for all permutations at once. Model a' holds a's prediction on
    kept rows and b's on swapped rows, b' the reverse.
    """
    counts = cells.counts
    a, b = cells.cells[:, 1], cells.cells[:, 2]
    # the kept rows of each cell, then the swapped rows
    actual = np.r_[cells.actual, cells.actual]
    n_classes = len(cells.classes)
    models = []
    for key in (np.r_[a, b], np.r_[b, a]):
        models.append(ModelCounts(actual, key, n_classes, predicted=key))
    dist = []
    for size in chunks(n_permutations, 2 * len(counts)):
        swapped = rng.binomial(counts, 0.5, size=(size, len(counts)))
        both = np.concatenate([counts - swapped, swapped], axis=1)
        weights = both.astype(np.float64).ravel()
        values = [_values(rule, m, weights, size) for m in models]
        dist.append(values[0] - values[1])
    return np.concatenate(dist)


def _values(rule, model, weights, rows):
    """The label metric of ``model`` on ``rows`` resamples of its cells (warnings ignored)."""
    counts = model.class_counts(model.tally(weights, rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rule.values(*counts)


# -- McNemar --------------------------------------------------------------------------


def mcnemar(wrong_a, wrong_b, exact, correction):
    """McNemar's ``(table, statistic, p)`` of two models' wrong rows (boolean masks).

    ``table`` is ``[[both right, b], [c, both wrong]]``: rows A right or
    wrong, columns B right or wrong (statsmodels' layout). Exact: the
    two-sided binomial test of ``min(b, c)`` out of ``b + c``; else the
    chi-square statistic ``(|b - c| - correction)² / (b + c)`` with 1
    degree of freedom (0/0 when ``b + c = 0``: statistic 0, p 1, warned).
    """
    right_or_wrong = np.array([False, True])
    table = confusion_counts(wrong_a, wrong_b, right_or_wrong, None)[1]
    b, c = int(table[0, 1]), int(table[1, 0])
    if exact:
        return table, float(min(b, c)), binomial_two_sided(min(b, c), b + c)
    if b + c == 0:
        warn_at_caller("y_pred_a and y_pred_b are right on the same rows (b + c = 0): "
                       "McNemar's chi-square statistic is 0/0; statistic 0.0 and "
                       "p_value 1.0 returned")
        return table, 0.0, 1.0
    statistic = (abs(b - c) - bool(correction)) ** 2 / (b + c)
    return table, statistic, math.erfc(math.sqrt(statistic / 2))


def binomial_two_sided(k, n):
    """``min(1, 2 P(X <= k))`` for ``X ~ Binomial(n, 1/2)``, ``k <= n / 2``.

    ``P(X = k)`` from log-gamma, the lower terms by the ratios
    ``P(X = i - 1) / P(X = i) = i / (n - i + 1)``.
    """
    ratios = np.cumprod(np.arange(k, 0, -1) / np.arange(n - k + 1, n + 1.0))
    log_choose = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    log_pk = log_choose - n * math.log(2)
    return min(1.0, 2 * math.exp(log_pk) * (1 + float(ratios.sum())))
