"""Tests of tools/check_links.py: relative links must reach a page of the site and an id on it;
links to other sites are counted, not followed."""
from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import check_links  # noqa: E402


def write_site(root: Path, pages: dict) -> Path:
    for name, body in pages.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return root


def test_every_kind_of_broken_link_is_reported_with_its_page_and_text(tmp_path):
    site = write_site(tmp_path, {
        "index.html": '<a href="a.html">fine</a> <a href="a.html#here">fine too</a> <a href="#top">self</a>'
                      '<h1 id="top">t</h1> <a href="gone.html">missing page</a> <a href="a.html#nowhere">bad <b>anchor</b></a>'
                      ' <a href="https://example.org/x">outside</a>',
        "a.html": '<div id="here"></div><a name="old"></a><a href="index.html#top">back</a> <a href="index.html#old">x</a>',
        "sub/b.html": '<a href="../a.html#old">up</a>',
    })
    broken, checked, external = check_links.check(site)
    assert checked == 8 and external == 1
    assert sorted(broken) == sorted([
        "index.html: 'gone.html' (missing page): no page gone.html",
        "index.html: 'a.html#nowhere' (bad anchor): no #nowhere on a.html",
        "a.html: 'index.html#old' (x): no #old on index.html",
    ])
    assert check_links.main([str(site)]) == 1


def test_a_sound_site_passes_and_a_missing_site_fails(tmp_path, capsys):
    site = write_site(tmp_path / "site", {"index.html": '<a href="#x" id="x">me</a>'})
    assert check_links.main([str(site)]) == 0
    assert "1 links checked, 0 broken" in capsys.readouterr().out
    assert check_links.main([str(tmp_path / "nothing")]) == 1
