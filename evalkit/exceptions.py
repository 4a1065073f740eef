"""Warnings evalkit emits, and the one helper that emits them at the caller's line."""

from __future__ import annotations

import os
import sys
import warnings

__all__ = ["UndefinedMetricWarning", "warn_at_caller"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for this input (e.g. 0/0) and took a fallback value.

    The same idea, and the same message wording, as scikit-learn's
    ``sklearn.exceptions.UndefinedMetricWarning``.
    """


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn_at_caller(message: str, category: type[Warning] = UndefinedMetricWarning) -> None:
    """Warn at the first line outside evalkit: the user's call, however deep inside it is.

    Every warning evalkit gives goes through here, so that its filename and
    line number are the caller's (``stacklevel`` counted by walking the
    stack past evalkit's own frames, rather than guessed per call site).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_at_caller("ill-defined")
    >>> caught[0].filename.endswith("evalkit" + os.sep + "exceptions.py")
    False
    """
    level = 2  # the frame that called warn_at_caller
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
