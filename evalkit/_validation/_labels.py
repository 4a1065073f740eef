"""Labels: class labels, pairs of targets, indicator matrices, label lists, the positive class,
target names."""

from __future__ import annotations

import numpy as np

from ..exceptions import warn_at_caller
from ._arrays import as_array, check_real_values, check_same_length, is_string_like
from ._options import POS_LABEL, check

__all__ = ["check_labels", "check_same_kind", "check_targets", "check_indicator",
           "refuse_matrix_beside_vector", "check_label_list", "check_column_classes",
           "BINARY_PROBA", "positive_of", "check_pos_label", "check_target_names"]


# -- labels --------------------------------------------------------------------------------

def _is_text(v):
    return isinstance(v, (str, bytes))


def _mixes_text_and_numbers(y):
    """A list or tuple of which some entries are strings and others not.

    numpy silently turns ``["a", 1]`` into strings; such a list is read as objects instead.
    """
    if not isinstance(y, (list, tuple)):
        return False
    return not all(_is_text(v) for v in y)


def _object_labels(arr, name):
    """Labels numpy read as objects: strings as they are, booleans as bool, numbers as numbers."""
    has_text = [_is_text(v) for v in arr]
    if any(has_text) and not all(has_text):
        raise TypeError(f"{name} mixes strings and numbers; use one kind of label "
                        "(e.g. all strings)")
    if any(has_text):
        return arr
    if all(isinstance(v, (bool, np.bool_)) for v in arr):
        return arr.astype(bool)
    return check_real_values(arr, name, finite=False)


def check_labels(y, name):
    """Class labels: 1-D, non-empty, discrete (ints, bools, integral floats, strings), one kind."""
    arr = as_array(y, name)
    if arr.dtype.kind in "US" and _mixes_text_and_numbers(y):
        arr = np.asarray(y, dtype=object)
    if arr.dtype.kind == "O":
        arr = _object_labels(arr, name)
        if arr.dtype.kind in "Ob":  # strings or booleans
            return arr
    if arr.dtype.kind not in "biufUS":
        raise TypeError(f"{name} must hold class labels (integers, booleans or strings), "
                        f"got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        fractional = check_real_values(arr, name) != np.round(arr)
        if fractional.any():
            bad = arr[np.argmax(fractional)].item()
            raise ValueError(f"{name} contains non-integer numbers such as {bad!r}: class labels "
                             "must be discrete (integers, booleans or strings), not scores")
    return arr


def check_same_kind(a, b, names):
    """Refuse two label arrays of which one holds strings and the other numbers."""
    kinds = []
    for labels in (a, b):
        if is_string_like(labels):
            kinds.append("strings")
        else:
            kinds.append("numbers")
    if kinds[0] != kinds[1]:
        raise TypeError(f"{' and '.join(names)} hold different kinds of labels "
                        f"({' and '.join(kinds)}); use the same kind in both")


def check_targets(y_true, y_pred, *, names=("y_true", "y_pred")):
    """A pair of label arrays: ``("binary" or "multiclass", y_true, y_pred)``.

    Each is read by :func:`check_labels`; the two must have the same length and hold
    the same kind of labels (strings or numbers). The pair is binary when its labels take
    at most two values in all.
    """
    true_name, pred_name = names
    yt = check_labels(y_true, true_name)
    yp = check_labels(y_pred, pred_name)
    check_same_length(**{true_name: yt, pred_name: yp})
    check_same_kind(yt, yp, names)
    if _at_most_two_values(yt, yp):
        return "binary", yt, yp
    return "multiclass", yt, yp


def _second_value(first, yt, yp):
    """A label of ``yt`` or ``yp`` other than ``first``; ``first`` itself when there is none.

    The first 64 labels of each array are searched before the whole arrays: a second
    value is usually found among them, without a pass over all the labels.
    """
    for labels in (yt[:64], yp[:64], yt, yp):
        i = np.argmax(labels != first)
        if labels[i] != first:
            return labels[i]
    return first


def _at_most_two_values(yt, yp):
    """Whether the labels of ``yt`` and ``yp`` take at most two values, found without a sort.

    The first value is ``yt[0]``, the second any other label; then every label is
    compared with both.
    """
    first = yt[0]
    second = _second_value(first, yt, yp)
    for labels in (yt, yp):
        if not ((labels == first) | (labels == second)).all():
            return False
    return True


def _is_indicator(m, shape):
    """Whether ``m`` is an n x L matrix (L >= 2; ``shape``, when given) of 0 and 1 only."""
    if m.ndim != 2 or m.shape[1] < 2:
        return False
    if shape and m.shape != shape:
        return False
    if m.dtype.kind not in "biuf":
        return False
    return bool(((m == 0) | (m == 1)).all())


def check_indicator(y, name, *, shape=None):
    """A multilabel indicator matrix: n x L (L >= 2) of 0 and 1, as booleans."""
    m = as_array(y, name, ndim=(1, 2))
    if _is_indicator(m, shape):
        return m.astype(bool)
    expected = "(n, L)"
    mix = ""
    if shape:
        expected = shape
        mix = "; a mix of multilabel-indicator and multiclass targets is refused"
    raise ValueError(f"{name} must be a 0/1 indicator matrix of shape {expected} "
                     "(a multilabel indicator: n samples x L >= 2 labels), got shape "
                     f"{m.shape}{mix}")


def refuse_matrix_beside_vector(y_pred, name="y_pred"):
    """A 2-D ``y_pred`` beside a 1-D ``y_true``: refused, naming ``y_pred``.

    scikit-learn ravels an (n, 1) column silently; evalkit refuses it (a
    column is often a mistake: scores of one class, a DataFrame's column).
    """
    yp = as_array(y_pred, name, ndim=(1, 2, 3))
    hint = "a mix of multiclass and multilabel-indicator targets is refused"
    if yp.shape[1:] == (1,):
        hint = "a column of shape (n, 1) is refused (scikit-learn ravels it): pass y_pred.ravel()"
    raise ValueError(f"{name} must be 1-D like y_true, got an array of shape {yp.shape}: {hint}")


def _are_column_indices(lab, n_columns):
    """Whether the labels are integers in [0, n_columns)."""
    if lab.dtype.kind not in "iu":
        return False
    return 0 <= lab.min() <= lab.max() < n_columns


def check_label_list(labels, name="labels", *, classes=None, n=None, of="y_score", ordered=False,
                     indices=None, in_y_true=None):
    """``labels=``: 1-D, non-empty, no duplicates, of the kind and count the data needs.

    ``classes``: the labels in the data (the same kind is needed); ``n``: the number of
    columns of ``of`` the labels name; ``ordered``: sorted; ``indices``: column indices
    in [0, indices); ``in_y_true``: at least one of them among these labels.
    """
    lab = as_array(labels, name, expected="an array-like of labels",
                   empty="give at least one label, or None for all")
    if classes is not None:
        check_same_kind(lab, classes, (name, "the labels in the data"))
    if is_string_like(lab):
        lab = lab.astype(str)
    else:
        lab = check_labels(lab, name)
    uniq, counts = np.unique(lab, return_counts=True)
    repeated = counts > 1
    if repeated.any():
        raise ValueError(f"{name} contains duplicates such as {uniq[repeated][0].item()!r}")
    if n is not None and len(lab) != n:
        raise ValueError(f"{name} has {len(lab)} entries but {of} has {n} columns: "
                         "give one label per column")
    if ordered and not (uniq == lab).all():
        raise ValueError(f"{name} must be sorted (column j of {of} scores the j-th "
                         "smallest label, as in scikit-learn)")
    if in_y_true is not None and not np.isin(lab, in_y_true).any():
        raise ValueError(f"{name}: at least one label given must occur in y_true")
    if indices is not None and not _are_column_indices(lab, indices):
        raise ValueError(f"{name} must be column indices in [0, {indices}) for multilabel targets "
                         f"(All labels must be in [0, n labels)); got {lab.tolist()}")
    return lab


def check_column_classes(y, labels, n_columns, *, of="y_score", sklearn=True):
    """A score matrix's column labels and y's columns.

    The labels default to scikit-learn's sorted classes (``sklearn``), else 0..C-1.
    """
    if labels is None and sklearn:
        columns = np.unique(y)
    elif labels is None:
        columns = np.arange(n_columns)
    else:
        classes = None
        if sklearn:
            classes = y
        columns = check_label_list(labels, classes=classes, n=n_columns, of=of, ordered=sklearn)
    if len(columns) != n_columns:  # only y's own classes can miscount
        raise ValueError(f"{of} has {n_columns} columns but y_true has {len(columns)} "
                         "classes; give labels= with every class, in sorted order")
    check_same_kind(y, columns, ("y_true", "labels"))
    sorter = np.argsort(columns, kind="stable")
    sorted_columns = columns[sorter]
    position = np.minimum(np.searchsorted(sorted_columns, y), len(columns) - 1)
    found = sorted_columns[position] == y
    if not found.all():
        raise ValueError(f"y_true contains labels that name no column of {of}, such as "
                         f"{y[np.argmin(found)].item()!r}: name the columns with labels=")
    return columns, sorter[position]


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
    if larger is True:
        return y == classes[-1]
    if larger and classes.dtype.kind in "biuf":  # larger="numbers"
        return y == classes[-1]
    shown = classes.tolist()
    if len(classes) > 10:
        shown = classes[:10].tolist() + ["..."]
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
    if lo >= -1 and hi <= 1:
        if not (lo == -1 and (y == 0).any()):  # {0, 1} or {-1, 1}, not all three
            return y == 1
    if not larger:
        return None
    positive = y == hi
    two = lo == hi or np.count_nonzero(positive) + np.count_nonzero(y == lo) == len(y)
    if two:
        return positive
    return None


def check_pos_label(pos_label, present, name="pos_label"):
    """A ``pos_label`` among the labels ``present``."""
    check(pos_label, [None, POS_LABEL], name)
    present = np.asarray(present)
    given = np.asarray([pos_label], dtype=object)
    if not np.isin(given, present.astype(object)).any():
        raise ValueError(f"{name}={pos_label!r} is not a valid label: it should be one of "
                         f"{present.tolist()}")
    return pos_label


def check_target_names(target_names, n_classes, *, strict, classes=None):
    """A report's row names, one per class: another length raises if ``strict``, else warns."""
    if isinstance(target_names, (str, bytes, set, frozenset, dict)) or np.isscalar(target_names):
        raise TypeError("target_names must be a list of names, one per class, "
                        f"got {target_names!r}")
    names = list(target_names)
    if len(names) == n_classes:
        return names
    if strict and classes is not None:
        raise ValueError(f"target_names has {len(names)} names but the report has {n_classes} "
                         f"classes ({list(classes)})")
    if strict:
        raise ValueError(f"target_names has {len(names)} names but there are {n_classes} "
                         "classes in y_true and y_pred; give labels= to choose the classes "
                         "they name")
    warn_at_caller(f"labels size, {n_classes}, does not match size of target_names, "
                   f"{len(names)}", UserWarning)
    return names
