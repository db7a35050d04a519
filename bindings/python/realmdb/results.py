"""Results: the live, lazily evaluated objects of a class that match a query.

Get one with ``realm.objects("Person")``; narrow, order and cut it with
:meth:`Results.filter`, :meth:`Results.sorted`, :meth:`Results.distinct` and
:meth:`Results.limit` (each returns a new Results and leaves the original alone).
A Results is evaluated by the library on first access and re-evaluated whenever
its realm's version or uncommitted writes change, so it always shows what the
realm shows; :meth:`Results.snapshot` freezes the current list of objects.

Bulk reads go through the library's batch calls: :meth:`Results.values` copies a
property of 4096 objects per call (``db_results_get_values``) and decodes whole
columns with strided memoryviews; iteration fetches object keys 1024 at a time
(``db_results_get_keys``). Counts and aggregates never materialize objects.

A Results holds a reference to its realm. When the realm closes, every Results
made from it releases its handle, and any further use raises
:class:`ClosedRealmError` (:class:`InvalidatedError` for a migration's realm).
"""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Iterator, List, Optional, Sequence, Tuple, Union

from . import _ffi
from ._arguments import SIZE_MAX, as_index, c_string, c_uint, check_bool, element_list, position
from ._ffi import VALUE_SIZE, Aggregate, Status, ValueType, db_value_t, lib
from ._schema import ClassMeta
from ._values import Link, decode_at, decode_values, pack_value_into, pack_values, value_array
from .errors import ClosedRealmError, NotFoundError
from .object import RealmObject, check_same_realm

if TYPE_CHECKING:  # pragma: no cover
    from .realm import Realm

__all__ = ["Results"]

#: Values copied per db_results_get_values call.
VALUES_BATCH = 4096
#: Object keys copied per db_results_get_keys call while iterating.
KEYS_BATCH = 1024

_byref = ctypes.byref
_string_at = ctypes.string_at
_get_values = lib.db_results_get_values
_get_keys = lib.db_results_get_keys
_get_by_key = lib.db_object_get_by_key

_LIST_ARGUMENT_TYPES = (list, tuple, set, frozenset)

SortSpec = Union[str, Tuple[str, bool], Sequence[Union[str, Tuple[str, bool]]]]


class Results:
    """Live results: the objects of one class that match a query, sorted, distinct, limited.

    Behaves like a read-only sequence of :class:`RealmObject`: ``len(r)``, ``r[i]``
    (negative indexes count from the end; out of range raises IndexError), ``r[a:b]``
    (a list), iteration, ``obj in r``. Iterating walks a snapshot taken when the loop
    starts, so objects may be changed or deleted inside the loop.
    """

    __slots__ = ("_realm", "_ptr", "_meta", "_snapshot", "_dead", "__weakref__")

    def __init__(self, realm: "Realm", ptr: Any, meta: ClassMeta, snapshot: bool = False) -> None:
        self._realm = realm
        self._ptr: Any = ptr
        self._meta = meta
        self._snapshot = snapshot
        self._dead: Optional[Exception] = None
        realm._track_results(self)

    # -- lifetime ---------------------------------------------------------

    def _h(self) -> Any:
        ptr = self._ptr
        if ptr is None:
            raise self._dead or ClosedRealmError("these results have been released", Status.CLOSED_REALM)
        return ptr

    def _kill(self, error: Exception) -> None:
        """Release the handle now (the realm is closing); later use raises ``error``."""
        ptr = self._ptr
        self._ptr = None
        self._dead = error
        if ptr is not None:
            lib.db_results_release(ptr)

    def __del__(self) -> None:
        try:
            ptr = self._ptr
            if ptr is not None and not _ffi.state.shutting_down:
                self._ptr = None
                lib.db_results_release(ptr)
        except Exception:  # pragma: no cover - interpreter teardown
            pass

    def _derive(self, ptr: Any, snapshot: bool = False) -> "Results":
        return Results(self._realm, ptr, self._meta, snapshot or self._snapshot)

    # -- properties -------------------------------------------------------

    @property
    def realm(self) -> "Realm":
        """The realm these results read."""
        return self._realm

    @property
    def class_name(self) -> str:
        """The name of the class of the objects."""
        return self._meta.name

    @property
    def is_snapshot(self) -> bool:
        """True for a snapshot (or results derived from one): its objects do not change."""
        return self._snapshot

    @property
    def is_valid(self) -> bool:
        """False once the realm is closed."""
        return self._ptr is not None and not self._realm.is_closed

    def _key(self, name: str) -> int:
        if not isinstance(name, str):
            raise TypeError(f"property names are strings, not {type(name).__name__}")
        key = self._meta.key_of.get(name)
        if key is None:
            raise NotFoundError(f"{self._meta.name} has no property {name!r}", Status.NOT_FOUND)
        return key

    # -- deriving ---------------------------------------------------------

    def filter(self, query: str, *args: Any) -> "Results":
        """Narrow the results with a Realm Query Language string.

        ``args`` are the values of ``$0``, ``$1``, ...; a list, tuple or set is a list
        argument (for ``IN $n``). The query may end with ``SORT(...)``,
        ``DISTINCT(...)`` and ``LIMIT(n)``.

        Raises:
            QueryError: a syntax or type error; ``.offset`` is the byte offset (in the
                UTF-8 query) of the offending token.
        """
        c_query = c_string(query, "the query")
        n = len(args)
        arr = (_ffi.db_query_arg_t * max(n, 1))()
        keep: List[Any] = []
        for i, arg in enumerate(args):
            is_list = isinstance(arg, _LIST_ARGUMENT_TYPES) and not isinstance(arg, Link)  # a Link is a tuple
            items = list(arg) if is_list else [arg]
            buf = bytearray(max(len(items), 1) * VALUE_SIZE)
            keep.append(buf)
            for j, item in enumerate(items):
                check_same_realm(self._realm, item)
                pack_value_into(buf, j * VALUE_SIZE, item, keep)
            values = value_array(buf, len(items))
            keep.append(values)
            arr[i].num_values = len(items)
            arr[i].is_list = is_list
            arr[i].values = ctypes.cast(values, _ffi.ValueP) if values is not None else None
        ptr = lib.db_results_filter(self._h(), c_query, arr if n else None, n)
        del keep
        return self._derive(ptr)

    def sorted(self, key: SortSpec, ascending: bool = True) -> "Results":
        """Sort (stably) by one property, or by several given as a list.

        ``sorted("age")``, ``sorted("age", ascending=False)``,
        ``sorted([("age", True), ("name", False)])`` (a bare name in the list uses
        ``ascending``). A key path through to-one links sorts by the linked object's property:
        ``sorted("owner.name")`` (objects whose link is null sort as null). Strings order by
        Unicode code point; nulls come first.
        """
        check_bool(ascending, "ascending")
        if isinstance(key, str):
            specs: List[Tuple[str, bool]] = [(key, ascending)]
        elif isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str) and isinstance(key[1], bool):
            specs = [(key[0], key[1])]
        elif isinstance(key, (list, tuple)):
            specs = []
            for item in key:
                if isinstance(item, str):
                    specs.append((item, ascending))
                elif isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
                    specs.append((item[0], check_bool(item[1], f"the sort order of {item[0]!r}")))
                else:
                    raise TypeError(f"a sort key is a property name or a (name, ascending) pair, not {item!r}")
        else:
            raise TypeError(f"sorted() takes a property name or a list of (name, ascending) pairs, not {key!r}")
        if not specs:
            raise ValueError("sorted() needs at least one property")
        if any("." in name for name, _ in specs):
            # Key paths through to-one links: resolved by the engine.
            paths = (_ffi.db_sort_path_t * len(specs))()
            for i, (name, asc) in enumerate(specs):
                paths[i].key_path = c_string(name, "key path")
                paths[i].ascending = asc
            return self._derive(lib.db_results_sort_by_key_paths(self._h(), paths, len(specs)))
        arr = (_ffi.db_sort_key_t * len(specs))()
        for i, (name, asc) in enumerate(specs):
            arr[i].property_key = self._key(name)
            arr[i].ascending = asc
        return self._derive(lib.db_results_sort(self._h(), arr, len(specs)))

    def distinct(self, *names: str) -> "Results":
        """Keep the first object of each distinct combination of the named properties
        (key paths through to-one links too: ``distinct("owner.name")``)."""
        if len(names) == 1 and isinstance(names[0], (list, tuple)):
            names = tuple(names[0])
        if not names:
            raise ValueError("distinct() needs at least one property")
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"distinct() takes property names (strings), not {type(name).__name__}")
        if any("." in name for name in names):
            paths = (ctypes.c_char_p * len(names))(*(c_string(name, "key path") for name in names))
            return self._derive(lib.db_results_distinct_by_key_paths(self._h(), paths, len(names)))
        keys = (_ffi.db_property_key_t * len(names))(*(self._key(n) for n in names))
        return self._derive(lib.db_results_distinct(self._h(), keys, len(names)))

    def limit(self, count: int) -> "Results":
        """Keep at most ``count`` objects (after the sorts and distincts so far)."""
        return self._derive(lib.db_results_limit(self._h(), c_uint(count, "the limit", SIZE_MAX)))

    def sectioned(self, key: Any, ascending: bool = True, sort: Optional[Sequence[Any]] = None) -> Any:
        """Group these results into sections (a :class:`~realmdb.sectioned.SectionedResults`).

        ``key`` is a key path (``"age"``, ``"owner.name"``): the results are sorted by it
        (``ascending``) and each of its values makes a section; with ``sort`` (names or
        ``(name, ascending)`` pairs) they are sorted by that instead. Or ``key`` is a function of
        an object (``lambda p: p.name[0]``) called as the sections are evaluated; the results
        keep their order unless ``sort`` is given, whose first key should decide the section.
        """
        from .sectioned import sectioned
        return sectioned(self, key, ascending, sort)

    def freeze(self) -> "Results":
        """These results at the version their realm reads now: immutable, usable from any
        thread, pinning that version until released (see :meth:`Realm.freeze`)."""
        if self.is_frozen:
            return self
        frozen_realm = self._realm.freeze()
        return Results(frozen_realm, lib.db_results_freeze(self._h()), self._meta)

    def thaw(self) -> "Results":
        """The live results in the realm these were frozen from."""
        if not self.is_frozen:
            return self
        return Results(self._realm.thaw(), lib.db_results_thaw(self._h()), self._meta)

    @property
    def is_frozen(self) -> bool:
        return bool(lib.db_results_is_frozen(self._h()))

    def observe(self, callback: Any, key_paths: Optional[Sequence[str]] = None) -> Any:
        """Call ``callback(results, changes)`` when these results change; returns a
        :class:`~realmdb.notifications.NotificationToken`.

        The first call is the initial one (``changes.initial``); later calls report
        ``deletions``, ``insertions``, ``modifications``/``modifications_new`` and ``moves``
        for all commits since the previous call. Calls happen on this thread during
        ``realm.refresh()``, after this realm's commits and in ``realm.deliver_notifications()``.
        ``key_paths`` (``["name", "dogs.age"]``) limits what counts as a modification; by
        default every property does, and the properties of linked objects four links deep.

        Raises:
            WrongTransactionState: inside a write transaction.
            InvalidArgumentError: an unknown key path, or a snapshot.
        """
        from .notifications import observe_collection
        return observe_collection(self._realm, "results", self._h(), self, callback, key_paths)

    def snapshot(self) -> "Results":
        """A frozen list of the current objects: later writes do not change which objects it holds
        (objects deleted later stay in it, invalid; iteration skips them)."""
        return self._derive(lib.db_results_snapshot(self._h()), snapshot=True)

    # -- sequence ---------------------------------------------------------

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        lib.db_results_count(self._h(), _byref(out))
        return int(out.value)

    def count(self) -> int:
        """The number of objects (same as ``len()``)."""
        return len(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _wrap(self, ptr: Any) -> RealmObject:
        return self._realm._wrap(ptr, self._meta)

    def _get(self, index: int) -> RealmObject:
        return self._wrap(lib.db_results_get(self._h(), index))

    def __getitem__(self, index: Union[int, slice]) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            positions = range(start, stop, step)
            if not positions:
                return []
            lo, hi = min(positions), max(positions)
            keys = self._keys(lo, hi - lo + 1)
            return [self._object_for_key(keys[p - lo]) for p in positions]
        i = as_index(index, "Results")  # also numpy integers and the like
        if i < 0 or i > SIZE_MAX:  # else the library checks the upper bound
            i = position(i, len(self), "Results")
        return self._get(i)

    def _keys(self, start: int, count: int) -> List[int]:
        """Object keys at positions start .. start+count-1 (fewer at the end)."""
        out = (_ffi.db_object_key_t * max(count, 1))()
        got = ctypes.c_size_t()
        _get_keys(self._h(), start, count, out, _byref(got))
        return memoryview(out).cast("B").cast("q")[: got.value].tolist()

    def _object_for_key(self, key: int) -> RealmObject:
        return self._wrap(_get_by_key(self._realm._h(), self._meta.key, key))

    def __iter__(self) -> Iterator[RealmObject]:
        # Walk a snapshot, so that the loop body may modify or delete objects.
        snap = self if self._snapshot else self.snapshot()
        realm_h = self._realm._h()
        class_key = self._meta.key
        wrap = self._realm._wrap
        meta = self._meta
        out = (_ffi.db_object_key_t * KEYS_BATCH)()
        words = memoryview(out).cast("B").cast("q")
        got = ctypes.c_size_t()
        start = 0
        while True:
            _get_keys(snap._h(), start, KEYS_BATCH, out, _byref(got))
            n = got.value
            if n == 0:
                return
            for key in words[:n].tolist():
                try:
                    ptr = _get_by_key(realm_h, class_key, key)
                except NotFoundError:
                    continue  # deleted since the snapshot was taken
                yield wrap(ptr, meta)
            start += n
            if n < KEYS_BATCH:
                return

    def __contains__(self, obj: object) -> bool:
        return self._index_of(obj) is not None

    def _index_of(self, obj: object) -> Optional[int]:
        if not isinstance(obj, RealmObject):
            return None
        index = ctypes.c_size_t()
        found = ctypes.c_bool()
        lib.db_results_index_of(self._h(), obj._handle(), _byref(index), _byref(found))
        return int(index.value) if found.value else None

    def index(self, obj: object) -> int:
        """The position of ``obj``; ValueError when it is not in the results (like list.index)."""
        i = self._index_of(obj)
        if i is None:
            raise ValueError(f"{obj!r} is not in the results")
        return i

    def first(self) -> Optional[RealmObject]:
        """The first object, or None when the results are empty."""
        if len(self) == 0:
            return None
        return self._get(0)

    def last(self) -> Optional[RealmObject]:
        """The last object, or None when the results are empty."""
        n = len(self)
        if n == 0:
            return None
        return self._get(n - 1)

    # -- aggregates -------------------------------------------------------

    def _aggregate(self, name: str, kind: Aggregate) -> Any:
        key = self._key(name)
        out = db_value_t()
        found = ctypes.c_bool()
        lib.db_results_aggregate(self._h(), key, kind, _byref(out), _byref(found))
        if not found.value:
            return None
        return decode_at(bytes(out))

    def min(self, name: str) -> Any:
        """The smallest value of a property (nulls and NaN skipped), or None when there is none."""
        return self._aggregate(name, Aggregate.MIN)

    def max(self, name: str) -> Any:
        """The largest value of a property (nulls and NaN skipped), or None when there is none."""
        return self._aggregate(name, Aggregate.MAX)

    def sum(self, name: str) -> Any:
        """The sum of a numeric property (nulls skipped); 0 for no values."""
        return self._aggregate(name, Aggregate.SUM)

    def average(self, name: str) -> Optional[float]:
        """The average of a numeric property (nulls skipped), or None for no values."""
        return self._aggregate(name, Aggregate.AVERAGE)

    # -- batch read and writes -------------------------------------------

    def values(self, name: str) -> List[Any]:
        """The property's value for every object, in results order (batch read)."""
        key = self._key(name)
        h = self._h()
        buf = bytearray(VALUE_SIZE * VALUES_BATCH)
        arr = value_array(buf, VALUES_BATCH)
        got = ctypes.c_size_t()
        got_ref = _byref(got)
        result: List[Any] = []
        start = 0
        while True:
            _get_values(h, key, start, VALUES_BATCH, arr, got_ref)
            n = got.value
            if n:
                result.extend(_decode_batch(buf, n))
            start += n
            if n < VALUES_BATCH:
                return result

    def set_value(self, name: str, value: Any) -> None:
        """Set a property on every object (inside a write transaction)."""
        key = self._key(name)
        buf = bytearray(VALUE_SIZE)
        keep: List[Any] = []
        pack_value_into(buf, 0, value, keep)
        lib.db_results_set_value(self._h(), key, _byref(db_value_t.from_buffer(buf)))

    def set_values(self, name: str, values: Sequence[Any], start: int = 0) -> None:
        """Set a property of the objects at positions ``start, start + 1, ...`` to one value each
        (inside a write transaction), in batches: the counterpart of :meth:`values`::

            scores = people.values("score")
            people.set_values("score", [s + 1.0 for s in scores])

        Positions are those of the results when the call starts (one C call). Raises IndexError
        when the values run past the end; every value is checked before any is written.
        """
        key = self._key(name)
        h = self._h()
        start = as_index(start, "start")
        if not 0 <= start <= SIZE_MAX:
            raise IndexError(f"start {start} is out of range (the results have {len(self)} objects)")
        values = element_list(values, "set_values()")
        array, keep = pack_values(values)
        lib.db_results_set_values(h, key, start, array, len(values))
        del keep

    def delete_all(self) -> int:
        """Delete every object (inside a write transaction); returns how many were deleted."""
        out = ctypes.c_size_t()
        lib.db_results_delete_all(self._h(), _byref(out))
        return int(out.value)

    # -- misc -------------------------------------------------------------

    def __repr__(self) -> str:
        name = self._meta.name + (" snapshot" if self._snapshot else "")
        if self._ptr is None or self._realm.is_closed:
            return f"<realmdb.Results {name}: realm closed>"
        try:
            n = len(self)
        except Exception:
            return f"<realmdb.Results {name}: invalid>"
        return f"<realmdb.Results {name}: {n} object{'' if n == 1 else 's'}>"

    def __reduce__(self) -> Any:
        raise TypeError("Results cannot be pickled; use values() or a list of to_dict()")


# --------------------------------------------------------------------------
# Decoding a batch of db_value_t, one column at a time
# --------------------------------------------------------------------------


def _decode_batch(buf: bytearray, n: int) -> List[Any]:
    """Decode ``n`` values of one property from ``buf`` (copies borrowed strings at once).

    Columns whose values all have one common type (or that type and null) are
    read with strided memoryviews; anything else goes through decode_values.
    """
    mv = memoryview(buf)
    words = mv.cast("Q")
    tags = mv.cast("I")[0:6 * n:6].tolist()
    tag = tags[0]
    uniform = tags.count(tag) == n
    if not uniform:
        kinds = set(tags)
        kinds.discard(ValueType.NULL)
        if len(kinds) != 1:
            return decode_values(buf, n)
        tag = kinds.pop()
    if tag == ValueType.INT:
        col = mv.cast("q")[1:3 * n:3].tolist()
    elif tag == ValueType.DOUBLE:
        col = mv.cast("d")[1:3 * n:3].tolist()
    elif tag == ValueType.FLOAT:
        col = mv.cast("f")[2:6 * n:6].tolist()
    elif tag == ValueType.BOOL:
        col = [b != 0 for b in mv[8:VALUE_SIZE * n:VALUE_SIZE].tolist()]
    elif tag == ValueType.STRING:
        ptrs = words[1:3 * n:3].tolist()
        sizes = words[2:3 * n:3].tolist()
        string_at = _string_at
        if uniform:
            return [string_at(p, s).decode("utf-8") if s else "" for p, s in zip(ptrs, sizes)]
        return [None if t == ValueType.NULL else (string_at(p, s).decode("utf-8") if s else "")
                for t, p, s in zip(tags, ptrs, sizes)]
    elif tag == ValueType.NULL:
        return [None] * n
    else:
        return decode_values(buf, n)
    if uniform:
        return col
    null = ValueType.NULL
    return [None if t == null else v for t, v in zip(tags, col)]
