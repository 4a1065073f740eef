"""Check cells for the notebooks' exercises.

Each notebook ``NN-*.ipynb`` registers its exercises in
``evalkit/course/exercises/nbNN.py``; a check cell calls :func:`check` with the
exercise's id and the learner's answer. The checker computes the expected
result with evalkit itself (never a stored number), runs every case and says
which cases pass, without printing the expected values.

An answer is a value (``kind="value"``; numbers may be floats, ints or exact
``fractions.Fraction``), a function the learner wrote (``kind="function"``),
called on each case's arguments, or the letter of one of the exercise's
``choices`` (``kind="choice"``, for judgement questions); every option has a
``feedback`` line, shown when that option is chosen, so a wrong choice says why
it is wrong. A rational answer must be exact (a fraction, or every digit of the
float): one that agrees to the digits it gives (0.79 for 95/120) is reported as
close. An irrational answer (a p-value, a Wilson bound) sets ``decimals``: it
passes when it agrees to that many decimals, and a shorter one is told how many
decimals count. Every exercise has a hint, shown only when asked:
``check(id, answer, hint=True)`` or ``hint(id)``.

The exercise's data have one source, the exercise itself: ``show(id)`` prints
them as Python assignments (``rows = [...]``) that a learner can copy, and gives
them back as attributes (``show("02.1").rows``). The notebooks display their
exercises' data with ``show``; they never type them in a second time.

>>> from fractions import Fraction
>>> from evalkit.course.exercises import Exercise, Case, check, hint, register
>>> _ = register(Exercise("99.1", "the accuracy of 95 right out of 120", "value",
...                       [Case("95 of 120", {}, lambda: 95 / 120)],
...                       hint="right answers over all answers"))
>>> check("99.1", ...)
exercise 99.1: no answer yet -- replace ... with your answer and run this cell again
>>> check("99.1", Fraction(95, 120))
exercise 99.1: 1 of 1 cases pass -- well done
>>> check("99.1", 0.79)
exercise 99.1: 0 of 1 cases pass
  ✗ 95 of 120 (close -- give the exact value, e.g. as a fraction)
>>> check("99.1", 0.8, hint=True)
exercise 99.1: 0 of 1 cases pass
  ✗ 95 of 120
hint: right answers over all answers
>>> hint("99.1")
hint for exercise 99.1: right answers over all answers
>>> _ = register(Exercise("99.2", "a p-value", "value", [Case("p", {}, lambda: 0.0123456)],
...                       decimals=4, hint="look it up"))
>>> check("99.2", 0.0123)
exercise 99.2: 1 of 1 cases pass -- well done
>>> check("99.2", 0.012)
exercise 99.2: 0 of 1 cases pass
  ✗ p (close -- give 4 decimals)
"""

from __future__ import annotations

import importlib
import math
import numbers
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

import numpy as np

__all__ = ["Case", "Exercise", "Hint", "Result", "Shown", "check", "hint", "register", "exercises",
           "show"]

_REGISTRY: dict[str, "Exercise"] = {}

KINDS = ("value", "function", "choice")
CLOSE = "close -- give the exact value, e.g. as a fraction"
CLOSE_DECIMALS = "close -- give {} decimals"


@dataclass(frozen=True)
class Case:
    """One case: a description shown to the learner, arguments, and the reference."""

    description: str
    kwargs: dict
    expected: Callable[..., Any]  # called with **kwargs; computed with evalkit


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id ("NN.k"), a one-line prompt, its kind, cases and a hint.

    ``kind`` is ``"value"``, ``"function"`` or ``"choice"``; a choice exercise
    lists its options in ``choices`` (letter -> text) and its cases return the
    right letter. ``hint`` is shown only when the learner asks for it.
    """

    id: str
    prompt: str
    kind: str  # "value", "function" or "choice"
    cases: list
    rtol: float = 1e-9
    solution: Any = field(default=None, compare=False)  # a correct answer, for the tests
    hint: str = ""
    choices: dict = field(default_factory=dict)
    feedback: dict = field(default_factory=dict)  # letter -> why that option is right or wrong
    decimals: int | None = None  # an irrational answer: how many decimals count
    data: dict = field(default_factory=dict)  # name -> value (or loader) shown by show(id)
    kind_of_question: str = ""  # "transfer", "judgement", "predict", "find the bug", ...


@dataclass(frozen=True)
class Result:
    """What a check found: which cases pass. Prints as the learner sees it."""

    id: str
    outcomes: tuple  # (description, passed, note)
    answered: bool = True
    hint: str = ""  # shown only when asked for
    why: str = ""  # a choice question's feedback on the option chosen

    @property
    def passed(self):
        return self.answered and all(ok for _, ok, _ in self.outcomes)

    def __repr__(self):
        tail = ([f"  why: {self.why}"] if self.why else []) + ([f"hint: {self.hint}"] if self.hint else [])
        if not self.answered:
            return "\n".join([f"exercise {self.id}: no answer yet -- replace ... with your answer "
                              "and run this cell again"] + tail)
        n_ok = sum(ok for _, ok, _ in self.outcomes)
        head = f"exercise {self.id}: {n_ok} of {len(self.outcomes)} cases pass"
        if self.passed:
            return "\n".join([head + " -- well done"] + tail)
        lines = [head]
        for description, ok, note in self.outcomes:
            if not ok:
                lines.append(f"  ✗ {description}" + (f" ({note})" if note else ""))
        return "\n".join(lines + tail)


@dataclass(frozen=True)
class Hint:
    """An exercise's hint. Prints as the learner sees it."""

    id: str
    text: str

    def __repr__(self):
        return f"hint for exercise {self.id}: {self.text or 'none -- this one is on your own'}"


def register(exercise):
    """Add an exercise to the registry (ids are unique) and return it."""
    if not isinstance(exercise, Exercise):
        raise TypeError(f"exercise must be an Exercise, got {type(exercise).__name__}")
    if exercise.kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}; got {exercise.kind!r}")
    if exercise.kind == "choice" and set(exercise.feedback) != set(exercise.choices):
        raise ValueError(f"choices and feedback must name the same options in {exercise.id}")
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


def hint(exercise_id):
    """The hint of exercise ``exercise_id`` (it never gives the answer away)."""
    ex = _load(exercise_id)
    return Hint(ex.id, ex.hint)


class Shown:
    """An exercise's data: printed as Python assignments, readable as attributes."""

    def __init__(self, exercise):
        self._exercise = exercise
        for name, value in exercise.data.items():
            names = [n.strip() for n in name.split(",")]
            values = value() if callable(value) else value
            for n, v in zip(names, values) if len(names) > 1 else [(name, values)]:
                setattr(self, n, v)

    def __repr__(self):
        ex = self._exercise
        lines = [f"# exercise {ex.id}" + (f" ({ex.kind_of_question})" if ex.kind_of_question else "")
                 + f": {ex.prompt}"]
        for name, value in ex.data.items():
            if callable(value):  # a loader: the data are too many to print
                lines.append(f"from {value.__module__} import {value.__name__}")
                lines.append(f"{name} = {value.__name__}()")
            else:
                lines.append(f"{name} = {_literal(value)}")
        if ex.kind == "choice":
            lines.append("# options -- answer with the letter, e.g. answer = \"a\":")
            for letter, text in ex.choices.items():
                lines.append(f"#   {letter}: {text}")
        return "\n".join(lines)


def _literal(value):
    """A Python literal of ``value`` (numpy arrays as lists; a 2-d array one row per line)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value) \
            and len(repr(value)) > 90:
        rows = ",\n    ".join(repr(list(v) if isinstance(v, list) else v) for v in value)
        return f"[\n    {rows},\n]" if isinstance(value, list) else f"(\n    {rows},\n)"
    return repr(value)


def show(exercise_id):
    """The data of exercise ``exercise_id``: prints as ``name = value`` lines, one attribute per name."""
    return Shown(_load(exercise_id))


def _is_number(v):
    """A real number: int, float, Fraction, numpy scalar -- not a bool."""
    return isinstance(v, (numbers.Real, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _numeric(x):
    """True for numbers and (nested) sequences/arrays of numbers only."""
    if isinstance(x, (str, bytes)) or x is None or x is ...:
        return False
    arr = np.asarray(x, dtype=object)
    return all(_is_number(v) for v in arr.ravel()) if arr.size else True


def _as_float(x):
    return np.asarray(np.vectorize(float, otypes=[float])(np.asarray(x, dtype=object)), dtype=float)


def _same(got, want, rtol):
    try:
        if isinstance(want, (str, bool)) or want is None:
            return type(got) is type(want) and got == want
        if not _numeric(got):
            return False
        g, w = _as_float(got), _as_float(want)
        return g.shape == w.shape and bool(np.allclose(g, w, rtol=rtol, atol=1e-12, equal_nan=True))
    except (TypeError, ValueError):
        return False


def _same_to(got, want, decimals):
    """``got`` agrees with ``want`` to ``decimals`` decimals (rounded or exact)."""
    if not _numeric(got):
        return False
    g, w = _as_float(got), _as_float(want)
    return g.shape == w.shape and bool(np.all(np.abs(g - w) <= 0.5 * 10.0 ** -decimals + 1e-12))


def _decimals(v):
    """(decimals, significant digits) of a hand-typed float, from its shortest repr; else None."""
    if not isinstance(v, (float, np.floating)) or not math.isfinite(v) or v == 0:
        return None
    sign, digits, exponent = Decimal(repr(float(v))).as_tuple()
    if exponent >= 0:
        return None
    return -exponent, len(str(int("".join(map(str, digits)))))


def _agrees_to_digits_given(got, want):
    """True if ``got`` is ``want`` rounded or cut to the (at least 2) significant digits it gives."""
    places = _decimals(got)
    if places is None or places[1] < 2 or not _is_number(want):
        return False
    d = places[0]
    w = float(want)
    scale = 10.0 ** d
    candidates = (round(w, d), math.trunc(w * scale) / scale)
    return any(math.isclose(float(got), c, rel_tol=0, abs_tol=0.5 / scale / 100) for c in candidates)


def _close(got, want):
    """Every number of ``got`` exact or agreeing to the digits given, one at least only agreeing."""
    if not _numeric(got) or isinstance(want, (str, bool)) or want is None:
        return False
    try:
        g = np.asarray(got, dtype=object)
        w = np.asarray(want, dtype=object)
    except (TypeError, ValueError):
        return False
    if g.shape != w.shape or not g.size or not all(_is_number(v) for v in w.ravel()):
        return False
    near = [_agrees_to_digits_given(a, b) for a, b in zip(g.ravel(), w.ravel())]
    exact = [_same(a, b, 1e-9) for a, b in zip(g.ravel(), w.ravel())]
    return any(near) and all(n or e for n, e in zip(near, exact))


def _normalise_choice(answer):
    if not isinstance(answer, str):
        return None
    return answer.strip().strip("()").strip().lower() or None


def check(exercise_id, answer, hint=False):
    """Check ``answer`` to exercise ``exercise_id`` case by case; return a printable Result.

    With ``hint=True`` the exercise's hint is printed below the result.
    """
    ex = _load(exercise_id)
    shown = ex.hint if hint else ""
    if answer is ... or answer is None:
        return Result(ex.id, (), answered=False, hint=shown)
    if ex.kind == "function" and not callable(answer):
        return Result(ex.id, tuple((c.description, False, "the answer should be a function")
                                   for c in ex.cases), hint=shown)
    if ex.kind == "choice":
        letter = _normalise_choice(answer)
        options = {k.lower() for k in ex.choices}
        if letter not in options:
            note = "answer with one of " + ", ".join(repr(k) for k in ex.choices)
            return Result(ex.id, tuple((c.description, False, note) for c in ex.cases), hint=shown)
        answer = letter
    if ex.kind == "function":
        try:  # a stub whose body is still `return ...` is not an answer yet
            if ex.cases and answer(**ex.cases[0].kwargs) is ...:
                return Result(ex.id, (), answered=False, hint=shown)
        except Exception:  # reported case by case below
            pass
    outcomes = []
    for case in ex.cases:
        want = case.expected(**case.kwargs)
        if ex.kind == "choice":
            want = str(want).lower()
        note = ""
        if ex.kind == "function":
            try:
                got = answer(**case.kwargs)
            except Exception as exc:  # the learner's code may fail in any way
                got, note = None, f"raised {type(exc).__name__}"
        else:
            got = answer
        if ex.decimals is not None:
            ok = not note and _same_to(got, want, ex.decimals)
        else:
            ok = not note and _same(got, want, ex.rtol)
        if ex.kind == "choice":
            pass
        elif not ok and not note:
            if isinstance(got, float) and math.isnan(got):
                note = "got nan"
            elif ex.decimals is not None:
                if _close(got, want):
                    note = CLOSE_DECIMALS.format(ex.decimals)
            elif _close(got, want):
                note = CLOSE
        outcomes.append((case.description, ok, note))
    why = ex.feedback.get(answer, "") if ex.kind == "choice" else ""
    return Result(ex.id, tuple(outcomes), hint=shown, why=why)
