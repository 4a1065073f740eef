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

from ._validation import (BINARY_PROBA, is_string_like, positive_of, sum_from_zero,
                          check_indicator, check_label_list, check_labels, check_pos_label,
                          check_real, check_same_kind, check_same_length, check_sample_weight,
                          check_targets, dense_indicators, refuse_matrix_beside_vector)

__all__ = ["ClassCounts", "CalibrationBins", "encode_labels", "class_counts", "confusion_counts",
           "binary_cells", "multilabel_counts", "topk_code_counts", "top_k_columns", "top_k_hits",
           "weighted_bincount", "calibration_bins", "targets"]


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
        a, b = np.asarray(self.labels), np.asarray(other.labels)
        if len(a) and len(b):
            check_same_kind(a, b, ("self", "other"))
        both = np.concatenate([a, b])
        if a.shape == b.shape and np.array_equal(a, b):
            labels = a.copy()
        elif all(len(x) < 2 or bool(np.all(x[1:] > x[:-1])) for x in (a, b)):
            labels = np.unique(both)
        else:
            labels = both[np.sort(np.unique(both, return_index=True)[1])]
        order = np.argsort(labels, kind="stable")
        at = order[np.searchsorted(labels[order], both)]
        sums = [np.bincount(at, np.concatenate([getattr(self, f), getattr(other, f)]),
                            minlength=len(labels)) for f in ("tp", "predicted", "support")]
        if all(np.asarray(getattr(x, f)).dtype.kind in "biu" for x in (self, other)
               for f in ("tp", "predicted", "support")):
            sums = [s.astype(np.int64) for s in sums]
        return ClassCounts(labels, *sums, self.total + other.total)

    __radd__ = sum_from_zero


def encode_labels(y_true, y_pred):
    """Map two validated label arrays to integer codes 0..C-1.

    Returns ``(classes, true_codes, pred_codes)`` with ``classes`` sorted, as
    :func:`numpy.unique` sorts. Small non-negative-range integers take a
    lookup-table path (no sort), everything else one :func:`numpy.unique`.

    >>> classes, t, p = encode_labels(np.array(["b", "a"]), np.array(["a", "c"]))
    >>> classes.tolist(), t.tolist(), p.tolist()
    (['a', 'b', 'c'], [1, 0], [0, 2])
    """
    n = len(y_true)
    if y_true.dtype.kind in "biu" and y_pred.dtype.kind in "biu":
        yt = y_true.astype(np.int64, copy=False)
        yp = y_pred.astype(np.int64, copy=False)
        lo = min(int(yt.min()), int(yp.min()))
        hi = max(int(yt.max()), int(yp.max()))
        if hi - lo < 2 * n + 1024:
            if lo:
                yt, yp = yt - lo, yp - lo
            seen = np.zeros(hi - lo + 1, dtype=bool)
            seen[yt] = True
            seen[yp] = True
            classes = np.flatnonzero(seen) + lo
            if y_true.dtype == y_pred.dtype:
                classes = classes.astype(y_true.dtype)
            if len(classes) == len(seen):  # every value in lo..hi occurs: codes = shifted labels
                return classes, yt, yp
            lut = np.cumsum(seen) - 1
            return classes, lut[yt], lut[yp]
    both = np.concatenate([y_true, y_pred])
    if both.dtype.kind == "O":
        both = both.astype(str) if is_string_like(both) else both.astype(float)
    classes, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    return classes, codes[:n], codes[n:]


def _select(classes, labels, name="labels"):
    """Positions of ``labels`` in ``classes`` (-1 where a label is absent)."""
    labels = check_label_list(labels, name, classes=classes)
    pos = np.minimum(np.searchsorted(classes, labels), len(classes) - 1)
    return labels, np.where(classes[pos] == labels, pos, -1)


def _take(counts, sel):
    out = counts[np.maximum(sel, 0)]
    out[sel < 0] = 0
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
    out = np.zeros(minlength, dtype=np.int64)
    for shift in (42, 21, 0):
        part = np.bincount(codes, weights=(w >> shift) & ((1 << 21) - 1), minlength=minlength)
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
    y_true, y_pred = dense_indicators(y_true, y_pred)   # scipy.sparse indicators, as sklearn
    if not (_is_2d(y_true) or _is_2d(y_pred)):
        kind, yt, yp = check_targets(y_true, y_pred)
        return kind, yt, yp, check_sample_weight(sample_weight, len(yt))
    if not _is_2d(y_true):
        check_labels(y_true, "y_true")
        refuse_matrix_beside_vector(y_pred)
    yt = check_indicator(y_true, "y_true")
    yp = check_indicator(y_pred, "y_pred", shape=yt.shape)
    if labels is not None:
        cols = check_label_list(labels, classes=np.arange(yt.shape[1]), indices=yt.shape[1])
        yt, yp = yt[:, cols], yp[:, cols]
    return "multilabel", yt, yp, check_sample_weight(sample_weight, len(yt))


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
    return _class_counts(yt, yp, labels, check_sample_weight(sample_weight, len(yt)))


def _class_counts(yt, yp, labels, w):
    classes, t, p = encode_labels(yt, yp)
    c = len(classes)
    hit = t == p
    tp = np.bincount(t[hit], weights=None if w is None else w[hit], minlength=c)
    predicted = np.bincount(p, weights=w, minlength=c)
    support = np.bincount(t, weights=w, minlength=c)
    total = len(yt) if w is None else float(w.sum())
    if labels is None:
        return ClassCounts(classes, tp, predicted, support, total)
    labels, sel = _select(classes, labels)
    return ClassCounts(labels, _take(tp, sel), _take(predicted, sel), _take(support, sel), total)


def confusion_counts(yt, yp, labels, w):
    """The confusion matrix of validated labels: rows actual, columns predicted.

    Samples whose actual or predicted label is not in ``labels`` are left out;
    integer weights sum exactly (:func:`weighted_bincount`). Returns
    ``(labels, matrix)``.
    """
    classes, t, p = encode_labels(yt, yp)
    if labels is None:
        labels, k = classes, len(classes)
    else:
        labels, sel = _select(classes, labels)
        k = len(labels)
        lut = np.full(len(classes), -1, dtype=np.int64)
        lut[sel[sel >= 0]] = np.flatnonzero(sel >= 0)
        t, p = lut[t], lut[p]
        keep = (t >= 0) & (p >= 0)
        if not keep.all():
            t, p, w = t[keep], p[keep], None if w is None else w[keep]
    return labels, weighted_bincount(t * k + p, w, k * k).reshape(k, k)


def multilabel_counts(yt, yp, w=None, *, samplewise=False):
    """tp, predicted and actual of 0/1 indicator matrices, per label or per sample.

    ``yt``, ``yp``: validated (n, L) boolean matrices. Per label (column)
    sums, weighted by ``w``; ``samplewise=True`` gives per-sample (row) sums
    instead (times the sample's weight, as scikit-learn).

    >>> multilabel_counts(np.array([[1, 0], [1, 1]], bool), np.array([[1, 1], [0, 1]], bool))
    (array([1, 1]), array([1, 2]), array([2, 1]))
    """
    mats = (yt & yp, yp, yt)
    if samplewise:
        return tuple(m.sum(axis=1) if w is None else m.sum(axis=1) * w for m in mats)
    if w is None:
        return tuple(m.sum(axis=0) for m in mats)
    # scikit-learn's sparse count: the weights of each label's rows, added in row order
    return tuple(np.bincount(np.nonzero(m)[1], weights=w[np.nonzero(m)[0]],
                             minlength=m.shape[1]).astype(float) for m in mats)


def position_of(pos_label, classes, name="pos_label"):
    """Index of ``pos_label`` in ``classes``; -1 if absent from a one-class input.

    An absent ``pos_label`` is an error when two or more classes are present
    (as in scikit-learn); with a single class present every sample is simply
    negative.
    """
    if is_string_like(np.asarray([pos_label])) == is_string_like(classes):
        _, sel = _select(classes, [pos_label], name)
        if sel[0] >= 0:
            return int(sel[0])
    if len(classes) >= 2:
        check_pos_label(pos_label, classes, name)
    return -1


def binary_cells(yt, yp, pos_label, w):
    """tp, fp, fn, tn of the class ``pos_label`` in validated labels (floats if weighted)."""
    classes, t, p = encode_labels(yt, yp)
    pos = position_of(pos_label, classes)
    c = np.bincount(2 * (t == pos).astype(np.int64) + (p == pos), weights=w, minlength=4)
    cast = int if w is None else float
    return cast(c[3]), cast(c[1]), cast(c[2]), cast(c[0])


def _repeats(block):
    """Every entry of an n x k int block that repeats an earlier entry of its row.

    Vectorized over rows: for small k one comparison per pair of columns,
    for larger k a sort along axis 1. A value occurring r times in a row
    appears r - 1 times in the result.
    """
    n, k = block.shape
    if k <= 6:  # measured: the pairs of columns cost k²/2 passes, a sort wins from k = 8
        parts = []
        for j in range(1, k):  # a loop over columns, never over rows
            col = block[:, j]
            seen = block[:, 0] == col
            for i in range(1, j):
                seen |= block[:, i] == col
            parts.append(col[seen])
        return np.concatenate(parts)
    srt = np.sort(block, axis=1)
    return srt[:, 1:][srt[:, 1:] == srt[:, :-1]]


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
    return tp, predicted, np.bincount(t, minlength=n_classes)


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
            sub, th = scores[tied], kth[tied][:, None]
            above, equal = sub > th, sub == th
            order = (np.cumsum(equal, axis=1) if ties == "first"
                     else np.cumsum(equal[:, ::-1], axis=1)[:, ::-1])
            keep = above | (equal & (order <= (k - above.sum(axis=1))[:, None]))
            idx[tied] = np.nonzero(keep)[1].reshape(-1, k)
    if ranked:
        vals = np.take_along_axis(scores, idx, axis=1)
        order = np.lexsort((idx if ties == "first" else -idx, -vals), axis=1)
        idx = np.take_along_axis(idx, order, axis=1)
    return idx


def top_k_hits(scores, t, k, ties, binary):
    """Per row, whether class code ``t`` is among the k best scores (scikit-learn's rules).

    Binary (1-D scores): with k = 1 the second class is predicted when the
    score exceeds 0.5 (probabilities) or 0 (decision values); k >= 2 is
    always a hit. (Also the bootstrap's top-k rule.)
    """
    if binary:
        if k == 1:
            threshold = 0.5 if scores.min() >= 0 and scores.max() <= 1 else 0
            return (scores > threshold).astype(np.int64) == t
        return np.ones(len(t), dtype=bool)
    return _hits(top_k_columns(scores, k, ties), t)


_STRATEGIES = {"uniform": "equal-width bins on [0, 1]",
               "quantile": "equal-mass bins at the quantiles of the probabilities"}


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
        keep = self.total != 0
        total = self.total[keep]
        return total, self.true[keep] / total, self.pred[keep] / total

    def ece(self):
        """Expected calibration error ``Σ_b (n_b / n) · |acc_b - conf_b|``, non-empty bins."""
        total, acc, conf = self.points()
        return float(np.dot(total, np.abs(acc - conf)) / total.sum())


def calibration_bins(y_true, y_prob, pos_label, n_bins, strategy, name="y_prob"):
    """The :class:`CalibrationBins` of binary labels and probabilities (scikit-learn's binning).

    ``total[b]`` is the number of predictions in bin b, ``pred[b]`` their
    sum and ``true[b]`` the positives among them. Bins ``(e_b, e_{b+1}]``
    (the first closed) at ``n_bins + 1`` edges (options checked by the public
    callers): equal width on [0, 1] (``"uniform"``) or the quantiles of the
    predictions (``"quantile"``), as scikit-learn's ``calibration_curve``
    computes them. The one binning of ``calibration`` and ``plot.reliability``.
    """
    y, p = check_labels(y_true, "y_true"), check_real(y_prob, name, proba=True)
    check_same_length(**{"y_true": y, name: p})
    positive = positive_of(y, pos_label, binary=BINARY_PROBA.format(what="the calibration curve"))
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)  # a prediction on an edge belongs to the lower bin
    return CalibrationBins(edges, np.bincount(ids, minlength=n_bins),
                           np.bincount(ids, weights=p, minlength=n_bins),
                           np.bincount(ids, weights=positive, minlength=n_bins))
