"""A plain-Python reference for realmdb's query semantics (test support for the differential test).

Written from the engine's documented rules (Sources/CoreEngine/Values/ValueOrdering.swift,
PredicateEvaluator.swift, StringMatching.swift, DiacriticFolding.swift) and Realm's:

- numbers compare across int, float and double by value (an int and a double compare as
  doubles, as the engine does); strings by Unicode code point; false < true; dates by time;
- null equals only null; ``<``-style comparisons involving null are false; ``!=`` is ``not ==``
  (so ``null != 5`` and ``NaN != x`` are true); NaN equals nothing;
- ``[c]`` lowercases both sides (``str.lower``), ``[d]`` removes diacritics (NFD, drop the
  nonspacing marks, NFC), ``[cd]`` does both (diacritics first);
- LIKE: ``*`` is any run of code points, ``?`` exactly one; CONTAINS '' is true for any non-null
  string; a null value matches no pattern; a null pattern is realm-core's: LIKE NULL matches null
  values only, CONTAINS, BEGINSWITH and ENDSWITH NULL match every value;
- arithmetic: int op int is exact; a result beyond 64 bits is the double nearest to it (never a
  wrapped int); division truncates toward zero and dividing by zero gives null; anything with a
  float or double is IEEE double arithmetic; null gives null;
- sorting: null first, then NaN, then values ascending (descending reverses that); ties keep
  their order (stable);
- distinct: the first object of each combination; null equals null, NaN equals NaN, -0.0 equals
  0.0, strings by code points;
- aggregates skip nulls; min/max also skip NaN; sum/average include NaN (IEEE); the sum of a
  float property is rounded to float32; the sum of ints is exact, and an error (OutOfRangeError)
  when it does not fit in 64 bits.

Predicates are trees of tuples (see :func:`evaluate`); every row is a dict of property values in
Python form (None, bool, int, float, str, :class:`TS`). Evaluation is column-wise: each node gives
a list with one entry per row.
"""
from __future__ import annotations

import functools
import math
import re
import struct
import unicodedata
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
NAN = float("nan")


def f32(x: float) -> float:
    """The float32 nearest to ``x`` (how float properties store values)."""
    return struct.unpack("f", struct.pack("f", x))[0]


#: What an aggregate gives when the library must report an error (an int sum beyond 64 bits).
OVERFLOW = "OutOfRangeError"


def int_or_nearest_double(x: int) -> Any:
    """An exact int result: itself when it fits in int64, else the nearest double."""
    return x if INT64_MIN <= x <= INT64_MAX else float(x)


def wrap64(x: int) -> int:
    """Two's-complement wrap to int64."""
    return ((x - INT64_MIN) % (1 << 64)) + INT64_MIN


class TS(int):
    """A timestamp as nanoseconds since the epoch (an int subclass, so not a "number" here)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"TS({int(self)})"


def ts_from_datetime(value: Any) -> Optional[TS]:
    if value is None:
        return None
    from realmdb._values import datetime_to_timestamp

    seconds, nanos = datetime_to_timestamp(value)
    return TS(seconds * 1_000_000_000 + nanos)


# --------------------------------------------------------------------------- values


def is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def is_nan(v: Any) -> bool:
    return type(v) is float and v != v


def compare(a: Any, b: Any) -> Optional[int]:
    """-1, 0 or 1 for two non-null values of comparable types; None when incomparable or NaN."""
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return (a > b) - (a < b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        x, y = float(a), float(b)
        if x != x or y != y:
            return None
        return (x > y) - (x < y)
    if ta is str and tb is str or ta is bool and tb is bool or ta is TS and tb is TS:
        return (a > b) - (a < b)
    return None


def equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return compare(a, b) == 0


# --------------------------------------------------------------------------- strings


@functools.lru_cache(maxsize=None)
def remove_diacritics(s: str) -> str:
    if s.isascii():
        return s
    decomposed = unicodedata.normalize("NFD", s)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn"))


@functools.lru_cache(maxsize=None)
def fold(s: str, options: str) -> str:
    if "d" in options:
        s = remove_diacritics(s)
    if "c" in options:
        s = s.lower()
    return s


@functools.lru_cache(maxsize=4096)
def _like_segment(segment: str) -> "re.Pattern[str]":
    """A regex for a piece of a LIKE pattern between stars: '?' is any one code point."""
    return re.compile("".join("." if ch == "?" else re.escape(ch) for ch in segment), re.DOTALL)


def like(text: str, pattern: str) -> bool:
    """LIKE with ``*`` (any run) and ``?`` (one code point), as a glob match.

    The text must start with the part before the first star and end with the part after the
    last; the parts between stars are found leftmost-first in between (which is exact for globs).
    """
    parts = pattern.split("*")
    if len(parts) == 1:
        return len(text) == len(pattern) and _like_segment(pattern).fullmatch(text) is not None
    first, last = parts[0], parts[-1]
    if len(first) + len(last) > len(text):
        return False
    if first and _like_segment(first).match(text) is None:
        return False
    end = len(text) - len(last)
    if last and _like_segment(last).fullmatch(text, end) is None:
        return False
    pos = len(first)
    for part in parts[1:-1]:
        if not part:
            continue
        found = _like_segment(part).search(text, pos, end)
        if found is None:
            return False
        pos = found.end()
    return True


def match(op: str, text: Any, pattern: Any, options: str) -> bool:
    if pattern is None:
        # realm-core's null pattern: LIKE matches null values only, the others every value.
        return text is None if op == "LIKE" else True
    if type(text) is not str or type(pattern) is not str:
        return False
    if options:
        text, pattern = fold(text, options), fold(pattern, options)
    if op == "BEGINSWITH":
        return text.startswith(pattern)
    if op == "ENDSWITH":
        return text.endswith(pattern)
    if op == "CONTAINS":
        return pattern in text
    if op == "LIKE":
        return like(text, pattern)
    raise ValueError(op)


def compare_op(op: str, a: Any, b: Any, options: str = "") -> bool:
    if options and type(a) is str and type(b) is str:
        a, b = fold(a, options), fold(b, options)
    if op == "==":
        return equal(a, b)
    if op == "!=":
        return not equal(a, b)
    if a is None or b is None:
        return False
    order = compare(a, b)
    if order is None:
        return False
    if op == "<":
        return order < 0
    if op == "<=":
        return order <= 0
    if op == ">":
        return order > 0
    if op == ">=":
        return order >= 0
    raise ValueError(op)


# --------------------------------------------------------------------------- arithmetic


def _ieee_div(x: float, y: float) -> float:
    if y == 0.0:
        if x == 0.0 or x != x:
            return NAN
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def arithmetic(op: str, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        if op == "+":
            return int_or_nearest_double(a + b)
        if op == "-":
            return int_or_nearest_double(a - b)
        if op == "*":
            return int_or_nearest_double(a * b)
        if b == 0:
            return None
        q = abs(a) // abs(b)
        return int_or_nearest_double(q if (a < 0) == (b < 0) else -q)
    if not is_number(a) or not is_number(b):
        return None
    x, y = float(a), float(b)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return _ieee_div(x, y)


# --------------------------------------------------------------------------- evaluation
#
# Expressions:  ("prop", name) | ("const", value) | ("arith", op, lhs, rhs) | ("neg", expr)
# Predicates:   ("true",) | ("false",) | ("and", p, q) | ("or", p, q) | ("not", p)
#               | ("cmp", op, lhs, rhs, options) | ("match", op, lhs, rhs, options)
#               | ("in", lhs, [values], options) | ("between", expr, lo_expr, hi_expr)
#               | ("list", op, "ANY"|"ALL"|"NONE", lhs, [values], options)


class Table:
    """Rows as columns: ``columns[name][row]``."""

    def __init__(self, rows: Sequence[Dict[str, Any]], names: Sequence[str]) -> None:
        self.n = len(rows)
        self.columns = {name: [r[name] for r in rows] for name in names}


def expression(table: Table, e: tuple) -> List[Any]:
    """One value per row."""
    kind = e[0]
    if kind == "prop":
        return table.columns[e[1]]
    if kind == "const":
        return [e[1]] * table.n
    if kind == "arith":
        op = e[1]
        return [arithmetic(op, a, b) for a, b in zip(expression(table, e[2]), expression(table, e[3]))]
    if kind == "neg":
        return [arithmetic("-", 0, a) for a in expression(table, e[1])]
    raise ValueError(kind)


def evaluate(table: Table, p: tuple) -> List[bool]:
    """One bool per row: whether the row matches the predicate."""
    kind = p[0]
    n = table.n
    if kind == "true":
        return [True] * n
    if kind == "false":
        return [False] * n
    if kind == "and":
        return [x and y for x, y in zip(evaluate(table, p[1]), evaluate(table, p[2]))]
    if kind == "or":
        return [x or y for x, y in zip(evaluate(table, p[1]), evaluate(table, p[2]))]
    if kind == "not":
        return [not x for x in evaluate(table, p[1])]
    if kind == "cmp":
        _, op, lhs, rhs, options = p
        return [compare_op(op, a, b, options) for a, b in zip(expression(table, lhs), expression(table, rhs))]
    if kind == "match":
        _, op, lhs, rhs, options = p
        return [match(op, a, b, options) for a, b in zip(expression(table, lhs), expression(table, rhs))]
    if kind == "in":
        _, lhs, values, options = p
        return [any(compare_op("==", a, v, options) for v in values) for a in expression(table, lhs)]
    if kind == "list":
        # ("list", op, quantifier, lhs, [values], options): op against each value of the list,
        # combined by ANY, ALL or NONE (empty list: ANY false, ALL and NONE true).
        _, op, quantifier, lhs, values, options = p
        string_op = op in ("BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE")
        out = []
        for a in expression(table, lhs):
            hits = [match(op, a, v, options) if string_op else compare_op(op, a, v, options) for v in values]
            out.append(any(hits) if quantifier == "ANY" else all(hits) if quantifier == "ALL" else not any(hits))
        return out
    if kind == "between":
        _, e, lo, hi = p
        return [compare_op(">=", a, x) and compare_op("<=", a, y)
                for a, x, y in zip(expression(table, e), expression(table, lo), expression(table, hi))]
    raise ValueError(kind)


# --------------------------------------------------------------------------- results operations


def sort_key(v: Any) -> Tuple[Any, ...]:
    if v is None:
        return (0,)
    if is_nan(v):
        return (1,)
    return (2, v)


def sort_rows(rows: List[Dict[str, Any]], keys: Sequence[Tuple[str, bool]]) -> List[Dict[str, Any]]:
    """Stable multi-key sort: successive stable sorts from the last key to the first."""
    out = list(rows)
    for name, ascending in reversed(keys):
        out.sort(key=lambda r: sort_key(r[name]), reverse=not ascending)
    return out


def distinct_key(v: Any) -> Any:
    if v is None:
        return ("null",)
    if is_nan(v):
        return ("nan",)
    if type(v) is float and v == 0.0:
        return 0.0  # -0.0 == 0.0
    return (type(v).__name__, v) if type(v) in (str, bool, TS) else v


def distinct_rows(rows: List[Dict[str, Any]], names: Sequence[str],
                  key: Callable[[Any], Any] = distinct_key) -> List[Dict[str, Any]]:
    seen = set()
    out = []
    for r in rows:
        k = tuple(key(r[n]) for n in names)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def apply_operations(rows: List[Dict[str, Any]], operations: Sequence[tuple],
                     distinct_key_fn: Callable[[Any], Any] = distinct_key) -> List[Dict[str, Any]]:
    """operations: ("sort", [(name, ascending), ...]) | ("distinct", [names]) | ("limit", n), in order."""
    for op in operations:
        if op[0] == "sort":
            rows = sort_rows(rows, op[1])
        elif op[0] == "distinct":
            rows = distinct_rows(rows, op[1], distinct_key_fn)
        else:
            rows = rows[: op[1]]
    return rows


# --------------------------------------------------------------------------- aggregates


def aggregate(kind: str, values: Sequence[Any], prop_type: str) -> Tuple[bool, Any]:
    """(found, value) as db_results_aggregate reports them."""
    present = [v for v in values if v is not None]
    if kind in ("min", "max"):
        best = None
        for v in present:
            if is_nan(v):
                continue
            if best is None or (compare(v, best) < 0 if kind == "min" else compare(v, best) > 0):
                best = v
        return (best is not None, best)
    if kind == "sum":
        if prop_type == "int":
            total = sum(present)
            if not INT64_MIN <= total <= INT64_MAX:
                return (True, OVERFLOW)
            return (True, total)
        s = 0.0
        for v in present:
            s += float(v)
        if prop_type == "float":
            try:
                s = f32(s)
            except OverflowError:
                s = math.copysign(math.inf, s)
        return (True, s)
    if kind == "average":
        if not present:
            return (False, None)
        if prop_type == "int":
            # The engine sums ints exactly (128 bits), then divides.
            return (True, sum(present) / len(present))
        s = 0.0
        for v in present:
            s += float(v)
        return (True, s / len(present))
    raise ValueError(kind)


def same_value(a: Any, b: Any, rel: float = 1e-9) -> bool:
    """Equality for comparing aggregate results: NaN equals NaN, floats within ``rel``."""
    if a is None or b is None:
        return a is None and b is None
    if type(a) is float or type(b) is float:
        x, y = float(a), float(b)
        if x != x or y != y:
            return x != x and y != y
        if math.isinf(x) or math.isinf(y):
            return x == y
        return math.isclose(x, y, rel_tol=rel, abs_tol=1e-12)
    return a == b
