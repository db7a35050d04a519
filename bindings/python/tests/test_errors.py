"""Exception names end in Error; the former names stay, as deprecated aliases of the same classes."""
from __future__ import annotations

import warnings

import pytest

import realmdb
from realmdb import errors

RENAMED = {
    "WrongTransactionState": realmdb.WrongTransactionStateError,
    "DuplicatePrimaryKey": realmdb.DuplicatePrimaryKeyError,
    "MigrationRequired": realmdb.MigrationRequiredError,
    "MigrationFailed": realmdb.MigrationFailedError,
    "TooManyActiveVersions": realmdb.TooManyActiveVersionsError,
}


def test_every_public_exception_name_ends_in_error():
    for name in realmdb.__all__:
        value = getattr(realmdb, name) if name not in RENAMED else None
        if isinstance(value, type) and issubclass(value, BaseException):
            assert name.endswith("Error"), name


@pytest.mark.parametrize("old, new", sorted(RENAMED.items()))
def test_former_names_are_deprecated_aliases(old, new):
    assert old in realmdb.__all__ and new.__name__ in realmdb.__all__
    for module in (realmdb, errors):
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: use .*{new.__name__}"):
            alias = getattr(module, old)
        assert alias is new
    with pytest.warns(DeprecationWarning):
        exec(f"from realmdb import {old} as imported", {}, scope := {})
    assert scope["imported"] is new


def test_except_clauses_with_former_names_still_catch(realm, make_person):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(realmdb.WrongTransactionState):
            realm.create("Person", make_person(1))
        with realm.write():
            realm.create("Person", make_person(1))
            try:
                realm.create("Person", make_person(1))
            except realmdb.DuplicatePrimaryKey as exc:
                assert type(exc) is realmdb.DuplicatePrimaryKeyError and exc.code == realmdb.Status.DUPLICATE_PRIMARY_KEY
            else:
                pytest.fail("no DuplicatePrimaryKeyError")


def test_unknown_names_are_still_attribute_errors():
    with pytest.raises(AttributeError):
        realmdb.NoSuchThing  # noqa: B018
    with pytest.raises(AttributeError):
        errors.NoSuchThing  # noqa: B018
    assert not hasattr(realmdb, "Frobnicated")
