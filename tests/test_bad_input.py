"""Bad input gets a ValueError or TypeError that names the argument and the problem."""

import numpy as np
import pytest

import evalkit as ek
from evalkit.course.definitions import roc_auc_rank

LABEL_METRICS = [
    ek.accuracy_score,
    ek.confusion_matrix,
    ek.precision_recall_fscore_support,
    ek.precision_score,
    ek.recall_score,
    ek.f1_score,
    lambda t, p, **kw: ek.fbeta_score(t, p, beta=2.0, **kw),
    ek.macro_f1,
    ek.binary_counts,
]


@pytest.mark.parametrize("metric", LABEL_METRICS)
@pytest.mark.parametrize(
    "y_true, y_pred, error, words",
    [
        ([0, 1, 1], [0, 1], ValueError, r"y_true and y_pred have different lengths \(3 and 2\)"),
        ([], [], ValueError, "y_true is empty"),
        ([0.0, np.nan], [0, 1], ValueError, "y_true contains NaN"),
        ([0, 1], [1.0, np.nan], ValueError, "y_pred contains NaN"),
        # a 2-D target is a multilabel indicator matrix: both or neither
        ([[0, 1], [1, 0]], [0, 1], ValueError, "^y_(true|pred) must be (1-D|a 0/1 indicator matrix)"),
        ([0, 1], [[0], [1]], ValueError, "^y_(true|pred) must be"),
        ([0, 1], [0.2, 0.9], ValueError, "y_pred contains non-integer numbers"),
        (["a", 1], ["a", "a"], TypeError, "y_true mixes strings and numbers"),
        (["a", "b"], [0, 1], TypeError, "y_true and y_pred hold different kinds of labels"),
        (1, [1], TypeError, "y_true must be an array-like"),
        ([0, 1], None, TypeError, "y_pred is required"),
        ([0, 1], [0, np.inf], ValueError, "y_pred contains infinite values"),
    ],
)
def test_bad_labels(metric, y_true, y_pred, error, words):
    with pytest.raises(error, match=words):
        metric(y_true, y_pred)


@pytest.mark.parametrize("metric", LABEL_METRICS)
@pytest.mark.parametrize(
    "weights, words",
    [
        ([1, 2], "sample_weight has 2 values but there are 3 samples"),
        ([1, -1, 1], "sample_weight contains negative values"),
        ([1, np.nan, 1], "sample_weight contains NaN"),
        ([0, 0, 0], "sample_weight is all zeros"),
        ([[1, 1, 1]], "sample_weight must be 1-D"),
    ],
)
def test_bad_sample_weight(metric, weights, words):
    with pytest.raises(ValueError, match=words):
        metric([0, 1, 1], [0, 1, 0], sample_weight=weights)


@pytest.mark.parametrize("average", ["mean", "", 1])
def test_unknown_average(average):
    with pytest.raises(ValueError, match="average must be one of None, 'binary', 'micro', 'macro', 'weighted'"):
        ek.precision_score([0, 1], [1, 1], average=average)


def test_binary_average_on_multiclass_target():
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        ek.f1_score([0, 1, 2], [0, 1, 1])


@pytest.mark.parametrize("beta", [-1, -0.5, float("nan")])
def test_negative_beta(beta):
    with pytest.raises(ValueError, match="beta must be >= 0"):
        ek.fbeta_score([0, 1], [1, 1], beta=beta)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        ek.BinaryCounts(1, 1, 1, 1).f_beta(beta)


def test_beta_of_wrong_type():
    with pytest.raises(TypeError, match="beta must be a real number"):
        ek.fbeta_score([0, 1], [1, 1], beta="2")


@pytest.mark.parametrize("metric", [ek.precision_score, ek.recall_score, ek.f1_score, ek.binary_counts])
def test_pos_label_not_among_labels(metric):
    with pytest.raises(ValueError, match=r"pos_label=2 is not a valid label: it should be one of \[0, 1\]"):
        metric([0, 1, 1], [0, 1, 0], pos_label=2)
    with pytest.raises(ValueError, match=r"pos_label=1 is not a valid label: it should be one of \['no', 'yes'\]"):
        metric(["no", "yes"], ["yes", "yes"])


def test_empty_labels():
    for metric in (ek.confusion_matrix, ek.precision_recall_fscore_support, ek.f1_score):
        with pytest.raises(ValueError, match="labels is empty"):
            metric([0, 1], [1, 1], labels=[], **({"average": "macro"} if metric is ek.f1_score else {}))


def test_labels_of_the_wrong_kind_or_duplicated():
    with pytest.raises(TypeError, match=r"^labels and the labels in the data hold different kinds of labels \(strings and numbers\)"):
        ek.precision_recall_fscore_support([0, 1], [1, 1], labels=["a"])
    with pytest.raises(ValueError, match="labels contains duplicates such as 1"):
        ek.confusion_matrix([0, 1], [1, 1], labels=[1, 0, 1])


def test_confusion_matrix_labels_absent_from_y_true():
    with pytest.raises(ValueError, match="at least one label given must occur in y_true"):
        ek.confusion_matrix([0, 1], [1, 1], labels=[5])


def test_confusion_matrix_bad_normalize():
    with pytest.raises(ValueError, match="normalize must be one of"):
        ek.confusion_matrix([0, 1], [1, 1], normalize="rows")


@pytest.mark.parametrize("zd", ["spark", 0.5, "ignore", True, None])
def test_bad_zero_division(zd):
    with pytest.raises(ValueError, match="zero_division must be"):
        ek.precision_score([0, 1], [1, 1], zero_division=zd)


@pytest.mark.parametrize("zd", [0.5, "ignore"])
def test_bad_zero_division_on_counts(zd):
    with pytest.raises(ValueError, match="zero_division must be 'warn', 0.0, 1.0, nan or 'spark'"):
        ek.BinaryCounts(0, 0, 1, 1).precision(zero_division=zd)


@pytest.mark.parametrize(
    "counts, error, words",
    [
        ((-1, 0, 0, 0), ValueError, r"^tp must be >= 0 \(it is a count\); got -1"),
        ((0, -0.5, 0, 0), ValueError, "^fp must be >= 0"),
        ((0, 0, float("nan"), 0), ValueError, "^fn must be >= 0"),
        ((0, 0, float("inf"), 0), ValueError, "^fn must be finite"),
        ((0, 0, 0, "3"), TypeError, "^tn must be a real number"),
        ((0, 0, 0, True), TypeError, "^tn must be a real number"),
        ((0, 0, 0, 1 + 0j), TypeError, "^tn must be a real number"),
    ],
)
def test_bad_binary_counts(counts, error, words):
    with pytest.raises(error, match=words):
        ek.BinaryCounts(*counts)


def test_bad_layout_and_definition():
    with pytest.raises(ValueError, match="layout must be one of"):
        ek.BinaryCounts(1, 2, 3, 4).table(layout="rows")
    with pytest.raises(ValueError, match="^definition must be 'mean_of_f1' .* or 'f1_of_means'"):
        ek.macro_f1([0, 1], [1, 1], definition="mean")


def test_undefined_is_never_a_bare_numpy_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(ek.UndefinedMetricWarning):
            ek.precision_recall_fscore_support([0, 0], [0, 0], labels=[0, 1])
        with pytest.warns(ek.UndefinedMetricWarning, match="F-score is ill-defined"):
            ek.BinaryCounts(0, 0, 0, 5).f1()


# -- refused as scikit-learn refuses them (the outside review's cases) ---------------


@pytest.mark.parametrize("metric", [ek.roc_auc_score, ek.roc_curve, ek.average_precision_score,
                                    roc_auc_rank, ek.precision_recall_curve])
@pytest.mark.parametrize("scores, words", [
    (np.array([0.1 + 1j, 0.9, 0.4]), "^y_score must hold real numbers, got complex numbers"),
    (["0.1", "0.9", "0.4"], "^y_score must hold numbers, got strings such as '0.1'"),
    (np.array(["0.1", "0.9", "0.4"]), "^y_score must hold numbers, got strings"),
    (np.array([0.1, "0.9", 0.4], dtype=object), "^y_score must hold numbers, got strings"),
])
def test_complex_and_numeric_string_scores_are_refused(metric, scores, words):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # never a bare numpy ComplexWarning
        with pytest.raises(TypeError, match=words):
            metric([0, 1, 0], scores)


def test_complex_and_string_weights_are_refused():
    with pytest.raises(TypeError, match="^sample_weight must hold real numbers"):
        ek.accuracy_score([0, 1], [0, 1], sample_weight=np.array([1 + 0j, 1]))
    with pytest.raises(TypeError, match="^sample_weight must hold numbers"):
        ek.accuracy_score([0, 1], [0, 1], sample_weight=["1", "1"])


def test_flags_are_validated():
    y, p = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    with pytest.raises(TypeError, match="^normalize must be True or False, got 'no'"):
        ek.accuracy_score(y, p, normalize="no")
    with pytest.raises(TypeError, match="^output_dict must be True or False, got 'no'"):
        ek.classification_report(y, p, output_dict="no")
    with pytest.raises(TypeError, match="^warn_for must be a tuple, list or set"):
        ek.precision_recall_fscore_support(y, p, warn_for="precision")
    with pytest.raises(ValueError, match="^warn_for must be a tuple, list or set"):
        ek.precision_recall_fscore_support(y, p, warn_for=("accuracy",))
    with pytest.raises(TypeError, match="^pos_label must be one label"):
        ek.precision_recall_fscore_support(y, p, pos_label=[1], average="macro")
    with pytest.raises(TypeError, match="^digits must be an integer"):
        ek.classification_report(y, p, digits=2.0)


def test_score_matrices_refuse_complex_and_strings():
    with pytest.raises(TypeError, match="^y_score must hold real numbers"):
        ek.top_k_accuracy_score([0, 1, 2], np.eye(3) + 0j)
    with pytest.raises(TypeError, match="^y_score must hold numbers"):
        ek.top_k_labels([["0.1", "0.9"]], k=1)


# -- the outside review's cases, each pinned ---------------------------------------


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 2.0, np.inf])
@pytest.mark.parametrize("y_true, y_pred", [
    ([1, 1, 0], [0, 0, 0]),      # nothing predicted positive
    ([0, 0, 0], [1, 0, 0]),      # no positives
    ([0, 0, 0], [0, 0, 0]),      # neither
    ([1, 0, 1], [1, 1, 0]),
])
def test_binary_counts_f_beta_warns_exactly_when_fbeta_score_does(beta, y_true, y_pred):
    import warnings

    import sklearn.metrics as skm

    def run(f):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = f()
        return value, [str(w.message) for w in caught]

    sk_value, sk_warnings = run(lambda: skm.fbeta_score(y_true, y_pred, beta=beta))
    ek_value, ek_warnings = run(lambda: ek.binary_counts(y_true, y_pred).f_beta(beta))
    fb_value, fb_warnings = run(lambda: ek.fbeta_score(y_true, y_pred, beta=beta))
    assert ek_value == sk_value == fb_value
    assert ek_warnings == sk_warnings == fb_warnings


@pytest.mark.parametrize("value, java", [
    (5e-324, "4.9E-324"),             # Double.MIN_VALUE: two digits, the closest to its exact value
    (-5e-324, "-4.9E-324"),
    (1.5e-323, "1.5E-323"),
    (4.35e-321, "4.35E-321"),
    (1e-320, "1.0E-320"),
    (1e-5, "1.0E-5"),
    (0.002, "0.002"),
    (0.3, "0.3"),
    (1e7, "1.0E7"),
    (123456789.0, "1.23456789E8"),
])
def test_spark_format_prints_as_java(value, java):
    # the outputs of Java 17's Double.toString for these values
    assert ek.spark_format(value) == java


def test_auc_of_large_finite_values_is_finite_as_sklearn():
    import warnings

    import sklearn.metrics as skm

    x, y = [0.0, 1.0, 2.0], [0.5e308, 0.5e308, 0.5e308]  # each trapezoid fits; their doubles do not
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no bare numpy overflow warning either
        assert ek.auc(x, y) == skm.auc(x, y) == 1e308


# -- declared options (evalkit._validation.validate_params) ---------------------------------


def _declared_functions():
    """Every function of evalkit that declares its options, with its module's name."""
    import importlib
    import inspect
    import pkgutil

    import evalkit

    found = []
    for info in pkgutil.walk_packages(evalkit.__path__, "evalkit."):
        if ".course" in info.name:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency (pyspark, ipywidgets) is missing
            continue
        for obj in vars(module).values():
            members = vars(obj).values() if inspect.isclass(obj) else [obj]
            found += [(info.name, f) for f in members
                      if callable(f) and getattr(f, "param_specs", None)]
    return found


def test_every_declared_default_passes_its_own_declaration():
    import inspect

    from evalkit._validation import compile_spec

    declared = _declared_functions()
    assert declared, "no function declares its options: the test would check nothing"
    for module, f in declared:
        params = inspect.signature(inspect.unwrap(f)).parameters
        for name, spec in f.param_specs.items():
            default = params[name].default
            if default is not inspect.Parameter.empty:
                compile_spec(spec)(default, f"{module}.{f.__qualname__}({name}=)")


def test_validate_params_checks_positional_and_keyword_arguments_before_the_body():
    from evalkit._validation import AVERAGE, Bool, Integer, Options, Real, validate_params

    calls = []

    @validate_params(k=Integer(1), average=AVERAGE, flag=Bool(),
                     n_bins=[Options({"auto": "one bin per score"}), Integer(1)],
                     threshold=[None, Real(0, 1)])
    def f(y, k=1, *, average="macro", flag=True, n_bins="auto", threshold=None):
        calls.append(k)
        return k

    assert f([1], 3) == 3 and f([1], k=2, n_bins=4, threshold=None) == 2
    assert f([1], np.int64(2), flag=np.bool_(True), average=None, threshold=1) == 2
    for args, kwargs, error, words in [
        ((0,), {}, ValueError, r"^k must be >= 1; got 0"),
        ((), dict(k=True), TypeError, "^k must be an integer, got True"),
        ((), dict(k=2.0), TypeError, "^k must be an integer, got 2.0"),
        ((), dict(average="mean"), ValueError, "^average must be one of None, 'binary'"),
        ((), dict(average=["macro"]), ValueError, "^average must be one of"),
        ((), dict(flag=1), TypeError, "^flag must be True or False, got 1"),
        ((), dict(n_bins=0), ValueError,
         r"^n_bins must be 'auto' \(one bin per score\) or an integer >= 1; got 0"),
        ((), dict(n_bins=[3]), TypeError, "^n_bins must be 'auto'"),
        ((), dict(threshold=np.nan), ValueError, r"^threshold must be in \[0, 1\]; got nan"),
        ((), dict(threshold=np.inf), ValueError, "^threshold must be finite"),
        ((), dict(threshold="0.5"), TypeError, "^threshold must be a real number or None"),
    ]:
        with pytest.raises(error, match=words):
            f([1], *args, **kwargs)
    assert calls == [3, 2, 2]  # no call reached the body


def test_options_match_only_values_of_their_own_kind():
    from evalkit._validation import ZERO_DIVISION, check

    for good in ("warn", 0, 0.0, 1, np.float32(1.0), np.nan):
        check(good, ZERO_DIVISION, "zero_division")
    for bad in (True, False, "0.0", 0.5, None, np.array([0.0])):
        with pytest.raises(ValueError, match="^zero_division must be 'warn', 0.0, 1.0 or nan"):
            check(bad, ZERO_DIVISION, "zero_division")


def test_validate_params_refuses_a_parameter_the_function_lacks():
    from evalkit._validation import Integer, validate_params

    with pytest.raises(TypeError, match="has no parameter 'kk'"):
        validate_params(kk=Integer(1))(lambda y, k=1: k)


# -- a 1-D y_true beside a matrix y_pred; scipy.sparse indicator matrices ---------------------

COLUMN_METRICS = LABEL_METRICS[:-2] + [ek.classification_report, ek.multilabel_confusion_matrix]


@pytest.mark.parametrize("metric", COLUMN_METRICS)
def test_a_column_y_pred_beside_1d_y_true_blames_y_pred(metric):
    with pytest.raises(ValueError, match=r"^y_pred must be 1-D.*got an array of shape \(4, 1\)") as err:
        metric([0, 1, 1, 0], np.array([[0], [1], [0], [0]]))
    assert "y_true must" not in str(err.value)
    if metric is not ek.confusion_matrix:   # confusion_matrix takes only label vectors
        with pytest.raises(ValueError, match=r"^y_pred must be 1-D like y_true.*\(4, 2\): a mix"):
            metric([0, 1, 1, 0], np.eye(2, dtype=int)[[0, 1, 1, 0]])


SPARSE_METRICS = {
    "accuracy_score": {}, "hamming_loss": {}, "multilabel_confusion_matrix": {},
    "precision_recall_fscore_support": {"average": None}, "precision_score": {"average": "micro"},
    "recall_score": {"average": "macro"}, "f1_score": {"average": "samples"},
    "fbeta_score": {"beta": 0.5, "average": "weighted"},
    "classification_report": {"output_dict": True, "zero_division": 0.0},
}


@pytest.mark.parametrize("name", SPARSE_METRICS)
def test_sparse_indicator_matrices_are_accepted_as_sklearn(name):
    sp = pytest.importorskip("scipy.sparse")
    skm = pytest.importorskip("sklearn.metrics")
    if not hasattr(ek, name):
        pytest.skip(f"evalkit has no {name}")
    rng = np.random.default_rng(len(name))
    for kind in (sp.csr_matrix, sp.csc_matrix, sp.coo_array):
        y_true = rng.integers(0, 2, (30, 4))
        y_pred = rng.integers(0, 2, (30, 4))
        kw = SPARSE_METRICS[name]
        ours = getattr(ek, name)(kind(y_true), kind(y_pred), **kw)
        theirs = getattr(skm, name)(kind(y_true), kind(y_pred), **kw)
        assert repr(ours) == repr(getattr(ek, name)(y_true, y_pred, **kw))   # = the dense input
        if isinstance(theirs, dict):
            for label, row in theirs.items():
                for key, value in (row.items() if isinstance(row, dict) else [("", row)]):
                    ours_value = ours[label][key] if key else ours[label]
                    assert ours_value == pytest.approx(value, rel=1e-12), (label, key)
        else:
            np.testing.assert_allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float),
                                       rtol=1e-12)


def test_sparse_matrices_elsewhere_are_refused_with_a_hint():
    sp = pytest.importorskip("scipy.sparse")
    scores = sp.csr_matrix(np.array([[0.1, 0.9, 0.4]]))
    with pytest.raises(TypeError, match=r"^y_score: sparse matrices are not supported here, use `\.toarray\(\)`"):
        ek.roc_auc_score([0, 1, 1], scores)
    with pytest.raises(TypeError, match=r"^y_true: sparse matrices are not supported here"):
        ek.roc_auc_score(sp.csr_matrix(np.array([[0, 1], [1, 0]])), np.eye(2))
