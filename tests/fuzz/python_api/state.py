"""The realm the inputs run on (reused across inputs), a second realm, and the objects every input
starts with (``fixture``)."""
from __future__ import annotations

import datetime as dt
import decimal
import gc
import os
import shutil
import tempfile
import uuid
from typing import Any, Dict, List, Optional, Tuple

import realmdb
from realmdb import ObjectId, RealmObject

from python_api.policy import EXPECTED, MAX_FILE_BYTES, RESET_EVERY
from python_api.schema import SCHEMA, TOP_CLASSES
from python_api.values import UTC


class State:
    """The realm (reused across inputs), a second realm file (for objects of another realm)."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="realmdb-fuzz-", dir=os.environ.get("REALMDB_FUZZ_TMP") or None)
        self.generation = 0
        self.inputs = 0
        self.realm: Any = None
        self.other: Any = None
        self._other_obj: Any = None
        self.open_fresh()

    @property
    def path(self) -> str:
        return os.path.join(self.dir, f"fuzz-{self.generation}.realm")

    def open_fresh(self) -> None:
        """Close everything and start on a new, empty file."""
        self.close()
        self.generation += 1
        for name in os.listdir(self.dir):
            try:
                os.remove(os.path.join(self.dir, name))
            except OSError:
                pass
        self.realm = realmdb.open(self.path, SCHEMA)
        self.other = realmdb.open(os.path.join(self.dir, f"other-{self.generation}.realm"), SCHEMA)
        with self.other.write():
            self.other.create("Target", {"id": 1, "name": "other realm"})
        self._other_obj = self.other.object_for_primary_key("Target", 1)

    def other_object(self) -> Any:
        return self._other_obj

    def close(self) -> None:
        for r in (self.realm, self.other):
            if r is not None:
                try:
                    if not r.is_closed and r.in_write:
                        r.cancel_write()
                    r.close()
                except EXPECTED:
                    pass
        self.realm = self.other = self._other_obj = None
        gc.collect()

    def prepare(self) -> List[RealmObject]:
        """Before each input: an open realm, not in a write, holding only the FIXTURE objects
        (returned: the input starts with them)."""
        self.inputs += 1
        realm = self.realm
        too_big = False
        try:
            too_big = os.path.getsize(self.path) > MAX_FILE_BYTES
        except OSError:
            pass
        if realm is None or realm.is_closed or too_big or self.inputs % RESET_EVERY == 0:
            self.open_fresh()
            realm = self.realm
        if realm.in_write:
            realm.cancel_write()
        realm.refresh()
        with realm.write():
            for c in TOP_CLASSES:
                realm.objects(c).delete_all()
            return [realm.create(cls, values) for cls, values in fixture()]

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def fixture() -> List[Tuple[str, Dict[str, Any]]]:
    """The objects every input starts with: every property set, every collection filled."""
    t1 = {"id": 1, "name": "t1", "score": 1.5}
    t2 = {"id": 2, "name": "t2", "score": None, "next": {"id": 1}}
    full = {
        "pk": 1, "r_bool": True, "r_int": 7, "r_float": 2.5, "r_double": -0.5, "r_string": "héllo\0x",
        "r_data": b"\0\xff", "r_date": dt.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
        "r_objectId": ObjectId(b"0123456789ab"), "r_uuid": uuid.UUID(int=5), "r_decimal128": decimal.Decimal("1.25"),
        "o_int": None, "o_string": "opt", "o_double": float("nan"), "idx_s": "a", "idx_i": 3, "any": "mixed",
        "link": {"id": 1}, "emb": {"text": "e", "num": 1, "nums": [1, 2]},
        "ints": [3, 1, 2], "ostrs": ["a", None, "b"], "dbls": [1.5, float("nan"), -0.0],
        "dates": [None, dt.datetime(1970, 1, 1, tzinfo=UTC)], "mixeds": [1, "a", None, 2.5, b"b"],
        "targets": [{"id": 1}, {"id": 2}, {"id": 1}], "emb_list": [{"num": 1}, {"num": 2, "inner": {"id": 2}}],
        "tags": {"a", "b"}, "onums": {1, None}, "mixed_set": {1, "x"}, "target_set": [{"id": 2}],
        "meta": {"k": "v", "a": ""}, "onum_map": {"a": 1, "b": None}, "mixed_map": {"k": 1, "s": "t"},
        "target_map": {"k": {"id": 1}, "n": None}, "emb_map": {"k": {"num": 3}},
    }
    minimal = {"pk": 2, "r_bool": False, "r_int": -1, "r_float": 0.0, "r_double": 1e300, "r_string": "",
               "r_data": b"", "r_date": dt.datetime(1970, 1, 1), "r_objectId": ObjectId(b"\0" * 12),
               "r_uuid": uuid.UUID(int=0), "r_decimal128": decimal.Decimal("-0")}
    return [("Target", t1), ("Target", t2), ("Holder", full), ("Holder", minimal),
            ("Keyed", {"key": "a", "v": 1}), ("Loose", {"s": "x", "n": 2, "f": 1.5})]


_STATE: Optional[State] = None


def get_state() -> State:
    global _STATE
    if _STATE is None:
        _STATE = State()
    return _STATE


def reset_state() -> None:
    """Forget the realm (the next input starts on a new file): used between replayed inputs."""
    global _STATE
    if _STATE is not None:
        _STATE.remove()
    _STATE = None
