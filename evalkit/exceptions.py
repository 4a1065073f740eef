"""Warnings evalkit emits."""

__all__ = ["UndefinedMetricWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for this input (e.g. 0/0) and took a fallback value.

    The same idea, and the same message wording, as scikit-learn's
    ``sklearn.exceptions.UndefinedMetricWarning``.
    """
