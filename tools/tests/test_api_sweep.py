"""Tests of tools/api_sweep.py: it lists db.h's prototypes, and tests/c/test_api_sweep.c has a
matching row for every one of them (a function added to db.h without a row fails here)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import api_sweep  # noqa: E402
import check_exports  # noqa: E402

HEADER = Path(api_sweep.DEFAULT_HEADER)
SWEEP = Path(api_sweep.DEFAULT_SWEEP)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_lists_every_function_the_header_declares():
    functions = api_sweep.header_functions(str(HEADER))
    assert {fn.name for fn in functions} == check_exports.header_functions(str(HEADER))
    by_name = {fn.name: fn for fn in functions}
    assert by_name["db_clear_last_error"].prototype() == "void db_clear_last_error(void);"
    assert by_name["db_results_observe"].prototype() == (
        "db_notification_token_t *db_results_observe(const db_results_t *results, "
        "const char *const *key_paths, size_t num_key_paths, db_collection_change_func_t callback, "
        "void *userdata, db_free_userdata_func_t userdata_free);")


def test_prints_the_prototypes(capsys):
    assert api_sweep.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(api_sweep.header_functions(str(HEADER)))
    assert "const char *db_status_string(db_status_e code);" in lines


def test_the_sweep_covers_every_function_of_the_header(capsys):
    assert api_sweep.check(str(HEADER), str(SWEEP)) == []
    assert api_sweep.main(["--check"]) == 0


def test_a_function_without_a_row_fails(tmp_path, capsys):
    header = write(tmp_path, "db.h", HEADER.read_text(encoding="utf-8") +
                   "\ndb_status_e db_realm_frobnicate(db_realm_t *realm, size_t count);\n")
    problems = api_sweep.check(header, str(SWEEP))
    assert len(problems) == 1
    assert "db_realm_frobnicate has no row" in problems[0]
    assert "FN(db_realm_frobnicate, STATUS, 0, (a[0].p, a[1].z), P(?, realm) P(?, count))" in problems[0]
    assert api_sweep.main(["--check", "--header", header]) == 1
    assert "db_realm_frobnicate" in capsys.readouterr().err


def test_a_row_for_a_function_the_header_lacks_fails(tmp_path):
    text = HEADER.read_text(encoding="utf-8")
    declaration = "db_status_e db_list_swap(db_list_t *list, size_t i, size_t j);"
    assert declaration in text
    header = write(tmp_path, "db.h", text.replace(declaration, ""))
    problems = api_sweep.check(header, str(SWEEP))
    assert len(problems) == 1 and "db_list_swap is not declared" in problems[0]


ROW = "FN(db_list_get, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(OUT, out_value))"


@pytest.mark.parametrize("bad_row, message", [
    (ROW.replace("P(INDEX, index) P(OUT, out_value)", "P(OUT, out_value) P(INDEX, index)"),
     "parameters are (list, out_value, index), the header has (list, index, out_value)"),
    (ROW.replace(" P(OUT, out_value)", ""), "parameters are (list, index)"),
    (ROW.replace("a[1].z", "a[1].i"), "argument 1 (size_t index) must be a[1].z, not a[1].i"),
    (ROW.replace("a[0].p, a[1].z", "a[1].p, a[0].z"), "argument 0 (const db_list_t *list) must be a[0].p"),
    (ROW.replace("P(INDEX, index)", "P(LIST, index)"), "index (size_t) cannot have kind LIST"),
    (ROW.replace("P(INDEX, index)", "P(NUMBER, index)"), "kind NUMBER, which SWEEP_KINDS does not define"),
    (ROW.replace("STATUS", "PTR"), "return kind PTR does not fit db_status_e"),
])
def test_a_row_that_does_not_match_its_prototype_fails(tmp_path, bad_row, message):
    text = SWEEP.read_text(encoding="utf-8")
    assert ROW in text
    sweep = write(tmp_path, "test_api_sweep.c", text.replace(ROW, bad_row))
    problems = api_sweep.check(str(HEADER), sweep)
    assert problems and all("db_list_get" in problem for problem in problems), problems
    assert any(message in problem for problem in problems), problems


def test_the_wrong_thread_flag_follows_the_header(tmp_path):
    text = SWEEP.read_text(encoding="utf-8")
    # a row without the flag for a function documented to fail with DB_ERR_WRONG_THREAD
    sweep = write(tmp_path, "test_api_sweep.c", text.replace(ROW, ROW.replace("F_WRONG_THREAD", "0")))
    problems = api_sweep.check(str(HEADER), sweep)
    assert len(problems) == 1 and "db_list_get: lacks F_WRONG_THREAD" in problems[0], problems
    # a flag on a function that cannot fail with it
    frozen = "FN(db_list_is_frozen, FALSE, 0,"
    assert frozen in text
    sweep = write(tmp_path, "test_api_sweep.c", text.replace(frozen, "FN(db_list_is_frozen, FALSE, F_WRONG_THREAD,"))
    problems = api_sweep.check(str(HEADER), sweep)
    assert len(problems) == 1 and "db_list_is_frozen: has F_WRONG_THREAD" in problems[0], problems


def test_every_is_valid_is_in_the_validity_test():
    """TEST(validity) finds the db_*_is_valid rows by name: each takes one realm handle."""
    rows = {row.name: row for row in api_sweep.sweep_rows(str(SWEEP))}
    valid = sorted(name for name in rows if name.endswith("_is_valid"))
    assert valid == sorted(name for name in check_exports.header_functions(str(HEADER)) if name.endswith("_is_valid"))
    assert {"db_realm_is_valid", "db_object_is_valid", "db_results_is_valid", "db_list_is_valid", "db_set_is_valid",
            "db_dictionary_is_valid", "db_sectioned_results_is_valid", "db_notification_token_is_valid"} <= set(valid)
    for name in valid:
        assert rows[name].ret == "FALSE" and len(rows[name].params) == 1, name
