/*
 * demo.c: realmdb from C, start to finish.
 *
 *   demo [path]        (default: demo-data/people-c.realm)
 *
 * Opens (or creates) a realm file with a Person class, writes three people
 * with upsert so that running the demo again updates them instead of failing
 * on their primary keys, then reads them back and prints them.
 *
 * Every call that can fail is checked. A failing call returns a status other
 * than DB_OK (or NULL); the details are in the thread's last error, which
 * db_get_last_error() reads: a db_status_e code and a message owned by the
 * library, valid until the next call.
 *
 * Build: cmake (target demo_c) or by hand:
 *   cc -Iinclude examples/c/demo.c .build/debug/libdb.so -o demo
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"

/* Prints the last error of this thread, with what we were doing. */
static void report(const char *what) {
    db_error_t error;
    if (db_get_last_error(&error))
        fprintf(stderr, "demo: %s failed: %s (%s)\n", what, error.message, db_status_string(error.code));
    else
        fprintf(stderr, "demo: %s failed\n", what);
}

/* Checks a status: on failure, report and jump to the cleanup label. */
#define CHECK(call, what)                 \
    do {                                  \
        if ((call) != DB_OK) {            \
            report(what);                 \
            goto done;                    \
        }                                 \
    } while (0)

/* Creates the folder that will hold the file, if there is one to create. */
static int make_parent_dir(const char *path) {
    char dir[4096];
    char *slash;
    snprintf(dir, sizeof dir, "%s", path);
    slash = strrchr(dir, '/');
    if (!slash || slash == dir) return 0;
    *slash = '\0';
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "demo: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* A db_value_t holding a NUL-terminated string (copied by the library). */
static db_value_t string_value(const char *s) {
    db_value_t v;
    memset(&v, 0, sizeof v);
    v.type = DB_VALUE_STRING;
    v.string.data = s;
    v.string.size = strlen(s);
    return v;
}

static db_value_t int_value(int64_t i) {
    db_value_t v;
    memset(&v, 0, sizeof v);
    v.type = DB_VALUE_INT;
    v.integer = i;
    return v;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "demo-data/people-c.realm";
    int status = 1;
    db_schema_t *schema = NULL;
    db_config_t *config = NULL;
    db_realm_t *realm = NULL;
    db_object_t *person = NULL;
    db_class_key_t person_class;
    db_property_key_t keys[4]; /* id, name, age, email */
    size_t count = 0;
    int64_t id;

    /* 1. The schema: one class, Person, with an integer primary key.
     *    The strings are copied by db_schema_new(), so they may live anywhere. */
    static const db_property_info_t person_properties[] = {
        {.name = "id", .type = DB_PROPERTY_TYPE_INT, .flags = DB_PROPERTY_FLAG_PRIMARY_KEY, .key = -1},
        {.name = "name", .type = DB_PROPERTY_TYPE_STRING, .flags = DB_PROPERTY_FLAG_INDEXED, .key = -1},
        {.name = "age", .type = DB_PROPERTY_TYPE_INT, .flags = DB_PROPERTY_FLAG_NONE, .key = -1},
        {.name = "email", .type = DB_PROPERTY_TYPE_STRING, .flags = DB_PROPERTY_FLAG_NULLABLE, .key = -1},
    };
    db_class_info_t person_info;
    memset(&person_info, 0, sizeof person_info);
    person_info.name = "Person";
    person_info.properties = person_properties;
    person_info.num_properties = sizeof person_properties / sizeof person_properties[0];

    if (make_parent_dir(path) != 0) return 1;

    schema = db_schema_new(&person_info, 1);
    if (!schema) { report("db_schema_new"); goto done; }

    /* 2. The configuration: where the file is, which schema and version.
     *    The config keeps its own reference to the schema. */
    config = db_config_new(path);
    if (!config) { report("db_config_new"); goto done; }
    CHECK(db_config_set_schema(config, schema), "db_config_set_schema");
    CHECK(db_config_set_schema_version(config, 1), "db_config_set_schema_version");

    /* 3. Open the realm: creates the file on the first run. */
    realm = db_realm_open(config);
    if (!realm) { report("db_realm_open"); goto done; }
    printf("opened %s (realmdb %s)\n", path, db_library_version_string());

    /* 4. Keys: look names up once; keys are the fast path for reads and writes. */
    CHECK(db_realm_find_class(realm, "Person", &person_class), "db_realm_find_class");
    CHECK(db_realm_find_property(realm, person_class, "id", &keys[0]), "db_realm_find_property(id)");
    CHECK(db_realm_find_property(realm, person_class, "name", &keys[1]), "db_realm_find_property(name)");
    CHECK(db_realm_find_property(realm, person_class, "age", &keys[2]), "db_realm_find_property(age)");
    CHECK(db_realm_find_property(realm, person_class, "email", &keys[3]), "db_realm_find_property(email)");

    /* 5. Write: every change happens inside a write transaction.
     *    DB_UPSERT_MODIFIED updates an existing Person with the same id, so a
     *    second run of the demo changes nothing instead of failing with
     *    DB_ERR_DUPLICATE_PRIMARY_KEY. Properties not given (email for Bob)
     *    are null on create and left alone on update. */
    CHECK(db_realm_begin_write(realm), "db_realm_begin_write");
    {
        db_value_t ann[4], bob[3], eve[4];
        ann[0] = int_value(1); ann[1] = string_value("Ann"); ann[2] = int_value(34);
        ann[3] = string_value("ann@example.com");
        bob[0] = int_value(2); bob[1] = string_value("Bob"); bob[2] = int_value(27);
        eve[0] = int_value(3); eve[1] = string_value("Eve"); eve[2] = int_value(41);
        eve[3] = string_value("eve@example.com");

        person = db_object_create(realm, person_class, keys, ann, 4, DB_UPSERT_MODIFIED);
        if (!person) { report("db_object_create(Ann)"); (void)db_realm_cancel_write(realm); goto done; }
        db_object_release(person); /* accessors are handles too: release them */
        person = db_object_create(realm, person_class, keys, bob, 3, DB_UPSERT_MODIFIED);
        if (!person) { report("db_object_create(Bob)"); (void)db_realm_cancel_write(realm); goto done; }
        db_object_release(person);
        person = db_object_create(realm, person_class, keys, eve, 4, DB_UPSERT_MODIFIED);
        if (!person) { report("db_object_create(Eve)"); (void)db_realm_cancel_write(realm); goto done; }
        db_object_release(person);
        person = NULL;
    }
    CHECK(db_realm_commit(realm), "db_realm_commit");

    /* 6. Read: outside a write, reads see the last committed version. */
    CHECK(db_realm_count_objects(realm, person_class, &count), "db_realm_count_objects");
    printf("Person objects in the realm: %zu\n", count);

    for (id = 1; id <= 3; id++) {
        db_value_t pk = int_value(id), values[4];
        bool found = false;
        person = db_object_find_with_primary_key(realm, person_class, &pk, &found);
        if (!person) {
            if (!found) {            /* absent is not an error: no last error is set */
                printf("  no Person with id %" PRId64 "\n", id);
                continue;
            }
            report("db_object_find_with_primary_key");
            goto done;
        }
        /* Strings read from the library are borrowed: valid until the next
         * call that names this realm or one of its objects. Print them now. */
        CHECK(db_object_get_values(person, keys, 4, values), "db_object_get_values");
        printf("  Person %" PRId64 ": name=%.*s age=%" PRId64 " email=", values[0].integer,
               (int)values[1].string.size, values[1].string.data, values[2].integer);
        if (values[3].type == DB_VALUE_NULL)
            printf("(null)\n");
        else
            printf("%.*s\n", (int)values[3].string.size, values[3].string.data);

        /* db_object_description() returns a new string: free it with db_string_free(). */
        {
            char *description = db_object_description(person);
            const char *line;
            if (!description) { report("db_object_description"); goto done; }
            /* Multi-line: indent every line under the summary above. */
            for (line = description; *line; ) {
                const char *end = strchr(line, '\n');
                int len = end ? (int)(end - line) : (int)strlen(line);
                printf("      | %.*s\n", len, line);
                line += len + (end ? 1 : 0);
            }
            db_string_free(description);
        }
        db_object_release(person);
        person = NULL;
    }
    status = 0;

done:
    /* 7. Clean up: every handle has its own release; each accepts NULL.
     *    Releasing a realm closes it (db_realm_close() closes it early). */
    db_object_release(person);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(schema);
    return status;
}
