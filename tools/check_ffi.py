#!/usr/bin/env python3
"""Check that the Python binding's ctypes declarations match include/db.h.

    python3 tools/check_ffi.py [--header include/db.h] [--package bindings/python/realmdb]

The binding declares the C API as data, in two modules that load nothing: realmdb/_c_types.py
(enums, structs, handle pointers, callback types) and realmdb/_prototypes.py (every function's
restype and argtypes). This tool parses the header's declarations and fails (exit 1, one line per
problem) when
  * a function of the header has no prototype, or a prototype names no function of the header;
  * a prototype's argument count, an argument's type or the return type differs from the C one;
  * a struct (or the union inside db_value_t) has other fields, in another order or of other
    types, than the header's; a db_*_t struct of the binding is not in the header;
  * an enum's constants (names without their DB_... prefix, and values) differ;
  * a callback typedef has no CFUNCTYPE in C_CALLBACKS, or its return or argument types differ.

C types map to ctypes one way: `const char *` is c_char_p (c_void_p also accepted, for text
with an explicit size), `char *` is POINTER(c_char) (a string to free), `void *` is c_void_p,
`T *` is POINTER(T), enums are c_int, typedefs of integers resolve to their integer type, and a
struct or callback typedef to the binding's class of the same C name.

tools/tests/test_check_ffi.py runs it on the real files and on deliberately drifted copies.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import importlib
import keyword
import os
import re
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from api_sweep import Function, header_functions, parse_param, report, strip_comments  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_HEADER = os.path.join(ROOT, "include", "db.h")
DEFAULT_PACKAGE = os.path.join(ROOT, "bindings", "python", "realmdb")

SCALARS: Dict[str, Any] = {
    "bool": ctypes.c_bool, "char": ctypes.c_char, "int": ctypes.c_int, "float": ctypes.c_float,
    "double": ctypes.c_double, "size_t": ctypes.c_size_t,
    "int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16, "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64,
    "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16, "uint32_t": ctypes.c_uint32, "uint64_t": ctypes.c_uint64,
}
#: Pointers to bytes that the binding may read raw (their size is given separately).
RAW_POINTERS = {"const char *", "const uint8_t *"}


# --------------------------------------------------------------------------
# The header's types
# --------------------------------------------------------------------------


@dataclass
class Member:
    """A struct or union member: a declaration (`type`, `name`, `length` for an array), or an
    anonymous union (`members`)."""

    type: str = ""
    name: str = ""
    length: Optional[int] = None
    members: Optional[List["Member"]] = None


@dataclass
class Header:
    functions: List[Function]
    structs: Dict[str, List[Member]] = field(default_factory=dict)
    enums: Dict[str, Dict[str, int]] = field(default_factory=dict)
    callbacks: Dict[str, Function] = field(default_factory=dict)
    aliases: Dict[str, str] = field(default_factory=dict)


def _code(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    return re.sub(r"^\s*#.*$", " ", text, flags=re.M)


def _closing_brace(text: str, start: int) -> int:
    """The index of the `}` matching the `{` at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces after offset %d" % start)


def parse_members(body: str) -> List[Member]:
    members: List[Member] = []
    i = 0
    while i < len(body):
        m = re.compile(r"\s*union\s*\{").match(body, i)
        if m:
            end = _closing_brace(body, m.end() - 1)
            rest = re.compile(r"\s*(\w*)\s*;").match(body, end + 1)
            if not rest:
                raise ValueError("cannot read the union at %r" % body[i:i + 40])
            if rest.group(1):
                raise ValueError("named unions are not supported: %s" % rest.group(1))
            members.append(Member(members=parse_members(body[m.end():end])))
            i = rest.end()
            continue
        semicolon = body.find(";", i)
        if semicolon < 0:
            if body[i:].strip():
                raise ValueError("member without ';': %r" % body[i:].strip())
            break
        text = " ".join(body[i:semicolon].split())
        i = semicolon + 1
        array = re.match(r"^(.*?)\s*\[\s*(\d+)\s*\]$", text)
        param = parse_param(array.group(1) if array else text)
        members.append(Member(type=param.type, name=param.name, length=int(array.group(2)) if array else None))
    return members


def parse_header(path: str) -> Header:
    """The functions, structs, enums, callback typedefs and integer typedefs a header declares."""
    text = _code(path)
    header = Header(functions=header_functions(path))
    for m in re.finditer(r"\btypedef\s+(struct|enum)\s+\w*\s*\{", text):
        end = _closing_brace(text, m.end() - 1)
        name = re.compile(r"\s*(\w+)\s*;").match(text, end + 1)
        if not name:
            raise ValueError("cannot read the typedef name after offset %d" % end)
        body = text[m.end():end]
        if m.group(1) == "struct":
            header.structs[name.group(1)] = parse_members(body)
        else:
            constants: Dict[str, int] = {}
            for item in body.split(","):
                if item.strip():
                    c = re.fullmatch(r"\s*(\w+)\s*=\s*(-?(?:0x[0-9a-fA-F]+|\d+))\s*", item)
                    if not c:
                        raise ValueError("%s: enum constants need explicit values: %r" % (name.group(1), item.strip()))
                    constants[c.group(1)] = int(c.group(2), 0)
            header.enums[name.group(1)] = constants
    for m in re.finditer(r"\btypedef\s+([\w\s\*]+?)\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^()]*)\)\s*;", text):
        params_text = m.group(3).strip()
        params = [] if params_text in ("", "void") else [parse_param(p) for p in params_text.split(",")]
        ret = re.sub(r"\s*\*", " *", " ".join(m.group(1).split()))
        header.callbacks[m.group(2)] = Function(name=m.group(2), return_type=ret, params=params)
    for m in re.finditer(r"\btypedef\s+(\w+)\s+(\w+)\s*;", text):
        header.aliases[m.group(2)] = m.group(1)
    return header


# --------------------------------------------------------------------------
# The binding's declarations, loaded without the library
# --------------------------------------------------------------------------


def load_binding(package_dir: str) -> Tuple[types.ModuleType, types.ModuleType]:
    """realmdb/_c_types.py and realmdb/_prototypes.py of ``package_dir``, imported under a private
    package name whose __init__ never runs (it would load libdb.so)."""
    package_dir = os.path.abspath(package_dir)
    name = "_check_ffi_" + hashlib.sha1(package_dir.encode()).hexdigest()[:12]
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = [package_dir]
        sys.modules[name] = package
    return importlib.import_module(name + "._c_types"), importlib.import_module(name + "._prototypes")


# --------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------


class UnknownType(Exception):
    pass


def type_name(t: Any) -> str:
    if t is None:
        return "None (void)"
    if isinstance(t, type) and issubclass(t, ctypes.Array):
        return "%s * %d" % (type_name(t._type_), t._length_)
    return getattr(t, "__name__", repr(t))


class Resolver:
    def __init__(self, header: Header, c_types: types.ModuleType) -> None:
        self.header = header
        self.c_types = c_types

    def ctype(self, ctype: str) -> Any:
        """The ctypes type that ``ctype`` maps to (see the module's doc)."""
        t = " ".join(ctype.split())
        if t.endswith("*"):
            inner = t[:-1].strip()
            if inner.endswith("const") and (inner.endswith(" const") or inner.endswith("*const")):
                inner = inner[:-5].strip()  # a const pointer is a pointer
            if inner == "const char":
                return ctypes.c_char_p
            if inner in ("void", "const void"):
                return ctypes.c_void_p
            return ctypes.POINTER(self.ctype(inner))
        if t.startswith("const "):
            t = t[6:]
        if t == "void":
            return None
        if t in SCALARS:
            return SCALARS[t]
        if t in self.header.aliases:
            return self.ctype(self.header.aliases[t])
        if t in self.header.enums:
            return ctypes.c_int
        if t in self.header.callbacks:
            callback = self.c_types.C_CALLBACKS.get(t)
            if callback is None:
                raise UnknownType("callback type %s has no CFUNCTYPE in C_CALLBACKS of _c_types.py" % t)
            return callback
        if t in self.header.structs:
            struct = getattr(self.c_types, t, None)
            if struct is None:
                raise UnknownType("struct %s is not declared in _c_types.py" % t)
            return struct
        raise UnknownType("the header's type %r is unknown to tools/check_ffi.py" % ctype)

    def matches(self, ctype: str, actual: Any) -> Tuple[bool, str]:
        """Whether the binding's ``actual`` ctypes type fits ``ctype``; and what was expected."""
        expected = self.ctype(ctype)
        if actual is expected:
            return True, type_name(expected)
        if " ".join(ctype.split()) in RAW_POINTERS and actual is ctypes.c_void_p:
            return True, type_name(expected)
        return False, type_name(expected)


def _describe(ctype: str, name: str) -> str:
    return ctype + ("" if ctype.endswith("*") else " ") + name


def check_functions(header: Header, resolve: Resolver, prototypes: types.ModuleType) -> List[str]:
    problems: List[str] = []
    table: Dict[str, Any] = prototypes.PROTOTYPES
    declared = {fn.name: fn for fn in header.functions}
    for name in sorted(set(table) - set(declared)):
        problems.append("%s: _prototypes.py declares it, the header does not" % name)
    for fn in header.functions:
        proto = table.get(fn.name)
        if proto is None:
            problems.append("%s: declared in the header, missing from _prototypes.py" % fn.name)
            continue
        try:
            ok, expected = resolve.matches(fn.return_type, proto.restype)
            if not ok:
                problems.append("%s: returns %s, so restype must be %s, not %s"
                                % (fn.name, fn.return_type, expected, type_name(proto.restype)))
            if len(proto.argtypes) != len(fn.params):
                problems.append("%s: takes %d arguments in the header, %d in _prototypes.py"
                                % (fn.name, len(fn.params), len(proto.argtypes)))
                continue
            for i, (param, actual) in enumerate(zip(fn.params, proto.argtypes)):
                ok, expected = resolve.matches(param.type, actual)
                if not ok:
                    problems.append("%s: argument %d (%s) must be %s, not %s"
                                    % (fn.name, i, _describe(param.type, param.name), expected, type_name(actual)))
        except UnknownType as exc:
            problems.append("%s: %s" % (fn.name, exc))
    return problems


def _python_field(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) else name


def check_members(where: str, members: List[Member], cls: Any, resolve: Resolver) -> List[str]:
    problems: List[str] = []
    fields = list(getattr(cls, "_fields_", []))
    anonymous = set(getattr(cls, "_anonymous_", ()))
    expected_names = [("<union>" if m.members is not None else _python_field(m.name)) for m in members]
    actual_names = [("<union>" if f[0] in anonymous else f[0]) for f in fields]
    if expected_names != actual_names:
        return ["%s: fields are (%s) in the header, (%s) in _c_types.py"
                % (where, ", ".join(expected_names), ", ".join(actual_names))]
    for member, (fname, ftype) in zip(members, fields):
        if member.members is not None:
            if not (isinstance(ftype, type) and issubclass(ftype, ctypes.Union)):
                problems.append("%s.%s: must be a ctypes Union, as in the header" % (where, fname))
            else:
                problems.extend(check_members("%s.<union>" % where, member.members, ftype, resolve))
            continue
        try:
            if member.length is not None:
                ok, expected = resolve.matches(member.type, getattr(ftype, "_type_", None))
                ok = ok and isinstance(ftype, type) and issubclass(ftype, ctypes.Array) and \
                    ftype._length_ == member.length
                expected = "%s * %d" % (expected, member.length)
            else:
                ok, expected = resolve.matches(member.type, ftype)
        except UnknownType as exc:
            problems.append("%s.%s: %s" % (where, fname, exc))
            continue
        if not ok:
            shown = _describe(member.type, member.name) + ("[%d]" % member.length if member.length is not None else "")
            problems.append("%s.%s (%s) must be %s, not %s" % (where, fname, shown, expected, type_name(ftype)))
    return problems


def check_structs(header: Header, resolve: Resolver, c_types: types.ModuleType) -> List[str]:
    problems: List[str] = []
    for name, members in header.structs.items():
        cls = getattr(c_types, name, None)
        if cls is None:
            problems.append("struct %s: declared in the header, missing from _c_types.py" % name)
            continue
        problems.extend(check_members(name, members, cls, resolve))
    for name, value in vars(c_types).items():
        if (re.fullmatch(r"db_\w+_t", name) and isinstance(value, type) and issubclass(value, ctypes.Structure)
                and name not in header.structs):
            problems.append("struct %s: declared in _c_types.py, not in the header" % name)
    return problems


def check_enums(header: Header, c_types: types.ModuleType) -> List[str]:
    problems: List[str] = []
    table: Dict[str, Any] = c_types.C_ENUMS
    for name in sorted(set(table) - set(header.enums)):
        problems.append("enum %s: in C_ENUMS of _c_types.py, not in the header" % name)
    for name, constants in header.enums.items():
        if name not in table:
            problems.append("enum %s: declared in the header, missing from C_ENUMS of _c_types.py" % name)
            continue
        cls, prefixes = table[name]
        expected: Dict[str, int] = {}
        for constant, value in constants.items():
            prefix = next((p for p in prefixes if constant.startswith(p)), None)
            if prefix is None:
                problems.append("enum %s: %s has none of the prefixes %s" % (name, constant, ", ".join(prefixes)))
                continue
            expected[constant[len(prefix):]] = value
        actual = {key: int(member.value) for key, member in cls.__members__.items()}
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                problems.append("enum %s: %s.%s is missing (= %d in the header)" % (name, cls.__name__, key, expected[key]))
            elif key not in expected:
                problems.append("enum %s: %s.%s is not in the header" % (name, cls.__name__, key))
            elif expected[key] != actual[key]:
                problems.append("enum %s: %s.%s is %d, the header says %d"
                                % (name, cls.__name__, key, actual[key], expected[key]))
    return problems


def check_callbacks(header: Header, resolve: Resolver, c_types: types.ModuleType) -> List[str]:
    problems: List[str] = []
    table: Dict[str, Any] = c_types.C_CALLBACKS
    for name in sorted(set(table) - set(header.callbacks)):
        problems.append("callback %s: in C_CALLBACKS of _c_types.py, not in the header" % name)
    for name, fn in header.callbacks.items():
        func_type = table.get(name)
        if func_type is None:
            problems.append("callback %s: declared in the header, missing from C_CALLBACKS of _c_types.py" % name)
            continue
        try:
            ok, expected = resolve.matches(fn.return_type, func_type._restype_)
            if not ok:
                problems.append("callback %s: returns %s, so its CFUNCTYPE must return %s, not %s"
                                % (name, fn.return_type, expected, type_name(func_type._restype_)))
            argtypes = list(func_type._argtypes_)
            if len(argtypes) != len(fn.params):
                problems.append("callback %s: takes %d arguments in the header, %d in its CFUNCTYPE"
                                % (name, len(fn.params), len(argtypes)))
                continue
            for i, (param, actual) in enumerate(zip(fn.params, argtypes)):
                ok, expected = resolve.matches(param.type, actual)
                if not ok:
                    problems.append("callback %s: argument %d (%s) must be %s, not %s"
                                    % (name, i, _describe(param.type, param.name), expected, type_name(actual)))
        except UnknownType as exc:
            problems.append("callback %s: %s" % (name, exc))
    return problems


def check(header_path: str, package_dir: str) -> List[str]:
    """Every difference between the header's declarations and the binding's."""
    header = parse_header(header_path)
    c_types, prototypes = load_binding(package_dir)
    resolve = Resolver(header, c_types)
    return (check_functions(header, resolve, prototypes) + check_structs(header, resolve, c_types)
            + check_enums(header, c_types) + check_callbacks(header, resolve, c_types))


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--header", default=DEFAULT_HEADER)
    parser.add_argument("--package", default=DEFAULT_PACKAGE, help="the realmdb package folder")
    args = parser.parse_args(argv)
    problems = check(args.header, args.package)
    header = parse_header(args.header)
    return report("check_ffi", problems,
                  "check_ffi: %d functions, %d structs, %d enums and %d callback types match %s"
                  % (len(header.functions), len(header.structs), len(header.enums), len(header.callbacks),
                     os.path.relpath(args.header, ROOT)))


if __name__ == "__main__":
    sys.exit(main())
