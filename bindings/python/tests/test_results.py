"""Results: queries, sequence access, liveness and snapshots, query errors, and results outliving their realm."""
from __future__ import annotations

import gc

import pytest

import realmdb

from results_support import N, age_of, ids


# --------------------------------------------------------------------------- objects and filter


def test_objects_is_every_object_of_the_class(people):
    results = people.objects("Person")
    assert isinstance(results, realmdb.Results)
    assert len(results) == N == results.count()
    assert ids(results) == list(range(N))
    assert results.class_name == "Person" and results.realm is people
    assert len(people.objects("Note")) == 0
    with pytest.raises(realmdb.NotFoundError):
        people.objects("Nope")


def test_filter_with_positional_arguments(people):
    results = people.objects("Person").filter("age > $0 AND name BEGINSWITH[c] $1", 23, "NAME")
    assert ids(results) == [i for i in range(N) if age_of(i) is not None and age_of(i) > 23]
    assert ids(people.objects("Person").filter("city == $0 AND score >= $1", "city1", 6.0)) == [4, 7]
    assert ids(people.objects("Person").filter("age == $0", None)) == [1, 4, 7]
    assert ids(people.objects("Person").filter("name == $0", "name3")) == [3]


@pytest.mark.parametrize("arg", [[2, 5, 99], (2, 5, 99), {2, 5, 99}, frozenset({2, 5, 99})])
def test_list_argument_for_in(people, arg):
    assert ids(people.objects("Person").filter("id IN $0", arg)) == [2, 5]


def test_in_with_empty_list_and_strings(people):
    assert len(people.objects("Person").filter("id IN $0", [])) == 0
    assert ids(people.objects("Person").filter("city IN $0 AND id < $1", ["city0", "city2"], 6)) == [0, 2, 3, 5]
    assert ids(people.objects("Person").filter("name IN[c] {'NAME1', 'Name8'}")) == [1, 8]


def test_arguments_after_lists_read_their_own_values(people):
    # The arguments' values share one buffer: each argument must point at its own part of it.
    assert ids(people.objects("Person").filter("id IN $0 OR id == $1", [], 3)) == [3]
    assert ids(people.objects("Person").filter("id IN $0 OR id == $1 OR id IN $2", [4, 5], 0, [9])) == [0, 4, 5, 9]
    assert ids(people.objects("Person").filter("name == $0 OR id IN $1 OR city == $2", "name2", (), "nowhere")) == [2]


def test_long_lists_of_numbers_are_arguments_like_short_ones(people):
    """Lists of 16 or more ints or floats are packed in one pass: each argument still reads its
    own values, other lists (bools, mixed, an int beyond 64 bits) are packed one by one."""
    many = list(range(100, 140)) + [2, 5]
    everyone = people.objects("Person")
    assert ids(everyone.filter("id IN $0 OR id == $1 OR id IN $2", many, 0, [9] * 20)) == [0, 2, 5, 9]
    scores = [i * 1.5 for i in (1, 3)] + [1e9 + i for i in range(30)]
    assert ids(everyone.filter("score IN $0", scores)) == [1, 3]
    assert ids(everyone.filter("score IN $0", [1, 3] + list(range(-40, -10)))) == [2], "ints against doubles (3.0)"
    assert ids(everyone.filter("id IN $0 AND city IN $1", many, ["city2"] + ["x"] * 20)) == [2, 5]
    for bools in ([True], [True] * 20):  # bools stay bools, long list or short
        with pytest.raises(realmdb.QueryError, match="with a value of type bool"):
            everyone.filter("id IN $0", bools)
    assert ids(everyone.filter("id IN $0", [2, 5.0] + [1000] * 20)) == [2, 5]
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        everyone.filter("id IN $0", [1] * 20 + [2 ** 64])


def test_filter_chains_and_leaves_the_original_alone(people):
    everyone = people.objects("Person")
    young = everyone.filter("age < 26")
    young_in_city0 = young.filter("city == 'city0'")
    assert ids(young) == [0, 2, 3, 5]
    assert ids(young_in_city0) == [0, 3]
    assert len(everyone) == N


def test_query_suffixes_in_the_string(people):
    r = people.objects("Person")
    assert ids(r.filter("TRUEPREDICATE SORT(score DESC) LIMIT(2)")) == [9, 8]
    assert r.filter("TRUEPREDICATE DISTINCT(city) SORT(id DESC)").values("city") == ["city2", "city1", "city0"]
    assert ids(r.filter("age != nil SORT(age DESC, id ASC) LIMIT(3)")) == [9, 8, 6]


def test_truepredicate_falsepredicate_not_or(people):
    r = people.objects("Person")
    assert len(r.filter("TRUEPREDICATE")) == N
    assert len(r.filter("FALSEPREDICATE")) == 0
    assert ids(r.filter("NOT (id > 2) OR id == 9")) == [0, 1, 2, 9]
    assert ids(r.filter("!(id >= 1 && id <= 8)")) == [0, 9]


# --------------------------------------------------------------------------- sequence access


def test_indexing_negative_indexes_and_index_errors(people):
    r = people.objects("Person").filter("id >= 2")
    assert r[0].id == 2 and r[7].id == 9
    assert r[-1].id == 9 and r[-8].id == 2
    for bad in (8, 100, -9, -100):
        with pytest.raises(IndexError):
            r[bad]
    with pytest.raises(TypeError):
        r["id"]
    empty = people.objects("Note")
    with pytest.raises(IndexError):
        empty[0]
    with pytest.raises(IndexError):
        empty[-1]


def test_slicing_returns_a_list(people):
    r = people.objects("Person")
    assert [o.id for o in r[2:5]] == [2, 3, 4]
    assert [o.id for o in r[::-3]] == [9, 6, 3, 0]
    assert [o.id for o in r[-2:]] == [8, 9]
    assert r[5:2] == [] and r[100:] == []
    assert isinstance(r[:], list) and len(r[:]) == N


def test_sliced_objects_read_and_write_by_key_as_iterated_ones_do(people):
    r = people.objects("Person").sorted("id")
    some = r[2:8:2]
    assert [o._ptr for o in some] == [None, None, None]  # no handle made per object
    with people.write():
        for o in some:
            o.score = o.id * 10.0
        people.delete(some[1])
    assert [(o.id, o.score) for o in (some[0], some[2])] == [(2, 20.0), (6, 60.0)]
    assert [o.score for o in r.filter("id == 2 OR id == 6")[:]] == [20.0, 60.0]  # read again
    with pytest.raises(realmdb.InvalidatedError):
        some[1].score  # deleted after it was sliced out
    frozen = r.freeze()[1:3]
    before = frozen[0].score
    with people.write():
        people.object_for_primary_key("Person", 1).score = -1.0
    assert [o.id for o in frozen] == [1, 2] and all(o.is_frozen for o in frozen)
    assert frozen[0].score == before != -1.0  # the version the results were frozen at
    assert people.objects("Person").filter("id == 1")[0:1][0].score == -1.0


def test_iteration(people):
    r = people.objects("Person").filter("city == 'city1'")
    got = [o.id for o in r]
    assert got == [1, 4, 7]
    assert all(isinstance(o, realmdb.RealmObject) for o in r)
    assert list(people.objects("Note")) == []


def test_iteration_over_many_objects_crosses_batches(realm):
    with realm.write():
        realm.create_many("Note", [(f"n{i}", i) for i in range(2500)], properties=("text", "stars"))
    r = realm.objects("Note").filter("stars >= 3")
    assert [o.stars for o in r] == list(range(3, 2500))


def test_iteration_tolerates_deleting_inside_the_loop(people):
    r = people.objects("Person")
    seen = []
    with people.write():
        for obj in r:
            seen.append(obj.id)
            if obj.id % 2 == 0:
                people.delete(obj)
            else:
                # delete the next one as well: the loop skips it
                nxt = people.object_for_primary_key("Person", obj.id + 1)
                if nxt is not None:
                    people.delete(nxt)
    assert seen == [0, 1, 3, 5, 7, 9]
    assert ids(r) == [1, 3, 5, 7, 9]


def test_iteration_walks_a_snapshot_across_batches(realm):
    with realm.write():
        realm.create_many("Note", [(f"n{i}", i) for i in range(2500)], properties=("text", "stars"))
    r = realm.objects("Note")
    seen = []
    with realm.write():
        for obj in r:  # deleting shifts the live positions; the loop must still see everything
            seen.append(obj.stars)
            realm.delete(obj)
    assert seen == list(range(2500))
    assert len(r) == 0


def test_first_last(people):
    r = people.objects("Person").filter("city == 'city2'")
    assert r.first().id == 2 and r.last().id == 8
    none = r.filter("id > 100")
    assert none.first() is None and none.last() is None


def test_index_and_contains(people):
    r = people.objects("Person").filter("id > 4").sorted("id", ascending=False)
    seven = people.object_for_primary_key("Person", 7)
    assert r.index(seven) == 2
    assert seven in r
    two = people.object_for_primary_key("Person", 2)
    assert two not in r
    with pytest.raises(ValueError):
        r.index(two)
    with pytest.raises(ValueError):
        r.index("not an object")
    with people.write():
        note = people.create("Note", {"text": "x"})
    assert note not in r  # another class
    with pytest.raises(ValueError):
        r.index(note)


# --------------------------------------------------------------------------- snapshot and liveness


def test_snapshot_is_frozen(people):
    live = people.objects("Person").filter("city == 'city0'")
    snap = live.snapshot()
    assert snap.is_snapshot and not live.is_snapshot
    with people.write():
        people.create("Person", {"id": 100, "name": "new", "score": 0.0, "city": "city0"})
        people.delete(people.object_for_primary_key("Person", 3))
    assert ids(live) == [0, 6, 9, 100]
    assert len(snap) == 4
    assert [o.id for o in snap] == [0, 6, 9]  # iteration skips the deleted object
    assert snap[0].id == 0
    assert not snap[1].is_valid
    with pytest.raises(realmdb.InvalidatedError):
        snap.values("id")


def test_results_are_live_inside_a_write(people):
    r = people.objects("Person").filter("city == 'city9'")
    assert len(r) == 0
    people.begin_write()
    people.create("Person", {"id": 50, "name": "x", "score": 1.0, "city": "city9"})
    assert ids(r) == [50]
    obj = people.create("Person", {"id": 51, "name": "y", "score": 1.0, "city": "city9"})
    assert ids(r) == [50, 51] and r.sum("score") == 2.0
    obj.city = "elsewhere"
    assert ids(r) == [50]
    people.cancel_write()
    assert len(r) == 0


def test_results_see_commits_of_another_handle_after_refresh(people, tmp_realm_path, person_schema):
    r = people.objects("Person").filter("id >= 100")
    assert len(r) == 0
    with realmdb.open(tmp_realm_path, person_schema) as other:
        with other.write():
            other.create("Person", {"id": 100, "name": "z", "score": 0.0, "city": "c"})
        other_results = other.objects("Person").filter("id >= 100")
        assert len(other_results) == 1
    assert people.refresh()
    assert ids(r) == [100]
    assert r.first().name == "z"


# --------------------------------------------------------------------------- query errors


@pytest.mark.parametrize("query, offset, args", [
    ("nope > 1", 0, ()),
    ("age > 1 AND nope == 2", 12, ()),
    ("age > 'x'", 6, ()),
    ("name == 5", 8, ()),
    ("age BEGINSWITH 'a'", 0, ()),
    ("age ==[c] 3", 0, ()),
    ("age >", 5, ()),
    ("age > 1 AND", 11, ()),
    ("(age > 1", 8, ()),
    ("age > 1)", 7, ()),
    ("", 0, ()),
    ("age > $1", 6, (1,)),
    ("age + $0 > 1", 6, ([1, "a"],)),
    ("name == 'é' AND nope > 1", 17, ()),  # byte offset: 'é' is two bytes
    ("age > 1 SORT(nope ASC)", 13, ()),
    ("age IN 3", 7, ()),
    ("age == $0", 7, ("x",)),
])
def test_query_errors_carry_the_byte_offset(people, query, offset, args):
    with pytest.raises(realmdb.QueryError) as info:
        people.objects("Person").filter(query, *args)
    err = info.value
    assert err.offset == offset, str(err)
    assert err.code == realmdb.Status.QUERY
    assert err.message


def test_filter_argument_errors(people):
    r = people.objects("Person")
    with pytest.raises(TypeError):
        r.filter(b"age > 1")
    with pytest.raises(realmdb.WrongTypeError):
        r.filter("age > $0", object())


# --------------------------------------------------------------------------- realm closing


def test_closing_the_realm_invalidates_results(tmp_realm_path, person_schema, make_person):
    realm = realmdb.open(tmp_realm_path, person_schema)
    with realm.write():
        for i in range(3):
            realm.create("Person", make_person(i))
    live = realm.objects("Person").filter("id > 0")
    snap = live.snapshot()
    sorted_ = live.sorted("id")
    it = iter(realm.objects("Person"))
    assert next(it).id == 0
    realm.close()
    for res in (live, snap, sorted_):
        assert not res.is_valid
        assert "closed" in repr(res)
        calls = [
            lambda: len(res), lambda: res[0], lambda: list(res), lambda: res.first(), lambda: res.values("id"),
            lambda: res.filter("id > 1"), lambda: res.sorted("id"), lambda: res.distinct("id"),
            lambda: res.limit(1), lambda: res.snapshot(), lambda: res.sum("score"), lambda: res.delete_all(),
            lambda: res.set_value("score", 1.0), lambda: res[0:1],
        ]
        for call in calls:
            with pytest.raises(realmdb.ClosedRealmError):
                call()
    with pytest.raises(realmdb.InvalidatedError):
        next(it)
    with pytest.raises(realmdb.ClosedRealmError):
        realm.objects("Person")
    del live, snap, sorted_, it
    gc.collect()


def test_results_outliving_their_realm_are_released_safely(tmp_realm_path, person_schema):
    realm = realmdb.open(tmp_realm_path, person_schema)
    results = [realm.objects("Person").filter("id > $0", i) for i in range(50)]
    del realm
    gc.collect()  # the realm stays alive while results refer to it
    assert all(len(r) == 0 for r in results)
    realm = results[0].realm
    realm.close()
    del results, realm
    gc.collect()


def test_results_of_a_migration_realm_expire_with_it(tmp_realm_path):
    v0 = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "age": "int"}}]
    v1 = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "age": "int", "old": "bool"}}]
    with realmdb.open(tmp_realm_path, v0) as r, r.write():
        for i in range(5):
            r.create("Person", {"id": i, "age": 10 * i})
    kept = []

    def migrate(m, old_version):
        old_people = m.realm.objects("Person").filter("age >= $0", 30)
        old_people.set_value("old", True)
        kept.append(old_people)

    with realmdb.open(tmp_realm_path, v1, schema_version=1, migration=migrate) as r:
        assert r.objects("Person").filter("old == true").values("id") == [3, 4]
    with pytest.raises(realmdb.InvalidatedError):
        len(kept[0])


def test_repr(people):
    r = people.objects("Person")
    assert repr(r) == "<realmdb.Results Person: 10 objects>"
    assert repr(r.filter("id == 1")) == "<realmdb.Results Person: 1 object>"
    assert repr(r.snapshot()) == "<realmdb.Results Person snapshot: 10 objects>"


def test_in_with_a_repeated_value_on_an_indexed_property_lists_each_object_once(people):
    """A value listed twice in IN (also 1 and 1.0, or equal dates) is looked up once in the index."""
    city = people.objects("Person")[0].city
    once = ids(people.objects("Person").filter("city IN {$0}", city))
    assert once and ids(people.objects("Person").filter("city IN {$0, $0}", city)) == once
    assert len(people.objects("Person").filter("city IN {$0, $0}", city)) == len(once)
    assert ids(people.objects("Person").filter("id IN {1, 1, 1.0}")) == [1]


def test_index_matching_finds_the_first_match_in_the_results_order(people):
    """``Results.index_matching``: the seeds' ``index(matching:)``, a position in the results' own
    order, live inside a write, with clear errors."""
    by_age = people.objects("Person").sorted("age")
    ages = by_age.values("age")
    expected = next((i for i, a in enumerate(ages) if a is not None and a > 25), None)
    assert by_age.index_matching("age > $0", 25) == expected
    assert by_age.index_matching("age > 1000") is None
    assert by_age.index_matching("name == $0", by_age[2].name) == 2
    assert by_age.index_matching("age IN $0", [ages[-1]]) == ages.index(ages[-1])
    with pytest.raises(realmdb.QueryError) as info:
        by_age.index_matching("age > 1 SORT(age ASC)")
    assert "SORT" in str(info.value)
    with pytest.raises(realmdb.QueryError) as info:
        by_age.index_matching("age >")
    assert info.value.offset == 5
    with pytest.raises(TypeError):
        by_age.index_matching(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        by_age.index_matching("age == 1\0")
    with people.write():
        by_age[-1].age = -1
        # The results follow the write: -1 now sorts first after the nulls.
        assert by_age.index_matching("age == $0", -1) == sum(1 for a in ages if a is None)


def test_str_of_results_is_realms_description(people, make_person):
    """``str(results)``: the seeds' ``description``: each object as Realm prints it, the first
    100, then how many more; ``repr`` stays one line."""
    adults = people.objects("Person").filter("age >= 0").sorted("age")
    text = str(adults)
    assert text.startswith("Results<Person> (\n\t[0] Person {\n\t\t")
    assert text.endswith("\n\t}\n)")
    assert text.count("] Person {") == len(adults)
    first = adults[0]
    assert f"\t\tname = '{first.name}';" in text
    assert str(people.objects("Person").filter("age < -1000")) == "Results<Person> ()"
    assert "\n" not in repr(adults)
    with people.write():
        for i in range(120):
            people.create("Person", make_person(1000 + i, age=1))
    many = str(people.objects("Person"))
    assert many.count("] Person {") == 100
    assert many.endswith(f",\n\t... and {len(people.objects('Person')) - 100} more objects\n)")


def test_names_with_whitespace_are_written_escaped(open_realm):
    """realm-core's escaped whitespace in names: `first\\ name` is the property "first name"."""
    realm = open_realm([{"name": "Row", "properties": {"first name": "string", "tab\there": "int"}}])
    with realm.write():
        realm.create("Row", {"first name": "Ann", "tab\there": 1})
        realm.create("Row", {"first name": "Bob", "tab\there": 2})
    rows = realm.objects("Row")
    assert [r["first name"] for r in rows.filter("first\\ name BEGINSWITH 'A'")] == ["Ann"]
    assert [r["first name"] for r in rows.filter("tab\\there > 1 SORT(first\\ name DESC)")] == ["Bob"]
    with pytest.raises(realmdb.QueryError):
        rows.filter("first name == 'Ann'")  # unescaped: two words


def test_full_text_search_with_text(open_realm):
    """TEXT: every word required, `word*` a prefix, `-word` excluded, accents and case folded;
    a property named `text` is still a property."""
    realm = open_realm([{"name": "Note", "primary_key": "id", "properties": {"id": "int", "text": "string?"}}])
    with realm.write():
        for i, text in enumerate(["Abba and the Beatles", "Bell Biv DeVoe", "Ada wrote about Bel canto",
                                  "Crème brûlée at the café", None]):
            realm.create("Note", {"id": i, "text": text})
    notes = realm.objects("Note")

    def ids(query, *args):
        return sorted(n.id for n in notes.filter(query, *args))

    assert ids("text TEXT 'beatles ABBA'") == [0]
    assert ids("text TEXT 'bel*'") == [1, 2] and ids("text TEXT 'bel* -ada'") == [1]
    assert ids("text text $0", "creme BRULEE") == [3]
    assert ids("text == 'Bell Biv DeVoe'") == [1]
    for bad in ("text TEXT ''", "text TEXT '-abba'", "id TEXT 'x'", "text TEXT[c] 'x'", "text TEXT {'x'}"):
        with pytest.raises(realmdb.QueryError):
            notes.filter(bad)
