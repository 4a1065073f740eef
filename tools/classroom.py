#!/usr/bin/env python3
"""Hand out, collect and grade the course's exercises: a grade depends only on what the student answered.

    python tools/classroom.py student-env                               (make student-env)
    python tools/classroom.py assignments --roster F [NN ...]           (make assignments ROSTER=F)
    python tools/classroom.py grade SUBMISSIONS [--roster F] [--students a,b] [--notebooks 07,09]
                                                [--jobs N] [--unsafe-no-sandbox]   (make grade ...)
    python tools/classroom.py export                                    (the CSVs and feedback again)

The threat model (teachers/threat-model.md): students see their notebook and the student
environment, run any code in it and may submit anything; the teacher's machine, the key
and other students' work stay safe, and a grade depends only on what the student answered.

``student-env``
    The student environment: the library's wheel and the course's distribution built without
    ``evalkit.course.exercises`` (no expected value, no solution, no choice key; the same build
    as the course's, tools/course_dist.py), in ``build/classroom/student/``, and a venv of them
    pinned by constraints.txt in ``build/classroom/student/venv``: what a class installs, and
    what the grading sandbox runs every submission in.
``assignments``
    One variant per student of every notebook with exercises, in
    ``build/classroom/release/<student>/notebooks/NN-x.ipynb`` (with the ``figures/`` the
    lessons show). A seed from the course secret (``build/classroom/secret``, made on first
    use, or ``COURSE_SECRET``) and the student's name picks the student's own data for the
    computed exercises and the order of every choice question's options. Each exercise's
    data cell binds the data, its answer cell is a stub, its check cell checks the form only.
    A check-your-understanding question in the lesson's body (``NN.0``, above "## Exercises")
    stays as practice: the notebook's own data and options (as comments: the lesson's variables
    keep their values), a form check that says it is not graded, and no key; the grader neither
    runs nor scores it.
``grade``
    ``SUBMISSIONS/<student>/NN-x.ipynb`` are the collected notebooks. Each runs in its own
    sandbox (tools/sandbox.py: bubblewrap, a private copy of that one notebook, the
    read-only student environment and its Python, no network, limits on time, memory and processes, every
    process killed at the end), in parallel on all cores; tools/classroom_runner.py writes
    the answers as data. After the sandbox has ended, this process recomputes the student's
    expected answers from the same seed and compares, case by case (partial credit). The
    record is nbgrader's gradebook, ``build/classroom/gradebook.db`` (formgrader and
    ``nbgrader export`` read it); from it come ``grades.csv`` (a row per student and
    exercise), ``lms.csv`` (a row per student, a column per notebook and the total) and
    ``feedback/<student>/NN-x.md``. ``--students``/``--notebooks`` regrade only those.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import hashlib
import hmac
import importlib.util
import json
import os
import queue
import re
import secrets
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
FIGURES = ROOT / "figures"
COURSE = ROOT / "build" / "classroom"
RUNNER = Path(__file__).resolve().parent / "classroom_runner.py"
NOTEBOOK_NAME = re.compile(r"^(\d\d)-[a-z0-9-]+\.ipynb$")
CHECK_CALL = re.compile(r'^check\("(\d\d\.\d+)",\s*([A-Za-z_]\w*)\)\s*$', re.M)
SHOW_CALL = re.compile(r'show\("(\d\d\.\d+)"\)')
EXERCISE_IMPORT = re.compile(r"^from evalkit\.course\.exercises import [\w, ]+\n*", re.M)
POINTS = 1.0                # points per exercise, shared among its cases
CELL_TIMEOUT_S = 60         # one cell of a submission
NOTEBOOK_TIMEOUT_S = 300    # one submission as a whole (notebook 09 starts Spark)
MAX_NOTEBOOK_BYTES = 20 << 20
INSIDE = "/opt/evalkit"     # where the sandbox sees the student environment and the runner
GRADED_NOTE = (
    "**What is graded.** The cell under *Setup* and every cell from here to the next section run "
    "again when your notebook is graded, in a fresh kernel: your answers must not depend on the lesson "
    "cells above. Each exercise's answer is the variable its answer cell binds; keep the answer cells "
    "(their metadata marks them) and answer in them. The check cells test only the form of an answer.")


class ClassroomError(RuntimeError):
    pass


def _load_tool(name):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return sys.modules[name]


def _nbformat():
    import nbformat

    return nbformat


# -- roster, secret, seeds ------------------------------------------------------------


def read_roster(path):
    """The students' names, one per line (blank lines and # comments skipped)."""
    names = [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()]
    names = [n for n in names if n and not n.startswith("#")]
    folded = [n.casefold() for n in names]
    twins = sorted({n for n in names if folded.count(n.casefold()) > 1})
    if twins:
        raise ClassroomError(f"the roster names {twins} more than once (names are matched ignoring case)")
    bad = [n for n in names if "/" in n or n.startswith(".")]
    if bad:
        raise ClassroomError(f"roster names cannot hold '/' or start with '.': {bad}")
    return names


def course_secret(course=COURSE, create=False):
    """The course secret: COURSE_SECRET, else course/secret (made when ``create``)."""
    if os.environ.get("COURSE_SECRET"):
        return os.environ["COURSE_SECRET"].encode()
    path = Path(course) / "secret"
    if not path.exists():
        if not create:
            raise ClassroomError(f"no course secret at {path}: run `make assignments` first, "
                                 "or set COURSE_SECRET to the secret the assignments were made with")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32) + "\n")
    return path.read_text(encoding="utf-8").strip().encode()


def seed_for(secret, student, exercise_id):
    """The seed of one student's variant of one exercise (names matched ignoring case)."""
    message = f"{student.strip().casefold()}\n{exercise_id}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big")


# -- the exercises of a course notebook -------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """Where one exercise sits in a course notebook."""

    id: str
    name: str            # the variable the answer cell binds
    data: int | None     # index of the cell that shows the data
    answer: int          # index of the answer cell
    check: int           # index of the check cell
    graded: bool = True  # under "## Exercises"; a question in the lesson's body is practice


def _exercises_heading(nb):
    """The index of the "## Exercises" heading cell (where graded work starts), or None."""
    return next((i for i, c in enumerate(nb.cells) if c.cell_type == "markdown"
                 and any(line.lower().startswith("## exercises") for line in c.source.splitlines())),
                None)


def exercise_specs(nb):
    """The questions of a course notebook, in order, from its ``check("NN.k", name)`` cells.

    A question above the "## Exercises" heading (a check-your-understanding question in the
    lesson's body) is practice: ``graded=False``.
    """
    start = _exercises_heading(nb)
    specs = []
    for i, cell in enumerate(nb.cells):
        match = CHECK_CALL.search(cell.source) if cell.cell_type == "code" else None
        if not match:
            continue
        ex_id, name = match.groups()
        answer = next(j for j in range(i - 1, -1, -1) if nb.cells[j].cell_type == "code")
        data = next((j for j in range(answer - 1, -1, -1) if nb.cells[j].cell_type == "code"
                     and SHOW_CALL.search(nb.cells[j].source)
                     and SHOW_CALL.search(nb.cells[j].source).group(1) == ex_id), None)
        graded = start is not None and i > start
        specs.append(Spec(ex_id, name, data, answer, i, graded))
    return specs


def graded_specs(nb):
    """The graded exercises of a course notebook: those under its "## Exercises" heading."""
    return [spec for spec in exercise_specs(nb) if spec.graded]


def course_notebooks(numbers=()):
    """name -> path of the course notebooks with exercises (only ``numbers`` if given)."""
    found = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        if not NOTEBOOK_NAME.match(path.name) or path.name.startswith("00-"):
            continue
        if numbers and path.name[:2] not in numbers:
            continue
        if graded_specs(_nbformat().read(path, as_version=4)):
            found[path.stem] = path
    if not found:
        raise ClassroomError("no course notebook with exercises matched")
    return found


def _key():
    """The answer key: evalkit.course.exercises, which only the grader's side imports."""
    from evalkit.course import exercises

    return exercises


# -- the student environment ------------------------------------------------------------


STUDENT = "student"      # course/student/: the two wheels and the venv made from them
LOCK = ROOT / "constraints.txt"


def _course_dist():
    return _load_tool("course_dist")


def student_wheels(course=COURSE):
    """The student environment's two wheels, in ``course/student/``: the library's, and the course's
    built without the key (tools/course_dist.py, the one build); returns their paths."""
    course_dist = _course_dist()
    try:
        return course_dist.build_wheels(Path(course) / STUDENT, key=False)
    except course_dist.BuildError as exc:
        raise ClassroomError(f"the student environment's wheels: {exc}") from exc


def student_env(course=COURSE):
    """The student environment: a fresh venv of this Python with the two wheels, pinned by
    constraints.txt, in ``course/student/venv``; returns the venv's folder.

    It is what a class installs (the same two wheels, the same command) and what the grader runs
    every submission in (bound read-only in the sandbox).
    """
    wheels = student_wheels(course)
    venv = Path(course) / STUDENT / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    steps = [[sys.executable, "-m", "venv", str(venv)],
             [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-c", str(LOCK),
              *map(str, wheels)]]
    for step in steps:
        proc = subprocess.run(step, capture_output=True, text=True, env=_outside_env())
        if proc.returncode != 0:
            raise ClassroomError(f"making the student environment failed ({' '.join(step[:4])} ...):\n"
                                 f"{proc.stdout[-2000:]}{proc.stderr[-3000:]}")
    student_python(venv)
    return venv


def _outside_env():
    """This process's environment without what would put another Python's packages on the path."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONNOUSERSITE")
    return {k: v for k, v in os.environ.items() if k not in drop}


KEY_PROBE = ("import importlib.util as u, evalkit, evalkit.course\n"
             "print(evalkit.__file__)\n"
             "print(u.find_spec('evalkit.course.exercises') is None)\n")


def student_python(venv):
    """The Python of a student environment, after checking that the sandbox can run it and that it
    holds evalkit and the course but no key (refused otherwise, before anything is graded)."""
    venv = Path(venv).resolve()
    python = venv / "bin" / "python"
    config = venv / "pyvenv.cfg"
    if not (python.exists() and config.is_file()):
        raise ClassroomError(f"no student environment at {venv}: run `make student-env` first")
    home = ""
    for line in config.read_text("utf-8").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home":
            home = value.strip()
    if not Path(home).resolve().is_relative_to(Path(sys.base_prefix).resolve()):
        raise ClassroomError(f"the student environment {venv} was made with another Python ({home}); "
                             f"the sandbox holds only this one ({sys.base_prefix}): run `make student-env` again")
    proc = subprocess.run([str(python), "-I", "-c", KEY_PROBE], capture_output=True, text=True,
                          cwd=venv, env=_outside_env(), timeout=120)
    lines = proc.stdout.split()
    if proc.returncode != 0 or len(lines) != 2:
        raise ClassroomError(f"the student environment {venv} cannot import evalkit and its course:\n"
                             f"{proc.stderr[-2000:]}")
    if not Path(lines[0]).resolve().is_relative_to(venv):
        raise ClassroomError(f"the student environment {venv} imports evalkit from {lines[0]}, "
                             "outside it (an editable install of the repository, with the key?)")
    if lines[1] != "True":
        raise ClassroomError(f"the student environment {venv} holds the answer key "
                             "(evalkit.course.exercises): never grade in it; run `make student-env`")
    return python


# -- assignments: a variant per student ------------------------------------------------


def form_check(exercise, name, graded=True):
    """The check cell of a student version: the answer's form, never its value."""
    lines = []
    if exercise.kind == "function":
        lines.append(f"assert callable({name}), '{name} must be a function'")
    elif exercise.kind == "choice":
        letters = tuple(sorted(exercise.choices))
        lines.append(f"assert {name} in {letters!r}, '{name} must be one of the letters {', '.join(letters)}'")
    else:
        lines.append(f"assert {name} is not ..., 'replace ... with your answer'")
        if isinstance(exercise.solution, (list, tuple)):
            n = len(exercise.solution)
            lines.append(f"assert len({name}) == {n}, '{name} must hold {n} values'")
        else:
            lines.append(f"float({name})  # a number")
    if graded:
        lines.append(f"print('exercise {exercise.id}: the form is right; "
                     "it is graded when you hand it in')")
    else:
        lines.append(f"print('question {exercise.id}: the form is right; this question is practice "
                     "and not graded: talk your answer over in class')")
    return "\n".join(lines)


def practice_data(key, exercise_id):
    """A practice question's data cell: its data and options as comments, binding no name (the
    lesson's own variables, such as ``y`` or ``relevant``, must keep their values)."""
    lines = repr(key.show(exercise_id)).splitlines()
    return "\n".join(line if line.startswith("#") else "# " + line for line in lines)


def student_notebook(path, student, secret):
    """One student's version of a course notebook: own data, own option order, no key."""
    nbf = _nbformat()
    key = _key()
    nb = nbf.read(path, as_version=4)
    specs = exercise_specs(nb)
    for spec in specs:
        # practice is the same for the whole class (seed None): it is talked over, not graded
        seed = seed_for(secret, student, spec.id) if spec.graded else None
        exercise = key.variant(spec.id, seed)
        if spec.data is not None:
            cell = nb.cells[spec.data]
            graded_data = spec.graded and key.data_source(spec.id, seed)
            cell.source = graded_data or practice_data(key, spec.id)
            cell.metadata = {"evalkit": {"data": spec.id}}
        answer = nb.cells[spec.answer]
        answer.metadata = {"evalkit": {"answer" if spec.graded else "practice": spec.id}}
        check = nb.cells[spec.check]
        check.source = form_check(exercise, spec.name, spec.graded)
        check.metadata = {"evalkit": {"form": spec.id}}
    exercise_cells = {i for s in specs for i in (s.data, s.answer, s.check) if i is not None}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            cell.source = EXERCISE_IMPORT.sub("", cell.source)
            if i in exercise_cells:
                cell.outputs, cell.execution_count = [], None
    start = _exercises_heading(nb)
    if start is None:
        raise ClassroomError(f"{path.name}: no '## Exercises' heading (what is graded starts there)")
    nb.cells.insert(start + 1, nbf.v4.new_markdown_cell(GRADED_NOTE))
    text = nbf.writes(nb)
    if "evalkit.course.exercises" in text:
        raise ClassroomError(f"{path.name}: the student version still names evalkit.course.exercises")
    return nb


def build_assignments(roster, numbers=(), course=COURSE):
    """Write every student's variant of every notebook with exercises; returns the notebook names."""
    course = Path(course)
    students = read_roster(roster) if not isinstance(roster, list) else roster
    secret = course_secret(course, create=True)
    notebooks = course_notebooks(tuple(numbers))
    nbf = _nbformat()
    for student in students:
        folder = course / "release" / student
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "notebooks").mkdir(parents=True)
        shutil.copytree(FIGURES, folder / "figures")
        for name, path in notebooks.items():
            nbf.write(student_notebook(path, student, secret), folder / "notebooks" / path.name)
    return list(notebooks)


# -- collecting: who handed in what --------------------------------------------------------


def _submitted(folder, assignment, warnings, student):
    """The notebook of ``assignment`` in a student's folder, by the renamed-file rule."""
    exact = folder / f"{assignment}.ipynb"
    if exact.is_file():
        return exact
    number = assignment[:2]
    found = sorted((p for p in folder.glob("*.ipynb") if p.is_file() and p.name.startswith(number + "-")),
                   key=lambda p: (p.stat().st_mtime, p.name))
    if not found:
        return None
    if len(found) > 1:
        warnings.append(f"{student}: several notebooks for {assignment} "
                        f"({', '.join(p.name for p in found)}); graded the newest, {found[-1].name}")
    else:
        warnings.append(f"{student}: graded {found[-1].name} as {assignment}.ipynb (renamed file)")
    return found[-1]


def match_students(submissions, roster_names, warnings):
    """student -> folder (or None), with a warning for each mismatch between roster and folders."""
    folders = {p.name: p for p in sorted(Path(submissions).iterdir())
               if p.is_dir() and not p.name.startswith(".")}
    if roster_names is None:
        return dict(folders)
    by_fold = {}
    for name, path in folders.items():
        by_fold.setdefault(name.casefold(), []).append(path)
    matched = {}
    for student in roster_names:
        paths = by_fold.pop(student.casefold(), [])
        if len(paths) > 1:
            warnings.append(f"{student}: folders {[p.name for p in paths]} differ only in case; "
                            f"graded {paths[0].name}")
        if paths and paths[0].name != student:
            warnings.append(f"{student}: folder '{paths[0].name}' taken as the roster's '{student}'")
        matched[student] = paths[0] if paths else None
    for paths in by_fold.values():
        for path in paths:
            warnings.append(f"folder '{path.name}' matches no name on the roster: not graded")
    return matched


# -- grading ----------------------------------------------------------------------------


@dataclass
class Graded:
    """One student's grade for one notebook: a row per exercise, and how the run went."""

    student: str
    assignment: str
    rows: list = field(default_factory=list)   # dicts: exercise, points, max_points, feedback
    note: str = ""
    seconds: float = 0.0

    @property
    def points(self):
        return sum(r["points"] for r in self.rows)


def _job(specs, student, secret):
    key = _key()
    from evalkit.course.answers import encode

    exercises = {}
    for spec in specs:
        exercise = key.variant(spec.id, seed_for(secret, student, spec.id))
        entry = {"name": spec.name}
        if exercise.kind == "function":
            entry["cases"] = [encode(list(case.args)) for case in exercise.cases]
        exercises[spec.id] = entry
    return exercises


def _sandbox_env(python):
    return {"PATH": f"{Path(python).parent}:/usr/local/bin:/usr/bin:/bin", "MPLBACKEND": "Agg",
            "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": str(python), "PYSPARK_DRIVER_PYTHON": str(python),
            "JAVA_TOOL_OPTIONS": "-Xmx1g", "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
            # the kernel's files go to the sandbox's private /tmp (its home is read-only)
            "JUPYTER_RUNTIME_DIR": "/tmp/jupyter/runtime", "JUPYTER_CONFIG_DIR": "/tmp/jupyter/config",
            "IPYTHONDIR": "/tmp/ipython", "MPLCONFIGDIR": "/tmp/matplotlib", "TMPDIR": "/tmp"}


def run_submission(notebook, specs, student, secret, work, *, python, slot=0, unsafe=False,
                   timeout=NOTEBOOK_TIMEOUT_S, cell_timeout=CELL_TIMEOUT_S):
    """Run one submitted notebook away from everything else, with ``python``, the student
    environment's (:func:`student_python`); returns (report, answers folder, note)."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copyfile(notebook, work / notebook.name)
    job = {"notebook": notebook.name, "cell_timeout": cell_timeout,
           "exercises": _job(specs, student, secret)}
    (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
    note = ""
    if unsafe:
        env = dict(_outside_env(), **_sandbox_env(python))
        try:
            subprocess.run([str(python), str(RUNNER), str(work / "job.json")], cwd=work, env=env,
                           timeout=timeout, capture_output=True)
        except subprocess.TimeoutExpired:
            note = f"time limit: the notebook ran longer than {timeout:g} s"
    else:
        sandbox = _load_tool("sandbox")
        # the student environment, read-only: its venv (relocatable for Python; pyvenv.cfg names
        # this Python's base, which the sandbox holds) and its Python
        venv, inside = Path(python).parent.parent, f"{INSIDE}/venv"
        outcome = sandbox.run([f"{inside}/bin/python", f"{INSIDE}/classroom_runner.py", "job.json"], workdir=work,
                              binds=[(venv, inside), (RUNNER, f"{INSIDE}/classroom_runner.py")],
                              env=_sandbox_env(f"{inside}/bin/python"), limits=sandbox.Limits(wall_s=timeout),
                              slot=slot)
        if outcome.timed_out:
            note = f"time limit: the notebook ran longer than {timeout:g} s"
    _keep_regular_files(work)
    report = {}
    try:
        if (work / "report.json").is_file() and (work / "report.json").stat().st_size < (1 << 20):
            report = json.loads((work / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    return (report if isinstance(report, dict) else {}), work / "answers", note


def _keep_regular_files(work):
    """Remove what a sandbox may leave to trick the grader: symlinks (to a classmate's answers, to
    /dev/zero), FIFOs, sockets and devices. Its processes have all ended, so nothing comes back."""
    for folder, dirs, files in os.walk(work, followlinks=False):
        for name in dirs + files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                os.unlink(path)


def _run_note(report, note):
    """Why a whole run went wrong, in words a student can read."""
    error = report.get("error") if isinstance(report.get("error"), str) else None
    return note or (error or "")


def score(specs, student, secret, report, answers, note=""):
    """Rows of one graded notebook: the key is applied here, in the grader's process."""
    key = _key()
    from evalkit.course.answers import read_answer

    ran = report.get("exercises") if isinstance(report.get("exercises"), dict) else {}
    why_run = _run_note(report, note)
    rows = []
    for spec in specs:
        exercise = key.variant(spec.id, seed_for(secret, student, spec.id))
        path = answers / f"{spec.id}.json"
        status = ran.get(spec.id) if isinstance(ran.get(spec.id), dict) else None
        error = status.get("error") if status and isinstance(status.get("error"), str) else None
        check_error = status.get("check_error") if status and isinstance(status.get("check_error"), str) \
            else None
        points, feedback = 0.0, ""
        if error:
            feedback = f"the answer cell raised {error}"
        elif check_error and not path.is_file():
            feedback = ("calling your answer on the exercise's cases failed "
                        + ("(it ran longer than the time limit)" if "KeyboardInterrupt" in check_error
                           else f"({check_error})"))
        elif not path.is_file() or path.is_symlink():
            feedback = (why_run + "; " if why_run else "") + (
                "no answer recorded: the answer cell of this exercise did not run or was not found "
                "(its cell metadata marks it: evalkit.answer = " + spec.id + ")")
        else:
            try:
                given = read_answer(str(path))
                result = key.grade(exercise, given.get("answer"), outputs=given.get("outputs"))
                points = round(POINTS * float(result.score), 4)
                feedback = repr(result)
            except Exception as exc:  # a malformed answer file earns nothing, and says so
                feedback = f"the answer could not be read ({type(exc).__name__})"
        rows.append({"exercise": spec.id, "points": points, "max_points": POINTS, "feedback": feedback})
    return rows


def grade_one(student, assignment, notebook, specs, secret, course, *, python, slot=0, unsafe=False,
              timeout=NOTEBOOK_TIMEOUT_S):
    """The grade of one student's notebook (no notebook: no submission)."""
    start = time.monotonic()
    graded = Graded(student, assignment)
    if notebook is None:
        graded.note = "no submission"
    elif notebook.is_symlink() or not notebook.is_file():
        graded.note = "unreadable submission: not a regular file"
    elif notebook.stat().st_size > MAX_NOTEBOOK_BYTES or notebook.stat().st_size == 0:
        graded.note = "unreadable submission: " + ("empty file" if notebook.stat().st_size == 0
                                                   else "larger than 20 MB")
    if graded.note:
        graded.rows = [{"exercise": s.id, "points": 0.0, "max_points": POINTS, "feedback": graded.note}
                       for s in specs]
        return graded
    work = Path(course) / "work" / student / assignment
    report, answers, note = run_submission(notebook, specs, student, secret, work, python=python, slot=slot,
                                           unsafe=unsafe, timeout=timeout)
    graded.note = _run_note(report, note)
    graded.rows = score(specs, student, secret, report, answers, note)
    graded.seconds = time.monotonic() - start
    return graded


def _results_path(course, student, assignment):
    return Path(course) / "results" / student / f"{assignment}.json"


def _save_result(course, graded):
    path = _results_path(course, graded.student, graded.assignment)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"student": graded.student, "assignment": graded.assignment,
                                "note": graded.note, "rows": graded.rows}, indent=1), encoding="utf-8")


def grade(submissions, roster=None, course=COURSE, *, students=None, notebooks=(), jobs=None, unsafe=False,
          timeout=NOTEBOOK_TIMEOUT_S, progress=True, student_env=None):
    """Grade a folder of submissions into the gradebook; returns the list of Graded.

    Every submission runs in the student environment (``student_env``, by default the one
    ``make student-env`` made in ``course/student/venv``), the one a class installs.
    """
    course = Path(course)
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise ClassroomError(f"SUBMISSIONS must be a folder of student folders; got {submissions}")
    if not unsafe and _load_tool("sandbox").kind() is None:
        raise ClassroomError(
            "no sandbox: bubblewrap (Debian's bubblewrap package) is missing or cannot run here. "
            "Install it, or pass --unsafe-no-sandbox to run every submission with your own rights "
            "(a submission could then read the answer key and change any grade).")
    secret = course_secret(course)
    warnings = []
    roster_names = read_roster(roster) if roster else None
    folders = match_students(submissions, roster_names, warnings)
    if students:
        wanted = {s.casefold() for s in students}
        folders = {s: f for s, f in folders.items() if s.casefold() in wanted}
    assignments = course_notebooks(tuple(notebooks))
    if not notebooks:   # a term in progress: only the notebooks someone has handed in
        handed_in = {p.name[:2] for f in folders.values() if f for p in f.glob("*.ipynb")}
        assignments = {k: v for k, v in assignments.items() if k[:2] in handed_in} or assignments
    nbf = _nbformat()
    specs = {name: graded_specs(nbf.read(path, as_version=4)) for name, path in assignments.items()}
    python = student_python(student_env or Path(course) / STUDENT / "venv")
    tasks = [(student, name, _submitted(folder, name, warnings, student) if folder else None)
             for name in assignments for student, folder in folders.items()]
    jobs = max(1, jobs or os.cpu_count() or 1)
    slots = queue.Queue()
    for slot in range(jobs):
        slots.put(slot)

    def one(task):
        slot = slots.get()
        try:
            return grade_one(*task, specs[task[1]], secret, course, python=python, slot=slot, unsafe=unsafe,
                             timeout=timeout)
        finally:
            slots.put(slot)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for done, graded in enumerate(pool.map(one, tasks), 1):
            results.append(graded)
            _save_result(course, graded)
            if progress:
                print(f"[{done}/{len(tasks)}] {graded.student} {graded.assignment}: "
                      f"{graded.points:g}/{POINTS * len(graded.rows):g}"
                      + (f" ({graded.note})" if graded.note else "") + f" {graded.seconds:.1f} s",
                      file=sys.stderr, flush=True)
    shutil.rmtree(course / "work", ignore_errors=True)
    record(course, results, specs)
    export(course)
    (course / "warnings.txt").write_text("".join(w + "\n" for w in warnings), encoding="utf-8")
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return results


# -- the gradebook: nbgrader's, the one record ---------------------------------------------


def _cell(exercise_id):
    return "exercise-" + exercise_id.replace(".", "-")


def _write_nbgrader_config(course):
    (course / "nbgrader_config.py").write_text(
        "# Written by tools/classroom.py: the course's gradebook is this folder's gradebook.db.\n"
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        'c.CourseDirectory.course_id = "evalkit"\n', encoding="utf-8")


def _gradebook(course):
    """nbgrader's gradebook of the course (it runs `alembic` by name: the venv's bin/ goes on PATH)."""
    from nbgrader.api import Gradebook

    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    return Gradebook(f"sqlite:///{Path(course) / 'gradebook.db'}")


def record(course, results, specs):
    """Write the points into nbgrader's gradebook (after every sandbox has ended)."""
    from nbgrader.api import MissingEntry

    import warnings

    from sqlalchemy.exc import SAWarning

    course = Path(course)
    _write_nbgrader_config(course)
    with _gradebook(course) as gb, warnings.catch_warnings():
        # nbgrader's add_submission trips SQLAlchemy's autoflush warning; the rows are written all the same
        warnings.simplefilter("ignore", SAWarning)
        for name, exercises in specs.items():
            gb.update_or_create_assignment(name)
            gb.update_or_create_notebook(name, name)
            for spec in exercises:
                gb.update_or_create_grade_cell(_cell(spec.id), name, name, max_score=POINTS, cell_type="code")
        for graded in results:
            gb.update_or_create_student(graded.student)
            try:
                gb.find_submission(graded.assignment, graded.student)
            except MissingEntry:
                gb.add_submission(graded.assignment, graded.student)
            for row in graded.rows:
                cell = gb.find_grade(_cell(row["exercise"]), graded.assignment, graded.assignment,
                                     graded.student)
                cell.auto_score = row["points"]
                cell.manual_score = None
        gb.db.commit()


def _from_gradebook(course):
    """(student, assignment, exercise) -> points, read back from gradebook.db."""
    points = {}
    with _gradebook(course) as gb:
        for assignment in gb.assignments:
            for submission in assignment.submissions:
                for notebook in submission.notebooks:
                    for g in notebook.grades:
                        exercise = g.name.removeprefix("exercise-").replace("-", ".")
                        points[(submission.student.id, assignment.name, exercise)] = float(g.score)
    return points


def _feedback_file(course, result, points):
    lines = [f"# {result['assignment']}: feedback for {result['student']}", ""]
    total = sum(points.get((result["student"], result["assignment"], r["exercise"]), 0.0)
                for r in result["rows"])
    lines += [f"Points: {total:g} of {sum(r['max_points'] for r in result['rows']):g}", ""]
    if result.get("note"):
        lines += [f"About the whole notebook: {result['note']}", ""]
    for row in result["rows"]:
        got = points.get((result["student"], result["assignment"], row["exercise"]), 0.0)
        lines += [f"## Exercise {row['exercise']}: {got:g} of {row['max_points']:g}", "", "```",
                  row["feedback"] or "(no feedback)", "```", ""]
    path = Path(course) / "feedback" / result["student"] / f"{result['assignment']}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def export(course=COURSE):
    """grades.csv, lms.csv and the feedback files, from the gradebook (the points) and the results."""
    course = Path(course)
    points = _from_gradebook(course)
    results = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((course / "results").glob("*/*.json"))]
    assignments = sorted({r["assignment"] for r in results})
    students = sorted({r["student"] for r in results}, key=str.casefold)
    with (course / "grades.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["student", "assignment", "exercise", "points", "max_points", "feedback"])
        for result in results:
            for row in result["rows"]:
                got = points.get((result["student"], result["assignment"], row["exercise"]), 0.0)
                writer.writerow([result["student"], result["assignment"], row["exercise"], f"{got:g}",
                                 f"{row['max_points']:g}", " | ".join(row["feedback"].splitlines())])
    with (course / "lms.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Student", *assignments, "Total"])
        for student in students:
            per = [sum(v for (s, a, _), v in points.items() if s == student and a == name) for name in assignments]
            writer.writerow([student, *(f"{p:g}" for p in per), f"{sum(per):g}"])
    shutil.rmtree(course / "feedback", ignore_errors=True)
    for result in results:
        _feedback_file(course, result, points)


# -- command line ---------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("student-env", help="the student environment: the wheels without the answer key, and a venv of them")
    a = sub.add_parser("assignments", help="every student's own variant of the notebooks with exercises")
    a.add_argument("numbers", nargs="*", help="only these notebooks (NN)")
    a.add_argument("--roster", required=True, help="a file with one student name per line")
    g = sub.add_parser("grade", help="grade SUBMISSIONS/<student>/NN-x.ipynb in sandboxes")
    g.add_argument("submissions")
    g.add_argument("--roster", help="a file with one student name per line (who should have handed in)")
    g.add_argument("--students", default="", help="regrade only these students (comma-separated)")
    g.add_argument("--notebooks", default="", help="regrade only these notebooks (NN, comma-separated)")
    g.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: all cores)")
    g.add_argument("--timeout", type=float, default=NOTEBOOK_TIMEOUT_S, help="seconds per notebook")
    g.add_argument("--unsafe-no-sandbox", action="store_true",
                   help="grade without a sandbox: every submission runs with YOUR rights, so a student's "
                        "code can read the answer key, the secret and other submissions, and change any "
                        "grade. Only for trusted code.")
    sub.add_parser("export", help="write grades.csv, lms.csv and the feedback again from the gradebook")
    args = parser.parse_args(argv)
    try:
        if args.command == "student-env":
            print(f"student environment: {student_env()} (the wheels a class installs beside it)")
        elif args.command == "assignments":
            built = build_assignments(args.roster, tuple(args.numbers))
            print(f"each student's version of {len(built)} notebooks in {COURSE / 'release'}")
        elif args.command == "grade":
            split = [s.strip() for s in args.students.split(",") if s.strip()]
            numbers = tuple(n.strip() for n in args.notebooks.split(",") if n.strip())
            results = grade(args.submissions, roster=args.roster, students=split, notebooks=numbers,
                            jobs=args.jobs, unsafe=args.unsafe_no_sandbox, timeout=args.timeout)
            print(f"graded {len(results)} notebooks of {len({r.student for r in results})} students; "
                  f"gradebook {COURSE / 'gradebook.db'}, {COURSE / 'lms.csv'}, {COURSE / 'feedback'}")
        else:
            export()
            print(f"wrote {COURSE / 'grades.csv'}, {COURSE / 'lms.csv'} and {COURSE / 'feedback'}")
    except ClassroomError as exc:
        sys.exit(f"classroom: {exc}")


if __name__ == "__main__":
    main()
