/*
 * Large writes through db.h: N objects inserted in one write transaction, then all of them
 * deleted in one write transaction, reporting time, file size and memory at each step.
 *
 *   large_write [--delete-half] [--commit-every K] N PATH [PAYLOAD_BYTES]
 *
 * The class is the peers workload's Person (id primary key, name indexed, age, score, city,
 * compound indexes (age, name) and (city, age)); PAYLOAD_BYTES > 0 adds a binary property of
 * that size to every object (10M objects of 1,000 bytes make a 10 GB realm). --delete-half deletes
 * the objects of odd age instead (half of them, scattered over every index). --commit-every K
 * inserts in transactions of K objects instead of one (LMDB keeps a transaction's changed pages
 * in memory, and counts a large value's run of pages as one: one transaction of 10 GB of
 * payload holds about 10 GB). Rows are generated,
 * not read from a workload file, so that N may be large. PATH must not exist.
 *
 * Memory is reported two ways, from /proc/self/status: RssAnon (memory of the process's own:
 * LMDB's dirty pages, the engine's buffers) and VmHWM (the peak of the whole resident set,
 * which also counts pages of the file mapped by reads: the kernel may drop those at any time).
 * Bounded memory means RssAnon that stops growing with N.
 */
#define _POSIX_C_SOURCE 200809L
#include "db.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { P_ID, P_NAME, P_AGE, P_SCORE, P_CITY, P_PAYLOAD, P_MAX };
enum { CHUNK = 16384 };

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("large_write: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static void check(bool ok, const char *what) {
    db_error_t error;
    if (ok) return;
    db_get_last_error(&error);
    die("%s failed: %s", what, error.message ? error.message : "(no message)");
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A field of /proc/self/status in KiB (0 when absent). */
static long status_kib(const char *field) {
    char line[256];
    size_t len = strlen(field);
    long kib = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kib = strtol(line + len + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kib;
}

static double file_mib(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / 1048576.0 : 0.0;
}

static void report(const char *step, size_t done, double started, const char *path) {
    printf("%-28s %10zu objects %8.1f s   file %9.1f MiB   RssAnon %7.1f MiB   VmHWM %7.1f MiB\n", step, done,
           now() - started, file_mib(path), (double)status_kib("RssAnon") / 1024.0,
           (double)status_kib("VmHWM") / 1024.0);
    fflush(stdout);
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

int main(int argc, char **argv) {
    static const char *const cities[] = {"Oslo", "Lima", "Kyiv", "Pune", "Bonn", "Cork", "Nice", "Graz"};
    static const char *const age_name[] = {"age", "name"}, *const city_age[] = {"city", "age"};
    db_property_info_t props[P_MAX] = {
        {.name = "id", .type = DB_PROPERTY_TYPE_INT, .flags = DB_PROPERTY_FLAG_PRIMARY_KEY, .key = -1},
        {.name = "name", .type = DB_PROPERTY_TYPE_STRING, .flags = DB_PROPERTY_FLAG_INDEXED, .key = -1},
        {.name = "age", .type = DB_PROPERTY_TYPE_INT, .flags = 0, .key = -1},
        {.name = "score", .type = DB_PROPERTY_TYPE_DOUBLE, .flags = 0, .key = -1},
        {.name = "city", .type = DB_PROPERTY_TYPE_STRING, .flags = 0, .key = -1},
        {.name = "payload", .type = DB_PROPERTY_TYPE_DATA, .flags = 0, .key = -1},
    };
    const db_index_info_t indexes[2] = {{age_name, 2}, {city_age, 2}};
    db_property_key_t keys[P_MAX];
    db_class_info_t info;
    db_schema_t *schema;
    db_config_t *config;
    db_realm_t *realm;
    db_class_key_t cls;
    db_results_t *all, *doomed;
    db_value_t *values;
    char (*names)[24];
    unsigned char *payload = NULL;
    size_t n, payload_size = 0, num_props, start, created, deleted, expected, count, step, next_report;
    double started;
    struct stat st;
    char *end;
    int i;
    bool half = false;
    size_t commit_every = 0;

    while (argc > 1 && strncmp(argv[1], "--", 2) == 0) {
        if (strcmp(argv[1], "--delete-half") == 0) {
            half = true;
        } else if (strcmp(argv[1], "--commit-every") == 0 && argc > 2) {
            commit_every = strtoull(argv[2], &end, 10);
            if (*end || commit_every == 0) die("--commit-every takes a positive integer, not %s", argv[2]);
            argv++;
            argc--;
        } else {
            die("unknown option %s", argv[1]);
        }
        argv++;
        argc--;
    }
    if (argc < 3 || argc > 4) die("usage: large_write [--delete-half] [--commit-every K] N PATH [PAYLOAD_BYTES]");
    n = strtoull(argv[1], &end, 10);
    if (*end || n == 0) die("N must be a positive integer, not %s", argv[1]);
    if (argc == 4) {
        payload_size = strtoull(argv[3], &end, 10);
        if (*end) die("PAYLOAD_BYTES must be an integer, not %s", argv[3]);
    }
    if (stat(argv[2], &st) == 0) die("%s exists: give a path to a new file", argv[2]);
    num_props = payload_size ? P_MAX : P_PAYLOAD;

    memset(&info, 0, sizeof info);
    info.name = "Person";
    info.properties = props;
    info.num_properties = num_props;
    info.indexes = indexes;
    info.num_indexes = 2;
    schema = db_schema_new(&info, 1);
    check(schema != NULL, "db_schema_new");
    config = db_config_new(argv[2]);
    check(config != NULL, "db_config_new");
    check(db_config_set_schema(config, schema) == DB_OK, "db_config_set_schema");
    realm = db_realm_open(config);
    check(realm != NULL, "db_realm_open");
    db_config_release(config);
    db_schema_release(schema);
    check(db_realm_find_class(realm, "Person", &cls) == DB_OK, "db_realm_find_class");
    for (i = 0; i < (int)num_props; i++)
        check(db_realm_find_property(realm, cls, props[i].name, &keys[i]) == DB_OK, "db_realm_find_property");

    values = calloc(CHUNK * num_props, sizeof *values);
    names = calloc(CHUNK, sizeof *names);
    if (payload_size) payload = malloc(payload_size);
    if (!values || !names || (payload_size && !payload)) die("out of memory");
    for (start = 0; start < payload_size; start++) payload[start] = (unsigned char)mix(start);

    printf("large_write: N = %zu, payload %zu bytes, %s\n", n, payload_size, argv[2]);
    step = n / 10 ? n / 10 : n;
    started = now();
    report("opened", 0, started, argv[2]);
    check(db_realm_begin_write(realm) == DB_OK, "db_realm_begin_write");
    next_report = step;
    for (start = 0; start < n; start += CHUNK) {
        size_t chunk = n - start < CHUNK ? n - start : CHUNK, r;
        for (r = 0; r < chunk; r++) {
            uint64_t id = start + r, h = mix(id + 1);
            db_value_t *v = values + r * num_props;
            snprintf(names[r], sizeof names[r], "n%016llx", (unsigned long long)h);
            v[P_ID].type = DB_VALUE_INT;
            v[P_ID].integer = (int64_t)id;
            v[P_NAME].type = DB_VALUE_STRING;
            v[P_NAME].string.data = names[r];
            v[P_NAME].string.size = strlen(names[r]);
            v[P_AGE].type = DB_VALUE_INT;
            v[P_AGE].integer = (int64_t)(h % 90);
            v[P_SCORE].type = DB_VALUE_DOUBLE;
            v[P_SCORE].dnum = (double)(h % 10000) / 100.0;
            v[P_CITY].type = DB_VALUE_STRING;
            v[P_CITY].string.data = cities[h % 8];
            v[P_CITY].string.size = 4;
            if (payload_size) {
                v[P_PAYLOAD].type = DB_VALUE_DATA;
                v[P_PAYLOAD].binary.data = payload;
                v[P_PAYLOAD].binary.size = payload_size;
            }
        }
        check(db_object_create_many(realm, cls, keys, num_props, values, chunk, DB_UPSERT_NONE, &created) == DB_OK,
              "db_object_create_many");
        if (commit_every && (start + chunk) % commit_every < chunk && start + chunk < n) {
            check(db_realm_commit(realm) == DB_OK, "db_realm_commit");
            check(db_realm_begin_write(realm) == DB_OK, "db_realm_begin_write");
        }
        if (start + chunk >= next_report && start + chunk < n) {
            report(commit_every ? "inserting (transactions)" : "inserting (one transaction)", start + chunk, started, argv[2]);
            next_report += step;
        }
    }
    report("inserted, committing", n, started, argv[2]);
    check(db_realm_commit(realm) == DB_OK, "db_realm_commit");
    report("insert committed", n, started, argv[2]);

    all = db_results_from_class(realm, cls);
    check(all != NULL, "db_results_from_class");
    check(db_results_count(all, &count) == DB_OK && count == n, "count after insert");
    doomed = half ? db_results_filter(all, "age IN {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, "
                                           "41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63, 65, 67, 69, 71, 73, 75, 77, 79, 81, 83, "
                                           "85, 87, 89}", NULL, 0)
                  : all;
    check(doomed != NULL, "db_results_filter");
    check(db_results_count(doomed, &expected) == DB_OK, "count to delete");
    started = now();
    check(db_realm_begin_write(realm) == DB_OK, "db_realm_begin_write");
    check(db_results_delete_all(doomed, &deleted) == DB_OK && deleted == expected, "db_results_delete_all");
    report("deleted, committing", deleted, started, argv[2]);
    check(db_realm_commit(realm) == DB_OK, "db_realm_commit");
    report("delete committed", deleted, started, argv[2]);
    check(db_results_count(all, &count) == DB_OK && count == n - expected, "count after delete");
    if (doomed != all) db_results_release(doomed);
    db_results_release(all);
    db_realm_release(realm);
    report("closed", 0, started, argv[2]);
    free(values);
    free(names);
    free(payload);
    return 0;
}
