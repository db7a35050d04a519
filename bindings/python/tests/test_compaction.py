"""Compaction from Python: Realm.write_copy, Realm.file_space and open(should_compact_on_launch=),
within one process, across processes, and with processes killed while compacting."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import realmdb

KEPT = 300


def make_mostly_free_file(path: str, schema: list, total: int = 3000) -> None:
    """Writes people 0..total-1 with long names, deletes all but the first KEPT, closes."""
    realm = realmdb.open(path, schema)
    with realm.write():
        for i in range(total):
            realm.create("Person", {"id": i, "name": "n" * 300 + str(i), "age": i % 90, "score": i / 2, "city": "c"})
    with realm.write():
        realm.objects("Person").filter("id >= $0", KEPT).delete_all()
    realm.close()


def assert_survivors(realm: realmdb.Realm) -> None:
    people = realm.objects("Person")
    assert len(people) == KEPT
    assert realm.object_for_primary_key("Person", KEPT - 1)["name"] == "n" * 300 + str(KEPT - 1)
    assert realm.object_for_primary_key("Person", KEPT) is None
    realm.check()


def test_write_copy_is_compact_and_complete(tmp_path, person_schema, open_realm):
    source = str(tmp_path / "source.realm")
    make_mostly_free_file(source, person_schema)
    realm = open_realm(person_schema, source)
    space = realm.file_space()
    assert isinstance(space, realmdb.FileSpace)
    assert space.file_bytes == os.path.getsize(source)
    assert space.used_bytes < space.file_bytes // 2
    copy = tmp_path / "copy.realm"  # a PathLike works as a path
    realm.write_copy(copy)
    assert os.path.getsize(copy) < space.file_bytes // 2
    assert not os.path.exists(str(copy) + "-creating")
    with realm.write():  # the source stays open and writable
        realm.create("Person", {"id": 10_000, "name": "later", "score": 0.0, "city": "c"})
    copied = open_realm(person_schema, str(copy))
    assert_survivors(copied)
    assert copied.object_for_primary_key("Person", 10_000) is None


def test_write_copy_refusals(tmp_path, realm):
    copy = str(tmp_path / "copy.realm")
    realm.write_copy(copy)
    size = os.path.getsize(copy)
    with pytest.raises(realmdb.FileAccessError, match="exists"):
        realm.write_copy(copy)
    assert os.path.getsize(copy) == size
    with pytest.raises(realmdb.FileAccessError):
        realm.write_copy(str(tmp_path / "missing" / "copy.realm"))
    with pytest.raises(realmdb.InvalidArgumentError):
        realm.write_copy("bad\0name.realm")
    with pytest.raises(realmdb.InvalidArgumentError):
        realm.write_copy("")
    with pytest.raises(TypeError):
        realm.write_copy(42)  # type: ignore[arg-type]
    with realm.write():
        with pytest.raises(realmdb.WrongTransactionStateError, match="commit"):
            realm.write_copy(str(tmp_path / "in-write.realm"))
    assert not os.path.exists(tmp_path / "in-write.realm")
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        realm.write_copy(str(tmp_path / "closed.realm"))
    with pytest.raises(realmdb.ClosedRealmError):
        realm.file_space()


def test_in_memory_realm_is_saved_by_write_copy(tmp_path, person_schema, open_realm):
    memory = open_realm(person_schema, "compaction-memory", in_memory=True)
    with memory.write():
        memory.create("Person", {"id": 1, "name": "kept", "score": 1.0, "city": "c"})
    memory.write_copy(str(tmp_path / "saved.realm"))
    memory.close()
    saved = open_realm(person_schema, str(tmp_path / "saved.realm"))
    assert saved.object_for_primary_key("Person", 1)["name"] == "kept"


def test_compact_on_launch(tmp_realm_path, person_schema, open_realm):
    make_mostly_free_file(tmp_realm_path, person_schema)
    before = os.path.getsize(tmp_realm_path)
    seen = []

    def decide(file_bytes: int, used_bytes: int) -> bool:
        seen.append((file_bytes, used_bytes))
        return used_bytes < file_bytes // 2

    realm = open_realm(person_schema, should_compact_on_launch=decide)
    assert len(seen) == 1 and seen[0][0] == before and seen[0][1] < before // 2
    assert os.path.getsize(tmp_realm_path) < before // 2
    assert_survivors(realm)
    with realm.write():
        realm.create("Person", {"id": 20_000, "name": "on the new file", "score": 0.0, "city": "c"})
    realm.close()
    # Compacted, the file is mostly in use: the same function now declines.
    realm = open_realm(person_schema, should_compact_on_launch=decide)
    assert len(seen) == 2 and seen[1][1] >= seen[1][0] // 2
    assert realm.object_for_primary_key("Person", 20_000)["name"] == "on the new file"


def test_compact_on_launch_declined_or_failing_leaves_the_file(tmp_realm_path, person_schema, open_realm):
    make_mostly_free_file(tmp_realm_path, person_schema)
    before = os.path.getsize(tmp_realm_path)
    open_realm(person_schema, should_compact_on_launch=lambda total, used: False).close()
    assert os.path.getsize(tmp_realm_path) == before

    def broken(total: int, used: int) -> bool:
        raise KeyError("the decision failed")

    with pytest.raises(KeyError, match="the decision failed"):
        realmdb.open(tmp_realm_path, person_schema, should_compact_on_launch=broken)
    assert os.path.getsize(tmp_realm_path) == before
    with pytest.raises(realmdb.InvalidArgumentError, match="callable"):
        realmdb.open(tmp_realm_path, person_schema, should_compact_on_launch=True)  # type: ignore[arg-type]
    assert_survivors(open_realm(person_schema))


def test_the_decision_cannot_open_the_same_file(tmp_realm_path, person_schema, open_realm):
    make_mostly_free_file(tmp_realm_path, person_schema)
    errors = []

    def decide(total: int, used: int) -> bool:
        try:
            realmdb.open(tmp_realm_path, person_schema)
        except realmdb.RealmError as exc:
            errors.append(exc)
        return True

    assert_survivors(open_realm(person_schema, should_compact_on_launch=decide))
    assert len(errors) == 1 and isinstance(errors[0], realmdb.LogicError)


HOLD = """
import sys, realmdb
realm = realmdb.open(sys.argv[1])
print("open", flush=True)
sys.stdin.read()
realm.close()
"""


def test_no_compaction_while_another_process_has_the_file_open(tmp_realm_path, person_schema, child_environ):
    make_mostly_free_file(tmp_realm_path, person_schema)
    before = os.path.getsize(tmp_realm_path)
    calls = []
    holder = subprocess.Popen([sys.executable, "-c", HOLD, tmp_realm_path], env=child_environ,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        realmdb.open(tmp_realm_path, person_schema, should_compact_on_launch=lambda t, u: calls.append(1) or True).close()
        assert calls == [] and os.path.getsize(tmp_realm_path) == before
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    realmdb.open(tmp_realm_path, person_schema, should_compact_on_launch=lambda t, u: calls.append(1) or True).close()
    assert calls == [1] and os.path.getsize(tmp_realm_path) < before // 2


WRITER = """
import sys, realmdb
realm = realmdb.open(sys.argv[1])
with realm.write():
    realm.create("Person", {"id": 50_000, "name": "written while compacting", "score": 0.0, "city": "c"})
print(len(realm.objects("Person")), flush=True)
realm.close()
"""


def test_a_process_opening_during_compaction_waits_and_writes_to_the_new_file(tmp_realm_path, person_schema,
                                                                              child_environ, open_realm):
    make_mostly_free_file(tmp_realm_path, person_schema)
    writers = []

    def decide(total: int, used: int) -> bool:
        writers.append(subprocess.Popen([sys.executable, "-c", WRITER, tmp_realm_path], env=child_environ,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        time.sleep(1.0)  # the child starts and waits in its open
        assert writers[0].poll() is None, writers[0].communicate()
        return True

    realm = open_realm(person_schema, should_compact_on_launch=decide)
    out, err = writers[0].communicate(timeout=60)
    assert writers[0].returncode == 0, err
    assert out.strip() == str(KEPT + 1)  # it saw the compacted file's objects, plus its own
    realm.refresh()
    assert realm.object_for_primary_key("Person", 50_000)["name"] == "written while compacting"
    realm.check()


COMPACTOR = """
import sys, realmdb
def decide(total, used):
    print("compacting", flush=True)
    return True
realm = realmdb.open(sys.argv[1], should_compact_on_launch=decide)
print("done", flush=True)
realm.close()
"""


def test_a_process_killed_while_compacting_loses_nothing(tmp_realm_path, person_schema, child_environ):
    make_mostly_free_file(tmp_realm_path, person_schema, total=20_000)
    for delay in (0.0, 0.002, 0.005, 0.01, 0.02, 0.05):
        shutil_copy = tmp_realm_path + ".before"
        if not os.path.exists(shutil_copy):
            with open(tmp_realm_path, "rb") as src, open(shutil_copy, "wb") as dst:
                dst.write(src.read())
        child = subprocess.Popen([sys.executable, "-c", COMPACTOR, tmp_realm_path], env=child_environ,
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "compacting"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        # Either the old file or the compacted one: every survivor is there, and it checks sound.
        realm = realmdb.open(tmp_realm_path, person_schema)
        assert_survivors(realm)
        realm.close()
        # Start the next round from the uncompacted file again.
        os.replace(shutil_copy, tmp_realm_path)


def test_write_copy_of_a_file_truncated_under_it_is_an_error(tmp_path, person_schema, open_realm):
    source = str(tmp_path / "source.realm")
    make_mostly_free_file(source, person_schema)
    realm = open_realm(person_schema, source)
    size = os.path.getsize(source)
    os.truncate(source, size // 3)  # damage behind the open realm's back
    copy = str(tmp_path / "copy.realm")
    with pytest.raises(realmdb.FileFormatError, match="truncated"):
        realm.write_copy(copy)
    assert not os.path.exists(copy) and not os.path.exists(copy + "-creating")
