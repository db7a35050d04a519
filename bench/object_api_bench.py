#!/usr/bin/env python3
"""The Python object API one operation at a time, as the README teaches it: the cost of each
single call that issue 16 sets a target for, in microseconds (median of --reps runs).

    REALMDB_LIBRARY=.build-release/release/libdb.so python3 bench/object_api_bench.py --n 100000

Measures: attribute read (`person.age`), attribute write (`person.score = x` inside a write),
`realm.create` of five properties, `object_for_primary_key`, iterating a Results (objects/s),
and `filter("id IN $0", ids)` for growing lists (which must stay linear in the list).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings", "python"))
import realmdb  # noqa: E402

SCHEMA = [{
    "name": "Person", "primary_key": "id",
    "properties": {"id": "int", "name": {"type": "string", "indexed": True}, "age": "int",
                   "score": "double", "city": "string"},
}]


def per_op(reps: int, ops: int, body, setup=None) -> float:
    """Median over `reps` runs of body() (each after an untimed setup()), in microseconds per operation."""
    runs = []
    for _ in range(reps):
        if setup is not None:
            setup()
        start = time.perf_counter()
        body()
        runs.append((time.perf_counter() - start) / ops * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="objects in the realm")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    n, reps = args.n, args.reps
    with tempfile.TemporaryDirectory() as tmp:
        realm = realmdb.open(os.path.join(tmp, "bench.realm"), SCHEMA)
        try:
            rows = [{"id": i, "name": f"name{i}", "age": i % 100, "score": i * 0.5, "city": f"city_{i % 100}"}
                    for i in range(n)]
            def create() -> None:
                with realm.write():
                    for row in rows:
                        realm.create("Person", row)

            def empty() -> None:
                with realm.write():
                    realm.objects("Person").delete_all()
            results = {"create, 5 properties": per_op(reps, n, create, setup=empty)}

            people = list(realm.objects("Person")[: min(n, 10_000)])
            count = len(people)

            def read() -> None:
                for person in people:
                    person.age
            results["attribute read"] = per_op(reps, count, read)

            def write() -> None:
                with realm.write():
                    for person in people:
                        person.score = 1.5
            results["attribute write"] = per_op(reps, count, write)

            find = realm.object_for_primary_key
            ids = list(range(0, n, max(1, n // 10_000)))

            def lookup() -> None:
                for i in ids:
                    find("Person", i)
            results["object_for_primary_key"] = per_op(reps, len(ids), lookup)

            everyone = realm.objects("Person")

            def iterate() -> None:
                for _ in everyone:
                    pass
            results["iterate Results, per object"] = per_op(reps, n, iterate)

            def iterate_and_read() -> None:
                for person in everyone:
                    person.id, person.age, person.name
            results["iterate Results + read 3 attributes, per object"] = per_op(reps, n, iterate_and_read)

            for size in (n // 100, n // 10, n // 2):
                wanted = list(range(0, 2 * size, 2))
                results[f"filter('id IN $0', {size} ids) + len, per id"] = per_op(
                    reps, size, lambda: len(realm.objects("Person").filter("id IN $0", wanted)))
        finally:
            realm.close()
    width = max(map(len, results))
    print(f"realmdb {realmdb.__version__}, N = {n}, median of {reps}")
    for name, micros in results.items():
        rate = f"{1e6 / micros / 1e6:.2f}M/s" if micros < 1 else f"{1e6 / micros / 1e3:.1f}k/s"
        print(f"{name:<{width}}  {micros:8.2f} µs  ({rate})")


if __name__ == "__main__":
    main()
