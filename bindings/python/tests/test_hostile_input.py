"""Hostile input: every argument that reaches C is checked first, and a bad one raises a clear
error with nothing written or changed.

1. NUL characters (C strings end at the first one) and lone surrogates (not UTF-8) in strings
   passed to C: queries, dictionary keys, key paths, schema names, migration names, paths.
   String *values* go with their length and may hold NUL characters.
2. Python ints outside the range of the C integer they become (they would wrap around).
3. A string (or bytes, or a non-mapping) given where a collection is expected (it would be split
   into characters).
4. Other wrong types: floats (NaN) as positions, None for names, non-bool sort orders, links that
   cannot exist.
"""
from __future__ import annotations

import copy
import os
from typing import Any, Callable, Dict, List, Tuple, Type

import pytest

import realmdb

TAGGED = {"name": "Tagged", "primary_key": "id", "properties": {
    "id": "int", "tags": "string[]", "labels": "string<>", "meta": "string{}", "blobs": "data[]",
    "scores": "int[]", "any": "mixed"}}

# Actions take the realm as Any: they pass wrong types on purpose.
Action = Callable[[Any], Any]


@pytest.fixture
def person_schema(person_schema: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The shared Person/Note schema plus a class with a list, a set and a dictionary of each kind."""
    return person_schema + [copy.deepcopy(TAGGED)]


@pytest.fixture
def filled(realm: realmdb.Realm, make_person: Callable[..., Dict[str, Any]]) -> realmdb.Realm:
    """The realm with three people, one note and one Tagged object."""
    with realm.write():
        for i in range(3):
            realm.create("Person", make_person(i))
        realm.create("Note", {"text": "hello", "stars": 3})
        realm.create("Tagged", {"id": 1, "tags": ["a", "b"], "labels": {"x", "y"}, "meta": {"k": "v"},
                                "blobs": [b"z"], "scores": [1, 2], "any": 5})
    return realm


def state(realm: realmdb.Realm) -> Dict[str, List[Dict[str, Any]]]:
    """Every object's values, class by class."""
    return {name: [obj.to_dict() for obj in realm.objects(name)] for name in ("Person", "Note", "Tagged")}


def tagged(realm: realmdb.Realm) -> Any:
    return realm.object_for_primary_key("Tagged", 1)


def people(realm: realmdb.Realm) -> Any:
    return realm.objects("Person")


def attempt(realm: realmdb.Realm, action: Action, error: Type[BaseException], write: bool) -> BaseException:
    """Run ``action`` (inside a write transaction when ``write``) expecting exactly ``error``, and check
    that nothing changed, even inside the transaction before it is cancelled."""
    before = state(realm)
    if write:
        realm.begin_write()
    try:
        with pytest.raises(BaseException) as info:
            action(realm)
        assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}: {info.value}"
        assert state(realm) == before
    finally:
        if realm.in_write:
            realm.cancel_write()
    assert state(realm) == before
    return info.value


def assign(name: str, value: Any) -> Action:
    return lambda realm: setattr(tagged(realm), name, value)


def open_other(realm: realmdb.Realm, name: str, schema: Any, **kwargs: Any) -> realmdb.Realm:
    return realmdb.open(os.path.join(os.path.dirname(realm.path), name), schema, **kwargs)


def observe_people(key_paths: Any) -> Action:
    return lambda realm: people(realm).observe(lambda results, changes: None, key_paths=key_paths)


# --------------------------------------------------------------------------- 1. NUL and surrogates

INVALID_STRINGS: List[Tuple[str, Action, bool, str]] = [
    ("query", lambda r: people(r).filter("TRUEPREDICATE\0 AND FALSEPREDICATE"), False, "the query"),
    ("query surrogate", lambda r: people(r).filter("name == '\ud800'"), False, "the query"),
    ("dictionary set", lambda r: tagged(r).meta.__setitem__("a\0b", "v"), True, "dictionary key"),
    ("dictionary get", lambda r: tagged(r).meta["k\0x"], False, "dictionary key"),
    ("dictionary del", lambda r: tagged(r).meta.__delitem__("k\0x"), True, "dictionary key"),
    ("dictionary surrogate", lambda r: tagged(r).meta.__setitem__("\udcff", "v"), True, "dictionary key"),
    ("dictionary assign", assign("meta", {"ok": "1", "k\0x": "2"}), True, "dictionary key"),
    ("dictionary in create", lambda r: r.create("Tagged", {"id": 2, "meta": {"k\0x": "v"}}), True, "dictionary key"),
    ("sort key path", lambda r: people(r).sorted("name\0.x"), False, "key path"),
    ("sort key paths", lambda r: people(r).sorted([("id", True), ("name.\0x", False)]), False, "key path"),
    ("distinct key path", lambda r: people(r).distinct("name\0.x"), False, "key path"),
    ("observe key path", observe_people(["name\0.x"]), False, "key path"),
    ("observe object key path",
     lambda r: tagged(r).observe(lambda change: None, key_paths=["tags\0x"]), False, "key path"),
    ("sectioned key path", lambda r: people(r).sectioned("name\0x"), False, "key path"),
    ("sectioned sort", lambda r: people(r).sectioned(lambda p: p.age, sort=["age\0x"]), False, "key path"),
    ("string value surrogate", lambda r: r.create("Note", {"text": "\ud800"}), True, "string"),
    ("string values surrogate", lambda r: r.create_many("Note", [("é",), ("\ud800",)], ["text"]), True, "string"),
    ("list element surrogate", lambda r: tagged(r).tags.append("\ud800"), True, "string"),
]


@pytest.mark.parametrize("action, write, what", [case[1:] for case in INVALID_STRINGS],
                         ids=[case[0] for case in INVALID_STRINGS])
def test_strings_for_c_with_nul_or_surrogates_are_rejected(filled: realmdb.Realm, action: Action, write: bool,
                                                          what: str) -> None:
    error = attempt(filled, action, realmdb.InvalidArgumentError, write)
    assert what in str(error)
    assert "NUL" in str(error) or "surrogate" in str(error)


INVALID_SCHEMAS: List[Tuple[str, Dict[str, Any], str]] = [
    ("class name", {"name": "A\0B", "properties": {"x": "int"}}, "class name 'A\\x00B'"),
    ("property name", {"name": "A", "properties": {"x\0y": "int"}}, "property name"),
    ("persisted name", {"name": "A", "properties": {"x": {"type": "int", "mapTo": "x\0y"}}}, "persisted name"),
    ("index", {"name": "A", "properties": {"x": "int", "y": "int"}, "indexes": [["x", "y\0z"]]}, "index"),
    ("backlink origin", {"name": "A", "properties": {
        "x": {"type": "linkingObjects", "objectType": "Person", "property": "name\0x"}}}, "property"),
    ("class surrogate", {"name": "\ud800", "properties": {"x": "int"}}, "class name"),
]


@pytest.mark.parametrize("cls, what", [case[1:] for case in INVALID_SCHEMAS], ids=[case[0] for case in INVALID_SCHEMAS])
def test_schema_names_with_nul_are_rejected(filled: realmdb.Realm, person_schema: List[Dict[str, Any]],
                                            cls: Dict[str, Any], what: str) -> None:
    error = attempt(filled, lambda r: open_other(r, "other.realm", person_schema + [cls]),
                    realmdb.InvalidArgumentError, False)
    assert what in str(error)
    assert not os.path.exists(os.path.join(os.path.dirname(filled.path), "other.realm"))


@pytest.mark.parametrize("path, in_memory", [("x.realm\0y", False), ("mem\0ory", True), ("\udcff.realm", False)])
def test_realm_paths_with_nul_are_rejected(tmp_path: Any, person_schema: List[Dict[str, Any]], path: str,
                                           in_memory: bool) -> None:
    target = path if in_memory else os.path.join(str(tmp_path), path)
    with pytest.raises(BaseException) as info:
        realmdb.open(target, person_schema, in_memory=in_memory)
    assert type(info.value) is realmdb.InvalidArgumentError and "path" in str(info.value)
    assert os.listdir(str(tmp_path)) == []


MIGRATION_CALLS: List[Tuple[str, Callable[[Any], Any], Type[BaseException]]] = [
    ("rename class", lambda m: m.rename_property("Person\0x", "name", "full_name"), realmdb.InvalidArgumentError),
    ("rename old name", lambda m: m.rename_property("Person", "name\0x", "full_name"), realmdb.InvalidArgumentError),
    ("rename new name", lambda m: m.rename_property("Person", "name", "full_name\0x"), realmdb.InvalidArgumentError),
    ("enumerate", lambda m: m.enumerate_objects("Person\0x", lambda old, new: None), realmdb.InvalidArgumentError),
    ("delete data", lambda m: m.delete_data("Person\0x"), realmdb.InvalidArgumentError),
    ("rename None", lambda m: m.rename_property("Person", None, "full_name"), TypeError),
]


@pytest.mark.parametrize("call, expected", [case[1:] for case in MIGRATION_CALLS],
                         ids=[case[0] for case in MIGRATION_CALLS])
def test_migration_names_c_cannot_take_are_rejected(filled: realmdb.Realm, person_schema: List[Dict[str, Any]],
                                                     call: Callable[[Any], Any], expected: Type[BaseException]) -> None:
    before = state(filled)
    path = filled.path
    filled.close()
    renamed = copy.deepcopy(person_schema)
    props = renamed[0]["properties"]
    props["full_name"] = props.pop("name")
    with pytest.raises(realmdb.MigrationFailedError) as info:
        realmdb.open(path, renamed, schema_version=1, migration=lambda m, old: call(m))
    cause = info.value.__cause__
    assert type(cause) is expected, f"{type(cause).__name__}: {cause}"
    with realmdb.open(path, person_schema) as again:
        assert again.schema_version == 0
        assert state(again) == before


def test_dictionary_key_with_nul_is_never_contained(filled: realmdb.Realm) -> None:
    meta = tagged(filled).meta
    assert "k" in meta
    assert "k\0x" not in meta and "\ud800" not in meta
    assert meta.get("k") == "v"


def test_string_values_with_nul_round_trip(filled: realmdb.Realm) -> None:
    text = "a\0b\0"
    with filled.write():
        filled.create("Note", {"text": text})
        filled.create_many("Note", [(text + "many",), ("é" + text,)], ["text"])
        obj = tagged(filled)
        obj.tags.append(text)
        obj.meta["nul"] = text
        obj.any = text
        filled.objects("Person")[0].name = text
    notes = filled.objects("Note")
    assert notes.values("text") == ["hello", text, text + "many", "é" + text]
    assert [n.text for n in notes.filter("text == $0", text)] == [text]
    assert len(notes.filter("text BEGINSWITH $0", "a\0")) == 2
    obj = tagged(filled)
    assert list(obj.tags) == ["a", "b", text] and obj.meta["nul"] == text and obj.any == text
    assert filled.objects("Person")[0].name == text


# --------------------------------------------------------------------------- 2. integers out of range

TAGGED_ONLY = [TAGGED]

OUT_OF_RANGE: List[Tuple[str, Action, Type[BaseException], bool]] = [
    ("results[2**64]", lambda r: people(r)[2**64], IndexError, False),
    ("results[2**64 + 1]", lambda r: people(r)[2**64 + 1], IndexError, False),
    ("results[-2**64]", lambda r: people(r)[-2**64], IndexError, False),
    ("snapshot[2**64]", lambda r: people(r).snapshot()[2**64], IndexError, False),
    ("limit(2**64)", lambda r: people(r).limit(2**64), realmdb.InvalidArgumentError, False),
    ("limit(-1)", lambda r: people(r).limit(-1), realmdb.InvalidArgumentError, False),
    ("set_values start 2**64", lambda r: people(r).set_values("age", [99], start=2**64), IndexError, True),
    ("list[2**64]", lambda r: tagged(r).tags[2**64], IndexError, False),
    ("list[2**64] =", lambda r: tagged(r).tags.__setitem__(2**64, "q"), IndexError, True),
    ("del list[2**64]", lambda r: tagged(r).tags.__delitem__(2**64), IndexError, True),
    ("list.move", lambda r: tagged(r).tags.move(2**64, 0), IndexError, True),
    ("list.swap", lambda r: tagged(r).tags.swap(0, -2**64), IndexError, True),
    ("sections[2**64]", lambda r: people(r).sectioned("age")[2**64], IndexError, False),
    ("section[2**64]", lambda r: people(r).sectioned("age")[0][2**64], IndexError, False),
    ("schema_version", lambda r: open_other(r, "o.realm", TAGGED_ONLY, schema_version=2**64),
     realmdb.InvalidArgumentError, False),
    ("max_active_versions", lambda r: open_other(r, "o.realm", TAGGED_ONLY, max_active_versions=2**64),
     realmdb.InvalidArgumentError, False),
    ("int property 2**63", lambda r: setattr(people(r)[0], "age", 2**63), OverflowError, True),
    ("int property -2**63-1", lambda r: r.create("Note", {"text": "t", "stars": -2**63 - 1}), OverflowError, True),
    ("int column 2**63", lambda r: r.create_many("Note", [("t", 1), ("u", 2**63)], ["text", "stars"]),
     OverflowError, True),
    ("set_value 2**64", lambda r: people(r).set_value("age", 2**64), OverflowError, True),
    ("int list 2**63", lambda r: tagged(r).scores.append(2**63), OverflowError, True),
    ("query argument 2**64", lambda r: people(r).filter("age == $0", 2**64), OverflowError, False),
]


@pytest.mark.parametrize("action, error, write", [case[1:] for case in OUT_OF_RANGE],
                         ids=[case[0] for case in OUT_OF_RANGE])
def test_integers_out_of_range_for_c_are_rejected(filled: realmdb.Realm, action: Action, error: Type[BaseException],
                                                  write: bool) -> None:
    attempt(filled, action, error, write)
    assert not os.path.exists(os.path.join(os.path.dirname(filled.path), "o.realm"))


def test_hostile_query_arguments_are_refused_or_matched_exactly(filled: realmdb.Realm, tmp_path: Any,
                                                                 person_schema: List[Dict[str, Any]]) -> None:
    """Query arguments are packed into one buffer (Results._query_arguments): a bad value anywhere
    in it, after good ones, is a clear error; a NUL inside a string argument is matched, not cut."""
    results = people(filled)
    names = results.values("name")
    with pytest.raises(OverflowError):
        results.filter("age IN $0 OR id == $1", [1, 2, 2**64], 0)
    with pytest.raises(OverflowError):
        results.filter("id == $0 OR age IN $1", 0, [-2**63 - 1])
    with pytest.raises(realmdb.InvalidArgumentError):
        results.filter("name == $0 OR name IN $1", names[0], ["ok", "\ud800"])
    with pytest.raises(realmdb.WrongTypeError):
        results.filter("id IN $0", (i for i in range(3)))  # a generator is not a list argument
    with pytest.raises(realmdb.WrongTypeError):
        results.filter("id == $0", {"a": 1})
    with realmdb.open(str(tmp_path / "other.realm"), person_schema) as other:
        with other.write():
            stranger = other.create("Note", {"text": "elsewhere"})
        with pytest.raises(realmdb.LogicError):
            filled.objects("Note").filter("self IN $0", [stranger])
    with filled.write():
        filled.create("Note", {"text": "a\0b"})
        filled.create("Note", {"text": "a"})
    notes = filled.objects("Note")
    assert notes.filter("text == $0", "a\0b").values("text") == ["a\0b"]
    assert notes.filter("text IN $0 OR text == $1", ["a"], "a\0b").values("text") == ["a\0b", "a"]


def test_python_index_semantics_are_kept(filled: realmdb.Realm) -> None:
    results, obj = people(filled), tagged(filled)
    assert results[-1].id == 2 and results[True].id == 1 and results[False].id == 0
    assert obj.tags[-1] == "b" and obj.tags[True] == "b"
    sections = results.sectioned("id")
    assert sections[-1].key == 2 and sections[True][False].id == 1
    assert len(results.limit(2**63 - 1)) == 3


# --------------------------------------------------------------------------- 3. strings as collections

NOT_A_COLLECTION: List[Tuple[str, Action]] = [
    ("list = str", assign("tags", "abc")),
    ("set = str", assign("labels", "abc")),
    ("data list = bytes", assign("blobs", b"abc")),
    ("int list = bytes", assign("scores", b"\x01\x02")),
    ("list = dict", assign("tags", {"a": "b"})),
    ("list = int", assign("tags", 5)),
    ("dictionary = str", assign("meta", "abc")),
    ("dictionary = list of pairs", assign("meta", [("a", "b")])),
    ("list.extend(str)", lambda r: tagged(r).tags.extend("abc")),
    ("list += str", lambda r: tagged(r).tags.__iadd__("abc")),
    ("list[0:1] = str", lambda r: tagged(r).tags.__setitem__(slice(0, 1), "xy")),
    ("set.update(str)", lambda r: tagged(r).labels.update("abc")),
    ("set |= str", lambda r: tagged(r).labels.__ior__("abc")),
    ("set -= str", lambda r: tagged(r).labels.__isub__("xy")),
    ("create list = str", lambda r: r.create("Tagged", {"id": 2, "tags": "abc"})),
    ("create set = str", lambda r: r.create("Tagged", {"id": 2, "labels": "abc"})),
    ("create dictionary = str", lambda r: r.create("Tagged", {"id": 2, "meta": "abc"})),
    ("create_many list = str", lambda r: r.create_many("Tagged", [{"id": 2, "tags": "ab"}, {"id": 3, "tags": "cd"}])),
    ("create_many rows = str", lambda r: r.create_many("Note", "abc", ["text"])),
    ("create_many row = str", lambda r: r.create_many("Note", ["x"], ["text"])),
    ("set_values(str)", lambda r: people(r).set_values("name", "abc")),
]


@pytest.mark.parametrize("action", [case[1] for case in NOT_A_COLLECTION], ids=[case[0] for case in NOT_A_COLLECTION])
def test_strings_are_not_split_into_collections(filled: realmdb.Realm, action: Action) -> None:
    error = attempt(filled, action, TypeError, True)
    assert "not" in str(error)


# --------------------------------------------------------------------------- 4. other wrong types

X: Any = "x"  # a str where an int belongs
WRONG_TYPES: List[Tuple[str, Action, Type[BaseException], bool]] = [
    ("list.insert(nan)", lambda r: tagged(r).tags.insert(float("nan"), "q"), TypeError, True),
    ("list.insert(1.5)", lambda r: tagged(r).tags.insert(1.5, "q"), TypeError, True),
    ("list[1e300]", lambda r: tagged(r).tags[1e300], TypeError, False),
    ("results[nan]", lambda r: people(r)[float("nan")], TypeError, False),
    ("limit(1e300)", lambda r: people(r).limit(1e300), TypeError, False),
    ("set_values start 1.5", lambda r: people(r).set_values("age", [99], start=1.5), TypeError, True),
    ("sections[1.0]", lambda r: people(r).sectioned("age")[1.0], TypeError, False),
    ("section[nan]", lambda r: people(r).sectioned("age")[0][float("nan")], TypeError, False),
    ("sorted ascending='no'", lambda r: people(r).sorted("name", ascending="no"), TypeError, False),
    ("sort pair ascending=None", lambda r: people(r).sorted([("name", None)]), TypeError, False),
    ("sectioned ascending='no'", lambda r: people(r).sectioned("age", ascending="no"), TypeError, False),
    ("sectioned sort=str", lambda r: people(r).sectioned(lambda p: p.age, sort="age"), TypeError, False),
    ("sectioned sort=[None]", lambda r: people(r).sectioned(lambda p: p.age, sort=[None]), TypeError, False),
    ("observe key_paths=[None]", observe_people([None]), TypeError, False),
    ("distinct(None)", lambda r: people(r).distinct(None), TypeError, False),
    ("objects(None)", lambda r: r.objects(None), TypeError, False),
    ("count(b'Person')", lambda r: r.count(b"Person"), TypeError, False),
    ("link class key 2**40", lambda r: setattr(tagged(r), "any", realmdb.Link(2**40, 0)), OverflowError, True),
    ("link object key 'x'", lambda r: people(r).filter("id == $0", realmdb.Link(0, X)), TypeError, False),
]


@pytest.mark.parametrize("action, error, write", [case[1:] for case in WRONG_TYPES],
                         ids=[case[0] for case in WRONG_TYPES])
def test_wrong_types_are_rejected_clearly(filled: realmdb.Realm, action: Action, error: Type[BaseException],
                                          write: bool) -> None:
    attempt(filled, action, error, write)


def test_a_date_that_could_not_be_read_back_is_refused(tmp_realm_path):
    import datetime as dt
    schema = [{"name": "T", "primary_key": "id", "properties": {"id": "int", "when": "date?"}}]
    late = dt.datetime(9999, 12, 31, 23, tzinfo=dt.timezone(dt.timedelta(hours=-1)))  # year 10000 in UTC
    with realmdb.open(tmp_realm_path, schema) as realm:
        with realm.write():
            with pytest.raises(realmdb.OutOfRangeError, match="years 1 to 9999"):
                realm.create("T", {"id": 1, "when": late})
        assert realm.count("T") == 0 or realm.object_for_primary_key("T", 1).when is None


def test_setting_a_linking_objects_property_is_a_realm_error(tmp_realm_path):
    schema = [{"name": "Dog", "primary_key": "id", "properties": {
                  "id": "int", "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}},
              {"name": "Person", "properties": {"dogs": "Dog[]"}}]
    with realmdb.open(tmp_realm_path, schema) as realm, realm.write():
        with pytest.raises(realmdb.ComputedPropertyError, match="computed from links") as info:
            realm.create("Dog", {"id": 1, "owners": []})
        assert isinstance(info.value, realmdb.LogicError) and isinstance(info.value, AttributeError)
