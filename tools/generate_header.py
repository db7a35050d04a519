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
Doxygen `/** ... */` blocks with @param/@return.  Declarations are grouped by
noun (library, schema, config, realm, object, migration, then the others
alphabetically), sorted by name within a group.  The output depends only on
its two inputs: running the tool twice gives byte-identical files.

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

# (group key, banner title). Library-level functions come first; any noun not
# listed here gets its own group after these, in alphabetical order.
GROUPS = [
    ("library", "Library: version, status codes, last error, strings"),
    ("schema", "Schema"),
    ("config", "Config"),
    ("realm", "Realm"),
    ("object", "Objects"),
    ("migration", "Migration"),
]
LIBRARY_PREFIXES = ("db_library_", "db_status_")
LIBRARY_NAMES = {"db_get_last_error", "db_clear_last_error", "db_string_free"}

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
    decls[name] = Declaration(name=name, text="%s%s%s(%s);" % (ret, sep, name, params), doc=list(doc))


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

def group_of(name: str) -> str:
    if name in LIBRARY_NAMES or name.startswith(LIBRARY_PREFIXES):
        return "library"
    noun = name[len("db_"):].split("_", 1)[0]
    return noun


def banner(title: str) -> list[str]:
    width = 76
    return [
        "/* " + "=" * (width - 6) + " */",
        "/* " + title.ljust(width - 6) + " */",
        "/* " + "=" * (width - 6) + " */",
    ]


def render(types_text: str, decls: list[Declaration]) -> str:
    known = [g for g, _ in GROUPS]
    titles = dict(GROUPS)
    groups: dict[str, list[Declaration]] = {}
    for d in decls:
        groups.setdefault(group_of(d.name), []).append(d)
    others = sorted(g for g in groups if g not in known)
    order = [g for g in known if g in groups] + others

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
        " * handle has a typed release function that accepts NULL.",
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
    for g in order:
        title = titles.get(g, g.capitalize())
        out.append("")
        out += banner(title)
        for d in sorted(groups[g], key=lambda d: d.name):
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
    with open(os.path.join(root, TYPES_HEADER), encoding="utf-8") as f:
        types_text = f.read()
    with open(swift_header, encoding="utf-8") as f:
        swift_text = f.read()
    decls, skipped = parse_swift_header(swift_text)
    if not decls:
        raise GeneratorError("no db_* function in %s" % swift_header)
    return render(types_text, decls), skipped


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
