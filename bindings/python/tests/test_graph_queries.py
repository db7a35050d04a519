"""Queries across the object graph from Python: key paths through links, ANY/ALL/NONE, collection
operators, SUBQUERY, backlinks, dictionaries, list positions, objects as arguments, @type,
IN a collection, sorting and distinct through to-one links; and migrations that add or remove
link and collection properties on realms that hold data."""
from __future__ import annotations

import pytest

import realmdb

SCHEMA = [
    {"name": "Person", "primary_key": "name", "properties": {
        "name": "string",
        "age": "int",
        "dogs": "Dog[]",
        "best": "Dog?",
        "friends": "Person<>",
        "scores": "int[]",
        "tags": "string<>",
        "meta": "int{}",
        "extra": "mixed",
    }},
    {"name": "Dog", "properties": {
        "name": "string", "age": "int", "owner": "Person?",
        "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
    }},
]


@pytest.fixture
def world(open_realm):
    """Ann (30): Rex 5, Fido 12; best Fido; friend Bob; scores 1 5 9; tags x y; meta a 1 b 7; extra 2.5.
    Bob (40): Max 2; friends Ann, Cy; extra 'hi'. Cy (50): nothing. Stray 1 has no owner."""
    r = open_realm(SCHEMA)
    with r.write():
        ann = r.create("Person", {"name": "Ann", "age": 30, "scores": [1, 5, 9], "tags": {"x", "y"},
                                  "meta": {"a": 1, "b": 7}, "extra": 2.5})
        bob = r.create("Person", {"name": "Bob", "age": 40, "extra": "hi"})
        cy = r.create("Person", {"name": "Cy", "age": 50})
        rex = r.create("Dog", {"name": "Rex", "age": 5, "owner": ann})
        fido = r.create("Dog", {"name": "Fido", "age": 12, "owner": ann})
        max_ = r.create("Dog", {"name": "Max", "age": 2, "owner": bob})
        r.create("Dog", {"name": "Stray", "age": 1})
        ann.dogs = [rex, fido]
        ann.best = fido
        ann.friends = {bob}
        bob.dogs = [max_]
        bob.friends = {ann, cy}
    return r


def names(results):
    return [o.name for o in results]


def people(r, query, *args):
    return names(r.objects("Person").filter(query, *args))


def dogs(r, query, *args):
    return names(r.objects("Dog").filter(query, *args))


def test_key_paths_through_to_one_links(world):
    assert dogs(world, "owner.name == 'Ann'") == ["Rex", "Fido"]
    assert dogs(world, "owner.name == nil") == ["Stray"]
    assert dogs(world, "owner.best.name == 'Fido'") == ["Rex", "Fido"]
    bob = world.objects("Person").filter("name == 'Bob'")[0]
    assert dogs(world, "owner == $0", bob) == ["Max"]
    assert dogs(world, "owner == nil") == ["Stray"]


def test_values_through_to_one_links(world):
    """``Results.values("owner.name")``: the seeds' ``value(forKeyPath:)``, None where a link is
    null, in results order, live, with clear errors for what is not a to-one key path."""
    by_age = world.objects("Dog").sorted("age")  # Stray 1, Max 2, Rex 5, Fido 12
    assert by_age.values("owner.name") == [None, "Bob", "Ann", "Ann"]
    assert by_age.values("owner.best.age") == [None, None, 12, 12]
    assert by_age.values("owner.extra") == [None, "hi", 2.5, 2.5]
    assert world.objects("Dog").filter("age > 100").values("owner.name") == []
    with world.write():
        world.create_many("Dog", [{"name": f"d{i}", "age": 100 + i, "owner": None} for i in range(1500)])
        assert by_age.values("owner.age")[:4] == [None, 40, 30, 30], "inside a write, across batches"
        assert len(by_age.values("owner.age")) == 1504
    for bad, fragment in [("owner.nope", "no property"), ("owners.name", "to-one"), ("owner.dogs", "only properties with one value"),
                          ("owner.", "property name")]:
        with pytest.raises(realmdb.QueryError) as info:
            by_age.values(bad)
        assert fragment in str(info.value), (bad, info.value)
    with pytest.raises(ValueError):
        by_age.values("owner.na\0me")


#: Person queries with quantifiers and collection operators, and the people they match.
QUANTIFIERS_AND_COLLECTION_OPERATORS = {
    "dogs.age > 10": ["Ann"],
    "ANY dogs.age > 10": ["Ann"],
    "ALL dogs.age > 3": ["Ann", "Cy"],
    "NONE dogs.age > 3": ["Bob", "Cy"],
    "dogs.@count > 1": ["Ann"],
    "dogs.@size == 0": ["Cy"],
    "dogs.@avg.age > 3": ["Ann"],
    "dogs.@sum.age == 17 AND dogs.@min.age == 5 AND dogs.@max.age == 12": ["Ann"],
    "scores.@sum == 15 AND scores.@avg == 5 AND scores.@count == 3": ["Ann"],
    "scores[FIRST] == 1 AND scores[LAST] == 9 AND scores[1] == 5": ["Ann"],
    "dogs[LAST].name == 'Max'": ["Bob"],
    "'x' IN tags": ["Ann"],
    "friends.name == 'Cy'": ["Bob"],
    "friends.dogs.name == 'Max'": ["Ann"],
}


@pytest.mark.parametrize("query", QUANTIFIERS_AND_COLLECTION_OPERATORS)
def test_quantifiers_and_collection_operators(world, query):
    assert people(world, query) == QUANTIFIERS_AND_COLLECTION_OPERATORS[query]


def test_collection_operators_with_arguments(world):
    assert people(world, "$0 IN tags", "y") == ["Ann"]
    fido = world.objects("Dog").filter("name == 'Fido'")[0]
    assert people(world, "dogs == $0", fido) == ["Ann"]


#: (class, query) with SUBQUERY, backlinks, dictionaries and @type, and the names it matches.
SUBQUERY_BACKLINKS_DICTIONARIES_AND_TYPE = {
    ("Person", "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count == 1"): ["Ann"],
    ("Person", "SUBQUERY(friends, $f, $f.dogs.@count > 0).@count == 1"): ["Ann", "Bob"],
    ("Dog", "owners.name == 'Ann'"): ["Rex", "Fido"],
    ("Dog", "@links.Person.dogs.@count == 0"): ["Stray"],
    ("Dog", "@links.Person.best.name == 'Ann'"): ["Fido"],
    ("Dog", "@links.@count == 2"): ["Fido"],
    ("Person", "meta['b'] == 7"): ["Ann"],
    ("Person", "meta.@keys == 'a' AND meta.@values > 5"): ["Ann"],
    ("Person", "ANY meta.@keys == 'a'"): ["Ann"],
    ("Person", "extra.@type == 'double'"): ["Ann"],
    ("Person", "extra.@type == 'string'"): ["Bob"],
    ("Person", "extra.@type == 'null'"): ["Cy"],
}


@pytest.mark.parametrize("class_name, query", SUBQUERY_BACKLINKS_DICTIONARIES_AND_TYPE)
def test_subquery_backlinks_dictionaries_and_type(world, class_name, query):
    expected = SUBQUERY_BACKLINKS_DICTIONARIES_AND_TYPE[class_name, query]
    assert names(world.objects(class_name).filter(query)) == expected


def test_sorting_and_distinct_through_to_one_links(world):
    dogs_ = world.objects("Dog")
    assert names(dogs_.sorted([("owner.age", False), ("name", True)])) == ["Max", "Fido", "Rex", "Stray"]
    assert names(dogs_.sorted("owner.name")) == ["Stray", "Rex", "Fido", "Max"]
    assert names(dogs_.distinct("owner.name")) == ["Rex", "Max", "Stray"]
    assert names(dogs_.filter("TRUEPREDICATE SORT(owner.name DESC)")) == ["Max", "Rex", "Fido", "Stray"]
    with pytest.raises(realmdb.QueryError):
        dogs_.sorted("owners.name")
    with pytest.raises(realmdb.QueryError):
        dogs_.distinct("owner.nope")


def test_errors_name_the_problem_and_offset(world):
    with pytest.raises(realmdb.QueryError) as info:
        world.objects("Person").filter("dogs.nope > 1")
    assert info.value.offset == 5 and "no property named 'nope'" in str(info.value)
    with pytest.raises(realmdb.QueryError) as info:
        world.objects("Person").filter("ANY age > 1")
    assert "collection" in str(info.value)
    with pytest.raises(realmdb.QueryError):
        world.objects("Person").filter("SUBQUERY(dogs, $d, age > 1).@count > 0")
    with pytest.raises(realmdb.QueryError):
        world.objects("Person").filter("extra.@type == 'colour'")


def test_graph_queries_are_live(world):
    heavy = world.objects("Person").filter("ANY dogs.age > 10")
    assert names(heavy) == ["Ann"]
    with world.write():
        max_ = world.objects("Dog").filter("name == 'Max'")[0]
        max_.age = 20
        assert names(heavy) == ["Ann", "Bob"], "a change to a linked object is seen inside the write"
        world.delete(world.objects("Dog").filter("name == 'Fido'")[0])
    assert names(heavy) == ["Bob"], "a deleted dog leaves the lists that held it"


# -- migrations with data ------------------------------------------------------


def test_migration_adds_and_removes_link_and_collection_properties_with_data(tmp_realm_path):
    v0 = [
        {"name": "Person", "primary_key": "name", "properties": {"name": "string", "dogs": "Dog[]", "best": "Dog?",
                                                                "nick": "string"}},
        {"name": "Dog", "properties": {"name": "string"}},
    ]
    r = realmdb.open(tmp_realm_path, v0)
    with r.write():
        rex, fido = r.create("Dog", {"name": "Rex"}), r.create("Dog", {"name": "Fido"})
        r.create("Person", {"name": "Ann", "dogs": [rex, fido], "best": fido, "nick": "a"})
    r.close()

    # Additive: new link, list, set and dictionary properties start empty; existing data is kept
    # (a higher schema version, no migration function).
    v1 = [
        {"name": "Person", "primary_key": "name", "properties": {
            "name": "string", "dogs": "Dog[]", "best": "Dog?", "nick": "string",
            "friends": "Person<>", "scores": "int[]", "meta": "string{}", "partner": "Person?"}},
        {"name": "Dog", "properties": {"name": "string",
                                       "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
    ]
    r = realmdb.open(tmp_realm_path, v1, schema_version=1)
    ann = r.objects("Person")[0]
    assert [d.name for d in ann.dogs] == ["Rex", "Fido"] and ann.best.name == "Fido"
    assert list(ann.scores) == [] and len(ann.friends) == 0 and dict(ann.meta) == {} and ann.partner is None
    assert names(r.objects("Dog").filter("owners.name == 'Ann'")) == ["Rex", "Fido"]
    with r.write():
        ann.scores = [3, 4]
        ann.meta = {"k": "v"}
    assert people(r, "scores.@sum == 7 AND meta['k'] == 'v'") == ["Ann"]
    r.close()

    # Removing link and collection properties needs a migration; the migration can read them
    # (old schema) and move their data into new properties.
    v2 = [
        {"name": "Person", "primary_key": "name", "properties": {
            "name": "string", "nick": "string", "dog_count": "int", "best_name": "string?", "total": "int"}},
        {"name": "Dog", "properties": {"name": "string"}},
    ]
    with pytest.raises(realmdb.MigrationRequiredError):
        realmdb.open(tmp_realm_path, v2, schema_version=2)

    def move(old, new):
        new.dog_count = len(old.dogs)
        new.best_name = old.best.name if old.best is not None else None
        new.total = sum(old.scores)

    def migrate(m, old_version):
        m.enumerate_objects("Person", move)

    r = realmdb.open(tmp_realm_path, v2, schema_version=2, migration=migrate)
    ann = r.objects("Person")[0]
    assert (ann.dog_count, ann.best_name, ann.total, ann.nick) == (2, "Fido", 7, "a")
    assert len(r.objects("Dog")) == 2, "removing the links keeps the objects they pointed to"
    with pytest.raises(realmdb.QueryError):
        r.objects("Person").filter("dogs.@count > 0")
    r.close()


def test_key_literals_o_and_l(open_realm):
    """realm-core's O<n> (an object key of the class the other side links to) and L<class>:<key>;
    a property named like O7 stays the property."""
    realm = open_realm([{"name": "Dog", "properties": {"name": "string"}},
                        {"name": "Person", "primary_key": "id",
                         "properties": {"id": "int", "best": "Dog?", "extra": "mixed", "O7": "int"}}])
    with realm.write():
        rex, fido = realm.create("Dog", {"name": "Rex"}), realm.create("Dog", {"name": "Fido"})
        realm.create("Person", {"id": 1, "best": rex, "extra": rex, "O7": 1})
        realm.create("Person", {"id": 2, "best": fido, "extra": 5, "O7": 7})
    people = realm.objects("Person")

    def ids(query):
        return sorted(p.id for p in people.filter(query))

    from realmdb.object import link_of
    dog_table, rex_key = link_of(rex)
    assert ids(f"best == O{rex_key}") == [1] and ids(f"O{rex_key} != best") == [2]
    assert ids(f"extra == L{dog_table}:{rex_key}") == [1]
    assert ids("O7 == 7") == [2]
    with pytest.raises(realmdb.QueryError, match="the other side must be a link"):
        people.filter(f"extra == O{rex_key}")


def test_arithmetic_on_collections_and_lists(world):
    """realm-core's arithmetic with a collection (each value, compared as the collection) and
    with a list literal or list argument and a constant (folded into a list)."""
    assert people(world, "dogs.age * 2 > 20") == ["Ann"]
    assert people(world, "ALL dogs.age * 2 > 4") == ["Ann", "Cy"]
    assert people(world, "dogs.age + age > 41") == ["Ann", "Bob"]
    assert people(world, "100 - scores == 91") == ["Ann"]
    assert people(world, "dogs.age * $0 > 20", 2) == ["Ann"]
    assert people(world, "ALL {8, 10} / 2 >= ANY dogs.age") == ["Bob"]
    assert people(world, "age == 10 * $0", [3, 5]) == ["Ann", "Cy"]
    with pytest.raises(realmdb.QueryError, match="arithmetic between two collections"):
        world.objects("Person").filter("dogs.age * scores > 1")
    assert people(world, "{600, 1500} / age > 35") == ["Ann", "Bob"]  # a list with a property
    assert people(world, "{'Annie', 'Cyril'} BEGINSWITH name") == ["Ann", "Cy"]
    with pytest.raises(realmdb.QueryError, match="needs one value on its other side"):
        world.objects("Person").filter("{1, 2} * scores > 3")


def test_arithmetic_on_a_collection_is_live(world):
    live = world.objects("Person").filter("dogs.age * 2 > 20")
    assert names(live) == ["Ann"]
    with world.write():
        world.objects("Dog").filter("name == 'Max'")[0].age = 11
    assert names(live) == ["Ann", "Bob"]


def test_very_long_arithmetic_is_an_error_not_a_crash(world):
    """A chain of 100,000 operators once overflowed the stack while the query compiled."""
    for text in ["age" + " + 1" * 100_000 + " > 0", "dogs.age" + " * 1" * 100_000 + " > 0",
                 "{1}" + " + 1" * 100_000 + " == ANY scores"]:
        with pytest.raises(realmdb.QueryError, match="too long or nested too deeply") as info:
            world.objects("Person").filter(text)
        assert info.value.offset is not None and info.value.offset < 500
    assert people(world, "age" + " + 0" * 99 + " > 35") == ["Bob", "Cy"]


def test_value_lists_through_to_many_links(world):
    """The seeds' value(forKeyPath:) through to-many links: one list per object, in results order."""
    people = world.objects("Person").sorted("age")
    assert people.value_lists("dogs.name") == [["Rex", "Fido"], ["Max"], []]
    assert people.value_lists("best.name") == [["Fido"], [None], [None]]
    assert people.value_lists("scores") == [[1, 5, 9], [], []]
    assert people.value_lists("dogs.@count") == [[2], [1], [0]]
    assert people.value_lists("friends.dogs.age") == [[2], [5, 12], []]
    assert world.objects("Dog").sorted("age").value_lists("owners.name") == [[], ["Bob"], ["Ann"], ["Ann"]]
    ann = world.object_for_primary_key("Person", "Ann")
    assert ann.dogs.value_lists("owners.name") == [["Ann"], ["Ann"]]
    with pytest.raises(realmdb.QueryError) as info:
        people.value_lists("dogs.nope")
    assert info.value.offset == 5
    with pytest.raises(TypeError):
        people.value_lists(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        people.value_lists("dogs\x00")


def test_value_lists_larger_than_a_batch(world):
    """An object with more values than the binding's buffer grows it, not loses values."""
    with world.write():
        stray = world.objects("Dog").filter("name == 'Stray'")[0]
        world.object_for_primary_key("Person", "Cy").dogs = [stray] * 5000
    assert [len(v) for v in world.objects("Person").sorted("age").value_lists("dogs.name")] == [2, 1, 5000]
