"""Frozen views and sectioned results: file growth while a frozen view pins a version, and the
time to section a large Results.

    python3 bench/frozen_bench.py [--commits 10000] [--n 1000000]

1. Two files, each with 1,000 objects, get --commits commits that rewrite 100 objects each: one
   while a frozen view of the first version is held (its pages cannot be reused), one without.
   The file sizes after the commits are printed, then the first file's after the view is closed
   and 1,000 more commits.
2. --n objects with random names; the time to section them by the first letter of the name
   (a Python key function, results sorted by name), and by a key path (`age`) for comparison:
   median of 3, each forcing a full evaluation.
Use a release build of libdb.so ($REALMDB_LIBRARY).
"""
from __future__ import annotations

import os
import random
import tempfile

from benchlib import median_time, options  # first: it puts the binding on sys.path

import realmdb

SCHEMA = [{"name": "Dog", "properties": {"name": "string", "age": "int"}}]


def grow(path: str, commits: int, hold: bool) -> tuple:
    realm = realmdb.open(path, SCHEMA)
    with realm.write():
        realm.create_many("Dog", [(f"d{i}", i) for i in range(1000)], properties=["name", "age"])
    dogs = realm.objects("Dog").limit(100)
    view = realm.freeze() if hold else None
    for c in range(commits):
        with realm.write():
            dogs.set_values("age", [c] * 100)
    size = os.path.getsize(path)
    after = None
    if view is not None:
        pinned = realm.active_versions
        view.close()
        for c in range(1000):
            with realm.write():
                dogs.set_values("age", [c] * 100)
        after = os.path.getsize(path)
        assert realm.active_versions < pinned
    realm.close()
    return size, after


def main() -> None:
    args = options(__doc__, commits=10_000, n=1_000_000)
    print(f"library {realmdb.LIBRARY_PATH}")
    with tempfile.TemporaryDirectory() as tmp:
        held, after = grow(os.path.join(tmp, "held.realm"), args.commits, hold=True)
        free, _ = grow(os.path.join(tmp, "free.realm"), args.commits, hold=False)
        mb = 1024 * 1024
        print(f"| {args.commits} commits rewriting 100 of 1,000 objects | file size |")
        print("|---|---:|")
        print(f"| a frozen view of the first version held | {held / mb:.1f} MB |")
        print(f"| no frozen view | {free / mb:.1f} MB |")
        print(f"| held file, after closing the view and 1,000 more commits | {after / mb:.1f} MB |")

        realm = realmdb.open(os.path.join(tmp, "names.realm"), SCHEMA)
        rng = random.Random(1)
        letters = "abcdefghijklmnopqrstuvwxyz"
        with realm.write():
            realm.create_many("Dog", [("".join(rng.choice(letters) for _ in range(6)), rng.randrange(100)) for _ in range(args.n)],
                              properties=["name", "age"])
        dogs = realm.objects("Dog")
        # len() forces the full evaluation.
        by_letter, letters_found = median_time(lambda: len(dogs.sectioned(lambda d: d.name[0], sort=["name"])), 3)
        by_age, ages_found = median_time(lambda: len(dogs.sectioned("age")), 3)
        print(f"\n| sectioning {args.n} objects | time | sections |")
        print("|---|---:|---:|")
        print(f"| by the first letter of name (Python key function, sorted by name) | {by_letter:.2f} s | {letters_found} |")
        print(f"| by a key path (age) | {by_age:.2f} s | {ages_found} |")
        realm.close()


if __name__ == "__main__":
    main()
