"""What every page of the site shares: the frame (title, navigation, style) and the links from a
name in running text to the entry that documents it.

Links are made for every name that looks like an API name (``db_*``, ``DB_*`` constants, Python
roles such as :meth:`Realm.write`), known or not: a name with no entry gives a link to a missing
anchor, which tools/check_links.py reports. That is how a guide or a doc comment naming a function
that was renamed or removed fails CI."""
from __future__ import annotations

import html
import re
from typing import List, Set, Tuple

#: The pages of the navigation bar, in order: (file, title).
NAVIGATION: List[Tuple[str, str]] = [
    ("index.html", "realmdb"),
    ("c-api.html", "C API"),
    ("python-api.html", "Python API"),
]

STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1b1b; }
nav { background: #20232a; padding: 0.6em 1.5em; }
nav a { color: #e6e6e6; margin-right: 1.4em; text-decoration: none; }
main { max-width: 62em; padding: 1em 1.5em 4em; }
pre, code { font: 13px/1.45 ui-monospace, monospace; background: #f4f4f4; }
pre { padding: 0.7em; overflow-x: auto; }
code { padding: 0 0.2em; }
.entry { border-top: 1px solid #ddd; padding-top: 0.4em; margin-top: 1.2em; }
.entry > h3 { margin: 0.2em 0; font-family: ui-monospace, monospace; font-size: 15px; }
.tag { color: #666; font-weight: normal; font-size: 13px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: 0.2em 0.5em; }
.toc { columns: 3; font-size: 13px; }
"""

#: A C name of the API in running text: db_function or db_type_t, DB_CONSTANT. A name followed
#: by ".h" is a file (db_types.h), not a symbol.
C_NAME = re.compile(r"\b(db_[a-z][a-z0-9_]*[a-z0-9]|DB_[A-Z][A-Z0-9_]*[A-Z0-9])\b(?!\.h\b)")


#: The guides' pages, after the references in the navigation bar (set by tools/build_docs.py).
guide_navigation: List[Tuple[str, str]] = []


def frame(title: str, body: str, current: str) -> str:
    """A whole HTML page around ``body`` (HTML)."""
    links = []
    for target, label in NAVIGATION + guide_navigation:
        weight = ' style="font-weight:bold"' if target == current else ""
        links.append(f'<a href="{target}"{weight}>{html.escape(label)}</a>')
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<nav>{''.join(links)}</nav>\n<main>\n{body}\n</main>\n</body>\n</html>\n")


def link_c_names(escaped: str, page: str = "c-api.html", skip: str = "") -> str:
    """HTML text (already escaped) with every C API name linked to its entry of the C reference
    (``page`` is how this page reaches it; "" on the reference itself). ``skip``: a name left as
    it is (the entry's own)."""
    def link(match: "re.Match[str]") -> str:
        name = match.group(1)
        if name == skip:
            return name
        if name.startswith("DB_") and not is_constant_of_an_enum(name):
            return name  # a macro (DB_H): plain text
        return f'<a href="{page}#{name}">{name}</a>'
    return C_NAME.sub(link, escaped)


#: The DB_ constants the C reference documents, filled in when it is built (c_reference.build).
documented_constants: Set[str] = set()


def is_constant_of_an_enum(name: str) -> bool:
    """Whether ``name`` is, or looks like, a constant of one of the header's enums (it starts as
    one does: DB_ERR_*, DB_VALUE_*, ...): those are linked, so a misspelled one is reported as a
    broken link. DB_H and the like are not."""
    if name in documented_constants:
        return True
    family = "_".join(name.split("_")[:2]) + "_"
    return any(c.startswith(family) for c in documented_constants)
