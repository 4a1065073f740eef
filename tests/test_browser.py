"""The widgets as a learner sees them, in headless Chromium driven by Playwright.

* Voila serves a small notebook with a threshold explorer; the test moves the
  threshold slider (arrow keys on its handle, then typing into its readout)
  and checks that the counts, precision and recall shown are exactly what
  evalkit computes at the new threshold, and that the figure was redrawn.
* The course site (``tools/make_site.py``, ``make site``, built with Jupyter
  Book) opens from ``file://``: its sidebar lists and opens every notebook,
  its search finds notebook 08 for "NDCG", a widget renders from its saved
  state, the glossary's Chinese is drawn with the shipped web font, and no
  request leaves the machine.

Chromium: ``$EVALKIT_CHROMIUM``, else ``/usr/bin/chromium``, else
Playwright's own browser if one was installed. Without any, the tests are
skipped, except under ``CI=true``, where they fail. Servers and browsers are
always stopped; everything is written under pytest's tmp_path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from _servers import free_port, http_status, log_tail, stop

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
INSTALL_HINT = (
    "no Chromium for the browser tests: install Debian's (`apt-get install chromium`, which "
    ".ci/run does as root) or point EVALKIT_CHROMIUM at a Chromium/Chrome binary"
)
SERVER_TIMEOUT_S = 60
RENDER_TIMEOUT_MS = 90_000
UPDATE_TIMEOUT_S = 15

# The notebook Voila serves: its data cell is also exec'd here, one source for both.
DATA_SOURCE = """\
import numpy as np
rng = np.random.default_rng(5)
y_true = (rng.random(400) < 0.35).astype(int)
y_score = np.clip(rng.normal(0.38 + 0.25 * y_true, 0.18), 0, 1).round(4) + 0.00005
"""
EXPLORER_SOURCE = """\
from evalkit.widgets import threshold_explorer
explorer = threshold_explorer(y_true, y_score)
explorer
"""


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def find_chromium() -> str | None:
    """EVALKIT_CHROMIUM, else /usr/bin/chromium, else Playwright's own download (never fetched here)."""
    env = os.environ.get("EVALKIT_CHROMIUM")
    if env:
        return env if os.access(env, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
        return path if path and os.access(path, os.X_OK) else None
    except Exception:
        return None


def skip_or_fail(reason: str) -> None:
    if in_ci():
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium_path():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        skip_or_fail("playwright is not installed (it is in the test extra: make venv)")
    path = find_chromium()
    if path is None:
        skip_or_fail(INSTALL_HINT)
    return path


@contextmanager
def browser_page(chromium_path, tmp_path):
    """A headless Chromium page that records every request's URL; always closed."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True,
                                    args=CHROMIUM_ARGS, timeout=60_000)
        try:
            context = browser.new_context(viewport={"width": 1100, "height": 1000})
            page = context.new_page()
            page.requests_seen = []
            page.on("request", lambda r: page.requests_seen.append(r.url))
            page.console_seen = []
            page.on("console", lambda m: page.console_seen.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: page.console_seen.append(f"pageerror: {e}"))
            yield page
        finally:
            browser.close()


def write_notebook(path: Path, sources: list[str]) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


@contextmanager
def voila(notebook: Path, tmp_path: Path):
    """Serve NOTEBOOK with Voila on a free loopback port; yield its base URL; always stop it."""
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_PLATFORM_DIRS="1", MPLBACKEND="Agg")
    log_path = tmp_path / "voila.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
            cwd=notebook.parent, env=env, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        # Fetching "/" would already run the notebook: poll a static file instead.
        deadline = time.monotonic() + SERVER_TIMEOUT_S
        while http_status(f"{base}/voila/static/voila.js") != 200:
            if proc.poll() is not None:
                pytest.fail(f"voila exited with {proc.returncode}:\n"
                            + log_tail(log_path))
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not answer within {SERVER_TIMEOUT_S} s:\n"
                            + log_tail(log_path))
            time.sleep(0.3)
        yield base, log_path
    finally:
        stop(proc)


def is_local(url: str) -> bool:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme in ("file", "data", "blob", "about"):
        return True
    return parts.hostname in ("127.0.0.1", "localhost", "::1")


def shown_texts(page, keys) -> dict[str, str]:
    return {k: page.inner_text(f".evalkit-{k.replace('_', '-')}").strip() for k in keys}


def wait_for_texts(page, expected_for, what: str) -> dict[str, str]:
    """Poll until the shown texts equal expected_for(readout value); return them."""
    from evalkit.widgets import EXPLORER_KEYS

    deadline = time.monotonic() + UPDATE_TIMEOUT_S
    while True:
        readout = page.inner_text(".evalkit-threshold-slider .widget-readout").strip()
        expected = expected_for(float(readout))
        shown = shown_texts(page, EXPLORER_KEYS)
        if shown == expected:
            return shown
        if time.monotonic() > deadline:
            raise AssertionError(f"after {what} (readout {readout}) the explorer shows\n{shown}\n"
                                 f"but evalkit computes\n{expected}")
        time.sleep(0.1)


def figure_png(page) -> bytes:
    return page.locator(".evalkit-figure").screenshot()


def test_threshold_explorer_in_voila(chromium_path, tmp_path):
    from evalkit._sweep import threshold_sweep
    from evalkit.widgets import explorer_state, explorer_text

    data: dict = {}
    exec(DATA_SOURCE, data)
    sweep = threshold_sweep(data["y_true"], data["y_score"])

    def expected_for(threshold):
        return explorer_text(explorer_state(sweep, threshold, 1.0))

    notebook = tmp_path / "explorer.ipynb"
    write_notebook(notebook, [DATA_SOURCE, EXPLORER_SOURCE])
    screenshot = tmp_path / "browser-threshold-explorer.png"

    with voila(notebook, tmp_path) as (base, log_path), browser_page(chromium_path, tmp_path) as page:
        try:
            page.goto(base + "/", timeout=RENDER_TIMEOUT_MS)
            page.wait_for_selector(".evalkit-threshold-explorer img.evalkit-figure",
                                   timeout=RENDER_TIMEOUT_MS)
            first = wait_for_texts(page, expected_for, "loading")
            assert first["threshold"] == "threshold 0.5000"
            before = figure_png(page)
            src_before = page.get_attribute("img.evalkit-figure", "src")

            # 1. the keyboard: arrow keys on the slider's handle, one step each
            page.focus(".evalkit-threshold-slider .noUi-handle")
            for _ in range(7):
                page.keyboard.press("ArrowLeft")
            moved = wait_for_texts(page, expected_for, "7 x ArrowLeft on the slider handle")
            assert moved["threshold"] == "threshold 0.4300", moved

            # 2. typing into the readout
            readout = page.locator(".evalkit-threshold-slider .widget-readout")
            readout.click()
            page.keyboard.press("Control+A")
            page.keyboard.type("0.61")
            page.keyboard.press("Enter")
            typed = wait_for_texts(page, expected_for, "typing 0.61 into the readout")
            assert typed["threshold"] == "threshold 0.6100"
            for k in ("precision", "recall", "above", "below"):
                assert typed[k] != first[k], f"{k} did not change between 0.50 and 0.61"
            st = explorer_state(sweep, 0.61)
            cells = {c: page.inner_text(f'.evalkit-confusion-matrix td[data-cell="{c}"]')
                     for c in ("tp", "fp", "fn", "tn")}
            assert cells == {c: f"{c.upper()} {st[c]}" for c in cells}

            # the figure was redrawn: a new image, with different pixels
            deadline = time.monotonic() + UPDATE_TIMEOUT_S
            while page.get_attribute("img.evalkit-figure", "src") == src_before:
                assert time.monotonic() < deadline, "the figure's image was never replaced"
                time.sleep(0.1)
            page.wait_for_timeout(300)
            after = figure_png(page)
            assert after != before, "the figure looks the same after moving the threshold"
        finally:
            try:
                page.screenshot(path=str(screenshot), full_page=True)
                print(f"\nscreenshot: {screenshot}")
            except Exception as e:  # the page may be gone; the failure above says why
                print(f"\nno screenshot: {e}")
        # Voila's page itself asks a CDN for MathJax, which fails offline: that is
        # no error of the widgets. Script errors are.
        print("requests outside the machine:", sorted({u for u in page.requests_seen if not is_local(u)}))
        errors = [m for m in page.console_seen if m.startswith("pageerror")]
        assert not errors, errors


# -- the static course ---------------------------------------------------------------

SITE_BUILD_TIMEOUT_S = 300


def widget_notebooks() -> list[Path]:
    """Course notebooks with a widget cell (they import evalkit.widgets)."""
    return [p for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
            if "evalkit.widgets" in p.read_text("utf-8") and not p.name.startswith("00-")]


# A Chinese character (CJK Unified Ideographs or its extension A).
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def fonts_rendering_chinese(page) -> tuple[str, list[dict]]:
    """(the Chinese text of the first element that has some, the fonts Chromium drew it with).

    The fonts come from the DevTools protocol (``CSS.getPlatformFontsForNode``):
    each is {familyName, isCustomFont (a web font), glyphCount}.
    """
    page.evaluate("document.fonts.ready.then(() => true)")
    text = page.evaluate(r"""() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (/[\u3400-\u4dbf\u4e00-\u9fff]/.test(n.textContent)
                    && n.parentElement.offsetParent !== null) {
                n.parentElement.id = 'cjk-probe';
                return n.parentElement.textContent;
            }
        }
        return null;
    }""")
    assert text, "the page shows no Chinese text"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#cjk-probe"})["nodeId"]
    return text, cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The course site, built once by tools/make_site.py (Jupyter Book) into a temporary folder."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_site
    finally:
        sys.path.remove(str(ROOT / "tools"))
    pins = json.loads(make_site.PINS.read_text("utf-8"))["packages"]
    cached = all((make_site.CACHE / f"{p['name'].lstrip('@').replace('/', '-')}-{p['version']}.tgz")
                 .exists() for p in pins)
    if not cached and shutil.which("npm") is None:
        skip_or_fail("npm is needed once to fetch the site's pinned JavaScript (apt-get install npm)")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "make_site.py"), "--out", str(out / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=SITE_BUILD_TIMEOUT_S)
    assert proc.returncode == 0, f"make_site failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return make_site, out / "site"


@contextmanager
def served(folder: Path, tmp_path: Path):
    """FOLDER served on a free loopback port by Python's http.server (as a teacher would publish
    the site; the search page fetches the result pages to show their text); always stopped."""
    port = free_port()
    log_path = tmp_path / "http.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                 "--directory", str(folder)], stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_TIMEOUT_S
        while http_status(f"{base}/index.html") != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("http.server did not start:\n" + log_tail(log_path))
            time.sleep(0.2)
        yield base
    finally:
        stop(proc)


def course_notebooks() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def test_static_site_sidebar_search_widgets_font_offline(chromium_path, site, tmp_path):
    make_site, site = site
    index = site / "index.html"
    assert index.exists()
    notebooks = course_notebooks()
    assert len(notebooks) == 12
    with_widgets = widget_notebooks()
    assert with_widgets, "no course notebook has a widget cell (from evalkit.widgets import ...)"
    assert not make_site.external_references(site), "a page loads from outside the site"

    with served(site, tmp_path) as base, browser_page(chromium_path, tmp_path) as page:
        try:
            # 1. the sidebar lists every notebook, and its links open them
            page.goto(f"{base}/index.html")
            nav = page.locator("nav.bd-docs-nav")
            hrefs = nav.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
            for nb in notebooks:
                assert any(h and h.endswith(f"notebooks/{nb.stem}.html") for h in hrefs), (nb.name, hrefs)
            for nb in (notebooks[0], notebooks[8], notebooks[-1]):
                page.goto(f"{base}/index.html")
                page.locator(f'nav.bd-docs-nav a[href$="notebooks/{nb.stem}.html"]').first.click()
                page.wait_for_url(f"**/notebooks/{nb.stem}.html")
                assert page.locator("article h1").first.inner_text().strip(), nb.name
                # every page offers its notebook for download and the glossary in its sidebar
                assert page.locator(f'a[href$="{nb.stem}.ipynb"]').count() >= 1, f"{nb.name}: no download"
                assert page.locator('nav.bd-docs-nav a[href$="glossary.html"]').count() == 1

            # 2. full-text search finds notebook 08 for "NDCG"
            page.goto(f"{base}/search.html?q=NDCG")
            page.wait_for_selector("#search-results ul.search li a", timeout=RENDER_TIMEOUT_MS)
            found = page.locator("#search-results ul.search li a").evaluate_all(
                "els => els.map(e => e.getAttribute('href'))")
            assert any("08-ranking-metrics" in (h or "") for h in found), found

            # 3. a widget renders from its saved state
            widget_nb = with_widgets[0]
            page.goto(f"{base}/notebooks/{widget_nb.stem}.html")
            page.wait_for_selector(".widget-slider", timeout=RENDER_TIMEOUT_MS)
            page.wait_for_selector("img.evalkit-figure", timeout=RENDER_TIMEOUT_MS)
            assert page.locator(".evalkit-threshold").first.inner_text().startswith("threshold ")
            box = page.locator("img.evalkit-figure").first.bounding_box()
            assert box and box["width"] > 200 and box["height"] > 100, box
            page.locator(".evalkit-threshold-explorer").first.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=str(tmp_path / "site-widget.png"))

            # 4. the glossary's Chinese is drawn with the shipped web font, not empty boxes
            page.goto(f"{base}/glossary.html")
            text, fonts = fonts_rendering_chinese(page)
            web = [f for f in fonts if f["familyName"].startswith(make_site.CJK_FONT_FAMILY)]
            assert web and all(f["isCustomFont"] for f in web), (text, fonts)
            assert sum(f["glyphCount"] for f in web) >= len(_CJK.findall(text)), (text, fonts)
        finally:
            try:
                page.screenshot(path=str(tmp_path / "site-page.png"), full_page=False)
                print(f"\nsite screenshots in {tmp_path}")
            except Exception as e:
                print(f"\nno screenshot: {e}")
        # 5. nothing left the machine
        outside = sorted({u for u in page.requests_seen if not is_local(u)})
        assert not outside, f"the course site fetched from outside the machine: {outside}"
        # every file a page asked for is in the site (the browser's own favicon.ico aside)
        missing = [line for line in (tmp_path / "http.log").read_text().splitlines()
                   if '" 404 ' in line and "/favicon.ico" not in line]
        assert not missing, missing
        errors = [m for m in page.console_seen if m.startswith("pageerror")]
        assert not errors, errors
