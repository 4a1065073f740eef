"""The ranking metrics computed from hits: the options, each metric's per-user values, the mean.

:mod:`evalkit.ranking` validates its input once and finds the hits (a
:class:`~evalkit._hits.RankingHits`); every list metric is then arithmetic on
them, here. The same steps serve ``evalkit.compare``, ``evalkit.mllib`` and
``evalkit.spark``, which hold hits already and must not validate again:

* :func:`check_options` -- validate options given by name (``convention``,
  ``gain``, ...) and resolve them into one :class:`RankingOptions`;
* :func:`hits_of` -- the hits of ranked lists and judged items (validated), or
  a RankingHits passed through;
* :func:`evaluate` -- several metrics by name (``["ndcg@10", "map@100"]``)
  from the hits, as :func:`evalkit.evaluate_ranking` returns them.

The libraries' conventions are one table, :data:`CONVENTIONS` (each preset's
value of every option); a new preset is one row of ``_PRESETS``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

from ._hits import WHOLE_LIST, RankingHits, ranking_hits
from ._validation import Bool, Integer, Options, Real, check, check_lists
from .exceptions import warn_at_caller

__all__ = ["OPTIONS", "CONVENTIONS", "SPECS", "RankingOptions", "resolve_options",
           "check_options", "hits_of", "Metric", "METRICS", "FUNCTIONS_AT_K", "parse_metric",
           "evaluate", "interpolated_precision_at", "discount", "safe_div"]

# -- the options and the presets ------------------------------------------------------

#: Each option's values, with the libraries that choose them (error messages show them too).
OPTIONS = {
    "denominator": {"relevant": "R: trec_eval, ranx",
                    "min_relevant_k": "min(R, k): Spark, RecBole",
                    "hits": "the hits in the top k: torchmetrics"},
    "gain": {"linear": "g: trec_eval, ranx, sklearn",
             "exponential": "2^g - 1: Spark, ranx ndcg_burges"},
    "ideal": {"relevant": "all relevant items, best first: trec_eval, ranx",
              "candidates": "the list's items only: sklearn, torchmetrics",
              "given": "the grades in the order given: Spark graded"},
    "relevance": {"positive": "grade > 0: trec_eval, ranx",
                  "any": "every judged item: Spark"},
    "relevant_in": {"all": "ranked or not",
                    "ranked": "the list's items only: torchmetrics"},
    "undefined": {"no_relevant": "users with no relevant item",
                  "no_judgments": "users with no judged item: trec_eval"},
    "hit_rate": {"hits_over_tests": "total hits / total relevant: the recommender-metrics post",
                 "any_hit": "users with a hit: RecBole, ranx, trec_eval success"},
    "ties": {"input": "the rows' order",
             "item_desc": "larger item id first: trec_eval",
             "item_asc": "smaller item id first"},
    "users": {"truth": "the truth's users",
              "predictions": "the predictions' users",
              "both": "users in both: trec_eval, MS recommenders",
              "union": "users in either"},
    "recall_hits": {"ceil": "ceil(r R): Manning et al.",
                    "plus_0.9": "int(r R + 0.9): trec_eval"},
}

_ROWS = ("denominator", "gain", "ideal", "relevance", "relevant_in", "undefined",
         "zero_division", "hit_rate", "ties", "users", "recall_hits")
_PRESETS = {   # one row per preset, one column per option of _ROWS
    "evalkit": ("relevant", "linear", "relevant", "positive", "all", "no_relevant", 0.0,
                "hits_over_tests", "input", "truth", "ceil"),
    "trec": ("relevant", "linear", "relevant", "positive", "all", "no_judgments", math.nan,
             "any_hit", "item_desc", "both", "plus_0.9"),
    "ranx": ("relevant", "linear", "relevant", "positive", "all", "no_relevant", 0.0,
             "any_hit", "input", "truth", "ceil"),
    "spark": ("min_relevant_k", "exponential", "given", "any", "all", "no_relevant", 0.0,
              "hits_over_tests", "input", "truth", "ceil"),
    "sklearn": ("hits", "linear", "candidates", "positive", "ranked", "no_relevant", 0.0,
                "hits_over_tests", "input", "truth", "ceil"),
    "torchmetrics": ("hits", "linear", "candidates", "positive", "ranked", "no_relevant", 0.0,
                     "any_hit", "input", "truth", "ceil"),
    "recbole": ("min_relevant_k", "linear", "relevant", "positive", "all", "no_relevant",
                math.nan, "any_hit", "input", "truth", "ceil"),
}
#: The presets: each library's choice for every option (evalkit.ranking's module docs).
CONVENTIONS = {name: dict(zip(_ROWS, row)) for name, row in _PRESETS.items()}

#: The declared spec of every option, for validate_params and :func:`check_options`.
SPECS = {name: [None, Options(values)] for name, values in OPTIONS.items()}
SPECS.update(
    zero_division=Options({"warn": "the convention's value and a warning", 0.0: "", 1.0: "",
                           math.nan: "left out of the mean"}),
    convention=Options({name: "" for name in CONVENTIONS}),
    per_user=Bool(),
    adaptive_k=Bool(),
    k=Integer(1, meaning="the cut-off"),
    log_base=Real(1, closed="neither"),
)


@dataclasses.dataclass(frozen=True)
class RankingOptions:
    """Every option of the ranking metrics, resolved (a convention's value where none was given).

    The options are those of :data:`OPTIONS` (see evalkit.ranking's module
    docs), each from a call or its convention (:func:`resolve_options`);
    ``zero_division`` is the value of the users it applies to, and ``warn``
    says to warn when it is used (it was given as ``"warn"``).
    """

    denominator: str
    gain: str
    ideal: str
    relevance: str
    relevant_in: str
    undefined: str
    zero_division: float
    hit_rate: str
    ties: str
    users: str
    recall_hits: str
    warn: bool = False
    adaptive_k: bool = False
    log_base: float = 2.0

    @property
    def judged(self):
        """True when every judged item counts as relevant (``relevance="any"``, Spark)."""
        return self.relevance == "any"


def resolve_options(convention="evalkit", **given):
    """The options of a call: each one given (not None) wins over the convention's.

    ``zero_division="warn"`` takes the convention's value, and warns where it
    is used. The values are trusted: :func:`check_options` checks them.
    """
    preset = CONVENTIONS[convention]
    chosen = dict(preset)
    for name, value in given.items():
        if value is not None:
            chosen[name] = value
    chosen["warn"] = chosen["zero_division"] == "warn"
    if chosen["warn"]:
        chosen["zero_division"] = preset["zero_division"]
    if "log_base" in chosen:
        chosen["log_base"] = float(chosen["log_base"])
    return RankingOptions(**chosen)


_OPTION_NAMES = (*OPTIONS, "zero_division", "adaptive_k", "log_base")


def check_options(convention="evalkit", **given):
    """:func:`resolve_options` after checking every value (a ValueError or TypeError naming it).

    For callers that take ranking options by name from their own users
    (``compare(..., **ranking_options)``); evalkit.ranking's public functions
    declare theirs with validate_params instead.
    """
    check(convention, SPECS["convention"], "convention")
    for name, value in given.items():
        if name not in _OPTION_NAMES:
            raise TypeError(f"{name} is not an option of the ranking metrics (they are "
                            f"{', '.join(_OPTION_NAMES)})")
        check(value, SPECS[name], name)
    return resolve_options(convention, **given)


def hits_of(ranked, relevant):
    """The hits of ``ranked`` and ``relevant`` (validated), or ``ranked`` itself when it is hits.

    Nothing is kept between calls: to find the hits once for several metrics,
    pass a :class:`~evalkit.RankingHits` on, or ask :func:`evaluate` for them.
    """
    if isinstance(ranked, RankingHits):
        if relevant is not None:
            raise TypeError("relevant must be None when ranked is a RankingHits (the hits hold the "
                            "relevant items)")
        return ranked
    return ranking_hits(*check_lists(ranked, relevant))


# -- users: R, the undefined ones, and the mean -----------------------------------------------


def safe_div(num, den):
    """num / den, 0 where den is 0."""
    shape = np.broadcast(num, den).shape
    return np.divide(num, den, out=np.zeros(shape), where=den != 0)


def _n_relevant(hits, options):
    """R per user under the options: relevant (or judged) items, all or only those ranked."""
    if options.relevant_in == "ranked":
        return hits.hits_at(None, options.judged)
    if options.judged:
        return hits.n_judged
    return hits.n_relevant


def _undefined_users(hits, options, R):
    """The users ``zero_division`` applies to: no relevant item (or, by option, no judgment)."""
    if options.undefined == "no_judgments" and options.relevant_in == "all":
        return hits.n_judged == 0
    return R == 0


def _warn_undefined(what, undefined, zero_division):
    if zero_division != zero_division:
        fate = "left out"
    else:
        fate = f"set to {zero_division}"
    warn_at_caller(
        f"{what} is ill-defined and being {fate} for {int(undefined.sum())} user(s) with no "
        f"relevant items (such as user {int(np.argmax(undefined))}). Use the `zero_division` "
        "parameter to control this behavior.")


def _all_left_out(what):
    warn_at_caller(f"{what} is ill-defined and being set to 0.0: every user was left out "
                   "(no user has a relevant item)")


def _mean(values, what):
    """The mean over the users not left out (nan); per column for users x levels values."""
    if values.ndim == 2:
        kept = values[~np.isnan(values).any(axis=1)]
        if not len(kept):
            _all_left_out(what)
            return np.zeros(values.shape[1])
        return kept.mean(axis=0)
    kept = values[~np.isnan(values)]
    if not len(kept):
        _all_left_out(what)
        return 0.0
    return float(kept.mean())


def _finish(values, hits, options, what, per_user, R=None):
    """Give the undefined users ``zero_division`` (warning if asked); the values, or their mean."""
    if R is None:
        R = _n_relevant(hits, options)
    undefined = _undefined_users(hits, options, R)
    if undefined.any():
        if options.warn:
            _warn_undefined(what, undefined, options.zero_division)
        if values.ndim == 2:   # users x recall levels
            undefined = undefined[:, None]
        values = np.where(undefined, options.zero_division, values)
    if per_user:
        return values
    return _mean(values, what)


def _nth_hit(user, n_users):
    """1 for each user's first hit, 2 for the second, ... (``user`` sorted)."""
    first_of_user = np.searchsorted(user, np.arange(n_users))
    return np.arange(1, len(user) + 1) - first_of_user[user]


# -- the list metrics: (hits, k, options, per_user) -> value ----------------------------------


def _precision(hits, k, options, per_user):
    denominator = k
    if options.adaptive_k:
        denominator = np.minimum(k, hits.n_ranked)
    found = hits.hits_at(k, options.judged)
    return _finish(safe_div(found, denominator), hits, options, "Precision@k", per_user)


def _recall(hits, k, options, per_user):
    R = _n_relevant(hits, options)
    found = hits.hits_at(k, options.judged)
    return _finish(safe_div(found, R), hits, options, "Recall@k", per_user, R)


def _ap_denominator(hits, k, options, user):
    R = _n_relevant(hits, options)
    if options.denominator == "relevant":
        return R
    if options.denominator == "min_relevant_k":
        if k is None:
            return R
        return np.minimum(R, k)
    return np.bincount(user, minlength=hits.n_users)   # "hits": the hits in the top k


def _average_precision(hits, k, options):
    """Per-user AP@k: the precision at the rank of each hit in the top k, summed, / D."""
    user, position, _ = hits.within(k, options.judged)
    nth = _nth_hit(user, hits.n_users)
    precision_sum = np.bincount(user, nth / (position + 1.0), minlength=hits.n_users)
    return safe_div(precision_sum, _ap_denominator(hits, k, options, user))


def _map(hits, k, options, per_user):
    values = _average_precision(hits, k, options)
    return _finish(values, hits, options, "Average precision", per_user)


def discount(width, log_base=2.0):
    """1 / log_b(j + 2) for ranks j = 0..width-1."""
    ranks = np.arange(width) + 2.0
    return 1.0 / (np.log(ranks) / math.log(log_base))


def _gain(grades, gain):
    if gain == "linear":
        return grades
    return np.exp2(grades) - 1.0


def _dcg(hits, k, gain, log_base=2.0):
    user, position, grades = hits.within(k)
    width = k
    if k is None:
        width = hits.depth
    weights = _gain(grades, gain) * discount(width, log_base)[position]
    return np.bincount(user, weights, minlength=hits.n_users)


def _ideal_dcg_of_candidates(hits, k, gain):
    """The DCG of each list's own relevant items in the best order (sklearn, torchmetrics)."""
    user, _, grades = hits.within(None)
    width = int(np.bincount(user, minlength=1).max())
    if k is not None:
        width = min(k, width)
    order = np.lexsort((-grades, user))
    user, grades = user[order], grades[order]
    rank = _nth_hit(user, hits.n_users) - 1
    keep = rank < width
    weights = _gain(grades[keep], gain) * discount(width)[rank[keep]]
    return np.bincount(user[keep], weights, minlength=hits.n_users)


def _ideal_dcg(hits, k, gain, ideal):
    """The DCG of the best order: of the relevant items, of the candidates, or as given."""
    if ideal == "candidates":
        return _ideal_dcg_of_candidates(hits, k, gain)
    if ideal == "given" and hits.given is not None:
        width = hits.given.shape[1]
    else:
        width = int(hits.n_relevant.max(initial=0))
    if k is not None:
        width = min(k, width)
    if ideal == "relevant":
        grades = hits.ideal_grades(width)
    else:
        grades = hits.given_grades(width)
    return _gain(grades, gain) @ discount(width)


def _dcg_metric(hits, k, options, per_user):
    values = _dcg(hits, k, options.gain, options.log_base)
    if per_user:
        return values
    return float(values.mean())


def _ndcg(hits, k, options, per_user):
    dcg = _dcg(hits, k, options.gain)
    ideal = _ideal_dcg(hits, k, options.gain, options.ideal)
    return _finish(safe_div(dcg, ideal), hits, options, "NDCG", per_user)


def _mrr(hits, k, options, per_user):
    user, position, _ = hits.within(k, options.judged)
    first = np.diff(user, prepend=-1) != 0
    reciprocal_rank = np.zeros(hits.n_users)
    reciprocal_rank[user[first]] = 1.0 / (position[first] + 1.0)
    return _finish(reciprocal_rank, hits, options, "Reciprocal rank", per_user)


def _hit_rate(hits, k, options, per_user):
    found = hits.hits_at(k, options.judged)
    if options.hit_rate == "any_hit":
        return _finish((found > 0).astype(float), hits, options, "Hit rate", per_user)
    R = _n_relevant(hits, options)
    if per_user:
        return _finish(safe_div(found, R), hits, options, "Hit rate", True, R)
    if R.sum() == 0:
        warn_at_caller("Hit rate is ill-defined and being set to 0.0: no user has a relevant item")
        return 0.0
    return int(found.sum()) / int(R.sum())


def _arhr(hits, k, options, per_user):
    user, position, _ = hits.within(k, options.judged)
    values = np.bincount(user, 1.0 / (position + 1.0), minlength=hits.n_users)
    return _finish(values, hits, options, "ARHR", per_user)


# -- R-precision and interpolated precision (Manning, Raghavan & Schütze, chapter 8) ----------


def _refuse_cut(hits, what, depth=None):
    """Refuse cut hits for a metric that reads each list down to ``depth`` (None: whole lists)."""
    if hits.cut is None:
        return
    if depth is None:
        raise ValueError(f"ranked: {what} reads each whole list, and these hits were found in "
                         f"each list's first {hits.cut} items only")
    if depth > hits.cut:
        raise ValueError(f"ranked: {what} reads each list down to its user's number of relevant "
                         f"items R (up to {depth}), and these hits were found in each list's "
                         f"first {hits.cut} items only")


def _r_precision(hits, k, options, per_user):
    R = _n_relevant(hits, options)
    _refuse_cut(hits, "R-precision", int(R.max(initial=0)))
    user, position, _ = hits.within(None, options.judged)
    in_top_r = position < R[user]
    found = np.bincount(user[in_top_r], minlength=hits.n_users)
    return _finish(safe_div(found, R), hits, options, "R-precision", per_user, R)


def _hits_needed(levels, R, rule):
    """users x levels: how many hits reach each recall level (``recall_hits``)."""
    product = R[:, None] * levels[None, :]
    if rule == "plus_0.9":
        return np.floor(product + 0.9)        # trec_eval: (long) (r * R + 0.9)
    # r·R within 1e-9 of a whole number is that number: 0.7 · 10 is 7 hits, not 8
    return np.ceil(np.round(product, 9))


def _interpolated(hits, levels, options, R):
    """users x levels: the highest precision at a rank whose recall reaches each level.

    Precision only rises at a hit, so the highest precision at a recall of at
    least r is the highest n / rank over the user's n-th hits, n from the hits
    that r needs on; 0 when the list never reaches r. ``R``: each user's
    relevant items under the options.
    """
    user, position, _ = hits.within(None, options.judged)
    nth = _nth_hit(user, hits.n_users)
    precision = nth / (position + 1.0)
    needed = _hits_needed(levels, R, options.recall_hits)
    best = np.zeros((hits.n_users, len(levels)))
    for j in range(len(levels)):
        reached = nth >= needed[user, j]
        np.maximum.at(best[:, j], user[reached], precision[reached])
    return best


def interpolated_precision_at(hits, levels, options, per_user=False):
    """Interpolated precision at each of ``levels``: users x levels, or the mean of each level."""
    if hits.cut is not None:
        _refuse_whole_list_options(hits, options, ("relevant_in",))
        _refuse_cut(hits, "interpolated precision")
    R = _n_relevant(hits, options)
    values = _interpolated(hits, levels, options, R)
    return _finish(values, hits, options, "Interpolated precision", per_user, R)


def _eleven_point(hits, k, options, per_user):
    """The mean interpolated precision at recall 0, 0.1, ..., 1 (trec_eval's doubles)."""
    _refuse_cut(hits, "11-point interpolated average precision")
    levels = np.arange(11) / 10
    R = _n_relevant(hits, options)
    values = _interpolated(hits, levels, options, R).mean(axis=1)
    what = "11-point interpolated average precision"
    return _finish(values, hits, options, what, per_user, R)


# -- the table of metrics, by name ---------------------------------------------------------------


def _refuse_deeper_cut(hits, k):
    if k is None or k > hits.cut:
        raise ValueError(f"k: these hits were found in each list's first {hits.cut} items only; "
                         f"ask for k <= {hits.cut}, or find the hits in whole lists")


def _refuse_whole_list_options(hits, options, reads):
    whole = []
    for name, value in WHOLE_LIST.items():
        if name in reads and getattr(options, name) == value:
            whole.append(f"{name}={value!r}")
    if whole:
        raise ValueError(f"ranked: {', '.join(whole)} reads each whole list, and these hits were "
                         f"found in each list's first {hits.cut} items only")


@dataclasses.dataclass(frozen=True)
class Metric:
    """A list metric as :func:`evaluate` knows it by name.

    Attributes
    ----------
    function : str
        Its public function in evalkit.ranking.
    cut_off : {"required", "optional", "none"}
        Whether its name takes ``"@k"``.
    compute : callable
        ``compute(hits, k, options, per_user)``: the mean, or the per-user values.
    reads : tuple of str
        The options of :data:`~evalkit._hits.WHOLE_LIST` it reads (hits cut at
        k cannot serve them).
    """

    function: str
    cut_off: str
    compute: Callable
    reads: tuple = ("relevant_in",)

    def score(self, hits, k, options, per_user=False):
        """The metric at cut-off k from the hits (checked against a cut), resolved options."""
        if hits.cut is not None:
            if self.cut_off != "none":
                _refuse_deeper_cut(hits, k)
            _refuse_whole_list_options(hits, options, self.reads)
        return self.compute(hits, k, options, per_user)


#: The metrics :func:`evaluate` knows by short name (each function's own name works too).
METRICS = {
    "precision": Metric("precision_at_k", "required", _precision),
    "recall": Metric("recall_at_k", "required", _recall),
    "map": Metric("mean_average_precision", "optional", _map),
    "ndcg": Metric("ndcg_at_k", "required", _ndcg, ("ideal", "relevant_in")),
    "mrr": Metric("mean_reciprocal_rank", "optional", _mrr),
    "hit_rate": Metric("hit_rate_at_k", "required", _hit_rate),
    "dcg": Metric("dcg_at_k", "required", _dcg_metric, ()),
    "arhr": Metric("arhr_at_k", "required", _arhr),
    "r_precision": Metric("r_precision", "none", _r_precision),
    "11pt_avg": Metric("interpolated_average_precision", "none", _eleven_point),
}

#: The functions that take a cut-off, by name, in the table's order (evalkit.spark's metrics).
FUNCTIONS_AT_K = tuple(m.function for m in METRICS.values() if m.cut_off != "none")


def _known(base):
    """The metric of a short name or a function name, or None."""
    if base in METRICS:
        return METRICS[base]
    for metric in METRICS.values():
        if metric.function == base:
            return metric
    return None


def _cut_off(name, base, cut):
    """The cut-off after ``@`` in ``name``, as an integer >= 1."""
    if not (cut.isdigit() and int(cut) >= 1):
        raise ValueError(f"metrics: {name!r}: the cut-off after '@' must be an integer >= 1")
    return int(cut)


def parse_metric(name):
    """``"ndcg@10"`` -> ``(METRICS["ndcg"], 10)``; ``"map"`` -> ``(METRICS["map"], None)``.

    Every bad name is a ValueError (a TypeError for a non-string) naming ``metrics``.
    """
    if not isinstance(name, str):
        raise TypeError(f"metrics: each metric is a name such as 'ndcg@10', got {name!r}")
    base, at, cut = name.partition("@")
    metric = _known(base)
    if metric is None:
        raise ValueError(f"metrics: unknown metric {name!r}; known: {', '.join(METRICS)} (or "
                         "the function names), with '@k' where they take a cut-off")
    k = None
    if at:
        k = _cut_off(name, base, cut)
    if at and metric.cut_off == "none":
        raise ValueError(f"metrics: {name!r}: {base} takes no cut-off '@k'")
    if k is None and metric.cut_off == "required":
        raise ValueError(f"metrics: {name!r} needs a cut-off: '{base}@k'")
    return metric, k


def evaluate(ranked, relevant, metrics, options, per_user=False):
    """Several metrics by name from one search: ``{name: value}``, names as given.

    Every name is parsed (:func:`parse_metric`) before the hits are found
    (:func:`hits_of`: ``ranked`` may be a RankingHits, with ``relevant=None``)
    and the metrics computed from them. ``options`` is a
    :class:`RankingOptions` (:func:`check_options`).
    """
    parsed = {name: parse_metric(name) for name in metrics}
    hits = hits_of(ranked, relevant)
    values = {}
    for name, (metric, k) in parsed.items():
        values[name] = metric.score(hits, k, options, per_user)
    return values
