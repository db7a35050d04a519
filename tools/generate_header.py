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

The Swift-specific parsing is in tools/header/swift_header.py, the doc comment
conversion in doc_comments.py, the sections in sections.py, the assembly of the
file in render.py (see tools/header/__init__.py).

Before writing anything the generator checks the documentation (lint(), whose
rules tools/header/lint.py lists: every @return, the release function or
"borrowed" of every returned pointer, the threads of every handle type, the
DB_ERR_WRONG_THREAD claims, one way to ask validity) and fails, listing every
problem. The output depends only on its inputs: running the tool twice gives
byte-identical files.

Usage:
    python3 tools/generate_header.py [CAPI-Swift.h]          # writes include/db.h
    python3 tools/generate_header.py --check [CAPI-Swift.h]  # exit 1 + diff if stale
    python3 tools/generate_header.py --stdout [CAPI-Swift.h]
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

from header.errors import GeneratorError
from header.lint import THREAD_FREE, handle_types, lint
from header.render import REGENERATE_COMMAND, render
from header.sections import SECTIONS, check_files, section_of, swift_exports
from header.swift_header import default_swift_header, parse_swift_header

__all__ = ["GeneratorError", "SECTIONS", "THREAD_FREE", "generate", "handle_types", "main", "section_of",
           "swift_exports"]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES_HEADER = os.path.join("Sources", "CDBTypes", "include", "db_types.h")
OUTPUT_HEADER = os.path.join("include", "db.h")


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
