"""realmdb: Python binding (ctypes) for the realmdb embedded object database.

Quick start::

    import realmdb

    schema = [{"name": "Person", "primary_key": "id",
               "properties": {"id": "int", "name": "string", "age": "int?"}}]
    with realmdb.open("people.realm", schema) as realm:
        with realm.write():
            realm.create("Person", {"id": 1, "name": "Ann", "age": 30}, update="modified")
        ann = realm.object_for_primary_key("Person", 1)
        print(ann.name, ann.to_dict())
        adults = realm.objects("Person").filter("age >= $0", 18).sorted("name")
        print(len(adults), adults.values("name"), adults.average("age"))

Relationships: ``"Dog?"`` links to one object, ``"Dog[]"``/``"int[]"`` are lists,
``"string<>"`` sets, ``"Dog?{}"``/``"string{}"`` dictionaries, ``"mixed"`` holds any value
or an object, ``{"type": "linkingObjects", "objectType": "Person", "property": "dogs"}``
counts links back, and ``"embedded": True`` makes a class's objects live inside one parent::

    realm.create("Person", {"id": 2, "name": "Bo", "dogs": [{"id": 7, "name": "Rex"}]})
    bo.dogs.append(rex); bo.tags |= {"a"}; bo.meta["k"] = "v"; bo.dogs.filter("age > 3")

Lists, sets and dictionaries are live ``MutableSequence``/``MutableSet``/``MutableMapping``
views (see :mod:`realmdb.relationships`). ``create_many`` takes the same nested values in bulk.
Queries follow the graph (docs/C-API.md lists every form)::

    people.filter("ANY dogs.age > 10 AND dogs.@count > 1")
    people.filter("SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1")
    dogs.filter("owner == $0", bo).sorted("owner.name")
    dogs.filter("@links.Person.dogs.@count == 0"); people.filter("meta['k'] == 'v' AND 'a' IN tags")

Live notifications (see :mod:`realmdb.notifications`)::

    token = people.observe(lambda results, changes: print(changes.insertions, changes.moves))
    token = ann.observe(lambda change: print(change.properties, change.new_values), key_paths=["name"])
    realm.refresh()           # callbacks run here, after this thread's commits, or through
    realm.attach_loop(loop)   # an asyncio loop woken by commits from any thread or process
    token.invalidate()

Model classes, typed for mypy (see :mod:`realmdb.model`)::

    class Dog(realmdb.Object):
        id: int = realmdb.Property(primary_key=True)
        name: str
        owner: Optional["Person"]
    with realmdb.open("pets.realm", [Dog, Person]) as realm:
        rex = realm.object_for_primary_key(Dog, 7)     # a Dog (or None); rex.name is a str

Frozen views and sections::

    snapshot = realm.freeze()           # immutable, any thread; pins a version: close it when done
    old_ann = ann.freeze(); old_ann.thaw()
    sections = people.sectioned(lambda p: p.name[0], sort=["name"])   # or people.sectioned("age")
    sections[0].key, len(sections[0]), sections[0][0]

The shared library is ``$REALMDB_LIBRARY`` or the newest of the repository's
build outputs (``.build/release``, ``.build/debug``, ``build``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import _ffi, errors
from ._c_types import PropertyType, Status, ValueType
from .errors import (
    CallbackError,
    ClosedRealmError,
    DuplicatePrimaryKeyError,
    FileAccessError,
    FileFormatError,
    InternalError,
    InvalidArgumentError,
    InvalidatedError,
    LogicError,
    ComputedPropertyError,
    MigrationFailedError,
    MigrationRequiredError,
    MissingValueError,
    NotFoundError,
    NotNullableError,
    NotSupportedError,
    OutOfRangeError,
    QueryError,
    ReadOnlyError,
    RealmError,
    RealmMemoryError,
    SchemaError,
    StorageError,
    TooManyActiveVersionsError,
    WrongThreadError,
    WrongTransactionStateError,
    WrongTypeError,
)
from ._open import open
from ._schema import ClassSchema, PropertySchema
from ._values import Link
from .migration import Migration
from .model import LinkingObjects, Object, Property, model_schema
from .notifications import CollectionChanges, NotificationToken, ObjectChange
from .object import RealmObject, RealmValue
from .objectid import ObjectId
from .realm import CheckReport, FileSpace, Realm, VersionInfo
from .records import to_record
from .relationships import Dictionary, List, Set
from .results import Results
from .sectioned import Section, SectionedChanges, SectionedResults

#: The library's version (db_library_version_string).
__version__: str = _ffi.library_version()

#: Path of the loaded libdb.so.
LIBRARY_PATH: str = _ffi.LIBRARY_PATH

__all__ = [
    "open", "Realm", "VersionInfo", "CheckReport", "FileSpace", "RealmObject", "Results", "List", "Set", "Dictionary", "Link", "Migration", "ObjectId",
    "Status", "PropertyType", "ValueType",
    "LIBRARY_PATH", "__version__",
    "RealmError", "InvalidArgumentError", "NotFoundError", "WrongTypeError", "NotNullableError",
    "MissingValueError", "WrongTransactionState", "InvalidatedError", "ClosedRealmError",
    "DuplicatePrimaryKey", "SchemaError", "MigrationRequired", "MigrationFailed", "ReadOnlyError",
    "FileAccessError", "FileFormatError", "TooManyActiveVersions", "OutOfRangeError", "LogicError", "ComputedPropertyError",
    "StorageError", "CallbackError", "QueryError", "WrongThreadError", "NotSupportedError",
    "RealmMemoryError", "InternalError",
    # Added: the exceptions' names ending in Error (the five above without it are deprecated
    # aliases of these), the value type, and the classes observe() and sectioned() return.
    "WrongTransactionStateError", "DuplicatePrimaryKeyError", "MigrationRequiredError", "MigrationFailedError",
    "TooManyActiveVersionsError", "RealmValue", "NotificationToken", "CollectionChanges", "ObjectChange",
    "SectionedResults", "Section", "SectionedChanges", "ClassSchema", "PropertySchema",
    # Model classes (realmdb.model).
    "Object", "Property", "LinkingObjects", "model_schema",
    # An object as JSON takes it (realmdb.records).
    "to_record",
]

if TYPE_CHECKING:
    from .errors import (DuplicatePrimaryKey, MigrationFailed, MigrationRequired, TooManyActiveVersions,
                         WrongTransactionState)
else:
    def __getattr__(name: str) -> type:
        """The deprecated exception names (see realmdb.errors), with a DeprecationWarning."""
        return errors.deprecated_name(__name__, name)
