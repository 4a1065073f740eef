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

from . import _curves
from . import classification as _clf
from . import curves as _scores
from . import topk as _topk
from ._counts import _select, confusion_counts, encode_labels, position_of
from ._ratios import prf, ratio
from ._resample import _bootstrap_p, _chunks, _draws, _runs, _tally
from ._sweep import sweep_of
from ._sweep_packed import key_groups, label_keys
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
_RESAMPLING = dict(n_resamples=Integer(1, meaning="the number of bootstrap resamples"),
                   confidence=CONFIDENCE, random_state=RANDOM_STATE,
                   stratify=lambda v, name: isinstance(v, (bool, np.bool_)) or as_array(v, name))


# -- results ---------------------------------------------------------------------


class _Result:
    """What both results share: the repr of the fields each names in its ``_shown``."""

    def __repr__(self):
        """``Name(field=value, ...)`` of the fields shown that are set (numbers to 4 digits)."""
        values = {k: getattr(self, k) for k in self._shown.split()
                  if getattr(self, k) is not None and (k != "n_skipped" or self.n_resamples)}
        shown = [f"{k}={v!r}" if isinstance(v, (str, int)) else f"{k}={v:.4g}"
                 for k, v in values.items()]
        return f"{type(self).__name__}({', '.join(shown)})"


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
        how = self.method + (f", {self.n_resamples} resamples" if self.n_resamples else "")
        if self.n_skipped:
            how += f", {self.n_skipped} skipped"
        return (f"{self.estimate:.4f} ({100 * self.confidence:g} % CI {self.low:.4f} to "
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
        text = f"difference {self.estimate:+.4f} ({self.estimate_a:.4f} - {self.estimate_b:.4f})"
        if self.low is not None:
            text += f", {100 * self.confidence:g} % CI {self.low:+.4f} to {self.high:+.4f}"
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
        below = np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)
        share = below / (2 * len(dist))
        what = "method='bca' is undefined here: the share of resampled values below the estimate"
        z0 = _NORMAL.inv_cdf(check(share, _BCA_SHARE, what))
        j = np.asarray(jackknife, dtype=np.float64)
        values, weights = j[:, (j[1] > 0) & ~np.isnan(j[0])]
        d = np.dot(weights, values) / weights.sum() - values
        den = float(np.dot(weights, d * d))
        a = float(np.dot(weights, d ** 3)) / (6 * den ** 1.5) if den > 0 else 0.0
        z = _NORMAL.inv_cdf(alpha)
        q = [_NORMAL.cdf(z0 + (z0 + x) / (1 - a * (z0 + x))) for x in (z, -z)]
    low, high = np.quantile(dist, q)
    return float(low), float(high)



# -- resampled counts: cells of rows, drawn for many resamples at once -------------------


@dataclass
class _Path:
    """A metric as a function of cell counts: ``evaluate(drawn (B, K)) -> (values, ill)``.

    ``counts[j]`` rows fall in cell j, of stratum ``strata[j]`` (the class of
    ``y_true``); ``values`` is nan where the metric is undefined, ``ill``
    marks resamples where a 0/0 was counted 0.0 (``zero_division="warn"``)
    or is None. ``jackknife()`` gives the metric with one row of each cell
    left out and its multiplicity; ``schemes`` the stratified and plain
    words; ``cells`` and ``rule`` the codes and the rule (labels only).
    """

    counts: np.ndarray
    strata: np.ndarray
    evaluate: Callable
    jackknife: Callable
    schemes: tuple
    reason: str
    cells: tuple = ()
    rule: Callable | None = None


def _schemes(what):
    return (f"cell counts: {what}multinomial per class of y_true (stratified)",
            f"cell counts: {what}multinomial over all cells (not stratified)")


def _cell_jackknife(counts, evaluate):
    left = counts - np.eye(len(counts), dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(left)[0], counts


# -- label metrics: confusion-matrix cells, the metric through prf ------------------------

_SETWISE = {"labels", "pos_label", "average", "zero_division"}
_LABEL_METRICS = {
    _clf.accuracy_score: ("accuracy", {"normalize"}),
    _clf.precision_score: ("precision", _SETWISE),
    _clf.recall_score: ("recall", _SETWISE),
    _clf.f1_score: ("f", _SETWISE),
    _clf.fbeta_score: ("f", _SETWISE | {"beta"}),
    _clf.macro_f1: ("f", {"definition", "labels", "zero_division"}),
}


def _distinct(key, size):
    """The distinct keys (< ``size``) and how often each occurs: a count table when small."""
    if size > 2 * len(key) + 1024:
        return np.unique(key, return_counts=True)
    counts = np.bincount(key, minlength=size)
    cells = np.flatnonzero(counts)
    return cells, counts[cells]


def _label_path(metric, kwargs, y_true, preds):
    """The cells (actual, prediction of each model) and the metric's rule, or None."""
    kind, allowed = _LABEL_METRICS[metric]
    if not set(kwargs) <= allowed or any(np.ndim(a) != 1 for a in (y_true, *preds)):
        return None  # other options, multilabel indicators: the rows
    classes, t, p = encode_labels(y_true, np.concatenate(preds))  # validated by the metric
    c, m = len(classes), len(preds) + 1
    cells, counts = _distinct(np.ravel_multi_index([t, *p.reshape(m - 1, -1)], (c,) * m), c ** m)
    cells = np.unravel_index(cells, (c,) * m)
    two = [len(np.union1d(cells[0], q)) <= 2 for q in cells[1:]]  # each model alone binary
    binary = all(two) and c <= 2
    average = "macro" if metric is _clf.macro_f1 else kwargs.get("average", "binary")
    if all(two) and c > 2 and average == "binary" and kind != "accuracy":
        return None  # each model alone is binary, together they hold three labels
    rule = _class_rule(kind, kwargs, average, classes, binary)

    # tp, predicted, actual per class (B, C) of cells (true t, predicted p)
    def values(drawn, t, p):
        return rule(_tally(t, c, drawn * (t == p)), _tally(p, c, drawn), _tally(t, c, drawn))

    def evaluate(drawn):
        out = [values(drawn, cells[0], p) for p in cells[1:]]
        ill = None if out[0][1] is None else np.any([o[1] for o in out], axis=0)
        return (out[0][0] - out[1][0] if len(out) == 2 else out[0][0]), ill

    what = "(actual, a, b) " if len(preds) == 2 else ""
    return _Path(counts, cells[0], evaluate, lambda: _cell_jackknife(counts, evaluate),
                 _schemes(what), "0/0 with zero_division=nan", cells, values)


def _class_rule(kind, kwargs, average, classes, binary):
    """``rule(tp, predicted, actual) -> (values (B,), ill)`` from (B, C) class counts.

    Precision, recall and F-beta, their averaging and ``zero_division`` are
    :func:`evalkit._ratios.prf`'s, batched over the resamples. Scored:
    ``pos_label`` (binary average), the given ``labels`` (one absent from
    the data has all counts 0), or, with ``labels=None``, the classes
    present in each resample, as the metric on it would see them (resamples
    are grouped by the classes they hold). ``ill`` marks the resamples
    with a 0/0 under ``zero_division="warn"`` (counted 0.0), else None.
    """
    warn = isinstance(kwargs.get("zero_division", "warn"), str)
    zd = 0.0 if warn else kwargs["zero_division"]
    opts = dict(beta=float(kwargs.get("beta", 1.0)), warn_for=())
    which = {"precision": 0, "recall": 1}.get(kind, 2)
    of_means = kwargs.get("definition") == "f1_of_means"
    present_only = False
    if average == "binary" and binary:
        cols, average = np.array([position_of(kwargs.get("pos_label", 1), classes)]), None
    elif kwargs.get("labels") is None:
        cols, present_only = np.arange(len(classes)), True
    else:
        cols = _select(classes, kwargs["labels"])[1]

    def rule(tp, pred, act):
        if kind == "accuracy":
            correct = tp.sum(axis=1)
            return (correct / act.sum(axis=1) if kwargs.get("normalize", True) else correct), None
        tp, pred, act = (np.where(cols >= 0, x[:, np.maximum(cols, 0)], 0) for x in (tp, pred, act))
        held = (act + pred > 0) if present_only else np.ones(tp.shape, dtype=bool)
        # the macro mean over the classes each resample holds: a mean weighted by held
        avg = "samples" if present_only and average == "macro" else average
        p, r, f, _ = prf(tp, pred, act, average=avg, zero_division=zd, weights=held, **opts)
        if of_means:
            f = ratio(2 * p * r, p + r, zero_division=zd)
        values = np.reshape((p, r, f)[which], -1)
        if not warn:
            return values, None
        per = prf(tp, pred, act, average="micro" if average == "micro" else None,
                  zero_division=np.nan, **opts)  # which resamples divided 0 by 0 somewhere held
        nan = np.isnan(per[:2] if of_means else per[which:which + 1])
        used = nan & (average == "micro" or held)
        return values, used.reshape(len(used), len(tp), -1).any(axis=(0, 2)) | (
            (p + r == 0) if of_means else False)
    return rule


# -- top-k accuracy: (class, hit) cells, the hits from the metric itself -------------------


def _topk_path(metric, kwargs, y_true, preds):
    """(class, hit) cells: each class's hits are the public metric's, weighted to that class."""
    if not set(kwargs) <= {"k", "normalize", "labels", "ties"} or len(preds) != 1:
        return None
    y = check_labels(y_true, "y_true")
    classes, t = np.unique(y, return_inverse=True)
    with warnings.catch_warnings():  # the estimate already warned
        warnings.simplefilter("ignore")
        hits = np.rint([_topk.top_k_accuracy_score(y, preds[0], **{**kwargs, "normalize": False},
                                                   sample_weight=(t == c) * 1.0)
                        for c in range(len(classes))]).astype(np.int64)
    counts = np.stack([np.bincount(t) - hits, hits], axis=1).ravel()
    hit = np.tile([0, 1], len(classes))
    scale = len(y) if kwargs.get("normalize", True) else 1.0

    def evaluate(drawn):
        return drawn @ hit / scale, None
    return _Path(counts, np.repeat(np.arange(len(classes)), 2), evaluate,
                 lambda: _cell_jackknife(counts, evaluate), _schemes("(class, hit) "), "nan")


# -- AUC and AP: the sweep's score groups, the metric through _curves ----------------------

_SCORE_METRICS = {
    _scores.roc_auc_score: (_curves.auc_from_groups,
                            {"average", "multi_class", "max_fpr", "labels"}),
    _scores.average_precision_score: (_curves.ap_from_groups, {"average", "pos_label"}),
}


def _sweep(positive, scores):
    """The score groups (decreasing score): ``(pos, neg, group of each sample)``.

    The threshold sweep's (:func:`evalkit._sweep.sweep_of`: one sort of
    label-carrying keys): ``pos[g]`` and ``neg[g]`` are the positives and
    negatives scored at the g-th highest distinct score. The samples'
    groups are found only when asked, by a binary search of those scores.
    """
    sweep = sweep_of(positive, scores)
    t = sweep.thresholds
    return (*sweep.groups(), lambda: len(t) - 1 - np.searchsorted(t[::-1], scores))


def _components(tps, fps, n_pos, n_neg, before=(0, 0)):
    """Twice DeLong's structural components of score groups, scaled: ``(a, pos, b, neg)``.

    From the cumulative counts through each group (decreasing score;
    ``before``: through the group before the first): a positive of group g
    outscores ``v10_g = a_g / 2N`` of the negatives, ``a_g = 2N - FP_g -
    FP_{g-1}`` (the negatives below, ties half), and a negative is
    outscored by ``v01_g = b_g / 2P`` of the positives, ``b_g = TP_g +
    TP_{g-1}`` (Sun & Xu 2014); ``pos``/``neg`` count the group's samples.
    Over the samples both components average to the AUC: ``Σ neg·b = 2U``.
    """
    tp0, fp0 = np.empty_like(tps), np.empty_like(fps)  # through the group before
    tp0[0], tp0[1:], fp0[0], fp0[1:] = before[0], tps[:-1], before[1], fps[:-1]
    return 2 * n_neg - fps - fp0, tps - tp0, tps + tp0, fps - fp0


def _leave_one_out(fn, pos, neg):
    """The AUC or AP with a positive (``v_pos[g]``) or negative (``v_neg[g]``) of group g left out.

    AUC: ``(P·AUC - v10_g) / (P - 1)`` and ``(N·AUC - v01_g) / (N - 1)``
    from DeLong's components. AP: a positive of group h removed lowers TP by
    one from h on, a negative lowers FP; the step sum is updated in closed
    form. nan where a class would be left empty.
    """
    P, N = int(pos.sum()), int(neg.sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        if fn is _curves.auc_from_groups:
            a, _, b, _ = _components(np.cumsum(pos), np.cumsum(neg), P, N)
            auc = fn(pos, neg)
            return (P * auc - a / (2.0 * N)) / (P - 1), (N * auc - b / (2.0 * P)) / (N - 1)
        tp = np.cumsum(pos).astype(np.float64)
        d = tp + np.cumsum(neg)
        a = np.where(d > 0, pos * tp / np.where(d > 0, d, 1), 0.0)
        b = np.where(d > 1, pos * (tp - 1) / np.where(d > 1, d - 1, 1), 0.0)
        c = np.where(d > 1, pos * tp / np.where(d > 1, d - 1, 1), 0.0)
        own = np.where(d > 1, (pos - 1) * (tp - 1) / np.where(d > 1, d - 1, 1), 0.0)
        before = np.r_[0.0, np.cumsum(a)[:-1]]  # Σ_{g<h} a_g
        after_b = np.cumsum(b[::-1])[::-1] - b  # Σ_{g>h} b_g
        from_c = np.cumsum(c[::-1])[::-1]  # Σ_{g>=h} c_g
        return (before + own + after_b) / (P - 1), (before + from_c) / P


def _score_path(metric, kwargs, y_true, preds):
    """The cells (score group, label) of one model, (group in a, group in b, label) of two."""
    fn, allowed = _SCORE_METRICS[metric]
    if (not set(kwargs) <= allowed or kwargs.get("max_fpr") not in (None, 1)
            or kwargs.get("labels") is not None or any(np.ndim(p) != 1 for p in preds)):
        return None
    y = check_labels(y_true, "y_true")
    if len(np.unique(y)) != 2:
        return None
    auc = fn is _curves.auc_from_groups  # the AUC's positive is the larger label
    positive = positive_of(y, None if auc else kwargs.get("pos_label", 1), larger=True)
    models = [_sweep(positive, check_real(p)) for p in preds]
    schemes = ("sweep counts: positives and negatives resampled apart (stratified)",
               "sweep counts: all rows resampled together (not stratified)")
    reason = "a resample with one class only"
    if len(models) == 1:  # cells: positives of each group (run of groups), then negatives
        pos, neg = (np.add.reduceat(x, _runs(fn, *models[0][:2])) for x in models[0][:2])
        g, counts = len(pos), np.r_[pos, neg]
        return _Path(counts, np.r_[np.ones(g, np.int64), np.zeros(g, np.int64)],
                     lambda drawn: (fn(drawn[:, :g], drawn[:, g:]), None),
                     lambda: (np.r_[_leave_one_out(fn, pos, neg)], counts), schemes, reason)
    size = [len(m[0]) for m in models]
    group = [m[2]() for m in models]
    cells, counts = np.unique((group[0] * size[1] + group[1]) * 2 + positive, return_counts=True)
    lab, ga, gb = cells % 2, cells // 2 // size[1], cells // 2 % size[1]

    def of_model(drawn, gm, groups):  # the metric of one model's (group, label) counts
        both = _tally(2 * gm + lab, 2 * groups, drawn)
        return fn(both[:, 1::2], both[:, 0::2])

    def jackknife():
        (pa, na), (pb, nb) = (_leave_one_out(fn, *m[:2]) for m in models)
        return np.where(lab == 1, pa[ga] - pb[gb], na[ga] - nb[gb]), counts
    return _Path(counts, lab, lambda d: (of_model(d, ga, size[0]) - of_model(d, gb, size[1]), None),
                 jackknife, schemes, reason)


# -- resampled rows, and what every scheme shares ------------------------------------------


def _arrays(named):
    """Read each array (``y_true=None`` passes) and check they have one entry per sample each."""
    out = {k: v if v is None and k == "y_true" else as_array(v, k, ndim=(1, 2, 3))
           for k, v in named.items()}
    check_same_length(**out)
    return list(out.values())


def _strata(stratify, first, n):
    """Row strata as integer codes (or None), and the scheme's words."""
    if isinstance(stratify, (bool, np.bool_)):
        if not stratify or first is None or first.ndim != 1:
            return None, "rows: rows resampled with replacement (not stratified)"
        if first.dtype.kind not in "biuUS" and not (
                first.dtype.kind == "O" and all(isinstance(v, str) for v in first[:100])):
            return None, ("rows: rows resampled with replacement (not stratified: y_true holds "
                          "no class labels)")
        scheme = "rows: rows resampled within each class of y_true (stratified)"
    else:
        scheme = "rows: rows resampled within each given stratum"
        first = as_array(stratify, "stratify")
        check_same_length(stratify=first, arrays=range(n))
    return np.unique(first, return_inverse=True)[1].reshape(-1), scheme


def _row_indices(rng, size, n, strata):
    """Resample row indices (size, n): stratified keeps every stratum's size."""
    if strata is None:
        return rng.integers(0, n, size=(size, n))
    return np.concatenate([rows[rng.integers(0, len(rows), size=(size, len(rows)))] for rows in
                           (np.flatnonzero(strata == s) for s in range(strata.max() + 1))], axis=1)


def _scalar(value):
    return float(check(value, _SCALAR, "metric"))


def _defined(n_undefined, n, where):
    if n_undefined == n:
        raise ValueError(f"metric is undefined (nan) on {where}: no interval can be computed")


def _kept(dist, reason, what="resamples"):
    """The values where the metric is defined; the others are counted and warned about."""
    skipped = np.isnan(dist)
    k, n = int(skipped.sum()), len(dist)
    _defined(k, n, f"every one of the {n} {what} ({reason})")
    if k:
        warn_at_caller(f"{k} of {n} {what} were skipped: the metric is undefined on them "
                       f"({reason}); the other {n - k} are used (see n_skipped)")
    return dist[~skipped], k


def _estimate(metric, head, pred, kwargs):
    """The metric on all rows; its warnings moved to the caller's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _scalar(metric(*head, pred, **kwargs))
    for w in caught:
        warn_at_caller(str(w.message), w.category)
    _defined(int(np.isnan(value)), 1, "the data itself (e.g. the AUC with one class present)")
    return value


def _call(metric, head, preds, kwargs, rows):
    """The metric (a - b for two models) on some rows; (nan, message) where it raises ValueError."""
    kw = dict(kwargs)
    if kwargs.get("sample_weight") is not None:
        kw["sample_weight"] = np.asarray(kwargs["sample_weight"])[rows]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = [_scalar(metric(*[a[rows] for a in head], p[rows], **kw)) for p in preds]
    except ValueError as exc:
        return np.nan, str(exc)
    return (v[0] - v[1] if len(v) == 2 else v[0]), None


def _resample(metric, first, head, preds, kwargs, n_resamples, confidence, method, stratify,
              random_state):
    """Estimates, and the interval of the metric (one model) or of ``a - b`` (two) on resamples.

    Returns ``(estimates, estimate, low, high, distribution, n_skipped, scheme)``:
    ``estimate`` is the metric, or ``a - b``, on all rows.
    """
    rng = np.random.default_rng(random_state)
    estimates = [_estimate(metric, head, p, kwargs) for p in preds]
    estimate = estimates[0] - estimates[1] if len(preds) == 2 else estimates[0]
    build = {_topk.top_k_accuracy_score: _topk_path, **dict.fromkeys(_LABEL_METRICS, _label_path),
             **dict.fromkeys(_SCORE_METRICS, _score_path)}.get(metric)
    path = isinstance(stratify, (bool, np.bool_)) and len(head) == 1 and build and build(
        metric, kwargs, head[0], preds)
    ill, n = None, len(preds[0])
    if path:
        draws = _draws(rng, path.counts, path.strata, n_resamples, stratify)
        dist, ill = zip(*(path.evaluate(counts) for counts in draws))
        dist, ill = np.concatenate(dist), (None if ill[0] is None else np.concatenate(ill))
        scheme, reason, jackknife = path.schemes[0 if stratify else 1], path.reason, path.jackknife
    else:  # resampled rows; the jackknife leaves out a row, or one of 2000 groups (rows i mod 2000)
        strata, scheme = _strata(stratify, first, n)
        draws = (rows for size in _chunks(n_resamples, n)
                 for rows in _row_indices(rng, size, n, strata))
        dist, reason = zip(*(_call(metric, head, preds, kwargs, rows) for rows in draws))
        dist, reason, rows = np.array(dist), next(filter(None, reason), "nan"), np.arange(n)

        def jackknife():
            return [_call(metric, head, preds, kwargs, rows[rows % min(n, 2000) != g])[0]
                    for g in range(min(n, 2000))], np.ones(min(n, 2000))
    n_ill = 0 if ill is None else int((ill & ~np.isnan(dist)).sum())
    if n_ill:
        warn_at_caller(f"the metric is ill-defined (0/0) on {n_ill} of {n_resamples} resamples and "
                       "was set to 0.0 there (zero_division='warn'); pass zero_division=nan to "
                       "skip them instead")
    dist, n_skipped = _kept(dist, reason)
    low, high = _interval(dist, estimate, jackknife() if method == "bca" else None, confidence,
                          method)
    return estimates, estimate, low, high, dist, n_skipped, scheme


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
    _, estimate, low, high, dist, n_skipped, scheme = _resample(
        metric, arrays[0], arrays[:-1], arrays[-1:], metric_kwargs, n_resamples, confidence,
        method, stratify, random_state)
    return ConfidenceInterval(estimate, low, high, confidence, method, n_resamples, n_skipped,
                              scheme, None, dist)


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
    (est_a, est_b), estimate, low, high, dist, n_skipped, scheme = _resample(
        metric, y, [] if y is None else [y], [a, b], metric_kwargs, n_resamples, confidence,
        method, stratify, random_state)
    # p: how often a difference centred on 0 is as far from 0 as d̂
    return Comparison(estimate, low, high, _bootstrap_p(dist, estimate), confidence,
                      f"paired bootstrap ({method})", est_a, est_b, n_resamples, n_skipped, scheme,
                      None, dist)


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
    head = [] if y is None else [y]
    est_a, est_b = (_estimate(metric, head, p, metric_kwargs) for p in (a, b))
    estimate = est_a - est_b
    path = head and metric in _LABEL_METRICS and _label_path(metric, metric_kwargs, y, [a, b])
    scheme = "rows: each row's pair swapped with probability 1/2"  # unless the label cells
    if path:
        t, ca, cb = path.cells
        tt, ab, ba = np.r_[t, t], np.r_[ca, cb], np.r_[cb, ca]
        dist = []
        for size in _chunks(n_permutations, 2 * len(path.counts)):
            swapped = rng.binomial(path.counts, 0.5, size=(size, len(path.counts)))
            # a' takes a's prediction on kept rows and b's on swapped rows; b' the reverse
            both = np.concatenate([path.counts - swapped, swapped], axis=1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dist.append(path.rule(both, tt, ab)[0] - path.rule(both, tt, ba)[0])
        dist = np.concatenate(dist)
        scheme = "swap counts: Binomial(count, 1/2) per (actual, a, b) cell"
    elif metric is np.mean and not head and not metric_kwargs and a.ndim == 1:
        # per-row values (a ranker's per-user scores): every swap at once; rng.random((k, n))
        # draws what k calls of rng.random(n) draw, in order, so p is the loop's p
        dist = np.concatenate([_sign_flips(rng, a, b, size)
                               for size in _chunks(n_permutations, len(a))])
    else:
        shape = (-1,) + (1,) * (a.ndim - 1)
        swaps = ((rng.random(len(a)) < 0.5).reshape(shape) for _ in range(n_permutations))
        dist = np.array([_call(metric, head, [np.where(w, b, a), np.where(w, a, b)], metric_kwargs,
                               slice(None))[0] for w in swaps])
    dist, n_skipped = _kept(dist, "nan", "permutations")
    extreme = np.count_nonzero(np.abs(dist) >= abs(estimate) - 1e-12 * max(1.0, abs(estimate)))
    p = (1 + extreme) / (len(dist) + 1)
    return Comparison(estimate, None, None, float(p), None, "permutation", est_a, est_b,
                      n_permutations, n_skipped, scheme, None, dist)


# -- the AUC: DeLong ------------------------------------------------------------


def _auc_input(y_true, y_score, name="y_score"):
    """Binary labels (the larger one positive, as roc_auc_score), 2 of each at least; 1-D scores."""
    y = check_labels(y_true, "y_true")
    scores = check_real(y_score, name)
    check_same_length(**{"y_true": y, name: scores})
    needs = ("the AUC's interval needs binary y_true with at least 2 samples of each class "
             "(the larger label is positive)")
    positive = positive_of(y, larger=True, binary=needs)
    fewest = min(np.count_nonzero(positive), np.count_nonzero(~positive))
    if fewest < 2:
        what = "one class" if not fewest else "1 sample of one class"
        raise ValueError(f"y_true has {what}: {needs}")
    return positive, scores


def _delong(positive, *scores):
    """AUCs (k,) and their covariance (k, k) after DeLong et al. (1988), from the score groups.

    ``Cov = S10 / P + S01 / N`` with ``S10`` (``S01``) the covariance (ddof
    1) of the positives' (negatives') structural components
    (:func:`_components`) under each model; the AUCs are their means,
    ``2U / 2PN`` in integers. One model: the groups' weighted moments, block
    by block of the sorted keys (Sun & Xu 2014: one sort, then one cache-sized
    pass; the blocks' moments merged as Chan et al.'s update); two: each sample's
    pair of components.
    """
    p = int(np.count_nonzero(positive))
    n = len(positive) - p
    if len(scores) == 1:  # per block and class: the components' rows, sum (an int) and M2
        packed, parts, before = label_keys(positive, scores[0]), [], (0, 0)
        if packed is None:  # argsort
            whole = sweep_of(positive, scores[0])
            blocks = [(whole.tps, whole.fps)]
        else:  # a block inside one long group ends none
            blocks = ((ends + 1 - fps, fps)
                      for ends, fps, _ in key_groups(packed[0], with_keys=False) if len(ends))
        for tps, fps in blocks:
            a, pos, b, neg = _components(tps, fps, p, n, before)
            for x, w, m in ((a, pos, int(tps[-1] - before[0])), (b, neg, int(fps[-1] - before[1]))):
                total = int(np.einsum("i,i->", w, x))  # einsum, not np.dot: no BLAS threads woken
                d = x - total / max(m, 1)
                parts.append((m, total, float(np.einsum("i,i,i->", w, d, d))))
            before = (tps[-1], fps[-1])
        rows, totals, m2 = (np.array(column, dtype=np.float64).reshape(-1, 2)
                            for column in zip(*parts))
        mean = totals.sum(axis=0) / rows.sum(axis=0)  # the blocks' M2 merged (Chan et al.)
        m2 = m2.sum(axis=0) + (rows * (totals / np.maximum(rows, 1) - mean) ** 2).sum(axis=0)
        var = m2[0] / (4.0 * n * n * (p - 1) * p) + m2[1] / (4.0 * p * p * (n - 1) * n)
        return np.array([sum(t for _, t, _ in parts[1::2]) / (2.0 * p * n)]), np.array([[var]])
    aucs, x10, x01 = [], [], []
    for s in scores:
        pos, neg, group = _sweep(positive, s)
        a, _, b, _ = _components(np.cumsum(pos), np.cumsum(neg), p, n)
        g = group()
        aucs.append(int(np.einsum("i,i->", neg, b)) / (2.0 * p * n))
        x10.append(a[g[positive]] / (2.0 * n))
        x01.append(b[g[~positive]] / (2.0 * p))
    return np.array(aucs), np.cov(x10) / p + np.cov(x01) / n


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
        _, auc, low, high, dist, n_skipped, scheme = _resample(
            _scores.roc_auc_score, y, [y], [scores], {}, n_resamples, confidence, "percentile",
            stratify, random_state)
        return ConfidenceInterval(auc, low, high, confidence, "percentile", n_resamples, n_skipped,
                                  scheme, None, dist)
    aucs, cov = _delong(positive, scores)
    auc, se = float(aucs[0]), math.sqrt(max(cov[0, 0], 0.0))
    z = -_NORMAL.inv_cdf((1 - confidence) / 2)
    return ConfidenceInterval(auc, max(0.0, auc - z * se), min(1.0, auc + z * se), confidence,
                              "delong", standard_error=se,
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
    aucs, cov = _delong(positive, sa, sb)
    auc_a, auc_b = float(aucs[0]), float(aucs[1])
    var, diff = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), auc_a - auc_b
    se = math.sqrt(var) if var > 1e-300 else 0.0  # equal components: z = 0 (p = 1) or infinite
    z = diff / se if se else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    p, q = math.erfc(abs(z) / math.sqrt(2)), -_NORMAL.inv_cdf((1 - confidence) / 2)
    return Comparison(diff, max(-1.0, diff - q * se), min(1.0, diff + q * se), float(p),
                      confidence, "delong", auc_a, auc_b, statistic=float(z),
                      scheme="DeLong et al. 1988 paired components")


def _binomial_two_sided(k, n):
    """``min(1, 2 P(X <= k))`` for ``X ~ Binomial(n, 1/2)``, ``k <= n / 2``.

    ``P(X = k)`` from log-gamma, the lower terms by the ratios
    ``P(X = i - 1) / P(X = i) = i / (n - i + 1)``.
    """
    ratios = np.cumprod(np.arange(k, 0, -1) / np.arange(n - k + 1, n + 1.0))
    log_pk = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    return min(1.0, 2 * math.exp(log_pk) * (1 + float(ratios.sum())))


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
    # rows: A wrong
    table = confusion_counts(pred_a != y, pred_b != y, np.array([False, True]), None)[1]
    b, c = int(table[0, 1]), int(table[1, 0])
    if exact:
        statistic, p = float(min(b, c)), _binomial_two_sided(min(b, c), b + c)
    elif b + c == 0:
        warn_at_caller("y_pred_a and y_pred_b are right on the same rows (b + c = 0): McNemar's "
                       "chi-square statistic is 0/0; statistic 0.0 and p_value 1.0 returned")
        statistic, p = 0.0, 1.0
    else:
        statistic = (abs(b - c) - bool(correction)) ** 2 / (b + c)
        p = math.erfc(math.sqrt(statistic / 2))
    n = len(y)
    method = "mcnemar exact" if exact else f"mcnemar chi-square{' corrected' * bool(correction)}"
    return Comparison((b - c) / n, None, None, p, None, method, float(table[0, 0] + b) / n,
                      float(table[0, 0] + c) / n, statistic=statistic, table=table,
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
    p, se = x / n, None
    if method == "wilson":
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = centre - half, centre + half
    elif method == "normal":
        se = math.sqrt(p * (1 - p) / n)
        low, high = p - z * se, p + z * se
    else:  # needs scipy
        from scipy.special import betaincinv

        low = float(betaincinv(x, n - x + 1, (1 - confidence) / 2)) if x > 0 else 0.0
        high = float(betaincinv(x + 1, n - x, (1 + confidence) / 2)) if x < n else 1.0
    return ConfidenceInterval(p, max(0.0, float(low)), min(1.0, float(high)), confidence, method,
                              standard_error=se, scheme=_PROPORTION_METHODS[method])


def _sign_flips(rng, a, b, size):
    """``size`` permuted mean differences: each row's pair swapped with probability 1/2."""
    swapped = rng.random((size, len(a))) < 0.5
    return np.mean(np.where(swapped, b, a), axis=1) - np.mean(np.where(swapped, a, b), axis=1)
