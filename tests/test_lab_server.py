"""`make lab` serves the course: run exactly the command the README gives
(`make lab`, no extra arguments, as whichever user runs the tests -- root in
CI), on a free local port and with a token passed through Jupyter's own
environment variables, fetch the index notebook through Jupyter's contents
API, check that the learner's lab has neither nbgrader's classroom tools nor
JupyterLab's announcements, then stop the server."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import time
from pathlib import Path

import pytest

from _servers import free_port, get, log_tail, stop

ROOT = Path(__file__).resolve().parent.parent
INDEX = "notebooks/00-index.ipynb"
STARTUP_TIMEOUT_S = 300  # a first `make lab` fetches the font package with npm (tools/lab_font.py)


def first_heading(nb: dict) -> str | None:
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown" or "evalkit" in cell.get("metadata", {}):
            continue
        source = cell["source"]
        text = "".join(source) if isinstance(source, list) else source
        for line in text.splitlines():
            if line.startswith("# "):
                return line[2:].strip()
    return None


def test_make_lab_serves_the_course(tmp_path):
    stamp_up_to_date = subprocess.run(
        ["make", "-q", ".venv/.installed"], cwd=ROOT, capture_output=True
    ).returncode == 0
    if not stamp_up_to_date:
        pytest.skip(".venv is missing or stale: run `make venv` (make test does)")

    port = free_port()
    token = secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_PORT=str(port),
        JUPYTER_PORT_RETRIES="0",
        JUPYTER_TOKEN=token,
        BROWSER="true",  # the "browser" jupyter opens is /bin/true
    )
    log_path = tmp_path / "lab.log"
    base = f"http://127.0.0.1:{port}"
    url = f"{base}/api/contents/{INDEX}?token={token}"

    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            ["make", "lab"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, killed as one
        )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        status, body = None, b""
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(
                    f"`make lab` exited with {proc.returncode}:\n"
                    + log_tail(log_path)
                )
            try:
                status, body = get(url)
            except OSError:  # not listening yet
                time.sleep(0.5)
                continue
            if status == 200:
                break
            if status == 404:
                pytest.fail(
                    f"the server at {base} does not serve {INDEX} from the repo root:\n"
                    + log_tail(log_path)
                )
            time.sleep(0.5)
        else:
            pytest.fail(
                f"no answer from {base} within {STARTUP_TIMEOUT_S} s "
                f"(last status {status}):\n"
                + log_tail(log_path)
            )

        model = json.loads(body)
        assert model["type"] == "notebook"
        assert model["path"] == INDEX
        cells = model["content"]["cells"]
        assert cells, "the served notebook has no cells"
        on_disk = json.loads((ROOT / INDEX).read_text("utf-8"))
        assert first_heading(model["content"]) == first_heading(on_disk)
        assert first_heading(on_disk)

        # The token was taken: without it the API refuses.
        status, _ = get(f"{base}/api/contents/{INDEX}")
        assert status == 403

        # The learner's lab: no classroom tools (nbgrader's pages and lab extension are off,
        # though nbgrader is installed), no announcements that would reach the network.
        for page in ("formgrader", "assignments", "courses"):
            status, _ = get(f"{base}/{page}?token={token}")
            assert status == 404, f"/{page} answers {status}: nbgrader's server extension is on"
        status, body = get(f"{base}/lab/tree/{INDEX}?token={token}")
        assert status == 200
        config = json.loads(re.search(rb'<script id="jupyter-config-data" type="application/json">'
                                      rb"(.*?)</script>", body, re.S).group(1))
        disabled = config["disabledExtensions"]
        assert "@jupyter/nbgrader" in disabled, disabled
        assert "@jupyterlab/apputils-extension:announcements" in disabled, disabled
        bundled = {e["name"] for e in config["federated_extensions"]}
        assert "@jupyter/nbgrader" in bundled, "nbgrader is no longer installed: this test proves nothing"
    finally:
        stop(proc, term_grace=20)  # make and jupyter
