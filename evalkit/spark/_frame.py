"""Checking a DataFrame's columns: each check a message naming the argument and the column."""

import numpy as np

from .._validation import Satisfies

_NUMERIC = ("ByteType", "ShortType", "IntegerType", "LongType", "FloatType", "DoubleType",
            "DecimalType")


def _type_name(dtype):
    return type(dtype).__name__


def _is_dataframe(df):
    from pyspark.sql import DataFrame

    return isinstance(df, DataFrame)


def _column(df, arg, col, kinds=None, what="", of="the DataFrame", elements=None):
    """The type of column ``col`` (given as argument ``arg``), or a ValueError naming both.

    ``kinds``: the allowed type names; ``elements``: those of an array's elements.
    """
    if col is None:
        return None
    fields = {f.name: f.dataType for f in df.schema.fields}
    dtype = fields.get(col)
    type_text = ""
    if dtype is not None:
        type_text = dtype.simpleString()
    _raise_first([
        (dtype is None, f"{arg} {col!r} is not a column of {of}; its columns are {list(fields)}"),
        (dtype is not None and (kinds and _type_name(dtype) not in kinds or elements and _type_name(
            dtype.elementType) not in elements),
         f"{arg} {col!r} must hold {what}, but its type is "
         f"{type_text}"),
    ])
    return dtype


def _same_kind(a, b):
    """``(arg, col, type)`` pairs ``a``, ``b``: both numbers or both not, else a ValueError."""
    _raise_first([((_type_name(a[2]) in _NUMERIC) != (_type_name(b[2]) in _NUMERIC),
                   f"{a[0]} {a[1]!r} ({a[2].simpleString()}) and {b[0]} {b[1]!r} "
                   f"({b[2].simpleString()}) must hold the same kind of labels or item ids "
                   "(both numbers or both strings)")])


def _raise_first(problems):
    """Raise the first ``(count, message)`` whose count is non-zero ({count} in it: the count)."""
    for count, message in problems:
        if count:
            raise ValueError(message.replace("{count}", str(int(count))))


_NOT_FINITE = " contains {count} null, NaN or infinite values"


def _not_finite(col):
    """``col`` is null, NaN, +inf or -inf (a Spark column expression)."""
    from pyspark.sql import functions as F

    return col.isNull() | F.isnan(col) | col.isin(float("inf"), float("-inf"))


_DF = Satisfies(_is_dataframe, "a pyspark.sql.DataFrame")
_COLUMN = Satisfies(lambda v: isinstance(v, str), "a column name (str)")
def _labels_array(values):
    arr = np.array(values)
    if arr.dtype.kind == "O":
        arr = np.array([str(v) for v in values])
    return arr

