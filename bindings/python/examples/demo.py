"""realmdb demo: create (or reopen) a realm, upsert a few people, read them back.

Usage:
    python3 bindings/python/examples/demo.py [PATH]

PATH defaults to demo-data/people.realm under the current directory. Running the
demo twice gives the same result: the writes are upserts keyed by primary key.
"""
from __future__ import annotations

import datetime as dt
import os
import sys

# Use the binding from this checkout (bindings/python), no install needed.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import realmdb  # noqa: E402

# A schema is a list of classes in Realm's JavaScript shorthand: a type name per
# property, "?" for optional, or a dict for extra options such as an index.
SCHEMA = [
    {
        "name": "Person",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "email": "string?",
            "city": {"type": "string", "indexed": True},
            "born": "date?",
        },
    }
]

PEOPLE = [
    {"id": 1, "name": "Ada Lovelace", "email": "ada@example.org", "city": "London",
     "born": dt.datetime(1815, 12, 10)},
    {"id": 2, "name": "Alan Turing", "email": None, "city": "Manchester",
     "born": dt.datetime(1912, 6, 23)},
    {"id": 3, "name": "Grace Hopper", "email": "grace@example.org", "city": "New York",
     "born": dt.datetime(1906, 12, 9)},
]


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join("demo-data", "people.realm")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    # Opening creates the file on first use; a `with` block closes it at the end.
    with realmdb.open(path, SCHEMA) as realm:
        print(f"realmdb {realmdb.__version__}: {realm.path}")

        # All changes happen in a write transaction. update="modified" turns each
        # create into an upsert: an existing Person with the same id is updated.
        with realm.write():
            for values in PEOPLE:
                realm.create("Person", values, update="modified")

        print(f"{realm.count('Person')} people")
        for person_id in (1, 2, 3, 4):
            person = realm.object_for_primary_key("Person", person_id)
            if person is None:  # absent primary keys give None
                print(f"  #{person_id}: (none)")
                continue
            # Properties read like attributes; dates come back as aware UTC datetimes.
            born = person.born.date().isoformat() if person.born else "?"
            print(f"  #{person.id} {person.name:<14} {person.city:<11} born {born}  "
                  f"email={person.email or '-'}")


if __name__ == "__main__":
    main()
