"""Conversion between Python values and db_value_t, in one place.

db_value_t is 24 bytes: a 4-byte tag, 4 bytes of padding, a 16-byte payload.
Values are packed and unpacked through their raw bytes with precompiled
``struct.Struct`` objects, which is much faster than setting ctypes fields and
lets :func:`pack_rows` fill a whole ``create_many`` array in one loop.

Python -> tag (by the Python type; the library converts or rejects per property):
    None -> NULL, bool -> BOOL, int -> INT, float -> DOUBLE, str -> STRING,
    bytes/bytearray/memoryview -> DATA, datetime.datetime -> TIMESTAMP (naive = UTC),
    ObjectId -> OBJECT_ID, uuid.UUID -> UUID, decimal.Decimal -> DECIMAL128.

Strings and binaries read from the library are borrowed, so :func:`decode_at`
copies them (``ctypes.string_at``) immediately.
"""
from __future__ import annotations

import array
import ctypes
import datetime as _dt
import decimal
import struct
import threading
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, cast

from . import errors
from ._arguments import utf8
from ._c_types import VALUE_SIZE, ValueType, db_value_t
from .objectid import ObjectId

__all__ = [
    "pack_value_into", "pack_values", "decode_at", "decode_values", "value_array",
    "datetime_to_timestamp", "timestamp_to_datetime", "decimal_to_bid", "bid_to_decimal",
    "Link", "StoredValue", "ValueArray",
]

if TYPE_CHECKING:
    #: A ctypes ``db_value_t[n]``.
    ValueArray = ctypes.Array[db_value_t]
else:
    ValueArray = ctypes.Array
#: Raw bytes of db_value_t values (a copy, or the buffer they were written to).
_Raw = Union[bytes, bytearray, memoryview]
#: Where values are packed: a bytearray of db_value_t, or one db_value_t.
_Buffer = Union[bytearray, ctypes.Structure]
#: The bytes whose addresses packed values hold: keep them alive until the C call returns.
_Keep = List[object]

# --------------------------------------------------------------------------
# Raw layouts ("=": native byte order, no implicit alignment)
# --------------------------------------------------------------------------

_TAG = struct.Struct("=I")
_LINK = struct.Struct("=I4xIxxxxq")
_NULL = struct.Struct("=I20x")
_BOOL = struct.Struct("=I4x?15x")
_INT = struct.Struct("=I4xq8x")
_DOUBLE = struct.Struct("=I4xd8x")
_PTR = struct.Struct("=I4xQQ")  # string / binary: address, size
_TS = struct.Struct("=I4xqi4x")
_OID = struct.Struct("=I4x12s4x")
_UUID = struct.Struct("=I4x16s")
_DEC = struct.Struct("=I4xQQ")  # decimal128: w[0] (low), w[1] (high)

_P_I64 = struct.Struct("=q")
_P_F32 = struct.Struct("=f")
_P_F64 = struct.Struct("=d")
_P_QQ = struct.Struct("=QQ")
_P_TS = struct.Struct("=qi")

_string_at = ctypes._string_at  # type: ignore[attr-defined]  # string_at without its wrapper's frame
_c_char_p = ctypes.c_char_p
_c_void_p = ctypes.c_void_p
_cast = ctypes.cast


def _address(b: bytes) -> int:
    """Address of a bytes object's buffer (no copy); the caller keeps ``b`` alive."""
    return _cast(_c_char_p(b), _c_void_p).value or 0


# --------------------------------------------------------------------------
# datetime <-> db_timestamp_t
# --------------------------------------------------------------------------

UTC = _dt.timezone.utc
EPOCH = _dt.datetime(1970, 1, 1, tzinfo=UTC)


def datetime_to_timestamp(value: _dt.datetime) -> Tuple[int, int]:
    """(seconds, nanoseconds) since the epoch; naive datetimes are taken as UTC.

    Raises OutOfRangeError for an aware datetime whose UTC instant falls outside the years 1 to
    9999: stored, it could never be read back as a datetime."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise errors.OutOfRangeError(
            f"{value.isoformat()} is outside the years 1 to 9999 in UTC, which Python's datetime can represent "
            "(it could not be read back)") from None
    delta = value - EPOCH
    total_us = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    if total_us >= 0:
        seconds, micros = divmod(total_us, 1_000_000)
    else:
        seconds, micros = divmod(-total_us, 1_000_000)
        seconds, micros = -seconds, -micros
    return seconds, micros * 1000


def timestamp_to_datetime(seconds: int, nanoseconds: int) -> _dt.datetime:
    """An aware UTC datetime; nanoseconds are truncated (toward zero) to microseconds.

    Raises OutOfRangeError for a date outside the years 1 to 9999, which the library can store
    (from C) but Python's datetime cannot represent."""
    micros = nanoseconds // 1000 if nanoseconds >= 0 else -((-nanoseconds) // 1000)
    try:
        return EPOCH + _dt.timedelta(seconds=seconds, microseconds=micros)
    except OverflowError:
        raise errors.OutOfRangeError(
            f"the date {seconds} s and {nanoseconds} ns from 1970 is outside the years 1 to 9999 "
            "that Python's datetime can represent") from None


# --------------------------------------------------------------------------
# Decimal <-> IEEE 754-2008 decimal128 (BID)
# --------------------------------------------------------------------------

_MAX_COEFF = 10**34 - 1
_EXP_BIAS = 6176
_EXP_MIN = -6176
_EXP_MAX = 6111
_MASK64 = (1 << 64) - 1


def decimal_to_bid(value: decimal.Decimal) -> Tuple[int, int]:
    """Encode a Decimal as BID decimal128; returns (low 64 bits, high 64 bits).

    Trailing zeros are dropped or added (exactly) to fit 34 digits and the
    exponent range; a value that cannot be represented exactly raises ValueError.
    """
    sign, digits, exp = value.as_tuple()
    if value.is_nan():
        high = 0x7E00_0000_0000_0000 if value.is_snan() else 0x7C00_0000_0000_0000
        return 0, high | (sign << 63)
    if value.is_infinite():
        return 0, 0x7800_0000_0000_0000 | (sign << 63)
    assert isinstance(exp, int)
    coeff = int("".join(map(str, digits))) if digits else 0
    if coeff == 0:
        exp = min(max(exp, _EXP_MIN), _EXP_MAX)
    else:
        # Drop trailing zeros while the coefficient or the exponent is too small/large.
        while (coeff > _MAX_COEFF or exp < _EXP_MIN) and coeff % 10 == 0:
            coeff //= 10
            exp += 1
        # Move a too-large exponent into the coefficient.
        while exp > _EXP_MAX and coeff * 10 <= _MAX_COEFF:
            coeff *= 10
            exp -= 1
        if coeff > _MAX_COEFF:
            raise ValueError(f"Decimal {value} needs more than 34 significant digits")
        if exp < _EXP_MIN or exp > _EXP_MAX:
            raise ValueError(f"Decimal {value} is out of the decimal128 exponent range")
    assert isinstance(exp, int)  # not 'n', 'N', 'F': NaN and infinities returned above
    bits = (sign << 127) | ((exp + _EXP_BIAS) << 113) | coeff
    return bits & _MASK64, bits >> 64


def bid_to_decimal(low: int, high: int) -> decimal.Decimal:
    """Decode BID decimal128 (both coefficient forms, NaN, sNaN, +-Infinity)."""
    sign = "-" if high >> 63 else ""
    combo = (high >> 58) & 0x1F
    if combo == 0x1F:
        return decimal.Decimal(sign + ("sNaN" if (high >> 57) & 1 else "NaN"))
    if combo == 0x1E:
        return decimal.Decimal(sign + "Infinity")
    bits = (high << 64) | low
    if (high >> 61) & 0b11 == 0b11:
        # Large-coefficient form: exponent in bits 111..124, implicit 0b100 prefix.
        exp = (bits >> 111) & 0x3FFF
        coeff = (0b100 << 111) | (bits & ((1 << 111) - 1))
    else:
        exp = (bits >> 113) & 0x3FFF
        coeff = bits & ((1 << 113) - 1)
    if coeff > _MAX_COEFF:  # non-canonical: IEEE 754 reads it as zero
        coeff = 0
    return decimal.Decimal(f"{sign}{coeff}E{exp - _EXP_BIAS}")


# --------------------------------------------------------------------------
# Python -> db_value_t
# --------------------------------------------------------------------------


def _enc_none(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    _NULL.pack_into(buf, off, ValueType.NULL)


def _enc_bool(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    _BOOL.pack_into(buf, off, ValueType.BOOL, bool(v))


def _enc_int(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    try:
        _INT.pack_into(buf, off, ValueType.INT, v)
    except struct.error:
        raise OverflowError(f"int {v} does not fit in 64 bits") from None


def _enc_float(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    _DOUBLE.pack_into(buf, off, ValueType.DOUBLE, v)


def _enc_str(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    b = utf8(v, "string value")  # passed with its length: NUL characters are kept
    keep.append(b)
    _PTR.pack_into(buf, off, ValueType.STRING, _address(b), len(b))


def _enc_bytes(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    b = bytes(v)
    keep.append(b)
    _PTR.pack_into(buf, off, ValueType.DATA, _address(b), len(b))


def _enc_datetime(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    seconds, nanos = datetime_to_timestamp(v)
    _TS.pack_into(buf, off, ValueType.TIMESTAMP, seconds, nanos)


def _enc_object_id(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    _OID.pack_into(buf, off, ValueType.OBJECT_ID, v.bytes)


def _enc_uuid(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    _UUID.pack_into(buf, off, ValueType.UUID, v.bytes)


def _enc_decimal(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    low, high = decimal_to_bid(v)
    _DEC.pack_into(buf, off, ValueType.DECIMAL128, low, high)


class Link(Tuple[int, int]):
    """A link value as the library returns it: (class key, object key). Objects and collections
    turn it into a RealmObject of their realm; it can also be stored as it is."""

    __slots__ = ()

    def __new__(cls, class_key: int, object_key: int) -> Link:
        return tuple.__new__(cls, (class_key, object_key))


    @property
    def class_key(self) -> int:
        return self[0]

    @property
    def object_key(self) -> int:
        return self[1]


#: A value as a db_value_t holds it, decoded: the value types of the schema's types, and links
#: as :class:`Link` (objects and collections turn them into objects).
StoredValue = Union[None, bool, int, float, str, bytes, _dt.datetime, ObjectId, uuid.UUID, decimal.Decimal, Link]


def _enc_link(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
    try:
        _LINK.pack_into(buf, off, ValueType.LINK, v[0], v[1])
    except struct.error:
        if not all(isinstance(k, int) for k in v):
            raise TypeError(f"a Link holds two ints (class key, object key), not {v!r}") from None
        raise OverflowError(f"{v!r} names no object: a class key is a 32-bit unsigned int, "
                            "an object key a 64-bit signed int") from None


def register_link_type(cls: type, to_link: Callable[[Any], Tuple[int, int]]) -> None:
    """Let values of ``cls`` (RealmObject) be stored as links: ``to_link(v)`` gives (class key, object key)."""
    def encode(buf: _Buffer, off: int, v: Any, keep: _Keep) -> None:
        _LINK.pack_into(buf, off, ValueType.LINK, *to_link(v))
    _ENCODERS[cls] = encode


_Encoder = Callable[[_Buffer, int, Any, _Keep], None]  # Any: each encoder takes its own type
_ENCODERS: Dict[type, _Encoder] = {
    type(None): _enc_none,
    bool: _enc_bool,
    int: _enc_int,
    float: _enc_float,
    str: _enc_str,
    bytes: _enc_bytes,
    bytearray: _enc_bytes,
    memoryview: _enc_bytes,
    _dt.datetime: _enc_datetime,
    ObjectId: _enc_object_id,
    uuid.UUID: _enc_uuid,
    decimal.Decimal: _enc_decimal,
    Link: _enc_link,
}
# Checked in this order for subclasses (bool before int: bool is an int).
_BY_ISINSTANCE: Tuple[Tuple[Union[type, Tuple[type, ...]], _Encoder], ...] = (
    (bool, _enc_bool), (int, _enc_int), (float, _enc_float), (str, _enc_str),
    ((bytes, bytearray, memoryview), _enc_bytes), (_dt.datetime, _enc_datetime),
    (ObjectId, _enc_object_id), (uuid.UUID, _enc_uuid), (decimal.Decimal, _enc_decimal),
)


def _encoder(v: object) -> _Encoder:
    enc = _ENCODERS.get(type(v))
    if enc is not None:
        return enc
    for cls, enc in _BY_ISINSTANCE:
        if isinstance(v, cls):
            return enc
    raise errors.WrongTypeError(f"values of type {type(v).__name__} cannot be stored in a realm")


def pack_value_into(buf: _Buffer, offset: int, value: object, keep: _Keep) -> None:
    """Write ``value`` as a db_value_t at ``buf[offset:offset+24]`` (``buf`` may be a db_value_t).

    Bytes whose address is written are appended to ``keep``: keep that list
    alive until the C call that reads ``buf`` has returned.
    """
    enc = _ENCODERS.get(type(value))
    if enc is None:
        enc = _encoder(value)
    enc(buf, offset, value, keep)


_NULL_VALUE = _NULL.pack(ValueType.NULL)
_PACK_INT = _INT.pack
_PACK_DOUBLE = _DOUBLE.pack
_PACK_BOOL = _BOOL.pack
# The tags as plain ints: reading an IntEnum member and packing it (through __index__) cost
# 0.05 us of a call that is made for every attribute write and primary-key lookup.
_DOUBLE_TAG, _INT_TAG, _BOOL_TAG = int(ValueType.DOUBLE), int(ValueType.INT), int(ValueType.BOOL)


def packed_scalar(value: object) -> Optional[bytes]:
    """The db_value_t of an int, float, bool or None as 24 bytes, which a C call may read as the
    value (a ``c_void_p`` argument takes them without a copy); None for any other value (pack it
    with :func:`pack_value_into`) and for an int beyond 64 bits (which that then reports)."""
    cls = value.__class__
    if cls is float:
        return _PACK_DOUBLE(_DOUBLE_TAG, value)
    if cls is int:
        if -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:  # type: ignore[operator]  # an int
            return _PACK_INT(_INT_TAG, value)
        return None
    if cls is bool:
        return _PACK_BOOL(_BOOL_TAG, value)
    if value is None:
        return _NULL_VALUE
    return None


def value_array(buf: _Buffer, count: int) -> Optional[ValueArray]:
    """A ctypes ``db_value_t[count]`` sharing memory with ``buf`` (None when count is 0)."""
    if count == 0:
        return None
    return (db_value_t * count).from_buffer(buf)


# One row of plain values (ints, floats, bools, strings, None), as ``create`` passes them, packed
# by one struct.Struct per sequence of value types instead of one encoder per value; all the
# row's strings share one buffer, whose address is taken once (taking one per string cost 2.5 us).
_ROW_PARTS: Dict[type, Tuple[str, int]] = {
    int: ("I4xq8x", ValueType.INT), float: ("I4xd8x", ValueType.DOUBLE), bool: ("I4x?15x", ValueType.BOOL),
    str: ("I4xQQ", ValueType.STRING), type(None): ("I20x", ValueType.NULL),
}
_RowPacker = Callable[[Sequence[object]], Tuple[ValueArray, _Keep]]
_ScratchPacker = Callable[[Sequence[object]], int]
#: Row packers (see pack_row and packed_row_address) by the types of a row's values; None where
#: a type is not plain.
_row_packers: Dict[Tuple[type, ...], Optional[Tuple[_RowPacker, _ScratchPacker]]] = {}
_array_types: Dict[int, Any] = {}


class RowScratch:
    """Memory that rows of plain values are packed into for one C call at a time, made once per
    thread and reused (a C call releases the GIL, so each thread has its own): a ctypes array
    made over a fresh buffer for every row cost 0.3 us of a 5.4 us ``create``."""

    __slots__ = ("buffer", "array", "address", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.buffer = bytearray(size)
        # The exported view pins the buffer: it can no longer be resized (nor moved).
        self.array = (ctypes.c_char * size).from_buffer(self.buffer)
        self.address = ctypes.addressof(self.array)


_scratch_threads = threading.local()


def row_scratch(size: int) -> RowScratch:
    """This thread's :class:`RowScratch`, of at least ``size`` bytes."""
    scratch: Optional[RowScratch] = getattr(_scratch_threads, "row", None)
    if scratch is None or scratch.size < size:
        scratch = _scratch_threads.row = RowScratch(max(size, 4096, 2 * scratch.size if scratch else 0))
    return scratch


def pack_row(values: Sequence[object]) -> Tuple[Optional[ValueArray], _Keep]:
    """As :func:`pack_values`, faster for a row of plain values (None, bool, int, float, str): through
    a function made once per shape of row (the type of each value) that encodes the strings,
    and packs every value with one struct call into one buffer that also holds the strings' bytes
    (after the values, so that one address serves them all). The errors are the same: a row the
    packer cannot take (a string with a lone surrogate, an int beyond 64 bits) goes through
    pack_values, which raises the error naming the value."""
    if not values:
        return pack_values(values)
    packers = _row_packers_for(values)
    if packers is None:
        return pack_values(values)
    try:
        return packers[0](values)
    except (UnicodeEncodeError, struct.error):
        return pack_values(values)


def packed_row_address(values: Sequence[object]) -> Optional[int]:
    """As :func:`pack_row`, into this thread's :class:`RowScratch`: the address of the packed
    values (and of the strings' bytes after them), valid until this thread's next call here. None
    for a row that is not plain or that the packer cannot take: pack it with :func:`pack_row`,
    which raises the error naming the value."""
    if not values:
        return None
    packers = _row_packers_for(values)
    if packers is None:
        return None
    try:
        return packers[1](values)
    except (UnicodeEncodeError, struct.error):
        return None


def _row_packers_for(values: Sequence[object]) -> Optional[Tuple[_RowPacker, _ScratchPacker]]:
    types = tuple(map(type, values))
    try:
        return _row_packers[types]
    except KeyError:
        packers = _compile_row_packer(types)
        if len(_row_packers) < 1024:  # rows of a program come in few shapes; never grow without bound
            _row_packers[types] = packers
        return packers


def _compile_row_packer(types: Tuple[type, ...]) -> Optional[Tuple[_RowPacker, _ScratchPacker]]:
    parts = [_ROW_PARTS.get(t) for t in types]
    if any(p is None for p in parts):
        return None
    count = len(types)
    names = [f"v{i}" for i in range(count)]
    strings = [i for i, t in enumerate(types) if t is str]
    lines = [f"    {', '.join(names)}{',' if count == 1 else ''} = values"]
    fields: List[str] = []
    for i, part in enumerate(parts):
        assert part is not None
        if types[i] is str:
            fields += [str(int(ValueType.STRING)), f"base + o{i}", f"len(e{i})"]
        elif types[i] is type(None):
            fields.append(str(int(ValueType.NULL)))
        else:
            fields += [str(int(part[1])), names[i]]
    for i in strings:
        lines.append(f"    e{i} = v{i}.encode()")
    offset = "0"
    for i in strings:
        lines.append(f"    o{i} = {offset}")
        offset = f"o{i} + len(e{i})"
    head = count * VALUE_SIZE
    joined = " + ".join(f"e{i}" for i in strings)
    # Into a new buffer, kept alive by the caller (pack_row) ...
    own = list(lines)
    if strings:
        own.append(f"    buf = bytearray({head} + {offset} + 1)")  # + NUL: never empty
        own.append(f"    buf[{head}:-1] = {joined}")
    else:
        own.append(f"    buf = bytearray({head})")
    own.append("    array = array_type.from_buffer(buf)")
    if strings:
        own.append(f"    base = addressof(array) + {head}")
    own.append(f"    pack_into(buf, 0, {', '.join(fields)})")
    own.append("    return array, [buf]")
    # ... or into this thread's scratch (packed_row_address): the same bytes, no new objects.
    into = list(lines)
    into.append(f"    scratch = row_scratch({head} + {offset})")
    if strings:
        into.append(f"    scratch.buffer[{head}:{head} + {offset}] = {joined}")  # the same length: never resized
        into.append(f"    base = scratch.address + {head}")
    into.append(f"    pack_into(scratch.buffer, 0, {', '.join(fields)})")
    into.append("    return scratch.address")
    source = ("def pack(values):\n" + "\n".join(own) + "\n"
              + "def pack_scratch(values):\n" + "\n".join(into) + "\n")
    array_type = _array_types.get(count)
    if array_type is None:
        array_type = _array_types[count] = db_value_t * count
    namespace: Dict[str, Any] = {
        "pack_into": struct.Struct("=" + "".join(p[0] for p in parts if p)).pack_into,
        "array_type": array_type, "addressof": ctypes.addressof, "row_scratch": row_scratch,
    }
    exec(source, namespace)  # the source is made of this function's fixed strings and numbers only
    pack: _RowPacker = namespace["pack"]
    pack_scratch: _ScratchPacker = namespace["pack_scratch"]
    return pack, pack_scratch


def pack_values(values: Sequence[object]) -> Tuple[Optional[ValueArray], _Keep]:
    """Pack a sequence of values; returns (ctypes db_value_t array or None, keepalive list)."""
    n = len(values)
    buf = bytearray(n * VALUE_SIZE)
    keep: _Keep = [buf]
    if pack_column_into(buf, 0, values):
        return value_array(buf, n), keep
    for i, v in enumerate(values):
        pack_value_into(buf, i * VALUE_SIZE, v, keep)
    return value_array(buf, n), keep


#: From how many values pack_column_into packs a column of one type in one pass.
_COLUMN_MIN = 16


def pack_column_into(buf: bytearray, offset: int, values: Sequence[object]) -> bool:
    """Pack 16 or more values that are all floats, or all ints of 64 bits, at ``offset`` of
    ``buf`` with strided memoryviews (a tenth of the per-value packing: ``people.set_values(
    "score", [...])`` of 100,000 floats spent most of its time in it); False, with nothing
    written, for anything else (bools are not ints here: their exact type is checked)."""
    n = len(values)
    if n < _COLUMN_MIN:
        return False
    kinds = set(map(type, values))
    if len(kinds) != 1:
        return False
    kind = kinds.pop()
    words = memoryview(buf)[offset:offset + n * VALUE_SIZE]
    if kind is float:
        column = array.array("d", cast(Sequence[float], values))
        words.cast("d")[1:3 * n:3] = column
        words.cast("I")[0:6 * n:6] = array.array("I", [_DOUBLE_TAG]) * n
        return True
    if kind is int:
        try:
            ints = array.array("q", cast(Sequence[int], values))
        except OverflowError:
            return False  # a value beyond 64 bits: packed one by one, which reports it
        words.cast("q")[1:3 * n:3] = ints
        words.cast("I")[0:6 * n:6] = array.array("I", [_INT_TAG]) * n
        return True
    return False


# --------------------------------------------------------------------------
# db_value_t -> Python
# --------------------------------------------------------------------------


def _dec_null(raw: _Raw, off: int) -> StoredValue:
    return None


def _dec_bool(raw: _Raw, off: int) -> StoredValue:
    return raw[off + 8] != 0


def _dec_int(raw: _Raw, off: int) -> StoredValue:
    value: int = _P_I64.unpack_from(raw, off + 8)[0]
    return value


def _dec_float(raw: _Raw, off: int) -> StoredValue:
    value: float = _P_F32.unpack_from(raw, off + 8)[0]
    return value


def _dec_double(raw: _Raw, off: int) -> StoredValue:
    value: float = _P_F64.unpack_from(raw, off + 8)[0]
    return value


def _dec_string(raw: _Raw, off: int) -> StoredValue:
    ptr, size = _P_QQ.unpack_from(raw, off + 8)
    return _string_at(ptr, size).decode("utf-8") if size else ""


def _dec_data(raw: _Raw, off: int) -> StoredValue:
    ptr, size = _P_QQ.unpack_from(raw, off + 8)
    return _string_at(ptr, size) if size else b""


def _dec_timestamp(raw: _Raw, off: int) -> StoredValue:
    seconds, nanos = _P_TS.unpack_from(raw, off + 8)
    return timestamp_to_datetime(seconds, nanos)


def _dec_object_id(raw: _Raw, off: int) -> StoredValue:
    return ObjectId._from_bytes(bytes(raw[off + 8:off + 20]))


def _dec_uuid(raw: _Raw, off: int) -> StoredValue:
    return uuid.UUID(bytes=bytes(raw[off + 8:off + 24]))


def _dec_decimal(raw: _Raw, off: int) -> StoredValue:
    low, high = _P_QQ.unpack_from(raw, off + 8)
    return bid_to_decimal(low, high)


_DECODERS: Tuple[Callable[[_Raw, int], StoredValue], ...] = (
    _dec_null, _dec_bool, _dec_int, _dec_float, _dec_double, _dec_string, _dec_data,
    _dec_timestamp, _dec_object_id, _dec_uuid, _dec_decimal,
)


def _dec_link(raw: _Raw, off: int) -> StoredValue:
    _, class_key, object_key = _LINK.unpack_from(raw, off)
    return Link(class_key, object_key)


_DECODERS = _DECODERS + (_dec_link,)  # tag 11, DB_VALUE_LINK


def decode_at(raw: _Raw, offset: int = 0) -> StoredValue:
    """Read the db_value_t at ``raw[offset:]`` (bytes of the value array) into Python."""
    tag: int = _TAG.unpack_from(raw, offset)[0]
    try:
        dec = _DECODERS[tag]
    except IndexError:
        raise errors.InternalError(f"library returned a value with unknown type tag {tag}") from None
    return dec(raw, offset)


#: Each value type's part of a compiled row decoder (see decode_row): the struct format of its
#: db_value_t, how many fields that format yields, and the expression of its value from those
#: fields (``{0}``, ``{1}``). Types not here (timestamps, object ids, links, ...) make a row
#: decode value by value.
_ROW_FIELDS: Dict[int, Tuple[str, int, str]] = {
    ValueType.NULL: ("24x", 0, "None"),
    ValueType.BOOL: ("8x?15x", 1, "{0}"),
    ValueType.INT: ("8xq8x", 1, "{0}"),
    ValueType.FLOAT: ("8xf12x", 1, "{0}"),
    ValueType.DOUBLE: ("8xd8x", 1, "{0}"),
    ValueType.STRING: ("8xQQ", 2, "(string_at({0}, {1}).decode() if {1} else '')"),
    ValueType.DATA: ("8xQQ", 2, "(string_at({0}, {1}) if {1} else b'')"),
}
#: Compiled row decoders by shape (the low byte of each value's tag), None where a shape has a
#: type _ROW_FIELDS lacks.
_ROW_DECODERS: Dict[bytes, Optional[Callable[[_Raw], List[StoredValue]]]] = {}
#: As _ROW_FIELDS' strings and binaries, for a row read with its bytes copied into ``raw`` itself
#: (``base`` is the address of ``raw[0]`` at the read; one that did not fit is read at its address).
_IN_ROW_FIELDS: Dict[int, Tuple[str, int, str]] = {
    ValueType.STRING: ("8xQQ", 2, "((raw[{0} - base:{0} - base + {1}].decode() if base <= {0} < end "
                                  "else string_at({0}, {1}).decode()) if {1} else '')"),
    ValueType.DATA: ("8xQQ", 2, "((raw[{0} - base:{0} - base + {1}] if base <= {0} < end "
                                "else string_at({0}, {1})) if {1} else b'')"),
}
_IN_ROW_DECODERS: Dict[bytes, Optional[Callable[[_Raw, int], List[StoredValue]]]] = {}


def decode_row(raw: _Raw, count: int) -> List[StoredValue]:
    """As :func:`decode_values`, through a function made once per shape of row (the type of each
    value): one struct unpack for the whole row and one read per string, instead of a decoder
    call per value. An object's row, read at every first access at a new version, goes here."""
    shape = bytes(raw[0:count * VALUE_SIZE:VALUE_SIZE])
    try:
        decode = _ROW_DECODERS[shape]
    except KeyError:
        decode = _compile_row_decoder(shape)
        if len(_ROW_DECODERS) < 4096:  # shapes are few: one per class, and per pattern of nulls
            _ROW_DECODERS[shape] = decode
    if decode is None or len(shape) != count:
        return decode_values(raw, count)
    return decode(raw)


def decode_row_in(raw: bytes, count: int, base: int) -> List[StoredValue]:
    """As :func:`decode_row`, for ``count`` values at the start of ``raw`` whose strings and
    binaries were copied into the rest of ``raw`` (db_object_get_values_by_key's buffer), which was
    at address ``base`` during the read: each is sliced from ``raw``, with no call."""
    shape = raw[0:count * VALUE_SIZE:VALUE_SIZE]
    try:
        decode = _IN_ROW_DECODERS[shape]
    except KeyError:
        decode = cast(Optional[Callable[[_Raw, int], List[StoredValue]]], _compile_row_decoder(shape, True))
        if len(_IN_ROW_DECODERS) < 4096:
            _IN_ROW_DECODERS[shape] = decode
    if decode is None or len(shape) != count:
        return decode_values(raw, count)  # the bytes copied stay valid: raw holds them
    return decode(raw, base)


def _compile_row_decoder(shape: bytes, in_row: bool = False) -> Optional[Callable[..., List[StoredValue]]]:
    formats: List[str] = []
    names: List[str] = []
    values: List[str] = []
    for tag in shape:
        field = (_IN_ROW_FIELDS.get(tag) if in_row else None) or _ROW_FIELDS.get(tag)
        if field is None:
            return None
        fmt, count, expression = field
        own = [f"f{len(names) + i}" for i in range(count)]
        formats.append(fmt)
        names += own
        values.append(expression.format(*own))
    unpack = struct.Struct("=" + "".join(formats)).unpack_from
    target = ", ".join(names) + ("," if len(names) == 1 else "")
    body = f"    {target} = unpack(raw)\n" if names else ""
    if in_row:
        body += "    end = base + len(raw)\n"
    source = f"def decode(raw{', base' if in_row else ''}):\n{body}    return [{', '.join(values)}]\n"
    namespace: Dict[str, Any] = {"unpack": unpack, "string_at": _string_at}
    exec(source, namespace)  # the source is made of the fixed strings of _ROW_FIELDS only
    decode: Callable[[_Raw], List[StoredValue]] = namespace["decode"]
    return decode


def decode_values(raw: _Raw, count: int) -> List[StoredValue]:
    """Decode ``count`` consecutive db_value_t from ``raw``."""
    decoders = _DECODERS
    unpack_tag = _TAG.unpack_from
    out: List[StoredValue] = []
    for off in range(0, count * VALUE_SIZE, VALUE_SIZE):
        tag = unpack_tag(raw, off)[0]
        if tag >= len(decoders):
            raise errors.InternalError(f"library returned a value with unknown type tag {tag}")
        out.append(decoders[tag](raw, off))
    return out
