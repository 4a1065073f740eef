"""Start the course: copy its notebooks and figures into a folder of yours and open JupyterLab.

    evalkit-course start FOLDER            copy the course into FOLDER, open JupyterLab there
    evalkit-course start FOLDER --no-lab   copy only
    evalkit-course check                   the setup check of notebook 00, in a terminal

``evalkit-course`` is the command of the course's distribution (``evalkit-course``, built by
``tools/course_dist.py``), which holds the notebooks, the figures and the lab's settings as
package data of ``evalkit.course``. They are copied out, never opened where they are installed:
the learner's work lives in FOLDER (``FOLDER/notebooks``, ``FOLDER/figures``), and a file already
there is never written over: ``start`` says which of the learner's files it kept. In a checkout
of the course's repository the same command copies from the repository's ``notebooks/`` and
``figures/`` (``python -m evalkit.course.start start FOLDER``).

The classroom's build of the distribution has no answer key (``evalkit.course.exercises``) and
so no lesson notebook whose check cells need it: ``start`` copies the course map (notebook 00)
and the figures, and the teacher hands out the lessons.

:func:`check_setup` is what notebook 00's *Check your setup* cell runs: it imports evalkit, the
course and every package the lessons import (the library's ``course`` extra, read from the
installed metadata: the one list), and looks for the figures the lessons show.
"""

from __future__ import annotations

import argparse
import filecmp
import importlib
import importlib.metadata as metadata
import importlib.util
import os
import pkgutil
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CourseError", "Material", "Copied", "material", "copy_course", "report", "lab_command",
           "start", "lesson_requirements", "check_setup", "main"]

COURSE_DISTRIBUTION = "evalkit-course"
KEY_MODULE = "evalkit.course.exercises"
INDEX = "00-index.ipynb"
# Where each part of the course lives: as package data of evalkit.course in the installed
# distribution, and in a checkout of the repository (tools/course_dist.py copies the one into
# the other when it builds the distribution).
IN_PACKAGE = {"notebooks": "notebooks", "figures": "figures", "lab_config": "lab-config"}
IN_CHECKOUT = {"notebooks": "notebooks", "figures": "figures", "lab_config": "tools/lab-config"}
# What start copies out: the notebooks and the figures they show (the lab's settings stay put).
COPIED = {"notebooks": "*.ipynb", "figures": "*.png"}


class CourseError(RuntimeError):
    """A mistake the command names before it writes anything (a folder it must not write to...)."""


@dataclass(frozen=True)
class Material:
    """The course's folders: notebooks, figures and the learner's JupyterLab settings."""

    notebooks: Path
    figures: Path
    lab_config: Path


@dataclass
class Copied:
    """What :func:`copy_course` did: files copied, files already the same, the learner's kept."""

    folder: Path
    copied: list = field(default_factory=list)
    same: list = field(default_factory=list)
    kept: list = field(default_factory=list)


def material() -> Material:
    """The course's folders: the installed package data, or a checkout's own folders."""
    package = Path(__file__).resolve().parent
    if (package / IN_PACKAGE["notebooks"]).is_dir():
        return Material(**{part: package / place for part, place in IN_PACKAGE.items()})
    checkout = package.parent.parent
    if (checkout / IN_CHECKOUT["notebooks"] / INDEX).is_file():
        return Material(**{part: checkout / place for part, place in IN_CHECKOUT.items()})
    raise CourseError(f"this evalkit.course ({package}) holds no notebooks: install the course's "
                      f"distribution, {COURSE_DISTRIBUTION}, as the course's site says")


def _protected() -> list[Path]:
    """Folders start never writes into: where Python and its packages are installed."""
    folders = [Path(p) for p in site.getsitepackages()]
    folders += [Path(sysconfig.get_paths()[name]) for name in ("purelib", "platlib", "stdlib")]
    folders += [Path(__file__).resolve().parent]
    return [f.resolve() for f in folders]


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _plan(folder: Path, source: Material) -> list[tuple[Path, Path]]:
    """(course file, its place in FOLDER) for every notebook and figure."""
    pairs = []
    for part, pattern in COPIED.items():
        origin = getattr(source, part)
        for path in sorted(origin.glob(pattern)):
            pairs.append((path, folder / part / path.name))
    return pairs


def copy_course(folder, source: Material | None = None) -> Copied:
    """Copy the course's notebooks and figures into ``folder``, keeping every file already there.

    A file that is already in ``folder`` is never written over: it is the same as the course's
    (``same``) or the learner changed it (``kept``). Nothing is written when ``folder`` is a file,
    lies where Python's packages are installed, or cannot be created.
    """
    source = source or material()
    target = _checked_folder(folder)
    done = Copied(target)
    todo = []
    for origin, place in _plan(target, source):
        if not place.exists():
            todo.append((origin, place))
        elif place.is_file() and filecmp.cmp(origin, place, shallow=False):
            done.same.append(place)
        else:
            done.kept.append(place)
    try:
        for part in COPIED:
            (target / part).mkdir(parents=True, exist_ok=True)
        for origin, place in todo:
            shutil.copyfile(origin, place)   # not copy2: the learner's copy is writable
            done.copied.append(place)
    except OSError as exc:
        raise CourseError(f"FOLDER: cannot write into {target}: {exc}") from exc
    return done


def _checked_folder(folder) -> Path:
    """FOLDER as an absolute path, refused when it is a file or where packages are installed."""
    target = Path(folder).expanduser().resolve()
    if target.exists() and not target.is_dir():
        raise CourseError(f"FOLDER: {target} is a file; name a folder (it is made when missing)")
    for protected in _protected():
        if _inside(target, protected):
            raise CourseError(f"FOLDER: {target} is inside {protected}, where Python's packages "
                              "are installed; name a folder of your own, e.g. ~/evalkit-course")
    return target


def report(done: Copied) -> str:
    """What :func:`copy_course` did, in words, and where to put a class's notebooks."""
    lines = [f"the course is in {done.folder}: {len(done.copied)} files copied, "
             f"{len(done.same)} already there and the same as the course's"]
    if done.kept:
        names = ", ".join(str(p.relative_to(done.folder)) for p in done.kept)
        lines.append(f"kept {len(done.kept)} of your files, which differ from the course's (never "
                     f"written over): {names}. To get the course's copy of one, rename yours and "
                     "run the command again.")
    if importlib.util.find_spec(KEY_MODULE) is None:
        lines.append("this is a class's environment (no self-study checker): put the notebooks "
                     f"your teacher hands out into {done.folder / 'notebooks'}")
    return "\n".join(lines)


def lab_command(folder: Path, source: Material, lab_args=()) -> tuple[list[str], dict]:
    """The command that opens JupyterLab on ``folder`` (the course map first), and its environment.

    The course's lab settings come first on Jupyter's configuration path (the learner's own
    settings are kept after them); Jupyter refuses to run as root unless told, so as root (a
    container, a cloud notebook) ``--allow-root`` is passed.
    """
    argv = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    argv += [f"notebooks/{INDEX}", *lab_args]
    config = [str(source.lab_config)]
    if os.environ.get("JUPYTER_CONFIG_PATH"):
        config.append(os.environ["JUPYTER_CONFIG_PATH"])
    env = dict(os.environ, JUPYTER_CONFIG_PATH=os.pathsep.join(config))
    return argv, env


def start(folder, *, lab: bool = True, lab_args=()) -> int:
    """Copy the course into ``folder`` (keeping the learner's files), then open JupyterLab there."""
    source = material()
    done = copy_course(folder, source)
    print(report(done), flush=True)
    if not lab:
        return 0
    argv, env = lab_command(done.folder, source, lab_args)
    proc = subprocess.Popen(argv, cwd=done.folder, env=env)
    try:
        return proc.wait()
    except KeyboardInterrupt:   # Ctrl-C reached JupyterLab too: let it shut down
        return proc.wait()


# -- the setup check of notebook 00 ---------------------------------------------------------------


def _library_requirement():
    """The course's requirement on the library (``evalkit-metrics[course]==<version>``): the
    installed course distribution's, or in a checkout the library's name with its course extra."""
    from packaging.requirements import Requirement

    try:
        return Requirement(metadata.requires(COURSE_DISTRIBUTION)[0])
    except metadata.PackageNotFoundError:
        owners = [d for d in metadata.packages_distributions().get("evalkit", [])
                  if d != COURSE_DISTRIBUTION]
        if not owners:
            raise CourseError("evalkit is not installed as a distribution") from None
        return Requirement(f"{owners[0]}[course]")


def lesson_requirements() -> list:
    """What the lessons use: the library's dependencies and its ``course`` extra, as installed."""
    from packaging.requirements import Requirement

    library = _library_requirement()
    wanted = []
    for text in metadata.requires(library.name) or []:
        requirement = Requirement(text)
        marker = requirement.marker
        if marker is None or any(marker.evaluate({"extra": extra}) for extra in library.extras):
            wanted.append(requirement)
    return wanted


def _modules_of(distribution: str, owners: dict) -> list[str]:
    """The top-level modules a distribution installs (``scikit-learn`` -> ``sklearn``)."""
    from packaging.utils import canonicalize_name

    name = canonicalize_name(distribution)
    found = [module for module, dists in owners.items()
             if name in {canonicalize_name(d) for d in dists}]
    return sorted(m for m in found if m.isidentifier() and not m.startswith("_"))


def _problem(requirement, owners: dict) -> str | None:
    """Why a requirement of the lessons is not met here, or None."""
    try:
        installed = metadata.version(requirement.name)
    except metadata.PackageNotFoundError:
        return f"{requirement.name} is not installed"
    if installed not in requirement.specifier:
        return f"{requirement.name} {installed} is installed; the lessons need {requirement}"
    for module in _modules_of(requirement.name, owners):
        try:
            importlib.import_module(module)
        except Exception as exc:   # a broken install may raise anything on import
            return f"import {module} failed ({type(exc).__name__}: {exc})"
    return None


def _course_modules() -> list[str]:
    """evalkit, and every module of the course that is installed here (the key only where it is)."""
    package = Path(__file__).resolve().parent
    found = [info.name for info in pkgutil.walk_packages([str(package)], "evalkit.course.")]
    return ["evalkit", "evalkit.course", *sorted(found)]


def _figures_missing(figures: Path, source: Material) -> list[str]:
    shown = sorted(p.name for p in source.figures.glob(COPIED["figures"]))
    return [name for name in shown if not (figures / name).is_file()]


def check_setup(figures="../figures") -> bool:
    """Import what the lessons import, look for their figures, and say what is missing.

    Prints one ``ready: ...`` line, or ``not ready:`` and a line per problem; returns whether
    everything was found. ``figures`` is the figures folder as the notebooks see it (they save
    and show ``../figures/NN-name.png``).
    """
    problems = []
    for module in _course_modules():
        try:
            importlib.import_module(module)
        except Exception as exc:   # a broken install may raise anything on import
            problems.append(f"import {module} failed ({type(exc).__name__}: {exc})")
    owners = metadata.packages_distributions()
    requirements = lesson_requirements()
    for requirement in requirements:
        problem = _problem(requirement, owners)
        if problem:
            problems.append(problem)
    missing = _figures_missing(Path(figures), material())
    if missing:
        problems.append(f"{len(missing)} figures are not in {figures}: {', '.join(missing[:3])}...")
    java = shutil.which("java") or os.environ.get("JAVA_HOME")
    if not java:
        problems.append("Java is not found: notebook 09 runs Spark, which needs a Java 17+ runtime")
    if problems:
        print("not ready:\n" + "\n".join(f"- {p}" for p in problems))
        return False
    names = ", ".join(r.name for r in requirements)
    print(f"ready: evalkit, the course and the packages the lessons use ({names}) import; "
          f"Java is found (for Spark); the figures are in {figures}")
    return True


# -- the command --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``evalkit-course start FOLDER [--no-lab] [-- LAB ARGS]`` and ``evalkit-course check``."""
    parser = argparse.ArgumentParser(prog="evalkit-course", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    begin = commands.add_parser("start", help="copy the course into FOLDER, open JupyterLab there")
    begin.add_argument("folder", metavar="FOLDER", help="your course folder (made when missing)")
    begin.add_argument("--no-lab", action="store_true", help="copy only; do not open JupyterLab")
    begin.add_argument("lab_args", nargs="*", metavar="LAB_ARG",
                       help="after --: arguments for jupyter lab, e.g. -- --port=8899")
    check = commands.add_parser("check", help="check that everything the lessons use is installed")
    check.add_argument("--figures", default=None,
                       help="the figures folder (default: the course's own)")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            if check_setup(args.figures or str(material().figures)):
                return 0
            return 1
        return start(args.folder, lab=not args.no_lab, lab_args=args.lab_args)
    except CourseError as exc:
        print(f"evalkit-course: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
