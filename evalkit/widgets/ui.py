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

import functools
import html
import io
import math

import ipywidgets as W
import numpy as np
from numpy.typing import ArrayLike
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .._curves import pr_points, roc_points
from .._sweep import positive_mask, threshold_sweep
from .._validation import BOTH_CLASSES, Options, check_real, check_rules, validate_params
from .state import (LAYOUTS, confusion_html, explorer_state, explorer_text, imbalance_state,
                    imbalance_text, roc_builder_state, roc_builder_text)

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

    ``Frame(figsize, ncols)`` makes the figure and its axes (``.axes``);
    ``moving(artist)`` marks an artist as animated; :meth:`png` draws the
    whole figure the first time (caching everything but the moving artists
    as the background), and afterwards only restores that background and
    draws the moving artists, then encodes the canvas as a PNG.
    """

    def __init__(self, figsize: tuple[float, float], ncols: int = 1) -> None:
        self.fig = Figure(figsize=figsize, dpi=80, layout="constrained")
        self.axes = self.fig.subplots(1, ncols)
        self.canvas = FigureCanvasAgg(self.fig)
        self.artists = []
        self.renders = 0  # png() calls
        self._background = None

    def moving(self, artist: Artist) -> Artist:
        artist.set_animated(True)
        self.artists.append(artist)
        return artist

    def point(self, ax: Axes, color: str = MARK_COLOR, ms: float = 9) -> Line2D:
        """A moving marker on ``ax``, empty until its data is set."""
        return self.moving(ax.plot([], [], "o", color=color, ms=ms)[0])

    def png(self) -> bytes:
        self.renders += 1
        if self._background is None:
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        else:
            self.canvas.restore_region(self._background)
        for artist in self.artists:
            self.fig.draw_artist(artist)
        from PIL import Image  # a matplotlib dependency

        img = Image.fromarray(np.asarray(self.canvas.buffer_rgba()))  # (height, width, RGBA)
        out = io.BytesIO()
        img.save(out, format="png", compress_level=1)
        return out.getvalue()


def _classed(widget, key):
    widget.add_class(f"evalkit-{key.replace('_', '-')}")
    return widget


def _slider(cls, key, width, **options):
    """A slider that updates while dragged, with the CSS class ``evalkit-<key>-slider``.

    Its description is ``key`` unless ``options`` give one.
    """
    options.setdefault("description", key)
    return _classed(cls(continuous_update=True, style={"description_width": "initial"},
                        layout=W.Layout(width=width), **options), f"{key}-slider")


def _control_value(control, doc=None):
    """A property that reads and sets the value of the widget's ``control`` attribute."""

    def get(self):
        return getattr(self, control).value

    def set_(self, value):
        getattr(self, control).value = value

    return property(get, set_, doc=doc)


class _Shown:
    """What every widget shows and exposes: its state, counts, text and figure.

    A subclass sets ``_text_of`` (the pure text function of
    :mod:`evalkit.widgets` for its state) and ``_css_class`` (its
    CSS class, which also names its figure's words in ``state.FIGURE_ALT``), calls
    :meth:`_start` with its first state and figure, and :meth:`_box` with its
    children and controls; ``_now()`` computes the state the controls ask
    for, ``_draw()`` moves the figure's markers, ``_refresh()`` updates what
    else shows the state. Values are set whether or not they
    changed: ipywidgets sends a value to the browser (and calls its
    observers) only when it differs from the one shown.
    """

    def _start(self, state, frame, matrix=None):
        self._state, self._frame = state, frame
        texts = self._text_of(state)
        self._labels = {k: _classed(W.HTML(html.escape(v)), k) for k, v in texts.items()}
        if matrix is not None:
            self._matrix = _classed(W.HTML(_TABLE_CSS + confusion_html(state["counts"], matrix)),
                                    "confusion-matrix")
        self._image = _classed(W.Image(value=self._draw(), format="png"), "figure")
        return list(self._labels.values())  # in the text's order, its *_KEYS

    def _box(self, children, control, *quiet):
        """Lay out ``children``; follow the controls with :meth:`_show` of ``_now()``.

        A change of ``control`` also redraws the figure; a change of a
        ``quiet`` control (one the figure does not show) only the rest.
        """
        super().__init__(children)
        self.add_class(self._css_class)
        control.observe(lambda _: self._show(self._now()), names="value")
        for other in quiet:
            other.observe(lambda _: self._show(self._now(), redraw=False), names="value")

    def _show(self, state, redraw=True):
        self._state = state
        for key, text in self._text_of(state).items():
            self._labels[key].value = html.escape(text)
        self._refresh()
        if redraw:
            self._image.value = self._draw()

    def _set_matrix(self, *layout):
        self._matrix.value = _TABLE_CSS + confusion_html(self._state["counts"], *layout)

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
    # the step: 1, 2, 5 or 10 times a power of ten, the first at least the raw step
    if base <= 1:
        mult = 1
    elif base <= 2:
        mult = 2
    elif base <= 5:
        mult = 5
    else:
        mult = 10
    step = mult * 10.0**exp
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    smin = round(math.floor(lo / step + 1e-9) * step, decimals)
    smax = round(math.ceil(hi / step - 1e-9) * step + step, decimals)
    return smin, smax, round(step, decimals), decimals


def _score_histograms(ax, scores, pos, lo, hi):
    """The scores of each class as 40-bin histograms from the lowest score to the highest."""
    if hi > lo:
        bins = np.linspace(lo, hi, 41)
    else:  # one distinct score: one bin around it
        bins = np.array([lo - 0.5, lo + 0.5])
    for mask, color, name in ((~pos, NEG_COLOR, "negative"), (pos, POS_COLOR, "positive")):
        counts = np.histogram(scores[mask], bins)[0]
        ax.stairs(counts, bins, fill=True, alpha=0.45, color=color, label=name)
    ax.set_title("scores by class; predict positive at or right of the line", fontsize=9)
    ax.legend(fontsize=8, loc="upper center")


def _curves(ax_roc, ax_pr, sw):
    """The ROC and the precision-recall curve of the sweep, with the prevalence line."""
    ax_roc.plot(*roc_points(sw), color=NEG_COLOR, lw=1.5)
    _axes(ax_roc, "ROC curve", "FPR", "TPR (recall)")
    ax_pr.plot(*pr_points(sw, "sklearn"), color=NEG_COLOR, lw=1.5)
    ax_pr.axhline(sw.n_pos / (sw.n_pos + sw.n_neg), ls="--", color="0.6", lw=1)
    _axes(ax_pr, "precision-recall curve", "recall", "precision", diagonal=False)


def _axes(ax, title, xlabel, ylabel, diagonal=True, margin=0.02):
    """A unit square's axes (and ``margin`` around it): limits, labels, a title, the diagonal."""
    if diagonal:
        ax.plot([0, 1], [0, 1], ls="--", color="0.6", lw=1)
    lim = (-margin, 1 + margin)
    ax.set(xlim=lim, ylim=lim, xlabel=xlabel, ylabel=ylabel)
    ax.set_title(title, fontsize=9)


class ThresholdExplorer(_Shown, W.VBox):
    """Threshold slider, live confusion matrix, metrics, and the point on the ROC and PR curves.

    Built by :func:`evalkit.widgets.threshold_explorer`. Read or set
    ``.threshold``, ``.beta`` and ``.matrix_layout``; read ``.state`` (the
    :func:`~evalkit.widgets.explorer_state` dict), ``.counts`` and ``.text``.
    """

    _text_of = staticmethod(explorer_text)
    _css_class = "evalkit-threshold-explorer"

    @validate_params(layout=Options(LAYOUTS))
    def __init__(self, y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str = 1,
                 threshold: float | None = None, beta: float = 1.0,
                 layout: str = "actual-by-predicted") -> None:
        sw = threshold_sweep(y_true, y_score, pos_label=pos_label)
        self.sweep = sw
        check_rules(BOTH_CLASSES, sweep=sw, why="the ROC curve needs both classes")
        lo = float(sw.thresholds[-1])
        hi = float(sw.thresholds[0])
        smin, smax, self._step, self._decimals = _slider_grid(lo, hi)
        if threshold is None:  # the grid's point nearest the middle of the scores
            middle = round((lo + hi) / 2 / self._step) * self._step
            threshold = round(middle, self._decimals)
        state = explorer_state(sw, threshold, beta, zero_division=0.0)  # checks threshold, beta
        self._threshold = _slider(W.FloatSlider, "threshold", "440px", value=threshold,
                                  min=min(smin, threshold), max=max(smax, threshold),
                                  step=self._step, readout_format=f".{self._decimals}f")
        self._beta = _slider(W.FloatSlider, "beta", "300px", value=state["beta"], min=0.0,
                             max=max(5.0, state["beta"]), step=0.1, readout_format=".2f")
        toggle = W.ToggleButtons(options=list(LAYOUTS), value=layout, description="table",
                                 style={"button_width": "150px"})
        self._layout = _classed(toggle, "layout")
        frame = Frame((10.5, 3.1), 3)
        ax_h, ax_roc, ax_pr = frame.axes
        pos = positive_mask(y_true, pos_label)
        _score_histograms(ax_h, check_real(y_score), pos, lo, hi)
        ax_h.set(xlim=(smin, smax), xlabel="score")
        _curves(ax_roc, ax_pr, sw)
        self._vline = frame.moving(ax_h.axvline(0, color=MARK_COLOR, lw=2))
        self._roc_point = frame.point(ax_roc)
        self._pr_point = frame.point(ax_pr)
        lab = self._start(state, frame, layout)
        self._box([W.HBox([self._threshold, self._beta]), self._layout, self._image,
                   W.HBox([self._matrix, W.VBox(lab[:6])]), *lab[6:]],
                  self._threshold, self._beta, self._layout)

    def _draw(self):
        s = self._state
        self._vline.set_xdata([s["threshold"]] * 2)
        self._roc_point.set_data([s["fpr"]], [s["recall"]])
        if s["above"]:
            self._pr_point.set_data([s["recall"]], [s["precision"]])
        else:  # nothing predicted positive: precision is 0/0, no point
            self._pr_point.set_data([], [])
        return self._frame.png()

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

    def _now(self):
        return explorer_state(self.sweep, self._snapped(), self._beta.value, zero_division=0.0)

    def _refresh(self):
        self._set_matrix(self._layout.value)

    threshold = _control_value(
        "_threshold", "The slider's threshold (predict positive when score >= threshold).")
    beta = _control_value("_beta")
    matrix_layout = _control_value(
        "_layout",
        'The confusion matrix\'s layout: "actual-by-predicted" or "predicted-by-actual".')


class ImbalanceExplorer(_Shown, W.VBox):
    """A class-ratio slider and the "always predict the majority" baseline.

    From the Spark and logistic-regression posts.
    """

    _text_of = staticmethod(imbalance_text)
    _css_class = "evalkit-imbalance-explorer"

    def __init__(self, majority: float = 0.9, *, n: int = 100) -> None:
        state = imbalance_state(majority, n=n)
        self._n = n
        pcts = np.arange(50, 100)
        pcts = pcts[np.round(pcts / 100 * n) < n]  # a small n: the top shares leave no minority
        self._slider = _slider(W.IntSlider, "majority", "440px", value=int(round(majority * 100)),
                               min=50, max=int(pcts[-1]), step=1, description="majority %")
        frame = Frame((7.5, 3.0))
        ax = frame.axes
        states = [imbalance_state(p / 100, n=n) for p in pcts]
        curves = {"accuracy": (NEG_COLOR, "accuracy"),
                  "balanced_accuracy": ("tab:green", "balanced accuracy"),
                  "minority_recall": (POS_COLOR, "minority recall")}
        for key, (color, name) in curves.items():
            ax.plot(pcts, [s[key] for s in states], color=color, lw=1.5, label=name)
        posts = ((90, "the Spark post: 90 / 10"), (99, "the logistic-regression post: 99 / 1"))
        for pct, seed in posts:
            ax.annotate(seed, (pct, pct / 100), xytext=(pct - 40, pct / 100 - 0.3), fontsize=8,
                        arrowprops={"arrowstyle": "->", "color": "0.5"})
        ax.set(xlim=(49, 100), ylim=(-0.05, 1.05), xlabel="majority class share (%)",
               ylabel="score of the baseline")
        ax.set_title("always predicting the majority", fontsize=9)
        ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1, 0.06))
        self._vline = frame.moving(ax.axvline(50, color="0.4", lw=1, ls=":"))
        self._points = {k: frame.point(ax, c, 8) for k, (c, _) in curves.items()}
        lab = self._start(state, frame, "actual-by-predicted")
        note = W.HTML("The minority class is the positive one; the baseline predicts the "
                      "majority for everyone.")
        self._box([self._slider, self._image, W.HBox([self._matrix, W.VBox(lab)]), note],
                  self._slider)

    def _draw(self):
        pct = 100 * self._state["n_majority"] / self._n
        self._vline.set_xdata([pct, pct])
        for key, point in self._points.items():
            point.set_data([pct], [self._state[key]])
        return self._frame.png()

    def _now(self):
        return imbalance_state(self.majority, n=self._n)

    def _refresh(self):
        self._set_matrix()

    @property
    def majority(self) -> float:
        """The majority class's share (the slider's percentage / 100)."""
        return self._slider.value / 100

    @majority.setter
    def majority(self, value: float) -> None:
        self._slider.value = int(round(value * 100))


def _roc_builder_at(y_true, y_score, pos_label, step):
    return roc_builder_state(y_true, y_score, step, pos_label=pos_label)


class RocBuilder(_Shown, W.VBox):
    """The logistic-regression post's ROC curve, built one sample (one distinct score) at a time."""

    _text_of = staticmethod(roc_builder_text)
    _css_class = "evalkit-roc-builder"

    def __init__(self, y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str | None = None,
                 step: int = 0) -> None:
        state = roc_builder_state(y_true, y_score, step, pos_label=pos_label)
        self._y_score = np.asarray(y_score)
        self._pos = positive_mask(y_true, pos_label)
        self._state_at = functools.partial(_roc_builder_at, y_true, y_score, pos_label)
        n = state["n_steps"]
        c = state["counts"]
        self._slider = _slider(W.IntSlider, "step", "300px", value=step, min=0, max=n, step=1)
        buttons = []
        moves = (("|◀ start", "start", lambda s: 0), ("◀ back", "back", lambda s: s - 1),
                 ("next ▶", "next", lambda s: s + 1), ("end ▶|", "end", lambda s: n))
        for text, key, move in moves:
            buttons.append(_classed(W.Button(description=text, layout=W.Layout(width="80px")), key))
            buttons[-1].on_click(lambda _b, move=move: setattr(self, "step", move(self.step)))
        frame = Frame((4.2, 4.0))
        ax = frame.axes
        for axis, samples in ((ax.xaxis, c.negatives), (ax.yaxis, c.positives)):
            if samples <= 20:  # a tick per sample: the path moves one cell per step
                axis.set_ticks(np.linspace(0, 1, samples + 1))
        ax.grid(True, color="0.9")
        _axes(ax, "ROC curve, highest score first", "FPR", "TPR", margin=0.03)
        from matplotlib.patches import Polygon

        self._area = frame.moving(ax.add_patch(Polygon([[0, 0]], closed=True, alpha=0.25,
                                                        color=NEG_COLOR, lw=0)))
        self._path = frame.moving(ax.plot([], [], "-", color=NEG_COLOR, lw=2)[0])
        self._point = frame.point(ax)
        lab = self._start(state, frame)
        self._table = _classed(W.HTML(self._table_html()), "samples")
        self._box([W.HBox([*buttons, self._slider]),
                   W.HBox([self._image, W.VBox([*lab, self._table])])], self._slider)

    def _table_html(self):
        rows = ["<tr><th>sample</th><th>score</th><th>label</th></tr>"]
        threshold = self._state["threshold"]
        for i in self._state["order"]:
            score = float(self._y_score[i])
            taken = ""
            if threshold is not None and score >= threshold:
                taken = ' class="evalkit-taken"'
            label = "negative"
            if self._pos[i]:
                label = "positive"
            rows.append(f"<tr{taken}><td>{i + 1}</td><td>{score:g}</td><td>{label}</td></tr>")
        return _TABLE_CSS + '<table class="evalkit-confusion">' + "".join(rows) + "</table>"

    def _draw(self):
        s = self._state
        x, y = s["fpr_path"], s["tpr_path"]
        self._path.set_data(x, y)
        self._point.set_data([s["fpr"]], [s["tpr"]])
        self._area.set_xy(np.c_[[*x, x[-1], 0.0], [*y, 0.0, 0.0]])
        return self._frame.png()

    def _now(self):
        return self._state_at(self._slider.value)

    def _refresh(self):
        self._table.value = self._table_html()

    @property
    def step(self) -> int:
        return self._slider.value

    @step.setter
    def step(self, value: int) -> None:
        self._slider.value = min(max(value, 0), self._state["n_steps"])
