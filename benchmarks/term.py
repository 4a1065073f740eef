"""How long `make grade` takes for a whole term: N students x every notebook with exercises.

    python benchmarks/term.py [--students 40] [--jobs N] [--notebooks 01,07]   (make bench-term)

Builds a class of N students in a temporary course folder (tools/classroom.py), fills each
student's own variant with right answers (value and choice exercises; function exercises
are left as handed out), grades every notebook in its sandbox on all cores, and prints the
wall time of the term with the time per notebook (mean, slowest). The goal the classroom
issue set: a term of 40 students x 11 notebooks under 30 minutes on 2 cores, notebook 09's
Spark included.

The peer is nbgrader's own autograde, which the classroom used before: it runs a whole
notebook per submission, one after another (about 20 s a notebook and 128 s for notebook
09 on this project's two-core machine, so about 3.6 h for such a term); it is not re-run
here, since it does not sandbox and would take hours.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("classroom", ROOT / "tools" / "classroom.py")
classroom = importlib.util.module_from_spec(spec)
sys.modules["classroom"] = classroom
spec.loader.exec_module(classroom)


def _literal(value):
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if hasattr(value, "tolist"):
        return _literal(value.tolist())
    return repr(value)


def hand_in(course, submissions, student, secret):
    """The student's own version of every notebook, with right answers to its value and choice exercises."""
    import nbformat

    from evalkit.course.exercises import variant

    for path in (course / "release" / student / "notebooks").glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("evalkit", {})
            ex_id = meta.get("answer") if isinstance(meta, dict) else None
            if not ex_id:
                continue
            mine = variant(ex_id, classroom.seed_for(secret, student, ex_id))
            if mine.kind != "function":
                name = cell.source.split("=")[0].strip()
                cell.source = f"from fractions import Fraction\n{name} = {_literal(mine.solution)}\n"
        target = submissions / student
        target.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target / path.name)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=None, help="sandboxes at once (default: all cores)")
    parser.add_argument("--notebooks", default="", help="only these notebooks (NN, comma-separated)")
    args = parser.parse_args(argv)
    numbers = tuple(n for n in args.notebooks.split(",") if n)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        course, submissions = base / "course", base / "submissions"
        course.mkdir()
        roster = base / "roster.txt"
        students = [f"student{i:02d}" for i in range(args.students)]
        roster.write_text("\n".join(students) + "\n")
        built = classroom.build_assignments(str(roster), numbers, course=course)
        classroom.student_env(course)   # the environment the grader runs submissions in (not timed)
        secret = classroom.course_secret(course)
        for student in students:
            hand_in(course, submissions, student, secret)
        start = time.monotonic()
        results = classroom.grade(submissions, roster=str(roster), course=course, notebooks=numbers,
                                  jobs=args.jobs)
        wall = time.monotonic() - start
    per = defaultdict(list)
    for graded in results:
        per[graded.assignment].append(graded.seconds)
    print(f"\n{len(students)} students x {len(built)} notebooks = {len(results)} submissions, "
          f"{args.jobs or os.cpu_count()} at once on {os.cpu_count()} cores")
    print(f"{'notebook':34} {'mean s':>7} {'slowest s':>9} {'points':>7}")
    for name in sorted(per):
        points = sum(g.points for g in results if g.assignment == name)
        possible = sum(len(g.rows) for g in results if g.assignment == name)
        print(f"{name:34} {statistics.mean(per[name]):7.1f} {max(per[name]):9.1f} "
              f"{points:g}/{possible}")
    verdict = "within" if wall <= 30 * 60 else "over"
    print(f"term graded in {wall / 60:.1f} min ({verdict} the goal of 30 min)")


if __name__ == "__main__":
    main()
