"""evalkit.widgets: the pure state functions against BinaryCounts and scikit-learn,
and the widgets built headless, driven programmatically, equal to those functions."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from evalkit._sweep import threshold_sweep
from evalkit.course.datasets import click_sequences
from evalkit.widgets import (
    EXPLORER_KEYS,
    confusion_html,
    explorer_state,
    explorer_text,
    imbalance_state,
    imbalance_text,
    roc_builder_state,
    roc_builder_text,
)

ROOT = Path(__file__).resolve().parent.parent
SEED000_Y = [1] * 11 + [0] * 89
SEED000_S = [1.0] + [0.6] * 5 + [0.4] * 5 + [0.0] * 89


def random_scores(seed, n=400, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.1, 0.6)).astype(int)
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
    if ties:
        s = np.round(s, 1)
    return y, s


# -- explorer_state --------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_explorer_state_matches_binary_counts_and_sklearn(seed):
    y, s = random_scores(seed, ties=seed % 2 == 1)
    sw = threshold_sweep(y, s)
    rng = np.random.default_rng(100 + seed)
    thresholds = np.r_[rng.uniform(-0.1, 1.1, 20), np.unique(s)[:5], s.max() + 1, s.min()]
    for t in thresholds:
        beta = float(rng.uniform(0.2, 4))
        st = explorer_state(sw, t, beta, zero_division=0.0)
        y_pred = (s >= t).astype(int)
        c = ek.binary_counts(y, y_pred, pos_label=1)
        assert st["counts"] == c
        assert (st["tp"], st["fp"], st["fn"], st["tn"]) == (c.tp, c.fp, c.fn, c.tn)
        assert st["above"] == int(y_pred.sum()) and st["below"] == int((1 - y_pred).sum())
        zd = dict(zero_division=0.0)
        assert st["accuracy"] == pytest.approx(skm.accuracy_score(y, y_pred), abs=1e-15)
        assert st["precision"] == pytest.approx(skm.precision_score(y, y_pred, **zd), abs=1e-15)
        assert st["recall"] == pytest.approx(skm.recall_score(y, y_pred, **zd), abs=1e-15)
        assert st["f1"] == pytest.approx(skm.f1_score(y, y_pred, **zd), abs=1e-15)
        assert st["f_beta"] == pytest.approx(skm.fbeta_score(y, y_pred, beta=beta, **zd), abs=1e-15)
        assert st["fpr"] == pytest.approx(c.fpr(), abs=1e-15)
        assert st["threshold"] == float(t) and st["beta"] == beta


def test_explorer_state_seed000_numbers():
    sw = threshold_sweep(SEED000_Y, SEED000_S)
    # threshold 0.5: the woman at 1.0 and five at 0.6 are found, five at 0.4 missed
    st = explorer_state(sw, 0.5)
    assert st["counts"] == ek.BinaryCounts(tp=6, fp=0, fn=5, tn=89)
    # threshold above every score: the seed's lazy model, 89 % accurate, recall 0
    with pytest.warns(ek.UndefinedMetricWarning):  # the default: scikit-learn's warning
        st = explorer_state(sw, 1.5)
    assert st["counts"] == ek.BinaryCounts(tp=0, fp=0, fn=11, tn=89)
    assert (st["accuracy"], st["recall"], st["precision"]) == (0.89, 0.0, 0.0)
    # zero_division conventions: Spark's precision 1.0, sklearn's warning
    assert explorer_state(sw, 1.5, zero_division="spark")["precision"] == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert explorer_state(sw, 1.5, zero_division=0.0)["precision"] == 0.0  # the widget's choice
    # labels and scores instead of a sweep: swept on the spot, pos_label as threshold_sweep's
    words = ["w" if v else "m" for v in SEED000_Y]
    assert explorer_state((words, SEED000_S), 0.5, pos_label="w") == explorer_state(sw, 0.5)


def test_explorer_text_is_the_state_formatted():
    sw = threshold_sweep(SEED000_Y, SEED000_S)
    st = explorer_state(sw, 0.4, beta=0.5)
    text = explorer_text(st)
    assert tuple(text) == EXPLORER_KEYS
    assert text["precision"] == f"precision {st['precision']:.4f}" == "precision 1.0000"
    assert text["recall"] == "recall 1.0000"
    assert text["f_beta"] == "F-beta (beta 0.50) 1.0000"
    assert text["above"] == "above threshold (predicted positive) 11: 11 positive, 0 negative"
    assert text["below"] == "below threshold (predicted negative) 89: 0 positive, 89 negative"


def test_confusion_html_both_layouts():
    c = ek.BinaryCounts(tp=1, fp=2, fn=3, tn=4)
    ab = confusion_html(c, "actual-by-predicted")
    pa = confusion_html(c, "predicted-by-actual")
    # rows in reading order follow .matrix(layout)
    import re

    def cells(h):
        return [int(v) for v in re.findall(r'data-cell="\w+">\w+ (\d+)<', h)]

    assert cells(ab) == c.matrix("actual-by-predicted").ravel().tolist() == [1, 3, 2, 4]
    assert cells(pa) == c.matrix("predicted-by-actual").ravel().tolist() == [1, 2, 3, 4]
    assert "<th>actual positive</th><td" in ab and "<th>predicted positive</th><td" in pa


def test_explorer_bad_input():
    sw = threshold_sweep(SEED000_Y, SEED000_S)
    with pytest.raises(TypeError, match="^sweep"):
        explorer_state([SEED000_Y, SEED000_S], 0.5)
    with pytest.raises(TypeError, match="^threshold"):
        explorer_state(sw, "0.5")
    with pytest.raises(ValueError, match="^threshold"):
        explorer_state(sw, float("nan"))
    with pytest.raises(ValueError, match="^beta"):
        explorer_state(sw, 0.5, beta=-1)
    with pytest.raises(ValueError, match="^layout"):
        confusion_html(ek.BinaryCounts(1, 0, 0, 1), "rows-by-columns")
    with pytest.raises(TypeError, match="^counts"):
        confusion_html([[1, 0], [0, 1]])


# -- imbalance_state -------------------------------------------------------------


@pytest.mark.parametrize("pct", [50, 61, 90, 95, 99])
def test_imbalance_state_matches_sklearn(pct):
    st = imbalance_state(pct / 100)
    y = np.r_[np.zeros(st["n_majority"], int), np.ones(st["n_minority"], int)]  # minority = 1
    y_pred = np.zeros_like(y)  # always the majority
    assert st["counts"] == ek.binary_counts(y, y_pred, pos_label=1)
    assert st["accuracy"] == skm.accuracy_score(y, y_pred) == pct / 100
    assert st["minority_recall"] == skm.recall_score(y, y_pred) == 0.0
    assert st["majority_recall"] == skm.recall_score(y, y_pred, pos_label=0) == 1.0
    assert st["balanced_accuracy"] == skm.balanced_accuracy_score(y, y_pred) == 0.5
    assert st["minority_precision"] == skm.precision_score(y, y_pred, zero_division=0.0)
    assert st["minority_f1"] == skm.f1_score(y, y_pred, zero_division=0.0)


def test_imbalance_seeds_000_and_001():
    # the Spark post: 90 men, 10 women, "man" for everyone -> 90 % accurate, no woman found
    from evalkit.course.datasets import students

    y, y_pred = students()
    st = imbalance_state(0.9)
    assert st["accuracy"] == ek.accuracy_score(y, y_pred) == 0.9
    assert st["minority_recall"] == ek.recall_score(y, y_pred, pos_label="woman") == 0.0
    # the logistic-regression post: 99 cancer, 1 not, all predicted cancer -> 99 %
    assert imbalance_text(imbalance_state(0.99))["accuracy"].endswith("0.9900")


def test_imbalance_bad_input():
    for bad in (0.4, 1.0, 1.5):
        with pytest.raises(ValueError, match="^majority"):
            imbalance_state(bad)
    with pytest.raises(TypeError, match="^majority"):
        imbalance_state("0.9")
    with pytest.raises(ValueError, match="^n"):
        imbalance_state(0.9, n=1)
    with pytest.raises(ValueError, match="^majority"):
        imbalance_state(0.99, n=10)  # rounds to 10 of 10: no minority left


# -- roc_builder_state -----------------------------------------------------------


SEED001_POINTS = {  # the seed's six points, step 1..6
    "sequence 1": [(0, 0.5), (0, 1.0), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)],
    "sequence 2": [(0, 0.5), (0.25, 0.5), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)],
    "sequence 3": [(0.25, 0.0), (0.5, 0.0), (0.75, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)],
}
SEED001_AUC = {"sequence 1": 1.0, "sequence 2": 0.875, "sequence 3": 0.0}


@pytest.mark.parametrize("name", sorted(SEED001_POINTS))
def test_roc_builder_follows_seed001(name):
    y, seqs = click_sequences()
    p = seqs[name]
    st0 = roc_builder_state(y, p, 0)
    assert (st0["fpr"], st0["tpr"], st0["area"], st0["new"]) == (0.0, 0.0, 0.0, [])
    for step, point in enumerate(SEED001_POINTS[name], start=1):
        st = roc_builder_state(y, p, step)
        assert (st["fpr"], st["tpr"]) == point
        assert st["new"] == [int(np.argsort(-p)[step - 1])]  # one sample per step
        assert st["new_labels"] == [bool(y[st["new"][0]] == 1)]
    assert st["area"] == SEED001_AUC[name] == skm.roc_auc_score(y, p)
    assert roc_builder_text(st)["area"] == f"area so far {SEED001_AUC[name]:.4f}"


@pytest.mark.parametrize("seed", range(5))
def test_roc_builder_path_is_sklearn_roc_curve(seed):
    y, s = random_scores(seed, n=60, ties=True)
    full = roc_builder_state(y, s, roc_builder_state(y, s, 0)["n_steps"])
    fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(full["fpr_path"], fpr)
    np.testing.assert_allclose(full["tpr_path"], tpr)
    assert full["area"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    for step in range(full["n_steps"] + 1):
        st = roc_builder_state(y, s, step)
        if step:
            assert st["threshold"] == thr[step]
            assert sorted(st["new"]) == np.flatnonzero(s == thr[step]).tolist()
            assert st["counts"] == ek.binary_counts(y, (s >= thr[step]).astype(int))
        # the running area is the area under the path so far
        x, yy = st["fpr_path"], st["tpr_path"]
        assert st["area"] == pytest.approx(np.trapezoid(yy, x) if hasattr(np, "trapezoid")
                                           else np.trapz(yy, x), abs=1e-12)


def test_roc_builder_ties_and_text():
    st = roc_builder_state([1, 0, 1, 0], [0.8, 0.8, 0.3, 0.1], 1)
    assert st["new"] == [0, 1] and (st["fpr"], st["tpr"]) == (0.5, 0.5)
    assert roc_builder_text(st)["taken"] == "took samples 1, 2 (score 0.8, positive and negative)"
    assert roc_builder_text(roc_builder_state([1, 0], [0.8, 0.1], 0))["taken"].startswith("nothing")


def test_roc_builder_bad_input():
    with pytest.raises(ValueError, match="^step"):
        roc_builder_state([1, 0], [0.9, 0.1], 3)
    with pytest.raises(TypeError, match="^step"):
        roc_builder_state([1, 0], [0.9, 0.1], 1.0)
    with pytest.raises(ValueError, match="both classes"):
        roc_builder_state([1, 1], [0.9, 0.1], 1)
    with pytest.raises(ValueError, match="^y_score"):
        roc_builder_state([1, 0], [0.9, float("nan")], 1)


# -- the widgets, headless -------------------------------------------------------

ipywidgets = pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from evalkit.widgets import imbalance_explorer, roc_builder, threshold_explorer  # noqa: E402


def is_png(data):
    return isinstance(data, bytes) and data[:8] == b"\x89PNG\r\n\x1a\n"


def test_threshold_explorer_follows_its_slider():
    y, s = random_scores(7, n=2000)
    w = threshold_explorer(y, s)
    assert isinstance(w, ipywidgets.VBox)
    assert "application/vnd.jupyter.widget-view+json" in w._repr_mimebundle_()
    sw = threshold_sweep(y, s)
    assert w.threshold == 0.5 and w.beta == 1.0
    first = w.png
    assert is_png(first)
    for t in (0.2, 0.37, 0.8, 1.01, 0.0):
        w.threshold = t
        expected = explorer_state(sw, t, w.beta, zero_division=0.0)  # the widget's choice
        assert w.state == expected
        assert w.counts == ek.binary_counts(y, (s >= t).astype(int))
        assert w.text == explorer_text(expected)
        shown = {k: w._labels[k].value for k in EXPLORER_KEYS}
        assert shown == {k: v.replace("&", "&amp;") for k, v in explorer_text(expected).items()}
        assert confusion_html(expected["counts"], w.matrix_layout) in w._matrix.value
    assert is_png(w.png) and w.png != first  # the markers moved

    w.threshold = 0.37
    renders = w._frame.renders
    w.beta = 2.0  # only F-beta changes; the figure is not redrawn
    assert w.state["f_beta"] == pytest.approx(skm.fbeta_score(y, (s >= 0.37).astype(int), beta=2.0))
    w.matrix_layout = "predicted-by-actual"
    assert confusion_html(w.counts, "predicted-by-actual") in w._matrix.value
    assert w._frame.renders == renders


def test_threshold_explorer_on_own_labels_and_ranges():
    rng = np.random.default_rng(3)
    y = rng.choice(["ham", "spam"], 300)
    s = rng.normal(50, 20, 300)  # scores far outside [0, 1]
    w = threshold_explorer(y, s, pos_label="spam", threshold=55.0, layout="predicted-by-actual")
    assert w.threshold == 55.0 and w.matrix_layout == "predicted-by-actual"
    assert w.counts == ek.binary_counts(y, np.where(s >= 55, "spam", "ham"), pos_label="spam")
    slider = w._threshold
    assert slider.min <= s.min() and slider.max > s.max()  # every threshold is reachable
    w.threshold = slider.max
    assert w.state["above"] == 0
    with pytest.raises(ValueError, match="both classes"):
        threshold_explorer([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(ValueError, match="^layout"):
        threshold_explorer([0, 1], [0.2, 0.5], layout="transposed")


def test_threshold_explorer_snaps_slider_float_noise():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.3, 0.3, 0.7, 0.9, 0.2])
    w = threshold_explorer(y, s)
    w.threshold = 0.1 + 0.2  # 0.30000000000000004, as a browser's slider steps
    assert w.state["threshold"] == 0.3
    assert w.counts == ek.binary_counts(y, (s >= 0.3).astype(int))  # both 0.3 scores count
    w.threshold = 0.3000004  # off the grid: kept
    assert w.state["threshold"] == 0.3000004 and w.state["above"] == 2


def test_imbalance_explorer_follows_its_slider():
    w = imbalance_explorer()
    assert isinstance(w, ipywidgets.VBox)
    assert w.majority == 0.9 and w.state == imbalance_state(0.9)
    png = w.png
    for pct in (50, 73, 99):
        w.majority = pct / 100
        assert w.state == imbalance_state(pct / 100)
        assert w.text == imbalance_text(imbalance_state(pct / 100))
        assert w.state["minority_recall"] == 0.0
    assert is_png(w.png) and w.png != png


def test_imbalance_explorer_on_few_samples_stops_where_a_minority_is_left():
    w = imbalance_explorer(0.61, n=37)   # 99 % of 37 rounds to 37: no minority left
    assert w.state == imbalance_state(0.61, n=37)
    shares = [pct / 100 for pct in range(50, 100)]
    valid = [pct for pct, share in zip(range(50, 100), shares) if round(share * 37) < 37]
    assert w.children[0].max == max(valid) == 98
    w.majority = 0.98
    assert w.state["n_minority"] == 1


def test_roc_builder_buttons_and_slider():
    y, seqs = click_sequences()
    p = seqs["sequence 2"]
    w = roc_builder(y, p)
    assert isinstance(w, ipywidgets.VBox)
    assert w.step == 0 and w.state == roc_builder_state(y, p, 0)
    start, back, nxt, end = w.children[0].children[:4]
    pngs = {w.png}
    for step in range(1, 7):
        nxt.click()
        assert w.step == step and w.state == roc_builder_state(y, p, step)
        pngs.add(w.png)
    assert len(pngs) == 7  # every step redrew the path
    nxt.click()  # past the end: stays
    assert w.step == 6 and w.state["area"] == 0.875
    back.click()
    assert w.state == roc_builder_state(y, p, 5)
    start.click()
    assert w.step == 0
    end.click()
    assert w.text == roc_builder_text(roc_builder_state(y, p, 6))
    w.step = 3
    assert w.text["tpr"] == "TPR 1.0000" and w.text["fpr"] == "FPR 0.2500"
    assert 'class="evalkit-taken"' in w._table.value


def test_widget_classes_load_lazily():
    code = (
        "import sys, evalkit.widgets as w\n"
        "before = sorted({m.split('.')[0] for m in sys.modules} & {'ipywidgets', 'matplotlib'})\n"
        "cls = w.ThresholdExplorer\n"
        "after = sorted({m.split('.')[0] for m in sys.modules} & {'ipywidgets', 'matplotlib'})\n"
        "print(before, after, cls.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[] ['ipywidgets', 'matplotlib'] ThresholdExplorer"
