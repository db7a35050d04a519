"""Live change notifications: ``observe`` on Results, lists, sets, dictionaries and objects.

Callbacks run on the thread that registered them, inside :meth:`Realm.refresh`, after that
thread's own commits, and in :meth:`Realm.deliver_notifications`. The first call of a collection
callback is the initial one (``changes.initial`` is true); object callbacks have no initial call.
An exception raised by a callback is re-raised by the call that delivered it (``refresh``,
``commit``, ``deliver_notifications``) once every callback has run.

    token = people.observe(lambda results, changes: print(changes.insertions))
    ...
    token.invalidate()    # after this returns the callback is not running and will not run
"""
from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar

from . import _ffi
from ._arguments import c_string
from ._c_types import (NO_FREE, CFunction, CollectionChangeFunc, CollectionChangeHandle, ObjectChangeFunc,
                       ObjectChangeHandle, ObjectHandle, TokenHandle, db_collection_change_counts_t, db_index_move_t,
                       db_property_key_t, db_value_t)
from ._ffi import lib
from ._values import decode_at

if TYPE_CHECKING:  # annotations only: the realm module is above this one
    from .object import RealmValue
    from .realm import Realm

__all__ = ["CollectionChanges", "ObjectChange", "NotificationToken"]


class ChangeRecord:
    """Base of the change records (:class:`CollectionChanges`, :class:`ObjectChange`,
    :class:`SectionedChanges`): dataclasses whose ``__slots__`` list their fields in order, the
    first a flag (``initial``, ``deleted``) that, when set, is all their repr shows."""

    __slots__: Tuple[str, ...] = ()

    def __repr__(self) -> str:
        flag, *fields = self.__slots__
        if getattr(self, flag):
            return f"{type(self).__name__}({flag})"
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)}' for name in fields)})"


@dataclass(eq=False, repr=False)
class CollectionChanges(ChangeRecord):
    """What changed in a collection since the previous call.

    ``deletions`` are indices in the previous collection, ``insertions`` indices in the new one:
    deleting the first, then inserting the second, turns the previous collection into the new
    one. ``modifications`` (previous indices) and ``modifications_new`` (new indices) are pairs
    for the elements in both whose observed properties changed. ``moves`` lists ``(from, to)``
    for elements that changed position; each is also a deletion and an insertion.
    """

    __slots__ = ("initial", "deletions", "insertions", "modifications", "modifications_new", "moves")
    initial: bool
    deletions: List[int]
    insertions: List[int]
    modifications: List[int]
    modifications_new: List[int]
    moves: List[Tuple[int, int]]


@dataclass(eq=False, repr=False)
class ObjectChange(ChangeRecord):
    """What happened to an object: ``deleted``, or the names of the written ``properties`` with
    their values at the previous call (``old_values``) and now (``new_values``). Lists, sets,
    dictionaries and linking objects appear in ``properties`` with None values."""

    __slots__ = ("deleted", "properties", "old_values", "new_values")
    deleted: bool
    properties: List[str]
    old_values: Dict[str, RealmValue]
    new_values: Dict[str, RealmValue]


class NotificationToken(_ffi.HandleOwner):
    """A registered callback. :meth:`invalidate` (or closing the realm) stops it."""

    def __init__(self, realm: Realm, handle: TokenHandle, callback: CFunction) -> None:
        self._realm = realm
        self._handle: Optional[TokenHandle] = handle
        self._callback = callback  # the CFUNCTYPE object: must outlive the registration
        self._lock = threading.Lock()
        realm._tokens.add(self)

    @property
    def is_invalidated(self) -> bool:
        return self._handle is None

    def invalidate(self) -> None:
        """Stop the callback (idempotent). When this returns, the callback is not running (a call
        in progress on another thread is waited for) and will not run again; a callback may
        invalidate its own token."""
        with self._lock:
            handle, self._handle = self._handle, None
        if handle is not None:
            lib.db_notification_token_release(handle)
            self._realm._tokens.discard(self)

    def __enter__(self) -> NotificationToken:
        return self

    def __exit__(self, *exc: object) -> None:
        self.invalidate()

    def _finalize(self) -> None:
        if self._handle is not None:
            self.invalidate()


_Change = TypeVar("_Change")


def register(realm: Realm, func_type: Callable[[Callable[[Optional[int], _Change], None]], CFunction],
             deliver: Callable[[_Change], None], observe: Callable[[CFunction], TokenHandle]) -> NotificationToken:
    """Registers a C callback of ``func_type`` that calls ``deliver(change)``; ``observe`` takes
    the C callback and returns the token handle. Exceptions never unwind into C: they are kept
    and re-raised by the call that delivered them."""
    def on_change(userdata: Optional[int], change: _Change) -> None:
        try:
            deliver(change)
        except BaseException as exc:
            realm._callback_errors.append(exc)

    c_callback = func_type(on_change)
    return NotificationToken(realm, observe(c_callback), c_callback)


def key_path_array(key_paths: Optional[Sequence[str]]) -> Tuple[Optional[ctypes.Array[ctypes.c_char_p]], int]:
    """The ``const char *const *`` and count for ``key_paths`` (None: every property)."""
    if key_paths is None:
        return None, 0
    if isinstance(key_paths, (str, bytes)):
        raise TypeError("key_paths is a list of key paths, such as ['name', 'dogs.age'], not a string")
    paths = [c_string(p, "key path") for p in key_paths]
    return (ctypes.c_char_p * max(len(paths), 1))(*paths), len(paths)


_Record = TypeVar("_Record", bound=ChangeRecord)

#: One index list of a change: the field of the counts struct that gives its length, the C type of
#: its elements, and what makes an element a Python value (None: an int already is one).
ChangeList = Tuple[str, Any, Optional[Callable[[Any], object]]]


def read_change(record: Callable[..., _Record], counts: ctypes.Structure, get_counts: Callable[..., object],
                get_indices: Callable[..., object], change: object, lists: Sequence[ChangeList]) -> _Record:
    """Reads a collection or sectioned change into ``record(initial, *lists)``: ``get_counts``
    fills ``counts`` (``is_initial`` and the lengths), then ``get_indices`` fills one array per
    entry of ``lists``, in order (an initial change has empty lists)."""
    get_counts(change, ctypes.byref(counts))
    if counts.is_initial:
        return record(True, *([] for _ in lists))
    sizes = [int(getattr(counts, field)) for field, _, _ in lists]
    arrays = [(ctype * max(n, 1))() for n, (_, ctype, _) in zip(sizes, lists)]
    get_indices(change, *arrays)
    return record(False, *(list(array[:n]) if convert is None else [convert(e) for e in array[:n]]
                           for array, n, (_, _, convert) in zip(arrays, sizes, lists)))


#: deletions, insertions, modifications and modifications_new (both num_modifications long), moves.
_COLLECTION_LISTS: Sequence[ChangeList] = (
    ("num_deletions", ctypes.c_size_t, None), ("num_insertions", ctypes.c_size_t, None),
    ("num_modifications", ctypes.c_size_t, None), ("num_modifications", ctypes.c_size_t, None),
    ("num_moves", db_index_move_t, lambda m: (int(m.from_), int(m.to))),
)


def _read_collection_change(change: CollectionChangeHandle) -> CollectionChanges:
    return read_change(CollectionChanges, db_collection_change_counts_t(), lib.db_collection_change_get_counts,
                       lib.db_collection_change_get_indices, change, _COLLECTION_LISTS)


_Owner = TypeVar("_Owner")


def observe_collection(realm: Realm, kind: str, handle: object, owner: _Owner,
                       callback: Callable[[_Owner, CollectionChanges], None],
                       key_paths: Optional[Sequence[str]]) -> NotificationToken:
    """Registers ``callback(owner, changes)`` on a results/list/set/dictionary handle (``kind``
    names the C function: ``db_<kind>_observe``)."""
    if not callable(callback):
        raise TypeError("callback must be callable as callback(collection, changes)")
    paths, n = key_path_array(key_paths)
    observe = getattr(lib, f"db_{kind}_observe")

    def deliver(change: CollectionChangeHandle) -> None:
        callback(owner, _read_collection_change(change))

    # The registration keeps the collection alive, as Realm's tokens do.
    return register(realm, CollectionChangeFunc, deliver,
                    lambda c_callback: observe(handle, paths, n, c_callback, None, NO_FREE))


def observe_object(realm: Realm, handle: Callable[[], ObjectHandle], key_of: Mapping[str, int],
                   callback: Callable[[ObjectChange], None], key_paths: Optional[Sequence[str]]) -> NotificationToken:
    """Registers ``callback(change)`` on the object whose handle ``handle()`` gives (read once the
    arguments are checked); ``key_of`` maps its property names to their keys."""
    if not callable(callback):
        raise TypeError("callback must be callable as callback(change)")
    names_by_key = {key: name for name, key in key_of.items()}

    def deliver(change: ObjectChangeHandle) -> None:
        deleted = ctypes.c_bool()
        lib.db_object_change_is_deleted(change, ctypes.byref(deleted))
        count = ctypes.c_size_t()
        lib.db_object_change_get_num_properties(change, ctypes.byref(count))
        names: List[str] = []
        old: Dict[str, RealmValue] = {}
        new: Dict[str, RealmValue] = {}
        key = db_property_key_t()
        before, after = db_value_t(), db_value_t()
        for i in range(count.value):
            lib.db_object_change_get_property(change, i, ctypes.byref(key), ctypes.byref(before), ctypes.byref(after))
            name = names_by_key.get(key.value, str(key.value))
            names.append(name)
            old[name] = realm._from_value(decode_at(bytes(before)))
            new[name] = realm._from_value(decode_at(bytes(after)))
        callback(ObjectChange(bool(deleted.value), names, old, new))

    paths, n = key_path_array(key_paths)
    return register(realm, ObjectChangeFunc, deliver,
                    lambda c_callback: lib.db_object_observe(handle(), paths, n, c_callback, None, NO_FREE))
