"""The sections of db.h and the order within each.

The header has one section per file of Sources/CAPI that exports functions (SECTIONS, in that
order; a function must be in the file its name assigns it to), and each section is in lifecycle
order: what creates or opens the section's handles, then what uses them, then their frozen views
(freeze, thaw, is_frozen), then release and close; in source order within each step.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass

from header.errors import GeneratorError
from header.swift_header import Declaration


@dataclass(frozen=True)
class Section:
    """One section of db.h: the functions of one file of Sources/CAPI."""
    file: str                     # Sources/CAPI/<file>
    title: str                    # banner title
    nouns: tuple[str, ...]        # db_<noun>_* functions belong here (the longest matching noun wins)
    names: tuple[str, ...] = ()   # regular expressions of other functions that belong here

    @property
    def handles(self) -> tuple[str, ...]:
        """The handle types of the section's nouns (db_<noun>_t)."""
        return tuple("db_%s_t" % noun for noun in self.nouns)


# The header's sections, in order: one per file of Sources/CAPI with @c functions. A function
# belongs to the first section whose `names` match it, else to the one with the longest noun its
# name starts with; it must be declared in that section's file.
SECTIONS = [
    Section("LibraryAPI.swift", "Library: version, status codes, last error, strings", ("library", "status"),
            (r"db_get_last_error", r"db_clear_last_error", r"db_string_free")),
    Section("SchemaAPI.swift", "Schema", ("schema",)),
    Section("ConfigAPI.swift", "Config", ("config",)),
    Section("RealmAPI.swift", "Realm", ("realm",)),
    Section("ObjectAPI.swift", "Objects", ("object",)),
    Section("ObjectCreatorAPI.swift", "Object creators: one class and row shape, many creates", ("object_creator",)),
    Section("ObjectReaderAPI.swift", "Object readers: one class and row shape, many point reads", ("object_reader",)),
    Section("PropertyWriterAPI.swift", "Property writers: one property, many objects", ("property_writer",)),
    Section("MigrationAPI.swift", "Migration", ("migration",)),
    Section("ResultsAPI.swift", "Results", ("results",)),
    Section("SectionedAPI.swift", "Sectioned results", ("sectioned_results",), (r"db_results_sectioned_by_\w+",)),
    Section("ListAPI.swift", "Lists", ("list",), (r"db_object_get_list",)),
    Section("SetAPI.swift", "Sets", ("set",), (r"db_object_get_set",)),
    Section("DictionaryAPI.swift", "Dictionaries", ("dictionary",), (r"db_object_get_dictionary",)),
    Section("NotificationAPI.swift", "Notifications: observing, changes, tokens",
            ("notification_token", "collection_change", "object_change", "sectioned_change"), (r"db_\w+_observe",)),
]
CAPI_DIR = os.path.join("Sources", "CAPI")

# Lifecycle steps within a section (see lifecycle_step).
STEP_CREATE, STEP_USE, STEP_FROZEN, STEP_END = range(4)
FROZEN_VERBS = ("freeze", "thaw", "is_frozen")
END_VERBS = ("close", "release")


def section_of(name: str, sections: list[Section] = SECTIONS) -> Section:
    """The section a function belongs to, by its name (see SECTIONS)."""
    for section in sections:
        if any(re.fullmatch(pattern, name) for pattern in section.names):
            return section
    best: tuple[int, Section] | None = None
    for section in sections:
        for noun in section.nouns:
            if name.startswith("db_%s_" % noun) and (best is None or len(noun) > best[0]):
                best = (len(noun), section)
    if best is None:
        raise GeneratorError("%s belongs to no section: add its noun to SECTIONS in tools/header/sections.py" % name)
    return best[1]


SWIFT_EXPORT_RE = re.compile(r"^@c\s+public\s+func\s+(db_\w+)", re.M)


def swift_exports(root: str) -> dict[str, tuple[str, int]]:
    """Every `@c public func db_*` of Sources/CAPI: name -> (file name, position in the file)."""
    found: dict[str, tuple[str, int]] = {}
    directory = os.path.join(root, CAPI_DIR)
    for path in sorted(glob.glob(os.path.join(directory, "*.swift"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for position, m in enumerate(SWIFT_EXPORT_RE.finditer(text)):
            name = m.group(1)
            if name in found:
                raise GeneratorError("%s is exported by both %s and %s" % (name, found[name][0], os.path.basename(path)))
            found[name] = (os.path.basename(path), position)
    return found


def check_files(decls: list[Declaration], exports: dict[str, tuple[str, int]]) -> list[str]:
    """Each function is declared in the file of its section; each file with exports is a section."""
    problems = []
    files = {section.file for section in SECTIONS}
    for decl in decls:
        if decl.name not in exports:
            problems.append("%s is in the Swift header but no file of %s exports it (a stale build?)" % (decl.name, CAPI_DIR))
            continue
        expected = section_of(decl.name).file
        if exports[decl.name][0] != expected:
            problems.append("%s is in %s; it belongs in %s (its section, see SECTIONS)" % (decl.name, exports[decl.name][0], expected))
    declared = {d.name for d in decls}
    for name, (file, _) in sorted(exports.items()):
        if name not in declared:
            problems.append("%s (%s) is not in the Swift header: rebuild before generating" % (name, file))
        if file not in files:
            problems.append("%s exports %s but is no section of SECTIONS" % (file, name))
    return problems


def returned_handle(decl: Declaration) -> str | None:
    """`db_x_t` when the function returns a `db_x_t *`."""
    m = re.fullmatch(r"(db_\w+_t) \*", decl.ret)
    return m.group(1) if m else None


def lifecycle_step(decl: Declaration, section: Section) -> int:
    """Create/open (returns a new handle of the section's kind), use, frozen views, release/close."""
    verb = decl.name
    if any(verb.endswith("_" + v) for v in END_VERBS):
        return STEP_END
    if any(verb.endswith("_" + v) for v in FROZEN_VERBS):
        return STEP_FROZEN
    if returned_handle(decl) in section.handles:
        return STEP_CREATE
    return STEP_USE

