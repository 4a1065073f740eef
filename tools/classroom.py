#!/usr/bin/env python3
"""Hand out, collect and grade the course's exercises: a grade depends only on what the student answered.

    python tools/classroom.py student-env                               (make student-env)
    python tools/classroom.py assignments --roster F [NN ...]           (make assignments ROSTER=F)
    python tools/classroom.py grade SUBMISSIONS [--roster F] [--students a,b] [--notebooks 07,09]
                                                [--weights F] [--timeout S] [--jobs N]
                                                [--skip-unknown] [--replace-missing]
                                                [--unsafe-no-sandbox]          (make grade ...)
    python tools/classroom.py grade-by-hand --student S --exercise NN.k --points P --why TEXT
                                                                        (make grade-by-hand ...)
    python tools/classroom.py export                                    (the CSVs and feedback again)

The threat model (teachers/threat-model.md): students see their notebook and the student
environment, run any code in it and may submit anything; the teacher's machine, the key
and other students' work stay safe, and a grade depends only on what the student answered.
The honest path (teachers/running-a-term.md): every ordinary mistake of a teacher (a name
typed another way, a folder laid out differently, a roster saved by Excel, a wrong secret)
is refused or named before a grade is written, and nothing set by hand is lost.

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
    runs nor scores it. Each notebook's metadata carries a fingerprint of the secret (PBKDF2,
    never the secret); ``build/classroom/term.json`` records the fingerprint, the roster and the
    points per exercise, and later commands check against it.
``grade``
    The collected notebooks, in any of the layouts teachers collect (see :func:`find_submissions`).
    Each runs in its own sandbox (tools/sandbox.py: bubblewrap, a private copy of that one
    notebook, the read-only student environment and its Python, no network, limits on time, memory and
    processes, every process killed at the end), in parallel on all cores;
    tools/classroom_runner.py writes the answers as data. After the sandbox has ended, this
    process recomputes the student's expected answers from the same seed and compares, case
    by case (partial credit). The record is nbgrader's gradebook,
    ``build/classroom/gradebook.db``; from it come ``grades.csv`` (a row per student and
    exercise), ``canvas.csv`` and ``moodle.csv`` (each LMS's grade import format) and
    ``feedback/<student>/NN-x.md``. ``--students``/``--notebooks`` regrade only those.
``grade-by-hand``
    Set one exercise's points by hand, with the reason (nbgrader's ``manual_score`` and a
    comment); a regrade keeps it.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import csv
import difflib
import hashlib
import hmac
import importlib.util
import json
import math
import os
import queue
import re
import secrets
import shutil
import stat
import subprocess
import sys
import threading
import time
import unicodedata
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
DEFAULT_POINTS = 1.0        # an exercise's points unless the teacher's weights file says otherwise
CELL_TIMEOUT_S = 60         # one cell of a submission
NOTEBOOK_TIMEOUT_S = 300    # one submission as a whole (notebook 09 starts Spark)
MAX_NOTEBOOK_BYTES = 20 << 20
INSIDE = "/opt/evalkit"     # where the sandbox sees the student environment and the runner
GRADED_NOTE = (
    "**What is graded.** The cell under *Setup* and every cell from here to the next section run "
    "again when your notebook is graded, in a fresh kernel: your answers must not depend on the lesson "
    "cells above. Each exercise's answer is the variable its answer cell binds; keep the answer cells "
    "(their metadata marks them) and answer in them. The check cells test only the form of an answer.")
TERM_FILE = "term.json"     # the term's record: the secret's fingerprint, the roster, the points
# The secret's fingerprint: slow on purpose, so that a passphrase set as COURSE_SECRET cannot be
# found by trying guesses against the fingerprint every handed-out notebook carries.
FINGERPRINT_SALT = b"evalkit classroom: the course secret's fingerprint"
FINGERPRINT_ROUNDS = 200_000
MAX_FEEDBACK_CHARS = 2000   # one exercise's feedback, as the student and the teacher read it
# A spreadsheet takes a cell that starts with one of these as a formula (OWASP's CSV injection list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Characters that reorder how a line is shown (a name could otherwise hide what follows it).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
EXCEPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,79}")
# The columns of the LMS exports read as rosters, and written back in their import files.
CANVAS_IDS = ("ID", "SIS User ID", "SIS Login ID", "Section")   # the gradebook export, after Student
MOODLE_IDS = ("Username", "ID number", "Email address")         # what Moodle's grade import matches on
MOODLE_NAMES = ("First name", "Last name")
CANVAS_SKIPPED = ("Points Possible", "Student, Test")   # the export's points row and its test student
TABLE_WORDS = frozenset({"name", "student", "email", "e-mail", "email address", "first name", "last name",
                         "username", "login", "id", "id number", "section"})
# LMS bulk downloads (teachers/running-a-term.md, "3. Collect", says where these were read):
# Canvas names each file <lastfirst>_[LATE_]<user id>_<submission id>_<file name>, a resubmission
# with -1, -2 before the extension; Moodle names each file (or, "in folders", each folder)
# <full name>_<participant id>_assignsubmission_file_[<file name>].
CANVAS_FILE = re.compile(r"^(?P<name>[^_/]+)_(?:LATE_)?(?P<user>\d+)_(?P<submission>\d+)_(?P<file>.+)$")
MOODLE_NAME = re.compile(r"^(?P<name>.+?)_(?P<participant>\d+)_assignsubmission_[a-z]+(?:_(?P<file>.*))?$")
WRAPPERS = ("submitted", "notebooks")   # nbgrader's submitted/ and the release's notebooks/ folder


class ClassroomError(RuntimeError):
    pass


# Grading runs submissions on threads, and each may load a tool at the same moment.
_TOOLS_LOCK = threading.RLock()   # reentrant: a tool may load another as it runs


def _load_tool(name):
    """The tool ``tools/<name>.py``, loaded once per process.

    The module enters ``sys.modules`` before it runs (its dataclasses look it up there), so another
    thread must not see it until it has run: loading happens under a lock.
    """
    with _TOOLS_LOCK:
        if name in sys.modules:
            return sys.modules[name]
        path = Path(__file__).resolve().parent / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module


def _nbformat():
    import nbformat

    return nbformat


# -- text that reaches the teacher -----------------------------------------------------------


def safe_text(text, *, lines=False, limit=None):
    """``text`` as it may reach the teacher's terminal, a CSV or a feedback file.

    Control characters (an escape sequence, a carriage return, a bidirectional override) are
    shown as escapes such as ``\\x1b``, so text from a submission can neither move the cursor
    nor fake a line; a newline stays only where ``lines`` allows it; ``limit`` cuts long text.
    """
    text = str(text)
    if limit is not None and len(text) > limit:
        text = text[:limit] + " [cut]"
    out = []
    for ch in text:
        if ch == "\n" and lines:
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in BIDI_CONTROLS:
            if ord(ch) < 0x100:
                out.append(f"\\x{ord(ch):02x}")
            else:
                out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def csv_cell(value):
    """One CSV cell: safe text that a spreadsheet cannot take for a formula (a quote in front)."""
    text = safe_text(value)
    if text.startswith(FORMULA_START):
        return "'" + text
    return text


def _write_csv(path, rows):
    with Path(path).open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        for row in rows:
            writer.writerow([csv_cell(value) for value in row])


def _say(message):
    print(safe_text(message), file=sys.stderr, flush=True)


# -- names, roster, secret, seeds ------------------------------------------------------------


def name_key(name):
    """The one form in which the kit compares names: Unicode NFKC, no invisible format
    characters (a byte-order mark, a zero-width space), no outer spaces, case folded.

    "Zoë" typed composed (NFC) or decomposed (NFD, as macOS names files) is one name. A name
    already in NFKC keeps the key the kit used before (``strip().casefold()``), so the seeds of
    an existing term do not change.
    """
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return text.strip().casefold()


def _loose(name):
    """A name without accents or punctuation, only to suggest a near miss ("did you mean")."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    letters = [ch for ch in decomposed if not unicodedata.combining(ch)]
    return re.sub(r"[\W_]+", " ", "".join(letters)).strip()


def did_you_mean(name, candidates):
    """' (did you mean 'X'?)' for the candidate closest to ``name``, or '' when none is close."""
    by_loose = {}
    for candidate in candidates:
        by_loose.setdefault(_loose(candidate), candidate)
    close = difflib.get_close_matches(_loose(name), list(by_loose), n=1, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {by_loose[close[0]]!r}?)"


@dataclass(frozen=True)
class Student:
    """One roster entry: the name the variants are drawn from, and the LMS's ids for that student."""

    name: str
    ids: tuple = ()   # (column, value) pairs of the LMS export, in its order

    def id(self, column):
        return dict(self.ids).get(column, "")


@dataclass(frozen=True)
class Roster:
    """The class: its students, and what kind of file named them."""

    kind: str               # "plain" (a name a line), "canvas" or "moodle" (their CSV exports)
    students: tuple
    columns: tuple = ()     # the export's header (Canvas: its assignment columns are reused)

    def find(self, name):
        """The student whose name is ``name`` compared as :func:`name_key` does, or None."""
        key = name_key(name)
        for student in self.students:
            if name_key(student.name) == key:
                return student
        return None

    def names(self):
        return [student.name for student in self.students]

    def to_json(self):
        return {"kind": self.kind, "columns": list(self.columns),
                "students": [{"name": s.name, "ids": [list(pair) for pair in s.ids]} for s in self.students]}

    @classmethod
    def from_json(cls, data):
        students = tuple(Student(s["name"], tuple(tuple(pair) for pair in s["ids"])) for s in data["students"])
        return cls(data["kind"], students, tuple(data.get("columns", ())))


def read_roster(path):
    """The roster: one name a line, or a Canvas or Moodle CSV export (their id columns kept).

    A plain roster skips blank lines and ``#`` comments. A Canvas gradebook export is known by
    its Student and ID columns (its "Points Possible" row and test student are skipped); a
    Moodle grade export by its First name and Last name columns (the name is "First Last").
    A byte-order mark and Windows line ends (Excel) are read as nothing.
    """
    path = Path(path)
    lines = _text_lines(path, "ROSTER")
    roster = _lms_roster(lines, path)
    if roster is None:
        roster = _plain_roster(lines)
    _check_roster(roster, path)
    return roster


def _text_lines(path, what):
    """The lines of a file the teacher gave as ``what`` (UTF-8, with or without Excel's BOM)."""
    if not path.is_file():
        raise ClassroomError(f"{what}: no file at {path}")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ClassroomError(f"{what}: {path} is not UTF-8 text; in Excel, save it as "
                             "'CSV UTF-8 (Comma delimited)'") from None
    return text.splitlines()


def _plain_roster(lines):
    names = [line.strip() for line in lines]
    names = [name for name in names if name and not name.startswith("#")]
    return Roster("plain", tuple(Student(name) for name in names))


def _lms_kind(header):
    folded = {cell.casefold() for cell in header}
    if "student" in folded and "id" in folded:
        return "canvas"
    if {name.casefold() for name in MOODLE_NAMES} <= folded:
        return "moodle"
    return None


def _lms_roster(lines, path):
    """A Canvas or Moodle export read as a roster, or None for a plain list of names."""
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return None
    for delimiter in (",", ";", "\t"):   # Excel saves ';' in some countries, and tabs as "Text"
        header = [cell.strip() for cell in next(csv.reader([first], delimiter=delimiter))]
        kind = _lms_kind(header)
        if kind is not None:
            rows = list(csv.reader(lines[lines.index(first) + 1:], delimiter=delimiter))
            return _lms_rows(kind, header, rows)
    fields = [cell.strip().casefold() for cell in re.split(r"[,;\t]", first)]
    if len(fields) > 1 and TABLE_WORDS & set(fields):
        raise ClassroomError(
            f"ROSTER: {path} is a table with the columns {first.strip()!r}, which is neither a Canvas "
            "gradebook export (Student, ID, SIS User ID, ...) nor a Moodle export (First name, Last "
            "name, ...): export one of those, or write one name a line")
    return None


def _lms_rows(kind, header, rows):
    index = {cell.casefold(): i for i, cell in enumerate(header)}

    def cell(row, column):
        i = index.get(column.casefold())
        if i is None or i >= len(row):
            return ""
        return row[i].strip()

    students = []
    for row in rows:
        if kind == "canvas":
            name = cell(row, "Student")
            columns = CANVAS_IDS
        else:
            name = " ".join(part for part in (cell(row, "First name"), cell(row, "Last name")) if part)
            columns = MOODLE_NAMES + MOODLE_IDS
        if not name or name in CANVAS_SKIPPED:
            continue
        students.append(Student(name, tuple((column, cell(row, column)) for column in columns)))
    return Roster(kind, tuple(students), tuple(header))


def _check_roster(roster, path):
    names = roster.names()
    if not names:
        raise ClassroomError(f"ROSTER: {path} names no student")
    bad = [n for n in names if "/" in n or "\\" in n or n.startswith(".") or safe_text(n) != n]
    if bad:
        raise ClassroomError(f"ROSTER: names cannot hold '/', '\\' or control characters, or start "
                             f"with '.': {[safe_text(n) for n in bad]}")
    by_key = collections.defaultdict(list)
    for name in names:
        by_key[name_key(name)].append(name)
    twins = [spellings for spellings in by_key.values() if len(spellings) > 1]
    if twins:
        raise ClassroomError(
            f"ROSTER: {path} names the same student more than once: {twins} (names are compared "
            "ignoring case and how accents are encoded, so these would share one folder and one variant)")


def _as_roster(roster):
    """A Roster from a path, a Roster, or a list of names (tests and scripts)."""
    if isinstance(roster, Roster):
        return roster
    if isinstance(roster, (list, tuple)):
        made = Roster("plain", tuple(Student(name) for name in roster))
        _check_roster(made, "the list of names")
        return made
    return read_roster(roster)


def read_term(course):
    """The term's record (``term.json``): {} before the first ``make assignments``."""
    path = Path(course) / TERM_FILE
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ClassroomError(f"{path} is damaged ({exc}): restore it from your backup") from None


def _write_term(course, term):
    path = Path(course) / TERM_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(term, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, path)


def _term_roster(term):
    if "roster" not in term:
        return None
    return Roster.from_json(term["roster"])


def secret_fingerprint(secret):
    """A fingerprint of the course secret: PBKDF2-HMAC-SHA256, 200,000 rounds, 16 bytes in hex.

    It tells one secret from another without giving the secret away: the notebooks carry it.
    """
    return hashlib.pbkdf2_hmac("sha256", secret, FINGERPRINT_SALT, FINGERPRINT_ROUNDS)[:16].hex()


def _secret_source(course):
    if os.environ.get("COURSE_SECRET"):
        return "COURSE_SECRET"
    return str(Path(course) / "secret")


def course_secret(course=COURSE, create=False):
    """The course secret: COURSE_SECRET, else course/secret (made when ``create``, and only
    when no assignments were handed out before: a new secret would change every variant)."""
    if os.environ.get("COURSE_SECRET"):
        return os.environ["COURSE_SECRET"].encode()
    path = Path(course) / "secret"
    if not path.exists():
        if not create:
            raise ClassroomError(f"no course secret at {path}: run `make assignments` first, "
                                 "or set COURSE_SECRET to the secret the assignments were made with")
        released = any((Path(course) / "release").glob("*/notebooks/*.ipynb"))
        if read_term(course).get("fingerprint") or released:
            raise ClassroomError(
                f"no course secret at {path}, but assignments were handed out before with a secret "
                "that is not here; a new one would give every student other variants. Restore "
                f"{path} from your backup, or set COURSE_SECRET to this term's secret")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32) + "\n")
    return path.read_text(encoding="utf-8").strip().encode()


def _check_secret(course, fingerprint, term):
    """Refuse a secret other than the term's (before anything is written)."""
    recorded = term.get("fingerprint")
    if recorded and recorded != fingerprint:
        raise ClassroomError(
            f"the course secret ({_secret_source(course)}) is not the one this term's assignments "
            f"were made with (its fingerprint differs from the one in {Path(course) / TERM_FILE}): "
            "it would grade every student against other data. Restore the term's secret from your "
            "backup, or set COURSE_SECRET to it; nothing was written")


def seed_for(secret, student, exercise_id):
    """The seed of one student's variant of one exercise (names compared as :func:`name_key` does)."""
    message = f"{name_key(student)}\n{exercise_id}".encode()
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
    """Write every student's variant of every notebook with exercises; returns the notebook names.

    The roster, the secret's fingerprint and (kept) the points per exercise are recorded in
    ``term.json``: grading reads the roster from there when no other is given.
    """
    course = Path(course)
    roster = _as_roster(roster)
    term = read_term(course)
    secret = course_secret(course, create=True)
    fingerprint = secret_fingerprint(secret)
    _check_secret(course, fingerprint, term)
    notebooks = course_notebooks(tuple(numbers))
    earlier = _term_roster(term)
    if earlier is not None:
        dropped = [name for name in earlier.names() if roster.find(name) is None]
        if dropped:
            _say(f"warning: no longer on the roster: {', '.join(dropped)} (their grades stay in the "
                 "gradebook; the LMS files leave them out)")
    nbf = _nbformat()
    for student in roster.names():
        folder = course / "release" / student
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "notebooks").mkdir(parents=True)
        shutil.copytree(FIGURES, folder / "figures")
        for path in notebooks.values():
            nb = student_notebook(path, student, secret)
            nb.metadata["evalkit"] = {"secret_fingerprint": fingerprint}
            nbf.write(nb, folder / "notebooks" / path.name)
    term["fingerprint"] = fingerprint
    term["roster"] = roster.to_json()
    _write_term(course, term)
    return list(notebooks)


# -- collecting: whose notebook is which ------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A notebook under SUBMISSIONS: where it is, the name it was handed in under, and whose it is."""

    path: Path
    relative: str   # its path under SUBMISSIONS, for the teacher
    inner: str      # its file name, without an LMS's prefix


def _notebooks_under(root, warnings):
    """Every .ipynb under ``root`` (links to folders are not followed, and said so)."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in sorted(dirs):
            if os.path.islink(os.path.join(folder, name)):
                rel = os.path.relpath(os.path.join(folder, name), root)
                warnings.append(f"{rel}: a link to a folder, not followed: no notebook in it is graded")
        for name in sorted(files):
            if name.lower().endswith(".ipynb"):
                found.append(Path(folder) / name)
    return sorted(found)


def _canvas_names(name):
    """The forms Canvas's bulk download may give a name: "lastfirst", lower case, letters only."""
    words = re.findall(r"[^\W_]+", name_key(name))
    forms = {"".join(words), "".join(words[-1:] + words[:-1])}
    ascii_forms = {_loose(form).replace(" ", "") for form in forms}
    stripped = {form.encode("ascii", "ignore").decode() for form in forms}
    return forms | ascii_forms | stripped


def _canvas_student(match, roster):
    """The roster's student a Canvas file belongs to: by Canvas's user id, else by the name."""
    if roster is None:
        return match["name"]
    by_id = [s.name for s in roster.students if s.id("ID") == match["user"]]
    if len(by_id) == 1:
        return by_id[0]
    by_name = [s.name for s in roster.students if match["name"].casefold() in _canvas_names(s.name)]
    if len(by_name) == 1:
        return by_name[0]
    return None


def _lms_file(name, roster):
    """(student or None, label, file name) of an LMS bulk download's file name, or None."""
    moodle = MOODLE_NAME.match(name)
    if moodle and moodle["file"]:
        student = moodle["name"]
        if roster is not None:
            student = _roster_name(roster, student)
        return student, moodle["name"], moodle["file"]
    canvas = CANVAS_FILE.match(name)
    if canvas:
        return _canvas_student(canvas, roster), canvas["name"], canvas["file"]
    return None


def _roster_name(roster, name):
    """The roster's spelling of ``name``, or None."""
    found = roster.find(name)
    if found is None:
        return None
    return found.name


def _folder_student(folder, roster):
    """The roster's student a folder is named after (their name, or Moodle's folder), or None."""
    student = _roster_name(roster, folder)
    moodle = MOODLE_NAME.match(folder)
    if student is None and moodle and not moodle["file"]:
        student = _roster_name(roster, moodle["name"])
    return student


def _owner(relative, roster):
    """(student or None, label, file name) of a notebook at ``relative`` under SUBMISSIONS."""
    folders, name = relative.parts[:-1], relative.parts[-1]
    if roster is not None:
        for folder in folders:
            student = _folder_student(folder, roster)
            if student is not None:
                return student, folder, name
    lms = _lms_file(name, roster)
    if lms is not None:
        return lms
    label = next((folder for folder in folders if folder not in WRAPPERS), None)
    if label is None:
        return None, name, name
    if roster is None:
        return label, label, name
    return None, label, name


def _assignment_of(found, assignments, warnings):
    """The assignment a notebook is for, by its file name (NN-…), or None (and a warning why)."""
    stem = found.inner[:-len(".ipynb")]
    if stem in assignments:
        return stem
    number = stem[:2]
    if re.match(r"\d\d-", stem):
        for name in assignments:
            if name[:2] == number:
                return name
    course_numbers = {path.name[:2] for path in NOTEBOOKS.glob("*.ipynb") if NOTEBOOK_NAME.match(path.name)}
    if re.match(r"\d\d-", stem) and number in course_numbers:
        warnings.append(f"{found.relative}: notebook {number} is not graded in this run "
                        "(it has no graded exercises, or NOTEBOOKS= leaves it out)")
    else:
        warnings.append(f"{found.relative}: not graded: its name does not start with the number of a "
                        f"notebook with exercises (such as {next(iter(assignments))}.ipynb)")
    return None


def find_submissions(submissions, roster, assignments, warnings, *, skip_unknown=False):
    """student -> assignment -> [Found]: the notebooks under ``submissions``, whoever laid them out.

    A notebook belongs to the student a folder on its path is named after (at any depth, so
    ``<student>/NN-x.ipynb``, the release's ``<student>/notebooks/NN-x.ipynb`` and nbgrader's
    ``[submitted/]<student>/<assignment>/NN-x.ipynb`` all work; names compared as
    :func:`name_key` does), or to the student an LMS bulk download names in the file or folder
    name (Canvas: by its user id when the roster is a Canvas export, else by name; Moodle: by
    the full name). Its assignment is the notebook whose number starts its file name. Every
    notebook that is not graded is named in a warning, with the reason; notebooks that match
    no one on the roster stop the run before anything is written, unless ``skip_unknown``.
    """
    root = Path(submissions)
    found = {}
    unknown = collections.defaultdict(list)
    spellings = {}   # without a roster: one student per name, however its folders spell it
    for path in _notebooks_under(root, warnings):
        relative = path.relative_to(root)
        if ".ipynb_checkpoints" in relative.parts:
            warnings.append(f"{relative}: a copy Jupyter keeps by itself (a checkpoint), not graded")
            continue
        if "__MACOSX" in relative.parts or relative.name.startswith("._"):
            warnings.append(f"{relative}: a file macOS leaves when it unpacks a zip, not a notebook: not graded")
            continue
        student, label, inner = _owner(relative, roster)
        if student is None:
            unknown[label].append(str(relative))
            continue
        if roster is None:
            student = spellings.setdefault(name_key(student), student)
        if label != student:
            warnings.append(_taken_as(label, student))
        notebook = Found(path, str(relative), inner)
        assignment = _assignment_of(notebook, assignments, warnings)
        if assignment is not None:
            found.setdefault(student, {}).setdefault(assignment, []).append(notebook)
    _unknown_owners(unknown, roster, warnings, skip_unknown)
    return found


def _taken_as(label, student):
    text = f"'{label}' taken as the roster's '{student}'"
    if unicodedata.normalize("NFC", label) == unicodedata.normalize("NFC", student):
        text += " (the same name with its accents encoded another way, as macOS writes file names)"
    return text


def _unknown_owners(unknown, roster, warnings, skip_unknown):
    names = []
    if roster is not None:
        names = roster.names()
    lines = [f"'{label}' ({', '.join(paths)}){did_you_mean(label, names)}"
             for label, paths in sorted(unknown.items())]
    if not lines:
        return
    if skip_unknown:
        for line in lines:
            warnings.append(f"not graded: {line} matches no one on the roster")
        return
    raise ClassroomError(
        "these folders or files match no one on the roster, so nothing was graded: " + "; ".join(lines)
        + ". Rename them to the roster's names, or add the students to the roster and run `make "
        "assignments` again, or grade everyone else with SKIP_UNKNOWN=1 (--skip-unknown)")


def _pick(student, assignment, candidates, warnings):
    """The notebook graded among a student's notebooks for one assignment: the one under the
    assignment's own name, else the newest; the others are named."""
    exact = [c for c in candidates if c.inner == f"{assignment}.ipynb"]
    pool = exact or candidates
    chosen = max(pool, key=lambda c: (c.path.lstat().st_mtime, c.relative))
    others = [c.relative for c in candidates if c is not chosen]
    if others:
        warnings.append(f"{student}: several notebooks for {assignment}; graded {chosen.relative}, "
                        f"not {', '.join(others)}")
    elif chosen.inner != f"{assignment}.ipynb":
        warnings.append(f"{student}: graded {chosen.inner} as {assignment}.ipynb (renamed file)")
    return chosen.path


# -- grading ----------------------------------------------------------------------------


@dataclass
class Graded:
    """One student's grade for one notebook: a row per exercise, and how the run went."""

    student: str
    assignment: str
    rows: list = field(default_factory=list)   # dicts: exercise, score, points, max_points, feedback
    note: str = ""
    seconds: float = 0.0

    @property
    def points(self):
        return sum(r["points"] for r in self.rows)

    @property
    def max_points(self):
        return sum(r["max_points"] for r in self.rows)


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


def _prepare(python):
    """What every run would otherwise make again, made once before grading: matplotlib's font
    list for the student environment (the runner copies it into its private MPLCONFIGDIR;
    building it is a good part of importing pyplot). pip byte-compiled the environment."""
    fonts = _font_list(python)
    shutil.rmtree(fonts, ignore_errors=True)
    fonts.mkdir(parents=True)
    env = dict(_outside_env(), MPLCONFIGDIR=str(fonts), MPLBACKEND="Agg")
    subprocess.run([str(python), "-c", "import matplotlib.font_manager"], env=env, capture_output=True)


def _font_list(python):
    """Where _prepare keeps the font list: beside the student environment's venv."""
    return Path(python).parent.parent.parent / "matplotlib"


def _sandbox_env(python):
    java = ("-Xmx1g -XX:CompressedClassSpaceSize=256m -XX:ReservedCodeCacheSize=128m "
            "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.home=/tmp")
    return {"PATH": f"{Path(python).parent}:/usr/local/bin:/usr/bin:/bin", "MPLBACKEND": "Agg",
            "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": str(python),
            "PYSPARK_DRIVER_PYTHON": str(python),
            # Spark's JVM within RLIMIT_AS (a class space and a code cache smaller than Java's 1 GiB
            # and 240 MiB), quick to start (one JIT compiler, the serial collector: a short local
            # job), with a home it can write and Spark's user named (the sandbox uid has no passwd
            # entry: Java's user.home would be "?", and Hadoop's login of the uid fails)
            "JAVA_TOOL_OPTIONS": java, "SPARK_USER": "student",
            "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8",
            # IPython's and matplotlib's files go to the sandbox's private /tmp (its home is read-only)
            "IPYTHONDIR": "/tmp/ipython", "MPLCONFIGDIR": "/tmp/matplotlib", "TMPDIR": "/tmp"}


def run_submission(notebook, specs, student, secret, work, *, python, slot=0, unsafe=False,
                   timeout=NOTEBOOK_TIMEOUT_S, cell_timeout=CELL_TIMEOUT_S):
    """Run one submitted notebook away from everything else, with ``python``, the student
    environment's (:func:`student_python`; the sandbox holds its venv, read-only); returns
    (report, answers folder, note)."""
    runner = _load_tool("classroom_runner")
    shutil.rmtree(work, ignore_errors=True)
    (work / runner.ANSWERS).mkdir(parents=True)
    shutil.copyfile(notebook, work / notebook.name)
    fonts = _font_list(python)   # _prepare's, if it ran
    job = {"notebook": notebook.name, "cell_timeout": cell_timeout,
           "exercises": _job(specs, student, secret),
           "matplotlib": str(fonts) if unsafe else f"{INSIDE}/matplotlib"}
    (work / "job.json").write_text(json.dumps(job), encoding="utf-8")
    # the files the run writes back: in the sandbox the only host files it can write
    for name in runner.written(spec.id for spec in specs):
        (work / name).touch()
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
        # 16 MiB a file: the run's few host files (answers are read up to 1 MiB) and its space
        limits = sandbox.Limits(wall_s=timeout, file_bytes=16 << 20)
        binds = [(RUNNER, f"{INSIDE}/classroom_runner.py")]
        if fonts.is_dir():
            binds.append((fonts, f"{INSIDE}/matplotlib"))
        outcome = sandbox.run([str(python), f"{INSIDE}/classroom_runner.py", "job.json"], workdir=work,
                              binds=binds, env=_sandbox_env(python), limits=limits, slot=slot,
                              python=str(python))
        if outcome.timed_out:
            note = f"time limit: the notebook ran longer than {timeout:g} s"
    _keep_regular_files(work)
    report = {}
    path = work / runner.REPORT
    try:
        if path.is_file() and path.stat().st_size < (1 << 20):
            report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    return (report if isinstance(report, dict) else {}), work / runner.ANSWERS, note


def _keep_regular_files(work):
    """Remove what a run may leave to trick the grader: symlinks (to a classmate's answers, to
    /dev/zero), FIFOs, sockets and devices (an unsafe run can make them; a sandboxed run writes
    only into the files it was given), and the files it left empty: nothing was written there.
    Its processes have all ended, so nothing comes back."""
    for folder, dirs, files in os.walk(work, followlinks=False):
        for name in dirs + files:
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                os.unlink(path)
            elif stat.S_ISREG(mode) and os.lstat(path).st_size == 0:
                os.unlink(path)


def _exception_name(text):
    """The exception's type from the runner's "Type: message", or None for no error.

    The message is the student's own text (it could hold anything the notebook read, or escape
    sequences): only a name of the form of a Python identifier passes.
    """
    if not isinstance(text, str) or not text.strip():
        return None
    head = text.split(":", 1)[0].strip().rstrip(")")
    if EXCEPTION_NAME.fullmatch(head):
        return head
    return "an exception"


def _run_note(report, note):
    """Why a whole run went wrong, in words a student can read: the sandbox's own note, or one
    of the runner's fixed sentences with only the exception's type name kept."""
    if note:
        return note
    error = report.get("error")
    if not isinstance(error, str) or not error:
        return ""
    if error.startswith("the notebook's kernel died"):
        return "the notebook's kernel died (out of memory, or too many processes?)"
    for opening in ("unreadable notebook (", "the run stopped: "):
        if error.startswith(opening):
            return f"{opening.rstrip(' (:')} ({_exception_name(error[len(opening):])})"
    return "the run stopped (its report is not one the grader's runner writes)"


def _weight(points, exercise_id):
    """The points an exercise is worth: the teacher's weights file, else DEFAULT_POINTS."""
    if points and exercise_id in points:
        return float(points[exercise_id])
    return DEFAULT_POINTS


def _outputs_named(outputs):
    """A function's outputs with each raised exception reduced to its type's name."""
    if not isinstance(outputs, list):
        return outputs
    named = []
    for status, value in outputs:
        if status == "raised":
            named.append((status, _exception_name(value) or "an exception"))
        else:
            named.append((status, value))
    return named


def _score_one(key, exercise, status, path, why_run):
    """(share of the cases passed, feedback) of one exercise of one run."""
    from evalkit.course.answers import read_answer

    error = _exception_name(status.get("error"))
    check_error = _exception_name(status.get("check_error"))
    if error:
        return 0.0, f"the answer cell raised {error}"
    if check_error and not path.is_file():
        if check_error == "KeyboardInterrupt":
            return 0.0, "calling your answer on the exercise's cases failed (it ran longer than the time limit)"
        return 0.0, f"calling your answer on the exercise's cases failed ({check_error})"
    if not path.is_file() or path.is_symlink():
        opening = ""
        if why_run:
            opening = why_run + "; "
        return 0.0, (opening + "no answer recorded: the answer cell of this exercise did not run or was not "
                     f"found (its cell metadata marks it: evalkit.answer = {exercise.id})")
    try:
        given = read_answer(str(path))
        result = key.grade(exercise, given.get("answer"), outputs=_outputs_named(given.get("outputs")))
    except Exception as exc:  # a malformed answer file earns nothing, and says so
        return 0.0, f"the answer could not be read ({type(exc).__name__})"
    return float(result.score), repr(result)


def score(specs, student, secret, report, answers, note="", points=None):
    """Rows of one graded notebook: the key is applied here, in the grader's process.

    Only the runner's own fields reach the feedback (an exception's type name, never its
    message), and the feedback is capped and cleaned of control characters.
    """
    key = _key()
    ran = report.get("exercises") if isinstance(report.get("exercises"), dict) else {}
    why_run = _run_note(report, note)
    rows = []
    for spec in specs:
        exercise = key.variant(spec.id, seed_for(secret, student, spec.id))
        status = ran.get(spec.id)
        if not isinstance(status, dict):
            status = {}
        share, feedback = _score_one(key, exercise, status, answers / f"{spec.id}.json", why_run)
        weight = _weight(points, spec.id)
        rows.append({"exercise": spec.id, "score": share, "points": round(weight * share, 4),
                     "max_points": weight, "feedback": safe_text(feedback, lines=True, limit=MAX_FEEDBACK_CHARS)})
    return rows


def grade_one(student, assignment, notebook, specs, secret, course, *, python, slot=0, unsafe=False,
              timeout=NOTEBOOK_TIMEOUT_S, points=None):
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
        graded.rows = [{"exercise": s.id, "score": 0.0, "points": 0.0, "max_points": _weight(points, s.id),
                        "feedback": graded.note} for s in specs]
        return graded
    work = Path(course) / "work" / student / assignment
    try:
        report, answers, note = run_submission(notebook, specs, student, secret, work, python=python,
                                               slot=slot, unsafe=unsafe, timeout=timeout)
        graded.note = _run_note(report, note)
        graded.rows = score(specs, student, secret, report, answers, note, points)
    finally:   # its result is read: the work folder goes at once, not at the end of the term
        shutil.rmtree(work, ignore_errors=True)
    graded.seconds = time.monotonic() - start
    return graded


def _results_path(course, student, assignment):
    return Path(course) / "results" / student / f"{assignment}.json"


def _save_result(course, graded):
    path = _results_path(course, graded.student, graded.assignment)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"student": graded.student, "assignment": graded.assignment,
                                "note": graded.note, "rows": graded.rows}, indent=1), encoding="utf-8")


def _stored_results(course):
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((Path(course) / "results").glob("*/*.json"))]


def _earlier_grade(course, student, assignment):
    """'p of m' of a stored result that graded a notebook (not 'no submission'), or None."""
    path = _results_path(course, student, assignment)
    if not path.is_file():
        return None
    result = json.loads(path.read_text(encoding="utf-8"))
    if result.get("note") == "no submission":
        return None
    got = sum(row["points"] for row in result["rows"])
    possible = sum(row["max_points"] for row in result["rows"])
    return f"{got:g} of {possible:g}"


# -- a grading run: checked first, then run ---------------------------------------------------


@dataclass
class Plan:
    """What a grading run will do, every input checked: nothing is written before it exists."""

    term: dict
    secret: bytes
    points: dict
    specs: dict        # assignment -> [Spec]
    tasks: list        # (student, assignment, notebook or None)
    warnings: list
    rescale: bool      # the points per exercise changed: every stored grade is recorded again


def _grading_roster(roster, term, warnings):
    """The roster graded against: ROSTER= (only students the assignments were made for), else
    the one ``make assignments`` recorded, else None (every student folder is a student)."""
    recorded = _term_roster(term)
    if roster is None:
        if recorded is None:
            warnings.append("no roster: every student folder was graded as a student (`make assignments "
                            "ROSTER=...` records the roster; or pass ROSTER=)")
        return recorded
    given = read_roster(roster)
    if recorded is None:
        return given
    strangers = [f"{name!r}{did_you_mean(name, recorded.names())}" for name in given.names()
                 if recorded.find(name) is None]
    if strangers:
        raise ClassroomError(
            "ROSTER names students the assignments were not made for (they are not on the roster "
            f"`make assignments` recorded in {TERM_FILE}): {', '.join(strangers)}. Run `make assignments "
            "ROSTER=...` with them first; nothing was graded")
    students = []
    for entry in given.students:
        known = recorded.find(entry.name)
        students.append(Student(known.name, entry.ids or known.ids))
    kind, columns = recorded.kind, recorded.columns
    if given.kind != "plain":
        kind, columns = given.kind, given.columns
    return Roster(kind, tuple(students), columns)


def _merged_roster(recorded, graded):
    """The recorded roster, with the LMS ids of the roster graded against (when it has them)."""
    if recorded is None:
        return graded
    if graded is None or graded.kind == "plain":
        return recorded
    students = []
    for entry in recorded.students:
        newer = graded.find(entry.name)
        if newer is None:
            newer = entry
        students.append(Student(entry.name, newer.ids))
    return Roster(graded.kind, tuple(students), graded.columns)


def _assignments(numbers):
    """name -> path of the notebooks to grade; a NOTEBOOKS= number that names none is refused."""
    every = course_notebooks(())
    wanted = [number.strip().zfill(2) for number in numbers if number.strip()]
    have = sorted({name[:2] for name in every})
    unknown = [number for number in wanted if number not in have]
    if unknown:
        raise ClassroomError(f"NOTEBOOKS names no notebook with exercises: {', '.join(unknown)} (the "
                             f"notebooks with exercises are {', '.join(have)}); nothing was graded")
    if not wanted:
        return every
    return {name: path for name, path in every.items() if name[:2] in wanted}


def _chosen_students(students, roster, found):
    """The students to grade: STUDENTS= (each must be on the roster), else everyone."""
    if roster is not None:
        pool = roster.names()
    else:
        pool = sorted(found, key=name_key)
    if not students:
        return pool
    chosen, unknown = [], []
    for wanted in students:
        match = next((name for name in pool if name_key(name) == name_key(wanted)), None)
        if match is None:
            unknown.append(f"{wanted!r}{did_you_mean(wanted, pool)}")
        elif match not in chosen:
            chosen.append(match)
    if unknown:
        raise ClassroomError(f"STUDENTS names no one on the roster: {', '.join(unknown)}; nothing was graded")
    return chosen


def _tasks(course, chosen, specs, found, warnings, replace_missing):
    """(student, assignment, notebook or None) to grade; an earlier grade is never silently
    replaced by "no submission"."""
    tasks = []
    for assignment in specs:
        for student in chosen:
            candidates = found.get(student, {}).get(assignment)
            if candidates:
                tasks.append((student, assignment, _pick(student, assignment, candidates, warnings)))
                continue
            earlier = _earlier_grade(course, student, assignment)
            if earlier is not None and not replace_missing:
                warnings.append(f"{student}: no notebook for {assignment} this time; kept the earlier grade "
                                f"({earlier}). To record 'no submission' instead, grade with REPLACE_MISSING=1")
                continue
            if earlier is not None:
                warnings.append(f"{student}: no notebook for {assignment}: the earlier grade ({earlier}) was "
                                "replaced by 'no submission' (REPLACE_MISSING=1)")
            tasks.append((student, assignment, None))
    return tasks


def _notebook_fingerprint(path):
    """The secret's fingerprint a submitted notebook's metadata carries, or None."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_NOTEBOOK_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    value = data
    for key in ("metadata", "evalkit", "secret_fingerprint"):
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    if isinstance(value, str):
        return value
    return None


def _check_fingerprints(tasks, fingerprint, source, warnings):
    """Refuse when most notebooks were handed out with another secret; name each odd one."""
    marks = {(student, assignment): _notebook_fingerprint(path)
             for student, assignment, path in tasks if path is not None}
    others = collections.Counter(mark for mark in marks.values() if mark is not None and mark != fingerprint)
    ours = sum(1 for mark in marks.values() if mark == fingerprint)
    if others and others.most_common(1)[0][1] > ours:
        raise ClassroomError(
            f"the submitted notebooks were handed out with another course secret: {sum(others.values())} "
            f"carry another secret's fingerprint, {ours} the fingerprint of this one ({source}). Grading "
            "now would grade every student against other data. Set COURSE_SECRET to the term's secret, "
            "or restore its file from your backup; nothing was written")
    if not ours and not others:
        if marks:
            warnings.append("no submitted notebook carries a fingerprint of the course secret (handed out "
                            "before the kit wrote one?): the secret could not be checked against them")
        return
    for (student, assignment), mark in sorted(marks.items()):
        if mark is None:
            warnings.append(f"{student}: {assignment} carries no fingerprint of the course secret (its "
                            "metadata was edited, or make assignments did not hand it out); graded against "
                            f"{student}'s own variant all the same")
        elif mark != fingerprint:
            warnings.append(f"{student}: {assignment} carries another course secret's fingerprint (a "
                            f"notebook of another course or term?); graded against {student}'s own variant")


def _graded_exercise_ids():
    nbf = _nbformat()
    return [spec.id for path in course_notebooks(()).values()
            for spec in graded_specs(nbf.read(path, as_version=4))]


def read_weights(path):
    """Points per exercise from a CSV the teacher writes: the header ``exercise,points``, then
    one row per exercise that is not worth DEFAULT_POINTS (such as ``01.3,2``)."""
    path = Path(path)
    rows = [row for row in csv.reader(_text_lines(path, "WEIGHTS"))
            if any(cell.strip() for cell in row) and not row[0].strip().startswith("#")]
    if not rows or [cell.strip().casefold() for cell in rows[0]] != ["exercise", "points"]:
        raise ClassroomError(f"WEIGHTS: {path} must start with the header 'exercise,points', then one "
                             "row per exercise, such as '01.3,2'")
    known = _graded_exercise_ids()
    points, problems = {}, []
    for row in rows[1:]:
        exercise = row[0].strip()
        value = ""
        if len(row) > 1:
            value = row[1].strip()
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if exercise not in known:
            problems.append(f"{exercise!r} is no graded exercise{did_you_mean(exercise, known)}")
        elif not (math.isfinite(number) and 0 < number <= 1000):
            problems.append(f"{exercise}: {value!r} is not a number of points above 0 (up to 1000)")
        elif exercise in points:
            problems.append(f"{exercise} is given twice")
        else:
            points[exercise] = number
    if problems:
        raise ClassroomError(f"WEIGHTS: {path}: " + "; ".join(problems))
    return points


def _points_per_exercise(weights, term, course, warnings):
    """The points of each exercise: the WEIGHTS file, else the term's (a regrade keeps them)."""
    recorded = {exercise: float(value) for exercise, value in term.get("points", {}).items()}
    if weights is None:
        return recorded
    given = read_weights(weights)
    changed = [f"{exercise}: {_weight(recorded, exercise):g} -> {_weight(given, exercise):g}"
               for exercise in sorted(set(recorded) | set(given))
               if _weight(recorded, exercise) != _weight(given, exercise)]
    if changed and _stored_results(course):
        warnings.append("points per exercise changed (" + ", ".join(changed) + "): every stored grade of "
                        "these exercises is rescaled; grades set by hand stay as they were")
    return given


def _plan(submissions, roster, course, *, students, notebooks, weights, skip_unknown, replace_missing):
    """Check everything a grading run needs; raises ClassroomError before anything is written."""
    term = read_term(course)
    secret = course_secret(course)
    fingerprint = secret_fingerprint(secret)
    _check_secret(course, fingerprint, term)
    warnings = []
    class_roster = _grading_roster(roster, term, warnings)
    assignments = _assignments(notebooks)
    nbf = _nbformat()
    specs = {name: graded_specs(nbf.read(path, as_version=4)) for name, path in assignments.items()}
    points = _points_per_exercise(weights, term, course, warnings)
    rescale = points != {exercise: float(value) for exercise, value in term.get("points", {}).items()}
    found = find_submissions(submissions, class_roster, assignments, warnings, skip_unknown=skip_unknown)
    chosen = _chosen_students(students, class_roster, found)
    if not notebooks:   # a term in progress: only the notebooks someone has handed in
        handed_in = {assignment for student in chosen for assignment in found.get(student, {})}
        specs = {name: s for name, s in specs.items() if name in handed_in} or specs
    tasks = _tasks(course, chosen, specs, found, warnings, replace_missing)
    _check_fingerprints(tasks, fingerprint, _secret_source(course), warnings)
    term.setdefault("fingerprint", fingerprint)
    term["points"] = points
    merged = _merged_roster(_term_roster(term), class_roster)
    if merged is not None:
        term["roster"] = merged.to_json()
    return Plan(term, secret, points, specs, tasks, warnings, rescale)


def _run_all(plan, course, *, python, jobs, unsafe, timeout, progress):
    _prepare(python)
    jobs = max(1, jobs or os.cpu_count() or 1)
    slots = queue.Queue()
    for slot in range(jobs):
        slots.put(slot)

    def one(task):
        slot = slots.get()
        try:
            return grade_one(*task, plan.specs[task[1]], plan.secret, course, python=python, slot=slot,
                             unsafe=unsafe, timeout=timeout, points=plan.points)
        finally:
            slots.put(slot)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for done, graded in enumerate(pool.map(one, plan.tasks), 1):
            results.append(graded)
            _save_result(course, graded)
            if progress:
                note = ""
                if graded.note:
                    note = f" ({graded.note})"
                _say(f"[{done}/{len(plan.tasks)}] {graded.student} {graded.assignment}: "
                     f"{graded.points:g}/{graded.max_points:g}{note} {graded.seconds:.1f} s")
    return results


def _write_warnings(course, warnings):
    unique = [safe_text(w) for w in dict.fromkeys(warnings)]
    (Path(course) / "warnings.txt").write_text("".join(w + "\n" for w in unique), encoding="utf-8")
    for warning in unique:
        _say(f"warning: {warning}")


def grade(submissions, roster=None, course=COURSE, *, students=None, notebooks=(), jobs=None, unsafe=False,
          timeout=NOTEBOOK_TIMEOUT_S, progress=True, weights=None, skip_unknown=False, replace_missing=False,
          student_env=None):
    """Grade a folder of submissions into the gradebook; returns the list of Graded.

    Every submission runs in the student environment (``student_env``, by default the one
    ``make student-env`` made in ``course/student/venv``), the one a class installs. Every
    mistake this can see (no student environment, a wrong secret, a roster or
    STUDENTS=/NOTEBOOKS= naming no one, folders that match no one, a bad weights file) stops it
    before anything is written.
    """
    course = Path(course)
    submissions = Path(submissions)
    if not submissions.is_dir():
        raise ClassroomError(f"SUBMISSIONS must be the folder of the collected notebooks; got {submissions}")
    if not unsafe and _load_tool("sandbox").kind() is None:
        raise ClassroomError(
            "no sandbox: bubblewrap (Debian's bubblewrap package) is missing or cannot run here. "
            "Install it, or pass --unsafe-no-sandbox to run every submission with your own rights "
            "(a submission could then read the answer key and change any grade).")
    python = student_python(student_env or Path(course) / STUDENT / "venv")
    plan = _plan(submissions, roster, course, students=students, notebooks=notebooks, weights=weights,
                 skip_unknown=skip_unknown, replace_missing=replace_missing)
    _write_term(course, plan.term)
    results = _run_all(plan, course, python=python, jobs=jobs, unsafe=unsafe, timeout=timeout,
                       progress=progress)
    shutil.rmtree(course / "work", ignore_errors=True)   # the students' empty folders
    graded = results
    if plan.rescale:
        graded = None   # every stored grade, at the new points
    record(course, plan.points, plan.warnings, graded)
    export(course, plan.warnings)
    _write_warnings(course, plan.warnings)
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


def _share(row):
    """The share of an exercise's cases passed (results written before it was stored: from the points)."""
    if "score" in row:
        return float(row["score"])
    if row["max_points"]:
        return float(row["points"]) / float(row["max_points"])
    return 0.0


def _grade_cells(gb, results, points):
    """Each graded exercise as nbgrader's grade cell (its points) and solution cell (its comments)."""
    exercises = {}
    for result in results:
        ids = exercises.setdefault(result["assignment"], [])
        for row in result["rows"]:
            if row["exercise"] not in ids:
                ids.append(row["exercise"])
    for name, ids in exercises.items():
        gb.update_or_create_assignment(name)
        gb.update_or_create_notebook(name, name)
        for exercise in ids:
            gb.update_or_create_grade_cell(_cell(exercise), name, name, max_score=_weight(points, exercise),
                                           cell_type="code")
            gb.update_or_create_solution_cell(_cell(exercise), name, name)


def _record_row(gb, result, row, weight, notes):
    grade = gb.find_grade(_cell(row["exercise"]), result["assignment"], result["assignment"], result["student"])
    new = round(weight * _share(row), 4)
    old = grade.auto_score
    if grade.manual_score is not None and old is not None and abs(float(old) - new) > 1e-9:
        notes.append(f"{result['student']} {row['exercise']}: kept the grade set by hand "
                     f"({float(grade.manual_score):g} of {weight:g}); the automatic score under it changed "
                     f"from {float(old):g} to {new:g}")
    grade.auto_score = new


def record(course, points=None, notes=None, graded=None):
    """Write the stored results into nbgrader's gradebook (after every sandbox has ended): those
    of ``graded`` (Graded of this run), or all of them (when the points per exercise changed).

    An exercise's automatic score is its share of cases passed times its points; a score set by
    hand (nbgrader's ``manual_score``) is kept, and named in ``notes`` when the automatic score
    under it changed.
    """
    import warnings

    from nbgrader.api import MissingEntry
    from sqlalchemy.exc import SAWarning

    course = Path(course)
    if notes is None:
        notes = []
    results = _stored_results(course)
    if graded is not None:
        done = {(g.student, g.assignment) for g in graded}
        results = [r for r in results if (r["student"], r["assignment"]) in done]
    _write_nbgrader_config(course)
    with _gradebook(course) as gb, warnings.catch_warnings():
        # nbgrader's add_submission trips SQLAlchemy's autoflush warning; the rows are written all the same
        warnings.simplefilter("ignore", SAWarning)
        _grade_cells(gb, results, points)
        for result in results:
            gb.update_or_create_student(result["student"])
            try:
                gb.find_submission(result["assignment"], result["student"])
            except MissingEntry:
                gb.add_submission(result["assignment"], result["student"])
            for row in result["rows"]:
                _record_row(gb, result, row, _weight(points, row["exercise"]), notes)
        gb.db.commit()


@dataclass(frozen=True)
class Mark:
    """One exercise's grade as the gradebook holds it."""

    points: float
    max_points: float
    by_hand: float | None = None   # nbgrader's manual_score
    why: str = ""                  # the grader's comment on it


def _from_gradebook(course):
    """(student, assignment, exercise) -> Mark, read back from gradebook.db."""
    marks = {}
    with _gradebook(course) as gb:
        for assignment in gb.assignments:
            for submission in assignment.submissions:
                for notebook in submission.notebooks:
                    comments = {c.name: c.manual_comment or "" for c in notebook.comments}
                    for g in notebook.grades:
                        exercise = g.name.removeprefix("exercise-").replace("-", ".")
                        marks[(submission.student.id, assignment.name, exercise)] = Mark(
                            float(g.score), float(g.max_score), g.manual_score, comments.get(g.name, ""))
    return marks


def _mark(marks, result, row):
    found = marks.get((result["student"], result["assignment"], row["exercise"]))
    if found is None:
        return Mark(float(row["points"]), float(row["max_points"]))
    return found


def _feedback_file(course, result, marks):
    pairs = [(row, _mark(marks, result, row)) for row in result["rows"]]
    total = sum(mark.points for _, mark in pairs)
    possible = sum(mark.max_points for _, mark in pairs)
    lines = [f"# {result['assignment']}: feedback for {result['student']}", "",
             f"Points: {total:g} of {possible:g}", ""]
    if result.get("note"):
        lines += [f"About the whole notebook: {safe_text(result['note'])}", ""]
    for row, mark in pairs:
        lines += [f"## Exercise {row['exercise']}: {mark.points:g} of {mark.max_points:g}", ""]
        if mark.by_hand is not None:
            lines += [f"Set by hand by your teacher: {safe_text(mark.why or 'no reason given')}", ""]
        text = safe_text(row["feedback"] or "(no feedback)", lines=True, limit=MAX_FEEDBACK_CHARS)
        lines += ["```", text.replace("```", "'''"), "```", ""]
    path = Path(course) / "feedback" / result["student"] / f"{result['assignment']}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def _totals(results, marks):
    """(student, assignment) -> (points, points possible)."""
    totals = {}
    for result in results:
        pairs = [_mark(marks, result, row) for row in result["rows"]]
        totals[(result["student"], result["assignment"])] = (sum(m.points for m in pairs),
                                                            sum(m.max_points for m in pairs))
    return totals


def _possible(totals, assignment):
    return next((possible for (_, name), (_, possible) in totals.items() if name == assignment), 0.0)


def _canvas_column(assignment, roster):
    """The Canvas export's own column for a notebook ("01-x (4711)": Canvas then updates that
    assignment), else the notebook's name (Canvas makes a new assignment of it)."""
    if roster is not None and roster.kind == "canvas":
        for column in roster.columns:
            if column == assignment or column.startswith(assignment + " ("):
                return column
    return assignment


def _ids(roster, student, columns):
    """The roster's LMS ids of a student, in the order of ``columns`` ("" where it has none)."""
    entry = None
    if roster is not None:
        entry = roster.find(student)
    if entry is None:
        return [""] * len(columns)
    return [entry.id(column) for column in columns]


def _lms_cells(student, assignments, totals):
    """A student's points per assignment; "" where there is no grade (the LMS keeps what it has)."""
    cells = []
    for name in assignments:
        if (student, name) in totals:
            cells.append(f"{totals[(student, name)][0]:g}")
        else:
            cells.append("")
    return cells


def canvas_rows(roster, students, assignments, totals):
    """Canvas's gradebook import CSV: Student, ID, SIS User ID, SIS Login ID, Section, a column per
    assignment, then a "Points Possible" row; no total, which Canvas would take for one more
    assignment. A student without a grade for an assignment has an empty cell (Canvas keeps
    what it has)."""
    columns = [_canvas_column(name, roster) for name in assignments]
    rows = [["Student", *CANVAS_IDS, *columns],
            ["    Points Possible", *([""] * len(CANVAS_IDS)),
             *(f"{_possible(totals, name):g}" for name in assignments)]]
    for student in students:
        rows.append([student, *_ids(roster, student, CANVAS_IDS), *_lms_cells(student, assignments, totals)])
    return rows


def moodle_rows(roster, students, assignments, totals):
    """Moodle's grade import CSV: a header, then a row per student with the columns Moodle can
    match a user on (username, ID number or e-mail address, chosen as "Map from" when importing)
    beside the name, and a column per assignment (mapped to a grade item when importing)."""
    id_columns = [column for column in MOODLE_NAMES + MOODLE_IDS
                  if any(_ids(roster, student, [column])[0] for student in students)]
    # without Moodle's own name columns, one column names the student for the teacher's eye
    named = not any(column in MOODLE_NAMES for column in id_columns)
    header = [*id_columns, *assignments]
    if named:
        header = ["Full name", *header]
    rows = [header]
    for student in students:
        row = [*_ids(roster, student, id_columns), *_lms_cells(student, assignments, totals)]
        if named:
            row = [student, *row]
        rows.append(row)
    return rows


def _lms_notes(roster, notes):
    if roster is None or roster.kind == "plain":
        notes.append("the roster has no LMS ids: canvas.csv names students only (Canvas must match them "
                     "by name) and Moodle cannot match moodle.csv (it needs a username, ID number or "
                     "e-mail address); give the LMS's own export as ROSTER to keep its ids")
    elif roster.kind == "moodle" and not any(s.id(c) for s in roster.students for c in MOODLE_IDS):
        notes.append("the Moodle roster has no username, ID number or e-mail address column: Moodle "
                     "cannot match moodle.csv; export it with one of them")


def export(course=COURSE, notes=None):
    """grades.csv, canvas.csv, moodle.csv and the feedback files, from the gradebook and the results.

    The LMS files list the recorded roster's students only (a student no longer on it drops out).
    """
    course = Path(course)
    if notes is None:
        notes = []
    marks = _from_gradebook(course)
    roster = _term_roster(read_term(course))
    results = _stored_results(course)
    if roster is not None:
        on_roster = set(roster.names())
        results = [r for r in results if r["student"] in on_roster]
        students = roster.names()
    else:
        students = sorted({r["student"] for r in results}, key=name_key)
    assignments = sorted({r["assignment"] for r in results})
    rows = [["student", "assignment", "exercise", "points", "max_points", "set_by_hand", "feedback"]]
    for result in results:
        for row in result["rows"]:
            mark = _mark(marks, result, row)
            by_hand = ""
            if mark.by_hand is not None:
                by_hand = mark.why or "yes"
            rows.append([result["student"], result["assignment"], row["exercise"], f"{mark.points:g}",
                         f"{mark.max_points:g}", by_hand, " | ".join(row["feedback"].splitlines())])
    _write_csv(course / "grades.csv", rows)
    totals = _totals(results, marks)
    _write_csv(course / "canvas.csv", canvas_rows(roster, students, assignments, totals))
    _write_csv(course / "moodle.csv", moodle_rows(roster, students, assignments, totals))
    _lms_notes(roster, notes)
    shutil.rmtree(course / "feedback", ignore_errors=True)
    for result in results:
        _feedback_file(course, result, marks)


# -- a grade set by hand ------------------------------------------------------------------------


def _comment(gb, exercise, assignment, student):
    """nbgrader's comment on one exercise of one submission (made when the gradebook has none)."""
    from nbgrader.api import Comment, MissingEntry

    try:
        return gb.find_comment(_cell(exercise), assignment, assignment, student)
    except MissingEntry:
        notebook = gb.find_submission_notebook(assignment, assignment, student)
        cell = gb.find_solution_cell(_cell(exercise), assignment, assignment)
        comment = Comment(cell_id=cell.id, notebook=notebook)
        gb.db.add(comment)
        return comment


def _exercise_grade(gb, student, exercise):
    """(nbgrader's grade, assignment) of one exercise of one student; refuses an unknown exercise."""
    from nbgrader.api import MissingEntry

    names = []
    for assignment in gb.assignments:
        for notebook in assignment.notebooks:
            names += [cell.name.removeprefix("exercise-").replace("-", ".") for cell in notebook.grade_cells]
            try:
                return gb.find_grade(_cell(exercise), notebook.name, assignment.name, student), assignment.name
            except MissingEntry:
                continue
    raise ClassroomError(f"EXERCISE: {exercise!r} is not a graded exercise of {student}'s "
                         f"{did_you_mean(exercise, names)} (graded exercises: {', '.join(sorted(set(names)))})")


def grade_by_hand(student, exercise, points, why, course=COURSE):
    """Set one exercise's points by hand, with the reason the student reads; a regrade keeps them.

    The points go to nbgrader's ``manual_score`` and the reason to its comment on that exercise;
    ``points="auto"`` gives the exercise back to the automatic score. Refuses a student or an
    exercise the gradebook does not have, and points outside 0 to the exercise's points.
    """
    course = Path(course)
    if not (course / "gradebook.db").is_file():
        raise ClassroomError(f"no gradebook at {course / 'gradebook.db'}: grade the notebook first")
    clear = str(points).strip().casefold() == "auto"
    value = math.nan
    if not clear:
        try:
            value = float(points)
        except ValueError:
            raise ClassroomError(f"POINTS: {points!r} is not a number (or 'auto')") from None
        if not why or not why.strip():
            raise ClassroomError("WHY: say why the grade is set by hand (the student reads it in their feedback)")
    with _gradebook(course) as gb:
        ids = [s.id for s in gb.students]
        match = [i for i in ids if name_key(i) == name_key(student)]
        if not match:
            raise ClassroomError(f"STUDENT: {student!r} is not in the gradebook{did_you_mean(student, ids)}")
        grade, assignment = _exercise_grade(gb, match[0], exercise)
        comment = _comment(gb, exercise, assignment, match[0])
        if clear:
            grade.manual_score = None
            comment.manual_comment = None
        elif not (math.isfinite(value) and 0 <= value <= float(grade.max_score)):
            raise ClassroomError(f"POINTS: {points} is outside 0 to {float(grade.max_score):g}, "
                                 f"the points of exercise {exercise}")
        else:
            grade.manual_score = value
            comment.manual_comment = why.strip()
        gb.db.commit()
    export(course)
    return match[0]


# -- command line ---------------------------------------------------------------------------


def _parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("student-env", help="the student environment: the wheels without the answer key, and a venv of them")
    a = sub.add_parser("assignments", help="every student's own variant of the notebooks with exercises")
    a.add_argument("numbers", nargs="*", help="only these notebooks (NN)")
    a.add_argument("--roster", required=True,
                   help="one student name a line, or a Canvas or Moodle CSV export")
    g = sub.add_parser("grade", help="grade the collected notebooks in sandboxes")
    g.add_argument("submissions")
    g.add_argument("--roster", help="who should have handed in (default: the roster of `assignments`)")
    g.add_argument("--students", default="", help="regrade only these students (comma-separated)")
    g.add_argument("--notebooks", default="", help="regrade only these notebooks (NN, comma-separated)")
    g.add_argument("--weights", help="a CSV 'exercise,points' (default: the term's, else 1 each)")
    g.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: all cores)")
    g.add_argument("--timeout", type=float, default=NOTEBOOK_TIMEOUT_S, help="seconds per notebook")
    g.add_argument("--skip-unknown", action="store_true",
                   help="grade the others when folders or files match no one on the roster")
    g.add_argument("--replace-missing", action="store_true",
                   help="record 'no submission' over an earlier grade when a notebook is gone")
    g.add_argument("--unsafe-no-sandbox", action="store_true",
                   help="grade without a sandbox: every submission runs with YOUR rights, so a student's "
                        "code can read the answer key, the secret and other submissions, and change any "
                        "grade. Only for trusted code.")
    h = sub.add_parser("grade-by-hand", help="set one exercise's points by hand; regrades keep them")
    h.add_argument("--student", required=True)
    h.add_argument("--exercise", required=True, help="NN.k")
    h.add_argument("--points", required=True, help="the points, or 'auto' to go back to the automatic score")
    h.add_argument("--why", default="", help="the reason, which the student reads in their feedback")
    sub.add_parser("export", help="write grades.csv, canvas.csv, moodle.csv and feedback again from the gradebook")
    return parser


def _split(text):
    return [part.strip() for part in text.split(",") if part.strip()]


def _command(args):
    if args.command == "student-env":
        print(f"student environment: {student_env()} (the wheels a class installs beside it)")
    elif args.command == "assignments":
        built = build_assignments(args.roster, tuple(args.numbers))
        print(f"each student's version of {len(built)} notebooks in {COURSE / 'release'}")
    elif args.command == "grade":
        results = grade(args.submissions, roster=args.roster, students=_split(args.students),
                        notebooks=tuple(_split(args.notebooks)), jobs=args.jobs, unsafe=args.unsafe_no_sandbox,
                        timeout=args.timeout, weights=args.weights, skip_unknown=args.skip_unknown,
                        replace_missing=args.replace_missing)
        print(f"graded {len(results)} notebooks of {len({r.student for r in results})} students; "
              f"gradebook {COURSE / 'gradebook.db'}, {COURSE / 'canvas.csv'}, {COURSE / 'moodle.csv'}, "
              f"{COURSE / 'feedback'}")
    elif args.command == "grade-by-hand":
        student = grade_by_hand(args.student, args.exercise, args.points, args.why)
        print(safe_text(f"{student} {args.exercise}: set by hand to {args.points}; the CSVs and feedback "
                        "are written again"))
    else:
        notes = []
        export(notes=notes)
        for note in dict.fromkeys(notes):
            _say(f"warning: {note}")
        print(f"wrote {COURSE / 'grades.csv'}, {COURSE / 'canvas.csv'}, {COURSE / 'moodle.csv'} and "
              f"{COURSE / 'feedback'}")


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        _command(args)
    except ClassroomError as exc:
        sys.exit(f"classroom: {safe_text(exc)}")


if __name__ == "__main__":
    main()
