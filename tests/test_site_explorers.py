"""The course site's live explorers (tools/site_explorers.py): evalkit's tables, the page.

* The tables, against brute-force oracles on random data: every slider position's counts,
  precision, recall, F-beta and ROC point (threshold explorer, with ties and string labels), the
  baseline at every class share (imbalance explorer), the path and area at every step (ROC
  builder); the slider positions a browser steps through; a re-run that does not reproduce the
  saved widget is refused; the markup's controls are labelled and load nothing from elsewhere.
* The notebooks' own arguments, recorded by re-running a notebook's cells.
* In Chromium (Playwright), the site built by tools/make_site.py, served and opened as a file, in
  the light and the dark theme: each explorer's slider dragged to five positions shows the counts,
  precision, recall and ROC point that evalkit computes at the slider's value (its chart's point
  too); arrow keys and the ROC builder's buttons move it; its text keeps its contrast; nothing is
  fetched from another host. The same check fails on a page whose table drifted from evalkit.
"""

from __future__ import annotations

import html
import json
import re
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from evalkit.widgets import (
    explorer_state,
    explorer_text,
    imbalance_state,
    imbalance_text,
    roc_builder_state,
    roc_builder_text,
)

import test_browser

# The browser tests' Chromium (one for the module): skipped without one, except under CI=true,
# where they fail.
chromium_path = test_browser.chromium_path
chromium = test_browser.chromium

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import site_explorers as se  # noqa: E402  (tools/ is no package)

THRESHOLD_SLIDER = {"min": 0.0, "max": 1.01, "step": 0.01, "value": 0.5, "readout_format": ".2f"}
BETA_SLIDER = {"min": 0.0, "max": 5.0, "step": 0.1, "value": 1.0, "readout_format": ".2f"}


def widget(kind: str, **sliders) -> dict:
    """A saved widget as saved_widget() reads one, without saved text."""
    return {"kind": kind, "sliders": sliders, "layout": "actual-by-predicted", "texts": {},
            "notes": []}


def f4(x: float) -> str:
    return f"{x:.4f}"


def ratio(a: float, b: float) -> float:
    if b == 0:
        return 0.0  # the explorers' zero_division=0.0
    return a / b


# -- the slider positions ------------------------------------------------------------------


def test_slider_positions_step_in_decimal_as_a_browser_does():
    values, start = se.slider_positions(THRESHOLD_SLIDER)
    assert len(values) == 102 and values[0] == 0.0 and values[-1] == 1.01
    assert values[30] == 0.3 and values[start] == 0.5  # not 0.30000000000000004
    values, start = se.slider_positions({"min": -3.9, "max": 3.4, "step": 0.1, "value": 0.5})
    assert values[:3] == [-3.9, -3.8, -3.7] and values[-1] == 3.4 and values[start] == 0.5
    assert [float(repr(v)) for v in values] == [float(f"{-3.9 + k / 10:.1f}") for k in range(74)]
    # a saved value off the grid (notebook 02 opens at the best F1's threshold) is kept, last
    values, start = se.slider_positions({**THRESHOLD_SLIDER, "value": 0.4326049991})
    assert start == len(values) - 1 == 102 and values[start] == 0.4326049991
    values, start = se.slider_positions({"min": 50, "max": 99, "step": 1, "value": 90})
    assert values == list(range(50, 100)) and all(type(v) is int for v in values) and start == 40


# -- the tables against brute-force oracles --------------------------------------------------


def scores(seed: int, n: int = 120, ties: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.15, 0.6)).astype(int)
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1)
    if ties:
        s = np.round(s, 1)
    return y, s


def brute_counts(y_pos: np.ndarray, s: np.ndarray, t: float) -> dict:
    predicted = s >= t
    return {"tp": int(np.sum(predicted & y_pos)), "fp": int(np.sum(predicted & ~y_pos)),
            "fn": int(np.sum(~predicted & y_pos)), "tn": int(np.sum(~predicted & ~y_pos))}


@pytest.mark.parametrize("seed", range(4))
def test_threshold_table_is_every_position_brute_force(seed):
    y, s = scores(seed, ties=seed % 2 == 1)
    pos_label = 1
    if seed == 2:  # labels as text, the positive one named
        y, pos_label = np.where(y == 1, "spam", "ham"), "spam"
    args = {"y_true": y, "y_score": s, "pos_label": pos_label}
    table = se.threshold_table(args, widget("evalkit-threshold-explorer",
                                            threshold=THRESHOLD_SLIDER, beta=BETA_SLIDER))
    thresholds, _ = se.slider_positions(THRESHOLD_SLIDER)
    betas, _ = se.slider_positions(BETA_SLIDER)
    y_pos = np.asarray(y) == pos_label
    seen_precisions = set()
    for t, row in zip(thresholds, table["rows"]):
        c = brute_counts(y_pos, s, t)
        state = table["states"][row["state"]]
        assert state["cells"] == {k: f"{k.upper()} {v}" for k, v in c.items()}, t
        precision, recall = ratio(c["tp"], c["tp"] + c["fp"]), ratio(c["tp"], c["tp"] + c["fn"])
        fpr = ratio(c["fp"], c["fp"] + c["tn"])
        assert row["text"]["threshold"] == f"threshold {f4(t)}"
        assert state["text"]["precision"] == f"precision {f4(precision)}"
        assert state["text"]["recall"] == f"recall {f4(recall)}"
        assert state["text"]["roc_point"] == f"ROC point: FPR {f4(fpr)}, TPR {f4(recall)}"
        assert state["chart"]["fpr"] == pytest.approx(fpr, abs=1e-15)
        assert state["chart"]["tpr"] == pytest.approx(recall, abs=1e-15)
        assert row["chart"]["t"] == t and row["readout"] == f"{t:.2f}"
        for j in (0, 10, 20, 50):  # beta 0, 1, 2, 5
            b2 = betas[j] ** 2
            f_beta = ratio((1 + b2) * c["tp"], (1 + b2) * c["tp"] + b2 * c["fn"] + c["fp"])
            assert table["beta_prefixes"][j] + state["fbeta"][j] == \
                f"F-beta (beta {betas[j]:.2f}) {f4(f_beta)}"
        seen_precisions.add(state["text"]["precision"])
    assert len(seen_precisions) > 5, "the random data gave too few distinct rows to test"
    # the rows share a state exactly when their counts agree
    assert len(table["states"]) == len({tuple(st["cells"].values()) for st in table["states"]})


@pytest.mark.parametrize("n", [100, 37])
def test_imbalance_table_is_every_share_brute_force(n):
    top = 99
    if n == 37:  # round(0.99 * 37) = 37 leaves no minority: the lab's slider stops at 98
        top = 98
    slider = {"min": 50, "max": top, "step": 1, "value": 90, "readout_format": "d"}
    table = se.imbalance_table({"majority": 0.9, "n": n},
                               widget("evalkit-imbalance-explorer", majority=slider))
    for pct, row in zip(range(50, slider["max"] + 1), table["rows"]):
        majority = round(pct / 100 * n)
        minority = n - majority
        assert row["cells"] == {"tp": "TP 0", "fp": "FP 0", "fn": f"FN {minority}",
                                "tn": f"TN {majority}"}
        assert row["text"]["accuracy"].endswith(f" {f4(majority / n)}")
        assert row["text"]["minority_recall"] == "minority recall 0.0000"
        assert row["text"]["precision"] == "minority precision 0.0000"
        assert row["text"]["roc_point"] == "ROC point: FPR 0.0000, TPR 0.0000"
        assert row["chart"]["accuracy"] == majority / n and row["readout"] == str(pct)


@pytest.mark.parametrize("seed", range(3))
def test_roc_builder_table_is_every_step_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = 12
    y = np.r_[1, 0, (rng.random(n - 2) < 0.4).astype(int)]
    decimals = 1  # ties
    if seed == 0:
        decimals = 2  # distinct scores, most likely
    s = np.round(rng.random(n), decimals)
    distinct = np.unique(s)[::-1]
    slider = {"min": 0, "max": len(distinct), "step": 1, "value": len(distinct),
              "readout_format": "d"}
    table = se.roc_builder_table({"y_true": y, "y_score": s, "pos_label": None},
                                 widget("evalkit-roc-builder", step=slider))
    y_pos = y == 1
    P, N = int(y_pos.sum()), int((~y_pos).sum())
    path = [(0.0, 0.0)]
    for step, row in enumerate(table["rows"]):
        t = np.inf  # step 0: nothing predicted positive
        if step:
            t = distinct[step - 1]
        c = brute_counts(y_pos, s, t)
        tpr, fpr = c["tp"] / P, c["fp"] / N
        if step:
            path.append((fpr, tpr))
        area = sum((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in zip(path, path[1:]))
        assert row["cells"] == {k: f"{k.upper()} {v}" for k, v in c.items()}
        assert row["text"]["tpr"] == f"TPR {f4(tpr)}" and row["text"]["fpr"] == f"FPR {f4(fpr)}"
        assert row["text"]["area"] == f"area so far {f4(area)}"
        assert row["text"]["roc_point"] == f"ROC point: FPR {f4(fpr)}, TPR {f4(tpr)}"
        assert row["taken"] == int(np.sum(s >= t))
    order = np.argsort(-s, kind="stable")
    assert [r["number"] for r in table["samples"]] == (order + 1).tolist()
    labels = np.where(y_pos[order], "positive", "negative").tolist()
    assert [r["label"] for r in table["samples"]] == labels


def test_a_rerun_that_differs_from_the_saved_widget_is_refused():
    y, s = scores(7)
    args = {"y_true": y, "y_score": s, "pos_label": 1}
    saved = widget("evalkit-threshold-explorer", threshold=THRESHOLD_SLIDER, beta=BETA_SLIDER)
    right = explorer_text(explorer_state((y, s), 0.5, 1.0, zero_division=0.0))
    saved["texts"] = {k: html.escape(v) for k, v in right.items()}
    se.threshold_table(args, saved)  # the saved text is the re-run's: accepted
    saved["texts"]["precision"] = "precision 0.1234"
    with pytest.raises(se.ExplorerError, match="precision.*saved widget shows 'precision 0.1234'"):
        se.threshold_table(args, saved)


def page_table(script: str) -> dict:
    """The table a tables script (_static/explorers/*.js) hands the page."""
    return json.loads(script.split("] = ", 1)[1].rstrip(";\n"))


def test_markup_names_every_control_and_loads_nothing_from_elsewhere():
    y, s = scores(3)
    table = se.threshold_table({"y_true": y, "y_score": s, "pos_label": 1},
                               widget("evalkit-threshold-explorer", threshold=THRESHOLD_SLIDER,
                                      beta=BETA_SLIDER))
    page = se.explorer_html("ex-1", table, "../_static/explorers/x.js", "../_static/vega/vega.min.js")
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for control in re.findall(r"<input\b[^>]*>", page):
        uid = re.search(r'id="([^"]+)"', control)[1]
        assert f'<label for="{uid}">' in page, control
        assert "aria-valuetext=" in control and "disabled" in control  # live once the script runs
    assert all(re.search(r">[^<]+</button>", b) for b in re.findall(r"<button\b.*?</button>", page))
    assert not re.search(r"(?:https?:)?//", page)
    data = se.tables_script("ex-1", table)
    assert not re.search(r"https?://", data)
    assert page_table(data)["kind"] == "threshold"


# -- the notebooks' arguments -------------------------------------------------------------


def test_recording_gets_the_notebooks_own_arguments():
    from evalkit.course.datasets import click_sequences

    notebook = ROOT / "notebooks" / "03-roc-by-hand.ipynb"
    found = se.explorer_outputs(json.loads(notebook.read_text("utf-8")))
    assert len(found) == 1
    calls = se.recorded_calls(notebook, sorted(found))
    [call] = calls[next(iter(found))]
    y, sequences = click_sequences()
    assert call["factory"] == "roc_builder"
    assert np.array_equal(call["arguments"]["y_true"], y)
    assert np.array_equal(call["arguments"]["y_score"], sequences["sequence 2"])
    assert call["arguments"]["y_score"].dtype == sequences["sequence 2"].dtype
    assert call["arguments"]["step"] == 6 and call["arguments"]["pos_label"] is None


# -- in the browser ------------------------------------------------------------------------


def notebooks_with_explorers(with_one: bool = True) -> list[str]:
    """The course notebooks (stems) with an explorer output (or, WITH_ONE false, without)."""
    stems = []
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        has = bool(se.explorer_outputs(json.loads(path.read_text("utf-8"))))
        if has == with_one:
            stems.append(path.stem)
    return stems


EXPLORER_NOTEBOOKS = notebooks_with_explorers()
FRACTIONS = (0.03, 0.27, 0.5, 0.74, 0.97)
DRAW_TIMEOUT_MS = 90_000
UPDATE_TIMEOUT_S = 15
MIN_CONTRAST = 4.5


def explorers_of(stem: str, calls: dict) -> list[dict]:
    """Each explorer of notebook STEM, in page order: the arguments CALLS recorded (cell -> calls,
    as ``site_explorers.recorded_calls`` returns them) and the saved widget."""
    path = ROOT / "notebooks" / f"{stem}.ipynb"
    nb = json.loads(path.read_text("utf-8"))
    found = se.explorer_outputs(nb)
    models = nb["metadata"]["widgets"][se.WIDGET_STATE]["state"]
    out = []
    for cell, roots in sorted(found.items()):
        for root, call in zip(roots, calls[cell], strict=True):
            out.append({"call": call, "widget": se.saved_widget(models, root)})
    return out


@pytest.fixture(scope="module")
def built(site):
    """The run's course site (tests/conftest.py builds it once) and what each explorer page was
    built from: the arguments the build's re-run of its notebook recorded, the saved widget."""
    assert sorted(site.calls) == EXPLORER_NOTEBOOKS, "the build re-ran other notebooks"
    explorers = {stem: explorers_of(stem, site.calls[stem]) for stem in EXPLORER_NOTEBOOKS}
    kinds = {e["widget"]["kind"] for ex in explorers.values() for e in ex}
    assert kinds == set(se.FACTORIES.values()), f"the course shows only {kinds}"
    return site.folder, explorers


# The check of one explorer on a page, in the browser: read what the page shows, compare it with
# what evalkit computes at the slider's value.

def read_page(ex) -> dict:
    return ex.evaluate("""root => {
        const text = {};
        root.querySelectorAll('[data-key]').forEach(el => { text[el.dataset.key] = el.textContent; });
        const visible = [...root.querySelectorAll('.evalkit-confusion-matrix')].find(d => !d.hidden);
        const cells = {};
        visible.querySelectorAll('td[data-cell]').forEach(td => { cells[td.dataset.cell] = td.textContent; });
        const sliders = {};
        root.querySelectorAll('input[data-slider]').forEach(i => { sliders[i.dataset.slider] = i.value; });
        const ex = root.evalkitExplorer;
        const now = ex && ex.views.length ? ex.views.map(v => v.signal('now')) : [];
        const taken = [...root.querySelectorAll('.evalkit-samples tr.evalkit-taken td:first-child')]
            .map(td => Number(td.textContent));
        return {text, cells, sliders, now, taken};
    }""")


def expected(explorer: dict, sliders: dict) -> dict:
    """What evalkit computes at the sliders' values: the lines, the counts, the chart's point."""
    args = explorer["call"]["arguments"]
    kind = explorer["widget"]["kind"]
    if kind == "evalkit-threshold-explorer":
        st = explorer_state((args["y_true"], args["y_score"]), float(sliders["threshold"]),
                            float(sliders["beta"]), zero_division=0.0, pos_label=args["pos_label"])
        text = {**explorer_text(st),
                "roc_point": f"ROC point: FPR {f4(st['fpr'])}, TPR {f4(st['recall'])}"}
        return {"text": text, "counts": st["counts"], "point": (st["fpr"], st["recall"])}
    if kind == "evalkit-imbalance-explorer":
        st = imbalance_state(int(sliders["majority"]) / 100, n=args["n"])
        c = st["counts"]
        text = {**imbalance_text(st),
                "precision": f"minority precision {f4(st['minority_precision'])}",
                "roc_point": f"ROC point: FPR {f4(c.fpr())}, TPR {f4(c.tpr())}"}
        return {"text": text, "counts": c, "point": (c.fpr(), c.tpr())}
    st = roc_builder_state(args["y_true"], args["y_score"], int(sliders["step"]),
                           pos_label=args["pos_label"])
    c = st["counts"]
    text = {**roc_builder_text(st),
            "precision": f"precision of the samples taken {f4(c.precision(zero_division=0.0))}",
            "roc_point": f"ROC point: FPR {f4(st['fpr'])}, TPR {f4(st['tpr'])}"}
    taken = [i + 1 for i in st["order"][:int(c.tp + c.fp)]]
    return {"text": text, "counts": c, "point": (st["fpr"], st["tpr"]), "taken": taken}


def compare(shown: dict, want: dict) -> list[str]:
    """The differences between what the page shows and what evalkit computes (none: [])."""
    bad = []
    for key, line in want["text"].items():
        if shown["text"].get(key) != line:
            bad.append(f"{key}: the page shows {shown['text'].get(key)!r}, evalkit {line!r}")
    c = want["counts"]
    cells = {k: f"{k.upper()} {getattr(c, k)}" for k in ("tp", "fp", "fn", "tn")}
    if shown["cells"] != cells:
        bad.append(f"counts: the page shows {shown['cells']}, evalkit {cells}")
    points = {(now.get("fpr"), now.get("tpr")) for now in shown["now"]}
    if not shown["now"] or points != {want["point"]}:
        bad.append(f"the chart's ROC point is {points}, evalkit's {want['point']}")
    if "taken" in want and shown["taken"] != want["taken"]:
        bad.append(f"samples marked taken {shown['taken']}, evalkit's {want['taken']}")
    return bad


def wait_equal(ex, explorer: dict, what: str) -> dict:
    """Poll until the explorer shows what evalkit computes at its sliders' values."""
    deadline = time.monotonic() + UPDATE_TIMEOUT_S
    while True:
        shown = read_page(ex)
        bad = compare(shown, expected(explorer, shown["sliders"]))
        if not bad:
            return shown
        if time.monotonic() > deadline:
            raise AssertionError(f"after {what} (sliders at {shown['sliders']}):\n" + "\n".join(bad))
        time.sleep(0.1)


def drag(page, slider, fraction: float) -> None:
    """Drag the slider's thumb with the mouse from where it is to FRACTION of its track."""
    box = slider.bounding_box()
    lo, hi = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
    value = float(slider.input_value())
    thumb = 8  # half a thumb: the track's ends are where its centre can go
    def x_at(f):
        return box["x"] + thumb + f * (box["width"] - 2 * thumb)
    y = box["y"] + box["height"] / 2
    page.mouse.move(x_at((value - lo) / (hi - lo)), y)
    page.mouse.down()
    page.mouse.move(x_at(fraction), y, steps=6)
    page.mouse.up()


def contrast_failures(ex) -> list[str]:
    """Text in the explorer (its SVG charts' too) below MIN_CONTRAST against its background."""
    return ex.evaluate("""(root, least) => {
        const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
            : Math.pow((v + 0.055) / 1.055, 2.4); }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
        const background = el => {
            for (let e = el; e; e = e.parentElement) {
                const c = rgb(getComputedStyle(e).backgroundColor);
                if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
            }
            return [255, 255, 255];
        };
        const bad = [];
        const texts = [...root.querySelectorAll('label, button, td, th, caption, figcaption, p, span, div, text')]
            .filter(el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
        for (const el of texts) {
            if (!el.getClientRects().length) continue;
            const style = getComputedStyle(el);
            const fg = rgb(el instanceof SVGElement ? (el.getAttribute('fill') && style.fill) : style.color);
            const [a, b] = [lum(fg), lum(background(el))].sort((x, y) => y - x);
            const ratio = (a + 0.05) / (b + 0.05);
            if (ratio < least) bad.push(`${el.tagName} "${el.textContent.trim().slice(0, 40)}" ${ratio.toFixed(2)}`);
        }
        return bad;
    }""", MIN_CONTRAST)


def check_explorer(page, ex, explorer: dict, where: str) -> None:
    """One explorer: its start, every slider dragged to five positions, a key, its buttons."""
    widget = explorer["widget"]
    ex.scroll_into_view_if_needed()
    page.wait_for_function("root => root.classList.contains('evalkit-explorer-drawn')", arg=ex.element_handle(),
                           timeout=DRAW_TIMEOUT_MS)
    # the start: the saved widget's text, computed by evalkit at the saved values
    start = read_page(ex)
    start_values = {k: str(s["value"]) for k, s in widget["sliders"].items()}
    bad = compare(start, expected(explorer, start_values))
    assert not bad, f"{where}, at the start:\n" + "\n".join(bad)
    for key, saved in widget["texts"].items():
        if key in start["text"]:
            assert html.escape(start["text"][key]) == saved, (where, key)
    moved = set()
    for key in widget["sliders"]:
        slider = ex.locator(f'input[data-slider="{key}"]')
        values = []
        for fraction in FRACTIONS:
            drag(page, slider, fraction)
            shown = wait_equal(ex, explorer, f"{where}: dragging {key} to {fraction:.0%}")
            values.append(shown["sliders"][key])
            moved.add(json.dumps(shown["text"], sort_keys=True))
        assert len(set(values)) == len(FRACTIONS), f"{where}: {key} dragged to {values}"
        before = slider.input_value()
        slider.focus()
        page.keyboard.press("ArrowLeft")
        wait_equal(ex, explorer, f"{where}: ArrowLeft on {key}")
        assert slider.input_value() != before, f"{where}: ArrowLeft did not move {key}"
        assert slider.get_attribute("aria-valuetext") == ex.locator(
            f'[data-readout="{key}"]').inner_text(), where
    assert len(moved) >= len(FRACTIONS), f"{where}: the numbers hardly changed: {len(moved)}"
    if widget["kind"] == "evalkit-roc-builder":
        for button in ("start", "next", "next", "back", "end"):
            ex.locator(f'button[data-move="{button}"]').click()
            wait_equal(ex, explorer, f"{where}: the {button} button")
        assert ex.locator('input[data-slider="step"]').input_value() == str(widget["sliders"]["step"]["max"])
    if widget["kind"] == "evalkit-threshold-explorer":
        for layout in ("predicted-by-actual", "actual-by-predicted"):
            ex.locator(f'button[data-layout="{layout}"]').click()
            assert ex.locator(f'[data-table="{layout}"]').is_visible(), (where, layout)
            wait_equal(ex, explorer, f"{where}: the {layout} table")
    failures = contrast_failures(ex)
    assert not failures, f"{where}: text below {MIN_CONTRAST}:1 contrast: {failures}"


def explorer_assets(urls: list[str], tables_and_vega_only: bool = False) -> list[str]:
    """The URLs among URLS of the explorers' files under _static/ (script, style, tables, Vega)."""
    marks = ["/_static/explorers/", "/_static/vega/"]
    if not tables_and_vega_only:
        marks += ["/_static/site_explorers."]
    return [u for u in urls if any(m in u for m in marks)]


def check_pages(page, base: str, explorers: dict, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    for stem, found in explorers.items():
        before = len(page.requests_seen)
        page.goto(f"{base}/notebooks/{stem}.html", wait_until="load")
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        # the explorers are far down their pages: their tables and Vega wait until they are near
        early = explorer_assets(page.requests_seen[before:], tables_and_vega_only=True)
        assert not early, f"{stem}: loaded before any explorer was near the screen: {early}"
        roots = page.locator(".evalkit-explorer")
        assert roots.count() == len(found), stem
        for k, explorer in enumerate(found):
            check_explorer(page, roots.nth(k), explorer, f"{stem} ({theme}), explorer {k + 1}")


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("how", ["served", "file"])
def test_explorers_in_the_page_equal_evalkit(chromium, built, tmp_path, how, theme):
    from test_browser import browser_page, is_local, served

    site, explorers = built
    with browser_page(chromium) as page:
        if how == "served":
            with served(site, tmp_path) as base:
                check_pages(page, base, explorers, theme)
            missing = [line for line in (tmp_path / "http.log").read_text().splitlines()
                       if '" 404 ' in line and "/favicon.ico" not in line]
            assert not missing, missing
        else:
            check_pages(page, site.as_uri(), explorers, theme)
        outside = sorted({u for u in page.requests_seen if not is_local(u)})
        assert not outside, f"the explorers fetched from outside the machine: {outside}"
        assert any(u.endswith("vega/vega.min.js") for u in page.requests_seen)
        errors = [m for m in page.console_seen if m.startswith("pageerror")]
        assert not errors, errors


def drift_precision(state: dict) -> None:
    """Every precision line one off in its last digit."""
    line = state["text"]["precision"]
    state["text"]["precision"] = line[:-1] + str((int(line[-1]) + 1) % 10)


def drift_point(state: dict) -> None:
    """The chart's ROC point a hair to the right (the text still right)."""
    state["chart"]["fpr"] += 1e-9


@pytest.mark.browser
@pytest.mark.parametrize("drift, message", [
    (drift_precision, r"precision: the page shows 'precision 0\.\d{4}'"),
    (drift_point, r"the chart's ROC point is"),
])
def test_the_check_fails_when_the_page_drifts_from_evalkit(chromium, built, tmp_path, drift,
                                                           message):
    """The same check, on a copy of the site whose table has drifted from evalkit: it fails."""
    import shutil

    from test_browser import browser_page

    site, explorers = built
    drifted = tmp_path / "site"
    shutil.copytree(site, drifted)
    stem = next(stem for stem, found in explorers.items()
                if found[0]["widget"]["kind"] == "evalkit-threshold-explorer")
    tables = drifted / "_static" / "explorers" / f"{stem}-1.js"
    script = tables.read_text("utf-8")
    head = script.split("] = ", 1)[0]
    table = page_table(script)
    for state in table["states"]:
        drift(state)
    tables.write_text(f"{head}] = {json.dumps(table)};\n", "utf-8")
    with browser_page(chromium) as page:
        page.goto(f"{drifted.as_uri()}/notebooks/{stem}.html")
        ex = page.locator(".evalkit-explorer").first
        with pytest.raises(AssertionError, match=message):
            check_explorer(page, ex, explorers[stem][0], f"{stem}, drifted")


@pytest.mark.browser
def test_switching_the_theme_redraws_the_charts_in_its_colours(chromium, built):
    """The reader switches the theme on the page: the charts are drawn again in its colours."""
    from test_browser import browser_page

    site, explorers = built
    stem = next(stem for stem, found in explorers.items()
                if found[0]["widget"]["kind"] == "evalkit-roc-builder")
    with browser_page(chromium) as page:
        page.emulate_media(color_scheme="light")
        page.goto(f"{site.as_uri()}/notebooks/{stem}.html")
        ex = page.locator(".evalkit-explorer").first
        ex.scroll_into_view_if_needed()
        page.wait_for_function("r => r.classList.contains('evalkit-explorer-drawn')",
                               arg=ex.element_handle(), timeout=DRAW_TIMEOUT_MS)
        fills = "r => [...new Set([...r.querySelectorAll('svg text')].map(t => t.getAttribute('fill')))]"
        light = ex.evaluate(fills)
        # what the theme's switch does: pydata-sphinx-theme sets html[data-theme]
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
        page.wait_for_function(f"r => JSON.stringify(({fills})(r)) !== {json.dumps(json.dumps(light))}",
                               arg=ex.element_handle(), timeout=UPDATE_TIMEOUT_S * 1000)
        failures = contrast_failures(ex)
        assert not failures, f"after switching to the dark theme: {failures}"
        wait_equal(ex, explorers[stem][0], "switching the theme")


@pytest.mark.browser
def test_explorers_fit_a_phone_and_load_only_where_they_are(chromium, built):
    """At 390 px every explorer, drawn, fits the screen; a page without one loads none of it."""
    from test_browser import browser_page

    site, explorers = built
    with browser_page(chromium) as page:
        page.set_viewport_size({"width": 390, "height": 844})
        for stem in explorers:
            page.goto(f"{site.as_uri()}/notebooks/{stem}.html")
            roots = page.locator(".evalkit-explorer")
            for k in range(roots.count()):
                roots.nth(k).scroll_into_view_if_needed()
                page.wait_for_function("r => r.classList.contains('evalkit-explorer-drawn')",
                                       arg=roots.nth(k).element_handle(), timeout=DRAW_TIMEOUT_MS)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{stem} is {width} px wide on a 390 px screen"
        before = len(page.requests_seen)
        without = notebooks_with_explorers(with_one=False)[-1]
        page.goto(f"{site.as_uri()}/notebooks/{without}.html", wait_until="load")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(300)
        loaded = explorer_assets(page.requests_seen[before:])
        assert not loaded, f"a page without an explorer loaded {loaded}"
