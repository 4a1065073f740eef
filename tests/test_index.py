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
    course = tmp_path / "notebooks"
    course.mkdir()
    def notebook(title: str, minor: int = 5) -> dict:
        cell = {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n", "text"]}
        if minor >= 5:
            cell["id"] = "title"
        return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": minor}

    (course / "00-index.ipynb").write_text(json.dumps(notebook("Index")), "utf-8")
    (course / "01-first.ipynb").write_text(json.dumps(notebook("First [one]", 4)), "utf-8")
    (course / "03-third.ipynb").write_text(json.dumps(notebook("Third")), "utf-8")
    (course / "notes.ipynb").write_text("not a course notebook", "utf-8")
    readme = tmp_path / "README.md"             # the README beside the notebooks' folder
    readme.write_text("# A course\n\n## Course map\n\n<!-- course map: old -->\n| 01 | gone |\n"
                      "<!-- end of the course map -->\n\nText after it.\n", "utf-8")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, str(TOOL), "--notebooks", str(course), *args],
            capture_output=True, text=True,
        )

    assert run("--check").returncode == 1
    assert run().returncode == 0
    first = {p.name: p.read_bytes() for p in course.glob("*.ipynb")}
    assert run("--check").returncode == 0, "second run would still change files"
    assert run().returncode == 0
    assert {p.name: p.read_bytes() for p in course.glob("*.ipynb")} == first

    table = readme.read_text("utf-8")
    assert "| 00 | [Index](" in table and "| 03 | [Third](" in table and "gone" not in table
    assert table.endswith("<!-- end of the course map -->\n\nText after it.\n")

    index = json.loads((course / "00-index.ipynb").read_text("utf-8"))
    assert _generated(index) == ["nav-top", None, "course-map", "nav-bottom"]
    course_map = "".join(index["cells"][2]["source"])
    assert "[First \\[one\\]](01-first.ipynb)" in course_map
    assert "[Third](03-third.ipynb)" in course_map

    middle = json.loads((course / "01-first.ipynb").read_text("utf-8"))
    assert _generated(middle) == ["nav-top", None, "nav-bottom"]
    assert "id" not in middle["cells"][0]  # nbformat 4.4 has no cell ids
    # the course map goes by its own title, once: no "prev" link beside its link
    assert "".join(middle["cells"][0]["source"]) == (
        "[Index](00-index.ipynb) | [Third >](03-third.ipynb)"
    )
    last = json.loads((course / "03-third.ipynb").read_text("utf-8"))
    assert [c.get("id") for c in last["cells"]] == [
        "evalkit-nav-top", "title", "evalkit-nav-bottom"
    ]
    assert "".join(last["cells"][-1]["source"]) == (
        "[< First \\[one\\]](01-first.ipynb) | [Index](00-index.ipynb)"
    )
    # what a maintainer must know is in the map's metadata; the text a reader sees says nothing of it
    assert "make index" in index["cells"][2]["metadata"]["evalkit"]["note"]
    for nb in (index, middle, last):
        assert not any("make index" in "".join(cell["source"]) for cell in nb["cells"])


def test_committed_notebooks_carry_no_timestamp_version_or_address():
    import re

    stamp = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}")
    address = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert "version" not in nb["metadata"].get("language_info", {}), path.name
        for i, cell in enumerate(nb["cells"]):
            assert "execution" not in cell.get("metadata", {}), (path.name, i)
            for out in cell.get("outputs", []):
                text = "".join(out.get("text", "")) + "".join(
                    "".join(v) for k, v in out.get("data", {}).items() if k.startswith("text/"))
                assert not stamp.search(text), (path.name, i, stamp.search(text).group())
                assert not address.search(text), (path.name, i, address.search(text).group())


def test_the_tool_strips_run_timestamps(tmp_path):
    sys.path.insert(0, str(TOOL.parent))
    import make_index

    cell = {"cell_type": "code", "metadata": {"execution": {"iopub.status.idle": "2026"},
                                              "tags": ["x"]}, "source": [], "outputs": []}
    nb = {"cells": [cell], "metadata": {"language_info": {"name": "python",
                                                          "version": "3.11.7"}}}
    new = make_index.update_notebook(nb, None, None, None)
    assert new["cells"][1]["metadata"] == {"tags": ["x"]}
    assert new["metadata"]["language_info"] == {"name": "python"}
    assert nb["metadata"]["language_info"]["version"] == "3.11.7"    # the input is untouched
