"""How dense the library reads: the figures an outside review measured, counted one way.

    python tests/_readability.py [PATH ...]      (default: evalkit/, the course left out)

A *code line* is a line that holds a token other than a comment, and is not part of a
docstring (blank lines, comments and docstrings are not code). For the files given it prints:

- the code lines, and the conditional expressions (``a if c else b``) per 1,000 of them;
- how many conditional expressions are chained (one holds another as a branch);
- the mean characters of a code line, leading and trailing blanks left out;
- the functions of more than 40 code lines;
- the calls that pass ``**locals()``.

mccabe (ruff's complexity budget) counts ``if`` statements but not conditional expressions
or boolean operators, so a budget on it alone pushes branches into expressions; these
figures see them. tests/test_readability.py holds the library to its goals.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "evalkit"
LONG_FUNCTION = 40
SKIPPED_TOKENS = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                  tokenize.DEDENT, tokenize.ENDMARKER}


def library_files() -> list[Path]:
    """The library's modules: evalkit/ without the course."""
    files = []
    for path in sorted(LIBRARY.rglob("*.py")):
        if "course" not in path.relative_to(LIBRARY).parts:
            files.append(path)
    return files


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if not isinstance(node, kinds) or not node.body:
            continue
        first = node.body[0]
        is_string = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
        if is_string and isinstance(first.value.value, str):
            lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def code_lines(source: str, tree: ast.AST) -> list[int]:
    """The numbers of the code lines of ``source`` (1-based, sorted)."""
    docstrings = _docstring_lines(tree)
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in SKIPPED_TOKENS:
            continue
        for number in range(token.start[0], token.end[0] + 1):
            if number not in docstrings:
                lines.add(number)
    return sorted(lines)


def _holds_locals(node: ast.AST) -> bool:
    """True when a ``locals()`` call is part of ``node`` (``**dict(locals(), x=1)`` too)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
            if inner.func.id == "locals":
                return True
    return False


@dataclass
class Figures:
    """The counts of a set of files; the figures are properties."""

    code_lines: int = 0
    characters: int = 0
    conditional_expressions: list = field(default_factory=list)  # "path:line"
    chained: list = field(default_factory=list)                  # "path:line"
    long_functions: list = field(default_factory=list)           # (code lines, "path:name")
    locals_calls: list = field(default_factory=list)             # "path:line"

    @property
    def conditionals_per_1000(self) -> float:
        if self.code_lines == 0:
            return 0.0
        return 1000 * len(self.conditional_expressions) / self.code_lines

    @property
    def characters_per_line(self) -> float:
        if self.code_lines == 0:
            return 0.0
        return self.characters / self.code_lines

    def add(self, path: Path) -> None:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        lines = code_lines(source, tree)
        text = source.splitlines()
        name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        self.code_lines += len(lines)
        for number in lines:
            self.characters += len(text[number - 1].strip())
        for node in ast.walk(tree):
            if isinstance(node, ast.IfExp):
                where = f"{name}:{node.lineno}"
                self.conditional_expressions.append(where)
                if isinstance(node.body, ast.IfExp) or isinstance(node.orelse, ast.IfExp):
                    self.chained.append(where)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside = [n for n in lines if node.lineno <= n <= node.end_lineno]
                if len(inside) > LONG_FUNCTION:
                    self.long_functions.append((len(inside), f"{name}:{node.name}"))
            if isinstance(node, ast.Call):
                for keyword in node.keywords:
                    if keyword.arg is None and _holds_locals(keyword.value):
                        self.locals_calls.append(f"{name}:{node.lineno}")
                        break


def measure(paths: list[Path]) -> Figures:
    figures = Figures()
    for path in paths:
        figures.add(path)
    return figures


def _expand(arguments: list[str]) -> list[Path]:
    paths = []
    for argument in arguments:
        path = Path(argument).resolve()
        if path.is_dir():
            paths.extend(sorted(path.rglob("*.py")))
        else:
            paths.append(path)
    return paths


def main(argv: list[str]) -> None:
    paths = _expand(argv) if argv else library_files()
    figures = measure(paths)
    print(f"code lines: {figures.code_lines}")
    print(f"conditional expressions: {len(figures.conditional_expressions)} "
          f"({figures.conditionals_per_1000:.1f} per 1,000 code lines), "
          f"chained: {len(figures.chained)}")
    print(f"mean characters per code line: {figures.characters_per_line:.1f}")
    print(f"functions over {LONG_FUNCTION} code lines: {len(figures.long_functions)}")
    for size, where in sorted(figures.long_functions, reverse=True):
        print(f"  {size:4d}  {where}")
    print(f"**locals() calls: {len(figures.locals_calls)}")


if __name__ == "__main__":
    main(sys.argv[1:])
