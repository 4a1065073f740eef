"""Bootstrap resamples as counts: the one resampling engine of ``uncertainty`` and ``compare``.

A bootstrap resample of n rows only matters through how often each kind of
row (a cell: a confusion-matrix cell, a score group and label, a user) was
drawn, so resamples are drawn as count arrays ``(B, K)`` over the K cells
(:func:`draws`). Each model reads the drawn counts of its own cells
(:class:`ModelCounts`) and every metric is computed from those counts, as
one table keyed by name says (:data:`METRICS`); the label metrics through
one rule (:func:`label_rule`: the binary average, ``zero_division``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._counts import encode_labels, position_of
from ._curves import ap_from_groups, auc_from_groups
from ._ratios import prf, ratio
from .exceptions import warn_at_caller

_CHUNK = 1 << 22  # about this many numbers per block of resamples
_FEW = 64  # a stratum of up to this many cells is drawn as one multinomial; more, row by row


# -- the draws -------------------------------------------------------------------------


def side_by_side(code, size, rows):
    """``rows`` resamples' codes ``0..size-1`` as one array: row b's code c is ``b size + c``."""
    offsets = np.arange(rows) * size
    return (code + offsets[:, None]).ravel()


def tally(code, size, weights):
    """Per resample (row of ``weights``), the weights of each code ``0..size-1``: (B, size)."""
    rows = len(weights)
    flat = side_by_side(code, size, rows)
    counts = np.bincount(flat, weights=weights.ravel(), minlength=rows * size)
    return counts.reshape(rows, size)


def _strata_cells(strata, stratify):
    """The cells of each stratum drawn apart: one group per stratum, or all cells together."""
    if not stratify:
        return [np.arange(len(strata))]
    return [np.flatnonzero(strata == s) for s in np.unique(strata)]


def draw(rng, counts, strata, size, stratify):
    """``size`` bootstrap resamples of the cells, as counts (size, K): the exact ordinary bootstrap.

    Stratified: each stratum's ``n_s`` rows are drawn with replacement from
    its own cells, ``Multinomial(n_s, counts_s / n_s)``; otherwise all ``n``
    rows from all cells. Few cells: one multinomial draw; many (a sweep's
    score groups): rows drawn and counted, faster than a binomial per cell.
    """
    out = np.empty((size, len(counts)), dtype=np.int64)
    for cells in _strata_cells(strata, stratify):
        stratum = counts[cells]
        n = int(stratum.sum())
        if len(cells) <= _FEW:
            out[:, cells] = rng.multinomial(n, stratum / n, size=size)
            continue
        cell_of_row = None  # every cell one row: a drawn row is its cell
        if not (stratum == 1).all():
            cell_of_row = np.repeat(np.arange(len(cells), dtype=np.int32), stratum)
        for row in out:
            drawn = rng.integers(0, n, n, dtype=np.int32)
            if cell_of_row is not None:
                drawn = cell_of_row[drawn]
            row[cells] = np.bincount(drawn, minlength=len(cells))
    return out


def draws(rng, counts, strata, total, stratify):
    """``total`` resamples of the cells (:func:`draw`), in blocks sized by the work of one."""
    per = len(counts)
    if len(counts) > _FEW:  # rows drawn one by one
        per += int(counts.sum())
    for size in chunks(total, per):
        yield draw(rng, counts, strata, size, stratify)


def chunks(total, per):
    """Block sizes for ``total`` resamples of ``per`` numbers each (about ``_CHUNK`` per block)."""
    size = max(1, min(total, _CHUNK // max(per, 1)))
    return [min(size, total - start) for start in range(0, total, size)]


def bootstrap_p(dist, estimate):
    """Two-sided bootstrap p-value of "no difference": ``(1 + #{|d*_b - d̂| >= |d̂|}) / (B + 1)``.

    The resampled differences shifted to mean 0 (Hall & Wilson 1991); a
    relative tolerance of 1e-12 counts a tie as extreme.
    """
    bound = abs(estimate) - 1e-12 * abs(estimate)
    extreme = np.count_nonzero(np.abs(dist - estimate) >= bound)
    return (1 + extreme) / (len(dist) + 1)


def kept(dist, reason, what="resamples"):
    """The values where the metric is defined; the others are counted and warned about."""
    skipped = np.isnan(dist)
    k, n = int(skipped.sum()), len(dist)
    require_defined(k, n, f"every one of the {n} {what} ({reason})")
    if k:
        warn_at_caller(f"{k} of {n} {what} were skipped: the metric is undefined on them "
                       f"({reason}); the other {n - k} are used (see n_skipped)")
    return dist[~skipped], k


def require_defined(n_undefined, n, where):
    """Refuse a metric undefined (nan) on all ``n`` of ``where``: no interval is possible."""
    if n_undefined == n:
        raise ValueError(f"metric is undefined (nan) on {where}: no interval can be computed")


# -- cells and each model's counts of them ---------------------------------------------


def joint_cells(columns, times=None, dims=None):
    """The distinct rows of the code ``columns`` (the cells, sorted) and the samples of each.

    ``columns`` hold non-negative integer codes, one per sample, column i's
    below ``dims[i]`` (None: found); ``times`` how many samples each row
    stands for (None: one). A row of codes is encoded as one integer where
    the codes fit in 62 bits (sorting integers is much faster than sorting
    rows, same order), and counted by a table when that is small. Returns
    ``(cells (K, len(columns)), counts (K,))``, rows standing for no sample
    left out.
    """
    if dims is None:
        dims = [int(column.max()) + 1 for column in columns]
    size = np.prod(dims, dtype=np.float64)
    if size >= 2.0**62:
        rows = np.stack(columns, axis=1)
        cells, inverse = np.unique(rows, axis=0, return_inverse=True)
        return _counted(cells, inverse, times)
    code = np.ravel_multi_index(columns, dims)
    if times is None and size <= 2 * len(code) + 1024:
        counts = np.bincount(code, minlength=int(size))
        distinct = np.flatnonzero(counts)
        cells = np.stack(np.unravel_index(distinct, dims), axis=1)
        return cells, counts[distinct]
    distinct, inverse = np.unique(code, return_inverse=True)
    cells = np.stack(np.unravel_index(distinct, dims), axis=1)
    return _counted(cells, inverse, times)


def _counted(cells, inverse, times):
    counts = np.bincount(inverse.reshape(-1), weights=times, minlength=len(cells))
    held = counts > 0  # rows that stand for no sample (times 0) hold no cell
    return cells[held], counts[held].astype(np.int64)


class ModelCounts:
    """One model's view of the cells: its counts of (key, actual class) in each resample.

    A cell's key is the model's predicted class, or its score group (groups
    by decreasing score) when a score metric reads the model; cell j's code
    is ``key_j * C + actual_j``, the keys numbered by their order. Entry
    ``[b, k, c]`` of :meth:`tally` counts the samples of resample b with the
    k-th key and actual class c; ``predicted[k]`` is the class the k-th key
    predicts (when given).
    """

    def __init__(self, actual, key, n_classes, predicted=None):
        keys, key_of_cell = np.unique(key, return_inverse=True)
        self.n_keys = len(keys)
        self.n_classes = n_classes
        self.code = key_of_cell.reshape(-1) * n_classes + actual
        self.predicted = None
        if predicted is not None:
            self.predicted = np.zeros(len(keys), dtype=np.int64)
            self.predicted[key_of_cell] = predicted
        self._flat = None  # the codes of a block of resamples, kept for the next block

    def tally(self, weights, rows):
        """Counts (rows, keys, classes) of drawn cell counts ``weights`` ((rows, K) flattened).

        ``weights`` are floats (``np.bincount``'s weights; the caller casts
        them once for every model). The codes of each resample, offset side
        by side, are built once per block size: one ``bincount`` is then all
        the work of a block.
        """
        size = self.n_keys * self.n_classes
        if self._flat is None or len(self._flat) != rows * len(self.code):
            self._flat = side_by_side(self.code, size, rows)
        counts = np.bincount(self._flat, weights=weights, minlength=rows * size)
        return counts.astype(np.int64).reshape(rows, self.n_keys, self.n_classes)

    def class_counts(self, tally):
        """tp, predicted and actual per class (B, C), as floats: the label metrics' counts."""
        keys = np.arange(self.n_keys)
        right = tally[:, keys, self.predicted]  # the samples of each key's own class
        onehot = np.eye(self.n_classes)[self.predicted]  # (keys, C)
        tp = right.astype(float) @ onehot
        every_class = np.arange(self.n_classes)
        predicted = _summed(tally, every_class).astype(float) @ onehot
        actual = np.ones(self.n_keys, dtype=np.int64) @ tally  # Σ over the keys
        return tp, predicted, actual.astype(float)

    def score_counts(self, tally, positive, starts=None):
        """Positives and negatives (B, keys) per score group, class ``positive`` the positive one.

        ``starts``: where the runs of groups a metric cannot tell apart
        start (:func:`runs`); their counts are then summed per run.
        """
        pos = tally[:, :, positive]
        others = np.flatnonzero(np.arange(self.n_classes) != positive)
        neg = _summed(tally, others)
        if starts is None:
            return pos, neg
        pos = np.add.reduceat(pos, starts, axis=1)
        neg = np.add.reduceat(neg, starts, axis=1)
        return pos, neg


def _summed(tally, columns):
    """Σ of the class columns ``columns`` of ``tally`` (B, keys, C): (B, keys), exact ints.

    Column by column: numpy's ``sum`` over a short last axis is many times slower.
    """
    out = tally[:, :, columns[0]].copy()
    for c in columns[1:]:
        out += tally[:, :, c]
    return out


class LabelCells:
    """Labels as cells: (actual class, each model's predicted class), sorted, with counts.

    ``classes`` are the labels of y_true and the predictions, sorted; in
    ``cells`` column 0 is a cell's actual class and column 1 + i model i's
    predicted class (codes into ``classes``); ``counts[j]`` samples fall in
    cell j.
    """

    def __init__(self, y, predictions):
        predicted = np.concatenate(predictions)
        self.classes, actual, predicted = encode_labels(y, predicted)
        columns = [actual, *predicted.reshape(len(predictions), -1)]
        dims = [len(self.classes)] * len(columns)
        self.cells, self.counts = joint_cells(columns, dims=dims)
        self.actual = self.cells[:, 0]

    def model(self, i):
        """Model i's :class:`ModelCounts` of these cells (its key: its predicted class)."""
        predicted = self.cells[:, 1 + i]
        return ModelCounts(self.actual, predicted, len(self.classes), predicted=predicted)

    def each_binary(self):
        """Whether each model alone sees at most two classes (its own and y_true's)."""
        out = []
        for predicted in self.cells[:, 1:].T:
            out.append(len(np.union1d(self.actual, predicted)) <= 2)
        return out


def runs(pos, neg, merge_positives):
    """Where the runs of score groups the metric cannot tell apart start.

    Neighbouring groups of negatives only (and, with ``merge_positives`` --
    the AUC -- of positives only) are one run: every sample of a run beats,
    and is beaten by, the same samples of the other class, and AP's steps
    are only at positives. A resample's counts of a run are the sums of its
    groups' (a multinomial's margins) and give the same metric; fewer
    cells, less work per resample (about half as many with distinct scores).
    """
    kind = np.full(len(pos), 2)  # 2: a group that starts a run of its own
    if merge_positives:
        kind[neg == 0] = 1
    kind[pos == 0] = 0
    changes = (kind[1:] != kind[:-1]) | (kind[1:] == 2)
    return np.flatnonzero(np.r_[True, changes])


# -- the metrics, by name --------------------------------------------------------------

_SET_WISE = frozenset({"labels", "pos_label", "average", "zero_division"})
_COMPARED = frozenset({"average", "pos_label", "zero_division"})


@dataclass(frozen=True)
class Metric:
    """How the engine computes one metric from resampled counts: a row of :data:`METRICS`.

    ``counts``: what the metric reads -- ``"classes"`` (tp, predicted and
    actual per class; ``ratio`` says which), ``"groups"`` (positives and
    negatives per score group; ``from_groups`` computes it, and
    ``merge_positives`` says whether neighbouring positive-only groups tie)
    or ``"hits"`` (top-k hits per class). ``options``: the options the
    count path takes (others: the rows are resampled); ``compared``: the
    options :func:`evalkit.compare` takes (None: compare does not offer the
    metric); ``average``: the default average.
    """

    counts: str
    options: frozenset
    compared: frozenset | None = None
    ratio: str = ""
    average: str = "binary"
    from_groups: Callable | None = None
    merge_positives: bool = False


#: The metrics the engine resamples as counts, by name.
METRICS = {
    "accuracy": Metric("classes", frozenset({"normalize"}), frozenset(), ratio="accuracy"),
    "precision": Metric("classes", _SET_WISE, _COMPARED, ratio="precision"),
    "recall": Metric("classes", _SET_WISE, _COMPARED, ratio="recall"),
    "f1": Metric("classes", _SET_WISE, _COMPARED, ratio="f"),
    "fbeta": Metric("classes", _SET_WISE | {"beta"}, ratio="f"),
    "macro_f1": Metric("classes", frozenset({"definition", "labels", "zero_division"}),
                       ratio="f", average="macro"),
    "roc_auc": Metric("groups", frozenset({"average", "multi_class", "max_fpr", "labels"}),
                      frozenset(), from_groups=auc_from_groups, merge_positives=True),
    "average_precision": Metric("groups", frozenset({"average", "pos_label"}),
                                frozenset({"pos_label"}), from_groups=ap_from_groups),
    "top_k_accuracy": Metric("hits", frozenset({"k", "normalize", "labels", "ties"})),
}

_WHICH = {"precision": 0, "recall": 1, "f": 2}  # prf's outputs
_WARN_FOR = {"precision": ("precision",), "recall": ("recall",), "f": ("f-score",)}


@dataclass(frozen=True)
class LabelRule:
    """A label metric from per-class counts ``(B, C)``: one value per resample.

    ``columns`` are the positions of the classes scored (-1: a label the
    data lacks, all its counts 0); with ``per_resample`` only the classes a
    resample holds count in its averages, as the metric called on that
    resample would see them. Precision, recall and F-beta, their averaging
    and ``zero_division`` are :func:`evalkit._ratios.prf`'s, batched over
    the resamples. ``warn``: ``zero_division="warn"``, a 0/0 counts 0.0.
    """

    ratio: str
    columns: np.ndarray
    average: str | None
    zero_division: float
    warn: bool
    per_resample: bool = False
    beta: float = 1.0
    of_means: bool = False
    normalize: bool = True

    def values(self, tp, predicted, actual):
        """The metric on each resample (B,)."""
        values, _ = self.evaluate(tp, predicted, actual, mark=False)
        return values

    def evaluate(self, tp, predicted, actual, mark=True):
        """``(values, ill)``: the metric on each resample (B,), and where a 0/0 counted 0.0.

        ``ill`` marks the resamples where ``zero_division="warn"`` set a
        scored ratio 0/0 to 0.0; None without ``warn`` (or ``mark``).
        """
        if self.ratio == "accuracy":
            return self._accuracy(tp, actual), None
        scored = self._scored(tp, predicted, actual)
        held = self._held(*scored)
        p, r, f = self._ratios(scored, held)
        values = np.reshape((p, r, f)[_WHICH[self.ratio]], -1)
        if not (mark and self.warn):
            return values, None
        ill = self._ill(scored, held)
        if self.of_means:  # the harmonic mean of two zeros
            ill = ill | (p + r == 0)
        return values, ill

    def warn_undefined(self, tp, predicted, actual):
        """Warn as the metric called on these counts warns of a 0/0 it sets to 0.0 (warn)."""
        if not self.warn or self.ratio == "accuracy":
            return
        scored = self._scored(tp, predicted, actual)
        prf(*scored, average=self.average, zero_division="warn", beta=self.beta,
            warn_for=_WARN_FOR[self.ratio])

    def _accuracy(self, tp, actual):
        correct = tp.sum(axis=1)
        if not self.normalize:
            return correct
        return correct / actual.sum(axis=1)

    def _ratios(self, scored, held):
        """Precision, recall and F-beta, averaged (or the one column), each (B,) or (B, 1)."""
        average = self.average
        if self.per_resample and average == "macro":
            average = "samples"  # the mean over the classes each resample holds
        p, r, f, _ = prf(*scored, average=average, zero_division=self.zero_division,
                         weights=held, beta=self.beta, warn_for=())
        if self.of_means:
            f = ratio(2 * p * r, p + r, zero_division=self.zero_division)
        return p, r, f

    def _ill(self, scored, held):
        """The resamples where a ratio the metric reads was 0/0."""
        average = None
        if self.average == "micro":
            average = "micro"
        per_class = prf(*scored, average=average, zero_division=np.nan, beta=self.beta,
                        warn_for=())
        if self.of_means:
            undefined = np.isnan(per_class[:2])
        else:
            which = _WHICH[self.ratio]
            undefined = np.isnan(per_class[which:which + 1])
        if self.average != "micro":  # a class the resample lacks is left out, not 0/0
            undefined = undefined & held
        rows = len(scored[0])
        return undefined.reshape(len(undefined), rows, -1).any(axis=(0, 2))

    def _scored(self, tp, predicted, actual):
        """The counts of the scored columns (0 for a label the data lacks)."""
        present = self.columns >= 0
        at = np.maximum(self.columns, 0)
        return [np.where(present, x[:, at], 0) for x in (tp, predicted, actual)]

    def _held(self, tp, predicted, actual):
        if self.per_resample:
            return actual + predicted > 0
        return np.ones(tp.shape, dtype=bool)


def label_rule(name, options, classes, scored=None):
    """The :class:`LabelRule` of label metric ``name`` and its ``options`` over ``classes``.

    The binary average scores ``pos_label``'s column alone (default 1); a
    ``zero_division="warn"`` counts 0.0 (and the resamples where it did are
    marked). Otherwise ``scored`` are the columns scored in every resample
    (-1: a label the data lacks); None: each resample's own classes.
    """
    metric = METRICS[name]
    zero_division = options.get("zero_division", "warn")
    warn = isinstance(zero_division, str)
    if warn:
        zero_division = 0.0
    average = options.get("average", metric.average)
    columns = scored
    per_resample = False
    if average == "binary":
        pos_label = options.get("pos_label", 1)
        columns = np.array([position_of(pos_label, classes)])
        average = None
    elif columns is None:
        columns = np.arange(len(classes))
        per_resample = True
    return LabelRule(ratio=metric.ratio, columns=columns, average=average,
                     zero_division=zero_division, warn=warn, per_resample=per_resample,
                     beta=float(options.get("beta", 1.0)),
                     of_means=options.get("definition") == "f1_of_means",
                     normalize=options.get("normalize", True))
