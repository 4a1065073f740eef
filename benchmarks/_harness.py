"""Timing and the ``Workload`` description shared by the benchmark files.

A bench file (``benchmarks/bench_*.py``) only declares workloads::

    from _harness import Workload

    WORKLOADS = [
        Workload(
            name="confusion_matrix 10^6 labels",
            setup=make_labels,                  # () -> inputs
            evalkit=ek.confusion_matrix,
            reference=skm.confusion_matrix,
            reference_name="sklearn",
            check=np.testing.assert_array_equal,
            budget_s=0.05,
        ),
    ]

``setup()`` runs once per workload; its result is passed to both callables:
a tuple as positional arguments, a dict as keyword arguments, a
``Call(*args, **kwargs)`` as both, anything else as the single argument.
"""

from __future__ import annotations

import functools
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable


class Call:
    """Positional and keyword arguments for a workload's callables."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs


@dataclass
class Workload:
    name: str
    setup: Callable[[], Any]
    evalkit: Callable[..., Any]
    reference: Callable[..., Any] | None = None
    reference_name: str = "sklearn"
    check: Callable[[Any, Any], Any] | None = None  # raises if results differ
    budget_s: float | None = None  # target for evalkit's best time; never fails
    note: str = ""
    repeat: int | None = None  # samples for this workload (fewer for very slow references)

    @classmethod
    def coerce(cls, obj: Any) -> "Workload":
        """Accept a Workload, a dict of its fields, or any object with them."""
        if isinstance(obj, cls):
            return obj
        if isinstance(obj, dict):
            return cls(**obj)
        names = cls.__dataclass_fields__
        return cls(**{n: getattr(obj, n) for n in names if hasattr(obj, n)})


def quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    """FN with every warning it raises ignored (for callables that warn on every call)."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs)
    return call


def bind(fn: Callable[..., Any], inputs: Any) -> Callable[[], Any]:
    """A zero-argument callable that applies FN to the setup() result."""
    if isinstance(inputs, Call):
        args, kwargs = inputs.args, inputs.kwargs
        return lambda: fn(*args, **kwargs)
    if isinstance(inputs, tuple):
        return lambda: fn(*inputs)
    if isinstance(inputs, dict):
        return lambda: fn(**inputs)
    return lambda: fn(inputs)


@dataclass
class Timing:
    best_s: float  # best time of one call
    repeat: int  # samples taken
    number: int  # calls per sample
    samples: list[float] = field(default_factory=list)  # per-call times


def autorange(call: Callable[[], Any], min_sample_s: float = 0.05) -> int:
    """Calls per sample so that one sample lasts at least MIN_SAMPLE_S.

    Like ``timeit.Timer.autorange``: try 1, 2, 5, 10, 20, 50, ... calls.
    Slow functions get one call per sample.
    """
    number = 1
    while True:
        for factor in (1, 2, 5):
            n = number * factor
            t0 = time.perf_counter()
            for _ in range(n):
                call()
            if time.perf_counter() - t0 >= min_sample_s:
                return n
        number *= 10


def best_of(call: Callable[[], Any], repeat: int = 5, min_sample_s: float = 0.05) -> Timing:
    """Best per-call time over REPEAT samples (``time.perf_counter``)."""
    number = autorange(call, min_sample_s)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            call()
        samples.append((time.perf_counter() - t0) / number)
    return Timing(best_s=min(samples), repeat=repeat, number=number, samples=samples)


def best_of_pair(first: Callable[[], Any], second: Callable[[], Any], repeat: int = 5,
                 second_repeat: int | None = None, min_sample_s: float = 0.05) -> tuple[Timing, Timing]:
    """``best_of`` of two calls with their samples interleaved (first, second, first, ...).

    A machine whose speed drifts (another process, memory state) then moves
    both timings alike, so their ratio is steadier than from two runs one after
    the other.
    """
    calls = (first, second)
    repeats = (repeat, repeat if second_repeat is None else second_repeat)
    numbers = [autorange(c, min_sample_s) for c in calls]
    samples: tuple[list, list] = ([], [])
    for i in range(max(repeats)):
        for call, number, r, out in zip(calls, numbers, repeats, samples):
            if i < r:
                t0 = time.perf_counter()
                for _ in range(number):
                    call()
                out.append((time.perf_counter() - t0) / number)
    return tuple(Timing(best_s=min(s), repeat=r, number=n, samples=s)
                 for s, r, n in zip(samples, repeats, numbers))


def format_seconds(seconds: float) -> str:
    """
    >>> format_seconds(0.0123)
    '12.3 ms'
    >>> format_seconds(2.5)
    '2.50 s'
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            value = seconds / scale
            digits = 2 if value < 10 else 1 if value < 100 else 0
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")
