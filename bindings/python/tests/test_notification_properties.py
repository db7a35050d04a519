"""Randomized property test of collection notifications from Python.

Over ~1000 random write transactions (inserts, deletes, updates, list appends, moves and
removals, link changes), every callback of filtered, sorted, distinct, limited and list results
(with and without key paths) must satisfy the invariant: applying the deletions and then the
insertions to the previous contents yields the new contents exactly, every move is also a
deletion and an insertion, and every object written in the transaction in an observed property
that is in both old and new contents is reported modified (with its new index). Objects written
only in unobserved properties must not be (for the key-path tokens).

``REALMDB_NOTIFY_COMMITS`` and ``REALMDB_DIFF_SEED`` change the length and the seed.
"""
from __future__ import annotations

import os
import random

import realmdb

SEED = int(os.environ.get("REALMDB_DIFF_SEED", "1234"))
COMMITS = int(os.environ.get("REALMDB_NOTIFY_COMMITS", "1000"))

SCHEMA = [
    {"name": "Dog", "primary_key": "id", "properties": {"id": "int", "name": "string", "age": "int", "toys": "Toy[]"}},
    {"name": "Toy", "properties": {"brand": "string"}},
]


def test_random_transactions_keep_the_changeset_invariant(tmp_realm_path):
    rng = random.Random(SEED)
    realm = realmdb.open(tmp_realm_path, SCHEMA)
    with realm.write():
        owner = realm.create("Dog", {"id": 0, "name": "owner", "age": 99})
        for i in range(1, 40):
            realm.create("Dog", {"id": i, "name": f"d{i % 7}", "age": rng.randrange(8)})
        toys = [realm.create("Toy", {"brand": f"b{i}"}) for i in range(6)]
    dogs = realm.objects("Dog")
    watched = {
        "filter": (dogs.filter("age > 2"), None),
        "sorted": (dogs.filter("age < 6").sorted([("age", False), ("name", True)]), None),
        "sorted-name": (dogs.sorted("name"), None),
        "distinct": (dogs.distinct("age"), None),
        "limit": (dogs.sorted("age").limit(10), None),
        "ages-only": (dogs.filter("age > 2"), ["age"]),
        "toys": (owner.toys, None),
    }
    state = {}
    failures = []
    written_age, written_name = set(), set()

    def contents(name):
        collection = watched[name][0]
        if name == "toys":
            return [toy.brand for toy in collection]  # each toy's brand is its own
        return collection.values("id")

    def check(name):
        def on_change(collection, changes):
            new = contents(name)
            if changes.initial:
                state[name] = new
                return
            old = state[name]
            out = list(old)
            for i in reversed(changes.deletions):
                del out[i]
            for i in changes.insertions:
                out.insert(i, new[i])
            if out != new:
                failures.append(f"{name}: {changes} turned {old} into {out}, not {new}")
            for frm, to in changes.moves:
                if frm not in changes.deletions or to not in changes.insertions:
                    failures.append(f"{name}: move {frm}->{to} is not a deletion and an insertion")
            if name != "toys":
                observed = written_age if name == "ages-only" else written_age | written_name
                for key in observed:
                    if key in old and key in new and new.index(key) not in changes.modifications_new:
                        failures.append(f"{name}: {key} was written but not reported modified in {changes}")
                if name == "ages-only":
                    for key in written_name - written_age:
                        if key in new and new.index(key) in changes.modifications_new:
                            failures.append(f"{name}: {key} only had its name written, yet was reported modified")
            state[name] = new
        return on_change

    tokens = [watched[name][0].observe(check(name), key_paths=watched[name][1]) for name in watched]
    realm.deliver_notifications()
    next_id = 100
    for _ in range(COMMITS):
        written_age.clear()
        written_name.clear()
        with realm.write():
            for _ in range(rng.randint(1, 4)):
                live = [d for d in dogs.values("id") if d != 0]
                op = rng.randrange(7)
                if op == 0 or not live:
                    realm.create("Dog", {"id": next_id, "name": f"d{rng.randrange(7)}", "age": rng.randrange(8)})
                    next_id += 1
                elif op == 1 and len(live) > 10:
                    key = rng.choice(live)
                    realm.delete(realm.object_for_primary_key("Dog", key))
                    written_age.discard(key)
                    written_name.discard(key)
                elif op in (2, 3):
                    key = rng.choice(live)
                    obj = realm.object_for_primary_key("Dog", key)
                    if rng.random() < 0.5:
                        obj.age = rng.randrange(8)
                        written_age.add(key)
                    else:
                        obj.name = f"d{rng.randrange(7)}"
                        written_name.add(key)
                elif op == 4:
                    owner.toys.append(rng.choice(toys))
                elif op == 5 and len(owner.toys) > 1:
                    owner.toys.move(rng.randrange(len(owner.toys)), rng.randrange(len(owner.toys)))
                elif len(owner.toys) > 0:
                    del owner.toys[rng.randrange(len(owner.toys))]
    assert failures == [], failures[:3]
    for token in tokens:
        token.invalidate()
    realm.close()
