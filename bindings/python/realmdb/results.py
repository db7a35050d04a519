"""Results: the live, lazily evaluated objects of a class that match a query.

Get one with ``realm.objects("Person")``; narrow, order and cut it with
:meth:`Results.filter`, :meth:`Results.sorted`, :meth:`Results.distinct` and
:meth:`Results.limit` (each returns a new Results and leaves the original alone).
A Results is evaluated by the library on first access and re-evaluated whenever
its realm's version or uncommitted writes change, so it always shows what the
realm shows; :meth:`Results.snapshot` freezes the current list of objects.

Bulk reads go through the library's batch calls: :meth:`Results.values` copies a
property of 4096 objects per call (``db_results_get_values_into``, which copies the strings into
one buffer, decoded in one piece) and decodes whole columns with strided memoryviews;
iteration fetches object keys 1024 at a time
(``db_results_get_keys``). Counts and aggregates never materialize objects.

A Results holds a reference to its realm. When the realm closes, every Results
made from it releases its handle, and any further use raises
:class:`ClosedRealmError` (:class:`InvalidatedError` for a migration's realm).
"""
from __future__ import annotations

import ctypes
import datetime as _dt
import decimal
import struct
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union, cast

from . import _ffi
from ._arguments import SIZE_MAX, IndexedSequence, as_index, c_string, c_uint, check_bool, element_list, position
from ._c_types import (VALUE_SIZE, Aggregate, ObjectHandle, ResultsHandle, Status, ValueP, db_object_key_t,
                       db_property_key_t, db_query_arg_t, db_sort_key_t, db_sort_path_t, db_value_t)
from ._ffi import lib
from ._schema import ClassMeta
from ._batches import SCRATCH_VALUES, ColumnText, column_scratch, decode_column
from ._properties import MISSING
from ._row_batch import RowBatch
from ._own_writes import wrote_plain_last
from ._values import Link, StoredValue, decode_at, pack_column_into, pack_value_into, pack_values, value_array
from .errors import ClosedRealmError, InvalidatedError, NotFoundError
from .notifications import CollectionChanges, NotificationToken, observe_collection
from .object import RealmObject, check_same_realm, link_of, object_type
from .sectioned import SectionedResults, SectionKey, SortKey, sectioned

if TYPE_CHECKING:  # annotations only: the realm module is above this one
    from .realm import Realm

__all__ = ["Results", "AggregateValue", "SortSpec"]

#: Values copied per db_results_get_values_into call.
VALUES_BATCH = SCRATCH_VALUES
#: Object keys copied per db_results_get_keys call while iterating.
KEYS_BATCH = 1024
#: Objects (and rows) read by the first batch of an iteration: loops often stop early.
ROWS_FIRST_BATCH = 64
#: Results of at most this many objects are read in one batch: a second round of calls (one per
#: property) cost more than reading the rest of a short result that a loop leaves early.
ROWS_ONE_BATCH = 128

_byref = ctypes.byref
_get_values_into = lib.db_results_get_values_into
_get_keys = lib.db_results_get_keys
_get_by_key = lib.db_object_get_by_key

_LIST_ARGUMENT_TYPES = (list, tuple, set, frozenset)
#: A db_query_arg_t as bytes: num_values, is_list, values (native layout, as the C compiler's).
_QUERY_ARG = struct.Struct("@N?P")
assert _QUERY_ARG.size == ctypes.sizeof(db_query_arg_t)

#: What ``sorted`` takes: a property name, a (name, ascending) pair, or a list of either.
SortSpec = Union[str, Tuple[str, bool], Sequence[SortKey]]
#: What an aggregate gives: a number, a date for min and max, a Decimal for decimal128.
AggregateValue = Union[int, float, decimal.Decimal, _dt.datetime]

_NO_VALUE = object()

#: The type of the objects of a Results: RealmObject, or a model class (see realmdb.model).
_O = TypeVar("_O", bound=RealmObject)


class Results(_ffi.HandleOwner, IndexedSequence[_O], Sequence[_O], Generic[_O]):
    """Live results: the objects of one class that match a query, sorted, distinct, limited.

    A read-only ``collections.abc.Sequence`` of :class:`RealmObject` (``Results[Person]`` for a
    model class ``Person``, see :class:`realmdb.Object`): ``len(r)``, ``r[i]``
    (negative indexes count from the end; out of range raises IndexError), ``r[a:b]``
    (a list), iteration, ``reversed(r)``, ``obj in r``, ``r.index(obj)``, ``r.count(obj)``
    (and ``r.count()``, the number of objects). Iterating walks a snapshot taken when the loop
    starts, so objects may be changed or deleted inside the loop.
    """

    __slots__ = ("_realm", "_ptr", "_meta", "_snapshot", "_dead", "__weakref__")

    def __init__(self, realm: Realm, ptr: ResultsHandle, meta: ClassMeta, snapshot: bool = False) -> None:
        self._realm = realm
        self._ptr: Optional[ResultsHandle] = ptr
        self._meta = meta
        self._snapshot = snapshot
        self._dead: Optional[Exception] = None
        realm._track_results(self)

    # -- lifetime ---------------------------------------------------------

    def _h(self) -> ResultsHandle:
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

    def _finalize(self) -> None:
        ptr = self._ptr
        if ptr is not None:
            self._ptr = None
            lib.db_results_release(ptr)

    def _derive(self, ptr: ResultsHandle, snapshot: bool = False) -> Results[_O]:
        return Results(self._realm, ptr, self._meta, snapshot or self._snapshot)

    # -- properties -------------------------------------------------------

    @property
    def realm(self) -> Realm:
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

    def filter(self, query: str, *args: object) -> Results[_O]:
        """Narrow the results with a Realm Query Language string.

        ``args`` are the values of ``$0``, ``$1``, ...; a list, tuple or set is a list
        argument (for ``IN $n``). The query may end with ``SORT(...)``,
        ``DISTINCT(...)`` and ``LIMIT(n)``.

        Raises:
            QueryError: a syntax or type error; ``.offset`` is the byte offset (in the
                UTF-8 query) of the offending token.
        """
        c_query = c_string(query, "the query")
        arr, keep = self._query_arguments(args)
        ptr = lib.db_results_filter(self._h(), c_query, arr if args else None, len(args))
        del keep
        return self._derive(ptr)

    def index_matching(self, query: str, *args: object) -> Optional[int]:
        """The position of the first object of these results that matches ``query`` (a
        condition, with ``$0``, ``$1``, ... as for :meth:`filter`), or None when none does::

            first_adult = people.sorted("age").index_matching("age >= $0", 18)

        Raises:
            QueryError: a syntax or type error, or a SORT, DISTINCT or LIMIT suffix (the
                position is in these results' own order); ``.offset`` is the byte offset.
        """
        c_query = c_string(query, "the query")
        arr, keep = self._query_arguments(args)
        index, found = ctypes.c_size_t(), ctypes.c_bool()
        lib.db_results_index_matching(self._h(), c_query, arr if args else None, len(args), _byref(index), _byref(found))
        del keep
        return index.value if found.value else None

    def _query_arguments(self, args: Sequence[object]) -> Tuple[ctypes.Array[db_query_arg_t], List[object]]:
        return query_arguments(self._realm, args)

    def sorted(self, key: SortSpec, ascending: bool = True) -> Results[_O]:
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
            paths = (db_sort_path_t * len(specs))()
            for i, (name, asc) in enumerate(specs):
                paths[i].key_path = c_string(name, "key path")
                paths[i].ascending = asc
            return self._derive(lib.db_results_sort_by_key_paths(self._h(), paths, len(specs)))
        arr = (db_sort_key_t * len(specs))()
        for i, (name, asc) in enumerate(specs):
            arr[i].property_key = self._key(name)
            arr[i].ascending = asc
        return self._derive(lib.db_results_sort(self._h(), arr, len(specs)))

    def distinct(self, *names: Union[str, Sequence[str]]) -> Results[_O]:
        """Keep the first object of each distinct combination of the named properties
        (key paths through to-one links too: ``distinct("owner.name")``)."""
        given: Sequence[object] = names
        if len(names) == 1 and isinstance(names[0], (list, tuple)):
            given = tuple(names[0])
        if not given:
            raise ValueError("distinct() needs at least one property")
        keys_paths: List[str] = []
        for name in given:
            if not isinstance(name, str):
                raise TypeError(f"distinct() takes property names (strings), not {type(name).__name__}")
            keys_paths.append(name)
        if any("." in name for name in keys_paths):
            paths = (ctypes.c_char_p * len(keys_paths))(*(c_string(name, "key path") for name in keys_paths))
            return self._derive(lib.db_results_distinct_by_key_paths(self._h(), paths, len(keys_paths)))
        keys = (db_property_key_t * len(keys_paths))(*(self._key(n) for n in keys_paths))
        return self._derive(lib.db_results_distinct(self._h(), keys, len(keys_paths)))

    def limit(self, count: int) -> Results[_O]:
        """Keep at most ``count`` objects (after the sorts and distincts so far)."""
        return self._derive(lib.db_results_limit(self._h(), c_uint(count, "the limit", SIZE_MAX)))

    def sectioned(self, key: SectionKey, ascending: bool = True,
                  sort: Optional[Sequence[SortKey]] = None) -> SectionedResults:
        """Group these results into sections (a :class:`~realmdb.sectioned.SectionedResults`).

        ``key`` is a key path (``"age"``, ``"owner.name"``): the results are sorted by it
        (``ascending``) and each of its values makes a section; with ``sort`` (names or
        ``(name, ascending)`` pairs) they are sorted by that instead. Or ``key`` is a function of
        an object (``lambda p: p.name[0]``) called as the sections are evaluated; the results
        keep their order unless ``sort`` is given, whose first key should decide the section.
        """
        return sectioned(self._realm, self._h, self._meta, key, ascending, sort)

    def freeze(self) -> Results[_O]:
        """These results at the version their realm reads now: immutable, usable from any
        thread, pinning that version until released (see :meth:`Realm.freeze`)."""
        if self.is_frozen:
            return self
        frozen_realm = self._realm.freeze()
        return Results(frozen_realm, lib.db_results_freeze(self._h()), self._meta)

    def thaw(self) -> Results[_O]:
        """The live results in the realm these were frozen from."""
        if not self.is_frozen:
            return self
        return Results(self._realm.thaw(), lib.db_results_thaw(self._h()), self._meta)

    @property
    def is_frozen(self) -> bool:
        return bool(lib.db_results_is_frozen(self._h()))

    def observe(self, callback: Callable[[Results[_O], CollectionChanges], None],
                key_paths: Optional[Sequence[str]] = None) -> NotificationToken:
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
        return observe_collection(self._realm, "results", self._h(), self, callback, key_paths)

    def snapshot(self) -> Results[_O]:
        """A frozen list of the current objects: later writes do not change which objects it holds
        (objects deleted later stay in it, invalid; iteration skips them)."""
        return self._derive(lib.db_results_snapshot(self._h()), snapshot=True)

    # -- sequence ---------------------------------------------------------

    def __len__(self) -> int:
        out = ctypes.c_size_t()
        lib.db_results_count(self._h(), _byref(out))
        return int(out.value)

    def count(self, value: object = _NO_VALUE) -> int:
        """``count()``: the number of objects (same as ``len()``). ``count(obj)``: how many times
        ``obj`` occurs, as ``Sequence.count`` (0 or 1, but more for the results of a list that
        holds an object several times)."""
        if value is _NO_VALUE:
            return len(self)
        first = self._index_of(value)
        if first is None:
            return 0
        assert isinstance(value, RealmObject)
        key = link_of(value)[1]
        return sum(1 for k in self._keys_from(first) if k == key)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _wrap(self, ptr: ObjectHandle) -> _O:
        return cast(_O, self._realm._wrap(ptr, self._meta))

    def _get(self, index: int) -> _O:
        return self._wrap(lib.db_results_get(self._h(), index))

    def _slice(self, index: slice) -> List[_O]:
        start, stop, step = index.indices(len(self))
        positions = range(start, stop, step)
        if not positions:
            return []
        lo, hi = min(positions), max(positions)
        keys = self._keys(lo, hi - lo + 1)
        # Objects known by their keys, as iteration gives them: no handle to make and release
        # per object, reads and writes by key (a handle made each one's writes take the slower
        # path through it). The keys were just read: every object exists.
        keyed = self._realm._keyed_object
        meta = self._meta
        return [cast(_O, keyed(meta, keys[p - lo])) for p in positions]

    def _item(self, index: int) -> _O:
        i = as_index(index, "Results")  # also numpy integers and the like
        if i < 0 or i > SIZE_MAX:  # else the library checks the upper bound
            i = position(i, len(self), "Results")
        return self._get(i)

    def _keys(self, start: int, count: int) -> List[int]:
        """Object keys at positions start .. start+count-1 (fewer at the end)."""
        out = (db_object_key_t * max(count, 1))()
        got = ctypes.c_size_t()
        _get_keys(self._h(), start, count, out, _byref(got))
        keys: List[int] = memoryview(out).cast("B").cast("q")[: got.value].tolist()
        return keys

    def _keys_from(self, start: int, stop: Optional[int] = None) -> Iterator[int]:
        """Object keys from position ``start`` up to ``stop`` (the end), fetched in batches."""
        out = (db_object_key_t * KEYS_BATCH)()
        words = memoryview(out).cast("B").cast("q")
        got = ctypes.c_size_t()
        while stop is None or start < stop:
            want = KEYS_BATCH if stop is None else min(KEYS_BATCH, stop - start)
            _get_keys(self._h(), start, want, out, _byref(got))  # each batch: the realm may close
            n = int(got.value)
            keys: List[int] = words[:n].tolist()
            yield from keys
            start += n
            if n < want:
                return

    def _objects(self, keys: Iterable[int]) -> Iterator[_O]:
        """The objects with these keys, skipping those deleted since the keys were read."""
        realm_h = self._realm._h()
        class_key = self._meta.key
        wrap = self._realm._wrap
        meta = self._meta
        for key in keys:
            try:
                ptr = _get_by_key(realm_h, class_key, key)
            except NotFoundError:
                continue  # deleted since the snapshot was taken
            yield cast(_O, wrap(ptr, meta))

    def __iter__(self) -> Iterator[_O]:
        # Walk a snapshot, so that the loop body may modify or delete objects.
        snap = self if self._snapshot else self.snapshot()
        return snap._objects_with_rows()

    def _objects_with_rows(self) -> Iterator[_O]:
        """The objects of this snapshot, their rows read for a batch of objects at a time: one
        call per property the loop reads, for the whole batch, instead of one per object (see
        ``_row_batch``, RealmObject._load). The batches start small, for loops that stop early.

        A loop body that writes plain values (``p.score = p.score + 1``, see ``_own_writes``)
        leaves the rows read ahead current, except those of the objects it wrote. Any other write
        (a create, a delete, a link, a collection) makes every row read before it stale: the rest
        of the batch is then read one object at a time, by key, as the loop reaches it, and later
        batches are not read ahead. No object gets a handle unless the loop body needs one."""
        meta = self._meta
        realm = self._realm
        # A borrowed (migration) realm tracks its accessors (Realm._wrap) and caches nothing.
        prefetch = by_key = bool(meta.row_names) and not meta.by_name and realm._owned
        made: Any = object_type(meta)
        unresolved = made._unresolved
        new = object.__new__
        counter = realm._counter
        class_key = meta.key
        width = len(meta.row_names)
        # The properties read with each batch's keys: the first (which also tells whether every
        # object of the batch still exists), then those the loop read in the batches before.
        used = {0}
        start, batch = 0, ROWS_FIRST_BATCH
        if prefetch and len(self) <= ROWS_ONE_BATCH:
            batch = ROWS_ONE_BATCH
        row_batch: Optional[RowBatch] = None
        # The rows of the batch before that no object held when it ended, emptied and used again:
        # a loop that keeps no object allocates no row after its first batch, where new rows, kept
        # while their batch lasted, made the garbage collector traverse them and, at times, the
        # program's whole heap (a fifth of an iteration in a program holding 100,000 objects).
        spare: List[List[object]] = []
        empty: List[object] = [MISSING] * width
        try:
            while True:
                keys = self._keys(start, batch)
                stamp = counter.value
                if row_batch is not None:
                    used |= row_batch.loaded
                    spare = row_batch.release()
                row_batch = None
                if prefetch and stamp and keys:
                    reused = spare[:len(keys)]
                    for j in range(len(reused)):  # (no loop variable left holding a row)
                        reused[j][:] = empty
                    spare = []
                    row_batch = RowBatch(self, start, reused + [[MISSING] * width for _ in range(len(keys) - len(reused))])
                    del reused
                    if not all(row_batch.load(index) for index in sorted(used)):
                        row_batch = None
                rows = row_batch.rows if row_batch is not None else None
                realm_h = realm._h()
                for i, key in enumerate(keys):
                    if rows is not None:
                        # Every object of the batch existed when its first property was read:
                        # while nothing but plain writes to other objects happened since, no call
                        # is needed (the properties not read yet are read for the whole batch, at
                        # the first read of each).
                        now = counter.value
                        run = realm._own_writes  # still_current, inline: a call per object was a tenth of it
                        if now == stamp or (run is not None and run.top == now and 0 < run.base <= stamp
                                            and (key not in run.written if run.table == class_key
                                                 else (class_key, key) not in run.others)):
                            # RealmObject._unresolved, inline: its call was a sixth of an iteration.
                            obj = new(made)
                            obj._realm = realm
                            obj._ptr = None
                            obj._key = key
                            obj._meta = meta
                            obj._release = None
                            obj._hash = None
                            obj._link = None
                            obj._row = rows[i]
                            obj._stamp = now
                            obj._batch = row_batch
                            yield obj
                            continue
                    if by_key:
                        # Each object's row is read alone, as it comes, by key (the read that also
                        # tells whether the object still exists).
                        obj = unresolved(realm, meta, key, (), -1)
                        try:
                            obj._load_by_key(0, counter.value)
                        except ClosedRealmError:
                            raise
                        except InvalidatedError:
                            continue  # deleted since the snapshot was taken
                        yield cast(_O, obj)
                        continue
                    try:
                        ptr = _get_by_key(realm_h, meta.key, key)
                    except NotFoundError:
                        continue  # deleted since the snapshot was taken
                    yield cast(_O, realm._wrap(ptr, meta))  # its row, if read, is stale: the loop body wrote
                rows = None
                if len(keys) < batch:
                    return
                now = counter.value
                if now != stamp and not wrote_plain_last(realm, now):
                    prefetch = False  # the loop body writes more than plain values
                start += len(keys)
                batch = KEYS_BATCH
        finally:
            # The loop ended, broke out or failed: the batch keeps only the rows objects hold.
            if row_batch is not None:
                row_batch.release()

    def __reversed__(self) -> Iterator[_O]:
        # As __iter__, from the end: the keys of a snapshot, read when the loop starts.
        snap = self if self._snapshot else self.snapshot()
        yield from self._objects(reversed(list(snap._keys_from(0))))

    def __contains__(self, obj: object) -> bool:
        return self._index_of(obj) is not None

    def _index_of(self, obj: object) -> Optional[int]:
        if not isinstance(obj, RealmObject):
            return None
        index = ctypes.c_size_t()
        found = ctypes.c_bool()
        lib.db_results_index_of(self._h(), obj._handle(), _byref(index), _byref(found))
        return int(index.value) if found.value else None

    def index(self, value: object, start: int = 0, stop: Optional[int] = None) -> int:
        """The position of the first ``value`` at or after ``start`` and before ``stop`` (counted
        as ``list.index`` counts them); ValueError when there is none."""
        i = self._index_of(value)
        if i is not None and (start != 0 or stop is not None):
            lo, hi, _ = slice(start, stop).indices(len(self))
            if not lo <= i < hi:  # i is the first occurrence: look for a later one in range
                assert isinstance(value, RealmObject)
                key = link_of(value)[1]
                i = next((lo + j for j, k in enumerate(self._keys_from(lo, hi)) if k == key), None) \
                    if i < hi else None
        if i is None:
            raise ValueError(f"{value!r} is not in the results")
        return i

    def first(self) -> Optional[_O]:
        """The first object, or None when the results are empty."""
        if len(self) == 0:
            return None
        return self._get(0)

    def last(self) -> Optional[_O]:
        """The last object, or None when the results are empty."""
        n = len(self)
        if n == 0:
            return None
        return self._get(n - 1)

    # -- aggregates -------------------------------------------------------

    def _aggregate(self, name: str, kind: Aggregate) -> Optional[AggregateValue]:
        key = self._key(name)
        out = db_value_t()
        found = ctypes.c_bool()
        lib.db_results_aggregate(self._h(), key, kind, _byref(out), _byref(found))
        if not found.value:
            return None
        return cast(Optional[AggregateValue], decode_at(bytes(out)))

    def min(self, name: str) -> Optional[AggregateValue]:
        """The smallest value of a property (nulls and NaN skipped), or None when there is none."""
        return self._aggregate(name, Aggregate.MIN)

    def max(self, name: str) -> Optional[AggregateValue]:
        """The largest value of a property (nulls and NaN skipped), or None when there is none."""
        return self._aggregate(name, Aggregate.MAX)

    def sum(self, name: str) -> Optional[AggregateValue]:
        """The sum of a numeric property (nulls skipped); 0 for no values. Ints are summed
        exactly: :class:`OutOfRangeError` only when the sum itself does not fit in 64 bits."""
        return self._aggregate(name, Aggregate.SUM)

    def average(self, name: str) -> Optional[AggregateValue]:
        """The average of a numeric property (nulls skipped; a float, or a Decimal for decimal128),
        or None for no values."""
        return self._aggregate(name, Aggregate.AVERAGE)

    # -- batch read and writes -------------------------------------------

    def values(self, name: str) -> List[StoredValue]:
        """The property's value for every object, in results order (batch read; a link is a
        :class:`Link`). ``name`` may be a key path through to-one links, the seeds'
        ``value(forKeyPath:)``: ``dogs.values("owner.name")`` (None where a link is null). Through
        a to-many link, use :meth:`value_lists`."""
        h = self._h()
        scratch = column_scratch()
        text = scratch.text
        if "." in name:
            c_path = c_string(name, "key path")

            def read(start: int, arr: Optional[ctypes.Array[db_value_t]], got: object) -> Optional[ColumnText]:
                # Borrowed strings stay valid until the next call: each batch is decoded first.
                lib.db_results_get_values_by_key_path(h, c_path, start, VALUES_BATCH, arr, got)
                return None
        else:
            key = self._key(name)

            def read(start: int, arr: Optional[ctypes.Array[db_value_t]], got: object) -> Optional[ColumnText]:
                _get_values_into(h, key, start, VALUES_BATCH, arr, text.address, len(text.buffer), got)
                return text
        buf, arr = scratch.values, scratch.array
        got = ctypes.c_size_t()
        got_ref = _byref(got)
        result: List[StoredValue] = []
        start = 0
        while True:
            strings = read(start, arr, got_ref)
            n = got.value
            if n:
                result.extend(decode_column(buf, n, strings))
            start += n
            if n < VALUES_BATCH:
                return result

    def value_lists(self, key_path: str) -> List[List[StoredValue]]:
        """For every object, in results order, the values a key path reaches through any links:
        the seeds' ``value(forKeyPath:)`` through to-many links. ``people.value_lists("dogs.name")``
        is each person's dogs' names; ``"scores"`` a list's elements; ``"owner.name"`` a list of
        one value (``[None]`` where the link is null); ``"dogs.@count"`` one count. Any key path
        of a query may be used (``@links.Person.dogs.name``, ``meta['k']``, ``dogs[FIRST].age``)."""
        h = self._h()
        c_path = c_string(key_path, "key path")
        capacity = VALUES_BATCH
        buf = bytearray(VALUE_SIZE * capacity)
        offsets = (ctypes.c_size_t * (VALUES_BATCH + 1))()
        objects, count = ctypes.c_size_t(), ctypes.c_size_t()
        result: List[List[StoredValue]] = []
        start = 0
        while True:
            lib.db_results_get_value_lists_by_key_path(h, c_path, start, VALUES_BATCH, value_array(buf, capacity), capacity,
                                                       offsets, _byref(objects), _byref(count), None)
            n = objects.value
            if n == 0 and count.value > capacity:  # one object with more values than the buffer
                capacity = count.value
                buf = bytearray(VALUE_SIZE * capacity)
                continue
            # Borrowed strings stay valid until the next call: each batch is decoded first.
            flat = decode_column(buf, count.value) if count.value else []
            result.extend(flat[offsets[i]:offsets[i + 1]] for i in range(n))
            start += n
            if n == 0:
                return result

    def set_value(self, name: str, value: object) -> None:
        """Set a property on every object (inside a write transaction)."""
        key = self._key(name)
        buf = bytearray(VALUE_SIZE)
        keep: List[object] = []
        pack_value_into(buf, 0, value, keep)
        lib.db_results_set_value(self._h(), key, _byref(db_value_t.from_buffer(buf)))

    def set_values(self, name: str, values: Iterable[object], start: int = 0) -> None:
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
        items = element_list(values, "set_values()")
        array, keep = pack_values(items)
        lib.db_results_set_values(h, key, start, array, len(items))
        del keep

    def delete_all(self) -> int:
        """Delete every object (inside a write transaction); returns how many were deleted."""
        out = ctypes.c_size_t()
        lib.db_results_delete_all(self._h(), _byref(out))
        return int(out.value)

    # -- misc -------------------------------------------------------------

    def __str__(self) -> str:
        """The objects as Realm describes a collection (the first 100, then how many more)::

            Results<Person> (
                [0] Person {
                    name = Ann;
                    ...
        """
        if self._ptr is None or self._realm.is_closed:
            return repr(self)
        return str(lib.db_results_description(self._h()))

    def __repr__(self) -> str:
        name = self._meta.name + (" snapshot" if self._snapshot else "")
        if self._ptr is None or self._realm.is_closed:
            return f"<realmdb.Results {name}: realm closed>"
        try:
            n = len(self)
        except Exception:
            return f"<realmdb.Results {name}: invalid>"
        return f"<realmdb.Results {name}: {n} object{'' if n == 1 else 's'}>"

    def __reduce__(self) -> Tuple[object, ...]:
        raise TypeError("Results cannot be pickled; use values() or a list of to_dict()")


def query_arguments(realm: Realm, args: Sequence[object]) -> Tuple[ctypes.Array[db_query_arg_t], List[object]]:
    """The ``db_query_arg_t`` array of a query's arguments (their objects of ``realm``), and what
    must stay alive while the library reads it (Results.filter, List.filter, ...).

    Every argument's values go into one buffer, and the array is packed over it with one
    address taken: building it one ctypes object at a time cost 3 µs per argument, more than
    the library takes to parse the query."""
    n = len(args)
    listed = [list(arg) if isinstance(arg, _LIST_ARGUMENT_TYPES) and not isinstance(arg, Link)  # a Link is a tuple
              else None for arg in args]
    counts = [1 if items is None else len(items) for items in listed]
    values = bytearray(max(sum(counts), 1) * VALUE_SIZE)
    keep: List[object] = [values]
    offset = 0
    for arg, items in zip(args, listed):
        # A list of ints or floats (`id IN $0` with 50,000 ids) in one pass: no objects to check.
        if items is not None and pack_column_into(values, offset, items):
            offset += len(items) * VALUE_SIZE
            continue
        for item in ((arg,) if items is None else items):
            check_same_realm(realm, item)
            pack_value_into(values, offset, item, keep)
            offset += VALUE_SIZE
    packed = bytearray(_QUERY_ARG.size * max(n, 1))
    address = ctypes.addressof(ctypes.c_char.from_buffer(values))
    for i, (items, count) in enumerate(zip(listed, counts)):
        _QUERY_ARG.pack_into(packed, i * _QUERY_ARG.size, count, items is not None, address if count else 0)
        address += count * VALUE_SIZE
    arr = (db_query_arg_t * max(n, 1)).from_buffer(packed)
    return arr, keep
