#!/usr/bin/env python3
"""Build the reference site from the sources: the C API from include/db.h, the Python API from
the binding's docstrings, and the guides (README.md, docs/*.md), as HTML in one directory.

    python3 tools/build_docs.py [--out build/docs]

Then tools/check_links.py checks every link of it (CI runs both). The Python reference imports
the binding, so the library must be built (or REALMDB_LIBRARY set). Needs Python-Markdown
(requirements-dev.txt)."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bindings" / "python"))

from docs_site import c_reference, guides, page, python_reference  # noqa: E402
from docs_site.page import frame  # noqa: E402


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "docs"), help="directory to write (default build/docs)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    guide_paths = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    navigation = [(guides.page_name(p), p.stem if p.name != "README.md" else "README") for p in guide_paths]
    page.guide_navigation[:] = navigation
    c_page, c_entries = c_reference.build((ROOT / "include" / "db.h").read_text(encoding="utf-8"))
    import realmdb
    python_page, python_entries = python_reference.build(realmdb, importlib.import_module)
    guide_pages = guides.build(guide_paths)

    index = ["<h1>realmdb</h1>",
             f"<p>An embedded object database for Linux: live objects, live queries and change notifications "
             f"over LMDB, from C and Python. Library {realmdb.__version__}.</p>",
             "<h2>Reference</h2><ul>",
             f'<li><a href="c-api.html">C API</a>: {c_entries} declarations of <code>db.h</code></li>',
             f'<li><a href="python-api.html">Python API</a>: {python_entries} entries of the <code>realmdb</code> package</li>',
             "</ul><h2>Guides</h2><ul>"]
    index += [f'<li><a href="{name}">{label}</a></li>' for name, label in navigation]
    index.append("</ul>")
    pages = [("index.html", frame("realmdb", "\n".join(index), "index.html")),
             ("c-api.html", c_page), ("python-api.html", python_page)] + guide_pages
    for name, text in pages:
        (out / name).write_text(text, encoding="utf-8")
    print(f"build_docs: {len(pages)} pages in {out}: C API {c_entries} entries, Python API {python_entries}, "
          f"{len(guide_pages)} guides")
    return 0


if __name__ == "__main__":
    sys.exit(main())
