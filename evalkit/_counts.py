"""Labels to counts: the one place where samples are counted.

Metrics never look at samples; they look at the counts made here:

* :func:`class_counts` -- per class, how many samples were correctly predicted
  as the class (tp), predicted as it (predicted) and truly of it (support);
* :func:`confusion_counts` -- the full matrix, rows actual, columns predicted;
* :func:`binary_counts` -- the four cells tp, fp, fn, tn of one positive class,
  as a :class:`evalkit.BinaryCounts`.
"""

from __future__ import annotations

import itertools
import numbers
from typing import NamedTuple

import numpy as np

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


# -- per-user hits: the counts of ranking -------------------------------------------
#
# One pass finds, for every user, where each relevant item sits in the ranked list.
# Stored sparse -- one (user, position, gain) triple per hit -- with each user's number
# of relevant items (R) and list length; the users x k hit matrix is .matrix(k). Every
# ranking metric at every cut-off k is arithmetic on these, and the hits of two sets of
# users add up (RankingHits.concat) to the hits of both, which is how evalkit.spark
# can compute them partition by partition.

_TABLE_SIZE = 1 << 22  # entries of the per-block lookup table (a few MB)


class RankingHits:
    """Per-user hits of ranked lists: the counts every ranking metric is computed from.

    Attributes
    ----------
    n_users : int
    user, position : int64 arrays
        One entry per hit (a relevant item found in a ranked list), sorted by
        user then position; ``position`` is 0-based (rank - 1).
    gain : float64 array
        The hit's relevance grade (1.0 for binary relevance; always > 0).
    n_relevant : int64 array (n_users,)
        R: the user's relevant items (grade > 0), retrieved or not.
    n_ranked : int64 array (n_users,)
        The length of the user's ranked list.
    ideal : float64 array (n_users, max R) or None
        The user's relevant grades sorted in decreasing order, padded with 0
        (None for binary relevance: then it is R ones).
    given : float64 array (n_users, width) or None
        The grades of the user's judged items in the order they were given
        (dict order), zeros included; for Spark's graded ideal DCG.

    Notes
    -----
    Hits found only in each list's first k (as ``evalkit.spark.ranking_hits``
    with ``k`` does) serve every metric at cut-offs up to k, except the
    ``ideal="candidates"`` normaliser, which needs the whole list. Built by
    hand, the hits are checked (a position inside the user's list, a gain
    > 0, one hit per position) and sorted by user and position. (A list that
    repeats a relevant item, which Spark allows, can have more hits than R.)

    Examples
    --------
    >>> h = ranking_hits(*_demo())
    >>> h.user.tolist(), h.position.tolist(), h.n_relevant.tolist()
    ([0, 0, 1], [0, 2, 1], [2, 3])
    >>> h.matrix(3).astype(int).tolist()
    [[1, 0, 1], [0, 1, 0]]
    """

    __slots__ = ("n_users", "user", "position", "gain", "n_relevant", "n_ranked", "ideal", "given",
                 "graded")

    def __init__(self, user, position, gain, n_relevant, n_ranked, ideal=None, given=None,
                 graded=None):
        user = np.asarray(user, dtype=np.int64).reshape(-1)
        position = np.asarray(position, dtype=np.int64).reshape(-1)
        gain = np.asarray(gain, dtype=np.float64).reshape(-1)
        self.n_relevant = np.asarray(n_relevant, dtype=np.int64).reshape(-1)
        self.n_ranked = np.asarray(n_ranked, dtype=np.int64).reshape(-1)
        self.n_users = len(self.n_relevant)
        _check_hits(user, position, gain, self.n_relevant, self.n_ranked)
        key = user * (int(self.n_ranked.max(initial=0)) + 1) + position
        if len(key) > 1 and not (key[1:] > key[:-1]).all():   # sort by (user, position)
            order = np.argsort(key, kind="stable")
            user, position, gain, key = user[order], position[order], gain[order], key[order]
            if (key[1:] == key[:-1]).any():
                raise ValueError("position: a user has two hits at the same position")
        self.user, self.position, self.gain = user, position, gain
        self.ideal = None if ideal is None else np.asarray(ideal, dtype=np.float64)
        self.given = None if given is None else np.asarray(given, dtype=np.float64)
        self.graded = ideal is not None if graded is None else bool(graded)

    def __repr__(self):
        return (f"RankingHits({self.n_users} users, {len(self.user)} hits, "
                f"{'graded' if self.graded else 'binary'})")

    @property
    def depth(self):
        """The longest ranked list."""
        return int(self.n_ranked.max()) if self.n_users else 0

    def matrix(self, k=None):
        """The users x k hit matrix: gains at each rank (booleans for binary relevance)."""
        k = self.depth if k is None else int(k)
        keep = self.position < k
        out = np.zeros((self.n_users, k), dtype=np.float64 if self.graded else bool)
        out[self.user[keep], self.position[keep]] = self.gain[keep] if self.graded else True
        return out

    def ideal_grades(self, width):
        """The ideal (decreasing) grades of each user's relevant items, n_users x width."""
        if self.ideal is None:
            return (np.arange(width) < self.n_relevant[:, None]).astype(np.float64)
        out = np.zeros((self.n_users, width))
        w = min(width, self.ideal.shape[1])
        out[:, :w] = self.ideal[:, :w]
        return out

    def given_grades(self, width):
        """The grades in the order given (Spark's ideal), n_users x width."""
        if self.given is None:
            return self.ideal_grades(width)
        out = np.zeros((self.n_users, width))
        w = min(width, self.given.shape[1])
        out[:, :w] = self.given[:, :w]
        return out

    def within(self, k):
        """``(user, position, gain)`` of the hits ranked in the top k (k=None: all)."""
        if k is None:
            return self.user, self.position, self.gain
        keep = self.position < k
        return self.user[keep], self.position[keep], self.gain[keep]

    def hits_at(self, k):
        """Per user, the number of relevant items in the top k (hits@k)."""
        user, _, _ = self.within(k)
        return np.bincount(user, minlength=self.n_users)

    @classmethod
    def concat(cls, parts):
        """The hits of several disjoint sets of users, stacked in order (partitions add up).

        >>> a = ranking_hits(*_demo())
        >>> b = RankingHits.concat([a, a])
        >>> b.n_users, b.user.tolist()
        (4, [0, 0, 1, 2, 2, 3])
        """
        parts = list(parts)
        if not parts:
            raise ValueError("parts is empty: give at least one RankingHits")
        starts = np.cumsum([0] + [p.n_users for p in parts])
        graded = any(p.graded for p in parts)

        def stacked(get):
            mats = [get(p) for p in parts]
            width = max(m.shape[1] for m in mats)
            return np.vstack([np.pad(m, ((0, 0), (0, width - m.shape[1]))) for m in mats])

        ideal = given = None
        if graded:
            ideal = stacked(lambda p: p.ideal_grades(int(p.n_relevant.max(initial=0))))
            given = stacked(lambda p: p.given if p.given is not None
                            else p.ideal_grades(int(p.n_relevant.max(initial=0))))
        return cls(np.concatenate([p.user + s for p, s in zip(parts, starts)]),
                   np.concatenate([p.position for p in parts]),
                   np.concatenate([p.gain for p in parts]),
                   np.concatenate([p.n_relevant for p in parts]),
                   np.concatenate([p.n_ranked for p in parts]), ideal, given, graded)

    def __add__(self, other):
        if not isinstance(other, RankingHits):
            return NotImplemented
        return RankingHits.concat([self, other])

    def __radd__(self, other):
        if isinstance(other, numbers.Number) and other == 0:  # sum() starts from 0
            return self
        return NotImplemented


def _check_hits(user, position, gain, n_relevant, n_ranked):
    """Refuse hits that cannot come from ranked lists (for RankingHits built by hand or on Spark)."""
    if not len(user) == len(position) == len(gain):
        raise ValueError(f"user, position and gain have different lengths "
                         f"({len(user)}, {len(position)} and {len(gain)}): one entry per hit")
    if len(n_relevant) != len(n_ranked):
        raise ValueError(f"n_relevant and n_ranked have different lengths ({len(n_relevant)} and "
                         f"{len(n_ranked)}): one entry per user")
    if (n_relevant < 0).any() or (n_ranked < 0).any():
        raise ValueError("n_relevant and n_ranked must be >= 0")
    if len(user):
        if user.min() < 0 or user.max() >= len(n_relevant):
            raise ValueError(f"user must be between 0 and {len(n_relevant) - 1} (the users)")
        if position.min() < 0 or (position >= n_ranked[user]).any():
            raise ValueError("position must be between 0 and the length of the user's list - 1")
        if not (gain > 0).all():
            raise ValueError("gain must be > 0: a hit is a relevant item")


def _demo():
    """Two users, for the doctests: ranked [[1, 2, 3], [4, 5, 6]], relevant [{1, 3}, {5, 7, 8}]."""
    return (np.array([1, 2, 3, 4, 5, 6]), np.array([0, 3, 6]), np.array([1, 3, 5, 7, 8]),
            np.array([0, 2, 5]), None)


def encode_items(a, b):
    """Integer codes 0..C-1 for two arrays of validated item ids: ``(codes_a, codes_b, C)``.

    Integers in a compact range are shifted (no sort); anything else goes
    through one :func:`numpy.unique` (or a dict, for object ids).

    >>> ca, cb, c = encode_items(np.array([10, 12]), np.array([11]))
    >>> ca.tolist(), cb.tolist(), c
    ([0, 2], [1], 3)
    """
    n = len(a)
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        both = np.concatenate([a, b]).astype(np.float64)
        if np.array_equal(both, np.round(both)) and (np.abs(both) < 2 ** 53).all():
            a, b = a.astype(np.int64), b.astype(np.int64)
    if a.dtype.kind in "iu" and b.dtype.kind in "iu" and n + len(b):
        ai, bi = a.astype(np.int64, copy=False), b.astype(np.int64, copy=False)
        lo = min(int(ai.min(initial=np.iinfo(np.int64).max)), int(bi.min(initial=np.iinfo(np.int64).max)))
        hi = max(int(ai.max(initial=np.iinfo(np.int64).min)), int(bi.max(initial=np.iinfo(np.int64).min)))
        if hi - lo < 4 * (n + len(b)) + (1 << 16):
            if lo == 0:
                return ai, bi, hi + 1
            return ai - lo, bi - lo, hi - lo + 1
    if a.dtype == object or b.dtype == object:
        lookup = {}
        codes = np.fromiter((lookup.setdefault(v, len(lookup)) for v in itertools.chain(a, b)),
                            dtype=np.int64, count=n + len(b))
        return codes[:n], codes[n:], max(len(lookup), 1)
    both = np.concatenate([a, b])
    uniq, codes = np.unique(both, return_inverse=True)
    codes = codes.reshape(-1)
    return codes[:n], codes[n:], max(len(uniq), 1)


def _find_in_rows(q_codes, q_off, s_codes, s_off, n_codes, *, check_q=False):
    """For each query id, its 0-based position in the same user's searched row, or -1.

    Also checks that no searched row (and, with ``check_q``, no query row)
    repeats an id: returns ``(cols, s_repeat, q_repeat)``, the repeats being
    the flat index of the first repeated entry (-1 if none). Users are
    processed in blocks with one lookup table of ``users_in_block x n_codes``
    small integers: the searched rows' positions are written, read back for
    the check and for the queries, and every answer is verified against the
    ids -- so the table is never cleared (a stale entry that passes the check
    is a true answer). Catalogues too big for a table take a sort-based path.
    """
    n = len(s_off) - 1
    s_len = np.diff(s_off)
    q_len = np.diff(q_off)
    cols = np.full(len(q_codes), -1, dtype=np.int64)
    block = _TABLE_SIZE // max(n_codes, 1)
    if block < 16:
        return _find_sorted(q_codes, q_off, s_codes, s_off, n_codes, check_q=check_q)
    block = min(block, n)
    width = max(int(s_len.max(initial=0)), int(q_len.max(initial=0)) if check_q else 0)
    dtype = np.uint8 if width <= 255 else np.uint16 if width <= 65535 else np.int64
    table = np.zeros(block * n_codes, dtype=dtype)
    uniform = n > 0 and bool((s_len == s_len[0]).all())
    last = len(s_codes) - 1
    for u0 in range(0, n, block):
        u1 = min(n, u0 + block)
        a, b = int(s_off[u0]), int(s_off[u1])
        base = np.arange(u1 - u0, dtype=np.int64) * n_codes
        if uniform:
            m = int(s_len[0])
            keys = (s_codes[a:b].reshape(u1 - u0, m) + base[:, None]).reshape(-1)
            pos = np.broadcast_to(np.arange(m, dtype=dtype), (u1 - u0, m)).reshape(-1)
        else:
            lens = s_len[u0:u1]
            keys = np.repeat(base, lens) + s_codes[a:b]
            pos = (np.arange(b - a) - np.repeat(s_off[u0:u1] - a, lens)).astype(dtype)
        table[keys] = pos
        bad = table[keys] != pos
        if bad.any():
            return cols, a + int(np.argmax(bad)), -1
        c, d = int(q_off[u0]), int(q_off[u1])
        if d == c:
            continue
        local = np.repeat(np.arange(u1 - u0), q_len[u0:u1])
        q = q_codes[c:d]
        qkeys = base[local] + q
        got = table[qkeys].astype(np.int64)
        ok = got < s_len[u0 + local]
        if last >= 0:
            at = np.minimum(s_off[u0 + local] + np.where(ok, got, 0), last)
            ok &= s_codes[at] == q
            cols[c:d] = np.where(ok, got, -1)
        if check_q:
            qpos = (np.arange(d - c) - (q_off[u0 + local] - c)).astype(dtype)
            table[qkeys] = qpos
            bad = table[qkeys] != qpos
            if bad.any():
                return cols, -1, c + int(np.argmax(bad))
    return cols, -1, -1


def _first_repeat(keys):
    """The index of the first entry of ``keys`` equal to an earlier one (-1 if none)."""
    order = np.argsort(keys, kind="stable")
    srt = keys[order]
    same = np.flatnonzero(srt[1:] == srt[:-1])
    return int(order[same + 1].min()) if len(same) else -1


def _find_sorted(q_codes, q_off, s_codes, s_off, n_codes, *, check_q=False):
    """:func:`_find_in_rows` by sorting user-item keys (for catalogues too big for a table)."""
    n = len(s_off) - 1
    cols = np.full(len(q_codes), -1, dtype=np.int64)
    s_user = np.repeat(np.arange(n, dtype=np.int64), np.diff(s_off))
    keys = s_user * n_codes + s_codes
    rep = _first_repeat(keys)
    if rep >= 0:
        return cols, rep, -1
    q_user = np.repeat(np.arange(n, dtype=np.int64), np.diff(q_off))
    qk = q_user * n_codes + q_codes
    if check_q:
        rep = _first_repeat(qk)
        if rep >= 0:
            return cols, -1, rep
    order = np.argsort(keys)
    srt = keys[order]
    if len(srt):
        at = np.minimum(np.searchsorted(srt, qk), len(srt) - 1)
        found = srt[at] == qk
        flat = order[at[found]]
        cols[found] = flat - s_off[s_user[flat]]
    return cols, -1, -1


def _by_user_rank(user, values, n_users, width, descending=True):
    """An n_users x width matrix of each user's values, sorted (decreasing) within the user."""
    order = np.lexsort((-values if descending else values, user))
    user, values = user[order], values[order]
    first = np.searchsorted(user, np.arange(n_users))
    rank = np.arange(len(user)) - first[user]
    out = np.zeros((n_users, max(width, 0)))
    keep = rank < width
    out[user[keep], rank[keep]] = values[keep]
    return out


def ranking_hits(r_items, r_off, t_items, t_off, grades, *, repeats="error", names=("ranked", "relevant")):
    """Per-user hits of validated ranked lists and relevant items (see :class:`RankingHits`).

    ``r_items``/``r_off``: the ranked lists, flat with row offsets;
    ``t_items``/``t_off``/``grades``: the relevant items (``grades`` None for
    binary relevance). ``repeats="error"`` refuses a ranked list or a
    relevant set that repeats an item; ``"count"`` (Spark's behaviour) counts
    every occurrence in a ranked list as a hit (relevant rows must be distinct).

    >>> ranking_hits(*_demo())
    RankingHits(2 users, 3 hits, binary)
    """
    rc, tc, n_codes = encode_items(r_items, t_items)
    n = len(r_off) - 1
    t_len = np.diff(t_off)
    t_user = np.repeat(np.arange(n, dtype=np.int64), t_len)
    g = np.ones(len(tc)) if grades is None else grades
    relevant = g > 0 if grades is not None else None
    n_relevant = t_len if grades is None else np.bincount(t_user[relevant], minlength=n)

    def refuse_relevant_repeat(rep):
        raise ValueError(f"{names[1]}[{int(t_user[rep])}] repeats the item {t_items[rep].item()!r}: "
                         "list each relevant item once")

    if repeats == "error":
        cols, rep, t_rep = _find_in_rows(tc, t_off, rc, r_off, n_codes, check_q=True)
        if rep >= 0:
            u = int(np.searchsorted(r_off, rep, side="right") - 1)
            raise ValueError(f"{names[0]}[{u}] repeats the item {r_items[rep].item()!r}: a ranked "
                             "list holds each item once")
        if t_rep >= 0:
            refuse_relevant_repeat(t_rep)
        hit = cols >= 0
        if relevant is not None:
            hit &= relevant
        depth = int(np.diff(r_off).max(initial=0))
        if grades is None and n * depth <= 8 * len(rc) + (1 << 20):
            # sort the hits by (user, position) by marking a users x depth mask
            mask = np.zeros(n * depth, dtype=bool)
            mask[t_user[hit] * depth + cols[hit]] = True
            flat = np.flatnonzero(mask)
            user, position = np.divmod(flat, depth)
            gain = np.ones(len(flat))
        else:
            user, position, gain = t_user[hit], cols[hit], g[hit]
            order = np.argsort(user * max(depth, 1) + position, kind="stable")
            user, position, gain = user[order], position[order], gain[order]
    else:
        if len(tc):
            t_rep = _find_in_rows(tc[:0], np.zeros(n + 1, dtype=np.int64), tc, t_off, n_codes)[1]
            if t_rep >= 0:
                refuse_relevant_repeat(t_rep)
        cols, _, _ = _find_in_rows(rc, r_off, tc, t_off, n_codes)
        r_user = np.repeat(np.arange(n, dtype=np.int64), np.diff(r_off))
        found = np.flatnonzero(cols >= 0)
        gain = g[t_off[r_user[found]] + cols[found]]
        keep = gain > 0
        found, gain = found[keep], gain[keep]
        user = r_user[found]
        position = found - r_off[user]
    if relevant is None:
        relevant = slice(None)
    ideal = given = None
    if grades is not None:
        ideal = _by_user_rank(t_user[relevant], g[relevant], n, int(n_relevant.max(initial=0)))
        given = np.zeros((n, int(t_len.max(initial=0))))
        given[t_user, np.arange(len(tc)) - t_off[t_user]] = g
    return RankingHits(user, position, gain, n_relevant, np.diff(r_off), ideal, given,
                       graded=grades is not None)
