"""Objects as records of JSON values, both ways: what ``realmdb export`` writes and ``realmdb
import`` reads (see :mod:`realmdb.cli`).

A record is a dict of property values as JSON holds them: dates in ISO 8601, binary data in base64,
object ids, UUIDs and decimals as strings, lists and sets as lists, dictionaries as objects,
embedded objects nested, and a link as the linked object's primary key (its object key, for a class
without one) or, ``depth`` levels deep, as the linked object's own record. linkingObjects
properties are computed, not stored: left out.

Importing reads a record with the realm's schema: each value is checked against its property's
type and converted, and a link given as a primary key is found in the realm (or among the records
imported with it), a link given as a record is created or, by primary key, updated. Objects of a
class without a primary key are always created anew. A mixed value comes back as the JSON value
it was exported as (a date in a mixed property returns as its ISO 8601 string).
"""
from __future__ import annotations

import base64
import binascii
import datetime as _dt
import decimal
import json
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from .errors import RealmError
from .object import RealmObject, record_of
from .objectid import ObjectId
from .realm import Realm

class RecordError(ValueError):
    """A record that does not fit the schema; the message says where (``Person[3].age: ...``)."""


# -- export --------------------------------------------------------------------------------------


def to_record(obj: RealmObject, depth: int = 0) -> Dict[str, Any]:
    """An object as a record that ``json.dumps`` takes (``RealmObject.to_dict`` keeps links as
    objects): links as primary keys, or as records ``depth`` levels deep; embedded objects nested.
    ``realmdb export`` writes objects this way."""
    if not isinstance(obj, RealmObject):
        raise TypeError(f"to_record() takes a RealmObject, not {type(obj).__name__}")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ValueError(f"depth must be an int, 0 or more, not {depth!r}")
    return record_of(obj, depth)


def cell(value: Any) -> str:
    """A record's value in a table or CSV cell: text as it is, anything structured as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


# -- import --------------------------------------------------------------------------------------


def _date(text: Any) -> _dt.datetime:
    value = _dt.datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    return value if value.tzinfo is not None else value.replace(tzinfo=_dt.timezone.utc)


def _data(text: Any) -> bytes:
    return base64.b64decode(text, validate=True)


#: By type name, the JSON types a value of the property may have and its conversion.
_SCALARS: Dict[str, Any] = {
    "int": ((int,), int),
    "bool": ((bool,), bool),
    "float": ((int, float), float),
    "double": ((int, float), float),
    "string": ((str,), str),
    "data": ((str,), _data),
    "date": ((str,), _date),
    "objectId": ((str,), ObjectId),
    "uuid": ((str,), uuid.UUID),
    "decimal128": ((str, int, float), lambda v: decimal.Decimal(str(v))),
    "mixed": ((type(None), bool, int, float, str), lambda v: v),
}

#: CSV cells are text: how a cell becomes the JSON value of each scalar type (collections and
#: records are JSON text in their cells).
_FROM_CELL: Dict[str, Callable[[str], Any]] = {
    "int": int,
    "float": float,
    "double": float,
    "bool": lambda text: {"true": True, "false": False}[text.lower()],
}


class Importer:
    """Creates objects from records in the realm's open write transaction. Links given as primary
    keys are set once every record is in (``finish``), so that records may link to one another in
    any order."""

    def __init__(self, realm: Realm, update: bool) -> None:
        self.realm = realm
        self.update = update
        self.classes = {c["name"]: c for c in realm.schema}
        self.pending: List[Any] = []  # (object, property name, value, where): links set last

    def _class(self, name: str) -> Mapping[str, Any]:
        cls = self.classes.get(name)
        if cls is None:
            raise RecordError(f"no class {name!r} in this realm (it has: {', '.join(sorted(self.classes))})")
        return cls

    def create(self, class_name: str, record: Any, where: str) -> RealmObject:
        """The object of one record (links to other records pending until ``finish``)."""
        cls = self._class(class_name)
        if cls.get("embedded"):
            raise RecordError(f"{where}: {class_name} is embedded: its objects are imported inside their parents")
        values = self.values(cls, record, where, defer=True)
        links = values.pop(_LINKS)
        update = "modified" if self.update and cls["primary_key"] else None
        try:
            obj = self.realm.create(class_name, values, update=update)
        except (RealmError, OverflowError) as exc:  # a duplicate primary key, a value the realm refuses
            raise RecordError(f"{where}: {exc}") from None
        for name, value in links.items():
            self.pending.append((obj, name, value, f"{where}.{name}"))
        return obj

    def finish(self) -> None:
        for obj, name, value, where in self.pending:
            try:
                obj[name] = value(where)
            except (RealmError, OverflowError) as exc:
                raise RecordError(f"{where}: {exc}") from None
        self.pending = []

    def values(self, cls: Mapping[str, Any], record: Any, where: str, defer: bool) -> Dict[str, Any]:
        if not isinstance(record, dict):
            raise RecordError(f"{where}: a record is a JSON object of property values, not {json.dumps(record)[:40]}")
        properties = cls["properties"]
        values: Dict[str, Any] = {}
        links: Dict[str, Any] = {}
        for name, raw in record.items():
            prop = properties.get(name)
            if prop is None:
                raise RecordError(f"{where}: {cls['name']} has no property {name!r}")
            if prop["type"] == "linkingObjects":
                continue  # computed from the links that point here
            at = f"{where}.{name}"
            if prop["type"] == "object" and defer and not self._class(prop["objectType"]).get("embedded"):
                links[name] = self._link_later(prop, raw, at)
                continue
            values[name] = self.value(prop, raw, at)
        if defer:
            values[_LINKS] = links
        return values

    def value(self, prop: Mapping[str, Any], raw: Any, where: str) -> Any:
        kind = prop.get("collection")
        if kind in ("list", "set"):
            if not isinstance(raw, list):
                raise RecordError(f"{where}: expected a list, got {json.dumps(raw)[:40]}")
            return [self.element(prop, item, f"{where}[{i}]") for i, item in enumerate(raw)]
        if kind == "dictionary":
            if not isinstance(raw, dict):
                raise RecordError(f"{where}: expected a JSON object, got {json.dumps(raw)[:40]}")
            return {key: self.element(prop, item, f"{where}.{key}") for key, item in raw.items()}
        if raw is None and not prop["optional"] and prop["type"] not in ("mixed", "object"):
            raise RecordError(f"{where}: a value is required (the property is not optional)")
        return self.element(prop, raw, where)

    def element(self, prop: Mapping[str, Any], raw: Any, where: str) -> Any:
        if raw is None:
            return None
        if prop["type"] == "object":
            return self.linked(prop["objectType"], raw, where)
        accepted, convert = _SCALARS[prop["type"]]
        if not isinstance(raw, accepted) or (isinstance(raw, bool) and bool not in accepted):
            raise RecordError(f"{where}: expected {prop['type']}, got {json.dumps(raw)[:40]}")
        try:
            return convert(raw)
        except (ValueError, TypeError, binascii.Error, decimal.InvalidOperation) as exc:
            raise RecordError(f"{where}: not a valid {prop['type']}: {json.dumps(raw)[:40]} ({exc})") from None

    def linked(self, class_name: str, raw: Any, where: str) -> Any:
        """The value of a link: a record (created, or updated by primary key), or a primary key."""
        cls = self._class(class_name)
        if isinstance(raw, dict):
            if cls.get("embedded"):
                return self.values(cls, raw, where, defer=False)
            values = self.values(cls, raw, where, defer=False)
            return self.realm.create(class_name, values, update="modified" if cls["primary_key"] else None)
        key = cls["primary_key"]
        if key is None:
            raise RecordError(f"{where}: {class_name} has no primary key: give the linked object's record "
                              "(export with --depth 1), not a key")
        found = self.realm.object_for_primary_key(class_name, self.element(cls["properties"][key], raw, where))
        if found is None:
            raise RecordError(f"{where}: no {class_name} with primary key {json.dumps(raw)}")
        return found

    def _link_later(self, prop: Mapping[str, Any], raw: Any, where: str) -> Callable[[str], Any]:
        return lambda at: self.value(prop, raw, at)


_LINKS = "\0links"  # the key of the links a record sets last, in Importer.values's result


def import_records(realm: Realm, records: Mapping[str, Sequence[Any]], update: bool,
                   progress: Optional[Callable[[int, int], None]] = None) -> int:
    """Create (or, with ``update``, upsert by primary key) the objects of ``records`` (class name ->
    records) in one write transaction: all of them, or, on the first record that does not fit
    (RecordError naming it) or that the realm refuses, none."""
    total = sum(len(rows) for rows in records.values())
    done = 0
    with realm.write():
        importer = Importer(realm, update)
        for class_name, rows in records.items():
            if not isinstance(rows, list):
                raise RecordError(f"{class_name}: expected a list of records")
            for i, record in enumerate(rows):
                importer.create(class_name, record, f"{class_name}[{i}]")
                done += 1
                if progress is not None and done % 4096 == 0:
                    progress(done, total)
        importer.finish()
    if progress is not None:
        progress(total, total)
    return total


def records_from_csv(realm: Realm, class_name: str, rows: List[List[str]]) -> List[Dict[str, Any]]:
    """The records of a CSV table (a header of property names, then one object per row): each cell
    read as its property's type; an empty cell is null for an optional property."""
    classes = {c["name"]: c for c in realm.schema}
    cls = classes.get(class_name)
    if cls is None:
        raise RecordError(f"no class {class_name!r} in this realm (it has: {', '.join(sorted(classes))})")
    if not rows:
        return []
    header, records = rows[0], []
    for name in header:
        if name not in cls["properties"]:
            raise RecordError(f"line 1: {class_name} has no property {name!r}")
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise RecordError(f"line {line}: {len(row)} cells for {len(header)} columns")
        record: Dict[str, Any] = {}
        for name, text in zip(header, row):
            prop = cls["properties"][name]
            if prop["type"] == "linkingObjects":
                continue
            record[name] = _cell_value(prop, text, classes, f"line {line}, {name}")
        records.append(record)
    return records


def _cell_value(prop: Mapping[str, Any], text: str, classes: Mapping[str, Any], where: str) -> Any:
    if prop.get("collection") or (prop["type"] == "object" and text.startswith("{")):
        try:
            return json.loads(text) if text else ([] if prop.get("collection") != "dictionary" else {})
        except ValueError:
            raise RecordError(f"{where}: expected JSON, got {text[:40]!r}") from None
    if text == "":
        return None if prop["optional"] or prop["type"] in ("mixed", "object") else ("" if prop["type"] == "string" else None)
    kind = prop["type"]
    if kind == "object":
        target = classes[prop["objectType"]]
        key = target["primary_key"]
        kind = target["properties"][key]["type"] if key else "int"
    convert = _FROM_CELL.get(kind)
    if convert is None:
        return text
    try:
        return convert(text)
    except (ValueError, KeyError):
        raise RecordError(f"{where}: not a valid {kind}: {text[:40]!r}") from None
