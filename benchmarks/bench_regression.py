"""Rating errors: the sklearn mirrors on 10^6 ratings, on several outputs with weights, on small
inputs (where validation dominates), and per-user NMAE against a pandas groupby.

The results must agree bit for bit with scikit-learn (the check), so the
ratio measures only the overhead around the same ``numpy.average``.
"""

import numpy as np
import sklearn.metrics as skm

import evalkit as ek
from _harness import Call, Workload


def ratings_1e6():
    rng = np.random.default_rng(0)
    y = rng.integers(1, 6, 10**6).astype(float)
    return y, np.clip(y + rng.normal(0, 0.9, 10**6), 1, 5)


def ratings_1e3():
    y, p = ratings_1e6()
    return y[:1000], p[:1000]


def outputs_weighted():
    rng = np.random.default_rng(1)
    y = rng.normal(size=(10**5, 10))
    return Call(y, y + rng.normal(size=y.shape), sample_weight=rng.random(10**5),
                multioutput=rng.random(10) + 0.1)


def per_user():
    rng = np.random.default_rng(2)
    y, p = ratings_1e6()
    return Call(y, p, rating_range=(1, 5), users=rng.integers(0, 10**5, 10**6))


def _pandas_user_nmae(y, p, *, rating_range, users):
    import pandas as pd

    lo, hi = rating_range
    err = pd.Series(np.abs(p - y) / (hi - lo))
    return float(err.groupby(users).mean().mean())


def _close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-12)


WORKLOADS = [
    Workload(name="mean_absolute_error 10^6 ratings", setup=ratings_1e6,
             evalkit=ek.mean_absolute_error, reference=skm.mean_absolute_error,
             check=np.testing.assert_array_equal),
    Workload(name="mean_squared_error 10^6 ratings", setup=ratings_1e6,
             evalkit=ek.mean_squared_error, reference=skm.mean_squared_error,
             check=np.testing.assert_array_equal),
    Workload(name="root_mean_squared_error 10^6 ratings", setup=ratings_1e6,
             evalkit=ek.root_mean_squared_error, reference=skm.root_mean_squared_error,
             check=np.testing.assert_array_equal),
    Workload(name="root_mean_squared_error 10^3 ratings", setup=ratings_1e3,
             evalkit=ek.root_mean_squared_error, reference=skm.root_mean_squared_error,
             check=np.testing.assert_array_equal, note="small inputs: validation overhead"),
    Workload(name="mean_absolute_error 10^5 x 10 outputs, weighted", setup=outputs_weighted,
             evalkit=ek.mean_absolute_error, reference=skm.mean_absolute_error,
             check=np.testing.assert_array_equal),
    Workload(name="NMAE per user, 10^6 ratings of 10^5 users", setup=per_user,
             evalkit=ek.normalized_mean_absolute_error, reference=_pandas_user_nmae,
             reference_name="pandas groupby", check=_close),
]
