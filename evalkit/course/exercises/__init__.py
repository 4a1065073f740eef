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
decimals count. A value exercise may list ``known`` values (:class:`Known`): the
value another method the course teaches gives (accepted within its Monte Carlo
error, with a note naming it) or a known mistake (rejected, with a note naming
it). Every exercise has a hint, shown only when asked:
``check(id, answer, hint=True)`` or ``hint(id)``.

The exercise's data have one source, the exercise itself: ``show(id)`` prints
them as Python assignments (``rows = [...]``) that a learner can copy, and gives
them back as attributes (``show("02.1").rows``). The notebooks display their
exercises' data with ``show``; they never type them in a second time. Data too
many to print come from a loader in :mod:`evalkit.course.exercise_data`, which
holds data only (no answer), so a student's environment can have it without
this package. A value exercise's expected answer is a function of its data
(``Exercise.expect``), so new data give a new answer.

For a classroom whose grades must be trusted, :func:`variant` gives each
student (an int ``seed``) their own version: new data for a value exercise,
new case inputs for a function exercise, the options in another order for a
choice. :func:`data_source` is the Python of that student's data cell, and
:func:`grade` compares an answer (or, for a function exercise, the outputs the
student's function gave in a sandbox) with an exercise object; :func:`check` is
:func:`grade` on the notebook's own exercise.

>>> from fractions import Fraction
>>> from evalkit.course.exercises import Exercise, Case, check, hint, register
>>> from evalkit.course.exercises import data_source, grade, variant
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
>>> from evalkit.course.exercises import Known
>>> _ = register(Exercise("99.4", "a p-value", "value", [Case("p", {}, lambda: 0.2)], decimals=2,
...                       known=(Known("1 - p, the confidence", lambda d: 0.8),
...                              Known("a resampling test", lambda d: 0.2, accepted=True,
...                                    within=lambda p: 0.03)),
...                       hint="look it up"))
>>> check("99.4", 0.8)
exercise 99.4: 0 of 1 cases pass
  ✗ p
  note: your answer matches 1 - p, the confidence
>>> check("99.4", 0.22)
exercise 99.4: 1 of 1 cases pass -- well done
  note: accepted as a resampling test
>>> _ = register(Exercise("99.3", "the mean of x", "value", [Case("the mean")],
...                       expect=lambda d: Fraction(sum(d.x), len(d.x)), data={"x": [1, 2, 4]},
...                       variant=lambda rng: {"x": rng.integers(1, 10, 3).tolist()},
...                       hint="add, then divide"))
>>> check("99.3", Fraction(7, 3))
exercise 99.3: 1 of 1 cases pass -- well done
>>> print(data_source("99.3", seed=5))
# exercise 99.3: the mean of x
from types import SimpleNamespace
x = [2, 5, 9]
data = SimpleNamespace(x=x)
>>> mine = variant("99.3", seed=5)
>>> mine.solution, grade(mine, Fraction(7, 3)).score
(Fraction(16, 3), 0.0)
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import math
import numbers
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

__all__ = ["Case", "Exercise", "Hint", "Known", "Result", "Shown", "check", "data_source",
           "exercises", "grade", "hint", "register", "show", "variant"]

_REGISTRY: dict[str, "Exercise"] = {}

KINDS = ("value", "function", "choice")
CLOSE = "close -- give the exact value, e.g. as a fraction"
CLOSE_DECIMALS = "close -- give {} decimals"
OUTCOMES = ("ok", "raised")


@dataclass(frozen=True)
class Case:
    """One case: a description shown to the learner, arguments, and the reference.

    ``expected`` is called with ``**kwargs``. Left out (``None``), the case's
    expected value is its exercise's ``expect`` applied to the exercise's data.
    """

    description: str
    kwargs: dict = field(default_factory=dict)
    expected: Callable[..., Any] | None = None  # computed with evalkit

    @property
    def args(self) -> tuple:
        """The case's inputs as positional arguments, in the order of ``kwargs``."""
        return tuple(self.kwargs.values())


@dataclass(frozen=True)
class Known:
    """A value a learner may reach from a value exercise's data other than its ``expect``.

    ``expect(data)`` computes it. ``accepted=True`` is another method the
    course teaches: an answer within ``within(value)`` of it passes, with a
    note naming ``name`` (a resampling p-value is accepted within its Monte
    Carlo error). ``accepted=False`` is a tempting mistake: an answer within
    that band still fails, and the note names the mistake. Without
    ``within``, the band is the exercise's ``decimals`` (half a unit of the
    last decimal).
    """

    name: str
    expect: Callable[[SimpleNamespace], Any]
    accepted: bool = False
    within: Callable[[float], float] | None = None


@dataclass(frozen=True)
class _FromData:
    """A case's expected value: the exercise's ``expect`` on the exercise's (loaded) data."""

    expect: Callable[[SimpleNamespace], Any]
    data: dict

    def __call__(self):
        return self.expect(SimpleNamespace(**_resolve(self.data)))


@dataclass(frozen=True)
class _Relabelled:
    """A choice case's expected letter, mapped to the letter its option has in a shuffled order."""

    expected: Callable[..., Any]
    letters: dict  # old letter -> new letter

    def __call__(self, **kwargs):
        return self.letters[str(self.expected(**kwargs)).lower()]


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id ("NN.k"), a one-line prompt, its kind, cases and a hint.

    ``kind`` is ``"value"``, ``"function"`` or ``"choice"``; a choice exercise
    lists its options in ``choices`` (letter -> text) and its cases return the
    right letter. ``hint`` is shown only when the learner asks for it.

    A value exercise's answer is ``expect(data)``, a function of its loaded
    data (an attribute per name); its cases leave ``expected`` out.
    ``variant(rng)`` draws new data of the same story (a value exercise: a
    data dict with the same names) or new cases (a function exercise: a list
    of ``Case``); ``variant_stream`` names the exercise whose draws it shares
    ("the same rows" as the exercise before).
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
    expect: Callable[[SimpleNamespace], Any] | None = None  # the answer, from the data
    variant: Callable[[np.random.Generator], Any] | None = None  # new data (or cases) of the story
    variant_stream: str = ""  # the id whose random draws a variant shares (default its own)
    known: tuple = ()  # Known values: other taught methods (accepted) or mistakes (named)

    def __post_init__(self):
        bound = [Case(c.description, c.kwargs, _FromData(self.expect, self.data))
                 if c.expected is None and self.expect is not None else c for c in self.cases]
        object.__setattr__(self, "cases", bound)


@dataclass(frozen=True)
class Result:
    """What a check found: which cases pass. Prints as the learner sees it.

    ``score`` is the share of cases passed (0 with no answer), for partial credit.
    """

    id: str
    outcomes: tuple  # (description, passed, note)
    answered: bool = True
    hint: str = ""  # shown only when asked for
    why: str = ""  # a choice question's feedback on the option chosen
    note: str = ""  # which known value a value answer matches (another method, or a mistake)

    @property
    def passed(self):
        return self.answered and all(ok for _, ok, _ in self.outcomes)

    @property
    def score(self) -> float:
        """The fraction of cases passed, in [0, 1]."""
        if not self.answered or not self.outcomes:
            return 0.0
        return sum(ok for _, ok, _ in self.outcomes) / len(self.outcomes)

    def __repr__(self):
        tail = [f"  why: {self.why}"] if self.why else []
        tail += [f"  note: {self.note}"] if self.note else []
        tail += [f"hint: {self.hint}"] if self.hint else []
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
    if any(c.expected is None for c in exercise.cases):
        raise ValueError(f"a case of {exercise.id} has no expected value "
                         "and the exercise no expect")
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
    registered = sorted(_REGISTRY.items())
    return [e for k, e in registered if notebook is None or k.startswith(notebook + ".")]


def hint(exercise_id):
    """The hint of exercise ``exercise_id`` (it never gives the answer away)."""
    ex = _load(exercise_id)
    return Hint(ex.id, ex.hint)


# -- variants ------------------------------------------------------------------

def _rng(exercise, seed):
    """The random draws of ``exercise`` for ``seed``: one stream per (seed, exercise)."""
    notebook, number = (exercise.variant_stream or exercise.id).split(".")
    return np.random.default_rng([seed, int(notebook), int(number)])


def _shuffled(ex, rng):
    """``ex`` with its options in a random order, letters a, b, ... re-assigned in that order."""
    letters = list(ex.choices)
    order = rng.permutation(len(letters))          # new position -> old position
    new_of = {letters[old]: letters[new] for new, old in enumerate(order)}
    return dataclasses.replace(
        ex,
        choices={new_of[k]: ex.choices[k] for k in sorted(ex.choices, key=new_of.get)},
        feedback={new_of[k]: ex.feedback[k] for k in sorted(ex.feedback, key=new_of.get)},
        cases=[Case(c.description, c.kwargs, _Relabelled(c.expected, new_of)) for c in ex.cases],
        solution=new_of[ex.solution])


def _with_new_data(ex, rng):
    """``ex`` on new data: cases re-bound to them, the solution computed from them."""
    cases = [Case(c.description, c.kwargs) if isinstance(c.expected, _FromData) else c
             for c in ex.cases]
    new = dataclasses.replace(ex, data=ex.variant(rng), cases=cases)
    want = new.cases[0].expected(**new.cases[0].kwargs)
    solution = want if ex.decimals is None else round(want, ex.decimals)
    return dataclasses.replace(new, solution=solution)


def variant(exercise_id: str, seed: int | None = None) -> Exercise:
    """The exercise as the student with this seed sees it; seed=None: the notebook's own.

    A value exercise gets new data of the same story (``Exercise.variant``)
    and the expected values computed from them; a function exercise gets more
    cases with new inputs; a choice exercise keeps its data and shows its
    options in an order drawn from the seed (the letters re-assigned, the
    feedback and the right letter mapped with them). ``.solution`` is a
    correct answer of the variant. The draws are
    ``np.random.default_rng([seed, notebook, exercise])``: one stream per
    exercise, so two exercises of one seed do not share draws (unless one
    names the other in ``variant_stream``, to show "the same rows").

    >>> variant("01.2", seed=None) is variant("01.2")
    True
    >>> sorted(variant("01.2", seed=7).choices) == sorted(variant("01.2").choices)
    True
    """
    ex = _load(exercise_id)
    if seed is None:
        return ex
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must be 0 or more, got {seed}")
    rng = _rng(ex, int(seed))
    if ex.kind == "choice":
        return _shuffled(ex, rng)
    if ex.variant is None:
        return ex
    if ex.kind == "function":
        return dataclasses.replace(ex, cases=list(ex.cases) + list(ex.variant(rng)))
    return _with_new_data(ex, rng)


# -- the data, as the learner sees them ------------------------------------------

def _names(name):
    return [n.strip() for n in name.split(",")]


def _resolve(data):
    """The exercise's data with every loader run: name -> value (one name per unpacked value)."""
    out = {}
    for name, value in data.items():
        names = _names(name)
        values = value() if callable(value) else value
        out.update(zip(names, values) if len(names) > 1 else [(name, values)])
    return out


def _call(loader):
    """``NAME(...)``: a loader's call as the learner types it (a partial's keywords spelled out)."""
    func, kwargs = loader, {}
    if isinstance(loader, functools.partial):
        func, kwargs = loader.func, loader.keywords
    arguments = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    return func, f"{func.__name__}({arguments})"


def _lines(ex, cell=False):
    """The data of ``ex`` as Python lines; ``cell=True`` also binds ``data`` (a data cell)."""
    lines = [f"# exercise {ex.id}" + (f" ({ex.kind_of_question})" if ex.kind_of_question else "")
             + f": {ex.prompt}"]
    if cell:
        lines.append("from types import SimpleNamespace")
    for name, value in ex.data.items():
        if callable(value):  # a loader: the data are too many to print
            func, call = _call(value)
            lines.append(f"from {func.__module__} import {func.__name__}")
            lines.append(f"{name} = {call}")
        else:
            lines.append(f"{name} = {_literal(value)}")
    if cell:
        names = [n for name in ex.data for n in _names(name)]
        lines.append(f"data = SimpleNamespace({', '.join(f'{n}={n}' for n in names)})")
    if ex.kind == "choice":
        lines.append("# options -- answer with the letter, e.g. answer = \"a\":")
        for letter, text in ex.choices.items():
            lines.append(f"#   {letter}: {text}")
    return lines


class Shown:
    """An exercise's data: printed as Python assignments, readable as attributes."""

    def __init__(self, exercise):
        self._exercise = exercise
        for name, value in _resolve(exercise.data).items():
            setattr(self, name, value)

    def __repr__(self):
        return "\n".join(_lines(self._exercise))


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
    """The data of exercise ``exercise_id``: ``name = value`` lines, an attribute a name."""
    return Shown(_load(exercise_id))


def data_source(exercise_id: str, seed: int | None = None) -> str:
    """Python source of the student's data cell of exercise ``exercise_id`` for ``seed``.

    A comment with the id and prompt, one assignment per data name (as
    :func:`show` prints them: literals, or a loader imported from
    :mod:`evalkit.course.exercise_data` and called), ``data =
    SimpleNamespace(...)`` binding every name (so ``data.rows`` works as after
    ``data = show(id)``), and a choice's options, in the student's order, as
    comments. It imports only from the standard library and
    ``evalkit.course.exercise_data``.

    >>> _ = register(Exercise("99.6", "two counts, added", "value", [Case("their sum")],
    ...                       expect=lambda d: d.a + d.b, data={"a": 2, "b": [3, 4]}))
    >>> print(data_source("99.6"))
    # exercise 99.6: two counts, added
    from types import SimpleNamespace
    a = 2
    b = [3, 4]
    data = SimpleNamespace(a=a, b=b)
    """
    return "\n".join(_lines(variant(exercise_id, seed), cell=True))


def _is_number(v):
    """A real number: int, float, Fraction, numpy scalar -- not a bool."""
    number = isinstance(v, (numbers.Real, np.integer, np.floating))
    return number and not isinstance(v, (bool, np.bool_))


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
    """True if ``got`` is ``want`` rounded or cut to the significant digits (2 or more) it gives."""
    places = _decimals(got)
    if places is None or places[1] < 2 or not _is_number(want):
        return False
    d = places[0]
    w = float(want)
    scale = 10.0 ** d
    candidates = (round(w, d), math.trunc(w * scale) / scale)
    tolerance = 0.5 / scale / 100
    return any(math.isclose(float(got), c, rel_tol=0, abs_tol=tolerance) for c in candidates)


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


def _compare(ex, got, want):
    """(passed, note) of one case's answer ``got`` against ``want``."""
    if ex.decimals is not None:
        ok = _same_to(got, want, ex.decimals)
    else:
        ok = _same(got, want, ex.rtol)
    if ok or ex.kind == "choice":
        return ok, ""
    if isinstance(got, float) and math.isnan(got):
        return False, "got nan"
    if ex.decimals is not None:
        return False, CLOSE_DECIMALS.format(ex.decimals) if _close(got, want) else ""
    return False, CLOSE if _close(got, want) else ""


def _known_match(ex, answer):
    """The first of ``ex.known`` that ``answer`` (one number) lies within the band of, or None."""
    if not ex.known or not _is_number(answer):
        return None
    data = SimpleNamespace(**_resolve(ex.data))
    for known in ex.known:
        value = float(known.expect(data))
        band = known.within(value) if known.within else 0.5 * 10.0 ** -(ex.decimals or 9)
        if abs(float(answer) - value) <= band + 1e-12:
            return known
    return None


def _with_known(ex, answer, outcomes):
    """(outcomes, note): a miss that matches a known value, passed (another method) or explained."""
    if all(ok for _, ok, _ in outcomes):
        return outcomes, ""
    known = _known_match(ex, answer)
    if known is None:
        return outcomes, ""
    if known.accepted:
        return (tuple((d, True, "") for d, _, _ in outcomes),
                f"accepted as {known.name}")
    return outcomes, f"your answer matches {known.name}"


def _error_text(exc):
    """``"TypeError: message"`` (the name alone when there is no message)."""
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _outputs(ex, function):
    """What ``function`` gives on each case, called positionally: ("ok", value) or ("raised", …)."""
    out = []
    for case in ex.cases:
        try:  # a copy of the inputs: the learner's code may change them
            out.append(("ok", function(*copy.deepcopy(case.args))))
        except Exception as exc:  # the learner's code may fail in any way
            out.append(("raised", _error_text(exc)))
    return out


def _check_outputs(ex, outputs):
    if not isinstance(outputs, (list, tuple)) or len(outputs) != len(ex.cases):
        raise ValueError(f"outputs must be a list of one entry per case ({len(ex.cases)} for "
                         f"{ex.id}); got {outputs!r:.80}")
    for entry in outputs:
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and entry[0] in OUTCOMES):
            raise ValueError("each of outputs must be ('ok', value) or "
                             "('raised', 'Error: message'); "
                             f"got {entry!r:.80}")


def _grade_function(ex, answer, outputs):
    if outputs is None:
        if answer is ... or answer is None:
            return Result(ex.id, (), answered=False)
        if not callable(answer):
            return Result(ex.id, tuple((c.description, False, "the answer should be a function")
                                       for c in ex.cases))
        outputs = _outputs(ex, answer)
    _check_outputs(ex, outputs)
    # a stub still returning ... is no answer yet
    if outputs and outputs[0][0] == "ok" and outputs[0][1] is ...:
        return Result(ex.id, (), answered=False)
    outcomes = []
    for case, (status, value) in zip(ex.cases, outputs):
        if status == "raised":
            outcomes.append((case.description, False, f"raised {value}"))
        else:
            outcomes.append((case.description, *_compare(ex, value, case.expected(**case.kwargs))))
    return Result(ex.id, tuple(outcomes))


def grade(exercise: Exercise, answer=None, *, outputs=None) -> Result:
    """Grade ``answer`` to the exercise object ``exercise`` case by case; return a Result.

    A value is compared with each case's expected value (exact for a
    rational, to ``decimals`` for an irrational; a number right only to the
    digits it gives is "close"); a choice letter is normalised (case,
    brackets, spaces) and the chosen option's feedback given as ``why``. For a
    function exercise, ``outputs`` holds what the learner's function gave on
    each case, in order: ``("ok", value)`` or ``("raised", "TypeError:
    message")`` (a sandbox calls the function; only its outputs come here);
    left out, a callable ``answer`` is called here on each case's ``args``.
    ``...`` or ``None`` is no answer yet. ``Result.score`` is the share of
    cases passed.

    >>> ex = variant("01.3")
    >>> grade(ex, outputs=[("ok", 0.9), ("ok", 0.99), ("ok", 0.3), ("raised", "ZeroDivisionError")])
    exercise 01.3: 2 of 4 cases pass
      ✗ three classes of 20, 50 and 30
      ✗ a tie: 50 and 50 (raised ZeroDivisionError)
    >>> grade(ex, lambda sizes: max(sizes) / sum(sizes)).score
    1.0
    """
    if not isinstance(exercise, Exercise):
        raise TypeError(f"exercise must be an Exercise, got {type(exercise).__name__}")
    ex = exercise
    if ex.kind == "function":
        return _grade_function(ex, answer, outputs)
    if outputs is not None:
        raise ValueError(f"outputs is for a function exercise; {ex.id} is a {ex.kind} exercise")
    if answer is ... or answer is None:
        return Result(ex.id, (), answered=False)
    why = ""
    if ex.kind == "choice":
        answer = _normalise_choice(answer)
        if answer not in {k.lower() for k in ex.choices}:
            note = "answer with one of " + ", ".join(repr(k) for k in ex.choices)
            return Result(ex.id, tuple((c.description, False, note) for c in ex.cases))
        why = ex.feedback.get(answer, "")
    outcomes = []
    for case in ex.cases:
        want = case.expected(**case.kwargs)
        if ex.kind == "choice":
            want = str(want).lower()
        outcomes.append((case.description, *_compare(ex, answer, want)))
    outcomes, note = _with_known(ex, answer, tuple(outcomes))
    return Result(ex.id, outcomes, why=why, note=note)


def check(exercise_id, answer, hint=False):
    """Check ``answer`` to exercise ``exercise_id`` case by case; return a printable Result.

    A function answer is called on each case's inputs positionally
    (``answer(*case.args)``), so any parameter names (or a lambda) will do.
    With ``hint=True`` the exercise's hint is printed below the result.
    """
    ex = _load(exercise_id)
    outputs = None
    if ex.kind == "function" and callable(answer):
        outputs = _outputs(ex, answer)
    result = grade(ex, answer, outputs=outputs)
    return dataclasses.replace(result, hint=ex.hint if hint else "")
