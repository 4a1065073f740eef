"""classification_report: scikit-learn's text and dict, character for character."""

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from _oracle import recorder

ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]
NAMES = np.array(["cat", "dog", "pig", "ant", "owl", "yak", "hippopotamus"])


# ("ok", result, the warnings' class names) or ("error", exception type, None)
run = recorder(lambda caught: sorted({w.category.__name__ for w in caught}))


def assert_same_dict(a, b):
    assert list(a) == list(b)
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, dict):
            assert isinstance(y, dict)
            assert_same_dict(x, y)
        else:
            assert type(x) is type(y) is float, (key, x, y)
            assert (math.isnan(x) and math.isnan(y)) or x == y, (key, x, y)


def random_problem(rng):
    n = int(rng.integers(1, 60))
    n_classes = int(rng.integers(1, 7))
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < rng.random(), y_true, rng.integers(0, n_classes, n))
    kind = rng.choice(["int", "str", "float", "neg"])
    if kind == "str":
        y_true, y_pred = NAMES[y_true], NAMES[y_pred]
    elif kind == "float":
        y_true, y_pred = y_true.astype(float), y_pred.astype(float)
    elif kind == "neg":
        y_true, y_pred = y_true - 3, y_pred - 3
    weights = None
    roll = rng.random()
    if roll < 0.25:
        weights = rng.random(n) * 3
    elif roll < 0.4:
        weights = rng.integers(0, 4, n)
        weights[0] = 1  # not all zero
    return y_true, y_pred, weights


def options(rng, y_true, y_pred):
    """Random labels / target_names / digits / zero_division for one problem."""
    present = np.union1d(y_true, y_pred)
    choice = rng.integers(4)
    labels = None
    if choice == 1 and len(present) > 1:  # a subset, shuffled
        labels = list(rng.permutation(present)[: rng.integers(1, len(present))])
    elif choice == 2 and present.dtype.kind in "iu":  # plus a class that never occurs
        labels = list(rng.permutation(present)) + [int(present.max()) + 5]
    elif choice == 3:  # every class, in another order
        labels = list(rng.permutation(present))
    target_names = None
    n_shown = len(present) if labels is None else len(labels)
    roll = rng.random()
    if roll < 0.3:
        target_names = [f"class {i}" for i in range(n_shown)]
    elif roll < 0.4:
        target_names = [f"a much longer class name {i}" for i in range(n_shown)]
    elif roll < 0.5 and labels is not None:
        # a length that does not match: scikit-learn warns and truncates
        target_names = [f"t{i}" for i in range(max(1, n_shown + int(rng.integers(-1, 3))))]
    digits = int(rng.choice([0, 1, 2, 3, 4, 10, 13]))
    zero_division = ZERO_DIVISIONS[rng.integers(len(ZERO_DIVISIONS))]
    return dict(labels=labels, target_names=target_names, digits=digits,
                zero_division=zero_division)


@pytest.mark.parametrize("seed", range(150))
def test_text_and_dict_equal_sklearn(seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred, w = random_problem(rng)
    kw = options(rng, y_true, y_pred)
    kw["sample_weight"] = w
    ours, theirs = run(ek.classification_report, y_true, y_pred, **kw), \
        run(skm.classification_report, y_true, y_pred, **kw)
    assert ours[0] == theirs[0], (kw, ours, theirs)
    if ours[0] == "error":
        return
    assert ours[1] == theirs[1], f"{kw}\n{ours[1]}\n{theirs[1]}"
    assert ("UserWarning" in ours[2]) == ("UserWarning" in theirs[2])
    assert ("UndefinedMetricWarning" in ours[2]) == ("UndefinedMetricWarning" in theirs[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d_ours = ek.classification_report(y_true, y_pred, output_dict=True, **kw)
        d_theirs = skm.classification_report(y_true, y_pred, output_dict=True, **kw)
        assert_same_dict(d_ours, d_theirs)


@pytest.mark.parametrize("seed", range(40))
def test_frame_holds_the_dict(seed):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(500 + seed)
    y_true, y_pred, w = random_problem(rng)
    kw = dict(sample_weight=w, zero_division=0.0)
    d = ek.classification_report(y_true, y_pred, output_dict=True, **kw)
    frame = pd.DataFrame(d).T  # the frame of a report, as with scikit-learn's dict
    assert list(frame.columns) == ["precision", "recall", "f1-score", "support"]
    assert list(frame.index) == list(d)
    for key, row in d.items():
        if key == "accuracy":
            assert (frame.loc[key] == row).all()
        else:
            for col, value in row.items():
                assert frame.loc[key, col] == pytest.approx(value, rel=1e-12)


def test_seed002_three_class_table():
    # the table as the top-k post prints it
    expected = """              precision    recall  f1-score   support

           0       0.00      0.00      0.00         2
           1       0.00      0.00      0.00         1
           2       1.00      0.50      0.67         2

    accuracy                           0.20         5
   macro avg       0.33      0.17      0.22         5
weighted avg       0.40      0.20      0.27         5
"""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every ratio is defined here: no warning either
        text = ek.classification_report([0, 1, 2, 2, 0], [1, 0, 2, 1, 1])
    assert text == expected


def test_micro_row_appears_when_labels_leave_classes_out():
    y_true, y_pred = [0, 1, 2, 2, 0], [1, 0, 2, 1, 1]
    text = ek.classification_report(y_true, y_pred, labels=[1, 2], zero_division=0.0)
    assert "micro avg" in text and "accuracy" not in text
    d = ek.classification_report(y_true, y_pred, labels=[0, 1, 2, 3], output_dict=True,
                                 zero_division=0.0)
    assert d["accuracy"] == ek.accuracy_score(y_true, y_pred)


def test_micro_precision_recall_f1_are_accuracy():
    rng = np.random.default_rng(3)
    y_true = rng.integers(0, 4, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 4, 300))
    d = ek.classification_report(y_true, y_pred, labels=[3, 2, 1, 0, 9], output_dict=True)
    acc = ek.accuracy_score(y_true, y_pred)
    assert d["accuracy"] == pytest.approx(acc, rel=1e-12)


def test_target_names_mismatch_without_labels_is_an_error():
    with pytest.raises(ValueError, match="target_names has 2 names but there are 3 classes"):
        ek.classification_report([0, 1, 2], [0, 1, 1], target_names=["a", "b"])


def test_target_names_mismatch_with_labels_warns_like_sklearn():
    kw = dict(labels=[0, 1, 2], target_names=["a", "b"], zero_division=0.0)
    with pytest.warns(UserWarning, match="labels size, 3, does not match size of target_names, 2"):
        ours = ek.classification_report([0, 1, 2], [0, 1, 1], **kw)
    with pytest.warns(UserWarning):
        theirs = skm.classification_report([0, 1, 2], [0, 1, 1], **kw)
    assert ours == theirs


@pytest.mark.parametrize("kw, error, words", [
    (dict(output_dict="yes"), TypeError, "output_dict must be True or False"),
    (dict(digits=-1), ValueError, "digits must be >= 0"),
    (dict(digits=2.5), TypeError, "digits must be an integer"),
    (dict(zero_division="nope"), ValueError, "zero_division must be"),
    (dict(labels=[0, 0]), ValueError, "labels contains duplicates"),
    (dict(labels=["a"]), TypeError, "labels and the labels in the data hold different kinds"),
    (dict(sample_weight=[1, 2]), ValueError, "sample_weight has 2 values but there are 3 samples"),
])
def test_bad_options(kw, error, words):
    with pytest.raises(error, match=words):
        ek.classification_report([0, 1, 2], [0, 1, 1], **kw)


def test_bad_labels_input():
    with pytest.raises(ValueError, match="y_true and y_pred have different lengths"):
        ek.classification_report([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match="y_pred contains non-integer numbers"):
        ek.classification_report([0, 1], [0.5, 1.0])


def test_render_pads_long_headers():
    from evalkit._report import render, topk_headers

    text = render(["a"], [0.5], [1.0], [2 / 3], [1], [], headers=topk_headers(10))
    header, _, row = text.splitlines()[:3]
    assert header.endswith("precision@10    recall@10  f1-score@10      support")
    assert len(row) == len(header)


@pytest.mark.parametrize("seed", range(30))
def test_many_classes_same_bits_as_sklearn(seed):
    # >= 8 classes: numpy sums pairwise, so averages must be taken the same way
    rng = np.random.default_rng(900 + seed)
    n_classes = int(rng.integers(8, 60))
    n = int(rng.integers(50, 2000))
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, n_classes, n))
    w = rng.random(n) * 5 if seed % 2 else None
    zd = [0.0, 1.0, np.nan][seed % 3]
    kw = dict(sample_weight=w, zero_division=zd, digits=15)
    assert ek.classification_report(y_true, y_pred, **kw) == skm.classification_report(y_true, y_pred, **kw)
    assert_same_dict(ek.classification_report(y_true, y_pred, output_dict=True, **kw),
                     skm.classification_report(y_true, y_pred, output_dict=True, **kw))


@pytest.mark.parametrize("y_true, y_pred", [
    ([True, False, True, True], [1, 0, 0, 1]),
    ([True, False, True, True], [1.0, 0.0, 0.0, 1.0]),
    ([True, False, True, True], [True, False, False, True]),
    ([0, 1, 2, 2], [0.0, 1.0, 2.0, 1.0]),
    ([0, 1, 1, 0], [0.0, 2.0, 1.0, 0.0]),      # 2.0 only predicted: every name becomes float
    ([0.0, 1.0, 2.0, 1.0], [0, 1, 2, 2]),
    (np.array([0, 1, 2, 2], dtype=np.int8), np.array([0, 1, 2, 1], dtype=np.uint16)),
    ([False, False, True, True], [0, 2, 1, 1]),  # bool and int together: int names
])
def test_row_names_follow_the_label_types_as_sklearn(y_true, y_pred):
    import sklearn.metrics as skm

    ours = ek.classification_report(y_true, y_pred, zero_division=0.0, output_dict=True)
    theirs = skm.classification_report(y_true, y_pred, zero_division=0.0, output_dict=True)
    assert list(ours) == list(theirs)
    assert ek.classification_report(y_true, y_pred, zero_division=0.0) == skm.classification_report(
        y_true, y_pred, zero_division=0.0)


WEIGHTED_ZERO_SUPPORT = [
    # a label asked for that never occurs; integer, integral-float and fractional weights
    ([0, 1, 1, 0], [0, 1, 0, 0], [2, 1, 1, 3], [0, 1, 2]),
    ([0, 1, 1, 0], [0, 1, 0, 0], [2.0, 1.0, 1.0, 3.0], [0, 1, 2]),
    (["a", "b", "b"], ["a", "b", "a"], [0.5, 1.25, 2.0], ["a", "b", "z"]),
    # a class only predicted, and a class whose one true sample weighs 0
    ([0, 0, 1], [0, 2, 1], [1, 2, 3], None),
    ([0, 0, 1, 2], [0, 1, 1, 2], [1.5, 2.0, 1.0, 0.0], None),
    # a multilabel column that is never true
    (np.array([[1, 0, 0], [1, 1, 0]]), np.array([[1, 1, 0], [0, 1, 1]]), [1, 2], None),
]


@pytest.mark.parametrize("y_true, y_pred, weights, labels", WEIGHTED_ZERO_SUPPORT)
def test_zero_support_with_weights_is_shown_as_sklearn_shows_it(y_true, y_pred, weights, labels):
    """A label of zero support under sample weights: the same support cell ("0.0") and dict."""
    kw = dict(sample_weight=weights, labels=labels, zero_division=0.0)
    ours = ek.classification_report(y_true, y_pred, **kw)
    theirs = skm.classification_report(y_true, y_pred, **kw)
    assert ours == theirs, f"\n{ours}\n{theirs}"
    assert_same_dict(ek.classification_report(y_true, y_pred, output_dict=True, **kw),
                     skm.classification_report(y_true, y_pred, output_dict=True, **kw))
