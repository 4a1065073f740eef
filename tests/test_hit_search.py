"""The hit search's fast path (the lookup table of evalkit._hit_table) held equal to the plain
sort and search of evalkit._hit_search, on random rows: many users and few, a catalogue too
large for more than one user per block, repeats in the rows and in the queries, empty rows,
positions past 255 and 65535, and every block edge (the table's size set small)."""

from __future__ import annotations

import numpy as np
import pytest

from evalkit import _hit_table
from evalkit._hit_search import search_by_sorting
from evalkit._hit_table import search_by_table


def random_rows(rng, n_users, n_codes, max_length, distinct=True):
    """Flat codes and offsets of one row per user (distinct codes in a row unless not asked)."""
    rows = []
    for _ in range(n_users):
        length = int(rng.integers(0, max_length + 1))
        if distinct:
            length = min(length, n_codes)
            rows.append(rng.choice(n_codes, length, replace=False))
        else:
            rows.append(rng.integers(0, n_codes, length))
    offsets = np.zeros(n_users + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(r) for r in rows])
    codes = np.concatenate(rows).astype(np.int64) if rows else np.zeros(0, np.int64)
    return codes, offsets


def with_repeat(rng, codes, offsets):
    """A copy in which one row of two or more entries repeats its first item at its end."""
    long_rows = np.flatnonzero(np.diff(offsets) >= 2)
    if not len(long_rows):
        return codes
    row = int(rng.choice(long_rows))
    codes = codes.copy()
    codes[offsets[row + 1] - 1] = codes[offsets[row]]
    return codes


def assert_same(query, rows, n_codes, check_queries):
    plain = search_by_sorting(*query, *rows, n_codes, check_queries)
    fast = search_by_table(*query, *rows, n_codes, check_queries)
    assert plain.repeat == fast.repeat
    np.testing.assert_array_equal(plain.found, fast.found)
    np.testing.assert_array_equal(plain.position, fast.position)
    assert fast.found.dtype == plain.found.dtype and fast.position.dtype == np.int64
    return plain


def one_case(rng, n_users, n_codes, max_length):
    rows = random_rows(rng, n_users, n_codes, max_length)
    query = random_rows(rng, n_users, n_codes, 12)
    for check_queries in (False, True):
        plain = assert_same(query, rows, n_codes, check_queries)
        if plain.repeat is None:   # every found query is that item of that row, and no miss is
            row_codes, row_offsets = rows
            query_codes, query_offsets = query
            users = np.repeat(np.arange(n_users), np.diff(query_offsets))
            at = row_offsets[users[plain.found]] + plain.position
            np.testing.assert_array_equal(row_codes[at], query_codes[plain.found])
            missed = np.setdiff1d(np.arange(len(query_codes)), plain.found)
            for j in missed:
                u = users[j]
                assert query_codes[j] not in row_codes[row_offsets[u]:row_offsets[u + 1]]
    repeated_rows = (with_repeat(rng, *rows), rows[1])
    repeated_query = (with_repeat(rng, *query), query[1])
    for check_queries in (False, True):
        found = assert_same(query, repeated_rows, n_codes, check_queries)
        if (np.diff(rows[1]) >= 2).any():    # a repeat was planted: it is named
            assert found.repeat[0] == "rows"
        found = assert_same(repeated_query, rows, n_codes, check_queries)
        if check_queries and (np.diff(query[1]) >= 2).any():
            assert found.repeat[0] == "queries"
        assert_same(repeated_query, repeated_rows, n_codes, check_queries)


@pytest.mark.parametrize("seed", range(20))
def test_the_table_finds_what_the_sort_finds(seed):
    rng = np.random.default_rng(seed)
    n_users = int(rng.choice([1, 2, 5, 16, 17, 40, 300]))
    n_codes = int(rng.choice([1, 3, 30, 1000]))
    one_case(rng, n_users, n_codes, max_length=int(rng.choice([0, 1, 8, 40])))


@pytest.mark.parametrize("per_block", [1, 2, 3, 15, 16, 17])
def test_every_block_edge(per_block, monkeypatch):
    n_codes = 50
    monkeypatch.setattr(_hit_table, "TABLE_SIZE", per_block * n_codes)
    rng = np.random.default_rng(per_block)
    for n_users in (per_block - 1, per_block, per_block + 1, 3 * per_block + 2):
        if n_users >= 1:
            one_case(rng, n_users, n_codes, max_length=20)


def test_rows_of_one_length_and_long_rows():
    rng = np.random.default_rng(1)
    for width in (1, 7, 300, 70_000):
        n_users = max(1, 14_000 // width)
        rows = np.stack([rng.choice(80_000, width, replace=False) for _ in range(n_users)])
        offsets = np.arange(n_users + 1, dtype=np.int64) * width
        # each user's queries: random items, then the last item of the row (positions past
        # 255 and 65535 need wider cells)
        queries = [np.append(rng.integers(0, 80_000, 5), row[-1]) for row in rows]
        query_offsets = np.arange(n_users + 1, dtype=np.int64) * 6
        plain = assert_same((np.concatenate(queries), query_offsets),
                            (rows.reshape(-1), offsets), 80_000, False)
        assert plain.position.max() == width - 1


def test_few_users_over_a_huge_catalogue():
    # the case the sort serves alone (a table of 16 users would not fit): the table, allowed a
    # block of one user, agrees
    rng = np.random.default_rng(2)
    n_codes = 6_000_000
    assert not _hit_table.fits(20, n_codes)
    rows = random_rows(rng, 3, n_codes, 500)
    query = (np.concatenate([rows[0][:5], rng.integers(0, n_codes, 40)]),
             np.array([0, 15, 30, 45]))
    plain = assert_same(query, rows, n_codes, True)
    assert len(plain.found) >= 5
