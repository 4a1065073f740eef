"""The resampling engine (``evalkit._resample``) against brute force on random inputs.

* ``joint_cells``: the distinct rows of the code columns and their counts, as ``np.unique``
  of the rows gives them, on each of its three ways (a count table, integer codes, rows);
* ``ModelCounts``: each model's counts of (key, actual class) in a resample, and the class
  and score counts read from them, as counting the resample's rows gives them;
* ``label_rule``: the one rule of the label metrics equals the metric called on the rows of
  the resample, with compare's fixed classes as with the bootstrap's classes per resample;
* the table: every metric compare offers is a row of it, as is every function the bootstrap
  resamples as counts.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import evalkit as ek
from evalkit import uncertainty
from evalkit._resample import METRICS, LabelCells, ModelCounts, joint_cells, label_rule


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sizes", [(2, 3, 2), (200, 300, 500), (2**21, 2**21, 2**21)])
def test_joint_cells_are_the_distinct_rows(seed, sizes):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    columns = [rng.integers(0, size, n) for size in sizes]
    times = None
    if seed % 2:
        times = rng.integers(0, 4, n)  # a row standing for no sample holds no cell
        times[0] = 1
    cells, counts = joint_cells(columns, times)
    rows = np.stack(columns, axis=1)
    if times is not None:
        rows = np.repeat(rows, times, axis=0)
    expect, expect_counts = np.unique(rows, axis=0, return_counts=True)
    np.testing.assert_array_equal(cells, expect)
    np.testing.assert_array_equal(counts, expect_counts)
    assert counts.dtype == np.int64


def _drawn(rng, cells, resamples):
    return rng.integers(0, 5, (resamples, len(cells)))


@pytest.mark.parametrize("seed", range(8))
def test_model_counts_are_the_resampled_rows_counted(seed):
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(2, 5))
    k = int(rng.integers(1, 60))
    actual = rng.integers(0, n_classes, k)
    key = rng.integers(0, int(rng.integers(1, 9)), k)  # a score group, or a predicted class
    predicted_of_key = rng.integers(0, n_classes, key.max() + 1)
    view = ModelCounts(actual, key, n_classes, predicted=predicted_of_key[key])
    drawn = _drawn(rng, actual, 7)
    tally = view.tally(drawn.astype(np.float64).ravel(), len(drawn))
    keys = np.unique(key)
    tp, pred, act = view.class_counts(tally)
    positive = int(rng.integers(0, n_classes))
    pos, neg = view.score_counts(tally, positive)
    for b, row in enumerate(drawn):
        for i, k_ in enumerate(keys):
            for c in range(n_classes):
                assert tally[b, i, c] == row[(key == k_) & (actual == c)].sum()
            assert pos[b, i] == row[(key == k_) & (actual == positive)].sum()
            assert neg[b, i] == row[(key == k_) & (actual != positive)].sum()
        rows_predicted = predicted_of_key[key]
        for c in range(n_classes):
            assert tp[b, c] == row[(actual == c) & (rows_predicted == c)].sum()
            assert pred[b, c] == row[rows_predicted == c].sum()
            assert act[b, c] == row[actual == c].sum()


def test_score_counts_summed_per_run():
    view = ModelCounts(np.array([1, 0, 0, 1, 0]), np.array([0, 0, 1, 2, 3]), 2)
    tally = view.tally(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), 1)
    pos, neg = view.score_counts(tally, 1, starts=np.array([0, 2]))
    assert pos.tolist() == [[1, 4]] and neg.tolist() == [[5, 5]]


LABEL_METRICS = [
    ("precision", ek.precision_score, {}),
    ("recall", ek.recall_score, {"pos_label": 0}),
    ("f1", ek.f1_score, {"average": "macro"}),
    ("f1", ek.f1_score, {"average": "weighted", "zero_division": 1.0}),
    ("precision", ek.precision_score, {"average": "micro"}),
    ("recall", ek.recall_score, {"average": "macro", "zero_division": np.nan}),
    ("accuracy", ek.accuracy_score, {}),
]


@pytest.mark.parametrize("name, metric, options", LABEL_METRICS)
@pytest.mark.parametrize("seed", range(4))
def test_label_rule_with_fixed_classes_is_the_metric_on_those_labels(name, metric, options,
                                                                      seed):
    # compare's way: the classes of y_true and the model, the same in every resample
    rng = np.random.default_rng(seed)
    binary = options.get("average", "binary") == "binary"
    n_classes = 2 if binary else int(rng.integers(3, 5))
    y = rng.integers(0, n_classes, 40)
    yhat = np.where(rng.random(40) < 0.6, y, rng.integers(0, n_classes, 40))
    cells = LabelCells(y, [yhat])
    present = np.flatnonzero(np.isin(np.arange(len(cells.classes)), cells.cells))
    rule = label_rule(name, options, cells.classes, scored=present)
    view = cells.model(0)
    drawn = _drawn(rng, cells.counts, 25)
    drawn = drawn[drawn.sum(axis=1) > 0]
    values = rule.values(*view.class_counts(view.tally(drawn.astype(float).ravel(), len(drawn))))
    fixed = {}  # the binary average scores pos_label's class alone
    if not binary:
        fixed = {"labels": cells.classes[present]}
    for row, value in zip(drawn, values):
        yt = np.repeat(cells.classes[cells.cells[:, 0]], row)
        yp = np.repeat(cells.classes[cells.cells[:, 1]], row)
        expect = quiet(metric, yt, yp, **options, **fixed)
        np.testing.assert_allclose(value, expect, rtol=1e-12, atol=1e-15, equal_nan=True)


def test_every_metric_compare_offers_and_the_bootstrap_counts_is_in_the_table():
    offered = {name for name, metric in METRICS.items() if metric.compared is not None}
    assert offered == {"accuracy", "precision", "recall", "f1", "roc_auc", "average_precision"}
    assert set(uncertainty._NAMES.values()) == set(METRICS)
    for function, name in uncertainty._NAMES.items():
        assert name in function.__name__
        assert METRICS[name].compared is None or METRICS[name].compared <= METRICS[name].options
