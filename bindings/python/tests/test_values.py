"""Value conversion (no realm needed): ObjectId, decimal128 BID, timestamps, errors, loading."""
from __future__ import annotations

import datetime as dt
import decimal
import os
import re
import time
import uuid

import pytest

import realmdb
from realmdb import _batches, _ffi, _values, errors
from realmdb._ffi import ValueType

D = decimal.Decimal

# --------------------------------------------------------------------------- ObjectId


def test_object_id_parse_and_format():
    hexstr = "5f1b2c3d4e5f60718293a4b5"
    oid = realmdb.ObjectId(hexstr)
    assert str(oid) == hexstr
    assert repr(oid) == f"ObjectId('{hexstr}')"
    assert oid.bytes == bytes.fromhex(hexstr)
    assert realmdb.ObjectId(bytes.fromhex(hexstr)) == oid
    assert realmdb.ObjectId(oid) == oid
    assert realmdb.ObjectId(hexstr.upper()) == oid
    assert hash(realmdb.ObjectId(hexstr)) == hash(oid)
    assert {oid, realmdb.ObjectId(hexstr)} == {oid}
    assert oid != realmdb.ObjectId("000000000000000000000000")
    assert oid != hexstr  # no implicit comparison with strings


@pytest.mark.parametrize("bad", ["", "123", "zz" * 12, "5f1b2c3d4e5f60718293a4b5ff", b"short", bytes(13)])
def test_object_id_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        realmdb.ObjectId(bad)


def test_object_id_rejects_wrong_type():
    with pytest.raises(TypeError):
        realmdb.ObjectId(12)  # type: ignore[arg-type]


def test_object_id_generation():
    before = int(time.time())
    ids = [realmdb.ObjectId() for _ in range(1000)]
    after = int(time.time())
    assert len(set(ids)) == 1000
    for oid in ids[:5]:
        assert before <= int.from_bytes(oid.bytes[:4], "big") <= after
        assert before <= oid.generation_time.timestamp() <= after
    # same process: same 5 random bytes; the 3-byte counter increments
    assert {o.bytes[4:9] for o in ids} == {ids[0].bytes[4:9]}
    counters = [int.from_bytes(o.bytes[9:], "big") for o in ids]
    assert all((b - a) % (1 << 24) == 1 for a, b in zip(counters, counters[1:]))


def test_object_id_is_immutable_and_ordered():
    a, b = realmdb.ObjectId("00" * 12), realmdb.ObjectId("00" * 11 + "01")
    assert a < b and b > a and a <= a
    with pytest.raises(AttributeError):
        a._bytes = b"x" * 12  # type: ignore[misc]


# --------------------------------------------------------------------------- decimal128


# Reference encodings from the BSON decimal128 corpus (high word, low word).
BID_VECTORS = [
    ("0", 0x3040000000000000, 0),
    ("-0", 0xB040000000000000, 0),
    ("1", 0x3040000000000000, 1),
    ("-1", 0xB040000000000000, 1),
    ("0.1", 0x303E000000000000, 1),
    ("-1.5", 0xB03E000000000000, 15),
    ("1E-30", 0x3004000000000000, 1),
    ("12345678901234567890123456789012.34", 0x303C3CDE6FFF9732, 0xDE825CD07E96AFF2),
    ("9.999999999999999999999999999999999E+6144", 0x5FFFED09BEAD87C0, 0x378D8E63FFFFFFFF),
    ("1.000000000000000000000000000000000E+6144", 0x5FFE314DC6448D93, 0x38C15B0A00000000),
    ("1E-6176", 0x0000000000000000, 1),
    ("Infinity", 0x7800000000000000, 0),
    ("-Infinity", 0xF800000000000000, 0),
    ("NaN", 0x7C00000000000000, 0),
]


@pytest.mark.parametrize("text,high,low", BID_VECTORS)
def test_decimal_bid_vectors(text, high, low):
    value = D(text)
    assert _values.decimal_to_bid(value) == (low, high)
    back = _values.bid_to_decimal(low, high)
    if value.is_nan():
        assert back.is_nan()
    else:
        assert back == value
        assert str(back) == str(value)
        assert back.is_signed() == value.is_signed()


def test_decimal_clamping_is_exact():
    # 1E+6144 needs the coefficient padded with zeros to fit the exponent range
    assert _values.bid_to_decimal(*_values.decimal_to_bid(D("1E+6144"))) == D("1E+6144")
    # 40 digits with trailing zeros still fit after dropping the zeros
    v = D("1234" + "0" * 36)
    assert _values.bid_to_decimal(*_values.decimal_to_bid(v)) == v
    # tiny zero clamps to the smallest exponent and stays zero
    assert _values.bid_to_decimal(*_values.decimal_to_bid(D("0E-7000"))) == 0


@pytest.mark.parametrize("text", ["1234567890123456789012345678901234.5", "1E+6145", "1E-6177", "1" * 35])
def test_decimal_unrepresentable_raises(text):
    with pytest.raises(ValueError):
        _values.decimal_to_bid(D(text))


def test_decimal_large_coefficient_form_and_noncanonical():
    # bits 125-126 == 0b11: exponent at bits 111..124, coefficient 0b100 << 111 | low bits.
    # Any such coefficient exceeds 10**34 - 1, so it decodes as zero with that exponent.
    high = (0b11 << 61) | (6176 << 47)  # exponent field 6176 -> 10**0
    value = _values.bid_to_decimal(0, high)
    assert value == 0 and value.as_tuple().exponent == 0
    # small form with a coefficient > 10**34 - 1 is non-canonical: zero
    big = (1 << 113) - 1
    assert _values.bid_to_decimal(big & (2**64 - 1), (6176 << 49) | (big >> 64)) == 0
    # signaling NaN and negative NaN
    assert _values.bid_to_decimal(0, 0x7E00000000000000).is_snan()
    assert _values.bid_to_decimal(0, 0xFC00000000000000).is_nan()


# --------------------------------------------------------------------------- timestamps


@pytest.mark.parametrize(
    "value,expected",
    [
        (dt.datetime(1970, 1, 1), (0, 0)),
        (dt.datetime(2021, 5, 6, 7, 8, 9, 123456), (1620284889, 123456000)),
        (dt.datetime(1969, 12, 31, 23, 59, 59, 500000), (0, -500000000)),
        (dt.datetime(1969, 12, 31, 23, 59, 58, 250000), (-1, -750000000)),
        (dt.datetime(2021, 5, 6, 9, 8, 9, tzinfo=dt.timezone(dt.timedelta(hours=2))), (1620284889, 0)),
    ],
)
def test_datetime_to_timestamp(value, expected):
    assert _values.datetime_to_timestamp(value) == expected
    back = _values.timestamp_to_datetime(*expected)
    assert back.tzinfo is not None and back.utcoffset() == dt.timedelta(0)
    naive_utc = value if value.tzinfo is None else value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    assert back.replace(tzinfo=None) == naive_utc


def test_timestamp_nanoseconds_truncate_to_microseconds():
    assert _values.timestamp_to_datetime(10, 123456789).microsecond == 123456
    assert _values.timestamp_to_datetime(-10, -999).timestamp() == -10.0


# --------------------------------------------------------------------------- packing


def _roundtrip(values):
    arr, keep = _values.pack_values(values)
    return _values.decode_values(bytes(arr), len(values))


def test_pack_and_decode_every_python_type():
    oid = realmdb.ObjectId()
    uid = uuid.uuid4()
    when = dt.datetime(2020, 2, 29, 12, 0, 0, 1, tzinfo=dt.timezone.utc)
    values = [None, True, False, 7, -(2**63), 2**63 - 1, 2.5, "", "héllo ✓", b"", b"\x00\xff",
              bytearray(b"ab"), memoryview(b"cd"), when, oid, uid, D("-12.5")]
    expected = [v if not isinstance(v, (bytearray, memoryview)) else bytes(v) for v in values]
    assert _roundtrip(values) == expected


@pytest.mark.parametrize("row", [
    [7, "name", 2.5, True, b"\x00\xff", None],      # every type with a compiled part
    [-(2**63), "", 0.0, False, b"", "h\u00e9\0llo \u2713"],  # extremes, empty, NUL, non-ASCII
    [None, None],
    [1],
    [],
    [1, dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc), "x"],  # a type without one: value by value
])
def test_decode_row_agrees_with_decode_values(row):
    arr, keep = _values.pack_values(row)
    raw = bytes(arr) if row else b""
    assert _values.decode_row(raw, len(row)) == _values.decode_values(raw, len(row)) == row
    assert _values.decode_row(raw, len(row)) == row  # again: through the decoder compiled for the shape


@pytest.mark.parametrize("row", [
    [1, "a", 2.5, True, None, "\u00fc\0x"],  # every plain type; NUL and non-ASCII in a string
    ["", "", ""],                              # empty strings only
    [7],                                       # one value, no string
    ["only"],
    [2**63 - 1, -(2**63), False, 0.0],
])
def test_pack_row_packs_as_pack_values(row):
    arr, keep = _values.pack_row(row)
    assert _values.decode_values(bytes(arr), len(row)) == row
    arr, keep = _values.pack_row(list(row))  # again, through the packer made for the shape
    assert _values.decode_row(bytes(arr), len(row)) == row


@pytest.mark.parametrize("row", [
    [1, "a", 2.5, True, None, "\u00fc\0x"],
    ["", "", ""],
    [7],
    ["x" * 10_000, "y" * 70_000],  # more than the scratch held: it grows
])
def test_packed_row_address_packs_as_pack_row(row):
    import ctypes
    address = _values.packed_row_address(row)
    assert address is not None
    arr, keep = _values.pack_row(row)
    # The values (their string pointers aside) and the strings they point at are the same.
    scratch = ctypes.string_at(address, len(row) * 24)
    assert _values.decode_values(scratch, len(row)) == _values.decode_values(bytes(arr), len(row)) == row


@pytest.mark.parametrize("row", [[1, "bad \ud800 surrogate"], [2**63, "x"], [1, object()], []])
def test_packed_row_address_leaves_rows_it_cannot_take_to_pack_row(row):
    assert _values.packed_row_address(row) is None


def test_creates_from_threads_each_pack_into_their_own_scratch(tmp_path):
    import threading
    schema = [{"name": "Row", "primary_key": "id", "properties": {"id": "int", "text": "string", "n": "double"}}]
    failures = []

    def create(worker):
        try:
            with realmdb.open(str(tmp_path / f"{worker}.realm"), schema) as realm:
                expected = {i: (f"{worker}-{i}-" + "z" * (i % 300), i * 0.25) for i in range(2000)}
                with realm.write():
                    for i, (text, n) in expected.items():
                        realm.create("Row", {"id": i, "text": text, "n": n})
                got = {o.id: (o.text, o.n) for o in realm.objects("Row")}
                if got != expected:
                    failures.append(worker)
        except Exception as error:  # noqa: BLE001  (reported below)
            failures.append(repr(error))
    threads = [threading.Thread(target=create, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


@pytest.mark.parametrize("row, error", [
    ([1, "bad \ud800 surrogate"], realmdb.InvalidArgumentError),
    ([2**63, "x"], OverflowError),
    ([1, object()], TypeError),
])
def test_pack_row_raises_what_pack_values_raises(row, error):
    with pytest.raises(error) as raised:
        _values.pack_row(row)
    with pytest.raises(error) as expected:
        _values.pack_values(row)
    assert str(raised.value) == str(expected.value)


def test_decode_row_of_a_float_column_keeps_32_bits():
    value = _values.db_value_t()
    value.type = ValueType.FLOAT
    value.u.fnum = 1.5
    raw = bytes(value)
    assert _values.decode_row(raw, 1) == _values.decode_values(raw, 1) == [1.5]


def test_pack_tags_follow_python_type():
    arr, keep = _values.pack_values([True, 1, 1.0, None])
    raw = bytes(arr)
    assert [int.from_bytes(raw[i * 24:i * 24 + 4], "little") for i in range(4)] == [
        ValueType.BOOL, ValueType.INT, ValueType.DOUBLE, ValueType.NULL]


def test_pack_rejects_unsupported_and_overflow():
    with pytest.raises(realmdb.WrongTypeError):
        _values.pack_values([[1, 2]])
    with pytest.raises(TypeError):  # WrongTypeError is a TypeError
        _values.pack_values([object()])
    with pytest.raises(OverflowError):
        _values.pack_values([2**63])


def test_pack_rows_fast_and_slow_paths():
    rows = [
        (1, "a", 2.5, True, b"x"),
        (2, None, 3, None, bytearray(b"y")),  # None / int-for-double / bytearray: generic path
        (3, "ü", 4.5, False, b""),
    ]
    kinds = [realmdb.PropertyType.INT, realmdb.PropertyType.STRING, realmdb.PropertyType.DOUBLE,
             realmdb.PropertyType.BOOL, realmdb.PropertyType.DATA]
    arr, keep = _batches.pack_rows(rows, kinds)
    got = _values.decode_values(bytes(arr), 15)
    assert got == [1, "a", 2.5, True, b"x", 2, None, 3, None, b"y", 3, "ü", 4.5, False, b""]
    raw = bytes(arr)
    assert int.from_bytes(raw[7 * 24:7 * 24 + 4], "little") == ValueType.INT  # 3 stays an INT
    with pytest.raises(OverflowError):
        _batches.pack_rows([(2**64,)], [realmdb.PropertyType.INT])


# --------------------------------------------------------------------------- errors


def test_error_classes_by_code():
    expected = {
        1: realmdb.InvalidArgumentError, 2: realmdb.NotFoundError, 3: realmdb.WrongTypeError,
        4: realmdb.NotNullableError, 5: realmdb.MissingValueError, 6: realmdb.WrongTransactionStateError,
        7: realmdb.InvalidatedError, 8: realmdb.InvalidatedError, 9: realmdb.DuplicatePrimaryKeyError,
        10: realmdb.SchemaError, 11: realmdb.MigrationRequiredError, 12: realmdb.MigrationFailedError,
        13: realmdb.ReadOnlyError, 14: realmdb.FileAccessError, 15: realmdb.FileFormatError,
        16: realmdb.TooManyActiveVersionsError, 17: realmdb.OutOfRangeError, 18: realmdb.LogicError,
        19: realmdb.StorageError, 20: realmdb.CallbackError, 21: realmdb.QueryError,
        22: realmdb.WrongThreadError, 23: realmdb.NotSupportedError, 24: realmdb.RealmMemoryError,
        25: realmdb.InternalError,
    }
    for code, cls in expected.items():
        exc = errors.from_code(code, f"message {code}")
        assert isinstance(exc, cls) and isinstance(exc, realmdb.RealmError)
        assert exc.code == code and str(exc) == f"message {code}" == exc.message
    assert isinstance(errors.from_code(3, ""), TypeError)
    assert isinstance(errors.from_code(2, ""), LookupError)
    q = errors.from_code(21, "bad token", 7)
    assert isinstance(q, realmdb.QueryError) and q.offset == 7
    assert type(errors.from_code(999, "x")) is realmdb.RealmError


def test_status_strings_come_from_the_library():
    for code in realmdb.Status:
        assert _ffi.lib.db_status_string(code)
    assert _ffi.lib.db_status_string(12345) == b"unknown status"


# --------------------------------------------------------------------------- library loading


def test_version_comes_from_library():
    assert realmdb.__version__ == _ffi.lib.db_library_version_string().decode()
    assert re.match(r"^\d+\.\d+", realmdb.__version__)


def test_find_library_prefers_env(monkeypatch, tmp_path):
    monkeypatch.setenv("REALMDB_LIBRARY", "/some/where/libdb.so")
    assert _ffi.find_library() == "/some/where/libdb.so"


def test_find_library_prefers_newest_build(monkeypatch, tmp_path):
    monkeypatch.delenv("REALMDB_LIBRARY", raising=False)
    monkeypatch.setattr(_ffi, "BUNDLED", tmp_path / "no-bundle" / "libdb.so")
    monkeypatch.setattr(_ffi, "REPO_ROOT", tmp_path)
    (tmp_path / "Package.swift").write_text("")
    old, new, missing = tmp_path / "old.so", tmp_path / "new.so", tmp_path / "missing.so"
    old.write_bytes(b"")
    new.write_bytes(b"")
    os.utime(old, (1000, 1000))
    os.utime(new, (2000, 2000))
    monkeypatch.setattr(_ffi, "CANDIDATES", (missing, old, new))
    assert _ffi.find_library() == str(new)
    monkeypatch.setattr(_ffi, "CANDIDATES", (missing,))
    with pytest.raises(ImportError):
        _ffi.find_library()


def test_find_library_prefers_the_bundled_library_to_builds_and_the_environment_to_both(monkeypatch, tmp_path):
    bundled, build = tmp_path / "_lib" / "libdb.so", tmp_path / "build.so"
    bundled.parent.mkdir()
    bundled.write_bytes(b"")
    build.write_bytes(b"")
    monkeypatch.setattr(_ffi, "BUNDLED", bundled)
    monkeypatch.setattr(_ffi, "CANDIDATES", (build,))
    monkeypatch.delenv("REALMDB_LIBRARY", raising=False)
    assert _ffi.find_library() == str(bundled)
    monkeypatch.setenv("REALMDB_LIBRARY", str(build))
    assert _ffi.find_library() == str(build)


def test_an_installation_without_a_library_says_so(monkeypatch, tmp_path):
    monkeypatch.delenv("REALMDB_LIBRARY", raising=False)
    monkeypatch.setattr(_ffi, "BUNDLED", tmp_path / "site-packages" / "realmdb" / "_lib" / "libdb.so")
    monkeypatch.setattr(_ffi, "REPO_ROOT", tmp_path)  # no Package.swift: not a source checkout
    with pytest.raises(ImportError, match="carries no libdb.so.*pip wheel"):
        _ffi.find_library()


@pytest.mark.skipif(os.environ.get("REALMDB_TEST_INSTALLED") != "1", reason="for an installed wheel (scripts/test_wheel.sh)")
def test_an_installed_wheel_runs_on_the_library_it_carries():
    from pathlib import Path
    checkout = Path(__file__).resolve().parents[3]
    assert checkout not in Path(realmdb.__file__).resolve().parents  # the installed package
    assert realmdb.LIBRARY_PATH == str(_ffi.BUNDLED) and _ffi.BUNDLED.is_file()
    assert "REALMDB_LIBRARY" not in os.environ


@pytest.mark.skipif(os.environ.get("REALMDB_TEST_INSTALLED") == "1", reason="the package is installed, not in the repository")
def test_repo_root_is_three_levels_up():
    assert (_ffi.REPO_ROOT / "bindings" / "python" / "realmdb" / "__init__.py").is_file()


def test_a_date_python_cannot_represent_is_a_clear_error(tmp_realm_path):
    # The C API stores any seconds; Python's datetime holds the years 1 to 9999 only.
    from realmdb import _values
    with pytest.raises(realmdb.OutOfRangeError, match="years 1 to 9999"):
        _values.timestamp_to_datetime(10**15, 0)
    with pytest.raises(realmdb.OutOfRangeError):
        _values.timestamp_to_datetime(-10**15, -5)
