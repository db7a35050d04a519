"""Reading CAPI-Swift.h: the `db_*` C declarations Swift prints for the @c functions of Sources/CAPI.

Swift-specific decorations are removed (SWIFT_EXTERN, SWIFT_NOEXCEPT, SWIFT_WARN_UNUSED_RESULT,
nullability qualifiers) and pointer declarations are normalised to `const T *name`.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field

from header.errors import GeneratorError

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


@dataclass
class Declaration:
    """One `db_*` function of the Swift header, normalised to plain C."""
    name: str
    text: str                      # normalised C declaration, ending in ';'
    doc: list[str] = field(default_factory=list)  # comment lines (without '///')
    ret: str = ""                  # normalised return type
    params: list[str] = field(default_factory=list)  # normalised parameters ("const db_realm_t *realm")


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

