"""The conda environment.yml lists the same packages as pyproject.toml,
and the package itself stays light to import."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Conda-only entries that have no counterpart in pyproject's dependency lists.
CONDA_ONLY = {"python", "pip"}
# conda-forge's name of a PyPI package where the two differ.
CONDA_NAMES = {"python-build": "build"}
# Extras that environment.yml mirrors, besides the hard dependencies.
EXTRAS = ("course", "test")

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")


def normalize(name: str) -> str:
    """PEP 503 normalisation: case-insensitive, runs of -_. are one '-'."""
    return re.sub(r"[-_.]+", "-", name).lower()


def split_requirement(req: str) -> tuple[str, str]:
    """'scikit-learn >=1.6; python_version>"3"' -> ('scikit-learn', '>=1.6')."""
    req = req.split(";", 1)[0]
    m = _REQUIREMENT.match(req)
    assert m, f"cannot parse requirement {req!r}"
    name, spec = m.groups()
    return normalize(name), re.sub(r"\s+", "", spec)


def parse_environment_yml(text: str) -> tuple[list[str], list[str]]:
    """Return (conda dependencies, pip dependencies) of a simple environment.yml.

    Handles the plain block-list format environment files use: a top-level
    ``dependencies:`` key whose items are ``- spec`` lines, and one nested
    ``- pip:`` item with its own ``- spec`` lines.  Comments and blank lines
    are ignored.  No YAML library needed.

    >>> parse_environment_yml('''
    ... name: x
    ... dependencies:
    ...   - numpy>=1 # comment
    ...   - pip:
    ...       - -e .
    ... ''')
    (['numpy>=1'], ['-e .'])
    """
    conda: list[str] = []
    pip: list[str] = []
    in_deps = False
    pip_indent: int | None = None
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            in_deps = line.strip() == "dependencies:"
            pip_indent = None
            continue
        if not in_deps:
            continue
        item = line.strip()
        assert item.startswith("- "), f"unexpected line in dependencies: {raw!r}"
        value = item[2:].strip().strip("'\"")
        if pip_indent is not None and indent > pip_indent:
            pip.append(value)
            continue
        pip_indent = None
        if value == "pip:":
            pip_indent = indent
        else:
            conda.append(value)
    return conda, pip


def pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    reqs = list(project["dependencies"])
    for extra in EXTRAS:
        reqs += project["optional-dependencies"][extra]
    return dict(split_requirement(r) for r in reqs)


def environment_requirements() -> tuple[dict[str, str], list[str]]:
    conda, pip = parse_environment_yml((ROOT / "environment.yml").read_text("utf-8"))
    pairs = [split_requirement(spec) for spec in conda]
    return {CONDA_NAMES.get(n, n): s for n, s in pairs if n not in CONDA_ONLY}, pip


def test_same_packages():
    py = pyproject_requirements()
    env, _ = environment_requirements()
    only_py = sorted(set(py) - set(env))
    only_env = sorted(set(env) - set(py))
    assert not only_py and not only_env, (
        "environment.yml and pyproject.toml (dependencies + extras "
        f"{', '.join(EXTRAS)}) disagree:\n"
        f"  only in pyproject.toml:  {only_py}\n"
        f"  only in environment.yml: {only_env}"
    )


def test_same_version_bounds():
    py = pyproject_requirements()
    env, _ = environment_requirements()
    differ = {n: (py[n], env[n]) for n in sorted(set(py) & set(env)) if py[n] != env[n]}
    assert not differ, (
        "version specifiers differ (pyproject.toml, environment.yml): " f"{differ}"
    )


def test_environment_installs_evalkit_itself():
    conda, pip = parse_environment_yml((ROOT / "environment.yml").read_text("utf-8"))
    assert "pip" in conda
    assert "-e ." in pip


def test_import_evalkit_stays_light():
    heavy = ("pandas", "matplotlib", "ipywidgets", "pyspark", "py4j", "pyarrow")
    code = (
        "import sys, evalkit, evalkit.spark\n"
        f"heavy = {heavy!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == "[]", f"`import evalkit` imported {out}"


# -- the lock (constraints.txt, `make lock`) ----------------------------------------

LOCK = ROOT / "constraints.txt"
# Every extra the lock resolves (make lock); the venv installs all but bench.
LOCKED_EXTRAS = ("course", "test", "spark", "bench")


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in LOCK.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep and version, f"constraints.txt: {line!r} is not a `name==version` pin"
        pins[normalize(name)] = version
    return pins


def test_lock_pins_every_requirement_within_its_bounds():
    from packaging.specifiers import SpecifierSet

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    reqs = list(project["dependencies"])
    for extra in LOCKED_EXTRAS:
        reqs += project["optional-dependencies"][extra]
    pins = lock_pins()
    missing = sorted({split_requirement(r)[0] for r in reqs} - set(pins))
    assert not missing, f"constraints.txt lacks {missing}: run `make lock`"
    outside = {name: (pins[name], spec) for name, spec in map(split_requirement, reqs)
               if spec and pins[name] not in SpecifierSet(spec)}
    assert not outside, f"locked versions outside pyproject.toml's bounds: {outside}; run `make lock`"


def test_venv_runs_the_locked_versions():
    from importlib.metadata import PackageNotFoundError, version

    pins = lock_pins()
    differ = {}
    for name in ("numpy", "pandas", "matplotlib", "scikit-learn", "pyspark", "nbval", "ipywidgets"):
        try:
            got = version(name)
        except PackageNotFoundError:
            continue
        if got != pins[name]:
            differ[name] = (got, pins[name])
    assert not differ, f"installed vs locked: {differ}; rebuild with `make clean venv`"


def test_locked_pandas_is_one_pyspark_does_not_warn_about():
    # PySpark checks pandas against its minimum on every pandas conversion.
    utils = pytest.importorskip("pyspark.sql.pandas.utils")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        utils.require_minimum_pandas_version()
        utils.require_minimum_pyarrow_version()
