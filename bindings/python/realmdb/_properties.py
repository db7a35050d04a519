"""Attribute access on stored objects: each class of a realm gets a Python type of its own (see
``object.object_type``) with one descriptor per property, so that ``person.age`` is a slot-like
lookup (RealmObject defines no ``__getattr__``, which would slow every attribute of every object).

A single-valued property reads the object's *row*: the values of its single-valued properties,
each read through the library at its first access (or the whole row at once by an iteration)
and kept while the realm's change counter holds the value it had then (any write through the
realm, refresh, commit, cancel or close moves it; see ``db_realm_get_change_counter``).
The other properties (lists, sets, dictionaries, linkingObjects) and the properties of a
schema without keys (a migration's old schema) read through the library on every access.

RealmObject itself defines neither ``__setattr__`` nor ``__delattr__`` (either would route every
store to its slots, on every object made, through a Python-level call): deleting a property is
refused here, by its descriptor.
"""
from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple

from ._c_types import db_value_t
from ._ffi import addressed, raise_last_error
from ._own_writes import RUN_LIMIT, OwnWrites, record_plain_write
from ._values import Link, pack_value_into, packed_scalar

_set_value_by_key_at = addressed.db_object_set_value_by_key
_set_int_at = addressed.db_property_writer_set_int
_set_double_at = addressed.db_property_writer_set_double
_addressof = ctypes.addressof

#: A property of a row not read yet at the row's counter value.
MISSING = object()


class RowProperty:
    """A single-valued property: its value from the object's cached row."""

    __slots__ = ("name", "key", "index", "may_link", "read_back")

    def __init__(self, name: str, key: int, index: int, may_link: bool,
                 read_back: Optional[Tuple[type, ...]]) -> None:
        self.name = name
        self.key = key
        self.index = index
        #: A link or mixed property: its stored Link becomes an object at each read.
        self.may_link = may_link
        #: For a property whose plain writes change nothing else (ClassMeta.plain_write), the
        #: classes of the values that read back as written: those are written here, in one frame.
        self.read_back = read_back

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        value = obj._row[self.index] if obj._stamp == obj._realm._counter.value else MISSING
        if value is MISSING:
            value = obj._load(self.index)
        if self.may_link and value.__class__ is Link:
            return obj._realm._object_from_link(value)
        return value

    def __set__(self, obj: Any, value: object) -> None:
        read_back = self.read_back
        cls = value.__class__
        object_key = obj._key
        if read_back is None or cls not in read_back or obj._ptr is not None or object_key is None:
            obj._set(self.name, self.key, value)
            return
        # The common write, a plain value of the property's own type to an object known by its key,
        # without RealmObject._set's checks for links, collections and handles. A number goes
        # through the realm's db_property_writer_t for this property: three arguments a call,
        # where each costs ctypes about 0.1 us; write_by_key's call takes five, one of them packed.
        if cls is float:
            set_number = _set_double_at
        elif cls is int and -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:  # type: ignore[operator]  # an int
            set_number = _set_int_at
        else:
            write_by_key(obj, self.key, value, self.index, read_back)
            return
        realm = obj._realm
        writer = realm._writers.get(self)
        if writer is None:
            writer = realm._property_writer(self, obj._meta.key, self.key)
        if not writer:
            write_by_key(obj, self.key, value, self.index, read_back)
            return
        # write_by_key and record_plain_write in one frame: their calls cost a fifth of the write,
        # which `for o in results: o.score += 1` makes once per object.
        counter = realm._counter
        before = counter.value
        status = set_number(writer, object_key, value)
        if status:
            raise_last_error(status)
        if not before:
            return
        after = counter.value
        table = obj._meta.key
        run = realm._own_writes
        if run is not None and run.top == before and run.table == table and len(run.written) < RUN_LIMIT:
            run.top = after
            run.written.add(object_key)  # OwnWrites.add, inline for the run's own class
        elif run is None or run.top != before or not run.add(after, table, object_key):
            realm._own_writes = OwnWrites(before, after, table, {object_key})
        if obj._stamp == before:
            row = obj._row
            if row.__class__ is not list:
                row = obj._row = list(row)
            row[self.index] = value
            obj._stamp = after

    def __delete__(self, obj: Any) -> None:
        raise AttributeError(f"cannot delete {self.name!r}: realm properties cannot be removed from an object")


def write_by_key(obj: Any, key: int, value: object, index: Optional[int],
                 read_back: Optional[Tuple[type, ...]]) -> None:
    """Write ``value`` to the property ``key`` of ``obj``, an object known by its key (without a
    handle), in one call (see ``_ffi.addressed``). ``index`` and ``read_back``: the property's place
    in the row and ClassMeta.plain_write's classes for it, or None for a property whose writes are
    not plain (a link): a plain write is recorded (``_own_writes``), so that the rows of other
    objects stay current, and so does this one's, with the value written where it reads back as
    it is."""
    realm = obj._realm
    address = realm._address
    if address is None:
        realm._h()  # raises
    # Read before packing: packing a link to the object itself (obj.friend = obj) gives the object
    # a handle, after which it no longer holds its key.
    object_key, table = obj._key, obj._meta.key
    packed: object = packed_scalar(value)
    if packed is None:
        val = db_value_t()
        keep: List[object] = []
        pack_value_into(val, 0, value, keep)
        packed = _addressof(val)
    counter = realm._counter
    before = counter.value
    status = _set_value_by_key_at(address, obj._meta.key, object_key, key, packed)
    if status:
        raise_last_error(status)
    if read_back is None or index is None or not before:
        return
    after = counter.value
    record_plain_write(realm, before, after, table, object_key)
    if obj._stamp == before:
        row = obj._row
        if row.__class__ is not list:
            row = obj._row = list(row)
        row[index] = value if value.__class__ in read_back else MISSING
        obj._stamp = after


class DirectProperty:
    """A property read through the library at every access (collections, backlinks, by-name schemas)."""

    __slots__ = ("name", "key")

    def __init__(self, name: str, key: int) -> None:
        self.name = name
        self.key = key

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return self
        return obj._get(self.name, self.key)

    def __set__(self, obj: Any, value: object) -> None:
        obj._set(self.name, self.key, value)

    def __delete__(self, obj: Any) -> None:
        raise AttributeError(f"cannot delete {self.name!r}: realm properties cannot be removed from an object")
