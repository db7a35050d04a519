#!/usr/bin/env python3
"""One phase of the Python object API, written as the README teaches it, for instruction counts
(bench/object_api_callgrind.sh runs each phase under callgrind, then its setup alone, and divides
the difference by N):

    a   realm.create("Person", {...}) per object, in one write
    b   object_for_primary_key, then the five attributes, per object
    h   for p in realm.objects("Person"): p.score = p.score + 1.0, in one write
    it  for p in realm.objects("Person"): pass

    python3 bench/object_api_phases.py PHASE N [--setup-only]

REALMDB_BINDING names the binding's folder (default: this checkout's bindings/python).
"""
from __future__ import annotations

import os
import sys
import tempfile

sys.path.insert(0, os.environ.get("REALMDB_BINDING") or
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings", "python"))
import realmdb  # noqa: E402

SCHEMA = [{"name": "Person", "primary_key": "id",
           "properties": {"id": "int", "name": {"type": "string", "indexed": True}, "age": "int",
                          "score": "double", "city": "string"},
           "indexes": [["age", "name"], ["city", "age"]]}]
PHASES = ("a", "b", "h", "it")


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in PHASES:
        raise SystemExit(__doc__)
    phase, n, setup_only = sys.argv[1], int(sys.argv[2]), "--setup-only" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        realm = realmdb.open(os.path.join(tmp, "bench.realm"), SCHEMA)
        rows = [{"id": i, "name": f"name{i}", "age": i % 100, "score": i * 0.5, "city": f"city_{i % 100}"}
                for i in range(n)]
        if phase != "a":
            with realm.write():
                realm.create_many("Person", rows)
        if phase in ("a", "h"):
            realm.begin_write()
        if not setup_only:
            if phase == "a":
                for row in rows:
                    realm.create("Person", row)
            elif phase == "b":
                find = realm.object_for_primary_key
                for i in range(n):
                    person = find("Person", (i * 7919) % n)
                    (person.id, person.name, person.age, person.score, person.city)
            elif phase == "h":
                for person in realm.objects("Person"):
                    person.score = person.score + 1.0
            else:
                for person in realm.objects("Person"):
                    pass
        if realm.in_write:
            realm.cancel_write()
        realm.close()


if __name__ == "__main__":
    main()
