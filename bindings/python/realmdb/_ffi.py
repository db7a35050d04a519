"""Loading libdb.so and declaring its functions on it, in one place.

The declarations themselves are data, in :mod:`realmdb._c_types` (enums, structs, handle and
callback types; re-exported here) and :mod:`realmdb._prototypes` (every function's ``argtypes``,
``restype`` and failure kind); ``tools/check_ffi.py`` checks both against ``include/db.h``. This
module loads the library and applies each prototype, with an ``errcheck`` that turns a failure
(a non-zero status, or a NULL result) into a :class:`realmdb.RealmError` subclass, reading the
details with ``db_get_last_error`` right away, before any other library call.

Nothing else in the package touches ``ctypes.CDLL`` or declares a prototype.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Any, Callable, Dict, NoReturn, Optional, Tuple

from . import errors
from ._c_types import *  # noqa: F401,F403  (re-exported: realmdb._ffi names every C declaration)
from ._c_types import Status, db_error_t
from ._prototypes import OPTIONAL_PTR, PROTOTYPES, PTR, STATUS, TAKE_STRING

# --------------------------------------------------------------------------
# Locating the library
# --------------------------------------------------------------------------

#: Environment variable naming the libdb.so to load (takes precedence).
LIBRARY_ENV = "REALMDB_LIBRARY"

#: The library an installed wheel carries (see setup.py): found first.
BUNDLED = Path(__file__).resolve().parent / "_lib" / "libdb.so"

#: The repository root when running from a source checkout
#: (bindings/python/realmdb -> three levels up).
REPO_ROOT = Path(__file__).resolve().parents[3]

#: Build outputs of a source checkout, tried when there is no bundled library; the newest wins.
CANDIDATES = (
    REPO_ROOT / ".build" / "release" / "libdb.so",
    REPO_ROOT / ".build-release" / "release" / "libdb.so",
    REPO_ROOT / ".build" / "debug" / "libdb.so",
    REPO_ROOT / "build" / "cmake" / "libdb.so",
    REPO_ROOT / "build" / "libdb.so",
)


def find_library() -> str:
    """Return the path of libdb.so to load.

    ``$REALMDB_LIBRARY`` if set; otherwise the library bundled with the package (a wheel);
    otherwise, in a source checkout, the most recently modified of :data:`CANDIDATES`.
    Raises :class:`ImportError` when none is found.
    """
    env = os.environ.get(LIBRARY_ENV)
    if env:
        return env
    if BUNDLED.is_file():
        return str(BUNDLED)
    if not (REPO_ROOT / "Package.swift").is_file():
        raise ImportError(
            f"realmdb: this installation carries no libdb.so ({BUNDLED} is missing); install the wheel "
            "built by `python3 -m pip wheel ./bindings/python` in the realmdb repository, or set "
            f"{LIBRARY_ENV} to a libdb.so")
    found = []
    for path in CANDIDATES:
        try:
            found.append((path.stat().st_mtime, str(path)))
        except OSError:
            continue
    if not found:
        tried = ", ".join(str(p) for p in CANDIDATES)
        raise ImportError(
            f"realmdb: libdb.so not found in the repository at {REPO_ROOT} (tried {tried}); build it "
            f"(swift build) or set {LIBRARY_ENV}")
    return max(found)[1]


class _State:
    """Process-wide flags shared by the handle owners."""

    #: Set by the atexit hook once every realm is closed: finalizers then stop
    #: calling into the library (the process is exiting; nothing leaks).
    shutting_down = False


state = _State()


class HandleOwner:
    """Base of the classes that own a library handle: when one is collected, ``__del__`` calls
    its :meth:`_finalize` (release the handle if it still holds it), except once the interpreter
    is exiting (``state.shutting_down``), and never raises: at interpreter teardown the module's
    globals may already be gone."""

    __slots__ = ()

    def _finalize(self) -> None:
        raise NotImplementedError

    def __del__(self) -> None:
        try:
            if not state.shutting_down:
                self._finalize()
        except Exception:  # pragma: no cover - interpreter teardown
            pass

LIBRARY_PATH = find_library()
lib = ctypes.CDLL(LIBRARY_PATH)

def last_error() -> Optional[errors.RealmError]:
    """The exception for the thread's last error, or None when the last call succeeded."""
    err = db_error_t()
    if not lib.db_get_last_error(ctypes.byref(err)) or err.code == 0:
        return None
    raw: Optional[bytes] = err.message
    message = raw.decode("utf-8", "replace") if raw else ""
    return errors.from_code(int(err.code), message, int(err.offset))


def raise_last_error(code: int = Status.INTERNAL) -> NoReturn:
    """Raise the thread's last error; ``code`` is used if the library recorded none."""
    exc = last_error()
    if exc is None:
        name = bytes(lib.db_status_string(code)).decode("utf-8", "replace")
        exc = errors.from_code(code, f"{name} (no error details recorded)", -1)
    raise exc


def _check_status(result: int, func: Any, args: Tuple[Any, ...]) -> None:
    if result != 0:
        raise_last_error(result)
    return None


def _check_ptr(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    if not result:
        raise_last_error()
    return result


def _check_optional_ptr(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    """NULL is a normal answer ("absent") unless the library recorded an error."""
    if not result:
        exc = last_error()
        if exc is not None:
            raise exc
        return None
    return result


def _take_string(result: Any, func: Any, args: Tuple[Any, ...]) -> str:
    """Copy a library-owned ("new") char * into a str and free it."""
    if not result:
        raise_last_error()
    try:
        return ctypes.string_at(result).decode("utf-8", "replace")
    finally:
        lib.db_string_free(result)


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------

_ERRCHECKS: Dict[str, Callable[[Any, Any, Tuple[Any, ...]], Any]] = {
    STATUS: _check_status,
    PTR: _check_ptr,
    OPTIONAL_PTR: _check_optional_ptr,
    TAKE_STRING: _take_string,
}

for _name, _proto in PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype = _proto.restype
    _f.argtypes = _proto.argtypes
    if _proto.check is not None:
        _f.errcheck = _ERRCHECKS[_proto.check]
del _name, _proto, _f


class _AddressedFunctions:
    """The library's functions again, declared for the hot paths of objects: every pointer
    argument is a ``c_void_p`` (pass an int address, from ``ctypes.addressof``, or None for
    NULL), and a function returning a status returns it bare, with no ``errcheck``. Through
    ctypes, converting a typed pointer argument and running an ``errcheck`` cost more than the
    library's own work for a point read or a write, so ``object`` and ``realm`` call these where
    a call is made once per object. The caller checks the status itself
    (``if status: raise_last_error(status)``). Made on first use, from the same
    :data:`PROTOTYPES` as ``lib``'s, on function objects of their own."""

    def __init__(self, library: ctypes.CDLL) -> None:
        self._library = library

    def __getattr__(self, name: str) -> Any:
        proto = PROTOTYPES[name]  # KeyError: not a function of db.h
        function = getattr(self._library, name)
        function.argtypes = [ctypes.c_void_p if _is_pointer(t) else t for t in proto.argtypes]
        function.restype = ctypes.c_void_p if _is_pointer(proto.restype) else proto.restype
        setattr(self, name, function)
        return function


def _is_pointer(ctype: Any) -> bool:
    return isinstance(ctype, type) and issubclass(ctype, ctypes._Pointer)


#: :class:`_AddressedFunctions` of the loaded library (a second ``CDLL`` of the same file: the
#: same code, function objects of their own).
addressed = _AddressedFunctions(ctypes.CDLL(LIBRARY_PATH))


def library_version() -> str:
    """The library's version string (``db_library_version_string``)."""
    return bytes(lib.db_library_version_string()).decode("ascii", "replace")
