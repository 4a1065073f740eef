"""The course as a reader and a class install it, without the repository.

* **A reader** (marker ``install``): the two wheels that ``tools/course_dist.py`` builds (the
  library, ``evalkit-metrics``, and the course, ``evalkit-course``), then exactly the commands the
  README and the site's landing page give (``course_dist.install_commands``: a venv, ``pip
  install`` of the two wheel files, ``evalkit-course start my-course``), run by ``bash`` in a
  temporary folder that holds the wheels and nothing of the checkout. The venv's evalkit and
  evalkit.course are its own; the start command copies the course and serves it in JupyterLab
  (stopped once it answers); notebooks 00 and 01 run top to bottom there (nbclient); nothing is
  written into site-packages.
* **A class** (marker ``install``): the student environment (``tests/conftest.py``'s
  ``student_env``, made once for the run by ``tools/classroom.py``) runs the setup and data
  cells of every notebook a teacher hands out; its start command offers no notebook that needs
  the key; the grader runs a submission with its Python, in the sandbox and without.
* **The start command** itself, in this Python (fast): it copies, keeps what the reader changed
  and says so, and refuses a folder it must not write to before writing anything.

pip installs from its cache and the configured indexes, pinned by ``constraints.txt``
(``PIP_CONSTRAINT``, which pip reads from the environment: the commands stay the documented
ones) and without compiling ``.pyc`` files (``PIP_NO_COMPILE``), to save time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from evalkit.course import start
from _servers import free_port, get, log_tail, stop
from _tools import tool

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"
STARTUP_TIMEOUT_S = 300
NOTEBOOK_TIMEOUT_S = 600


course_dist = tool("course_dist")


def _clean_env(**extra) -> dict[str, str]:
    """This environment without what would put the checkout or another venv on a Python's path."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "JUPYTER_CONFIG_PATH",
            "JUPYTER_PATH", "JUPYTER_DATA_DIR")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


# -- the start command, in this Python ----------------------------------------------------------


@pytest.fixture
def course(tmp_path) -> start.Material:
    """A small course: two notebooks, a figure, the lab settings."""
    source = start.Material(tmp_path / "src" / "notebooks", tmp_path / "src" / "figures",
                            tmp_path / "src" / "lab-config")
    for folder in (source.notebooks, source.figures, source.lab_config):
        folder.mkdir(parents=True)
    (source.notebooks / start.INDEX).write_text('{"cells": []}', "utf-8")
    (source.notebooks / "01-first.ipynb").write_text('{"cells": [1]}', "utf-8")
    (source.figures / "01-a.png").write_bytes(b"\x89PNG a")
    return source


def test_start_copies_the_course_and_keeps_what_the_reader_changed(course, tmp_path):
    folder = tmp_path / "my course"
    first = start.copy_course(folder, course)
    assert sorted(p.relative_to(folder).as_posix() for p in first.copied) == [
        "figures/01-a.png", "notebooks/00-index.ipynb", "notebooks/01-first.ipynb"]
    assert (folder / "notebooks" / "01-first.ipynb").read_text("utf-8") == '{"cells": [1]}'
    mine = '{"cells": [1, "my answer"]}'
    (folder / "notebooks" / "01-first.ipynb").write_text(mine, "utf-8")
    (folder / "notebooks" / "my-notes.ipynb").write_text("{}", "utf-8")
    (folder / "figures" / "01-a.png").unlink()
    again = start.copy_course(folder, course)
    assert [p.name for p in again.copied] == ["01-a.png"]
    assert [p.name for p in again.same] == ["00-index.ipynb"]
    assert [p.name for p in again.kept] == ["01-first.ipynb"]
    assert (folder / "notebooks" / "01-first.ipynb").read_text("utf-8") == mine
    assert (folder / "notebooks" / "my-notes.ipynb").read_text("utf-8") == "{}"
    said = start.report(again)
    assert "kept 1 of your files" in said and "notebooks/01-first.ipynb" in said, said


def test_start_refuses_a_folder_it_must_not_write_to(course, tmp_path):
    a_file = tmp_path / "course.txt"
    a_file.write_text("mine", "utf-8")
    with pytest.raises(start.CourseError, match="FOLDER: .* is a file"):
        start.copy_course(a_file, course)
    assert a_file.read_text("utf-8") == "mine"
    installed = Path(start.__file__).resolve().parent / "my-course"
    with pytest.raises(start.CourseError, match="FOLDER: .* where Python's packages are installed"):
        start.copy_course(installed, course)
    assert not installed.exists()
    import site

    packages = Path(site.getsitepackages()[0]) / "my-course"
    with pytest.raises(start.CourseError, match="FOLDER"):
        start.copy_course(packages, course)
    assert not packages.exists()


def test_start_without_a_folder_names_it(capsys):
    with pytest.raises(SystemExit) as exit_:
        start.main(["start"])
    assert exit_.value.code == 2
    assert "FOLDER" in capsys.readouterr().err


def test_lab_command_opens_the_course_map_with_the_course_settings(course, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/the/readers/own")
    argv, env = start.lab_command(tmp_path, course, ["--port=8899"])
    assert argv[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path}" in argv and argv[-2:] == ["notebooks/00-index.ipynb", "--port=8899"]
    assert ("--allow-root" in argv) == (os.geteuid() == 0)
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(course.lab_config), "/the/readers/own"]


def test_setup_check_names_what_is_missing(monkeypatch, capsys, tmp_path):
    from packaging.requirements import Requirement

    wanted = start.lesson_requirements()
    assert {r.name for r in wanted} >= {"numpy", "scikit-learn", "jupyterlab"}, wanted
    if shutil.which("java") or os.environ.get("JAVA_HOME"):   # the ready line says Java is found
        assert start.check_setup(str(start.material().figures)) is True
        assert capsys.readouterr().out.startswith("ready: evalkit, the course and the packages")
    monkeypatch.setattr(start, "lesson_requirements",
                        lambda: wanted + [Requirement("no-such-package-here>=1"), Requirement("numpy<1")])
    assert start.check_setup(str(tmp_path)) is False
    out = capsys.readouterr().out
    assert out.startswith("not ready:"), out
    assert "no-such-package-here is not installed" in out
    assert "numpy" in out and "the lessons need numpy<1" in out
    assert f"figures are not in {tmp_path}" in out


# -- a reader: the two wheels, the documented commands ------------------------------------------


def _sh_blocks(text: str) -> list[list[str]]:
    return [block.strip().splitlines() for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_the_readme_and_the_site_give_the_tested_commands():
    commands = course_dist.install_commands()
    readme = (ROOT / "README.md").read_text("utf-8")
    assert commands in _sh_blocks(readme), (
        "README.md's Install section must give exactly these commands, as one ```sh block:\n"
        + "\n".join(commands))
    make_site = tool("make_site")
    page = make_site.intro_page(make_site.course_notebooks())
    assert commands in _sh_blocks(page)
    for name in course_dist.wheel_names():
        assert f'href="{make_site.DOWNLOADS}/{name}"' in page
        assert name in readme


@pytest.fixture(scope="module")
def reader_wheels(tmp_path_factory) -> tuple[Path, Path]:
    return course_dist.build_wheels(tmp_path_factory.mktemp("wheels"))


def _site_packages_hash(venv: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted((venv / "lib").rglob("evalkit/course/**/*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


EXECUTE = """
import json, sys
import nbformat
from nbclient import NotebookClient

done = {}
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(__import__("pathlib").Path(path).parent)}}).execute()
    done[path] = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
print(json.dumps(done))
""".replace("TIMEOUT", str(NOTEBOOK_TIMEOUT_S))


@pytest.mark.install
def test_a_reader_installs_and_starts_the_course(reader_wheels, tmp_path):
    assert tuple(p.name for p in reader_wheels) == course_dist.wheel_names()
    home = tmp_path / "reader"
    home.mkdir()
    for wheel in reader_wheels:
        shutil.copy2(wheel, home / wheel.name)
    make_venv, install, start_course = course_dist.install_commands()
    env = _clean_env(PIP_CONSTRAINT=str(LOCK), PIP_NO_COMPILE="1", JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"))
    for command in (make_venv, install):
        _run(["bash", "-euc", command], cwd=home, env=env)
    venv = home / "evalkit-env"
    python = venv / "bin" / "python"

    # the venv's own evalkit and course, nothing of the checkout
    code = "import evalkit, evalkit.course, evalkit.course.exercises; print(evalkit.__file__); print(evalkit.course.__file__)"
    files = _run([str(python), "-I", "-c", code], cwd=home, env=env).stdout.split()
    assert len(files) == 2 and all(Path(f).is_relative_to(venv) for f in files), files
    packaged = _site_packages_hash(venv)

    # the documented start command, as it is: JupyterLab answers with the course map, then stops
    port, token = free_port(), secrets.token_hex(16)
    lab_env = dict(env, JUPYTER_PORT=str(port), JUPYTER_PORT_RETRIES="0", JUPYTER_TOKEN=token, BROWSER="true")
    log_path = tmp_path / "lab.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(["bash", "-euc", start_course], cwd=home, env=lab_env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}/api/contents/notebooks/00-index.ipynb?token={token}"
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        status = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, body = get(url)
            except OSError:
                status = None
            if status == 200:
                break
            time.sleep(0.5)
        assert status == 200, f"no course map from the start command's JupyterLab:\n{log_tail(log_path)}"
        assert json.loads(body)["type"] == "notebook"
    finally:
        stop(proc)
    course = home / "my-course"
    notebooks = sorted(p.name for p in (course / "notebooks").glob("*.ipynb"))
    assert notebooks == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (course / "figures").iterdir()) == sorted(
        p.name for p in (ROOT / "figures").glob("*.png"))
    assert "files copied" in log_tail(log_path)

    # notebooks 00 and 01 run there, top to bottom, in the venv's own kernel
    runs = [str(course / "notebooks" / name) for name in notebooks[:2]]
    outputs = json.loads(_run([str(python), "-I", "-c", EXECUTE, *runs], cwd=home, env=env).stdout)
    assert any(text.startswith("ready: ") for text in outputs[runs[0]]), outputs[runs[0]]
    assert any(outputs[runs[1]]), "notebook 01 printed nothing"

    # again, copy only: all there, the reader's edit kept, nothing written into site-packages
    edited = course / "notebooks" / notebooks[1]
    edited.write_text(edited.read_text("utf-8").replace("accuracy", "Accuracy", 1), "utf-8")
    again = _run(["bash", "-euc", start_course + " --no-lab"], cwd=home, env=env).stdout
    assert "0 files copied" in again and f"notebooks/{notebooks[1]}" in again, again
    assert _site_packages_hash(venv) == packaged


# -- a class: the student environment --------------------------------------------------------------


SETUP_AND_DATA = """
import json, sys
import nbformat
from nbclient import NotebookClient

def runs(nb):
    section = None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("## "):
                    section = line[3:].strip().lower()
            continue
        data = cell.get("metadata", {}).get("evalkit", {}).get("data")
        if (section or "").startswith("setup") or data:
            yield cell

# One kernel for all: each notebook starts from an empty namespace (%reset), and the modules its
# setup imports are already loaded when an earlier one imported them (the kernel's start and the
# imports are most of the time).
combined = nbformat.v4.new_notebook()
ran = {}
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    cells = list(runs(nb))
    combined.cells.append(nbformat.v4.new_code_cell("%reset -f\\nprint(" + repr(path) + ")"))
    combined.cells += cells
    ran[path] = len(cells)
NotebookClient(combined, timeout=TIMEOUT, kernel_name="python3",
               resources={"metadata": {"path": str(__import__("pathlib").Path(sys.argv[1]).parent)}}).execute()
print(json.dumps(ran))
""".replace("TIMEOUT", str(NOTEBOOK_TIMEOUT_S))


@pytest.fixture(scope="module")
def classroom():
    pytest.importorskip("nbgrader")
    return tool("classroom")


@pytest.fixture(scope="module")
def handed_out(classroom, tmp_path_factory):
    """Every notebook a teacher hands out, in one student's version, and the course it came from."""
    course = tmp_path_factory.mktemp("course")
    (course / "secret").write_text("test-secret\n", encoding="utf-8")
    classroom.build_assignments(["Ada"], (), course=course)
    return course, sorted((course / "release" / "Ada" / "notebooks").glob("*.ipynb"))


@pytest.mark.install
def test_the_student_environment_runs_every_handed_out_notebooks_setup(student_env, handed_out):
    course, notebooks = handed_out
    assert [p.name[:2] for p in notebooks] == [f"{n:02d}" for n in range(1, 13)], notebooks
    python = student_env / "bin" / "python"
    out = _run([str(python), "-I", "-c", SETUP_AND_DATA, *map(str, notebooks)], cwd=course,
               env=_clean_env(MPLBACKEND="Agg")).stdout
    ran = json.loads(out)
    assert all(count >= 2 for count in ran.values()), ran   # a setup cell and a data cell at least


@pytest.mark.install
def test_the_students_start_command_offers_no_notebook_that_needs_the_key(student_env, tmp_path):
    with zipfile.ZipFile(next(student_env.parent.glob("evalkit_course-*.whl"))) as zf:
        shipped = sorted(n for n in zf.namelist() if n.endswith(".ipynb"))
    assert shipped == ["evalkit/course/notebooks/00-index.ipynb"]
    out = _run([str(student_env / "bin" / "evalkit-course"), "start", str(tmp_path / "class"), "--no-lab"],
               cwd=tmp_path, env=_clean_env()).stdout
    assert "put the notebooks your teacher hands out into" in out, out
    assert sorted(p.name for p in (tmp_path / "class" / "notebooks").iterdir()) == ["00-index.ipynb"]


@pytest.mark.install
@pytest.mark.parametrize("unsafe", [False, True], ids=["sandbox", "unsafe"])
def test_the_grader_runs_a_submission_in_the_student_environment(classroom, student_env, handed_out, tmp_path,
                                                                 unsafe):
    if not unsafe and tool("sandbox").kind() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no sandbox (bubblewrap) runs here")
        pytest.skip("no sandbox (bubblewrap) here")
    nbformat = pytest.importorskip("nbformat")
    course, notebooks = handed_out
    spec = classroom.graded_specs(nbformat.read(ROOT / "notebooks" / notebooks[0].name, as_version=4))[0]
    nb = nbformat.read(notebooks[0], as_version=4)
    [answer] = [c for c in nb.cells if c.get("metadata", {}).get("evalkit", {}).get("answer") == spec.id]
    answer.source = (
        "import sys, importlib.util\n"
        f"{spec.name} = [sys.prefix, str(importlib.util.find_spec('evalkit.course.exercises'))]\n")
    submitted = tmp_path / notebooks[0].name
    nbformat.write(nb, submitted)
    python = classroom.student_python(student_env)
    secret = (course / "secret").read_text("utf-8").strip().encode()
    _, answers, note = classroom.run_submission(submitted, [spec], "Ada", secret, tmp_path / "work",
                                                python=python, unsafe=unsafe, timeout=NOTEBOOK_TIMEOUT_S)
    answer = json.loads((answers / f"{spec.id}.json").read_text("utf-8"))["answer"]
    # the sandbox binds the student environment read-only at its own path; unsafe runs it in place
    assert answer == [str(Path(python).parent.parent), "None"], (answer, note)


def test_grading_refuses_an_environment_that_is_not_the_students(classroom, tmp_path):
    with pytest.raises(classroom.ClassroomError, match="run `make student-env` first"):
        classroom.student_python(tmp_path / "nothing")
    # this checkout's venv: evalkit is the repository's, with the key
    with pytest.raises(classroom.ClassroomError, match="outside it|holds the answer key"):
        classroom.student_python(Path(sys.prefix))
    other = tmp_path / "other"
    (other / "bin").mkdir(parents=True)
    (other / "bin" / "python").symlink_to(sys.executable)
    (other / "pyvenv.cfg").write_text("home = /opt/another/python/bin\n", "utf-8")
    with pytest.raises(classroom.ClassroomError, match="made with another Python"):
        classroom.student_python(other)
