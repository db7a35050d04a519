"""Assigning a dict to an embedded-object property (or list element, or dictionary value) that
fails raises, but the old embedded object has already been replaced by a new, empty one: its
values are lost (committed if the caller goes on). Expected: the failed assignment changes nothing
(as the binding does for every other bad value)."""
import os, tempfile
import realmdb

schema = [{"name": "Holder", "primary_key": "pk",
           "properties": {"pk": "int", "emb": "Item?", "items": "Item[]", "by_key": "Item?{}"}},
          {"name": "Item", "embedded": True, "properties": {"num": "int?"}}]
realm = realmdb.open(os.path.join(tempfile.mkdtemp(), "r.realm"), schema)
with realm.write():
    h = realm.create("Holder", {"pk": 1, "emb": {"num": 1}, "items": [{"num": 2}], "by_key": {"k": {"num": 3}}})
with realm.write():
    for action in (lambda: setattr(h, "emb", {"nope": 1}),              # KeyError: 'nope'
                   lambda: h.items.__setitem__(0, {"num": "x"}),        # WrongTypeError
                   lambda: h.by_key.__setitem__("k", {"num": "x"})):    # WrongTypeError
        try:
            action()
        except (KeyError, realmdb.RealmError) as e:
            print(type(e).__name__, e)
print(h.emb.num, h.items[0].num, h.by_key["k"].num)  # None None None, expected 1 2 3
