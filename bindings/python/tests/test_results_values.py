"""Results: reading a property of every object in batches (values)."""
from __future__ import annotations

import pytest

import realmdb


# --------------------------------------------------------------------------- values (batch read)


def test_values_of_every_type(tmp_realm_path, all_types_schema):
    from test_objects import SAMPLE  # one sample value per type

    with realmdb.open(tmp_realm_path, all_types_schema) as r:
        with r.write():
            for i in range(3):
                values = {"pk": i, **SAMPLE}
                values.update({f"opt_{k}": (v if i != 1 else None) for k, v in SAMPLE.items()})
                r.create("AllTypes", values)
        res = r.objects("AllTypes")
        for name, value in SAMPLE.items():
            got = res.values(name)
            assert got == [value] * 3, name
            assert all(type(v) is type(value) for v in got), name
            assert res.values("opt_" + name) == [value, None, value], name


def test_values_across_batches_and_with_nulls(realm):
    n = 10_000
    rows = [(f"t{i}", None if i % 7 == 0 else i) for i in range(n)]
    with realm.write():
        realm.create_many("Note", rows, properties=("text", "stars"))
    r = realm.objects("Note")
    assert r.values("stars") == [s for _, s in rows]
    assert r.values("text") == [t for t, _ in rows]
    assert r.filter("stars == nil").values("stars") == [None] * len(range(0, n, 7))
    assert r.filter("FALSEPREDICATE").values("text") == []
    assert r.sorted("stars", ascending=False).limit(2).values("stars") == [n - 1, n - 2]
    with pytest.raises(realmdb.NotFoundError):
        r.values("nope")


def test_values_read_by_several_threads_at_once_are_each_their_own(tmp_realm_path, person_schema):
    # Each thread reads through buffers of its own (a C call releases the GIL mid-read).
    import threading

    n = 3000
    with realmdb.open(tmp_realm_path, person_schema) as r:
        with r.write():
            r.create_many("Person", [{"id": i, "name": f"name{i}", "score": float(i), "city": f"c{i % 9}"}
                                     for i in range(n)])
    failures = []

    def read(column, expected):
        with realmdb.open(tmp_realm_path, person_schema) as mine:
            people = mine.objects("Person")
            for _ in range(40):
                got = people.values(column)
                if got != expected:
                    failures.append(column)
                    return

    threads = [threading.Thread(target=read, args=("name", [f"name{i}" for i in range(n)])),
               threading.Thread(target=read, args=("city", [f"c{i % 9}" for i in range(n)])),
               threading.Thread(target=read, args=("id", list(range(n))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_values_read_while_a_loop_over_results_is_suspended(realm):
    with realm.write():
        realm.create_many("Person", [{"id": i, "name": f"name{i}", "score": 0.0, "city": f"city{i}"} for i in range(2000)])
    people = realm.objects("Person")
    seen = []
    for i, person in enumerate(people):
        if i % 500 == 0:
            assert people.values("city")[i] == f"city{i}"  # reads between the loop's batches
        seen.append(person.name)
    assert seen == [f"name{i}" for i in range(2000)]


def test_values_of_unicode_and_empty_strings(realm):
    names = ["", "é", "e\u0301", "日本語", "x" * 600, "a\x00b"]
    with realm.write():
        for i, name in enumerate(names):
            realm.create("Person", {"id": i, "name": name, "score": 0.0, "city": ""})
    assert realm.objects("Person").values("name") == names


@pytest.mark.parametrize("names", [
    [f"name{i}" for i in range(5000)],                      # ASCII over two batches: sliced from one str
    [f"n\u00e9{i}" if i % 7 else "" for i in range(3000)],  # not ASCII, and empty strings: decoded one by one
    ["x" * 1000 for _ in range(100)] + ["tail"],             # more bytes than the buffer: read at their addresses
    ["a\x00b", "\U0001f600", "plain"],
])
def test_string_columns_read_through_the_column_buffer_as_they_were_written(realm, names):
    with realm.write():
        realm.create_many("Person", [{"id": i, "name": name, "score": 0.0, "city": name[:3]} for i, name in enumerate(names)])
    people = realm.objects("Person").sorted("id")
    assert people.values("name") == names
    assert [p.name for p in people] == names  # iteration reads rows ahead through the same buffer
