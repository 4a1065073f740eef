"""Check cells for the notebooks' exercises.

Each notebook ``NN-*.ipynb`` registers its exercises in
``evalkit/exercises/nbNN.py``; a check cell calls :func:`check` with the
exercise's id and the learner's answer. The checker computes the expected
result with evalkit itself (never a stored number), runs every case and says
which cases pass, without printing the expected values.

An answer is either a value (``kind="value"``) or a function the learner
wrote (``kind="function"``), which is called on each case's arguments.

>>> from evalkit.exercises import Exercise, Case, check, register
>>> _ = register(Exercise("99.1", "the accuracy of 90 right out of 100", "value",
...                       [Case("90 of 100", {}, lambda: 0.9)]))
>>> check("99.1", ...)
exercise 99.1: no answer yet -- replace ... with your answer and run this cell again
>>> check("99.1", 0.9)
exercise 99.1: 1 of 1 cases pass -- well done
>>> check("99.1", 0.8)
exercise 99.1: 0 of 1 cases pass
  ✗ 90 of 100
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

__all__ = ["Case", "Exercise", "Result", "check", "register", "exercises"]

_REGISTRY: dict[str, "Exercise"] = {}


@dataclass(frozen=True)
class Case:
    """One case: a description shown to the learner, arguments, and the reference."""

    description: str
    kwargs: dict
    expected: Callable[..., Any]  # called with **kwargs; computed with evalkit


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id ("NN.k"), a one-line prompt, value or function, and cases."""

    id: str
    prompt: str
    kind: str  # "value" or "function"
    cases: list
    rtol: float = 1e-9
    solution: Any = field(default=None, compare=False)  # a correct answer, for the tests


@dataclass(frozen=True)
class Result:
    """What a check found: which cases pass. Prints as the learner sees it."""

    id: str
    outcomes: tuple  # (description, passed, note)
    answered: bool = True

    @property
    def passed(self):
        return self.answered and all(ok for _, ok, _ in self.outcomes)

    def __repr__(self):
        if not self.answered:
            return (f"exercise {self.id}: no answer yet -- replace ... with your answer "
                    "and run this cell again")
        n_ok = sum(ok for _, ok, _ in self.outcomes)
        head = f"exercise {self.id}: {n_ok} of {len(self.outcomes)} cases pass"
        if self.passed:
            return head + " -- well done"
        lines = [head]
        for description, ok, note in self.outcomes:
            if not ok:
                lines.append(f"  ✗ {description}" + (f" ({note})" if note else ""))
        return "\n".join(lines)


def register(exercise):
    """Add an exercise to the registry (ids are unique) and return it."""
    if not isinstance(exercise, Exercise):
        raise TypeError(f"exercise must be an Exercise, got {type(exercise).__name__}")
    if exercise.kind not in ("value", "function"):
        raise ValueError(f"kind must be 'value' or 'function'; got {exercise.kind!r}")
    _REGISTRY[exercise.id] = exercise
    return exercise


def _load(exercise_id):
    if not isinstance(exercise_id, str) or "." not in exercise_id:
        raise ValueError(f"exercise_id must look like '01.2'; got {exercise_id!r}")
    if exercise_id not in _REGISTRY:
        try:
            importlib.import_module(f"{__name__}.nb{exercise_id.split('.')[0]}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _REGISTRY:
        raise ValueError(f"there is no exercise {exercise_id!r}")
    return _REGISTRY[exercise_id]


def exercises(notebook=None):
    """The registered exercises (of notebook ``"NN"`` if given), loading them first."""
    if notebook is not None:
        importlib.import_module(f"{__name__}.nb{notebook}")
    return [e for k, e in sorted(_REGISTRY.items()) if notebook is None or k.startswith(notebook + ".")]


def _numeric(x):
    """True for numbers and (nested) sequences/arrays of numbers only."""
    if isinstance(x, (str, bytes)) or x is None or x is ...:
        return False
    arr = np.asarray(x, dtype=object)
    return all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
               for v in arr.ravel()) if arr.size else True


def _same(got, want, rtol):
    try:
        if isinstance(want, (str, bool)) or want is None:
            return type(got) is type(want) and got == want
        if not _numeric(got):
            return False
        g = np.asarray(got, dtype=float)
        w = np.asarray(want, dtype=float)
        return g.shape == w.shape and bool(np.allclose(g, w, rtol=rtol, atol=1e-12, equal_nan=True))
    except (TypeError, ValueError):
        return False


def check(exercise_id, answer):
    """Check ``answer`` to exercise ``exercise_id`` case by case; return a printable Result."""
    ex = _load(exercise_id)
    if answer is ... or answer is None:
        return Result(ex.id, (), answered=False)
    if ex.kind == "function" and not callable(answer):
        return Result(ex.id, tuple((c.description, False, "the answer should be a function")
                                   for c in ex.cases))
    if ex.kind == "function":
        try:  # a stub whose body is still `return ...` is not an answer yet
            if ex.cases and answer(**ex.cases[0].kwargs) is ...:
                return Result(ex.id, (), answered=False)
        except Exception:  # reported case by case below
            pass
    outcomes = []
    for case in ex.cases:
        want = case.expected(**case.kwargs)
        note = ""
        if ex.kind == "function":
            try:
                got = answer(**case.kwargs)
            except Exception as exc:  # the learner's code may fail in any way
                got, note = None, f"raised {type(exc).__name__}"
        else:
            got = answer
        ok = not note and _same(got, want, ex.rtol)
        if not ok and not note and isinstance(got, float) and math.isnan(got):
            note = "got nan"
        outcomes.append((case.description, ok, note))
    return Result(ex.id, tuple(outcomes))
