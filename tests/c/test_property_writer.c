/*
 * Property writers (db_property_writer_*): one property of a class named once, numbers written
 * by object key. Each write must behave as db_object_set_value_by_key with the same value:
 * the same conversions, the same refusals, the same change counter, the same rollback.
 */
#include "fixtures.h"
#include <math.h>

static const db_property_info_t reading_props[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("count", DB_PROPERTY_TYPE_INT, 0),
    FX_PROP("level", DB_PROPERTY_TYPE_DOUBLE, 0),
    FX_PROP("ratio", DB_PROPERTY_TYPE_FLOAT, 0),
    FX_PROP("label", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("any", DB_PROPERTY_TYPE_MIXED, DB_PROPERTY_FLAG_NULLABLE),
    FX_COLLECTION("history", DB_PROPERTY_TYPE_INT, DB_COLLECTION_LIST, 0),
};

typedef struct readings {
    db_realm_t *realm;
    db_class_key_t cls;
    db_property_key_t id, count, level, ratio, label, any, history;
    db_object_key_t first, second; /* Reading 1 and 2 */
} readings_t;

static db_object_key_t create_reading(readings_t *r, int64_t id) {
    db_property_key_t keys[5];
    db_value_t values[5];
    db_object_t *object;
    db_object_key_t key = -1;
    keys[0] = r->id; values[0] = v_int(id);
    keys[1] = r->count; values[1] = v_int(0);
    keys[2] = r->level; values[2] = v_double(0);
    keys[3] = r->ratio; values[3] = v_float(0);
    keys[4] = r->label; values[4] = v_str("");
    object = REQUIRE_PTR(db_object_create(r->realm, r->cls, keys, values, 5, DB_UPSERT_NONE));
    REQUIRE_OK(db_object_get_key(object, &key));
    db_object_release(object);
    return key;
}

/* A realm with Readings 1 and 2 (every number 0), committed. */
static readings_t open_readings(void) {
    readings_t r;
    db_class_info_t c = fx_class("Reading", reading_props, FX_COUNT(reading_props));
    db_schema_t *schema = REQUIRE_PTR(db_schema_new(&c, 1));
    r.realm = fx_open_with(harness_tmpfile("readings.realm"), schema, 1);
    db_schema_release(schema);
    r.cls = fx_class_key(r.realm, "Reading");
    r.id = fx_prop_key(r.realm, "Reading", "id");
    r.count = fx_prop_key(r.realm, "Reading", "count");
    r.level = fx_prop_key(r.realm, "Reading", "level");
    r.ratio = fx_prop_key(r.realm, "Reading", "ratio");
    r.label = fx_prop_key(r.realm, "Reading", "label");
    r.any = fx_prop_key(r.realm, "Reading", "any");
    r.history = fx_prop_key(r.realm, "Reading", "history");
    REQUIRE_OK(db_realm_begin_write(r.realm));
    r.first = create_reading(&r, 1);
    r.second = create_reading(&r, 2);
    REQUIRE_OK(db_realm_commit(r.realm));
    return r;
}

static db_value_t value_of(const readings_t *r, db_object_key_t key, db_property_key_t property) {
    db_value_t value = v_null();
    REQUIRE_OK(db_object_get_values_by_key(r->realm, r->cls, key, &property, 1, &value, NULL, 0));
    return value;
}

TEST(writes_numbers_by_key_as_set_value_by_key_does) {
    readings_t r = open_readings();
    db_property_writer_t *count = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.count));
    db_property_writer_t *level = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.level));
    db_property_writer_t *ratio = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.ratio));
    db_property_writer_t *any = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.any));
    const uint64_t *counter;
    uint64_t seen;
    db_value_t v;
    REQUIRE_OK(db_realm_get_change_counter(r.realm, &counter));
    CHECK(db_property_writer_is_valid(count));
    CHECK_STATUS(db_property_writer_set_int(count, r.first, 5), DB_ERR_WRONG_TRANSACTION_STATE);

    REQUIRE_OK(db_realm_begin_write(r.realm));
    seen = *counter;
    CHECK_OK(db_property_writer_set_int(count, r.first, INT64_MIN));
    CHECK(*counter > seen); /* moves the counter as any write does */
    CHECK_OK(db_property_writer_set_int(count, r.second, INT64_MAX));
    CHECK_OK(db_property_writer_set_double(level, r.first, -0.5));
    CHECK_OK(db_property_writer_set_int(level, r.second, 3)); /* an int to a double property: 3.0 */
    CHECK_OK(db_property_writer_set_double(ratio, r.first, 0.1)); /* rounded to float */
    CHECK_OK(db_property_writer_set_double(any, r.first, 2.5)); /* mixed keeps the type written */
    CHECK_OK(db_property_writer_set_int(any, r.second, 7));
    /* Refused as db_object_set_value_by_key refuses them, the value left as it was. */
    CHECK_STATUS(db_property_writer_set_double(count, r.first, 1.5), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_property_writer_set_double(count, r.first, NAN), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_property_writer_set_int(count, 0x7fffffffffffLL, 1), DB_ERR_INVALIDATED);
    CHECK_STATUS(db_property_writer_set_int(count, -1, 1), DB_ERR_INVALIDATED);
    REQUIRE_OK(db_realm_commit(r.realm));

    v = value_of(&r, r.first, r.count);
    CHECK(v.type == DB_VALUE_INT && v.integer == INT64_MIN);
    CHECK_EQ_INT(value_of(&r, r.second, r.count).integer, INT64_MAX);
    v = value_of(&r, r.first, r.level);
    CHECK(v.type == DB_VALUE_DOUBLE && v.dnum == -0.5);
    v = value_of(&r, r.second, r.level);
    CHECK(v.type == DB_VALUE_DOUBLE && v.dnum == 3.0);
    v = value_of(&r, r.first, r.ratio);
    CHECK(v.type == DB_VALUE_FLOAT && v.fnum == 0.1f);
    v = value_of(&r, r.first, r.any);
    CHECK(v.type == DB_VALUE_DOUBLE && v.dnum == 2.5);
    v = value_of(&r, r.second, r.any);
    CHECK(v.type == DB_VALUE_INT && v.integer == 7);

    db_property_writer_release(count);
    db_property_writer_release(level);
    db_property_writer_release(ratio);
    db_property_writer_release(any);
    db_realm_release(r.realm);
}

TEST(a_cancelled_write_and_a_rolled_back_savepoint_undo_its_writes) {
    readings_t r = open_readings();
    db_property_writer_t *count = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.count));
    REQUIRE_OK(db_realm_begin_write(r.realm));
    CHECK_OK(db_property_writer_set_int(count, r.first, 10));
    REQUIRE_OK(db_realm_begin_savepoint(r.realm));
    CHECK_OK(db_property_writer_set_int(count, r.first, 20));
    REQUIRE_OK(db_realm_rollback_savepoint(r.realm));
    CHECK_EQ_INT(value_of(&r, r.first, r.count).integer, 10);
    REQUIRE_OK(db_realm_cancel_write(r.realm));
    CHECK_EQ_INT(value_of(&r, r.first, r.count).integer, 0);
    db_property_writer_release(count);
    db_realm_release(r.realm);
}

TEST(refuses_what_it_cannot_write) {
    readings_t r = open_readings();
    db_property_writer_t *id = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.id));
    db_property_writer_t *label = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.label));
    db_object_t *first = REQUIRE_PTR(db_object_get_by_key(r.realm, r.cls, r.first));
    db_realm_t *frozen;
    db_property_writer_t *frozen_count;
    /* Keys that name nothing, a collection, a NULL realm: no writer. */
    CHECK_NULL_ERR(db_property_writer_new(r.realm, r.cls, 9999), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_property_writer_new(r.realm, r.cls, -1), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_property_writer_new(r.realm, (db_class_key_t)0xdeadbeef, r.count), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_property_writer_new(r.realm, r.cls, r.history), DB_ERR_WRONG_TYPE);
    CHECK_NULL_ERR(db_property_writer_new(NULL, r.cls, r.count), DB_ERR_INVALID_ARGUMENT);
    /* A NULL writer. */
    CHECK_STATUS(db_property_writer_set_int(NULL, r.first, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_property_writer_set_double(NULL, r.first, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK(!db_property_writer_is_valid(NULL));
    db_property_writer_release(NULL);

    REQUIRE_OK(db_realm_begin_write(r.realm));
    CHECK_STATUS(db_property_writer_set_int(id, r.first, 99), DB_ERR_LOGIC); /* a primary key */
    CHECK_STATUS(db_property_writer_set_int(label, r.first, 1), DB_ERR_WRONG_TYPE);
    CHECK_OK(db_object_delete(first));
    CHECK_STATUS(db_property_writer_set_int(id, r.first, 1), DB_ERR_INVALIDATED);
    REQUIRE_OK(db_realm_cancel_write(r.realm));
    CHECK_EQ_INT(value_of(&r, r.first, r.id).integer, 1);

    /* A frozen realm's writer refuses every write. */
    frozen = REQUIRE_PTR(db_realm_freeze(r.realm));
    frozen_count = REQUIRE_PTR(db_property_writer_new(frozen, r.cls, r.count));
    CHECK(db_property_writer_set_int(frozen_count, r.first, 1) != DB_OK);
    db_property_writer_release(frozen_count);
    db_realm_release(frozen);

    /* Once its realm is closed, a writer is invalid and refuses writes; releasing it still works. */
    REQUIRE_OK(db_realm_close(r.realm));
    CHECK(!db_property_writer_is_valid(id));
    CHECK_STATUS(db_property_writer_set_int(id, r.first, 1), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_property_writer_new(r.realm, r.cls, r.count), DB_ERR_CLOSED_REALM);
    db_property_writer_release(id);
    db_property_writer_release(label);
    db_object_release(first);
    db_realm_release(r.realm);
}

TEST(outlives_its_realm_handle) {
    readings_t r = open_readings();
    db_property_writer_t *count = REQUIRE_PTR(db_property_writer_new(r.realm, r.cls, r.count));
    db_realm_release(r.realm); /* closes the realm: the writer holds no dangling pointer */
    CHECK(!db_property_writer_is_valid(count));
    CHECK_STATUS(db_property_writer_set_int(count, r.first, 1), DB_ERR_CLOSED_REALM);
    db_property_writer_release(count);
}

HARNESS_MAIN("property_writer",
    HARNESS_ENTRY(writes_numbers_by_key_as_set_value_by_key_does),
    HARNESS_ENTRY(a_cancelled_write_and_a_rolled_back_savepoint_undo_its_writes),
    HARNESS_ENTRY(refuses_what_it_cannot_write),
    HARNESS_ENTRY(outlives_its_realm_handle))
