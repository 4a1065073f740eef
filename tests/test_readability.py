"""The library reads plainly: the figures of issue 33's review held as goals.

ruff's complexity budget does not see conditional expressions or boolean operators, so these
figures are counted from the syntax tree (tests/_readability.py, which prints them). Lines may
grow; the goals are about how dense a line is, not how many there are.
"""

from __future__ import annotations

import textwrap

import pytest
from _readability import LONG_FUNCTION, Figures, library_files, measure

MAX_CONDITIONALS_PER_1000 = 15.0
MAX_CHARACTERS_PER_LINE = 42.0
MAX_LONG_FUNCTIONS = 5


@pytest.fixture(scope="module")
def figures() -> Figures:
    return measure(library_files())


def test_the_scan_reads_the_whole_library(figures):
    assert len(library_files()) > 40
    assert figures.code_lines > 5000


def test_few_conditional_expressions_and_none_chained(figures):
    assert figures.conditionals_per_1000 <= MAX_CONDITIONALS_PER_1000, (
        "write the branch as an if statement: " + ", ".join(figures.conditional_expressions))
    assert figures.chained == [], "a conditional expression inside another: write if/elif blocks"


def test_lines_are_short_on_average(figures):
    assert figures.characters_per_line <= MAX_CHARACTERS_PER_LINE


def test_few_long_functions(figures):
    assert len(figures.long_functions) <= MAX_LONG_FUNCTIONS, sorted(figures.long_functions)


def test_no_keyword_arguments_from_locals(figures):
    assert figures.locals_calls == []


def test_the_scan_sees_what_it_counts(tmp_path):
    """Each figure moves on a file written to move it (a scan that cannot fail holds nothing)."""
    body = "\n".join(f"    x = {i}" for i in range(LONG_FUNCTION + 1))
    source = textwrap.dedent('''
        """A docstring is not code."""

        def f(a, b):
            """Nor is this one."""
            # nor a comment
            c = a if b else (b if a else 0)
            return g(**locals())
        ''') + "\n\ndef long():\n" + body + "\n"
    path = tmp_path / "sample.py"
    path.write_text(source, encoding="utf-8")
    found = measure([path])
    assert len(found.conditional_expressions) == 2
    assert len(found.chained) == 1
    assert len(found.locals_calls) == 1
    assert [size for size, _ in found.long_functions] == [LONG_FUNCTION + 2]
    assert found.code_lines == 3 + (LONG_FUNCTION + 2)
