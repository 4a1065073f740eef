"""One slider move of the threshold explorer at 10^6 samples, Python side.

evalkit: the explorer's own update -- ``explorer_state`` (one binary search
in the sweep computed when the widget was built), the text widgets, the
markers' ``set_data``, the blitted re-render and its PNG encoding, and the
assignment to the Image widget (no kernel here: the message is not sent, and
the browser's paint is not counted).

reference: the naive update -- recount the four cells from the 10^6 labels
and scores, and redraw the whole figure (histogram, both curves) to PNG.
"""

import io
import itertools

import numpy as np

import evalkit as ek
from _harness import Workload

N = 10**6
THRESHOLDS = (0.30, 0.31, 0.55, 0.56, 0.80, 0.12)


class Explorer:
    """The explorer, built once, and a cycle of thresholds so every call really moves it."""

    def __init__(self):
        from evalkit.widgets import threshold_explorer

        rng = np.random.default_rng(0)
        self.y = (rng.random(N) < 0.3).astype(np.int64)
        self.s = np.clip(rng.normal(0.4 + 0.25 * self.y, 0.2), 0, 1)
        self.widget = threshold_explorer(self.y, self.s)
        self.mine = itertools.cycle(THRESHOLDS)
        self.naive = itertools.cycle(THRESHOLDS)


def slider_move(ex):
    ex.widget.threshold = next(ex.mine)  # the observer runs the whole update
    return ex.widget.counts


def recount_and_redraw(ex):
    t = next(ex.naive)
    counts = ek.binary_counts(ex.y, (ex.s >= t).astype(np.int64), pos_label=1)
    buf = io.BytesIO()
    ex.widget._frame.fig.savefig(buf, format="png")
    return counts


def same_counts(a, b):
    if a != b:
        raise AssertionError(f"{a} != {b}")


WORKLOADS = [
    Workload(
        name="threshold_explorer slider move 10^6 samples",
        setup=Explorer,
        evalkit=slider_move,
        reference=recount_and_redraw,
        reference_name="recount+full redraw",
        check=same_counts,
        budget_s=0.05,
        note="state lookup + text widgets + marker set_data + blitted PNG render, browser paint excluded",
    ),
]
