"""The course's own definitions of the ROC AUC: lessons, not the library's production path.

The notebooks show these agreeing with :func:`evalkit.roc_auc_score` (the
sweep, :mod:`evalkit._sweep`) to the last bit:

* :func:`roc_auc_rank` -- the rank-sum (Mann-Whitney) formula of the recommender-metrics post;
* :func:`roc_auc_pairs` -- every positive-negative pair counted, a tie as 1/2.

They import the core only (validation, the positive mask); the library never imports them.
"""

from __future__ import annotations

import numpy as np

from .._sweep import positive_mask
from .._validation import Integer, check_real, check_same_length, validate_params
from ..exceptions import UndefinedMetricWarning, warn_at_caller

__all__ = ["roc_auc_rank", "roc_auc_pairs"]

ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."


def _binary_input(y_true, y_score, pos_label):
    positive = positive_mask(y_true, pos_label)
    scores = check_real(y_score)
    check_same_length(y_true=positive, y_score=scores)
    return positive, scores


def roc_auc_rank(y_true, y_score, *, pos_label=None):
    """ROC AUC by the rank-sum (Mann-Whitney, 秩和) formula of the recommender-metrics post.

    Rank all samples by score from the lowest (rank 1) to the highest (rank
    n), tied scores sharing their average rank; with ``P`` positives and
    ``N`` negatives::

        AUC = (Σ ranks of the positives - P(P + 1)/2) / (P·N)

    ``Σ ranks - P(P+1)/2`` is the Mann-Whitney U: the number of
    positive-negative pairs the positive wins, a tie counting 1/2. Computed
    in integers (twice the sum of average ranks), so it equals
    :func:`roc_auc_score` (the area) and :func:`roc_auc_pairs` (the pair
    count). One class present: nan with an ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1}, {-1, 1}, booleans) or any labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
    pos_label : int, float, bool or str, default=None

    Returns
    -------
    float

    Examples
    --------
    The logistic-regression post's second sequence: ranks of the positives 6 and 4 among 6.

    >>> roc_auc_rank([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])  # (10 - 3) / 8
    0.875
    """
    positive, scores = _binary_input(y_true, y_score, pos_label)
    n = len(scores)
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])  # first position of each tie group
    stops = np.r_[starts[1:], n]  # one past its last position
    pos_in = np.add.reduceat(positive[order].astype(np.int64), starts)
    p = int(pos_in.sum())
    if p == 0 or p == n:
        warn_at_caller(ONE_CLASS, UndefinedMetricWarning)
        return np.nan
    # a group's 1-based ranks are starts+1 .. stops: twice their average is starts + stops + 1
    twice_rank_sum = int(np.dot(pos_in, starts + stops + 1))
    return (twice_rank_sum - p * (p + 1)) / (2 * p * (n - p))


@validate_params(max_pairs=Integer(1, meaning="the most pairs compared"))
def roc_auc_pairs(y_true, y_score, *, pos_label=None, max_pairs=10**7):
    """ROC AUC by brute force: compare every positive with every negative.

    ``AUC = (#(s+ > s-) + #(s+ = s-)/2) / (P·N)``, the definition in seeds
    001 and 003 ("the probability that a random positive scores higher than
    a random negative"), counted pair by pair in integers. It needs P·N
    comparisons, so inputs with more than ``max_pairs`` pairs are refused;
    :func:`roc_auc_score` and :func:`roc_auc_rank` give the same number after
    one sort. One class present: nan with an ``UndefinedMetricWarning``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1}, {-1, 1}, booleans) or any labels with ``pos_label``.
    y_score : array-like of shape (n_samples,)
    pos_label : int, float, bool or str, default=None
    max_pairs : int, default=10**7
        The largest P·N accepted.

    Returns
    -------
    float

    Examples
    --------
    The logistic-regression post's second sequence: of the 2 x 4 pairs, only (sample 3,
    sample 2) is lost.

    >>> roc_auc_pairs([1, 0, 1, 0, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])  # 7 / 8
    0.875
    """
    positive, scores = _binary_input(y_true, y_score, pos_label)
    s_pos, s_neg = scores[positive], scores[~positive]
    p, n = len(s_pos), len(s_neg)
    if p * n > max_pairs:
        raise ValueError(
            f"roc_auc_pairs would compare {p} positives x {n} negatives = {p * n} pairs, more "
            f"than max_pairs={max_pairs}: use roc_auc_score or roc_auc_rank (the same number "
            "after one sort), or raise max_pairs")
    if p == 0 or n == 0:
        warn_at_caller(ONE_CLASS, UndefinedMetricWarning)
        return np.nan
    wins = ties = 0
    rows = max(1, (1 << 20) // n)  # about a million comparisons at a time
    for i in range(0, p, rows):
        block = s_pos[i:i + rows, None]
        wins += int(np.count_nonzero(block > s_neg))
        ties += int(np.count_nonzero(block == s_neg))
    return (2 * wins + ties) / (2 * p * n)
