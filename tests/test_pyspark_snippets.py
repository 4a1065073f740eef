"""The same PySpark snippets, run on real PySpark and on evalkit's numpy mirror.

NAME MAPPING of evalkit.mllib (old -> new; issue 16 "The Spark mirror speaks PySpark").
The old names stay as aliases until 22:45, then go (evalkit.spark, the notebooks and
tests/test_common.py must switch before).

BinaryClassificationMetrics (PySpark's names and kinds; Scala's for Scala-only methods)
    BinaryClassificationMetrics(score_and_labels, num_bins, pr_first_point=...)
        -> BinaryClassificationMetrics(scoreAndLabels, num_bins, convention=...)
           (convention: "spark" (default, Spark 2.3+) or "legacy" (Spark 1.x-2.2))
    m.pr_first_point                -> m.convention            (attribute)
    m.area_under_roc()              -> m.areaUnderROC          (PROPERTY, as PySpark)
    m.area_under_pr()               -> m.areaUnderPR           (PROPERTY, as PySpark)
    m.precision_by_threshold()      -> m.precisionByThreshold()
    m.recall_by_threshold()         -> m.recallByThreshold()
    m.f_measure_by_threshold(beta)  -> m.fMeasureByThreshold(beta)
    m.binned_counts()               -> m.binnedCounts()
    m.cumulative_counts()           -> m.cumulativeCounts()
    m.thresholds(), m.roc(), m.pr(), m.confusions(), m.sweep, m.from_sweep(...)  unchanged
        (from_sweep(sweep, num_bins, bin_threshold=, pr_first_point=) -> convention=)
    SparkSteps.metrics(pr_first_point=) -> SparkSteps.metrics(convention=)
    spark_steps, SparkSteps (fields, lines()), spark_format   unchanged
    evalkit.spark's subclass: override the PROPERTIES areaUnderROC / areaUnderPR
        (the base's area_under_roc()/area_under_pr() aliases call them until 22:45)

MulticlassMetrics
    MulticlassMetrics(prediction_and_labels) -> MulticlassMetrics(predictionAndLabels)
        (rows of (prediction, label), (prediction, label, weight) or
         (prediction, label, weight, probabilities) as PySpark's)
    m.labels()                          -> m.labels                  (PROPERTY, Scala's val)
    m.confusion_matrix()                -> m.confusionMatrix()       (a Matrix: .toArray())
    m.true_positive_rate(c)             -> m.truePositiveRate(c)
    m.false_positive_rate(c)            -> m.falsePositiveRate(c)
    m.precision(c), m.recall(c)         unchanged
    m.f_measure(c, beta=1.0)            -> m.fMeasure(c, beta=None)
    m.accuracy()                        -> m.accuracy                (PROPERTY)
    m.hamming_loss()                    -> m.hammingLoss             (PROPERTY, Scala's val)
    m.weighted_true_positive_rate()     -> m.weightedTruePositiveRate  (PROPERTY)
    m.weighted_false_positive_rate()    -> m.weightedFalsePositiveRate (PROPERTY)
    m.weighted_recall()                 -> m.weightedRecall          (PROPERTY)
    m.weighted_precision()              -> m.weightedPrecision       (PROPERTY)
    m.weighted_f_measure(beta=1.0)      -> m.weightedFMeasure(beta=None)  (method, as PySpark)
    new: m.logLoss(eps=1e-15)           (method, as PySpark; needs the probabilities column)

RankingMetrics (the ranking helper's): precision_at -> precisionAt, recall_at -> recallAt,
    mean_average_precision() -> meanAveragePrecision (PROPERTY),
    mean_average_precision_at -> meanAveragePrecisionAt, ndcg_at -> ndcgAt

evalkit.regression / core
    normalized_mean_absolute_error(..., groups=, per_group=) -> (..., users=, per_user=)
    evalkit.regression._errors_from_sums -> evalkit._errors.errors_from_sums
        (alias kept in regression.py until evalkit.spark switches)
"""

from __future__ import annotations  # noqa: E402  (after the mapping, which other helpers read)

import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import evalkit.mllib as mirror  # noqa: E402

# -- the snippets: PySpark's documentation style, unchanged on both sides ---------------------

BINARY = """
metrics = BinaryClassificationMetrics(scoreAndLabels)
result = [metrics.areaUnderROC, metrics.areaUnderPR]
"""

MULTICLASS = """
metrics = MulticlassMetrics(predictionAndLabels)
result = [metrics.confusionMatrix().toArray(), metrics.accuracy,
          metrics.weightedTruePositiveRate, metrics.weightedFalsePositiveRate,
          metrics.weightedRecall, metrics.weightedPrecision,
          metrics.weightedFMeasure(), metrics.weightedFMeasure(2.0)]
for label in [0.0, 1.0, 2.0]:
    result += [metrics.truePositiveRate(label), metrics.falsePositiveRate(label),
               metrics.precision(label), metrics.recall(label),
               metrics.fMeasure(label), metrics.fMeasure(label, 0.5)]
"""

LOG_LOSS = """
metrics = MulticlassMetrics(predictionAndLabels)
result = [metrics.logLoss(), metrics.logLoss(0.1), metrics.accuracy]
"""

RANKING = """
metrics = RankingMetrics(predictionAndLabels)
result = [metrics.meanAveragePrecision]
for k in [1, 2, 3, 5, 10, 15]:
    result += [metrics.precisionAt(k), metrics.recallAt(k),
               metrics.meanAveragePrecisionAt(k), metrics.ndcgAt(k)]
"""


def _binary_rows(seed, weighted=False):
    rng = np.random.default_rng(seed)
    s = np.round(rng.random(150), 2)                       # ties
    y = (rng.random(150) < s).astype(float)
    cols = [s, y] + ([np.round(rng.random(150) * 3, 2)] if weighted else [])
    return [tuple(map(float, r)) for r in np.column_stack(cols)]


def _multiclass_rows(seed, weighted=False, probabilities=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 120).astype(float)
    pred = np.where(rng.random(120) < 0.6, y, rng.integers(0, 4, 120)).astype(float)  # 3: never a label
    rows = [(float(p), float(t)) for p, t in zip(pred, y)]
    if weighted or probabilities:
        w = np.round(rng.random(120) * 2, 2) if weighted else np.ones(120)
        rows = [r + (float(v),) for r, v in zip(rows, w)]
    if probabilities:
        proba = rng.dirichlet(np.ones(3), 120)
        proba[:5, 0] = 0.0                                  # a zero probability: eps clips it
        rows = [r + (list(map(float, q)),) for r, q in zip(rows, proba)]
    return rows


def _ranking_rows(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(40):
        ranked = [int(v) for v in rng.permutation(30)[:int(rng.integers(0, 12))]]
        labels = [int(v) for v in rng.choice(30, int(rng.integers(0, 6)), replace=False)]
        rows.append((ranked, labels))
    rows.append(([1, 2, 3], [4, 5]))                       # no hit at all
    return rows


# PySpark's docstring examples, with the numbers its doctests print (prefixes, as "0.70...")
DOC_BINARY = [(0.1, 0.0), (0.1, 1.0), (0.4, 0.0), (0.6, 0.0), (0.6, 1.0), (0.6, 1.0), (0.8, 1.0)]
DOC_BINARY_W = [(0.1, 0.0, 1.0), (0.1, 1.0, 0.4), (0.4, 0.0, 0.2), (0.6, 0.0, 0.6), (0.6, 1.0, 0.9),
                (0.6, 1.0, 0.5), (0.8, 1.0, 0.7)]
DOC_MULTICLASS = [(0.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0),
                  (2.0, 2.0), (2.0, 0.0)]
DOC_LOG_LOSS = [(1.0, 1.0, 1.0, [0.1, 0.8, 0.1]), (0.0, 2.0, 1.0, [0.9, 0.05, 0.05]),
                (0.0, 0.0, 1.0, [0.8, 0.2, 0.0]), (1.0, 1.0, 1.0, [0.3, 0.65, 0.05])]
DOC_RANKING = [([1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [1, 2, 3, 4, 5]),
               ([4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3]), ([1, 2, 3, 4, 5], [])]

CASES = {
    "binary-doc": (BINARY, "scoreAndLabels", DOC_BINARY),
    "binary-doc-weighted": (BINARY, "scoreAndLabels", DOC_BINARY_W),
    "binary-random": (BINARY, "scoreAndLabels", _binary_rows(1)),
    "binary-random-weighted": (BINARY, "scoreAndLabels", _binary_rows(2, weighted=True)),
    "multiclass-doc": (MULTICLASS, "predictionAndLabels", DOC_MULTICLASS),
    "multiclass-random": (MULTICLASS, "predictionAndLabels", _multiclass_rows(3)),
    "multiclass-random-weighted": (MULTICLASS, "predictionAndLabels", _multiclass_rows(4, True)),
    "logloss-doc": (LOG_LOSS, "predictionAndLabels", DOC_LOG_LOSS),
    "logloss-random": (LOG_LOSS, "predictionAndLabels", _multiclass_rows(5, True, True)),
    "ranking-doc": (RANKING, "predictionAndLabels", DOC_RANKING),
    "ranking-random": (RANKING, "predictionAndLabels", _ranking_rows(6)),
}

DOCUMENTED = {  # what PySpark's own doctests print for its examples
    "binary-doc": BINARY + "result = [metrics.areaUnderROC, metrics.areaUnderPR]",
}


def run(snippet, module, name, data):
    """Execute ``snippet`` with the three evaluators of ``module`` and ``data`` bound to ``name``."""
    scope = {c: getattr(module, c) for c in
             ("BinaryClassificationMetrics", "MulticlassMetrics", "RankingMetrics")}
    scope[name] = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # PySpark's SQLContext deprecation
        exec(snippet, scope)
    return scope["result"]


def assert_same(ours, theirs):
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=f"result[{i}]")


@pytest.mark.spark
@pytest.mark.parametrize("case", list(CASES))
def test_same_snippet_same_numbers(spark, case):
    """The snippet on PySpark (an RDD in 2 partitions) and on the mirror (the plain list)."""
    import pyspark.mllib.evaluation as pyspark_evaluation

    snippet, name, rows = CASES[case]
    theirs = run(snippet, pyspark_evaluation, name, spark.sparkContext.parallelize(rows, 2))
    ours = run(snippet, mirror, name, rows)
    assert_same(ours, theirs)


@pytest.mark.parametrize("case, prefixes", [
    # pyspark.mllib.evaluation's doctests, as printed there ("0.70..." matches 0.70 and more digits)
    ("binary-doc", ["0.70", "0.83"]),
    ("binary-doc-weighted", ["0.79", "0.88"]),
    ("logloss-doc", ["0.9682"]),
])
def test_pyspark_doc_examples_print_pysparks_digits(case, prefixes):
    snippet, name, rows = CASES[case]
    ours = run(snippet, mirror, name, rows)
    for value, prefix in zip(ours, prefixes):
        assert repr(float(value)).startswith(prefix), (value, prefix)


def test_pyspark_multiclass_doc_example():
    ours = run(MULTICLASS, mirror, "predictionAndLabels", DOC_MULTICLASS)
    np.testing.assert_array_equal(ours[0], [[2, 1, 1], [1, 3, 0], [0, 0, 1]])
    # accuracy, weighted FPR, precision, recall, F(), F(2.0); then per label 0, 1, 2
    for value, prefix in zip([ours[1], ours[3], ours[5], ours[4], ours[6], ours[7]],
                             ["0.66", "0.19", "0.68", "0.66", "0.66", "0.65"]):
        assert repr(value).startswith(prefix), (value, prefix)
    fpr0, precision1, recall2 = ours[8 + 1], ours[8 + 6 + 2], ours[8 + 12 + 3]  # 6 per label
    assert repr(fpr0).startswith("0.2") and precision1 == 0.75 and recall2 == 1.0
    assert repr(mirror.MulticlassMetrics(DOC_MULTICLASS).fMeasure(0.0, 2.0)).startswith("0.52")


def test_pyspark_ranking_doc_example():
    metrics = mirror.RankingMetrics(DOC_RANKING)
    for value, prefix in [(metrics.precisionAt(1), "0.33"), (metrics.precisionAt(5), "0.26"),
                          (metrics.precisionAt(15), "0.17"), (metrics.meanAveragePrecision, "0.35"),
                          (metrics.meanAveragePrecisionAt(1), "0.3333333333333333"),
                          (metrics.meanAveragePrecisionAt(2), "0.25"), (metrics.ndcgAt(3), "0.33"),
                          (metrics.ndcgAt(10), "0.48"), (metrics.recallAt(1), "0.06"),
                          (metrics.recallAt(5), "0.35"), (metrics.recallAt(15), "0.66")]:
        assert repr(value).startswith(prefix), (value, prefix)


def test_kinds_are_pysparks():
    """Properties where PySpark has properties, methods where it has methods: same kinds."""
    pyspark_evaluation = pytest.importorskip("pyspark.mllib.evaluation")
    for cls in ("BinaryClassificationMetrics", "MulticlassMetrics", "RankingMetrics"):
        theirs, ours = getattr(pyspark_evaluation, cls), getattr(mirror, cls)
        for name, member in vars(theirs).items():
            if name.startswith("_") or name in ("unpersist", "call"):
                continue
            assert isinstance(getattr(ours, name), type(member)) or \
                (callable(member) and callable(getattr(ours, name))
                 and not isinstance(getattr(ours, name), property)), (cls, name)
