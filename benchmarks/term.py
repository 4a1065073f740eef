"""How long `make grade` takes for a whole term: N students x every notebook with exercises.

    python benchmarks/term.py [--students 40] [--jobs N] [--notebooks 01,07]   (make bench-term)

Builds a class of N students in a temporary course folder (tools/classroom.py), fills each
student's own variant with right answers (value and choice exercises; function exercises
are left as handed out), grades every notebook in its sandbox on all cores, and prints the
wall time of the term with the time per notebook (mean, slowest), the load average, and (as
root, from a cgroup v1 cpuacct group) the CPU seconds of the grader and all its sandboxes,
which other work on a shared machine does not inflate. The goal the classroom issue set: a
term of 40 students x 11 notebooks under 30 minutes on 2 cores, notebook 09's Spark
included; then 15 minutes.

Before and after (the same bench, 6 students x 12 notebooks = 72 submissions, 2 at once, on
this project's 2-core machine shared with other work, load average 11 to 95):
    base 425f58a -- a Jupyter kernel per submission through nbclient; notebook 09's Spark
    session never started in the sandbox (the JVM did not fit RLIMIT_AS, and Hadoop's login
    failed for a uid without a passwd entry): 14.7 min in a round alternating with this
    version's first; in another, 17.0 min and 5.18 s of CPU a submission.
    this version -- the cells run in the runner's own process (IPython's InteractiveShell),
    the student package byte-compiled and matplotlib's font list built once per grading run,
    Spark starting in the sandbox: 7.8 min in the alternating round; 2.62 s of CPU a
    submission before the font list, 2.42 s with it (0.47 x the base's CPU, Spark included).
The whole term, 40 students x 12 notebooks (480 submissions), on the same machine when it was
quiet (load 1.2 to 2.1): 9.2 min, 2.20 s of CPU a submission, notebook 09 6.8 s a submission
and the others 1.6 to 2.2 s; the base took 29.8 min for 40 x 11 on 2 cores.

Where a submission's seconds went before: bwrap 0.1 s; nbformat's import 1.4 s of CPU
(jsonschema) and nbclient's; the kernel's start (0.5-1 s); the setup
cell's imports (sklearn, matplotlib, pandas: 1.5-3 s, matplotlib searching the fonts again
in every run); evalkit compiled in every run; the cells themselves, a few hundredths of a
second. Spark's session (notebook 09) now starts: its JVM is most of that notebook's time.

The peer is nbgrader's own autograde, which the classroom used before: it runs a whole
notebook per submission, one after another (about 20 s a notebook and 128 s for notebook
09 on this project's two-core machine, so about 3.6 h for such a term); it is not re-run
here, since it does not sandbox and would take hours.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

GOAL_MIN = 15     # a term of 40 students on 2 cores (it was 30 when the kernel ran each notebook)
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


@contextlib.contextmanager
def _cpu_used():
    """The CPU seconds of this process and all it starts (the sandboxes too) while in the block,
    from a cgroup v1 ``cpuacct`` group of its own (as root; else nothing): a figure that other
    work on a shared machine does not inflate. (getrusage misses them: bwrap does not wait for
    its namespace's processes.)"""
    found = {}
    parent = Path("/sys/fs/cgroup/cpuacct")
    if os.geteuid() != 0 or not os.access(parent / "cgroup.procs", os.W_OK):
        yield found
        return
    group = parent / f"evalkit-bench-term-{os.getpid()}"
    group.mkdir()
    try:
        (group / "cgroup.procs").write_text(str(os.getpid()))
        yield found
        found["s"] = int((group / "cpuacct.usage").read_text()) / 1e9
    finally:
        (parent / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()


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
        load = os.getloadavg()[0]
        with _cpu_used() as cpu:
            results = classroom.grade(submissions, roster=str(roster), course=course,
                                      notebooks=numbers, jobs=args.jobs)
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
    # other work slows a term: the load average (runnable processes, ours included) says how much
    print(f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    if cpu:
        print(f"CPU {cpu['s']:.0f} s, {cpu['s'] / len(results):.2f} s a submission: "
              f"{cpu['s'] / (os.cpu_count() * 60):.1f} min on {os.cpu_count()} idle cores")
    verdict = "within" if wall <= GOAL_MIN * 60 else "over"
    print(f"term graded in {wall / 60:.1f} min ({verdict} the goal of {GOAL_MIN} min)")


if __name__ == "__main__":
    main()
