"""Every notebook's exercises: the solution passes, wrong answers fail, and the
notebooks only check exercises that exist.

Generic over ``evalkit/course/exercises/nbNN.py`` and ``notebooks/NN-*.ipynb``: a new
notebook with exercises is covered without touching this file. An exercises
module may define ``WRONG_ANSWERS = {"NN.k": [answer, ...]}``, tempting
mistakes the checker must reject, on top of the generic "off by one" answer.
"""

from __future__ import annotations

import ast
import importlib
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from evalkit.course.exercises import (EXACT, Case, Exercise, check, data_source, exercises, grade,
                                      hint, register, show, variant)

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
        return lambda *args: _off(ex.solution(*args))
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
        assert re.fullmatch(rf"{number}\.(0|[1-9]\d*)", ex.id), ex.id   # NN.0: in the body
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

    def crash(*args):
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


def _tempting(ex):
    """The module's WRONG_ANSWERS for ``ex``: the mistakes whose notes name a misconception."""
    return getattr(_module(ex.id[:2]), "WRONG_ANSWERS", {}).get(ex.id, [])


def _messages(ex):
    """Everything the learner can be shown -- for a wrong answer, a tempting one, a close one, one
    wrong number of a list, a float16 and no answer -- and the hint; a failing case's inputs (the
    learner's own data) left out."""
    answers = [_wrong_answer(ex), ...] + list(_tempting(ex))
    if ex.kind == "value" and _numeric_solution(ex):
        values = np.asarray(ex.solution, dtype=float)
        answers.append(np.round(values, 2).tolist())
        answers.append(np.vectorize(lambda v: float(f"{v:.3g}"))(values).tolist())
        answers.append(values.astype(np.float16))
        answers += [_one_off(ex.solution, i) for i in range(values.size) if values.size > 1]
        if values.ndim == 1:
            answers.append(values.tolist()[:-1])
    texts = [repr(grade(ex, a)) for a in answers] + [repr(hint(ex.id))]
    return ["\n".join(line for line in t.splitlines() if not line.startswith("    inputs: ")) for t in texts]


def _numeric_solution(ex):
    try:
        np.asarray(ex.solution, dtype=float)
    except (TypeError, ValueError):
        return False
    return not isinstance(ex.solution, str)


@pytest.mark.parametrize("seed", (None, 7))
@pytest.mark.parametrize("number, ex", _all_exercises())
def test_check_messages_do_not_reveal_expected_values(number, ex, seed):
    """The report and the hint name cases and ideas, never the expected numbers or letter."""
    ex = variant(ex.id, seed)
    texts = _messages(ex)
    if ex.kind == "choice":        # a choice's report lists the letters; its "why"s are checked below
        texts = [repr(hint(ex.id))] if seed is None else []   # one hint for every order of letters
    for body in texts:
        for case in ex.cases:
            want = case.expected(**case.kwargs)
            for shown in _revealing(want):
                assert shown not in body, (ex.id, case.description, shown, body)


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
_GRID = register(Exercise("98.6", "[TP, FP] before each of three parts and in all", "value",
                          [Case("three parts", {}, lambda: [[0, 0], [4, 1], [6, 3], [7, 8]])],
                          solution=[[0, 0], [4, 1], [6, 3], [7, 8]], hint="a running sum"))


def test_exact_fractions_are_accepted():
    assert check("98.1", Fraction(95, 120)).passed
    assert check("98.1", Fraction(19, 24)).passed
    assert not check("98.1", Fraction(19, 25)).passed
    assert check("98.2", [Fraction(1, 6), Fraction(1, 2)]).passed
    assert check("98.2", np.array([Fraction(1, 6), Fraction(1, 2)], dtype=object)).passed
    assert check("03.1", [3, Fraction(5, 8), Fraction(3, 4)]).passed
    assert check("01.1", Fraction(2, 13)).passed


@pytest.mark.parametrize("answer, given", [(0.79, 2), (0.792, 3), (0.7917, 4), (0.7916, 4)])   # rounded or cut
def test_an_answer_right_to_the_digits_given_is_close_not_right(answer, given):
    result = check("98.1", answer)
    assert not result.passed
    assert f"your answer is close but gives {given} decimals -- {EXACT}" in repr(result)
    assert "0.7916" not in repr(result) and "0.7917" not in repr(result)


@pytest.mark.parametrize("answer", [0.8, 0.78, 0.7918, 1, 0.0])
def test_a_wrong_or_too_coarse_answer_is_not_called_close(answer):
    result = check("98.1", answer)
    assert not result.passed
    assert "close" not in repr(result) and EXACT not in repr(result)


def test_close_works_element_by_element():
    assert "answer[0] is close but gives 4 decimals -- " + EXACT in repr(check("98.2", [0.1667, 0.5]))
    assert "answer[0] is close but gives 3 decimals -- " + EXACT in repr(check("98.2", [0.166, 0.5]))
    one_wrong = repr(check("98.2", [0.1667, 0.6]))           # one number rounded, one plainly wrong
    assert "answer[0] is close but gives 4 decimals; answer[1] is wrong -- " + EXACT in one_wrong
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
    assert ("is close but gives" in repr(result) and "4 decimals count: give 4 or more" in repr(result)) is close
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


# -- the check-your-understanding question in a lesson's body (NN.0) ----------

IN_BODY = [p for p in _all_exercises() if p.values[1].id.endswith(".0")]


def _cells(nb_path):
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    return [(c["cell_type"], "".join(c["source"])) for c in nb["cells"]]


@pytest.mark.parametrize("number, ex", IN_BODY)
def test_in_body_question_sits_in_the_lesson(number, ex):
    """NN.0 is asked where its idea is taught, above "## Exercises": the prompt, the data and
    options (show), a blank answer cell, the check cell; one such question per notebook."""
    cells = _cells(_notebook_of(number))
    start = next(i for i, (kind, src) in enumerate(cells)
                 if kind == "markdown" and EXERCISES_HEADING.search(src))
    in_body = [m.group("id") for kind, src in cells[:start] if kind == "code"
               for m in CHECK_CALL.finditer(src)]
    assert in_body == [ex.id], f"{number}: the lesson's body checks {in_body}"
    name = f"answer_{number}_0"
    i = cells.index(("code", f'check("{ex.id}", {name})'))
    assert cells[i - 1] == ("code", f"{name} = ...")        # committed blank, as the exercises
    assert cells[i - 2][0] == "code" and f'show("{ex.id}")' in cells[i - 2][1]
    assert cells[i - 3][0] == "markdown"
    assert cells[i - 3][1].startswith("**Check your understanding.**")


@pytest.mark.parametrize("number, ex", IN_BODY)
def test_in_body_check_accepts_the_right_answer_and_explains_a_wrong_one(number, ex):
    right = check(ex.id, ex.solution)
    assert right.passed, repr(right)
    wrong_answers = [c for c in ex.choices if c != ex.solution] or [_wrong_answer(ex)]
    for wrong in wrong_answers:
        result = check(ex.id, wrong)
        assert not result.passed, (ex.id, wrong)
        if ex.kind == "choice":
            assert ex.feedback[wrong] in repr(result)          # says why that option is wrong
            assert ex.feedback[ex.solution] not in repr(result)


# -- the kind of every question: one restating "check" at most, in the lesson's body -----------
#
# "check" restates a cell above (its idea on the cell's own kind of data): only the NN.0 question in
# the lesson may be one. A graded exercise under "## Exercises" is a transfer (new data or a new
# situation), a judgement (which metric, which model, why: a choice) or a bug to find. The kind is
# written beside the exercise (``kind_of_question``) and shown: in the notebook's prompt,
# "**NN.k** (kind)", and in the first line show() prints.

QUESTION_KINDS = ("check", "transfer", "judgement", "find the bug")
KINDS_CHECKED = tuple(f"{n:02d}" for n in range(1, 13))   # every notebook with questions


def kind_problems(number, registered, cells):
    """What is wrong with the kinds of notebook ``number``'s questions ([] when nothing is)."""
    problems = []
    start = next(i for i, (kind, src) in enumerate(cells)
                 if kind == "markdown" and EXERCISES_HEADING.search(src))
    restating = [ex.id for ex in registered if ex.kind_of_question == "check"]
    if restating not in ([], [f"{number}.0"]):
        problems.append(f"restating questions {restating}: only {number}.0 may be a check")
    for ex in registered:
        if ex.kind_of_question not in QUESTION_KINDS:
            problems.append(f"{ex.id}: kind {ex.kind_of_question!r} is none of {QUESTION_KINDS}")
        if ex.kind_of_question == "judgement" and ex.kind != "choice":
            problems.append(f"{ex.id}: a judgement is a choice, not a {ex.kind}")
        if ex.id.endswith(".0"):
            continue                 # asked in the lesson's body: test_in_body_question_sits_in_the_lesson
        prompts = [i for i, (kind, src) in enumerate(cells)
                   if kind == "markdown" and src.startswith(f"**{ex.id}**")]
        if len(prompts) != 1 or prompts[0] < start:
            problems.append(f"{ex.id}: not one prompt **{ex.id}** under ## Exercises")
        elif not cells[prompts[0]][1].startswith(f"**{ex.id}** ({ex.kind_of_question}) "):
            problems.append(f"{ex.id}: the prompt does not say ({ex.kind_of_question})")
    return problems


@pytest.mark.parametrize("number", KINDS_CHECKED)
def test_every_question_says_its_kind_and_only_the_lesson_restates(number):
    registered = exercises(number)
    assert kind_problems(number, registered, _cells(_notebook_of(number))) == []
    for ex in registered:            # the kind in the first line of what show() prints, too
        assert repr(show(ex.id)).startswith(f"# exercise {ex.id} ({ex.kind_of_question}): "), ex.id


def test_the_kind_rules_catch_a_restatement_a_judgement_without_options_and_a_silent_prompt():
    import dataclasses
    cells = _cells(_notebook_of("01"))
    good = exercises("01")
    assert kind_problems("01", good, cells) == []
    by_id = {ex.id: ex for ex in good}
    restating = [dataclasses.replace(by_id["01.1"], kind_of_question="check")] + [
        ex for ex in good if ex.id != "01.1"]
    assert any("only 01.0 may be a check" in p for p in kind_problems("01", restating, cells))
    valued = [dataclasses.replace(by_id["01.1"], kind_of_question="judgement")] + [
        ex for ex in good if ex.id != "01.1"]
    assert any("a judgement is a choice" in p for p in kind_problems("01", valued, cells))
    silent = [(kind, src.replace("**01.2** (judgement) ", "**01.2** ")) for kind, src in cells]
    assert any("01.2: the prompt does not say" in p for p in kind_problems("01", good, silent))
    vague = [dataclasses.replace(by_id["01.3"], kind_of_question="predict")] + [
        ex for ex in good if ex.id != "01.3"]
    assert any("'predict' is none of" in p for p in kind_problems("01", vague, cells))


# -- every exercise solved from what its notebook displays ------------------
#
# The notebook shows each exercise's data with ``show("NN.k")``; the stored output is Python
# (imports, ``name = value`` lines, the options as comments). Each solver below reads only that
# output, computes the answer independently of evalkit (by hand, numpy, scikit-learn, statsmodels,
# brute force), and the checker must accept it: the notebook and the checker cannot drift apart.

def _show_output(nb_path: Path, ex_id: str) -> str:
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    call = re.compile(rf"""\bshow\(\s*["']{re.escape(ex_id)}["']\s*\)""")
    for cell in nb["cells"]:
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        if cell["cell_type"] == "code" and call.search(src):
            texts = []
            for out in cell.get("outputs", []):
                if "text/plain" in out.get("data", {}):
                    t = out["data"]["text/plain"]
                    texts.append("".join(t) if isinstance(t, list) else t)
            assert texts, f"{nb_path.name}: the show({ex_id!r}) cell has no stored output (run the notebook)"
            return "\n".join(texts)
    pytest.fail(f"{nb_path.name} never shows the data of exercise {ex_id} with show({ex_id!r})")


def _displayed(text):
    """The namespace the displayed Python defines, and the options listed in its comments."""
    ns = {}
    exec(compile(text, "<displayed>", "exec"), ns)  # noqa: S102 -- our own notebook's output
    options = dict(re.findall(r"^#\s+([a-z]): (.*)$", text, re.MULTILINE))
    return ns, options


def _option(options, *needles):
    """The one displayed option whose text contains every needle."""
    found = [k for k, t in options.items() if all(n in t for n in needles)]
    assert len(found) == 1, (needles, options)
    return found[0]


def _labels(matrix):
    m = np.asarray(matrix)
    y_true = np.repeat(np.arange(len(m)), m.sum(axis=1))
    y_pred = np.concatenate([np.repeat(np.arange(len(m)), row) for row in m])
    return y_true, y_pred


def _spark_pr_area(y, s):
    """Spark's areaUnderPR by hand: a point per distinct score, first point (0, its precision), trapezoids."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    recall, precision = [], []
    for t in sorted(set(s), reverse=True):
        tp, fp = int(np.sum((s >= t) & (y == 1))), int(np.sum((s >= t) & (y == 0)))
        recall.append(tp / y.sum())
        precision.append(tp / (tp + fp))
    r, p = np.array([0.0] + recall), np.array([precision[0]] + precision)
    return float(np.sum(np.diff(r) * (p[1:] + p[:-1]) / 2))


def _delong_p(y, a, b):
    """DeLong's paired test of AUC(a) = AUC(b), from the structural components (DeLong 1988)."""
    from scipy.stats import norm
    y = np.asarray(y)
    comps = []
    for s in (np.asarray(a, float), np.asarray(b, float)):
        pos, neg = s[y == 1], s[y == 0]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        comps.append((psi.mean(axis=1), psi.mean(axis=0), psi.mean()))
    v10 = np.cov(np.vstack([c[0] for c in comps]))
    v01 = np.cov(np.vstack([c[1] for c in comps]))
    m, n = int(y.sum()), int(len(y) - y.sum())
    cov = v10 / m + v01 / n
    z = (comps[0][2] - comps[1][2]) / np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    return float(2 * norm.sf(abs(z)))


def _ece_quantile(y, p, n_bins=10):
    edges = np.quantile(p, np.linspace(0, 1, n_bins + 1))
    b = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, n_bins - 1)
    return sum(np.sum(b == k) / len(p) * abs(y[b == k].mean() - p[b == k].mean())
               for k in range(n_bins) if np.any(b == k))


def _map_at_10(ranked, relevant, denominator, skip_empty):
    values = []
    for row, rel in zip(ranked, relevant):
        if not rel:
            if not skip_empty:
                values.append(0.0)
            continue
        hits, total = 0, 0.0
        for i, item in enumerate(row[:10], start=1):
            if item in rel:
                hits += 1
                total += hits / i
        d = {"R": len(rel), "min": min(len(rel), 10), "hits": hits}[denominator]
        values.append(total / d if d else 0.0)
    return float(np.mean(values))


def _solve_01_2(ns, o):
    def f(c, beta):
        b2 = beta ** 2
        return (1 + b2) * c["tp"] / ((1 + b2) * c["tp"] + b2 * c["fn"] + c["fp"])
    better = "Y" if f(ns["model_Y"], 2) > f(ns["model_X"], 2) else "X"   # a missed cancer costs most
    return _option(o, f"{better}: its F2")


def _solve_01_0(ns, o):
    n, fraud = ns["transactions"], ns["fraudulent"]
    legit_precision, legit_recall, fraud_recall = (n - fraud) / n, 1.0, 0 / fraud   # nothing flagged
    assert (legit_precision, legit_recall, fraud_recall) == (0.995, 1.0, 0.0)       # the report's numbers
    return _option(o, "'legit' as the positive class")


def _solve_01_1(ns, o):
    tp, fp = ns["predicted_infected"]["actual_infected"], ns["predicted_infected"]["actual_healthy"]
    fn, tn = ns["predicted_healthy"]["actual_infected"], ns["predicted_healthy"]["actual_healthy"]
    found = Fraction(tp, tp + fn) * ns["town_infected"]            # the test's recall, the town's sick
    false_alarms = Fraction(fp, fp + tn) * ns["town_healthy"]      # the share of the healthy flagged
    return found / (found + false_alarms)


def _solve_02_1(ns, o):
    rows = ns["rows"]
    positives = sum(y for _, y in rows)
    best = None
    for t in sorted({s for s, _ in rows}, reverse=True):
        tp = sum(1 for s, y in rows if s >= t and y == 1)
        fp = sum(1 for s, y in rows if s >= t and y == 0)
        if Fraction(tp, positives) >= Fraction(str(ns["min_recall"])):
            if best is None or Fraction(tp, tp + fp) > best[1]:      # a tie keeps the higher t
                best = [t, Fraction(tp, tp + fp)]
    return best


def _solve_03_2(ns, o):
    malignant = [r for r, n in zip(ns["ratings"], ns["malignant"]) for _ in range(n)]
    benign = [r for r, n in zip(ns["ratings"], ns["benign"]) for _ in range(n)]
    won = sum(m > b for m in malignant for b in benign)
    tied = sum(m == b for m in malignant for b in benign)
    return Fraction(2 * won + tied, 2 * len(malignant) * len(benign))


def _solve_03_3(ns, o):
    from sklearn.metrics import roc_auc_score
    h, y, s = ns["hospital"], ns["sick"], ns["score"]
    within = [roc_auc_score(y[h == k], s[h == k]) for k in ("A", "B")]
    assert roc_auc_score(y, s) < min(within)                         # the pooled AUC is below both
    a_sick, b_well = s[(h == "A") & (y == 1)], s[(h == "B") & (y == 0)]
    assert np.mean(a_sick[:, None] > b_well[None, :]) < 0.5           # the pairs across lose
    assert y[h == "A"].mean() == y[h == "B"].mean()                   # the same class ratio
    return _option(o, "pooling adds pairs")


def _solve_05_4(ns, o):
    from sklearn.metrics import roc_auc_score
    auc = {(m, site): roc_auc_score(ns[f"y_{site}"], ns[f"proba_{site}"], multi_class=m)
           for m in ("ovr", "ovo") for site in "ab"}
    assert abs(auc["ovo", "a"] - auc["ovo", "b"]) < 0.03 < 0.08 < abs(auc["ovr", "a"] - auc["ovr", "b"])
    return _option(o, "one-vs-one macro")


def _solve_05_5(ns, o):
    from sklearn.metrics import hamming_loss, jaccard_score
    y, p = np.array(ns["y_true"]), np.array(ns["y_pred"])
    pad = np.zeros((len(y), ns["extra_tags"]), dtype=int)
    wide_y, wide_p = np.hstack([y, pad]), np.hstack([p, pad])
    return [hamming_loss(y, p), hamming_loss(wide_y, wide_p),
            jaccard_score(y, p, average="samples"), jaccard_score(wide_y, wide_p, average="samples")]


def _solve_06_2(ns, o):
    bought = ns["bought"]

    def micro(lists, k):        # hits over the slots shown, hits over the customers
        hits = sum(b in row[:k] for b, row in zip(bought, lists))
        return Fraction(hits, sum(len(set(row[:k])) for row in lists)), Fraction(hits, len(bought))

    (p_a, r_a), (p_b5, r_b5), (p_b3, r_b3) = micro(ns["top3_a"], 3), micro(ns["top5_b"], 5), micro(ns["top5_b"], 3)
    assert p_a > p_b5 and r_b5 > r_a and p_b3 > p_a and r_b3 > r_a
    return _option(o, "compare both at k = 3")


def _prior_top_k_by_hand(class_sizes, k):
    return sum(sorted(class_sizes, reverse=True)[:k]) / sum(class_sizes)


def _solve_03_0(ns, o):
    y, s = np.array(ns["clicked"]), np.array(ns["scores"])
    pairs = [(sp, sn) for sp in s[y == 1] for sn in s[y == 0]]
    auc = Fraction(sum(sp > sn for sp, sn in pairs), len(pairs))
    return _option(o, f"{auc.numerator}/{auc.denominator}:")


def _solve_04_0(ns, o):
    from sklearn.metrics import average_precision_score, roc_auc_score
    y, s = np.array(ns["clicked"]), np.array(ns["scores"])
    w = np.where(y == 1, 1, ns["copies_of_each_negative"])      # copies as sample weights
    same_auc = math.isclose(roc_auc_score(y, s, sample_weight=w), roc_auc_score(y, s))
    ap_falls = average_precision_score(y, s, sample_weight=w) < average_precision_score(y, s)
    assert same_auc and ap_falls
    return _option(o, "ROC AUC stays the same", "average precision falls")


def _solve_06_0(ns, o):
    y, top = np.array(ns["y_true"]), np.array(ns["y_top3"])
    p, r = [], []
    for k in (1, 2, 3):
        listed = np.array([[c in row[:k] for c in range(3)] for row in top])
        tp = np.sum(listed & (y[:, None] == np.arange(3)), axis=0)
        p.append(tp / np.maximum(listed.sum(axis=0), 1))
        r.append(tp / np.bincount(y, minlength=3))
    assert np.all(np.diff(r, axis=0) >= 0) and np.any(np.diff(p, axis=0) < 0)
    return _option(o, "recall@k can only stay or rise")


def _solve_07_0(ns, o):
    r = np.array(ns["ratings"])
    e, f = r - np.array(ns["model_E"]), r - np.array(ns["model_F"])
    assert np.mean(np.abs(e)) == np.mean(np.abs(f))
    assert np.sqrt(np.mean(f**2)) == 2 * np.sqrt(np.mean(e**2))
    return _option(o, "twice")


def _solve_08_0(ns, o):
    def rr(lists):
        return [next((1 / (i + 1) for i, item in enumerate(row) if item in rel), 0.0)
                for row, rel in zip(lists, ns["relevant"])]
    a, b = rr(ns["ranked_A"]), rr(ns["ranked_B"])
    assert np.mean(a) == np.mean(b) and np.mean(np.array(b) > 0) > np.mean(np.array(a) > 0)
    return _option(o, "the same MRR")


def _solve_09_0(ns, o):
    m, bins = ns["distinct_scores"], ns["num_bins"]
    group = m // bins                          # Spark: grouping = countsSize / numBins, used from 2 up
    kept = m if group < 2 else math.ceil(m / group)
    return _option(o, f"{kept}:")


def _solve_11_0(ns, o):
    from sklearn.metrics import brier_score_loss, roc_auc_score
    y, p = np.array(ns["y"]), np.array(ns["p"])
    assert roc_auc_score(y, p**2) == roc_auc_score(y, p)
    assert brier_score_loss(y, p**2) > brier_score_loss(y, p) and np.sum(p**2) < np.sum(y)
    return _option(o, "the same AUC")


def _solve_12_0(ns, o):
    from statsmodels.stats.multitest import multipletests
    names, p = list(ns["p_values"]), list(ns["p_values"].values())
    reject = multipletests(p, alpha=ns["alpha"], method="holm")[0]
    kept = [n for n, r in zip(names, reject) if r]
    if len(kept) == len(names):
        return _option(o, "all three")
    return _option(o, "only " + kept[0]) if len(kept) == 1 else _option(o, " and ".join(kept))


def _solve_02_2(ns, o):
    rows = np.array(ns["rows"])
    cost = {t: ns["c_fp"] * np.sum((rows[:, 0] >= t) & (rows[:, 1] == 0))
            + ns["c_fn"] * np.sum((rows[:, 0] < t) & (rows[:, 1] == 1)) for t in set(rows[:, 0])}
    return min(sorted(cost, reverse=True), key=lambda t: cost[t])


def _solve_03_1(ns, o):
    from sklearn.metrics import roc_auc_score
    y, s = np.array(ns["clicked"]), np.array(ns["scores"])
    misordered = sum(sn > sp for sp in s[y == 1] for sn in s[y == 0])
    top = np.argsort(-s)[:2]
    swapped = s.copy()
    swapped[top] = s[top[::-1]]
    return [int(misordered), roc_auc_score(y, s), roc_auc_score(y, swapped)]


def _solve_04_1(ns, o):
    m, n, w = ns["positives"], ns["negatives"], ns["rank_sum_of_positives"]
    return [Fraction(w - m * (m + 1) // 2, m * n), m * (m + 1) // 2, sum(range(n + 1, n + m + 1))]


def _solve_04_2(ns, o):
    y = ns["y_fraud"]
    top = {name: y[np.argsort(-ns[f"score_{name}"])[:ns["reviewed_per_day"]]].mean() for name in "ab"}
    return _option(o, f"model {max(top, key=top.get).upper()}")


def _solve_04_3(ns, o):
    from sklearn.metrics import average_precision_score
    y, s, old = ns["y_new"], ns["scores_new"], ns["old_area_under_pr"]
    assert _spark_pr_area(y, s) < old < average_precision_score(y, s)
    return _option(o, "two different summaries")


def _solve_05_0(ns, options):
    """Kappa and MCC of the shown matrix from its cells, by hand: both 0 picks 'exactly 0'."""
    m = np.asarray(ns["matrix"], dtype=float)
    n, actual, predicted = m.sum(), m.sum(axis=1), m.sum(axis=0)
    chance = actual @ predicted / n**2
    kappa = (np.trace(m) / n - chance) / (1 - chance)
    (tn, fp), (fn, tp) = m
    mcc = (tp * tn - fp * fn) / np.sqrt(np.prod([tp + fp, tp + fn, tn + fp, tn + fn]))
    assert abs(kappa) < 1e-12 and abs(mcc) < 1e-12, (kappa, mcc)
    return _option(options, "exactly 0")


def _solve_05_1(ns, o):
    m = np.array(ns["confusion_matrix"])
    k = len(m)
    return [Fraction(ns["fixed"], int(m[c].sum())) / k for c in (0, k - 1)]


def _solve_05_2(ns, o):
    from sklearn.metrics import f1_score
    y_true, y_pred = _labels(ns["confusion_matrix"])
    return f1_score(y_true, y_pred, labels=ns["findings"], average="micro")


def _solve_05_3(ns, o):
    from sklearn.metrics import f1_score
    misrouted = {m: int(np.sum(ns[m]) - np.trace(ns[m])) for m in ("model_X", "model_Y")}
    cheaper = min(misrouted, key=misrouted.get)
    following = [avg for avg in ("micro", "weighted", "macro")
                 if max(("model_X", "model_Y"),
                        key=lambda m: f1_score(*_labels(ns[m]), average=avg, zero_division=0)) == cheaper]
    assert len(following) == 1
    return _option(o, f"{following[0]} F1")


def _solve_06_3(ns, o):
    bought, shown = ns["bought"], ns["shown"]
    sales = sum(b in row for b, row in zip(bought, shown))
    top3_accuracy = sales / len(bought)
    share_of_slots = sales / sum(len(row) for row in shown)
    assert np.isclose(top3_accuracy, 3 * share_of_slots)      # the quoted number is 3 times the share
    return _option(o, "micro precision@3")


def _solve_07_1(ns, o):
    def nmae(y, p, scale):
        return np.mean(np.abs(np.subtract(p, y))) / (scale[1] - scale[0])
    jokes = nmae(ns["jokes_rated"], ns["jokes_predicted"], ns["joke_scale"])
    films = nmae(ns["films_rated"], ns["films_predicted"], ns["film_scale"])
    return _option(o, "NMAE", "joke model errs less" if jokes < films else "film")


def _solve_07_3(ns, o):
    from sklearn.metrics import mean_squared_error
    y, a, b = ns["y"], ns["pred_a"], ns["pred_b"]
    lost = {m: int(np.sum((p >= 4) & (y <= 2))) for m, p in (("A", a), ("B", b))}
    rmse = {m: np.sqrt(mean_squared_error(y, p)) for m, p in (("A", a), ("B", b))}
    assert min(lost, key=lost.get) == min(rmse, key=rmse.get) == "B"
    return _option(o, "model B", "RMSE")


def _solve_08_1(ns, o):
    def mean_precision(lists, cut_of):          # precision of each list cut at cut_of(R), by hand
        return np.mean([Fraction(sum(d in rel for d in row[:cut_of(len(rel))]), cut_of(len(rel)))
                        for row, rel in zip(lists, ns["relevant"])])
    p10 = [mean_precision(ns[f"ranked_{e}"], lambda r: 10) for e in "ab"]
    rp = [mean_precision(ns[f"ranked_{e}"], lambda r: r) for e in "ab"]
    assert p10[0] > p10[1] and rp[1] > 3 * rp[0]        # A by precision@10, B by R-precision
    return _option(o, "engine B", "R-precision")       # readers stop after the first few


def _solve_08_4(ns, o):
    rel = set(ns["relevant"])
    found = [Fraction(n, len(rel)) for n in range(1, len(rel) + 1)]     # recall after n hits
    points, n = [], 0                                                    # (recall, precision) at hits
    for rank, doc in enumerate(ns["ranked"], start=1):
        if doc in rel:
            n += 1
            points.append((found[n - 1], Fraction(n, rank)))
    levels = [Fraction(j, 10) for j in range(11)]
    interpolated = [max([p for r, p in points if r >= level], default=Fraction(0)) for level in levels]
    return sum(interpolated) / 11


def _levels_reached_by_hand(d):
    """08.4's mistake: the mean over the levels the list reaches, the others left out."""
    rel, n, best = set(d.relevant), 0, []
    for rank, doc in enumerate(d.ranked, start=1):
        if doc in rel:
            n += 1
            best.append((Fraction(n, len(rel)), Fraction(n, rank)))
    reached = [max(p for r, p in best if r >= Fraction(j, 10)) for j in range(11)
               if any(r >= Fraction(j, 10) for r, _ in best)]
    return sum(reached) / len(reached)


def _solve_08_3(ns, o):
    ranked, relevant, theirs = ns["ranked"], ns["relevant"], ns["their_map"]
    candidates = {"min(R, 10)": _map_at_10(ranked, relevant, "min", False),
                  "number of hits": _map_at_10(ranked, relevant, "hits", False),
                  "leave out": _map_at_10(ranked, relevant, "R", True)}
    return _option(o, min(candidates, key=lambda c: abs(candidates[c] - theirs)))


def _solve_09_1(ns, o):
    from collections import Counter
    pos, neg = Counter(), Counter()
    for day in (ns["day_1"], ns["day_2"]):           # counts add: per score, over the two days
        for score, p, n in day:
            pos[score] += p
            neg[score] += n
    right = sum(pos[a] * neg[b] for a in pos for b in neg if a > b)
    tied = sum(pos[a] * neg[a] for a in pos)
    return Fraction(2 * right + tied, 2 * sum(pos.values()) * sum(neg.values()))


def _mean_of_two_days_by_hand(d):
    """09.1's mistake: the mean of the two days' AUCs, each by pair counting."""
    def auc(day):
        right = sum(p * n2 for s, p, _ in day for s2, _, n2 in day if s > s2)
        tied = sum(p * n for _, p, n in day)
        return Fraction(2 * right + tied, 2 * sum(r[1] for r in day) * sum(r[2] for r in day))
    return (auc(d.day_1) + auc(d.day_2)) / 2


def _solve_09_2(ns, o):
    from sklearn.metrics import f1_score
    vs, vy = ns["val_scores"], ns["val_labels"]
    best = max(sorted(set(vs), reverse=True), key=lambda t: f1_score(vy, vs >= t))  # first of ties
    return f1_score(ns["test_labels"], ns["test_scores"] >= best)


def _solve_09_3(ns, o):
    driver = ns["driver_memory_gb"] * 1e9
    assert ns["rows"] * 16 > driver                   # two float64 columns do not fit
    assert ns["distinct_scores"] * 25 < driver        # one curve point per distinct score does
    assert ns["distinct_scores"] // 1000 >= 2         # numBins = 1000 would group thresholds
    return _option(o, "exact curve, collected to the driver")


def _solve_10_1(ns, o):
    from statsmodels.stats.proportion import proportion_confint
    lo, hi = proportion_confint(ns["caught"], ns["cancers"], method="normal")
    w_lo, _ = proportion_confint(ns["caught"], ns["cancers"], method="wilson")
    assert hi - lo < 1e-12 < 1 - w_lo          # Wald collapses, Wilson does not
    return _option(o, "Wilson")


def _solve_11_1(ns, o):
    y = ns["rained"]
    a = [Fraction(str(p)) for p in ns["service_a_said"]]
    b = Fraction(str(ns["service_b_always_said"]))
    return [sum((p - t) ** 2 for p, t in zip(a, y)) / len(y), sum((b - t) ** 2 for t in y) / len(y)]


def _solve_11_2(ns, o):
    p = ns["precision_at_500"]
    assert p["A"] == p["B"] and ns["auc"]["A"] == ns["auc"]["B"]     # a sigmoid keeps the order
    best = max(p, key=p.get)                                          # the queue reads the order only
    return _option(o, f"{best}: the queue uses only the order")


def _solve_11_3(ns, o):
    y, p = ns["y"], ns["p"]
    rng = np.random.default_rng(1)
    floor = [_ece_quantile((rng.random(len(p)) < p).astype(int), p) for _ in range(200)]
    assert _ece_quantile(y, p) < np.quantile(floor, 0.95)
    return _option(o, "noise: with")


def _solve_12_2(ns, o):
    from itertools import combinations

    from statsmodels.stats.contingency_tables import mcnemar
    from statsmodels.stats.multitest import multipletests
    y = np.asarray(ns["y"])
    right = [np.asarray(ns[k]) == y for k in ("pred_a", "pred_b", "pred_c")]
    p = [mcnemar([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]], exact=True).pvalue
         for a, b in combinations(right, 2)]
    return round(float(multipletests(p, method="holm")[1].min()), 3)


def _solve_12_1(ns, o):
    from statsmodels.stats.multitest import multipletests
    pairs, baseline = ns["p_values_all_pairs"], ns["baseline_chosen_afterwards"]
    chosen = {name: p for name, p in pairs.items() if baseline in name.split(" vs ")}
    all_six = dict(zip(pairs, multipletests(list(pairs.values()), method="holm")[1]))
    three = dict(zip(chosen, multipletests(list(chosen.values()), method="holm")[1]))
    assert all_six["gbm vs logistic"] > ns["alpha"] > three["gbm vs logistic"]
    return _option(o, "chosen before the results")             # the family looked at: all six


def _solve_12_3(ns, o):
    from scipy.stats import norm
    x, y = ns["model_x_at_hospital_a"], ns["model_y_at_hospital_b"]
    z = (x["auc"] - y["auc"]) / np.sqrt(x["standard_error"] ** 2 + y["standard_error"] ** 2)
    assert 0 < 2 * norm.sf(abs(z)) < 1                        # two independent samples: unpaired
    return _option(o, "an unpaired test")


def _ndcg_numpy(ranked, relevant, k):
    out = []
    for row, rel in zip(ranked, relevant):
        gains = np.array([x in rel for x in row[:k]], dtype=float)
        disc = 1 / np.log2(np.arange(2, k + 2))
        ideal = disc[:min(len(rel), k)].sum()
        out.append(float(gains @ disc[:len(gains)] / ideal) if ideal else 0.0)
    return float(np.mean(out))


def _user_rmse_numpy(y_true, y_pred, users):
    y_true, y_pred, users = np.asarray(y_true, float), np.asarray(y_pred, float), np.asarray(users)
    return float(np.mean([np.sqrt(np.mean((y_pred[users == u] - y_true[users == u]) ** 2))
                          for u in np.unique(users)]))


SOLVERS = {
    "01.0": _solve_01_0, "03.0": _solve_03_0, "04.0": _solve_04_0, "06.0": _solve_06_0,
    "07.0": _solve_07_0, "08.0": _solve_08_0, "09.0": _solve_09_0, "11.0": _solve_11_0,
    "12.0": _solve_12_0,
    "01.1": _solve_01_1,
    "01.2": _solve_01_2,
    "01.3": lambda ns, o: (lambda class_sizes: sum((n / sum(class_sizes)) ** 2 for n in class_sizes)),
    "02.0": lambda ns, o: _option(o, "nested"),                   # best_score_ read where chosen
    "02.1": _solve_02_1,
    "02.2": _solve_02_2,
    "02.3": lambda ns, o: _option(o, "chosen on the test rows"),   # the best of twelve is optimistic
    "03.1": _solve_03_1, "03.2": _solve_03_2, "03.3": _solve_03_3,
    "04.1": _solve_04_1, "04.2": _solve_04_2, "04.3": _solve_04_3,
    "05.0": _solve_05_0,
    "05.1": _solve_05_1,
    "05.2": _solve_05_2,
    "05.3": _solve_05_3,
    "05.4": _solve_05_4,
    "05.5": _solve_05_5,
    "06.1": lambda ns, o: _prior_top_k_by_hand, "06.2": _solve_06_2, "06.3": _solve_06_3,
    "07.1": _solve_07_1, "07.2": lambda ns, o: _user_rmse_numpy, "07.3": _solve_07_3,
    "08.1": _solve_08_1, "08.2": lambda ns, o: _ndcg_numpy, "08.3": _solve_08_3, "08.4": _solve_08_4,
    "09.1": _solve_09_1, "09.2": _solve_09_2,
    "09.3": _solve_09_3,
    "09.4": lambda ns, o: _option(o, "num_bins=100_000"),          # 1e9 x 16 or 25 bytes exceed 8 GB;
                                                                   # 100 bins span 1e7 scores each
    "10.0": lambda ns, o: _option(o, "GroupKFold"),               # new patients: group the folds
    "10.1": _solve_10_1,
    "10.2": lambda ns, o: _option(o, "not known"),                 # the interval holds 0 and 0.01 alike
    "10.3": lambda ns, o: round(_delong_p(ns["y"], ns["score_a"], ns["score_b"]), 3),
    "11.1": _solve_11_1,
    "11.2": _solve_11_2,
    "11.3": _solve_11_3,
    "12.1": _solve_12_1,
    "12.2": _solve_12_2,
    "12.3": _solve_12_3,
}


def _notebook_of(number):
    found = [p for p in NOTEBOOKS if p.name.startswith(number + "-")]
    assert len(found) == 1, number
    return found[0]


def test_every_exercise_has_a_solver():
    assert {ex.id for ex in exercises()} - {"98.1", "98.2", "98.3", "98.5", "98.6"} <= set(SOLVERS)


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_exercise_solved_from_what_its_notebook_displays(number, ex):
    ns, options = _displayed(_show_output(_notebook_of(number), ex.id))
    if ex.kind == "choice":
        assert options == ex.choices, f"{ex.id}: the notebook shows other options than the checker's"
    result = check(ex.id, SOLVERS[ex.id](ns, options))
    assert result.passed, repr(result)


@pytest.mark.parametrize("number, ex", _all_exercises())
def test_show_prints_what_the_notebook_stored(number, ex):
    """The self-study notebooks' outputs stay as they are: show(id) prints the stored text."""
    assert repr(show(ex.id)) == _show_output(_notebook_of(number), ex.id)


# -- variants for a classroom: each student's own version of an exercise ---------
#
# variant(id, seed) draws new data (value), more cases (function) or a new option order (choice);
# data_source(id, seed) is the student's data cell; grade(exercise, answer, outputs=...) the one
# comparison, which check uses too.

SEEDS = (1, 7, 2026)
VALUE_EXERCISES = [p for p in _all_exercises() if p.values[1].kind == "value"]
CHOICE_EXERCISES = [p for p in _all_exercises() if p.values[1].kind == "choice"]
FUNCTION_EXERCISES = [p for p in _all_exercises() if p.values[1].kind == "function"]
CELL_MODULES = {"types", "numpy", "evalkit.course.exercise_data"}


def _data_names(ex):
    return [n.strip() for name in ex.data for n in name.split(",")]


def _imported_modules(source):
    tree = ast.parse(source)
    return ({a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
            | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)})


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("number, ex", _all_exercises())
def test_variant_solution_passes_and_its_data_cell_binds_every_name(number, ex, seed):
    mine = variant(ex.id, seed)
    result = grade(mine, mine.solution)
    assert result.passed and result.score == 1.0, repr(result)
    source = data_source(ex.id, seed)
    assert source.startswith(f"# exercise {ex.id}")
    assert _imported_modules(source) <= CELL_MODULES, source
    ns = {}
    exec(compile(source, "<data cell>", "exec"), ns)  # noqa: S102 -- our own data cell
    for name in _data_names(mine):
        assert name in ns, (ex.id, name)
        assert getattr(ns["data"], name) is ns[name], (ex.id, name)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("number, ex", _all_exercises())
def test_variant_solved_independently_from_its_data_cell(number, ex, seed):
    """The independent solvers above, run on a student's data cell, pass that student's variant."""
    ns, options = _displayed(data_source(ex.id, seed))
    mine = variant(ex.id, seed)
    if ex.kind == "choice":
        assert options == mine.choices
    result = grade(mine, SOLVERS[ex.id](ns, options))
    assert result.passed, repr(result)


def test_seed_none_is_the_notebooks_own_exercise():
    for ex in exercises():
        assert variant(ex.id) is ex and variant(ex.id, None) is ex
        lines = data_source(ex.id).splitlines()
        kept = [line for line in lines if not line.startswith(("from types ", "data = SimpleNamespace("))]
        assert "\n".join(kept) == repr(show(ex.id))        # one rendering for both


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises((TypeError, ValueError), match="seed"):
        variant("01.1", seed)


@pytest.mark.parametrize("number, ex", VALUE_EXERCISES)
def test_a_classmates_right_answer_scores_nothing(number, ex):
    """New data per seed: another seed's answer (or the notebook's) fails, but for rare collisions."""
    mine = [variant(ex.id, s) for s in range(1, 21)]
    cells = {data_source(ex.id, s) for s in range(1, 21)} | {data_source(ex.id)}
    assert len(cells) == 21, f"{ex.id}: two seeds draw the same data"
    copied = [grade(v, ex.solution).score for v in mine]
    copied += [grade(v, w.solution).score for v, w in zip(mine, mine[1:] + mine[:1])]
    assert set(copied) <= {0.0, 1.0}
    assert sum(copied) <= 4, f"{ex.id}: {sum(copied):.0f} of 40 copied answers pass"


@pytest.mark.parametrize("number, ex", CHOICE_EXERCISES)
def test_choice_variant_relabels_options_feedback_and_the_right_letter(number, ex):
    orders = set()
    for seed in range(1, 11):
        mine = variant(ex.id, seed)
        assert list(mine.choices) == list(ex.choices)              # letters a, b, ... in order
        assert sorted(mine.choices.values()) == sorted(ex.choices.values())
        original = {text: letter for letter, text in ex.choices.items()}
        for letter, text in mine.choices.items():
            assert mine.feedback[letter] == ex.feedback[original[text]]
        assert mine.choices[mine.solution] == ex.choices[ex.solution]
        orders.add(tuple(mine.choices.values()))
    assert len(orders) >= 3, f"{ex.id}: ten seeds show only {len(orders)} option orders"


def test_choice_variants_spread_the_right_letter_evenly():
    """Over 200 seeds each position holds the right option about equally often (chi-square)."""
    from scipy.stats import chi2
    statistic, dof, n = 0.0, 0, 200
    for ex in (p.values[1] for p in CHOICE_EXERCISES):
        letters = list(ex.choices)
        counts = np.bincount([letters.index(variant(ex.id, s).solution) for s in range(n)],
                             minlength=len(letters))
        assert counts.min() > 0, (ex.id, counts)
        expected = n / len(letters)
        statistic += float(np.sum((counts - expected) ** 2 / expected))
        dof += len(letters) - 1
    assert len(CHOICE_EXERCISES) == 33  # 05.4, 06.2, 12.1 and 12.3; twelve in-body NN.0 questions
    assert statistic < chi2.ppf(0.999, dof), (statistic, dof)


def _sizes_by_hand(sizes):
    return sum(n * n for n in sizes) / sum(sizes) ** 2


POSITIONAL = {
    "01.3": [_sizes_by_hand, lambda s: sum((n / sum(s)) ** 2 for n in s)],
    "06.1": [lambda sizes, cut: _prior_top_k_by_hand(sizes, cut)],
    "07.2": [lambda a, b, c: _user_rmse_numpy(a, b, c)],
    "08.2": [lambda lists, sets, cut: _ndcg_numpy(lists, sets, cut)],
}


@pytest.mark.parametrize("number, ex", FUNCTION_EXERCISES)
def test_functions_with_any_parameter_names_and_lambdas_pass(number, ex):
    for answer in POSITIONAL[ex.id]:
        assert check(ex.id, answer).passed, repr(check(ex.id, answer))
        mine = variant(ex.id, 3)
        assert len(mine.cases) > len(ex.cases)                    # the variant adds cases
        assert grade(mine, answer).passed


@pytest.mark.parametrize("number, ex", FUNCTION_EXERCISES)
def test_grade_takes_a_sandboxs_outputs(number, ex):
    mine = variant(ex.id, 5)
    outputs = [("ok", mine.solution(*case.args)) for case in mine.cases]
    assert grade(mine, outputs=outputs).passed
    outputs[0] = ("raised", "TypeError: f() takes 1 positional argument but 3 were given")
    result = grade(mine, outputs=outputs)
    assert not result.passed
    assert result.score == pytest.approx((len(mine.cases) - 1) / len(mine.cases))
    assert "raised TypeError: f() takes 1 positional argument but 3 were given" in repr(result)
    assert not grade(mine, outputs=[("ok", ...)] * len(mine.cases)).answered
    with pytest.raises(ValueError, match="outputs"):
        grade(mine, outputs=outputs[1:])
    with pytest.raises(ValueError, match="outputs"):
        grade(mine, outputs=[("fine", 1)] * len(mine.cases))


def test_check_reports_the_error_message_of_a_learners_function():
    def two_arguments(a, b):
        return 0.5

    result = check("01.3", two_arguments)
    assert "raised TypeError: " in repr(result) and "missing 1 required positional argument" in repr(result)
    assert result.score == 0.0


def test_grade_refuses_outputs_for_a_value_and_a_non_exercise():
    with pytest.raises(ValueError, match="outputs"):
        grade(variant("01.1"), 0.5, outputs=[("ok", 0.5)])
    with pytest.raises(TypeError, match="exercise"):
        grade("01.1", 0.5)
    assert grade(variant("01.1"), ...).score == 0.0 and not grade(variant("01.1"), None).answered


# -- a student's environment holds evalkit.course without the exercises package -----

COURSE = ROOT / "evalkit" / "course"
EXERCISE_PACKAGE = COURSE / "exercises"


def _module_name(path):
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path):
    """Every module ``path`` imports (relative imports resolved, ``from a import b`` as a.b too)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out |= {module} | {f"{module}.{a.name}" for a in node.names}
    return out


def test_nothing_outside_the_exercises_package_imports_it():
    outside = [p for p in (ROOT / "evalkit").rglob("*.py") if EXERCISE_PACKAGE not in p.parents]
    assert COURSE / "exercise_data.py" in outside
    for path in outside:
        bad = {m for m in _imports(path) if m.startswith("evalkit.course.exercises")}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
    assert "evalkit.course.exercise_data" in _imports(EXERCISE_PACKAGE / "nb03.py")   # the resolver works


def test_data_cells_run_where_the_exercises_package_is_missing():
    """The student's environment, simulated: importing evalkit.course.exercises fails there."""
    sources = [data_source(ex.id, 11) for ex in exercises() if not ex.id.startswith("98.")]
    script = (
        "import sys\n"
        "sys.modules['evalkit.course.exercises'] = None   # the package is not there\n"
        "import evalkit, evalkit.course, evalkit.course.datasets, evalkit.course.definitions\n"
        "import json\n"
        "for source in json.load(sys.stdin):\n"
        "    ns = {}\n"
        "    exec(source, ns)\n"
        "    assert 'data' in ns\n"
        "print('ok done')\n")
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(sources), text=True,
                          capture_output=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and "ok done" in done.stdout, done.stderr[-2000:]


def test_exercise_data_holds_no_answer():
    source = (COURSE / "exercise_data.py").read_text(encoding="utf-8")
    assert not any(m.startswith("evalkit.course.exercises") for m in _imports(COURSE / "exercise_data.py"))
    for ex in exercises():
        for text in list(ex.choices.values()) + list(ex.feedback.values()) + [ex.hint]:
            assert text[:40] not in source, (ex.id, text)
        if ex.kind == "value":
            for v in np.asarray(ex.solution, dtype=float).ravel():
                if v != round(v, 3):            # digits no parameter of a loader would have
                    assert f"{v:.4f}" not in source and repr(float(v)) not in source, (ex.id, v)
        if ex.kind == "function":
            assert ex.solution.__name__ == "<lambda>" or ex.solution.__name__ not in source
    tree = ast.parse(source)
    names = ({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
             | {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
             | {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)})
    metrics = {n for n in names if any(w in n for w in ("expected", "solution", "feedback", "precision",
                                                        "roc_auc", "f1", "delong", "brier"))}
    assert not metrics, f"exercise_data computes or names an answer: {metrics}"


def test_the_colleagues_reported_map_is_the_min_r_k_convention():
    """exercise_data stores the colleague's MAP@10 as a number; it is the min(R, 10) MAP of the lists."""
    ranked, relevant, their_map = importlib.import_module("evalkit.course.exercise_data").colleague()
    assert their_map == pytest.approx(_map_at_10(ranked, relevant, "min", False), rel=1e-12)


# -- known values: another taught method accepted within its Monte Carlo error, a mistake named --

def test_a_paired_bootstrap_answer_to_10_3_passes_with_a_note():
    """A paired bootstrap of 20,000 draws (any seed) passes 10.3 and is named; 2,000 draws are too rough."""
    import evalkit as ek
    from evalkit.course.exercise_data import two_scorers
    y, a, b = two_scorers()
    for seed in (0, 1):
        p = ek.paired_bootstrap(ek.roc_auc_score, y, a, b, n_resamples=20_000, random_state=seed).p_value
        result = check("10.3", round(p, 3))
        assert result.passed, (seed, p, repr(result))
        assert "note: accepted as a paired resampling test" in repr(result)
    rough = ek.paired_bootstrap(ek.roc_auc_score, y, a, b, random_state=0).p_value    # 2,000 draws: 0.152
    result = check("10.3", round(rough, 3))
    assert not result.passed and "too rough for 3 decimals" in repr(result), repr(result)
    assert "note" not in repr(check("10.3", variant("10.3").solution))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_paired_bootstrap_answer_to_a_variant_of_10_3_passes(seed):
    import evalkit as ek
    mine = variant("10.3", seed)
    ns, _ = _displayed(data_source("10.3", seed))
    p = ek.paired_bootstrap(ek.roc_auc_score, ns["y"], ns["score_a"], ns["score_b"], n_resamples=20_000,
                            random_state=seed).p_value
    assert grade(mine, p).passed, (seed, p)


def test_a_miss_of_10_3_says_which_mistake_it_matches():
    from scipy.stats import norm
    import evalkit as ek
    from evalkit.course.exercise_data import two_scorers
    y, a, b = two_scorers()
    ca, cb = ek.roc_auc_ci(y, a), ek.roc_auc_ci(y, b)
    unpaired = 2 * norm.sf(abs(ca.estimate - cb.estimate) / np.hypot(ca.standard_error, cb.standard_error))
    delong = _delong_p(y, a, b)
    for answer, named in [(unpaired, "the unpaired test"), (1 - delong, "1 - p"), (delong / 2, "a one-sided")]:
        result = check("10.3", round(answer, 3))
        assert not result.passed and f"note: your answer matches {named}" in repr(result), repr(result)
    assert "note" not in repr(check("10.3", 0.5))


@pytest.mark.parametrize("seed", (None,) + SEEDS + tuple(range(10, 30)))
def test_02_2_has_one_threshold_of_the_highest_f1_and_it_is_not_the_cheapest(seed):
    """'Is it the threshold of the highest F1?' has one answer: one threshold has the highest F1."""
    from sklearn.metrics import f1_score
    ns, _ = _displayed(data_source("02.2", seed))
    rows = np.array(ns["rows"])
    f1 = {t: Fraction(f1_score(rows[:, 1], rows[:, 0] >= t)).limit_denominator(100) for t in set(rows[:, 0])}
    best = [t for t in f1 if f1[t] == max(f1.values())]
    assert len(best) == 1, (seed, f1)
    assert not check("02.2", best[0]).passed if seed is None else not grade(variant("02.2", seed), best[0]).passed


def test_08_2_the_colleagues_code_in_the_notebook_has_the_bug_the_exercise_is_about():
    """The buggy function shown in 08.2's prompt fails the check, on the users with more relevant items than k."""
    _, markdown = _code_and_markdown(_notebook_of("08"))
    prompt = next(md for md in markdown if md.startswith("**08.2**"))
    code = re.search(r"```python\n(.*?)```", prompt, re.DOTALL).group(1)
    ns = {"np": np}
    exec(compile(code, "<08.2 prompt>", "exec"), ns)  # noqa: S102 -- our own notebook's text
    result = check("08.2", ns["ndcg_binary"])
    assert not result.passed
    assert "✗ a user with more relevant items than k" in repr(result)
    assert "✗ a user with no relevant item" not in repr(result)


def test_the_course_maps_example_fraction_is_no_exercises_answer():
    """00-index shows a Fraction as an example answer: it must not be the key of any exercise or variant."""
    text = (ROOT / "notebooks" / "00-index.ipynb").read_text(encoding="utf-8")
    examples = {Fraction(int(a), int(b)) for a, b in re.findall(r"Fraction\((\d+), (\d+)\)", text)}
    assert examples, "00-index shows no example Fraction"
    for ex in exercises():
        if ex.kind != "value" or ex.id.startswith(("98.", "99.")):
            continue
        for seed in (None,) + SEEDS:
            values = np.asarray(variant(ex.id, seed).solution, dtype=float).ravel()
            for example in examples:
                assert not np.any(np.isclose(values, float(example), rtol=1e-9, atol=0)), (ex.id, seed, example)


# -- a wrong option's feedback never points at the right option ---------------------------------
#
# In the classroom each student's letters are fixed, so a wrong option whose "why" names, quotes or
# implies the right one turns three tries into the answer. A wrong option's feedback says why that
# option is wrong; only the right option's own feedback may explain the right answer.

_STOP_WORDS = set("""
a an the and or of to in on at by for with from as is are was were be been being it its this that
these those not no nor but so than then there here which what who whom how when where why all any
each every both either neither one two three four five six seven eight nine ten more most less least
much many few some such same other another only also too very just own do does did done has have had
can could may might must shall should will would if into over under about between among per via up
down out off again once their they them he she his her we our you your i me my
""".split())
_WORD = re.compile(r"[a-z0-9][a-z0-9_.'/\-]*[a-z0-9]|[a-z0-9]")
# phrases that point past the option at hand: "the right answer is ...", "... instead", "choose ..."
_POINTING = re.compile(r"\b(instead|the right (answer|option|choice|one)|the correct|correct (answer|option)"
                       r"|the answer is|choose|go for|other way round|the reverse|rather than)\b"
                       r"|\b(option|choice|answer|letter)\s*\(?[a-e]\)?(?![a-z0-9])|\([a-e]\)|'[a-e]'|\"[a-e]\"")


def _stem(word):
    """A crude stem (lower case, no possessive, the first six letters): one idea, one token."""
    word = word.lower().strip(".'-/")
    word = word.removesuffix("'s")
    return word[:6]


def _tokens(text):
    return {_stem(w) for w in _WORD.findall(text.lower())} - {_stem(w) for w in _STOP_WORDS}


def _distinctive(ex):
    """The right option's own words: in no wrong option's text and not in the prompt."""
    wrong_texts = [text for letter, text in ex.choices.items() if letter != ex.solution]
    shared = set().union(*(_tokens(t) for t in wrong_texts)) | _tokens(ex.prompt)
    return _tokens(ex.choices[ex.solution]) - shared


def _pointers(ex, feedback):
    """How ``feedback`` (of a wrong option of ``ex``) points at the right option: [] if it does not."""
    found = [m.group(0) for m in _POINTING.finditer(feedback.lower())]
    found += sorted(_tokens(feedback) & _distinctive(ex))
    return found


def test_most_right_options_have_words_of_their_own():
    """The word check has something to look for (12.0's "only A vs B" and 09.3's code have not)."""
    without = [p.values[1].id for p in CHOICE_EXERCISES if not _distinctive(p.values[1])]
    assert len(without) <= 3, without


def test_the_pointer_check_catches_feedback_that_gives_the_right_option_away():
    """Vacuity guard: feedback lines these exercises once had, each pointing at the right option."""
    once = {
        "08.1": "precision@10 cannot pass R/10 here: a query's few relevant documents count the same "
                "anywhere in the ten.",
        "02.0": "the tuned procedure can be evaluated honestly, on rows that took no part in tuning it; "
                "section 5.5 does it with an outer cross-validation.",
        "03.0": "the AUC counts (click, non-click) pairs, not misplaced impressions: three pairs are ordered "
                "wrong, not one.",
        "11.3": "section 3's floor was for its own test set; with 24 cases a bin the floor is much higher.",
        "12.1": "no difference shown is not equality: the intervals say how large a difference the data cannot "
                "rule out.",
        "01.0": "the right answer is (b).",
    }
    for ex_id, text in once.items():
        assert _pointers(variant(ex_id), text), (ex_id, text)


@pytest.mark.parametrize("number, ex", [p for p in _all_exercises() if p.values[1].kind == "choice"])
def test_no_wrong_options_feedback_points_at_the_right_one(number, ex):
    """No letter, no 'the right answer is / instead / choose', no word of the right option's own."""
    for letter, why in ex.feedback.items():
        assert not re.search(r"\b(option|choice|answer|letter)\s*\(?[a-e]\)?(?![a-z0-9])", why.lower()), (ex.id, letter)
        if letter != ex.solution:
            assert not _pointers(ex, why), (ex.id, letter, _pointers(ex, why), why)


# -- feedback a student can act on: which number, which inputs, which precision, which mistake ----

def _one_off(solution, i):
    """``solution`` (a list of numbers, maybe nested) with its i-th number (row-major) moved by 1."""
    values = np.asarray(solution, dtype=object)
    flat = values.ravel().copy()
    flat[i] = float(flat[i]) + 1.0
    return flat.reshape(values.shape).tolist()


LIST_EXERCISES = [p for p in VALUE_EXERCISES if np.asarray(p.values[1].solution, dtype=object).size > 1]


def test_the_list_exercises_are_the_ones_expected():
    assert {p.values[1].id for p in LIST_EXERCISES} == {"02.1", "03.1", "04.1", "05.1", "05.5", "11.1"}


@pytest.mark.parametrize("number, ex", [p for p in LIST_EXERCISES if np.ndim(p.values[1].solution) == 1])
def test_a_flat_list_answer_names_every_component(number, ex):
    assert len(ex.components) == len(ex.solution), f"{ex.id}: name each number of the answer (components=)"


@pytest.mark.parametrize("seed", (None, 7))
@pytest.mark.parametrize("number, ex", LIST_EXERCISES)
def test_a_list_answer_with_one_wrong_number_names_that_number_only(number, ex, seed):
    mine = variant(ex.id, seed)
    shape = np.shape(np.asarray(mine.solution, dtype=object))
    for i in range(int(np.prod(shape))):
        index = np.unravel_index(i, shape)
        position = "answer" + "".join(f"[{j}]" for j in index)
        result = grade(mine, _one_off(mine.solution, i))
        text = repr(result)
        assert not result.passed
        named = f"{mine.components[index[0]]} ({position})" if mine.components else position
        assert f"{named} is wrong" in text, (ex.id, seed, i, text)
        assert text.count(" is wrong") == 1, text                       # the others are not blamed


def test_a_list_answer_of_the_wrong_form_is_told_what_form_is_wanted():
    assert "your answer is a list of 2; a list of 3 is wanted" in repr(check("03.1", [3, 0.75]))
    assert "your answer is a single number; a list of 2 is wanted" in repr(check("02.1", 4))
    assert "your answer is a str, not a list of 3" in repr(check("03.1", "3, 0.625, 0.75"))
    assert "your answer is an array of shape (3, 2); an array of shape (4, 2) is wanted" in repr(
        check("98.6", [[0, 0], [4, 1], [6, 3]]))
    assert "the result is None: a function that ends without return gives None" in repr(
        check("01.3", lambda class_sizes: None))


@pytest.mark.parametrize("seed", (None,) + SEEDS)
@pytest.mark.parametrize("number, ex", FUNCTION_EXERCISES)
def test_a_failing_function_case_shows_its_inputs_never_its_output(number, ex, seed):
    """Every failing case, those drawn for a student's variant too, shows its inputs (shortened)."""
    mine = variant(ex.id, seed)
    text = repr(grade(mine, _wrong_answer(mine)))
    shown = [line.removeprefix("    inputs: ") for line in text.splitlines() if line.startswith("    inputs: ")]
    assert len(shown) == len(mine.cases), text
    for case, line in zip(mine.cases, shown):
        names = ", ".join(re.escape(name) for name in case.kwargs)
        parts = re.split(rf"(?:^|, )({'|'.join(re.escape(n) for n in case.kwargs)})=", line)[1:]
        assert parts[::2] == list(case.kwargs), (names, line)
        for name, text in zip(parts[::2], parts[1::2]):
            value = case.kwargs[name]
            cut = re.fullmatch(r"(.*) \.\.\. \((\d+) items\)", text, re.DOTALL)
            if cut:                     # the first 100 characters, and how many items there are
                assert len(cut.group(1)) == 100 and int(cut.group(2)) == len(value), (name, text)
            else:                       # whole: Python that gives the input back
                assert ast.literal_eval(text) == value, (name, text)


def test_inputs_of_a_short_case_are_given_whole_and_a_long_one_says_its_length():
    text = repr(check("07.2", lambda y_true, y_pred, users: 0.0))
    assert "    inputs: y_true=[1, 2, 3, 4, 5], y_pred=[1.5, 2.0, 2.0, 4.5, 5.0], users=['u', 'u', 'u', 'u', 'u']" in text
    assert "(300 items)" in text                                  # 300 ratings, cut short


FLOAT_CAST = [p for p in VALUE_EXERCISES if _numeric_solution(p.values[1])]


@pytest.mark.parametrize("seed", (None, 7))
@pytest.mark.parametrize("number, ex", FLOAT_CAST)
def test_a_float32_answer_passes_to_its_own_precision(number, ex, seed):
    """The right value as float32 (an array, or a list of float32 numbers) passes, in self-study and
    after the trip from the sandbox to the grader; float32 of a wrong value does not."""
    from evalkit.course.answers import decode, encode
    mine = variant(ex.id, seed)
    values = np.asarray(mine.solution, dtype=float)
    as_array = values.astype(np.float32)
    as_numbers = [np.float32(v) for v in as_array.ravel()]
    answers = [as_array, as_numbers]
    if values.ndim == 0:
        answers = [as_array, np.float32(values)]
    if values.ndim == 2:
        answers = [as_array]
    for answer in answers:
        assert grade(mine, answer).passed, (ex.id, seed, answer, repr(grade(mine, answer)))
        travelled = decode(json.loads(json.dumps(encode(answer))))
        assert grade(mine, travelled).passed, (ex.id, travelled)
    wrong = (values + 1.0).astype(np.float32)
    assert not grade(mine, wrong if values.ndim else np.float32(wrong)).passed


def test_a_float32_computed_in_float32_passes_and_a_float16_is_told_its_precision():
    assert check("98.1", np.float32(95) / np.float32(120)).passed
    assert check("98.2", np.array([1, 3], dtype=np.float32) / np.float32(6)).passed
    assert not check("98.1", np.float32(0.79)).passed
    coarse = check("98.1", np.float16(95 / 120))
    assert not coarse.passed and "a float16 keeps about 3 digits: compute in float64" in repr(coarse)
    assert "float16" not in repr(check("98.1", np.float16(0.5)))   # a float16 of another value is just wrong


@pytest.mark.parametrize("seed", (None,) + SEEDS)
@pytest.mark.parametrize("number, ex", [p for p in FLOAT_CAST if p.values[1].decimals is None])
def test_a_rounded_answer_is_told_how_many_decimals_it_gives_and_that_the_exact_value_counts(number, ex, seed):
    mine = variant(ex.id, seed)
    values = np.asarray(mine.solution, dtype=float)
    rounded = np.vectorize(lambda v: float(f"{v:.3g}"))(values)            # 3 significant digits
    if np.allclose(rounded, values, rtol=1e-12, atol=0):
        pytest.skip("the answer has 3 significant digits or fewer")
    result = grade(mine, rounded.tolist())
    assert not result.passed
    text = repr(result)
    assert "is close but gives" in text and EXACT in text, text


@pytest.mark.parametrize("seed", (None,) + SEEDS + tuple(range(10, 20)))
@pytest.mark.parametrize("number, ex", [p for p in VALUE_EXERCISES if p.values[1].decimals is not None])
def test_an_answer_with_fewer_decimals_than_count_never_passes(number, ex, seed):
    """The answer rounded to one decimal fewer than count fails and is told how many count -- also
    where another method is accepted within a band wider than that rounding (10.3's resampling)."""
    mine = variant(ex.id, seed)
    want = float(mine.solution)
    short = round(want, ex.decimals - 1)
    if short == round(want, ex.decimals):
        pytest.skip("the last decimal that counts is 0")
    result = grade(mine, short)
    assert not result.passed, (ex.id, seed, short, repr(result))
    assert f"{ex.decimals} decimals count: give {ex.decimals} or more" in repr(result), repr(result)


def test_10_3_does_not_accept_two_decimals_though_three_count():
    """0.17 lay within the resampling band around DeLong's p of the notebook's patients."""
    p = variant("10.3").solution
    assert round(p, 2) == 0.17 and abs(0.17 - p) > 0.0005
    result = check("10.3", 0.17)
    assert not result.passed and "accepted" not in repr(result)
    assert "your answer is close but gives 2 decimals -- 3 decimals count" in repr(result)


MISCONCEPTIONS = {     # exercise: (the tempting wrong answer computed from a variant's data, what the note names)
    "05.2": (lambda ex, d: ek_accuracy(d), "the accuracy"),
    "01.1": (lambda ex, d: ex.known[0].expect(d), "the trial's own precision"),
    "03.2": (lambda ex, d: ex.known[0].expect(d), "tied pairs counted as lost"),
    "02.2": (lambda ex, d: _f1_best_threshold(d), "the threshold of the highest F1"),
    "12.2": (lambda ex, d: round(_raw_smallest_p(d), 3), "no correction for the three comparisons"),
    "08.4": (lambda ex, d: _levels_reached_by_hand(d), "the recall levels the list reaches only"),
    "09.1": (lambda ex, d: _mean_of_two_days_by_hand(d), "the mean of the two days' AUCs"),
}


def ek_accuracy(d):
    """Accuracy of a confusion matrix (rows actual), by hand: the trace over the total."""
    m = np.asarray(d.confusion_matrix)
    return Fraction(int(np.trace(m)), int(m.sum()))


def _f1_best_threshold(d):
    from sklearn.metrics import f1_score
    rows = np.array(d.rows, dtype=float)
    f1 = {t: f1_score(rows[:, 1], rows[:, 0] >= t) for t in set(rows[:, 0])}
    return max(f1, key=f1.get)


def _raw_smallest_p(d):
    from itertools import combinations

    from statsmodels.stats.contingency_tables import mcnemar
    right = [np.asarray(p) == np.asarray(d.y) for p in (d.pred_a, d.pred_b, d.pred_c)]
    return min(mcnemar([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]], exact=True).pvalue
               for a, b in combinations(right, 2))


@pytest.mark.parametrize("seed", (None,) + SEEDS)
@pytest.mark.parametrize("ex_id", sorted(MISCONCEPTIONS))
def test_a_tempting_wrong_answer_is_named_as_its_misconception_without_the_right_value(ex_id, seed):
    from types import SimpleNamespace

    from evalkit.course.exercises import _resolve
    mine = variant(ex_id, seed)
    data = SimpleNamespace(**_resolve(mine.data))
    mistake, name = MISCONCEPTIONS[ex_id]
    tempting = mistake(mine, data)
    assert any(not k.accepted for k in mine.known), ex_id
    result = grade(mine, tempting)
    text = repr(result)
    assert not result.passed, (ex_id, seed, tempting)
    assert "note: your answer matches " in text and name in text.split("note:", 1)[1], text
    for shown in _revealing(mine.solution):
        assert shown not in text.split("note:", 1)[1], (ex_id, shown, text)
    assert "note" not in repr(grade(mine, mine.solution))
    assert "note" not in repr(grade(mine, float(mine.solution) + 0.25))   # a plain miss names nothing
