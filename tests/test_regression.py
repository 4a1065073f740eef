"""evalkit.regression against scikit-learn on randomized inputs, NMAE against a
per-user brute force, the recommender-metrics post's definitions, and one test
per kind of bad input."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import evalkit as ek
from tests._oracle import recorder

MIRRORS = [
    (ek.mean_absolute_error, skm.mean_absolute_error),
    (ek.mean_squared_error, skm.mean_squared_error),
    (ek.root_mean_squared_error, skm.root_mean_squared_error),
]
IDS = [ours.__name__ for ours, _ in MIRRORS]
run = recorder(lambda caught: sorted({str(w.category.__name__) for w in caught}))


def _problem(rng):
    """A random regression problem: shape, dtype, weights and multioutput all vary."""
    n = int(rng.integers(1, 40))
    m = int(rng.choice([0, 1, 2, 3]))  # 0: 1-D targets
    shape = (n,) if m == 0 else (n, m)
    kind = rng.choice(["ratings", "normal", "float32", "int", "bool"])
    if kind == "ratings":
        y_true = rng.integers(1, 6, shape)
        y_pred = np.clip(y_true + rng.normal(0, 1, shape), 1, 5).round(1)
    elif kind == "normal":
        y_true, y_pred = rng.normal(0, 3, shape), rng.normal(0, 3, shape)
    elif kind == "float32":
        y_true = rng.normal(0, 1, shape).astype(np.float32)
        y_pred = rng.normal(0, 1, shape).astype(np.float32)
    elif kind == "int":
        y_true, y_pred = rng.integers(-5, 5, shape), rng.integers(-5, 5, shape)
    else:
        y_true, y_pred = rng.random(shape) < 0.5, rng.random(shape) < 0.5
    if rng.random() < 0.3:  # lists too
        y_true, y_pred = y_true.tolist(), np.asarray(y_pred).tolist()
    kwargs = {}
    r = rng.random()
    if r < 0.25:
        kwargs["sample_weight"] = rng.random(n) + 0.01
    elif r < 0.4:
        kwargs["sample_weight"] = rng.integers(0, 4, n).tolist()
    elif r < 0.5:
        kwargs["sample_weight"] = rng.random(n).astype(np.float32)
    r = rng.random()
    if r < 0.3:
        kwargs["multioutput"] = "raw_values"
    elif r < 0.5 and m >= 2:
        kwargs["multioutput"] = rng.random(m) + 0.1
    elif r < 0.6:
        kwargs["multioutput"] = "uniform_average"
    return y_true, y_pred, kwargs


@pytest.mark.parametrize("ours, theirs", MIRRORS, ids=IDS)
def test_equals_sklearn_on_random_problems(ours, theirs):
    rng = np.random.default_rng(20261201)
    compared = errors = 0
    for _ in range(600):
        y_true, y_pred, kwargs = _problem(rng)
        got, want = run(ours, y_true, y_pred, **kwargs), run(theirs, y_true, y_pred, **kwargs)
        assert got[0] == want[0], (y_true, y_pred, kwargs, got, want)
        if got[0] == "error":  # integer weights that are all zero: both refuse
            errors += 1
            continue
        compared += 1
        g, w = got[1], want[1]
        assert type(g) is type(w), (type(g), type(w))
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)  # bit for bit
        assert got[2] == want[2] == []  # no warnings
    assert compared > 500  # vacuity guard


@pytest.mark.parametrize("ours, theirs", MIRRORS, ids=IDS)
@pytest.mark.parametrize("y_true, y_pred, kwargs", [
    ([1, 2, 3], [1, 2], {}),
    ([1, np.nan], [1, 2], {}),
    ([1, 2], [1, np.inf], {}),
    ([], [], {}),
    (["a", "b"], [1, 2], {}),
    ([1 + 1j, 2], [1, 2], {}),
    ([1, None], [1, 2], {}),
    ([[1, 2], [3]], [[1, 2], [3]], {}),
    (np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), {}),
    (np.zeros((3, 2)), np.zeros((3, 3)), {}),
    (np.zeros((2, 0)), np.zeros((2, 0)), {}),
    (1.0, 2.0, {}),
    (None, [1], {}),
    ({1, 2}, [1, 2], {}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": [1, 2]}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": [0, 0, 0]}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": [np.nan, 1, 1]}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": "abc"}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": [[1, 2, 3]]}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": 2.0}),
    ([1, 2, 3], [1, 2, 4], {"sample_weight": [1, 1j, 1]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": "variance_weighted"}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": "bad"}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": [1, 2, 3]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": [0, 0]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": [[1, 2]]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": ["a", "b"]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": [np.nan, 1]}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": None}),
    (np.ones((3, 2)), np.zeros((3, 2)), {"multioutput": 3}),
    ([1, 2], [1, 3], {"multioutput": [1, 2]}),
])
def test_refuses_what_sklearn_refuses(ours, theirs, y_true, y_pred, kwargs):
    """Where sklearn raises, evalkit raises a ValueError or TypeError (never a
    ZeroDivisionError) whose message starts with the argument's name.

    sklearn's RMSE validates ``multioutput`` only as a keyword (it computes the
    MSE with "raw_values", then averages with whatever weights it was given:
    NaN weights give nan, one weight for one output passes); evalkit's RMSE
    checks it as its MSE does, so the MSE is the oracle for its refusals."""
    if theirs is skm.root_mean_squared_error:
        theirs = skm.mean_squared_error
    with pytest.raises(Exception):
        theirs(y_true, y_pred, **kwargs)
    with pytest.raises((ValueError, TypeError)) as info:
        ours(y_true, y_pred, **kwargs)
    assert str(info.value).split()[0] in ("y_true", "y_pred", "sample_weight", "multioutput")


@pytest.mark.parametrize("ours, theirs", MIRRORS, ids=IDS)
@pytest.mark.parametrize("kwargs", [{"sample_weight": [1, -2, 3]},
                                    {"sample_weight": [1, -1, 0]}])
def test_negative_sample_weights_are_refused(ours, theirs, kwargs):
    """A deliberate difference: sklearn computes with negative weights."""
    with pytest.raises(ValueError, match="sample_weight contains negative values"):
        ours([1, 2, 3], [1, 2, 4], **kwargs)


@pytest.mark.parametrize("ours, theirs", MIRRORS, ids=IDS)
def test_one_output_with_one_output_weight_is_sklearns_rmse(ours, theirs):
    """One output and a one-element ``multioutput``: that output's error, in all three.

    scikit-learn's RMSE returns it; its MAE and MSE raise ("Custom weights are
    useful only in multi-output cases"), so their oracle is the uniform average.
    """
    rng = np.random.default_rng(16)
    for shape in [(30,), (30, 1)]:
        y, p = rng.normal(size=shape), rng.normal(size=shape)
        for weight in ([0.3], np.array([2.0]), [1]):
            want = skm.root_mean_squared_error(y, p, multioutput=weight) \
                if theirs is skm.root_mean_squared_error else theirs(y, p)
            assert ours(y, p, multioutput=weight) == want
    with pytest.raises(ValueError, match="multioutput has 2 weights but there are 1 outputs"):
        ours([1.0, 2.0], [1.0, 3.0], multioutput=[1, 2])


def test_errors_from_sums_add_across_parts():
    """The core's sums: two parts add to the whole, and give the mirrors' numbers."""
    from evalkit._errors import errors_from_sums

    rng = np.random.default_rng(6)
    y, p, w = rng.normal(size=200), rng.normal(size=200), rng.random(200)
    parts = [(w[s], np.abs(p - y)[s], ((p - y) ** 2)[s]) for s in (slice(0, 70), slice(70, None))]
    sums = [sum(float(pw.sum()) for pw, _, _ in parts),
            sum(float((pw * e).sum()) for pw, e, _ in parts),
            sum(float((pw * q).sum()) for pw, _, q in parts)]
    out = errors_from_sums(*sums, width=4.0)
    assert out["mae"] == pytest.approx(skm.mean_absolute_error(y, p, sample_weight=w), rel=1e-12)
    assert out["mse"] == pytest.approx(skm.mean_squared_error(y, p, sample_weight=w), rel=1e-12)
    assert out["rmse"] == pytest.approx(skm.root_mean_squared_error(y, p, sample_weight=w),
                                        rel=1e-12)
    assert out["nmae"] == pytest.approx(out["mae"] / 4.0)
    assert "mse" not in errors_from_sums(1.0, 2.0)


@pytest.mark.parametrize("ours, theirs", MIRRORS, ids=IDS)
def test_negative_output_weights_are_refused(ours, theirs):
    with pytest.raises(ValueError, match="multioutput contains negative weights"):
        ours(np.ones((3, 2)), np.zeros((3, 2)), multioutput=[-1, 2])


def test_definitions_of_the_post():
    """MAE = mean |p - r|, MSE = mean (p - r)^2, RMSE = sqrt(MSE), by hand."""
    rng = np.random.default_rng(3)
    r = rng.integers(1, 6, 50)
    p = rng.uniform(1, 5, 50)
    assert ek.mean_absolute_error(r, p) == pytest.approx(np.sum(np.abs(p - r)) / 50, rel=1e-14)
    assert ek.mean_squared_error(r, p) == pytest.approx(np.sum((p - r) ** 2) / 50, rel=1e-14)
    assert ek.root_mean_squared_error(r, p) == pytest.approx(
        np.sqrt(np.sum((p - r) ** 2) / 50), rel=1e-14)


def test_rmse_properties():
    """MAE <= RMSE <= sqrt(max |error|) ... and one large error moves RMSE more than MAE."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        r, p = rng.normal(size=n), rng.normal(size=n)
        mae, rmse = ek.mean_absolute_error(r, p), ek.root_mean_squared_error(r, p)
        assert mae <= rmse * (1 + 1e-12)
        assert rmse <= np.abs(p - r).max() * (1 + 1e-12)
    # all errors equal: MAE = RMSE
    assert ek.mean_absolute_error([1, 2, 3], [2, 3, 4]) == ek.root_mean_squared_error(
        [1, 2, 3], [2, 3, 4]) == 1.0


# -- NMAE ---------------------------------------------------------------------------


def _nmae_brute(y_true, y_pred, lo, hi, groups=None, w=None):
    y_true, y_pred = np.asarray(y_true, float), np.asarray(y_pred, float)
    w = np.ones(len(y_true)) if w is None else np.asarray(w, float)
    if groups is None:
        return sum(wi * abs(p - t) for t, p, wi in zip(y_true, y_pred, w)) / sum(w) / (hi - lo)
    groups = np.asarray(groups)
    out = {}
    for g in sorted(set(groups.tolist())):
        sel = groups == g
        out[g] = (sum(wi * abs(p - t) for t, p, wi in zip(y_true[sel], y_pred[sel], w[sel]))
                  / sum(w[sel]) / (hi - lo))
    return out


def test_nmae_against_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        lo, hi = rng.choice([(1, 5), (0, 10), (-10, 10), (0.5, 5.0)])
        y_true = rng.uniform(lo, hi, n).round(1).clip(lo, hi)
        y_pred = rng.uniform(lo - 1, hi + 1, n)
        w = rng.random(n) + 0.05 if rng.random() < 0.4 else None
        groups = rng.integers(0, 6, n)
        r = rng.random()
        if r < 0.3:
            groups = np.array(["u%d" % g for g in groups])
        elif r < 0.5:  # integer ids far apart and negative: coded by sorting, not counting
            groups = groups * 10**9 - 7
        got = ek.normalized_mean_absolute_error(y_true, y_pred, rating_range=(lo, hi),
                                                sample_weight=w)
        assert got == pytest.approx(_nmae_brute(y_true, y_pred, lo, hi, w=w), rel=1e-12)
        assert got == pytest.approx(
            ek.mean_absolute_error(y_true, y_pred, sample_weight=w) / (hi - lo), rel=1e-12)
        want = _nmae_brute(y_true, y_pred, lo, hi, groups, w)
        users, values = ek.normalized_mean_absolute_error(
            y_true, y_pred, rating_range=(lo, hi), users=groups, sample_weight=w, per_user=True)
        assert users.tolist() == list(want)
        np.testing.assert_allclose(values, list(want.values()), rtol=1e-12)
        mean = ek.normalized_mean_absolute_error(y_true, y_pred, rating_range=(lo, hi),
                                                 users=groups, sample_weight=w)
        assert mean == pytest.approx(np.mean(list(want.values())), rel=1e-12)


def test_nmae_groups_from_a_pandas_column():
    """User ids as a pandas Series of Python strings (dtype object), as a DataFrame gives them."""
    import pandas as pd

    users = pd.Series(["ann", "ann", "bob"])
    assert users.dtype == object
    got = ek.normalized_mean_absolute_error([4, 2, 5], [3, 2, 4], rating_range=(1, 5),
                                            users=users, per_user=True)
    assert got[0].tolist() == ["ann", "bob"]
    np.testing.assert_allclose(got[1], [0.125, 0.25])


def test_nmae_per_user_differs_from_pooled():
    """One heavy user with small errors, one light user with large ones."""
    y_true = [4] * 9 + [1]
    y_pred = [4] * 9 + [5]
    groups = ["heavy"] * 9 + ["light"]
    pooled = ek.normalized_mean_absolute_error(y_true, y_pred, rating_range=(1, 5))
    per_user = ek.normalized_mean_absolute_error(y_true, y_pred, rating_range=(1, 5),
                                                 users=groups)
    assert pooled == pytest.approx(0.1)
    assert per_user == pytest.approx(0.5)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"rating_range": (5, 1)}, ValueError, "rating_range must be"),
    ({"rating_range": (1, 1)}, ValueError, "rating_range must be"),
    ({"rating_range": 5}, TypeError, "rating_range must be a pair"),
    ({"rating_range": (1, 2, 3)}, TypeError, "rating_range must be a pair"),
    ({"rating_range": (1, np.inf)}, TypeError, "rating_range must be a pair"),
    ({"rating_range": ("1", "5")}, TypeError, "rating_range must be a pair"),
    ({"rating_range": (2, 5)}, ValueError, "y_true contains 1.0, outside rating_range"),
    ({"rating_range": (1, 5), "users": [1, 2]}, ValueError, "y_true and users"),
    ({"rating_range": (1, 5), "users": [0.5, 1, 2]}, ValueError, "users contains"),
    ({"rating_range": (1, 5), "per_user": True}, ValueError, "per_user=True needs users"),
    ({"rating_range": (1, 5), "per_user": "yes"}, TypeError, "per_user must be"),
    ({"rating_range": (1, 5), "users": [0, 0, 1], "sample_weight": [1, 1, 0]},
     ValueError, "sample_weight is zero for every rating of user 1"),
    ({"rating_range": (1, 5), "sample_weight": [1, -1, 1]}, ValueError, "sample_weight"),
])
def test_nmae_bad_input(kwargs, error, words):
    with pytest.raises(error, match=words):
        ek.normalized_mean_absolute_error([1, 2, 5], [1, 3, 4], **kwargs)


def test_nmae_needs_1d_ratings_and_a_range():
    with pytest.raises(ValueError, match="must be 1-D"):
        ek.normalized_mean_absolute_error([[1, 2]], [[1, 2]], rating_range=(1, 5))
    with pytest.raises(TypeError):
        ek.normalized_mean_absolute_error([1, 2], [1, 2])  # rating_range is required


# -- R², explained variance, MAPE, median absolute error ------------------------------------

SCORES = [
    (ek.r2_score, skm.r2_score),
    (ek.explained_variance_score, skm.explained_variance_score),
    (ek.mean_absolute_percentage_error, skm.mean_absolute_percentage_error),
    (ek.median_absolute_error, skm.median_absolute_error),
]
run_all = recorder(lambda caught: sorted({(w.category.__name__, str(w.message)) for w in caught
                                          if w.category is not RuntimeWarning}))


@pytest.mark.parametrize("ours, theirs", SCORES, ids=[o.__name__ for o, _ in SCORES])
def test_scores_equal_sklearn_on_random_problems(ours, theirs):
    rng = np.random.default_rng(20261206)
    compared = constant = 0
    for i in range(600):
        y_true, y_pred, kwargs = _problem(rng)
        if "multioutput" in kwargs and np.ndim(kwargs["multioutput"]) and np.ndim(y_true) == 2 \
                and np.shape(y_true)[1] == 1:
            del kwargs["multioutput"]   # scikit-learn refuses output weights for one output
        if ours is ek.median_absolute_error and np.asarray(y_pred).dtype == bool:
            continue  # scikit-learn subtracts booleans there (a TypeError); evalkit reads 0/1
        if i % 5 == 0:   # a constant column: the force_finite conventions
            y_true = np.ones(np.shape(y_true))
        if ours in (ek.r2_score, ek.explained_variance_score):
            if rng.random() < 0.3:
                kwargs["multioutput"] = "variance_weighted"
            if rng.random() < 0.3:
                kwargs["force_finite"] = False
        got, want = run_all(ours, y_true, y_pred, **kwargs), run_all(theirs, y_true, y_pred, **kwargs)
        assert got[0] == want[0], (y_true, y_pred, kwargs, got, want)
        if got[0] == "error":
            continue
        compared += 1
        constant += i % 5 == 0
        assert np.shape(got[1]) == np.shape(want[1])
        single = any(np.asarray(a).dtype == np.float32
                     for a in (y_true, y_pred, kwargs.get("sample_weight", 0.0)))
        np.testing.assert_allclose(got[1], want[1], rtol=1e-6 if single else 1e-12, atol=1e-12,
                                   equal_nan=True)
        assert got[2] == want[2], kwargs
    assert compared > 450 and constant > 50  # vacuity guard


def test_r2_of_one_sample_is_nan_with_sklearns_warning():
    with pytest.warns(ek.UndefinedMetricWarning, match="less than two samples"):
        assert np.isnan(ek.r2_score([1.0], [2.0]))


def test_explained_variance_ignores_a_constant_bias_r2_does_not():
    y = np.array([1.0, 2.0, 4.0, 7.0])
    assert ek.explained_variance_score(y, y + 3) == 1.0
    assert ek.r2_score(y, y + 3) == pytest.approx(1 - 9 * 4 / np.sum((y - y.mean()) ** 2))


def test_weighted_median_takes_the_midpoint_at_exactly_half_the_weight():
    # weights 1, 1, 2: the cumulative weight reaches half (2) exactly at the second error
    assert ek.median_absolute_error([0, 0, 0], [1, 2, 4], sample_weight=[1, 1, 2]) == 3.0
    assert ek.median_absolute_error([0, 0, 0], [1, 2, 4], sample_weight=[1, 2, 2]) == 2.0
    assert ek.median_absolute_error([0, 0, 0, 0], [1, 2, 4, 8], sample_weight=[1, 1, 0, 2]) == 5.0


@pytest.mark.parametrize("fn", [ek.r2_score, ek.explained_variance_score])
def test_variance_weighted_is_refused_where_sklearn_refuses_it(fn):
    with pytest.raises(ValueError, match="^multioutput"):
        ek.mean_absolute_error([1, 2], [1, 2], multioutput="variance_weighted")
    with pytest.raises(ValueError, match="^multioutput"):
        fn([1, 2], [1, 2], multioutput="variance")
    with pytest.raises(TypeError, match="^force_finite"):
        fn([1, 2], [1, 2], force_finite=1)
