"""Doc comments: Swift's Doxygen/HTML flavour turned into Doxygen `/** ... */` blocks for C readers.

Swift converts the Markdown of its doc comments (`\\param`, `returns:`, <code>...</code>, lists);
this turns that back into @param/@return paragraphs, lists and code blocks.
"""

from __future__ import annotations

import re

from header.swift_header import Declaration

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
