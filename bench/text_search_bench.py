"""Full-text search (TEXT) over a string property without an index: the time of a query over
--n strings of 8 words each (about half of them with a word beyond ASCII), best of 5.

    python3 bench/text_search_bench.py [--n 100000]

Use a release build of libdb.so ($REALMDB_LIBRARY).
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

import realmdb

WORDS = ["swift", "linux", "java", "rust", "python", "database", "realm", "query", "lmdb", "café"]
QUERIES = ["bio TEXT 'swift lin*'", "bio TEXT 'swift -java'", "bio TEXT 'cafe'"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    n = parser.parse_args().n
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as directory:
        realm = realmdb.open(os.path.join(directory, "text.realm"), [{"name": "P", "properties": {"bio": "string"}}])
        with realm.write():
            realm.create_many("P", [{"bio": " ".join(rng.choice(WORDS) for _ in range(8))} for _ in range(n)])
        people = realm.objects("P")
        for query in QUERIES:
            best = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                matches = len(people.filter(query))
                best = min(best, time.perf_counter() - start)
            print(f"{query:28} {matches:8} matches  {best * 1000:8.1f} ms  {best / n * 1e9:6.0f} ns per string")
        realm.close()


if __name__ == "__main__":
    main()
