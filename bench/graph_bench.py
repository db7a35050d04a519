"""Graph benchmark: People with lists of Dogs, realmdb against sqlite3, side by side in one run.

    python3 bench/graph_bench.py [--people 100000] [--dogs-per-person 5] [--reps 5]

Workload (the relationships issue's): insert N people, each with a list of 5 dogs, in one write
transaction; then count the people matching three queries:

    q1  dogs.@count > 3
    q2  ANY dogs.age > 10
    q3  SUBQUERY(dogs, $d, $d.age > 10 AND $d.name BEGINSWITH 'R').@count > 1

sqlite3 (Python's module, WAL, synchronous=NORMAL) holds the same data normalized: person(id,
name), dog(id, person_id, position, name, age) with an index on dog(person_id), and answers with
correlated COUNT and EXISTS subqueries. Both sides' answers are checked equal. Each query's time
is the median of --reps runs. realmdb is loaded as the tests load it ($REALMDB_LIBRARY or the
newest build); use a release build (bench/run_c_bench.sh builds one in .build-release).
"""
from __future__ import annotations

import os
import random
import sqlite3
import tempfile
import time

from benchlib import median_time, options  # first: it puts the binding on sys.path

import realmdb

NAMES = ["Rex", "Fido", "Max", "Bella", "Rocky", "Luna", "Ruby", "Milo", "Daisy", "Ringo"]
QUERIES = {
    "q1 dogs.@count > 3": (
        "dogs.@count > 3",
        "SELECT count(*) FROM person p WHERE (SELECT count(*) FROM dog d WHERE d.person_id = p.id) > 3"),
    "q2 ANY dogs.age > 10": (
        "ANY dogs.age > 10",
        "SELECT count(*) FROM person p WHERE EXISTS (SELECT 1 FROM dog d WHERE d.person_id = p.id AND d.age > 10)"),
    "q3 SUBQUERY(age > 10, name 'R*') > 1": (
        "SUBQUERY(dogs, $d, $d.age > 10 AND $d.name BEGINSWITH 'R').@count > 1",
        "SELECT count(*) FROM person p WHERE (SELECT count(*) FROM dog d WHERE d.person_id = p.id "
        "AND d.age > 10 AND d.name GLOB 'R*') > 1"),
}


def workload(people: int, per_person: int, seed: int = 42):
    rng = random.Random(seed)
    return [[(rng.choice(NAMES), rng.randrange(16)) for _ in range(per_person)] for _ in range(people)]


def run_realmdb(path: str, data, reps: int):
    schema = [
        {"name": "Person", "primary_key": "id", "properties": {"id": "int", "name": "string", "dogs": "Dog[]"}},
        {"name": "Dog", "properties": {"name": "string", "age": "int"}},
    ]
    # One object at a time, as an application adds them: create() with nested dicts.
    realm = realmdb.open(path + ".one-by-one", schema)
    start = time.perf_counter()
    with realm.write():
        for i, dogs in enumerate(data):
            realm.create("Person", {"id": i, "name": f"p{i}", "dogs": [{"name": n, "age": a} for n, a in dogs]})
    one_by_one = time.perf_counter() - start
    realm.close()
    # In bulk, as sqlite3's executemany: create_many() with the same nested dicts.
    realm = realmdb.open(path, schema)
    start = time.perf_counter()
    with realm.write():
        realm.create_many("Person", [{"id": i, "name": f"p{i}", "dogs": [{"name": n, "age": a} for n, a in dogs]}
                                     for i, dogs in enumerate(data)])
    bulk = time.perf_counter() - start
    people = realm.objects("Person")
    results = {label: median_time(lambda q=q: len(people.filter(q)), reps) for label, (q, _) in QUERIES.items()}
    realm.close()
    return (one_by_one, bulk), results


def run_sqlite(path: str, data, reps: int):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    db.execute("CREATE TABLE dog (id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES person(id), "
               "position INTEGER NOT NULL, name TEXT NOT NULL, age INTEGER NOT NULL)")
    db.execute("CREATE INDEX dog_person ON dog(person_id)")
    start = time.perf_counter()
    db.execute("BEGIN")
    db.executemany("INSERT INTO person (id, name) VALUES (?, ?)", ((i, f"p{i}") for i in range(len(data))))
    db.executemany("INSERT INTO dog (person_id, position, name, age) VALUES (?, ?, ?, ?)",
                   ((i, j, n, a) for i, dogs in enumerate(data) for j, (n, a) in enumerate(dogs)))
    db.execute("COMMIT")
    insert = time.perf_counter() - start
    results = {label: median_time(lambda s=s: db.execute(s).fetchone()[0], reps) for label, (_, s) in QUERIES.items()}
    db.close()
    return insert, results


def main() -> None:
    args = options(__doc__, people=100_000, dogs_per_person=5, reps=5)
    data = workload(args.people, args.dogs_per_person)
    with tempfile.TemporaryDirectory() as tmp:
        ours = run_realmdb(os.path.join(tmp, "graph.realm"), data, args.reps)
        theirs = run_sqlite(os.path.join(tmp, "graph.sqlite"), data, args.reps)
    n, per = args.people, args.dogs_per_person
    print(f"library: {realmdb._ffi.LIBRARY_PATH}")
    print(f"| phase ({n} people x {per} dogs) | realmdb | sqlite3 | realmdb vs sqlite3 |")
    print("|---|---:|---:|---:|")
    (one_by_one, bulk), sqlite_insert = ours[0], theirs[0]
    print(f"| insert, one write transaction: create() per person vs executemany | {one_by_one:.2f} s | {sqlite_insert:.2f} s "
          f"| {sqlite_insert / one_by_one:.2f}x |")
    print(f"| insert, one write transaction: create_many() vs executemany | {bulk:.2f} s | {sqlite_insert:.2f} s "
          f"| {sqlite_insert / bulk:.2f}x |")
    for label in QUERIES:
        (t_ours, a_ours), (t_theirs, a_theirs) = ours[1][label], theirs[1][label]
        if a_ours != a_theirs:
            raise SystemExit(f"{label}: realmdb counted {a_ours}, sqlite3 {a_theirs}")
        print(f"| {label} ({a_ours} match) | {t_ours * 1000:.1f} ms | {t_theirs * 1000:.1f} ms | {t_theirs / t_ours:.2f}x |")
    print("ratios above 1 mean realmdb is faster; answers are checked equal")


if __name__ == "__main__":
    main()
