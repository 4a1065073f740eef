"""evalkit.compare against independent oracles: statsmodels (McNemar, multipletests), scipy
(permutation_test), evalkit's own DeLong, paired bootstrap and metrics; intervals' coverage and
the corrected table's familywise error measured by seeded simulations."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek


def _labels(rng, n, rates):
    """Binary labels and one model per accuracy rate, each right on a row with that probability."""
    y = rng.integers(0, 2, n)
    return y, {f"m{i}": np.where(rng.random(n) < r, y, 1 - y) for i, r in enumerate(rates)}


def _scores(rng, n, shifts):
    y = rng.integers(0, 2, n)
    return y, {f"m{i}": y * s + rng.normal(0, 1, n) for i, s in enumerate(shifts)}


# -- the numbers: each value is the metric's, each p-value the test's ------------------------


@pytest.mark.parametrize("seed", range(4))
def test_values_are_the_metrics_and_scikit_learns(seed):
    rng = np.random.default_rng(seed)
    y, s = _scores(rng, 150, [1.0, 0.5, 0.0])
    r = ek.compare(y, s, ["roc_auc", "average_precision", "accuracy", "f1", "precision", "recall"],
                   threshold=0.5, n_resamples=20, random_state=seed)
    for i, m in enumerate(s):
        yhat = (s[m] >= 0.5).astype(int)
        expect = [skm.roc_auc_score(y, s[m]), skm.average_precision_score(y, s[m]),
                  skm.accuracy_score(y, yhat), skm.f1_score(y, yhat), skm.precision_score(y, yhat),
                  skm.recall_score(y, yhat)]
        np.testing.assert_allclose(r.values[i], expect, rtol=1e-12)
        assert np.all(r.low[i] <= r.values[i] + 1e-12) and np.all(r.values[i] <= r.high[i] + 1e-12)


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_multiclass_averages_are_scikit_learns(average):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 4, 300)
    models = {"a": np.where(rng.random(300) < 0.7, y, rng.integers(0, 4, 300)),
              "b": np.where(rng.random(300) < 0.5, y, rng.integers(0, 3, 300))}  # never predicts 3
    r = ek.compare(y, models, [("f1", {"average": average}), ("precision", {"average": average})],
                   n_resamples=20, random_state=0)
    for i, m in enumerate(models):
        expect = [skm.f1_score(y, models[m], average=average, zero_division=0),
                  skm.precision_score(y, models[m], average=average, zero_division=0)]
        np.testing.assert_allclose(r.values[i], expect, rtol=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["accuracy", "f1", "roc_auc", "average_precision"])
def test_bootstrap_p_value_and_interval_are_evalkits_paired_bootstrap(seed, metric):
    rng = np.random.default_rng(seed)
    y, models = (_labels(rng, 200, [0.8, 0.75]) if metric in ("accuracy", "f1")
                 else _scores(rng, 200, [1.0, 0.7]))
    r = ek.compare(y, models, [metric], n_resamples=500, random_state=seed)
    fn = {"accuracy": ek.accuracy_score, "f1": ek.f1_score, "roc_auc": ek.roc_auc_score,
          "average_precision": ek.average_precision_score}[metric]
    d = ek.paired_bootstrap(fn, y, models["m0"], models["m1"], n_resamples=500, random_state=seed)
    p = r.pairs[0]
    assert (p["difference"], p["low"], p["high"], p["p_value"]) == pytest.approx(
        (d.estimate, d.low, d.high, d.p_value), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_permutation_p_value_is_evalkits_and_scipys(seed):
    from scipy import stats

    rng = np.random.default_rng(seed)
    y, models = _labels(rng, 14, [0.9, 0.6])  # 2^14 pairings: scipy enumerates them all
    r = ek.compare(y, models, ["accuracy"], test="permutation", n_resamples=20000, random_state=seed)
    own = ek.permutation_test(ek.accuracy_score, y, models["m0"], models["m1"], n_permutations=20000,
                              random_state=seed)
    assert r.pairs[0]["p_value"] == own.p_value
    right = [(models[m] == y).astype(float) for m in ("m0", "m1")]
    exact = stats.permutation_test(right, lambda a, b, axis: a.mean(axis) - b.mean(axis),
                                   permutation_type="samples", vectorized=True, n_resamples=10**5).pvalue
    assert abs(r.pairs[0]["p_value"] - exact) < 4 * np.sqrt(exact * (1 - exact) / 20000) + 1e-3


@pytest.mark.parametrize("metric, function, options", [
    ("f1", ek.f1_score, {"average": "macro"}),
    ("precision", ek.precision_score, {"average": "weighted", "zero_division": np.nan}),
    ("recall", ek.recall_score, {}),
    ("roc_auc", ek.roc_auc_score, {}),
    ("average_precision", ek.average_precision_score, {"pos_label": 0}),
])
def test_each_permutation_test_is_evalkits_permutation_test(metric, function, options):
    rng = np.random.default_rng(4)
    if metric in ("roc_auc", "average_precision"):
        y, models = _scores(rng, 60, [1.0, 0.6, 0.3])
        models = {k: np.round(v, 1) for k, v in models.items()}
    else:
        y, models = _labels(rng, 80, [0.8, 0.7, 0.75])
        if options.get("average"):
            y = rng.integers(0, 3, 80)
            models = {k: np.where(rng.random(80) < 0.7, y, rng.integers(0, 3, 80)) for k in models}
    r = ek.compare(y, models, [(metric, options)], test="permutation", n_resamples=300,
                   random_state=5)
    for p in r.pairs:
        t = ek.permutation_test(function, y, models[p["model_a"]], models[p["model_b"]],
                                n_permutations=300, random_state=5, **options)
        assert p["p_value"] == t.p_value
        assert p["difference"] == pytest.approx(t.estimate, rel=1e-12, abs=1e-15)


def test_each_array_is_read_once(monkeypatch):
    # compare validates y_true and each model's predictions once, whatever its tests (not once
    # per pair and metric): every array reader goes through _validation's as_array
    from evalkit._validation import _arrays as arrays_module
    from evalkit._validation import _labels as labels_module

    read, as_array = [], arrays_module.as_array
    for module in (arrays_module, labels_module):
        monkeypatch.setattr(module, "as_array",
                            lambda y, name, **kw: read.append(name) or as_array(y, name, **kw))
    rng = np.random.default_rng(0)
    y, models = _scores(rng, 100, [1.0, 0.5, 0.2])
    tests = {"roc_auc": "delong", "accuracy": "mcnemar", "f1": "permutation"}
    ek.compare(y, models, ["roc_auc", "accuracy", "f1"], threshold=0.5, test=tests,
               n_resamples=20, random_state=0)
    data = [name for name in read if name == "y_true" or name.startswith("predictions")]
    assert sorted(data) == sorted(["y_true"] + [f"predictions[{m!r}]" for m in models])
    read.clear()
    y, models = _labels(rng, 100, [0.8, 0.7])
    ek.compare(y, models, ["accuracy", "f1"], test="permutation", n_resamples=20, random_state=0)
    data = [name for name in read if name == "y_true" or name.startswith("predictions")]
    assert sorted(data) == sorted(["y_true"] + [f"predictions[{m!r}]" for m in models])


@pytest.mark.parametrize("seed", range(3))
def test_delong_is_evalkits_delong_test(seed):
    rng = np.random.default_rng(seed)
    y, s = _scores(rng, 120, [1.0, 0.6, 0.3])
    r = ek.compare(y, s, ["roc_auc"], test="delong", baseline="m2", random_state=0, n_resamples=50)
    for p in r.pairs:
        t = ek.delong_test(y, s[p["model_a"]], s[p["model_b"]])
        assert (p["difference"], p["low"], p["high"], p["p_value"]) == pytest.approx(
            (t.estimate, t.low, t.high, t.p_value), rel=1e-12)
        assert p["test"] == "delong"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("exact", [True, False])
def test_mcnemar_is_statsmodels(seed, exact):
    from statsmodels.stats.contingency_tables import mcnemar

    rng = np.random.default_rng(seed)
    y, models = _labels(rng, 80, [0.85, 0.7, 0.75])
    r = ek.compare(y, models, ["accuracy"], test="mcnemar" if exact else "mcnemar-chi2",
                   correction="none", n_resamples=50, random_state=0)
    for p in r.pairs:
        a, b = (models[p[k]] == y for k in ("model_a", "model_b"))
        table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
        assert p["p_value"] == pytest.approx(mcnemar(table, exact=exact, correction=True).pvalue, rel=1e-10)
        assert p["p_adjusted"] == p["p_value"]


@pytest.mark.parametrize("correction", ["holm", "bonferroni"])
@pytest.mark.parametrize("seed", range(3))
def test_adjusted_p_values_are_statsmodels_multipletests(correction, seed):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(seed)
    y, models = _labels(rng, 150, [0.8, 0.78, 0.7, 0.75])
    r = ek.compare(y, models, ["accuracy", "f1"], correction=correction, n_resamples=400,
                   random_state=seed)
    assert len(r.pairs) == 12  # 6 pairs x 2 metrics, one family
    raw = [p["p_value"] for p in r.pairs]
    reject, adjusted, _, _ = multipletests(raw, alpha=0.05, method=correction)
    np.testing.assert_allclose([p["p_adjusted"] for p in r.pairs], adjusted, rtol=1e-12)
    assert [p["significant"] for p in r.pairs] == reject.tolist()


# -- simulations: the intervals cover, the corrected table keeps its error rate ----------------


def test_intervals_cover_at_their_nominal_rate():
    rng = np.random.default_rng(2026)
    n, reps, rates = 300, 2000, (0.8, 0.7)
    hit_value = hit_diff = 0
    for rep in range(reps):
        y, models = _labels(rng, n, rates)
        r = ek.compare(y, models, ["accuracy"], n_resamples=400, random_state=rep)
        hit_value += r.low[0, 0] <= rates[0] <= r.high[0, 0]
        hit_diff += r.pairs[0]["low"] <= rates[0] - rates[1] <= r.pairs[0]["high"]
    assert 0.93 <= hit_value / reps <= 0.97, hit_value / reps
    assert 0.93 <= hit_diff / reps <= 0.97, hit_diff / reps


def test_holm_keeps_the_familywise_error_of_equal_models_near_five_percent():
    # 5 equal models, 10 pairs x 2 metrics = 20 comparisons per table
    rng = np.random.default_rng(11)
    tables, found = 400, {"holm": 0, "none": 0}
    for rep in range(tables):
        y, models = _labels(rng, 200, [0.75] * 5)
        for correction in found:
            r = ek.compare(y, models, ["accuracy", "f1"], correction=correction, n_resamples=1000,
                           random_state=rep)
            found[correction] += any(p["significant"] for p in r.pairs)
    assert found["holm"] / tables <= 0.08, found
    assert found["none"] / tables >= 0.2, found  # uncorrected, a "winner" in many tables


# -- rankers ---------------------------------------------------------------------------


def _ranking_case(rng, users=60, items=30):
    relevant = [set(rng.choice(items, rng.integers(1, 6), replace=False).tolist()) for _ in range(users)]
    runs = {}
    for name, skill in (("good", 2.0), ("fair", 1.0), ("random", 0.0)):
        lists = []
        for rel in relevant:
            score = rng.normal(0, 1, items) + skill * np.isin(np.arange(items), list(rel))
            lists.append(np.argsort(-score)[:10].tolist())
        runs[name] = lists
    return relevant, runs


def test_ranking_values_are_evaluate_rankings_and_users_are_resampled():
    rng = np.random.default_rng(3)
    relevant, runs = _ranking_case(rng)
    r = ek.compare(relevant, runs, ["ndcg@10", "map@10", "mrr"], n_resamples=300, random_state=0)
    for i, m in enumerate(runs):
        expect = ek.evaluate_ranking(runs[m], relevant, ["ndcg@10", "map@10", "mrr"])
        np.testing.assert_allclose(r.values[i], list(expect.values()), rtol=1e-12)
    for p in r.pairs:  # the bootstrap of the per-user values: evalkit's paired_bootstrap of np.mean
        j = r.metrics.index(p["metric"])
        assert r.low[0, j] <= r.values[0, j] <= r.high[0, j]
    first = r.pairs[0]
    per = {m: ek.evaluate_ranking(runs[m], relevant, [first["metric"]], per_user=True)[first["metric"]]
           for m in (first["model_a"], first["model_b"])}
    d = ek.paired_bootstrap(np.mean, None, per[first["model_a"]], per[first["model_b"]],
                            n_resamples=300, random_state=0)
    assert first["difference"] == pytest.approx(d.estimate, rel=1e-12)
    assert first["low"] < first["difference"] < first["high"]
    r = ek.compare(relevant, runs, ["ndcg@10"], test="permutation", n_resamples=500, random_state=1)
    for p in r.pairs:
        a, b = (ek.evaluate_ranking(runs[p[k]], relevant, ["ndcg@10"], per_user=True)["ndcg@10"]
                for k in ("model_a", "model_b"))
        assert p["p_value"] == ek.permutation_test(np.mean, None, a, b, n_permutations=500,
                                                   random_state=1).p_value


def test_ranx_dicts_and_trec_files_give_the_same_table_as_lists(tmp_path):
    rng = np.random.default_rng(4)
    relevant, runs = _ranking_case(rng, users=20)
    qrels = {f"q{u}": {f"d{i}": 1 for i in rel} for u, rel in enumerate(relevant)}
    dicts = {m: {f"q{u}": {f"d{i}": float(10 - r) for r, i in enumerate(lst)} for u, lst in enumerate(lists)}
             for m, lists in runs.items()}
    as_lists = ek.compare(relevant, runs, ["ndcg@5", "recall@10"], n_resamples=100, random_state=0)
    as_dicts = ek.compare(qrels, dicts, ["ndcg@5", "recall@10"], n_resamples=100, random_state=0)
    (tmp_path / "qrels.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items()
                                                for d, g in docs.items()))
    paths = {}
    for m, run in dicts.items():
        paths[m] = tmp_path / f"{m}.run"
        paths[m].write_text("".join(f"{q} Q0 {d} {r + 1} {s} {m}\n" for q, docs in run.items()
                                    for r, (d, s) in enumerate(docs.items())))
    as_files = ek.compare(str(tmp_path / "qrels.txt"), {m: str(p) for m, p in paths.items()},
                          ["ndcg@5", "recall@10"], n_resamples=100, random_state=0)
    for other in (as_dicts, as_files):
        np.testing.assert_allclose(other.values, as_lists.values, rtol=1e-12)
        np.testing.assert_allclose(other.low, as_lists.low, rtol=1e-12)
        assert [p["p_value"] for p in other.pairs] == [p["p_value"] for p in as_lists.pairs]


def test_ranking_values_are_ranx_evaluate():
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(5)
    relevant, runs = _ranking_case(rng, users=30)
    qrels = {f"q{u}": {f"d{i}": 1 for i in rel} for u, rel in enumerate(relevant)}
    dicts = {m: {f"q{u}": {f"d{i}": float(10 - r) for r, i in enumerate(lst)} for u, lst in enumerate(lists)}
             for m, lists in runs.items()}
    metrics = ["ndcg@10", "map@10", "mrr", "precision@5", "recall@10"]
    r = ek.compare(qrels, dicts, metrics, n_resamples=50, random_state=0, convention="ranx")
    for i, m in enumerate(dicts):
        expect = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(dicts[m]), metrics)
        np.testing.assert_allclose(r.values[i], [expect[k] for k in metrics], rtol=1e-9)


# -- inputs, outputs, refusals -----------------------------------------------------------


def test_a_dataframe_with_one_column_per_model_is_the_dict():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(8)
    y, models = _labels(rng, 100, [0.8, 0.7, 0.6])
    a = ek.compare(y, models, ["accuracy"], n_resamples=100, random_state=0)
    b = ek.compare(y, pd.DataFrame(models), ["accuracy"], n_resamples=100, random_state=0)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.pairs == b.pairs


def test_outputs_name_the_test_and_correction_and_mark_the_best():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(9)
    y, models = _labels(rng, 400, [0.9, 0.7, 0.72])
    r = ek.compare(y, models, ["accuracy", "f1"], baseline="m1", random_state=0, n_resamples=500)
    text = str(r)
    assert "Holm" in text and "paired bootstrap" in text and "against the baseline m1" in text
    assert f"{r.values[0, 0]:.4f}*" in text  # the best of the column, with the letter of m1 after
    assert "**" in r.to_markdown() and r"\textbf" in r.to_latex() and r"\end{tabular}" in r.to_latex()
    values, pairs = r.to_pandas(), r.to_pandas("pairs")
    assert isinstance(values, pd.DataFrame) and len(values) == 6 and len(pairs) == 4
    assert set(pairs["model_b"]) == {"m1"}
    np.testing.assert_allclose(values["value"], r.values.ravel())


def test_plot_draws_each_difference():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(10)
    y, models = _labels(rng, 100, [0.8, 0.7, 0.6])
    ax = ek.compare(y, models, ["accuracy"], n_resamples=100, random_state=0).plot()
    assert len(ax.get_yticklabels()) == 3


@pytest.mark.parametrize("kwargs, word", [
    ({"test": "t-test"}, "test"), ({"test": "delong"}, "test"), ({"test": {"accuracy": "delong"}}, "test"),
    ({"correction": "fdr"}, "correction"), ({"baseline": "nobody"}, "baseline"),
    ({"n_resamples": 0}, "n_resamples"), ({"alpha": 1.5}, "alpha"), ({"confidence": 1}, "confidence"),
    ({"metrics": ["accuracy", "ndcg@10"]}, "metrics"), ({"metrics": "accuracy"}, "metrics"),
    ({"metrics": [("f1", {"beta": 2})]}, "metrics"), ({"predictions": {"a": [0, 1, 1, 0]}}, "predictions"),
    ({"metrics": ["f1"], "predictions": {"a": [0, 1, 2, 0], "b": [1, 1, 1, 0]}}, "metrics"),
    ({"metrics": [("recall", {"pos_label": 7})]}, "metrics"), ({"threshold": "high"}, "threshold"),
    ({"metrics": [("average_precision", {"pos_label": 7})]}, "metrics"),
    ({"metrics": ["average_precision"], "y_true": np.array([2, 3, 3, 2]),
      "predictions": {"a": [0.1, 0.8, 0.3, 0.2], "b": [0.5, 0.6, 0.7, 0.1]}}, "metrics"),
])
def test_bad_input_is_refused_naming_the_argument(kwargs, word):
    y = np.array([0, 1, 1, 0])
    args = {"y_true": y, "predictions": {"a": [0, 1, 0, 0], "b": [1, 1, 1, 0]}, "metrics": ["accuracy"],
            **kwargs}
    with pytest.raises((ValueError, TypeError), match=f"^{word}"):
        ek.compare(**args)


def test_ranking_options_are_checked_once_as_evaluate_ranking_checks_them():
    rng = np.random.default_rng(13)
    relevant, runs = _ranking_case(rng, users=20)
    args = (relevant, runs, ["ndcg@5"])
    for option in ({"colour": "red"}, {"ties": "item_desc"}, {"per_user": True}):
        name = next(iter(option))
        with pytest.raises(TypeError, match=f"^evaluate_ranking\\(\\) got an unexpected keyword "
                                            f"argument '{name}'$"):
            ek.compare(*args, n_resamples=10, **option)
    for option, word in (({"gain": "log"}, "gain"), ({"convention": "lucene"}, "convention"),
                         ({"zero_division": 2.0}, "zero_division")):
        with pytest.raises(ValueError, match=f"^{word} must be"):
            ek.compare(*args, n_resamples=10, **option)
    options = {"convention": "trec", "gain": "exponential", "zero_division": 0.0}
    r = ek.compare(*args, n_resamples=10, random_state=0, **options)
    for i, m in enumerate(runs):
        expect = ek.evaluate_ranking(runs[m], relevant, ["ndcg@5"], **options)["ndcg@5"]
        np.testing.assert_allclose(r.values[i, 0], expect, rtol=1e-12)  # a mean of the users


# -- from counts: the rows of a cluster, aggregated ---------------------------------------------


def test_sample_counts_give_the_table_of_the_rows_they_stand_for():
    rng = np.random.default_rng(12)
    y, s = _scores(rng, 400, [1.0, 0.5, 0.2])
    s = {k: np.round(v, 1) for k, v in s.items()}
    keys = np.stack([y, *s.values()], axis=1)
    distinct, times = np.unique(keys, axis=0, return_counts=True)
    metrics = ["roc_auc", "average_precision", "accuracy", "f1"]
    rows = ek.compare(y, s, metrics, threshold=0.5, n_resamples=300, random_state=3)
    counted = ek.compare(distinct[:, 0].astype(int), dict(zip(s, distinct[:, 1:].T)), metrics,
                         threshold=0.5, n_resamples=300, random_state=3, sample_counts=times)
    np.testing.assert_allclose(counted.values, rows.values, rtol=1e-12)
    np.testing.assert_allclose(counted.low, rows.low, rtol=1e-12)
    assert [p["p_adjusted"] for p in counted.pairs] == [p["p_adjusted"] for p in rows.pairs]
    mc = {"test": {"accuracy": "mcnemar"}, "random_state": 0}  # a test that reads rows: repeated rows
    assert ek.compare(distinct[:, 0].astype(int), dict(zip(s, distinct[:, 1:].T)), ["accuracy"],
                      threshold=0.5, sample_counts=times, n_resamples=50, **mc).pairs == ek.compare(
        y, s, ["accuracy"], threshold=0.5, n_resamples=50, **mc).pairs
    with pytest.raises(ValueError, match="^sample_counts"):
        ek.compare(y, s, ["roc_auc"], sample_counts=np.ones(3, int))


def test_on_spark_the_counts_come_from_the_cluster(spark):
    import evalkit.spark as eks

    rng = np.random.default_rng(13)
    y, models = _labels(rng, 500, [0.85, 0.75, 0.7])
    df = spark.createDataFrame([(int(a), *map(int, b)) for a, b in zip(y, zip(*models.values()))],
                               ["label", *models])
    ours = eks.compare(df, ["accuracy", "f1"], prediction_cols=list(models), n_resamples=200,
                       random_state=0)
    local = ek.compare(y, models, ["accuracy", "f1"], n_resamples=200, random_state=0)
    np.testing.assert_allclose(ours.values, local.values, rtol=1e-12)
    np.testing.assert_allclose(ours.low, local.low, rtol=1e-12)  # the same cells, the same draws
    with pytest.raises(ValueError, match="^prediction_cols"):
        eks.compare(df, ["accuracy"], prediction_cols=["m0", "nope"])
