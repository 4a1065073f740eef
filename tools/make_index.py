#!/usr/bin/env python3
"""Generate the course map and the prev/next navigation of the notebooks.

In the spirit of the PythonDataScienceHandbook's ``generate_contents.py``
and ``add_navigation.py``, in one idempotent tool:

* every ``notebooks/NN-*.ipynb`` (sorted; ``00-index.ipynb`` is the course
  map itself) gets a navigation cell as its first and as its last cell::

      [< prev title](prev.ipynb) | [Course map](00-index.ipynb) | [next title >](next.ipynb)

  where the middle link is named by ``00-index.ipynb``'s own title (its one
  name, "Course map"), and the notebook after it has no "prev" link: the
  middle link is that link already;

* ``00-index.ipynb`` gets a generated "The lessons" cell listing every
  notebook with a link and its title;

* the repository's ``README.md`` gets the same list as a table, between the
  two markers ``<!-- course map: ... -->`` and ``<!-- end of the course map -->``
  (a README without them is left alone), so that the README cannot leave a
  notebook out.

* what a run leaves behind that is not content goes: the cells' execution
  timestamps (``metadata.execution``) and the Python version in the
  notebook's ``language_info``, so a committed notebook carries no
  timestamp or version.

Generated cells are markdown cells marked in their metadata as
``{"evalkit": {"generated": ROLE}}`` with a stable id derived from ROLE (the
course map's also carries ``"note"``: that ``make index`` writes it, told to
maintainers in the metadata, which readers do not see, not in the text they read);
re-running replaces them, never duplicates them.  Titles come from each
notebook's first markdown heading outside generated cells.  Everything else
in a notebook is left as it is, and a notebook whose content would not change
is not rewritten at all.  Changed notebooks are written the way Jupyter
writes them (``indent=1``, ``ensure_ascii=False``, sorted keys, a trailing
newline), so saving in JupyterLab afterwards changes no bytes.

Usage::

    python tools/make_index.py            # write changes (make index)
    python tools/make_index.py --check    # exit 1 and list stale notebooks

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
INDEX_NAME = "00-index.ipynb"
NOTEBOOK_PATTERN = re.compile(r"^(\d\d)-[^/]+\.ipynb$")

META_KEY = "evalkit"
NAV_TOP = "nav-top"
NAV_BOTTOM = "nav-bottom"
COURSE_MAP = "course-map"
README_START = ("<!-- course map: written by `make index` (tools/make_index.py) from the "
                "notebooks' titles; edit the notebooks, not this table -->")
README_END = "<!-- end of the course map -->"
ROLES = (NAV_TOP, NAV_BOTTOM, COURSE_MAP)
#: what a generated cell's metadata tells a maintainer (readers never see metadata)
NOTE = ("written by `make index` (tools/make_index.py) from the notebooks' titles: "
        "edit the notebooks, not this cell")

HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


# --------------------------------------------------------------------------
# notebook helpers


def source_text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def split_source(text: str) -> list[str]:
    """Split text into the list-of-lines form Jupyter saves."""
    return text.splitlines(keepends=True)


def role_of(cell: dict) -> str | None:
    meta = cell.get("metadata", {}).get(META_KEY)
    if isinstance(meta, dict):
        role = meta.get("generated")
        if role in ROLES:
            return role
    return None


def title_of(nb: dict, fallback: str) -> str:
    """The text of the first markdown heading outside generated cells."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown" or role_of(cell):
            continue
        in_fence = False
        for line in source_text(cell).splitlines():
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            m = None if in_fence else HEADING.match(line)
            if m and m.group(1):
                return m.group(1)
    return fallback


def link_text(title: str) -> str:
    """Make a title safe inside the [...] of a markdown link."""
    return title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def wants_ids(nb: dict) -> bool:
    """Cell ids exist from nbformat 4.5 on; older notebooks must not have them."""
    return (nb.get("nbformat", 4), nb.get("nbformat_minor", 0)) >= (4, 5)


def make_cell(nb: dict, role: str, text: str, existing: list[dict]) -> dict:
    """A generated markdown cell for ROLE; reuse an equivalent existing one."""
    meta = {"generated": role}
    if role == COURSE_MAP:  # the one generated cell a reader might edit by hand
        meta["note"] = NOTE
    cell = {
        "cell_type": "markdown",
        "metadata": {META_KEY: meta},
        "source": split_source(text),
    }
    if wants_ids(nb):
        cell["id"] = f"evalkit-{role}"
    for old in existing:
        if (
            role_of(old) == role
            and source_text(old) == text
            and old.get("id") == cell.get("id")
            and old.get("metadata") == cell["metadata"]
            and set(old) == set(cell)
        ):
            return old  # same content: keep the object (and its formatting)
    return cell


# --------------------------------------------------------------------------
# the content of the generated cells


def nav_text(prev: tuple[str, str] | None, next_: tuple[str, str] | None,
             map_title: str) -> str:
    """The navigation line; ``map_title`` is the course map's title (its one name)."""
    parts = []
    if prev and prev[0] != INDEX_NAME:  # the course map's own link follows: no second one
        parts.append(f"[< {link_text(prev[1])}]({prev[0]})")
    parts.append(f"[{link_text(map_title)}]({INDEX_NAME})")
    if next_:
        parts.append(f"[{link_text(next_[1])} >]({next_[0]})")
    return " | ".join(parts)


def course_map_text(entries: list[tuple[str, str]]) -> str:
    lines = ["## The lessons", ""]
    lessons = [(name, title) for name, title in entries if name != INDEX_NAME]
    for name, title in lessons:
        lines.append(f"- **{name[:2]}** [{link_text(title)}]({name})")
    if not lessons:
        lines.append("*No lessons yet.*")
    return "\n".join(lines)


def readme_table(entries: list[tuple[str, str]], folder: str) -> str:
    """The README's course map: one row per notebook, its number, its title linked."""
    lines = ["| # | Notebook |", "| --- | --- |"]
    for name, title in entries:
        lines.append(f"| {name[:2]} | [{link_text(title)}]({folder}/{name}) |")
    return "\n".join(lines)


def readme_update(readme: Path, entries: list[tuple[str, str]], folder: str) -> str | None:
    """README.md with its course map rewritten, or None when it has no markers or is current."""
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(README_START[:README_START.index(":") + 1]), text.find(README_END)
    if start < 0 or end < start:
        return None
    block = f"{README_START}\n\n{readme_table(entries, folder)}\n\n"
    new = text[:start] + block + text[end:]
    if new == text:
        return None
    return new


# --------------------------------------------------------------------------
# updating notebooks


def update_notebook(
    nb: dict,
    prev: tuple[str, str] | None,
    next_: tuple[str, str] | None,
    course_map: str | None,
    map_title: str = "Course map",
) -> dict:
    """Return a copy of NB with its generated cells brought up to date.

    ``map_title`` names the course map's link in the navigation lines (its title).
    """
    new = copy.copy(nb)
    cells = nb.get("cells", [])
    old_generated = [c for c in cells if role_of(c)]

    body: list[dict] = []
    map_position = None
    for cell in cells:
        role = role_of(cell)
        if role == COURSE_MAP and map_position is None:
            map_position = len(body)
        if role is None:
            body.append(cell)

    if course_map is not None:
        if map_position is None:
            # A new course map goes right after the index's opening cell.
            map_position = 1 if body else 0
        map_cell = make_cell(nb, COURSE_MAP, course_map, old_generated)
        body.insert(map_position, map_cell)

    text = nav_text(prev, next_, map_title)
    top = make_cell(nb, NAV_TOP, text, old_generated)
    bottom = make_cell(nb, NAV_BOTTOM, text, old_generated)
    new["cells"] = [strip_volatile(c) for c in (top, *body, bottom)]
    info = nb.get("metadata", {}).get("language_info", {})
    if "version" in info:      # the Python version of the machine that ran it
        new["metadata"] = copy.deepcopy(nb["metadata"])
        del new["metadata"]["language_info"]["version"]
    return new


def strip_volatile(cell: dict) -> dict:
    """CELL without the run's timestamps (``metadata.execution``, written by nbconvert)."""
    if "execution" not in cell.get("metadata", {}):
        return cell
    cell = copy.copy(cell)
    cell["metadata"] = {k: v for k, v in cell["metadata"].items() if k != "execution"}
    return cell


def dumps(nb: dict) -> str:
    """Serialise like Jupyter (nbformat.writes) does."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def course_notebooks(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.glob("*.ipynb") if NOTEBOOK_PATTERN.match(p.name)
    )


def plan(folder: Path) -> dict[Path, dict | str]:
    """Map every file whose content would change to its new content.

    Course notebooks map to their notebook (a dict); the README beside the
    notebooks' folder maps to its new text.
    """
    paths = course_notebooks(folder)
    if not any(p.name == INDEX_NAME for p in paths):
        raise SystemExit(f"{folder / INDEX_NAME} is missing")
    notebooks = {}
    for path in paths:
        with path.open(encoding="utf-8") as f:
            notebooks[path] = json.load(f)
    entries = [(p.name, title_of(notebooks[p], p.stem)) for p in paths]
    course_map = course_map_text(entries)
    map_title = dict(entries)[INDEX_NAME]

    changes = {}
    for i, path in enumerate(paths):
        nb = notebooks[path]
        prev = entries[i - 1] if i > 0 else None
        next_ = entries[i + 1] if i + 1 < len(entries) else None
        new = update_notebook(
            nb, prev, next_, course_map if path.name == INDEX_NAME else None, map_title
        )
        if new != nb:
            changes[path] = new
    readme = folder.parent / "README.md"
    text = readme_update(readme, entries, folder.name)
    if text is not None:
        changes[readme] = text
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 and list the notebooks that would change",
    )
    parser.add_argument(
        "--notebooks",
        type=Path,
        default=NOTEBOOKS,
        help="folder of the course notebooks (default: %(default)s)",
    )
    args = parser.parse_args(argv)

    changes = plan(args.notebooks)
    names = [str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)
             for p in changes]
    if args.check:
        if changes:
            print("Course map / navigation / README out of date; run `make index`:")
            for name in names:
                print(f"  {name}")
            return 1
        print("Course map and navigation are up to date.")
        return 0
    for path, content in changes.items():
        if isinstance(content, str):  # the README
            path.write_text(content, encoding="utf-8")
        else:
            path.write_text(dumps(content), encoding="utf-8")
    for name in names:
        print(f"updated {name}")
    if not changes:
        print("Course map and navigation are up to date.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
