"""Answers as data: how a graded notebook's answers leave the student's kernel.

In the classroom, a student's notebook runs in a sandbox and the comparison with the
answer key runs in the grader's own process. The two meet only through files of plain
JSON that this module writes and reads: the student's answer to each exercise (a value,
a letter, or what the student's function returned on each case's inputs). Nothing here
knows an expected value; patching it inside the student's kernel changes only what that
student answers.

The encoding keeps what a comparison needs: exact fractions, numpy arrays and their
dtype, the dtype of a float32 or float16 number (graded to its own precision), tuples,
and a marker for "no answer" (``...``). Anything else becomes a tag naming its type,
which matches no expected value.

>>> from fractions import Fraction
>>> import numpy as np
>>> decode(encode([Fraction(1, 3), (2, 3.5), np.array([1, 0])]))
[Fraction(1, 3), (2, 3.5), array([1, 0])]
>>> decode(encode(np.float32(0.25))).dtype
dtype('float32')
>>> decode(encode(...)) is ...
True
>>> encode(open)
{'function': 'open'}
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["MAX_BYTES", "capture", "decode", "encode", "read_answer"]

MAX_BYTES = 1 << 20          # an answer file larger than this is not read
_MAX_DEPTH = 8               # nesting deeper than this is not an answer
_NUMERIC_KINDS = "biuf"      # the array dtypes an answer may have


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON-ready form of ``value``; :func:`decode` gives the value back."""
    if value is ...:
        return {"ellipsis": True}
    if isinstance(value, np.generic):
        return _encode_scalar(value, depth)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if depth < _MAX_DEPTH and isinstance(value, np.ndarray) and value.dtype.kind in _NUMERIC_KINDS:
        return {"ndarray": encode(value.tolist(), depth + 1), "dtype": value.dtype.str}
    if depth < _MAX_DEPTH and isinstance(value, list):
        return [encode(v, depth + 1) for v in value]
    if depth < _MAX_DEPTH and isinstance(value, tuple):
        return {"tuple": [encode(v, depth + 1) for v in value]}
    if callable(value):
        return {"function": str(getattr(value, "__name__", "?"))[:80]}
    return {"other": type(value).__name__[:80]}


def _encode_scalar(value: np.generic, depth: int) -> Any:
    """A numpy scalar as its Python value; a float32 or float16 keeps its dtype.

    The grader judges a float32 to float32's own precision, so it must know
    the number was one.
    """
    if isinstance(value, np.floating) and value.dtype.itemsize < 8:
        return {"scalar": encode(value.item(), depth + 1), "dtype": value.dtype.str}
    return encode(value.item(), depth + 1)


def decode(data: Any) -> Any:
    """The value that :func:`encode` wrote; raises ValueError for anything else."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict) or len(data) not in (1, 2):
        raise ValueError(f"not an encoded answer: {type(data).__name__}")
    return _decode_tagged(data)


def _decode_tagged(data: dict) -> Any:
    if data.get("ellipsis") is True:
        return ...
    if "float" in data and data["float"] in ("nan", "inf", "-inf"):
        return float(data["float"])
    if "fraction" in data:
        numerator, denominator = data["fraction"]
        return Fraction(int(numerator), int(denominator))
    if "tuple" in data and isinstance(data["tuple"], list):
        return tuple(decode(v) for v in data["tuple"])
    if "scalar" in data:
        dtype = np.dtype(str(data.get("dtype")))
        number = decode(data["scalar"])
        if dtype.kind != "f" or isinstance(number, bool) or not isinstance(number, (int, float)):
            raise ValueError(f"not an encoded answer: a scalar of dtype {dtype}")
        return dtype.type(number)
    if "ndarray" in data:
        dtype = np.dtype(str(data.get("dtype")))
        if dtype.kind not in _NUMERIC_KINDS:
            raise ValueError(f"an answer array of dtype {dtype} is not read")
        return np.asarray(decode(data["ndarray"]), dtype=dtype)
    if set(data) in ({"function"}, {"other"}):
        return Unreadable(str(next(iter(data.values())))[:80])
    raise ValueError("not an encoded answer: unknown tag")


class Unreadable:
    """An answer of a kind no exercise expects (a module, a function for a value ...)."""

    def __init__(self, kind: str):
        self.kind = kind

    def __repr__(self) -> str:
        return f"<an answer of type {self.kind}>"


def capture(exercise_id: str, name: str, namespace: dict, folder: str,
            cases: list | None = None) -> None:
    """Write the student's answer to ``exercise_id`` into ``folder/<exercise_id>.json``.

    ``name`` is the variable the exercise binds in ``namespace`` (the notebook's globals);
    a missing name is no answer. For a function exercise, ``cases`` holds each case's
    positional arguments (encoded): the function is called on each, in the student's
    kernel, and what it returned (or the exception it raised) is written instead.
    """
    answer = namespace.get(name, ...)
    record: dict = {"answer": encode(answer)}
    if cases is not None and callable(answer):
        outputs = []
        for args in cases:
            try:
                outputs.append(["ok", encode(answer(*decode(args)))])
            except Exception as exc:  # the student's code may fail in any way
                outputs.append(["raised", f"{type(exc).__name__}: {exc}"[:300]])
        record = {"outputs": outputs}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{exercise_id}.json"), "w", encoding="utf-8") as fh:
        json.dump(record, fh)


def read_answer(path: str) -> dict:
    """An answer file as ``{"answer": value}`` or ``{"outputs": [(status, value), ...]}``.

    Raises ValueError for a file that is too large or not an answer.
    """
    if os.path.getsize(path) > MAX_BYTES:
        raise ValueError(f"the answer is larger than {MAX_BYTES} bytes")
    with open(path, encoding="utf-8") as fh:
        try:
            record = json.load(fh)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise ValueError(f"the answer file is not JSON ({type(exc).__name__})") from None
    if isinstance(record, dict) and set(record) == {"answer"}:
        return {"answer": decode(record["answer"])}
    is_outputs = isinstance(record, dict) and set(record) == {"outputs"}
    if is_outputs and isinstance(record["outputs"], list):
        outputs = []
        for item in record["outputs"]:
            status, value = item
            if status == "ok":
                outputs.append(("ok", decode(value)))
            elif status == "raised":
                outputs.append(("raised", str(value)[:300]))
            else:
                raise ValueError("an output is neither 'ok' nor 'raised'")
        return {"outputs": outputs}
    raise ValueError("the answer file holds no answer")
