#!/usr/bin/env python3
"""Check that libdb.so exports exactly the functions include/db.h declares.

    python3 tools/check_exports.py [path/to/libdb.so] [--header include/db.h]

Fails (exit 1) when
  * a db_* function declared in the header is not exported by the library,
  * the library exports a db_* symbol the header does not declare,
  * the library exports any symbol that does not start with db_ (the version
    script exports.map should hide everything else: the Swift runtime's and
    CoreEngine's symbols must not leak into callers' namespaces),
  * the library exports a name that Berkeley DB's C API also defines.
    Berkeley DB's library is also called libdb (libdb-5.3.so, with a libdb.so
    development link) and uses the same db_ prefix: a process that loads both
    would bind one library's callers to the other's function.

The default library is the newest of .build/*/libdb.so (SwiftPM).
The symbol list comes from `nm -D --defined-only`.
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Berkeley DB's public C functions and data (the DB, DB_ENV and DB_SEQUENCE
# methods are struct members, not symbols). From Berkeley DB 5.3/6.x's db.h
# and `nm -D libdb-5.3.so`, plus the functions of earlier releases that
# programs still link against (1.85's dbopen has no db_ prefix).
BERKELEY_DB_NAMES = {
    "db_create", "db_env_create", "db_sequence_create", "db_strerror",
    "db_version", "db_full_version", "db_copy", "db_xa_switch",
    "db_env_set_func_assert", "db_env_set_func_close", "db_env_set_func_dirfree",
    "db_env_set_func_dirlist", "db_env_set_func_exists", "db_env_set_func_file_map",
    "db_env_set_func_free", "db_env_set_func_fsync", "db_env_set_func_ftruncate",
    "db_env_set_func_ioinfo", "db_env_set_func_malloc", "db_env_set_func_map",
    "db_env_set_func_open", "db_env_set_func_pread", "db_env_set_func_pwrite",
    "db_env_set_func_read", "db_env_set_func_realloc", "db_env_set_func_region_map",
    "db_env_set_func_rename", "db_env_set_func_seek", "db_env_set_func_sleep",
    "db_env_set_func_unlink", "db_env_set_func_unmap", "db_env_set_func_write",
    "db_env_set_func_yield",
    # Berkeley DB 2.x-4.x
    "db_open", "db_appinit", "db_appexit", "db_jump_set", "db_value_set",
    "db_env_set_pageyield", "db_env_set_panicstate", "db_env_set_region_init",
    "db_env_set_tas_spins", "db_sql_codegen",
    # replication / XA / utilities shipped in the same library
    "db_rep_set_transport", "db_env_rep_start", "db_xa_open",
    # DB 1.85 compatibility (dbopen is not db_-prefixed, listed for completeness)
    "dbopen", "dbm_open", "dbm_close", "dbm_fetch", "dbm_store", "dbm_delete",
    "dbm_firstkey", "dbm_nextkey", "dbm_error", "dbm_clearerr",
}
# Whole families Berkeley DB owns, present or future.
BERKELEY_DB_PATTERNS = ["db_env_set_func_*", "db_env_*", "db_sequence_*", "db_xa_*"]

NM_LINE = re.compile(r"^(?:[0-9a-fA-F]+\s+)?(?P<type>[A-Za-z])\s+(?P<name>\S+)$")
# `<type> db_name(` at top level of the header, after comments are removed.
DECL_NAME = re.compile(r"\b(db_[A-Za-z0-9_]+)\s*\(")


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def header_functions(path: str) -> set[str]:
    """Names of the functions a header declares: `name(` outside comments and
    preprocessor lines (function-pointer typedefs read `(*name)(`, so they do
    not match)."""
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    return set(DECL_NAME.findall(text))


def exported_symbols(library: str, nm: str = "nm") -> dict[str, str]:
    """Defined global symbols of the dynamic symbol table: name -> nm type.

    Lower-case nm types are local bindings. The linker may leave symbols that
    the version script made local in .dynsym (lld does, for Swift's protected
    metadata symbols); the dynamic linker never binds to them, so they are not
    exports. `u` (GNU unique) is global."""
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        m = NM_LINE.match(line.strip())
        if not m:
            continue
        kind = m.group("type")
        if kind.islower() and kind != "u":
            continue
        name = m.group("name").split("@", 1)[0]
        symbols[name] = kind
    return symbols


def berkeley_db_names(extra_libraries: list[str], nm: str = "nm") -> set[str]:
    names = set(BERKELEY_DB_NAMES)
    for lib in extra_libraries:
        try:
            names |= {n for n in exported_symbols(lib, nm) if n.startswith("db") and not n.startswith("__")}
        except (OSError, subprocess.CalledProcessError):
            pass
    return names


def collides_with_berkeley_db(name: str, bdb_names: set[str]) -> bool:
    return name in bdb_names or any(fnmatch.fnmatchcase(name, p) for p in BERKELEY_DB_PATTERNS)


def default_library(root: str) -> str:
    found = {os.path.realpath(p) for p in glob.glob(os.path.join(root, ".build", "*", "libdb.so"))}
    if not found:
        raise FileNotFoundError("no .build/*/libdb.so: run `swift build` first, or pass a library")
    return max(found, key=lambda p: (os.path.getmtime(p), p))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library", nargs="?", help="libdb.so (default: newest .build/*/libdb.so)")
    parser.add_argument("--header", default=os.path.join(ROOT, "include", "db.h"))
    parser.add_argument("--nm", default=os.environ.get("NM", "nm"))
    parser.add_argument("--berkeley-db-library", action="append", default=None,
                        help="also treat this library's db* exports as reserved "
                             "(default: any libdb-*.so installed in the system library folders)")
    args = parser.parse_args(argv)

    try:
        library = args.library or default_library(ROOT)
    except FileNotFoundError as e:
        print("check_exports: error: %s" % e, file=sys.stderr)
        return 2
    bdb_libs = args.berkeley_db_library
    if bdb_libs is None:
        bdb_libs = sorted(glob.glob("/usr/lib/*/libdb-[0-9]*.so") + glob.glob("/usr/lib/libdb-[0-9]*.so"))

    declared = header_functions(args.header)
    exported = exported_symbols(library, args.nm)
    bdb = berkeley_db_names(bdb_libs, args.nm)

    problems = []
    for name in sorted(declared - set(exported)):
        problems.append("declared in %s but not exported: %s" % (os.path.relpath(args.header), name))
    for name in sorted(n for n in exported if n.startswith("db_") and n not in declared):
        problems.append("exported but not declared in the header: %s (%s)" % (name, exported[name]))
    for name in sorted(n for n in exported if not n.startswith("db_")):
        problems.append("exported symbol without the db_ prefix (check exports.map): %s (%s)"
                        % (name, exported[name]))
    for name in sorted(n for n in set(exported) | declared if collides_with_berkeley_db(n, bdb)):
        problems.append("name collides with Berkeley DB's C API: %s" % name)
    for name in sorted(n for n in exported if n.startswith("db_") and exported[n] not in "Tt"):
        problems.append("exported db_ symbol is not a function: %s (nm type %s)" % (name, exported[name]))

    if problems:
        print("check_exports: %s: %d problem(s)" % (library, len(problems)))
        for p in problems:
            print("  " + p)
        return 1
    print("check_exports: %s exports exactly the %d functions of %s (no other symbols, "
          "no Berkeley DB names)" % (library, len(declared), os.path.relpath(args.header)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
