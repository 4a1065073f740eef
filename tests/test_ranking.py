"""evalkit.ranking: pytrec_eval, ranx, scikit-learn and a brute-force oracle on randomized runs,
Spark's and torchmetrics' own fixtures, the recommender-metrics post's numbers, invariants,
and one test per kind of bad input. (Real PySpark: tests/test_ranking_spark.py.)
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning

CONVENTIONS = list(ek.ranking.CONVENTIONS)   # a new preset is one row of _hit_metrics._PRESETS
ZD = {"zero": 0.0, "one": 1.0, "skip": math.nan}   # the oracle's names for zero_division


# -- random recommenders ---------------------------------------------------------------


def random_run(rng, n_users=None, n_items=None, graded=False, ragged=True, empty_users=False,
               string_ids=False):
    """Ranked lists (ragged or not) and relevant sets/dicts that overlap the lists partly."""
    n_users = int(rng.integers(1, 25)) if n_users is None else n_users
    n_items = int(rng.integers(5, 40)) if n_items is None else n_items
    m = int(rng.integers(1, n_items + 1))
    ranked, relevant = [], []
    for _ in range(n_users):
        length = int(rng.integers(0 if ragged else m, m + 1))
        items = rng.permutation(n_items)
        lst = items[:length]
        n_rel = int(rng.integers(0 if empty_users else 1, min(n_items, 12) + 1))
        # relevant items: some from the list, some not
        pool = rng.permutation(n_items)[:n_rel]
        if graded:
            rel = {int(i): int(rng.integers(0, 4)) for i in pool}
            if not empty_users and not any(rel.values()):
                rel[int(pool[0])] = 1
        else:
            rel = {int(i) for i in pool}
        if string_ids:
            lst = [f"i{v}" for v in lst]
            rel = {f"i{k}": v for k, v in rel.items()} if graded else {f"i{v}" for v in rel}
        ranked.append([int(v) for v in lst] if not string_ids else lst)
        relevant.append(rel)
    if not ragged and not string_ids:
        ranked = np.array(ranked, dtype=np.int64).reshape(n_users, -1)
    return ranked, relevant


def grades_of(rel):
    return dict(rel) if isinstance(rel, dict) else {i: 1 for i in rel}


# -- a brute-force oracle: one user at a time, from the definitions --------------------------


def bf_user(lst, rel, metric, k=None, denominator="relevant", gain="linear", ideal="relevant",
            adaptive_k=False):
    g = grades_of(rel)
    R = sum(1 for v in g.values() if v > 0)
    lst = list(lst)
    top = lst if k is None else lst[:k]
    hit = [g.get(i, 0) > 0 for i in top]
    if metric == "precision":
        den = min(k, len(lst)) if adaptive_k else k
        return sum(hit) / den if den else 0.0
    if metric == "recall":
        return sum(hit) / R if R else 0.0
    if metric == "ap":
        total, found = 0.0, 0
        for j, h in enumerate(hit):
            if h:
                found += 1
                total += found / (j + 1)          # precision at the rank of this hit
        den = {"relevant": R, "min_relevant_k": R if k is None else min(R, k), "hits": found}[denominator]
        return total / den if den else 0.0
    if metric in ("dcg", "ndcg"):
        def gf(x):
            return x if gain == "linear" else 2 ** x - 1

        def dcg(grades):
            return sum(gf(x) / math.log2(j + 2) for j, x in enumerate(grades))
        d = dcg([g.get(i, 0) for i in top])
        if metric == "dcg":
            return d
        if ideal == "relevant":
            best = sorted((v for v in g.values() if v > 0), reverse=True)
        elif ideal == "candidates":
            best = sorted((g.get(i, 0) for i in lst), reverse=True)
        else:
            best = list(g.values())
        best = best if k is None else best[:k]
        i = dcg(best)
        return d / i if i else 0.0
    if metric == "rr":
        for j, h in enumerate(hit):
            if h:
                return 1 / (j + 1)
        return 0.0
    if metric == "arhr":
        return sum(1 / (j + 1) for j, h in enumerate(hit) if h)
    if metric == "any_hit":
        return float(any(hit))
    raise AssertionError(metric)


def bf_mean(ranked, relevant, metric, empty, **kw):
    vals = []
    for lst, rel in zip(ranked, relevant):
        R = sum(1 for v in grades_of(rel).values() if v > 0)
        if R == 0:
            if empty == "skip":
                continue
            vals.append(1.0 if empty == "one" else 0.0)
        else:
            vals.append(bf_user(lst, rel, metric, **kw))
    return sum(vals) / len(vals) if vals else 0.0


# -- the recommender-metrics post ---------------------------------------------------------


def test_post_mrr_is_0_61():
    # first hits at ranks 3, 2 and 1
    ranked = [[7, 8, 1, 9], [7, 2, 8, 9], [3, 7, 8, 9]]
    relevant = [{1}, {2}, {3}]
    assert ek.mean_reciprocal_rank(ranked, relevant) == pytest.approx((1 / 3 + 1 / 2 + 1) / 3)
    assert round(ek.mean_reciprocal_rank(ranked, relevant), 2) == 0.61


def test_post_hit_rate_is_hits_over_tests():
    # three users with 10, 12 and 8 test items; 6, 5 and 4 of them in their top 10
    ranked, relevant = [], []
    for u, (n_test, n_hits) in enumerate([(10, 6), (12, 5), (8, 4)]):
        items = [1000 * u + j for j in range(40)]
        test = set(items[:n_hits]) | set(items[20:20 + n_test - n_hits])
        ranked.append(items[:10])
        relevant.append(test)
    assert ek.hit_rate_at_k(ranked, relevant, 10) == 0.5 == (6 + 5 + 4) / (10 + 12 + 8)
    # it is micro-averaged recall, not the share of users with a hit
    assert ek.hit_rate_at_k(ranked, relevant, 10, hit_rate="any_hit") == 1.0
    per_user = ek.hit_rate_at_k(ranked, relevant, 10, per_user=True)
    np.testing.assert_allclose(per_user, [6 / 10, 5 / 12, 4 / 8])
    assert np.average(per_user, weights=[10, 12, 8]) == pytest.approx(0.5)
    assert ek.recall_at_k(ranked, relevant, 10) == pytest.approx(np.mean([0.6, 5 / 12, 0.5]))


def test_post_average_precision_formula_equals_step_sum():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 15))
        lst = list(rng.permutation(30)[:n])
        rel = set(rng.permutation(30)[:int(rng.integers(1, 10))].tolist())
        ranks = [j + 1 for j, i in enumerate(lst) if i in rel]       # r_1 < r_2 < ...
        post = sum(i / r for i, r in enumerate(ranks, start=1)) / len(rel)
        step = sum((sum(1 for x in lst[:j + 1] if x in rel) / (j + 1)) * (lst[j] in rel)
                   for j in range(len(lst))) / len(rel)
        assert ek.average_precision(lst, rel) == pytest.approx(post, abs=1e-15)
        assert post == pytest.approx(step, abs=1e-15)


# -- brute force, every option, randomized -------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_every_metric_and_option_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    graded = seed % 2 == 1
    ranked, relevant = random_run(rng, graded=graded, empty_users=seed % 3 == 0,
                                  ragged=seed % 4 != 2, string_ids=seed % 5 == 4)
    lists = [list(r) for r in ranked]
    hits = ek.ranking_hits(ranked, relevant)
    for k in (1, 3, 10, 50):
        for empty in ("zero", "one", "skip"):
            for adaptive in (False, True):
                want = bf_mean(lists, relevant, "precision", empty, k=k, adaptive_k=adaptive)
                got = ek.precision_at_k(hits, None, k, adaptive_k=adaptive, zero_division=ZD[empty])
                assert got == pytest.approx(want, rel=1e-12, abs=1e-15)
            assert ek.recall_at_k(ranked, relevant, k, zero_division=ZD[empty]) == pytest.approx(
                bf_mean(lists, relevant, "recall", empty, k=k), rel=1e-12, abs=1e-15)
            assert ek.mean_reciprocal_rank(hits, None, k=k, zero_division=ZD[empty]) == pytest.approx(
                bf_mean(lists, relevant, "rr", empty, k=k), rel=1e-12, abs=1e-15)
            assert ek.arhr_at_k(hits, None, k, zero_division=ZD[empty]) == pytest.approx(
                bf_mean(lists, relevant, "arhr", empty, k=k), rel=1e-12, abs=1e-15)
            assert ek.hit_rate_at_k(hits, None, k, hit_rate="any_hit", zero_division=ZD[empty]) == pytest.approx(
                bf_mean(lists, relevant, "any_hit", empty, k=k), rel=1e-12, abs=1e-15)
            for kk in (k, None):
                for den in ("relevant", "min_relevant_k", "hits"):
                    want = bf_mean(lists, relevant, "ap", empty, k=kk, denominator=den)
                    got = ek.mean_average_precision(hits, None, kk, denominator=den, zero_division=ZD[empty])
                    assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (k, den)
                for gain in ("linear", "exponential"):
                    for ideal in ("relevant", "candidates", "given"):
                        want = bf_mean(lists, relevant, "ndcg", empty, k=kk, gain=gain, ideal=ideal)
                        got = ek.ndcg_at_k(hits, None, kk, gain=gain, ideal=ideal, zero_division=ZD[empty])
                        assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (kk, gain, ideal)
        for gain in ("linear", "exponential"):
            want = np.mean([bf_user(lst, rel, "dcg", k=k, gain=gain) for lst, rel in zip(lists, relevant)])
            assert ek.dcg_at_k(hits, None, k, gain=gain) == pytest.approx(want, rel=1e-12, abs=1e-15)
        # the post's HR: hits over tests
        tests = sum(sum(1 for v in grades_of(r).values() if v > 0) for r in relevant)
        n_hits = sum(sum(1 for i in lst[:k] if grades_of(r).get(i, 0) > 0) for lst, r in zip(lists, relevant))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            assert ek.hit_rate_at_k(hits, None, k) == (n_hits / tests if tests else 0.0)


@pytest.mark.parametrize("seed", range(4))
def test_per_user_values_average_to_the_mean(seed):
    rng = np.random.default_rng(100 + seed)
    ranked, relevant = random_run(rng, n_users=30, empty_users=True)
    h = ek.ranking_hits(ranked, relevant)
    empty_users = h.n_relevant == 0
    for fn, args in [(ek.precision_at_k, (5,)), (ek.recall_at_k, (5,)), (ek.ndcg_at_k, (5,)),
                     (ek.mean_average_precision, ()), (ek.mean_reciprocal_rank, ()),
                     (ek.arhr_at_k, (5,))]:
        for empty in ("zero", "one", "skip"):
            per = fn(h, None, *args, zero_division=ZD[empty], per_user=True)
            assert per.shape == (30,)
            if empty == "skip":
                assert np.isnan(per[empty_users]).all()
                assert fn(h, None, *args, zero_division=ZD[empty]) == pytest.approx(np.nanmean(per))
            else:
                assert (per[empty_users] == (1.0 if empty == "one" else 0.0)).all()
                assert fn(h, None, *args, zero_division=ZD[empty]) == pytest.approx(per.mean())


def test_every_cutoff_from_one_pass_and_partitions_add_up():
    rng = np.random.default_rng(7)
    ranked, relevant = random_run(rng, n_users=40, graded=True)
    whole = ek.ranking_hits(ranked, relevant)
    a = ek.ranking_hits(ranked[:15], relevant[:15])
    b = ek.ranking_hits(ranked[15:], relevant[15:])
    both = ek.RankingHits.concat([a, b])
    assert both.n_users == whole.n_users
    np.testing.assert_array_equal(both.matrix(), whole.matrix())
    np.testing.assert_array_equal(both.n_relevant, whole.n_relevant)
    np.testing.assert_array_equal((a + b).n_ranked, whole.n_ranked)
    thirds = [ek.ranking_hits(ranked[i:i + 14], relevant[i:i + 14]) for i in (0, 14, 28)]
    np.testing.assert_array_equal(sum(thirds).matrix(), whole.matrix())   # sum() works
    for k in (1, 2, 5, 10, 100):
        for fn in (ek.ndcg_at_k, ek.precision_at_k, ek.recall_at_k, ek.arhr_at_k):
            assert fn(both, None, k) == fn(whole, None, k) == fn(ranked, relevant, k)
        assert ek.ndcg_at_k(both, None, k, ideal="given") == ek.ndcg_at_k(ranked, relevant, k, ideal="given")
        m = whole.matrix(k)
        assert m.shape == (40, k)
        np.testing.assert_array_equal((m > 0).sum(axis=1), whole.hits_at(k))


# -- invariants ----------------------------------------------------------------------------


def test_ideal_order_gives_ndcg_one():
    rng = np.random.default_rng(11)
    for _ in range(50):
        n = int(rng.integers(1, 20))
        items = rng.permutation(100)[:n + 5]
        grades = {int(i): int(rng.integers(1, 5)) for i in items[:n]}
        best = sorted(grades, key=lambda i: -grades[i]) + [int(i) for i in items[n:]]
        for gain in ("linear", "exponential"):
            for k in (1, 3, None):
                assert ek.ndcg_at_k([best], [grades], k, gain=gain) == pytest.approx(1.0, abs=1e-12)
                assert ek.ndcg_at_k([best], [grades], k, gain=gain, ideal="candidates") == \
                    pytest.approx(1.0, abs=1e-12)


def test_nothing_relevant_retrieved_gives_zero():
    ranked = [[1, 2, 3], [4, 5]]
    relevant = [{9, 10}, {11: 2}]
    for fn, args in [(ek.precision_at_k, (2,)), (ek.recall_at_k, (2,)), (ek.ndcg_at_k, (2,)),
                     (ek.mean_average_precision, ()), (ek.mean_reciprocal_rank, ()),
                     (ek.arhr_at_k, (2,)), (ek.dcg_at_k, (3,)), (ek.hit_rate_at_k, (3,))]:
        for convention in CONVENTIONS:
            assert fn(ranked, relevant, *args, convention=convention) == 0.0


def test_arhr_equals_mrr_with_one_relevant_item_per_user():
    rng = np.random.default_rng(5)
    ranked = [list(rng.permutation(50)[:int(rng.integers(1, 20))]) for _ in range(200)]
    held_out = [int(rng.integers(0, 50)) for _ in range(200)]       # one id per user
    for k in (1, 5, 10, 20):
        assert ek.arhr_at_k(ranked, held_out, k) == pytest.approx(
            ek.mean_reciprocal_rank(ranked, held_out, k=k), abs=1e-15)
        # and both hit rates agree with recall
        assert ek.hit_rate_at_k(ranked, held_out, k) == pytest.approx(
            ek.hit_rate_at_k(ranked, held_out, k, hit_rate="any_hit"))
        assert ek.hit_rate_at_k(ranked, held_out, k) == pytest.approx(ek.recall_at_k(ranked, held_out, k))


def test_array_and_list_inputs_agree():
    rng = np.random.default_rng(2)
    ranked, relevant = random_run(rng, n_users=50, n_items=30, ragged=False)
    as_lists = [list(r) for r in ranked]
    as_arrays = [np.asarray(r) for r in ranked]
    as_str = [[f"x{i}" for i in r] for r in ranked]
    rel_str = [{f"x{i}" for i in r} for r in relevant]
    for k in (1, 5, 30):
        want = ek.ndcg_at_k(ranked, relevant, k)
        assert ek.ndcg_at_k(as_lists, relevant, k) == want
        assert ek.ndcg_at_k(as_arrays, [sorted(r) for r in relevant], k) == want
        assert ek.ndcg_at_k(as_str, rel_str, k) == want
        assert ek.ndcg_at_k(ranked.astype(float), relevant, k) == want


# -- oracles: pytrec_eval (trec_eval) -----------------------------------------------------


def _trec(ranked, relevant, measures):
    import pytrec_eval

    qrel = {f"q{u}": {f"d{i}": int(g) for i, g in grades_of(rel).items()} for u, rel in enumerate(relevant)}
    run = {f"q{u}": {f"d{i}": float(len(lst) - j) for j, i in enumerate(lst)}
           for u, lst in enumerate(ranked)}
    return pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run)


@pytest.mark.parametrize("seed", range(6))
def test_trec_preset_equals_pytrec_eval(seed):
    rng = np.random.default_rng(200 + seed)
    ranked, relevant = random_run(rng, n_users=40, n_items=60, graded=seed % 2 == 0)
    ranked = [lst if len(lst) else [int(rng.integers(0, 60))] for lst in ranked]  # trec drops empty runs
    res = _trec(ranked, relevant, {"map", "map_cut", "ndcg_cut", "recip_rank", "P", "recall", "ndcg"})
    users = sorted(res, key=lambda q: int(q[1:]))
    h = ek.ranking_hits(ranked, relevant)

    def trec_mean(measure):
        return np.mean([res[q][measure] for q in users])

    kw = {"convention": "trec"}
    assert ek.mean_average_precision(h, None, **kw) == pytest.approx(trec_mean("map"), abs=1e-12)
    assert ek.mean_reciprocal_rank(h, None, **kw) == pytest.approx(trec_mean("recip_rank"), abs=1e-12)
    assert ek.ndcg_at_k(h, None, None, **kw) == pytest.approx(trec_mean("ndcg"), abs=1e-12)
    for k in (5, 10, 15, 20, 30, 100):
        assert ek.mean_average_precision(h, None, k, **kw) == pytest.approx(trec_mean(f"map_cut_{k}"), abs=1e-12)
        assert ek.ndcg_at_k(h, None, k, **kw) == pytest.approx(trec_mean(f"ndcg_cut_{k}"), abs=1e-12)
        assert ek.precision_at_k(h, None, k, **kw) == pytest.approx(trec_mean(f"P_{k}"), abs=1e-12)
        assert ek.recall_at_k(h, None, k, **kw) == pytest.approx(trec_mean(f"recall_{k}"), abs=1e-12)
    per = ek.ndcg_at_k(h, None, 10, per_user=True, **kw)
    np.testing.assert_allclose(per, [res[q]["ndcg_cut_10"] for q in users], atol=1e-12)


def test_trec_ties_by_document_id_descending():
    # three documents, all scored 0.5, the relevant one is "d1": trec_eval ranks d3, d2, d1
    pred = {"user": ["q"] * 3, "item": ["d1", "d2", "d3"], "score": [0.5, 0.5, 0.5]}
    truth = {"user": ["q"], "item": ["d1"]}
    res = _trec_frame(pred, truth)
    _, ranked, relevant = ek.lists_from_frame(pred, truth, score="score", convention="trec")
    assert [r.tolist() for r in ranked] == [["d3", "d2", "d1"]]
    assert ek.mean_reciprocal_rank(ranked, relevant, convention="trec") == res["recip_rank"] == 1 / 3
    # input order (ranx): d1 first
    _, ranked_in, _ = ek.lists_from_frame(pred, truth, score="score", ties="input")
    assert ek.mean_reciprocal_rank(ranked_in, relevant) == 1.0
    # sklearn averages over the tied orderings: NDCG@3 = (1/3)(1 + 1/log2(3) + 1/2) = 0.7103
    tied = ek.ndcg_score([[1, 0, 0]], [[0.5, 0.5, 0.5]], k=3)
    assert tied == pytest.approx(skm.ndcg_score([[1, 0, 0]], [[0.5, 0.5, 0.5]], k=3), abs=1e-15)
    assert round(tied, 4) == 0.7103


def _trec_frame(pred, truth):
    import pytrec_eval

    qrel = {}
    for u, i in zip(truth["user"], truth["item"]):
        qrel.setdefault(u, {})[i] = 1
    run = {}
    for u, i, s in zip(pred["user"], pred["item"], pred["score"]):
        run.setdefault(u, {})[i] = float(s)
    out = pytrec_eval.RelevanceEvaluator(qrel, {"recip_rank", "ndcg_cut", "map"}).evaluate(run)
    return next(iter(out.values()))


@pytest.mark.parametrize("seed", range(3))
def test_trec_ties_randomized_through_the_frame(seed):
    rng = np.random.default_rng(300 + seed)
    n = 400
    users = rng.integers(0, 20, n).astype(str)
    items = np.array([f"d{v:03d}" for v in rng.integers(0, 80, n)])
    keep = np.unique(np.char.add(np.char.add(users, ":"), items), return_index=True)[1]
    users, items = users[keep], items[keep]
    scores = np.round(rng.random(len(items)), 1)         # many ties
    tu = rng.integers(0, 20, 150).astype(str)
    ti = np.array([f"d{v:03d}" for v in rng.integers(0, 80, 150)])
    k2 = np.unique(np.char.add(np.char.add(tu, ":"), ti), return_index=True)[1]
    tu, ti = tu[k2], ti[k2]
    pred = {"user": users, "item": items, "score": scores}
    truth = {"user": tu, "item": ti}
    import pytrec_eval
    qrel, run = {}, {}
    for u, i in zip(tu, ti):
        qrel.setdefault(u, {})[i] = 1
    for u, i, s in zip(users, items, scores):
        run.setdefault(u, {})[i] = float(s)
    res = pytrec_eval.RelevanceEvaluator(qrel, {"recip_rank", "map", "ndcg_cut", "P"}).evaluate(run)
    q, ranked, relevant = ek.lists_from_frame(pred, truth, score="score", convention="trec")
    assert sorted(res) == sorted(q.tolist())
    order = [res[u] for u in q.tolist()]
    kw = {"convention": "trec"}
    np.testing.assert_allclose(ek.mean_reciprocal_rank(ranked, relevant, per_user=True, **kw),
                               [r["recip_rank"] for r in order], atol=1e-12)
    np.testing.assert_allclose(ek.mean_average_precision(ranked, relevant, per_user=True, **kw),
                               [r["map"] for r in order], atol=1e-12)
    np.testing.assert_allclose(ek.ndcg_at_k(ranked, relevant, 10, per_user=True, **kw),
                               [r["ndcg_cut_10"] for r in order], atol=1e-12)
    np.testing.assert_allclose(ek.precision_at_k(ranked, relevant, 5, per_user=True, **kw),
                               [r["P_5"] for r in order], atol=1e-12)


# -- oracles: ranx ----------------------------------------------------------------------------


def test_ranx_preset_equals_ranx():
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(400)
    ranked, relevant = random_run(rng, n_users=30, n_items=50, graded=True, ragged=True)
    ranked = [lst if len(lst) else [int(rng.integers(0, 50))] for lst in ranked]
    qrels = ranx.Qrels({f"q{u}": {f"d{i}": int(g) for i, g in rel.items() if g > 0}
                        for u, rel in enumerate(relevant)})
    run = ranx.Run({f"q{u}": {f"d{i}": float(len(lst) - j) for j, i in enumerate(lst)}
                    for u, lst in enumerate(ranked)})
    metrics = ["map@100", "map@5", "ndcg@10", "ndcg@3", "ndcg_burges@10", "mrr", "hit_rate@10",
               "precision@5", "recall@5", "r-precision"]
    got = ranx.evaluate(qrels, run, metrics)
    h = ek.ranking_hits(ranked, relevant)
    kw = {"convention": "ranx"}
    assert ek.mean_average_precision(h, None, 100, **kw) == pytest.approx(got["map@100"], abs=1e-12)
    assert ek.mean_average_precision(h, None, 5, **kw) == pytest.approx(got["map@5"], abs=1e-12)
    assert ek.ndcg_at_k(h, None, 10, **kw) == pytest.approx(got["ndcg@10"], abs=1e-12)
    assert ek.ndcg_at_k(h, None, 3, **kw) == pytest.approx(got["ndcg@3"], abs=1e-12)
    assert ek.ndcg_at_k(h, None, 10, gain="exponential", **kw) == pytest.approx(got["ndcg_burges@10"], abs=1e-12)
    assert ek.mean_reciprocal_rank(h, None, **kw) == pytest.approx(got["mrr"], abs=1e-12)
    assert ek.hit_rate_at_k(h, None, 10, **kw) == pytest.approx(got["hit_rate@10"], abs=1e-12)
    assert ek.precision_at_k(h, None, 5, **kw) == pytest.approx(got["precision@5"], abs=1e-12)
    assert ek.recall_at_k(h, None, 5, **kw) == pytest.approx(got["recall@5"], abs=1e-12)
    assert ek.r_precision(h, None, **kw) == pytest.approx(got["r-precision"], abs=1e-12)


# -- oracles: scikit-learn dcg_score / ndcg_score -------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_dcg_ndcg_score_equal_sklearn_with_ties(seed):
    rng = np.random.default_rng(500 + seed)
    n, m = int(rng.integers(1, 30)), int(rng.integers(2, 25))
    y_true = rng.integers(0, 4, (n, m)).astype(float)
    if seed % 3 == 0:
        y_true = rng.random((n, m)) * (rng.random((n, m)) < 0.4)
    y_score = np.round(rng.random((n, m)), int(rng.integers(0, 3)))      # ties
    w = rng.random(n) if seed % 2 else None
    for k in (None, 1, 2, 5, m):
        for ignore_ties in (False, True):
            kw = dict(k=k, sample_weight=w, ignore_ties=ignore_ties)
            assert ek.ndcg_score(y_true, y_score, **kw) == pytest.approx(
                skm.ndcg_score(y_true, y_score, **kw), rel=1e-12, abs=1e-15)
            for log_base in (2, 10, math.e):
                assert ek.dcg_score(y_true, y_score, log_base=log_base, **kw) == pytest.approx(
                    skm.dcg_score(y_true, y_score, log_base=log_base, **kw), rel=1e-12, abs=1e-15)
    # dcg_score accepts negative gains, as sklearn
    neg = y_true - 1
    assert ek.dcg_score(neg, y_score) == pytest.approx(skm.dcg_score(neg, y_score), rel=1e-12, abs=1e-15)


def test_ndcg_score_is_sklearns_candidate_ideal():
    # sklearn's ideal DCG only knows the row's documents: the same as ndcg_at_k(ideal="candidates")
    rng = np.random.default_rng(9)
    y_true = rng.integers(0, 3, (40, 12)).astype(float)
    y_score = rng.random((40, 12))
    ranked = [list(np.argsort(-s, kind="stable")) for s in y_score]
    relevant = [{j: g for j, g in enumerate(row) if g > 0} for row in y_true]
    for k in (3, 12):
        want = ek.ndcg_score(y_true, y_score, k=k)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            assert ek.ndcg_at_k(ranked, relevant, k, convention="sklearn") == pytest.approx(want, rel=1e-12)


# -- Spark's and torchmetrics' own fixtures ----------------------------------------------------

SPARK_ROWS = [([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
              ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]),
              ([1, 2, 3, 4, 5], [])]
SPARK_RELEVANCE = [[3, 2, 1, 1, 1], [2, 0, 0], []]


def test_spark_suite_numbers():
    eps = 1e-5
    m = ek.RankingMetrics(SPARK_ROWS)
    for k, want in [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3), (4, 0.75 / 3), (5, 0.8 / 3), (10, 0.8 / 3), (15, 8 / 45)]:
        assert m.precisionAt(k) == pytest.approx(want, abs=eps)
    assert m.meanAveragePrecision == pytest.approx(0.355026, abs=eps)
    for k, want in [(1, 0.333334), (2, 0.25), (3, 0.24074)]:
        assert m.meanAveragePrecisionAt(k) == pytest.approx(want, abs=eps)
    for k, want in [(3, 1 / 3), (5, 0.328788), (10, 0.487913), (15, 0.487913)]:
        assert m.ndcgAt(k) == pytest.approx(want, abs=eps)
    for k, want in [(1, 1 / 15), (2, 8 / 45), (3, 11 / 45), (4, 11 / 45), (5, 16 / 45), (10, 2 / 3), (15, 2 / 3)]:
        assert m.recallAt(k) == pytest.approx(want, abs=eps)
    graded = ek.RankingMetrics([(p, lab, r) for (p, lab), r in zip(SPARK_ROWS, SPARK_RELEVANCE)])
    for k, want in [(3, 0.511959), (5, 0.487806), (10, 0.518700)]:
        assert graded.ndcgAt(k) == pytest.approx(want, abs=eps)
    few = ek.RankingMetrics([([1, 6, 2], [1, 2, 3, 4, 5]), ([], [1, 2, 3])])
    assert (few.precisionAt(1), few.precisionAt(2)) == pytest.approx((0.5, 0.25), abs=eps)
    assert (few.ndcgAt(1), few.ndcgAt(2)) == pytest.approx((0.5, 0.30657), abs=eps)
    assert (few.recallAt(1), few.recallAt(2)) == pytest.approx((0.1, 0.1), abs=eps)


def test_spark_graded_ideal_slip_ndcg_above_one():
    rev = [(p, lab[::-1], r[::-1]) for (p, lab), r in zip(SPARK_ROWS, SPARK_RELEVANCE)]
    assert ek.RankingMetrics(rev).ndcgAt(3) == pytest.approx(1.7502, abs=1e-4)
    pred = [p for p, _ in SPARK_ROWS]
    given = [dict(zip(lab, r)) for _, lab, r in rev]
    assert ek.ndcg_at_k(pred, given, 3, convention="spark") == pytest.approx(1.7502, abs=1e-4)
    # sorting the ideal (evalkit's default) keeps NDCG <= 1
    fixed = ek.ndcg_at_k(pred, given, 3, gain="exponential", zero_division=0.0)
    assert fixed == pytest.approx(ek.RankingMetrics(
        [(p, lab, r) for (p, lab), r in zip(SPARK_ROWS, SPARK_RELEVANCE)]).ndcgAt(3), abs=1e-12)


def test_spark_preset_equals_the_mirror_on_random_data():
    rng = np.random.default_rng(600)
    for _ in range(20):
        ranked, relevant = random_run(rng, n_users=15, empty_users=True, graded=True)
        rows = [(list(lst), list(rel), list(rel.values())) for lst, rel in zip(ranked, relevant)]
        m = ek.RankingMetrics(rows)
        binary = ek.RankingMetrics([(p, lab) for p, lab, _ in rows])
        sets = [set(rel) for rel in relevant]
        for k in (1, 3, 10):
            assert m.ndcgAt(k) == pytest.approx(ek.ndcg_at_k(ranked, relevant, k, convention="spark"),
                                                 abs=1e-12)
            assert binary.ndcgAt(k) == pytest.approx(ek.ndcg_at_k(ranked, sets, k, convention="spark"),
                                                      abs=1e-12)
            assert m.precisionAt(k) == pytest.approx(ek.precision_at_k(ranked, sets, k, convention="spark"),
                                                      abs=1e-12)
            assert m.recallAt(k) == pytest.approx(ek.recall_at_k(ranked, sets, k, convention="spark"),
                                                   abs=1e-12)
            assert m.meanAveragePrecisionAt(k) == pytest.approx(
                ek.mean_average_precision(ranked, sets, k, convention="spark"), abs=1e-12)
        assert m.meanAveragePrecision == pytest.approx(
            ek.mean_average_precision(ranked, sets, convention="spark"), abs=1e-12)


def test_spark_counts_repeated_predictions():
    # Spark does not refuse a prediction that repeats an item: each occurrence is a hit
    m = ek.RankingMetrics([([1, 1, 2], [1, 3])])
    assert m.precisionAt(3) == pytest.approx(2 / 3)
    assert m.recallAt(2) == 1.0
    assert ek.RankingMetrics([([1, 1, 1], [1])]).recallAt(3) == 3.0   # more hits than labels


def test_hits_built_by_hand_are_checked_and_sorted():
    h = ek.RankingHits([1, 0, 0], [0, 2, 0], [1, 1, 1], [2, 3], [3, 3])
    assert (h.user.tolist(), h.position.tolist()) == ([0, 0, 1], [0, 2, 0])
    assert ek.mean_average_precision(h, None) == pytest.approx(((1 + 2 / 3) / 2 + 1 / 3) / 2)
    for args, words in [(([0], [3], [1], [1], [3]), "position must be between 0"),
                        (([0], [0], [-1], [1], [3]), "gain must be >= 0"),
                        (([2], [0], [1], [1], [3]), "user must be between 0 and 0"),
                        (([0, 0], [1, 1], [1, 1], [2], [3]), "two hits at the same position"),
                        (([0, 0], [1], [1], [2], [3]), "user, position and gain have different"),
                        (([0], [1], [1], [2], [3, 3]), "n_relevant, n_judged and n_ranked have different")]:
        with pytest.raises(ValueError, match=words):
            ek.RankingHits(*args)


def test_torchmetrics_average_precision_divides_by_hits():
    # pyg-team/pytorch_geometric#9989: scores [0.5, 0.2, 0.3, 0.4, 0.1], relevant 0 and 4, top_k=3
    scores = np.array([0.5, 0.2, 0.3, 0.4, 0.1])
    ranked = [list(np.argsort(-scores))]
    relevant = [{0, 4}]
    assert ek.mean_average_precision(ranked, relevant, 3, convention="torchmetrics") == 1.0
    assert ek.mean_average_precision(ranked, relevant, 3) == 0.5
    assert ek.mean_average_precision(ranked, relevant, 3, convention="spark") == 0.5


def test_torchmetrics_doc_examples():
    # RetrievalMAP / RetrievalMRR docs: indexes [0,0,0,1,1,1,1], preds [.2,.3,.5,.1,.3,.5,.2],
    # target [F,F,T,F,T,F,T] -> MAP 0.7917, MRR 0.75; retrieval_normalized_dcg docs -> 0.6957
    frame = {"user": [0, 0, 0, 1, 1, 1, 1], "item": list(range(7)),
             "score": [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2]}
    truth = {"user": [0, 1, 1], "item": [2, 4, 6]}
    _, ranked, relevant = ek.lists_from_frame(frame, truth, score="score")
    assert round(ek.mean_average_precision(ranked, relevant, convention="torchmetrics"), 4) == 0.7917
    assert ek.mean_reciprocal_rank(ranked, relevant, convention="torchmetrics") == 0.75
    ranked = [list(np.argsort(-np.array([0.1, 0.2, 0.3, 4, 70])))]
    relevant = [{0: 10, 3: 1, 4: 5}]
    assert round(ek.ndcg_at_k(ranked, relevant, None, convention="torchmetrics"), 4) == 0.6957


# RecBole's own fixtures (RUCAIBox/RecBole tests/metrics/test_topk_metrics.py): a hit matrix
# pos_idx of 4 users x 3 ranks, pos_len = R, metric values at every cut-off 1..3.
RECBOLE_POS = np.array([[0, 0, 0], [1, 1, 1], [1, 0, 1], [0, 0, 1]])
RECBOLE_LEN = [1, 3, 4, 2]
RECBOLE_ITEMS = np.array([[5, 7, 3], [4, 5, 2], [2, 3, 5], [1, 4, 6], [5, 3, 7]])


def _recbole_lists():
    ranked, relevant = [], []
    for u, (row, r) in enumerate(zip(RECBOLE_POS, RECBOLE_LEN)):
        items = [100 * u + j for j in range(3)]
        ranked.append(items)
        rel = {i for i, h in zip(items, row) if h}
        rel |= {100 * u + 50 + j for j in range(r - len(rel))}   # relevant, never ranked
        relevant.append(rel)
    return ranked, relevant


def test_recbole_preset_equals_recboles_own_fixtures():
    ranked, relevant = _recbole_lists()
    h = ek.ranking_hits(ranked, relevant)
    log2 = np.log2
    want = {
        "hit": [[0, 0, 0], [1, 1, 1], [1, 1, 1], [0, 0, 1]],
        "ndcg": [[0, 0, 0], [1, 1, 1],
                 [1, 1 / log2(2) / (1 / log2(2) + 1 / log2(3)),
                  (1 / log2(2) + 1 / log2(4)) / (1 / log2(2) + 1 / log2(3) + 1 / log2(4))],
                 [0, 0, 1 / log2(4) / (1 / log2(2) + 1 / log2(3))]],
        "mrr": [[0, 0, 0], [1, 1, 1], [1, 1, 1], [0, 0, 1 / 3]],
        "map": [[0, 0, 0], [1, 1, 1], [1, 1 / 2, (1 / 3) * (1 / 1 + 2 / 3)], [0, 0, (1 / 3) * (1 / 2)]],
        "recall": [[0, 0, 0], [1 / 3, 2 / 3, 1], [1 / 4, 1 / 4, 2 / 4], [0, 0, 1 / 2]],
        "precision": [[0, 0, 0], [1, 1, 1], [1, 1 / 2, 2 / 3], [0, 0, 1 / 3]],
    }
    kw = {"convention": "recbole", "per_user": True}
    got = {
        "hit": [ek.hit_rate_at_k(h, None, k, **kw) for k in (1, 2, 3)],
        "ndcg": [ek.ndcg_at_k(h, None, k, **kw) for k in (1, 2, 3)],
        "mrr": [ek.mean_reciprocal_rank(h, None, k=k, **kw) for k in (1, 2, 3)],
        "map": [ek.mean_average_precision(h, None, k, **kw) for k in (1, 2, 3)],
        "recall": [ek.recall_at_k(h, None, k, **kw) for k in (1, 2, 3)],
        "precision": [ek.precision_at_k(h, None, k, **kw) for k in (1, 2, 3)],
    }
    for name in want:
        np.testing.assert_allclose(np.column_stack(got[name]), want[name], rtol=1e-12, err_msg=name)
    assert ek.catalog_coverage(RECBOLE_ITEMS, 8) == 7 / 8
    gini = ((-7) * 0 + (-5) * 1 + (-3) * 1 + (-1) * 2 + 1 * 2 + 3 * 2 + 5 * 3 + 7 * 4) / (8 * (3 * 5))
    assert ek.gini_index(RECBOLE_ITEMS, 8) == pytest.approx(gini, abs=1e-15)
    # RecBole's ShannonEntropy is the natural-log entropy divided by the distinct items (7)
    p = np.array([1, 2, 3, 2, 4, 1, 2]) / 15
    recbole_entropy = -np.mean(p * np.log(p))
    assert ek.distributional_coverage(RECBOLE_ITEMS, log_base=math.e) / 7 == pytest.approx(recbole_entropy)


def test_presets_bundle_options_and_explicit_options_win():
    ranked, relevant = [[1, 2, 3, 4]], [{2, 9, 10}]
    assert ek.mean_average_precision(ranked, relevant, 2, convention="spark") == \
        ek.mean_average_precision(ranked, relevant, 2, denominator="min_relevant_k")
    assert ek.mean_average_precision(ranked, relevant, 2, convention="spark", denominator="relevant") == \
        ek.mean_average_precision(ranked, relevant, 2)
    assert set(ek.ranking.CONVENTIONS) == set(CONVENTIONS)


def test_empty_users_warn_by_default_and_skip_under_trec():
    ranked, relevant = [[1, 2], [3, 4]], [{1}, set()]
    with pytest.warns(UndefinedMetricWarning, match="1 user\\(s\\) with no relevant items"):
        assert ek.ndcg_at_k(ranked, relevant, 2) == 0.5
    with pytest.warns(UndefinedMetricWarning, match="left out for 1 user"):   # trec's value, warned
        assert ek.ndcg_at_k(ranked, relevant, 2, convention="trec") == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")                    # a value given: no warning
        assert ek.ndcg_at_k(ranked, relevant, 2, convention="trec", zero_division=np.nan) == 1.0
        assert ek.ndcg_at_k(ranked, relevant, 2, zero_division=1.0) == 1.0
        assert ek.ndcg_at_k(ranked, relevant, 2, convention="spark", zero_division=0.0) == 0.5
        assert np.isnan(ek.ndcg_at_k(ranked, relevant, 2, zero_division=np.nan, per_user=True)[1])


def test_warning_points_at_the_caller():
    with pytest.warns(UndefinedMetricWarning) as rec:
        ek.precision_at_k([[1]], [set()], 1)
    assert rec[0].filename == __file__


# -- coverage, entropy, Gini ---------------------------------------------------------------------


def test_coverage_entropy_gini_brute_force():
    rng = np.random.default_rng(12)
    for _ in range(30):
        ranked, _ = random_run(rng, n_users=int(rng.integers(1, 20)), n_items=30)
        if not any(len(r) for r in ranked):
            continue
        for k in (None, 1, 3):
            top = [i for lst in ranked for i in (list(lst) if k is None else list(lst)[:k])]
            counts = {}
            for i in top:
                counts[i] = counts.get(i, 0) + 1
            assert ek.catalog_coverage(ranked, 30, k=k) == len(counts) / 30
            assert ek.catalog_coverage(ranked, list(range(40)), k=k) == len(counts) / 40
            p = np.array(list(counts.values())) / len(top)
            assert ek.distributional_coverage(ranked, k=k) == pytest.approx(-(p * np.log2(p)).sum(), abs=1e-12)
            full = sorted(list(counts.values()) + [0] * (30 - len(counts)))
            n = len(full)
            gini = sum((2 * (i + 1) - n - 1) * c for i, c in enumerate(full)) / (n * sum(full))
            assert ek.gini_index(ranked, 30, k=k) == pytest.approx(gini, abs=1e-12)
            # against the mean-absolute-difference definition of the Gini coefficient
            x = np.array(full, dtype=float)
            mad = np.abs(x[:, None] - x[None, :]).sum() / (2 * n * n * x.mean())
            assert ek.gini_index(ranked, 30, k=k) == pytest.approx(mad, abs=1e-12)


# -- the long-table converter ------------------------------------------------------------------


def test_lists_from_frame_with_pandas_ranks_grades_and_users():
    pd = pytest.importorskip("pandas")
    pred = pd.DataFrame({"u": [2, 1, 1, 1, 3], "i": [5, 7, 8, 9, 1], "r": [1, 3, 1, 2, 1]})
    truth = pd.DataFrame({"u": [1, 1, 2, 4], "i": [8, 7, 6, 1], "g": [2, 1, 3, 1]})
    users, ranked, relevant = ek.lists_from_frame(pred, truth, user="u", item="i", rank="r", grade="g")
    assert users.tolist() == [1, 2, 4]                       # the truth's users
    assert [r.tolist() for r in ranked] == [[8, 9, 7], [5], []]
    assert relevant == [{8: 2.0, 7: 1.0}, {6: 3.0}, {1: 1.0}]
    both = ek.lists_from_frame(pred, truth, user="u", item="i", rank="r", users="both")
    assert both[0].tolist() == [1, 2] and both[2][0].tolist() == [8, 7]
    union = ek.lists_from_frame(pred, truth, user="u", item="i", rank="r", users="union")
    assert union[0].tolist() == [1, 2, 3, 4] and union[2][2].tolist() == []
    only = ek.lists_from_frame(pred, user="u", item="i", rank="r")
    assert only[0].tolist() == [1, 2, 3] and only[2] is None
    # the lists feed the metrics directly
    assert ek.ndcg_at_k(ranked, relevant, 3, zero_division=0.0) == pytest.approx(
        np.mean([bf_user([8, 9, 7], {8: 2, 7: 1}, "ndcg", k=3), 0.0, 0.0]))


# -- bad input: one test per kind ------------------------------------------------------------------


def test_bad_k():
    with pytest.raises(ValueError, match="k must be >= 1"):
        ek.precision_at_k([[1]], [{1}], 0)
    with pytest.raises(TypeError, match="k must be an integer"):
        ek.ndcg_at_k([[1]], [{1}], 2.5)
    with pytest.raises(ValueError, match="k must be >= 1"):
        ek.RankingMetrics([([1], [1])]).ndcgAt(0)
    with pytest.raises(ValueError, match="k must be >= 1"):
        ek.ndcg_score([[1, 0]], [[0.5, 0.2]], k=0)


def test_bad_negative_relevance():
    with pytest.raises(ValueError, match="relevant has negative relevance grades such as -1.0"):
        ek.ndcg_at_k([[1, 2]], [{1: -1}], 2)
    with pytest.raises(ValueError, match="ndcg_score should not be used on negative y_true"):
        ek.ndcg_score([[1, -1]], [[0.5, 0.2]])


def test_bad_repeated_item_in_a_ranked_list():
    with pytest.raises(ValueError, match=r"ranked\[1\] repeats the item 2"):
        ek.precision_at_k([[1, 2], [2, 3, 2]], [{1}, {2}], 2)
    with pytest.raises(ValueError, match=r"ranked\[0\] repeats the item 'a'"):
        ek.ndcg_at_k(np.array([["a", "b", "a"]]), [{"a"}], 2)
    with pytest.raises(ValueError, match=r"relevant\[0\] repeats the item 1"):
        ek.recall_at_k([[1, 2]], [[1, 1]], 2)


def test_bad_different_lengths():
    with pytest.raises(ValueError, match=r"ranked and relevant have different numbers of users \(2 and 1\)"):
        ek.ndcg_at_k([[1], [2]], [{1}], 1)
    with pytest.raises(ValueError, match="y_true and y_score have different shapes"):
        ek.ndcg_score([[1, 0, 1]], [[0.5, 0.2]])


def test_bad_empty_input():
    with pytest.raises(ValueError, match="ranked is empty"):
        ek.ndcg_at_k([], [], 1)
    with pytest.raises(ValueError, match="relevant is empty"):
        ek.ndcg_at_k([[1]], [], 1)
    with pytest.raises(ValueError, match="predictionAndLabels must hold at least one"):
        ek.RankingMetrics([])
    with pytest.raises(ValueError, match="y_true is empty"):
        ek.dcg_score(np.zeros((0, 2)), np.zeros((0, 2)))


def test_bad_unhashable_ids():
    with pytest.raises(TypeError, match=r"ranked holds unhashable item ids such as \[1\]"):
        ek.ndcg_at_k([[[1], 2]], [{2}], 1)
    with pytest.raises(TypeError, match="relevant holds unhashable item ids"):
        ek.ndcg_at_k([[1, 2]], [[[1], 2]], 1)


def test_bad_kinds_and_shapes():
    with pytest.raises(TypeError, match=r"different kinds of item ids \(numbers and strings\)"):
        ek.ndcg_at_k([[1, 2]], [{"1"}], 1)
    with pytest.raises(TypeError, match=r"different kinds of item ids \(strings and numbers\)"):
        ek.ndcg_at_k([["1", "2"]], [{1}], 1)
    with pytest.raises(TypeError, match="ranked mixes numbers and strings"):
        ek.ndcg_at_k([[1, "a"]], [{1}], 1)
    with pytest.raises(TypeError, match=r"ranked\[0\] is a set: a ranked list must be ordered"):
        ek.ndcg_at_k([{1, 2}], [{1}], 1)
    with pytest.raises(TypeError, match="relevant is required"):
        ek.ndcg_at_k([[1]], None, 1)
    with pytest.raises(TypeError, match="ranked is required"):
        ek.ndcg_at_k(None, [{1}], 1)
    with pytest.raises(ValueError, match="ranked holds NaN as item ids"):
        ek.ndcg_at_k([[1.0, float("nan")]], [{1.0}], 1)
    with pytest.raises(ValueError, match="ranked must be 2-D"):
        ek.ndcg_at_k(np.zeros((2, 2, 2)), [{1}, {1}], 1)


def test_bad_options():
    with pytest.raises(ValueError, match="convention must be"):
        ek.ndcg_at_k([[1]], [{1}], 1, convention="lucene")
    with pytest.raises(ValueError, match="ideal must be 'relevant'"):
        ek.ndcg_at_k([[1]], [{1}], 1, ideal="best")
    with pytest.raises(ValueError, match="denominator must be"):
        ek.mean_average_precision([[1]], [{1}], denominator="k")
    with pytest.raises(ValueError, match="zero_division must be 'warn'"):
        ek.recall_at_k([[1]], [{1}], 1, zero_division="nan")
    with pytest.raises(ValueError, match="relevance must be 'positive'"):
        ek.recall_at_k([[1]], [{1}], 1, relevance="judged")
    with pytest.raises(ValueError, match="hit_rate must be"):
        ek.hit_rate_at_k([[1]], [{1}], 1, hit_rate="users")
    with pytest.raises(ValueError, match="log_base must be > 1"):
        ek.dcg_score([[1, 0]], [[1, 0]], log_base=1)
    with pytest.raises(ValueError, match="catalog=1 is smaller than the 2 distinct items"):
        ek.catalog_coverage([[1, 2]], 1)
    with pytest.raises(ValueError, match="ranked recommends items that are not in catalog"):
        ek.gini_index([[1, 2]], [1, 3])
    with pytest.raises(ValueError, match="score and rank: give exactly one"):
        ek.lists_from_frame({"user": [1], "item": [1]})
    with pytest.raises(ValueError, match="predictions has no column 'score'"):
        ek.lists_from_frame({"user": [1], "item": [1]}, score="score")
    with pytest.raises(TypeError, match="relevant must be None when ranked is a RankingHits"):
        ek.ndcg_at_k(ek.ranking_hits([[1]], [{1}]), [{1}], 1)
    with pytest.raises(ValueError, match=r"predictionAndLabels must hold at least one \(prediction, labels\)"):
        ek.RankingMetrics([([1],)])


# -- the conventions table, and the defects of issue 16 ------------------------------------------


def scala_ranking_metrics(rows):
    """A line-by-line transcription of Spark's RankingMetrics.scala (3.4+): per row, then the mean."""
    def rows_of(fn):
        return sum(fn(*r) if len(r) == 3 else fn(*r, []) for r in rows) / len(rows)

    def count_relevant(pred, lab, k, den):
        lab_set = set(lab)
        if not lab_set:
            return 0.0
        n = min(len(pred), k)
        return sum(1 for i in range(n) if pred[i] in lab_set) / (k if den == "k" else len(lab_set))

    def average_precision(pred, lab_set, k):
        if not lab_set:
            return 0.0
        cnt, prec_sum = 0, 0.0
        for i in range(min(k, len(pred))):
            if pred[i] in lab_set:
                cnt += 1
                prec_sum += cnt / (i + 1.0)
        return prec_sum / min(len(lab_set), k)

    def ndcg(pred, lab, rel, k):
        lab_set = set(lab)
        if not lab_set:
            return 0.0
        rel_map = dict(zip(lab, rel))
        n = min(max(len(pred), len(lab_set)), k)
        dcg = max_dcg = 0.0
        for i in range(n):
            if not rel:
                gain = 1.0 / math.log(i + 2)
                if i < len(pred) and pred[i] in lab_set:
                    dcg += gain
                if i < len(lab_set):
                    max_dcg += gain
            else:
                if i < len(pred):
                    dcg += (2 ** rel_map.get(pred[i], 0.0) - 1) / math.log(i + 2)
                if i < len(lab_set):
                    max_dcg += (2 ** rel_map.get(lab[i], 0.0) - 1) / math.log(i + 2)
        return 0.0 if max_dcg == 0 else dcg / max_dcg

    return {
        "precisionAt": lambda k: rows_of(lambda p, lab, r: count_relevant(p, lab, k, "k")),
        "recallAt": lambda k: rows_of(lambda p, lab, r: count_relevant(p, lab, k, "labels")),
        "meanAveragePrecision": rows_of(
            lambda p, lab, r: average_precision(p, set(lab), max(len(p), len(set(lab))))),
        "meanAveragePrecisionAt": lambda k: rows_of(lambda p, lab, r: average_precision(p, set(lab), k)),
        "ndcgAt": lambda k: rows_of(lambda p, lab, r: ndcg(p, lab, r, k)),
    }


def random_spark_rows(rng, n_rows, graded, distinct=False):
    rows = []
    for _ in range(n_rows):
        n_items = int(rng.integers(3, 30))
        if distinct:
            pred = [int(v) for v in rng.permutation(n_items)[:int(rng.integers(0, 15))]]
        else:
            pred = [int(v) for v in rng.integers(0, n_items, int(rng.integers(0, 15)))]  # repeats
        labels = [int(v) for v in rng.permutation(n_items)[:int(rng.integers(0, 8))]]
        if not distinct and rng.random() < 0.2 and labels:
            labels.append(labels[0])                     # Spark takes the set; the ideal reads the array
        if graded and rng.random() < 0.8:
            rel = [int(v) for v in rng.integers(0, 4, len(labels))]
            if distinct:
                rel.sort(reverse=True)                   # labels best first
            rows.append((pred, labels, rel))
        else:
            rows.append((pred, labels))
    return rows


def assert_spark_equal(ours, theirs, ks=(1, 2, 4, 15)):
    for k in ks:
        for name in ("precisionAt", "recallAt", "meanAveragePrecisionAt", "ndcgAt"):
            assert getattr(ours, name)(k) == pytest.approx(theirs[name](k), rel=1e-12, abs=1e-15), (name, k)
    assert ours.meanAveragePrecision == pytest.approx(theirs["meanAveragePrecision"], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", range(12))
def test_mirror_equals_the_scala_transcription_on_random_rows(seed):
    rng = np.random.default_rng(700 + seed)
    rows = random_spark_rows(rng, int(rng.integers(1, 40)), graded=seed % 2 == 1)
    assert_spark_equal(ek.RankingMetrics(rows), scala_ranking_metrics(rows))


@pytest.mark.parametrize("seed", range(8))
def test_spark_preset_equals_the_scala_transcription_on_random_rows(seed):
    # evalkit.ranking with convention="spark" on (distinct predictions, labels best first)
    rng = np.random.default_rng(800 + seed)
    rows = random_spark_rows(rng, int(rng.integers(1, 40)), graded=True, distinct=True)
    theirs = scala_ranking_metrics(rows)
    ranked = [p for p, *_ in rows]
    relevant = [dict(zip(r[1], r[2])) if len(r) == 3 else set(r[1]) for r in rows]
    kw = {"convention": "spark"}
    for k in (1, 3, 10):
        assert ek.precision_at_k(ranked, relevant, k, **kw) == pytest.approx(theirs["precisionAt"](k), abs=1e-14)
        assert ek.recall_at_k(ranked, relevant, k, **kw) == pytest.approx(theirs["recallAt"](k), abs=1e-14)
        assert ek.ndcg_at_k(ranked, relevant, k, **kw) == pytest.approx(theirs["ndcgAt"](k), abs=1e-14)
        assert ek.mean_average_precision(ranked, relevant, k, **kw) == pytest.approx(
            theirs["meanAveragePrecisionAt"](k), abs=1e-14)
    assert ek.mean_average_precision(ranked, relevant, **kw) == pytest.approx(
        theirs["meanAveragePrecision"], abs=1e-14)


def test_mirror_no_hit_gives_zero_as_spark():
    # issue 16: no row with a hit crashed with a numpy casting error; Spark gives 0.0
    for rows in ([([1, 2], [3])], [([1, 2], [3], [2.0])], [([1, 2], [3]), ([], [4], [1.0])]):
        m = ek.RankingMetrics(rows)
        theirs = scala_ranking_metrics(rows)
        assert m.ndcgAt(2) == theirs["ndcgAt"](2) == 0.0
        assert m.meanAveragePrecision == theirs["meanAveragePrecision"] == 0.0
        assert m.meanAveragePrecisionAt(2) == theirs["meanAveragePrecisionAt"](2) == 0.0
        assert m.precisionAt(1) == m.recallAt(1) == 0.0


def test_spark_counts_every_label_as_relevant():
    # issue 16: Spark uses grades only in NDCG; precision, recall and MAP count every label
    assert ek.precision_at_k([[1, 2]], [{1: 0, 2: 1}], 2, convention="spark") == 1.0
    rows = [([1, 2, 3], [1, 2, 4], [0, 1, 0])]
    theirs = scala_ranking_metrics(rows)
    m = ek.RankingMetrics(rows)
    assert m.precisionAt(2) == theirs["precisionAt"](2) == 1.0
    assert m.recallAt(3) == pytest.approx(theirs["recallAt"](3)) == pytest.approx(2 / 3)
    assert m.meanAveragePrecision == pytest.approx(theirs["meanAveragePrecision"])
    rel = [{1: 0, 2: 1, 4: 0}]
    assert ek.recall_at_k([[1, 2, 3]], rel, 3, convention="spark") == pytest.approx(2 / 3)
    assert ek.recall_at_k([[1, 2, 3]], rel, 3) == 1.0                     # evalkit: grade > 0
    assert ek.recall_at_k([[1, 2, 3]], rel, 3, relevance="any") == pytest.approx(2 / 3)


def _trec_all(ranked, relevant):
    """pytrec_eval on users with judgments (qrels); users with none are not in the qrels."""
    import pytrec_eval

    qrel = {f"q{u}": {f"d{i}": int(g) for i, g in grades_of(rel).items()}
            for u, rel in enumerate(relevant) if len(rel)}
    run = {f"q{u}": {f"d{i}": float(len(lst) - j) for j, i in enumerate(lst)} for u, lst in enumerate(ranked)}
    measures = {"P", "recall", "map", "map_cut", "ndcg", "ndcg_cut", "recip_rank", "success"}
    return pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run)


def test_trec_scores_users_whose_judgments_are_all_zero():
    # issue 16: trec_eval skips only users with no judgments at all
    ranked, relevant = [[1, 2], [3, 4]], [{1: 1}, {3: 0}]
    res = _trec_all(ranked, relevant)
    assert ek.mean_average_precision(ranked, relevant, convention="trec") == 0.5 == np.mean(
        [r["map"] for r in res.values()])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ek.ndcg_at_k([[1, 2], [3, 4], [5]], [{1: 1}, {3: 0}, {}], 2, convention="trec",
                            zero_division=np.nan, per_user=True).tolist()[:2] == [1.0, 0.0]


@pytest.mark.parametrize("seed", range(10))
def test_trec_preset_equals_pytrec_eval_with_zero_and_no_judgments(seed):
    rng = np.random.default_rng(900 + seed)
    ranked, relevant = random_run(rng, n_users=int(rng.integers(5, 40)), n_items=60, graded=True,
                                  empty_users=True)
    ranked = [lst if len(lst) else [int(rng.integers(0, 60))] for lst in ranked]  # trec drops empty runs
    for u in range(0, len(relevant), 4):
        relevant[u] = {i: 0 for i in relevant[u]}        # judged, nothing relevant
    res = _trec_all(ranked, relevant)
    users = [u for u in range(len(ranked)) if f"q{u}" in res]
    assert users == [u for u, rel in enumerate(relevant) if len(rel)]
    h = ek.ranking_hits(ranked, relevant)
    kw = {"convention": "trec", "zero_division": np.nan}
    checks = [("map", ek.mean_average_precision, None), ("recip_rank", ek.mean_reciprocal_rank, None),
              ("ndcg", ek.ndcg_at_k, None)]
    for k in (5, 10, 15, 20, 30, 100):
        checks += [(f"P_{k}", ek.precision_at_k, k), (f"recall_{k}", ek.recall_at_k, k),
                   (f"map_cut_{k}", ek.mean_average_precision, k), (f"ndcg_cut_{k}", ek.ndcg_at_k, k)]
    for k in (1, 5, 10):
        checks.append((f"success_{k}", ek.hit_rate_at_k, k))
    for measure, fn, k in checks:
        want = [res[f"q{u}"][measure] for u in users]
        per = fn(h, None, k, per_user=True, **kw)
        np.testing.assert_allclose(per[users], want, atol=1e-12, err_msg=measure)
        assert np.isnan(np.delete(per, users)).all()
        if users:
            assert fn(h, None, k, **kw) == pytest.approx(np.mean(want), abs=1e-12)


def torchmetrics_like(ranked, relevant, k=None):
    """torchmetrics' retrieval formulas on the candidates it is given (per query: the ranked
    list, its targets = relevant among the candidates); empty_target_action='neg'."""
    out = {"precision": [], "recall": [], "map": [], "mrr": [], "ndcg": [], "hit": []}
    for lst, rel in zip(ranked, relevant):
        g = grades_of(rel)
        target = [g.get(i, 0) for i in lst]
        if not any(t > 0 for t in target):
            for v in out.values():
                v.append(0.0)
            continue
        top = target if k is None else target[:k]
        hit = [t > 0 for t in top]
        kk = len(target) if k is None else k
        out["precision"].append(sum(hit) / kk)
        out["recall"].append(sum(hit) / sum(t > 0 for t in target))
        pos = [j + 1 for j, h in enumerate(hit) if h]
        out["map"].append(np.mean([(n + 1) / p for n, p in enumerate(pos)]) if pos else 0.0)
        out["mrr"].append(1 / pos[0] if pos else 0.0)
        out["hit"].append(float(bool(pos)))
        disc = [1 / math.log2(j + 2) for j in range(len(target))]
        dcg = sum(t * d for t, d in zip(top, disc))
        idcg = sum(t * d for t, d in zip(sorted(target, reverse=True)[:kk], disc))
        out["ndcg"].append(dcg / idcg)
    return {m: float(np.mean(v)) for m, v in out.items()}


def _evalkit_torchmetrics(ranked, relevant, k):
    kw = {"convention": "torchmetrics", "zero_division": 0.0}
    return {"precision": ek.precision_at_k(ranked, relevant, k if k else 10 ** 6, **kw)
            if k else float(np.mean(ek.precision_at_k(ranked, relevant, 10 ** 6, adaptive_k=True,
                                                        per_user=True, **kw))),
            "recall": ek.recall_at_k(ranked, relevant, k or 10 ** 6, **kw),
            "map": ek.mean_average_precision(ranked, relevant, k, **kw),
            "mrr": ek.mean_reciprocal_rank(ranked, relevant, k, **kw),
            "ndcg": ek.ndcg_at_k(ranked, relevant, k, **kw),
            "hit": ek.hit_rate_at_k(ranked, relevant, k or 10 ** 6, **kw)}


@pytest.mark.parametrize("seed", range(8))
def test_torchmetrics_preset_sees_only_the_candidates(seed):
    # issue 16: torchmetrics' recall divides by the relevant candidates; a user whose relevant
    # items are all unranked is an empty target (0 under empty_target_action="neg")
    rng = np.random.default_rng(1000 + seed)
    ranked, relevant = random_run(rng, n_users=25, graded=seed % 2 == 1, ragged=True)
    ranked = [lst if len(lst) else [int(rng.integers(0, 5))] for lst in ranked]
    for k in (None, 1, 3, 10):
        want = torchmetrics_like(ranked, relevant, k)
        got = _evalkit_torchmetrics(ranked, relevant, k)
        for m in want:
            assert got[m] == pytest.approx(want[m], abs=1e-12), (m, k)
    assert ek.recall_at_k([[1, 2]], [{1, 9}], 2, convention="torchmetrics") == 1.0
    assert ek.recall_at_k([[1, 2]], [{9}], 2, convention="torchmetrics") == 0.0


def test_torchmetrics_itself_when_installed():
    torch = pytest.importorskip("torch")
    tm = pytest.importorskip("torchmetrics.functional.retrieval")
    rng = np.random.default_rng(1100)
    for _ in range(40):
        m = int(rng.integers(2, 15))
        preds = rng.permutation(m) + 1.0                   # distinct positive scores
        target = rng.integers(0, 3, m) * (rng.random(m) < 0.4)
        ranked = [list(np.argsort(-preds, kind="stable"))]
        relevant = [{j: int(t) for j, t in enumerate(target) if t > 0}]
        p, t = torch.tensor(preds), torch.tensor(target > 0)
        kw = {"convention": "torchmetrics"}
        for k in (1, 3, m):
            assert ek.recall_at_k(ranked, relevant, k, **kw) == pytest.approx(
                float(tm.retrieval_recall(p, t, top_k=k)), abs=1e-6)
            assert ek.precision_at_k(ranked, relevant, k, **kw) == pytest.approx(
                float(tm.retrieval_precision(p, t, top_k=k)), abs=1e-6)
            assert ek.mean_average_precision(ranked, relevant, k, **kw) == pytest.approx(
                float(tm.retrieval_average_precision(p, t, top_k=k)), abs=1e-6)
            assert ek.mean_reciprocal_rank(ranked, relevant, k, **kw) == pytest.approx(
                float(tm.retrieval_reciprocal_rank(p, t, top_k=k)), abs=1e-6)
            assert ek.ndcg_at_k(ranked, relevant, k, **kw) == pytest.approx(
                float(tm.retrieval_normalized_dcg(p, torch.tensor(target), top_k=k)), abs=1e-6)


def test_k_is_positional_third_everywhere():
    ranked, relevant = [[5, 6, 1], [6, 2, 7]], [{1}, {2}]
    assert ek.mean_reciprocal_rank(ranked, relevant, 2) == ek.mean_reciprocal_rank(ranked, relevant, k=2) == 0.25
    assert ek.distributional_coverage(ranked, log_base=4) == pytest.approx(
        ek.distributional_coverage(ranked) / 2)


def test_no_state_between_calls_a_changed_list_is_seen():
    rng = np.random.default_rng(13)
    ranked, relevant = random_run(rng, n_users=30, n_items=40, ragged=False)
    first = ek.ndcg_at_k(ranked, relevant, 5)
    assert ek.ndcg_at_k(ranked, relevant, 5) == first
    ranked[:, [0, -1]] = ranked[:, [-1, 0]]                # mutated in place: same object
    fresh = ek.ndcg_at_k(ranked.copy(), relevant, 5)
    assert ek.ndcg_at_k(ranked, relevant, 5) == fresh
    relevant[0].add(int(ranked[0, 0]))                     # a set changed in place
    assert ek.precision_at_k(ranked, relevant, 1, per_user=True)[0] == 1.0


METRIC_NAMES = {"precision@3": (ek.precision_at_k, 3), "recall@5": (ek.recall_at_k, 5),
                "map": (ek.mean_average_precision, None), "map@4": (ek.mean_average_precision, 4),
                "ndcg@5": (ek.ndcg_at_k, 5), "dcg@2": (ek.dcg_at_k, 2), "mrr": (ek.mean_reciprocal_rank, None),
                "mrr@3": (ek.mean_reciprocal_rank, 3), "hit_rate@4": (ek.hit_rate_at_k, 4),
                "arhr@6": (ek.arhr_at_k, 6), "ndcg_at_k@1": (ek.ndcg_at_k, 1),
                "r_precision": (ek.r_precision, None),
                "11pt_avg": (ek.interpolated_average_precision, None)}
NO_CUT_OFF = (ek.r_precision, ek.interpolated_average_precision)


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.filterwarnings("ignore::evalkit.exceptions.UndefinedMetricWarning")
def test_evaluate_ranking_equals_each_metric_called_alone(convention):
    rng = np.random.default_rng(len(convention))
    for graded in (False, True):
        ranked, relevant = random_run(rng, graded=graded, empty_users=True)
        for per_user in (False, True):
            out = ek.evaluate_ranking(ranked, relevant, list(METRIC_NAMES), convention=convention,
                                      per_user=per_user)
            assert list(out) == list(METRIC_NAMES)
            for name, (func, k) in METRIC_NAMES.items():
                kw = {} if func is ek.dcg_at_k else {"zero_division": "warn"}
                cut = () if func in NO_CUT_OFF else (k,)
                alone = func(ranked, relevant, *cut, convention=convention, per_user=per_user, **kw)
                np.testing.assert_array_equal(out[name], alone, err_msg=name)
    # options reach the metrics that take them, and a RankingHits is accepted
    h = ek.ranking_hits(ranked, relevant)
    out = ek.evaluate_ranking(h, None, ["map@3", "hit_rate@2", "ndcg@4", "precision@9"],
                              denominator="hits", hit_rate="any_hit", gain="exponential",
                              adaptive_k=True, zero_division=1.0)
    assert out == {"map@3": ek.mean_average_precision(ranked, relevant, 3, denominator="hits",
                                                      zero_division=1.0),
                   "hit_rate@2": ek.hit_rate_at_k(ranked, relevant, 2, hit_rate="any_hit",
                                                  zero_division=1.0),
                   "ndcg@4": ek.ndcg_at_k(ranked, relevant, 4, gain="exponential", zero_division=1.0),
                   "precision@9": ek.precision_at_k(ranked, relevant, 9, adaptive_k=True,
                                                    zero_division=1.0)}


def test_evaluate_ranking_matches_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(5)
    ranked, relevant = random_run(rng, n_users=40, n_items=30)
    keep = [u for u in range(40) if len(ranked[u])]        # trec_eval skips users without a run
    run = {f"q{u}": {str(i): float(len(ranked[u]) - j) for j, i in enumerate(ranked[u])} for u in keep}
    qrels = {f"q{u}": {str(i): 1 for i in relevant[u]} for u in keep}
    res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map_cut.100", "P.5"}).evaluate(run)
    out = ek.evaluate_ranking([ranked[u] for u in keep], [relevant[u] for u in keep],
                              ["ndcg@10", "map@100", "precision@5"], convention="trec")
    for ours, theirs in (("ndcg@10", "ndcg_cut_10"), ("map@100", "map_cut_100"), ("precision@5", "P_5")):
        assert out[ours] == pytest.approx(np.mean([r[theirs] for r in res.values()]), rel=1e-12)


def test_lists_are_validated_once_however_many_metrics(monkeypatch):
    # no public function calls another: evaluate_ranking reads the lists once, then private steps
    from evalkit import _hit_metrics

    calls = []
    real = _hit_metrics.check_lists

    def counting(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(_hit_metrics, "check_lists", counting)
    ranked, relevant = [[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}]
    ek.evaluate_ranking(ranked, relevant, list(METRIC_NAMES))
    assert len(calls) == 1
    ek.average_precision([1, 2, 3], {1, 3})
    ek.ndcg_at_k(ranked, relevant, 3)
    assert len(calls) == 3


def test_the_private_step_for_compare_mllib_and_spark():
    # evalkit._hit_metrics: options checked once (check_options), hits found once, metrics by name
    from evalkit import _hit_metrics

    rng = np.random.default_rng(21)
    ranked, relevant = random_run(rng, n_users=30, graded=True)
    hits = ek.ranking_hits(ranked, relevant)
    options = _hit_metrics.check_options("trec", gain="exponential", zero_division=0.0)
    names = ["ndcg@5", "map", "r_precision", "precision@3"]
    got = _hit_metrics.evaluate(hits, None, names, options, per_user=True)
    want = ek.evaluate_ranking(ranked, relevant, names, convention="trec", gain="exponential",
                               zero_division=0.0, per_user=True)
    for name in names:
        np.testing.assert_array_equal(got[name], want[name])
    assert _hit_metrics.check_options() == _hit_metrics.resolve_options()
    with pytest.raises(ValueError, match="^gain must be"):
        _hit_metrics.check_options(gain="log")
    with pytest.raises(ValueError, match="^convention must be"):
        _hit_metrics.check_options("lucene")
    with pytest.raises(TypeError, match="^colour is not an option of the ranking metrics"):
        _hit_metrics.check_options(colour="red")
    assert _hit_metrics.FUNCTIONS_AT_K == tuple(
        m.function for m in _hit_metrics.METRICS.values() if m.cut_off != "none")


def test_evaluate_ranking_refuses_bad_names_before_any_work():
    ranked, relevant = [[1, 2, 3]], [{1}]
    for bad, match in (("ndgc@10", "metrics: unknown metric 'ndgc@10'"),
                       ("precision", "metrics: 'precision' needs a cut-off: 'precision@k'"),
                       ("ndcg@0", "metrics: 'ndcg@0': the cut-off"), ("map@x", "metrics: 'map@x'"),
                       ("map@", "metrics: 'map@'"),
                       ("r_precision@3", "metrics: 'r_precision@3': r_precision takes no cut-off"),
                       ("11pt_avg@10", "metrics: '11pt_avg@10': 11pt_avg takes no cut-off")):
        with pytest.raises(ValueError, match=match):
            ek.evaluate_ranking(ranked, relevant, ["map", bad])
    with pytest.raises(TypeError, match="metrics: each metric is a name"):
        ek.evaluate_ranking(ranked, relevant, [ek.ndcg_at_k])
    with pytest.raises((TypeError, ValueError), match="^metrics"):
        ek.evaluate_ranking(ranked, relevant, "ndcg@10")
    with pytest.raises(ValueError, match="^ranked"):          # lists validated after the names
        ek.evaluate_ranking([[1, 1]], relevant, ["map"])
    with pytest.raises(ValueError, match="^convention"):
        ek.evaluate_ranking(ranked, relevant, ["map"], convention="lucene")


def test_hits_cut_at_k_serve_only_cut_offs_up_to_k():
    rng = np.random.default_rng(3)
    ranked, relevant = random_run(rng, n_users=20, n_items=30, ragged=False)
    whole = ek.ranking_hits(ranked, relevant)
    keep = whole.position < 3                                # the hits in each list's first 3
    cut = ek.RankingHits(whole.user[keep], whole.position[keep], whole.gain[keep], whole.n_relevant,
                         whole.n_ranked, cut=3)
    assert ek.ndcg_at_k(cut, None, 3) == ek.ndcg_at_k(whole, None, 3)
    assert ek.evaluate_ranking(cut, None, ["map@2", "recall@3"]) == \
        ek.evaluate_ranking(whole, None, ["map@2", "recall@3"])
    for call in (lambda: ek.ndcg_at_k(cut, None, 4), lambda: ek.mean_reciprocal_rank(cut, None),
                 lambda: ek.evaluate_ranking(cut, None, ["map"])):
        with pytest.raises(ValueError, match="^k: these hits were found in each list's first 3"):
            call()
    for convention in ("torchmetrics", "sklearn"):
        with pytest.raises(ValueError, match="^ranked: .*relevant_in='ranked'"):
            ek.recall_at_k(cut, None, 2, convention=convention)
    with pytest.raises(ValueError, match="^ranked: ideal='candidates'"):
        ek.ndcg_at_k(cut, None, 2, ideal="candidates")
    assert repr(cut).endswith("first 3 of each list)")
    assert ek.RankingHits.concat([cut, whole]).cut == 3


def test_evaluate_ranking_docstring_lists_every_metric_name():
    import re

    rows = re.findall(r"^ +([a-z0-9_]+)(?:@k)?(?:, [a-z_]+@k)? +:func:`(\w+)`",
                      ek.evaluate_ranking.__doc__, re.MULTILINE)
    assert dict(rows) == {name: m.function for name, m in ek.ranking.METRICS.items()}
    for name, metric in ek.ranking.METRICS.items():   # each names a public function
        assert getattr(ek, metric.function).__name__ == metric.function


def test_few_users_over_a_large_catalogue_find_their_hits():
    # fewer users than a block and ids too far apart for a lookup table: once found no hit at all
    ranked = np.arange(0, 20_000_000, 4)[None, :]
    relevant = [[8, 19_999_996]]
    top = set(ranked[0, :5].tolist())
    expected = len(top & set(relevant[0])) / len(relevant[0])   # counted by hand: 8 is in the top 5
    assert ek.recall_at_k(ranked, relevant, 5) == expected == 0.5
    assert ek.recall_at_k(ranked, relevant, ranked.shape[1]) == 1.0
