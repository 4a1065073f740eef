"""evalkit: evaluate classifiers and rankers correctly.

Counts are the single source of truth: labels or scores are validated once,
turned into counts, and every metric is a ratio of counts. Names, arguments
and numbers follow ``sklearn.metrics``; Spark's conventions are named options.

One vocabulary
--------------
A word means one thing in every module. Defaults follow scikit-learn, except
in the Spark mirrors (``evalkit.mllib``, ``evalkit.spark``), which follow Spark.
``tests/test_api.py`` reads this table and checks every public signature
against it.

============== ======================================================== ==============
word           what it means                                            default
============== ======================================================== ==============
convention     whose numbers: a library's preset ("sklearn", "spark",   (per function)
               "trec", "torchmetrics", "recbole", "ranx", "evalkit");
               the one word for a library's layout or definition
zero_division  the value of a ratio whose denominator is 0 (in ranking,  "warn"
               a user with no relevant items): "warn" (0.0 and an
               UndefinedMetricWarning), 0.0, 1.0 or nan (left out of
               averages)
ties           the rule that orders equal scores when a top k is taken: "last"
               "last" (scikit-learn's: of equal scores the later column
               ranks first) or "first"; in ranked lists, "input",
               "item_desc" (trec_eval) or "item_asc"; ``ignore_ties``
               is scikit-learn's switch in ``dcg_score``/``ndcg_score``
zero_weight    what a sample of weight 0 does to the list of            "drop"
               thresholds: "drop" (scikit-learn) or "keep" (Spark)
k              a cut-off: positional right after the ranked lists,      (per function)
               ``f(ranked, relevant, k)``, and as a method's first
               argument (``hits.within(k)``); keyword-only elsewhere
log_base       the base of a logarithm (DCG's discount, an entropy)     2
y_proba        predicted probabilities (scikit-learn's                  (required)
               ``calibration_curve`` alone keeps its ``y_prob``)
per_user       one value per user instead of their mean; the users of   False
               the rows are ``users``
output_dict    a report as a dict instead of text (scikit-learn's)      False
============== ======================================================== ==============

An option left ``None`` in a function that takes a ``convention`` takes that
convention's value. Words not used, with the word that replaced them: ``empty`` (``zero_division``),
``first_point`` and ``pr_first_point`` (``convention``), ``base`` (``log_base``),
``y_prob`` (``y_proba``), ``per_group`` (``per_user``), ``groups`` and
``group_col`` (``users``, ``user_col``), ``output`` (``output_dict``).

>>> import evalkit
>>> evalkit.accuracy_score([1, 0, 0, 0], [0, 0, 0, 0])
0.75
"""

from ._binary import BinaryCounts, binary_counts
from .calibration import (
    brier_score_loss,
    calibration_curve,
    expected_calibration_error,
    log_loss,
    maximum_calibration_error,
)
from .classification import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    macro_f1,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from .exceptions import UndefinedMetricWarning
from .curves import (
    auc,
    average_precision_score,
    best_threshold,
    confusion_matrix_at_thresholds,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
    threshold_table,
)
# The course's own definitions of the AUC (a rank sum, a pair count): lessons the notebooks show
# agreeing with the sweep, kept beside the course material and exported here for the learner.
from .course.definitions import roc_auc_pairs, roc_auc_rank
from .regression import (
    mean_absolute_error,
    mean_squared_error,
    normalized_mean_absolute_error,
    root_mean_squared_error,
)
from .report import classification_report
from .mllib import BinaryClassificationMetrics, SparkSteps, spark_format, spark_steps
from .mllib import MulticlassMetrics, RankingMetrics
from .ranking import (
    RankingHits,
    arhr_at_k,
    average_precision,
    catalog_coverage,
    dcg_at_k,
    dcg_score,
    distributional_coverage,
    gini_index,
    hit_rate_at_k,
    lists_from_frame,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    ndcg_score,
    precision_at_k,
    ranking_hits,
    recall_at_k,
)
from .topk import precision_recall_fscore_at_k, top_k_accuracy_score, top_k_labels, topk_report
from .uncertainty import (
    Comparison,
    ConfidenceInterval,
    bootstrap_ci,
    delong_test,
    paired_bootstrap,
    permutation_test,
    proportion_ci,
    roc_auc_ci,
)

__all__ = [
    "BinaryCounts",
    "binary_counts",
    "accuracy_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "macro_f1",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "UndefinedMetricWarning",
    "confusion_matrix_at_thresholds",
    "roc_curve",
    "roc_auc_score",
    "precision_recall_curve",
    "average_precision_score",
    "auc",
    "roc_auc_rank",
    "roc_auc_pairs",
    "best_threshold",
    "threshold_table",
    "classification_report",
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "normalized_mean_absolute_error",
    "precision_recall_fscore_at_k",
    "top_k_accuracy_score",
    "top_k_labels",
    "topk_report",
    "BinaryClassificationMetrics",
    "MulticlassMetrics",
    "SparkSteps",
    "spark_format",
    "spark_steps",
    "RankingMetrics",
    "RankingHits",
    "ranking_hits",
    "precision_at_k",
    "recall_at_k",
    "average_precision",
    "mean_average_precision",
    "dcg_at_k",
    "ndcg_at_k",
    "mean_reciprocal_rank",
    "hit_rate_at_k",
    "arhr_at_k",
    "catalog_coverage",
    "distributional_coverage",
    "gini_index",
    "lists_from_frame",
    "dcg_score",
    "ndcg_score",
    "ConfidenceInterval",
    "Comparison",
    "bootstrap_ci",
    "paired_bootstrap",
    "permutation_test",
    "roc_auc_ci",
    "delong_test",
    "proportion_ci",
    "brier_score_loss",
    "log_loss",
    "calibration_curve",
    "expected_calibration_error",
    "maximum_calibration_error",
]

__version__ = "0.1.0"

#: Modules with heavier dependencies, imported on first use: ``evalkit.spark.binary_metrics``
#: works after ``import evalkit`` alone, and ``import evalkit`` imports neither pyspark
#: nor matplotlib nor ipywidgets.
_LAZY_MODULES = ("spark", "plot", "widgets", "course")


def __getattr__(name):
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
