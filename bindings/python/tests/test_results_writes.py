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


def test_set_values_packs_long_columns_of_one_type_as_one_by_one(tmp_path):
    """Columns of floats or of ints (from 16 values) are packed in one pass: the same values,
    types and errors as value by value, for every kind of list that is not one of those."""
    import math

    schema = [{"name": "Row", "properties": {"i": "int", "d": "double", "b": "bool", "oi": "int?"}}]
    realm = realmdb.open(str(tmp_path / "columns.realm"), schema)
    try:
        with realm.write():
            realm.create_many("Row", [{"i": 0, "d": 0.0, "b": False, "oi": None} for _ in range(40)])
        rows = realm.objects("Row")
        doubles = [float(i) * 0.25 for i in range(40)]
        doubles[3], doubles[4], doubles[5] = -0.0, math.inf, 1e308
        ints = [(-1) ** i * (2 ** 62 + i) for i in range(40)]
        with realm.write():
            rows.set_values("d", doubles)
            rows.set_values("i", ints)
            rows.set_values("oi", list(range(40)))
        assert rows.values("d") == doubles and math.copysign(1, rows.values("d")[3]) == -1
        assert rows.values("i") == ints and rows.values("oi") == list(range(40))
        with realm.write():
            rows.set_values("d", [float("nan")] * 40)
            rows.set_values("d", list(range(40)))          # ints widen to a double property
            rows.set_values("b", [True, False] * 20)       # bools are not packed as ints
            rows.set_values("oi", [None, 5] * 20)          # mixed: one by one
        assert rows.values("d") == [float(i) for i in range(40)]
        assert rows.values("b") == [True, False] * 20 and rows.values("oi") == [None, 5] * 20
        with realm.write():
            with pytest.raises(realmdb.WrongTypeError):
                rows.set_values("i", [1.5] * 40)           # floats for an int property
            with pytest.raises(realmdb.WrongTypeError):
                rows.set_values("i", [True] * 40)
            with pytest.raises(OverflowError, match="does not fit in 64 bits"):
                rows.set_values("i", [1] * 39 + [2 ** 64])  # beyond 64 bits: reported as before
        assert rows.values("i") == ints, "failed batches write nothing"
    finally:
        realm.close()


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


def test_empty_strings_read_back_after_a_large_delete_in_the_same_write(tmp_path):
    """Deleting most long strings of a cluster compacts its text in memory; empty strings kept
    their old offsets past the compacted text, and the next read of one (here: delete_all
    reading the indexed values it removes, then the loop) killed the process."""
    schema = [{"name": "Note", "primary_key": "id",
               "properties": {"id": "int", "text": {"type": "string", "indexed": True}}}]
    with realmdb.open(str(tmp_path / "notes.realm"), schema) as realm:
        with realm.write():
            realm.create_many("Note", [{"id": i, "text": "" if i % 3 == 0 else "x" * 200 + str(i)} for i in range(1000)])
        with realm.write():
            # The long texts first (ids ascending), then notes from 950 on, empty ones among them.
            assert realm.objects("Note").filter("(text != '' AND id < 900) OR id >= 950").delete_all() == 650
            texts = {note.id: note.text for note in realm.objects("Note")}
        kept = [i for i in range(950) if i % 3 == 0 or i >= 900]
        assert texts == {i: "" if i % 3 == 0 else "x" * 200 + str(i) for i in kept}
        assert len(realm.objects("Note").filter("text == ''")) == 317
        assert realm.check().objects == len(kept) == 350
