"""The classroom, end to end: nbgrader's student versions hide every answer, and a class's
submissions are graded into one gradebook with exact points and reasons.

`make assignments` and `make grade` run tools/classroom.py; this test runs the same
functions on notebook 07 (light to execute) in a temporary course folder: it builds the
student versions, searches them for any solution or expected value, fills them in as a
class would (one right, one partly wrong, one whose answer raises, one that loops, one
that deleted a graded cell, one empty file and one who never handed in) and checks every
row of the gradebook.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("classroom", ROOT / "tools" / "classroom.py")
classroom = importlib.util.module_from_spec(spec)
sys.modules["classroom"] = classroom
spec.loader.exec_module(classroom)

from evalkit.course.exercises import check, exercises  # noqa: E402

NOTEBOOK = "07"
CELL_TIMEOUT_S = 20


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    built = classroom.build_assignments((NOTEBOOK,), course=course, cell_timeout=CELL_TIMEOUT_S)
    assert len(built) == 1 and built[0].startswith(NOTEBOOK)
    return course, built[0]


def _student_version(course, name):
    return course / "release" / name / f"{name}.ipynb"


def _answers(nb):
    """exercise id -> (answer cell, the name the check binds), read from nbgrader's metadata."""
    found = {}
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("answer-"):
            ex_id = grade_id.removeprefix("answer-").replace("-", ".")
            name = re.match(r"\s*(?:def\s+)?([A-Za-z_]\w*)", cell.source).group(1)
            found[ex_id] = (cell, name)
    return found


def test_student_versions_hold_no_solution_and_no_expected_value(course):
    course, name = course
    text = _student_version(course, name).read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    answers = _answers(nb)
    assert set(answers) == {e.id for e in exercises(NOTEBOOK)}, "every exercise has an answer cell"
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for marker in ("BEGIN SOLUTION", "HIDDEN TESTS"):
        assert marker not in text, f"the student version contains {marker!r}"
    for call in ("check(", "_grade", ".solution", "exercises("):
        assert call not in code, f"a code cell of the student version calls {call!r}"
    for ex in exercises(NOTEBOOK):
        cell, var = answers[ex.id]
        assert cell.source.strip().endswith("...") or "return ..." in cell.source, cell.source
        solution = classroom.solution_source(ex, var)
        if callable(ex.solution):        # the solution's body, line by line (not its imports)
            body = [line for line in solution.splitlines()[1:]
                    if len(line.strip()) > 12 and not line.strip().startswith(("import ", "from "))]
            assert body, f"{ex.id}: a function solution with no body to look for"
        elif ex.kind == "choice":        # the letter, as an answer
            body = [solution.splitlines()[-1]]
        else:                            # the expected value, written anywhere
            body = [solution.splitlines()[-1].split("=", 1)[1].strip()]
        for line in body:
            assert line.strip() not in (code if callable(ex.solution) else text), f"{ex.id}: the student version shows its solution ({line!r})"
    # and the instructor's version does hold them (the search above could not pass by accident)
    source = (course / "source" / name / f"{name}.ipynb").read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" in source and "BEGIN HIDDEN TESTS" in source


def _fill(nb, answers, wrong=None, raises=None, loops=None, delete_check=None):
    """A filled-in copy of the student version: right answers except where told."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    cells = _answers(nb)
    for ex in exercises(NOTEBOOK):
        cell, var = cells[ex.id]
        if ex.id == raises:
            cell.source = 'raise RuntimeError("I could not do this one")'
        elif ex.id == loops:
            cell.source = "while True:\n    pass"
        elif ex.id == wrong:
            bad = next(letter for letter in sorted(ex.choices) if letter != ex.solution)
            cell.source = f"{var} = {bad!r}"
        else:
            cell.source = classroom.solution_source(ex, var)
    if delete_check:
        tag = "check-" + delete_check.replace(".", "-")
        nb.cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") != tag]
    return nb


def test_a_class_is_graded_into_one_gradebook(course, tmp_path):
    course, name = course
    release = nbformat.read(_student_version(course, name), as_version=4)
    ids = [e.id for e in exercises(NOTEBOOK)]
    choice = next(e for e in exercises(NOTEBOOK) if e.kind == "choice")
    answers = _answers(release)
    submissions = tmp_path / "submissions"
    plans = {
        "ana": {},                                  # all right
        "ben": {"wrong": choice.id},                # one choice wrong
        "cai": {"raises": ids[0]},                  # an answer cell raises
        "fay": {"delete_check": ids[1]},            # deleted a graded cell
        "gus": {"loops": ids[-1]},                  # an answer cell never ends
    }
    for student, plan in plans.items():
        (submissions / student).mkdir(parents=True)
        nbformat.write(_fill(release, answers, **plan), submissions / student / f"{name}.ipynb")
    (submissions / "eve").mkdir()
    (submissions / "eve" / f"{name}.ipynb").write_text("")       # an empty file
    roster = tmp_path / "roster.txt"
    roster.write_text("ana\nben\ncai\ndan\neve\nfay\ngus\n")     # dan never hands in

    out = tmp_path / "gradebook.csv"
    rows = classroom.grade(submissions, roster=roster, course=course, timeout=300, out=out)
    with out.open(encoding="utf-8") as fh:
        written = list(csv.DictReader(fh))
    assert [r["student"] for r in written] == [r["student"] for r in rows]
    assert tuple(written[0]) == classroom.GRADEBOOK_COLUMNS

    got = {(r["student"], r["exercise"]): (float(r["points"]), r["feedback"]) for r in written}
    wrong_feedback = repr(check(choice.id, next(c for c in sorted(choice.choices) if c != choice.solution)))
    expected = {}
    for ex in ids:
        expected["ana", ex] = (1.0, "correct")
        expected["ben", ex] = (0.0, wrong_feedback) if ex == choice.id else (1.0, "correct")
        expected["cai", ex] = ((0.0, "the answer cell raised RuntimeError: I could not do this one")
                               if ex == ids[0] else (1.0, "correct"))
        expected["dan", ex] = (0.0, "no submission")
        expected["eve", ex] = (0.0, "unreadable submission: empty file")
        expected["fay", ex] = ((0.0, "edited out of shape: a graded cell of this exercise was deleted")
                               if ex == ids[1] else (1.0, "correct"))
    for ex in ids[:-1]:
        expected["gus", ex] = (1.0, "correct")
    assert got.pop(("gus", ids[-1]))[0] == 0.0
    assert got == expected
    # the loop was stopped by the time limit and said so
    gus = next(r for r in written if r["student"] == "gus" and r["exercise"] == ids[-1])
    assert gus["feedback"].startswith("time limit"), gus["feedback"]


def test_the_teachers_guide_covers_every_notebook():
    guides = ROOT / "teachers"
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        page = guides / f"{nb.stem}.md"
        assert page.exists(), f"no teachers' guide page for {nb.name}"
        text = page.read_text(encoding="utf-8")
        for part in ("**Objectives.**", "**Plan (", "**Misconceptions", "**Discussion.**"):
            assert part in text, f"{page.name} has no {part}"
        assert len(re.findall(r"^\d\. ", text, re.M)) == 2, f"{page.name}: two discussion questions"
        assert f"({page.name})" in (guides / "README.md").read_text(encoding="utf-8"), page.name
