"""The exception hierarchy: one class per db_status_e code (some share one).

Every exception raised for a library failure is a :class:`RealmError` with
``.code`` (the db_status_e value) and ``.message`` (from db_get_last_error).
Some also derive from the matching Python built-in so generic handlers work:
:class:`WrongTypeError` is a ``TypeError``, :class:`NotFoundError` a
``LookupError``, :class:`OutOfRangeError` an ``IndexError``,
:class:`InvalidArgumentError` a ``ValueError``.

Every exception's name ends in ``Error``. Five had other names before; those names still work,
as deprecated aliases of the same classes (``except realmdb.DuplicatePrimaryKey`` catches a
:class:`DuplicatePrimaryKeyError`), and warn (DeprecationWarning) where they are used:

    =========================  ==============================
    deprecated name            use
    =========================  ==============================
    ``WrongTransactionState``  :class:`WrongTransactionStateError`
    ``DuplicatePrimaryKey``    :class:`DuplicatePrimaryKeyError`
    ``MigrationRequired``      :class:`MigrationRequiredError`
    ``MigrationFailed``        :class:`MigrationFailedError`
    ``TooManyActiveVersions``  :class:`TooManyActiveVersionsError`
    =========================  ==============================
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Dict, Type


class RealmError(Exception):
    """Base class of every error reported by realmdb.

    Attributes:
        code: the db_status_e value (an int; see ``realmdb.Status``).
        message: the library's message.
    """

    default_code = 25  # DB_ERR_INTERNAL

    def __init__(self, message: str = "", code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = self.default_code if code is None else code

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(RealmError, ValueError):
    """An argument was invalid (DB_ERR_INVALID_ARGUMENT)."""

    default_code = 1


class NotFoundError(RealmError, LookupError):
    """A class, property or object does not exist (DB_ERR_NOT_FOUND)."""

    default_code = 2


class WrongTypeError(RealmError, TypeError):
    """A value's type does not match the property's type (DB_ERR_WRONG_TYPE)."""

    default_code = 3


class NotNullableError(RealmError):
    """None was given for a required property (DB_ERR_NOT_NULLABLE)."""

    default_code = 4


class MissingValueError(RealmError):
    """A required property was not given a value on create (DB_ERR_MISSING_VALUE)."""

    default_code = 5


class WrongTransactionStateError(RealmError):
    """A write outside a write transaction, begin_write inside one, ... (DB_ERR_WRONG_TRANSACTION_STATE)."""

    default_code = 6


class InvalidatedError(RealmError):
    """The object was deleted or its realm closed (DB_ERR_INVALIDATED, DB_ERR_CLOSED_REALM)."""

    default_code = 7


class ClosedRealmError(InvalidatedError):
    """The realm handle has been closed (DB_ERR_CLOSED_REALM)."""

    default_code = 8


class DuplicatePrimaryKeyError(RealmError):
    """An object with this primary key already exists (DB_ERR_DUPLICATE_PRIMARY_KEY)."""

    default_code = 9


class SchemaError(RealmError):
    """The schema is not valid (DB_ERR_SCHEMA_INVALID); also raised by the schema parser."""

    default_code = 10


class MigrationRequiredError(RealmError):
    """The file's schema differs; a higher schema version and a migration are needed."""

    default_code = 11


class MigrationFailedError(RealmError):
    """The migration function failed; nothing was changed (DB_ERR_MIGRATION_FAILED).

    When the migration raised a Python exception, it is this error's ``__cause__``.
    """

    default_code = 12


class ReadOnlyError(RealmError):
    """The realm or object is read-only (DB_ERR_READ_ONLY)."""

    default_code = 13


class FileAccessError(RealmError):
    """The file could not be opened or created (DB_ERR_FILE_ACCESS)."""

    default_code = 14


class FileFormatError(RealmError):
    """The file is not a realmdb file or has an incompatible format (DB_ERR_FILE_FORMAT)."""

    default_code = 15


class TooManyActiveVersionsError(RealmError):
    """Pinning another version would exceed max_active_versions (DB_ERR_TOO_MANY_ACTIVE_VERSIONS)."""

    default_code = 16


class OutOfRangeError(RealmError, IndexError):
    """An index is out of range (DB_ERR_OUT_OF_RANGE)."""

    default_code = 17


class LogicError(RealmError):
    """The operation is not allowed in this state (DB_ERR_LOGIC)."""

    default_code = 18


class ComputedPropertyError(LogicError, AttributeError):
    """A linkingObjects property is computed from links and cannot be set (a LogicError, and an
    AttributeError as setting a read-only attribute is)."""


class StorageError(RealmError):
    """The storage layer failed: disk full, I/O error (DB_ERR_STORAGE)."""

    default_code = 19


class CallbackError(RealmError):
    """A user callback reported failure (DB_ERR_CALLBACK)."""

    default_code = 20


class QueryError(RealmError):
    """A query could not be parsed or type-checked (DB_ERR_QUERY).

    Attributes:
        offset: byte offset of the offending token in the query string, or -1.
    """

    default_code = 21

    def __init__(self, message: str = "", code: int | None = None, offset: int = -1) -> None:
        super().__init__(message, code)
        self.offset = offset


class WrongThreadError(RealmError):
    """The handle was used from a thread it is not confined to, or in a fork() child of the
    process that opened it (DB_ERR_WRONG_THREAD): open another handle there."""

    default_code = 22


class NotSupportedError(RealmError):
    """Not supported by this version of the library (DB_ERR_NOT_SUPPORTED)."""

    default_code = 23


class RealmMemoryError(RealmError, MemoryError):
    """The library ran out of memory (DB_ERR_OUT_OF_MEMORY)."""

    default_code = 24


class InternalError(RealmError):
    """A bug in realmdb (DB_ERR_INTERNAL); please report it with the message."""

    default_code = 25


_BY_CODE: Dict[int, Type[RealmError]] = {
    cls.default_code: cls
    for cls in (
        InvalidArgumentError, NotFoundError, WrongTypeError, NotNullableError, MissingValueError,
        WrongTransactionStateError, InvalidatedError, ClosedRealmError, DuplicatePrimaryKeyError, SchemaError,
        MigrationRequiredError, MigrationFailedError, ReadOnlyError, FileAccessError, FileFormatError,
        TooManyActiveVersionsError, OutOfRangeError, LogicError, StorageError, CallbackError, QueryError,
        WrongThreadError, NotSupportedError, RealmMemoryError, InternalError,
    )
}


def from_code(code: int, message: str, offset: int = -1) -> RealmError:
    """Build the exception for a db_status_e ``code`` (unknown codes give a plain RealmError)."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return RealmError(message or f"unknown status {code}", code)
    if cls is QueryError:
        return QueryError(message, code, offset)
    return cls(message, code)


#: Former names of the exceptions whose names did not end in Error: deprecated aliases.
DEPRECATED_NAMES: Dict[str, Type[RealmError]] = {
    "WrongTransactionState": WrongTransactionStateError,
    "DuplicatePrimaryKey": DuplicatePrimaryKeyError,
    "MigrationRequired": MigrationRequiredError,
    "MigrationFailed": MigrationFailedError,
    "TooManyActiveVersions": TooManyActiveVersionsError,
}


def deprecated_name(module: str, name: str) -> Type[RealmError]:
    """The class a deprecated name stands for, with a DeprecationWarning pointing at the caller
    (``module.__getattr__`` of this module and of the package); AttributeError for other names."""
    cls = DEPRECATED_NAMES.get(name)
    if cls is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(f"{module}.{name} is deprecated: use {module}.{cls.__name__} (the same class)",
                  DeprecationWarning, stacklevel=3)
    return cls


if TYPE_CHECKING:
    WrongTransactionState = WrongTransactionStateError
    DuplicatePrimaryKey = DuplicatePrimaryKeyError
    MigrationRequired = MigrationRequiredError
    MigrationFailed = MigrationFailedError
    TooManyActiveVersions = TooManyActiveVersionsError
else:
    def __getattr__(name: str) -> Type[RealmError]:
        return deprecated_name(__name__, name)
