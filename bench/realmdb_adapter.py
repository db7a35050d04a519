"""realmdb adapter for the peer benchmark (../shared/bench/peers.py, see its module docstring).

Run with ``bench/run_peers.sh --n 100000`` (sets PYTHONPATH and ``--ours realmdb_adapter``).

Inserts go through the public ``Realm.create_many`` (one C call for all rows).
Point reads and deletes use the public API to open the realm and look up keys,
then call the C functions of ``realmdb._ffi`` directly with precomputed
class/property keys and reused value buffers: point reads through one
db_object_reader_t (the lookup and the row in one call per object). Deletes go
through ``filter("id IN $0", ids).delete_all()``, the batch delete.

Query phases (c-g) use the public ``Results`` API, building a new query on every
call (no results are reused across the 20 repetitions, so each call parses the
query and evaluates it): counts and aggregates run in the library without
materializing objects, and ids/fields come back through ``Results.values`` (the
batch read, 4096 values per C call). The update phase (h) reads every key and
score in two batch calls, then sets each object's score through its key.
"""
from __future__ import annotations

import ctypes
import os
import struct
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_BINDING = os.path.normpath(os.path.join(_HERE, "..", "bindings", "python"))
if _BINDING not in sys.path:
    sys.path.insert(0, _BINDING)

import realmdb  # noqa: E402
from realmdb import _ffi  # noqa: E402
from realmdb._ffi import ValueType, db_value_t  # noqa: E402

PROPS = ("id", "name", "age", "score", "city")
SCHEMA = [
    {
        "name": "Person",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": {"type": "string", "indexed": True},
            "age": "int",
            "score": "double",
            "city": "string",
        },
        # The same indexes as the sqlite peer: name, (age, name), (city, age).
        "indexes": [["age", "name"], ["city", "age"]],
    }
]

# The five values of a Person as returned by db_object_get_values, in PROPS order:
# tag, id | tag, name ptr, name size | tag, age | tag, score | tag, city ptr, city size
_ROW = struct.Struct("=I4xq8x" "I4xQQ" "I4xq8x" "I4xd8x" "I4xQQ")
_EXPECTED_TAGS = (ValueType.INT, ValueType.STRING, ValueType.INT, ValueType.DOUBLE, ValueType.STRING)


class Adapter:
    """The benchmark's adapter contract, implemented with the realmdb Python binding."""

    name = "realmdb-batch"
    notes = {
        "a": "create_many: 1 C call, values packed column-wise",
        "b": "db_object_reader_find: lookup + row in 1 C call/object",
        "c": "len(filter('age > $0')): counted in place",
        "d": "filter('age BETWEEN {$0, $1} AND city == $2').values('id'): (city, age) index",
        "e": "filter('name BEGINSWITH $0').values('id')",
        "f": "Results.sum + Results.average (2 column scans)",
        "g": "sorted([age, name]).limit(n): reads the (age, name) index + 3x values()",
        "h": "values('score') + set_values('score', ...): one batch read, one batch write",
        "i": "filter('id IN $0', ids).delete_all(): 1 query + 1 delete call",
        "j": "realm.count()",
    }

    def __init__(self) -> None:
        self.realm = None
        self.path = None
        self._max_id = 0

    def version(self) -> str:
        return f"realmdb {realmdb.__version__} (python ctypes binding; {os.path.basename(realmdb.LIBRARY_PATH)} " \
               f"from {os.path.dirname(realmdb.LIBRARY_PATH)})"

    # -- lifecycle ---------------------------------------------------------

    def _open(self) -> None:
        realm = realmdb.open(self.path, SCHEMA)
        self.realm = realm
        meta = realm._meta("Person")
        self._h = realm._h()
        self._class_key = meta.key
        self._keys = (_ffi.db_property_key_t * 5)(*(meta.key_of[p] for p in PROPS))
        self._score_key = meta.key_of["score"]

    def open(self, dirpath: str) -> None:
        self.path = os.path.join(dirpath, "bench.realm")
        self._open()

    def close(self) -> None:
        if self.realm is not None:
            self.realm.close()
            self.realm = None
            self._h = None

    def count(self) -> int:
        return self.realm.count("Person")

    # -- phases ------------------------------------------------------------

    def insert(self, rows) -> int:
        with self.realm.write():
            n = self.realm.create_many("Person", rows, properties=PROPS)
        self._max_id = max(self._max_id, max((r[0] for r in rows), default=0))
        return n

    def read_by_ids(self, ids):
        # One db_object_reader_t for the five properties: a lookup and the read of the row in one
        # call of four arguments, into the reader's memory (five values, then their strings).
        reader = _ffi.lib.db_object_reader_new(self._h, self._class_key, self._keys, 5, 256)
        try:
            base = ctypes.addressof(_ffi.lib.db_object_reader_values(reader).contents)
            memory = (ctypes.c_char * (_ROW.size + 256)).from_address(base)
            find = _ffi.addressed.db_object_reader_find
            handle = ctypes.cast(reader, ctypes.c_void_p).value
            pk = db_value_t()
            pk.type = ValueType.INT
            key, found = ctypes.c_int64(), ctypes.c_bool()
            pk_at, key_at, found_at = ctypes.addressof(pk), ctypes.addressof(key), ctypes.addressof(found)
            string_at, unpack = ctypes.string_at, _ROW.unpack_from
            result = []
            append = result.append
            for i in ids:
                pk.integer = i
                status = find(handle, pk_at, key_at, found_at)
                if status:
                    _ffi.raise_last_error(status)
                if not found.value:
                    continue
                raw = memory.raw
                t0, id_, t1, np, nl, t2, age, t3, score, t4, cp, cl = unpack(raw)
                if (t0, t1, t2, t3, t4) != _EXPECTED_TAGS:
                    raise AssertionError(f"unexpected value types {(t0, t1, t2, t3, t4)}")
                name = raw[np - base:np - base + nl] if base <= np < base + len(raw) else string_at(np, nl)
                city = raw[cp - base:cp - base + cl] if base <= cp < base + len(raw) else string_at(cp, cl)
                append((id_, name.decode(), age, score, city.decode()))
            return result
        finally:
            _ffi.lib.db_object_reader_release(reader)

    def update_scores_add(self, delta: float) -> int:
        with self.realm.write():
            everyone = self.realm.objects("Person")
            # One batch read and one batch write of the scores (the same positions: the results
            # are unsorted and the write does not change which objects they hold).
            scores = everyone.values("score")
            everyone.set_values("score", [score + delta for score in scores])
        return len(scores)

    def delete_ids(self, ids) -> int:
        # The batch delete: the objects of the ids found through the primary-key index in one
        # query, deleted in one call (Results.delete_all).
        with self.realm.write():
            return self.realm.objects("Person").filter("id IN $0", list(ids)).delete_all()

    def reopen_count(self) -> int:
        self.close()
        self._open()
        return self.count()

    # -- queries -------------------------------------------------------------

    def count_age_gt(self, age):
        return len(self.realm.objects("Person").filter("age > $0", age))

    def ids_age_between_city(self, lo, hi, city):
        return self.realm.objects("Person").filter("age BETWEEN {$0, $1} AND city == $2", lo, hi, city).values("id")

    def ids_name_prefix(self, prefix):
        return self.realm.objects("Person").filter("name BEGINSWITH $0", prefix).values("id")

    def sum_avg_score(self):
        everyone = self.realm.objects("Person")
        return everyone.sum("score"), everyone.average("score")

    def top_by_age_name(self, limit):
        top = self.realm.objects("Person").sorted([("age", True), ("name", True)]).limit(limit)
        return list(zip(top.values("id"), top.values("age"), top.values("name")))


class IdiomaticAdapter(Adapter):
    """realmdb written as the README teaches, one object at a time: ``realm.create`` per row,
    ``object_for_primary_key`` and attribute reads, a loop over Results that assigns each
    object's score, ``filter("id IN $0", ids).delete_all()``. Only public API."""

    name = "realmdb-idiomatic"
    notes = {
        "a": "realm.create('Person', {...}) per object, one write()",
        "b": "object_for_primary_key + 5 attribute reads",
        "c": "len(filter('age > $0'))",
        "d": "filter(...).values('id')",
        "e": "filter('name BEGINSWITH $0').values('id')",
        "f": "Results.sum + Results.average",
        "g": "sorted([...]).limit(n), then 3 attributes of each object",
        "h": "for o in objects('Person'): o.score = o.score + delta",
        "i": "filter('id IN $0', ids).delete_all()",
        "j": "realm.count()",
    }

    def insert(self, rows) -> int:
        realm = self.realm
        create = realm.create
        with realm.write():
            for id_, name, age, score, city in rows:
                create("Person", {"id": id_, "name": name, "age": age, "score": score, "city": city})
        return len(rows)

    def read_by_ids(self, ids):
        find = self.realm.object_for_primary_key
        result = []
        for i in ids:
            person = find("Person", i)
            if person is not None:
                result.append((person.id, person.name, person.age, person.score, person.city))
        return result

    def top_by_age_name(self, limit):
        top = self.realm.objects("Person").sorted([("age", True), ("name", True)]).limit(limit)
        return [(person.id, person.age, person.name) for person in top]

    def update_scores_add(self, delta: float) -> int:
        updated = 0
        with self.realm.write():
            for person in self.realm.objects("Person"):
                person.score = person.score + delta
                updated += 1
        return updated

    def delete_ids(self, ids) -> int:
        with self.realm.write():
            return self.realm.objects("Person").filter("id IN $0", list(ids)).delete_all()


MODES = {"batch": Adapter, "idiomatic": IdiomaticAdapter}


def make_adapter() -> Adapter:
    """Entry point used by peers.py (--ours realmdb_adapter); REALMDB_BENCH_MODE picks the
    mode: batch (default) or idiomatic (bench/run_peers.sh --mode)."""
    mode = os.environ.get("REALMDB_BENCH_MODE", "batch")
    if mode not in MODES:
        raise SystemExit(f"REALMDB_BENCH_MODE={mode!r}: expected one of {', '.join(MODES)}")
    return MODES[mode]()
