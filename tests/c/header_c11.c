/*
 * header_c11.c: include/db.h is plain C11 and plain C++.
 *
 * CMakeLists.txt compiles this file twice with warnings as errors:
 * as C11 with gcc (-std=c11 -Wall -Wextra -Werror -pedantic) and, copied to
 * header_cxx.cpp, as C++11 with g++ (-Wall -Wextra -Werror -pedantic). Both
 * binaries are also run: they call into the library through the header.
 * Keep this file valid in both languages (no designated initializers, no
 * compound literals, no implicit void* conversions).
 */
#include "db.h"
#include "db.h" /* include guard */

#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
#define STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* The ABI facts that bindings (bindings/python/realmdb/_ffi.py) rely on. */
STATIC_ASSERT(sizeof(db_object_id_t) == 12, "ObjectId is 12 bytes");
STATIC_ASSERT(sizeof(db_uuid_t) == 16, "UUID is 16 bytes");
STATIC_ASSERT(sizeof(db_decimal128_t) == 16, "decimal128 is 16 bytes");
STATIC_ASSERT(sizeof(db_timestamp_t) == 16, "timestamp is int64 + int32, padded");
STATIC_ASSERT(sizeof(db_string_t) == 2 * sizeof(void *), "string is pointer + size");
STATIC_ASSERT(sizeof(db_value_t) == 24, "value is a tag + a 16-byte union");
STATIC_ASSERT(sizeof(db_class_key_t) == 4, "class keys are 32-bit");
STATIC_ASSERT(sizeof(db_property_key_t) == 8, "property keys are 64-bit");
STATIC_ASSERT(sizeof(db_object_key_t) == 8, "object keys are 64-bit");
STATIC_ASSERT(DB_OK == 0, "DB_OK is 0");
STATIC_ASSERT(DB_ERR_INTERNAL == 25, "status codes are stable");
STATIC_ASSERT(DB_VALUE_DECIMAL128 == 10, "value types are stable");
STATIC_ASSERT(DB_PROPERTY_TYPE_DECIMAL128 == 10, "property types are stable");

static bool migrate(void *userdata, db_migration_t *migration, uint64_t old_schema_version) {
    (void)userdata;
    (void)migration;
    (void)old_schema_version;
    return true;
}

static bool visit(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    (void)userdata;
    (void)old_object;
    (void)new_object;
    return true;
}

int main(void) {
    db_value_t value;
    db_error_t error;
    db_migration_func_t mf = migrate;
    db_migration_object_func_t of = visit;
    db_free_userdata_func_t ff = NULL;
    const char *version = db_library_version_string();
    db_config_t *config;

    memset(&value, 0, sizeof value);
    value.type = DB_VALUE_STRING; /* the anonymous union's members are direct fields */
    value.string.data = "x";
    value.string.size = 1;
    value.decimal128.w[0] = 1;

    if (!version || !*version) return 1;
    printf("realmdb %s (%s)\n", version,
#ifdef __cplusplus
           "C++"
#else
           "C11"
#endif
    );
    if (strcmp(db_status_string(DB_OK), db_status_string(DB_ERR_NOT_FOUND)) == 0) return 1;

    /* A failing call through the header: status and last error agree. */
    config = db_config_new(NULL);
    if (config != NULL) return 1;
    if (!db_get_last_error(&error) || error.code != DB_ERR_INVALID_ARGUMENT) return 1;
    db_clear_last_error();

    config = db_config_new("unused.realm");
    if (!config) return 1;
    if (db_config_set_migration_function(config, mf, NULL, ff) != DB_OK) return 1;
    db_config_release(config);
    (void)of;
    return 0;
}
