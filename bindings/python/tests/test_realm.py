"""Realm lifecycle, transactions, in-memory and read-only realms, processes and threads."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import realmdb
from realmdb import realm as realm_module

# --------------------------------------------------------------------------- open / close


def test_open_close_and_context_manager(tmp_realm_path, person_schema):
    r = realmdb.open(tmp_realm_path, person_schema)
    assert not r.is_closed and r.path == os.path.abspath(tmp_realm_path)
    assert r in realm_module._open_realms
    r.close()
    assert r.is_closed and r not in realm_module._open_realms
    r.close()  # idempotent
    with realmdb.open(tmp_realm_path, person_schema) as r2:
        assert not r2.is_closed
    assert r2.is_closed
    assert "closed" in repr(r2)


def test_relative_path_is_made_absolute(tmp_path, person_schema, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with realmdb.open("rel.realm", person_schema) as r:
        assert r.path == str(tmp_path / "rel.realm")


def test_open_without_schema_uses_the_files_schema(tmp_realm_path, person_schema, make_person):
    with realmdb.open(tmp_realm_path, person_schema) as r, r.write():
        r.create("Person", make_person(1))
    with realmdb.open(tmp_realm_path) as r:
        assert {c["name"] for c in r.schema} == {"Person", "Note"}
        assert r.object_for_primary_key("Person", 1).name == "name1"


def test_open_in_missing_directory_is_file_access_error(tmp_path, person_schema):
    with pytest.raises(realmdb.FileAccessError) as info:
        realmdb.open(str(tmp_path / "no" / "such" / "dir.realm"), person_schema)
    assert info.value.code == realmdb.Status.FILE_ACCESS and info.value.message


def test_open_garbage_file_is_file_format_error(tmp_realm_path, person_schema):
    with open(tmp_realm_path, "wb") as f:
        f.write(b"this is not a realm file\n" * 1000)
    with pytest.raises(realmdb.FileFormatError):
        realmdb.open(tmp_realm_path, person_schema)


@pytest.mark.parametrize("kwargs", [{"schema_version": -1}, {"schema_version": "1"},
                                    {"max_active_versions": -2}])
def test_open_rejects_bad_numbers(tmp_realm_path, person_schema, kwargs):
    with pytest.raises(ValueError):
        realmdb.open(tmp_realm_path, person_schema, **kwargs)


def _begin_write_within(path: str, schema: list, seconds: float) -> bool:
    """True if another handle can start (and cancel) a write within ``seconds``."""
    done = threading.Event()

    def writer():
        with realmdb.open(path, schema) as other:
            other.begin_write()
            other.cancel_write()
        done.set()

    threading.Thread(target=writer, daemon=True).start()
    return done.wait(seconds)


def test_close_inside_write_releases_the_write_lock(tmp_realm_path, person_schema, make_person):
    r = realmdb.open(tmp_realm_path, person_schema)
    r.begin_write()
    r.create("Person", make_person(1))
    r.close()
    assert _begin_write_within(tmp_realm_path, person_schema, 10)
    with realmdb.open(tmp_realm_path, person_schema) as again:
        assert again.count("Person") == 0


def test_garbage_collected_realm_is_released(tmp_realm_path, person_schema, make_person):
    r = realmdb.open(tmp_realm_path, person_schema)
    r.begin_write()
    r.create("Person", make_person(1))
    del r
    gc.collect()
    assert not list(realm_module._open_realms)
    assert _begin_write_within(tmp_realm_path, person_schema, 10)  # the handle was released


# --------------------------------------------------------------------------- transactions


def test_write_context_commits(realm, make_person):
    v0 = realm.version
    with realm.write() as r:
        assert r is realm and realm.in_write
        realm.create("Person", make_person(1))
    assert not realm.in_write and realm.count("Person") == 1
    assert realm.version > v0


def test_write_context_cancels_on_exception(realm, make_person):
    with realm.write():
        realm.create("Person", make_person(1))
    with pytest.raises(ZeroDivisionError):
        with realm.write():
            realm.create("Person", make_person(2))
            obj = realm.object_for_primary_key("Person", 1)
            obj.name = "changed"
            1 / 0
    assert not realm.in_write
    assert realm.count("Person") == 1
    assert realm.object_for_primary_key("Person", 1).name == "name1"


def test_explicit_begin_commit_cancel(realm, make_person):
    realm.begin_write()
    assert realm.in_write
    with pytest.raises(realmdb.WrongTransactionStateError):
        realm.begin_write()
    realm.create("Person", make_person(1))
    realm.cancel_write()
    assert realm.count("Person") == 0 and not realm.in_write
    with pytest.raises(realmdb.WrongTransactionStateError):
        realm.commit()
    with pytest.raises(realmdb.WrongTransactionStateError):
        realm.cancel_write()
    realm.begin_write()
    realm.create("Person", make_person(1))
    realm.commit()
    assert realm.count("Person") == 1


def test_refresh_and_version(tmp_realm_path, person_schema, make_person):
    with realmdb.open(tmp_realm_path, person_schema) as a, realmdb.open(tmp_realm_path, person_schema) as b:
        assert b.count("Person") == 0
        v = b.version
        with a.write():
            a.create("Person", make_person(1))
        assert b.refresh() is True
        assert b.count("Person") == 1 and b.version > v
        assert b.refresh() is False
        with b.write():
            with pytest.raises(realmdb.WrongTransactionStateError):
                b.refresh()


def test_invalidate_keeps_objects_usable(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
    realm.invalidate()
    assert obj.is_valid and obj.name == "name1"


def test_schema_version(tmp_realm_path, person_schema):
    with realmdb.open(tmp_realm_path, person_schema, schema_version=3) as r:
        assert r.schema_version == 3


def test_file_format(tmp_realm_path, person_schema):
    with realmdb.open(tmp_realm_path, person_schema) as r:
        assert r.file_format == 3  # docs/FORMAT.md
    with realmdb.open(tmp_realm_path, read_only=True) as r:
        assert r.file_format == 3
    closed = realmdb.open(tmp_realm_path)
    closed.close()
    with pytest.raises(realmdb.ClosedRealmError):
        closed.file_format


# --------------------------------------------------------------------------- in-memory and read-only


def test_in_memory_realms_share_by_identifier(person_schema, make_person):
    ident = f"mem-{os.getpid()}-{time.time_ns()}"
    a = realmdb.open(ident, person_schema, in_memory=True)
    b = realmdb.open(ident, person_schema, in_memory=True)
    try:
        assert a.path == ident
        with a.write():
            a.create("Person", make_person(1))
        b.refresh()
        assert b.count("Person") == 1
        assert b.object_for_primary_key("Person", 1).name == "name1"
        with b.write():
            b.create("Person", make_person(2))
        a.refresh()
        assert a.count("Person") == 2
    finally:
        a.close()
        b.close()
    assert not os.path.exists(ident)
    with realmdb.open(ident, person_schema, in_memory=True) as c:
        assert c.count("Person") == 0


def test_in_memory_identifiers_are_separate(person_schema, make_person):
    base = f"mem-{os.getpid()}-{time.time_ns()}"
    with realmdb.open(base + "a", person_schema, in_memory=True) as a, \
            realmdb.open(base + "b", person_schema, in_memory=True) as b:
        with a.write():
            a.create("Person", make_person(1))
        b.refresh()
        assert b.count("Person") == 0


def test_read_only(tmp_realm_path, person_schema, make_person):
    with realmdb.open(tmp_realm_path, person_schema) as r, r.write():
        r.create("Person", make_person(1))
    with realmdb.open(tmp_realm_path, person_schema, read_only=True) as ro:
        obj = ro.object_for_primary_key("Person", 1)
        assert obj.name == "name1" and ro.count("Person") == 1
        with pytest.raises(realmdb.ReadOnlyError) as info:
            with ro.write():
                ro.create("Person", make_person(2))
        assert info.value.code == realmdb.Status.READ_ONLY
        assert not ro.in_write
    with realmdb.open(tmp_realm_path, person_schema) as r:
        assert r.count("Person") == 1


def test_read_only_open_cannot_change_the_schema(tmp_realm_path, person_schema):
    realmdb.open(tmp_realm_path, person_schema).close()
    extended = person_schema + [{"name": "Pet", "properties": {"kind": "string"}}]
    with pytest.raises(realmdb.ReadOnlyError):
        realmdb.open(tmp_realm_path, extended, read_only=True)
    with pytest.raises(realmdb.ReadOnlyError):
        realmdb.open(tmp_realm_path, person_schema, read_only=True, schema_version=1)


def test_read_only_missing_file(tmp_path, person_schema):
    # Nothing to read: a file access error that says so (a read-only open never creates files).
    with pytest.raises(realmdb.FileAccessError, match="does not exist"):
        realmdb.open(str(tmp_path / "missing.realm"), person_schema, read_only=True)
    assert not (tmp_path / "missing.realm").exists()


def test_a_crashed_creators_leftovers_are_reused(tmp_realm_path, person_schema, make_person):
    # What a creator killed while it built the file leaves: <path>-creating (and a stale lock).
    Path(tmp_realm_path + "-creating").write_bytes(os.urandom(10000))
    Path(tmp_realm_path + "-lock").write_bytes(os.urandom(8192))
    with realmdb.open(tmp_realm_path, person_schema) as r:
        with r.write():
            r.create("Person", make_person(1))
    assert not Path(tmp_realm_path + "-creating").exists()
    with realmdb.open(tmp_realm_path, person_schema) as r:
        assert r.count("Person") == 1


def test_processes_creating_one_file_at_once_share_it(tmp_path, run_python, person_schema):
    # 8 processes open the same new path at the same moment, each writing its own object: one
    # file holds them all, and no temporary file is left. Repeated over several paths.
    result = run_python(f"""
        import json, multiprocessing as mp, os, sys, realmdb
        SCHEMA, DIRECTORY, PROCESSES, ROUNDS = {person_schema!r}, {str(tmp_path)!r}, 8, 6

        def create(path, barrier, i):
            barrier.wait()
            with realmdb.open(path, SCHEMA) as r:
                with r.write():
                    r.create("Person", {{"id": i, "name": str(os.getpid()), "score": 0.0, "city": "x"}})

        if __name__ == "__main__":
            ctx = mp.get_context("fork")    # this process has none of these files open
            rounds = []
            for n in range(ROUNDS):
                path = os.path.join(DIRECTORY, f"shared-{{n}}.realm")
                barrier = ctx.Barrier(PROCESSES)
                procs = [ctx.Process(target=create, args=(path, barrier, i)) for i in range(PROCESSES)]
                for p in procs: p.start()
                for p in procs: p.join(60)
                with realmdb.open(path, SCHEMA) as r:
                    count = r.count("Person")
                rounds.append({{"codes": [p.exitcode for p in procs], "count": count,
                                "files": sorted(f for f in os.listdir(DIRECTORY) if f.startswith(f"shared-{{n}}."))}})
            print(json.dumps(rounds))
    """, timeout=240)
    assert result.returncode == 0, result.stderr
    for n, round_ in enumerate(json.loads(result.stdout.strip().splitlines()[-1])):
        assert round_["codes"] == [0] * 8, round_
        assert round_["count"] == 8, round_
        assert round_["files"] == [f"shared-{n}.realm", f"shared-{n}.realm-lock"], round_


# --------------------------------------------------------------------------- versions


def test_active_versions(tmp_realm_path, person_schema, make_person):
    with realmdb.open(tmp_realm_path, person_schema) as a, realmdb.open(tmp_realm_path, person_schema) as b:
        a.count("Person")  # a reads (pins) the current version
        b.count("Person")
        assert b.active_versions == 1
        with b.write():
            b.create("Person", make_person(1))
        b.count("Person")  # b now reads the new version while a still pins the old one
        assert b.active_versions == 2
        a.refresh()
        a.count("Person")
        assert b.active_versions == 1


def test_max_active_versions_exceeded(tmp_realm_path, person_schema, make_person):
    a = realmdb.open(tmp_realm_path, person_schema, max_active_versions=1)
    b = realmdb.open(tmp_realm_path, person_schema, max_active_versions=1)
    try:
        assert a.count("Person") == 0  # a pins the first version
        with pytest.raises(realmdb.TooManyActiveVersionsError) as info:
            # b commits and reads a second version while a still pins the first
            with b.write():
                b.create("Person", make_person(1))
            b.refresh()
            b.count("Person")
        assert info.value.code == realmdb.Status.TOO_MANY_ACTIVE_VERSIONS
    finally:
        a.close()
        b.close()


# --------------------------------------------------------------------------- processes and threads


def test_second_process_sees_committed_data(realm, make_person, run_python, person_schema):
    with realm.write():
        realm.create("Person", make_person(7, name="from parent"))
    proc = run_python(
        """
        import sys, json, realmdb
        with realmdb.open(sys.argv[1]) as r:
            print(json.dumps(r.object_for_primary_key("Person", 7).to_dict()))
            with r.write():
                r.create("Person", {"id": 8, "name": "from child", "score": 1.0, "city": "x"})
        """,
        realm.path,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"name": "from parent"' in proc.stdout
    realm.refresh()
    assert realm.object_for_primary_key("Person", 8).name == "from child"


def test_concurrent_writers_serialize(tmp_realm_path, person_schema, make_person):
    with realmdb.open(tmp_realm_path, person_schema):
        pass
    holding = threading.Event()
    times: dict = {}
    errors: list = []

    def first():
        try:
            with realmdb.open(tmp_realm_path, person_schema) as r:
                r.begin_write()
                holding.set()
                r.create("Person", make_person(1))
                time.sleep(0.3)
                times["first_commit"] = time.monotonic()
                r.commit()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
            holding.set()

    def second():
        try:
            with realmdb.open(tmp_realm_path, person_schema) as r:
                assert holding.wait(10)
                times["second_begin"] = time.monotonic()
                r.begin_write()
                times["second_acquired"] = time.monotonic()
                assert r.object_for_primary_key("Person", 1) is not None  # sees the first commit
                r.create("Person", make_person(2))
                r.commit()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert times["second_acquired"] >= times["first_commit"]
    assert times["second_acquired"] - times["second_begin"] > 0.1
    with realmdb.open(tmp_realm_path, person_schema) as r:
        assert r.count("Person") == 2


def test_writer_in_another_process_makes_this_writer_wait(realm, make_person):
    """One writer per file across processes: begin_write waits for the other process's commit."""
    script = textwrap.dedent(
        """
        import sys, time, realmdb
        with realmdb.open(sys.argv[1]) as r:
            r.begin_write()
            print("holding", flush=True)
            time.sleep(0.5)
            r.create("Person", {"id": 99, "name": "child", "score": 1.0, "city": "x"})
            r.commit()
            print("committed", flush=True)
        """
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(realmdb.__file__).resolve().parents[1]), env.get("PYTHONPATH")]))
    child = subprocess.Popen([sys.executable, "-c", script, realm.path], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "holding"
        started = time.monotonic()
        realm.begin_write()  # must block until the child commits
        waited = time.monotonic() - started
        assert realm.object_for_primary_key("Person", 99) is not None, "the write starts from the child's commit"
        realm.cancel_write()
    finally:
        assert child.wait(30) == 0
    assert waited > 0.2


def test_exit_with_open_realm_and_objects_does_not_crash(tmp_realm_path, run_python):
    proc = run_python(
        """
        import sys, realmdb
        schema = [{"name": "Person", "primary_key": "id",
                   "properties": {"id": "int", "name": "string"}}]
        r = realmdb.open(sys.argv[1], schema)
        with r.write():
            kept = [r.create("Person", {"id": i, "name": str(i)}) for i in range(10)]
        other = realmdb.open(sys.argv[1], schema)
        also = other.object_for_primary_key("Person", 3)
        other.begin_write()            # left open: must be discarded, not crash
        other.create("Person", {"id": 100, "name": "uncommitted"})
        cycle = {"realm": r, "objs": kept}
        cycle["self"] = cycle          # a reference cycle only collected at shutdown
        print("done", flush=True)
        """,
        tmp_realm_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    with realmdb.open(tmp_realm_path) as r:
        assert r.count("Person") == 10
        assert r.object_for_primary_key("Person", 100) is None
