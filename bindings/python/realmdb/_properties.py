"""Attribute access on stored objects: each class of a realm gets a Python type of its own (see
``object.object_type``) with one descriptor per property, so that ``person.age`` is a slot-like
lookup rather than a failed attribute search ending in ``__getattr__``.

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

from typing import Any, Optional

from ._values import Link

#: A property of a row not read yet at the row's counter value.
MISSING = object()


class RowProperty:
    """A single-valued property: its value from the object's cached row."""

    __slots__ = ("name", "key", "index", "may_link")

    def __init__(self, name: str, key: int, index: int, may_link: bool) -> None:
        self.name = name
        self.key = key
        self.index = index
        #: A link or mixed property: its stored Link becomes an object at each read.
        self.may_link = may_link

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
        obj._set(self.name, self.key, value)

    def __delete__(self, obj: Any) -> None:
        raise AttributeError(f"cannot delete {self.name!r}: realm properties cannot be removed from an object")


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
