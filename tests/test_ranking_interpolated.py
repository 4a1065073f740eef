"""R-precision and interpolated precision (Manning, Raghavan & Schütze, chapter 8):
pytrec_eval's ``Rprec``, ``iprec_at_recall_*`` and ``11pt_avg`` on random runs with tied
scores, an exact brute-force oracle (fractions) of the book's definitions, the book's
shape of the curve, and the options and refusals the module's other metrics have."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import evalkit as ek
from evalkit.exceptions import UndefinedMetricWarning

ELEVEN = [Fraction(j, 10) for j in range(11)]
TREC_LEVELS = [f"iprec_at_recall_{j / 10:.2f}" for j in range(11)]


# -- oracles: the definitions, one user at a time, in exact arithmetic --------------------------


def relevant_of(rel):
    """The user's relevant items: grade > 0 (a set is all relevant)."""
    if isinstance(rel, dict):
        return {i for i, g in rel.items() if g > 0}
    return set(rel)


def bf_r_precision(lst, rel):
    relevant = relevant_of(rel)
    R = len(relevant)
    if R == 0:
        return None
    return Fraction(sum(1 for i in list(lst)[:R] if i in relevant), R)


def bf_interpolated(lst, rel, level, rule="ceil"):
    """max over ranks i whose recall reaches ``level`` of the precision at i; 0 if none does.

    ``rule="ceil"``: recall(i) >= level, exactly. ``"plus_0.9"``: trec_eval's count of hits,
    int(level * R + 0.9) in doubles, with the level as the double trec_eval holds.
    """
    relevant = relevant_of(rel)
    R = len(relevant)
    if R == 0:
        return None
    best, hits = Fraction(0), 0
    for rank, item in enumerate(lst, start=1):
        hits += item in relevant
        if rule == "ceil":
            reached = Fraction(hits, R) >= level
        else:
            reached = hits >= int(float(level) * R + 0.9)
        if reached:
            best = max(best, Fraction(hits, rank))
    return best


def random_lists(rng, n_users, n_items, graded):
    ranked, relevant = [], []
    for _ in range(n_users):
        ranked.append(rng.permutation(n_items)[:int(rng.integers(0, n_items + 1))].tolist())
        pool = rng.permutation(n_items)[:int(rng.integers(0, 13))].tolist()
        if graded:
            relevant.append({i: int(rng.integers(0, 4)) for i in pool})
        else:
            relevant.append(set(pool))
    return ranked, relevant


@pytest.mark.parametrize("seed", range(8))
def test_equal_the_books_definitions_exactly(seed):
    rng = np.random.default_rng(seed)
    ranked, relevant = random_lists(rng, 40, int(rng.integers(3, 30)), graded=seed % 2 == 1)
    levels = [Fraction(int(v), 100) for v in rng.integers(0, 101, 7)] + ELEVEN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        rp = ek.r_precision(ranked, relevant, zero_division=np.nan, per_user=True)
        ip = ek.interpolated_precision(ranked, relevant, [float(v) for v in levels],
                                       zero_division=np.nan, per_user=True)
        avg = ek.interpolated_average_precision(ranked, relevant, zero_division=np.nan,
                                                per_user=True)
    checked = 0
    for u, (lst, rel) in enumerate(zip(ranked, relevant)):
        want = bf_r_precision(lst, rel)
        if want is None:
            assert math.isnan(rp[u]) and np.isnan(ip[u]).all() and math.isnan(avg[u])
            continue
        checked += 1
        assert rp[u] == pytest.approx(float(want), abs=1e-15)
        for j, level in enumerate(levels):
            assert ip[u, j] == pytest.approx(float(bf_interpolated(lst, rel, level)), abs=1e-15)
        eleven = sum(bf_interpolated(lst, rel, level) for level in ELEVEN) / 11
        assert avg[u] == pytest.approx(float(eleven), abs=1e-15)
    assert checked > 20    # most users have relevant items


def test_the_rounding_of_recall_levels():
    # three relevant items, hits at ranks 1, 2 and 10: recall 0.7 needs all three (2/3 < 0.7);
    # trec_eval's int(0.7 * 3 + 0.9) is 2, so it reads the precision at the second hit
    ranked = [["a", "b", "x", "x2", "x3", "x4", "x5", "x6", "x7", "c"]]
    relevant = [{"a", "b", "c"}]
    assert ek.interpolated_precision(ranked, relevant, 0.7) == pytest.approx(0.3)
    assert ek.interpolated_precision(ranked, relevant, 0.7, recall_hits="plus_0.9") == 1.0
    assert ek.interpolated_precision(ranked, relevant, 0.7, convention="trec") == 1.0
    # 0.7 * 10 is 7 hits, though the doubles multiply to a hair above 7: hits at ranks 1-7
    # (precision 1), then 8/20, 9/21, 10/22
    ten = [list(range(22))]
    relevant_ten = [set(range(7)) | {19, 20, 21}]
    assert ek.interpolated_precision(ten, relevant_ten, [0.1, 0.7, 0.8]).tolist() == [
        1.0, 1.0, 10 / 22]
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run = {"q": {d: float(10 - j) for j, d in enumerate(ranked[0])}}
    res = pytrec_eval.RelevanceEvaluator({"q": dict.fromkeys(relevant[0], 1)},
                                         {"iprec_at_recall"}).evaluate(run)
    assert res["q"]["iprec_at_recall_0.70"] == 1.0


# -- oracle: pytrec_eval (trec_eval) on random runs with tied scores ----------------------------


def _tied_run(rng, n_users=25, n_docs=60, n_rows=500, graded=True):
    """A run with many tied scores and graded qrels (grade 0 too), as tables and as dicts."""
    users = rng.integers(0, n_users, n_rows).astype(str)
    docs = np.array([f"d{v:03d}" for v in rng.integers(0, n_docs, n_rows)])
    keep = np.unique(np.char.add(np.char.add(users, ":"), docs), return_index=True)[1]
    users, docs = users[keep], docs[keep]
    scores = np.round(rng.random(len(docs)), 1)
    tu = rng.integers(0, n_users, 200).astype(str)
    td = np.array([f"d{v:03d}" for v in rng.integers(0, n_docs, 200)])
    keep = np.unique(np.char.add(np.char.add(tu, ":"), td), return_index=True)[1]
    tu, td = tu[keep], td[keep]
    grades = rng.integers(0, 4, len(td)) if graded else np.ones(len(td), int)
    qrel, run = {}, {}
    for u, d, g in zip(tu, td, grades):
        qrel.setdefault(u, {})[d] = int(g)
    for u, d, s in zip(users, docs, scores):
        run.setdefault(u, {})[d] = float(s)
    pred = {"user": users, "item": docs, "score": scores}
    truth = {"user": tu, "item": td, "grade": grades}
    return pred, truth, qrel, run


@pytest.mark.parametrize("seed", range(6))
def test_trec_preset_equals_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(500 + seed)
    pred, truth, qrel, run = _tied_run(rng, graded=seed % 2 == 0)
    measures = {"Rprec", "iprec_at_recall", "11pt_avg"}
    res = pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run)
    q, ranked, relevant = ek.lists_from_frame(pred, truth, score="score", grade="grade",
                                              convention="trec")
    assert sorted(res) == sorted(q.tolist())
    theirs = [res[u] for u in q.tolist()]
    kw = {"convention": "trec", "per_user": True}
    np.testing.assert_allclose(ek.r_precision(ranked, relevant, **kw),
                               [r["Rprec"] for r in theirs], rtol=0, atol=1e-12)
    ours = ek.interpolated_precision(ranked, relevant, np.arange(11) / 10, **kw)
    np.testing.assert_allclose(ours, [[r[m] for m in TREC_LEVELS] for r in theirs],
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(ek.interpolated_average_precision(ranked, relevant, **kw),
                               [r["11pt_avg"] for r in theirs], rtol=0, atol=1e-12)
    # the means, as trec_eval's "all" line
    assert ek.r_precision(ranked, relevant, convention="trec") == pytest.approx(
        np.mean([r["Rprec"] for r in theirs]), abs=1e-12)
    assert ek.interpolated_average_precision(ranked, relevant, convention="trec") == \
        pytest.approx(np.mean([r["11pt_avg"] for r in theirs]), abs=1e-12)


# -- properties ---------------------------------------------------------------------------------


def test_the_curve_does_not_rise_and_r_precision_is_precision_and_recall_at_r():
    rng = np.random.default_rng(9)
    ranked, relevant = random_lists(rng, 60, 25, graded=False)
    levels = np.linspace(0, 1, 21)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        curve = ek.interpolated_precision(ranked, relevant, levels, per_user=True)
        rp = ek.r_precision(ranked, relevant, per_user=True)
    assert (np.diff(curve, axis=1) <= 0).all()
    for u, (lst, rel) in enumerate(zip(ranked, relevant)):
        R = len(rel)
        if R:
            p = ek.precision_at_k([lst], [rel], R)
            r = ek.recall_at_k([lst], [rel], R)
            assert rp[u] == p == r


def test_one_level_gives_a_float_several_an_array():
    ranked, relevant = [list("abcdef"), list("uvwxyz")], [{"a", "c", "f"}, {"v"}]
    one = ek.interpolated_precision(ranked, relevant, 0.5)
    assert isinstance(one, float) and one == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert ek.interpolated_precision(ranked, relevant, np.float32(0.5)) == one
    several = ek.interpolated_precision(ranked, relevant, [0.5, 1.0])
    assert several.shape == (2,) and several[0] == one
    assert ek.interpolated_precision(ranked, relevant, 0.5, per_user=True).shape == (2,)
    assert ek.interpolated_precision(ranked, relevant, [0.5], per_user=True).shape == (2, 1)


def test_hits_found_once_serve_them_and_cut_hits_are_refused():
    rng = np.random.default_rng(4)
    ranked, relevant = random_lists(rng, 30, 20, graded=True)
    h = ek.ranking_hits(ranked, relevant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert ek.r_precision(h, None) == ek.r_precision(ranked, relevant)
        assert ek.interpolated_average_precision(h, None) == \
            ek.interpolated_average_precision(ranked, relevant)
    keep = h.position < 2
    cut = ek.RankingHits(h.user[keep], h.position[keep], h.gain[keep], h.n_relevant, h.n_ranked,
                         h.ideal, h.given, graded=True, n_judged=h.n_judged, cut=2)
    with pytest.raises(ValueError, match="^ranked: R-precision reads each list down to"):
        ek.r_precision(cut, None)
    with pytest.raises(ValueError, match="^ranked: interpolated precision reads each whole list"):
        ek.interpolated_precision(cut, None, 0.5)
    with pytest.raises(ValueError, match="^ranked: 11-point interpolated average precision"):
        ek.interpolated_average_precision(cut, None)
    small = ek.RankingHits([0], [0], [1.0], [1], [3], cut=1)   # R = 1 lies within the cut
    assert ek.r_precision(small, None) == 1.0


def test_conventions_and_undefined_users():
    ranked, relevant = [[1, 2, 3], [4, 5, 6]], [{1: 0, 2: 1}, {}]
    with pytest.warns(UndefinedMetricWarning, match="^R-precision is ill-defined"):
        assert ek.r_precision(ranked, relevant) == 0.0
    assert ek.r_precision(ranked, relevant, zero_division=1.0) == 0.5
    assert ek.r_precision(ranked, relevant, zero_division=np.nan) == 0.0
    # Spark counts every judged item: the grade-0 item 1 is relevant, R = 2
    assert ek.r_precision(ranked[:1], relevant[:1], convention="spark") == 1.0
    # torchmetrics sees only the candidates: R counts the relevant items in the list
    assert ek.r_precision([[9, 1]], [{1, 7, 8}], convention="torchmetrics") == 0.0
    assert ek.r_precision([[1, 9]], [{1, 7, 8}], convention="torchmetrics") == 1.0
    with pytest.warns(UndefinedMetricWarning, match="^Interpolated precision is ill-defined"):
        ek.interpolated_precision(ranked, relevant, [0.0, 1.0])
    with pytest.warns(UndefinedMetricWarning, match="^11-point interpolated average precision"):
        ek.interpolated_average_precision(ranked, relevant)
    with pytest.warns(UndefinedMetricWarning, match="every user was left out"):
        assert ek.interpolated_precision([[1]], [{}], [0.2, 0.4],
                                         zero_division=np.nan).tolist() == [0.0, 0.0]


def test_bad_recall_levels_and_options():
    ranked, relevant = [[1, 2, 3]], [{1}]
    for bad in (1.5, -0.1, [0.5, 2.0], float("nan"), [float("inf")]):
        with pytest.raises(ValueError, match="^recall_level"):
            ek.interpolated_precision(ranked, relevant, bad)
    for bad in ("0.5", None, True, [[0.5]], {0.5}):
        with pytest.raises((TypeError, ValueError), match="^recall_level"):
            ek.interpolated_precision(ranked, relevant, bad)
    with pytest.raises(ValueError, match="^recall_hits"):
        ek.interpolated_average_precision(ranked, relevant, recall_hits="round")
    with pytest.raises(TypeError):
        ek.r_precision(ranked, relevant, 3)      # no cut-off: R is each user's own
