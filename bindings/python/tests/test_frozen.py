"""Frozen realms, results, objects and collections from Python: immutable views pinned to a
version, read from other threads while writes go on; thaw; observers refused; the version limit;
the file growing only while a frozen view is held."""
from __future__ import annotations

import os
import threading

import pytest

import realmdb

SCHEMA = [{"name": "Dog", "properties": {"name": "string", "age": "int", "scores": "int[]"}}]


def test_frozen_views_keep_their_version_and_thaw(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    with r.write():
        rex = r.create("Dog", {"name": "Rex", "age": 3, "scores": [1, 2]})
    frozen_realm = r.freeze()
    frozen_rex = rex.freeze()
    frozen_dogs = r.objects("Dog").filter("age > 1").freeze()
    frozen_scores = rex.scores.freeze()
    assert frozen_realm.is_frozen and frozen_rex.is_frozen and frozen_dogs.is_frozen and frozen_scores.is_frozen
    assert not (r.is_frozen or rex.is_frozen)
    with r.write():
        rex.age = 9
        rex.scores.append(3)
        r.create("Dog", {"name": "Fido", "age": 5})
    assert frozen_rex.age == 3 and list(frozen_scores) == [1, 2] and len(frozen_dogs) == 1
    assert len(frozen_realm.objects("Dog")) == 1 and len(r.objects("Dog")) == 2
    assert frozen_dogs[0].is_frozen, "objects read from frozen results are frozen"
    with pytest.raises(realmdb.LogicError):
        frozen_realm.begin_write()
    with pytest.raises(realmdb.LogicError):
        frozen_dogs.observe(lambda res, c: None)
    with pytest.raises(realmdb.LogicError):
        frozen_rex.observe(lambda c: None)
    with pytest.raises(realmdb.RealmError):
        frozen_rex.age = 1
    assert frozen_rex.thaw().age == 9
    assert len(frozen_dogs.thaw()) == 2
    assert frozen_realm.thaw() is r
    with r.write():
        r.delete(rex)
    assert frozen_rex.thaw() is None
    assert frozen_scores.thaw() is None
    assert frozen_rex.name == "Rex", "still readable frozen"
    with r.write():
        with pytest.raises(realmdb.WrongTransactionStateError):
            r.freeze()
    frozen_realm.close()
    r.close()


def test_frozen_views_are_read_from_other_threads_while_writes_go_on(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    with r.write():
        r.create_many("Dog", [{"name": f"d{i}", "age": i} for i in range(50)])
    frozen = r.objects("Dog").filter("age >= 10").freeze()
    first = r.objects("Dog")[0].freeze()
    errors = []

    def reader():
        for _ in range(200):
            if len(frozen) != 40 or first.name != "d0":
                errors.append((len(frozen), first.name))

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(100):
        with r.write():
            r.create("Dog", {"name": f"n{i}", "age": 20})
            r.objects("Dog")[0].name = f"changed{i}"
    for t in threads:
        t.join()
    assert errors == []
    assert len(r.objects("Dog").filter("age >= 10")) == 140
    r.close()


def test_a_frozen_realm_is_looked_up_from_several_threads_at_once(tmp_realm_path):
    """Lookups by primary key and first reads of the objects found, from four threads in one
    frozen realm: each thread sees its own objects (ctypes lets go of the GIL during a call, so
    memory a lookup answers in must be the call's own)."""
    schema = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "name": "string"}}]
    r = realmdb.open(tmp_realm_path, schema)
    with r.write():
        r.create_many("Person", [{"id": i, "name": f"person {i}" * (1 + i % 90)} for i in range(400)])
    frozen = r.freeze()
    wrong = []

    def look_up(start):
        try:
            for _ in range(20):
                for i in range(start, 400, 4):
                    person = frozen.object_for_primary_key("Person", i)
                    if person is None or person.id != i or person.name != f"person {i}" * (1 + i % 90):
                        wrong.append(i)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            wrong.append(repr(error))

    threads = [threading.Thread(target=look_up, args=(start,)) for start in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
    frozen.close()
    r.close()


def test_the_version_limit(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA, max_active_versions=3)
    views = []
    for i in range(3):
        with r.write():
            r.create("Dog", {"name": f"d{i}", "age": i})
        views.append(r.freeze())
    assert r.active_versions == 3
    with pytest.raises(realmdb.TooManyActiveVersionsError):
        r.begin_write()
    for v in views:
        v.close()
    with r.write():
        r.create("Dog", {"name": "after", "age": 1})
    r.close()


def test_the_file_grows_only_while_a_frozen_view_is_held(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, SCHEMA)
    with r.write():
        r.create_many("Dog", [{"name": f"d{i}", "age": i} for i in range(3000)])
    dogs = r.objects("Dog")

    def rewrite(commits):
        for c in range(commits):
            with r.write():
                dogs.set_values("age", [c] * len(dogs))

    held = r.freeze()
    start = os.path.getsize(tmp_realm_path)
    rewrite(150)
    while_held = os.path.getsize(tmp_realm_path) - start
    held.close()
    rewrite(20)  # LMDB reclaims what the view pinned
    released = os.path.getsize(tmp_realm_path)
    rewrite(150)
    after = os.path.getsize(tmp_realm_path) - released
    assert while_held > 0
    assert after < max(while_held // 4, 1), (while_held, after)
    r.close()
