"""Notification benchmark: the cost of a changeset on a large observed Results, and the latency
from a commit in another process to the callback.

    python3 bench/notification_bench.py [--n 1000000] [--reps 5]

For N objects, three observed collections: an unsorted filter matching every object
(`age >= 0`), the objects sorted by age, and the objects sectioned by age (100 sections). For each, a write modifies 1 object, then 10,000 objects, and the time
from `commit()` to the callback's return is measured (the commit itself included; its time
without any observer is printed alongside). Then a child process commits one object while the
parent waits in an asyncio loop (`realm.attach_loop`); the latency is from just before the child's
commit to the parent's callback (wall clock, median of --reps). Use a release build of libdb.so
($REALMDB_LIBRARY).
"""
from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import BINDING, options  # first: it puts the binding on sys.path

import realmdb

SCHEMA = [{"name": "Dog", "properties": {"name": "string", "age": "int"}}]


def timed_commit(realm, results_list, modify, reps):
    """Median seconds from commit() to the last callback, with `modify(i)` run in the write."""
    times = []
    for rep in range(reps):
        done = []
        tokens = [r.observe(lambda res, c: done.append(time.perf_counter())) for r in results_list]
        realm.deliver_notifications()
        done.clear()
        realm.begin_write()
        modify(rep)
        start = time.perf_counter()
        realm.commit()
        if results_list:
            assert len(done) == len(results_list), "every observer was called"
            times.append(max(done) - start)
        else:
            times.append(time.perf_counter() - start)
        for t in tokens:
            t.invalidate()
    return statistics.median(times)


def main() -> None:
    args = options(__doc__, n=1_000_000, reps=5)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "dogs.realm")
        realm = realmdb.open(path, SCHEMA)
        start = time.perf_counter()
        with realm.write():
            realm.create_many("Dog", [(f"d{i}", i % 100) for i in range(args.n)], properties=["name", "age"])
        print(f"library {realmdb.LIBRARY_PATH}; {args.n} objects created in {time.perf_counter() - start:.1f} s")
        dogs = realm.objects("Dog")
        unsorted = dogs.filter("age >= 0")
        by_age = dogs.sorted("age")
        sections = dogs.sectioned("age")
        keys = dogs.values("name")[:0]  # warm the class
        one = dogs[args.n // 2]

        def modify_one(rep):
            one.age = (one.age + 1) % 100

        batch = [dogs[i] for i in range(0, args.n, max(1, args.n // 10_000))][:10_000]

        def modify_many(rep):
            for d in batch:
                d.age = (d.age + 7) % 100

        print(f"| changeset after a commit (N = {args.n}) | no observer (commit alone) | unsorted filter | sorted by age "
              "| sectioned by age |")
        print("|---|---:|---:|---:|---:|")
        for label, modify in (("1 object modified", modify_one), (f"{len(batch)} objects modified", modify_many)):
            alone = timed_commit(realm, [], modify, args.reps)
            filt = timed_commit(realm, [unsorted], modify, args.reps)
            sort = timed_commit(realm, [by_age], modify, args.reps)
            sect = timed_commit(realm, [sections], modify, args.reps)
            print(f"| {label} | {alone * 1000:.2f} ms | {filt * 1000:.2f} ms | {sort * 1000:.2f} ms | {sect * 1000:.2f} ms |")
        del keys

        async def latency():
            realm.attach_loop()
            samples = []
            for rep in range(args.reps):
                arrived = asyncio.Event()
                stamp = {}

                def on_change(res, changes):
                    if not changes.initial:
                        stamp["at"] = time.time()
                        arrived.set()
                small = dogs.filter("name == 'latency'")
                token = small.observe(on_change)
                realm.deliver_notifications()
                code = (f"import time, realmdb\nr = realmdb.open({path!r}, {SCHEMA!r})\nr.begin_write()\n"
                        "r.create('Dog', {'name': 'latency', 'age': 1})\nt = time.time()\nr.commit()\nprint(t)\nr.close()\n")
                env = dict(os.environ, PYTHONPATH=str(BINDING),
                           REALMDB_LIBRARY=realmdb.LIBRARY_PATH)
                proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, env=env, stdout=subprocess.PIPE)
                out, _ = await proc.communicate()
                await asyncio.wait_for(arrived.wait(), timeout=30)
                samples.append(stamp["at"] - float(out.decode().strip()))
                token.invalidate()
            realm.detach_loop()
            return statistics.median(samples)

        lat = asyncio.run(latency())
        print(f"\nlatency, commit in another process -> callback on an asyncio loop: {lat * 1000:.2f} ms "
              f"(median of {args.reps}; includes the changeset of `name == 'latency'` over {args.n} objects)")
        realm.close()


if __name__ == "__main__":
    main()
