"""The SparkSession evalkit starts, and evalkit shipped to the executors (:func:`ship`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import contextlib
import os
import sys
import tempfile
import warnings

from .._validation import Integer, validate_params

if TYPE_CHECKING:  # pyspark is optional: named for type checkers only
    from pyspark.sql import SparkSession

_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
"""


def _quiet_log4j2_file():
    path = os.path.join(tempfile.gettempdir(), "evalkit-spark-log4j2.properties")
    with open(path, "w", encoding="utf-8") as f:
        f.write(_LOG4J2)
    return path


@contextlib.contextmanager
def _environment(**values):
    """Set environment variables while the block runs, then put back what was there.

    A classic driver reads ``PYSPARK_PYTHON`` once, when its SparkContext
    starts, and hands it to every Python worker it launches after; the
    variable is needed only during the start.
    """
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _start_classic(master, app_name, settings, log_file):
    """Start the JVM with its stderr going to ``log_file``, and its SparkContext on it.

    The JVM is a child process: PySpark's ``launch_gateway`` passes its
    ``popen_kwargs`` to ``Popen``, so the JVM's own stderr (Java's warnings,
    Spark's log) goes to the file for the JVM's whole life -- out of a
    notebook's cells, which Jupyter fills from fd 2 -- and this process's
    fd 2 is never touched.
    """
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    conf = SparkConf().setMaster(master).setAppName(app_name).setAll(list(settings.items()))
    with open(log_file, "ab") as log:
        gateway = launch_gateway(conf, popen_kwargs={"stderr": log})
    return SparkContext(conf=conf, gateway=gateway)


@validate_params(shuffle_partitions=Integer(1))
def session(app_name: str = "evalkit", *, master: str = "local[2]", driver_memory: str = "2g",
            shuffle_partitions: int = 4, log_level: str = "ERROR", log_file: str | None = None,
            config: dict | None = None) -> SparkSession:
    """Start (or return) a local SparkSession with settings that suit a laptop and the tests.

    If a SparkSession is already active -- yours, on a cluster or not -- it is
    returned as it is: nothing here changes a user's session. Otherwise a new
    one starts with ``master``, ``spark.driver.memory = driver_memory``, few
    shuffle partitions (``spark.sql.shuffle.partitions``; Spark's default of
    200 makes small jobs slow on a laptop), no web UI and no console progress
    bar, Arrow on for ``toPandas``/``createDataFrame``, the driver on
    127.0.0.1, Python workers running ``spark.pyspark.python`` from
    ``config`` (else ``PYSPARK_PYTHON``, else this interpreter: a classic
    driver hands its executors only the ``PYSPARK_PYTHON`` variable, which
    is set from it), and Spark's log
    reduced to errors from the start: no startup banner or Java warning in
    a notebook (the JVM's stderr goes to ``log_file``). ``PYSPARK_PYTHON``
    is set only while the session starts (then put back as it was); no
    warning filter outlives the call but one: PySpark's deprecation of the
    SQLContext that its own ``pyspark.mllib`` wrappers build on every call
    is ignored (only that message, from ``pyspark.sql.context``).

    Parameters
    ----------
    app_name : str, default "evalkit"
    master : str, default "local[2]"
        ``"local[*]"`` uses every core.
    driver_memory : str, default "2g"
        Takes effect only when this call starts the JVM.
    shuffle_partitions : int, default 4
    log_level : str, default "ERROR"
        Passed to ``SparkContext.setLogLevel`` on a new session.
    log_file : str, optional
        Where the JVM's own stderr goes (Java's warnings, Spark's log at
        ``log_level``); by default nowhere. Errors still reach Python as
        exceptions.
    config : dict, optional
        More Spark settings for a new session.

    Returns
    -------
    pyspark.sql.SparkSession

    Examples
    --------
    >>> from evalkit.spark import session
    >>> spark = session()                                   # doctest: +SKIP
    >>> spark.conf.get("spark.sql.shuffle.partitions")      # doctest: +SKIP
    '4'
    """
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    _require_java()
    quiet = f"-Dlog4j2.configurationFile=file:{_quiet_log4j2_file()}"
    settings = {
        "spark.driver.memory": driver_memory,
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.extraJavaOptions": quiet,
        "spark.executor.extraJavaOptions": quiet,
        "spark.sql.session.timeZone": "UTC",
    }
    settings.update(config or {})
    # a classic driver gives its executors PYSPARK_PYTHON, whatever spark.pyspark.python says
    python = settings.get("spark.pyspark.python") or os.environ.get("PYSPARK_PYTHON")
    if not python:
        python = sys.executable
    driver_python = os.environ.get("PYSPARK_DRIVER_PYTHON", sys.executable)
    with _environment(PYSPARK_PYTHON=python, PYSPARK_DRIVER_PYTHON=driver_python):
        with warnings.catch_warnings():
            # pandas 3 "not fully supported": PySpark's noise while it starts
            warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas",
                                    category=FutureWarning)
            context = _start_classic(master, app_name, settings, log_file or os.devnull)
            spark = SparkSession.builder.config(conf=context.getConf()).getOrCreate()
    context.setLogLevel(log_level)
    # The one filter that outlives the start (a notebook's cells would show the warning on
    # every call otherwise): pyspark.mllib's wrappers build an SQLContext, deprecated, on
    # each call, and PySpark warns about its own call; only that warning, from that module.
    warnings.filterwarnings("ignore", message="Deprecated in 3.0.0. Use SparkSession.builder",
                            category=FutureWarning, module="pyspark.sql.context")
    return spark


def _require_java(minimum=17):
    """Fail early, naming Java, when no Java ``minimum``+ is found (Spark 4 runs on the JVM).

    PySpark finds Java as here (``$JAVA_HOME/bin/java``, else ``java`` on the
    PATH); without it, it fails with a gateway error that does not say Java.
    """
    import re
    import shutil
    import subprocess

    home = os.environ.get("JAVA_HOME")
    java = shutil.which("java")
    if home:
        java = os.path.join(home, "bin", "java")
    need = (f"Spark needs Java {minimum} or newer: install a JDK (e.g. the package "
            f"openjdk-{minimum}-jre-headless) and put it on the PATH or set JAVA_HOME")
    if not java or not os.path.isfile(java):
        raise RuntimeError(f"no Java found (JAVA_HOME={home!r}, no java on the PATH). {need}")
    said = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    found = re.search(r'version "(\d+)(?:\.(\d+))?', said)
    if found:   # an unknown format is left to Spark
        major = int(found.group(1))
        if major == 1:   # "1.8": Java 8's old numbering
            major = int(found.group(2) or 0)
        if major < minimum:
            raise RuntimeError(f"Java {major} found ({java}). {need}")


# -- evalkit on the executors ---------------------------------------------------------------


def _is_connect(obj):
    """``obj`` (a session or a DataFrame) belongs to a Spark Connect client."""
    return type(obj).__module__.startswith("pyspark.sql.connect")


_SHIPPED_CONF = "evalkit.shipped"   # the session's own record of the zip ship() added to it


def _evalkit_zip():
    """evalkit's Python files in one zip (built once per process, named by its content)."""
    import hashlib
    import zipfile
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent   # evalkit, not evalkit.spark
    files = sorted(package.rglob("*.py"))
    digest = hashlib.sha256(b"".join(str(f.relative_to(package)).encode() + f.read_bytes()
                                     for f in files))
    path = Path(tempfile.gettempdir()) / f"evalkit-{digest.hexdigest()[:12]}.zip"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for f in files:
                z.write(f, Path("evalkit") / f.relative_to(package))
        os.replace(partial, path)
    return str(path)


def ship(spark: SparkSession) -> str:
    """Send evalkit to the executors of ``spark``, for a cluster whose Python lacks it.

    The functions that :func:`binary_metrics` runs on the executors (the
    bucket sweep, the per-partition counts) are evalkit's, so the executors'
    Python must import evalkit. Either install evalkit there (with numpy,
    pandas and pyarrow, which they need anyway), or call ``ship(spark)``
    once per session: evalkit's Python files are zipped once (a few hundred
    kB, named by their content) and added to the session as a Python file
    -- ``SparkContext.addPyFile`` on a classic session,
    ``SparkSession.addArtifacts(path, pyfile=True)`` on a Spark Connect
    session -- which puts it on the executors' ``sys.path``. A second call
    for the same session adds nothing: the session's conf records the zip
    (``evalkit.shipped``), so evalkit keeps no state of its own.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        Classic or Spark Connect.

    Returns
    -------
    str
        The zip's path.

    Examples
    --------
    >>> import evalkit.spark as eks
    >>> spark = SparkSession.builder.remote("sc://cluster:15002").getOrCreate()   # doctest: +SKIP
    >>> eks.ship(spark)                                                # doctest: +SKIP
    '/tmp/evalkit-3f0c8a1d2b4e.zip'
    """
    path = _evalkit_zip()
    if spark.conf.get(_SHIPPED_CONF, None) == path:   # recorded in the session, not in evalkit
        return path
    if _is_connect(spark):
        spark.addArtifacts(path, pyfile=True)
    else:
        spark.sparkContext.addPyFile(path)
    spark.conf.set(_SHIPPED_CONF, path)
    return path


