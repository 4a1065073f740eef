"""Starting, polling and stopping local servers in the tests (`make lab`, Voila).

Every request goes to 127.0.0.1 directly, whatever the *_proxy variables say;
a server runs in its own process group, stopped as one.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    """(status, body) of a GET; an OSError when nothing listens."""
    try:
        with OPENER.open(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def http_status(url: str) -> int | None:
    """The status of a GET, or None when nothing listens."""
    try:
        return get(url)[0]
    except OSError:
        return None


def log_tail(log_path: Path) -> str:
    return log_path.read_text(errors="replace")[-4000:]


def stop(proc: subprocess.Popen, term_grace: float = 10) -> None:
    """Stop a server and its children: its whole process group, TERM first, then KILL."""
    for sig, grace in ((signal.SIGTERM, term_grace), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    proc.wait(timeout=5)
