"""What reading a value back must give after it was written (for the types that round-trip exactly)."""
from __future__ import annotations

import datetime as dt
import decimal
import math
import struct
import uuid
from typing import Any, Tuple

import realmdb
from realmdb import ObjectId, RealmObject

from python_api.policy import EXPECTED, known
from python_api.values import UTC


def same_value(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and -0.0 distinct from 0.0 (for floats)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        if a.is_nan() or b.is_nan():
            return a.is_nan() and b.is_nan()
        return a == b
    if isinstance(a, RealmObject) or isinstance(b, RealmObject):
        return isinstance(a, RealmObject) and isinstance(b, RealmObject) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


#: Base types whose values read back as written when they are of exactly this Python type.
EXACT_TYPES = {"bool": bool, "int": int, "double": float, "string": str, "data": bytes, "objectId": ObjectId,
               "uuid": uuid.UUID, "decimal128": decimal.Decimal}
#: The Python types a mixed property gives back as they were written (datetimes: see _as_read).
MIXED_EXACT_TYPES = (bool, int, str, bytes, ObjectId, uuid.UUID, float, decimal.Decimal)


def _as_read(value: dt.datetime) -> dt.datetime:
    """A datetime as it reads back: a naive one is taken as UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def expected_read(base: str, value: Any) -> Tuple[bool, Any]:
    """(True, what reading back must give) when ``value`` stored in a property (or element) of
    type ``base`` round-trips exactly in Python; (False, None) when it is not checked."""
    t = type(value)
    if value is None:
        return True, None
    if base in EXACT_TYPES:
        return (t is EXACT_TYPES[base]), value
    if base == "float":
        if t is float and (not math.isfinite(value) or abs(value) <= 3.4028234663852886e38):
            return True, struct.unpack("f", struct.pack("f", value))[0]
        return False, None
    if base in ("mixed", "date") and t is dt.datetime:
        return True, _as_read(value)
    if base == "mixed" and t in MIXED_EXACT_TYPES:
        return True, value
    if base in ("Target", "Embedded"):
        return (t is RealmObject and base == "Target"), value
    return False, None


def expected_read_in(realm: Any, base: str, value: Any) -> Tuple[bool, Any]:
    """expected_read, with links checked only for live objects of ``realm`` (the input's realm)."""
    if isinstance(value, RealmObject):
        try:
            live = value._realm is realm and value.is_valid and not value.is_frozen
        except EXPECTED:
            live = False
        return (base == "Target" and live and value._meta.name == "Target"), value
    return expected_read(base, value)


def unreadable_date_ok(error: Any) -> bool:
    """A read that fails because a stored date is outside Python's datetime range (known finding)."""
    return (known("date-unreadable") and isinstance(error, realmdb.OutOfRangeError)
            and "Python's datetime can represent" in str(error))
