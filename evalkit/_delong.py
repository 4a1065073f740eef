"""DeLong's variance of the ROC AUC from the threshold sweep, and the test of two AUCs.

DeLong, DeLong & Clarke-Pearson (1988): each positive's *structural
component* is the share of negatives it outscores (ties half), each
negative's the share of positives that outscore it; both average to the
AUC, and ``Var(AUC) = S10 / P + S01 / N`` with ``S10`` (``S01``) the
sample variance (ddof 1) of the positives' (negatives') components. Tied
scores share a component, so the components are read per score group off
one sweep (Sun & Xu 2014). This is the plain sweep; the one-model variance
of ``roc_auc_ci`` runs block by block in :mod:`evalkit._delong_blocked`,
which tests hold equal to it.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._sweep import sweep_of

_NORMAL = NormalDist()

#: What DeLong needs of y_true (the message of every refusal).
NEEDS = ("the AUC's interval needs binary y_true with at least 2 samples of each class "
         "(the larger label is positive)")


def require_two_of_each(positive):
    """Refuse labels with fewer than 2 samples of a class: a class's variance needs 2."""
    n_pos = np.count_nonzero(positive)
    fewest = min(n_pos, len(positive) - n_pos)
    if fewest == 0:
        raise ValueError(f"y_true has one class: {NEEDS}")
    if fewest == 1:
        raise ValueError(f"y_true has 1 sample of one class: {NEEDS}")


def components(tps, fps, n_pos, n_neg, before=(0, 0)):
    """Twice DeLong's structural components of score groups, scaled: ``(a, pos, b, neg)``.

    From the cumulative counts through each group (decreasing score;
    ``before``: through the group before the first): a positive of group g
    outscores ``v10_g = a_g / 2N`` of the negatives, ``a_g = 2N - FP_g -
    FP_{g-1}`` (the negatives below, ties half), and a negative is
    outscored by ``v01_g = b_g / 2P`` of the positives, ``b_g = TP_g +
    TP_{g-1}`` (Sun & Xu 2014); ``pos``/``neg`` count the group's samples.
    Over the samples both components average to the AUC: ``Σ neg·b = 2U``.
    """
    tp_before = np.empty_like(tps)  # through the group before
    tp_before[0] = before[0]
    tp_before[1:] = tps[:-1]
    fp_before = np.empty_like(fps)
    fp_before[0] = before[1]
    fp_before[1:] = fps[:-1]
    a = 2 * n_neg - fps - fp_before
    b = tps + tp_before
    return a, tps - tp_before, b, fps - fp_before


def moments(values, weights, count):
    """``(count, total, M2)`` of ``values`` weighted by ``weights``: their sum and squared spread.

    ``total`` is an exact int (the components are integers); ``M2 = Σ w (x -
    total / count)²``. einsum, not np.dot: no BLAS threads woken.
    """
    total = int(np.einsum("i,i->", weights, values))
    spread = values - total / max(count, 1)
    m2 = float(np.einsum("i,i,i->", weights, spread, spread))
    return count, total, m2


def variance(m2_pos, m2_neg, n_pos, n_neg):
    """``S10 / P + S01 / N`` from the components' M2 (the components counted twice, scaled)."""
    of_positives = m2_pos / (4.0 * n_neg * n_neg * (n_pos - 1) * n_pos)
    of_negatives = m2_neg / (4.0 * n_pos * n_pos * (n_neg - 1) * n_neg)
    return of_positives + of_negatives


def auc_variance(positive, scores):
    """The AUC and DeLong's variance of one model: the plain sweep, every group at once.

    The oracle of :func:`evalkit._delong_blocked.auc_variance`, and its path
    for scores that do not pack into sort keys.
    """
    n_pos = int(np.count_nonzero(positive))
    n_neg = len(positive) - n_pos
    sweep = sweep_of(positive, scores)
    a, pos, b, neg = components(sweep.tps, sweep.fps, n_pos, n_neg)
    _, _, m2_pos = moments(a, pos, int(sweep.tps[-1]))
    _, twice_u, m2_neg = moments(b, neg, int(sweep.fps[-1]))
    auc = twice_u / (2.0 * n_pos * n_neg)
    return auc, variance(m2_pos, m2_neg, n_pos, n_neg)


def paired_covariance(positive, *scores):
    """AUCs (k,) and their covariance (k, k) of several models' scores for the same samples.

    ``Cov = S10 / P + S01 / N`` with ``S10`` (``S01``) the covariance (ddof
    1) of the positives' (negatives') components under each model.
    """
    n_pos = int(np.count_nonzero(positive))
    n_neg = len(positive) - n_pos
    aucs, of_positives, of_negatives = [], [], []
    for s in scores:
        sweep = sweep_of(positive, s)
        a, _, b, neg = components(sweep.tps, sweep.fps, n_pos, n_neg)
        aucs.append(int(np.einsum("i,i->", neg, b)) / (2.0 * n_pos * n_neg))
        group = _groups_of(sweep.thresholds, s)
        of_positives.append(a[group[positive]] / (2.0 * n_neg))
        of_negatives.append(b[group[~positive]] / (2.0 * n_pos))
    covariance = np.cov(of_positives) / n_pos + np.cov(of_negatives) / n_neg
    return np.array(aucs), covariance


def _groups_of(thresholds, scores):
    """Each sample's score group (0: the highest score), by a binary search of the thresholds."""
    rising = thresholds[::-1]
    return len(thresholds) - 1 - np.searchsorted(rising, scores)


class PairedTest(NamedTuple):
    """DeLong's test of two AUCs: ``difference = auc_a - auc_b``, its interval, z and p."""

    difference: float
    low: float
    high: float
    p_value: float
    statistic: float
    auc_a: float
    auc_b: float


def paired_test(positive, score_a, score_b, confidence):
    """DeLong's z of ``A_a - A_b`` on the same samples, its two-sided p and normal interval.

    ``z = (A_a - A_b) / sqrt(Var_a + Var_b - 2 Cov)``, ``p = 2 (1 - Φ(|z|))``,
    the interval ``A_a - A_b ± z_{(1+c)/2} se`` clipped to [-1, 1]. Equal
    components (``se`` 0): z is 0 for equal AUCs (p = 1), else infinite.
    """
    aucs, cov = paired_covariance(positive, score_a, score_b)
    auc_a = float(aucs[0])
    auc_b = float(aucs[1])
    difference = auc_a - auc_b
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    se = 0.0
    if var > 1e-300:
        se = math.sqrt(var)
    z = _z(difference, se)
    p = math.erfc(abs(z) / math.sqrt(2))
    half = -_NORMAL.inv_cdf((1 - confidence) / 2) * se
    low = max(-1.0, difference - half)
    high = min(1.0, difference + half)
    return PairedTest(difference, low, high, float(p), float(z), auc_a, auc_b)


def _z(difference, se):
    if se:
        return difference / se
    if difference == 0:
        return 0.0
    return math.copysign(math.inf, difference)
