"""Ranking metrics of a recommender: 10^5 users x 100 ranked items, NDCG@10, MAP@100, MRR, HR@10.

The workload of the ranking issue: 10^5 users, each with a ranked list of 100
distinct items from a catalogue of 10^4 and 1-30 relevant items (about half
of them in the list). The four metrics are computed together: evalkit finds
the hits once (:func:`evalkit.ranking_hits`) and reads every metric and
cut-off off them. HR@10 is the per-user "any hit" rate here (trec_eval
``success_10``, ranx ``hit_rate@10``), so that all three libraries compute
the same four numbers (checked before timing).

* From arrays (a 2-D int array of lists, a list of per-user arrays of
  relevant items) against pytrec_eval from its dicts (evaluator built and
  run): target >= 5x faster.
* The same against ranx ``evaluate`` end to end (``Qrels``/``Run`` built from
  the same dicts, then evaluated; numba's compile time is excluded by a
  warm-up in setup and reported in the notes): target >= 3x faster.
* The same against ranx's compiled kernels alone (its four metric functions on
  its already converted typed lists): target no slower (ratio >= 1).
* From ragged Python lists (lists of ints and sets) against pytrec_eval from
  its dicts: target no slower.
* NDCG@10 and MAP@100 of 10^4 users from the lists in one call,
  ``evaluate_ranking(ranked, relevant, ["ndcg@10", "map@100"])`` (one hit
  search, explicit: nothing is cached between calls), against pytrec_eval
  computing both from its dicts: target >= 5x faster.
* R-precision and the 11-point interpolated average precision of 10^4
  users in one call (``convention="trec"``, trec_eval's rounding of the
  recall levels), against pytrec_eval's ``Rprec`` and ``11pt_avg``.
* ``ndcg_score`` on 10^4 x 100 with ties (scores rounded to 1 decimal)
  against scikit-learn's (tie-averaged): target >= 5x faster.
"""

from __future__ import annotations

import functools
import time

import numpy as np

import evalkit as ek
from _harness import Call, Workload

N_USERS, N_RANKED, N_ITEMS = 100_000, 100, 10_000
CUTS = {"ndcg": 10, "map": 100, "hr": 10}


@functools.lru_cache(maxsize=None)
def recommender(n_users=N_USERS, m=N_RANKED, n_items=N_ITEMS, seed=0):
    """Ranked lists (n x m int64, distinct per row) and 1-30 relevant items per user."""
    rng = np.random.default_rng(seed)
    # row u lists (a_u + b_u * c_j) mod n_items: distinct because b_u is a unit mod n_items
    c = rng.permutation(n_items)[: m + 40]
    units = np.array([b for b in range(1, n_items) if np.gcd(b, n_items) == 1])
    a = rng.integers(0, n_items, n_users)[:, None]
    b = rng.choice(units, n_users)[:, None]
    every = (a + b * c[None, :]) % n_items           # the first m are ranked, the rest never
    order = np.argsort(rng.random((n_users, m)), axis=1)  # shuffle the lists per user
    ranked = np.take_along_axis(every[:, :m], order, axis=1)
    n_rel = rng.integers(1, 31, n_users)
    inside = rng.binomial(n_rel, 0.5)
    relevant = []
    for u in range(n_users):
        pick_in = rng.choice(m, inside[u], replace=False)
        pick_out = m + rng.choice(40, n_rel[u] - inside[u], replace=False)
        relevant.append(every[u, np.concatenate([pick_in, pick_out])])
    return ranked, relevant


@functools.lru_cache(maxsize=None)
def trec_dicts(n_users=N_USERS):
    """The same run and qrels as trec_eval/ranx dicts (query -> doc -> score / relevance)."""
    ranked, relevant = recommender(n_users)
    scores = [float(N_RANKED - j) for j in range(N_RANKED)]
    run = {f"u{u}": dict(zip(map(str, row.tolist()), scores)) for u, row in enumerate(ranked)}
    qrels = {f"u{u}": dict.fromkeys(map(str, rel.tolist()), 1) for u, rel in enumerate(relevant)}
    return qrels, run


def evalkit_four(ranked, relevant):
    h = ek.ranking_hits(ranked, relevant)
    return (ek.ndcg_at_k(h, None, CUTS["ndcg"]),
            ek.mean_average_precision(h, None, CUTS["map"]),
            ek.mean_reciprocal_rank(h, None),
            ek.hit_rate_at_k(h, None, CUTS["hr"], hit_rate="any_hit"))


def pytrec_means(qrels, run, measures):
    """pytrec_eval's mean of each measure over the queries (its "all" line), in order."""
    import pytrec_eval

    res = pytrec_eval.RelevanceEvaluator(qrels, set(measures)).evaluate(run)
    per_query = list(res.values())
    keys = [m.replace(".", "_") for m in measures]   # "ndcg_cut.10" -> "ndcg_cut_10"
    return tuple(float(np.mean([r[key] for r in per_query])) for key in keys)


def pytrec_four(qrels, run):
    return pytrec_means(qrels, run, ("ndcg_cut.10", "map_cut.100", "recip_rank", "success.10"))


RANX_METRICS = ["ndcg@10", "map@100", "mrr", "hit_rate@10"]


def ranx_four(qrels, run):
    import ranx

    out = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), RANX_METRICS)
    return tuple(float(out[m]) for m in RANX_METRICS)


def ranx_kernels(typed_qrels, typed_run):
    from ranx.meta.evaluate import extract_metric_and_params
    from ranx.metrics import metric_switch

    out = []
    for metric in RANX_METRICS:
        m, k, rel_lvl = extract_metric_and_params(metric)
        out.append(float(np.mean(metric_switch(m)(typed_qrels, typed_run, k, rel_lvl))))
    return tuple(out)


def same_four(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def _compile_note(workload, qrels, run):
    """Warm ranx up on 1,000 users of the same data (numba compiles for these types).

    The time of that first call (JIT compile, or loading numba's cache) goes into the
    workload's note; it is not part of the timing.
    """
    import ranx

    some = list(qrels)[:1000]
    t0 = time.perf_counter()
    ranx.evaluate(ranx.Qrels({q: qrels[q] for q in some}), ranx.Run({q: run[q] for q in some}),
                  RANX_METRICS)
    workload.note = (f"ranx's first call on 10^3 users (numba JIT compile or cache load) took "
                     f"{time.perf_counter() - t0:.1f} s, excluded")


def setup_arrays_vs_trec():
    ranked, relevant = recommender()
    qrels, run = trec_dicts()
    return {"evalkit": Call(ranked, relevant), "reference": Call(qrels, run)}


class Paired:
    """evalkit and the reference take different inputs: one Call each."""

    def __init__(self, fn, key):
        self.fn, self.key = fn, key

    def __call__(self, **inputs):
        call = inputs[self.key]
        return self.fn(*call.args, **call.kwargs)


def setup_ranx_end_to_end():
    _compile_note(RANX_E2E, *trec_dicts())
    return setup_arrays_vs_trec()


def setup_ranx_kernels():
    import ranx

    ranked, relevant = recommender()
    qrels, run = trec_dicts()
    _compile_note(RANX_KERNELS, qrels, run)
    q, r = ranx.Qrels(qrels), ranx.Run(run)
    return {"evalkit": Call(ranked, relevant), "reference": Call(q.to_typed_list(), r.to_typed_list())}


def setup_lists():
    ranked, relevant = recommender()
    qrels, run = trec_dicts()
    lists = [row.tolist() for row in ranked]
    sets = [set(rel.tolist()) for rel in relevant]
    return {"evalkit": Call(lists, sets), "reference": Call(qrels, run)}


def setup_two_calls():
    ranked, relevant = recommender(n_users=10_000)
    qrels, run = trec_dicts(10_000)
    return {"evalkit": Call(ranked, relevant), "reference": Call(qrels, run)}


def evalkit_two(ranked, relevant):
    """NDCG@10 and MAP@100 in one call by name: one hit search serves both (nothing cached)."""
    out = ek.evaluate_ranking(ranked, relevant, [f"ndcg@{CUTS['ndcg']}", f"map@{CUTS['map']}"])
    return tuple(out.values())


def pytrec_two(qrels, run):
    return pytrec_means(qrels, run, ("ndcg_cut.10", "map_cut.100"))


def evalkit_book(ranked, relevant):
    """R-precision and 11-point interpolated AP by name in one call, trec_eval's rounding."""
    out = ek.evaluate_ranking(ranked, relevant, ["r_precision", "11pt_avg"], convention="trec")
    return tuple(out.values())


def pytrec_book(qrels, run):
    return pytrec_means(qrels, run, ("Rprec", "11pt_avg"))


def setup_ndcg_score():
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, (10_000, 100)).astype(float)
    y_score = np.round(rng.random((10_000, 100)), 1)          # ties in every row
    return Call(y_true, y_score, k=10)


def sklearn_ndcg(y_true, y_score, k):
    import sklearn.metrics as skm

    return skm.ndcg_score(y_true, y_score, k=k)


RANX_E2E = Workload(
    name="ranking NDCG@10+MAP@100+MRR+HR@10 10^5x100, arrays vs ranx evaluate end to end",
    setup=setup_ranx_end_to_end,
    evalkit=Paired(evalkit_four, "evalkit"),
    reference=Paired(ranx_four, "reference"),
    reference_name="ranx",
    check=same_four,
    repeat=1,          # about 90 s a call: building Qrels/Run from the dicts dominates
)
RANX_KERNELS = Workload(
    name="ranking NDCG@10+MAP@100+MRR+HR@10 10^5x100, arrays vs ranx kernels alone",
    setup=setup_ranx_kernels,
    evalkit=Paired(evalkit_four, "evalkit"),
    reference=Paired(ranx_kernels, "reference"),
    reference_name="ranx kernels",
    check=same_four,
)

WORKLOADS = [
    Workload(
        name="ranking NDCG@10+MAP@100+MRR+HR@10 10^5x100, arrays vs pytrec_eval dicts",
        setup=setup_arrays_vs_trec,
        evalkit=Paired(evalkit_four, "evalkit"),
        reference=Paired(pytrec_four, "reference"),
        reference_name="pytrec_eval",
        check=same_four,
        repeat=2,
    ),
    RANX_E2E,
    RANX_KERNELS,
    Workload(
        name="ranking NDCG@10+MAP@100+MRR+HR@10 10^5x100, Python lists vs pytrec_eval dicts",
        setup=setup_lists,
        evalkit=Paired(evalkit_four, "evalkit"),
        reference=Paired(pytrec_four, "reference"),
        reference_name="pytrec_eval",
        check=same_four,
        repeat=2,
    ),
    Workload(
        name="ranking NDCG@10 and MAP@100 by name in one call, 10^4x100 arrays vs pytrec_eval dicts",
        setup=setup_two_calls,
        evalkit=Paired(evalkit_two, "evalkit"),
        reference=Paired(pytrec_two, "reference"),
        reference_name="pytrec_eval",
        check=same_four,
    ),
    Workload(
        name="ranking R-precision and 11-point AP by name, 10^4x100 arrays vs pytrec_eval dicts",
        setup=setup_two_calls,
        evalkit=Paired(evalkit_book, "evalkit"),
        reference=Paired(pytrec_book, "reference"),
        reference_name="pytrec_eval",
        check=same_four,
    ),
    Workload(
        name="ndcg_score 10^4x100 with ties, k=10",
        setup=setup_ndcg_score,
        evalkit=ek.ndcg_score,
        reference=sklearn_ndcg,
        reference_name="sklearn",
        check=lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12),
    ),
]
