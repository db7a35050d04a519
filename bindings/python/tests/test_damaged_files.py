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


def test_a_damaged_byte_in_text_is_an_error_when_read_and_in_check(original, tmp_path):
    """A damaged byte inside a stored string: its block no longer matches its checksum, so the
    read that meets it fails naming the block (before checksums it read back as U+FFFD), and
    check() names it too."""
    data = bytearray(open(original, "rb").read())
    at = data.find(b"name 4321")
    assert at > 0
    data[at] = 0xFF
    copy = str(tmp_path / "text.realm")
    open(copy, "wb").write(bytes(data))
    with realmdb.open(copy) as realm:
        with pytest.raises(realmdb.FileFormatError, match=r"the block of 'P.name' for objects 4096-5119 does not match its checksum"):
            realm.object_for_primary_key("P", 4321).name
        with pytest.raises(realmdb.FileFormatError, match=r"'P.name' for objects 4096-5119"):
            realm.check()
        assert realm.object_for_primary_key("P", 17).name == "name 17" * 5, "other blocks still read"


def test_an_exception_in_the_progress_callback_is_raised_by_check(original):
    def boom(done, total):
        raise KeyboardInterrupt
    with realmdb.open(original) as realm, pytest.raises(KeyboardInterrupt):
        realm.check(boom)


def _flip_first(data: bytearray, needle: bytes, bit: int = 0) -> None:
    at = data.find(needle)
    assert at > 0, needle
    data[at] ^= 1 << bit


@pytest.mark.parametrize("what, needle", [
    # n spans 0..123456789 in its block, so it is packed as 4-byte offsets from 0 (docs/FORMAT.md).
    ("a number", (123456789).to_bytes(4, "little")),
    ("a flag", None),
])
def test_a_flipped_bit_in_a_stored_value_is_an_error_not_another_value(tmp_path, what, needle):
    """The silent wrong answer the checksums remove: one bit flipped inside a stored int used to
    read back as another int, with no error from reads, queries or check()."""
    path = str(tmp_path / "values.realm")
    schema = [{"name": "N", "primary_key": "id", "properties": {"id": "int", "n": "int", "flag": "bool"}}]
    with realmdb.open(path, schema) as realm, realm.write():
        realm.create_many("N", [{"id": i, "n": 123456789 if i == 7 else i, "flag": i % 2 == 0} for i in range(100)])
    data = bytearray(open(path, "rb").read())
    if needle is None:  # the bool column: 1-byte slots 01 00 01 00 ...
        needle = bytes([1, 0, 1, 0, 1, 0, 1, 0])
    _flip_first(data, needle, bit=3)
    open(path, "wb").write(bytes(data))
    with realmdb.open(path) as realm:
        with pytest.raises(realmdb.FileFormatError, match=r"'N\.(n|flag)' for objects 0-1023 does not match its checksum"):
            [(o.n, o.flag) for o in realm.objects("N")]
        with pytest.raises(realmdb.FileFormatError, match="does not match its checksum"):
            len(realm.objects("N").filter("n > 5 OR flag == true"))
        with pytest.raises(realmdb.FileFormatError, match="does not match its checksum"):
            realm.check()


def test_a_damaged_table_catalog_is_an_error_not_a_new_empty_realm(original, tmp_path, run_python):
    """LMDB's catalog of named tables is a page with no seal of ours. When it was overwritten
    (here: one table's name renamed), opening the file created the missing table and the realm
    opened empty, its objects gone without an error."""
    data = bytearray(open(original, "rb").read())
    renamed = 0
    for page in range(2, len(data) // 4096):  # the current catalog page and its older copies
        start = page * 4096
        content = bytes(data[start:start + 4096])
        if all(name in content for name in (b"blocks", b"changes", b"index", b"meta")):
            at = start + content.find(b"meta")
            data[at:at + 4] = b"meto"
            renamed += 1
    assert renamed > 0, "the catalog page names the tables blocks, changes, index and meta"
    copy = str(tmp_path / "catalog.realm")
    open(copy, "wb").write(bytes(data))
    for read_only in (False, True):
        result = run_python(f"""
            import realmdb
            try:
                with realmdb.open({copy!r}, read_only={read_only}) as r:
                    print("opened", r.count("P"))
            except realmdb.FileFormatError as exc:
                print("FileFormatError:", exc)
        """)
        assert result.returncode == 0, result.stderr[-800:]
        assert result.stdout.startswith("FileFormatError:") and "no 'meta' table" in result.stdout, result.stdout


def test_a_damaged_index_entry_is_an_error_not_another_object(tmp_path):
    """An index entry holds the key of the object it finds: a flipped bit there used to find
    another object. The entry's check names it instead."""
    path = str(tmp_path / "index.realm")
    schema = [{"name": "P", "primary_key": "code", "properties": {"code": "string", "n": "int"}}]
    with realmdb.open(path, schema) as realm, realm.write():
        realm.create_many("P", [{"code": f"code-{i:05d}", "n": i} for i in range(300)])
    data = bytearray(open(path, "rb").read())
    at = data.find(b"code-00123")
    # The index leaf holds the key ("\x01code-00123") right before its 8-byte value; the block
    # holding the strings comes later in the file (its page is written after the index's).
    keys = [i for i in range(len(data)) if data.startswith(b"\x01code-00123", i)]
    assert keys, "the index key is in the file"
    value = keys[0] + len(b"\x01code-00123")
    data[value + 5] ^= 0x01  # a bit of the object key
    open(path, "wb").write(bytes(data))
    with realmdb.open(path) as realm:
        with pytest.raises(realmdb.FileFormatError, match="an index entry of 'P.code' does not match its checksum"):
            realm.object_for_primary_key("P", "code-00123")
        assert realm.object_for_primary_key("P", "code-00124").n == 124
        with pytest.raises(realmdb.FileFormatError, match="does not match its checksum"):
            realm.check()
    assert at > 0


def test_a_damaged_schema_record_is_named_when_opening(tmp_path):
    path = str(tmp_path / "schema.realm")
    with realmdb.open(path, SCHEMA) as realm, realm.write():
        realm.create("P", {"id": 1, "name": "x", "tags": []})
    data = bytearray(open(path, "rb").read())
    # Every copy: LMDB's free pages may still hold the record of an earlier commit.
    at = data.find(b"tags")
    while at > 0:
        data[at] ^= 0x02
        at = data.find(b"tags", at + 1)
    open(path, "wb").write(bytes(data))
    with pytest.raises(realmdb.FileFormatError, match="the 'schema' record does not match its checksum"):
        realmdb.open(path)


def test_a_file_on_which_lmdb_loops_is_an_error_after_the_cpu_limit(tmp_path, run_python):
    """A damaged page that leads back into the file's structure sent LMDB round a loop that never
    ended (found by fuzzing file opening): the open hung for good. The guard's watchdog ends a
    call past the CPU limit (REALMDB_LMDB_CPU_LIMIT, 1 s here) with a FileFormatError."""
    source = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "fuzz", "crashes", "FileOpen",
                          "hang-lmdb-loops-in-dbi-open")
    copy = str(tmp_path / "loops.realm")
    shutil.copy(source, copy)
    result = run_python(f"""
        import os, time
        os.environ["REALMDB_LMDB_CPU_LIMIT"] = "1"
        import realmdb
        start = time.monotonic()
        try:
            realmdb.open({copy!r})
            print("opened")
        except realmdb.FileFormatError as exc:
            print(f"FileFormatError after {{time.monotonic() - start:.1f}} s:", exc)
    """, timeout=60)
    assert result.returncode == 0, result.stderr[-500:]
    assert result.stdout.startswith("FileFormatError"), result.stdout
    assert "more than 1 s of CPU time in one call" in result.stdout, result.stdout
    seconds = float(result.stdout.split("after ")[1].split(" s")[0])
    assert seconds < 10, "ended by the limit, not by chance"
