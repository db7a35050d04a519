"""Versions pinned by readers of other processes: Realm.version_info(), and readers of a process
killed while it held a snapshot or a frozen view, which writers clear as they go."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import realmdb

SCHEMA = [{"name": "Item", "primary_key": "id", "properties": {"id": "int", "text": "string"}}]


def _reader_child(path: str, env: dict) -> subprocess.Popen:
    """A process that opens the file, freezes its version and waits to be killed."""
    code = (f"import realmdb, sys, time\nr = realmdb.open({path!r}, {SCHEMA!r})\nf = r.freeze()\n"
            "print('ready', flush=True)\ntime.sleep(600)\n")
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def _commit(realm: realmdb.Realm, first: int, count: int) -> None:
    for i in range(first, first + count):
        with realm.write():
            realm.create("Item", {"id": i, "text": "some text to take some room"})


def test_version_info_names_the_lagging_process(tmp_realm_path, child_environ):
    with realmdb.open(tmp_realm_path, SCHEMA) as realm:
        _commit(realm, 0, 1)
        info = realm.version_info()
        assert isinstance(info, realmdb.VersionInfo)
        assert (info.oldest_reader_lag, info.oldest_reader_pid) == (0, 0)
        child = _reader_child(tmp_realm_path, child_environ)
        try:
            _commit(realm, 1, 5)
            info = realm.version_info()
            assert info.oldest_reader_pid == child.pid
            assert info.oldest_reader_lag == 5
            assert info.active_versions >= 2 and info.readers >= 2
        finally:
            child.kill()
            child.wait()
        info = realm.version_info()
        assert info.stale_readers_cleared == 1, "the killed reader's slot is cleared"
        assert (info.oldest_reader_lag, info.oldest_reader_pid) == (0, 0)


def test_a_killed_reader_does_not_grow_the_file(tmp_realm_path, child_environ):
    with realmdb.open(tmp_realm_path, SCHEMA) as realm:
        _commit(realm, 0, 10)
        child = _reader_child(tmp_realm_path, child_environ)
        _commit(realm, 10, 1)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        before = os.path.getsize(tmp_realm_path)
        _commit(realm, 100, 2000)
        grown = os.path.getsize(tmp_realm_path) - before
        # Pinned for good (before writers cleared dead readers), 2,000 commits grew it by ~120 MB;
        # the same commits with no reader grow it by ~0.4 MB.
        assert grown < 1 << 20, f"the file grew by {grown} bytes"
