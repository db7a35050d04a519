#!/usr/bin/env python3
"""The C ABI of libdb.so, checked against the last release's: an incompatible change must come
with a new ABI major version (the first number of db_library_version_string(), the SONAME's).

    python3 tools/check_abi.py            compare include/db.h with abi/libdb.abi.json
    python3 tools/check_abi.py --write    record include/db.h as the release's ABI (at a release)

The ABI is read from the header (tools/check_ffi.py's parser) and from the C compiler, which
reports each struct's size, alignment and member offsets. What breaks a program built against
the release, and so needs a new major version: a function, type or enum constant removed; a
function's or callback's parameters or return type changed; a struct's size, alignment or
members changed; an enum constant's value changed. Additions (functions, types, constants) do
not. A new major version starts a new baseline: run --write when it is released.

abidiff (abigail-tools) compares two binaries through their debug information; a Swift library's
DWARF describes Swift types, not db.h's, so this compares the header, which is the ABI's
definition here, and the compiler's layout of it.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ffi import Header, Member, parse_header  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_HEADER = os.path.join(REPO, "include", "db.h")
DEFAULT_BASELINE = os.path.join(REPO, "abi", "libdb.abi.json")
VERSION_SOURCE = os.path.join(REPO, "Sources", "CAPI", "LibraryAPI.swift")


def library_version(path: str = VERSION_SOURCE) -> str:
    """db_library_version_string()'s value, from its one definition."""
    with open(path, encoding="utf-8") as f:
        m = re.search(r'^private let versionString: StaticString = "(\d+\.\d+\.\d+)"$', f.read(), re.M)
    if not m:
        raise SystemExit(f"check_abi: no version string in {path}")
    return m.group(1)


def _signature(return_type: str, param_types: List[str]) -> str:
    return "%s(%s)" % (return_type, ", ".join(param_types))


def _named_members(members: List[Member], prefix: str = "") -> List[Tuple[str, str]]:
    """(name, declaration) of every named member, those of anonymous unions included."""
    out: List[Tuple[str, str]] = []
    for m in members:
        if m.members is not None:
            out += _named_members(m.members, prefix)
        else:
            out.append((m.name, m.type + ("[%d]" % m.length if m.length is not None else "")))
    return out


def layouts(header_path: str, header: Header, cc: str) -> Dict[str, Dict[str, Any]]:
    """Each struct's size, alignment and member offsets, as the C compiler lays them out."""
    lines = ["#include <stdalign.h>", "#include <stddef.h>", "#include <stdio.h>",
             '#include "%s"' % os.path.abspath(header_path), "int main(void) {"]
    for name, members in header.structs.items():
        lines.append('    printf("%s size %%zu align %%zu\\n", sizeof(%s), alignof(%s));' % (name, name, name))
        for member, _ in _named_members(members):
            lines.append('    printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (name, member, name, member))
    lines += ["    return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "layout.c")
        program = os.path.join(tmp, "layout")
        with open(source, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        subprocess.run([cc, "-std=c11", "-o", program, source], check=True)
        output = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    out: Dict[str, Dict[str, Any]] = {name: {"offsets": {}} for name in header.structs}
    for line in output.splitlines():
        m = re.fullmatch(r"(\w+) size (\d+) align (\d+)", line)
        if m:
            out[m.group(1)]["size"] = int(m.group(2))
            out[m.group(1)]["align"] = int(m.group(3))
            continue
        m = re.fullmatch(r"(\w+)\.(\w+) (\d+)", line)
        if not m:
            raise SystemExit(f"check_abi: unexpected layout line {line!r}")
        out[m.group(1)]["offsets"][m.group(2)] = int(m.group(3))
    return out


def describe(header_path: str, cc: str = "cc") -> Dict[str, Any]:
    """The ABI of a header as JSON-ready data."""
    header = parse_header(header_path)
    layout = layouts(header_path, header, cc)
    version = library_version()
    return {
        "version": version,
        "major": int(version.split(".")[0]),
        "functions": {f.name: _signature(f.return_type, [p.type for p in f.params]) for f in header.functions},
        "callbacks": {n: _signature(f.return_type, [p.type for p in f.params]) for n, f in header.callbacks.items()},
        "structs": {n: {"members": [list(m) for m in _named_members(members)], **layout[n]}
                    for n, members in header.structs.items()},
        "enums": header.enums,
        "aliases": header.aliases,
    }


def compare(old: Dict[str, Any], new: Dict[str, Any]) -> Tuple[List[str], List[str]]:
    """(incompatible changes, additions) from the ``old`` ABI to the ``new`` one."""
    broken: List[str] = []
    added: List[str] = []
    for kind in ("functions", "callbacks", "aliases"):
        for name, was in old[kind].items():
            now = new[kind].get(name)
            if now is None:
                broken.append(f"{kind[:-1]} {name} removed")
            elif now != was:
                broken.append(f"{kind[:-1]} {name} changed: {was} -> {now}")
        added += [f"{kind[:-1]} {name}" for name in new[kind] if name not in old[kind]]
    for name, was in old["structs"].items():
        now = new["structs"].get(name)
        if now is None:
            broken.append(f"struct {name} removed")
            continue
        for key in ("size", "align"):
            if now[key] != was[key]:
                broken.append(f"struct {name}: {key} {was[key]} -> {now[key]}")
        if now["members"] != was["members"]:
            broken.append(f"struct {name}: members {was['members']} -> {now['members']}")
        elif now["offsets"] != was["offsets"]:
            broken.append(f"struct {name}: offsets {was['offsets']} -> {now['offsets']}")
    added += [f"struct {name}" for name in new["structs"] if name not in old["structs"]]
    for name, constants in old["enums"].items():
        now_constants = new["enums"].get(name)
        if now_constants is None:
            broken.append(f"enum {name} removed")
            continue
        for constant, value in constants.items():
            if constant not in now_constants:
                broken.append(f"enum {name}: {constant} removed")
            elif now_constants[constant] != value:
                broken.append(f"enum {name}: {constant} = {value} -> {now_constants[constant]}")
        added += [f"enum constant {name}.{c}" for c in now_constants if c not in constants]
    added += [f"enum {name}" for name in new["enums"] if name not in old["enums"]]
    return broken, added


def check(old: Dict[str, Any], new: Dict[str, Any]) -> Tuple[List[str], List[str]]:
    """(problems, notes): an incompatible change is a problem unless the major version moved on."""
    broken, added = compare(old, new)
    problems: List[str] = []
    notes = [f"added: {a}" for a in added]
    if new["major"] < old["major"]:
        problems.append(f"the ABI major version went back from {old['major']} to {new['major']}")
    elif broken and new["major"] == old["major"]:
        problems += [f"incompatible with {old['version']}: {b}" for b in broken]
        problems.append(f"an incompatible change needs a new major version: set versionString in "
                        f"Sources/CAPI/LibraryAPI.swift to {old['major'] + 1}.0.0 (the SONAME follows), "
                        "or keep the old declarations")
    elif broken:
        notes += [f"incompatible, with the new major version {new['major']}: {b}" for b in broken]
    return problems, notes


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", default=DEFAULT_HEADER)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="the last release's ABI (JSON)")
    parser.add_argument("--write", action="store_true", help="record the header's ABI as the baseline")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = parser.parse_args(argv)
    new = describe(args.header, args.cc)
    if args.write:
        os.makedirs(os.path.dirname(args.baseline), exist_ok=True)
        with open(args.baseline, "w", encoding="utf-8") as f:
            json.dump(new, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"check_abi: wrote the ABI of {new['version']} ({len(new['functions'])} functions) to {args.baseline}")
        return 0
    with open(args.baseline, encoding="utf-8") as f:
        old = json.load(f)
    problems, notes = check(old, new)
    for note in notes:
        print(f"check_abi: {note}")
    for problem in problems:
        print(f"check_abi: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_abi: {os.path.relpath(args.header, REPO)} ({new['version']}) is compatible with "
          f"{old['version']} (SONAME libdb.so.{new['major']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
