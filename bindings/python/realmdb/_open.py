"""realmdb.open: a configuration made from Python arguments, and the realm it opens.

Above both :mod:`realmdb.realm` and :mod:`realmdb.migration` (a migration function gets a
:class:`~realmdb.Migration`, whose realm is a :class:`~realmdb.Realm`)."""
from __future__ import annotations

import os
from typing import Callable, Dict, Mapping, Optional, Sequence, Type, Union

from ._arguments import c_string, c_uint
from ._c_types import NO_FREE, ShouldCompactFunc
from ._ffi import lib
from ._schema import build_schema, parse_schema
from .errors import InvalidArgumentError, RealmError
from .migration import Migration, MigrationRunner
from .model import Object, bind_models
from .realm import Realm

__all__ = ["open"]


class _CompactionDecision:
    """The C function that asks a Python ``should_compact_on_launch``; an exception it raises is
    kept (never unwound into C), the file is left as it is, and :func:`open` raises it."""

    def __init__(self, decide: Callable[[int, int], bool]) -> None:
        if not callable(decide):
            raise InvalidArgumentError(f"should_compact_on_launch must be callable, not {decide!r}")
        self.error: Optional[BaseException] = None

        def on_decide(userdata: Optional[int], file_bytes: int, used_bytes: int) -> bool:
            try:
                return bool(decide(int(file_bytes), int(used_bytes)))
            except BaseException as exc:  # never unwind into C
                self.error = exc
                return False

        self.c_func = ShouldCompactFunc(on_decide)


def open(
    path: Union[str, os.PathLike[str]],
    schema: Optional[Sequence[Union[Mapping[str, object], Type[Object]]]] = None,
    *,
    schema_version: int = 0,
    migration: Optional[Callable[[Migration, int], None]] = None,
    in_memory: bool = False,
    read_only: bool = False,
    max_active_versions: Optional[int] = None,
    should_compact_on_launch: Optional[Callable[[int, int], bool]] = None,
) -> Realm:
    """Open (creating if needed) a realm.

    Args:
        path: file path, or an identifier shared by in-memory realms of this process.
        schema: list of class dicts (see the package docs) or model classes (subclasses of
            :class:`realmdb.Object`, whose objects the realm then gives back as instances of
            them), or both; None opens with the file's schema.
        schema_version: the version of ``schema``; a higher one than the file's runs ``migration``.
        migration: ``migration(m, old_schema_version)`` with a :class:`realmdb.Migration`.
        in_memory: keep the data in memory only (gone when the last realm on it closes).
        read_only: open read-only (writes raise ReadOnlyError).
        max_active_versions: limit of versions pinned at once (TooManyActiveVersions beyond).
        should_compact_on_launch: ``should_compact_on_launch(file_bytes, used_bytes)``, called
            when no process has the file open (not for in-memory or read-only realms); a true
            result replaces the file by its compacted copy before it opens (see
            :meth:`Realm.write_copy`). For example ``lambda total, used: total > 100 * 2**20 and
            used < total // 2``. An exception it raises fails the open, leaving the file as it is.

    Raises:
        SchemaError, MigrationRequired, MigrationFailed (with the migration's exception as
        ``__cause__``), FileAccessError, FileFormatError, ReadOnlyError, ...
    """
    path_str = os.fsdecode(os.fspath(path))
    c_string(path_str, "the realm path")  # before abspath, which refuses a NUL with a bare ValueError
    if not in_memory:
        path_str = os.path.abspath(path_str)
    c_path = c_string(path_str, "the realm path")
    for name, value in (("schema_version", schema_version), ("max_active_versions", max_active_versions)):
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidArgumentError(f"{name} must be a non-negative int, not {value!r}")
            c_uint(value, name)  # uint64_t: out of range, it would wrap around
    models: Dict[str, Type[Object]] = {}
    specs = None
    if schema is not None:
        if not isinstance(schema, (str, bytes)) and isinstance(schema, Sequence):
            schema, models = bind_models(schema)  # type: ignore[assignment]
        specs = parse_schema(schema)
    runner = MigrationRunner(migration) if migration is not None else None
    compaction = _CompactionDecision(should_compact_on_launch) if should_compact_on_launch is not None else None
    config = lib.db_config_new(c_path)
    try:
        if specs is not None:
            schema_p = build_schema(specs)
            try:
                lib.db_config_set_schema(config, schema_p)
            finally:
                lib.db_schema_release(schema_p)
        lib.db_config_set_schema_version(config, schema_version)
        if in_memory:
            lib.db_config_set_in_memory(config, True)
        if read_only:
            lib.db_config_set_read_only(config, True)
        if max_active_versions is not None:
            lib.db_config_set_max_active_versions(config, max_active_versions)
        if runner is not None:
            lib.db_config_set_migration_function(config, runner.c_func, None, NO_FREE)
        if compaction is not None:
            lib.db_config_set_should_compact_on_launch(config, compaction.c_func, None, NO_FREE)
        try:
            handle = lib.db_realm_open(config)
        except RealmError as exc:
            if runner is not None and runner.error is not None:
                runner.raise_failure(exc)
            raise
        if compaction is not None and compaction.error is not None:
            lib.db_realm_release(handle)
            raise compaction.error
    finally:
        lib.db_config_release(config)
    return Realm(handle, path_str, in_memory=in_memory, keepalive=runner, models=models)
