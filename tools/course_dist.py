#!/usr/bin/env python3
"""Build the course's distribution, evalkit-course, and the library's wheel it installs with.

    python tools/course_dist.py [--outdir dist] [--sdist] [--without-key]   (both: make dist)
    python tools/course_dist.py check-name     ask https://pypi.org/simple/ whether the name is still free

``evalkit-course`` is the course a reader installs without the repository: ``evalkit.course``
(the self-study checker with its key, ``evalkit.course.exercises``, the data, the ``start``
command) and, as its package data, the notebooks, the figures and the learner's JupyterLab
settings (``tools/lab-config``), copied here from the checkout into the folders that
``evalkit/course/start.py`` reads (``IN_CHECKOUT`` -> ``IN_PACKAGE``). It requires exactly
``evalkit-metrics[course]==<version>``: the library's ``course`` extra in pyproject.toml is the
one list of what the lessons import, for ``make lab``, this distribution and the classroom's.
It installs the command ``evalkit-course`` (``evalkit-course start FOLDER``).

Built without the key (``key=False``, ``--without-key``: the classroom's student environment,
``tools/classroom.py``), the same source leaves out ``evalkit.course.exercises`` and every
notebook whose code imports it (their check cells need the key: a class works from the
notebooks the teacher hands out), and its version carries the local label ``+student``.

The library's wheel (and sdist) is built from a copy of the files its build reads, so nothing
is written into the checkout. Both builds run ``python -m build``, without isolation when this
Python has the build backend (setuptools, and wheel), so they need no network then.
"""

from __future__ import annotations

import argparse
import json
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
import tomllib
import urllib.error
import urllib.request
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from evalkit.course.start import (COPIED, COURSE_DISTRIBUTION, IN_CHECKOUT, IN_PACKAGE,  # noqa: E402
                                  KEY_MODULE)

PYPROJECT = ROOT / "pyproject.toml"
COURSE_PACKAGE = "evalkit/course"
KEY_PACKAGE = KEY_MODULE.replace(".", "/")
STUDENT_LABEL = "student"
# The files the library's build reads (pyproject.toml's readme, license and package).
LIBRARY_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "evalkit")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
SIMPLE_INDEX = "https://pypi.org/simple/"
COURSE_README = """\
# evalkit-course

The notebook course on how to measure classifiers, rankers and recommenders: every number is
computed by hand first and then with the `evalkit` library (the distribution `evalkit-metrics`,
which this one installs with what the lessons use).

```sh
evalkit-course start my-course
```

copies the notebooks and their figures into the folder `my-course` (a file you changed there is
never written over) and opens the course map in JupyterLab. `evalkit-course check` checks that
everything the lessons import is installed.
"""
STUDENT_NOTE = """
This build is a class's student environment: it has no answer key, and so none of the lesson
notebooks whose check cells need it. Your teacher hands out your notebooks.
"""


class BuildError(RuntimeError):
    pass


def project() -> dict:
    """pyproject.toml's [project] table: the library's name, license, Python and extras."""
    return tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]


def library_version() -> str:
    """The version, from its one home (pyproject.toml's dynamic version names the attribute)."""
    attr = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    return runpy.run_path(str(ROOT / (module.replace(".", "/") + ".py")))[name]


def course_version(key: bool = True) -> str:
    base = library_version()
    if key:
        return base
    return f"{base}+{STUDENT_LABEL}"


def library_requirement() -> str:
    """The course's one dependency: the library of the same version with its course extra."""
    return f"{project()['name']}[course]=={library_version()}"


def wheel_name(distribution: str, release: str) -> str:
    """The file name of a pure-Python wheel (PEP 427: the name's runs of -_. become _)."""
    return f"{re.sub(r'[-_.]+', '_', distribution)}-{release}-py3-none-any.whl"


def wheel_names() -> tuple[str, str]:
    """The two wheels a reader installs: the library's and the course's."""
    release = library_version()
    return wheel_name(project()["name"], release), wheel_name(COURSE_DISTRIBUTION, release)


def install_commands(venv: str = "evalkit-env", folder: str = "my-course") -> list[str]:
    """The commands the README and the site's landing page give, and tests/test_install.py runs,
    in the folder that holds the two wheels."""
    library, course = wheel_names()
    return [f"python3 -m venv {venv}",
            f"{venv}/bin/python -m pip install {library} {course}",
            f"{venv}/bin/evalkit-course start {folder}"]


def needs_key(notebook: Path) -> bool:
    """Whether a notebook's code imports the answer key (its check cells call the checker)."""
    nb = json.loads(notebook.read_text("utf-8"))
    for cell in nb["cells"]:
        source = "".join(cell["source"])   # a list of lines, or one string: joined the same
        if cell["cell_type"] == "code" and re.search(rf"\b{re.escape(KEY_MODULE)}\b", source):
            return True
    return False


# -- staging the course's project ---------------------------------------------------------------


def _toml(value) -> str:
    """A TOML value from str, list or dict (JSON's strings are TOML's basic strings)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _packages(staging: Path) -> list[str]:
    return sorted(str(p.parent.relative_to(staging)).replace("/", ".")
                  for p in (staging / COURSE_PACKAGE).rglob("__init__.py"))


def _pyproject(staging: Path, key: bool) -> str:
    library = project()
    build = tomllib.loads(PYPROJECT.read_text("utf-8"))["build-system"]
    data = [f"{IN_PACKAGE[part]}/{pattern}" for part, pattern in COPIED.items()]
    data += [f"{IN_PACKAGE['lab_config']}/**/*.json"]
    description = "The notebook course on evaluating classifiers, rankers and recommenders, with evalkit."
    if not key:
        description = "A class's student environment of the evalkit course: no answer key inside."
    fields = {
        "name": COURSE_DISTRIBUTION,
        "version": course_version(key),
        "description": description,
        "readme": "README.md",
        "requires-python": library["requires-python"],
        "license": library["license"],
        "authors": library["authors"],
        "classifiers": [c for c in library["classifiers"] if not c.startswith("Topic")]
        + ["Framework :: Jupyter"],
        "dependencies": [library_requirement()],
    }
    lines = ["[build-system]", f"requires = {_toml(build['requires'])}",
             f"build-backend = {_toml(build['build-backend'])}", "", "[project]"]
    lines += [f"{name} = {_toml(value)}" for name, value in fields.items()]
    lines += ["", "[project.scripts]", f"{COURSE_DISTRIBUTION} = \"evalkit.course.start:main\"", "",
              "[tool.setuptools]", f"packages = {_toml(_packages(staging))}", "",
              "[tool.setuptools.package-data]", f"\"evalkit.course\" = {_toml(data)}", ""]
    return "\n".join(lines)


def stage_course(staging: Path, key: bool = True) -> Path:
    """The course's project in ``staging``: its package, its package data, its pyproject.toml."""
    package = staging / COURSE_PACKAGE
    ignore = IGNORED
    if not key:
        def ignore(folder, names):
            left_out = set(IGNORED(folder, names))
            if (Path(folder) / "exercises").resolve() == (ROOT / KEY_PACKAGE).resolve():
                left_out.add("exercises")
            return left_out
    shutil.copytree(ROOT / COURSE_PACKAGE, package, ignore=ignore)
    for part in ("notebooks", "figures", "lab_config"):
        origin, place = ROOT / IN_CHECKOUT[part], package / IN_PACKAGE[part]
        shutil.copytree(origin, place, ignore=IGNORED)
    if not key:
        for notebook in (package / IN_PACKAGE["notebooks"]).glob("*.ipynb"):
            if needs_key(notebook):
                notebook.unlink()
    readme = COURSE_README
    if not key:
        readme += STUDENT_NOTE
    (staging / "README.md").write_text(readme, "utf-8")
    shutil.copy2(ROOT / "LICENSE", staging / "LICENSE")
    (staging / "pyproject.toml").write_text(_pyproject(staging, key), "utf-8")
    return staging


def stage_library(staging: Path) -> Path:
    """A copy of the files the library's build reads (pyproject.toml leaves evalkit/course/ out)."""
    staging.mkdir(parents=True)
    for name in LIBRARY_SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, staging / name, ignore=IGNORED)
        else:
            shutil.copy2(ROOT / name, staging / name)
    return staging


# -- building -----------------------------------------------------------------------------------


def backend_installed() -> bool:
    """This Python has pyproject.toml's build requirements (and wheel): no isolation is needed."""
    from packaging.requirements import Requirement

    requires = tomllib.loads(PYPROJECT.read_text("utf-8"))["build-system"]["requires"]
    for spec in [*requires, "wheel"]:
        requirement = Requirement(spec)
        try:
            if version(requirement.name) not in requirement.specifier:
                return False
        except PackageNotFoundError:
            return False
    return True


def _build(project_dir: Path, outdir: Path, sdist: bool) -> list[Path]:
    before = set(outdir.glob("*"))
    command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(outdir)]
    if sdist:
        command.append("--sdist")
    if backend_installed():
        command.append("--no-isolation")
    proc = subprocess.run([*command, str(project_dir)], capture_output=True, text=True)
    made = sorted(set(outdir.glob("*")) - before)
    if proc.returncode != 0 or not made:
        raise BuildError(f"building {project_dir.name} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return made


def build_library(outdir, sdist: bool = False) -> list[Path]:
    """The library's wheel (and sdist) in ``outdir``; returns the files made."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        return _build(stage_library(Path(tmp) / "evalkit-metrics"), outdir, sdist)


def build_course(outdir, key: bool = True, sdist: bool = False) -> list[Path]:
    """The course's wheel (and sdist) in ``outdir``, with or without the key; returns the files made."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        return _build(stage_course(Path(tmp) / COURSE_DISTRIBUTION, key), outdir, sdist)


def build_both(outdir, key: bool = True, sdist: bool = False) -> list[Path]:
    """The library's and the course's wheels (and sdists) in ``outdir``; returns the files made."""
    return build_library(outdir, sdist) + build_course(outdir, key, sdist)


def build_wheels(outdir, key: bool = True) -> tuple[Path, Path]:
    """The two wheels a reader (or, without the key, a class) installs, alone in ``outdir``:
    (library, course)."""
    outdir = Path(outdir)
    for old in outdir.glob("*.whl"):
        old.unlink()
    [library] = build_library(outdir)
    [course] = build_course(outdir, key)
    return library, course


# -- the name on the package index (by hand, not in CI) -------------------------------------------


def name_is_free(name: str = COURSE_DISTRIBUTION, index: str = SIMPLE_INDEX) -> bool:
    """Whether the package index has no project of that name (its simple page answers 404)."""
    request = urllib.request.Request(index + re.sub(r"[-_.]+", "-", name).lower() + "/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(request, timeout=30):
            return False
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return True
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=["build", "check-name"], default="build")
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist", help="where the files go (default dist/)")
    parser.add_argument("--sdist", action="store_true", help="an sdist too")
    parser.add_argument("--without-key", action="store_true", help="the classroom's build: no answer key")
    args = parser.parse_args(argv)
    if args.command == "check-name":
        if name_is_free():
            print(f"{COURSE_DISTRIBUTION} is free on {SIMPLE_INDEX}")
            return 0
        print(f"{COURSE_DISTRIBUTION} is taken on {SIMPLE_INDEX}")
        return 1
    try:
        made = build_both(args.outdir, key=not args.without_key, sdist=args.sdist)
    except BuildError as exc:
        print(f"course_dist: {exc}", file=sys.stderr)
        return 1
    for path in made:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
