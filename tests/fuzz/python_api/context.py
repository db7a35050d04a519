"""Ctx: what one input works with (its bytes, the objects, results and collections it made) and
the choices and values it draws from its bytes."""
from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from realmdb import Link, ObjectId, RealmObject

from python_api.policy import EXPECTED
from python_api.values import (DATE_EDGES, DEC_EDGES, FLOAT_EDGES, INT_EDGES, STR_EDGES, UTC, Boom, Color, FloatSub,
                               Indexish, StrSub)

if TYPE_CHECKING:
    from python_api.state import State


class Ctx:
    """Everything one input works with."""

    def __init__(self, data: Any, state: State) -> None:
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

    def index(self, size: int) -> Any:
        """An index for a sequence of ``size``: mostly around its range, else an edge or not an int."""
        k = self.n(5)
        if k <= 2:
            return self.d.ConsumeIntInRange(-size - 1, size + 1)
        if k == 3:
            return self.pick(INT_EDGES)
        return self.pick([1.0, float("nan"), "0", None, True, Indexish(0), Color.RED, slice(None, None, -1),
                          slice(0, 2), slice(None, None, 0), slice(-2**70, 2**70, 3)])

    # -- what the input made (kept for later operations, bounded) ------------

    def remember_object(self, obj: Any) -> None:
        if isinstance(obj, RealmObject) and len(self.objects) < 32:
            self.objects.append(obj)

    def remember_results(self, results: Any, cls: str, origin: str) -> None:
        if len(self.results) < 24:
            self.results.append((results, cls, origin))

    def remember_collection(self, coll: Any, cls: str, prop: str) -> None:
        if len(self.colls) < 24:
            self.colls.append((coll, cls, prop))

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
                return dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(seconds=seconds,
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

    def value_for(self, base: str) -> Any:
        """Half the time a value that (mostly) fits ``base``, else any value."""
        return self.typed_value(base) if self.flag() else self.value()

    def typed_values(self, base: str, strict: bool = False) -> List[Any]:
        """Up to three values that (mostly, always when ``strict``) fit ``base``."""
        return [self.typed_value(base, strict) for _ in range(self.n(3))]

    def realm_object_of_other_realm(self) -> Any:
        return self.state.other_object()
