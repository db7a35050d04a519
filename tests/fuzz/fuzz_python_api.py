#!/usr/bin/env python3
"""Coverage-guided fuzzing of realmdb's Python API with atheris.

Each input is a program: the fuzzer's bytes (read through a FuzzedDataProvider) choose a
sequence of operations on a realm with a fixed schema that has every property type, lists, sets,
dictionaries, links, backlinks and embedded objects: create/update/delete objects with values of
random Python types (wrong types, huge ints, NaN, NUL characters, lone surrogates, bytes, nested
lists and dicts, objects of another realm, deleted objects ...), attribute reads and writes, list,
set and dictionary operations with random indices and keys, ``filter`` with query strings built
from a grammar-aware mix of tokens and raw fuzz text (and random arguments), sorted/distinct/
limit, aggregates, freeze/thaw, observe + refresh, write/commit/cancel, close.

Every call may raise the errors the API documents (``EXPECTED``). Anything else is a finding:
another exception type, a failed invariant (AssertionError), a crash of the process (signal) or a
hang (libFuzzer's -timeout). Invariants checked:

* ``len(results)`` equals the number of objects iterated, for every Results the input made;
* every object of a query's results is an object of its class (a query result is a subset);
* a property read back right after a successful write has the written value (for the types that
  round-trip exactly), and a failed write leaves the old value;
* an element appended to a list, added to a set or stored under a dictionary key reads back.

Usage::

    python3 tests/fuzz/fuzz_python_api.py [libFuzzer options] [corpus dirs]   (needs atheris)
    tests/fuzz/run_fuzz.sh short | long SECONDS

``TestOneInput(data)`` can also be imported and called without atheris (the corpus replay test
does that); then ``fdp.FuzzedDataProvider``, which consumes bytes exactly as atheris's does, is used.

Each input starts from the same objects (``fixture()``) in a realm file that is reused across
inputs and made anew when it grows past MAX_FILE_BYTES.

Environment:
    REALMDB_FUZZ_KNOWN=ignore steer around the findings listed in known_findings.py (run_fuzz.sh
                              sets it); ignore-except:IDENT all but one; unset, they are findings.
    REALMDB_FUZZ_STRICT=1     treat realmdb.InternalError ("a bug in realmdb") as a finding too.
    REALMDB_FUZZ_SKIP=a,b     skip operations by name (OPS).
    REALMDB_FUZZ_TRACE=1      print each operation to stderr (to turn a crashing input into a repro).
    REALMDB_FUZZ_TMP=DIR      where the realm files go (default: the system's temporary directory).

The harness's parts are in tests/fuzz/python_api/ (its __init__.py lists them): this file sets up
the process (paths, environment, atheris) and runs one input.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for _p in (str(REPO / "bindings" / "python"), str(HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)
# Swift's runtime installs its own SIGILL/SIGSEGV backtracer when libdb.so loads; libFuzzer then leaves
# those signals alone, and a Swift trap (fatalError, overflow) kills the process without a crash file.
# Without it, libFuzzer catches the trap (Swift still prints its "Fatal error: ..." line first).
os.environ.setdefault("SWIFT_BACKTRACE", "enable=no")
if "REALMDB_LIBRARY" not in os.environ and (REPO / ".build" / "debug" / "libdb.so").exists():
    os.environ["REALMDB_LIBRARY"] = str(REPO / ".build" / "debug" / "libdb.so")

try:
    import atheris  # type: ignore
except ImportError:  # replay without atheris (plain pytest)
    atheris = None

# realmdb is imported here, before the harness's modules import it: under atheris, instrumented.
if atheris is not None and __name__ == "__main__":
    # Coverage feedback comes from the binding's Python code (libdb.so is not instrumented).
    with atheris.instrument_imports(include=["realmdb"]):
        import realmdb
        import realmdb.migration  # noqa: F401  (imported lazily by the package otherwise)
        import realmdb.notifications  # noqa: F401
        import realmdb.sectioned  # noqa: F401
else:
    import realmdb
    import realmdb.notifications  # noqa: F401
    import realmdb.sectioned  # noqa: F401

from python_api import invariants, operations, ops_collections, ops_objects, ops_realm, ops_results, queries  # noqa: E402
from python_api.context import Ctx  # noqa: E402
from python_api.invariants import check_invariants  # noqa: E402
from python_api.operations import OPS, run_op  # noqa: E402
from python_api.policy import EXPECTED, MAX_OPS, attempt  # noqa: E402
from python_api.state import get_state, reset_state  # noqa: E402

if atheris is not None:
    FuzzedDataProvider = atheris.FuzzedDataProvider
else:
    from fdp import FuzzedDataProvider  # type: ignore  # noqa: E402

__all__ = ["TestOneInput", "atheris", "reset_state"]

#: The modules whose operations, generators and checks atheris instruments (coverage of the
#: harness's own branches: which operations and values were reached).
INSTRUMENTED_MODULES = (queries, ops_objects, ops_collections, ops_results, ops_realm, operations, invariants)


def TestOneInput(data: bytes) -> None:
    """Run one input: a sequence of operations, then the invariants, then clean up."""
    state = get_state()
    start = state.prepare()
    c = Ctx(FuzzedDataProvider(data), state)
    c.objects.extend(start)
    try:
        if c.n(7):  # most inputs start in a write transaction
            attempt(c.realm.begin_write)
        for _ in range(MAX_OPS):
            if c.d.remaining_bytes() == 0:
                break
            run_op(c, c.n(len(OPS) - 1))
        check_invariants(c)
        realm = c.realm
        if not realm.is_closed and realm.in_write:
            if c.flag():
                attempt(realm.commit)
            else:
                attempt(realm.cancel_write)
        if not realm.is_closed and realm.in_write:
            realm.cancel_write()
        check_invariants(c)
    finally:
        for tok in c.tokens:
            try:
                tok.invalidate()
            except EXPECTED:
                pass
        for fr in c.frozen:
            try:
                fr.close()
            except EXPECTED:
                pass
        c.objects.clear()
        c.results.clear()
        c.colls.clear()
        c.tokens.clear()
        c.frozen.clear()


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install -r requirements-fuzz.txt "
                 "(or replay inputs with: python3 -m pytest bindings/python/tests/test_fuzz_corpus.py)")
    for module in INSTRUMENTED_MODULES:
        for name, fn in list(vars(module).items()):
            if (callable(fn) and getattr(fn, "__module__", None) == module.__name__
                    and name.startswith(("op_", "gen_", "check_", "_check"))):
                atheris.instrument_func(fn)  # patches the function's code in place
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
