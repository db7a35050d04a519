"""Links, lists, sets, dictionaries, embedded objects, backlinks and mixed values from Python."""
from __future__ import annotations

import collections.abc
import decimal
import math
import random

import pytest

import realmdb

GRAPH = [
    {"name": "Person", "primary_key": "name", "properties": {
        "name": "string",
        "dogs": "Dog[]",
        "best": "Dog?",
        "friends": "Person<>",
        "pets": "Dog?{}",
        "scores": "int[]",
        "nicknames": "string?[]",
        "tags": "string<>",
        "meta": "string{}",
        "home": "Address?",
        "addresses": "Address[]",
        "any": "mixed",
    }},
    {"name": "Dog", "primary_key": "id", "properties": {
        "id": "int", "name": "string", "age": "int",
        "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
    }},
    {"name": "Address", "embedded": True, "properties": {"street": "string", "zip": "string?"}},
]


@pytest.fixture
def graph(open_realm):
    return open_realm(GRAPH)


def make(r, name="Ann", **values):
    return r.create("Person", {"name": name, **values})


def dog(r, id, name=None, age=1):
    return r.create("Dog", {"id": id, "name": name or f"dog{id}", "age": age})


# -- schema ------------------------------------------------------------------


def test_schema_round_trips_and_long_forms_are_accepted(graph, tmp_path):
    out = {c["name"]: c for c in graph.schema}
    props = out["Person"]["properties"]
    assert props["dogs"]["type"] == "object" and props["dogs"]["collection"] == "list" and props["dogs"]["objectType"] == "Dog"
    assert props["best"]["optional"] is True
    assert props["nicknames"] == {**props["nicknames"], "type": "string", "optional": True, "collection": "list"}
    assert props["any"]["type"] == "mixed"
    assert out["Dog"]["properties"]["owners"]["property"] == "dogs"
    assert out["Address"]["embedded"] is True
    # The normalized form is itself accepted, and Realm JS's long forms mean the same.
    again = realmdb.open(str(tmp_path / "again.realm"), graph.schema)
    assert again.schema == graph.schema
    again.close()
    long_form = [
        {"name": "A", "properties": {"xs": {"type": "list", "objectType": "int"}, "b": {"type": "object", "objectType": "B"},
                                     "bs": {"type": "set", "objectType": "B"}, "m": {"type": "dictionary", "objectType": "string?"}}},
        {"name": "B", "properties": {"x": "int"}},
    ]
    r = realmdb.open(str(tmp_path / "long.realm"), long_form)
    props = {c["name"]: c for c in r.schema}["A"]["properties"]
    assert (props["xs"]["collection"], props["b"]["optional"], props["bs"]["collection"], props["m"]["optional"]) == \
        ("list", True, "set", True)
    r.close()


@pytest.mark.parametrize("properties,words", [
    ({"d": "Dog"}, ["always optional", "Dog?"]),             # a to-one link must be optional
    ({"d": "Dog?[]"}, ["cannot hold null"]),
    ({"d": "Dog{}"}, ["Dog?{}"]),
    ({"d": "Address<>"}, ["embedded"]),
    ({"s": {"type": "int[]", "indexed": True}}, ["cannot be indexed"]),
    ({"b": {"type": "linkingObjects", "objectType": "Dog", "property": "age"}}, ["does not link"]),
])
def test_library_rejects_bad_relationships(tmp_realm_path, properties, words):
    schema = [{"name": "Person", "properties": {**properties, "dogs": "Dog[]"}}] + GRAPH[1:]
    with pytest.raises(realmdb.SchemaError) as info:
        realmdb.open(tmp_realm_path, schema)
    for word in words:
        assert word in str(info.value)


# -- to-one links ------------------------------------------------------------


def test_links_read_as_objects_and_clear_when_the_target_is_deleted(graph):
    with graph.write():
        ann, rex = make(graph), dog(graph, 1, "Rex")
        ann.best = rex
        assert ann.best == rex and ann.best.name == "Rex"
        ann.best = None
        assert ann.best is None
        ann.best = rex
        graph.delete(rex)
        assert ann.best is None
    with graph.write():
        other = make(graph, "Bob")
        with pytest.raises(realmdb.WrongTypeError):
            ann.best = other  # a Person where a Dog belongs
        with pytest.raises(realmdb.WrongTypeError):
            ann.best = 5
    with pytest.raises(realmdb.WrongTransactionStateError):
        ann.best = None


def test_dicts_create_linked_objects_and_upsert_by_primary_key(graph):
    with graph.write():
        ann = make(graph, dogs=[{"id": 1, "name": "Rex", "age": 3}, {"id": 2, "name": "Fido", "age": 5}],
                   best={"id": 1, "name": "Rex", "age": 4})
    assert graph.count("Dog") == 2
    assert ann.best == ann.dogs[0]
    assert ann.dogs[0].age == 4  # the nested dict updated the existing Rex
    with graph.write():
        bob = make(graph, "Bob", dogs=[{"id": 2, "name": "Fido", "age": 6}], friends=[ann])
    assert graph.count("Dog") == 2 and bob.dogs[0] == ann.dogs[1] and ann in bob.friends


# -- lists -------------------------------------------------------------------


def test_list_is_a_mutable_sequence(graph):
    with graph.write():
        ann = make(graph, scores=[3, 1, 2])
        scores = ann.scores
        assert isinstance(scores, collections.abc.MutableSequence)
        assert list(scores) == [3, 1, 2] and len(scores) == 3 and scores[-1] == 2 and scores[0:2] == [3, 1]
        scores.append(4)
        scores.extend([5, 6])
        scores.insert(0, 0)
        scores.insert(-1, 9)   # before the last, as list.insert
        assert list(scores) == [0, 3, 1, 2, 4, 5, 9, 6]
        scores[1] = 7
        del scores[0]
        assert scores.pop() == 6
        scores.remove(9)
        assert list(scores) == [7, 1, 2, 4, 5]
        scores.move(0, 4)
        scores.swap(0, 1)
        assert list(scores) == [2, 1, 4, 5, 7]
        assert 4 in scores and 42 not in scores and scores.index(5) == 3 and scores.count(1) == 1
        scores[1:3] = [10, 20, 30]
        del scores[0:1]
        assert list(scores) == [10, 20, 30, 5, 7] and scores == [10, 20, 30, 5, 7]
        with pytest.raises(IndexError):
            scores[5]
        with pytest.raises(IndexError):
            scores[-6] = 1
        with pytest.raises(ValueError):
            scores.index(99)
        with pytest.raises(realmdb.WrongTypeError):
            scores.append("x")
        with pytest.raises(realmdb.NotNullableError):
            scores.append(None)
        ann.nicknames = ["A", None]
        assert list(ann.nicknames) == ["A", None]
        assert (scores.sum(), scores.min(), scores.max(), scores.average()) == (72, 5, 30, 14.4)
        assert scores.sorted() == [5, 7, 10, 20, 30] and scores.sorted(ascending=False)[0] == 30
        ann.scores = [1, 1, 2]
        assert ann.scores.distinct() == [1, 2]
        ann.scores.clear()
        assert len(ann.scores) == 0 and ann.scores.sum() == 0 and ann.scores.min() is None
    with pytest.raises(realmdb.WrongTransactionStateError):
        ann.scores.append(1)
    with pytest.raises(TypeError):
        ann.scores.sum("age")


def test_lists_and_sets_of_values_are_queried_with_self(graph):
    with graph.write():
        ann = make(graph, scores=[5, 1, 9, 4, 7], nicknames=["Annie", None, "A", "Nan"], tags={"swift", "c", "SQL"})
    assert ann.scores.filter("self > $0", 4) == [5, 9, 7]  # in list order
    assert ann.scores.filter("self IN $0 OR self BETWEEN {8, 9}", [1, 4]) == [1, 9, 4]
    assert ann.nicknames.filter("self == nil") == [None]
    assert ann.nicknames.filter("self.@size <= 3") == ["A", "Nan"]
    assert sorted(ann.tags.filter("self BEGINSWITH[c] 's'")) == ["SQL", "swift"]
    assert ann.scores.filter("TRUEPREDICATE") == [5, 1, 9, 4, 7]
    with graph.write():
        ann.scores.append(100)
        assert ann.scores.filter("self >= 100") == [100]  # the list as it is inside the write
    frozen = ann.scores.freeze()
    with graph.write():
        ann.scores.clear()
    assert ann.scores.filter("self > 0") == [] and frozen.filter("self > 50") == [100]
    # hostile: a query values cannot have, wrong argument types, NUL bytes, huge numbers
    for query, args in [("age > 3", ()), ("self BEGINSWITH 'a'", ()), ("self > $0", ()), ("self > $0", ("x",)),
                        ("self > 1 SORT(self ASC)", ()), ("self >", ()), ("self > 99999999999999999999", ()),
                        ("(" * 10000 + "self > 1" + ")" * 10000, ())]:
        with pytest.raises(realmdb.QueryError):
            frozen.filter(query, *args)
    with pytest.raises(ValueError):
        frozen.filter("self > 1\0")  # a NUL cannot end a C string early
    with pytest.raises(TypeError):
        frozen.filter(5)  # type: ignore[arg-type]
    assert isinstance(ann.dogs.filter("age > 1"), realmdb.Results)  # objects: still live Results


def test_list_of_objects_follows_deletes_and_works_as_results(graph):
    with graph.write():
        ann = make(graph)
        a, b, c = dog(graph, 1, age=5), dog(graph, 2, age=2), dog(graph, 3, age=9)
        ann.dogs = [c, a, b, a]
    dogs = ann.dogs
    assert [d.id for d in dogs] == [3, 1, 2, 1]
    assert dogs.sum("age") == 21 and dogs.max("age") == 9
    assert [d.id for d in dogs.sorted("age")] == [2, 1, 1, 3]
    older = dogs.filter("age > $0", 3)
    assert len(older) == 3
    assert [d.id for d in dogs.distinct("id")] == [3, 1, 2]
    assert list(a.owners) == [ann]
    with graph.write():
        graph.delete(a)
    assert [d.id for d in dogs] == [3, 2] and len(older) == 1  # both follow the delete
    with pytest.raises(TypeError):
        dogs.sum()
    with graph.write():
        graph.delete(ann)
    assert not dogs.is_valid
    with pytest.raises(realmdb.InvalidatedError):
        len(dogs)


# -- sets --------------------------------------------------------------------


def test_set_is_a_mutable_set(graph):
    with graph.write():
        ann, bob, cy = make(graph), make(graph, "Bob"), make(graph, "Cy")
        tags = ann.tags
        assert isinstance(tags, collections.abc.MutableSet)
        tags.add("b")
        tags.add("a")
        tags.add("b")
        assert list(tags) == ["a", "b"] and len(tags) == 2 and "a" in tags and "z" not in tags and 5 not in tags
        tags.update(["c", "d"], {"e"})
        tags.intersection_update(["a", "c", "d", "e", "q"])
        tags.difference_update(["e"])
        assert set(tags) == {"a", "c", "d"}
        tags |= {"x"}
        tags -= {"a"}
        tags &= {"c", "x", "d"}
        assert set(tags) == {"c", "d", "x"}
        assert tags | {"y"} == {"c", "d", "x", "y"} and tags & {"c"} == {"c"}
        tags.discard("nope")
        with pytest.raises(KeyError):
            tags.remove("nope")
        with pytest.raises(realmdb.WrongTypeError):
            tags.add(1)
        ann.tags = ["q", "q", "r"]
        assert set(ann.tags) == {"q", "r"}
        ann.friends.update([bob, cy])
        graph.delete(cy)
        assert list(ann.friends) == [bob]


MIXED_SETS = [{"name": "Bag", "primary_key": "id", "properties": {"id": "int", "things": "mixed<>", "decimals": "decimal128<>"}}]
D = decimal.Decimal


@pytest.fixture
def bags(open_realm):
    return open_realm(MIXED_SETS)


def test_mixed_set_keeps_decimals_among_the_numbers(bags):
    """Numbers, strings and Decimals in one set: one order, so every element is found and none is
    added twice (decimals used to sort after strings here, among the numbers elsewhere)."""
    with bags.write():
        things = bags.create("Bag", {"id": 1}).things
        for v in (1, "x", D(0), D(-5)):
            things.add(v)
        assert 1 in things and D(-5) in things and "x" in things and D(0) in things
        things.add(1)
        assert list(things) == [D(-5), D(0), 1, "x"]
    assert len(things) == 4 and 1 in things


def test_mixed_set_elements_are_equal_by_type_and_exact_value(bags):
    with bags.write():
        bag = bags.create("Bag", {"id": 1})
        things, decimals = bag.things, bag.decimals
        things.update([2**53 + 1, 2.0**53, D("0.1"), 0.1, 1, 1.0, D("1.00"), -0.0, 0])
        assert len(things) == 9, "equal values of different types are different elements"
        things.update([D("1"), 0.0, 2**53 + 1])  # already there (1 == 1.00, 0.0 == -0.0)
        assert len(things) == 9
        expected = [0, -0.0, D("0.1"), 0.1, 1, 1.0, D("1.00"), 2.0**53, 2**53 + 1]  # by value, then int, double, decimal
        assert [(type(v), v) for v in things] == [(type(v), v) for v in expected]
        decimals.update([D("0.1"), D("0.1000000000000000000000000000000001"), D("0E+400"), D("1E-400"), D(0)])
        assert len(decimals) == 4, "0E+400 is 0; decimals equal through a double are still different"
        assert D("0.1000000000000000000000000000000001") in decimals and D("1E-400") in decimals


def test_random_mixed_sets_agree_with_python_sets(bags):
    """Adds, discards and lookups on a set of mixed values against a Python model in which two
    values are the same element when they have the same type and the same value."""
    pool = [None, True, False, -5, 0, 1, 2**53, 2**53 + 1, -(2**63), 0.5, 1.0, -0.0, 2.0**53, math.inf, math.nan,
            D(0), D("0.0"), D(1), D("1.000"), D(-5), D("0.5"), D("0.1"), D("0.1000000000000000000000000000000001"),
            D("9007199254740993"), D("-Infinity"), D("NaN"), "", "x", "1", b"\x01"]

    def key(v):
        if isinstance(v, float) and math.isnan(v):
            return ("double", "nan")
        if isinstance(v, D) and v.is_nan():
            return ("decimal", "nan")
        kind = {bool: "bool", int: "int", float: "double", D: "decimal", str: "string", bytes: "data"}.get(type(v), "null")
        return (kind, v)

    rng = random.Random(20240601)
    with bags.write():
        for round_ in range(15):
            things = bags.create("Bag", {"id": round_}).things
            model = set()
            for _ in range(50):
                v = rng.choice(pool)
                if rng.random() < 0.6:
                    things.add(v)
                    model.add(key(v))
                else:
                    things.discard(v)
                    model.discard(key(v))
                assert len(things) == len(model)
            for v in pool:
                assert (v in things) == (key(v) in model), v
            assert sorted(map(repr, map(key, things))) == sorted(map(repr, model))


# -- dictionaries --------------------------------------------------------------


def test_dictionary_is_a_mutable_mapping(graph):
    with graph.write():
        ann, rex = make(graph), dog(graph, 1, "Rex")
        meta = ann.meta
        assert isinstance(meta, collections.abc.MutableMapping)
        meta["color"] = "red"
        meta.update({"size": "L", "color": "blue"})
        assert dict(meta.items()) == {"color": "blue", "size": "L"} and list(meta) == ["color", "size"]
        assert meta["color"] == "blue" and meta.get("nope") is None and "size" in meta and 3 not in meta
        assert meta.pop("size") == "L" and len(meta) == 1
        with pytest.raises(KeyError):
            meta["nope"]
        with pytest.raises(KeyError):
            del meta["nope"]
        for bad in ["", "a.b", "$x"]:
            with pytest.raises(realmdb.InvalidArgumentError):
                meta[bad] = "v"
        with pytest.raises(TypeError):
            meta[1] = "v"
        with pytest.raises(realmdb.NotNullableError):
            meta["k"] = None
        ann.meta = {"x": "1"}
        assert meta == {"x": "1"}
        ann.pets["first"] = rex
        ann.pets["none"] = None
        graph.delete(rex)
        assert dict(ann.pets.items()) == {"first": None, "none": None}  # the key stays, its value is null


# -- embedded objects ----------------------------------------------------------


def test_embedded_objects_live_inside_their_parent(graph):
    with graph.write():
        ann = make(graph, home={"street": "Main"}, addresses=[{"street": "1st"}, {"street": "2nd", "zip": "9"}])
        bob = make(graph, "Bob")
        assert ann.home.street == "Main" and [a.street for a in ann.addresses] == ["1st", "2nd"]
        with pytest.raises(realmdb.LogicError):
            graph.create("Address", {"street": "x"})
        with pytest.raises(realmdb.LogicError):
            bob.home = ann.home  # already has a parent
        with pytest.raises(realmdb.LogicError):
            bob.any = ann.home   # mixed cannot hold an embedded object
        first = ann.home
        ann.home = {"street": "New"}
        assert not first.is_valid and ann.home.street == "New"
        del ann.addresses[0]
        assert graph.count("Address") == 2
        graph.delete(ann)
        assert graph.count("Address") == 0


def test_failed_embedded_assignment_keeps_the_old_object(graph):
    """Assigning a dict to an embedded property, list element or dictionary value that fails (a
    wrong value, an unknown key, deep inside) leaves the old embedded object and its values."""
    schema = [{"name": "Holder", "primary_key": "pk", "properties": {
                   "pk": "int", "emb": "Item?", "items": "Item[]", "by_key": "Item?{}"}},
              {"name": "Item", "embedded": True, "properties": {"num": "int?", "subs": "Sub[]", "sub": "Sub?"}},
              {"name": "Sub", "embedded": True, "properties": {"x": "int?"}}]
    r = realmdb.open(graph.path + ".embedded", schema)
    try:
        with r.write():
            h = r.create("Holder", {"pk": 1, "emb": {"num": 1, "subs": [{"x": 10}]}, "items": [{"num": 2}, {"num": 3}],
                                    "by_key": {"k": {"num": 4, "sub": {"x": 40}}}})
        old_emb, old_item, old_value = h.emb, h.items[0], h.by_key["k"]
        with r.write():
            counts = (r.count("Item"), r.count("Sub"))
            failing = [
                (lambda: setattr(h, "emb", {"nope": 1}), KeyError),
                (lambda: setattr(h, "emb", {"num": "x"}), realmdb.WrongTypeError),
                (lambda: setattr(h, "emb", {"num": 5, "subs": [{"x": 1}, {"x": 2.5}]}), realmdb.WrongTypeError),
                (lambda: h.items.__setitem__(0, {"num": "x"}), realmdb.WrongTypeError),
                (lambda: h.items.__setitem__(0, {"num": 1, "sub": {"y": 1}}), KeyError),
                (lambda: h.items.insert(1, {"num": 7, "sub": {"x": "deep"}}), realmdb.WrongTypeError),
                (lambda: h.items.extend([{"num": 8}, {"num": "x"}]), realmdb.WrongTypeError),
                (lambda: setattr(h, "items", [{"num": 9}, {"nope": 9}]), KeyError),
                (lambda: h.by_key.__setitem__("k", {"num": "x"}), realmdb.WrongTypeError),
                (lambda: h.by_key.__setitem__("new", {"sub": {"x": b"x"}}), realmdb.WrongTypeError),
                (lambda: setattr(h, "by_key", {"a": {"num": 1}, "b": {"num": "x"}}), realmdb.WrongTypeError),
            ]
            for action, error in failing:
                with pytest.raises(error):
                    action()
                assert old_emb.is_valid and old_item.is_valid and old_value.is_valid
                assert (h.emb.num, [s.x for s in h.emb.subs]) == (1, [10])
                assert [i.num for i in h.items] == [2, 3]
                assert list(h.by_key) == ["k"] and (h.by_key["k"].num, h.by_key["k"].sub.x) == (4, 40)
                assert (r.count("Item"), r.count("Sub")) == counts
            h.emb = {"num": 6}  # the write goes on
        assert h.emb.num == 6 and not old_emb.is_valid
        r.check()
    finally:
        r.close()


# -- mixed -------------------------------------------------------------------------


def test_mixed_holds_any_value_or_an_object(graph):
    import datetime
    import decimal
    import uuid
    values = [None, True, -5, 2.5, "s", b"\x00\x01", datetime.datetime(2024, 3, 1, tzinfo=datetime.timezone.utc),
              realmdb.ObjectId("0123456789abcdef01234567"), uuid.UUID(int=7), decimal.Decimal("1.5")]
    with graph.write():
        ann, rex = make(graph), dog(graph, 1)
        for value in values:
            ann.any = value
            assert ann.any == value and type(ann.any) is type(value)
        ann.any = rex
        assert ann.any == rex
        graph.delete(rex)
        assert ann.any is None


# -- persistence, transactions and the realm's life ------------------------------


def test_relationships_survive_reopen(tmp_realm_path):
    r = realmdb.open(tmp_realm_path, GRAPH)
    with r.write():
        make(r, dogs=[{"id": 1, "name": "Rex", "age": 2}], scores=[1, 2], tags={"t"}, meta={"k": "v"},
             home={"street": "Main"}, any="x")
    r.close()
    r = realmdb.open(tmp_realm_path, GRAPH)
    ann = r.object_for_primary_key("Person", "Ann")
    d = ann.to_dict()
    assert [x.name for x in d["dogs"]] == ["Rex"] and d["scores"] == [1, 2] and d["tags"] == {"t"}
    assert d["meta"] == {"k": "v"} and d["home"].street == "Main" and d["any"] == "x"
    scores = ann.scores
    r.close()
    with pytest.raises(realmdb.ClosedRealmError):
        len(scores)


# -- bulk creation with relationships ---------------------------------------------------------


def test_create_many_with_nested_objects_and_collections(graph):
    with graph.write():
        graph.create("Dog", {"id": 1, "name": "old", "age": 9})
        n = graph.create_many("Person", [
            {"name": "Ann", "dogs": [{"id": 1, "name": "Rex", "age": 3}, {"id": 2, "name": "Fido", "age": 5}],
             "best": {"id": 3, "name": "Max", "age": 1}, "scores": [1, 2], "tags": {"x"}, "meta": {"k": "v"},
             "home": {"street": "Main"}, "friends": set()},
            {"name": "Bob", "dogs": [{"id": 2, "name": "Fido", "age": 6}], "best": None, "scores": [],
             "tags": set(), "meta": {}, "home": None, "friends": set()},
        ])
    assert n == 2
    ann, bob = graph.objects("Person").sorted("name")
    assert [(d.id, d.name, d.age) for d in ann.dogs] == [(1, "Rex", 3), (2, "Fido", 6)], "nested dicts upsert by primary key"
    assert [d.id for d in bob.dogs] == [2] and ann.best.name == "Max" and bob.best is None
    assert list(ann.scores) == [1, 2] and set(ann.tags) == {"x"} and dict(ann.meta) == {"k": "v"}
    assert ann.home.street == "Main" and bob.home is None
    assert len(graph.objects("Dog")) == 3
    assert [p.name for p in graph.objects("Person").filter("dogs.@count == 1")] == ["Bob"]


def test_create_many_with_relationships_reports_bad_rows(graph):
    with pytest.raises(realmdb.WrongTypeError):
        with graph.write():
            graph.create_many("Person", [{"name": "Ann", "scores": ["not an int"]}])
    assert len(graph.objects("Person")) == 0, "the write was cancelled"
    with pytest.raises(realmdb.WrongTransactionStateError):
        graph.create_many("Person", [{"name": "Ann", "scores": [1]}])


def test_objects_of_another_realm_cannot_be_linked_or_used_as_arguments(graph, tmp_path):
    other = realmdb.open(str(tmp_path / "other.realm"), GRAPH)
    try:
        with other.write():
            stray = dog(other, 1, "Stray")
        with graph.write():
            dog(graph, 1, "Local")  # the same key exists here: linking `stray` would link this one
            ann = make(graph)
            with pytest.raises(realmdb.LogicError, match="belongs to the realm"):
                ann.best = stray
            with pytest.raises(realmdb.LogicError):
                ann.dogs.append(stray)
            with pytest.raises(realmdb.LogicError):
                ann.pets["a"] = stray
            with pytest.raises(realmdb.LogicError):
                ann.any = stray
            with pytest.raises(realmdb.LogicError):
                graph.create("Person", {"name": "Bo", "best": stray})
            with pytest.raises(realmdb.LogicError):
                graph.create_many("Person", [{"name": "Cy", "best": stray}])
        assert ann.best is None and len(ann.dogs) == 0
        with pytest.raises(realmdb.LogicError):
            graph.objects("Person").filter("best == $0", stray)
        # Another handle on the same file is the same realm.
        same = realmdb.open(graph.path, GRAPH)
        local = same.objects("Dog")[0]
        with graph.write():
            ann.best = local
        assert ann.best.name == "Local"
        same.close()
    finally:
        other.close()


def test_an_embedded_list_element_set_from_a_dict_replaces_the_old_one(graph):
    with graph.write():
        ann = make(graph, addresses=[{"street": "a"}, {"street": "b"}])
        ann.addresses[0] = {"street": "c"}
        assert [a.street for a in ann.addresses] == ["c", "b"]
        ann.addresses.insert(1, {"street": "d"})
        assert [a.street for a in ann.addresses] == ["c", "d", "b"]
