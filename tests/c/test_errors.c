/*
 * Library-level functions: version, status strings, the thread-local last
 * error, db_string_free.
 */
#include <pthread.h>

#include "fixtures.h"

TEST(version_string_is_semver) {
    const char *v = db_library_version_string();
    int major = -1, minor = -1, patch = -1;
    REQUIRE(v != NULL);
    CHECK(sscanf(v, "%d.%d.%d", &major, &minor, &patch) == 3);
    CHECK(major >= 0 && minor >= 0 && patch >= 0);
    /* Static: the same pointer every time. */
    CHECK(db_library_version_string() == v);
}

TEST(status_string_for_every_code) {
    int code, other;
    const char *strings[DB_ERR_INTERNAL + 1];
    for (code = DB_OK; code <= DB_ERR_INTERNAL; code++) {
        strings[code] = db_status_string((db_status_e)code);
        CHECK(strings[code] != NULL);
        if (strings[code]) {
            CHECK(strlen(strings[code]) > 0);
            CHECK(strcmp(strings[code], "unknown status") != 0);
        }
    }
    /* Distinct: a caller can tell the codes apart by their strings. */
    for (code = DB_OK; code <= DB_ERR_INTERNAL; code++)
        for (other = code + 1; other <= DB_ERR_INTERNAL; other++)
            if (strings[code] && strings[other] && strcmp(strings[code], strings[other]) == 0)
                harness_fail(__FILE__, __LINE__, "codes %d and %d share the string \"%s\"", code, other,
                             strings[code]);
    /* Static strings: the same pointer on every call. */
    CHECK(db_status_string(DB_ERR_NOT_FOUND) == strings[DB_ERR_NOT_FOUND]);
}

TEST(status_string_unknown_code) {
    CHECK_EQ_STR(db_status_string((db_status_e)999), "unknown status");
    CHECK_EQ_STR(db_status_string((db_status_e)-1), "unknown status");
    CHECK_EQ_STR(db_status_string((db_status_e)(DB_ERR_INTERNAL + 1)), "unknown status");
}

TEST(last_error_after_success_is_ok) {
    db_error_t err;
    db_schema_t *schema = fx_person_schema(); /* a successful call */
    memset(&err, 0x5a, sizeof err);
    CHECK(!db_get_last_error(&err));
    CHECK_EQ_INT(err.code, DB_OK); /* "out still filled with DB_OK" */
    CHECK_EQ_STR(err.message, "");  /* documented: an empty message and offset -1 */
    CHECK_EQ_INT(err.offset, -1);
    db_schema_release(schema);
}

TEST(last_error_after_failure) {
    db_error_t err;
    size_t index = 99;
    db_schema_t *schema = fx_person_schema();
    CHECK_STATUS(db_schema_find_class(schema, "NoSuchClass", &index), DB_ERR_NOT_FOUND);
    CHECK_EQ_UINT(index, 99); /* outputs are written only on success */
    memset(&err, 0, sizeof err);
    CHECK(db_get_last_error(&err));
    CHECK_EQ_INT(err.code, DB_ERR_NOT_FOUND);
    REQUIRE(err.message != NULL);
    CHECK(strlen(err.message) > 0);
    CHECK_EQ_INT(err.offset, -1); /* only query errors have an offset */
    /* Reading the error does not clear it. */
    CHECK(db_get_last_error(&err));
    CHECK_EQ_INT(err.code, DB_ERR_NOT_FOUND);
    db_schema_release(schema);
}

TEST(message_names_the_missing_thing) {
    size_t index;
    db_schema_t *schema = fx_person_schema();
    CHECK_STATUS(db_schema_find_class(schema, "Starship", &index), DB_ERR_NOT_FOUND);
    {
        harness_error_t e = harness_last_error();
        CHECK_CONTAINS(e.message, "Starship");
    }
    db_schema_release(schema);
}

TEST(success_resets_last_error) {
    size_t index;
    db_schema_t *schema = fx_person_schema();
    CHECK_STATUS(db_schema_find_class(schema, "Nope", &index), DB_ERR_NOT_FOUND);
    CHECK_OK(db_schema_find_class(schema, "Person", &index));
    CHECK_LAST_ERROR(DB_OK);
    db_schema_release(schema);
}

TEST(clear_last_error) {
    db_error_t err;
    CHECK_NULL_ERR(db_config_new(NULL), DB_ERR_INVALID_ARGUMENT);
    db_clear_last_error();
    CHECK(!db_get_last_error(&err));
    CHECK_EQ_INT(err.code, DB_OK);
}

TEST(get_last_error_null_out_does_not_crash) {
    CHECK_NULL_ERR(db_config_new(NULL), DB_ERR_INVALID_ARGUMENT);
    (void)db_get_last_error(NULL);
    db_clear_last_error();
    (void)db_get_last_error(NULL);
}

static void *other_thread_error(void *arg) {
    db_error_t *out = (db_error_t *)arg;
    bool present = db_get_last_error(out);
    /* Fail on this thread; the main thread's error must not change. */
    (void)db_config_new(NULL);
    return present ? (void *)1 : NULL;
}

TEST(last_error_is_thread_local) {
    pthread_t thread;
    void *present = (void *)2;
    db_error_t seen;
    size_t index;
    db_schema_t *schema = fx_person_schema();
    CHECK_STATUS(db_schema_find_class(schema, "Nope", &index), DB_ERR_NOT_FOUND);
    memset(&seen, 0x5a, sizeof seen);
    REQUIRE(pthread_create(&thread, NULL, other_thread_error, &seen) == 0);
    REQUIRE(pthread_join(thread, &present) == 0);
    CHECK(present == NULL);            /* a new thread starts without an error */
    CHECK_EQ_INT(seen.code, DB_OK);
    CHECK_LAST_ERROR(DB_ERR_NOT_FOUND); /* the other thread's failure is not ours */
    db_schema_release(schema);
}

TEST(string_free_accepts_null) {
    db_string_free(NULL);
    CHECK(1);
}

TEST(releases_accept_null) {
    db_schema_release(NULL);
    db_config_release(NULL);
    db_realm_release(NULL);
    db_object_release(NULL);
    CHECK(1);
}

HARNESS_MAIN("errors",
    HARNESS_ENTRY(version_string_is_semver),
    HARNESS_ENTRY(status_string_for_every_code),
    HARNESS_ENTRY(status_string_unknown_code),
    HARNESS_ENTRY(last_error_after_success_is_ok),
    HARNESS_ENTRY(last_error_after_failure),
    HARNESS_ENTRY(message_names_the_missing_thing),
    HARNESS_ENTRY(success_resets_last_error),
    HARNESS_ENTRY(clear_last_error),
    HARNESS_ENTRY(get_last_error_null_out_does_not_crash),
    HARNESS_ENTRY(last_error_is_thread_local),
    HARNESS_ENTRY(string_free_accepts_null),
    HARNESS_ENTRY(releases_accept_null))
