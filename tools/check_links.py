#!/usr/bin/env python3
"""Check every link of a built reference site (tools/build_docs.py): each relative link leads to
a file of the site, and each #anchor to an id on that page.

    python3 tools/check_links.py [build/docs]

Exit 1, listing each broken link with the page and the text it is on. Links to other sites
(http, https, mailto) are counted, not followed: the machines that run CI have no network."""
from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Set, Tuple
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]


class _Page(HTMLParser):
    """The ids and the links (href, text) of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: Set[str] = set()
        self.links: List[Tuple[str, str]] = []
        self._open: List[List[str]] = []  # the text of each <a> being read

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, "str | None"]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        if tag == "a" and values.get("href") is not None:
            self.links.append((values["href"] or "", ""))
            self._open.append([])

    def handle_data(self, data: str) -> None:
        for text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            text = "".join(self._open.pop()).strip()
            index = max(i for i, link in enumerate(self.links) if link[1] == "")
            self.links[index] = (self.links[index][0], text or "(no text)")


def check(site: Path) -> Tuple[List[str], int, int]:
    """(broken links described, links checked, external links not followed)."""
    pages: Dict[Path, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        parsed = _Page()
        parsed.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = parsed
    broken, checked, external = [], 0, 0
    for path, parsed in pages.items():
        for href, text in parsed.links:
            parts = urlsplit(href)
            if parts.scheme in ("http", "https", "mailto"):
                external += 1
                continue
            checked += 1
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            where = f"{path.relative_to(site.resolve())}: {href!r} ({text})"
            if parts.scheme or target not in pages:
                broken.append(f"{where}: no page {unquote(parts.path) or href}")
            elif parts.fragment and unquote(parts.fragment) not in pages[target].ids:
                broken.append(f"{where}: no #{unquote(parts.fragment)} on {target.name}")
    return broken, checked, external


def main(argv: List[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "build" / "docs"
    if not (site / "index.html").is_file():
        print(f"check_links: {site}/index.html not found: run tools/build_docs.py first", file=sys.stderr)
        return 1
    broken, checked, external = check(site)
    for line in broken:
        print(f"broken link: {line}")
    print(f"check_links: {checked} links checked, {len(broken)} broken; {external} to other sites not followed")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
