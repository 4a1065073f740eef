"""Run one student's notebook inside the grading sandbox and write down its answers.

    python classroom_runner.py job.json

tools/classroom.py starts this script in a sandbox (tools/sandbox.py) whose only writable
folder holds a copy of one submitted notebook and ``job.json``. The job names the
notebook, each exercise's answer variable, and for a function exercise each case's
inputs -- never an expected value: the key stays with the grader.

The graded part of a notebook runs in a Jupyter kernel: the code cells under the
"## Setup" heading, then every code cell from the "## Exercises" heading to the next
"## " heading. Before an exercise's answer cell (the first cell whose metadata says
``evalkit.answer = <id>``) the answer variable is deleted, so an empty cell cannot
inherit the previous exercise's answer; after it, :func:`evalkit.course.answers.capture`
writes the answer to ``answers/<id>.json``. ``report.json`` says which cells raised.

Everything here runs where the student's code runs: the student can change any of it,
and so only what the student answered. The grader reads these files after every
process of the sandbox has ended.
"""

from __future__ import annotations

import json
import os
import sys

ANSWERS = "answers"


def section_after(cell, section):
    """The section a markdown cell leaves open: its last "## " heading's, if it has one."""
    if cell.cell_type != "markdown":
        return section
    for line in cell.source.splitlines():
        if line.startswith("## "):
            title = line[3:].strip().lower()
            section = "setup" if title.startswith("setup") else (
                "exercises" if title.startswith("exercises") else None)
    return section


def graded_cells(nb):
    """(index, cell) of the code cells that run: the setup section and the exercises section."""
    cells, section = [], None
    for index, cell in enumerate(nb.cells):
        section = section_after(cell, section)
        if cell.cell_type == "code" and section is not None:
            cells.append((index, cell))
    return cells


def answer_id(cell):
    meta = cell.get("metadata", {}).get("evalkit", {})
    return meta.get("answer") if isinstance(meta, dict) else None


def _error(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return f"{out.get('ename', '')}: {out.get('evalue', '')}"[:300]
    return None


def run(job_path):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    with open(job_path, encoding="utf-8") as fh:
        job = json.load(fh)
    here = os.path.dirname(os.path.abspath(job_path))
    report = {"exercises": {}, "error": None}
    try:
        nb = nbformat.read(os.path.join(here, job["notebook"]), as_version=4)
    except Exception as exc:  # empty, not JSON, not a notebook
        report["error"] = f"unreadable notebook ({type(exc).__name__})"
        return report
    exercises = job["exercises"]
    client = NotebookClient(nb, timeout=job.get("cell_timeout", 60), kernel_name="python3",
                            allow_errors=True, interrupt_on_timeout=True,
                            resources={"metadata": {"path": here}})
    seen = set()
    try:
        with client.setup_kernel():
            for index, cell in graded_cells(nb):
                ex = answer_id(cell)
                ex = ex if ex in exercises and ex not in seen else None
                if ex:
                    name = exercises[ex]["name"]
                    client.execute_cell(nbformat.v4.new_code_cell(f"globals().pop({name!r}, None)"), index)
                client.execute_cell(cell, index)
                if ex:
                    seen.add(ex)
                    report["exercises"][ex] = {"error": _error(cell)}
                    cases = exercises[ex].get("cases")
                    capture = ("from evalkit.course.answers import capture as _capture\n"
                               f"_capture({ex!r}, {name!r}, globals(), {os.path.join(here, ANSWERS)!r}, "
                               f"{cases!r})")
                    checked = nbformat.v4.new_code_cell(capture)
                    client.execute_cell(checked, index)
                    report["exercises"][ex]["check_error"] = _error(checked)
    except DeadKernelError:
        report["error"] = "the notebook's kernel died (out of memory, or too many processes?)"
    except Exception as exc:  # a broken kernel or notebook ends the run, not the grading
        report["error"] = f"the run stopped: {type(exc).__name__}: {exc}"[:300]
    return report


def main():
    report = run(sys.argv[1])
    with open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "report.json"), "w",
              encoding="utf-8") as fh:
        json.dump(report, fh)


if __name__ == "__main__":
    main()
