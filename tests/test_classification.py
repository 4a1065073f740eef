"""evalkit's label metrics against scikit-learn, the oracle, on randomized inputs."""

import itertools

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import evalkit as ek
from _oracle import recorder

AVERAGES = [None, "binary", "micro", "macro", "weighted"]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]


# ("ok", result, the ill-defined warnings' messages) or ("error", type, None)
call = recorder(lambda caught: sorted(str(w.message) for w in caught
                                      if "ill-defined" in str(w.message)))


def assert_same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif a is None or b is None:
        assert a is None and b is None
    else:
        np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float),
                                   rtol=1e-12, atol=0, equal_nan=True)
        assert np.shape(a) == np.shape(b)


def random_case(rng):
    """A random classification problem: labels of some kind, maybe weights."""
    n = int(rng.integers(1, 40))
    n_classes = int(rng.integers(1, 6))
    kind = rng.choice(["int", "str", "bool", "float", "neg"])
    y_true = rng.integers(0, n_classes, n)
    # predictions agree with truth about half of the time
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, n_classes, n))
    if kind == "str":
        names = np.array(["cat", "dog", "pig", "ant", "owl", "yak"])
        y_true, y_pred = names[y_true], names[y_pred]
    elif kind == "bool":
        y_true, y_pred = y_true % 2 == 1, y_pred % 2 == 1
    elif kind == "float":
        y_true, y_pred = y_true.astype(float), y_pred.astype(float)
    elif kind == "neg":
        y_true, y_pred = y_true - 2, y_pred - 2
    weights = None
    if rng.random() < 0.4:
        weights = rng.random(n) * 3
        if rng.random() < 0.3:
            weights = rng.integers(0, 4, n)
    return y_true, y_pred, weights


def labels_variants(rng, y_true, y_pred):
    present = np.union1d(y_true, y_pred)
    out = [None]
    if len(present) > 1:
        sub = rng.permutation(present)[: rng.integers(1, len(present))]
        out.append(list(sub))
    if y_true.dtype.kind in "iu":
        out.append(list(present) + [int(present.max()) + 7])  # a class that never occurs
    return out


def pos_label_for(rng, y_true, y_pred):
    present = np.union1d(y_true, y_pred)
    return present[rng.integers(len(present))].item()


@pytest.mark.parametrize("seed", range(60))
def test_prfs_family_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred, w = random_case(rng)
    for labels, average, zd in itertools.product(
        labels_variants(rng, y_true, y_pred), AVERAGES, ZERO_DIVISIONS
    ):
        pos = pos_label_for(rng, y_true, y_pred) if rng.random() < 0.7 else 1
        kw = dict(labels=labels, pos_label=pos, average=average, sample_weight=w, zero_division=zd)
        for ek_fn, sk_fn, extra in [
            (ek.precision_recall_fscore_support, skm.precision_recall_fscore_support, {"beta": 0.5}),
            (ek.precision_score, skm.precision_score, {}),
            (ek.recall_score, skm.recall_score, {}),
            (ek.f1_score, skm.f1_score, {}),
            (ek.fbeta_score, skm.fbeta_score, {"beta": 2.0}),
        ]:
            ours = call(ek_fn, y_true, y_pred, **kw, **extra)
            theirs = call(sk_fn, y_true, y_pred, **kw, **extra)
            assert ours[0] == theirs[0], (ek_fn.__name__, kw, ours, theirs)
            if ours[0] == "ok":
                assert_same(ours[1], theirs[1])
                assert ours[2] == theirs[2], (ek_fn.__name__, kw)


@pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")
@pytest.mark.parametrize("seed", range(40))
def test_confusion_matrix_and_accuracy_match_sklearn(seed):
    rng = np.random.default_rng(1000 + seed)
    y_true, y_pred, w = random_case(rng)
    for labels in labels_variants(rng, y_true, y_pred):
        if labels is not None and not np.isin(labels, y_true).any():
            continue  # both refuse; covered in test_bad_input
        for normalize in [None, "true", "pred", "all"]:
            ours = ek.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize)
            theirs = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize)
            np.testing.assert_allclose(ours, theirs, rtol=1e-12)
            assert ours.dtype == theirs.dtype
    for normalize in [True, False]:
        assert_same(ek.accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=w),
                    skm.accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=w))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5)), min_size=1, max_size=30),
    st.sampled_from(AVERAGES),
    st.sampled_from(ZERO_DIVISIONS),
    st.floats(0.1, 5.0),
)
def test_fbeta_property_matches_sklearn(rows, average, zd, beta):
    y_true = np.array([r[0] for r in rows])
    y_pred = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    ours = call(ek.precision_recall_fscore_support, y_true, y_pred, beta=beta,
                average=average, sample_weight=w, zero_division=zd)
    theirs = call(skm.precision_recall_fscore_support, y_true, y_pred, beta=beta,
                  average=average, sample_weight=w, zero_division=zd)
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert_same(ours[1], theirs[1])


def test_beta_zero_and_infinity_are_precision_and_recall():
    y_true, y_pred = [0, 1, 1, 0, 1], [1, 1, 0, 0, 1]
    assert ek.fbeta_score(y_true, y_pred, beta=0) == ek.precision_score(y_true, y_pred)
    assert ek.fbeta_score(y_true, y_pred, beta=np.inf) == ek.recall_score(y_true, y_pred)


# -- the seeds' hand numbers --------------------------------------------------

def test_seed000_accuracy_paradox():
    # 90 men, 10 women; predict everyone is a man
    y = np.array(["man"] * 90 + ["woman"] * 10)
    assert ek.accuracy_score(y, np.full(100, "man")) == 0.9
    assert ek.recall_score(y, np.full(100, "man"), pos_label="woman") == 0.0
    # the seed's adjusted table: TP=1, FP=0, FN=10, TN=89
    c = ek.BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    assert c.accuracy() == 0.9
    assert c.precision() == 1.0
    assert c.recall() == pytest.approx(0.09090909, abs=1e-8)
    assert c.f1() == pytest.approx(0.1666666, abs=1e-6)
    # P = 0.9, R = 0.19 beats it: e.g. 171 of 900 positives found with 19 false alarms
    better = ek.BinaryCounts(tp=171, fp=19, fn=729, tn=8081)
    assert better.precision() == pytest.approx(0.9, rel=1e-12)
    assert better.recall() == pytest.approx(0.19, rel=1e-12)
    # the seed truncates: 0.31376... printed as 0.3137
    assert np.floor(better.f1() * 1e4) / 1e4 == 0.3137
    assert better.f1() > c.f1()


def test_seed004_two_macro_f1_definitions():
    y, yhat = [0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2]
    assert round(ek.macro_f1(y, yhat), 4) == 0.6556
    assert round(ek.macro_f1(y, yhat, definition="f1_of_means"), 4) == 0.6933
    assert ek.macro_f1(y, yhat) == skm.f1_score(y, yhat, average="macro")


@pytest.mark.parametrize("seed", range(30))
def test_macro_f1_definitions_against_direct_formulas(seed):
    rng = np.random.default_rng(2000 + seed)
    y_true = rng.integers(0, 4, 50)
    y_pred = np.where(rng.random(50) < 0.6, y_true, rng.integers(0, 4, 50))
    p, r, f, _ = skm.precision_recall_fscore_support(y_true, y_pred, zero_division=0.0)
    assert ek.macro_f1(y_true, y_pred, zero_division=0.0) == pytest.approx(f.mean(), rel=1e-12)
    pm, rm = p.mean(), r.mean()
    expected = 0.0 if pm + rm == 0 else 2 * pm * rm / (pm + rm)
    assert ek.macro_f1(y_true, y_pred, definition="f1_of_means", zero_division=0.0) == pytest.approx(expected, rel=1e-12)


def test_seed002_three_class_example():
    y_true, y_pred = [0, 1, 2, 2, 0], [1, 0, 2, 1, 1]
    for average in ["macro", "weighted"]:
        p, r, f, _ = ek.precision_recall_fscore_support(y_true, y_pred, average=average, zero_division=0.0)
        expected = {"macro": (0.33, 0.17, 0.22), "weighted": (0.40, 0.20, 0.27)}[average]
        assert (round(p, 2), round(r, 2), round(f, 2)) == expected
    assert ek.accuracy_score(y_true, y_pred) == 0.2


def test_micro_average_equals_accuracy_for_single_label():
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 5, 200)
    y_pred = np.where(rng.random(200) < 0.4, y_true, rng.integers(0, 5, 200))
    acc = ek.accuracy_score(y_true, y_pred)
    p, r, f, _ = ek.precision_recall_fscore_support(y_true, y_pred, average="micro")
    assert p == pytest.approx(acc, rel=1e-12)
    assert r == pytest.approx(acc, rel=1e-12)
    assert f == pytest.approx(acc, rel=1e-12)


def test_undefined_precision_warns_like_sklearn():
    with pytest.warns(ek.UndefinedMetricWarning, match="Precision is ill-defined"):
        assert ek.precision_score([1, 0, 1], [0, 0, 0]) == 0.0
    assert ek.precision_score([1, 0, 1], [0, 0, 0], zero_division=1.0) == 1.0
    assert np.isnan(ek.precision_score([1, 0, 1], [0, 0, 0], zero_division=np.nan))


# -- BinaryCounts -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_binary_counts_against_sklearn(seed):
    rng = np.random.default_rng(3000 + seed)
    n = int(rng.integers(1, 60))
    y_true = rng.integers(0, 2, n)
    y_pred = rng.integers(0, 2, n)
    w = rng.random(n) if seed % 2 else None
    c = ek.binary_counts(y_true, y_pred, sample_weight=w)
    tn, fp, fn, tp = skm.confusion_matrix(y_true, y_pred, labels=[0, 1], sample_weight=w).ravel()
    np.testing.assert_allclose([c.tp, c.fp, c.fn, c.tn], [tp, fp, fn, tn], rtol=1e-12)
    kw = dict(sample_weight=w, zero_division=0.0)
    assert c.precision(0.0) == pytest.approx(skm.precision_score(y_true, y_pred, **kw), rel=1e-12)
    assert c.recall(0.0) == pytest.approx(skm.recall_score(y_true, y_pred, **kw), rel=1e-12)
    assert c.f_beta(0.5, 0.0) == pytest.approx(skm.fbeta_score(y_true, y_pred, beta=0.5, **kw), rel=1e-12)
    assert c.f1(0.0) == pytest.approx(skm.f1_score(y_true, y_pred, **kw), rel=1e-12)
    assert c.accuracy() == pytest.approx(skm.accuracy_score(y_true, y_pred, sample_weight=w), rel=1e-12)
    if c.negatives:
        assert c.fpr() + c.tnr() == pytest.approx(1.0)
    assert c.tpr(0.0) == c.recall(0.0)


def test_binary_counts_spark_convention():
    nothing_predicted = ek.BinaryCounts(tp=0, fp=0, fn=11, tn=89)
    assert nothing_predicted.precision(zero_division="spark") == 1.0
    assert nothing_predicted.recall(zero_division="spark") == 0.0
    assert nothing_predicted.f1(zero_division="spark") == 0.0
    # Spark computes F from P and R: the seed prints 0.16666666666666669
    assert ek.BinaryCounts(1, 0, 10, 89).f1(zero_division="spark") == 0.16666666666666669
    assert ek.BinaryCounts(6, 0, 5, 89).f1(zero_division="spark") == 0.7058823529411764
    assert ek.BinaryCounts(11, 89, 0, 0).f1(zero_division="spark") == 0.19819819819819817
    assert ek.BinaryCounts(11, 89, 0, 0).precision(zero_division="spark") == 0.11


def test_binary_counts_tables_in_both_layouts():
    c = ek.BinaryCounts(tp=1, fp=0, fn=10, tn=89)
    np.testing.assert_array_equal(c.matrix(), [[1, 10], [0, 89]])
    np.testing.assert_array_equal(c.matrix("predicted-by-actual"), [[1, 0], [10, 89]])
    assert "predicted positive" in c.table("predicted-by-actual").splitlines()[1]
    assert "actual positive" in c.table().splitlines()[1]
    frame = c.to_frame("predicted-by-actual")
    assert frame.loc["predicted negative", "actual positive"] == 10


def test_binary_counts_is_immutable_value():
    c = ek.BinaryCounts(1, 2, 3, 4)
    with pytest.raises(AttributeError):
        c.tp = 5
    assert c == ek.BinaryCounts(1, 2, 3, 4)
    assert c.total == 10 and c.positives == 4 and c.negatives == 6 and c.predicted_positives == 3


def test_binary_counts_with_string_labels_and_multiclass_rest():
    c = ek.binary_counts(["a", "b", "c", "a"], ["a", "c", "a", "b"], pos_label="a")
    assert (c.tp, c.fp, c.fn, c.tn) == (1, 1, 1, 1)


def test_confusion_matrix_sums_integer_weights_exactly():
    # scikit-learn sums integer weights in int64; float64 would round 2**53 + 1 to 2**53
    ours = ek.confusion_matrix([0], [0], labels=[0, 1], sample_weight=[2**53 + 1])
    theirs = skm.confusion_matrix([0], [0], labels=[0, 1], sample_weight=[2**53 + 1])
    assert ours[0, 0] == theirs[0, 0] == 9007199254740993
    assert ours.dtype == np.int64
    rng = np.random.default_rng(4)
    y, yhat = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    w = rng.integers(2**50, 2**52, 200)
    np.testing.assert_array_equal(ek.confusion_matrix(y, yhat, sample_weight=w),
                                  skm.confusion_matrix(y, yhat, sample_weight=w))
    wf = rng.random(200)
    cm = ek.confusion_matrix(y, yhat, sample_weight=wf)
    assert cm.dtype == np.float64
    np.testing.assert_allclose(cm, skm.confusion_matrix(y, yhat, sample_weight=wf), rtol=1e-13)


@pytest.mark.parametrize("seed", range(20))
def test_prf_is_batched_over_leading_axes(seed):
    # a (B, C) call gives, row by row, what B separate calls give (the bootstrap's use)
    from evalkit._ratios import prf

    rng = np.random.default_rng(seed)
    b, c = 7, int(rng.integers(1, 6))
    tp = rng.integers(0, 4, (b, c))
    predicted = tp + rng.integers(0, 3, (b, c))
    actual = tp + rng.integers(0, 3, (b, c))
    for average in [None, "micro", "macro", "weighted"]:
        for zd in [0.0, 1.0, np.nan, "spark"]:
            batch = prf(tp, predicted, actual, average=average, zero_division=zd, beta=2.0)
            for i in range(b):
                one = prf(tp[i], predicted[i], actual[i], average=average, zero_division=zd,
                          beta=2.0)
                for x, y in zip(batch[:3], one[:3]):
                    np.testing.assert_allclose(np.asarray(x)[i], y, rtol=1e-15, equal_nan=True)


# -- balanced accuracy, MCC, kappa, Jaccard, Hamming, zero-one, likelihood ratios -----------

# the kinds of warning: the new metrics must warn as scikit-learn does -- except for the
# confusion matrix's "A single label was found ... use the 'labels' parameter", which
# scikit-learn's balanced_accuracy_score and matthews_corrcoef pass on from the
# confusion_matrix they call although they take no labels (evalkit does not repeat it)
call_all = recorder(lambda caught: sorted({w.category.__name__ for w in caught
                                           if w.category is not RuntimeWarning
                                           and not str(w.message).startswith("A single label")}))


def _same_outcome(ours, theirs, context):
    assert ours[0] == theirs[0], (context, ours, theirs)
    if ours[0] == "ok":
        # a loss of 0 may be 1e-16 in either library (summed in another order): an atol
        np.testing.assert_allclose(np.asarray(ours[1], dtype=float),
                                   np.asarray(theirs[1], dtype=float), rtol=1e-12, atol=1e-12,
                                   equal_nan=True, err_msg=str(context))
        assert np.shape(ours[1]) == np.shape(theirs[1])
        return True
    return False


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(60))
def test_count_metrics_match_sklearn(seed):
    rng = np.random.default_rng(3000 + seed)
    y_true, y_pred, w = random_case(rng)
    cases = [
        (ek.balanced_accuracy_score, skm.balanced_accuracy_score, [{}, {"adjusted": True}]),
        (ek.matthews_corrcoef, skm.matthews_corrcoef, [{}]),
        (ek.cohen_kappa_score, skm.cohen_kappa_score,
         [{"weights": k, "labels": labels} for k in (None, "linear", "quadratic")
          for labels in labels_variants(rng, y_true, y_pred)] + [{"replace_undefined_by": 0.5}]),
        (ek.hamming_loss, skm.hamming_loss, [{}]),
        (ek.zero_one_loss, skm.zero_one_loss, [{}, {"normalize": False}]),
        (ek.class_likelihood_ratios, skm.class_likelihood_ratios,
         [{}, {"replace_undefined_by": 1.0}, {"replace_undefined_by": {"LR+": 2.0, "LR-": np.nan}}]),
    ]
    for ours, theirs, variants in cases:
        for kw in variants:
            if "labels" in kw and kw["labels"] is not None and not np.isin(kw["labels"], y_true).any():
                continue  # both refuse (covered by test_bad_input's labels cases)
            if ours is ek.class_likelihood_ratios and len(np.union1d(y_true, y_pred)) < 2:
                continue  # scikit-learn fails unpacking a 1 x 1 matrix; evalkit names the problem
            got = call_all(ours, y_true, y_pred, sample_weight=w, **kw)
            want = call_all(theirs, y_true, y_pred, sample_weight=w, **kw)
            if _same_outcome(got, want, (ours, kw)):
                assert got[2] == want[2], (ours, kw)   # the same kinds of warning
    for labels, average, zd in itertools.product(labels_variants(rng, y_true, y_pred), AVERAGES,
                                                 ["warn", 0.0, 1.0]):
        pos = pos_label_for(rng, y_true, y_pred) if rng.random() < 0.7 else 1
        kw = dict(labels=labels, pos_label=pos, average=average, sample_weight=w, zero_division=zd)
        ours, theirs = call(ek.jaccard_score, y_true, y_pred, **kw), call(skm.jaccard_score, y_true,
                                                                          y_pred, **kw)
        if _same_outcome(ours, theirs, kw):
            assert ours[2] == theirs[2], kw


@pytest.mark.parametrize("seed", range(30))
def test_multilabel_count_metrics_match_sklearn(seed):
    rng = np.random.default_rng(4000 + seed)
    n, m = int(rng.integers(1, 30)), int(rng.integers(2, 5))
    y_true = rng.integers(0, 2, (n, m))
    y_pred = np.where(rng.random((n, m)) < 0.6, y_true, 1 - y_true)
    w = None if seed % 3 == 0 else rng.integers(0, 4, n) + (seed % 2) * rng.random(n)
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    assert_same(ek.hamming_loss(y_true, y_pred, sample_weight=w),
                skm.hamming_loss(y_true, y_pred, sample_weight=w))
    for normalize in (True, False):
        assert_same(ek.zero_one_loss(y_true, y_pred, normalize=normalize, sample_weight=w),
                    skm.zero_one_loss(y_true, y_pred, normalize=normalize, sample_weight=w))
    for average, zd in itertools.product([None, "micro", "macro", "weighted", "samples"],
                                         ["warn", 0.0, 1.0]):
        kw = dict(average=average, sample_weight=w, zero_division=zd)
        ours, theirs = call(ek.jaccard_score, y_true, y_pred, **kw), call(skm.jaccard_score, y_true,
                                                                          y_pred, **kw)
        if _same_outcome(ours, theirs, kw):
            assert ours[2] == theirs[2], kw
    for fn in (ek.balanced_accuracy_score, ek.matthews_corrcoef):
        with pytest.raises(ValueError, match="^y_true and y_pred must be label vectors"):
            fn(y_true, y_pred)


def test_count_metrics_on_the_posts_table():
    # the Spark post: 1 woman found, 10 missed, 89 men correctly left out (all predicted "man"
    # but one): accuracy 0.9 hides what balanced accuracy and MCC show
    y = ["w"] * 11 + ["m"] * 89
    pred = ["w"] + ["m"] * 99
    assert ek.accuracy_score(y, pred) == 0.9
    assert ek.balanced_accuracy_score(y, pred) == pytest.approx((1 / 11 + 1) / 2)
    tp, fp, fn, tn = 1, 0, 10, 89
    mcc = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    assert ek.matthews_corrcoef(y, pred) == pytest.approx(mcc)
    lr_neg = (fn / (tp + fn)) / (tn / (fp + tn))
    with pytest.warns(ek.UndefinedMetricWarning, match="positive_likelihood_ratio` is ill-defined"):
        assert ek.class_likelihood_ratios(y, pred, labels=["m", "w"]) == (
            pytest.approx(np.nan, nan_ok=True), pytest.approx(lr_neg))


@pytest.mark.parametrize("fn, kwargs, error, words", [
    (ek.cohen_kappa_score, {"weights": "cubic"}, ValueError, "^weights must be"),
    (ek.cohen_kappa_score, {"replace_undefined_by": 2.0}, ValueError, "^replace_undefined_by"),
    (ek.class_likelihood_ratios, {"replace_undefined_by": {"LR+": 0.5, "LR-": 0.5}}, ValueError,
     "^replace_undefined_by"),
    (ek.class_likelihood_ratios, {"replace_undefined_by": "nan"}, TypeError, "^replace_undefined_by"),
    (ek.jaccard_score, {"zero_division": np.nan}, ValueError, "^zero_division"),
    (ek.balanced_accuracy_score, {"adjusted": 1}, TypeError, "^adjusted"),
])
def test_new_metrics_refuse_bad_options(fn, kwargs, error, words):
    with pytest.raises(error, match=words):
        fn([0, 1, 1, 0], [0, 1, 0, 0], **kwargs)


def test_class_likelihood_ratios_needs_two_classes():
    with pytest.raises(ValueError, match="needs exactly two labels"):
        ek.class_likelihood_ratios([0, 1, 2], [0, 1, 2])
    with pytest.raises(ValueError, match="needs exactly two labels"):
        ek.class_likelihood_ratios([1, 1], [1, 1])
