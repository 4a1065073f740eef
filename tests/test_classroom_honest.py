"""The classroom against an honest teacher: every ordinary mistake is named or refused, no mark is lost.

tests/test_classroom.py plays the cheating student. This file plays the teacher of an honest
class who does what teachers do: types a name another way (composed or decomposed accents,
another case), collects notebooks in whatever layout the tools of the term give (the release's
own folders, nbgrader's, a flat folder per student, Canvas's and Moodle's bulk downloads),
saves the roster with Excel or exports it from the LMS, sets the wrong secret, runs
``make clean``, sets a grade by hand and regrades, mistypes ``STUDENTS=``. Each honest student
must score what they would have scored had nothing gone wrong, or the run must stop before it
writes a grade. One small term (notebook 01, six students) is graded once and reused: a
sandboxed run costs seconds, so the refusals are checked on the plan a run makes before it
writes anything.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parent.parent
if "classroom" not in sys.modules:
    _spec = importlib.util.spec_from_file_location("classroom", ROOT / "tools" / "classroom.py")
    sys.modules["classroom"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["classroom"])
classroom = sys.modules["classroom"]
sandbox = classroom._load_tool("sandbox")

from evalkit.course.answers import encode  # noqa: E402
from evalkit.course.exercises import variant  # noqa: E402

ASSIGNMENT = "01-accuracy-paradox"
TIMEOUT_S = 120
SECRET = "a teacher's passphrase"
ZOE = "Zoë Müller"                                   # typed composed (NFC) in the roster
ZOE_NFD = unicodedata.normalize("NFD", ZOE)           # as a Mac names her folder
STUDENTS = [ZOE, "Ada Lovelace", "Ben Okafor", "Cleo Park", "Dan Wu", "Eve Stone"]
STRATIFIED = "def stratified_accuracy(class_sizes):\n    return sum((n / sum(class_sizes)) ** 2 for n in class_sizes)\n"
EXERCISES = ["01.1", "01.2", "01.3"]


def _specs():
    return classroom.graded_specs(nbformat.read(ROOT / "notebooks" / f"{ASSIGNMENT}.ipynb", as_version=4))


def _answer(secret, student, spec):
    """The source of a right answer cell, written with the student environment's own decoder."""
    mine = variant(spec.id, classroom.seed_for(secret, student, spec.id))
    if callable(mine.solution):
        return STRATIFIED
    data = json.dumps(json.dumps(encode(mine.solution)))
    return f"import json\nfrom evalkit.course.answers import decode\n{spec.name} = decode(json.loads({data}))\n"


def _filled(course, student, secret, wrong=()):
    """The student's own handed-out notebook with right answers (``wrong``: left as handed out)."""
    nb = nbformat.read(course / "release" / student / "notebooks" / f"{ASSIGNMENT}.ipynb", as_version=4)
    answers = {spec.id: _answer(secret, student, spec) for spec in _specs() if spec.id not in wrong}
    for cell in nb.cells:
        meta = cell.metadata.get("evalkit")
        if isinstance(meta, dict) and meta.get("answer") in answers:
            cell.source = answers[meta["answer"]]
    return nb


def _hand_in(nb, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _excel(path, lines):
    """A file as Excel saves "CSV UTF-8": a byte-order mark and Windows line ends."""
    path.write_bytes(("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


def _tree_digest(*folders):
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                digest.update(str(path).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def term(tmp_path_factory, student_env):
    """Notebook 01 handed out from an Excel-saved roster, collected in six layouts, graded once."""
    if sandbox.kind() is None:
        if os.environ.get("CI") == "true":
            raise RuntimeError("CI=true but no sandbox (bubblewrap) runs here: .ci/run installs it")
        pytest.skip("no sandbox (bubblewrap) here")
    base = tmp_path_factory.mktemp("honest")
    course, subs = base / "course", base / "collected"
    course.mkdir()
    (course / "secret").write_text(SECRET + "\n", encoding="utf-8")
    roster = _excel(base / "roster.csv", ["# section A", *STUDENTS])
    classroom.build_assignments(str(roster), ("01",), course=course)
    secret = SECRET.encode()
    own = f"{ASSIGNMENT}.ipynb"
    # the release's own layout, the folder named by macOS (decomposed accents)
    _hand_in(_filled(course, ZOE, secret), subs / ZOE_NFD / "notebooks" / own)
    # nbgrader's layout, and a checkpoint Jupyter left beside it
    _hand_in(_filled(course, "Ada Lovelace", secret), subs / "submitted" / "Ada Lovelace" / ASSIGNMENT / own)
    _hand_in(_filled(course, "Ada Lovelace", secret), subs / "submitted" / "Ada Lovelace" / ASSIGNMENT
             / ".ipynb_checkpoints" / f"{ASSIGNMENT}-checkpoint.ipynb")
    # nbgrader's layout without submitted/, the name in capitals; 01.1 left unanswered
    _hand_in(_filled(course, "Ben Okafor", secret, wrong=("01.1",)), subs / "BEN OKAFOR" / ASSIGNMENT / own)
    # Canvas's bulk download (a resubmission), the notebook's secret fingerprint removed by an editor
    cleo = _filled(course, "Cleo Park", secret)
    del cleo.metadata["evalkit"]
    _hand_in(cleo, subs / f"parkcleo_4711_98213_{ASSIGNMENT}-1.ipynb")
    leftover = subs / "__MACOSX" / f"._parkcleo_4711_98213_{ASSIGNMENT}-1.ipynb"   # unzipped on a Mac
    leftover.parent.mkdir()
    leftover.write_bytes(b"\x00\x05\x16\x07 resource fork")
    # Moodle's download "in folders", with a scratch notebook beside the real one
    moodle = subs / "Dan Wu_1234_assignsubmission_file_"
    _hand_in(_filled(course, "Dan Wu", secret), moodle / own)
    _hand_in(nbformat.v4.new_notebook(), moodle / "scratch.ipynb")
    # a flat folder per student; the notebook's fingerprint altered (a file from another course)
    eve = _filled(course, "Eve Stone", secret)
    eve.metadata["evalkit"]["secret_fingerprint"] = "0" * 32
    _hand_in(eve, subs / "Eve Stone" / own)
    results = classroom.grade(subs, course=course, timeout=TIMEOUT_S, progress=False, student_env=student_env)
    return dict(base=base, course=course, subs=subs, roster=roster, secret=secret, results=results,
                env=student_env)


def _points(results):
    return {(g.student, row["exercise"]): row["points"] for g in results for row in g.rows}


def _csv(path):
    with Path(path).open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def _warnings(course):
    return (Path(course) / "warnings.txt").read_text(encoding="utf-8")


def _copy(term, tmp_path):
    """A copy of the graded term (course and submissions) to change without touching the others'."""
    course, subs = tmp_path / "course", tmp_path / "collected"
    shutil.copytree(term["course"], course)
    shutil.copytree(term["subs"], subs)
    return course, subs


# -- names, layouts, the Excel roster: the same points as if nothing went wrong ------------------


def test_every_honest_student_scores_as_if_nothing_went_wrong(term):
    points = _points(term["results"])
    for student in STUDENTS:
        expected = {"01.1": 1.0, "01.2": 1.0, "01.3": 1.0}
        if student == "Ben Okafor":
            expected["01.1"] = 0.0     # left unanswered: his own answer, and nothing else, costs it
        assert {e: points[(student, e)] for e in EXERCISES} == expected, student
    assert sorted(g.student for g in term["results"]) == sorted(STUDENTS), "one grade per student, no twin"


def test_each_layout_and_spelling_is_named(term):
    warnings = _warnings(term["course"])
    assert f"'{ZOE_NFD}' taken as the roster's '{ZOE}' (the same name with its accents encoded" in warnings
    assert "'BEN OKAFOR' taken as the roster's 'Ben Okafor'" in warnings
    assert "'parkcleo' taken as the roster's 'Cleo Park'" in warnings
    assert f"Cleo Park: graded {ASSIGNMENT}-1.ipynb as {ASSIGNMENT}.ipynb (renamed file)" in warnings
    assert "'Dan Wu_1234_assignsubmission_file_' taken as the roster's 'Dan Wu'" in warnings


def test_every_notebook_not_graded_is_named_with_why(term):
    warnings = _warnings(term["course"])
    assert "-checkpoint.ipynb: a copy Jupyter keeps by itself (a checkpoint), not graded" in warnings
    assert "Dan Wu_1234_assignsubmission_file_/scratch.ipynb: not graded: its name does not start" in warnings
    assert "__MACOSX/._parkcleo_4711_98213_01-accuracy-paradox-1.ipynb: a file macOS leaves" in warnings


def test_a_notebook_with_a_missing_or_altered_fingerprint_is_graded_and_named(term):
    warnings = _warnings(term["course"])
    assert "Cleo Park: 01-accuracy-paradox carries no fingerprint of the course secret" in warnings
    assert "Eve Stone: 01-accuracy-paradox carries another course secret's fingerprint" in warnings
    for student in ("Cleo Park", "Eve Stone"):
        assert all(_points(term["results"])[(student, e)] == 1.0 for e in EXERCISES), student


def test_names_are_one_key_whatever_their_encoding_or_case():
    secret = b"s"
    nfc, nfd = "Zoë Müller", unicodedata.normalize("NFD", "Zoë Müller")
    assert nfc != nfd
    for name in (nfd, "ZOË MÜLLER", " zoë müller ", "\ufeffZoë Müller", "Zoë\u200b Müller"):
        assert classroom.name_key(name) == classroom.name_key(nfc), repr(name)
        assert classroom.seed_for(secret, name, "01.1") == classroom.seed_for(secret, nfc, "01.1")
    assert classroom.name_key("Zoe Muller") != classroom.name_key(nfc), "accents still tell names apart"


def test_seeds_of_names_already_normalised_do_not_change():
    """An existing term regrades to the same variants: the kit's earlier seed, hmac over
    ``strip().casefold()``, is the oracle for every name already in NFKC."""
    import random

    rng = random.Random(20260131)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßéèêëçñøåæłżźśćńÀÉÎÕÜŁŻΑβγδЖжЯя李雷王芳 -'"
    names = ["Ada", "ben", "Zoë Müller", "Łukasz Żółć", "Ngô Bảo Châu", "Иван Петров", "李雷", "Søren IJsselmeer",
             "O'Brien-Smith", " Straße "]
    names += ["".join(rng.choice(letters) for _ in range(rng.randint(1, 24))) for _ in range(200)]
    names = [name for name in names if name.strip()]
    for name in names:
        assert unicodedata.normalize("NFKC", name) == name
        for exercise in ("01.1", "07.2"):
            for secret in (b"one", b"another secret"):
                earlier = hmac.new(secret, f"{name.strip().casefold()}\n{exercise}".encode(), hashlib.sha256)
                assert classroom.seed_for(secret, name, exercise) == int.from_bytes(earlier.digest()[:8], "big")


def test_a_roster_naming_one_student_twice_is_refused(tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{ZOE}\n{ZOE_NFD}\nAda\n", encoding="utf-8")
    with pytest.raises(classroom.ClassroomError, match="names the same student more than once"):
        classroom.read_roster(roster)
    roster.write_text("Ada\nada\n", encoding="utf-8")
    with pytest.raises(classroom.ClassroomError, match="more than once"):
        classroom.read_roster(roster)


def test_without_a_roster_two_spellings_of_one_folder_are_one_student(tmp_path):
    for folder in (ZOE, ZOE_NFD):
        _hand_in(nbformat.v4.new_notebook(), tmp_path / folder / f"{ASSIGNMENT}.ipynb")
    warnings = []
    found = classroom.find_submissions(tmp_path, None, {ASSIGNMENT: None}, warnings)
    assert len(found) == 1, found
    (student, notebooks), = found.items()
    assert classroom.name_key(student) == classroom.name_key(ZOE)
    assert len(notebooks[ASSIGNMENT]) == 2


# -- rosters as teachers have them ---------------------------------------------------------------


def test_an_excel_roster_reads_as_the_names_typed(tmp_path):
    roster = classroom.read_roster(_excel(tmp_path / "r.csv", ["# my class", ZOE, "", "Ada Lovelace"]))
    assert roster.kind == "plain" and roster.names() == [ZOE, "Ada Lovelace"]


def test_a_roster_saved_in_another_encoding_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "r.txt"
    path.write_bytes("Zoë Müller\n".encode("cp1252"))
    with pytest.raises(classroom.ClassroomError, match="CSV UTF-8"):
        classroom.read_roster(path)


def test_a_missing_roster_is_named(tmp_path):
    with pytest.raises(classroom.ClassroomError, match="ROSTER: no file at"):
        classroom.read_roster(tmp_path / "nowhere.txt")


CANVAS_EXPORT = [  # Canvas's gradebook export, as Excel saves it: the points row and the test student
    "Student,ID,SIS User ID,SIS Login ID,Section,01-accuracy-paradox (5501),Current Score",
    "    Points Possible,,,,,3,(read only)",
    '"Müller, Zoë",4711,S001,zmuller,Section A,,',
    '"Lovelace, Ada",4712,S002,alovelace,Section A,,',
    '"Student, Test",9999,,,Section A,,',
]
MOODLE_EXPORT = [  # Moodle's grade export ("Export to text file")
    "First name,Last name,ID number,Institution,Department,Email address,Last downloaded from this course",
    "Zoë,Müller,S001,,,zoe@example.edu,1700000000",
    "Ada,Lovelace,S002,,,ada@example.edu,1700000000",
]


def test_a_canvas_export_is_a_roster_with_its_ids(tmp_path):
    roster = classroom.read_roster(_excel(tmp_path / "canvas.csv", CANVAS_EXPORT))
    assert roster.kind == "canvas"
    assert roster.names() == ["Müller, Zoë", "Lovelace, Ada"], "no Points Possible row, no test student"
    zoe = roster.find("müller, zoë")
    assert [zoe.id(c) for c in classroom.CANVAS_IDS] == ["4711", "S001", "zmuller", "Section A"]


def test_a_canvas_export_saved_with_semicolons_reads_the_same(tmp_path):
    lines = [line.replace(",", ";").replace('";"', '","') for line in CANVAS_EXPORT]
    lines = [line.replace('"Müller; Zoë"', '"Müller, Zoë"').replace('"Lovelace; Ada"', '"Lovelace, Ada"')
             .replace('"Student; Test"', '"Student, Test"') for line in lines]
    roster = classroom.read_roster(_excel(tmp_path / "canvas.csv", lines))
    assert roster.names() == ["Müller, Zoë", "Lovelace, Ada"]


def test_a_moodle_export_is_a_roster_with_its_ids(tmp_path):
    roster = classroom.read_roster(_excel(tmp_path / "moodle.csv", MOODLE_EXPORT))
    assert roster.kind == "moodle" and roster.names() == [ZOE, "Ada Lovelace"]
    assert roster.find(ZOE).id("Email address") == "zoe@example.edu"
    assert roster.find(ZOE).id("ID number") == "S001"


def test_a_table_the_kit_does_not_know_is_refused_not_read_as_names(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text("Name,Email\nZoë Müller,zoe@example.edu\n", encoding="utf-8")
    with pytest.raises(classroom.ClassroomError, match="neither a Canvas"):
        classroom.read_roster(path)


# -- LMS import files, against the rules each LMS documents -----------------------------------------
#
# Canvas, "How do I import grades in the Gradebook?" (Canvas instructor guide; also the Ohio State
# CarmenCanvas guide "Import a CSV file into Carmen grades"): the file is the gradebook export's
# layout; the first columns are Student, ID, SIS User ID, SIS Login ID and Section (a student is
# matched by one of Student, ID or SIS User ID); then one column per assignment, where a column
# named as an existing assignment ("Name (id)") updates it and any other column makes a new
# assignment, so a Total column would become one more assignment; the second row gives each
# assignment's "Points Possible".
# Moodle, "Grade import" (docs.moodle.org): a CSV with a header row; the import form maps one
# column ("Map from") onto a user field ("Map to": user id, username, ID number or e-mail
# address) and each grade column onto a grade item; columns that match nothing are ignored.


def _graded_course(tmp_path, roster_lines, name):
    """A course handed out from an LMS export and given grades without running a notebook."""
    course = tmp_path / name
    course.mkdir()
    (course / "secret").write_text("lms\n", encoding="utf-8")
    roster = classroom.read_roster(_excel(tmp_path / f"{name}.csv", roster_lines))
    classroom.build_assignments(roster, ("01",), course=course)
    first = roster.names()[0]
    rows = [{"exercise": e, "score": 1.0, "points": 1.0, "max_points": 1.0, "feedback": "ok"} for e in EXERCISES]
    classroom._save_result(course, classroom.Graded(first, ASSIGNMENT, rows))
    classroom.record(course, {})
    classroom.export(course)
    return course, roster


def test_canvas_csv_follows_canvas_import_rules(tmp_path):
    course, roster = _graded_course(tmp_path, CANVAS_EXPORT, "canvas")
    rows = _csv(course / "canvas.csv")
    header, possible, students = rows[0], rows[1], rows[2:]
    assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert header[5:] == ["01-accuracy-paradox (5501)"], "the export's own column: Canvas updates that assignment"
    assert not any("total" in column.casefold() for column in header), "no Total: it would be an assignment"
    assert possible[0].strip() == "Points Possible" and possible[5] == "3"
    assert [row[0] for row in students] == roster.names(), "a row per student on the roster, no other"
    assert students[0][1:5] == ["4711", "S001", "zmuller", "Section A"]
    assert students[0][5] == "3" and students[1][5] == "", "no grade yet: an empty cell, not 0"
    assert all(len(row) == len(header) for row in rows)


def test_moodle_csv_follows_moodle_import_rules(tmp_path):
    course, roster = _graded_course(tmp_path, MOODLE_EXPORT, "moodle")
    rows = _csv(course / "moodle.csv")
    header, students = rows[0], rows[1:]
    matchable = {"Username", "ID number", "Email address"} & set(header)
    assert matchable == {"ID number", "Email address"}, "a column Moodle's import can map a user from"
    assert header[-1] == ASSIGNMENT and header.count(ASSIGNMENT) == 1
    by_mail = {row[header.index("Email address")]: row for row in students}
    assert by_mail["zoe@example.edu"][-1] == "3" and by_mail["ada@example.edu"][-1] == ""
    assert len(students) == len(roster.students)


def test_students_who_left_the_roster_leave_the_lms_files(tmp_path):
    course, _ = _graded_course(tmp_path, CANVAS_EXPORT, "canvas")
    classroom.build_assignments(classroom.read_roster(_excel(tmp_path / "smaller.csv", CANVAS_EXPORT[:2]
                                                             + CANVAS_EXPORT[3:4])), ("01",), course=course)
    classroom.export(course)
    assert [row[0] for row in _csv(course / "canvas.csv")[2:]] == ["Lovelace, Ada"]


# -- the course secret --------------------------------------------------------------------------


def test_a_wrong_secret_is_refused_before_anything_is_written(term, monkeypatch):
    course = term["course"]
    before = _tree_digest(course)
    monkeypatch.setenv("COURSE_SECRET", "the secret of last year")
    with pytest.raises(classroom.ClassroomError, match="not the one this term's assignments were made with"):
        classroom.grade(term["subs"], course=course, timeout=TIMEOUT_S, progress=False,
                        student_env=term["env"])
    assert _tree_digest(course) == before, "nothing was written"


def test_notebooks_handed_out_with_another_secret_are_refused(term, tmp_path, monkeypatch):
    """Without the term's record (a second grader's machine), the notebooks' fingerprints say it."""
    course, subs = _copy(term, tmp_path)
    (course / classroom.TERM_FILE).unlink()
    monkeypatch.setenv("COURSE_SECRET", "another secret")
    with pytest.raises(classroom.ClassroomError, match="handed out with another course secret"):
        classroom._plan(subs, term["roster"], course, students=(), notebooks=(), weights=None,
                        skip_unknown=False, replace_missing=False)


def test_the_fingerprint_is_not_the_secret_and_is_slow_to_guess(term):
    nb = (term["course"] / "release" / "Ada Lovelace" / "notebooks" / f"{ASSIGNMENT}.ipynb").read_text()
    mark = json.loads(nb)["metadata"]["evalkit"]["secret_fingerprint"]
    assert mark == hashlib.pbkdf2_hmac("sha256", SECRET.encode(), classroom.FINGERPRINT_SALT,
                                       classroom.FINGERPRINT_ROUNDS)[:16].hex()
    assert classroom.FINGERPRINT_ROUNDS >= 100_000 and SECRET not in nb


def test_assignments_never_make_a_new_secret_over_an_earlier_term(term, tmp_path, monkeypatch):
    course, _ = _copy(term, tmp_path)
    (course / "secret").unlink()
    monkeypatch.delenv("COURSE_SECRET", raising=False)
    with pytest.raises(classroom.ClassroomError, match="Restore .* from your backup"):
        classroom.build_assignments(term["roster"], ("01",), course=course)
    assert not (course / "secret").exists()
    monkeypatch.setenv("COURSE_SECRET", "a fresh one")
    with pytest.raises(classroom.ClassroomError, match="not the one this term's assignments were made with"):
        classroom.build_assignments(term["roster"], ("01",), course=course)


def test_make_clean_keeps_the_secret_and_the_gradebook(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    keep = tmp_path / "build" / "classroom"
    keep.mkdir(parents=True)
    for name in ("secret", "gradebook.db", classroom.TERM_FILE):
        (keep / name).write_text(name, encoding="utf-8")
    (tmp_path / "build" / "site").mkdir()
    (tmp_path / "build" / "site" / "index.html").write_text("x", encoding="utf-8")
    proc = subprocess.run(["make", "-f", "Makefile", "clean"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "build" / "site").exists(), "the rule ran"
    for name in ("secret", "gradebook.db", classroom.TERM_FILE):
        assert (keep / name).read_text(encoding="utf-8") == name


# -- a grade set by hand, points per exercise, a regrade ----------------------------------------


@pytest.fixture(scope="module")
def regraded(term):
    """Ben's 01.1 is set by hand, 01.3 is made worth 2 points, then Ben hands in 01.1 and is regraded."""
    course, subs = term["course"], term["subs"]
    who = classroom.grade_by_hand("ben okafor", "01.1", "0.5", "answered on paper in class", course=course)
    weights = _excel(term["base"] / "points.csv", ["exercise,points", "01.3,2"])
    nb = _filled(course, "Ben Okafor", term["secret"])
    _hand_in(nb, subs / "BEN OKAFOR" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    results = classroom.grade(subs, course=course, students=["Ben Okafor"], weights=str(weights),
                              timeout=TIMEOUT_S, progress=False, student_env=term["env"])
    return dict(who=who, results=results, weights=weights)


def _grades(course):
    rows = _csv(course / "grades.csv")
    header = rows[0]
    return {(r[0], r[2]): dict(zip(header, r)) for r in rows[1:]}


def test_a_regrade_keeps_the_grade_set_by_hand(term, regraded):
    course = term["course"]
    assert regraded["who"] == "Ben Okafor"
    assert _points(regraded["results"])[("Ben Okafor", "01.1")] == 1.0, "the automatic score moved"
    ben = _grades(course)[("Ben Okafor", "01.1")]
    assert ben["points"] == "0.5" and ben["set_by_hand"] == "answered on paper in class"
    assert ("Ben Okafor 01.1: kept the grade set by hand (0.5 of 1); the automatic score under it changed "
            "from 0 to 1") in _warnings(course)
    feedback = (course / "feedback" / "Ben Okafor" / f"{ASSIGNMENT}.md").read_text(encoding="utf-8")
    assert "Exercise 01.1: 0.5 of 1" in feedback and "Set by hand by your teacher: answered on paper" in feedback


def test_points_per_exercise_apply_to_every_grade_and_are_kept(term, regraded):
    course = term["course"]
    grades = _grades(course)
    assert grades[("Ada Lovelace", "01.3")]["points"] == "2" and grades[("Ada Lovelace", "01.3")]["max_points"] == "2"
    assert grades[("Ada Lovelace", "01.1")]["max_points"] == "1"
    canvas = _csv(course / "canvas.csv")
    assert canvas[1][5] == "4", "Points Possible: 1 + 1 + 2"
    assert "points per exercise changed (01.3: 1 -> 2)" in _warnings(course)
    plan = classroom._plan(term["subs"], None, course, students=["Ada Lovelace"], notebooks=(), weights=None,
                           skip_unknown=False, replace_missing=False)
    assert plan.points == {"01.3": 2.0}, "a regrade without WEIGHTS keeps the term's points"


def test_grade_by_hand_refuses_what_it_cannot_do(term, regraded):
    course = term["course"]
    with pytest.raises(classroom.ClassroomError, match="'Ben Okafr' is not in the gradebook .did you mean 'Ben Okafor'"):
        classroom.grade_by_hand("Ben Okafr", "01.1", "1", "x", course=course)
    with pytest.raises(classroom.ClassroomError, match="EXERCISE: '01.9'"):
        classroom.grade_by_hand("Ben Okafor", "01.9", "1", "x", course=course)
    with pytest.raises(classroom.ClassroomError, match="outside 0 to 2"):
        classroom.grade_by_hand("Ben Okafor", "01.3", "2.5", "x", course=course)
    with pytest.raises(classroom.ClassroomError, match="WHY"):
        classroom.grade_by_hand("Ben Okafor", "01.3", "1", "", course=course)
    assert _grades(course)[("Ben Okafor", "01.3")]["set_by_hand"] == ""


def test_a_weights_file_naming_no_exercise_is_refused(term, tmp_path):
    weights = _excel(tmp_path / "w.csv", ["exercise,points", "01.7,2", "01.3,-1"])
    with pytest.raises(classroom.ClassroomError, match="'01.7' is no graded exercise.*01.3: '-1' is not"):
        classroom.read_weights(weights)


# -- what a teacher types: refused with the names, before anything is written ----------------------


def _plan(term, subs=None, **options):
    settings = dict(students=(), notebooks=(), weights=None, skip_unknown=False, replace_missing=False)
    settings.update(options)
    return classroom._plan(subs or term["subs"], None, term["course"], **settings)


def test_a_students_typo_is_refused_with_a_suggestion(term):
    with pytest.raises(classroom.ClassroomError, match="STUDENTS names no one on the roster: 'Bne Okafor' "
                                                       "\\(did you mean 'Ben Okafor'\\?\\)"):
        _plan(term, students=["Bne Okafor"])
    assert [t[0] for t in _plan(term, students=["ZOË MÜLLER"]).tasks] == [ZOE]


def test_a_notebooks_value_naming_no_notebook_is_refused(term):
    with pytest.raises(classroom.ClassroomError, match="NOTEBOOKS names no notebook with exercises: 99"):
        _plan(term, notebooks=("99",))


def test_a_folder_matching_no_one_stops_the_run_or_is_skipped_by_name(term, tmp_path):
    course, subs = _copy(term, tmp_path)
    _hand_in(nbformat.v4.new_notebook(), subs / "Zoe Muller" / f"{ASSIGNMENT}.ipynb")
    with pytest.raises(classroom.ClassroomError, match="'Zoe Muller' .* \\(did you mean 'Zoë Müller'\\?\\)"):
        classroom._plan(subs, None, course, students=(), notebooks=(), weights=None, skip_unknown=False,
                        replace_missing=False)
    plan = classroom._plan(subs, None, course, students=(), notebooks=(), weights=None, skip_unknown=True,
                           replace_missing=False)
    assert any("not graded: 'Zoe Muller'" in w for w in plan.warnings)


def test_a_roster_with_students_never_handed_out_is_refused(term, tmp_path):
    roster = _excel(tmp_path / "r.csv", [*STUDENTS, "Fay Newcomer"])
    with pytest.raises(classroom.ClassroomError, match="'Fay Newcomer'"):
        classroom._plan(term["subs"], str(roster), term["course"], students=(), notebooks=(), weights=None,
                        skip_unknown=False, replace_missing=False)


def test_a_missing_notebook_keeps_the_earlier_grade_unless_asked(term, tmp_path):
    course, subs = _copy(term, tmp_path)
    shutil.rmtree(subs / "Eve Stone")
    before = _grades(course)[("Eve Stone", "01.1")]["points"]
    classroom.grade(subs, course=course, students=["Eve Stone"], timeout=TIMEOUT_S, progress=False,
                    student_env=term["env"])
    assert _grades(course)[("Eve Stone", "01.1")]["points"] == before == "1"
    assert "Eve Stone: no notebook for 01-accuracy-paradox this time; kept the earlier grade (3 of 3)" \
        in _warnings(course)
    classroom.grade(subs, course=course, students=["Eve Stone"], timeout=TIMEOUT_S, progress=False,
                    replace_missing=True, student_env=term["env"])
    assert _grades(course)[("Eve Stone", "01.1")]["points"] == "0"
    assert "the earlier grade (3 of 3) was replaced by 'no submission'" in _warnings(course)


# -- student text reaching the teacher ------------------------------------------------------------


def test_control_characters_never_reach_the_teacher():
    spoof = "\x1b[2K\r[3/3] Ada: 3/3\u202e\x07"
    shown = classroom.safe_text(spoof)
    assert not any(ch in shown for ch in "\x1b\r\x07\u202e") and "\\x1b" in shown
    assert classroom.safe_text("line one\nline two", lines=True) == "line one\nline two"
    assert len(classroom.safe_text("x" * 10_000, limit=100)) < 120


def test_no_control_character_survives_on_random_text():
    """Random text over the ranges that hold control, format and separator characters: what the
    kit shows holds none of them, keeps every other character, and no CSV cell starts a formula."""
    import random

    rng = random.Random(31)
    pool = [chr(c) for c in (*range(0, 0x30), *range(0x7F, 0xA1), 0x2028, 0x2029, *range(0x202A, 0x202F),
                             *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)] + list("=+-@ab é中")
    for _ in range(500):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        shown = classroom.safe_text(text)
        assert not [ch for ch in shown if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
                    or ch in classroom.BIDI_CONTROLS], repr(text)
        read_back = re.sub(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})",
                           lambda m: chr(int(m.group(1) or m.group(2), 16)), shown)
        assert read_back == text, "every character is shown, the hidden ones written out"
        assert not classroom.csv_cell(text).startswith(classroom.FORMULA_START)


@pytest.mark.parametrize("cell", ["=HYPERLINK(\"http://x\",\"3\")", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_a_csv_cell_cannot_start_a_formula(cell):
    assert not classroom.csv_cell(cell).startswith(classroom.FORMULA_START)


def test_only_the_exception_type_of_a_student_error_is_kept():
    assert classroom._exception_name("ValueError: root:x:0:0 /etc/passwd") == "ValueError"
    assert classroom._exception_name("\x1b[2K fake: 3/3") == "an exception"
    assert classroom._run_note({"error": "the run stopped: OSError: " + "A" * 5000}, "") == "the run stopped (OSError)"
    assert classroom._run_note({"error": "\x1b[2K[1/1] 3/3"}, "").startswith("the run stopped (its report")


def _warning_texts():
    """(line, the longest fixed part) of every warning tools/classroom.py can print."""
    import ast

    def pieces(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            return [part.value for part in node.values if isinstance(part, ast.Constant)]
        if isinstance(node, ast.BinOp):
            return pieces(node.left) + pieces(node.right)
        return []

    found = []
    for node in ast.walk(ast.parse((ROOT / "tools" / "classroom.py").read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        appended = (isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name)
                    and func.value.id in ("warnings", "notes"))
        said = isinstance(func, ast.Name) and func.id == "_say" and "warning" in "".join(pieces(node.args[0]))
        fixed = max((part.strip() for part in pieces(node.args[0])), key=len, default="")
        if (appended or said) and len(fixed) > len("warning: "):   # not a warning passed on as it is
            found.append((node.lineno, fixed))
    return found


def test_the_guide_explains_every_warning():
    guide = " ".join((ROOT / "teachers" / "running-a-term.md").read_text(encoding="utf-8").split())
    texts = _warning_texts()
    assert len(texts) >= 15, "the search finds the kit's warnings"
    missing = [(line, text) for line, text in texts if " ".join(text.split()[:6]) not in guide]
    assert not missing, f"warnings the guide does not explain (tools/classroom.py line, text): {missing}"


def test_make_grade_passes_timeout_and_weights():
    proc = subprocess.run(["make", "-n", "grade", "SUBMISSIONS=x", "TIMEOUT=7", "WEIGHTS=w.csv"], cwd=ROOT,
                          capture_output=True, text=True)
    assert "--timeout 7" in proc.stdout and '--weights "w.csv"' in proc.stdout, proc.stdout + proc.stderr


def test_a_tool_loaded_by_two_grading_threads_at_once_is_whole_in_both(tmp_path, monkeypatch):
    """Grading loads the runner from several threads; one that arrives while the first is still
    running the module's body (a first import is slow) must not get the half-run module."""
    started = tmp_path / "started"
    (tmp_path / "slow_tool_for_test.py").write_text(
        "from pathlib import Path\n"
        f"STARTED = Path({str(started)!r})\n"
        "FIRST = not STARTED.exists()\n"
        "STARTED.touch()\n"
        "if FIRST:\n"
        "    import time\n"
        "    time.sleep(1.0)\n"
        "VALUE = 42\n", encoding="utf-8")
    monkeypatch.setattr(classroom, "__file__", str(tmp_path / "classroom.py"))
    monkeypatch.delitem(sys.modules, "slow_tool_for_test", raising=False)
    got = {}

    def load(who):
        got[who] = getattr(classroom._load_tool("slow_tool_for_test"), "VALUE", None)

    first = threading.Thread(target=load, args=("first",))
    first.start()
    for _ in range(500):
        if started.exists():
            break
        time.sleep(0.01)
    second = threading.Thread(target=load, args=("second",))
    second.start()
    first.join()
    second.join()
    sys.modules.pop("slow_tool_for_test", None)
    assert started.exists()
    assert got == {"first": 42, "second": 42}
