"""Observer stress: processes that each run a writer thread and an asyncio observer on one file.

Drives notifications the way the README teaches: ``realm.attach_loop()`` on an asyncio loop and
``results.observe(callback)``, with a callback that calls back into the library (``len``, reads of
the newest objects). Nobody calls ``refresh()``: every delivery comes from the library's wake-up.

    python3 tests/faults/observer_stress.py --processes 4 --seconds 300

Each process commits one ``Item`` per transaction from its writer thread (its own realm handle)
for ``--seconds``, stamped with the wall-clock time of the commit. Every observer checks, at every callback, that
the changeset turns the previous count into the new one, and records how long each commit took
to reach it. A commit that reaches an observer later than ``--late`` seconds counts as missed (the
library promises a wake-up within 250 ms even without inotify); an observer whose loop makes no
progress for ``--stall`` seconds counts as stalled (the watchdog thread dumps its stacks). At the
end every observer must see every commit of every process, and the file must hold them all.

Prints one line of figures and exits non-zero on any stall, missed commit, wrong count or crash.
"""
from __future__ import annotations

import argparse
import asyncio
import faulthandler
import json
import multiprocessing as mp
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

SCHEMA = [{"name": "Item", "primary_key": "id",
           "properties": {"id": "int", "writer": "int", "seq": "int", "at": "double"}}]


def observer_process(index: int, args: argparse.Namespace, start: "mp.synchronize.Event",
                     writers_done: "mp.sharedctypes.Synchronized", committed: "mp.sharedctypes.SynchronizedArray",
                     results_queue: "mp.Queue") -> None:
    import realmdb
    faulthandler.enable()
    report = {"index": index, "callbacks": 0, "late": 0, "max_latency_ms": 0.0, "wrong": [],
              "stalled": False, "final_count": -1, "committed": 0, "error": None}
    last_progress = [time.monotonic()]
    finished = threading.Event()

    def watchdog() -> None:
        while not finished.wait(1.0):
            if time.monotonic() - last_progress[0] > args.stall:
                report["stalled"] = True
                sys.stderr.write(f"[observer {index}] no progress for {args.stall} s; stacks:\n")
                faulthandler.dump_traceback(all_threads=True)
                results_queue.put(report)
                results_queue.close()
                results_queue.join_thread()  # the report reaches the parent before _exit
                os._exit(3)

    def writer() -> None:
        rng = random.Random(index)
        with realmdb.open(args.path, SCHEMA) as realm:
            start.wait()
            stop = time.monotonic() + args.seconds
            seq = 0
            while time.monotonic() < stop:
                with realm.write():
                    realm.create("Item", {"id": index * 10_000_000 + seq, "writer": index, "seq": seq,
                                          "at": time.time()})
                seq += 1
                committed[index] = seq  # acknowledged: the commit returned
                time.sleep(rng.uniform(0, args.pause))
        report["committed"] = seq
        with writers_done.get_lock():
            writers_done.value += 1

    async def observe() -> None:
        realm = realmdb.open(args.path, SCHEMA)
        try:
            realm.attach_loop()
            items = realm.objects("Item")
            seen = {"count": None}
            complete = asyncio.Event()

            def on_change(results, changes) -> None:
                last_progress[0] = time.monotonic()
                report["callbacks"] += 1
                count = len(results)  # back into the library, from inside the callback
                if changes.initial:
                    seen["count"] = count
                else:
                    expected = seen["count"] - len(changes.deletions) + len(changes.insertions)
                    if expected != count:
                        report["wrong"].append(f"count {seen['count']} -{len(changes.deletions)} "
                                               f"+{len(changes.insertions)} != {count}")
                    now = time.time()
                    for i in changes.insertions:
                        latency = now - results[i].at
                        report["max_latency_ms"] = max(report["max_latency_ms"], latency * 1000)
                        if latency > args.late:
                            report["late"] += 1
                    seen["count"] = count
                if writers_done.value == args.processes and count == sum(committed):
                    complete.set()

            token = items.observe(on_change)
            try:
                while not complete.is_set():
                    last_progress[0] = time.monotonic()  # the loop itself is alive
                    try:
                        await asyncio.wait_for(complete.wait(), 0.5)
                    except asyncio.TimeoutError:
                        pass
                    if writers_done.value == args.processes and not complete.is_set():
                        # Every commit is in: the library must deliver the last one on its own.
                        await asyncio.sleep(args.late + 0.5)
                        if not complete.is_set() and seen["count"] != sum(committed):
                            report["late"] += 1
                            report["wrong"].append(f"after the last commit the observer saw {seen['count']} of {sum(committed)}")
                        break
            finally:
                token.invalidate()
            report["final_count"] = len(realm.objects("Item"))
            report["total"] = sum(committed)
        finally:
            realm.close()

    threading.Thread(target=watchdog, daemon=True).start()
    writer_thread = threading.Thread(target=writer)
    writer_thread.start()
    try:
        asyncio.run(observe())
    except Exception as exc:  # reported, not raised: the parent prints every process's figures
        report["error"] = repr(exc)
    last_progress[0] = time.monotonic()
    writer_thread.join()  # it stops by itself at its deadline
    finished.set()
    results_queue.put(report)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the writers write")
    parser.add_argument("--pause", type=float, default=0.01, help="the writers' longest random pause between commits")
    parser.add_argument("--late", type=float, default=2.0, help="a commit reaching an observer later than this is missed")
    parser.add_argument("--stall", type=float, default=20.0, help="an observer without progress this long is stalled")
    parser.add_argument("--path", default=None)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.path is None:
        import tempfile
        args.path = os.path.join(tempfile.mkdtemp(prefix="realmdb-observer-stress-"), "stress.realm")

    ctx = mp.get_context("spawn")
    start = ctx.Event()
    writers_done = ctx.Value("i", 0)
    committed = ctx.Array("q", args.processes)  # each writer's acknowledged commits
    queue = ctx.Queue()
    procs = [ctx.Process(target=observer_process, args=(i, args, start, writers_done, committed, queue))
             for i in range(args.processes)]
    began = time.monotonic()
    for p in procs:
        p.start()
    time.sleep(1.0)  # every observer registered before the first commit (the initial count is 0)
    start.set()
    reports = []
    deadline = began + args.seconds * 3 + 120
    while len(reports) < len(procs) and time.monotonic() < deadline:
        try:
            reports.append(queue.get(timeout=1.0))
        except Exception:
            if all(not p.is_alive() for p in procs) and queue.empty():
                break
    for p in procs:
        p.join(timeout=max(1.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
    elapsed = time.monotonic() - began

    total = sum(committed)
    crashes = sum(1 for p in procs if p.exitcode not in (0, 3)) + (len(procs) - len(reports))
    stalls = sum(1 for r in reports if r["stalled"]) + sum(1 for p in procs if p.exitcode is None)
    missed = sum(r["late"] for r in reports)
    wrong = [w for r in reports for w in r["wrong"]] + [r["error"] for r in reports if r["error"]]
    wrong += [f"observer {r['index']} final count {r['final_count']} != {total}" for r in reports
              if not r["stalled"] and r["final_count"] != total]
    figures = {"processes": args.processes, "commits": total, "seconds": round(elapsed, 1),
               "callbacks": sum(r["callbacks"] for r in reports),
               "max_latency_ms": round(max((r["max_latency_ms"] for r in reports), default=0.0), 1),
               "stalls": stalls, "missed": missed, "wrong": len(wrong), "crashes": crashes}
    if args.json:
        print(json.dumps(figures))
    else:
        print("observer stress: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    for w in wrong[:20]:
        print("  wrong:", w)
    return 0 if stalls == missed == crashes == len(wrong) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
