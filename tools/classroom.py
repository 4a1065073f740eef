#!/usr/bin/env python3
"""Hand out, collect and grade the course's exercises with nbgrader.

    python tools/classroom.py assignments [NN ...]             (make assignments)
    python tools/classroom.py grade SUBMISSIONS [--roster F]    (make grade SUBMISSIONS=dir)

nbgrader is Jupyter's own grading tool: an instructor's *source* notebook marks
solution regions and hidden tests, ``nbgrader generate_assignment`` writes the
student version without them, and ``nbgrader autograde`` runs each submission
with the hidden tests put back and records the points in its gradebook. This
script only prepares nbgrader's inputs and reads its outputs:

``assignments``
    For every course notebook ``notebooks/NN-*.ipynb`` with exercises, writes the
    instructor's version to ``build/assignments/source/NN-x/NN-x.ipynb``: each
    exercise's answer cell gets the worked solution between nbgrader's solution
    markers, and its check cell becomes a graded cell that checks the answer's
    form in the open and grades it with the course's checker
    (:mod:`evalkit.course.exercises`) in a hidden test. nbgrader then writes the
    student versions to ``build/assignments/release/NN-x/NN-x.ipynb``: the answer
    stubs and the form checks, without the solutions, the hidden tests or any
    call of the checker.

``grade SUBMISSIONS``
    ``SUBMISSIONS/<student>/NN-x.ipynb`` are the collected notebooks (one folder
    per student). Each one is graded on its own by ``nbgrader autograde`` under a
    time limit, so a submission that is missing, empty, edited out of shape,
    raises or never ends gets its points and a reason and never stops the
    others. The gradebook is ``build/assignments/gradebook.csv``: one row per
    student and exercise -- student, assignment, exercise, points, max_points and
    the feedback the student sees.
"""

from __future__ import annotations

import argparse
import csv
import inspect
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
COURSE = ROOT / "build" / "assignments"
NOTEBOOK_NAME = re.compile(r"^(\d\d)-[a-z0-9-]+\.ipynb$")
CHECK_CALL = re.compile(r'^check\("(\d\d\.\d+)",\s*([A-Za-z_]\w*)\)\s*$', re.M)
POINTS = 1                 # points per exercise
CELL_TIMEOUT_S = 120       # nbgrader's limit for one cell of a submission
NOTEBOOK_TIMEOUT_S = 600   # our limit for one submission as a whole
GRADEBOOK_COLUMNS = ("student", "assignment", "exercise", "points", "max_points", "feedback")

NBGRADER_CONFIG = """\
# Written by tools/classroom.py: nbgrader's settings for the evalkit course.
c = get_config()
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "evalkit"
# the student's stub stays above the solution region; nothing is added in its place
c.ClearSolutions.code_stub = {{"python": ""}}
c.ExecutePreprocessor.timeout = {timeout}
c.Execute.timeout = {timeout}
# a busy machine may take seconds to start the kernel's output: wait for it, do not fail the notebook
c.Execute.iopub_timeout = 120
c.Execute.startup_timeout = 120
c.Exchange.root = {exchange!r}
"""


class ClassroomError(RuntimeError):
    pass


def _nbformat():
    import nbformat

    return nbformat


def _exercises(notebook):
    from evalkit.course.exercises import exercises

    return {e.id: e for e in exercises(notebook)}


# -- assignments --------------------------------------------------------------------


def _literal(value):
    """Python source for a solution value (Fractions and numpy values included)."""
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if hasattr(value, "tolist"):
        return _literal(value.tolist())
    return repr(value)


def solution_source(exercise, name):
    """The worked solution of ``exercise`` as code that binds ``name``."""
    sol = exercise.solution
    if callable(sol):
        if sol.__name__ != "<lambda>":
            src = inspect.getsource(sol)
            return re.sub(rf"^def {re.escape(sol.__name__)}\(", f"def {name}(", src, count=1).rstrip()
        nb = exercise.id.split(".")[0]
        return (f"from evalkit.course.exercises import exercises\n"
                f"{name} = next(e.solution for e in exercises({nb!r}) if e.id == {exercise.id!r})")
    text = _literal(sol)
    return ("from fractions import Fraction\n" if "Fraction(" in text else "") + f"{name} = {text}"


def form_check(exercise, name):
    """The visible test: the answer's form, never its value."""
    lines = []
    if exercise.kind == "function":
        lines.append(f"assert callable({name}), '{name} must be a function'")
    elif exercise.kind == "choice":
        letters = tuple(sorted(exercise.choices))
        lines.append(f"assert {name} in {letters!r}, "
                     f"'{name} must be one of the letters {', '.join(letters)}'")
    else:
        lines.append(f"assert {name} is not ..., 'replace ... with your answer'")
        sol = exercise.solution
        if isinstance(sol, (list, tuple)):
            lines.append(f"assert len({name}) == {len(sol)}, '{name} must hold {len(sol)} values'")
        else:
            lines.append(f"float({name})  # a number")
    lines.append(f"print('exercise {exercise.id}: the form is right; it is graded when you hand it in')")
    return "\n".join(lines)


def hidden_test(exercise, name):
    return ("### BEGIN HIDDEN TESTS\n"
            "from evalkit.course.exercises import check as _grade\n"
            f"_result = _grade({exercise.id!r}, {name})\n"
            "assert _result.passed, repr(_result)\n"
            "### END HIDDEN TESTS")


def _nbgrader_meta(grade_id, *, grade, solution, points=None):
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def source_notebook(path):
    """The instructor's version of one course notebook, or None if it has no exercises."""
    nbf = _nbformat()
    nb = nbf.read(path, as_version=4)
    exercises = _exercises(path.name[:2])
    found = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        match = CHECK_CALL.search(cell.source)
        if not match:
            continue
        ex_id, name = match.groups()
        if ex_id not in exercises:
            raise ClassroomError(f"{path.name}: check({ex_id!r}, ...) but the checker has no {ex_id}")
        exercise = exercises[ex_id]
        answer = next((nb.cells[j] for j in range(i - 1, -1, -1) if nb.cells[j].cell_type == "code"), None)
        if answer is None or "..." not in answer.source:
            raise ClassroomError(f"{path.name}: exercise {ex_id} has no answer cell with ... before its check")
        tag = ex_id.replace(".", "-")
        answer.source = (answer.source.rstrip() + "\n### BEGIN SOLUTION\n"
                         + solution_source(exercise, name) + "\n### END SOLUTION")
        answer.metadata["nbgrader"] = _nbgrader_meta(f"answer-{tag}", grade=False, solution=True)
        answer.outputs, answer.execution_count = [], None
        rest = CHECK_CALL.sub("", cell.source).replace(
            "from evalkit.course.exercises import check", "").strip()
        cell.source = "\n".join(part for part in (rest, form_check(exercise, name),
                                                  hidden_test(exercise, name)) if part)
        cell.metadata["nbgrader"] = _nbgrader_meta(f"check-{tag}", grade=True, solution=False,
                                                   points=POINTS)
        cell.outputs, cell.execution_count = [], None
        found += 1
    return nb if found else None


def _nbgrader(*args, timeout=None, cwd=COURSE):
    # nbgrader runs `alembic` (its database migrations) by name: the venv's bin/ goes first on PATH
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                                 os.environ.get("PATH", "")]))
    cmd = [sys.executable, "-m", "nbgrader", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def _api(course):
    """nbgrader's Python API on the course folder (one process for every assignment)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = "evalkit"
    config.ClearSolutions.code_stub = {"python": ""}
    config.Exchange.root = str(course / "exchange")
    (course / "exchange").mkdir(parents=True, exist_ok=True)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def write_config(course=COURSE, cell_timeout=CELL_TIMEOUT_S):
    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(
        NBGRADER_CONFIG.format(root=str(course), timeout=int(cell_timeout),
                               exchange=str(course / "exchange")), encoding="utf-8")


def build_assignments(numbers=(), course=COURSE, cell_timeout=CELL_TIMEOUT_S):
    """Write the instructor's versions and let nbgrader make the student versions.

    Returns the assignment names (``NN-x``) built.
    """
    write_config(course, cell_timeout)
    built = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if (not NOTEBOOK_NAME.match(path.name) or path.name.startswith("00-")
                or (numbers and path.name[:2] not in numbers)):
            continue
        nb = source_notebook(path)
        if nb is None:
            continue
        name = path.stem
        target = course / "source" / name
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        _nbformat().write(nb, target / path.name)
        result = _api(course).generate_assignment(name, force=True)
        release = course / "release" / name / path.name
        if not result.get("success") or not release.exists():
            raise ClassroomError(f"nbgrader generate_assignment {name} failed:\n{result.get('log', '')}"
                                 f"{result.get('error', '')}")
        built.append(name)
    if not built:
        raise ClassroomError("no course notebook with exercises matched")
    return built


# -- grading ------------------------------------------------------------------------


def _grade_cells(nb):
    """grade_id -> cell, for the graded cells of a notebook."""
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade")}


def _error_of(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return out.get("ename", ""), out.get("evalue", "")
    return None


def _feedback(answer_cell, check_cell):
    """What the student sees for one exercise of an autograded notebook."""
    answer_error = _error_of(answer_cell) if answer_cell is not None else None
    if answer_error and answer_error[0] in ("CellTimeoutError", "KeyboardInterrupt", "DeadKernelError"):
        return f"time limit: the answer cell ran longer than the limit ({answer_error[0]})"
    if answer_error:
        return f"the answer cell raised {answer_error[0]}: {answer_error[1]}".strip()
    error = _error_of(check_cell)
    if error is None:
        return "correct"
    ename, evalue = error
    if ename == "AssertionError":
        return evalue.strip() or "wrong"
    if ename in ("CellTimeoutError", "KeyboardInterrupt", "DeadKernelError"):
        return f"time limit: a cell ran longer than the limit ({ename})"
    return f"the check raised {ename}: {evalue}".strip()


def _rows_for(student, assignment, exercises, points, reason):
    return [dict(student=student, assignment=assignment, exercise=ex, points=points.get(ex, 0.0),
                 max_points=float(POINTS), feedback=reason(ex)) for ex in exercises]


def grade_one(student, assignment, submitted, source_nb, course=COURSE, timeout=NOTEBOOK_TIMEOUT_S):
    """Rows of the gradebook for one student's notebook of one assignment."""
    nbf = _nbformat()
    cells = _grade_cells(source_nb)
    exercises = [gid.removeprefix("check-").replace("-", ".") for gid in cells]
    if submitted is None or not submitted.exists():
        return _rows_for(student, assignment, exercises, {}, lambda ex: "no submission")
    try:
        nb = nbf.read(submitted, as_version=4)
    except Exception as exc:  # empty, not JSON, not a notebook
        why = "empty file" if submitted.stat().st_size == 0 else f"not a notebook ({type(exc).__name__})"
        return _rows_for(student, assignment, exercises, {}, lambda ex: f"unreadable submission: {why}")
    present = {c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells}
    missing = {gid.removeprefix("answer-").removeprefix("check-").replace("-", ".")
               for gid in [*cells, *(c.metadata["nbgrader"]["grade_id"] for c in source_nb.cells
                                     if c.metadata.get("nbgrader", {}).get("solution"))]
               if gid not in present}
    target = course / "submitted" / student / assignment
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    nbf.write(nb, target / submitted.name)
    try:
        proc = _nbgrader("autograde", assignment, "--student", student, "--force",
                         timeout=timeout, cwd=course)
    except subprocess.TimeoutExpired:
        return _rows_for(student, assignment, exercises, {},
                         lambda ex: f"time limit: the notebook ran longer than {timeout} s")
    graded = course / "autograded" / student / assignment / submitted.name
    if proc.returncode != 0 or not graded.exists():
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [""]
        return _rows_for(student, assignment, exercises, {},
                         lambda ex: f"could not be graded: {tail[0][:200]}")
    points = _points_from_gradebook(course, assignment, student, submitted.stem)
    out = nbf.read(graded, as_version=4)
    by_id = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in out.cells}

    def reason(ex):
        if ex in missing:
            return "edited out of shape: a graded cell of this exercise was deleted"
        tag = ex.replace(".", "-")
        return _feedback(by_id.get(f"answer-{tag}"), by_id.get(f"check-{tag}", {}))

    def earned(ex, p):
        # no points for an exercise whose cells were deleted, or whose answer cell failed (a name
        # left over from an earlier exercise must not be graded as this one's answer)
        answer = by_id.get(f"answer-{ex.replace('.', '-')}")
        return 0.0 if ex in missing or (answer is not None and _error_of(answer)) else p

    points = {ex: earned(ex, p) for ex, p in points.items()}
    return _rows_for(student, assignment, exercises, points, reason)


def _points_from_gradebook(course, assignment, student, notebook):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        nb = gb.find_submission_notebook(notebook, assignment, student)
        return {g.name.removeprefix("check-").replace("-", "."): float(g.score or 0.0)
                for g in nb.grades}


def grade(submissions, roster=None, course=COURSE, timeout=NOTEBOOK_TIMEOUT_S, out=None):
    """Grade every student's notebooks into one CSV gradebook; returns its rows."""
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise ClassroomError(f"SUBMISSIONS must be a folder of student folders; got {submissions}")
    sources = {p.parent.name: p for p in sorted((course / "source").glob("*/*.ipynb"))}
    if not sources:
        raise ClassroomError("no assignments yet: run `make assignments` first")
    students = sorted(p.name for p in submissions.iterdir() if p.is_dir() and not p.name.startswith("."))
    if roster:
        listed = [s.strip() for s in Path(roster).read_text(encoding="utf-8").splitlines() if s.strip()]
        students = sorted(set(students) | set(listed))
    handed_in = {p.stem for s in students for p in (submissions / s).glob("*.ipynb")} if students else set()
    assignments = [a for a in sources if a in handed_in] or list(sources)
    nbf = _nbformat()
    rows = []
    for assignment in assignments:
        source_nb = nbf.read(sources[assignment], as_version=4)
        for student in students:
            path = submissions / student / f"{assignment}.ipynb"
            rows += grade_one(student, assignment, path if path.exists() else None, source_nb,
                              course=course, timeout=timeout)
    out = Path(out) if out else course / "gradebook.csv"
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=GRADEBOOK_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("assignments", help="write the student versions with nbgrader")
    a.add_argument("numbers", nargs="*", help="only these notebooks (NN)")
    g = sub.add_parser("grade", help="grade a folder of submissions into build/assignments/gradebook.csv")
    g.add_argument("submissions")
    g.add_argument("--roster", help="a file with one student name per line (who should have submitted)")
    g.add_argument("--timeout", type=float, default=NOTEBOOK_TIMEOUT_S, help="seconds per notebook")
    args = parser.parse_args(argv)
    try:
        if args.command == "assignments":
            built = build_assignments(tuple(args.numbers))
            print(f"student versions of {len(built)} notebooks in {COURSE / 'release'}")
        else:
            rows = grade(args.submissions, roster=args.roster, timeout=args.timeout)
            total = sum(r["points"] for r in rows)
            print(f"graded {len({r['student'] for r in rows})} students: "
                  f"{total:g} points in all; gradebook at {COURSE / 'gradebook.csv'}")
    except ClassroomError as exc:
        sys.exit(f"classroom: {exc}")


if __name__ == "__main__":
    main()
