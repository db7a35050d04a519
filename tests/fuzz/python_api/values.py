"""Edge values and hostile types the fuzzer stores: extreme numbers, odd strings and dates, and
objects that look like ints, strings or floats without being them."""
from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from python_api.policy import EXPECTED

INT_EDGES = [0, 1, -1, 2**31 - 1, -2**31, 2**53 + 1, 2**62, 2**63 - 1, -2**63, -2**63 + 1, 2**63, -2**63 - 1,
             2**64 - 1, 2**64, 10**30, -10**30, 2**1000]
FLOAT_EDGES = [float("nan"), -float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 5e-324, 1e308, 3.4028235e38,
               3.5e38, 1.17549435e-38, 1e-46, 0.1, 2.0**53 + 1]
STR_EDGES = ["", "\0", "a\0b", "\ud800", "x\udfff", "\udc80abc", "😀", "e\u0301", "ß", "İ", "a" * 600,
             "a.b", "$k", "@count", "'", '"', "\\", "[c]", "%s", "\x7f", "\uffff", "\U0010ffff", "TRUEPREDICATE"]
DEC_EDGES = ["NaN", "-NaN", "sNaN", "Infinity", "-Infinity", "0", "-0", "1E+6111", "1E-6176", "1E+6144",
             "9" * 34, "9" * 35, "1" + "0" * 40, "0.1", "-1.5E-10", "1E-7000", "123456789012345678901234567890123.4"]
UTC = dt.timezone.utc
DATE_EDGES = [dt.datetime(1970, 1, 1), dt.datetime(1970, 1, 1, tzinfo=UTC), dt.datetime.min, dt.datetime.max,
              dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(2024, 2, 29, 12, 0, 0, 1, tzinfo=UTC),
              dt.datetime(2000, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=14))),
              dt.datetime(1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=-23, minutes=-59))),
              dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone(dt.timedelta(hours=-23)))]


class Color(enum.IntEnum):
    RED = 1
    BIG = 2**40


class StrSub(str):
    pass


class FloatSub(float):
    pass


class Indexish:
    """Has __index__ (a valid list index for Python) but is not an int."""

    def __init__(self, v: int) -> None:
        self.v = v

    def __index__(self) -> int:
        return self.v

    def __repr__(self) -> str:
        return f"Indexish({self.v})"


class Boom:
    """An object whose conversions raise: the binding must not call them, or fail cleanly."""

    def __repr__(self) -> str:
        return "Boom()"


def hashable(v: Any) -> bool:
    """Whether ``v`` can go into a Python set."""
    try:
        hash(v)  # a deleted object that was never hashed raises InvalidatedError
        return True
    except EXPECTED:
        return False
