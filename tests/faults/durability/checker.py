"""The checker: a process that opens a file and reports what it holds, and the verdict on that.

The worker reads one path a line and answers one JSON line; ``Checker`` keeps one running (one
that dies or hangs counts as a crash); ``evaluate`` checks a report against ``expected_state``.
"""
from __future__ import annotations

import json
import select
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

from durability.processes import child_environ, entry_command
from durability.workload import SCHEMA, TAGS, digest, expected_state, payload


def dump_realm(realmdb: Any, path: str) -> Dict[str, Any]:
    out: Dict[str, Any] = {"path": path}
    try:
        realm = realmdb.open(path, SCHEMA)
    except Exception as exc:  # reported: an image that cannot be opened is a failure
        out["error"] = f"open: {type(exc).__name__}: {exc}"
        return out
    try:
        counter = realm.object_for_primary_key("Counter", 0)
        out["counter"] = (None if counter is None else
                          {"value": counter.value, "live": counter.live, "revsum": counter.revsum})
        items = {}
        for obj in realm.objects("Item"):
            items[obj.id] = [obj.rev, obj.tag, digest(obj.payload)]
        out["items"] = {str(j): v for j, v in items.items()}
        wrong = []
        count = realm.count("Item")
        if count != len(items):
            wrong.append(f"count('Item') {count} but iteration gives {len(items)}")
        for j, (rev, _, _) in items.items():
            obj = realm.object_for_primary_key("Item", j)
            if obj is None or obj.rev != rev:
                wrong.append(f"object_for_primary_key({j}) gives {None if obj is None else obj.rev}, iteration rev {rev}")
        for tag in TAGS:
            by_index = len(realm.objects("Item").filter("tag == $0", tag))
            by_scan = sum(1 for v in items.values() if v[1] == tag)
            if by_index != by_scan:
                wrong.append(f"filter tag == {tag}: {by_index}, iteration {by_scan}")
        above = len(realm.objects("Item").filter("rev > $0", -1))
        if above != len(items):
            wrong.append(f"filter rev > -1: {above}, iteration {len(items)}")
        out["wrong"] = wrong
    except Exception as exc:
        out["error"] = f"read: {type(exc).__name__}: {exc}"
    finally:
        realm.close()
    return out


def worker_main() -> int:
    import realmdb
    for line in sys.stdin:
        path = line.rstrip("\n")
        if not path:
            continue
        sys.stdout.write(json.dumps(dump_realm(realmdb, path)) + "\n")
        sys.stdout.flush()
    return 0


class Checker:
    """A persistent checker process; one that dies or hangs counts as a crash and is replaced."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        self.proc = subprocess.Popen(entry_command("--worker"),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=child_environ())

    def check(self, path: str) -> Dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self._crashed(path, "the checker's stdin closed")
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        if not ready:
            return self._crashed(path, f"no answer within {self.timeout} s")
        line = self.proc.stdout.readline()
        if not line:
            return self._crashed(path, "the checker exited")
        return json.loads(line)

    def _crashed(self, path: str, why: str) -> Dict[str, Any]:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        err = self.proc.stderr.read() if self.proc.stderr else ""
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        code = self.proc.returncode
        self.proc = None
        # The first lines say what happened (Swift's backtracer prints pages after them).
        summary = " | ".join(line.strip() for line in err.strip().splitlines() if line.strip())[:600]
        return {"path": path, "crash": f"{why} (exit {code}): {summary}"}

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc.stderr.close()


def evaluate(dump: Dict[str, Any], required: int, most: int) -> Tuple[Optional[int], List[Tuple[str, str]]]:
    """Checks a checker's dump: (the commit k it holds, [(figure, message)] of failures)."""
    if "crash" in dump:
        return None, [("crash", dump["crash"])]
    if "error" in dump:
        return None, [("error", dump["error"])]
    failures: List[Tuple[str, str]] = []
    counter = dump["counter"]
    k = counter["value"] if counter is not None else 0
    if k < required:
        failures.append(("lost", f"holds commit {k}, but commit {required} was acknowledged"))
    if k > most:
        failures.append(("wrong", f"holds commit {k}, but only commits up to {most} were begun"))
    expected = expected_state(k)
    items = {int(j): v for j, v in dump["items"].items()}
    torn = []
    if set(items) != set(expected):
        torn.append(f"items {sorted(items)} != expected {sorted(expected)}")
    for j in sorted(set(items) & set(expected)):
        rev, tag, pd = items[j]
        if rev != expected[j]:
            torn.append(f"item {j} rev {rev} != {expected[j]}")
        elif tag != TAGS[rev % 7] or pd != digest(payload(j, rev)):
            torn.append(f"item {j} rev {rev}: tag or payload differs")
    if counter is not None and (counter["live"] != len(expected) or counter["revsum"] != sum(expected.values())):
        torn.append(f"counter {counter} != live {len(expected)} revsum {sum(expected.values())}")
    if torn:
        failures.append(("torn", f"commit {k}: " + "; ".join(torn[:6])))
    for w in dump.get("wrong", []):
        failures.append(("wrong", f"commit {k}: {w}"))
    return k, failures
