"""Declared options: the specs, :func:`validate_params`, cross-argument rules, and the usual
options, declared once."""

from __future__ import annotations

import functools
import inspect
import math
import numbers

import numpy as np


# -- declared options: the specs and validate_params ------------------------------------

_KINDS = {bool: "b", np.bool_: "b", int: "i", float: "f", str: "s", type(None): "n"}


def _kind(v):
    """The kind of a scalar: "b"ool, "i"nteger, "f"loat (real), "s"tring, "n"one, "" other."""
    known = _KINDS.get(type(v))  # the common types, without isinstance's walk of the ABCs
    if known is not None:
        return known
    for abc, kind in ((np.bool_, "b"), (numbers.Integral, "i"), (numbers.Real, "f"), (str, "s")):
        if isinstance(v, abc):
            return kind
    return ""


def _join(parts):
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


class Interval:
    """A number of ``kind`` (``"integer"``, ``"real"``, ``"count"``: whole), ``low`` to ``high``."""

    def __init__(self, kind, low=None, high=None, *, closed="both", meaning="", finite=True):
        self.integer, self.count = kind == "integer", kind == "count"
        self.low, self.high, self.meaning, self.finite = low, high, meaning, finite
        ol, oh = closed in ("right", "neither"), closed in ("left", "neither")
        self.open_low, self.open_high = ol, oh
        self.kind = ("an integer" if self.integer else "an integer count" if self.count
                     else "a real number")
        both = None not in (low, high)
        self.range = ("" if low is None and high is None else f"strictly between {low} and {high}"
                      if both and ol and oh else
                      f"in {'(' if ol else '['}{low}, {high}{')' if oh else ']'}" if both
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
        infinite = v == v and math.isinf(v) and self.finite
        raise ValueError(f"{name} must be finite, got {v!r}" if infinite else
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
    """A value for which ``test(value)`` is true (not ``of(value)``: a wrong type, a TypeError)."""

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


# numpy's booleans too; not 1 or "yes"
Bool = functools.partial(InstanceOf, (bool, np.bool_), "True or False")


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
            if params[pos].kind not in (inspect.Parameter.POSITIONAL_ONLY,
                                        inspect.Parameter.POSITIONAL_OR_KEYWORD):
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
ZERO_DIVISION_SPARK = Options({**ZERO_DIVISION.values, "spark": ""})
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
WARN_FOR = Satisfies(lambda v: all(i in ("precision", "recall", "f-score") for i in v),
                     "a tuple, list or set of 'precision', 'recall', 'f-score'",
                     of=lambda v: isinstance(v, (tuple, list, set, frozenset)))
RATING_RANGE = Satisfies(lambda v: v[0] < v[1], "a pair (lo, hi) of finite numbers with lo < hi, "
                         "the lowest and highest possible rating", of=lambda v: not isinstance(v, (
                             str, bytes, set, frozenset, dict)) and hasattr(v, "__len__")
                         and len(v) == 2 and all(Real().accepts(x) for x in v))
MULTIOUTPUT = [Options(("raw_values", "uniform_average")),
               Satisfies(lambda v: v is not None and not np.isscalar(v),
                         "an array of output weights")]
#: R² and explained variance also weigh the outputs by the variance of y_true
MULTIOUTPUT_R2 = [Options(("raw_values", "uniform_average", "variance_weighted")), MULTIOUTPUT[1]]
# rules for check_rules: exactly one of the named arguments given; a sweep with the classes
# a curve needs
EXACTLY_ONE = [(lambda v: sum(x is not None for x in v.values()) != 1,
                lambda v: f"{' and '.join(v)}: give exactly one of them")]
POSITIVES = [(lambda v: v["sweep"].n_pos == 0, "y_true has no positive samples: {why}")]
NEGATIVES = [(lambda v: v["sweep"].n_neg == 0, "y_true has no negative samples: {why}")]
BOTH_CLASSES = POSITIVES + NEGATIVES
