"""Ranking metrics for recommenders: P@k, R@k, AP/MAP, DCG/NDCG, MRR, HR, ARHR, coverage.

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
wins over the preset). The presets are one table, :data:`CONVENTIONS`:

.. the table below is written from _TABLE when the module is imported (one source)

%(conventions_table)s

(spark and sklearn have no hit rate: evalkit's is kept. A new preset is one
column of ``_TABLE`` in this module: this table, the ``convention`` options
and the tests read it.)

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

from ._hits import WHOLE_LIST, RankingHits, encode_items, ranking_hits as _count_hits
from ._validation import (EXACTLY_ONE, Bool, Integer, Options, Real, Satisfies, check,
                          check_catalog,
                          check_columns, check_grades, check_item_ids, check_rules,
                          check_lists, check_ranked, check_real_values, check_relevance_scores,
                          validate_params)
from .exceptions import warn_at_caller

__all__ = ["RankingHits", "ranking_hits", "precision_at_k", "recall_at_k", "average_precision",
           "mean_average_precision", "dcg_at_k", "ndcg_at_k", "mean_reciprocal_rank",
           "hit_rate_at_k", "arhr_at_k", "evaluate_ranking", "catalog_coverage",
           "distributional_coverage", "gini_index", "lists_from_frame", "dcg_score", "ndcg_score",
           "CONVENTIONS"]

# -- the options and the presets ------------------------------------------------------

OPTIONS = {   # each option's values, with the libraries that choose them (in error messages too)
    "denominator": {"relevant": "R: trec_eval, ranx", "min_relevant_k": "min(R, k): Spark, RecBole",
                    "hits": "the hits in the top k: torchmetrics"},
    "gain": {"linear": "g: trec_eval, ranx, sklearn",
             "exponential": "2^g - 1: Spark, ranx ndcg_burges"},
    "ideal": {"relevant": "all relevant items, best first: trec_eval, ranx",
              "candidates": "the list's items only: sklearn, torchmetrics",
              "given": "the grades in the order given: Spark graded"},
    "relevance": {"positive": "grade > 0: trec_eval, ranx", "any": "every judged item: Spark"},
    "relevant_in": {"all": "ranked or not", "ranked": "the list's items only: torchmetrics"},
    "undefined": {"no_relevant": "users with no relevant item",
                  "no_judgments": "users with no judged item: trec_eval"},
    "hit_rate": {"hits_over_tests": "total hits / total relevant: the recommender-metrics post",
                 "any_hit": "users with a hit: RecBole, ranx, trec_eval success"},
    "ties": {"input": "the rows' order", "item_desc": "larger item id first: trec_eval",
             "item_asc": "smaller item id first"},
    "users": {"truth": "the truth's users", "predictions": "the predictions' users",
              "both": "users in both: trec_eval, MS recommenders", "union": "users in either"},
}

_NAMES = ("denominator", "gain", "ideal", "relevance", "relevant_in", "undefined", "zero_division",
          "hit_rate", "ties", "users")
_TABLE = {  # one row per option, one column per preset (the module docstring's table)
    "evalkit": ("relevant", "linear", "relevant", "positive", "all", "no_relevant", 0.0,
                "hits_over_tests", "input", "truth"),
    "trec": ("relevant", "linear", "relevant", "positive", "all", "no_judgments", math.nan,
             "any_hit", "item_desc", "both"),
    "ranx": ("relevant", "linear", "relevant", "positive", "all", "no_relevant", 0.0,
             "any_hit", "input", "truth"),
    "spark": ("min_relevant_k", "exponential", "given", "any", "all", "no_relevant", 0.0,
              "hits_over_tests", "input", "truth"),
    "sklearn": ("hits", "linear", "candidates", "positive", "ranked", "no_relevant", 0.0,
                "hits_over_tests", "input", "truth"),
    "torchmetrics": ("hits", "linear", "candidates", "positive", "ranked", "no_relevant", 0.0,
                     "any_hit", "input", "truth"),
    "recbole": ("min_relevant_k", "linear", "relevant", "positive", "all", "no_relevant", math.nan,
                "any_hit", "input", "truth"),
}
#: The presets: each library's choice for every option (see the module docstring).
CONVENTIONS = {name: dict(zip(_NAMES, row)) for name, row in _TABLE.items()}


def _conventions_table():
    """The presets as the module docstring's reST table (options as rows, presets as columns)."""
    rows = [["option", *_TABLE]] + [[f"``{name}``", *(str(row[i]) for row in _TABLE.values())]
                                    for i, name in enumerate(_NAMES)]
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    rule = "  ".join("=" * w for w in widths)
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join([rule, lines[0], rule, *lines[1:], rule])


if __doc__:   # None under python -OO
    __doc__ = __doc__.replace("%(conventions_table)s", _conventions_table())

_SPECS = {name: [None, Options(values)] for name, values in OPTIONS.items()}
_SPECS.update(
    zero_division=Options({"warn": "the convention's value and a warning", 0.0: "", 1.0: "",
                           math.nan: "left out of the mean"}),
    convention=Options({c: "" for c in CONVENTIONS}), per_user=Bool(), adaptive_k=Bool(),
    k=Integer(1, meaning="the cut-off"), log_base=Real(1, closed="neither"),
)


def _declared(**override):
    """validate_params with the module's specs for every parameter the function has."""
    def decorate(func):
        names = inspect.signature(func).parameters
        specs = {n: s for n, s in {**_SPECS, **override}.items() if n in names}
        return validate_params(**specs)(func)
    return decorate


_K_OR_NONE = [None, Integer(1, meaning="the cut-off")]


def _options(convention, **given):
    """Resolve options: the explicit ones win, then the preset's ("warn": the preset's, warned)."""
    preset = CONVENTIONS[convention]
    out = {name: preset[name] if value is None else value for name, value in given.items()}
    if "zero_division" in out:
        out["warn"] = out["zero_division"] == "warn"
        out["zero_division"] = preset["zero_division"] if out["warn"] else out["zero_division"]
    return out


def _setup(ranked, relevant, convention, k=None, **arguments):
    """The hits (found, or passed on) and the resolved options of a metric given ``arguments``."""
    h = _hits(ranked, relevant)
    opt = _options(convention, **{n: v for n, v in arguments.items() if n in _NAMES})
    _check_cut(h, k, opt)
    return h, opt


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
    return _count_hits(*check_lists(ranked, relevant))


def _hits(ranked, relevant):
    """The hits of ``ranked`` and ``relevant``, or ``ranked`` itself when it is a RankingHits.

    Nothing is kept between calls: to find the hits once for several metrics,
    pass a :class:`RankingHits` on, or call :func:`evaluate_ranking`.
    """
    if isinstance(ranked, RankingHits):
        if relevant is not None:
            raise TypeError("relevant must be None when ranked is a RankingHits (the hits hold the "
                            "relevant items)")
        return ranked
    return _count_hits(*check_lists(ranked, relevant))


def _check_cut(h, k, opt):
    """Refuse hits cut at ``h.cut`` for a deeper cut-off, or for options that read whole lists."""
    if h.cut is None:
        return
    if k is None or k > h.cut:
        raise ValueError(f"k: these hits were found in each list's first {h.cut} items only; "
                         f"ask for k <= {h.cut}, or find the hits in whole lists")
    whole = [f"{name}={value!r}" for name, value in WHOLE_LIST.items() if opt.get(name) == value]
    if whole:
        raise ValueError(f"ranked: {', '.join(whole)} reads each whole list, and these hits were "
                         f"found in each list's first {h.cut} items only")


# -- users: R, the undefined ones, and the mean -----------------------------------------


def _n_relevant(h, opt):
    """R per user under the options: relevant (or judged) items, all or only those ranked."""
    judged = opt["relevance"] == "any"
    return h.hits_at(None, judged) if opt["relevant_in"] == "ranked" else \
        h.n_judged if judged else h.n_relevant


def _finish(values, h, opt, what, per_user, R=None):
    """Give the undefined users (no relevant item, or no judgment) ``zero_division``; average."""
    R = _n_relevant(h, opt) if R is None else R
    judged_only = opt["undefined"] == "no_judgments" and opt["relevant_in"] == "all"
    empty = (h.n_judged if judged_only else R) == 0
    zd = opt["zero_division"]
    if empty.any():
        if opt["warn"]:
            warn_at_caller(
                f"{what} is ill-defined and being {'left out' if zd != zd else f'set to {zd}'} for "
                f"{int(empty.sum())} user(s) with no relevant items (such as user "
                f"{int(np.argmax(empty))}). Use the `zero_division` parameter to control this "
                "behavior.")
        values = np.where(empty, zd, values)
    if per_user:
        return values
    values = values[~np.isnan(values)]
    if not len(values):
        warn_at_caller(f"{what} is ill-defined and being set to 0.0: every user was left out "
                       "(no user has a relevant item)")
        return 0.0
    return float(values.mean())


def _safe_div(num, den):
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


# -- the list metrics --------------------------------------------------------------------


@_declared()
def precision_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *,
                   adaptive_k: bool = False, relevance: str | None = None,
                   relevant_in: str | None = None, undefined: str | None = None,
                   zero_division: str | float = "warn", convention: str = "evalkit",
                   per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    den = np.minimum(k, h.n_ranked) if adaptive_k else k
    return _finish(_safe_div(h.hits_at(k, opt["relevance"] == "any"), den), h, opt, "Precision@k",
                   per_user)


@_declared()
def recall_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *,
                relevance: str | None = None, relevant_in: str | None = None,
                undefined: str | None = None, zero_division: str | float = "warn",
                convention: str = "evalkit", per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    R = _n_relevant(h, opt)
    return _finish(_safe_div(h.hits_at(k, opt["relevance"] == "any"), R), h, opt, "Recall@k",
                   per_user, R)


def _ap(h, k, opt):
    """Per-user AP@k: the sum of precision@rank over the hits in the top k, / the denominator."""
    user, position, _ = h.within(k, opt["relevance"] == "any")
    first_of_user = np.searchsorted(user, np.arange(h.n_users))
    nth = np.arange(1, len(user) + 1) - first_of_user[user]   # nth hit
    prec_sum = np.bincount(user, nth / (position + 1.0), minlength=h.n_users)
    R = _n_relevant(h, opt)
    den = {"relevant": R, "min_relevant_k": R if k is None else np.minimum(R, k),
           "hits": np.bincount(user, minlength=h.n_users)}[opt["denominator"]]
    return _safe_div(prec_sum, den)


@_declared(k=_K_OR_NONE)
def mean_average_precision(ranked: ArrayLike | RankingHits, relevant: list, k: int | None = None, *,
                           denominator: str | None = None, relevance: str | None = None,
                           relevant_in: str | None = None, undefined: str | None = None,
                           zero_division: str | float = "warn", convention: str = "evalkit",
                           per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    return _finish(_ap(h, k, opt), h, opt, "Average precision", per_user)


def _one_list(ranked):
    one = np.asarray(ranked, dtype=object) if isinstance(ranked, (list, tuple)) else ranked
    return not (isinstance(ranked, (RankingHits, set, frozenset, dict)) or np.isscalar(ranked)
                or ranked is None or getattr(one, "ndim", 1) != 1
                or any(isinstance(v, (list, tuple, np.ndarray, set)) for v in np.ravel(one)))


_ONE_LIST = Satisfies(_one_list, "one ranked list of item ids (ordered, 1-D); for many users use "
                      "mean_average_precision(..., per_user=True)")


@_declared(k=_K_OR_NONE, ranked=_ONE_LIST)
def average_precision(ranked: ArrayLike | RankingHits, relevant: list, k: int | None = None, *,
                      denominator: str | None = None, relevance: str | None = None,
                      relevant_in: str | None = None, undefined: str | None = None,
                      zero_division: str | float = "warn", convention: str = "evalkit") -> float:
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
    # the one user's lists, through mean_average_precision's steps (the options are validated)
    h, opt = _setup(**dict(locals(), ranked=[list(ranked)], relevant=[relevant]))
    return float(_finish(_ap(h, k, opt), h, opt, "Average precision", True)[0])


def _discount(width, log_base=2.0):
    """1 / log_b(j + 2) for ranks j = 0..width-1."""
    return 1.0 / (np.log(np.arange(width) + 2.0) / math.log(log_base))


def _gain(g, gain):
    return g if gain == "linear" else np.exp2(g) - 1.0


def _dcg(h, k, gain, log_base=2.0):
    user, position, g = h.within(k)
    discount = _discount(h.depth if k is None else k, log_base)
    return np.bincount(user, _gain(g, gain) * discount[position], minlength=h.n_users)


def _idcg(h, k, gain, ideal):
    if ideal == "candidates":
        user, _, g = h.within(None)       # the best order of the list's own items
        width = min(k or np.inf, int(np.bincount(user, minlength=1).max()))
        order = np.lexsort((-g, user))
        user, g = user[order], g[order]
        nth = np.arange(len(user)) - np.searchsorted(user, np.arange(h.n_users))[user]
        keep = nth < width
        return np.bincount(user[keep], _gain(g[keep], gain) * _discount(width)[nth[keep]],
                           minlength=h.n_users)
    given = ideal == "given" and h.given is not None
    width = min(k or np.inf, h.given.shape[1] if given else int(h.n_relevant.max(initial=0)))
    grades = h.ideal_grades(width) if ideal == "relevant" else h.given_grades(width)
    return _gain(grades, gain) @ _discount(width)


@_declared(k=_K_OR_NONE)
def dcg_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *, gain: str | None = None,
             log_base: float = 2, convention: str = "evalkit",
             per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(ranked, relevant, convention, k, gain=gain)
    values = _dcg(h, k, opt["gain"], float(log_base))
    return values if per_user else float(values.mean())


@_declared(k=_K_OR_NONE)
def ndcg_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *, gain: str | None = None,
              ideal: str | None = None, relevance: str | None = None,
              relevant_in: str | None = None, undefined: str | None = None,
              zero_division: str | float = "warn", convention: str = "evalkit",
              per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    values = _safe_div(_dcg(h, k, opt["gain"]), _idcg(h, k, opt["gain"], opt["ideal"]))
    return _finish(values, h, opt, "NDCG", per_user)


@_declared(k=_K_OR_NONE)
def mean_reciprocal_rank(ranked: ArrayLike | RankingHits, relevant: list, k: int | None = None, *,
                         relevance: str | None = None, relevant_in: str | None = None,
                         undefined: str | None = None, zero_division: str | float = "warn",
                         convention: str = "evalkit", per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    user, position, _ = h.within(k, opt["relevance"] == "any")
    first = np.diff(user, prepend=-1) != 0
    rr = np.zeros(h.n_users)
    rr[user[first]] = 1.0 / (position[first] + 1.0)
    return _finish(rr, h, opt, "Reciprocal rank", per_user)


@_declared()
def hit_rate_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *,
                  hit_rate: str | None = None, relevance: str | None = None,
                  relevant_in: str | None = None, undefined: str | None = None,
                  zero_division: str | float = "warn", convention: str = "evalkit",
                  per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    hits = h.hits_at(k, opt["relevance"] == "any")
    if opt["hit_rate"] == "any_hit":
        return _finish((hits > 0).astype(float), h, opt, "Hit rate", per_user)
    R = _n_relevant(h, opt)
    if per_user:
        return _finish(_safe_div(hits, R), h, opt, "Hit rate", True, R)
    if R.sum() == 0:
        warn_at_caller("Hit rate is ill-defined and being set to 0.0: no user has a relevant item")
        return 0.0
    return int(hits.sum()) / int(R.sum())


@_declared()
def arhr_at_k(ranked: ArrayLike | RankingHits, relevant: list, k: int, *,
              relevance: str | None = None, relevant_in: str | None = None,
              undefined: str | None = None, zero_division: str | float = "warn",
              convention: str = "evalkit", per_user: bool = False) -> float | np.ndarray:
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
    h, opt = _setup(**locals())
    user, position, _ = h.within(k, opt["relevance"] == "any")
    values = np.bincount(user, 1.0 / (position + 1.0), minlength=h.n_users)
    return _finish(values, h, opt, "ARHR", per_user)


# -- several metrics from one search ------------------------------------------------------

#: The metrics :func:`evaluate_ranking` knows by short name (each function's own name works too).
METRICS = {"precision": precision_at_k, "recall": recall_at_k, "map": mean_average_precision,
           "ndcg": ndcg_at_k, "dcg": dcg_at_k, "mrr": mean_reciprocal_rank,
           "hit_rate": hit_rate_at_k, "arhr": arhr_at_k}


def _metric(name):
    """``"ndcg@10"`` -> ``(ndcg_at_k, 10)``; ``"map"`` -> ``(mean_average_precision, None)``."""
    if not isinstance(name, str):
        raise TypeError(f"metrics: each metric is a name such as 'ndcg@10', got {name!r}")
    base, at, cut = name.partition("@")
    func = METRICS.get(base) or next((f for f in METRICS.values() if f.__name__ == base), None)
    if func is None:
        raise ValueError(f"metrics: unknown metric {name!r}; known: {', '.join(METRICS)} "
                         "(or the function names), each with an optional '@k'")
    if at and not (cut.isdigit() and int(cut) >= 1):
        raise ValueError(f"metrics: {name!r}: the cut-off after '@' must be an integer >= 1")
    k = int(cut) if at else None
    if k is None and inspect.signature(func).parameters["k"].default is inspect.Parameter.empty:
        raise ValueError(f"metrics: {name!r} needs a cut-off: '{base}@k'")
    return func, k


_METRIC_NAMES = Satisfies(lambda v: not isinstance(v, (str, bytes)) and hasattr(v, "__iter__"),
                          "a list of metric names such as ['ndcg@10', 'map@100']")


@_declared(metrics=_METRIC_NAMES)
def evaluate_ranking(ranked: ArrayLike | RankingHits, relevant: list, metrics: list, *,
                     adaptive_k: bool = False, denominator: str | None = None,
                     gain: str | None = None, ideal: str | None = None,
                     relevance: str | None = None, relevant_in: str | None = None,
                     undefined: str | None = None, hit_rate: str | None = None,
                     zero_division: str | float = "warn", convention: str = "evalkit",
                     per_user: bool = False) -> dict:
    """Several ranking metrics from one hit search: ``{"ndcg@10": ..., "map@100": ...}``.

    The hits are found once (:func:`ranking_hits`, or ``ranked`` is already a
    :class:`RankingHits`) and each metric is the same function the
    single-metric API calls (``"ndcg@10"`` is ``ndcg_at_k(hits, None, 10,
    ...)``), with the options below passed to every metric that has them. The
    names, as in ranx's ``evaluate(qrels, run, ["ndcg@10", "map@100"])``:

    ===========  ==============================  ============================
    name         function                        "@k"
    ===========  ==============================  ============================
    precision@k  :func:`precision_at_k`          required
    recall@k     :func:`recall_at_k`             required
    map, map@k   :func:`mean_average_precision`  optional (none: whole lists)
    ndcg@k       :func:`ndcg_at_k`               required
    dcg@k        :func:`dcg_at_k`                required
    mrr, mrr@k   :func:`mean_reciprocal_rank`    optional
    hit_rate@k   :func:`hit_rate_at_k`           required
    arhr@k       :func:`arhr_at_k`               required
    ===========  ==============================  ============================

    A function's own name works too (``"ndcg_at_k@10"``). The conventions are
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
    adaptive_k, denominator, gain, ideal, relevance, relevant_in, undefined, hit_rate
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
    options = {o: v for o, v in locals().items() if o not in ("ranked", "relevant", "metrics")}
    parsed = {name: _metric(name) for name in metrics}   # every name checked before any work
    return _evaluate(_hits(ranked, relevant), parsed, options)


def _evaluate(h, parsed, options):
    """Each parsed metric of the hits ``h``, with the options each metric takes."""
    out = {}
    for name, (func, k) in parsed.items():
        takes = inspect.signature(func).parameters
        out[name] = func(h, None, k, **{o: v for o, v in options.items() if o in takes})
    return out


def per_user_values(models: dict, relevant: list | None, metrics: list, options: dict) -> dict:
    """``{model: {name: per-user values}}``: :func:`evaluate_ranking` of several models at once.

    The step :func:`evalkit.compare` calls for rankers (each model's ranked lists, or its
    RankingHits with ``relevant=None``): the options and the names are checked once, as
    :func:`evaluate_ranking` checks them, then each model's hits are found and evaluated.
    """
    declared = evaluate_ranking.param_specs
    for option, value in options.items():
        if option not in declared or option in ("metrics", "per_user"):
            raise TypeError(f"evaluate_ranking() got an unexpected keyword argument {option!r}")
        check(value, declared[option], option)
    parsed = {name: _metric(name) for name in metrics}
    options = {**options, "per_user": True}
    return {model: _evaluate(_hits(ranked, relevant), parsed, options)
            for model, ranked in models.items()}


# -- beyond accuracy: what is recommended ---------------------------------------------------


def _recommended(ranked, k, needed=""):
    """Validated top-k item ids of every list (flat); ``needed``: refuse none, naming the metric."""
    items, offsets = check_ranked(ranked, needed=needed)
    starts = np.repeat(offsets[:-1], np.diff(offsets))
    return items if k is None else items[np.arange(len(items)) - starts < k]


def _item_counts(items):
    """How often each distinct item is recommended."""
    counts = np.bincount(encode_items(items[:0], items)[1])
    return counts[counts > 0]


def _is_collection(c):
    return not isinstance(c, (str, bytes)) and (hasattr(c, "__iter__") or hasattr(c, "__array__"))


_CATALOG = [Integer(1, meaning="the number of items"),
            Satisfies(_is_collection, "a collection of item ids")]


@_declared(k=_K_OR_NONE, catalog=_CATALOG)
def catalog_coverage(ranked: ArrayLike | RankingHits, catalog: int | ArrayLike, *,
                     k: int | None = None) -> float:
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
    return len(_item_counts(items)) / check_catalog(catalog, items)


@_declared(k=_K_OR_NONE)
def distributional_coverage(ranked: ArrayLike | RankingHits, *, k: int | None = None,
                            log_base: float = 2) -> float:
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
    return float(-(p * np.log(p)).sum() / math.log(log_base)) + 0.0


@_declared(k=_K_OR_NONE, catalog=[None] + _CATALOG)
def gini_index(ranked: ArrayLike | RankingHits, catalog: int | ArrayLike | None = None, *,
               k: int | None = None) -> float:
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
    n = len(counts) if catalog is None else check_catalog(catalog, items)
    c = np.sort(np.concatenate([counts, np.zeros(n - len(counts))]))
    i = np.arange(1, n + 1)
    return float(((2 * i - n - 1) * c).sum() / (n * c.sum())) + 0.0


# -- the long table converter -------------------------------------------------------------


@_declared()
def lists_from_frame(predictions: object, truth: object | None = None, *, user: str = "user",
                     item: str = "item", score: str | None = None, rank: str | None = None,
                     grade: str | None = None, ties: str | None = None, users: str | None = None,
                     convention: str = "evalkit") -> tuple:
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
    opt = _options(convention, ties=ties, users=users)
    check_rules(EXACTLY_ONE, score=score, rank=rank)
    order_col = rank if score is None else score
    pu, pi, key = check_columns(predictions, "predictions", user=user, item=item, score=order_col)
    pi = check_item_ids(pi, f"predictions[{item!r}]")
    key = check_real_values(key, f"predictions[{order_col!r}]").astype(np.float64)
    key = -key if score is not None else key
    tu = ti = tg = None
    if truth is not None or grade is not None:
        tg, tu, ti = check_columns(truth, "truth", grade=grade, user=user, item=item)
        ti = check_item_ids(ti, f"truth[{item!r}]")
        tg = None if tg is None else check_grades(tg, f"truth[{grade!r}]")
    uniq, ucodes = np.unique(pu if tu is None else np.concatenate([pu, tu]), return_inverse=True)
    pcode, tcode = ucodes.reshape(-1)[:len(pu)], ucodes.reshape(-1)[len(pu):]
    in_pred, in_truth = (np.bincount(c, minlength=len(uniq)) > 0 for c in (pcode, tcode))
    kept_users = {"truth": in_truth, "predictions": in_pred, "both": in_truth & in_pred,
                  "union": in_truth | in_pred}
    keep = np.flatnonzero(kept_users[opt["users"] if tu is not None else "predictions"])
    tie = np.arange(len(pi))
    if opt["ties"] != "input":
        item_order = np.unique(pi, return_inverse=True)[1].reshape(-1)
        tie = item_order * (-1 if opt["ties"] == "item_desc" else 1)

    def by_user(order, codes, values):   # the rows of each kept user, in ``order``
        bounds = np.searchsorted(codes[order], np.arange(len(uniq) + 1))
        return [values[order][bounds[u]:bounds[u + 1]] for u in keep]

    ranked = by_user(np.lexsort((tie, key, pcode)), pcode, pi)
    if tu is None:
        return uniq[keep], ranked, None
    torder = np.argsort(tcode, kind="stable")
    relevant = by_user(torder, tcode, ti)
    if tg is not None:
        grades = by_user(torder, tcode, tg)
        relevant = [dict(zip(r.tolist(), g.tolist())) for r, g in zip(relevant, grades)]
    return uniq[keep], ranked, relevant


# -- scikit-learn's shape: relevance and score matrices -------------------------------------


def _tie_averaged(s, g, disc):
    """Σ_groups mean(gain) · Σ discount over each row's runs of equal (sorted) scores."""
    n, m = s.shape
    new = np.ones((n, m), dtype=bool)
    np.not_equal(s[:, 1:], s[:, :-1], out=new[:, 1:])
    if new.all():
        return (g * disc).sum(axis=1) if disc.ndim == 2 else g @ disc
    starts = np.flatnonzero(new)   # the runs, in the flattened rows
    mean = np.add.reduceat(g.reshape(-1), starts) / np.diff(starts, append=n * m)
    dsum = np.add.reduceat(np.broadcast_to(disc, (n, m)).reshape(-1), starts)
    return np.bincount(starts // m, mean * dsum, minlength=n)


def _dcg_rows(y_true, y_score, k, log_base, ignore_ties):
    """Per-row DCG of ``y_true`` gains ordered by ``y_score``, tie-averaged unless ``ignore_ties``.

    Tie averaging (McSherry & Najork 2008, sklearn's default): each item of a
    run of equal scores gets the run's mean gain. With a cut-off k < m, only
    the k largest scores are sorted (``argpartition``): the runs above the
    k-th score lie wholly in the top k, and the run at the k-th score gets its
    mean gain (over the whole row) times the discounts of its positions < k.
    """
    n, m = y_true.shape
    disc = _discount(m, log_base) * (np.arange(m) < (k or m))
    if ignore_ties:
        # sklearn's order: argsort ascending, reversed (among equal scores, the last column first)
        ranking = np.argsort(y_score)[:, ::-1]
        return np.take_along_axis(y_true, ranking, axis=1) @ disc
    if k is None or k >= m:
        order = np.argsort(-y_score, axis=1, kind="stable")
        return _tie_averaged(np.take_along_axis(y_score, order, axis=1),
                             np.take_along_axis(y_true, order, axis=1), disc)
    part = np.argpartition(-y_score, k - 1, axis=1)[:, :k]
    top_s = np.take_along_axis(y_score, part, axis=1)
    kth = top_s.min(axis=1)
    order = np.argsort(-top_s, axis=1, kind="stable")
    s = np.take_along_axis(top_s, order, axis=1)
    g = np.take_along_axis(np.take_along_axis(y_true, part, axis=1), order, axis=1)
    above = s > kth[:, None]                       # a prefix of each sorted row
    out = _tie_averaged(s, g, np.where(above, disc[:k], 0.0))
    at_kth = y_score == kth[:, None]
    mean_kth = (y_true * at_kth).sum(axis=1) / at_kth.sum(axis=1)
    cum = np.concatenate([[0.0], np.cumsum(disc[:k])])
    a = above.sum(axis=1)
    return out + mean_kth * (cum[k] - cum[a])


def _ideal_dcg_rows(y_true, k, log_base):
    """Per-row DCG of the row's own gains in decreasing order, cut at k (sklearn's normaliser)."""
    m = y_true.shape[1]
    top = y_true if k is None or k >= m else np.partition(y_true, m - k, axis=1)[:, m - k:]
    return np.sort(top, axis=1)[:, ::-1] @ _discount(top.shape[1], log_base)


@_declared(k=_K_OR_NONE, ignore_ties=Bool())
def dcg_score(y_true: ArrayLike, y_score: ArrayLike, *, k: int | None = None, log_base: float = 2,
              sample_weight: ArrayLike | None = None, ignore_ties: bool = False) -> float:
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
    return float(np.average(_dcg_rows(yt, ys, k, float(log_base), ignore_ties), weights=w))


@_declared(k=_K_OR_NONE, ignore_ties=Bool())
def ndcg_score(y_true: ArrayLike, y_score: ArrayLike, *, k: int | None = None,
               sample_weight: ArrayLike | None = None, ignore_ties: bool = False) -> float:
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
    ratio = _safe_div(_dcg_rows(yt, ys, k, 2.0, ignore_ties), _ideal_dcg_rows(yt, k, 2.0))
    return float(np.average(ratio, weights=w))
