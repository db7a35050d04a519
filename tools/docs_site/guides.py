"""The guides (README.md and docs/*.md) as pages of the site, rendered by Python-Markdown with
tables, fenced code and heading anchors. In their code, C API names link to the C reference and
a guide named by its path (``docs/QUERY.md``) links to its page."""
from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import markdown

from .page import frame, link_c_names

GUIDE_PATH = re.compile(r"<code>(?:docs/)?([A-Z][A-Z-]*)\.md</code>")


def page_name(path: Path) -> str:
    return "README.html" if path.name == "README.md" else path.stem + ".html"


def build(paths: List[Path]) -> List[Tuple[str, str]]:
    """(file name, HTML) of each guide."""
    pages = []
    known = {p.stem for p in paths}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        body = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"], output_format="html")
        body = _link_code(body)
        body = GUIDE_PATH.sub(lambda m: f'<a href="{m.group(1)}.html"><code>{m.group(0)[6:-7]}</code></a>'
                              if m.group(1) in known else m.group(0), body)
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), path.stem)
        pages.append((page_name(path), frame(title, body, page_name(path))))
    return pages


#: Names the guides mention that are not realmdb's: Berkeley DB's functions (which realmdb's must
#: not collide with) and former names of realmdb's own. Everything else named db_* must exist.
NOT_REALMDB_NAMES = {"db_create", "db_version", "db_realm_is_closed", "db_sectioned_results_is_invalidated"}


def _link_code(body: str) -> str:
    """C API names linked inside <code> and <pre> only (running prose stays as written)."""
    def in_code(match: "re.Match[str]") -> str:
        text = match.group(2)
        linked = link_c_names(text, page="c-api.html")
        for name in NOT_REALMDB_NAMES:
            linked = linked.replace(f'<a href="c-api.html#{name}">{name}</a>', name)
        return match.group(1) + linked + match.group(3)
    return re.sub(r"(<code[^>]*>)(.*?)(</code>)", in_code, body, flags=re.S)
