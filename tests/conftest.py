"""Fixtures shared by the test modules: the run's one local SparkSession."""

from __future__ import annotations

import os
import shutil

import pytest

JAVA_HELP = ("Java is not installed: Spark needs a Java 17+ runtime on PATH or in JAVA_HOME "
             "(Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; macOS: "
             "brew install openjdk@17; or conda install -c conda-forge openjdk=17)")


def spark_missing() -> str | None:
    """Why the real-Spark tests cannot run here, or None."""
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark or pyarrow is not installed (pip install -e '.[spark]')"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return JAVA_HELP
    return None


@pytest.fixture(scope="session")
def spark():
    """The run's one local SparkSession (evalkit.spark.session; nothing stops it early).

    Skipped with the reason when pyspark or Java is missing -- except under
    CI=true, where the real-Spark tests must run.
    """
    missing = spark_missing()
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but the real-Spark tests cannot run: {missing}")
        pytest.skip(missing)
    from evalkit.spark import session

    return session("evalkit-tests", shuffle_partitions=2)
