"""RealmObject: an accessor to one object of an open realm."""
from __future__ import annotations

import base64
import ctypes
import datetime as _dt
import decimal
import uuid
from collections.abc import Mapping, Sequence as SequenceABC, Set as AbstractSet
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Type, Union, cast

from . import _ffi
from ._arguments import c_string
from ._c_types import VALUE_SIZE, CollectionType, ObjectHandle, PropertyType, db_class_key_t, db_object_key_t, db_value_t
from ._ffi import lib, raise_last_error
from ._own_writes import still_current
from ._schema import ClassMeta, ClassSchema, check_collection_value
from ._properties import MISSING, DirectProperty, RowProperty, write_by_key
from ._values import (Link, StoredValue, decode_at, decode_row, decode_row_in, decode_values, pack_value_into,
                      register_link_type)
from .errors import ClosedRealmError, InvalidatedError, LogicError, NotFoundError
from .notifications import NotificationToken, ObjectChange, observe_object
from .objectid import ObjectId

if TYPE_CHECKING:  # annotations only: the realm and row batch modules are above this one
    from ._row_batch import RowBatch
    from .realm import Realm

_SLOTS = ("_realm", "_ptr", "_key", "_meta", "_release", "_hash", "_link", "_row", "_stamp", "_batch", "__weakref__")
_byref = ctypes.byref
_get_value = lib.db_object_get_value
#: Values set without looking for links, dicts or collections (see ``_set``).
_PLAIN = frozenset((int, float, str, bool, type(None), bytes))
#: The change counter of a realm whose objects cache nothing (borrowed by a migration, closed):
#: rows are stamped only with a counter's nonzero value, so none ever matches this one.
NO_CACHE = ctypes.c_uint64(0)
_get_value_by_name = lib.db_object_get_value_by_name
_set_value = lib.db_object_set_value
_set_value_by_name = lib.db_object_set_value_by_name
_get_by_key = lib.db_object_get_by_key
_get_values = lib.db_object_get_values
# Once per object read or written: the declarations with addresses and bare statuses (_ffi.addressed).
_get_values_by_key_at = _ffi.addressed.db_object_get_values_by_key
_reader_read = _ffi.addressed.db_object_reader_read
_addressof = ctypes.addressof
_create_buffer = ctypes.create_string_buffer
#: The bytes of strings an object's row is read with at once (see RealmObject._load_by_key).
ROW_TEXT_BYTES = 512


class _HandleRelease(_ffi.HandleOwner):
    """Releases an object's own handle when collected (or at once, ``release``): held only by the
    RealmObjects that own a handle, so that those without one (objects iterated, looked up or
    created, read and written by key) run no finalizer when they go."""

    __slots__ = ("ptr",)

    def __init__(self, ptr: ObjectHandle) -> None:
        self.ptr: Optional[ObjectHandle] = ptr

    def release(self) -> None:
        ptr = self.ptr
        if ptr is not None:
            self.ptr = None
            lib.db_object_release(ptr)

    _finalize = release


class RealmObject:
    """An object stored in a realm, read and written through its properties.

    Properties are available as attributes (``obj.age``) and items (``obj["age"]``);
    an unknown name raises AttributeError or KeyError respectively. Each object is an
    instance of its class's own type (``type(obj).__name__`` is the class name), a
    subclass of RealmObject. A value read is kept until anything the realm shows may
    have changed (a write through it, a refresh, a commit or cancel, a close: the
    library's change counter), so reading it again costs no C call; each write is one
    C call. Writes must happen in a write transaction (else :class:`WrongTransactionState`).

    Property names that collide with the methods below (``to_dict``, ``is_valid``,
    ``object_schema``, ``observe``, ``freeze``, ``thaw``, ``is_frozen``) are reachable with
    the item form only.

    Two accessors are equal when they name the same database object; accessors
    are hashable by (realm path, class key, object key).
    """

    __slots__ = _SLOTS

    _realm: Realm
    _ptr: Optional[ObjectHandle]
    #: Set (with no handle yet) for an object known by its key (iterated, looked up, created, or
    #: followed through a link; see ``_unresolved``): read and written by key, its handle is made
    #: at the first use that needs one (see ``_handle``).
    _key: Optional[int]
    _meta: ClassMeta
    #: The release of the handle, for an object that owns one (None: no handle, or one lent by a
    #: migration or a sectioned-results callback, which the library releases).
    _release: Optional[_HandleRelease]
    _hash: Optional[int]
    #: (class key, object key) once known: made when first needed for an object known by its key.
    _link: Optional[Tuple[int, int]]
    #: The values of the single-valued properties (``_meta.row_names``; MISSING where not read
    #: yet), current while the realm's change counter holds ``_stamp`` (see ``_load``).
    _row: Sequence[object]
    _stamp: int
    #: For an object an iteration handed out: the batch whose rows are read a property at a
    #: time for all its objects (see ``_row_batch``); its ``_row`` is one of them.
    _batch: Optional[RowBatch]

    def __new__(cls, realm: Realm, ptr: ObjectHandle, meta: ClassMeta, owned: bool = True) -> RealmObject:
        # Every object is an instance of its class's own type, whose descriptors read the row.
        if cls is RealmObject:
            cls = object_type(meta)
        return super().__new__(cls)

    def __init__(self, realm: Realm, ptr: Optional[ObjectHandle], meta: ClassMeta, owned: bool = True) -> None:
        self._realm = realm
        self._ptr = ptr
        self._key = None
        self._meta = meta
        self._release = _HandleRelease(ptr) if owned and ptr is not None else None
        self._hash = None
        self._link = None
        self._row = ()
        self._stamp = -1
        self._batch = None

    # -- lifetime ---------------------------------------------------------

    @classmethod
    def _unresolved(cls, realm: Realm, meta: ClassMeta, key: int, row: Sequence[object], stamp: int,
                    batch: Optional[RowBatch] = None) -> RealmObject:
        """An object known by its key (and its row, read at counter value ``stamp``), whose handle
        is made only if a use needs one (a collection, an observer, ...): its values are read and
        written by key (db_object_get_values_by_key, db_object_set_value_by_key), so a point read
        or a loop that reads and writes makes no handle at all. Only for a realm that owns its
        handle (a migration's realm tracks handles, see Realm._wrap)."""
        obj = object.__new__(cls)
        # As __init__, without its call: iterations make one per object (the iteration over rows
        # read ahead, Results._objects_with_rows, makes its objects as this does, inline).
        obj._realm = realm
        obj._ptr = None
        obj._key = key
        obj._meta = meta
        obj._release = None
        obj._hash = None
        # Not (meta.key, key): made where needed (``link_of``, ``_load``, ``write_by_key``), as
        # a loop that keeps its objects would keep one more tracked tuple per object for the
        # garbage collector to traverse.
        obj._link = None
        obj._row = row
        obj._stamp = stamp
        obj._batch = batch
        return obj

    def _handle(self) -> ObjectHandle:
        ptr = self._ptr
        if ptr is None:
            key = self._key
            if key is not None:
                try:
                    ptr = cast(ObjectHandle, _get_by_key(self._realm._h(), self._meta.key, key))
                except NotFoundError:
                    raise InvalidatedError(f"this {self._meta.name} object has been deleted",
                                           _ffi.Status.INVALIDATED) from None
                self._release = _HandleRelease(ptr)
                self._ptr = ptr
                if self._link is None:
                    self._link = (self._meta.key, key)  # the key goes; the identity stays known
                self._key = None
                return ptr
            raise InvalidatedError(
                f"this {self._meta.name} accessor is no longer valid (it was borrowed by a "
                "migration callback that has returned, or released)", _ffi.Status.INVALIDATED)
        return ptr

    def _kill(self) -> None:
        """Drop the handle: release it if owned; later use raises InvalidatedError."""
        release = self._release
        self._release = None
        self._ptr = None
        self._key = None
        self._stamp = -1  # later reads go to _handle(), which raises
        if release is not None:
            release.release()

    # -- values -----------------------------------------------------------

    def _load(self, index: int) -> StoredValue:
        """Read the property at ``index`` of the row through the library and keep it while the
        realm's change counter stays where it was before the call (nothing the realm shows can
        change without moving it). The first property read at a counter value is read alone (a loop
        that reads one property and writes it decodes nothing else); a second reads the whole row
        in one call (an object read for several properties costs two calls, not one per property).
        The row starts empty (MISSING) at each new value, unless an iteration read it whole."""
        ptr = self._ptr
        meta = self._meta
        realm = self._realm
        stamp = realm._counter.value
        row = self._row
        key = self._key
        if key is None and self._link is not None:
            key = self._link[1]  # the key went with a handle; the identity stays known
        if key is not None and stamp and still_current(realm, self._stamp, stamp, meta.key, key):
            # Only plain writes to other objects since the row was read: it is still current.
            value = row[index]
            self._stamp = stamp
            if value is not MISSING:
                return cast(StoredValue, value)
        batch = self._batch
        if batch is not None and stamp and self._stamp == stamp and batch.load(index):
            # An object of an iteration's batch, its row current: the property is read for the
            # whole batch at once (see results.RowBatch).
            value = self._row[index]
            if value is not MISSING:
                return cast(StoredValue, value)
        if ptr is None:
            if self._key is None:
                self._handle()  # raises: the accessor has expired
            return self._load_by_key(index, stamp)
        if stamp and self._stamp == stamp and row.__class__ is list:
            count = len(meta.row_names)
            out = (db_value_t * count)()
            _get_values(ptr, meta.row_keys, count, out)
            whole = decode_row(bytes(out), count)
            self._row = whole
            return whole[index]
        name = meta.row_names[index]
        value = self._read(ptr, name, meta.key_of[name])
        if stamp:
            row = [MISSING] * len(meta.row_names)
            row[index] = value
            self._row = row
            self._stamp = stamp
        return value

    def _load_by_key(self, index: int, stamp: int) -> StoredValue:
        """The whole row of an object without a handle, in one call by its key (the call that
        also tells whether the object still exists: InvalidatedError when it does not)."""
        meta = self._meta
        if self._key == meta.probe_key:
            # The object of the last lookup made without its row is read: lookups of this class
            # read the row with the key (Realm.object_for_primary_key).
            meta.lookup_reads = meta.probe_read = True
        count = len(meta.row_names)
        realm = self._realm
        reader = meta.reader
        if reader is None:
            reader = realm._object_reader(meta)
        if reader and realm._address is not None:
            # The class's db_object_reader_t: the values, then the bytes of their strings, in one
            # piece of its memory, decoded from one copy of it with no call per string
            # (ROW_TEXT_BYTES covers the usual row).
            status = _reader_read(reader, self._key)
            if status:
                raise_last_error(status)
            whole = decode_row_in(meta.reader_memory.raw, count, meta.reader_values)  # type: ignore[union-attr]  # made with reader
        else:
            # A migration's realm (by key, through the realm: ClosedRealmError once it is closed).
            size = count * VALUE_SIZE + ROW_TEXT_BYTES
            out = _create_buffer(size)
            address = _addressof(out)
            status = _get_values_by_key_at(realm._a(), meta.key, self._key, _addressof(meta.row_keys), count,
                                           address, address + count * VALUE_SIZE, ROW_TEXT_BYTES)
            if status:
                raise_last_error(status)
            whole = decode_row_in(out.raw, count, address)
        self._row = whole
        self._stamp = stamp
        return whole[index]

    def _read(self, ptr: ObjectHandle, name: str, key: int) -> StoredValue:
        """One property's value through the library (by name where the schema has no keys)."""
        out = db_value_t()
        if self._meta.by_name:
            _get_value_by_name(ptr, c_string(name, "property name"), _byref(out))
        else:
            _get_value(ptr, key, _byref(out))
        return decode_at(bytes(out))

    def _get(self, name: str, key: int) -> Any:
        meta = self._meta
        index = meta.row_index.get(name)
        if index is None:
            if self._ptr is None:
                self._handle()
            return self._relationship(name, key)
        value = self._row[index] if self._stamp == self._realm._counter.value else MISSING
        if value is MISSING:
            value = self._read(self._handle(), name, key) if meta.by_name else self._load(index)
        return self._realm._object_from_link(value) if isinstance(value, Link) else value

    def _relationship(self, name: str, key: int) -> Any:
        """A list, set or dictionary property as its live view; linkingObjects as Results. The
        realm makes them (their modules are above this one): see ``Realm._collection``."""
        if self._meta.type_of[name] == PropertyType.LINKING_OBJECTS:
            return self._realm._linking_objects(self, name, key)
        return self._realm._collection(self, name, key)

    def _set(self, name: str, key: int, value: object) -> None:
        meta = self._meta
        # The common case, a plain value for a single-valued property, has no link, dict or
        # collection to look at.
        if value.__class__ not in _PLAIN or name not in meta.single_value:
            if self._set_relationship(name, key, value):
                return
            check_same_realm(self._realm, value)
        if self._key is not None and self._ptr is None:
            read_back = meta.plain_write.get(name)
            write_by_key(self, key, value, meta.row_index[name] if read_back is not None else None, read_back)
            return
        val = db_value_t()
        keep: List[object] = []
        pack_value_into(val, 0, value, keep)
        ptr = self._handle()  # raises if the accessor has expired
        if meta.by_name:
            _set_value_by_name(ptr, c_string(name, "property name"), _byref(val))
        else:
            _set_value(ptr, key, val)

    def _set_relationship(self, name: str, key: int, value: object) -> bool:
        """Set a collection (replacing its contents) or a link given as a dict (creating or
        updating its object); False when ``value`` is for neither, to be set as it is."""
        meta = self._meta
        if name not in meta.single_value:
            check_collection_value(meta, name, value)  # before anything changes
            # Assigning a whole collection replaces its contents (all or nothing).
            collection = self._realm._collection(self, name, key)
            with self._realm._atomic():
                collection._assign(value)
            return True
        if isinstance(value, Mapping) and name in meta.target_of:
            target = self._realm._meta(meta.target_of[name])
            # The new object and the link to it in one savepoint: a value that fails leaves the
            # old embedded object (or the old link) in place.
            with self._realm._atomic():
                if target.embedded:
                    child = self._realm._wrap(lib.db_object_create_embedded(self._handle(), key), target)
                    self._realm._fill(child, value)
                    return True
                self._set(name, key, self._realm._object_for_dict(target.name, value))
            return True
        return False

    def __getattr__(self, name: str) -> Any:
        """For mypy only: a property of a schema given as dicts is Any. Deleted from the class
        below, so that it never runs."""
        raise AttributeError(name)


    def __getitem__(self, name: str) -> Any:
        key = self._meta.key_of.get(name)
        if key is None:
            raise KeyError(name)
        return self._get(name, key)

    def __setitem__(self, name: str, value: object) -> None:
        key = self._meta.key_of.get(name)
        if key is None:
            raise KeyError(name)
        self._set(name, key, value)

    def __contains__(self, name: object) -> bool:
        return name in self._meta.key_of

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._meta.names))

    def freeze(self) -> RealmObject:
        """This object at the version its realm reads now: immutable, usable from any thread."""
        if self.is_frozen:
            return self
        frozen_realm = self._realm.freeze()
        return RealmObject(frozen_realm, lib.db_object_freeze(self._handle()), self._meta)

    def thaw(self) -> Optional[RealmObject]:
        """The live object in the realm this one was frozen from, or None if it was deleted since."""
        if not self.is_frozen:
            return self
        ptr = lib.db_object_thaw(self._handle())
        return None if ptr is None else RealmObject(self._realm.thaw(), ptr, self._meta)

    @property
    def realm(self) -> Realm:
        """The realm this object belongs to (a frozen object's frozen realm). A property of the
        schema named ``realm`` takes the name instead."""
        return self._realm

    @property
    def is_frozen(self) -> bool:
        return bool(lib.db_object_is_frozen(self._handle()))

    def observe(self, callback: Callable[[ObjectChange], None],
                key_paths: Optional[Sequence[str]] = None) -> NotificationToken:
        """Call ``callback(change)`` when this object changes: ``change.deleted``, or
        ``change.properties`` (names) with ``change.old_values`` and ``change.new_values``.
        No initial call. Shallow by default: a linked object's change counts only where
        ``key_paths`` name it (``["owner.name"]``). Returns a NotificationToken."""
        return observe_object(self._realm, self._handle, self._meta.key_of, callback, key_paths)

    def to_dict(self, depth: Optional[int] = None) -> Dict[str, Any]:  # Any: each property's own type
        """Every property's value (linkingObjects are left out).

        ``to_dict()``: Python values, read with one C call where the class allows; links as
        objects, lists as lists, sets as sets, dictionaries as dicts.

        ``to_dict(depth=n)``: a dict that ``json.dumps`` takes, as :func:`realmdb.to_record`
        builds it: linked objects as their primary keys (``depth=0``) or as nested dicts ``n``
        levels deep, dates and ObjectIds as text, binary data as base64, embedded objects nested."""
        if depth is not None:
            if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
                raise ValueError(f"depth must be an int, 0 or more, not {depth!r}")
            return record_of(self, depth)
        ptr = self._handle()
        meta = self._meta
        names = meta.names
        if meta.by_name:
            return {name: self._get(name, -1) for name in names if name in meta.single_value}
        if len(meta.single_value) != len(names):
            out_dict: Dict[str, Any] = {}
            for name in names:
                if meta.type_of[name] == PropertyType.LINKING_OBJECTS:
                    continue
                value = self._get(name, meta.key_of[name])
                kind = meta.kind_of[name]
                if kind == CollectionType.LIST:
                    value = list(value)
                elif kind == CollectionType.SET:
                    value = set(value)
                elif kind == CollectionType.DICTIONARY:
                    value = dict(value.items())
                out_dict[name] = value
            return out_dict
        n = len(names)
        if n == 0:
            return {}
        out = (db_value_t * n)()
        lib.db_object_get_values(ptr, meta.keys_array, n, out)
        return dict(zip(names, decode_values(bytes(out), n)))

    # -- identity ---------------------------------------------------------

    @property
    def is_valid(self) -> bool:
        """False once the object is deleted, its realm closed, or a borrowed accessor expired."""
        try:
            ptr = self._handle()
        except (InvalidatedError, ClosedRealmError):
            return False
        return bool(lib.db_object_is_valid(ptr))

    @property
    def object_schema(self) -> ClassSchema:
        """The class's schema in the normalized dict form (see ``Realm.schema``)."""
        s = self._meta.schema
        return {"name": s["name"], "primary_key": s["primary_key"],
                "properties": {k: v.copy() for k, v in s["properties"].items()}}

    def _object_key(self) -> int:
        key = db_object_key_t()
        lib.db_object_get_key(self._handle(), _byref(key))
        return int(key.value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RealmObject):
            return NotImplemented
        if self is other:
            return True
        try:
            a, b = self._handle(), other._handle()
        except (InvalidatedError, ClosedRealmError):
            return False
        return bool(lib.db_object_equals(a, b))

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        h: Optional[int] = self._hash
        if h is None:
            h = hash((self._realm._identity, self._meta.key, self._object_key()))
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        try:
            return str(lib.db_object_description(self._handle()))
        except Exception:
            pass
        return f"<realmdb.RealmObject {self._meta.name} (invalid)>"

    def __reduce__(self) -> Tuple[object, ...]:
        raise TypeError("RealmObject accessors cannot be pickled; use to_dict()")



# Properties are attributes of each class's own type (``object_type``), one descriptor each, so
# RealmObject needs no __getattr__ at run time; defining one would also slow every attribute of
# every object (the row's slots included): CPython reads the attributes of a type with a
# __getattr__ through a slower lookup it cannot specialize. An unknown name is the usual
# AttributeError ("'Person' object has no attribute 'nope'").
del RealmObject.__getattr__

#: A property value as read through an object, a collection or a notification: the value types
#: of the schema's types, with links as the objects they point to. Collections and
#: linkingObjects properties read as List, Set, Dictionary and Results instead.
RealmValue = Union[None, bool, int, float, str, bytes, _dt.datetime, ObjectId, uuid.UUID, decimal.Decimal, RealmObject]


def check_same_realm(realm: Realm, value: object) -> None:
    """Refuse to link (or query with) an object of another realm file: its key would name
    whatever object has the same key here."""
    if isinstance(value, RealmObject) and value._realm is not realm and value._realm._path != realm._path:
        raise LogicError(f"the {value._meta.name} object belongs to the realm at {value._realm._path!r}, "
                         f"not to {realm._path!r}: copy its values instead of linking it", _ffi.Status.LOGIC)


def link_of(obj: RealmObject) -> Tuple[int, int]:
    """(class key, object key) of an object (InvalidatedError for an expired accessor): an object's
    identity never changes, so it is read once."""
    link = obj._link
    if link is None and obj._key is not None:
        link = (obj._meta.key, obj._key)
    if link is not None:
        obj._handle()  # still refuse an expired accessor
        return link
    key = db_object_key_t()
    cls = db_class_key_t()
    ptr = obj._handle()
    lib.db_object_get_class_key(ptr, _byref(cls))
    lib.db_object_get_key(ptr, _byref(key))
    link = (int(cls.value), int(key.value))
    object.__setattr__(obj, "_link", link)
    return link


register_link_type(RealmObject, link_of)


def object_type(meta: ClassMeta) -> Type[RealmObject]:
    """The Python type of ``meta``'s objects: a subclass of RealmObject (of the model class, for
    a realm opened with models) named after the class,
    with a descriptor per property (see ``_properties``), made once per class of a realm.
    Properties whose names RealmObject already uses (its methods) stay reachable as items; a
    property named ``realm`` takes that name from the object's realm (the schema's name wins)."""
    if meta.object_type is not None:
        return cast(Type[RealmObject], meta.object_type)
    taken = set(dir(RealmObject)) - {"realm"}
    base = meta.model or RealmObject
    attributes: Dict[str, object] = {"__slots__": (), "__module__": base.__module__ if meta.model else __name__,
                                     "__qualname__": meta.name}
    if meta.model is not None:
        attributes["_bound_model"] = meta.model  # a model's realm type: no model of its own
    for name in meta.names:
        if name in taken or name.startswith("__"):
            continue
        index = meta.row_index.get(name)
        if index is None or meta.by_name:
            attributes[name] = DirectProperty(name, meta.key_of[name])
        else:
            may_link = meta.type_of[name] in (PropertyType.OBJECT, PropertyType.MIXED)
            attributes[name] = RowProperty(name, meta.key_of[name], index, may_link, meta.plain_write.get(name))
    made = type(meta.name, (base,), attributes)
    register_link_type(made, link_of)  # stored as links, found by exact type like RealmObject
    meta.object_type = made
    return made


# -- records: objects as JSON holds them (to_dict(depth=...), realmdb.to_record, realmdb export) --


def stored_names(meta: ClassMeta) -> List[str]:
    """A class's properties that a record holds: all but linkingObjects (computed, not stored)."""
    return [name for name in meta.names if meta.type_of[name] != PropertyType.LINKING_OBJECTS]


def record_of(obj: RealmObject, depth: int) -> Dict[str, Any]:  # Any: JSON's values
    """Every stored property of an object, as a record."""
    return {name: plain_value(obj[name], depth) for name in stored_names(obj._meta)}


def plain_value(value: Any, depth: int) -> Any:
    """A value as JSON can hold it: links as primary keys (or records, ``depth`` levels deep),
    embedded objects as records, dates in ISO 8601, binary data in base64, ObjectIds, UUIDs and
    decimals as text, dictionaries as objects, lists, sets and results as arrays."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, RealmObject):
        meta = value._meta
        if meta.embedded or depth > 0:
            return record_of(value, depth if meta.embedded else depth - 1)
        if meta.primary_key is not None:
            return plain_value(value[meta.primary_key], 0)
        return value._object_key()
    if isinstance(value, _dt.datetime):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (ObjectId, uuid.UUID, decimal.Decimal)):
        return str(value)
    if isinstance(value, Mapping):  # dict, realmdb.Dictionary
        return {str(k): plain_value(v, depth) for k, v in value.items()}
    if isinstance(value, (SequenceABC, AbstractSet)):  # list, tuple, set, realmdb.List, Set, Results
        return [plain_value(v, depth) for v in value]
    return str(value)

