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

The shared library is ``$REALMDB_LIBRARY`` or the newest of the repository's
build outputs (``.build/release``, ``.build/debug``, ``build``).
"""
from __future__ import annotations

from . import _ffi
from ._ffi import PropertyType, Status, ValueType
from .errors import (
    CallbackError,
    ClosedRealmError,
    DuplicatePrimaryKey,
    FileAccessError,
    FileFormatError,
    InternalError,
    InvalidArgumentError,
    InvalidatedError,
    LogicError,
    MigrationFailed,
    MigrationRequired,
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
    TooManyActiveVersions,
    WrongThreadError,
    WrongTransactionState,
    WrongTypeError,
)
from .migration import Migration
from .object import RealmObject
from .objectid import ObjectId
from ._values import Link
from .realm import Realm, open
from .relationships import Dictionary, List, Set
from .results import Results

#: The library's version (db_library_version_string).
__version__: str = _ffi.library_version()

#: Path of the loaded libdb.so.
LIBRARY_PATH: str = _ffi.LIBRARY_PATH

__all__ = [
    "open", "Realm", "RealmObject", "Results", "List", "Set", "Dictionary", "Link", "Migration", "ObjectId",
    "Status", "PropertyType", "ValueType",
    "LIBRARY_PATH", "__version__",
    "RealmError", "InvalidArgumentError", "NotFoundError", "WrongTypeError", "NotNullableError",
    "MissingValueError", "WrongTransactionState", "InvalidatedError", "ClosedRealmError",
    "DuplicatePrimaryKey", "SchemaError", "MigrationRequired", "MigrationFailed", "ReadOnlyError",
    "FileAccessError", "FileFormatError", "TooManyActiveVersions", "OutOfRangeError", "LogicError",
    "StorageError", "CallbackError", "QueryError", "WrongThreadError", "NotSupportedError",
    "RealmMemoryError", "InternalError",
]
