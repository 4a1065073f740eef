"""ROC/PR curves, ROC AUC and the best threshold at 10^7 scores vs scikit-learn.

Targets (issue #3, tightened by issues #16 and #33):

- roc_auc_score >= 10x faster than sklearn, with distinct scores and with
  heavy ties (scores rounded to 3 decimals);
- against one single-threaded np.sort of the scores (the floor of one core:
  any exact AUC must order the scores), on 2 threads: roc_auc_score at most
  1x, roc_curve and precision_recall_curve at most 2x; on 1 thread the rows
  say what one core costs (the "vs np.sort" rows, with "1 thread" or
  "2 threads": ratios measured in the same run);
- roc_curve, precision_recall_curve, confusion_matrix_at_thresholds >= 3x
  faster than sklearn;
- best_threshold over 10^4 distinct scores >= 1000x faster than sklearn's
  metric_at_thresholds(y, s, f1_score) followed by an argmax;
- weighted input may be slower: the "weighted vs unweighted" rows print by
  how much.

scikit-learn takes seconds per call at 10^7, so this file takes a few
minutes; ``python benchmarks/run.py curves --repeat 2`` is quicker.
"""

import functools

import numpy as np
import sklearn.metrics as skm

import evalkit as ek
from _harness import Call, Workload, quiet

N = 10**7


@functools.lru_cache(maxsize=None)
def _data():
    rng = np.random.default_rng(0)
    y = (rng.random(N) < 0.3).astype(np.int64)
    # an informative score: positives tend to score higher
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0.0, 1.0)
    w = rng.random(N) * 2.0
    return y, s, np.round(s, 3), w


def distinct():
    y, s, _, _ = _data()
    return y, s


def ties():
    y, _, s3, _ = _data()
    return y, s3


def weighted():
    y, s, _, w = _data()
    return Call(y, s, sample_weight=w)


def distinct_1e4():
    rng = np.random.default_rng(1)
    y = (rng.random(10**4) < 0.3).astype(np.int64)
    s = rng.permutation(10**4) / 10**4 + 0.3 * y  # 10^4 distinct scores
    return y, s


def np_sort_of_scores(y, s, **_):
    return np.sort(s)


def roc_auc_unweighted(y, s, **_):
    return ek.roc_auc_score(y, s)


def on_threads(fn, n_threads):
    """``fn`` with ``n_threads`` set, named for the table."""
    call = functools.partial(fn, n_threads=n_threads)
    call.__name__ = f"{fn.__name__}(n_threads={n_threads})"
    return call


def against_one_sort(fn, data, target):
    """Two workloads: ``fn`` on 1 and on 2 threads vs one single-threaded np.sort."""
    workloads = []
    for n_threads, words in ((1, "1 thread"), (2, "2 threads")):
        note = f"target at most {target} one np.sort of the scores"
        if n_threads == 1:
            note = "one core: what the threads divide"
        workloads.append(Workload(
            name=f"{fn.__name__} 10^7 {data.__name__} vs np.sort, {words}",
            setup=data,
            evalkit=on_threads(fn, n_threads),
            reference=np_sort_of_scores,
            reference_name="np.sort",
            note=note,
        ))
    return workloads


def sklearn_best_f1(y, s):
    values, thresholds = skm.metric_at_thresholds(y, s, skm.f1_score)
    i = int(np.argmax(values))  # the first maximum: the highest threshold, like evalkit
    return thresholds[i].item(), float(values[i])


def same_number(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)


def same_arrays(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=0)


def same_best(a, b):
    assert a[0] == b[0], (a, b)
    same_number(a[1], b[1])


WORKLOADS = [
    Workload(
        name="roc_auc_score 10^7 distinct",
        setup=distinct,
        evalkit=ek.roc_auc_score,
        reference=skm.roc_auc_score,
        check=same_number,
        note="target >= 10x faster than sklearn",
    ),
    *against_one_sort(ek.roc_auc_score, distinct, "1x"),
    Workload(
        name="roc_auc_score 10^7 ties",
        setup=ties,
        evalkit=ek.roc_auc_score,
        reference=skm.roc_auc_score,
        check=same_number,
        note="scores rounded to 3 decimals (1001 distinct); target >= 10x faster than sklearn",
    ),
    *against_one_sort(ek.roc_auc_score, ties, "1x"),
    Workload(
        name="roc_auc_score 10^7 weighted",
        setup=weighted,
        evalkit=ek.roc_auc_score,
        reference=skm.roc_auc_score,
        check=same_number,
    ),
    Workload(
        name="roc_auc_score 10^7 weighted vs unweighted",
        setup=weighted,
        evalkit=ek.roc_auc_score,
        reference=roc_auc_unweighted,
        reference_name="evalkit unweighted",
        note="how much slower weights make it (stable argsort + the curve's trapezoids)",
    ),
    Workload(
        name="roc_curve 10^7 distinct",
        setup=distinct,
        evalkit=ek.roc_curve,
        reference=skm.roc_curve,
        check=same_arrays,
        note="drop_intermediate=True; target >= 3x faster than sklearn",
    ),
    Workload(
        name="roc_curve 10^7 ties",
        setup=ties,
        evalkit=ek.roc_curve,
        reference=skm.roc_curve,
        check=same_arrays,
    ),
    Workload(
        name="roc_curve 10^7 weighted",
        setup=weighted,
        evalkit=quiet(ek.roc_curve),
        reference=quiet(skm.roc_curve),
        check=same_arrays,
    ),
    *against_one_sort(ek.roc_curve, distinct, "2x"),
    *against_one_sort(ek.roc_curve, ties, "2x"),
    Workload(
        name="precision_recall_curve 10^7 distinct",
        setup=distinct,
        evalkit=ek.precision_recall_curve,
        reference=skm.precision_recall_curve,
        check=same_arrays,
        note="target >= 3x faster than sklearn",
    ),
    Workload(
        name="precision_recall_curve 10^7 ties",
        setup=ties,
        evalkit=ek.precision_recall_curve,
        reference=skm.precision_recall_curve,
        check=same_arrays,
    ),
    *against_one_sort(ek.precision_recall_curve, distinct, "2x"),
    *against_one_sort(ek.precision_recall_curve, ties, "2x"),
    Workload(
        name="precision_recall_curve 10^7 weighted",
        setup=weighted,
        evalkit=ek.precision_recall_curve,
        reference=skm.precision_recall_curve,
        check=same_arrays,
    ),
    Workload(
        name="confusion_matrix_at_thresholds 10^7 distinct",
        setup=distinct,
        evalkit=ek.confusion_matrix_at_thresholds,
        reference=skm.confusion_matrix_at_thresholds,
        check=same_arrays,
        note="target >= 3x faster than sklearn",
    ),
    Workload(
        name="confusion_matrix_at_thresholds 10^7 ties",
        setup=ties,
        evalkit=ek.confusion_matrix_at_thresholds,
        reference=skm.confusion_matrix_at_thresholds,
        check=same_arrays,
    ),
    Workload(
        name="best_threshold f1, 10^4 distinct scores",
        setup=distinct_1e4,
        evalkit=ek.best_threshold,
        reference=sklearn_best_f1,
        reference_name="sklearn metric_at_thresholds(f1_score)+argmax",
        check=same_best,
        note="sklearn 1.9 calls f1_score once per threshold; target >= 1000x faster",
    ),
]
