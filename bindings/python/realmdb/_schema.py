"""Schemas: parsing the Realm-JS-style shorthand, building db_schema_t, reading it back.

Input (one dict per class)::

    {"name": "Person", "primary_key": "id",
     "properties": {"id": "int", "age": "int?", "name": "string",
                    "city": {"type": "string", "indexed": True, "mapTo": "town"}},
     "indexes": [["age", "name"]]}

``indexes`` declares compound indexes (two to eight indexable properties each, in key
order): they answer equality on leading properties plus a range on the next, and serve
``SORT`` by exactly those properties followed by ``LIMIT`` without sorting the class.

Output (``realm.schema``, the migration's ``old_schema``/``new_schema``) is the
normalized form::

    {"name": "Person", "primary_key": "id",
     "properties": {"id": {"type": "int", "optional": False, "indexed": True,
                           "primary_key": True, "persisted_name": "id"}, ...}}

(with ``"indexes"`` when the class has compound indexes), which is itself accepted as input. :func:`parse_type` is the single place that maps
a type string to a descriptor (links and collections will be added there).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple, TypedDict

from . import errors
from ._c_types import db_class_info_t, db_index_info_t, db_property_info_t, db_property_key_t
from ._ffi import lib
from ._arguments import c_string, check_elements, check_mapping
from ._c_types import ClassFlag, CollectionType, PropertyFlag, PropertyType
from .errors import SchemaError

TYPE_NAMES: Dict[str, PropertyType] = {
    "bool": PropertyType.BOOL,
    "int": PropertyType.INT,
    "float": PropertyType.FLOAT,
    "double": PropertyType.DOUBLE,
    "string": PropertyType.STRING,
    "data": PropertyType.DATA,
    "date": PropertyType.TIMESTAMP,
    "objectId": PropertyType.OBJECT_ID,
    "uuid": PropertyType.UUID,
    "decimal128": PropertyType.DECIMAL128,
}
TYPE_NAME_OF: Dict[int, str] = {int(v): k for k, v in TYPE_NAMES.items()}
TYPE_NAME_OF.update({int(PropertyType.OBJECT): "object", int(PropertyType.LINKING_OBJECTS): "linkingObjects",
                     int(PropertyType.MIXED): "mixed"})
COLLECTION_SUFFIXES = {"[]": CollectionType.LIST, "<>": CollectionType.SET, "{}": CollectionType.DICTIONARY}
COLLECTION_NAMES = {"list": CollectionType.LIST, "set": CollectionType.SET, "dictionary": CollectionType.DICTIONARY}
COLLECTION_NAME_OF = {int(v): k for k, v in COLLECTION_NAMES.items()}

_CLASS_KEYS = {"name", "primary_key", "primaryKey", "properties", "indexes", "embedded"}
_PROPERTY_KEYS = {"type", "optional", "indexed", "persisted_name", "mapTo", "primary_key", "objectType",
                  "property", "collection"}


class PropertySchema(TypedDict, total=False):
    """One property in the normalized schema (``realm.schema``): the first five keys always, the
    others where they apply."""

    type: str
    optional: bool
    indexed: bool
    primary_key: bool
    persisted_name: str
    collection: str
    objectType: str
    property: str


class _ClassSchemaKeys(TypedDict):
    name: str
    primary_key: Optional[str]
    properties: Dict[str, PropertySchema]


class ClassSchema(_ClassSchemaKeys, total=False):
    """One class in the normalized schema (``realm.schema``): name, primary key (or None) and
    properties always; compound indexes and the embedded flag when the class has them."""

    indexes: List[List[str]]
    embedded: bool


@dataclass(frozen=True)
class TypeDescriptor:
    """What a type string means: the property type (of each element, for a collection), whether
    it (each element) is optional, the collection kind and, for links, the linked class."""

    type: PropertyType
    optional: bool
    collection: CollectionType = CollectionType.NONE
    object_type: Optional[str] = None


@dataclass
class PropertySpec:
    """One parsed property, ready for db_property_info_t."""

    name: str
    type: PropertyType
    optional: bool = False
    indexed: bool = False
    primary_key: bool = False
    persisted_name: Optional[str] = None
    collection: CollectionType = CollectionType.NONE
    object_type: Optional[str] = None
    origin_property: Optional[str] = None


@dataclass
class ClassSpec:
    """One parsed class."""

    name: str
    properties: List[PropertySpec]
    primary_key: Optional[str] = None
    indexes: List[List[str]] = field(default_factory=list)
    embedded: bool = False


def parse_type(text: str, where: str) -> TypeDescriptor:
    """Map a type string to a :class:`TypeDescriptor`: ``"int"``, ``"string?"``, ``"mixed"``,
    a class name for a link (``"Dog?"``: links to one object are always optional), and the
    collections ``"int[]"`` (list), ``"string?<>"`` (set), ``"Dog?{}"`` (dictionary), ``"Dog[]"``.

    ``where`` ("Class.property") is used in error messages.
    """
    if not isinstance(text, str) or not text:
        raise SchemaError(f"{where}: the type must be a non-empty string, got {text!r}")
    collection = COLLECTION_SUFFIXES.get(text[-2:], CollectionType.NONE)
    element = text[:-2] if collection != CollectionType.NONE else text
    optional = element.endswith("?")
    base = element[:-1] if optional else element
    ptype = TYPE_NAMES.get(base)
    if ptype is not None:
        return TypeDescriptor(ptype, optional, collection)
    if base == "mixed":
        return TypeDescriptor(PropertyType.MIXED, True, collection)
    if base and (base[0].isalpha() or base[0] == "_") and all(ch.isalnum() or ch == "_" for ch in base):
        # A class name: a link (checked against the schema's classes by parse_schema).
        return TypeDescriptor(PropertyType.OBJECT, optional, collection, base)
    known = ", ".join(TYPE_NAMES)
    raise SchemaError(f"{where}: unknown type {text!r} (known types: {known}, mixed, a class name; "
                      "'?' for optional; '[]', '<>', '{}' for a list, set, dictionary)")


def _flag(spec: Mapping[str, Any], key: str, where: str) -> Optional[bool]:
    value = spec.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise SchemaError(f"{where}: {key!r} must be True or False, got {value!r}")
    return value


def parse_property(name: Any, spec: Any, class_name: str) -> PropertySpec:
    """Parse one property given as a type string or a dict."""
    if not isinstance(name, str) or not name:
        raise SchemaError(f"{class_name}: property names must be non-empty strings, got {name!r}")
    where = f"{class_name}.{name}"
    if isinstance(spec, str):
        desc = parse_type(spec, where)
        return PropertySpec(name, desc.type, desc.optional, collection=desc.collection, object_type=desc.object_type)
    if not isinstance(spec, Mapping):
        raise SchemaError(f"{where}: expected a type string or a dict, got {type(spec).__name__}")
    unknown = set(spec) - _PROPERTY_KEYS
    if unknown:
        raise SchemaError(f"{where}: unknown key(s) {sorted(map(str, unknown))} "
                          f"(allowed: {sorted(_PROPERTY_KEYS)})")
    if "type" not in spec:
        raise SchemaError(f"{where}: missing 'type'")
    if spec["type"] == "linkingObjects":
        origin_class, origin = spec.get("objectType"), spec.get("property")
        if not isinstance(origin_class, str) or not isinstance(origin, str):
            raise SchemaError(f"{where}: linkingObjects needs 'objectType' (the linking class) and 'property' "
                              "(its link property), e.g. {'type': 'linkingObjects', 'objectType': 'Person', 'property': 'dogs'}")
        return PropertySpec(name, PropertyType.LINKING_OBJECTS, object_type=origin_class, origin_property=origin)
    kind, object_type, collection = spec["type"], spec.get("objectType"), spec.get("collection")
    if collection is not None and collection not in COLLECTION_NAMES:
        raise SchemaError(f"{where}: 'collection' must be one of {sorted(COLLECTION_NAMES)}, got {collection!r}")
    if kind in COLLECTION_NAMES or kind == "object":
        # Realm JS's long forms: {"type": "list", "objectType": "int"}, {"type": "object", "objectType": "Dog"}
        # (and the normalized {"type": "object", "objectType": "Dog", "collection": "list"}).
        if not isinstance(object_type, str) or not object_type:
            raise SchemaError(f"{where}: type {kind!r} needs 'objectType' (the element type or the linked class)")
        if kind in COLLECTION_NAMES:
            if collection is not None and collection != kind:
                raise SchemaError(f"{where}: type {kind!r} and collection {collection!r} disagree")
            collection = kind
        element = object_type
        if kind == "object" and collection is None and not element.endswith("?"):
            element += "?"  # a link to one object is always optional
    else:
        if object_type is not None:
            raise SchemaError(f"{where}: 'objectType' is only for the object, list, set, dictionary and linkingObjects types")
        element = kind if isinstance(kind, str) else ""
    type_text = element + ({"list": "[]", "set": "<>", "dictionary": "{}"}[collection] if collection else "")
    desc = parse_type(type_text, where)
    optional = _flag(spec, "optional", where)
    if optional is not None and desc.optional and not optional:
        raise SchemaError(f"{where}: type {spec['type']!r} is optional but 'optional' is False")
    persisted = spec.get("persisted_name")
    map_to = spec.get("mapTo")
    if persisted is not None and map_to is not None and persisted != map_to:
        raise SchemaError(f"{where}: 'persisted_name' and 'mapTo' disagree")
    persisted = persisted if persisted is not None else map_to
    if persisted is not None and (not isinstance(persisted, str) or not persisted):
        raise SchemaError(f"{where}: 'persisted_name' must be a non-empty string, got {persisted!r}")
    return PropertySpec(
        name,
        desc.type,
        optional=bool(optional) or desc.optional,
        indexed=bool(_flag(spec, "indexed", where)),
        primary_key=bool(_flag(spec, "primary_key", where)),
        persisted_name=persisted if persisted != name else None,
        collection=desc.collection,
        object_type=desc.object_type,
    )


def parse_class(spec: Any) -> ClassSpec:
    """Parse one class dict."""
    if not isinstance(spec, Mapping):
        raise SchemaError(f"each class must be a dict, got {type(spec).__name__}")
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaError(f"a class needs a non-empty string 'name', got {name!r}")
    unknown = set(spec) - _CLASS_KEYS
    if unknown:
        raise SchemaError(f"{name}: unknown key(s) {sorted(map(str, unknown))} (allowed: {sorted(_CLASS_KEYS)})")
    props = spec.get("properties")
    if not isinstance(props, Mapping):
        raise SchemaError(f"{name}: 'properties' must be a dict of name -> type")
    properties = [parse_property(pname, pspec, name) for pname, pspec in props.items()]
    pk = spec.get("primary_key", spec.get("primaryKey"))
    flagged = [p.name for p in properties if p.primary_key]
    if pk is not None:
        if not isinstance(pk, str) or pk not in props:
            raise SchemaError(f"{name}: primary key {pk!r} is not one of its properties")
        if any(f != pk for f in flagged):
            raise SchemaError(f"{name}: primary key {pk!r} conflicts with properties marked primary_key {flagged}")
    elif len(flagged) > 1:
        raise SchemaError(f"{name}: more than one primary key: {flagged}")
    elif flagged:
        pk = flagged[0]
    for p in properties:
        p.primary_key = p.name == pk
    indexes = spec.get("indexes", [])
    if isinstance(indexes, (str, bytes)) or not isinstance(indexes, Sequence) or not all(
            not isinstance(i, (str, bytes)) and isinstance(i, Sequence) and all(isinstance(n, str) for n in i)
            for i in indexes):
        raise SchemaError(f"{name}: 'indexes' must be a list of lists of property names, e.g. [['age', 'name']]")
    embedded = spec.get("embedded", False)
    if not isinstance(embedded, bool):
        raise SchemaError(f"{name}: 'embedded' must be True or False, got {embedded!r}")
    return ClassSpec(name, properties, pk, [list(i) for i in indexes], embedded)


def parse_schema(schema: Any) -> List[ClassSpec]:
    """Parse a list of class dicts; raises SchemaError with the class and property named."""
    if isinstance(schema, (str, bytes)) or not isinstance(schema, Sequence):
        raise SchemaError("the schema must be a list of class dicts")
    classes = [parse_class(c) for c in schema]
    seen: Set[str] = set()
    for c in classes:
        if c.name in seen:
            raise SchemaError(f"class {c.name!r} is defined more than once")
        seen.add(c.name)
    for c in classes:
        for p in c.properties:
            if p.object_type is not None and p.object_type not in seen:
                raise SchemaError(f"{c.name}.{p.name}: unknown type or class {p.object_type!r} "
                                  f"(classes: {sorted(seen)}; types: {', '.join(TYPE_NAMES)}, mixed)")
    return classes


def build_schema(classes: Sequence[ClassSpec]) -> Any:
    """Create a db_schema_t (a new handle: release it with db_schema_release).

    Raises InvalidArgumentError for a name that C cannot take whole (a NUL character or a lone
    surrogate in it), before the library is called."""
    keep: List[object] = []
    infos = (db_class_info_t * max(len(classes), 1))()
    for i, c in enumerate(classes):
        infos[i].name = c_string(c.name, "class name")  # first: the messages below name the class
        props = (db_property_info_t * max(len(c.properties), 1))()
        keep.append(props)
        for j, p in enumerate(c.properties):
            flags = PropertyFlag.NONE
            if p.optional:
                flags |= PropertyFlag.NULLABLE
            if p.indexed:
                flags |= PropertyFlag.INDEXED
            if p.primary_key:
                flags |= PropertyFlag.PRIMARY_KEY
            where = f"{c.name}.{p.name}"
            props[j].name = c_string(p.name, f"class {c.name}'s property name")
            props[j].persisted_name = (c_string(p.persisted_name, f"{where} persisted name")
                                       if p.persisted_name else None)
            props[j].type = int(p.type)
            props[j].flags = int(flags)
            props[j].key = -1
            props[j].collection_type = int(p.collection)
            props[j].link_target = c_string(p.object_type, f"{where} linked class name") if p.object_type else None
            props[j].link_origin_property = (c_string(p.origin_property, f"{where} linkingObjects property")
                                             if p.origin_property else None)
        infos[i].properties = props
        infos[i].num_properties = len(c.properties)
        infos[i].key = 0
        indexes = (db_index_info_t * max(len(c.indexes), 1))()
        keep.append(indexes)
        for j, names in enumerate(c.indexes):
            array = (ctypes.c_char_p * max(len(names), 1))(*[c_string(n, f"class {c.name}'s index property name")
                                                             for n in names])
            keep.append(array)
            indexes[j].properties = array
            indexes[j].num_properties = len(names)
        infos[i].indexes = indexes
        infos[i].num_indexes = len(c.indexes)
        infos[i].flags = int(ClassFlag.EMBEDDED) if c.embedded else 0
    return lib.db_schema_new(infos, len(classes))


# --------------------------------------------------------------------------
# Reading a db_schema_t
# --------------------------------------------------------------------------


#: By property type, the classes of plain values that a write stores and a read gives back as they
#: were (ClassMeta.plain_write).
_READ_BACK: Dict[int, Tuple[type, ...]] = {
    PropertyType.INT: (int, type(None)),
    PropertyType.BOOL: (bool, type(None)),
    PropertyType.DOUBLE: (float, type(None)),
    PropertyType.STRING: (str, type(None)),
    PropertyType.DATA: (bytes, type(None)),
    PropertyType.MIXED: (int, bool, float, str, bytes, type(None)),
}


class ClassMeta:
    """Per-class metadata cached by a realm: public name -> (property key, type).

    ``by_name`` is True when the schema carries no property keys (e.g. the old
    schema of a migration): objects then read values by name.
    """

    __slots__ = ("name", "key", "primary_key", "names", "key_of", "type_of", "keys_array",
                 "by_name", "schema", "kind_of", "target_of", "embedded", "single_value",
                 "row_names", "row_index", "row_keys", "plain_write", "object_type", "keys_for", "creators", "deferrable", "model",
                 "lookup_reads", "lookups", "probe_key", "probe_read", "reader", "reader_values",
                 "reader_memory")

    def __init__(self, info: Any) -> None:
        self.name: str = info.name.decode("utf-8")
        self.key: int = int(info.key)
        self.primary_key: Optional[str] = None
        names: List[str] = []
        key_of: Dict[str, int] = {}
        type_of: Dict[str, int] = {}
        kind_of: Dict[str, int] = {}
        target_of: Dict[str, str] = {}
        props: Dict[str, PropertySchema] = {}
        for j in range(info.num_properties):
            p = info.properties[j]
            pname = p.name.decode("utf-8")
            persisted = p.persisted_name.decode("utf-8") if p.persisted_name else ""
            flags = int(p.flags)
            is_pk = bool(flags & PropertyFlag.PRIMARY_KEY)
            if is_pk:
                self.primary_key = pname
            names.append(pname)
            key_of[pname] = int(p.key)
            type_of[pname] = int(p.type)
            kind_of[pname] = int(p.collection_type)
            props[pname] = {
                "type": TYPE_NAME_OF.get(int(p.type), f"unknown({int(p.type)})"),
                "optional": bool(flags & PropertyFlag.NULLABLE),
                "indexed": bool(flags & PropertyFlag.INDEXED) or is_pk,
                "primary_key": is_pk,
                "persisted_name": persisted or pname,
            }
            if p.collection_type:
                props[pname]["collection"] = COLLECTION_NAME_OF.get(int(p.collection_type), "unknown")
            if p.link_target:
                target_of[pname] = p.link_target.decode("utf-8")
                props[pname]["objectType"] = target_of[pname]
            if p.link_origin_property:
                props[pname]["property"] = p.link_origin_property.decode("utf-8")
        self.names: Tuple[str, ...] = tuple(names)
        self.key_of = key_of
        self.type_of = type_of
        self.kind_of = kind_of
        self.target_of = target_of
        self.embedded = bool(info.flags & ClassFlag.EMBEDDED)
        #: Properties read with db_object_get_value (not collections or backlinks).
        self.single_value = frozenset(n for n in names if not kind_of[n] and type_of[n] != PropertyType.LINKING_OBJECTS)
        self.by_name = any(k < 0 for k in key_of.values())
        #: The single-valued properties in schema order: an object's row (RealmObject._load).
        self.row_names: Tuple[str, ...] = tuple(n for n in names if n in self.single_value)
        self.row_index: Dict[str, int] = {n: i for i, n in enumerate(self.row_names)}
        self.row_keys = (db_property_key_t * max(len(self.row_names), 1))(*(key_of[n] for n in self.row_names))
        #: The single-valued properties whose writes of plain values change nothing else (all but
        #: links; see ``_own_writes``), each with the classes of the values that read back exactly
        #: as written (an int written to a double reads back as a float: not among them).
        self.plain_write: Dict[str, Tuple[type, ...]] = {
            n: _READ_BACK.get(type_of[n], ()) for n in self.row_names if type_of[n] != PropertyType.OBJECT}
        #: The Python type of this class's objects, made at first use (object.object_type).
        self.object_type: Optional[type] = None
        #: The model class (realmdb.Object) the realm was opened with for this class, if any:
        #: the base of ``object_type``.
        self.model: Optional[type] = None
        #: Property keys arrays by the names a dict of values gives (Realm._keys).
        self.keys_for: Dict[Tuple[str, ...], "ctypes.Array[db_property_key_t]"] = {}
        #: db_object_creator_t addresses by the names a dict of values gives, for ``create``
        #: without an upsert (Realm._object_creator; the realm releases them with its handle).
        self.creators: Dict[Tuple[str, ...], int] = {}
        #: Whether ``object_for_primary_key`` reads the row with the key, in the same call: set
        #: when the object of a lookup made without it (``probe_key``) is read, cleared when one
        #: of every 16 lookups, made without it, is not read by the next such lookup (``probe_read``).
        #: A lookup that reads the row costs a lookup that is not read from half what it saves one
        #: that is (see Realm.object_for_primary_key).
        self.lookup_reads = False
        self.lookups = 0
        self.probe_key = -1
        self.probe_read = False
        #: The db_object_reader_t of the row (Realm._object_reader: None until made, 0 where
        #: reads take the general path), the address of its values, and its memory (values, then
        #: the bytes of their strings) as a ctypes array, whose ``raw`` copies it in one step.
        self.reader: Optional[int] = None
        self.reader_values = 0
        self.reader_memory: Optional["ctypes.Array[ctypes.c_char]"] = None
        #: Properties whose values ``create`` may set after the object exists: collections,
        #: backlinks, and links (given as dicts).
        self.deferrable = frozenset(n for n in names if n not in self.single_value or n in target_of)
        self.keys_array = (db_property_key_t * max(len(names), 1))(*key_of.values())
        self.schema: ClassSchema = {"name": self.name, "primary_key": self.primary_key, "properties": props}
        indexes = [[info.indexes[j].properties[k].decode("utf-8") for k in range(info.indexes[j].num_properties)]
                   for j in range(info.num_indexes)]
        if indexes:
            self.schema["indexes"] = indexes
        if self.embedded:
            self.schema["embedded"] = True


def read_schema(schema_p: Any) -> Dict[str, ClassMeta]:
    """Read every class of a db_schema_t (borrowed strings are copied here)."""
    out: Dict[str, ClassMeta] = {}
    info = db_class_info_t()
    for i in range(lib.db_schema_get_class_count(schema_p)):
        lib.db_schema_get_class(schema_p, i, ctypes.byref(info))
        meta = ClassMeta(info)
        out[meta.name] = meta
    return out


def take_schema(schema_p: Any) -> Dict[str, ClassMeta]:
    """Read a new db_schema_t, then release it."""
    try:
        return read_schema(schema_p)
    finally:
        lib.db_schema_release(schema_p)


def normalized(metas: Mapping[str, ClassMeta]) -> List[ClassSchema]:
    """The public list-of-dicts form (fresh copies, safe to mutate)."""
    out: List[ClassSchema] = []
    for m in metas.values():
        c: ClassSchema = {"name": m.schema["name"], "primary_key": m.schema["primary_key"],
                          "properties": {k: v.copy() for k, v in m.schema["properties"].items()}}
        if "indexes" in m.schema:
            c["indexes"] = [list(i) for i in m.schema["indexes"]]
        if m.embedded:
            c["embedded"] = True
        out.append(c)
    return out


# --------------------------------------------------------------------------
# Values for collection properties
# --------------------------------------------------------------------------


def describe(meta: ClassMeta, name: str) -> str:
    """How error messages name a collection property: ``"the list Person.tags"``."""
    return f"the {COLLECTION_NAME_OF.get(meta.kind_of[name], 'property')} {meta.name}.{name}"


def check_collection_value(meta: ClassMeta, name: str, value: object) -> None:
    """Refuse, before anything changes, a value assigned to the collection property ``name``
    that cannot fill it: a string, a mapping or a non-iterable for a list or a set (TypeError), a
    non-mapping (TypeError) or a key C cannot take for a dictionary; and any value for a
    linkingObjects property (ComputedPropertyError, a LogicError and an AttributeError)."""
    if meta.type_of[name] == PropertyType.LINKING_OBJECTS:
        raise errors.ComputedPropertyError(f"{meta.name}.{name} is computed from links (linkingObjects) and cannot be set")
    kind = meta.kind_of[name]
    if kind == CollectionType.DICTIONARY:
        for key in check_mapping(value, describe(meta, name)):
            c_string(key, "dictionary key")
    elif kind in (CollectionType.LIST, CollectionType.SET):
        check_elements(value, describe(meta, name))
