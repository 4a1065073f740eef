"""The widget classes behind :mod:`evalkit.widgets` (imports ipywidgets and matplotlib).

Each widget is an ``ipywidgets.VBox`` that wraps a pure function of
:mod:`evalkit.widgets.state`: a control's change computes the new state with that
function, updates the text widgets whose text changed, moves the figure's
marker artists and re-renders only them over a cached background (blitting
on matplotlib's Agg canvas), and shows the result as a PNG in an
``ipywidgets.Image``. A PNG in a widget renders the same in JupyterLab, in
Voila and in a static HTML export with the widget state saved.
"""

from __future__ import annotations

import html
import io
import math

import ipywidgets as W
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .._curves import pr_points, roc_points
from .._sweep import positive_mask, threshold_sweep
from .._validation import Options, check_classes, check_scores, validate_params
from .._binary import LAYOUTS
from .state import (
    EXPLORER_KEYS,
    IMBALANCE_KEYS,
    ROC_BUILDER_KEYS,
    confusion_html,
    explorer_state,
    explorer_text,
    imbalance_state,
    imbalance_text,
    roc_builder_state,
    roc_builder_text,
)

__all__ = ["ThresholdExplorer", "ImbalanceExplorer", "RocBuilder", "Frame"]

POS_COLOR = "tab:orange"
NEG_COLOR = "tab:blue"
MARK_COLOR = "tab:red"

_TABLE_CSS = (
    "<style>.evalkit-confusion{border-collapse:collapse;margin:4px 12px 4px 0}"
    ".evalkit-confusion th,.evalkit-confusion td{border:1px solid #bbb;padding:3px 10px}"
    ".evalkit-confusion td{text-align:right;font-family:monospace}"
    ".evalkit-taken td{background:#fde2c8}</style>"
)


class Frame:
    """A persistent figure: static artists drawn once, moving artists blitted over them.

    ``moving(artist)`` marks an artist as animated; :meth:`png` draws the
    whole figure the first time (caching everything but the moving artists
    as the background), and afterwards only restores that background and
    draws the moving artists, then encodes the canvas as a PNG.
    """

    def __init__(self, fig):
        self.fig = fig
        self.canvas = FigureCanvasAgg(fig)
        self.artists = []
        self.renders = 0  # how many times png() ran
        self._background = None

    def moving(self, artist):
        artist.set_animated(True)
        self.artists.append(artist)
        return artist

    def png(self):
        self.renders += 1
        if self._background is None:
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        else:
            self.canvas.restore_region(self._background)
        for artist in self.artists:
            self.fig.draw_artist(artist)
        from PIL import Image  # a matplotlib dependency

        width, height = self.canvas.get_width_height(physical=True)
        img = Image.frombuffer("RGBA", (width, height), self.canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        out = io.BytesIO()
        img.save(out, format="png", compress_level=1)
        return out.getvalue()


def _label(text, key):
    w = W.HTML(value=html.escape(text))
    w.add_class(f"evalkit-{key.replace('_', '-')}")
    return w


def _labels(texts, keys):
    return {k: _label(texts[k], k) for k in keys}


def _set_texts(labels, texts):
    for key, text in texts.items():
        value = html.escape(text)
        if labels[key].value != value:
            labels[key].value = value


def _matrix_view(counts, *layout):
    return W.HTML(_TABLE_CSS + confusion_html(counts, *layout)).add_class("evalkit-confusion-matrix")


def _figure_view(png):
    return W.Image(value=png, format="png").add_class("evalkit-figure")


def _control_value(control, doc=None):
    """A property that reads and sets the value of the widget's ``control`` attribute."""
    def get_(self):
        return getattr(self, control).value

    def set_(self, value):
        getattr(self, control).value = value

    return property(get_, set_, doc=doc)


class _Shown:
    """What every widget exposes: its state, counts, text and figure as last shown.

    A subclass sets ``_state``, ``_image`` and ``_text_of`` (the pure text
    function of :mod:`evalkit.widgets` for its state).
    """

    @property
    def state(self):
        """The widget's current state dict (a copy)."""
        return dict(self._state)

    @property
    def counts(self):
        return self._state["counts"]

    @property
    def text(self):
        """The text shown, by key."""
        return self._text_of(self._state)

    @property
    def png(self):
        """The figure as last shown (PNG bytes)."""
        return bytes(self._image.value)


def _slider_grid(lo, hi):
    """(min, max, step, decimals) of a slider covering [lo, hi] in about 100 round steps.

    The max is one step above ``hi``, where nothing is predicted positive.
    """
    span = hi - lo
    if not span > 0:
        span = max(abs(hi), 1.0)
    raw = span / 100
    exp = math.floor(math.log10(raw))
    base = raw / 10.0**exp
    mult = 1 if base <= 1 else 2 if base <= 2 else 5 if base <= 5 else 10
    step = mult * 10.0**exp
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    smin = round(math.floor(lo / step + 1e-9) * step, decimals)
    smax = round(math.ceil(hi / step - 1e-9) * step + step, decimals)
    return smin, smax, round(step, decimals), decimals


class ThresholdExplorer(_Shown, W.VBox):
    """Threshold slider, live confusion matrix, metrics, and the point on the ROC and PR curves.

    Built by :func:`evalkit.widgets.threshold_explorer`. Read or set
    ``.threshold``, ``.beta`` and ``.matrix_layout``; read ``.state`` (the
    :func:`~evalkit.widgets.explorer_state` dict), ``.counts`` and ``.text``.
    """

    _text_of = staticmethod(explorer_text)

    @validate_params(layout=Options(LAYOUTS))
    def __init__(self, y_true, y_score, *, pos_label=1, threshold=None, beta=1.0,
                 layout="actual-by-predicted"):
        sweep = threshold_sweep(y_true, y_score, pos_label=pos_label)
        check_classes(sweep.n_pos, sweep.n_neg, why="the ROC curve needs both classes")
        self.sweep = sweep
        lo, hi = float(sweep.thresholds[-1]), float(sweep.thresholds[0])
        smin, smax, step, decimals = _slider_grid(lo, hi)
        self._step, self._decimals = step, decimals
        if threshold is None:
            threshold = round(round((lo + hi) / 2 / step) * step, decimals)
        state = explorer_state(sweep, threshold, beta, zero_division=0.0)  # checks threshold, beta
        self._state = state

        self._threshold = W.FloatSlider(
            value=threshold, min=min(smin, threshold), max=max(smax, threshold), step=step,
            description="threshold", readout_format=f".{decimals}f", continuous_update=True,
            style={"description_width": "initial"}, layout=W.Layout(width="440px"))
        self._threshold.add_class("evalkit-threshold-slider")
        self._beta = W.FloatSlider(
            value=state["beta"], min=0.0, max=max(5.0, state["beta"]), step=0.1,
            description="beta", readout_format=".2f", continuous_update=True,
            style={"description_width": "initial"}, layout=W.Layout(width="300px"))
        self._beta.add_class("evalkit-beta-slider")
        self._layout = W.ToggleButtons(options=list(LAYOUTS), value=layout,
                                       description="table", style={"button_width": "150px"})
        self._layout.add_class("evalkit-layout")

        self._labels = _labels(explorer_text(state), EXPLORER_KEYS)
        self._matrix = _matrix_view(state["counts"], layout)

        self._frame = self._build_figure(y_true, y_score, pos_label, smin, smax)
        self._image = _figure_view(self._draw())

        lab = self._labels
        metrics = W.VBox([lab[k] for k in ("threshold", "accuracy", "precision", "recall", "f1", "f_beta")])
        super().__init__([
            W.HBox([self._threshold, self._beta]),
            self._layout,
            self._image,
            W.HBox([self._matrix, metrics]),
            lab["above"],
            lab["below"],
        ])
        self.add_class("evalkit-threshold-explorer")
        self._threshold.observe(self._on_threshold, names="value")
        self._beta.observe(self._on_beta, names="value")
        self._layout.observe(self._on_layout, names="value")

    # -- figure ----------------------------------------------------------
    def _build_figure(self, y_true, y_score, pos_label, smin, smax):
        sw = self.sweep
        fig = Figure(figsize=(10.5, 3.1), dpi=80, layout="constrained")
        ax_h, ax_roc, ax_pr = fig.subplots(1, 3)
        scores = check_scores(y_score)
        pos = positive_mask(y_true, pos_label)
        lo, hi = float(sw.thresholds[-1]), float(sw.thresholds[0])
        bins = np.linspace(lo, hi, 41) if hi > lo else np.array([lo - 0.5, lo + 0.5])
        for mask, color, name in ((~pos, NEG_COLOR, "negative"), (pos, POS_COLOR, "positive")):
            counts, _ = np.histogram(scores[mask], bins)
            ax_h.stairs(counts, bins, fill=True, alpha=0.45, color=color, label=name)
        ax_h.set_xlim(smin, smax)
        ax_h.set_title("scores by class; predict positive at or right of the line", fontsize=9)
        ax_h.set_xlabel("score")
        ax_h.legend(fontsize=8, loc="upper center")

        fpr, tpr = roc_points(sw)
        ax_roc.plot(fpr, tpr, color=NEG_COLOR, lw=1.5)
        ax_roc.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1)
        ax_roc.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="FPR", ylabel="TPR (recall)")
        ax_roc.set_title("ROC curve", fontsize=9)

        recall, precision = pr_points(sw, "sklearn")
        ax_pr.plot(recall, precision, color=NEG_COLOR, lw=1.5)
        ax_pr.axhline(sw.n_pos / (sw.n_pos + sw.n_neg), ls="--", color="0.6", lw=1)
        ax_pr.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="recall", ylabel="precision")
        ax_pr.set_title("precision-recall curve", fontsize=9)

        frame = Frame(fig)
        self._vline = frame.moving(ax_h.axvline(0, color=MARK_COLOR, lw=2))
        self._roc_point = frame.moving(ax_roc.plot([], [], "o", color=MARK_COLOR, ms=9)[0])
        self._pr_point = frame.moving(ax_pr.plot([], [], "o", color=MARK_COLOR, ms=9)[0])
        return frame

    def _draw(self):
        s = self._state
        t = s["threshold"]
        self._vline.set_xdata([t, t])
        self._roc_point.set_data([s["fpr"]], [s["recall"]])
        if s["above"]:
            self._pr_point.set_data([s["recall"]], [s["precision"]])
        else:  # nothing predicted positive: precision is 0/0, no point
            self._pr_point.set_data([], [])
        return self._frame.png()

    # -- events ----------------------------------------------------------
    def _snapped(self):
        """The slider's value, with float noise from stepping (0.1 + 0.2) put back on the grid.

        A browser's slider sends k * step computed in floating point, e.g.
        0.30000000000000004 for 0.3; a score of exactly 0.3 must count as
        at or above the threshold the readout shows. Values off the grid
        (a threshold given in code) are kept as they are.
        """
        value, step = self._threshold.value, self._step
        k = round(value / step)
        if abs(value - k * step) <= 1e-9 * step:
            return round(k * step, self._decimals)
        return value

    def _update(self, redraw):
        self._state = explorer_state(self.sweep, self._snapped(), self._beta.value, zero_division=0.0)
        _set_texts(self._labels, explorer_text(self._state))
        self._on_layout()
        if redraw:
            self._image.value = self._draw()

    def _on_threshold(self, change=None):
        self._update(redraw=True)

    def _on_beta(self, change=None):
        self._update(redraw=False)

    def _on_layout(self, change=None):
        value = _TABLE_CSS + confusion_html(self._state["counts"], self._layout.value)
        if self._matrix.value != value:
            self._matrix.value = value

    # -- state -----------------------------------------------------------
    threshold = _control_value(
        "_threshold", "The slider's threshold (predict positive when score >= threshold).")
    beta = _control_value("_beta")
    matrix_layout = _control_value(
        "_layout", 'The confusion matrix\'s layout: "actual-by-predicted" or "predicted-by-actual".')


class ImbalanceExplorer(_Shown, W.VBox):
    """A class-ratio slider and the "always predict the majority" baseline (the Spark and logistic-regression posts)."""

    _text_of = staticmethod(imbalance_text)

    def __init__(self, majority=0.9, *, n=100):
        state = imbalance_state(majority, n=n)
        self._n = n
        self._state = state
        pct = int(round(majority * 100))
        self._slider = W.IntSlider(value=pct, min=50, max=99, step=1, description="majority %",
                                   continuous_update=True, style={"description_width": "initial"},
                                   layout=W.Layout(width="440px"))
        self._slider.add_class("evalkit-majority-slider")
        self._labels = _labels(imbalance_text(state), IMBALANCE_KEYS)
        self._matrix = _matrix_view(state["counts"])
        self._frame = self._build_figure()
        self._image = _figure_view(self._draw())
        note = W.HTML("The minority class is the positive one; the baseline predicts the "
                      "majority for everyone.")
        super().__init__([
            self._slider,
            self._image,
            W.HBox([self._matrix, W.VBox([self._labels[k] for k in IMBALANCE_KEYS])]),
            note,
        ])
        self.add_class("evalkit-imbalance-explorer")
        self._slider.observe(self._on_ratio, names="value")

    def _build_figure(self):
        pcts = np.arange(50, 100)
        states = [imbalance_state(p / 100, n=self._n) for p in pcts]
        fig = Figure(figsize=(7.5, 3.0), dpi=80, layout="constrained")
        ax = fig.subplots()
        self._curves = {}
        for key, color, name in (("accuracy", NEG_COLOR, "accuracy"),
                                 ("balanced_accuracy", "tab:green", "balanced accuracy"),
                                 ("minority_recall", POS_COLOR, "minority recall")):
            ax.plot(pcts, [s[key] for s in states], color=color, lw=1.5, label=name)
            self._curves[key] = color
        for pct, seed in ((90, "the Spark post: 90 / 10"), (99, "the logistic-regression post: 99 / 1")):
            ax.annotate(seed, (pct, pct / 100), xytext=(pct - 40, pct / 100 - 0.3), fontsize=8,
                        arrowprops={"arrowstyle": "->", "color": "0.5"})
        ax.set(xlim=(49, 100), ylim=(-0.05, 1.05), xlabel="majority class share (%)",
               ylabel="score of the baseline")
        ax.set_title("always predicting the majority", fontsize=9)
        ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1, 0.06))
        frame = Frame(fig)
        self._vline = frame.moving(ax.axvline(50, color="0.4", lw=1, ls=":"))
        self._points = {k: frame.moving(ax.plot([], [], "o", color=c, ms=8)[0])
                        for k, c in self._curves.items()}
        return frame

    def _draw(self):
        pct = 100 * self._state["n_majority"] / self._n
        self._vline.set_xdata([pct, pct])
        for key, point in self._points.items():
            point.set_data([pct], [self._state[key]])
        return self._frame.png()

    def _on_ratio(self, change=None):
        self._state = imbalance_state(self._slider.value / 100, n=self._n)
        _set_texts(self._labels, imbalance_text(self._state))
        self._matrix.value = _TABLE_CSS + confusion_html(self._state["counts"])
        self._image.value = self._draw()

    @property
    def majority(self):
        """The majority class's share (the slider's percentage / 100)."""
        return self._slider.value / 100

    @majority.setter
    def majority(self, value):
        self._slider.value = int(round(value * 100))


class RocBuilder(_Shown, W.VBox):
    """The logistic-regression post's ROC curve, built one sample (one distinct score) at a time."""

    _text_of = staticmethod(roc_builder_text)

    def __init__(self, y_true, y_score, *, pos_label=None, step=0):
        self._y_true = np.asarray(y_true)
        self._y_score = np.asarray(y_score)
        self._pos_label = pos_label
        state = roc_builder_state(y_true, y_score, step, pos_label=pos_label)
        self._state = state
        self._pos = positive_mask(y_true, pos_label)
        n = state["n_steps"]
        self._slider = W.IntSlider(value=step, min=0, max=n, step=1, description="step",
                                   continuous_update=True, layout=W.Layout(width="300px"))
        self._slider.add_class("evalkit-step-slider")
        buttons = []
        for text, key, move in (("|◀ start", "start", lambda s: 0), ("◀ back", "back", lambda s: s - 1),
                                ("next ▶", "next", lambda s: s + 1), ("end ▶|", "end", lambda s: n)):
            b = W.Button(description=text, layout=W.Layout(width="80px"))
            b.add_class(f"evalkit-{key}")
            b.on_click(lambda _b, move=move: self._go(move(self._slider.value)))
            buttons.append(b)
        self._labels = _labels(roc_builder_text(state), ROC_BUILDER_KEYS)
        self._table = W.HTML(self._table_html())
        self._table.add_class("evalkit-samples")
        self._frame = self._build_figure()
        self._image = _figure_view(self._draw())
        super().__init__([
            W.HBox([*buttons, self._slider]),
            W.HBox([self._image, W.VBox([*(self._labels[k] for k in ROC_BUILDER_KEYS), self._table])]),
        ])
        self.add_class("evalkit-roc-builder")
        self._slider.observe(self._on_step, names="value")

    def _go(self, step):
        self._slider.value = min(max(step, 0), self._state["n_steps"])

    def _table_html(self):
        s = self._state
        rows = ["<tr><th>sample</th><th>score</th><th>label</th></tr>"]
        thr = s["threshold"]
        for i in s["order"]:
            score = float(self._y_score[i])
            is_taken = thr is not None and score >= thr
            cls = ' class="evalkit-taken"' if is_taken else ""
            label = "positive" if self._pos[i] else "negative"
            rows.append(f"<tr{cls}><td>{i + 1}</td><td>{score:g}</td><td>{label}</td></tr>")
        return _TABLE_CSS + '<table class="evalkit-confusion">' + "".join(rows) + "</table>"

    def _build_figure(self):
        c = self._state["counts"]
        fig = Figure(figsize=(4.2, 4.0), dpi=80, layout="constrained")
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1)
        if c.negatives <= 20:
            ax.set_xticks(np.linspace(0, 1, c.negatives + 1))
        if c.positives <= 20:
            ax.set_yticks(np.linspace(0, 1, c.positives + 1))
        ax.grid(True, color="0.9")
        ax.set(xlim=(-0.03, 1.03), ylim=(-0.03, 1.03), xlabel="FPR", ylabel="TPR")
        ax.set_title("ROC curve, highest score first", fontsize=9)
        frame = Frame(fig)
        from matplotlib.patches import Polygon

        self._area = frame.moving(ax.add_patch(Polygon([[0, 0]], closed=True, alpha=0.25,
                                                        color=NEG_COLOR, lw=0)))
        self._path = frame.moving(ax.plot([], [], "-", color=NEG_COLOR, lw=2)[0])
        self._point = frame.moving(ax.plot([], [], "o", color=MARK_COLOR, ms=9)[0])
        return frame

    def _draw(self):
        s = self._state
        x, y = s["fpr_path"], s["tpr_path"]
        self._path.set_data(x, y)
        self._point.set_data([s["fpr"]], [s["tpr"]])
        self._area.set_xy(np.c_[[*x, x[-1], 0.0], [*y, 0.0, 0.0]])
        return self._frame.png()

    def _on_step(self, change=None):
        self._state = roc_builder_state(self._y_true, self._y_score, self._slider.value,
                                        pos_label=self._pos_label)
        _set_texts(self._labels, roc_builder_text(self._state))
        self._table.value = self._table_html()
        self._image.value = self._draw()

    @property
    def step(self):
        return self._slider.value

    @step.setter
    def step(self, value):
        self._go(value)
