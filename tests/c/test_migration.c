/*
 * Migration: schema changes with and without a migration function, the
 * migration callback (rename, delete_data, enumerate with old/new objects,
 * the read-only old object), a callback that fails (the file is unchanged),
 * duplicate primary keys left by a migration, argument errors.
 *
 * Version 1:  Person { id: int pk, name: string, age: int }   Dog { name: string }
 * Version 2:  Person { id: int pk, fullName: string, ageGroup: string, email: string? }
 *             Cat { name: string }                             (Dog removed)
 */
#include "fixtures.h"

static const db_property_info_t v1_person[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
};
static const db_property_info_t v1_dog[] = {FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0)};
static const db_property_info_t v2_person[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("fullName", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("ageGroup", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("email", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
};
static const db_property_info_t v2_cat[] = {FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0)};

/* Person with the given properties, Dog as in version 1, and (with_cat) Cat as in version 2. */
static db_schema_t *schema_with_person(const db_property_info_t *person, size_t n, bool with_cat) {
    db_class_info_t c[3];
    c[0] = fx_class("Person", person, n);
    c[1] = fx_class("Dog", v1_dog, FX_COUNT(v1_dog));
    c[2] = fx_class("Cat", v2_cat, FX_COUNT(v2_cat));
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(c, with_cat ? 3 : 2));
}

static db_schema_t *schema_v1(void) {
    return schema_with_person(v1_person, FX_COUNT(v1_person), false);
}

static db_schema_t *schema_v2(void) {
    db_class_info_t c[2];
    c[0] = fx_class("Person", v2_person, FX_COUNT(v2_person));
    c[1] = fx_class("Cat", v2_cat, FX_COUNT(v2_cat));
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(c, 2));
}

/* A v1 file with Person 1..3 (ages 21..23, names "person N") and two dogs. */
static const char *make_v1_file(void) {
    const char *path = harness_tmpfile("migrate.realm");
    db_schema_t *schema = schema_v1();
    db_realm_t *realm = fx_open_with(path, schema, 1);
    db_class_key_t dog = fx_class_key(realm, "Dog");
    db_property_key_t dog_name = fx_prop_key(realm, "Dog", "name");
    db_value_t v;
    REQUIRE_OK(db_realm_begin_write(realm));
    fx_create_people(realm, 3);
    v = v_str("Rex");
    db_object_release((db_object_t *)REQUIRE_PTR(db_object_create(realm, dog, &dog_name, &v, 1, DB_UPSERT_NONE)));
    v = v_str("Fido");
    db_object_release((db_object_t *)REQUIRE_PTR(db_object_create(realm, dog, &dog_name, &v, 1, DB_UPSERT_NONE)));
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
    db_schema_release(schema);
    return path;
}

/* Everything the migration callbacks saw, checked after db_realm_open returns. */
typedef struct migration_log {
    int calls;
    uint64_t old_version;
    int visited_people, visited_dogs, dog_new_object_was_null;
    int old_object_set_status, old_object_age_ok, new_object_name_ok;
    int realm_in_write, begin_write_status, close_status;
    int old_schema_has_dog, new_schema_has_dog, new_schema_has_cat;
    int rename_status, enumerate_person_status, enumerate_dog_status, delete_status, create_cat_ok;
    bool result;
    int stop_after; /* enumerate callback returns false after this many objects (0 = never) */
} migration_log_t;

static bool visit_person(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    migration_log_t *log = (migration_log_t *)userdata;
    db_value_t age, name, fullname, group, bogus = v_int(1);
    log->visited_people++;
    if (db_object_get_value_by_name(old_object, "age", &age) == DB_OK && age.type == DB_VALUE_INT &&
        db_object_get_value_by_name(old_object, "name", &name) == DB_OK && name.type == DB_VALUE_STRING)
        log->old_object_age_ok++;
    /* The old object is read-only. */
    log->old_object_set_status = db_object_set_value_by_name((db_object_t *)old_object, "age", &bogus);
    if (new_object && db_object_get_value_by_name(new_object, "fullName", &fullname) == DB_OK &&
        fullname.type == DB_VALUE_STRING && fullname.string.size == 8 && memcmp(fullname.string.data, "person ", 7) == 0)
        log->new_object_name_ok++;
    if (db_object_get_value_by_name(old_object, "age", &age) == DB_OK) {
        group = v_str(age.integer < 22 ? "young" : "old");
        if (new_object) (void)db_object_set_value_by_name(new_object, "ageGroup", &group);
    }
    return !(log->stop_after && log->visited_people >= log->stop_after);
}

static bool visit_dog(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    migration_log_t *log = (migration_log_t *)userdata;
    (void)old_object;
    log->visited_dogs++;
    if (new_object == NULL) log->dog_new_object_was_null++;
    return true;
}

static int schema_has(db_schema_t *schema, const char *name) {
    size_t index;
    int has = schema && db_schema_find_class(schema, name, &index) == DB_OK;
    db_schema_release(schema);
    return has;
}

static bool migrate_v1_to_v2(void *userdata, db_migration_t *migration, uint64_t old_version) {
    migration_log_t *log = (migration_log_t *)userdata;
    db_realm_t *realm = db_migration_get_realm(migration);
    log->calls++;
    log->old_version = old_version;
    log->realm_in_write = realm && db_realm_is_in_write(realm);
    log->begin_write_status = realm ? (int)db_realm_begin_write(realm) : -1;
    log->close_status = realm ? (int)db_realm_close(realm) : -1; /* the lent realm cannot be closed */
    log->old_schema_has_dog = schema_has(db_migration_get_old_schema(migration), "Dog");
    log->new_schema_has_dog = schema_has(db_migration_get_new_schema(migration), "Dog");
    log->new_schema_has_cat = schema_has(db_migration_get_new_schema(migration), "Cat");
    log->rename_status = db_migration_rename_property(migration, "Person", "name", "fullName");
    log->enumerate_person_status = db_migration_enumerate_objects(migration, "Person", visit_person, log);
    log->enumerate_dog_status = db_migration_enumerate_objects(migration, "Dog", visit_dog, log);
    log->delete_status = db_migration_delete_data(migration, "Dog");
    if (realm) {
        db_class_key_t cat;
        db_property_key_t cat_name;
        if (db_realm_find_class(realm, "Cat", &cat) == DB_OK &&
            db_realm_find_property(realm, cat, "name", &cat_name) == DB_OK) {
            db_value_t v = v_str("Tom");
            db_object_t *o = db_object_create(realm, cat, &cat_name, &v, 1, DB_UPSERT_NONE);
            log->create_cat_ok = o != NULL;
            db_object_release(o);
        }
    }
    return log->result;
}

/* Opens `path` at version 2 with migrate_v1_to_v2, which logs into a cleared `log` and
 * returns `result`; its enumerate callback stops after `stop_after` people (0: never). */
static db_realm_t *open_v2(const char *path, migration_log_t *log, bool result, int stop_after) {
    db_schema_t *schema = schema_v2();
    db_config_t *config = fx_config(path, schema, 2);
    db_realm_t *realm;
    memset(log, 0, sizeof *log);
    log->result = result;
    log->stop_after = stop_after;
    REQUIRE_OK(db_config_set_migration_function(config, migrate_v1_to_v2, log, NULL));
    realm = db_realm_open(config);
    db_config_release(config);
    db_schema_release(schema);
    return realm;
}

TEST(migration_renames_deletes_and_enumerates) {
    const char *path = make_v1_file();
    migration_log_t log;
    db_realm_t *realm;
    db_object_t *p;
    db_class_key_t ck;
    db_property_key_t pk;
    uint64_t version = 0;
    char buf[64];
    realm = (db_realm_t *)REQUIRE_PTR(open_v2(path, &log, true, 0));
    CHECK_LAST_ERROR(DB_OK);

    CHECK_EQ_INT(log.calls, 1);
    CHECK_EQ_UINT(log.old_version, 1);
    CHECK(log.realm_in_write);
    CHECK_EQ_INT(log.begin_write_status, DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_EQ_INT(log.close_status, DB_ERR_LOGIC);
    CHECK(log.old_schema_has_dog);
    CHECK(!log.new_schema_has_dog);
    CHECK(log.new_schema_has_cat);
    CHECK_EQ_INT(log.rename_status, DB_OK);
    CHECK_EQ_INT(log.enumerate_person_status, DB_OK);
    CHECK_EQ_INT(log.visited_people, 3);
    CHECK_EQ_INT(log.old_object_age_ok, 3);
    CHECK_EQ_INT(log.new_object_name_ok, 3);
    CHECK_EQ_INT(log.old_object_set_status, DB_ERR_READ_ONLY);
    CHECK_EQ_INT(log.enumerate_dog_status, DB_OK);
    CHECK_EQ_INT(log.visited_dogs, 2);
    CHECK_EQ_INT(log.dog_new_object_was_null, 2);
    CHECK_EQ_INT(log.delete_status, DB_OK);
    CHECK(log.create_cat_ok);

    REQUIRE_OK(db_realm_get_schema_version(realm, &version));
    CHECK_EQ_UINT(version, 2);
    CHECK(!db_realm_is_in_write(realm));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 3);
    CHECK_EQ_UINT(fx_count(realm, "Cat"), 1);
    CHECK_STATUS(db_realm_find_class(realm, "Dog", &ck), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_realm_find_property(realm, fx_class_key(realm, "Person"), "age", &pk), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_realm_find_property(realm, fx_class_key(realm, "Person"), "name", &pk), DB_ERR_NOT_FOUND);
    p = fx_require_person(realm, 1);
    CHECK_EQ_STR(fx_get_str(p, "fullName", buf, sizeof buf), "person 1");
    CHECK_EQ_STR(fx_get_str(p, "ageGroup", buf, sizeof buf), "young");
    CHECK_EQ_INT(fx_get(p, "email").type, DB_VALUE_NULL);
    db_object_release(p);
    p = fx_require_person(realm, 3);
    CHECK_EQ_STR(fx_get_str(p, "ageGroup", buf, sizeof buf), "old");
    db_object_release(p);
    db_realm_release(realm);

    /* Reopening at version 2 runs no migration. */
    realm = (db_realm_t *)REQUIRE_PTR(open_v2(path, &log, true, 0));
    CHECK_EQ_INT(log.calls, 0);
    db_realm_release(realm);
}

TEST(migration_failure_leaves_file_unchanged) {
    const char *path = make_v1_file();
    migration_log_t log;
    db_schema_t *v1;
    db_realm_t *realm;
    uint64_t version = 0, commit_before = 0, commit_after = 0;

    v1 = schema_v1();
    realm = fx_open_with(path, v1, 1);
    REQUIRE_OK(db_realm_get_version(realm, &commit_before));
    db_realm_release(realm);

    /* The migration does all the work, then reports failure. */
    CHECK_NULL_ERR(open_v2(path, &log, false, 0), DB_ERR_MIGRATION_FAILED);
    CHECK_EQ_INT(log.calls, 1);

    /* The file is still version 1 with all its data: open it as before. */
    realm = fx_open_with(path, v1, 1);
    REQUIRE_OK(db_realm_get_schema_version(realm, &version));
    CHECK_EQ_UINT(version, 1);
    REQUIRE_OK(db_realm_get_version(realm, &commit_after));
    CHECK_EQ_UINT(commit_after, commit_before);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 3);
    CHECK_EQ_UINT(fx_count(realm, "Dog"), 2);
    fx_check_person(realm, 2);
    db_realm_release(realm);
    db_schema_release(v1);

    /* And the migration can be run again, successfully this time. */
    realm = (db_realm_t *)REQUIRE_PTR(open_v2(path, &log, true, 0));
    CHECK_EQ_INT(log.calls, 1);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 3);
    db_realm_release(realm);
}

TEST(enumerate_callback_returning_false) {
    const char *path = make_v1_file();
    migration_log_t log;
    CHECK_NULL_ERR(open_v2(path, &log, false, 1), DB_ERR_MIGRATION_FAILED);
    CHECK_EQ_INT(log.enumerate_person_status, DB_ERR_CALLBACK);
    CHECK_EQ_INT(log.visited_people, 1); /* stopped at the first */
}

TEST(schema_change_without_migration_is_required) {
    const char *path = make_v1_file();
    db_schema_t *v2 = schema_v2();
    FX_CHECK_OPEN_FAILS(path, v2, 1, DB_ERR_MIGRATION_REQUIRED); /* same version, different schema */
    db_schema_release(v2);
}

/* db_realm_open applies additive changes (a new optional property, a new
 * class) without a version bump or a migration function. */
TEST(additive_change_applies_without_migration) {
    static const db_property_info_t nickname = FX_PROP("nickname", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE);
    db_property_info_t more[FX_COUNT(v1_person) + 1]; /* version 1's Person and a nickname */
    const char *path = make_v1_file();
    db_schema_t *schema;
    db_realm_t *realm;
    db_object_t *p;
    uint64_t version = 0;
    char buf[32];
    memcpy(more, v1_person, sizeof v1_person);
    more[FX_COUNT(v1_person)] = nickname;
    schema = schema_with_person(more, FX_COUNT(more), true);
    /* As in Realm: a new property needs a higher schema version (no migration function). */
    FX_CHECK_OPEN_FAILS(path, schema, 1, DB_ERR_MIGRATION_REQUIRED);
    realm = fx_open_with(path, schema, 2);
    REQUIRE_OK(db_realm_get_schema_version(realm, &version));
    CHECK_EQ_UINT(version, 2);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 3);
    CHECK_EQ_UINT(fx_count(realm, "Cat"), 0);
    p = fx_require_person(realm, 1);
    CHECK_EQ_INT(fx_get(p, "nickname").type, DB_VALUE_NULL);
    CHECK_EQ_STR(fx_get_str(p, "name", buf, sizeof buf), "person 1");
    db_object_release(p);
    db_realm_release(realm);
    db_schema_release(schema);
}

/* Changing a property's type is not additive. */
TEST(type_change_without_migration_is_required) {
    db_property_info_t changed[FX_COUNT(v1_person)]; /* version 1's Person with a string age */
    const char *path = make_v1_file();
    db_schema_t *schema;
    memcpy(changed, v1_person, sizeof v1_person);
    REQUIRE(strcmp(changed[2].name, "age") == 0);
    changed[2].type = DB_PROPERTY_TYPE_STRING;
    schema = schema_with_person(changed, FX_COUNT(changed), false);
    FX_CHECK_OPEN_FAILS(path, schema, 1, DB_ERR_MIGRATION_REQUIRED);
    db_schema_release(schema);
}

TEST(lower_schema_version_is_invalid) {
    const char *path = make_v1_file();
    db_schema_t *v1 = schema_v1();
    db_realm_release(fx_open_with(path, v1, 3)); /* bump to 3 (no change: no function needed) */
    FX_CHECK_OPEN_FAILS(path, v1, 2, DB_ERR_SCHEMA_INVALID);
    db_schema_release(v1);
}

static int migration_calls;
static bool count_calls(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata; (void)migration; (void)old_version;
    migration_calls++;
    return true;
}

TEST(no_migration_for_new_file) {
    db_schema_t *v2 = schema_v2();
    db_config_t *config = fx_config(harness_tmpfile("fresh.realm"), v2, 5);
    db_realm_t *realm;
    uint64_t version = 0;
    migration_calls = 0;
    REQUIRE_OK(db_config_set_migration_function(config, count_calls, NULL, NULL));
    realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_INT(migration_calls, 0);
    REQUIRE_OK(db_realm_get_schema_version(realm, &version));
    CHECK_EQ_UINT(version, 5);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(v2);
}

TEST(no_migration_when_version_unchanged) {
    const char *path = make_v1_file();
    db_schema_t *v1 = schema_v1();
    db_config_t *config = fx_config(path, v1, 1);
    db_realm_t *realm;
    migration_calls = 0;
    REQUIRE_OK(db_config_set_migration_function(config, count_calls, NULL, NULL));
    realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_INT(migration_calls, 0);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(v1);
}

/* ---- primary keys ------------------------------------------------------- */

static const db_property_info_t item_no_pk[] = {FX_PROP("code", DB_PROPERTY_TYPE_INT, 0)};
static const db_property_info_t item_pk[] = {FX_PROP("code", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY)};

static db_schema_t *item_schema(const db_property_info_t *props) {
    db_class_info_t c = fx_class("Item", props, 1);
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
}

/* Two Items, both with code 1, in a file without a primary key. */
static const char *make_item_file(void) {
    const char *path = harness_tmpfile("items.realm");
    db_schema_t *schema = item_schema(item_no_pk);
    db_realm_t *realm = fx_open_with(path, schema, 1);
    db_property_key_t code = fx_prop_key(realm, "Item", "code");
    db_value_t rows[2];
    rows[0] = v_int(1); rows[1] = v_int(1);
    REQUIRE_OK(db_realm_begin_write(realm));
    REQUIRE_OK(db_object_create_many(realm, fx_class_key(realm, "Item"), &code, 1, rows, 2, DB_UPSERT_NONE, NULL));
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
    db_schema_release(schema);
    return path;
}

static bool leave_duplicates(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata; (void)migration; (void)old_version;
    return true;
}

static bool renumber(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    int *next = (int *)userdata;
    db_value_t v = v_int((*next)++);
    (void)old_object;
    return db_object_set_value_by_name(new_object, "code", &v) == DB_OK;
}

static int renumber_status;
static bool fix_duplicates(void *userdata, db_migration_t *migration, uint64_t old_version) {
    int next = 100;
    (void)userdata; (void)old_version;
    /* Setting a primary key is allowed inside a migration. */
    renumber_status = db_migration_enumerate_objects(migration, "Item", renumber, &next);
    return renumber_status == DB_OK;
}

TEST(migration_leaving_duplicate_primary_keys) {
    const char *path = make_item_file();
    db_schema_t *schema = item_schema(item_pk);
    db_config_t *config = fx_config(path, schema, 2);
    db_schema_t *old = item_schema(item_no_pk);
    db_realm_t *realm;
    REQUIRE_OK(db_config_set_migration_function(config, leave_duplicates, NULL, NULL));
    CHECK_NULL_ERR(db_realm_open(config), DB_ERR_DUPLICATE_PRIMARY_KEY);
    /* Rolled back: still version 1 without a primary key. */
    realm = fx_open_with(path, old, 1);
    CHECK_EQ_UINT(fx_count(realm, "Item"), 2);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(old);
    db_schema_release(schema);
}

TEST(migration_may_set_primary_keys) {
    const char *path = make_item_file();
    db_schema_t *schema = item_schema(item_pk);
    db_config_t *config = fx_config(path, schema, 2);
    db_realm_t *realm;
    db_value_t pk = v_int(101);
    bool found = false;
    db_object_t *o;
    renumber_status = -1;
    REQUIRE_OK(db_config_set_migration_function(config, fix_duplicates, NULL, NULL));
    realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_INT(renumber_status, DB_OK);
    CHECK_EQ_UINT(fx_count(realm, "Item"), 2);
    o = db_object_find_with_primary_key(realm, fx_class_key(realm, "Item"), &pk, &found);
    CHECK(found);
    db_object_release(o);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(schema);
}

/* ---- argument errors ------------------------------------------------------ */

typedef struct arg_log {
    int get_realm_null, old_schema_null, new_schema_null;
    int enumerate_null_migration, enumerate_null_class, enumerate_null_fn, enumerate_unknown_class;
    int rename_null_migration, rename_null_class, rename_null_old, rename_null_new, rename_unknown_class,
        rename_unknown_property, rename_kept_property, rename_wrong_type;
    int delete_null_migration, delete_null_class, delete_unknown_class;
    int error_code_after_null;
} arg_log_t;

static bool try_bad_arguments(void *userdata, db_migration_t *migration, uint64_t old_version) {
    arg_log_t *log = (arg_log_t *)userdata;
    db_error_t err;
    (void)old_version;
    log->get_realm_null = db_migration_get_realm(NULL) == NULL;
    if (db_get_last_error(&err)) log->error_code_after_null = err.code;
    log->old_schema_null = db_migration_get_old_schema(NULL) == NULL;
    log->new_schema_null = db_migration_get_new_schema(NULL) == NULL;
    log->enumerate_null_migration = db_migration_enumerate_objects(NULL, "Person", visit_dog, NULL);
    log->enumerate_null_class = db_migration_enumerate_objects(migration, NULL, visit_dog, NULL);
    log->enumerate_null_fn = db_migration_enumerate_objects(migration, "Person", NULL, NULL);
    log->enumerate_unknown_class = db_migration_enumerate_objects(migration, "Unicorn", visit_dog, NULL);
    log->rename_null_migration = db_migration_rename_property(NULL, "Person", "name", "fullName");
    log->rename_null_class = db_migration_rename_property(migration, NULL, "name", "fullName");
    log->rename_null_old = db_migration_rename_property(migration, "Person", NULL, "fullName");
    log->rename_null_new = db_migration_rename_property(migration, "Person", "name", NULL);
    log->rename_unknown_class = db_migration_rename_property(migration, "Unicorn", "name", "fullName");
    log->rename_unknown_property = db_migration_rename_property(migration, "Person", "horn", "fullName");
    /* "id" is still in the new schema; "age" (int) cannot become "fullName" (string). */
    log->rename_kept_property = db_migration_rename_property(migration, "Person", "id", "fullName");
    log->rename_wrong_type = db_migration_rename_property(migration, "Person", "age", "fullName");
    log->delete_null_migration = db_migration_delete_data(NULL, "Dog");
    log->delete_null_class = db_migration_delete_data(migration, NULL);
    log->delete_unknown_class = db_migration_delete_data(migration, "Unicorn");
    return false;
}

TEST(migration_argument_errors) {
    const char *path = make_v1_file();
    db_schema_t *v2 = schema_v2();
    db_config_t *config = fx_config(path, v2, 2);
    arg_log_t log;
    memset(&log, 0, sizeof log);
    REQUIRE_OK(db_config_set_migration_function(config, try_bad_arguments, &log, NULL));
    CHECK_NULL_ERR(db_realm_open(config), DB_ERR_MIGRATION_FAILED);
    CHECK(log.get_realm_null);
    CHECK_EQ_INT(log.error_code_after_null, DB_ERR_INVALID_ARGUMENT);
    CHECK(log.old_schema_null);
    CHECK(log.new_schema_null);
    CHECK_EQ_INT(log.enumerate_null_migration, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.enumerate_null_class, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.enumerate_null_fn, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.enumerate_unknown_class, DB_ERR_NOT_FOUND);
    CHECK_EQ_INT(log.rename_null_migration, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.rename_null_class, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.rename_null_old, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.rename_null_new, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.rename_unknown_class, DB_ERR_NOT_FOUND);
    CHECK_EQ_INT(log.rename_unknown_property, DB_ERR_NOT_FOUND);
    CHECK_EQ_INT(log.rename_kept_property, DB_ERR_LOGIC);
    CHECK_EQ_INT(log.rename_wrong_type, DB_ERR_WRONG_TYPE);
    CHECK_EQ_INT(log.delete_null_migration, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.delete_null_class, DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(log.delete_unknown_class, DB_ERR_NOT_FOUND);
    db_config_release(config);
    db_schema_release(v2);
}

static void *saved_userdata;
static int userdata_frees;
static void free_userdata(void *userdata) {
    if (userdata == saved_userdata) userdata_frees++;
}
static bool check_userdata(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)migration; (void)old_version;
    return userdata == saved_userdata;
}

TEST(userdata_reaches_callback) {
    static int token;
    const char *path = make_v1_file();
    db_schema_t *v1 = schema_v1();
    db_config_t *config = fx_config(path, v1, 2); /* same schema, higher version */
    db_realm_t *realm;
    saved_userdata = &token;
    userdata_frees = 0;
    REQUIRE_OK(db_config_set_migration_function(config, check_userdata, &token, free_userdata));
    realm = db_realm_open(config); /* check_userdata returns false if the pointer is wrong */
    CHECK(realm != NULL);
    db_realm_release(realm);
    db_config_release(config);
    CHECK_EQ_INT(userdata_frees, 1);
    db_schema_release(v1);
}

HARNESS_MAIN("migration",
    HARNESS_ENTRY(migration_renames_deletes_and_enumerates),
    HARNESS_ENTRY(migration_failure_leaves_file_unchanged),
    HARNESS_ENTRY(enumerate_callback_returning_false),
    HARNESS_ENTRY(schema_change_without_migration_is_required),
    HARNESS_ENTRY(additive_change_applies_without_migration),
    HARNESS_ENTRY(type_change_without_migration_is_required),
    HARNESS_ENTRY(lower_schema_version_is_invalid),
    HARNESS_ENTRY(no_migration_for_new_file),
    HARNESS_ENTRY(no_migration_when_version_unchanged),
    HARNESS_ENTRY(migration_leaving_duplicate_primary_keys),
    HARNESS_ENTRY(migration_may_set_primary_keys),
    HARNESS_ENTRY(migration_argument_errors),
    HARNESS_ENTRY(userdata_reaches_callback))
