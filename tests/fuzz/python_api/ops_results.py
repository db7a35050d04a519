"""Operations on results: filter, objects, derived results (sorted, distinct, limit, snapshot,
sectioned, frozen), reads, and batch writes (set_value, set_values, delete_all)."""
from __future__ import annotations

from typing import Any, List, Optional

import realmdb
from realmdb import RealmObject

from python_api.context import Ctx
from python_api.invariants import check_results
from python_api.policy import Finding, attempt, known, trace
from python_api.queries import gen_args, gen_query
from python_api.roundtrip import expected_read_in, same_value, unreadable_date_ok
from python_api.schema import CLASSES, KIND, PROPS, TOP_CLASSES


def filter_and_check(c: Ctx, source: Any, cls: str, origin: str) -> None:
    """``source.filter`` with a generated query and arguments; its results are kept and checked."""
    q = gen_query(c)
    args = gen_args(c)
    trace("filter", origin, q, args)
    ok, r = attempt(source.filter, q, *args)
    if ok:
        c.remember_results(r, cls, f"{origin}.filter({q!r})")
        check_results(r, cls, f"{origin}.filter({q!r}, {args!r})")


def op_filter(c: Ctx) -> None:
    if c.results and c.flag():
        source, cls, origin = c.pick(c.results)
    else:
        cls = c.pick(TOP_CLASSES)
        ok, source = attempt(c.realm.objects, cls)
        if not ok:
            return
        origin = f"objects({cls})"
    filter_and_check(c, source, cls, origin)


def op_objects(c: Ctx) -> None:
    cls = c.pick(CLASSES) if c.n(8) else c.value()
    ok, r = attempt(c.realm.objects, cls)
    if ok:
        c.remember_results(r, cls, f"objects({cls!r})")


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
        c.remember_results(out, cls, f"{origin}.derived{k}")
        check_results(out, cls, f"{origin}.derived{k}")


def op_results_read(c: Ctx) -> None:
    if not c.results:
        return op_objects(c)
    r, cls, origin = c.pick(c.results)
    k = c.n(9)
    trace("results read", origin, k)
    if k == 0:
        ok, n = attempt(len, r)
        i = c.index(n if ok else 0)
        ok, v = attempt(r.__getitem__, i)
        if ok and isinstance(v, RealmObject):
            c.remember_object(v)
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
        check_results(r, cls, origin)
    elif k == 7:
        ok, objs = attempt(list, r)
        if ok:
            for o in objs[:4]:
                c.remember_object(o)
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
        check, expect = expected_read_in(c.realm, base, v)
        if not check:
            continue
        ok, got = attempt(o.__getitem__, prop)
        if not ok:
            if unreadable_date_ok(got):
                continue
            raise Finding(f"{what} succeeded but reading {cls}.{prop} back raised {got!r}")
        if not same_value(got, expect):
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
        v = c.value_for(KIND.get((cls, prop), ("", "mixed", True))[1])
        objs = _objects_at(r, 0, 1 << 30)
        ok, _ = attempt(r.set_value, prop, v)
        if ok and objs is not None:
            _check_batch_write(c, f"{origin}.set_value({prop!r}, {v!r})", cls, prop, objs, [v] * len(objs))
    elif k == 1:
        prop = c.pick(props)
        base = KIND.get((cls, prop), ("", "mixed", True))[1]
        if known("set-values-links-mixed") and base in ("mixed", "Target", "Embedded"):
            return
        vals = c.typed_values(base)
        start = c.pick([0, 0, 1, -1, 2**64, 0.5])
        objs = _objects_at(r, start, len(vals)) if isinstance(start, int) and 0 <= start < 2**63 else None
        trace("set_values", prop, vals, start)
        ok, _ = attempt(r.set_values, prop, vals, start)
        if ok and objs is not None:
            _check_batch_write(c, f"{origin}.set_values({prop!r}, {vals!r}, {start})", cls, prop, objs, vals)
    else:
        if not (known("embedded-count") and cls == "Embedded"):
            attempt(r.delete_all)
