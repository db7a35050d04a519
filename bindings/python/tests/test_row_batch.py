"""Rows read a property at a time for a whole batch of an iteration (``realmdb/_row_batch.py``):
a loop reads only the properties it uses, one call per property per batch, and every value it
reads is the value stored, whatever it writes or deletes on the way, on any thread."""
from __future__ import annotations

import threading
from typing import List

import pytest

from realmdb import _row_batch

N = 2500  # three batches: 64, then 1024 at a time


@pytest.fixture
def many(realm, make_person):
    with realm.write():
        realm.create_many("Person", [make_person(i) for i in range(N)])
    return realm


@pytest.fixture
def column_reads(monkeypatch) -> List[int]:
    """The property keys the row batches read, one entry per call."""
    reads: List[int] = []
    real = _row_batch._get_values_into

    def counting(results_h, property_key, *rest):
        reads.append(property_key)
        return real(results_h, property_key, *rest)
    monkeypatch.setattr(_row_batch, "_get_values_into", counting)
    return reads


def test_a_loop_reads_only_the_properties_it_uses(many, column_reads):
    meta = many._meta("Person")
    total = 0
    for person in many.objects("Person").sorted("id"):
        total += person.score
    assert total == sum(i * 1.5 for i in range(N))
    # The first property (which also proves the objects exist) and score, once per batch.
    assert set(column_reads) == {meta.key_of[meta.row_names[0]], meta.key_of["score"]}
    assert len(column_reads) == 2 * 4  # batches of 64, 1024, 1024, 388


def test_a_property_first_read_in_a_later_batch_is_read_then(many, column_reads):
    seen = []
    for i, person in enumerate(many.objects("Person").sorted("id")):
        seen.append((person.id, person.name if i >= 1500 else None, person.city if i % 700 == 0 else None))
    assert seen == [(i, f"name{i}" if i >= 1500 else None, f"city{i % 3}" if i % 700 == 0 else None) for i in range(N)]
    meta = many._meta("Person")
    # city was read for a few objects of each batch, but once per batch: never once per object.
    assert column_reads.count(meta.key_of["city"]) <= 4
    assert column_reads.count(meta.key_of["name"]) <= 3


def test_plain_writes_then_a_first_read_of_another_property(many):
    with many.write():
        for i, person in enumerate(many.objects("Person").sorted("id")):
            person.score = person.score + 1
            if i >= 30:
                assert person.name == f"name{i}"  # read for the batch after the batch's writes
                assert person.score == i * 1.5 + 1
    assert [p.score for p in many.objects("Person").sorted("id")][:3] == [1.0, 2.5, 4.0]


def test_deleting_ahead_then_reading_new_properties(many):
    names = []
    with many.write():
        for i, person in enumerate(many.objects("Person").sorted("id")):
            if i == 10:
                many.delete(many.object_for_primary_key("Person", 20))
                many.delete(many.object_for_primary_key("Person", 1200))
            names.append((person.id, person.city))
    ids = [i for i in range(N) if i not in (20, 1200)]
    assert names == [(i, f"city{i % 3}") for i in ids]


def test_threads_iterate_their_own_realms_at_once(many, tmp_realm_path, person_schema):
    import realmdb
    many.close()
    failures = []

    def walk():
        try:
            with realmdb.open(tmp_realm_path, person_schema) as realm:
                for _ in range(3):
                    got = [(p.id, p.name, p.age) for p in realm.objects("Person").sorted("id")]
                    if got != [(i, f"name{i}", 20 + i) for i in range(N)]:
                        failures.append("wrong values")
        except Exception as error:  # noqa: BLE001  (reported below)
            failures.append(repr(error))
    threads = [threading.Thread(target=walk) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_objects_kept_after_the_loop_keep_their_rows_not_their_batches(many, column_reads):
    kept = [person for person in many.objects("Person").sorted("id") if person.id % 1000 == 5]
    assert [p.id for p in kept] == [5, 1005, 2005]
    # Each batch held 64 or 1024 rows during the loop; after it, only the rows of objects still
    # held when the loop moved on: the kept one, and the batch's last (the loop variable's then).
    for person in kept:
        rows = person._batch.rows
        assert len(rows) <= 2 and any(row is person._row for row in rows)
    column_reads.clear()
    assert [p.name for p in kept] == ["name5", "name1005", "name2005"]  # read after the loop
    assert len(column_reads) == 3  # once per batch, for the one row each keeps


def test_a_list_of_every_object_reads_a_property_once_per_batch(many, column_reads):
    everyone = list(many.objects("Person").sorted("id"))
    column_reads.clear()
    assert [p.city for p in everyone] == [f"city{i % 3}" for i in range(N)]
    assert len(column_reads) == 4  # batches of 64, 1024, 1024, 388: not one call per object


def test_a_loop_that_keeps_no_object_allocates_no_row_after_its_first_batch(realm, make_person):
    """The rows of a batch no object holds are emptied and used again by the next batch: row
    lists kept while their batch lasts would make the garbage collector run (and traverse them)
    every few hundred objects."""
    import gc
    with realm.write():
        realm.create_many("Person", [make_person(i) for i in range(20_000)])
    people = realm.objects("Person").sorted("id")
    ages = 0
    before = gc.get_stats()[0]["collections"]
    for person in people:
        ages += person.age
    collections = gc.get_stats()[0]["collections"] - before
    assert ages == sum(20 + i for i in range(20_000))
    assert collections <= 3, collections  # a new row per object: 18 collections


def test_breaking_out_of_a_loop_releases_the_batch(many):
    for person in many.objects("Person").sorted("id"):
        if person.id == 3:
            found = person
            break
    del person
    import gc
    gc.collect()
    assert found._batch.rows == [found._row]
    assert found.name == "name3"
