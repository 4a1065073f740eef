"""Input validation: the one engine every public argument goes through.

Every public function of evalkit sends each of its arguments through a check
here before it counts anything, so that bad input fails early with a
``ValueError`` or ``TypeError`` whose message starts with the argument's name
and says what is wrong -- never later as a silent nan, a bare numpy warning,
a wrong number or an ``IndexError``.

The engine has five generic checks, and every other check is built on them:

* :func:`check_bool` -- a flag: ``True`` or ``False``, not a truthy string;
* :func:`check_integer` -- an integer in a range (``bool`` refused);
* :func:`check_real` -- a real number in a range, NaN and infinity refused
  unless allowed;
* :func:`check_choice` -- one of a set of named options;
* :func:`as_array` / :func:`check_real_values` -- an array-like of a given
  number of dimensions (scalars, ``None``, sets, ragged lists refused), and
  one holding real numbers only (complex numbers, strings -- even numeric
  ones, as scikit-learn -- and dates refused; ``longdouble`` kept as it is,
  so that no two scores are rounded into a false tie).

The domain checks (labels, scores, weights, ``average``, ``beta``,
``zero_division``, ``k``, ...) follow.
"""

from __future__ import annotations

import array
import functools
import inspect
import itertools
import math
import numbers
import operator

import numpy as np

from .exceptions import warn_at_caller

__all__ = [
    # declared options
    "validate_params",
    "Interval",
    "Integer",
    "Real",
    "Options",
    "Bool",
    "InstanceOf",
    "ArrayLike",
    # the generic engine
    "check_bool",
    "check_integer",
    "check_real",
    "check_choice",
    "as_array",
    "check_real_values",
    "check_real_array",
    "as_1d",
    # domain checks built on it
    "check_labels",
    "check_label_subset",
    "check_labels_in_y_true",
    "check_scores",
    "check_sample_weight",
    "check_same_length",
    "check_same_kind",
    "check_targets",
    "check_binary_average",
    "check_average",
    "check_beta",
    "check_zero_division",
    "check_pos_label",
    "check_pos_label_type",
    "check_warn_for",
    "check_count",
    "check_k",
    "check_label_matrix",
    "check_score_matrix",
    "check_column_labels",
    "check_sorted_labels",
    "check_labels_name_columns",
    "check_digits",
    "check_output",
    "check_target_names",
    "check_ties",
    "check_score_and_labels",
    "check_max_fpr",
    "check_curve_coordinates",
    "check_exactly_one",
    "check_binary_or_matrix_scores",
    "check_columns_match_classes",
    "check_count_matrix",
    "check_row_labels",
    "check_item_ids",
    "check_ranked",
    "check_grades",
    "check_relevant",
    "check_log_base",
    "check_confidence",
    "check_random_state",
    "check_probabilities",
    "check_proportion",
    "check_output_weights",
    "check_regression_targets",
    "check_rating_range",
]

AVERAGES = (None, "binary", "micro", "macro", "weighted")


# -- the generic engine --------------------------------------------------------


def check_bool(value, name):
    """Validate a flag: ``True`` or ``False`` (numpy booleans too), not a truthy string.

    >>> check_bool(True, "drop_intermediate")
    True
    >>> check_bool("yes", "drop_intermediate")
    Traceback (most recent call last):
    ...
    TypeError: drop_intermediate must be True or False, got 'yes'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _why(meaning):
    return f" ({meaning})" if meaning else ""


def _range_text(minimum, maximum, open_min, open_max):
    if minimum is not None and maximum is not None:
        return f"in {'(' if open_min else '['}{minimum}, {maximum}{')' if open_max else ']'}"
    if minimum is not None:
        return f"{'>' if open_min else '>='} {minimum}"
    return f"{'<' if open_max else '<='} {maximum}"


def _check_range(value, name, minimum, maximum, open_min, open_max, meaning):
    low = minimum is not None and (value <= minimum if open_min else value < minimum)
    high = maximum is not None and (value >= maximum if open_max else value > maximum)
    if low or high:
        raise ValueError(f"{name} must be {_range_text(minimum, maximum, open_min, open_max)}"
                         f"{_why(meaning)}; got {value!r}")


def check_integer(value, name, *, minimum=0, maximum=None, meaning="", allow_none=False):
    """Validate an integer option in ``[minimum, maximum]`` (``meaning`` explains it).

    Python and numpy integers are accepted; booleans, floats (even 3.0) and
    strings are refused, as scikit-learn's parameter validation refuses them.
    ``minimum=None`` leaves the lower end open; ``allow_none`` lets ``None`` through.

    >>> check_integer(3, "num_bins")
    3
    >>> check_integer(-1, "num_bins", meaning="0 means no down-sampling")
    Traceback (most recent call last):
    ...
    ValueError: num_bins must be >= 0 (0 means no down-sampling); got -1
    >>> check_integer(2.0, "k")
    Traceback (most recent call last):
    ...
    TypeError: k must be an integer, got 2.0
    """
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer{' or None' if allow_none else ''}, "
                        f"got {value!r}")
    _check_range(value, name, minimum, maximum, False, False, meaning)
    return int(value)


def check_real(value, name, *, minimum=None, maximum=None, open_min=False, open_max=False,
               allow_inf=False, allow_nan=False, allow_none=False, meaning=""):
    """Validate a real-number option, optionally in a range (open or closed at each end).

    Python and numpy integers and floats are accepted and returned as a
    float; booleans, strings and complex numbers are refused. NaN and
    infinity are refused unless ``allow_nan`` / ``allow_inf``.

    >>> check_real(0.25, "threshold")
    0.25
    >>> check_real(0, "max_fpr", minimum=0, maximum=1, open_min=True)
    Traceback (most recent call last):
    ...
    ValueError: max_fpr must be in (0, 1]; got 0
    >>> check_real("0.5", "threshold")
    Traceback (most recent call last):
    ...
    TypeError: threshold must be a real number, got '0.5'
    """
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number{' or None' if allow_none else ''}, "
                        f"got {value!r}")
    x = float(value)
    if x != x:
        if allow_nan:
            return x
        if minimum is not None or maximum is not None:  # say the range, not only "no NaN"
            raise ValueError(f"{name} must be {_range_text(minimum, maximum, open_min, open_max)}"
                             f"{_why(meaning)}; got {value!r}")
        raise ValueError(f"{name} must not be NaN")
    if np.isinf(x) and not allow_inf:
        raise ValueError(f"{name} must be finite, got {value!r}")
    _check_range(value, name, minimum, maximum, open_min, open_max, meaning)
    return x


def check_choice(value, choices, name):
    """Refuse an option that is not one of ``choices``.

    ``choices`` is a dict (choice -> what it means; the message lists the
    meanings) or a sequence (the message lists the choices). ``None`` is a
    choice only when listed. Only strings (and ``None``) are ever choices, so
    ``1`` is not ``True`` and an array is refused, not compared.

    >>> check_choice("last", {"last": "Spark 3+", "first": "Spark 1.x"}, "bin_threshold")
    'last'
    >>> check_choice("middle", {"last": "Spark 3+", "first": "Spark 1.x"}, "bin_threshold")
    Traceback (most recent call last):
    ...
    ValueError: bin_threshold must be 'last' (Spark 3+) or 'first' (Spark 1.x); got 'middle'
    >>> check_choice("mean", (None, "macro"), "average")
    Traceback (most recent call last):
    ...
    ValueError: average must be one of None, 'macro'; got 'mean'
    """
    valid = (value is None or isinstance(value, str)) and value in choices
    if not valid:
        if isinstance(choices, dict):
            listed = [f"{c!r} ({m})" if m else repr(c) for c, m in choices.items()]
            text = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " or " + listed[-1]
        else:
            text = "one of " + ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be {text}; got {value!r}")
    return value


# -- declared options: validate_params -------------------------------------------------


_KINDS = {bool: "b", np.bool_: "b", int: "i", float: "f", str: "s", type(None): "n"}


def _kind(v):
    """The kind of a scalar option, "b"ool, "i"nteger, "f"loat (real), "s"tring, "" (other),
    found once per type: the abstract classes' isinstance is slow."""
    t = type(v)
    _KINDS[t] = ("b" if isinstance(v, np.bool_) else "i" if isinstance(v, numbers.Integral)
                 else "f" if isinstance(v, numbers.Real) else "s" if isinstance(v, str) else "")
    return _KINDS[t]


def _join(parts):
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


class Interval:
    """A number of ``kind`` (``"integer"``/``int`` or ``"real"``/``float``) from ``low`` to ``high``.

    ``closed`` is ``"both"``, ``"left"``, ``"right"`` or ``"neither"``; a bound of
    ``None`` is open-ended. Booleans and strings are never numbers; NaN is
    refused, infinity too unless ``finite=False``. ``meaning`` says what the
    number is, in the message.
    """

    def __init__(self, kind, low=None, high=None, *, closed="both", meaning="", finite=True):
        self.integer = kind in ("integer", int, numbers.Integral)
        self.low, self.high, self.meaning, self.finite = low, high, meaning, finite
        self.open_low, self.open_high = closed in ("right", "neither"), closed in ("left", "neither")

    def type_ok(self, v):
        kind = _KINDS.get(type(v)) or _kind(v)
        return kind == "i" or (kind == "f" and not self.integer)

    def accepts(self, v):
        if not self.type_ok(v) or v != v or (self.finite and not self.integer and math.isinf(v)):
            return False
        lo, hi = self.low, self.high
        return ((lo is None or (v > lo if self.open_low else v >= lo))
                and (hi is None or (v < hi if self.open_high else v <= hi)))

    def _range(self):
        if self.low is None and self.high is None:
            return ""
        return _range_text(self.low, self.high, self.open_low, self.open_high)

    def describe(self):
        return " ".join(filter(None, ("an integer" if self.integer else "a real number",
                                      self._range())))

    def fail(self, v, name, none=False):
        if not self.type_ok(v):
            raise TypeError(f"{name} must be {'an integer' if self.integer else 'a real number'}"
                            f"{' or None' if none else ''}, got {v!r}")
        if v == v and math.isinf(v) and self.finite:
            raise ValueError(f"{name} must be finite, got {v!r}")
        if not self._range():
            raise ValueError(f"{name} must not be NaN")
        raise ValueError(f"{name} must be {self._range()}{_why(self.meaning)}; got {v!r}")


def Integer(low=None, high=None, *, meaning=""):
    """An integer in ``[low, high]`` (either bound may be None): ``Interval("integer", ...)``."""
    return Interval("integer", low, high, meaning=meaning)


def Real(low=None, high=None, *, closed="both", meaning="", finite=True):
    """A real number in a range: ``Interval("real", ...)``."""
    return Interval("real", low, high, closed=closed, meaning=meaning, finite=finite)


class Options:
    """One of a set of values: strings, ``None``, booleans or numbers (NaN too).

    ``values`` is a dict (value -> what it means, listed in the message) or a
    sequence (the message says "one of ..."). A value matches only a member
    of its own kind: ``1`` is not ``True``, ``"1"`` is not ``1``; ``0`` matches
    ``0.0``; an array is refused, never compared.
    """

    def __init__(self, values):
        self.values = values
        members = list(values)
        self.exact = {m for m in members if _kind(m) in ("n", "s")}
        self.bools = {bool(m) for m in members if _kind(m) == "b"}
        nums = [m for m in members if _kind(m) in ("i", "f")]
        self.nan = any(m != m for m in nums)
        self.numbers = {m for m in nums if m == m}

    def type_ok(self, v):
        return True  # a wrong option is a ValueError, whatever its type (as check_choice)

    def accepts(self, v):
        kind = _KINDS.get(type(v)) or _kind(v)
        if kind in "ns":
            return v in self.exact
        if kind == "b":
            return bool(v) in self.bools
        return (v in self.numbers if v == v else self.nan) if kind in "if" else False

    def describe(self, none=False):
        if isinstance(self.values, dict):
            listed = [f"{c!r} ({m})" if m else repr(c) for c, m in self.values.items()]
            return _join(listed + (["None"] if none and None not in self.exact else []))
        listed = [repr(c) for c in self.values]
        return "one of " + ", ".join((["None"] if none and None not in self.exact else []) + listed)

    def fail(self, v, name, none=False):
        raise ValueError(f"{name} must be {self.describe(none)}; got {v!r}")


class Bool:
    """``True`` or ``False`` (numpy booleans too), not a truthy string or 1."""

    def type_ok(self, v):
        return (_KINDS.get(type(v)) or _kind(v)) == "b"

    accepts = type_ok

    def describe(self):
        return "True or False"

    def fail(self, v, name, none=False):
        raise TypeError(f"{name} must be True or False{' or None' if none else ''}, got {v!r}")


class InstanceOf:
    """An instance of ``types``; ``what`` names it in the message ("a numpy.random.Generator")."""

    def __init__(self, types, what):
        self.types, self.what = types, what

    def type_ok(self, v):
        return isinstance(v, self.types)

    accepts = type_ok

    def describe(self):
        return self.what

    def fail(self, v, name, none=False):
        raise TypeError(f"{name} must be {self.what}{' or None' if none else ''}, got {v!r}")


class ArrayLike:
    """Any value: the array is read by the function's array reader (declared for the record)."""

    def type_ok(self, v):
        return True

    def accepts(self, v):
        return True

    def describe(self):
        return "an array-like"


def _compile(spec):
    """A function ``check(value, name)`` for one declaration."""
    if callable(spec) and not hasattr(spec, "accepts"):  # a plain check_* function
        return spec
    specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
    none = any(s is None for s in specs)
    specs = [s for s in specs if s is not None]
    if not specs:
        def check(v, name):
            if v is not None:
                raise TypeError(f"{name} must be None, got {v!r}")
        return check
    if len(specs) == 1:
        only = specs[0]
        accepts, fail = only.accepts, only.fail

        def check(v, name):
            if not ((none and v is None) or accepts(v)):
                fail(v, name, none)
        return check

    def check(v, name):
        if (none and v is None) or any(s.accepts(v) for s in specs):
            return
        wrong_value = any(s.type_ok(v) for s in specs)
        parts = [s.describe() for s in specs] + (["None"] if none else [])
        raise (ValueError if wrong_value else TypeError)(f"{name} must be {_join(parts)}; got {v!r}")
    return check


def validate_params(**specs):
    """Declare a function's options once; they are checked before its body runs.

    Each keyword names a parameter and gives its spec: :class:`Interval`
    (:func:`Integer`, :func:`Real`), :class:`Options`, :class:`Bool`,
    :class:`InstanceOf`, :class:`ArrayLike`, ``None`` (the value ``None``), a
    list of them (any one may match), or a plain function ``check(value,
    name)`` that raises. A bad value raises ``ValueError`` (a value of the
    right type, out of range or not an option) or ``TypeError`` (a wrong
    type), the message starting with the parameter's name and saying what
    is allowed. Defaults are not checked (declare them valid); values are
    checked, not converted. The cost is a dict lookup and a test per declared
    parameter (about a microsecond), so metrics called in a bootstrap loop
    may be decorated.

    >>> @validate_params(k=Integer(1, meaning="the number of top predictions kept"),
    ...                  average=Options((None, "micro", "macro")),
    ...                  max_fpr=[None, Real(0, 1, closed="right")],
    ...                  normalize=Bool())
    ... def metric(y_true, y_score, *, k=1, average="macro", max_fpr=None, normalize=True):
    ...     return k
    >>> metric([1], [0.5], k=2)
    2
    >>> metric([1], [0.5], k=0)
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1 (the number of top predictions kept); got 0
    >>> metric([1], [0.5], average="mean")
    Traceback (most recent call last):
    ...
    ValueError: average must be one of None, 'micro', 'macro'; got 'mean'
    >>> metric([1], [0.5], max_fpr="0.1")
    Traceback (most recent call last):
    ...
    TypeError: max_fpr must be a real number or None, got '0.1'
    >>> @validate_params(n_bins=[Options({"auto": "one bin per distinct score"}), Integer(1)])
    ... def bins(y, n_bins="auto"):
    ...     return n_bins
    >>> bins([1], n_bins=0)
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be 'auto' (one bin per distinct score) or an integer >= 1; got 0
    """
    def decorate(func):
        params = list(inspect.signature(func).parameters.values())
        by_name = {p.name: i for i, p in enumerate(params)}
        plan = []
        for name, spec in specs.items():
            if name not in by_name:
                raise TypeError(f"validate_params: {func.__qualname__} has no parameter {name!r}")
            p = params[by_name[name]]
            positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            plan.append((name, by_name[name] if positional else len(params) + 10**6,
                         _compile(spec)))
        plan = tuple(plan)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            n = len(args)
            for name, pos, check in plan:
                if pos < n:
                    check(args[pos], name)
                elif name in kwargs:
                    check(kwargs[name], name)
            return func(*args, **kwargs)

        wrapper.param_specs = specs
        return wrapper
    return decorate


def _array_like(y, name, expected, *, ordered=False):
    """Refuse ``None`` and scalars (and, if ``ordered``, sets and dicts) before ``np.asarray``."""
    if y is None:
        raise TypeError(f"{name} is required, got None")
    if isinstance(y, (str, bytes)) or np.isscalar(y) or (isinstance(y, np.ndarray) and y.ndim == 0):
        raise TypeError(f"{name} must be {expected}, got the scalar {y!r}")
    if ordered and isinstance(y, (set, frozenset, dict)):
        raise TypeError(f"{name} must be an ordered array-like, got a {type(y).__name__}")


def as_array(y, name, *, ndim=1, expected="an array-like of values", ragged="", empty=True):
    """Read an array-like as a numpy array with ``ndim`` dimensions, or raise naming ``name``.

    Lists, tuples, numpy arrays, pandas Series and other array-likes are
    accepted; ``None``, a scalar, a set or dict, a ragged nested list (the
    message ends with ``ragged`` when given) and, unless ``empty`` is false,
    an empty input are refused. ``ndim`` is an int or a tuple of allowed
    numbers of dimensions. The array is not copied.

    >>> as_array([[1, 0]], "y_topk", ndim=2).shape
    (1, 2)
    >>> as_array([[1, 0], [1]], "y_score", ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: y_score has rows of different lengths
    """
    _array_like(y, name, expected, ordered=True)
    try:
        arr = np.asarray(y)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{name} has rows of different lengths{ragged}") from None
    dims = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim not in dims:
        if arr.dtype.kind == "O" and arr.ndim == 1 and max(dims) >= 2 and any(
                isinstance(v, (list, tuple, np.ndarray)) for v in arr):
            raise ValueError(f"{name} has rows of different lengths{ragged}")
        shape = "1-D" if dims == (1,) else " or ".join(f"{d}-D" for d in dims)
        raise ValueError(f"{name} must be {shape}, got an array of shape {arr.shape}")
    if empty and arr.size == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed")
    return arr


def _is_string_like(arr):
    if arr.dtype.kind in "USa":
        return True
    if arr.dtype.kind == "O":
        return any(isinstance(v, (str, bytes)) for v in arr.flat)
    return False


def check_real_values(arr, name, *, finite=True, allow_nan=False):
    """Refuse an array that does not hold real numbers; return it (object arrays as float64).

    Booleans, integers and floats of every width pass unchanged -- float32
    stays float32 and ``longdouble`` stays ``longdouble``, so scores are
    never rounded into false ties. Complex numbers are refused (the
    imaginary part would be lost), and so are strings, even numeric ones
    such as ``"0.5"`` (scikit-learn refuses them too), dates and other
    objects. With ``finite``, NaN and infinity are refused (``allow_nan``
    lets NaN through).

    >>> check_real_values(np.array([0.5, 1]), "y_score")
    array([0.5, 1. ])
    >>> check_real_values(np.array(["0.5", "1"]), "y_score")
    Traceback (most recent call last):
    ...
    TypeError: y_score must hold numbers, got strings such as '0.5'
    >>> check_real_values(np.array([1 + 2j]), "y_score")
    Traceback (most recent call last):
    ...
    TypeError: y_score must hold real numbers, got complex numbers such as (1+2j)
    """
    kind = arr.dtype.kind
    if kind not in "biuf":
        first = arr.flat[0] if arr.size else None
        if kind == "O":
            for v in arr.flat:
                if isinstance(v, (str, bytes)):
                    kind, first = "U", v
                    break
                if isinstance(v, (complex, np.complexfloating)):
                    kind, first = "c", v
                    break
        if kind in "USa":
            raise TypeError(f"{name} must hold numbers, got strings such as {_py(first)!r}")
        if kind == "c":
            raise TypeError(f"{name} must hold real numbers, got complex numbers such as "
                            f"{_py(first)!r}")
        if kind in "mM":
            raise TypeError(f"{name} must hold numbers, got dates/times ({arr.dtype})")
        try:
            if kind != "O":
                raise TypeError
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}"
                            f"{' holding ' + repr(_py(first)) if kind == 'O' else ''}") from None
    if finite and arr.dtype.kind == "f" and not np.isfinite(arr).all():  # one pass when all is well
        if np.isnan(arr).any():
            if not allow_nan:
                raise ValueError(f"{name} contains NaN")
            if np.isinf(arr).any():
                raise ValueError(f"{name} contains infinite values")
        else:
            raise ValueError(f"{name} contains infinite values")
    return arr


def _py(x):
    return x.item() if isinstance(x, np.generic) else x


def as_1d(y, name):
    """Return ``y`` as a 1-D numpy array, or raise naming ``name``.

    Lists, tuples, numpy arrays, pandas Series and other array-likes are
    accepted; a scalar, a 2-D array or an empty input is refused.

    >>> as_1d([1, 0, 1], "y_true")
    array([1, 0, 1])
    >>> as_1d([[1, 0]], "y_true")
    Traceback (most recent call last):
    ...
    ValueError: y_true must be 1-D, got an array of shape (1, 2)
    """
    return as_array(y, name, expected="an array-like of values")


# -- labels, scores, weights ------------------------------------------------------


def check_labels(y, name):
    """Validate class labels: 1-D, non-empty, discrete, no NaN, one kind of value.

    Returns the labels as a numpy array. Booleans, integers, integral floats and
    strings are accepted; a mix of strings and numbers, NaN and non-integral
    floats are refused.

    >>> check_labels([0.0, 1.0], "y_pred")
    array([0., 1.])
    >>> check_labels([0.5, 1.0], "y_pred")
    Traceback (most recent call last):
    ...
    ValueError: y_pred contains non-integer numbers such as 0.5: class labels must be discrete (integers, booleans or strings), not scores
    """
    arr = as_1d(y, name)
    kind = arr.dtype.kind
    if kind in "US" and isinstance(y, (list, tuple)):
        # numpy silently turns ["a", 1] into strings; a mix is a mistake
        if not all(isinstance(v, (str, bytes, np.str_, np.bytes_)) for v in y):
            kind = "O"
            arr = np.asarray(y, dtype=object)
    if kind == "O":
        has_str = [isinstance(v, (str, bytes)) for v in arr]
        if any(has_str) and not all(has_str):
            raise TypeError(
                f"{name} mixes strings and numbers; use one kind of label "
                "(e.g. all strings)"
            )
        if not any(has_str):
            if any(v is None for v in arr):
                raise ValueError(f"{name} contains None")
            if all(isinstance(v, (bool, np.bool_)) for v in arr):
                arr, kind = arr.astype(bool), "b"
            else:
                arr = check_real_values(arr, name, finite=False)
                kind = arr.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} contains complex numbers")
    if kind in "mM":
        raise TypeError(f"{name} contains dates/times, not class labels")
    if kind == "f":
        if np.isnan(arr).any():
            raise ValueError(f"{name} contains NaN")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains infinite values")
        frac = arr != np.round(arr)
        if frac.any():
            bad = arr[np.argmax(frac)].item()
            raise ValueError(
                f"{name} contains non-integer numbers such as {bad!r}: class labels "
                "must be discrete (integers, booleans or strings), not scores"
            )
    elif kind not in "biuUS" and not (kind == "O" and all(has_str)):  # all strings: fine
        raise TypeError(f"{name} must hold class labels (integers, booleans or strings), "
                        f"got dtype {arr.dtype}")
    return arr


def check_same_length(**arrays):
    """Raise ``ValueError`` unless every named array has the same length.

    >>> check_same_length(y_true=[1, 0], y_pred=[1])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different lengths (2 and 1)
    """
    names = [n for n, a in arrays.items() if a is not None]
    lengths = [len(arrays[n]) for n in names]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"{' and '.join(names)} have different lengths "
            f"({' and '.join(str(n) for n in lengths)})"
        )


def check_same_kind(a, b, names):
    """Refuse two label arrays of which one holds strings and the other numbers.

    >>> check_same_kind(np.array(["a"]), np.array([1]), ("y_true", "labels"))
    Traceback (most recent call last):
    ...
    TypeError: y_true and labels hold different kinds of labels (strings and numbers); use the same kind in both
    """
    sa, sb = _is_string_like(a), _is_string_like(b)
    if sa != sb:
        raise TypeError(
            f"{names[0]} and {names[1]} hold different kinds of labels "
            f"({'strings' if sa else 'numbers'} and {'strings' if sb else 'numbers'}); "
            "use the same kind in both")


def check_targets(y_true, y_pred, *, names=("y_true", "y_pred")):
    """Validate a pair of label arrays and say what kind of problem they pose.

    Returns ``(kind, y_true, y_pred)`` where ``kind`` is ``"binary"`` when the
    two arrays hold at most two distinct labels between them and
    ``"multiclass"`` otherwise.

    >>> check_targets([0, 1, 1], [1, 1, 0])[0]
    'binary'
    >>> check_targets([0, 1, 2], [1, 1, 0])[0]
    'multiclass'
    """
    yt = check_labels(y_true, names[0])
    yp = check_labels(y_pred, names[1])
    check_same_length(**{names[0]: yt, names[1]: yp})
    check_same_kind(yt, yp, names)
    n_distinct = _count_distinct(yt, yp)  # capped at 3
    return ("binary" if n_distinct <= 2 else "multiclass"), yt, yp


def _count_distinct(a, b):
    """The number of distinct labels in ``a`` and ``b``, capped at 3 (only <= 2 matters).

    No sort: the first two distinct values are found and every label is
    compared with them, two linear passes whatever the label type.
    """
    first = a[0]
    other = np.flatnonzero(a != first)
    if len(other):
        second = a[other[0]]
    else:
        other = np.flatnonzero(b != first)
        if not len(other):
            return 1
        second = b[other[0]]
    for arr in (a, b):
        if not ((arr == first) | (arr == second)).all():
            return 3
    return 2


def check_label_subset(labels, classes, name="labels"):
    """Validate ``labels=`` (the classes to score, in order) against the ``classes`` present.

    1-D, non-empty, no duplicates, and the same kind (strings or numbers) as
    the labels in the data; labels absent from the data are allowed (they
    get zero counts). Returns the labels as an array comparable with
    ``classes`` (object arrays turned to str or float).

    >>> check_label_subset([2, 0], np.array([0, 1, 2])).tolist()
    [2, 0]
    >>> check_label_subset([1, 0, 1], np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: labels contains duplicates such as 1
    """
    if labels is None:
        raise TypeError(f"{name} is required here, got None")
    if isinstance(labels, (str, bytes)) or np.isscalar(labels):
        raise TypeError(f"{name} must be an array-like of labels, got the scalar {labels!r}")
    if isinstance(labels, (set, frozenset, dict)):
        raise TypeError(f"{name} must be an ordered array-like, got a {type(labels).__name__}")
    lab = np.asarray(labels)
    if lab.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {lab.shape}")
    if len(lab) == 0:
        raise ValueError(f"{name} is empty: give at least one label, or None for all")
    if _is_string_like(lab) != _is_string_like(classes):
        raise TypeError(
            f"{name} holds {'strings' if _is_string_like(lab) else 'numbers'} but the "
            f"labels in the data are {'strings' if _is_string_like(classes) else 'numbers'}"
        )
    if lab.dtype.kind == "O":
        lab = lab.astype(str) if _is_string_like(lab) else check_real_values(lab, name)
    elif lab.dtype.kind not in "biufUS":
        raise TypeError(f"{name} must hold labels (integers, booleans or strings), "
                        f"got dtype {lab.dtype}")
    uniq, counts = np.unique(lab, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"{name} contains duplicates such as {uniq[counts > 1][0].item()!r}")
    return lab


def check_labels_in_y_true(labels, y_true, name="labels"):
    """Refuse ``labels=`` of which none occurs in ``y_true`` (scikit-learn's rule).

    >>> check_labels_in_y_true(np.array([5]), np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: labels: at least one label given must occur in y_true
    """
    if not np.isin(labels, y_true).any():
        raise ValueError(f"{name}: at least one label given must occur in y_true")
    return labels


def check_scores(y_score, name="y_score"):
    """Validate 1-D real-valued scores: finite, non-empty, real numbers.

    Every integer and float dtype is kept as it is (``longdouble`` too, so
    that close scores are not rounded into ties); complex numbers and
    strings (numeric or not) are refused, as scikit-learn refuses them.

    >>> check_scores([0.9, 0.1])
    array([0.9, 0.1])
    >>> check_scores([0.9, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: y_score contains NaN
    """
    return check_real_values(as_1d(y_score, name), name)


def check_sample_weight(sample_weight, n, name="sample_weight"):
    """Validate sample weights: ``None`` or 1-D, length ``n``, finite and >= 0.

    Returns ``None`` or a float array.

    >>> check_sample_weight([1, 2], 2)
    array([1., 2.])
    >>> check_sample_weight([1, -2], 2)
    Traceback (most recent call last):
    ...
    ValueError: sample_weight contains negative values such as -2.0: weights count samples and must be >= 0
    """
    if sample_weight is None:
        return None
    w = check_real_values(as_1d(sample_weight, name), name, finite=False)
    w = w.astype(float)
    if len(w) != n:
        raise ValueError(f"{name} has {len(w)} values but there are {n} samples")
    if not np.isfinite(w).all():
        raise ValueError(f"{name} contains NaN or infinite values")
    if (w < 0).any():
        raise ValueError(
            f"{name} contains negative values such as {w[np.argmax(w < 0)].item()!r}: "
            "weights count samples and must be >= 0"
        )
    if not w.any():
        raise ValueError(f"{name} is all zeros: at least one sample must count")
    return w


# -- options ------------------------------------------------------------------------


def check_average(average, allowed=AVERAGES, name="average"):
    """Refuse an unknown ``average``.

    >>> check_average("macro")
    'macro'
    >>> check_average("mean")
    Traceback (most recent call last):
    ...
    ValueError: average must be one of None, 'binary', 'micro', 'macro', 'weighted'; got 'mean'
    """
    return check_choice(average, allowed, name)


def check_binary_average(kind, average):
    """Refuse ``average="binary"`` for a multiclass target (scikit-learn's words).

    >>> check_binary_average("multiclass", "binary")
    Traceback (most recent call last):
    ...
    ValueError: average='binary' needs a binary target: Target is multiclass but average='binary'. Choose another average: one of None, 'micro', 'macro', 'weighted'.
    """
    if average == "binary" and kind != "binary":
        raise ValueError(
            "average='binary' needs a binary target: Target is multiclass but "
            "average='binary'. Choose another average: one of None, 'micro', 'macro', "
            "'weighted'.")
    return average


def check_beta(beta, name="beta"):
    """Validate the F-beta weight: a real number >= 0 (0 gives precision, inf recall).

    >>> check_beta(2)
    2.0
    >>> check_beta(-1)
    Traceback (most recent call last):
    ...
    ValueError: beta must be >= 0 (it weighs recall beta times as much as precision); got -1
    """
    return check_real(beta, name, minimum=0, allow_inf=True,
                      meaning=f"it weighs recall {name} times as much as precision")


def check_zero_division(zero_division, *, allow_spark=False, name="zero_division"):
    """Validate ``zero_division``: "warn", 0.0, 1.0 or nan (and "spark" where offered).

    >>> check_zero_division("warn")
    'warn'
    >>> check_zero_division(0.5)
    Traceback (most recent call last):
    ...
    ValueError: zero_division must be "warn", 0.0, 1.0 or nan; got 0.5
    """
    if isinstance(zero_division, str):
        if zero_division == "warn" or (allow_spark and zero_division == "spark"):
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, (bool, np.bool_)):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    choices = '"warn", 0.0, 1.0' + (', nan or "spark"' if allow_spark else " or nan")
    raise ValueError(f"{name} must be {choices}; got {zero_division!r}")


def check_pos_label(pos_label, present, name="pos_label"):
    """Refuse a ``pos_label`` that is not among the labels ``present``.

    >>> check_pos_label("yes", np.array(["no", "yes"]))
    'yes'
    >>> check_pos_label(1, np.array(["no", "yes"]))
    Traceback (most recent call last):
    ...
    ValueError: pos_label=1 is not a valid label: it should be one of ['no', 'yes']
    """
    check_pos_label_type(pos_label, name)
    present = np.asarray(present)
    if not np.isin(np.asarray([pos_label], dtype=object), present.astype(object)).any():
        shown = present.tolist()
        raise ValueError(f"{name}={pos_label!r} is not a valid label: it should be one of {shown}")
    return pos_label


def check_pos_label_type(pos_label, name="pos_label", *, allow_none=True):
    """Refuse a ``pos_label`` that is not a single label: a real number, bool or str (or None).

    >>> check_pos_label_type([1])
    Traceback (most recent call last):
    ...
    TypeError: pos_label must be one label (a number, a bool or a string) or None, got [1]
    """
    if pos_label is None and allow_none:
        return None
    if not isinstance(pos_label, (numbers.Real, str, bytes, np.bool_)) or (
            isinstance(pos_label, float) and pos_label != pos_label):
        raise TypeError(f"{name} must be one label (a number, a bool or a string)"
                        f"{' or None' if allow_none else ''}, got {pos_label!r}")
    return pos_label


WARN_FOR = ("precision", "recall", "f-score")


def check_warn_for(warn_for, name="warn_for"):
    """Validate ``warn_for``: a tuple, list or set of "precision", "recall", "f-score".

    A bare string is refused (``"precision"`` would otherwise match
    substrings), as scikit-learn refuses it.

    >>> check_warn_for(["recall"])
    ('recall',)
    >>> check_warn_for("recall")
    Traceback (most recent call last):
    ...
    TypeError: warn_for must be a tuple, list or set of 'precision', 'recall', 'f-score'; got the string 'recall'
    """
    if isinstance(warn_for, (str, bytes)):
        raise TypeError(f"{name} must be a tuple, list or set of 'precision', 'recall', "
                        f"'f-score'; got the string {warn_for!r}")
    if not isinstance(warn_for, (tuple, list, set, frozenset)):
        raise TypeError(f"{name} must be a tuple, list or set of 'precision', 'recall', "
                        f"'f-score'; got {warn_for!r}")
    for item in warn_for:
        check_choice(item, WARN_FOR, f"{name} item")
    return tuple(warn_for)


def check_count(value, name):
    """Validate one cell of a confusion matrix: a finite real number >= 0 (int kept int).

    >>> check_count(3, "tp"), check_count(2.5, "fp")
    (3, 2.5)
    >>> check_count(-1, "tp")
    Traceback (most recent call last):
    ...
    ValueError: tp must be >= 0 (it is a count); got -1
    """
    x = check_real(value, name, minimum=0, meaning="it is a count")
    return int(value) if isinstance(value, numbers.Integral) else x


# -- top-k inputs and report options -------------------------------------------


def check_k(k, *, m=None, name="k", of="y_topk"):
    """Validate the cut-off ``k``: an integer >= 1 and, when ``m`` is given, <= m.

    >>> check_k(3, m=5)
    3
    >>> check_k(6, m=5)
    Traceback (most recent call last):
    ...
    ValueError: k=6 is larger than the 5 columns of y_topk: k must be between 1 and 5
    """
    k = check_integer(k, name, minimum=1, meaning="the number of top predictions kept")
    if m is not None and k > m:
        raise ValueError(f"{name}={k} is larger than the {m} columns of {of}: "
                         f"{name} must be between 1 and {m}")
    return k


def check_label_matrix(y, name="y_topk"):
    """Validate ranked label lists: an n x m array, or n lists of equal length m.

    Row i lists the labels predicted for sample i, most likely first. A 1-D
    input is one prediction per sample (m = 1). Returns a 2-D numpy array;
    the labels themselves are checked by :func:`check_labels` on the columns
    actually used.

    >>> check_label_matrix([[0, 2], [1, 0]]).shape
    (2, 2)
    >>> check_label_matrix([[0, 2], [1]])
    Traceback (most recent call last):
    ...
    ValueError: y_topk has rows of different lengths (1 to 2): every row must rank the same number of labels
    """
    _array_like(y, name, "an n x m array-like of labels")
    try:
        arr = np.asarray(y)
    except ValueError:
        arr = None
    if arr is None or (arr.dtype.kind == "O" and arr.ndim == 1
                       and any(isinstance(v, (list, tuple, np.ndarray)) for v in arr)):
        try:
            lengths = [len(row) for row in y]
        except TypeError:
            raise ValueError(f"{name} mixes rows and single labels: every row must be a list "
                             "of labels") from None
        raise ValueError(
            f"{name} has rows of different lengths ({min(lengths)} to {max(lengths)}): "
            "every row must rank the same number of labels")
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x m ranked labels), "
                         f"got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns: each row needs at least one label")
    return arr


def check_score_matrix(y_score, name="y_score", *, allow_1d=False):
    """Validate a score matrix: n x C real numbers, finite, non-empty.

    Integer and boolean scores are returned as float64; float32 stays
    float32 and longdouble longdouble. Complex numbers and strings are refused.

    >>> check_score_matrix([[0.1, 0.9], [0.8, 0.2]]).shape
    (2, 2)
    >>> check_score_matrix([0.1, 0.9])
    Traceback (most recent call last):
    ...
    ValueError: y_score must be 2-D (n samples x C classes), got an array of shape (2,)
    """
    _array_like(y_score, name, "an array-like of scores", ordered=True)
    try:
        arr = np.asarray(y_score)
    except ValueError:
        raise ValueError(f"{name} has rows of different lengths: every row must score "
                         "the same classes") from None
    if arr.ndim != 2 and not (allow_1d and arr.ndim == 1):
        raise ValueError(f"{name} must be 2-D (n samples x C classes), "
                         f"got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one sample and one class are needed")
    arr = check_real_values(arr, name)
    if arr.dtype.kind != "f":
        arr = arr.astype(np.float64)
    return arr


def check_column_labels(labels, n_columns, *, name="labels", of="y_score"):
    """Validate the labels naming the columns of a score matrix (default 0..C-1).

    >>> check_column_labels(None, 3)
    array([0, 1, 2])
    >>> check_column_labels(["a", "b"], 3)
    Traceback (most recent call last):
    ...
    ValueError: labels has 2 entries but y_score has 3 columns: give one label per column
    """
    if labels is None:
        return np.arange(n_columns)
    lab = check_labels(labels, name)
    if len(lab) != n_columns:
        raise ValueError(f"{name} has {len(lab)} entries but {of} has {n_columns} columns: "
                         "give one label per column")
    uniq, counts = np.unique(lab, return_counts=True)
    if (counts > 1).any():
        raise ValueError(f"{name} contains duplicates such as {uniq[counts > 1][0].item()!r}")
    return lab


def check_sorted_labels(labels, name="labels", *, of="y_score"):
    """Refuse column labels that are not sorted (scikit-learn's rule for ``labels=``).

    >>> check_sorted_labels(np.array([2, 0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: labels must be sorted (column j of y_score scores the j-th smallest label, as in scikit-learn)
    """
    if not (np.sort(labels) == labels).all():
        raise ValueError(f"{name} must be sorted (column j of {of} scores the j-th "
                         "smallest label, as in scikit-learn)")
    return labels


def check_labels_name_columns(y_true, columns, name="y_true", of="y_score"):
    """Position of each true label among the column labels; all must be there.

    >>> check_labels_name_columns(np.array(["b", "a"]), np.array(["a", "b"])).tolist()
    [1, 0]
    >>> check_labels_name_columns(np.array([3]), np.array([0, 1]))
    Traceback (most recent call last):
    ...
    ValueError: y_true contains labels that name no column of y_score, such as 3: name the columns with labels=
    """
    sorter = np.argsort(columns, kind="stable")
    ordered = columns[sorter]
    pos = np.minimum(np.searchsorted(ordered, y_true), len(columns) - 1)
    found = ordered[pos] == y_true
    if not found.all():
        raise ValueError(
            f"{name} contains labels that name no column of {of}, such as "
            f"{y_true[np.argmin(found)].item()!r}: name the columns with labels=")
    return sorter[pos]


def check_digits(digits, name="digits"):
    """Validate the number of decimals shown: an integer >= 0.

    >>> check_digits(4)
    4
    >>> check_digits(-1)
    Traceback (most recent call last):
    ...
    ValueError: digits must be >= 0; got -1
    """
    return check_integer(digits, name, minimum=0)


OUTPUTS = (None, "text", "dict", "frame")


def check_output(output, output_dict=False):
    """Resolve a report's ``output`` ("text", "dict" or "frame") with ``output_dict``.

    ``output=None`` follows ``output_dict`` (scikit-learn's keyword, a bool):
    "dict" when it is true, else "text".

    >>> check_output(None, True), check_output("frame")
    ('dict', 'frame')
    >>> check_output("html")
    Traceback (most recent call last):
    ...
    ValueError: output must be one of None, 'text', 'dict', 'frame'; got 'html'
    >>> check_output(None, "no")
    Traceback (most recent call last):
    ...
    TypeError: output_dict must be True or False, got 'no'
    """
    output_dict = check_bool(output_dict, "output_dict")
    output = check_choice(output, OUTPUTS, "output")
    if output is None:
        return "dict" if output_dict else "text"
    if output_dict and output != "dict":
        raise ValueError(f"output={output!r} contradicts output_dict=True: give one of them")
    return output


def check_target_names(target_names, n_classes, *, strict, classes=None, stacklevel=3):
    """Validate a report's row names: a sequence of one name per class.

    A different length is an error when ``strict`` (the classes were not
    chosen with ``labels=``), else -- as scikit-learn -- a warning (rows stop
    at the shorter). Returns the names as a list.

    >>> check_target_names(["a", "b"], 2, strict=True)
    ['a', 'b']
    >>> check_target_names(["a"], 2, strict=True)
    Traceback (most recent call last):
    ...
    ValueError: target_names has 1 names but there are 2 classes in y_true and y_pred; give labels= to choose the classes they name
    """
    if isinstance(target_names, (str, bytes)) or np.isscalar(target_names) or isinstance(
            target_names, (set, frozenset, dict)):
        raise TypeError(f"target_names must be a list of names, one per class, "
                        f"got {target_names!r}")
    names = list(target_names)
    if len(names) != n_classes:
        if strict:
            if classes is not None:
                raise ValueError(f"target_names has {len(names)} names but the report has "
                                 f"{n_classes} classes ({list(classes)})")
            raise ValueError(
                f"target_names has {len(names)} names but there are {n_classes} classes "
                "in y_true and y_pred; give labels= to choose the classes they name")
        warn_at_caller(f"labels size, {n_classes}, does not match size of target_names, "
                       f"{len(names)}", UserWarning)
    return names


TIES = {
    "first": "lower column index wins, as argmax",
    "last": "higher column index wins, as sklearn's top_k_accuracy_score",
}


def check_ties(ties, name="ties"):
    """Validate the tie rule for equal scores: "first" or "last" column wins.

    >>> check_ties("first")
    'first'
    >>> check_ties("random")
    Traceback (most recent call last):
    ...
    ValueError: ties must be 'first' (lower column index wins, as argmax) or 'last' (higher column index wins, as sklearn's top_k_accuracy_score); got 'random'
    """
    return check_choice(ties, TIES, name)


# -- Spark-style input: rows of (score, label[, weight]) -----------------------


def check_score_and_labels(score_and_labels, name="score_and_labels"):
    """Validate Spark's input rows: n x 2 ``(score, label)`` or n x 3 ``(score, label, weight)``.

    Accepts an array, a list of tuples or a DataFrame with 2 or 3 numeric
    columns. Scores and labels must be finite (a label is positive when it is
    > 0.5, as in Spark, so any real label is allowed); weights go through
    :func:`check_sample_weight`. Returns ``(scores, labels, weights)`` as
    float64 arrays, ``weights`` None for two columns.

    >>> s, y, w = check_score_and_labels([(0.9, 1.0), (0.2, 0.0)])
    >>> s.tolist(), y.tolist(), w
    ([0.9, 0.2], [1.0, 0.0], None)
    >>> check_score_and_labels([(0.9, 1.0, 2.0, 0.0)])
    Traceback (most recent call last):
    ...
    ValueError: score_and_labels must hold n rows of (score, label) or (score, label, weight), got an array of shape (1, 4)
    """
    _array_like(score_and_labels, name, "rows of (score, label) or (score, label, weight)",
                ordered=True)
    try:
        arr = np.asarray(score_and_labels)
    except ValueError:
        raise ValueError(f"{name} has rows of different lengths: every row must be "
                         "(score, label) or (score, label, weight)") from None
    if arr.ndim == 2 and arr.shape[0] in (2, 3) and arr.shape[1] > 3:
        raise ValueError(
            f"{name} must hold n rows of (score, label) or (score, label, weight), got an "
            f"array of shape {arr.shape}: columns, not rows? Pass "
            "np.column_stack((scores, labels)) or list(zip(scores, labels))")
    if arr.ndim != 2 or arr.shape[1] not in (2, 3):
        raise ValueError(f"{name} must hold n rows of (score, label) or (score, label, weight), "
                         f"got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one (score, label) row is needed")
    arr = check_real_values(arr, name, finite=False)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:
        wide, arr = arr, arr.astype(np.float64)
        if (np.isfinite(wide) & (arr != wide)).any():
            raise TypeError(f"{name} holds {wide.dtype} values that a double (Spark's type) "
                            "cannot hold exactly: rounding them could tie distinct scores; "
                            "cast to float64 yourself if that is what you mean")
    arr = arr.astype(np.float64)
    for col, what in ((0, "scores"), (1, "labels")):
        v = arr[:, col]
        if np.isnan(v).any():
            raise ValueError(f"{name} contains NaN {what} (column {col})")
        if not np.isfinite(v).all():
            raise ValueError(f"{name} contains infinite {what} (column {col})")
    weights = None
    if arr.shape[1] == 3:
        weights = check_sample_weight(arr[:, 2], arr.shape[0], name=f"{name} column 2 (weights)")
    return np.array(arr[:, 0]), np.array(arr[:, 1]), weights  # contiguous copies


def check_max_fpr(max_fpr, name="max_fpr"):
    """Validate the partial-AUC bound: ``None`` or a real number in (0, 1].

    >>> check_max_fpr(0.1)
    0.1
    >>> check_max_fpr(0)
    Traceback (most recent call last):
    ...
    ValueError: max_fpr must be in (0, 1] (the largest false positive rate kept); got 0
    """
    return check_real(max_fpr, name, minimum=0, maximum=1, open_min=True, allow_none=True,
                      meaning="the largest false positive rate kept")


def check_curve_coordinates(v, name):
    """Validate one coordinate of a curve's points: 1-D numbers, no infinity (NaN passes).

    Returns float64 (longdouble kept). NaN is kept so that it propagates to
    the area, as in scikit-learn.

    >>> check_curve_coordinates([0, 1], "x")
    array([0., 1.])
    >>> check_curve_coordinates([0.0, float("inf")], "y")
    Traceback (most recent call last):
    ...
    ValueError: y contains infinite values
    """
    arr = as_array(v, name, empty=False)
    arr = check_real_values(arr, name, allow_nan=True)
    if arr.dtype.kind != "f" or arr.dtype.itemsize < 8:
        arr = arr.astype(np.float64)
    return arr


def check_exactly_one(**arguments):
    """Refuse unless exactly one of the named arguments is given (not None).

    >>> check_exactly_one(y_topk=None, y_score=None)
    Traceback (most recent call last):
    ...
    ValueError: y_topk and y_score: give exactly one of them
    """
    given = [name for name, value in arguments.items() if value is not None]
    if len(given) != 1:
        raise ValueError(f"{' and '.join(arguments)}: give exactly one of them")
    return given[0]


def check_binary_or_matrix_scores(scores, n_classes, *, binary, name="y_score"):
    """Shape rule of ``top_k_accuracy_score``: 1-D (or one column) scores for a binary
    target, an n x C matrix otherwise. Returns the scores (1-D for binary).

    >>> check_binary_or_matrix_scores(np.zeros((2, 3)), 2, binary=True)
    Traceback (most recent call last):
    ...
    ValueError: y_score has 3 columns but y_true is binary: give 1-D scores of the second class, or labels= with every class if y_true lacks some
    """
    if binary:
        if scores.ndim == 2:
            if scores.shape[1] != 1:
                raise ValueError(
                    f"{name} has {scores.shape[1]} columns but y_true is binary: give 1-D "
                    "scores of the second class, or labels= with every class if y_true "
                    "lacks some")
            scores = scores[:, 0]
    elif scores.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x C classes) since y_true has "
                         f"{n_classes} classes; got an array of shape {scores.shape}")
    return scores


def check_columns_match_classes(n_columns, n_classes, name="y_score"):
    """Refuse a score matrix whose columns are not one per class of ``y_true``.

    >>> check_columns_match_classes(3, 2)
    Traceback (most recent call last):
    ...
    ValueError: y_score has 3 columns but y_true has 2 classes; give labels= with every class, in sorted order
    """
    if n_columns != n_classes:
        raise ValueError(
            f"{name} has {n_columns} columns but y_true has {n_classes} classes; "
            "give labels= with every class, in sorted order")
    return n_columns


# -- ranking inputs: ranked lists of item ids and each user's relevant items ----------
#
# One block (appended) for evalkit.ranking and evalkit.mllib.RankingMetrics. A ranked
# list or a set of relevant items becomes a flat array of ids plus row offsets
# (row i is ``items[offsets[i]:offsets[i + 1]]``); _counts.ranking_hits does the rest.

_ORDERED_ROWS = (list, tuple, np.ndarray)
_GROUPS = {"number": "numbers", "string": "strings", "bytes": "bytes", "object": "other hashable values"}


def _id_group(t):
    if issubclass(t, (bool, np.bool_, numbers.Real)) and not issubclass(t, (complex, np.complexfloating)):
        return "number"
    if issubclass(t, (str, np.str_)):
        return "string"
    if issubclass(t, (bytes, np.bytes_)):
        return "bytes"
    return "object"


def check_item_ids(flat, name):
    """Validate item ids (a list or 1-D array): hashable, one kind (numbers, strings...), no NaN.

    Returns a 1-D numpy array: int64 or float64 for numbers, a string dtype for
    strings, ``object`` for other hashable ids (tuples, say).

    >>> check_item_ids([3, 1, 2], "ranked").tolist()
    [3, 1, 2]
    >>> check_item_ids([[1], 2], "ranked")
    Traceback (most recent call last):
    ...
    TypeError: ranked holds unhashable item ids such as [1] (list): ids must be numbers, strings or other hashable values
    """
    arr = None
    if isinstance(flat, np.ndarray) and flat.dtype.kind in "biufUS":
        arr = flat
    elif isinstance(flat, list) and flat:
        try:  # Python ints: one strict C loop (floats, strings, None... raise)
            arr = np.frombuffer(array.array("q", flat), dtype=np.int64)
        except (TypeError, OverflowError):
            try:  # other numbers: one C loop; anything else is looked at type by type below
                arr = np.asarray(flat)
            except (ValueError, TypeError, OverflowError):
                arr = None
            if arr is not None and (arr.ndim != 1 or arr.dtype.kind not in "biuf"):
                arr = None
    if arr is None:
        kinds = set(map(type, flat))
        for t in kinds:
            if t.__hash__ is None or issubclass(t, np.ndarray):
                bad = next(v for v in flat if type(v) is t)
                raise TypeError(f"{name} holds unhashable item ids such as {bad!r} ({t.__name__}): "
                                "ids must be numbers, strings or other hashable values")
        groups = {_id_group(t) for t in kinds}
        if len(groups) > 1:
            shown = " and ".join(sorted(_GROUPS[g] for g in groups))
            raise TypeError(f"{name} mixes {shown} as item ids; use one kind of id (e.g. all strings)")
        group = groups.pop() if groups else "number"
        if group == "object" or (group == "number" and any(issubclass(t, (numbers.Complex,)) and not
                                                           issubclass(t, numbers.Real) for t in kinds)):
            arr = np.empty(len(flat), dtype=object)
            arr[:] = list(flat)
            return arr
        arr = np.asarray(flat) if len(flat) else np.zeros(0, dtype=np.int64)
        if group == "number" and arr.dtype.kind not in "biuf":
            arr = arr.astype(np.float64)
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} holds complex numbers as item ids")
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind == "f" and arr.size and not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "infinite values"
        raise ValueError(f"{name} holds {bad} as item ids")
    return arr


def _array_row(t):
    """True for array-likes other than numpy arrays (pandas Series, Index, ...)."""
    return (hasattr(t, "__array__") and not issubclass(t, (np.ndarray, str, bytes))
            and not issubclass(t, np.generic))


def _rows(value, name, what):
    """A top-level sequence of per-user rows (refusing None, scalars, sets, dicts, empty)."""
    _array_like(value, name, what, ordered=True)
    if isinstance(value, np.ndarray) and value.dtype != object:
        if value.ndim == 0:
            raise TypeError(f"{name} must be {what}, got a 0-d array")
        if value.shape[0] == 0:
            raise ValueError(f"{name} is empty: at least one user is needed")
        return value
    rows = list(value.values) if hasattr(value, "values") and not isinstance(value, np.ndarray) \
        else list(value)
    if not rows:
        raise ValueError(f"{name} is empty: at least one user is needed")
    return rows


def _flatten(rows, name, row_types):
    """Flat ids and offsets of a list of per-user rows (each must be one of ``row_types``)."""
    kinds = set(map(type, rows))
    arrays = {t for t in kinds if _array_row(t)}
    if arrays:  # pandas Series, Index, ...: as numpy arrays
        rows = [np.asarray(r) if type(r) in arrays else r for r in rows]
        kinds = (kinds - arrays) | {np.ndarray}
    for t in kinds:
        if not issubclass(t, row_types):
            i, bad = next((i, r) for i, r in enumerate(rows) if type(r) is t)
            if issubclass(t, (set, frozenset, dict)):
                raise TypeError(f"{name}[{i}] is a {t.__name__}: a ranked list must be ordered "
                                "(a list, tuple or array, best item first)")
            if np.isscalar(bad) or isinstance(bad, (str, bytes)) or bad is None:
                raise TypeError(f"{name}[{i}] is the single value {bad!r}, not a list: give one "
                                "list of item ids per user")
            raise TypeError(f"{name}[{i}] is a {t.__name__}, not a list of item ids")
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if kinds <= {np.ndarray} and set(map(operator.attrgetter("ndim"), rows)) == {1} and all(
            d.kind in "biufUS" for d in set(map(operator.attrgetter("dtype"), rows))):
        flat = np.concatenate(rows) if offsets[-1] else np.zeros(0, dtype=np.int64)
    else:
        bad = next((i for i, r in enumerate(rows) if isinstance(r, np.ndarray) and r.ndim != 1), None)
        if bad is not None:
            raise ValueError(f"{name}[{bad}] must be 1-D, got an array of shape {rows[bad].shape}")
        flat = list(itertools.chain.from_iterable(rows))
    return check_item_ids(flat, name), offsets


def check_ranked(ranked, name="ranked"):
    """Validate ranked lists: one ordered list of item ids per user, best first.

    ``ranked`` is a 2-D array (users x positions) or a list of lists, tuples
    or 1-D arrays (ragged: lists may differ in length, and may be empty).
    Returns ``(items, offsets)``: user i's list is ``items[offsets[i]:offsets[i+1]]``.
    Repeated items are found later, when the ids are encoded.

    >>> items, offsets = check_ranked([[3, 1], [2], []])
    >>> items.tolist(), offsets.tolist()
    ([3, 1, 2], [0, 2, 3, 3])
    >>> check_ranked([{1, 2}])
    Traceback (most recent call last):
    ...
    TypeError: ranked[0] is a set: a ranked list must be ordered (a list, tuple or array, best item first)
    """
    what = "one ranked list of item ids per user (a list of lists or a 2-D array)"
    rows = _rows(ranked, name, what)
    if isinstance(rows, np.ndarray):
        if rows.ndim != 2:
            raise ValueError(f"{name} must be 2-D (users x ranked items) or a list of lists, "
                             f"got an array of shape {rows.shape}")
        n, m = rows.shape
        return check_item_ids(rows.reshape(-1), name), np.arange(0, n * m + 1, max(m, 1)) \
            if m else np.zeros(n + 1, dtype=np.int64)
    return _flatten(rows, name, _ORDERED_ROWS)


def check_grades(grades, name="relevant"):
    """Validate relevance grades: real numbers, finite, >= 0 (0 = judged not relevant).

    >>> check_grades([2, 0, 1]).tolist()
    [2.0, 0.0, 1.0]
    >>> check_grades([1, -1])
    Traceback (most recent call last):
    ...
    ValueError: relevant has negative relevance grades such as -1.0: grades must be >= 0 (0 means not relevant)
    """
    arr = np.asarray(grades)
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} has relevance grades that are not numbers "
                            f"(dtype {arr.dtype})") from None
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} has NaN or infinite relevance grades")
    if (arr < 0).any():
        raise ValueError(f"{name} has negative relevance grades such as {arr[np.argmax(arr < 0)].item()!r}: "
                         "grades must be >= 0 (0 means not relevant)")
    return arr


def check_log_base(log_base, name="log_base"):
    """Validate the base of a logarithmic rank discount: a finite real number > 1.

    >>> check_log_base(2)
    2.0
    >>> check_log_base(1)
    Traceback (most recent call last):
    ...
    ValueError: log_base must be a real number > 1 (the base of the rank discount); got 1
    """
    if isinstance(log_base, bool) or not isinstance(log_base, numbers.Real):
        raise TypeError(f"{name} must be a real number > 1, got {log_base!r}")
    if not log_base > 1 or not np.isfinite(log_base):
        raise ValueError(f"{name} must be a real number > 1 (the base of the rank discount); "
                         f"got {log_base!r}")
    return float(log_base)


def check_relevant(relevant, n_users, name="relevant", of="ranked"):
    """Validate each user's relevant items: sets or lists, or dicts item -> grade.

    ``relevant[i]`` belongs to ``ranked[i]``: a set, list, tuple or 1-D array
    of ids (binary relevance), or a dict id -> grade >= 0 (graded relevance;
    grade 0 means judged not relevant). A 1-D array or a list of single ids
    means one relevant item per user (leave-one-out). Returns
    ``(items, offsets, grades)``, ``grades`` None when no row is a dict.

    >>> items, offsets, grades = check_relevant([{"a": 2, "b": 0}, {"c"}], 2)
    >>> items.tolist(), offsets.tolist(), grades.tolist()
    (['a', 'b', 'c'], [0, 2, 3], [2.0, 0.0, 1.0])
    >>> check_relevant([[1], [2]], 3)
    Traceback (most recent call last):
    ...
    ValueError: ranked and relevant have different numbers of users (3 and 2)
    """
    what = "the relevant items of each user (a list of sets, lists or dicts item -> grade)"
    if isinstance(relevant, (dict, set, frozenset)):
        raise TypeError(f"{name} must be a list with one entry per user (in the order of {of}), "
                        f"got a {type(relevant).__name__}")
    rows = _rows(relevant, name, what)
    n = len(rows)
    if n != n_users:
        raise ValueError(f"{of} and {name} have different numbers of users ({n_users} and {n})")
    if isinstance(rows, np.ndarray):
        if rows.ndim == 1:
            return check_item_ids(rows, name), np.arange(n + 1), None
        if rows.ndim != 2:
            raise ValueError(f"{name} must be a list of per-user items or a 2-D array, "
                             f"got an array of shape {rows.shape}")
        m = rows.shape[1]
        return check_item_ids(rows.reshape(-1), name), np.arange(0, n * m + 1, max(m, 1)) \
            if m else np.zeros(n + 1, dtype=np.int64), None
    kinds = set(map(type, rows))
    containers = (list, tuple, np.ndarray, set, frozenset, dict)
    if any(_array_row(t) for t in kinds):  # pandas Series, ...: as numpy arrays
        rows = [np.asarray(r) if _array_row(type(r)) else r for r in rows]
        kinds = set(map(type, rows))
    if not any(issubclass(t, containers) for t in kinds):  # one id per user
        return check_item_ids(rows, name), np.arange(n + 1), None
    graded = any(issubclass(t, dict) for t in kinds)
    if not graded:
        return (*_flatten(rows, name, (list, tuple, np.ndarray, set, frozenset)), None)
    keys, values = [], []
    for i, r in enumerate(rows):
        if isinstance(r, dict):
            keys.append(list(r.keys()))
            values.append(list(r.values()))
        elif isinstance(r, containers):
            keys.append(list(r))
            values.append([1.0] * len(keys[-1]))
        else:
            raise TypeError(f"{name}[{i}] is the single value {r!r}: give a set, list or dict "
                            "per user")
    items, offsets = _flatten(keys, name, (list,))
    grades = check_grades(list(itertools.chain.from_iterable(values)), name)
    return items, offsets, grades


# -- regression targets: real-valued y_true / y_pred, 1 or several outputs ----------
#
# One block for evalkit.regression (the sklearn mirrors MAE, MSE, RMSE and NMAE).
# Arrays are cast to the float dtype scikit-learn would use (the most precise float
# dtype among the inputs that are arrays, else float64), so the numbers match it
# bit for bit.

MULTIOUTPUT = {"raw_values": "one error per output",
               "uniform_average": "the plain mean over outputs"}


def _float_dtype(*arrays):
    """scikit-learn's choice of float dtype: the widest float dtype among real arrays."""
    floats = [a.dtype for a in arrays
              if hasattr(a, "dtype") and getattr(a.dtype, "kind", None) == "f"]
    return np.result_type(*floats) if floats else np.dtype(np.float64)


def check_real_array(y, name, *, dtype=np.float64, max_ndim=2):
    """Validate real-valued targets: 1-D (or n x m), non-empty, finite numbers.

    Returns a float array of ``dtype``. Booleans and integers are accepted;
    complex numbers and strings (even numeric ones) are refused, as
    scikit-learn refuses them (:func:`check_real_values`).

    >>> check_real_array([3, 4.5], "y_true")
    array([3. , 4.5])
    >>> check_real_array([3, float("inf")], "y_pred")
    Traceback (most recent call last):
    ...
    ValueError: y_pred contains infinite values
    """
    _array_like(y, name, "an array-like of numbers", ordered=True)
    try:
        arr = np.asarray(y)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{name} has rows of different lengths: every row must hold "
                         "one value per output") from None
    if arr.ndim == 0 or arr.ndim > max_ndim:
        shape = "1-D" if max_ndim == 1 else "1-D or 2-D (n samples x m outputs)"
        raise ValueError(f"{name} must be {shape}, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is needed")
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns: at least one output is needed")
    if arr.dtype.kind == "O" and any(v is None for v in arr.ravel()):
        raise ValueError(f"{name} contains None")
    arr = check_real_values(arr, name, finite=False).astype(dtype, copy=False)
    # a finite sum means every value is finite (one pass, no temporary); an infinite or
    # NaN sum may also come from overflow, so then look value by value
    if not np.isfinite(arr.sum()) and not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "infinite values"
        raise ValueError(f"{name} contains {bad}")
    return arr


def check_output_weights(weights, n_outputs, name="multioutput"):
    """Validate custom output weights: 1-D, one per output (m >= 2), >= 0, not all zero.

    >>> check_output_weights([1, 3], 2)
    array([1., 3.])
    >>> check_output_weights([1, 3], 1)
    Traceback (most recent call last):
    ...
    ValueError: multioutput weights are useful only with several outputs; y_true and y_pred have 1
    """
    w = check_real_array(weights, name, max_ndim=1)
    if n_outputs == 1:
        raise ValueError(f"{name} weights are useful only with several outputs; "
                         "y_true and y_pred have 1")
    if len(w) != n_outputs:
        raise ValueError(f"{name} has {len(w)} weights but there are {n_outputs} outputs: "
                         "give one weight per output")
    if (w < 0).any():
        raise ValueError(f"{name} contains negative weights such as "
                         f"{w[np.argmax(w < 0)].item()!r}: weights must be >= 0")
    if not w.any():
        raise ValueError(f"{name} weights are all zero: at least one output must count")
    return w


def check_regression_targets(y_true, y_pred, sample_weight=None, multioutput="uniform_average"):
    """Validate a regression problem as scikit-learn's ``_check_reg_targets`` does.

    Returns ``(y_true, y_pred, sample_weight, multioutput)``: both targets as
    n x m float arrays (a 1-D input is one output), ``sample_weight`` None or
    a length-n float array (>= 0, not all zero: see :func:`check_sample_weight`),
    and ``multioutput`` one of ``"raw_values"``, ``"uniform_average"`` or an
    array of m output weights.

    >>> yt, yp, w, mo = check_regression_targets([3, 5], [2.5, 5])
    >>> yt.shape, mo
    ((2, 1), 'uniform_average')
    >>> check_regression_targets([[1, 2]], [[1, 2, 3]])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_pred have different numbers of outputs (2 and 3)
    """
    dtype = _float_dtype(y_true, y_pred, sample_weight)
    yt = check_real_array(y_true, "y_true", dtype=dtype)
    yp = check_real_array(y_pred, "y_pred", dtype=dtype)
    check_same_length(y_true=yt, y_pred=yp)
    yt = yt.reshape(len(yt), -1)
    yp = yp.reshape(len(yp), -1)
    if yt.shape[1] != yp.shape[1]:
        raise ValueError(f"y_true and y_pred have different numbers of outputs "
                         f"({yt.shape[1]} and {yp.shape[1]})")
    w = check_sample_weight(sample_weight, len(yt))
    if w is not None:
        w = w.astype(dtype, copy=False)
    if isinstance(multioutput, str):
        multioutput = check_choice(multioutput, MULTIOUTPUT, "multioutput")
    else:
        if multioutput is None or np.isscalar(multioutput):
            raise TypeError("multioutput must be 'raw_values', 'uniform_average' or an "
                            f"array of output weights, got {multioutput!r}")
        multioutput = check_output_weights(multioutput, yt.shape[1])
    return yt, yp, w, multioutput


def check_rating_range(rating_range, name="rating_range"):
    """Validate a rating scale ``(lo, hi)``: two finite real numbers with lo < hi.

    >>> check_rating_range((1, 5))
    (1.0, 5.0)
    >>> check_rating_range((5, 1))
    Traceback (most recent call last):
    ...
    ValueError: rating_range must be (lo, hi) with lo < hi, the lowest and highest possible rating; got (5, 1)
    """
    if (isinstance(rating_range, (str, bytes, set, frozenset, dict))
            or not hasattr(rating_range, "__len__") or len(rating_range) != 2):
        raise TypeError(f"{name} must be a pair (lo, hi) of numbers, got {rating_range!r}")
    lo, hi = rating_range
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v):
            raise TypeError(f"{name} must be a pair (lo, hi) of finite numbers, "
                            f"got {rating_range!r}")
    if not lo < hi:
        raise ValueError(f"{name} must be (lo, hi) with lo < hi, the lowest and highest "
                         f"possible rating; got {rating_range!r}")
    return float(lo), float(hi)


# -- uncertainty and calibration (evalkit.uncertainty, evalkit.calibration) ----


def check_confidence(confidence, name="confidence"):
    """Validate a confidence level: a real number strictly between 0 and 1.

    >>> check_confidence(0.95)
    0.95
    >>> check_confidence(95)
    Traceback (most recent call last):
    ...
    ValueError: confidence must be strictly between 0 and 1 (0.95 for a 95 % interval); got 95
    """
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"{name} must be a real number between 0 and 1, got {confidence!r}")
    if not 0 < confidence < 1:  # also refuses nan
        raise ValueError(
            f"{name} must be strictly between 0 and 1 (0.95 for a 95 % interval); got {confidence!r}")
    return float(confidence)


def check_random_state(random_state, name="random_state"):
    """A ``numpy.random.Generator`` from ``None``, an integer seed or a Generator.

    >>> int(check_random_state(0).integers(10)) == int(check_random_state(0).integers(10))
    True
    >>> check_random_state("0")
    Traceback (most recent call last):
    ...
    TypeError: random_state must be None, an integer seed or a numpy.random.Generator, got '0'
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or (isinstance(random_state, numbers.Integral)
                                and not isinstance(random_state, bool)):
        if random_state is not None and random_state < 0:
            raise ValueError(f"{name} must be a non-negative integer seed; got {random_state!r}")
        return np.random.default_rng(random_state)
    raise TypeError(f"{name} must be None, an integer seed or a numpy.random.Generator, "
                    f"got {random_state!r}")


def check_probabilities(y_prob, name="y_prob"):
    """Validate 1-D probabilities: finite scores in [0, 1].

    >>> check_probabilities([0.2, 1.0])
    array([0.2, 1. ])
    >>> check_probabilities([0.2, 1.5])
    Traceback (most recent call last):
    ...
    ValueError: y_prob contains values outside [0, 1] such as 1.5: give probabilities, not decision scores
    """
    arr = check_scores(y_prob, name)
    bad = (arr < 0) | (arr > 1)
    if bad.any():
        raise ValueError(f"{name} contains values outside [0, 1] such as {arr[np.argmax(bad)].item()!r}: "
                         "give probabilities, not decision scores")
    return arr.astype(np.float64, copy=False)


def check_proportion(successes, trials):
    """Validate a count of successes out of trials: integers, 0 <= successes <= trials, trials >= 1.

    >>> check_proportion(9, 10)
    (9, 10)
    >>> check_proportion(11, 10)
    Traceback (most recent call last):
    ...
    ValueError: successes (11) must not exceed trials (10)
    """
    values = []
    for value, name, minimum in ((successes, "successes", 0), (trials, "trials", 1)):
        if isinstance(value, (float, np.floating)) and np.isfinite(value) and value == int(value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer count, got {value!r}")
        if value < minimum:
            raise ValueError(f"{name} must be >= {minimum}; got {value!r}")
        values.append(int(value))
    if values[0] > values[1]:
        raise ValueError(f"successes ({values[0]}) must not exceed trials ({values[1]})")
    return values[0], values[1]


# -- confusion matrices given as counts (evalkit.plot, evalkit.course.datasets) ------------


def check_count_matrix(counts, name="counts", *, whole=False):
    """Validate a confusion matrix of counts: square (C x C), real numbers, finite, >= 0.

    With ``whole`` the counts must also be whole numbers (each one a number
    of samples). Returns the matrix as a numpy array (not copied).

    >>> check_count_matrix([[1, 0], [2, 3]]).shape
    (2, 2)
    >>> check_count_matrix([[1, 0, 2]])
    Traceback (most recent call last):
    ...
    ValueError: counts must be a square matrix (C x C), got shape (1, 3)
    >>> check_count_matrix([[1, 0.5], [0, 2]], whole=True)
    Traceback (most recent call last):
    ...
    ValueError: counts must be whole non-negative numbers (one sample per count)
    """
    _array_like(counts, name, "a square matrix of counts", ordered=True)
    try:
        m = np.asarray(counts)
    except (TypeError, ValueError):
        raise ValueError(f"{name} has rows of different lengths: it must be a square "
                         "matrix (C x C)") from None
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise ValueError(f"{name} must be a square matrix (C x C), got shape {m.shape}")
    m = check_real_values(m, name, finite=False)
    if whole:
        if not np.all(np.isfinite(m)) or np.any(m < 0) or np.any(m != np.round(m)):
            raise ValueError(f"{name} must be whole non-negative numbers (one sample per count)")
        return m
    if not np.all(np.isfinite(m)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(m < 0):
        raise ValueError(f"{name} contains negative values: counts must be >= 0")
    return m


def check_row_labels(labels, n_rows, name="labels", *, of="counts"):
    """Validate labels naming the rows (and columns) of a matrix: 1-D, one per row.

    >>> check_row_labels(["a"], 2)
    Traceback (most recent call last):
    ...
    ValueError: labels must have one entry per row of counts (2), got 1
    """
    lab = np.asarray(labels)
    if lab.ndim != 1 or len(lab) != n_rows:
        raise ValueError(f"{name} must have one entry per row of {of} ({n_rows}), "
                         f"got {len(np.ravel(lab))}")
    return lab
