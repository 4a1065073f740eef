"""Ranked lists and relevant items: flat item ids and row offsets for the hit finder; Spark's
ranking rows."""

from __future__ import annotations

import array
import contextlib
import itertools
import numbers
import operator

import numpy as np

from ._arrays import (as_array, check_array_like, check_real, check_sample_weight,
                      check_same_length, check_score_matrix)
from ._options import Real, check

__all__ = ["check_item_ids", "check_ranked", "check_grades", "check_relevant", "check_lists",
           "check_recall_levels", "check_catalog", "check_columns", "check_relevance_scores",
           "check_ranking_rows"]


# -- ranked lists and relevant items: flat item ids and row offsets, for the hit finder -----

_ID_KINDS = {   # the kinds of item id, as messages name them, and their types
    "complex numbers": (complex, np.complexfloating),
    "numbers": (bool, np.bool_, numbers.Real),
    "strings": str,
    "bytes": bytes,
}


def _id_kind(t):
    """The kind of item id of type ``t`` as messages name it ("numbers", "strings", ...)."""
    if t.__hash__ is None or issubclass(t, np.ndarray):
        return "unhashable"
    for kind, types in _ID_KINDS.items():
        if issubclass(t, types):
            return kind
    return "other hashable values"


def _ids_by_kind(flat, name):
    """Item ids of Python objects, read by their kind (one kind only), as an array."""
    kinds = {t: _id_kind(t) for t in set(map(type, flat))}
    groups = set(kinds.values())
    if "unhashable" in groups:
        bad = next(v for v in flat if kinds[type(v)] == "unhashable")
        raise TypeError(f"{name} holds unhashable item ids such as {bad!r} "
                        f"({type(bad).__name__}): ids must be numbers, strings or other "
                        "hashable values")
    if len(groups) > 1:
        raise TypeError(f"{name} mixes {' and '.join(sorted(groups))} as item ids; use one "
                        "kind of id (e.g. all strings)")
    if "complex numbers" in groups:
        raise TypeError(f"{name} holds complex numbers as item ids")
    if groups == {"other hashable values"}:
        return np.fromiter(flat, dtype=object, count=len(flat))
    if not len(flat):
        return np.zeros(0, dtype=np.int64)
    ids = np.asarray(flat)
    if groups == {"numbers"} and ids.dtype.kind not in "biuf":
        ids = ids.astype(np.float64)
    return ids


def check_item_ids(flat, name):
    """Item ids (a list or 1-D array): hashable, one kind (numbers, strings...), no NaN."""
    ids = None
    if isinstance(flat, np.ndarray) and flat.dtype.kind in "biufUS":
        ids = flat
    elif isinstance(flat, list) and flat:
        # Python ints: one strict C loop (it refuses anything else); else by type
        with contextlib.suppress(TypeError, OverflowError):
            ids = np.frombuffer(array.array("q", flat), dtype=np.int64)
    if ids is None:
        ids = _ids_by_kind(flat, name)
    if ids.dtype.kind == "f" and ids.size and not np.isfinite(ids).all():
        bad = "infinite values"
        if np.isnan(ids).any():
            bad = "NaN"
        raise ValueError(f"{name} holds {bad} as item ids")
    if ids.dtype.kind == "b":
        return ids.astype(np.int64)
    return ids


def _rows(value):
    """The users' rows: a numeric array as it is, anything else as a list of rows."""
    if isinstance(value, np.ndarray) and value.dtype != object:
        return value
    if hasattr(value, "values"):   # a pandas Series of lists
        return list(value.values)
    return list(value)


def _check_users(rows, name, n_users):
    """At least one user, a 2-D array (1-D too for relevant items), as many users as ranked."""
    if not len(rows):
        raise ValueError(f"{name} is empty: at least one user is needed")
    dims = (2,)
    if n_users is not None:
        dims = (1, 2)
    if isinstance(rows, np.ndarray) and rows.ndim not in dims:
        raise ValueError(f"{name} must be 2-D (users x items) or a list of lists, got an array "
                         f"of shape {rows.shape}")
    if n_users and len(rows) != n_users:
        raise ValueError(f"ranked and {name} have different numbers of users ({n_users} and "
                         f"{len(rows)})")


def _matrix_lists(rows, name):
    """A users x items array: every row of one length (a 1-D array: one id per user)."""
    if rows.ndim == 1:
        rows = rows[:, None]
    offsets = np.arange(len(rows) + 1) * rows.shape[1]
    return check_item_ids(rows.reshape(-1), name), offsets, rows


_ARRAY_ROW = (np.ndarray, str, bytes, np.generic)   # not read as array-likes


def _is_other_array(value):
    """A pandas Series or another array-like (not a numpy array, a string or a scalar)."""
    return hasattr(value, "__array__") and not isinstance(value, _ARRAY_ROW)


def _with_arrays(rows):
    """The rows, with pandas Series and other array-likes as numpy arrays."""
    if not any(_is_other_array(row) for row in rows):
        return rows
    out = []
    for row in rows:
        if _is_other_array(row):
            row = np.asarray(row)
        out.append(row)
    return out


def _not_a_row(i, row, name):
    """The TypeError for ``row``, user i's entry, which is no list of item ids."""
    if isinstance(row, (set, frozenset, dict)):
        what = (f"a {type(row).__name__}: a ranked list must be ordered (a list, tuple or array, "
                "best item first)")
    elif np.isscalar(row) or row is None:
        what = f"the single value {row!r}, not a list: give one list of item ids per user"
    else:
        what = f"a {type(row).__name__}, not a list of item ids"
    return TypeError(f"{name}[{i}] is {what}")


def _check_array_rows(rows, kinds, name):
    """Every numpy row is 1-D (all-array rows, all 1-D: one pass at C speed)."""
    if np.ndarray not in kinds:
        return
    if kinds == {np.ndarray} and set(map(operator.attrgetter("ndim"), rows)) == {1}:
        return
    for i, row in enumerate(rows):
        if isinstance(row, np.ndarray) and row.ndim != 1:
            raise ValueError(f"{name}[{i}] must be 1-D, got an array of shape {row.shape}")


def _flat(rows, kinds):
    """The rows' ids in one sequence, and the rows' offsets into it."""
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if kinds != {np.ndarray}:
        return list(itertools.chain.from_iterable(rows)), offsets
    if offsets[-1]:
        return np.concatenate(rows), offsets
    return np.zeros(0, np.int64), offsets


def _lists(value, name, what, n_users=None):
    """Per-user rows of ids: ``(items, offsets, rows)``.

    With ``n_users`` (relevant items): sets, dicts and one id per user too.
    """
    check_array_like(value, name, what)
    rows = _rows(value)
    _check_users(rows, name, n_users)
    if isinstance(rows, np.ndarray):
        return _matrix_lists(rows, name)
    rows = _with_arrays(rows)
    kinds = set(map(type, rows))
    row_types = (list, tuple, np.ndarray)
    if n_users:
        row_types = row_types + (set, frozenset, dict)
        if not any(issubclass(t, row_types) for t in kinds):   # one id per user
            return check_item_ids(rows, name), np.arange(n_users + 1), rows
    if not all(issubclass(t, row_types) for t in kinds):
        for i, row in enumerate(rows):
            if not isinstance(row, row_types):
                raise _not_a_row(i, row, name)
    _check_array_rows(rows, kinds, name)
    flat, offsets = _flat(rows, kinds)
    return check_item_ids(flat, name), offsets, rows


def check_ranked(ranked, name="ranked", *, needed=""):
    """Ranked lists, one per user, best first: ``(items, offsets)``, row i ``items[o[i]:o[i+1]]``.
    """
    what = "one ranked list of item ids per user (a list of lists or a 2-D array)"
    items, offsets, _ = _lists(ranked, name, what)
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


def _grades_of(row):
    """A row's grades: a dict's values, else 1 for each item (binary relevance)."""
    if isinstance(row, dict):
        return row.values()
    return [1.0] * len(row)


def check_relevant(relevant, n_users, name="relevant"):
    """Each user's relevant items (dicts: id -> grade): ``(items, offsets, grades or None)``."""
    what = "the relevant items of each user (a list of sets, lists or dicts item -> grade)"
    items, offsets, rows = _lists(relevant, name, what, n_users)
    if isinstance(rows, np.ndarray):
        return items, offsets, None
    if not any(issubclass(t, dict) for t in set(map(type, rows))):
        return items, offsets, None
    grades = itertools.chain.from_iterable(_grades_of(row) for row in rows)
    return items, offsets, check_grades(list(grades), name)


def check_lists(ranked, relevant):
    """Ranked and relevant lists of the same users, ids of one kind."""
    r_items, r_off = check_ranked(ranked)
    t_items, t_off, grades = check_relevant(relevant, len(r_off) - 1)
    kinds = [_id_kind(a.dtype.type) for a in (r_items, t_items) if len(a)]
    if len(set(kinds)) > 1:  # in the arguments' order, so the message is the same every run
        raise TypeError("ranked and relevant hold different kinds of item ids "
                        f"({' and '.join(kinds)}): no item could ever be a hit; use the same "
                        "kind in both")
    return r_items, r_off, t_items, t_off, grades


RECALL_LEVEL = Real(0, 1, meaning="a recall level")


def check_recall_levels(recall_level, name="recall_level"):
    """Recall levels in [0, 1], one number or a 1-D array: ``(levels as float64, one number)``."""
    if isinstance(recall_level, (numbers.Number, np.generic)):
        check(recall_level, RECALL_LEVEL, name)
        return np.array([float(recall_level)]), True
    levels = check_real(recall_level, name, floats=True)
    outside = (levels < 0) | (levels > 1)
    if outside.any():
        first = levels[outside][0].item()
        raise ValueError(f"{name} must be in [0, 1] (a recall level); got {first!r}")
    return levels, False


def _distinct(items):
    """The number of distinct item ids."""
    if items.dtype == object:
        return len(set(items.tolist()))
    return len(np.unique(items))


def check_catalog(catalog, items, name="catalog"):
    """A catalogue holding the recommended ``items`` (a size or the ids): its size."""
    if isinstance(catalog, numbers.Integral):
        distinct = _distinct(items)
        if distinct > catalog:
            raise ValueError(f"{name}={catalog} is smaller than the {distinct} distinct items "
                             "recommended")
        return int(catalog)
    if not isinstance(catalog, np.ndarray):
        catalog = list(catalog)
    ids = check_item_ids(catalog, name)
    if not len(ids):
        raise ValueError(f"{name} is empty: at least one item is needed")
    known = set(ids.tolist())
    for item in items.tolist():
        if item not in known:
            raise ValueError(f"ranked recommends items that are not in {name}, such as {item!r}")
    return len(known)


def _column(frame, col, what):
    try:
        return frame[col]
    except (KeyError, IndexError, TypeError, ValueError):
        raise ValueError(f"{what} has no column {col!r}") from None


def check_columns(frame, what, **columns):
    """The named columns of a table (a DataFrame or a mapping), arrays of one length.

    A column named None is None.
    """
    out = {}
    for arg, col in columns.items():
        key = f"{what}[{col!r}]"
        if col is None:
            out[key] = None
            continue
        if frame is None:
            raise ValueError(f"{arg} names a column of {what}, but {what} is None")
        out[key] = as_array(_column(frame, col, what), key)
    check_same_length(**out)
    return list(out.values())


def check_relevance_scores(y_true, y_score, sample_weight, metric="DCG"):
    """scikit-learn's ``dcg_score``/``ndcg_score`` input: relevance, scores, weights."""
    yt = check_score_matrix(y_true, "y_true")
    ys = check_score_matrix(y_score, "y_score")
    if yt.shape != ys.shape:
        raise ValueError(f"y_true and y_score have different shapes ({yt.shape} and {ys.shape}): "
                         "one row per query, one column per document")
    if yt.shape[1] < 2:
        raise ValueError(f"{metric} is only meaningful when there is more than 1 document per "
                         f"row; y_true has {yt.shape[1]} column")
    if metric == "NDCG" and (yt < 0).any():
        raise ValueError(f"y_true has negative values such as {yt[yt < 0][0].item()!r}: "
                         "ndcg_score should not be used on negative y_true values")
    weights = check_sample_weight(sample_weight, yt.shape[0])
    return yt.astype(np.float64, copy=False), ys, weights


def check_ranking_rows(rows, name="predictionAndLabels"):
    """Spark's ``RankingMetrics`` rows: at least one ``(prediction, labels[, relevance])``."""
    as_tuples = []
    for row in rows:
        if isinstance(row, (tuple, list)):
            row = tuple(row)
        as_tuples.append(row)
    well_formed = all(isinstance(r, tuple) and len(r) in (2, 3) for r in as_tuples)
    if not as_tuples or not well_formed:
        raise ValueError(f"{name} must hold at least one (prediction, labels) or (prediction, "
                         f"labels, relevance) row, got {as_tuples[:3]!r}")
    return as_tuples
