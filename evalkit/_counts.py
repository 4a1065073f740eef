"""Labels to counts: the one place where samples are counted.

Metrics never look at samples; they look at the counts made here:

* :func:`class_counts` -- per class, how many samples were correctly predicted
  as the class (tp), predicted as it (predicted) and truly of it (support);
* :func:`confusion_counts` -- the full matrix, rows actual, columns predicted;
* :func:`multilabel_counts` -- tp, predicted and actual per label (or per
  sample) of 0/1 indicator matrices;
* :func:`binary_cells` -- the four cells tp, fp, fn, tn of one positive class;
* :func:`topk_code_counts` -- per-class counts of top-k predictions
  (:func:`top_k_columns` takes a score matrix's top k);
* :func:`calibration_bins` -- per probability bin, count and sums.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validation import (BINARY_PROBA, check_indicator, check_label_list, check_labels,
                          check_pos_label, check_real, check_same_kind, check_same_length,
                          check_sample_weight, check_targets, dense_indicators, is_string_like,
                          positive_of, refuse_matrix_beside_vector, sum_from_zero)

__all__ = ["ClassCounts", "CalibrationBins", "encode_labels", "select", "take", "class_counts",
           "class_counts_of", "confusion_counts", "binary_cells", "position_of",
           "multilabel_counts", "topk_code_counts", "top_k_columns", "top_k_hits",
           "weighted_bincount", "calibration_bins", "targets"]

_COUNTS = ("tp", "predicted", "support")


class ClassCounts(NamedTuple):
    """Per-class counts (weighted counts when sample weights are given).

    ``labels[i]`` is the class; ``tp[i]`` the samples truly of it and
    predicted as it; ``predicted[i]`` the samples predicted as it (tp + fp);
    ``support[i]`` the samples truly of it (tp + fn); ``total`` all samples.
    """

    labels: np.ndarray
    tp: np.ndarray
    predicted: np.ndarray
    support: np.ndarray
    total: float

    def __add__(self, other):
        """The counts of two disjoint parts of the data add up to the counts of the whole.

        Counts of the same class are added; a class present in only one part
        keeps its counts (zero in the other). The classes of the sum: the
        same labels in the same order when both parts have them; else the
        sorted union when both are sorted (as :func:`class_counts` sorts
        them by default), else the first part's labels and then the second's
        new ones. ``sum(parts)`` works too (it starts from 0). Unlike a
        tuple's ``+``, this never concatenates.

        >>> a = class_counts([0, 0, 1], [0, 1, 1])
        >>> b = class_counts([2, 1], [2, 0])
        >>> c = a + b
        >>> c.labels.tolist(), c.tp.tolist(), c.predicted.tolist(), c.support.tolist(), c.total
        ([0, 1, 2], [1, 1, 1], [2, 2, 1], [2, 2, 1], 5)
        """
        if not isinstance(other, ClassCounts):
            return NotImplemented
        mine = np.asarray(self.labels)
        theirs = np.asarray(other.labels)
        if len(mine) and len(theirs):
            check_same_kind(mine, theirs, ("self", "other"))
        labels = _labels_of_sum(mine, theirs)
        both = np.concatenate([mine, theirs])
        order = np.argsort(labels, kind="stable")
        at = order[np.searchsorted(labels[order], both)]  # the sum's class of each count
        sums = []
        for name in _COUNTS:
            counts = np.concatenate([getattr(self, name), getattr(other, name)])
            sums.append(np.bincount(at, counts, minlength=len(labels)))
        if _integer_counts(self) and _integer_counts(other):
            sums = [s.astype(np.int64) for s in sums]
        return ClassCounts(labels, *sums, self.total + other.total)

    __radd__ = sum_from_zero


def _increasing(labels):
    """Whether the labels are strictly increasing (fewer than two labels are)."""
    if len(labels) < 2:
        return True
    return bool(np.all(labels[1:] > labels[:-1]))


def _labels_of_sum(mine, theirs):
    """The classes of a sum of counts: as :meth:`ClassCounts.__add__` orders them."""
    if mine.shape == theirs.shape and np.array_equal(mine, theirs):
        return mine.copy()
    both = np.concatenate([mine, theirs])
    if _increasing(mine) and _increasing(theirs):
        return np.unique(both)
    first_seen = np.unique(both, return_index=True)[1]
    return both[np.sort(first_seen)]


def _integer_counts(counts):
    return all(np.asarray(getattr(counts, name)).dtype.kind in "biu" for name in _COUNTS)


def _small_integer_codes(y_true, y_pred):
    """:func:`encode_labels` of integer labels in a range not much wider than the data, else None.

    A lookup table over the range replaces the sort: ``seen[v]`` says whether value v
    occurs, and the code of v is the number of values seen below it.
    """
    yt = y_true.astype(np.int64, copy=False)
    yp = y_pred.astype(np.int64, copy=False)
    lo = min(int(yt.min()), int(yp.min()))
    hi = max(int(yt.max()), int(yp.max()))
    if hi - lo >= 2 * len(y_true) + 1024:
        return None
    if lo:
        yt = yt - lo
        yp = yp - lo
    seen = np.zeros(hi - lo + 1, dtype=bool)
    seen[yt] = True
    seen[yp] = True
    classes = np.flatnonzero(seen) + lo
    if y_true.dtype == y_pred.dtype:
        classes = classes.astype(y_true.dtype)
    if len(classes) == len(seen):  # every value in lo..hi occurs: codes = shifted labels
        return classes, yt, yp
    code = np.cumsum(seen) - 1
    return classes, code[yt], code[yp]


def encode_labels(y_true, y_pred):
    """Map two validated label arrays to integer codes 0..C-1.

    Returns ``(classes, true_codes, pred_codes)`` with ``classes`` sorted, as
    :func:`numpy.unique` sorts. Small non-negative-range integers take a
    lookup-table path (no sort), everything else one :func:`numpy.unique`.

    >>> classes, t, p = encode_labels(np.array(["b", "a"]), np.array(["a", "c"]))
    >>> classes.tolist(), t.tolist(), p.tolist()
    (['a', 'b', 'c'], [1, 0], [0, 2])
    """
    if y_true.dtype.kind in "biu" and y_pred.dtype.kind in "biu":
        encoded = _small_integer_codes(y_true, y_pred)
        if encoded is not None:
            return encoded
    both = np.concatenate([y_true, y_pred])
    if both.dtype.kind == "O" and is_string_like(both):
        both = both.astype(str)
    elif both.dtype.kind == "O":
        both = both.astype(float)
    classes, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    n = len(y_true)
    return classes, codes[:n], codes[n:]


def select(classes, labels, name="labels"):
    """The checked ``labels`` and their positions in ``classes`` (-1 where a label is absent)."""
    labels = check_label_list(labels, name, classes=classes)
    position = np.minimum(np.searchsorted(classes, labels), len(classes) - 1)
    found = classes[position] == labels
    return labels, np.where(found, position, -1)


def take(counts, positions):
    """``counts`` at ``positions`` (from :func:`select`): 0 where a position is -1."""
    out = counts[np.maximum(positions, 0)]
    out[positions < 0] = 0
    return out


def weighted_bincount(codes, weights, minlength):
    """``np.bincount`` whose integer weights sum exactly in int64 (float weights: float64).

    numpy's weighted bincount adds in float64, which rounds integer sums
    above 2**53; integer weights are split into three 21-bit parts, each
    summed exactly in float64, and put back together in int64.

    >>> weighted_bincount(np.array([0, 0]), np.array([2**53, 1]), 1).tolist()
    [9007199254740993]
    """
    if weights is None or weights.dtype.kind not in "biu":
        return np.bincount(codes, weights=weights, minlength=minlength)
    w = weights.astype(np.int64)
    low_bits = (1 << 21) - 1
    out = np.zeros(minlength, dtype=np.int64)
    for shift in (42, 21, 0):
        part = np.bincount(codes, weights=(w >> shift) & low_bits, minlength=minlength)
        out = (out << 21) + part.astype(np.int64)
    return out


def _is_2d(y):
    """Whether ``y`` looks like a matrix (checked cheaply: no conversion of long lists)."""
    if isinstance(y, (list, tuple)):
        return len(y) > 0 and np.ndim(y[0]) > 0
    return np.ndim(y) == 2


def targets(y_true, y_pred, sample_weight, labels=None):
    """``(kind, yt, yp, w)``: label vectors, or (n, L) boolean matrices for kind "multilabel".

    A multilabel ``labels`` names the columns (indices) kept, in its order.
    """
    y_true, y_pred = dense_indicators(y_true, y_pred)  # scipy.sparse indicators, as sklearn
    if not _is_2d(y_true) and not _is_2d(y_pred):
        kind, yt, yp = check_targets(y_true, y_pred)
        return kind, yt, yp, check_sample_weight(sample_weight, len(yt))
    if not _is_2d(y_true):
        check_labels(y_true, "y_true")
        refuse_matrix_beside_vector(y_pred)
    yt = check_indicator(y_true, "y_true")
    yp = check_indicator(y_pred, "y_pred", shape=yt.shape)
    if labels is not None:
        n_labels = yt.shape[1]
        columns = check_label_list(labels, classes=np.arange(n_labels), indices=n_labels)
        yt = yt[:, columns]
        yp = yp[:, columns]
    # integer weights stay integers, as scikit-learn keeps them for multilabel counts
    w = check_sample_weight(sample_weight, len(yt), keep_int=True)
    return "multilabel", yt, yp, w


def class_counts(y_true, y_pred, *, labels=None, sample_weight=None):
    """Count tp, predicted and support per class, after validating the input.

    ``labels`` chooses the classes and their order (a class absent from the
    data gets zero counts); by default every class in ``y_true`` or ``y_pred``,
    sorted. ``sample_weight`` turns counts into sums of weights.

    Examples
    --------
    >>> c = class_counts([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2])
    >>> c.labels.tolist(), c.tp.tolist(), c.predicted.tolist(), c.support.tolist()
    ([0, 1, 2], [2, 1, 1], [2, 2, 2], [3, 2, 1])
    """
    _, yt, yp = check_targets(y_true, y_pred)
    weights = check_sample_weight(sample_weight, len(yt))
    return class_counts_of(yt, yp, labels, weights)


def class_counts_of(yt, yp, labels, w):
    """:func:`class_counts` of validated labels ``yt``, ``yp`` and weights ``w`` (or None)."""
    classes, t, p = encode_labels(yt, yp)
    n_classes = len(classes)
    hit = t == p
    hit_weights = None
    if w is not None:
        hit_weights = w[hit]
    tp = np.bincount(t[hit], weights=hit_weights, minlength=n_classes)
    predicted = np.bincount(p, weights=w, minlength=n_classes)
    support = np.bincount(t, weights=w, minlength=n_classes)
    total = len(yt)
    if w is not None:
        total = float(w.sum())
    if labels is None:
        return ClassCounts(classes, tp, predicted, support, total)
    labels, positions = select(classes, labels)
    tp = take(tp, positions)
    predicted = take(predicted, positions)
    support = take(support, positions)
    return ClassCounts(labels, tp, predicted, support, total)


def confusion_counts(yt, yp, labels, w):
    """The confusion matrix of validated labels: rows actual, columns predicted.

    Samples whose actual or predicted label is not in ``labels`` are left out;
    integer weights sum exactly (:func:`weighted_bincount`). Returns
    ``(labels, matrix)``.
    """
    classes, t, p = encode_labels(yt, yp)
    if labels is None:
        labels = classes
    else:
        labels, positions = select(classes, labels)
        t, p, w = _recoded(t, p, w, positions, len(classes))
    k = len(labels)
    cells = weighted_bincount(t * k + p, w, k * k)
    return labels, cells.reshape(k, k)


def _recoded(t, p, w, positions, n_classes):
    """Class codes as positions among the chosen labels; samples of other classes left out."""
    chosen = positions >= 0
    recode = np.full(n_classes, -1, dtype=np.int64)
    recode[positions[chosen]] = np.flatnonzero(chosen)
    t = recode[t]
    p = recode[p]
    keep = (t >= 0) & (p >= 0)
    if keep.all():
        return t, p, w
    if w is not None:
        w = w[keep]
    return t[keep], p[keep], w


def multilabel_counts(yt, yp, w=None, *, samplewise=False):
    """tp, predicted and actual of 0/1 indicator matrices, per label or per sample.

    ``yt``, ``yp``: validated (n, L) boolean matrices. Per label (column)
    sums, weighted by ``w``; ``samplewise=True`` gives per-sample (row) sums
    instead (times the sample's weight, as scikit-learn).

    >>> multilabel_counts(np.array([[1, 0], [1, 1]], bool), np.array([[1, 1], [0, 1]], bool))
    (array([1, 1]), array([1, 2]), array([2, 1]))
    """
    matrices = (yt & yp, yp, yt)
    if samplewise:
        per_row = [m.sum(axis=1) for m in matrices]
        if w is None:
            return tuple(per_row)
        return tuple(counts * w for counts in per_row)
    if w is None:
        return tuple(m.sum(axis=0) for m in matrices)
    per_label = [_weighted_column_sums(m, w) for m in matrices]
    # scikit-learn reads the three from one table with the total weight, so they share its
    # dtype: floats, except with integer weights and no label true or predicted at all
    # (numpy's bincount of nothing is integer zeros), when a report prints a support of 0
    dtype = np.result_type(w, *per_label)
    return tuple(counts.astype(dtype) for counts in per_label)


def _weighted_column_sums(m, w):
    """Per column of a boolean matrix, the weights of its true rows (scikit-learn's sparse count:
    the weights are added in row order)."""
    rows, columns = np.nonzero(m)
    return np.bincount(columns, weights=w[rows], minlength=m.shape[1])


def position_of(pos_label, classes, name="pos_label"):
    """Index of ``pos_label`` in ``classes``; -1 if absent from a one-class input.

    An absent ``pos_label`` is an error when two or more classes are present
    (as in scikit-learn); with a single class present every sample is simply
    negative.
    """
    given = np.asarray([pos_label])
    if is_string_like(given) == is_string_like(classes):
        _, positions = select(classes, [pos_label], name)
        if positions[0] >= 0:
            return int(positions[0])
    if len(classes) >= 2:
        check_pos_label(pos_label, classes, name)
    return -1


def binary_cells(yt, yp, pos_label, w):
    """tp, fp, fn, tn of the class ``pos_label`` in validated labels (floats if weighted)."""
    classes, t, p = encode_labels(yt, yp)
    pos = position_of(pos_label, classes)
    # one code per sample: 2·(actually positive) + (predicted positive), so 3 is tp and 0 tn
    cell = 2 * (t == pos).astype(np.int64) + (p == pos)
    tn, fp, fn, tp = np.bincount(cell, weights=w, minlength=4)
    if w is None:
        return int(tp), int(fp), int(fn), int(tn)
    return float(tp), float(fp), float(fn), float(tn)


def _repeats(block):
    """Every entry of an n x k int block that repeats an earlier entry of its row.

    Vectorized over rows: for small k one comparison per pair of columns,
    for larger k a sort along axis 1. A value occurring r times in a row
    appears r - 1 times in the result.
    """
    k = block.shape[1]
    if k > 6:  # measured: the pairs of columns cost k²/2 passes, a sort wins from k = 8
        ordered = np.sort(block, axis=1)
        later = ordered[:, 1:]
        return later[later == ordered[:, :-1]]
    parts = []
    for j in range(1, k):  # a loop over columns, never over rows
        column = block[:, j]
        seen = block[:, 0] == column
        for i in range(1, j):
            seen |= block[:, i] == column
        parts.append(column[seen])
    return np.concatenate(parts)


def _hits(block, t):
    """Per row, whether ``t`` is among the row's entries (a loop over columns, not rows)."""
    hit = block[:, 0] == t
    for j in range(1, block.shape[1]):
        hit |= block[:, j] == t
    return hit


def topk_code_counts(t, block, n_classes, *, distinct=False):
    """Per-class top-k counts from integer codes: ``(tp, predicted, support)``.

    ``t`` (n,) holds the true class codes and ``block`` (n, k) the codes of
    each row's top k predictions. For class c: ``tp`` = rows of class c
    whose top k contains c; ``predicted`` = rows whose top k contains c (a
    row counts once even if c repeats in it; pass ``distinct=True`` when
    rows cannot repeat, e.g. columns of a score matrix); ``support`` = rows
    of class c. Codes outside 0..n_classes-1 are not allowed.

    >>> tp, pred, sup = topk_code_counts(np.array([0, 1, 1]),
    ...                                  np.array([[0, 0], [2, 1], [0, 2]]), 3)
    >>> tp.tolist(), pred.tolist(), sup.tolist()
    ([1, 1, 0], [2, 1, 2], [1, 2, 0])
    """
    tp = np.bincount(t[_hits(block, t)], minlength=n_classes)
    predicted = np.bincount(block.reshape(-1), minlength=n_classes)
    if not distinct and block.shape[1] > 1:
        predicted -= np.bincount(_repeats(block), minlength=n_classes)
    support = np.bincount(t, minlength=n_classes)
    return tp, predicted, support


def _tie_ranks(equal, ties):
    """Per row, the rank of each tied column among the tied ones, by the tie rule.

    ``ties="first"``: the lower column ranks first (1, 2, ...); ``"last"``: the higher.
    """
    if ties == "first":
        return np.cumsum(equal, axis=1)
    from_the_right = np.cumsum(equal[:, ::-1], axis=1)
    return from_the_right[:, ::-1]


def _exact_top_k(scores, kth, k, ties):
    """Each row's top k columns, exactly by the tie rule, where the k-th score is ``kth``."""
    above = scores > kth
    equal = scores == kth
    room = k - above.sum(axis=1)  # how many tied columns each row keeps
    keep = above | (equal & (_tie_ranks(equal, ties) <= room[:, None]))
    return np.nonzero(keep)[1].reshape(-1, k)


def _by_score(scores, idx, ties):
    """The columns ``idx`` of each row ordered by score, highest first, then by the tie rule."""
    values = np.take_along_axis(scores, idx, axis=1)
    tie_key = -idx  # "last": the higher column first
    if ties == "first":
        tie_key = idx
    order = np.lexsort((tie_key, -values), axis=1)
    return np.take_along_axis(idx, order, axis=1)


def top_k_columns(scores, k, ties="last", ranked=False):
    """Column indices of each row's k highest scores; equal scores by ``ties``.

    ``ties="last"`` (scikit-learn's): of equal scores the higher column
    ranks first; ``"first"``: the lower column, as argmax. ``np.argpartition``
    finds the k largest in linear time but breaks ties at the k-th value
    arbitrarily; rows where the k-th value is tied with a column left out
    are redone with an exact mask, so the rule holds without sorting.
    ``ranked=True`` orders the k columns by score, then by the tie rule.

    >>> top_k_columns(np.array([[0.4, 0.2, 0.4]]), 1).tolist(), \
top_k_columns(np.array([[0.4, 0.2, 0.4]]), 1, "first").tolist()
    ([[2]], [[0]])
    """
    n, c = scores.shape
    k = min(k, c)
    if k == c:
        idx = np.broadcast_to(np.arange(c), (n, c)).copy()
    else:
        idx = np.argpartition(scores, c - k, axis=1)[:, c - k:]
        kth = np.take_along_axis(scores, idx, axis=1).min(axis=1)
        tied = (scores >= kth[:, None]).sum(axis=1) > k  # a tie straddles the cut
        if tied.any():
            idx[tied] = _exact_top_k(scores[tied], kth[tied][:, None], k, ties)
    if ranked:
        idx = _by_score(scores, idx, ties)
    return idx


def top_k_hits(scores, t, k, ties, binary):
    """Per row, whether class code ``t`` is among the k best scores (scikit-learn's rules).

    Binary (1-D scores): with k = 1 the second class is predicted when the
    score exceeds 0.5 (probabilities) or 0 (decision values); k >= 2 is
    always a hit. (Also the bootstrap's top-k rule.)
    """
    if not binary:
        return _hits(top_k_columns(scores, k, ties), t)
    if k >= 2:
        return np.ones(len(t), dtype=bool)
    threshold = 0
    if scores.min() >= 0 and scores.max() <= 1:  # probabilities
        threshold = 0.5
    predicted = (scores > threshold).astype(np.int64)
    return predicted == t


class CalibrationBins(NamedTuple):
    """Per bin: ``edges`` (n_bins + 1), ``total`` count, ``pred`` sum of predictions, ``true``
    positives."""

    edges: np.ndarray
    total: np.ndarray
    pred: np.ndarray
    true: np.ndarray

    def points(self):
        """``(count, accuracy, confidence)`` of each non-empty bin.

        Accuracy is the bin's share of positives, confidence its mean prediction.
        """
        filled = self.total != 0
        total = self.total[filled]
        accuracy = self.true[filled] / total
        confidence = self.pred[filled] / total
        return total, accuracy, confidence

    def ece(self):
        """Expected calibration error ``Σ_b (n_b / n) · |acc_b - conf_b|``, non-empty bins."""
        total, accuracy, confidence = self.points()
        gaps = np.abs(accuracy - confidence)
        return float(np.dot(total, gaps) / total.sum())


def calibration_bins(y_true, y_prob, pos_label, n_bins, strategy, name="y_prob"):
    """The :class:`CalibrationBins` of binary labels and probabilities (scikit-learn's binning).

    ``total[b]`` is the number of predictions in bin b, ``pred[b]`` their
    sum and ``true[b]`` the positives among them. Bins ``(e_b, e_{b+1}]``
    (the first closed) at ``n_bins + 1`` edges (options checked by the public
    callers): equal width on [0, 1] (``"uniform"``) or the quantiles of the
    predictions (``"quantile"``), as scikit-learn's ``calibration_curve``
    computes them. The one binning of ``calibration`` and ``plot.reliability``.
    """
    y = check_labels(y_true, "y_true")
    p = check_real(y_prob, name, proba=True)
    check_same_length(**{"y_true": y, name: p})
    binary = BINARY_PROBA.format(what="the calibration curve")
    positive = positive_of(y, pos_label, binary=binary)
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    bin_of = np.searchsorted(edges[1:-1], p)  # a prediction on an edge belongs to the lower bin
    total = np.bincount(bin_of, minlength=n_bins)
    pred = np.bincount(bin_of, weights=p, minlength=n_bins)
    true = np.bincount(bin_of, weights=positive, minlength=n_bins)
    return CalibrationBins(edges, total, pred, true)
