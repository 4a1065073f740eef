"""evalkit as a published package: the sdist and the wheel of ``evalkit-metrics``.

The distribution is built the standard way (``python -m build`` into a temporary folder,
``twine check``), its files and metadata are read back, and the wheel is installed into a
fresh venv that holds numpy and nothing else, where every docstring example of the
library runs under the standard library's ``doctest`` (``tests/_doctest_in_venv.py``).
The published library is ``evalkit`` without ``evalkit/course/``; an editable install of
a checkout (``make lab``, ``make test``) still imports the course.

The build needs no network when this Python has the build backend (setuptools, and
``wheel`` for setuptools < 70.1): ``--no-isolation``. Otherwise ``build`` makes its
isolated environment and pip fetches the backend, as ``make venv`` does.
"""

from __future__ import annotations

import ast
import email.parser
import functools
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

import evalkit
from _tools import tool

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
NAME = "evalkit-metrics"
RUNNER = Path(__file__).with_name("_doctest_in_venv.py")

# Docstring examples that need what a numpy-only install does not have, by name.
SKIP_MODULES = {
    "evalkit.spark": "its examples run on a SparkSession (pyspark: the spark extra)",
    "evalkit.plot": "its examples draw with matplotlib (the course extra)",
    "evalkit.widgets.ui": "the widgets are ipywidgets drawn with matplotlib (the course extra)",
    # the package's modules, each the Spark side of a numpy module (tests/test_spark.py runs
    # their examples on a session)
    **{f"evalkit.spark.{name}": "its examples run on a SparkSession (pyspark: the spark extra)"
       for name in ("session", "curves", "classification", "topk", "regression", "ranking",
                    "compare")},
}
SKIP_EXAMPLES = {
    "evalkit.curves.threshold_table": "returns a pandas DataFrame (pandas: the course extra)",
    "evalkit.uncertainty.proportion_ci":
        "its Clopper-Pearson example needs scipy (scipy.special.betaincinv), which no runtime extra has",
}
# Packages a numpy-only install must not have (evalkit.course: the wheel leaves it out).
ABSENT = ("pandas", "matplotlib", "ipywidgets", "pyspark", "pytest", "evalkit.course")

pytestmark = pytest.mark.packaging


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        why = f"{module} is not installed (the test extra has it: pip install -e '.[test]')"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {why}")
        pytest.skip(why)


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result


# the one build of both distributions (make dist, make student-env)
course_dist = tool("course_dist")


@pytest.fixture(scope="module")
def src(tmp_path_factory) -> Path:
    return course_dist.stage_library(tmp_path_factory.mktemp("src") / "evalkit-metrics")


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built by ``python -m build`` from a copy of the checkout."""
    _need("build")
    out = tmp_path_factory.mktemp("dist")
    course_dist.build_library(out, sdist=True)
    sdists, wheels = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in out.iterdir())
    return {"sdist": sdists[0], "wheel": wheels[0]}


def _clean_env() -> dict[str, str]:
    """The environment without anything that would put the checkout on a fresh Python's path."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh venv with numpy only; this Python's pip installs into it (``pip --python``)."""
    home = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", "--without-pip", str(home))
    python = home / "bin" / "python"
    # The numpy this run tests with, so pip finds it in its cache or the configured index.
    _pip_install(python, f"numpy=={np.__version__}")
    return python


def _pip_install(python: Path, *args: str) -> None:
    _run(sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--force-reinstall", *args, env=_clean_env())


def _wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(zf.read(name).decode("utf-8"))


def _library_files() -> set[str]:
    """The checkout's package files the library publishes: every .py but the course's, py.typed."""
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "evalkit").rglob("*.py")
             if "__pycache__" not in p.parts}
    return {f for f in files if not f.startswith("evalkit/course/")} | {"evalkit/py.typed"}


# -- the build -------------------------------------------------------------------------------


def test_twine_check_passes(dist):
    _need("twine")
    _run(sys.executable, "-m", "twine", "check", "--strict", str(dist["sdist"]), str(dist["wheel"]))


def test_wheel_holds_the_library_without_the_course(dist):
    with zipfile.ZipFile(dist["wheel"]) as zf:
        names = set(zf.namelist())
    package = {n for n in names if n.startswith("evalkit/")}
    assert package == _library_files(), (
        f"left out: {sorted(_library_files() - package)}; extra: {sorted(package - _library_files())}")
    licenses = [n for n in names if ".dist-info/" in n and n.endswith("/LICENSE")]
    assert licenses, f"no LICENSE in the wheel's dist-info: {sorted(names)}"


def test_sdist_holds_the_same_library_and_its_license(dist):
    with tarfile.open(dist["sdist"]) as tf:
        names = {m.name.split("/", 1)[1] for m in tf.getmembers() if m.isfile()}
    package = {n for n in names if n.startswith("evalkit/")}
    assert package == _library_files(), (
        f"left out: {sorted(_library_files() - package)}; extra: {sorted(package - _library_files())}")
    assert {"LICENSE", "README.md", "pyproject.toml", "PKG-INFO"} <= names


def test_wheel_metadata(dist):
    meta = _wheel_metadata(dist["wheel"])
    project = PYPROJECT["project"]
    assert meta["Name"] == NAME == project["name"]
    assert meta["Version"] == evalkit.__version__
    assert meta["Requires-Python"] == project["requires-python"]
    assert meta["License"] == "MIT"
    assert "License :: OSI Approved :: MIT License" in meta.get_all("Classifier")
    assert meta["Summary"] == project["description"]
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "## Install" in meta.get_payload()
    urls = [u.split(", ", 1)[1] for u in meta.get_all("Project-URL") or []]
    assert not [u for u in urls if _invented(u)], urls    # none yet: no public address is real
    requires = meta.get_all("Requires-Dist")
    base = [r for r in requires if "extra ==" not in r]
    assert base == [r.replace(" ", "") for r in project["dependencies"]] == ["numpy>=1.23"]
    assert set(meta.get_all("Provides-Extra")) == set(project["optional-dependencies"])


def test_version_has_one_home():
    # pyproject reads it (dynamic), the package re-exports it; no other literal version
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert "version" not in PYPROJECT["project"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    assert getattr(importlib.import_module(module), name) == evalkit.__version__
    assert f"## [{evalkit.__version__.split('.dev')[0]}]" in (ROOT / "CHANGELOG.md").read_text("utf-8")


# -- the wheel in a fresh venv with numpy only -------------------------------------------------


def test_every_docstring_example_runs_where_only_numpy_is(dist, venv, tmp_path):
    _pip_install(venv, str(dist["wheel"]))
    runner = shutil.copy(RUNNER, tmp_path / RUNNER.name)   # away from the checkout
    args = json.dumps({"skip_modules": sorted(SKIP_MODULES), "skip_examples": sorted(SKIP_EXAMPLES),
                       "absent": ABSENT})
    # -I: isolated mode, neither PYTHONPATH nor the current folder is on the path
    out = _run(str(venv), "-I", str(runner), args, cwd=tmp_path, env=_clean_env()).stdout
    report = json.loads(out)

    failed = report["failures"]
    assert not failed, f"docstring examples failed in the numpy-only venv: {sorted(failed)}\n" + "\n".join(
        failed.values())
    assert report["present"] == [] and report["imported"] == [], report
    assert Path(report["evalkit_file"]).is_relative_to(venv.parent.parent)
    assert report["version"] == report["metadata_version"] == evalkit.__version__
    # every module of the wheel ran but the ones skipped by name, and every name skipped exists
    wheel_modules = {m for m in _module_names(_library_files())}
    assert set(report["modules"]) == wheel_modules - set(SKIP_MODULES)
    assert set(report["skipped"]) == set(SKIP_MODULES) | set(SKIP_EXAMPLES)
    assert report["examples"] == _examples_here(report["modules"], set(SKIP_EXAMPLES)) > 0


def _module_names(files: set[str]) -> list[str]:
    names = []
    for f in sorted(files):
        if f.endswith(".py"):
            parts = f[:-3].split("/")
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _examples_here(modules: list[str], skip: set[str]) -> int:
    """The examples of the same modules, counted in this Python (the vacuity guard)."""
    import doctest

    finder = doctest.DocTestFinder(exclude_empty=True)
    return sum(len(test.examples) for name in modules
               for test in finder.find(importlib.import_module(name)) if test.name not in skip)


@pytest.mark.filterwarnings("ignore:Editable installation")   # setuptools' note on editable mode
def test_editable_install_of_a_checkout_still_imports_the_course(src, venv, tmp_path):
    _need("build")
    from build import ProjectBuilder
    from build.env import DefaultIsolatedEnv

    if course_dist.backend_installed():
        wheel = ProjectBuilder(src).build("editable", tmp_path)
    else:
        with DefaultIsolatedEnv() as env:
            builder = ProjectBuilder.from_isolated_env(env, src)
            env.install(builder.build_system_requires)
            env.install(builder.get_requires_for_build("editable"))
            wheel = builder.build("editable", tmp_path)
    _pip_install(venv, wheel)
    code = ("import evalkit, evalkit.course.exercises, evalkit.course.datasets, "
            "evalkit.course.definitions as d; print(evalkit.__file__); print(d.roc_auc_rank([0, 1], [0.2, 0.7]))")
    out = _run(str(venv), "-I", "-c", code, cwd=tmp_path, env=_clean_env()).stdout.split()
    assert out == [str(src / "evalkit" / "__init__.py"), "1.0"]


def test_no_install_command_fetches_another_project():
    # `evalkit` on the package index is an unrelated project: every command names ours
    wrong = re.compile(r"pip\s+install\s+(?:-U\s+|--upgrade\s+)?[\"']?evalkit(?![-\w])")
    texts = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "Makefile", ROOT / "environment.yml",
             *ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("teachers/**/*.md"), *ROOT.glob("evalkit/**/*.py"),
             *ROOT.glob("tools/*.py")]
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in texts if p.is_file()
             for m in wrong.finditer(p.read_text("utf-8"))]
    assert not found, f"install commands that fetch another project's `evalkit`: {found}"


@pytest.mark.parametrize("want, got", [
    ("0.75", "0.7500000001"), ("0.75", "0.76"), ("(0.8238, 0.951)", "(0.82381, 0.95099)"),
    ("(0.8238, 0.951)", "(0.8256, 0.9448)"), ("0.3", "0.30000000000000004"), ("3.14", "3.1"),
    ("1e-06", "1.2e-06"), ("1.5e-06", "1.2e-06"), ("1.", "1.4"), ("1.", "2.6"), ("[0.1, 0.2]", "[0.1, 0.2, 0.3]"),
    ("array([0.5 , 0.25])", "array([0.50000001, 0.25      ])"), ("x = 2", "x = 2.0"), ("-0.1", "-0.12"),
])
def test_number_flag_matches_pytests(want, got):
    # the fresh venv has no pytest: _doctest_in_venv.NumberChecker stands in for pytest's NUMBER
    from _doctest_in_venv import FLAGS, NumberChecker
    from _pytest.doctest import _get_checker   # pytest's own checker is the oracle

    ours = NumberChecker().check_output(want + "\n", got + "\n", FLAGS)
    theirs = _get_checker().check_output(want + "\n", got + "\n", FLAGS)
    assert ours == theirs


def test_the_library_never_imports_the_course():
    # at any depth of a module (lazy imports too), so the wheel without evalkit/course/ is whole
    from test_layout import graph

    course = {m: sorted(d for d in deps if d == "evalkit.course" or d.startswith("evalkit.course."))
              for m, deps in graph().items() if not m.startswith("evalkit.course")}
    offenders = {m: d for m, d in course.items() if d}
    assert not offenders, f"the library imports the course: {offenders}"


# -- the course's environment: one list, what the notebooks import --------------------------------


def _requirements(extra: str) -> list:
    from packaging.requirements import Requirement

    return [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"][extra]]


def _canonical(name: str) -> str:
    from packaging.utils import canonicalize_name

    return canonicalize_name(name)


def _top_levels(tree: ast.AST) -> set[str]:
    """The top-level names of the absolute imports in a parsed file or cell."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def _evalkit_modules(tree: ast.AST, known: set[str]) -> set[str]:
    """The evalkit modules a notebook imports, with the packages above them (which run first)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
    modules = set()
    for name in names:
        parts = name.split(".")
        if parts[0] != "evalkit":
            continue
        for depth in range(1, len(parts) + 1):
            candidate = ".".join(parts[:depth])
            if candidate in known:
                modules.add(candidate)
    return modules


def _notebook_tree(path: Path) -> ast.AST:
    nb = json.loads(path.read_text("utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    lines = [ln for cell in cells for ln in cell.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def _module_file(name: str) -> Path:
    path = ROOT / Path(*name.split("."))
    if path.is_dir():
        return path / "__init__.py"
    return path.with_suffix(".py")


@functools.cache
def _imports_of_the_lessons() -> dict[str, dict[str, set[str]]]:
    """module -> {"notebooks": the notebooks that import it, "through": the evalkit modules that do},
    for every third-party top-level module the notebooks import, directly or through evalkit's
    modules (at any depth of them: lazy imports too)."""
    from test_layout import graph

    edges = graph()
    found: dict[str, dict[str, set[str]]] = {}
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    todo = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        tree = _notebook_tree(path)
        for module in _top_levels(tree) - stdlib - {"evalkit"}:
            found.setdefault(module, {"notebooks": set(), "through": set()})["notebooks"].add(path.name)
        todo += sorted(_evalkit_modules(tree, set(edges)))
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += sorted(edges.get(name, ()))
        for module in _top_levels(ast.parse(_module_file(name).read_text("utf-8"))) - stdlib - {"evalkit"}:
            found.setdefault(module, {"notebooks": set(), "through": set()})["through"].add(name)
    return found


def _closure(requirements) -> set[str]:
    """The installed distributions these requirements bring, with theirs (their extras honoured)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen, todo = set(), list(requirements)
    while todo:
        requirement = todo.pop()
        key = (_canonical(requirement.name), frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            texts = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in texts:
            sub = Requirement(text)
            extras = requirement.extras or {""}
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras):
                todo.append(sub)
    return {name for name, _ in seen}


def test_the_course_extra_covers_every_import_of_every_notebook():
    from importlib import metadata

    owners = {m: {_canonical(d) for d in dists} for m, dists in metadata.packages_distributions().items()}
    listed = {_canonical(r.name) for r in _requirements("course")}
    listed |= {_canonical(r.split(">")[0].split("=")[0].split("<")[0]) for r in PYPROJECT["project"]["dependencies"]}
    brought = _closure(_requirements("course")) | listed
    lessons = _imports_of_the_lessons()
    assert {"sklearn", "scipy", "pyspark", "pyarrow", "pandas", "matplotlib"} <= set(lessons), sorted(lessons)
    unknown = sorted(m for m in lessons if m not in owners)
    assert not unknown, f"modules no installed distribution provides: {unknown}"
    # a notebook's own import: a distribution the extra lists itself
    direct = {m: owners[m] for m, where in lessons.items() if where["notebooks"] and not owners[m] & listed}
    assert not direct, f"notebooks import what the course extra does not list: {direct}"
    # through evalkit: at least brought by what the extra lists
    missing = {m: owners[m] for m in lessons if not owners[m] & brought}
    assert not missing, f"the lessons import what the course extra does not bring: {missing}"


def test_the_course_extra_lists_only_what_the_lessons_use():
    from importlib import metadata

    owners = metadata.packages_distributions()
    used = {_canonical(d) for m in _imports_of_the_lessons() for d in owners.get(m, [])}
    # JupyterLab runs the notebooks (evalkit-course start, make lab): none imports it
    unused = sorted(_canonical(r.name) for r in _requirements("course")
                    if _canonical(r.name) not in used | {"jupyterlab"})
    assert not unused, f"the course extra lists what no lesson imports: {unused}"


def test_a_package_in_two_extras_has_the_same_bounds_in_both():
    bounds: dict[str, dict[str, str]] = {}
    for extra in PYPROJECT["project"]["optional-dependencies"]:
        for requirement in _requirements(extra):
            bounds.setdefault(_canonical(requirement.name), {})[extra] = str(requirement.specifier)
    differ = {name: by_extra for name, by_extra in bounds.items() if len(set(by_extra.values())) > 1}
    assert not differ, f"one package, two bounds: {differ}"
    assert len(bounds["pyspark"]) >= 2, "the vacuity guard: pyspark is in course and spark"


# -- the course's distribution: the same source with or without the key ---------------------------


def _staged(tmp_path: Path, key: bool) -> Path:
    return course_dist.stage_course(tmp_path / ("course" if key else "student"), key=key)


def _files(staging: Path, part: str) -> list[str]:
    return sorted(p.name for p in (staging / "evalkit" / "course" / part).iterdir())


def test_the_course_holds_the_notebooks_figures_and_key(tmp_path):
    staging = _staged(tmp_path, key=True)
    assert _files(staging, "notebooks") == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert _files(staging, "figures") == sorted(p.name for p in (ROOT / "figures").glob("*.png"))
    assert (staging / "evalkit" / "course" / "exercises" / "__init__.py").is_file()
    assert (staging / "evalkit" / "course" / "lab-config" / "labconfig" / "page_config.json").is_file()
    assert not (staging / "evalkit" / "__init__.py").exists(), "the library's files are the library's"
    project = tomllib.loads((staging / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["name"] == "evalkit-course"
    assert project["project"]["version"] == evalkit.__version__
    assert project["project"]["dependencies"] == [f"{NAME}[course]=={evalkit.__version__}"]
    assert project["project"]["scripts"] == {"evalkit-course": "evalkit.course.start:main"}
    assert "evalkit.course.exercises" in project["tool"]["setuptools"]["packages"]


def test_the_students_build_has_no_key_and_no_notebook_that_needs_it(tmp_path):
    full, student = _staged(tmp_path, key=True), _staged(tmp_path, key=False)
    needing = [n for n in _files(full, "notebooks") if course_dist.needs_key(full / "evalkit/course/notebooks" / n)]
    assert len(needing) >= 12, "the vacuity guard: the lessons' check cells import the key"
    assert _files(student, "notebooks") == sorted(set(_files(full, "notebooks")) - set(needing)) == ["00-index.ipynb"]
    assert _files(student, "figures") == _files(full, "figures")
    assert not (student / "evalkit" / "course" / "exercises").exists()
    project = tomllib.loads((student / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["version"] == f"{evalkit.__version__}+student"
    assert project["project"]["dependencies"] == [f"{NAME}[course]=={evalkit.__version__}"]
    assert "evalkit.course.exercises" not in project["tool"]["setuptools"]["packages"]
    # the rest of the package is the same source
    rest = sorted(p.relative_to(full).as_posix() for p in (full / "evalkit").rglob("*.py") if "exercises" not in p.parts)
    assert rest == sorted(p.relative_to(student).as_posix() for p in (student / "evalkit").rglob("*.py"))


def test_the_course_distributions_build_and_pass_twine(tmp_path):
    _need("build")
    _need("twine")
    made = course_dist.build_course(tmp_path, key=True, sdist=True)
    # setuptools < 69 names the sdist evalkit-course-<version>.tar.gz, newer ones evalkit_course-...
    sdist = re.compile(rf"evalkit[-_]course-{re.escape(evalkit.__version__)}\.tar\.gz")
    assert len(made) == 2, made
    assert [p.name for p in made if p.suffix == ".whl"] == [course_dist.wheel_names()[1]], made
    assert len([p for p in made if sdist.fullmatch(p.name)]) == 1, made
    _run(sys.executable, "-m", "twine", "check", "--strict", *map(str, made))
    meta = _wheel_metadata(next(p for p in made if p.suffix == ".whl"))
    assert meta.get_all("Requires-Dist") == [f"{NAME}[course]=={evalkit.__version__}"]
    with tarfile.open(next(p for p in made if p.name.endswith(".tar.gz"))) as tf:
        names = {m.name.split("/", 1)[1] for m in tf.getmembers() if m.isfile()}
    assert {"evalkit/course/notebooks/00-index.ipynb", "evalkit/course/figures/01-f-beta.png"} <= names


# -- no invented address ----------------------------------------------------------------------------

# Addresses that exist, each checked by hand before it was written here: a link names one of
# these hosts, or the reader's own machine. A placeholder that looks like an address (example.org,
# a guessed repository) is invented; the project has no public address of its own yet.
REAL_HOSTS = {
    "keepachangelog.com": "Keep a Changelog (CHANGELOG.md)",
    "semver.org": "Semantic Versioning (CHANGELOG.md)",
    "nbgrader.readthedocs.io": "nbgrader's documentation (teachers/)",
    "pypi.org": "the package index's simple API (tools/course_dist.py check-name)",
    "www.w3.org": "the SVG namespace, an identifier rather than a link (book/favicon.svg)",
}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
RESERVED = re.compile(r"(^|\.)(example\.(com|net|org)|example|invalid|test|localhost)$")
ADDRESS = re.compile(r"\b(?:https?|ftp)://([^/\s\"'<>)\]`:]*)[^\s\"'<>)\]`]*", re.I)


def _invented(url: str) -> bool:
    host = ADDRESS.match(url).group(1).lower() if ADDRESS.match(url) else ""
    if host in LOCAL_HOSTS:
        return False
    return bool(RESERVED.search(host)) or host not in REAL_HOSTS


def _read_by_readers() -> list[Path]:
    """What ships or what a reader reads: the READMEs and changelog, the project table, the
    notebooks, the teachers' guide, the site's sources and page writers, the package."""
    files = [ROOT / name for name in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml",
                                      "LICENSE", "environment.yml")]
    files += sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "teachers").rglob("*.md"))
    files += sorted(p for p in (ROOT / "book").rglob("*") if p.is_file())
    files += [ROOT / "tools" / n for n in ("make_site.py", "make_guide.py", "course_dist.py", "classroom.py")]
    files += sorted((ROOT / "tools" / "lab-config").rglob("*.json"))
    files += sorted((ROOT / "evalkit").rglob("*.py"))
    return files


def _addresses(text: str) -> list[str]:
    # an ellipsis for a host ("https://…") is a visible blank for the reader's own, not an address
    return [m.group(0) for m in ADDRESS.finditer(text) if re.search(r"[A-Za-z0-9]", m.group(1))]


def test_no_invented_address_in_what_ships_or_what_a_reader_reads():
    found = {}
    for path in _read_by_readers():
        for url in _addresses(path.read_text("utf-8")):
            if _invented(url):
                found.setdefault(str(path.relative_to(ROOT)), []).append(url)
    assert not found, ("addresses that are not known to exist (a placeholder, a guessed repository?); "
                       f"link only what is real, and add a checked host to REAL_HOSTS: {found}")
    pages = _addresses(course_dist.COURSE_README + course_dist.STUDENT_NOTE)
    assert not [u for u in pages if _invented(u)], pages


@pytest.mark.parametrize("url, invented", [
    ("https://github.com/evalkit/evalkit", True), ("https://example.org/course", True),
    ("http://www.example.com/x", True), ("https://docs.invalid/", True), ("https://semver.org/spec/v2.0.0.html", False),
    ("http://127.0.0.1:8000/", False), ("https://nbgrader.readthedocs.io", False), ("https://evil.semver.org.example/", True),
])
def test_the_address_check_can_fail(url, invented):
    assert _invented(url) is invented
    assert _addresses(f"see {url}.") != [] or not invented


def test_the_landing_page_links_only_what_the_site_holds():
    make_site = tool("make_site")
    notebooks = make_site.course_notebooks()
    page = make_site.intro_page(notebooks)
    links = re.findall(r'href="([^"]+)"', page) + re.findall(r"\]\(([^)]+)\)", page)
    assert links, "the vacuity guard: the landing page links"
    held = {f"notebooks/{p.name}" for p in notebooks} | {"glossary.md"}
    held |= {f"{make_site.DOWNLOADS}/{name}" for name in course_dist.wheel_names()}
    assert sorted(set(links) - held) == [], "the landing page links what the site does not hold"
    assert not _addresses(page) or not [u for u in _addresses(page) if _invented(u)]


def test_the_readme_links_what_is_there():
    readme = (ROOT / "README.md").read_text("utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", readme) if not ADDRESS.match(t)]
    assert targets, "the vacuity guard: the README links files"
    missing = sorted(t for t in targets if t and not (ROOT / t).exists())
    assert not missing, f"README.md links files that do not exist: {missing}"
