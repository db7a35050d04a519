"""A Realm.create() that raises leaves the new object, half filled, in the write transaction:
the error comes from a value set after the object was made (a collection element, a nested
embedded dict). Committing then stores it. Expected: a failed create() leaves nothing (or the
docs say so, as they do for create_many)."""
import os, tempfile
import realmdb

schema = [{"name": "Holder", "primary_key": "pk", "properties": {"pk": "int", "emb": "Item?", "tags": "string[]"}},
          {"name": "Item", "embedded": True, "properties": {"num": "int?"}}]
realm = realmdb.open(os.path.join(tempfile.mkdtemp(), "r.realm"), schema)
with realm.write():
    for values in ({"pk": 5, "emb": {"num": "x"}}, {"pk": 6, "tags": ["a", 1]}):
        try:
            realm.create("Holder", values)
        except realmdb.RealmError as e:
            print(values, "->", type(e).__name__, e)
print("objects left by the failed creates:", [h.to_dict() for h in realm.objects("Holder")])  # expected []
