"""The fuzzed realm's schema: every property type, lists, sets, dictionaries, links, backlinks and
embedded objects; and, per property, its kind (collection, base type, optional)."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

SCALARS = ["bool", "int", "float", "double", "string", "data", "date", "objectId", "uuid", "decimal128"]

SCHEMA: List[Dict[str, Any]] = [
    {
        "name": "Holder",
        "primary_key": "pk",
        "properties": {
            "pk": "int",
            **{f"r_{t}": t for t in SCALARS},
            **{f"o_{t}": f"{t}?" for t in SCALARS},
            "idx_s": {"type": "string?", "indexed": True},
            "idx_i": {"type": "int?", "indexed": True},
            "any": "mixed",
            "link": "Target?",
            "emb": "Embedded?",
            # lists
            "ints": "int[]",
            "ostrs": "string?[]",
            "dbls": "double[]",
            "dates": "date?[]",
            "mixeds": "mixed[]",
            "targets": "Target[]",
            "emb_list": "Embedded[]",
            # sets
            "tags": "string<>",
            "onums": "int?<>",
            "mixed_set": "mixed<>",
            "target_set": "Target<>",
            # dictionaries
            "meta": "string{}",
            "onum_map": "int?{}",
            "mixed_map": "mixed{}",
            "target_map": "Target?{}",
            "emb_map": "Embedded?{}",
        },
        "indexes": [["r_int", "r_string"], ["idx_s", "idx_i"]],
    },
    {
        "name": "Target",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": "string?",
            "score": "double?",
            "next": "Target?",
            "holders": {"type": "linkingObjects", "objectType": "Holder", "property": "targets"},
        },
    },
    {"name": "Embedded", "embedded": True,
     "properties": {"text": "string?", "num": "int?", "inner": "Target?", "nums": "int[]"}},
    {"name": "Loose", "properties": {"s": "string?", "n": "int?", "d": "date?", "f": "float"}},
    {"name": "Keyed", "primary_key": "key", "properties": {"key": "string", "v": "int?", "oid": "objectId?"}},
]

CLASSES = [c["name"] for c in SCHEMA]
PRIMARY_KEYS: Dict[str, str] = {c["name"]: c["primary_key"] for c in SCHEMA if c.get("primary_key")}
TOP_CLASSES = [c["name"] for c in SCHEMA if not c.get("embedded")]
PROPS: Dict[str, List[str]] = {c["name"]: list(c["properties"]) for c in SCHEMA}


def _type_text(cls: str, prop: str) -> str:
    spec = next(c for c in SCHEMA if c["name"] == cls)["properties"][prop]
    return spec if isinstance(spec, str) else spec["type"]


def _kind(type_text: str) -> Tuple[str, str, bool]:
    """(collection: "" / "list" / "set" / "dict" / "backlinks", base type, optional)."""
    if type_text == "linkingObjects":
        return "backlinks", "Holder", False
    coll = {"[]": "list", "<>": "set", "{}": "dict"}.get(type_text[-2:], "")
    elem = type_text[:-2] if coll else type_text
    opt = elem.endswith("?")
    base = elem[:-1] if opt else elem
    return coll, base, opt or base == "mixed"


KIND: Dict[Tuple[str, str], Tuple[str, str, bool]] = {
    (c, p): _kind(_type_text(c, p)) for c in CLASSES for p in PROPS[c]}
COLLECTION_PROPS: Dict[str, Dict[str, List[str]]] = {
    coll: [(c, p) for (c, p), k in KIND.items() if k[0] == coll] for coll in ("list", "set", "dict")}  # type: ignore
