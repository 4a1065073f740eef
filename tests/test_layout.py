"""The package's shape: modules import downward only (no circle), the private
core imports no public module, and the public modules are where the course
and the docs say they are."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "evalkit"

PUBLIC = ["classification", "curves", "report", "topk", "regression", "ranking", "uncertainty", "compare",
          "calibration", "mllib", "spark", "plot", "widgets", "course"]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


# The private core: every module or package whose name starts with "_" (validation, counts
# and hits, the sweep, the compute steps from counts, the report layout), and the exceptions.
CORE = {m for m in map(module_name, PACKAGE.rglob("*.py"))
        if "." in m and m.split(".")[1].startswith("_")} | {"evalkit.exceptions"}


def import_target(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path) -> set[str]:
    """The evalkit modules a file imports, at any depth of the file (lazy imports too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "evalkit"}
        elif isinstance(node, ast.ImportFrom):
            target = import_target(node, package)
            if target.split(".")[0] != "evalkit":
                continue
            for alias in node.names:  # `from . import x` imports the module x
                sub = f"{target}.{alias.name}"
                found.add(sub if (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists()
                          or (PACKAGE.parent / Path(*sub.split(".")) / "__init__.py").exists()
                          else target)
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def test_no_module_imports_a_module_that_imports_it_back():
    # the top-level evalkit re-exports everything: leave it out, nothing below may import it
    g = {m: {t for t in deps if t != "evalkit"} for m, deps in graph().items() if m != "evalkit"}
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(m, path):
        state[m] = 1
        for t in sorted(g.get(m, ())):
            if state.get(t) == 1:
                cycle.extend(path[path.index(t):] + [t] if t in path else [m, t])
                return True
            if state.get(t) is None and visit(t, path + [t]):
                return True
        state[m] = 2
        return False

    for m in sorted(g):
        if state.get(m) is None and visit(m, [m]):
            break
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_nothing_inside_imports_the_top_level_package():
    # `import evalkit` inside evalkit would make every module depend on every other one
    # (course material -- the exercises, their data -- may use the public API as learners do)
    offenders = sorted(m for m, deps in graph().items()
                       if "evalkit" in deps and not m.startswith("evalkit.course"))
    assert not offenders, f"these modules import the top-level evalkit: {offenders}"


def test_the_private_core_imports_no_public_module():
    g = graph()
    leaks = {m: sorted(d for d in g[m] if d not in CORE) for m in CORE if m in g}
    leaks = {m: d for m, d in leaks.items() if d}
    assert not leaks, f"the core imports upward: {leaks}"


@pytest.mark.parametrize("name", PUBLIC)
def test_public_module_exists(name):
    assert (PACKAGE / f"{name}.py").exists() or (PACKAGE / name / "__init__.py").exists()


def test_curves_mllib_widgets_import_and_old_paths_mean_the_new_things():
    for name in ("evalkit.curves", "evalkit.mllib", "evalkit.widgets"):
        importlib.import_module(name)
    assert not (PACKAGE / "_widgets_ui.py").exists() and not (PACKAGE / "widgets.py").exists()
    ranking = importlib.import_module("evalkit.ranking")      # recommender lists, not ROC/AUC
    assert hasattr(ranking, "ndcg_at_k") and not hasattr(ranking, "roc_curve")
    assert "pyspark" in (PACKAGE / "spark" / "curves.py").read_text("utf-8")  # runs on PySpark


def test_every_warning_goes_through_warn_at_caller():
    """``warnings.warn`` is called only in ``exceptions.warn_at_caller``, which finds the caller."""
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "warn" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "warnings"):
                calls.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert len(calls) == 1 and calls[0].startswith("evalkit/exceptions.py:"), calls


def private_imports_across_public_modules():
    """(importer, module, name) for every ``from evalkit.X import _name`` where X is a public
    module other than the importer's own package: what two public modules share lives in the core."""
    found = []
    public = {module_name(p) for p in PACKAGE.rglob("*.py")} - CORE
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text("utf-8"))
        modules = {}
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = import_target(node, package)
            if target.split(".")[0] != "evalkit" or target in CORE:
                continue
            for a in node.names:
                full = f"{target}.{a.name}" if target != "evalkit" else f"evalkit.{a.name}"
                if full in public and full.split(".")[:2] != name.split(".")[:2]:
                    modules[a.asname or a.name] = full  # `from . import curves as _curves`
                elif (target != "evalkit" and target.split(".")[:2] != name.split(".")[:2]
                      and a.name.startswith("_") and not a.name.startswith("__")):
                    found.append((name, target, a.name))
        for node in ast.walk(tree):  # `_curves._sorted_label_keys` through a module alias
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in modules and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                found.append((name, modules[node.value.id], node.attr))
    return found


def test_no_public_module_imports_another_public_modules_private_names():
    leaks = private_imports_across_public_modules()
    assert not leaks, "private names imported across public modules (move them to the core): " + \
        ", ".join(f"{a} imports {m}.{n}" for a, m, n in leaks)


def _module_file_exists(dotted: str) -> bool:
    path = PACKAGE.parent / Path(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def underscore_names_across_modules():
    """{defining module: [(importer, name)]} for every ``_name`` one module takes from another.

    Both ways count: ``from evalkit.X import _name`` and, through an imported module,
    ``X._name``. Importing a private *module* (``from . import _curves``) is fine: the rule is
    that a helper another module uses is a public name of its (private) module.
    """
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        package = importer
        if path.name != "__init__.py":
            package = importer.rpartition(".")[0]
        tree = ast.parse(path.read_text("utf-8"))
        aliases = {}  # a name bound to an evalkit module -> that module
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "evalkit" and alias.asname:
                        aliases[alias.asname] = alias.name
                continue
            if not isinstance(node, ast.ImportFrom):
                continue
            target = import_target(node, package)
            if target.split(".")[0] != "evalkit":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if _module_file_exists(submodule):
                    aliases[alias.asname or alias.name] = submodule
                elif _is_private(alias.name) and target != importer:
                    found.setdefault(target, []).append((importer, alias.name))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
                continue
            module = aliases.get(node.value.id)
            if module is not None and module != importer and _is_private(node.attr):
                if not _module_file_exists(f"{module}.{node.attr}"):
                    found.setdefault(module, []).append((importer, node.attr))
    return found


def _modules():
    return sorted({module_name(p) for p in PACKAGE.rglob("*.py")})


@pytest.fixture(scope="module")
def underscore_crossings():
    return underscore_names_across_modules()  # one scan for every module's case


@pytest.mark.parametrize("module", _modules())
def test_no_module_imports_an_underscore_name_from_another(module, underscore_crossings):
    """A helper other modules use is a public name of its private module (``_counts.select``)."""
    crossings = underscore_crossings.get(module, [])
    assert not crossings, f"{module}'s underscore names used elsewhere: " + ", ".join(
        f"{importer} uses {name}" for importer, name in crossings)


def test_the_underscore_scan_finds_a_crossing(tmp_path, monkeypatch):
    """The scan is not vacuous: a module that takes ``_counts._hidden`` both ways is found."""
    package = tmp_path / "evalkit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_counts.py").write_text("def _hidden():\n    pass\n")
    (package / "user.py").write_text("from ._counts import _hidden\nfrom . import _counts\n"
                                     "_counts._hidden()\n")
    monkeypatch.setitem(globals(), "PACKAGE", package)
    found = underscore_names_across_modules()
    assert found == {"evalkit._counts": [("evalkit.user", "_hidden"), ("evalkit.user", "_hidden")]}


def test_no_all_lists_an_underscore_name():
    """``__all__`` names what other modules may import: never a ``_``-name (issue #33)."""
    listed = {"evalkit._validation": importlib.import_module("evalkit._validation").__all__}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.parse(path.read_text("utf-8")).body:
            if not isinstance(node, ast.Assign):
                continue
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                try:
                    listed[module_name(path)] = ast.literal_eval(node.value)
                except ValueError:  # a computed list (``[*_a.__all__, ...]``): read at import
                    listed[module_name(path)] = importlib.import_module(module_name(path)).__all__
    assert len(listed) > 10, "no __all__ found: the test would check nothing"
    private = {module: [n for n in names if n.startswith("_")] for module, names in listed.items()}
    assert not {module: names for module, names in private.items() if names}
