"""Tests of tools/build_docs.py: the site has an entry for every function and type of db.h and
every public name of the Python package, every link of it resolves, and a guide or doc comment
naming an API that does not exist gives a broken link (so CI fails on it)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1]
ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))

pytest.importorskip("markdown", reason="Python-Markdown (requirements-dev.txt)")
import build_docs  # noqa: E402
import check_links  # noqa: E402
from docs_site import c_reference, guides  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    assert build_docs.main(["--out", str(out)]) == 0
    return out


def test_every_declaration_of_db_h_has_an_entry(site):
    header = (ROOT / "include" / "db.h").read_text(encoding="utf-8")
    functions = set(re.findall(r"^[a-z_][\w \*]*?\b(db_\w+)\(", header, re.M))
    types = set(re.findall(r"\b(db_\w+_t);", header))
    page = (site / "c-api.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([^"]+)"', page))
    assert len(functions) > 190 and functions <= ids, sorted(functions - ids)
    assert types <= ids, sorted(types - ids)
    assert {"DB_OK", "DB_ERR_QUERY", "DB_VALUE_LINK"} <= ids
    entry = page[page.index('id="db_realm_reserve_write"'):]
    entry = entry[:entry.index('<div class="entry"')]
    assert "db_status_e db_realm_reserve_write(db_realm_t *realm);" in re.sub(r"<[^>]+>", "", entry)
    assert '<a href="#db_realm_begin_write">db_realm_begin_write</a>' in entry and "Returns" in entry


def test_every_public_python_name_has_an_entry(site):
    import realmdb
    page = (site / "python-api.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([^"]+)"', page))
    public = {n for n in realmdb.__all__ if not n.startswith("__")}
    assert public <= ids, sorted(public - ids)
    assert {"Realm.write", "Realm.write_async", "Results.filter", "RealmObject.to_dict", "realmdb.cli"} <= ids
    write_async = page[page.index('id="Realm.write_async"'):]
    assert "AsyncIterator[Realm]" in write_async[:300] and "&#x27;" not in write_async[:300]


def test_the_built_site_has_no_broken_link_and_lists_the_guides(site):
    broken, checked, _ = check_links.check(site)
    assert broken == [] and checked > 1000
    index = (site / "index.html").read_text(encoding="utf-8")
    for guide in ["README.html"] + [p.stem + ".html" for p in (ROOT / "docs").glob("*.md")]:
        assert f'href="{guide}"' in index and (site / guide).is_file()


def test_a_guide_naming_an_api_that_does_not_exist_breaks_the_check(site, tmp_path):
    guide = tmp_path / "STALE.md"
    guide.write_text("# Stale\n\nCall `db_realm_begin_write`, then `db_realm_frobnicate`; "
                     "it fails with `DB_ERR_NO_SUCH_CODE`. See `docs/QUERY.md`.\n", encoding="utf-8")
    (name, text), = guides.build([guide])
    (site / name).write_text(text, encoding="utf-8")
    try:
        broken, _, _ = check_links.check(site)
    finally:
        (site / name).unlink()
    assert sorted(b.split(": ")[0] + ": " + b.split(": ")[-1] for b in broken) == [
        "STALE.html: no #DB_ERR_NO_SUCH_CODE on c-api.html",
        "STALE.html: no #db_realm_frobnicate on c-api.html",
    ]
    assert '<a href="QUERY.html">' in text


def test_a_doc_comment_naming_a_missing_function_gives_a_broken_link():
    header = "/* ---------------------- */\n/* Things */\n/* ---------------------- */\n" \
             "/** Like db_gone(). @return DB_OK. */\nint db_here(void);\n"
    page, count = c_reference.build(header)
    assert count == 1 and 'id="db_here"' in page and '<a href="#db_gone">db_gone</a>' in page
