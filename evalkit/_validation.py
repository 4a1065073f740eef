"""Input validation, once, at the public boundary; private code trusts what comes out.

A bad value raises ``ValueError`` (right type, wrong value) or ``TypeError`` (wrong type),
the message starting with the argument's name. **Options** are declared with :func:`validate_params`
and small specs (:class:`Interval`, :class:`Options`, :class:`Satisfies`, constants such as
:data:`AVERAGE`), cross-argument rules as :func:`check_rules` tables (:data:`EXACTLY_ONE`, ...).
**Arrays** go through one core, :func:`as_array` and :func:`check_real_values`, under a few readers:
real arrays (:func:`check_real`), labels (:func:`check_labels`, :func:`check_targets`,
:func:`check_label_list`), weights, ranked lists, counts.
"""

from __future__ import annotations

import array
import contextlib
import functools
import inspect
import itertools
import math
import numbers
import operator

import numpy as np

from .exceptions import warn_at_caller

# -- declared options: the specs and validate_params ------------------------------------

_KINDS = {bool: "b", np.bool_: "b", int: "i", float: "f", str: "s", type(None): "n"}


def _kind(v):
    """The kind of a scalar: "b"ool, "i"nteger, "f"loat (real), "s"tring, "n"one, "" other."""
    t = type(v)
    if t not in _KINDS:
        _KINDS[t] = ("b" if isinstance(v, np.bool_) else "i" if isinstance(v, numbers.Integral)
                     else "f" if isinstance(v, numbers.Real) else "s" if isinstance(v, str) else "")
    return _KINDS[t]


def _join(parts):
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


class Interval:
    """A number of ``kind`` (``"integer"``, ``"real"`` or ``"count"``: whole) from ``low`` to ``high``."""

    def __init__(self, kind, low=None, high=None, *, closed="both", meaning="", finite=True):
        self.integer, self.count = kind == "integer", kind == "count"
        self.low, self.high, self.meaning, self.finite = low, high, meaning, finite
        ol, oh = self.open_low, self.open_high = closed in ("right", "neither"), closed in ("left", "neither")
        self.kind = "an integer" if self.integer else "an integer count" if self.count else "a real number"
        self.range = ("" if low is None and high is None else f"strictly between {low} and {high}"
                      if None not in (low, high) and ol and oh else
                      f"in {'(' if ol else '['}{low}, {high}{')' if oh else ']'}" if None not in (low, high)
                      else f"{'>' if ol else '>='} {low}" if low is not None else
                      f"{'<' if oh else '<='} {high}")
        self.what = f"{self.kind} {self.range}".strip()

    def type_ok(self, v):  # a "count" is an integer or an integral float (90.0), not a bool
        kind = _kind(v)
        return kind == "i" or (kind == "f" and not self.integer and (
            not self.count or v != v or math.isinf(v) or v == int(v)))

    def accepts(self, v):
        if not self.type_ok(v) or v != v or (self.finite and not self.integer and math.isinf(v)):
            return False
        lo, hi = self.low, self.high
        return ((lo is None or (v > lo if self.open_low else v >= lo))
                and (hi is None or (v < hi if self.open_high else v <= hi)))

    def fail(self, v, name, none=False):
        if not self.type_ok(v):
            raise TypeError(f"{name} must be {self.kind}{' or None' if none else ''}, got {v!r}")
        meaning = f" ({self.meaning})" if self.meaning else ""
        raise ValueError(f"{name} must be finite, got {v!r}" if v == v and math.isinf(v) and self.finite else
                         f"{name} must be {self.range}{meaning}; got {v!r}" if self.range else
                         f"{name} must not be NaN")


# Integer(1), Real(0, 1, closed="right"), Count(0) (a whole number, 90.0 too): Interval by kind
Integer, Real, Count = (functools.partial(Interval, kind) for kind in ("integer", "real", "count"))


class Options:
    """One of a set of values: strings, ``None``, booleans or numbers (NaN too)."""

    def __init__(self, values):
        self.values, self.exact = values, {m for m in values if _kind(m) in ("n", "s")}
        self.bools = {bool(m) for m in values if _kind(m) == "b"}
        nums = [m for m in values if _kind(m) in ("i", "f")]
        self.nan, self.numbers = any(m != m for m in nums), {m for m in nums if m == m}
        self.kinds = {_kind(m) for m in values} | ({"i", "f"} if nums else set())
        self.what = self.describe()

    def type_ok(self, v):  # in a list of specs, a value of no member's kind is a TypeError
        return _kind(v) in self.kinds

    def accepts(self, v):
        kind = _kind(v)
        return (v in self.exact if kind in ("n", "s") else bool(v) in self.bools if kind == "b" else
                (v in self.numbers if v == v else self.nan) if kind in ("i", "f") else False)

    def describe(self, none=False):
        extra = ["None"] if none and None not in self.exact else []
        if isinstance(self.values, dict):
            return _join([f"{c!r} ({m})" if m else repr(c) for c, m in self.values.items()] + extra)
        return "one of " + ", ".join(extra + [repr(c) for c in self.values])

    def fail(self, v, name, none=False):
        raise ValueError(f"{name} must be {self.describe(none)}; got {v!r}")


class Satisfies:
    """A value for which ``test(value)`` is true (if not ``of(value)``: a wrong type, a TypeError)."""

    def __init__(self, test, what, of=None):
        self.test, self.what, self.of = test, what, of

    def type_ok(self, v):
        return bool(self.of(v) if self.of else self.test(v))

    def accepts(self, v):
        return self.type_ok(v) and bool(self.test(v))

    def fail(self, v, name, none=False):
        error = ValueError if self.type_ok(v) else TypeError
        raise error(f"{name} must be {self.what}{' or None' if none else ''}, got {v!r}")


def InstanceOf(types, what):
    """An instance of ``types``; ``what`` names it in the message ("a numpy.random.Generator")."""
    return Satisfies(lambda v: isinstance(v, types), what)


Bool = functools.partial(InstanceOf, (bool, np.bool_), "True or False")  # numpy's too; not 1 or "yes"


def _compile(spec):
    """A function ``check(value, name)`` for one declaration (a spec, None, a list, a function)."""
    if callable(spec) and not hasattr(spec, "accepts"):  # a check_* function
        return spec
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    none = None in specs and len(specs) > 1
    specs = [s for s in specs if s is not None] or [InstanceOf(type(None), "None")]

    def check(v, name):
        if (none and v is None) or any(s.accepts(v) for s in specs):
            return
        if len(specs) == 1:
            specs[0].fail(v, name, none)
        error = ValueError if any(s.type_ok(v) for s in specs) else TypeError
        raise error(f"{name} must be {_join([s.what for s in specs] + ['None'] * none)}; got {v!r}")
    return check


def check(value, spec, name):
    """Check one value against a spec (or a list of specs) as :func:`validate_params` does."""
    _compile(spec)(value, name)
    return value


def validate_params(**specs):
    """Declare a function's options once, above it; they are checked before its body runs.

    Each keyword names a parameter and gives its spec: an :class:`Interval` (``Integer``,
    ``Real``, ``Count``), :class:`Options`, ``Bool()``, :func:`InstanceOf`, :class:`Satisfies`,
    ``None`` (the value ``None``), a list of them (any one may match), or a function
    ``check(value, name)`` that raises. A bad value raises ``ValueError`` (the right type, out
    of range or not an option) or ``TypeError`` (a wrong type), the message starting with the
    parameter's name. Values are checked, not converted; defaults are not checked
    (``tests/test_bad_input.py`` checks them once).

    >>> @validate_params(k=Integer(1, meaning="the number of top predictions kept"),
    ...                  n_bins=[Options({"auto": "one bin per distinct score"}), Integer(1)])
    ... def metric(y_true, *, k=1, n_bins="auto"):
    ...     return k
    >>> metric([1], n_bins=0)
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be 'auto' (one bin per distinct score) or an integer >= 1; got 0
    """
    def decorate(func):
        params = list(inspect.signature(func).parameters.values())
        plan = []
        for name, spec in specs.items():
            pos = next((i for i, p in enumerate(params) if p.name == name), None)
            if pos is None:
                raise TypeError(f"validate_params: {func.__qualname__} has no parameter {name!r}")
            if params[pos].kind not in (params[pos].POSITIONAL_ONLY, params[pos].POSITIONAL_OR_KEYWORD):
                pos = math.inf  # keyword-only
            plan.append((name, pos, _compile(spec)))

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for name, pos, check_one in plan:
                if pos < len(args):
                    check_one(args[pos], name)
                elif name in kwargs:
                    check_one(kwargs[name], name)
            return func(*args, **kwargs)

        wrapper.param_specs = specs
        return wrapper
    return decorate


def sum_from_zero(self, other):
    """``__radd__`` of counts that add: ``sum(parts)`` starts from 0, so ``0 + counts`` is them."""
    if isinstance(other, numbers.Integral) and not isinstance(other, bool) and other == 0:
        return self
    return NotImplemented


def check_rules(rules, **values):
    """Cross-argument rules as data: ``(refuse(values), message)``; the first refusal raises."""
    for refuse, message in rules:
        if refuse(values):
            raise ValueError(message(values) if callable(message) else message.format(**values))


# -- the usual options, declared once --------------------------------------------------------

AVERAGES = (None, "binary", "micro", "macro", "weighted")  # precision, recall and F-beta (prf)
AVERAGE = Options(AVERAGES)
AVERAGES_SAMPLES = AVERAGES + ("samples",)  # ... of multilabel input too
AVERAGES_OF_SCORES = (None, "micro", "macro", "samples", "weighted")  # roc_auc_score, AP
AVERAGES_TOP_K = (None, "micro", "macro", "weighted")  # top-k and Spark's per-class averages
NUM_BINS = Integer(0, meaning="0 means no down-sampling")  # Spark's numBins
#: What a sample of weight 0 does to a curve (``zero_weight=``): the two libraries differ.
ZERO_WEIGHTS = {
    "drop": "scikit-learn: dropped before the sweep, its score makes no threshold",
    "keep": "Spark: its score is a threshold like any other (no counts added there)",
}
ZERO_WEIGHT = Options(ZERO_WEIGHTS)
BETA = Real(0, None, finite=False, meaning="it weighs recall beta times as much as precision")
ZERO_DIVISION = Options({"warn": "", 0.0: "", 1.0: "", np.nan: ""})
ZERO_DIVISION_SPARK = Options({"warn": "", 0.0: "", 1.0: "", np.nan: "", "spark": ""})
K = Integer(1, meaning="the number of top predictions kept")
DIGITS = Integer(0)
TIES = Options({"first": "lower column index wins, as argmax",
                "last": "higher column index wins, as sklearn's top_k_accuracy_score"})
MAX_FPR = [None, Real(0, 1, closed="right", meaning="the largest false positive rate kept")]
CONFIDENCE = Real(0, 1, closed="neither", meaning="0.95 for a 95 % interval")
COUNT = Real(0, meaning="it is a count")
POS_LABEL = Satisfies(lambda v: isinstance(v, (numbers.Real, str, bytes, np.bool_)) and v == v,
                      "one label (a number, a bool or a string)")
RANDOM_STATE = [None, Integer(0, meaning="a seed"),
                InstanceOf(np.random.Generator, "a numpy.random.Generator")]
WARN_FOR = Satisfies(lambda v: all(i in ("precision", "recall", "f-score") for i in v), "a tuple, list or set of "
                     "'precision', 'recall', 'f-score'", of=lambda v: isinstance(v, (tuple, list, set, frozenset)))
RATING_RANGE = Satisfies(lambda v: v[0] < v[1], "a pair (lo, hi) of finite numbers with lo < hi, the lowest "
                         "and highest possible rating", of=lambda v: not isinstance(v, (
                             str, bytes, set, frozenset, dict)) and hasattr(v, "__len__") and len(v) == 2
                         and all(Real().accepts(x) for x in v))
MULTIOUTPUT = [Options(("raw_values", "uniform_average")),
               Satisfies(lambda v: v is not None and not np.isscalar(v), "an array of output weights")]
#: R² and explained variance also weigh the outputs by the variance of y_true
MULTIOUTPUT_R2 = [Options(("raw_values", "uniform_average", "variance_weighted")), MULTIOUTPUT[1]]
# rules for check_rules: exactly one of the named arguments given; a sweep with the classes a curve needs
EXACTLY_ONE = [(lambda v: sum(x is not None for x in v.values()) != 1,
                lambda v: f"{' and '.join(v)}: give exactly one of them")]
POSITIVES = [(lambda v: v["sweep"].n_pos == 0, "y_true has no positive samples: {why}")]
BOTH_CLASSES = POSITIVES + [(lambda v: v["sweep"].n_neg == 0, "y_true has no negative samples: {why}")]


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
    """A large array's finite sum says all is finite: one pass, no temporary (else look: it may overflow)."""
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
            first, kind = next(((v, "U" if isinstance(v, (str, bytes)) else "c") for v in arr.flat
                                if isinstance(v, (str, bytes, complex, np.complexfloating))), (first, "O"))
        if kind in "USc":
            raise TypeError(f"{name} must hold " + ("real numbers, got complex numbers" if kind == "c" else
                                                    "numbers, got strings") + f" such as {_py(first)!r}")
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


def check_real(y, name="y_score", *, finite=True, allow_nan=False, floats=False, proba=False, **shape):
    """The one reader of real arrays (``**shape``: as_array's); ``floats``: float64, ``proba``: in [0, 1].

    >>> check_real([0.2, 1.5], "y_proba", proba=True)
    Traceback (most recent call last):
    ...
    ValueError: y_proba contains values outside [0, 1] such as 1.5: give probabilities, not decision scores
    """
    arr = check_real_values(as_array(y, name, **{"expected": "an array-like of numbers", **shape}), name,
                            finite=finite, allow_nan=allow_nan)
    arr = arr.astype(np.float64) if (floats or proba) and arr.dtype.kind != "f" else arr
    if proba and ((arr < 0) | (arr > 1)).any():
        raise ValueError(f"{name} contains values outside [0, 1] such as "
                         f"{arr.flat[np.argmax((arr < 0) | (arr > 1))].item()!r}: give "
                         "probabilities, not decision scores")
    return arr


def check_score_matrix(y_score, name="y_score", *, allow_1d=False, k=None, labels=False):
    """n x C finite real scores as floats (``labels``: n x m ranked labels, 1-D is m = 1); k <= C."""
    if labels:
        arr = as_array(y_score, name, ndim=(1, 2), expected="an n x m array-like of labels", shape="2-D (n "
                       "samples x m ranked labels)", ragged=": every row must rank the same number of labels")
    else:
        arr = check_real(y_score, name, ndim=(1, 2) if allow_1d else 2, floats=True, shape="2-D (n samples x "
                         "C classes)", ragged=": every row must score the same classes", empty="at least one "
                         "sample and one class are needed")
    arr = arr[:, None] if labels and arr.ndim == 1 else arr
    if k is not None and k > arr.shape[-1]:
        raise ValueError(f"k={k} is larger than the {arr.shape[-1]} columns of {name}: "
                         f"k must be between 1 and {arr.shape[-1]}")
    return arr


def check_monotonic(x, name="x"):
    """At least 2 points, increasing or decreasing (the trapezoid rule's ``x``): 1.0 or -1.0."""
    if len(x) < 2:
        raise ValueError(f"At least 2 points are needed to compute area under curve, but {name} has {len(x)}")
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
        raise ValueError(f"{' and '.join(names)} have different lengths ({' and '.join(map(str, lengths))})")


def check_regression_targets(y_true, y_pred, sample_weight=None, multioutput="uniform_average",
                             *, max_ndim=2, spec=MULTIOUTPUT):
    """Regression targets n x m in the dtype scikit-learn uses, weights, multioutput (by ``spec``)."""
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


# -- labels --------------------------------------------------------------------------------

def check_labels(y, name):
    """Class labels: 1-D, non-empty, discrete (ints, bools, integral floats, strings), one kind."""
    arr = as_array(y, name)
    if arr.dtype.kind in "US" and isinstance(y, (list, tuple)) and not all(
            isinstance(v, (str, bytes)) for v in y):
        arr = np.asarray(y, dtype=object)  # numpy silently turned ["a", 1] into strings
    if arr.dtype.kind == "O":
        has_str = [isinstance(v, (str, bytes)) for v in arr]
        if any(has_str) and not all(has_str):
            raise TypeError(f"{name} mixes strings and numbers; use one kind of label (e.g. all strings)")
        if any(has_str) or all(isinstance(v, (bool, np.bool_)) for v in arr):
            return arr if any(has_str) else arr.astype(bool)
        arr = check_real_values(arr, name, finite=False)
    if arr.dtype.kind not in "biufUS":
        raise TypeError(f"{name} must hold class labels (integers, booleans or strings), "
                        f"got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        frac = check_real_values(arr, name) != np.round(arr)
        if frac.any():
            raise ValueError(f"{name} contains non-integer numbers such as {arr[np.argmax(frac)].item()!r}: "
                             "class labels must be discrete (integers, booleans or strings), not scores")
    return arr


def check_same_kind(a, b, names):
    """Refuse two label arrays of which one holds strings and the other numbers."""
    kinds = ["strings" if _is_string_like(x) else "numbers" for x in (a, b)]
    if kinds[0] != kinds[1]:
        raise TypeError(f"{' and '.join(names)} hold different kinds of labels ({' and '.join(kinds)}); "
                        "use the same kind in both")


def check_targets(y_true, y_pred, *, names=("y_true", "y_pred")):
    """A pair of label arrays: ``("binary" or "multiclass", y_true, y_pred)``."""
    yt, yp = check_labels(y_true, names[0]), check_labels(y_pred, names[1])
    check_same_length(**{names[0]: yt, names[1]: yp})
    check_same_kind(yt, yp, names)
    # no sort: a second distinct value (usually among the first labels), then every label against both
    first = yt[0]
    second = next((a[i] for a in (yt[:64], yp[:64], yt, yp) for i in [np.argmax(a != first)] if a[i] != first),
                  first)
    binary = all(((a == first) | (a == second)).all() for a in (yt, yp))
    return ("binary" if binary else "multiclass"), yt, yp


def check_indicator(y, name, *, shape=None):
    """A multilabel indicator matrix: n x L (L >= 2) of 0 and 1, as booleans."""
    m = as_array(y, name, ndim=(1, 2))
    if (m.ndim != 2 or m.shape[1] < 2 or m.dtype.kind not in "biuf" or not ((m == 0) | (m == 1)).all()
            or m.shape != (shape or m.shape)):
        raise ValueError(f"{name} must be a 0/1 indicator matrix of shape {shape or '(n, L)'} (a multilabel "
                         f"indicator: n samples x L >= 2 labels), got shape {m.shape}" + ("; a mix of "
                         "multilabel-indicator and multiclass targets is refused" if shape else ""))
    return m.astype(bool)


def refuse_matrix_beside_vector(y_pred, name="y_pred"):
    """A 2-D ``y_pred`` beside a 1-D ``y_true``: refused, naming ``y_pred``.

    scikit-learn ravels an (n, 1) column silently; evalkit refuses it (a
    column is often a mistake: scores of one class, a DataFrame's column).
    """
    yp = as_array(y_pred, name, ndim=(1, 2, 3))
    hint = ("a column of shape (n, 1) is refused (scikit-learn ravels it): pass y_pred.ravel()"
            if yp.shape[1:] == (1,) else "a mix of multiclass and multilabel-indicator targets is refused")
    raise ValueError(f"{name} must be 1-D like y_true, got an array of shape {yp.shape}: {hint}")


def check_label_list(labels, name="labels", *, classes=None, n=None, of="y_score", ordered=False,
                     indices=None, in_y_true=None):
    """``labels=``: 1-D, non-empty, no duplicates, of the kind and count the data needs."""
    lab = as_array(labels, name, expected="an array-like of labels",
                   empty="give at least one label, or None for all")
    if classes is not None:
        check_same_kind(lab, classes, (name, "the labels in the data"))
    lab = lab.astype(str) if _is_string_like(lab) else check_labels(lab, name)
    uniq, counts = np.unique(lab, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"{name} contains duplicates such as {uniq[counts > 1][0].item()!r}")
    if n is not None and len(lab) != n:
        raise ValueError(f"{name} has {len(lab)} entries but {of} has {n} columns: give one label per column")
    if ordered and not (uniq == lab).all():
        raise ValueError(f"{name} must be sorted (column j of {of} scores the j-th "
                         "smallest label, as in scikit-learn)")
    if in_y_true is not None and not np.isin(lab, in_y_true).any():
        raise ValueError(f"{name}: at least one label given must occur in y_true")
    if indices is not None and (lab.dtype.kind not in "iu" or lab.min() < 0 or lab.max() >= indices):
        raise ValueError(f"{name} must be column indices in [0, {indices}) for multilabel targets "
                         f"(All labels must be in [0, n labels)); got {lab.tolist()}")
    return lab


def check_column_classes(y, labels, n_columns, *, of="y_score", sklearn=True):
    """A score matrix's column labels (default: sklearn's sorted classes, else 0..C-1) and y's columns."""
    if labels is None and sklearn and len(np.unique(y)) != n_columns:
        raise ValueError(f"{of} has {n_columns} columns but y_true has {len(np.unique(y))} "
                         "classes; give labels= with every class, in sorted order")
    columns = ((np.unique(y) if sklearn else np.arange(n_columns)) if labels is None else check_label_list(
        labels, classes=y if sklearn else None, n=n_columns, of=of, ordered=sklearn))
    check_same_kind(y, columns, ("y_true", "labels"))
    sorter = np.argsort(columns, kind="stable")
    pos = np.minimum(np.searchsorted(columns[sorter], y), len(columns) - 1)
    found = columns[sorter][pos] == y
    if not found.all():
        raise ValueError(f"y_true contains labels that name no column of {of}, such as "
                         f"{y[np.argmin(found)].item()!r}: name the columns with labels=")
    return columns, sorter[pos]


#: ``positive_of(binary=...)`` of probabilities: what to give instead of more classes
BINARY_PROBA = ("{what} is binary here: give a 2-D y_proba (one column per class) or one "
                "class's labels")


def positive_of(y, pos_label=None, *, larger=False, binary="", name="y_true"):
    """The one resolver of the positive class: a boolean mask of validated labels ``y``.

    scikit-learn's rule: ``pos_label`` names the positive class (it must be one
    of the labels when two or more are present) and every other label is
    negative. Unnamed, labels in {0, 1} or {-1, 1} take 1 as positive; other
    numbers take the larger label when ``larger`` (``"numbers"``: numbers
    only, as ``brier_score_loss``; True: strings too, in ``np.unique`` order,
    as ``roc_auc_score``), else are refused. ``binary`` (what is binary, and how to
    give more classes): more than two labels are refused, saying so. Numbers are
    resolved by min and max, without a sort.

    >>> positive_of(np.array([0, 1, 1])).tolist()
    [False, True, True]
    >>> positive_of(np.array(["ham", "spam"]), "spam").tolist()
    [False, True]
    """
    if pos_label is None and y.dtype.kind in "biuf":
        mask = _unnamed_positive(y, larger)
        if mask is not None:
            return mask
    classes = np.unique(y)
    if binary and len(classes) > 2:
        raise ValueError(f"{name} has {len(classes)} classes: {binary}")
    if pos_label is not None:
        if len(classes) >= 2:
            check_pos_label(pos_label, classes)
        return y == pos_label
    if larger is True or (larger and classes.dtype.kind in "biuf"):
        return y == classes[-1]
    shown = classes.tolist() if len(classes) <= 10 else classes[:10].tolist() + ["..."]
    raise ValueError(f"{name} takes values in {shown} and pos_label is not specified: either "
                     f"make {name} take values in {{0, 1}} or {{-1, 1}}, or pass pos_label "
                     "(the positive class) explicitly")


def _unnamed_positive(y, larger):
    """The positive mask of numeric labels without a ``pos_label``, or None (then sorted)."""
    if y.dtype.kind == "b":
        return y
    if y.dtype.kind in "iu" and 0 <= np.bitwise_or.reduce(y) <= 1:  # {0, 1}: one pass
        return y.astype(bool)
    lo, hi = y.min(), y.max()
    if lo >= -1 and hi <= 1 and not (lo == -1 and (y == 0).any()):
        return y == 1
    positive = y == hi
    two = lo == hi or np.count_nonzero(positive) + np.count_nonzero(y == lo) == len(y)
    return positive if larger and two else None


def check_pos_label(pos_label, present, name="pos_label"):
    """A ``pos_label`` among the labels ``present``."""
    check(pos_label, [None, POS_LABEL], name)
    if not np.isin(np.asarray([pos_label], dtype=object), np.asarray(present).astype(object)).any():
        raise ValueError(f"{name}={pos_label!r} is not a valid label: it should be one of "
                         f"{np.asarray(present).tolist()}")
    return pos_label


def check_target_names(target_names, n_classes, *, strict, classes=None):
    """A report's row names, one per class: another length raises if ``strict``, else warns."""
    if isinstance(target_names, (str, bytes, set, frozenset, dict)) or np.isscalar(target_names):
        raise TypeError(f"target_names must be a list of names, one per class, got {target_names!r}")
    names = list(target_names)
    if len(names) != n_classes and strict:
        raise ValueError(f"target_names has {len(names)} names but " + (
            f"the report has {n_classes} classes ({list(classes)})" if classes is not None else f"there are "
            f"{n_classes} classes in y_true and y_pred; give labels= to choose the classes they name"))
    if len(names) != n_classes:
        warn_at_caller(f"labels size, {n_classes}, does not match size of target_names, "
                       f"{len(names)}", UserWarning)
    return names


# -- Spark's rows and count matrices --------------------------------------------------------

def check_score_and_labels(score_and_labels, name="score_and_labels", *, what=("scores", "labels")):
    """Spark's input rows: n x 2 ``(score, label)`` or n x 3 ``(score, label, weight)``."""
    rows = "rows of (score, label) or (score, label, weight)"
    arr = as_array(score_and_labels, name, ndim=None, expected=rows, empty="at least one (score, label) "
                   "row is needed", ragged=": every row must be (score, label) or (score, label, weight)")
    if arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise ValueError(f"{name} must hold n {rows}, got an array of shape {arr.shape}" + (
            ": columns, not rows? Pass np.column_stack((scores, labels)) or list(zip(scores, labels))"
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
        raise ValueError(f"{name} must have one entry per row of {of} ({n_rows}), got {len(np.ravel(lab))}")
    return lab


# -- ranked lists and relevant items: flat item ids and row offsets, for the hit finder -----

def _id_kind(t):
    """The kind of item id of type ``t`` as messages name it ("numbers", "strings", ...)."""
    if t.__hash__ is None or issubclass(t, np.ndarray):
        return "unhashable"
    return ("complex numbers" if issubclass(t, (complex, np.complexfloating)) else "numbers" if issubclass(
        t, (bool, np.bool_, numbers.Real)) else "strings" if issubclass(t, str) else "bytes"
        if issubclass(t, bytes) else "other hashable values")


def check_item_ids(flat, name):
    """Item ids (a list or 1-D array): hashable, one kind (numbers, strings...), no NaN."""
    arr = flat if isinstance(flat, np.ndarray) and flat.dtype.kind in "biufUS" else None
    if arr is None and isinstance(flat, list) and flat:
        with contextlib.suppress(TypeError, OverflowError):  # Python ints: one strict C loop; else by type
            arr = np.frombuffer(array.array("q", flat), dtype=np.int64)
    if arr is None:
        kinds = {t: _id_kind(t) for t in set(map(type, flat))}
        groups = set(kinds.values())
        if "unhashable" in groups:
            bad = next(v for v in flat if kinds[type(v)] == "unhashable")
            raise TypeError(f"{name} holds unhashable item ids such as {bad!r} ({type(bad).__name__}): "
                            "ids must be numbers, strings or other hashable values")
        if len(groups) > 1 or "complex numbers" in groups:
            raise TypeError(f"{name} mixes {' and '.join(sorted(groups))} as item ids; use one kind of "
                            "id (e.g. all strings)" if len(groups) > 1 else
                            f"{name} holds complex numbers as item ids")
        if groups == {"other hashable values"}:
            return np.fromiter(flat, dtype=object, count=len(flat))
        arr = np.asarray(flat) if len(flat) else np.zeros(0, dtype=np.int64)
        arr = arr.astype(np.float64) if groups == {"numbers"} and arr.dtype.kind not in "biuf" else arr
    if arr.dtype.kind == "f" and arr.size and not np.isfinite(arr).all():
        raise ValueError(f"{name} holds {'NaN' if np.isnan(arr).any() else 'infinite values'} as item ids")
    return arr.astype(np.int64) if arr.dtype.kind == "b" else arr


def _lists(value, name, what, n_users=None):
    """Per-user rows of ids: ``(items, offsets, rows)``; ``n_users``: sets, dicts, one id per user too."""
    _array_like(value, name, what)
    rows = value if isinstance(value, np.ndarray) and value.dtype != object else \
        list(value.values if hasattr(value, "values") else value)
    wrong = (isinstance(rows, np.ndarray) and rows.ndim not in ((2,) if n_users is None else (1, 2)))
    if not len(rows) or len(rows) != (n_users or len(rows)) or wrong:
        raise ValueError(f"{name} is empty: at least one user is needed" if not len(rows) else
                         f"{name} must be 2-D (users x items) or a list of lists, got an array of shape "
                         f"{rows.shape}" if wrong else f"ranked and {name} have different numbers of "
                         f"users ({n_users} and {len(rows)})")
    if isinstance(rows, np.ndarray):
        rows = rows[:, None] if rows.ndim == 1 else rows
        return check_item_ids(rows.reshape(-1), name), np.arange(len(rows) + 1) * rows.shape[1], rows
    kinds, array_row = set(map(type, rows)), (np.ndarray, str, bytes, np.generic)
    if any(hasattr(t, "__array__") and not issubclass(t, array_row) for t in kinds):  # pandas Series...
        rows = [np.asarray(r) if hasattr(r, "__array__") and not isinstance(r, array_row) else r
                for r in rows]
        kinds = set(map(type, rows))
    ok = (list, tuple, np.ndarray) + ((set, frozenset, dict) if n_users else ())
    if n_users and not any(issubclass(t, ok) for t in kinds):  # one id per user
        return check_item_ids(rows, name), np.arange(n_users + 1), rows
    if not all(issubclass(t, ok) for t in kinds):
        i, r = next((i, r) for i, r in enumerate(rows) if not isinstance(r, ok))
        raise TypeError(f"{name}[{i}] is " + (
            f"a {type(r).__name__}: a ranked list must be ordered (a list, tuple or array, best item "
            "first)" if isinstance(r, (set, frozenset, dict)) else f"the single value {r!r}, not a "
            "list: give one list of item ids per user" if np.isscalar(r) or r is None
            else f"a {type(r).__name__}, not a list of item ids"))
    if np.ndarray in kinds and (kinds != {np.ndarray} or set(map(operator.attrgetter("ndim"), rows)) != {1}):
        i = next((i for i, r in enumerate(rows) if isinstance(r, np.ndarray) and r.ndim != 1), None)
        if i is not None:
            raise ValueError(f"{name}[{i}] must be 1-D, got an array of shape {rows[i].shape}")
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=len(rows)), out=offsets[1:])
    flat = (np.concatenate(rows) if offsets[-1] else np.zeros(0, np.int64)) if kinds == {np.ndarray} \
        else list(itertools.chain.from_iterable(rows))
    return check_item_ids(flat, name), offsets, rows


def check_ranked(ranked, name="ranked", *, needed=""):
    """Ranked lists, one per user, best first: ``(items, offsets)``, row i ``items[o[i]:o[i+1]]``."""
    items, offsets, _ = _lists(ranked, name, "one ranked list of item ids per user (a list of lists "
                               "or a 2-D array)")
    if needed and not len(items):
        raise ValueError(f"{name} recommends no item: {needed} is undefined")
    return items, offsets


def check_grades(grades, name="relevant"):
    """Relevance grades: real numbers, finite, >= 0 (0 = judged not relevant), as float64."""
    arr = check_real(grades, name, empty=False).astype(np.float64)
    if (arr < 0).any():
        raise ValueError(f"{name} has negative relevance grades such as {arr[arr < 0][0].item()!r}:"
                         " grades must be >= 0 (0 means not relevant)")
    return arr


def check_relevant(relevant, n_users, name="relevant"):
    """Each user's relevant items (dicts: id -> grade): ``(items, offsets, grades or None)``."""
    items, offsets, rows = _lists(relevant, name, "the relevant items of each user (a list of sets, "
                                  "lists or dicts item -> grade)", n_users)
    if isinstance(rows, np.ndarray) or not any(issubclass(t, dict) for t in set(map(type, rows))):
        return items, offsets, None
    grades = itertools.chain.from_iterable(r.values() if isinstance(r, dict) else [1.0] * len(r)
                                           for r in rows)
    return items, offsets, check_grades(list(grades), name)


def check_lists(ranked, relevant):
    """Ranked and relevant lists of the same users, ids of one kind."""
    r_items, r_off = check_ranked(ranked)
    t_items, t_off, grades = check_relevant(relevant, len(r_off) - 1)
    kinds = {_id_kind(a.dtype.type) for a in (r_items, t_items) if len(a)}
    if len(kinds) > 1:
        raise TypeError(f"ranked and relevant hold different kinds of item ids ({' and '.join(kinds)}"
                        "): no item could ever be a hit; use the same kind in both")
    return r_items, r_off, t_items, t_off, grades


def check_catalog(catalog, items, name="catalog"):
    """A catalogue holding the recommended ``items`` (a size or the ids): its size."""
    distinct = len(set(items.tolist())) if items.dtype == object else len(np.unique(items))
    if isinstance(catalog, numbers.Integral):
        if distinct > catalog:
            raise ValueError(f"{name}={catalog} is smaller than the {distinct} distinct items recommended")
        return int(catalog)
    cat = check_item_ids(catalog if isinstance(catalog, np.ndarray) else list(catalog), name)
    known = set(cat.tolist())
    missing = [v for v in items.tolist() if v not in known]
    if not len(cat) or len(missing):
        raise ValueError(f"{name} is empty: at least one item is needed" if not len(cat) else
                         f"ranked recommends items that are not in {name}, such as {missing[0]!r}")
    return len(known)


def check_columns(frame, what, **columns):
    """The named columns of a table (a DataFrame or a mapping), arrays of one length."""
    out = {}
    for arg, col in columns.items():
        if col is not None and frame is None:
            raise ValueError(f"{arg} names a column of {what}, but {what} is None")
        try:
            values = None if col is None else frame[col]
        except (KeyError, IndexError, TypeError, ValueError):
            raise ValueError(f"{what} has no column {col!r}") from None
        out[f"{what}[{col!r}]"] = None if col is None else as_array(values, f"{what}[{col!r}]")
    check_same_length(**out)
    return list(out.values())


def check_relevance_scores(y_true, y_score, sample_weight, metric="DCG"):
    """scikit-learn's ``dcg_score``/``ndcg_score`` input: relevance, scores, weights."""
    yt, ys = check_score_matrix(y_true, "y_true"), check_score_matrix(y_score, "y_score")
    if yt.shape != ys.shape or yt.shape[1] < 2 or (metric == "NDCG" and (yt < 0).any()):
        raise ValueError(
            f"y_true and y_score have different shapes ({yt.shape} and {ys.shape}): one row per "
            "query, one column per document" if yt.shape != ys.shape else
            f"{metric} is only meaningful when there is more than 1 document per row; y_true has "
            f"{yt.shape[1]} column" if yt.shape[1] < 2 else f"y_true has negative values such as "
            f"{yt[yt < 0][0].item()!r}: ndcg_score should not be used on negative y_true values")
    return yt.astype(np.float64, copy=False), ys, check_sample_weight(sample_weight, yt.shape[0])


def check_ranking_rows(rows, name="predictionAndLabels"):
    """Spark's ``RankingMetrics`` rows: at least one ``(prediction, labels[, relevance])``."""
    rows = [tuple(r) if isinstance(r, (tuple, list)) else r for r in rows]
    if not rows or not all(isinstance(r, tuple) and len(r) in (2, 3) for r in rows):
        raise ValueError(f"{name} must hold at least one (prediction, labels) or (prediction, "
                         f"labels, relevance) row, got {rows[:3]!r}")
    return rows
