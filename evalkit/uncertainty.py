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
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import classification as _clf
from . import curves as _curves
from ._counts import encode_labels, position_of
from ._sweep import _sweep_unweighted
from ._validation import (
    check_choice,
    check_confidence,
    check_integer,
    check_labels,
    check_proportion,
    check_random_state,
    check_same_length,
    check_scores,
    check_targets,
)
from .exceptions import UndefinedMetricWarning, warn_at_caller

__all__ = [
    "ConfidenceInterval",
    "Comparison",
    "bootstrap_ci",
    "paired_bootstrap",
    "permutation_test",
    "roc_auc_ci",
    "delong_test",
    "proportion_ci",
]

_NORMAL = NormalDist()
_METHODS = {"percentile": "quantiles of the resampled values",
            "bca": "bias-corrected and accelerated, Efron 1987"}
_CHUNK = 1 << 22  # about this many numbers per block of resamples


def _warn(message, category=UndefinedMetricWarning):
    """Warn at the caller's line: the first frame outside the evalkit package."""
    warn_at_caller(message, category)


def _f(x):
    return "None" if x is None else f"{x:.4g}"


# -- results ---------------------------------------------------------------------


@dataclass(frozen=True, repr=False, eq=False)
class ConfidenceInterval:
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
    def interval(self):
        """``(low, high)``."""
        return (self.low, self.high)

    @property
    def width(self):
        """``high - low``."""
        return self.high - self.low

    def __repr__(self):
        parts = [f"estimate={_f(self.estimate)}", f"low={_f(self.low)}", f"high={_f(self.high)}",
                 f"confidence={self.confidence:g}", f"method={self.method!r}"]
        if self.n_resamples is not None:
            parts += [f"n_resamples={self.n_resamples}", f"n_skipped={self.n_skipped}"]
        if self.standard_error is not None:
            parts.append(f"standard_error={_f(self.standard_error)}")
        return f"ConfidenceInterval({', '.join(parts)})"

    def __str__(self):
        how = self.method + (f", {self.n_resamples} resamples" if self.n_resamples else "")
        if self.n_skipped:
            how += f", {self.n_skipped} skipped"
        return (f"{self.estimate:.4f} ({100 * self.confidence:g} % CI {self.low:.4f} to "
                f"{self.high:.4f}; {how})")


@dataclass(frozen=True, repr=False, eq=False)
class Comparison:
    """The difference of two models on the same data: ``estimate = estimate_a - estimate_b``.

    ``[low, high]`` is its interval at level ``confidence`` (``None`` for a
    permutation test, which tests and does not estimate), ``p_value`` the
    two-sided p-value of "no difference". ``statistic`` is the test
    statistic where there is one (DeLong's z).
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

    @property
    def interval(self):
        """``(low, high)`` of the difference."""
        return (self.low, self.high)

    def __repr__(self):
        parts = [f"estimate={_f(self.estimate)}"]
        if self.low is not None:
            parts += [f"low={_f(self.low)}", f"high={_f(self.high)}",
                      f"confidence={self.confidence:g}"]
        parts += [f"p_value={_f(self.p_value)}", f"method={self.method!r}",
                  f"estimate_a={_f(self.estimate_a)}", f"estimate_b={_f(self.estimate_b)}"]
        if self.statistic is not None:
            parts.append(f"statistic={_f(self.statistic)}")
        if self.n_resamples is not None:
            parts += [f"n_resamples={self.n_resamples}", f"n_skipped={self.n_skipped}"]
        return f"Comparison({', '.join(parts)})"

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
    computes them. ``jackknife`` is ``(values, multiplicities)``.
    """
    alpha = (1 - confidence) / 2
    if method == "percentile":
        q = [alpha, 1 - alpha]
    else:
        b = len(dist)
        share = (np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)) / (2 * b)
        if share <= 0 or share >= 1:
            raise ValueError(
                "method='bca' is undefined here: every resampled value lies on one side of the "
                "estimate (the bias correction z0 is infinite); use method='percentile'")
        z0 = _NORMAL.inv_cdf(share)
        values, weights = jackknife
        weights = np.asarray(weights, dtype=np.float64)
        keep = weights > 0
        values, weights = np.asarray(values, dtype=np.float64)[keep], weights[keep]
        d = np.dot(weights, values) / weights.sum() - values
        den = float(np.dot(weights, d * d))
        a = float(np.dot(weights, d ** 3)) / (6 * den ** 1.5) if den > 0 else 0.0
        q = []
        for z in (_NORMAL.inv_cdf(alpha), -_NORMAL.inv_cdf(alpha)):
            q.append(_NORMAL.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))
    low, high = np.quantile(dist, q)
    return float(low), float(high)


# -- count engines: a resample as counts, the metric as array arithmetic ---------------

_LABEL_METRICS = {}
_SCORE_METRICS = {}


def _register():
    _LABEL_METRICS.update({
        _clf.accuracy_score: "accuracy",
        _clf.precision_score: "precision",
        _clf.recall_score: "recall",
        _clf.f1_score: "f1",
        _clf.fbeta_score: "fbeta",
        _clf.macro_f1: "macro_f1",
    })
    _SCORE_METRICS.update({
        _curves.roc_auc_score: "auc",
        _curves.average_precision_score: "ap",
    })


_register()

_LABEL_KWARGS = {
    "accuracy": {"normalize"},
    "precision": {"labels", "pos_label", "average", "zero_division"},
    "recall": {"labels", "pos_label", "average", "zero_division"},
    "f1": {"labels", "pos_label", "average", "zero_division"},
    "fbeta": {"beta", "labels", "pos_label", "average", "zero_division"},
    "macro_f1": {"definition", "labels", "zero_division"},
}


class _LabelSpec:
    """How to evaluate a label metric from per-class counts of many resamples at once.

    Built from the metric's own arguments after the metric accepted them on
    the full data. ``columns`` are the class codes scored (-1: a label not
    in the data, all its counts 0); ``present_only``: classes absent from a
    resample drop out (labels=None), as they would from the metric.
    """

    def __init__(self, kind, kwargs, classes, problem):
        self.kind = kind
        self.normalize = bool(kwargs.get("normalize", True))
        self.definition = kwargs.get("definition", "mean_of_f1")
        average = kwargs.get("average", "binary")
        if kind == "macro_f1":
            average = "macro"
        self.average = average
        zd = kwargs.get("zero_division", "warn")
        self.warn = isinstance(zd, str)
        self.zd = 0.0 if self.warn else float(zd)
        beta = float(kwargs.get("beta", 1.0))
        self.beta = beta
        self.which = {"precision": "precision", "recall": "recall"}.get(kind, "f")
        if kind == "fbeta" and beta == 0:
            self.which = "precision"
        elif kind == "fbeta" and math.isinf(beta):
            self.which = "recall"
        labels = kwargs.get("labels")
        self.present_only = False
        if kind == "accuracy":
            self.columns = None
        elif average == "binary" and problem == "binary":
            pos = position_of(kwargs.get("pos_label", 1), classes)
            self.columns = np.array([pos])
        elif labels is None:
            self.columns = np.arange(len(classes))
            self.present_only = True
        else:
            from ._counts import _select

            _, sel = _select(classes, labels)
            self.columns = sel

    def values(self, tp, pred, sup):
        """Metric values (B,) and a mask of resamples where a ratio was 0/0."""
        if self.kind == "accuracy":
            correct = tp.sum(axis=1).astype(np.float64)
            if not self.normalize:
                return correct, np.zeros(len(tp), dtype=bool)
            return correct / sup.sum(axis=1), np.zeros(len(tp), dtype=bool)
        cols = self.columns
        found = cols >= 0
        tp, pred, sup = (np.where(found, x[:, np.maximum(cols, 0)], 0).astype(np.float64)
                         for x in (tp, pred, sup))
        present = (sup + pred > 0) if self.present_only else np.ones(tp.shape, dtype=bool)
        if self.average == "micro":
            tp, pred, sup = (np.where(present, x, 0).sum(axis=1, keepdims=True)
                             for x in (tp, pred, sup))
            present = np.ones(tp.shape, dtype=bool)
        undefined = np.zeros(len(tp), dtype=bool)

        def div(num, den):
            bad = (den == 0) & present
            np.logical_or(undefined, bad.any(axis=1), out=undefined)
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(den == 0, self.zd, num / np.where(den == 0, 1.0, den))

        if self.kind == "macro_f1" and self.definition == "f1_of_means":
            p = self._average(div(tp, pred), sup, present)
            r = self._average(div(tp, sup), sup, present)
            den = p + r
            bad = den == 0
            undefined |= bad
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(bad, self.zd, 2 * p * r / np.where(bad, 1.0, den))
            return out, undefined
        if self.which == "precision":
            per = div(tp, pred)
        elif self.which == "recall":
            per = div(tp, sup)
        else:
            b2 = self.beta ** 2
            per = div((1 + b2) * tp, b2 * sup + pred)
        return self._average(per, sup, present), undefined

    def _average(self, per, sup, present):
        if per.shape[1] == 1:
            return per[:, 0]
        keep = present & ~np.isnan(per)
        n_keep = keep.sum(axis=1)
        vals = np.where(keep, per, 0.0)
        plain = vals.sum(axis=1) / np.maximum(n_keep, 1)
        if self.average == "weighted":
            w = np.where(keep, sup, 0.0)
            wsum = w.sum(axis=1)
            weighted = (vals * w).sum(axis=1) / np.where(wsum > 0, wsum, 1.0)
            plain = np.where(wsum > 0, weighted, plain)
        return np.where(n_keep > 0, plain, np.nan)


def _label_spec(metric, kwargs, y_true, preds):
    """A :class:`_LabelSpec` and the codes when ``metric`` has a count path for these kwargs."""
    kind = _LABEL_METRICS.get(metric)
    if kind is None or not set(kwargs) <= _LABEL_KWARGS[kind]:
        return None
    yt = check_labels(y_true, "y_true")
    codes = []
    classes = None
    problem = "binary"
    for i, yp in enumerate(preds):
        kind_i, yt_i, yp_i = check_targets(yt, yp)
        if kind_i == "multiclass":
            problem = "multiclass"
    both = np.concatenate([yt] + [check_labels(p, "y_pred") for p in preds])
    classes, t, _ = encode_labels(both, both)
    n = len(yt)
    codes = [t[:n]] + [t[n * (i + 1):n * (i + 2)] for i in range(len(preds))]
    if problem == "binary" and len(classes) > 2:
        problem = "multiclass"  # two predictions together may hold three labels
        if kwargs.get("average", "binary") == "binary" and kind != "accuracy" and kind != "macro_f1":
            return None  # each model alone is binary: leave it to the metric
    return _LabelSpec(kind, kwargs, classes, problem), classes, codes


def _topk_hits(kwargs, y_true, y_score, estimate):
    """``(class codes, hits)`` of :func:`~evalkit.top_k_accuracy_score`'s rows, or None.

    Each row is a hit when its true class is among its k best scores, by
    the metric's own rules (ties, labels, the binary case). The metric has
    already validated the input; if the hits do not reproduce its value
    (they always should), None sends it to the rows path.
    """
    from . import topk as _topk
    from ._validation import check_column_labels, check_score_matrix

    if not set(kwargs) <= {"k", "normalize", "labels", "ties"}:
        return None
    k, labels, ties = kwargs.get("k", 2), kwargs.get("labels"), kwargs.get("ties", "last")
    yt = check_labels(y_true, "y_true")
    scores = check_score_matrix(y_score, "y_score", allow_1d=True)
    present = np.unique(yt)
    binary = len(present) <= 2 and not (labels is not None and len(labels) > 2)
    if binary and scores.ndim == 2:
        scores = scores[:, 0]
    n_columns = scores.shape[1] if scores.ndim == 2 else 2
    classes = present if labels is None else check_column_labels(labels, n_columns)
    t = _topk._codes_in(yt, classes) if labels is not None else np.searchsorted(classes, yt)
    hits = _topk._top_k_hits(scores, t, k, ties, binary)
    normalize = kwargs.get("normalize", True)
    if (hits.mean() if normalize else float(hits.sum())) != estimate:
        return None
    return t.astype(np.int64), hits.astype(np.int64), len(classes), bool(normalize)


def _cells(codes, n_classes):
    """Distinct rows as cells: ``(cell codes, their counts, their stratum = true class)``."""
    key = codes[0].astype(np.int64)
    for c in codes[1:]:
        key = key * n_classes + c
    cells, counts = np.unique(key, return_counts=True)
    stratum = cells // n_classes ** (len(codes) - 1)
    return cells, counts, stratum


def _draw_cells(rng, counts, strata, size, stratify):
    """Multinomial resample counts of the cells, shape (size, n_cells).

    Stratified: the cells of each stratum get ``Multinomial(n_s, counts_s / n_s)``;
    otherwise all cells ``Multinomial(n, counts / n)``.
    """
    if not stratify:
        return rng.multinomial(int(counts.sum()), counts / counts.sum(), size=size)
    out = np.empty((size, len(counts)), dtype=np.int64)
    for s in np.unique(strata):
        idx = np.flatnonzero(strata == s)
        c = counts[idx]
        out[:, idx] = rng.multinomial(int(c.sum()), c / c.sum(), size=size)
    return out


def _per_class(cell_counts, t, p, n_classes):
    """tp, predicted, support per class (B, C) from counts of cells with true t and predicted p."""
    size = len(cell_counts)
    offsets = (np.arange(size) * n_classes)[:, None]

    def total(code, mask=None):
        w = cell_counts if mask is None else cell_counts * mask
        return np.bincount((offsets + code).ravel(), weights=w.ravel(),
                           minlength=size * n_classes).reshape(size, n_classes)

    return total(t, t == p), total(p), total(t)


class _ScoreEngine:
    """The AUC or AP of resampled rows from the threshold sweep's groups.

    The sweep puts the rows into groups of equal score (highest first) with
    ``P_g`` positives and ``N_g`` negatives. A resample gives new counts
    per group; then ``2U = Σ_g N_g (2 Σ_{h≤g} P_h - P_g)`` (pairs won, ties
    half; AUC = 2U / 2PN) and ``AP = Σ_g P_g TP_g / (TP_g + FP_g) / P`` with
    cumulative TP, FP -- the metrics' own formulas on the new counts.
    """

    def __init__(self, kind, positive, scores):
        self.kind = kind
        sweep = _sweep_unweighted(positive, scores)
        self.pos_g = np.diff(sweep.tps, prepend=0).astype(np.int64)
        self.neg_g = np.diff(sweep.fps, prepend=0).astype(np.int64)
        self.n_groups = len(self.pos_g)
        self.P = int(sweep.n_pos)
        self.N = int(sweep.n_neg)
        g = np.arange(self.n_groups, dtype=np.int32 if self.n_groups < 2**31 else np.int64)
        self.pos_rows = np.repeat(g, self.pos_g)  # the group of each positive
        self.neg_rows = np.repeat(g, self.neg_g)
        self.all_rows = np.repeat(np.stack([2 * g, 2 * g + 1], axis=1).ravel(),
                                  np.stack([self.neg_g, self.pos_g], axis=1).ravel())

    def draw(self, rng, size, stratify):
        """Resampled group counts ``(P_g, N_g)``, each (size, G)."""
        G = self.n_groups
        offsets = (np.arange(size, dtype=np.int64) * G)[:, None]
        if stratify:
            out = []
            for rows, m in ((self.pos_rows, self.P), (self.neg_rows, self.N)):
                idx = rows[rng.integers(0, m, size=(size, m))]
                out.append(np.bincount((idx + offsets).ravel(), minlength=size * G).reshape(size, G))
            return out[0], out[1]
        n = self.P + self.N
        idx = self.all_rows[rng.integers(0, n, size=(size, n))]
        both = np.bincount((idx + 2 * offsets).ravel(), minlength=2 * size * G).reshape(size, G, 2)
        return both[:, :, 1], both[:, :, 0]

    def stratified_auc(self, rng, size):
        """AUCs of ``size`` stratified resamples, counting only the smaller class.

        The smaller class's draws are counted per group (one bincount); the
        larger class's draws only look up what a row of their group wins
        against those counts (a gather), e.g. for a drawn negative of group g
        ``2 x wins = 2 Σ_{h≤g} P_h - P_g``. Same numbers as :meth:`values` on
        :meth:`draw`'s counts, about half the work.
        """
        G = self.n_groups
        offsets = (np.arange(size, dtype=np.int64) * G)[:, None]
        small_is_pos = self.P <= self.N
        small, m_small = (self.pos_rows, self.P) if small_is_pos else (self.neg_rows, self.N)
        large, m_large = (self.neg_rows, self.N) if small_is_pos else (self.pos_rows, self.P)
        idx = small[rng.integers(0, m_small, size=(size, m_small))]
        counts = np.bincount((idx + offsets).ravel(), minlength=size * G).reshape(size, G)
        cum = np.cumsum(counts, axis=1)
        if small_is_pos:  # what a negative of group g loses, twice
            win = 2 * cum - counts
        else:  # what a positive of group g wins, twice: negatives below and half the tied
            win = 2 * (m_small - cum) + counts
        del cum, counts
        idx = large[rng.integers(0, m_large, size=(size, m_large))]
        idx += offsets
        twice_u = win.ravel()[idx].sum(axis=1)
        return twice_u / (2.0 * self.P * self.N)

    def values(self, pos, neg):
        """Metric values (size,) and a mask of resamples where it is undefined."""
        p_tot = pos.sum(axis=1)
        n_tot = neg.sum(axis=1)
        cum_pos = np.cumsum(pos, axis=1)
        if self.kind == "auc":
            undefined = (p_tot == 0) | (n_tot == 0)
            twice_u = np.einsum("ij,ij->i", neg, 2 * cum_pos - pos)
            with np.errstate(divide="ignore", invalid="ignore"):
                return twice_u / (2.0 * p_tot * n_tot), undefined
        cum_all = cum_pos + np.cumsum(neg, axis=1)
        undefined = p_tot == 0
        with np.errstate(divide="ignore", invalid="ignore"):
            prec = np.where(cum_all > 0, cum_pos / np.where(cum_all > 0, cum_all, 1), 0.0)
            return np.einsum("ij,ij->i", pos, prec) / p_tot, undefined

    def full(self):
        return self.values(self.pos_g[None, :], self.neg_g[None, :])[0][0]

    def jackknife(self):
        """Leave-one-row-out values and their multiplicities (DeLong's components for the AUC)."""
        P, N, pos, neg = self.P, self.N, self.pos_g, self.neg_g
        if P < 2 or (N < 2 and self.kind == "auc"):
            raise ValueError("method='bca' needs at least 2 samples of each class (the "
                             "jackknife leaves one out); use method='percentile'")
        cum_pos = np.cumsum(pos)
        if self.kind == "auc":
            twice_u = float(np.dot(neg, 2 * cum_pos - pos))
            neg_below = N - np.cumsum(neg)  # negatives scored lower than group g
            win_pos = 2 * neg_below + neg  # 2 x what a positive of group g wins
            win_neg = 2 * cum_pos - pos  # 2 x what a negative of group g loses
            v_pos = (twice_u - win_pos) / (2.0 * (P - 1) * N)
            v_neg = (twice_u - win_neg) / (2.0 * P * (N - 1))
            return np.r_[v_pos, v_neg], np.r_[pos, neg]
        tp = cum_pos.astype(np.float64)
        d = tp + np.cumsum(neg)
        a = np.where(d > 0, pos * tp / np.where(d > 0, d, 1), 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            b = np.where(d > 1, pos * (tp - 1) / np.where(d > 1, d - 1, 1), 0.0)
            c = np.where(d > 1, pos * tp / np.where(d > 1, d - 1, 1), 0.0)
        pre_a = np.r_[0.0, np.cumsum(a)[:-1]]  # Σ_{g<h} a_g
        suf_b = np.cumsum(b[::-1])[::-1] - b  # Σ_{g>h} b_g
        suf_c = np.cumsum(c[::-1])[::-1]  # Σ_{g>=h} c_g
        # a positive of group h removed: TP falls by 1 from h on
        own = np.where(d > 1, (pos - 1) * (tp - 1) / np.where(d > 1, d - 1, 1), 0.0)
        v_pos = (pre_a + own + suf_b) / (P - 1)
        v_neg = (pre_a + suf_c) / P  # a negative of group h removed: FP falls by 1 from h on
        return np.r_[v_pos, v_neg], np.r_[pos, neg]


def _score_input(kind, metric, kwargs, y_true, y_score):
    """``(positive mask, scores)`` when the AUC/AP count path applies, else None."""
    if kind is None:
        return None
    allowed = {"average"} | ({"pos_label"} if kind == "ap" else {"multi_class", "max_fpr", "labels"})
    if not set(kwargs) <= allowed:
        return None
    if kind == "auc" and (kwargs.get("max_fpr") not in (None, 1) or kwargs.get("labels") is not None):
        return None
    if np.ndim(y_score) != 1:
        return None
    y = check_labels(y_true, "y_true")
    scores = check_scores(y_score)
    check_same_length(y_true=y, y_score=scores)
    classes = np.unique(y)
    if len(classes) != 2:
        return None
    positive = y == (classes[-1] if kind == "auc" else kwargs.get("pos_label", 1))
    return positive, scores


# -- the public functions -----------------------------------------------------------


def _as_arrays(arrays):
    out = []
    for i, a in enumerate(arrays):
        if a is None:
            out.append(None)
            continue
        arr = np.asarray(a)
        if arr.ndim == 0:
            raise TypeError(f"array {i} must be an array-like with one entry per sample, "
                            f"got the scalar {a!r}")
        out.append(arr)
    lengths = {len(a) for a in out if a is not None}
    if len(lengths) > 1:
        raise ValueError(f"the arrays have different lengths ({sorted(lengths)}): give one "
                         "entry per sample in each")
    if lengths == {0}:
        raise ValueError("the arrays are empty: at least one sample is needed")
    return out


def _strata(stratify, first, n):
    """Row strata as integer codes (or None), and the scheme's words."""
    if isinstance(stratify, (bool, np.bool_)):
        if not stratify or first is None or first.ndim != 1:
            return None, "rows resampled with replacement (not stratified)"
        if first.dtype.kind in "biuUS" or (first.dtype.kind == "O"
                                         and all(isinstance(v, str) for v in first[:100])):
            _, codes = np.unique(first, return_inverse=True)
            return codes.reshape(-1), "rows resampled within each class of y_true (stratified)"
        return None, "rows resampled with replacement (not stratified: y_true holds no class labels)"
    arr = np.asarray(stratify)
    if arr.ndim != 1 or len(arr) != n:
        raise ValueError(f"stratify must be True, False or one stratum per sample ({n} values); "
                         f"got an array of shape {arr.shape}")
    _, codes = np.unique(arr, return_inverse=True)
    return codes.reshape(-1), "rows resampled within each given stratum"


def _row_indices(rng, size, n, strata):
    """Resample row indices (size, n): stratified keeps every stratum's size."""
    if strata is None:
        return rng.integers(0, n, size=(size, n))
    parts = []
    for s in range(strata.max() + 1):
        rows = np.flatnonzero(strata == s)
        parts.append(rows[rng.integers(0, len(rows), size=(size, len(rows)))])
    return np.concatenate(parts, axis=1)


def _scalar(value, what="metric"):
    arr = np.asarray(value)
    if arr.ndim != 0 or arr.dtype.kind not in "biuf":
        raise TypeError(f"{what} must return a single number, got {type(value).__name__} "
                        f"{value!r:.60}: pick one value (e.g. average='macro')")
    return float(arr)


def _call_rows(metrics, k, arrays, kwargs, idx_chunks, weight_key):
    """Evaluate the k metric calls ``metrics(args)`` gives on each resample of rows.

    Returns (values (k, B), skipped mask (B,), the first error's message).
    """
    values = [[] for _ in range(k)]
    skipped = []
    first = None
    for idx in idx_chunks:
        for row in idx:
            args = [None if a is None else a[row] for a in arrays]
            kw = dict(kwargs)
            if weight_key is not None:
                kw["sample_weight"] = np.asarray(kwargs["sample_weight"])[row]
            bad = False
            outs = []
            for metric, args_m in metrics(args):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        v = _scalar(metric(*args_m, **kw))
                except ValueError as exc:
                    first = first or str(exc)
                    v = np.nan
                if np.isnan(v):
                    bad = True
                outs.append(v)
            for lst, v in zip(values, outs):
                lst.append(v)
            skipped.append(bad)
    return np.array(values, dtype=np.float64), np.array(skipped, dtype=bool), first


def _report_skipped(n_skipped, n, reason):
    if n_skipped == n:
        raise ValueError(f"the metric is undefined on every one of the {n} resamples ({reason}): "
                         "no interval can be computed")
    if n_skipped:
        _warn(f"{n_skipped} of {n} resamples were skipped: the metric is undefined on them "
              f"({reason}); the interval uses the other {n - n_skipped} (see n_skipped)")


def _report_undefined(n_undefined, n, spec):
    if n_undefined and spec.warn:
        _warn(f"the metric is ill-defined (0/0) on {n_undefined} of {n} resamples and was set "
              "to 0.0 there (zero_division='warn'); pass zero_division=nan to skip them instead")


def _check_common(n_resamples, confidence, method, random_state):
    n_resamples = check_integer(n_resamples, "n_resamples", minimum=1,
                                meaning="the number of bootstrap resamples")
    confidence = check_confidence(confidence)
    method = check_choice(method, _METHODS, "method")
    return n_resamples, confidence, method, check_random_state(random_state)


def _chunks(total, per):
    size = max(1, min(total, _CHUNK // max(per, 1)))
    for start in range(0, total, size):
        yield min(size, total - start)


def _estimate(metric, arrays, kwargs):
    args = [a for a in arrays if a is not None]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = _scalar(metric(*args, **kwargs))
    for w in caught:  # the metric's own warnings, moved to the caller's line
        _warn(str(w.message), w.category)
    if np.isnan(value):
        raise ValueError("metric is undefined (nan) on the data itself: there is nothing to put "
                         "an interval around (e.g. the AUC with one class present)")
    return value


def _generic_jackknife(evaluate, n):
    """Leave-one-out values; above 2000 rows, 2000 leave-a-group-out values (rows i mod 2000)."""
    groups = min(n, 2000)
    vals = []
    rows = np.arange(n)
    for g in range(groups):
        vals.append(evaluate(rows[rows % groups != g]))
    vals = np.array(vals, dtype=np.float64)
    keep = ~np.isnan(vals)
    return vals[keep], np.ones(int(keep.sum()))


def bootstrap_ci(metric, *arrays, n_resamples=2000, confidence=0.95, method="percentile",
                 stratify=True, random_state=None, **metric_kwargs):
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
    n_resamples, confidence, method, rng = _check_common(n_resamples, confidence, method,
                                                         random_state)
    if not callable(metric):
        raise TypeError(f"metric must be a callable such as evalkit.f1_score, got {metric!r}")
    if len(arrays) == 0:
        raise TypeError("bootstrap_ci needs the metric's arrays, e.g. "
                        "bootstrap_ci(ek.f1_score, y_true, y_pred)")
    arrays = _as_arrays(arrays)
    n = len(arrays[0])
    estimate = _estimate(metric, arrays, metric_kwargs)
    strat_flag = stratify if isinstance(stratify, (bool, np.bool_)) else None
    # the count paths
    if strat_flag is not None and len(arrays) == 2:
        found = _label_spec(metric, metric_kwargs, arrays[0], [arrays[1]])
        if found is not None:
            spec, classes, (t, p) = found
            return _bootstrap_labels(spec, len(classes), t, p, estimate, n_resamples, confidence,
                                     method, bool(strat_flag), rng)
        if metric is _topk_accuracy():
            found = _topk_hits(metric_kwargs, arrays[0], arrays[1], estimate)
            if found is not None:
                return _bootstrap_hits(*found, estimate, n_resamples, confidence, method,
                                       bool(strat_flag), rng)
        score_in = _score_input(_SCORE_METRICS.get(metric), metric, metric_kwargs, *arrays)
        if score_in is not None:
            engine = _ScoreEngine(_SCORE_METRICS[metric], *score_in)
            return _bootstrap_scores(engine, estimate, n_resamples, confidence, method,
                                     bool(strat_flag), rng)
    # resampled rows
    strata, scheme = _strata(stratify, arrays[0], n)
    weight_key = "sample_weight" if metric_kwargs.get("sample_weight") is not None else None
    if metric is np.mean and len(arrays) == 1 and not metric_kwargs:
        values = arrays[0].astype(np.float64)
        dist = np.concatenate([values[_row_indices(rng, size, n, strata)].mean(axis=1)
                               for size in _chunks(n_resamples, n)])
        skipped = np.zeros(n_resamples, dtype=bool)
        first = None
    else:
        chunks = (_row_indices(rng, size, n, strata) for size in _chunks(n_resamples, n))
        vals, skipped, first = _call_rows(lambda args: [(metric, [a for a in args if a is not None])],
                                          1, arrays, metric_kwargs, chunks, weight_key)
        dist = vals[0]
    n_skipped = int(skipped.sum())
    _report_skipped(n_skipped, n_resamples, first or "nan")
    dist = dist[~skipped]
    jack = None
    if method == "bca":
        def evaluate(rows):
            kw = dict(metric_kwargs)
            if weight_key:
                kw["sample_weight"] = np.asarray(metric_kwargs["sample_weight"])[rows]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return _scalar(metric(*[a[rows] for a in arrays if a is not None], **kw))
            except ValueError:
                return np.nan
        jack = _generic_jackknife(evaluate, n)
    low, high = _interval(dist, estimate, jack, confidence, method)
    return ConfidenceInterval(estimate, low, high, confidence, method, n_resamples, n_skipped,
                              "rows: " + scheme, None, dist)


def _topk_accuracy():
    from .topk import top_k_accuracy_score

    return top_k_accuracy_score


def _bootstrap_hits(t, hits, n_classes, normalize, estimate, n_resamples, confidence, method,
                    stratify, rng):
    """Top-k accuracy of resamples: multinomial counts of the (class, hit) cells."""
    cells, counts, strata = _cells([t, hits], 2)
    strata = cells // 2
    hit = cells % 2
    n = counts.sum()
    dist = []
    for size in _chunks(n_resamples, len(cells)):
        drawn = _draw_cells(rng, counts, strata, size, stratify)
        correct = drawn @ hit
        dist.append(correct / n if normalize else correct.astype(np.float64))
    dist = np.concatenate(dist)
    jack = None
    if method == "bca":
        left = (np.dot(counts, hit) - hit) / ((n - 1) if normalize else 1.0)
        jack = (left, counts)
    low, high = _interval(dist, estimate, jack, confidence, method)
    scheme = ("cell counts: (class, hit) multinomial per class of y_true (stratified)" if stratify
              else "cell counts: (class, hit) multinomial over all cells (not stratified)")
    return ConfidenceInterval(estimate, low, high, confidence, method, n_resamples, 0, scheme,
                              None, dist)


def _label_scheme(stratify):
    return ("cell counts: multinomial per class of y_true (stratified)" if stratify
            else "cell counts: multinomial over all cells (not stratified)")


def _bootstrap_labels(spec, n_classes, t, p, estimate, n_resamples, confidence, method, stratify,
                      rng):
    cells, counts, strata = _cells([t, p], n_classes)
    ct, cp = cells // n_classes, cells % n_classes
    dist, undefined = [], []
    for size in _chunks(n_resamples, len(cells) + 3 * n_classes):
        drawn = _draw_cells(rng, counts, strata, size, stratify)
        v, u = spec.values(*_per_class(drawn, ct, cp, n_classes))
        dist.append(v)
        undefined.append(u)
    dist, undefined = np.concatenate(dist), np.concatenate(undefined)
    skipped = np.isnan(dist)
    n_skipped = int(skipped.sum())
    _report_skipped(n_skipped, n_resamples, "0/0 with zero_division=nan")
    _report_undefined(int((undefined & ~skipped).sum()), n_resamples, spec)
    dist = dist[~skipped]
    jack = None
    if method == "bca":
        jack = _label_jackknife(spec, counts, ct, cp, n_classes)
    low, high = _interval(dist, estimate, jack, confidence, method)
    return ConfidenceInterval(estimate, low, high, confidence, method, n_resamples, n_skipped,
                              _label_scheme(stratify), None, dist)


def _label_jackknife(spec, counts, ct, cp, n_classes):
    """The metric with one row of each cell left out (multiplicity: the cell's count)."""
    k = len(counts)
    left = np.broadcast_to(counts, (k, k)) - np.eye(k, dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v, _ = spec.values(*_per_class(left, ct, cp, n_classes))
    keep = ~np.isnan(v)
    return v[keep], counts[keep]


def _bootstrap_scores(engine, estimate, n_resamples, confidence, method, stratify, rng):
    dist, undefined = [], []
    for size in _chunks(n_resamples, 3 * (engine.P + engine.N)):
        if stratify and engine.kind == "auc":  # both classes in every resample
            v = engine.stratified_auc(rng, size)
            dist.append(v)
            undefined.append(np.zeros(size, dtype=bool))
            continue
        v, u = engine.values(*engine.draw(rng, size, stratify))
        dist.append(v)
        undefined.append(u)
    dist, undefined = np.concatenate(dist), np.concatenate(undefined)
    n_skipped = int(undefined.sum())
    _report_skipped(n_skipped, n_resamples, "a resample with one class only")
    dist = dist[~undefined]
    jack = engine.jackknife() if method == "bca" else None
    low, high = _interval(dist, estimate, jack, confidence, method)
    scheme = ("sweep counts: positives and negatives resampled apart (stratified)" if stratify
              else "sweep counts: all rows resampled together (not stratified)")
    return ConfidenceInterval(estimate, low, high, confidence, method, n_resamples, n_skipped,
                              scheme, None, dist)


def _p_bootstrap(diffs, estimate):
    """Two-sided bootstrap p-value of "no difference": the shifted distribution's tail.

    ``p = (1 + #{|d*_b - d̂| >= |d̂|}) / (B + 1)``: how often a resampled
    difference, centred on 0, is at least as far from 0 as the observed one.
    """
    extreme = np.count_nonzero(np.abs(diffs - estimate) >= abs(estimate) - 1e-12 * abs(estimate))
    return (1 + extreme) / (len(diffs) + 1)


def paired_bootstrap(metric, y_true, pred_a, pred_b, *, n_resamples=2000, confidence=0.95,
                     method="percentile", stratify=True, random_state=None, **metric_kwargs):
    """The difference ``metric(y_true, pred_a) - metric(y_true, pred_b)`` on the same rows, with its interval.

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
    n_resamples, confidence, method, rng = _check_common(n_resamples, confidence, method,
                                                         random_state)
    if not callable(metric):
        raise TypeError(f"metric must be a callable such as evalkit.f1_score, got {metric!r}")
    arrays = _as_arrays([y_true, pred_a, pred_b])
    n = len(arrays[1])
    est_a = _estimate(metric, [arrays[0], arrays[1]], metric_kwargs)
    est_b = _estimate(metric, [arrays[0], arrays[2]], metric_kwargs)
    estimate = est_a - est_b
    strat_flag = stratify if isinstance(stratify, (bool, np.bool_)) else None
    dist = None
    if strat_flag is not None and y_true is not None:
        found = _label_spec(metric, metric_kwargs, arrays[0], [arrays[1], arrays[2]])
        if found is not None:
            spec, classes, (t, pa, pb) = found
            c = len(classes)
            cells, counts, strata = _cells([t, pa, pb], c)
            ct, ca, cb = cells // (c * c), (cells // c) % c, cells % c
            dist, und = [], []
            for size in _chunks(n_resamples, len(cells) + 6 * c):
                drawn = _draw_cells(rng, counts, strata, size, bool(strat_flag))
                va, ua = spec.values(*_per_class(drawn, ct, ca, c))
                vb, ub = spec.values(*_per_class(drawn, ct, cb, c))
                dist.append(va - vb)
                und.append(ua | ub)
            dist, und = np.concatenate(dist), np.concatenate(und)
            skipped = np.isnan(dist)
            _report_undefined(int((und & ~skipped).sum()), n_resamples, spec)
            scheme = _label_scheme(bool(strat_flag)).replace("cells", "cells (actual, a, b)")
            if method == "bca":
                def jack():
                    k = len(counts)
                    left = np.broadcast_to(counts, (k, k)) - np.eye(k, dtype=np.int64)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        va, _ = spec.values(*_per_class(left, ct, ca, c))
                        vb, _ = spec.values(*_per_class(left, ct, cb, c))
                    v = va - vb
                    keep = ~np.isnan(v)
                    return v[keep], counts[keep]
            reason = "0/0 with zero_division=nan"
        elif _SCORE_METRICS.get(metric) is not None:
            ins = [_score_input(_SCORE_METRICS[metric], metric, metric_kwargs, arrays[0], s)
                   for s in (arrays[1], arrays[2])]
            if ins[0] is not None and ins[1] is not None:
                dist, skipped, scheme, jack = _paired_scores(
                    _SCORE_METRICS[metric], ins[0][0], ins[0][1], ins[1][1], n_resamples,
                    bool(strat_flag), rng)
                reason = "a resample with one class only"
    if dist is None:
        strata, scheme = _strata(stratify, arrays[0], n)
        scheme = "rows: " + scheme
        weight_key = "sample_weight" if metric_kwargs.get("sample_weight") is not None else None
        if metric is np.mean and y_true is None and not metric_kwargs:
            diff = arrays[1].astype(np.float64) - arrays[2].astype(np.float64)
            dist = np.concatenate([diff[_row_indices(rng, size, n, strata)].mean(axis=1)
                                   for size in _chunks(n_resamples, n)])
            skipped = np.zeros(n_resamples, dtype=bool)
            reason = "nan"

            def jack():
                return _generic_jackknife(lambda rows: float(diff[rows].mean()), n)
        else:
            def pair(args):
                first = [] if args[0] is None else [args[0]]
                return [(metric, first + [args[1]]), (metric, first + [args[2]])]
            chunks = (_row_indices(rng, size, n, strata) for size in _chunks(n_resamples, n))
            vals, skipped, first = _call_rows(pair, 2, arrays, metric_kwargs, chunks, weight_key)
            dist = vals[0] - vals[1]
            reason = first or "nan"

            def jack():
                def evaluate(rows):
                    kw = dict(metric_kwargs)
                    if weight_key:
                        kw["sample_weight"] = np.asarray(metric_kwargs["sample_weight"])[rows]
                    head = [] if arrays[0] is None else [arrays[0][rows]]
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            return (_scalar(metric(*head, arrays[1][rows], **kw))
                                    - _scalar(metric(*head, arrays[2][rows], **kw)))
                    except ValueError:
                        return np.nan
                return _generic_jackknife(evaluate, n)
    n_skipped = int(skipped.sum())
    _report_skipped(n_skipped, n_resamples, reason)
    dist = dist[~skipped]
    low, high = _interval(dist, estimate, jack() if method == "bca" else None, confidence, method)
    return Comparison(estimate, low, high, _p_bootstrap(dist, estimate), confidence,
                      f"paired bootstrap ({method})", est_a, est_b, n_resamples, n_skipped, scheme,
                      None, dist)


def _paired_scores(kind, positive, score_a, score_b, n_resamples, stratify, rng):
    """Resample rows once, score both models' sweeps: differences, skipped, scheme, jackknife."""
    rows = np.arange(len(positive))
    eng = [_ScoreEngine(kind, positive, s) for s in (score_a, score_b)]
    # each row's group in each model's sweep (groups are distinct scores, highest first)
    group = []
    for s, e in zip((score_a, score_b), eng):
        distinct = np.unique(s)[::-1]
        group.append(len(distinct) - 1 - np.searchsorted(distinct[::-1], s))
    pos_rows, neg_rows = rows[positive], rows[~positive]
    dist, und = [], []
    n = len(rows)
    for size in _chunks(n_resamples, 4 * n):
        if stratify:
            idx = np.concatenate([pos_rows[rng.integers(0, len(pos_rows), (size, len(pos_rows)))],
                                  neg_rows[rng.integers(0, len(neg_rows), (size, len(neg_rows)))]],
                                 axis=1)
        else:
            idx = rng.integers(0, n, (size, n))
        lab = positive[idx]
        out = []
        for g, e in zip(group, eng):
            G = e.n_groups
            code = (g[idx] * 2 + lab) + (np.arange(size, dtype=np.int64) * 2 * G)[:, None]
            both = np.bincount(code.ravel(), minlength=2 * size * G).reshape(size, G, 2)
            out.append(e.values(both[:, :, 1], both[:, :, 0]))
        dist.append(out[0][0] - out[1][0])
        und.append(out[0][1] | out[1][1])
    dist, und = np.concatenate(dist), np.concatenate(und)
    scheme = ("sweep counts: positives and negatives resampled apart (stratified)" if stratify
              else "sweep counts: all rows resampled together (not stratified)")

    def jack():
        # leave-one-out per row: each row's group gives its value in each model
        out = []
        for e, g in zip(eng, group):
            v, _ = e.jackknife()
            G = e.n_groups
            out.append(np.where(positive, v[:G][g], v[G:][g]))
        return out[0] - out[1], np.ones(n)
    return dist, und, scheme, jack


def permutation_test(metric, y_true, pred_a, pred_b, *, n_permutations=2000, random_state=None,
                     **metric_kwargs):
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
    n_permutations = check_integer(n_permutations, "n_permutations", minimum=1,
                                   meaning="the number of random permutations")
    rng = check_random_state(random_state)
    if not callable(metric):
        raise TypeError(f"metric must be a callable such as evalkit.f1_score, got {metric!r}")
    arrays = _as_arrays([y_true, pred_a, pred_b])
    n = len(arrays[1])
    est_a = _estimate(metric, [arrays[0], arrays[1]], metric_kwargs)
    est_b = _estimate(metric, [arrays[0], arrays[2]], metric_kwargs)
    estimate = est_a - est_b
    found = None
    if y_true is not None:
        found = _label_spec(metric, metric_kwargs, arrays[0], [arrays[1], arrays[2]])
    if found is not None:
        spec, classes, (t, pa, pb) = found
        c = len(classes)
        cells, counts, _ = _cells([t, pa, pb], c)
        ct, ca, cb = cells // (c * c), (cells // c) % c, cells % c
        dist = []
        for size in _chunks(n_permutations, 2 * len(cells) + 6 * c):
            swapped = rng.binomial(counts, 0.5, size=(size, len(counts)))
            kept = counts - swapped
            # a' takes a's prediction on kept rows and b's on swapped rows; b' the reverse
            both = np.concatenate([kept, swapped], axis=1)
            tt = np.r_[ct, ct]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                va, _ = spec.values(*_per_class(both, tt, np.r_[ca, cb], c))
                vb, _ = spec.values(*_per_class(both, tt, np.r_[cb, ca], c))
            dist.append(va - vb)
        dist = np.concatenate(dist)
        scheme = "swap counts: Binomial(count, 1/2) per (actual, a, b) cell"
    elif metric is np.mean and y_true is None and not metric_kwargs:
        diff = arrays[1].astype(np.float64) - arrays[2].astype(np.float64)
        dist = np.concatenate([
            np.where(rng.random((size, n)) < 0.5, -diff, diff).mean(axis=1)
            for size in _chunks(n_permutations, n)])
        scheme = "sign flips of the per-unit differences"
    else:
        dist = np.empty(n_permutations)
        a, b = arrays[1], arrays[2]
        head = [] if arrays[0] is None else [arrays[0]]
        for i in range(n_permutations):
            swap = rng.random(n) < 0.5
            if a.ndim > 1:
                sw = swap.reshape((-1,) + (1,) * (a.ndim - 1))
            else:
                sw = swap
            a2, b2 = np.where(sw, b, a), np.where(sw, a, b)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    dist[i] = (_scalar(metric(*head, a2, **metric_kwargs))
                               - _scalar(metric(*head, b2, **metric_kwargs)))
                except ValueError:
                    dist[i] = np.nan
        scheme = "rows: each row's pair swapped with probability 1/2"
    skipped = np.isnan(dist)
    n_skipped = int(skipped.sum())
    _report_skipped(n_skipped, n_permutations, "nan")
    dist = dist[~skipped]
    tol = 1e-12 * max(1.0, abs(estimate))
    p = (1 + np.count_nonzero(np.abs(dist) >= abs(estimate) - tol)) / (len(dist) + 1)
    return Comparison(estimate, None, None, float(p), None, "permutation", est_a, est_b,
                      n_permutations, n_skipped, scheme, None, dist)


# -- the AUC: DeLong ------------------------------------------------------------


def _auc_input(y_true, y_score, name="y_score"):
    """Binary labels (the larger one positive, as roc_auc_score) and 1-D scores."""
    y = check_labels(y_true, "y_true")
    scores = check_scores(y_score, name)
    check_same_length(**{"y_true": y, name: scores})
    if y.dtype.kind in "biuf":  # two passes, no sort
        lo, hi = y.min(), y.max()
        positive = y == hi
        n_pos = int(np.count_nonzero(positive))
        n_classes = 1 if lo == hi else (2 if n_pos + np.count_nonzero(y == lo) == len(y) else 3)
    else:
        classes = np.unique(y)
        n_classes = len(classes)
        positive = y == classes[-1]
    if n_classes != 2:
        what = "one class" if n_classes < 2 else "more than 2 classes"
        raise ValueError(f"y_true has {what}: the AUC's interval needs binary y_true with both "
                         "classes present (the larger label is positive)")
    return positive, scores


def _delong_groups(positive, scores):
    """DeLong's structural components per score group, from one sweep (Sun & Xu 2014).

    Returns ``(auc, v10, pos_g, v01, neg_g)``: a positive of group g has
    component ``v10_g = (negatives below + ties / 2) / N`` (``pos_g`` of
    them), a negative ``v01_g = (positives above + ties / 2) / P``; their
    means are the AUC. One sort (the sweep's), then linear passes.
    """
    sweep = _sweep_unweighted(positive, scores)
    tps = np.asarray(sweep.tps, dtype=np.int64)
    fps = np.asarray(sweep.fps, dtype=np.int64)
    P, N = int(sweep.n_pos), int(sweep.n_neg)
    pos_g = np.diff(tps, prepend=0)
    neg_g = np.diff(fps, prepend=0)
    v10 = (2 * (N - fps) + neg_g) / (2.0 * N)
    v01 = (2 * tps - pos_g) / (2.0 * P)
    auc = float(np.dot(pos_g, v10)) / P
    return auc, v10, pos_g, v01, neg_g


_ONE = np.uint64(1)


def _delong_sorted(positive, scores):
    """``(auc, variance)`` from one sort of label-carrying keys (Sun & Xu 2014); None if too wide.

    A non-negative float's bits sort like the float (other scores are
    mapped to order-keeping keys first); shifted left by one, the free
    lowest bit holds the label, so one ``np.sort`` orders the samples and
    keeps their labels -- no argsort. Then per group of equal scores (in
    ascending order) with ``p_g`` positives and ``n_g`` negatives and
    cumulative counts ``cp_g``, ``cn_g`` through the group: a positive's
    component is ``(2 cn_g - n_g) / 2N`` (negatives below, ties half), a
    negative's ``(2 (P - cp_g) + p_g) / 2P`` (positives above, ties half).
    ``None`` when the scores are not exact as float64 or the keys span 2**63
    or more (the sweep's argsort path then). The keys are the AUC's own
    (:func:`evalkit.curves._sorted_label_keys`).
    """
    keys = _curves._sorted_label_keys(positive, scores)
    if keys is None:
        return None
    n = len(keys)
    distinct = _delong_blocks(keys)
    if distinct is not None:
        return distinct
    is_pos = (keys & _ONE).astype(bool)
    keys >>= _ONE
    equal = keys[:-1] == keys[1:]  # equal[i]: samples i and i + 1 tie
    del keys
    n_tied = int(np.count_nonzero(equal))
    if 4 * (n - n_tied) < n:  # few distinct scores: work per group
        return _delong_per_group(is_pos, equal)
    # twice each component times N (positives) or P (negatives), as if no score tied: the
    # j-th positive (from 0) at position i has i - j negatives below it; the j-th negative
    # at position i has i - j positives below it, so P - (i - j) above
    twice_a = np.flatnonzero(is_pos)
    P = len(twice_a)
    N = n - P
    pos_at = twice_a.copy() if equal.any() else None
    twice_a -= np.arange(P)
    twice_a *= 2
    np.logical_not(is_pos, out=is_pos)
    twice_b = np.flatnonzero(is_pos)
    twice_b -= np.arange(N)
    np.subtract(P, twice_b, out=twice_b)
    twice_b *= 2
    if pos_at is not None:  # each group of tied scores: the same component, ties half
        step = np.diff(equal.view(np.int8), prepend=np.int8(0), append=np.int8(0))
        first = np.flatnonzero(step == 1)  # first sample of each tied group
        stop = np.flatnonzero(step == -1) + 1  # one past its last
        pos_before = np.searchsorted(pos_at, first)
        pos_through = np.searchsorted(pos_at, stop)
        neg_before, neg_through = first - pos_before, stop - pos_through
        p_t, n_t = pos_through - pos_before, neg_through - neg_before
        twice_a[_ranges(pos_before, p_t)] = np.repeat(2 * neg_before + n_t, p_t)
        twice_b[_ranges(neg_before, n_t)] = np.repeat(2 * (P - pos_through) + p_t, n_t)
    a, b = twice_a.astype(np.float64), twice_b.astype(np.float64)
    auc = float(a.sum()) / (2.0 * P * N)
    a -= 2 * auc * N
    b -= 2 * auc * P
    s10 = float(np.einsum("i,i->", a, a)) / (4.0 * N * N * (P - 1)) if P > 1 else 0.0
    s01 = float(np.einsum("i,i->", b, b)) / (4.0 * P * P * (N - 1)) if N > 1 else 0.0
    return auc, s10 / P + s01 / N


_BLOCK = 1 << 15  # elements per block: a block's temporaries stay in the CPU cache


def _delong_blocks(keys):
    """``(auc, variance)`` of sorted label-carrying keys with distinct scores, block by block.

    The j-th positive (from 0) at position i has ``i - j`` negatives below
    it; the j-th negative at i has ``P - (i - j)`` positives above it. Sums
    and sums of squares are gathered per cache-sized block (one read of
    the keys); None as soon as two scores tie (the caller handles ties).
    """
    n = len(keys)
    lab = np.empty(min(n, _BLOCK), dtype=np.uint64)
    sa = sa2 = sb = sb2 = 0.0  # sums over positives of (i - j), over negatives of (i - j)
    j_pos = 0
    previous = None
    for start in range(0, n, _BLOCK):
        block = keys[start:start + _BLOCK]
        m = len(block)
        score = block >> _ONE
        if np.count_nonzero(score[1:] == score[:-1]) or (previous is not None
                                                            and int(score[0]) == previous):
            return None
        previous = int(score[-1])
        np.bitwise_and(block, _ONE, out=lab[:m])
        is_pos = lab[:m].astype(bool)
        pos = np.flatnonzero(is_pos)
        below = (pos + (start - j_pos)) - np.arange(len(pos))  # negatives below each positive
        neg = np.flatnonzero(~is_pos)
        j_neg = start - j_pos
        before = (neg + (start - j_neg)) - np.arange(len(neg))  # positives below each negative
        below = below.astype(np.float64)
        before = before.astype(np.float64)
        sa += float(below.sum())  # einsum, not np.dot: no BLAS threads woken per block
        sa2 += float(np.einsum("i,i->", below, below))
        sb += float(before.sum())
        sb2 += float(np.einsum("i,i->", before, before))
        j_pos += len(pos)
    P, N = j_pos, n - j_pos
    auc = sa / (P * N)
    # negatives' components: (P - before) / P; their variance is before's
    s10 = (sa2 - sa * sa / P) / (P - 1) / (N * N) if P > 1 else 0.0
    s01 = (sb2 - sb * sb / N) / (N - 1) / (P * P) if N > 1 else 0.0
    return auc, max(s10, 0.0) / P + max(s01, 0.0) / N


def _delong_per_group(is_pos, equal):
    """``(auc, variance)`` per group of tied scores (few groups): counts at the group ends."""
    last = np.empty(len(is_pos), dtype=bool)  # the last sample of each group
    last[-1] = True
    np.logical_not(equal, out=last[:-1])
    ends = np.flatnonzero(last)
    cpe = np.cumsum(is_pos, dtype=np.int64)[ends]  # positives through each group
    cne = ends + 1
    cne -= cpe  # negatives through each group
    P, N = int(cpe[-1]), int(cne[-1])
    p_g = np.diff(cpe, prepend=np.int64(0))
    n_g = np.diff(cne, prepend=np.int64(0))
    a = (2 * cne - n_g).astype(np.float64)  # twice a positive's component, times N
    b = (2 * (P - cpe) + p_g).astype(np.float64)  # twice a negative's, times P
    auc = float(np.einsum("i,i->", p_g, a)) / (2.0 * P * N)
    a -= 2 * auc * N
    b -= 2 * auc * P
    s10 = float(np.einsum("i,i,i->", p_g, a, a)) / (4.0 * N * N * (P - 1)) if P > 1 else 0.0
    s01 = float(np.einsum("i,i,i->", n_g, b, b)) / (4.0 * P * P * (N - 1)) if N > 1 else 0.0
    return auc, s10 / P + s01 / N


def _ranges(starts, lengths):
    """``concatenate([arange(s, s + m) for s, m in zip(starts, lengths)])``, vectorized."""
    total = int(lengths.sum())
    offsets = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return np.arange(total) + offsets


def _delong_var(auc, v10, pos_g, v01, neg_g):
    P, N = int(pos_g.sum()), int(neg_g.sum())
    s10 = float(np.dot(pos_g, (v10 - auc) ** 2)) / (P - 1) if P > 1 else 0.0
    s01 = float(np.dot(neg_g, (v01 - auc) ** 2)) / (N - 1) if N > 1 else 0.0
    return s10 / P + s01 / N


def roc_auc_ci(y_true, y_score, *, confidence=0.95, method="delong", n_resamples=2000,
               stratify=True, random_state=None):
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
    method = check_choice(method, {"delong": "DeLong's variance",
                                   "bootstrap": "percentile bootstrap"}, "method")
    confidence = check_confidence(confidence)
    if method == "bootstrap":
        positive, scores = _auc_input(y_true, y_score)
        return bootstrap_ci(_curves.roc_auc_score, positive.astype(np.int64), scores,
                            n_resamples=n_resamples, confidence=confidence, stratify=stratify,
                            random_state=random_state)
    positive, scores = _auc_input(y_true, y_score)
    if not isinstance(stratify, (bool, np.bool_)):  # refused here too, though DeLong needs none
        _strata(stratify, positive, len(positive))
    fast = _delong_sorted(positive, scores)
    if fast is None:  # keys too wide: components per score group from the sweep's argsort
        groups = _delong_groups(positive, scores)
        fast = groups[0], _delong_var(*groups)
    auc, var = fast
    se = math.sqrt(max(var, 0.0))
    z = -_NORMAL.inv_cdf((1 - confidence) / 2)
    return ConfidenceInterval(auc, max(0.0, auc - z * se), min(1.0, auc + z * se), confidence,
                              "delong", standard_error=se,
                              scheme="DeLong et al. 1988 variance, Sun & Xu 2014 algorithm")


def _components(positive, scores):
    """Each sample's DeLong component: ``(v10 of each positive, v01 of each negative)``."""
    s_pos, s_neg = scores[positive], scores[~positive]
    neg_sorted, pos_sorted = np.sort(s_neg), np.sort(s_pos)
    below = (np.searchsorted(neg_sorted, s_pos, "left")
             + np.searchsorted(neg_sorted, s_pos, "right")) / (2.0 * len(s_neg))
    above = 1.0 - (np.searchsorted(pos_sorted, s_neg, "left")
                   + np.searchsorted(pos_sorted, s_neg, "right")) / (2.0 * len(s_pos))
    return below, above


def delong_test(y_true, score_a, score_b, *, confidence=0.95):
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
    confidence = check_confidence(confidence)
    positive, sa = _auc_input(y_true, score_a, "score_a")
    sb = check_scores(score_b, "score_b")
    check_same_length(y_true=positive, score_b=sb)
    P, N = int(positive.sum()), int((~positive).sum())
    if P < 2 or N < 2:
        raise ValueError(f"y_true has {min(P, N)} sample(s) of one class: DeLong's variance needs "
                         "at least 2 of each")
    va10, va01 = _components(positive, sa)
    vb10, vb01 = _components(positive, sb)
    auc_a, auc_b = float(va10.mean()), float(vb10.mean())
    s10 = np.cov(np.vstack([va10, vb10]))
    s01 = np.cov(np.vstack([va01, vb01]))
    cov = s10 / P + s01 / N
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    diff = auc_a - auc_b
    if var <= 1e-300:
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
        p = 1.0 if diff == 0 else 0.0
        se = 0.0
    else:
        se = math.sqrt(var)
        z = diff / se
        p = 2 * (1 - _NORMAL.cdf(abs(z)))
    q = -_NORMAL.inv_cdf((1 - confidence) / 2)
    return Comparison(diff, max(-1.0, diff - q * se), min(1.0, diff + q * se), float(p),
                      confidence, "delong", auc_a, auc_b, statistic=float(z),
                      scheme="DeLong et al. 1988 paired components")


# -- proportions -------------------------------------------------------------------

_PROPORTION_METHODS = {
    "wilson": "Wilson score interval, 1927",
    "clopper-pearson": "exact, from the binomial tails, 1934",
    "normal": "Wald, p ± z·sqrt(p(1-p)/n), clipped to [0, 1]",
}


def proportion_ci(successes, trials, *, confidence=0.95, method="wilson"):
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
    x, n = check_proportion(successes, trials)
    confidence = check_confidence(confidence)
    method = check_choice(method, _PROPORTION_METHODS, "method")
    alpha = 1 - confidence
    z = -_NORMAL.inv_cdf(alpha / 2)
    p = x / n
    se = None
    if method == "wilson":
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = centre - half, centre + half
    elif method == "normal":
        se = math.sqrt(p * (1 - p) / n)
        low, high = p - z * se, p + z * se
    else:
        try:
            from scipy.special import betaincinv
        except ImportError:  # pragma: no cover - scipy is in the test environment
            raise ImportError("method='clopper-pearson' needs scipy (pip install scipy)") from None
        low = float(betaincinv(x, n - x + 1, alpha / 2)) if x > 0 else 0.0
        high = float(betaincinv(x + 1, n - x, 1 - alpha / 2)) if x < n else 1.0
    return ConfidenceInterval(p, max(0.0, float(low)), min(1.0, float(high)), confidence, method,
                              standard_error=se, scheme=_PROPORTION_METHODS[method])

