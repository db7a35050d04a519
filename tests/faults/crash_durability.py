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

The parts are in tests/faults/durability/ (its __init__.py lists them); this script is also the
program of the suite's child processes (--child: the writer; --worker: the checker).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from durability.checker import worker_main
from durability.power_loss import PowerLossSuite
from durability.shim import build_shim
from durability.writer import child_main


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
    suite = PowerLossSuite(args, workdir, build_shim(workdir))
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
