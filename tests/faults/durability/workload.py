"""The deterministic workload: the state after commit k is a function of k (``expected_state``).

Commit i creates Item i, rewrites up to three earlier items (every 25th commit all thirty most
recent ones), deletes the items whose time has come and sets the Counter singleton.
"""
from __future__ import annotations

import functools
import hashlib
import random
from typing import Any, Dict, List

SCHEMA = [
    {"name": "Item", "primary_key": "id",
     "properties": {"id": "int", "rev": "int", "payload": "string",
                    "tag": {"type": "string", "indexed": True}}},
    {"name": "Counter", "primary_key": "id",
     "properties": {"id": "int", "value": "int", "live": "int", "revsum": "int"}},
]
TAGS = [f"t{n}" for n in range(7)]
LIFETIME = 40        # item j is deleted by commit j + LIFETIME - (7 j mod 10)
UPDATE_WINDOW = 30   # commit i rewrites items among the UPDATE_WINDOW before it


def deletion_commit(j: int) -> int:
    return j + LIFETIME - (j * 7) % 10


@functools.lru_cache(maxsize=4096)
def updated_by(i: int) -> frozenset:
    """The earlier items commit i rewrites (all alive before it: deletion_commit(j) > i)."""
    candidates = range(max(1, i - UPDATE_WINDOW), i)
    if i % 25 == 0:
        return frozenset(candidates)
    return frozenset(random.Random(i).sample(candidates, min(3, len(candidates))))


def deleted_by(i: int) -> List[int]:
    return [j for j in range(max(1, i - LIFETIME), i) if deletion_commit(j) == i]


def expected_state(k: int) -> Dict[int, int]:
    """Live items after commit k: id -> revision (the commit that last wrote it)."""
    state = {}
    for j in range(max(1, k - LIFETIME), k + 1):
        if deletion_commit(j) > k:
            rev = j
            for i in range(j + 1, min(k, j + UPDATE_WINDOW) + 1):
                if j in updated_by(i):
                    rev = i
            state[j] = rev
    return state


def payload(j: int, rev: int) -> str:
    size = (j * 31 + rev * 17) % 200 + (3000 + (j * rev) % 5000 if (j + rev) % 11 == 0 else 0)
    unit = f"{j}:{rev}:{hashlib.blake2b(f'{j}/{rev}'.encode(), digest_size=6).hexdigest()};"
    return (unit * (size // len(unit) + 1))[:size]


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def item_values(j: int, rev: int) -> Dict[str, Any]:
    return {"id": j, "rev": rev, "payload": payload(j, rev), "tag": TAGS[rev % 7]}
