"""Run the docstring examples of an installed evalkit with the standard library's doctest.

``tests/test_packaging.py`` runs this file with the Python of a fresh venv that holds
numpy and the evalkit-metrics wheel only: no pytest, no pandas, no matplotlib, no course.
It prints one JSON object (what ran, what failed, what is absent) for the test to check.

    python _doctest_in_venv.py '{"skip_modules": [...], "skip_examples": [...], "absent": [...]}'

The flags are pyproject.toml's ``doctest_optionflags``: ``NORMALIZE_WHITESPACE`` and
pytest's ``NUMBER``, which :class:`NumberChecker` implements (a float written with d
decimals in the expected output matches any float within 10**-d of it).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.metadata
import importlib.util
import io
import json
import re
import sys
from pathlib import Path

NUMBER = doctest.register_optionflag("NUMBER")
FLAGS = doctest.NORMALIZE_WHITESPACE | NUMBER

# A decimal number written with a point or an exponent: 0.75, -1., .5, 1e-06, 2.5E+3.
_FLOAT = re.compile(r"[+-]?(?:\d+\.(?P<f1>\d*)|\.(?P<f2>\d+)|\d+(?=[eE]))(?:[eE](?P<e>[+-]?\d+))?")


def _decimals(match: re.Match) -> int:
    """The precision a written number claims: its digits after the point, less its exponent."""
    digits = len(match.group("f1") or match.group("f2") or "")
    return digits - int(match.group("e") or 0)


class NumberChecker(doctest.OutputChecker):
    """doctest's checker plus the ``NUMBER`` flag: numbers match to the precision written."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        if not optionflags & NUMBER:
            return False
        return super().check_output(want, _as_written(want, got), optionflags)


def _as_written(want: str, got: str) -> str:
    """``got`` with each number replaced by ``want``'s when they agree to want's precision."""
    wanted = list(_FLOAT.finditer(want))
    found = list(_FLOAT.finditer(got))
    if len(wanted) != len(found):
        return got
    pieces, end = [], 0
    for w, g in zip(wanted, found):
        tolerance = 10.0 ** -_decimals(w)
        close = abs(float(w.group()) - float(g.group())) <= max(tolerance, 1e-6 * abs(float(w.group())))
        pieces += [got[end:g.start()], w.group() if close else g.group()]
        end = g.end()
    return "".join(pieces) + got[end:]


def module_names(package_dir: Path) -> list[str]:
    """Every module of the installed package, found from its files (nothing is imported)."""
    names = []
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def run(skip_modules: set[str], skip_examples: set[str], absent: list[str]) -> dict:
    import evalkit

    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(checker=NumberChecker(), optionflags=FLAGS)
    report = {"modules": [], "examples": 0, "failures": {}, "skipped": []}
    for name in module_names(Path(evalkit.__file__).parent):
        if name in skip_modules:
            report["skipped"].append(name)
            continue
        report["modules"].append(name)
        for test in finder.find(importlib.import_module(name)):
            if test.name in skip_examples:
                report["skipped"].append(test.name)
                continue
            out = io.StringIO()
            result = runner.run(test, out=out.write)
            report["examples"] += result.attempted
            if result.failed:
                report["failures"][test.name] = out.getvalue()
    report["version"] = evalkit.__version__
    report["metadata_version"] = importlib.metadata.version("evalkit-metrics")
    report["evalkit_file"] = evalkit.__file__
    # what should not be there: installed (findable) at all, or imported by the examples
    report["present"] = sorted(m for m in absent if importlib.util.find_spec(m) is not None)
    report["imported"] = sorted(set(sys.modules) & set(absent))
    return report


if __name__ == "__main__":
    args = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    skip_modules, skip_examples = set(args.get("skip_modules", ())), set(args.get("skip_examples", ()))
    print(json.dumps(run(skip_modules, skip_examples, args.get("absent", []))))
