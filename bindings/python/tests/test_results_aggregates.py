"""Results: min, max, sum and average."""
from __future__ import annotations

import datetime as dt
import decimal
import uuid

import pytest

import realmdb

from results_support import N, age_of

UTC = dt.timezone.utc


# --------------------------------------------------------------------------- aggregates


def test_aggregates_skip_nulls(people):
    r = people.objects("Person")
    ages = [a for a in map(age_of, range(N)) if a is not None]
    assert r.min("age") == min(ages)
    assert r.max("age") == max(ages)
    assert r.sum("age") == sum(ages) and isinstance(r.sum("age"), int)
    assert r.average("age") == pytest.approx(sum(ages) / len(ages))
    assert r.sum("score") == pytest.approx(sum(i * 1.5 for i in range(N)))
    assert r.filter("city == 'city1'").max("score") == 10.5
    assert r.filter("city == 'city1'").min("age") is None  # only nulls there
    assert r.filter("city == 'city1'").sum("age") == 0
    assert r.filter("city == 'city1'").average("age") is None


def test_aggregates_of_no_objects(people):
    none = people.objects("Person").filter("FALSEPREDICATE")
    assert none.min("age") is None and none.max("score") is None and none.average("score") is None
    assert none.sum("age") == 0 and none.sum("score") == 0.0


def test_aggregates_follow_sort_distinct_and_limit(people):
    r = people.objects("Person")
    assert r.sorted("score", ascending=False).limit(3).sum("score") == pytest.approx((9 + 8 + 7) * 1.5)
    assert r.distinct("city").max("id") == 2


def test_aggregates_on_wrong_types(people):
    r = people.objects("Person")
    for agg in (r.min, r.max, r.sum, r.average):
        with pytest.raises(realmdb.WrongTypeError):
            agg("name")
        with pytest.raises(realmdb.NotFoundError):
            agg("nope")


def test_aggregates_of_every_numeric_type_and_dates(tmp_realm_path, all_types_schema):
    d0 = dt.datetime(2020, 1, 1, tzinfo=UTC)
    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        with r.write():
            for i in range(4):
                r.create("AllTypes", {
                    "pk": i, "bool": i % 2 == 0, "int": i, "float": i + 0.5, "double": i * 2.0, "string": "s",
                    "data": b"", "date": d0 + dt.timedelta(days=i), "objectId": realmdb.ObjectId(),
                    "uuid": uuid.uuid4(), "decimal128": decimal.Decimal(i),
                    "opt_float": None if i == 0 else float(i), "opt_date": None,
                })
        res = r.objects("AllTypes")
        assert res.sum("float") == pytest.approx(8.0) and isinstance(res.sum("float"), float)
        assert res.min("float") == 0.5 and res.max("float") == 3.5
        assert res.average("double") == 3.0
        assert res.min("date") == d0 and res.max("date") == d0 + dt.timedelta(days=3)
        assert res.min("opt_date") is None
        assert res.average("opt_float") == 2.0
        assert res.min("decimal128") == decimal.Decimal(0) and res.max("decimal128") == decimal.Decimal(3)
        with pytest.raises(realmdb.NotSupportedError):
            res.sum("decimal128")
        for name in ("bool", "string", "data", "objectId", "uuid"):
            with pytest.raises(realmdb.WrongTypeError):
                res.min(name)
        with pytest.raises(realmdb.WrongTypeError):
            res.sum("date")
