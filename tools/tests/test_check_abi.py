"""Tests of tools/check_abi.py: include/db.h is compatible with the recorded release ABI, and each
kind of incompatible change (a function removed or retyped, a struct's layout, an enum value)
fails unless the major version moves on, while additions pass."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import check_abi  # noqa: E402

HEADER = Path(check_abi.DEFAULT_HEADER)


@pytest.fixture(scope="module")
def current():
    return check_abi.describe(str(HEADER))


def changed(tmp_path: Path, old: str, new: str):
    text = HEADER.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "db.h"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return check_abi.describe(str(path))


def test_the_header_is_compatible_with_the_recorded_release(capsys):
    assert check_abi.main([]) == 0
    assert "is compatible with" in capsys.readouterr().out
    recorded = json.loads(Path(check_abi.DEFAULT_BASELINE).read_text(encoding="utf-8"))
    assert recorded["major"] == int(check_abi.library_version().split(".")[0])


def test_the_layout_is_the_compilers(current):
    value = current["structs"]["db_value_t"]
    assert value["size"] == 24 and value["align"] == 8
    assert value["offsets"]["type"] == 0 and value["offsets"]["integer"] == 8
    assert current["structs"]["db_error_t"]["offsets"]["offset"] == 16


@pytest.mark.parametrize("old, new, expected", [
    ("db_status_e db_object_delete(db_object_t *object);\n", "", "function db_object_delete removed"),
    ("db_status_e db_results_count(const db_results_t *results, size_t *out_count);",
     "db_status_e db_results_count(const db_results_t *results, uint32_t *out_count);",
     "function db_results_count changed"),
    ("    int64_t offset;", "    int32_t offset;", "struct db_error_t: members"),
    ("DB_ERR_QUERY = 21,", "DB_ERR_QUERY = 22,", "DB_ERR_QUERY = 21 -> 22"),
])
def test_an_incompatible_change_needs_a_new_major_version(tmp_path, current, old, new, expected):
    drifted = changed(tmp_path, old, new)
    problems, _ = check_abi.check(current, drifted)
    assert any(expected in p for p in problems), problems
    assert "needs a new major version" in problems[-1]
    bumped = dict(drifted, major=current["major"] + 1, version=f"{current['major'] + 1}.0.0")
    problems, notes = check_abi.check(current, bumped)
    assert problems == [] and any(expected in n for n in notes)


def test_additions_are_compatible(tmp_path, current):
    grown = changed(tmp_path, "db_status_e db_object_delete(db_object_t *object);",
                    "db_status_e db_object_delete(db_object_t *object);\n"
                    "db_status_e db_object_delete_later(db_object_t *object);")
    problems, notes = check_abi.check(current, grown)
    assert problems == [] and notes == ["added: function db_object_delete_later"]


def test_the_major_version_never_goes_back(current):
    problems, _ = check_abi.check(current, dict(current, major=current["major"] - 1))
    assert problems and "went back" in problems[0]
