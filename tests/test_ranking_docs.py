"""evalkit.ranking's module docs print the conventions table: written from CONVENTIONS, checked.

The docstring is plain text (nothing rewrites it at import). After a change to the presets
(``_PRESETS`` in evalkit/_hit_metrics.py), rewrite the tables from the repository root:

    python tests/test_ranking_docs.py --write
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parent.parent / "evalkit" / "ranking.py"
BEGIN = ".. the conventions tables: written from CONVENTIONS by python tests/test_ranking_docs.py --write"
END = ".. end of the conventions tables"
HALVES = (("evalkit", "trec", "ranx", "spark"), ("sklearn", "torchmetrics", "recbole"))


def _cell(value):
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return str(value)


def _table(conventions, presets):
    """One reST simple table: the options as rows, ``presets`` as columns."""
    options = list(next(iter(conventions.values())))
    rows = [["option", *presets]]
    for option in options:
        rows.append([f"``{option}``", *(_cell(conventions[p][option]) for p in presets)])
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    rule = "  ".join("=" * w for w in widths)
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([rule, lines[0], rule, *lines[1:], rule])


def tables():
    """The text between the markers: the presets in two tables (a line holds at most 100)."""
    from evalkit._hit_metrics import CONVENTIONS

    return "\n\n".join(_table(CONVENTIONS, half) for half in HALVES)


def _between_markers(text):
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    return start, end


def test_the_docstring_tables_are_the_conventions():
    import evalkit

    doc = evalkit.ranking.__doc__
    start, end = _between_markers(doc)
    assert doc[start:end].strip() == tables(), (
        "evalkit/ranking.py's conventions tables differ from CONVENTIONS; rewrite them with:\n"
        "    python tests/test_ranking_docs.py --write")
    assert set(HALVES[0] + HALVES[1]) == set(evalkit.ranking.CONVENTIONS)


def test_the_tables_fit_the_line_length():
    assert max(len(line) for line in tables().splitlines()) <= 100


def test_the_docstring_is_not_rewritten_at_import():
    import evalkit

    source = MODULE.read_text(encoding="utf-8")
    assert evalkit.ranking.__doc__ in source


def write():
    text = MODULE.read_text(encoding="utf-8")
    start, end = _between_markers(text)
    MODULE.write_text(text[:start] + "\n\n" + tables() + "\n\n" + text[end:], encoding="utf-8")
    print(f"wrote the conventions tables into {MODULE}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_ranking_docs.py --write")
    sys.path.insert(0, str(MODULE.parent.parent))
    write()
