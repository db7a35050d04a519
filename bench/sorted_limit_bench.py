"""A sort with a limit, as users write it: `Results.sorted([("age", True), ("name", True)]).limit(100)`
and three attributes of each object, over --n people without an index on age or name (so the
engine's top-k scan does the work). Mean of 50 runs after 3 warm-ups.

    python3 bench/sorted_limit_bench.py [--n 100000]

Use a release build of libdb.so ($REALMDB_LIBRARY).
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

import realmdb

SCHEMA = [{"name": "Person", "primary_key": "id",
           "properties": {"id": "int", "name": "string", "age": "int", "city": "string", "score": "double"}}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    n = parser.parse_args().n
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as directory:
        realm = realmdb.open(os.path.join(directory, "sort.realm"), SCHEMA)
        with realm.write():
            realm.create_many("Person", [{"id": i, "name": "n%06d" % rng.randrange(10**6), "age": rng.randrange(100),
                                          "city": "c%d" % rng.randrange(100), "score": rng.random()} for i in range(n)])

        def first_hundred() -> list:
            top = realm.objects("Person").sorted([("age", True), ("name", True)]).limit(100)
            return [(p.id, p.name, p.score) for p in top]
        for _ in range(3):
            first_hundred()
        start = time.perf_counter()
        for _ in range(50):
            first_hundred()
        print(f"sorted by age, name; first 100 of {n}: {(time.perf_counter() - start) / 50 * 1000:.3f} ms")
        realm.close()


if __name__ == "__main__":
    main()
