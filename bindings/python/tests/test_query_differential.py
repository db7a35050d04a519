"""Differential test: random queries, evaluated by the engine and by a plain-Python reference.

A seeded generator (random.Random(1234)) makes ~2000 objects with every scalar kind the query
language treats differently (optional and required, indexed and not, NaN, -0.0, huge ints,
empty/accented/decomposed/long strings, dates) and ~2000 queries from the grammar: comparisons
with literals and ``$n`` arguments (either side), string operators with ``[c]``/``[d]``/``[cd]``,
``IN`` lists and list arguments, ``BETWEEN``, arithmetic, ``AND``/``OR``/``NOT`` nesting,
``TRUEPREDICATE``/``FALSEPREDICATE`` and nulls, spelled with random keyword variants.
(tests/query_generator.py). tests/query_reference.py evaluates the same tree; the sets of
primary keys must be equal. A subset adds SORT/DISTINCT/LIMIT (in the query string or through the
Python methods) and compares the orders exactly; a subset compares count and the aggregates.
Fixed edge queries (wrapping, INT64_MIN / -1, IEEE division, int/double mixing) and targeted
tests (DISTINCT equality, BEGINSWITH[c] through an index, unwritten strings) follow.

Run with ``REALMDB_DIFF_QUERIES=20000`` for a longer soak; ``REALMDB_DIFF_SEED`` changes the seed.
"""
from __future__ import annotations

import os
import random
import time
from typing import Any, Dict, List, Sequence

import pytest

import realmdb
import query_reference as ref
from query_generator import NAMES, NUMERIC, SCHEMA, TYPES, Generator, Query, gen_rows, reference_row
from query_reference import INT64_MAX, NAN, TS

SEED = int(os.environ.get("REALMDB_DIFF_SEED", "1234"))
N_OBJECTS = int(os.environ.get("REALMDB_DIFF_OBJECTS", "2000"))
N_QUERIES = int(os.environ.get("REALMDB_DIFF_QUERIES", "2000"))

def engine_results(base: realmdb.Results, q: Query) -> realmdb.Results:
    res = base.filter(q.text, *q.args)
    for op in q.method_ops:
        if op[0] == "sort":
            res = res.sorted(op[1])
        elif op[0] == "distinct":
            res = res.distinct(*op[1])
        else:
            res = res.limit(op[1])
    return res


def describe_rows(rows_by_pk: Dict[int, Dict[str, Any]], pks: Sequence[int], limit: int = 3) -> str:
    return "; ".join(repr({k: v for k, v in rows_by_pk[pk].items()}) for pk in list(pks)[:limit])


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    rng = random.Random(SEED)
    rows = gen_rows(rng, N_OBJECTS)
    path = str(tmp_path_factory.mktemp("differential") / "diff.realm")
    realm = realmdb.open(path, SCHEMA)
    with realm.write():
        realm.create_many("Row", [tuple(r[n] for n in NAMES) for r in rows], properties=NAMES)
    yield realm, rows, rng
    realm.close()


def test_stored_values_round_trip(dataset):
    """The reference's view of the data is what the engine stores (float32, dates, strings)."""
    realm, rows, _ = dataset
    res = realm.objects("Row")
    refs = [reference_row(r) for r in rows]
    for name in NAMES:
        got = res.values(name)
        if name == "dt":
            got = [ref.ts_from_datetime(v) for v in got]
        expected = [r[name] for r in refs]
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert ref.same_value(g, e, rel=0) or (g != g and e != e), (name, g, e)


def test_random_queries_match_the_reference(dataset):
    realm, rows, rng = dataset
    refs = [reference_row(r) for r in rows]
    by_pk = {r["pk"]: r for r in refs}
    table = ref.Table(refs, NAMES)
    gen = Generator(random.Random(rng.random()), rows)
    agg_rng = random.Random(SEED + 1)
    base = realm.objects("Row")
    # Object keys -> primary keys, read once: each query then reads only its keys (the batch read
    # of values is checked by test_stored_values_round_trip and test_results.py).
    pk_of = dict(zip(base._keys(0, len(base)), base.values("pk")))

    def key_to_pk(res: realmdb.Results) -> List[int]:
        return [pk_of[k] for k in res._keys(0, len(pk_of))]

    failures: List[str] = []
    checked = {"queries": 0, "nonempty": 0, "with_operations": 0, "aggregates": 0}
    started = time.monotonic()
    for n in range(N_QUERIES):
        q = gen.query()
        try:
            res = engine_results(base, q)
            got = key_to_pk(res)
        except realmdb.RealmError as exc:
            failures.append(f"#{n} {q!r}: engine raised {type(exc).__name__}: {exc}")
            continue
        mask = ref.evaluate(table, q.tree)
        matched = [r for r, m in zip(refs, mask) if m]
        expected_rows = ref.apply_operations(matched, q.operations)
        expected = [r["pk"] for r in expected_rows]
        checked["queries"] += 1
        checked["nonempty"] += bool(expected)
        checked["with_operations"] += bool(q.operations)
        # Without SORT/LIMIT the order is not part of the contract: compare sets (and sizes).
        ordered = any(op[0] in ("sort", "limit") for op in q.operations)
        if (got != expected) if ordered else (set(got) != set(expected) or len(got) != len(expected)):
            missing = sorted(set(expected) - set(got))
            extra = sorted(set(got) - set(expected))
            detail = f"missing {missing[:10]} ({describe_rows(by_pk, missing)}), extra {extra[:10]} ({describe_rows(by_pk, extra)})"
            if not missing and not extra:
                detail = f"order differs: expected {expected[:12]}, got {got[:12]}"
            failures.append(f"#{n} {q!r}: {len(expected)} expected, {len(got)} got; {detail}")
            continue
        if n % 8 == 0:
            # count (the in-place path without operations) and the aggregates of two properties
            checked["aggregates"] += 1
            if len(res) != len(expected):
                failures.append(f"#{n} {q!r}: count {len(res)} != {len(expected)}")
            for name in agg_rng.sample(NUMERIC + ["dt"], 2):
                column = [r[name] for r in expected_rows]
                for kind in ("min", "max") if name == "dt" else ("min", "max", "sum", "average"):
                    found, want = ref.aggregate(kind, column, TYPES[name])
                    try:
                        value = getattr(res, kind)(name)
                    except realmdb.OutOfRangeError:
                        value = ref.OVERFLOW
                    if name == "dt" and value is not None:
                        value = ref.ts_from_datetime(value)
                    if not found:
                        want = None
                    if not ref.same_value(value, want, 1e-6 if name == "f" else 1e-9):
                        failures.append(f"#{n} {q!r}: {kind}({name}) = {value!r}, expected {want!r}")
    elapsed = time.monotonic() - started
    print(f"\ndifferential (seed {SEED}): {checked} in {elapsed:.1f}s")
    assert checked["nonempty"] > N_QUERIES // 4, "the generator rarely produces matching queries"
    if failures:
        pytest.fail(f"{len(failures)} of {N_QUERIES} queries disagree with the reference:\n" + "\n".join(failures[:25]))


# --------------------------------------------------------------------------- DISTINCT equality
# DISTINCT groups values the way == and sorting see them: NaN is one value, -0.0 equals 0.0, and
# strings are equal only when their code points are (Swift's String == would merge canonically
# equivalent spellings such as 'é' and 'e' + U+0301).


@pytest.fixture
def distinct_realm(tmp_path):
    realm = realmdb.open(str(tmp_path / "distinct.realm"), SCHEMA)
    rows = [
        {"pk": 0, "od": NAN, "s": "\u00e9cole"},      # é precomposed (NFC)
        {"pk": 1, "od": NAN, "s": "e\u0301cole"},     # e + combining acute (NFD)
        {"pk": 2, "od": -0.0, "s": "ecole"},
        {"pk": 3, "od": 0.0, "s": "\u00e9cole"},
        {"pk": 4, "od": None, "s": "e\u0301cole"},
    ]
    with realm.write():
        for r in rows:
            realm.create("Row", {"i": 0, "f": 0.0, "b": False, **r})
    yield realm
    realm.close()


def test_distinct_treats_nan_as_one_value(distinct_realm):
    assert distinct_realm.objects("Row").distinct("od").values("pk") == [0, 2, 4]


def test_distinct_treats_negative_zero_as_zero(distinct_realm):
    assert distinct_realm.objects("Row").filter("od == od AND od != nil").distinct("od").values("pk") == [2]


def test_distinct_compares_strings_by_code_points(distinct_realm):
    rows = distinct_realm.objects("Row")
    assert rows.filter("s == $0", "\u00e9cole").values("pk") == [0, 3]  # == is by code points
    assert rows.distinct("s").values("pk") == [0, 1, 2]


# --------------------------------------------------------------------------- fixed edge cases


def P(name: str) -> tuple:
    return ("prop", name)


def C(value: Any) -> tuple:
    return ("const", value)


def A(op: str, a: tuple, b: tuple) -> tuple:
    return ("arith", op, a, b)


def CMP(op: str, a: tuple, b: tuple, options: str = "") -> tuple:
    return ("cmp", op, a, b, options)


EDGE_QUERIES = [
    ("i / -1 == nil", CMP("==", A("/", P("i"), C(-1)), C(None))),        # INT64_MIN / -1 is null
    ("i / 0 == nil", CMP("==", A("/", P("i"), C(0)), C(None))),          # int division by zero is null
    ("oi / 0 != nil", CMP("!=", A("/", P("oi"), C(0)), C(None))),
    ("i + 1 < i", CMP("<", A("+", P("i"), C(1)), P("i"))),               # wraps at INT64_MAX
    ("i - 1 > i", CMP(">", A("-", P("i"), C(1)), P("i"))),
    ("-i == i", CMP("==", ("neg", P("i")), P("i"))),                     # 0 and INT64_MIN
    ("i * 2 < 0 AND i > 0", ("and", CMP("<", A("*", P("i"), C(2)), C(0)), CMP(">", P("i"), C(0)))),
    ("i / 7 == -3", CMP("==", A("/", P("i"), C(7)), C(-3))),            # truncates toward zero
    ("i / -7 == 3", CMP("==", A("/", P("i"), C(-7)), C(3))),
    ("oi / 2 == 0", CMP("==", A("/", P("oi"), C(2)), C(0))),
    ("od / 0 > 0", CMP(">", A("/", P("od"), C(0)), C(0))),              # +inf
    ("od / 0 == od / 0", CMP("==", A("/", P("od"), C(0)), A("/", P("od"), C(0)))),  # NaN != NaN
    ("od / 0.0 < 0", CMP("<", A("/", P("od"), C(0.0)), C(0))),
    ("f * 1e300 == inf", CMP("==", A("*", P("f"), C(1e300)), C(float("inf")))),
    ("i + 0.5 > 9223372036854775807", CMP(">", A("+", P("i"), C(0.5)), C(INT64_MAX))),
    ("oi == 9007199254740992.0", CMP("==", P("oi"), C(float(2**53)))),  # int vs double: as doubles
    ("i == od", CMP("==", P("i"), P("od"))),
    ("od == -0.0", CMP("==", P("od"), C(-0.0))),
    ("f != nan", CMP("!=", P("f"), C(NAN))),
    ("od == nan", CMP("==", P("od"), C(NAN))),
    ("oi + 1 == nil", CMP("==", A("+", P("oi"), C(1)), C(None))),
    ("NOT (od >= nil)", ("not", CMP(">=", P("od"), C(None)))),
    ("os ==[d] 'e'", CMP("==", P("os"), C("e"), "d")),
    ("os ==[c] s", CMP("==", P("os"), P("s"), "c")),
    ("s ==[cd] os", CMP("==", P("s"), P("os"), "cd")),
    ("s LIKE '?'", ("match", "LIKE", P("s"), C("?"), "")),
    ("os LIKE '*'", ("match", "LIKE", P("os"), C("*"), "")),              # every non-null string
    ("os LIKE '?*?'", ("match", "LIKE", P("os"), C("?*?"), "")),
    ("os CONTAINS ''", ("match", "CONTAINS", P("os"), C(""), "")),
    ("os BEGINSWITH nil", ("match", "BEGINSWITH", P("os"), C(None), "")),
    ("dt > 1970-01-01@00:00:00", CMP(">", P("dt"), C(TS(0)))),
    ("dt == 2024-03-01@12:00:00:1000", CMP("==", P("dt"), C(TS(1709294400_000001000)))),
    ("dt BETWEEN {T1709294400:0, T1709294400:999}", ("between", P("dt"), C(TS(1709294400_000000000)), C(TS(1709294400_000000999)))),
]


@pytest.mark.parametrize("text, tree", EDGE_QUERIES, ids=[t for t, _ in EDGE_QUERIES])
def test_edge_queries_match_the_reference(dataset, text, tree):
    realm, rows, _ = dataset
    refs = [reference_row(r) for r in rows]
    mask = ref.evaluate(ref.Table(refs, NAMES), tree)
    expected = sorted(r["pk"] for r, m in zip(refs, mask) if m)
    assert sorted(realm.objects("Row").filter(text).values("pk")) == expected


# --------------------------------------------------------------------------- the index and the scan agree


@pytest.fixture
def case_realm(tmp_path):
    schema = [{"name": "W", "primary_key": "id",
               "properties": {"id": "int", "indexed": {"type": "string", "indexed": True}, "plain": "string"}}]
    realm = realmdb.open(str(tmp_path / "case.realm"), schema)
    words = ["\u0130stanbul", "istanbul", "Istanbul", "\u212aelvin", "kelvin", "KELVIN"] + [f"z{i}" for i in range(100)]
    with realm.write():
        for i, w in enumerate(words):
            realm.create("W", {"id": i, "indexed": w, "plain": w})
    yield realm
    realm.close()


# Swift lowercases U+0130 'İ' to 'i' + U+0307 and U+212A (Kelvin sign) to 'k': BEGINSWITH[c] 'i'/'k'
# must find them through the index as the scan does.
@pytest.mark.parametrize("prefix", ["i", "I", "k", "K"])
def test_beginswith_case_insensitive_is_the_same_with_an_index(case_realm, prefix):
    rows = case_realm.objects("W")
    scanned = rows.filter("plain BEGINSWITH[c] $0", prefix).values("id")
    assert len(scanned) == 3
    assert rows.filter("indexed BEGINSWITH[c] $0", prefix).values("id") == scanned


def test_like_star_matches_strings_added_by_a_schema_change(tmp_path):
    # Objects created before the property existed read '' and must match like any other ''.
    path = str(tmp_path / "added.realm")
    with realmdb.open(path, [{"name": "P", "primary_key": "id", "properties": {"id": "int"}}]) as r, r.write():
        for i in range(3):
            r.create("P", {"id": i})
    schema = [{"name": "P", "primary_key": "id", "properties": {"id": "int", "t": "string", "u": "string?"}}]
    with realmdb.open(path, schema, schema_version=1) as r:
        rows = r.objects("P")
        assert rows.values("t") == ["", "", ""]
        for query, count in [("t == ''", 3), ("t LIKE '*'", 3), ("t LIKE '**'", 3), ("t LIKE '?'", 0),
                             ("t BEGINSWITH ''", 3), ("t CONTAINS ''", 3), ("t ENDSWITH 'x'", 0),
                             ("u LIKE '*'", 0), ("u == nil", 3), ("u CONTAINS ''", 0)]:
            assert len(rows.filter(query)) == count, query
