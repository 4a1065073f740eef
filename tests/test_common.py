"""Properties every public metric must have, checked for all of them at once.

The shape of scikit-learn's ``sklearn/metrics/tests/test_common.py``: one
registry, :data:`METRICS`, lists every public metric, curve and report of
evalkit (and the methods of ``BinaryCounts`` and ``BinaryClassificationMetrics``),
each with the kind of input it takes (:data:`INPUTS`). Each test below then
checks one property for every entry:

* lists, tuples, numpy arrays of every integer, float and bool dtype, and
  pandas Series (categorical, with a non-default index) give the same result;
* the inputs are never modified (they are passed read-only), and no returned
  array shares memory with an input;
* bad options are refused with a TypeError or ValueError whose message starts
  with the option's name;
* every warning points at the caller's line (its filename is this file);
* shuffling the samples, unit weights, integer weights vs repeated rows, and
  string vs integer labels leave the result unchanged, where they apply.

HOW TO ADD A METRIC
-------------------
1. If its input is one of the kinds in :data:`INPUTS` ("binary_labels",
   "labels", "binary_scores", "score_matrix", "topk_lists", "curve",
   "score_label_rows", "matrix"), add one line to :data:`METRICS`:

       "my_metric": Case(ek.my_metric, "binary_scores", warns=True),

   The key is the public name (``"name:variant"`` for a second entry of the
   same function, ``"Class.method"`` for a method). ``kwargs`` are fixed
   keywords; ``api`` is the function whose signature lists the options (when
   ``fn`` is a lambda); ``strings`` the extra keywords that make string labels
   ("a" < "b" < "c" for 0 < 1 < 2) mean the same as integers, or ``None`` when
   the result names the labels; ``order=False`` when the sample order may
   change the result; ``warns=True`` when one of the kind's edge cases makes it
   warn (the warning location is then checked for real).
2. A new kind of input (rating errors, recommendation lists, ...): add a
   :class:`Kind` to :data:`INPUTS` -- a ``make(rng, n)`` returning the
   positional arguments as numpy arrays, their ``roles`` (how each may be
   converted), how weights are passed, and a few ``edges`` (degenerate inputs
   that make metrics warn).
3. Bad values of an option are listed by option name in :data:`BAD_OPTIONS`;
   every option with a bool default is checked automatically.
4. ``test_registry_covers_every_public_metric`` fails until the new public
   name is registered (or, if it is no metric, listed in :data:`NOT_METRICS`).
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import warnings
from functools import partial

import numpy as np
import pytest

import evalkit as ek
from evalkit.course.definitions import roc_auc_pairs, roc_auc_rank

N = 40

# -- input kinds ------------------------------------------------------------------
#
# roles: "labels"  1-D class labels (0, 1[, 2]); converted to every dtype, to
#                  strings, to categorical Series;
#        "scores"  1-D scores, integers 0..8 (exact in every dtype);
#        "real"    1-D real values (curve coordinates; float dtypes only);
#        "matrix"  2-D numbers (integers 0..8) or labels, converted as a whole;
#        "rows"    2-D (score, label) rows.


@dataclasses.dataclass
class Kind:
    make: object                    # make(rng, n) -> tuple of numpy arrays (the positional args)
    roles: tuple                    # one role per positional argument
    weights: str | None = "sample_weight"   # "sample_weight", "column" (a third column) or None
    edges: tuple = ()               # degenerate positional args that make metrics warn
    binary: bool = True             # labels take two values (bool conversion applies)


def _binary_labels(rng, n):
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    p = np.where(rng.random(n) < 0.7, y, 1 - y)
    p[2:4] = [0, 1]
    return y, p


def _labels(rng, n):
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))
    p[3:6] = [0, 1, 2]
    return y, p


def _binary_scores(rng, n):
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.clip(rng.integers(0, 7, n) + 2 * y, 0, 8).astype(np.float64)
    return y, s


def _score_matrix(rng, n):
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    s = rng.integers(0, 9, (n, 3)).astype(np.float64)
    return y, s


def _topk_lists(rng, n):
    y = rng.integers(0, 3, n)
    y[:3] = [0, 1, 2]
    top = np.stack([rng.permutation(3) for _ in range(n)])
    return y, top


def _curve(rng, n):
    x = np.sort(rng.integers(0, 50, n)).astype(np.float64) / 8
    return x, rng.integers(0, 9, n).astype(np.float64) / 8


def _binary_probs(rng, n):
    y, s = _binary_scores(rng, n)
    return y, s / 8  # multiples of 1/8 in [0, 1]: exact in float32 and float64


def _ratings(rng, n):
    y = rng.integers(1, 6, n)
    return y, np.clip(y + rng.integers(-2, 3, n), 1, 5)


def _paired_scores(rng, n):
    y, s = _binary_scores(rng, n)
    return y, s, np.clip(s + rng.integers(-2, 3, n), 0, 8)


def _paired_labels(rng, n):
    y, a = _labels(rng, n)
    return y, a, np.where(rng.random(n) < 0.6, y, rng.integers(0, 3, n))


def _ranking(rng, n):
    ranked = np.stack([rng.permutation(10)[:5] for _ in range(n)])
    relevant = np.stack([rng.permutation(10)[:2] for _ in range(n)])
    return ranked, relevant


def _one_list(rng, n):
    return rng.permutation(n), rng.permutation(n)[:5]


def _graded(rng, n):
    return rng.integers(0, 3, (n, 5)), rng.integers(0, 9, (n, 5)).astype(np.float64)


def _rows(rng, n):
    y, s = _binary_scores(rng, n)
    return (np.column_stack([s, y]).astype(np.float64),)


def _label_rows(rng, n):
    y, p = _labels(rng, n)
    return (np.column_stack([p, y]).astype(np.float64),)


def _matrix(rng, n):
    return (rng.integers(0, 9, (n, 3)).astype(np.float64),)


def _indicators(rng, n):
    y = rng.integers(0, 2, (n, 3))
    return y, np.where(rng.random((n, 3)) < 0.7, y, 1 - y)


INPUTS = {
    "binary_labels": Kind(_binary_labels, ("labels", "labels"), edges=(
        (np.zeros(6, int), np.zeros(6, int)),          # nothing predicted positive, no positives
        (np.array([0, 0, 1, 1, 0, 1]), np.zeros(6, int)),  # nothing predicted positive
        (np.zeros(6, int), np.array([0, 1, 1, 0, 0, 1])),  # no positives
    )),
    "labels": Kind(_labels, ("labels", "labels"), binary=False, edges=(
        (np.array([0, 0, 1, 1, 2, 2]), np.array([0, 0, 0, 1, 1, 1])),  # class 2 never predicted
        (np.array([0, 0, 0, 1, 1, 1]), np.array([0, 1, 2, 0, 1, 2])),  # class 2 has no samples
        (np.zeros(6, int), np.zeros(6, int)),          # a single label
    )),
    "binary_scores": Kind(_binary_scores, ("labels", "scores"), edges=(
        (np.zeros(6, int), np.arange(6.0)),            # no positives
        (np.ones(6, int), np.arange(6.0)),             # no negatives
    )),
    "score_matrix": Kind(_score_matrix, ("labels", "matrix"), binary=False, edges=(
        (np.array([0, 1, 2, 0]), np.eye(3)[[0, 1, 2, 1]]),
    )),
    "topk_lists": Kind(_topk_lists, ("labels", "matrix"), weights=None, binary=False, edges=(
        (np.array([0, 0, 1, 1]), np.array([[0, 1], [0, 1], [0, 1], [0, 1]])),
    )),
    "curve": Kind(_curve, ("real", "real"), weights=None),
    "ratings": Kind(_ratings, ("scores", "scores"), binary=False),
    "binary_probs": Kind(_binary_probs, ("labels", "real"), edges=(
        (np.zeros(6, int), np.linspace(0, 1, 6)),  # one class only
    )),
    # one user per row: 5 ranked item ids, 2 relevant ones
    "ranking": Kind(_ranking, ("matrix", "matrix"), weights=None, binary=False),
    # one user's ranked list of item ids and the user's relevant ids
    "one_list": Kind(_one_list, ("scores", "scores"), weights=None, binary=False),
    # one query per row: graded relevance and scores of 5 documents (sklearn's ndcg_score)
    "graded": Kind(_graded, ("matrix", "matrix"), binary=False),
    "paired_scores": Kind(_paired_scores, ("labels", "scores", "scores"), weights=None, edges=(
        (np.zeros(6, int), np.arange(6.0), np.arange(6.0)),
    )),
    "paired_labels": Kind(_paired_labels, ("labels", "labels", "labels"), weights=None, binary=False,
                          edges=((np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]), np.array([0, 1, 0, 0])),)),
    "score_label_rows": Kind(_rows, ("rows",), weights="column", edges=(
        (np.column_stack([np.arange(6.0), np.zeros(6)]),),   # no positives
        (np.column_stack([np.arange(6.0), np.ones(6)]),),    # no negatives
    )),
    "matrix": Kind(_matrix, ("matrix",), weights=None),
    "label_rows": Kind(_label_rows, ("rows",), weights="column", binary=False),
    # multilabel indicator matrices (n x 3 of 0/1): y_true, y_pred
    "indicators": Kind(_indicators, ("matrix", "matrix"), binary=False),
}


# -- the registry -------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    fn: object                      # called as fn(*positional data, **kwargs)
    inputs: str                     # a key of INPUTS
    kwargs: dict = dataclasses.field(default_factory=dict)
    api: object = None              # whose signature lists the options (default: fn)
    strings: dict | None = dataclasses.field(default_factory=dict)  # extra kwargs for string labels
    order: bool = True              # result independent of the sample order
    weights: bool = True            # check unit weights and integer weights (if it takes them)
    float32_rounds: bool = False    # computes in float32 for float32 input (as scikit-learn)
    pandas: bool = True             # check pandas Series / DataFrame input
    warns: bool = False             # some edge case of the kind makes it warn
    edge_kwargs: dict = dataclasses.field(default_factory=dict)  # extra kwargs for the edges
    edges: tuple | None = None      # the case's own edge inputs (default: the kind's)

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **{**self.kwargs, **kwargs})

    def options(self):
        target = self.api or self.fn
        while isinstance(target, partial):
            target = target.func
        return inspect.signature(target).parameters


def _counts(method, **fixed):
    """A BinaryCounts method, registered on the labels it is counted from."""
    def call(y_true, y_pred, **kw):
        counting = {k: kw.pop(k) for k in ("sample_weight", "pos_label") if k in kw}
        return getattr(ek.binary_counts(y_true, y_pred, **counting), method)(**{**fixed, **kw})
    call.takes_weights = True
    return call


def _around(wrapper, metric, **fixed):
    """An evalkit.uncertainty wrapper around one metric; its options are the wrapper's own."""
    def call(*args, **kw):
        return wrapper(metric, *args, **{**fixed, **kw})
    sig = inspect.signature(wrapper)
    call.__signature__ = sig.replace(
        parameters=[p for p in sig.parameters.values() if p.name != "metric"])
    return call


def _compared(result):
    """A ModelComparison's numbers: values, interval ends, differences and p-values."""
    return np.r_[result.values.ravel(), result.low.ravel(), result.high.ravel(),
                 [p["difference"] for p in result.pairs], [p["p_adjusted"] for p in result.pairs]]


def _bcm(method, *args):
    """A BinaryClassificationMetrics method, registered on the rows it is built from."""
    def call(rows, **kw):
        options = {k: kw.pop(k) for k in ("num_bins", "bin_threshold", "convention",
                                          "num_partitions", "zero_weight") if k in kw}
        return _value(getattr(ek.BinaryClassificationMetrics(rows, **options), method), *args, **kw)
    return call


def _value(member, *args, **kw):
    """A method's result, or a property's value (PySpark's areaUnderROC, accuracy, ...)."""
    return member(*args, **kw) if callable(member) else member


def _rm(method, *args):
    """A RankingMetrics method, registered on (prediction, labels) rows of two matrices."""
    def call(ranked, relevant, **kw):
        rows = list(zip(np.asarray(ranked), np.asarray(relevant)))
        return _value(getattr(ek.RankingMetrics(rows, **kw), method), *args)
    return call


def _mcm(method, *args):
    """A MulticlassMetrics method, registered on the (prediction, label) rows."""
    def call(rows):
        value = _value(getattr(ek.MulticlassMetrics(rows), method), *args)
        return value.toArray() if hasattr(value, "toArray") else value  # a PySpark-style Matrix
    return call


def _rgm(prop):
    """A RegressionMetrics property, registered on (prediction, observation[, weight]) rows."""
    def call(rows, **kw):
        return getattr(ek.RegressionMetrics(rows, **kw), prop)
    return call


def _topk_scores(fn):
    return lambda y_true, y_score, **kw: fn(y_true, y_score=y_score, **kw)


_BCM = ek.BinaryClassificationMetrics
_POS_B = {"pos_label": "b"}

METRICS = {
    # labels -> counts -> ratios (evalkit.classification, evalkit._binary)
    "accuracy_score": Case(ek.accuracy_score, "labels"),
    "confusion_matrix": Case(ek.confusion_matrix, "labels", warns=True),
    "confusion_matrix:normalize": Case(ek.confusion_matrix, "labels", {"normalize": "true"}),
    "multilabel_confusion_matrix": Case(ek.multilabel_confusion_matrix, "labels"),
    "precision_recall_fscore_support": Case(ek.precision_recall_fscore_support, "labels",
                                            warns=True),
    "precision_recall_fscore_support:binary": Case(
        ek.precision_recall_fscore_support, "binary_labels", {"average": "binary"},
        strings=_POS_B, warns=True),
    "precision_score": Case(ek.precision_score, "binary_labels", strings=_POS_B, warns=True),
    "precision_score:macro": Case(ek.precision_score, "labels", {"average": "macro"}, warns=True),
    "recall_score": Case(ek.recall_score, "binary_labels", strings=_POS_B, warns=True),
    "recall_score:weighted": Case(ek.recall_score, "labels", {"average": "weighted"}, warns=True),
    "f1_score": Case(ek.f1_score, "binary_labels", strings=_POS_B, warns=True),
    "f1_score:micro": Case(ek.f1_score, "labels", {"average": "micro"}),
    "fbeta_score": Case(ek.fbeta_score, "binary_labels", {"beta": 2.0}, strings=_POS_B,
                        warns=True),
    "macro_f1": Case(ek.macro_f1, "labels", warns=True, edge_kwargs={"labels": [0, 1, 2, 3]}),
    "macro_f1:f1_of_means": Case(ek.macro_f1, "labels", {"definition": "f1_of_means"},
                                 warns=True, edge_kwargs={"labels": [0, 1, 2, 3]}),
    "binary_counts": Case(ek.binary_counts, "binary_labels", strings=_POS_B),
    "balanced_accuracy_score": Case(ek.balanced_accuracy_score, "labels", warns=True),
    "balanced_accuracy_score:adjusted": Case(ek.balanced_accuracy_score, "labels",
                                             {"adjusted": True}, warns=True),
    "matthews_corrcoef": Case(ek.matthews_corrcoef, "labels"),
    "cohen_kappa_score": Case(ek.cohen_kappa_score, "labels", warns=True),
    "cohen_kappa_score:quadratic": Case(ek.cohen_kappa_score, "labels", {"weights": "quadratic"},
                                        warns=True),
    "jaccard_score": Case(ek.jaccard_score, "binary_labels", strings=_POS_B, warns=True),
    "jaccard_score:macro": Case(ek.jaccard_score, "labels", {"average": "macro"}),
    "jaccard_score:samples": Case(ek.jaccard_score, "indicators", {"average": "samples"}),
    "hamming_loss": Case(ek.hamming_loss, "labels"),
    "hamming_loss:multilabel": Case(ek.hamming_loss, "indicators"),
    "zero_one_loss": Case(ek.zero_one_loss, "labels"),
    "zero_one_loss:count": Case(ek.zero_one_loss, "labels", {"normalize": False}),
    "zero_one_loss:multilabel": Case(ek.zero_one_loss, "indicators"),
    "class_likelihood_ratios": Case(ek.class_likelihood_ratios, "binary_labels", warns=True),
    "BinaryCounts.accuracy": Case(_counts("accuracy"), "binary_labels", api=ek.BinaryCounts.accuracy,
                                  strings=None),
    "BinaryCounts.precision": Case(_counts("precision"), "binary_labels",
                                   api=ek.BinaryCounts.precision, strings=None, warns=True),
    "BinaryCounts.recall": Case(_counts("recall"), "binary_labels", api=ek.BinaryCounts.recall,
                                strings=None, warns=True),
    "BinaryCounts.fpr": Case(_counts("fpr"), "binary_labels", api=ek.BinaryCounts.fpr,
                             strings=None),
    "BinaryCounts.tnr": Case(_counts("tnr"), "binary_labels", api=ek.BinaryCounts.tnr,
                             strings=None),
    "BinaryCounts.f_beta": Case(_counts("f_beta", beta=2.0), "binary_labels",
                                api=ek.BinaryCounts.f_beta, strings=None, warns=True),
    # beta=0 is precision, and like fbeta_score(beta=0) it never warns
    "BinaryCounts.f_beta:0": Case(_counts("f_beta", beta=0.0), "binary_labels",
                                  api=ek.BinaryCounts.f_beta, strings=None),
    "BinaryCounts.f1": Case(_counts("f1"), "binary_labels", api=ek.BinaryCounts.f1,
                            strings=None, warns=True),
    "BinaryCounts.matrix": Case(_counts("matrix"), "binary_labels", api=ek.BinaryCounts.matrix,
                                strings=None),
    "BinaryCounts.table": Case(_counts("table"), "binary_labels", api=ek.BinaryCounts.table,
                               strings=None),
    # reports (evalkit.report, evalkit.topk); row names are the labels: strings=None
    # (the text prints weighted support as a float, "40.0", as scikit-learn: weights=False)
    "classification_report": Case(ek.classification_report, "labels", strings=None,
                                  weights=False, warns=True),
    "classification_report:dict": Case(ek.classification_report, "labels",
                                       {"output_dict": True}, strings=None),
    # scores -> sweep -> curves and areas (evalkit.curves)
    "confusion_matrix_at_thresholds": Case(ek.confusion_matrix_at_thresholds, "binary_scores",
                                           strings=_POS_B),
    "roc_curve": Case(ek.roc_curve, "binary_scores", strings=_POS_B, warns=True),
    "roc_curve:all": Case(ek.roc_curve, "binary_scores", {"drop_intermediate": False},
                          strings=_POS_B),
    "roc_auc_score": Case(ek.roc_auc_score, "binary_scores", warns=True),
    "roc_auc_score:max_fpr": Case(ek.roc_auc_score, "binary_scores", {"max_fpr": 0.5}),
    "precision_recall_curve": Case(ek.precision_recall_curve, "binary_scores", strings=_POS_B,
                                   warns=True),
    "average_precision_score": Case(ek.average_precision_score, "binary_scores",
                                    strings=_POS_B, warns=True),
    # the course's own AUC definitions (evalkit.course.definitions), held to the same properties
    "roc_auc_rank": Case(roc_auc_rank, "binary_scores", strings=_POS_B, warns=True),
    "roc_auc_pairs": Case(roc_auc_pairs, "binary_scores", strings=_POS_B, warns=True),
    "best_threshold": Case(ek.best_threshold, "binary_scores", strings=_POS_B),
    "threshold_table": Case(ek.threshold_table, "binary_scores", strings=_POS_B),
    "auc": Case(ek.auc, "curve", order=False),  # x must stay monotonic
    "det_curve": Case(ek.det_curve, "binary_scores", strings=_POS_B),
    "det_curve:drop": Case(ek.det_curve, "binary_scores", {"drop_intermediate": True},
                           strings=_POS_B),
    # top-k (evalkit.topk)
    "top_k_accuracy_score": Case(ek.top_k_accuracy_score, "score_matrix", warns=True,
                                 edge_kwargs={"k": 3}),
    "top_k_labels": Case(ek.top_k_labels, "matrix", {"k": 2}, order=False),  # one row per row
    "precision_recall_fscore_at_k": Case(ek.precision_recall_fscore_at_k, "topk_lists",
                                         {"k": 2}),
    "precision_recall_fscore_at_k:y_score": Case(
        _topk_scores(ek.precision_recall_fscore_at_k), "score_matrix", {"k": 2},
        api=ek.precision_recall_fscore_at_k, strings={"labels": ["a", "b", "c"]}),
    "topk_report": Case(ek.topk_report, "topk_lists", {"k": 2}, strings=None),
    "topk_report:y_score": Case(_topk_scores(ek.topk_report), "score_matrix", {"k": 2},
                                api=ek.topk_report, strings=None),
    # rating errors (evalkit.regression)
    "mean_absolute_error": Case(ek.mean_absolute_error, "ratings", float32_rounds=True),
    "mean_squared_error": Case(ek.mean_squared_error, "ratings", float32_rounds=True),
    "root_mean_squared_error": Case(ek.root_mean_squared_error, "ratings", float32_rounds=True),
    "normalized_mean_absolute_error": Case(ek.normalized_mean_absolute_error, "ratings",
                                           {"rating_range": (1, 5)}, float32_rounds=True),
    "r2_score": Case(ek.r2_score, "ratings", float32_rounds=True),
    "r2_score:variance_weighted": Case(ek.r2_score, "ratings", {"multioutput": "variance_weighted"},
                                       float32_rounds=True),
    "explained_variance_score": Case(ek.explained_variance_score, "ratings", float32_rounds=True),
    "mean_absolute_percentage_error": Case(ek.mean_absolute_percentage_error, "ratings",
                                           float32_rounds=True),
    "median_absolute_error": Case(ek.median_absolute_error, "ratings", float32_rounds=True),
    # calibration (evalkit.calibration)
    "brier_score_loss": Case(ek.brier_score_loss, "binary_probs", strings=_POS_B,
                             float32_rounds=True),
    "log_loss": Case(ek.log_loss, "binary_probs", float32_rounds=True),
    "calibration_curve": Case(ek.calibration_curve, "binary_probs", strings=_POS_B,
                              float32_rounds=True),
    "expected_calibration_error": Case(ek.expected_calibration_error, "binary_probs",
                                       strings=_POS_B, float32_rounds=True),
    "maximum_calibration_error": Case(ek.maximum_calibration_error, "binary_probs",
                                      strings=_POS_B, float32_rounds=True),
    # uncertainty (evalkit.uncertainty); resampling is seeded
    "roc_auc_ci": Case(ek.roc_auc_ci, "binary_scores", {"random_state": 0}, strings=None),
    "roc_auc_ci:bootstrap": Case(ek.roc_auc_ci, "binary_scores",
                                 {"method": "bootstrap", "n_resamples": 50, "random_state": 0},
                                 strings=None, order=False),
    "delong_test": Case(ek.delong_test, "paired_scores", strings=None),
    "mcnemar_test": Case(ek.mcnemar_test, "paired_labels"),
    "mcnemar_test:chi2": Case(ek.mcnemar_test, "paired_labels", {"exact": False}, warns=True),
    # the wrappers, each around one metric: F1 on the count path, the AUC on the sweep's
    "bootstrap_ci": Case(_around(ek.bootstrap_ci, ek.f1_score, n_resamples=50, random_state=0),
                         "binary_labels", strings=_POS_B, weights=False, warns=True),
    "bootstrap_ci:auc": Case(_around(ek.bootstrap_ci, ek.roc_auc_score, n_resamples=50,
                                      random_state=0),
                             "binary_scores", strings=None, weights=False),
    "paired_bootstrap": Case(_around(ek.paired_bootstrap, ek.roc_auc_score, n_resamples=50,
                                      random_state=0),
                             "paired_scores", strings=None, order=False),
    "permutation_test": Case(_around(ek.permutation_test, ek.roc_auc_score, n_permutations=20,
                                      random_state=0),
                             "paired_scores", strings=None, order=False),
    # several models and metrics at once (evalkit.compare); registered through its numbers
    "compare": Case(lambda y, a, b, **kw: _compared(ek.compare(
        y, {"a": a, "b": b}, ["roc_auc", "average_precision"], n_resamples=50, random_state=0, **kw)),
        "paired_scores", strings=None, order=False, api=ek.compare),
    # recommender lists (evalkit.ranking)
    "precision_at_k": Case(ek.precision_at_k, "ranking", {"k": 3}),
    "recall_at_k": Case(ek.recall_at_k, "ranking", {"k": 3}),
    "mean_average_precision": Case(ek.mean_average_precision, "ranking"),
    "average_precision": Case(ek.average_precision, "one_list", order=False),  # ranks matter
    "dcg_at_k": Case(ek.dcg_at_k, "ranking", {"k": 3}),
    "ndcg_at_k": Case(ek.ndcg_at_k, "ranking", {"k": 3}),
    "mean_reciprocal_rank": Case(ek.mean_reciprocal_rank, "ranking"),
    "hit_rate_at_k": Case(ek.hit_rate_at_k, "ranking", {"k": 3}),
    "arhr_at_k": Case(ek.arhr_at_k, "ranking", {"k": 3}),
    "r_precision": Case(ek.r_precision, "ranking"),
    "interpolated_precision": Case(ek.interpolated_precision, "ranking", {"recall_level": 0.5}),
    "interpolated_average_precision": Case(ek.interpolated_average_precision, "ranking"),
    # several metrics by name from one hit search; registered through one of its values
    "evaluate_ranking": Case(lambda ranked, relevant, **kw: ek.evaluate_ranking(
        ranked, relevant, ["ndcg@3", "map"], **kw)["ndcg@3"], "ranking", api=ek.evaluate_ranking),
    # the per-user hits: one RankingHits, users in input order
    "ranking_hits": Case(ek.ranking_hits, "ranking", order=False),
    "catalog_coverage": Case(lambda ranked, **kw: ek.catalog_coverage(ranked, np.arange(9), **kw),
                             "matrix", api=ek.catalog_coverage),
    "distributional_coverage": Case(ek.distributional_coverage, "matrix"),
    "gini_index": Case(ek.gini_index, "matrix"),
    "dcg_score": Case(ek.dcg_score, "graded"),
    "ndcg_score": Case(ek.ndcg_score, "graded"),
    # the Spark mirror (evalkit.mllib)
    "BinaryClassificationMetrics.thresholds": Case(_bcm("thresholds"), "score_label_rows",
                                                   api=_BCM),
    "BinaryClassificationMetrics.roc": Case(_bcm("roc"), "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.pr": Case(_bcm("pr"), "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.areaUnderROC": Case(_bcm("areaUnderROC"),
                                                       "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.areaUnderPR": Case(_bcm("areaUnderPR"),
                                                      "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.precisionByThreshold": Case(
        _bcm("precisionByThreshold"), "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.recallByThreshold": Case(
        _bcm("recallByThreshold"), "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.fMeasureByThreshold": Case(
        _bcm("fMeasureByThreshold", 2.0), "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.confusions": Case(_bcm("confusions"), "score_label_rows",
                                                   api=_BCM),
    "BinaryClassificationMetrics.cumulativeCounts": Case(_bcm("cumulativeCounts"),
                                                          "score_label_rows", api=_BCM),
    "BinaryClassificationMetrics.binnedCounts": Case(_bcm("binnedCounts"), "score_label_rows",
                                                      api=_BCM),
    "BinaryClassificationMetrics.roc:bins": Case(_bcm("roc"), "score_label_rows",
                                                 {"num_bins": 3}, api=_BCM),
    # partitions are made in input order; a weight column changes the printed steps
    "RankingMetrics.precisionAt": Case(_rm("precisionAt", 3), "ranking", api=ek.RankingMetrics),
    "RankingMetrics.recallAt": Case(_rm("recallAt", 3), "ranking", api=ek.RankingMetrics),
    "RankingMetrics.ndcgAt": Case(_rm("ndcgAt", 3), "ranking", api=ek.RankingMetrics),
    "RankingMetrics.meanAveragePrecision": Case(_rm("meanAveragePrecision"), "ranking",
                                                api=ek.RankingMetrics),
    "RankingMetrics.meanAveragePrecisionAt": Case(_rm("meanAveragePrecisionAt", 2),
                                                  "ranking", api=ek.RankingMetrics),
    "MulticlassMetrics.confusionMatrix": Case(_mcm("confusionMatrix"), "label_rows",
                                              api=ek.MulticlassMetrics),
    "MulticlassMetrics.accuracy": Case(_mcm("accuracy"), "label_rows", api=ek.MulticlassMetrics),
    "MulticlassMetrics.weightedFMeasure": Case(_mcm("weightedFMeasure", 2.0), "label_rows",
                                               api=ek.MulticlassMetrics),
    "MulticlassMetrics.precision": Case(_mcm("precision", 1.0), "label_rows",
                                        api=ek.MulticlassMetrics),
    "MulticlassMetrics.hammingLoss": Case(_mcm("hammingLoss"), "label_rows",
                                           api=ek.MulticlassMetrics),
    "spark_steps": Case(ek.spark_steps, "score_label_rows", order=False, weights=False),
    # Spark's weighted SStot divides by W - Σw²/W: integer weights are not repeated rows
    "RegressionMetrics.r2": Case(_rgm("r2"), "label_rows", api=ek.RegressionMetrics,
                                 weights=False),
    "RegressionMetrics.explainedVariance": Case(_rgm("explainedVariance"), "label_rows",
                                                api=ek.RegressionMetrics),
    "RegressionMetrics.meanAbsoluteError": Case(_rgm("meanAbsoluteError"), "label_rows",
                                                api=ek.RegressionMetrics),
}

#: Public names that are no metric: the warning class, value classes whose
#: methods are registered above, and a formatter (tested in test_mllib).
NOT_METRICS = {"UndefinedMetricWarning", "BinaryCounts", "BinaryClassificationMetrics",
               "SparkSteps", "spark_format",
               # result classes of evalkit.uncertainty and evalkit.ranking, a converter
               "ConfidenceInterval", "Comparison", "RankingHits", "lists_from_frame",
               # evalkit.compare's result class and its TREC file readers
               "ModelComparison", "read_trec_run", "read_trec_qrels",
               # proportion_ci takes two counts, not arrays (tested in test_uncertainty)
               "proportion_ci",
               # rows of label arrays, no input kind here (tested in test_mllib)
               "MultilabelMetrics"}

#: Bad values of each option (by keyword); each must be refused with a
#: TypeError or ValueError whose message starts with the keyword. Options
#: with a bool default get BAD_BOOL.
BAD_BOOL = ["no", 1, None, np.array([True])]
BAD_OPTIONS = {
    "average": ["mean", 1, ["macro"]],
    "zero_division": [0.5, "ignore", None, True],
    "beta": [-1, "2", None, float("nan")],
    "digits": [-1, 2.0, "2", True],
    "k": [0, 1.5, "2", True],
    "ties": ["random", 1, None],
    "warn_for": ["precision", 1, ["precision", "accuracy"]],
    "num_bins": [-1, 1.5, "2", True],
    "bin_threshold": ["middle", 1, None],
    "max_fpr": [0, 1.5, "0.5", float("nan")],
    "multi_class": ["ovx", None],
    "max_pairs": [0, 1.5, True],
    "metric": ["g-mean", 1],
    "definition": ["mean", None],
    "num_partitions": [0, 1.5],
    "input_partitions": [0, 1.5],
    "zero_weight": ["ignore", 1],
    "layout": ["rows", None],
    "pos_label": [[1], {1}],
    # evalkit.ranking's conventions
    "convention": ["lucene", None, 1],
    "denominator": ["k", 1],
    "gain": ["log", 1],
    "ideal": ["best", 1],
    "relevance": ["graded", 1],
    "relevant_in": ["list", 1],
    "undefined": ["never", 1],
    "hit_rate": ["users", 1],
    "recall_hits": ["round", 1],
    "log_base": [1, 0.5, "2", True, float("inf")],
    # cohen_kappa_score, class_likelihood_ratios, r2_score
    "weights": ["cubic", 1],
    "replace_undefined_by": ["nan", 2.0, None],
    "multioutput": ["mean", None],
}
#: Options whose bad values need the option's own default type (confusion_matrix's
#: normalize is a choice, accuracy_score's a bool).
BAD_CHOICE_NORMALIZE = ["rows", True, 1]


def _ids(d):
    return list(d)


CASES = list(METRICS.items())


def _data(case, seed=0, n=N):
    return INPUTS[case.inputs].make(np.random.default_rng(seed), n)


# -- comparing results --------------------------------------------------------------


def _leaves(obj):
    """A result as a flat list of comparable leaves (numbers, arrays, strings)."""
    if obj is None or isinstance(obj, (bool, int, float, str, np.generic)):
        return [obj]
    if isinstance(obj, np.ndarray):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [leaf for item in obj for leaf in _leaves(item)]
    if isinstance(obj, dict):
        return [leaf for key, value in obj.items() for leaf in [str(key), *_leaves(value)]]
    if dataclasses.is_dataclass(obj):
        return [leaf for f in dataclasses.fields(obj) for leaf in _leaves(getattr(obj, f.name))]
    if type(obj).__name__ == "RankingHits":
        return [obj.user, obj.position, obj.gain, obj.n_relevant, obj.n_ranked, obj.ideal, obj.given]
    if type(obj).__name__ == "DataFrame":
        return [obj.to_numpy(), [str(i) for i in obj.index], [str(c) for c in obj.columns]]
    raise TypeError(f"test_common cannot compare a {type(obj).__name__}: teach _leaves")


def assert_same(a, b, exact=True):
    la, lb = _leaves(a), _leaves(b)
    assert len(la) == len(lb), f"results differ in shape: {a!r} vs {b!r}"
    for x, y in zip(la, lb):
        if isinstance(x, str) or isinstance(y, str):
            assert x == y
        elif isinstance(x, list) or isinstance(y, list):
            assert list(x) == list(y)
        elif exact:
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
        else:
            xa, ya = np.asarray(x), np.asarray(y)
            if xa.dtype.kind in "OUS" or ya.dtype.kind in "OUS":
                np.testing.assert_array_equal(xa, ya)
            else:
                np.testing.assert_allclose(xa.astype(float), ya.astype(float), rtol=1e-9,
                                           atol=1e-12)


def _quiet(case, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return case(*args, **kwargs)


# -- conversions by role --------------------------------------------------------------

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float32, np.float64]


def _convert(args, roles, convert):
    return tuple(convert(a, role) for a, role in zip(args, roles))


def _as_list(a, role):
    return a.tolist()


def _as_tuple(a, role):
    return tuple(tuple(row) for row in a.tolist()) if a.ndim == 2 else tuple(a.tolist())


def _dtypes_for(kind):
    dts = INT_DTYPES + FLOAT_DTYPES
    if kind.binary:
        dts = dts + [np.bool_]
    return dts


# -- the properties --------------------------------------------------------------------


def test_registry_covers_every_public_metric():
    registered = {key.split(":")[0].split(".")[0] for key in METRICS}
    missing = set(ek.__all__) - registered - NOT_METRICS
    assert not missing, (f"public names not in tests/test_common.py's METRICS: {sorted(missing)}; "
                         "register them (see HOW TO ADD A METRIC) or list them in NOT_METRICS")
    for key, case in METRICS.items():
        assert case.inputs in INPUTS, f"{key}: unknown input kind {case.inputs!r}"


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_lists_tuples_and_arrays_agree(name, case):
    args = _data(case)
    roles = INPUTS[case.inputs].roles
    expected = _quiet(case, *args)
    assert_same(_quiet(case, *_convert(args, roles, _as_list)), expected)
    assert_same(_quiet(case, *_convert(args, roles, _as_tuple)), expected)


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_every_numeric_dtype_agrees(name, case):
    kind = INPUTS[case.inputs]
    args = _data(case)
    expected = _quiet(case, *args)
    for dtype in _dtypes_for(kind):
        if case.strings is None and dtype in (np.float32, np.float64, np.bool_):
            continue  # row names follow the labels' dtype ("0.0", "False"), as scikit-learn's
        def convert(a, role):
            if role == "real" and dtype not in FLOAT_DTYPES:
                return a
            if role == "rows":
                return a.astype(dtype) if dtype is not np.bool_ else a
            if dtype is np.bool_ and role != "labels":
                return a
            return a.astype(dtype)
        got = _quiet(case, *_convert(args, kind.roles, convert))
        if case.float32_rounds and dtype is np.float32:
            for x, y in zip(_leaves(got), _leaves(expected)):
                np.testing.assert_allclose(x, y, rtol=1e-6)
        else:
            assert_same(got, expected)


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_pandas_series_and_frames_agree(name, case):
    pd = pytest.importorskip("pandas")
    if not case.pandas:
        pytest.skip("pandas input not supported yet (TODO in METRICS)")
    kind = INPUTS[case.inputs]
    args = _data(case)
    expected = _quiet(case, *args)
    def index(a):
        return np.arange(100, 100 + len(a))[::-1]  # a non-default, descending index

    def series(a, role):
        if a.ndim == 2:
            return pd.DataFrame(a, index=index(a))
        return pd.Series(a, index=index(a))

    def categorical(a, role):
        if role == "labels":
            return pd.Series(pd.Categorical(a), index=index(a))
        return series(a, role)

    assert_same(_quiet(case, *_convert(args, kind.roles, series)), expected)
    assert_same(_quiet(case, *_convert(args, kind.roles, categorical)), expected)


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_inputs_are_not_modified_and_results_share_no_memory(name, case):
    kind = INPUTS[case.inputs]
    args = _data(case)
    copies = [a.copy() for a in args]
    for a in args:
        a.setflags(write=False)  # an in-place write raises
    extra = {}
    weights = None
    if kind.weights == "sample_weight" and _takes_weights(case):
        weights = np.arange(1.0, len(args[0]) + 1)
        weights.setflags(write=False)
        extra = {"sample_weight": weights}
    result = _quiet(case, *args, **extra)
    for a, c in zip(args, copies):
        np.testing.assert_array_equal(a, c)
    inputs = list(args) + ([weights] if weights is not None else [])
    for leaf in _leaves(result):
        if isinstance(leaf, np.ndarray):
            for a in inputs:
                assert not np.shares_memory(leaf, a), f"{name} returns a view of its input"


def _bad_options(case):
    params = case.options()
    for option, p in params.items():
        if (p.default is inspect.Parameter.empty and p.kind != p.KEYWORD_ONLY
                and option not in case.kwargs):
            continue  # a positional argument (data, or bootstrap_ci's metric), not an option
        if option == "normalize" and p.default is None:
            yield option, BAD_CHOICE_NORMALIZE
        elif isinstance(p.default, bool):
            yield option, BAD_BOOL
        elif option in BAD_OPTIONS:
            yield option, BAD_OPTIONS[option]


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_bad_options_are_refused_naming_the_option(name, case):
    args = _data(case)
    checked = 0
    for option, bad_values in _bad_options(case):
        for bad in bad_values:
            with pytest.raises((TypeError, ValueError)) as info:
                _quiet(case, *args, **{option: bad})
            message = str(info.value)
            assert re.match(rf"{re.escape(option)}\b", message), (
                f"{name}({option}={bad!r}): the message should start with {option!r}: {message}")
            checked += 1
    if not checked:
        pytest.skip(f"{name} has no option to check")


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_warnings_point_at_the_caller(name, case):
    kind = INPUTS[case.inputs]
    located = []
    for args in kind.edges if case.edges is None else case.edges:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                case(*args, **case.edge_kwargs)
            except (ValueError, TypeError):
                continue
        for w in caught:
            assert w.filename == __file__, (
                f"{name} warns {w.category.__name__} ({w.message}) at {w.filename}:{w.lineno}, "
                "not at the caller's line: fix the stacklevel")
            located.append(w)
    if case.warns:
        assert located, f"{name} is registered with warns=True but no edge case warned"


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_sample_order_does_not_matter(name, case):
    if not case.order:
        pytest.skip("the result depends on the sample order by design")
    args = _data(case)
    perm = np.random.default_rng(1).permutation(len(args[0]))
    assert_same(_quiet(case, *[a[perm] for a in args]), _quiet(case, *args), exact=False)


def _takes_weights(case):
    kind = INPUTS[case.inputs]
    if kind.weights == "sample_weight":
        return "sample_weight" in case.options() or getattr(case.fn, "takes_weights", False)
    return kind.weights == "column"


def _weighted(kind, args, w):
    if kind.weights == "column":
        return (np.column_stack([args[0], w]),), {}
    return args, {"sample_weight": w}


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_unit_weights_are_no_weights(name, case):
    kind = INPUTS[case.inputs]
    if not case.weights or not _takes_weights(case):
        pytest.skip("takes no weights")
    args = _data(case)
    wargs, wkw = _weighted(kind, args, np.ones(len(args[0])))
    assert_same(_quiet(case, *wargs, **wkw), _quiet(case, *args), exact=False)


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_integer_weights_are_repeated_samples(name, case):
    kind = INPUTS[case.inputs]
    if not case.weights or not _takes_weights(case):
        pytest.skip("takes no weights")
    args = _data(case)
    w = np.random.default_rng(2).integers(1, 4, len(args[0]))
    wargs, wkw = _weighted(kind, args, w.astype(float))
    repeated = [np.repeat(a, w, axis=0) for a in args]
    assert_same(_quiet(case, *wargs, **wkw), _quiet(case, *repeated), exact=False)


@pytest.mark.parametrize("name, case", CASES, ids=_ids(METRICS))
def test_string_labels_are_integer_labels(name, case):
    kind = INPUTS[case.inputs]
    if case.strings is None or "labels" not in kind.roles:
        pytest.skip("the result names the labels, or there are no labels")
    args = _data(case)
    names = np.array(["a", "b", "c"])

    def to_strings(a, role):
        return names[a] if role == "labels" else a
    if case.inputs == "topk_lists":
        strings = (names[args[0]], names[args[1]])
    else:
        strings = _convert(args, kind.roles, to_strings)
    expected = _quiet(case, *args)
    assert_same(_quiet(case, *strings, **case.strings), expected, exact=False)
    # string labels as pandas hands them over: object-dtype Series
    pd = pytest.importorskip("pandas")
    objects = [pd.Series(a, dtype=object) if a.dtype.kind == "U" and a.ndim == 1 else a
               for a in strings]
    assert_same(_quiet(case, *objects, **case.strings), expected, exact=False)


@pytest.mark.skipif(np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps,
                    reason="longdouble is float64 on this platform")
@pytest.mark.parametrize("name, case", [(k, c) for k, c in CASES if c.inputs == "binary_scores"],
                         ids=[k for k, c in CASES if c.inputs == "binary_scores"])
def test_longdouble_scores_are_not_rounded_into_ties(name, case):
    # scores distinct in longdouble but equal as float64: rounding would tie them all
    # (AUC 0.5 where scikit-learn says 1.0). Any order-only result must equal the
    # result on float64 scores in the same order.
    y, s = _data(case)
    codes = np.unique(s, return_inverse=True)[1].reshape(-1)
    tiny = np.longdouble(1) + codes.astype(np.longdouble) * np.finfo(np.longdouble).eps
    assert len(np.unique(tiny.astype(np.float64))) == 1
    result = _quiet(case, y, tiny)
    if isinstance(result, (tuple, list)) or type(result).__name__ == "DataFrame":
        return  # curves carry the thresholds themselves; their counts are checked below
    assert_same(result, _quiet(case, y, codes.astype(np.float64)), exact=False)


def test_longdouble_counts_at_thresholds_are_exact():
    y = np.array([0, 0, 1, 1])
    tiny = 1 + np.arange(4, dtype=np.longdouble) * np.finfo(np.longdouble).eps
    tns, fps, fns, tps, thr = ek.confusion_matrix_at_thresholds(y, tiny)
    assert tps.tolist() == [1, 2, 2, 2] and fps.tolist() == [0, 0, 1, 2]
    assert thr.dtype == np.longdouble and (thr == tiny[::-1]).all()
    fpr, tpr, _ = ek.roc_curve(y, tiny)
    assert ek.auc(fpr, tpr) == 1.0


def test_longdouble_rows_that_spark_would_round_are_refused():
    tiny = 1 + np.arange(4, dtype=np.longdouble) * np.finfo(np.longdouble).eps
    if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps:
        with pytest.raises(TypeError, match="^scoreAndLabels holds .* cannot hold exactly"):
            ek.BinaryClassificationMetrics(np.column_stack([tiny, [0, 0, 1, 1]]))
    exact = np.array([[0.5, 1], [0.25, 0]], dtype=np.longdouble)  # exact as doubles: accepted
    assert ek.BinaryClassificationMetrics(exact).areaUnderROC == 1.0
