"""The public API, pinned: every public name and its signature, against tests/api.txt.

A move or rename must not silently drop a public name or change a signature.
The pin lists every name in ``evalkit.__all__``, the public functions of
``evalkit.plot`` and everything in ``evalkit.widgets.__all__``, each with its
``inspect.signature``; for a class, its public methods and properties too.

After an intended change (a new metric, a new keyword), regenerate the pin
from the repository root and commit it with the change:

    PYTHONPATH=$PWD python tests/test_api.py --write
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

PIN = Path(__file__).with_name("api.txt")
REGENERATE = "PYTHONPATH=$PWD python tests/test_api.py --write"


def _describe(qualname, obj):
    """The pin lines of one public object."""
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return [f"{qualname} <exception {', '.join(b.__name__ for b in obj.__bases__)}>"]
        lines = [f"{qualname}{inspect.signature(obj)} <class>"]
        for name, member in sorted(vars(obj).items()):
            if name.startswith("_"):
                continue
            if isinstance(member, property):
                lines.append(f"{qualname}.{name} <property>")
            elif isinstance(member, (staticmethod, classmethod)):
                kind = type(member).__name__
                lines.append(f"{qualname}.{name}{inspect.signature(member.__func__)} <{kind}>")
            elif callable(member):
                lines.append(f"{qualname}.{name}{inspect.signature(member)}")
            else:
                lines.append(f"{qualname}.{name} = {member!r}")
        return lines
    if callable(obj):
        return [f"{qualname}{inspect.signature(obj)}"]
    return [f"{qualname} = {obj!r}"]


def api_lines():
    """Every pin line, sorted: evalkit.__all__, evalkit.plot's functions, evalkit.widgets.__all__."""
    import evalkit
    import evalkit.plot
    import evalkit.widgets

    lines = []
    for name in evalkit.__all__:
        lines += _describe(f"evalkit.{name}", getattr(evalkit, name))
    plot_names = getattr(evalkit.plot, "__all__", None) or [
        n for n, v in vars(evalkit.plot).items()
        if not n.startswith("_") and inspect.isfunction(v) and v.__module__ == "evalkit.plot"]
    for name in plot_names:
        lines += _describe(f"evalkit.plot.{name}", getattr(evalkit.plot, name))
    for name in evalkit.widgets.__all__:
        lines += _describe(f"evalkit.widgets.{name}", getattr(evalkit.widgets, name))
    return sorted(lines)


def test_public_api_matches_the_pin():
    assert PIN.exists(), f"{PIN} is missing; create it with: {REGENERATE}"
    pinned = [line for line in PIN.read_text(encoding="utf-8").splitlines() if line]
    now = api_lines()
    missing = sorted(set(pinned) - set(now))
    added = sorted(set(now) - set(pinned))
    assert not missing and not added, (
        "the public API differs from tests/api.txt.\n"
        + "".join(f"  - pinned but gone or changed: {line}\n" for line in missing)
        + "".join(f"  + new or changed:            {line}\n" for line in added)
        + "A public name must not disappear by accident. If the change is intended, "
        f"regenerate the pin from the repository root and commit it:\n    {REGENERATE}")


def test_pin_is_sorted_and_has_no_duplicates():
    pinned = [line for line in PIN.read_text(encoding="utf-8").splitlines() if line]
    assert pinned == sorted(set(pinned)), f"tests/api.txt is not in canonical form; run {REGENERATE}"


def test_every_name_in_all_exists():
    import evalkit
    import evalkit.widgets

    for module in (evalkit, evalkit.widgets):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.__all__ lists {name!r} but it is missing"
        assert len(set(module.__all__)) == len(module.__all__), f"{module.__name__}.__all__ repeats a name"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {REGENERATE}")
    PIN.write_text("\n".join(api_lines()) + "\n", encoding="utf-8")
    print(f"wrote {PIN} ({len(api_lines())} lines)")
