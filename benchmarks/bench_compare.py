"""Comparing models: evalkit.compare vs calling evalkit's single-metric bootstrap in a loop.

Target (issue 27): 5 models x 4 metrics x 10^5 samples with 1,000 resamples in seconds,
against the loop that builds the same table from evalkit's one-metric functions
(``bootstrap_ci`` per model and metric for the intervals, ``paired_bootstrap`` per pair
and metric for the p-values: 20 + 40 calls, each drawing its own resamples), and, when
ranx imports, against ranx's ``compare`` on a ranking workload of the same size.

The reference loops take minutes (``python benchmarks/run.py compare --repeat 1``).
Each check compares the intervals of the values: different random resamples, so
within a Monte-Carlo tolerance, not exactly.
"""

import functools
import itertools

import numpy as np

import evalkit as ek
from _harness import Call, Workload, quiet

N, MODELS, B = 10**5, 5, 1000
SCORE_METRICS = ["roc_auc", "average_precision", "accuracy", "f1"]
LABEL_METRICS = ["accuracy", "precision", "recall", "f1"]
_FUNCTIONS = {"roc_auc": ek.roc_auc_score, "average_precision": ek.average_precision_score,
              "accuracy": ek.accuracy_score, "precision": ek.precision_score,
              "recall": ek.recall_score, "f1": ek.f1_score}


@functools.lru_cache(maxsize=None)
def _scores(decimals):
    """Five models' probabilities (a logistic of binormal scores), better and better; 30 % positive."""
    rng = np.random.default_rng(0)
    y = (rng.random(N) < 0.3).astype(np.int64)
    models = {f"m{i}": 1 / (1 + np.exp(-rng.normal(-1.0 + (0.8 + 0.1 * i) * y, 1.0)))
              for i in range(MODELS)}
    if decimals is not None:
        models = {k: np.round(v, decimals) for k, v in models.items()}
    return y, models


def scores_3_decimals():
    y, models = _scores(3)
    return Call(y, models, SCORE_METRICS, threshold=0.5)


def labels_only():
    y, models = _scores(3)
    return Call(y, {k: (v >= 0.5).astype(np.int64) for k, v in models.items()}, LABEL_METRICS)


def run_compare(y, models, metrics, threshold=None):
    return ek.compare(y, models, metrics, threshold=threshold, n_resamples=B, random_state=0)


def loop_table(y, models, metrics, threshold=None):
    """The same table from one-metric calls: an interval per model and metric, a p-value per pair."""
    labels = {k: (v >= threshold).astype(np.int64) if threshold is not None else v for k, v in models.items()}
    intervals, p_values = {}, []
    for metric in metrics:
        fn = _FUNCTIONS[metric]
        use = models if metric in ("roc_auc", "average_precision") else labels
        for m in models:
            intervals[m, metric] = ek.bootstrap_ci(fn, y, use[m], n_resamples=B, random_state=0).interval
        p_values += [ek.paired_bootstrap(fn, y, use[a], use[b], n_resamples=B, random_state=0).p_value
                     for a, b in itertools.combinations(models, 2)]
    return intervals, p_values


def same_intervals(ours, theirs):
    intervals, p_values = theirs
    for (m, metric), (low, high) in intervals.items():
        i, j = ours.models.index(m), ours.metrics.index(metric)
        assert abs(ours.low[i, j] - low) < 0.004 and abs(ours.high[i, j] - high) < 0.004, (
            m, metric, (ours.low[i, j], ours.high[i, j]), (low, high))
    assert len(p_values) == len(ours.pairs)


WORKLOADS = [
    Workload(
        name="compare 5 models x 4 metrics (AUC, AP, acc, F1), 10^5 scores, 1000 resamples",
        setup=scores_3_decimals,
        evalkit=run_compare,
        reference=quiet(loop_table),
        reference_name="evalkit loop",
        check=same_intervals,
        repeat=1,
        note="scores to 3 decimals; the loop: 20 bootstrap_ci + 40 paired_bootstrap calls; "
             "compare draws one set of resamples of the joint cells for all models and metrics",
    ),
    Workload(
        name="compare 5 models x 4 label metrics, 10^5 labels, 1000 resamples",
        setup=labels_only,
        evalkit=run_compare,
        reference=quiet(loop_table),
        reference_name="evalkit loop",
        check=same_intervals,
        note="(actual, 5 predictions) cells: 64 multinomial counts per resample",
    ),
]


def _ranking_workload():
    """10^3 queries' lists of 100 docs (10^5 scores per run) from 5 runs vs ranx's compare."""
    ranx = __import__("ranx")
    metrics = ["ndcg@10", "map@100", "mrr", "precision@10"]

    def setup():
        rng = np.random.default_rng(1)
        queries, docs = N // 100, 100  # 10^5 scored (query, doc) pairs per run, as above
        qrels = {f"q{q}": {f"d{d}": 1 for d in rng.choice(docs, 5, replace=False)}
                 for q in range(queries)}
        runs = {}
        for m in range(MODELS):
            run = {}
            for q, rel in qrels.items():
                s = rng.normal(0, 1, docs)
                s[[int(d[1:]) for d in rel]] += 0.3 * (m + 1)
                run[q] = {f"d{d}": float(s[d]) for d in range(docs)}
            runs[f"m{m}"] = run
        return qrels, runs

    def ours(qrels, runs):
        return ek.compare(qrels, runs, metrics, test="permutation", n_resamples=B,
                          random_state=0, convention="ranx")

    def theirs(qrels, runs):  # the Qrels and Run objects are built inside, as ours reads dicts
        return ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()],
                            metrics, stat_test="fisher", n_permutations=B).to_dict()

    def same_values(ours, theirs):
        expect = [[theirs[m]["scores"][q] for q in metrics] for m in ours.models]
        np.testing.assert_allclose(ours.values, expect, rtol=1e-9)

    return Workload(name="compare 5 runs x 4 ranking metrics, 10^3 queries x 100 docs, "
                         "1000 permutations",
                    setup=setup, evalkit=ours, reference=theirs, reference_name="ranx compare",
                    check=same_values, repeat=1,
                    note="ranking: both a paired randomization test (Fisher's) per pair and "
                         "metric, 1000 permutations; evalkit adds the bootstrap intervals and "
                         "Holm; ranx's numba compilation happens in its warm-up call")


try:
    WORKLOADS.append(_ranking_workload())
except ImportError:  # ranx is in the bench extra; without it the ranking workload is left out
    pass
