"""Creating objects in bulk, one C call for many rows: ``Realm.create_many`` and the objects that
nested dicts describe (a list of dicts for a list of links is created in one call too)."""
from __future__ import annotations

import ctypes
import operator
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast

from ._batches import pack_rows
from ._c_types import CollectionType, PropertyType, UpsertMode, db_object_key_t
from ._ffi import lib
from ._schema import ClassMeta, check_collection_value
from ._values import Link, pack_values
from .object import RealmObject, check_same_realm

if TYPE_CHECKING:  # annotations only: the realm module is above this one
    from .realm import Realm

__all__ = ["upsert_mode", "create_many", "links_for_dicts", "dict_rows_to_tuples"]

_UPSERT: Dict[Optional[str], UpsertMode] = {None: UpsertMode.NONE, "modified": UpsertMode.MODIFIED, "all": UpsertMode.ALL}


def upsert_mode(update: object) -> UpsertMode:
    if isinstance(update, str) or update is None:
        mode = _UPSERT.get(update)
        if mode is not None:
            return mode
    raise ValueError(f"update must be None, 'modified' or 'all', not {update!r}")


def links_for_dicts(realm: Realm, class_name: str, dicts: Sequence[Mapping[str, object]]) -> Optional[List[Link]]:
    """Links to the objects several dicts describe, created (or upserted by primary key) in one
    C call; None when the dicts need the one-by-one path (different keys, or values that are
    themselves collections or nested objects)."""
    meta = realm._meta(class_name)
    names = list(dicts[0])
    if meta.embedded or any(n not in meta.single_value or n in meta.target_of and isinstance(d[n], Mapping)
                            for d in dicts for n in names):
        return None
    try:
        table = dict_rows_to_tuples(dicts, names)
    except ValueError:
        return None
    keys = realm._keys(meta, names)
    arr, keep = pack_rows(table, [meta.type_of[name] for name in names])
    out = (db_object_key_t * len(table))()
    mode = upsert_mode("modified" if meta.primary_key else None)
    lib.db_object_create_many_with_keys(realm._h(), meta.key, keys, len(names), arr, len(table), mode, out)
    del keep
    return [Link(meta.key, key) for key in out]


def create_many(realm: Realm, class_name: Union[str, type], rows: Iterable[Union[Mapping[str, object], Sequence[object]]],
                properties: Optional[Sequence[str]] = None, update: Optional[str] = None) -> int:
    """See :meth:`Realm.create_many`."""
    mode = upsert_mode(update)
    meta = realm._meta(class_name)
    if isinstance(rows, (str, bytes, bytearray, Mapping)):
        raise TypeError(f"rows must be a list of dicts or of tuples, not a {type(rows).__name__}")
    if not isinstance(rows, (list, tuple)):
        rows = list(rows)
    if not rows:
        return 0
    first = rows[0]
    dict_rows = isinstance(first, Mapping)
    if properties is None:
        if not dict_rows:
            raise TypeError("rows must be dicts unless `properties` names the tuple columns")
        names = list(first)
    else:
        if isinstance(properties, str):
            raise TypeError("properties must be a sequence of property names, not a string")
        names = list(properties)
    n = len(names)
    keys = realm._keys(meta, names)
    table: Sequence[Sequence[Any]]
    if dict_rows:
        table = dict_rows_to_tuples(rows, names)
    else:
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes, bytearray)):
                raise TypeError(f"row {i} is a {type(row).__name__}, not a tuple of values matching {names}")
            if isinstance(row, Mapping) or len(row) != n:
                raise ValueError(f"row {i} is not a sequence of {n} values matching {names}")
        table = cast(Sequence[Sequence[Any]], rows)
    for i, name in enumerate(names):
        if name in meta.target_of or meta.type_of.get(name) == PropertyType.MIXED:
            for row in table:
                check_same_realm(realm, row[i])
    later = [i for i, name in enumerate(names) if name not in meta.single_value
             or name in meta.target_of and any(isinstance(row[i], Mapping) for row in table)]
    for i in later:
        if names[i] not in meta.single_value:
            for row in table:
                check_collection_value(meta, names[i], row[i])  # before anything is written
    if later:
        return _create_many_with_relationships(realm, meta, names, table, later, mode)
    kinds = [meta.type_of[name] for name in names]
    arr, keep = pack_rows(table, kinds)
    created = ctypes.c_size_t()
    lib.db_object_create_many(realm._h(), meta.key, keys, n, arr, len(table), mode, ctypes.byref(created))
    del keep
    return int(created.value)


def _create_many_with_relationships(realm: Realm, meta: ClassMeta, names: List[str], table: Sequence[Sequence[Any]],
                                    later: List[int], mode: int) -> int:
    """create_many for rows with collections or nested objects: the plain columns in one call
    (which reports the keys), the objects nested dicts describe in one call per property, then
    each row's relationships."""
    plain = [i for i in range(len(names)) if i not in later]
    plain_names = [names[i] for i in plain]
    object_keys = (db_object_key_t * len(table))()
    arr, keep = pack_rows([tuple(row[i] for i in plain) for row in table], [meta.type_of[n] for n in plain_names])
    lib.db_object_create_many_with_keys(realm._h(), meta.key, realm._keys(meta, plain_names), len(plain_names),
                                        arr, len(table), mode, object_keys)
    del keep
    columns: Dict[int, List[Any]] = {i: [row[i] for row in table] for i in later}
    for i in later:
        target = meta.target_of.get(names[i])
        if target is None or realm._meta(target).embedded:
            continue
        # Nested dicts for one linked class, across all rows: one call creates them all.
        column = columns[i]
        spots: List[Tuple[int, Optional[int]]]
        if names[i] in meta.single_value:
            spots = [(r, None) for r, v in enumerate(column) if isinstance(v, Mapping)]
            dicts = [column[r] for r, _ in spots]
        elif all(isinstance(v, (list, tuple)) for v in column):
            spots = [(r, j) for r, v in enumerate(column) for j, e in enumerate(v) if isinstance(e, Mapping)]
            dicts = [column[r][j] for r, j in spots]
        else:
            continue
        links = links_for_dicts(realm, target, dicts) if len(dicts) > 1 else None
        if links is None:
            continue
        column[:] = [list(v) if isinstance(v, (list, tuple)) else v for v in column]
        for (r, j), link in zip(spots, links):
            if j is None:
                column[r] = link
            else:
                column[r][j] = link
    # Lists and sets of plain values or links are assigned straight through the C API; anything
    # else (dictionaries, embedded objects, remaining dicts) through the object, as create() does.
    direct = {}
    for i in later:
        kind = meta.kind_of.get(names[i])
        target = meta.target_of.get(names[i])
        if kind in (CollectionType.LIST, CollectionType.SET) and (target is None or not realm._meta(target).embedded) \
                and all(isinstance(v, (list, tuple, set, frozenset)) and not any(isinstance(e, Mapping) for e in v)
                        for v in columns[i]):
            direct[i] = ("list" if kind == CollectionType.LIST else "set", meta.key_of[names[i]])
    handle = realm._h()
    for r, key in enumerate(object_keys):
        ptr = lib.db_object_get_by_key(handle, meta.key, key)
        obj = RealmObject(realm, ptr, meta)
        try:
            for i in later:
                if i in direct:
                    kind_name, property_key = direct[i]
                    collection = getattr(lib, f"db_object_get_{kind_name}")(ptr, property_key)
                    try:
                        values = list(columns[i][r])
                        arr, keep = pack_values(values)
                        getattr(lib, f"db_{kind_name}_assign")(collection, arr, len(values))
                        del keep
                    finally:
                        getattr(lib, f"db_{kind_name}_release")(collection)
                else:
                    obj[names[i]] = columns[i][r]
        finally:
            obj._kill()
    return len(table)


def dict_rows_to_tuples(rows: Sequence[Any], names: List[str]) -> List[Sequence[Any]]:
    n = len(names)
    get = operator.itemgetter(*names)
    table: List[Sequence[Any]]
    try:
        if n == 1:
            table = [(get(r),) for r in rows]
        else:
            table = list(map(get, rows))
        bad = next((i for i, r in enumerate(rows) if len(r) != n), None)
    except (KeyError, TypeError):
        bad = next(i for i, r in enumerate(rows)
                   if not isinstance(r, Mapping) or any(k not in r for k in names))
    if bad is not None:
        raise ValueError(f"row {bad} does not have exactly the keys {names} of the first row")
    return table
