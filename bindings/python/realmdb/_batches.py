"""Arrays of db_value_t, a column or a table at a time.

:func:`pack_rows` fills the whole ``create_many`` array in one pass per column, and
:func:`decode_column` reads a batch of one property's values (``Results.values``), both through
strided memoryviews over the raw bytes rather than one value at a time; values of other types
go through :mod:`realmdb._values` one by one.
"""
from __future__ import annotations

import ctypes
import itertools
import operator
import sys
import threading
from array import array
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, cast

from ._arguments import utf8
from ._c_types import VALUE_SIZE, PropertyType, ValueType
from ._values import _TAG, StoredValue, ValueArray, _address, _string_at, decode_values, pack_value_into, value_array

__all__ = ["pack_rows", "decode_column", "column_scratch"]


# --------------------------------------------------------------------------
# Bulk: rows -> one contiguous db_value_t array (create_many)
# --------------------------------------------------------------------------
#
# The array is filled column by column. It is viewed as uint64 words (3 per
# value: tag + padding, payload low, payload high), so one column's tags and
# payloads are written with strided memoryview assignments from array('q'/'d'/'Q')
# buffers: no Python-level loop per value for the common types. Values whose
# Python type is not the column's usual one (None, an int for a double, a
# subclass, an overflowing int) are patched afterwards one by one with
# pack_value_into, as are columns of other types (dates, ObjectIds, ...).

_LITTLE = sys.byteorder == "little"
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1

# property type -> (expected Python type, tag written, payload array typecode or "ptr")
_FAST: Dict[int, Tuple[type, int, str]] = {
    PropertyType.INT: (int, ValueType.INT, "q"),
    PropertyType.BOOL: (bool, ValueType.BOOL, "Q"),
    PropertyType.DOUBLE: (float, ValueType.DOUBLE, "d"),
    PropertyType.FLOAT: (float, ValueType.DOUBLE, "d"),  # the library narrows double -> float
    PropertyType.STRING: (str, ValueType.STRING, "ptr"),
    PropertyType.DATA: (bytes, ValueType.DATA, "ptr"),
}
_PLACEHOLDER = {"q": 0, "Q": False, "d": 0.0, "ptr": None}


def _words(values: array[Any]) -> memoryview:
    """View an 8-byte-item array as unsigned 64-bit words."""
    return memoryview(values).cast("B").cast("Q")


def _fast_column(words: memoryview, j: int, stride: int, n_rows: int, col: Sequence[Any],
                 spec: Tuple[type, int, str], keep: List[object]) -> List[int]:
    """Write one column's payloads (the tags come from the row template).

    Returns the row indices left for the generic path.
    """
    pytype, tag, code = spec
    types = set(map(type, col))
    bad: List[int] = []
    if types != {pytype}:
        bad = [i for i, v in enumerate(col) if type(v) is not pytype]
    if code == "q" and not bad:
        try:
            payload = array("q", col)
        except OverflowError:
            bad = [i for i, v in enumerate(col) if not _I64_MIN <= v <= _I64_MAX]
    if bad:
        if len(bad) == n_rows:
            return bad
        clean = list(col)
        placeholder = _PLACEHOLDER[code] if code != "ptr" else pytype()
        for i in bad:
            clean[i] = placeholder
        col = clean
    if code == "ptr":
        if pytype is str:
            joined = "".join(col)
            if joined.isascii():  # one byte per character: no per-string encode
                sizes = array("Q", map(len, col))
                blob = joined.encode("ascii")
            else:
                try:
                    enc = [v.encode("utf-8") for v in col]
                except UnicodeEncodeError:
                    enc = [utf8(v, "string value") for v in col]  # raises, naming the value
                sizes = array("Q", map(len, enc))
                blob = b"".join(enc)
                del enc
            del joined
        else:
            sizes = array("Q", map(len, col))
            blob = b"".join(col)
        keep.append(blob)
        addrs = array("Q", itertools.accumulate(sizes, initial=_address(blob)))
        addrs.pop()
        words[j * 3 + 1::stride] = _words(addrs)
        words[j * 3 + 2::stride] = _words(sizes)
    else:
        if code != "q" or bad:
            payload = array(code, col)
        words[j * 3 + 1::stride] = _words(payload)
    return bad


def pack_rows(rows: Sequence[Sequence[object]], kinds: Sequence[int]) -> Tuple[Optional[ValueArray], List[object]]:
    """Pack row-major values for db_object_create_many.

    ``rows`` are sequences of equal length matching ``kinds`` (the property types,
    used only to pick fast paths). Returns (ctypes db_value_t array, keepalive list).
    """
    n_rows, n_cols = len(rows), len(kinds)
    if n_cols == 0 or n_rows == 0:
        return None, []
    # Every row starts as a template holding the tags of the fast columns.
    template = bytearray(n_cols * VALUE_SIZE)
    for j, kind in enumerate(kinds):
        spec = _FAST.get(int(kind))
        if spec is not None and _LITTLE:
            _TAG.pack_into(template, j * VALUE_SIZE, spec[1])
    buf = template * n_rows
    keep: List[object] = [buf]
    words = memoryview(buf).cast("Q")
    stride = n_cols * 3
    try:
        for j, kind in enumerate(kinds):
            col = list(map(operator.itemgetter(j), rows))
            spec = _FAST.get(int(kind)) if _LITTLE else None
            todo: Iterable[int] = range(n_rows) if spec is None else _fast_column(
                words, j, stride, n_rows, col, spec, keep)
            for i in todo:
                pack_value_into(buf, (i * n_cols + j) * VALUE_SIZE, col[i], keep)
    finally:
        words.release()
    return value_array(buf, n_rows * n_cols), keep


# --------------------------------------------------------------------------
# Decoding a batch of db_value_t, one column at a time
# --------------------------------------------------------------------------


#: Bytes a column read copies its strings into (ColumnText; db_results_get_values_into).
COLUMN_TEXT_BYTES = 1 << 16


class ColumnText:
    """The buffer db_results_get_values_into copies a column's strings into, back to back and in
    order, so that decode_column decodes them in one piece rather than one string at a time."""

    __slots__ = ("buffer", "address")

    def __init__(self) -> None:
        self.buffer = bytearray(COLUMN_TEXT_BYTES)
        self.address = ctypes.addressof(ctypes.c_char.from_buffer(self.buffer))


class ColumnScratch:
    """One thread's buffers for reading columns in batches: ``batch`` values (``values``, viewed as
    ``array``) and a :class:`ColumnText` for their strings.

    A column read decodes what it read before it returns, so the next read of the thread may
    overwrite the buffers. Made once per thread and reused (:func:`column_scratch`): zeroing
    160 KiB of fresh buffers cost more than reading a hundred values (``Results.values``).
    """

    __slots__ = ("batch", "values", "array", "text")

    def __init__(self, batch: int) -> None:
        self.batch = batch
        self.values = bytearray(VALUE_SIZE * batch)
        array = value_array(self.values, batch)
        assert array is not None
        self.array: ValueArray = array
        self.text = ColumnText()


#: Values a scratch holds: as many as one db_results_get_values_into call reads.
SCRATCH_VALUES = 4096
_threads = threading.local()


def column_scratch() -> ColumnScratch:
    """This thread's :class:`ColumnScratch` (a C call releases the GIL, so each thread has its own)."""
    scratch: Optional[ColumnScratch] = getattr(_threads, "scratch", None)
    if scratch is None:
        scratch = _threads.scratch = ColumnScratch(SCRATCH_VALUES)
    return scratch


def _strings_from_text(text: ColumnText, sizes: List[int]) -> Optional[List[str]]:
    """The strings of ``sizes`` bytes each, back to back at the start of ``text`` (when they all
    fit there, which db_results_get_values_into guarantees), or None when they did not fit."""
    total = sum(sizes)
    if total > len(text.buffer):
        return None  # some were borrowed instead: read each at its address
    whole = text.buffer[:total].decode("utf-8")
    ends = list(itertools.accumulate(sizes))
    if len(whole) == total:  # ASCII: a character per byte, so the byte offsets slice the str
        return [whole[end - size:end] for end, size in zip(ends, sizes)]
    raw = text.buffer
    return [raw[end - size:end].decode("utf-8") for end, size in zip(ends, sizes)]


#: ``List[StoredValue]``, subscripted once: typing's cache made each ``cast(List[...], x)`` cost 1 µs.
_StoredValues = List[StoredValue]


def decode_column(buf: bytearray, n: int, text: Optional[ColumnText] = None) -> List[StoredValue]:
    """Decode ``n`` values of one property from ``buf`` (copies borrowed strings at once).

    Columns whose values all have one common type (or that type and null) are
    read with strided memoryviews; anything else goes through decode_values.
    ``text``: the buffer the read copied the strings into (db_results_get_values_into).
    """
    mv = memoryview(buf)
    words = mv.cast("Q")
    tags = mv.cast("I")[0:6 * n:6].tolist()
    tag = tags[0]
    uniform = tags.count(tag) == n
    if not uniform:
        kinds = set(tags)
        kinds.discard(ValueType.NULL)
        if len(kinds) != 1:
            return decode_values(buf, n)
        tag = kinds.pop()
    col: Sequence[StoredValue]
    if tag == ValueType.INT:
        col = mv.cast("q")[1:3 * n:3].tolist()
    elif tag == ValueType.DOUBLE:
        col = mv.cast("d")[1:3 * n:3].tolist()
    elif tag == ValueType.FLOAT:
        col = mv.cast("f")[2:6 * n:6].tolist()
    elif tag == ValueType.BOOL:
        col = [b != 0 for b in mv[8:VALUE_SIZE * n:VALUE_SIZE].tolist()]
    elif tag == ValueType.STRING:
        ptrs = words[1:3 * n:3].tolist()
        sizes = words[2:3 * n:3].tolist()
        string_at = _string_at  # ctypes.string_at without its wrapper's frame
        if uniform:
            strings = _strings_from_text(text, sizes) if text is not None else None
            if strings is not None:
                return cast(_StoredValues, strings)
            return [string_at(p, s).decode("utf-8") if s else "" for p, s in zip(ptrs, sizes)]
        return [None if t == ValueType.NULL else (string_at(p, s).decode("utf-8") if s else "")
                for t, p, s in zip(tags, ptrs, sizes)]
    elif tag == ValueType.NULL:
        return [None] * n
    else:
        return decode_values(buf, n)
    if uniform:
        return cast(_StoredValues, col)  # a list: tolist() and the comprehension make lists
    null = ValueType.NULL
    return [None if t == null else v for t, v in zip(tags, col)]
