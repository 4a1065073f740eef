"""Fixtures shared by the test modules: the run's Spark sessions, and the course site.

``spark`` is the run's one classic local session. ``any_spark`` is the same
test on every kind of Spark a user has: ``local`` (that session), ``connect``
(a Spark Connect client of a local server the run starts) and ``cluster``
(a Spark Connect client of a standalone master with two workers, whose
executors' Python has no evalkit: it is shipped with ``evalkit.spark.ship``).
The servers start on first use and stop at the end of the run;
``EVALKIT_SPARK_TARGETS=local`` (a comma list) leaves some out.

``site`` is the course site, built once for the run (the browser tests of
``tests/test_browser.py`` and ``tests/test_site_explorers.py`` read it).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/_spark_servers.py

JAVA_HELP = ("Java is not installed: Spark needs a Java 17+ runtime on PATH or in JAVA_HOME "
             "(Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: "
             "brew install openjdk@17; or conda install -c conda-forge openjdk=17)")


def spark_missing(connect: bool = False) -> str | None:
    """Why the real-Spark tests cannot run here, or None."""
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark or pyarrow is not installed (pip install -e '.[spark]')"
    if connect:
        try:
            import google.protobuf  # noqa: F401
            import grpc  # noqa: F401
            import grpc_status  # noqa: F401
            import zstandard  # noqa: F401
        except ImportError:
            return ("the Spark Connect client's packages are not installed "
                    "(pip install -e '.[spark]': grpcio, grpcio-status, googleapis-common-protos, "
                    "zstandard)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return JAVA_HELP
    return None


@pytest.fixture(scope="session")
def spark():
    """The run's one local SparkSession (evalkit.spark.session; nothing stops it early).

    Skipped with the reason when pyspark or Java is missing -- except under
    CI=true, where the real-Spark tests must run.
    """
    _need_spark()
    from evalkit.spark import session

    return session("evalkit-tests", shuffle_partitions=2)


@pytest.fixture(scope="session")
def student_env(tmp_path_factory):
    """The classroom's student environment, made once for the run (tools/classroom.py's
    ``student_env``: the library's wheel and the course's built without the key, in a fresh venv
    pinned by constraints.txt). Returns the venv's folder; the two wheels are beside it.
    tests/test_install.py runs the released notebooks in it; tests/test_classroom.py grades in it."""
    from _tools import tool

    return tool("classroom").student_env(tmp_path_factory.mktemp("classroom"))


def _need_spark(connect=False):
    missing = spark_missing(connect)
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the real-Spark tests cannot run: {missing}")
        pytest.skip(missing)


SPARK_TARGETS = ("local", "connect", "cluster")


class SparkServices:
    """The run's Spark Connect server, standalone cluster and their client sessions, on first use."""

    def __init__(self, root):
        self.root = root
        self.servers, self.sessions = [], {}

    def _keep(self, server):
        self.servers.append(server)
        return server

    @property
    def executor_python(self):
        from _spark_servers import executor_python

        return executor_python(self.root / "executor-python")

    def connect_session(self):
        if "connect" not in self.sessions:
            from _spark_servers import ConnectServer

            self.sessions["connect"] = self._keep(ConnectServer(self.root / "connect")) \
                .session()
        return self.sessions["connect"]

    def standalone(self):
        """The standalone master and its two workers."""
        if not hasattr(self, "cluster"):
            from _spark_servers import Standalone

            self.cluster = self._keep(Standalone(self.root / "cluster"))
        return self.cluster

    def cluster_server(self):
        """A Connect server whose master is the standalone cluster (the driver of its jobs)."""
        if not hasattr(self, "_cluster"):
            from _spark_servers import ConnectServer

            self.standalone()
            self._cluster = self._keep(ConnectServer(
                self.root / "cluster-connect", master=self.cluster.url, python=self.executor_python,
                conf={"spark.executor.memory": "512m", "spark.executor.cores": "1",
                      "spark.cores.max": "2"}))
        return self._cluster

    def cluster_session(self):
        """A session of the cluster with evalkit shipped to its executors."""
        if "cluster" not in self.sessions:
            import evalkit.spark as eks

            spark = self.cluster_server().session()
            eks.ship(spark)
            self.sessions["cluster"] = spark
        return self.sessions["cluster"]

    def stop(self):
        # Close the Connect clients while their servers still answer: a client left open keeps
        # its gRPC channel's threads waiting on a server that is gone, and the run cannot exit.
        for session in self.sessions.values():
            try:
                session.stop()
            except Exception:  # a session its server already dropped has nothing left to close
                pass
        for server in reversed(self.servers):
            server.stop()


@pytest.fixture(scope="session")
def spark_services(tmp_path_factory):
    services = SparkServices(tmp_path_factory.mktemp("spark"))
    yield services
    services.stop()


def spark_targets():
    wanted = os.environ.get("EVALKIT_SPARK_TARGETS", ",".join(SPARK_TARGETS)).split(",")
    return [t for t in SPARK_TARGETS if t in wanted]


@pytest.fixture
def connect_mode(monkeypatch):
    """PySpark's functions build Spark Connect columns while the test runs (then classic again)."""
    monkeypatch.setenv("SPARK_CONNECT_MODE_ENABLED", "1")


@pytest.fixture(params=spark_targets())
def any_spark(request):
    """The test's session on each kind of Spark: local, Spark Connect, a standalone cluster."""
    if request.param == "local":
        return request.getfixturevalue("spark")
    _need_spark(connect=True)
    request.getfixturevalue("connect_mode")
    services = request.getfixturevalue("spark_services")
    return services.connect_session() if request.param == "connect" else \
        services.cluster_session()


class BuiltSite(NamedTuple):
    """The course site the run built: its folder, the builder (``tools/make_site.py``) and the
    explorer calls the build recorded (notebook stem -> cell -> calls, ``tools/site_explorers.py``)."""

    folder: Path
    make_site: ModuleType
    calls: dict


def _site_packages_missing(make_site) -> str | None:
    """Why the site cannot be built here (npm missing and the pinned packages not fetched), or None."""
    pinned = json.loads(make_site.PINS.read_text("utf-8"))
    packages = pinned["packages"] + pinned["build"]
    folder = make_site.CACHE
    cached = all((folder / f"{p['name'].lstrip('@').replace('/', '-')}-{p['version']}.tgz").exists()
                 for p in packages)
    if cached or shutil.which("npm"):
        return None
    return "npm is needed once to fetch the site's pinned JavaScript (apt-get install npm)"


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The course site, built once for the run by ``tools/make_site.py`` into a temporary folder
    (about three minutes on a loaded machine): ``tests/test_browser.py`` and
    ``tests/test_site_explorers.py`` both read it. The build's re-runs of the explorer notebooks are
    recorded on the way (``site.calls``), so the explorer tests compare the page with evalkit on the
    very arguments the build used. Skipped without npm (and nothing fetched yet), except under
    ``CI=true``, where it fails."""
    from _tools import tool

    make_site = tool("make_site")
    explorers = tool("site_explorers")  # the module make_site's build imports
    missing = _site_packages_missing(make_site)
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the site cannot be built: {missing}")
        pytest.skip(missing)
    calls = {}
    record = explorers.recorded_calls

    def recorded(path, cells):
        calls[path.stem] = record(path, cells)
        return calls[path.stem]

    out = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(explorers, "recorded_calls", recorded)
        make_site.build(out / "site", work=out / "work", log=lambda *a: None)
    return BuiltSite(out / "site", make_site, calls)
