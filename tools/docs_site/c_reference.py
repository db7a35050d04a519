"""The C API reference (c-api.html) from include/db.h: every type, constant and function with
its documentation, in the header's sections and order.

The header is generated (tools/generate_header.py) in a regular shape: section banners
(``/* ---- */`` lines around a title), ``/** ... */`` doc comments, each before one declaration
that ends with a ``;`` outside braces. Enumerators documented inside an enum get entries of their
own, so that text naming ``DB_ERR_QUERY`` links to it."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import List, Optional

from .page import documented_constants, frame, link_c_names

BANNER_RULE = re.compile(r"/\* [-=]{20,} \*/")
BANNER_TITLE = re.compile(r"/\* (.*?)\s*\*/")
DOC_TAG = re.compile(r"@(brief|return|param(?:\[(?:in|out|in,out)\])?)\s*")


@dataclass
class Entry:
    """One documented declaration."""
    name: str
    kind: str  # function, type, callback, constant
    declaration: str
    doc: str
    constants: List[str] = field(default_factory=list)
    aliases: List[str] = field(default_factory=list)  # other names of the entry (a struct's tag)


@dataclass
class Section:
    title: str
    source: Optional[str] = None  # the Sources/CAPI file its functions come from
    entries: List[Entry] = field(default_factory=list)


def parse(header: str) -> List[Section]:
    """The header's sections and their entries."""
    sections: List[Section] = [Section("Preamble")]
    lines = header.splitlines()
    i, doc = 0, ""
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if BANNER_RULE.fullmatch(stripped) and i + 2 < len(lines):
            titles = []
            j = i + 1
            while j < len(lines) and not BANNER_RULE.fullmatch(lines[j].strip()):
                title = BANNER_TITLE.fullmatch(lines[j].strip())
                if title:
                    titles.append(title.group(1))
                j += 1
            if titles:
                source = next((t for t in titles if t.startswith("Sources/")), None)
                sections.append(Section(titles[0], source))
                i = j + 1
                continue
        if stripped.startswith("/**"):
            block = [line]
            while "*/" not in lines[i]:
                i += 1
                block.append(lines[i])
            doc = "\n".join(block)
            i += 1
            continue
        if doc and stripped and not stripped.startswith(("/*", "#")):
            declaration, i = _declaration(lines, i)
            entry = _entry(declaration, doc)
            if entry:
                sections[-1].entries.append(entry)
            doc = ""
            continue
        if stripped.startswith("#"):
            doc = ""
        i += 1
    return [s for s in sections if s.entries]


def _declaration(lines: List[str], i: int) -> "tuple[str, int]":
    """The declaration starting at line ``i``: up to its ``;`` outside braces."""
    taken, depth = [], 0
    while i < len(lines):
        line = lines[i]
        taken.append(line)
        code = re.sub(r"/\*.*?\*/", "", line)
        depth += code.count("{") - code.count("}")
        i += 1
        if depth == 0 and code.rstrip().endswith(";"):
            break
    return "\n".join(taken), i


def _entry(declaration: str, doc: str) -> Optional[Entry]:
    code = re.sub(r"/\*.*?\*/", "", declaration, flags=re.S)
    callback = re.search(r"\(\s*\*\s*(db_\w+)\s*\)", code)
    if code.lstrip().startswith("typedef") and callback:
        return Entry(callback.group(1), "callback", declaration, doc)
    if code.lstrip().startswith("typedef"):
        name = re.findall(r"(db_\w+)\s*;", code)
        if not name:
            return None
        constants = re.findall(r"^\s*(DB_[A-Z0-9_]+)\s*(?:=|,|$)", code, re.M)
        tag = re.match(r"\s*typedef\s+(?:struct|enum)\s+(db_\w+)", code)  # the struct's or enum's own name
        aliases = [tag.group(1)] if tag and tag.group(1) != name[-1] else []
        return Entry(name[-1], "type", declaration, doc, constants, aliases)
    function = re.search(r"(db_\w+)\s*\(", code)
    return Entry(function.group(1), "function", declaration, doc) if function else None


def doc_text(doc: str) -> str:
    """A doc comment's text without its comment marks."""
    body = doc.strip()
    body = body[3:] if body.startswith("/**") else body
    body = body[:-2] if body.endswith("*/") else body
    out = []
    for line in body.splitlines():
        line = line.strip()
        out.append(line[1:].lstrip() if line.startswith("*") else line)
    return "\n".join(out).strip()


def doc_html(doc: str, skip: str) -> str:
    """A doc comment as HTML: paragraphs, then @param and @return as a list."""
    text = doc_text(doc)
    parts = DOC_TAG.split(text)
    prose, tagged = parts[0], list(zip(parts[1::2], parts[2::2]))
    out = []
    brief = [body for tag, body in tagged if tag == "brief"]
    for paragraph in re.split(r"\n\s*\n", "\n".join(brief) + "\n\n" + prose):
        if paragraph.strip():
            out.append(f"<p>{_inline(paragraph, skip)}</p>")
    items = [(tag, body) for tag, body in tagged if tag != "brief"]
    if items:
        out.append("<ul>")
        for tag, body in items:
            label = "Returns" if tag == "return" else tag.replace("param", "Parameter ")
            out.append(f"<li><b>{html.escape(label)}</b> {_inline(body, skip)}</li>")
        out.append("</ul>")
    return "\n".join(out)


def _inline(text: str, skip: str) -> str:
    escaped = html.escape(" ".join(text.split()), quote=False)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return link_c_names(escaped, page="", skip=skip)


def build(header: str) -> "tuple[str, int]":
    """The page, and how many entries it has."""
    sections = parse(header)
    for section in sections:
        for entry in section.entries:
            documented_constants.update(entry.constants)
            if entry.name.startswith("DB_"):
                documented_constants.add(entry.name)
    body = ["<h1>realmdb C API</h1>",
            "<p>Every declaration of <code>include/db.h</code> (<code>#include &lt;realmdb/db.h&gt;</code> "
            "once installed), in the header's order, with its documentation. The conventions (status codes, "
            "handles, threads, ownership) are in the guide <a href=\"C-API.html\">C-API</a>.</p>",
            '<div class="toc"><ul>']
    for index, section in enumerate(sections):
        body.append(f'<li><a href="#section-{index}">{html.escape(section.title)}</a></li>')
    body.append("</ul></div>")
    count = 0
    for index, section in enumerate(sections):
        source = f' <span class="tag">{html.escape(section.source)}</span>' if section.source else ""
        body.append(f'<h2 id="section-{index}">{html.escape(section.title)}{source}</h2>')
        for entry in section.entries:
            count += 1
            ids = "".join(f'<span id="{c}"></span>' for c in entry.constants + entry.aliases)
            declaration = link_c_names(html.escape(entry.declaration.strip(), quote=False), page="", skip=entry.name)
            body.append(f'<div class="entry" id="{entry.name}">{ids}<h3>{entry.name} '
                        f'<span class="tag">{entry.kind}</span></h3>\n<pre>{declaration}</pre>\n'
                        f"{doc_html(entry.doc, entry.name)}</div>")
    return frame("realmdb C API", "\n".join(body), "c-api.html"), count
