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

def _id_kind(t):
    """The kind of item id of type ``t`` as messages name it ("numbers", "strings", ...)."""
    if t.__hash__ is None or issubclass(t, np.ndarray):
        return "unhashable"
    kinds = {"complex numbers": (complex, np.complexfloating),
             "numbers": (bool, np.bool_, numbers.Real), "strings": str, "bytes": bytes}
    return next((k for k, types in kinds.items() if issubclass(t, types)), "other hashable values")


def check_item_ids(flat, name):
    """Item ids (a list or 1-D array): hashable, one kind (numbers, strings...), no NaN."""
    arr = flat if isinstance(flat, np.ndarray) and flat.dtype.kind in "biufUS" else None
    if arr is None and isinstance(flat, list) and flat:
        # Python ints: one strict C loop; else by type
        with contextlib.suppress(TypeError, OverflowError):
            arr = np.frombuffer(array.array("q", flat), dtype=np.int64)
    if arr is None:
        kinds = {t: _id_kind(t) for t in set(map(type, flat))}
        groups = set(kinds.values())
        if "unhashable" in groups:
            bad = next(v for v in flat if kinds[type(v)] == "unhashable")
            raise TypeError(f"{name} holds unhashable item ids such as {bad!r} "
                            f"({type(bad).__name__}): ids must be numbers, strings or other "
                            "hashable values")
        if len(groups) > 1 or "complex numbers" in groups:
            raise TypeError(f"{name} mixes {' and '.join(sorted(groups))} as item ids; use one "
                            "kind of id (e.g. all strings)" if len(groups) > 1 else
                            f"{name} holds complex numbers as item ids")
        if groups == {"other hashable values"}:
            return np.fromiter(flat, dtype=object, count=len(flat))
        arr = np.asarray(flat) if len(flat) else np.zeros(0, dtype=np.int64)
        if groups == {"numbers"} and arr.dtype.kind not in "biuf":
            arr = arr.astype(np.float64)
    if arr.dtype.kind == "f" and arr.size and not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "infinite values"
        raise ValueError(f"{name} holds {bad} as item ids")
    return arr.astype(np.int64) if arr.dtype.kind == "b" else arr


def _lists(value, name, what, n_users=None):
    """Per-user rows of ids: ``(items, offsets, rows)``.

    With ``n_users`` (relevant items): sets, dicts and one id per user too.
    """
    check_array_like(value, name, what)
    rows = value if isinstance(value, np.ndarray) and value.dtype != object else \
        list(value.values if hasattr(value, "values") else value)
    dims = (2,) if n_users is None else (1, 2)
    wrong = isinstance(rows, np.ndarray) and rows.ndim not in dims
    if not len(rows) or len(rows) != (n_users or len(rows)) or wrong:
        raise ValueError(f"{name} is empty: at least one user is needed" if not len(rows) else
                         f"{name} must be 2-D (users x items) or a list of lists, got an array "
                         f"of shape {rows.shape}" if wrong else f"ranked and {name} have "
                         f"different numbers of users ({n_users} and {len(rows)})")
    if isinstance(rows, np.ndarray):
        rows = rows[:, None] if rows.ndim == 1 else rows
        offsets = np.arange(len(rows) + 1) * rows.shape[1]
        return check_item_ids(rows.reshape(-1), name), offsets, rows
    kinds, array_row = set(map(type, rows)), (np.ndarray, str, bytes, np.generic)
    # pandas Series and other array-likes as rows
    if any(hasattr(t, "__array__") and not issubclass(t, array_row) for t in kinds):
        rows = [np.asarray(r) if hasattr(r, "__array__") and not isinstance(r, array_row) else r
                for r in rows]
        kinds = set(map(type, rows))
    ok = (list, tuple, np.ndarray) + ((set, frozenset, dict) if n_users else ())
    if n_users and not any(issubclass(t, ok) for t in kinds):  # one id per user
        return check_item_ids(rows, name), np.arange(n_users + 1), rows
    if not all(issubclass(t, ok) for t in kinds):
        i, r = next((i, r) for i, r in enumerate(rows) if not isinstance(r, ok))
        raise TypeError(f"{name}[{i}] is " + (
            f"a {type(r).__name__}: a ranked list must be ordered (a list, tuple or array, "
            "best item first)" if isinstance(r, (set, frozenset, dict)) else
            f"the single value {r!r}, not a list: give one list of item ids per user"
            if np.isscalar(r) or r is None
            else f"a {type(r).__name__}, not a list of item ids"))
    ndims = kinds == {np.ndarray} and set(map(operator.attrgetter("ndim"), rows))
    if np.ndarray in kinds and ndims != {1}:
        i = next((i for i, r in enumerate(rows) if isinstance(r, np.ndarray) and r.ndim != 1), None)
        if i is not None:
            raise ValueError(f"{name}[{i}] must be 1-D, got an array of shape {rows[i].shape}")
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, rows), dtype=np.int64, count=len(rows)), out=offsets[1:])
    if kinds == {np.ndarray}:
        flat = np.concatenate(rows) if offsets[-1] else np.zeros(0, np.int64)
    else:
        flat = list(itertools.chain.from_iterable(rows))
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


def check_relevant(relevant, n_users, name="relevant"):
    """Each user's relevant items (dicts: id -> grade): ``(items, offsets, grades or None)``."""
    what = "the relevant items of each user (a list of sets, lists or dicts item -> grade)"
    items, offsets, rows = _lists(relevant, name, what, n_users)
    if isinstance(rows, np.ndarray) or not any(issubclass(t, dict) for t in set(map(type, rows))):
        return items, offsets, None
    grades = itertools.chain.from_iterable(r.values() if isinstance(r, dict) else [1.0] * len(r)
                                           for r in rows)
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


def check_catalog(catalog, items, name="catalog"):
    """A catalogue holding the recommended ``items`` (a size or the ids): its size."""
    distinct = len(set(items.tolist())) if items.dtype == object else len(np.unique(items))
    if isinstance(catalog, numbers.Integral):
        if distinct > catalog:
            raise ValueError(f"{name}={catalog} is smaller than the {distinct} distinct items "
                             "recommended")
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
