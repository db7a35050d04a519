"""Schema parsing, introspection and persisted names."""
from __future__ import annotations

import pytest

import realmdb
from realmdb import _schema

# --------------------------------------------------------------------------- parser (table-driven)

BAD_SCHEMAS = [
    # (schema, words that must appear in the message)
    ([{"name": "P", "properties": {"a": "integer"}}], ["P.a", "integer"]),
    ([{"name": "P", "properties": {"dog": "Dog"}}], ["P.dog", "Dog"]),
    ([{"name": "P", "properties": {"xs": "Dog[]"}}], ["P.xs", "Dog"]),
    ([{"name": "P", "properties": {"xs": "string{}?"}}], ["P.xs", "string{}?"]),
    ([{"name": "P", "properties": {"xs": {"type": "list"}}}], ["P.xs", "objectType"]),
    ([{"name": "P", "properties": {"xs": {"type": "int", "collection": "bag"}}}], ["P.xs", "collection"]),
    ([{"name": "P", "properties": {"xs": {"type": "int", "objectType": "P"}}}], ["P.xs", "objectType"]),
    ([{"name": "P", "properties": {"b": {"type": "linkingObjects", "objectType": "P"}}}], ["P.b", "property"]),
    ([{"name": "P", "properties": {"a": {"type": "int", "colour": "red"}}}], ["P.a", "colour"]),
    ([{"name": "P", "properties": {"a": {"optional": True}}}], ["P.a", "type"]),
    ([{"name": "P", "properties": {"a": {"type": "int?", "optional": False}}}], ["P.a"]),
    ([{"name": "P", "properties": {"a": {"type": "int", "indexed": "yes"}}}], ["P.a", "indexed"]),
    ([{"name": "P", "properties": {"a": {"type": "int", "persisted_name": ""}}}], ["P.a", "persisted_name"]),
    ([{"name": "P", "properties": {"a": {"type": "int", "persisted_name": "x", "mapTo": "y"}}}], ["P.a"]),
    ([{"name": "P", "properties": {"a": 5}}], ["P.a"]),
    ([{"name": "P", "properties": {"": "int"}}], ["P"]),
    ([{"name": "P", "primary_key": "nope", "properties": {"a": "int"}}], ["P", "nope"]),
    ([{"name": "P", "properties": {"a": "int"}, "embedded": "yes"}], ["P", "embedded"]),
    ([{"name": "P", "properties": ["a"]}], ["P", "properties"]),
    ([{"properties": {"a": "int"}}], ["name"]),
    ([{"name": "P", "properties": {}}, {"name": "P", "properties": {}}], ["P", "more than once"]),
    ([{"name": "P", "properties": {"a": "int"}, "indexes": ["a"]}], ["P", "indexes"]),
    ([{"name": "P", "properties": {"a": "int"}, "indexes": "a"}], ["P", "indexes"]),
    ([{"name": "P", "properties": {"a": "int"}, "indexes": [["a", 1]]}], ["P", "indexes"]),
    ("Person", ["list"]),
    ([42], ["dict"]),
]


@pytest.mark.parametrize("schema,words", BAD_SCHEMAS)
def test_parser_rejects_bad_schema(schema, words):
    with pytest.raises(realmdb.SchemaError) as info:
        _schema.parse_schema(schema)
    for word in words:
        assert word in str(info.value)
    assert info.value.code == realmdb.Status.SCHEMA_INVALID


@pytest.mark.parametrize(
    "text,ptype,optional",
    [("bool", 1, False), ("int?", 2, True), ("float", 3, False), ("double?", 4, True), ("string", 5, False),
     ("data", 6, False), ("date?", 7, True), ("objectId", 8, False), ("uuid", 9, False),
     ("decimal128?", 10, True)],
)
def test_parse_type(text, ptype, optional):
    desc = _schema.parse_type(text, "C.p")
    assert (int(desc.type), desc.optional) == (ptype, optional)


def test_parser_accepts_dict_form_and_aliases():
    (cls,) = _schema.parse_schema([{
        "name": "P", "primaryKey": "id",
        "properties": {
            "id": "int",
            "a": {"type": "string", "optional": True, "indexed": True, "mapTo": "col_a"},
            "b": {"type": "int", "persisted_name": "b"},
        },
    }])
    assert cls.primary_key == "id"
    a = cls.properties[1]
    assert (a.optional, a.indexed, a.persisted_name) == (True, True, "col_a")
    assert cls.properties[2].persisted_name is None  # same as the public name
    assert [p.primary_key for p in cls.properties] == [True, False, False]


def test_open_reports_schema_error_before_touching_the_file(tmp_path):
    path = tmp_path / "never.realm"
    with pytest.raises(realmdb.SchemaError, match="Person.owner"):
        realmdb.open(str(path), [{"name": "Person", "properties": {"owner": "Dog"}}])
    assert not path.exists()


def test_library_rejects_invalid_primary_key_type(tmp_realm_path):
    with pytest.raises(realmdb.SchemaError) as info:
        realmdb.open(tmp_realm_path, [{"name": "P", "primary_key": "x", "properties": {"x": "double"}}])
    assert info.value.code == realmdb.Status.SCHEMA_INVALID
    assert info.value.message


# --------------------------------------------------------------------------- introspection


def test_realm_schema_is_normalized(realm):
    by_name = {c["name"]: c for c in realm.schema}
    assert set(by_name) == {"Person", "Note"}
    person = by_name["Person"]
    assert person["primary_key"] == "id"
    assert set(person["properties"]) == {"id", "name", "age", "score", "city"}
    assert person["properties"]["id"] == {
        "type": "int", "optional": False, "indexed": True, "primary_key": True, "persisted_name": "id"}
    assert person["properties"]["age"] == {
        "type": "int", "optional": True, "indexed": False, "primary_key": False, "persisted_name": "age"}
    assert person["properties"]["city"]["indexed"] is True
    assert person["properties"]["score"]["type"] == "double"
    assert by_name["Note"]["primary_key"] is None
    # a copy: mutating it does not change the realm's view
    person["properties"].clear()
    assert len([c for c in realm.schema if c["name"] == "Person"][0]["properties"]) == 5


def test_normalized_schema_can_be_used_to_open(tmp_path, realm):
    schema = realm.schema
    with realmdb.open(str(tmp_path / "copy.realm"), schema) as other:
        assert other.schema == schema


def test_every_type_in_schema(tmp_realm_path, all_types_schema):
    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        props = r.schema[0]["properties"]
        for name, spec in all_types_schema[0]["properties"].items():
            assert props[name]["type"] == spec.rstrip("?")
            assert props[name]["optional"] is spec.endswith("?")


def test_object_schema_matches_realm_schema(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
    (expected,) = [c for c in realm.schema if c["name"] == "Person"]
    assert obj.object_schema == expected


# --------------------------------------------------------------------------- persisted names


def _mapped_schema(public: str, spec) -> list:
    return [{"name": "Person", "primary_key": "id", "properties": {"id": "int", public: spec}}]


def test_persisted_name_maps_public_name_to_column(tmp_realm_path):
    schema = _mapped_schema("name", {"type": "string", "persisted_name": "full_name"})
    with realmdb.open(tmp_realm_path, schema) as r:
        assert r.schema[0]["properties"]["name"]["persisted_name"] == "full_name"
        with r.write():
            obj = r.create("Person", {"id": 1, "name": "Ann"})
        assert obj.name == "Ann" and obj["name"] == "Ann"
        assert obj.to_dict() == {"id": 1, "name": "Ann"}
        with pytest.raises(AttributeError):
            obj.full_name  # the column name is not a public name

    # Reopen with the column name as the public name: the data is stored under it.
    with realmdb.open(tmp_realm_path, _mapped_schema("full_name", "string")) as r:
        assert r.object_for_primary_key("Person", 1).full_name == "Ann"

    # Reopen with yet another public name (Realm JS spelling): same column.
    with realmdb.open(tmp_realm_path, _mapped_schema("nm", {"type": "string", "mapTo": "full_name"})) as r:
        obj = r.object_for_primary_key("Person", 1)
        assert obj.nm == "Ann"
        assert r.schema[0]["properties"]["nm"]["persisted_name"] == "full_name"


# --------------------------------------------------------------------------- compound indexes

INDEXED = [{"name": "Person", "primary_key": "id",
            "properties": {"id": "int", "name": "string", "age": "int", "city": "string", "score": "double"},
            "indexes": [["age", "name"], ["city", "age"]]}]


def test_compound_indexes_round_trip_and_reopen_without_migration(tmp_path):
    path = str(tmp_path / "indexed.realm")
    with realmdb.open(path, INDEXED) as realm:
        assert realm.schema[0]["indexes"] == [["age", "name"], ["city", "age"]]
        with realm.write():
            for i in range(50):
                realm.create("Person", {"id": i, "name": f"n{i % 7}", "age": i % 5, "city": f"c{i % 3}", "score": i})
    # Dropping one index and adding another is additive: no migration, same data.
    changed = [dict(INDEXED[0], indexes=[["city", "name"]])]
    with realmdb.open(path, changed) as realm:
        assert realm.schema[0]["indexes"] == [["city", "name"]]
        people = realm.objects("Person")
        assert people.filter("city == 'c1' AND name >= 'n3'").values("id") == [
            i for i in range(50) if i % 3 == 1 and f"n{i % 7}" >= "n3"]
    # Without the key, the class has none.
    with realmdb.open(path, [{k: v for k, v in INDEXED[0].items() if k != "indexes"}]) as realm:
        assert "indexes" not in realm.schema[0]


@pytest.mark.parametrize("indexes,words", [
    ([["age"]], ["at least two"]),
    ([["age", "age"]], ["twice"]),
    ([["age", "nope"]], ["nope"]),
    ([["age", "score"]], ["score", "cannot be indexed"]),
    ([["age", "name"], ["age", "name"]], ["declared twice"]),
])
def test_invalid_compound_indexes_are_schema_errors(tmp_path, indexes, words):
    with pytest.raises(realmdb.SchemaError) as info:
        realmdb.open(str(tmp_path / "bad.realm"), [dict(INDEXED[0], indexes=indexes)])
    for word in words:
        assert word in str(info.value)


def test_compound_indexes_give_the_same_answers_as_a_scan(tmp_path):
    """The same objects with and without the indexes: queries, sorts with limits (both directions),
    after updates and deletes."""
    plain = [{k: v for k, v in INDEXED[0].items() if k != "indexes"}]
    with realmdb.open(str(tmp_path / "a.realm"), INDEXED) as a, realmdb.open(str(tmp_path / "b.realm"), plain) as b:
        for realm in (a, b):
            with realm.write():
                for i in range(400):
                    realm.create("Person", {"id": i, "name": f"n{(i * 37) % 101}", "age": (i * 7) % 30,
                                            "city": f"c{i % 9}", "score": i / 3})
            with realm.write():
                realm.objects("Person").filter("id < 40").set_value("age", 5)
                realm.objects("Person").filter("id >= 390").delete_all()
        queries = ["city == 'c3' AND age BETWEEN {10, 20}", "age == 5 AND name > 'n5'", "city == 'c1' AND age < 3",
                   "TRUEPREDICATE SORT(age ASC, name ASC) LIMIT(25)", "TRUEPREDICATE SORT(age DESC, name DESC) LIMIT(25)",
                   "city == 'c2' SORT(age ASC, name ASC) LIMIT(10)", "city == 'c4' SORT(city ASC, age ASC) LIMIT(3)"]
        for query in queries:
            assert a.objects("Person").filter(query).values("id") == b.objects("Person").filter(query).values("id"), query
        assert a.objects("Person").sorted([("age", False), ("name", False)]).limit(5).values("id") == \
            b.objects("Person").sorted([("age", False), ("name", False)]).limit(5).values("id")
