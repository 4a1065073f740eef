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

import email.parser
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
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pytest

import evalkit

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
NAME = "evalkit-metrics"
# What the build reads: the project table, the long description, the license, the package.
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "evalkit")
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
    "evalkit.mllib.BinaryClassificationMetrics":
        "reads the Spark post's data set from evalkit.course.datasets, which the wheel leaves out",
    "evalkit.mllib.spark_steps":
        "reads the Spark post's data set from evalkit.course.datasets, which the wheel leaves out",
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


def _backend_installed() -> bool:
    """This Python has pyproject.toml's build requirements (and wheel), so no isolation is needed."""
    from packaging.requirements import Requirement

    for spec in [*PYPROJECT["build-system"]["requires"], "wheel"]:
        requirement = Requirement(spec)
        try:
            if version(requirement.name) not in requirement.specifier:
                return False
        except PackageNotFoundError:
            return False
    return True


def _copy_sources(dest: Path) -> Path:
    """The files the build reads, copied, so that the build writes nothing into the checkout."""
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
            shutil.copytree(ROOT / name, dest / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def src(tmp_path_factory) -> Path:
    return _copy_sources(tmp_path_factory.mktemp("src"))


@pytest.fixture(scope="module")
def dist(src, tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built by ``python -m build`` from a copy of the checkout."""
    _need("build")
    out = tmp_path_factory.mktemp("dist")
    isolation = ["--no-isolation"] if _backend_installed() else []
    _run(sys.executable, "-m", "build", *isolation, "--outdir", str(out), str(src))
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
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) >= {"Homepage", "Source", "Issues"}
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

    if _backend_installed():
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
