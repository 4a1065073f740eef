"""Grading one submission: what the runner reports, and how long its work folder lives.

tools/classroom_runner.py runs a notebook's graded cells in its own process, in IPython's
``InteractiveShell``, where a Jupyter kernel ran them before. These tests hand in notebook 01
with the ordinary ways a cell goes wrong -- it raises, it has a syntax error, it never ends
(an answer cell, a function on its cases), it ends the process, it asks for input, it calls
``exit()``, it is blank after a filled one -- and check the feedback word for word: the texts
the kernel gave (a SyntaxError still names the cell as a kernel does, "<hash>.py"). Each
submission runs in the sandbox, as ``make grade`` runs it. Then: each work folder is gone as
soon as its result is read, not at the end of the term.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
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

from evalkit.course.exercises import variant  # noqa: E402

if classroom._load_tool("sandbox").kind() is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI=true but no sandbox (bubblewrap) runs here: .ci/run installs it")
    pytest.skip("no sandbox (bubblewrap) here", allow_module_level=True)

ASSIGNMENT = "01-accuracy-paradox"
STUDENTS = ["Ana", "Ben", "Cy"]
DIED = ("the notebook's kernel died (out of memory, or too many processes?); no answer recorded: "
        "the answer cell of this exercise did not run or was not found (its cell metadata marks "
        "it: evalkit.answer = {})")
NEVER_ENDS = "def stratified_accuracy(class_sizes):\n    while True:\n        pass\n"


@pytest.fixture(scope="module")
def course(tmp_path_factory, student_env):
    """Notebook 01 handed out to three students; its graded exercises and the student environment."""
    base = tmp_path_factory.mktemp("runner")
    course = base / "course"
    classroom.build_assignments(STUDENTS, ("01",), course=course)
    specs = classroom.graded_specs(nbformat.read(classroom.NOTEBOOKS / f"{ASSIGNMENT}.ipynb",
                                                 as_version=4))
    kinds = [variant(s.id, None).kind for s in specs]
    assert kinds == ["value", "choice", "function"], "the cases below assume notebook 01's kinds"
    return dict(base=base, course=course, specs=specs, secret=classroom.course_secret(course),
                env=student_env, python=classroom.student_python(student_env))


def hand_in(course, student, answers, folder):
    """``student``'s notebook with ``answers`` (exercise id -> answer cell source) in ``folder``."""
    path = course["course"] / "release" / student / "notebooks" / f"{ASSIGNMENT}.ipynb"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        marks = cell.metadata.get("evalkit")
        if isinstance(marks, dict) and marks.get("answer") in answers:
            cell.source = answers[marks["answer"]]
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{ASSIGNMENT}.ipynb")
    return folder / f"{ASSIGNMENT}.ipynb"


def right_choice(course, student="Ana"):
    """The source of a right answer to 01.2, the choice exercise (a letter)."""
    letter = variant("01.2", classroom.seed_for(course["secret"], student, "01.2")).solution
    return f"answer = {letter!r}\n"


def feedback(course, answers, name, cell_timeout=classroom.CELL_TIMEOUT_S):
    """Run Ana's notebook with ``answers`` in the sandbox: exercise id -> (points, feedback)."""
    notebook = hand_in(course, "Ana", answers, course["base"] / "submitted" / name)
    work = course["base"] / "work" / name
    report, answers_folder, note = classroom.run_submission(
        notebook, course["specs"], "Ana", course["secret"], work, python=course["python"],
        slot=300, cell_timeout=cell_timeout)
    rows = classroom.score(course["specs"], "Ana", course["secret"], report, answers_folder, note)
    course["report"] = report   # the runner's own words, before the grader keeps only an error's type
    return {row["exercise"]: (row["points"], row["feedback"]) for row in rows}


def test_a_cell_that_raised_is_named_with_its_error(course):
    found = feedback(course, {"01.1": "answer = [1]\nraise ValueError('bad value')",
                              "01.2": "answer = ('a'"}, "raised")
    assert found["01.1"] == (0.0, "the answer cell raised ValueError")
    assert found["01.2"] == (0.0, "the answer cell raised SyntaxError")
    ran = course["report"]["exercises"]
    assert ran["01.1"]["error"] == "ValueError: bad value"
    # the kernel's name of the cell's code: "<murmur2 hash>.py"
    assert re.fullmatch(r"SyntaxError: .+ \(\d+\.py, line 1\)", ran["01.2"]["error"]), ran


def test_cells_that_never_end_are_interrupted_and_the_run_goes_on(course):
    found = feedback(course, {"01.1": "while True:\n    pass\n", "01.2": right_choice(course),
                              "01.3": NEVER_ENDS}, "loops", cell_timeout=2)
    assert found["01.1"] == (0.0, "the answer cell raised KeyboardInterrupt")
    assert course["report"]["exercises"]["01.1"]["error"] == "KeyboardInterrupt: "
    assert found["01.2"][0] == 1.0
    assert found["01.3"] == (0.0, "calling your answer on the exercise's cases failed "
                                  "(it ran longer than the time limit)")


def test_a_cell_that_ends_the_process_keeps_the_answers_before_it(course):
    found = feedback(course, {"01.2": right_choice(course), "01.3": "import os\nos._exit(1)\n"},
                     "dies")
    assert found["01.2"][0] == 1.0
    assert found["01.3"] == (0.0, DIED.format("01.3"))


def test_exit_ends_the_run_after_its_exercise(course):
    """exit() in an answer cell: that answer is kept, the run ends there, as the kernel did."""
    found = feedback(course, {"01.2": right_choice(course) + "exit()\n"}, "exits")
    assert found["01.2"][0] == 1.0
    assert found["01.3"] == (0.0, DIED.format("01.3"))


def test_input_is_refused_as_a_kernel_refused_it(course):
    found = feedback(course, {"01.1": "answer = input('your answer: ')"}, "asks")
    assert found["01.1"] == (0.0, "the answer cell raised StdinNotImplementedError")
    assert course["report"]["exercises"]["01.1"]["error"] == (
        "StdinNotImplementedError: raw_input was called, but this frontend does not support input "
        "requests.")


def test_a_blank_answer_cell_does_not_inherit_the_previous_answer(course):
    found = feedback(course, {"01.1": right_choice(course), "01.2": ""}, "blank")
    points, text = found["01.2"]
    assert (points, text) == (0.0, "exercise 01.2: no answer yet -- replace ... with your answer "
                                   "and run this cell again")


def test_spark_runs_in_the_sandbox(course):
    """Notebook 09's setup cell starts a Spark session, and an answer computed with it is recorded
    (its JVM must fit the sandbox's memory limit and name a user for a uid without a passwd entry;
    before, the session never started and such an answer raised NameError)."""
    if shutil.which("java") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("java is missing under CI=true")
        pytest.skip("java is not installed")
    spark_course = course["base"] / "spark-course"     # its own: Ana's release is rewritten
    classroom.build_assignments(["Ana"], ("09",), course=spark_course)
    name = "09-at-scale-with-spark"
    path = spark_course / "release" / "Ana" / "notebooks" / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("evalkit") == {"answer": "09.1"}:
            cell.source = "answer = [[sc.parallelize([1, 2, 3]).count(), spark.range(4).count()]]"
    notebook = course["base"] / "spark" / f"{name}.ipynb"
    notebook.parent.mkdir()
    nbformat.write(nb, notebook)
    specs = classroom.graded_specs(nbformat.read(classroom.NOTEBOOKS / f"{name}.ipynb", as_version=4))
    report, answers, note = classroom.run_submission(
        notebook, specs, "Ana", classroom.course_secret(spark_course), course["base"] / "spark-work",
        python=course["python"], slot=300)
    assert (note, report["error"], report["exercises"]["09.1"]) == ("", None, {"error": None,
                                                                             "check_error": None})
    assert json.loads((answers / "09.1.json").read_text()) == {"answer": [[3, 4]]}


def test_each_work_folder_goes_as_soon_as_its_result_is_read(course, monkeypatch):
    """Scoring a submission sees its own work folder and no other: the earlier ones are gone."""
    submissions = course["base"] / "submissions"
    for student in STUDENTS:
        hand_in(course, student, {"01.2": right_choice(course, student)}, submissions / student)
    seen = []
    score = classroom.score

    def watched(specs, student, *rest):
        folders = sorted(p.relative_to(work) for p in work.glob("*/*"))
        seen.append((student, [str(p) for p in folders]))
        return score(specs, student, *rest)

    work = course["course"] / "work"
    monkeypatch.setattr(classroom, "score", watched)
    results = classroom.grade(submissions, course=course["course"], jobs=1, progress=False,
                              student_env=course["env"])
    assert sorted(seen) == [(s, [f"{s}/{ASSIGNMENT}"]) for s in STUDENTS]
    assert [r.rows[1]["points"] for r in results] == [1.0] * len(STUDENTS)
