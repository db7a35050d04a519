"""Schema migrations: the Migration handle given to ``migration(m, old_schema_version)``."""
from __future__ import annotations

from typing import Callable, Dict, List, Mapping, NoReturn, Optional

from . import _ffi
from ._arguments import c_string
from ._c_types import MigrationFunc, MigrationHandle, MigrationObjectFunc, ObjectHandle
from ._ffi import lib
from ._schema import ClassMeta, ClassSchema, normalized, take_schema
from .errors import CallbackError, InvalidatedError, MigrationFailedError, NotFoundError
from .object import RealmObject
from .realm import Realm

__all__ = ["Migration"]


class Migration:
    """A migration in progress; valid only during the migration function.

    ``old_schema``/``new_schema`` are the normalized schemas; :attr:`realm` is the
    realm under the new schema, inside the migration's write transaction. Every
    object handed out (by :meth:`enumerate_objects`, :meth:`create`, ``realm``)
    becomes invalid when the migration function returns.
    """

    def __init__(self, ptr: MigrationHandle) -> None:
        self._ptr: Optional[MigrationHandle] = ptr
        self._realm = Realm(lib.db_migration_get_realm(ptr), "<migration>", in_memory=True, owned=False)
        self._old_metas: Optional[Dict[str, ClassMeta]] = None

    def _h(self) -> MigrationHandle:
        if self._ptr is None:
            raise InvalidatedError(
                "the migration has ended; use the Migration only inside the migration function",
                _ffi.Status.INVALIDATED)
        return self._ptr

    def _end(self) -> None:
        self._realm._expire()
        self._ptr = None

    def _old(self) -> Dict[str, ClassMeta]:
        if self._old_metas is None:
            # The old schema carries the file's keys, which the old objects read with
            # (values, lists, sets, dictionaries, links alike).
            self._old_metas = take_schema(lib.db_migration_get_old_schema(self._h()))
        return self._old_metas

    @property
    def realm(self) -> Realm:
        """The realm under the new schema (borrowed; already in the migration's write)."""
        self._h()
        return self._realm

    @property
    def old_schema(self) -> List[ClassSchema]:
        """The schema stored in the file before the migration (normalized dicts)."""
        return normalized(self._old())

    @property
    def new_schema(self) -> List[ClassSchema]:
        """The schema being opened (normalized dicts)."""
        return normalized(take_schema(lib.db_migration_get_new_schema(self._h())))

    def enumerate_objects(self, class_name: str, fn: Callable[[RealmObject, Optional[RealmObject]], None]) -> None:
        """Call ``fn(old, new)`` for every object of ``class_name`` (a class of the old schema).

        ``old`` reads the object under the old schema (read-only); ``new`` reads and
        writes it under the new schema, or is None when the class is gone from it.
        Both are valid only during the call. An exception from ``fn`` stops the
        enumeration and propagates.
        """
        handle = self._h()
        c_name = c_string(class_name, "class name")
        old_meta = self._old().get(class_name)
        if old_meta is None:
            raise NotFoundError(f"class {class_name!r} is not in the old schema", _ffi.Status.NOT_FOUND)
        new_meta = self._realm._all_metas().get(class_name)
        realm = self._realm
        errors: List[BaseException] = []

        def visit(userdata: Optional[int], old_p: ObjectHandle, new_p: ObjectHandle) -> bool:
            old: Optional[RealmObject] = None
            new: Optional[RealmObject] = None
            try:
                old = RealmObject(realm, old_p, old_meta, owned=False)
                if new_p and new_meta is not None:
                    new = RealmObject(realm, new_p, new_meta, owned=False)
                fn(old, new)
                return True
            except BaseException as exc:  # never let an exception unwind into C
                errors.append(exc)
                return False
            finally:
                # Borrowed pointers: expire the wrappers, never release them.
                if old is not None:
                    old._kill()
                if new is not None:
                    new._kill()

        callback = MigrationObjectFunc(visit)  # referenced until the call returns
        try:
            lib.db_migration_enumerate_objects(handle, c_name, callback, None)
        except CallbackError:
            if errors:
                raise errors[0] from None
            raise
        if errors:  # the library ignored our `false`: still report the user's error
            raise errors[0]

    def rename_property(self, class_name: str, old_name: str, new_name: str) -> None:
        """Keep the data of ``old_name`` (old schema) under ``new_name`` (new schema)."""
        lib.db_migration_rename_property(self._h(), c_string(class_name, "class name"),
                                         c_string(old_name, "old property name"),
                                         c_string(new_name, "new property name"))

    def delete_data(self, class_name: str) -> None:
        """Delete every object of a class (and the class, when the new schema lacks it)."""
        lib.db_migration_delete_data(self._h(), c_string(class_name, "class name"))

    def create(self, class_name: str, values: Mapping[str, object], update: Optional[str] = None) -> RealmObject:
        """Create an object under the new schema (see ``Realm.create``)."""
        self._h()
        return self._realm.create(class_name, values, update)

    def delete(self, obj: RealmObject) -> None:
        """Delete an object (a ``new`` object from enumerate_objects or one created here)."""
        self._h()
        self._realm.delete(obj)


class MigrationRunner:
    """Adapts a Python migration function to db_migration_func_t.

    Exceptions never cross into C: the first one is stored, the callback returns
    false, and :func:`realmdb.open` calls :meth:`raise_failure`.
    """

    def __init__(self, fn: Callable[[Migration, int], None]) -> None:
        if not callable(fn):
            raise TypeError("migration must be callable as migration(m, old_schema_version)")
        self.fn = fn
        self.error: Optional[BaseException] = None
        self.c_func = MigrationFunc(self._call)  # kept referenced by the Realm it opens

    def _call(self, userdata: Optional[int], migration_p: MigrationHandle, old_version: int) -> bool:
        m: Optional[Migration] = None
        try:
            m = Migration(migration_p)
            self.fn(m, int(old_version))
            return True
        except BaseException as exc:
            self.error = exc
            return False
        finally:
            try:
                if m is not None:
                    m._end()
            except BaseException as exc:  # pragma: no cover - defensive
                if self.error is None:
                    self.error = exc

    def raise_failure(self, library_error: BaseException) -> NoReturn:
        """Re-raise the migration's exception as MigrationFailed (KeyboardInterrupt etc. as is)."""
        err = self.error
        assert err is not None
        if not isinstance(err, Exception):
            raise err
        raise MigrationFailedError(f"the migration function raised {type(err).__name__}: {err}",
                              _ffi.Status.MIGRATION_FAILED) from err
