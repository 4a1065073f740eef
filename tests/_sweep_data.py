"""Random input for the sweep's tests: scores of every kind the sweep's paths treat apart."""

from __future__ import annotations

import numpy as np


def random_scores(rng, n):
    """Scores of a random kind: distinct, tied, integer, signed, float32, spanning more than
    2**63 key values (the plain path's), or zeros of both signs."""
    kind = rng.choice(["distinct", "ties", "int", "signed", "float32", "wide", "zeros"])
    if kind == "distinct":
        return rng.random(n)
    if kind == "ties":
        return np.round(rng.random(n), 1)
    if kind == "int":
        return rng.integers(-3, 4, n)
    if kind == "signed":
        return np.round(rng.normal(size=n), 2)
    if kind == "float32":
        return np.round(rng.random(n), 2).astype(np.float32)
    if kind == "wide":  # keys spanning more than 2**63: the argsort fallback
        return rng.choice([-1e300, -1.0, 0.0, 2.5, 1e300], n)
    return np.where(rng.random(n) < 0.5, -0.0, 0.0) + np.round(rng.random(n), 0)


def random_positives(rng, n):
    """A positive mask, its share of positives drawn too (all and none included)."""
    share = rng.choice([0.0, 0.02, 0.3, 0.5, 0.9, 1.0])
    return rng.random(n) < share


def sweep_cases(seed, count, max_n=300):
    """``count`` pairs ``(positive mask, scores)`` of random sizes and kinds."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, max_n))
        yield random_positives(rng, n), random_scores(rng, n)


def sweeps_equal(ours, theirs):
    """True when two sweeps hold the same rows, dtypes and totals."""
    same = (ours.thresholds.dtype == theirs.thresholds.dtype
            and np.array_equal(ours.thresholds, theirs.thresholds)
            and np.array_equal(ours.tps, theirs.tps) and np.array_equal(ours.fps, theirs.fps))
    return same and (ours.n_pos, ours.n_neg) == (theirs.n_pos, theirs.n_neg)


def assert_rows_are_the_sweep(arrays, expected, dtype):
    """A fast path's ``(thresholds, tps, fps, n_pos, n_neg)`` hold ``expected``'s rows exactly,
    thresholds of ``dtype`` and integer counts."""
    thresholds, tps, fps, n_pos, n_neg = arrays
    assert thresholds.dtype == dtype and tps.dtype == fps.dtype == np.int64
    np.testing.assert_array_equal(thresholds, expected.thresholds)
    np.testing.assert_array_equal(tps, expected.tps)
    np.testing.assert_array_equal(fps, expected.fps)
    assert (n_pos, n_neg) == (expected.n_pos, expected.n_neg)
