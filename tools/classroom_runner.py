"""Run one student's notebook inside the grading sandbox and write down its answers.

    python classroom_runner.py job.json

tools/classroom.py starts this script in a sandbox (tools/sandbox.py) whose host files are a
copy of one submitted notebook, ``job.json`` and the files the run writes back
(:func:`written`: the report and an answer file per exercise, made empty beforehand). The job
names the notebook, each exercise's answer variable, and for a function exercise each case's
inputs -- never an expected value: the key stays with the grader.

The graded part of a notebook runs in this process, in IPython's ``InteractiveShell`` (what a
Jupyter kernel runs cells with, without the kernel's second process, its start-up and its
messages; the sandbox is the boundary, and this process is the student's anyway): the code
cells under the "## Setup" heading, then every code cell from the "## Exercises" heading to
the next "## " heading. Before an exercise's answer cell (the first cell whose metadata says
``evalkit.answer = <id>``) the answer variable is deleted, so an empty cell cannot inherit
the previous exercise's answer; after it, :func:`evalkit.course.answers.capture` writes the
answer to ``answers/<id>.json``. A cell that runs longer than the job's ``cell_timeout`` is
interrupted (a KeyboardInterrupt, as a kernel's interrupt raises). ``report.json`` says which
cells raised; it is written before the first cell and after every step, and it says that the
run died until the run ends: when a cell ends this process (``os._exit``, the out-of-memory
killer, too many processes), the report keeps what ran before, as when a kernel died.

Everything here runs where the student's code runs: the student can change any of it,
and so only what the student answered. The grader reads these files after every
process of the sandbox has ended.
"""

from __future__ import annotations

import builtins
import importlib.util
import json
import os
import shutil
import signal
import sys

ANSWERS = "answers"       # the folder of the answer files, beside job.json
REPORT = "report.json"    # which cells raised, and why the run stopped
DIED = "the notebook's kernel died (out of memory, or too many processes?)"


def written(exercise_ids):
    """The files a run writes, relative to the job's folder: the report, an answer per exercise
    (the grader makes them before the run: in the sandbox they are all it can write back)."""
    return [REPORT] + [f"{ANSWERS}/{exercise_id}.json" for exercise_id in exercise_ids]


def source_of(cell):
    """A cell's source as one string (a notebook file may store it as a list of lines)."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(source)
    return source


def section_after(cell, section):
    """The section a markdown cell leaves open: its last "## " heading's, if it has one."""
    if cell.get("cell_type") != "markdown":
        return section
    for line in source_of(cell).splitlines():
        if line.startswith("## "):
            title = line[3:].strip().lower()
            if title.startswith("setup"):
                section = "setup"
            elif title.startswith("exercises"):
                section = "exercises"
            else:
                section = None
    return section


def graded_cells(cells):
    """(index, cell) of the code cells that run: the setup section and the exercises section."""
    graded, section = [], None
    for index, cell in enumerate(cells):
        section = section_after(cell, section)
        if cell.get("cell_type") == "code" and section is not None:
            graded.append((index, cell))
    return graded


def answer_id(cell):
    meta = cell.get("metadata")
    marks = meta.get("evalkit") if isinstance(meta, dict) else None
    return marks.get("answer") if isinstance(marks, dict) else None


def read_cells(path):
    """The cells of the notebook at ``path``; ValueError saying why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            notebook = json.load(fh)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ValueError("not JSON") from None
    if not isinstance(notebook, dict) or notebook.get("nbformat") != 4:
        raise ValueError("not a Jupyter notebook of format 4")
    cells = notebook.get("cells")
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        raise ValueError("not a Jupyter notebook of format 4")
    return cells


def _kernel_compiler():
    """ipykernel's compiler: a cell's code is named as the kernel names it ("<hash>.py"), so a
    SyntaxError reads as it did in a kernel. Loaded from its own file (it needs only IPython):
    ipykernel's package would first import the kernel's messaging, 0.2 s, for nothing. None
    when ipykernel is not installed (IPython then names the cells itself)."""
    package = importlib.util.find_spec("ipykernel")
    if package is None or package.origin is None:
        return None
    path = os.path.join(os.path.dirname(package.origin), "compiler.py")
    spec = importlib.util.spec_from_file_location("_ipykernel_compiler", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.XCachingCompiler


def _no_input(prompt=""):
    """input() in a cell: refused as in a kernel run by nbclient (it has no one to ask)."""
    from IPython.core.error import StdinNotImplementedError

    raise StdinNotImplementedError(
        "raw_input was called, but this frontend does not support input requests.")


def new_shell():
    """A fresh IPython shell whose namespace is the notebook's (``__main__``), no history file."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class NotebookShell(InteractiveShell):
        def ask_exit(self):
            """exit() or quit() in a cell: the run ends after that cell's step, as the kernel did."""
            self.exit_now = True

    config = Config()
    config.HistoryManager.enabled = False
    compiler = _kernel_compiler()
    if compiler is None:
        shell = NotebookShell.instance(config=config)
    else:
        shell = NotebookShell.instance(config=config, compiler_class=compiler)
    builtins.input = _no_input
    return shell


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run_cell(shell, source, timeout):
    """Run ``source`` as a cell, interrupted after ``timeout`` seconds; its error as
    "Name: text" (at most 300 characters), or None."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        result = shell.run_cell(source, store_history=True)
    except KeyboardInterrupt:   # the time limit rang just as the cell ended
        return "KeyboardInterrupt: "
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    error = result.error_before_exec or result.error_in_exec
    if error is None:
        return None
    return f"{type(error).__name__}: {error}"[:300]


class Report:
    """``report.json`` as the run goes: written at once, and again after every change."""

    def __init__(self, path):
        self.path = path
        self.data = {"exercises": {}, "error": DIED}
        self.save()

    def save(self):
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump(self.data, fh)

    def set(self, exercise_id, key, value):
        self.data["exercises"].setdefault(exercise_id, {})[key] = value
        self.save()

    def end(self, error=None):
        self.data["error"] = error
        self.save()


def run_graded(shell, cells, job, report, here):
    """Run the graded cells in ``shell``, capturing each exercise's answer after its cell."""
    exercises = job["exercises"]
    timeout = job.get("cell_timeout", 60)
    seen = set()
    for _, cell in graded_cells(cells):
        if shell.exit_now:
            return
        ex = answer_id(cell)
        if ex not in exercises or ex in seen:
            run_cell(shell, source_of(cell), timeout)
            continue
        name = exercises[ex]["name"]
        run_cell(shell, f"globals().pop({name!r}, None)", timeout)
        report.set(ex, "error", run_cell(shell, source_of(cell), timeout))
        seen.add(ex)
        capture = ("from evalkit.course.answers import capture as _capture\n"
                   f"_capture({ex!r}, {name!r}, globals(), {os.path.join(here, ANSWERS)!r}, "
                   f"{exercises[ex].get('cases')!r})")
        report.set(ex, "check_error", run_cell(shell, capture, timeout))


def _discard_output():
    """Send this process's stdout and stderr (its cells' and its children's output) nowhere:
    they are not graded (a kernel sent them to a notebook no one read), and in the sandbox
    they would fill a file capped by RLIMIT_FSIZE, where the next print would fail."""
    sys.stdout.flush()
    sys.stderr.flush()
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    os.close(nowhere)


def _seed_matplotlib(job):
    """Copy the font list the grader built once into this run's own MPLCONFIGDIR, so importing
    pyplot does not search the fonts again (the grader's copy is read-only)."""
    fonts, config = job.get("matplotlib"), os.environ.get("MPLCONFIGDIR")
    if fonts and config and os.path.isdir(fonts):
        shutil.copytree(fonts, config, dirs_exist_ok=True)


def run(job_path):
    """Run the job at ``job_path``; the report is in its folder's ``report.json``."""
    here = os.path.dirname(os.path.abspath(job_path))
    with open(job_path, encoding="utf-8") as fh:
        job = json.load(fh)
    report = Report(os.path.join(here, REPORT))
    try:
        cells = read_cells(os.path.join(here, job["notebook"]))
    except (OSError, ValueError) as exc:   # empty, not JSON, not a notebook
        report.end(f"unreadable notebook ({exc})")
        return
    _seed_matplotlib(job)
    os.chdir(here)
    sys.path[0] = ""   # the notebook's folder, as in a kernel
    _discard_output()
    signal.signal(signal.SIGALRM, _interrupt)
    try:
        shell = new_shell()
        run_graded(shell, cells, job, report, here)
    except Exception as exc:  # a broken notebook ends the run, not the grading
        report.end(f"the run stopped: {type(exc).__name__}: {exc}"[:300])
        return
    if shell.exit_now:
        report.end(DIED)
    else:
        report.end()


def main():
    run(sys.argv[1])
    # what the notebook started (threads, a Spark session) ends with this process: a kernel
    # was shut down the same way, and nothing is left to wait for
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
