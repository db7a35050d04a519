"""Attribute reads through the per-class descriptors of ``realmdb/_properties.py``: an object keeps
the values it read until its realm's change counter moves, so every way the values can change
must show through at once: a write through another accessor or a batch call, a cancel, a failed
savepoint, a delete, a commit elsewhere seen by refresh or by the event loop, a close; and a
frozen object keeps its values while the live one moves on."""
from __future__ import annotations

import json
import threading

import pytest

import realmdb


@pytest.fixture
def ann(realm, make_person):
    with realm.write():
        person = realm.create("Person", make_person(1, age=30))
    assert person.age == 30  # read (and cached) before every scenario
    return person


def test_objects_are_instances_of_their_class_type(realm, ann):
    assert isinstance(ann, realmdb.RealmObject)
    assert type(ann).__name__ == "Person"
    assert type(realm.objects("Person")[0]) is type(ann)  # one type per class of a realm


def test_a_write_through_another_accessor_shows_at_once(realm, ann):
    other = realm.object_for_primary_key("Person", 1)
    with realm.write():
        other.age = 31
        assert ann.age == 31  # inside the write
    assert ann.age == 31


def test_a_batch_write_shows_at_once(realm, ann):
    with realm.write():
        realm.objects("Person").set_values("age", [40])
    assert ann.age == 40
    assert ann["age"] == 40


def test_cancel_restores_what_the_object_read_before(realm, ann):
    realm.begin_write()
    ann.age = 50
    assert ann.age == 50
    realm.cancel_write()
    assert ann.age == 30


def test_a_failed_create_in_a_write_leaves_no_stale_value(realm, ann, make_person):
    with realm.write():
        ann.age = 60
        with pytest.raises(realmdb.DuplicatePrimaryKeyError):
            realm.create("Person", make_person(1))
        assert ann.age == 60
    assert ann.age == 60


def test_a_deleted_object_raises_instead_of_answering_from_its_cache(realm, ann):
    other = realm.object_for_primary_key("Person", 1)
    with realm.write():
        realm.delete(other)
        with pytest.raises(realmdb.InvalidatedError):
            ann.age


# -- objects without handles: read and written by their keys ----------------------------------------

def test_a_primary_key_lookup_reads_and_writes_without_a_handle(realm, ann):
    found = realm.object_for_primary_key("Person", 1)
    assert found.name == ann.name and found.age == 30
    with realm.write():
        found.age = 33
    assert found.age == 33 and ann.age == 33
    assert found._ptr is None  # nothing above needed a handle (db_object_*_by_key)
    assert found == ann and hash(found) == hash(ann) and found in realm.objects("Person")
    assert found.is_valid and found.to_dict()["age"] == 33  # uses that need a handle get one


def test_lookups_whose_objects_are_read_read_the_row_with_the_key(realm, make_person):
    long_name = "n" * 3000 + "\u00e9"  # longer than the lookup's buffer for strings: borrowed
    with realm.write():
        for i in range(1, 41):
            realm.create("Person", make_person(i, name=long_name if i == 7 else f"p{i}", age=i))
    meta = realm._meta("Person")
    assert not meta.lookup_reads
    first = realm.object_for_primary_key("Person", 1)
    assert first._stamp == -1 and first.age == 1  # read by key at its first read ...
    assert meta.lookup_reads  # ... which makes the next lookups read the row
    preread = 0
    for i in range(2, 41):
        person = realm.object_for_primary_key("Person", i)
        preread += person._stamp == realm._counter.value
        assert (person.id, person.name, person.age) == (i, long_name if i == 7 else f"p{i}", i)
    assert preread >= 30 and meta.lookup_reads
    assert realm.object_for_primary_key("Person", 99) is None
    with pytest.raises(realmdb.WrongTypeError):
        realm.object_for_primary_key("Person", "one")
    with realm.write():
        realm.object_for_primary_key("Person", 3).age = 300
        assert realm.object_for_primary_key("Person", 3).age == 300  # read inside the write
        realm.delete(realm.object_for_primary_key("Person", 4))
        assert realm.object_for_primary_key("Person", 4) is None
    assert realm.object_for_primary_key("Person", 3).age == 300


def test_lookups_whose_objects_are_not_read_stop_reading_the_row(realm, make_person):
    with realm.write():
        for i in range(1, 41):
            realm.create("Person", make_person(i, age=i))
    meta = realm._meta("Person")
    assert realm.object_for_primary_key("Person", 1).age == 1
    assert meta.lookup_reads
    found = [realm.object_for_primary_key("Person", i) for i in range(1, 41)]  # kept, not read
    assert not meta.lookup_reads  # one in 16 lookups went without the row and was not read
    assert [p.age for p in found] == list(range(1, 41))


def test_a_created_object_has_no_handle_and_an_upsert_gives_the_existing_object(realm, ann, make_person):
    with realm.write():
        made = realm.create("Person", make_person(2, age=20))
        assert made._ptr is None and made.age == 20
        made.age = 21
        same = realm.create("Person", {"id": 2, "age": 22}, update="modified")
        assert same._ptr is None and made.age == 22 and same == made
        with pytest.raises(realmdb.DuplicatePrimaryKeyError) as error:
            realm.create("Person", make_person(2))
        assert not str(error.value).startswith("row")  # one object: no row number in the message
    assert realm.object_for_primary_key("Person", 2).age == 22


def test_an_object_without_a_handle_fails_as_one_with_a_handle(realm, ann, make_person):
    found = realm.object_for_primary_key("Person", 1)
    with realm.write():
        realm.delete(ann)
        with pytest.raises(realmdb.InvalidatedError):
            found.age
        with pytest.raises(realmdb.InvalidatedError):
            found.age = 3
        realm.create("Person", make_person(1))  # the same primary key: another object, another key
        with pytest.raises(realmdb.InvalidatedError):
            found.age
    assert not found.is_valid
    again = realm.object_for_primary_key("Person", 1)
    with pytest.raises(realmdb.WrongTransactionStateError):
        again.age = 4
    with realm.write():
        with pytest.raises(realmdb.WrongTypeError):
            again.age = "old"
        with pytest.raises(realmdb.LogicError):
            again.id = 9  # a primary key is not changed
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        again.name


def test_a_loop_that_writes_reads_each_row_by_key_and_skips_objects_deleted_ahead(realm, make_person):
    with realm.write():
        realm.create_many("Person", [make_person(i, age=i) for i in range(300)])
    seen = []
    with realm.write():
        for person in realm.objects("Person").sorted("id"):
            seen.append(person.id)
            person.age = person.age + 1000
            if person.id == 100:
                realm.delete(realm.object_for_primary_key("Person", 200))
            assert person._ptr is None
    assert seen == [i for i in range(300) if i != 200]
    assert realm.objects("Person").sorted("id").values("age") == [i + 1000 for i in range(300) if i != 200]
    it = iter(realm.objects("Person"))
    with realm.write():
        next(it).age = 1  # the loop body writes: the next objects are read by key
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        next(it)


def test_a_handle_is_released_once_when_its_object_goes_and_objects_without_one_release_nothing(
        realm, ann, monkeypatch):
    import gc
    from realmdb import object as object_module
    released = []
    real_lib = object_module.lib
    real_release = real_lib.db_object_release

    class Counting:
        def __getattr__(self, name):
            return getattr(real_lib, name)

        def db_object_release(self, ptr):
            released.append(ptr)
            real_release(ptr)
    monkeypatch.setattr(object_module, "lib", Counting())
    looked_up = realm.object_for_primary_key("Person", 1)
    assert looked_up.age == 30
    del looked_up
    gc.collect()
    assert released == []  # no handle was made, none released
    with_handle = realm.objects("Person")[0]  # indexing makes a handle
    assert with_handle._ptr is not None
    del with_handle
    gc.collect()
    assert len(released) == 1
    resolved = realm.object_for_primary_key("Person", 1)
    assert resolved.is_valid  # needs a handle: made from the key
    realm.close()
    assert not resolved.is_valid
    del resolved
    gc.collect()
    assert len(released) == 2  # released once, when the object went


def test_a_commit_elsewhere_shows_after_refresh_not_before(realm, ann, tmp_realm_path, person_schema):
    def write_elsewhere():
        with realmdb.open(tmp_realm_path, person_schema) as writer, writer.write():
            writer.object_for_primary_key("Person", 1).age = 70

    thread = threading.Thread(target=write_elsewhere)
    thread.start()
    thread.join()
    assert ann.age == 30  # this realm still reads its version
    realm.refresh()
    assert ann.age == 70


def test_a_commit_from_another_process_shows_after_refresh(realm, ann, run_python, tmp_realm_path, person_schema):
    people = list(realm.objects("Person"))  # read ahead by the iteration: cached rows too
    assert people[0].age == 30
    result = run_python(f"""
        import realmdb
        with realmdb.open({tmp_realm_path!r}, {person_schema!r}) as other, other.write():
            other.object_for_primary_key("Person", 1).age = 90
            other.object_for_primary_key("Person", 1).name = "Ann\\0B"
    """)
    assert result.returncode == 0, result.stderr
    assert (ann.age, people[0].age) == (30, 30)
    realm.refresh()
    assert (ann.age, people[0].age, ann.name) == (90, 90, "Ann\0B")


def test_a_closed_realm_answers_with_an_error_not_a_cached_value(realm, ann):
    name = ann.name
    assert name
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        ann.age
    with pytest.raises(realmdb.ClosedRealmError):
        ann["name"]


def test_a_frozen_object_keeps_its_values(realm, ann):
    frozen = ann.freeze()
    assert frozen.age == 30
    with realm.write():
        ann.age = 80
    assert (ann.age, frozen.age) == (80, 30)


# Numbers written to objects known by their key go through one db_property_writer_t per property
# of the realm (three ctypes arguments a write instead of five): the same answers and the same
# refusals as any other write.


def test_number_writes_share_one_writer_per_property_and_read_back(realm, make_person):
    with realm.write():
        people = [realm.create("Person", make_person(i, age=i)) for i in range(3)]
    with realm.write():
        for person in people:
            person.score = person.score + 0.5
            person.age = person.age + 10
            person.age = -0x8000000000000000 if person.id == 2 else person.age
    assert len(realm._writers) == 2 and all(realm._writers.values())  # score and age: once each
    scores = [make_person(i)["score"] + 0.5 for i in range(3)]
    assert [(p.age, p.score) for p in people] == [(10, scores[0]), (11, scores[1]), (-0x8000000000000000, scores[2])]
    fresh = realm.objects("Person").sorted("id")  # read again through the library
    assert [(p.age, p.score) for p in fresh] == [(p.age, p.score) for p in people]


def test_a_number_write_is_refused_as_any_write_is(realm, ann):
    with realm.write():
        ann.score = 1.5  # makes the writer of score
    with pytest.raises(realmdb.WrongTransactionStateError):
        ann.score = 2.5  # outside a write
    frozen = ann.freeze()
    with realm.write():
        with pytest.raises(realmdb.LogicError, match="frozen"):
            frozen.score = 3.5  # the frozen realm's object: never the live realm's writer
        with pytest.raises(OverflowError):
            ann.age = 1 << 64
        errors = []
        thread = threading.Thread(target=lambda: errors.append(_raised(lambda: setattr(ann, "score", 4.5))))
        thread.start()
        thread.join()
        assert errors == [realmdb.WrongThreadError]
    assert (ann.score, ann.age, frozen.score) == (1.5, 30, 1.5)
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        ann.score = 5.5


def test_a_cancelled_number_write_is_undone_in_the_object_too(realm, ann):
    realm.begin_write()
    ann.age = 31
    ann.score = 9.5
    assert (ann.age, ann.score) == (31, 9.5)
    realm.cancel_write()
    assert ann.age == 30 and ann.score != 9.5


def test_writers_go_with_their_realm(tmp_realm_path, person_schema, make_person, run_python):
    # A realm dropped without close releases its writers (and readers) with its handle; a new
    # realm of the file makes its own.
    result = run_python(f"""
        import gc, realmdb
        for round in range(3):
            realm = realmdb.open({tmp_realm_path!r}, {person_schema!r})
            with realm.write():
                person = realm.create("Person", {make_person(1)!r}, update="modified")
                person.age = round
            assert realm.object_for_primary_key("Person", 1).name  # a lookup and a first read
            assert len(realm._writers) == 1 and len(realm._readers) == 1
            del realm, person
            gc.collect()
        realm = realmdb.open({tmp_realm_path!r}, {person_schema!r})
        print(realm.object_for_primary_key("Person", 1).age)
        realm.close()
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"


def _raised(body):
    try:
        body()
    except Exception as error:  # noqa: BLE001 - the test compares the type
        return type(error)
    return None


def test_links_read_from_the_row_are_objects(tmp_realm_path):
    schema = [{"name": "Dog", "properties": {"name": "string"}},
              {"name": "Person", "properties": {"name": "string", "dog": "Dog?", "anything": "mixed"}}]
    with realmdb.open(tmp_realm_path, schema) as realm:
        with realm.write():
            rex = realm.create("Dog", {"name": "Rex"})
            person = realm.create("Person", {"name": "Ann", "dog": rex, "anything": rex})
        assert person.dog.name == "Rex" and person.anything.name == "Rex"
        with realm.write():
            person.dog = None
            person.anything = 5
        assert person.dog is None and person.anything == 5


def test_a_callback_on_the_event_loop_reads_the_new_values(run_python, tmp_realm_path, person_schema):
    # As the README teaches notifications: attach_loop, a commit from another thread, and a
    # callback that reads an object it read before (its cached values must not be served).
    result = run_python(f"""
        import asyncio, json, threading, realmdb
        schema = {person_schema!r}
        async def main():
            realm = realmdb.open({tmp_realm_path!r}, schema)
            realm.attach_loop()
            with realm.write():
                ann = realm.create("Person", {{"id": 1, "name": "Ann", "age": 30, "score": 1.0, "city": "x"}})
            seen, done = [], asyncio.Event()
            def changed(change):
                seen.append(ann.age)
                done.set()
            token = ann.observe(changed)
            assert ann.age == 30
            def write():
                with realmdb.open({tmp_realm_path!r}, schema) as other, other.write():
                    other.object_for_primary_key("Person", 1).age = 31
            threading.Thread(target=write).start()
            await asyncio.wait_for(done.wait(), 10)
            token.invalidate()
            realm.close()
            print(json.dumps(seen))
        asyncio.run(main())
    """)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [31]


def test_an_object_known_by_its_key_links_to_itself(tmp_realm_path):
    # Packing the link gives the object a handle, after which it no longer holds its key: the
    # write must use the key it had (a crash found by the Python API fuzzer).
    schema = [{"name": "Node", "primary_key": "id", "properties": {"id": "int", "next": "Node?", "n": "int"}}]
    with realmdb.open(tmp_realm_path, schema) as realm:
        with realm.write():
            realm.create("Node", {"id": 1, "n": 0})
        node = realm.object_for_primary_key("Node", 1)
        with realm.write():
            node.next = node
            node["next"] = node
            node.n = 5
        again = realm.object_for_primary_key("Node", 1)
        assert again.next.id == 1 and again.n == 5 and node.next == node
