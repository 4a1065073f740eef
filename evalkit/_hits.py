"""Per-user hits: the counts of ranking, found in one pass.

For every user, where each judged item sits in the ranked list. Stored sparse --
one (user, position, gain) triple per hit -- with each user's number of relevant
items (R), of judged items and list length; the users x k hit matrix is
``.matrix(k)``. Every ranking metric at every cut-off k is arithmetic on these,
and the hits of two sets of users add up (``RankingHits.concat``) to the hits
of both, which is how ``evalkit.spark`` computes them partition by partition.
"""

from __future__ import annotations

import itertools

import numpy as np

from ._validation import Satisfies, sum_from_zero, validate_params

__all__ = ["RankingHits", "encode_items", "ranking_hits", "WHOLE_LIST"]

_TABLE_SIZE = 1 << 22  # entries of the per-block lookup table (a few MB)

#: The option values under which a metric reads each whole list, not only its
#: first k items: hits cut at k (``RankingHits.cut``) cannot serve them.
WHOLE_LIST = {"ideal": "candidates", "relevant_in": "ranked"}


class RankingHits:
    """Per-user hits of ranked lists: the counts every ranking metric is computed from.

    Attributes
    ----------
    n_users : int
    user, position : int64 arrays
        One entry per hit (a judged item found in a ranked list), sorted by
        user then position; ``position`` is 0-based (rank - 1).
    gain : float64 array
        The hit's grade (1.0 for binary relevance); 0 for an item judged not
        relevant (graded 0), which only ``relevance="any"`` (Spark) counts.
    n_relevant : int64 array (n_users,)
        R: the user's relevant items (grade > 0), retrieved or not.
    n_judged : int64 array (n_users,)
        The user's judged items, grade 0 included (= R for binary relevance).
    n_ranked : int64 array (n_users,)
        The length of the user's ranked list.
    ideal : float64 array (n_users, max R) or None
        The user's relevant grades sorted in decreasing order, padded with 0
        (None for binary relevance: then it is R ones).
    given : float64 array (n_users, width) or None
        The grades of the user's judged items in the order they were given
        (dict order), zeros included; for Spark's graded ideal DCG.
    cut : int or None
        The hits were looked for only in each list's first ``cut`` items
        (None: in whole lists).

    Notes
    -----
    Hits found only in each list's first k (as ``evalkit.spark.ranking_hits``
    with ``k`` does, ``cut=k``) serve every metric at cut-offs up to k, except
    those that look at the whole list (``ideal="candidates"``,
    ``relevant_in="ranked"``: :data:`WHOLE_LIST`); the metrics refuse the
    others. The object is never changed once built, so threads may share it.
    Built by hand, the hits are checked (a position inside the user's list, a
    gain >= 0, one hit per position) and sorted by user and position. (A
    list that repeats a relevant item, which Spark allows, can have more hits
    than R.)

    Examples
    --------
    >>> h = ranking_hits(*_demo())
    >>> h.user.tolist(), h.position.tolist(), h.n_relevant.tolist()
    ([0, 0, 1], [0, 2, 1], [2, 3])
    >>> h.matrix(3).astype(int).tolist()
    [[1, 0, 1], [0, 1, 0]]
    """

    __slots__ = ("n_users", "user", "position", "gain", "n_relevant", "n_judged", "n_ranked",
                 "ideal", "given", "graded", "cut")

    def __init__(self, user, position, gain, n_relevant, n_ranked, ideal=None, given=None,
                 graded=None, n_judged=None, cut=None):
        n_judged = n_relevant if n_judged is None else n_judged   # binary: every judged item
        arrays = (user, position, n_relevant, n_ranked, n_judged)
        user, position, self.n_relevant, self.n_ranked, self.n_judged = (
            np.asarray(a, dtype=np.int64).reshape(-1) for a in arrays)
        gain = np.asarray(gain, dtype=np.float64).reshape(-1)
        self.n_users = len(self.n_relevant)
        wrong = _wrong_hits(user, position, gain, self.n_relevant, self.n_judged, self.n_ranked)
        if wrong:
            raise ValueError(wrong)
        key = user * (self.depth + 1) + position
        if not (key[1:] > key[:-1]).all():  # sort by (user, position)
            order = np.argsort(key, kind="stable")
            user, position, gain, key = user[order], position[order], gain[order], key[order]
            if (key[1:] == key[:-1]).any():
                raise ValueError("position: a user has two hits at the same position")
        self.user, self.position, self.gain = user, position, gain
        self.ideal = None if ideal is None else np.asarray(ideal, dtype=np.float64)
        self.given = None if given is None else np.asarray(given, dtype=np.float64)
        self.graded = ideal is not None if graded is None else bool(graded)
        self.cut = None if cut is None else int(cut)

    def __repr__(self):
        cut = "" if self.cut is None else f", first {self.cut} of each list"
        return (f"RankingHits({self.n_users} users, {len(self.user)} hits, "
                f"{'graded' if self.graded else 'binary'}{cut})")

    @property
    def depth(self):
        """The longest ranked list."""
        return int(self.n_ranked.max(initial=0))

    def matrix(self, k=None):
        """The users x k hit matrix: gains at each rank (booleans for binary relevance)."""
        k = self.depth if k is None else int(k)
        user, position, gain = self.within(k)
        out = np.zeros((self.n_users, k), dtype=np.float64 if self.graded else bool)
        out[user, position] = gain if self.graded else True
        return out

    def _grades(self, grades, width):
        if grades is None:
            return (np.arange(width) < self.n_relevant[:, None]).astype(np.float64)
        return np.pad(grades[:, :width], ((0, 0), (0, max(0, width - grades.shape[1]))))

    def ideal_grades(self, width):
        """The ideal (decreasing) grades of each user's relevant items, n_users x width."""
        return self._grades(self.ideal, width)

    def given_grades(self, width):
        """The grades in the order given (Spark's ideal), n_users x width."""
        return self._grades(self.ideal if self.given is None else self.given, width)

    def within(self, k, judged=False):
        """``(user, position, gain)`` of the hits in the top k (k=None: all).

        Relevant hits (gain > 0) only, unless ``judged`` (every judged item, Spark).
        """
        keep = self.gain > 0 if not judged and self.graded else True
        keep = keep if k is None else keep & (self.position < k)
        if keep is True:
            return self.user, self.position, self.gain
        return self.user[keep], self.position[keep], self.gain[keep]

    def hits_at(self, k, judged=False):
        """Per user, the number of relevant (or judged) items in the top k (hits@k)."""
        return np.bincount(self.within(k, judged)[0], minlength=self.n_users)

    @classmethod
    @validate_params(parts=Satisfies(lambda p: isinstance(p, (list, tuple)) and len(p) > 0,
                                     "a non-empty list of RankingHits"))
    def concat(cls, parts):
        """The hits of several disjoint sets of users, stacked in order (partitions add up).

        >>> a = ranking_hits(*_demo())
        >>> b = RankingHits.concat([a, a])
        >>> b.n_users, b.user.tolist()
        (4, [0, 0, 1, 2, 2, 3])
        """
        def cat(get):
            return np.concatenate([get(p) for p in parts])

        ideal = given = None
        if any(p.graded for p in parts):
            r_max = [int(p.n_relevant.max(initial=0)) for p in parts]
            ideal = cat(lambda p: p.ideal_grades(max(r_max)))
            given = cat(lambda p: p.given_grades(max(p.given.shape[1] if p.given is not None else r
                                                     for p, r in zip(parts, r_max))))
        starts = np.cumsum([0] + [p.n_users for p in parts])
        cuts = [p.cut for p in parts if p.cut is not None]
        users = np.concatenate([p.user + s for p, s in zip(parts, starts)])
        return cls(users, cat(lambda p: p.position), cat(lambda p: p.gain),
                   cat(lambda p: p.n_relevant), cat(lambda p: p.n_ranked), ideal, given,
                   any(p.graded for p in parts), cat(lambda p: p.n_judged),
                   min(cuts) if cuts else None)

    def __add__(self, other):
        is_hits = isinstance(other, RankingHits)
        return RankingHits.concat([self, other]) if is_hits else NotImplemented

    __radd__ = sum_from_zero


def _wrong_hits(user, position, gain, n_relevant, n_judged, n_ranked):
    """What is wrong with hits that cannot come from ranked lists (by hand or on Spark), or None."""
    n = len(n_relevant)
    bad = [(not len(user) == len(position) == len(gain),
            "user, position and gain have different lengths: one entry per hit"),
           (not n == len(n_judged) == len(n_ranked),
            "n_relevant, n_judged and n_ranked have different lengths: one entry per user"),
           ((n_relevant < 0).any() or (n_ranked < 0).any() or (n_judged < n_relevant).any(),
            "n_relevant and n_ranked must be >= 0 and n_judged >= n_relevant"),
           (len(user) and (user.min() < 0 or user.max() >= n),
            f"user must be between 0 and {n - 1} (the users)"),
           (len(user) and (position.min() < 0 or (position >= n_ranked[user.clip(0, n - 1)]).any()),
            "position must be between 0 and the length of the user's list - 1"),
           (not (gain >= 0).all(), "gain must be >= 0: a hit is a judged item")]
    return next((message for wrong, message in bad if wrong), None)


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
        lo = min(int(ai.min(initial=2 ** 62)), int(bi.min(initial=2 ** 62)))
        hi = max(int(ai.max(initial=-2 ** 62)), int(bi.max(initial=-2 ** 62)))
        if hi - lo < 4 * (n + len(b)) + (1 << 16):
            return (ai, bi, hi + 1) if lo == 0 else (ai - lo, bi - lo, hi - lo + 1)
    if a.dtype == object or b.dtype == object:
        lookup = {}
        codes = np.fromiter((lookup.setdefault(v, len(lookup)) for v in itertools.chain(a, b)),
                            dtype=np.int64, count=n + len(b))
        return codes[:n], codes[n:], max(len(lookup), 1)
    uniq, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    codes = codes.reshape(-1)
    return codes[:n], codes[n:], max(len(uniq), 1)


def _find(q_codes, q_off, s_codes, s_off, n_codes, check_q=False):
    """The item-hit finder: for each query id, its 0-based position in the same user's searched row.

    Returns ``(cols, repeat, q_repeat)``: ``cols[j]`` the position of query j
    in its row (-1 if absent), ``repeat`` the flat index of the first searched
    entry that repeats an id of its row (-1 if none), and with ``check_q`` the
    same for the queries (else -1). Users go in blocks through one
    lookup table of ``users_in_block x n_codes`` small integers: the searched
    rows' positions are written, read back (a repeat reads back another
    position) and read for the queries, every answer verified against the ids,
    so the table is never cleared. A catalogue too big for blocks of 16 users
    (or of all the users, if fewer) gets the same answers from one sort of
    (user, item) keys.
    """
    n = len(s_off) - 1
    s_len, q_len = np.diff(s_off), np.diff(q_off)
    cols = np.full(len(q_codes), -1, dtype=np.int64)
    block = min(_TABLE_SIZE // max(n_codes, 1), n)
    if block < min(16, n):   # too many items for a table of 16 users (or of all, if fewer)
        s_user = np.repeat(np.arange(n, dtype=np.int64), s_len)
        keys = s_user * n_codes + s_codes
        order = np.argsort(keys, kind="stable")
        srt = keys[order]
        same = np.flatnonzero(srt[1:] == srt[:-1])
        if len(same):
            return cols, int(order[same + 1].min()), -1
        qk = np.repeat(np.arange(n, dtype=np.int64), q_len) * n_codes + q_codes
        at = np.minimum(np.searchsorted(srt, qk), max(len(srt) - 1, 0))
        found = srt[at] == qk if len(srt) else np.zeros(len(qk), bool)
        flat = order[at[found]]
        cols[found] = flat - s_off[s_user[flat]]
        return cols, -1, _find(q_codes[:0], np.zeros(n + 1, np.int64), q_codes, q_off, n_codes)[1] \
            if check_q else -1
    width = max(int(s_len.max(initial=0)), int(q_len.max(initial=0)) if check_q else 0)
    dtype = np.uint8 if width <= 255 else np.uint16 if width <= 65535 else np.int64
    table = np.zeros(max(block, 1) * n_codes, dtype=dtype)
    uniform = n > 0 and bool((s_len == s_len[0]).all())
    for u0 in range(0, n, max(block, 1)):
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
        local = np.repeat(np.arange(u1 - u0), q_len[u0:u1])
        q = q_codes[c:d]
        qkeys = base[local] + q
        if b > a:
            got = table[qkeys].astype(np.int64)
            ok = got < s_len[u0 + local]
            ok &= s_codes[np.minimum(s_off[u0 + local] + np.where(ok, got, 0), b - 1)] == q
            cols[c:d] = np.where(ok, got, -1)
        if check_q:   # the queries' own repeats, through the same table
            qpos = (np.arange(d - c) - (q_off[u0 + local] - c)).astype(dtype)
            table[qkeys] = qpos
            if (table[qkeys] != qpos).any():
                return cols, -1, c + int(np.argmax(table[qkeys] != qpos))
    return cols, -1, -1


def ranking_hits(r_items, r_off, t_items, t_off, grades, *, repeats="error",
                 names=("ranked", "relevant")):
    """Per-user hits of validated ranked lists and judged items (see :class:`RankingHits`).

    ``r_items``/``r_off``: the ranked lists, flat with row offsets;
    ``t_items``/``t_off``/``grades``: the judged items (``grades`` None for
    binary relevance: every item relevant). ``repeats="error"`` refuses a
    ranked list or a relevant set that repeats an item; ``"count"`` (Spark's
    behaviour) counts every occurrence in a ranked list as a hit (judged rows
    must be distinct).

    >>> ranking_hits(*_demo())
    RankingHits(2 users, 3 hits, binary)
    """
    rc, tc, n_codes = encode_items(r_items, t_items)
    n = len(r_off) - 1
    t_len = np.diff(t_off)
    t_user = np.repeat(np.arange(n, dtype=np.int64), t_len)
    g = np.ones(len(tc)) if grades is None else np.asarray(grades, dtype=np.float64)
    if repeats == "error":
        cols, rep, t_rep = _find(tc, t_off, rc, r_off, n_codes, check_q=True)
    else:   # each ranked item's column in its judged row (a list may repeat an item: Spark)
        cols, t_rep, rep = _find(rc, r_off, tc, t_off, n_codes)
    if max(rep, t_rep) >= 0:   # the finder stops at the first repeat: name its list and item
        which, at = (1, t_rep) if t_rep >= 0 else (0, rep)
        user = int(np.searchsorted((r_off, t_off)[which], at, side="right") - 1)
        item = (r_items, t_items)[which][at:at + 1].tolist()[0]
        rule = ("a ranked list holds each item once", "list each relevant item once")[which]
        raise ValueError(f"{names[which]}[{user}] repeats the item {item!r}: {rule}")
    if repeats == "error":
        hit = cols >= 0
        depth = int(np.diff(r_off).max(initial=0))
        if grades is None and n * depth <= 8 * len(rc) + (1 << 20):
            mask = np.zeros(n * depth, dtype=bool)   # sort the hits by marking users x depth
            mask[t_user[hit] * depth + cols[hit]] = True
            user, position = np.divmod(np.flatnonzero(mask), depth)
            gain = np.ones(len(user))
        else:   # RankingHits sorts them
            user, position, gain = t_user[hit], cols[hit], g[hit]
    else:
        found = np.flatnonzero(cols >= 0)
        user = np.repeat(np.arange(n, dtype=np.int64), np.diff(r_off))[found]
        gain = g[t_off[user] + cols[found]]
        position = found - r_off[user]
    ideal = given = None
    n_relevant = t_len if grades is None else np.bincount(t_user[g > 0], minlength=n)
    if grades is not None:   # the grades as given, and sorted: the ideal order (zeros last)
        given = np.zeros((n, int(t_len.max(initial=0))))
        given[t_user, np.arange(len(tc)) - t_off[t_user]] = g
        ideal = np.sort(given, axis=1)[:, ::-1][:, :int(n_relevant.max(initial=0))]
    return RankingHits(user, position, gain, n_relevant, np.diff(r_off), ideal, given,
                       graded=grades is not None, n_judged=t_len)
