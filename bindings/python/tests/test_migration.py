"""Schema versions and migrations."""
from __future__ import annotations

import pytest

import realmdb

V0 = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "name": "string", "age": "int"}}]


def _schema(**props) -> list:
    return [{"name": "Person", "primary_key": "id", "properties": {"id": "int", **props}}]


@pytest.fixture
def v0_path(tmp_realm_path):
    """A realm at schema version 0 with three people."""
    with realmdb.open(tmp_realm_path, V0) as r, r.write():
        for i, name in enumerate(["Ada Lovelace", "Alan Turing", "Grace Hopper"]):
            r.create("Person", {"id": i, "name": name, "age": 30 + i})
    return tmp_realm_path


def _assert_v0_intact(path):
    with realmdb.open(path, V0) as r:
        assert r.schema_version == 0
        assert r.count("Person") == 3
        assert r.object_for_primary_key("Person", 1).to_dict() == {"id": 1, "name": "Alan Turing", "age": 31}


# --------------------------------------------------------------------------- automatic / required


def test_adding_a_class_needs_nothing_and_a_property_a_higher_version(v0_path):
    # As in Realm: a new class applies at the same schema version; a new property (optional or
    # required) needs a higher one, and no migration function.
    with_pet = _schema(name="string", age="int") + [{"name": "Pet", "properties": {"kind": "string"}}]
    with realmdb.open(v0_path, with_pet) as r:
        assert r.count("Pet") == 0
    schema = _schema(name="string", age="int", nick="string?", level="int") + [
        {"name": "Pet", "properties": {"kind": "string"}}]
    with pytest.raises(realmdb.MigrationRequiredError, match="increase the schema version"):
        realmdb.open(v0_path, schema)
    with realmdb.open(v0_path, schema, schema_version=1) as r:
        assert r.object_for_primary_key("Person", 0).nick is None
        assert r.object_for_primary_key("Person", 0).level == 0
        assert r.object_for_primary_key("Person", 0).name == "Ada Lovelace"
        with r.write():
            r.create("Pet", {"kind": "cat"})
    with realmdb.open(v0_path, schema, schema_version=1) as r:
        assert r.count("Pet") == 1


@pytest.mark.parametrize("schema", [
    _schema(name="string"),                 # property removed
    _schema(name="string", age="string"),   # type changed
    _schema(name="string", age="int?"),     # nullability changed
])
def test_breaking_change_without_version_raises_migration_required(v0_path, schema):
    with pytest.raises(realmdb.MigrationRequiredError) as info:
        realmdb.open(v0_path, schema)
    assert info.value.code == realmdb.Status.MIGRATION_REQUIRED and info.value.message
    _assert_v0_intact(v0_path)


def test_breaking_change_with_same_version_and_migration_still_required(v0_path):
    called = []
    with pytest.raises(realmdb.MigrationRequiredError):
        realmdb.open(v0_path, _schema(name="string"), migration=lambda m, v: called.append(v))
    assert called == []
    _assert_v0_intact(v0_path)


# --------------------------------------------------------------------------- migrations


def test_rename_property(v0_path):
    seen = {}

    def migrate(m, old_version):
        seen["old_version"] = old_version
        seen["old_schema"] = m.old_schema
        seen["new_schema"] = m.new_schema
        m.rename_property("Person", "name", "full_name")

    with realmdb.open(v0_path, _schema(full_name="string", age="int"), schema_version=1, migration=migrate) as r:
        assert r.schema_version == 1
        assert r.object_for_primary_key("Person", 2).full_name == "Grace Hopper"
        assert r.object_for_primary_key("Person", 2).age == 32
    assert seen["old_version"] == 0
    assert set(seen["old_schema"][0]["properties"]) == {"id", "name", "age"}
    assert set(seen["new_schema"][0]["properties"]) == {"id", "full_name", "age"}
    assert seen["new_schema"][0]["properties"]["full_name"]["type"] == "string"


def test_transform_create_and_delete(v0_path):
    borrowed = []
    errors = []

    def migrate(m, old_version):
        def split(old, new):
            borrowed.append((old, new))
            assert old.to_dict()["name"] == old.name
            try:
                old.name = "nope"  # old objects are read-only
            except realmdb.ReadOnlyError as exc:
                errors.append(exc)
            first, last = old.name.split(" ", 1)
            new.first = first
            new["last"] = last
            new.age = old.age + 100
            if old.id == 1:
                m.delete(new)

        m.enumerate_objects("Person", split)
        created = m.create("Person", {"id": 10, "first": "Katherine", "last": "Johnson", "age": 101})
        assert created.first == "Katherine"
        borrowed.append((created, None))

    schema = _schema(first="string", last="string", age="int")
    with realmdb.open(v0_path, schema, schema_version=1, migration=migrate) as r:
        assert r.count("Person") == 3
        assert r.object_for_primary_key("Person", 1) is None
        assert r.object_for_primary_key("Person", 0).to_dict() == {
            "id": 0, "first": "Ada", "last": "Lovelace", "age": 130}
        assert r.object_for_primary_key("Person", 10).last == "Johnson"
    assert len(errors) == 3  # one per object
    # Borrowed accessors expire when the migration ends: no dangling pointers.
    assert len(borrowed) == 4
    for old, new in borrowed:
        for obj in (old, new):
            if obj is None:
                continue
            assert not obj.is_valid
            with pytest.raises(realmdb.InvalidatedError):
                obj.to_dict()


def test_removed_class_gets_none_and_delete_data(tmp_realm_path):
    v0 = V0 + [{"name": "Legacy", "properties": {"v": "int"}}, {"name": "Log", "properties": {"line": "string"}}]
    with realmdb.open(tmp_realm_path, v0) as r, r.write():
        r.create("Person", {"id": 1, "name": "a b", "age": 1})
        r.create_many("Legacy", [{"v": i} for i in range(5)])
        r.create_many("Log", [{"line": str(i)} for i in range(4)])
    visited = []

    def migrate(m, old_version):
        m.enumerate_objects("Legacy", lambda old, new: visited.append((old.v, new)))
        m.delete_data("Legacy")  # gone from the new schema
        m.delete_data("Log")     # stays in the schema, emptied

    schema = V0 + [{"name": "Log", "properties": {"line": "string"}}]
    with realmdb.open(tmp_realm_path, schema, schema_version=1, migration=migrate) as r:
        assert {c["name"] for c in r.schema} == {"Person", "Log"}
        assert r.count("Log") == 0 and r.count("Person") == 1
    assert sorted(v for v, _ in visited) == [0, 1, 2, 3, 4]
    assert all(new is None for _, new in visited)


def test_migration_exception_fails_open_and_keeps_data(v0_path):
    def migrate(m, old_version):
        def change(old, new):
            new.age = 0
        m.enumerate_objects("Person", change)
        m.create("Person", {"id": 99, "name": "x", "age": 1})
        raise ValueError("boom")

    with pytest.raises(realmdb.MigrationFailedError) as info:
        realmdb.open(v0_path, _schema(name="string", age="int"), schema_version=1, migration=migrate)
    assert isinstance(info.value.__cause__, ValueError) and "boom" in str(info.value)
    _assert_v0_intact(v0_path)
    with realmdb.open(v0_path, V0) as r:
        assert r.object_for_primary_key("Person", 99) is None


def test_exception_in_enumerate_callback_propagates(v0_path):
    caught = []

    def migrate(m, old_version):
        def bad(old, new):
            raise KeyError("from callback")
        with pytest.raises(KeyError):
            m.enumerate_objects("Person", bad)
        caught.append(True)
        raise RuntimeError("stop")

    with pytest.raises(realmdb.MigrationFailedError) as info:
        realmdb.open(v0_path, _schema(name="string", age="int"), schema_version=1, migration=migrate)
    assert caught == [True] and isinstance(info.value.__cause__, RuntimeError)
    _assert_v0_intact(v0_path)


def test_migration_errors_surface_inside_the_function(v0_path):
    def migrate(m, old_version):
        with pytest.raises(realmdb.NotFoundError):
            m.enumerate_objects("Nope", lambda old, new: None)
        with pytest.raises(realmdb.DuplicatePrimaryKeyError):
            m.create("Person", {"id": 0, "name": "dup", "age": 1})

    with realmdb.open(v0_path, V0, schema_version=1, migration=migrate) as r:
        assert r.schema_version == 1 and r.count("Person") == 3


def test_migration_leaving_duplicate_primary_keys_fails(v0_path):
    def migrate(m, old_version):
        m.enumerate_objects("Person", lambda old, new: setattr(new, "code", 7))

    schema = [{"name": "Person", "primary_key": "code",
               "properties": {"id": "int", "code": "int", "name": "string", "age": "int"}}]
    with pytest.raises(realmdb.DuplicatePrimaryKeyError):
        realmdb.open(v0_path, schema, schema_version=1, migration=migrate)
    _assert_v0_intact(v0_path)


def test_migration_handle_is_dead_after_return(v0_path):
    kept = []

    def migrate(m, old_version):
        kept.append(m)
        kept.append(m.realm)
        kept.append(m.realm.object_for_primary_key("Person", 1))
        assert kept[-1].name == "Alan Turing"

    with realmdb.open(v0_path, V0, schema_version=1, migration=migrate):
        pass
    m, realm, obj = kept
    with pytest.raises(realmdb.InvalidatedError):
        m.rename_property("Person", "name", "x")
    with pytest.raises(realmdb.InvalidatedError):
        m.realm
    with pytest.raises(realmdb.InvalidatedError):
        realm.count("Person")
    assert realm.is_closed
    assert not obj.is_valid
    with pytest.raises(realmdb.InvalidatedError):
        obj.name


def test_keyboard_interrupt_in_migration_is_not_wrapped(v0_path):
    def migrate(m, old_version):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        realmdb.open(v0_path, V0, schema_version=1, migration=migrate)
    _assert_v0_intact(v0_path)


def test_migration_must_be_callable(v0_path):
    with pytest.raises(TypeError):
        realmdb.open(v0_path, V0, schema_version=1, migration="not callable")
