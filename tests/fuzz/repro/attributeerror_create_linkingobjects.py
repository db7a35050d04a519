"""Realm.create() given a value for a linkingObjects property raises AttributeError (not a
RealmError/TypeError/ValueError), so `except realmdb.RealmError` does not catch it. An unknown
property name in the same dict raises NotFoundError. Expected: a RealmError subclass (e.g.
InvalidArgumentError or LogicError: "Dog.owners is computed from links ...")."""
import os, tempfile
import realmdb

schema = [{"name": "Person", "primary_key": "id", "properties": {"id": "int", "dogs": "Dog[]"}},
          {"name": "Dog", "primary_key": "id", "properties": {
              "id": "int", "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}}}]
realm = realmdb.open(os.path.join(tempfile.mkdtemp(), "r.realm"), schema)
with realm.write():
    try:
        realm.create("Dog", {"id": 1, "nope": 1})
    except realmdb.RealmError as e:
        print("unknown property:", type(e).__name__, e)
    try:
        realm.create("Dog", {"id": 1, "owners": []})
    except realmdb.RealmError as e:
        print("linkingObjects:", type(e).__name__, e)
    except AttributeError as e:
        print("linkingObjects: AttributeError (not a RealmError):", e)
