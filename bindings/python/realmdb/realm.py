"""Realm: an open realm file (or in-memory identifier); :func:`realmdb.open` opens one.

This module is the top of the binding's layers: objects, results, collections and notifications
(the modules below) reach their realm through a Realm instance, never by importing this module,
and the realm makes what they cannot import (``_collection``, ``_linking_objects``)."""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Type, TypeVar, Union, cast, overload

from . import _bulk, _ffi, _write_turn
from ._arguments import c_string
from ._c_types import (NO_FREE, VALUE_SIZE, CheckProgressFunc, CollectionType, ObjectHandle, RealmHandle, SchedulerNotifyFunc,
                       db_check_report_t, db_object_key_t, db_property_key_t, db_value_t, db_version_info_t)
from ._ffi import lib
from ._own_writes import OwnWrites
from ._schema import ClassMeta, ClassSchema, check_collection_value, normalized, take_schema
from ._values import (_INT_TAG, _PACK_INT, Link, StoredValue, decode_row_in, pack_row, pack_value_into,
                      packed_row_address, packed_scalar)
from .errors import (ClosedRealmError, InvalidatedError, LogicError, NotFoundError, RealmError, WrongThreadError,
                     WrongTransactionStateError)
from .notifications import NotificationToken
from .object import NO_CACHE, ROW_TEXT_BYTES, RealmObject, RealmValue, check_same_realm, object_type
from .relationships import Dictionary, List as ListProperty, Set as SetProperty
from .results import Results

if TYPE_CHECKING:
    import asyncio

__all__ = ["Realm", "VersionInfo", "CheckReport", "FileSpace", "RealmValue"]


#: A model class (realmdb.Object) given where a class is named: what comes back is typed by it.
_M = TypeVar("_M", bound=RealmObject)

# Every realm opened by this process and not yet closed; closed at interpreter exit.
_open_realms: "weakref.WeakSet[Realm]" = weakref.WeakSet()


def _close_all_at_exit() -> None:
    for realm in list(_open_realms):
        try:
            realm.close()
        except Exception:
            pass
    # From now on finalizers leave handles alone: the process is exiting.
    _ffi.state.shutting_down = True


atexit.register(_close_all_at_exit)


class VersionInfo(NamedTuple):
    """What pins a realm file's old versions (:meth:`Realm.version_info`)."""

    #: Distinct versions pinned by readers in every process, plus the latest.
    active_versions: int
    #: Reader slots holding a snapshot (open realms, frozen views), in every process.
    readers: int
    #: Commits made since the oldest pinned snapshot (0 when every reader reads the latest).
    oldest_reader_lag: int
    #: The process holding the oldest pinned snapshot (0 when no reader lags).
    oldest_reader_pid: int
    #: Reader slots of processes that no longer exist, cleared by this call.
    stale_readers_cleared: int


class FileSpace(NamedTuple):
    """How much of a realm file is in use (:meth:`Realm.file_space`, and what the
    ``should_compact_on_launch`` function of :func:`realmdb.open` decides from)."""

    #: The file's size.
    file_bytes: int
    #: The bytes of its pages in use, about the size of a compacted copy. The rest is free space
    #: that later commits reuse, and that compacting gives back.
    used_bytes: int


class CheckReport(NamedTuple):
    """What :meth:`Realm.check` read."""

    classes: int
    objects: int
    #: Stored values read: one per object and stored property.
    values: int
    #: Column blocks decoded.
    blocks: int
    #: Index entries confirmed against the values they index.
    index_entries: int


_find_key_with_primary_key_at = _ffi.addressed.db_object_find_key_with_primary_key
_reader_find_at = _ffi.addressed.db_object_reader_find
_release_reader = _ffi.addressed.db_object_reader_release


class _FoundKey(ctypes.Structure):
    """The two answers of db_object_find_key_with_primary_key, in one allocation."""

    _fields_ = [("key", db_object_key_t), ("found", ctypes.c_bool)]


_FOUND_OFFSET = _FoundKey.found.offset
_create_with_keys_at = _ffi.addressed.db_object_create_many_with_keys
_release_writer = _ffi.addressed.db_property_writer_release
_creator_create_at = _ffi.addressed.db_object_creator_create
_release_creator = _ffi.addressed.db_object_creator_release
_byref = ctypes.byref


class Realm(_ffi.HandleOwner):
    """An open realm: a file (or in-memory identifier) with its current transaction.

    Get one with :func:`realmdb.open`. Close it with :meth:`close` or a ``with``
    block; objects read from it become invalid when it closes. A realm handle, and
    everything read through it, belongs to the thread that opened it: using it on
    another thread raises WrongThreadError (open another handle there).
    """

    def __init__(self, handle: RealmHandle, path: str, *, in_memory: bool = False, owned: bool = True,
                 keepalive: object = None, models: Optional[Dict[str, type]] = None) -> None:
        self._handle: Optional[RealmHandle] = handle
        #: The handle's address, for the functions of ``_ffi.addressed`` (None once the handle is).
        self._address: Optional[int] = ctypes.cast(handle, ctypes.c_void_p).value
        self._path = path
        self._owned = owned
        self._keepalive = keepalive
        self._metas: Optional[Dict[str, ClassMeta]] = None
        # The model classes (realmdb.Object) the realm was opened with, by stored class name.
        self._models: Dict[str, type] = models or {}
        # Accessors made through a borrowed (migration) realm, expired when it ends.
        self._children: Optional[List[RealmObject]] = None if owned else []
        self._identity = ("memory", path) if in_memory else ("file", os.path.realpath(path))
        # Results made from this realm, released when it closes (or, borrowed, when the migration ends).
        self._results: "weakref.WeakSet[Results[Any]]" = weakref.WeakSet()
        # Notification tokens registered through this realm, invalidated when it closes.
        self._tokens: weakref.WeakSet[NotificationToken] = weakref.WeakSet()
        # Exceptions raised by notification callbacks, re-raised by the call that delivered them.
        self._callback_errors: List[BaseException] = []
        self._scheduler: Optional[object] = None  # the wake-up callback of attach_loop
        self._write_queues: Dict[int, asyncio.Lock] = {}  # write_async's, by event loop
        self._write_task: Optional[asyncio.Task[Any]] = None  # the task inside write_async
        self._frozen_from: Optional[Realm] = None  # for a frozen realm: its live source
        self._atomic_depth = 0  # nesting of _atomic() blocks (the outermost holds the savepoint)
        # The library's change counter of this handle: objects cache the values they read and
        # trust them while it holds the value it had then (see RealmObject._load). A borrowed
        # (migration) realm caches nothing: NO_CACHE holds 0, which no stamp is taken from.
        self._counter: ctypes.c_uint64 = NO_CACHE
        #: The run of plain writes the counter has moved through last (see ``_own_writes``).
        self._own_writes: Optional[OwnWrites] = None
        #: db_property_writer_t addresses by property descriptor (``_properties.RowProperty``),
        #: made at a property's first number write (0: none can be, write by key instead);
        #: released with the handle.
        self._writers: Dict[object, int] = {}
        #: db_object_creator_t addresses this realm made (ClassMeta.creators), released with its handle.
        self._creators: List[int] = []
        #: db_object_reader_t addresses this realm made (ClassMeta.reader), released with its handle.
        self._readers: List[int] = []
        #: Where the library answers object_for_primary_key and create with an object key.
        self._found = _FoundKey()
        self._found_at = ctypes.addressof(self._found)
        #: A frozen realm, which any thread may use at once (ctypes lets go of the GIL during a
        #: call): its lookups answer in memory of their own, not in ``_found`` or a reader's.
        self._shared = bool(owned and lib.db_realm_is_frozen(handle))
        if owned:
            address = ctypes.POINTER(ctypes.c_uint64)()
            lib.db_realm_get_change_counter(handle, ctypes.byref(address))
            self._counter = address.contents
            _open_realms.add(self)

    # -- lifetime ---------------------------------------------------------

    def _h(self) -> RealmHandle:
        h = self._handle
        if h is None:
            raise ClosedRealmError("this realm is no longer available (the migration has ended)",
                                   _ffi.Status.CLOSED_REALM)
        return h

    def _a(self) -> int:
        """The handle's address (ClosedRealmError as ``_h``, once there is no handle)."""
        address = self._address
        if address is None:
            self._h()  # raises
        return cast(int, address)

    def close(self) -> None:
        """Close the realm (idempotent); its objects become invalid.

        The file is closed at once; the handle's memory is released when this
        object is garbage-collected (after any accessors still referring to it).
        """
        if not self._owned:
            raise LogicError("the realm of a migration is closed by the library", _ffi.Status.LOGIC)
        _open_realms.discard(self)
        for token in list(self._tokens):
            token.invalidate()
        self._kill_results(ClosedRealmError("the realm of these results has been closed", _ffi.Status.CLOSED_REALM))
        self._counter = NO_CACHE  # every object reads through the library again, which refuses
        if self._handle is not None:
            lib.db_realm_close(self._handle)

    def __enter__(self) -> Realm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _object_creator(self, meta: ClassMeta, names: Tuple[str, ...]) -> int:
        """The creator of ``meta``'s objects from dicts with ``names`` (see ``create``), made once
        (unknown names raise NotFoundError, as a create does); 0 where creates take the general
        path: a borrowed (migration) or frozen realm, or a program that creates from more shapes
        of dict than are kept."""
        keys = meta.keys_for.get(names)
        if keys is None:
            keys = self._keys(meta, names)
        if not self._owned or self._handle is None or self.is_frozen or len(meta.creators) >= 256:
            return 0
        creator = cast(int, ctypes.cast(lib.db_object_creator_new(self._handle, meta.key, keys, len(names), 0),
                                        ctypes.c_void_p).value)
        meta.creators[names] = creator
        self._creators.append(creator)
        return creator

    def _object_reader(self, meta: ClassMeta) -> int:
        """The reader of ``meta``'s rows (see ``ClassMeta.reader``), made once; 0 for a borrowed
        (migration) realm, whose objects read the general way, by name where its schema says, and
        for a frozen realm, whose threads would share the reader's memory."""
        reader = 0
        if self._owned and self._handle is not None and not meta.by_name and not self._shared:
            count = len(meta.row_names)
            made = lib.db_object_reader_new(self._handle, meta.key, meta.row_keys, count, ROW_TEXT_BYTES)
            reader = cast(int, ctypes.cast(made, ctypes.c_void_p).value)
            self._readers.append(reader)
            values = meta.reader_values = ctypes.addressof(lib.db_object_reader_values(made).contents)
            meta.reader_memory = (ctypes.c_char * (count * VALUE_SIZE + ROW_TEXT_BYTES)).from_address(values)
        meta.reader = reader
        return reader

    def _property_writer(self, descriptor: object, class_key: int, property_key: int) -> int:
        """The writer of one property for ``descriptor`` (see ``_writers``): made once, 0 for a
        frozen or borrowed realm (whose writes take the general path, which refuses them or
        writes as the migration does)."""
        writer = 0
        if self._owned and self._handle is not None and not self.is_frozen:
            writer = cast(int, ctypes.cast(lib.db_property_writer_new(self._handle, class_key, property_key),
                                           ctypes.c_void_p).value)
        self._writers[descriptor] = writer
        return writer

    def _finalize(self) -> None:
        writers, self._writers = self._writers, {}
        for writer in writers.values():
            if writer:
                _release_writer(writer)
        creators, self._creators = self._creators, []
        for creator in creators:
            _release_creator(creator)
        readers, self._readers = self._readers, []
        for reader in readers:
            _release_reader(reader)
        h = self._handle
        if h is not None and self._owned:
            self._handle = None
            self._address = None
            self._counter = NO_CACHE  # its address goes with the handle
            lib.db_realm_release(h)

    def _expire(self) -> None:
        """End a borrowed realm: expire its accessors and drop the handle."""
        for obj in self._children or ():
            obj._kill()
        self._children = []
        self._kill_results(InvalidatedError("the realm of these results (a migration's) is no longer available",
                                            _ffi.Status.INVALIDATED))
        self._handle = None
        self._address = None

    def _track_results(self, results: Results[Any]) -> None:
        self._results.add(results)

    def _kill_results(self, error: RealmError) -> None:
        for results in list(self._results):
            results._kill(error)
        self._results = weakref.WeakSet()

    @property
    def is_closed(self) -> bool:
        """True once the realm is closed."""
        h = self._handle
        return h is None or not lib.db_realm_is_valid(h)

    @property
    def path(self) -> str:
        """The file path (absolute), or the identifier of an in-memory realm."""
        return self._path

    def __repr__(self) -> str:
        state = "closed" if self.is_closed else "open"
        return f"<realmdb.Realm {self._path!r} ({state})>"

    # -- transactions -----------------------------------------------------

    @contextlib.contextmanager
    def write(self) -> Iterator[Realm]:
        """``with realm.write():`` a write transaction.

        Commits when the block ends normally; cancels and re-raises when it raises.
        """
        self.begin_write()
        try:
            yield self
        except BaseException:
            if self.in_write:
                self.cancel_write()
            raise
        if self.in_write:
            self.commit()

    @contextlib.asynccontextmanager
    async def write_async(self) -> AsyncIterator[Realm]:
        """``async with realm.write_async():`` a write transaction for code on an asyncio event
        loop, which keeps running while the realm waits for its turn to write.

        While another thread or process writes to the file, ``with realm.write():`` would block
        the loop's thread until that writer commits. Here the wait runs on a worker thread
        (``db_realm_reserve_write``); the block then runs on the loop's thread and is committed
        when it ends normally, cancelled when it raises, as with ``realm.write()``. The commit
        (an fsync) runs on the loop's thread. Tasks of one loop writing through one realm take
        their turns one after another. Cancelling a task while it waits gives the turn back.

        Until the block ends, other writers of the file wait: do not await slow work inside it.
        Use the realm from its own thread (the loop's), as always."""
        import asyncio  # only here: most programs never need it
        task = asyncio.current_task()
        if task is not None and task is self._write_task:  # its own queue would wait forever
            raise WrongTransactionStateError("this task is inside realm.write_async() already: write in that block",
                                             _ffi.Status.WRONG_TRANSACTION_STATE)
        async with _write_turn.writers_queue(self._write_queues):
            self._write_task = task
            try:
                await _write_turn.reserve_write(self)
                try:
                    with self.write():  # begins at once: the turn is this realm's
                        yield self
                finally:
                    _write_turn.release_write_reservation(self)  # only if the begin failed
            finally:
                self._write_task = None

    @contextlib.contextmanager
    def _atomic(self) -> Iterator[None]:
        """All or nothing for a change made of several C calls (an object and its collections, an
        embedded object and its values, objects created from dicts and then linked): the block runs
        inside a savepoint, rolled back if it raises, so a failure leaves the write transaction as
        it was. Nested blocks share the outermost savepoint. Outside a write transaction (or on a
        closed realm) the block runs as it is: its first write raises the usual error."""
        if self._atomic_depth:
            self._atomic_depth += 1
            try:
                yield
            finally:
                self._atomic_depth -= 1
            return
        try:
            lib.db_realm_begin_savepoint(self._h())
        except (WrongTransactionStateError, ClosedRealmError, WrongThreadError):
            yield
            return
        self._atomic_depth = 1
        try:
            yield
        except BaseException:
            self._atomic_depth = 0
            with contextlib.suppress(RealmError):
                lib.db_realm_rollback_savepoint(self._h())
            raise
        self._atomic_depth = 0
        lib.db_realm_release_savepoint(self._h())

    def begin_write(self) -> None:
        """Start a write transaction, waiting for writers in other threads and processes."""
        lib.db_realm_begin_write(self._h())

    def commit(self) -> None:
        """Commit the write transaction, then call this realm's notification callbacks."""
        lib.db_realm_commit(self._h())
        self._raise_callback_errors()

    def cancel_write(self) -> None:
        """Discard the write transaction."""
        lib.db_realm_cancel_write(self._h())

    @property
    def in_write(self) -> bool:
        """True inside a write transaction."""
        h = self._handle
        return h is not None and bool(lib.db_realm_is_in_write(h))

    def refresh(self) -> bool:
        """Advance to the latest committed version, then call the notification callbacks
        registered through this realm that have something to report; returns whether it advanced."""
        did = ctypes.c_bool()
        lib.db_realm_refresh(self._h(), ctypes.byref(did))
        self._raise_callback_errors()
        return bool(did.value)

    def deliver_notifications(self) -> None:
        """Call the notification callbacks that have something to report (initial calls of new
        registrations, changes since each one's last call) without advancing the version."""
        lib.db_realm_deliver_notifications(self._h())
        self._raise_callback_errors()

    # -- frozen views -------------------------------------------------------

    def freeze(self) -> Realm:
        """An immutable view of this realm at the version it reads now, usable from any thread.
        It pins that version until closed (``max_active_versions`` counts it): close it when
        done, or the file keeps growing. Objects and results read from it are frozen too."""
        if self.is_frozen:
            return self
        frozen = Realm(lib.db_realm_freeze(self._h()), self._path)
        frozen._identity = self._identity
        frozen._models = self._models
        frozen._frozen_from = self
        return frozen

    def thaw(self) -> Realm:
        """The live realm this one was frozen from (this realm when it is live)."""
        return self._frozen_from if self._frozen_from is not None else self

    @property
    def is_frozen(self) -> bool:
        return bool(lib.db_realm_is_frozen(self._h()))

    def attach_loop(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        """Deliver this realm's notifications through an asyncio event loop, without polling:
        when any handle, thread or process commits to the file, the library wakes the loop
        (``call_soon_threadsafe``), which refreshes the realm, calling its callbacks on the
        loop's thread. New observers get their initial call the same way, without a commit.
        Callbacks may call back into the realm (read their results, write, close it).
        Use the realm from that loop's thread only. ``loop`` defaults to the running loop.
        Commits are noticed through inotify on the data file, else within 250 ms."""
        import asyncio  # only here: most programs never need it
        running = asyncio.get_running_loop() if loop is None else loop

        def notify(userdata: Optional[int]) -> None:
            try:
                running.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop is closed
                pass

        callback = SchedulerNotifyFunc(notify)
        lib.db_realm_set_scheduler(self._h(), callback, None, NO_FREE)
        self._scheduler = callback  # referenced while registered

    def detach_loop(self) -> None:
        """Stop waking the event loop (waits for a wake-up in progress)."""
        lib.db_realm_set_scheduler(self._h(), SchedulerNotifyFunc(), None, NO_FREE)
        self._scheduler = None

    def _wake(self) -> None:
        """On the loop's thread, after a commit to the file: refresh (delivering notifications)."""
        if self._handle is None or not self._owned or self.in_write:
            return  # closed, or a write in progress (its commit delivers)
        try:
            self.refresh()
        except ClosedRealmError:
            pass

    def _raise_callback_errors(self) -> None:
        if self._callback_errors:
            errors, self._callback_errors = self._callback_errors, []
            raise errors[0]

    def _from_value(self, value: StoredValue) -> RealmValue:
        """A decoded value as users see it: links as objects."""
        return self._object_from_link(value) if isinstance(value, Link) else value

    def invalidate(self) -> None:
        """Release the pinned read version (the next read pins the latest one)."""
        lib.db_realm_invalidate(self._h())

    def _u64(self, fn: Callable[..., object]) -> int:
        out = ctypes.c_uint64()
        fn(self._h(), ctypes.byref(out))
        return int(out.value)

    @property
    def version(self) -> int:
        """The commit counter of the version this realm reads."""
        return self._u64(lib.db_realm_get_version)

    @property
    def schema_version(self) -> int:
        """The schema version stored in the file."""
        return self._u64(lib.db_realm_get_schema_version)

    @property
    def file_format(self) -> int:
        """The file's format number (docs/FORMAT.md): 2 for the files this library writes; 1 for
        a file written before record seals, until its first write upgrades it."""
        value = ctypes.c_uint32()
        lib.db_realm_get_file_format(self._h(), ctypes.byref(value))
        return value.value

    @property
    def active_versions(self) -> int:
        """Distinct versions pinned by readers of this file (all processes)."""
        return self._u64(lib.db_realm_get_active_version_count)

    def check(self, progress: Optional[Callable[[int, int], None]] = None) -> CheckReport:
        """Read the whole file at its latest version and check it: every stored value decodes,
        counters match the objects, links lead to live objects, text is UTF-8, each index holds
        exactly one entry per object with its value, and every block belongs to the schema.

        Takes time in proportion to the file; ``progress(done, total)`` is called as classes are
        done. Raises FileFormatError naming the first damage found (a damaged file may also
        fail this way on ordinary reads, or, without checksums yet, read back changed data).
        """
        errors: List[BaseException] = []

        def on_progress(userdata: Optional[int], done: int, total: int) -> None:
            try:
                if progress is not None:
                    progress(int(done), int(total))
            except BaseException as exc:  # never unwind into C
                errors.append(exc)

        report = db_check_report_t()
        callback = CheckProgressFunc(on_progress)
        lib.db_realm_check(self._h(), callback, None, ctypes.byref(report))
        if errors:
            raise errors[0]
        return CheckReport(int(report.classes), int(report.objects), int(report.values), int(report.blocks),
                           int(report.index_entries))

    def write_copy(self, path: Union[str, os.PathLike[str]]) -> None:
        """Write a compacted copy of the latest committed version to a new file at ``path``.

        Only the pages in use are written, so the copy is as small as the data allows (the file
        itself never shrinks: deletes and old versions leave free space that later commits
        reuse). The copy is complete and synced before it gets its name, so a crash never
        leaves a partial file at ``path``; open it as any realm. An in-memory realm is saved
        this way. Takes time in proportion to the data; this realm stays open and usable.

        Raises:
            FileAccessError: ``path`` exists (it is never overwritten) or cannot be written.
            WrongTransactionStateError: inside a write (commit first: the copy holds committed data).
            FileFormatError: this file is damaged.
        """
        path_str = os.fsdecode(os.fspath(path))
        c_string(path_str, "the copy's path")  # before abspath, which refuses a NUL with a bare ValueError
        c_path = c_string(os.path.abspath(path_str) if path_str else path_str, "the copy's path")
        lib.db_realm_write_copy(self._h(), c_path)

    def file_space(self) -> FileSpace:
        """The file's size and the bytes of its pages in use (see :class:`FileSpace`)."""
        file_bytes, used_bytes = ctypes.c_uint64(), ctypes.c_uint64()
        lib.db_realm_get_file_space(self._h(), ctypes.byref(file_bytes), ctypes.byref(used_bytes))
        return FileSpace(int(file_bytes.value), int(used_bytes.value))

    def version_info(self) -> VersionInfo:
        """What pins the file's old versions, after clearing the readers of processes that died
        while reading (a killed process's snapshot or frozen view pins its version, and the file
        grows with every commit until it is cleared; writers also clear them as they go)."""
        info = db_version_info_t()
        lib.db_realm_get_version_info(self._h(), ctypes.byref(info))
        return VersionInfo(int(info.active_versions), int(info.readers), int(info.oldest_reader_lag),
                           int(info.oldest_reader_pid), int(info.stale_readers_cleared))

    # -- schema -----------------------------------------------------------

    def _all_metas(self) -> Dict[str, ClassMeta]:
        metas = self._metas
        if metas is None:
            metas = take_schema(lib.db_realm_get_schema(self._h()))
            for name, model in self._models.items():
                if name in metas:
                    metas[name].model = model
            self._metas = metas
        return metas

    def _meta(self, class_name: Union[str, type]) -> ClassMeta:
        metas = self._metas  # (read here: a method call per lookup cost a tenth of a point read)
        meta = (metas if metas is not None else self._all_metas()).get(class_name)  # type: ignore[arg-type]  # a model: below
        if meta is None:
            if isinstance(class_name, type):
                return self._model_meta(class_name)
            if not isinstance(class_name, str):
                raise TypeError(f"classes are named by strings or model classes, not {type(class_name).__name__}")
            raise NotFoundError(f"class {class_name!r} is not in this realm's schema", _ffi.Status.NOT_FOUND)
        return meta

    def _model_meta(self, model: type) -> ClassMeta:
        """The class of a model class (or of the type of its objects), which must be one this
        realm was opened with: objects of any other are not instances of it."""
        model = getattr(model, "_bound_model", None) or model
        name = getattr(model, "__realm_name__", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"classes are named by strings or model classes (realmdb.Object), not {model.__qualname__}")
        meta = self._all_metas().get(name)
        if meta is None or meta.model is not model:
            raise NotFoundError(f"the model class {model.__qualname__} is not one of this realm's models: "
                                "open the realm with it (realmdb.open(path, [..., "
                                f"{model.__qualname__}]))", _ffi.Status.NOT_FOUND)
        return meta

    @property
    def schema(self) -> List[ClassSchema]:
        """The realm's schema as a list of normalized class dicts."""
        return normalized(self._all_metas())

    @overload
    def objects(self, class_name: str) -> Results[RealmObject]: ...
    @overload
    def objects(self, class_name: Type[_M]) -> Results[_M]: ...

    def objects(self, class_name: Union[str, Type[_M]]) -> Union[Results[RealmObject], Results[_M]]:
        """Every object of a class (named, or a model class), as live :class:`Results` (narrow
        them with ``filter``)."""
        meta = self._meta(class_name)
        return Results(self, lib.db_results_from_class(self._h(), meta.key), meta)

    def count(self, class_name: Union[str, type]) -> int:
        """Number of objects of a class."""
        meta = self._meta(class_name)
        out = ctypes.c_size_t()
        lib.db_realm_count_objects(self._h(), meta.key, ctypes.byref(out))
        return int(out.value)

    # -- objects ----------------------------------------------------------

    def _wrap(self, ptr: ObjectHandle, meta: ClassMeta) -> RealmObject:
        obj = RealmObject(self, ptr, meta)
        if self._children is not None:
            self._children.append(obj)
        return obj

    def _collection(self, owner: RealmObject, name: str, key: int) -> Union[ListProperty[Any], SetProperty[Any], Dictionary[Any]]:
        """The live list, set or dictionary of ``owner``'s property ``name`` (key ``key``)."""
        kind = owner._meta.kind_of[name]
        if kind == CollectionType.LIST:
            return ListProperty(self, lib.db_object_get_list(owner._handle(), key), owner, name)
        if kind == CollectionType.SET:
            return SetProperty(self, lib.db_object_get_set(owner._handle(), key), owner, name)
        if kind == CollectionType.DICTIONARY:
            return Dictionary(self, lib.db_object_get_dictionary(owner._handle(), key), owner, name)
        raise TypeError(f"{owner._meta.name}.{name} is not a list, set or dictionary")

    def _linking_objects(self, owner: RealmObject, name: str, key: int) -> Results[RealmObject]:
        """The objects linking to ``owner`` through its linkingObjects property ``name``."""
        return Results(self, lib.db_object_get_linking_objects(owner._handle(), key),
                       self._meta(owner._meta.target_of[name]))

    def _keyed_object(self, meta: ClassMeta, key: int) -> RealmObject:
        """The object of ``meta``'s class with object key ``key``: the key alone, read and written
        by key, with no handle until a use needs one (see RealmObject._unresolved); in a
        migration's realm, which expires the handles it gives out (_wrap), with its handle."""
        if self._owned:
            made: Any = meta.object_type  # (object_type(meta) once made: a call less per lookup)
            if made is None:
                made = object_type(meta)
            return cast(RealmObject, made._unresolved(self, meta, key, (), -1))
        return self._wrap(lib.db_object_get_by_key(self._h(), meta.key, key), meta)

    def _object_from_link(self, link: Tuple[int, int]) -> RealmObject:
        """The object a link value points to (a RealmObject of this realm)."""
        metas = self._all_metas()
        for meta in metas.values():
            if meta.key == link[0]:
                return self._keyed_object(meta, link[1])
        raise NotFoundError(f"no class with key {link[0]} in this realm's schema", _ffi.Status.NOT_FOUND)

    def _object_for_dict(self, class_name: str, values: Mapping[str, object]) -> RealmObject:
        """The object a dict describes where a link is expected: created, or, when the class has
        a primary key and an object with it exists, that object updated with the dict's values."""
        meta = self._meta(class_name)
        return self.create(class_name, values, update="modified" if meta.primary_key else None)

    def _links_for_dicts(self, class_name: str, dicts: Sequence[Mapping[str, object]]) -> Optional[List[Link]]:
        """Links to the objects several dicts describe, created in one C call (see _bulk.links_for_dicts)."""
        return _bulk.links_for_dicts(self, class_name, dicts)

    def _fill(self, obj: RealmObject, values: Mapping[str, object]) -> None:
        """Set the properties of a new (embedded) object from a dict."""
        for name, value in values.items():
            obj[name] = value

    def _keys(self, meta: ClassMeta, names: Sequence[str]) -> ctypes.Array[db_property_key_t]:
        known = meta.keys_for.get(tuple(names))
        if known is not None:
            return known
        key_of = meta.key_of
        keys = []
        for name in names:
            key = key_of.get(name)
            if key is None:
                raise NotFoundError(f"{meta.name} has no property {name!r}", _ffi.Status.NOT_FOUND)
            keys.append(key)
        array = (db_property_key_t * max(len(keys), 1))(*keys)
        if len(meta.keys_for) < 256:  # the few shapes of dict a program creates from
            meta.keys_for[tuple(names)] = array
        return array

    @overload
    def create(self, class_name: str, values: Mapping[str, object], update: Optional[str] = None) -> RealmObject: ...
    @overload
    def create(self, class_name: Type[_M], values: Mapping[str, object], update: Optional[str] = None) -> _M: ...

    def create(self, class_name: Union[str, Type[_M]], values: Mapping[str, object],
               update: Optional[str] = None) -> Union[RealmObject, _M]:
        """Create an object (in a write transaction) from a dict of property values; ``class_name``
        names the class, or is a model class (the object is then an instance of it).

        ``update``: None (an existing primary key raises DuplicatePrimaryKey),
        ``"modified"`` or ``"all"`` (update the existing object's given properties).
        Missing optional properties are null; missing required ones raise MissingValueError.
        A create that raises leaves the write transaction as it was: no object, no objects made
        from nested dicts, no links.
        """
        # The common create (a class named, a dict of plain values) makes no call or ctypes object
        # of its own before the library's: each cost a twentieth of the create.
        mode = 0 if update is None else int(_bulk.upsert_mode(update))
        metas = self._metas
        meta = metas.get(class_name) if metas is not None else None  # type: ignore[arg-type]  # a model: _meta
        if meta is None:
            meta = self._meta(class_name)
        if values.__class__ is not dict and not isinstance(values, Mapping):
            raise TypeError(f"values must be a dict of property values, not {type(values).__name__}")
        if meta.embedded:
            raise LogicError(f"{meta.name} is embedded: create it as the value of a parent's property "
                             "(assign a dict to it)", _ffi.Status.LOGIC)
        # Links given as dicts and collections are set once the object exists, in a savepoint:
        # a value that fails then leaves nothing behind (the object, the objects made from dicts).
        later = {n: v for n, v in values.items()
                 if n in meta.type_of and (n not in meta.single_value or (n in meta.target_of and isinstance(v, Mapping)))} \
            if not meta.deferrable.isdisjoint(values) else None
        if later:
            for name, value in later.items():
                if name not in meta.single_value:
                    check_collection_value(meta, name, value)  # before anything is written
            with self._atomic():
                obj = self.create(class_name, {n: v for n, v in values.items() if n not in later}, update)
                for name, value in later.items():
                    obj[name] = value
            return obj
        names = tuple(values)
        row = list(values.values())
        # Plain values go into this thread's scratch, read by the call before any other packing.
        address = packed_row_address(row)
        keep = None
        if address is None:  # not only plain values: links among them, perhaps
            for value in row:
                if isinstance(value, RealmObject):
                    check_same_realm(self, value)
            arr, keep = pack_row(row)
            address = None if arr is None else ctypes.addressof(arr)
        realm_address = self._address
        if realm_address is None:
            self._h()  # raises
        # The object's key lands in this realm's buffer, read at once; no handle is made. A create
        # without an upsert goes through the realm's db_object_creator_t for these names (three
        # arguments a call, where create_many_with_keys takes eight, each costing ctypes 0.1 us).
        creator = meta.creators.get(names) if mode == 0 and self._owned else 0
        if creator is None:
            creator = self._object_creator(meta, names)
        if creator:
            status = _creator_create_at(creator, address, self._found_at)
        else:
            keys = meta.keys_for.get(names)
            if keys is None:
                keys = self._keys(meta, names)
            status = _create_with_keys_at(realm_address, meta.key, ctypes.addressof(keys), len(names),
                                          address, 1, mode, self._found_at)
        del keep
        if status:
            _ffi.raise_last_error(status)
        made: Any = meta.object_type
        if made is None or not self._owned:
            return self._keyed_object(meta, self._found.key)
        return cast(RealmObject, made._unresolved(self, meta, self._found.key, (), -1))

    def create_many(self, class_name: Union[str, type], rows: Iterable[Union[Mapping[str, object], Sequence[object]]],
                    properties: Optional[Sequence[str]] = None, update: Optional[str] = None) -> int:
        """Create many objects with one C call; returns the number created.

        ``rows`` are dicts (all with the same keys), or tuples/lists whose values
        follow ``properties``. Values may be lists, sets and dicts for collection
        properties, and dicts for linked objects, as in :meth:`create`: the objects that
        nested dicts describe are created in one more call per property, then each row's
        collections are filled. On failure the rows before the failing one stay in
        the write transaction (``with realm.write()`` cancels them).
        """
        return _bulk.create_many(self, class_name, rows, properties, update)

    def delete(self, obj: RealmObject) -> None:
        """Delete an object (in a write transaction); its accessors become invalid."""
        if not isinstance(obj, RealmObject):
            raise TypeError(f"delete() takes a RealmObject, not {type(obj).__name__}")
        lib.db_object_delete(obj._handle())

    @overload
    def object_for_primary_key(self, class_name: str, primary_key: object) -> Optional[RealmObject]: ...
    @overload
    def object_for_primary_key(self, class_name: Type[_M], primary_key: object) -> Optional[_M]: ...

    def object_for_primary_key(self, class_name: Union[str, Type[_M]],
                               primary_key: object) -> Union[Optional[RealmObject], Optional[_M]]:
        """The object with this primary key (of a class named, or of a model class), or None."""
        # The common lookup (a class named, an int key, in a realm of this process) in one frame:
        # each call or ctypes object it made cost a tenth of the lookup.
        metas = self._metas
        meta = metas.get(class_name) if metas is not None else None  # type: ignore[arg-type]  # a model: _meta
        if meta is None:
            meta = self._meta(class_name)
        if primary_key.__class__ is int and -0x8000000000000000 <= primary_key <= 0x7FFFFFFFFFFFFFFF:
            packed: object = _PACK_INT(_INT_TAG, primary_key)
        else:
            packed = packed_scalar(primary_key)
            if packed is None:
                value = db_value_t()
                keep: List[object] = []
                pack_value_into(value, 0, primary_key, keep)
                packed = ctypes.addressof(value)
        address = self._address
        if address is None:
            self._h()  # raises
        # The answer lands in this realm's own buffer, read before anything else can call (a realm
        # is confined to its thread).
        found = self._found
        found_at = self._found_at
        if self._shared:
            found = _FoundKey()
            found_at = ctypes.addressof(found)
        made: Any = meta.object_type
        if meta.lookup_reads and made is not None:
            lookups = meta.lookups = meta.lookups + 1
            reader = meta.reader
            if reader is None:
                reader = self._object_reader(meta)
            if lookups & 15 and reader:
                # Objects of this class looked up are read: the row with the key, in one call of
                # the class's db_object_reader_t, as RealmObject._load_by_key reads it.
                stamp = self._counter.value
                status = _reader_find_at(reader, packed, found_at, found_at + _FOUND_OFFSET)
                if status:
                    _ffi.raise_last_error(status)
                if not found.found:
                    return None
                row = decode_row_in(meta.reader_memory.raw, len(meta.row_names), meta.reader_values)  # type: ignore[union-attr]  # made with reader
                return cast(RealmObject, made._unresolved(self, meta, found.key, row, stamp))
            # One lookup in 16 reads only the key, to see whether its object is read before the next.
            if not meta.probe_read:
                meta.lookup_reads = False
            meta.probe_read = False
        # Only the key: a lookup made to link, write or delete reads nothing. The object reads its
        # row by key at its first read, which turns the lookups above on (ClassMeta.lookup_reads).
        status = _find_key_with_primary_key_at(address, meta.key, packed, found_at, found_at + _FOUND_OFFSET)
        if status:
            _ffi.raise_last_error(status)
        if not found.found:
            return None
        key = meta.probe_key = found.key
        if made is None or not self._owned:
            return self._keyed_object(meta, key)
        return cast(RealmObject, made._unresolved(self, meta, key, (), -1))
