/*
 * Config: construction, every setter, NULL arguments, ownership of the
 * schema and of the migration userdata.
 */
#include "fixtures.h"

static bool never_called(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata; (void)migration; (void)old_version;
    return false;
}

static int frees;
static void count_free(void *userdata) {
    (void)userdata;
    frees++;
}

TEST(new_and_release) {
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    CHECK_LAST_ERROR(DB_OK);
    db_config_release(config);
    db_config_release(NULL);
}

TEST(new_null_path) {
    CHECK_NULL_ERR(db_config_new(NULL), DB_ERR_INVALID_ARGUMENT);
}

TEST(setters_succeed) {
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    CHECK_OK(db_config_set_schema(config, fx_test_schema()));
    CHECK_OK(db_config_set_schema_version(config, 7));
    CHECK_OK(db_config_set_in_memory(config, true));
    CHECK_OK(db_config_set_in_memory(config, false));
    CHECK_OK(db_config_set_read_only(config, true));
    CHECK_OK(db_config_set_read_only(config, false));
    CHECK_OK(db_config_set_max_active_versions(config, 0));
    CHECK_OK(db_config_set_max_active_versions(config, 16));
    CHECK_OK(db_config_set_migration_function(config, never_called, NULL, NULL));
    CHECK_OK(db_config_set_migration_function(config, NULL, NULL, NULL)); /* NULL removes it */
    db_config_release(config);
}

TEST(setters_null_config) {
    CHECK_STATUS(db_config_set_schema(NULL, fx_test_schema()), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_config_set_schema_version(NULL, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_config_set_in_memory(NULL, true), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_config_set_read_only(NULL, true), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_config_set_max_active_versions(NULL, 2), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_config_set_migration_function(NULL, never_called, NULL, NULL), DB_ERR_INVALID_ARGUMENT);
}

TEST(set_schema_null_schema) {
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    CHECK_STATUS(db_config_set_schema(config, NULL), DB_ERR_INVALID_ARGUMENT);
    db_config_release(config);
}

TEST(schema_is_retained_by_config) {
    db_realm_t *realm;
    db_schema_t *schema = fx_schema();
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    REQUIRE_OK(db_config_set_schema(config, schema));
    db_schema_release(schema); /* the config keeps its own reference or copy */
    realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 0);
    db_realm_release(realm);
    db_config_release(config);
}

TEST(realm_outlives_config) {
    db_realm_t *a, *b;
    const char *path = harness_tmpfile("a.realm");
    db_config_t *config = fx_config(path, fx_test_schema(), 1);
    a = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    db_config_release(config); /* the realm does not depend on the config */
    fx_add_people(a, 2);
    /* One config opens any number of realms. */
    config = fx_config(path, fx_test_schema(), 1);
    b = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_UINT(fx_count(b, "Person"), 2);
    db_realm_release(b);
    b = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    CHECK_EQ_UINT(fx_count(b, "Person"), 2);
    db_config_release(config);
    db_realm_release(a);
    db_realm_release(b);
}

TEST(userdata_freed_once_on_release) {
    static int userdata;
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    frees = 0;
    REQUIRE_OK(db_config_set_migration_function(config, never_called, &userdata, count_free));
    CHECK_EQ_INT(frees, 0);
    db_config_release(config);
    CHECK_EQ_INT(frees, 1);
}

TEST(userdata_freed_when_replaced) {
    static int first, second;
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(harness_tmpfile("a.realm")));
    frees = 0;
    REQUIRE_OK(db_config_set_migration_function(config, never_called, &first, count_free));
    REQUIRE_OK(db_config_set_migration_function(config, never_called, &second, count_free));
    db_config_release(config);
    /* Each userdata is freed exactly once by the time nothing refers to it. */
    CHECK_EQ_INT(frees, 2);
}

TEST(userdata_freed_after_realm_closes) {
    static int userdata;
    db_realm_t *realm;
    db_config_t *config = fx_config(harness_tmpfile("a.realm"), fx_test_schema(), 1);
    frees = 0;
    REQUIRE_OK(db_config_set_migration_function(config, never_called, &userdata, count_free));
    realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(config));
    db_config_release(config);
    db_realm_release(realm);
    CHECK_EQ_INT(frees, 1);
}

HARNESS_MAIN("config",
    HARNESS_ENTRY(new_and_release),
    HARNESS_ENTRY(new_null_path),
    HARNESS_ENTRY(setters_succeed),
    HARNESS_ENTRY(setters_null_config),
    HARNESS_ENTRY(set_schema_null_schema),
    HARNESS_ENTRY(schema_is_retained_by_config),
    HARNESS_ENTRY(realm_outlives_config),
    HARNESS_ENTRY(userdata_freed_once_on_release),
    HARNESS_ENTRY(userdata_freed_when_replaced),
    HARNESS_ENTRY(userdata_freed_after_realm_closes))
