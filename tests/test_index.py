"""The course map in 00-index.ipynb and the prev/next navigation cells of
every notebook are up to date (regenerate them with `make index`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "make_index.py"


def test_index_and_navigation_up_to_date():
    result = subprocess.run(
        [sys.executable, str(TOOL), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, (
        "notebooks are out of date, run `make index`:\n" + result.stdout + result.stderr
    )


def _generated(nb: dict) -> list[str]:
    return [
        c.get("metadata", {}).get("evalkit", {}).get("generated")
        for c in nb["cells"]
    ]


def test_tool_is_idempotent_on_a_scratch_course(tmp_path):
    """Runs the tool on a small made-up course: once to write, then --check."""
    def notebook(title: str, minor: int = 5) -> dict:
        cell = {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n", "text"]}
        if minor >= 5:
            cell["id"] = "title"
        return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": minor}

    (tmp_path / "00-index.ipynb").write_text(json.dumps(notebook("Index")), "utf-8")
    (tmp_path / "01-first.ipynb").write_text(json.dumps(notebook("First [one]", 4)), "utf-8")
    (tmp_path / "03-third.ipynb").write_text(json.dumps(notebook("Third")), "utf-8")
    (tmp_path / "notes.ipynb").write_text("not a course notebook", "utf-8")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(TOOL), "--notebooks", str(tmp_path), *args],
            capture_output=True, text=True,
        )

    assert run("--check").returncode == 1
    assert run().returncode == 0
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.ipynb")}
    assert run("--check").returncode == 0, "second run would still change files"
    assert run().returncode == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.ipynb")} == first

    index = json.loads((tmp_path / "00-index.ipynb").read_text("utf-8"))
    assert _generated(index) == ["nav-top", None, "course-map", "nav-bottom"]
    course_map = "".join(index["cells"][2]["source"])
    assert "[First \\[one\\]](01-first.ipynb)" in course_map
    assert "[Third](03-third.ipynb)" in course_map

    middle = json.loads((tmp_path / "01-first.ipynb").read_text("utf-8"))
    assert _generated(middle) == ["nav-top", None, "nav-bottom"]
    assert "id" not in middle["cells"][0]  # nbformat 4.4 has no cell ids
    assert "".join(middle["cells"][0]["source"]) == (
        "[< Index](00-index.ipynb) | [Course map](00-index.ipynb) | [Third >](03-third.ipynb)"
    )
    last = json.loads((tmp_path / "03-third.ipynb").read_text("utf-8"))
    assert [c.get("id") for c in last["cells"]] == [
        "evalkit-nav-top", "title", "evalkit-nav-bottom"
    ]
    assert "".join(last["cells"][-1]["source"]) == (
        "[< First \\[one\\]](01-first.ipynb) | [Course map](00-index.ipynb)"
    )
