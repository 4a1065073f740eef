"""The hit search through a lookup table: the answers of :mod:`evalkit._hit_search`, faster.

The plain search sorts one key per (user, item). When the catalogue is small
(C item codes), a table of ``users x C`` small integers needs no sort. For a
block of users at a time:

1. write each ranked item's position into its (user, item) cell;
2. read the cells back: an item its row repeats reads back the position of
   its last copy, not its own, which names the repeat;
3. read each judged item's cell: the position of that item in the user's row.

The table is never cleared (clearing costs as much as the search): a cell the
block did not write holds whatever an earlier block left there. So every
position read in step 3 is verified against the row it points into -- inside
the user's row, and holding that very item -- and a stale one is a miss.

Used when a block of at least 16 users (or of all of them, if fewer) fits in
:data:`TABLE_SIZE` cells (:func:`fits`); ``tests/test_hit_search.py`` holds it
equal to the plain search on random inputs, across block edges.
"""

from __future__ import annotations

import numpy as np

from ._hit_search import Search

__all__ = ["TABLE_SIZE", "fits", "search_by_table"]

TABLE_SIZE = 1 << 22   # cells of the table, a few MB


def _users_per_block(n_users, n_codes):
    return min(TABLE_SIZE // max(n_codes, 1), n_users)


def fits(n_users, n_codes):
    """True when the table holds a block of 16 users (or all of them, if fewer)."""
    return _users_per_block(n_users, n_codes) >= min(16, n_users)


def _cell_type(width):
    """The smallest unsigned integer type that holds positions 0..width-1 (then int64)."""
    if width <= 255:
        return np.uint8
    if width <= 65535:
        return np.uint16
    return np.int64


class _Block:
    """The users u0..u1-1: their slices of the rows and of the queries, their table cells."""

    def __init__(self, u0, u1, row_offsets, query_offsets, n_codes):
        self.u0 = u0
        self.u1 = u1
        self.rows = slice(int(row_offsets[u0]), int(row_offsets[u1]))
        self.queries = slice(int(query_offsets[u0]), int(query_offsets[u1]))
        # each user's first cell: a block's users share the table
        self.base = np.arange(u1 - u0, dtype=np.int64) * n_codes


def _first_overwritten(table, cells, positions):
    """Write the positions, read them back: the first entry whose cell a later copy took.

    Of repeated cells numpy keeps the last value written, so every copy but
    the last reads back another position. None when no cell repeats.
    """
    table[cells] = positions
    overwritten = table[cells] != positions
    if not overwritten.any():
        return None
    return int(np.argmax(overwritten))


class _TableSearch:
    """One search through the table: its inputs, the table, and what was found so far."""

    def __init__(self, query_codes, query_offsets, row_codes, row_offsets, n_codes,
                 check_queries):
        self.query_codes = query_codes
        self.query_offsets = query_offsets
        self.row_codes = row_codes
        self.row_offsets = row_offsets
        self.n_codes = n_codes
        self.n_users = len(row_offsets) - 1
        self.row_lengths = np.diff(row_offsets)
        self.query_users = np.repeat(np.arange(self.n_users), np.diff(query_offsets))
        self.is_found = np.zeros(len(query_codes), dtype=bool)
        self.position = np.zeros(len(query_codes), dtype=np.int64)
        # the table: zeros of the smallest type that holds every position written
        width = int(self.row_lengths.max(initial=0))
        if check_queries:
            width = max(width, int(np.diff(query_offsets).max(initial=0)))
        self.dtype = _cell_type(width)
        self.per_block = max(_users_per_block(self.n_users, self.n_codes), 1)
        self.table = np.zeros(self.per_block * self.n_codes, dtype=self.dtype)

    def blocks(self):
        for u0 in range(0, self.n_users, self.per_block):
            u1 = min(self.n_users, u0 + self.per_block)
            yield _Block(u0, u1, self.row_offsets, self.query_offsets, self.n_codes)

    def write_rows(self, block):
        """Step 1 and 2: the first entry of the block's rows that its row repeats, or None."""
        lengths = self.row_lengths[block.u0:block.u1]
        codes = self.row_codes[block.rows]
        if len(lengths) and (lengths == lengths[0]).all():   # rows of one length: a reshape
            width = int(lengths[0])
            cells = codes.reshape(len(lengths), width) + block.base[:, None]
            positions = np.arange(width, dtype=self.dtype)
            positions = np.broadcast_to(positions, (len(lengths), width))
            return _first_overwritten(self.table, cells.reshape(-1), positions.reshape(-1))
        cells = np.repeat(block.base, lengths) + codes
        starts = self.row_offsets[block.u0:block.u1] - block.rows.start
        positions = np.arange(len(codes)) - np.repeat(starts, lengths)
        return _first_overwritten(self.table, cells, positions.astype(self.dtype))

    def query_cells(self, block):
        """The cells of the block's queries."""
        users = self.query_users[block.queries]
        return block.base[users - block.u0] + self.query_codes[block.queries]

    def look_up(self, block, cells):
        """Step 3: each of the block's queries, read from its cell and verified in its row."""
        users = self.query_users[block.queries]
        codes = self.query_codes[block.queries]
        got = self.table[cells].astype(np.int64)
        inside = got < self.row_lengths[users]
        # read the row there (at the row's start where ``got`` lies outside: that read is
        # discarded; clipped for an empty last row)
        at = self.row_offsets[users] + np.where(inside, got, 0)
        at = np.minimum(at, len(self.row_codes) - 1)
        self.is_found[block.queries] = inside & (self.row_codes[at] == codes)
        self.position[block.queries] = got

    def write_queries(self, block, cells):
        """The first of the block's queries that its row repeats (a flat index), or None."""
        users = self.query_users[block.queries]
        starts = self.query_offsets[users] - block.queries.start
        positions = np.arange(len(cells)) - starts
        return _first_overwritten(self.table, cells, positions.astype(self.dtype))

    def found(self):
        found = np.flatnonzero(self.is_found)
        return Search(found, self.position[found], None)


def search_by_table(query_codes, query_offsets, row_codes, row_offsets, n_codes,
                    check_queries=False):
    """Each query's position in its user's row, through the table (see the module).

    Same arguments and answers as :func:`evalkit._hit_search.search_by_sorting`;
    only for inputs that :func:`fits`.
    """
    search = _TableSearch(query_codes, query_offsets, row_codes, row_offsets, n_codes,
                          check_queries)
    nothing = np.zeros(0, dtype=np.int64)
    query_repeat = None
    for block in search.blocks():
        repeat = search.write_rows(block)
        if repeat is not None:
            return Search(nothing, nothing, ("rows", block.rows.start + repeat))
        cells = search.query_cells(block)
        if block.rows.stop > block.rows.start:
            search.look_up(block, cells)
        if check_queries and query_repeat is None:
            repeat = search.write_queries(block, cells)   # the queries' own repeats, alike
            if repeat is not None:
                query_repeat = block.queries.start + repeat
    if query_repeat is not None:
        return Search(nothing, nothing, ("queries", query_repeat))
    return search.found()
