"""Confidence intervals: evalkit's count paths vs the resample-and-call-sklearn loop.

Targets (issue 12):

- bootstrap_ci(f1_score), 2,000 resamples of 10^5 labels: >= 50x faster than a
  loop that resamples the rows (stratified by class, as evalkit does by
  default) and calls sklearn's f1_score on each resample;
- roc_auc_ci(method="delong") on 10^6 scores: within 3x of one roc_auc_score
  call (the row "vs one roc_auc_score" prints "x slower": target <= 3.0x);
- bootstrap_ci(roc_auc_score), 1,000 resamples of 10^5 scores: >= 10x faster
  than the loop with sklearn's roc_auc_score.

The loops take tens of seconds per call (this file takes several minutes;
``python benchmarks/run.py uncertainty --repeat 1`` is quicker). Each check
compares the two intervals: different random resamples, so the ends must
agree within a Monte-Carlo tolerance, not exactly.
"""

import functools

import numpy as np
import sklearn.metrics as skm

import evalkit as ek
from _harness import Call, Workload, quiet
from evalkit import _delong, _delong_blocked

N = 10**5


@functools.lru_cache(maxsize=None)
def _labels():
    rng = np.random.default_rng(0)
    y = (rng.random(N) < 0.3).astype(np.int64)
    yhat = np.where(rng.random(N) < 0.85, y, 1 - y)
    return y, yhat


@functools.lru_cache(maxsize=None)
def _scores(n=N):
    rng = np.random.default_rng(1)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)
    return y, s


def labels_1e5():
    return _labels()


def scores_1e5():
    return _scores()


@functools.lru_cache(maxsize=None)
def scores_1e6():
    """A model's probabilities: a logistic of a binormal score (distinct values)."""
    rng = np.random.default_rng(3)
    y = (rng.random(10**6) < 0.3).astype(np.int64)
    return y, 1 / (1 + np.exp(-rng.normal(-1.0 + 1.2 * y, 1.0)))


def scores_1e6_ties():
    y, p = scores_1e6()
    return y, np.round(p, 3)


def loop_ci(metric, y, pred, *, n_resamples, confidence=0.95, seed=0):
    """The percentile interval the usual way: resample rows (within each class), call metric."""
    rng = np.random.default_rng(seed)
    strata = [np.flatnonzero(y == c) for c in np.unique(y)]
    values = np.empty(n_resamples)
    for b in range(n_resamples):
        idx = np.concatenate([rows[rng.integers(0, len(rows), len(rows))] for rows in strata])
        values[b] = metric(y[idx], pred[idx])
    alpha = (1 - confidence) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return low, high


def close_interval(tolerance):
    def check(ours, theirs):
        low, high = theirs
        assert abs(ours.low - low) < tolerance and abs(ours.high - high) < tolerance, (
            f"evalkit [{ours.low:.5f}, {ours.high:.5f}] vs loop [{low:.5f}, {high:.5f}]")
    return check


def same_auc(ours, theirs):
    assert abs(ours.estimate - theirs) < 1e-12, (ours.estimate, theirs)


def positives_1e6():
    y, p = scores_1e6()
    return y == 1, p


def same_variance(ours, theirs):
    assert ours[0] == theirs[0] and abs(ours[1] - theirs[1]) <= 1e-12 * theirs[1], (ours, theirs)


WORKLOADS = [
    Workload(
        name="bootstrap_ci(f1_score) 2000 resamples, 10^5 labels",
        setup=labels_1e5,
        evalkit=lambda y, p: ek.bootstrap_ci(ek.f1_score, y, p, n_resamples=2000, random_state=0),
        reference=quiet(lambda y, p: loop_ci(skm.f1_score, y, p, n_resamples=2000)),
        reference_name="sklearn loop",
        check=close_interval(0.002),
        note="target >= 50x faster; evalkit draws the confusion-matrix cells "
             "(multinomial per class) for all resamples at once",
    ),
    Workload(
        name="bootstrap_ci(roc_auc_score) 1000 resamples, 10^5 scores",
        setup=scores_1e5,
        evalkit=lambda y, s: ek.bootstrap_ci(ek.roc_auc_score, y, s, n_resamples=1000,
                                             random_state=0),
        reference=lambda y, s: loop_ci(skm.roc_auc_score, y, s, n_resamples=1000),
        reference_name="sklearn loop",
        check=close_interval(0.002),
        note="target >= 10x faster; evalkit resamples the sweep's score groups as counts",
    ),
    Workload(
        name="roc_auc_ci(delong) 10^6 scores vs one roc_auc_score",
        setup=scores_1e6,
        evalkit=ek.roc_auc_ci,
        reference=ek.roc_auc_score,
        reference_name="evalkit roc_auc_score",
        check=same_auc,
        note="target: within 3x of one roc_auc_score call (the row reads 'x slower')",
    ),
    Workload(
        name="roc_auc_ci(delong) 10^6 tied scores vs one roc_auc_score",
        setup=scores_1e6_ties,
        evalkit=ek.roc_auc_ci,
        reference=ek.roc_auc_score,
        reference_name="evalkit roc_auc_score",
        check=same_auc,
        note="probabilities rounded to 3 decimals: tied groups get one component each",
    ),
    Workload(
        name="DeLong's variance 10^6 scores: blocked vs the plain sweep",
        setup=positives_1e6,
        evalkit=_delong_blocked.auc_variance,
        reference=_delong.auc_variance,
        reference_name="plain sweep",
        check=same_variance,
        note="why roc_auc_ci keeps the blocked path: the plain sweep (its test oracle) builds "
             "the whole curve first",
    ),
    Workload(
        name="roc_auc_ci(delong) 10^6 scores vs sklearn roc_auc_score",
        setup=scores_1e6,
        evalkit=ek.roc_auc_ci,
        reference=skm.roc_auc_score,
        check=same_auc,
        note="the interval costs less than sklearn's point estimate",
    ),
    Workload(
        name="paired_bootstrap(f1_score) 2000 resamples, 10^5 labels",
        setup=lambda: Call(*_labels(), np.where(np.random.default_rng(2).random(N) < 0.9,
                                                _labels()[1], 1 - _labels()[1])),
        evalkit=lambda y, a, b: ek.paired_bootstrap(ek.f1_score, y, a, b, n_resamples=2000,
                                                    random_state=0),
        note="(actual, a, b) cells: 8 multinomial counts per resample",
    ),
]
