"""Checking a DataFrame's columns: each check a message naming the argument and the column."""

import contextlib

import numpy as np

from .._validation import Satisfies
from .._validation._options import raise_first  # evalkit.spark's checks raise through it

NUMERIC = ("ByteType", "ShortType", "IntegerType", "LongType", "FloatType", "DoubleType",
            "DecimalType")


def type_name(dtype):
    return type(dtype).__name__


def is_dataframe(df):
    from pyspark.sql import DataFrame

    return isinstance(df, DataFrame)


def column_type(df, arg, col, kinds=None, what="", of="the DataFrame", elements=None):
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
    raise_first([
        (dtype is None, f"{arg} {col!r} is not a column of {of}; its columns are {list(fields)}"),
        (dtype is not None and (kinds and type_name(dtype) not in kinds or elements and type_name(
            dtype.elementType) not in elements),
         f"{arg} {col!r} must hold {what}, but its type is "
         f"{type_text}"),
    ])
    return dtype


def same_kind(a, b):
    """``(arg, col, type)`` pairs ``a``, ``b``: both numbers or both not, else a ValueError."""
    raise_first([((type_name(a[2]) in NUMERIC) != (type_name(b[2]) in NUMERIC),
                   f"{a[0]} {a[1]!r} ({a[2].simpleString()}) and {b[0]} {b[1]!r} "
                   f"({b[2].simpleString()}) must hold the same kind of labels or item ids "
                   "(both numbers or both strings)")])


NOT_FINITE = " contains {count} null, NaN or infinite values"


def not_finite(col):
    """``col`` is null, NaN, +inf or -inf (a Spark column expression)."""
    from pyspark.sql import functions as F

    return col.isNull() | F.isnan(col) | col.isin(float("inf"), float("-inf"))


DATAFRAME = Satisfies(is_dataframe, "a pyspark.sql.DataFrame")
COLUMN = Satisfies(lambda v: isinstance(v, str), "a column name (str)")
def labels_array(values):
    arr = np.array(values)
    if arr.dtype.kind == "O":
        arr = np.array([str(v) for v in values])
    return arr


class OnExecutors(contextlib.AbstractContextManager):
    """A Spark action running evalkit's functions: a missing evalkit said plainly."""

    def __exit__(self, kind, error, traceback):
        if error is not None and "No module named 'evalkit'" in str(error):
            raise ModuleNotFoundError(
                "evalkit is not installed on the Spark executors, which run evalkit's functions "
                "here: install evalkit in the executors' Python (spark.pyspark.python), or call "
                "evalkit.spark.ship(spark) once to send it with the session",
                name="evalkit") from error
