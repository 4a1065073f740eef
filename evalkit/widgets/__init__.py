"""Widgets to explore a threshold, class imbalance and the ROC curve, and their pure functions.

Every widget wraps a pure function of :mod:`evalkit.widgets.state`, re-exported
here, so a plain cell can call the same function at a fixed value and print
the same text the widget shows:

* :func:`threshold_explorer` shows :func:`explorer_state` (counts and metrics
  at one threshold of a :func:`~evalkit._sweep.threshold_sweep`), as
  :func:`explorer_text` words it, with :func:`confusion_html` as its table;
* :func:`imbalance_explorer` shows :func:`imbalance_state` (the "always predict
  the majority" baseline at one class ratio) and :func:`imbalance_text`;
* :func:`roc_builder` shows :func:`roc_builder_state` (a ROC curve built one
  sample at a time) and :func:`roc_builder_text`.

The pure functions need only numpy. The widgets import ipywidgets and
matplotlib when they are built (``import evalkit.widgets`` imports neither);
their classes live in :mod:`evalkit.widgets.ui`, which imports
:mod:`evalkit.widgets.state` and nothing that imports it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from numpy.typing import ArrayLike

from .state import *  # noqa: F403
from .state import __all__ as _pure

if TYPE_CHECKING:  # the widget classes import ipywidgets: named here for type checkers only
    from .ui import ImbalanceExplorer, RocBuilder, ThresholdExplorer

__all__ = [*_pure, "threshold_explorer", "imbalance_explorer", "roc_builder"]


# -- the widgets (ipywidgets and matplotlib are imported only here) ------------


def threshold_explorer(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str = 1,
                       threshold: float | None = None, beta: float = 1.0,
                       layout: str = "actual-by-predicted") -> ThresholdExplorer:
    """A threshold slider over ``y_score`` with its confusion matrix, metrics and curves.

    The sweep is computed once; a slider move is one lookup
    (:func:`explorer_state`) and a redraw of the moving markers only. Shows
    the confusion matrix (``layout`` selectable), accuracy, precision,
    recall, F1, F-beta (with a beta slider), the counts above and below the
    threshold, the score histograms with the threshold line, and the current
    point on the ROC and PR curves.

    Returns a :class:`~evalkit.widgets.ui.ThresholdExplorer` (an
    ``ipywidgets.VBox``) whose ``.threshold``, ``.beta``, ``.matrix_layout``
    can be read and set, and whose ``.state``, ``.counts`` and ``.text``
    follow the slider.
    """
    from .ui import ThresholdExplorer

    return ThresholdExplorer(y_true, y_score, pos_label=pos_label, threshold=threshold,
                             beta=beta, layout=layout)


def imbalance_explorer(majority: float = 0.9, *, n: int = 100) -> ImbalanceExplorer:
    """A class-ratio slider (50/50 to 99/1) and the "always predict the majority" baseline.

    Accuracy climbs with the majority's share while the minority's recall
    stays 0 (:func:`imbalance_state`). Returns an
    :class:`~evalkit.widgets.ui.ImbalanceExplorer` with ``.majority`` and
    ``.state``.
    """
    from .ui import ImbalanceExplorer

    return ImbalanceExplorer(majority, n=n)


def roc_builder(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: int | str | None = None,
                step: int = 0) -> RocBuilder:
    """Step through the hand construction of a ROC curve, one sample (score) at a time.

    Shows the path so far, the current TPR and FPR and the running area
    (:func:`roc_builder_state`). Returns a
    :class:`~evalkit.widgets.ui.RocBuilder` with ``.step`` and ``.state``.
    """
    from .ui import RocBuilder

    return RocBuilder(y_true, y_score, pos_label=pos_label, step=step)


def __getattr__(name):
    # The widget classes, importable from here without importing ipywidgets up front.
    if name in ("ThresholdExplorer", "ImbalanceExplorer", "RocBuilder"):
        from . import ui

        return getattr(ui, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
