"""Operations on objects: create (valid, random, many), delete, attribute reads and writes, the rest
of an object's API, lookup by primary key."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Dict, List, Tuple

import realmdb
from realmdb import RealmObject

from python_api.context import Ctx
from python_api.policy import Finding, attempt, known, trace
from python_api.roundtrip import expected_read_in, same_value, unreadable_date_ok
from python_api.schema import CLASSES, KIND, PRIMARY_KEYS, PROPS, TOP_CLASSES
from python_api.values import hashable


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
                values[prop] = c.typed_values(base, strict)
            elif coll == "set":
                values[prop] = {v for v in (c.typed_value(base, strict) for _ in range(c.n(3))) if hashable(v)}
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
        c.remember_object(obj)
        _check_created(c, obj, cls, values)
    elif not existed and not known("create-not-atomic"):
        # A failed create leaves nothing behind (inside the write transaction too).
        after_ok, left = attempt(c.realm.object_for_primary_key, cls, values[pk_name])
        if after_ok and left is not None:
            raise Finding(f"create({cls}, {values!r}) failed with {type(obj).__name__}: {obj} "
                          f"but left the object {left!r} in the write transaction")


def _check_created(c: Ctx, obj: Any, cls: str, values: Dict[str, Any]) -> None:
    if cls == "Target" and any(isinstance(v, dict) for v in values.values()):
        return  # a nested dict may upsert this very object (same primary key) with other values
    for prop, value in values.items():
        coll, base, _ = KIND[(cls, prop)]
        if coll:
            continue
        ok, expect = expected_read_in(c.realm, base, value)
        got_ok, got = attempt(obj.__getitem__, prop)
        if not got_ok and unreadable_date_ok(got):
            continue
        if not got_ok:
            raise Finding(f"create({cls}) with {prop}={value!r} succeeded but reading it back raised {got!r}")
        if ok and not same_value(got, expect):
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
        c.remember_object(obj)


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


def op_set_attr(c: Ctx) -> None:
    obj = c.pick_object()
    if obj is None:
        return
    cls = obj._meta.name if obj._meta.name in PROPS else "Holder"
    prop = c.pick(PROPS[cls]) if c.n(10) else c.pick(["nope", "to_dict", ""])
    coll, base, _ = KIND.get((cls, prop), ("?", "?", False))
    value = c.value_for(base)
    if coll == "list" and c.flag():
        value = c.typed_values(base)
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
            if unreadable_date_ok(after):
                return
            raise Finding(f"{cls}.{prop} = {value!r} succeeded but reading it back raised {after!r}")
        check, expect = expected_read_in(c.realm, base, value)
        if check and not same_value(after, expect):
            raise Finding(f"{cls}.{prop} = {value!r} succeeded but reads back {after!r}")
    elif before_ok and after_ok and not same_value(before, after):
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
    if ok and isinstance(v, (realmdb.List, realmdb.Set, realmdb.Dictionary)):
        c.remember_collection(v, cls, prop)
    elif ok and isinstance(v, realmdb.Results):
        c.remember_results(v, "Holder", f"{cls}.{prop}")
    elif ok:
        c.remember_object(v)


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


def op_object_for_primary_key(c: Ctx) -> None:
    cls = c.pick(CLASSES)
    key = c.value() if c.flag() else c.d.ConsumeIntInRange(-5, 40)
    trace("object_for_primary_key", cls, key)
    ok, obj = attempt(c.realm.object_for_primary_key, cls, key)
    if ok and obj is not None:
        c.remember_object(obj)
