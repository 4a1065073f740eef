"""Threads: how many a call may use, and running its steps on them.

numpy's sorts and ufuncs release the GIL, so two threads sort two arrays or
divide two halves of an array at the same time. A call makes its own threads
and joins them before it returns: there is no pool kept between calls, so
evalkit stays safe to call from several threads at once.

The count follows the BLAS libraries: ``n_threads=None`` means the cores this
process may use, at most the environment variable ``EVALKIT_NUM_THREADS``
(read at every call); an explicit ``n_threads`` is used as given.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from ._validation import Integer

__all__ = ["ENVIRONMENT", "N_THREADS", "thread_count", "threads_for", "run_all", "spans"]

#: The environment variable that caps the default thread count.
ENVIRONMENT = "EVALKIT_NUM_THREADS"

#: The ``n_threads=`` option of the public functions.
N_THREADS = [None, Integer(1, meaning="the threads the call may use")]

#: Below this many samples per thread, starting a thread costs more than it saves.
MIN_SAMPLES_PER_THREAD = 1 << 19


def _usable_cores():
    """The cores this process may run on (its affinity mask where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _environment_cap():
    """``EVALKIT_NUM_THREADS`` as a count, or None when it is not set."""
    text = os.environ.get(ENVIRONMENT, "").strip()
    if not text:
        return None
    message = f"{ENVIRONMENT} must be an integer >= 1 (the threads a call may use); got {text!r}"
    try:
        cap = int(text)
    except ValueError:
        raise ValueError(message) from None
    if cap < 1:
        raise ValueError(message)
    return cap


def thread_count(n_threads=None):
    """The threads a call may use: ``n_threads``, or by default the usable cores, at most the cap.

    >>> thread_count(3)
    3
    """
    if n_threads is not None:
        return int(n_threads)
    cores = _usable_cores()
    cap = _environment_cap()
    if cap is None:
        return cores
    return min(cores, cap)


def threads_for(n_samples, n_threads):
    """The threads worth starting for ``n_samples``: at most ``n_threads``, at least 1.

    >>> threads_for(1000, 2), threads_for(10**7, 2)
    (1, 2)
    """
    worth = n_samples // MIN_SAMPLES_PER_THREAD
    return max(1, min(n_threads, worth))


def run_all(steps):
    """Run each zero-argument callable on a thread of its own; their results, in order.

    The calling thread runs the first step itself. An exception in a step is
    raised here, after every step has ended.
    """
    if len(steps) == 1:
        return [steps[0]()]
    with ThreadPoolExecutor(max_workers=len(steps) - 1) as pool:
        futures = [pool.submit(step) for step in steps[1:]]
        first = steps[0]()
        return [first] + [future.result() for future in futures]


def spans(length, parts):
    """``parts`` consecutive ``(start, stop)`` ranges that cover ``range(length)``.

    >>> spans(10, 3)
    [(0, 3), (3, 6), (6, 10)]
    """
    bounds = [length * part // parts for part in range(parts + 1)]
    return list(zip(bounds[:-1], bounds[1:]))
