"""The benchmark files import and declare well-formed workloads.

Nothing is timed here (timing lives in `make bench`), and no workload's
setup() is run: only the declarations are checked.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def run_module():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import run  # benchmarks/run.py

        yield run
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("run", None)
        sys.modules.pop("_harness", None)


def test_workloads_are_well_formed(run_module):
    workloads = run_module.discover()
    if not workloads:
        pytest.skip("no benchmarks/bench_*.py yet")
    names = [w.name for _, w in workloads]
    assert len(names) == len(set(names)), f"duplicate workload names: {names}"
    for stem, w in workloads:
        where = f"{stem}: {w.name!r}"
        assert w.name.strip(), f"{stem}: a workload without a name"
        assert callable(w.setup), f"{where}: setup is not callable"
        assert callable(w.evalkit), f"{where}: evalkit is not callable"
        assert w.reference is None or callable(w.reference), f"{where}: reference"
        assert w.check is None or callable(w.check), f"{where}: check"
        assert w.budget_s is None or w.budget_s > 0, f"{where}: budget_s"


def test_workload_coercion(run_module):
    from _harness import Workload, bind, Call

    w = Workload.coerce({"name": "n", "setup": tuple, "evalkit": max})
    assert (w.name, w.reference, w.reference_name) == ("n", None, "sklearn")
    assert Workload.coerce(w) is w
    assert bind(max, (1, 3))() == 3
    assert bind(dict, {"a": 1})() == {"a": 1}
    assert bind(sorted, Call([2, 1], reverse=True))() == [2, 1]
    assert bind(len, [1, 2])() == 2
