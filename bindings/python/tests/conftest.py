"""Shared fixtures for the realmdb binding tests.

The package is imported from bindings/python (no install needed); the library
is found the same way the package finds it ($REALMDB_LIBRARY or the newest
build output of the repository). With REALMDB_TEST_INSTALLED=1 the tests use the
installed package and its bundled library instead (scripts/test_wheel.sh).
"""
from __future__ import annotations

import copy
import gc
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

PYTHON_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
#: REALMDB_TEST_INSTALLED=1: test the realmdb installed in this Python (a wheel, with the library it
#: carries), not the package of this checkout; child processes then import it too.
INSTALLED = os.environ.get("REALMDB_TEST_INSTALLED") == "1"
if not INSTALLED and str(PYTHON_ROOT) not in sys.path:
    sys.path.insert(0, str(PYTHON_ROOT))

import realmdb  # noqa: E402
from results_support import N, age_of  # noqa: E402

PERSON_SCHEMA = [
    {
        "name": "Person",
        "primary_key": "id",
        "properties": {
            "id": "int",
            "name": "string",
            "age": "int?",
            "score": "double",
            "city": {"type": "string", "indexed": True},
        },
    },
    {"name": "Note", "properties": {"text": "string", "stars": "int?"}},  # no primary key
]

# One required and one optional property per type.
ALL_TYPES = ["bool", "int", "float", "double", "string", "data", "date", "objectId", "uuid", "decimal128"]
ALL_TYPES_SCHEMA = [
    {
        "name": "AllTypes",
        "primary_key": "pk",
        "properties": {
            "pk": "int",
            **{t: t for t in ALL_TYPES},
            **{f"opt_{t}": f"{t}?" for t in ALL_TYPES},
        },
    }
]


@pytest.fixture
def tmp_realm_path(tmp_path: Path) -> str:
    """A path for a new realm file inside pytest's per-test temporary directory."""
    return str(tmp_path / "test.realm")


@pytest.fixture
def person_schema() -> list:
    """A fresh copy of the Person/Note schema (tests may modify it)."""
    return copy.deepcopy(PERSON_SCHEMA)


@pytest.fixture
def all_types_schema() -> list:
    """A class with a required and an optional property of every type."""
    return copy.deepcopy(ALL_TYPES_SCHEMA)


@pytest.fixture
def open_realm(tmp_realm_path: str) -> Iterator[Callable[..., realmdb.Realm]]:
    """``open_realm(schema, path=tmp_realm_path, **options)``: ``realmdb.open``, and every realm it
    opened is closed after the test (a write left open is cancelled first).

    The teardown then collects garbage, so that handles the test left in reference cycles are
    released by this test, not at a random point of a later one (where a failure would be hard
    to place). Releasing a realm inside a library callback is itself safe: see
    test_sectioned.test_a_key_function_may_release_another_realm."""
    opened: List[realmdb.Realm] = []

    def open_(schema: list, path: str = tmp_realm_path, **options) -> realmdb.Realm:
        r = realmdb.open(path, schema, **options)
        opened.append(r)
        return r

    yield open_
    for r in opened:
        if r.in_write:
            r.cancel_write()
        r.close()
    opened.clear()
    gc.collect()


@pytest.fixture
def realm(open_realm: Callable[..., realmdb.Realm], person_schema: list) -> realmdb.Realm:
    """An open realm with the Person schema, closed after the test."""
    return open_realm(person_schema)


def person(i: int, **overrides) -> dict:
    """Values for a valid Person with id ``i``."""
    values = {"id": i, "name": f"name{i}", "age": 20 + i, "score": i * 1.5, "city": f"city{i % 3}"}
    values.update(overrides)
    return values


@pytest.fixture
def make_person() -> Callable[..., dict]:
    """``make_person(i, **overrides)``: values for a valid Person."""
    return person


@pytest.fixture
def people(realm: realmdb.Realm, make_person: Callable[..., dict]) -> realmdb.Realm:
    """The realm with ten people (ids 0..9, ages from results_support.age_of: some None)."""
    with realm.write():
        for i in range(N):
            realm.create("Person", make_person(i, age=age_of(i)))
    return realm


def child_env() -> dict:
    """Environment for a child Python process using the same package and library."""
    env = dict(os.environ)
    if not INSTALLED:
        env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env["REALMDB_LIBRARY"] = realmdb.LIBRARY_PATH
    return env


@pytest.fixture
def child_environ() -> dict:
    """The environment for child processes (see child_env)."""
    return child_env()


@pytest.fixture
def run_python() -> Callable[..., subprocess.CompletedProcess]:
    """``run_python(code, *args, timeout=60)``: run a Python script in a child process."""

    def run(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        cmd: List[str] = [sys.executable, "-c", textwrap.dedent(code), *args]
        return subprocess.run(cmd, env=child_env(), capture_output=True, text=True, timeout=timeout)

    return run
