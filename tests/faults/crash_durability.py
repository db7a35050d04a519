"""Crash durability: SIGKILL and simulated power loss never lose an acknowledged commit.

    python3 tests/faults/crash_durability.py --creation      # short form (CI, well under 60 s)
    python3 tests/faults/crash_durability.py --creation --seconds 600   # long form: 10 minutes
    python3 tests/faults/crash_durability.py --rounds 200    # long form: 200 kill rounds

A writer child commits numbered transactions. Commit i creates Item i (a payload derived from
i; every 11th or so is several KB, so column blocks spill into LMDB overflow pages), rewrites
up to three earlier items (every 25th commit rewrites all thirty most recent ones), deletes the
items whose time has come (item j lives until commit j + 31 .. j + 40) and sets the Counter
singleton to i with the number and revision sum of the live items. The state after commit k
is a function of k alone (``expected_state``), so any file can be checked object by object.
The child prints ``b i`` before the write and ``a i`` once ``with realm.write()`` has returned:
an acknowledged commit.

1. Kill rounds. The parent SIGKILLs the child at a random moment: after a random delay, right
   after it announced a commit (mid-commit), or from inside the process at the n-th write or
   sync of the data file (through the shim below, POWERLOSS_KILL_AT: before or after the call,
   so between page writes, between fdatasync and the meta page, between the meta page and the
   acknowledgement). Then a checker process opens the file and the parent checks: the file is
   exactly the state of some commit k with last acknowledged <= k <= last begun (``lost`` if
   below, ``wrong`` if above), every object equal to ``expected_state(k)`` (``torn``
   otherwise), and the library's answers agree with each other (count, primary-key lookups,
   indexed queries: ``wrong``). The next round continues from the file as it is.

2. Power loss. A child runs under tests/faults/powerloss_shim.c (LD_PRELOAD), which journals
   every write to the data file (offset and bytes, when it starts and when it returns), every
   completed sync, and the child's marks (commit begun, commit acknowledged) in order. The
   suite first checks the shim saw everything: replaying the whole journal onto the copy of
   the file taken before the child started must give the file's exact bytes (but for a write
   the kill cut short), and the journal must hold data writes, syncs and O_DSYNC writes (LMDB's
   meta pages), with a mark for every acknowledged commit. Then it builds power-loss images
   for chosen crash moments: the copy, plus every write durable at that moment (completed
   before the start of a completed fsync/fdatasync, or an O_DSYNC write that returned), plus
   none ("clean"), all ("all") or a random subset ("torn") of the other writes completed by
   then and the write in flight, cut at 512-byte sectors (torn, reordered writes; a dropped
   extension of the file may read back as zeros; a sector is the unit the disk writes
   atomically). Each image must open and read without error (``powerloss_errors``) and hold
   a committed state k with every commit acknowledged before the crash moment
   (``powerloss_lost``), exactly ``expected_state(k)`` (``powerloss_torn``) and no commit that
   had not begun (``wrong``).

3. Creation (``--creation``; scripts/faults.sh runs it). The suite starts without a file, so
   that the first power-loss run creates the realm, and every third power-loss run is a creation
   run: a new file at a new path, sometimes with a crashed creator's leftovers in place (a
   ``<path>-creating`` of random bytes, a ``<path>-lock`` of random bytes), sometimes killed by
   the shim at one of its first writes or syncs. The library builds a new file under
   ``<path>-creating`` and renames it into place (see docs/FORMAT.md); the shim follows that file
   (POWERLOSS_CREATING), the rename ('N') and the directory's fsyncs ('D'). The images of a
   created file include every moment until its name is durable: the name is there when its
   rename preceded a directory fsync (or, not yet durable, in "all" images and in half the
   "torn" ones); otherwise the image has no file at the path, only the ``-creating`` file as it
   stood. Every image must open (``powerloss_errors``: none may be unopenable), and no
   ``-creating`` file may be left once it was opened (``wrong``). ``creation_images`` counts the
   images of moments before the new name was durable, ``creation_absent`` those without the
   file at its path.

A checker process that dies or hangs counts as a crash. Prints the details of any failure, then
one line of figures, last (``--json``: as JSON); exits non-zero on any failure.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ROOT = ROOT / "bindings" / "python"
SHIM_SOURCE = Path(__file__).resolve().parent / "powerloss_shim.c"

SCHEMA = [
    {"name": "Item", "primary_key": "id",
     "properties": {"id": "int", "rev": "int", "payload": "string",
                    "tag": {"type": "string", "indexed": True}}},
    {"name": "Counter", "primary_key": "id",
     "properties": {"id": "int", "value": "int", "live": "int", "revsum": "int"}},
]
TAGS = [f"t{n}" for n in range(7)]
LIFETIME = 40        # item j is deleted by commit j + LIFETIME - (7 j mod 10)
UPDATE_WINDOW = 30   # commit i rewrites items among the UPDATE_WINDOW before it

# ---------------------------------------------------------------------------------------------
# The deterministic workload: the state after commit k is a function of k.


def deletion_commit(j: int) -> int:
    return j + LIFETIME - (j * 7) % 10


@functools.lru_cache(maxsize=4096)
def updated_by(i: int) -> frozenset:
    """The earlier items commit i rewrites (all alive before it: deletion_commit(j) > i)."""
    candidates = range(max(1, i - UPDATE_WINDOW), i)
    if i % 25 == 0:
        return frozenset(candidates)
    return frozenset(random.Random(i).sample(candidates, min(3, len(candidates))))


def deleted_by(i: int) -> List[int]:
    return [j for j in range(max(1, i - LIFETIME), i) if deletion_commit(j) == i]


def expected_state(k: int) -> Dict[int, int]:
    """Live items after commit k: id -> revision (the commit that last wrote it)."""
    state = {}
    for j in range(max(1, k - LIFETIME), k + 1):
        if deletion_commit(j) > k:
            rev = j
            for i in range(j + 1, min(k, j + UPDATE_WINDOW) + 1):
                if j in updated_by(i):
                    rev = i
            state[j] = rev
    return state


def payload(j: int, rev: int) -> str:
    size = (j * 31 + rev * 17) % 200 + (3000 + (j * rev) % 5000 if (j + rev) % 11 == 0 else 0)
    unit = f"{j}:{rev}:{hashlib.blake2b(f'{j}/{rev}'.encode(), digest_size=6).hexdigest()};"
    return (unit * (size // len(unit) + 1))[:size]


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def item_values(j: int, rev: int) -> Dict[str, Any]:
    return {"id": j, "rev": rev, "payload": payload(j, rev), "tag": TAGS[rev % 7]}


# ---------------------------------------------------------------------------------------------
# Child: the writer.


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


# ---------------------------------------------------------------------------------------------
# Worker: the checker. Reads one path a line, answers one JSON line with what the file holds.


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


# ---------------------------------------------------------------------------------------------
# Parent.


def child_environ(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("LD_PRELOAD", None)
    for key in [k for k in env if k.startswith("POWERLOSS_")]:
        del env[key]
    env.update(extra or {})
    return env


class Checker:
    """A persistent checker process; one that dies or hangs counts as a crash and is replaced."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
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


class Child:
    """The writer child: its announcements are read as they come."""

    def __init__(self, path: str, env: Dict[str, str], commits: int = 0, mark: bool = False) -> None:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", path]
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


class Suite:
    def __init__(self, args: argparse.Namespace, workdir: Path, shim: Path) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.workdir = workdir
        self.shim = shim
        self.path = str(workdir / "crash.realm")
        self.checker = Checker()
        self.figures: Dict[str, Any] = {
            "kill_rounds": 0, "acknowledged": 0, "lost": 0, "torn": 0, "wrong": 0, "crashes": 0,
            "powerloss_images": 0, "powerloss_lost": 0, "powerloss_torn": 0, "powerloss_errors": 0,
        }
        self.extra: Dict[str, Any] = {"mid_commit_kills": 0, "shim_kills": 0, "powerloss_runs": 0,
                                      "creation_runs": 0, "creation_images": 0, "creation_absent": 0,
                                      "powerloss_commits": 0, "durability_points": 0, "journal_writes": 0,
                                      "journal_in_flight": 0,
                                      "journal_syncs": 0, "journal_dsync_writes": 0, "powerloss_images_clean": 0,
                                      "powerloss_images_all": 0, "powerloss_images_torn": 0,
                                      "powerloss_rolled_back": 0, "powerloss_beyond_ack": 0,
                                      "last_commit": 0}
        self.messages: List[str] = []
        self.committed = 0  # the commit the file was last verified to hold
        self.failed_images = 0

    def fail(self, figure: str, message: str) -> None:
        self.figures[figure] += 1
        self.messages.append(f"{figure}: {message}")

    def record(self, failures: List[Tuple[str, str]], prefix: str, powerloss: bool) -> None:
        for kind, message in failures:
            if kind == "crash":
                self.fail("crashes", f"{prefix}: checker: {message}")
            elif powerloss and kind in ("lost", "torn"):
                self.fail(f"powerloss_{kind}", f"{prefix}: {message}")
            elif powerloss and kind == "error":
                self.fail("powerloss_errors", f"{prefix}: {message}")
            elif kind == "error":
                self.fail("crashes", f"{prefix}: checker: {message}")
            else:
                self.fail(kind, f"{prefix}: {message}")

    def setup(self) -> None:
        # The file exists (schema committed) before any child: the power-loss copy needs it.
        dump = self.checker.check(self.path)
        k, failures = evaluate(dump, 0, 0)
        self.record(failures, "initial open", powerloss=False)
        if k is None:
            raise SystemExit(f"cannot create {self.path}: {failures}")
        self.committed = k

    # -- kill rounds ------------------------------------------------------------------------

    def run_child(self, env: Dict[str, str], delay: float, commits: int = 0, mark: bool = False,
                  kill_after_begin: Optional[int] = None, label: str = "", path: Optional[str] = None,
                  expect_start: Optional[int] = None, may_die_early: bool = False) -> Optional[Child]:
        """Runs a writer child for `delay` seconds after it is ready (or until it announces
        `b kill_after_begin`, or `done`), SIGKILLs it and reads all it announced. With
        `may_die_early`, a child the shim killed before it was ready is returned (start 0)."""
        child = Child(path or self.path, env, commits=commits, mark=mark)
        expect_start = self.committed if expect_start is None else expect_start
        try:
            started = time.monotonic()
            while child.start is None and not child.eof and time.monotonic() - started < 60:
                child.pump(1.0)
            if child.start is None:
                code = child.kill_and_drain()
                if may_die_early and code == -signal.SIGKILL and not child.killed_by_parent:
                    child.start = child.begun = child.acked = expect_start
                    return child
                self.fail("crashes", f"{label}: the writer did not start: {child.last!r} {child.stderr()[-2000:]}")
                return None
            if child.start != expect_start:
                self.fail("wrong", f"{label}: the writer found commit {child.start}, the check found {expect_start}")
            deadline = time.monotonic() + delay
            while not child.eof and not child.done and time.monotonic() < deadline:
                if kill_after_begin is not None and child.begun >= kill_after_begin:
                    break
                child.pump(deadline - time.monotonic())
            code = child.kill_and_drain()
            if code != -signal.SIGKILL:
                self.fail("crashes", f"{label}: the writer exited with {code} before the kill: {child.stderr()[-2000:]}")
            return child
        finally:
            if child.proc.poll() is None:
                child.proc.kill()
                child.proc.wait()
            child.close()

    def verify_file(self, child: Child, label: str, path: Optional[str] = None) -> None:
        self.figures["acknowledged"] += child.acked - child.start
        dump = self.checker.check(path or self.path)
        k, failures = evaluate(dump, child.acked, child.begun)
        self.record(failures, label, powerloss=False)
        if k is not None and path in (None, self.path):
            self.committed = k
            self.extra["last_commit"] = k

    def kill_round(self) -> None:
        n = self.figures["kill_rounds"]
        self.figures["kill_rounds"] += 1
        mode = self.rng.choice(["delay", "delay", "begin", "shim"])
        env = child_environ()
        kill_after_begin = None
        delay = self.rng.uniform(0.02, self.args.max_delay)
        if mode == "begin":  # right after the announcement of a commit: mid-commit
            kill_after_begin = self.committed + self.rng.randint(1, 60)
            delay = 30.0
        elif mode == "shim":  # at the n-th write or sync of the data file, from inside
            env.update({"LD_PRELOAD": str(self.shim), "POWERLOSS_TARGET": self.path,
                        "POWERLOSS_KILL_AT": str(self.rng.randint(1, 300)),
                        "POWERLOSS_KILL_WHEN": self.rng.choice(["before", "after"])})
            delay = 30.0
        label = f"kill round {n} ({mode})"
        child = self.run_child(env, delay, kill_after_begin=kill_after_begin, label=label)
        if child is None:
            return
        if child.begun > child.acked:
            self.extra["mid_commit_kills"] += 1
        if mode == "shim" and not child.killed_by_parent:
            self.extra["shim_kills"] += 1
        self.verify_file(child, f"{label}, acked {child.acked}, begun {child.begun}")

    # -- power loss -------------------------------------------------------------------------

    def powerloss_run(self) -> None:
        n = self.extra["powerloss_runs"]
        self.extra["powerloss_runs"] += 1
        commits = self.rng.randint(10, self.args.powerloss_commits)
        # Usually let it finish its commits; sometimes kill it on the way.
        delay = 60.0 if self.rng.random() < 0.7 else self.rng.uniform(0.05, 1.0)
        self.journaled_run(self.path, f"power-loss run {n}", commits, delay, self.committed)

    def creation_run(self) -> None:
        """A power-loss run that creates a new file (at a new path), sometimes over a crashed
        creator's leftovers, sometimes killed by the shim while it creates it."""
        n = self.extra["creation_runs"]
        self.extra["creation_runs"] += 1
        path = str(self.workdir / f"created-{n}.realm")
        leftovers = []
        if self.rng.random() < 0.4:  # a creator crashed while it built the file
            Path(path + "-creating").write_bytes(self.rng.randbytes(self.rng.choice([0, 100, 4096, 20000])))
            leftovers.append("-creating")
        if self.rng.random() < 0.3:  # a deleted realm's lock file
            Path(path + "-lock").write_bytes(self.rng.randbytes(8192))
            leftovers.append("-lock")
        kill: Dict[str, str] = {}
        if self.rng.random() < 0.4:  # killed while it creates the file (or at its first commit)
            kill = {"POWERLOSS_KILL_AT": str(self.rng.randint(1, 12)),
                    "POWERLOSS_KILL_WHEN": self.rng.choice(["before", "after"])}
        label = f"creation run {n}" + (f" (leftover {', '.join(leftovers)})" if leftovers else "") + \
            (f" (shim kill at {kill['POWERLOSS_KILL_AT']} {kill['POWERLOSS_KILL_WHEN']})" if kill else "")
        try:
            self.journaled_run(path, label, self.rng.randint(2, 8), 60.0, 0, kill)
        finally:
            for suffix in ("", "-lock", "-creating"):
                Path(path + suffix).unlink(missing_ok=True)

    def journaled_run(self, path: str, label: str, commits: int, delay: float, start_commit: int,
                      kill: Optional[Dict[str, str]] = None) -> None:
        """A writer child under the shim, then the file it left and its power-loss images."""
        creating_path = path + "-creating"
        creating = not os.path.exists(path)
        # What the watched file holds before the child: the file, or for a new one, the leftover
        # it is built from (the library empties it first).
        source = creating_path if creating else path
        leftover = creating and os.path.exists(creating_path)
        base = Path(source).read_bytes() if os.path.exists(source) else b""
        journal_path = self.workdir / f"journal-{self.extra['powerloss_runs'] + self.extra['creation_runs']}.bin"
        env = child_environ({"LD_PRELOAD": str(self.shim), "POWERLOSS_TARGET": path,
                             "POWERLOSS_CREATING": creating_path, "POWERLOSS_JOURNAL": str(journal_path),
                             **(kill or {})})
        child = self.run_child(env, delay, commits=commits, mark=True, label=label, path=path,
                               expect_start=start_commit, may_die_early=bool(kill))
        if child is None:
            journal_path.unlink(missing_ok=True)
            return
        self.figures["kill_rounds"] += 1
        self.extra["powerloss_commits"] += child.acked - start_commit
        # As the child left it (a new file killed before its rename: the -creating file).
        in_place = os.path.exists(path)
        left = path if in_place else creating_path
        actual = Path(left).read_bytes() if os.path.exists(left) else b""
        self.verify_file(child, label + f" (the file after the kill, acked {child.acked})", path)
        if os.path.exists(creating_path):
            self.fail("wrong", f"{label}: '{Path(creating_path).name}' is left after the file was opened")
        try:
            records, pending = read_journal(journal_path)
        finally:
            journal_path.unlink(missing_ok=True)
        self.extra["journal_in_flight"] += len(pending)
        self.check_images(base, actual, records, pending, child, start_commit, label, creating,
                          in_place, leftover)

    def check_images(self, base: bytes, actual: bytes, records: List["Record"], pending: List["Record"],
                     child: Child, start_commit: int, label: str, creating: bool = False,
                     in_place: bool = True, leftover: bool = False) -> None:
        """`creating`: the run created the file (`base` is what the -creating file held, when
        there was one: `leftover`); `in_place`: the file ended up at its path."""
        writes = [r for r in records if r.type == "W"]
        syncs = [r for r in records if r.type == "S"]
        dsync = [r for r in writes if r.kind == 1]
        self.extra["journal_writes"] += len(writes)
        self.extra["journal_syncs"] += len(syncs)
        self.extra["journal_dsync_writes"] += len(dsync)
        others = sorted({r.type for r in records} - set("WSOCMKTND"))
        if others:
            self.messages.append(f"note: {label}: journal records of types {others} (not expected from LMDB)")
        acked_marks = [r.aux // 2 for r in records if r.type == "M" and r.aux % 2 == 0]
        names = [r for r in records if r.type == "N"]      # the new file got the target's name
        dir_syncs = [r for r in records if r.type == "D"]  # ... durably after one of these
        if creating and in_place and not names and self.args.creation_required:
            self.fail("wrong", f"{label}: a new file that was not renamed into place (the shim saw no rename)")
        if child.acked > start_commit:
            # Blind shim: nothing journaled, or no syncs, would make every image trivially fine.
            if not writes or not syncs or not dsync:
                self.fail("wrong", f"{label}: the shim saw {len(writes)} writes, {len(syncs)} syncs, "
                                   f"{len(dsync)} O_DSYNC writes for {child.acked - start_commit} commits")
                return
            if not set(range(start_commit + 1, child.acked + 1)) <= set(acked_marks):
                self.fail("wrong", f"{label}: acknowledged commits {start_commit + 1}..{child.acked} "
                                   f"but the journal marks {acked_marks[:3]}..{acked_marks[-3:]}")
        # The shim saw every write: the journal replayed onto the copy gives the file's bytes
        # (where a write was cut by the kill, its bytes may be old or new).
        replayed = bytearray(base)
        for r in records:
            apply_record(replayed, r)
        for r in pending:
            apply_record(replayed, r)
        unexplained = [page for page in differing_pages(replayed, actual)
                       if not any(p.offset < (page + 1) * 4096 and page * 4096 < p.offset + len(p.data)
                                  for p in pending)]
        if unexplained:
            self.fail("wrong", f"{label}: the journal replayed gives {len(replayed)} bytes, the file has "
                               f"{len(actual)}; they differ in pages {unexplained[:10]}: the shim missed a write")
            return
        del replayed

        # Crash moments: a crash "at q" happened after every record with seq < q completed.
        seqs = [r.seq for r in records]
        if not seqs:
            return
        seqs += [p.start for p in pending]
        points = sorted({r.seq + 1 for r in records if r.type == "S" or (r.type == "W" and r.kind == 1)})
        before_sync = sorted({r.seq for r in syncs})  # data written, not yet synced
        self.extra["durability_points"] += len(points)
        moments = set()
        budget = self.args.images
        last = max(seqs)
        pools = [points, before_sync, list(range(min(seqs), last + 2))]
        # When the file was created by this run: the moment its creation ended (its name durable;
        # without a rename, LMDB's first meta pages, written without a sync, durable).
        creation_end = None
        if creating and names:
            creation_end = min((d.seq + 1 for d in dir_syncs if d.aux > names[0].seq), default=last + 1)
        elif creating and syncs:
            creation_end = syncs[0].seq + 1
        if creation_end is not None:  # every moment until then
            moments.update(range(min(seqs), creation_end + 1))

        def name_in_place(q: int, variant: str) -> bool:
            """Whether the image at moment q has the file at its path."""
            if not creating:
                return True
            if not names:  # created in place (without the library's rename), or never renamed
                return in_place
            if any(d.seq < q and d.aux > names[0].seq for d in dir_syncs):
                return True  # the rename, then a directory sync: durable
            # Renamed but not yet durable: the disk may or may not have the new name.
            return names[0].seq < q and (variant == "all" or (variant == "torn" and self.rng.random() < 0.5))

        moments.add(last + 1)  # the end: everything completed (and what was in flight, in flight)
        candidates = set().union(*pools)
        while len(moments) < budget and not candidates <= moments:
            pool = self.rng.choice([p for p in pools if p])
            moments.add(self.rng.choice(pool))
        image_dir = self.workdir / "images"
        image_dir.mkdir(exist_ok=True)
        writes = writes + pending  # in order of their start; the pending ones never completed
        prefix = bytearray(base)   # every write durable at the current moment applied
        wi = 0                     # index into `writes` of the first not in `prefix`
        for q in sorted(moments):
            sync_start = max((r.aux for r in syncs if r.seq < q), default=0)
            # Durable: every write before the start of a completed sync.
            while wi < len(writes) and writes[wi].seq < sync_start:
                apply_record(prefix, writes[wi])
                wi += 1
            variant = self.rng.choice(["clean", "all", "torn", "torn"])
            image = bytearray(prefix)
            # Completed by q, or started before q and completed after it (in flight).
            tail = [w for w in writes[wi:] if w.start < q]
            keep = self.rng.choice([0.2, 0.5, 0.8])
            zero_fill = self.rng.random() < 0.5
            for w in tail:
                durable = w.kind == 1 and w.seq < q  # an O_DSYNC write that returned
                if durable or (variant == "all" and w.seq < q):
                    apply_record(image, w)
                elif variant == "torn":
                    apply_torn(image, w, self.rng, keep, zero_fill)
            marks = [r.aux for r in records if r.type == "M" and r.seq < q]
            required = max([m // 2 for m in marks if m % 2 == 0] + [start_commit])
            most = max([m // 2 for m in marks if m % 2 == 1] + [start_commit])
            image_path = image_dir / f"image-{self.figures['powerloss_images']}.realm"
            creating_image = Path(str(image_path) + "-creating")
            placed = name_in_place(q, variant)
            if placed:
                image_path.write_bytes(image)
            elif leftover or any(r.type == "O" and r.seq < q for r in records):
                creating_image.write_bytes(image)  # the file as it stood under its temporary name
            self.figures["powerloss_images"] += 1
            if creation_end is not None and q <= creation_end:
                self.extra["creation_images"] += 1
                self.extra["creation_absent"] += not placed
            dump = self.checker.check(str(image_path))
            k, failures = evaluate(dump, required, most)
            what = (f"{label} image at seq {q} of {last} ({variant}, required {required}, begun {most}"
                    + ("" if placed else ", not at its path") + ")")
            if creating_image.exists():
                failures.append(("wrong", f"'{creating_image.name}' is left after the file was opened"))
            self.record(failures, what, powerloss=True)
            if k is not None:
                self.extra["powerloss_images_" + variant] += 1
                self.extra["powerloss_rolled_back"] += k < child.acked
                self.extra["powerloss_beyond_ack"] += k > required
            keep_image = bool(failures) and self.failed_images < 5
            if keep_image:
                self.failed_images += 1
                kept = self.workdir / f"failed-{image_path.name}"
                image_path.rename(kept)
                self.messages.append(f"note: {what}: image kept as {kept}")
            else:
                image_path.unlink(missing_ok=True)
            Path(str(image_path) + "-lock").unlink(missing_ok=True)
            creating_image.unlink(missing_ok=True)


class Record:
    """A journal record. A write ('W') carries the bytes of its intent ('I') and `start`, the
    intent's seq; an intent that never completed is a write with seq NEVER."""
    __slots__ = ("type", "kind", "fd", "pid", "seq", "offset", "length", "aux", "data", "start")

    def __init__(self, type_: str, kind: int, fd: int, pid: int, seq: int, offset: int, length: int,
                 aux: int, data: bytes) -> None:
        self.type, self.kind, self.fd, self.pid, self.seq = type_, kind, fd, pid, seq
        self.offset, self.length, self.aux, self.data = offset, length, aux, data
        self.start = seq


HEADER = struct.Struct("<IBBHiIQqQQ")
MAGIC = 0x314A4C50


NEVER = 1 << 62


def read_journal(path: Path) -> Tuple[List[Record], List[Record]]:
    """The shim's records (each completed write with its intent's bytes), and the writes that
    were started but never returned (the process was killed in the call). A record cut short by
    SIGKILL at the end is ignored."""
    data = path.read_bytes() if path.exists() else b""
    records = []
    pos = 0
    while pos + HEADER.size <= len(data):
        magic, type_, kind, _, fd, pid, seq, offset, length, aux = HEADER.unpack_from(data, pos)
        if magic != MAGIC:
            raise ValueError(f"{path}: bad record at byte {pos}")
        body = length if type_ == ord("I") else 0
        if pos + HEADER.size + body > len(data):
            break
        records.append(Record(chr(type_), kind, fd, pid, seq, offset, length, aux,
                              data[pos + HEADER.size:pos + HEADER.size + body]))
        pos += HEADER.size + body
    intents = {r.seq: r for r in records if r.type == "I"}
    out = []
    for r in records:
        if r.type == "W":
            intent = intents.pop(r.aux, None)
            if intent is None or intent.offset != r.offset or len(intent.data) < r.length:
                raise ValueError(f"{path}: write {r.seq} does not match its intent {r.aux}")
            r.data = intent.data[:r.length]
            r.start = intent.seq
        if r.type != "I":
            out.append(r)
    pending = []
    for intent in intents.values():
        intent.type, intent.start, intent.seq = "W", intent.seq, NEVER
        pending.append(intent)
    return out, pending


def differing_pages(a: bytes, b: bytes, page: int = 4096) -> List[int]:
    """The numbers of the pages in which a and b differ (a shorter file differs in its tail)."""
    out = []
    for start in range(0, max(len(a), len(b)), page):
        if a[start:start + page] != b[start:start + page]:
            out.append(start // page)
    return out


def apply_bytes(image: bytearray, offset: int, data: bytes) -> None:
    end = offset + len(data)
    if end > len(image):
        image.extend(bytes(end - len(image)))
    image[offset:end] = data


def apply_record(image: bytearray, r: Record) -> None:
    if r.type == "W":
        apply_bytes(image, r.offset, r.data)
    elif r.type == "T":
        if r.aux == 1:  # fallocate: at least offset + length
            if r.offset + r.length > len(image):
                image.extend(bytes(r.offset + r.length - len(image)))
        elif r.offset < len(image):
            del image[r.offset:]
        else:
            image.extend(bytes(r.offset - len(image)))


SECTOR = 512


def apply_torn(image: bytearray, w: Record, rng: random.Random, keep: float, zero_fill: bool) -> None:
    """Applies each 512-byte sector of a non-durable write with probability `keep`; a dropped
    sector beyond the end of the file reads back as zeros when `zero_fill` (the size reached the
    disk, the data did not) or is not there."""
    pos = w.offset
    end = w.offset + len(w.data)
    while pos < end:
        cut = min(end, (pos // SECTOR + 1) * SECTOR)
        piece = w.data[pos - w.offset:cut - w.offset]
        if rng.random() < keep:
            apply_bytes(image, pos, piece)
        elif zero_fill and cut > len(image):
            start = max(pos, len(image))
            apply_bytes(image, start, bytes(cut - start))
        pos = cut


def build_shim(workdir: Path) -> Path:
    out = workdir / "powerloss.so"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("a C compiler (cc) is needed for the power-loss shim")
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-o", str(out), str(SHIM_SOURCE), "-ldl", "-lpthread"],
                   check=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=None, help="kill rounds (a power-loss run every 4th round)")
    parser.add_argument("--seconds", type=float, default=None, help="run rounds for this long")
    parser.add_argument("--images", type=int, default=30, help="power-loss images per run")
    parser.add_argument("--powerloss-commits", type=int, default=120, help="most commits of a power-loss run")
    parser.add_argument("--max-delay", type=float, default=0.4, help="longest random delay before a kill")
    parser.add_argument("--creation", action="store_true",
                        help="start with no file (the first power-loss run creates the realm), and make every "
                             "third power-loss run a creation run (a new file: every moment until its name "
                             "is durable); every image must open")
    parser.add_argument("--creation-required", action=argparse.BooleanOptionalAction, default=True,
                        help="fail when a new file appears without a rename (a library that creates files "
                             "in place); --no-creation-required to measure such a library")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--dir", default=None, help="work directory (default: a new temporary one, removed unless failures)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--commits", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--mark", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker_main()
    if args.child is not None:
        args.path = args.child
        return child_main(args)
    if args.rounds is None and args.seconds is None:
        args.rounds = 48  # the short form: ~15 s here (36 kill rounds, 12 power-loss runs)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")

    began = time.monotonic()
    workdir = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="realmdb-crash-durability-"))
    workdir.mkdir(parents=True, exist_ok=True)
    suite = Suite(args, workdir, build_shim(workdir))
    try:
        if args.creation:
            suite.powerloss_run()  # creates the file: power loss while a new realm is created
        else:
            suite.setup()
        round_no = 0
        while True:
            if args.rounds is not None and suite.figures["kill_rounds"] >= args.rounds:
                break
            if args.seconds is not None and time.monotonic() - began >= args.seconds:
                break
            if round_no % 4 == 3:
                runs = suite.extra["powerloss_runs"] + suite.extra["creation_runs"]
                if args.creation and runs % 3 == 2:
                    suite.creation_run()
                else:
                    suite.powerloss_run()
            else:
                suite.kill_round()
            round_no += 1
        if suite.extra["powerloss_runs"] == 0:
            suite.powerloss_run()
    finally:
        suite.checker.close()
    elapsed = time.monotonic() - began

    figures = dict(suite.figures)
    figures["seconds"] = round(elapsed, 1)
    figures.update(suite.extra)
    figures["seed"] = args.seed
    if args.creation and figures["creation_images"] == 0:
        suite.fail("wrong", "--creation built no image of a file being created")
        figures["wrong"] = suite.figures["wrong"]
    failures = sum(figures[k] for k in ("lost", "torn", "wrong", "crashes", "powerloss_lost",
                                         "powerloss_torn", "powerloss_errors"))
    # The details first, the line of figures last (scripts/faults.sh keeps a suite's last line).
    for m in suite.messages[:30]:
        print("  " + m)
    if len(suite.messages) > 30:
        print(f"  ... {len(suite.messages) - 30} more")
    if failures == 0 and args.dir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    elif failures:
        (workdir / "failures.txt").write_text("\n".join(suite.messages) + "\n")
        print(f"  work directory kept: {workdir} (every message in failures.txt; seed {args.seed})")
    if args.json:
        print(json.dumps(figures))
    else:
        print("crash durability: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
