"""The writer child, which commits numbered transactions, and the parent's view of it.

The child prints ``ready k`` (the commit the file holds), ``b i`` before commit i, ``a i`` once
``with realm.write()`` has returned (acknowledged) and ``done`` after its last commit, then waits
for the kill.
"""
from __future__ import annotations

import argparse
import os
import select
import signal
import subprocess
import time
from typing import Dict, List, Optional

from durability.processes import entry_command
from durability.workload import SCHEMA, deleted_by, expected_state, item_values, updated_by


def child_main(args: argparse.Namespace) -> int:
    import realmdb
    mark = None
    if args.mark:
        import ctypes
        mark = ctypes.CDLL(None).powerloss_mark  # from the LD_PRELOADed shim
        mark.argtypes = [ctypes.c_uint64]
        mark.restype = None
    realm = realmdb.open(args.path, SCHEMA)
    counter = realm.object_for_primary_key("Counter", 0)
    k = counter.value if counter is not None else 0
    print(f"ready {k}", flush=True)
    i = k + 1
    end = k + args.commits if args.commits else None
    while end is None or i <= end:
        if mark:
            mark(2 * i + 1)
        print(f"b {i}", flush=True)
        with realm.write():
            realm.create("Item", item_values(i, i))
            for j in sorted(updated_by(i)):
                realm.create("Item", item_values(j, i), update="modified")
            for j in deleted_by(i):
                obj = realm.object_for_primary_key("Item", j)
                if obj is None:
                    raise RuntimeError(f"commit {i}: item {j} to delete is missing")
                realm.delete(obj)
            state = expected_state(i)
            realm.create("Counter", {"id": 0, "value": i, "live": len(state),
                                     "revsum": sum(state.values())}, update="modified")
        if mark:
            mark(2 * i)
        print(f"a {i}", flush=True)
        i += 1
    print("done", flush=True)
    while True:  # wait for the kill
        time.sleep(1)


class Child:
    """The writer child: its announcements are read as they come."""

    def __init__(self, path: str, env: Dict[str, str], commits: int = 0, mark: bool = False) -> None:
        cmd = entry_command("--child", path)
        if commits:
            cmd += ["--commits", str(commits)]
        if mark:
            cmd.append("--mark")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.buffer = b""
        self.start: Optional[int] = None
        self.begun = 0
        self.acked = 0
        self.last = ""
        self.done = False
        self.eof = False
        self.killed_by_parent = False

    def pump(self, timeout: float) -> List[str]:
        """Reads what the child said within `timeout` seconds (returns the new lines)."""
        assert self.proc.stdout is not None
        lines: List[str] = []
        if self.eof:
            return lines
        ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, timeout))
        if not ready:
            return lines
        data = os.read(self.proc.stdout.fileno(), 65536)
        if not data:
            self.eof = True
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        for raw in complete:
            line = raw.decode()
            lines.append(line)
            self.last = line
            word, _, number = line.partition(" ")
            if word == "ready":
                self.start = int(number)
                self.begun = self.acked = self.start
            elif word == "b":
                self.begun = int(number)
            elif word == "a":
                self.acked = int(number)
            elif word == "done":
                self.done = True
        return lines

    def kill_and_drain(self) -> int:
        if self.eof:  # it closed its output: it is exiting (or dead), not yet reaped
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.killed_by_parent = True
        self.proc.wait()
        while not self.eof:
            self.pump(5.0)
        return self.proc.returncode

    def stderr(self) -> str:
        return self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""

    def close(self) -> None:
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
