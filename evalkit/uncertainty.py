"""How sure is a metric? Confidence intervals and paired tests for every metric.

A metric computed on n samples is an estimate. This module puts an interval
around it and compares two models on the same data:

* :func:`bootstrap_ci` -- a bootstrap interval (percentile or BCa) for any
  evalkit metric and any callable with scikit-learn's ``metric(y_true, y_pred)``
  signature;
* :func:`paired_bootstrap` and :func:`permutation_test` -- the difference of
  two models on the same rows, its interval and a p-value;
* :func:`roc_auc_ci` and :func:`delong_test` -- DeLong's variance of the AUC
  (the fast algorithm of Sun & Xu 2014) and the test for two correlated ROC
  curves;
* :func:`mcnemar_test` -- McNemar's test of two classifiers' accuracy on
  the same rows (exact binomial or chi-square);
* :func:`proportion_ci` -- Wilson, Clopper-Pearson and normal (Wald)
  intervals for a proportion such as accuracy.

**Resample counts, not resampled rows.** A bootstrap resample draws n rows
with replacement; a count-based metric only sees how often each kind of row
was drawn. For the label metrics (accuracy, precision, recall, F-beta) a row
is one cell of the confusion matrix, so a resample *is* a multinomial draw
of the cells: ``counts ~ Multinomial(n, C / n)`` (stratified: each actual
class's row ``~ Multinomial(n_c, C[c] / n_c)``). For the AUC and the average
precision a row is a (score group, label) pair of the threshold sweep. All
resamples are drawn at once as count arrays and the metric is evaluated on
all of them as array arithmetic -- the same distribution as resampling the
rows (the exact ordinary bootstrap, not a Poisson approximation), thousands
of times faster than calling the metric thousands of times. Any other
callable is resampled row by row ("rows" scheme). The scheme used is named
in the result.

**Stratified by default.** With ``stratify=True`` each class of ``y_true``
keeps its size in every resample (as pROC does for the AUC): the interval
is then conditional on the class counts, slightly narrower, and a resample
never loses a class. ``stratify=False`` resamples all rows together (the
class counts vary too).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import classification as _clf
from . import curves as _scores
from . import topk as _topk
from ._counts import select
from ._delong import NEEDS, paired_test, require_two_of_each
from ._delong import components as delong_components
from ._delong_blocked import auc_variance
from ._paired import mcnemar, permutation_p, sign_flip_distribution, swap_distribution
from ._resample import (METRICS, LabelCells, ModelCounts, bootstrap_p, chunks, draws, joint_cells,
                        kept, label_rule, require_defined, runs)
from ._sweep import sweep_of
from ._validation import (CONFIDENCE, RANDOM_STATE, Bool, Count, InstanceOf, Integer, Options, Real,
                          Satisfies, as_array, check, check_labels, check_real, check_rules,
                          check_same_length, check_targets, positive_of, validate_params)
from .exceptions import warn_at_caller

__all__ = ["ConfidenceInterval", "Comparison", "bootstrap_ci", "paired_bootstrap",
           "permutation_test", "roc_auc_ci", "delong_test", "mcnemar_test", "proportion_ci"]

Seed = int | np.random.Generator | None  # what random_state= accepts (RANDOM_STATE checks it)

_NORMAL = NormalDist()
_METHODS = {"percentile": "quantiles of the resampled values",
            "bca": "bias-corrected and accelerated, Efron 1987"}
_METRIC = InstanceOf(Callable, "a callable such as evalkit.f1_score")
_BCA_SHARE = Real(0, 1, closed="neither", meaning="else every resampled value lies on one side of "
                  "the estimate and the bias correction z0 is infinite; use method='percentile'")
_SCALAR = Satisfies(lambda v: np.ndim(v) == 0 and np.asarray(v).dtype.kind in "biuf",
                    "a function returning a single number: pick one value (e.g. average='macro')")


def _strata_or_flag(value, name):
    """``stratify``: True or False, or one stratum per sample."""
    if isinstance(value, (bool, np.bool_)):
        return True
    return as_array(value, name)


_RESAMPLING = dict(n_resamples=Integer(1, meaning="the number of bootstrap resamples"),
                   confidence=CONFIDENCE, random_state=RANDOM_STATE, stratify=_strata_or_flag)

#: evalkit's metrics that resample as counts, and their names in the engine's table.
_NAMES = {
    _clf.accuracy_score: "accuracy",
    _clf.precision_score: "precision",
    _clf.recall_score: "recall",
    _clf.f1_score: "f1",
    _clf.fbeta_score: "fbeta",
    _clf.macro_f1: "macro_f1",
    _scores.roc_auc_score: "roc_auc",
    _scores.average_precision_score: "average_precision",
    _topk.top_k_accuracy_score: "top_k_accuracy",
}


# -- results ---------------------------------------------------------------------


class _Result:
    """What both results share: the repr of the fields each names in its ``_shown``."""

    def __repr__(self):
        """``Name(field=value, ...)`` of the fields shown that are set (numbers to 4 digits)."""
        shown = []
        for name in self._shown.split():
            value = getattr(self, name)
            if value is None:
                continue
            if name == "n_skipped" and not self.n_resamples:
                continue
            shown.append(_field(name, value))
        return f"{type(self).__name__}({', '.join(shown)})"


def _field(name, value):
    if isinstance(value, (str, int)):
        return f"{name}={value!r}"
    return f"{name}={value:.4g}"


@dataclass(frozen=True, repr=False, eq=False)
class ConfidenceInterval(_Result):
    """A point estimate with its confidence interval.

    ``estimate`` is the metric on all the data; ``[low, high]`` the interval
    at level ``confidence``, computed by ``method``. Bootstrap intervals also
    give ``n_resamples`` (drawn), ``n_skipped`` (resamples on which the
    metric was undefined, left out and counted), ``scheme`` (how the
    resamples were drawn) and ``distribution`` (the resampled values used).
    Normal-theory intervals (DeLong, Wald) give ``standard_error``.
    """

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n_resamples: int | None = None
    n_skipped: int = 0
    scheme: str = ""
    standard_error: float | None = None
    distribution: np.ndarray | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """``(low, high)``."""
        return (self.low, self.high)

    @property
    def width(self) -> float:
        """``high - low``."""
        return self.high - self.low

    _shown = "estimate low high confidence method n_resamples n_skipped standard_error"

    def __str__(self):
        how = self.method
        if self.n_resamples:
            how += f", {self.n_resamples} resamples"
        if self.n_skipped:
            how += f", {self.n_skipped} skipped"
        level = f"{100 * self.confidence:g} % CI"
        return (f"{self.estimate:.4f} ({level} {self.low:.4f} to "
                f"{self.high:.4f}; {how})")


@dataclass(frozen=True, repr=False, eq=False)
class Comparison(_Result):
    """The difference of two models on the same data: ``estimate = estimate_a - estimate_b``.

    ``[low, high]`` is its interval at level ``confidence`` (``None`` for a
    permutation test, which tests and does not estimate), ``p_value`` the
    two-sided p-value of "no difference". ``statistic`` is the test
    statistic where there is one (DeLong's z, McNemar's), ``table`` the
    2 x 2 table of right and wrong rows (McNemar).
    """

    estimate: float
    low: float | None
    high: float | None
    p_value: float
    confidence: float | None
    method: str
    estimate_a: float
    estimate_b: float
    n_resamples: int | None = None
    n_skipped: int = 0
    scheme: str = ""
    statistic: float | None = None
    distribution: np.ndarray | None = None
    table: np.ndarray | None = None

    @property
    def interval(self) -> tuple[float | None, float | None]:
        """``(low, high)`` of the difference."""
        return (self.low, self.high)

    _shown = ("estimate low high confidence p_value method estimate_a estimate_b statistic "
              "n_resamples n_skipped")

    def __str__(self):
        both = f"({self.estimate_a:.4f} - {self.estimate_b:.4f})"
        text = f"difference {self.estimate:+.4f} {both}"
        if self.low is not None:
            level = f"{100 * self.confidence:g} % CI"
            text += f", {level} {self.low:+.4f} to {self.high:+.4f}"
        return text + f", p = {self.p_value:.4g} ({self.method})"


# -- intervals from resampled values -------------------------------------------------


def _interval(dist, estimate, jackknife, confidence, method):
    """``(low, high)`` from the resampled values ``dist``.

    Percentile: the ``(1 - c)/2`` and ``(1 + c)/2`` quantiles of ``dist``
    (linear interpolation, numpy's and scipy's default). BCa (Efron 1987;
    Efron & Tibshirani 1993, 14.3): the quantiles are moved to
    ``Φ(z0 + (z0 + z_α) / (1 - a (z0 + z_α)))`` with the bias correction
    ``z0 = Φ⁻¹(share of dist below the estimate, ties counted half)`` and
    the acceleration ``a = Σ d³ / (6 (Σ d²)^1.5)`` from the jackknife
    values ``θ_(i)`` (``d = mean θ_(i) - θ_(i)``), as ``scipy.stats.bootstrap``
    computes them. ``jackknife`` is ``(values, multiplicities)``; nan
    values (the metric undefined without that row) are left out.
    """
    alpha = (1 - confidence) / 2
    q = [alpha, 1 - alpha]
    if method == "bca":
        q = _bca_levels(dist, estimate, jackknife, alpha)
    low, high = np.quantile(dist, q)
    return float(low), float(high)


def _bca_levels(dist, estimate, jackknife, alpha):
    """BCa's two quantile levels: ``Φ(z0 + (z0 + z) / (1 - a (z0 + z)))`` for ``z = ±z_α``."""
    below = np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)
    share = below / (2 * len(dist))
    what = "method='bca' is undefined here: the share of resampled values below the estimate"
    z0 = _NORMAL.inv_cdf(check(share, _BCA_SHARE, what))
    a = _acceleration(jackknife)
    z = _NORMAL.inv_cdf(alpha)
    levels = []
    for x in (z, -z):
        levels.append(_NORMAL.cdf(z0 + (z0 + x) / (1 - a * (z0 + x))))
    return levels


def _acceleration(jackknife):
    """BCa's ``a = Σ w d³ / (6 (Σ w d²)^1.5)`` of the jackknife values (nan left out)."""
    table = np.asarray(jackknife, dtype=np.float64)
    used = (table[1] > 0) & ~np.isnan(table[0])
    values, weights = table[:, used]
    d = np.dot(weights, values) / weights.sum() - values
    spread = float(np.dot(weights, d * d))
    if spread <= 0:
        return 0.0
    return float(np.dot(weights, d ** 3)) / (6 * spread ** 1.5)


# -- resampled counts: cells of rows, drawn for many resamples at once -------------------


@dataclass
class _Path:
    """A metric as a function of cell counts: ``evaluate(drawn (B, K)) -> (values, ill)``.

    ``counts[j]`` rows fall in cell j, of stratum ``strata[j]`` (the class of
    ``y_true``); ``values`` is nan where the metric is undefined, ``ill``
    marks resamples where a 0/0 was counted 0.0 (``zero_division="warn"``)
    or is None. ``jackknife()`` gives the metric with one row of each cell
    left out and its multiplicity; ``schemes`` the stratified and plain
    words; ``reason`` why a resample may be undefined.
    """

    counts: np.ndarray
    strata: np.ndarray
    evaluate: Callable
    jackknife: Callable
    schemes: tuple
    reason: str


def _schemes(what):
    return (f"cell counts: {what}multinomial per class of y_true (stratified)",
            f"cell counts: {what}multinomial over all cells (not stratified)")


def _cell_jackknife(counts, evaluate):
    """The metric with one row of each cell left out, and the cells' counts."""
    left_out = counts - np.eye(len(counts), dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values, _ = evaluate(left_out)
    return values, counts


def _count_path(name, options, head, preds, stratify):
    """The count path of the metric named ``name`` on these arrays, or None (rows resampled)."""
    if name is None or len(head) != 1:
        return None
    if not isinstance(stratify, (bool, np.bool_)):
        return None  # strata of the caller's: the rows
    counts = METRICS[name].counts
    if counts == "classes":
        return _label_path(name, options, head[0], preds)
    if counts == "groups":
        return _score_path(name, options, head[0], preds)
    return _topk_path(options, head[0], preds)


# -- label metrics: confusion-matrix cells, the metric through the engine's rule ----------


def _label_cells(name, options, y_true, preds):
    """The cells (actual, prediction of each model) and the metric's rule, or None."""
    metric = METRICS[name]
    if not set(options) <= metric.options:
        return None  # other options: the rows
    if any(np.ndim(a) != 1 for a in (y_true, *preds)):
        return None  # multilabel indicators: the rows
    cells = LabelCells(y_true, preds)
    average = options.get("average", metric.average)
    binary_alone = all(cells.each_binary())
    if binary_alone and len(cells.classes) > 2 and average == "binary":
        if metric.ratio != "accuracy":
            return None  # each model alone is binary, together they hold three labels
    scored = _scored_labels(options, cells.classes, average)
    return cells, label_rule(name, options, cells.classes, scored)


def _scored_labels(options, classes, average):
    """The columns of the ``labels`` given (None: the classes each resample holds)."""
    labels = options.get("labels")
    if labels is None or average == "binary":
        return None
    return select(classes, labels)[1]


def _label_path(name, options, y_true, preds):
    """Label metrics: the confusion-matrix cells of one model, or of two (a - b)."""
    found = _label_cells(name, options, y_true, preds)
    if found is None:
        return None
    cells, rule = found
    models = [cells.model(i) for i in range(len(preds))]

    def evaluate(drawn):
        weights = drawn.astype(np.float64).ravel()
        out = []
        for model in models:
            counts = model.class_counts(model.tally(weights, len(drawn)))
            out.append(rule.evaluate(*counts))
        values, ill = out[0]
        if len(out) == 2:
            values = values - out[1][0]
        if ill is not None and len(out) == 2:
            ill = ill | out[1][1]
        return values, ill

    what = ""
    if len(preds) == 2:
        what = "(actual, a, b) "

    def jackknife():
        return _cell_jackknife(cells.counts, evaluate)
    return _Path(cells.counts, cells.actual, evaluate, jackknife, _schemes(what),
                 "0/0 with zero_division=nan")


# -- top-k accuracy: (class, hit) cells, the hits from the metric itself -------------------


def _topk_path(options, y_true, preds):
    """(class, hit) cells: each class's hits are the public metric's, weighted to that class."""
    if not set(options) <= METRICS["top_k_accuracy"].options or len(preds) != 1:
        return None
    y = check_labels(y_true, "y_true")
    classes, t = np.unique(y, return_inverse=True)
    counting = {**options, "normalize": False}
    hits = []
    with warnings.catch_warnings():  # the estimate already warned
        warnings.simplefilter("ignore")
        for c in range(len(classes)):
            of_class = (t == c) * 1.0
            hits.append(_topk.top_k_accuracy_score(y, preds[0], **counting,
                                                   sample_weight=of_class))
    hits = np.rint(hits).astype(np.int64)
    counts = np.stack([np.bincount(t) - hits, hits], axis=1).ravel()
    hit = np.tile([0, 1], len(classes))
    scale = 1.0
    if options.get("normalize", True):
        scale = len(y)

    def evaluate(drawn):
        return drawn @ hit / scale, None

    def jackknife():
        return _cell_jackknife(counts, evaluate)
    strata = np.repeat(np.arange(len(classes)), 2)
    return _Path(counts, strata, evaluate, jackknife, _schemes("(class, hit) "), "nan")


# -- AUC and AP: the sweep's score groups, the metric from the engine's table --------------

_SWEEP_SCHEMES = ("sweep counts: positives and negatives resampled apart (stratified)",
                  "sweep counts: all rows resampled together (not stratified)")


def _score_path(name, options, y_true, preds):
    """The cells (score group, label) of one model, (group in a, group in b, label) of two."""
    if not set(options) <= METRICS[name].options:
        return None
    if options.get("max_fpr") not in (None, 1) or options.get("labels") is not None:
        return None
    if any(np.ndim(p) != 1 for p in preds):
        return None
    y = check_labels(y_true, "y_true")
    if len(np.unique(y)) != 2:
        return None
    pos_label = options.get("pos_label", 1)
    if name == "roc_auc":
        pos_label = None  # the AUC's positive is the larger label
    positive = positive_of(y, pos_label, larger=True)
    scores = [check_real(p) for p in preds]
    if len(scores) == 1:
        return _one_model_groups(name, positive, scores[0])
    return _two_model_groups(name, positive, scores)


def _one_model_groups(name, positive, scores):
    """One model: the positives of each run of score groups, then the negatives."""
    metric = METRICS[name]
    pos, neg = sweep_of(positive, scores).groups()
    starts = runs(pos, neg, metric.merge_positives)
    pos = np.add.reduceat(pos, starts)
    neg = np.add.reduceat(neg, starts)
    g = len(pos)
    counts = np.r_[pos, neg]
    strata = np.r_[np.ones(g, np.int64), np.zeros(g, np.int64)]

    def evaluate(drawn):
        return metric.from_groups(drawn[:, :g], drawn[:, g:]), None

    def jackknife():
        return np.r_[_leave_one_out(name, pos, neg)], counts
    return _Path(counts, strata, evaluate, jackknife, _SWEEP_SCHEMES,
                 "a resample with one class only")


def _two_model_groups(name, positive, scores):
    """Two models: the cells (group in a, group in b, label), each model's counts of its groups."""
    metric = METRICS[name]
    sweeps = [sweep_of(positive, s) for s in scores]
    groups = [_group_of(sweep, s) for sweep, s in zip(sweeps, scores)]
    label = positive.astype(np.int64)
    cells, counts = joint_cells([groups[0], groups[1], label])
    label = cells[:, 2]
    models = [ModelCounts(label, cells[:, i], 2) for i in (0, 1)]

    def value(model, weights, rows):
        pos, neg = model.score_counts(model.tally(weights, rows), 1)
        return metric.from_groups(pos, neg)

    def evaluate(drawn):
        weights = drawn.astype(np.float64).ravel()
        a, b = (value(model, weights, len(drawn)) for model in models)
        return a - b, None

    def jackknife():
        (pos_a, neg_a), (pos_b, neg_b) = (
            _leave_one_out(name, *sweep.groups()) for sweep in sweeps)
        group_a, group_b = cells[:, 0], cells[:, 1]
        of_positive = pos_a[group_a] - pos_b[group_b]
        of_negative = neg_a[group_a] - neg_b[group_b]
        return np.where(label == 1, of_positive, of_negative), counts
    return _Path(counts, label, evaluate, jackknife, _SWEEP_SCHEMES,
                 "a resample with one class only")


def _group_of(sweep, scores):
    """Each sample's score group (0: the highest score), by a binary search of the thresholds."""
    rising = sweep.thresholds[::-1]
    return len(sweep.thresholds) - 1 - np.searchsorted(rising, scores)


def _leave_one_out(name, pos, neg):
    """The AUC or AP with a positive (``v_pos[g]``) or negative (``v_neg[g]``) of group g left out.

    AUC: ``(P·AUC - v10_g) / (P - 1)`` and ``(N·AUC - v01_g) / (N - 1)``
    from DeLong's components. AP: a positive of group h removed lowers TP by
    one from h on, a negative lowers FP; the step sum is updated in closed
    form. nan where a class would be left empty.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "roc_auc":
            return _auc_left_out(pos, neg)
        return _ap_left_out(pos, neg)


def _auc_left_out(pos, neg):
    n_pos, n_neg = int(pos.sum()), int(neg.sum())
    a, _, b, _ = delong_components(np.cumsum(pos), np.cumsum(neg), n_pos, n_neg)
    auc = METRICS["roc_auc"].from_groups(pos, neg)
    without_positive = (n_pos * auc - a / (2.0 * n_neg)) / (n_pos - 1)
    without_negative = (n_neg * auc - b / (2.0 * n_pos)) / (n_neg - 1)
    return without_positive, without_negative


def _ap_left_out(pos, neg):
    n_pos = int(pos.sum())
    tp = np.cumsum(pos).astype(np.float64)
    seen = tp + np.cumsum(neg)  # the samples at or above each group
    a = _share(pos * tp, seen, 0)
    b = _share(pos * (tp - 1), seen, 1)
    c = _share(pos * tp, seen, 1)
    own = _share((pos - 1) * (tp - 1), seen, 1)
    before = np.r_[0.0, np.cumsum(a)[:-1]]  # Σ_{g<h} a_g
    after_b = np.cumsum(b[::-1])[::-1] - b  # Σ_{g>h} b_g
    from_c = np.cumsum(c[::-1])[::-1]  # Σ_{g>=h} c_g
    without_positive = (before + own + after_b) / (n_pos - 1)
    without_negative = (before + from_c) / n_pos
    return without_positive, without_negative


def _share(numerator, seen, removed):
    """``numerator / (seen - removed)``, 0 where nothing is left above the group."""
    left = seen - removed
    defined = left > 0
    return np.where(defined, numerator / np.where(defined, left, 1), 0.0)


# -- resampled rows, and what every scheme shares ------------------------------------------


def _arrays(named):
    """Read each array (``y_true=None`` passes) and check they have one entry per sample each."""
    out = {}
    for name, value in named.items():
        if value is None and name == "y_true":
            out[name] = None
        else:
            out[name] = as_array(value, name, ndim=(1, 2, 3))
    check_same_length(**out)
    return list(out.values())


def _strata(stratify, first, n):
    """Row strata as integer codes (or None), and the scheme's words."""
    if not isinstance(stratify, (bool, np.bool_)):
        first = as_array(stratify, "stratify")
        check_same_length(stratify=first, arrays=range(n))
        scheme = "rows: rows resampled within each given stratum"
    elif not stratify or first is None or first.ndim != 1:
        return None, "rows: rows resampled with replacement (not stratified)"
    elif not _holds_classes(first):
        return None, ("rows: rows resampled with replacement (not stratified: y_true holds "
                      "no class labels)")
    else:
        scheme = "rows: rows resampled within each class of y_true (stratified)"
    codes = np.unique(first, return_inverse=True)[1]
    return codes.reshape(-1), scheme


def _holds_classes(first):
    """Whether an array holds class labels: booleans, integers or strings."""
    if first.dtype.kind in "biuUS":
        return True
    return first.dtype.kind == "O" and all(isinstance(v, str) for v in first[:100])


def _row_indices(rng, size, n, strata):
    """Resample row indices (size, n): stratified keeps every stratum's size."""
    if strata is None:
        return rng.integers(0, n, size=(size, n))
    blocks = []
    for s in range(strata.max() + 1):
        rows = np.flatnonzero(strata == s)
        drawn = rng.integers(0, len(rows), size=(size, len(rows)))
        blocks.append(rows[drawn])
    return np.concatenate(blocks, axis=1)


def _scalar(value):
    return float(check(value, _SCALAR, "metric"))


def _estimate(metric, head, pred, kwargs):
    """The metric on all rows; its warnings moved to the caller's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _scalar(metric(*head, pred, **kwargs))
    for w in caught:
        warn_at_caller(str(w.message), w.category)
    require_defined(int(np.isnan(value)), 1,
                    "the data itself (e.g. the AUC with one class present)")
    return value


def _call(metric, head, preds, kwargs, rows):
    """The metric (a - b for two models) on some rows; (nan, message) where it raises ValueError."""
    options = dict(kwargs)
    if kwargs.get("sample_weight") is not None:
        options["sample_weight"] = np.asarray(kwargs["sample_weight"])[rows]
    resampled = [a[rows] for a in head]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [_scalar(metric(*resampled, p[rows], **options)) for p in preds]
    except ValueError as exc:
        return np.nan, str(exc)
    if len(values) == 2:
        return values[0] - values[1], None
    return values[0], None


def _auc_of_rows(y, scores):
    """The AUC of 0/1 labels and validated scores (nan with one class): ``roc_auc_ci``'s metric."""
    pos, neg = sweep_of(y == 1, scores).groups()
    return METRICS["roc_auc"].from_groups(pos, neg)


# -- the bootstrap: resampled values, and the interval --------------------------------------


@dataclass
class _Resampled:
    """The metric on each resample (nan where undefined) and how they were drawn.

    ``ill``: where a 0/0 was counted 0.0 (or None); ``reason``: why a
    resample may be undefined; ``jackknife()``: BCa's leave-one-out values.
    """

    dist: np.ndarray
    ill: np.ndarray | None
    scheme: str
    reason: str
    jackknife: Callable


@dataclass
class _Bootstrap:
    """What the bootstrap functions return: estimates, the interval, the resampled values."""

    estimates: list
    estimate: float
    low: float
    high: float
    dist: np.ndarray
    n_skipped: int
    scheme: str


def _bootstrap(metric, name, first, head, preds, kwargs, n_resamples, confidence, method,
               stratify, random_state):
    """Estimates, and the interval of the metric (one model) or of ``a - b`` (two) on resamples.

    ``name``: the metric's name in the engine's table, or None (a callable
    resampled by rows); ``estimate`` is the metric, or ``a - b``, on all rows.
    """
    rng = np.random.default_rng(random_state)
    estimates = [_estimate(metric, head, p, kwargs) for p in preds]
    estimate = estimates[0]
    if len(preds) == 2:
        estimate = estimates[0] - estimates[1]
    path = _count_path(name, kwargs, head, preds, stratify)
    if path is not None:
        resampled = _count_resamples(rng, path, n_resamples, stratify)
    else:
        resampled = _row_resamples(rng, metric, first, head, preds, kwargs, n_resamples,
                                   stratify)
    _warn_ill(resampled, n_resamples)
    dist, n_skipped = kept(resampled.dist, resampled.reason)
    jackknife = None
    if method == "bca":
        jackknife = resampled.jackknife()
    low, high = _interval(dist, estimate, jackknife, confidence, method)
    return _Bootstrap(estimates, estimate, low, high, dist, n_skipped, resampled.scheme)


def _count_resamples(rng, path, n_resamples, stratify):
    """The metric on resampled cell counts, every resample of a block at once."""
    values, ill = [], []
    for drawn in draws(rng, path.counts, path.strata, n_resamples, stratify):
        block_values, block_ill = path.evaluate(drawn)
        values.append(block_values)
        ill.append(block_ill)
    marked = None
    if ill[0] is not None:
        marked = np.concatenate(ill)
    scheme = path.schemes[0]
    if not stratify:
        scheme = path.schemes[1]
    return _Resampled(np.concatenate(values), marked, scheme, path.reason, path.jackknife)


def _row_resamples(rng, metric, first, head, preds, kwargs, n_resamples, stratify):
    """The metric called on resampled rows; the jackknife leaves out a row, or one of 2000
    groups (rows i mod 2000)."""
    n = len(preds[0])
    strata, scheme = _strata(stratify, first, n)
    values, reasons = [], []
    for size in chunks(n_resamples, n):
        for rows in _row_indices(rng, size, n, strata):
            value, reason = _call(metric, head, preds, kwargs, rows)
            values.append(value)
            reasons.append(reason)
    reason = next(filter(None, reasons), "nan")
    every = np.arange(n)
    groups = min(n, 2000)

    def jackknife():
        left_out = []
        for g in range(groups):
            rows = every[every % groups != g]
            left_out.append(_call(metric, head, preds, kwargs, rows)[0])
        return left_out, np.ones(groups)
    return _Resampled(np.array(values), None, scheme, reason, jackknife)


def _warn_ill(resampled, n_resamples):
    """Warn on how many resamples a 0/0 was counted 0.0 (``zero_division="warn"``)."""
    if resampled.ill is None:
        return
    n_ill = int((resampled.ill & ~np.isnan(resampled.dist)).sum())
    if n_ill:
        warn_at_caller(f"the metric is ill-defined (0/0) on {n_ill} of {n_resamples} resamples and "
                       "was set to 0.0 there (zero_division='warn'); pass zero_division=nan to "
                       "skip them instead")


# -- the public functions -----------------------------------------------------------


@validate_params(metric=_METRIC, method=Options(_METHODS), **_RESAMPLING)
def bootstrap_ci(metric: Callable[..., float], *arrays: ArrayLike, n_resamples: int = 2000,
                 confidence: float = 0.95, method: str = "percentile",
                 stratify: bool | ArrayLike = True, random_state: Seed = None,
                 **metric_kwargs: Any) -> ConfidenceInterval:
    """A bootstrap confidence interval for ``metric(*arrays, **metric_kwargs)``.

    The metric is computed on the data (the estimate) and on ``n_resamples``
    resamples of its rows, drawn with replacement. ``method="percentile"``
    takes the ``(1 - c)/2`` and ``(1 + c)/2`` quantiles of the resampled
    values; ``method="bca"``, the bias-corrected and accelerated interval
    (Efron 1987): the same quantiles moved by ``z0`` (the share of
    resampled values below the estimate) and the acceleration ``a`` (from
    the jackknife), second-order accurate where the percentile interval is
    first-order. Both as ``scipy.stats.bootstrap`` computes them.

    **Fast path (resample counts).** For evalkit's label metrics
    (:func:`~evalkit.accuracy_score`, :func:`~evalkit.precision_score`,
    :func:`~evalkit.recall_score`, :func:`~evalkit.f1_score`,
    :func:`~evalkit.fbeta_score`, :func:`~evalkit.macro_f1`) a resample is a
    multinomial draw of the confusion-matrix cells, and for
    :func:`~evalkit.roc_auc_score` and :func:`~evalkit.average_precision_score`
    (binary, unweighted) a draw of the threshold sweep's (score group, label)
    counts; for :func:`~evalkit.top_k_accuracy_score` (unweighted) of the
    (class, hit) cells; every resample is evaluated at once as arrays ("cell
    counts" / "sweep counts" scheme). Any other callable, or these with
    ``sample_weight``, is called on each resample of the rows ("rows"
    scheme; ``sample_weight`` in ``metric_kwargs`` is resampled with them).

    **BCa's jackknife.** The acceleration needs the metric with each row
    left out: computed from the counts on the fast paths; on the rows path
    it calls the metric n more times, or, above 2,000 rows, leaves out 2,000
    groups of rows instead (rows ``i mod 2000``, the delete-a-group
    jackknife).

    **Undefined resamples.** A resample on which the metric is nan or raises
    ValueError (e.g. the AUC of a resample with one class) is skipped,
    counted in ``n_skipped`` and reported by a warning; if every resample
    is, a ValueError. With ``zero_division="warn"`` a 0/0 ratio counts 0.0
    (the metric's convention) and one warning says on how many resamples.

    Parameters
    ----------
    metric : callable
        ``metric(*arrays, **metric_kwargs) -> float``, e.g. ``ek.f1_score``
        or any scikit-learn metric.
    *arrays : array-like
        One entry per sample each (``y_true, y_pred`` or ``y_true, y_score``;
        a single array of per-user values with ``metric=np.mean``).
    n_resamples : int, default=2000
    confidence : float in (0, 1), default=0.95
    method : {"percentile", "bca"}, default="percentile"
    stratify : bool or array-like, default=True
        True: resample within each class of the first array when it holds
        class labels (booleans, integers or strings), as pROC does; False:
        all rows together; an array: one stratum per sample.
    random_state : None, int or numpy.random.Generator
    **metric_kwargs
        Passed to ``metric`` (e.g. ``average="macro"``, ``pos_label``).

    Returns
    -------
    ConfidenceInterval
        ``estimate, low, high, confidence, method, n_resamples, n_skipped,
        scheme, distribution``.

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    >>> yhat = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1]
    >>> ci = ek.bootstrap_ci(ek.f1_score, y, yhat, random_state=0)
    >>> round(ci.estimate, 4), ci.low <= ci.estimate <= ci.high, ci.n_resamples
    (0.8333, True, 2000)
    >>> ci.scheme
    'cell counts: multinomial per class of y_true (stratified)'
    """
    arrays = _arrays({f"arrays[{i}]": a for i, a in enumerate(arrays or [None])})
    result = _bootstrap(metric, _NAMES.get(metric), arrays[0], arrays[:-1], arrays[-1:],
                        metric_kwargs, n_resamples, confidence, method, stratify, random_state)
    return ConfidenceInterval(result.estimate, result.low, result.high, confidence, method,
                              n_resamples, result.n_skipped, result.scheme, None, result.dist)


@validate_params(metric=_METRIC, method=Options(_METHODS), **_RESAMPLING)
def paired_bootstrap(metric: Callable[..., float], y_true: ArrayLike | None, pred_a: ArrayLike,
                     pred_b: ArrayLike, *, n_resamples: int = 2000, confidence: float = 0.95,
                     method: str = "percentile", stratify: bool | ArrayLike = True,
                     random_state: Seed = None, **metric_kwargs: Any) -> Comparison:
    """The difference ``metric(y_true, pred_a) - metric(y_true, pred_b)`` on the same rows, and its
    interval.

    Both models are scored on the same ``n_resamples`` resamples of the
    rows (paired: a hard row is hard for both, so the difference varies far
    less than either metric). The interval is the percentile (or BCa) interval
    of the resampled differences; ``p_value`` is the two-sided bootstrap
    p-value of "no difference", ``(1 + #{|d*_b - d̂| >= |d̂|}) / (B + 1)``
    (the resampled differences shifted to mean 0, Hall & Wilson 1991).
    The count paths of :func:`bootstrap_ci` apply (the cells are then
    (actual, prediction of a, prediction of b)). Per-user values (one number
    per user for each model, e.g. ``ek.mean_average_precision(ranked,
    relevant, per_user=True)``): pass ``metric=np.mean`` and ``y_true=None``;
    users are resampled.

    Parameters
    ----------
    metric : callable
    y_true : array-like or None
    pred_a, pred_b : array-like
        Predictions (labels or scores) of the two models, or per-user values.
    n_resamples, confidence, method, stratify, random_state, **metric_kwargs
        As in :func:`bootstrap_ci`.

    Returns
    -------
    Comparison
        ``estimate`` (a - b), ``low``, ``high``, ``p_value``, ``estimate_a``,
        ``estimate_b``, ``n_resamples``, ``n_skipped``, ``scheme``,
        ``distribution`` (the resampled differences).

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    >>> a = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1]
    >>> b = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1]
    >>> d = ek.paired_bootstrap(ek.accuracy_score, y, a, b, random_state=0)
    >>> round(d.estimate, 4), round(d.estimate_a, 4), round(d.estimate_b, 4)
    (0.2, 0.8, 0.6)
    >>> bool(d.low <= d.estimate <= d.high and 0 < d.p_value <= 1)
    True
    """
    y, a, b = _arrays({"y_true": y_true, "pred_a": pred_a, "pred_b": pred_b})
    head = []
    if y is not None:
        head = [y]
    result = _bootstrap(metric, _NAMES.get(metric), y, head, [a, b], metric_kwargs, n_resamples,
                        confidence, method, stratify, random_state)
    estimate = result.estimate
    # p: how often a difference centred on 0 is as far from 0 as d̂
    p = bootstrap_p(result.dist, estimate)
    est_a, est_b = result.estimates
    return Comparison(estimate, result.low, result.high, p, confidence,
                      f"paired bootstrap ({method})", est_a, est_b, n_resamples,
                      result.n_skipped, result.scheme, None, result.dist)


@validate_params(metric=_METRIC, random_state=RANDOM_STATE,
                 n_permutations=Integer(1, meaning="the number of random permutations"))
def permutation_test(metric: Callable[..., float], y_true: ArrayLike | None, pred_a: ArrayLike,
                     pred_b: ArrayLike, *, n_permutations: int = 2000, random_state: Seed = None,
                     **metric_kwargs: Any) -> Comparison:
    """Paired permutation test of "models a and b score the same": a p-value.

    Under the null hypothesis the two models' predictions for a row are
    exchangeable, so each row's pair is swapped with probability 1/2 and the
    difference ``metric(y_true, a') - metric(y_true, b')`` recomputed,
    ``n_permutations`` times. The two-sided p-value is
    ``(1 + #{|d_perm| >= |d_obs|}) / (n_permutations + 1)`` (never 0: the
    observed split is one of the permutations). For the label metrics the
    swaps are drawn as counts (the swapped rows of each (actual, a, b) cell
    are ``Binomial(count, 1/2)``), all permutations at once; other metrics
    are called on each permuted pair. Swapping assumes the predictions are
    on the same scale (labels, or probabilities); for the AUC of two
    differently scaled scores use :func:`delong_test`. Per-user values:
    ``metric=np.mean`` and ``y_true=None`` (each user's pair of values
    swapped: a sign-flip test of the mean difference). For an interval of
    the difference use :func:`paired_bootstrap`.

    Parameters
    ----------
    metric : callable
    y_true : array-like or None
    pred_a, pred_b : array-like
    n_permutations : int, default=2000
    random_state : None, int or numpy.random.Generator
    **metric_kwargs

    Returns
    -------
    Comparison
        ``estimate`` (a - b), ``p_value``, ``estimate_a``, ``estimate_b``,
        ``n_resamples`` (the permutations), ``distribution`` (the permuted
        differences); ``low`` and ``high`` are None.

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    >>> a = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1]
    >>> b = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1]
    >>> t = ek.permutation_test(ek.accuracy_score, y, a, b, random_state=0)
    >>> round(t.estimate, 4), 0.2 < t.p_value <= 1  # 2 rows differ, both for a: p = 1/2
    (0.2, True)
    """
    rng = np.random.default_rng(random_state)
    y, a, b = _arrays({"y_true": y_true, "pred_a": pred_a, "pred_b": pred_b})
    head = []
    if y is not None:
        head = [y]
    est_a, est_b = (_estimate(metric, head, p, metric_kwargs) for p in (a, b))
    estimate = est_a - est_b
    label = None
    name = _NAMES.get(metric)
    if head and name is not None and METRICS[name].counts == "classes":
        label = _label_cells(name, metric_kwargs, y, [a, b])
    if label is not None:
        dist = swap_distribution(rng, *label, n_permutations)
        scheme = "swap counts: Binomial(count, 1/2) per (actual, a, b) cell"
    elif metric is np.mean and not head and not metric_kwargs and a.ndim == 1:
        # per-row values (a ranker's per-user scores): every swap at once, as the loop draws
        dist = sign_flip_distribution(rng, a, b, n_permutations)
        scheme = "rows: each row's pair swapped with probability 1/2"
    else:
        dist = _swapped_rows(rng, metric, head, a, b, metric_kwargs, n_permutations)
        scheme = "rows: each row's pair swapped with probability 1/2"
    dist, n_skipped = kept(dist, "nan", "permutations")
    p = permutation_p(dist, estimate)
    return Comparison(estimate, None, None, float(p), None, "permutation", est_a, est_b,
                      n_permutations, n_skipped, scheme, None, dist)


def _swapped_rows(rng, metric, head, a, b, kwargs, n_permutations):
    """The metric's difference on each permutation: each row's pair swapped with probability 1/2."""
    shape = (-1,) + (1,) * (a.ndim - 1)
    dist = []
    for _ in range(n_permutations):
        swapped = (rng.random(len(a)) < 0.5).reshape(shape)
        pair = [np.where(swapped, b, a), np.where(swapped, a, b)]
        dist.append(_call(metric, head, pair, kwargs, slice(None))[0])
    return np.array(dist)


# -- the AUC: DeLong ------------------------------------------------------------


def _auc_input(y_true, y_score, name="y_score"):
    """Binary labels (the larger one positive, as roc_auc_score), 2 of each at least; 1-D scores."""
    y = check_labels(y_true, "y_true")
    scores = check_real(y_score, name)
    check_same_length(**{"y_true": y, name: scores})
    positive = positive_of(y, larger=True, binary=NEEDS)
    require_two_of_each(positive)
    return positive, scores


@validate_params(method=Options({"delong": "DeLong's variance",
                                 "bootstrap": "percentile bootstrap"}),
                 **_RESAMPLING)
def roc_auc_ci(y_true: ArrayLike, y_score: ArrayLike, *, confidence: float = 0.95,
               method: str = "delong", n_resamples: int = 2000, stratify: bool | ArrayLike = True,
               random_state: Seed = None) -> ConfidenceInterval:
    """A confidence interval for the ROC AUC: DeLong's (default) or the bootstrap.

    ``method="delong"``: ``AUC ± z_{(1+c)/2} · sqrt(S10 / P + S01 / N)``
    (DeLong, DeLong & Clarke-Pearson 1988), where ``S10`` and ``S01`` are
    the sample variances (ddof 1) of the structural components -- for each
    positive the share of negatives it outscores (ties half), for each
    negative the share of positives that outscore it. They are read off
    one sort of the scores (Sun & Xu 2014's O(n log n) algorithm, here via
    the threshold sweep: tied scores share a component), so the interval
    costs about one :func:`~evalkit.roc_auc_score`. The interval is clipped
    to [0, 1], as pROC does. ``method="bootstrap"``: the percentile interval
    of :func:`bootstrap_ci` (stratified by class by default, as pROC's
    ``ci.auc(method="bootstrap")``). Binary ``y_true``; the larger label is
    positive, as in :func:`~evalkit.roc_auc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    confidence : float in (0, 1), default=0.95
    method : {"delong", "bootstrap"}, default="delong"
    n_resamples, stratify, random_state
        For ``method="bootstrap"`` only.

    Returns
    -------
    ConfidenceInterval
        With ``standard_error`` for DeLong.

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.7]
    >>> ci = ek.roc_auc_ci(y, s)
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4), round(ci.standard_error, 4)
    (0.875, 0.5921, 1.0, 0.1443)
    """
    positive, scores = _auc_input(y_true, y_score)
    # one stratum per sample, though DeLong needs none
    if not isinstance(stratify, (bool, np.bool_)):
        _strata(stratify, positive, len(positive))
    if method == "bootstrap":  # bootstrap_ci's steps, on the arrays read above
        y = positive.astype(np.int64)
        result = _bootstrap(_auc_of_rows, "roc_auc", y, [y], [scores], {}, n_resamples,
                            confidence, "percentile", stratify, random_state)
        return ConfidenceInterval(result.estimate, result.low, result.high, confidence,
                                  "percentile", n_resamples, result.n_skipped, result.scheme,
                                  None, result.dist)
    auc, var = auc_variance(positive, scores)
    se = math.sqrt(max(var, 0.0))
    z = -_NORMAL.inv_cdf((1 - confidence) / 2)
    low = max(0.0, auc - z * se)
    high = min(1.0, auc + z * se)
    return ConfidenceInterval(auc, low, high, confidence, "delong", standard_error=se,
                              scheme="DeLong et al. 1988 variance, Sun & Xu 2014 algorithm")


@validate_params(confidence=CONFIDENCE)
def delong_test(y_true: ArrayLike, score_a: ArrayLike, score_b: ArrayLike, *,
                confidence: float = 0.95) -> Comparison:
    """DeLong's test of two correlated ROC AUCs on the same samples.

    ``z = (A_a - A_b) / sqrt(Var(A_a) + Var(A_b) - 2 Cov(A_a, A_b))`` where the
    variances and the covariance come from the structural components of
    each sample under both models (DeLong et al. 1988): ``S10`` is the 2 x 2
    covariance matrix (ddof 1) of the positives' components, ``S01`` of the
    negatives', and ``Cov = S10 / P + S01 / N``. The two-sided p-value is
    ``2 (1 - Φ(|z|))``; the interval of the difference ``A_a - A_b ±
    z_{(1+c)/2} · se``, clipped to [-1, 1]. As pROC's
    ``roc.test(method="delong", paired=TRUE)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the larger is positive.
    score_a, score_b : array-like of shape (n_samples,)
        The two models' scores for the same samples.
    confidence : float in (0, 1), default=0.95

    Returns
    -------
    Comparison
        ``estimate`` (A_a - A_b), ``low``, ``high``, ``p_value``,
        ``statistic`` (z), ``estimate_a``, ``estimate_b``.

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.7]
    >>> b = [0.3, 0.5, 0.4, 0.2, 0.6, 0.7, 0.1, 0.9]
    >>> t = ek.delong_test(y, a, b)
    >>> round(t.estimate_a, 4), round(t.estimate_b, 4), round(t.statistic, 4), round(t.p_value, 4)
    (0.875, 0.6875, 0.7661, 0.4436)
    """
    positive, sa = _auc_input(y_true, score_a, "score_a")
    sb = check_real(score_b, "score_b")
    check_same_length(y_true=positive, score_b=sb)
    t = paired_test(positive, sa, sb, confidence)
    return Comparison(t.difference, t.low, t.high, t.p_value, confidence, "delong", t.auc_a,
                      t.auc_b, statistic=t.statistic,
                      scheme="DeLong et al. 1988 paired components")


@validate_params(exact=Bool(), correction=Bool())
def mcnemar_test(y_true: ArrayLike, y_pred_a: ArrayLike, y_pred_b: ArrayLike, *,
                 exact: bool = True, correction: bool = True) -> Comparison:
    """McNemar's test of "classifiers a and b are equally accurate" on the same rows.

    Only the rows where the two disagree about being right count: ``b``
    rows where model A (``y_pred_a``) is right and model B wrong, ``c``
    where A is wrong and B right.
    Under the null hypothesis each such row goes either way with
    probability 1/2. ``exact=True`` (default): the two-sided binomial test,
    ``p = min(1, 2 P(X <= min(b, c)))`` with ``X ~ Binomial(b + c, 1/2)``,
    statistic ``min(b, c)``. ``exact=False``: the chi-square statistic
    with 1 degree of freedom, ``(|b - c| - 1)² / (b + c)`` with the
    continuity correction (``correction=True``, Edwards 1948) or
    ``(b - c)² / (b + c)`` without, ``p = P(χ²₁ >= statistic) =
    erfc(sqrt(statistic / 2))``. The numbers and defaults are statsmodels'
    ``statsmodels.stats.contingency_tables.mcnemar(table, exact=True,
    correction=True)``; the exact test suits small ``b + c`` (the
    chi-square approximation wants ``b + c`` of 25 or more).

    When the two are right on the same rows (``b + c = 0``) the exact test
    gives statistic 0 and p = 1, as statsmodels; the chi-square statistic is
    0/0 (statsmodels returns inf and p = 0 with the correction, nan
    without): here statistic 0.0 and p = 1.0 with an
    UndefinedMetricWarning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels (binary or multiclass).
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        The two classifiers' predicted labels for the same rows.
    exact : bool, default=True
        The binomial test; False: the chi-square approximation.
    correction : bool, default=True
        The continuity correction of the chi-square statistic (exact=False only).

    Returns
    -------
    Comparison
        ``estimate`` (accuracy of A minus that of B, ``(b - c) / n``),
        ``estimate_a``, ``estimate_b``, ``statistic``, ``p_value``,
        ``table`` (``[[both right, b], [c, both wrong]]``,
        rows A right/wrong, columns B right/wrong, statsmodels' layout);
        ``low`` and ``high`` are None.

    Examples
    --------
    >>> import evalkit as ek
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    >>> a = [0, 0, 1, 0, 1, 1, 0, 1, 1, 1]
    >>> b = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1]
    >>> t = ek.mcnemar_test(y, a, b)
    >>> t.table.tolist(), t.statistic, t.p_value  # b = 2, c = 0: p = 2 (1/2)^2
    ([[6, 2], [0, 2]], 0.0, 0.5)
    >>> t = ek.mcnemar_test(y, a, b, exact=False)
    >>> t.statistic, round(t.p_value, 4)  # (|2 - 0| - 1)^2 / 2
    (0.5, 0.4795)
    """
    _, y, pred_a = check_targets(y_true, y_pred_a, names=("y_true", "y_pred_a"))
    pred_b = check_targets(y, y_pred_b, names=("y_true", "y_pred_b"))[2]
    table, statistic, p = mcnemar(pred_a != y, pred_b != y, exact, correction)
    b, c = int(table[0, 1]), int(table[1, 0])
    both_right = table[0, 0]
    n = len(y)
    method = "mcnemar exact"
    if not exact:
        method = f"mcnemar chi-square{' corrected' * bool(correction)}"
    return Comparison((b - c) / n, None, None, p, None, method, float(both_right + b) / n,
                      float(both_right + c) / n, statistic=statistic, table=table,
                      scheme="b = A right and B wrong, c = A wrong and B right")


# -- proportions -------------------------------------------------------------------

_PROPORTION_METHODS = {
    "wilson": "Wilson score interval, 1927",
    "clopper-pearson": "exact, from the binomial tails, 1934",
    "normal": "Wald, p ± z·sqrt(p(1-p)/n), clipped to [0, 1]",
}


@validate_params(successes=Count(0), trials=Count(1), confidence=CONFIDENCE,
                 method=Options(_PROPORTION_METHODS))
def proportion_ci(successes: int, trials: int, *, confidence: float = 0.95,
                  method: str = "wilson") -> ConfidenceInterval:
    """A confidence interval for a proportion ``successes / trials``.

    * ``"wilson"`` (default): ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) /
      (1 + z²/n)`` -- good coverage even for small n or p near 0 or 1;
    * ``"clopper-pearson"``: the exact interval from the binomial tails,
      ``[Beta⁻¹(α/2; x, n-x+1), Beta⁻¹(1-α/2; x+1, n-x)]`` (conservative:
      covers at least ``confidence``); needs scipy;
    * ``"normal"``: Wald's ``p ± z·sqrt(p(1-p)/n)``, clipped to [0, 1]
      (statsmodels does not clip); poor for small n or extreme p.

    The numbers are statsmodels' ``proportion_confint`` (methods "wilson",
    "beta", "normal").

    **When is a metric a proportion?** Accuracy is ``correct / n`` with n
    fixed: a binomial proportion when the rows are independent draws from
    the population you care about. Recall is ``tp / (tp + fn)``: a
    proportion of the positives, given how many positives there are.
    Precision is ``tp / (tp + fp)``: a proportion of the predicted
    positives, given their number (which is itself random). The reading
    fails when rows are not independent (several rows per patient or user:
    resample the units with :func:`bootstrap_ci` instead), when the
    threshold or model was chosen on the same rows (the estimate is biased
    upward), with sample weights, and for F1, macro averages or the AUC,
    which are not proportions (use :func:`bootstrap_ci` or
    :func:`roc_auc_ci`).

    Parameters
    ----------
    successes : int
    trials : int
        ``>= 1`` and ``>= successes``.
    confidence : float in (0, 1), default=0.95
    method : {"wilson", "clopper-pearson", "normal"}, default="wilson"

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    Accuracy 0.9 on 100 students (the accuracy paradox's 90 men):

    >>> ci = proportion_ci(90, 100)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.8256, 0.9448)
    >>> ci = proportion_ci(90, 100, method="clopper-pearson")
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.8238, 0.951)
    """
    check_rules([(lambda v: v["successes"] > v["trials"],
                  "successes ({successes}) must not exceed trials ({trials})")],
                successes=successes, trials=trials)
    x, n = int(successes), int(trials)
    z = -_NORMAL.inv_cdf((1 - confidence) / 2)
    p = x / n
    se = None
    if method == "wilson":
        low, high = _wilson(p, n, z)
    elif method == "normal":
        se = math.sqrt(p * (1 - p) / n)
        low, high = p - z * se, p + z * se
    else:
        low, high = _clopper_pearson(x, n, confidence)
    low = max(0.0, float(low))
    high = min(1.0, float(high))
    return ConfidenceInterval(p, low, high, confidence, method, standard_error=se,
                              scheme=_PROPORTION_METHODS[method])


def _wilson(p, n, z):
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _clopper_pearson(x, n, confidence):
    """The exact interval from the binomial tails (Beta quantiles); needs scipy."""
    from scipy.special import betaincinv

    low, high = 0.0, 1.0
    if x > 0:
        low = float(betaincinv(x, n - x + 1, (1 - confidence) / 2))
    if x < n:
        high = float(betaincinv(x + 1, n - x, (1 + confidence) / 2))
    return low, high
