#!/usr/bin/env python3
"""Coverage-guided fuzzing of realmdb's Python API with atheris.

Each input is a program: the fuzzer's bytes (read through a FuzzedDataProvider) choose a
sequence of operations on a realm with a fixed schema that has every property type, lists, sets,
dictionaries, links, backlinks and embedded objects: create/update/delete objects with values of
random Python types (wrong types, huge ints, NaN, NUL characters, lone surrogates, bytes, nested
lists and dicts, objects of another realm, deleted objects ...), attribute reads and writes, list,
set and dictionary operations with random indices and keys, ``filter`` with query strings built
from a grammar-aware mix of tokens and raw fuzz text (and random arguments), sorted/distinct/
limit, aggregates, freeze/thaw, observe + refresh, write/commit/cancel, close.

Every call may raise the errors the API documents (``EXPECTED``). Anything else is a finding:
another exception type, a failed invariant (AssertionError), a crash of the process (signal) or a
hang (libFuzzer's -timeout). Invariants checked:

* ``len(results)`` equals the number of objects iterated, for every Results the input made;
* every object of a query's results is an object of its class (a query result is a subset);
* a property read back right after a successful write has the written value (for the types that
  round-trip exactly), and a failed write leaves the old value;
* an element appended to a list, added to a set or stored under a dictionary key reads back.

Usage::

    python3 tests/fuzz/fuzz_python_api.py [libFuzzer options] [corpus dirs]   (needs atheris)
    tests/fuzz/run_fuzz.sh short | long SECONDS

``TestOneInput(data)`` can also be imported and called without atheris (the corpus replay test
does that); then ``fdp.FuzzedDataProvider``, which consumes bytes exactly as atheris's does, is used.

Each input starts from the same objects (``fixture()``) in a realm file that is reused across
inputs and made anew when it grows past MAX_FILE_BYTES.

Environment:
    REALMDB_FUZZ_KNOWN=ignore steer around the findings listed in known_findings.py (run_fuzz.sh
                              sets it); ignore-except:IDENT all but one; unset, they are findings.
    REALMDB_FUZZ_STRICT=1     treat realmdb.InternalError ("a bug in realmdb") as a finding too.
    REALMDB_FUZZ_SKIP=a,b     skip operations by name (OPS).
    REALMDB_FUZZ_TRACE=1      print each operation to stderr (to turn a crashing input into a repro).
    REALMDB_FUZZ_TMP=DIR      where the realm files go (default: the system's temporary directory).
"""
from __future__ import annotations

import datetime as dt
import decimal
import enum
import gc
import math
import os
import shutil
import struct
import sys
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for _p in (str(REPO / "bindings" / "python"), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)
# Swift's runtime installs its own SIGILL/SIGSEGV backtracer when libdb.so loads; libFuzzer then leaves
# those signals alone, and a Swift trap (fatalError, overflow) kills the process without a crash file.
# Without it, libFuzzer catches the trap (Swift still prints its "Fatal error: ..." line first).
os.environ.setdefault("SWIFT_BACKTRACE", "enable=no")
if "REALMDB_LIBRARY" not in os.environ and (REPO / ".build" / "debug" / "libdb.so").exists():
    os.environ["REALMDB_LIBRARY"] = str(REPO / ".build" / "debug" / "libdb.so")

try:
    import atheris  # type: ignore
except ImportError:  # replay without atheris (plain pytest)
    atheris = None

if atheris is not None and __name__ == "__main__":
    # Coverage feedback comes from the binding's Python code (libdb.so is not instrumented).
    with atheris.instrument_imports(include=["realmdb"]):
        import realmdb
        import realmdb.migration  # noqa: F401  (imported lazily by the package otherwise)
        import realmdb.notifications  # noqa: F401
        import realmdb.sectioned  # noqa: F401
else:
    import realmdb
    import realmdb.notifications  # noqa: F401
    import realmdb.sectioned  # noqa: F401

from realmdb import Link, ObjectId, RealmObject  # noqa: E402

from known_findings import KNOWN  # noqa: E402

if atheris is not None:
    FuzzedDataProvider = atheris.FuzzedDataProvider
else:
    from fdp import FuzzedDataProvider  # type: ignore  # noqa: E402

# ----------------------------------------------------------------------------- policy

#: What any call may raise: documented errors, not findings.
EXPECTED: Tuple[type, ...] = (realmdb.RealmError, TypeError, ValueError, IndexError, KeyError,
                              OverflowError, LookupError)
STRICT = os.environ.get("REALMDB_FUZZ_STRICT") == "1"
#: REALMDB_FUZZ_KNOWN=ignore: findings already reported (KNOWN, known_findings.py) are not findings again, so a
#: run gets past them to new ones. Unset (the default, and the corpus replay), they fail as found.
#: REALMDB_FUZZ_KNOWN=ignore-except:IDENT ignores all but one (to minimize an input of that one).
_KNOWN_MODE = os.environ.get("REALMDB_FUZZ_KNOWN", "")
IGNORE_KNOWN = _KNOWN_MODE == "ignore" or _KNOWN_MODE.startswith("ignore-except:")
_NOT_IGNORED = _KNOWN_MODE.split(":", 1)[1] if _KNOWN_MODE.startswith("ignore-except:") else None
SKIP = {s.strip() for s in os.environ.get("REALMDB_FUZZ_SKIP", "").split(",") if s.strip()}
TRACE = os.environ.get("REALMDB_FUZZ_TRACE") == "1"
MAX_OPS = 48
#: The realm file is deleted and made anew past this size (or every RESET_EVERY inputs).
MAX_FILE_BYTES = 32 << 20
RESET_EVERY = 5000


class Finding(AssertionError):
    """An invariant does not hold."""


def trace(*parts: Any) -> None:
    if TRACE:
        try:
            print("  fuzz:", *[_short(p) for p in parts], file=sys.stderr)
        except Exception:  # noqa: BLE001 - tracing must never fail the input
            pass


def _short(v: Any) -> str:
    try:
        text = repr(v)
    except Exception as exc:  # noqa: BLE001
        text = f"<repr failed: {type(exc).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:157] + "..."


def known(ident: str) -> bool:
    """True when the known native crash ``ident`` should be steered around (REALMDB_FUZZ_KNOWN=ignore)."""
    return IGNORE_KNOWN and ident != _NOT_IGNORED and any(k.ident == ident for k in KNOWN)


def _known_exception(error: BaseException) -> bool:
    return IGNORE_KNOWN and any(k.matches(error) and k.ident != _NOT_IGNORED for k in KNOWN)


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Tuple[bool, Any]:
    """Call ``fn``: (True, result), or (False, exception) for an expected exception.

    Unexpected exceptions propagate (a finding). UnicodeError is a ValueError but never a
    documented error of the API (a value that does not decode, a codec failure): a finding.
    With REALMDB_FUZZ_STRICT=1 so is InternalError.
    """
    try:
        return True, fn(*args, **kwargs)
    except EXPECTED as exc:
        if isinstance(exc, UnicodeError):
            raise
        if STRICT and isinstance(exc, realmdb.InternalError):
            raise
        trace("  ->", type(exc).__name__, str(exc)[:120])
        return False, exc
    except BaseException as exc:
        if _known_exception(exc):
            trace("  -> known finding", type(exc).__name__, str(exc)[:120])
            return False, exc
        raise


# ----------------------------------------------------------------------------- schema

SCALARS = ["bool", "int", "float", "double", "string", "data", "date", "objectId", "uuid", "decimal128"]

SCHEMA: List[Dict[str, Any]] = [
    {
        "name": "Holder",
        "primary_key": "pk",
        "properties": {
            "pk": "int",
            **{f"r_{t}": t for t in SCALARS},
            **{f"o_{t}": f"{t}?" for t in SCALARS},
            "idx_s": {"type": "string?", "indexed": True},
            "idx_i": {"type": "int?", "indexed": True},
            "any": "mixed",
            "link": "Target?",
            "emb": "Embedded?",
            # lists
            "ints": "int[]",
            "ostrs": "string?[]",
            "dbls": "double[]",
            "dates": "date?[]",
            "mixeds": "mixed[]",
            "targets": "Target[]",
            "emb_list": "Embedded[]",
            # sets
            "tags": "string<>",
            "onums": "int?<>",
            "mixed_set": "mixed<>",
            "target_set": "Target<>",
            # dictionaries
            "meta": "string{}",
            "onum_map": "int?{}",
            "mixed_map": "mixed{}",
            "target_map": "Target?{}",
            "emb_map": "Embedded?{}",
        },
        "indexes": [["r_int", "r_string"], ["idx_s", "idx_i"]],
    },
    {
        "name": "Target",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": "string?",
            "score": "double?",
            "next": "Target?",
            "holders": {"type": "linkingObjects", "objectType": "Holder", "property": "targets"},
        },
    },
    {"name": "Embedded", "embedded": True,
     "properties": {"text": "string?", "num": "int?", "inner": "Target?", "nums": "int[]"}},
    {"name": "Loose", "properties": {"s": "string?", "n": "int?", "d": "date?", "f": "float"}},
    {"name": "Keyed", "primary_key": "key", "properties": {"key": "string", "v": "int?", "oid": "objectId?"}},
]

CLASSES = [c["name"] for c in SCHEMA]
PRIMARY_KEYS: Dict[str, str] = {c["name"]: c["primary_key"] for c in SCHEMA if c.get("primary_key")}
TOP_CLASSES = [c["name"] for c in SCHEMA if not c.get("embedded")]
PROPS: Dict[str, List[str]] = {c["name"]: list(c["properties"]) for c in SCHEMA}


def _type_text(cls: str, prop: str) -> str:
    spec = next(c for c in SCHEMA if c["name"] == cls)["properties"][prop]
    return spec if isinstance(spec, str) else spec["type"]


def _kind(type_text: str) -> Tuple[str, str, bool]:
    """(collection: "" / "list" / "set" / "dict" / "backlinks", base type, optional)."""
    if type_text == "linkingObjects":
        return "backlinks", "Holder", False
    coll = {"[]": "list", "<>": "set", "{}": "dict"}.get(type_text[-2:], "")
    elem = type_text[:-2] if coll else type_text
    opt = elem.endswith("?")
    base = elem[:-1] if opt else elem
    return coll, base, opt or base == "mixed"


KIND: Dict[Tuple[str, str], Tuple[str, str, bool]] = {
    (c, p): _kind(_type_text(c, p)) for c in CLASSES for p in PROPS[c]}
COLLECTION_PROPS: Dict[str, Dict[str, List[str]]] = {
    coll: [(c, p) for (c, p), k in KIND.items() if k[0] == coll] for coll in ("list", "set", "dict")}  # type: ignore

# ----------------------------------------------------------------------------- values

INT_EDGES = [0, 1, -1, 2**31 - 1, -2**31, 2**53 + 1, 2**62, 2**63 - 1, -2**63, -2**63 + 1, 2**63, -2**63 - 1,
             2**64 - 1, 2**64, 10**30, -10**30, 2**1000]
FLOAT_EDGES = [float("nan"), -float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 5e-324, 1e308, 3.4028235e38,
               3.5e38, 1.17549435e-38, 1e-46, 0.1, 2.0**53 + 1]
STR_EDGES = ["", "\0", "a\0b", "\ud800", "x\udfff", "\udc80abc", "😀", "e\u0301", "ß", "İ", "a" * 600,
             "a.b", "$k", "@count", "'", '"', "\\", "[c]", "%s", "\x7f", "\uffff", "\U0010ffff", "TRUEPREDICATE"]
DEC_EDGES = ["NaN", "-NaN", "sNaN", "Infinity", "-Infinity", "0", "-0", "1E+6111", "1E-6176", "1E+6144",
             "9" * 34, "9" * 35, "1" + "0" * 40, "0.1", "-1.5E-10", "1E-7000", "123456789012345678901234567890123.4"]
_UTC = dt.timezone.utc
DATE_EDGES = [dt.datetime(1970, 1, 1), dt.datetime(1970, 1, 1, tzinfo=_UTC), dt.datetime.min, dt.datetime.max,
              dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(2024, 2, 29, 12, 0, 0, 1, tzinfo=_UTC),
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


class Ctx:
    """Everything one input works with."""

    def __init__(self, data: Any, state: "State") -> None:
        self.d = data
        self.state = state
        self.objects: List[RealmObject] = []
        self.results: List[Any] = []  # (Results, class name, origin)
        self.colls: List[Any] = []  # (collection, class, prop)
        self.tokens: List[Any] = []
        self.frozen: List[Any] = []
        self.notified = 0

    # -- choices ------------------------------------------------------------

    def n(self, hi: int) -> int:
        return self.d.ConsumeIntInRange(0, hi)

    def pick(self, seq: List[Any]) -> Any:
        return seq[self.d.ConsumeIntInRange(0, len(seq) - 1)]

    def flag(self) -> bool:
        return self.d.ConsumeBool()

    def text(self, n: int = 12) -> str:
        return self.d.ConsumeUnicode(self.n(n))

    @property
    def realm(self) -> Any:
        return self.state.realm

    def pick_object(self) -> Optional[RealmObject]:
        return self.pick(self.objects) if self.objects else None

    # -- values -------------------------------------------------------------

    def value(self, depth: int = 0) -> Any:
        k = self.n(27 if depth < 2 else 14)
        d = self.d
        if k == 0:
            return None
        if k == 1:
            return self.flag()
        if k == 2:
            return d.ConsumeIntInRange(-50, 50)
        if k == 3:
            return self.pick(INT_EDGES)
        if k == 4:
            return d.ConsumeInt(self.n(20))
        if k == 5:
            return d.ConsumeFloat()
        if k == 6:
            return self.pick(FLOAT_EDGES)
        if k == 7:
            return self.text(16)
        if k == 8:
            return self.pick(STR_EDGES)
        if k == 9:
            b = d.ConsumeBytes(self.n(24))
            return self.pick([b, bytearray(b), memoryview(b), b * 100])
        if k == 10:
            return self.pick(DATE_EDGES)
        if k == 11:
            seconds = d.ConsumeIntInRange(-2**36, 2**36)
            try:
                return dt.datetime(1970, 1, 1, tzinfo=_UTC) + dt.timedelta(seconds=seconds,
                                                                           microseconds=self.n(999999))
            except OverflowError:
                return dt.datetime(1970, 1, 1)
        if k == 12:
            return ObjectId(d.ConsumeBytes(12).ljust(12, b"\0"))
        if k == 13:
            return uuid.UUID(bytes=d.ConsumeBytes(16).ljust(16, b"\0"))
        if k == 14:
            if self.flag():
                return decimal.Decimal(self.pick(DEC_EDGES))
            return decimal.Decimal(d.ConsumeInt(self.n(16))).scaleb(d.ConsumeIntInRange(-40, 40))
        # depth-limited kinds
        if k == 15:
            return [self.value(depth + 1) for _ in range(self.n(4))]
        if k == 16:
            return {self.key(): self.value(depth + 1) for _ in range(self.n(3))}
        if k == 17:
            out = set()
            for _ in range(self.n(4)):
                v = self.value(depth + 1)
                try:
                    out.add(v)
                except EXPECTED:  # unhashable, or a deleted object (InvalidatedError)
                    pass
            return out
        if k == 18:
            return tuple(self.value(depth + 1) for _ in range(self.n(3)))
        if k == 19:
            if self.flag():
                return Link(self.n(6), d.ConsumeIntInRange(-3, 40))
            return Link(self.pick([0, 1, 2**32, -1, 2.5, "x"]), self.pick([0, 2**63, None, -2**63]))
        if k in (20, 21, 22):
            obj = self.pick_object()
            if obj is not None:
                return obj
            return self.realm_object_of_other_realm()
        if k == 23:
            return self.realm_object_of_other_realm()
        if k == 24:
            return self.pick([Color.RED, Color.BIG, StrSub("sub"), FloatSub(1.5), Indexish(1), Boom(), object(),
                              1 + 2j, frozenset({1, 2}), range(3), b"", Ellipsis, float, decimal.Decimal])
        if k == 25:
            if self.results:
                return self.pick(self.results)[0]
            if self.colls:
                return self.pick(self.colls)[0]
            return []
        if k == 26:
            return self.target_dict(depth)
        return self.embedded_dict(depth)

    def key(self) -> Any:
        """A dictionary key: usually a str, sometimes hostile."""
        k = self.n(5)
        if k <= 2:
            return self.pick(["k", "a", "b", "key", "z" * 3, "é"])
        if k == 3:
            return self.text(8)
        if k == 4:
            return self.pick(STR_EDGES)
        return self.pick([1, None, b"k", 1.5, ("t",)])

    def target_dict(self, depth: int, strict: bool = False) -> Dict[str, Any]:
        out: Dict[str, Any] = {"id": self.d.ConsumeIntInRange(-3, 12)}
        if self.flag():
            out["name"] = self.text(6) if strict or self.flag() else self.value(depth + 1)
        if self.flag():
            out["score"] = self.d.ConsumeFloat()
        if depth < 2 and self.flag():
            out["next"] = self.target_dict(depth + 1, strict) if strict else self.value(depth + 1)
        return out

    def embedded_dict(self, depth: int, strict: bool = False) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        if self.flag():
            out["text"] = self.text(6)
        if self.flag():
            out["num"] = self.d.ConsumeIntInRange(-9, 9) if strict or self.flag() else self.value(depth + 1)
        if self.flag():
            out["nums"] = [self.d.ConsumeIntInRange(-9, 9) for _ in range(self.n(3))]
        if depth < 2 and self.flag():
            out["inner"] = self.target_dict(depth + 1, strict)
        if not strict and self.n(7) == 0:
            out[self.pick(["nope", "holders", ""])] = 1
        return out

    def typed_value(self, base: str, strict: bool = False) -> Any:
        """A value that fits a base type (most of the time; always when ``strict``)."""
        d = self.d
        if not strict and self.n(7) == 0:
            return self.value()
        if base == "bool":
            return self.flag()
        if base == "int":
            return d.ConsumeIntInRange(-100, 100) if self.flag() else self.pick(INT_EDGES[:10])
        if base in ("double", "float"):
            return d.ConsumeFloat()
        if base == "string":
            return self.text(10)
        if base == "data":
            return d.ConsumeBytes(self.n(10))
        if base == "date":
            return self.pick(DATE_EDGES[:2] + DATE_EDGES[4:6])
        if base == "objectId":
            return ObjectId(d.ConsumeBytes(12).ljust(12, b"\0"))
        if base == "uuid":
            return uuid.UUID(bytes=d.ConsumeBytes(16).ljust(16, b"\0"))
        if base == "decimal128":
            return decimal.Decimal(d.ConsumeIntInRange(-10**6, 10**6)).scaleb(d.ConsumeIntInRange(-5, 5))
        if base == "mixed":
            return self.value(1)
        if base == "Target":
            targets = [o for o in self.objects if o._meta.name == "Target"] if strict else self.objects
            if targets and self.flag():
                return self.pick(targets)
            return self.target_dict(1, strict)
        if base == "Embedded":
            return self.embedded_dict(1, strict)
        return self.value()

    def realm_object_of_other_realm(self) -> Any:
        return self.state.other_object()


# ----------------------------------------------------------------------------- round trips


def _same(a: Any, b: Any) -> bool:
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
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def expected_read(base: str, value: Any) -> Tuple[bool, Any]:
    """(True, what reading back must give) when ``value`` stored in a property (or element) of
    type ``base`` round-trips exactly in Python; (False, None) when it is not checked."""
    t = type(value)
    if value is None:
        return True, None
    if base == "mixed":
        if t in (bool, int, str, bytes, ObjectId, uuid.UUID):
            return True, value
        if t is float:
            return True, value
        if t is decimal.Decimal:
            return True, value
        if t is dt.datetime:
            return True, value if value.tzinfo is not None else value.replace(tzinfo=_UTC)
        return False, None
    if base == "bool":
        return (t is bool), value
    if base == "int":
        return (t is int), value
    if base == "double":
        return (t is float), value
    if base == "float":
        if t is float and (not math.isfinite(value) or abs(value) <= 3.4028234663852886e38):
            return True, struct.unpack("f", struct.pack("f", value))[0]
        return False, None
    if base == "string":
        return (t is str), value
    if base == "data":
        return (t is bytes), value
    if base == "date":
        if t is dt.datetime:
            return True, value if value.tzinfo is not None else value.replace(tzinfo=_UTC)
        return False, None
    if base == "objectId":
        return (t is ObjectId), value
    if base == "uuid":
        return (t is uuid.UUID), value
    if base == "decimal128":
        return (t is decimal.Decimal), value
    if base in ("Target", "Embedded"):
        return (t is RealmObject and base == "Target"), value
    return False, None


# ----------------------------------------------------------------------------- state


class State:
    """The realm (reused across inputs), a second realm file (for objects of another realm)."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="realmdb-fuzz-", dir=os.environ.get("REALMDB_FUZZ_TMP") or None)
        self.generation = 0
        self.inputs = 0
        self.realm: Any = None
        self.other: Any = None
        self._other_obj: Any = None
        self.open_fresh()

    @property
    def path(self) -> str:
        return os.path.join(self.dir, f"fuzz-{self.generation}.realm")

    def open_fresh(self) -> None:
        """Close everything and start on a new, empty file."""
        self.close()
        self.generation += 1
        for name in os.listdir(self.dir):
            try:
                os.remove(os.path.join(self.dir, name))
            except OSError:
                pass
        self.realm = realmdb.open(self.path, SCHEMA)
        self.other = realmdb.open(os.path.join(self.dir, f"other-{self.generation}.realm"), SCHEMA)
        with self.other.write():
            self.other.create("Target", {"id": 1, "name": "other realm"})
        self._other_obj = self.other.object_for_primary_key("Target", 1)

    def other_object(self) -> Any:
        return self._other_obj

    def close(self) -> None:
        for r in (self.realm, self.other):
            if r is not None:
                try:
                    if not r.is_closed and r.in_write:
                        r.cancel_write()
                    r.close()
                except EXPECTED:
                    pass
        self.realm = self.other = self._other_obj = None
        gc.collect()

    def prepare(self) -> List[RealmObject]:
        """Before each input: an open realm, not in a write, holding only the FIXTURE objects
        (returned: the input starts with them)."""
        self.inputs += 1
        realm = self.realm
        too_big = False
        try:
            too_big = os.path.getsize(self.path) > MAX_FILE_BYTES
        except OSError:
            pass
        if realm is None or realm.is_closed or too_big or self.inputs % RESET_EVERY == 0:
            self.open_fresh()
            realm = self.realm
        if realm.in_write:
            realm.cancel_write()
        realm.refresh()
        with realm.write():
            for c in TOP_CLASSES:
                realm.objects(c).delete_all()
            return [realm.create(cls, values) for cls, values in fixture()]

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def fixture() -> List[Tuple[str, Dict[str, Any]]]:
    """The objects every input starts with: every property set, every collection filled."""
    t1 = {"id": 1, "name": "t1", "score": 1.5}
    t2 = {"id": 2, "name": "t2", "score": None, "next": {"id": 1}}
    full = {
        "pk": 1, "r_bool": True, "r_int": 7, "r_float": 2.5, "r_double": -0.5, "r_string": "héllo\0x",
        "r_data": b"\0\xff", "r_date": dt.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=_UTC),
        "r_objectId": ObjectId(b"0123456789ab"), "r_uuid": uuid.UUID(int=5), "r_decimal128": decimal.Decimal("1.25"),
        "o_int": None, "o_string": "opt", "o_double": float("nan"), "idx_s": "a", "idx_i": 3, "any": "mixed",
        "link": {"id": 1}, "emb": {"text": "e", "num": 1, "nums": [1, 2]},
        "ints": [3, 1, 2], "ostrs": ["a", None, "b"], "dbls": [1.5, float("nan"), -0.0],
        "dates": [None, dt.datetime(1970, 1, 1, tzinfo=_UTC)], "mixeds": [1, "a", None, 2.5, b"b"],
        "targets": [{"id": 1}, {"id": 2}, {"id": 1}], "emb_list": [{"num": 1}, {"num": 2, "inner": {"id": 2}}],
        "tags": {"a", "b"}, "onums": {1, None}, "mixed_set": {1, "x"}, "target_set": [{"id": 2}],
        "meta": {"k": "v", "a": ""}, "onum_map": {"a": 1, "b": None}, "mixed_map": {"k": 1, "s": "t"},
        "target_map": {"k": {"id": 1}, "n": None}, "emb_map": {"k": {"num": 3}},
    }
    minimal = {"pk": 2, "r_bool": False, "r_int": -1, "r_float": 0.0, "r_double": 1e300, "r_string": "",
               "r_data": b"", "r_date": dt.datetime(1970, 1, 1), "r_objectId": ObjectId(b"\0" * 12),
               "r_uuid": uuid.UUID(int=0), "r_decimal128": decimal.Decimal("-0")}
    return [("Target", t1), ("Target", t2), ("Holder", full), ("Holder", minimal),
            ("Keyed", {"key": "a", "v": 1}), ("Loose", {"s": "x", "n": 2, "f": 1.5})]


_STATE: Optional[State] = None


def get_state() -> State:
    global _STATE
    if _STATE is None:
        _STATE = State()
    return _STATE


def reset_state() -> None:
    """Forget the realm (the next input starts on a new file): used between replayed inputs."""
    global _STATE
    if _STATE is not None:
        _STATE.remove()
    _STATE = None


# ----------------------------------------------------------------------------- queries

Q_PATHS = (["pk", "any", "link", "link.name", "link.score", "link.next.name", "link.next.next.id", "emb.text",
            "emb.num", "emb.inner.id", "idx_s", "idx_i", "targets.score", "targets.name", "targets.@count",
            "targets.@avg.score", "targets.@min.id", "targets.@sum.id", "targets[FIRST].name", "targets[LAST].id",
            "targets[0].score", "targets[-1].id", "ints.@sum", "ints.@avg", "ints.@max", "ints[FIRST]", "ints[1]",
            "ostrs", "dbls.@min", "dates.@max", "mixeds", "mixeds.@type", "tags", "tags.@count", "onums",
            "meta['k']", "meta[\"a\"]", "meta.@keys", "meta.@values", "meta.@size", "onum_map.@sum", "mixed_map['k']",
            "target_map['k'].name", "target_map.@values.id", "emb_map['k'].num", "emb_list.num", "emb_list.@count",
            "any.@type", "@links.@count", "@links.Holder.targets.pk", "target_set.name", "mixed_set",
            "holders.pk", "holders.@count", "nope", "link.nope", "@links.Nope.x.y"]
           + [f"r_{t}" for t in SCALARS] + [f"o_{t}" for t in SCALARS])
Q_OPS = ["==", "!=", "<", "<=", ">", ">=", "=", "<>", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "BEGINSWITH[c]",
         "CONTAINS[cd]", "LIKE[c]", "==[c]", "!=[cd]", "ENDSWITH[d]", "IN", "BETWEEN", "TEXT", "=~"]
Q_LITERALS = ["0", "1", "-1", "1.5", "-0.0", "1e308", "1e999", "NaN", "inf", "-inf", "9223372036854775807",
              "9223372036854775808", "-9223372036854775809", "0x7f", "'a'", "'k'", '"é"', "''", "'a*'", "'?'",
              "'\\''", "'\\u0000'", "nil", "null", "NULL", "true", "false", "TRUE", "B64\"AAE=\"", "B64\"!\"",
              "T2024-01-01@12:00:00", "T1:0", "T-1:-1", "T2024-02-30@25:61:61", "oid(000000000000000000000000)",
              "oid(zz)", "uuid(00000000-0000-0000-0000-000000000000)", "uuid(x)", "decimal128(1.5)",
              "decimal128(NaN)", "decimal128(1E+99999)", "{}", "{1, 2, 'a'}", "{nil}", "{1, {2}}", "{1, 2}",
              "$0", "$1", "$2", "$3", "$99", "$-1", "$18446744073709551616", "'numeric'", "'string'", "'object'"]
Q_TOKENS = (["AND", "OR", "NOT", "&&", "||", "!", "(", ")", "TRUEPREDICATE", "FALSEPREDICATE", "ANY", "ALL", "NONE",
             "SOME", "SUBQUERY(targets, $x, $x.score > 0).@count", "SUBQUERY(targets, $x,", "$x.id", "$x",
             ").@count", "SORT(", "DISTINCT(", "LIMIT(", "ASC", "DESC", "ASCENDING", ",", "{", "}", "[", "]",
             ".", "@count", "@size", "@avg", "@links", "+", "-", "*", "/", "%", "'", '"', "\\", "@", "#", "[c]"]
            + Q_OPS + Q_LITERALS + Q_PATHS)


def gen_predicate(c: Ctx, depth: int = 0) -> str:
    k = c.n(9 if depth < 4 else 3)
    if k <= 3:
        path = c.pick(Q_PATHS) if c.flag() else c.pick(PROPS["Holder"])
        if c.n(5) == 0:
            path = c.pick(["ANY ", "ALL ", "NONE ", "SOME "]) + path
        op = c.pick(Q_OPS)
        rhs = c.pick(Q_LITERALS)
        if op == "BETWEEN":
            rhs = "{" + c.pick(Q_LITERALS) + ", " + c.pick(Q_LITERALS) + "}"
        if c.n(4) == 0:
            return f"{rhs} {op} {path}"
        if c.n(6) == 0:
            return f"{path} {c.pick(['+', '-', '*', '/'])} {c.pick(Q_LITERALS)} {op} {rhs}"
        return f"{path} {op} {rhs}"
    if k == 4:
        return c.pick(["TRUEPREDICATE", "FALSEPREDICATE"])
    if k == 5:
        return f"NOT {gen_predicate(c, depth + 1)}"
    if k == 6:
        return f"({gen_predicate(c, depth + 1)})"
    if k == 7:
        return f"{gen_predicate(c, depth + 1)} AND {gen_predicate(c, depth + 1)}"
    if k == 8:
        return f"{gen_predicate(c, depth + 1)} OR {gen_predicate(c, depth + 1)}"
    return (f"SUBQUERY({c.pick(['targets', 'emb_list', 'target_set', 'target_map', 'holders', 'link', 'ints'])}, "
            f"$x, $x.{c.pick(['id', 'score', 'name', 'num', 'nope'])} {c.pick(Q_OPS)} {c.pick(Q_LITERALS)})"
            f".@count {c.pick(Q_OPS)} {c.pick(Q_LITERALS)}")


def gen_query(c: Ctx) -> str:
    """A query: grammar-built, token soup, raw fuzz text, or a mix."""
    mode = c.n(5)
    if mode == 0:
        return c.text(40)
    if mode == 1:
        return " ".join(c.pick(Q_TOKENS) if c.n(4) else c.text(4) for _ in range(c.n(12)))
    q = gen_predicate(c)
    if c.n(3) == 0:
        suffix = c.pick([" SORT(pk ASC)", " SORT(link.name DESC, pk ASC)", " DISTINCT(r_int)", " LIMIT(2)",
                         " LIMIT(0)", " LIMIT(-1)", " LIMIT(18446744073709551616)", " SORT(targets.id ASC)",
                         " DISTINCT(link.name) LIMIT(1)", " SORT(nope ASC)", " SORT(", " LIMIT(1) SORT(pk DESC)"])
        q += suffix
    if mode == 4 and q:
        # Splice raw fuzz text into a grammatical query.
        at = c.n(len(q))
        q = q[:at] + c.text(6) + q[at + c.n(3):]
    if c.n(30) == 0:
        depth = c.n(130)
        q = c.pick(["(" * depth + q + ")" * depth, "NOT " * depth + q, " AND ".join([q] * max(depth, 1))])
    return q


def gen_args(c: Ctx) -> List[Any]:
    args = []
    for _ in range(c.n(3)):
        args.append(c.value() if c.n(3) else [c.value(1) for _ in range(c.n(3))])
    return args


# ----------------------------------------------------------------------------- operations


def _remember_results(c: Ctx, results: Any, cls: str, origin: str) -> None:
    if len(c.results) < 24:
        c.results.append((results, cls, origin))


def _remember_object(c: Ctx, obj: Any) -> None:
    if isinstance(obj, RealmObject) and len(c.objects) < 32:
        c.objects.append(obj)


def op_begin(c: Ctx) -> None:
    attempt(c.realm.begin_write)


def op_commit(c: Ctx) -> None:
    attempt(c.realm.commit)
    if c.n(3):  # usually the next write transaction follows
        attempt(c.realm.begin_write)


def op_cancel(c: Ctx) -> None:
    attempt(c.realm.cancel_write)
    if c.n(3):
        attempt(c.realm.begin_write)


def op_create_valid(c: Ctx) -> None:
    cls = c.pick(TOP_CLASSES)
    values: Dict[str, Any] = {}
    for prop in PROPS[cls]:
        coll, base, opt = KIND[(cls, prop)]
        if coll == "backlinks":
            continue
        required = not opt and not coll and base not in ("Target", "Embedded")
        if required:
            values[prop] = c.typed_value(base, strict=c.n(15) > 0)
        elif c.n(3) == 0:
            strict = c.n(3) > 0  # mostly values of the right type: the object gets created
            if coll == "list":
                values[prop] = [c.typed_value(base, strict) for _ in range(c.n(3))]
            elif coll == "set":
                values[prop] = {v for v in (c.typed_value(base, strict) for _ in range(c.n(3))) if _hashable(v)}
            elif coll == "dict":
                values[prop] = {(c.pick(["k", "a", "b"]) if strict else c.key()): c.typed_value(base, strict)
                                for _ in range(c.n(3))}
            else:
                values[prop] = c.typed_value(base, strict)
    if cls == "Holder":
        values["pk"] = c.d.ConsumeIntInRange(-5, 40)
    elif cls == "Target":
        values["id"] = c.d.ConsumeIntInRange(-3, 12)
    elif cls == "Keyed":
        values["key"] = c.pick(["a", "b", "", "\0", "é"]) if c.flag() else c.text(4)
    update = c.pick([None, None, "modified", "all"])
    trace("create", cls, values, update)
    pk_name = PRIMARY_KEYS.get(cls)
    existed = True
    if pk_name is not None:
        found_ok, found = attempt(c.realm.object_for_primary_key, cls, values[pk_name])
        existed = not found_ok or found is not None
    ok, obj = attempt(c.realm.create, cls, values, update=update)
    if ok:
        _remember_object(c, obj)
        _check_created(c, obj, cls, values)
    elif not existed and not known("create-not-atomic"):
        # A failed create leaves nothing behind (inside the write transaction too).
        after_ok, left = attempt(c.realm.object_for_primary_key, cls, values[pk_name])
        if after_ok and left is not None:
            raise Finding(f"create({cls}, {values!r}) failed with {type(obj).__name__}: {obj} "
                          f"but left the object {left!r} in the write transaction")


def _hashable(v: Any) -> bool:
    try:
        hash(v)  # a deleted object that was never hashed raises InvalidatedError
        return True
    except EXPECTED:
        return False


def _check_created(c: Ctx, obj: Any, cls: str, values: Dict[str, Any]) -> None:
    if cls == "Target" and any(isinstance(v, dict) for v in values.values()):
        return  # a nested dict may upsert this very object (same primary key) with other values
    for prop, value in values.items():
        coll, base, _ = KIND[(cls, prop)]
        if coll:
            continue
        ok, expect = _expect(c, base, value)
        got_ok, got = attempt(obj.__getitem__, prop)
        if not got_ok and _unreadable_date_ok(got):
            continue
        if not got_ok:
            raise Finding(f"create({cls}) with {prop}={value!r} succeeded but reading it back raised {got!r}")
        if ok and not _same(got, expect):
            raise Finding(f"create({cls}): {prop} written {value!r}, read back {got!r}")


_RESERVED = {"to_dict", "is_valid", "object_schema", "observe", "freeze", "thaw", "is_frozen"}


def op_create_random(c: Ctx) -> None:
    cls = c.pick(CLASSES + ["Nope", ""]) if c.n(8) else c.value()
    props = PROPS.get(cls, ["x"]) if isinstance(cls, str) else ["x"]
    values: Any = {}
    for _ in range(c.n(6)):
        name = c.pick(props) if c.n(6) else c.key()
        values[name] = c.value()
    if c.n(10) == 0:
        values = c.value()
    update = c.pick([None, "modified", "all", "ALL", "", 1, True])
    trace("create_random", cls, values, update)
    ok, obj = attempt(c.realm.create, cls, values, update=update)
    if ok:
        _remember_object(c, obj)


def op_create_many(c: Ctx) -> None:
    cls = c.pick(TOP_CLASSES)
    props = [p for p in PROPS[cls] if KIND[(cls, p)][0] != "backlinks"]
    names = [c.pick(props) for _ in range(1 + c.n(3))]
    rows: List[Any] = []
    for _ in range(c.n(4)):
        if c.flag():
            rows.append({n: c.typed_value(KIND[(cls, n)][1]) for n in names})
        else:
            rows.append(tuple(c.value() for _ in range(len(names) + c.n(1))))
    props_arg = names if (rows and not isinstance(rows[0], dict)) or c.n(4) == 0 else None
    update = c.pick([None, "modified", "all"])
    trace("create_many", cls, rows, props_arg, update)
    attempt(c.realm.create_many, cls, rows, props_arg, update)


def _unreadable_date_ok(error: Any) -> bool:
    """A read that fails because a stored date is outside Python's datetime range (known finding)."""
    return (known("date-unreadable") and isinstance(error, realmdb.OutOfRangeError)
            and "Python's datetime can represent" in str(error))


def _is_embedded(obj: Any) -> bool:
    return isinstance(obj, RealmObject) and obj._meta.name == "Embedded"


def op_delete(c: Ctx) -> None:
    target = c.pick_object() if c.n(6) else c.value()
    if known("embedded-count") and _is_embedded(target):
        return
    trace("delete", target)
    attempt(c.realm.delete, target)


def _read(obj: Any, prop: str) -> Tuple[bool, Any]:
    return attempt(obj.__getitem__, prop)


def _expect(c: Ctx, base: str, value: Any) -> Tuple[bool, Any]:
    """expected_read, with links checked only for live objects of this input's realm."""
    if isinstance(value, RealmObject):
        try:
            live = value._realm is c.realm and value.is_valid and not value.is_frozen
        except EXPECTED:
            live = False
        return (base == "Target" and live and value._meta.name == "Target"), value
    return expected_read(base, value)


def op_set_attr(c: Ctx) -> None:
    obj = c.pick_object()
    if obj is None:
        return
    cls = obj._meta.name if obj._meta.name in PROPS else "Holder"
    prop = c.pick(PROPS[cls]) if c.n(10) else c.pick(["nope", "to_dict", ""])
    coll, base, _ = KIND.get((cls, prop), ("?", "?", False))
    value = c.typed_value(base) if c.flag() else c.value()
    if coll == "list" and c.flag():
        value = [c.typed_value(base) for _ in range(c.n(3))]
    elif coll == "dict" and c.flag():
        value = {c.key(): c.typed_value(base) for _ in range(c.n(3))}
    use_item = c.flag() or prop in _RESERVED
    trace("set", cls, prop, value, "item" if use_item else "attr")
    scalar = not coll and prop in PROPS[cls]
    before_ok, before = _read(obj, prop) if scalar else (False, None)
    # Documented AttributeErrors: assigning a linkingObjects property, or an unknown attribute.
    attribute_error_ok = coll == "backlinks" or ((cls, prop) not in KIND and not use_item)
    try:
        if use_item:
            ok, _ = attempt(obj.__setitem__, prop, value)
        else:
            ok, _ = attempt(setattr, obj, prop, value)
    except AttributeError:
        if attribute_error_ok:
            return
        raise
    if not scalar:
        return
    after_ok, after = _read(obj, prop)
    if ok:
        if not after_ok:
            if _unreadable_date_ok(after):
                return
            raise Finding(f"{cls}.{prop} = {value!r} succeeded but reading it back raised {after!r}")
        check, expect = _expect(c, base, value)
        if check and not _same(after, expect):
            raise Finding(f"{cls}.{prop} = {value!r} succeeded but reads back {after!r}")
    elif before_ok and after_ok and not _same(before, after):
        # A dict for a link may create (upsert) its object first: only embedded objects are checked.
        if isinstance(value, Mapping) and (base != "Embedded" or known("embedded-assign-not-atomic")):
            return
        raise Finding(f"{cls}.{prop} = {value!r} failed but changed the value from {before!r} to {after!r}")


def op_get_attr(c: Ctx) -> None:
    obj = c.pick_object() if c.n(8) else c.value()
    if obj is None:
        return
    cls = obj._meta.name if isinstance(obj, RealmObject) else "Holder"
    prop = c.pick(PROPS.get(cls, ["x"])) if c.n(6) else c.pick(["nope", "__dict__", "_meta", "", "holders"])
    trace("get", prop)
    try:
        if c.flag() and prop not in _RESERVED:
            ok, v = attempt(getattr, obj, prop)
        else:
            ok, v = attempt(obj.__getitem__, prop)  # type: ignore[index]
    except AttributeError:
        return  # unknown attribute, or a non-object
    if ok and isinstance(v, (realmdb.List, realmdb.Set, realmdb.Dictionary)) and len(c.colls) < 24:
        c.colls.append((v, cls, prop))
    elif ok and isinstance(v, realmdb.Results):
        _remember_results(c, v, "Holder", f"{cls}.{prop}")
    elif ok:
        _remember_object(c, v)


def op_misc_object(c: Ctx) -> None:
    obj = c.pick_object()
    if obj is None:
        return
    k = c.n(7)
    trace("object misc", k)
    if k == 0:
        attempt(obj.to_dict)
    elif k == 1:
        attempt(repr, obj)
        attempt(lambda: obj.is_valid)
    elif k == 2:
        attempt(hash, obj)
    elif k == 3:
        other = c.pick_object()
        attempt(lambda: obj == other)
    elif k == 4:
        attempt(lambda: obj.object_schema)
    elif k == 5:
        attempt(dir, obj)
    elif k == 6:
        try:
            attempt(delattr, obj, c.pick(PROPS["Holder"]))
        except AttributeError:
            pass
    else:
        attempt(lambda: obj.is_frozen)


def _pick_collection(c: Ctx, kind: str) -> Optional[Tuple[Any, str, str]]:
    """A collection of ``kind`` ("list"/"set"/"dict"): one seen before, or one read now."""
    cls_type = {"list": realmdb.List, "set": realmdb.Set, "dict": realmdb.Dictionary}[kind]
    known = [t for t in c.colls if isinstance(t[0], cls_type)]
    if known and c.flag():
        return c.pick(known)
    objs = [o for o in c.objects if o._meta.name in ("Holder", "Embedded")]
    if not objs:
        ok, first = attempt(lambda: c.realm.objects("Holder").first())
        if not ok or first is None:
            return None
        _remember_object(c, first)
        objs = [first]
    obj = c.pick(objs)
    cls = obj._meta.name
    candidates = [p for (k, p) in COLLECTION_PROPS[kind] if k == cls]
    if not candidates:
        return None
    prop = c.pick(candidates)
    ok, coll = attempt(obj.__getitem__, prop)
    if not ok:
        return None
    if len(c.colls) < 24:
        c.colls.append((coll, cls, prop))
    return coll, cls, prop


def _index(c: Ctx, size: int) -> Any:
    k = c.n(5)
    if k <= 2:
        return c.d.ConsumeIntInRange(-size - 1, size + 1)
    if k == 3:
        return c.pick(INT_EDGES)
    return c.pick([1.0, float("nan"), "0", None, True, Indexish(0), Color.RED, slice(None, None, -1),
                   slice(0, 2), slice(None, None, 0), slice(-2**70, 2**70, 3)])


def op_list(c: Ctx) -> None:
    picked = _pick_collection(c, "list")
    if picked is None:
        return
    lst, cls, prop = picked
    _, base, _ = KIND[(cls, prop)]
    ok, size = attempt(len, lst)
    size = size if ok else 0
    k = c.n(15)
    v = c.typed_value(base) if c.flag() else c.value()
    trace("list", cls, prop, k, v)
    if k == 0:
        ok, _ = attempt(lst.append, v)
        if ok:
            check, expect = _expect(c, base, v)
            got_ok, got = attempt(lst.__getitem__, -1)
            if check and got_ok and base != "Embedded" and not _same(got, expect):
                raise Finding(f"{cls}.{prop}.append({v!r}) reads back {got!r}")
    elif k == 1:
        attempt(lst.insert, _index(c, size), v)
    elif k == 2:
        i = _index(c, size)
        ok, _ = attempt(lst.__setitem__, i, v if not isinstance(i, slice) else [v, c.value()])
        if ok and isinstance(i, int) and not isinstance(i, bool):
            check, expect = _expect(c, base, v)
            got_ok, got = attempt(lst.__getitem__, i)
            if check and got_ok and not _same(got, expect):
                raise Finding(f"{cls}.{prop}[{i}] = {v!r} reads back {got!r}")
    elif k == 3:
        attempt(lst.__getitem__, _index(c, size))
    elif k == 4:
        attempt(lst.__delitem__, _index(c, size))
    elif k == 5:
        attempt(lst.move, _index(c, size), _index(c, size))
    elif k == 6:
        attempt(lst.swap, _index(c, size), _index(c, size))
    elif k == 7:
        attempt(lst.index, v)
        attempt(lst.__contains__, v)
    elif k == 8:
        attempt(lst.extend, [c.typed_value(base) for _ in range(c.n(3))] if c.flag() else c.value())
    elif k == 9:
        attempt(lst.clear)
    elif k == 10:
        attempt(lst.pop, *([_index(c, size)] if c.flag() else []))
    elif k == 11:
        ok, vals = attempt(list, lst)
        ok2, n = attempt(len, lst)
        if ok and ok2 and len(vals) != n:
            raise Finding(f"len({cls}.{prop}) is {n} but iterating gives {len(vals)} elements")
    elif k == 12:
        agg = c.pick(["min", "max", "sum", "average"])
        name = None if c.flag() else c.pick(["id", "score", "num", "name", "nope"])
        attempt(getattr(lst, agg), name)
    elif k == 13:
        if c.flag():
            attempt(lst.sorted, *([c.pick(["id", "score", "name"])] if c.flag() else []))
        else:
            attempt(lst.distinct, *([c.pick(["id", "score", "name"])] if c.flag() else []))
    elif k == 14:
        _filter_on(c, lst, "Target" if base == "Target" else base, f"{cls}.{prop}")
    else:
        attempt(lst.remove, v)


def _mixed_decimal_set_ok(st: Any, base: str) -> bool:
    """A mixed set holding a Decimal: its order is not consistent (known finding)."""
    if not known("mixed-set-decimal-order") or base != "mixed":
        return False
    ok, values = attempt(list, st)
    return not ok or any(isinstance(x, decimal.Decimal) for x in values)


def op_set(c: Ctx) -> None:
    picked = _pick_collection(c, "set")
    if picked is None:
        return
    st, cls, prop = picked
    _, base, _ = KIND[(cls, prop)]
    k = c.n(10)
    v = c.typed_value(base) if c.flag() else c.value()
    trace("set", cls, prop, k, v)
    if k == 0:
        ok, _ = attempt(st.add, v)
        if ok:
            check, _unused = _expect(c, base, v)
            in_ok, present = attempt(st.__contains__, v)
            nan = (isinstance(v, float) and math.isnan(v)) or (isinstance(v, decimal.Decimal) and v.is_nan())
            if check and in_ok and not present and not nan and not _mixed_decimal_set_ok(st, base):
                raise Finding(f"{cls}.{prop}.add({v!r}) succeeded but {v!r} in the set is False")
    elif k == 1:
        attempt(st.discard, v)
    elif k == 2:
        attempt(st.__contains__, v)
    elif k == 3:
        attempt(st.update, [c.typed_value(base) for _ in range(c.n(3))] if c.flag() else c.value())
    elif k == 4:
        attempt(st.intersection_update, [c.typed_value(base) for _ in range(c.n(3))])
    elif k == 5:
        attempt(st.difference_update, [c.typed_value(base) for _ in range(c.n(3))])
    elif k == 6:
        attempt(st.clear)
    elif k == 7:
        ok, vals = attempt(list, st)
        ok2, n = attempt(len, st)
        if ok and ok2 and len(vals) != n:
            raise Finding(f"len({cls}.{prop}) is {n} but iterating gives {len(vals)} elements")
    elif k == 8:
        attempt(getattr(st, c.pick(["min", "max", "sum", "average"])), None if c.flag() else "id")
    elif k == 9:
        attempt(lambda: st | {v} if _hashable(v) else st | set())
    else:
        attempt(st.remove, v)


def op_dict(c: Ctx) -> None:
    picked = _pick_collection(c, "dict")
    if picked is None:
        return
    dct, cls, prop = picked
    _, base, _ = KIND[(cls, prop)]
    k = c.n(10)
    key = c.key()
    v = c.typed_value(base) if c.flag() else c.value()
    trace("dict", cls, prop, k, key, v)
    if k <= 1:
        ok, _ = attempt(dct.__setitem__, key, v)
        if ok:
            check, expect = _expect(c, base, v)
            got_ok, got = attempt(dct.__getitem__, key)
            if check and got_ok and not _same(got, expect):
                raise Finding(f"{cls}.{prop}[{key!r}] = {v!r} reads back {got!r}")
            if not got_ok and not _unreadable_date_ok(got):
                raise Finding(f"{cls}.{prop}[{key!r}] = {v!r} succeeded but reading it raised {got!r}")
    elif k == 2:
        attempt(dct.__getitem__, key)
    elif k == 3:
        attempt(dct.__delitem__, key)
    elif k == 4:
        attempt(dct.__contains__, key)
    elif k == 5:
        attempt(dct.get, key)
    elif k == 6:
        attempt(dct.update, {c.key(): c.typed_value(base) for _ in range(c.n(3))} if c.flag() else c.value())
    elif k == 7:
        ok, items = attempt(dct.items)
        ok2, n = attempt(len, dct)
        if ok and ok2 and len(items) != n:
            raise Finding(f"len({cls}.{prop}) is {n} but items() gives {len(items)} entries")
    elif k == 8:
        attempt(dct.clear)
    elif k == 9:
        attempt(dct.pop, key, None)
    else:
        attempt(getattr(dct, c.pick(["min", "max", "sum", "average"])), None if c.flag() else "id")


def _filter_on(c: Ctx, source: Any, cls: str, origin: str) -> None:
    q = gen_query(c)
    args = gen_args(c)
    trace("filter", origin, q, args)
    ok, r = attempt(source.filter, q, *args)
    if ok:
        _remember_results(c, r, cls, f"{origin}.filter({q!r})")
        _check_results(r, cls, f"{origin}.filter({q!r}, {args!r})")


def op_filter(c: Ctx) -> None:
    if c.results and c.flag():
        source, cls, origin = c.pick(c.results)
    else:
        cls = c.pick(TOP_CLASSES)
        ok, source = attempt(c.realm.objects, cls)
        if not ok:
            return
        origin = f"objects({cls})"
    _filter_on(c, source, cls, origin)


def op_objects(c: Ctx) -> None:
    cls = c.pick(CLASSES) if c.n(8) else c.value()
    ok, r = attempt(c.realm.objects, cls)
    if ok:
        _remember_results(c, r, cls, f"objects({cls!r})")


def op_derive(c: Ctx) -> None:
    if not c.results:
        return op_objects(c)
    r, cls, origin = c.pick(c.results)
    props = PROPS.get(cls, ["x"])
    k = c.n(6)
    trace("derive", origin, k)
    if k == 0:
        key: Any = c.pick(props + ["link.name", "link.next.id", "targets.id", "nope", "emb.num"])
        if c.n(4) == 0:
            key = [(c.pick(props), c.flag()) for _ in range(c.n(3))]
        elif c.n(6) == 0:
            key = c.value()
        ok, out = attempt(r.sorted, key, c.flag() if c.n(8) else c.value())
    elif k == 1:
        names = [c.pick(props + ["link.name", "nope", "targets"]) for _ in range(c.n(3))]
        ok, out = attempt(r.distinct, *names)
    elif k == 2:
        ok, out = attempt(r.limit, c.pick([0, 1, 2, 10, -1, 2**64, 2**64 - 1, 1.5, None]))
    elif k == 3:
        ok, out = attempt(r.snapshot)
    elif k == 4:
        ok, out = attempt(r.sectioned, c.pick(props + ["link.name", "nope"]) if c.flag() else (lambda o: repr(o)[:3]),
                          c.flag())
        if ok:
            attempt(len, out)
            attempt(out.__getitem__, c.d.ConsumeIntInRange(-2, 3))
            return
    else:
        ok, out = attempt(r.freeze)
        if ok:
            c.frozen.append(out.realm)
    if ok and isinstance(out, realmdb.Results):
        _remember_results(c, out, cls, f"{origin}.derived{k}")
        _check_results(out, cls, f"{origin}.derived{k}")


def op_results_read(c: Ctx) -> None:
    if not c.results:
        return op_objects(c)
    r, cls, origin = c.pick(c.results)
    k = c.n(9)
    trace("results read", origin, k)
    if k == 0:
        ok, n = attempt(len, r)
        i = _index(c, n if ok else 0)
        ok, v = attempt(r.__getitem__, i)
        if ok and isinstance(v, RealmObject):
            _remember_object(c, v)
    elif k == 1:
        attempt(r.first)
        attempt(r.last)
    elif k == 2:
        obj = c.pick_object() if c.n(4) else c.value()
        attempt(r.__contains__, obj)
        attempt(r.index, obj)
    elif k == 3:
        attempt(getattr(r, c.pick(["min", "max", "sum", "average"])),
                c.pick(PROPS.get(cls, ["x"]) + ["nope", "link.name"]))
    elif k == 4:
        attempt(r.values, c.pick(PROPS.get(cls, ["x"]) + ["nope"]))
    elif k == 5:
        attempt(repr, r)
        attempt(bool, r)
    elif k == 6:
        _check_results(r, cls, origin)
    elif k == 7:
        ok, objs = attempt(list, r)
        if ok:
            for o in objs[:4]:
                _remember_object(c, o)
    else:
        attempt(lambda: r.is_frozen)
        attempt(r.thaw)


def _objects_at(r: Any, start: int, count: int) -> Optional[List[Any]]:
    """The objects at positions start .. start+count-1 of ``r`` now (None if they cannot be read)."""
    ok, n = attempt(len, r)
    if not ok:
        return None
    objs = []
    for i in range(start, min(start + count, n)):
        ok, o = attempt(r.__getitem__, i)
        if not ok:
            return None
        objs.append(o)
    return objs


def _check_batch_write(c: Ctx, what: str, cls: str, prop: str, objs: List[Any], values: List[Any]) -> None:
    """After a successful set_value/set_values: each object (listed once) reads its new value."""
    base = KIND.get((cls, prop), ("?", "?", False))[1]
    if KIND.get((cls, prop), ("?",))[0] != "":
        return
    for o, v in zip(objs, values):
        if sum(1 for x in objs if x == o) != 1 or not o.is_valid:
            continue  # listed twice (a list of links), or deleted (a snapshot keeps it, invalid)
        check, expect = _expect(c, base, v)
        if not check:
            continue
        ok, got = attempt(o.__getitem__, prop)
        if not ok:
            if _unreadable_date_ok(got):
                continue
            raise Finding(f"{what} succeeded but reading {cls}.{prop} back raised {got!r}")
        if not _same(got, expect):
            raise Finding(f"{what} succeeded but {cls}.{prop} of {o!r} reads back {got!r}, not {expect!r}")


def op_results_write(c: Ctx) -> None:
    if not c.results:
        return
    r, cls, origin = c.pick(c.results)
    props = PROPS.get(cls, ["x"])
    k = c.n(2)
    trace("results write", origin, k)
    if k == 0:
        prop = c.pick(props)
        v = c.typed_value(KIND.get((cls, prop), ("", "mixed", True))[1]) if c.flag() else c.value()
        objs = _objects_at(r, 0, 1 << 30)
        ok, _ = attempt(r.set_value, prop, v)
        if ok and objs is not None:
            _check_batch_write(c, f"{origin}.set_value({prop!r}, {v!r})", cls, prop, objs, [v] * len(objs))
    elif k == 1:
        prop = c.pick(props)
        base = KIND.get((cls, prop), ("", "mixed", True))[1]
        if known("set-values-links-mixed") and base in ("mixed", "Target", "Embedded"):
            return
        vals = [c.typed_value(base) for _ in range(c.n(3))]
        start = c.pick([0, 0, 1, -1, 2**64, 0.5])
        objs = _objects_at(r, start, len(vals)) if isinstance(start, int) and 0 <= start < 2**63 else None
        trace("set_values", prop, vals, start)
        ok, _ = attempt(r.set_values, prop, vals, start)
        if ok and objs is not None:
            _check_batch_write(c, f"{origin}.set_values({prop!r}, {vals!r}, {start})", cls, prop, objs, vals)
    else:
        if not (known("embedded-count") and cls == "Embedded"):
            attempt(r.delete_all)


def op_object_for_primary_key(c: Ctx) -> None:
    cls = c.pick(CLASSES)
    key = c.value() if c.flag() else c.d.ConsumeIntInRange(-5, 40)
    trace("object_for_primary_key", cls, key)
    ok, obj = attempt(c.realm.object_for_primary_key, cls, key)
    if ok and obj is not None:
        _remember_object(c, obj)


def op_freeze(c: Ctx) -> None:
    k = c.n(4)
    trace("freeze", k)
    if k == 0:
        ok, fr = attempt(c.realm.freeze)
        if ok:
            c.frozen.append(fr)
            ok, r = attempt(fr.objects, c.pick(TOP_CLASSES))
            if ok:
                attempt(len, r)
                attempt(fr.thaw)
    elif k == 1:
        obj = c.pick_object()
        if obj is None:
            return
        ok, fo = attempt(obj.freeze)
        if ok:
            c.frozen.append(fo._realm)
            _remember_object(c, fo)
            ok, th = attempt(fo.thaw)
            if ok and th is not None:
                _remember_object(c, th)
    elif k == 2 and c.colls:
        coll, cls, prop = c.pick(c.colls)
        ok, fc = attempt(coll.freeze)
        if ok:
            c.frozen.append(fc._realm)
            attempt(len, fc)
            attempt(fc.thaw)
    else:
        attempt(c.realm.invalidate)


def _on_collection(c: Ctx, raise_it: bool) -> Callable[..., None]:
    def cb(owner: Any, changes: Any) -> None:
        c.notified += 1
        len(owner)  # read the collection inside the callback
        if raise_it:
            raise ValueError("callback raised (fuzz)")
    return cb


def op_observe(c: Ctx) -> None:
    k = c.n(3)
    raise_it = c.n(6) == 0
    key_paths: Any = None
    if c.n(3) == 0:
        key_paths = [c.pick(Q_PATHS) if c.n(3) else c.text(6) for _ in range(c.n(3))]
    trace("observe", k, key_paths)
    if k == 0 and c.results:
        r, _, _ = c.pick(c.results)
        ok, tok = attempt(r.observe, _on_collection(c, raise_it), key_paths)
    elif k == 1 and c.colls:
        coll, _, _ = c.pick(c.colls)
        ok, tok = attempt(coll.observe, _on_collection(c, raise_it), key_paths)
    elif c.objects:
        obj = c.pick_object()

        def on_object(change: Any) -> None:
            c.notified += 1
            repr(change)
            if raise_it:
                raise KeyError("callback raised (fuzz)")
        ok, tok = attempt(obj.observe, on_object, key_paths)
    else:
        return
    if ok:
        c.tokens.append(tok)


def op_refresh(c: Ctx) -> None:
    k = c.n(3)
    trace("refresh", k)
    if k == 0:
        attempt(c.realm.refresh)
    elif k == 1:
        attempt(c.realm.deliver_notifications)
    elif k == 2 and c.tokens:
        attempt(c.pick(c.tokens).invalidate)
    else:
        attempt(c.realm.version_info)


def op_close(c: Ctx) -> None:
    """Rarely: close the realm (everything read from it must fail cleanly), or reopen it."""
    if c.n(11):
        return
    trace("close")
    if c.realm.is_closed or c.n(3):
        attempt(c.realm.close)
        ok, r = attempt(realmdb.open, c.state.path, SCHEMA)
        if ok:
            c.state.realm = r
            if c.flag():
                attempt(r.begin_write)
    else:
        attempt(c.realm.close)


def op_write_block(c: Ctx) -> None:
    """``with realm.write():`` around a few operations, sometimes raising out of it."""
    trace("write block")
    boom = c.n(4) == 0
    try:
        with c.realm.write():
            for _ in range(c.n(3)):
                run_op(c, c.n(_NESTED_OK - 1))
            if boom:
                raise KeyError("leave the write block (fuzz)")
    except EXPECTED as exc:
        if isinstance(exc, UnicodeError) or (STRICT and isinstance(exc, realmdb.InternalError)):
            raise


#: (name for REALMDB_FUZZ_SKIP, function name); the input's bytes pick by position.
OPS: List[Tuple[str, str]] = [
    ("begin", "op_begin"), ("commit", "op_commit"), ("cancel", "op_cancel"),
    ("create_valid", "op_create_valid"), ("create_valid", "op_create_valid"), ("create_random", "op_create_random"),
    ("create_many", "op_create_many"), ("delete", "op_delete"), ("set_attr", "op_set_attr"),
    ("set_attr", "op_set_attr"), ("get_attr", "op_get_attr"), ("object_misc", "op_misc_object"),
    ("list", "op_list"), ("list", "op_list"), ("set", "op_set"), ("dict", "op_dict"), ("filter", "op_filter"),
    ("filter", "op_filter"), ("objects", "op_objects"), ("derive", "op_derive"), ("results_read", "op_results_read"),
    ("results_write", "op_results_write"), ("primary_key", "op_object_for_primary_key"), ("freeze", "op_freeze"),
    ("observe", "op_observe"), ("refresh", "op_refresh"), ("close", "op_close"),
]
#: Operations a write block may nest (not another write block: bounded recursion).
_NESTED_OK = len(OPS)
OPS.append(("write_block", "op_write_block"))


def run_op(c: Ctx, index: int) -> None:
    name, fn_name = OPS[index]
    if name in SKIP:
        return
    globals()[fn_name](c)


# ----------------------------------------------------------------------------- invariants


def _check_results(r: Any, cls: str, origin: str) -> None:
    """len(r) == number of objects iterated; every object is an object of its class."""
    ok, n = attempt(len, r)
    if not ok:
        return
    ok, objs = attempt(list, r)
    if not ok:
        return
    if r.is_snapshot:
        # Documented: objects deleted since stay in a snapshot (counted), iteration skips them.
        if len(objs) > n:
            raise Finding(f"{origin}: snapshot len() is {n} but iterating gives {len(objs)} objects")
    elif len(objs) != n:
        raise Finding(f"{origin}: len() is {n} but iterating gives {len(objs)} objects")
    if cls not in CLASSES or not objs:
        return
    realm = r.realm
    ok, everything = attempt(realm.objects, cls)
    if not ok:
        return
    ok, all_objs = attempt(list, everything)
    if not ok:
        return
    ok, all_set = attempt(set, all_objs)
    if not ok:
        return
    for o in objs:
        if o not in all_set:
            raise Finding(f"{origin}: {o!r} is in the results but not among the {cls} objects")


def check_invariants(c: Ctx) -> None:
    realm = c.realm
    if realm is None or realm.is_closed:
        return
    for cls in CLASSES:
        ok, r = attempt(realm.objects, cls)
        if ok:
            _check_results(r, cls, f"objects({cls})")
            ok, total = attempt(len, r)
            ok2, count = attempt(realm.count, cls)
            if ok and ok2 and total != count:
                raise Finding(f"len(objects({cls})) is {total} but count({cls}) is {count}")
            ok, every = attempt(r.filter, "TRUEPREDICATE")
            if ok:
                ok, m = attempt(len, every)
                if ok and m != total:
                    raise Finding(f"objects({cls}).filter('TRUEPREDICATE') has {m} objects, not {total}")
            ok, none = attempt(r.filter, "FALSEPREDICATE")
            if ok:
                ok, m = attempt(len, none)
                if ok and m != 0:
                    raise Finding(f"objects({cls}).filter('FALSEPREDICATE') has {m} objects")
    for r, cls, origin in c.results:
        try:
            alive = r.realm is realm and r.is_valid and not r.is_frozen
        except EXPECTED:
            continue
        if alive:
            _check_results(r, cls, origin)


# ----------------------------------------------------------------------------- entry point


def TestOneInput(data: bytes) -> None:
    """Run one input: a sequence of operations, then the invariants, then clean up."""
    state = get_state()
    start = state.prepare()
    c = Ctx(FuzzedDataProvider(data), state)
    c.objects.extend(start)
    try:
        if c.n(7):  # most inputs start in a write transaction
            attempt(c.realm.begin_write)
        for _ in range(MAX_OPS):
            if c.d.remaining_bytes() == 0:
                break
            run_op(c, c.n(len(OPS) - 1))
        check_invariants(c)
        realm = c.realm
        if not realm.is_closed and realm.in_write:
            if c.flag():
                attempt(realm.commit)
            else:
                attempt(realm.cancel_write)
        if not realm.is_closed and realm.in_write:
            realm.cancel_write()
        check_invariants(c)
    finally:
        for tok in c.tokens:
            try:
                tok.invalidate()
            except EXPECTED:
                pass
        for fr in c.frozen:
            try:
                fr.close()
            except EXPECTED:
                pass
        c.objects.clear()
        c.results.clear()
        c.colls.clear()
        c.tokens.clear()
        c.frozen.clear()


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install -r requirements-fuzz.txt "
                 "(or replay inputs with: python3 -m pytest bindings/python/tests/test_fuzz_corpus.py)")
    for name, fn in list(globals().items()):
        # Coverage of the harness's own branches too (which operations and values were reached).
        if callable(fn) and getattr(fn, "__module__", None) == __name__ and name.startswith(("op_", "gen_", "_check")):
            globals()[name] = atheris.instrument_func(fn)
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
