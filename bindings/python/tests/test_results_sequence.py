"""Results as a collections.abc.Sequence: len, indexing, slicing, iteration, reversed, in, index, count,
each checked against a list of the same objects (and for the results of a list holding an object twice)."""
from __future__ import annotations

import collections.abc

import pytest

import realmdb


@pytest.fixture
def people(realm, make_person):
    with realm.write():
        for i in range(7):
            realm.create("Person", make_person(i, age=30 - i))
    return realm.objects("Person").sorted("age")  # ids 6, 5, ..., 0


def ids(objects) -> list:
    return [o.id for o in objects]


def test_results_are_a_registered_sequence(people):
    assert isinstance(people, collections.abc.Sequence)
    assert issubclass(realmdb.Results, collections.abc.Sequence)
    assert not isinstance(people, collections.abc.MutableSequence)


def test_len_indexing_and_slicing_match_a_list(people):
    expected = [6, 5, 4, 3, 2, 1, 0]
    assert len(people) == len(expected)
    for i in range(-len(expected), len(expected)):
        assert people[i].id == expected[i]
    for bad in (7, -8, 2**64):
        with pytest.raises(IndexError):
            people[bad]
    for s in (slice(None), slice(2, 5), slice(None, None, -1), slice(5, 1, -2), slice(-3, None), slice(10, 20),
              slice(None, None, 3)):
        got = people[s]
        assert isinstance(got, list) and ids(got) == expected[s], s


def test_iteration_reversed_and_in(people):
    assert ids(people) == [6, 5, 4, 3, 2, 1, 0]
    assert ids(reversed(people)) == [0, 1, 2, 3, 4, 5, 6]
    first = people[0]
    assert first in people and "6" not in people and None not in people
    assert first not in people.filter("id != 6")


def test_reversed_walks_a_snapshot(people, realm):
    seen = []
    with realm.write():
        for person in reversed(people):
            seen.append(person.id)
            realm.delete(person)
    assert seen == [0, 1, 2, 3, 4, 5, 6] and len(people) == 0


def test_index_and_count_as_a_sequence(people):
    objects = list(people)
    for i, obj in enumerate(objects):
        assert people.index(obj) == i
        assert people.count(obj) == 1
    assert people.count() == len(people) == 7  # no argument: the number of objects
    assert people.index(objects[3], 2) == 3 and people.index(objects[3], 3, 4) == 3
    assert people.index(objects[3], -5) == 3
    for args in ((4,), (0, 3), (-2,), (10,)):
        with pytest.raises(ValueError):
            people.index(objects[3], *args)
    other = people.filter("id < 3")
    with pytest.raises(ValueError):
        other.index(objects[0])
    assert other.count(objects[0]) == 0 and people.count("x") == 0 and people.count(None) == 0


@pytest.fixture
def owner(tmp_realm_path):
    schema = [{"name": "Dog", "primary_key": "id", "properties": {"id": "int"}},
              {"name": "Owner", "properties": {"dogs": "Dog[]"}}]
    with realmdb.open(tmp_realm_path, schema) as realm:
        with realm.write():
            rex, bo = realm.create("Dog", {"id": 1}), realm.create("Dog", {"id": 2})
            yield realm.create("Owner", {"dogs": [rex, bo, rex, rex, bo]})


def test_index_and_count_with_repeated_objects(owner):
    dogs = owner.dogs.filter("TRUEPREDICATE")
    expected = list(owner.dogs)
    rex, bo = expected[0], expected[1]
    assert ids(dogs) == [1, 2, 1, 1, 2] == ids(expected)
    assert dogs.count(rex) == expected.count(rex) == 3 and dogs.count(bo) == 2
    assert [dogs.index(rex, i) for i in range(4)] == [expected.index(rex, i) for i in range(4)] == [0, 2, 2, 3]
    assert dogs.index(bo, 2) == 4 and dogs.index(rex, 1, 3) == 2
    with pytest.raises(ValueError):
        dogs.index(rex, 4)
    with pytest.raises(ValueError):
        dogs.index(bo, 2, 4)
    assert ids(reversed(dogs)) == [2, 1, 1, 2, 1]


# Iteration reads each batch's rows ahead (Results._objects_with_rows): what the loop body changes
# must still show in the objects it reaches later, and a deleted object must be skipped.

@pytest.fixture
def many(realm, make_person):
    with realm.write():
        for i in range(300):  # more than the first batch (64) and into the second
            realm.create("Person", make_person(i, age=i % 90, name=f"p{i}"))
    return realm.objects("Person").sorted("id")


def test_iteration_reads_rows_as_each_object_reads_them(many):
    assert [(p.id, p.name, p.age) for p in many] == [(i, f"p{i}", i % 90) for i in range(300)]


def test_a_later_object_changed_by_the_loop_body_shows_its_new_value(realm, many):
    seen = []
    with realm.write():
        for person in many:
            seen.append(person.age)
            if person.id % 10 == 0 and person.id + 1 < 300:  # change the next one, read ahead already
                realm.object_for_primary_key("Person", person.id + 1).age = 99
    assert seen == [99 if i % 10 == 1 else i % 90 for i in range(300)]


def test_objects_deleted_by_the_loop_body_are_skipped(realm, many):
    seen = []
    with realm.write():
        for person in many:
            seen.append(person.id)
            if person.id in (10, 100, 200):  # within the first and the second batch
                realm.delete(realm.object_for_primary_key("Person", person.id + 5))
    assert seen == [i for i in range(300) if i not in (15, 105, 205)]


def test_objects_deleted_before_their_batch_is_read_are_skipped(realm, many):
    snapshot = many.snapshot()
    with realm.write():
        for i in (70, 71, 299):  # in the second batch: its rows cannot all be read
            realm.delete(realm.object_for_primary_key("Person", i))
    assert [p.name for p in snapshot] == [f"p{i}" for i in range(300) if i not in (70, 71, 299)]


# An iteration that only reads makes no handle for its objects (RealmObject._unresolved): every
# use that needs one must still work, and a deleted or closed object must still say so.

def test_objects_from_an_iteration_work_as_any_other(realm, many):
    first, second = list(many)[:2]
    again = realm.object_for_primary_key("Person", 0)
    assert first == again and hash(first) == hash(again) and first != second
    assert first.is_valid and "Person" in repr(first)
    frozen = first.freeze()
    with realm.write():
        first.age = 77  # a write through an object made from a key
        realm.create("Note", {"text": "t", "stars": 1})
    assert (again.age, frozen.age) == (77, 0)
    assert first.to_dict()["age"] == 77


def test_an_object_from_an_iteration_deleted_later_is_invalid(realm, many):
    objects = list(many)
    with realm.write():
        realm.delete(realm.object_for_primary_key("Person", 5))
    assert not objects[5].is_valid
    with pytest.raises(realmdb.InvalidatedError):
        objects[5].age
    with pytest.raises(realmdb.InvalidatedError):
        objects[5].freeze()
    assert objects[6].age == 6


def test_objects_from_an_iteration_of_a_closed_realm_raise(realm, many):
    objects = list(many)
    realm.close()
    assert not objects[0].is_valid
    with pytest.raises(realmdb.ClosedRealmError):
        objects[0].age
