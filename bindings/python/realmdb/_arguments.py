"""Checking Python arguments before they become C arguments, in one place.

ctypes converts without complaint what C cannot represent: a ``str`` passed as ``char *`` ends at
its first NUL character (so ``"TRUEPREDICATE\\0 AND FALSEPREDICATE"`` would be a query matching
everything), and an int passed as ``size_t`` or ``uint64_t`` wraps around modulo 2**64 (so
``results[2**64]`` would be ``results[0]``). Every Python value that becomes a C string or a C
integer (other than those the library itself handed out) goes through one of these functions
first. String *values* (``db_value_t``) carry their length, so they may hold NUL characters:
only their encoding is checked (:func:`utf8`).
"""
from __future__ import annotations

import ctypes
import operator
from collections.abc import Mapping
from typing import Any, Generic, Iterable, List, SupportsIndex, TypeVar, Union, cast, overload

from . import errors

__all__ = ["SIZE_MAX", "UINT64_MAX", "utf8", "c_string", "c_uint", "as_index", "position", "check_bool",
           "check_elements", "element_list", "check_mapping", "IndexedSequence"]

#: The largest size_t (indices and counts).
SIZE_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1
#: The largest uint64_t (versions).
UINT64_MAX = (1 << 64) - 1


def _shown(text: str) -> str:
    """``text`` for an error message: its repr, shortened when long."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def utf8(text: str, what: str) -> bytes:
    """The UTF-8 bytes of ``text``; InvalidArgumentError naming ``what`` when it holds a lone surrogate
    (``"\\ud800"``, or a ``surrogateescape``-decoded byte), which UTF-8 cannot encode."""
    try:
        return str.encode(text, "utf-8")
    except UnicodeEncodeError as exc:
        raise errors.InvalidArgumentError(
            f"{what} {_shown(text)} is not valid text: it holds a lone surrogate ({text[exc.start]!r}) at offset "
            f"{exc.start}, which UTF-8 cannot encode") from None


def c_string(text: object, what: str) -> bytes:
    """``text`` encoded for a C ``const char *``.

    Raises TypeError when ``text`` is not a str, and InvalidArgumentError naming ``what`` ("the query",
    "dictionary key", "class name", ...) when it holds a NUL character (C would cut the string there)
    or a lone surrogate.
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    data = utf8(text, what)
    offset = data.find(b"\0")
    if offset >= 0:
        index = text.index("\0")
        where = f"offset {offset}" if index == offset else f"byte offset {offset} (index {index} of the str)"
        raise errors.InvalidArgumentError(
            f"{what} {_shown(text)} contains a NUL character at {where}: C strings end at the first NUL, "
            "so it would be cut short")
    return data


def c_uint(value: object, what: str, maximum: int = UINT64_MAX) -> int:
    """``value`` for a C unsigned integer (``uint64_t`` unless ``maximum`` says otherwise).

    Raises TypeError for anything but an int (bool included), InvalidArgumentError when it is
    negative or above ``maximum`` (C would wrap it around).
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not 0 <= value <= maximum:
        raise errors.InvalidArgumentError(f"{what} must be between 0 and {maximum}, not {value}")
    return int(value)


def as_index(index: object, what: str) -> int:
    """``index`` as an int, as a Python sequence takes it (ints, bools, objects with ``__index__``);
    TypeError for anything else (floats, NaN, strings, None)."""
    try:
        return operator.index(cast(SupportsIndex, index))
    except TypeError:
        raise TypeError(f"{what} indices must be integers, not {type(index).__name__}") from None


def position(index: object, size: int, what: str) -> int:
    """The position in ``0 .. size-1`` that a Python sequence index names (negative ones count from the
    end); IndexError when there is none, TypeError when ``index`` is not an integer."""
    i = as_index(index, what)
    j = i + size if i < 0 else i
    if not 0 <= j < size:
        raise IndexError(f"{what} index {i} out of range (length {size})")
    return j


_T = TypeVar("_T")


class IndexedSequence(Generic[_T]):
    """``seq[index]`` as a Python sequence takes it, typed for both forms: an index (an int, or
    anything with ``__index__``) gives the element ``_item(index)``, a slice the list
    ``_slice(index)``."""

    __slots__ = ()

    def _item(self, index: int) -> _T:
        raise NotImplementedError

    def _slice(self, index: slice) -> List[_T]:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[_T, List[_T]]:
        if isinstance(index, slice):
            return self._slice(index)
        return self._item(index)


def check_bool(value: object, what: str) -> bool:
    """``value`` when it is a bool; TypeError otherwise (``"no"`` would be true)."""
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be True or False, not {value!r}")
    return value


def check_elements(values: object, what: str) -> None:
    """Refuse ``values`` given for a list or a set (``what``) when it is a str or bytes (they would be
    split into characters), a mapping, or anything else that is not iterable (TypeError). Nothing is
    iterated: a generator is left as it is."""
    if isinstance(values, (str, bytes, bytearray, memoryview, Mapping)) or not hasattr(type(values), "__iter__"):
        raise TypeError(f"{what} takes an iterable of values (a list, tuple or set), not a {type(values).__name__}")


def element_list(values: object, what: str) -> List[Any]:
    """The elements of ``values``, given for a list or a set (``what``), checked by :func:`check_elements`."""
    check_elements(values, what)
    return list(cast(Iterable[Any], values))


def check_mapping(values: object, what: str) -> Mapping[Any, Any]:
    """``values``, given for a dictionary (``what``), when it is a mapping; TypeError otherwise."""
    if not isinstance(values, Mapping):
        raise TypeError(f"{what} takes a mapping of string keys to values (a dict), not a {type(values).__name__}")
    return values
