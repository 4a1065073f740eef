"""Arrays: the one reader (:func:`as_array`, :func:`check_real_values`), real scores, weights,
regression targets, and count matrices."""

from __future__ import annotations

import numpy as np

from ._options import MULTIOUTPUT, check

__all__ = ["dense_indicators", "check_array_like", "as_array", "python_scalar", "is_string_like",
           "check_real_values", "check_real", "check_score_matrix", "check_monotonic",
           "check_sample_weight", "check_scores", "check_same_length", "check_regression_targets",
           "check_score_and_labels", "check_count_matrix", "check_row_labels"]


# -- arrays: one reader ------------------------------------------------------------------

def _is_sparse(y):
    """A scipy.sparse matrix or array (np.asarray would make it a 0-d object array)."""
    return hasattr(y, "toarray") and type(y).__module__.startswith("scipy.sparse")


def dense_indicators(*ys):
    """scipy.sparse multilabel indicator matrices as dense arrays (as scikit-learn accepts them)."""
    dense = []
    for y in ys:
        if _is_sparse(y):
            y = y.toarray()
        dense.append(y)
    return tuple(dense)


def _is_scalar(y):
    """A string, a number or a 0-d array: one value, not an array of them."""
    if isinstance(y, (str, bytes)) or np.isscalar(y):
        return True
    return isinstance(y, np.ndarray) and y.ndim == 0


def check_array_like(y, name, expected):
    """Refuse ``None``, scalars, sets, dicts and sparse matrices before ``np.asarray``."""
    if y is None:
        raise TypeError(f"{name} is required, got None")
    if _is_sparse(y):
        raise TypeError(f"{name}: sparse matrices are not supported here, use `.toarray()`")
    if _is_scalar(y):
        raise TypeError(f"{name} must be {expected}, got the scalar {y!r}")
    if isinstance(y, (set, frozenset, dict)):
        raise TypeError(f"{name} must be an ordered array-like, got a {type(y).__name__}")


def _has_rows(arr):
    """A 1-D object array of which some entries are rows (lists, tuples, arrays)."""
    if arr.dtype.kind != "O" or arr.ndim != 1:
        return False
    return any(isinstance(v, (list, tuple, np.ndarray)) for v in arr)


def _check_dims(arr, name, dims, shape, ragged):
    """Refuse an array whose number of dimensions is not among ``dims``."""
    if arr.ndim in dims:
        return
    if max(dims) >= 2 and _has_rows(arr):  # numpy made rows of different lengths into objects
        raise ValueError(f"{name} has rows of different lengths{ragged}")
    if not shape:
        shape = " or ".join(f"{d}-D" for d in dims)
    raise ValueError(f"{name} must be {shape}, got an array of shape {arr.shape}")


def as_array(y, name, *, ndim=1, shape=None, expected="an array-like of values", ragged="",
             empty="at least one sample is needed"):
    """An array-like as a numpy array of ``ndim`` dims, else raise naming ``name``. Not copied.

    ``ndim``: a number of dimensions, a tuple of them, or None (any). ``shape`` words the
    dimensions expected, ``ragged`` ends the message of rows of different lengths, ``empty``
    says why an empty array is refused (a false ``empty`` accepts it).
    """
    check_array_like(y, name, expected)
    try:
        arr = np.asarray(y)
    except (ValueError, TypeError):  # ragged nested lists
        raise ValueError(f"{name} has rows of different lengths{ragged}") from None
    if isinstance(ndim, int):
        ndim = (ndim,)
    if ndim is not None:
        _check_dims(arr, name, ndim, shape, ragged)
    if empty and arr.size == 0:
        raise ValueError(f"{name} is empty: {empty}")
    return arr


def python_scalar(x):
    """A numpy scalar as the Python number (or string) it holds; anything else as it is."""
    if isinstance(x, np.generic):
        return x.item()
    return x


def is_string_like(arr):
    """Whether an array holds strings or bytes: of a string dtype, or objects among which one is."""
    if arr.dtype.kind in "USa":
        return True
    if arr.dtype.kind != "O":
        return False
    return any(isinstance(v, (str, bytes)) for v in arr.flat)


def _all_finite(arr):
    """A large array's finite sum says all is finite: one pass, no temporary.

    (Else look: the sum may have overflowed.)
    """
    if arr.size > 4096:
        with np.errstate(all="ignore"):
            if np.isfinite(np.add.reduce(arr, axis=None)):
                return True
    return np.isfinite(arr).all()


def _first_odd_object(arr, first):
    """The first string or complex number of an object array and its kind ("U" or "c").

    ``(first, "O")`` when it holds neither.
    """
    for v in arr.flat:
        if isinstance(v, (str, bytes)):
            return v, "U"
        if isinstance(v, (complex, np.complexfloating)):
            return v, "c"
    return first, "O"


def _as_numbers(arr, name):
    """``arr`` if it holds real numbers (an object array of them as float64), else a TypeError."""
    kind = arr.dtype.kind
    if kind in "biuf":
        return arr
    first = None
    if arr.size:
        first = arr.flat[0]
    if kind == "O":
        first, kind = _first_odd_object(arr, first)
    shown = repr(python_scalar(first))
    if kind == "c":
        raise TypeError(f"{name} must hold real numbers, got complex numbers such as {shown}")
    if kind in "US":
        raise TypeError(f"{name} must hold numbers, got strings such as {shown}")
    if kind == "O":
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype} holding "
                            f"{shown}") from None
    if kind in "mM":
        raise TypeError(f"{name} must hold numbers, got dates/times ({arr.dtype})")
    raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")


def check_real_values(arr, name, *, finite=True, allow_nan=False):
    """Refuse an array not of real numbers (strings, complex, dates); NaN/inf per ``finite``."""
    arr = _as_numbers(arr, name)
    if not finite or arr.dtype.kind != "f":
        return arr
    if _all_finite(arr):
        return arr
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
    shape.setdefault("expected", "an array-like of numbers")
    arr = as_array(y, name, **shape)
    arr = check_real_values(arr, name, finite=finite, allow_nan=allow_nan)
    if (floats or proba) and arr.dtype.kind != "f":
        arr = arr.astype(np.float64)
    if proba:
        outside = (arr < 0) | (arr > 1)
        if outside.any():
            bad = arr.flat[np.argmax(outside)].item()
            raise ValueError(f"{name} contains values outside [0, 1] such as {bad!r}: give "
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
        if arr.ndim == 1:
            arr = arr[:, None]
    else:
        ndim = 2
        if allow_1d:
            ndim = (1, 2)
        arr = check_real(y_score, name, ndim=ndim, floats=True,
                         shape="2-D (n samples x C classes)",
                         ragged=": every row must score the same classes",
                         empty="at least one sample and one class are needed")
    n_columns = arr.shape[-1]
    if k is not None and k > n_columns:
        raise ValueError(f"k={k} is larger than the {n_columns} columns of {name}: "
                         f"k must be between 1 and {n_columns}")
    return arr


def check_monotonic(x, name="x"):
    """At least 2 points, increasing or decreasing (the trapezoid rule's ``x``): 1.0 or -1.0."""
    if len(x) < 2:
        raise ValueError("At least 2 points are needed to compute area under curve, "
                         f"but {name} has {len(x)}")
    dx = np.diff(x)
    decreasing = (dx < 0).any()
    if decreasing and not (dx <= 0).all():
        raise ValueError(f"{name} is neither increasing nor decreasing: the trapezoidal rule needs "
                         f"monotonic {name} (sort the points by {name} first)")
    if decreasing:
        return -1.0
    return 1.0


def check_sample_weight(sample_weight, n, name="sample_weight", *, keep_int=False, of="samples"):
    """Weights of ``n`` items: None or 1-D, finite, >= 0, not all 0; float64 (or int64).

    ``keep_int``: integer weights as int64 (they then add exactly).
    """
    if sample_weight is None:
        return None
    w = check_real(sample_weight, name)
    if keep_int and w.dtype.kind in "biu":
        w = w.astype(np.int64)
    else:
        w = w.astype(float)
    unit = "weights"
    if of == "samples":
        unit = "values"
    if len(w) != n:
        raise ValueError(f"{name} has {len(w)} {unit} but there are {n} {of}")
    negative = w < 0
    if negative.any():
        first = float(w[np.argmax(negative)])
        raise ValueError(f"{name} contains negative {unit} such as {first!r}: "
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
    names = [name for name, a in arrays.items() if a is not None]
    lengths = [len(arrays[name]) for name in names]
    if len(set(lengths)) > 1:
        shown = " and ".join(map(str, lengths))
        raise ValueError(f"{' and '.join(names)} have different lengths ({shown})")


def _float_dtype(*arrays):
    """The dtype regression targets are read in: the arrays' float dtypes combined, or float64."""
    floats = []
    for a in arrays:
        dtype = getattr(a, "dtype", None)
        if getattr(dtype, "kind", None) == "f":
            floats.append(dtype)
    if not floats:
        return np.dtype(np.float64)
    return np.result_type(*floats)


def _regression_target(y, name, dtype, max_ndim):
    """One regression target, 1-D or (``max_ndim`` 2) n x m, as an n x m array of ``dtype``."""
    shape = "1-D or 2-D (n samples x m outputs)"
    if max_ndim == 1:
        shape = "1-D"
    arr = check_real(y, name, ndim=(1, 2)[:max_ndim], shape=shape,
                     ragged=": every row must hold one value per output")
    return arr.astype(dtype, copy=False)


def _output_weights(multioutput, n_outputs, spec):
    """``multioutput``: one of the named options of ``spec``, or one weight per output."""
    if isinstance(multioutput, str) and multioutput in ("raw_values", "uniform_average"):
        return multioutput
    check(multioutput, spec, "multioutput")
    if isinstance(multioutput, str):
        return multioutput
    return check_sample_weight(multioutput, n_outputs, "multioutput", of="outputs")


def check_regression_targets(y_true, y_pred, sample_weight=None, multioutput="uniform_average",
                             *, max_ndim=2, spec=MULTIOUTPUT):
    """Regression targets n x m in scikit-learn's dtype, weights, multioutput (by ``spec``)."""
    dtype = _float_dtype(y_true, y_pred, sample_weight)
    yt = _regression_target(y_true, "y_true", dtype, max_ndim)
    yp = _regression_target(y_pred, "y_pred", dtype, max_ndim)
    check_same_length(y_true=yt, y_pred=yp)
    yt = yt.reshape(len(yt), -1)
    yp = yp.reshape(len(yp), -1)
    if yt.shape[1] != yp.shape[1]:
        raise ValueError(f"y_true and y_pred have different numbers of outputs "
                         f"({yt.shape[1]} and {yp.shape[1]})")
    w = check_sample_weight(sample_weight, len(yt))
    if w is not None:
        w = w.astype(dtype, copy=False)
    return yt, yp, w, _output_weights(multioutput, yt.shape[1], spec)


# -- Spark's rows and count matrices --------------------------------------------------------

_ROWS = "rows of (score, label) or (score, label, weight)"


def _spark_rows(score_and_labels, name):
    """Spark's input rows as an n x 2 or n x 3 array (not yet checked for numbers)."""
    arr = as_array(score_and_labels, name, ndim=None, expected=_ROWS,
                   empty="at least one (score, label) row is needed",
                   ragged=": every row must be (score, label) or (score, label, weight)")
    if arr.ndim == 2 and arr.shape[1] in (2, 3):
        return arr
    hint = ""
    if arr.ndim == 2 and arr.shape[0] in (2, 3) and arr.shape[1] > 3:
        hint = (": columns, not rows? Pass np.column_stack((scores, labels)) or "
                "list(zip(scores, labels))")
    raise ValueError(f"{name} must hold n {_ROWS}, got an array of shape {arr.shape}{hint}")


def _refuse_rounding(arr, name):
    """Refuse floats wider than a double whose values a double (Spark's type) cannot hold."""
    if arr.dtype.kind != "f" or arr.dtype.itemsize <= 8:
        return
    rounded = np.isfinite(arr) & (arr.astype(np.float64) != arr)
    if rounded.any():
        raise TypeError(f"{name} holds {arr.dtype} values that a double (Spark's type) "
                        "cannot hold exactly: rounding them could tie distinct scores; "
                        "cast to float64 yourself if that is what you mean")


def check_score_and_labels(score_and_labels, name="score_and_labels", *, what=("scores", "labels")):
    """Spark's input rows: n x 2 ``(score, label)`` or n x 3 ``(score, label, weight)``."""
    arr = _spark_rows(score_and_labels, name)
    arr = check_real_values(arr, name, finite=False)
    _refuse_rounding(arr, name)
    arr = arr.astype(np.float64)
    for col in (0, 1):
        column = arr[:, col]
        if np.isfinite(column).all():
            continue
        bad = "infinite"
        if np.isnan(column).any():
            bad = "NaN"
        raise ValueError(f"{name} contains {bad} {what[col]} (column {col})")
    weights = None
    if arr.shape[1] == 3:
        weights = check_sample_weight(arr[:, 2], arr.shape[0], name=f"{name} column 2 (weights)")
    return np.array(arr[:, 0]), np.array(arr[:, 1]), weights  # contiguous copies


def check_count_matrix(counts, name="counts", *, whole=False):
    """A square confusion matrix of finite counts >= 0 (``whole``: whole numbers). Not copied."""
    m = as_array(counts, name, ndim=None, expected="a square matrix of counts",
                 ragged=": it must be a square matrix (C x C)", empty=False)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise ValueError(f"{name} must be a square matrix (C x C), got shape {m.shape}")
    m = check_real_values(m, name, finite=False)
    finite = np.isfinite(m).all()
    negative = (m < 0).any()
    if whole:
        if not finite or negative or (m != np.round(m)).any():
            raise ValueError(f"{name} must be whole non-negative numbers (one sample per count)")
    if not finite:
        raise ValueError(f"{name} contains NaN or infinite values")
    if negative:
        raise ValueError(f"{name} contains negative values: counts must be >= 0")
    return m


def check_row_labels(labels, n_rows, name="labels", *, of="counts"):
    """Labels naming the rows (and columns) of a matrix: 1-D, one per row."""
    lab = np.asarray(labels)
    if lab.ndim != 1 or len(lab) != n_rows:
        raise ValueError(f"{name} must have one entry per row of {of} ({n_rows}), "
                         f"got {len(np.ravel(lab))}")
    return lab
