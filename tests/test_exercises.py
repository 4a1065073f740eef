"""Every notebook's exercises: the solution passes, wrong answers fail, and the
notebooks only check exercises that exist.

Generic over ``evalkit/exercises/nbNN.py`` and ``notebooks/NN-*.ipynb``: a new
notebook with exercises is covered without touching this file. An exercises
module may define ``WRONG_ANSWERS = {"NN.k": [answer, ...]}``, tempting
mistakes the checker must reject, on top of the generic "off by one" answer.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from evalkit.exercises import check, exercises

ROOT = Path(__file__).resolve().parent.parent
EXERCISE_MODULES = sorted((ROOT / "evalkit" / "exercises").glob("nb[0-9][0-9].py"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
CHECK_CALL = re.compile(r"""\bcheck\(\s*(["'])(?P<id>[^"']*)\1""")
EXERCISES_HEADING = re.compile(r"^##\s+Exercises\s*$", re.MULTILINE)


def _number(module_path: Path) -> str:
    return module_path.stem[2:]  # "nb01" -> "01"


def _module(number: str):
    return importlib.import_module(f"evalkit.exercises.nb{number}")


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
    assert EXERCISE_MODULES, "no evalkit/exercises/nbNN.py found"


@pytest.mark.parametrize("path", EXERCISE_MODULES, ids=lambda p: p.stem)
def test_module_registers_its_own_exercises(path):
    number = _number(path)
    _module(number)
    registered = exercises(number)
    assert registered, f"{path.name} registers no exercise"
    for ex in registered:
        assert re.fullmatch(rf"{number}\.[1-9]\d*", ex.id), ex.id
        assert ex.kind in ("value", "function")
        assert ex.cases, f"{ex.id} has no case"
        assert ex.solution is not None, f"{ex.id} has no solution"


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_solution_passes(number, ex):
    result = check(ex.id, ex.solution)
    assert result.passed, repr(result)
    assert repr(result).endswith("well done")


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


def test_check_messages_do_not_reveal_expected_values():
    """The report names cases, never the expected numbers."""
    for path in EXERCISE_MODULES:
        number = _number(path)
        _module(number)
        for ex in exercises(number):
            text = repr(check(ex.id, _wrong_answer(ex)))
            for case in ex.cases:
                want = case.expected(**case.kwargs)
                if isinstance(want, float) and math.isfinite(want) and want not in (0.0, 1.0):
                    assert f"{want:.4f}" not in text, (ex.id, case.description)


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
        pytest.fail(f"{nb_path.name} checks {called} but evalkit/exercises/nb{number}.py is missing")
    registered = {ex.id for ex in exercises(number)}
    unknown = [i for i in called if i not in registered]
    assert not unknown, f"{nb_path.name} checks unregistered exercises {unknown}"
    unchecked = sorted(registered - set(called))
    assert not unchecked, f"{nb_path.name} never checks registered exercises {unchecked}"
