"""Results: queries, sequence access, sorting, distinct, limits, aggregates, batch reads, writes, liveness."""
from __future__ import annotations

import datetime as dt
import decimal
import gc
import math
import uuid

import pytest

import realmdb

UTC = dt.timezone.utc

# Ten people: ages 20, None, 22, 23, None, 25, ... (every third id from 1 has no age).
N = 10


def _age(i: int):
    return None if i % 3 == 1 else 20 + i


@pytest.fixture
def people(realm, make_person):
    with realm.write():
        for i in range(N):
            realm.create("Person", make_person(i, age=_age(i)))
    return realm


def ids(results) -> list:
    return results.values("id")


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
    assert ids(results) == [i for i in range(N) if _age(i) is not None and _age(i) > 23]
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


# --------------------------------------------------------------------------- sorting


def test_sorted_forms(people):
    r = people.objects("Person")
    assert r.sorted("age").values("age") == [None, None, None, 20, 22, 23, 25, 26, 28, 29]
    assert r.sorted("age", ascending=False).values("age") == [29, 28, 26, 25, 23, 22, 20, None, None, None]
    assert ids(r.sorted([("city", True), ("id", False)])) == [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]
    assert ids(r.sorted(["city", "id"], ascending=False)) == [8, 5, 2, 7, 4, 1, 9, 6, 3, 0]
    assert ids(r.sorted(("city", False))) == ids(r.sorted("city", ascending=False))
    with pytest.raises(realmdb.NotFoundError):
        r.sorted("nope")
    with pytest.raises(TypeError):
        r.sorted(42)
    with pytest.raises(ValueError):
        r.sorted([])


def test_sort_is_stable(people):
    r = people.objects("Person")
    # Ties (nulls, and equal cities) keep creation order, ascending and descending.
    assert ids(r.sorted("age"))[:3] == [1, 4, 7]
    assert ids(r.sorted("age", ascending=False))[-3:] == [1, 4, 7]
    assert ids(r.sorted("city")) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    assert ids(r.sorted("city", ascending=False)) == [2, 5, 8, 1, 4, 7, 0, 3, 6, 9]
    # A second sort orders ties of the first by their position after the first.
    assert ids(r.sorted("id", ascending=False).sorted("city")) == [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]


def test_strings_sort_by_code_point(realm):
    words = ["b", "B", "a", "é", "e", "Z", "", "ß", "aa", "A", "\u0065\u0301", "😀", "ﬀ", "z"]
    with realm.write():
        for i, w in enumerate(words):
            realm.create("Person", {"id": i, "name": w, "score": 0.0, "city": ""})
    r = realm.objects("Person")
    assert r.sorted("name").values("name") == sorted(words)
    assert r.sorted("name", ascending=False).values("name") == sorted(words, reverse=True)
    assert r.filter("name > 'Z' SORT(name ASC)").values("name") == sorted(w for w in words if w > "Z")


def test_sorted_doubles_with_nan_and_negative_zero(realm):
    scores = [1.0, float("nan"), -0.0, 0.0, -math.inf, math.inf, -1.5, float("nan")]
    with realm.write():
        for i, s in enumerate(scores):
            realm.create("Person", {"id": i, "name": "", "score": s, "city": ""})
    r = realm.objects("Person")
    # NaN first (after nulls), then values; -0.0 and 0.0 tie and keep creation order.
    assert ids(r.sorted("score")) == [1, 7, 4, 6, 2, 3, 0, 5]
    assert ids(r.sorted("score", ascending=False)) == [5, 0, 2, 3, 6, 4, 1, 7]


# --------------------------------------------------------------------------- distinct and limit


def test_distinct(people):
    r = people.objects("Person")
    assert ids(r.distinct("city")) == [0, 1, 2]
    assert ids(r.distinct("age")) == [0, 1, 2, 3, 5, 6, 8, 9]  # one null kept
    assert ids(r.distinct("city", "age")) == [0, 1, 2, 3, 5, 6, 8, 9]
    assert ids(r.distinct(["city", "age"])) == ids(r.distinct("city", "age"))
    assert ids(r.sorted("id", ascending=False).distinct("city")) == [9, 8, 7]
    with pytest.raises(realmdb.NotFoundError):
        r.distinct("nope")
    with pytest.raises(ValueError):
        r.distinct()


def test_limit_and_its_order_with_sort(people):
    r = people.objects("Person")
    assert ids(r.limit(3)) == [0, 1, 2]
    assert ids(r.limit(0)) == []
    assert len(r.limit(100)) == N
    # Operations apply in the order written: sort then limit, or limit then sort.
    assert ids(r.sorted("score", ascending=False).limit(2)) == [9, 8]
    assert ids(r.limit(2).sorted("score", ascending=False)) == [1, 0]
    assert ids(r.filter("TRUEPREDICATE SORT(score DESC) LIMIT(2)")) == [9, 8]
    assert ids(r.filter("TRUEPREDICATE LIMIT(2) SORT(score DESC)")) == [1, 0]
    with pytest.raises(ValueError):
        r.limit(-1)
    with pytest.raises(TypeError):
        r.limit(2.0)
    with pytest.raises(TypeError):
        r.limit(True)


# --------------------------------------------------------------------------- aggregates


def test_aggregates_skip_nulls(people):
    r = people.objects("Person")
    ages = [a for a in map(_age, range(N)) if a is not None]
    assert r.min("age") == min(ages)
    assert r.max("age") == max(ages)
    assert r.sum("age") == sum(ages) and isinstance(r.sum("age"), int)
    assert r.average("age") == pytest.approx(sum(ages) / len(ages))
    assert r.sum("score") == pytest.approx(sum(i * 1.5 for i in range(N)))
    assert r.filter("city == 'city1'").max("score") == 10.5
    assert r.filter("city == 'city1'").min("age") is None  # only nulls there
    assert r.filter("city == 'city1'").sum("age") == 0
    assert r.filter("city == 'city1'").average("age") is None


def test_aggregates_of_no_objects(people):
    none = people.objects("Person").filter("FALSEPREDICATE")
    assert none.min("age") is None and none.max("score") is None and none.average("score") is None
    assert none.sum("age") == 0 and none.sum("score") == 0.0


def test_aggregates_follow_sort_distinct_and_limit(people):
    r = people.objects("Person")
    assert r.sorted("score", ascending=False).limit(3).sum("score") == pytest.approx((9 + 8 + 7) * 1.5)
    assert r.distinct("city").max("id") == 2


def test_aggregates_on_wrong_types(people):
    r = people.objects("Person")
    for agg in (r.min, r.max, r.sum, r.average):
        with pytest.raises(realmdb.WrongTypeError):
            agg("name")
        with pytest.raises(realmdb.NotFoundError):
            agg("nope")


def test_aggregates_of_every_numeric_type_and_dates(tmp_realm_path, all_types_schema):
    d0 = dt.datetime(2020, 1, 1, tzinfo=UTC)
    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        with r.write():
            for i in range(4):
                r.create("AllTypes", {
                    "pk": i, "bool": i % 2 == 0, "int": i, "float": i + 0.5, "double": i * 2.0, "string": "s",
                    "data": b"", "date": d0 + dt.timedelta(days=i), "objectId": realmdb.ObjectId(),
                    "uuid": uuid.uuid4(), "decimal128": decimal.Decimal(i),
                    "opt_float": None if i == 0 else float(i), "opt_date": None,
                })
        res = r.objects("AllTypes")
        assert res.sum("float") == pytest.approx(8.0) and isinstance(res.sum("float"), float)
        assert res.min("float") == 0.5 and res.max("float") == 3.5
        assert res.average("double") == 3.0
        assert res.min("date") == d0 and res.max("date") == d0 + dt.timedelta(days=3)
        assert res.min("opt_date") is None
        assert res.average("opt_float") == 2.0
        assert res.min("decimal128") == decimal.Decimal(0) and res.max("decimal128") == decimal.Decimal(3)
        with pytest.raises(realmdb.NotSupportedError):
            res.sum("decimal128")
        for name in ("bool", "string", "data", "objectId", "uuid"):
            with pytest.raises(realmdb.WrongTypeError):
                res.min(name)
        with pytest.raises(realmdb.WrongTypeError):
            res.sum("date")


# --------------------------------------------------------------------------- values (batch read)


def test_values_of_every_type(tmp_realm_path, all_types_schema):
    from test_objects import SAMPLE  # one sample value per type

    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        with r.write():
            for i in range(3):
                values = {"pk": i, **SAMPLE}
                values.update({f"opt_{k}": (v if i != 1 else None) for k, v in SAMPLE.items()})
                r.create("AllTypes", values)
        res = r.objects("AllTypes")
        for name, value in SAMPLE.items():
            got = res.values(name)
            assert got == [value] * 3, name
            assert all(type(v) is type(value) for v in got), name
            assert res.values("opt_" + name) == [value, None, value], name


def test_values_across_batches_and_with_nulls(realm):
    n = 10_000
    rows = [(f"t{i}", None if i % 7 == 0 else i) for i in range(n)]
    with realm.write():
        realm.create_many("Note", rows, properties=("text", "stars"))
    r = realm.objects("Note")
    assert r.values("stars") == [s for _, s in rows]
    assert r.values("text") == [t for t, _ in rows]
    assert r.filter("stars == nil").values("stars") == [None] * len(range(0, n, 7))
    assert r.filter("FALSEPREDICATE").values("text") == []
    assert r.sorted("stars", ascending=False).limit(2).values("stars") == [n - 1, n - 2]
    with pytest.raises(realmdb.NotFoundError):
        r.values("nope")


def test_values_of_unicode_and_empty_strings(realm):
    names = ["", "é", "e\u0301", "日本語", "x" * 600, "a\x00b"]
    with realm.write():
        for i, name in enumerate(names):
            realm.create("Person", {"id": i, "name": name, "score": 0.0, "city": ""})
    assert realm.objects("Person").values("name") == names


# --------------------------------------------------------------------------- writes


def test_set_value_on_every_object(people):
    r = people.objects("Person").filter("city == 'city0'")
    with people.write():
        r.set_value("score", 0.0)
        r.set_value("age", None)
    assert r.values("score") == [0.0] * 4
    assert r.values("age") == [None] * 4
    assert people.objects("Person").filter("score == 0").values("id") == [0, 3, 6, 9]


def test_set_value_errors(people):
    r = people.objects("Person")
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.set_value("score", 1.0)
    with people.write():
        with pytest.raises(realmdb.WrongTypeError):
            r.set_value("score", "high")
        with pytest.raises(realmdb.NotNullableError):
            r.set_value("name", None)
        with pytest.raises(realmdb.LogicError):
            r.set_value("id", 5)
        with pytest.raises(realmdb.NotFoundError):
            r.set_value("nope", 1)
    assert r.values("score") == [i * 1.5 for i in range(N)]


def test_set_values_writes_one_value_per_object(people):
    r = people.objects("Person")
    scores = r.values("score")
    with people.write():
        r.set_values("score", [s + 1.0 for s in scores])
        r.filter("city == 'city0'").set_values("age", [None, 7], start=2)
    assert r.values("score") == [s + 1.0 for s in scores]
    assert r.filter("city == 'city0'").values("age")[2:] == [None, 7]
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.set_values("score", [1.0])
    with people.write():
        with pytest.raises(IndexError):
            r.set_values("score", [1.0, 2.0], start=N - 1)
        with pytest.raises(IndexError):
            r.set_values("score", [1.0], start=-1)
        with pytest.raises(realmdb.WrongTypeError):
            r.set_values("score", [1.0, "high"])
    assert r.values("score") == [s + 1.0 for s in scores], "failed batches write nothing"


def test_set_value_changes_membership_of_live_results(people):
    young = people.objects("Person").filter("age < 25")
    assert ids(young) == [0, 2, 3]
    with people.write():
        young.set_value("age", 99)
        assert len(young) == 0


def test_delete_all(people):
    r = people.objects("Person").filter("city == 'city2'")
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.delete_all()
    with people.write():
        assert r.delete_all() == 3
        assert r.delete_all() == 0
    assert people.count("Person") == N - 3
    assert len(r) == 0


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
    ("age > $0", 6, ([1, 2],)),
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
