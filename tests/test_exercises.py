"""Every notebook's exercises: the solution passes, wrong answers fail, and the
notebooks only check exercises that exist.

Generic over ``evalkit/course/exercises/nbNN.py`` and ``notebooks/NN-*.ipynb``: a new
notebook with exercises is covered without touching this file. An exercises
module may define ``WRONG_ANSWERS = {"NN.k": [answer, ...]}``, tempting
mistakes the checker must reject, on top of the generic "off by one" answer.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from evalkit.course.exercises import CLOSE, Case, Exercise, check, exercises, hint, register

ROOT = Path(__file__).resolve().parent.parent
EXERCISE_MODULES = sorted((ROOT / "evalkit" / "course" / "exercises").glob("nb[0-9][0-9].py"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
CHECK_CALL = re.compile(r"""\bcheck\(\s*(["'])(?P<id>[^"']*)\1""")
EXERCISES_HEADING = re.compile(r"^##\s+Exercises\s*$", re.MULTILINE)


def _number(module_path: Path) -> str:
    return module_path.stem[2:]  # "nb01" -> "01"


def _module(number: str):
    return importlib.import_module(f"evalkit.course.exercises.nb{number}")


def _all_exercises():
    out = []
    for path in EXERCISE_MODULES:
        number = _number(path)
        _module(number)
        out += [pytest.param(number, ex, id=ex.id) for ex in exercises(number)]
    return out


def _off(value):
    """A clearly wrong version of a value: numbers moved by 1 (nan becomes 0)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return value + " (wrong)"
    arr = np.asarray(value, dtype=float)
    wrong = np.where(np.isnan(arr), 0.0, arr + 1.0)
    return float(wrong) if wrong.ndim == 0 else wrong


def _wrong_answer(ex):
    if ex.kind == "function":
        return lambda **kwargs: _off(ex.solution(**kwargs))
    return _off(ex.solution)


def _wrong_answers():
    out = []
    for path in EXERCISE_MODULES:
        number = _number(path)
        for ex_id, answers in getattr(_module(number), "WRONG_ANSWERS", {}).items():
            out += [pytest.param(ex_id, answer, id=f"{ex_id}-wrong{i}")
                    for i, answer in enumerate(answers)]
    return out


def _code_and_markdown(nb_path: Path):
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    code, markdown = [], []
    for cell in nb["cells"]:
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        (code if cell["cell_type"] == "code" else markdown).append(src)
    return code, markdown


def test_there_are_exercise_modules():
    assert EXERCISE_MODULES, "no evalkit/course/exercises/nbNN.py found"


@pytest.mark.parametrize("path", EXERCISE_MODULES, ids=lambda p: p.stem)
def test_module_registers_its_own_exercises(path):
    number = _number(path)
    _module(number)
    registered = exercises(number)
    assert registered, f"{path.name} registers no exercise"
    for ex in registered:
        assert re.fullmatch(rf"{number}\.[1-9]\d*", ex.id), ex.id
        assert ex.kind in ("value", "function", "choice")
        assert ex.cases, f"{ex.id} has no case"
        assert ex.solution is not None, f"{ex.id} has no solution"


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_solution_passes(number, ex):
    result = check(ex.id, ex.solution)
    assert result.passed, repr(result)
    assert repr(result).splitlines()[0].endswith("well done")


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_wrong_answer_fails(number, ex):
    result = check(ex.id, _wrong_answer(ex))
    assert not result.passed, f"{ex.id}: an answer off by one passes"
    assert "✗" in repr(result)


@pytest.mark.parametrize("ex_id, answer", _wrong_answers())
def test_tempting_wrong_answer_fails(ex_id, answer):
    result = check(ex_id, answer)
    assert not result.passed, f"{ex_id}: a known wrong answer passes"


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_no_answer_yet(number, ex):
    result = check(ex.id, ...)
    assert not result.passed
    assert "no answer yet" in repr(result)


@pytest.mark.parametrize("number, ex", [p for p in _all_exercises()
                                        if p.values[1].kind == "function"])
def test_function_exercise_rejects_a_value_and_a_crash(number, ex):
    assert not check(ex.id, 0.5).passed

    def crash(**kwargs):
        raise ZeroDivisionError

    result = check(ex.id, crash)
    assert not result.passed
    assert "raised ZeroDivisionError" in repr(result)


def _revealing(want):
    """Ways a message could give ``want`` away: its digits, or the letter of a choice."""
    if isinstance(want, str):
        return [f"'{want}'", f"({want})", f" {want} "]
    values = np.asarray(want, dtype=float).ravel()
    return [f"{v:.{d}f}" for v in values if math.isfinite(v) and v not in (0.0, 1.0)
            for d in (2, 4)]


def _messages(ex):
    """Everything the learner can be shown for a wrong, a close and no answer, and the hint."""
    answers = [_wrong_answer(ex), ...]
    if ex.kind == "value" and _numeric_solution(ex):
        answers.append(np.round(np.asarray(ex.solution, dtype=float), 2).tolist())
    return [repr(check(ex.id, a, hint=True)) for a in answers] + [repr(hint(ex.id))]


def _numeric_solution(ex):
    try:
        np.asarray(ex.solution, dtype=float)
    except (TypeError, ValueError):
        return False
    return not isinstance(ex.solution, str)


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_check_messages_do_not_reveal_expected_values(number, ex):
    """The report and the hint name cases and ideas, never the expected numbers or letter."""
    for text in _messages(ex):
        body = text.split("hint", 1)[-1] if ex.kind == "choice" else text
        for case in ex.cases:
            want = case.expected(**case.kwargs)
            for shown in _revealing(want):
                assert shown not in body, (ex.id, case.description, shown, text)


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_every_exercise_has_a_hint_shown_only_when_asked(number, ex):
    assert ex.hint.strip(), f"{ex.id} has no hint: give every exercise a hint= (issue 10)"
    assert ex.hint in repr(hint(ex.id))
    assert ex.hint in repr(check(ex.id, ex.solution, hint=True))
    assert ex.hint in repr(check(ex.id, _wrong_answer(ex), hint=True))
    assert ex.hint not in repr(check(ex.id, _wrong_answer(ex)))
    assert ex.hint not in repr(check(ex.id, ex.solution))


@pytest.mark.parametrize("number, ex", [p for p in _all_exercises()
                                        if p.values[1].kind == "choice"])
def test_choice_exercise(number, ex):
    right = ex.solution
    assert right in ex.choices
    assert check(ex.id, f" ({right.upper()}) ").passed          # case and brackets do not matter
    for other in ex.choices:
        if other != right:
            assert not check(ex.id, other).passed, f"{ex.id}: choice {other!r} passes too"
    result = check(ex.id, "not a choice")
    assert not result.passed and "answer with one of" in repr(result)


# -- the checker itself, on exercises made up here -------------------------

_THIRDS = register(Exercise("98.1", "95 right out of 120", "value",
                            [Case("95 of 120", {}, lambda: 95 / 120)],
                            solution=95 / 120, hint="right answers over all answers"))
_ROWS = register(Exercise("98.2", "two ratios", "value",
                          [Case("1/6 and 1/2", {}, lambda: [1 / 6, 0.5])],
                          solution=[1 / 6, 0.5], hint="two ratios"))
_PICK = register(Exercise("98.3", "which is the harmonic mean", "choice",
                          [Case("F1", {}, lambda: "b")], solution="b",
                          choices={"a": "arithmetic", "b": "harmonic", "c": "geometric"},
                          feedback={"a": "(P + R) / 2 lets a large value hide a small one",
                                    "b": "2PR / (P + R): the smaller value dominates",
                                    "c": "sqrt(PR) sits between the two"},
                          hint="the one that punishes a small value"))
_DIGITS = register(Exercise("98.5", "a p-value", "value", [Case("p", {}, lambda: 0.0123456)],
                            decimals=4, solution=0.0123, hint="look it up"))


def test_exact_fractions_are_accepted():
    assert check("98.1", Fraction(95, 120)).passed
    assert check("98.1", Fraction(19, 24)).passed
    assert not check("98.1", Fraction(19, 25)).passed
    assert check("98.2", [Fraction(1, 6), Fraction(1, 2)]).passed
    assert check("98.2", np.array([Fraction(1, 6), Fraction(1, 2)], dtype=object)).passed
    assert check("01.1", [Fraction(9, 10), Fraction(3, 4), Fraction(9, 11)]).passed


@pytest.mark.parametrize("answer", [0.79, 0.792, 0.7917, 0.7916])   # rounded or cut
def test_an_answer_right_to_the_digits_given_is_close_not_right(answer):
    result = check("98.1", answer)
    assert not result.passed
    assert CLOSE in repr(result)
    assert "0.7916" not in repr(result) and "0.7917" not in repr(result)


@pytest.mark.parametrize("answer", [0.8, 0.78, 0.7918, 1, 0.0])
def test_a_wrong_or_too_coarse_answer_is_not_called_close(answer):
    result = check("98.1", answer)
    assert not result.passed
    assert CLOSE not in repr(result)


def test_close_works_element_by_element():
    assert CLOSE in repr(check("98.2", [0.1667, 0.5]))
    assert CLOSE in repr(check("98.2", [0.166, 0.5]))
    assert CLOSE not in repr(check("98.2", [0.1667, 0.6]))   # one number plainly wrong
    assert not check("98.2", [0.1667, 0.5]).passed


def test_hint_only_when_asked():
    assert "right answers over all answers" not in repr(check("98.1", 0.5))
    assert "hint: right answers over all answers" in repr(check("98.1", 0.5, hint=True))
    assert "hint: right answers over all answers" in repr(check("98.1", ..., hint=True))
    assert repr(hint("98.1")) == "hint for exercise 98.1: right answers over all answers"
    with pytest.raises(ValueError, match="no exercise"):
        hint("98.9")


def test_choice_checker():
    assert check("98.3", "b").passed and check("98.3", "B").passed
    assert not check("98.3", "a").passed
    assert "answer with one of 'a', 'b', 'c'" in repr(check("98.3", "d"))
    assert "answer with one of" in repr(check("98.3", 2))
    with pytest.raises(ValueError, match="choices"):
        register(Exercise("98.4", "no options", "choice", [Case("x", {}, lambda: "a")],
                          choices={"a": "x", "b": "y"}, feedback={"a": "why"}))
    assert "why: (P + R) / 2 lets a large value hide a small one" in repr(check("98.3", "a"))
    assert "why: 2PR / (P + R)" in repr(check("98.3", "b"))


@pytest.mark.parametrize("answer, passes, close", [
    (0.0123, True, False), (0.01235, True, False), (0.0123456, True, False),
    (0.012, False, True), (0.0124, False, False), (0.01, False, False)])
def test_decimals_count_and_close_says_how_many(answer, passes, close):
    result = check("98.5", answer)
    assert result.passed is passes
    assert ("close -- give 4 decimals" in repr(result)) is close
    assert "fraction" not in repr(result)


@pytest.mark.parametrize("number, ex", [p for p in _all_exercises()
                                        if p.values[1].kind == "choice"])
def test_every_option_is_explained_without_naming_the_answer(number, ex):
    assert set(ex.feedback) == set(ex.choices)
    for letter, why in ex.feedback.items():
        assert why.strip(), (ex.id, letter)
        text = repr(check(ex.id, letter))
        assert why in text, (ex.id, letter)
        for other in ex.choices:    # an explanation never points at a letter
            assert f"({other})" not in why and f"'{other}'" not in why and f'"{other}"' not in why


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_checks_only_registered_exercises(nb_path):
    code, markdown = _code_and_markdown(nb_path)
    if not any(EXERCISES_HEADING.search(md) for md in markdown):
        pytest.skip("no ## Exercises section")
    number = nb_path.name[:2]
    called = [m.group("id") for src in code for m in CHECK_CALL.finditer(src)]
    assert called, f"{nb_path.name} has an Exercises section but no check(...) call"
    try:
        _module(number)
    except ModuleNotFoundError:
        pytest.fail(f"{nb_path.name} checks {called} but evalkit/course/exercises/nb{number}.py is missing")
    registered = {ex.id for ex in exercises(number)}
    unknown = [i for i in called if i not in registered]
    assert not unknown, f"{nb_path.name} checks unregistered exercises {unknown}"
    unchecked = sorted(registered - set(called))
    assert not unchecked, f"{nb_path.name} never checks registered exercises {unchecked}"
