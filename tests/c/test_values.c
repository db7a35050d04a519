/*
 * Values: every property type round trips exactly (strings with embedded
 * NULs, binary, timestamps with nanoseconds, ObjectId, UUID, the decimal128
 * bit pattern), nulls, wrong types, bad db_value_t contents.
 */
#include <float.h>

#include "fixtures.h"

static const uint8_t OID[12] = {0x65, 0x4f, 0x1a, 0x2b, 0x00, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60};
static const uint8_t UUID[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                                 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
static const char STR_WITH_NULS[] = {'a', '\0', 'b', '\0', '\0', 'c', (char)0xc3, (char)0xa9}; /* "a\0b\0\0cé" */
static const uint8_t BYTES[] = {0x00, 0x01, 0x02, 0x00, 0xfe, 0xff, 0x00};

/* The AllTypes property of the type_index-th type (sample() order): required, then nullable. */
static const char *required_name(int type_index) { return fx_all_types_props[1 + type_index].name; }
static const char *optional_name(int type_index) { return fx_all_types_props[1 + FX_NUM_TYPES + type_index].name; }

/* One value of each type, in fx_all_types_props order (after "id"). */
static db_value_t sample(int type_index) {
    switch (type_index) {
    case 0: return v_bool(true);
    case 1: return v_int(INT64_MIN);
    case 2: return v_float(-3.25f);
    case 3: return v_double(DBL_MAX);
    case 4: return v_strn(STR_WITH_NULS, sizeof STR_WITH_NULS);
    case 5: return v_data(BYTES, sizeof BYTES);
    case 6: return v_ts(-1, -500000000);
    case 7: return v_oid(OID);
    case 8: return v_uuid(UUID);
    default: return v_dec(0x0123456789abcdefULL, 0xb040000000000001ULL);
    }
}

static int values_equal(const db_value_t *a, const db_value_t *b) {
    if (a->type != b->type) return 0;
    switch (a->type) {
    case DB_VALUE_NULL: return 1;
    case DB_VALUE_BOOL: return a->boolean == b->boolean;
    case DB_VALUE_INT: return a->integer == b->integer;
    case DB_VALUE_FLOAT: return memcmp(&a->fnum, &b->fnum, sizeof a->fnum) == 0;
    case DB_VALUE_DOUBLE: return memcmp(&a->dnum, &b->dnum, sizeof a->dnum) == 0;
    case DB_VALUE_STRING:
        return a->string.size == b->string.size &&
               (a->string.size == 0 || memcmp(a->string.data, b->string.data, a->string.size) == 0);
    case DB_VALUE_DATA:
        return a->binary.size == b->binary.size &&
               (a->binary.size == 0 || memcmp(a->binary.data, b->binary.data, a->binary.size) == 0);
    case DB_VALUE_TIMESTAMP:
        return a->timestamp.seconds == b->timestamp.seconds && a->timestamp.nanoseconds == b->timestamp.nanoseconds;
    case DB_VALUE_OBJECT_ID: return memcmp(a->object_id.bytes, b->object_id.bytes, 12) == 0;
    case DB_VALUE_UUID: return memcmp(a->uuid.bytes, b->uuid.bytes, 16) == 0;
    case DB_VALUE_DECIMAL128: return a->decimal128.w[0] == b->decimal128.w[0] && a->decimal128.w[1] == b->decimal128.w[1];
    case DB_VALUE_LINK: return a->link.class_key == b->link.class_key && a->link.object_key == b->link.object_key;
    }
    return 0;
}

#define CHECK_VALUE(actual, expected, what)                                                   \
    do {                                                                                      \
        db_value_t a__ = (actual), e__ = (expected);                                          \
        harness_checks++;                                                                     \
        if (!values_equal(&a__, &e__))                                                        \
            harness_fail(__FILE__, __LINE__, "%s: value differs (type %d, expected type %d)", \
                         (what), (int)a__.type, (int)e__.type);                              \
    } while (0)

/* Creates AllTypes{id, every required property = sample(i), opt_ ones as given or absent}. */
static db_object_t *create_all(db_realm_t *realm, int64_t id, bool with_optionals) {
    db_property_key_t keys[1 + 2 * FX_NUM_TYPES];
    db_value_t values[1 + 2 * FX_NUM_TYPES];
    size_t n = 0;
    int i;
    db_class_key_t ck = fx_class_key(realm, "AllTypes");
    keys[n] = fx_prop_key(realm, "AllTypes", "id");
    values[n++] = v_int(id);
    for (i = 0; i < FX_NUM_TYPES; i++) {
        keys[n] = fx_prop_key(realm, "AllTypes", required_name(i));
        values[n++] = sample(i);
    }
    if (with_optionals)
        for (i = 0; i < FX_NUM_TYPES; i++) {
            keys[n] = fx_prop_key(realm, "AllTypes", optional_name(i));
            values[n++] = sample(i);
        }
    return db_object_create(realm, ck, keys, values, n, DB_UPSERT_NONE);
}

/* Begins a write on `realm` and creates AllTypes 1 in it, with or without its optional values. */
static db_object_t *begin_with_all_types(db_realm_t *realm, bool with_optionals) {
    REQUIRE_OK(db_realm_begin_write(realm));
    return (db_object_t *)REQUIRE_PTR(create_all(realm, 1, with_optionals));
}

/* Every property of `o`, required and optional, holds sample(i). */
static void check_every_sample(const db_object_t *o) {
    int i;
    for (i = 0; i < FX_NUM_TYPES; i++) {
        CHECK_VALUE(fx_get(o, required_name(i)), sample(i), required_name(i));
        CHECK_VALUE(fx_get(o, optional_name(i)), sample(i), optional_name(i));
    }
}

TEST(round_trip_every_type) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, true);
    int i;
    /* Read inside the write, by key and by name. */
    for (i = 0; i < FX_NUM_TYPES; i++) {
        const char *name = required_name(i);
        const char *opt = optional_name(i);
        db_value_t v;
        REQUIRE_OK(db_object_get_value(o, fx_prop_key(realm, "AllTypes", name), &v));
        CHECK_VALUE(v, sample(i), name);
        CHECK_VALUE(fx_get(o, name), sample(i), name);
        CHECK_VALUE(fx_get(o, opt), sample(i), opt);
    }
    REQUIRE_OK(db_realm_commit(realm));
    check_every_sample(o); /* and after the commit */
    db_object_release(o);
    db_realm_release(realm);
}

TEST(round_trip_survives_reopen) {
    const char *path = harness_tmpfile("values.realm");
    db_realm_t *realm = fx_open(path);
    db_object_t *o;
    db_value_t pk = v_int(7);
    bool found = false;
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_release((db_object_t *)REQUIRE_PTR(create_all(realm, 7, true)));
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
    realm = fx_open(path);
    o = (db_object_t *)REQUIRE_PTR(
        db_object_find_with_primary_key(realm, fx_class_key(realm, "AllTypes"), &pk, &found));
    CHECK(found);
    check_every_sample(o);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(string_embedded_nul_and_size) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t v;
    REQUIRE_OK(db_realm_commit(realm));
    v = fx_get(o, "string");
    REQUIRE(v.type == DB_VALUE_STRING);
    CHECK_EQ_UINT(v.string.size, sizeof STR_WITH_NULS);
    CHECK_EQ_MEM(v.string.data, STR_WITH_NULS, sizeof STR_WITH_NULS);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(extreme_and_special_numbers) {
    static const int64_t ints[] = {INT64_MIN, -1, 0, 1, INT64_MAX};
    static const double doubles[] = {0.0, -0.0, DBL_MIN, -DBL_MAX, 1.0 / 3.0};
    static const float floats[] = {0.0f, -0.0f, FLT_MIN, FLT_MAX, 1.0f / 3.0f};
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    size_t i;
    for (i = 0; i < 5; i++) {
        db_value_t vi = v_int(ints[i]), vd = v_double(doubles[i]), vf = v_float(floats[i]);
        REQUIRE_OK(db_object_set_value_by_name(o, "int", &vi));
        REQUIRE_OK(db_object_set_value_by_name(o, "double", &vd));
        REQUIRE_OK(db_object_set_value_by_name(o, "float", &vf));
        CHECK_VALUE(fx_get(o, "int"), vi, "int");
        CHECK_VALUE(fx_get(o, "double"), vd, "double");
        CHECK_VALUE(fx_get(o, "float"), vf, "float");
    }
    fx_commit_and_release(realm, o);
}

TEST(timestamps_with_nanoseconds) {
    static const db_timestamp_t stamps[] = {
        {0, 0}, {0, 1}, {0, -1}, {1700000000, 123456789}, {-1, -999999999},
        {-62135596800LL, 0}, {253402300799LL, 999999999}, {1, 999999999},
    };
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    size_t i;
    for (i = 0; i < FX_COUNT(stamps); i++) {
        db_value_t v = v_ts(stamps[i].seconds, stamps[i].nanoseconds), got;
        REQUIRE_OK(db_object_set_value_by_name(o, "timestamp", &v));
        got = fx_get(o, "timestamp");
        REQUIRE(got.type == DB_VALUE_TIMESTAMP);
        CHECK_EQ_INT(got.timestamp.seconds, stamps[i].seconds);
        CHECK_EQ_INT(got.timestamp.nanoseconds, stamps[i].nanoseconds);
    }
    fx_cancel_and_release(realm, o);
}

TEST(decimal128_bit_patterns) {
    /* The library stores the 128 bits; it does not normalise them. */
    static const uint64_t patterns[][2] = {
        {0, 0x3040000000000000ULL},            /* 0E+0 */
        {1, 0x3040000000000000ULL},            /* 1 */
        {1, 0xb040000000000000ULL},            /* -1 */
        {10, 0x303e000000000000ULL},           /* 1.0 */
        {0x378d8e63ffffffffULL, 0x0000314dc6448d93ULL + 0x3040000000000000ULL},
        {0, 0x7800000000000000ULL},            /* +Inf */
        {0, 0x7c00000000000000ULL},            /* NaN */
        {0xffffffffffffffffULL, 0xffffffffffffffffULL},
    };
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    size_t i;
    for (i = 0; i < FX_COUNT(patterns); i++) {
        db_value_t v = v_dec(patterns[i][0], patterns[i][1]), got;
        REQUIRE_OK(db_object_set_value_by_name(o, "decimal", &v));
        got = fx_get(o, "decimal");
        REQUIRE(got.type == DB_VALUE_DECIMAL128);
        CHECK_EQ_UINT(got.decimal128.w[0], patterns[i][0]);
        CHECK_EQ_UINT(got.decimal128.w[1], patterns[i][1]);
    }
    fx_commit_and_release(realm, o);
}

TEST(empty_string_and_binary) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t s = v_strn("", 0), d = v_data("", 0), got;
    REQUIRE_OK(db_object_set_value_by_name(o, "string", &s));
    REQUIRE_OK(db_object_set_value_by_name(o, "data", &d));
    REQUIRE_OK(db_object_set_value_by_name(o, "opt_string", &s));
    REQUIRE_OK(db_realm_commit(realm));
    got = fx_get(o, "string");
    CHECK_EQ_INT(got.type, DB_VALUE_STRING);
    CHECK_EQ_UINT(got.string.size, 0);
    got = fx_get(o, "data");
    CHECK_EQ_INT(got.type, DB_VALUE_DATA);
    CHECK_EQ_UINT(got.binary.size, 0);
    got = fx_get(o, "opt_string");
    CHECK_EQ_INT(got.type, DB_VALUE_STRING); /* empty is not null */
    db_object_release(o);
    db_realm_release(realm);
}

TEST(large_string_and_binary) {
    size_t n = 1 << 20, i;
    char *big = (char *)malloc(n);
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    db_value_t v, got;
    REQUIRE(big != NULL);
    for (i = 0; i < n; i++) big[i] = (char)('a' + i % 26);
    o = begin_with_all_types(realm, false);
    v = v_strn(big, n);
    REQUIRE_OK(db_object_set_value_by_name(o, "string", &v));
    v = v_data(big, n);
    REQUIRE_OK(db_object_set_value_by_name(o, "data", &v));
    REQUIRE_OK(db_realm_commit(realm));
    got = fx_get(o, "string");
    CHECK_EQ_UINT(got.string.size, n);
    CHECK(got.string.size == n && memcmp(got.string.data, big, n) == 0);
    got = fx_get(o, "data");
    CHECK_EQ_UINT(got.binary.size, n);
    CHECK(got.binary.size == n && memcmp(got.binary.data, big, n) == 0);
    free(big);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(values_passed_in_are_copied) {
    char buf[8] = "abcdefg";
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t v = v_strn(buf, 7), got;
    REQUIRE_OK(db_object_set_value_by_name(o, "string", &v));
    memset(buf, 'X', 7);
    got = fx_get(o, "string");
    REQUIRE(got.type == DB_VALUE_STRING && got.string.size == 7);
    CHECK_EQ_MEM(got.string.data, "abcdefg", 7);
    fx_commit_and_release(realm, o);
}

TEST(optional_absent_on_create_is_null) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    int i;
    REQUIRE_OK(db_realm_commit(realm));
    for (i = 0; i < FX_NUM_TYPES; i++) {
        const char *opt = optional_name(i);
        CHECK_VALUE(fx_get(o, opt), v_null(), opt);
    }
    db_object_release(o);
    db_realm_release(realm);
}

TEST(optional_set_null_and_back) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, true);
    db_value_t null = v_null();
    int i;
    for (i = 0; i < FX_NUM_TYPES; i++) {
        const char *opt = optional_name(i);
        db_value_t s = sample(i);
        CHECK_OK(db_object_set_value_by_name(o, opt, &null));
        CHECK_VALUE(fx_get(o, opt), v_null(), opt);
        CHECK_OK(db_object_set_value_by_name(o, opt, &s));
        CHECK_VALUE(fx_get(o, opt), sample(i), opt);
    }
    fx_commit_and_release(realm, o);
}

TEST(null_for_required_is_not_nullable) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t null = v_null();
    int i;
    for (i = 0; i < FX_NUM_TYPES; i++) {
        const char *name = required_name(i);
        CHECK_STATUS(db_object_set_value_by_name(o, name, &null), DB_ERR_NOT_NULLABLE);
        CHECK_VALUE(fx_get(o, name), sample(i), name); /* unchanged */
    }
    fx_cancel_and_release(realm, o);
}

/* The conversions db_object_set_value documents: integers widen to float,
 * double and decimal128; float and double convert to each other. Indices are
 * sample() indices: 1 int, 2 float, 3 double, 9 decimal128. */
static int documented_conversion(int property, int value) {
    if (value == 1 && (property == 2 || property == 3 || property == 9)) return 1;
    if ((value == 2 && property == 3) || (value == 3 && property == 2)) return 1;
    return 0;
}

TEST(documented_numeric_conversions) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t v, got;
    v = v_int(3);
    CHECK_OK(db_object_set_value_by_name(o, "double", &v));
    got = fx_get(o, "double");
    CHECK(got.type == DB_VALUE_DOUBLE && got.dnum == 3.0);
    CHECK_OK(db_object_set_value_by_name(o, "float", &v));
    got = fx_get(o, "float");
    CHECK(got.type == DB_VALUE_FLOAT && got.fnum == 3.0f);
    CHECK_OK(db_object_set_value_by_name(o, "decimal", &v));
    got = fx_get(o, "decimal");
    CHECK_EQ_INT(got.type, DB_VALUE_DECIMAL128);
    CHECK_EQ_UINT(got.decimal128.w[0], 3);                       /* coefficient 3 */
    CHECK_EQ_UINT(got.decimal128.w[1], 0x3040000000000000ULL);   /* exponent 0, positive */
    v = v_int(-2);
    CHECK_OK(db_object_set_value_by_name(o, "decimal", &v));
    got = fx_get(o, "decimal");
    CHECK_EQ_UINT(got.decimal128.w[0], 2);
    CHECK_EQ_UINT(got.decimal128.w[1], 0xb040000000000000ULL);   /* sign bit set */
    v = v_double(2.5);
    CHECK_OK(db_object_set_value_by_name(o, "float", &v));
    got = fx_get(o, "float");
    CHECK(got.type == DB_VALUE_FLOAT && got.fnum == 2.5f);
    v = v_float(0.25f);
    CHECK_OK(db_object_set_value_by_name(o, "double", &v));
    got = fx_get(o, "double");
    CHECK(got.type == DB_VALUE_DOUBLE && got.dnum == 0.25);
    /* Never narrowing into integers. */
    v = v_double(3.0);
    CHECK_STATUS(db_object_set_value_by_name(o, "int", &v), DB_ERR_WRONG_TYPE);
    v = v_float(3.0f);
    CHECK_STATUS(db_object_set_value_by_name(o, "int", &v), DB_ERR_WRONG_TYPE);
    v = v_dec(3, 0x3040000000000000ULL);
    CHECK_STATUS(db_object_set_value_by_name(o, "int", &v), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_object_set_value_by_name(o, "double", &v), DB_ERR_WRONG_TYPE);
    fx_cancel_and_release(realm, o);
}

/* Every other pair of (property type, value type) is DB_ERR_WRONG_TYPE. */
TEST(wrong_type_for_every_pair) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, true);
    int p, v;
    for (p = 0; p < FX_NUM_TYPES; p++) {
        for (v = 0; v < FX_NUM_TYPES; v++) {
            db_value_t value = sample(v);
            int s;
            if (v == p || documented_conversion(p, v)) continue;
            s = db_object_set_value_by_name(o, required_name(p), &value);
            harness_checks++;
            if (s != DB_ERR_WRONG_TYPE) {
                harness_error_t e = harness_last_error();
                harness_fail_with_error(__FILE__, __LINE__, &e,
                                        "set %s (property type %d) to a value of type %d: %s, expected DB_ERR_WRONG_TYPE",
                                        required_name(p), (int)fx_all_types_props[1 + p].type,
                                        (int)value.type, harness_status_name(s));
            } else {
                CHECK_LAST_ERROR(DB_ERR_WRONG_TYPE);
            }
            /* Nullable properties are just as strict. */
            s = db_object_set_value_by_name(o, optional_name(p), &value);
            if (s != DB_ERR_WRONG_TYPE)
                harness_fail(__FILE__, __LINE__, "set %s to a value of type %d: %s, expected DB_ERR_WRONG_TYPE",
                             optional_name(p), (int)value.type, harness_status_name(s));
        }
        CHECK_VALUE(fx_get(o, required_name(p)), sample(p), required_name(p));
    }
    fx_cancel_and_release(realm, o);
}

TEST(bad_value_contents) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    db_value_t v;
    /* A type tag outside db_value_type_e is a bad enum value. */
    v = v_int(1);
    v.type = (db_value_type_e)99;
    CHECK_STATUS(db_object_set_value_by_name(o, "int", &v), DB_ERR_INVALID_ARGUMENT);
    /* NULL data with a non-zero size must not be read. */
    v = v_strn(NULL, 5);
    CHECK_STATUS(db_object_set_value_by_name(o, "string", &v), DB_ERR_INVALID_ARGUMENT);
    v = v_data(NULL, 5);
    CHECK_STATUS(db_object_set_value_by_name(o, "data", &v), DB_ERR_INVALID_ARGUMENT);
    fx_cancel_and_release(realm, o);
}

/* Strings are checked as UTF-8 eight bytes at a time: a bad byte, or a valid multi-byte
 * character, at every position of strings of every length up to 24 (inside a word, in the
 * tail, at both ends) is refused, or stored and read back byte for byte. */
TEST(utf8_checked_at_every_position) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = begin_with_all_types(realm, false);
    char text[32];
    size_t length, at;
    db_value_t v, got;
    for (length = 1; length <= 24; length++) {
        for (at = 0; at < length; at++) {
            memset(text, 'a', sizeof text);
            text[at] = (char)0xff; /* never valid in UTF-8 */
            v = v_strn(text, length);
            CHECK_STATUS(db_object_set_value_by_name(o, "string", &v), DB_ERR_INVALID_ARGUMENT);
            if (at + 2 > length) continue;
            memcpy(text + at, "\xc3\xa9", 2); /* U+00E9, two bytes */
            v = v_strn(text, length);
            REQUIRE_OK(db_object_set_value_by_name(o, "string", &v));
            got = fx_get(o, "string");
            CHECK_EQ_UINT(got.string.size, length);
            CHECK_EQ_MEM(got.string.data, text, length);
            text[at + 1] = 'a'; /* a lead byte without its continuation */
            v = v_strn(text, length);
            CHECK_STATUS(db_object_set_value_by_name(o, "string", &v), DB_ERR_INVALID_ARGUMENT);
        }
    }
    fx_cancel_and_release(realm, o);
}

TEST(get_and_set_many) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    db_property_key_t keys[FX_NUM_TYPES];
    db_value_t in[FX_NUM_TYPES], out[FX_NUM_TYPES];
    int i;
    for (i = 0; i < FX_NUM_TYPES; i++) {
        keys[i] = fx_prop_key(realm, "AllTypes", optional_name(i));
        in[i] = sample(i);
    }
    o = begin_with_all_types(realm, false);
    CHECK_OK(db_object_set_values(o, keys, in, FX_NUM_TYPES));
    REQUIRE_OK(db_realm_commit(realm));
    memset(out, 0, sizeof out);
    REQUIRE_OK(db_object_get_values(o, keys, FX_NUM_TYPES, out));
    for (i = 0; i < FX_NUM_TYPES; i++) CHECK_VALUE(out[i], sample(i), optional_name(i));
    db_object_release(o);
    db_realm_release(realm);
}

HARNESS_MAIN("values",
    HARNESS_ENTRY(round_trip_every_type),
    HARNESS_ENTRY(round_trip_survives_reopen),
    HARNESS_ENTRY(string_embedded_nul_and_size),
    HARNESS_ENTRY(extreme_and_special_numbers),
    HARNESS_ENTRY(timestamps_with_nanoseconds),
    HARNESS_ENTRY(decimal128_bit_patterns),
    HARNESS_ENTRY(empty_string_and_binary),
    HARNESS_ENTRY(large_string_and_binary),
    HARNESS_ENTRY(values_passed_in_are_copied),
    HARNESS_ENTRY(optional_absent_on_create_is_null),
    HARNESS_ENTRY(optional_set_null_and_back),
    HARNESS_ENTRY(null_for_required_is_not_nullable),
    HARNESS_ENTRY(documented_numeric_conversions),
    HARNESS_ENTRY(wrong_type_for_every_pair),
    HARNESS_ENTRY(bad_value_contents),
    HARNESS_ENTRY(utf8_checked_at_every_position),
    HARNESS_ENTRY(get_and_set_many))
