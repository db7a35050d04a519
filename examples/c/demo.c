/*
 * demo.c: realmdb from C, start to finish.
 *
 *   demo [path]        (default: demo-data/people-c.realm)
 *
 * Opens (or creates) a realm file with a Person class, writes three people
 * with upsert so that running the demo again updates them instead of failing
 * on their primary keys, then reads them back and prints them. Last, a live
 * query: results that follow the commits another process makes, with a callback
 * that hears what changed.
 *
 * Every call that can fail is checked. A failing call returns a status other
 * than DB_OK (or NULL); the details are in the thread's last error, which
 * db_get_last_error() reads: a db_status_e code and a message owned by the
 * library, valid until the next call.
 *
 * Build: cmake (target demo_c) or by hand:
 *   cc -Iinclude examples/c/demo.c .build/debug/libdb.so -o demo
 */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

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

/* The live query's state, shared by this thread and the library's notifier: how many wake-ups
 * the scheduler delivered (under `lock`), and the results the change callback reads. */
typedef struct {
    mtx_t lock;
    cnd_t woken;
    int wakes;
    const db_results_t *results;
    db_property_key_t name_key;
} live_t;

/* Called by the library, on its own thread, after a commit elsewhere: only note it and wake the
 * realm's thread, which delivers the changes by refreshing (db_realm_refresh). */
static void on_wake(void *userdata) {
    live_t *live = userdata;
    mtx_lock(&live->lock);
    live->wakes++;
    cnd_signal(&live->woken);
    mtx_unlock(&live->lock);
}

/* Called on the realm's thread, in db_realm_refresh: what changed, then the results now. */
static void on_change(void *userdata, const db_collection_change_t *change) {
    live_t *live = userdata;
    db_collection_change_counts_t counts;
    db_value_t names[16];
    size_t n = 0, i;
    if (db_collection_change_get_counts(change, &counts) != DB_OK) { report("db_collection_change_get_counts"); return; }
    if (db_results_get_values(live->results, live->name_key, 0, 16, names, &n) != DB_OK) { report("db_results_get_values"); return; }
    printf(counts.is_initial ? "  live query (age < 30):" : "    now:");
    for (i = 0; i < n; i++) printf(" %.*s", (int)names[i].string.size, names[i].string.data);
    if (counts.is_initial)
        printf("\n");
    else
        printf("  (inserted %zu, deleted %zu, modified %zu)\n", counts.num_insertions, counts.num_deletions,
               counts.num_modifications);
}

/* The other process's commit, through a realm handle of its own: `adds` true creates Dan, 19;
 * false deletes him. 0 when it committed. */
static int commit_one_change(const db_config_t *config, int adds) {
    db_realm_t *realm = db_realm_open(config);
    db_class_key_t cls;
    db_property_key_t keys[3];
    db_value_t dan[3];
    db_object_t *object = NULL;
    bool found = false;
    int failed = 1;
    if (!realm) { report("db_realm_open (writer)"); return 1; }
    if (db_realm_find_class(realm, "Person", &cls) != DB_OK ||
        db_realm_find_property(realm, cls, "id", &keys[0]) != DB_OK ||
        db_realm_find_property(realm, cls, "name", &keys[1]) != DB_OK ||
        db_realm_find_property(realm, cls, "age", &keys[2]) != DB_OK ||
        db_realm_begin_write(realm) != DB_OK) {
        report("the writer's keys or write");
        db_realm_release(realm);
        return 1;
    }
    dan[0].type = DB_VALUE_INT; dan[0].integer = 4;
    dan[1].type = DB_VALUE_STRING; dan[1].string.data = "Dan"; dan[1].string.size = 3;
    dan[2].type = DB_VALUE_INT; dan[2].integer = 19;
    if (adds) {
        object = db_object_create(realm, cls, keys, dan, 3, DB_UPSERT_MODIFIED);
    } else {
        object = db_object_find_with_primary_key(realm, cls, &dan[0], &found);
        if (object && db_object_delete(object) != DB_OK) { db_object_release(object); object = NULL; }
    }
    if (!object || db_realm_commit(realm) != DB_OK) {
        report("the writer's commit");
        (void)db_realm_cancel_write(realm);
    } else {
        failed = 0;
    }
    db_object_release(object);
    db_realm_release(realm);
    return failed;
}

/* Another process makes the commit: a fork child opens the file itself (a child never uses its
 * parent's handles; it opens its own) and exits with commit_one_change's answer. 0 when it
 * committed. */
static int commit_in_another_process(const db_config_t *config, int adds) {
    int status = 0;
    pid_t child;
    fflush(NULL);
    child = fork();
    if (child < 0) { perror("demo: fork"); return -1; }
    if (child == 0) _exit(commit_one_change(config, adds));
    if (waitpid(child, &status, 0) != child) { perror("demo: waitpid"); return -1; }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Waits (up to 10 s) for the scheduler's wake-up number `wake`; 0 when it came. */
static int wait_for_wake(live_t *live, int wake) {
    struct timespec deadline;
    int result = 0;
    timespec_get(&deadline, TIME_UTC);
    deadline.tv_sec += 10;
    mtx_lock(&live->lock);
    while (live->wakes < wake && result == 0)
        result = cnd_timedwait(&live->woken, &live->lock, &deadline) == thrd_timedout ? -1 : 0;
    mtx_unlock(&live->lock);
    return live->wakes >= wake ? 0 : -1;
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

    /* 7. A live query: people younger than 30, sorted as stored. The results follow every commit
     *    to the file; the callback hears what changed. A scheduler tells this thread that a
     *    commit landed elsewhere (the library calls it on its own thread), and db_realm_refresh,
     *    called here, delivers the changes to the callback on this thread. */
    {
        live_t live;
        db_value_t thirty = int_value(30);
        db_query_arg_t argument;
        db_results_t *everyone = NULL, *young = NULL;
        db_notification_token_t *token = NULL;
        int step, ok = 0;
        live.wakes = 0;
        live.name_key = keys[1];
        argument.num_values = 1;
        argument.is_list = false;
        argument.values = &thirty;
        if (mtx_init(&live.lock, mtx_plain) != thrd_success || cnd_init(&live.woken) != thrd_success) {
            fprintf(stderr, "demo: cannot make a lock\n");
            goto done;
        }
        everyone = db_results_from_class(realm, person_class);
        young = everyone ? db_results_filter(everyone, "age < $0", &argument, 1) : NULL;
        live.results = young;
        if (!young) report("db_results_filter");
        else if (db_realm_set_scheduler(realm, on_wake, &live, NULL) != DB_OK) report("db_realm_set_scheduler");
        else if (!(token = db_results_observe(young, NULL, 0, on_change, &live, NULL))) report("db_results_observe");
        else if (db_realm_deliver_notifications(realm) != DB_OK) report("db_realm_deliver_notifications");
        else {
            ok = 1;  /* the callback's first call, the results as they are, came in the line above */
            for (step = 0; step < 2 && ok; step++) {
                int failed;
                printf("  another process commits: %s\n", step == 0 ? "Dan, 19, moves in" : "Dan leaves");
                failed = commit_in_another_process(config, step == 0);
                if (failed || wait_for_wake(&live, step + 1) != 0) {
                    fprintf(stderr, "demo: the commit in another process %s\n", failed ? "failed" : "woke nobody in 10 s");
                    ok = 0;
                } else if (db_realm_refresh(realm, NULL) != DB_OK) {
                    report("db_realm_refresh");
                    ok = 0;
                }
            }
        }
        db_notification_token_release(token);  /* waits for a call in progress; stops later ones */
        if (young) (void)db_realm_set_scheduler(realm, NULL, NULL, NULL);
        db_results_release(young);
        db_results_release(everyone);
        cnd_destroy(&live.woken);
        mtx_destroy(&live.lock);
        if (!ok) goto done;
    }
    status = 0;

done:
    /* 8. Clean up: every handle has its own release; each accepts NULL.
     *    Releasing a realm closes it (db_realm_close() closes it early). */
    db_object_release(person);
    db_realm_release(realm);
    db_config_release(config);
    db_schema_release(schema);
    return status;
}
