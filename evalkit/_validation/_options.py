"""Declared options: the specs, :func:`validate_params`, cross-argument rules, and the usual
options, declared once."""

from __future__ import annotations

import functools
import inspect
import math
import numbers

import numpy as np

__all__ = ["Interval", "Integer", "Real", "Count", "Options", "Satisfies", "InstanceOf", "Bool",
           "compile_spec", "check", "validate_params", "sum_from_zero", "raise_first",
           "check_rules", "AVERAGES", "AVERAGE", "AVERAGES_SAMPLES", "AVERAGES_OF_SCORES",
           "AVERAGES_TOP_K", "NUM_BINS", "ZERO_WEIGHTS", "ZERO_WEIGHT", "BETA", "ZERO_DIVISION",
           "ZERO_DIVISION_SPARK", "K", "DIGITS", "TIES", "MAX_FPR", "CONFIDENCE", "COUNT",
           "POS_LABEL", "RANDOM_STATE", "WARN_FOR", "RATING_RANGE", "MULTIOUTPUT",
           "MULTIOUTPUT_R2", "STRATEGIES", "CALIBRATION_BINS", "EXACTLY_ONE", "POSITIVES",
           "BOTH_CLASSES"]


# -- declared options: the specs and validate_params ------------------------------------

# The kinds of the common scalar types, looked up without isinstance's walk of the ABCs.
_KINDS = {bool: "b", np.bool_: "b", int: "i", float: "f", str: "s", type(None): "n"}
# The other types, by the abstract type they belong to, tried in this order.
_ABSTRACT_KINDS = ((np.bool_, "b"), (numbers.Integral, "i"), (numbers.Real, "f"), (str, "s"))


def _kind(v):
    """The kind of a scalar: "b"ool, "i"nteger, "f"loat (real), "s"tring, "n"one, "" other."""
    known = _KINDS.get(type(v))
    if known is not None:
        return known
    for abstract, kind in _ABSTRACT_KINDS:
        if isinstance(v, abstract):
            return kind
    return ""


def _join(parts):
    """The alternatives of a message: ``a``, ``a or b``, ``a, b or c``."""
    if len(parts) == 1:
        return parts[0]
    head = ", ".join(parts[:-1])
    return f"{head} or {parts[-1]}"


def _or_none(what, none):
    """``what``, followed by " or None" when None is accepted too."""
    if none:
        return f"{what} or None"
    return what


_NUMBER_KINDS = {"integer": "an integer", "count": "an integer count"}


class Interval:
    """A number of ``kind`` (``"integer"``, ``"real"``, ``"count"``: whole), ``low`` to ``high``."""

    def __init__(self, kind, low=None, high=None, *, closed="both", meaning="", finite=True):
        self.integer = kind == "integer"
        self.count = kind == "count"
        self.low = low
        self.high = high
        self.meaning = meaning
        self.finite = finite
        self.open_low = closed in ("right", "neither")
        self.open_high = closed in ("left", "neither")
        self.kind = _NUMBER_KINDS.get(kind, "a real number")
        self.range = self._range_words()
        self.what = f"{self.kind} {self.range}".strip()

    def _range_words(self):
        """The range as a message says it: "in [0, 1)", ">= 1", "" (any number)."""
        low, high = self.low, self.high
        if low is None and high is None:
            return ""
        if high is None:
            sign = ">="
            if self.open_low:
                sign = ">"
            return f"{sign} {low}"
        if low is None:
            sign = "<="
            if self.open_high:
                sign = "<"
            return f"{sign} {high}"
        if self.open_low and self.open_high:
            return f"strictly between {low} and {high}"
        left = "["
        if self.open_low:
            left = "("
        right = "]"
        if self.open_high:
            right = ")"
        return f"in {left}{low}, {high}{right}"

    def type_ok(self, v):
        """An integer; a float too unless integers only; a count's float must be whole (90.0).

        Not a bool. NaN and infinities are of the right type: :meth:`accepts` refuses them.
        """
        kind = _kind(v)
        if kind == "i":
            return True
        if kind != "f" or self.integer:
            return False
        if not self.count:
            return True
        if v != v or math.isinf(v):
            return True
        return v == int(v)

    def accepts(self, v):
        if not self.type_ok(v):
            return False
        if v != v:  # NaN
            return False
        if self.finite and not self.integer and math.isinf(v):
            return False
        return self._above_low(v) and self._below_high(v)

    def _above_low(self, v):
        if self.low is None:
            return True
        if self.open_low:
            return v > self.low
        return v >= self.low

    def _below_high(self, v):
        if self.high is None:
            return True
        if self.open_high:
            return v < self.high
        return v <= self.high

    def fail(self, v, name, none=False):
        if not self.type_ok(v):
            raise TypeError(f"{name} must be {_or_none(self.kind, none)}, got {v!r}")
        if v == v and math.isinf(v) and self.finite:
            raise ValueError(f"{name} must be finite, got {v!r}")
        if not self.range:
            raise ValueError(f"{name} must not be NaN")
        meaning = ""
        if self.meaning:
            meaning = f" ({self.meaning})"
        raise ValueError(f"{name} must be {self.range}{meaning}; got {v!r}")


# Integer(1), Real(0, 1, closed="right"), Count(0): an Interval of each kind
Integer = functools.partial(Interval, "integer")
Real = functools.partial(Interval, "real")
Count = functools.partial(Interval, "count")  # a whole number, 90.0 too


def _option_words(value, meaning):
    """One option as a message names it: ``'auto' (one bin per distinct score)``."""
    if meaning:
        return f"{value!r} ({meaning})"
    return repr(value)


class Options:
    """One of a set of values: strings, ``None``, booleans or numbers (NaN too)."""

    def __init__(self, values):
        self.values = values
        kinds = [_kind(m) for m in values]
        self.exact = {m for m, kind in zip(values, kinds) if kind in ("n", "s")}
        self.bools = {bool(m) for m, kind in zip(values, kinds) if kind == "b"}
        numbers_ = [m for m, kind in zip(values, kinds) if kind in ("i", "f")]
        self.nan = any(m != m for m in numbers_)
        self.numbers = {m for m in numbers_ if m == m}
        self.kinds = set(kinds)
        if numbers_:
            self.kinds |= {"i", "f"}  # 1 and 1.0 are the same option
        self.what = self.describe()

    def type_ok(self, v):  # in a list of specs, a value of no member's kind is a TypeError
        return _kind(v) in self.kinds

    def accepts(self, v):
        kind = _kind(v)
        if kind in ("n", "s"):
            return v in self.exact
        if kind == "b":
            return bool(v) in self.bools
        if kind not in ("i", "f"):
            return False
        if v != v:  # NaN
            return self.nan
        return v in self.numbers

    def describe(self, none=False):
        """The options in words (``none``: None is one of them too)."""
        extra = []
        if none and None not in self.exact:
            extra = ["None"]
        if isinstance(self.values, dict):
            words = [_option_words(value, meaning) for value, meaning in self.values.items()]
            return _join(words + extra)
        words = [repr(value) for value in self.values]
        return "one of " + ", ".join(extra + words)

    def fail(self, v, name, none=False):
        raise ValueError(f"{name} must be {self.describe(none)}; got {v!r}")


class Satisfies:
    """A value for which ``test(value)`` is true (not ``of(value)``: a wrong type, a TypeError)."""

    def __init__(self, test, what, of=None):
        self.test = test
        self.what = what
        self.of = of

    def type_ok(self, v):
        """``of(v)``; without ``of``, a value that fails ``test`` is of the wrong type."""
        if self.of is None:
            return bool(self.test(v))
        return bool(self.of(v))

    def accepts(self, v):
        return self.type_ok(v) and bool(self.test(v))

    def fail(self, v, name, none=False):
        error = TypeError
        if self.type_ok(v):
            error = ValueError
        raise error(f"{name} must be {_or_none(self.what, none)}, got {v!r}")


def InstanceOf(types, what):
    """An instance of ``types``; ``what`` names it in the message ("a numpy.random.Generator")."""
    return Satisfies(lambda v: isinstance(v, types), what)


# numpy's booleans too; not 1 or "yes"
Bool = functools.partial(InstanceOf, (bool, np.bool_), "True or False")


def compile_spec(spec):
    """A function ``check(value, name)`` for one declaration (a spec, None, a list, a function)."""
    if callable(spec) and not hasattr(spec, "accepts"):  # a check_* function
        return spec
    if isinstance(spec, (list, tuple)):
        specs = list(spec)
    else:
        specs = [spec]
    none = None in specs and len(specs) > 1  # None beside other specs: None is allowed
    specs = [s for s in specs if s is not None]
    if not specs:  # None alone: the value must be None
        specs = [InstanceOf(type(None), "None")]

    def check(v, name):
        if none and v is None:
            return
        if any(s.accepts(v) for s in specs):
            return
        if len(specs) == 1:
            specs[0].fail(v, name, none)
        whats = [s.what for s in specs]
        if none:
            whats.append("None")
        error = TypeError
        if any(s.type_ok(v) for s in specs):
            error = ValueError
        raise error(f"{name} must be {_join(whats)}; got {v!r}")
    return check


def check(value, spec, name):
    """Check one value against a spec (or a list of specs) as :func:`validate_params` does."""
    compile_spec(spec)(value, name)
    return value


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


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
        names = [p.name for p in params]
        plan = []  # (name, its position among the positional arguments, its check)
        for name, spec in specs.items():
            if name not in names:
                raise TypeError(f"validate_params: {func.__qualname__} has no parameter {name!r}")
            position = names.index(name)
            if params[position].kind not in _POSITIONAL:
                position = math.inf  # keyword-only
            plan.append((name, position, compile_spec(spec)))

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for name, position, check_one in plan:
                if position < len(args):
                    check_one(args[position], name)
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


def raise_first(problems):
    """Raise a ``ValueError`` with the message of the first problem found: the one loop of rules.

    ``problems`` holds ``(found, message)`` pairs in order: ``found`` is a truth or a count
    (``{count}`` in a text message is replaced by it); ``message`` is the text, or a function
    of nothing that words it (called only for the problem found). A generator is read up to
    the first problem found, so a check may assume that the ones before it passed.

    >>> raise_first([(0, "no rows"), (3, "{count} null labels")])
    Traceback (most recent call last):
    ...
    ValueError: 3 null labels
    """
    for found, message in problems:
        if not found:
            continue
        if callable(message):
            raise ValueError(message())
        raise ValueError(message.replace("{count}", str(int(found))))


def _worded(message, values):
    """A rule's message as a function of nothing: a function of ``values``, or a format string."""
    if callable(message):
        return functools.partial(message, values)
    return functools.partial(message.format, **values)


def check_rules(rules, **values):
    """Cross-argument rules as data: the first rule that ``values`` break raises a ValueError.

    Each rule is ``(broken, message)``: ``broken(values)`` is true when the dict of
    ``values`` breaks it; ``message`` is a format string over the values, or a function of
    them. The rules are tried in order (:func:`raise_first`), so a rule may assume that the
    ones before it hold.

    >>> check_rules(EXACTLY_ONE, score=None, rank=None)
    Traceback (most recent call last):
    ...
    ValueError: score and rank: give exactly one of them
    """
    problems = ((broken(values), _worded(message, values)) for broken, message in rules)
    raise_first(problems)


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


def _is_one_label(v):
    """A number, a bool or a string, not NaN."""
    return isinstance(v, (numbers.Real, str, bytes, np.bool_)) and v == v


POS_LABEL = Satisfies(_is_one_label, "one label (a number, a bool or a string)")
RANDOM_STATE = [None, Integer(0, meaning="a seed"),
                InstanceOf(np.random.Generator, "a numpy.random.Generator")]


def _names_scores(v):
    return all(item in ("precision", "recall", "f-score") for item in v)


def _is_collection(v):
    return isinstance(v, (tuple, list, set, frozenset))


WARN_FOR = Satisfies(_names_scores, "a tuple, list or set of 'precision', 'recall', 'f-score'",
                     of=_is_collection)


def _is_pair_of_numbers(v):
    """Two finite numbers in an ordered container (not a string, set or dict)."""
    if isinstance(v, (str, bytes, set, frozenset, dict)):
        return False
    if not hasattr(v, "__len__") or len(v) != 2:
        return False
    return all(Real().accepts(x) for x in v)


def _rising(v):
    return v[0] < v[1]


RATING_RANGE = Satisfies(_rising, "a pair (lo, hi) of finite numbers with lo < hi, the lowest "
                         "and highest possible rating", of=_is_pair_of_numbers)


def _is_array_of_values(v):
    return v is not None and not np.isscalar(v)


MULTIOUTPUT = [Options(("raw_values", "uniform_average")),
               Satisfies(_is_array_of_values, "an array of output weights")]
#: R² and explained variance also weigh the outputs by the variance of y_true
MULTIOUTPUT_R2 = [Options(("raw_values", "uniform_average", "variance_weighted")), MULTIOUTPUT[1]]
#: How calibration bins are cut (``strategy=``), and the two options of every binning
STRATEGIES = {"uniform": "equal-width bins on [0, 1]",
              "quantile": "equal-mass bins at the quantiles of the probabilities"}
CALIBRATION_BINS = {"n_bins": Integer(1, meaning="the number of bins"),
                    "strategy": Options(STRATEGIES)}


# rules for check_rules: exactly one of the named arguments given; a sweep with the classes
# a curve needs
def _given_count_is_not_one(values):
    given = [value for value in values.values() if value is not None]
    return len(given) != 1


def _exactly_one_words(values):
    names = " and ".join(values)
    return f"{names}: give exactly one of them"


EXACTLY_ONE = [(_given_count_is_not_one, _exactly_one_words)]


def _no_positives(values):
    return values["sweep"].n_pos == 0


def _no_negatives(values):
    return values["sweep"].n_neg == 0


POSITIVES = [(_no_positives, "y_true has no positive samples: {why}")]
NEGATIVES = [(_no_negatives, "y_true has no negative samples: {why}")]
BOTH_CLASSES = POSITIVES + NEGATIVES
