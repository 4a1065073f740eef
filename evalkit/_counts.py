"""Labels to counts: the one place where samples are counted.

Metrics never look at samples; they look at the counts made here:

* :func:`class_counts` -- per class, how many samples were correctly predicted
  as the class (tp), predicted as it (predicted) and truly of it (support);
* :func:`confusion_counts` -- the full matrix, rows actual, columns predicted;
* :func:`binary_counts` -- the four cells tp, fp, fn, tn of one positive class,
  as a :class:`evalkit.BinaryCounts`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._hits import RankingHits, encode_items, ranking_hits  # noqa: F401  (moved to _hits)
from ._validation import check_label_subset, check_pos_label, check_sample_weight, check_targets

__all__ = ["ClassCounts", "encode_labels", "class_counts", "confusion_counts", "binary_cells",
           "topk_code_counts", "RankingHits", "encode_items", "ranking_hits"]


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
        a_labels, b_labels = np.asarray(self.labels), np.asarray(other.labels)
        if len(a_labels) and len(b_labels) and _is_str(a_labels) != _is_str(b_labels):
            raise TypeError("cannot add counts of string labels to counts of numeric labels")
        total = self.total + other.total
        if a_labels.shape == b_labels.shape and np.array_equal(a_labels, b_labels):
            return ClassCounts(a_labels.copy(), np.add(self.tp, other.tp),
                               np.add(self.predicted, other.predicted),
                               np.add(self.support, other.support), total)
        both = np.concatenate([a_labels, b_labels])

        def ascending(x):
            return len(x) < 2 or bool(np.all(x[1:] > x[:-1]))

        if ascending(a_labels) and ascending(b_labels):
            labels = np.unique(both)
        else:
            _, first = np.unique(both, return_index=True)
            labels = both[np.sort(first)]
        order = np.argsort(labels, kind="stable")
        sorted_labels = labels[order]

        def spread(part_labels, values):
            out = np.zeros(len(labels), dtype=np.result_type(values, np.int64))
            at = order[np.searchsorted(sorted_labels, part_labels)]
            out[at] = values
            return out

        def add(name):
            return (spread(a_labels, getattr(self, name))
                    + spread(b_labels, getattr(other, name)))

        return ClassCounts(labels, add("tp"), add("predicted"), add("support"), total)

    def __radd__(self, other):
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # sum(parts) starts from 0
        return NotImplemented


def _is_str(arr):
    return arr.dtype.kind in "USa" or (
        arr.dtype.kind == "O" and len(arr) > 0 and isinstance(arr.flat[0], (str, bytes))
    )


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
        both = both.astype(str) if _is_str(both) else both.astype(float)
    classes, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    return classes, codes[:n], codes[n:]


def _select(classes, labels, name="labels"):
    """Positions of ``labels`` in ``classes`` (-1 where a label is absent)."""
    labels = check_label_subset(labels, classes, name)
    pos = np.searchsorted(classes, labels)
    pos = np.minimum(pos, len(classes) - 1)
    found = classes[pos] == labels
    return labels, np.where(found, pos, -1)


def _take(counts, sel):
    out = counts[np.maximum(sel, 0)]
    out[sel < 0] = 0
    return out


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
    w = check_sample_weight(sample_weight, len(yt))
    return _class_counts(yt, yp, labels, w)


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

    Samples whose actual or predicted label is not in ``labels`` are left out.
    Returns ``(labels, matrix)``.
    """
    classes, t, p = encode_labels(yt, yp)
    if labels is None:
        labels, keep_t, keep_p, k = classes, t, p, len(classes)
    else:
        labels, sel = _select(classes, labels)
        k = len(labels)
        lut = np.full(len(classes), -1, dtype=np.int64)
        found = sel >= 0
        lut[sel[found]] = np.flatnonzero(found)
        keep_t, keep_p = lut[t], lut[p]
        keep = (keep_t >= 0) & (keep_p >= 0)
        if not keep.all():
            keep_t, keep_p = keep_t[keep], keep_p[keep]
            w = None if w is None else w[keep]
    flat = np.bincount(keep_t * k + keep_p, weights=w, minlength=k * k)
    return labels, flat.reshape(k, k)


def position_of(pos_label, classes, name="pos_label"):
    """Index of ``pos_label`` in ``classes``; -1 if absent from a one-class input.

    An absent ``pos_label`` is an error when two or more classes are present
    (as in scikit-learn); with a single class present every sample is simply
    negative.
    """
    if _is_str(np.asarray([pos_label])) == _is_str(classes):
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
    code = 2 * (t == pos).astype(np.int64) + (p == pos)
    c = np.bincount(code, weights=w, minlength=4)
    cast = int if w is None else float
    return cast(c[3]), cast(c[1]), cast(c[2]), cast(c[0])


def _repeats(block):
    """Every entry of an n x k int block that repeats an earlier entry of its row.

    Vectorized over rows: for small k one comparison per pair of columns,
    for larger k a sort along axis 1. A value occurring r times in a row
    appears r - 1 times in the result.
    """
    n, k = block.shape
    if k <= 16:
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
    n, k = block.shape
    hit = block[:, 0] == t
    for j in range(1, k):  # columns, not rows
        hit |= block[:, j] == t
    tp = np.bincount(t[hit], minlength=n_classes)
    predicted = np.bincount(block.reshape(-1), minlength=n_classes)
    if not distinct and k > 1:
        predicted -= np.bincount(_repeats(block), minlength=n_classes)
    support = np.bincount(t, minlength=n_classes)
    return tp, predicted, support
