"""An aware datetime whose UTC instant falls outside years 1..9999 is accepted by every write
(property, list, dictionary, create), but every later read of it raises OutOfRangeError, so the
object can no longer be read whole (to_dict(), iteration of the list). Expected: the write is refused
(OutOfRangeError / InvalidArgumentError naming the value), or the value reads back."""
import datetime as dt, os, tempfile
import realmdb

schema = [{"name": "T", "primary_key": "id", "properties": {"id": "int", "when": "date?", "any": "mixed"}}]
realm = realmdb.open(os.path.join(tempfile.mkdtemp(), "r.realm"), schema)
late = dt.datetime(9999, 12, 31, 23, 0, tzinfo=dt.timezone(dt.timedelta(hours=-1)))  # 10000-01-01 00:00 UTC
early = dt.datetime(1, 1, 1, 0, 30, tzinfo=dt.timezone(dt.timedelta(hours=1)))       # year 0 in UTC
with realm.write():
    t = realm.create("T", {"id": 1, "when": late, "any": early})  # accepted
for name in ("when", "any"):
    try:
        print(name, getattr(t, name))
    except realmdb.RealmError as e:
        print(name, type(e).__name__, e)  # OutOfRangeError: ... outside the years 1 to 9999 ...
