#!/usr/bin/env python3
"""Generate include/db.h, realmdb's public C header.

include/db.h is made of two parts, both taken from the Swift build:

1. the types: Sources/CDBTypes/include/db_types.h, inlined verbatim (its
   DB_TYPES_H include guard is kept, so db.h and db_types.h can both be
   included in one translation unit);
2. the functions: every `db_*` declaration that Swift prints for the `@c`
   functions of Sources/CAPI into the clang header SwiftPM generates at
   .build/<config>/CAPI.build/include/CAPI-Swift.h (CMake writes the same
   file with -emit-clang-header-path, see CMakeLists.txt).

The Swift-specific decorations are removed (SWIFT_EXTERN, SWIFT_NOEXCEPT,
SWIFT_WARN_UNUSED_RESULT, nullability qualifiers), pointer declarations are
normalised to `const T *name`, and the doc comments Swift converted from
Markdown (`\\param`, `returns:`, <code>...</code>, lists) are turned into
Doxygen `/** ... */` blocks with @param/@return.

The header has one section per file of Sources/CAPI that exports functions
(SECTIONS, in that order; a function must be in the file its name assigns it
to), and each section is in lifecycle order: what creates or opens the
section's handles, then what uses them, then their frozen views (freeze, thaw,
is_frozen), then release and close; in source order within each step.

Before writing anything the generator checks the documentation (lint()) and
fails, listing every problem, when:
  - a function that returns a value has no @return;
  - a returned pointer's @return names neither its release function
    (db_X_release for a db_X_t *, db_string_free for a char *) nor says
    "borrowed, valid until ...";
  - a handle type's @brief in db_types.h does not say which threads may use it;
  - a function that can fail with DB_ERR_WRONG_THREAD does not say so, or one
    that cannot says it can (see can_fail_with_wrong_thread);
  - validity is asked another way than db_X_is_valid, or a handle type that
    can become invalid has no db_X_is_valid.
The output depends only on its inputs: running the tool twice gives
byte-identical files.

Usage:
    python3 tools/generate_header.py [CAPI-Swift.h]          # writes include/db.h
    python3 tools/generate_header.py --check [CAPI-Swift.h]  # exit 1 + diff if stale
    python3 tools/generate_header.py --stdout [CAPI-Swift.h]
"""

from __future__ import annotations

import argparse
import difflib
import glob
import os
import re
import sys
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES_HEADER = os.path.join("Sources", "CDBTypes", "include", "db_types.h")
OUTPUT_HEADER = os.path.join("include", "db.h")
REGENERATE_COMMAND = "python3 tools/generate_header.py"


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

# Handles confined to their realm's thread (and process): a function that takes one can fail with
# DB_ERR_WRONG_THREAD (Realm.requireOpen in the engine: another thread than the one that opened a
# live realm, or any handle in a fork child of the process that opened it), unless it never
# reaches that check: THREAD_FREE. tests/c/test_api_sweep.c (wrong_thread) calls every function
# on another thread and in a fork child and checks the header's claims both ways.
CONFINED_HANDLES = ("db_realm_t", "db_object_t", "db_results_t", "db_list_t", "db_set_t", "db_dictionary_t",
                    "db_sectioned_results_t", "db_migration_t")
THREAD_FREE_GROUPS = {
    "releases and closes: they only drop the handle (or close it), from any thread": (
        "db_realm_close", "db_realm_release", "db_object_release", "db_results_release", "db_list_release",
        "db_set_release", "db_dictionary_release", "db_sectioned_results_release"),
    "read only the handle's own state (under its lock), not the realm's data": (
        "db_realm_is_valid", "db_realm_is_frozen", "db_realm_is_in_write", "db_realm_get_schema",
        "db_object_equals", "db_object_is_frozen", "db_results_is_valid", "db_results_is_frozen",
        "db_sectioned_results_is_valid", "db_sectioned_results_is_frozen", "db_list_is_frozen",
        "db_set_is_frozen", "db_dictionary_is_frozen"),
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

# Macros SwiftPM's generated header puts around C declarations. Anything else
# that starts with SWIFT_ in a declaration is an error: it would have to be
# understood before being dropped from the public header.
STRIPPED_MACROS = ("SWIFT_EXTERN", "SWIFT_NOEXCEPT", "SWIFT_WARN_UNUSED_RESULT")
NULLABILITY = ("_Nullable_result", "_Nullable", "_Nonnull", "_Null_unspecified")

C_TYPE_WORDS = {
    "const", "volatile", "restrict", "struct", "enum", "union", "unsigned",
    "signed", "char", "short", "int", "long", "float", "double", "void",
    "bool", "_Bool",
}

# Swift's Markdown callouts ("- Returns:", "- Note:", ...) come out as a line
# "returns:" followed by their text. Map the ones Doxygen has a command for.
CALLOUT_COMMANDS = {
    "returns": "@return",
    "note": "@note",
    "warning": "@warning",
    "attention": "@attention",
    "important": "@attention",
    "precondition": "@pre",
    "requires": "@pre",
    "postcondition": "@post",
    "invariant": "@invariant",
    "seealso": "@see",
    "bug": "@bug",
    "todo": "@todo",
    "since": "@since",
    "version": "@version",
    "remark": "@remark",
    "remarks": "@remark",
}
# Callouts Doxygen has no command for: kept as a labelled paragraph.
CALLOUT_LABELS = {
    "complexity": "Complexity",
    "throws": "Throws",
    "experiment": "Experiment",
    "author": "Author",
    "authors": "Authors",
    "copyright": "Copyright",
    "date": "Date",
    "tag": "Tag",
    "keyword": "Keyword",
    "recommended": "Recommended",
    "recommendedover": "Recommended over",
    "mutatingvariant": "Mutating variant",
    "nonmutatingvariant": "Non-mutating variant",
    "localizationkey": "Localization key",
}
CALLOUT_RE = re.compile(r"^(%s):$" % "|".join(sorted(list(CALLOUT_COMMANDS) + list(CALLOUT_LABELS))))

TYPOGRAPHY = {
    "\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'",
    "\u2013": "-", "\u2014": "--", "\u2026": "...", "\u00a0": " ",
}
HTML_ENTITIES = {"&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&apos;": "'", "&amp;": "&"}


class GeneratorError(Exception):
    pass


@dataclass
class Declaration:
    name: str
    text: str                      # normalised C declaration, ending in ';'
    doc: list[str] = field(default_factory=list)  # comment lines (without '///')
    ret: str = ""                  # normalised return type
    params: list[str] = field(default_factory=list)  # normalised parameters ("const db_realm_t *realm")


# --------------------------------------------------------------------------
# Reading CAPI-Swift.h
# --------------------------------------------------------------------------

def default_swift_header(root: str) -> str:
    """The newest CAPI-Swift.h under .build/ (debug or release, any triple)."""
    patterns = [
        os.path.join(root, ".build", "*", "CAPI.build", "include", "CAPI-Swift.h"),
        os.path.join(root, ".build", "*", "*", "CAPI.build", "include", "CAPI-Swift.h"),
    ]
    found = {}
    for pattern in patterns:
        for path in glob.glob(pattern):
            found[os.path.realpath(path)] = path
    if not found:
        raise GeneratorError(
            "no .build/*/CAPI.build/include/CAPI-Swift.h: run `swift build` first, "
            "or pass the path of a CAPI-Swift.h")
    return max(found, key=lambda p: (os.path.getmtime(p), p))


def extern_c_blocks(text: str) -> list[list[str]]:
    """The lines of each `extern "C" {` ... `} // extern "C"` block."""
    lines = text.splitlines()
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        stripped = line.strip()
        if current is None:
            if stripped == 'extern "C" {':
                current = []
        elif stripped.startswith("}") and 'extern "C"' in stripped:
            blocks.append(current)
            current = None
        else:
            current.append(line)
    if current is not None:
        raise GeneratorError('unterminated extern "C" block in the Swift header')
    if not blocks:
        raise GeneratorError('no extern "C" block in the Swift header: is it a Swift-generated header?')
    return blocks


def parse_swift_header(text: str) -> tuple[list[Declaration], list[str]]:
    """Returns the db_* declarations and the names of skipped non-db_ functions."""
    decls: dict[str, Declaration] = {}
    skipped: list[str] = []
    for block in extern_c_blocks(text):
        doc: list[str] = []
        pending: list[str] | None = None
        for raw in block:
            line = raw.strip()
            if pending is not None:
                pending.append(line)
                if line.endswith(";"):
                    _add_declaration(" ".join(pending), doc, decls, skipped)
                    pending, doc = None, []
                continue
            if line.startswith("///"):
                doc.append(line[3:])
            elif line.startswith("SWIFT_EXTERN "):
                if line.endswith(";"):
                    _add_declaration(line, doc, decls, skipped)
                    doc = []
                else:
                    pending = [line]
            elif line == "" or line.startswith("#"):
                # Blank lines separate declarations; a doc comment belongs to the
                # declaration right after it, so a blank line after a comment is kept.
                if line.startswith("#"):
                    doc = []
            else:
                raise GeneratorError(
                    "unsupported declaration in the Swift header (only @c functions are "
                    "understood; types belong in db_types.h): %r" % line)
        if pending is not None:
            raise GeneratorError("unterminated declaration: %r" % " ".join(pending))
    return sorted(decls.values(), key=lambda d: d.name), sorted(skipped)


DECL_RE = re.compile(r"^(?P<ret>.+?)\b(?P<name>[A-Za-z_]\w*)\s*\((?P<params>.*)\)\s*;$")


def _add_declaration(line: str, doc: list[str], decls: dict[str, Declaration], skipped: list[str]) -> None:
    text = line
    for macro in STRIPPED_MACROS:
        text = re.sub(r"\b%s\b" % macro, " ", text)
    leftover = re.findall(r"\bSWIFT_\w+", text)
    if leftover:
        raise GeneratorError("unknown Swift macro %s in: %s" % (", ".join(leftover), line))
    for q in NULLABILITY:
        text = re.sub(r"\b%s\b" % q, " ", text)
    text = " ".join(text.split())
    m = DECL_RE.match(text)
    if not m:
        raise GeneratorError("cannot parse declaration: %s" % line)
    name = m.group("name")
    if not name.startswith("db_"):
        skipped.append(name)
        return
    if name in decls:
        raise GeneratorError("%s is declared twice in the Swift header" % name)
    ret = normalise_type(m.group("ret"))
    params_text = m.group("params").strip()
    if params_text in ("", "void"):
        params = "void"
    else:
        params = ", ".join(normalise_param(p) for p in split_params(params_text))
    sep = "" if ret.endswith("*") else " "
    decls[name] = Declaration(name=name, text="%s%s%s(%s);" % (ret, sep, name, params), doc=list(doc), ret=ret,
                              params=[] if params == "void" else params.split(", "))


def split_params(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def _type_tokens(text: str) -> list[str]:
    return re.findall(r"\*|[A-Za-z_]\w*", text)


def normalise_type(text: str) -> str:
    """`db_value_t const * const *` -> `const db_value_t *const *`."""
    if "(" in text or "[" in text:
        raise GeneratorError("unsupported type (use a typedef in db_types.h): %s" % text)
    tokens = _type_tokens(text)
    if not tokens or tokens[0] == "*":
        raise GeneratorError("cannot parse type: %s" % text)
    base: list[str] = []
    i = 0
    while i < len(tokens) and tokens[i] != "*":
        base.append(tokens[i])
        i += 1
    const = "const" in base
    base = [t for t in base if t != "const"]
    out = ("const " if const else "") + " ".join(base)
    pointers = ""
    while i < len(tokens):
        tok = tokens[i]
        if tok == "*":
            pointers += "*"
        else:  # a qualifier of the pointer just before it
            pointers += tok + " "
        i += 1
    pointers = pointers.strip()
    if pointers:
        out += " " + pointers
    return out


def normalise_param(text: str) -> str:
    tokens = _type_tokens(text)
    if not tokens:
        raise GeneratorError("cannot parse parameter: %r" % text)
    name = ""
    if len(tokens) >= 2 and tokens[-1] != "*" and tokens[-1] not in C_TYPE_WORDS:
        name = tokens[-1]
        type_text = text[: text.rfind(name)]
    else:
        type_text = text
    ctype = normalise_type(type_text)
    if not name:
        return ctype
    return ctype + ("" if ctype.endswith("*") else " ") + name


# --------------------------------------------------------------------------
# Doc comments: Swift's Doxygen/HTML flavour -> Doxygen for C readers
# --------------------------------------------------------------------------

def inline_markup(text: str) -> str:
    for src, dst in TYPOGRAPHY.items():
        text = text.replace(src, dst)
    text = re.sub(r"</?code>", "`", text)
    text = re.sub(r"</?(em|i)>", "*", text)
    text = re.sub(r"</?(strong|b)>", "**", text)
    text = re.sub(r'<a href="([^"]*)">(.*?)</a>', r"[\2](\1)", text)
    for src, dst in HTML_ENTITIES.items():
        text = text.replace(src, dst)
    return text.rstrip()


def convert_doc(lines: list[str]) -> list[str]:
    """Converts the `///` lines of one declaration into the body of a `/** */` block."""
    # Split glued commands such as "\endcode\param x ..." onto their own lines.
    flat: list[str] = []
    for line in lines:
        line = line[1:] if line.startswith(" ") else line
        parts = re.split(r"(?<=\S)(?=\\(?:param|returns?|code|endcode)\b)", line)
        flat.extend(parts)

    out: list[str] = []          # each entry is one output line ("" = blank)
    list_depth = 0
    in_code = False
    in_item = False
    pending_callout: str | None = None
    in_tag = False                # inside an @param / @return paragraph
    last_tag = ""

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    for raw in flat:
        line = raw.strip()
        if in_code:
            if line.startswith("\\endcode"):
                while out and out[-1] == "":
                    out.pop()
                out.append("@endcode")
                in_code = False
                rest = line[len("\\endcode"):].strip()
                if rest:
                    out.append(inline_markup(rest))
            else:
                out.append(raw.rstrip())
            continue
        if line == "":
            continue
        if line.startswith("\\code"):
            blank()
            out.append("@code")
            in_code = True
            continue
        if line == "<ul>" or line == "<ol>":
            list_depth += 1
            if list_depth == 1 and not in_tag:
                blank()
            continue
        if line == "</ul>" or line == "</ol>":
            list_depth = max(0, list_depth - 1)
            continue
        if line == "<li>":
            in_item = True
            continue
        if line == "</li>":
            in_item = False
            continue
        m = CALLOUT_RE.match(line)
        if m and list_depth == 0:
            pending_callout = m.group(1)
            continue
        m = re.match(r"^\\param\s+(\S+)\s*(.*)$", line)
        if m:
            if not (out and (out[-1].startswith("@param") or (in_tag and last_tag == "param"))):
                blank()
            last_tag = "param"
            out.append(("@param %s %s" % (m.group(1), inline_markup(m.group(2)))).rstrip())
            in_tag = True
            continue
        m = re.match(r"^\\returns?\b\s*(.*)$", line)
        if m:
            blank()
            out.append(("@return " + inline_markup(m.group(1))).rstrip())
            in_tag, last_tag = True, "return"
            continue
        text = inline_markup(line)
        if pending_callout is not None:
            kind = pending_callout
            pending_callout = None
            if kind in CALLOUT_COMMANDS:
                if not (in_tag and kind == "returns"):
                    blank()
                out.append("%s %s" % (CALLOUT_COMMANDS[kind], text))
                # @return text may go on (lists); other callouts are one paragraph.
                in_tag, last_tag = kind == "returns", kind
            else:
                blank()
                out.append("%s: %s" % (CALLOUT_LABELS[kind], text))
                in_tag = False
            continue
        if list_depth:
            indent = "  " * (list_depth - 1) + ("  " if in_tag else "")
            if in_item:
                out.append("%s- %s" % (indent, text))
                in_item = False  # continuation lines of the item follow indented
            else:
                out.append("%s  %s" % (indent, text))
            continue
        if in_tag:
            out.append("    " + text)   # continuation of @param/@return text
            continue
        out.append(text)
    while out and out[-1] == "":
        out.pop()
    # The first sentence of the comment is its brief: end its paragraph there.
    for i, line in enumerate(out):
        if line == "" or line.startswith(("@", "-", " ")):
            break
        if re.search(r"[.!?:]$", line):
            if i + 1 < len(out) and out[i + 1] != "":
                out.insert(i + 1, "")
            break
    # collapse repeated blank lines
    result: list[str] = []
    for line in out:
        if line == "" and result and result[-1] == "":
            continue
        result.append(line)
    return result


def format_doc(decl: Declaration) -> list[str]:
    body = convert_doc(decl.doc)
    if not body:
        return []
    lines = ["/**"]
    for line in body:
        # Never end the comment early, nor nest one (-Wcomment).
        line = line.replace("*/", "* /").replace("/*", "/ *")
        lines.append((" * " + line).rstrip() if line else " *")
    lines.append(" */")
    return lines


# --------------------------------------------------------------------------
# Writing db.h
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# Sections and lifecycle order
# --------------------------------------------------------------------------

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
        raise GeneratorError("%s belongs to no section: add its noun to SECTIONS in tools/generate_header.py" % name)
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


# --------------------------------------------------------------------------
# Documentation checks
# --------------------------------------------------------------------------

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


def banner(title: str) -> list[str]:
    width = 76
    return [
        "/* " + "=" * (width - 6) + " */",
        "/* " + title.ljust(width - 6) + " */",
        "/* " + "=" * (width - 6) + " */",
    ]


def render(types_text: str, decls: list[Declaration], exports: dict[str, tuple[str, int]] | None = None) -> str:
    """db.h: the types, then one section per SECTIONS entry in lifecycle order."""
    exports = exports or {}
    groups: dict[str, list[Declaration]] = {}
    for d in decls:
        groups.setdefault(section_of(d.name).file, []).append(d)

    types_body = types_text.replace("\r\n", "\n").rstrip("\n") + "\n"

    out: list[str] = []
    out += [
        "/*",
        " * db.h: the public C API of realmdb (libdb.so).",
        " *",
        " * GENERATED FILE: DO NOT EDIT.",
        " * Regenerate with `%s` after `swift build`;" % REGENERATE_COMMAND,
        " * CI runs `%s --check` to keep it current." % REGENERATE_COMMAND,
        " *",
        " * Types come from Sources/CDBTypes/include/db_types.h (inlined below,",
        " * guard included, so both headers may be included together). Functions",
        " * come from the @c exports of Sources/CAPI, as printed by the Swift",
        " * compiler; their documentation is the Swift doc comments.",
        " *",
        " * Conventions: fallible functions return a db_status_e (DB_OK = 0) or a",
        " * pointer (NULL on failure) and write their out_* parameters only on",
        " * success; details of a failure are read with db_get_last_error(). Every",
        " * handle has a typed release function that accepts NULL, and db_X_is_valid",
        " * when it can become invalid. Each handle type's @brief says which threads",
        " * may use it; every function that can fail with DB_ERR_WRONG_THREAD says so.",
        " *",
        " * One section per file of Sources/CAPI, each in lifecycle order: what",
        " * creates or opens its handles, what uses them, their frozen views, and",
        " * what releases or closes them.",
        " */",
        "#ifndef DB_H",
        "#define DB_H",
        "",
    ]
    out += banner("Types (from Sources/CDBTypes/include/db_types.h)")
    out.append("")
    out += types_body.splitlines()
    out += [
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
    ]
    for section in SECTIONS:
        if section.file not in groups:
            continue
        out.append("")
        out += banner(section.title)
        out.append("/* " + ("Sources/CAPI/" + section.file).ljust(70) + " */")
        members = sorted(groups[section.file], key=lambda d: (lifecycle_step(d, section),
                                                               exports.get(d.name, ("", 0))[1], d.name))
        for d in members:
            out.append("")
            out += format_doc(d)
            out.append(d.text)
    out += [
        "",
        "#ifdef __cplusplus",
        '} /* extern "C" */',
        "#endif",
        "",
        "#endif /* DB_H */",
    ]
    return "\n".join(out) + "\n"


def generate(root: str, swift_header: str) -> tuple[str, list[str]]:
    """The header's text and the skipped non-db_ functions; GeneratorError lists every problem."""
    with open(os.path.join(root, TYPES_HEADER), encoding="utf-8") as f:
        types_text = f.read()
    with open(swift_header, encoding="utf-8") as f:
        swift_text = f.read()
    decls, skipped = parse_swift_header(swift_text)
    if not decls:
        raise GeneratorError("no db_* function in %s" % swift_header)
    problems = []
    for decl in decls:
        try:
            section_of(decl.name)
        except GeneratorError as e:
            problems.append(str(e))
    exports = swift_exports(root)
    if not problems:
        problems += check_files(decls, exports)
    problems += lint(decls, types_text)
    if problems:
        raise GeneratorError("%d problem(s):\n  %s" % (len(problems), "\n  ".join(problems)))
    return render(types_text, decls, exports), skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("swift_header", nargs="?",
                        help="CAPI-Swift.h (default: newest .build/*/CAPI.build/include/CAPI-Swift.h)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="do not write; exit 1 with a unified diff if the header is stale")
    mode.add_argument("--stdout", action="store_true", help="print the header instead of writing it")
    parser.add_argument("--root", default=ROOT, help="repository root (default: this tool's repository)")
    parser.add_argument("--output", help="header to write or check (default: ROOT/include/db.h)")
    args = parser.parse_args(argv)

    root = os.path.abspath(args.root)
    output = args.output or os.path.join(root, OUTPUT_HEADER)
    try:
        swift_header = args.swift_header or default_swift_header(root)
        text, skipped = generate(root, swift_header)
    except (GeneratorError, OSError) as e:
        print("generate_header: error: %s" % e, file=sys.stderr)
        return 2
    for name in skipped:
        print("generate_header: warning: %s is not a db_* function; not exported, not in db.h" % name,
              file=sys.stderr)

    if args.stdout:
        sys.stdout.write(text)
        return 0
    rel_output = os.path.relpath(output, root)
    if args.check:
        try:
            with open(output, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = ""
        if current == text:
            print("generate_header: %s is up to date with %s" % (rel_output, swift_header))
            return 0
        diff = difflib.unified_diff(
            current.splitlines(keepends=True), text.splitlines(keepends=True),
            fromfile="a/" + rel_output + " (checked in)", tofile="b/" + rel_output + " (generated)")
        sys.stdout.writelines(diff)
        print("\ngenerate_header: %s is stale; run `%s` and commit it" % (rel_output, REGENERATE_COMMAND),
              file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(output), exist_ok=True)
    try:
        with open(output, encoding="utf-8") as f:
            unchanged = f.read() == text
    except FileNotFoundError:
        unchanged = False
    if not unchanged:
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print("generate_header: %s %s from %s" % (rel_output, "unchanged" if unchanged else "written", swift_header))
    return 0


if __name__ == "__main__":
    sys.exit(main())
