"""ObjectId: the 12-byte identifier used by BSON and Realm."""
from __future__ import annotations

import binascii
import datetime as _dt
import itertools
import os
import threading
import time
from typing import Any, Dict, Iterator, Tuple, Union

_state_lock = threading.Lock()
_state: Dict[str, Any] = {"pid": None, "random": b"", "counter": None}


def _process_state() -> Tuple[bytes, Iterator[int]]:
    """Per-process 5 random bytes and counter, regenerated after fork (as BSON does)."""
    pid = os.getpid()
    if _state["pid"] != pid:
        with _state_lock:
            if _state["pid"] != pid:
                _state["random"] = os.urandom(5)
                _state["counter"] = itertools.count(int.from_bytes(os.urandom(3), "big"))
                _state["pid"] = pid
    return _state["random"], _state["counter"]


class ObjectId:
    """A 12-byte ObjectId: 4-byte big-endian seconds, 5 random bytes, 3-byte counter.

    ``ObjectId()`` generates a new id; ``ObjectId("5f...")`` parses 24 hex digits;
    ``ObjectId(b"...")`` takes 12 raw bytes; ``ObjectId(other)`` copies.
    ``str()`` gives the 24 lowercase hex digits, ``.bytes`` the raw bytes.
    ObjectIds are immutable, hashable and ordered by their bytes.
    """

    __slots__ = ("_bytes",)
    _bytes: bytes

    def __init__(self, value: Union[str, bytes, bytearray, memoryview, "ObjectId", None] = None) -> None:
        if value is None:
            rnd, counter = _process_state()
            count = next(counter) & 0xFFFFFF
            raw = (int(time.time()) & 0xFFFFFFFF).to_bytes(4, "big") + rnd + count.to_bytes(3, "big")
        elif isinstance(value, ObjectId):
            raw = value._bytes
        elif isinstance(value, str):
            if len(value) != 24:
                raise ValueError(f"ObjectId needs 24 hex digits, got {value!r}")
            try:
                raw = binascii.unhexlify(value)
            except (binascii.Error, ValueError):
                raise ValueError(f"ObjectId needs 24 hex digits, got {value!r}") from None
        elif isinstance(value, (bytes, bytearray, memoryview)):
            raw = bytes(value)
            if len(raw) != 12:
                raise ValueError(f"ObjectId needs 12 bytes, got {len(raw)}")
        else:
            raise TypeError(f"ObjectId() takes a str, bytes or ObjectId, not {type(value).__name__}")
        object.__setattr__(self, "_bytes", raw)

    @classmethod
    def _from_bytes(cls, raw: bytes) -> "ObjectId":
        """Wrap 12 trusted bytes without validation (used when decoding values)."""
        self = cls.__new__(cls)
        object.__setattr__(self, "_bytes", raw)
        return self

    @property
    def bytes(self) -> bytes:
        """The 12 raw bytes, most significant first."""
        return self._bytes

    @property
    def generation_time(self) -> _dt.datetime:
        """The timestamp in the first 4 bytes, as an aware UTC datetime."""
        secs = int.from_bytes(self._bytes[:4], "big")
        return _dt.datetime.fromtimestamp(secs, _dt.timezone.utc)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ObjectId is immutable")

    def __str__(self) -> str:
        return self._bytes.hex()

    def __repr__(self) -> str:
        return f"ObjectId('{self._bytes.hex()}')"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes == other._bytes
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, ObjectId):
            return self._bytes != other._bytes
        return NotImplemented

    def __lt__(self, other: "ObjectId") -> bool:
        if isinstance(other, ObjectId):
            return self._bytes < other._bytes
        return NotImplemented

    def __le__(self, other: "ObjectId") -> bool:
        if isinstance(other, ObjectId):
            return self._bytes <= other._bytes
        return NotImplemented

    def __gt__(self, other: "ObjectId") -> bool:
        if isinstance(other, ObjectId):
            return self._bytes > other._bytes
        return NotImplemented

    def __ge__(self, other: "ObjectId") -> bool:
        if isinstance(other, ObjectId):
            return self._bytes >= other._bytes
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("ObjectId", self._bytes))

    def __reduce__(self) -> Tuple[type, Tuple[object, ...]]:
        return (ObjectId, (self._bytes,))
