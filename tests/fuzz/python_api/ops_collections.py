"""Operations on lists, sets and dictionaries, with random indices, keys and values."""
from __future__ import annotations

import decimal
import math
from typing import Any, Callable, Optional, Tuple

import realmdb

from python_api.context import Ctx
from python_api.invariants import check_length
from python_api.ops_results import filter_and_check
from python_api.policy import Finding, attempt, known, trace
from python_api.roundtrip import expected_read_in, same_value, unreadable_date_ok
from python_api.schema import COLLECTION_PROPS, KIND
from python_api.values import hashable


def _pick_collection(c: Ctx, kind: str) -> Optional[Tuple[Any, str, str, str]]:
    """A collection of ``kind`` ("list"/"set"/"dict"), one seen before or one read now: (the
    collection, its object's class, its property, its elements' base type)."""
    cls_type = {"list": realmdb.List, "set": realmdb.Set, "dict": realmdb.Dictionary}[kind]
    seen = [t for t in c.colls if isinstance(t[0], cls_type)]
    if seen and c.flag():
        coll, cls, prop = c.pick(seen)
        return coll, cls, prop, KIND[(cls, prop)][1]
    objs = [o for o in c.objects if o._meta.name in ("Holder", "Embedded")]
    if not objs:
        ok, first = attempt(lambda: c.realm.objects("Holder").first())
        if not ok or first is None:
            return None
        c.remember_object(first)
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
    c.remember_collection(coll, cls, prop)
    return coll, cls, prop, KIND[(cls, prop)][1]


def _choose(c: Ctx, what: str, cls: str, prop: str, base: str, last: int) -> Tuple[int, Any]:
    """Which operation (0 .. ``last``) and which value a list or set operation uses (traced)."""
    k = c.n(last)
    v = c.value_for(base)
    trace(what, cls, prop, k, v)
    return k, v


def _check_read_back(c: Ctx, what: str, base: str, value: Any, read: Callable[[], Any], compare: bool = True,
                     must_read: bool = False) -> None:
    """After ``what`` stored ``value``: ``read()`` gives it back (when expected_read checks it and
    ``compare``); with ``must_read``, a read that fails is a finding too."""
    check, expect = expected_read_in(c.realm, base, value)
    got_ok, got = attempt(read)
    if check and got_ok and compare and not same_value(got, expect):
        raise Finding(f"{what} reads back {got!r}")
    if must_read and not got_ok and not unreadable_date_ok(got):
        raise Finding(f"{what} succeeded but reading it raised {got!r}")


def op_list(c: Ctx) -> None:
    picked = _pick_collection(c, "list")
    if picked is None:
        return
    lst, cls, prop, base = picked
    ok, size = attempt(len, lst)
    size = size if ok else 0
    k, v = _choose(c, "list", cls, prop, base, 15)
    if k == 0:
        ok, _ = attempt(lst.append, v)
        if ok:
            _check_read_back(c, f"{cls}.{prop}.append({v!r})", base, v, lambda: lst[-1], compare=base != "Embedded")
    elif k == 1:
        attempt(lst.insert, c.index(size), v)
    elif k == 2:
        i = c.index(size)
        ok, _ = attempt(lst.__setitem__, i, v if not isinstance(i, slice) else [v, c.value()])
        if ok and isinstance(i, int) and not isinstance(i, bool):
            _check_read_back(c, f"{cls}.{prop}[{i}] = {v!r}", base, v, lambda: lst[i])
    elif k == 3:
        attempt(lst.__getitem__, c.index(size))
    elif k == 4:
        attempt(lst.__delitem__, c.index(size))
    elif k == 5:
        attempt(lst.move, c.index(size), c.index(size))
    elif k == 6:
        attempt(lst.swap, c.index(size), c.index(size))
    elif k == 7:
        attempt(lst.index, v)
        attempt(lst.__contains__, v)
    elif k == 8:
        attempt(lst.extend, c.typed_values(base) if c.flag() else c.value())
    elif k == 9:
        attempt(lst.clear)
    elif k == 10:
        attempt(lst.pop, *([c.index(size)] if c.flag() else []))
    elif k == 11:
        check_length(lst, f"{cls}.{prop}")
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
        filter_and_check(c, lst, "Target" if base == "Target" else base, f"{cls}.{prop}")
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
    st, cls, prop, base = picked
    k, v = _choose(c, "set", cls, prop, base, 10)
    if k == 0:
        ok, _ = attempt(st.add, v)
        if ok:
            check, _unused = expected_read_in(c.realm, base, v)
            in_ok, present = attempt(st.__contains__, v)
            nan = (isinstance(v, float) and math.isnan(v)) or (isinstance(v, decimal.Decimal) and v.is_nan())
            if check and in_ok and not present and not nan and not _mixed_decimal_set_ok(st, base):
                raise Finding(f"{cls}.{prop}.add({v!r}) succeeded but {v!r} in the set is False")
    elif k == 1:
        attempt(st.discard, v)
    elif k == 2:
        attempt(st.__contains__, v)
    elif k == 3:
        attempt(st.update, c.typed_values(base) if c.flag() else c.value())
    elif k == 4:
        attempt(st.intersection_update, c.typed_values(base))
    elif k == 5:
        attempt(st.difference_update, c.typed_values(base))
    elif k == 6:
        attempt(st.clear)
    elif k == 7:
        check_length(st, f"{cls}.{prop}")
    elif k == 8:
        attempt(getattr(st, c.pick(["min", "max", "sum", "average"])), None if c.flag() else "id")
    elif k == 9:
        attempt(lambda: st | {v} if hashable(v) else st | set())
    else:
        attempt(st.remove, v)


def op_dict(c: Ctx) -> None:
    picked = _pick_collection(c, "dict")
    if picked is None:
        return
    dct, cls, prop, base = picked
    k = c.n(10)
    key = c.key()
    v = c.value_for(base)
    trace("dict", cls, prop, k, key, v)
    if k <= 1:
        ok, _ = attempt(dct.__setitem__, key, v)
        if ok:
            _check_read_back(c, f"{cls}.{prop}[{key!r}] = {v!r}", base, v, lambda: dct[key], must_read=True)
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
        check_length(dct, f"{cls}.{prop}", lambda d: d.items(), "items() gives {} entries")
    elif k == 8:
        attempt(dct.clear)
    elif k == 9:
        attempt(dct.pop, key, None)
    else:
        attempt(getattr(dct, c.pick(["min", "max", "sum", "average"])), None if c.flag() else "id")
