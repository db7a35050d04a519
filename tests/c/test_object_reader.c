/*
 * Object readers (db_object_reader_*): a class and some of its properties named once, one object
 * read per call into memory the reader owns. Each read must give what db_object_get_values_by_key
 * and db_object_get_values_by_primary_key give: the same values, strings copied while they fit
 * and lent after, and the same refusals.
 */
#include "fixtures.h"

enum { BUFFER = 64 };

/* A reader of Person (id, name, age, email) with `buffer_size` bytes for strings. */
static db_object_reader_t *person_reader(const db_realm_t *realm, size_t buffer_size) {
    db_property_key_t keys[4];
    keys[0] = fx_prop_key(realm, "Person", "id");
    keys[1] = fx_prop_key(realm, "Person", "name");
    keys[2] = fx_prop_key(realm, "Person", "age");
    keys[3] = fx_prop_key(realm, "Person", "email");
    return REQUIRE_PTR(db_object_reader_new(realm, fx_class_key(realm, "Person"), keys, 4, buffer_size));
}

/* Whether `p` lies in the reader's bytes for strings (just after its four values). */
static bool in_reader_bytes(const db_value_t *values, const void *p, size_t buffer_size) {
    const char *start = (const char *)(values + 4);
    return (const char *)p >= start && (const char *)p < start + buffer_size;
}

static void check_string(db_value_t value, const char *expected) {
    CHECK_EQ_INT(value.type, DB_VALUE_STRING);
    if (value.type != DB_VALUE_STRING) return;
    CHECK_EQ_INT(value.string.size, strlen(expected));
    CHECK(memcmp(value.string.data, expected, strlen(expected)) == 0);
}

TEST(reads_as_get_values_by_key_and_by_primary_key_do) {
    db_realm_t *realm = fx_open_new_with_people(3);
    db_class_key_t person = fx_class_key(realm, "Person");
    db_object_reader_t *reader = person_reader(realm, BUFFER);
    const db_value_t *values = db_object_reader_values(reader);
    db_value_t pk = v_int(2);
    db_object_key_t key = -1, expected = -1, three = -1;
    bool found = false;
    REQUIRE(values != NULL);
    CHECK(db_object_reader_is_valid(reader));
    REQUIRE_OK(db_object_find_key_with_primary_key(realm, person, &pk, &expected, &found));
    found = false;
    CHECK_OK(db_object_reader_find(reader, &pk, &key, &found));
    CHECK(found);
    CHECK_EQ_INT(key, expected);
    CHECK_EQ_INT(values[0].integer, 2);
    check_string(values[1], "person 2");
    CHECK(in_reader_bytes(values, values[1].string.data, BUFFER)); /* copied: fits */
    CHECK_EQ_INT(values[2].integer, 22);
    CHECK_EQ_INT(values[3].type, DB_VALUE_NULL);
    /* By key. */
    pk = v_int(3);
    REQUIRE_OK(db_object_find_key_with_primary_key(realm, person, &pk, &three, &found));
    CHECK_OK(db_object_reader_read(reader, three));
    CHECK_EQ_INT(values[0].integer, 3);
    check_string(values[1], "person 3");
    /* No such object: found is false, the key and the values stay. */
    pk = v_int(99);
    key = -7;
    CHECK_OK(db_object_reader_find(reader, &pk, &key, &found));
    CHECK(!found);
    CHECK_EQ_INT(key, -7);
    CHECK_EQ_INT(values[0].integer, 3);
    /* A write in progress is read; a deleted object is invalidated. */
    REQUIRE_OK(db_realm_begin_write(realm));
    {
        db_object_t *two = fx_require_person(realm, 2);
        db_value_t email = v_str("two@example.com");
        REQUIRE_OK(db_object_set_value(two, fx_prop_key(realm, "Person", "email"), &email));
        db_object_release(two);
    }
    CHECK_OK(db_object_reader_read(reader, expected));
    check_string(values[3], "two@example.com");
    {
        db_object_t *doomed = fx_require_person(realm, 3);
        REQUIRE_OK(db_object_delete(doomed));
        db_object_release(doomed);
    }
    CHECK_STATUS(db_object_reader_read(reader, three), DB_ERR_INVALIDATED);
    REQUIRE_OK(db_realm_cancel_write(realm));
    CHECK_OK(db_object_reader_read(reader, three));
    CHECK_EQ_INT(values[0].integer, 3);
    /* A primary key of the wrong type is refused as a lookup refuses it. */
    pk = v_str("2");
    CHECK_STATUS(db_object_reader_find(reader, &pk, &key, &found), DB_ERR_WRONG_TYPE);
    db_object_reader_release(reader);
    db_realm_release(realm);
}

TEST(strings_that_do_not_fit_are_lent) {
    db_realm_t *realm = fx_open_new_with_people(1);
    db_object_reader_t *small = person_reader(realm, 4), *none = person_reader(realm, 0);
    const db_value_t *values = db_object_reader_values(small);
    db_value_t pk = v_int(1);
    db_object_key_t key = -1;
    bool found = false;
    CHECK_OK(db_object_reader_find(small, &pk, &key, &found));
    CHECK(found);
    check_string(values[1], "person 1");
    CHECK(!in_reader_bytes(values, values[1].string.data, 4));
    values = db_object_reader_values(none);
    CHECK_OK(db_object_reader_read(none, key));
    check_string(values[1], "person 1");
    db_object_reader_release(small);
    db_object_reader_release(none);
    db_realm_release(realm);
}

TEST(refuses_what_it_cannot_name) {
    db_realm_t *realm = fx_open_new();
    db_class_key_t person = fx_class_key(realm, "Person");
    db_property_key_t keys[2];
    db_object_reader_t *reader;
    db_object_key_t key = -1;
    db_value_t pk = v_int(1);
    bool found = false;
    fx_dogs_t dogs = fx_open_dogs(harness_tmpfile("dogs.realm"));
    db_object_reader_t *dog_reader;
    keys[0] = fx_prop_key(realm, "Person", "id");
    keys[1] = 9999;
    CHECK_NULL_ERR(db_object_reader_new(realm, person, keys, 2, BUFFER), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_reader_new(realm, (db_class_key_t)0xdeadbeef, keys, 1, BUFFER), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_reader_new(realm, person, NULL, 1, BUFFER), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_reader_new(realm, person, keys, SIZE_MAX, BUFFER), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_reader_new(realm, person, keys, 1, SIZE_MAX), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_reader_new(realm, person, keys, 1, ((size_t)1 << 24) + 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_reader_new(NULL, person, keys, 1, BUFFER), DB_ERR_INVALID_ARGUMENT);
    /* A collection property holds no single value; a class without a primary key has no finds. */
    CHECK_NULL_ERR(db_object_reader_new(dogs.realm, dogs.cls, &dogs.scores, 1, BUFFER), DB_ERR_WRONG_TYPE);
    dog_reader = REQUIRE_PTR(db_object_reader_new(dogs.realm, dogs.cls, &dogs.age, 1, BUFFER));
    CHECK_STATUS(db_object_reader_find(dog_reader, &pk, &key, &found), DB_ERR_LOGIC);
    CHECK_STATUS(db_object_reader_read(dog_reader, 12345), DB_ERR_INVALIDATED);
    db_object_reader_release(dog_reader);
    db_realm_release(dogs.realm);
    reader = REQUIRE_PTR(db_object_reader_new(realm, person, keys, 1, BUFFER));
    CHECK_STATUS(db_object_reader_find(reader, NULL, &key, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_reader_find(reader, &pk, NULL, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_reader_find(reader, &pk, &key, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_reader_find(NULL, &pk, &key, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_reader_read(NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK(db_object_reader_values(NULL) == NULL);
    CHECK(!db_object_reader_is_valid(NULL));
    db_object_reader_release(NULL);
    /* Closed: invalid, refuses, its values still readable memory, and still released safely. */
    db_realm_release(realm);
    CHECK(!db_object_reader_is_valid(reader));
    CHECK_STATUS(db_object_reader_find(reader, &pk, &key, &found), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_object_reader_read(reader, 0), DB_ERR_CLOSED_REALM);
    CHECK(db_object_reader_values(reader) != NULL);
    db_object_reader_release(reader);
}

HARNESS_MAIN("object_reader",
    HARNESS_ENTRY(reads_as_get_values_by_key_and_by_primary_key_do),
    HARNESS_ENTRY(strings_that_do_not_fit_are_lent),
    HARNESS_ENTRY(refuses_what_it_cannot_name))
