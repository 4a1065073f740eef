"""The sweep's fast path (evalkit._sweep_packed) held to the plain sweep, on random input.

The oracle is :func:`evalkit._sweep.sorted_sweep` -- a stable descending sort,
the indices where the score changes, a cumulative sum -- itself checked
against a sweep written out threshold by threshold in plain Python. Blocks
and runs are shrunk to a few keys, so block edges cut groups of ties everywhere.
"""

from __future__ import annotations

import numpy as np
import pytest

from evalkit import _sweep_packed
from evalkit._curves import auc_from_groups, pr_bends, roc_bends
from evalkit._sweep import (kept_rows, rank_sum_of, sorted_sweep, stable_descending_order,
                            sweep_of)
from evalkit._sweep_packed import (count_negatives, first_group, key_groups, label_keys,
                                   packed_sweep, rank_sum)

from _sweep_data import assert_rows_are_the_sweep, random_positives, random_scores, sweep_cases, sweeps_equal

#: (keys per block, keys that make a run): numpy's sizes, then tiny ones
BLOCKS = [(1 << 15, 1 << 10), (3, 2), (4, 3), (7, 5), (16, 4)]


@pytest.fixture(params=BLOCKS, ids=lambda b: f"block{b[0]}-run{b[1]}")
def blocks(request, monkeypatch):
    block, run = request.param
    monkeypatch.setattr(_sweep_packed, "BLOCK", block)
    monkeypatch.setattr(_sweep_packed, "RUN", run)
    return block


def brute_sweep(positive, scores, weights):
    """For each distinct score t, highest first: (t, tp, fp) of predicting score >= t."""
    rows = []
    for t in sorted(set(scores.tolist()), reverse=True):
        predicted = scores >= t
        rows.append((t, weights[predicted & positive].sum(), weights[predicted & ~positive].sum()))
    return rows


def test_the_plain_sweep_is_the_sweep_threshold_by_threshold():
    rng = np.random.default_rng(0)
    for positive, scores in sweep_cases(0, 200, max_n=60):
        weighted = rng.random() < 0.5
        weights = np.ones(len(scores), dtype=np.int64)
        if weighted:
            weights = rng.integers(1, 5, len(scores)).astype(np.float64)
            sweep = sorted_sweep(positive, scores, weights)
        else:
            sweep = sorted_sweep(positive, scores)
        t, tp, fp = np.array(brute_sweep(positive, scores, weights)).T
        assert sweep.thresholds.dtype == scores.dtype
        np.testing.assert_array_equal(sweep.thresholds, t)
        np.testing.assert_array_equal(sweep.tps, tp)
        np.testing.assert_array_equal(sweep.fps, fp)
        assert (sweep.n_pos, sweep.n_neg) == (tp[-1], fp[-1])


def test_stable_descending_order_is_a_stable_sort():
    for _, scores in sweep_cases(1, 300):
        n = len(scores)
        # the oracle: numpy's stable sort of the reversed scores, read backwards
        expected = (n - 1 - np.argsort(scores[::-1], kind="stable"))[::-1]
        np.testing.assert_array_equal(stable_descending_order(scores), expected)


@pytest.mark.parametrize("bends", [None, roc_bends, pr_bends], ids=["all", "roc", "pr"])
def test_packed_sweep_equals_the_plain_sweep(blocks, bends):
    compared = plain_only = 0
    for positive, scores in sweep_cases(2 + blocks, 150):
        expected = kept_rows(sorted_sweep(positive, scores), bends)
        arrays = packed_sweep(positive, scores, bends)
        if arrays is None:  # keys would not fit: sweep_of takes the plain path
            assert label_keys(positive, scores) is None
            assert sweeps_equal(sweep_of(positive, scores, bends=bends), expected)
            plain_only += 1
            continue
        assert_rows_are_the_sweep(arrays, expected, scores.dtype)
        compared += 1
    assert compared > 50 and plain_only > 0  # both paths ran


def test_rank_sum_is_the_count_of_the_plain_sweep(blocks):
    compared = 0
    for positive, scores in sweep_cases(10 + blocks, 200):
        packed = label_keys(positive, scores)
        if packed is None:
            continue
        twice_u, n_pos, n_neg = rank_sum(packed[0])
        pos, neg = sorted_sweep(positive, scores).groups()
        tps = np.cumsum(pos)
        expected = int(np.sum(neg * (2 * tps - pos)))  # Σ neg_g (TP_{g-1} + TP_g)
        assert (twice_u, n_pos, n_neg) == (expected, pos.sum(), neg.sum())
        if n_pos and n_neg:
            assert twice_u / (2 * n_pos * n_neg) == auc_from_groups(pos, neg)
            assert rank_sum_of(positive, scores) == (twice_u, n_pos, n_neg)
            compared += 1
    assert compared > 50


def test_long_runs_of_one_score_are_measured_not_read(monkeypatch):
    # runs of equal scores longer than RUN, at block edges and at both ends
    monkeypatch.setattr(_sweep_packed, "BLOCK", 8)
    monkeypatch.setattr(_sweep_packed, "RUN", 4)
    rng = np.random.default_rng(3)
    for _ in range(100):
        sizes = rng.integers(1, 20, int(rng.integers(1, 6)))
        scores = np.repeat(rng.permutation(len(sizes)) / 10, sizes)
        positive = random_positives(rng, len(scores))
        thresholds, tps, fps, _, _ = packed_sweep(positive, scores)
        expected = sorted_sweep(positive, scores)
        assert np.array_equal(thresholds, expected.thresholds)
        assert np.array_equal(tps, expected.tps) and np.array_equal(fps, expected.fps)
        pos, neg = expected.groups()
        twice_u, _, _ = rank_sum(label_keys(positive, scores)[0])
        assert twice_u == int(np.sum(neg * (2 * np.cumsum(pos) - pos)))


def test_keys_that_do_not_fit_take_the_plain_path():
    positive = np.array([True, False, True, False])
    for scores in (np.array([2**60, 2**60 + 1, -3, 7], dtype=np.int64),  # beyond 2**53
                   np.array([0.1, 0.2, 0.3, 0.4], dtype=np.longdouble),
                   np.array([-3.0, 3.0, 0.5, -0.5]),  # flipped keys 2**63 or more apart
                   np.array([-1e300, 1e300, 0.0, 2.5])):
        assert label_keys(positive, scores) is None
        assert rank_sum_of(positive, scores) is None
        assert sweeps_equal(sweep_of(positive, scores), sorted_sweep(positive, scores))
    assert label_keys(positive, np.array([-1.0, 1.5, 0.0, -0.0])) is not None  # these fit


def joined_groups(chunks):
    """The ``(ends, fps)`` of key_groups' chunks, joined."""
    ends, fps = [np.array([], dtype=np.int64)], [np.array([], dtype=np.int64)]
    for chunk_ends, chunk_fps, _ in chunks:
        ends.append(chunk_ends)
        fps.append(chunk_fps)
    return np.concatenate(ends), np.concatenate(fps)


def test_key_groups_continue_a_larger_sweep(monkeypatch):
    # a part of the sorted keys, given the samples and negatives before it, gives the
    # rows of the whole sweep that end in it: what each thread of the parallel path reads
    monkeypatch.setattr(_sweep_packed, "BLOCK", 5)
    monkeypatch.setattr(_sweep_packed, "RUN", 3)
    rng = np.random.default_rng(4)
    checked = 0
    for positive, scores in sweep_cases(5, 200, max_n=80):
        packed = label_keys(positive, scores)
        if packed is None:
            continue
        keys = packed[0]
        whole_ends, whole_fps = joined_groups(key_groups(keys, with_keys=False))
        cut = int(rng.integers(0, len(keys) + 1))
        while 0 < cut < len(keys) and keys[cut] >> 1 == keys[cut - 1] >> 1:
            cut -= 1  # parts begin at a new score
        before = count_negatives(keys[:cut])
        ends, fps = joined_groups(key_groups(keys[cut:], with_keys=False, start=cut, carry=before))
        later = whole_ends >= cut
        np.testing.assert_array_equal(ends, whole_ends[later])
        np.testing.assert_array_equal(fps, whole_fps[later])
        if cut < len(keys):
            first_pos, first_neg = first_group(keys[cut:])
            row = np.flatnonzero(later)[0]
            assert whole_ends[row] + 1 - whole_fps[row] == cut - before + first_pos
            assert whole_fps[row] == before + first_neg
        checked += 1
    assert checked > 100


def test_count_negatives_across_blocks(blocks):
    rng = np.random.default_rng(6)
    for _ in range(50):
        n = int(rng.integers(0, 100))
        positive = random_positives(rng, n)
        packed = label_keys(positive, random_scores(rng, n))
        if packed is not None:
            assert count_negatives(packed[0]) == np.count_nonzero(~positive)
