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

import inspect
import os
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ._delong import paired_test, require_two_of_each
from ._hit_metrics import check_options, evaluate
from ._paired import mcnemar, permutation_p, sign_flip_distribution, swap_distribution
from ._resample import (METRICS, LabelCells, ModelCounts, bootstrap_p, draws, joint_cells, kept,
                        label_rule, runs)
from ._sweep import sweep_of
from ._validation import (CONFIDENCE, RANDOM_STATE, Bool, Integer, Options, Real, check_labels,
                          check_same_kind, check_same_length, check_scores, positive_of,
                          validate_params)
from .ranking import evaluate_ranking

if TYPE_CHECKING:  # pandas and matplotlib are optional: imported when a method needs them
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["ModelComparison", "compare", "read_trec_run", "read_trec_qrels"]

_TESTS = {"bootstrap": "paired bootstrap", "permutation": "paired permutation test",
          "delong": "DeLong's test", "mcnemar": "McNemar's exact test",
          "mcnemar-chi2": "McNemar's chi-square test (continuity corrected)"}
_ONLY = {"delong": "roc_auc", "mcnemar": "accuracy", "mcnemar-chi2": "accuracy"}
_CORRECTIONS = {"holm": "Holm's step-down", "bonferroni": "Bonferroni", "none": "no correction"}
_SUPERSCRIPT = dict(zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"))
_BOLD = {"text": "{}*", "markdown": "**{}**", "latex": r"\textbf{{{}}}"}
_SUPERSCRIPT_OF = {"markdown": "<sup>{}</sup>", "latex": "$^{{{}}}$"}


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
        rows = []
        for i, model in enumerate(self.models):
            for j, metric in enumerate(self.metrics):
                rows.append({"model": model, "metric": metric,
                             "value": float(self.values[i, j]),
                             "low": float(self.low[i, j]),
                             "high": float(self.high[i, j])})
        return rows

    def _letters(self):
        """Each model's letter, and per (model, metric) the letters of the models it beats."""
        letter = {model: _letter(i) for i, model in enumerate(self.models)}
        beats = {}
        for p in self.pairs:
            if not p["significant"]:
                continue
            winner, loser = p["model_a"], p["model_b"]
            if p["difference"] <= 0:
                winner, loser = loser, winner
            beats.setdefault((winner, p["metric"]), []).append(letter[loser])
        won = {key: "".join(sorted(letters)) for key, letters in beats.items()}
        return letter, won

    def _cells(self, style):
        """The table's rows of cells: ``value [low, high]``, the best marked, the letters beside."""
        letter, beats = self._letters()
        values = np.where(np.isnan(self.values), -np.inf, self.values)
        best = np.nanargmax(values, axis=0)
        rows = []
        for i, model in enumerate(self.models):
            name = model
            if style == "latex":
                name = _tex(model)
            row = [f"({letter[model]}) {name}"]
            for j, metric in enumerate(self.metrics):
                value = f"{self.values[i, j]:.4f}"
                if best[j] == i:
                    value = _BOLD[style].format(value)
                won = beats.get((model, metric), "")
                if won:
                    value += _superscript(won, style)
                row.append(f"{value} [{self.low[i, j]:.4f}, {self.high[i, j]:.4f}]")
            rows.append(row)
        return rows

    def _note(self):
        tests = sorted(set(self.tests.values()))
        against = "between all pairs"
        if self.baseline:
            against = f"against the baseline {self.baseline}"
        names = ", ".join(_TESTS[t] for t in tests)
        return (f"{100 * self.confidence:g} % percentile bootstrap intervals, "
                f"{self.n_resamples} paired resamples; best per metric marked; a letter: "
                f"significantly better than that model (adjusted p < {self.alpha:g}), "
                f"{len(self.pairs)} comparisons {against}; test: {names}; "
                f"correction: {_CORRECTIONS[self.correction]}")

    def __str__(self):
        rows = [["model", *self.metrics], *self._cells("text")]
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        lines = []
        for row in rows:
            padded = (cell.ljust(width) for cell, width in zip(row, widths))
            lines.append("  ".join(padded).rstrip())
        lines.insert(1, "  ".join("-" * width for width in widths))
        return "\n".join([*lines, self._note()])

    __repr__ = __str__

    def to_markdown(self) -> str:
        """The table as Markdown (best in bold, letters as superscripts), the note below."""
        rows = [["model", *self.metrics], *self._cells("markdown")]
        out = ["| " + " | ".join(row) + " |" for row in rows]
        out.insert(1, "|" + "---|" * len(rows[0]))
        return "\n".join(out) + f"\n\n{self._note()}\n"

    def to_latex(self) -> str:
        """The table as a LaTeX ``tabular`` (best in bold, letters superscript), note a comment."""
        rows = [["model", *map(_tex, self.metrics)], *self._cells("latex")]
        body = [" & ".join(row) + r" \\" for row in rows]
        columns = "l" + "c" * len(self.metrics)
        lines = [r"\begin{tabular}{" + columns + "}", r"\hline", body[0], r"\hline", *body[1:],
                 r"\hline", r"\end{tabular}", "% " + self._note(), ""]
        return "\n".join(lines)

    def to_pandas(self, which: str = "values") -> pd.DataFrame:
        """A pandas DataFrame: ``"values"`` (one row per model and metric) or ``"pairs"``."""
        import pandas as pd

        if which == "values":
            return pd.DataFrame(self.table)
        if which == "pairs":
            return pd.DataFrame(self.pairs)
        raise ValueError(f"which must be 'values' or 'pairs', got {which!r}")

    def plot(self, ax: Axes | None = None) -> Axes:
        """Draw each difference with its interval (a vertical line at 0); returns the Axes."""
        import matplotlib.pyplot as plt

        if ax is None:
            ax = plt.subplots(figsize=(8, 0.4 * len(self.pairs) + 1.2))[1]
        shown = [p for p in self.pairs if p["low"] is not None]
        y = np.arange(len(shown))[::-1]
        difference = np.array([p["difference"] for p in shown])
        below = [p["difference"] - p["low"] for p in shown]
        above = [p["high"] - p["difference"] for p in shown]
        err = np.array([below, above])
        ax.errorbar(difference, y, xerr=err.reshape(2, -1), fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [_tick(p) for p in shown])
        ax.set_xlabel(f"difference a - b, {100 * self.confidence:g} % interval "
                      f"(* significant, {_CORRECTIONS[self.correction]})")
        return ax


def _letter(i):
    """The i-th model's letter: a to z, then numbers."""
    if i < 26:
        return chr(ord("a") + i)
    return str(i)


def _superscript(letters, style):
    if style != "text":
        return _SUPERSCRIPT_OF[style].format(letters)
    return "".join(_SUPERSCRIPT.get(c, "^" + c) for c in letters)


def _tick(pair):
    """A comparison's label on the plot, starred when significant."""
    label = f"{pair['metric']}: {pair['model_a']} - {pair['model_b']}"
    if pair["significant"]:
        label += " *"
    return label


def _tex(text):
    escaped = str(text).replace("_", r"\_").replace("&", r"\&")
    return escaped.replace("%", r"\%").replace("#", r"\#")


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
    scaled = (m - np.arange(m)) * p[order]
    out = np.empty(m)
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
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
    return _read_run(path)


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
    return _read_qrels(path)


def _read_run(path):
    return _read_trec(path, "run", "query Q0 doc rank score tag", "score", float)


def _read_qrels(path):
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
            if not parts:
                continue
            if len(parts) != len(fields):
                raise ValueError(f"path: line {at} of {path} has {len(parts)} fields, a TREC "
                                 f"{kind} line has {len(fields)}: {' '.join(fields)}")
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
    for metric in metrics:
        name, options = metric, {}
        if not isinstance(metric, str):
            name, options = metric[0], dict(metric[1])
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        out.append((label, name, options))
    if not out or len({label for label, _, _ in out}) != len(out):
        raise ValueError("metrics: give at least one metric, each once")
    return out


def _classifies(base):
    """Whether compare offers ``base`` as a classification metric (else a ranking name)."""
    metric = METRICS.get(base)
    return "@" not in base and metric is not None and metric.compared is not None


def _is_ranking(specs):
    kinds = {not _classifies(base) for _, base, _ in specs}
    if len(kinds) > 1:
        raise ValueError("metrics: classification metrics and ranking metrics (such as 'ndcg@10') "
                         "cannot be mixed in one comparison")
    return kinds.pop()


def _ranked_lists(y_true, models):
    """Ranked lists and relevance from ranx-style dicts or TREC files; lists pass through."""
    if isinstance(y_true, (str, os.PathLike)):
        y_true = _read_qrels(y_true)
    read = {}
    for name, run in models.items():
        if isinstance(run, (str, os.PathLike)):
            run = _read_run(run)
        read[name] = run
    if not isinstance(y_true, dict):
        return y_true, read
    queries = list(y_true)  # ranx, trec_eval: the qrels' queries; a run without one ranks nothing
    relevant = [{d: r for d, r in y_true[q].items() if r > 0} for q in queries]
    return relevant, {name: _lists(run, queries) for name, run in read.items()}


def _lists(run, queries):
    """A ranx-style run's lists, one per query: by decreasing score, ties by decreasing doc id
    (trec_eval's order); lists pass through."""
    if not isinstance(run, dict):
        return run
    out = []
    for q in queries:
        by_doc = sorted(run.get(q, {}).items(), reverse=True)
        by_score = sorted(by_doc, key=lambda item: -item[1])
        out.append([doc for doc, _ in by_score])
    return out


def _multiplicities(sample_counts, y_true):
    """``sample_counts`` as int64, one non-negative count per row of ``y_true``, not all 0."""
    times = np.asarray(sample_counts)
    one_each = times.ndim == 1 and times.dtype.kind in "iu" and len(times) == len(y_true)
    if not one_each or (times < 0).any() or not times.sum():
        raise ValueError("sample_counts must hold one non-negative integer per sample "
                         f"({len(y_true)}), not all 0")
    return times.astype(np.int64)


def _kinds(specs):
    """What each metric reads ("classes" or "groups"); an option it does not take is refused."""
    kinds = []
    for label, base, options in specs:
        metric = METRICS[base]
        refused = sorted(set(options) - metric.compared)
        if refused:
            takes = sorted(metric.compared) or "none"
            raise ValueError(f"metrics: {label!r}: options {refused} are not taken here; "
                             f"{base} takes {takes}")
        kinds.append(metric.counts)
    return kinds


def _read_models(y, models, kinds, threshold):
    """Each model's validated scores (where used) and predicted labels (where used)."""
    scores, labels = {}, {}
    classes = np.unique(y)
    reads_scores = "groups" in kinds or threshold is not None
    if reads_scores and len(classes) != 2:
        raise ValueError(f"y_true: roc_auc, average_precision and threshold need binary labels, "
                         f"got {len(classes)} classes")
    for name, prediction in models.items():
        key = f"predictions[{name!r}]"
        if reads_scores:
            scores[name] = check_scores(y, prediction, name=key)[0]
        if "classes" not in kinds:
            continue
        if threshold is None:
            labels[name] = _labels_beside(y, prediction, key)
        else:  # at or above it, the larger class: labels of y_true's own
            labels[name] = np.where(scores[name] >= threshold, classes[1], classes[0])
    return scores, labels


def _labels_beside(y, prediction, key):
    """A model's predicted labels, read once, of the length and kind of the read y_true."""
    labels = check_labels(prediction, key)
    check_same_length(**{"y_true": y, key: labels})
    check_same_kind(y, labels, ("y_true", key))
    return labels


def _check_binary_averages(specs, all_labels):
    """As scikit-learn: the binary average needs two classes, one of them pos_label."""
    for label, base, options in specs:
        if "average" not in METRICS[base].compared:  # accuracy and the score metrics
            continue
        pos_label = options.get("pos_label", 1)
        if options.get("average", "binary") != "binary":
            continue
        if len(all_labels) > 2 or pos_label not in all_labels:
            raise ValueError(f"metrics: {label!r} averages 'binary' over labels "
                             f"{all_labels.tolist()}: it needs two classes holding "
                             f"pos_label={pos_label!r}; pass ('{base}', {{'average': 'macro'}}) "
                             "or the pos_label")


def _check_positive_labels(specs, y_classes):
    """As average_precision_score: the class it calls positive must be one of y_true's."""
    for label, base, options in specs:
        pos_label = options.get("pos_label", 1)
        if base == "average_precision" and pos_label not in y_classes:
            raise ValueError(f"metrics: {label!r} calls pos_label={pos_label!r} positive, which "
                             f"is not a label of y_true {y_classes.tolist()}; pass "
                             f"('{base}', {{'pos_label': ...}}) with one of them")


# -- classifiers: joint cells, each model's counts of them, its metrics -------------------


@dataclass(frozen=True)
class _RowTests:
    """What the tests that read rows (not the resamples) are given."""

    n_permutations: int
    random_state: int | np.random.Generator | None
    confidence: float


class _ScoreMetric:
    """A score metric of one model: the class it calls positive and its runs of groups."""

    def __init__(self, metric, view, full, positive):
        self.metric = metric
        self.positive = positive
        pos, neg = view.score_counts(full, positive)
        self.starts = runs(pos[0], neg[0], metric.merge_positives)

    def values(self, view, tally, class_counts):
        pos, neg = view.score_counts(tally, self.positive, self.starts)
        return self.metric.from_groups(pos, neg)


class _LabelMetric:
    """A label metric of one model: the engine's rule over the model's classes."""

    def __init__(self, rule):
        self.rule = rule

    def values(self, view, tally, class_counts):
        return self.rule.values(*class_counts)


class _Classifiers:
    """Classifiers as cells: (actual class, each model's predicted class, each model's score group).

    ``counts[j]`` samples fall in cell j, of stratum ``strata[j]`` (its
    actual class). A resample draws the cells' counts; each model reads its
    own cells (:class:`~evalkit._resample.ModelCounts`: keyed by its score
    group when a score metric is asked for, else by its predicted class)
    and every metric comes from those counts, as the engine's table says.
    """

    def __init__(self, y, scores, labels, specs, kinds, times):
        self.y, self.scores, self.labels, self.specs = y, scores, labels, specs
        self.names = list(scores or labels)
        self.reads_classes = "classes" in kinds
        self.classes = np.unique(np.concatenate([y, *labels.values()]))
        _check_binary_averages(specs, self.classes)
        _check_positive_labels(specs, np.unique(y))
        self.positives = [_positive(y, base, options) for _, base, options in specs]
        columns = [np.searchsorted(self.classes, y)]
        columns += [np.searchsorted(self.classes, lab) for lab in labels.values()]
        if "groups" in kinds:
            columns += [_score_groups(scores[name]) for name in self.names]
        cells, self.counts = joint_cells(columns, times)
        self.strata = cells[:, 0]
        self.views = [self._view(cells, i, "groups" in kinds) for i in range(len(self.names))]
        full = self.counts.astype(np.float64)
        self.full = [view.tally(full, 1) for view in self.views]
        self.metrics = [self._metrics(cells, i) for i in range(len(self.names))]

    def _view(self, cells, i, by_groups):
        """Model i's counts of the cells: keyed by its score group, or by its predicted class."""
        predicted = None
        key = None
        if self.labels:  # every model's labels, or none
            predicted = cells[:, 1 + i]
            key = predicted
        if by_groups:
            key = cells[:, 1 + len(self.labels) + i]
        return ModelCounts(cells[:, 0], key, len(self.classes), predicted=predicted)

    def _metrics(self, cells, i):
        """Model i's metrics, ready for the resampled counts of its cells."""
        view = self.views[i]
        out = []
        for (_, base, options), positive in zip(self.specs, self.positives):
            metric = METRICS[base]
            if metric.counts == "groups":
                column = int(np.searchsorted(self.classes, self.y[positive][0]))
                out.append(_ScoreMetric(metric, view, self.full[i], column))
            else:
                scored = _classes_of(cells[:, 0], view.predicted, len(self.classes))
                out.append(_LabelMetric(label_rule(base, options, self.classes, scored)))
        return out

    def evaluate(self, drawn):
        """Every metric of every model on the resamples ``drawn`` (B, K): (B, models, metrics)."""
        out = np.empty((len(drawn), len(self.views), len(self.specs)))
        weights = drawn.astype(np.float64).ravel()  # bincount's weights, cast once for all
        for i, view in enumerate(self.views):
            tally = view.tally(weights, len(drawn))
            class_counts = None
            if self.reads_classes:
                class_counts = view.class_counts(tally)
            for j, metric in enumerate(self.metrics[i]):
                out[:, i, j] = metric.values(view, tally, class_counts)
        return out

    def row_test(self, test, j, ia, ib, difference, settings):
        """``(p, interval or None)`` of a test that reads the rows: metric j, models ia and ib."""
        a, b = self.names[ia], self.names[ib]
        if test == "permutation":
            return self._permutation(j, a, b, difference, settings), None
        if test == "delong":
            positive = self.positives[j]
            require_two_of_each(positive)
            t = paired_test(positive, self.scores[a], self.scores[b], settings.confidence)
            return t.p_value, (t.low, t.high)  # DeLong's normal interval replaces the bootstrap's
        exact = test == "mcnemar"
        _, _, p = mcnemar(self.labels[a] != self.y, self.labels[b] != self.y, exact, True)
        return p, None

    def _permutation(self, j, a, b, difference, settings):
        """The paired permutation test's p-value of metric j, models a and b."""
        _, base, options = self.specs[j]
        rng = np.random.default_rng(settings.random_state)
        if METRICS[base].counts == "classes":
            self._warn_as_metric(j, a)
            self._warn_as_metric(j, b)
            cells = LabelCells(self.y, [self.labels[a], self.labels[b]])
            rule = label_rule(base, options, cells.classes)
            dist = swap_distribution(rng, cells, rule, settings.n_permutations)
        else:
            value = _score_value(base, self.positives[j])
            difference = value(self.scores[a]) - value(self.scores[b])
            dist = _swapped_scores(rng, value, self.scores[a], self.scores[b],
                                   settings.n_permutations)
        dist, _ = kept(dist, "nan", "permutations")
        return permutation_p(dist, difference)

    def _warn_as_metric(self, j, model):
        """The label metric's own warnings on the data (a 0/0 under zero_division="warn")."""
        i = self.names.index(model)
        counts = self.views[i].class_counts(self.full[i])
        self.metrics[i][j].rule.warn_undefined(*counts)



def _positive(y, base, options):
    """Which samples a score metric calls positive (``positive_of``'s rule), None for a label
    metric: the AUC's is the larger class, average precision's its ``pos_label`` (default 1)."""
    if base == "roc_auc":
        return positive_of(y, larger=True)
    if base == "average_precision":
        return positive_of(y, options.get("pos_label", 1))
    return None


def _score_value(base, positive):
    """The score metric of a model's scores, from their sweep (as the metric computes it)."""
    from_groups = METRICS[base].from_groups

    def value(scores):
        return from_groups(*sweep_of(positive, scores).groups())
    return value


def _score_groups(scores):
    """Each sample's score group, 0 for the highest score."""
    values, inverse = np.unique(scores, return_inverse=True)
    return len(values) - 1 - inverse.reshape(-1)


def _classes_of(actual, predicted, n_classes):
    """The columns of the classes of y_true and a model's predictions (compare scores these)."""
    held = np.isin(np.arange(n_classes), np.r_[actual, predicted])
    return np.flatnonzero(held)


def _swapped_scores(rng, value, a, b, n_permutations):
    """``value(a') - value(b')`` per permutation: each row's pair swapped with probability 1/2."""
    dist = []
    for _ in range(n_permutations):
        swapped = rng.random(len(a)) < 0.5
        dist.append(value(np.where(swapped, b, a)) - value(np.where(swapped, a, b)))
    return np.array(dist)


def _classifiers(y_true, models, specs, threshold, sample_counts, tests):
    """Classifiers: validated once, their joint cells counted (rows repeated for row tests)."""
    times = None
    if sample_counts is not None:
        times = _multiplicities(sample_counts, y_true)
        if set(tests.values()) != {"bootstrap"}:  # the other tests read rows: repeat them
            y_true = np.repeat(np.asarray(y_true), times)
            models = {m: np.repeat(np.asarray(v), times, axis=0) for m, v in models.items()}
            times = None
    kinds = _kinds(specs)
    y = check_labels(y_true, "y_true")
    scores, labels = _read_models(y, models, kinds, threshold)
    return _Classifiers(y, scores, labels, specs, kinds, times)


# -- rankers: each user's metric values, the users resampled -------------------------------


class _Rankers:
    """Rankers: each user's metric values (models, metrics, users); the users are the cells.

    A user where a metric is undefined (nan) is left out of that metric's
    mean; the users form one stratum.
    """

    def __init__(self, values):
        self.values = values
        self.defined = ~np.isnan(values)
        self.filled = np.where(self.defined, values, 0.0)
        users = values.shape[2]
        self.counts = np.ones(users, np.int64)
        self.strata = np.zeros(users)

    def evaluate(self, drawn):
        """Each model's mean of each metric over the resampled users: (B, models, metrics)."""
        total = np.einsum("bu,mqu->bmq", drawn, self.filled)
        users = np.einsum("bu,mqu->bmq", drawn, self.defined)
        return total / users

    def row_test(self, test, j, ia, ib, difference, settings):
        """The permutation test (the rankers' only test that reads rows): a sign-flip test of
        the mean difference on the users defined for both models."""
        both = self.defined[ia, j] & self.defined[ib, j]
        a = self.values[ia, j, both]
        b = self.values[ib, j, both]
        rng = np.random.default_rng(settings.random_state)
        estimate = float(np.mean(a)) - float(np.mean(b))
        dist = sign_flip_distribution(rng, a, b, settings.n_permutations)
        return permutation_p(dist, estimate), None


def _rankers(y_true, models, specs, ranking_options):
    """Rankers: each user's metric values, every model's lists read against one relevance."""
    names = list(models)
    relevant, lists = _ranked_lists(y_true, models)
    bases = [base for _, base, _ in specs]
    options = _ranking_options(ranking_options)
    values = []
    for m in names:
        per_user = evaluate(lists[m], relevant, bases, options, per_user=True)
        values.append([np.asarray(per_user[q], dtype=np.float64) for q in bases])
    return _Rankers(np.stack(values))


def _ranking_options(given):
    """compare's ``**ranking_options``, checked once: the keywords evaluate_ranking takes."""
    takes = inspect.signature(evaluate_ranking).parameters
    for name in given:
        if name not in takes or name in ("ranked", "relevant", "metrics", "per_user"):
            raise TypeError(f"evaluate_ranking() got an unexpected keyword argument {name!r}")
    return check_options(**given)


# -- the one call ----------------------------------------------------------------------


def _tests_of(test, specs, ranking):
    """``{metric label: test name}``; a test given for a metric it does not apply to is refused."""
    given = test
    if not isinstance(test, dict):
        given = {label: test for label, _, _ in specs}
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
    rng = np.random.default_rng(random_state)
    if ranking:
        table = _rankers(y_true, models, specs, ranking_options)
    else:
        table = _classifiers(y_true, models, specs, threshold, sample_counts, tests)
    estimate, dist = _resampled(table, rng, n_resamples, stratify)
    quantiles = [(1 - confidence) / 2, (1 + confidence) / 2]
    skipped = np.isnan(dist).any(axis=(1, 2))
    defined = dist[~skipped]
    if not len(defined):
        raise ValueError("y_true: the metrics are undefined (nan) on every resample: no interval")
    low, high = np.quantile(defined, quantiles, axis=0)
    settings = _RowTests(n_resamples, random_state, confidence)
    pairs = _comparisons(table, specs, list(models), baseline, tests, estimate, defined,
                         quantiles, settings)
    _correct(pairs, correction, alpha)
    labels = tuple(label for label, _, _ in specs)
    return ModelComparison(tuple(models), labels, estimate, low, high, pairs, tests, correction,
                           alpha, confidence, n_resamples, baseline, int(skipped.sum()), dist)


def _resampled(table, rng, n_resamples, stratify):
    """Every metric of every model on all the data and on each resample of the table's cells."""
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimate = table.evaluate(table.counts[None, :])[0]
        blocks = draws(rng, table.counts, table.strata, n_resamples, bool(stratify))
        dist = np.concatenate([table.evaluate(drawn) for drawn in blocks])
    return estimate, dist


def _pairs_of(names, baseline):
    """The compared pairs: each model against the baseline, or every pair."""
    if baseline is not None:
        return [(m, baseline) for m in names if m != baseline]
    pairs = []
    for i, a in enumerate(names):
        pairs += [(a, b) for b in names[i + 1:]]
    return pairs


def _comparisons(table, specs, names, baseline, tests, estimate, defined, quantiles,
                 settings):
    """One dict per comparison: every pair of each metric, in the table's order."""
    pairs = []
    for j, (label, _, _) in enumerate(specs):
        for a, b in _pairs_of(names, baseline):
            ia, ib = names.index(a), names.index(b)
            difference = estimate[ia, j] - estimate[ib, j]
            diffs = defined[:, ia, j] - defined[:, ib, j]
            low, high = (float(x) for x in np.quantile(diffs, quantiles))
            test = tests[label]
            if test == "bootstrap":
                p = bootstrap_p(diffs, difference)
            else:
                p, interval = table.row_test(test, j, ia, ib, difference, settings)
                if interval is not None:
                    low, high = interval
            pairs.append({"metric": label, "model_a": a, "model_b": b,
                          "difference": float(difference), "low": low, "high": high,
                          "p_value": float(p), "test": test})
    return pairs


def _correct(pairs, correction, alpha):
    """Each comparison's p-value adjusted over all of them, and whether it is significant."""
    adjusted = _adjust([p["p_value"] for p in pairs], correction)
    for p, value in zip(pairs, adjusted):
        p["p_adjusted"] = float(value)
        p["significant"] = bool(value < alpha)
