"""Lists, sets and dictionaries of an object: live views that behave like Python's own.

``person.dogs`` is a :class:`List` (a ``MutableSequence``), ``person.tags`` a :class:`Set`
(a ``MutableSet``), ``person.meta`` a :class:`Dictionary` (a ``MutableMapping``). Every read
shows the realm's current state; every change needs a write transaction
(:class:`WrongTransactionState` otherwise) and is checked by the library (wrong element type,
null in a non-optional collection, a bad dictionary key: errors, never crashes).

Elements that are links come back as :class:`RealmObject`. A dict stored where an object is
expected creates it: an embedded object in place, or an object of the linked class (updating
the one with the same primary key, if any). Such a change is all or nothing: when a value in
the dict (or a later element) fails, the collection, the embedded object it replaced and the
objects it linked are left as they were.

Collections of objects support ``filter``, ``sorted``, ``distinct`` and the aggregates of a
property (they are :class:`Results` underneath); collections of scalars aggregate and sort their
values with no property name: ``scores.sum()``, ``scores.sorted()``.
"""
from __future__ import annotations

import contextlib
import ctypes
import datetime as _dt
import decimal
from collections.abc import Mapping, MutableMapping, MutableSequence, MutableSet
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Generic, Sequence, Tuple, TypeVar, Union, cast, overload

from . import _ffi
from ._arguments import IndexedSequence, as_index, c_string, check_bool, check_mapping, element_list, position
from ._c_types import VALUE_SIZE, Aggregate, db_value_t
from ._ffi import lib
from ._schema import ClassMeta, check_collection_value, describe
from ._values import Link, StoredValue, ValueArray, decode_values, pack_value_into, pack_values
from .errors import ClosedRealmError, InvalidArgumentError, InvalidatedError, WrongTypeError
from .notifications import CollectionChanges, NotificationToken, observe_collection
from .object import RealmObject, RealmValue, check_same_realm
from .results import AggregateValue, Results, SortSpec, query_arguments

if TYPE_CHECKING:  # annotations only: the realm module is above this one
    from ._c_types import DictionaryHandle, ListHandle, SetHandle
    from .realm import Realm

    CollectionHandle = Union[ListHandle, SetHandle, DictionaryHandle]

__all__ = ["List", "Set", "Dictionary", "check_collection_value", "describe"]

_byref = ctypes.byref
_BATCH = 1024
_C = TypeVar("_C", bound="_Collection[Any]")
#: The type of a collection's elements (values): RealmValue, or what a model class declares
#: (``realmdb.List[int]``, ``realmdb.List[Dog]``; see realmdb.model).
_V = TypeVar("_V")


class _Collection(_ffi.HandleOwner, Generic[_V]):
    """What lists, sets and dictionaries share: the handle, conversions and aggregates."""

    _kind = ""  # "list", "set", "dictionary": names the C functions

    def __init__(self, realm: Realm, ptr: CollectionHandle, owner: RealmObject, name: str) -> None:
        self._realm = realm
        self._ptr: Optional[CollectionHandle] = ptr
        self._owner = owner
        self._name = name
        meta = owner._meta
        self._target: Optional[str] = meta.target_of.get(name)
        self._element_type = meta.type_of[name]
        self._release = getattr(lib, f"db_{self._kind}_release")

    def _finalize(self) -> None:
        ptr = self._ptr
        if ptr is not None:
            self._ptr = None
            self._release(ptr)  # safe after the realm closed: it only drops the handle

    def freeze(self: _C) -> _C:
        """This collection at the version its realm reads now: immutable, usable from any thread."""
        if self.is_frozen:
            return self
        owner = self._owner.freeze()
        return type(self)(owner._realm, getattr(lib, f"db_{self._kind}_freeze")(self._h()), owner, self._name)

    def thaw(self: _C) -> Optional[_C]:
        """The live collection, or None if its object was deleted since."""
        if not self.is_frozen:
            return self
        owner = self._owner.thaw()
        ptr = getattr(lib, f"db_{self._kind}_thaw")(self._h())
        return None if owner is None or ptr is None else type(self)(owner._realm, ptr, owner, self._name)

    @property
    def realm(self) -> Realm:
        """The realm the collection belongs to (a frozen realm for a frozen collection)."""
        return self._realm

    @property
    def is_frozen(self) -> bool:
        return bool(getattr(lib, f"db_{self._kind}_is_frozen")(self._h()))

    def observe(self: _C, callback: Callable[[_C, CollectionChanges], None],
                key_paths: Optional[Sequence[str]] = None) -> NotificationToken:
        """Call ``callback(collection, changes)`` when the collection changes, as
        :meth:`Results.observe`. For a collection of objects, key paths name their properties;
        a list or set of values reports insertions, deletions and moves of values. A dictionary's
        indices are those of its keys in order, whatever it holds: a key whose value was replaced
        (by another value, another object or None) is a modification, and so is a key whose
        object changed where the key paths look."""
        return observe_collection(self._realm, self._kind, self._h(), self, callback, key_paths)

    def _h(self) -> Optional[CollectionHandle]:
        if self._realm.is_closed:
            raise ClosedRealmError("the realm has been closed", _ffi.Status.CLOSED_REALM)
        return self._ptr

    # -- values -----------------------------------------------------------

    def _out(self, value: StoredValue) -> _V:
        return cast(_V, self._realm._object_from_link(value) if isinstance(value, Link) else value)

    def _prepare(self, value: object) -> object:
        """A dict where an object is expected becomes that object (created or upserted)."""
        if isinstance(value, Mapping) and self._target is not None:
            return self._realm._object_for_dict(self._target, value)
        check_same_realm(self._realm, value)
        return value

    def _pack(self, value: object, keep: list[object]) -> db_value_t:
        """A db_value_t for ``value``."""
        buf = bytearray(VALUE_SIZE)
        keep.append(buf)
        pack_value_into(buf, 0, self._prepare(value), keep)
        return db_value_t.from_buffer(buf)

    def _what(self) -> str:
        return describe(self._owner._meta, self._name)

    def _pack_many(self, values: Iterable[object]) -> Tuple[Optional[ValueArray], list[object], int]:
        items = element_list(values, self._what())
        if self._target is not None:
            # Dicts of plain values for one class: created in one call rather than one by one.
            positions = [i for i, v in enumerate(items) if isinstance(v, Mapping)]
            if len(positions) > 1:
                links = self._realm._links_for_dicts(self._target, [cast(Mapping[str, object], items[i])
                                                                    for i in positions])
                for i, link in zip(positions, links or ()):
                    items[i] = link
        items = [self._prepare(v) for v in items]
        array, keep = pack_values(items)
        return array, keep, len(items)

    def _target_meta(self) -> ClassMeta:
        """The class of the linked objects (only for a collection of objects)."""
        assert self._target is not None
        return self._realm._meta(self._target)

    def _embedded_target(self) -> bool:
        return self._target is not None and self._realm._meta(self._target).embedded

    def _values(self) -> list[_V]:
        """Every element (every value, for a dictionary), converted."""
        get = getattr(lib, f"db_{self._kind}_get_values")
        out = (db_value_t * _BATCH)()
        got = ctypes.c_size_t()
        values: list[_V] = []
        start = 0
        while True:
            get(self._h(), start, _BATCH, out, _byref(got))
            n = got.value
            values.extend(self._out(v) for v in decode_values(bytes(out)[:n * VALUE_SIZE], n))
            start += n
            if n < _BATCH:
                return values

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        getattr(lib, f"db_{self._kind}_size")(self._h(), _byref(out))
        return int(out.value)

    def clear(self) -> None:
        """Remove every element (embedded objects among them are deleted)."""
        getattr(lib, f"db_{self._kind}_clear")(self._h())

    @property
    def is_valid(self) -> bool:
        """False once the owning object is deleted or the realm closed."""
        return self._ptr is not None and not self._realm.is_closed and \
            bool(getattr(lib, f"db_{self._kind}_is_valid")(self._ptr))

    # -- as a collection ----------------------------------------------------

    def _results(self) -> Results[RealmObject]:
        if self._target is None:
            raise TypeError(f"{self._owner._meta.name}.{self._name} holds values, not objects: "
                            "filter, sort or aggregate its values without a property name")
        return Results(self._realm, getattr(lib, f"db_{self._kind}_to_results")(self._h()),
                       self._realm._meta(self._target))

    def filter(self, query: str, *args: object) -> Union[Results[RealmObject], list[_V]]:
        """Objects: the linked objects that match a query, as live Results. Values (a list or set
        of scalars or mixed values): the values that match, in order, as a list; the query names
        each value ``self`` (``scores.filter("self > $0", 90)``, ``tags.filter("self BEGINSWITH[c]
        'sw'")``, ``words.filter("self.@size < 4")``, ``anys.filter("self.@type == 'string'")``).

        Raises:
            QueryError: a syntax or type error (a key path other than ``self``, SORT, DISTINCT
                or LIMIT over values too); ``.offset`` is the byte offset of the token at fault.
        """
        if self._target is not None or self._kind == "dictionary":
            return self._results().filter(query, *args)
        c_query = c_string(query, "the query")
        arr, keep = query_arguments(self._realm, args)
        values = self._values()
        # Room for every position: the values read and the query run see one version (nothing
        # runs in between on the realm's one thread; a frozen collection does not change).
        positions = (ctypes.c_size_t * max(len(values), 1))()
        count = ctypes.c_size_t()
        getattr(lib, f"db_{self._kind}_positions_matching")(self._h(), c_query, arr if args else None, len(args),
                                                            positions, len(values), ctypes.byref(count))
        del keep
        return [values[p] for p in positions[:min(count.value, len(values))]]

    def value_lists(self, key_path: str) -> list[list[StoredValue]]:
        """For every linked object, the values a key path reaches through any links, as
        ``Results.value_lists`` (collections of objects only)."""
        return self._results().value_lists(key_path)

    def sorted(self, key: Optional[SortSpec] = None, ascending: bool = True) -> Union[Results[RealmObject], list[_V]]:
        """Objects: Results sorted by property (as ``Results.sorted``). Values: a sorted list
        (nulls first, numbers by value, strings by code point)."""
        if self._target is not None:
            if key is None:
                raise TypeError("sorted() of a collection of objects needs a property name")
            return self._results().sorted(key, ascending)
        if key is not None:
            raise TypeError(f"{self._owner._meta.name}.{self._name} holds values: sort them with sorted()")
        return sorted(self._plain_values(), key=_sort_key, reverse=not check_bool(ascending, "ascending"))

    def distinct(self, *names: str) -> Union[Results[RealmObject], list[_V]]:
        """Objects: Results distinct by properties. Values: the values without repeats, in order."""
        if self._target is not None:
            return self._results().distinct(*names)
        seen: list[_V] = []
        for v in self._plain_values():
            if not any(_same(v, s) for s in seen):
                seen.append(v)
        return seen

    def _plain_values(self) -> list[_V]:
        return self._values()

    def _aggregate(self, kind: Aggregate, name: Optional[str]) -> Optional[AggregateValue]:
        if self._target is not None:
            if name is None:
                raise TypeError(f"{self._owner._meta.name}.{self._name} holds objects: name the property to aggregate")
            return self._results()._aggregate(name, kind)
        if name is not None:
            raise TypeError(f"{self._owner._meta.name}.{self._name} holds values: aggregate them with no property name")
        out = db_value_t()
        found = ctypes.c_bool()
        getattr(lib, f"db_{self._kind}_aggregate")(self._h(), kind, _byref(out), _byref(found))
        if not found.value:
            return None
        return cast(Optional[AggregateValue], decode_values(bytes(out), 1)[0])

    def min(self, name: Optional[str] = None) -> Optional[AggregateValue]:
        """The smallest value (nulls skipped), or None when there is none."""
        return self._aggregate(Aggregate.MIN, name)

    def max(self, name: Optional[str] = None) -> Optional[AggregateValue]:
        """The largest value (nulls skipped), or None when there is none."""
        return self._aggregate(Aggregate.MAX, name)

    def sum(self, name: Optional[str] = None) -> Optional[AggregateValue]:
        """The sum (nulls skipped); 0 when empty."""
        return self._aggregate(Aggregate.SUM, name)

    def average(self, name: Optional[str] = None) -> Optional[AggregateValue]:
        """The average (nulls skipped), or None when there is nothing to average."""
        return self._aggregate(Aggregate.AVERAGE, name)

    def __repr__(self) -> str:
        owner = f"{self._owner._meta.name}.{self._name}"
        try:
            return f"<realmdb.{type(self).__name__} {owner}: {self._values()!r}>"
        except Exception:
            return f"<realmdb.{type(self).__name__} {owner} (invalid)>"

    def __reduce__(self) -> Tuple[object, ...]:
        raise TypeError(f"{type(self).__name__} cannot be pickled; copy it with list(), set() or dict()")


def _sort_key(v: object) -> Tuple[int, Any]:  # Any: values of one type compare among themselves
    """Nulls first, then numbers, then values of each other type, each by value."""
    if v is None:
        return (0, 0)
    if isinstance(v, bool):
        return (1, v)
    if isinstance(v, (int, float, decimal.Decimal)):
        return (2, v)
    if isinstance(v, str):
        return (3, v)
    if isinstance(v, bytes):
        return (4, v)
    if isinstance(v, _dt.datetime):
        return (5, v)
    return (6, repr(v))


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


class List(_Collection[_V], IndexedSequence[_V], MutableSequence[_V]):
    """A list property: ordered, duplicates allowed. Also ``move(from_index, to_index)`` and
    ``swap(i, j)``. Negative indexes count from the end; out of range raises IndexError."""

    _kind = "list"

    def _index(self, index: int, size: Optional[int] = None) -> int:
        return position(index, len(self) if size is None else size, "list")

    def _slice(self, index: slice) -> list[_V]:
        return self._values()[index]

    def _item(self, index: int) -> _V:
        out = db_value_t()
        lib.db_list_get(self._h(), self._index(index), _byref(out))
        return self._out(decode_values(bytes(out), 1)[0])

    @overload
    def __setitem__(self, index: int, value: object) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[object]) -> None: ...

    def __setitem__(self, index: Union[int, slice], value: object) -> None:
        if isinstance(index, slice):
            values: list[object] = list(self._values())
            values[index] = element_list(value, self._what())
            with self._realm._atomic():
                self._assign(values)
            return
        self._put(self._index(index), value, replace=True)

    def _put(self, i: int, value: object, replace: bool) -> None:
        """Sets (``replace``) or inserts ``value`` at position ``i``. A dict is an object to create:
        the old element goes, or the new one goes in, only if that object is complete."""
        with self._realm._atomic() if isinstance(value, Mapping) else contextlib.nullcontext():
            if isinstance(value, Mapping) and self._embedded_target():
                if replace:
                    lib.db_list_erase(self._h(), i)
                self._insert_embedded(i, value)
                return
            keep: list[object] = []
            (lib.db_list_set if replace else lib.db_list_insert)(self._h(), i, _byref(self._pack(value, keep)))

    def __delitem__(self, index: Union[int, slice]) -> None:
        if isinstance(index, slice):
            values = self._values()
            del values[index]
            self._assign(values)
            return
        lib.db_list_erase(self._h(), self._index(index))

    def __iter__(self) -> Iterator[_V]:
        return iter(self._values())

    def __contains__(self, value: object) -> bool:
        try:
            self._find(value)
            return True
        except ValueError:
            return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, List):
            return self._values() == other._values()
        if isinstance(other, (list, tuple)):
            return self._values() == list(other)
        return NotImplemented

    def _find(self, value: object) -> int:
        if not isinstance(value, (RealmObject, Link)) and self._target is not None:
            raise ValueError(f"{value!r} is not in the list")
        keep: list[object] = []
        index, found = ctypes.c_size_t(), ctypes.c_bool()
        try:
            lib.db_list_find(self._h(), _byref(self._pack(value, keep)), _byref(index), _byref(found))
        except (WrongTypeError, InvalidatedError):
            found.value = False
        if not found.value:
            raise ValueError(f"{value!r} is not in the list")
        return int(index.value)

    def index(self, value: object, start: int = 0, stop: Optional[int] = None) -> int:
        """The position of the first element equal to ``value``; ValueError when absent."""
        if start == 0 and stop is None:
            return self._find(value)
        return super().index(value, start, stop if stop is not None else len(self))

    def insert(self, index: int, value: object) -> None:
        """Insert before ``index`` (clamped to the ends, as ``list.insert``)."""
        n = len(self)
        index = as_index(index, "list")
        self._put(max(0, min(n, index + n if index < 0 else index)), value, replace=False)

    def append(self, value: object) -> None:
        self.insert(len(self), value)

    def extend(self, values: Iterable[object]) -> None:
        items = element_list(values, self._what())
        if self._embedded_target() or any(isinstance(v, Mapping) for v in items):
            with self._realm._atomic():  # all the elements or none
                for v in items:
                    self.append(v)
            return
        self._assign(list(self._values()) + items)

    def _insert_embedded(self, index: int, value: Mapping[str, object]) -> None:
        child = self._realm._wrap(lib.db_list_insert_embedded(self._h(), index), self._target_meta())
        self._realm._fill(child, value)

    def _assign(self, values: object) -> None:
        values = element_list(values, self._what())
        if self._embedded_target():
            self.clear()
            for v in values:
                self.append(v)
            return
        array, keep, n = self._pack_many(values)
        lib.db_list_assign(self._h(), array, n)
        del keep

    def clear(self) -> None:
        lib.db_list_clear(self._h())

    def move(self, from_index: int, to_index: int) -> None:
        """Move the element at ``from_index`` so that it ends at ``to_index``."""
        n = len(self)
        lib.db_list_move(self._h(), self._index(from_index, n), self._index(to_index, n))

    def swap(self, i: int, j: int) -> None:
        """Swap the elements at two positions."""
        n = len(self)
        lib.db_list_swap(self._h(), self._index(i, n), self._index(j, n))


class Set(_Collection[_V], MutableSet[_V]):
    """A set property: no duplicates, iterated in sorted order. ``update``,
    ``intersection_update``, ``difference_update`` (also spelled ``union``/``intersect``/
    ``subtract`` as in Realm) change it in one call; ``|``, ``&``, ``-`` return Python sets."""

    _kind = "set"

    @classmethod
    def _from_iterable(cls, it: Iterable[_V]) -> set[_V]:  # type: ignore[override]
        return set(it)

    def __iter__(self) -> Iterator[_V]:
        return iter(self._values())

    def __contains__(self, value: object) -> bool:
        keep: list[object] = []
        found = ctypes.c_bool()
        try:
            lib.db_set_contains(self._h(), _byref(self._pack(value, keep)), _byref(found))
        except WrongTypeError:
            return False
        return bool(found.value)

    def add(self, value: object) -> None:
        keep: list[object] = []
        if isinstance(value, Mapping):
            with self._realm._atomic():  # the object made from the dict is kept only if added
                lib.db_set_insert(self._h(), _byref(self._pack(value, keep)), None)
            return
        lib.db_set_insert(self._h(), _byref(self._pack(value, keep)), None)

    def discard(self, value: object) -> None:
        keep: list[object] = []
        lib.db_set_erase(self._h(), _byref(self._pack(value, keep)), None)

    def _bulk(self, op: str, values: object) -> None:
        items = element_list(values, self._what())
        if self._target is not None and any(isinstance(v, Mapping) for v in items):
            with self._realm._atomic():  # objects made from dicts are kept only if the call succeeds
                self._bulk_call(op, items)
            return
        self._bulk_call(op, items)

    def _bulk_call(self, op: str, items: list[object]) -> None:
        array, keep, n = self._pack_many(items)
        getattr(lib, f"db_set_{op}")(self._h(), array, n)
        del keep

    def update(self, *others: Iterable[object]) -> None:
        for other in others:
            self._bulk("union", other)

    def intersection_update(self, *others: Iterable[object]) -> None:
        for other in others:
            self._bulk("intersect", other)

    def difference_update(self, *others: Iterable[object]) -> None:
        for other in others:
            self._bulk("subtract", other)

    union = update
    intersect = intersection_update
    subtract = difference_update

    # The in-place operators take any iterable, where MutableSet's take sets.
    def __ior__(self, other: Iterable[object]) -> Set[_V]:
        self.update(other)
        return self

    def __iand__(self, other: Iterable[object]) -> Set[_V]:  # type: ignore[misc]
        self.intersection_update(other)
        return self

    def __isub__(self, other: Iterable[object]) -> Set[_V]:  # type: ignore[misc]
        self.difference_update(other)
        return self

    def _assign(self, values: object) -> None:
        self._bulk("assign", values)


class Dictionary(_Collection[_V], MutableMapping[str, _V]):
    """A dictionary property: string keys (non-empty, without '.', not starting with '$') to
    values, iterated in key (code point) order."""

    _kind = "dictionary"

    def _entries(self) -> list[Tuple[str, _V]]:
        keys, values = (db_value_t * _BATCH)(), (db_value_t * _BATCH)()
        got = ctypes.c_size_t()
        entries: list[Tuple[str, _V]] = []
        start = 0
        while True:
            lib.db_dictionary_get_entries(self._h(), start, _BATCH, keys, values, _byref(got))
            n = got.value
            ks = decode_values(bytes(keys)[:n * VALUE_SIZE], n)
            vs = decode_values(bytes(values)[:n * VALUE_SIZE], n)
            entries.extend((cast(str, k), self._out(v)) for k, v in zip(ks, vs))
            start += n
            if n < _BATCH:
                return entries

    def _values(self) -> list[_V]:
        return [v for _, v in self._entries()]

    @staticmethod
    def _key(key: object) -> bytes:
        return c_string(key, "dictionary key")

    def __getitem__(self, key: str) -> _V:
        out, found = db_value_t(), ctypes.c_bool()
        lib.db_dictionary_find(self._h(), self._key(key), _byref(out), _byref(found))
        if not found.value:
            raise KeyError(key)
        return self._out(decode_values(bytes(out), 1)[0])

    def __setitem__(self, key: str, value: object) -> None:
        if isinstance(value, Mapping):
            # The old value goes only if the new one (created from the dict) is complete.
            with self._realm._atomic():
                if self._embedded_target():
                    child = self._realm._wrap(lib.db_dictionary_insert_embedded(self._h(), self._key(key)),
                                              self._target_meta())
                    self._realm._fill(child, value)
                    return
                keep: list[object] = []
                lib.db_dictionary_insert(self._h(), self._key(key), _byref(self._pack(value, keep)))
            return
        keep = []
        lib.db_dictionary_insert(self._h(), self._key(key), _byref(self._pack(value, keep)))

    def __delitem__(self, key: str) -> None:
        erased = ctypes.c_bool()
        lib.db_dictionary_erase(self._h(), self._key(key), _byref(erased))
        if not erased.value:
            raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        try:
            c_key = self._key(key)
        except (TypeError, InvalidArgumentError):
            return False  # no such key can be stored
        out, found = db_value_t(), ctypes.c_bool()
        lib.db_dictionary_find(self._h(), c_key, _byref(out), _byref(found))
        return bool(found.value)

    def __iter__(self) -> Iterator[str]:
        return iter([k for k, _ in self._entries()])

    # Lists read in one batch, rather than views (MutableMapping's are views).
    def items(self) -> list[Tuple[str, _V]]:  # type: ignore[override]
        """(key, value) pairs in key order, read in one batch."""
        return self._entries()

    def values(self) -> list[_V]:  # type: ignore[override]
        return self._values()

    def keys(self) -> list[str]:  # type: ignore[override]
        return [k for k, _ in self._entries()]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._entries()) == dict(other.items())
        return NotImplemented

    def _assign(self, values: object) -> None:
        values = check_mapping(values, self._what())
        self.clear()
        for k, v in values.items():
            self[k] = v
