"""Top-k metrics: when a model ranks the classes and the first k count as predictions.

A row's top k are either given as ranked label lists (``y_topk``, n x m,
most likely first, the first k columns used) or taken from a score matrix
(``y_score``, n x C) with :func:`numpy.argpartition` -- never a full sort of
the rows -- and a documented tie rule (``ties``). Then, for class c:

* ``tp_c`` = rows of class c whose top k contains c,
* ``predicted_c`` = rows whose top k contains c (once per row, even if c
  repeats in it),
* ``support_c`` = rows of class c,

counted in one vectorized pass (:func:`evalkit._counts.topk_code_counts`).
precision@k, recall@k and F1@k are ratios of these counts, through the same
code as :func:`evalkit.precision_recall_fscore_support`, and the report is
laid out by the same formatter as :func:`evalkit.classification_report`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._counts import (ClassCounts, encode_labels, select, take, top_k_columns, top_k_hits,
                      topk_code_counts)
from ._ratios import prf
from ._report import topk_report_from_counts
from ._validation import (AVERAGES_TOP_K, DIGITS, EXACTLY_ONE, K, TIES, ZERO_DIVISION, Bool,
                          Options, check_column_classes, check_label_list, check_labels,
                          check_rules, check_same_kind, check_same_length, check_sample_weight,
                          check_score_matrix, validate_params)
from .exceptions import warn_at_caller

__all__ = ["top_k_labels", "precision_recall_fscore_at_k", "topk_report", "top_k_accuracy_score"]



def _binary_with_columns(v):
    return v["binary"] and v["scores"].ndim == 2 and v["scores"].shape[1] != 1


def _multiclass_not_2d(v):
    return not v["binary"] and v["scores"].ndim != 2


_SHAPE_RULES = (  # top_k_accuracy_score: 1-D scores for a binary y_true, n x C otherwise
    (_binary_with_columns,
     "y_score has {scores.shape[1]} columns but y_true is binary: give 1-D scores of the second "
     "class, or labels= with every class if y_true lacks some"),
    (_multiclass_not_2d,
     "y_score must be 2-D (n samples x C classes) since y_true has {n} classes; got an array "
     "of shape {scores.shape}"),
)


@validate_params(k=K, ties=TIES)
def top_k_labels(
    y_score: ArrayLike,
    *,
    k: int,
    labels: ArrayLike | None = None,
    ties: str = "last",
) -> np.ndarray:
    """Each row's k most likely labels, most likely first: an n x k label matrix.

    Column j of ``y_score`` scores the class ``labels[j]`` (default j). The
    k highest scores of a row are found with ``numpy.argpartition`` (linear
    time, no full sort) and then ordered by score. Equal scores: with
    ``ties="last"`` (the default, scikit-learn's ``top_k_accuracy_score``
    rule) the higher column ranks first; with ``ties="first"`` the lower
    column, as ``argmax`` (and so ``predict``) does.

    Examples
    --------
    >>> top_k_labels([[0.1, 0.6, 0.3], [0.4, 0.2, 0.4]], k=2, labels=["a", "b", "c"]).tolist()
    [['b', 'c'], ['c', 'a']]
    >>> top_k_labels([[0.4, 0.2, 0.4]], k=1, ties="first").tolist()
    [[0]]
    """
    scores = check_score_matrix(y_score, "y_score", k=k)
    n = scores.shape[1]
    if labels is None:
        columns = np.arange(n)
    else:
        columns = check_label_list(labels, n=n)
    top = top_k_columns(scores, k, ties, ranked=True)
    return columns[top]


# -- counting --------------------------------------------------------------------

def _counts_of_lists(yt, y_topk, k, labels):
    """tp / predicted / support per class from ranked label lists (their first k columns)."""
    n = len(yt)
    ranked = check_score_matrix(y_topk, "y_topk", k=k, labels=True)
    check_same_length(y_true=yt, y_topk=ranked)
    block = check_labels(ranked[:, :k].reshape(-1), "y_topk")
    check_same_kind(yt, block, ("y_true", "y_topk"))
    classes, t, codes = encode_labels(yt, block)
    counts = topk_code_counts(t, codes.reshape(n, k), len(classes))
    if labels is not None:
        classes, sel = select(classes, labels)
        counts = [take(x, sel) for x in counts]
    return ClassCounts(classes, *counts, n)


def _counts_of_scores(yt, y_score, k, labels, ties):
    """tp / predicted / support per class from a score matrix's top k of each row."""
    scores = check_score_matrix(y_score, "y_score", k=k)
    check_same_length(y_true=yt, y_score=scores)
    columns, t = check_column_classes(yt, labels, scores.shape[1], sklearn=False)
    top = top_k_columns(scores, k, ties)
    tp, predicted, support = topk_code_counts(t, top, len(columns), distinct=True)
    # the classes seen in y_true or in some top k, sorted
    present = np.flatnonzero((support > 0) | (predicted > 0))
    present = present[np.argsort(columns[present], kind="stable")]
    return ClassCounts(columns[present], tp[present], predicted[present], support[present],
                       len(yt))


def _topk_counts(y_true, y_topk, y_score, k, labels, ties):
    """Validate the input and count tp / predicted / support per class at k."""
    check_rules(EXACTLY_ONE, y_topk=y_topk, y_score=y_score)
    yt = check_labels(y_true, "y_true")
    if y_topk is not None:
        return _counts_of_lists(yt, y_topk, k, labels)
    return _counts_of_scores(yt, y_score, k, labels, ties)


@validate_params(k=K, average=Options(AVERAGES_TOP_K), zero_division=ZERO_DIVISION, ties=TIES)
def precision_recall_fscore_at_k(
    y_true: ArrayLike,
    y_topk: ArrayLike | None = None,
    *,
    y_score: ArrayLike | None = None,
    k: int,
    labels: ArrayLike | None = None,
    average: str | None = None,
    zero_division: str | float = "warn",
    ties: str = "last",
) -> tuple:
    """precision@k, recall@k, F1@k and support per class, or averaged.

    A row "predicts" every class in its top k. For class c:
    ``P@k_c = tp_c / predicted_c`` (of the rows listing c in their top k,
    the share truly of class c), ``R@k_c = tp_c / support_c`` (of the rows
    of class c, the share listing c) and ``F1@k_c = 2·tp_c / (support_c +
    predicted_c)``, all from unrounded counts. Averages as
    :func:`precision_recall_fscore_support`: ``"micro"`` divides the summed
    counts (micro R@k = top-k accuracy), ``"macro"`` is the plain mean over
    classes, ``"weighted"`` the mean weighted by support. For k = 1 the
    numbers are :func:`precision_recall_fscore_support`'s on the first column.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_topk : array-like of shape (n, m), m >= k
        Ranked label lists, most likely first (or give ``y_score``).
    y_score : array-like of shape (n, C)
        Scores; column j scores ``labels[j]`` (default j). Each row's top k
        are taken by ``ties`` (see :func:`top_k_labels`).
    k : int
    labels : array-like, optional
        With ``y_topk``: the classes reported, in this order (default: those
        in ``y_true`` and in the first k columns, sorted). With ``y_score``:
        the column names; the classes reported are those in ``y_true`` or in
        some top k, sorted.
    average : {None, "micro", "macro", "weighted"}
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
    ties : {"last", "first"}, default="last"

    Returns
    -------
    precision, recall, fscore : float or ndarray
    support : ndarray of int, or None when averaged

    Examples
    --------
    The top-k post's six classes, top 3:

    >>> y = [0, 5, 0, 3, 4, 2, 1, 1, 5, 4]
    >>> top = [[0, 0, 2], [2, 2, 4], [4, 5, 1], [5, 4, 2], [2, 0, 0],
    ...        [3, 3, 4], [1, 1, 0], [1, 4, 4], [4, 1, 3], [2, 4, 2]]
    >>> p, r, f, s = precision_recall_fscore_at_k(y, top, k=3)
    >>> p.round(3).tolist(), r.tolist(), s.tolist()
    ([0.333, 0.5, 0.0, 0.0, 0.143, 0.0], [0.5, 1.0, 0.0, 0.0, 0.5, 0.0], [2, 2, 1, 1, 2, 2])
    >>> round(precision_recall_fscore_at_k(y, top, k=3, average="weighted")[0], 4)
    0.1952
    """
    counts = _topk_counts(y_true, y_topk, y_score, k, labels, ties)
    return prf(counts.tp, counts.predicted, counts.support, average=average,
               zero_division=zero_division)


@validate_params(k=K, digits=DIGITS, output_dict=Bool(), zero_division=ZERO_DIVISION, ties=TIES)
def topk_report(
    y_true: ArrayLike,
    y_topk: ArrayLike | None = None,
    *,
    y_score: ArrayLike | None = None,
    k: int,
    labels: ArrayLike | None = None,
    target_names: list | None = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: str | float = "warn",
    ties: str = "last",
) -> str | dict:
    """classification_report for top-k predictions: precision@k, recall@k, F1@k per class.

    One row per class (see :func:`precision_recall_fscore_at_k` for the
    counts: ``P@k_c = tp_c / predicted_c``, ``R@k_c = tp_c / support_c``,
    ``F1@k_c = 2·tp_c / (support_c + predicted_c)``), then ``micro avg``
    (``Σ tp / Σ predicted`` and ``Σ tp / n``; its recall@k is the top-k
    accuracy), ``macro avg`` (plain mean over classes) and ``weighted avg``
    (mean weighted by support), laid out as
    :func:`evalkit.classification_report`. Averages come from the unrounded
    per-class values. With k = 1 the per-class rows are
    classification_report's on the first column (its micro row is headed
    "accuracy" there).

    Parameters
    ----------
    y_true, y_topk, y_score, k, labels, zero_division, ties
        As :func:`precision_recall_fscore_at_k`.
    target_names : list of str, optional
        Row names, one per reported class.
    digits : int, default=2
    output_dict : bool, default=False
        Return a dict (keys are the headers, e.g. ``"precision@3"``); a
        pandas DataFrame is ``pd.DataFrame(report).T``.

    Examples
    --------
    The top-k post's report, computed without rounding first:

    >>> y = [0, 5, 0, 3, 4, 2, 1, 1, 5, 4]
    >>> top = [[0, 0, 2], [2, 2, 4], [4, 5, 1], [5, 4, 2], [2, 0, 0],
    ...        [3, 3, 4], [1, 1, 0], [1, 4, 4], [4, 1, 3], [2, 4, 2]]
    >>> print(topk_report(y, top, k=3))
                  precision@3    recall@3  f1-score@3     support
    <BLANKLINE>
               0         0.33        0.50        0.40           2
               1         0.50        1.00        0.67           2
               2         0.00        0.00        0.00           1
               3         0.00        0.00        0.00           1
               4         0.14        0.50        0.22           2
               5         0.00        0.00        0.00           2
    <BLANKLINE>
       micro avg         0.17        0.40        0.24          10
       macro avg         0.16        0.33        0.21          10
    weighted avg         0.20        0.40        0.26          10
    <BLANKLINE>
    """
    counts = _topk_counts(y_true, y_topk, y_score, k, labels, ties)
    return topk_report_from_counts(counts, k, target_names=target_names, digits=digits,
                                   output_dict=output_dict, zero_division=zero_division)


# -- scikit-learn's top_k_accuracy_score ---------------------------------------------

@validate_params(k=K, normalize=Bool(), ties=TIES)
def top_k_accuracy_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    ties: str = "last",
) -> float:
    """Top-k accuracy: the share of samples whose true class is among their k best scores.

    ``top-k accuracy = (1/n) Σ_i [y_i ∈ top_k(s_i)]`` (weighted by
    ``sample_weight``; a count with ``normalize=False``). Mirrors
    scikit-learn's, numbers and rules included: column j of ``y_score``
    scores the j-th smallest label (``labels``, which must be sorted, or the
    classes of ``y_true``); ties go to the higher column (``ties="last"``,
    scikit-learn's stable sort reversed -- ``"first"`` is the argmax rule);
    a binary ``y_true`` takes 1-D scores, and with k = 1 predicts the
    second class when the score exceeds 0.5 (probabilities) or 0
    (decision values), while k >= 2 is always right. k >= the number of
    classes warns, as the score is then 1.

    Examples
    --------
    >>> y_score = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], y_score, k=2)
    0.75
    >>> top_k_accuracy_score([0, 1, 2, 2], y_score, k=2, normalize=False)
    3.0
    """
    yt = check_labels(y_true, "y_true")
    present = np.unique(yt)
    binary = len(present) <= 2
    if labels is not None:
        labels = check_labels(labels, "labels")
        binary = binary and len(labels) <= 2
    scores = check_score_matrix(y_score, "y_score", allow_1d=True)
    check_rules(_SHAPE_RULES, binary=binary, scores=scores, n=len(present))
    if scores.ndim == 2 and binary:
        scores = scores[:, 0]
    n_columns = 2   # 1-D scores: the second class's, of two
    if scores.ndim == 2:
        n_columns = scores.shape[1]
    check_same_length(y_true=yt, y_score=scores)
    w = check_sample_weight(sample_weight, len(yt))
    classes, t = check_column_classes(yt, labels, n_columns)
    if k >= len(classes):
        warn_at_caller(f"'k' ({k}) greater than or equal to 'n_classes' ({len(classes)}) "
                       "will result in a perfect score and is therefore meaningless.")
    hits = top_k_hits(scores, t, k, ties, binary)
    if normalize:
        return float(np.average(hits, weights=w))
    if w is None:
        return float(np.sum(hits))
    return float(np.dot(hits, w))
