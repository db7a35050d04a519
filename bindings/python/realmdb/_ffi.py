"""Every C declaration of libdb.so, in one place.

This module mirrors ``Sources/CDBTypes/include/db_types.h`` (types) and the C
API (functions). Each function is declared exactly once with ``argtypes``,
``restype`` and, when it can fail, an ``errcheck`` that turns the status code
(or a NULL result) into a :class:`realmdb.RealmError` subclass, reading the
details with ``db_get_last_error`` right away, before any other library call.

Every handle type gets its own pointer type (``RealmP``, ``ObjectP``, ...), so a
realm can never be passed where an object is expected. Callback types are
declared once here (``MigrationFunc``, ``MigrationObjectFunc``,
``FreeUserdataFunc``); whoever registers an instance keeps it referenced.

Nothing else in the package touches ``ctypes.CDLL`` or declares a prototype.
"""
from __future__ import annotations

import ctypes
import enum
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    Union,
    c_bool,
    c_char,
    c_char_p,
    c_double,
    c_float,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

from . import errors

# --------------------------------------------------------------------------
# Locating the library
# --------------------------------------------------------------------------

#: Environment variable naming the libdb.so to load (takes precedence).
LIBRARY_ENV = "REALMDB_LIBRARY"

#: The repository root when running from a source checkout
#: (bindings/python/realmdb -> three levels up).
REPO_ROOT = Path(__file__).resolve().parents[3]

#: Build outputs tried when REALMDB_LIBRARY is not set; the newest one wins.
CANDIDATES = (
    REPO_ROOT / ".build" / "release" / "libdb.so",
    REPO_ROOT / ".build" / "debug" / "libdb.so",
    REPO_ROOT / "build" / "libdb.so",
)


def find_library() -> str:
    """Return the path of libdb.so to load.

    ``$REALMDB_LIBRARY`` if set; otherwise the most recently modified of
    :data:`CANDIDATES` that exists. Raises :class:`ImportError` when none is found.
    """
    env = os.environ.get(LIBRARY_ENV)
    if env:
        return env
    found = []
    for path in CANDIDATES:
        try:
            found.append((path.stat().st_mtime, str(path)))
        except OSError:
            continue
    if not found:
        tried = ", ".join(str(p) for p in CANDIDATES)
        raise ImportError(
            f"realmdb: libdb.so not found; set {LIBRARY_ENV} or build the library (tried {tried})"
        )
    return max(found)[1]


class _State:
    """Process-wide flags shared by the handle owners."""

    #: Set by the atexit hook once every realm is closed: finalizers then stop
    #: calling into the library (the process is exiting; nothing leaks).
    shutting_down = False


state = _State()

LIBRARY_PATH = find_library()
lib = ctypes.CDLL(LIBRARY_PATH)

# --------------------------------------------------------------------------
# Enums
# --------------------------------------------------------------------------


class Status(enum.IntEnum):
    """db_status_e."""

    OK = 0
    INVALID_ARGUMENT = 1
    NOT_FOUND = 2
    WRONG_TYPE = 3
    NOT_NULLABLE = 4
    MISSING_VALUE = 5
    WRONG_TRANSACTION_STATE = 6
    INVALIDATED = 7
    CLOSED_REALM = 8
    DUPLICATE_PRIMARY_KEY = 9
    SCHEMA_INVALID = 10
    MIGRATION_REQUIRED = 11
    MIGRATION_FAILED = 12
    READ_ONLY = 13
    FILE_ACCESS = 14
    FILE_FORMAT = 15
    TOO_MANY_ACTIVE_VERSIONS = 16
    OUT_OF_RANGE = 17
    LOGIC = 18
    STORAGE = 19
    CALLBACK = 20
    QUERY = 21
    WRONG_THREAD = 22
    NOT_SUPPORTED = 23
    OUT_OF_MEMORY = 24
    INTERNAL = 25


class ValueType(enum.IntEnum):
    """db_value_type_e: the tag of a db_value_t."""

    NULL = 0
    BOOL = 1
    INT = 2
    FLOAT = 3
    DOUBLE = 4
    STRING = 5
    DATA = 6
    TIMESTAMP = 7
    OBJECT_ID = 8
    UUID = 9
    DECIMAL128 = 10
    LINK = 11


class PropertyType(enum.IntEnum):
    """db_property_type_e."""

    BOOL = 1
    INT = 2
    FLOAT = 3
    DOUBLE = 4
    STRING = 5
    DATA = 6
    TIMESTAMP = 7
    OBJECT_ID = 8
    UUID = 9
    DECIMAL128 = 10
    OBJECT = 11
    LINKING_OBJECTS = 12
    MIXED = 13


class CollectionType(enum.IntEnum):
    """db_collection_type_e."""

    NONE = 0
    LIST = 1
    SET = 2
    DICTIONARY = 3


class ClassFlag(enum.IntFlag):
    """db_class_flags_e."""

    NONE = 0
    EMBEDDED = 1


class PropertyFlag(enum.IntFlag):
    """db_property_flags_e."""

    NONE = 0
    NULLABLE = 1
    PRIMARY_KEY = 2
    INDEXED = 4


class Aggregate(enum.IntEnum):
    """db_aggregate_e."""

    MIN = 0
    MAX = 1
    SUM = 2
    AVERAGE = 3


class UpsertMode(enum.IntEnum):
    """db_upsert_mode_e."""

    NONE = 0
    MODIFIED = 1
    ALL = 2


# --------------------------------------------------------------------------
# Structs and handles
# --------------------------------------------------------------------------


class db_error_t(Structure):
    """The thread's last error; ``message`` is borrowed until the next call."""

    _fields_ = [("code", c_int), ("message", c_char_p), ("offset", c_int64)]


class db_config_t(Structure):
    """Opaque open configuration."""

    _fields_ = [("_opaque", c_char)]


class db_schema_t(Structure):
    """Opaque immutable schema."""

    _fields_ = [("_opaque", c_char)]


class db_realm_t(Structure):
    """Opaque open realm."""

    _fields_ = [("_opaque", c_char)]


class db_object_t(Structure):
    """Opaque object accessor."""

    _fields_ = [("_opaque", c_char)]


class db_migration_t(Structure):
    """Opaque migration in progress (valid only during the callback)."""

    _fields_ = [("_opaque", c_char)]


class db_results_t(Structure):
    """Opaque live results (or a snapshot): valid while its realm is open."""

    _fields_ = [("_opaque", c_char)]


class db_list_t(Structure):
    """Opaque live list property of one object."""

    _fields_ = [("_opaque", c_char)]


class db_set_t(Structure):
    """Opaque live set property of one object."""

    _fields_ = [("_opaque", c_char)]


class db_dictionary_t(Structure):
    """Opaque live dictionary property of one object."""

    _fields_ = [("_opaque", c_char)]


class db_notification_token_t(Structure):
    """Opaque notification registration."""

    _fields_ = [("_opaque", c_char)]


class db_collection_change_t(Structure):
    """Opaque collection change, borrowed during a callback."""

    _fields_ = [("_opaque", c_char)]


class db_object_change_t(Structure):
    """Opaque object change, borrowed during a callback."""

    _fields_ = [("_opaque", c_char)]


class db_index_move_t(Structure):
    """An element that changed position."""

    _fields_ = [("from_", c_size_t), ("to", c_size_t)]


class db_collection_change_counts_t(Structure):
    """The sizes of a collection change's index lists."""

    _fields_ = [("is_initial", c_bool), ("num_deletions", c_size_t), ("num_insertions", c_size_t),
                ("num_modifications", c_size_t), ("num_moves", c_size_t)]


class db_version_info_t(Structure):
    """What pins a file's old versions (db_realm_get_version_info)."""

    _fields_ = [("active_versions", c_size_t), ("readers", c_size_t), ("oldest_reader_lag", c_uint64),
                ("oldest_reader_pid", ctypes.c_int64), ("stale_readers_cleared", c_size_t)]


class db_check_report_t(Structure):
    """What db_realm_check read."""

    _fields_ = [("classes", c_size_t), ("objects", c_size_t), ("values", c_size_t), ("blocks", c_size_t),
                ("index_entries", c_size_t)]


class db_sectioned_results_t(Structure):
    """Opaque sectioned results."""

    _fields_ = [("_opaque", c_char)]


class db_sectioned_change_t(Structure):
    """Opaque sectioned change, borrowed during a callback."""

    _fields_ = [("_opaque", c_char)]


class db_index_path_t(Structure):
    """A (section, item) position."""

    _fields_ = [("section", c_size_t), ("item", c_size_t)]


class db_sectioned_change_counts_t(Structure):
    """The sizes of a sectioned change's lists."""

    _fields_ = [("is_initial", c_bool), ("num_sections_inserted", c_size_t), ("num_sections_deleted", c_size_t),
                ("num_insertions", c_size_t), ("num_deletions", c_size_t), ("num_modifications", c_size_t)]


ConfigP = POINTER(db_config_t)
SchemaP = POINTER(db_schema_t)
RealmP = POINTER(db_realm_t)
ObjectP = POINTER(db_object_t)
MigrationP = POINTER(db_migration_t)
ResultsP = POINTER(db_results_t)
ListP = POINTER(db_list_t)
SetP = POINTER(db_set_t)
DictionaryP = POINTER(db_dictionary_t)
TokenP = POINTER(db_notification_token_t)
CollectionChangeP = POINTER(db_collection_change_t)
ObjectChangeP = POINTER(db_object_change_t)
SectionedP = POINTER(db_sectioned_results_t)
SectionedChangeP = POINTER(db_sectioned_change_t)

db_class_key_t = c_uint32
db_property_key_t = c_int64
db_object_key_t = c_int64


class db_string_t(Structure):
    """UTF-8 text with an explicit size (not NUL-terminated)."""

    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class db_binary_t(Structure):
    """Bytes with an explicit size."""

    _fields_ = [("data", c_void_p), ("size", c_size_t)]


class db_timestamp_t(Structure):
    """Seconds since the Unix epoch plus nanoseconds of the same sign."""

    _fields_ = [("seconds", c_int64), ("nanoseconds", c_int32)]


class db_object_id_t(Structure):
    """12-byte ObjectId, most significant byte first."""

    _fields_ = [("bytes", c_uint8 * 12)]


class db_uuid_t(Structure):
    """16-byte UUID in RFC 4122 order."""

    _fields_ = [("bytes", c_uint8 * 16)]


class db_decimal128_t(Structure):
    """IEEE 754-2008 decimal128, BID encoding; w[0] is the low 64 bits."""

    _fields_ = [("w", c_uint64 * 2)]


class db_link_t(Structure):
    """A link to an object: class key and object key."""

    _fields_ = [("class_key", c_uint32), ("object_key", c_int64)]


class _db_value_payload(Union):
    _fields_ = [
        ("boolean", c_bool),
        ("integer", c_int64),
        ("fnum", c_float),
        ("dnum", c_double),
        ("string", db_string_t),
        ("binary", db_binary_t),
        ("timestamp", db_timestamp_t),
        ("object_id", db_object_id_t),
        ("uuid", db_uuid_t),
        ("decimal128", db_decimal128_t),
        ("link", db_link_t),
    ]


class db_value_t(Structure):
    """Tagged union of every property value.

    The binding reads and writes these through their raw bytes (see
    ``_values.py``); the fields document the layout and are checked below.
    """

    _anonymous_ = ("u",)
    _fields_ = [("type", c_int), ("u", _db_value_payload)]


class db_property_info_t(Structure):
    """Describes one property (strings copied by db_schema_new, borrowed when read)."""

    _fields_ = [
        ("name", c_char_p),
        ("persisted_name", c_char_p),
        ("type", c_int),
        ("flags", c_int),
        ("key", db_property_key_t),
        ("collection_type", c_int),
        ("link_target", c_char_p),
        ("link_origin_property", c_char_p),
    ]


class db_index_info_t(Structure):
    """A compound index: property names in key order."""

    _fields_ = [
        ("properties", POINTER(c_char_p)),
        ("num_properties", c_size_t),
    ]


class db_class_info_t(Structure):
    """Describes one class, its properties and its compound indexes."""

    _fields_ = [
        ("name", c_char_p),
        ("properties", POINTER(db_property_info_t)),
        ("num_properties", c_size_t),
        ("key", db_class_key_t),
        ("indexes", POINTER(db_index_info_t)),
        ("num_indexes", c_size_t),
        ("flags", c_int),
    ]


class db_query_arg_t(Structure):
    """One query argument for $n: one value, or a list (``is_list``) for ``IN $n``; copied by the call."""

    _fields_ = [("num_values", c_size_t), ("is_list", c_bool), ("values", POINTER(db_value_t))]


class db_sort_key_t(Structure):
    """One sort key: a property and a direction."""

    _fields_ = [("property_key", db_property_key_t), ("ascending", c_bool)]


class db_sort_path_t(Structure):
    """One sort key given as a key path ("owner.name") and a direction."""

    _fields_ = [("key_path", c_char_p), ("ascending", c_bool)]


VALUE_SIZE = 24
assert ctypes.sizeof(db_value_t) == VALUE_SIZE and db_value_t.u.offset == 8
assert ctypes.sizeof(db_property_info_t) == 56 and ctypes.sizeof(db_class_info_t) == 56
assert ctypes.sizeof(db_index_info_t) == 16
assert ctypes.sizeof(db_error_t) == 24
assert ctypes.sizeof(db_query_arg_t) == 24 and ctypes.sizeof(db_sort_key_t) == 16

# --------------------------------------------------------------------------
# Callback types (instances must stay referenced while registered)
# --------------------------------------------------------------------------

#: void (*)(void *userdata)
FreeUserdataFunc = CFUNCTYPE(None, c_void_p)
#: db_check_progress_func_t(userdata, done, total)
CheckProgressFunc = CFUNCTYPE(None, c_void_p, c_size_t, c_size_t)
#: bool (*)(void *userdata, db_migration_t *migration, uint64_t old_schema_version)
MigrationFunc = CFUNCTYPE(c_bool, c_void_p, MigrationP, c_uint64)
#: bool (*)(void *userdata, const db_object_t *old_object, db_object_t *new_object)
MigrationObjectFunc = CFUNCTYPE(c_bool, c_void_p, ObjectP, ObjectP)

#: void (*)(void *userdata, const db_collection_change_t *change)
CollectionChangeFunc = CFUNCTYPE(None, c_void_p, CollectionChangeP)
#: void (*)(void *userdata, const db_object_change_t *change)
ObjectChangeFunc = CFUNCTYPE(None, c_void_p, ObjectChangeP)

#: void (*)(void *userdata, const db_sectioned_change_t *change)
SectionedChangeFunc = CFUNCTYPE(None, c_void_p, SectionedChangeP)
#: bool (*)(void *userdata, const db_object_t *object, db_value_t *out_key)
SectionKeyFunc = CFUNCTYPE(c_bool, c_void_p, ObjectP, c_void_p)

#: void (*)(void *userdata): wakes a realm's owner (db_realm_set_scheduler)
SchedulerNotifyFunc = CFUNCTYPE(None, c_void_p)

#: A NULL FreeUserdataFunc (ctypes does not accept None for a function-pointer argtype).
NO_FREE = FreeUserdataFunc()

# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def last_error() -> Optional[errors.RealmError]:
    """The exception for the thread's last error, or None when the last call succeeded."""
    err = db_error_t()
    if not lib.db_get_last_error(ctypes.byref(err)) or err.code == 0:
        return None
    message = err.message.decode("utf-8", "replace") if err.message else ""
    return errors.from_code(err.code, message, err.offset)


def raise_last_error(code: int = Status.INTERNAL) -> NoReturn:
    """Raise the thread's last error; ``code`` is used if the library recorded none."""
    exc = last_error()
    if exc is None:
        name = lib.db_status_string(code).decode("utf-8", "replace")
        exc = errors.from_code(code, f"{name} (no error details recorded)", -1)
    raise exc


def _check_status(result: int, func: Any, args: tuple) -> None:
    if result != 0:
        raise_last_error(result)
    return None


def _check_ptr(result: Any, func: Any, args: tuple) -> Any:
    if not result:
        raise_last_error()
    return result


def _check_optional_ptr(result: Any, func: Any, args: tuple) -> Any:
    """NULL is a normal answer ("absent") unless the library recorded an error."""
    if not result:
        exc = last_error()
        if exc is not None:
            raise exc
        return None
    return result


def _take_string(result: Any, func: Any, args: tuple) -> str:
    """Copy a library-owned ("new") char * into a str and free it."""
    if not result:
        raise_last_error()
    try:
        return ctypes.string_at(result).decode("utf-8", "replace")
    finally:
        lib.db_string_free(result)


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------


def _fn(name: str, restype: Any, argtypes: list, errcheck: Optional[Callable] = None) -> None:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    if errcheck is not None:
        f.errcheck = errcheck


_S = c_int  # db_status_e
_ST = _check_status
CharP = POINTER(c_char)  # a char * the caller must free with db_string_free
KeyArray = POINTER(db_property_key_t)
ValueP = POINTER(db_value_t)

# Library
_fn("db_library_version_string", c_char_p, [])
_fn("db_status_string", c_char_p, [c_int])
_fn("db_get_last_error", c_bool, [POINTER(db_error_t)])
_fn("db_clear_last_error", None, [])
_fn("db_string_free", None, [CharP])

# Schema
_fn("db_schema_new", SchemaP, [POINTER(db_class_info_t), c_size_t], _check_ptr)
_fn("db_schema_release", None, [SchemaP])
_fn("db_schema_get_class_count", c_size_t, [SchemaP])
_fn("db_schema_get_class", _S, [SchemaP, c_size_t, POINTER(db_class_info_t)], _ST)
_fn("db_schema_find_class", _S, [SchemaP, c_char_p, POINTER(c_size_t)], _ST)

# Config
_fn("db_config_new", ConfigP, [c_char_p], _check_ptr)
_fn("db_config_release", None, [ConfigP])
_fn("db_config_set_schema", _S, [ConfigP, SchemaP], _ST)
_fn("db_config_set_schema_version", _S, [ConfigP, c_uint64], _ST)
_fn("db_config_set_in_memory", _S, [ConfigP, c_bool], _ST)
_fn("db_config_set_read_only", _S, [ConfigP, c_bool], _ST)
_fn("db_config_set_max_active_versions", _S, [ConfigP, c_uint64], _ST)
_fn("db_config_set_migration_function", _S, [ConfigP, MigrationFunc, c_void_p, FreeUserdataFunc], _ST)

# Realm
_fn("db_realm_open", RealmP, [ConfigP], _check_ptr)
_fn("db_realm_close", _S, [RealmP], _ST)
_fn("db_realm_release", None, [RealmP])
_fn("db_realm_is_valid", c_bool, [RealmP])
_fn("db_realm_begin_write", _S, [RealmP], _ST)
_fn("db_realm_commit", _S, [RealmP], _ST)
_fn("db_realm_cancel_write", _S, [RealmP], _ST)
_fn("db_realm_is_in_write", c_bool, [RealmP])
_fn("db_realm_begin_savepoint", _S, [RealmP], _ST)
_fn("db_realm_rollback_savepoint", _S, [RealmP], _ST)
_fn("db_realm_release_savepoint", _S, [RealmP], _ST)
_fn("db_realm_refresh", _S, [RealmP, POINTER(c_bool)], _ST)
_fn("db_realm_invalidate", _S, [RealmP], _ST)
_fn("db_realm_get_version", _S, [RealmP, POINTER(c_uint64)], _ST)
_fn("db_realm_get_schema_version", _S, [RealmP, POINTER(c_uint64)], _ST)
_fn("db_realm_get_active_version_count", _S, [RealmP, POINTER(c_uint64)], _ST)
_fn("db_realm_get_version_info", _S, [RealmP, POINTER(db_version_info_t)], _ST)
_fn("db_realm_check", _S, [RealmP, CheckProgressFunc, c_void_p, POINTER(db_check_report_t)], _ST)
_fn("db_realm_get_schema", SchemaP, [RealmP], _check_ptr)
_fn("db_realm_find_class", _S, [RealmP, c_char_p, POINTER(db_class_key_t)], _ST)
_fn("db_realm_find_property", _S, [RealmP, db_class_key_t, c_char_p, POINTER(db_property_key_t)], _ST)
_fn("db_realm_count_objects", _S, [RealmP, db_class_key_t, POINTER(c_size_t)], _ST)

# Objects
_fn("db_object_create", ObjectP, [RealmP, db_class_key_t, KeyArray, ValueP, c_size_t, c_int], _check_ptr)
_fn(
    "db_object_create_many",
    _S,
    [RealmP, db_class_key_t, KeyArray, c_size_t, ValueP, c_size_t, c_int, POINTER(c_size_t)],
    _ST,
)
_fn(
    "db_object_create_many_with_keys",
    _S,
    [RealmP, db_class_key_t, KeyArray, c_size_t, ValueP, c_size_t, c_int, POINTER(db_object_key_t)],
    _ST,
)
_fn(
    "db_object_find_with_primary_key",
    ObjectP,
    [RealmP, db_class_key_t, ValueP, POINTER(c_bool)],
    _check_optional_ptr,
)
_fn("db_object_get_by_key", ObjectP, [RealmP, db_class_key_t, db_object_key_t], _check_ptr)
_fn("db_object_release", None, [ObjectP])
_fn("db_object_get_value", _S, [ObjectP, db_property_key_t, ValueP], _ST)
_fn("db_object_get_values", _S, [ObjectP, KeyArray, c_size_t, ValueP], _ST)
_fn("db_object_get_value_by_name", _S, [ObjectP, c_char_p, ValueP], _ST)
_fn("db_object_set_value", _S, [ObjectP, db_property_key_t, ValueP], _ST)
_fn("db_object_set_values", _S, [ObjectP, KeyArray, ValueP, c_size_t], _ST)
_fn("db_object_set_value_by_name", _S, [ObjectP, c_char_p, ValueP], _ST)
_fn("db_object_delete", _S, [ObjectP], _ST)
_fn("db_object_is_valid", c_bool, [ObjectP])
_fn("db_object_equals", c_bool, [ObjectP, ObjectP])
_fn("db_object_get_key", _S, [ObjectP, POINTER(db_object_key_t)], _ST)
_fn("db_object_get_class_key", _S, [ObjectP, POINTER(db_class_key_t)], _ST)
_fn("db_object_description", CharP, [ObjectP], _take_string)

# Migration
_fn("db_migration_get_realm", RealmP, [MigrationP], _check_ptr)
_fn("db_migration_get_old_schema", SchemaP, [MigrationP], _check_ptr)
_fn("db_migration_get_new_schema", SchemaP, [MigrationP], _check_ptr)
_fn(
    "db_migration_enumerate_objects",
    _S,
    [MigrationP, c_char_p, MigrationObjectFunc, c_void_p],
    _ST,
)
_fn("db_migration_rename_property", _S, [MigrationP, c_char_p, c_char_p, c_char_p], _ST)
_fn("db_migration_delete_data", _S, [MigrationP, c_char_p], _ST)

# Relationships: links, lists, sets, dictionaries, embedded objects, backlinks
_B = POINTER(c_bool)
_Z = POINTER(c_size_t)
_fn("db_object_create_embedded", ObjectP, [ObjectP, db_property_key_t], _check_ptr)
_fn("db_object_get_backlinks", ResultsP, [ObjectP, db_class_key_t, db_property_key_t], _check_ptr)
_fn("db_object_get_linking_objects", ResultsP, [ObjectP, db_property_key_t], _check_ptr)
for _kind, _P in (("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _fn(f"db_object_get_{_kind}", _P, [ObjectP, db_property_key_t], _check_ptr)
    _fn(f"db_{_kind}_release", None, [_P])
    _fn(f"db_{_kind}_size", _S, [_P, _Z], _ST)
    _fn(f"db_{_kind}_clear", _S, [_P], _ST)
    _fn(f"db_{_kind}_aggregate", _S, [_P, c_int, ValueP, _B], _ST)
    _fn(f"db_{_kind}_to_results", ResultsP, [_P], _check_ptr)
    _fn(f"db_{_kind}_is_valid", c_bool, [_P])
_fn("db_list_get", _S, [ListP, c_size_t, ValueP], _ST)
_fn("db_list_get_values", _S, [ListP, c_size_t, c_size_t, ValueP, _Z], _ST)
_fn("db_list_find", _S, [ListP, ValueP, _Z, _B], _ST)
_fn("db_list_insert", _S, [ListP, c_size_t, ValueP], _ST)
_fn("db_list_set", _S, [ListP, c_size_t, ValueP], _ST)
_fn("db_list_assign", _S, [ListP, ValueP, c_size_t], _ST)
_fn("db_list_erase", _S, [ListP, c_size_t], _ST)
_fn("db_list_move", _S, [ListP, c_size_t, c_size_t], _ST)
_fn("db_list_swap", _S, [ListP, c_size_t, c_size_t], _ST)
_fn("db_list_insert_embedded", ObjectP, [ListP, c_size_t], _check_ptr)
_fn("db_set_get", _S, [SetP, c_size_t, ValueP], _ST)
_fn("db_set_get_values", _S, [SetP, c_size_t, c_size_t, ValueP, _Z], _ST)
_fn("db_set_contains", _S, [SetP, ValueP, _B], _ST)
_fn("db_set_insert", _S, [SetP, ValueP, _B], _ST)
_fn("db_set_erase", _S, [SetP, ValueP, _B], _ST)
for _op in ("assign", "union", "intersect", "subtract"):
    _fn(f"db_set_{_op}", _S, [SetP, ValueP, c_size_t], _ST)
_fn("db_dictionary_get_entries", _S, [DictionaryP, c_size_t, c_size_t, ValueP, ValueP, _Z], _ST)
_fn("db_dictionary_find", _S, [DictionaryP, c_char_p, ValueP, _B], _ST)
_fn("db_dictionary_insert", _S, [DictionaryP, c_char_p, ValueP], _ST)
_fn("db_dictionary_erase", _S, [DictionaryP, c_char_p, _B], _ST)
_fn("db_dictionary_insert_embedded", ObjectP, [DictionaryP, c_char_p], _check_ptr)

# Results
ObjectKeyArray = POINTER(db_object_key_t)
_fn("db_results_from_class", ResultsP, [RealmP, db_class_key_t], _check_ptr)
_fn("db_results_filter", ResultsP, [ResultsP, c_char_p, POINTER(db_query_arg_t), c_size_t], _check_ptr)
_fn("db_results_sort", ResultsP, [ResultsP, POINTER(db_sort_key_t), c_size_t], _check_ptr)
_fn("db_results_distinct", ResultsP, [ResultsP, KeyArray, c_size_t], _check_ptr)
_fn("db_results_sort_by_key_paths", ResultsP, [ResultsP, POINTER(db_sort_path_t), c_size_t], _check_ptr)
_fn("db_results_distinct_by_key_paths", ResultsP, [ResultsP, POINTER(c_char_p), c_size_t], _check_ptr)
_fn("db_results_limit", ResultsP, [ResultsP, c_size_t], _check_ptr)
_fn("db_results_snapshot", ResultsP, [ResultsP], _check_ptr)
_fn("db_results_release", None, [ResultsP])
_fn("db_results_count", _S, [ResultsP, POINTER(c_size_t)], _ST)
_fn("db_results_get", ObjectP, [ResultsP, c_size_t], _check_ptr)
_fn("db_results_index_of", _S, [ResultsP, ObjectP, POINTER(c_size_t), POINTER(c_bool)], _ST)
_fn("db_results_aggregate", _S, [ResultsP, db_property_key_t, c_int, ValueP, POINTER(c_bool)], _ST)
_fn("db_results_get_values", _S, [ResultsP, db_property_key_t, c_size_t, c_size_t, ValueP, POINTER(c_size_t)], _ST)
_fn("db_results_get_keys", _S, [ResultsP, c_size_t, c_size_t, ObjectKeyArray, POINTER(c_size_t)], _ST)
_fn("db_results_set_value", _S, [ResultsP, db_property_key_t, ValueP], _ST)
_fn("db_results_set_values", _S, [ResultsP, db_property_key_t, c_size_t, ValueP, c_size_t], _ST)
_fn("db_results_delete_all", _S, [ResultsP, POINTER(c_size_t)], _ST)


def library_version() -> str:
    """The library's version string (``db_library_version_string``)."""
    return lib.db_library_version_string().decode("ascii", "replace")


# -- notifications ----------------------------------------------------------
for _kind, _P in (("results", ResultsP), ("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _fn(f"db_{_kind}_observe", TokenP, [_P, POINTER(c_char_p), c_size_t, CollectionChangeFunc, c_void_p, FreeUserdataFunc],
        _check_ptr)
_fn("db_object_observe", TokenP, [ObjectP, POINTER(c_char_p), c_size_t, ObjectChangeFunc, c_void_p, FreeUserdataFunc],
    _check_ptr)
_fn("db_notification_token_invalidate", _S, [TokenP], _ST)
_fn("db_notification_token_release", None, [TokenP])
_fn("db_notification_token_is_valid", c_bool, [TokenP])
_fn("db_realm_deliver_notifications", _S, [RealmP], _ST)
_fn("db_collection_change_get_counts", _S, [CollectionChangeP, POINTER(db_collection_change_counts_t)], _ST)
_fn("db_collection_change_get_indices", _S,
    [CollectionChangeP, POINTER(c_size_t), POINTER(c_size_t), POINTER(c_size_t), POINTER(c_size_t),
     POINTER(db_index_move_t)], _ST)
_fn("db_object_change_is_deleted", _S, [ObjectChangeP, POINTER(c_bool)], _ST)
_fn("db_object_change_get_num_properties", _S, [ObjectChangeP, POINTER(c_size_t)], _ST)
_fn("db_object_change_get_property", _S, [ObjectChangeP, c_size_t, POINTER(db_property_key_t), ValueP, ValueP], _ST)
_fn("db_realm_set_scheduler", _S, [RealmP, SchedulerNotifyFunc, c_void_p, FreeUserdataFunc], _ST)

# -- frozen views -------------------------------------------------------------
_fn("db_realm_freeze", RealmP, [RealmP], _check_ptr)
_fn("db_realm_thaw", RealmP, [RealmP], _check_ptr)
_fn("db_realm_is_frozen", c_bool, [RealmP])
_fn("db_object_freeze", ObjectP, [ObjectP], _check_ptr)
_fn("db_object_thaw", ObjectP, [ObjectP], _check_optional_ptr)
_fn("db_object_is_frozen", c_bool, [ObjectP])
for _kind, _P in (("results", ResultsP), ("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _fn(f"db_{_kind}_freeze", _P, [_P], _check_ptr)
    _fn(f"db_{_kind}_thaw", _P, [_P], _check_ptr if _kind == "results" else _check_optional_ptr)
    _fn(f"db_{_kind}_is_frozen", c_bool, [_P])
_fn("db_results_is_valid", c_bool, [ResultsP])

# -- sectioned results --------------------------------------------------------
_fn("db_results_sectioned_by_key_path", SectionedP, [ResultsP, c_char_p, c_bool], _check_ptr)
_fn("db_results_sectioned_by_key_path_sorted", SectionedP, [ResultsP, c_char_p, POINTER(db_sort_path_t), c_size_t], _check_ptr)
_fn("db_results_sectioned_by_function", SectionedP,
    [ResultsP, POINTER(db_sort_path_t), c_size_t, SectionKeyFunc, c_void_p, FreeUserdataFunc], _check_ptr)
_fn("db_sectioned_results_release", None, [SectionedP])
_fn("db_sectioned_results_count", _S, [SectionedP, POINTER(c_size_t)], _ST)
_fn("db_sectioned_results_get_key", _S, [SectionedP, c_size_t, ValueP], _ST)
_fn("db_sectioned_results_section_count", _S, [SectionedP, c_size_t, POINTER(c_size_t)], _ST)
_fn("db_sectioned_results_get", ObjectP, [SectionedP, c_size_t, c_size_t], _check_ptr)
_fn("db_sectioned_results_is_valid", c_bool, [SectionedP])
_fn("db_sectioned_results_freeze", SectionedP, [SectionedP], _check_ptr)
_fn("db_sectioned_results_thaw", SectionedP, [SectionedP], _check_ptr)
_fn("db_sectioned_results_is_frozen", c_bool, [SectionedP])
_fn("db_sectioned_results_observe", TokenP, [SectionedP, SectionedChangeFunc, c_void_p, FreeUserdataFunc], _check_ptr)
_fn("db_sectioned_change_get_counts", _S, [SectionedChangeP, POINTER(db_sectioned_change_counts_t)], _ST)
_fn("db_sectioned_change_get_indices", _S,
    [SectionedChangeP, POINTER(c_size_t), POINTER(c_size_t), POINTER(db_index_path_t), POINTER(db_index_path_t),
     POINTER(db_index_path_t)], _ST)
