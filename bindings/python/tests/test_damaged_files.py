"""Damaged files are clear errors: a truncated realm is a FileFormatError naming both sizes
(before, reading a mapped page past the end of the file killed the process with SIGBUS), and
damaged pages that made LMDB assert or fault are FileFormatErrors too. The randomized form is
tests/faults/hostile_files.py (scripts/faults.sh)."""
from __future__ import annotations

import os
import shutil

import pytest

import realmdb

SCHEMA = [{"name": "P", "primary_key": "id", "properties": {"id": "int", "name": "string", "tags": "string[]"}}]


@pytest.fixture(scope="module")
def original(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("damaged") / "original.realm")
    with realmdb.open(path, SCHEMA) as realm, realm.write():
        realm.create_many("P", [{"id": i, "name": f"name {i}" * 5, "tags": ["a", "b"]} for i in range(5000)])
    return path


@pytest.mark.parametrize("fraction", [0.01, 0.1, 0.5, 0.9])
def test_a_truncated_file_is_a_file_format_error(original, tmp_path, run_python, fraction):
    copy = str(tmp_path / "truncated.realm")
    shutil.copy(original, copy)
    size = os.path.getsize(copy)
    with open(copy, "r+b") as f:
        f.truncate(int(size * fraction))
    # In a child: before the guard, this was a SIGBUS that no handler could report. (A cut that
    # removes only free pages at the end loses nothing, and such a file opens normally.)
    result = run_python(f"""
        import realmdb
        try:
            realmdb.open({copy!r})
            print("opened")
        except realmdb.FileFormatError as exc:
            print("FileFormatError:", exc)
    """)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.startswith("FileFormatError:") and "truncated" in result.stdout, result.stdout
    assert str(size) in result.stdout, "the message names the size the file needs"


def test_damaged_pages_are_file_format_errors(original, tmp_path, run_python):
    """Pages overwritten with other pages: LMDB, which trusts its pages, asserted (SIGABRT) or
    faulted (SIGSEGV, SIGBUS) on such copies; under the guard each is a FileFormatError."""
    pristine = open(original, "rb").read()
    page = 4096
    errors = 0
    for target in range(2, len(pristine) // page, 7):
        data = bytearray(pristine)
        data[target * page:(target + 1) * page] = data[(target + 3) * page % len(pristine):][:page].ljust(page, b"\xff")
        copy = str(tmp_path / f"page{target}.realm")
        open(copy, "wb").write(bytes(data))
        result = run_python(f"""
            import realmdb
            try:
                with realmdb.open({copy!r}) as r:
                    n = sum(len(p.name) + len(p.tags) for p in r.objects("P"))
                    n += len(r.objects("P").filter("name BEGINSWITH 'name 1'"))
                print("read", n)
            except realmdb.FileFormatError as exc:
                print("FileFormatError:", exc)
        """)
        assert result.returncode == 0, f"page {target}: {result.stderr[-800:]}"
        errors += result.stdout.startswith("FileFormatError:")
    assert errors > 0, "some damaged page is reported"



def test_check_reports_a_sound_file(original):
    calls = []
    with realmdb.open(original) as realm:
        report = realm.check(lambda done, total: calls.append((done, total)))
    assert isinstance(report, realmdb.CheckReport)
    assert (report.classes, report.objects) == (1, 5000)
    assert report.index_entries == 5000, "the primary key's entries"
    assert report.values == 5000 * 3 and report.blocks > 0
    assert calls[0] == (0, 1) and calls[-1] == (1, 1)


def test_check_finds_text_that_reads_back_silently_changed(original, tmp_path):
    """A damaged byte inside a stored string: reading repairs it into U+FFFD without a word,
    check() names it."""
    data = bytearray(open(original, "rb").read())
    at = data.find(b"name 4321")
    assert at > 0
    data[at] = 0xFF
    copy = str(tmp_path / "text.realm")
    open(copy, "wb").write(bytes(data))
    with realmdb.open(copy) as realm:
        assert "\ufffd" in realm.object_for_primary_key("P", 4321).name, "ordinary reads do not notice"
        with pytest.raises(realmdb.FileFormatError, match="'P.name' holds text that is not UTF-8"):
            realm.check()


def test_an_exception_in_the_progress_callback_is_raised_by_check(original):
    def boom(done, total):
        raise KeyboardInterrupt
    with realmdb.open(original) as realm, pytest.raises(KeyboardInterrupt):
        realm.check(boom)
