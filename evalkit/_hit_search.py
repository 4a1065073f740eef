"""Where each judged item sits in its user's ranked list: the plain search, by sorting.

The rows searched (say, the users' ranked lists) and the queries (the users'
judged items) arrive flat, with row offsets, as integer item codes 0..C-1
(:func:`evalkit._hits.encode_items`). Every entry gets one integer key,

    key = user · C + item code,

so two entries have the same key exactly when they are the same item in the
same user's row. Sorting the rows' keys puts a repeated item next to its copy,
and :func:`numpy.searchsorted` finds each query's key among them; the sort
order maps a found key back to its place in the row.

This is the algorithm to read first. :mod:`evalkit._hit_table` gets the same
answers faster when the catalogue is small enough for a lookup table, and
``tests/test_hit_search.py`` holds the two equal.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Search", "rows_of", "search_by_sorting"]


class Search(NamedTuple):
    """What a search of the rows found for the queries.

    Attributes
    ----------
    found : int64 array
        The indices of the queries that their user's row holds, increasing.
    position : int64 array
        For each found query, its 0-based position in that row.
    repeat : tuple or None
        The first repeated item, as ``(which, i)``: ``("rows", i)``, i being the
        flat index of the first entry that its row holds again later (rows in
        order, then entries in order); else, when the queries are checked,
        ``("queries", i)`` in the same way; None when nothing repeats. After a
        repeat, ``found`` and ``position`` are empty.
    """

    found: np.ndarray
    position: np.ndarray
    repeat: tuple | None


def rows_of(offsets):
    """The row of every entry of rows given by their offsets (row i: offsets[i]:offsets[i+1])."""
    lengths = np.diff(offsets)
    rows = np.arange(len(lengths), dtype=np.int64)
    return np.repeat(rows, lengths)


def _keys(codes, offsets, n_codes):
    """One key per entry: its row times ``n_codes`` plus its item code."""
    return rows_of(offsets) * n_codes + codes


def _first_repeat(order, sorted_keys):
    """The flat index of the first entry whose key comes again later, or None.

    ``order`` is a stable argsort of the keys, so of two equal keys side by
    side the first is the earlier entry.
    """
    same_as_next = sorted_keys[:-1] == sorted_keys[1:]
    if not same_as_next.any():
        return None
    earlier = order[:-1][same_as_next]
    return int(earlier.min())


def _query_repeat(codes, offsets, n_codes):
    """The first entry of the queries that its row holds again later, or None."""
    keys = _keys(codes, offsets, n_codes)
    order = np.argsort(keys, kind="stable")
    return _first_repeat(order, keys[order])


def search_by_sorting(query_codes, query_offsets, row_codes, row_offsets, n_codes,
                      check_queries=False):
    """Each query's position in its user's row, found by sorting keys (see the module).

    Parameters
    ----------
    query_codes, query_offsets : int64 arrays
        The queries, flat, and their rows' offsets (one row per user).
    row_codes, row_offsets : int64 arrays
        The rows searched, flat, and their offsets (as many users).
    n_codes : int
        The number of item codes, C.
    check_queries : bool
        Also look for an item repeated in a row of the queries.

    Returns
    -------
    Search
    """
    row_keys = _keys(row_codes, row_offsets, n_codes)
    order = np.argsort(row_keys, kind="stable")
    sorted_keys = row_keys[order]
    nothing = np.zeros(0, dtype=np.int64)
    repeat = _first_repeat(order, sorted_keys)
    if repeat is not None:
        return Search(nothing, nothing, ("rows", repeat))
    if check_queries:
        repeat = _query_repeat(query_codes, query_offsets, n_codes)
        if repeat is not None:
            return Search(nothing, nothing, ("queries", repeat))
    query_users = rows_of(query_offsets)
    query_keys = query_users * n_codes + query_codes
    at = np.searchsorted(sorted_keys, query_keys)
    inside = at < len(sorted_keys)
    is_found = np.zeros(len(query_keys), dtype=bool)
    is_found[inside] = sorted_keys[at[inside]] == query_keys[inside]
    found = np.flatnonzero(is_found)
    entry = order[at[found]]             # where each found query sits in the flat rows
    position = entry - row_offsets[query_users[found]]
    return Search(found, position, None)
