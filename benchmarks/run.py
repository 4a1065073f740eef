#!/usr/bin/env python3
"""Run the benchmark workloads and print evalkit against its references.

    python benchmarks/run.py [FILTER ...] [--repeat N]

Workloads come from ``WORKLOADS`` in every ``benchmarks/bench_*.py``. A
FILTER keeps the workloads whose name or file name contains it (any of
several; case-insensitive).  ``make bench BENCH=confusion`` passes one.

Each workload's ``check(evalkit_result, reference_result)`` runs once before
timing; a workload whose check fails is not timed and makes the run exit 1.
A ``budget_s`` is reported as PASS/MISS and never fails the run.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # bench files do `from _harness import ...`

from _harness import Workload, best_of, best_of_pair, bind, format_seconds  # noqa: E402


def discover(folder: Path = HERE) -> list[tuple[str, Workload]]:
    """(file stem, workload) for every workload of every bench_*.py, in order."""
    found = []
    for path in sorted(folder.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        workloads = getattr(module, "WORKLOADS", None)
        if workloads is None:
            raise SystemExit(f"{path.name} defines no WORKLOADS list")
        found += [(path.stem, Workload.coerce(w)) for w in workloads]
    return found


def selected(stem: str, workload: Workload, filters: list[str]) -> bool:
    if not filters:
        return True
    haystack = f"{stem} {workload.name}".lower()
    return any(f.lower() in haystack for f in filters)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("filters", nargs="*", metavar="FILTER",
                        help="substring of a workload's name or file name")
    parser.add_argument("--repeat", type=int, default=5,
                        help="samples per callable; the best counts (default 5)")
    args = parser.parse_args(argv)

    workloads = [(s, w) for s, w in discover() if selected(s, w, args.filters)]
    if not workloads:
        what = f" matching {args.filters}" if args.filters else ""
        print(f"No benchmark workloads{what} in {HERE} "
              "(add benchmarks/bench_*.py; see benchmarks/README.md).")
        return 0

    headers = ("workload", "evalkit", "reference", "ref/evalkit", "budget")
    rows = []
    notes = []
    failed = 0
    for stem, w in workloads:
        print(f"… {w.name}", file=sys.stderr, flush=True)
        inputs = w.setup()
        run_ek = bind(w.evalkit, inputs)
        run_ref = bind(w.reference, inputs) if w.reference else None
        if w.check is not None and run_ref is not None:
            try:
                w.check(run_ek(), run_ref())
            except Exception:
                failed += 1
                print(f"CHECK FAILED for {w.name}:\n{traceback.format_exc()}",
                      file=sys.stderr)
                rows.append((w.name, "check failed", "", "", ""))
                continue
        repeat = min(args.repeat, w.repeat) if w.repeat else args.repeat
        if run_ref:  # samples interleaved: drift moves both alike
            ek, ref = best_of_pair(run_ek, run_ref, repeat=args.repeat, second_repeat=repeat)
        else:
            ek, ref = best_of(run_ek, repeat=args.repeat), None

        ref_cell = f"{format_seconds(ref.best_s)} {w.reference_name}" if ref else "—"
        if ref:
            ratio = ref.best_s / ek.best_s
            ratio_cell = f"{ratio:.1f}x faster" if ratio >= 1 else f"{1 / ratio:.1f}x slower"
        else:
            ratio_cell = "—"
        if w.budget_s is not None:
            verdict = "PASS" if ek.best_s <= w.budget_s else "MISS"
            budget_cell = f"≤ {format_seconds(w.budget_s)} {verdict}"
        else:
            budget_cell = ""
        rows.append((w.name, format_seconds(ek.best_s), ref_cell, ratio_cell, budget_cell))
        print(f"  {' | '.join(rows[-1][1:])}", file=sys.stderr, flush=True)  # kept if a later one fails
        if w.note:
            notes.append(f"{w.name}: {w.note}")

    widths = [max(len(str(r[i])) for r in (headers, *rows)) for i in range(len(headers))]
    line = "  ".join("-" * n for n in widths)
    print(f"best of {args.repeat}, time per call (time.perf_counter)")
    print("  ".join(h.ljust(n) for h, n in zip(headers, widths)).rstrip())
    print(line)
    for row in rows:
        print("  ".join(str(c).ljust(n) for c, n in zip(row, widths)).rstrip())
    for note in notes:
        print(f"note: {note}")
    if failed:
        print(f"{failed} workload(s) failed their check", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
