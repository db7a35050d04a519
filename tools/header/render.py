"""Writing db.h: the header's frame, the inlined types, then one banner and block per section."""

from __future__ import annotations

from header.doc_comments import format_doc
from header.sections import SECTIONS, lifecycle_step, section_of
from header.swift_header import Declaration

REGENERATE_COMMAND = "python3 tools/generate_header.py"


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
