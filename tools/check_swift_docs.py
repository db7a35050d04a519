#!/usr/bin/env python3
"""Checks that every public declaration of the Swift API (Sources/RealmDB) has a `///` comment.

    python3 tools/check_swift_docs.py [folder]

A declaration is a line starting (after attributes) with `public` or `open` and a declaring
keyword (func, var, let, init, subscript, class, struct, enum, protocol, typealias, case,
static, ...). It is documented when the lines right above it, skipping attributes, are `///`
comments. Declarations whose name starts with `_rlm` or `_` (the library's own hooks, public
only because Swift requires it), enum cases inside a documented enum, and members of a
conformance extension that implement a protocol requirement documented elsewhere (`description`,
`encode(to:)`, collection indices, operators) are not required to have one.
Exit status 1 lists each undocumented declaration as path:line.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Iterable, List

ROOT = Path(__file__).resolve().parent.parent

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:static|final|override|mutating|nonisolated(?:\(unsafe\))?|"
    r"convenience|required|class|prefix|postfix|indirect)\s+)*"
    r"(?P<kind>func|var|let|init|subscript|class|struct|enum|protocol|typealias|case|extension)\b\s*(?P<name>[^\s(:{]*)")

# Requirements of standard protocols, documented by the protocol.
STANDARD_MEMBERS = {
    "description", "startIndex", "endIndex", "encode", "hash", "makeIterator", "next", "rawValue",
    "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "&&", "||", "!",
}


def undocumented(path: Path) -> Iterable[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        match = DECLARATION.match(line)
        if not match:
            continue
        kind, name = match.group("kind"), match.group("name")
        if name[:1].isalpha() or name[:1] == "_":
            name = re.split(r"[<=]", name)[0]  # a generic parameter list or an initial value
        if kind == "extension" or name.startswith("_") or name in STANDARD_MEMBERS:
            continue
        if kind == "init" and "(" in line and re.search(r"init\((?:from|integerLiteral|rawValue|stringKey)\b", line):
            continue
        above = number - 1
        while above >= 0 and re.match(r"^\s*@", lines[above]):
            above -= 1
        if above >= 0 and lines[above].strip().startswith("///"):
            continue
        if kind == "case" and _inside_documented_enum(lines, number):
            continue
        yield number + 1


def _inside_documented_enum(lines: List[str], number: int) -> bool:
    for above in range(number - 1, -1, -1):
        if re.match(r"^\s*(?:public\s+)?(?:indirect\s+)?enum\b", lines[above]):
            return above > 0 and lines[above - 1].strip().startswith("///")
    return False


def main(argv: List[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else ROOT / "Sources" / "RealmDB"
    missing = [f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{line}"
               for path in sorted(folder.rglob("*.swift")) for line in undocumented(path)]
    for entry in missing:
        print(f"{entry}: public declaration without a /// comment")
    if missing:
        print(f"{len(missing)} undocumented public declarations", file=sys.stderr)
        return 1
    print(f"every public declaration in {folder} is documented")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
