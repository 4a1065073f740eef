"""Calling evalkit and its oracle the same way, so that their outcomes compare."""

from __future__ import annotations

import warnings


def recorder(summarize):
    """A runner: ``run(fn, *args, **kwargs)`` gives ``("ok", result, summarize(warnings))``,
    or ``("error", exception type, None)`` when fn refuses its input (ValueError / TypeError).

    Every warning is recorded (``simplefilter("always")``); ``summarize`` keeps
    what the comparison needs of them.
    """
    def run(fn, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(*args, **kwargs)
            except (ValueError, TypeError) as exc:
                return "error", type(exc), None
        return "ok", out, summarize(caught)

    return run
