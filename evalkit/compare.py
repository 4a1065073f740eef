"""Which model is better, on which metric, and how sure: several models compared in one call.

:func:`compare` scores several models on the same samples with several
metrics and returns one :class:`ModelComparison`: per model and metric the
value and its interval, per pair of models and metric the difference, its
interval and a p-value adjusted for the number of comparisons made.

**One set of resamples.** The rows are turned into counts once: each row
is a cell of (actual class, each model's predicted class, each model's score
group), and a bootstrap resample is a draw of those cells' counts
(:mod:`evalkit._resample`, the draw :func:`~evalkit.bootstrap_ci` uses).
Every metric of every model is computed from the same drawn counts, so the
resamples are paired across models and metrics: a hard row is hard for
all of them in the same resample. Rankers: each user's (query's) metric
values are computed once (:func:`~evalkit.evaluate_ranking`) and the users
are resampled.

**Tests.** ``"bootstrap"`` (default): the paired bootstrap's p-value
(:func:`~evalkit.paired_bootstrap`'s formula, on the shared resamples);
``"permutation"``: :func:`~evalkit.permutation_test`; ``"delong"`` (ROC AUC
only): :func:`~evalkit.delong_test`; ``"mcnemar"`` / ``"mcnemar-chi2"``
(accuracy only): :func:`~evalkit.mcnemar_test` exact / chi-square with
continuity correction. **Many comparisons.** A table of m comparisons at
α = 0.05 finds a "winner" among equal models far more often than 5 % (up to
``1 - 0.95^m`` for independent tests); the p-values are adjusted over all
the comparisons of the table: Holm's step-down (default; controls the
familywise error at α, uniformly more powerful than Bonferroni),
Bonferroni (``min(1, m p)``) or none. The numbers are statsmodels'
``multipletests(p, method="holm" | "bonferroni")``.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from . import classification as _clf
from . import curves as _curves_public
from . import ranking as _ranking
from . import uncertainty as _unc
from ._curves import ap_from_groups, auc_from_groups
from ._ratios import prf
from ._resample import _bootstrap_p, _draws, _runs, _side_by_side
from ._validation import (CONFIDENCE, RANDOM_STATE, Bool, Integer, Options, Real, check_labels,
                          check_scores, check_targets, validate_params)

if TYPE_CHECKING:  # pandas and matplotlib are optional: imported when a method needs them
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["ModelComparison", "compare", "read_trec_run", "read_trec_qrels"]

#: Classification metrics by name: (kind, the public function, the options it takes here).
_CLASSIFICATION = {
    "accuracy": ("label", _clf.accuracy_score, set()),
    "precision": ("label", _clf.precision_score, {"average", "pos_label", "zero_division"}),
    "recall": ("label", _clf.recall_score, {"average", "pos_label", "zero_division"}),
    "f1": ("label", _clf.f1_score, {"average", "pos_label", "zero_division"}),
    "roc_auc": ("score", _curves_public.roc_auc_score, set()),
    "average_precision": ("score", _curves_public.average_precision_score, {"pos_label"}),
}
_TESTS = {"bootstrap": "paired bootstrap", "permutation": "paired permutation test",
          "delong": "DeLong's test", "mcnemar": "McNemar's exact test",
          "mcnemar-chi2": "McNemar's chi-square test (continuity corrected)"}
_ONLY = {"delong": "roc_auc", "mcnemar": "accuracy", "mcnemar-chi2": "accuracy"}
_CORRECTIONS = {"holm": "Holm's step-down", "bonferroni": "Bonferroni", "none": "no correction"}
_SUPERSCRIPT = dict(zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))


# -- the result ------------------------------------------------------------------------


@dataclass(frozen=True, repr=False, eq=False)
class ModelComparison:
    """Several models compared on several metrics: values, differences, adjusted p-values.

    ``values``, ``low`` and ``high`` have shape (n_models, n_metrics): each
    model's metric on all the data and its percentile bootstrap interval.
    ``pairs`` holds one dict per comparison (pair of models and metric):
    ``metric, model_a, model_b, difference`` (a - b), ``low, high`` (its
    interval), ``p_value`` (the test's), ``p_adjusted`` (after
    ``correction`` over all the comparisons), ``significant``
    (``p_adjusted < alpha``) and ``test``. ``distribution`` holds the
    resampled values, shape (n_resamples, n_models, n_metrics).
    """

    models: tuple
    metrics: tuple
    values: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pairs: list
    tests: dict
    correction: str
    alpha: float
    confidence: float
    n_resamples: int
    baseline: str | None = None
    n_skipped: int = 0
    distribution: np.ndarray | None = field(default=None)

    @property
    def table(self) -> list[dict]:
        """One dict per model and metric: ``model, metric, value, low, high``."""
        return [{"model": m, "metric": q, "value": float(self.values[i, j]),
                 "low": float(self.low[i, j]), "high": float(self.high[i, j])}
                for i, m in enumerate(self.models) for j, q in enumerate(self.metrics)]

    def _letters(self):
        """Per (model, metric), the letters of the models it is significantly better than."""
        letter = {m: chr(ord("a") + i) if i < 26 else str(i) for i, m in enumerate(self.models)}
        beats = {}
        for p in self.pairs:
            if p["significant"]:
                win, lose = p["model_a"], p["model_b"]
                if p["difference"] <= 0:
                    win, lose = lose, win
                beats.setdefault((win, p["metric"]), []).append(letter[lose])
        return letter, {k: "".join(sorted(v)) for k, v in beats.items()}

    def _cells(self, style):
        """The table's rows of cells: ``value [low, high]``, the best marked, the letters beside."""
        letter, beats = self._letters()
        best = np.nanargmax(np.where(np.isnan(self.values), -np.inf, self.values), axis=0)
        rows = []
        for i, m in enumerate(self.models):
            row = [f"({letter[m]}) {m}" if style != "latex" else f"({letter[m]}) {_tex(m)}"]
            for j, q in enumerate(self.metrics):
                v = f"{self.values[i, j]:.4f}"
                if best[j] == i:
                    bold = {"text": v + "*", "markdown": f"**{v}**", "latex": rf"\textbf{{{v}}}"}
                    v = bold[style]
                won = beats.get((m, q), "")
                if won:
                    v += {"text": "".join(_SUPERSCRIPT.get(c, "^" + c) for c in won),
                          "markdown": f"<sup>{won}</sup>", "latex": f"$^{{{won}}}$"}[style]
                row.append(f"{v} [{self.low[i, j]:.4f}, {self.high[i, j]:.4f}]")
            rows.append(row)
        return rows

    def _note(self):
        tests = sorted(set(self.tests.values()))
        against = f"against the baseline {self.baseline}" if self.baseline else "between all pairs"
        return (f"{100 * self.confidence:g} % percentile bootstrap intervals, "
                f"{self.n_resamples} paired resamples; best per metric marked; a letter: "
                f"significantly better than that model (adjusted p < {self.alpha:g}), "
                f"{len(self.pairs)} comparisons {against}; test: "
                f"{', '.join(_TESTS[t] for t in tests)}; "
                f"correction: {_CORRECTIONS[self.correction]}")

    def __str__(self):
        rows = [["model", *self.metrics], *self._cells("text")]
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join([*lines, self._note()])

    __repr__ = __str__

    def to_markdown(self) -> str:
        """The table as Markdown (best in bold, letters as superscripts), the note below."""
        rows = [["model", *self.metrics], *self._cells("markdown")]
        out = ["| " + " | ".join(r) + " |" for r in rows]
        out.insert(1, "|" + "---|" * len(rows[0]))
        return "\n".join(out) + f"\n\n{self._note()}\n"

    def to_latex(self) -> str:
        """The table as a LaTeX ``tabular`` (best in bold, letters superscript), note a comment."""
        rows = [["model", *map(_tex, self.metrics)], *self._cells("latex")]
        body = [" & ".join(r) + r" \\" for r in rows]
        return "\n".join([r"\begin{tabular}{l" + "c" * len(self.metrics) + "}", r"\hline",
                          body[0], r"\hline", *body[1:], r"\hline", r"\end{tabular}",
                          "% " + self._note(), ""])

    def to_pandas(self, which: str = "values") -> pd.DataFrame:
        """A pandas DataFrame: ``"values"`` (one row per model and metric) or ``"pairs"``."""
        import pandas as pd

        if which not in ("values", "pairs"):
            raise ValueError(f"which must be 'values' or 'pairs', got {which!r}")
        return pd.DataFrame(self.table if which == "values" else self.pairs)

    def plot(self, ax: Axes | None = None) -> Axes:
        """Draw each difference with its interval (a vertical line at 0); returns the Axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            ax = plt.subplots(figsize=(8, 0.4 * len(self.pairs) + 1.2))[1]
        shown = [p for p in self.pairs if p["low"] is not None]
        y = np.arange(len(shown))[::-1]
        d = np.array([p["difference"] for p in shown])
        err = np.array([[p["difference"] - p["low"], p["high"] - p["difference"]] for p in shown]).T
        ax.errorbar(d, y, xerr=err.reshape(2, -1), fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [f"{p['metric']}: {p['model_a']} - {p['model_b']}"
                          + (" *" if p["significant"] else "") for p in shown])
        ax.set_xlabel(f"difference a - b, {100 * self.confidence:g} % interval "
                      f"(* significant, {_CORRECTIONS[self.correction]})")
        return ax


def _tex(text):
    return str(text).replace("_", r"\_").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")


# -- the correction for many comparisons -----------------------------------------------


def _adjust(p, correction):
    """p-values adjusted for ``m = len(p)`` comparisons (statsmodels' ``multipletests``).

    Bonferroni: ``min(1, m p)``. Holm: sorted ascending, ``p_(i) (m - i + 1)``
    (i from 1), made non-decreasing by a running maximum, capped at 1.
    """
    p = np.asarray(p, dtype=np.float64)
    m = len(p)
    if correction == "none" or m == 0:
        return p.copy()
    if correction == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


# -- reading the inputs ----------------------------------------------------------------


def read_trec_run(path: str | os.PathLike) -> dict[str, dict[str, float]]:
    """A TREC run file (``query Q0 doc rank score tag`` per line) as ``{query: {doc: score}}``.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("q1 Q0 d1 1 2.5 run\\nq1 Q0 d2 2 1.0 run\\n")
    >>> read_trec_run(f.name)
    {'q1': {'d1': 2.5, 'd2': 1.0}}
    >>> os.remove(f.name)
    """
    return _read_trec(path, "run", "query Q0 doc rank score tag", "score", float)


def read_trec_qrels(path: str | os.PathLike) -> dict[str, dict[str, int]]:
    """A TREC qrels file (``query 0 doc relevance`` per line) as ``{query: {doc: relevance}}``.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("q1 0 d1 1\\nq1 0 d3 2\\n")
    >>> read_trec_qrels(f.name)
    {'q1': {'d1': 1, 'd3': 2}}
    >>> os.remove(f.name)
    """
    return _read_trec(path, "qrels", "query 0 doc relevance", "relevance", int)


def _read_trec(path, kind, fields, value, number):
    """``{query: {doc: value}}`` of a TREC file whose lines hold ``fields``; ``value`` names the
    field kept, read with ``number``."""
    fields = fields.split()
    at_value = fields.index(value)
    out = {}
    with open(path, encoding="utf-8") as f:
        for at, line in enumerate(f, 1):
            parts = line.split()
            if parts and len(parts) != len(fields):
                raise ValueError(f"path: line {at} of {path} has {len(parts)} fields, a TREC "
                                 f"{kind} line has {len(fields)}: {' '.join(fields)}")
            if parts:
                out.setdefault(parts[0], {})[parts[2]] = number(parts[at_value])
    return out


def _models(predictions):
    """``{name: predictions}`` from a dict or a pandas DataFrame (one column per model)."""
    if hasattr(predictions, "columns") and hasattr(predictions, "to_numpy"):
        predictions = {str(c): predictions[c].to_numpy() for c in predictions.columns}
    if not isinstance(predictions, dict):
        raise TypeError("predictions must be a dict {model name: predictions} or a pandas "
                        f"DataFrame with one column per model, got {type(predictions).__name__}")
    if len(predictions) < 2:
        raise ValueError(f"predictions: at least 2 models to compare, got {len(predictions)}")
    return {str(k): v for k, v in predictions.items()}


def _metric_specs(metrics):
    """``[(display name, base name, options)]`` from names or ``(name, options)`` pairs."""
    if isinstance(metrics, (str, bytes)) or not hasattr(metrics, "__iter__"):
        raise TypeError("metrics must be a list of metric names such as ['accuracy', 'roc_auc'] or "
                        f"['ndcg@10', 'map@100'], got {metrics!r}")
    out = []
    for m in metrics:
        name, opts = (m, {}) if isinstance(m, str) else (m[0], dict(m[1]))
        label = name + "".join(f" {k}={v}" for k, v in opts.items())
        out.append((label, name, opts))
    if not out or len({s[0] for s in out}) != len(out):
        raise ValueError("metrics: give at least one metric, each once")
    return out


def _is_ranking(specs):
    kinds = {"@" in base or base not in _CLASSIFICATION for _, base, _ in specs}
    if len(kinds) > 1:
        raise ValueError("metrics: classification metrics and ranking metrics (such as 'ndcg@10') "
                         "cannot be mixed in one comparison")
    return kinds.pop()


def _ranked_lists(y_true, models):
    """Ranked lists and relevance from ranx-style dicts or TREC files; lists pass through."""
    if isinstance(y_true, (str, os.PathLike)):
        y_true = read_trec_qrels(y_true)
    models = {k: read_trec_run(v) if isinstance(v, (str, os.PathLike)) else v
              for k, v in models.items()}
    if not isinstance(y_true, dict):
        return y_true, models
    queries = list(y_true)  # ranx, trec_eval: the qrels' queries; a run without one ranks nothing
    relevant = [{d: r for d, r in y_true[q].items() if r > 0} for q in queries]

    def lists(run):  # by decreasing score, ties by decreasing doc id (trec_eval's order)
        if not isinstance(run, dict):
            return run
        by_doc = (sorted(run.get(q, {}).items(), reverse=True) for q in queries)
        return [[d for d, _ in sorted(docs, key=lambda x: -x[1])] for docs in by_doc]
    return relevant, {k: lists(v) for k, v in models.items()}


# -- classification: joint cells and the metrics from their counts ----------------------


def _multiplicities(sample_counts, y_true):
    """``sample_counts`` as int64, one non-negative count per row of ``y_true``, not all 0."""
    times = np.asarray(sample_counts)
    one_each = times.ndim == 1 and times.dtype.kind in "iu" and len(times) == len(y_true)
    if not one_each or (times < 0).any() or not times.sum():
        raise ValueError("sample_counts must hold one non-negative integer per sample "
                         f"({len(y_true)}), not all 0")
    return times.astype(np.int64)


def _kinds(specs):
    """Each metric's kind ("label" or "score"); an option the metric does not take is refused."""
    kinds = []
    for label, base, opts in specs:
        kind, _, allowed = _CLASSIFICATION[base]
        if not set(opts) <= allowed:
            raise ValueError(f"metrics: {label!r}: options {sorted(set(opts) - allowed)} are not "
                             f"taken here; {base} takes {sorted(allowed) or 'none'}")
        kinds.append(kind)
    return kinds


def _read_models(y, models, kinds, threshold):
    """Each model's validated scores (where used) and predicted labels (where used)."""
    scores, labels = {}, {}
    classes = np.unique(y)
    if ("score" in kinds or threshold is not None) and len(classes) != 2:
        raise ValueError(f"y_true: roc_auc, average_precision and threshold need binary labels, "
                         f"got {len(classes)} classes")
    for name, pred in models.items():
        key = f"predictions[{name!r}]"
        if "score" in kinds or threshold is not None:
            scores[name] = check_scores(y, pred, name=key)[0]
        if "label" in kinds:
            if threshold is not None:
                pred = np.where(scores[name] >= threshold, classes[1], classes[0])
            labels[name] = check_targets(y, pred, names=("y_true", key))[2]
    return scores, labels


def _check_binary_averages(specs, all_labels):
    """As scikit-learn: the binary average needs two classes, one of them pos_label."""
    for label, base, opts in specs:
        if "average" not in _CLASSIFICATION[base][2]:  # accuracy and the score metrics
            continue
        pos_label = opts.get("pos_label", 1)
        if opts.get("average", "binary") == "binary" and (
                len(all_labels) > 2 or pos_label not in all_labels):
            raise ValueError(f"metrics: {label!r} averages 'binary' over labels "
                             f"{all_labels.tolist()}: it needs two classes holding "
                             f"pos_label={pos_label!r}; pass ('{base}', {{'average': 'macro'}}) "
                             "or the pos_label")


def _joint_cells(columns, times):
    """The distinct rows of ``columns`` (the cells, sorted) and how many samples each holds.

    The rows are encoded as one integer each where the codes fit in 62 bits:
    sorting integers is much faster than sorting rows, same order.
    """
    dims = [int(c.max()) + 1 for c in columns]
    if np.prod(dims, dtype=np.float64) < 2.0**62:
        distinct, inverse = np.unique(np.ravel_multi_index(columns, dims), return_inverse=True)
        cells = np.stack(np.unravel_index(distinct, dims), axis=1)
    else:
        cells, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    counts = np.bincount(inverse.reshape(-1), weights=times, minlength=len(cells))
    kept = counts > 0  # rows that stand for no sample (sample_counts 0) hold no cell
    return cells[kept], counts[kept].astype(np.int64)


class _Model:
    """One model's view of the joint cells: a code per cell, ``key * C + actual``.

    The key is the model's score group (decreasing score) when a score metric
    is asked for, else its predicted class; a resample's counts of the codes
    (one ``bincount`` of the drawn cell counts) give every metric of the model.
    """

    def __init__(self, cells, key_column, label_column, n_classes, counts, positive):
        t = cells[:, 0]
        keys, key = np.unique(cells[:, key_column], return_inverse=True)  # present keys only
        self.n_keys, self.n_classes, self.positive = len(keys), n_classes, positive
        self.code = key.reshape(-1) * n_classes + t
        if label_column is not None:  # the predicted class of each key
            self.predicted = np.zeros(len(keys), np.int64)
            self.predicted[key] = cells[:, label_column]
            # the classes of y_true and of its predictions
            self.present = np.isin(np.arange(n_classes), np.r_[t, self.predicted])
        self._flat = {}
        pos, neg = self.score_counts(self.tally(counts.astype(np.float64), 1))
        self.runs = {"roc_auc": _runs(auc_from_groups, pos[0], neg[0]),
                     ("ap", False): _runs(ap_from_groups, pos[0], neg[0]),
                     ("ap", True): _runs(ap_from_groups, neg[0], pos[0])}

    def tally(self, weights, rows):
        """Counts (rows, keys, classes) of drawn cell counts (``weights``: (rows, K) flattened).

        The codes with each resample's offset are built once per block size:
        one ``bincount`` per model and block is then all the work.
        """
        size = self.n_keys * self.n_classes
        if rows not in self._flat:
            self._flat = {rows: _side_by_side(self.code, size, rows)}
        counts = np.bincount(self._flat[rows], weights=weights, minlength=rows * size)
        return counts.astype(np.int64).reshape(rows, -1, self.n_classes)

    def label_counts(self, tally):
        """tp, predicted and actual per class (B, C), as floats."""
        onehot = np.eye(self.n_classes)[self.predicted]  # (keys, C)
        right = np.take_along_axis(tally, self.predicted[None, :, None], axis=2)[:, :, 0]
        return (right.astype(float) @ onehot, tally.sum(axis=2).astype(float) @ onehot,
                tally.sum(axis=1).astype(float))

    def score_counts(self, tally, key=None):
        """Positives and negatives per run of score groups the metric ``key`` cannot tell apart
        (per score group without a key)."""
        pos = tally[:, :, self.positive]
        neg = tally.sum(axis=2) - pos
        if key is None:
            return pos, neg
        at = self.runs[key]
        return np.add.reduceat(pos, at, axis=1), np.add.reduceat(neg, at, axis=1)


def _classification(y_true, models, specs, threshold, times=None):
    """Joint cells of the rows, and ``evaluate(W (B, K)) -> (B, n_models, n_metrics)``.

    A cell is a distinct (actual class, each model's predicted class, each
    model's score group); the resamples draw the cells' counts.
    """
    kinds = _kinds(specs)
    y = check_labels(y_true, "y_true")
    preds, label_of = _read_models(y, models, kinds, threshold)
    all_labels = np.unique(np.concatenate([y, *label_of.values()]))
    _check_binary_averages(specs, all_labels)
    columns = [np.searchsorted(all_labels, lab) for lab in (y, *label_of.values())]
    for name in models if "score" in kinds else ():
        values, inverse = np.unique(preds[name], return_inverse=True)
        columns.append(len(values) - 1 - inverse.reshape(-1))  # groups by decreasing score
    cells, counts = _joint_cells(columns, times)
    positive = np.searchsorted(all_labels, np.unique(y)[-1])  # the larger class of y_true
    fitted = []
    for i in range(len(models)):
        label_column = 1 + i if label_of else None  # every model's labels, or none
        key_column = 1 + len(label_of) + i if "score" in kinds else label_column
        fitted.append(_Model(cells, key_column, label_column, len(all_labels), counts, positive))

    def evaluate(w):
        out = np.empty((len(w), len(models), len(specs)))
        weights = w.astype(np.float64).ravel()  # bincount's weights, cast once for every model
        for i, model in enumerate(fitted):
            tally = model.tally(weights, len(w))
            labels = model.label_counts(tally) if "label" in kinds else None
            for j, (_, base, opts) in enumerate(specs):
                out[:, i, j] = _value(base, opts, model, tally, labels, all_labels)
        return out
    return counts, cells[:, 0], evaluate, preds, label_of


def _value(base, opts, model, tally, labels, classes):
    """One metric on every resample, from the model's counts of its codes (and per class)."""
    if base == "roc_auc":
        return auc_from_groups(*model.score_counts(tally, "roc_auc"))
    flip = opts.get("pos_label", 1) != classes[model.positive]
    if base == "average_precision":  # with the smaller class as pos_label the classes swap roles
        pos, neg = model.score_counts(tally, ("ap", flip))
        return ap_from_groups(neg, pos) if flip else ap_from_groups(pos, neg)
    tp, pred, act = labels
    if base == "accuracy":
        return tp.sum(axis=1) / act.sum(axis=1)
    average = opts.get("average", "binary")
    zd = opts.get("zero_division", "warn")
    zd = 0.0 if isinstance(zd, str) else zd
    cols = np.flatnonzero(model.present)  # the classes of y_true and this model's predictions
    if average == "binary":
        cols = np.flatnonzero(classes == opts.get("pos_label", 1))
        average = "micro"
    p, r, f, _ = prf(tp[:, cols], pred[:, cols], act[:, cols], average=average,
                     zero_division=zd, warn_for=())
    return {"precision": p, "recall": r, "f1": f}[base]


# -- the one call ----------------------------------------------------------------------


def _tests_of(test, specs, ranking):
    """``{metric label: test name}``; a test given for a metric it does not apply to is refused."""
    given = test if isinstance(test, dict) else {label: test for label, _, _ in specs}
    out = {}
    for label, base, _ in specs:
        name = given.get(label, "bootstrap")
        if name not in _TESTS:
            raise ValueError(f"test must be one of {sorted(_TESTS)} (or a dict metric -> test), "
                             f"got {name!r}")
        if name in _ONLY and (ranking or base != _ONLY[name]):
            raise ValueError(f"test: {name!r} applies to {_ONLY[name]} only, not to {label!r}; "
                             f"pass a dict such as {{{_ONLY[name]!r}: {name!r}}} to use it for "
                             "that metric")
        out[label] = name
    return out


@validate_params(correction=Options(_CORRECTIONS), alpha=Real(0, 1, closed="neither"),
                 stratify=Bool(),
                 threshold=[None, Real(meaning="a score: at or above it, the larger class")],
                 n_resamples=Integer(1, meaning="the number of bootstrap resamples"),
                 confidence=CONFIDENCE, random_state=RANDOM_STATE)
def compare(y_true: ArrayLike | dict | str | os.PathLike, predictions: dict,
            metrics: list, *, test: str | dict = "bootstrap", correction: str = "holm",
            baseline: str | None = None, alpha: float = 0.05, n_resamples: int = 1000,
            confidence: float = 0.95, threshold: float | None = None, stratify: bool = True,
            random_state: int | np.random.Generator | None = None,
            sample_counts: ArrayLike | None = None, **ranking_options: object) -> ModelComparison:
    """Compare several models on the same samples: values, intervals, differences, p-values.

    Each model's metrics are computed from counts (the estimate), then from
    ``n_resamples`` bootstrap resamples of those counts shared by every
    model and metric (paired). Per model and metric: the value and its
    percentile interval. Per comparison (each model against ``baseline``,
    or every pair when it is None, for each metric): the difference
    ``a - b``, its percentile interval (DeLong's normal interval with
    ``test="delong"``), the test's p-value and that p-value adjusted over
    all the comparisons of the table by ``correction``::

        Bonferroni: p_adj = min(1, m p);   Holm: p_(i) -> max_{j <= i} min(1, (m - j + 1) p_(j))

    Holm's step-down (default) keeps the familywise error -- the chance of
    one or more false "winners" -- at ``alpha`` like Bonferroni, and
    rejects at least as often. ranx's ``compare`` offers no correction
    beyond Tukey's HSD; statsmodels' ``multipletests`` gives the same numbers.

    Parameters
    ----------
    y_true : array-like, list of relevant sets/dicts, qrels dict or TREC qrels path
        Class labels (classifiers) or each user's relevant items (rankers):
        ``{query: {doc: relevance}}`` as ranx's ``Qrels``, or a TREC qrels file.
    predictions : dict or pandas.DataFrame
        ``{model name: predictions}`` (labels, scores, ranked lists, ranx-style
        runs ``{query: {doc: score}}``, TREC run paths, or each model's
        :class:`~evalkit.RankingHits` with ``y_true=None``, as
        ``evalkit.spark.compare`` passes them from the cluster), or a DataFrame
        with one column per model.
    metrics : list
        Names: ``"accuracy"``, ``"precision"``, ``"recall"``, ``"f1"``,
        ``"roc_auc"``, ``"average_precision"``, or ranking names as in
        :func:`~evalkit.evaluate_ranking` (``"ndcg@10"``, ``"map@100"``); a
        ``(name, options)`` pair passes options such as ``{"average":
        "macro"}`` (the classes of ``y_true`` and that model's predictions,
        held fixed in every resample; ``zero_division="warn"`` counts 0.0).
    test : str or dict, default="bootstrap"
        ``"bootstrap"``, ``"permutation"``, ``"delong"`` (roc_auc),
        ``"mcnemar"`` or ``"mcnemar-chi2"`` (accuracy); a dict ``{metric:
        test}`` chooses per metric (others: the bootstrap).
    correction : {"holm", "bonferroni", "none"}, default="holm"
    baseline : str or None, default=None
        A model name: compare each other model with it; None: every pair.
    alpha : float, default=0.05
        A comparison is significant when its adjusted p-value is below it.
    n_resamples : int, default=1000
        Bootstrap resamples (and permutations for ``test="permutation"``).
    confidence : float in (0, 1), default=0.95
    threshold : float or None, default=None
        Scores at or above it predict the larger class, for the label
        metrics (and McNemar); None: the predictions are labels for those.
    stratify : bool, default=True
        Resample within each class of ``y_true`` (classifiers), as
        :func:`~evalkit.bootstrap_ci`.
    random_state : None, int or numpy.random.Generator
        Seeds the resamples; each permutation test starts from it.
    sample_counts : array-like of int or None, default=None
        Classifiers: how many identical samples each row stands for (the
        counts of distinct rows, as :func:`evalkit.spark.compare` gets them
        from a cluster); the bootstrap draws from these counts, the other
        tests see the rows repeated.
    **ranking_options
        Passed to :func:`~evalkit.evaluate_ranking` (``convention``, ``gain``, ...).

    Returns
    -------
    ModelComparison
        ``values``, ``low``, ``high``, ``pairs``; prints as a table;
        ``to_pandas()``, ``to_markdown()``, ``to_latex()``, ``plot()``.

    Examples
    --------
    >>> import numpy as np, evalkit as ek
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> models = {"good": np.where(rng.random(300) < 0.85, y, 1 - y),
    ...           "bad": np.where(rng.random(300) < 0.70, y, 1 - y)}
    >>> r = ek.compare(y, models, ["accuracy", "f1"], random_state=0)
    >>> r.values.round(4).tolist()
    [[0.8333, 0.8466], [0.71, 0.7184]]
    >>> [(p["metric"], round(p["difference"], 4), p["significant"]) for p in r.pairs]
    [('accuracy', 0.1233, True), ('f1', 0.1282, True)]
    """
    models = _models(predictions)
    if baseline is not None and baseline not in models:
        raise ValueError(f"baseline must be one of the models {list(models)}, got {baseline!r}")
    specs = _metric_specs(metrics)
    ranking = _is_ranking(specs)
    tests = _tests_of(test, specs, ranking)
    names = list(models)
    rng = np.random.default_rng(random_state)
    permute = dict(n_permutations=n_resamples, random_state=random_state)
    if ranking:
        counts, strata, evaluate, row_test = _ranking_setup(y_true, models, specs, permute,
                                                           ranking_options)
    else:
        counts, strata, evaluate, row_test = _classifier_setup(
            y_true, models, specs, threshold, sample_counts, tests, permute, confidence)
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimate = evaluate(counts[None, :])[0]
        draws = _draws(rng, counts, strata, n_resamples, bool(stratify))
        dist = np.concatenate([evaluate(cells) for cells in draws])
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    skipped = np.isnan(dist).any(axis=(1, 2))
    kept = dist[~skipped]
    if not len(kept):
        raise ValueError("y_true: the metrics are undefined (nan) on every resample: no interval")
    low, high = np.quantile(kept, q, axis=0)
    pairs = [_pair(label, j, names, a, b, tests[label], estimate, kept, q, row_test)
             for j, (label, _, _) in enumerate(specs) for a, b in _pairs_of(names, baseline)]
    adjusted = _adjust([p["p_value"] for p in pairs], correction)
    for p, adj in zip(pairs, adjusted):
        p["p_adjusted"] = float(adj)
        p["significant"] = bool(adj < alpha)
    return ModelComparison(tuple(names), tuple(s[0] for s in specs), estimate, low, high, pairs,
                           tests, correction, alpha, confidence, n_resamples, baseline,
                           int(skipped.sum()), dist)


def _pairs_of(names, baseline):
    """The compared pairs: each model against the baseline, or every pair."""
    if baseline is not None:
        return [(m, baseline) for m in names if m != baseline]
    return [(a, names[k]) for i, a in enumerate(names) for k in range(i + 1, len(names))]


def _pair(label, j, names, a, b, test, estimate, kept, q, row_test):
    """One comparison: the difference a - b, its interval and the test's p-value."""
    ia, ib = names.index(a), names.index(b)
    d = estimate[ia, j] - estimate[ib, j]
    diffs = kept[:, ia, j] - kept[:, ib, j]
    lo, hi = (float(x) for x in np.quantile(diffs, q))
    if test == "bootstrap":
        p = _bootstrap_p(diffs, d)
    else:
        p, interval = row_test(test, j, a, b)
        lo, hi = interval or (lo, hi)  # DeLong's normal interval replaces the bootstrap's
    return {"metric": label, "model_a": a, "model_b": b, "difference": float(d),
            "low": lo, "high": hi, "p_value": float(p), "test": test}


def _ranking_setup(y_true, models, specs, permute, ranking_options):
    """Rankers: each user's metric values; the users are the resampled cells.

    Returns ``(counts, strata, evaluate, row_test)`` as :func:`_classifier_setup`
    (the permutation test is the rankers' only test that reads rows).
    """
    names = list(models)
    relevant, models = _ranked_lists(y_true, models)
    bases = [s[1] for s in specs]
    per_user = {m: _ranking.evaluate_ranking(models[m], relevant, bases, per_user=True,
                                             **ranking_options) for m in names}
    v = np.stack([[np.asarray(per_user[m][q], dtype=np.float64) for q in bases] for m in names])
    defined = ~np.isnan(v)  # (M, Q, U): users where the metric is undefined are left out
    v0 = np.where(defined, v, 0.0)

    def evaluate(w):
        return np.einsum("bu,mqu->bmq", w, v0) / np.einsum("bu,mqu->bmq", w, defined)

    def permutation(test, j, a, b):  # a sign-flip test on the users defined for both
        ia, ib = names.index(a), names.index(b)
        both = defined[ia, j] & defined[ib, j]
        r = _unc.permutation_test(np.mean, None, v[ia, j, both], v[ib, j, both], **permute)
        return r.p_value, None
    users = v.shape[2]  # one stratum: users are not stratified
    return np.ones(users, np.int64), np.zeros(users), evaluate, permutation


def _classifier_setup(y_true, models, specs, threshold, sample_counts, tests, permute,
                      confidence):
    """Classifiers: the joint cells, their counts, ``evaluate`` and the row-reading tests.

    Returns ``(counts, strata, evaluate, row_test)``: ``row_test(test, j,
    a, b)`` gives the p-value of the test (``"permutation"``, ``"delong"``,
    ``"mcnemar"``, ``"mcnemar-chi2"``) of metric j's comparison of models a
    and b, and an interval replacing the bootstrap's (or None).
    """
    times = None
    if sample_counts is not None:
        times = _multiplicities(sample_counts, y_true)
        if set(tests.values()) != {"bootstrap"}:  # the other tests read rows: repeat them
            y_true = np.repeat(np.asarray(y_true), times)
            models = {m: np.repeat(np.asarray(v), times, axis=0) for m, v in models.items()}
            times = None
    counts, strata, evaluate, preds, labels = _classification(y_true, models, specs, threshold,
                                                              times)

    def row_test(test, j, a, b):
        _, base, opts = specs[j]
        kind, fn, _ = _CLASSIFICATION[base]
        rows = preds if kind == "score" else labels  # DeLong: roc_auc's scores; McNemar: labels
        if test == "permutation":
            r = _unc.permutation_test(fn, y_true, rows[a], rows[b], **permute, **opts)
            return r.p_value, None
        if test == "delong":
            r = _unc.delong_test(y_true, rows[a], rows[b], confidence=confidence)
            return r.p_value, (r.low, r.high)
        return _unc.mcnemar_test(y_true, rows[a], rows[b], exact=test == "mcnemar").p_value, None
    return counts, strata, evaluate, row_test
