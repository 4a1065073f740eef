"""Per-user hits: the counts of ranking, found in one pass.

For every user, where each judged item sits in the ranked list. Stored sparse --
one (user, position, gain) triple per hit -- with each user's number of relevant
items (R), of judged items and list length; the users x k hit matrix is
``.matrix(k)``. Every ranking metric at every cut-off k is arithmetic on these,
and the hits of two sets of users add up (``RankingHits.concat``) to the hits
of both, which is how ``evalkit.spark`` computes them partition by partition.

The hits are found by :func:`search`: the plain sort and search of
:mod:`evalkit._hit_search`, or the same answers through the lookup table of
:mod:`evalkit._hit_table` when the catalogue is small enough for one.
"""

from __future__ import annotations

import itertools

import numpy as np

from ._hit_search import rows_of, search_by_sorting
from ._hit_table import fits, search_by_table
from ._validation import Satisfies, sum_from_zero, validate_params

__all__ = ["RankingHits", "encode_items", "ranking_hits", "search", "WHOLE_LIST"]

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
        if n_judged is None:   # binary relevance: every judged item is relevant
            n_judged = n_relevant
        user = _int64_vector(user)
        position = _int64_vector(position)
        gain = np.asarray(gain, dtype=np.float64).reshape(-1)
        self.n_relevant = _int64_vector(n_relevant)
        self.n_ranked = _int64_vector(n_ranked)
        self.n_judged = _int64_vector(n_judged)
        self.n_users = len(self.n_relevant)
        wrong = _wrong_hits(user, position, gain, self.n_relevant, self.n_judged, self.n_ranked)
        if wrong:
            raise ValueError(wrong)
        self.user, self.position, self.gain = _sorted_hits(user, position, gain, self.depth)
        self.ideal = _float_matrix(ideal)
        self.given = _float_matrix(given)
        if graded is None:
            graded = ideal is not None
        self.graded = bool(graded)
        self.cut = cut
        if cut is not None:
            self.cut = int(cut)

    def __repr__(self):
        kind = "binary"
        if self.graded:
            kind = "graded"
        cut = ""
        if self.cut is not None:
            cut = f", first {self.cut} of each list"
        return f"RankingHits({self.n_users} users, {len(self.user)} hits, {kind}{cut})"

    @property
    def depth(self):
        """The longest ranked list."""
        return int(self.n_ranked.max(initial=0))

    def matrix(self, k=None):
        """The users x k hit matrix: gains at each rank (booleans for binary relevance)."""
        if k is None:
            k = self.depth
        user, position, gain = self.within(int(k))
        if self.graded:
            out = np.zeros((self.n_users, int(k)))
            out[user, position] = gain
        else:
            out = np.zeros((self.n_users, int(k)), dtype=bool)
            out[user, position] = True
        return out

    def _grades(self, grades, width):
        """``grades`` (users x some width) cut or padded with 0 to ``width``; None: R ones."""
        if grades is None:
            ranks = np.arange(width)
            return (ranks < self.n_relevant[:, None]).astype(np.float64)
        missing = max(0, width - grades.shape[1])
        return np.pad(grades[:, :width], ((0, 0), (0, missing)))

    def ideal_grades(self, width):
        """The ideal (decreasing) grades of each user's relevant items, n_users x width."""
        return self._grades(self.ideal, width)

    def given_grades(self, width):
        """The grades in the order given (Spark's ideal), n_users x width."""
        if self.given is None:
            return self._grades(self.ideal, width)
        return self._grades(self.given, width)

    def within(self, k, judged=False):
        """``(user, position, gain)`` of the hits in the top k (k=None: all).

        Relevant hits (gain > 0) only, unless ``judged`` (every judged item, Spark).
        """
        keep = None
        if self.graded and not judged:
            keep = self.gain > 0
        if k is not None:
            in_top_k = self.position < k
            if keep is None:
                keep = in_top_k
            else:
                keep = keep & in_top_k
        if keep is None:
            return self.user, self.position, self.gain
        return self.user[keep], self.position[keep], self.gain[keep]

    def hits_at(self, k, judged=False):
        """Per user, the number of relevant (or judged) items in the top k (hits@k)."""
        user = self.within(k, judged)[0]
        return np.bincount(user, minlength=self.n_users)

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
        graded = any(part.graded for part in parts)
        ideal = given = None
        if graded:
            ideal, given = _stacked_grades(parts)
        first_users = np.cumsum([0] + [part.n_users for part in parts])
        user = np.concatenate([part.user + first for part, first in zip(parts, first_users)])
        cuts = [part.cut for part in parts if part.cut is not None]
        cut = None
        if cuts:
            cut = min(cuts)   # the stack serves the cut-offs every part serves
        return cls(user, _stacked(parts, "position"), _stacked(parts, "gain"),
                   _stacked(parts, "n_relevant"), _stacked(parts, "n_ranked"), ideal, given,
                   graded, _stacked(parts, "n_judged"), cut)

    def __add__(self, other):
        if not isinstance(other, RankingHits):
            return NotImplemented
        return RankingHits.concat([self, other])

    __radd__ = sum_from_zero


def _int64_vector(values):
    return np.asarray(values, dtype=np.int64).reshape(-1)


def _float_matrix(values):
    """``values`` as a float64 array, or None."""
    if values is None:
        return None
    return np.asarray(values, dtype=np.float64)


def _stacked(parts, attribute):
    return np.concatenate([getattr(part, attribute) for part in parts])


def _stacked_grades(parts):
    """The parts' ideal and given grades, each padded to the widest part, stacked."""
    r_max = [int(part.n_relevant.max(initial=0)) for part in parts]
    ideal = np.concatenate([part.ideal_grades(max(r_max)) for part in parts])
    widths = []
    for part, r in zip(parts, r_max):
        if part.given is None:
            widths.append(r)
        else:
            widths.append(part.given.shape[1])
    given = np.concatenate([part.given_grades(max(widths)) for part in parts])
    return ideal, given


def _sorted_hits(user, position, gain, depth):
    """The hits sorted by user, then position; two hits of a user at one position are refused."""
    key = user * (depth + 1) + position
    if (key[1:] > key[:-1]).all():
        return user, position, gain
    order = np.argsort(key, kind="stable")
    key = key[order]
    if (key[1:] == key[:-1]).any():
        raise ValueError("position: a user has two hits at the same position")
    return user[order], position[order], gain[order]


def _wrong_hits(user, position, gain, n_relevant, n_judged, n_ranked):
    """What is wrong with hits that cannot come from ranked lists (by hand or on Spark), or None."""
    n = len(n_relevant)
    if not len(user) == len(position) == len(gain):
        return "user, position and gain have different lengths: one entry per hit"
    if not n == len(n_judged) == len(n_ranked):
        return "n_relevant, n_judged and n_ranked have different lengths: one entry per user"
    negative = (n_relevant < 0).any() or (n_ranked < 0).any()
    if negative or (n_judged < n_relevant).any():
        return "n_relevant and n_ranked must be >= 0 and n_judged >= n_relevant"
    if not len(user):
        return _wrong_gain(gain)
    if user.min() < 0 or user.max() >= n:
        return f"user must be between 0 and {n - 1} (the users)"
    if position.min() < 0 or (position >= n_ranked[user]).any():
        return "position must be between 0 and the length of the user's list - 1"
    return _wrong_gain(gain)


def _wrong_gain(gain):
    if not (gain >= 0).all():
        return "gain must be >= 0: a hit is a judged item"
    return None


def _demo():
    """Two users, for the doctests: ranked [[1, 2, 3], [4, 5, 6]], relevant [{1, 3}, {5, 7, 8}]."""
    return (np.array([1, 2, 3, 4, 5, 6]), np.array([0, 3, 6]), np.array([1, 3, 5, 7, 8]),
            np.array([0, 2, 5]), None)


# -- item ids -> codes ------------------------------------------------------------------------


def encode_items(a, b):
    """Integer codes 0..C-1 for two arrays of validated item ids: ``(codes_a, codes_b, C)``.

    Integers in a compact range are shifted (no sort); anything else goes
    through one :func:`numpy.unique` (or a dict, for object ids).

    >>> ca, cb, c = encode_items(np.array([10, 12]), np.array([11]))
    >>> ca.tolist(), cb.tolist(), c
    ([0, 2], [1], 3)
    """
    if a.dtype.kind == "f" or b.dtype.kind == "f":
        a, b = _whole_floats_as_integers(a, b)
    integers = a.dtype.kind in "iu" and b.dtype.kind in "iu"
    if integers and len(a) + len(b):
        shifted = _shifted(a, b)
        if shifted is not None:
            return shifted
    if a.dtype == object or b.dtype == object:
        return _codes_by_dict(a, b)
    uniq, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    codes = codes.reshape(-1)
    return codes[:len(a)], codes[len(a):], max(len(uniq), 1)


def _whole_floats_as_integers(a, b):
    """Float ids that are all whole numbers below 2^53, as int64; other ids unchanged."""
    both = np.concatenate([a, b]).astype(np.float64)
    whole = np.array_equal(both, np.round(both)) and (np.abs(both) < 2 ** 53).all()
    if not whole:
        return a, b
    return a.astype(np.int64), b.astype(np.int64)


def _shifted(a, b):
    """Integer ids in a compact range as codes from 0 (a shift, no sort); None when spread out."""
    a = a.astype(np.int64, copy=False)
    b = b.astype(np.int64, copy=False)
    lo = min(int(a.min(initial=2 ** 62)), int(b.min(initial=2 ** 62)))
    hi = max(int(a.max(initial=-2 ** 62)), int(b.max(initial=-2 ** 62)))
    if hi - lo >= 4 * (len(a) + len(b)) + (1 << 16):
        return None
    if lo == 0:
        return a, b, hi + 1
    return a - lo, b - lo, hi - lo + 1


def _codes_by_dict(a, b):
    """Codes in order of first appearance, for ids numpy cannot sort (object arrays)."""
    lookup = {}
    both = itertools.chain(a, b)
    codes = np.fromiter((lookup.setdefault(v, len(lookup)) for v in both), dtype=np.int64,
                        count=len(a) + len(b))
    return codes[:len(a)], codes[len(a):], max(len(lookup), 1)


# -- the hits ------------------------------------------------------------------------------------


def search(query_codes, query_offsets, row_codes, row_offsets, n_codes, check_queries=False):
    """Each query's position in its user's row (a :class:`~evalkit._hit_search.Search`).

    Through the lookup table where it fits (:mod:`evalkit._hit_table`), else by
    sorting (:mod:`evalkit._hit_search`); the answers are the same.
    """
    n_users = len(row_offsets) - 1
    if fits(n_users, n_codes):
        return search_by_table(query_codes, query_offsets, row_codes, row_offsets, n_codes,
                               check_queries)
    return search_by_sorting(query_codes, query_offsets, row_codes, row_offsets, n_codes,
                             check_queries)


_ONCE = {"ranked": "a ranked list holds each item once",
         "relevant": "list each relevant item once"}


def _refuse_repeat(repeat, argument_of, lists, names):
    """Raise for the first repeated item a search found, naming its list and the item.

    ``argument_of`` maps the search's sides ("rows", "queries") to "ranked" or
    "relevant", ``lists`` those to their (items, offsets), ``names`` to the names
    the message gives them.
    """
    if repeat is None:
        return
    side, at = repeat
    argument = argument_of[side]
    items, offsets = lists[argument]
    user = int(np.searchsorted(offsets, at, side="right") - 1)
    item = items[at:at + 1].tolist()[0]
    raise ValueError(f"{names[argument]}[{user}] repeats the item {item!r}: {_ONCE[argument]}")


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
    ranked_codes, judged_codes, n_codes = encode_items(r_items, t_items)
    lists = {"ranked": (r_items, r_off), "relevant": (t_items, t_off)}
    names = dict(zip(("ranked", "relevant"), names))
    if grades is None:
        gains = np.ones(len(judged_codes))
    else:
        gains = np.asarray(grades, dtype=np.float64)
    if repeats == "error":   # each judged item in its user's ranked list
        found = search(judged_codes, t_off, ranked_codes, r_off, n_codes, check_queries=True)
        _refuse_repeat(found.repeat, {"rows": "ranked", "queries": "relevant"}, lists, names)
        user = rows_of(t_off)[found.found]
        position = found.position
        gain = gains[found.found]
    else:   # each ranked item in its user's judged items: a list may repeat an item (Spark)
        found = search(ranked_codes, r_off, judged_codes, t_off, n_codes)
        _refuse_repeat(found.repeat, {"rows": "relevant"}, lists, names)
        user = rows_of(r_off)[found.found]
        position = found.found - r_off[user]
        gain = gains[t_off[user] + found.position]
    return _with_counts(user, position, gain, r_off, t_off, grades)


def _with_counts(user, position, gain, r_off, t_off, grades):
    """The hits with each user's R, judged items and list length (and grades, when graded)."""
    n_users = len(r_off) - 1
    n_judged = np.diff(t_off)
    if grades is None:
        return RankingHits(user, position, gain, n_judged, np.diff(r_off), graded=False,
                           n_judged=n_judged)
    grades = np.asarray(grades, dtype=np.float64)
    judged_user = rows_of(t_off)
    n_relevant = np.bincount(judged_user[grades > 0], minlength=n_users)
    # the grades as given, and sorted: the ideal order (zeros last)
    given = np.zeros((n_users, int(n_judged.max(initial=0))))
    given[judged_user, np.arange(len(grades)) - t_off[judged_user]] = grades
    best_first = np.sort(given, axis=1)[:, ::-1]
    ideal = best_first[:, :int(n_relevant.max(initial=0))]
    return RankingHits(user, position, gain, n_relevant, np.diff(r_off), ideal, given,
                       graded=True, n_judged=n_judged)
