#!/usr/bin/env python3
"""Lighthouse's mobile audit of the built course site: the landing page and the heaviest lesson.

    python tools/site_audit.py [--site site] [--pages index.html,notebooks/04-....html]
                               [--server gzip|plain|both] [--runs 3]       (make site-audit)

Lighthouse (npm, pinned with every dependency by version and integrity in
``tools/site-audit/package-lock.json``, installed once with ``npm ci`` into ``build/site-audit/``,
never shipped) runs in Debian's Chromium (``$EVALKIT_CHROMIUM`` or ``/usr/bin/chromium``) with its
default mobile settings: a phone's screen, 4x slower processor and a slow 4G network, simulated.

The site is served from this machine on a free loopback port, by the standard library:

* ``gzip`` (the default): text compressed as every web host that publishes a site does (GitHub
  Pages, Netlify, a CDN; Lighthouse's "enable text compression" audit asks for it);
* ``plain``: as ``python3 -m http.server`` serves it (what ``make site`` prints, for a classroom
  network), nothing compressed.

The heaviest lesson is the one whose page and images weigh most. Each page is audited ``--runs``
times and the run with the median score counts: Lighthouse measures the processor's work as it
happens (then slows it four times), so a busy machine adds to the blocking time of single runs;
each line says the machine's load and Lighthouse's own benchmark of it. The figures are printed
and written to ``build/site-audit/report.json``; each run's full Lighthouse report is beside it.
This takes a minute or two a page on a busy machine: it is not part of ``make test``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK_DIR = Path(__file__).resolve().parent / "site-audit"
WORK = ROOT / "build" / "site-audit"
LIGHTHOUSE_TIMEOUT_S = 600
# What the table shows of each report: Lighthouse's metric audits.
METRICS = {"FCP": "first-contentful-paint", "LCP": "largest-contentful-paint",
           "TBT": "total-blocking-time", "CLS": "cumulative-layout-shift", "SI": "speed-index"}
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")


class AuditError(RuntimeError):
    pass


def chromium() -> str:
    path = os.environ.get("EVALKIT_CHROMIUM") or "/usr/bin/chromium"
    if not os.access(path, os.X_OK):
        raise AuditError(f"no Chromium at {path}: apt-get install chromium, or set EVALKIT_CHROMIUM")
    return path


def lighthouse() -> Path:
    """The pinned Lighthouse, installed by `npm ci` into WORK when missing or when the lock changed."""
    WORK.mkdir(parents=True, exist_ok=True)
    lock = (LOCK_DIR / "package-lock.json").read_bytes()
    binary = WORK / "node_modules" / ".bin" / "lighthouse"
    installed = WORK / "package-lock.json"
    if binary.exists() and installed.exists() and installed.read_bytes() == lock:
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise AuditError("npm is needed once to install Lighthouse (apt-get install npm)")
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(LOCK_DIR / name, WORK / name)
    # --ignore-scripts: nothing runs at install time (Lighthouse uses the Chromium given to it)
    proc = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=WORK,
                          capture_output=True, text=True, timeout=LIGHTHOUSE_TIMEOUT_S)
    if proc.returncode != 0 or not binary.exists():
        raise AuditError(f"npm ci (Lighthouse) failed:\n{proc.stderr[-2000:]}")
    return binary


class _Handler(http.server.SimpleHTTPRequestHandler):
    """http.server's files; text compressed with gzip when the server was asked to."""

    compress = False

    def log_message(self, format, *args):  # noqa: A002 - the standard library's name
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        ctype = self.guess_type(str(path))
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and wants and path.is_file() and ctype.startswith(COMPRESSED_TYPES)):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *args) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


@contextlib.contextmanager
def served(site: Path, compress: bool):
    """SITE on a free port of 127.0.0.1 (gzip when COMPRESS); yields the base URL; always stopped."""
    handler = type("Handler", (_Handler,), {"compress": compress})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


_IMAGE = re.compile(r'<img\b[^>]*?\ssrc="(?!data:)([^"]+)"')


def page_weight(site: Path, page: Path) -> int:
    """Bytes of a page and the image files it shows (its data: images are in the page's bytes)."""
    total = page.stat().st_size
    for src in set(_IMAGE.findall(page.read_text("utf-8"))):
        image = (page.parent / src.split("?")[0]).resolve()
        if image.is_file() and site.resolve() in image.parents:
            total += image.stat().st_size
    return total


def default_pages(site: Path) -> list[str]:
    """The landing page and the heaviest lesson."""
    lessons = sorted((site / "notebooks").glob("[0-9][0-9]-*.html"))
    if not lessons:
        raise AuditError(f"{site} holds no lessons: run `make site` first")
    heaviest = max(lessons, key=lambda p: page_weight(site, p))
    return ["index.html", heaviest.relative_to(site).as_posix()]


def audit(binary: Path, url: str, report: Path) -> dict:
    """Run Lighthouse (mobile, performance) on URL; return its figures."""
    env = dict(os.environ, CHROME_PATH=chromium())
    cmd = [str(binary), url, "--quiet", "--only-categories=performance", "--output=json",
           f"--output-path={report}", "--chrome-flags=--headless=new --no-sandbox --disable-gpu"]
    # its own process group, stopped whole: Lighthouse's Chromium must not outlive an interrupted run
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=LIGHTHOUSE_TIMEOUT_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if proc.returncode != 0 or not report.exists():
        raise AuditError(f"lighthouse {url} failed:\n{stderr[-2000:]}")
    result = json.loads(report.read_text("utf-8"))
    audits = result["audits"]
    figures = {"performance": round(100 * result["categories"]["performance"]["score"])}
    for short, key in METRICS.items():
        figures[short] = audits[key]["numericValue"]
    figures["bytes"] = audits["total-byte-weight"]["numericValue"]
    figures["requests"] = len(audits["network-requests"]["details"]["items"])
    figures["benchmark"] = result["environment"]["benchmarkIndex"]
    figures["load"] = os.getloadavg()[0]
    return figures


def median_run(runs: list[dict]) -> dict:
    """The run with the median performance score (the lower middle one of an even count)."""
    ordered = sorted(runs, key=lambda f: f["performance"])
    return ordered[(len(ordered) - 1) // 2]


def row(page: str, server: str, f: dict) -> str:
    return (f"{page:<44} {server:<6} {f['performance']:>4}  FCP {f['FCP'] / 1000:4.1f} s  "
            f"LCP {f['LCP'] / 1000:4.1f} s  TBT {f['TBT']:4.0f} ms  CLS {f['CLS']:.3f}  "
            f"SI {f['SI'] / 1000:4.1f} s  {f['bytes'] / 1024:6.0f} KiB in {f['requests']} requests  "
            f"(load {f['load']:.1f}, benchmark {f['benchmark']:.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="the built site (make site)")
    parser.add_argument("--pages", help="comma-separated pages (default: the landing page and "
                        "the heaviest lesson)")
    parser.add_argument("--server", choices=("gzip", "plain", "both"), default="gzip")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; the median counts")
    args = parser.parse_args(argv)
    try:
        site = args.site.resolve()
        pages = args.pages.split(",") if args.pages else default_pages(site)
        binary = lighthouse()
        servers = ("gzip", "plain") if args.server == "both" else (args.server,)
        results = []
        for server in servers:
            with served(site, compress=(server == "gzip")) as base:
                for page in pages:
                    runs = []
                    for run in range(1, args.runs + 1):
                        name = f"{Path(page).stem}-{server}-{run}.json"
                        runs.append(audit(binary, f"{base}/{page}", WORK / name))
                        print("  run", run, row(page, server, runs[-1]), flush=True)
                    median = median_run(runs)
                    print("median", row(page, server, median), flush=True)
                    results.append({"page": page, "server": server, "median": median, "runs": runs})
    except AuditError as e:
        print(f"site_audit: {e}", file=sys.stderr)
        return 1
    (WORK / "report.json").write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    print(f"reports in {WORK}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
