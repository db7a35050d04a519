"""Results: writing a property of every object (set_value, set_values) and delete_all."""
from __future__ import annotations

import pytest

import realmdb

from results_support import N, ids


# --------------------------------------------------------------------------- writes


def test_set_value_on_every_object(people):
    r = people.objects("Person").filter("city == 'city0'")
    with people.write():
        r.set_value("score", 0.0)
        r.set_value("age", None)
    assert r.values("score") == [0.0] * 4
    assert r.values("age") == [None] * 4
    assert people.objects("Person").filter("score == 0").values("id") == [0, 3, 6, 9]


def test_set_value_errors(people):
    r = people.objects("Person")
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.set_value("score", 1.0)
    with people.write():
        with pytest.raises(realmdb.WrongTypeError):
            r.set_value("score", "high")
        with pytest.raises(realmdb.NotNullableError):
            r.set_value("name", None)
        with pytest.raises(realmdb.LogicError):
            r.set_value("id", 5)
        with pytest.raises(realmdb.NotFoundError):
            r.set_value("nope", 1)
    assert r.values("score") == [i * 1.5 for i in range(N)]


def test_set_values_writes_one_value_per_object(people):
    r = people.objects("Person")
    scores = r.values("score")
    with people.write():
        r.set_values("score", [s + 1.0 for s in scores])
        r.filter("city == 'city0'").set_values("age", [None, 7], start=2)
    assert r.values("score") == [s + 1.0 for s in scores]
    assert r.filter("city == 'city0'").values("age")[2:] == [None, 7]
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.set_values("score", [1.0])
    with people.write():
        with pytest.raises(IndexError):
            r.set_values("score", [1.0, 2.0], start=N - 1)
        with pytest.raises(IndexError):
            r.set_values("score", [1.0], start=-1)
        with pytest.raises(realmdb.WrongTypeError):
            r.set_values("score", [1.0, "high"])
    assert r.values("score") == [s + 1.0 for s in scores], "failed batches write nothing"


def test_set_value_changes_membership_of_live_results(people):
    young = people.objects("Person").filter("age < 25")
    assert ids(young) == [0, 2, 3]
    with people.write():
        young.set_value("age", 99)
        assert len(young) == 0


def test_delete_all(people):
    r = people.objects("Person").filter("city == 'city2'")
    with pytest.raises(realmdb.WrongTransactionStateError):
        r.delete_all()
    with people.write():
        assert r.delete_all() == 3
        assert r.delete_all() == 0
    assert people.count("Person") == N - 3
    assert len(r) == 0
