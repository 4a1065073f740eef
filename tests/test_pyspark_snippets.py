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
