"""The prototype of every function of libdb.so, as data: nothing here loads the library.

:data:`PROTOTYPES` maps each function of ``include/db.h`` to its ``restype``, ``argtypes`` and
how a failure shows (:data:`STATUS`: a non-zero db_status_e; :data:`PTR`: NULL;
:data:`OPTIONAL_PTR`: NULL is "absent" unless an error was recorded; :data:`TAKE_STRING`: a new
``char *`` to copy and free). :mod:`realmdb._ffi` applies them to the loaded library, and
``tools/check_ffi.py`` compares them with the header's declarations.
"""
from __future__ import annotations

from ctypes import POINTER, c_bool, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint32, c_uint64, c_void_p
from typing import Any, Dict, List, NamedTuple, Optional

from ._c_types import (
    CharP,
    CheckProgressFunc,
    ShouldCompactFunc,
    CollectionChangeFunc,
    CollectionChangeP,
    ConfigP,
    DictionaryP,
    FreeUserdataFunc,
    KeyArray,
    ListP,
    MigrationFunc,
    MigrationObjectFunc,
    MigrationP,
    ObjectChangeFunc,
    ObjectChangeP,
    ObjectKeyArray,
    ObjectCreatorP,
    ObjectReaderP,
    ObjectP,
    PropertyWriterP,
    RealmP,
    ResultsP,
    SchedulerNotifyFunc,
    SchemaP,
    SectionedChangeFunc,
    SectionedChangeP,
    SectionedP,
    SectionKeyFunc,
    SetP,
    TokenP,
    ValueP,
    db_check_report_t,
    db_class_info_t,
    db_class_key_t,
    db_collection_change_counts_t,
    db_error_t,
    db_index_move_t,
    db_index_path_t,
    db_object_key_t,
    db_property_key_t,
    db_query_arg_t,
    db_sectioned_change_counts_t,
    db_sort_key_t,
    db_sort_path_t,
    db_version_info_t,
)

__all__ = ["Prototype", "PROTOTYPES", "STATUS", "PTR", "OPTIONAL_PTR", "TAKE_STRING"]

#: Fails with a non-zero db_status_e.
STATUS = "status"
#: Fails with NULL.
PTR = "ptr"
#: NULL means "absent" unless the library recorded an error.
OPTIONAL_PTR = "optional_ptr"
#: Returns a new char * (copied into a str, then freed with db_string_free); NULL on failure.
TAKE_STRING = "take_string"


class Prototype(NamedTuple):
    """One function: its ctypes ``restype`` (None for void), ``argtypes``, and failure kind."""

    restype: Any
    argtypes: List[Any]
    check: Optional[str]


#: Every function of the library, by name.
PROTOTYPES: Dict[str, Prototype] = {}


def _p(name: str, restype: Any, argtypes: List[Any], check: Optional[str] = None) -> None:
    assert name not in PROTOTYPES, name
    PROTOTYPES[name] = Prototype(restype, argtypes, check)


_S = c_int  # db_status_e
_P: Any  # the handle pointer type in the loops below
_B = POINTER(c_bool)
_Z = POINTER(c_size_t)


# Library
_p("db_library_version_string", c_char_p, [])
_p("db_status_string", c_char_p, [c_int])
_p("db_get_last_error", c_bool, [POINTER(db_error_t)])
_p("db_clear_last_error", None, [])
_p("db_string_free", None, [CharP])

# Schema
_p("db_schema_new", SchemaP, [POINTER(db_class_info_t), c_size_t], PTR)
_p("db_schema_release", None, [SchemaP])
_p("db_schema_get_class_count", c_size_t, [SchemaP])
_p("db_schema_get_class", _S, [SchemaP, c_size_t, POINTER(db_class_info_t)], STATUS)
_p("db_schema_find_class", _S, [SchemaP, c_char_p, POINTER(c_size_t)], STATUS)

# Config
_p("db_config_new", ConfigP, [c_char_p], PTR)
_p("db_config_release", None, [ConfigP])
_p("db_config_set_schema", _S, [ConfigP, SchemaP], STATUS)
_p("db_config_set_schema_version", _S, [ConfigP, c_uint64], STATUS)
_p("db_config_set_in_memory", _S, [ConfigP, c_bool], STATUS)
_p("db_config_set_read_only", _S, [ConfigP, c_bool], STATUS)
_p("db_config_set_max_active_versions", _S, [ConfigP, c_uint64], STATUS)
_p("db_config_set_migration_function", _S, [ConfigP, MigrationFunc, c_void_p, FreeUserdataFunc], STATUS)
_p("db_config_set_should_compact_on_launch", _S, [ConfigP, ShouldCompactFunc, c_void_p, FreeUserdataFunc], STATUS)

# Realm
_p("db_realm_open", RealmP, [ConfigP], PTR)
_p("db_realm_close", _S, [RealmP], STATUS)
_p("db_realm_release", None, [RealmP])
_p("db_realm_is_valid", c_bool, [RealmP])
_p("db_realm_begin_write", _S, [RealmP], STATUS)
_p("db_realm_commit", _S, [RealmP], STATUS)
_p("db_realm_cancel_write", _S, [RealmP], STATUS)
_p("db_realm_reserve_write", _S, [RealmP], STATUS)
_p("db_realm_release_write_reservation", _S, [RealmP, POINTER(c_bool)], STATUS)
_p("db_realm_is_in_write", c_bool, [RealmP])
_p("db_realm_begin_savepoint", _S, [RealmP], STATUS)
_p("db_realm_rollback_savepoint", _S, [RealmP], STATUS)
_p("db_realm_release_savepoint", _S, [RealmP], STATUS)
_p("db_realm_refresh", _S, [RealmP, POINTER(c_bool)], STATUS)
_p("db_realm_invalidate", _S, [RealmP], STATUS)
_p("db_realm_get_version", _S, [RealmP, POINTER(c_uint64)], STATUS)
_p("db_realm_get_change_counter", _S, [RealmP, POINTER(POINTER(c_uint64))], STATUS)
_p("db_realm_get_schema_version", _S, [RealmP, POINTER(c_uint64)], STATUS)
_p("db_realm_get_file_format", _S, [RealmP, POINTER(c_uint32)], STATUS)
_p("db_realm_get_active_version_count", _S, [RealmP, POINTER(c_uint64)], STATUS)
_p("db_realm_get_version_info", _S, [RealmP, POINTER(db_version_info_t)], STATUS)
_p("db_realm_check", _S, [RealmP, CheckProgressFunc, c_void_p, POINTER(db_check_report_t)], STATUS)
_p("db_realm_write_copy", _S, [RealmP, c_char_p], STATUS)
_p("db_realm_get_file_space", _S, [RealmP, POINTER(c_uint64), POINTER(c_uint64)], STATUS)
_p("db_realm_get_schema", SchemaP, [RealmP], PTR)
_p("db_realm_find_class", _S, [RealmP, c_char_p, POINTER(db_class_key_t)], STATUS)
_p("db_realm_find_property", _S, [RealmP, db_class_key_t, c_char_p, POINTER(db_property_key_t)], STATUS)
_p("db_realm_count_objects", _S, [RealmP, db_class_key_t, POINTER(c_size_t)], STATUS)

# Objects
_p("db_object_create", ObjectP, [RealmP, db_class_key_t, KeyArray, ValueP, c_size_t, c_int], PTR)
_p(
    "db_object_create_many",
    _S,
    [RealmP, db_class_key_t, KeyArray, c_size_t, ValueP, c_size_t, c_int, POINTER(c_size_t)],
    STATUS,
)
_p(
    "db_object_create_many_with_keys",
    _S,
    [RealmP, db_class_key_t, KeyArray, c_size_t, ValueP, c_size_t, c_int, POINTER(db_object_key_t)],
    STATUS,
)
_p(
    "db_object_find_with_primary_key",
    ObjectP,
    [RealmP, db_class_key_t, ValueP, POINTER(c_bool)],
    OPTIONAL_PTR,
)
_p("db_object_get_by_key", ObjectP, [RealmP, db_class_key_t, db_object_key_t], PTR)
_p("db_object_find_key_with_primary_key", _S, [RealmP, db_class_key_t, ValueP, POINTER(db_object_key_t), POINTER(c_bool)],
   STATUS)
_p("db_object_get_values_by_primary_key", _S,
   [RealmP, db_class_key_t, ValueP, KeyArray, c_size_t, ValueP, c_void_p, c_size_t, POINTER(db_object_key_t),
    POINTER(c_bool)], STATUS)
_p("db_object_get_values_by_key", _S, [RealmP, db_class_key_t, db_object_key_t, KeyArray, c_size_t, ValueP, c_void_p,
                                      c_size_t], STATUS)
_p("db_object_set_value_by_key", _S, [RealmP, db_class_key_t, db_object_key_t, db_property_key_t, ValueP], STATUS)
_p("db_object_release", None, [ObjectP])
_p("db_object_creator_new", ObjectCreatorP, [RealmP, db_class_key_t, KeyArray, c_size_t, c_int], PTR)
_p("db_object_creator_create", _S, [ObjectCreatorP, ValueP, POINTER(db_object_key_t)], STATUS)
_p("db_object_creator_is_valid", c_bool, [ObjectCreatorP])
_p("db_object_creator_release", None, [ObjectCreatorP])
_p("db_object_reader_new", ObjectReaderP, [RealmP, db_class_key_t, KeyArray, c_size_t, c_size_t], PTR)
_p("db_object_reader_values", ValueP, [ObjectReaderP], PTR)
_p("db_object_reader_read", _S, [ObjectReaderP, db_object_key_t], STATUS)
_p("db_object_reader_find", _S, [ObjectReaderP, ValueP, POINTER(db_object_key_t), POINTER(c_bool)], STATUS)
_p("db_object_reader_is_valid", c_bool, [ObjectReaderP])
_p("db_object_reader_release", None, [ObjectReaderP])
_p("db_property_writer_new", PropertyWriterP, [RealmP, db_class_key_t, db_property_key_t], PTR)
_p("db_property_writer_set_int", _S, [PropertyWriterP, db_object_key_t, c_int64], STATUS)
_p("db_property_writer_set_double", _S, [PropertyWriterP, db_object_key_t, c_double], STATUS)
_p("db_property_writer_is_valid", c_bool, [PropertyWriterP])
_p("db_property_writer_release", None, [PropertyWriterP])
_p("db_object_get_value", _S, [ObjectP, db_property_key_t, ValueP], STATUS)
_p("db_object_get_values", _S, [ObjectP, KeyArray, c_size_t, ValueP], STATUS)
_p("db_object_get_value_by_name", _S, [ObjectP, c_char_p, ValueP], STATUS)
_p("db_object_set_value", _S, [ObjectP, db_property_key_t, ValueP], STATUS)
_p("db_object_set_values", _S, [ObjectP, KeyArray, ValueP, c_size_t], STATUS)
_p("db_object_set_value_by_name", _S, [ObjectP, c_char_p, ValueP], STATUS)
_p("db_object_delete", _S, [ObjectP], STATUS)
_p("db_object_is_valid", c_bool, [ObjectP])
_p("db_object_equals", c_bool, [ObjectP, ObjectP])
_p("db_object_get_key", _S, [ObjectP, POINTER(db_object_key_t)], STATUS)
_p("db_object_get_class_key", _S, [ObjectP, POINTER(db_class_key_t)], STATUS)
_p("db_object_description", CharP, [ObjectP], TAKE_STRING)
_p("db_object_get_realm", RealmP, [ObjectP], PTR)

# Migration
_p("db_migration_get_realm", RealmP, [MigrationP], PTR)
_p("db_migration_get_old_schema", SchemaP, [MigrationP], PTR)
_p("db_migration_get_new_schema", SchemaP, [MigrationP], PTR)
_p(
    "db_migration_enumerate_objects",
    _S,
    [MigrationP, c_char_p, MigrationObjectFunc, c_void_p],
    STATUS,
)
_p("db_migration_rename_property", _S, [MigrationP, c_char_p, c_char_p, c_char_p], STATUS)
_p("db_migration_delete_data", _S, [MigrationP, c_char_p], STATUS)

# Relationships: links, lists, sets, dictionaries, embedded objects, backlinks
_p("db_object_create_embedded", ObjectP, [ObjectP, db_property_key_t], PTR)
_p("db_object_get_backlinks", ResultsP, [ObjectP, db_class_key_t, db_property_key_t], PTR)
_p("db_object_get_linking_objects", ResultsP, [ObjectP, db_property_key_t], PTR)
for _kind, _P in (("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _p(f"db_object_get_{_kind}", _P, [ObjectP, db_property_key_t], PTR)
    _p(f"db_{_kind}_release", None, [_P])
    _p(f"db_{_kind}_size", _S, [_P, _Z], STATUS)
    _p(f"db_{_kind}_clear", _S, [_P], STATUS)
    _p(f"db_{_kind}_aggregate", _S, [_P, c_int, ValueP, _B], STATUS)
    _p(f"db_{_kind}_to_results", ResultsP, [_P], PTR)
    _p(f"db_{_kind}_is_valid", c_bool, [_P])
for _kind, _P in (("list", ListP), ("set", SetP)):
    _p(f"db_{_kind}_positions_matching", _S, [_P, c_char_p, POINTER(db_query_arg_t), c_size_t, _Z, c_size_t, _Z], STATUS)
_p("db_list_get", _S, [ListP, c_size_t, ValueP], STATUS)
_p("db_list_get_values", _S, [ListP, c_size_t, c_size_t, ValueP, _Z], STATUS)
_p("db_list_find", _S, [ListP, ValueP, _Z, _B], STATUS)
_p("db_list_insert", _S, [ListP, c_size_t, ValueP], STATUS)
_p("db_list_set", _S, [ListP, c_size_t, ValueP], STATUS)
_p("db_list_assign", _S, [ListP, ValueP, c_size_t], STATUS)
_p("db_list_erase", _S, [ListP, c_size_t], STATUS)
_p("db_list_move", _S, [ListP, c_size_t, c_size_t], STATUS)
_p("db_list_swap", _S, [ListP, c_size_t, c_size_t], STATUS)
_p("db_list_insert_embedded", ObjectP, [ListP, c_size_t], PTR)
_p("db_set_get", _S, [SetP, c_size_t, ValueP], STATUS)
_p("db_set_get_values", _S, [SetP, c_size_t, c_size_t, ValueP, _Z], STATUS)
_p("db_set_contains", _S, [SetP, ValueP, _B], STATUS)
_p("db_set_insert", _S, [SetP, ValueP, _B], STATUS)
_p("db_set_erase", _S, [SetP, ValueP, _B], STATUS)
for _op in ("assign", "union", "intersect", "subtract"):
    _p(f"db_set_{_op}", _S, [SetP, ValueP, c_size_t], STATUS)
_p("db_dictionary_get_entries", _S, [DictionaryP, c_size_t, c_size_t, ValueP, ValueP, _Z], STATUS)
_p("db_dictionary_find", _S, [DictionaryP, c_char_p, ValueP, _B], STATUS)
_p("db_dictionary_insert", _S, [DictionaryP, c_char_p, ValueP], STATUS)
_p("db_dictionary_erase", _S, [DictionaryP, c_char_p, _B], STATUS)
_p("db_dictionary_insert_embedded", ObjectP, [DictionaryP, c_char_p], PTR)

# Results
_p("db_results_from_class", ResultsP, [RealmP, db_class_key_t], PTR)
_p("db_results_filter", ResultsP, [ResultsP, c_char_p, POINTER(db_query_arg_t), c_size_t], PTR)
_p("db_results_sort", ResultsP, [ResultsP, POINTER(db_sort_key_t), c_size_t], PTR)
_p("db_results_distinct", ResultsP, [ResultsP, KeyArray, c_size_t], PTR)
_p("db_results_sort_by_key_paths", ResultsP, [ResultsP, POINTER(db_sort_path_t), c_size_t], PTR)
_p("db_results_distinct_by_key_paths", ResultsP, [ResultsP, POINTER(c_char_p), c_size_t], PTR)
_p("db_results_limit", ResultsP, [ResultsP, c_size_t], PTR)
_p("db_results_snapshot", ResultsP, [ResultsP], PTR)
_p("db_results_release", None, [ResultsP])
_p("db_results_count", _S, [ResultsP, POINTER(c_size_t)], STATUS)
_p("db_results_get", ObjectP, [ResultsP, c_size_t], PTR)
_p("db_results_index_of", _S, [ResultsP, ObjectP, POINTER(c_size_t), POINTER(c_bool)], STATUS)
_p("db_results_index_matching", _S, [ResultsP, c_char_p, POINTER(db_query_arg_t), c_size_t, POINTER(c_size_t), POINTER(c_bool)],
   STATUS)
_p("db_results_aggregate", _S, [ResultsP, db_property_key_t, c_int, ValueP, POINTER(c_bool)], STATUS)
_p("db_results_get_values", _S, [ResultsP, db_property_key_t, c_size_t, c_size_t, ValueP, POINTER(c_size_t)], STATUS)
_p("db_results_get_values_into", _S,
   [ResultsP, db_property_key_t, c_size_t, c_size_t, ValueP, c_void_p, c_size_t, POINTER(c_size_t)], STATUS)
_p("db_results_get_keys", _S, [ResultsP, c_size_t, c_size_t, ObjectKeyArray, POINTER(c_size_t)], STATUS)
_p("db_results_set_value", _S, [ResultsP, db_property_key_t, ValueP], STATUS)
_p("db_results_set_values", _S, [ResultsP, db_property_key_t, c_size_t, ValueP, c_size_t], STATUS)
_p("db_results_delete_all", _S, [ResultsP, POINTER(c_size_t)], STATUS)


# -- notifications ----------------------------------------------------------
for _kind, _P in (("results", ResultsP), ("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _p(f"db_{_kind}_observe", TokenP, [_P, POINTER(c_char_p), c_size_t, CollectionChangeFunc, c_void_p, FreeUserdataFunc],
        PTR)
_p("db_object_observe", TokenP, [ObjectP, POINTER(c_char_p), c_size_t, ObjectChangeFunc, c_void_p, FreeUserdataFunc],
    PTR)
_p("db_notification_token_invalidate", _S, [TokenP], STATUS)
_p("db_notification_token_release", None, [TokenP])
_p("db_notification_token_is_valid", c_bool, [TokenP])
_p("db_realm_deliver_notifications", _S, [RealmP], STATUS)
_p("db_collection_change_get_counts", _S, [CollectionChangeP, POINTER(db_collection_change_counts_t)], STATUS)
_p("db_collection_change_get_indices", _S,
    [CollectionChangeP, POINTER(c_size_t), POINTER(c_size_t), POINTER(c_size_t), POINTER(c_size_t),
     POINTER(db_index_move_t)], STATUS)
_p("db_object_change_is_deleted", _S, [ObjectChangeP, POINTER(c_bool)], STATUS)
_p("db_object_change_get_num_properties", _S, [ObjectChangeP, POINTER(c_size_t)], STATUS)
_p("db_object_change_get_property", _S, [ObjectChangeP, c_size_t, POINTER(db_property_key_t), ValueP, ValueP], STATUS)
_p("db_realm_set_scheduler", _S, [RealmP, SchedulerNotifyFunc, c_void_p, FreeUserdataFunc], STATUS)

# -- frozen views -------------------------------------------------------------
_p("db_realm_freeze", RealmP, [RealmP], PTR)
_p("db_realm_thaw", RealmP, [RealmP], PTR)
_p("db_realm_is_frozen", c_bool, [RealmP])
_p("db_object_freeze", ObjectP, [ObjectP], PTR)
_p("db_object_thaw", ObjectP, [ObjectP], OPTIONAL_PTR)
_p("db_object_is_frozen", c_bool, [ObjectP])
for _kind, _P in (("results", ResultsP), ("list", ListP), ("set", SetP), ("dictionary", DictionaryP)):
    _p(f"db_{_kind}_freeze", _P, [_P], PTR)
    _p(f"db_{_kind}_thaw", _P, [_P], PTR if _kind == "results" else OPTIONAL_PTR)
    _p(f"db_{_kind}_is_frozen", c_bool, [_P])
_p("db_results_is_valid", c_bool, [ResultsP])
_p("db_results_get_realm", RealmP, [ResultsP], PTR)
_p("db_results_description", CharP, [ResultsP], TAKE_STRING)
_p("db_results_get_values_by_key_path", _S, [ResultsP, c_char_p, c_size_t, c_size_t, ValueP, POINTER(c_size_t)], STATUS)
_p("db_results_get_value_lists_by_key_path", _S, [ResultsP, c_char_p, c_size_t, c_size_t, ValueP, c_size_t, POINTER(c_size_t),
                                                  POINTER(c_size_t), POINTER(c_size_t), _B], STATUS)

# -- sectioned results --------------------------------------------------------
_p("db_results_sectioned_by_key_path", SectionedP, [ResultsP, c_char_p, c_bool], PTR)
_p("db_results_sectioned_by_key_path_sorted", SectionedP, [ResultsP, c_char_p, POINTER(db_sort_path_t), c_size_t], PTR)
_p("db_results_sectioned_by_function", SectionedP,
    [ResultsP, POINTER(db_sort_path_t), c_size_t, SectionKeyFunc, c_void_p, FreeUserdataFunc], PTR)
_p("db_sectioned_results_release", None, [SectionedP])
_p("db_sectioned_results_count", _S, [SectionedP, POINTER(c_size_t)], STATUS)
_p("db_sectioned_results_get_key", _S, [SectionedP, c_size_t, ValueP], STATUS)
_p("db_sectioned_results_section_count", _S, [SectionedP, c_size_t, POINTER(c_size_t)], STATUS)
_p("db_sectioned_results_get", ObjectP, [SectionedP, c_size_t, c_size_t], PTR)
_p("db_sectioned_results_is_valid", c_bool, [SectionedP])
_p("db_sectioned_results_get_realm", RealmP, [SectionedP], PTR)
_p("db_sectioned_results_freeze", SectionedP, [SectionedP], PTR)
_p("db_sectioned_results_thaw", SectionedP, [SectionedP], PTR)
_p("db_sectioned_results_is_frozen", c_bool, [SectionedP])
_p("db_sectioned_results_observe", TokenP, [SectionedP, POINTER(c_char_p), c_size_t, SectionedChangeFunc, c_void_p, FreeUserdataFunc],
   PTR)
_p("db_sectioned_change_get_counts", _S, [SectionedChangeP, POINTER(db_sectioned_change_counts_t)], STATUS)
_p("db_sectioned_change_get_indices", _S,
    [SectionedChangeP, POINTER(c_size_t), POINTER(c_size_t), POINTER(db_index_path_t), POINTER(db_index_path_t),
     POINTER(db_index_path_t)], STATUS)
