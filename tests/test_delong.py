"""DeLong's variance: the blocked fast path (``evalkit._delong_blocked``) against the plain
sweep (``evalkit._delong``), and the plain sweep against DeLong's definition.

The fast path reads the sorted keys block by block (``_sweep_packed.BLOCK`` keys each, a run of
``_sweep_packed.RUN`` tied scores measured whole) and merges the blocks' moments; the plain sweep
computes every score group's components at once. They must agree on random scores with ties,
negative scores, long tied runs and several blocks -- each case checks it really ran blocks.
"""

from __future__ import annotations

import numpy as np
import pytest

from evalkit import _delong, _delong_blocked
from evalkit._sweep_packed import BLOCK, RUN, key_groups, label_keys

from _oracle import delong_brute, delong_midranks


def _scores(rng, n, decimals, shift):
    """Binary labels and scores: ties from rounding, a long run of one score, negatives.

    Probabilities (``shift`` 0), or less ``shift``: the sort keys pack scores of one sign,
    or of both when they span little (``_sweep_packed.label_keys``).
    """
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(np.int64)
    y[:4] = [0, 1, 0, 1]
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + y))) - shift
    if decimals is not None:
        s = np.round(s, decimals)
    run = rng.integers(0, n - 2 * RUN)
    s[run:run + 2 * RUN] = s[run]  # a tied run longer than RUN, measured, not read
    return y, s


def _blocks(y, s):
    """How many blocks of sorted keys hold the end of a score group (the fast path's steps)."""
    keys = label_keys(y == 1, s)[0]
    return sum(1 for ends, _, _ in key_groups(keys, with_keys=False) if len(ends))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [None, 3, 1])
def test_blocked_equals_the_plain_sweep_across_blocks(seed, decimals):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2 * BLOCK, 5 * BLOCK))
    y, s = _scores(rng, n, decimals, shift=seed % 2)
    assert label_keys(y == 1, s) is not None and _blocks(y, s) >= 2  # it ran blocks
    auc, var = _delong_blocked.auc_variance(y == 1, s)
    plain_auc, plain_var = _delong.auc_variance(y == 1, s)
    assert auc == plain_auc  # both 2U / 2PN from exact integer counts
    assert var == pytest.approx(plain_var, rel=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_blocked_equals_the_plain_sweep_on_small_inputs(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2 * RUN + 10, 4 * RUN))
    y, s = _scores(rng, n, int(rng.integers(0, 3)), shift=0.5)
    auc, var = _delong_blocked.auc_variance(y == 1, s)
    assert (auc, var) == pytest.approx(_delong.auc_variance(y == 1, s), rel=1e-12)


def test_scores_that_do_not_pack_take_the_plain_sweep():
    rng = np.random.default_rng(7)
    y, s = _scores(rng, 3000, 2, shift=0.0)
    wide = s.astype(np.longdouble)  # no 64-bit key: argsort
    assert label_keys(y == 1, wide) is None
    assert _delong_blocked.auc_variance(y == 1, wide) == _delong.auc_variance(y == 1, wide)


def _few(rng, most):
    """A few binary labels, both classes twice at least."""
    y = rng.integers(0, 2, int(rng.integers(10, most)))
    y[:4] = [0, 1, 0, 1]
    return y


@pytest.mark.parametrize("seed", range(6))
def test_the_plain_sweep_is_delongs_definition(seed):
    rng = np.random.default_rng(200 + seed)
    y = _few(rng, 400)
    s = np.round(rng.normal(size=len(y)) + y, int(rng.integers(0, 3)))
    aucs, cov = delong_brute(y, [s])
    auc, var = _delong.auc_variance(y == 1, s)
    assert auc == pytest.approx(aucs[0], rel=1e-12)
    assert var == pytest.approx(cov[0, 0], rel=1e-9)


def test_the_plain_sweep_equals_midranks_at_scale():
    rng = np.random.default_rng(9)
    y, s = _scores(rng, 3 * BLOCK, 2, shift=0.0)
    auc, var = delong_midranks(y, s)
    assert _delong.auc_variance(y == 1, s) == pytest.approx((auc, var), rel=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_paired_covariance_is_delongs_definition(seed):
    rng = np.random.default_rng(300 + seed)
    y = _few(rng, 300)
    a = np.round(rng.normal(size=len(y)) + y, int(rng.integers(0, 3)))
    b = np.round(0.5 * a + rng.normal(size=len(y)), 1)
    aucs, cov = _delong.paired_covariance(y == 1, a, b)
    expect_aucs, expect_cov = delong_brute(y, [a, b])
    np.testing.assert_allclose(aucs, expect_aucs, rtol=1e-12)
    np.testing.assert_allclose(cov, expect_cov, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("y, words", [([0, 0, 0, 0], "one class"),
                                      ([0, 1, 1, 1], "1 sample of one class")])
def test_two_of_each_class_are_required(y, words):
    with pytest.raises(ValueError, match=f"^y_true has {words}: the AUC's interval needs"):
        _delong.require_two_of_each(np.asarray(y) == 1)
