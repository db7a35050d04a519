"""The suite's figures and failures, the writer children it runs, and its kill rounds."""
from __future__ import annotations

import argparse
import random
import signal
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from durability.checker import Checker, evaluate
from durability.processes import child_environ
from durability.writer import Child


class Suite:
    """One run of the suite: its random choices, figures, failure messages and checker."""

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
