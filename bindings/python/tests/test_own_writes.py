"""Rows that stay current across the binding's own plain writes (``realmdb/_own_writes.py``): a loop
that reads and writes one object at a time keeps the rows it read ahead, yet every value it reads
is the value stored, whatever else the loop body writes, to which object, through which accessor."""
from __future__ import annotations

import pytest

import realmdb
from realmdb import _own_writes
from realmdb.object import RealmObject


@pytest.fixture
def hundred(realm, make_person):
    with realm.write():
        realm.create_many("Person", [make_person(i, age=i) for i in range(100)])
    return realm


@pytest.fixture
def loads(monkeypatch):
    """The objects whose rows are read alone, by key, while the test runs."""
    counted = []
    real = RealmObject._load_by_key

    def counting(self, index, stamp):
        counted.append(self._key)
        return real(self, index, stamp)
    monkeypatch.setattr(RealmObject, "_load_by_key", counting)
    return counted


def test_a_loop_of_plain_writes_reads_no_row_twice(hundred, loads):
    with hundred.write():
        for person in hundred.objects("Person"):
            person.score = person.score + 1
            person.name = person.name + "!"
            assert person.score == person.id * 1.5 + 1  # its own row, kept current by the write
    assert loads == []  # every row came from the batches read ahead
    everyone = hundred.objects("Person").sorted("id")
    assert everyone.values("score") == [i * 1.5 + 1 for i in range(100)]
    assert everyone.values("name") == [f"name{i}!" for i in range(100)]


def test_plain_writes_to_two_classes_with_the_same_keys_keep_each_row_right(realm, make_person, loads):
    """A run records the objects of its first class by key alone: an object of another class
    with the same key is another object, whose row a write to the first leaves current."""
    with realm.write():
        realm.create_many("Person", [make_person(i, age=i) for i in range(5)])
        realm.create_many("Note", [{"text": f"t{i}", "stars": i} for i in range(5)])
    with realm.write():
        person = realm.object_for_primary_key("Person", 0)
        note = realm.objects("Note").filter("stars == 0")[0:1][0]  # a slice's objects: known by key
        assert person._key is not None and person._key == note._key  # the same key in both classes
        assert person._ptr is None and note._ptr is None  # written by key: their writes are plain
        assert person.age == 0 and note.stars == 0
        loads.clear()
        person.age = 5
        assert note.stars == 0 and loads == []  # not written: its row is still current
        again = realm.objects("Note").filter("stars == 0")[0:1][0]
        assert again.stars == 0  # a second accessor of the note, its row read now
        note.stars = 7  # the run goes on, with an object of another class
        assert note.stars == 7 and person.age == 5 and note.text == "t0"
        assert again.stars == 7  # written through the other accessor: its row is stale
        for other in realm.objects("Note").filter("stars != 7"):
            assert other.stars == int(other.text[1:])
    assert realm.objects("Note").filter("stars == 7")[0].text == "t0"
    assert realm.objects("Person").sorted("id").values("age") == [5, 1, 2, 3, 4]


def test_a_write_to_an_object_ahead_shows_when_the_loop_reaches_it(hundred, loads):
    seen = {}
    with hundred.write():
        for person in hundred.objects("Person").sorted("id"):
            seen[person.id] = person.age
            if person.id == 10:
                hundred.object_for_primary_key("Person", 50).age = 1000  # another accessor
                hundred.object_for_primary_key("Person", 60).age = None
    assert seen[50] == 1000 and seen[60] is None
    assert all(seen[i] == i for i in range(100) if i not in (50, 60))


def test_a_write_through_a_second_accessor_shows_through_the_first(hundred):
    first = hundred.object_for_primary_key("Person", 7)
    second = hundred.object_for_primary_key("Person", 7)
    assert first.age == 7 and second.age == 7
    with hundred.write():
        second.age = 70
        assert first.age == 70
        first.age = 71
        assert second.age == 71


def test_a_value_that_reads_back_otherwise_is_read_back(hundred):
    person = hundred.object_for_primary_key("Person", 3)
    with hundred.write():
        assert person.score == 4.5  # its row is read: the writes below keep it current
        person.score = 2  # an int to a double property: stored, and read back, as 2.0
        assert person.score == 2.0 and type(person.score) is float
        person.name = "a\x00b\u00e9"  # a NUL and a character beyond ASCII
        assert person.name == "a\x00b\u00e9"
    assert hundred.object_for_primary_key("Person", 3).name == "a\x00b\u00e9"
    assert type(hundred.object_for_primary_key("Person", 3).score) is float


def test_a_failed_write_leaves_the_rows_as_they_were(hundred):
    person = hundred.object_for_primary_key("Person", 4)
    other = hundred.object_for_primary_key("Person", 5)
    assert other.age == 5
    with hundred.write():
        person.age = 40
        with pytest.raises(realmdb.RealmError):
            person.name = None  # a required property
        with pytest.raises(OverflowError):
            person.age = 2 ** 70
        assert person.name == "name4" and person.age == 40 and other.age == 5


def test_any_other_write_makes_the_rows_read_ahead_stale(tmp_realm_path):
    schema = [{"name": "Item", "primary_key": "id",
               "properties": {"id": "int", "n": "int", "next": "Item?", "tags": "string[]"}}]
    realm = realmdb.open(tmp_realm_path, schema)
    try:
        with realm.write():
            realm.create_many("Item", [{"id": i, "n": i} for i in range(200)])
        with realm.write():
            for item in realm.objects("Item").sorted("id"):
                if item.id == 5:
                    # A link and a collection are not plain writes: they end the run, and every row
                    # read before them is read again.
                    realm.object_for_primary_key("Item", 150).next = item
                    item.tags = ["x"]
                    realm.object_for_primary_key("Item", 160).n = -1
                if item.id == 150:
                    assert item.next is not None and item.next.id == 5
                if item.id == 160:
                    assert item.n == -1
                item.n = item.n + 1
        assert realm.objects("Item").sorted("id").values("n") == [i + 1 if i != 160 else 0 for i in range(200)]
    finally:
        realm.close()


def test_setting_a_link_to_null_deletes_the_embedded_object_it_held(tmp_realm_path):
    schema = [{"name": "Address", "embedded": True, "properties": {"street": "string"}},
              {"name": "Home", "primary_key": "id", "properties": {"id": "int", "n": "int", "address": "Address?"}}]
    realm = realmdb.open(tmp_realm_path, schema)
    try:
        with realm.write():
            realm.create("Home", {"id": 1, "n": 0, "address": {"street": "Main"}})
        home = realm.object_for_primary_key("Home", 1)  # known by its key: written by key
        address = home.address
        assert address.street == "Main"
        with realm.write():
            home.n = 1  # a plain write: the address's row stays current
            assert address.street == "Main"
            home.address = None  # not a plain write: the embedded object is deleted
            with pytest.raises(realmdb.InvalidatedError):
                address.street
    finally:
        realm.close()


def test_a_run_longer_than_its_limit_starts_again_and_stays_right(hundred, loads, monkeypatch):
    monkeypatch.setattr(_own_writes, "RUN_LIMIT", 7)
    with hundred.write():
        for person in hundred.objects("Person").sorted("id"):
            person.age = person.age * 2
            ahead = hundred.object_for_primary_key("Person", (person.id + 3) % 100)
            ahead.score = -1.0
            assert person.score == (-1.0 if person.id >= 3 else person.id * 1.5)
    assert loads  # rows read before each new run are read again
    assert hundred.objects("Person").sorted("id").values("age") == [2 * i for i in range(100)]


def test_cancel_and_refresh_end_the_run(hundred):
    person = hundred.object_for_primary_key("Person", 8)
    other = hundred.object_for_primary_key("Person", 9)
    assert other.age == 9
    hundred.begin_write()
    person.age = 80
    other_again = hundred.object_for_primary_key("Person", 9)
    other_again.age = 90
    hundred.cancel_write()
    assert person.age == 8 and other.age == 9
