"""Thread safety: metrics scored at once from several threads give their single-threaded values.

The issue's race: evalkit.ranking kept the last lists and their hits in a module-level cache,
so precision@1 of one list could come back computed on another thread's lists. Each
thread here scores its own random lists, many times, while the others score theirs;
every result is compared with the value computed beforehand on one thread. A second test
checks that no module of evalkit holds a container that a metric call changes.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

import numpy as np
import pytest

import evalkit as ek

N_THREADS, N_ITERATIONS = 8, 200
CALLS = {
    "precision@1": lambda r, t: ek.precision_at_k(r, t, 1, per_user=True),
    "recall@3": lambda r, t: ek.recall_at_k(r, t, 3, per_user=True),
    "ndcg@5": lambda r, t: ek.ndcg_at_k(r, t, 5, per_user=True),
    "map": lambda r, t: ek.mean_average_precision(r, t, per_user=True),
    "evaluate": lambda r, t: np.concatenate(list(ek.evaluate_ranking(
        r, t, ["precision@2", "ndcg@10", "map@100"], per_user=True).values())),
}


def _lists(seed):
    """Lists that differ per thread: a user's precision@1 is 1 or 0 depending on the seed."""
    rng = np.random.default_rng(seed)
    n_users, n_items = int(rng.integers(5, 40)), 60
    ranked = np.stack([rng.permutation(n_items)[:20] for _ in range(n_users)])
    relevant = [set(rng.choice(n_items, int(rng.integers(1, 10)), replace=False).tolist()) | (
        {int(row[0])} if rng.random() < 0.5 else set()) for row in ranked]
    return ranked, relevant


@pytest.mark.filterwarnings("ignore::evalkit.exceptions.UndefinedMetricWarning")
def test_ranking_metrics_from_many_threads_equal_their_single_threaded_values():
    inputs = [_lists(seed) for seed in range(N_THREADS)]
    expected = [{name: call(*lists) for name, call in CALLS.items()} for lists in inputs]
    assert len({tuple(e["precision@1"][:5]) for e in expected}) > 1   # the threads' answers differ
    start = threading.Barrier(N_THREADS)
    wrong = []

    def work(t):
        ranked, relevant = inputs[t]
        start.wait()
        for i in range(N_ITERATIONS):
            for name, call in CALLS.items():
                got = call(ranked, relevant)
                if not np.array_equal(got, expected[t][name], equal_nan=True):
                    wrong.append((t, i, name))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(N_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong, f"{len(wrong)} wrong results, the first: {wrong[:5]}"


def _module_containers():
    """Every module-level list, dict or set of every evalkit module (course and widgets aside)."""
    found = {}
    for info in pkgutil.walk_packages(ek.__path__, "evalkit."):
        if info.name.startswith(("evalkit.course", "evalkit.widgets", "evalkit.spark")):
            continue   # course data; widgets import ipywidgets; spark's ship() records sessions
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, (list, dict, set)) and not name.startswith("__"):
                found[f"{info.name}.{name}"] = value
    return found


@pytest.mark.filterwarnings("ignore::evalkit.exceptions.UndefinedMetricWarning")
def test_no_module_state_changes_when_metrics_run():
    before = {name: repr(value) for name, value in _module_containers().items()}
    ranked, relevant = _lists(0)
    for call in CALLS.values():
        call(ranked, relevant)
    ek.roc_auc_score([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
    ek.classification_report([0, 1, 2, 1], [0, 2, 2, 1], output_dict=True)
    after = {name: repr(value) for name, value in _module_containers().items()}
    assert after == before
