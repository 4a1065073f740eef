"""Every notebook's code sits under the heading whose text announces it.

A markdown paragraph that ends with a colon announces what follows it. If a heading comes next,
the announced code lies in the next section, where a reader does not look for it (notebooks 10
and 11 had such cells). Two rules over every notebook:

- inside a markdown cell, a paragraph ending with ":" is not followed directly by a heading;
- a markdown cell ending with ":" is followed by a code cell before any heading.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("[0-9][0-9]-*.ipynb"))
HEADING = re.compile(r"^#{1,6} ")


def _cells(path):
    return [(c["cell_type"], "".join(c["source"])) for c in json.loads(path.read_text())["cells"]]


def _lines(text):
    """The cell's non-empty lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.strip():
            lines.append(line.rstrip())
    return lines


def announcements_cut_by_a_heading(cells):
    """(cell index, the announcing line) for every colon whose code lies beyond a heading."""
    found = []
    for i, (kind, text) in enumerate(cells):
        if kind != "markdown":
            continue
        lines = _lines(text)
        found += [(i, a) for a, b in zip(lines, lines[1:]) if a.endswith(":") and HEADING.match(b)]
        if not lines or not lines[-1].endswith(":") or HEADING.match(lines[-1]):
            continue
        for kind_after, text_after in cells[i + 1:]:
            if kind_after == "code":
                break
            if any(HEADING.match(line) for line in _lines(text_after)):
                found.append((i, lines[-1]))
                break
        else:
            found.append((i, lines[-1]))
    return found


def test_rules_catch_a_cut_announcement():
    cut_inside = [("markdown", "The counts:\n\n## 2. Next"), ("code", "print(1)")]
    cut_across = [("markdown", "The counts:"), ("markdown", "## 2. Next"), ("code", "print(1)")]
    fine = [("markdown", "The counts:"), ("markdown", "(one line more)"), ("code", "print(1)"),
            ("markdown", "Did:\n\n- a list\n\n## 2. Next\n\nThe code:"), ("code", "print(2)")]
    assert announcements_cut_by_a_heading(cut_inside) == [(0, "The counts:")]
    assert announcements_cut_by_a_heading(cut_across) == [(0, "The counts:")]
    assert announcements_cut_by_a_heading(fine) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_sits_under_the_heading_that_announces_it(path):
    assert announcements_cut_by_a_heading(_cells(path)) == []
