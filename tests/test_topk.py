"""Top-k metrics against a plain Python loop, scikit-learn and the seed's numbers."""

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek

ZERO_DIVISIONS = [0.0, 1.0, np.nan]
NAMES = np.array(["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "owl", "yak"])

SEED_Y = [0, 5, 0, 3, 4, 2, 1, 1, 5, 4]
SEED_TOP5 = [[0, 0, 2, 1, 5], [2, 2, 4, 1, 4], [4, 5, 1, 3, 5], [5, 4, 2, 4, 3],
             [2, 0, 0, 2, 3], [3, 3, 4, 1, 4], [1, 1, 0, 1, 2], [1, 4, 4, 2, 4],
             [4, 1, 3, 3, 5], [2, 4, 2, 2, 3]]


# -- the reference: a straightforward loop ---------------------------------------

def reference(y_true, rows, k, labels=None, zero_division=0.0):
    """Per-class (P, R, F, support) and the three averages, one row at a time."""
    rows = [list(r)[:k] for r in rows]
    if labels is None:
        labels = sorted(set(y_true) | {x for r in rows for x in r})
    tps, preds, sups = [], [], []
    for c in labels:
        tp = pred = sup = 0
        for y, r in zip(y_true, rows):
            if c in r:
                pred += 1
                if y == c:
                    tp += 1
            if y == c:
                sup += 1
        tps.append(tp)
        preds.append(pred)
        sups.append(sup)

    def div(a, b):
        return a / b if b else zero_division

    per_class = [(div(t, p), div(t, s), div(2 * t, s + p), s) for t, p, s in zip(tps, preds, sups)]

    def mean(values, weights=None):
        pairs = [(v, 1 if weights is None else w) for v, w in
                 zip(values, weights or [1] * len(values)) if not math.isnan(v)]
        if not pairs:
            return math.nan
        total = sum(w for _, w in pairs)
        if total == 0:
            return sum(v for v, _ in pairs) / len(pairs)
        return sum(v * w for v, w in pairs) / total

    columns = list(zip(*per_class))
    averages = {
        "micro": (div(sum(tps), sum(preds)), div(sum(tps), sum(sups)),
                  div(2 * sum(tps), sum(sups) + sum(preds))),
        "macro": tuple(mean(list(columns[i])) for i in range(3)),
        "weighted": tuple(mean(list(columns[i]), sups) for i in range(3)),
    }
    return labels, per_class, averages


def close(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)


def random_lists(rng):
    """Ranked label lists with repeats, classes that never occur, maybe strings."""
    n = int(rng.integers(1, 50))
    n_classes = int(rng.integers(1, 9))
    m = int(rng.integers(1, 7))
    y_true = rng.integers(0, n_classes, n)
    rows = rng.integers(0, n_classes + 2, (n, m))  # classes n_classes.. never true
    rows[:, 0] = np.where(rng.random(n) < 0.4, y_true, rows[:, 0])
    if rng.random() < 0.3:
        y_true, rows = NAMES[y_true], NAMES[rows]
    return y_true, rows


@pytest.mark.parametrize("seed", range(120))
def test_label_lists_match_the_loop(seed):
    rng = np.random.default_rng(seed)
    y_true, rows = random_lists(rng)
    k = int(rng.integers(1, rows.shape[1] + 1))
    zd = ZERO_DIVISIONS[rng.integers(3)]
    labels = None
    if rng.random() < 0.4:  # a subset plus a class nobody mentions
        present = np.union1d(y_true, rows[:, :k])
        labels = list(rng.permutation(present)[: rng.integers(1, len(present) + 1)])
        labels.append("zzz" if y_true.dtype.kind == "U" else 99)
    ref_labels, per_class, averages = reference(y_true.tolist(), rows.tolist(), k,
                                                None if labels is None else list(labels), zd)
    as_lists = rng.random() < 0.5
    given = rows.tolist() if as_lists else rows
    p, r, f, s = ek.precision_recall_fscore_at_k(y_true, given, k=k, labels=labels,
                                                  zero_division=zd)
    assert s.tolist() == [c[3] for c in per_class]
    for got, want in zip(zip(p, r, f), per_class):
        assert all(close(g, w) for g, w in zip(got, want[:3])), (got, want)
    for average, want in averages.items():
        got = ek.precision_recall_fscore_at_k(y_true, given, k=k, labels=labels,
                                              average=average, zero_division=zd)
        assert got[3] is None
        assert all(close(g, w) for g, w in zip(got[:3], want)), (average, got, want)
    d = ek.topk_report(y_true, given, k=k, labels=labels, zero_division=zd, output_dict=True)
    names = [str(c) for c in ref_labels]
    assert list(d) == names + ["micro avg", "macro avg", "weighted avg"]
    for name, want in zip(names, per_class):
        row = d[name]
        assert list(row) == [f"precision@{k}", f"recall@{k}", f"f1-score@{k}", "support"]
        assert all(close(g, w) for g, w in zip(row.values(), want))
    assert close(d["micro avg"][f"recall@{k}"], averages["micro"][1])


@pytest.mark.parametrize("seed", range(60))
def test_k1_equals_classification_report_on_the_first_column(seed):
    rng = np.random.default_rng(1000 + seed)
    y_true, rows = random_lists(rng)
    zd = ZERO_DIVISIONS[rng.integers(3)]
    ours = ek.topk_report(y_true, rows, k=1, zero_division=zd, output_dict=True)
    sk = skm.classification_report(y_true, rows[:, 0], zero_division=zd, output_dict=True)
    for key, row in sk.items():
        if key == "accuracy":
            assert close(ours["micro avg"]["precision@1"], row)
            assert close(ours["micro avg"]["recall@1"], row)
            continue
        got = ours[key]
        for (_, g), (_, w) in zip(got.items(), row.items()):
            assert close(g, w), (key, got, row)
    p, r, f, s = ek.precision_recall_fscore_at_k(y_true, rows, k=1, zero_division=zd)
    want = skm.precision_recall_fscore_support(y_true, rows[:, 0], zero_division=zd)
    for g, w in zip((p, r, f, s), want):
        np.testing.assert_allclose(g, w, rtol=1e-12)


def random_scores(rng, ties):
    n = int(rng.integers(1, 60))
    n_classes = int(rng.integers(3, 9))
    if ties:  # few distinct values: many ties, also across the k-th place
        scores = rng.integers(0, 4, (n, n_classes)).astype(float)
    else:
        scores = rng.random((n, n_classes))
    y_true = rng.integers(0, n_classes, n)
    y_true[: min(n, n_classes)] = np.arange(min(n, n_classes))  # most classes occur
    return y_true, scores


@pytest.mark.parametrize("seed", range(80))
def test_top_k_labels_tie_rules_match_stable_sorts(seed):
    rng = np.random.default_rng(2000 + seed)
    _, scores = random_scores(rng, ties=seed % 2 == 0)
    k = int(rng.integers(1, scores.shape[1] + 1))
    first = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    last = np.argsort(scores, axis=1, kind="mergesort")[:, ::-1][:, :k]  # sklearn's
    np.testing.assert_array_equal(ek.top_k_labels(scores, k=k, ties="first"), first)
    np.testing.assert_array_equal(ek.top_k_labels(scores, k=k), last)  # the default is sklearn's
    names = NAMES[: scores.shape[1]]
    np.testing.assert_array_equal(ek.top_k_labels(scores, k=k, labels=names), names[last])


@pytest.mark.parametrize("seed", range(80))
def test_score_matrix_equals_its_label_lists(seed):
    rng = np.random.default_rng(3000 + seed)
    y_true, scores = random_scores(rng, ties=seed % 2 == 0)
    k = int(rng.integers(1, scores.shape[1] + 1))
    names = NAMES[: scores.shape[1]]
    strings = seed % 3 == 0
    labels = names if strings else None
    y = names[y_true] if strings else y_true
    for ties in ["first", "last"]:
        ranked = ek.top_k_labels(scores, k=k, labels=labels, ties=ties)
        for average in [None, "micro", "macro", "weighted"]:
            from_scores = ek.precision_recall_fscore_at_k(y, y_score=scores, k=k, labels=labels,
                                                          average=average, ties=ties)
            from_lists = ek.precision_recall_fscore_at_k(y, ranked, k=k, average=average)
            for a, b in zip(from_scores, from_lists):
                if b is None:
                    assert a is None
                else:
                    np.testing.assert_array_equal(a, b)
        assert (ek.topk_report(y, y_score=scores, k=k, labels=labels, ties=ties)
                == ek.topk_report(y, ranked, k=k))


@pytest.mark.parametrize("seed", range(60))
def test_micro_recall_is_top_k_accuracy(seed):
    rng = np.random.default_rng(4000 + seed)
    y_true, scores = random_scores(rng, ties=seed % 2 == 0)
    labels = np.arange(scores.shape[1])
    for k in range(1, scores.shape[1]):
        _, recall, _, _ = ek.precision_recall_fscore_at_k(
            y_true, y_score=scores, k=k, average="micro", ties="last")
        assert recall == pytest.approx(skm.top_k_accuracy_score(y_true, scores, k=k, labels=labels),
                                       rel=1e-12)
        assert recall == pytest.approx(ek.top_k_accuracy_score(y_true, scores, k=k, labels=labels),
                                       rel=1e-12)
        # label lists, too, with the default tie rule
        ranked = ek.top_k_labels(scores, k=k)
        _, recall, _, _ = ek.precision_recall_fscore_at_k(y_true, ranked, k=k, average="micro")
        hits = [y in row for y, row in zip(y_true, ranked.tolist())]
        assert recall == pytest.approx(sum(hits) / len(hits), rel=1e-12)


# -- top_k_accuracy_score against scikit-learn -------------------------------------

def outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except (ValueError, TypeError):
            return "error", None, None
    return "ok", value, any("perfect score" in str(w.message) for w in caught)


@pytest.mark.parametrize("seed", range(150))
def test_top_k_accuracy_matches_sklearn(seed):
    rng = np.random.default_rng(5000 + seed)
    case = seed % 5
    labels = None
    if case == 0:  # binary, probabilities
        n = int(rng.integers(2, 40))
        y_true = rng.integers(0, 2, n)
        scores = np.round(rng.random(n), 1)
    elif case == 1:  # binary, decision values, string labels
        n = int(rng.integers(2, 40))
        y_true = np.array(["no", "yes"])[rng.integers(0, 2, n)]
        scores = rng.normal(size=n).round(1)
        if rng.random() < 0.5:
            scores = scores[:, None]
    else:  # multiclass, often with ties
        y_true, scores = random_scores(rng, ties=case == 2)
        if case == 4:  # classes missing from y_true: name them all
            labels = np.arange(scores.shape[1] + 1)
            scores = np.column_stack([scores, rng.random(len(y_true))])
            y_true = np.where(y_true == 1, 0, y_true)
        if rng.random() < 0.3:
            labels = NAMES[: scores.shape[1]]
            y_true = labels[y_true]
    k = int(rng.integers(1, 5))
    w = rng.random(len(y_true)) if rng.random() < 0.4 else None
    for normalize in [True, False]:
        kw = dict(k=k, normalize=normalize, sample_weight=w, labels=labels)
        ours = outcome(ek.top_k_accuracy_score, y_true, scores, **kw)
        theirs = outcome(skm.top_k_accuracy_score, y_true, scores, **kw)
        assert ours[0] == theirs[0], (kw, ours, theirs)
        if ours[0] == "ok":
            assert ours[1] == pytest.approx(theirs[1], rel=1e-12)
            assert type(ours[1]) is float
            assert ours[2] == theirs[2]


def test_top_k_accuracy_docstring_example_and_ties():
    y_score = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    assert ek.top_k_accuracy_score([0, 1, 2, 2], y_score, k=2) == 0.75
    # a tie for second place: sklearn (ties="last") keeps column 2, argmax order column 1
    assert ek.top_k_accuracy_score([1], [[0.5, 0.2, 0.2]], k=2, labels=[0, 1, 2]) == 0.0
    assert ek.top_k_accuracy_score([1], [[0.5, 0.2, 0.2]], k=2, labels=[0, 1, 2],
                                   ties="first") == 1.0


# -- the seed's numbers -------------------------------------------------------------

def test_seed002_top3_report():
    p, r, f, s = ek.precision_recall_fscore_at_k(SEED_Y, SEED_TOP5, k=3)
    # the seed's per-class table (it rounds each value to 2 digits)
    assert np.round(p, 2).tolist() == [0.33, 0.5, 0.0, 0.0, 0.14, 0.0]
    assert np.round(r, 2).tolist() == [0.5, 1.0, 0.0, 0.0, 0.5, 0.0]
    assert np.round(f, 2).tolist() == [0.4, 0.67, 0.0, 0.0, 0.22, 0.0]
    assert s.tolist() == [2, 2, 1, 1, 2, 2]
    wp, wr, wf, _ = ek.precision_recall_fscore_at_k(SEED_Y, SEED_TOP5, k=3, average="weighted")
    # the seed prints 0.19 0.4 0.26: its 0.19 comes from averaging rounded values
    assert wp == pytest.approx(0.19524, abs=1e-5) and round(wp, 2) == 0.2
    assert round(wr, 2) == 0.4 and round(wf, 2) == 0.26
    seed_weighted = sum(round(x, 2) * n for x, n in zip(p, s)) / 10
    assert round(seed_weighted, 2) == 0.19
    # micro recall@3 = top-3 accuracy: 4 of 10 rows list their class
    _, micro_r, _, _ = ek.precision_recall_fscore_at_k(SEED_Y, SEED_TOP5, k=3, average="micro")
    assert micro_r == 0.4


def test_seed002_recall_rises_with_k_precision_only_tends_to_fall():
    micro = {k: ek.precision_recall_fscore_at_k(SEED_Y, SEED_TOP5, k=k, average="micro")
             for k in (1, 2, 3, 4, 5)}
    recalls = [micro[k][1] for k in range(1, 6)]
    assert recalls == sorted(recalls)  # top-k sets only grow: recall never falls
    assert micro[1][0] > micro[3][0] > micro[4][0]
    assert micro[5][0] > micro[4][0]  # not a law: 2 more hits for 6 more predictions


def test_frame_output():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(ek.topk_report(SEED_Y, SEED_TOP5, k=3, output_dict=True)).T
    assert list(frame.columns) == ["precision@3", "recall@3", "f1-score@3", "support"]
    assert list(frame.index) == ["0", "1", "2", "3", "4", "5", "micro avg", "macro avg",
                                 "weighted avg"]
    assert frame.loc["micro avg", "recall@3"] == 0.4


def test_target_names_and_digits():
    text = ek.topk_report(SEED_Y, SEED_TOP5, k=3, digits=4,
                          target_names=["a", "b", "c", "d", "e", "f"])
    assert "           e       0.1429      0.5000      0.2222           2" in text


def test_seed_repeats_count_once():
    # row 0 is [0, 0, 2]: class 0 is predicted by that row once, not twice
    p, _, _, _ = ek.precision_recall_fscore_at_k([0], [[0, 0, 2]], k=3)
    assert p.tolist() == [1.0, 0.0]


# -- bad input ----------------------------------------------------------------------

TOPK_FUNCTIONS = [ek.precision_recall_fscore_at_k, ek.topk_report]


@pytest.mark.parametrize("fn", TOPK_FUNCTIONS)
@pytest.mark.parametrize("args, kw, error, words", [
    (([0, 1], [[0, 1], [1, 0]]), dict(k=0), ValueError, "k must be >= 1"),
    (([0, 1], [[0, 1], [1, 0]]), dict(k=3), ValueError, "k=3 is larger than the 2 columns of y_topk"),
    (([0, 1], [[0, 1], [1, 0]]), dict(k=1.5), TypeError, "k must be an integer"),
    (([0, 1], [[0, 1], [1]]), dict(k=1), ValueError, "y_topk has rows of different lengths"),
    (([0, 1, 1], [[0, 1], [1, 0]]), dict(k=1), ValueError,
     r"y_true and y_topk have different lengths \(3 and 2\)"),
    (([0, 1], [[0, 1], [1, np.nan]]), dict(k=2), ValueError, "y_topk contains NaN"),
    ((["a", "b"], [[0, 1], [1, 0]]), dict(k=1), TypeError,
     "y_true and y_topk hold different kinds of labels"),
    (([0, 1],), dict(k=1), ValueError, "y_topk and y_score: give exactly one of them"),
    (([0, 1], [[0, 1], [1, 0]]), dict(k=1, y_score=[[0.1, 0.9], [0.8, 0.2]]), ValueError,
     "y_topk and y_score: give exactly one of them"),
    (([0, 1],), dict(k=1, y_score=[[0.1, 0.9, 0.0], [0.8, 0.2, 0.0]], labels=[0, 1]), ValueError,
     "labels has 2 entries but y_score has 3 columns"),
    (([0, 1],), dict(k=3, y_score=[[0.1, 0.9], [0.8, 0.2]]), ValueError,
     "k=3 is larger than the 2 columns of y_score"),
    (([0, 1],), dict(k=1, y_score=[[0.1, np.nan], [0.8, 0.2]]), ValueError, "y_score contains NaN"),
    (([0, 1],), dict(k=1, y_score=[0.1, 0.8]), ValueError, "y_score must be 2-D"),
    (([0, 7],), dict(k=1, y_score=[[0.1, 0.9], [0.8, 0.2]]), ValueError,
     "y_true contains labels that name no column of y_score, such as 7"),
    (([0, 1],), dict(k=1, y_score=[[0.1, 0.9], [0.8, 0.2]], ties="random"), ValueError,
     "ties must be 'first'"),
    (([0, 1], [[0, 1], [1, 0]]), dict(k=1, zero_division=2), ValueError, "zero_division must be"),
])
def test_bad_input(fn, args, kw, error, words):
    with pytest.raises(error, match=words):
        fn(*args, **kw)


@pytest.mark.parametrize("average", ["binary", "mean", "samples", 1])
def test_unknown_average(average):
    with pytest.raises(ValueError, match="average must be one of None, 'micro', 'macro', 'weighted'"):
        ek.precision_recall_fscore_at_k([0, 1], [[0, 1], [1, 0]], k=1, average=average)


def test_report_options():
    with pytest.raises(ValueError, match="target_names has 2 names but the report has 6 classes"):
        ek.topk_report(SEED_Y, SEED_TOP5, k=3, target_names=["a", "b"])
    with pytest.raises(ValueError, match="digits must be >= 0"):
        ek.topk_report(SEED_Y, SEED_TOP5, k=3, digits=-2)
    with pytest.raises(TypeError, match="output_dict must be True or False"):
        ek.topk_report(SEED_Y, SEED_TOP5, k=3, output_dict="text")
    with pytest.raises(TypeError, match="output"):
        ek.topk_report(SEED_Y, SEED_TOP5, k=3, output="text")  # output= is gone: output_dict


@pytest.mark.parametrize("args, kw, words", [
    (([0, 1, 2], [[0.2, 0.8], [0.1, 0.9], [0.5, 0.5]]), {}, "y_score has 2 columns but y_true has 3 classes"),
    (([0, 1, 2], [0.2, 0.8, 0.1]), {}, "y_score must be 2-D"),
    (([0, 1], [[0.2, 0.8], [0.1, 0.9]]), {}, "y_score has 2 columns but y_true is binary"),
    (([0, 1, 2], np.eye(3)), dict(labels=[2, 1, 0]), "labels must be sorted"),
    (([0, 1, 2], np.eye(3)), dict(labels=[0, 1, 1]), "labels contains duplicates"),
    (([0, 1, 5], np.eye(3)), dict(labels=[0, 1, 2]), "y_true contains labels that name no column"),
    (([0, 1, 2], np.eye(3)), dict(k=0), "k must be >= 1"),
    (([0, 1], [0.2, 0.8, 0.3]), {}, "y_true and y_score have different lengths"),
])
def test_top_k_accuracy_bad_input(args, kw, words):
    with pytest.raises(ValueError, match=words):
        ek.top_k_accuracy_score(*args, **kw)


def test_top_k_accuracy_warns_when_k_covers_every_class():
    with pytest.warns(ek.UndefinedMetricWarning, match="perfect score"):
        assert ek.top_k_accuracy_score([0, 1, 2], np.eye(3), k=3) == 1.0


def test_top_k_labels_bad_input():
    with pytest.raises(ValueError, match="k=4 is larger than the 3 columns of y_score"):
        ek.top_k_labels(np.eye(3), k=4)
    with pytest.raises(ValueError, match="labels has 2 entries but y_score has 3 columns"):
        ek.top_k_labels(np.eye(3), k=1, labels=["a", "b"])


@pytest.mark.parametrize("seed", range(10))
def test_long_rows_use_the_sort_path(seed):
    # k > 6: repeats are found by sorting each row rather than pairwise
    rng = np.random.default_rng(6000 + seed)
    n, n_classes, m = int(rng.integers(1, 40)), int(rng.integers(2, 30)), 25
    y_true = rng.integers(0, n_classes, n)
    rows = rng.integers(0, n_classes, (n, m))
    k = int(rng.integers(7, m + 1))
    _, per_class, averages = reference(y_true.tolist(), rows.tolist(), k)
    p, r, f, s = ek.precision_recall_fscore_at_k(y_true, rows, k=k)
    assert s.tolist() == [c[3] for c in per_class]
    np.testing.assert_allclose(np.column_stack([p, r, f]), [c[:3] for c in per_class], rtol=1e-12)
