"""Spark for the tests beyond one local session: a Spark Connect server and a standalone cluster.

Everything runs from the pip-installed pyspark (its ``bin/spark-class`` and
``bin/spark-submit``), each server a child process in its own process group,
bound to 127.0.0.1 on free ports, stopped as one group:

* :class:`ConnectServer` -- ``SparkConnectServer`` (``sbin/start-connect-server.sh``'s
  class, run in the foreground) on a ``local[2]`` master, or on a cluster;
* :class:`Standalone` -- a standalone master and two workers (one core each),
  whose executors run :func:`executor_python`: a Python with numpy, pandas and
  pyarrow but without evalkit, as on a cluster nobody installed evalkit on
  (the executors get pyspark itself from Spark's ``python/lib/pyspark.zip``,
  as on any cluster).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

from _servers import free_port, get, log_tail, stop

# what the executors' Python has: numpy, pandas, pyarrow and their dependencies
EXECUTOR_PACKAGES = ("numpy", "numpy.libs", "pandas", "pyarrow", "dateutil", "six.py", "pytz",
                     "tzdata")


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def _env(log_dir: Path, **extra) -> dict:
    """The servers' environment: Spark's home, quiet logs, 127.0.0.1, nothing of the repo on a path."""
    from evalkit.spark.session import _quiet_log4j2_file

    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SPARK_REMOTE", "SPARK_CONNECT_MODE_ENABLED")}
    quiet = f"-Dlog4j2.configurationFile=file:{_quiet_log4j2_file()}"
    env.update({"SPARK_HOME": str(spark_home()), "SPARK_LOCAL_IP": "127.0.0.1",
                "SPARK_LOG_DIR": str(log_dir), "SPARK_NO_DAEMONIZE": "1",
                "SPARK_DAEMON_JAVA_OPTS": quiet, "SPARK_DAEMON_MEMORY": "512m", **extra})
    return env


def _start(cmd, log: Path, env: dict) -> subprocess.Popen:
    out = open(log, "wb")
    try:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True, cwd=log.parent)
    finally:
        out.close()


def _wait_for(check, proc: subprocess.Popen, log: Path, what: str, timeout: float = 600):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}:\n{log_tail(log)}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.5)
    stop(proc)
    raise RuntimeError(f"{what} did not start within {timeout} s:\n{log_tail(log)}")


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def executor_python(root: Path) -> str:
    """A Python for the executors: numpy, pandas and pyarrow, never evalkit.

    A venv of this interpreter's base Python (the same version as the
    driver's, as Spark requires) whose site-packages links only
    :data:`EXECUTOR_PACKAGES` from the driver's environment.
    """
    root = Path(root)
    python = root / "bin" / "python"
    if not python.exists():
        venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
        here = Path(__import__("numpy").__file__).resolve().parent.parent
        site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip())
        for name in EXECUTOR_PACKAGES:
            if (here / name).exists():
                (site / name).symlink_to(here / name)
    # -I: as the executors start it (no PYTHONPATH of the driver's: a checkout there is not theirs)
    probe = subprocess.run([str(python), "-I", "-c", "import numpy, pandas, pyarrow; import evalkit"],
                           capture_output=True, text=True, cwd=root)
    assert "No module named 'evalkit'" in probe.stderr, probe.stderr
    return str(python)


class ConnectServer:
    """A Spark Connect server on ``master``, listening on a free port of 127.0.0.1.

    ``url`` is the ``sc://`` address for ``SparkSession.builder.remote``;
    ``python`` is what its executors run (``spark.pyspark.python``).
    """

    def __init__(self, workdir: Path, *, master: str = "local[2]", python: str = sys.executable,
                 conf: dict | None = None):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"sc://127.0.0.1:{self.port}"
        self.log = self.workdir / "connect-server.log"
        settings = {"spark.connect.grpc.binding.address": "127.0.0.1",
                    "spark.connect.grpc.binding.port": str(self.port),
                    "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
                    "spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "2",
                    "spark.driver.memory": "1g", "spark.pyspark.python": python,
                    "spark.sql.session.timeZone": "UTC", **(conf or {})}
        cmd = [str(spark_home() / "bin" / "spark-submit"), "--master", master,
               "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
               "--name", "evalkit-tests-connect"]
        for key, value in settings.items():
            cmd += ["--conf", f"{key}={value}"]
        cmd.append("spark-internal")
        # spark-submit sizes a Connect server's heap (as a Thrift server's) by
        # SPARK_DAEMON_MEMORY, ignoring spark.driver.memory: give it the driver's
        extra = {"PYSPARK_PYTHON": python, "SPARK_DAEMON_MEMORY": settings["spark.driver.memory"]}
        if python == sys.executable:   # executors with evalkit: the checkout under test's own
            import evalkit             # (a worktree's, not the one the venv has installed)

            extra["PYTHONPATH"] = str(Path(evalkit.__file__).resolve().parent.parent)
        self.proc = _start(cmd, self.log, _env(self.workdir, **extra))
        _wait_for(lambda: _listening(self.port), self.proc, self.log, "the Spark Connect server")

    def session(self):
        """A new Connect session (its own artifacts: nothing shipped to another one is seen)."""
        from pyspark.sql.connect.session import SparkSession

        return SparkSession.builder.remote(self.url).create()

    def stop(self):
        stop(self.proc)


class Standalone:
    """A standalone master and ``workers`` workers on 127.0.0.1.

    Each worker offers 2 cores and 1 GB: room for one 512 MB, 1-core executor of each of two
    applications at once (the Connect server's, and a classic session's in another process).
    """

    def __init__(self, workdir: Path, workers: int = 2):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port, self.ui_port = free_port(), free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        env = _env(self.workdir)
        spark_class = str(spark_home() / "bin" / "spark-class")
        self.procs = []
        log = self.workdir / "master.log"
        master = _start([spark_class, "org.apache.spark.deploy.master.Master", "--host",
                         "127.0.0.1", "--port", str(self.port), "--webui-port",
                         str(self.ui_port)], log, env)
        self.procs.append(master)
        _wait_for(lambda: _listening(self.port), master, log, "the standalone master")
        for i in range(workers):
            log = self.workdir / f"worker-{i}.log"
            work = self.workdir / f"worker-{i}"
            work.mkdir(exist_ok=True)
            self.procs.append(_start(
                [spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                 "--cores", "2", "--memory", "1g", "--webui-port", str(free_port()),
                 "--work-dir", str(work), self.url], log, env))
        _wait_for(lambda: self.alive_workers() == workers, master, self.workdir / "master.log",
                  f"{workers} standalone workers")

    def alive_workers(self) -> int:
        status, body = get(f"http://127.0.0.1:{self.ui_port}/json/")
        return json.loads(body).get("aliveworkers", 0) if status == 200 else 0

    def stop(self):
        for proc in reversed(self.procs):
            stop(proc)
