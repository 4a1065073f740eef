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
close, with the number of decimals it gives. An irrational answer (a p-value, a
Wilson bound) sets ``decimals``: it passes when it agrees to that many decimals,
and a shorter one is told how many decimals count. A float32 passes within
float32's own precision (a few units in its last place); a float16, which keeps
about 3 digits, is told so.

A miss says what to fix without the expected value: which numbers of a list
answer are wrong or only rounded (by position, ``answer[1]``, and by name where
the exercise's ``components`` names them), what is wrong with the answer's form
(None, a string, another shape), and for a function exercise the inputs of each
failing case (each shortened to 100 characters). A value exercise may list
``known`` values (:class:`Known`): the value another method the course teaches
gives (accepted within its Monte Carlo error, with a note naming it) or a known
mistake (rejected, with a note naming the misconception, never the right value).
Only an answer that gives the decimals that count is matched with a known value.
Every exercise has a hint, shown only when asked: ``check(id, answer, hint=True)``
or ``hint(id)``.

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
  ✗ 95 of 120 (your answer is close but gives 2 decimals -- this exercise wants the exact
  value: a fraction, or every digit)
>>> import numpy as np
>>> check("99.1", np.float32(95 / 120))
exercise 99.1: 1 of 1 cases pass -- well done
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
  ✗ p (your answer is close but gives 3 decimals -- 4 decimals count: give 4 or more; a float
  drops a last 0, so then give more digits)
>>> _ = register(Exercise("99.5", "[precision, recall] of 3 hits in 4 predicted, 6 actual", "value",
...                       [Case("3 hits", {}, lambda: [Fraction(3, 4), Fraction(3, 6)])],
...                       components=("precision", "recall"), hint="hits over ..."))
>>> check("99.5", [0.75, 0.6])
exercise 99.5: 0 of 1 cases pass
  ✗ 3 hits (recall (answer[1]) is wrong)
>>> check("99.5", 0.75)
exercise 99.5: 0 of 1 cases pass
  ✗ 3 hits (your answer is a single number; a list of 2 is wanted)
>>> from evalkit.course.exercises import Known
>>> _ = register(Exercise("99.4", "a p-value", "value", [Case("p", {}, lambda: 0.23)], decimals=2,
...                       known=(Known("1 - p, the confidence", lambda d: 0.77),
...                              Known("a resampling test", lambda d: 0.23, accepted=True,
...                                    within=lambda p: 0.03)),
...                       hint="look it up"))
>>> check("99.4", 0.77)
exercise 99.4: 0 of 1 cases pass
  ✗ p
  note: your answer matches 1 - p, the confidence
>>> check("99.4", 0.25)
exercise 99.4: 1 of 1 cases pass -- well done
  note: accepted as a resampling test
>>> check("99.4", 0.2)
exercise 99.4: 0 of 1 cases pass
  ✗ p (your answer gives 1 decimal -- 2 decimals count: give 2 or more; a float drops a last 0,
  so then give more digits)
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
from typing import Any, Callable, NamedTuple

import numpy as np

__all__ = ["Case", "Exercise", "Hint", "Known", "Outcome", "Result", "Shown", "check",
           "data_source", "exercises", "grade", "hint", "register", "show", "variant"]

_REGISTRY: dict[str, "Exercise"] = {}

KINDS = ("value", "function", "choice")
OUTCOMES = ("ok", "raised")

# How one number of an answer compares with the one wanted (the words a note says after it).
RIGHT = "is right"
WRONG = "is wrong"
NAN = "is nan"
ROUNDED = "is close"  # the right value rounded or cut to the digits it gives
SHORT = "gives"  # fewer decimals than an exercise's decimals count, and not close
FLOAT16 = "is a float16"

#: what a rounded answer to an exercise without ``decimals`` (a rational answer) is told
EXACT = "this exercise wants the exact value: a fraction, or every digit"
#: what a rounded answer to an exercise with ``decimals`` is told
DECIMALS = "{0} decimals count: give {0} or more; a float drops a last 0, so then give more digits"
FLOAT16_NOTE = "a float16 keeps about 3 digits: compute in float64"
#: float32's own precision, relative (and absolute near 0): a float32 computed from the right
#: value, or by a few float32 steps, lies within a few units in its last place
FLOAT32_RTOL = 8 * float(np.finfo(np.float32).eps)
FLOAT16_RTOL = 8 * float(np.finfo(np.float16).eps)
SHOWN_INPUT = 100  # characters of one input shown under a failing case
SHOWN_COMPONENTS = 6  # wrong numbers of one answer named, then "and N more"
_WHOLE = {"answer": "your answer", "result": "the result"}


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
    that band still fails, and the note names the mistake (the misconception,
    never the right value). Without ``within``, the band is the exercise's
    ``decimals`` (half a unit of the last decimal), or for an exact answer
    the value itself, exact or to the digits the answer gives. A band of its
    own (``within``) takes only answers that give the decimals that count: a
    band wider than a rounding must not let a rounded answer pass.
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

    A miss of a list answer names the numbers that are wrong, by position
    (``answer[1]``) and, where ``components`` names them (one name per entry
    of the first axis), by name: ``recall (answer[1]) is wrong``.
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
    components: tuple = ()  # names of a list answer's numbers (its first axis), for the notes

    def __post_init__(self):
        bound = [Case(c.description, c.kwargs, _FromData(self.expect, self.data))
                 if c.expected is None and self.expect is not None else c for c in self.cases]
        object.__setattr__(self, "cases", bound)


class Outcome(NamedTuple):
    """One case as graded: its description, whether it passed, why not, and its inputs.

    ``note`` says what is wrong without the expected value: which numbers of
    the answer are wrong or only rounded, its form, or the error raised.
    ``inputs`` are a function case's arguments (each repr cut short), shown
    under a failing case so that the learner can call the function on them.
    """

    description: str
    passed: bool
    note: str = ""
    inputs: str = ""


@dataclass(frozen=True)
class Result:
    """What a check found: which cases pass. Prints as the learner sees it.

    ``score`` is the share of cases passed (0 with no answer), for partial credit.
    """

    id: str
    outcomes: tuple  # of Outcome
    answered: bool = True
    hint: str = ""  # shown only when asked for
    why: str = ""  # a choice question's feedback on the option chosen
    note: str = ""  # which known value a value answer matches (another method, or a mistake)

    @property
    def passed(self):
        return self.answered and all(o.passed for o in self.outcomes)

    @property
    def score(self) -> float:
        """The fraction of cases passed, in [0, 1]."""
        if not self.answered or not self.outcomes:
            return 0.0
        return sum(o.passed for o in self.outcomes) / len(self.outcomes)

    def __repr__(self):
        tail = [f"  why: {self.why}"] if self.why else []
        tail += [f"  note: {self.note}"] if self.note else []
        tail += [f"hint: {self.hint}"] if self.hint else []
        if not self.answered:
            return "\n".join([f"exercise {self.id}: no answer yet -- replace ... with your answer "
                              "and run this cell again"] + tail)
        n_ok = sum(o.passed for o in self.outcomes)
        head = f"exercise {self.id}: {n_ok} of {len(self.outcomes)} cases pass"
        if self.passed:
            return "\n".join([head + " -- well done"] + tail)
        lines = [head]
        for outcome in self.outcomes:
            if outcome.passed:
                continue
            line = f"  ✗ {outcome.description}"
            if outcome.note:
                line += f" ({outcome.note})"
            lines.append(line)
            if outcome.inputs:
                lines.append(f"    inputs: {outcome.inputs}")
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
    if not all(isinstance(name, str) for name in exercise.components):
        raise TypeError(f"components of {exercise.id} must be strings")
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
    try:
        arr = np.asarray(x, dtype=object)
    except ValueError:  # a ragged nesting numpy refuses
        return False
    if not arr.size:
        return True
    return all(_is_number(v) for v in arr.ravel())


def _as_float(x):
    return np.asarray(np.vectorize(float, otypes=[float])(np.asarray(x, dtype=object)), dtype=float)


def _same(got, want, rtol, atol=1e-12):
    try:
        if isinstance(want, (str, bool)) or want is None:
            return type(got) is type(want) and got == want
        if not _numeric(got):
            return False
        g, w = _as_float(got), _as_float(want)
        return g.shape == w.shape and bool(np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True))
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


def _gives_the_decimals(ex, answer):
    """True unless ``answer`` is a float that gives fewer decimals than ``ex.decimals`` count."""
    if ex.decimals is None:
        return True
    places = _decimals(answer)
    if places is None:  # an int, or a float too long to be typed by hand
        return True
    return places[0] >= ex.decimals


def _leaves(x):
    """The numbers of ``x`` in row-major order, each as given (a float32 stays a float32)."""
    if isinstance(x, np.ndarray):
        return list(x.ravel())
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _agrees(ex, got, want):
    """One number: right to ``decimals``, or within ``rtol`` (float32's own precision for one)."""
    if ex.decimals is not None:
        return _same_to(got, want, ex.decimals)
    if isinstance(got, np.float32):
        return _same(got, want, max(ex.rtol, FLOAT32_RTOL), atol=FLOAT32_RTOL)
    return _same(got, want, ex.rtol)


def _status(ex, got, want):
    """How one number of an answer compares with the one wanted: RIGHT, ROUNDED, NAN, ..."""
    if _agrees(ex, got, want):
        return RIGHT
    if isinstance(got, (float, np.floating)) and math.isnan(got):
        return NAN
    if _agrees_to_digits_given(got, want):
        return ROUNDED
    if not _gives_the_decimals(ex, got):
        return SHORT
    if isinstance(got, np.float16) and _same(got, want, FLOAT16_RTOL, atol=FLOAT16_RTOL):
        return FLOAT16
    return WRONG


def _shape_text(shape):
    if shape == ():
        return "a single number"
    if len(shape) == 1:
        return f"a list of {shape[0]}"
    return f"an array of shape {shape}"


def _form_problem(got, want, whole):
    """What is wrong with the form of ``got`` (not a number, another shape), or ""."""
    if got is None:
        return f"{whole} is None: a function that ends without return gives None"
    if not _numeric(got):
        return f"{whole} is a {type(got).__name__}, not {_shape_text(np.shape(want))}"
    shape, wanted = np.shape(np.asarray(got, dtype=object)), np.shape(want)
    if shape != wanted:
        return f"{whole} is {_shape_text(shape)}; {_shape_text(wanted)} is wanted"
    return ""


def _component(ex, shape, i, root):
    """The name of number ``i`` of an answer of ``shape``: "recall (answer[1])", "answer[2][0]"."""
    if shape == ():
        return _WHOLE[root]
    index = np.unravel_index(i, shape)
    position = root + "".join(f"[{j}]" for j in index)
    if index[0] < len(ex.components):
        return f"{ex.components[index[0]]} ({position})"
    return position


def _phrase(status, who, got):
    """One number ``got`` of an answer: "recall (answer[1]) is wrong", "... gives 2 decimals"."""
    if status not in (ROUNDED, SHORT):
        return f"{who} {status}"
    given = _decimals(got)[0]
    decimals = f"{given} decimals"
    if given == 1:
        decimals = "1 decimal"
    if status == ROUNDED:
        return f"{who} is close but gives {decimals}"
    return f"{who} gives {decimals}"


def _note(ex, got, want, root):
    """The note of a miss: which numbers are wrong or rounded, and what to do about it."""
    shape = np.shape(want)
    statuses = [_status(ex, g, w) for g, w in zip(_leaves(got), _leaves(want))]
    if shape == () and statuses == [WRONG]:
        return ""  # the ✗ says it all
    phrases = [_phrase(status, _component(ex, shape, i, root), got_i)
               for i, (status, got_i) in enumerate(zip(statuses, _leaves(got))) if status != RIGHT]
    shown = phrases[:SHOWN_COMPONENTS]
    if len(phrases) > len(shown):
        shown.append(f"and {len(phrases) - len(shown)} more")
    note = "; ".join(shown)
    if ROUNDED in statuses and ex.decimals is None:
        note += " -- " + EXACT
    if (ROUNDED in statuses or SHORT in statuses) and ex.decimals is not None:
        note += " -- " + DECIMALS.format(ex.decimals)
    if FLOAT16 in statuses:
        note += " -- " + FLOAT16_NOTE
    return note


def _normalise_choice(answer):
    if not isinstance(answer, str):
        return None
    return answer.strip().strip("()").strip().lower() or None


def _compare(ex, got, want, root="answer"):
    """(passed, note) of one case's answer ``got`` against ``want``.

    ``root`` names the answer in the note: "answer" (a value) or "result"
    (what a function returned).
    """
    if ex.kind == "choice" or isinstance(want, (str, bool)) or want is None:
        return _same(got, want, ex.rtol), ""
    problem = _form_problem(got, want, _WHOLE[root])
    if problem:
        return False, problem
    if all(_agrees(ex, g, w) for g, w in zip(_leaves(got), _leaves(want))):
        return True, ""
    return False, _note(ex, got, want, root)


def _matches(ex, known, answer, value):
    """``answer`` (one number) is ``value`` of ``known``, within its band."""
    if known.within is not None:  # a band of its own, for answers that give the decimals
        near = abs(float(answer) - value) <= known.within(value) + 1e-12
        return near and _gives_the_decimals(ex, answer)
    if ex.decimals is not None:
        return abs(float(answer) - value) <= 0.5 * 10.0 ** -ex.decimals + 1e-12
    return _same(answer, value, ex.rtol) or _agrees_to_digits_given(answer, value)


def _known_match(ex, answer):
    """The first of ``ex.known`` that ``answer`` (one number) matches, or None."""
    if not ex.known or not _is_number(answer):
        return None
    data = SimpleNamespace(**_resolve(ex.data))
    for known in ex.known:
        if _matches(ex, known, answer, float(known.expect(data))):
            return known
    return None


def _with_known(ex, answer, outcomes, wanted):
    """(outcomes, note): a miss that matches a known value, passed (another method) or explained.

    An answer that is the expected value rounded is told so, not matched with
    a known value (its few digits could match one by chance).
    """
    if all(o.passed for o in outcomes) or not _is_number(answer):
        return outcomes, ""
    if any(_status(ex, answer, want) == ROUNDED for want in wanted):
        return outcomes, ""
    known = _known_match(ex, answer)
    if known is None:
        return outcomes, ""
    if known.accepted:
        return tuple(Outcome(o.description, True) for o in outcomes), f"accepted as {known.name}"
    return outcomes, f"your answer matches {known.name}"


def _source(value):
    """``repr(value)`` with every set's items sorted, so that a case prints the same every run."""
    if isinstance(value, list):
        return "[" + ", ".join(_source(v) for v in value) + "]"
    if isinstance(value, tuple) and len(value) != 1:
        return "(" + ", ".join(_source(v) for v in value) + ")"
    if isinstance(value, (set, frozenset)) and value:
        return "{" + ", ".join(sorted((_source(v) for v in value))) + "}"
    return repr(value)


def _short(value):
    """The Python of ``value``, cut to SHOWN_INPUT characters (with its length said, if any)."""
    text = _source(value)
    if len(text) <= SHOWN_INPUT:
        return text
    cut = text[:SHOWN_INPUT] + " ..."
    if hasattr(value, "__len__"):
        cut += f" ({len(value)} items)"
    return cut


def _inputs(case):
    """A function case's inputs as the learner can type them: ``name=value, ...`` (shortened)."""
    return ", ".join(f"{name}={_short(value)}" for name, value in case.kwargs.items())


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
            return Result(ex.id, tuple(Outcome(c.description, False,
                                               "the answer should be a function")
                                       for c in ex.cases))
        outputs = _outputs(ex, answer)
    _check_outputs(ex, outputs)
    # a stub still returning ... is no answer yet
    if outputs and outputs[0][0] == "ok" and outputs[0][1] is ...:
        return Result(ex.id, (), answered=False)
    outcomes = []
    for case, (status, value) in zip(ex.cases, outputs):
        if status == "raised":
            passed, note = False, f"raised {value}"
        else:
            passed, note = _compare(ex, value, case.expected(**case.kwargs), root="result")
        outcomes.append(Outcome(case.description, passed, note, _inputs(case)))
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
    >>> grade(ex, outputs=[("ok", 0.82), ("ok", 0.9802), ("ok", 0.3), ("ok", 0.5),
    ...                    ("raised", "ZeroDivisionError")])
    exercise 01.3: 3 of 5 cases pass
      ✗ three classes of 20, 50 and 30
        inputs: class_sizes=[20, 50, 30]
      ✗ the tumours of section 7: 90 benign, 53 malignant (raised ZeroDivisionError)
        inputs: class_sizes=[90, 53]
    >>> grade(ex, lambda sizes: sum((n / sum(sizes)) ** 2 for n in sizes)).score
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
            return Result(ex.id, tuple(Outcome(c.description, False, note) for c in ex.cases))
        why = ex.feedback.get(answer, "")
    outcomes, wanted = [], []
    for case in ex.cases:
        want = case.expected(**case.kwargs)
        if ex.kind == "choice":
            want = str(want).lower()
        wanted.append(want)
        outcomes.append(Outcome(case.description, *_compare(ex, answer, want)))
    if ex.kind == "choice":
        return Result(ex.id, tuple(outcomes), why=why)
    outcomes, note = _with_known(ex, answer, tuple(outcomes), wanted)
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
