"""Ranking metrics for recommenders: P@k, R@k, AP/MAP, DCG/NDCG, MRR, HR, ARHR, R-precision,
interpolated precision, coverage.

The shape recommenders have: ``ranked[i]`` is user i's ranked list of item
ids, best first (a list of lists, ragged, or a 2-D array), and
``relevant[i]`` that user's judged items -- a set or list (binary
relevance) or a dict item -> grade (graded relevance; grade 0 = judged not
relevant). A long table of (user, item, score or rank) rows becomes these
lists through :func:`lists_from_frame`.

Counts first, as everywhere in evalkit: :func:`ranking_hits` finds, in one
pass, where every judged item sits in every user's list (a
:class:`~evalkit.RankingHits`: the users x k hit matrix, stored as hit
positions, plus each user's number of relevant items R). Every list metric
is arithmetic on it, at any cut-off k, and every function accepts a
``RankingHits`` in place of ``ranked`` (with ``relevant=None``), so
several metrics and cut-offs cost one pass. Hits of disjoint sets of users
add up (``RankingHits.concat``). Reuse is explicit: a metric called with
lists finds their hits and keeps nothing (no state between calls, so
threads may score different lists at once); pass the hits on, or ask
:func:`evaluate_ranking` for several metrics by name (``["ndcg@10",
"map@100"]``, in the style of ranx's ``evaluate``): one search serves them.

Where the libraries disagree, each choice is a named option, and
``convention=`` picks a library's bundle of them (an explicit option always
wins over the preset). The presets are one table, :data:`CONVENTIONS`,
printed here in two halves:

.. the conventions tables: written from CONVENTIONS by python tests/test_ranking_docs.py --write

=================  ===============  ============  ===========  ===============
option             evalkit          trec          ranx         spark
=================  ===============  ============  ===========  ===============
``denominator``    relevant         relevant      relevant     min_relevant_k
``gain``           linear           linear        linear       exponential
``ideal``          relevant         relevant      relevant     given
``relevance``      positive         positive      positive     any
``relevant_in``    all              all           all          all
``undefined``      no_relevant      no_judgments  no_relevant  no_relevant
``zero_division``  0.0              nan           0.0          0.0
``hit_rate``       hits_over_tests  any_hit       any_hit      hits_over_tests
``ties``           input            item_desc     input        input
``users``          truth            both          truth        truth
``recall_hits``    ceil             plus_0.9      ceil         ceil
=================  ===============  ============  ===========  ===============

=================  ===============  ============  ==============
option             sklearn          torchmetrics  recbole
=================  ===============  ============  ==============
``denominator``    hits             hits          min_relevant_k
``gain``           linear           linear        linear
``ideal``          candidates       candidates    relevant
``relevance``      positive         positive      positive
``relevant_in``    ranked           ranked        all
``undefined``      no_relevant      no_relevant   no_relevant
``zero_division``  0.0              0.0           nan
``hit_rate``       hits_over_tests  any_hit       any_hit
``ties``           input            input         input
``users``          truth            truth         truth
``recall_hits``    ceil             ceil          ceil
=================  ===============  ============  ==============

.. end of the conventions tables

(spark and sklearn have no hit rate: evalkit's is kept. A new preset is one
row of ``_PRESETS`` in ``evalkit/_hit_metrics.py``: these tables, the
``convention`` options and the tests read it.)

* ``denominator`` (AP / MAP@k): ``"relevant"`` divides by R, the user's
  relevant items (trec_eval ``map``/``map_cut``, ranx, the
  recommender-metrics post's AP); ``"min_relevant_k"`` by min(R, k) (Spark
  ``meanAveragePrecisionAt``, RecBole, Microsoft recommenders ``map_at_k``);
  ``"hits"`` by the relevant items found in the top k (torchmetrics; sklearn's
  ``average_precision_score`` on a row).
* ``gain`` (DCG): ``"linear"`` g, or ``"exponential"`` 2^g - 1 (Spark's graded
  NDCG, ranx ``ndcg_burges``); the same for binary relevance.
* ``ideal`` (the NDCG normaliser): ``"relevant"``, the best order of all of
  the user's relevant items, retrieved or not (trec_eval, ranx, Spark binary);
  ``"candidates"``, the best order of the items in the list only (sklearn,
  torchmetrics); ``"given"``, the grades in the order they were given (Spark
  3.4+ graded: it does not sort them, so NDCG can exceed 1 -- a Spark slip).
* ``relevance`` (which judged items count as relevant): ``"positive"``, grade
  > 0 (trec_eval's default relevance level 1, ranx, evalkit); ``"any"``, every
  judged item whatever its grade (Spark: its P@k, R@k and MAP count every
  label, grades only weight NDCG).
* ``relevant_in`` (whose relevant items R counts, for recall, the AP denominator
  and empty users): ``"all"``, every relevant item of the user, ranked or
  not; ``"ranked"``, only those in the user's list -- what torchmetrics
  (and sklearn) compute, since they are given only the ranked candidates:
  torchmetrics' recall divides by the relevant candidates, and a user whose
  relevant items are all unranked is an empty target (``empty_target_action``,
  here ``zero_division``). Needs whole lists (not hits cut at k).
* ``undefined`` (which users ``zero_division`` applies to): ``"no_relevant"``,
  a user with no relevant item; ``"no_judgments"``, only a user with no judged
  item at all -- one whose judgments are all grade 0 scores 0 (trec_eval,
  which skips only queries absent from the qrels).
* ``zero_division`` (the value of those users): ``0.0``, ``1.0`` (torchmetrics
  ``'pos'``), both kept in the mean, or ``nan``: left out of the mean (nan per
  user; trec_eval, RecBole; torchmetrics ``'skip'``). The argument's default,
  ``"warn"``, takes the convention's value and warns
  (:class:`~evalkit.UndefinedMetricWarning`); give a value to silence it.
* ``recall_hits`` (interpolated precision): how many hits reach a recall
  level r of a user with R relevant items. ``"ceil"``, ⌈r·R⌉: the fewest hits
  whose recall is r or more (Manning, Raghavan & Schütze, chapter 8);
  ``"plus_0.9"``, int(r·R + 0.9) in floating point (trec_eval
  ``iprec_at_recall`` and ``11pt_avg``): the same except where r·R lies a
  hair above a whole number, as 0.7 · 3 = 2.0999... does, which it rounds
  down (2 hits, a recall of 0.67, stand for 0.7).
* ``ties`` (only where scores are ranked, :func:`lists_from_frame`):
  ``"input"`` keeps the rows' order, ``"item_desc"`` puts the larger item id
  first (trec_eval: by document id, descending), ``"item_asc"``. Tie
  averaging (sklearn) needs scores, not lists: :func:`ndcg_score`.

Examples
--------
The recommender-metrics post's MRR: first hits at ranks 3, 2 and 1.

>>> ranked = [["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]]
>>> relevant = [{"c"}, {"e"}, {"g"}]
>>> round(mean_reciprocal_rank(ranked, relevant), 2)
0.61
"""

from __future__ import annotations

import inspect
import math

import numpy as np
from numpy.typing import ArrayLike

from ._hit_metrics import (CONVENTIONS, METRICS, SPECS, discount, evaluate, hits_of,
                           interpolated_precision_at, resolve_options, safe_div)
from ._hits import RankingHits, encode_items
from ._hits import ranking_hits as find_hits
from ._validation import (EXACTLY_ONE, Bool, Integer, Satisfies, check_catalog, check_columns,
                          check_grades, check_item_ids, check_lists, check_ranked,
                          check_real_values, check_recall_levels, check_relevance_scores,
                          check_rules, validate_params)

__all__ = ["RankingHits", "ranking_hits", "precision_at_k", "recall_at_k", "average_precision",
           "mean_average_precision", "dcg_at_k", "ndcg_at_k", "mean_reciprocal_rank",
           "hit_rate_at_k", "arhr_at_k", "evaluate_ranking", "catalog_coverage",
           "distributional_coverage", "gini_index", "lists_from_frame", "dcg_score", "ndcg_score",
           "r_precision", "interpolated_precision", "interpolated_average_precision",
           "CONVENTIONS"]


def _declared(**override):
    """validate_params with the declared specs of every parameter the function has."""
    def decorate(func):
        names = inspect.signature(func).parameters
        specs = {}
        for name, spec in {**SPECS, **override}.items():
            if name in names:
                specs[name] = spec
        return validate_params(**specs)(func)
    return decorate


_K_OR_NONE = [None, Integer(1, meaning="the cut-off")]


def _score(metric, ranked, relevant, k, options, per_user):
    """One metric of :data:`~evalkit._hit_metrics.METRICS` from lists (validated) or hits."""
    hits = hits_of(ranked, relevant)
    return METRICS[metric].score(hits, k, options, per_user)


# -- input -> hits ---------------------------------------------------------------------


def ranking_hits(ranked: ArrayLike | RankingHits, relevant: list) -> RankingHits:
    """Validate ranked lists and judged items and find every hit in one pass.

    A hit is a judged item in a user's ranked list (relevant when its grade
    is > 0); its position is its 0-based rank. The result, a
    :class:`RankingHits`, holds the hit positions and grades (the users x k
    hit matrix, ``.matrix(k)``), each user's number of relevant items R,
    of judged items and list length, and for graded relevance the ideal
    grades. Pass it to any metric of this module in place of ``ranked``
    (``relevant=None``) to compute several metrics and cut-offs from one
    pass. ``RankingHits.concat`` stacks the hits of disjoint users.

    Parameters
    ----------
    ranked : list of lists or 2-D array
        One ranked list of item ids per user, best first; lists may differ in
        length (and be empty); an item may appear once per list.
    relevant : list of sets, lists or dicts
        ``relevant[i]`` are user i's relevant items: a set or list, or a dict
        item -> grade >= 0 for graded relevance. A flat list or 1-D array
        gives one relevant item per user.

    Returns
    -------
    RankingHits

    Examples
    --------
    >>> h = ranking_hits([[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}])
    >>> h.matrix(3).astype(int).tolist(), h.n_relevant.tolist()
    ([[1, 0, 1], [0, 1, 0]], [2, 3])
    """
    items = check_lists(ranked, relevant)
    return find_hits(*items)


# -- the list metrics --------------------------------------------------------------------


@_declared()
def precision_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    adaptive_k: bool = False,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Precision at k (精确率@k): the share of the top k that is relevant, averaged over users.

    P@k(u) = hits@k(u) / k, where hits@k(u) counts user u's relevant items
    among the first k of the list. A list shorter than k counts as padded
    with non-relevant items (trec_eval, Spark ``precisionAt``, ranx); with
    ``adaptive_k=True`` the denominator is min(k, list length) instead
    (torchmetrics ``adaptive_k``).

    Parameters
    ----------
    ranked : list of lists, 2-D array or RankingHits
        One ranked list of item ids per user, best first (see
        :func:`ranking_hits`); or the hits already found (``relevant=None``).
    relevant : list of sets, lists or dicts, or None
        Each user's judged items (a dict item -> grade: grade > 0 is relevant).
    k : int
        The cut-off, >= 1.
    adaptive_k : bool, default False
    relevance : {"positive", "any"}, optional
        Which judged items are relevant: grade > 0, or every one (Spark).
    relevant_in : {"all", "ranked"}, optional
        Whose relevant items R counts: all, or only the ranked ones (torchmetrics).
    undefined : {"no_relevant", "no_judgments"}, optional
        Which users ``zero_division`` applies to (trec_eval: only users with no
        judged item; a user whose judgments are all 0 scores 0).
    zero_division : {"warn", 0.0, 1.0, nan}, default "warn"
        The value of those users: 0.0 or 1.0 (kept in the mean), or nan (left
        out of the mean; trec_eval); "warn": the convention's value (evalkit's
        0.0, trec_eval's nan, ...) and an UndefinedMetricWarning.
    convention : str, default "evalkit"
        The preset that fills the options left as None: a key of
        :data:`CONVENTIONS` ("evalkit", "trec", "ranx", "spark", ...).
    per_user : bool, default False
        Return the per-user values (nan for users left out) instead of the mean.

    Returns
    -------
    float or ndarray of shape (n_users,)

    Examples
    --------
    >>> precision_at_k([[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}], 2)
    0.5
    >>> precision_at_k([[1, 2, 3], [4, 5]], [{1, 3}, {5}], 3, per_user=True).tolist()
    [0.6666666666666666, 0.3333333333333333]
    >>> precision_at_k([[1, 2]], [{1: 0, 2: 1}], 2, convention="spark")   # every label counts
    1.0
    """
    options = resolve_options(convention, adaptive_k=adaptive_k, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    return _score("precision", ranked, relevant, k, options, per_user)


@_declared()
def recall_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Recall at k (召回率@k): the share of each user's relevant items found in the top k.

    R@k(u) = hits@k(u) / R(u), with R(u) the user's relevant items, retrieved
    or not (trec_eval ``recall_k``, ranx, Spark ``recallAt``, RecBole) -- or,
    with ``relevant_in="ranked"``, only those in the list (torchmetrics, which sees
    only the candidates). Parameters as in :func:`precision_at_k`.

    Examples
    --------
    >>> recall_at_k([[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}], 3)
    0.6666666666666666
    >>> recall_at_k([[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}], 3, convention="torchmetrics")
    1.0
    """
    options = resolve_options(convention, relevance=relevance, relevant_in=relevant_in,
                              undefined=undefined, zero_division=zero_division)
    return _score("recall", ranked, relevant, k, options, per_user)


@_declared(k=_K_OR_NONE)
def mean_average_precision(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int | None = None,
    *,
    denominator: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Mean average precision (MAP, 平均精度均值), optionally cut at k: AP averaged over users.

    AP@k(u) = (1/D) Σ_{j ≤ k, item j relevant} P@j(u), the precision at the
    rank of each hit in the top k; with the post's notation (hits at ranks
    r_1 < r_2 < ...), AP = (1/D) Σ_i i / r_i. k=None: the whole list. The
    denominator D is the convention libraries disagree on (``denominator``):

    * ``"relevant"``: R(u), all the user's relevant items -- evalkit's
      default, the recommender-metrics post, trec_eval ``map``/``map_cut``,
      ranx. A relevant item never retrieved pulls AP down.
    * ``"min_relevant_k"``: min(R(u), k) -- Spark ``meanAveragePrecisionAt``
      (its ``meanAveragePrecision`` is this with k = the list, i.e. R), RecBole,
      Microsoft recommenders ``map_at_k``: a user with more relevant items
      than k can still reach 1.
    * ``"hits"``: the hits in the top k -- torchmetrics ``RetrievalMAP``: AP is
      1 whenever the hits come first, however many relevant items were missed.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.
    k : int or None, default None
        The cut-off (None: the whole list).
    denominator : {"relevant", "min_relevant_k", "hits"}, optional

    Examples
    --------
    >>> ranked, relevant = [[1, 2, 3, 4]], [{1, 3, 9}]
    >>> mean_average_precision(ranked, relevant)               # (1/1 + 2/3) / 3
    0.5555555555555555
    >>> mean_average_precision(ranked, relevant, 2, denominator="min_relevant_k")  # (1/1) / 2
    0.5
    >>> mean_average_precision(ranked, relevant, convention="torchmetrics")  # (1/1 + 2/3) / 2
    0.8333333333333333
    >>> mean_average_precision([[1, 2], [3, 4]], [{1: 1}, {3: 0}], convention="trec")
    0.5
    """
    options = resolve_options(convention, denominator=denominator, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    return _score("map", ranked, relevant, k, options, per_user)


def _one_list(ranked):
    """True for one ranked list of item ids: ordered, 1-D, holding no lists."""
    if ranked is None or np.isscalar(ranked):
        return False
    if isinstance(ranked, (RankingHits, set, frozenset, dict)):
        return False
    one = ranked
    if isinstance(ranked, (list, tuple)):
        one = np.asarray(ranked, dtype=object)
    if getattr(one, "ndim", 1) != 1:
        return False
    nested = (list, tuple, np.ndarray, set)
    return not any(isinstance(v, nested) for v in np.ravel(one))


_ONE_LIST = Satisfies(_one_list, "one ranked list of item ids (ordered, 1-D); for many users use "
                      "mean_average_precision(..., per_user=True)")


@_declared(k=_K_OR_NONE, ranked=_ONE_LIST)
def average_precision(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int | None = None,
    *,
    denominator: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
) -> float:
    """Average precision (AP, 平均精度) of one ranked list: "order-sensitive recall".

    AP = (1/D) Σ_{i=1..r} i / r_i, where r_i is the rank of the i-th relevant
    item found (the recommender-metrics post's formula), equivalently
    (1/D) Σ_{j: item j relevant} P@j. D is R, the number of relevant items
    (``denominator="relevant"``, the post's r; "min_relevant_k" and "hits"
    as in :func:`mean_average_precision`). For many users use
    :func:`mean_average_precision` (``per_user=True`` for each AP).

    Parameters
    ----------
    ranked : sequence
        One ranked list of item ids, best first.
    relevant : set, list or dict
        Its relevant items.
    k, denominator, relevance, relevant_in, undefined, zero_division, convention
        As in :func:`mean_average_precision`.

    Examples
    --------
    Hits at ranks 1, 3 and 6 of three relevant items: (1/1 + 2/3 + 3/6) / 3.

    >>> round(average_precision(list("abcdef"), {"a", "c", "f"}), 6)
    0.722222
    """
    options = resolve_options(convention, denominator=denominator, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    # the one user's lists, through mean_average_precision's steps
    values = _score("map", [list(ranked)], [relevant], k, options, per_user=True)
    return float(values[0])


@_declared(k=_K_OR_NONE)
def dcg_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    gain: str | None = None,
    log_base: float = 2,
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Discounted cumulative gain at k (DCG@k, 折扣累积增益), averaged over users.

    DCG@k(u) = Σ_{j=1..k} gain(g_j) / log_b(j + 1), where g_j is the grade of
    the item at rank j (1 relevant / 0 not, for binary relevance), as in the
    recommender-metrics post (b = 2, linear gain). ``gain="linear"`` uses g
    (trec_eval, ranx, sklearn); ``"exponential"`` 2^g - 1 (Spark graded, ranx
    ``ndcg_burges``); the two agree for binary relevance. Users with no
    relevant item have DCG 0 and count in the mean.

    Parameters
    ----------
    ranked, relevant, convention, per_user
        As in :func:`precision_at_k`.
    k : int or None
        The cut-off (None: the whole list).
    gain : {"linear", "exponential"}, optional
    log_base : float, default 2
        The base b of the discount (> 1).

    Examples
    --------
    >>> round(dcg_at_k([["a", "b", "c"]], [{"a": 3, "c": 1}], 3), 6)   # 3/log2(2) + 1/log2(4)
    3.5
    >>> round(dcg_at_k([["a", "b", "c"]], [{"a": 3, "c": 1}], 3, gain="exponential"), 6)  # 7 + 1/2
    7.5
    """
    options = resolve_options(convention, gain=gain, log_base=log_base)
    return _score("dcg", ranked, relevant, k, options, per_user)


@_declared(k=_K_OR_NONE)
def ndcg_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    gain: str | None = None,
    ideal: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Normalized DCG at k (NDCG@k, 归一化折扣累积增益), averaged over users.

    NDCG@k(u) = DCG@k(u) / IDCG@k(u), IDCG being the DCG of the best possible
    order, cut at k; 0 when IDCG is 0. DCG as in :func:`dcg_at_k` (log2
    discount; the base cancels). The ideal order is the convention
    libraries disagree on (``ideal``):

    * ``"relevant"``: all the user's relevant items sorted by grade, retrieved
      or not -- evalkit's default, trec_eval ``ndcg_cut``, ranx, Spark binary;
    * ``"candidates"``: only the items in the list, sorted -- sklearn
      ``ndcg_score``, torchmetrics: a relevant item the recommender missed does
      not lower the score;
    * ``"given"``: the grades in the order the dict gives them, not sorted --
      Spark 3.4+ graded ``ndcgAt``. That is a Spark slip: with the grades
      given in increasing order NDCG exceeds 1. Used by ``convention="spark"``
      so that its numbers are reproduced; pass grades best first.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k` (``relevance`` and ``relevant_in`` decide which
        users are undefined; the gains are the grades).
    k : int or None
        The cut-off (None: the whole list).
    gain : {"linear", "exponential"}, optional
    ideal : {"relevant", "candidates", "given"}, optional

    Examples
    --------
    >>> ndcg_at_k([[1, 2, 3]], [{1, 2}], 3)                       # the ideal order
    1.0
    >>> round(ndcg_at_k([[3, 1]], [{1, 2}], 2), 4)                # 1/log2(3) / (1 + 1/log2(3))
    0.3869
    >>> round(ndcg_at_k([[3, 1]], [{1, 2}], 2, ideal="candidates"), 4)   # 2 is not a candidate
    0.6309
    """
    options = resolve_options(convention, gain=gain, ideal=ideal, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    return _score("ndcg", ranked, relevant, k, options, per_user)


@_declared(k=_K_OR_NONE)
def mean_reciprocal_rank(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int | None = None,
    *,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Mean reciprocal rank (MRR, 平均倒数排名): 1 / the rank of the first hit, averaged.

    MRR = (1/Q) Σ_u 1 / rank_u, rank_u the rank of the first relevant item in
    user u's list; 0 for a user with no hit (in the top k, if k is given: MRR@k
    as RecBole). The recommender-metrics post's example: first hits at ranks
    3, 2 and 1 give (1/3 + 1/2 + 1) / 3 = 0.61.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.
    k : int or None, default None
        Only hits in the top k count.

    Examples
    --------
    >>> round(mean_reciprocal_rank([[5, 6, 1], [6, 2, 7], [3, 8, 9]], [{1}, {2}, {3}]), 2)
    0.61
    """
    options = resolve_options(convention, relevance=relevance, relevant_in=relevant_in,
                              undefined=undefined, zero_division=zero_division)
    return _score("mrr", ranked, relevant, k, options, per_user)


@_declared()
def hit_rate_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    hit_rate: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Hit rate at k (HR@k, 命中率): two metrics share the name; ``hit_rate`` chooses.

    * ``"hits_over_tests"`` (evalkit's default, the recommender-metrics post):
      HR@k = Σ_u hits@k(u) / Σ_u R(u), the hits in all top-k lists over all
      test items -- really a micro-averaged recall@k. The post's example:
      (6 + 5 + 4) / (10 + 12 + 8) = 0.5. Users with no relevant item add
      nothing to either sum. ``per_user=True`` gives each user's
      hits@k / R(u), whose mean weighted by R(u) is HR.
    * ``"any_hit"``: the share of users with at least one relevant item in the
      top k (Deshpande & Karypis's leave-one-out HR, RecBole ``Hit``, ranx
      ``hit_rate``, trec_eval ``success``). With one relevant item per user the
      two agree.

    Parameters
    ----------
    ranked, relevant, k, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k` (``zero_division`` applies to "any_hit"
        and to the per-user values).
    hit_rate : {"hits_over_tests", "any_hit"}, optional

    Examples
    --------
    >>> ranked = [[1, 2, 3], [4, 5, 6]]
    >>> relevant = [{1, 3}, {7, 8}]
    >>> hit_rate_at_k(ranked, relevant, 3)                      # (2 + 0) / (2 + 2)
    0.5
    >>> hit_rate_at_k(ranked, relevant, 3, hit_rate="any_hit")  # one user of two
    0.5
    >>> hit_rate_at_k(ranked, relevant, 1, hit_rate="any_hit")
    0.5
    """
    options = resolve_options(convention, hit_rate=hit_rate, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    return _score("hit_rate", ranked, relevant, k, options, per_user)


@_declared()
def arhr_at_k(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    k: int,
    *,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Average reciprocal hit rank at k (ARHR, 平均倒数命中排名; Deshpande & Karypis 2004).

    ARHR@k = (1/#users) Σ_u Σ_{hits j in u's top k} 1 / rank_j: a hit rate
    weighted by how high the hit is ranked. With one relevant item per user
    (the leave-one-out protocol it was introduced for) it equals MRR@k; with
    more, each hit adds its reciprocal rank (so a user can exceed 1).

    Parameters
    ----------
    ranked, relevant, k, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.

    Examples
    --------
    >>> arhr_at_k([[1, 2, 3], [4, 5, 6]], [{2}, {9}], 3)   # (1/2 + 0) / 2
    0.25
    """
    options = resolve_options(convention, relevance=relevance, relevant_in=relevant_in,
                              undefined=undefined, zero_division=zero_division)
    return _score("arhr", ranked, relevant, k, options, per_user)


# -- R-precision and interpolated precision (Manning, Raghavan & Schütze, chapter 8) ----------


@_declared()
def r_precision(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    *,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """R-precision (R-精确率): the precision of each user's top R, R the user's relevant items.

    RP(u) = hits@R(u) / R(u), the share of relevant items among the first
    R(u) of the list, where R(u) counts the user's relevant items, retrieved
    or not (Manning, Raghavan & Schütze, *Introduction to Information
    Retrieval*, section 8.4; trec_eval ``Rprec``, ranx ``r-precision``). At
    that cut-off precision equals recall, so R-precision is also the
    break-even point of the two. A list shorter than R counts as padded with
    non-relevant items (trec_eval); with ``relevant_in="ranked"``, R counts
    only the relevant items in the list (torchmetrics ``RetrievalRPrecision``,
    which sees only the candidates). Users with R = 0 get ``zero_division``.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.

    Returns
    -------
    float or ndarray of shape (n_users,)

    Examples
    --------
    Three relevant items, two of them in the top 3: 2/3.

    >>> r_precision([["a", "b", "c", "d"]], [{"a", "c", "d"}])
    0.6666666666666666
    >>> r_precision([[1, 2, 3], [4, 5, 6]], [{2}, {4, 9}], per_user=True).tolist()
    [0.0, 0.5]
    """
    options = resolve_options(convention, relevance=relevance, relevant_in=relevant_in,
                              undefined=undefined, zero_division=zero_division)
    return _score("r_precision", ranked, relevant, None, options, per_user)


@_declared()
def interpolated_precision(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    recall_level: float | ArrayLike,
    *,
    recall_hits: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """Interpolated precision (插值精确率) at recall r: the best precision at a recall of r or more.

    p_interp(r) = max_{r' >= r} p(r'), where p(r') is the precision at a
    rank of the user's list whose recall is r' (Manning, Raghavan & Schütze,
    *Introduction to Information Retrieval*, section 8.4): the highest
    precision over the ranks from the first one that reaches recall r to the
    end of the list; 0 if the list never reaches r (trec_eval
    ``iprec_at_recall``). It is the precision-recall curve made
    non-increasing, read at r. A rank reaches r when it holds ``n`` hits of R
    relevant items, n being ⌈r·R⌉ (``recall_hits="ceil"``) or trec_eval's
    int(r·R + 0.9) (``"plus_0.9"``, ``convention="trec"``; see the module
    docs). Users with R = 0 get ``zero_division``.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.
    recall_level : float or array-like of floats
        One recall level r in [0, 1], or several (one result per level).
    recall_hits : {"ceil", "plus_0.9"}, optional

    Returns
    -------
    float or ndarray
        For one level a float (``per_user``: shape (n_users,)); for several,
        shape (n_levels,) (``per_user``: (n_users, n_levels)).

    Examples
    --------
    Hits at ranks 1, 3 and 6 of three relevant items: precisions 1, 2/3 and 1/2
    at recalls 1/3, 2/3 and 1.

    >>> ranked, relevant = [list("abcdef")], [{"a", "c", "f"}]
    >>> interpolated_precision(ranked, relevant, [0.0, 0.5, 0.9]).round(4).tolist()
    [1.0, 0.6667, 0.5]
    """
    levels, one_level = check_recall_levels(recall_level)
    options = resolve_options(convention, recall_hits=recall_hits, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    hits = hits_of(ranked, relevant)
    values = interpolated_precision_at(hits, levels, options, per_user)
    if not one_level:
        return values
    if per_user:
        return values[:, 0]
    return float(values[0])


@_declared()
def interpolated_average_precision(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    *,
    recall_hits: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> float | np.ndarray:
    """11-point interpolated average precision (11 点插值平均精度), averaged over users.

    11-pt AP(u) = (1/11) Σ_{r = 0, 0.1, ..., 1} p_interp(r), the
    interpolated precision (:func:`interpolated_precision`) at eleven equally
    spaced recall levels (Manning, Raghavan & Schütze, *Introduction to
    Information Retrieval*, section 8.4; trec_eval ``11pt_avg``; the PASCAL
    VOC 2007 detection AP). An older summary of the precision-recall curve
    than (non-interpolated) average precision, :func:`mean_average_precision`,
    which replaced it. ``recall_hits`` as in :func:`interpolated_precision`.

    Parameters
    ----------
    ranked, relevant, relevance, relevant_in, undefined, zero_division, convention, per_user
        As in :func:`precision_at_k`.
    recall_hits : {"ceil", "plus_0.9"}, optional

    Examples
    --------
    Hits at ranks 1, 3 and 6 of three relevant items: p_interp is 1 up to
    recall 1/3, 2/3 up to 2/3 and 1/2 up to 1: (4·1 + 3·(2/3) + 4·(1/2)) / 11.

    >>> round(interpolated_average_precision([list("abcdef")], [{"a", "c", "f"}]), 6)
    0.727273
    """
    options = resolve_options(convention, recall_hits=recall_hits, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              zero_division=zero_division)
    return _score("11pt_avg", ranked, relevant, None, options, per_user)


# -- several metrics from one search ------------------------------------------------------


def _is_list_of_names(value):
    return not isinstance(value, (str, bytes)) and hasattr(value, "__iter__")


_METRIC_NAMES = Satisfies(_is_list_of_names,
                          "a list of metric names such as ['ndcg@10', 'map@100']")


@_declared(metrics=_METRIC_NAMES)
def evaluate_ranking(
    ranked: ArrayLike | RankingHits,
    relevant: list,
    metrics: list,
    *,
    adaptive_k: bool = False,
    denominator: str | None = None,
    gain: str | None = None,
    ideal: str | None = None,
    relevance: str | None = None,
    relevant_in: str | None = None,
    undefined: str | None = None,
    hit_rate: str | None = None,
    recall_hits: str | None = None,
    zero_division: str | float = "warn",
    convention: str = "evalkit",
    per_user: bool = False,
) -> dict:
    """Several ranking metrics from one hit search: ``{"ndcg@10": ..., "map@100": ...}``.

    The options are validated once and the hits found once
    (:func:`ranking_hits`, or ``ranked`` is already a :class:`RankingHits`);
    each metric is then the same step its single-metric function takes
    (``"ndcg@10"`` is ``ndcg_at_k(hits, None, 10, ...)``), with the options
    below passed to every metric that has them. The names, as in ranx's
    ``evaluate(qrels, run, ["ndcg@10", "map@100"])``:

    ===========  ======================================  ============================
    name         function                                "@k"
    ===========  ======================================  ============================
    precision@k  :func:`precision_at_k`                  required
    recall@k     :func:`recall_at_k`                     required
    map, map@k   :func:`mean_average_precision`          optional (none: whole lists)
    ndcg@k       :func:`ndcg_at_k`                       required
    mrr, mrr@k   :func:`mean_reciprocal_rank`            optional
    hit_rate@k   :func:`hit_rate_at_k`                   required
    dcg@k        :func:`dcg_at_k`                        required
    arhr@k       :func:`arhr_at_k`                       required
    r_precision  :func:`r_precision`                     none (each user's own R)
    11pt_avg     :func:`interpolated_average_precision`  none (whole lists)
    ===========  ======================================  ============================

    A function's own name works too (``"ndcg_at_k@10"``). Interpolated
    precision at a recall level has no name here: call
    :func:`interpolated_precision` with the hits. The conventions are
    evalkit's (:data:`CONVENTIONS`), not ranx's: ranx's ``hit_rate`` is
    ``hit_rate="any_hit"`` (or ``convention="ranx"``).

    Parameters
    ----------
    ranked : list of lists, 2-D array or RankingHits
        As in :func:`precision_at_k`.
    relevant : list of sets, lists or dicts, or None
        None when ``ranked`` is a RankingHits.
    metrics : list of str
        Metric names, each parsed once (an unknown name or a missing cut-off
        is a ValueError naming ``metrics``).
    adaptive_k, denominator, gain, ideal, relevance, relevant_in, undefined, hit_rate, recall_hits
        Options, each passed to the metrics that take it (None: the
        convention's).
    zero_division, convention, per_user
        As in :func:`precision_at_k`.

    Returns
    -------
    dict
        Each name as given -> the metric's value (a float, or with
        ``per_user=True`` an array of shape (n_users,)).

    Examples
    --------
    >>> ranked, relevant = [[1, 2, 3], [4, 5, 6]], [{1, 3}, {5, 7, 8}]
    >>> out = evaluate_ranking(ranked, relevant, ["precision@2", "recall@3", "map"])
    >>> {name: round(value, 4) for name, value in out.items()}
    {'precision@2': 0.5, 'recall@3': 0.6667, 'map': 0.5}
    >>> evaluate_ranking(ranked, relevant, ["mrr"], per_user=True)["mrr"].tolist()
    [1.0, 0.5]
    """
    options = resolve_options(convention, adaptive_k=adaptive_k, denominator=denominator,
                              gain=gain, ideal=ideal, relevance=relevance,
                              relevant_in=relevant_in, undefined=undefined,
                              hit_rate=hit_rate, recall_hits=recall_hits,
                              zero_division=zero_division)
    return evaluate(ranked, relevant, metrics, options, per_user)


# -- beyond accuracy: what is recommended ---------------------------------------------------


def _recommended(ranked, k, needed=""):
    """Validated top-k item ids of every list (flat); ``needed``: refuse none, naming the metric."""
    items, offsets = check_ranked(ranked, needed=needed)
    if k is None:
        return items
    lengths = np.diff(offsets)
    starts = np.repeat(offsets[:-1], lengths)
    rank = np.arange(len(items)) - starts
    return items[rank < k]


def _item_counts(items):
    """How often each distinct item is recommended."""
    codes = encode_items(items[:0], items)[1]
    counts = np.bincount(codes)
    return counts[counts > 0]


def _is_collection(c):
    if isinstance(c, (str, bytes)):
        return False
    return hasattr(c, "__iter__") or hasattr(c, "__array__")


_CATALOG = [Integer(1, meaning="the number of items"),
            Satisfies(_is_collection, "a collection of item ids")]


@_declared(k=_K_OR_NONE, catalog=_CATALOG)
def catalog_coverage(
    ranked: ArrayLike | RankingHits,
    catalog: int | ArrayLike,
    *,
    k: int | None = None,
) -> float:
    """Catalogue coverage (覆盖率): the share of the catalogue that is recommended to someone.

    coverage = |∪_u top-k(u)| / |catalogue| (the recommender-metrics post's
    "items the system can recommend / all items"; RecBole ``ItemCoverage``,
    Microsoft recommenders ``catalog_coverage`` with the training items as the
    catalogue).

    Parameters
    ----------
    ranked : list of lists or 2-D array
        One ranked list per user.
    catalog : int or collection of item ids
        The number of items, or the items themselves (then every recommended
        item must be in it).
    k : int or None, default None
        Only the top k of each list (None: whole lists).

    Examples
    --------
    >>> catalog_coverage([[1, 2], [2, 3]], 10)
    0.3
    >>> catalog_coverage([[1, 2], [2, 3]], [1, 2, 3, 4], k=1)
    0.5
    """
    items = _recommended(ranked, k)
    n_recommended = len(_item_counts(items))
    return n_recommended / check_catalog(catalog, items)


@_declared(k=_K_OR_NONE)
def distributional_coverage(
    ranked: ArrayLike | RankingHits,
    *,
    k: int | None = None,
    log_base: float = 2,
) -> float:
    """Distributional coverage: the entropy of how often each item is recommended.

    H = -Σ_i p(i) log_b p(i), p(i) = (times item i is recommended) / (all
    recommendations); 0 when everyone gets the same items, log_b(N) when N
    items are recommended equally often (Microsoft recommenders
    ``distributional_coverage``: base 2, not normalised; RecBole's
    ``ShannonEntropy`` uses ln and divides by the number of distinct items).

    Parameters
    ----------
    ranked : list of lists or 2-D array
    k : int or None, default None
        Only the top k of each list.
    log_base : float, default 2
        The base of the logarithm (> 1).

    Examples
    --------
    >>> distributional_coverage([[1, 2], [3, 4]])     # four items, once each: log2(4)
    2.0
    >>> distributional_coverage([[1, 2], [1, 2]])     # two items, twice each
    1.0
    """
    items = _recommended(ranked, k, "the distribution")
    p = _item_counts(items) / len(items)
    entropy = -(p * np.log(p)).sum() / math.log(log_base)
    return float(entropy) + 0.0   # + 0.0: -0.0 (one item) reads 0.0


@_declared(k=_K_OR_NONE, catalog=[None] + _CATALOG)
def gini_index(
    ranked: ArrayLike | RankingHits,
    catalog: int | ArrayLike | None = None,
    *,
    k: int | None = None,
) -> float:
    """Gini index of recommendation counts: 0 when all items are recommended equally, ~1 when few.

    G = Σ_{i=1..N} (2i - N - 1) c_(i) / (N Σ_i c_i), with c_(1) <= ... <= c_(N)
    the times each of the N catalogue items is recommended, sorted; items never
    recommended count 0 (RecBole ``GiniIndex``). ``catalog=None`` takes the
    recommended items as the catalogue.

    Parameters
    ----------
    ranked : list of lists or 2-D array
    catalog : int, collection of item ids, or None
    k : int or None, default None
        Only the top k of each list.

    Examples
    --------
    >>> gini_index([[1, 2], [2, 1]])            # two items, equally often
    0.0
    >>> gini_index([[1], [1]], catalog=4)       # one item of four gets everything: (4 - 1) / 4
    0.75
    """
    items = _recommended(ranked, k, "the Gini index")
    counts = _item_counts(items)
    if catalog is None:
        n = len(counts)
    else:
        n = check_catalog(catalog, items)
    never = np.zeros(n - len(counts))   # the catalogue's items never recommended
    c = np.sort(np.concatenate([counts, never]))
    i = np.arange(1, n + 1)
    gini = ((2 * i - n - 1) * c).sum() / (n * c.sum())
    return float(gini) + 0.0


# -- the long table converter -------------------------------------------------------------


def _read_predictions(predictions, user, item, score, rank):
    """The predictions' users, items and sort key (ascending: -score, or the rank)."""
    check_rules(EXACTLY_ONE, score=score, rank=rank)
    order_col = score
    if score is None:
        order_col = rank
    users, items, key = check_columns(predictions, "predictions", user=user, item=item,
                                      score=order_col)
    items = check_item_ids(items, f"predictions[{item!r}]")
    key = check_real_values(key, f"predictions[{order_col!r}]").astype(np.float64)
    if score is not None:
        key = -key   # the highest score first
    return users, items, key


def _read_truth(truth, user, item, grade):
    """The truth's users, items and grades (None without a grade column)."""
    grades, users, items = check_columns(truth, "truth", grade=grade, user=user, item=item)
    items = check_item_ids(items, f"truth[{item!r}]")
    if grades is not None:
        grades = check_grades(grades, f"truth[{grade!r}]")
    return users, items, grades


def _kept_users(n_users, pred_codes, truth_codes, rule):
    """The codes of the users ``users=rule`` evaluates, increasing."""
    in_pred = np.bincount(pred_codes, minlength=n_users) > 0
    in_truth = np.bincount(truth_codes, minlength=n_users) > 0
    kept = {"truth": in_truth, "predictions": in_pred, "both": in_truth & in_pred,
            "union": in_truth | in_pred}
    return np.flatnonzero(kept[rule])


def _tie_breaker(items, ties):
    """A sort key among equal scores: the row order, or the item ids (ascending or not)."""
    if ties == "input":
        return np.arange(len(items))
    item_order = np.unique(items, return_inverse=True)[1].reshape(-1)
    if ties == "item_desc":
        return -item_order
    return item_order


def _rows_by_user(order, codes, values, n_users, kept):
    """``values`` in ``order``, split into one array per kept user (codes: each row's user)."""
    bounds = np.searchsorted(codes[order], np.arange(n_users + 1))
    ordered = values[order]
    return [ordered[bounds[u]:bounds[u + 1]] for u in kept]


@_declared()
def lists_from_frame(
    predictions: object,
    truth: object | None = None,
    *,
    user: str = "user",
    item: str = "item",
    score: str | None = None,
    rank: str | None = None,
    grade: str | None = None,
    ties: str | None = None,
    users: str | None = None,
    convention: str = "evalkit",
) -> tuple:
    """Turn long tables of (user, item, score or rank) rows into ranked lists and relevant sets.

    ``predictions`` has one row per recommended (user, item) with a
    ``score`` (higher first) or a ``rank`` (1 first) column; ``truth`` one
    row per relevant (user, item), with an optional ``grade`` column for
    graded relevance. Any mapping of column names to 1-D arrays works (a
    pandas or polars DataFrame, a dict of arrays). Equal scores are ordered
    by ``ties``: ``"input"`` keeps the rows' order (stable sort; ranx and
    pandas-based libraries in practice), ``"item_desc"`` puts the larger item
    id first (trec_eval, which compares document ids as strings: pass
    string ids to match it exactly), ``"item_asc"`` the smaller.

    Parameters
    ----------
    predictions : DataFrame or mapping of columns
    truth : DataFrame or mapping of columns, optional
    user, item : str
        Column names (both tables).
    score, rank : str, optional
        Exactly one: the predictions' ordering column.
    grade : str, optional
        The truth's grade column (graded relevance).
    ties : {"input", "item_desc", "item_asc"}, optional
    users : {"truth", "predictions", "both", "union"}, optional
        Which users are evaluated: evalkit's default ``"truth"`` (a user with no
        prediction gets an empty list, predictions of users absent from the
        truth are dropped); ``"both"`` as trec_eval and Microsoft recommenders.
    convention : str
        Preset for ``ties`` and ``users`` (see the module docs).

    Returns
    -------
    users : ndarray
        The user ids, sorted.
    ranked : list of ndarrays
        Each user's items, best first.
    relevant : list of ndarrays or dicts, or None
        Each user's relevant items (dicts item -> grade with ``grade``); None
        without ``truth``.

    Examples
    --------
    >>> pred = {"user": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "d"],
    ...         "score": [0.2, 0.9, 0.2, 0.5, 0.7]}
    >>> truth = {"user": [1, 2], "item": ["a", "a"]}
    >>> u, ranked, relevant = lists_from_frame(pred, truth, score="score")
    >>> u.tolist(), [r.tolist() for r in ranked]
    ([1, 2], [['b', 'a', 'c'], ['d', 'a']])
    >>> [r.tolist() for r in lists_from_frame(pred, truth, score="score", ties="item_desc")[1]]
    [['b', 'c', 'a'], ['d', 'a']]
    """
    options = resolve_options(convention, ties=ties, users=users)
    pred_users, pred_items, key = _read_predictions(predictions, user, item, score, rank)
    has_truth = truth is not None or grade is not None
    truth_users = pred_users[:0]
    rule = "predictions"
    if has_truth:
        truth_users, truth_items, truth_grades = _read_truth(truth, user, item, grade)
        rule = options.users
    every_user = np.concatenate([pred_users, truth_users])
    user_ids, codes = np.unique(every_user, return_inverse=True)
    codes = codes.reshape(-1)
    pred_codes, truth_codes = codes[:len(pred_users)], codes[len(pred_users):]
    kept = _kept_users(len(user_ids), pred_codes, truth_codes, rule)
    tie = _tie_breaker(pred_items, options.ties)
    pred_order = np.lexsort((tie, key, pred_codes))
    ranked = _rows_by_user(pred_order, pred_codes, pred_items, len(user_ids), kept)
    if not has_truth:
        return user_ids[kept], ranked, None
    truth_order = np.argsort(truth_codes, kind="stable")
    relevant = _rows_by_user(truth_order, truth_codes, truth_items, len(user_ids), kept)
    if truth_grades is not None:
        grades = _rows_by_user(truth_order, truth_codes, truth_grades, len(user_ids), kept)
        relevant = [dict(zip(r.tolist(), g.tolist())) for r, g in zip(relevant, grades)]
    return user_ids[kept], ranked, relevant


# -- scikit-learn's shape: relevance and score matrices -------------------------------------


def _tie_averaged(scores, gains, discounts):
    """Σ over each row's runs of equal (sorted) scores of mean(gain) · Σ discount."""
    n, m = scores.shape
    starts_run = np.ones((n, m), dtype=bool)
    np.not_equal(scores[:, 1:], scores[:, :-1], out=starts_run[:, 1:])
    if starts_run.all():   # no ties
        if discounts.ndim == 2:
            return (gains * discounts).sum(axis=1)
        return gains @ discounts
    starts = np.flatnonzero(starts_run)   # the runs, in the flattened rows
    run_lengths = np.diff(starts, append=n * m)
    mean_gain = np.add.reduceat(gains.reshape(-1), starts) / run_lengths
    every_discount = np.broadcast_to(discounts, (n, m)).reshape(-1)
    discount_sum = np.add.reduceat(every_discount, starts)
    return np.bincount(starts // m, mean_gain * discount_sum, minlength=n)


def _dcg_rows_ignoring_ties(y_true, y_score, discounts):
    """sklearn's order: argsort ascending, reversed (of equal scores, the last column first)."""
    ranking = np.argsort(y_score)[:, ::-1]
    return np.take_along_axis(y_true, ranking, axis=1) @ discounts


def _dcg_rows_sorted(y_true, y_score, discounts):
    """Every row sorted (k reaches the last column): tie-averaged DCG."""
    order = np.argsort(-y_score, axis=1, kind="stable")
    scores = np.take_along_axis(y_score, order, axis=1)
    gains = np.take_along_axis(y_true, order, axis=1)
    return _tie_averaged(scores, gains, discounts)


def _dcg_rows_top_k(y_true, y_score, k, discounts):
    """Tie-averaged DCG@k from each row's k largest scores alone (``argpartition``).

    The runs above the k-th score lie wholly in the top k; the run at the k-th
    score gets its mean gain over the whole row times the discounts of its
    positions < k.
    """
    part = np.argpartition(-y_score, k - 1, axis=1)[:, :k]
    top_scores = np.take_along_axis(y_score, part, axis=1)
    kth = top_scores.min(axis=1)
    order = np.argsort(-top_scores, axis=1, kind="stable")
    scores = np.take_along_axis(top_scores, order, axis=1)
    top_gains = np.take_along_axis(y_true, part, axis=1)
    gains = np.take_along_axis(top_gains, order, axis=1)
    above = scores > kth[:, None]                   # a prefix of each sorted row
    above_dcg = _tie_averaged(scores, gains, np.where(above, discounts[:k], 0.0))
    at_kth = y_score == kth[:, None]
    mean_at_kth = (y_true * at_kth).sum(axis=1) / at_kth.sum(axis=1)
    cumulative = np.concatenate([[0.0], np.cumsum(discounts[:k])])
    n_above = above.sum(axis=1)
    return above_dcg + mean_at_kth * (cumulative[k] - cumulative[n_above])


def _dcg_rows(y_true, y_score, k, log_base, ignore_ties):
    """Per-row DCG of ``y_true`` gains ordered by ``y_score``, tie-averaged unless ``ignore_ties``.

    Tie averaging (McSherry & Najork 2008, sklearn's default): each item of a
    run of equal scores gets the run's mean gain.
    """
    m = y_true.shape[1]
    cut = m
    if k is not None:
        cut = k
    discounts = discount(m, log_base) * (np.arange(m) < cut)
    if ignore_ties:
        return _dcg_rows_ignoring_ties(y_true, y_score, discounts)
    if k is None or k >= m:
        return _dcg_rows_sorted(y_true, y_score, discounts)
    return _dcg_rows_top_k(y_true, y_score, k, discounts)


def _ideal_dcg_rows(y_true, k, log_base):
    """Per-row DCG of the row's own gains in decreasing order, cut at k (sklearn's normaliser)."""
    m = y_true.shape[1]
    top = y_true
    if k is not None and k < m:
        top = np.partition(y_true, m - k, axis=1)[:, m - k:]
    best_first = np.sort(top, axis=1)[:, ::-1]
    return best_first @ discount(top.shape[1], log_base)


@_declared(k=_K_OR_NONE, ignore_ties=Bool())
def dcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    log_base: float = 2,
    sample_weight: ArrayLike | None = None,
    ignore_ties: bool = False,
) -> float:
    """Discounted cumulative gain of relevance and score matrices, as ``sklearn.metrics.dcg_score``.

    Per row, DCG@k = Σ_{j=1..k} y_true_(j) / log_b(j + 1), with the columns
    ordered by decreasing ``y_score`` (linear gain; the average over rows,
    weighted by ``sample_weight``). Equal scores: by default every ordering
    of a tied group counts equally, i.e. each tied item gets the group's mean
    gain (McSherry & Najork 2008, as sklearn); ``ignore_ties=True`` orders
    them as sklearn does then (the later column first), faster. Same
    arguments and numbers as scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents)
        Graded relevance of each document (may be negative here, as in sklearn).
    y_score : array-like of the same shape
        Predicted scores.
    k : int, optional
        Only the top k count.
    log_base : float, default 2
    sample_weight : array-like of shape (n_queries,), optional
    ignore_ties : bool, default False

    Examples
    --------
    >>> round(dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 6)
    9.499458
    >>> round(dcg_score([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]]), 6)  # tied 10, 5: 7.5 each
    12.67115
    """
    yt, ys, w = check_relevance_scores(y_true, y_score, sample_weight)
    dcg = _dcg_rows(yt, ys, k, float(log_base), ignore_ties)
    return float(np.average(dcg, weights=w))


@_declared(k=_K_OR_NONE, ignore_ties=Bool())
def ndcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    sample_weight: ArrayLike | None = None,
    ignore_ties: bool = False,
) -> float:
    """Normalized DCG from relevance and score matrices, as ``sklearn.metrics.ndcg_score``.

    Per row, NDCG@k = DCG@k / IDCG@k, where the ideal DCG orders **the row's
    own documents** by ``y_true`` (sklearn's convention, ``ideal="candidates"``
    in :func:`ndcg_at_k`); rows whose documents are all irrelevant score 0.
    Ties in ``y_score`` are averaged over unless ``ignore_ties`` (see
    :func:`dcg_score`). Same arguments and numbers as scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents)
        Non-negative relevance.
    y_score : array-like of the same shape
    k : int, optional
    sample_weight : array-like of shape (n_queries,), optional
    ignore_ties : bool, default False

    Examples
    --------
    >>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 6)
    0.695694
    >>> round(ndcg_score([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]], k=1), 6)   # tie: mean of 10 and 5
    0.75
    """
    yt, ys, w = check_relevance_scores(y_true, y_score, sample_weight, "NDCG")
    dcg = _dcg_rows(yt, ys, k, 2.0, ignore_ties)
    ideal = _ideal_dcg_rows(yt, k, 2.0)
    return float(np.average(safe_div(dcg, ideal), weights=w))
