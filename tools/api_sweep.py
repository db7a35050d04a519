#!/usr/bin/env python3
"""List the functions include/db.h declares, and check that the hostile-input sweep covers them.

    python3 tools/api_sweep.py            # every prototype: return type, name, parameters
    python3 tools/api_sweep.py --check    # tests/c/test_api_sweep.c has a row for each, exactly

tests/c/test_api_sweep.c calls every function of db.h with hostile arguments. Its table
SWEEP_FUNCTIONS has one row per function:

    FN(db_list_get, STATUS, 0, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(OUT, out_value))

--check fails (exit 1) when a function of the header has no row, a row names a function the
header does not declare, or a row does not match its prototype: the parameter names and their
order (P(kind, name)), the argument fields of the call (a[i].field, by the parameter's C type),
the kind's field (SWEEP_KINDS), the return kind (R_*, by the return type), and the F_WRONG_THREAD
flag (set exactly when the function's doc names DB_ERR_WRONG_THREAD: the sweep's wrong_thread
test then checks that the call returns it on another thread or in a fork child, and never
otherwise). For a missing
function it prints a row to start from, with the fields filled in and every kind left as `?`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_HEADER = os.path.join(ROOT, "include", "db.h")
DEFAULT_SWEEP = os.path.join(ROOT, "tests", "c", "test_api_sweep.c")

# The sw_arg_t field that carries each non-pointer C type (pointers: "p").
FIELDS = {
    "size_t": "z",
    "uint64_t": "u",
    "int64_t": "i",
    "double": "d",
    "db_property_key_t": "i",
    "db_object_key_t": "i",
    "db_class_key_t": "ck",
    "bool": "b",
    "db_aggregate_e": "e",
    "db_upsert_mode_e": "e",
    "db_status_e": "e",
    "db_migration_func_t": "migration_fn",
    "db_migration_object_func_t": "migration_object_fn",
    "db_collection_change_func_t": "collection_cb",
    "db_object_change_func_t": "object_cb",
    "db_sectioned_change_func_t": "sectioned_cb",
    "db_section_key_func_t": "section_key_fn",
    "db_scheduler_notify_func_t": "notify_fn",
    "db_check_progress_func_t": "progress_fn",
    "db_should_compact_func_t": "should_compact_fn",
    "db_free_userdata_func_t": "free_fn",
}

# The return kinds (R_* in the sweep) that fit each return type.
RETURN_KINDS = {
    "db_status_e": {"STATUS"},
    "void": {"VOID"},
    "bool": {"FALSE", "TRUE", "ANY"},
    "size_t": {"ZERO"},
}
POINTER_RETURN_KINDS = {"PTR", "PTR_OR_NONE", "STR"}


@dataclass
class Param:
    type: str
    name: str


@dataclass
class Function:
    name: str
    return_type: str
    params: list[Param]

    def prototype(self) -> str:
        params = ", ".join(_join(p.type, p.name) for p in self.params) or "void"
        return "%s(%s);" % (_join(self.return_type, self.name), params)


@dataclass
class Row:
    name: str
    ret: str
    flags: set[str]                 # F_WRITE, F_WRONG_THREAD, ...
    args: list[str]                 # "a[0].p", ...
    params: list[tuple[str, str]]   # (kind, name)
    line: int


def _join(ctype: str, name: str) -> str:
    return ctype + ("" if ctype.endswith("*") else " ") + name


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


PROTOTYPE = re.compile(r"(?P<ret>[A-Za-z_][\w\s\*]*?)\s*\b(?P<name>db_\w+)\s*\((?P<params>[^()]*)\)\s*;")


def parse_param(text: str) -> Param:
    m = re.match(r"^(?P<type>.*?[\s\*])(?P<name>[A-Za-z_]\w*)$", " ".join(text.split()))
    if not m:
        raise ValueError("cannot parse parameter %r" % text)
    ctype = re.sub(r"\s*\*\s*", " *", m.group("type").strip()).replace(" * *", " **").strip()
    return Param(type=ctype, name=m.group("name"))


def header_functions(path: str) -> list[Function]:
    """The functions a header declares, in order: `type db_name(params);` outside comments and
    preprocessor lines (function-pointer typedefs read `(*name)(`, so they do not match)."""
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    functions = []
    for m in PROTOTYPE.finditer(text):
        ret = " ".join(m.group("ret").split())
        if ret.startswith("typedef"):
            continue
        params_text = m.group("params").strip()
        params = [] if params_text in ("", "void") else [parse_param(p) for p in params_text.split(",")]
        functions.append(Function(name=m.group("name"), return_type=re.sub(r"\s*\*", " *", ret), params=params))
    return functions


ROW = re.compile(r"\bFN\(\s*(?P<name>\w+)\s*,\s*(?P<ret>\w+)\s*,\s*(?P<flags>[\w\s|]+?)\s*,\s*"
                 r"\((?P<args>[^()]*)\)\s*,(?P<params>.*?)\)\s*(?:\\\s*)?$", re.S)
PARAM = re.compile(r"\bP\(\s*(\w+)\s*,\s*(\w+)\s*\)")
KIND = re.compile(r"\bK\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)")


def _macro_body(text: str, macro: str) -> tuple[str, int]:
    """The lines of `#define macro(...) \\` ... up to the line without a trailing backslash."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(r"\s*#\s*define\s+%s\(" % macro, line):
            body = []
            j = i
            while lines[j].rstrip().endswith("\\"):
                j += 1
                body.append(lines[j])
            return "\n".join(body), i + 2
    raise ValueError("no #define %s(...) in the sweep" % macro)


def sweep_kinds(path: str) -> dict[str, str]:
    """SWEEP_KINDS: each kind's sw_arg_t field."""
    with open(path, encoding="utf-8") as f:
        body, _ = _macro_body(strip_comments(f.read()), "SWEEP_KINDS")
    return {name: field for name, field, _hostility in KIND.findall(body)}


def sweep_rows(path: str) -> list[Row]:
    """SWEEP_FUNCTIONS: its rows, each possibly continued over several lines."""
    with open(path, encoding="utf-8") as f:
        body, first_line = _macro_body(strip_comments(f.read()), "SWEEP_FUNCTIONS")
    rows: list[Row] = []
    pending: list[str] = []
    start = first_line
    for offset, line in enumerate(body.split("\n")):
        text = line.rstrip().rstrip("\\").strip()
        if not text:
            continue
        if not pending:
            start = first_line + offset
        pending.append(text)
        joined = " ".join(pending)
        if joined.count("(") == joined.count(")"):
            m = ROW.match(joined)
            if not m:
                raise ValueError("line %d: cannot read this row of SWEEP_FUNCTIONS: %s" % (start, joined))
            args = [a.strip() for a in m.group("args").split(",") if a.strip()]
            flags = {f.strip() for f in m.group("flags").split("|")} - {"0"}
            rows.append(Row(name=m.group("name"), ret=m.group("ret"), flags=flags, args=args,
                            params=PARAM.findall(m.group("params")), line=start))
            pending = []
    if pending:
        raise ValueError("unterminated row of SWEEP_FUNCTIONS: %s" % " ".join(pending))
    return rows


DOCUMENTED = re.compile(r"/\*\*(?P<doc>(?:(?!\*/).)*)\*/\s*[^;{}]*?\b(?P<name>db_\w+)\s*\(", re.S)


def wrong_thread_functions(path: str) -> set[str]:
    """The functions whose doc comment in the header names DB_ERR_WRONG_THREAD."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return {m.group("name") for m in DOCUMENTED.finditer(text) if "DB_ERR_WRONG_THREAD" in m.group("doc")}


def field_of(ctype: str) -> str | None:
    if ctype.endswith("*"):
        return "p"
    return FIELDS.get(ctype)


def suggested_row(fn: Function) -> str:
    ret = "STATUS" if fn.return_type == "db_status_e" else \
        "|".join(sorted(RETURN_KINDS.get(fn.return_type, POINTER_RETURN_KINDS)))
    args = ", ".join("a[%d].%s" % (i, field_of(p.type) or "?") for i, p in enumerate(fn.params))
    params = " ".join("P(?, %s)" % p.name for p in fn.params)
    return "FN(%s, %s, 0, (%s), %s) \\" % (fn.name, ret, args, params)


def check(header: str, sweep: str) -> list[str]:
    """Every mismatch between the header's functions and the sweep's rows."""
    functions = {fn.name: fn for fn in header_functions(header)}
    wrong_thread = wrong_thread_functions(header)
    kinds = sweep_kinds(sweep)
    problems: list[str] = []
    seen: set[str] = set()
    for row in sweep_rows(sweep):
        where = "%s:%d: %s" % (os.path.relpath(sweep, ROOT), row.line, row.name)
        if row.name in seen:
            problems.append("%s has two rows" % where)
        seen.add(row.name)
        fn = functions.get(row.name)
        if fn is None:
            problems.append("%s is not declared in %s (remove its row)" % (where, os.path.relpath(header, ROOT)))
            continue
        if ("F_WRONG_THREAD" in row.flags) != (row.name in wrong_thread):
            problems.append("%s: %s F_WRONG_THREAD, but its doc in the header %s DB_ERR_WRONG_THREAD (the "
                            "wrong_thread sweep checks the flag against what the call does)"
                            % (where, "has" if "F_WRONG_THREAD" in row.flags else "lacks",
                               "names" if row.name in wrong_thread else "does not name"))
        allowed = RETURN_KINDS.get(fn.return_type, POINTER_RETURN_KINDS if fn.return_type.endswith("*") else set())
        if row.ret not in allowed:
            problems.append("%s: return kind %s does not fit %s (use %s)"
                            % (where, row.ret, fn.return_type, " or ".join(sorted(allowed)) or "?"))
        names = [name for _kind, name in row.params]
        expected = [p.name for p in fn.params]
        if names != expected:
            problems.append("%s: parameters are (%s), the header has (%s)" % (where, ", ".join(names), ", ".join(expected)))
            continue
        if len(row.args) != len(fn.params):
            problems.append("%s: the call passes %d arguments, the function takes %d"
                            % (where, len(row.args), len(fn.params)))
            continue
        for i, (param, arg, (kind, _name)) in enumerate(zip(fn.params, row.args, row.params)):
            field = field_of(param.type)
            if arg != "a[%d].%s" % (i, field):
                problems.append("%s: argument %d (%s) must be a[%d].%s, not %s"
                                % (where, i, _join(param.type, param.name), i, field, arg))
            if kind not in kinds:
                problems.append("%s: %s has kind %s, which SWEEP_KINDS does not define" % (where, param.name, kind))
            elif kinds[kind] != field:
                problems.append("%s: %s (%s) cannot have kind %s, whose field is %s"
                                % (where, param.name, param.type, kind, kinds[kind]))
    for name, fn in functions.items():
        if name not in seen:
            problems.append("%s has no row in SWEEP_FUNCTIONS of %s; start from:\n    %s"
                            % (name, os.path.relpath(sweep, ROOT), suggested_row(fn)))
    return problems


def report(tool: str, problems: list[str], success: str) -> int:
    """A checker's ending: each problem on stderr, then their count, and exit status 1; or the
    line ``success`` on stdout and 0."""
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("%s: %d problem(s)" % (tool, len(problems)), file=sys.stderr)
        return 1
    print(success)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--header", default=DEFAULT_HEADER)
    parser.add_argument("--sweep", default=DEFAULT_SWEEP)
    parser.add_argument("--check", action="store_true", help="check the sweep's coverage of the header")
    args = parser.parse_args(argv)
    if not args.check:
        for fn in header_functions(args.header):
            print(fn.prototype())
        return 0
    return report("api_sweep", check(args.header, args.sweep),
                  "api_sweep: every function of %s has a matching row" % os.path.relpath(args.header, ROOT))


if __name__ == "__main__":
    sys.exit(main())
