#!/usr/bin/env python3
"""The course site's explorers, live in the page: evalkit's tables at build time, Vega's charts.

The lab's three explorers (``evalkit.widgets``: the threshold explorer, the class-imbalance
explorer, the step-by-step ROC builder) need a Python kernel. On the site each becomes a page
element that needs neither a server nor a CDN:

* **The notebook's own arguments.** A notebook calls ``threshold_explorer(y_val, s_val, ...)`` on
  data its earlier cells made (a model fitted, a data set loaded). ``tools/make_site.py`` calls
  :func:`live_explorers`, which re-runs each such notebook's code cells, up to its last explorer,
  in a subprocess (``python tools/site_explorers.py record``) and records the arguments each
  explorer is called with; the widgets are built as usual, so later cells see what they expect.
* **evalkit's tables.** For every position of the lab widget's sliders (their ``min``, ``max``
  and ``step`` as the notebook saved them) the page's numbers are those of the pure functions
  the lab widget shows: ``explorer_state`` / ``explorer_text`` / ``confusion_html``,
  ``imbalance_state`` / ``imbalance_text`` and ``roc_builder_state`` / ``roc_builder_text``, with
  ``zero_division=0.0`` as the lab widget; the curves come from ``evalkit.roc_curve`` and
  ``evalkit.precision_recall_curve``. The page formats nothing and computes nothing: a slider
  picks a row. Before any table is written, the row at the saved position must show the saved
  widget's text, so the re-run provably gave the notebook's data.
* **The page.** Each explorer is HTML (labelled sliders, the lines of text, the confusion tables,
  the initial row already filled in, so the page reads right before any script runs), a table
  file ``_static/explorers/<notebook>-<k>.js``, ``site_explorers.js`` (the controls) and Vega
  (``vega`` from npm, pinned in ``tools/site-js.json``) for the charts. The tables and Vega load
  only when an explorer comes near the screen or is touched, and only on pages with one. The
  charts are Vega specs written here (Vega is itself declarative; writing Vega rather than
  Vega-Lite leaves only the ``vega`` runtime on the page and needs no compiler at build time).

    python tools/site_explorers.py record NOTEBOOK --cells 66 70 --out calls.json   (the subprocess)
"""

from __future__ import annotations

import argparse
import contextlib
import html
import inspect
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PINS = HERE / "site-js.json"
SCRIPT = HERE / "site_explorers.js"
STYLE = HERE / "site_explorers.css"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# The lab's factories (evalkit.widgets) and the CSS class each widget carries.
FACTORIES = {"threshold_explorer": "evalkit-threshold-explorer",
             "imbalance_explorer": "evalkit-imbalance-explorer",
             "roc_builder": "evalkit-roc-builder"}
# Where the site's pages are (notebooks/NN-name.html) and where _assets/ is served from.
STATIC_FROM_PAGE = "../_static/"
TABLES_FOLDER = "explorers"
RECORD_TIMEOUT_S = 900  # notebook 02 fits models for about 20 s; a loaded machine takes longer
LAYOUT_NAMES = {"actual-by-predicted": "actual × predicted",
                "predicted-by-actual": "predicted × actual"}


class ExplorerError(RuntimeError):
    pass


# -- the notebook's arguments: its cells re-run in a subprocess ------------------------------


def explorer_outputs(nb: dict) -> dict[int, list[str]]:
    """The cells whose outputs hold one of the three explorers: cell index -> root model ids."""
    saved = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    found: dict[int, list[str]] = {}
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                continue
            model = saved.get(view["model_id"])
            if model is None:
                continue  # make_site says that a widget's state was not saved
            classes = model["state"].get("_dom_classes", [])
            if any(c in FACTORIES.values() for c in classes):
                found.setdefault(i, []).append(view["model_id"])
    return found


def _to_json(value):
    """An argument as JSON: arrays keep their dtype, so the parent gets back what was passed."""
    if isinstance(value, (list, tuple)) or hasattr(value, "__array__"):
        arr = np.asarray(value)
        if arr.dtype == object:
            raise ExplorerError(f"an explorer's argument of dtype object: {arr[:5]!r}")
        return {"array": arr.tolist(), "dtype": arr.dtype.str}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _from_json(value):
    if isinstance(value, dict) and "array" in value:
        return np.array(value["array"], dtype=value["dtype"])
    return value


def _recorder(factory, name: str, calls: dict, now: dict):
    """FACTORY that also notes its arguments (defaults filled in) under the running cell."""
    signature = inspect.signature(factory)

    def record(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if now["cell"] in calls:
            arguments = {k: _to_json(v) for k, v in bound.arguments.items()}
            calls[now["cell"]].append({"factory": name, "arguments": arguments})
        return factory(*args, **kwargs)

    return record


def record(notebook: Path, cells: list[int]) -> dict[int, list[dict]]:
    """Run NOTEBOOK's code cells up to the last of CELLS; the explorer calls each of CELLS made.

    Runs in a throwaway process (``main``): it replaces the factories of ``evalkit.widgets``
    by recorders, so a cell's ``from evalkit.widgets import threshold_explorer`` gets one.
    """
    from IPython.display import display  # a builtin in a notebook's kernel

    import evalkit.widgets as widgets

    nb = json.loads(notebook.read_text("utf-8"))
    calls: dict[int, list[dict]] = {c: [] for c in cells}
    now = {"cell": None}
    for name in FACTORIES:
        setattr(widgets, name, _recorder(getattr(widgets, name), name, calls, now))
    namespace = {"__name__": "__main__", "display": display}
    for i, cell in enumerate(nb["cells"][:max(cells) + 1]):
        if cell["cell_type"] != "code":
            continue
        now["cell"] = i
        code = compile("".join(cell["source"]), f"{notebook.name}, cell {i}", "exec")
        expected_error = "raises-exception" in cell.get("metadata", {}).get("tags", [])
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
        except Exception:
            if not expected_error:
                raise
    return calls


def recorded_calls(notebook: Path, cells: list[int]) -> dict[int, list[dict]]:
    """The explorer calls of NOTEBOOK's CELLS (arguments as passed), from a fresh Python.

    The cells run in a scratch folder laid out like the repository's (``notebooks/``,
    ``figures/``), so a cell that saves ``../figures/x.png`` writes nothing that ships.
    """
    with tempfile.TemporaryDirectory(prefix="evalkit-explorers-") as scratch:
        cwd = Path(scratch) / "notebooks"
        cwd.mkdir()
        (Path(scratch) / "figures").mkdir()
        out = Path(scratch) / "calls.json"
        env = dict(os.environ, MPLBACKEND="Agg")
        command = [sys.executable, str(Path(__file__).resolve()), "record", str(notebook.resolve()),
                   "--cells", *map(str, cells), "--out", str(out)]
        proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=RECORD_TIMEOUT_S, stdin=subprocess.DEVNULL)
        if proc.returncode != 0 or not out.exists():
            raise ExplorerError(f"re-running {notebook.name} up to its explorers failed:\n"
                                f"{proc.stderr[-3000:]}")
        raw = json.loads(out.read_text("utf-8"))
    calls = {}
    for cell, made in raw.items():
        calls[int(cell)] = [{"factory": c["factory"],
                             "arguments": {k: _from_json(v) for k, v in c["arguments"].items()}}
                            for c in made]
    return calls


# -- what the notebook saved: the lab widget's sliders and text ------------------------------


def saved_widget(models: dict, root: str) -> dict:
    """The saved widget ROOT: its kind (CSS class), sliders, table layout, lines of text by key
    and fixed texts (``notes``).

    A widget's parts carry the classes ``evalkit-<key>-slider`` (sliders), ``evalkit-layout``
    (the table's layout) and ``evalkit-<key>`` (a line of text), as ``evalkit.widgets.ui`` names
    them.
    """
    kind = next(c for c in models[root]["state"]["_dom_classes"] if c in FACTORIES.values())
    widget = {"kind": kind, "sliders": {}, "layout": None, "texts": {}, "notes": []}
    todo = [root]
    while todo:
        model = models[todo.pop().removeprefix("IPY_MODEL_")]
        state = model["state"]
        todo += reversed(state.get("children", []))  # depth first, in the widget's order
        if model["model_name"] == "HTMLModel" and not state.get("_dom_classes"):
            widget["notes"].append(state["value"])  # a fixed text of the widget
        for cls in state.get("_dom_classes", []):
            key = cls.removeprefix("evalkit-").replace("-", "_")
            if cls.endswith("-slider"):
                widget["sliders"][key.removesuffix("_slider")] = state
            elif cls == "evalkit-layout":
                widget["layout"] = state["_options_labels"][state["index"]]
            elif model["model_name"] == "HTMLModel":
                widget["texts"][key] = state["value"]
    return widget


def grid_size(slider: dict) -> int:
    """How many values a range input with the slider's min, max and step can take."""
    span = Decimal(repr(slider["max"])) - Decimal(repr(slider["min"]))
    return int(span / Decimal(repr(slider["step"]))) + 1


def slider_positions(slider: dict) -> tuple[list[float], int]:
    """Every value a page's ``<input type="range">`` with the slider's min, max and step takes,
    and the index of the slider's saved value (added at the end when it is off that grid).

    A browser steps a range input in decimal arithmetic (min + k * step, so 0.3, not
    0.30000000000000004), and so does this.
    """
    lo, step = Decimal(repr(slider["min"])), Decimal(repr(slider["step"]))
    count = grid_size(slider)
    kind = float
    if all(isinstance(slider[k], int) for k in ("min", "max", "step", "value")):
        kind = int  # an IntSlider: its readout format is "d"
    values = [kind(lo + k * step) for k in range(count)]
    value = kind(slider["value"])
    if value in values:
        return values, values.index(value)
    return values + [value], count


def _readout(value: float, slider: dict) -> str:
    return format(value, slider.get("readout_format") or "d")


def _cells(table_html: str) -> dict[str, str]:
    """The four counts' texts of a ``confusion_html`` table, by ``data-cell``."""
    cells = dict(re.findall(r'<td data-cell="(\w+)">([^<]*)</td>', table_html))
    return {k: html.unescape(v) for k, v in cells.items()}


def _check_saved(widget: dict, texts: dict, where: str) -> None:
    """The lines computed at the saved position must be the saved widget's own."""
    for key, text in texts.items():
        saved = widget["texts"].get(key)
        if saved is not None and saved != html.escape(text):
            raise ExplorerError(f"{where}: re-run, the notebook's {key!r} reads {text!r}, but its "
                                f"saved widget shows {html.unescape(saved)!r}; re-run the notebook "
                                "(Restart & Run All) and save it")


def _decimals4(x: float) -> str:
    return f"{x:.4f}"


# -- evalkit's tables ---------------------------------------------------------------------


def threshold_table(arguments: dict, widget: dict, where: str = "threshold explorer") -> dict:
    """The threshold explorer's rows: one per threshold position, and the distinct counts.

    Rows at thresholds with the same four counts share one ``state`` (every line but the
    threshold's depends on the counts and beta only; checked for every row).
    """
    from evalkit.widgets import EXPLORER_KEYS, confusion_html, explorer_state, explorer_text
    from evalkit.widgets.state import FIGURE_ALT

    pair, pos_label = (arguments["y_true"], arguments["y_score"]), arguments["pos_label"]

    def state_at(threshold, beta):
        return explorer_state(pair, threshold, beta, zero_division=0.0, pos_label=pos_label)

    t_slider, b_slider = widget["sliders"]["threshold"], widget["sliders"]["beta"]
    thresholds, t_start = slider_positions(t_slider)
    betas, b_start = slider_positions(b_slider)
    beta_lines = [explorer_text(state_at(thresholds[t_start], b))["f_beta"] for b in betas]
    prefixes = [line[:line.rindex(" ") + 1] for line in beta_lines]
    states, rows, seen = [], [], {}
    for t in thresholds:
        st = state_at(t, betas[b_start])
        counts = (st["tp"], st["fp"], st["fn"], st["tn"])
        if counts not in seen:
            seen[counts] = len(states)
            states.append(_threshold_state(state_at, t, st, betas, prefixes))
        text = explorer_text(st)
        row = {"readout": _readout(t, t_slider), "state": seen[counts],
               "text": {"threshold": text["threshold"]}, "chart": {"t": t}}
        shared = states[seen[counts]]
        joined = {**shared["text"], **row["text"],
                  "f_beta": prefixes[b_start] + shared["fbeta"][b_start]}
        if joined != {**text, **_roc_point_text(st)}:
            raise ExplorerError(f"{where}: the rows at threshold {t} do not share their counts' "
                                "text")
        rows.append(row)
    _check_saved(widget, explorer_text(state_at(thresholds[t_start], betas[b_start])), where)
    layouts = list(LAYOUT_NAMES)
    return {
        "kind": "threshold", "alt": FIGURE_ALT[widget["kind"]], "notes": widget["notes"],
        "keys": list(EXPLORER_KEYS),
        "sliders": [_slider(t_slider, "threshold", "threshold", t_start, thresholds),
                    _slider(b_slider, "beta", "beta", b_start, betas)],
        "layouts": layouts, "layout": widget["layout"] or layouts[0],
        "tables": {name: confusion_html(states[rows[t_start]["state"]]["counts"], name)
                   for name in layouts},
        "rows": rows, "states": states, "beta_prefixes": prefixes, "start": [t_start, b_start],
        "charts": threshold_charts(arguments, t_slider, thresholds),
    }


def _roc_point(fpr: float, tpr: float) -> str:
    return f"ROC point: FPR {_decimals4(fpr)}, TPR {_decimals4(tpr)}"


def _roc_point_text(st: dict) -> dict:
    """The ROC point (and the precision-recall point) of a threshold explorer state, in words."""
    roc = _roc_point(st["fpr"], st["recall"])
    if st["above"]:
        pr = (f"precision-recall point: recall {_decimals4(st['recall'])}, "
              f"precision {_decimals4(st['precision'])}")
    else:
        pr = "no precision-recall point: nothing is predicted positive (precision is 0/0)"
    return {"roc_point": roc, "pr_point": pr}


def _threshold_state(state_at, threshold, st, betas, prefixes) -> dict:
    from evalkit.widgets import confusion_html, explorer_text

    text = {k: v for k, v in explorer_text(st).items() if k not in ("threshold", "f_beta")}
    fbeta = []
    for beta, prefix in zip(betas, prefixes):
        line = explorer_text(state_at(threshold, beta))["f_beta"]
        if not line.startswith(prefix):
            raise ExplorerError(f"F-beta's line {line!r} does not start with {prefix!r}")
        fbeta.append(line[len(prefix):])
    chart = {"fpr": st["fpr"], "tpr": st["recall"], "recall": st["recall"],
             "precision": st["precision"], "pr": bool(st["above"])}
    return {"text": {**text, **_roc_point_text(st)}, "fbeta": fbeta, "chart": chart,
            "cells": _cells(confusion_html(st["counts"])), "counts": st["counts"]}


def _slider(saved: dict, key: str, label: str, start: int, values: list[float]) -> dict:
    """A page slider: the lab's bounds, its start, and each position's readout."""
    return {"key": key, "label": label, "min": saved["min"], "max": saved["max"],
            "step": saved["step"], "value": saved["value"], "start": start,
            "positions": grid_size(saved),
            "readouts": [_readout(v, saved) for v in values]}


def imbalance_table(arguments: dict, widget: dict, where: str = "imbalance explorer") -> dict:
    """The imbalance explorer's rows: one per majority share (per cent) of the slider."""
    from evalkit.widgets import IMBALANCE_KEYS, confusion_html, imbalance_state, imbalance_text

    n = arguments["n"]
    slider = widget["sliders"]["majority"]
    pcts, start = slider_positions(slider)
    rows = []
    for pct in pcts:
        st = imbalance_state(pct / 100, n=n)
        c = st["counts"]
        text = {**imbalance_text(st),
                "precision": f"minority precision {_decimals4(st['minority_precision'])}",
                "roc_point": _roc_point(c.fpr(), c.tpr())}
        chart = {"pct": pct, "at": 100 * st["n_majority"] / n, "accuracy": st["accuracy"],
                 "balanced_accuracy": st["balanced_accuracy"],
                 "minority_recall": st["minority_recall"], "fpr": c.fpr(), "tpr": c.tpr()}
        rows.append({"readout": _readout(pct, slider), "text": text, "chart": chart,
                     "cells": _cells(confusion_html(c)), "counts": c})
    _check_saved(widget, imbalance_text(imbalance_state(pcts[start] / 100, n=n)), where)
    return _one_slider_table("imbalance", widget, [*IMBALANCE_KEYS, "precision"],
                             _slider(slider, "majority", "majority %", start, pcts), rows,
                             charts=imbalance_charts(rows))


def _one_slider_table(kind: str, widget: dict, keys: list, slider: dict, rows: list,
                      **more) -> dict:
    """The table of an explorer with one slider (a row per position) and one confusion matrix."""
    from evalkit.widgets import confusion_html
    from evalkit.widgets.state import FIGURE_ALT

    layout = "actual-by-predicted"  # the lab widgets' only layout
    return {"kind": kind, "alt": FIGURE_ALT[widget["kind"]], "notes": widget["notes"],
            "keys": keys, "sliders": [slider], "layouts": [layout], "layout": layout,
            "tables": {layout: confusion_html(rows[slider["start"]]["counts"])},
            "rows": rows, "start": [slider["start"]], **more}


def roc_builder_table(arguments: dict, widget: dict, where: str = "ROC builder") -> dict:
    """The ROC builder's rows: one per step, from nothing predicted positive to every sample."""
    from evalkit.widgets import ROC_BUILDER_KEYS, confusion_html, roc_builder_state, roc_builder_text

    y, s, pos_label = arguments["y_true"], arguments["y_score"], arguments["pos_label"]
    slider = widget["sliders"]["step"]
    steps, start = slider_positions(slider)
    rows, labels = [], {}
    for step in steps:
        st = roc_builder_state(y, s, int(step), pos_label=pos_label)
        c = st["counts"]
        labels.update(zip(st["new"], st["new_labels"]))
        text = {**roc_builder_text(st),
                "precision": ("precision of the samples taken "
                              f"{_decimals4(c.precision(zero_division=0.0))}"),
                "roc_point": _roc_point(st["fpr"], st["tpr"])}
        rows.append({"readout": _readout(step, slider), "text": text,
                     "chart": {"step": int(step), "fpr": st["fpr"], "tpr": st["tpr"]},
                     "cells": _cells(confusion_html(c)), "counts": c, "taken": c.tp + c.fp})
    last = roc_builder_state(y, s, int(steps[-1]), pos_label=pos_label)
    _check_saved(widget, roc_builder_text(roc_builder_state(y, s, int(steps[start]),
                                                            pos_label=pos_label)), where)
    samples = []
    for i in last["order"]:
        label = "negative"
        if labels[i]:
            label = "positive"
        samples.append({"number": i + 1, "score": f"{float(s[i]):g}", "label": label})
    return _one_slider_table("roc_builder", widget, [*ROC_BUILDER_KEYS, "precision"],
                             _slider(slider, "step", "step", start, steps), rows,
                             samples=samples, charts=roc_builder_charts(last, rows[start]["counts"]))


TABLES = {"evalkit-threshold-explorer": threshold_table,
          "evalkit-imbalance-explorer": imbalance_table,
          "evalkit-roc-builder": roc_builder_table}


# -- the charts: Vega specs (the page sets the signal "now" to a row's "chart") ----------------


def _round(values, digits=5) -> list[float]:
    """Coordinates to draw (not to read): five decimals are finer than a pixel."""
    return [round(float(v), digits) for v in values]


def _axis(orient: str, title: str, **more) -> dict:
    scale = "y"
    if orient == "bottom":
        scale = "x"
    # aria: the chart's words are in the explorer's caption, not in every tick
    return {"orient": orient, "scale": scale, "title": title, "aria": False, "labelFontSize": 11, "titleFontSize": 11, "titleFontWeight": "normal",
            **more}


def _linear(name: str, domain: list[float], extent: str) -> dict:
    return {"name": name, "type": "linear", "domain": domain, "range": extent,
            "zero": False, "nice": False}


def _chart(description: str, title: str, width: int, height: int, data: list, scales: list,
           axes: list, marks: list, now: dict) -> dict:
    """A Vega spec: DESCRIPTION names its SVG for assistive technology; colours are the
    signal ``ink`` (set by the page from its theme), the moving marks read the signal ``now``."""
    return {"description": description, "width": width, "height": height, "padding": 4,
            "autosize": {"type": "pad"},
            "title": {"text": title, "fontSize": 12, "fontWeight": "normal", "aria": False},
            "signals": [{"name": "ink", "value": {}}, {"name": "now", "value": now}],
            "data": data, "scales": scales, "axes": axes,
            "marks": [{**m, "aria": False} for m in marks]}


def _xy(x: str, y: str) -> dict:
    return {"x": {"scale": "x", "field": x}, "y": {"scale": "y", "field": y}}


def _now_point(x: str, y: str, colour: str = "ink.mark", shown: str | None = None) -> dict:
    update = {"x": {"scale": "x", "signal": f"now.{x}"}, "y": {"scale": "y", "signal": f"now.{y}"},
              "fill": {"signal": colour}, "size": {"value": 80}}
    if shown:
        update["opacity"] = {"signal": f"{shown} ? 1 : 0"}
    return {"type": "symbol", "encode": {"update": update}}


def _line(data: str, x: str, y: str, colour: str, dash: list | None = None) -> dict:
    enter = {**_xy(x, y), "strokeWidth": {"value": 1.8}}
    if dash:
        enter["strokeDash"] = {"value": dash}
    return {"type": "line", "from": {"data": data},
            "encode": {"enter": enter, "update": {"stroke": {"signal": colour}}}}


def _diagonal() -> dict:
    return {"type": "rule", "encode": {
        "enter": {"x": {"scale": "x", "value": 0}, "y": {"scale": "y", "value": 0},
                  "x2": {"scale": "x", "value": 1}, "y2": {"scale": "y", "value": 1},
                  "strokeDash": {"value": [4, 3]}},
        "update": {"stroke": {"signal": "ink.guide"}}}}


def threshold_charts(arguments: dict, t_slider: dict, thresholds: list[float]) -> list[dict]:
    """The lab's three panels: the scores by class with the threshold, the ROC and PR curves."""
    import evalkit as ek

    y, s, pos_label = arguments["y_true"], arguments["y_score"], arguments["pos_label"]
    fpr, tpr, _ = ek.roc_curve(y, s, pos_label=pos_label, drop_intermediate=False)
    precision, recall, _ = ek.precision_recall_curve(y, s, pos_label=pos_label)
    positive = np.asarray(y) == pos_label
    scores = np.asarray(s, dtype=float)
    lo, hi = float(scores.min()), float(scores.max())
    edges = np.array([lo - 0.5, lo + 0.5])  # one score for all: one bin around it
    if hi > lo:
        edges = np.linspace(lo, hi, 41)
    bars = []
    for mask, name in ((~positive, "negative"), (positive, "positive")):
        counts, _ = np.histogram(scores[mask], edges)
        bars += [{"x0": a, "x1": b, "n": int(k), "class": name}
                 for a, b, k in zip(_round(edges[:-1]), _round(edges[1:]), counts)]
    now = {"t": thresholds[0], "fpr": 0, "tpr": 0, "recall": 0, "precision": 0, "pr": False}
    hist = _chart(
        "Histograms of the scores of each class, with the threshold as a vertical line",
        "scores by class; predict positive at or right of the line", 200, 170,
        [{"name": "bars", "values": bars}],
        [_linear("x", [min(t_slider["min"], lo), max(t_slider["max"], hi)], "width"),
         {"name": "y", "type": "linear", "domain": {"data": "bars", "field": "n"},
          "range": "height", "nice": True, "zero": True},
         {"name": "class", "type": "ordinal", "domain": ["negative", "positive"],
          "range": {"signal": "[ink.neg, ink.pos]"}}],
        [_axis("bottom", "score", tickCount=5), _axis("left", "samples", tickCount=4)],
        [{"type": "rect", "from": {"data": "bars"}, "encode": {
            "enter": {"x": {"scale": "x", "field": "x0"}, "x2": {"scale": "x", "field": "x1"},
                      "y": {"scale": "y", "field": "n"}, "y2": {"scale": "y", "value": 0},
                      "fillOpacity": {"value": 0.5}},
            "update": {"fill": {"scale": "class", "field": "class"}}}},
         {"type": "rule", "encode": {"update": {
             "x": {"scale": "x", "signal": "now.t"}, "y": {"value": 0},
             "y2": {"signal": "height"}, "stroke": {"signal": "ink.mark"},
             "strokeWidth": {"value": 2}}}}],
        now)
    hist["legends"] = [{"fill": "class", "orient": "top-right", "aria": False, "labelFontSize": 11,
                        "symbolType": "square", "symbolOpacity": 0.6}]
    roc = _chart(
        "The ROC curve, with the threshold's point on it", "ROC curve", 160, 170,
        [{"name": "curve", "values": [{"x": a, "y": b} for a, b in zip(_round(fpr), _round(tpr))]}],
        [_linear("x", [-0.02, 1.02], "width"), _linear("y", [-0.02, 1.02], "height")],
        [_axis("bottom", "FPR", tickCount=5), _axis("left", "TPR (recall)", tickCount=5)],
        [_diagonal(), _line("curve", "x", "y", "ink.neg"), _now_point("fpr", "tpr")], now)
    prevalence = float(positive.mean())
    pr = _chart(
        "The precision-recall curve, with the threshold's point on it",
        "precision-recall curve", 160, 170,
        [{"name": "curve", "values": [{"x": a, "y": b}
                                      for a, b in zip(_round(recall), _round(precision))]}],
        [_linear("x", [-0.02, 1.02], "width"), _linear("y", [-0.02, 1.02], "height")],
        [_axis("bottom", "recall", tickCount=5), _axis("left", "precision", tickCount=5)],
        [{"type": "rule", "encode": {
            "enter": {"x": {"value": 0}, "x2": {"signal": "width"},
                      "y": {"scale": "y", "value": prevalence}, "strokeDash": {"value": [4, 3]}},
            "update": {"stroke": {"signal": "ink.guide"}}}},
         _line("curve", "x", "y", "ink.neg"), _now_point("recall", "precision", shown="now.pr")],
        now)
    return [hist, roc, pr]


def imbalance_charts(rows: list[dict]) -> list[dict]:
    """The lab's panel: the baseline's accuracy, balanced accuracy and minority recall by share."""
    curves = {"accuracy": ("ink.neg", "accuracy"),
              "balanced_accuracy": ("ink.alt", "balanced accuracy"),
              "minority_recall": ("ink.pos", "minority recall")}
    values = [{"pct": r["chart"]["pct"], "metric": name, "value": r["chart"][key]}
              for key, (_, name) in curves.items() for r in rows]
    now = dict(rows[0]["chart"])
    marks = [{"type": "group", "from": {"facet": {"name": "one", "data": "curves",
                                                  "groupby": "metric"}},
              "marks": [{"type": "line", "from": {"data": "one"}, "aria": False, "encode": {
                  "enter": {**_xy("pct", "value"), "strokeWidth": {"value": 1.8}},
                  "update": {"stroke": {"scale": "metric", "field": "metric"}}}}]},
             {"type": "rule", "encode": {"update": {
                 "x": {"scale": "x", "signal": "now.at"}, "y": {"value": 0},
                 "y2": {"signal": "height"}, "stroke": {"signal": "ink.guide"},
                 "strokeDash": {"value": [2, 3]}}}}]
    marks += [_now_point("at", key, colour) for key, (colour, _) in curves.items()]
    chart = _chart(
        "Accuracy, balanced accuracy and minority recall of always predicting the majority, "
        "against the majority's share, with the chosen share marked",
        "always predicting the majority", 380, 200,
        [{"name": "curves", "values": values}],
        [_linear("x", [49, 100], "width"), _linear("y", [-0.05, 1.05], "height"),
         {"name": "metric", "type": "ordinal", "domain": [n for _, n in curves.values()],
          "range": {"signal": "[" + ", ".join(c for c, _ in curves.values()) + "]"}}],
        [_axis("bottom", "majority class share (%)"), _axis("left", "score of the baseline")],
        marks, now)
    chart["legends"] = [{"stroke": "metric", "orient": "bottom-right", "aria": False,
                         "labelFontSize": 11, "symbolType": "stroke"}]
    return [chart]


def roc_builder_charts(last: dict, counts) -> list[dict]:
    """The lab's panel: the ROC path taken so far, the area under it, the current point."""
    path = [{"i": i, "x": x, "y": y}
            for i, (x, y) in enumerate(zip(last["fpr_path"], last["tpr_path"]))]
    axes = []
    for orient, title, samples in (("bottom", "FPR", counts.negatives),
                                   ("left", "TPR", counts.positives)):
        more = {"grid": True, "tickCount": 5}
        if samples <= 20:  # a tick per sample: the path moves one cell per step
            more = {"grid": True, "values": _round(np.linspace(0, 1, int(samples) + 1), 4),
                    "format": ".2~f"}
        axes.append(_axis(orient, title, **more))
    taken = {"type": "filter", "expr": "datum.i <= now.step"}
    area = {"type": "area", "from": {"data": "taken"}, "encode": {
        "enter": {**_xy("x", "y"), "y2": {"scale": "y", "value": 0}, "fillOpacity": {"value": 0.25}},
        "update": {"fill": {"signal": "ink.neg"}}}}
    chart = _chart(
        "The ROC curve built so far, one distinct score at a time from the highest, with the "
        "area under it shaded", "ROC curve, highest score first", 250, 250,
        [{"name": "path", "values": path},
         {"name": "taken", "source": "path", "transform": [taken]}],
        [_linear("x", [-0.03, 1.03], "width"), _linear("y", [-0.03, 1.03], "height")],
        axes, [_diagonal(), area, _line("taken", "x", "y", "ink.neg"), _now_point("fpr", "tpr")],
        {"step": 0, "fpr": 0, "tpr": 0})
    return [chart]


# -- the page -----------------------------------------------------------------------------


def _slider_html(uid: str, slider: dict) -> str:
    key, start = slider["key"], slider["start"]
    readout = slider["readouts"][start]
    return (f'<div class="evalkit-live-slider evalkit-{key}-slider">'
            f'<label for="{uid}-{key}">{html.escape(slider["label"])}</label>'
            f'<input type="range" id="{uid}-{key}" data-slider="{key}" min="{slider["min"]!r}" '
            f'max="{slider["max"]!r}" step="{slider["step"]!r}" value="{slider["value"]!r}" '
            f'aria-valuetext="{html.escape(readout)}" disabled>'
            f'<span class="evalkit-readout" data-readout="{key}" aria-hidden="true">'
            f'{html.escape(readout)}</span></div>')


def _line_html(key: str, text: str) -> str:
    return f'<div class="evalkit-{key.replace("_", "-")}" data-key="{key}">{html.escape(text)}</div>'


def _start_text(table: dict) -> dict:
    """The lines of text at the explorer's start (what the page shows before any script runs)."""
    row = table["rows"][table["start"][0]]
    if table["kind"] != "threshold":
        return row["text"]
    state = table["states"][row["state"]]
    b = table["start"][1]
    return {**state["text"], **row["text"], "f_beta": table["beta_prefixes"][b] + state["fbeta"][b]}


def _matrix_html(table_html: str) -> str:
    """``confusion_html``'s table for the page: its corner, which heads no row or column, a data
    cell rather than an empty header (axe's rule empty-table-header)."""
    return table_html.replace("<tr><th></th>", "<tr><td></td>", 1)


def _tables_html(uid: str, table: dict) -> str:
    if len(table["layouts"]) == 1:
        matrix = _matrix_html(table["tables"][table["layout"]])
        return f'<div class="evalkit-confusion-matrix">{matrix}</div>'
    buttons, tables = "", ""
    for name in table["layouts"]:
        pressed, hidden = "true", ""
        if name != table["layout"]:
            pressed, hidden = "false", " hidden"
        buttons += (f'<button type="button" data-layout="{name}" aria-pressed="{pressed}" '
                    f'disabled>{html.escape(LAYOUT_NAMES[name])}</button>')
        tables += (f'<div class="evalkit-confusion-matrix" data-table="{name}"{hidden}>'
                   f'{_matrix_html(table["tables"][name])}</div>')
    return (f'<div class="evalkit-layout" role="group" aria-labelledby="{uid}-layout">'
            f'<span id="{uid}-layout">confusion matrix</span>{buttons}</div>{tables}')


def _samples_html(uid: str, table: dict) -> str:
    taken = table["rows"][table["start"][0]]["taken"]
    rows = []
    for k, sample in enumerate(table["samples"]):
        mark = ""
        if k < taken:
            mark = ' class="evalkit-taken"'
        rows.append(f'<tr{mark}><td>{sample["number"]}</td><td>{html.escape(sample["score"])}</td>'
                    f'<td>{sample["label"]}</td></tr>')
    return (f'<table class="evalkit-confusion evalkit-samples" id="{uid}-samples">'
            '<caption>The samples, highest score first; those taken so far are marked '
            '(predicted positive)</caption>'
            '<tr><th scope="col">sample</th><th scope="col">score</th><th scope="col">label</th></tr>'
            + "".join(rows) + "</table>")


def _buttons_html() -> str:
    moves = (("start", "|◀ start", "to step 0"), ("back", "◀ back", "one step back"),
             ("next", "next ▶", "one step on"), ("end", "end ▶|", "to the last step"))
    return "".join(f'<button type="button" class="evalkit-{key}" data-move="{key}" '
                   f'aria-label="{label} ({why})" disabled>{label}</button>'
                   for key, label, why in moves)


def explorer_html(uid: str, table: dict, tables_src: str, vega_src: str) -> str:
    """An explorer's HTML: its controls, its text at the start, the caption of its charts."""
    text = _start_text(table)
    lines = "".join(_line_html(k, text[k]) for k in table["keys"])
    sliders = "".join(_slider_html(uid, s) for s in table["sliders"])
    if table["kind"] == "roc_builder":
        sliders = f'<div class="evalkit-live-buttons">{_buttons_html()}</div>{sliders}'
    charts = "".join(f'<div class="evalkit-chart" data-chart="{i}"></div>'
                     for i in range(len(table["charts"])))
    caption = (f'{html.escape(table["alt"])}. '
               + " ".join(f'<span class="evalkit-{k.replace("_", "-")}" data-key="{k}">'
                          f'{html.escape(text[k])}</span>.' for k in ("roc_point", "pr_point")
                          if k in text))
    numbers = f'<div class="evalkit-live-lines">{lines}</div>'
    if table["kind"] == "roc_builder":
        numbers += _samples_html(uid, table)
    return (f'<div class="evalkit-explorer {FACTORIES_BY_KIND[table["kind"]]}" id="{uid}" '
            f'data-explorer="{uid}" data-kind="{table["kind"]}" data-tables="{tables_src}" '
            f'data-vega="{vega_src}" role="group" aria-label="{html.escape(EXPLORER_NAMES[table["kind"]])}">'
            f'<p class="evalkit-live-note">Move the slider: every number here was computed by '
            f'evalkit when this page was built, for each position.</p>'
            f'<div class="evalkit-live-controls">{sliders}</div>'
            f'<figure class="evalkit-charts"><div class="evalkit-chart-row">{charts}</div>'
            f'<figcaption aria-live="polite">{caption}</figcaption></figure>'
            f'<div class="evalkit-live-numbers">{_tables_html(uid, table)}{numbers}</div>'
            + "".join(f"<p>{note}</p>" for note in table["notes"]) + "</div>")


FACTORIES_BY_KIND = {"threshold": "evalkit-threshold-explorer",
                     "imbalance": "evalkit-imbalance-explorer",
                     "roc_builder": "evalkit-roc-builder"}
EXPLORER_NAMES = {"threshold": "Threshold explorer", "imbalance": "Class-imbalance explorer",
                  "roc_builder": "ROC curve builder"}


# What the page's script reads of a table (the rest is in the explorer's HTML, or kept by the
# build to check it: the BinaryCounts of each row).
PAGE_KEYS = ("kind", "sliders", "start", "rows", "states", "beta_prefixes", "charts")


def _page_data(table: dict) -> dict:
    page = {k: table[k] for k in PAGE_KEYS if k in table}
    page["rows"] = [{k: v for k, v in row.items() if k != "counts"} for row in table["rows"]]
    if "states" in table:
        page["states"] = [{k: v for k, v in st.items() if k != "counts"} for st in table["states"]]
    return page


def tables_script(uid: str, table: dict) -> str:
    data = json.dumps(_page_data(table), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return ("// Written by tools/site_explorers.py when the site was built: evalkit's numbers for "
            "each slider position.\n"
            f"(window.evalkitExplorerTables = window.evalkitExplorerTables || {{}})[{json.dumps(uid)}] "
            f"= {data};\n")


def vega_path(pins: Path = PINS) -> str:
    """Where the pinned Vega runtime is under _static/ (its entry in tools/site-js.json)."""
    for pkg in json.loads(pins.read_text("utf-8"))["packages"]:
        if pkg["name"] == "vega":
            return next(dest for src, dest in pkg["files"].items() if src.endswith("vega.min.js"))
    raise ExplorerError(f"{pins} pins no vega package")


def notebook_explorers(path: Path, nb: dict) -> list[tuple[int, str, dict]]:
    """(cell, model id, table) of each explorer of the notebook at PATH, in order."""
    found = explorer_outputs(nb)
    if not found:
        return []
    calls = recorded_calls(path, sorted(found))
    models = nb["metadata"]["widgets"][WIDGET_STATE]["state"]
    out = []
    for cell, roots in sorted(found.items()):
        made = calls.get(cell, [])
        if len(made) != len(roots):
            raise ExplorerError(f"{path.name}, cell {cell}: {len(roots)} explorer output(s) but "
                                f"{len(made)} explorer call(s) when re-run")
        for root, call in zip(roots, made):
            widget = saved_widget(models, root)
            if FACTORIES[call["factory"]] != widget["kind"]:
                raise ExplorerError(f"{path.name}, cell {cell}: {call['factory']} shows as {widget['kind']}")
            where = f"{path.name}, cell {cell}"
            out.append((cell, root, TABLES[widget["kind"]](call["arguments"], widget, where)))
    return out


def _explorer_pages(path: Path, explorers: list, assets: Path, vega: str) -> dict[str, str]:
    """Write the tables of the notebook's EXPLORERS into ASSETS; each one's HTML by its model id."""
    by_root = {}
    for k, (_, root, table) in enumerate(explorers, start=1):
        uid = f"evalkit-explorer-{path.stem[:2]}-{k}"
        name = f"{TABLES_FOLDER}/{path.stem}-{k}.js"
        (assets / name).write_text(tables_script(uid, table), "utf-8")
        page = explorer_html(uid, table, STATIC_FROM_PAGE + name, vega)
        if k == 1:  # once a page: the controls' script and style
            page = (f'<link rel="stylesheet" href="{STATIC_FROM_PAGE}{STYLE.name}">'
                    f'<script src="{STATIC_FROM_PAGE}{SCRIPT.name}" defer></script>' + page)
        by_root[root] = page
    return by_root


def _put_explorers(path: Path, nb: dict, by_root: dict[str, str]) -> int:
    """Each explorer output of NB replaced by its page (BY_ROOT), the saved widget state dropped
    (no page loads a widget manager); a widget output left is one the site cannot show, and the
    build stops naming it. Returns the number of explorers put in."""
    saved = nb.get("metadata", {}).pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    put = 0
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                continue
            if view["model_id"] in by_root:
                out["data"] = {"text/html": by_root[view["model_id"]]}
                put += 1
            elif view["model_id"] not in saved:
                raise ExplorerError(f"{path.name}, cell {i}: a widget output whose state was not "
                                    "saved with the notebook: save it with its widget state")
            else:
                raise ExplorerError(f"{path.name}, cell {i}: a widget the site cannot show (it "
                                    f"shows {', '.join(FACTORIES)} live): add it to "
                                    "tools/site_explorers.py, or leave it out of the notebook")
    return put


def live_explorers(folder: Path, assets: Path) -> int:
    """Replace each explorer output of the notebooks in FOLDER by the live explorer; write their
    tables and the page's script and style into ASSETS (the site's _static/); drop the notebooks'
    saved widget state. Returns how many explorers.

    A widget output that is none of the three explorers stops the build (ExplorerError): the
    site has no other way to show a widget.
    """
    notebooks = [(path, json.loads(path.read_text("utf-8"))) for path in sorted(folder.glob("*.ipynb"))]
    with_explorers = [(path, nb) for path, nb in notebooks if explorer_outputs(nb)]
    found = {}
    if with_explorers:
        workers = max(1, min(len(with_explorers), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            tables = pool.map(lambda item: notebook_explorers(*item), with_explorers)
            found = {path: explorers for (path, _), explorers in zip(with_explorers, tables)}
        (assets / TABLES_FOLDER).mkdir(parents=True, exist_ok=True)
        shutil.copy2(SCRIPT, assets / SCRIPT.name)
        shutil.copy2(STYLE, assets / STYLE.name)
    vega = STATIC_FROM_PAGE + vega_path()
    total = 0
    for path, nb in notebooks:
        by_root = _explorer_pages(path, found.get(path, []), assets, vega)
        total += _put_explorers(path, nb, by_root)
        path.write_text(json.dumps(nb, ensure_ascii=False, indent=1), "utf-8")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="re-run a notebook's cells; write its explorer calls")
    rec.add_argument("notebook", type=Path)
    rec.add_argument("--cells", type=int, nargs="+", required=True)
    rec.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    calls = record(args.notebook, args.cells)
    args.out.write_text(json.dumps(calls), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
