"""Arrays: the one reader (:func:`as_array`, :func:`check_real_values`), real scores, weights,
regression targets, and count matrices."""

from __future__ import annotations

import numpy as np

from ._options import MULTIOUTPUT, check


# -- arrays: one reader ------------------------------------------------------------------

def _is_sparse(y):
    """A scipy.sparse matrix or array (np.asarray would make it a 0-d object array)."""
    return hasattr(y, "toarray") and type(y).__module__.startswith("scipy.sparse")


def dense_indicators(*ys):
    """scipy.sparse multilabel indicator matrices as dense arrays (as scikit-learn accepts them)."""
    return tuple(y.toarray() if _is_sparse(y) else y for y in ys)


def _array_like(y, name, expected):
    """Refuse ``None``, scalars, sets, dicts and sparse matrices before ``np.asarray``."""
    if y is None:
        raise TypeError(f"{name} is required, got None")
    if _is_sparse(y):
        raise TypeError(f"{name}: sparse matrices are not supported here, use `.toarray()`")
    if isinstance(y, (str, bytes)) or np.isscalar(y) or (isinstance(y, np.ndarray) and y.ndim == 0):
        raise TypeError(f"{name} must be {expected}, got the scalar {y!r}")
    if isinstance(y, (set, frozenset, dict)):
        raise TypeError(f"{name} must be an ordered array-like, got a {type(y).__name__}")


def as_array(y, name, *, ndim=1, shape=None, expected="an array-like of values", ragged="",
             empty="at least one sample is needed"):
    """An array-like as a numpy array of ``ndim`` dims, else raise naming ``name``. Not copied."""
    _array_like(y, name, expected)
    try:
        arr = np.asarray(y)
    except (ValueError, TypeError):  # ragged nested lists
        raise ValueError(f"{name} has rows of different lengths{ragged}") from None
    dims = (ndim,) if isinstance(ndim, int) else ndim
    if dims is not None and arr.ndim not in dims:
        if arr.dtype.kind == "O" and arr.ndim == 1 and max(dims) >= 2 and any(
                isinstance(v, (list, tuple, np.ndarray)) for v in arr):
            raise ValueError(f"{name} has rows of different lengths{ragged}")
        raise ValueError(f"{name} must be {shape or ' or '.join(f'{d}-D' for d in dims)}, "
                         f"got an array of shape {arr.shape}")
    if empty and arr.size == 0:
        raise ValueError(f"{name} is empty: {empty}")
    return arr


def _py(x):
    return x.item() if isinstance(x, np.generic) else x


def _is_string_like(arr):
    return arr.dtype.kind in "USa" or (
        arr.dtype.kind == "O" and any(isinstance(v, (str, bytes)) for v in arr.flat))


def _all_finite(arr):
    """A large array's finite sum says all is finite: one pass, no temporary.

    (Else look: the sum may have overflowed.)
    """
    if arr.size > 4096:
        with np.errstate(all="ignore"):
            if np.isfinite(np.add.reduce(arr, axis=None)):
                return True
    return np.isfinite(arr).all()


def check_real_values(arr, name, *, finite=True, allow_nan=False):
    """Refuse an array not of real numbers (strings, complex, dates); NaN/inf per ``finite``."""
    kind = arr.dtype.kind
    if kind not in "biuf":
        first = arr.flat[0] if arr.size else None
        if kind == "O":
            odd = (str, bytes, complex, np.complexfloating)
            first, kind = next(((v, "U" if isinstance(v, (str, bytes)) else "c") for v in arr.flat
                                if isinstance(v, odd)), (first, "O"))
        if kind in "USc":
            got = "real numbers, got complex numbers" if kind == "c" else "numbers, got strings"
            raise TypeError(f"{name} must hold {got} such as {_py(first)!r}")
        try:
            arr = arr.astype(np.float64) if kind == "O" else arr
        except (TypeError, ValueError):
            kind = "?"
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold numbers, got " + (
                f"dates/times ({arr.dtype})" if kind in "mM" else f"dtype {arr.dtype}"
                + (f" holding {_py(first)!r}" if kind == "?" else "")))
    if finite and arr.dtype.kind == "f" and not _all_finite(arr):
        nan = np.isnan(arr).any()
        if nan and not allow_nan:
            raise ValueError(f"{name} contains NaN")
        if not nan or np.isinf(arr).any():
            raise ValueError(f"{name} contains infinite values")
    return arr


def check_real(y, name="y_score", *, finite=True, allow_nan=False, floats=False, proba=False,
               **shape):
    """The one reader of real arrays (``**shape``: as_array's).

    ``floats``: as float64; ``proba``: in [0, 1].

    >>> check_real([0.2, 1.5], "y_proba", proba=True)
    Traceback (most recent call last):
    ...
    ValueError: y_proba contains values outside [0, 1] such as 1.5: give probabilities,
    not decision scores
    """
    arr = as_array(y, name, **{"expected": "an array-like of numbers", **shape})
    arr = check_real_values(arr, name, finite=finite, allow_nan=allow_nan)
    arr = arr.astype(np.float64) if (floats or proba) and arr.dtype.kind != "f" else arr
    if proba and ((arr < 0) | (arr > 1)).any():
        raise ValueError(f"{name} contains values outside [0, 1] such as "
                         f"{arr.flat[np.argmax((arr < 0) | (arr > 1))].item()!r}: give "
                         "probabilities, not decision scores")
    return arr


def check_score_matrix(y_score, name="y_score", *, allow_1d=False, k=None, labels=False):
    """n x C finite real scores as floats; k <= C.

    ``labels``: n x m ranked labels instead (1-D is m = 1).
    """
    if labels:
        arr = as_array(y_score, name, ndim=(1, 2), expected="an n x m array-like of labels",
                       shape="2-D (n samples x m ranked labels)",
                       ragged=": every row must rank the same number of labels")
    else:
        arr = check_real(y_score, name, ndim=(1, 2) if allow_1d else 2, floats=True,
                         shape="2-D (n samples x C classes)",
                         ragged=": every row must score the same classes",
                         empty="at least one sample and one class are needed")
    arr = arr[:, None] if labels and arr.ndim == 1 else arr
    if k is not None and k > arr.shape[-1]:
        raise ValueError(f"k={k} is larger than the {arr.shape[-1]} columns of {name}: "
                         f"k must be between 1 and {arr.shape[-1]}")
    return arr


def check_monotonic(x, name="x"):
    """At least 2 points, increasing or decreasing (the trapezoid rule's ``x``): 1.0 or -1.0."""
    if len(x) < 2:
        raise ValueError("At least 2 points are needed to compute area under curve, "
                         f"but {name} has {len(x)}")
    dx = np.diff(x)
    if (dx < 0).any() and not (dx <= 0).all():
        raise ValueError(f"{name} is neither increasing nor decreasing: the trapezoidal rule needs "
                         f"monotonic {name} (sort the points by {name} first)")
    return -1.0 if (dx < 0).any() else 1.0


def check_sample_weight(sample_weight, n, name="sample_weight", *, keep_int=False, of="samples"):
    """Weights of ``n`` items: None or 1-D, finite, >= 0, not all 0; float64 (or int64)."""
    if sample_weight is None:
        return None
    w = check_real(sample_weight, name)
    w = w.astype(np.int64 if keep_int and w.dtype.kind in "biu" else float)
    unit = "values" if of == "samples" else "weights"
    if len(w) != n:
        raise ValueError(f"{name} has {len(w)} {unit} but there are {n} {of}")
    if (w < 0).any():
        raise ValueError(f"{name} contains negative {unit} such as {float(w[np.argmax(w < 0)])!r}: "
                         f"weights count {of} and must be >= 0")
    if not w.any():
        raise ValueError(f"{name} is all zeros: at least one of the {of} must count")
    return w


def check_scores(y, y_score, sample_weight=None, name="y_score"):
    """1-D finite scores of the samples of validated labels ``y``, and their weights (or None)."""
    scores = check_real(y_score, name)
    check_same_length(**{"y_true": y, name: scores})
    return scores, check_sample_weight(sample_weight, len(y))


def check_same_length(**arrays):
    """Raise ``ValueError`` unless every named array (None skipped) has the same length."""
    names = [n for n, a in arrays.items() if a is not None]
    lengths = [len(arrays[n]) for n in names]
    if len(set(lengths)) > 1:
        shown = " and ".join(map(str, lengths))
        raise ValueError(f"{' and '.join(names)} have different lengths ({shown})")


def check_regression_targets(y_true, y_pred, sample_weight=None, multioutput="uniform_average",
                             *, max_ndim=2, spec=MULTIOUTPUT):
    """Regression targets n x m in scikit-learn's dtype, weights, multioutput (by ``spec``)."""
    floats = [a.dtype for a in (y_true, y_pred, sample_weight)
              if getattr(getattr(a, "dtype", None), "kind", None) == "f"]
    dtype = np.result_type(*floats) if floats else np.dtype(np.float64)
    yt, yp = (check_real(y, name, ndim=(1, 2)[:max_ndim], ragged=": every row must hold one value "
                         "per output", shape="1-D" if max_ndim == 1 else
                         "1-D or 2-D (n samples x m outputs)").astype(dtype, copy=False)
              for y, name in ((y_true, "y_true"), (y_pred, "y_pred")))
    check_same_length(y_true=yt, y_pred=yp)
    yt, yp = yt.reshape(len(yt), -1), yp.reshape(len(yp), -1)
    if yt.shape[1] != yp.shape[1]:
        raise ValueError(f"y_true and y_pred have different numbers of outputs "
                         f"({yt.shape[1]} and {yp.shape[1]})")
    w = check_sample_weight(sample_weight, len(yt))
    w = None if w is None else w.astype(dtype, copy=False)
    if not (isinstance(multioutput, str) and multioutput in ("raw_values", "uniform_average")):
        check(multioutput, spec, "multioutput")
    return yt, yp, w, (multioutput if isinstance(multioutput, str) else
                       check_sample_weight(multioutput, yt.shape[1], "multioutput", of="outputs"))



# -- Spark's rows and count matrices --------------------------------------------------------

def check_score_and_labels(score_and_labels, name="score_and_labels", *, what=("scores", "labels")):
    """Spark's input rows: n x 2 ``(score, label)`` or n x 3 ``(score, label, weight)``."""
    rows = "rows of (score, label) or (score, label, weight)"
    arr = as_array(score_and_labels, name, ndim=None, expected=rows,
                   empty="at least one (score, label) row is needed",
                   ragged=": every row must be (score, label) or (score, label, weight)")
    if arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise ValueError(f"{name} must hold n {rows}, got an array of shape {arr.shape}" + (
            ": columns, not rows? Pass np.column_stack((scores, labels)) or "
            "list(zip(scores, labels))"
            if arr.ndim == 2 and arr.shape[0] in (2, 3) and arr.shape[1] > 3 else ""))
    arr = check_real_values(arr, name, finite=False)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8 and (
            np.isfinite(arr) & (arr.astype(np.float64) != arr)).any():
        raise TypeError(f"{name} holds {arr.dtype} values that a double (Spark's type) "
                        "cannot hold exactly: rounding them could tie distinct scores; "
                        "cast to float64 yourself if that is what you mean")
    arr = arr.astype(np.float64)
    for col in (0, 1):
        if not np.isfinite(arr[:, col]).all():
            bad = "NaN" if np.isnan(arr[:, col]).any() else "infinite"
            raise ValueError(f"{name} contains {bad} {what[col]} (column {col})")
    weights = None if arr.shape[1] == 2 else check_sample_weight(
        arr[:, 2], arr.shape[0], name=f"{name} column 2 (weights)")
    return np.array(arr[:, 0]), np.array(arr[:, 1]), weights  # contiguous copies


def check_count_matrix(counts, name="counts", *, whole=False):
    """A square confusion matrix of finite counts >= 0 (``whole``: whole numbers). Not copied."""
    m = as_array(counts, name, ndim=None, expected="a square matrix of counts",
                 ragged=": it must be a square matrix (C x C)", empty=False)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise ValueError(f"{name} must be a square matrix (C x C), got shape {m.shape}")
    m = check_real_values(m, name, finite=False)
    finite, negative = np.isfinite(m).all(), (m < 0).any()
    if whole and (not finite or negative or (m != np.round(m)).any()):
        raise ValueError(f"{name} must be whole non-negative numbers (one sample per count)")
    if not finite or negative:
        raise ValueError(f"{name} contains " + ("NaN or infinite values" if not finite else
                                                "negative values: counts must be >= 0"))
    return m


def check_row_labels(labels, n_rows, name="labels", *, of="counts"):
    """Labels naming the rows (and columns) of a matrix: 1-D, one per row."""
    lab = np.asarray(labels)
    if lab.ndim != 1 or len(lab) != n_rows:
        raise ValueError(f"{name} must have one entry per row of {of} ({n_rows}), "
                         f"got {len(np.ravel(lab))}")
    return lab
