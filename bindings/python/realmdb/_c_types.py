"""The C types of libdb.so: enums, structs, handle pointers and callback types.

This module mirrors the types of ``include/db.h`` (``Sources/CDBTypes/include/db_types.h``) and
loads nothing: :mod:`realmdb._prototypes` declares the functions with these types,
:mod:`realmdb._ffi` loads the library and applies them, and ``tools/check_ffi.py`` compares
both modules with the header, so that a drift (a field, an enum value, a callback's arguments)
fails the build.

Every handle type gets its own pointer type (``RealmP``, ``ObjectP``, ...), so a realm can never
be passed where an object is expected; ``RealmHandle``, ``ObjectHandle``, ... name the types of
their instances in annotations. Callback types are declared once here (``MigrationFunc``,
``CollectionChangeFunc``, ...); whoever registers an instance keeps it referenced.
"""
from __future__ import annotations

import ctypes
import enum
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
from typing import TYPE_CHECKING, Dict, Tuple, Type

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


class _Opaque(Structure):
    """Base of the opaque structs: the library's handles, used only through pointers (one pointer
    type per struct, so that one kind of handle cannot be passed for another)."""

    _fields_ = [("_opaque", c_char)]


class db_error_t(Structure):
    """The thread's last error; ``message`` is borrowed until the next call."""

    _fields_ = [("code", c_int), ("message", c_char_p), ("offset", c_int64)]


class db_config_t(_Opaque):
    """Opaque open configuration."""


class db_schema_t(_Opaque):
    """Opaque immutable schema."""


class db_realm_t(_Opaque):
    """Opaque open realm."""


class db_object_t(_Opaque):
    """Opaque object accessor."""


class db_migration_t(_Opaque):
    """Opaque migration in progress (valid only during the callback)."""


class db_results_t(_Opaque):
    """Opaque live results (or a snapshot): valid while its realm is open."""


class db_list_t(_Opaque):
    """Opaque live list property of one object."""


class db_set_t(_Opaque):
    """Opaque live set property of one object."""


class db_dictionary_t(_Opaque):
    """Opaque live dictionary property of one object."""


class db_notification_token_t(_Opaque):
    """Opaque notification registration."""


class db_collection_change_t(_Opaque):
    """Opaque collection change, borrowed during a callback."""


class db_object_change_t(_Opaque):
    """Opaque object change, borrowed during a callback."""


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
                ("oldest_reader_pid", c_int64), ("stale_readers_cleared", c_size_t)]


class db_check_report_t(Structure):
    """What db_realm_check read."""

    _fields_ = [("classes", c_size_t), ("objects", c_size_t), ("values", c_size_t), ("blocks", c_size_t),
                ("index_entries", c_size_t)]


class db_sectioned_results_t(_Opaque):
    """Opaque sectioned results."""


class db_sectioned_change_t(_Opaque):
    """Opaque sectioned change, borrowed during a callback."""


class db_object_creator_t(_Opaque):
    """Opaque object creator: a class and the properties of its rows, for creates one by one."""


class db_object_reader_t(_Opaque):
    """Opaque object reader: a class and some of its properties, for point reads one by one."""


class db_property_writer_t(_Opaque):
    """Opaque property writer: one property of a class, for writes by object key."""


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
PropertyWriterP = POINTER(db_property_writer_t)
ObjectCreatorP = POINTER(db_object_creator_t)
ObjectReaderP = POINTER(db_object_reader_t)

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
#: bool (*)(void *userdata, uint64_t file_bytes, uint64_t used_bytes)
ShouldCompactFunc = CFUNCTYPE(c_bool, c_void_p, c_uint64, c_uint64)
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
SectionKeyFunc = CFUNCTYPE(c_bool, c_void_p, ObjectP, POINTER(db_value_t))

#: void (*)(void *userdata): wakes a realm's owner (db_realm_set_scheduler)
SchedulerNotifyFunc = CFUNCTYPE(None, c_void_p)

#: A NULL FreeUserdataFunc (ctypes does not accept None for a function-pointer argtype).
NO_FREE = FreeUserdataFunc()


#: A char * the caller must free with db_string_free ("new" strings).
CharP = POINTER(c_char)
#: const db_property_key_t * / db_object_key_t *.
KeyArray = POINTER(db_property_key_t)
ObjectKeyArray = POINTER(db_object_key_t)
ValueP = POINTER(db_value_t)

# --------------------------------------------------------------------------
# Handle types for annotations: an instance of RealmP is a RealmHandle, ...
# --------------------------------------------------------------------------

if TYPE_CHECKING:
    from ctypes import _CFunctionType, _Pointer

    ConfigHandle = _Pointer[db_config_t]
    SchemaHandle = _Pointer[db_schema_t]
    RealmHandle = _Pointer[db_realm_t]
    ObjectHandle = _Pointer[db_object_t]
    MigrationHandle = _Pointer[db_migration_t]
    ResultsHandle = _Pointer[db_results_t]
    ListHandle = _Pointer[db_list_t]
    SetHandle = _Pointer[db_set_t]
    DictionaryHandle = _Pointer[db_dictionary_t]
    TokenHandle = _Pointer[db_notification_token_t]
    CollectionChangeHandle = _Pointer[db_collection_change_t]
    ObjectChangeHandle = _Pointer[db_object_change_t]
    SectionedHandle = _Pointer[db_sectioned_results_t]
    SectionedChangeHandle = _Pointer[db_sectioned_change_t]
    ValuePointer = _Pointer[db_value_t]
    #: An instance of one of the CFUNCTYPE types above.
    CFunction = _CFunctionType
else:
    ConfigHandle, SchemaHandle, RealmHandle, ObjectHandle = ConfigP, SchemaP, RealmP, ObjectP
    MigrationHandle, ResultsHandle, ListHandle, SetHandle = MigrationP, ResultsP, ListP, SetP
    DictionaryHandle, TokenHandle, SectionedHandle = DictionaryP, TokenP, SectionedP
    CollectionChangeHandle, ObjectChangeHandle, SectionedChangeHandle = CollectionChangeP, ObjectChangeP, SectionedChangeP
    ValuePointer = ValueP
    CFunction = ctypes._CFuncPtr

# --------------------------------------------------------------------------
# What tools/check_ffi.py compares with include/db.h
# --------------------------------------------------------------------------

#: Each C enum of the header: its Python enum and the prefixes its constants drop (tried in order).
C_ENUMS: Dict[str, Tuple[Type[enum.Enum], Tuple[str, ...]]] = {
    "db_status_e": (Status, ("DB_ERR_", "DB_")),
    "db_value_type_e": (ValueType, ("DB_VALUE_",)),
    "db_property_type_e": (PropertyType, ("DB_PROPERTY_TYPE_",)),
    "db_collection_type_e": (CollectionType, ("DB_COLLECTION_",)),
    "db_property_flags_e": (PropertyFlag, ("DB_PROPERTY_FLAG_",)),
    "db_class_flags_e": (ClassFlag, ("DB_CLASS_FLAG_",)),
    "db_aggregate_e": (Aggregate, ("DB_AGGREGATE_",)),
    "db_upsert_mode_e": (UpsertMode, ("DB_UPSERT_",)),
}

#: Each callback typedef of the header: its CFUNCTYPE type.
C_CALLBACKS: Dict[str, type] = {
    "db_free_userdata_func_t": FreeUserdataFunc,
    "db_check_progress_func_t": CheckProgressFunc,
    "db_should_compact_func_t": ShouldCompactFunc,
    "db_migration_func_t": MigrationFunc,
    "db_migration_object_func_t": MigrationObjectFunc,
    "db_collection_change_func_t": CollectionChangeFunc,
    "db_object_change_func_t": ObjectChangeFunc,
    "db_sectioned_change_func_t": SectionedChangeFunc,
    "db_section_key_func_t": SectionKeyFunc,
    "db_scheduler_notify_func_t": SchedulerNotifyFunc,
}
