/*
 * Objects: create (required/optional/missing values, transactions), upsert
 * modes, create_many, lookup by primary key and by object key, accessors,
 * delete and use after delete/close, equals, description, persisted names.
 */
#include "fixtures.h"

/* Person property keys of `realm`, in fx_person_props order. */
typedef struct person_keys {
    db_class_key_t cls;
    db_property_key_t id, name, age, email;
} person_keys_t;

static person_keys_t person_keys(const db_realm_t *realm) {
    person_keys_t k;
    k.cls = fx_class_key(realm, "Person");
    k.id = fx_prop_key(realm, "Person", "id");
    k.name = fx_prop_key(realm, "Person", "name");
    k.age = fx_prop_key(realm, "Person", "age");
    k.email = fx_prop_key(realm, "Person", "email");
    return k;
}

/* A Person row without email: the keys id, name, age and the values to write to them. */
typedef struct person_row {
    db_class_key_t cls;
    db_property_key_t keys[3];
    db_value_t values[3];
} person_row_t;

static person_row_t person_row(const db_realm_t *realm, db_value_t id, db_value_t name, db_value_t age) {
    person_keys_t k = person_keys(realm);
    person_row_t row;
    row.cls = k.cls;
    row.keys[0] = k.id; row.keys[1] = k.name; row.keys[2] = k.age;
    row.values[0] = id; row.values[1] = name; row.values[2] = age;
    return row;
}

/* Ann, the row the create tests start from. */
static person_row_t ann_row(const db_realm_t *realm) {
    return person_row(realm, v_int(1), v_str("Ann"), v_int(3));
}

static db_object_t *create_row(db_realm_t *realm, const person_row_t *row) {
    return db_object_create(realm, row->cls, row->keys, row->values, 3, DB_UPSERT_NONE);
}

/* Commits the write, checks how many Person objects there are, releases the realm. */
static void commit_expecting_people(db_realm_t *realm, size_t people) {
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), people);
    db_realm_release(realm);
}

/* After creates that must fail: none left a Person behind. Cancels the write, releases the realm. */
static void cancel_expecting_no_people(db_realm_t *realm) {
    CHECK_EQ_UINT(fx_count(realm, "Person"), 0);
    REQUIRE_OK(db_realm_cancel_write(realm));
    db_realm_release(realm);
}

static int message_contains(const char *needle) {
    harness_error_t e = harness_last_error();
    return strstr(e.message, needle) != NULL;
}

/* ---- create --------------------------------------------------------------- */

TEST(create_and_read) {
    db_realm_t *realm = fx_open_new();
    person_keys_t k = person_keys(realm);
    db_property_key_t keys[4];
    db_value_t values[4], v;
    db_object_t *o;
    char buf[64];
    keys[0] = k.id; keys[1] = k.name; keys[2] = k.age; keys[3] = k.email;
    values[0] = v_int(1); values[1] = v_str("Ann"); values[2] = v_int(30); values[3] = v_str("ann@example.com");
    REQUIRE_OK(db_realm_begin_write(realm));
    o = db_object_create(realm, k.cls, keys, values, 4, DB_UPSERT_NONE);
    REQUIRE(o != NULL);
    CHECK_LAST_ERROR(DB_OK);
    CHECK(db_object_is_valid(o));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK(db_object_is_valid(o)); /* still valid after the commit */
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1);
    REQUIRE_OK(db_object_get_value(o, k.name, &v));
    REQUIRE(v.type == DB_VALUE_STRING);
    CHECK(v.string.size == 3 && memcmp(v.string.data, "Ann", 3) == 0);
    CHECK_EQ_INT(fx_get_int(o, "id"), 1);
    CHECK_EQ_INT(fx_get_int(o, "age"), 30);
    CHECK_EQ_STR(fx_get_str(o, "email", buf, sizeof buf), "ann@example.com");
    db_object_release(o);
    db_realm_release(realm);
}

TEST(create_missing_optional_is_null) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = fx_begin_with_ann(realm);
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_INT(fx_get(o, "email").type, DB_VALUE_NULL);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(create_missing_required) {
    db_realm_t *realm = fx_open_new();
    person_row_t row = ann_row(realm);
    REQUIRE_OK(db_realm_begin_write(realm));
    /* no name (id and age) */
    db_property_key_t id_age[2] = {row.keys[0], row.keys[2]};
    db_value_t no_name[2] = {row.values[0], row.values[2]};
    CHECK_NULL_ERR(db_object_create(realm, row.cls, id_age, no_name, 2, DB_UPSERT_NONE), DB_ERR_MISSING_VALUE);
    CHECK(message_contains("name"));
    /* no primary key (name and age) */
    CHECK_NULL_ERR(db_object_create(realm, row.cls, row.keys + 1, row.values + 1, 2, DB_UPSERT_NONE),
                   DB_ERR_MISSING_VALUE);
    /* nothing at all */
    CHECK_NULL_ERR(db_object_create(realm, row.cls, NULL, NULL, 0, DB_UPSERT_NONE), DB_ERR_MISSING_VALUE);
    cancel_expecting_no_people(realm); /* no partial object */
}

TEST(create_null_for_required) {
    db_realm_t *realm = fx_open_new();
    person_row_t row = person_row(realm, v_int(1), v_null(), v_int(3));
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_NULL_ERR(create_row(realm, &row), DB_ERR_NOT_NULLABLE);
    cancel_expecting_no_people(realm);
}

TEST(create_wrong_type) {
    db_realm_t *realm = fx_open_new();
    person_row_t row = person_row(realm, v_int(1), v_str("Ann"), v_str("thirty"));
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_NULL_ERR(create_row(realm, &row), DB_ERR_WRONG_TYPE);
    row.values[0] = v_str("1"); row.values[2] = v_int(30); /* primary key of the wrong type */
    CHECK_NULL_ERR(create_row(realm, &row), DB_ERR_WRONG_TYPE);
    cancel_expecting_no_people(realm);
}

TEST(create_outside_write) {
    db_realm_t *realm = fx_open_new();
    person_row_t row = ann_row(realm);
    CHECK_NULL_ERR(create_row(realm, &row), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 0);
    db_realm_release(realm);
}

TEST(create_unknown_class_or_property) {
    db_realm_t *realm = fx_open_new();
    person_row_t row = ann_row(realm);
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_NULL_ERR(db_object_create(realm, (db_class_key_t)0xdeadbeef, row.keys, row.values, 3, DB_UPSERT_NONE),
                   DB_ERR_NOT_FOUND);
    row.keys[2] = 0x7fffffff; /* no such property */
    CHECK_NULL_ERR(create_row(realm, &row), DB_ERR_NOT_FOUND);
    cancel_expecting_no_people(realm);
}

TEST(create_null_arguments) {
    db_realm_t *realm = fx_open_new();
    person_row_t r = ann_row(realm);
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_NULL_ERR(db_object_create(NULL, r.cls, r.keys, r.values, 3, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_create(realm, r.cls, NULL, r.values, 3, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_create(realm, r.cls, r.keys, NULL, 3, DB_UPSERT_NONE), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_create(realm, r.cls, r.keys, r.values, 3, (db_upsert_mode_e)7), DB_ERR_INVALID_ARGUMENT);
    cancel_expecting_no_people(realm);
}

/* ---- primary keys and upsert ------------------------------------------------ */

/* Writes id, age and (when count is 3) name, in that order: with count 2 the name is left out. */
static db_object_t *upsert_person(db_realm_t *realm, db_upsert_mode_e mode, int64_t id, const char *name, int64_t age,
                                  size_t count) {
    person_row_t row = person_row(realm, v_int(id), v_int(age), v_str(name ? name : ""));
    db_property_key_t name_key = row.keys[1];
    row.keys[1] = row.keys[2];
    row.keys[2] = name_key;
    return db_object_create(realm, row.cls, row.keys, row.values, count, mode);
}

TEST(duplicate_primary_key) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = fx_begin_with_ann(realm);
    char buf[64];
    CHECK_NULL_ERR(upsert_person(realm, DB_UPSERT_NONE, 1, "Bob", 40, 3), DB_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1);
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "Ann"); /* untouched */
    REQUIRE_OK(db_realm_commit(realm));
    /* Also against a committed object. */
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_NULL_ERR(upsert_person(realm, DB_UPSERT_NONE, 1, "Bob", 40, 3), DB_ERR_DUPLICATE_PRIMARY_KEY);
    fx_cancel_and_release(realm, o);
}

static void check_upsert_updates(db_upsert_mode_e mode) {
    db_realm_t *realm = fx_open_new();
    db_object_t *existing, *updated;
    db_value_t email = v_str("ann@example.com");
    char buf[64];
    existing = fx_begin_with_ann(realm);
    REQUIRE_OK(db_object_set_value_by_name(existing, "email", &email));
    REQUIRE_OK(db_realm_commit(realm));

    REQUIRE_OK(db_realm_begin_write(realm));
    /* Only id and age given: name and email keep their values. */
    updated = upsert_person(realm, mode, 1, NULL, 31, 2);
    REQUIRE(updated != NULL);
    CHECK_LAST_ERROR(DB_OK);
    CHECK(db_object_equals(updated, existing));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1);
    CHECK_EQ_INT(fx_get_int(existing, "age"), 31);
    CHECK_EQ_STR(fx_get_str(existing, "name", buf, sizeof buf), "Ann");
    CHECK_EQ_STR(fx_get_str(existing, "email", buf, sizeof buf), "ann@example.com");
    db_object_release(updated);

    /* Same values again: no error either. */
    REQUIRE_OK(db_realm_begin_write(realm));
    updated = upsert_person(realm, mode, 1, "Ann", 31, 3);
    CHECK(updated != NULL);
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1);
    db_object_release(updated);

    /* An absent key creates. */
    REQUIRE_OK(db_realm_begin_write(realm));
    updated = upsert_person(realm, mode, 2, "Bob", 40, 3);
    CHECK(updated != NULL);
    CHECK(updated && !db_object_equals(updated, existing));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 2);
    db_object_release(updated);
    db_object_release(existing);
    db_realm_release(realm);
}

TEST(upsert_modified_updates_given_properties) {
    check_upsert_updates(DB_UPSERT_MODIFIED);
}

TEST(upsert_all_updates_given_properties) {
    check_upsert_updates(DB_UPSERT_ALL);
}

TEST(upsert_absent_primary_key_still_needs_required) {
    db_realm_t *realm = fx_open_new();
    REQUIRE_OK(db_realm_begin_write(realm));
    /* id 9 does not exist: this is a create, and name is missing. */
    CHECK_NULL_ERR(upsert_person(realm, DB_UPSERT_MODIFIED, 9, NULL, 1, 2), DB_ERR_MISSING_VALUE);
    cancel_expecting_no_people(realm);
}

TEST(upsert_without_primary_key_creates) {
    static const char *const names[2] = {"message", "level"};
    db_realm_t *realm = fx_open_new();
    db_value_t values[2] = {v_str("hello"), v_int(1)};
    db_object_t *a, *b;
    REQUIRE_OK(db_realm_begin_write(realm));
    a = (db_object_t *)REQUIRE_PTR(fx_create(realm, "Log", names, values, 2, DB_UPSERT_MODIFIED));
    b = (db_object_t *)REQUIRE_PTR(fx_create(realm, "Log", names, values, 2, DB_UPSERT_ALL));
    CHECK(!db_object_equals(a, b));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Log"), 2);
    db_object_release(a);
    db_object_release(b);
    db_realm_release(realm);
}

TEST(string_primary_key) {
    static const char *const names[2] = {"code", "note"};
    db_realm_t *realm = fx_open_new();
    db_value_t values[2] = {v_str("abc"), v_str("first")}, pk = v_str("abc");
    db_object_t *o, *found;
    bool was_found = false;
    REQUIRE_OK(db_realm_begin_write(realm));
    o = (db_object_t *)REQUIRE_PTR(fx_create(realm, "Tagged", names, values, 2, DB_UPSERT_NONE));
    values[1] = v_str("second");
    CHECK_NULL_ERR(fx_create(realm, "Tagged", names, values, 2, DB_UPSERT_NONE), DB_ERR_DUPLICATE_PRIMARY_KEY);
    values[0] = v_strn("abc\0", 4); /* a different key: the size counts */
    db_object_release((db_object_t *)REQUIRE_PTR(fx_create(realm, "Tagged", names, values, 2, DB_UPSERT_NONE)));
    REQUIRE_OK(db_realm_commit(realm));
    found = db_object_find_with_primary_key(realm, fx_class_key(realm, "Tagged"), &pk, &was_found);
    CHECK(was_found);
    CHECK(found && db_object_equals(found, o));
    CHECK_EQ_UINT(fx_count(realm, "Tagged"), 2);
    db_object_release(found);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(set_primary_key_is_logic_error) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o = fx_begin_with_ann(realm);
    db_value_t v = v_int(2);
    CHECK_STATUS(db_object_set_value_by_name(o, "id", &v), DB_ERR_LOGIC);
    CHECK_STATUS(db_object_set_value(o, fx_prop_key(realm, "Person", "id"), &v), DB_ERR_LOGIC);
    CHECK_EQ_INT(fx_get_int(o, "id"), 1);
    fx_commit_and_release(realm, o);
}

/* ---- create_many ------------------------------------------------------------ */

/* Three Person rows for create_many: ids first_id, first_id + 1, first_id + 2, the given names, ages 0, 1, 2. */
typedef struct three_rows {
    db_class_key_t cls;
    db_property_key_t keys[3]; /* id, name, age */
    db_value_t values[3][3];
} three_rows_t;

static three_rows_t three_rows(const db_realm_t *realm, int64_t first_id, const char *const names[3]) {
    three_rows_t rows;
    int i;
    for (i = 0; i < 3; i++) {
        rows.values[i][0] = v_int(first_id + i);
        rows.values[i][1] = v_str(names[i]);
        rows.values[i][2] = v_int(i);
    }
    person_row_t row = person_row(realm, rows.values[0][0], rows.values[0][1], rows.values[0][2]);
    rows.cls = row.cls;
    memcpy(rows.keys, row.keys, sizeof rows.keys);
    return rows;
}

static int create_many(db_realm_t *realm, three_rows_t *rows, size_t count, db_upsert_mode_e mode, size_t *created) {
    return db_object_create_many(realm, rows->cls, rows->keys, 3, &rows->values[0][0], count, mode, created);
}

static int create_many_with_keys(db_realm_t *realm, three_rows_t *rows, size_t count, db_upsert_mode_e mode,
                                 db_object_key_t *out) {
    return db_object_create_many_with_keys(realm, rows->cls, rows->keys, 3, &rows->values[0][0], count, mode, out);
}

TEST(create_many_rows) {
    static const char *const names[3] = {"a", "b", "c"};
    db_realm_t *realm = fx_open_new();
    three_rows_t rows = three_rows(realm, 10, names);
    size_t created = 0;
    db_object_t *o;
    char buf[64];
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(create_many(realm, &rows, 3, DB_UPSERT_NONE, &created));
    CHECK_EQ_UINT(created, 3);
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 3);
    o = fx_require_person(realm, 11);
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "b");
    CHECK_EQ_INT(fx_get_int(o, "age"), 1);
    db_object_release(o);
    /* out_num_created may be NULL; zero rows is fine. */
    REQUIRE_OK(db_realm_begin_write(realm));
    rows.values[0][0] = v_int(20);
    CHECK_OK(create_many(realm, &rows, 1, DB_UPSERT_NONE, NULL));
    created = 99;
    CHECK_OK(create_many(realm, &rows, 0, DB_UPSERT_NONE, &created));
    CHECK_EQ_UINT(created, 0);
    commit_expecting_people(realm, 4);
}

TEST(create_many_failure_keeps_earlier_rows) {
    static const char *const names[3] = {"x", "x", "x"};
    db_realm_t *realm = fx_open_new();
    three_rows_t rows = three_rows(realm, 1, names);
    size_t created = 77;
    rows.values[1][2] = v_str("not an int"); /* row 1 (the second) fails */
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_STATUS(create_many(realm, &rows, 3, DB_UPSERT_NONE, &created), DB_ERR_WRONG_TYPE);
    CHECK(message_contains("row"));
    CHECK_EQ_UINT(created, 77); /* outputs are written only on success */
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1); /* the row before the failing one remains */
    REQUIRE_OK(db_realm_cancel_write(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 0);
    db_realm_release(realm);
}

TEST(create_many_duplicates_and_upsert) {
    static const char *const names[3] = {"first", "second", "third"};
    db_realm_t *realm = fx_open_new();
    three_rows_t rows = three_rows(realm, 1, names);
    size_t created = 0;
    db_object_t *o;
    char buf[64];
    rows.values[2][0] = v_int(1); /* the third row has the first row's id */
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_STATUS(create_many(realm, &rows, 3, DB_UPSERT_NONE, &created), DB_ERR_DUPLICATE_PRIMARY_KEY);
    REQUIRE_OK(db_realm_cancel_write(realm));
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(create_many(realm, &rows, 3, DB_UPSERT_MODIFIED, &created));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 2);
    o = fx_require_person(realm, 1);
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "third"); /* the last row wins */
    db_object_release(o);
    db_realm_release(realm);
}

TEST(create_many_with_keys_reports_each_rows_object) {
    static const char *const names[3] = {"n", "n", "n"};
    db_realm_t *realm = fx_open_new();
    three_rows_t rows = three_rows(realm, 30, names);
    db_object_key_t out[3] = {-1, -1, -1};
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(create_many_with_keys(realm, &rows, 3, DB_UPSERT_NONE, out));
    for (int i = 0; i < 3; i++) {
        db_object_t *o = fx_require_person(realm, 30 + i);
        db_object_key_t key = -1;
        REQUIRE_OK(db_object_get_key(o, &key));
        CHECK_EQ_INT(out[i], key);
        db_object_release(o);
    }
    /* With an upsert mode, an existing primary key reports the object it updated. */
    db_object_key_t again[1] = {-1};
    rows.values[0][1] = v_str("renamed");
    CHECK_OK(create_many_with_keys(realm, &rows, 1, DB_UPSERT_MODIFIED, again));
    CHECK_EQ_INT(again[0], out[0]);
    /* Errors: NULL out_keys; a duplicate fails its row and keeps the rows before it. */
    CHECK_STATUS(create_many_with_keys(realm, &rows, 1, DB_UPSERT_NONE, NULL), DB_ERR_INVALID_ARGUMENT);
    rows.values[0][0] = v_int(40);
    rows.values[1][0] = v_int(30);
    db_object_key_t partial[2] = {-1, -1};
    CHECK_STATUS(create_many_with_keys(realm, &rows, 2, DB_UPSERT_NONE, partial), DB_ERR_DUPLICATE_PRIMARY_KEY);
    CHECK(partial[0] >= 0);
    CHECK_EQ_INT(partial[1], -1);
    commit_expecting_people(realm, 4);
}

TEST(create_many_errors) {
    db_realm_t *realm = fx_open_new();
    person_row_t r = person_row(realm, v_int(1), v_str("x"), v_int(1));
    size_t created;
    CHECK_STATUS(db_object_create_many(realm, r.cls, r.keys, 3, r.values, 1, DB_UPSERT_NONE, &created),
                 DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_STATUS(db_object_create_many(NULL, r.cls, r.keys, 3, r.values, 1, DB_UPSERT_NONE, &created),
                 DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_create_many(realm, r.cls, NULL, 3, r.values, 1, DB_UPSERT_NONE, &created),
                 DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_create_many(realm, r.cls, r.keys, 3, NULL, 1, DB_UPSERT_NONE, &created),
                 DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_create_many(realm, (db_class_key_t)0xdeadbeef, r.keys, 3, r.values, 1, DB_UPSERT_NONE,
                                       &created),
                 DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_create_many(realm, r.cls, r.keys, 2, r.values, 1, DB_UPSERT_NONE, &created),
                 DB_ERR_MISSING_VALUE); /* no age */
    cancel_expecting_no_people(realm);
}

/* ---- lookup ----------------------------------------------------------------- */

TEST(find_with_primary_key) {
    db_realm_t *realm = fx_open_new_with_people(3);
    db_class_key_t ck = fx_class_key(realm, "Person");
    db_value_t pk = v_int(2);
    bool found = false;
    db_object_t *o;
    o = db_object_find_with_primary_key(realm, ck, &pk, &found);
    REQUIRE(o != NULL);
    CHECK(found);
    CHECK_LAST_ERROR(DB_OK);
    CHECK_EQ_INT(fx_get_int(o, "id"), 2);
    db_object_release(o);
    /* out_found may be NULL */
    o = db_object_find_with_primary_key(realm, ck, &pk, NULL);
    CHECK(o != NULL);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(find_with_absent_primary_key) {
    db_realm_t *realm = fx_open_new_with_people(1);
    db_class_key_t ck = fx_class_key(realm, "Person");
    db_value_t pk = v_int(42);
    bool found = true;
    CHECK(db_object_find_with_primary_key(realm, ck, &pk, &found) == NULL);
    CHECK(!found);
    CHECK_LAST_ERROR(DB_OK); /* absent is not an error */
    CHECK_NULL_ERR(db_object_find_with_primary_key(realm, ck, &pk, NULL), DB_OK);
    db_realm_release(realm);
}

TEST(find_with_primary_key_errors) {
    db_realm_t *realm = fx_open_new_with_people(1);
    db_class_key_t ck = fx_class_key(realm, "Person");
    db_value_t pk = v_int(1), wrong = v_str("1");
    bool found;
    CHECK_NULL_ERR(db_object_find_with_primary_key(realm, fx_class_key(realm, "Log"), &pk, &found), DB_ERR_LOGIC);
    CHECK_NULL_ERR(db_object_find_with_primary_key(realm, ck, &wrong, &found), DB_ERR_WRONG_TYPE);
    CHECK_NULL_ERR(db_object_find_with_primary_key(realm, (db_class_key_t)0xdeadbeef, &pk, &found), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_find_with_primary_key(NULL, ck, &pk, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_find_with_primary_key(realm, ck, NULL, &found), DB_ERR_INVALID_ARGUMENT);
    db_realm_release(realm);
}

TEST(get_by_key) {
    db_realm_t *realm = fx_open_new_with_people(2);
    db_class_key_t ck = fx_class_key(realm, "Person"), ck_out = 0;
    db_object_key_t key = -1, key2 = -1;
    db_object_t *o, *again;
    o = fx_require_person(realm, 2);
    REQUIRE_OK(db_object_get_key(o, &key));
    REQUIRE_OK(db_object_get_class_key(o, &ck_out));
    CHECK_EQ_UINT(ck_out, ck);
    again = db_object_get_by_key(realm, ck, key);
    REQUIRE(again != NULL);
    CHECK_LAST_ERROR(DB_OK);
    CHECK(db_object_equals(o, again));
    REQUIRE_OK(db_object_get_key(again, &key2));
    CHECK_EQ_INT(key2, key);
    CHECK_NULL_ERR(db_object_get_by_key(realm, ck, 0x7fffffffffffLL), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_get_by_key(realm, (db_class_key_t)0xdeadbeef, key), DB_ERR_NOT_FOUND);
    CHECK_NULL_ERR(db_object_get_by_key(NULL, ck, key), DB_ERR_INVALID_ARGUMENT);
    db_object_release(again);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(object_keys_are_not_reused) {
    db_realm_t *realm = fx_open_new();
    db_object_t *a, *b;
    db_object_key_t ka, kb;
    REQUIRE_OK(db_realm_begin_write(realm));
    a = fx_person(realm, 1, "a", 1);
    REQUIRE_OK(db_object_get_key(a, &ka));
    REQUIRE_OK(db_object_delete(a));
    REQUIRE_OK(db_realm_commit(realm));
    REQUIRE_OK(db_realm_begin_write(realm));
    b = fx_person(realm, 1, "b", 2);
    REQUIRE_OK(db_object_get_key(b, &kb));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK(ka != kb);
    CHECK(!db_object_equals(a, b));
    CHECK_NULL_ERR(db_object_get_by_key(realm, fx_class_key(realm, "Person"), ka), DB_ERR_NOT_FOUND);
    db_object_release(a);
    db_object_release(b);
    db_realm_release(realm);
}

/* Keys without handles: a primary key's object key, then reads and writes by (class, object) key
 * that agree with the handle's, and fail as the handle's would once the object is gone. */
TEST(find_key_then_read_and_write_by_key) {
    db_realm_t *realm = fx_open_new_with_people(3), *frozen;
    person_keys_t k = person_keys(realm);
    db_property_key_t keys[3];
    db_value_t pk = v_int(2), out[3], age = v_int(77), wrong = v_str("old");
    db_object_key_t key = -1, handle_key = -1, untouched = 12345;
    bool found = false;
    db_object_t *two = fx_require_person(realm, 2);
    const uint64_t *counter;
    uint64_t seen;
    keys[0] = k.id; keys[1] = k.name; keys[2] = k.age;
    REQUIRE_OK(db_object_find_key_with_primary_key(realm, k.cls, &pk, &key, &found));
    CHECK(found);
    REQUIRE_OK(db_object_get_key(two, &handle_key));
    CHECK_EQ_INT(key, handle_key);
    REQUIRE_OK(db_object_get_values_by_key(realm, k.cls, key, keys, 3, out, NULL, 0));
    CHECK_EQ_INT(out[0].integer, 2);
    CHECK(out[1].type == DB_VALUE_STRING && out[1].string.size == 8 && memcmp(out[1].string.data, "person 2", 8) == 0);
    CHECK_EQ_INT(out[2].integer, 22);

    /* The lookup and the read in one call: the same key and values. */
    memset(out, 0, sizeof out);
    handle_key = -1;
    REQUIRE_OK(db_object_get_values_by_primary_key(realm, k.cls, &pk, keys, 3, out, NULL, 0, &handle_key, &found));
    CHECK(found);
    CHECK_EQ_INT(handle_key, key);
    CHECK_EQ_INT(out[0].integer, 2);
    CHECK_EQ_INT(out[2].integer, 22);
    keys[2] = 9999; /* an unknown property: the same error whether the object exists or not */
    CHECK_STATUS(db_object_get_values_by_primary_key(realm, k.cls, &pk, keys, 3, out, NULL, 0, &handle_key, &found), DB_ERR_NOT_FOUND);
    pk = v_int(42);
    CHECK_STATUS(db_object_get_values_by_primary_key(realm, k.cls, &pk, keys, 3, out, NULL, 0, &handle_key, &found), DB_ERR_NOT_FOUND);
    keys[2] = k.age;
    out[0].integer = -5;
    CHECK_OK(db_object_get_values_by_primary_key(realm, k.cls, &pk, keys, 3, out, NULL, 0, &untouched, &found));
    CHECK(!found);
    CHECK_EQ_INT(untouched, 12345); /* absent: key and values left as they were */
    CHECK_EQ_INT(out[0].integer, -5);
    CHECK_STATUS(db_object_get_values_by_primary_key(realm, k.cls, &pk, keys, 3, NULL, NULL, 0, &untouched, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_values_by_primary_key(realm, fx_class_key(realm, "Log"), &pk, keys, 3, out, NULL, 0, &untouched, &found), DB_ERR_LOGIC);
    pk = v_int(2);
    REQUIRE_OK(db_object_get_values_by_key(realm, k.cls, key, keys, 3, out, NULL, 0)); /* as before the calls above */

    pk = v_int(42); /* absent: not an error, the key left as it was */
    found = true;
    CHECK_OK(db_object_find_key_with_primary_key(realm, k.cls, &pk, &untouched, &found));
    CHECK(!found);
    CHECK_EQ_INT(untouched, 12345);
    CHECK_STATUS(db_object_find_key_with_primary_key(realm, fx_class_key(realm, "Log"), &pk, &untouched, &found), DB_ERR_LOGIC);
    CHECK_STATUS(db_object_find_key_with_primary_key(realm, k.cls, &wrong, &untouched, &found), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_object_find_key_with_primary_key(realm, k.cls, &pk, NULL, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_find_key_with_primary_key(realm, k.cls, &pk, &untouched, NULL), DB_ERR_INVALID_ARGUMENT);

    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, key, k.age, &age), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_get_change_counter(realm, &counter));
    REQUIRE_OK(db_realm_begin_write(realm));
    seen = *counter;
    CHECK_OK(db_object_set_value_by_key(realm, k.cls, key, k.age, &age));
    CHECK(*counter > seen); /* a write by key moves the counter as one through a handle */
    CHECK_EQ_INT(fx_get_int(two, "age"), 77);
    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, key, k.age, &wrong), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, key, k.id, &age), DB_ERR_LOGIC); /* the primary key */
    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, key, 9999, &age), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, 0x7fffffffffffLL, k.age, &age), DB_ERR_INVALIDATED);
    CHECK_OK(db_object_delete(two));
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, keys, 3, out, NULL, 0), DB_ERR_INVALIDATED);
    CHECK_STATUS(db_object_set_value_by_key(realm, k.cls, key, k.age, &age), DB_ERR_INVALIDATED);
    REQUIRE_OK(db_realm_cancel_write(realm)); /* the object is back, with its old age */
    REQUIRE_OK(db_object_get_values_by_key(realm, k.cls, key, keys, 3, out, NULL, 0));
    CHECK_EQ_INT(out[2].integer, 22);

    { /* Strings copied into the caller's buffer while they fit, borrowed after. */
        char buffer[12];
        db_value_t two_names[2];
        db_property_key_t name_twice[2];
        name_twice[0] = name_twice[1] = k.name;
        REQUIRE_OK(db_object_get_values_by_key(realm, k.cls, key, name_twice, 2, two_names, buffer, sizeof buffer));
        CHECK(two_names[0].string.data == buffer && two_names[0].string.size == 8);
        CHECK(memcmp(buffer, "person 2", 8) == 0);
        CHECK(two_names[1].string.data != buffer + 8 && two_names[1].string.size == 8); /* 4 bytes left: lent */
        CHECK(memcmp(two_names[1].string.data, "person 2", 8) == 0);
        CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, name_twice, 2, two_names, buffer, SIZE_MAX), DB_ERR_INVALID_ARGUMENT);
        REQUIRE_OK(db_object_get_values_by_key(realm, k.cls, key, name_twice, 2, two_names, NULL, 100)); /* NULL: size ignored */
        CHECK(memcmp(two_names[0].string.data, "person 2", 8) == 0);
        { /* Calls that fail leave the lent strings (db.h); valgrind (memcheck) sees a read of freed memory. */
            db_property_key_t bad[2] = {k.name, 9999};
            db_value_t missing = v_int(424242);
            bool missing_found = true;
            CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, bad, 2, out, NULL, 0), DB_ERR_NOT_FOUND);
            CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, 0x7fffffffffffLL, name_twice, 2, out, NULL, 0), DB_ERR_INVALIDATED);
            CHECK_STATUS(db_object_get_values_by_primary_key(realm, k.cls, &missing, bad, 2, out, NULL, 0, &handle_key, &missing_found),
                         DB_ERR_NOT_FOUND);
            CHECK(memcmp(two_names[0].string.data, "person 2", 8) == 0 && memcmp(two_names[1].string.data, "person 2", 8) == 0);
        }
        pk = v_int(2);
        REQUIRE_OK(db_object_get_values_by_primary_key(realm, k.cls, &pk, name_twice, 2, two_names, buffer, sizeof buffer, &handle_key, &found));
        CHECK(found && two_names[0].string.data == buffer);
    }
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, 0x7fffffffffffLL, keys, 3, out, NULL, 0), DB_ERR_INVALIDATED);
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, -1, keys, 3, out, NULL, 0), DB_ERR_INVALIDATED);
    CHECK_STATUS(db_object_get_values_by_key(realm, (db_class_key_t)0xdeadbeef, key, keys, 3, out, NULL, 0), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, NULL, 3, out, NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, keys, 3, NULL, NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK_OK(db_object_get_values_by_key(realm, k.cls, key, NULL, 0, NULL, NULL, 0)); /* nothing asked, nothing read */

    frozen = REQUIRE_PTR(db_realm_freeze(realm)); /* a frozen realm reads by key, and refuses writes */
    REQUIRE_OK(db_object_get_values_by_key(frozen, k.cls, key, keys, 3, out, NULL, 0));
    CHECK_EQ_INT(out[0].integer, 2);
    CHECK(db_object_set_value_by_key(frozen, k.cls, key, k.age, &age) != DB_OK);
    db_realm_release(frozen);
    REQUIRE_OK(db_realm_close(realm));
    CHECK_STATUS(db_object_get_values_by_key(realm, k.cls, key, keys, 3, out, NULL, 0), DB_ERR_CLOSED_REALM);
    db_object_release(two);
    db_realm_release(realm);
}

/* ---- accessors ---------------------------------------------------------------- */

TEST(accessor_argument_errors) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    db_property_key_t name = fx_prop_key(realm, "Person", "name"), keys[2];
    db_value_t v = v_str("x"), out[2];
    db_object_key_t key;
    db_class_key_t ck;
    keys[0] = name; keys[1] = fx_prop_key(realm, "Person", "age");
    REQUIRE_OK(db_realm_begin_write(realm));
    o = fx_person(realm, 1, "Ann", 30);
    CHECK_STATUS(db_object_get_value(NULL, name, &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value(o, name, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value(o, 0x7fffffff, &v), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_get_values(NULL, keys, 2, out), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_values(o, NULL, 2, out), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_values(o, keys, 2, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value_by_name(NULL, "name", &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value_by_name(o, NULL, &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value_by_name(o, "name", NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_value_by_name(o, "nope", &v), DB_ERR_NOT_FOUND);
    v = v_str("x");
    CHECK_STATUS(db_object_set_value(NULL, name, &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value(o, name, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value(o, 0x7fffffff, &v), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_set_values(NULL, keys, out, 2), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_values(o, NULL, out, 2), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_values(o, keys, NULL, 2), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value_by_name(NULL, "name", &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value_by_name(o, NULL, &v), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value_by_name(o, "name", NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_set_value_by_name(o, "nope", &v), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_object_delete(NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_key(NULL, &key), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_key(o, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_class_key(NULL, &ck), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_object_get_class_key(o, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_description(NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK(!db_object_is_valid(NULL));
    CHECK(!db_object_equals(NULL, o));
    CHECK(!db_object_equals(o, NULL));
    CHECK(!db_object_equals(NULL, NULL));
    /* the object is unharmed */
    CHECK_EQ_INT(fx_get_int(o, "age"), 30);
    fx_commit_and_release(realm, o);
}

TEST(set_outside_write) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    db_value_t v = v_int(99);
    db_property_key_t keys[1];
    keys[0] = fx_prop_key(realm, "Person", "age");
    fx_add_people(realm, 1);
    o = fx_require_person(realm, 1);
    CHECK_STATUS(db_object_set_value(o, keys[0], &v), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_STATUS(db_object_set_values(o, keys, &v, 1), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_STATUS(db_object_set_value_by_name(o, "age", &v), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_STATUS(db_object_delete(o), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK(db_object_is_valid(o));
    CHECK_EQ_INT(fx_get_int(o, "age"), 21);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(set_then_read_back) {
    db_realm_t *realm = fx_open_new_with_people(1);
    db_object_t *o;
    db_value_t v = v_str("Annabel"), w = v_int(44);
    char buf[64];
    o = fx_require_person(realm, 1);
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(db_object_set_value(o, fx_prop_key(realm, "Person", "name"), &v));
    CHECK_OK(db_object_set_value_by_name(o, "age", &w));
    CHECK_LAST_ERROR(DB_OK);
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "Annabel");
    CHECK_EQ_INT(fx_get_int(o, "age"), 44);
    db_object_release(o);
    db_realm_release(realm);
}

TEST(set_values_validates_all_first) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    db_property_key_t keys[2];
    db_value_t values[2];
    char buf[32];
    keys[0] = fx_prop_key(realm, "Person", "name");
    keys[1] = fx_prop_key(realm, "Person", "age");
    values[0] = v_str("Changed");
    values[1] = v_str("not an int");
    REQUIRE_OK(db_realm_begin_write(realm));
    o = fx_person(realm, 1, "Ann", 30);
    CHECK_STATUS(db_object_set_values(o, keys, values, 2), DB_ERR_WRONG_TYPE);
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "Ann"); /* nothing written */
    values[1] = v_null();
    CHECK_STATUS(db_object_set_values(o, keys, values, 2), DB_ERR_NOT_NULLABLE);
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "Ann");
    values[1] = v_int(31);
    CHECK_OK(db_object_set_values(o, keys, values, 2));
    CHECK_EQ_STR(fx_get_str(o, "name", buf, sizeof buf), "Changed");
    CHECK_EQ_INT(fx_get_int(o, "age"), 31);
    fx_commit_and_release(realm, o);
}

/* ---- delete and invalidation -------------------------------------------------- */

static void check_invalidated(db_object_t *o, db_property_key_t key, int code1, int code2) {
    db_value_t v = v_int(1), out[1];
    db_object_key_t ok;
    db_class_key_t ck;
    int s;
    CHECK(!db_object_is_valid(o));
#define CHECK_GONE(call)                                                                              \
    do {                                                                                              \
        s = (int)(call);                                                                              \
        harness_checks++;                                                                             \
        if (s != code1 && s != code2) {                                                               \
            harness_error_t e_ = harness_last_error();                                                \
            harness_fail_with_error(__FILE__, __LINE__, &e_, "%s returned %s, expected %s", #call,   \
                                    harness_status_name(s), harness_status_name(code1));              \
        } else {                                                                                      \
            CHECK_LAST_ERROR(s);                                                                      \
        }                                                                                             \
    } while (0)
    CHECK_GONE(db_object_get_value(o, key, &v));
    CHECK_GONE(db_object_get_values(o, &key, 1, out));
    CHECK_GONE(db_object_get_value_by_name(o, "age", &v));
    CHECK_GONE(db_object_get_key(o, &ok));
    CHECK_GONE(db_object_get_class_key(o, &ck));
    v = v_int(1);
    CHECK_GONE(db_object_set_value(o, key, &v));
    CHECK_GONE(db_object_set_values(o, &key, &v, 1));
    CHECK_GONE(db_object_set_value_by_name(o, "age", &v));
    CHECK_GONE(db_object_delete(o));
    {
        char *d = db_object_description(o);
        CHECK(d == NULL);
        if (d == NULL) {
            harness_error_t e = harness_last_error();
            if (e.code != code1 && e.code != code2)
                harness_fail_with_error(__FILE__, __LINE__, &e, "description of a dead object");
        }
        db_string_free(d);
    }
#undef CHECK_GONE
}

TEST(use_after_delete) {
    db_realm_t *realm = fx_open_new_with_people(2);
    db_object_t *o, *other;
    db_property_key_t age = fx_prop_key(realm, "Person", "age");
    o = fx_require_person(realm, 1);
    other = fx_require_person(realm, 1); /* second accessor, same object */
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_OK(db_object_delete(o));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 1);
    check_invalidated(o, age, DB_ERR_INVALIDATED, DB_ERR_INVALIDATED);
    check_invalidated(other, age, DB_ERR_INVALIDATED, DB_ERR_INVALIDATED);
    REQUIRE_OK(db_realm_commit(realm));
    check_invalidated(o, age, DB_ERR_INVALIDATED, DB_ERR_INVALIDATED);
    CHECK(fx_find_person(realm, 1) == NULL);
    db_object_release(o);
    db_object_release(other);
    db_realm_release(realm);
}

TEST(use_after_realm_close) {
    db_realm_t *realm = fx_open_new_with_people(1);
    db_object_t *o;
    db_property_key_t age = fx_prop_key(realm, "Person", "age");
    o = fx_require_person(realm, 1);
    REQUIRE_OK(db_realm_close(realm));
    check_invalidated(o, age, DB_ERR_INVALIDATED, DB_ERR_CLOSED_REALM);
    db_realm_release(realm);
    check_invalidated(o, age, DB_ERR_INVALIDATED, DB_ERR_CLOSED_REALM); /* the accessor outlives the handle */
    db_object_release(o);
}

TEST(deleted_by_another_handle) {
    const char *path = harness_tmpfile("shared.realm");
    db_realm_t *a = fx_open(path), *b;
    db_object_t *in_b, *in_a;
    fx_add_people(a, 1);
    b = fx_open(path);
    in_b = fx_require_person(b, 1);
    in_a = fx_require_person(a, 1);
    CHECK(db_object_equals(in_a, in_b)); /* same file, class and key */
    REQUIRE_OK(db_realm_begin_write(a));
    REQUIRE_OK(db_object_delete(in_a));
    REQUIRE_OK(db_realm_commit(a));
    CHECK_OK(db_realm_refresh(b, NULL));
    CHECK(!db_object_is_valid(in_b));
    {
        db_value_t v;
        CHECK_STATUS(db_object_get_value_by_name(in_b, "age", &v), DB_ERR_INVALIDATED);
    }
    db_object_release(in_a);
    db_object_release(in_b);
    db_realm_release(a);
    db_realm_release(b);
}

/* ---- equals, description ------------------------------------------------------- */

TEST(equals) {
    db_realm_t *realm = fx_open_new_with_people(2);
    db_object_t *a1, *a2, *b;
    a1 = fx_require_person(realm, 1);
    a2 = fx_require_person(realm, 1);
    b = fx_require_person(realm, 2);
    CHECK(db_object_equals(a1, a1));
    CHECK(db_object_equals(a1, a2));
    CHECK(db_object_equals(a2, a1));
    CHECK(!db_object_equals(a1, b));
    db_object_release(a1);
    db_object_release(a2);
    db_object_release(b);
    db_realm_release(realm);
}

TEST(equals_across_files) {
    db_realm_t *r1 = fx_open(harness_tmpfile("one.realm"));
    db_realm_t *r2 = fx_open(harness_tmpfile("two.realm"));
    db_object_t *a, *b;
    fx_add_people(r1, 1);
    fx_add_people(r2, 1);
    a = fx_require_person(r1, 1);
    b = fx_require_person(r2, 1);
    CHECK(!db_object_equals(a, b)); /* same class and key, different files */
    db_object_release(a);
    db_object_release(b);
    db_realm_release(r1);
    db_realm_release(r2);
}

TEST(description) {
    db_realm_t *realm = fx_open_new();
    db_object_t *o;
    char *d;
    REQUIRE_OK(db_realm_begin_write(realm));
    o = fx_person(realm, 7, "Ann", 30);
    REQUIRE_OK(db_realm_commit(realm));
    d = db_object_description(o);
    REQUIRE(d != NULL);
    CHECK_LAST_ERROR(DB_OK);
    CHECK_CONTAINS(d, "Person");
    CHECK_CONTAINS(d, "id");
    CHECK_CONTAINS(d, "7");
    CHECK_CONTAINS(d, "name");
    CHECK_CONTAINS(d, "Ann");
    CHECK_CONTAINS(d, "30");
    db_string_free(d);
    db_object_release(o);
    db_realm_release(realm);
}

/* ---- persisted names ---------------------------------------------------------- */

TEST(persisted_names) {
    static const db_property_info_t props[] = {
        FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
        FX_PROP_PERSISTED("firstName", "first_name", DB_PROPERTY_TYPE_STRING, 0),
    };
    db_class_info_t c = fx_class("User", props, 2), info;
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1)), *live;
    const char *path = harness_tmpfile("persisted.realm");
    db_realm_t *realm = fx_open_with(path, schema, 1);
    db_class_key_t ck = fx_class_key(realm, "User");
    db_property_key_t pk = -1, keys[2];
    db_value_t values[2], v;
    db_object_t *o;
    char buf[32];
    /* Every API call uses the public name. */
    CHECK_OK(db_realm_find_property(realm, ck, "firstName", &pk));
    CHECK_STATUS(db_realm_find_property(realm, ck, "first_name", &pk), DB_ERR_NOT_FOUND);
    keys[0] = fx_prop_key(realm, "User", "id"); keys[1] = fx_prop_key(realm, "User", "firstName");
    values[0] = v_int(1); values[1] = v_str("Ann");
    REQUIRE_OK(db_realm_begin_write(realm));
    o = (db_object_t *)REQUIRE_PTR(db_object_create(realm, ck, keys, values, 2, DB_UPSERT_NONE));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_STR(fx_get_str(o, "firstName", buf, sizeof buf), "Ann");
    CHECK_STATUS(db_object_get_value_by_name(o, "first_name", &v), DB_ERR_NOT_FOUND);
    db_object_release(o);
    db_realm_release(realm);
    /* Reopen: the data is found again under the same persisted column. */
    realm = fx_open_with(path, schema, 1);
    live = (db_schema_t *)REQUIRE_PTR(db_realm_get_schema(realm));
    REQUIRE_OK(db_schema_get_class(live, 0, &info));
    CHECK_EQ_STR(info.properties[1].name, "firstName");
    CHECK_EQ_STR(info.properties[1].persisted_name, "first_name");
    values[0] = v_int(1);
    o = (db_object_t *)REQUIRE_PTR(db_object_find_with_primary_key(realm, ck, &values[0], NULL));
    CHECK_EQ_STR(fx_get_str(o, "firstName", buf, sizeof buf), "Ann");
    db_object_release(o);
    db_schema_release(live);
    db_realm_release(realm);
    db_schema_release(schema);
}

HARNESS_MAIN("objects",
    HARNESS_ENTRY(create_and_read),
    HARNESS_ENTRY(create_missing_optional_is_null),
    HARNESS_ENTRY(create_missing_required),
    HARNESS_ENTRY(create_null_for_required),
    HARNESS_ENTRY(create_wrong_type),
    HARNESS_ENTRY(create_outside_write),
    HARNESS_ENTRY(create_unknown_class_or_property),
    HARNESS_ENTRY(create_null_arguments),
    HARNESS_ENTRY(duplicate_primary_key),
    HARNESS_ENTRY(upsert_modified_updates_given_properties),
    HARNESS_ENTRY(upsert_all_updates_given_properties),
    HARNESS_ENTRY(upsert_absent_primary_key_still_needs_required),
    HARNESS_ENTRY(upsert_without_primary_key_creates),
    HARNESS_ENTRY(string_primary_key),
    HARNESS_ENTRY(set_primary_key_is_logic_error),
    HARNESS_ENTRY(create_many_rows),
    HARNESS_ENTRY(create_many_failure_keeps_earlier_rows),
    HARNESS_ENTRY(create_many_duplicates_and_upsert),
    HARNESS_ENTRY(create_many_errors),
    HARNESS_ENTRY(create_many_with_keys_reports_each_rows_object),
    HARNESS_ENTRY(find_with_primary_key),
    HARNESS_ENTRY(find_with_absent_primary_key),
    HARNESS_ENTRY(find_with_primary_key_errors),
    HARNESS_ENTRY(get_by_key),
    HARNESS_ENTRY(object_keys_are_not_reused),
    HARNESS_ENTRY(find_key_then_read_and_write_by_key),
    HARNESS_ENTRY(accessor_argument_errors),
    HARNESS_ENTRY(set_outside_write),
    HARNESS_ENTRY(set_then_read_back),
    HARNESS_ENTRY(set_values_validates_all_first),
    HARNESS_ENTRY(use_after_delete),
    HARNESS_ENTRY(use_after_realm_close),
    HARNESS_ENTRY(deleted_by_another_handle),
    HARNESS_ENTRY(equals),
    HARNESS_ENTRY(equals_across_files),
    HARNESS_ENTRY(description),
    HARNESS_ENTRY(persisted_names))
