"""Crash recovery: SIGKILL a writer at random moments; every reopen shows a committed prefix.

A child process commits numbered transactions in a loop; each one creates Item
id=i and sets the singleton Counter's value to i. After each kill the parent
checks that the Items are exactly 0..k-1 and the counter is k-1 (no gaps, no
torn transaction), then the next round continues from k.
"""
from __future__ import annotations

import random
import select
import signal
import subprocess
import sys
import time

import pytest

import realmdb

SCHEMA = [
    {"name": "Item", "primary_key": "id", "properties": {"id": "int", "payload": "string"}},
    {"name": "Counter", "primary_key": "id", "properties": {"id": "int", "value": "int"}},
]

CHILD = """
import sys, realmdb
schema = %r
with realmdb.open(sys.argv[1], schema) as realm:
    i = realm.count("Item")
    print("ready", i, flush=True)
    while True:
        with realm.write():
            realm.create("Item", {"id": i, "payload": "x" * (i %% 97)})
            realm.create("Counter", {"id": 0, "value": i}, update="modified")
        i += 1
""" % (SCHEMA,)

ROUNDS = 10
SEED = 20261122


def _check_prefix(path: str) -> int:
    with realmdb.open(path, SCHEMA) as realm:
        k = realm.count("Item")
        missing = [i for i in range(k) if realm.object_for_primary_key("Item", i) is None]
        assert not missing, f"committed items missing in the middle: {missing[:10]} (count {k})"
        assert realm.object_for_primary_key("Item", k) is None
        counter = realm.object_for_primary_key("Counter", 0)
        if k == 0:
            assert counter is None
        else:
            assert counter is not None and counter.value == k - 1, (k, counter and counter.value)
        return k


def _wait_ready(proc: subprocess.Popen, timeout: float) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        proc.kill()
        pytest.fail(f"child did not start within {timeout}s")
    line = proc.stdout.readline()
    if not line.startswith("ready"):
        proc.kill()
        _, err = proc.communicate(timeout=10)
        pytest.fail(f"child failed: {line!r} {err}")
    return line


def test_sigkill_leaves_a_committed_prefix(tmp_realm_path, child_environ):
    rng = random.Random(SEED)
    deadline = time.monotonic() + 60  # designed for ~10-20 s; fail on a hang, not on a slow box
    previous = 0
    progressed = 0
    for round_no in range(ROUNDS):
        proc = subprocess.Popen([sys.executable, "-c", CHILD, tmp_realm_path], env=child_environ,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = _wait_ready(proc, timeout=20)
            assert int(line.split()[1]) == previous
            time.sleep(rng.uniform(0.05, 0.3))
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        k = _check_prefix(tmp_realm_path)
        assert k >= previous, f"round {round_no}: count went back from {previous} to {k}"
        progressed += k > previous
        previous = k
        assert time.monotonic() < deadline, f"too slow: {round_no + 1} rounds took more than 60 s"
    assert progressed >= ROUNDS // 2, "the writer made no progress in most rounds"
