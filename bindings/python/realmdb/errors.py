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
from typing import TYPE_CHECKING, Any, Dict, Optional, Type

from ._c_types import Status

#: The class :func:`from_code` builds for each db_status_e value, filled in as the classes below
#: name their codes.
_BY_CODE: Dict[int, Type[RealmError]] = {}


class RealmError(Exception):
    """Base class of every error reported by realmdb.

    Attributes:
        code: the db_status_e value (an int; see ``realmdb.Status``).
        message: the library's message.

    A subclass for one db_status_e value names it as a class keyword
    (``class NotFoundError(RealmError, LookupError, code=Status.NOT_FOUND)``): that value is its
    ``default_code``, and :func:`from_code` builds that class for it.
    """

    default_code: int = Status.INTERNAL.value

    def __init_subclass__(cls, code: Optional[Status] = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.default_code = code.value
            _BY_CODE[code.value] = cls

    def __init__(self, message: str = "", code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = self.default_code if code is None else code

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(RealmError, ValueError, code=Status.INVALID_ARGUMENT):
    """An argument was invalid (DB_ERR_INVALID_ARGUMENT)."""


class NotFoundError(RealmError, LookupError, code=Status.NOT_FOUND):
    """A class, property or object does not exist (DB_ERR_NOT_FOUND)."""


class WrongTypeError(RealmError, TypeError, code=Status.WRONG_TYPE):
    """A value's type does not match the property's type (DB_ERR_WRONG_TYPE)."""


class NotNullableError(RealmError, code=Status.NOT_NULLABLE):
    """None was given for a required property (DB_ERR_NOT_NULLABLE)."""


class MissingValueError(RealmError, code=Status.MISSING_VALUE):
    """A required property was not given a value on create (DB_ERR_MISSING_VALUE)."""


class WrongTransactionStateError(RealmError, code=Status.WRONG_TRANSACTION_STATE):
    """A write outside a write transaction, begin_write inside one, ... (DB_ERR_WRONG_TRANSACTION_STATE)."""


class InvalidatedError(RealmError, code=Status.INVALIDATED):
    """The object was deleted or its realm closed (DB_ERR_INVALIDATED, DB_ERR_CLOSED_REALM)."""


class ClosedRealmError(InvalidatedError, code=Status.CLOSED_REALM):
    """The realm handle has been closed (DB_ERR_CLOSED_REALM)."""


class DuplicatePrimaryKeyError(RealmError, code=Status.DUPLICATE_PRIMARY_KEY):
    """An object with this primary key already exists (DB_ERR_DUPLICATE_PRIMARY_KEY)."""


class SchemaError(RealmError, code=Status.SCHEMA_INVALID):
    """The schema is not valid (DB_ERR_SCHEMA_INVALID); also raised by the schema parser."""


class MigrationRequiredError(RealmError, code=Status.MIGRATION_REQUIRED):
    """The file's schema differs; a higher schema version and a migration are needed."""


class MigrationFailedError(RealmError, code=Status.MIGRATION_FAILED):
    """The migration function failed; nothing was changed (DB_ERR_MIGRATION_FAILED).

    When the migration raised a Python exception, it is this error's ``__cause__``.
    """


class ReadOnlyError(RealmError, code=Status.READ_ONLY):
    """The realm or object is read-only (DB_ERR_READ_ONLY)."""


class FileAccessError(RealmError, code=Status.FILE_ACCESS):
    """The file could not be opened or created (DB_ERR_FILE_ACCESS)."""


class FileFormatError(RealmError, code=Status.FILE_FORMAT):
    """The file is not a realmdb file or has an incompatible format (DB_ERR_FILE_FORMAT)."""


class TooManyActiveVersionsError(RealmError, code=Status.TOO_MANY_ACTIVE_VERSIONS):
    """Pinning another version would exceed max_active_versions (DB_ERR_TOO_MANY_ACTIVE_VERSIONS)."""


class OutOfRangeError(RealmError, IndexError, code=Status.OUT_OF_RANGE):
    """An index is out of range (DB_ERR_OUT_OF_RANGE)."""


class LogicError(RealmError, code=Status.LOGIC):
    """The operation is not allowed in this state (DB_ERR_LOGIC)."""


class ComputedPropertyError(LogicError, AttributeError):
    """A linkingObjects property is computed from links and cannot be set (a LogicError, and an
    AttributeError as setting a read-only attribute is)."""


class StorageError(RealmError, code=Status.STORAGE):
    """The storage layer failed: disk full, I/O error (DB_ERR_STORAGE)."""


class CallbackError(RealmError, code=Status.CALLBACK):
    """A user callback reported failure (DB_ERR_CALLBACK)."""


class QueryError(RealmError, code=Status.QUERY):
    """A query could not be parsed or type-checked (DB_ERR_QUERY).

    Attributes:
        offset: byte offset of the offending token in the query string, or -1.
    """

    def __init__(self, message: str = "", code: int | None = None, offset: int = -1) -> None:
        super().__init__(message, code)
        self.offset = offset


class WrongThreadError(RealmError, code=Status.WRONG_THREAD):
    """The handle was used from a thread it is not confined to, or in a fork() child of the
    process that opened it (DB_ERR_WRONG_THREAD): open another handle there."""


class NotSupportedError(RealmError, code=Status.NOT_SUPPORTED):
    """Not supported by this version of the library (DB_ERR_NOT_SUPPORTED)."""


class RealmMemoryError(RealmError, MemoryError, code=Status.OUT_OF_MEMORY):
    """The library ran out of memory (DB_ERR_OUT_OF_MEMORY)."""


class InternalError(RealmError, code=Status.INTERNAL):
    """A bug in realmdb (DB_ERR_INTERNAL); please report it with the message."""


def from_code(code: int, message: str, offset: int = -1) -> RealmError:
    """Build the exception for a db_status_e ``code`` (unknown codes give a plain RealmError)."""
    cls = _BY_CODE.get(code)
    if cls is None:
        return RealmError(message or f"unknown status {code}", code)
    if cls is QueryError:
        return QueryError(message, code, offset)
    if cls is WrongTransactionStateError:
        message = _in_python_terms(message)
    return cls(message, code)


#: The engine's words for a write transaction's calls, and the same in this binding's terms.
_PYTHON_TERMS = (
    ("begin a write transaction first", "open one with `with realm.write():` first"),
    ("the realm is not in a write transaction", "the realm is not in a write transaction (`with realm.write():`)"),
)


def _in_python_terms(message: str) -> str:
    """An engine message about write transactions, naming ``realm.write()`` as a Python program
    spells it rather than the C API's begin/commit calls."""
    for engine_words, python_words in _PYTHON_TERMS:
        message = message.replace(engine_words, python_words)
    return message


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
