"""Objects as JSON records (realmdb/records.py), from Python: ``realmdb.to_record``. The command's
export and import (tests/test_cli.py) drive the rest of the module."""
from __future__ import annotations

import datetime as dt
import json

import pytest

import realmdb

SCHEMA = [
    {"name": "Address", "embedded": True, "properties": {"street": "string"}},
    {"name": "Person", "primary_key": "id",
     "properties": {"id": "int", "name": "string", "born": "date?", "photo": "data?",
                    "home": "Address?", "friend": "Person?", "tags": "string<>"}},
]


def test_to_record_is_what_json_takes(open_realm):
    realm = open_realm(SCHEMA)
    with realm.write():
        ann = realm.create("Person", {"id": 1, "name": "Ann", "home": {"street": "Main"}, "tags": {"a"},
                                      "born": dt.datetime(1990, 1, 2, tzinfo=dt.timezone.utc), "photo": b"\x01"})
        bob = realm.create("Person", {"id": 2, "name": "Bob", "friend": ann})
    with pytest.raises(TypeError):
        json.dumps(bob.to_dict())  # links stay objects there
    record = realmdb.to_record(bob)
    assert json.loads(json.dumps(record)) == record and record["friend"] == 1
    nested = realmdb.to_record(bob, depth=1)["friend"]
    assert nested["home"] == {"street": "Main"} and nested["tags"] == ["a"]
    assert nested["born"] == "1990-01-02T00:00:00+00:00" and nested["photo"] == "AQ=="
    for bad in (-1, 1.5, True, "1"):
        with pytest.raises((ValueError, TypeError)):
            realmdb.to_record(bob, depth=bad)
    with pytest.raises(TypeError):
        realmdb.to_record({"id": 1})


def test_to_dict_with_a_depth_is_the_record(open_realm):
    realm = open_realm(SCHEMA)
    with realm.write():
        ann = realm.create("Person", {"id": 1, "name": "Ann", "photo": b"\x00\xff"})
        bob = realm.create("Person", {"id": 2, "name": "Bob", "friend": ann})
    assert isinstance(bob.to_dict()["friend"], realmdb.RealmObject)
    assert bob.to_dict(depth=0) == realmdb.to_record(bob) and bob.to_dict(depth=0)["friend"] == 1
    nested = bob.to_dict(depth=1)
    assert json.loads(json.dumps(nested)) == nested
    assert nested["friend"]["name"] == "Ann" and nested["friend"]["photo"] == "AP8="
    for bad in (-1, 2.0, "1"):
        with pytest.raises((ValueError, TypeError)):
            bob.to_dict(depth=bad)
