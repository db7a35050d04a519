"""What counts as a finding: the errors any call may raise, the known findings steered around, tracing.

``attempt`` calls the API: an expected exception is returned, anything else propagates (a finding).
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Tuple

import realmdb
from known_findings import KNOWN

#: What any call may raise: documented errors, not findings.
EXPECTED: Tuple[type, ...] = (realmdb.RealmError, TypeError, ValueError, IndexError, KeyError,
                              OverflowError, LookupError)
STRICT = os.environ.get("REALMDB_FUZZ_STRICT") == "1"
#: REALMDB_FUZZ_KNOWN=ignore: findings already reported (KNOWN, known_findings.py) are not findings again, so a
#: run gets past them to new ones. Unset (the default, and the corpus replay), they fail as found.
#: REALMDB_FUZZ_KNOWN=ignore-except:IDENT ignores all but one (to minimize an input of that one).
_KNOWN_MODE = os.environ.get("REALMDB_FUZZ_KNOWN", "")
IGNORE_KNOWN = _KNOWN_MODE == "ignore" or _KNOWN_MODE.startswith("ignore-except:")
_NOT_IGNORED = _KNOWN_MODE.split(":", 1)[1] if _KNOWN_MODE.startswith("ignore-except:") else None
SKIP = {s.strip() for s in os.environ.get("REALMDB_FUZZ_SKIP", "").split(",") if s.strip()}
TRACE = os.environ.get("REALMDB_FUZZ_TRACE") == "1"
MAX_OPS = 48
#: The realm file is deleted and made anew past this size (or every RESET_EVERY inputs).
MAX_FILE_BYTES = 32 << 20
RESET_EVERY = 5000


class Finding(AssertionError):
    """An invariant does not hold."""


def trace(*parts: Any) -> None:
    if TRACE:
        try:
            print("  fuzz:", *[_short(p) for p in parts], file=sys.stderr)
        except Exception:  # noqa: BLE001 - tracing must never fail the input
            pass


def _short(v: Any) -> str:
    try:
        text = repr(v)
    except Exception as exc:  # noqa: BLE001
        text = f"<repr failed: {type(exc).__name__}>"
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:157] + "..."


def known(ident: str) -> bool:
    """True when the known native crash ``ident`` should be steered around (REALMDB_FUZZ_KNOWN=ignore)."""
    return IGNORE_KNOWN and ident != _NOT_IGNORED and any(k.ident == ident for k in KNOWN)


def _known_exception(error: BaseException) -> bool:
    return IGNORE_KNOWN and any(k.matches(error) and k.ident != _NOT_IGNORED for k in KNOWN)


def counts_as_finding(exc: BaseException) -> bool:
    """An exception of an EXPECTED type that is a finding all the same: a UnicodeError (a ValueError,
    but never a documented error of the API), and with REALMDB_FUZZ_STRICT=1 an InternalError."""
    return isinstance(exc, UnicodeError) or (STRICT and isinstance(exc, realmdb.InternalError))


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Tuple[bool, Any]:
    """Call ``fn``: (True, result), or (False, exception) for an expected exception.

    Unexpected exceptions propagate (a finding). UnicodeError is a ValueError but never a
    documented error of the API (a value that does not decode, a codec failure): a finding.
    With REALMDB_FUZZ_STRICT=1 so is InternalError.
    """
    try:
        return True, fn(*args, **kwargs)
    except EXPECTED as exc:
        if counts_as_finding(exc):
            raise
        trace("  ->", type(exc).__name__, str(exc)[:120])
        return False, exc
    except BaseException as exc:
        if _known_exception(exc):
            trace("  -> known finding", type(exc).__name__, str(exc)[:120])
            return False, exc
        raise
