"""evalkit on Apache Spark: the counts are computed on the cluster, numpy does the rest.

Every metric in evalkit is a function of counts, and counts add: the counts
of two parts of the data sum to the counts of the whole. So a Spark job only
has to produce counts -- a confusion table, per-class counts, the cumulative
counts of a threshold sweep -- and the numpy code that runs on one machine
computes the metrics from them, with the same numbers.

* :func:`session` -- a local SparkSession for a laptop or the tests (a
  session that already runs is returned untouched);
* :func:`binary_metrics` -- Spark MLlib's ``BinaryClassificationMetrics``
  (thresholds, metric by threshold, ROC and PR curves, both areas) on a
  DataFrame, as an :class:`evalkit.BinaryClassificationMetrics`;
* :func:`classification_counts` -- per-class counts (one ``groupBy``) from
  which the classification report and ``precision_recall_fscore_support``
  run;
* :func:`topk_report` -- the top-k report over an array column;
* :func:`regression_metrics` -- MAE, MSE, RMSE and NMAE of predicted
  ratings, from three sums (per user, for the per-user NMAE);
* :func:`ranking_hits`, :func:`ranking_metrics` -- a recommender's per-user
  hits on the cluster, then :mod:`evalkit.ranking`'s metrics and conventions
  (:func:`lists_from_frame` turns long ``(user, item, score)`` tables into
  one row of lists per user).

Every function takes a DataFrame of a classic session or of a Spark Connect
session (``SparkSession.builder.remote(...)``: no ``sparkContext``, no py4j),
with the same numbers; only :func:`jvm_curve` (Spark's JVM object) needs a
classic one. pyspark is imported inside the functions: ``import evalkit``
never imports it, and ``import evalkit.spark`` works without it.

On a cluster, :func:`binary_metrics` runs evalkit's sweep on the executors,
so their Python needs evalkit (and numpy, pandas, pyarrow): install it there,
or call :func:`ship` once per session to send it with the session.
"""

from .classification import SparkClassCounts, classification_counts
from .compare import compare
from .curves import SparkBinaryClassificationMetrics, binary_metrics, jvm_curve
from .ranking import (RANKING_METRICS, lists_from_frame, ranking_hits,
                      ranking_metrics)
from .regression import regression_metrics
from .session import session, ship
from .topk import topk_report

__all__ = ["session", "ship", "binary_metrics", "SparkBinaryClassificationMetrics",
           "classification_counts", "SparkClassCounts", "compare", "topk_report",
           "regression_metrics", "ranking_hits", "ranking_metrics", "lists_from_frame",
           "RANKING_METRICS", "jvm_curve"]
