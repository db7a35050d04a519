"""Updating every object through live Results in chunks, as users write it: for each chunk of
--chunk positions, one write transaction doing `o = results[i]; o.score = o.score + 1`. Results
of the whole class, filtered, and sorted; microseconds per object for each --n, which should
stay flat as N grows (the results keep their keys across writes and commits of a column they
do not read).

    python3 bench/chunked_update_bench.py [--n 50000 100000 200000] [--chunk 1000]

Use a release build of libdb.so ($REALMDB_LIBRARY).
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

import realmdb

SCHEMA = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "score": "double", "age": "int"}}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[50_000, 100_000, 200_000])
    parser.add_argument("--chunk", type=int, default=1000)
    args = parser.parse_args()
    print(f"| N | whole class | filter('age >= 0') | sorted('age') |   (µs per object, chunks of {args.chunk})")
    print("|---:|---:|---:|---:|")
    for n in args.n:
        with tempfile.TemporaryDirectory() as directory:
            realm = realmdb.open(os.path.join(directory, "chunks.realm"), SCHEMA)
            with realm.write():
                realm.create_many("Person", [{"id": i, "score": 0.0, "age": i % 80} for i in range(n)])
            people = realm.objects("Person")
            row = [f"| {n}"]
            for results in (people, people.filter("age >= 0"), people.sorted("age")):
                start = time.perf_counter()
                for first in range(0, n, args.chunk):
                    with realm.write():
                        for i in range(first, min(first + args.chunk, n)):
                            person = results[i]
                            person.score = person.score + 1
                row.append(f"{(time.perf_counter() - start) / n * 1e6:.2f}")
            # Every object was updated once per pass.
            assert realm.objects("Person").sum("score") == 3 * n
            realm.close()
        print(" | ".join(row) + " |")


if __name__ == "__main__":
    main()
