"""The Python API reference (python-api.html) from the binding's docstrings: the package's
overview, then every name of ``realmdb.__all__`` (classes with their public methods and
properties, functions with their signatures), and the modules users import by name.

Docstrings are written as reStructuredText-like text: ````code````, roles such as
``:meth:`Realm.write```, and indented blocks for examples. Roles become links to the entry they
name (``Realm.write`` -> ``#Realm.write``); a role naming nothing documented gives a broken link,
which tools/check_links.py reports."""
from __future__ import annotations

import enum
import html
import inspect
import re
import types
from typing import Any, Callable, List, Optional, Tuple

from .page import frame, link_c_names

ROLE = re.compile(r":(?:func|meth|class|attr|mod|data|exc):`~?([^`]+)`")
LITERAL = re.compile(r"``(.+?)``")
#: Modules documented after the package's names: (module, why a user imports it).
MODULES = [("realmdb.model", "typed model classes"), ("realmdb.records", "records in and out of JSON and CSV"),
           ("realmdb.migration", "the migration function's view"), ("realmdb.relationships", "lists, sets, dictionaries"),
           ("realmdb.notifications", "tokens and what changed"), ("realmdb.errors", "one exception per status code"),
           ("realmdb.cli", "the realmdb command")]


class Anchors:
    """Where a role's target is documented: the entry ids of the page, and the class whose
    docstring is being read (``:meth:`close``` there means its own ``close``)."""

    def __init__(self, ids: "set[str]") -> None:
        self.ids = ids
        self.owner: Optional[str] = None

    def resolve(self, target: str) -> str:
        """The id ``target`` names: as written, without ``realmdb.``, as a member of the current
        class, or the one entry whose name ends with it. Unknown: as written (a broken link)."""
        name = target.strip().lstrip("~").rstrip("()")
        short = name[len("realmdb."):] if name.startswith("realmdb.") else name
        candidates = [name, short, f"{self.owner}.{short}" if self.owner else "", short.split(".")[-1],
                      ".".join(short.split(".")[-2:])]
        for candidate in candidates:
            if candidate in self.ids:
                return candidate
        ending = [i for i in self.ids if i.endswith("." + short)]
        return ending[0] if len(ending) == 1 else short


def docstring_html(doc: Optional[str], anchors: Anchors) -> str:
    """A docstring as HTML: paragraphs, indented blocks as code, bullet lines as lists."""
    if not doc:
        return ""
    out: List[str] = []
    for block in re.split(r"\n\s*\n", inspect.cleandoc(doc)):
        lines = block.splitlines()
        if all(line.startswith("    ") or not line.strip() for line in lines):
            out.append(f"<pre>{html.escape(inspect.cleandoc(block))}</pre>")
        elif all(re.match(r"\s*[-*] ", line) or line.startswith("  ") for line in lines) and re.match(r"\s*[-*] ", lines[0]):
            items = re.split(r"\n\s*[-*] ", "\n" + block)[1:]
            out.append("<ul>" + "".join(f"<li>{inline(item, anchors)}</li>" for item in items) + "</ul>")
        else:
            out.append(f"<p>{inline(block, anchors)}</p>")
    return "\n".join(out)


def inline(text: str, anchors: Anchors) -> str:
    """Running text: literals as code, roles as links, C names linked to the C reference."""
    parts: List[str] = []
    position = 0
    pattern = re.compile(f"{ROLE.pattern}|{LITERAL.pattern}")
    for match in pattern.finditer(text):
        parts.append(html.escape(text[position:match.start()], quote=False))
        if match.group(1) is not None:
            target = match.group(1)
            parts.append(f'<a href="#{html.escape(anchors.resolve(target))}"><code>{html.escape(target.lstrip("~"))}</code></a>')
        else:
            parts.append(f"<code>{html.escape(match.group(2), quote=False)}</code>")
        position = match.end()
    parts.append(html.escape(text[position:], quote=False))
    return link_c_names(" ".join("".join(parts).split()), page="c-api.html")


class _Annotation:
    """An annotation kept as the text it was written as (the binding's modules use postponed
    annotations, which inspect would print quoted)."""

    def __init__(self, text: Any) -> None:
        self.text = text if isinstance(text, str) else inspect.formatannotation(text)

    def __repr__(self) -> str:
        return self.text


def signature(thing: Any) -> str:
    try:
        found = inspect.signature(thing)
    except (TypeError, ValueError):
        return "(...)"
    empty = inspect.Signature.empty
    parameters = [p.replace(annotation=_Annotation(p.annotation)) if p.annotation is not empty else p
                  for p in found.parameters.values()]
    returns = _Annotation(found.return_annotation) if found.return_annotation is not empty else empty
    return str(found.replace(parameters=parameters, return_annotation=returns))


def members(cls: type) -> List[Tuple[str, Any]]:
    """A class's own public methods and properties (inherited ones from the package's own bases
    too), in source order where it is known."""
    found = []
    for base in reversed(cls.__mro__):
        if base is object or not base.__module__.startswith("realmdb"):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") and name not in ("__init__", "__iter__", "__len__", "__getitem__", "__contains__"):
                continue
            if isinstance(value, (property, classmethod, staticmethod, types.FunctionType)):
                found = [(n, v) for n, v in found if n != name] + [(name, value)]
    return found


class Entry:
    """One entry of the page, rendered once every entry's id is known."""

    def __init__(self, id: str, kind: str, heading: str, doc: Optional[str], owner: Optional[str] = None) -> None:
        self.id, self.kind, self.heading, self.doc, self.owner = id, kind, heading, doc, owner

    def html(self, anchors: Anchors) -> str:
        anchors.owner = self.owner
        return (f'<div class="entry" id="{html.escape(self.id)}"><h3>{html.escape(self.heading)} '
                f'<span class="tag">{self.kind}</span></h3>\n{docstring_html(self.doc, anchors)}</div>')


def class_entries(name: str, cls: type) -> List[Entry]:
    if issubclass(cls, BaseException):
        bases = ", ".join(b.__name__ for b in cls.__bases__)
        return [Entry(name, "exception", f"{name}({bases})", cls.__doc__)]
    if issubclass(cls, enum.Enum):
        values = ", ".join(member.name for member in cls)  # type: ignore[var-annotated]
        return [Entry(name, "enum", name, (cls.__doc__ or "") + f"\n\nMembers: {values}.")]
    init = vars(cls).get("__init__")
    heading = f"{name}{signature(init)}".replace("(self, ", "(").replace("(self)", "()") if init else name
    out = [Entry(name, "class", heading, cls.__doc__, name)]
    for member, value in members(cls):
        if member == "__init__":
            continue
        qualified = f"{name}.{member}"
        if isinstance(value, property):
            out.append(Entry(qualified, "property", qualified, value.__doc__, name))
        else:
            function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
            text = signature(function).replace("(self, ", "(").replace("(self)", "()").replace("(cls, ", "(")
            out.append(Entry(qualified, "method", qualified + text, function.__doc__, name))
    return out


def build(package: types.ModuleType, import_module: Callable[[str], types.ModuleType]) -> "tuple[str, int]":
    """The page, and how many entries it has."""
    names = [n for n in package.__all__ if not n.startswith("__")]
    entries: List[Entry] = []
    deprecated = getattr(import_module("realmdb.errors"), "DEPRECATED_NAMES", {})
    for name in names:
        if name in deprecated:  # served with a DeprecationWarning: say so, do not fetch it
            current = deprecated[name].__name__
            entries.append(Entry(name, "deprecated alias", f"{name} = {current}",
                                 f"Deprecated (a DeprecationWarning when used): :class:`{current}`, the same class."))
            continue
        thing = getattr(package, name)
        if inspect.isclass(thing):
            entries += class_entries(name, thing)
        elif callable(thing):
            entries.append(Entry(name, "function", name + signature(thing), thing.__doc__))
        elif isinstance(thing, str):
            entries.append(Entry(name, "value", f"{name} = {thing!r}", None))
        else:
            entries.append(Entry(name, "value", name, getattr(thing, "__doc__", None)))
    for module_name, why in MODULES:
        module = import_module(module_name)
        entries.append(Entry(module_name, "module", f"{module_name}: {why}", module.__doc__))
        for name, thing in vars(module).items():
            if name.startswith("_") or getattr(thing, "__module__", None) != module_name or name in names:
                continue
            if inspect.isfunction(thing):
                entries.append(Entry(f"{module_name}.{name}", "function", f"{module_name}.{name}{signature(thing)}",
                                     thing.__doc__))
            elif inspect.isclass(thing):
                entries += [Entry(f"{module_name}.{e.id}", e.kind, f"{module_name}.{e.heading}", e.doc,
                                  f"{module_name}.{name}") for e in class_entries(name, thing)]
    anchors = Anchors({e.id for e in entries})
    body = ["<h1>realmdb for Python</h1>", docstring_html(package.__doc__, anchors), '<div class="toc"><ul>']
    body += [f'<li><a href="#{n}">{n}</a></li>' for n in names]
    body += [f'<li><a href="#{m}">{m}</a></li>' for m, _ in MODULES]
    body.append("</ul></div>")
    body += [entry.html(anchors) for entry in entries]
    return frame("realmdb for Python", "\n".join(body), "python-api.html"), len(entries)
