"""The draws are part of the API: a seed gives the same resamples, so the same numbers, as before.

Each case runs a function of ``evalkit.uncertainty`` or ``evalkit.compare`` on seeded random
inputs, through every way they resample (confusion-matrix cells, the sweep's score groups,
top-k hits, rows, label swaps, sign flips, the joint cells of several models, users) and
every test, and compares its numbers with ``tests/resample_pins.json``: the numbers the
functions gave before the resampling engine was rewritten (evalkit at commit 425f58a).
A different draw moves an interval by far more than the tolerance, which only absorbs a
last-bit difference between processors.

Recorded with ``python tests/test_resample_pins.py --write`` (the evalkit on the path is the
one pinned); rewrite it only when a change of the draws is intended and said.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import evalkit as ek

PINS = Path(__file__).with_name("resample_pins.json")
CASES = {}


def case(name):
    def register(fn):
        CASES[name] = fn
        return fn
    return register


def _labels(seed, n, n_classes):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    a = np.where(rng.random(n) < 0.75, y, rng.integers(0, n_classes, n))
    b = np.where(rng.random(n) < 0.85, a, rng.integers(0, n_classes, n))
    return y, a, b


def _scores(seed, n, decimals=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(rng.random(n) + 0.4 * y, decimals)
    b = np.round(rng.random(n) + 0.2 * y + 0.3 * a, decimals)
    return y, a, b


for method in ("percentile", "bca"):
    for stratify in (True, False):
        @case(f"bootstrap_ci f1 {method} stratify={stratify}")
        def _(method=method, stratify=stratify):
            y, a, _ = _labels(1, 300, 2)
            return ek.bootstrap_ci(ek.f1_score, y, a, n_resamples=500, method=method,
                                   stratify=stratify, random_state=0)

        @case(f"bootstrap_ci macro precision {method} stratify={stratify}")
        def _(method=method, stratify=stratify):
            y, a, _ = _labels(2, 200, 4)
            return ek.bootstrap_ci(ek.precision_score, y, a, average="macro",
                                   zero_division=np.nan, n_resamples=500, method=method,
                                   stratify=stratify, random_state=1)

        @case(f"bootstrap_ci roc_auc {method} stratify={stratify}")
        def _(method=method, stratify=stratify):
            y, a, _ = _scores(3, 3000)  # many score groups: rows drawn and counted, in blocks
            return ek.bootstrap_ci(ek.roc_auc_score, y, a, n_resamples=800, method=method,
                                   stratify=stratify, random_state=2)

        @case(f"paired_bootstrap average_precision {method} stratify={stratify}")
        def _(method=method, stratify=stratify):
            y, a, b = _scores(4, 400)
            return ek.paired_bootstrap(ek.average_precision_score, y, a, b, n_resamples=500,
                                       method=method, stratify=stratify, random_state=3)

    @case(f"paired_bootstrap weighted f1 {method}")
    def _(method=method):
        y, a, b = _labels(5, 250, 3)
        return ek.paired_bootstrap(ek.f1_score, y, a, b, average="weighted",
                                   n_resamples=500, method=method, random_state=4)

    @case(f"bootstrap_ci top_k_accuracy {method}")
    def _(method=method):
        rng = np.random.default_rng(6)
        y = rng.integers(0, 4, 200)
        s = np.round(rng.dirichlet(np.ones(4), 200) + 0.3 * np.eye(4)[y], 1)
        return ek.bootstrap_ci(ek.top_k_accuracy_score, y, s, k=2, n_resamples=500,
                               method=method, random_state=5)

    @case(f"bootstrap_ci rows (sample_weight) {method}")
    def _(method=method):
        y, a, _ = _labels(7, 150, 3)
        w = np.random.default_rng(7).random(150)
        return ek.bootstrap_ci(ek.f1_score, y, a, average="macro", sample_weight=w,
                               n_resamples=200, method=method, random_state=6)

    @case(f"paired_bootstrap per-user means {method}")
    def _(method=method):
        rng = np.random.default_rng(8)
        a = rng.beta(2, 3, 300)
        return ek.paired_bootstrap(np.mean, None, a, np.clip(a + rng.normal(0, 0.1, 300), 0, 1),
                                   n_resamples=500, method=method, random_state=7)


@case("bootstrap_ci macro_f1 f1_of_means, zero_division warn")
def _():
    y, a, _ = _labels(9, 60, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ek.bootstrap_ci(ek.macro_f1, y, a, definition="f1_of_means", n_resamples=500,
                               random_state=8)


@case("bootstrap_ci given strata")
def _():
    y, a, _ = _labels(10, 120, 2)
    strata = np.random.default_rng(10).integers(0, 3, 120)
    return ek.bootstrap_ci(ek.accuracy_score, y, a, stratify=strata, n_resamples=300,
                           random_state=9)


@case("permutation_test label swaps")
def _():
    y, a, b = _labels(11, 300, 3)
    return ek.permutation_test(ek.f1_score, y, a, b, average="macro", n_permutations=700,
                               random_state=10)


@case("permutation_test sign flips")
def _():
    rng = np.random.default_rng(12)
    a = rng.random(500)
    return ek.permutation_test(np.mean, None, a, a + rng.normal(0.01, 0.1, 500),
                               n_permutations=900, random_state=11)


@case("permutation_test rows (roc_auc)")
def _():
    y, a, b = _scores(13, 80)
    return ek.permutation_test(ek.roc_auc_score, y, a, b, n_permutations=150, random_state=12)


@case("roc_auc_ci delong, ties")
def _():
    y, a, _ = _scores(14, 5000, 3)
    return ek.roc_auc_ci(y, a)


@case("roc_auc_ci delong, three blocks")
def _():
    rng = np.random.default_rng(15)
    y = rng.integers(0, 2, 100_000)
    return ek.roc_auc_ci(y, 1 / (1 + np.exp(-rng.normal(y, 1.0))), confidence=0.9)


@case("roc_auc_ci bootstrap")
def _():
    y, a, _ = _scores(16, 600)
    return ek.roc_auc_ci(y, a, method="bootstrap", n_resamples=500, random_state=13)


@case("delong_test")
def _():
    y, a, b = _scores(17, 700, 1)
    return ek.delong_test(y, a, b, confidence=0.9)


@case("mcnemar_test exact and chi-square")
def _():
    y, a, b = _labels(18, 400, 3)
    return [ek.mcnemar_test(y, a, b), ek.mcnemar_test(y, a, b, exact=False)]


@case("proportion_ci")
def _():
    return [ek.proportion_ci(37, 90, method=m) for m in ("wilson", "clopper-pearson", "normal")]


def _score_models(seed, n, models, decimals=None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    out = {f"m{i}": y * (1 - 0.3 * i) + rng.normal(0, 1, n) for i in range(models)}
    if decimals is not None:
        out = {k: np.round(v, decimals) for k, v in out.items()}
    return y, out


for stratify in (True, False):
    @case(f"compare scores and labels, bootstrap, stratify={stratify}")
    def _(stratify=stratify):
        y, models = _score_models(20, 2000, 4, 2)
        return ek.compare(y, models, ["roc_auc", "average_precision", "accuracy", "f1"],
                          threshold=0.3, n_resamples=400, stratify=stratify, random_state=14)

    @case(f"compare multiclass labels, stratify={stratify}")
    def _(stratify=stratify):
        y, a, b = _labels(21, 300, 4)
        c = np.where(np.random.default_rng(21).random(300) < 0.6, y, 0)
        metrics = [("f1", {"average": "macro"}), ("precision", {"average": "weighted"}),
                   ("recall", {"average": "micro", "zero_division": 1.0}), "accuracy"]
        return ek.compare(y, {"a": a, "b": b, "c": c}, metrics, n_resamples=400,
                          stratify=stratify, correction="bonferroni", random_state=15)


@case("compare row tests: permutation, DeLong, McNemar")
def _():
    y, models = _score_models(22, 300, 3, 1)
    tests = {"roc_auc": "delong", "accuracy": "mcnemar", "f1": "permutation",
             "average_precision": "permutation"}
    return ek.compare(y, models, ["roc_auc", "accuracy", "f1", "average_precision"],
                      threshold=0.4, test=tests, n_resamples=200, baseline="m0",
                      random_state=16)


@case("compare McNemar chi-square, counted rows")
def _():
    y, a, b = _labels(23, 500, 2)
    keys = np.stack([y, a, b], axis=1)
    distinct, times = np.unique(keys, axis=0, return_counts=True)
    models = {"a": distinct[:, 1], "b": distinct[:, 2]}
    return [ek.compare(distinct[:, 0], models, ["accuracy", "f1"], sample_counts=times,
                       n_resamples=300, random_state=17),
            ek.compare(distinct[:, 0], models, ["accuracy"], sample_counts=times,
                       test="mcnemar-chi2", n_resamples=50, random_state=17)]


@case("compare rankers, bootstrap and sign flips")
def _():
    rng = np.random.default_rng(24)
    relevant = [set(rng.choice(30, rng.integers(1, 6), replace=False).tolist())
                for _ in range(80)]
    runs = {}
    for name, skill in (("good", 2.0), ("fair", 1.0), ("random", 0.0)):
        runs[name] = []
        for rel in relevant:
            score = rng.normal(0, 1, 30) + skill * np.isin(np.arange(30), list(rel))
            runs[name].append(np.argsort(-score)[:10].tolist())
    metrics = ["ndcg@10", "map@10", "mrr"]
    return [ek.compare(relevant, runs, metrics, n_resamples=300, random_state=18),
            ek.compare(relevant, runs, metrics, test="permutation", n_resamples=300,
                       random_state=19)]


# -- the numbers of a result --------------------------------------------------------------


def _numbers(result):
    """The numbers a result carries (None where a field is unset), in a fixed order."""
    if isinstance(result, list):
        return [x for r in result for x in _numbers(r)]
    if isinstance(result, ek.ModelComparison):
        pairs = [[p["difference"], p["low"], p["high"], p["p_value"], p["p_adjusted"]]
                 for p in result.pairs]
        flat = [x for p in pairs for x in p]
        return [*result.values.ravel(), *result.low.ravel(), *result.high.ravel(), *flat,
                result.n_skipped, *_spread(result.distribution)]
    fields = ["estimate", "low", "high", "p_value", "estimate_a", "estimate_b", "statistic",
              "standard_error", "n_skipped"]
    out = [getattr(result, f, None) for f in fields]
    return [*out, *_spread(result.distribution)]


def _spread(dist):
    """The resampled values, summarized: how many, their sum, the first and last."""
    if dist is None:
        return [None] * 4
    values = np.asarray(dist, dtype=np.float64).ravel()
    kept = values[~np.isnan(values)]
    return [len(values), float(kept.sum()), float(values[0]), float(values[-1])]


def _plain(numbers):
    return [None if x is None else float(x) for x in numbers]


def _run(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _plain(_numbers(CASES[name]()))


@pytest.fixture(scope="module")
def pins():
    return json.loads(PINS.read_text(encoding="utf-8"))


def test_every_case_is_pinned(pins):
    assert sorted(pins) == sorted(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_a_seed_gives_the_numbers_it_gave(name, pins):
    got, expect = _run(name), pins[name]
    assert len(got) == len(expect)
    for g, e in zip(got, expect):
        if e is None or g is None:
            assert g is e
        else:
            assert g == pytest.approx(e, rel=1e-12, abs=1e-15, nan_ok=True)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    recorded = {name: _run(name) for name in CASES}
    PINS.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
    print(f"{len(recorded)} cases written to {PINS}")
