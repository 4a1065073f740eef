"""evalkit.spark.session names Java when Spark's JVM cannot start (notebook 09's setup)."""

from __future__ import annotations

import os
import stat

import pytest

pytest.importorskip("pyspark")
from evalkit.spark.session import _require_java  # noqa: E402


def _fake_java(tmp_path, version_line):
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text(f"#!/bin/sh\necho '{version_line}' >&2\n")
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    return str(home)


def test_no_java_is_named(monkeypatch, tmp_path):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))          # no java on it
    with pytest.raises(RuntimeError, match="Java 17 or newer"):
        _require_java()


@pytest.mark.parametrize("line", ['java version "1.8.0_392"', 'openjdk version "11.0.21" 2023-10-17'])
def test_old_java_is_named(monkeypatch, tmp_path, line):
    monkeypatch.setenv("JAVA_HOME", _fake_java(tmp_path, line))
    with pytest.raises(RuntimeError, match=r"Java (8|11) found .* Java 17 or newer"):
        _require_java()


@pytest.mark.parametrize("line", ['openjdk version "17.0.9" 2023-10-17', 'openjdk version "21" 2023-09-19'])
def test_new_java_passes(monkeypatch, tmp_path, line):
    monkeypatch.setenv("JAVA_HOME", _fake_java(tmp_path, line))
    _require_java()


def test_the_machine_java_passes():
    if not (os.environ.get("JAVA_HOME") or __import__("shutil").which("java")):
        pytest.skip("no Java here")
    _require_java()
