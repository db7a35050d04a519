"""Objects: create, read, write, upsert, create_many, delete, identity."""
from __future__ import annotations

import datetime as dt
import decimal
import struct
import uuid

import pytest

import realmdb

D = decimal.Decimal
UTC = dt.timezone.utc

# --------------------------------------------------------------------------- every type round-trips

SAMPLE = {
    "bool": True,
    "int": -(2**63),
    "float": 1.5,
    "double": 2.0**-1074,
    "string": "héllo ✓ \x00 inside",
    "data": b"\x00\x01\xff",
    "date": dt.datetime(2021, 5, 6, 7, 8, 9, 123456, tzinfo=UTC),
    "objectId": realmdb.ObjectId("5f1b2c3d4e5f60718293a4b5"),
    "uuid": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "decimal128": D("12345678901234567890123456789012.34"),
}


def _all_values(pk: int) -> dict:
    values = {"pk": pk, **SAMPLE}
    values.update({f"opt_{k}": v for k, v in SAMPLE.items()})
    return values


def test_every_type_round_trips(tmp_realm_path, all_types_schema):
    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        with r.write():
            obj = r.create("AllTypes", _all_values(1))
            nulls = r.create("AllTypes", {"pk": 2, **SAMPLE, **{f"opt_{k}": None for k in SAMPLE}})
        for name, value in _all_values(1).items():
            assert obj[name] == value, name
            assert type(obj[name]) is type(value), name
        assert obj.to_dict() == _all_values(1)
        for k in SAMPLE:
            assert nulls[f"opt_{k}"] is None
    # and after reopening, from the file
    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        assert r.object_for_primary_key("AllTypes", 1).to_dict() == _all_values(1)
        assert r.object_for_primary_key("AllTypes", 2).opt_date is None


@pytest.mark.parametrize("value", [D(0), D("-0"), D("-7.25"), D("1E-30"), D("12345678901234567890123456789012.34"),
                                   D("Infinity"), D("-Infinity"), D("9.999999999999999999999999999999999E+6144")])
def test_decimal_values_round_trip(realm_all, value):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "decimal128": value})
    got = obj.decimal128
    assert got == value and str(got) == str(value) and got.is_signed() == value.is_signed()


def test_decimal_nan_round_trips(realm_all):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "decimal128": D("NaN")})
    assert obj.decimal128.is_nan()


@pytest.mark.parametrize("value", [
    dt.datetime(1970, 1, 1, tzinfo=UTC),
    dt.datetime(1969, 7, 20, 20, 17, 40, 1, tzinfo=UTC),
    dt.datetime(1, 1, 1, tzinfo=UTC),
    dt.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
])
def test_datetimes_round_trip(realm_all, value):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "date": value})
    assert obj.date == value and obj.date.tzinfo is not None


def test_naive_datetime_is_utc_and_aware_is_converted(realm_all):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "date": dt.datetime(2020, 1, 1, 12, 0)})
        obj.opt_date = dt.datetime(2020, 1, 1, 14, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert obj.date == dt.datetime(2020, 1, 1, 12, 0, tzinfo=UTC)
    assert obj.opt_date == obj.date and obj.opt_date.utcoffset() == dt.timedelta(0)


def test_float_property_stores_single_precision(realm_all):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "float": 0.1})
    assert obj.float == struct.unpack("f", struct.pack("f", 0.1))[0]


def test_numeric_widening_int_to_double_and_float(realm_all):
    with realm_all.write():
        obj = realm_all.create("AllTypes", {**_all_values(1), "double": 5, "float": 3})
    assert obj.double == 5.0 and type(obj.double) is float
    assert obj.float == 3.0 and type(obj.float) is float


@pytest.fixture
def realm_all(open_realm, all_types_schema):
    return open_realm(all_types_schema)


# --------------------------------------------------------------------------- create / read / write


def test_create_and_access(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1, age=None))
    assert obj.id == 1 and obj["name"] == "name1" and obj.age is None and obj.score == 1.5
    assert obj.to_dict() == make_person(1, age=None)
    with realm.write():
        obj.age = 41
        obj["name"] = "Ann"
    assert (obj.age, obj.name) == (41, "Ann")
    assert realm.count("Person") == 1


def test_missing_optional_is_null_missing_required_raises(realm):
    with realm.write():
        obj = realm.create("Person", {"id": 1, "name": "a", "score": 1.0, "city": "c"})
        assert obj.age is None
        with pytest.raises(realmdb.MissingValueError) as info:
            realm.create("Person", {"id": 2, "name": "b", "city": "c"})  # no score
        assert info.value.code == realmdb.Status.MISSING_VALUE and info.value.message


def test_null_for_required_raises_not_nullable(realm, make_person):
    with realm.write():
        with pytest.raises(realmdb.NotNullableError):
            realm.create("Person", make_person(1, name=None))
        obj = realm.create("Person", make_person(2))
        with pytest.raises(realmdb.NotNullableError):
            obj.score = None


@pytest.mark.parametrize("prop,value", [("age", "forty"), ("age", True), ("age", 1.5), ("name", 5),
                                        ("score", "x"), ("score", True), ("name", b"bytes")])
def test_wrong_type_raises(realm, make_person, prop, value):
    with realm.write():
        with pytest.raises(realmdb.WrongTypeError) as info:
            realm.create("Person", make_person(1, **{prop: value}))
        assert isinstance(info.value, TypeError)
        obj = realm.create("Person", make_person(2))
        with pytest.raises(realmdb.WrongTypeError):
            setattr(obj, prop, value)
    assert obj[prop] == make_person(2)[prop]


def test_unknown_names(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
        with pytest.raises(AttributeError):
            obj.nope = 1
    with pytest.raises(AttributeError, match="'Person' object has no attribute 'nope'"):
        obj.nope
    with pytest.raises(KeyError):
        obj["nope"]
    assert not hasattr(obj, "nope")
    # No __getattr__ anywhere in an object's type: CPython reads every attribute of a type that
    # has one (each property, each slot of the row) through a lookup it cannot specialize.
    assert all("__getattr__" not in vars(cls) for cls in type(obj).__mro__)
    assert "age" in obj and "nope" not in obj
    assert "age" in dir(obj)
    with pytest.raises(realmdb.NotFoundError):
        realm.count("Nope")
    with pytest.raises(LookupError), realm.write():
        realm.create("Person", {**make_person(2), "nope": 1})
    with pytest.raises(LookupError), realm.write():
        realm.create("Nope", {})


def test_private_attributes_are_not_properties(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
    assert obj._realm is realm
    assert obj._meta.name == "Person"
    with pytest.raises(AttributeError):
        obj._no_such_private


def test_write_outside_transaction_raises(realm, make_person):
    with pytest.raises(realmdb.WrongTransactionStateError, match=r"with realm\.write\(\):"):
        realm.create("Person", make_person(1))
    with realm.write():
        obj = realm.create("Person", make_person(1))
    with pytest.raises(realmdb.WrongTransactionStateError) as info:
        obj.age = 5
    assert info.value.code == realmdb.Status.WRONG_TRANSACTION_STATE
    assert "realm.write()" in str(info.value) and "begin_write" not in str(info.value)
    with pytest.raises(realmdb.WrongTransactionStateError, match=r"realm\.write\(\)"):
        realm.delete(obj)
    with pytest.raises(realmdb.WrongTransactionStateError, match=r"realm\.write\(\)"):
        realm.commit()
    assert obj.age == 21


def test_changing_primary_key_is_a_logic_error(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
        with pytest.raises(realmdb.LogicError):
            obj.id = 2


# --------------------------------------------------------------------------- upsert


def test_upsert_modes(realm, make_person):
    with realm.write():
        first = realm.create("Person", make_person(1))
        with pytest.raises(realmdb.DuplicatePrimaryKeyError) as info:
            realm.create("Person", make_person(1, name="dup"))
        assert info.value.code == realmdb.Status.DUPLICATE_PRIMARY_KEY
        same = realm.create("Person", {"id": 1, "name": "modified"}, update="modified")
        assert same == first and same.name == "modified" and same.age == 21  # others untouched
        again = realm.create("Person", {"id": 1, "age": 99, "score": 0.5}, update="all")
        assert again == first and (again.age, again.score, again.name) == (99, 0.5, "modified")
        realm.create("Person", make_person(2), update="all")  # no existing object: creates
    assert realm.count("Person") == 2


def test_upsert_modified_writes_a_canonically_equivalent_string(realm, make_person):
    # 'é' and 'e' + U+0301 are different values (as for == in queries): the upsert must write it.
    with realm.write():
        realm.create("Person", make_person(1, name="\u00e9"))
        realm.create("Person", {"id": 1, "name": "e\u0301"}, update="modified")
    assert realm.object_for_primary_key("Person", 1).name == "e\u0301"


@pytest.mark.parametrize("update", ["yes", True, "ALL", 1, "none"])
def test_invalid_update_mode(realm, make_person, update):
    with realm.write():
        with pytest.raises(ValueError):
            realm.create("Person", make_person(1), update=update)
        with pytest.raises(ValueError):
            realm.create_many("Person", [make_person(1)], update=update)
    assert realm.count("Person") == 0


def test_class_without_primary_key(realm):
    with realm.write():
        a = realm.create("Note", {"text": "a"})
        b = realm.create("Note", {"text": "a"}, update="modified")  # no pk: just creates
    assert a != b and realm.count("Note") == 2 and a.stars is None
    with pytest.raises(realmdb.LogicError):
        realm.object_for_primary_key("Note", 1)


# --------------------------------------------------------------------------- create_many


def test_creates_from_one_shape_of_dict_share_one_creator(realm, make_person):
    # A create without an upsert goes through the realm's db_object_creator_t for the dict's
    # names (three ctypes arguments instead of eight): the same objects, errors and rollback.
    meta = realm._meta("Person")
    with realm.write():
        made = [realm.create("Person", make_person(i)) for i in range(5)]
        realm.create("Person", {"id": 100, "name": "n", "score": 1.0, "city": "c"})  # no age: a second shape
        assert len(meta.creators) == 2 and len(realm._creators) == 2
        with pytest.raises(realmdb.DuplicatePrimaryKeyError):
            realm.create("Person", make_person(3))
        with pytest.raises(LookupError):
            realm.create("Person", {**make_person(200), "nope": 1})
        assert len(meta.creators) == 2  # an unknown name makes no creator
        with pytest.raises(realmdb.WrongTypeError):
            realm.create("Person", {**make_person(201), "score": "high"})
        realm.create("Person", {**make_person(3), "name": "again"}, update="modified")  # upserts: general path
    assert [p.id for p in made] == list(range(5))
    assert realm.count("Person") == 6
    assert realm.object_for_primary_key("Person", 3).name == "again"
    assert realm.object_for_primary_key("Person", 100).age is None
    with pytest.raises(realmdb.RealmError):
        realm.freeze().create("Person", make_person(300))
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        realm.create("Person", make_person(301))  # through the creator made before the close


def test_creators_go_with_their_realm(tmp_realm_path, person_schema, make_person, run_python):
    result = run_python(f"""
        import gc, realmdb
        for round in range(3):
            realm = realmdb.open({tmp_realm_path!r}, {person_schema!r})
            with realm.write():
                realm.create("Person", {make_person(0)!r}, update="modified")
                realm.create("Person", dict({make_person(0)!r}, id=round + 1))
            assert len(realm._creators) == 1
            del realm
            gc.collect()
        realm = realmdb.open({tmp_realm_path!r}, {person_schema!r})
        print(realm.count("Person"))
        realm.close()
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "4"


def test_create_many_dicts_and_tuples(realm, make_person):
    with realm.write():
        assert realm.create_many("Person", [make_person(i) for i in range(100)]) == 100
        rows = [(i, f"t{i}", None if i % 2 else i, float(i), "c") for i in range(100, 200)]
        assert realm.create_many("Person", rows, properties=["id", "name", "age", "score", "city"]) == 100
        assert realm.create_many("Person", iter([[200, "x", 1, 2.0, "y"]]),
                                 properties=("id", "name", "age", "score", "city")) == 1
    assert realm.count("Person") == 201
    assert realm.object_for_primary_key("Person", 42).to_dict() == make_person(42)
    assert realm.object_for_primary_key("Person", 101).to_dict() == {
        "id": 101, "name": "t101", "age": None, "score": 101.0, "city": "c"}
    assert realm.object_for_primary_key("Person", 200).name == "x"


def test_create_many_mixed_value_types(realm):
    rows = [(1, "a", 1, 1.5, "c"), (2, "ü", None, 3, "c"), (3, "", 2**62, 2.0, "")]
    with realm.write():
        assert realm.create_many("Person", rows, ["id", "name", "age", "score", "city"]) == 3
    assert realm.object_for_primary_key("Person", 2).to_dict() == {
        "id": 2, "name": "ü", "age": None, "score": 3.0, "city": "c"}
    assert realm.object_for_primary_key("Person", 3).age == 2**62


def test_create_many_errors(realm, make_person):
    with realm.write():
        with pytest.raises(TypeError):
            realm.create_many("Person", [(1, "a")])  # tuples need `properties`
        with pytest.raises(ValueError):
            realm.create_many("Person", [(1, "a", 1, 1.0)], properties=["id", "name", "age", "score", "city"])
        with pytest.raises(ValueError):
            realm.create_many("Person", [make_person(1), {"id": 2}])
        with pytest.raises(LookupError):
            realm.create_many("Person", [(1,)], properties=["nope"])
        assert realm.create_many("Person", []) == 0
    with pytest.raises(realmdb.DuplicatePrimaryKeyError):
        with realm.write():
            realm.create_many("Person", [make_person(1), make_person(2), make_person(1)])
    assert realm.count("Person") == 0  # the whole write was cancelled
    with pytest.raises(realmdb.WrongTypeError), realm.write():
        realm.create_many("Person", [make_person(1), make_person(2, age="x")])


def test_create_many_upsert(realm, make_person):
    with realm.write():
        realm.create_many("Person", [make_person(i) for i in range(5)])
        realm.create_many("Person", [make_person(i, name="u") for i in range(3, 8)], update="modified")
        realm.create_many("Person", [(1, "all")], properties=["id", "name"], update="all")
    assert realm.count("Person") == 8
    assert [realm.object_for_primary_key("Person", i).name for i in range(8)] == \
        ["name0", "all", "name2", "u", "u", "u", "u", "u"]
    assert realm.object_for_primary_key("Person", 1).age == 21  # only the given properties


# --------------------------------------------------------------------------- a failed create leaves nothing

NESTED = [
    {"name": "Holder", "primary_key": "pk", "properties": {
        "pk": "int", "name": "string?", "tags": "string[]", "emb": "Item?", "items": "Item[]", "by_key": "Item?{}",
        "friend": "Holder?", "friends": "Holder[]", "labels": "string<>",
        "fans": {"type": "linkingObjects", "objectType": "Holder", "property": "friend"}}},
    {"name": "Item", "embedded": True, "properties": {"num": "int?", "sub": "Sub?", "subs": "Sub[]", "link": "Holder?"}},
    {"name": "Sub", "embedded": True, "properties": {"x": "int?", "to": "Holder?"}},
]


@pytest.fixture
def nested(open_realm):
    r = open_realm(NESTED)
    with r.write():
        r.create("Holder", {"pk": 1, "name": "one", "emb": {"num": 1, "subs": [{"x": 1}]}, "items": [{"num": 2}]})
    return r


def _everything(r) -> list:
    """What a failed create could have left: every object with its values, links and backlinks."""
    def show(v):
        if isinstance(v, realmdb.RealmObject):
            return {k: show(x) for k, x in v.to_dict().items()} if v._meta.embedded else ("Holder", v.pk)
        if isinstance(v, (list, realmdb.List)):
            return [show(x) for x in v]
        if isinstance(v, (set, realmdb.Set)):
            return sorted(map(repr, v))
        if isinstance(v, (dict, realmdb.Dictionary)):
            return {k: show(x) for k, x in v.items()}
        return v
    holders = [(h.pk, show(h.to_dict()), sorted(f.pk for f in h.fans)) for h in r.objects("Holder")]
    return [holders, r.count("Holder"), r.count("Item"), r.count("Sub")]


FAILING_CREATES = [
    pytest.param({"pk": 5, "emb": {"num": "x"}}, id="nested-embedded-value"),
    pytest.param({"pk": 5, "emb": {"nope": 1}}, id="nested-embedded-unknown-key"),
    pytest.param({"pk": 5, "tags": ["a", 1]}, id="list-element"),
    pytest.param({"pk": 5, "name": "n", "tags": ["a"], "items": [{"num": 1}, {"num": 2, "subs": [{"x": 1}, {"x": "deep"}]}]},
                 id="deep-in-a-list-of-embedded"),
    pytest.param({"pk": 5, "friend": {"pk": 6, "name": "new"}, "friends": [{"pk": 7}], "by_key": {"a": {"num": 1}},
                  "labels": {"x", 3}}, id="after-links-to-new-objects"),
    pytest.param({"pk": 5, "friend": {"pk": 1, "name": "renamed"}, "emb": {"sub": {"to": {"pk": 8}, "x": 1.5}}},
                 id="after-updating-a-linked-object"),
    pytest.param({"pk": 5, "emb": {"num": 1, "link": {"pk": 1}}, "items": [{"num": 1}], "by_key": {"k": {"num": b"x"}}},
                 id="in-the-last-property"),
]


@pytest.mark.parametrize("values", FAILING_CREATES)
def test_failed_create_leaves_nothing_behind(nested, values):
    """A create that raises, wherever its bad value is (a list, an embedded dict deep inside,
    after links to other objects were set or objects were made from dicts), leaves no object, no
    embedded objects, no links or backlinks; the write transaction goes on."""
    with nested.write():
        before = _everything(nested)
        with pytest.raises((realmdb.RealmError, KeyError)):
            nested.create("Holder", values)
        assert _everything(nested) == before
        assert nested.object_for_primary_key("Holder", 5) is None
        created = nested.create("Holder", {"pk": 5, "tags": ["a"], "emb": {"num": 3}})  # the write goes on
        assert created.tags == ["a"] and created.emb.num == 3
    assert nested.count("Holder") == 2 and nested.count("Item") == 3
    nested.check()


@pytest.mark.parametrize("update", ["modified", "all"])
def test_failed_upsert_leaves_the_existing_object_as_it_was(nested, update):
    with nested.write():
        before = _everything(nested)
        with pytest.raises(realmdb.WrongTypeError):
            nested.create("Holder", {"pk": 1, "name": "changed", "emb": {"num": 9}, "tags": ["ok", 2]}, update=update)
        assert _everything(nested) == before
        holder = nested.object_for_primary_key("Holder", 1)
        assert holder.name == "one" and holder.emb.num == 1 and [i.num for i in holder.items] == [2]


def test_failed_create_through_a_link_leaves_the_link_as_it_was(nested):
    """A dict assigned to a link creates its object first: when that fails, nothing changes."""
    with nested.write():
        holder = nested.object_for_primary_key("Holder", 1)
        before = _everything(nested)
        with pytest.raises(realmdb.NotNullableError):
            holder.friend = {"pk": 9, "emb": {"num": 1}, "tags": [None]}
        with pytest.raises(realmdb.WrongTypeError):
            holder.friends = [{"pk": 10}, {"pk": 11, "items": [{"num": "x"}]}]
        with pytest.raises(realmdb.WrongTypeError):
            holder.friends.append({"pk": 12, "tags": [1]})
        assert _everything(nested) == before


# --------------------------------------------------------------------------- delete, validity, identity


def test_object_for_primary_key(realm, make_person):
    assert realm.object_for_primary_key("Person", 7) is None
    with realm.write():
        realm.create("Person", make_person(7))
    obj = realm.object_for_primary_key("Person", 7)
    assert obj is not None and obj.name == "name7"
    assert realm.object_for_primary_key("Person", 8) is None


def test_object_for_primary_key_refuses_keys_it_cannot_hold(realm, make_person):
    with realm.write():
        realm.create("Person", make_person(-0x8000000000000000, age=1))
        realm.create("Person", make_person(0x7FFFFFFFFFFFFFFF, age=1))
    assert realm.object_for_primary_key("Person", -0x8000000000000000).id == -0x8000000000000000
    assert realm.object_for_primary_key("Person", 0x7FFFFFFFFFFFFFFF).id == 0x7FFFFFFFFFFFFFFF
    for beyond in (1 << 63, -(1 << 63) - 1, 1 << 200):
        with pytest.raises((OverflowError, realmdb.RealmError)):
            realm.object_for_primary_key("Person", beyond)
    for wrong in ("7", b"7", 7.5, 7.0, True, [7]):
        with pytest.raises(realmdb.WrongTypeError):
            realm.object_for_primary_key("Person", wrong)
    assert realm.object_for_primary_key("Person", None) is None  # no object has a null key
    with pytest.raises(realmdb.NotFoundError):
        realm.object_for_primary_key("Nobody", 1)
    with pytest.raises(realmdb.NotFoundError):
        realm.object_for_primary_key("Per\0son", 1)
    with pytest.raises(TypeError):
        realm.object_for_primary_key(7, 1)  # type: ignore[call-overload]
    with pytest.raises(realmdb.LogicError):
        realm.object_for_primary_key("Note", 1)  # no primary key
    found = realm.object_for_primary_key("Person", 0x7FFFFFFFFFFFFFFF)
    realm.close()
    with pytest.raises(realmdb.ClosedRealmError):
        realm.object_for_primary_key("Person", 1)
    with pytest.raises(realmdb.ClosedRealmError):
        found.name


def test_delete_and_is_valid(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1))
        other = realm.create("Person", make_person(2))
    same = realm.object_for_primary_key("Person", 1)
    assert obj.is_valid and same.is_valid
    with realm.write():
        realm.delete(obj)
    assert not obj.is_valid and not same.is_valid and other.is_valid
    with pytest.raises(realmdb.InvalidatedError) as info:
        obj.name
    assert info.value.code == realmdb.Status.INVALIDATED
    with pytest.raises(realmdb.InvalidatedError):
        obj.to_dict()
    assert realm.object_for_primary_key("Person", 1) is None and realm.count("Person") == 1
    assert "invalid" in repr(obj)


def test_objects_invalid_after_close(tmp_realm_path, person_schema, make_person):
    r = realmdb.open(tmp_realm_path, person_schema)
    with r.write():
        obj = r.create("Person", make_person(1))
    r.close()
    assert r.is_closed and not obj.is_valid
    with pytest.raises(realmdb.InvalidatedError):
        obj.name
    with pytest.raises(realmdb.InvalidatedError):
        r.count("Person")


def test_equality_and_hash(realm, make_person):
    with realm.write():
        a = realm.create("Person", make_person(1))
        b = realm.create("Person", make_person(2))
    a2 = realm.object_for_primary_key("Person", 1)
    assert a == a2 and a is not a2 and hash(a) == hash(a2)
    assert a != b and not (a == b)
    assert len({a, a2, b}) == 2
    assert a != "Person 1"


def test_equality_across_realm_handles(tmp_realm_path, person_schema, make_person, realm):
    with realm.write():
        a = realm.create("Person", make_person(1))
    with realmdb.open(tmp_realm_path, person_schema) as other:
        a_other = other.object_for_primary_key("Person", 1)
        assert a_other == a and hash(a_other) == hash(a)


def test_repr_uses_description(realm, make_person):
    with realm.write():
        obj = realm.create("Person", make_person(1, name="Ann"))
    text = repr(obj)
    assert "Person" in text and "Ann" in text


def test_the_realm_of_objects_collections_and_sections(tmp_path):
    """``realm`` (the seeds' member) on objects, lists and sections: the realm they belong to, a
    frozen one for frozen objects; a schema property named ``realm`` keeps its name."""
    realm = realmdb.open(str(tmp_path / "r.realm"), [
        {"name": "A", "properties": {"realm": "string", "n": "int"}},
        {"name": "C", "properties": {"n": "int", "tags": "string[]"}},
    ])
    try:
        with realm.write():
            a = realm.create("A", {"realm": "mine", "n": 1})
            c = realm.create("C", {"n": 1, "tags": ["x"]})
            a.realm = "changed"
        assert a.realm == "changed" and a["realm"] == "changed"
        assert c.realm is realm
        assert c.tags.realm is realm
        assert realm.objects("C").sectioned("n").realm is realm
        assert c.realm.objects("C")[0] == c
        frozen = realm.freeze()
        try:
            frozen_c = frozen.objects("C")[0]
            assert frozen_c.realm is frozen and frozen_c.realm.is_frozen
            assert frozen_c.tags.realm is frozen
        finally:
            frozen.close()
    finally:
        realm.close()
