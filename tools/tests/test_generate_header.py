"""Tests of tools/generate_header.py and tools/check_exports.py on small inputs.

They run without a Swift build: each test lays out a small repository (db_types.h, a few files of
Sources/CAPI) and a Swift header with the shape Swift 6.3 prints for @c functions (see a real one
in .build/debug/CAPI.build/include). The deficient-declaration tests break one rule each and check
that the generator fails naming it.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
REPO = TOOLS.parent
sys.path.insert(0, str(TOOLS))

import check_exports  # noqa: E402
import generate_header  # noqa: E402

TYPES = textwrap.dedent(
    """\
    #ifndef DB_TYPES_H
    #define DB_TYPES_H
    #include <stdbool.h>
    #include <stddef.h>
    #include <stdint.h>
    typedef enum db_status { DB_OK = 0, DB_ERR_WRONG_THREAD = 22 } db_status_e;
    typedef uint32_t db_class_key_t;
    /** @brief Open configuration. Threads: one at a time. */
    typedef struct db_config { char _opaque; } db_config_t;
    /** @brief An immutable schema. Threads: any thread. */
    typedef struct db_schema { char _opaque; } db_schema_t;
    /**
     * @brief An open realm.
     * Threads: confined to the thread that opened it.
     */
    typedef struct db_realm { char _opaque; } db_realm_t;
    /** @brief An object. Threads: its realm's. */
    typedef struct db_object { char _opaque; } db_object_t;
    typedef struct db_class_info { const char *name; } db_class_info_t;
    typedef struct db_migration { char _opaque; } db_migration_t;
    typedef bool (*db_migration_func_t)(void *userdata, db_migration_t *migration, uint64_t old_schema_version);
    typedef void (*db_free_userdata_func_t)(void *userdata);
    #endif /* DB_TYPES_H */
    """
)
# db_migration_t has no doc above on purpose: each test that needs it adds one (see `repo`).
TYPES = TYPES.replace("typedef struct db_migration", "/** @brief A migration. Threads: the migration's. */\n"
                      "typedef struct db_migration")

# name -> (file, Swift declaration, doc lines). The Swift source of each file lists its functions
# in this order (so the header's lifecycle order is visible: open is declared after use here).
FUNCTIONS = {
    "db_clear_last_error": ("LibraryAPI.swift", "SWIFT_EXTERN void db_clear_last_error(void) SWIFT_NOEXCEPT;", []),
    "db_string_free": ("LibraryAPI.swift",
                       "SWIFT_EXTERN void db_string_free(char * _Nullable string) SWIFT_NOEXCEPT;", []),
    "db_schema_new": ("SchemaAPI.swift",
                      "SWIFT_EXTERN db_schema_t * _Nullable db_schema_new(db_class_info_t const * _Nullable classes, "
                      "size_t num_classes) SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
                      ["A schema.", "returns:", "A new schema (release with db_schema_release), or NULL."]),
    "db_schema_release": ("SchemaAPI.swift",
                          "SWIFT_EXTERN void db_schema_release(db_schema_t * _Nullable schema) SWIFT_NOEXCEPT;", []),
    "db_config_set_migration_function": (
        "ConfigAPI.swift",
        "SWIFT_EXTERN db_status_e db_config_set_migration_function(db_config_t * _Nullable config, "
        "db_migration_func_t _Nullable fn, void * _Nullable userdata, db_free_userdata_func_t _Nullable userdata_free) "
        "SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["Sets it.", "returns:", "DB_OK."]),
    "db_realm_count_objects": (
        "RealmAPI.swift",
        "SWIFT_EXTERN db_status_e db_realm_count_objects(db_realm_t const * _Nullable realm, db_class_key_t class_key, "
        "size_t * _Nullable out_count) SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["The count.", "returns:", "DB_OK, DB_ERR_WRONG_THREAD."]),
    "db_realm_release": ("RealmAPI.swift",
                         "SWIFT_EXTERN void db_realm_release(db_realm_t * _Nullable realm) SWIFT_NOEXCEPT;", []),
    "db_realm_open": (
        "RealmAPI.swift",
        "SWIFT_EXTERN db_realm_t * _Nullable db_realm_open(db_config_t const * _Nullable config) "
        "SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["Opens a realm.", "Longer text with <code>code</code> and <em>emphasis</em>, \u201cquoted\u201d.", "note:",
         "a note.", "\\param config Borrowed; the configuration.", "", "", "returns:",
         "A new realm (release with db_realm_release), or NULL with:", "<ul>", "  <li>",
         "    <code>DB_ERR_FILE_ACCESS</code>", "  </li>", "</ul>"]),
    "db_realm_freeze": (
        "RealmAPI.swift",
        "SWIFT_EXTERN db_realm_t * _Nullable db_realm_freeze(db_realm_t const * _Nullable realm) "
        "SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["Freezes.", "returns:", "A new realm (release with db_realm_release), or NULL with DB_ERR_WRONG_THREAD."]),
    "db_realm_is_valid": (
        "RealmAPI.swift",
        "SWIFT_EXTERN bool db_realm_is_valid(db_realm_t const * _Nullable realm) SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["Whether it is open.", "returns:", "true while open."]),
    "db_object_description": (
        "ObjectAPI.swift",
        "SWIFT_EXTERN char * _Nullable db_object_description(db_object_t const * _Nullable object) "
        "SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["A description.", "returns:", "A new string (free with db_string_free), or NULL with DB_ERR_WRONG_THREAD."]),
    "db_object_is_valid": (
        "ObjectAPI.swift",
        "SWIFT_EXTERN bool db_object_is_valid(db_object_t const * _Nullable object) SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["Whether it exists.", "returns:", "true if so; false with DB_ERR_WRONG_THREAD elsewhere."]),
    "db_object_release": ("ObjectAPI.swift",
                          "SWIFT_EXTERN void db_object_release(db_object_t * _Nullable object) SWIFT_NOEXCEPT;", []),
    "db_migration_get_realm": (
        "MigrationAPI.swift",
        "SWIFT_EXTERN db_realm_t * _Nullable db_migration_get_realm(db_migration_t * _Nullable migration) "
        "SWIFT_NOEXCEPT SWIFT_WARN_UNUSED_RESULT;",
        ["The realm.", "returns:", "Borrowed, valid until the migration function returns."]),
}

FRAME_TOP = """\
// Generated by Swift version 6.3.1 (swift-6.3.1-RELEASE)
#ifndef CAPI_SWIFT_H
#define CAPI_SWIFT_H
#if __has_feature(objc_modules)
@import CDBTypes;
#else
#include <db_types.h>
#endif
#if defined(__cplusplus)
extern "C" {
#endif
"""
FRAME_BOTTOM = """
#if defined(__cplusplus)
} // extern "C"
#endif
#endif
"""


def swift_header(functions: dict) -> str:
    """As Swift prints them: sorted by name, each doc line as `///`."""
    parts = []
    for name in sorted(functions):
        _, decl, doc = functions[name]
        parts.append("\n".join(["/// " + line if line else "///" for line in doc] + [decl]))
    parts.append("SWIFT_EXTERN void helper_not_exported(void) SWIFT_NOEXCEPT;")
    return FRAME_TOP + "\n" + "\n\n".join(parts) + "\n" + FRAME_BOTTOM


def swift_sources(functions: dict) -> dict[str, str]:
    files: dict[str, list[str]] = {}
    for name, (file, _decl, doc) in functions.items():
        files.setdefault(file, []).append("\n".join(["/// " + line for line in doc if line] +
                                                    ["@c public func %s() {}" % name]))
    return {file: "import CDBTypes\n\n" + "\n\n".join(bodies) + "\n" for file, bodies in files.items()}


def repo(tmp_path: Path, functions: dict | None = None, types: str = TYPES,
         sources: dict[str, str] | None = None) -> tuple[Path, Path]:
    """A repository root and its CAPI-Swift.h for `functions` (default: FUNCTIONS)."""
    functions = FUNCTIONS if functions is None else functions
    root = tmp_path / "repo"
    (root / "Sources" / "CDBTypes" / "include").mkdir(parents=True, exist_ok=True)
    (root / "Sources" / "CDBTypes" / "include" / "db_types.h").write_text(types, encoding="utf-8")
    capi = root / "Sources" / "CAPI"
    if capi.exists():
        shutil.rmtree(capi)
    capi.mkdir(parents=True)
    for file, text in (sources if sources is not None else swift_sources(functions)).items():
        (capi / file).write_text(text, encoding="utf-8")
    header = tmp_path / "CAPI-Swift.h"
    header.write_text(swift_header(functions), encoding="utf-8")
    return root, header


def generate(root: Path, header: Path) -> str:
    text, _ = generate_header.generate(str(root), str(header))
    return text


def generator_failure(tmp_path: Path, functions: dict | None = None, types: str = TYPES,
                      sources: dict[str, str] | None = None, match: str | None = None) -> str:
    """The message of the GeneratorError that generating from `repo(tmp_path, functions, types,
    sources)` must raise (matching the regular expression `match`, when given)."""
    root, header = repo(tmp_path, functions, types, sources)
    with pytest.raises(generate_header.GeneratorError, match=match) as failure:
        generate(root, header)
    return str(failure.value)


def run_generator(root: Path, header: Path, out: Path, *options: str) -> int:
    """generate_header's command line, writing `out` (or, with --check, comparing it)."""
    return generate_header.main([str(header), "--root", str(root), "--output", str(out), *options])


@pytest.fixture
def good(tmp_path: Path) -> tuple[Path, Path]:
    return repo(tmp_path)


def test_output_is_deterministic(good) -> None:
    assert generate(*good) == generate(*good)


def test_declarations_are_plain_c(good) -> None:
    text = generate(*good)
    for word in ("SWIFT_EXTERN", "SWIFT_NOEXCEPT", "SWIFT_WARN_UNUSED_RESULT", "_Nullable", "_Nonnull"):
        assert word not in text
    assert "db_realm_t *db_realm_open(const db_config_t *config);" in text
    assert "db_status_e db_realm_count_objects(const db_realm_t *realm, db_class_key_t class_key, size_t *out_count);" in text
    assert "void db_clear_last_error(void);" in text
    assert ("db_status_e db_config_set_migration_function(db_config_t *config, db_migration_func_t fn, "
            "void *userdata, db_free_userdata_func_t userdata_free);") in text
    assert "char *db_object_description(const db_object_t *object);" in text


def test_non_db_functions_are_left_out(good) -> None:
    text, skipped = generate_header.generate(str(good[0]), str(good[1]))
    assert "helper_not_exported" not in text
    assert skipped == ["helper_not_exported"]


def test_doc_comments_become_doxygen(good) -> None:
    text = generate(*good)
    block = text[text.index("/**\n * Opens a realm."):text.index("db_realm_t *db_realm_open")]
    assert " * Opens a realm.\n *\n" in block  # brief, then a blank line
    assert "`code`" in block and "*emphasis*" in block and '"quoted"' in block
    assert " * @note a note." in block
    assert " * @param config Borrowed; the configuration." in block
    assert " * @return A new realm (release with db_realm_release), or NULL with:" in block
    assert "   - `DB_ERR_FILE_ACCESS`" in block
    assert "\\param" not in block and "returns:" not in block and "<li>" not in block


def test_one_section_per_file_in_order_each_in_lifecycle_order(good) -> None:
    text = generate(*good)
    text = text[text.index("#endif /* DB_TYPES_H */"):]  # the functions, after the inlined types
    order = [text.index(s) for s in (
        "/* Library: version",
        "/* Sources/CAPI/LibraryAPI.swift",
        "void db_clear_last_error(void);",
        "void db_string_free(",
        "/* Schema ",
        "db_schema_new(",
        "db_schema_release(",
        "/* Config ",
        "/* Realm ",
        "/* Sources/CAPI/RealmAPI.swift",
        "db_realm_open(",           # create, though declared after count_objects and release
        "db_realm_count_objects(",  # use, in source order
        "db_realm_is_valid(",
        "db_realm_freeze(",         # frozen views
        "db_realm_release(",        # end
        "/* Objects ",
        "db_object_description(",
        "db_object_is_valid(",
        "db_object_release(",
        "/* Migration ",
        "db_migration_get_realm(",
    )]
    assert order == sorted(order)


def test_header_frame(good) -> None:
    text = generate(*good)
    assert "GENERATED FILE: DO NOT EDIT." in text
    assert "python3 tools/generate_header.py" in text
    assert text.count("#ifndef DB_H") == 1 and text.rstrip().endswith("#endif /* DB_H */")
    assert 'extern "C" {' in text
    # db_types.h inlined with its guard, so both headers can be included together.
    assert "#ifndef DB_TYPES_H" in text
    assert "Generated by Swift version" not in text  # no toolchain-dependent line


def test_check_mode_reports_a_diff(good, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    root, header = good
    out = tmp_path / "db.h"
    assert run_generator(root, header, out) == 0
    assert run_generator(root, header, out, "--check") == 0
    out.write_text(out.read_text().replace("db_realm_open", "db_realm_opem"))
    capsys.readouterr()
    assert run_generator(root, header, out, "--check") == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/") and "-db_realm_t *db_realm_opem" in diff and "+db_realm_t *db_realm_open" in diff


@pytest.mark.parametrize("declaration, error", [
    ("SWIFT_EXTERN void db_clear_last_error(void) SWIFT_NOEXCEPT SWIFT_NORETURN;", "SWIFT_NORETURN"),
    ("typedef SWIFT_ENUM(int, Color, closed) { ColorRed = 0 };", "unsupported declaration"),
], ids=["unknown Swift macro", "Swift type in the block"])
def test_what_c_cannot_declare_is_an_error(good, declaration: str, error: str) -> None:
    root, header = good
    header.write_text(header.read_text().replace("SWIFT_EXTERN void db_clear_last_error(void) SWIFT_NOEXCEPT;",
                                                 declaration))
    with pytest.raises(generate_header.GeneratorError, match=error):
        generate(root, header)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_generated_header_compiles_as_c11(good, tmp_path: Path) -> None:
    header = tmp_path / "db.h"
    header.write_text(generate(*good))
    source = tmp_path / "use.c"
    source.write_text('#include "db.h"\nint main(void) { return db_realm_open(NULL) != NULL; }\n')
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
                    "-I", str(tmp_path), str(source)], check=True)


# ---- deficient declarations: the generator fails, naming the problem -----------------------

def with_doc(name: str, doc: list[str]) -> dict:
    functions = dict(FUNCTIONS)
    file, decl, _ = functions[name]
    functions[name] = (file, decl, doc)
    return functions


#: Each case: the function whose doc it replaces, that doc, and the problem the generator names.
DEFICIENT = {
    "no @return": ("db_realm_count_objects", ["The count. Fails with DB_ERR_WRONG_THREAD."],
                   "db_realm_count_objects returns db_status_e but its doc has no @return"),
    "bool without @return": ("db_realm_is_valid", ["Whether it is open."],
                             "db_realm_is_valid returns bool but its doc has no @return"),
    "pointer without its release": (
        "db_realm_open", ["Opens a realm.", "returns:", "A new realm, or NULL."],
        "db_realm_open returns db_realm_t *: its @return names neither db_realm_release"),
    "pointer naming another release": (
        "db_realm_open", ["Opens a realm.", "returns:", "A new realm (db_object_release)."],
        "db_realm_open returns db_realm_t *: its @return names neither db_realm_release"),
    "string without db_string_free": (
        "db_object_description", ["A description.", "returns:", "A new string, DB_ERR_WRONG_THREAD."],
        "db_object_description returns char *: its @return names neither db_string_free"),
    "borrowed pointer without its lifetime": (
        "db_migration_get_realm", ["The realm.", "returns:", "Borrowed."],
        "db_migration_get_realm returns db_realm_t *: its @return names neither db_realm_release"),
    "release named outside @return": (
        "db_schema_new", ["A schema; release with db_schema_release.", "returns:", "A new schema."],
        "db_schema_new returns db_schema_t *"),
    "wrong thread not said": (
        "db_realm_count_objects", ["The count.", "returns:", "DB_OK, DB_ERR_INVALID_ARGUMENT."],
        "db_realm_count_objects can fail with DB_ERR_WRONG_THREAD (it takes a db_realm_t) but its doc does not say so"),
    "wrong thread not said by a bool": (
        "db_object_is_valid", ["Whether it exists.", "returns:", "true if so."],
        "db_object_is_valid can fail with DB_ERR_WRONG_THREAD"),
    "wrong thread claimed by a thread-free call": (
        "db_realm_is_valid", ["Whether it is open.", "returns:", "true; DB_ERR_WRONG_THREAD."],
        "db_realm_is_valid says DB_ERR_WRONG_THREAD, which it cannot return (read only the handle's own state"),
    "wrong thread claimed without a confined handle": (
        "db_schema_new", ["A schema.", "returns:", "A new schema (release with db_schema_release), "
                                   "or NULL with DB_ERR_WRONG_THREAD."],
        "db_schema_new says DB_ERR_WRONG_THREAD, which it cannot return (it takes no handle confined"),
}


@pytest.mark.parametrize("case", sorted(DEFICIENT))
def test_a_deficient_declaration_fails(case: str, tmp_path: Path) -> None:
    function, doc, message = DEFICIENT[case]
    problems = generator_failure(tmp_path, with_doc(function, doc))
    assert message in problems
    assert "1 problem(s)" in problems  # that one, and nothing else


#: Handle types whose @brief does not give the thread rule: what replaces what in TYPES, and the error.
BRIEFS_WITHOUT_THE_THREAD_RULE = {
    "a handle type without its thread rule fails": (
        "/** @brief An object. Threads: its realm's. */", "/** @brief An object. Valid while it exists. */",
        "the @brief of db_object_t does not say which threads"),
    "a thread rule outside the brief does not count": (
        "/** @brief An object. Threads: its realm's. */", "/**\n * @brief An object.\n *\n * Threads: its realm's.\n */",
        "the @brief of db_object_t"),
    "an undocumented handle type fails": (
        "/** @brief An immutable schema. Threads: any thread. */\n", "", "the @brief of db_schema_t"),
}


@pytest.mark.parametrize("case", sorted(BRIEFS_WITHOUT_THE_THREAD_RULE))
def test_a_brief_must_give_the_thread_rule(case: str, tmp_path: Path) -> None:
    old, new, error = BRIEFS_WITHOUT_THE_THREAD_RULE[case]
    generator_failure(tmp_path, types=TYPES.replace(old, new), match=error)


def test_validity_asked_another_way_fails(tmp_path: Path) -> None:
    functions = dict(FUNCTIONS)
    del functions["db_realm_is_valid"]
    functions["db_realm_is_closed"] = (
        "RealmAPI.swift",
        "SWIFT_EXTERN bool db_realm_is_closed(db_realm_t const * _Nullable realm) SWIFT_NOEXCEPT;",
        ["Whether it is closed.", "returns:", "true once closed."])
    problems = generator_failure(tmp_path, functions)
    assert "db_realm_is_closed: ask validity one way, as db_X_is_valid" in problems
    assert "db_realm_t can become invalid but has no db_realm_is_valid" in problems


def test_a_function_in_another_nouns_file_fails(tmp_path: Path) -> None:
    functions = dict(FUNCTIONS)
    _, decl, doc = functions["db_object_description"]
    functions["db_object_description"] = ("RealmAPI.swift", decl, doc)
    generator_failure(tmp_path, functions,
                      match="db_object_description is in RealmAPI.swift; it belongs in ObjectAPI.swift")


def test_a_function_without_a_section_fails(tmp_path: Path) -> None:
    functions = dict(FUNCTIONS)
    functions["db_zebra_stripe"] = ("ZebraAPI.swift",
                                    "SWIFT_EXTERN void db_zebra_stripe(void) SWIFT_NOEXCEPT;", [])
    generator_failure(tmp_path, functions, match="db_zebra_stripe belongs to no section")


def test_a_stale_swift_header_fails(tmp_path: Path) -> None:
    sources = swift_sources(FUNCTIONS)
    sources["ObjectAPI.swift"] += "\n@c public func db_object_new_thing() {}\n"
    generator_failure(tmp_path, sources=sources, match="db_object_new_thing .* is not in the Swift header")


def test_the_command_line_lists_the_problems_and_writes_nothing(tmp_path: Path, capsys) -> None:
    root, header = repo(tmp_path, with_doc("db_realm_count_objects", ["The count."]))
    out = tmp_path / "db.h"
    assert run_generator(root, header, out) == 2
    assert "db_realm_count_objects returns db_status_e but its doc has no @return" in capsys.readouterr().err
    assert not out.exists()


# ---- the real sources -----------------------------------------------------------------------

def test_the_sections_are_the_files_of_sources_capi() -> None:
    exports = generate_header.swift_exports(str(REPO))
    files = {file for file, _ in exports.values()}
    assert files == {section.file for section in generate_header.SECTIONS}
    for name, (file, _) in exports.items():
        assert generate_header.section_of(name).file == file, name


def test_thread_free_names_functions_of_the_header() -> None:
    declared = check_exports.header_functions(str(REPO / "include" / "db.h"))
    assert set(generate_header.THREAD_FREE) <= declared, set(generate_header.THREAD_FREE) - declared


def test_the_real_types_header_passes() -> None:
    types = (REPO / "Sources" / "CDBTypes" / "include" / "db_types.h").read_text(encoding="utf-8")
    briefs = generate_header.handle_types(types)
    assert "db_realm_t" in briefs and "db_notification_token_t" in briefs
    assert all("thread" in brief.lower() for brief in briefs.values()), briefs


# ---- check_exports ---------------------------------------------------------------

def test_header_functions_ignores_typedefs_and_comments(good, tmp_path: Path) -> None:
    header = tmp_path / "db.h"
    header.write_text(generate(*good))
    names = check_exports.header_functions(str(header))
    assert "db_realm_open" in names and "db_clear_last_error" in names
    assert "db_migration_func_t" not in names  # function-pointer typedef
    assert "db_get_last_error" not in names    # only mentioned in comments


@pytest.mark.parametrize("name", ["db_create", "db_env_create", "db_strerror", "db_version",
                                  "db_env_set_func_open", "db_env_set_func_anything_new", "db_sequence_create"])
def test_berkeley_db_names_collide(name: str) -> None:
    assert check_exports.collides_with_berkeley_db(name, set(check_exports.BERKELEY_DB_NAMES))


@pytest.mark.parametrize("name", ["db_realm_open", "db_schema_new", "db_library_version_string", "db_status_string"])
def test_realmdb_names_do_not_collide(name: str) -> None:
    assert not check_exports.collides_with_berkeley_db(name, set(check_exports.BERKELEY_DB_NAMES))


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("nm") is None, reason="needs gcc and nm")
def test_check_exports_on_a_small_library(tmp_path: Path) -> None:
    header = tmp_path / "db.h"
    header.write_text("int db_one(void);\nint db_two(int x);\n")
    source = tmp_path / "lib.c"
    source.write_text("int db_one(void) { return 1; }\nint db_two(int x) { return x; }\n"
                      "int helper(void) { return 3; }\n")

    def build(version_script: bool) -> Path:
        lib = tmp_path / ("lib%s.so" % ("ok" if version_script else "leaky"))
        cmd = ["gcc", "-shared", "-fPIC", str(source), "-o", str(lib)]
        if version_script:
            cmd.append("-Wl,--version-script=" + str(REPO / "exports.map"))
        subprocess.run(cmd, check=True)
        return lib

    def check(lib: Path) -> int:
        return check_exports.main([str(lib), "--header", str(header), "--berkeley-db-library", "/nonexistent"])

    ok = build(True)
    assert check(ok) == 0
    leaky = build(False)
    assert check(leaky) == 1
    header.write_text("int db_one(void);\nint db_two(int x);\nint db_three(void);\n")
    assert check(ok) == 1
