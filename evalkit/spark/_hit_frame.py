"""A ranked column's per-user hits as Spark expressions, and the hits read back in numpy.

:mod:`evalkit.spark.ranking` and :mod:`evalkit.spark.compare` both find hits this way.
"""

from __future__ import annotations

import numpy as np

from .._hits import RankingHits
from ._frame import NUMERIC, column_type, not_finite, raise_first, same_kind


def hit_columns(df, ranked_col, relevant_col, k, relevance_col):
    """The columns checked, then Spark expressions of one ranked column's per-user hits."""
    from pyspark.sql import functions as F

    rt = column_type(df, "ranked_col", ranked_col, ("ArrayType",), "arrays of item ids")
    tt = column_type(df, "relevant_col", relevant_col, ("ArrayType",), "arrays of item ids")
    same_kind(("ranked_col", ranked_col, rt.elementType),
               ("relevant_col", relevant_col, tt.elementType))
    ranked = F.coalesce(F.col(ranked_col), F.array().cast(rt))
    given = F.coalesce(F.col(relevant_col), F.array().cast(tt))
    relevant = F.array_distinct(given)
    top = ranked
    if k is not None:
        top = F.slice(ranked, 1, k)
    if relevance_col is None:   # every gain 1, R = the judged items: only positions leave
        # (`given`, not `relevant`, in lambdas: Spark would deduplicate it again for every item)
        found = F.transform(top, lambda x, i: F.when(F.array_contains(given, x), i))
        return {"pos": F.filter(found, lambda i: i.isNotNull()), "len": F.size(ranked),
                "r": F.size(relevant)}
    column_type(df, "relevance_col", relevance_col, ("ArrayType",), "arrays of numbers",
            elements=NUMERIC)
    grades = F.coalesce(F.col(relevance_col), F.array()).cast("array<double>")

    def grade_of(x):   # the last grade given to item x (Spark's toMap), 0 when not relevant
        at = F.array_position(F.reverse(given), x).cast("int")
        last = F.try_element_at(F.reverse(grades), F.greatest(at, F.lit(1)))
        return F.when(at > 0, last).otherwise(0.0)

    def hit(x, i):   # a struct (position, grade) where item x at position i is relevant
        return F.when(F.array_contains(given, x), F.struct(i.alias("i"), grade_of(x).alias("g")))

    judged = F.transform(relevant, grade_of)           # distinct items, first-seen order
    hits = F.filter(F.transform(top, hit), lambda h: h.isNotNull())
    ideal = F.sort_array(F.filter(judged, lambda g: g > 0), asc=False)
    as_given = judged
    if k is not None:
        ideal = F.slice(ideal, 1, k)
        as_given = F.slice(judged, 1, k)
    return {"pos": F.transform(hits, lambda h: h["i"]), "len": F.size(ranked),
            "gain": F.transform(hits, lambda h: h["g"]),
            "r": F.size(F.filter(judged, lambda g: g > 0)), "judged": F.size(relevant),
            "ideal": ideal,
            "given": as_given, "bad_len": F.size(grades) != F.size(given),
            "bad_grade": F.exists(grades, lambda g: not_finite(g) | (g < 0))}


def read_hits(get, k, relevance_col):
    """The :class:`RankingHits` of the Arrow columns of :func:`hit_columns` (``get(name)``)."""
    graded = relevance_col is not None
    name = f"relevance_col {relevance_col!r}"

    def column(c, dtype=np.int64):
        return get(c).to_numpy(zero_copy_only=False).astype(dtype)
    raise_first([
        (graded and np.count_nonzero(column("bad_len", bool)),
         name + " must hold one grade per item of relevant_col; {count} rows do not"),
        (graded and np.count_nonzero(column("bad_grade", bool)),
         name + " must hold finite grades >= 0; {count} rows hold null, NaN, infinite or "
         "negative ones"),
    ])
    user, position = flatten_lists(get("pos"))
    if not graded:
        return RankingHits(user, position, np.ones(len(position)), column("r"), column("len"),
                           graded=False, cut=k)
    gain = flatten_lists(get("gain"), np.float64)[1]
    return RankingHits(user, position, gain, column("r"), column("len"), padded(get("ideal")),
                       padded(get("given")), graded=True, n_judged=column("judged"), cut=k)


def flatten_lists(column, dtype=np.int64):
    """A column of arrays -> (row of each element, the elements), as numpy."""
    lists = column.combine_chunks()
    lengths = lists.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    rows = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
    return rows, lists.flatten().to_numpy(zero_copy_only=False).astype(dtype)


def padded(column):
    """A column of arrays of numbers -> an n x (longest) float matrix, padded with 0."""
    rows, values = flatten_lists(column, dtype=np.float64)
    n = len(column)
    lengths = np.bincount(rows, minlength=n)
    out = np.zeros((n, int(lengths.max(initial=0))))
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    out[rows, np.arange(len(rows)) - starts[rows]] = values
    return out
