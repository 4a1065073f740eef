"""The widgets as a learner sees them, in headless Chromium driven by Playwright.

* Voila serves a small notebook with a threshold explorer; the test moves the
  threshold slider (arrow keys on its handle, then typing into its readout)
  and checks that the counts, precision and recall shown are exactly what
  evalkit computes at the new threshold, and that the figure was redrawn.
* The course site (``tools/make_site.py``, ``make site``, built with Jupyter
  Book), served over http:// and opened from ``file://``: the landing page says
  how to install and run the course; its sidebar lists every notebook with its
  lesson number and opens them; search finds notebook 08 for "NDCG"; each
  widget is a live explorer (``tests/test_site_explorers.py`` moves them);
  every control and image has an accessible name (Chromium's
  accessibility tree); every Chinese term is drawn with the shipped web font
  and English text never is, even without Arial; a phone's 390 px hold every
  page; MathJax and the widget manager load only where used; no request
  leaves the machine.

Chromium: ``$EVALKIT_CHROMIUM``, else ``/usr/bin/chromium``, else
Playwright's own browser if one was installed. Without any, the tests are
skipped, except under ``CI=true``, where they fail. Servers and browsers are
always stopped; everything is written under pytest's tmp_path.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
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


@pytest.fixture(scope="module")
def chromium(chromium_path):
    """One headless Chromium for the module; each test opens its own pages in fresh contexts.
    (Module scope: Playwright's synchronous API keeps an event loop running in this thread while it
    is open, and other modules' tests start their own loops.)"""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True,
                                    args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def browser_page(chromium, viewport=None, color_scheme="light", touch=False):
    """A page in a fresh context of CHROMIUM (no stored theme mode, as on a first visit) that
    records its console messages and requests; always closed."""
    context = chromium.new_context(viewport=viewport or {"width": 1100, "height": 1000},
                                   color_scheme=color_scheme, has_touch=touch, is_mobile=touch)
    try:
        page = context.new_page()
        page.console_seen = []
        page.requests_seen = []
        page.on("console", lambda m: page.console_seen.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: page.console_seen.append(f"pageerror: {e}"))
        page.on("request", lambda r: page.requests_seen.append(r.url))
        yield page
    finally:
        context.close()


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


def test_threshold_explorer_in_voila(chromium, tmp_path):
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

    with voila(notebook, tmp_path) as (base, log_path), browser_page(chromium) as page:
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

def widget_notebooks() -> list[Path]:
    """Course notebooks with a widget cell (they import evalkit.widgets)."""
    return [p for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
            if "evalkit.widgets" in p.read_text("utf-8") and not p.name.startswith("00-")]


# A Chinese character (CJK Unified Ideographs or its extension A).
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# The site lays a cell's code out only when it nears the screen (content-visibility, evalkit.css):
# a test that measures every cell's width lays them all out first.
ALL_CELLS_LAID_OUT = "div.cell { content-visibility: visible !important; contain: none !important; }"


def bring_into_view(locator) -> None:
    """Scroll LOCATOR's element to the screen and let the page draw it (a cell far from the screen
    is not laid out: content-visibility, evalkit.css)."""
    locator.scroll_into_view_if_needed()
    locator.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


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


# Roles a reader operates, and images: each needs an accessible name.
NAMED_ROLES = {"button", "slider", "link", "textbox", "searchbox", "combobox", "checkbox",
               "radio", "switch", "menuitem", "tab", "spinbutton", "image", "img"}
_FILE_LIKE = re.compile(r"(\.(png|svg|jpe?g|gif)\b|^[0-9a-f]{16,}|/_images/)", re.I)


def unnamed(page) -> list[str]:
    """Controls and images on the page without an accessible name (or named like a file),
    from Chromium's own accessibility tree (DevTools ``Accessibility.getFullAXTree``)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    bad = []
    for node in nodes:
        role = node.get("role", {}).get("value", "")
        if node.get("ignored") or role not in NAMED_ROLES:
            continue
        name = (node.get("name") or {}).get("value", "").strip()
        if not name or (role in ("image", "img") and _FILE_LIKE.search(name)):
            bad.append(f"{role} {name!r}")
    return bad


def fonts_of(page, selector: str) -> list[dict]:
    """The fonts Chromium drew the first element matching SELECTOR with."""
    page.evaluate("document.fonts.ready.then(() => true)")
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, f"nothing matches {selector}"
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


# A machine without Arial or Helvetica: the page's Latin fonts replaced by one that is nowhere.
NO_LATIN_FONTS = """:root { --pst-font-family-base: "No Such Latin Font", "Noto Sans SC", sans-serif !important;
                        --pst-font-family-heading: var(--pst-font-family-base) !important; }"""


def check_fonts(page, family: str) -> None:
    """Every Chinese term on the page in the web font FAMILY, and English text (with ’ “ ” ·)
    never in it, even where the Latin fonts of the stack are missing."""
    n = page.evaluate(r"""() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let i = 0;
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            const el = t.parentElement;
            if (/[\u3400-\u4dbf\u4e00-\u9fff]/.test(t.textContent) && el.offsetParent !== null
                    && !el.dataset.cjkProbe) {
                el.dataset.cjkProbe = String(i++);
            }
        }
        return i;
    }""")
    assert n, "the page shows no Chinese text"
    # the font's subsets load as their characters are laid out: give them a moment
    deadline = time.monotonic() + UPDATE_TIMEOUT_S
    for i in range(n):
        while True:
            fonts = fonts_of(page, f'[data-cjk-probe="{i}"]')
            web = [f for f in fonts if f["familyName"].startswith(family)]
            if web or time.monotonic() > deadline:
                break
            page.wait_for_timeout(250)
        text = page.inner_text(f'[data-cjk-probe="{i}"]')
        assert web and all(f["isCustomFont"] for f in web), (text, fonts)
        assert sum(f["glyphCount"] for f in web) >= len(_CJK.findall(text)), (text, fonts)
    page.add_style_tag(content=NO_LATIN_FONTS)
    page.evaluate(r"""() => {
        const p = [...document.querySelectorAll('article p')].find(
            e => /[’“”·]/.test(e.textContent) && !/[\u2e80-\u9fff]/.test(e.textContent));
        p.id = 'latin-probe';
    }""")
    latin = fonts_of(page, "#latin-probe")
    assert latin and not any(f["familyName"].startswith(family) for f in latin), latin


def check_site(page, site_url: str, make_site, notebooks: list[Path], with_widgets: list[Path],
               served: bool) -> None:
    """What a reader meets, page by page (over http:// when SERVED, else file://)."""
    # 1. the landing page: how to run the course (the two wheels, the commands tests/test_install.py
    # runs), the title once in its body
    page.goto(f"{site_url}/index.html")
    body = page.locator("article").inner_text()
    dist = make_site._course_dist()
    assert all(command in body for command in dist.install_commands()), body
    for name in dist.wheel_names():
        assert page.locator(f'article a[href="{make_site.DOWNLOADS}/{name}"]').count() == 1, name
        if served:
            assert page.request.get(f"{site_url}/{make_site.DOWNLOADS}/{name}").ok, name
    title = "evalkit: evaluating classifiers, correctly"
    assert page.locator("article").inner_text().count(title) == 0
    visible_search = page.locator(".search-button-field:visible, .search-button:visible, "
                                  "input[type=search]:visible")
    assert visible_search.count() == 1, "one search box, not two"
    assert not any("mathjax" in u for u in page.requests_seen), "MathJax on a page without math"
    # 2. the sidebar lists every notebook with its lesson number, and its links open them
    nav = page.locator("nav.bd-docs-nav")
    links = nav.locator("a").evaluate_all(
        "els => els.map(e => [e.getAttribute('href'), e.textContent.trim()])")
    for nb in notebooks:
        assert any(h and h.endswith(f"notebooks/{nb.stem}.html") and t.startswith(f"{nb.name[:2]} · ")
                   for h, t in links), (nb.name, links)
    for nb in (notebooks[0], notebooks[8], notebooks[-1]):
        page.goto(f"{site_url}/index.html")
        page.locator(f'nav.bd-docs-nav a[href$="notebooks/{nb.stem}.html"]').first.click()
        page.wait_for_url(f"**/notebooks/{nb.stem}.html")
        assert page.locator("article h1").first.inner_text().strip(), nb.name
        # every page offers its notebook for download and the glossary in its sidebar
        assert page.locator(f'a[href$="{nb.stem}.ipynb"]').count() >= 1, f"{nb.name}: no download"
        assert page.locator('nav.bd-docs-nav a[href$="glossary.html"]').count() == 1
        # the notebooks' own prev/next line is not repeated on the site; the course map is there
        assert "| Course map |" not in page.locator("article").inner_text(), nb.name
        if nb == notebooks[0]:
            for other in notebooks[1:]:
                assert page.locator(f'article a[href$="{other.stem}.html"]').count(), other.name
    # the download button gives the notebook as committed (served: a download, not a page)
    nb = with_widgets[0]
    page.goto(f"{site_url}/notebooks/{nb.stem}.html")
    link = page.locator(f'a[href$="{nb.stem}.ipynb"]').first
    assert link.get_attribute("download") is not None
    if served:
        with page.expect_download() as download:
            link.dispatch_event("click")
        assert Path(download.value.path()).read_bytes() == nb.read_bytes(), f"{nb.name} differs"
    # 3. full-text search finds notebook 08 for "NDCG" (served: with the page's text beside it)
    page.goto(f"{site_url}/search.html?q=NDCG")
    page.wait_for_selector("#search-results ul.search li a", timeout=RENDER_TIMEOUT_MS)
    found = page.locator("#search-results ul.search li a").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    assert any("08-ranking-metrics" in (h or "") for h in found), found
    if served:
        page.wait_for_selector("#search-results ul.search li p.context", timeout=RENDER_TIMEOUT_MS)
    else:  # no page can fetch another: no text beside the hits, and a note that says why
        assert "serve the folder" in page.inner_text(".evalkit-file-note")
    # 4. every widget is an explorer, live in the page (tests/test_site_explorers.py moves them
    #    against evalkit); names and alt texts
    for nb in with_widgets:
        page.goto(f"{site_url}/notebooks/{nb.stem}.html")
        page.wait_for_selector(".evalkit-explorer input[type=range]:enabled", timeout=RENDER_TIMEOUT_MS)
        assert not any("html-manager" in u or "require.js" in u for u in page.requests_seen)
        missing = unnamed(page)
        assert not missing, f"{nb.name}: controls or images without a name: {missing}"
    for stem in ("index", "glossary"):
        page.goto(f"{site_url}/{stem}.html")
        assert not unnamed(page), (stem, unnamed(page))
    # MathJax typesets where there is math; the theme's 1.5 MB icon script is never loaded
    page.goto(f"{site_url}/notebooks/{notebooks[4].stem}.html")
    page.wait_for_selector("mjx-container", timeout=RENDER_TIMEOUT_MS)
    assert not any("fontawesome.js" in u for u in page.requests_seen)
    # 5. the glossary's Chinese in the shipped web font, and only the Chinese
    page.goto(f"{site_url}/glossary.html")
    check_fonts(page, make_site.CJK_FONT_FAMILY)


def test_static_site_sidebar_search_widgets_font_offline(chromium, site, tmp_path):
    make_site, site = site.make_site, site.folder
    index = site / "index.html"
    assert index.exists()
    notebooks = course_notebooks()
    assert len(notebooks) >= 12, "the course map lists the lessons"
    with_widgets = widget_notebooks()
    assert with_widgets, "no course notebook has a widget cell (from evalkit.widgets import ...)"
    assert not make_site.external_references(site), "a page loads from outside the site"

    with served(site, tmp_path) as base, browser_page(chromium) as page:
        try:
            check_site(page, base, make_site, notebooks, with_widgets, served=True)
            # 6. a phone: notebook 02 (a long inline code span) fits 390 px, every cell laid out
            page.set_viewport_size({"width": 390, "height": 844})
            for nb in notebooks:
                page.goto(f"{base}/notebooks/{nb.stem}.html")
                page.add_style_tag(content=ALL_CELLS_LAID_OUT)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"{nb.name} is {width} px wide on a 390 px screen"
        finally:
            try:
                page.screenshot(path=str(tmp_path / "site-page.png"), full_page=False)
                print(f"\nsite screenshots in {tmp_path}")
            except Exception as e:
                print(f"\nno screenshot: {e}")
        # 7. nothing left the machine
        outside = sorted({u for u in page.requests_seen if not is_local(u)})
        assert not outside, f"the course site fetched from outside the machine: {outside}"
        # every file a page asked for is in the site, the favicon too
        missing = [line for line in (tmp_path / "http.log").read_text().splitlines() if '" 404 ' in line]
        assert not missing, missing
        errors = [m for m in page.console_seen if m.startswith(("pageerror", "error"))]
        assert not errors, errors


def test_static_site_from_file(chromium, site, tmp_path):
    """The README's other way in: site/index.html opened as a file, no server."""
    make_site, site = site.make_site, site.folder
    with browser_page(chromium) as page:
        check_site(page, site.as_uri(), make_site, course_notebooks(), widget_notebooks(),
                   served=False)
        outside = sorted({u for u in page.requests_seen if not is_local(u)})
        assert not outside, f"the course site fetched from outside the machine: {outside}"
        errors = [m for m in page.console_seen if m.startswith("pageerror")]
        assert not errors, errors


# -- the site on a phone, in Chinese, in the dark, and light ----------------------------
#
# Each test reads the site the `site` fixture built, served once for all of them.

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}


@pytest.fixture(scope="module")
def site_server(site, tmp_path_factory):
    """The built site served on a free loopback port for this module's tests; (base, log file)."""
    folder = site.folder
    log_dir = tmp_path_factory.mktemp("site-server")
    with served(folder, log_dir) as base:
        yield base, log_dir / "http.log"


def site_pages(folder: Path) -> list[str]:
    """Every page of the built site (the root's and the lessons), as paths from its root."""
    pages = [*folder.glob("*.html"), *(folder / "notebooks").glob("*.html")]
    return sorted(p.relative_to(folder).as_posix() for p in pages)


def read_through(page) -> None:
    """Scroll from top to bottom and back, as a reader would: each code cell is laid out once
    (content-visibility), so that a tool reading the layout sees every element where it is, and
    each live explorer (tools/site_explorers.py), which loads its table and Vega as it nears the
    screen, is drawn, charts and all."""
    page.evaluate("""async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
            scrollTo(0, y);
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        }
        scrollTo(0, 0);
    }""")
    page.wait_for_function("""() => [...document.querySelectorAll('.evalkit-explorer')]
        .every(e => e.classList.contains('evalkit-explorer-drawn'))""", timeout=RENDER_TIMEOUT_MS)


def test_site_menu_opens_on_a_phone(chromium, site_server):
    """pydata-sphinx-theme #2451: the article bar's menu button did nothing on a phone or a
    tablet. Tapped, it opens the lessons (and the glossary) and a lesson opens from it; the
    contents button opens the page's sections."""
    base, _ = site_server
    for viewport in (PHONE, TABLET):
        with browser_page(chromium, viewport, touch=True) as page:
            page.goto(f"{base}/notebooks/01-accuracy-paradox.html")
            page.locator(".bd-header-article .primary-toggle").tap()
            menu = page.locator("#pst-primary-sidebar-modal")
            page.wait_for_function("() => document.querySelector('#pst-primary-sidebar-modal').open",
                                   timeout=UPDATE_TIMEOUT_S * 1000)
            assert menu.locator('a[href$="glossary.html"]').is_visible(), viewport
            menu.locator('a[href$="05-multiclass-averaging.html"]').tap()
            page.wait_for_url("**/notebooks/05-multiclass-averaging.html")
            assert "Multiclass" in page.locator("article h1").first.inner_text()
            page.locator(".bd-header-article .secondary-toggle").tap()
            contents = page.locator("#pst-secondary-sidebar-modal")
            page.wait_for_function("() => document.querySelector('#pst-secondary-sidebar-modal').open",
                                   timeout=UPDATE_TIMEOUT_S * 1000)
            assert contents.locator("nav a").count() >= 3, viewport
            assert contents.locator("nav a").first.is_visible(), viewport
            errors = [m for m in page.console_seen if m.startswith(("pageerror", "error"))]
            assert not errors, errors


def chinese_in_code(page) -> int:
    """Mark each element inside code or an output whose own text holds Chinese; return how many."""
    return page.evaluate(r"""() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let i = 0;
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            const el = t.parentElement;
            if (/[\u3400-\u4dbf\u4e00-\u9fff]/.test(t.textContent) && el.closest('pre, code, kbd, samp')
                    && !el.dataset.cjkProbe) {
                el.dataset.cjkProbe = String(i++);
            }
        }
        return i;
    }""")


def check_chinese_drawn_with(page, family: str) -> None:
    """Every marked element's Chinese is drawn with the web font FAMILY (none as empty boxes)."""
    n = page.evaluate("document.querySelectorAll('[data-cjk-probe]').length")
    for i in range(n):
        probe = f'[data-cjk-probe="{i}"]'
        page.locator(probe).scroll_into_view_if_needed()
        deadline = time.monotonic() + UPDATE_TIMEOUT_S
        while True:
            fonts = fonts_of(page, probe)
            web = [f for f in fonts if f["familyName"].startswith(family)]
            if web or time.monotonic() > deadline:
                break
            page.wait_for_timeout(250)
        text = page.inner_text(probe)
        assert web and all(f["isCustomFont"] for f in web), (text, fonts)
        assert sum(f["glyphCount"] for f in web) >= len(_CJK.findall(text)), (text, fonts)


def test_site_chinese_in_code_and_outputs_drawn_with_the_web_font(chromium, site, site_server):
    """Code cells and outputs (monospace) drew Chinese in DejaVu Sans Mono: empty boxes. On
    screen and in print, it is the course's Noto Sans SC, from one font file."""
    make_site, folder = site.make_site, site.folder
    base, _ = site_server
    found = 0
    with browser_page(chromium) as page:
        for name in site_pages(folder):
            page.goto(f"{base}/{name}")
            page.add_style_tag(content=ALL_CELLS_LAID_OUT)
            n = chinese_in_code(page)
            if not n:
                continue
            found += n
            check_chinese_drawn_with(page, make_site.CJK_FONT_FAMILY)
            fonts = {u for u in page.requests_seen if "noto-sans-sc" in u and "/fonts/" in u}
            assert len([u for u in fonts if not u.split("?")[0].endswith(".css")]) == 1, fonts
        assert found >= 20, f"only {found} code or output elements hold Chinese: is the probe right?"
        page.goto(f"{base}/notebooks/05-multiclass-averaging.html")
        page.emulate_media(media="print")
        assert chinese_in_code(page)
        check_chinese_drawn_with(page, make_site.CJK_FONT_FAMILY)


def check_search_icon_beside_field(page, form: str) -> None:
    """The magnifying glass of FORM ends before the field's text starts, a letter typed in."""
    field = page.locator(f"{form} input").first
    field.fill("r")
    icon = page.locator(f"{form} .fa-magnifying-glass").first.bounding_box()
    box = field.bounding_box()
    padding = field.evaluate("e => parseFloat(getComputedStyle(e).paddingLeft)")
    assert icon and box, form
    assert icon["x"] + icon["width"] <= box["x"] + padding, (form, icon, box, padding)
    assert icon["width"] > 0 and page.locator(f"{form} .fa-magnifying-glass").first.evaluate(
        "e => getComputedStyle(e, '::before').content") not in ("none", '""', ""), form


def test_site_search_icon_beside_the_first_letter(chromium, site_server):
    """The search icon covered the first letter typed, on the search page and in the Ctrl+K
    dialog (the icon script the build leaves out used to place it)."""
    base, _ = site_server
    with browser_page(chromium) as page:
        page.goto(f"{base}/search.html")
        check_search_icon_beside_field(page, ".bd-search-container form.bd-search")
        page.goto(f"{base}/notebooks/03-roc-by-hand.html")
        page.keyboard.press("Control+k")
        page.wait_for_function("() => document.querySelector('#pst-search-dialog').open",
                               timeout=UPDATE_TIMEOUT_S * 1000)
        check_search_icon_beside_field(page, "#pst-search-dialog form.bd-search")


@pytest.fixture(scope="module")
def axe_source(site):
    """axe-core (tools/site-js.json's test package, npm, pinned by integrity), the script text."""
    import tarfile

    make_site = site.make_site
    pkg = next(p for p in json.loads(make_site.PINS.read_text("utf-8"))["test"] if p["name"] == "axe-core")
    try:
        tarball = make_site.fetch_package(pkg)
    except make_site.SiteError as e:
        skip_or_fail(f"no axe-core: {e}")
    with tarfile.open(tarball, "r:gz") as tar:
        return tar.extractfile("package/axe.min.js").read().decode("utf-8")


# The rules whose result depends on the colours: in dark mode the page is the same document in
# other colours, so only these can find anything new there (the others run in light mode).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def axe_violations(page, axe_source: str, rules: list[str] | None = None) -> list[str]:
    """axe-core's violations on the page (every rule it runs by default, or only RULES)."""
    page.add_script_tag(content=axe_source)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = rules
    result = page.evaluate("options => axe.run(document, options)", options)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in result["violations"]]


def test_site_axe_finds_nothing_light_and_dark(chromium, site, site_server, axe_source):
    """axe-core on every page in light and in dark mode (the reader's system setting, first
    visit), the live explorers drawn (their controls, tables and Vega's SVG charts in the theme's
    colours), and on a phone with the menu open: no violation of any rule it runs by default (in
    dark mode, of the rules that read colours: the rest cannot differ)."""
    folder = site.folder
    base, _ = site_server
    explorers = sum(len(calls) for cells in site.calls.values() for calls in cells.values())
    found, drawn = {}, 0
    for scheme in ("light", "dark"):
        with browser_page(chromium, color_scheme=scheme) as page:
            for name in site_pages(folder):
                page.goto(f"{base}/{name}")
                page.wait_for_load_state("load")
                assert page.evaluate("document.documentElement.dataset.theme") == scheme, name
                read_through(page)
                drawn += page.locator(".evalkit-explorer-drawn").count()
                rules = COLOUR_RULES if scheme == "dark" else None
                bad = axe_violations(page, axe_source, rules)
                if bad:
                    found[f"{scheme} {name}"] = bad
    # every explorer was checked drawn (its charts too), in both themes
    assert explorers >= 3 and drawn == 2 * explorers, (explorers, drawn)
    with browser_page(chromium, PHONE, touch=True) as page:
        page.goto(f"{base}/notebooks/04-auc-three-ways.html")
        page.locator(".bd-header-article .primary-toggle").tap()
        page.wait_for_function("() => document.querySelector('#pst-primary-sidebar-modal').open",
                               timeout=UPDATE_TIMEOUT_S * 1000)
        bad = axe_violations(page, axe_source)
        if bad:
            found["phone, menu open"] = bad
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_site_figures_and_formulas_on_a_phone_and_in_print(chromium, site, site_server):
    """On a phone a figure is shrunk: it links to itself at full size. A display formula wider
    than the screen scrolls sideways (a tab stop then) and no formula reaches past the screen's
    edge. In print, no code line runs off the page and a code box may break across pages."""
    folder = site.folder
    base, log = site_server
    lessons = [n for n in site_pages(folder) if n.startswith("notebooks/")]
    figures = formulas = scrolling = 0
    with browser_page(chromium, PHONE, touch=True) as page:
        for name in lessons:
            page.goto(f"{base}/{name}")
            page.add_style_tag(content=ALL_CELLS_LAID_OUT)
            page.wait_for_load_state("load")
            shown = page.locator("div.cell_output img[src*='_images/']").evaluate_all("""imgs => imgs.map(i => {
                const a = i.closest('a.evalkit-figure-link');
                return {src: i.getAttribute('src'), href: a && a.getAttribute('href'), alt: i.alt,
                        natural: i.naturalWidth, width: i.getBoundingClientRect().width};
            })""")
            for img in shown:
                assert img["href"] == img["src"], (name, img)
                url = f"{base}/{posixpath.normpath(posixpath.join(posixpath.dirname(name), img['href']))}"
                assert http_status(url) == 200, url
                assert len(img["alt"].split()) >= 8, (name, img["alt"])
            figures += len(shown)
            boxes = page.locator('mjx-container[display="true"]').evaluate_all("""els => els.map(e => {
                const r = e.getBoundingClientRect();
                return {right: r.right, scroll: e.scrollWidth, client: e.clientWidth,
                        overflow: getComputedStyle(e).overflowX, tab: e.getAttribute('tabindex')};
            })""")
            for box in boxes:
                assert box["right"] <= PHONE["width"] + 0.5, (name, box)
                if box["scroll"] > box["client"] + 1:
                    assert box["overflow"] in ("auto", "scroll") and box["tab"] == "0", (name, box)
                    scrolling += 1
            formulas += len(boxes)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (name, width)
        assert figures >= 20 and formulas >= 16, (figures, formulas)
        assert scrolling, "no display formula is wider than a phone: is the check still needed?"
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        page.emulate_media(media="print")
        for name in lessons:
            page.goto(f"{base}/{name}")
            cut = page.locator("article pre").evaluate_all(
                "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 80))")
            assert not cut, (name, cut)
            whole = page.locator("article div.highlight").evaluate_all(
                "els => els.filter(e => getComputedStyle(e).breakInside === 'avoid').length")
            assert whole == 0, name


def search_hits(page, base: str, query: str) -> set[str]:
    """The pages search.html lists for QUERY (their file names)."""
    from urllib.parse import quote

    page.goto(f"{base}/search.html?q={quote(query)}")
    # Sphinx lists the hits one by one (5 ms apart) and writes the summary after the last one; the
    # summary is empty until then, so wait for its final words, not for "Searching" to go.
    page.wait_for_function("""() => {
        const summary = document.querySelector('#search-results p.search-summary');
        return summary && /Search finished|did not match/.test(summary.textContent);
    }""", timeout=RENDER_TIMEOUT_MS)
    hrefs = page.locator("#search-results ul.search li a").evaluate_all(
        "els => els.map(e => e.getAttribute('href'))")
    return {posixpath.basename((h or "").split("#")[0].split("?")[0]) for h in hrefs}


def test_site_search_finds_chinese_words_and_english(chromium, site_server):
    """The index segments Chinese (召回率和 was one word, so 召回率 missed lesson 09); a query
    written as one run (召回率和精确率) is cut into the index's words; English still works."""
    base, _ = site_server
    with browser_page(chromium) as page:
        recall = search_hits(page, base, "召回率")
        assert "09-at-scale-with-spark.html" in recall, recall
        both = search_hits(page, base, "召回率和精确率")
        assert "01-accuracy-paradox.html" in both and both <= recall, (both, recall)
        assert "08-ranking-metrics.html" in search_hits(page, base, "NDCG")
        assert "01-accuracy-paradox.html" in search_hits(page, base, "precision")
        assert not search_hits(page, base, "zzzqqq"), "a word no page holds found pages"
        errors = [m for m in page.console_seen if m.startswith(("pageerror", "error"))]
        assert not errors, errors


def test_site_first_visit_has_a_favicon_and_no_console_error(chromium, site, site_server):
    """First visit (nothing stored): no "Got invalid theme mode" error, no 404 (the favicon),
    no warning, on the landing page, a lesson, the glossary, the search page and the course map
    (which no longer shows the maintainers' "generated by `make index`" note)."""
    folder = site.folder
    base, log = site_server
    before = len(log.read_text().splitlines())
    with browser_page(chromium) as page:
        for name in ("index.html", "notebooks/04-auc-three-ways.html", "glossary.html", "search.html"):
            page.goto(f"{base}/{name}")
            page.wait_for_load_state("load")
            page.wait_for_timeout(300)
        page.goto(f"{base}/notebooks/00-index.html")
        assert "make index" not in page.locator("article").inner_text(), "maintainer matter shown to readers"
        assert page.locator('article a[href$="05-multiclass-averaging.html"]').count(), "the course map is gone"
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert icon and (folder / posixpath.normpath(posixpath.join("_static", posixpath.basename(icon)))).exists()
        bad = [m for m in page.console_seen if m.startswith(("pageerror", "error", "warning"))]
        assert not bad, bad
    requests = log.read_text().splitlines()[before:]
    assert any("favicon" in line and '" 200 ' in line for line in requests), requests
    assert not [line for line in requests if '" 404 ' in line], requests


# -- the site's build steps, without a browser -----------------------------------------


@pytest.fixture(scope="module")
def make_site_module():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_site
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return make_site


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text: str, meta: dict | None = None) -> dict:
    return {"cell_type": "code", "metadata": meta or {}, "source": text, "outputs": []}


def test_figure_alt_says_what_the_text_above_says(make_site_module):
    alt = make_site_module.figure_alt
    cells = [_md("### Sequence 2: three scores\n\nSample 2, not clicked, is now ranked above sample 3: "
                 "the path steps right once. Then more."),
             _code("print(1)"), _code('draw("sequence 2", 2)')]
    assert alt(cells, 2) == ("Figure: Sequence 2: three scores: Sample 2, not clicked, is now ranked above "
                             "sample 3: the path steps right once.")
    cells[2] = _code('ax.set_title("ROC of the 300 scores")')
    assert alt(cells, 2).startswith("Figure: ROC of the 300 scores. Sequence 2")
    cells[2] = _code("fig", {"evalkit": {"alt": "The notebook's own caption"}})
    assert alt(cells, 2) == "The notebook's own caption"
    assert alt([_code("plot()")], 0) == "Figure"
    long = alt([_md("word " * 200), _code("plot()")], 1)
    assert len(long) <= make_site_module.ALT_MAX_CHARS + 2 and long.endswith("…")


def test_plain_token_classes_are_those_drawn_like_the_code(make_site_module):
    css = """html[data-theme="light"] .highlight { background: #fefefe; color: #080808 }
html[data-theme="light"] .highlight .n { color: #080808 } /* Name */
html[data-theme="light"] .highlight .k { color: #6730C5 } /* Keyword */
html[data-theme="light"] .highlight .p { color: #080808 } /* Punctuation */
html[data-theme="dark"] .highlight { background: #2b2b2b; color: #F8F8F2 }
html[data-theme="dark"] .highlight .n { color: #F8F8F2 } /* Name */
html[data-theme="dark"] .highlight .k { color: #F8F8F2 } /* Keyword */
html[data-theme="dark"] .highlight .p { color: #FF0000 } /* Punctuation */
"""
    assert make_site_module.plain_token_classes(css) == {"n"}
    page = ('<div class="highlight"><pre><span class="n">x</span><span class="p">(</span></pre></div>'
            '<p><span class="n">kept</span></p>')
    assert make_site_module._plain_tokens_unwrapped(page, {"n"}) == (
        '<div class="highlight"><pre>x<span class="p">(</span></pre></div><p><span class="n">kept</span></p>')


def test_search_terms_are_the_glossarys_chinese_words(make_site_module):
    terms = make_site_module.search_terms(ROOT / "notebooks" / "00-index.ipynb")
    assert {"召回率", "精确率", "混淆矩阵"} <= set(terms)
    assert all(len(t) >= 2 and _CJK.fullmatch(t[0]) for t in terms)
    assert make_site_module._unicode_range([0x4E00, 0x4E01, 0x4E02, 0x4E10]) == "U+4E00-4E02,U+4E10"


# -- the learner's JupyterLab -------------------------------------------------------

LAB_TIMEOUT_S = 300  # the first `make lab` may fetch the font package with npm


def test_make_lab_draws_chinese_with_the_course_font(chromium, tmp_path):
    """`make lab` as a learner meets it: the glossary's Chinese in the course's web font (the
    style-only extension of tools/lab_font.py) and English in a Latin font; no Nbgrader menu."""
    import secrets

    from _servers import stop as stop_server

    if subprocess.run(["make", "-q", ".venv/.installed"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip(".venv is missing or stale: run `make venv` (make test does)")
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTER_PORT=str(port),
               JUPYTER_PORT_RETRIES="0", JUPYTER_TOKEN=token, BROWSER="true")
    log_path = tmp_path / "lab.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(["make", "lab"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + LAB_TIMEOUT_S
        while http_status(f"{base}/api/status?token={token}") != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("`make lab` did not start:\n" + log_tail(log_path))
            time.sleep(0.5)
        with browser_page(chromium) as page:
            page.goto(f"{base}/lab/tree/notebooks/00-index.ipynb?token={token}")
            page.wait_for_selector(".jp-RenderedMarkdown table", timeout=RENDER_TIMEOUT_MS)
            menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
            assert "File" in menus and not any("nbgrader" in m.lower() for m in menus), menus
            # Markdown cells render one by one, and a busy machine may show the first table
            # (which metric when) long before the glossary's: wait for the glossary itself.
            found = page.wait_for_function(r"""() => {
                const cells = [...document.querySelectorAll('.jp-RenderedMarkdown td')];
                const zh = cells.find(e => /^[\u4e00-\u9fff]+$/.test(e.textContent.trim()));
                const en = cells.find(e => /^[a-z ]+$/.test(e.textContent.trim()));
                if (!zh || !en) return false;
                zh.id = 'zh-probe'; en.id = 'en-probe'; zh.scrollIntoView();
                return true;
            }""", timeout=RENDER_TIMEOUT_MS, polling=250)
            assert found.json_value(), "no glossary row (a Chinese and an English cell) in 00-index"
            deadline = time.monotonic() + UPDATE_TIMEOUT_S
            while True:  # the font's subsets load as their characters are laid out
                zh = fonts_of(page, "#zh-probe")
                if any(f["isCustomFont"] for f in zh) or time.monotonic() > deadline:
                    break
                page.wait_for_timeout(250)
            assert zh and all(f["familyName"].startswith("Noto Sans SC") and f["isCustomFont"]
                              for f in zh), zh
            en = fonts_of(page, "#en-probe")
            assert en and not any(f["familyName"].startswith("Noto Sans SC") for f in en), en
    finally:
        stop_server(proc, term_grace=20)
