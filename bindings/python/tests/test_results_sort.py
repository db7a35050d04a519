"""Results: sorting, distinct and limit."""
from __future__ import annotations

import math

import pytest

import realmdb

from results_support import N, ids


# --------------------------------------------------------------------------- sorting


def test_sorted_forms(people):
    r = people.objects("Person")
    assert r.sorted("age").values("age") == [None, None, None, 20, 22, 23, 25, 26, 28, 29]
    assert r.sorted("age", ascending=False).values("age") == [29, 28, 26, 25, 23, 22, 20, None, None, None]
    assert ids(r.sorted([("city", True), ("id", False)])) == [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]
    assert ids(r.sorted(["city", "id"], ascending=False)) == [8, 5, 2, 7, 4, 1, 9, 6, 3, 0]
    assert ids(r.sorted(("city", False))) == ids(r.sorted("city", ascending=False))
    with pytest.raises(realmdb.NotFoundError):
        r.sorted("nope")
    with pytest.raises(TypeError):
        r.sorted(42)
    with pytest.raises(ValueError):
        r.sorted([])


def test_sort_is_stable(people):
    r = people.objects("Person")
    # Ties (nulls, and equal cities) keep creation order, ascending and descending.
    assert ids(r.sorted("age"))[:3] == [1, 4, 7]
    assert ids(r.sorted("age", ascending=False))[-3:] == [1, 4, 7]
    assert ids(r.sorted("city")) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    assert ids(r.sorted("city", ascending=False)) == [2, 5, 8, 1, 4, 7, 0, 3, 6, 9]
    # A second sort orders ties of the first by their position after the first.
    assert ids(r.sorted("id", ascending=False).sorted("city")) == [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]


def test_strings_sort_by_code_point(realm):
    words = ["b", "B", "a", "é", "e", "Z", "", "ß", "aa", "A", "\u0065\u0301", "😀", "ﬀ", "z"]
    with realm.write():
        for i, w in enumerate(words):
            realm.create("Person", {"id": i, "name": w, "score": 0.0, "city": ""})
    r = realm.objects("Person")
    assert r.sorted("name").values("name") == sorted(words)
    assert r.sorted("name", ascending=False).values("name") == sorted(words, reverse=True)
    assert r.filter("name > 'Z' SORT(name ASC)").values("name") == sorted(w for w in words if w > "Z")


def test_sorted_doubles_with_nan_and_negative_zero(realm):
    scores = [1.0, float("nan"), -0.0, 0.0, -math.inf, math.inf, -1.5, float("nan")]
    with realm.write():
        for i, s in enumerate(scores):
            realm.create("Person", {"id": i, "name": "", "score": s, "city": ""})
    r = realm.objects("Person")
    # NaN first (after nulls), then values; -0.0 and 0.0 tie and keep creation order.
    assert ids(r.sorted("score")) == [1, 7, 4, 6, 2, 3, 0, 5]
    assert ids(r.sorted("score", ascending=False)) == [5, 0, 2, 3, 6, 4, 1, 7]


# --------------------------------------------------------------------------- distinct and limit


def test_distinct(people):
    r = people.objects("Person")
    assert ids(r.distinct("city")) == [0, 1, 2]
    assert ids(r.distinct("age")) == [0, 1, 2, 3, 5, 6, 8, 9]  # one null kept
    assert ids(r.distinct("city", "age")) == [0, 1, 2, 3, 5, 6, 8, 9]
    assert ids(r.distinct(["city", "age"])) == ids(r.distinct("city", "age"))
    assert ids(r.sorted("id", ascending=False).distinct("city")) == [9, 8, 7]
    with pytest.raises(realmdb.NotFoundError):
        r.distinct("nope")
    with pytest.raises(ValueError):
        r.distinct()


def test_limit_and_its_order_with_sort(people):
    r = people.objects("Person")
    assert ids(r.limit(3)) == [0, 1, 2]
    assert ids(r.limit(0)) == []
    assert len(r.limit(100)) == N
    # Operations apply in the order written: sort then limit, or limit then sort.
    assert ids(r.sorted("score", ascending=False).limit(2)) == [9, 8]
    assert ids(r.limit(2).sorted("score", ascending=False)) == [1, 0]
    assert ids(r.filter("TRUEPREDICATE SORT(score DESC) LIMIT(2)")) == [9, 8]
    assert ids(r.filter("TRUEPREDICATE LIMIT(2) SORT(score DESC)")) == [1, 0]
    with pytest.raises(ValueError):
        r.limit(-1)
    with pytest.raises(TypeError):
        r.limit(2.0)
    with pytest.raises(TypeError):
        r.limit(True)
