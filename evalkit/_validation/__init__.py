"""Input validation, once, at the public boundary; private code trusts what comes out.

A bad value raises ``ValueError`` (right type, wrong value) or ``TypeError`` (wrong type),
the message starting with the argument's name. **Options** are declared with :func:`validate_params`
and small specs (:class:`Interval`, :class:`Options`, :class:`Satisfies`, constants such as
:data:`AVERAGE`), cross-argument rules as :func:`check_rules` tables (:data:`EXACTLY_ONE`, ...).
**Arrays** go through one core, :func:`as_array` and :func:`check_real_values`, under a few readers:
real arrays (:func:`check_real`), labels (:func:`check_labels`, :func:`check_targets`,
:func:`check_label_list`), weights, ranked lists, counts.

The checks are split by concern: :mod:`._options` (declared options and
rules), :mod:`._arrays` (the array reader, real scores, weights, count
matrices), :mod:`._labels` (labels and the positive class) and
:mod:`._lists` (ranked lists and relevant items); this package holds their
names, so callers import from ``evalkit._validation``.
"""

from __future__ import annotations

from ._options import (Interval, Integer, Real, Count, Options, Satisfies, InstanceOf, Bool,
                       _compile, check, validate_params, sum_from_zero, check_rules, AVERAGES,
                       AVERAGE, AVERAGES_SAMPLES, AVERAGES_OF_SCORES, AVERAGES_TOP_K, NUM_BINS,
                       ZERO_WEIGHTS, ZERO_WEIGHT, BETA, ZERO_DIVISION, ZERO_DIVISION_SPARK, K,
                       DIGITS, TIES, MAX_FPR, CONFIDENCE, COUNT, POS_LABEL, RANDOM_STATE, WARN_FOR,
                       RATING_RANGE, MULTIOUTPUT, MULTIOUTPUT_R2, EXACTLY_ONE, POSITIVES,
                       BOTH_CLASSES)
from ._arrays import (dense_indicators, as_array, _py, _is_string_like, check_real_values,
                      check_real, check_score_matrix, check_monotonic, check_sample_weight,
                      check_scores, check_same_length, check_regression_targets,
                      check_score_and_labels, check_count_matrix, check_row_labels)
from ._labels import (check_labels, check_same_kind, check_targets, check_indicator,
                      refuse_matrix_beside_vector, check_label_list, check_column_classes,
                      BINARY_PROBA, positive_of, check_pos_label, check_target_names)
from ._lists import (check_item_ids, check_ranked, check_grades, check_relevant, check_lists,
                     check_catalog, check_columns, check_relevance_scores, check_ranking_rows,
                     check_recall_levels)

__all__ = ["AVERAGE", "AVERAGES", "AVERAGES_OF_SCORES", "AVERAGES_SAMPLES", "AVERAGES_TOP_K",
           "BETA", "BINARY_PROBA", "BOTH_CLASSES", "Bool", "CONFIDENCE", "COUNT", "Count",
           "DIGITS", "EXACTLY_ONE", "InstanceOf", "Integer", "Interval", "K", "MAX_FPR",
           "MULTIOUTPUT", "MULTIOUTPUT_R2", "NUM_BINS", "Options", "POSITIVES", "POS_LABEL",
           "RANDOM_STATE", "RATING_RANGE", "Real", "Satisfies", "TIES", "WARN_FOR",
           "ZERO_DIVISION", "ZERO_DIVISION_SPARK", "ZERO_WEIGHT", "ZERO_WEIGHTS", "_compile",
           "_is_string_like", "_py", "as_array", "check", "check_catalog", "check_column_classes",
           "check_columns", "check_count_matrix", "check_grades", "check_indicator",
           "check_item_ids", "check_label_list", "check_labels", "check_lists", "check_monotonic",
           "check_pos_label", "check_ranked", "check_ranking_rows", "check_real",
           "check_real_values", "check_regression_targets", "check_relevance_scores",
           "check_relevant", "check_row_labels", "check_rules", "check_same_kind",
           "check_same_length", "check_sample_weight", "check_score_and_labels",
           "check_score_matrix", "check_scores", "check_target_names", "check_targets",
           "dense_indicators", "positive_of", "refuse_matrix_beside_vector", "sum_from_zero",
           "validate_params", "check_recall_levels"]
