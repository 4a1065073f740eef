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



# -- one vocabulary: the table in evalkit's docstring, checked against every signature ---------

#: Modules that follow Spark rather than scikit-learn in their defaults and in ``k``.
SPARK_MIRRORS = ("evalkit.mllib", "evalkit.spark")


def vocabulary():
    """The table of evalkit's docstring: word -> default (a Python value, or None when per function),
    and the retired words -> the word that replaced them."""
    import ast
    import re

    import evalkit

    doc = evalkit.__doc__
    lines = doc.split("One vocabulary", 1)[1].splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    last_column = lines[rules[0]].rindex(" ") + 1  # where the default column starts
    words = {}
    for line in lines[rules[1] + 1:rules[2]]:
        if line[:1].strip():
            word, default = line.split()[0], line[last_column:].strip()
            try:
                words[word] = ast.literal_eval(default)
            except (ValueError, SyntaxError):
                words[word] = None  # "(per function)" / "(required)"
    retired = dict(re.findall(r"``(\w+)``(?: and ``\w+``)? \(``(\w+)``", doc))
    retired.update(re.findall(r"and ``(\w+)`` \(``(\w+)``", doc))
    for old, new in re.findall(r"``(\w+)`` and ``\w+`` \(``(\w+)``, ``\w+``\)", doc):
        retired[old] = new
    return words, retired


def public_callables():
    """(qualified name, module, callable) of every public function and method the pin lists,
    and of evalkit.spark's functions when pyspark is installed."""
    import evalkit
    import evalkit.plot
    import evalkit.widgets

    found = []

    def add(qualname, obj):
        if inspect.isclass(obj):
            if issubclass(obj, BaseException):
                return
            found.append((qualname, obj.__module__, obj))
            for name, member in vars(obj).items():
                if not name.startswith("_") and inspect.isfunction(getattr(member, "__func__", member)):
                    found.append((f"{qualname}.{name}", obj.__module__, getattr(member, "__func__", member)))
        elif inspect.isfunction(obj):
            found.append((qualname, obj.__module__, obj))

    for name in evalkit.__all__:
        add(f"evalkit.{name}", getattr(evalkit, name))
    for name, obj in vars(evalkit.plot).items():
        if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == "evalkit.plot":
            add(f"evalkit.plot.{name}", obj)
    for name in evalkit.widgets.__all__:
        add(f"evalkit.widgets.{name}", getattr(evalkit.widgets, name))
    try:
        import evalkit.spark as eks
    except ImportError:  # pragma: no cover - pyspark is in the test extra
        eks = None
    if eks is not None:
        for name, obj in vars(eks).items():
            if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__.startswith("evalkit.spark"):
                add(f"evalkit.spark.{name}", obj)
    return found


def test_vocabulary_table_parses():
    words, retired = vocabulary()
    assert {"convention", "zero_division", "ties", "zero_weight", "k", "log_base", "y_proba",
            "per_user", "output_dict"} <= set(words)
    assert words["zero_division"] == "warn" and words["ties"] == "last" and words["zero_weight"] == "drop"
    assert retired["empty"] == "zero_division" and retired["first_point"] == "convention"
    assert retired["per_group"] == "per_user" and retired["output"] == "output_dict"


def test_no_signature_uses_a_retired_word():
    words, retired = vocabulary()
    bad = []
    for qualname, module, fn in public_callables():
        for name in inspect.signature(fn).parameters:
            if name in retired and not (name == "y_prob" and qualname.endswith("calibration_curve")):
                bad.append(f"{qualname}: {name} (say {retired[name]})")
    assert not bad, "retired words in public signatures:\n  " + "\n  ".join(bad)


def test_every_vocabulary_word_has_its_one_default():
    words, _ = vocabulary()
    bad = []
    for qualname, module, fn in public_callables():
        if module.startswith(SPARK_MIRRORS):
            continue
        params = inspect.signature(fn).parameters
        for name, param in params.items():
            if words.get(name) is None or param.default is inspect.Parameter.empty:
                continue
            if param.default is None and "convention" in params:
                continue  # None: the value of the function's convention (a library's preset)
            if param.default != words[name]:
                bad.append(f"{qualname}: {name}={param.default!r} (the table says {words[name]!r})")
    assert not bad, "defaults that differ from the vocabulary table:\n  " + "\n  ".join(bad)


def test_k_is_positional_exactly_after_ranked_lists():
    bad = []
    for qualname, module, fn in public_callables():
        if module.startswith(SPARK_MIRRORS):
            continue  # PySpark's own methods: precisionAt(k), ndcgAt(k)
        params = list(inspect.signature(fn).parameters.values())
        names = [p.name for p in params]
        if "k" not in names:
            continue
        k = params[names.index("k")]
        after_lists = names[:2] == ["ranked", "relevant"]
        if after_lists and (names.index("k") != 2 or k.kind is not k.POSITIONAL_OR_KEYWORD):
            bad.append(f"{qualname}: k must be the third, positional parameter")
        method_of_k = names[:2] == ["self", "k"]  # a counts object's cut-off: hits.within(k)
        if not after_lists and not method_of_k and k.kind is not k.KEYWORD_ONLY:
            bad.append(f"{qualname}: k must be keyword-only")
    assert not bad, "\n".join(bad)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: {REGENERATE}")
    PIN.write_text("\n".join(api_lines()) + "\n", encoding="utf-8")
    print(f"wrote {PIN} ({len(api_lines())} lines)")
