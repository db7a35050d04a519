"""The documentation rules db.h must meet; lint() lists every declaration that breaks one.

The generator fails, listing every problem, when:
  - a function that returns a value has no @return;
  - a returned pointer's @return names neither its release function
    (db_X_release for a db_X_t *, db_string_free for a char *) nor says
    "borrowed, valid until ...";
  - a handle type's @brief in db_types.h does not say which threads may use it;
  - a function that can fail with DB_ERR_WRONG_THREAD does not say so, or one
    that cannot says it can (see can_fail_with_wrong_thread);
  - validity is asked another way than db_X_is_valid, or a handle type that
    can become invalid has no db_X_is_valid.
"""

from __future__ import annotations

import re

from header.doc_comments import convert_doc
from header.sections import returned_handle
from header.swift_header import Declaration

# Handles confined to their realm's thread (and process): a function that takes one can fail with
# DB_ERR_WRONG_THREAD (Realm.requireOpen in the engine: another thread than the one that opened a
# live realm, or any handle in a fork child of the process that opened it), unless it never
# reaches that check: THREAD_FREE. tests/c/test_api_sweep.c (wrong_thread) calls every function
# on another thread and in a fork child and checks the header's claims both ways.
CONFINED_HANDLES = ("db_realm_t", "db_object_t", "db_results_t", "db_list_t", "db_set_t", "db_dictionary_t",
                    "db_sectioned_results_t", "db_migration_t", "db_property_writer_t", "db_object_creator_t",
                    "db_object_reader_t")
THREAD_FREE_GROUPS = {
    "releases and closes: they only drop the handle (or close it), from any thread": (
        "db_realm_close", "db_realm_release", "db_object_release", "db_results_release", "db_list_release",
        "db_set_release", "db_dictionary_release", "db_sectioned_results_release", "db_property_writer_release",
        "db_object_creator_release", "db_object_reader_release"),
    "read only the handle's own state (under its lock), not the realm's data": (
        "db_realm_is_valid", "db_realm_is_frozen", "db_realm_is_in_write", "db_realm_get_schema",
        "db_realm_get_change_counter",
        "db_object_equals", "db_object_is_frozen", "db_results_is_valid", "db_results_is_frozen",
        "db_sectioned_results_is_valid", "db_sectioned_results_is_frozen", "db_list_is_frozen",
        "db_set_is_frozen", "db_dictionary_is_frozen", "db_property_writer_is_valid",
        "db_object_creator_is_valid", "db_object_reader_is_valid", "db_object_reader_values"),
    "return the live realm (or results over it) without reading it": (
        "db_realm_thaw", "db_results_thaw", "db_sectioned_results_thaw"),
    "derive results lazily: nothing is read until the new results are (key paths are resolved "
    "against the cached schema)": (
        "db_results_filter", "db_results_sort", "db_results_sort_by_key_paths", "db_results_distinct",
        "db_results_distinct_by_key_paths", "db_results_limit", "db_results_sectioned_by_key_path",
        "db_results_sectioned_by_key_path_sorted", "db_results_sectioned_by_function"),
    "hand out what the migration holds: its borrowed realm handle and its schemas": (
        "db_migration_get_realm", "db_migration_get_old_schema", "db_migration_get_new_schema"),
}
THREAD_FREE = {name: reason for reason, names in THREAD_FREE_GROUPS.items() for name in names}

# Handle types that never become invalid (no db_X_is_valid): immutable or plain settings.
NEVER_INVALID = ("db_schema_t", "db_config_t")
# Other spellings of "is this handle usable?": validity is asked one way, db_X_is_valid.
OTHER_VALIDITY = re.compile(r"^db_\w+_is_(closed|invalidated|open|alive|usable|live)$")
# What a returned pointer's @return says when the caller does not release it.
BORROWED = re.compile(r"borrowed, valid until", re.I)


def return_paragraph(body: list[str]) -> str | None:
    """The text of the @return paragraph of a converted doc comment, or None."""
    for i, line in enumerate(body):
        if line.startswith("@return"):
            text = [line[len("@return"):].strip()]
            for more in body[i + 1:]:
                if more == "" or more.startswith("@"):
                    break
                text.append(more.strip())
            return " ".join(text)
    return None


def parameter_types(decl: Declaration) -> list[str]:
    """The base type of each parameter (`db_realm_t` for `const db_realm_t *realm`)."""
    types = []
    for param in decl.params:
        words = [w for w in re.findall(r"[A-Za-z_]\w*", param) if w != "const"]
        types.append(words[0] if words else "")
    return types


def can_fail_with_wrong_thread(decl: Declaration) -> bool:
    """Whether the function takes a handle confined to its realm's thread and reaches the check."""
    return decl.name not in THREAD_FREE and any(t in CONFINED_HANDLES for t in parameter_types(decl))


HANDLE_TYPE_RE = re.compile(r"/\*\*(?P<doc>(?:(?!\*/).)*?)\*/\s*typedef struct (?P<tag>db_\w+) \{ char _opaque; \} (?P<name>db_\w+_t);", re.S)


def handle_types(types_text: str) -> dict[str, str]:
    """Opaque handle types of db_types.h -> the text of their @brief paragraph ("" if none)."""
    found = {}
    for m in re.finditer(r"typedef struct (db_\w+) \{ char _opaque; \} (db_\w+_t);", types_text):
        found[m.group(2)] = ""
    for m in HANDLE_TYPE_RE.finditer(types_text):
        doc = m.group("doc")
        # The doc comment right before this typedef only: no other typedef in between.
        if "typedef" in doc:
            continue
        lines = [re.sub(r"^\s*\*\s?", "", line).strip() for line in doc.splitlines()]
        brief: list[str] = []
        started = False
        for line in lines:
            if line.startswith("@brief"):
                started = True
                line = line[len("@brief"):].strip()
            elif started and (line == "" or line.startswith("@")):
                break
            if started:
                brief.append(line)
        found[m.group("name")] = " ".join(brief)
    return found


def lint(decls: list[Declaration], types_text: str) -> list[str]:
    """What the documentation fails to say (see the module's docstring)."""
    problems = []
    names = {d.name for d in decls}
    for decl in decls:
        body = convert_doc(decl.doc)
        text = " ".join(body)
        returns = return_paragraph(body)
        if decl.ret != "void" and returns is None:
            problems.append("%s returns %s but its doc has no @return" % (decl.name, decl.ret))
        if decl.ret.endswith("*") and returns is not None:
            handle = returned_handle(decl)
            release = "db_string_free" if decl.ret == "char *" else (handle[:-2] + "_release" if handle else None)
            if not (BORROWED.search(returns) or (release and release in names and release in returns)):
                problems.append("%s returns %s: its @return names neither %s nor says \"borrowed, valid until ...\""
                                % (decl.name, decl.ret, release or "a release function"))
        claims = "DB_ERR_WRONG_THREAD" in text
        if can_fail_with_wrong_thread(decl) and not claims:
            problems.append("%s can fail with DB_ERR_WRONG_THREAD (it takes a %s) but its doc does not say so"
                            % (decl.name, " or ".join(t for t in parameter_types(decl) if t in CONFINED_HANDLES)))
        elif claims and not can_fail_with_wrong_thread(decl):
            why = THREAD_FREE.get(decl.name, "it takes no handle confined to a thread")
            problems.append("%s says DB_ERR_WRONG_THREAD, which it cannot return (%s)" % (decl.name, why))
        if OTHER_VALIDITY.match(decl.name):
            problems.append("%s: ask validity one way, as db_X_is_valid" % decl.name)
    for handle, brief in sorted(handle_types(types_text).items()):
        if not re.search(r"\bthreads?\b", brief, re.I):
            problems.append("the @brief of %s does not say which threads may use it" % handle)
        release = handle[:-2] + "_release"
        if release in names and handle not in NEVER_INVALID and handle[:-2] + "_is_valid" not in names:
            problems.append("%s can become invalid but has no %s_is_valid" % (handle, handle[:-2]))
    return problems
