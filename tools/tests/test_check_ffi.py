"""Tests of tools/check_ffi.py: the binding's ctypes declarations match include/db.h, and every kind
of drift (a function, an argument, a return type, a struct field, an enum value, a callback) fails,
whichever side drifted."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import check_ffi  # noqa: E402

HEADER = Path(check_ffi.DEFAULT_HEADER)
PACKAGE = Path(check_ffi.DEFAULT_PACKAGE)


def drifted_header(tmp_path: Path, old: str, new: str) -> str:
    text = HEADER.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "db.h"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def test_the_binding_matches_the_header(capsys):
    assert check_ffi.check(str(HEADER), str(PACKAGE)) == []
    assert check_ffi.main([]) == 0
    assert "match include/db.h" in capsys.readouterr().out


def test_the_header_is_read_whole():
    header = check_ffi.parse_header(str(HEADER))
    assert len(header.functions) > 150
    assert header.enums["db_status_e"]["DB_ERR_QUERY"] == 21
    assert [m.name for m in header.structs["db_error_t"]] == ["code", "message", "offset"]
    value = header.structs["db_value_t"]
    assert value[0].name == "type" and value[1].members is not None and len(value[1].members) == 11
    assert header.structs["db_object_id_t"][0].length == 12
    assert [p.type for p in header.callbacks["db_section_key_func_t"].params] == \
        ["void *", "const db_object_t *", "db_value_t *"]
    assert header.aliases["db_class_key_t"] == "uint32_t"


LIST_MOVE = "db_status_e db_list_move(db_list_t *list, size_t from_index, size_t to_index);"


@pytest.mark.parametrize("old, new, message", [
    # functions
    (LIST_MOVE, "", "db_list_move: _prototypes.py declares it, the header does not"),
    (LIST_MOVE, LIST_MOVE + "\ndb_status_e db_list_frobnicate(db_list_t *list);",
     "db_list_frobnicate: declared in the header, missing from _prototypes.py"),
    (LIST_MOVE, LIST_MOVE.replace("size_t to_index", "int64_t to_index"),
     "db_list_move: argument 2 (int64_t to_index) must be"),
    (LIST_MOVE, LIST_MOVE.replace("size_t to_index)", "size_t to_index, bool animated)"),
     "db_list_move: takes 4 arguments in the header, 3 in _prototypes.py"),
    (LIST_MOVE, LIST_MOVE.replace("db_list_t *list", "db_set_t *list"),
     "db_list_move: argument 0 (db_set_t *list) must be LP_db_set_t, not LP_db_list_t"),
    ("bool db_list_is_valid(", "size_t db_list_is_valid(", "db_list_is_valid: returns size_t, so restype must be"),
    ("char *db_object_description(", "const char *db_object_description(",
     "db_object_description: returns const char *, so restype must be c_char_p, not LP_c_char"),
    # structs
    ("    size_t index_entries;\n} db_check_report_t;", "    size_t index_entries;\n    size_t pages;\n} db_check_report_t;",
     "db_check_report_t: fields are (classes, objects, values, blocks, index_entries, pages) in the header"),
    ("    int64_t seconds;\n    int32_t nanoseconds;", "    int64_t seconds;\n    int64_t nanoseconds;",
     "db_timestamp_t.nanoseconds (int64_t nanoseconds) must be"),
    ("uint8_t bytes[12];", "uint8_t bytes[16];", "db_object_id_t.bytes (uint8_t bytes[16]) must be c_ubyte * 16"),
    ("        double dnum;\n", "", "db_value_t.<union>: fields are (boolean, integer, fnum, string,"),
    ("typedef struct db_index_path {\n    size_t section;\n    size_t item;\n} db_index_path_t;",
     "typedef struct db_index_path {\n    size_t section;\n    size_t item;\n} db_index_path_t;\n"
     "typedef struct db_range { size_t start; size_t count; } db_range_t;",
     "struct db_range_t: declared in the header, missing from _c_types.py"),
    # enums
    ("DB_ERR_QUERY = 21,", "DB_ERR_QUERY = 26,", "enum db_status_e: Status.QUERY is 21, the header says 26"),
    ("DB_AGGREGATE_AVERAGE = 3\n", "DB_AGGREGATE_AVERAGE = 3,\n    DB_AGGREGATE_MEDIAN = 4\n",
     "enum db_aggregate_e: Aggregate.MEDIAN is missing (= 4 in the header)"),
    ("    DB_UPSERT_ALL = 2\n", "", "enum db_upsert_mode_e: UpsertMode.ALL is not in the header"),
    # callbacks
    ("typedef bool (*db_section_key_func_t)(void *userdata, const db_object_t *object, db_value_t *out_key);",
     "typedef bool (*db_section_key_func_t)(void *userdata, const db_object_t *object, db_link_t *out_key);",
     "callback db_section_key_func_t: argument 2 (db_link_t *out_key) must be LP_db_link_t, not LP_db_value_t"),
    ("typedef void (*db_scheduler_notify_func_t)(void *userdata);",
     "typedef bool (*db_scheduler_notify_func_t)(void *userdata);",
     "callback db_scheduler_notify_func_t: returns bool, so its CFUNCTYPE must return c_bool, not None"),
    ("typedef void (*db_scheduler_notify_func_t)(void *userdata);",
     "typedef void (*db_scheduler_notify_func_t)(void *userdata);\ntypedef void (*db_log_func_t)(void *userdata);",
     "callback db_log_func_t: declared in the header, missing from C_CALLBACKS"),
])
def test_a_drifted_header_fails(tmp_path, capsys, old, new, message):
    header = drifted_header(tmp_path, old, new)
    problems = check_ffi.check(header, str(PACKAGE))
    assert any(message in p for p in problems), problems
    assert check_ffi.main(["--header", header]) == 1
    assert message in capsys.readouterr().err


def drifted_package(tmp_path: Path, module: str, old: str, new: str) -> str:
    package = tmp_path / "realmdb"
    package.mkdir()
    for name in ("_c_types.py", "_prototypes.py"):
        shutil.copy(PACKAGE / name, package / name)
    text = (package / module).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (package / module).write_text(text.replace(old, new), encoding="utf-8")
    return str(package)


@pytest.mark.parametrize("module, old, new, message", [
    ("_prototypes.py", '_p("db_list_move", _S, [ListP, c_size_t, c_size_t], STATUS)\n', "",
     "db_list_move: declared in the header, missing from _prototypes.py"),
    ("_prototypes.py", '_p("db_list_move", _S, [ListP, c_size_t, c_size_t], STATUS)',
     '_p("db_list_move", _S, [ListP, c_size_t, c_bool], STATUS)', "db_list_move: argument 2 (size_t to_index)"),
    ("_c_types.py", '("oldest_reader_pid", c_int64), ("stale_readers_cleared", c_size_t)',
     '("stale_readers_cleared", c_size_t), ("oldest_reader_pid", c_int64)',
     "db_version_info_t: fields are (active_versions, readers, oldest_reader_lag, oldest_reader_pid, "
     "stale_readers_cleared) in the header"),
    ("_c_types.py", "    LINKING_OBJECTS = 12\n", "    LINKING_OBJECTS = 14\n",
     "enum db_property_type_e: PropertyType.LINKING_OBJECTS is 14, the header says 12"),
    ("_c_types.py", "MigrationObjectFunc = CFUNCTYPE(c_bool, c_void_p, ObjectP, ObjectP)",
     "MigrationObjectFunc = CFUNCTYPE(c_bool, c_void_p, ObjectP)",
     "callback db_migration_object_func_t: takes 3 arguments in the header, 2 in its CFUNCTYPE"),
])
def test_a_drifted_binding_fails(tmp_path, module, old, new, message):
    problems = check_ffi.check(str(HEADER), drifted_package(tmp_path, module, old, new))
    assert any(message in p for p in problems), problems
