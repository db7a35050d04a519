"""A mixed set holding an int, a string and Decimals is not kept in one consistent order
(Decimals sort after strings here, but among the numbers elsewhere), so lookups that rely on the
order miss elements: `1 in s` is False while iteration shows 1, and s.add(1) stores a second 1.
Expected: `1 in s` is True and the set never holds the same value twice."""
import decimal, os, tempfile
import realmdb

schema = [{"name": "T", "primary_key": "id", "properties": {"id": "int", "tags": "mixed<>"}}]
realm = realmdb.open(os.path.join(tempfile.mkdtemp(), "r.realm"), schema)
with realm.write():
    t = realm.create("T", {"id": 1})
    for v in (1, "x", decimal.Decimal(0), decimal.Decimal(-5)):
        t.tags.add(v)
print(list(t.tags), 1 in t.tags)   # [1, 'x', Decimal('-5'), Decimal('0')] False
with realm.write():
    t.tags.add(1)
print(list(t.tags))                 # [1, 'x', Decimal('-5'), 1]: 1 is there twice
