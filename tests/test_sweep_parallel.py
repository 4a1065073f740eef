"""The sweep on several threads (evalkit._sweep_parallel) held to the plain sweep, and n_threads.

The threaded path starts one thread per half million samples at most; here
that floor is lowered to one sample, so small random inputs are cut into
buckets and sorted on up to four threads, with tiny blocks. Its sweeps and
AUC counts must equal :func:`evalkit._sweep.sorted_sweep`'s; every public
function must give the same numbers whatever ``n_threads``; the default
count follows ``EVALKIT_NUM_THREADS``, read at each call; and calls from
several threads at once keep their own values.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import evalkit as ek
from evalkit import _sweep_packed, _sweep_parallel, _threads
from evalkit._curves import pr_bends, roc_bends
from evalkit._sweep import kept_rows, sorted_sweep, sweep_of
from evalkit._sweep_packed import label_keys, rank_sum
from evalkit._sweep_parallel import bucketed_keys, parallel_rank_sum, parallel_sweep

from _sweep_data import assert_rows_are_the_sweep, random_positives, sweep_cases, sweeps_equal


@pytest.fixture
def small_threshold(monkeypatch):
    """Threads for any input of two samples or more, and blocks of a few keys."""
    monkeypatch.setattr(_threads, "MIN_SAMPLES_PER_THREAD", 1)
    monkeypatch.setattr(_sweep_packed, "BLOCK", 5)
    monkeypatch.setattr(_sweep_packed, "RUN", 3)


@pytest.fixture
def started(monkeypatch):
    """The number of threads of each parallel step of the sweep, as they start."""
    counts = []
    run_all = _threads.run_all

    def counting(steps):
        counts.append(len(steps))
        return run_all(steps)
    monkeypatch.setattr(_sweep_parallel, "run_all", counting)
    return counts


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("bends", [None, roc_bends, pr_bends], ids=["all", "roc", "pr"])
def test_parallel_sweep_equals_the_plain_sweep(small_threshold, threads, bends):
    compared = 0
    for positive, scores in sweep_cases(threads, 150):
        expected = kept_rows(sorted_sweep(positive, scores), bends)
        used = min(threads, len(scores))
        arrays = parallel_sweep(positive, scores, bends, used)
        if arrays is None:
            assert label_keys(positive, scores) is None
            continue
        assert_rows_are_the_sweep(arrays, expected, scores.dtype)
        assert sweeps_equal(sweep_of(positive, scores, bends=bends, n_threads=threads), expected)
        compared += 1
    assert compared > 50


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_parallel_rank_sum_equals_the_single_thread_count(small_threshold, threads):
    compared = 0
    for positive, scores in sweep_cases(10 + threads, 200):
        packed = label_keys(positive, scores)
        if packed is None:
            assert parallel_rank_sum(positive, scores, 2) is None
            continue
        expected = rank_sum(packed[0])
        assert parallel_rank_sum(positive, scores, min(threads, len(scores))) == expected
        compared += 1
    assert compared > 50


def test_buckets_are_cut_between_groups_of_ties(small_threshold):
    cut_somewhere = 0
    for positive, scores in sweep_cases(20, 200):
        bucketed = bucketed_keys(positive, scores, min(3, len(scores)))
        if bucketed is None:
            continue
        keys, _, bounds = bucketed
        assert bounds[0] == 0 and bounds[-1] == len(keys) and np.all(np.diff(bounds) > 0)
        scores_of_keys = keys >> 1
        for a, b, c in zip(bounds, bounds[1:], bounds[2:]):
            # every key of a bucket sorts before the next bucket's, and no score is in both
            assert keys[a:b].view(np.int64).max() < keys[b:c].view(np.int64).min()
            assert not np.isin(scores_of_keys[a:b], scores_of_keys[b:c]).any()
            cut_somewhere += 1
    assert cut_somewhere > 100


@pytest.mark.parametrize("scores", [
    np.zeros(50),                                    # one score: one bucket
    np.r_[np.zeros(45), np.ones(5)],                 # nearly one score
    np.r_[np.full(20, 0.3), np.full(20, 0.7), 0.5],  # two big groups either side of the middle
    np.repeat(np.arange(5) / 4, 10),
], ids=["one score", "nearly one", "two groups", "five groups"])
def test_heavy_ties_at_the_cut_points(small_threshold, scores):
    positive = random_positives(np.random.default_rng(len(scores)), len(scores))
    expected = sorted_sweep(positive, scores)
    for threads in (2, 3, 4):
        assert sweeps_equal(sweep_of(positive, scores, n_threads=threads), expected)
        for bends in (roc_bends, pr_bends):
            assert sweeps_equal(sweep_of(positive, scores, bends=bends, n_threads=threads),
                                kept_rows(expected, bends))
        assert parallel_rank_sum(positive, scores, threads) == rank_sum(label_keys(positive,
                                                                                   scores)[0])


CALLS = {
    "roc_auc_score": lambda y, s, **kw: ek.roc_auc_score(y, s, **kw),
    "roc_auc_score max_fpr": lambda y, s, **kw: ek.roc_auc_score(y, s, max_fpr=0.3, **kw),
    "roc_curve": lambda y, s, **kw: ek.roc_curve(y, s, **kw),
    "roc_curve all": lambda y, s, **kw: ek.roc_curve(y, s, drop_intermediate=False, **kw),
    "precision_recall_curve": lambda y, s, **kw: ek.precision_recall_curve(y, s, **kw),
    "precision_recall_curve drop": lambda y, s, **kw: ek.precision_recall_curve(
        y, s, drop_intermediate=True, **kw),
    "confusion_matrix_at_thresholds": lambda y, s, **kw: ek.confusion_matrix_at_thresholds(
        y, s, **kw),
    "average_precision_score": lambda y, s, **kw: ek.average_precision_score(y, s, **kw),
    "det_curve": lambda y, s, **kw: ek.det_curve(y, s, **kw),
    "best_threshold": lambda y, s, **kw: ek.best_threshold(y, s, **kw),
    "threshold_table": lambda y, s, **kw: ek.threshold_table(y, s, **kw).to_numpy(),
}


def _identical(a, b):
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("name", list(CALLS))
def test_the_numbers_do_not_depend_on_n_threads(small_threshold, name):
    call = CALLS[name]
    rng = np.random.default_rng(7)
    for n, rounding in ((2, 1), (300, 2), (3000, 3), (3000, 8)):
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = np.round(rng.random(n), rounding)
        expected = call(y, s, n_threads=1)
        for n_threads in (2, 3, None):
            assert _identical(call(y, s, n_threads=n_threads), expected), (n, n_threads)


def test_large_input_runs_on_two_threads_with_numpys_blocks(started):
    # the shipped sizes (no patch): two threads start at a million samples
    n = 2 * _threads.MIN_SAMPLES_PER_THREAD
    rng = np.random.default_rng(8)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(rng.random(n), 4)  # ties, and long runs of them
    one = (ek.roc_auc_score(y, s, n_threads=1), ek.roc_curve(y, s, n_threads=1))
    assert started == []
    two = (ek.roc_auc_score(y, s, n_threads=2), ek.roc_curve(y, s, n_threads=2))
    assert started and set(started) == {2}
    assert _identical(one, two)
    expected = sorted_sweep(y == 1, s)
    assert sweeps_equal(sweep_of(y == 1, s, n_threads=2), expected)


# -- n_threads and EVALKIT_NUM_THREADS ------------------------------------------------


@pytest.mark.parametrize("fn", [ek.roc_auc_score, ek.roc_curve, ek.precision_recall_curve,
                                ek.confusion_matrix_at_thresholds, ek.average_precision_score,
                                ek.det_curve, ek.best_threshold, ek.threshold_table])
def test_n_threads_is_validated(fn):
    y, s = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match=r"^n_threads must be >= 1 \(the threads the call may "
                                         r"use\); got 0"):
        fn(y, s, n_threads=0)
    for wrong in (1.5, "2", True):
        with pytest.raises(TypeError, match="^n_threads must be an integer or None"):
            fn(y, s, n_threads=wrong)


def test_the_default_is_the_usable_cores_at_most_the_environment_cap(monkeypatch):
    monkeypatch.delenv(_threads.ENVIRONMENT, raising=False)
    monkeypatch.setattr(_threads, "_usable_cores", lambda: 6)
    assert _threads.thread_count() == 6
    monkeypatch.setenv(_threads.ENVIRONMENT, "4")  # read at the call, not at import
    assert _threads.thread_count() == 4
    monkeypatch.setenv(_threads.ENVIRONMENT, " 16 ")
    assert _threads.thread_count() == 6
    assert _threads.thread_count(9) == 9  # asked for: used as given
    monkeypatch.setenv(_threads.ENVIRONMENT, "")
    assert _threads.thread_count() == 6


def test_the_environment_cap_reaches_the_sort(small_threshold, started, monkeypatch):
    monkeypatch.setattr(_threads, "_usable_cores", lambda: 3)
    y, s = np.arange(40) % 2, np.arange(40) / 40
    monkeypatch.setenv(_threads.ENVIRONMENT, "1")
    ek.roc_curve(y, s)
    assert started == []
    monkeypatch.setenv(_threads.ENVIRONMENT, "2")
    ek.roc_curve(y, s)
    assert set(started) == {2}
    started.clear()
    monkeypatch.delenv(_threads.ENVIRONMENT)
    ek.roc_auc_score(y, s)
    assert set(started) == {3}


@pytest.mark.parametrize("value", ["two", "0", "-1", "1.5"])
def test_a_wrong_environment_cap_is_named(monkeypatch, value):
    monkeypatch.setenv(_threads.ENVIRONMENT, value)
    message = rf"^EVALKIT_NUM_THREADS must be an integer >= 1 .*; got '{value}'"
    with pytest.raises(ValueError, match=message):
        ek.roc_auc_score([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
    assert ek.roc_auc_score([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], n_threads=1) == 0.5


def test_a_failing_step_is_raised_after_every_step_ended():
    ended = []

    def slow():
        threading.Event().wait(0.05)
        ended.append("slow")

    def fail():
        raise KeyError("boom")
    with pytest.raises(KeyError, match="boom"):
        _threads.run_all([fail, slow])
    assert ended == ["slow"]
    assert _threads.run_all([lambda: 1, lambda: 2, lambda: 3]) == [1, 2, 3]


def test_threaded_calls_from_many_threads_keep_their_own_values(small_threshold):
    inputs = []
    rng = np.random.default_rng(9)
    for _ in range(6):
        n = int(rng.integers(200, 2000))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        inputs.append((y, np.round(rng.random(n), int(rng.integers(1, 4)))))
    expected = [(ek.roc_auc_score(y, s, n_threads=1), ek.roc_curve(y, s, n_threads=1))
                for y, s in inputs]
    assert len({auc for auc, _ in expected}) > 1  # the threads' answers differ
    start = threading.Barrier(len(inputs))
    wrong = []

    def work(i):
        y, s = inputs[i]
        start.wait()
        for _ in range(20):
            got = (ek.roc_auc_score(y, s, n_threads=3), ek.roc_curve(y, s, n_threads=2))
            if not _identical(got, expected[i]):
                wrong.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
