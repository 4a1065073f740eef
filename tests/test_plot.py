"""evalkit.plot: the data on the returned Axes, against scikit-learn and the logistic-regression post.

No image comparison: each test reads the lines, texts and images the function
drew and compares them with curves computed independently (scikit-learn's
``roc_curve`` / ``precision_recall_curve`` / ``confusion_matrix``, brute-force
counting, the seed's hand-written points).
"""

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import sklearn.metrics as skm  # noqa: E402

import evalkit as ek  # noqa: E402
from evalkit import plot
from evalkit.course import datasets  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def random_scores(rng, n=None, *, ties=True, weights=False):
    """Random binary labels (both classes present), scores with ties, maybe weights."""
    n = int(rng.integers(2, 60)) if n is None else n
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    rng.shuffle(y)
    s = y * rng.normal(1.0, 1.0, n) + rng.normal(0.0, 1.0, n)
    if ties:
        s = np.round(s, int(rng.integers(0, 2)))
    w = rng.uniform(0.1, 3.0, n) if weights else None
    return y, s, w


CASES = [random_scores(np.random.default_rng(seed), ties=seed % 3 != 0, weights=seed % 4 == 1)
         for seed in range(40)]


def xy(line):
    return line.get_xdata().astype(float), line.get_ydata().astype(float)


# -- roc ------------------------------------------------------------------------


@pytest.mark.parametrize("y, s, w", CASES)
def test_roc_line_is_sklearns_roc_curve(y, s, w):
    ax = plot.roc(y, s, sample_weight=w)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    x_line, y_line = xy(ax.lines[0])
    np.testing.assert_allclose(x_line, fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(y_line, tpr, rtol=1e-12, atol=1e-15)
    auc = skm.roc_auc_score(y, s, sample_weight=w)
    assert ax.lines[0].get_label() == f"AUC = {auc:.2f}"


def test_roc_string_labels_and_pos_label():
    rng = np.random.default_rng(7)
    y, s, _ = random_scores(rng, 50)
    names = np.where(y == 1, "spam", "ham")
    ax = plot.roc(names, s, pos_label="spam")
    fpr, tpr, _ = skm.roc_curve(names, s, pos_label="spam", drop_intermediate=False)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.c_[fpr, tpr])
    # the other class as positive mirrors the curve: (1 - TPR, 1 - FPR) read backwards
    ax2 = plot.roc(names, -s, pos_label="ham")
    fpr2, tpr2, _ = skm.roc_curve(names, -s, pos_label="ham", drop_intermediate=False)
    np.testing.assert_allclose(ax2.lines[0].get_xydata(), np.c_[fpr2, tpr2])


def test_roc_on_a_given_ax_draws_there_and_adds_chance_once():
    fig, ax = plt.subplots()
    y, s, _ = CASES[0]
    out = plot.roc(y, s, ax=ax, label="model A", color="C3")
    out2 = plot.roc(y, s[::-1], ax=ax, label="model B")
    assert out is ax and out2 is ax
    labels = [line.get_label() for line in ax.lines]
    assert labels == ["model A", "chance level (AUC = 0.5)", "model B"]
    np.testing.assert_array_equal(ax.lines[1].get_xydata(), [[0, 0], [1, 1]])
    assert matplotlib.colors.same_color(ax.lines[0].get_color(), "C3")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels


def test_roc_without_chance_line():
    y, s, _ = CASES[1]
    ax = plot.roc(y, s, chance=False)
    assert len(ax.lines) == 1


# -- pr -------------------------------------------------------------------------


@pytest.mark.parametrize("y, s, w", CASES)
def test_pr_sklearn_line_is_sklearns_precision_recall_curve(y, s, w):
    ax = plot.pr(y, s, sample_weight=w)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    x_line, y_line = xy(ax.lines[0])
    np.testing.assert_allclose(x_line, recall, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(y_line, precision, rtol=1e-12, atol=1e-15)
    assert ax.lines[0].get_drawstyle() == "steps-post"      # as PrecisionRecallDisplay
    ap = skm.average_precision_score(y, s, sample_weight=w)
    assert ax.lines[0].get_label() == f"AP = {ap:.2f}"


@pytest.mark.parametrize("y, s, w", CASES)
def test_pr_spark_line_starts_at_the_first_precision(y, s, w):
    ax = plot.pr(y, s, sample_weight=w, convention="spark")
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    # Spark: highest threshold first, no appended (0, 1); (0, first precision) in front
    p = precision[:-1][::-1]
    r = recall[:-1][::-1]
    want_x, want_y = np.r_[0.0, r], np.r_[p[0], p]
    x_line, y_line = xy(ax.lines[0])
    np.testing.assert_allclose(x_line, want_x, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(y_line, want_y, rtol=1e-12, atol=1e-15)
    assert ax.lines[0].get_drawstyle() == "default"          # straight lines
    area = np.sum(np.diff(want_x) * (want_y[1:] + want_y[:-1]) / 2)
    assert ax.lines[0].get_label() == f"area = {area:.2f}"


def test_pr_two_conventions_on_one_ax_differ_only_at_recall_zero():
    # one positive on top: both start with precision 1; a negative on top: they differ
    y = [0, 1, 1, 0, 1, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    fig, ax = plt.subplots()
    assert plot.pr(y, s, ax=ax) is ax
    assert plot.pr(y, s, ax=ax, convention="spark", label="Spark") is ax
    sk, baseline, sp = ax.lines          # one baseline: both curves have prevalence 1/2
    assert baseline.get_gid() == "evalkit-prevalence"
    assert sk.get_xydata()[-1].tolist() == [0.0, 1.0]
    assert sp.get_xydata()[0].tolist() == [0.0, 0.0]         # precision at 0.9 is 0 / 1
    assert sp.get_label() == "Spark"


# -- roc_steps: the logistic-regression post --------------------------------------------------------

# the seed's six (FPR, TPR) points, as it prints them
SEED_001_POINTS = {
    "sequence 1": [(0, 0.5), (0, 1.0), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)],
    "sequence 2": [(0, 0.5), (0.25, 0.5), (0.25, 1), (0.5, 1), (0.75, 1), (1.0, 1.0)],
    "sequence 3": [(0.25, 0.0), (0.5, 0.0), (0.75, 0.0), (1.0, 0.0), (1.0, 0.5), (1.0, 1.0)],
}
SEED_001_AUC = {"sequence 1": 1.0, "sequence 2": 0.875, "sequence 3": 0.0}


@pytest.mark.parametrize("name", sorted(SEED_001_POINTS))
def test_roc_steps_reproduces_seed_001(name):
    y, sequences = datasets.click_sequences()
    ax = plot.roc_steps(y, sequences[name])
    path = ax.lines[0].get_xydata()
    assert path[0].tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(path[1:], np.array(SEED_001_POINTS[name], dtype=float))
    texts = [t.get_text() for t in ax.texts]
    assert texts == [f"{k}: ({x:g}, {y_:g})" for k, (x, y_) in
                     enumerate(SEED_001_POINTS[name], start=1)]
    assert ax.lines[0].get_label() == f"area = {SEED_001_AUC[name]:g}"
    # the shaded area is the region under the path
    shaded = ax.collections[0].get_paths()[0].vertices
    assert shaded[:, 1].min() == 0.0 and shaded[:, 1].max() == path[:, 1].max()


def test_roc_steps_ties_move_diagonally():
    # samples 1-2 tied (one positive, one negative), then 3-5 tied (1 positive, 2 negatives)
    y = np.array([1, 0, 1, 0, 0, 1, 0])
    s = np.array([0.9, 0.9, 0.7, 0.7, 0.7, 0.3, 0.1])
    ax = plot.roc_steps(y, s, annotate=False)
    P, N = y.sum(), (1 - y).sum()
    want = [(0.0, 0.0)]
    for t in np.unique(s)[::-1]:                  # brute force: predict score >= t
        pred = s >= t
        want.append(((pred & (y == 0)).sum() / N, (pred & (y == 1)).sum() / P))
    np.testing.assert_allclose(ax.lines[0].get_xydata(), want)
    assert len(ax.texts) == 0
    steps = np.diff(ax.lines[0].get_xydata(), axis=0)
    assert (steps > 0).all(axis=1)[:2].all()      # the two tied blocks: both coordinates move
    # area: every positive-negative pair ordered right counts 1, a tie 1/2
    pairs = [(a > b) + 0.5 * (a == b) for a in s[y == 1] for b in s[y == 0]]
    assert ax.lines[0].get_label() == f"area = {np.mean(pairs):.4g}"


def test_roc_steps_numbers_points_by_samples_taken():
    ax = plot.roc_steps([1, 0, 1, 0], [0.8, 0.8, 0.5, 0.2])
    assert [t.get_text() for t in ax.texts] == ["2: (0.5, 0.5)", "3: (0.5, 1)", "4: (1, 1)"]


def test_roc_steps_on_a_given_ax():
    fig, ax = plt.subplots()
    y, sequences = datasets.click_sequences()
    assert plot.roc_steps(y, sequences["sequence 2"], ax=ax) is ax


# -- confusion --------------------------------------------------------------------


def texts(ax):
    return [t.get_text() for t in ax.texts]


@pytest.mark.parametrize("layout", ["actual-by-predicted", "predicted-by-actual"])
def test_confusion_binary_counts_annotations_and_axis_names(layout):
    c = ek.BinaryCounts(tp=6, fp=2, fn=4, tn=88)
    ax = plot.confusion(c, labels=["woman", "man"], layout=layout)
    m = c.matrix(layout)
    assert texts(ax) == [str(v) for v in m.ravel()]
    np.testing.assert_array_equal(ax.images[0].get_array(), m)
    rows, cols = ("Actual", "Predicted") if layout == "actual-by-predicted" else ("Predicted", "Actual")
    assert ax.get_ylabel() == f"{rows} class" and ax.get_xlabel() == f"{cols} class"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["woman", "man"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["woman", "man"]


def test_confusion_matrix_is_read_rows_actual():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 3, 80)
    y_pred = np.where(rng.random(80) < 0.6, y_true, rng.integers(0, 3, 80))
    cm = skm.confusion_matrix(y_true, y_pred)
    ax = plot.confusion(cm)
    assert texts(ax) == [str(v) for v in cm.ravel()]
    fig, ax2 = plt.subplots()
    assert plot.confusion(ek.confusion_matrix(y_true, y_pred), layout="predicted-by-actual",
                          ax=ax2) is ax2
    assert texts(ax2) == [str(v) for v in cm.T.ravel()]


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
@pytest.mark.parametrize("layout", ["actual-by-predicted", "predicted-by-actual"])
def test_confusion_normalize_as_sklearn(normalize, layout):
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 3, 60)
    y_pred = np.where(rng.random(60) < 0.5, y_true, rng.integers(0, 3, 60))
    cm = skm.confusion_matrix(y_true, y_pred)
    want = skm.confusion_matrix(y_true, y_pred, normalize=normalize)
    if layout == "predicted-by-actual":
        want = want.T
    ax = plot.confusion(cm, normalize=normalize, layout=layout)
    np.testing.assert_allclose(ax.images[0].get_array(), want, rtol=1e-12)
    assert texts(ax) == [f"{v:.2f}" for v in want.ravel()]


def test_confusion_normalize_empty_class_gives_zero():
    cm = np.array([[3, 1], [0, 0]])
    ax = plot.confusion(cm, normalize="true")
    assert texts(ax) == ["0.75", "0.25", "0.00", "0.00"]


def test_confusion_weighted_counts_keep_their_digits():
    ax = plot.confusion(ek.BinaryCounts(tp=1.5, fp=0.25, fn=2.0, tn=10.125))
    assert texts(ax) == ["1.5", "2", "0.25", "10.12"]


# -- matplotlib stays optional ------------------------------------------------------


def test_import_evalkit_does_not_import_matplotlib():
    code = ("import sys, evalkit, evalkit.plot; "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [plot.roc, plot.roc_steps])
@pytest.mark.parametrize("y", [[1, 1, 1], [0, 0, 0]])
def test_roc_needs_both_classes(fn, y):
    with pytest.raises(ValueError, match="^y_true has no (positive|negative) samples"):
        fn(y, [0.1, 0.2, 0.3])


def test_pr_needs_a_positive():
    with pytest.raises(ValueError, match="^y_true has no positive samples"):
        plot.pr([0, 0, 0], [0.1, 0.2, 0.3])


def test_pr_convention_must_be_known():
    with pytest.raises(ValueError, match="^convention must be 'sklearn' .* or 'spark' .*; got 'spark2'"):
        plot.pr([0, 1], [0.1, 0.9], convention="spark2")


@pytest.mark.parametrize("fn", [plot.roc, plot.pr, plot.roc_steps])
def test_curves_validate_their_inputs(fn):
    with pytest.raises(ValueError, match="^y_score contains NaN"):
        fn([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="^y_true"):
        fn(["a", "b"], [0.1, 0.2])


@pytest.mark.parametrize("fn", [plot.roc, plot.pr, plot.roc_steps])
def test_ax_must_be_axes(fn):
    with pytest.raises(TypeError, match="^ax must be a matplotlib Axes"):
        fn([0, 1], [0.1, 0.9], ax="left")


def test_confusion_bad_input():
    c = ek.BinaryCounts(1, 2, 3, 4)
    with pytest.raises(ValueError, match="^layout must be one of"):
        plot.confusion(c, layout="rows-actual")
    with pytest.raises(ValueError, match="^normalize must be one of"):
        plot.confusion(c, normalize="rows")
    with pytest.raises(ValueError, match="^counts must be a square matrix"):
        plot.confusion([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError, match="^counts contains negative values"):
        plot.confusion([[1, -2], [3, 4]])
    with pytest.raises(ValueError, match="^counts contains NaN"):
        plot.confusion([[1, np.nan], [3, 4]])
    with pytest.raises(TypeError, match="^counts must be a square matrix of counts, got the scalar 5"):
        plot.confusion(5)
    with pytest.raises(TypeError, match="^counts is required"):
        plot.confusion(None)
    with pytest.raises(ValueError, match="^counts has rows of different lengths"):
        plot.confusion([[1, 2], [3]])
    with pytest.raises(TypeError, match="^counts must hold numbers"):
        plot.confusion([["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match=r"^labels must have one entry per row of counts \(2\), got 3"):
        plot.confusion(c, labels=["one", "two", "three"])


def test_zero_weights_make_no_point_as_in_sklearn():
    # the top-scored sample weighs 0: scikit-learn drops it, so precision there is not 0/0
    y = np.array([0, 1, 0, 1, 1, 0, 0])
    s = np.array([0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    w = np.array([0.0, 1.0, 2.0, 1.0, 0.0, 1.0, 1.0])
    ax = plot.pr(y, s, sample_weight=w)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.c_[recall, precision])
    ax = plot.roc(y, s, sample_weight=w)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.c_[fpr, tpr])
    fpr_ek, tpr_ek, _ = ek.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), np.c_[fpr_ek, tpr_ek])


@pytest.mark.parametrize("y, s, w", CASES[:10])
def test_curves_are_evalkits_own_curves(y, s, w):
    ax = plot.roc(y, s, sample_weight=w)
    fpr, tpr, _ = ek.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), np.c_[fpr, tpr])
    ax = plot.pr(y, s, sample_weight=w)
    precision, recall, _ = ek.precision_recall_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), np.c_[recall, precision])
    assert ax.lines[0].get_label() == f"AP = {ek.average_precision_score(y, s, sample_weight=w):.2f}"


@pytest.mark.parametrize("y, s, w", CASES[:10])
def test_spark_curve_is_evalkit_spark_pr(y, s, w):
    from evalkit.mllib import BinaryClassificationMetrics

    rows = np.column_stack([s, y] if w is None else [s, y, w])
    m = BinaryClassificationMetrics(rows)
    ax = plot.pr(y, s, sample_weight=w, convention="spark", zero_weight="keep")
    # the same points up to the order of the weighted sums (the mirror's contract: 1e-12)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), m.pr(), rtol=1e-12, atol=1e-15)
    assert ax.lines[0].get_label() == f"area = {m.areaUnderPR:.2f}"


@pytest.mark.parametrize("seed", range(6))
def test_spark_curve_keeps_zero_weight_thresholds_as_the_mirror_does(seed):
    from evalkit.mllib import BinaryClassificationMetrics

    y, s, _ = random_scores(np.random.default_rng(100 + seed), n=40, ties=False)
    w = np.random.default_rng(seed).uniform(0.1, 3.0, len(y))
    w[np.argsort(-s)[:2]] = 0.0           # the top scores weigh 0: precision is 0/0 there
    w[::5] = 0.0
    m = BinaryClassificationMetrics(np.column_stack([s, y, w]))
    ax = plot.pr(y, s, sample_weight=w, convention="spark", zero_weight="keep")
    np.testing.assert_allclose(ax.lines[0].get_xydata(), m.pr(), rtol=1e-12, atol=1e-15)
    assert ax.lines[0].get_xydata()[1, 1] == 1.0      # Spark's precision for 0/0
    # scikit-learn's rule (the plots' default) drops those samples: fewer points
    dropped = plot.pr(y, s, sample_weight=w, convention="spark")
    assert len(dropped.lines[0].get_xydata()) < len(m.pr())
    kept = plot.roc(y, s, sample_weight=w, zero_weight="keep")
    np.testing.assert_allclose(kept.lines[0].get_xydata(), m.roc()[:-1], rtol=1e-12)
    sk = plot.roc(y, s, sample_weight=w)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(sk.lines[0].get_xydata(), np.c_[fpr, tpr], rtol=1e-12)
    with pytest.raises(ValueError, match="^zero_weight must be 'drop'"):
        plot.pr(y, s, sample_weight=w, zero_weight="ignore")


# -- baselines: the chance diagonal and the prevalence line -----------------------


@pytest.mark.parametrize("draw", [plot.roc, plot.roc_steps])
def test_every_roc_plot_draws_the_chance_diagonal(draw):
    y, s = [1, 0, 1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    ax = draw(y, s)
    chance = [line for line in ax.lines if line.get_gid() == "evalkit-chance"]
    assert len(chance) == 1
    np.testing.assert_array_equal(chance[0].get_xydata(), [[0, 0], [1, 1]])
    assert ax.lines[0].get_gid() != "evalkit-chance"   # the curve comes first
    draw(y, s, ax=ax)
    assert sum(line.get_gid() == "evalkit-chance" for line in ax.lines) == 1
    off = draw(y, s, chance=False)
    assert all(line.get_gid() != "evalkit-chance" for line in off.lines)
    with pytest.raises(TypeError, match="^chance must be True or False"):
        draw(y, s, chance="no")


@pytest.mark.parametrize("convention", ["sklearn", "spark"])
@pytest.mark.parametrize("y, s, w", CASES[:6])
def test_pr_plot_draws_the_prevalence_baseline(y, s, w, convention):
    ax = plot.pr(y, s, sample_weight=w, convention=convention)
    lines = [line for line in ax.lines if line.get_gid() == "evalkit-prevalence"]
    assert len(lines) == 1
    w_ = np.ones(len(y)) if w is None else w
    prevalence = w_[np.asarray(y) == 1].sum() / w_.sum()   # a random ranking's precision
    np.testing.assert_allclose(lines[0].get_xydata(), [[0, prevalence], [1, prevalence]],
                               rtol=1e-12)
    assert lines[0].get_label() == f"chance level (prevalence = {prevalence:.3g})"
    # another data set with another prevalence gets its own line; the same one does not
    plot.pr(y, s, sample_weight=w, convention=convention, ax=ax)
    assert sum(line.get_gid() == "evalkit-prevalence" for line in ax.lines) == 1
    plot.pr([1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3], ax=ax)
    assert sum(line.get_gid() == "evalkit-prevalence" for line in ax.lines) == 2
    off = plot.pr(y, s, sample_weight=w, convention=convention, baseline=False)
    assert len(off.lines) == 1
    with pytest.raises(TypeError, match="^baseline must be True or False"):
        plot.pr(y, s, baseline=1)
