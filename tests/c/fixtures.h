/*
 * fixtures.h: shared set-up for the C tests: value constructors, the test
 * schemas, opening realms and reading values. Header-only (static inline),
 * so each test binary's failures are counted by its own harness.
 *
 * The schemas:
 *   Person   { id: int (primary key), name: string, age: int, email: string? }
 *   AllTypes { id: int (pk), then for every type T a required `T` and a nullable `opt_T` }
 *   Log      { message: string, level: int }           -- no primary key
 *   Tagged   { code: string (pk), note: string? }      -- string primary key
 * and, alone in its own realm (fx_open_dogs), for the collection, frozen and notification tests:
 *   Dog      { name: string, age: int, scores: [int], meta: {string: string}, tags: set<string> }
 *
 * The shared rows: Person i is {i, "person <i>", 20 + i} (fx_add_people, fx_create_people,
 * fx_check_person, fx_open_new_with_people); Ann is Person{1, "Ann", 30} (fx_begin_with_ann).
 * fx_test_schema() is the test's own fx_schema(), released when the test ends (harness_at_end).
 */
#ifndef REALMDB_TEST_FIXTURES_H
#define REALMDB_TEST_FIXTURES_H

#include "harness.h"

/* ---- values -------------------------------------------------------------- */

static inline db_value_t v_null(void) { db_value_t v; memset(&v, 0, sizeof v); v.type = DB_VALUE_NULL; return v; }
static inline db_value_t v_bool(bool b) { db_value_t v = v_null(); v.type = DB_VALUE_BOOL; v.boolean = b; return v; }
static inline db_value_t v_int(int64_t i) { db_value_t v = v_null(); v.type = DB_VALUE_INT; v.integer = i; return v; }
static inline db_value_t v_float(float f) { db_value_t v = v_null(); v.type = DB_VALUE_FLOAT; v.fnum = f; return v; }
static inline db_value_t v_double(double d) { db_value_t v = v_null(); v.type = DB_VALUE_DOUBLE; v.dnum = d; return v; }
static inline db_value_t v_strn(const char *s, size_t n) {
    db_value_t v = v_null(); v.type = DB_VALUE_STRING; v.string.data = s; v.string.size = n; return v;
}
static inline db_value_t v_str(const char *s) { return v_strn(s, strlen(s)); }
static inline db_value_t v_data(const void *p, size_t n) {
    db_value_t v = v_null(); v.type = DB_VALUE_DATA; v.binary.data = (const uint8_t *)p; v.binary.size = n; return v;
}
static inline db_value_t v_ts(int64_t s, int32_t ns) {
    db_value_t v = v_null(); v.type = DB_VALUE_TIMESTAMP; v.timestamp.seconds = s; v.timestamp.nanoseconds = ns; return v;
}
static inline db_value_t v_oid(const uint8_t bytes[12]) {
    db_value_t v = v_null(); v.type = DB_VALUE_OBJECT_ID; memcpy(v.object_id.bytes, bytes, 12); return v;
}
static inline db_value_t v_uuid(const uint8_t bytes[16]) {
    db_value_t v = v_null(); v.type = DB_VALUE_UUID; memcpy(v.uuid.bytes, bytes, 16); return v;
}
static inline db_value_t v_dec(uint64_t low, uint64_t high) {
    db_value_t v = v_null(); v.type = DB_VALUE_DECIMAL128; v.decimal128.w[0] = low; v.decimal128.w[1] = high; return v;
}
/* A link to an object (DB_VALUE_LINK: its class key and object key). */
static inline db_value_t v_link(const db_object_t *object) {
    db_value_t v = v_null();
    v.type = DB_VALUE_LINK;
    REQUIRE_OK(db_object_get_class_key(object, &v.link.class_key));
    REQUIRE_OK(db_object_get_key(object, &v.link.object_key));
    return v;
}

/* ---- schemas ------------------------------------------------------------- */

#define FX_PROP(n, t, f) {.name = (n), .persisted_name = NULL, .type = (t), .flags = (f), .key = -1}
#define FX_PROP_PERSISTED(n, p, t, f) {.name = (n), .persisted_name = (p), .type = (t), .flags = (f), .key = -1}
/* A list, set or dictionary (c: DB_COLLECTION_*) of values of type t. */
#define FX_COLLECTION(n, t, c, f) {.name = (n), .type = (t), .flags = (f), .key = -1, .collection_type = (c)}
/* A to-one link to class `target` (nullable, as a to-one link must be); a list of links. */
#define FX_LINK(n, target) \
    {.name = (n), .type = DB_PROPERTY_TYPE_OBJECT, .flags = DB_PROPERTY_FLAG_NULLABLE, .key = -1, .link_target = (target)}
#define FX_LINK_LIST(n, target) \
    {.name = (n), .type = DB_PROPERTY_TYPE_OBJECT, .key = -1, .collection_type = DB_COLLECTION_LIST, .link_target = (target)}
/* The objects of class `origin` whose `property` links here. */
#define FX_BACKLINKS(n, origin, property) \
    {.name = (n), .type = DB_PROPERTY_TYPE_LINKING_OBJECTS, .key = -1, .link_target = (origin), \
     .link_origin_property = (property)}
/* The first properties of the Owner of the relationship tests: its name, its dogs and its best dog. */
#define FX_OWNER_NAME_DOGS_BEST \
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY), FX_LINK_LIST("dogs", "Dog"), FX_LINK("best", "Dog")

static const db_property_info_t fx_person_props[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_PROP("email", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
};

static const db_property_info_t fx_all_types_props[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("bool", DB_PROPERTY_TYPE_BOOL, 0),
    FX_PROP("int", DB_PROPERTY_TYPE_INT, 0),
    FX_PROP("float", DB_PROPERTY_TYPE_FLOAT, 0),
    FX_PROP("double", DB_PROPERTY_TYPE_DOUBLE, 0),
    FX_PROP("string", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("data", DB_PROPERTY_TYPE_DATA, 0),
    FX_PROP("timestamp", DB_PROPERTY_TYPE_TIMESTAMP, 0),
    FX_PROP("object_id", DB_PROPERTY_TYPE_OBJECT_ID, 0),
    FX_PROP("uuid", DB_PROPERTY_TYPE_UUID, 0),
    FX_PROP("decimal", DB_PROPERTY_TYPE_DECIMAL128, 0),
    FX_PROP("opt_bool", DB_PROPERTY_TYPE_BOOL, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_int", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_float", DB_PROPERTY_TYPE_FLOAT, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_double", DB_PROPERTY_TYPE_DOUBLE, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_string", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_data", DB_PROPERTY_TYPE_DATA, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_timestamp", DB_PROPERTY_TYPE_TIMESTAMP, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_object_id", DB_PROPERTY_TYPE_OBJECT_ID, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_uuid", DB_PROPERTY_TYPE_UUID, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("opt_decimal", DB_PROPERTY_TYPE_DECIMAL128, DB_PROPERTY_FLAG_NULLABLE),
};
#define FX_NUM_TYPES 10 /* required properties after "id"; then as many opt_ ones */

static const db_property_info_t fx_log_props[] = {
    FX_PROP("message", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("level", DB_PROPERTY_TYPE_INT, 0),
};

static const db_property_info_t fx_tagged_props[] = {
    FX_PROP("code", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("note", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
};

#define FX_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static inline db_class_info_t fx_class(const char *name, const db_property_info_t *props, size_t n) {
    db_class_info_t c;
    memset(&c, 0, sizeof c);
    c.name = name;
    c.properties = props;
    c.num_properties = n;
    return c;
}

/* Person, AllTypes, Log, Tagged. */
static inline db_schema_t *fx_schema(void) {
    db_class_info_t classes[4];
    classes[0] = fx_class("Person", fx_person_props, FX_COUNT(fx_person_props));
    classes[1] = fx_class("AllTypes", fx_all_types_props, FX_COUNT(fx_all_types_props));
    classes[2] = fx_class("Log", fx_log_props, FX_COUNT(fx_log_props));
    classes[3] = fx_class("Tagged", fx_tagged_props, FX_COUNT(fx_tagged_props));
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(classes, 4));
}

/* fx_schema(), made once per test and released when the test ends. */
static db_schema_t *fx_test_schema_made;

static inline void fx_release_test_schema(void *unused) {
    (void)unused;
    db_schema_release(fx_test_schema_made);
    fx_test_schema_made = NULL;
}

static inline const db_schema_t *fx_test_schema(void) {
    if (fx_test_schema_made == NULL) {
        fx_test_schema_made = fx_schema();
        harness_at_end(fx_release_test_schema, NULL);
    }
    return fx_test_schema_made;
}

static inline db_schema_t *fx_person_schema(void) {
    db_class_info_t c = fx_class("Person", fx_person_props, FX_COUNT(fx_person_props));
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
}

/* ---- realms -------------------------------------------------------------- */

static inline db_config_t *fx_config(const char *path, const db_schema_t *schema, uint64_t version) {
    db_config_t *config = (db_config_t *)REQUIRE_PTR(db_config_new(path));
    if (schema) REQUIRE_OK(db_config_set_schema(config, schema));
    REQUIRE_OK(db_config_set_schema_version(config, version));
    return config;
}

/* Opens `path` with `schema` at `version`; fatal on failure. */
static inline db_realm_t *fx_open_with(const char *path, const db_schema_t *schema, uint64_t version) {
    db_config_t *config = fx_config(path, schema, version);
    db_realm_t *realm = db_realm_open(config);
    db_config_release(config);
    return (db_realm_t *)REQUIRE_PTR(realm);
}

/* Opens (creating) `path` with fx_schema() at version 1; fatal on failure. */
static inline db_realm_t *fx_open(const char *path) {
    return fx_open_with(path, fx_test_schema(), 1);
}

/* Opening `path` with `schema` at `version` fails with `code` (and the last error says so). */
#define FX_CHECK_OPEN_FAILS(path, schema, version, code) \
    fx_check_open_fails((path), (schema), (version), (code), #code, __FILE__, __LINE__)

static inline void fx_check_open_fails(const char *path, const db_schema_t *schema, uint64_t version, int code,
                                       const char *code_text, const char *file, int line) {
    db_config_t *config = fx_config(path, schema, version);
    db_realm_t *realm = db_realm_open(config);
    harness_checks++;
    if (realm != NULL) {
        harness_fail(file, line, "opening %s succeeded, expected %s", path, code_text);
        db_realm_release(realm);
    } else {
        harness_check_last_error(file, line, code, code_text);
    }
    db_config_release(config);
}

/* A new file in a fresh temporary directory, with fx_schema() at version 1. */
static inline db_realm_t *fx_open_new(void) {
    return fx_open(harness_tmpfile("test.realm"));
}

static inline db_class_key_t fx_class_key(const db_realm_t *realm, const char *name) {
    db_class_key_t key = 0;
    REQUIRE_OK(db_realm_find_class(realm, name, &key));
    return key;
}

static inline db_property_key_t fx_prop_key(const db_realm_t *realm, const char *cls, const char *prop) {
    db_property_key_t key = -1;
    REQUIRE_OK(db_realm_find_property(realm, fx_class_key(realm, cls), prop, &key));
    return key;
}

static inline size_t fx_count(const db_realm_t *realm, const char *cls) {
    size_t n = (size_t)-1;
    REQUIRE_OK(db_realm_count_objects(realm, fx_class_key(realm, cls), &n));
    return n;
}

/* db_object_create of class `cls` with its properties `names` set to `values`, the keys looked up
 * by name (fatal if one is missing). Returns what db_object_create returns: NULL on failure. */
static inline db_object_t *fx_create(db_realm_t *realm, const char *cls, const char *const names[],
                                     const db_value_t values[], size_t n, db_upsert_mode_e mode) {
    db_property_key_t keys[16];
    size_t i;
    REQUIRE(n <= FX_COUNT(keys));
    for (i = 0; i < n; i++) keys[i] = fx_prop_key(realm, cls, names[i]);
    return db_object_create(realm, fx_class_key(realm, cls), keys, values, n, mode);
}

/* Creates Person{id, name, age} (email null) in the current write transaction. */
static inline db_object_t *fx_person(db_realm_t *realm, int64_t id, const char *name, int64_t age) {
    static const char *const names[3] = {"id", "name", "age"};
    db_value_t values[3];
    values[0] = v_int(id);
    values[1] = v_str(name);
    values[2] = v_int(age);
    return (db_object_t *)REQUIRE_PTR(fx_create(realm, "Person", names, values, 3, DB_UPSERT_NONE));
}

/* The people rows the tests share: Person i is {i, "person <i>", 20 + i}, email null.
 * fx_create_people writes people 1..n in the current write transaction; fx_add_people
 * in a transaction of its own; fx_check_person checks that Person i is there as written. */
static inline void fx_create_people(db_realm_t *realm, int n) {
    int i;
    char name[32];
    for (i = 1; i <= n; i++) {
        snprintf(name, sizeof name, "person %d", i);
        db_object_release(fx_person(realm, i, name, 20 + i));
    }
}

static inline void fx_add_people(db_realm_t *realm, int n) {
    REQUIRE_OK(db_realm_begin_write(realm));
    fx_create_people(realm, n);
    REQUIRE_OK(db_realm_commit(realm));
}

/* Begins a write on `realm` and creates Person{1, "Ann", 30} (email null) in it. */
static inline db_object_t *fx_begin_with_ann(db_realm_t *realm) {
    REQUIRE_OK(db_realm_begin_write(realm));
    return fx_person(realm, 1, "Ann", 30);
}

/* The end of a test that writes to one object: commits, releases the object and the realm. */
static inline void fx_commit_and_release(db_realm_t *realm, db_object_t *object) {
    REQUIRE_OK(db_realm_commit(realm));
    db_object_release(object);
    db_realm_release(realm);
}

/* The same, for a test whose writes are to be thrown away: cancels instead of committing. */
static inline void fx_cancel_and_release(db_realm_t *realm, db_object_t *object) {
    REQUIRE_OK(db_realm_cancel_write(realm));
    db_object_release(object);
    db_realm_release(realm);
}

/* fx_open_new() with people 1..n (fx_add_people). */
static inline db_realm_t *fx_open_new_with_people(int n) {
    db_realm_t *realm = fx_open_new();
    fx_add_people(realm, n);
    return realm;
}

static inline db_object_t *fx_find_person(const db_realm_t *realm, int64_t id) {
    db_value_t pk = v_int(id);
    bool found = false;
    db_object_t *o = db_object_find_with_primary_key(realm, fx_class_key(realm, "Person"), &pk, &found);
    return found ? o : NULL;
}

/* Person `id`, which must be there (fatal otherwise). */
static inline db_object_t *fx_require_person(const db_realm_t *realm, int64_t id) {
    return (db_object_t *)REQUIRE_PTR(fx_find_person(realm, id));
}

/* ---- reading values ------------------------------------------------------ */

static inline size_t fx_results_count(const db_results_t *results) {
    size_t n = (size_t)-1;
    REQUIRE_OK(db_results_count(results, &n));
    return n;
}

static inline db_value_t fx_get(const db_object_t *obj, const char *prop) {
    db_value_t v = v_null();
    v.type = (db_value_type_e)-1;
    REQUIRE_OK(db_object_get_value_by_name(obj, prop, &v));
    return v;
}

static inline int64_t fx_get_int(const db_object_t *obj, const char *prop) {
    db_value_t v = fx_get(obj, prop);
    REQUIRE(v.type == DB_VALUE_INT);
    return v.integer;
}

/* Copies a string value into buf (NUL-terminated); fatal if not a string. */
static inline const char *fx_get_str(const db_object_t *obj, const char *prop, char *buf, size_t cap) {
    db_value_t v = fx_get(obj, prop);
    REQUIRE(v.type == DB_VALUE_STRING);
    REQUIRE(v.string.size < cap);
    memcpy(buf, v.string.data, v.string.size);
    buf[v.string.size] = '\0';
    return buf;
}

/* Person `id` is there as fx_create_people wrote it: name "person <id>", age 20 + id. */
static inline void fx_check_person(const db_realm_t *realm, int64_t id) {
    char expected[32], buf[32];
    db_object_t *p = fx_require_person(realm, id);
    snprintf(expected, sizeof expected, "person %lld", (long long)id);
    CHECK_EQ_STR(fx_get_str(p, "name", buf, sizeof buf), expected);
    CHECK_EQ_INT(fx_get_int(p, "age"), 20 + id);
    db_object_release(p);
}

/* ---- dogs ---------------------------------------------------------------- */

static const db_property_info_t fx_dog_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, 0),
    FX_COLLECTION("scores", DB_PROPERTY_TYPE_INT, DB_COLLECTION_LIST, 0),
    FX_COLLECTION("meta", DB_PROPERTY_TYPE_STRING, DB_COLLECTION_DICTIONARY, 0),
    FX_COLLECTION("tags", DB_PROPERTY_TYPE_STRING, DB_COLLECTION_SET, 0),
};

/* A realm with only the Dog class, and its keys. */
typedef struct fx_dogs {
    db_realm_t *realm;
    db_class_key_t cls;
    db_property_key_t name, age, scores, meta, tags;
} fx_dogs_t;

/* Opens (creating) the Dog realm at `path`, e.g. harness_tmpfile("x.realm"). */
static inline fx_dogs_t fx_open_dogs(const char *path) {
    fx_dogs_t d;
    db_class_info_t c = fx_class("Dog", fx_dog_props, FX_COUNT(fx_dog_props));
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
    d.realm = fx_open_with(path, schema, 1);
    db_schema_release(schema);
    d.cls = fx_class_key(d.realm, "Dog");
    d.name = fx_prop_key(d.realm, "Dog", "name");
    d.age = fx_prop_key(d.realm, "Dog", "age");
    d.scores = fx_prop_key(d.realm, "Dog", "scores");
    d.meta = fx_prop_key(d.realm, "Dog", "meta");
    d.tags = fx_prop_key(d.realm, "Dog", "tags");
    return d;
}

/* Creates Dog{name, age} in the current write transaction. */
static inline db_object_t *fx_dog(const fx_dogs_t *d, const char *name, int64_t age) {
    db_property_key_t keys[2];
    db_value_t values[2];
    keys[0] = d->name;
    keys[1] = d->age;
    values[0] = v_str(name);
    values[1] = v_int(age);
    return (db_object_t *)REQUIRE_PTR(db_object_create(d->realm, d->cls, keys, values, 2, DB_UPSERT_NONE));
}

/* Creates Dog{name, age} in a write transaction of its own. */
static inline db_object_t *fx_write_dog(const fx_dogs_t *d, const char *name, int64_t age) {
    db_object_t *dog;
    REQUIRE_OK(db_realm_begin_write(d->realm));
    dog = fx_dog(d, name, age);
    REQUIRE_OK(db_realm_commit(d->realm));
    return dog;
}

#endif /* REALMDB_TEST_FIXTURES_H */
