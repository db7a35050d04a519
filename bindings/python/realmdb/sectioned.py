"""Sectioned results: ``results.sectioned("name")`` or ``results.sectioned(lambda o: o.name[0])``.

Sections appear in the order of their first object in the sorted results, and each holds its
objects in results order. With a key path the results are sorted by it; with a key function
they keep their own order unless ``sort`` is given (the primary sort should decide the key:
``people.sorted("name").sectioned(lambda p: p.name[0])``)::

    sections = people.sectioned(lambda p: p.name[0], sort=["name"])
    for section in sections:
        print(section.key, [p.name for p in section])
    token = sections.observe(lambda sections, changes: print(changes.insertions))
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _ffi
from ._arguments import c_string, check_bool, position
from ._c_types import (NO_FREE, VALUE_SIZE, ObjectHandle, ResultsHandle, SectionedChangeFunc, SectionedChangeHandle,
                       SectionedHandle, SectionKeyFunc, ValuePointer, db_index_path_t, db_sectioned_change_counts_t,
                       db_sort_path_t, db_value_t)
from ._ffi import lib
from ._schema import ClassMeta
from ._values import decode_at, pack_value_into
from .errors import CallbackError
from .notifications import ChangeList, ChangeRecord, NotificationToken, key_path_array, read_change, register
from .object import RealmObject, RealmValue

if TYPE_CHECKING:  # annotations only: the realm module is above this one
    from .realm import Realm

__all__ = ["SectionedResults", "Section", "SectionedChanges", "SortKey", "SectionKey"]

#: A sort key: a key path (ascending), or a (key path, ascending) pair.
SortKey = Union[str, Tuple[str, bool]]
#: What sections results: a key path, or a function giving an object's section key.
SectionKey = Union[str, Callable[[RealmObject], RealmValue]]


@dataclass(eq=False, repr=False)
class SectionedChanges(ChangeRecord):
    """What changed in sectioned results since the previous call.

    To turn the previous sections into the new ones: remove ``deletions`` (previous
    ``(section, item)`` paths), then ``sections_deleted`` (previous indices, with their
    objects), insert ``sections_inserted`` (new indices, with their objects), then
    ``insertions`` (new paths). ``modifications`` are the new paths of objects in both whose
    properties changed.
    """

    __slots__ = ("initial", "sections_inserted", "sections_deleted", "insertions", "deletions", "modifications")
    initial: bool
    sections_inserted: List[int]
    sections_deleted: List[int]
    insertions: List[Tuple[int, int]]
    deletions: List[Tuple[int, int]]
    modifications: List[Tuple[int, int]]


def _path(p: db_index_path_t) -> Tuple[int, int]:
    return (int(p.section), int(p.item))


#: sections_inserted, sections_deleted, then the (section, item) paths: insertions, deletions, modifications.
_SECTIONED_LISTS: Sequence[ChangeList] = (
    ("num_sections_inserted", ctypes.c_size_t, None), ("num_sections_deleted", ctypes.c_size_t, None),
    ("num_insertions", db_index_path_t, _path), ("num_deletions", db_index_path_t, _path),
    ("num_modifications", db_index_path_t, _path),
)


def _read_change(change: SectionedChangeHandle) -> SectionedChanges:
    return read_change(SectionedChanges, db_sectioned_change_counts_t(), lib.db_sectioned_change_get_counts,
                       lib.db_sectioned_change_get_indices, change, _SECTIONED_LISTS)


def _call(realm: Realm, function: Callable[..., object], *args: object) -> None:
    """Calls the library; an error raised by the key function is re-raised as itself."""
    try:
        function(*args)
    except CallbackError:
        if realm._callback_errors:
            errors, realm._callback_errors[:] = list(realm._callback_errors), []
            raise errors[0] from None
        raise


class Section:
    """One section: its ``key``, ``len(section)``, ``section[i]`` and iteration over its objects."""

    __slots__ = ("_sections", "_index")

    def __init__(self, sections: SectionedResults, index: int) -> None:
        self._sections = sections
        self._index = index

    @property
    def key(self) -> RealmValue:
        out = db_value_t()
        _call(self._sections._realm, lib.db_sectioned_results_get_key, self._sections._h(), self._index, ctypes.byref(out))
        return self._sections._realm._from_value(decode_at(bytes(out)))

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        _call(self._sections._realm, lib.db_sectioned_results_section_count, self._sections._h(), self._index, ctypes.byref(out))
        return int(out.value)

    def __getitem__(self, index: int) -> RealmObject:
        i = position(index, len(self), "section")
        sections = self._sections
        return sections._realm._wrap(lib.db_sectioned_results_get(sections._h(), self._index, i), sections._meta)

    def __iter__(self) -> Iterator[RealmObject]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"<Section {self.key!r} ({len(self)} objects)>"


class SectionedResults(_ffi.HandleOwner):
    """Live results grouped into sections: ``len(sections)``, ``sections[i]`` (a
    :class:`Section`), iteration, ``observe``, ``freeze``/``thaw``."""

    def __init__(self, realm: Realm, ptr: SectionedHandle, meta: ClassMeta, keepalive: object = None) -> None:
        self._realm = realm
        self._ptr: Optional[SectionedHandle] = ptr
        self._meta = meta
        self._keepalive = keepalive  # the key function's C callback

    def _h(self) -> Optional[SectionedHandle]:
        return self._ptr  # NULL once released: the library reports it

    def _finalize(self) -> None:
        if self._ptr is not None:
            lib.db_sectioned_results_release(self._ptr)
            self._ptr = None

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        _call(self._realm, lib.db_sectioned_results_count, self._h(), ctypes.byref(out))
        return int(out.value)

    def __getitem__(self, index: int) -> Section:
        return Section(self, position(index, len(self), "sectioned results"))

    def __iter__(self) -> Iterator[Section]:
        for i in range(len(self)):
            yield Section(self, i)

    @property
    def realm(self) -> Realm:
        """The realm the sections read (a frozen realm for frozen sections)."""
        return self._realm

    @property
    def is_invalidated(self) -> bool:
        return not lib.db_sectioned_results_is_valid(self._h())

    @property
    def is_frozen(self) -> bool:
        return bool(lib.db_sectioned_results_is_frozen(self._h()))

    def freeze(self) -> SectionedResults:
        """The sections at the version their realm reads now: immutable, usable from any thread."""
        if self.is_frozen:
            return self
        return SectionedResults(self._realm.freeze(), lib.db_sectioned_results_freeze(self._h()), self._meta, self._keepalive)

    def thaw(self) -> SectionedResults:
        """The live sectioned results."""
        if not self.is_frozen:
            return self
        return SectionedResults(self._realm.thaw(), lib.db_sectioned_results_thaw(self._h()), self._meta, self._keepalive)

    def observe(self, callback: Callable[[SectionedResults, SectionedChanges], None],
                key_paths: Optional[Sequence[str]] = None) -> NotificationToken:
        """Call ``callback(sections, changes)`` when the sections change (first the initial
        call); delivered like :meth:`Results.observe`. ``key_paths`` (``["name", "owner.name"]``)
        limits what counts as a modification; ``[]`` counts none (only insertions, deletions and
        section changes)."""
        if not callable(callback):
            raise TypeError("callback must be callable as callback(sections, changes)")
        paths, n = key_path_array(key_paths)

        def deliver(change: SectionedChangeHandle) -> None:
            callback(self, _read_change(change))

        return register(self._realm, SectionedChangeFunc, deliver,
                        lambda c_callback: lib.db_sectioned_results_observe(self._h(), paths, n, c_callback, None, NO_FREE))


def _sort_paths(sort: Optional[Sequence[SortKey]]) -> Tuple[ctypes.Array[db_sort_path_t], int, List[bytes]]:
    if isinstance(sort, (str, bytes)):
        raise TypeError(f"sort is a list of key paths or (key path, ascending) pairs, such as ['name'], not {sort!r}")
    specs: List[Tuple[str, bool]] = []
    for item in sort or ():
        if isinstance(item, str):
            specs.append((item, True))
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            specs.append((item[0], check_bool(item[1], f"the sort order of {item[0]!r}")))
        else:
            raise TypeError(f"a sort key is a key path or a (key path, ascending) pair, not {item!r}")
    arr = (db_sort_path_t * max(len(specs), 1))()
    keep: List[bytes] = []
    for i, (name, ascending) in enumerate(specs):
        encoded = c_string(name, "key path")
        keep.append(encoded)
        arr[i].key_path = encoded
        arr[i].ascending = ascending
    return arr, len(specs), keep


def sectioned(realm: Realm, results: Callable[[], ResultsHandle], meta: ClassMeta, key: SectionKey,
              ascending: bool = True, sort: Optional[Sequence[SortKey]] = None) -> SectionedResults:
    """See :meth:`Results.sectioned`: the sections of the results (of class ``meta``) whose handle
    ``results()`` gives, read once the arguments are checked."""
    check_bool(ascending, "ascending")
    if isinstance(key, str):
        key_path = c_string(key, "key path")
        if sort:
            arr, n, keep = _sort_paths(sort)
            ptr = lib.db_results_sectioned_by_key_path_sorted(results(), key_path, arr, n)
        else:
            ptr = lib.db_results_sectioned_by_key_path(results(), key_path, ascending)
        return SectionedResults(realm, ptr, meta)
    if not callable(key):
        raise TypeError("sectioned() takes a key path or a function of an object")
    last_keep: List[object] = []
    errors = realm._callback_errors

    def key_of(userdata: Optional[int], object_ptr: ObjectHandle, out: ValuePointer) -> bool:
        try:
            obj = RealmObject(realm, object_ptr, meta, owned=False)
            try:
                value = key(obj)
            finally:
                obj._kill()
            buf = bytearray(VALUE_SIZE)
            keep: List[object] = [buf]
            pack_value_into(buf, 0, value, keep)
            ctypes.memmove(out, bytes(buf), VALUE_SIZE)
            last_keep[:] = keep  # string bytes stay alive until the library has copied them
            return True
        except BaseException as exc:  # never unwind into C
            errors.append(exc)
            return False

    c_key = SectionKeyFunc(key_of)
    arr, n, keep = _sort_paths(sort)
    ptr = lib.db_results_sectioned_by_function(results(), arr, n, c_key, None, NO_FREE)
    return SectionedResults(realm, ptr, meta, keepalive=(c_key, last_keep))
