/*
 * Object creators (db_object_creator_*): a class, the properties of its rows and an upsert mode
 * named once, one object created per call. Each create must behave as
 * db_object_create_many_with_keys with one row: the same values, keys, refusals and rollback.
 */
#include "fixtures.h"

/* A creator of Person rows (id, name, age) with `mode`. */
static db_object_creator_t *person_creator(db_realm_t *realm, db_upsert_mode_e mode) {
    db_property_key_t keys[3];
    keys[0] = fx_prop_key(realm, "Person", "id");
    keys[1] = fx_prop_key(realm, "Person", "name");
    keys[2] = fx_prop_key(realm, "Person", "age");
    return REQUIRE_PTR(db_object_creator_new(realm, fx_class_key(realm, "Person"), keys, 3, mode));
}

TEST(creates_objects_as_create_many_with_keys_does) {
    db_realm_t *realm = fx_open_new();
    db_object_creator_t *creator = person_creator(realm, DB_UPSERT_NONE);
    db_value_t row[3];
    db_object_key_t first = -1, second = -1, again = -1;
    db_object_t *found;
    const uint64_t *counter;
    uint64_t seen;
    row[0] = v_int(1); row[1] = v_str("ann"); row[2] = v_int(30);
    CHECK(db_object_creator_is_valid(creator));
    CHECK_STATUS(db_object_creator_create(creator, row, &first), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_get_change_counter(realm, &counter));
    REQUIRE_OK(db_realm_begin_write(realm));
    seen = *counter;
    CHECK_OK(db_object_creator_create(creator, row, &first));
    CHECK(*counter > seen);
    row[0] = v_int(2); row[1] = v_str("bo"); row[2] = v_int(40);
    CHECK_OK(db_object_creator_create(creator, row, &second));
    CHECK(first >= 0 && second >= 0 && first != second);
    /* Refused as a create refuses it, nothing created. */
    CHECK_STATUS(db_object_creator_create(creator, row, &again), DB_ERR_DUPLICATE_PRIMARY_KEY);
    row[0] = v_int(3); row[1] = v_int(7);
    CHECK_STATUS(db_object_creator_create(creator, row, &again), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_object_creator_create(creator, NULL, &again), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_creator_create(creator, row, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_creator_create(NULL, row, &again), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(again, -1);
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_INT(fx_count(realm, "Person"), 2);
    found = fx_require_person(realm, 2);
    CHECK_EQ_INT(fx_get_int(found, "age"), 40);
    db_object_release(found);
    db_object_creator_release(creator);
    db_realm_release(realm);
}

TEST(an_upsert_creator_updates_the_object_with_the_primary_key) {
    db_realm_t *realm = fx_open_new_with_people(2);
    db_object_creator_t *creator = person_creator(realm, DB_UPSERT_MODIFIED);
    db_value_t row[3];
    db_object_key_t key = -1, existing = -1;
    db_value_t pk = v_int(2);
    bool found = false;
    db_object_t *two;
    row[0] = v_int(2); row[1] = v_str("person 2"); row[2] = v_int(99);
    REQUIRE_OK(db_object_find_key_with_primary_key(realm, fx_class_key(realm, "Person"), &pk, &existing, &found));
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(db_object_creator_create(creator, row, &key));
    CHECK_EQ_INT(key, existing);
    REQUIRE_OK(db_realm_begin_savepoint(realm));
    row[0] = v_int(3);
    CHECK_OK(db_object_creator_create(creator, row, &key));
    REQUIRE_OK(db_realm_rollback_savepoint(realm));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_INT(fx_count(realm, "Person"), 2); /* the savepoint took Person 3 back */
    two = fx_require_person(realm, 2);
    CHECK_EQ_INT(fx_get_int(two, "age"), 99);
    db_object_release(two);
    db_object_creator_release(creator);
    db_realm_release(realm);
}

TEST(refuses_what_it_cannot_name) {
    db_realm_t *realm = fx_open_new();
    db_class_key_t person = fx_class_key(realm, "Person");
    db_property_key_t keys[2];
    db_object_creator_t *none;
    db_object_key_t key = -1;
    keys[0] = fx_prop_key(realm, "Person", "id");
    keys[1] = keys[0];
    CHECK_NULL_ERR(db_object_creator_new(realm, person, keys, 2, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    keys[1] = 9999;
    CHECK_NULL_ERR(db_object_creator_new(realm, person, keys, 2, DB_UPSERT_NONE), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_creator_new(realm, (db_class_key_t)0xdeadbeef, keys, 1, DB_UPSERT_NONE), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_creator_new(realm, person, NULL, 1, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_creator_new(realm, person, keys, SIZE_MAX, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_creator_new(realm, person, keys, 1, (db_upsert_mode_e)77), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_creator_new(NULL, person, keys, 1, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    /* No properties: a row without its required values. */
    none = REQUIRE_PTR(db_object_creator_new(realm, person, NULL, 0, DB_UPSERT_NONE));
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_STATUS(db_object_creator_create(none, NULL, &key), DB_ERR_MISSING_VALUE);
    REQUIRE_OK(db_realm_cancel_write(realm));
    CHECK(!db_object_creator_is_valid(NULL));
    db_object_creator_release(NULL);
    /* Closed: invalid, refuses, and is still released safely. */
    db_realm_release(realm);
    CHECK(!db_object_creator_is_valid(none));
    CHECK_STATUS(db_object_creator_create(none, NULL, &key), DB_ERR_CLOSED_REALM);
    db_object_creator_release(none);
}

HARNESS_MAIN("object_creator",
    HARNESS_ENTRY(creates_objects_as_create_many_with_keys_does),
    HARNESS_ENTRY(an_upsert_creator_updates_the_object_with_the_primary_key),
    HARNESS_ENTRY(refuses_what_it_cannot_name))
