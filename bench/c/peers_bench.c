/*
 * The workload of ../shared/bench/peers.py, in C: realmdb through db.h and SQLite through its
 * C API, side by side in one run, each answer checked against the expected values.
 *
 *   python3 bench/c/export_workload.py --n 1000000 --out /tmp/workload.txt
 *   build/bench/peers_bench /tmp/workload.txt [scratch directory]
 *
 * (bench/run_c_bench.sh does all three steps.) SQLite is set up as the Python harness sets it up:
 * WAL, synchronous=NORMAL, indexes on name, (age, name) and (city, age), one transaction per
 * phase. realmdb declares the same indexes (name; compound (age, name) and (city, age)).
 *
 * Phases (as in peers.py): a bulk insert N in one transaction; b N/10 point reads by id, all
 * fields; c count age > 50; d ids with age 20..30 and city 'city_7'; e ids with name starting
 * 'ab'; f sum and average of score; g the first 100 by (age, name) with id, age and name;
 * h add 1.0 to every score in one transaction; i delete the even ids in one transaction;
 * j close, reopen and count. Queries c-g run 20 times; each run prepares its query anew (a
 * query string parsed by realmdb, a statement prepared by SQLite). Then, beyond peers.py: k 200
 * transactions that each create one object and commit durably (the median is reported; SQLite
 * switches to synchronous=FULL for it, realmdb's commit always syncs); the size of the files
 * after a and after i; the peak RSS of each engine, which runs in a child process of its own.
 *
 * Under `valgrind --tool=callgrind` (bench/run_c_bench.sh --callgrind) the phases a, b, h and i
 * are bracketed by client requests that zero the counters and dump them as "<engine>-<phase>";
 * run normally, those requests are a few instructions that do nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <db.h>
#include <sqlite3.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_DUMP_STATS_AT
/* No valgrind headers: the callgrind mode reports nothing, the timed run is the same. */
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#define QUERY_REPEATS 20
#define TOP 100
#define COMMITS 200

/* ---- the workload -------------------------------------------------------------------------- */

typedef struct row {
    int64_t id;
    char *name;
    int64_t age;
    double score;
    char *city;
} row_t;

typedef struct expected {
    int64_t c, d_count, d_sum, e_count, e_sum;
    double f_sum;
    int64_t g_id, g_age;
    char g_name[64];
} expected_t;

typedef struct workload {
    size_t n;
    row_t *rows;
    int64_t *reads;
    size_t num_reads;
    expected_t expect;
} workload_t;

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "peers_bench: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    exit(1);
}

/* dir + "/" + name into out, or exit when it does not fit. */
static void join_path(char *out, size_t size, const char *dir, const char *name) {
    int written = snprintf(out, size, "%s/%s", dir, name);
    if (written < 0 || (size_t)written >= size) die("path too long: %s/%s", dir, name);
}

static char *copy_field(const char *text) {
    char *copy = strdup(text);
    if (!copy) die("out of memory");
    return copy;
}

static void load_workload(const char *path, workload_t *w) {
    FILE *file = fopen(path, "r");
    char line[512];
    size_t rows = 0, reads = 0;
    if (!file) die("cannot open %s", path);
    memset(w, 0, sizeof *w);
    while (fgets(line, sizeof line, file)) {
        char *fields[10];
        size_t count = 0;
        char *save = NULL, *token;
        line[strcspn(line, "\n")] = '\0';
        for (token = strtok_r(line, "\t", &save); token && count < 10; token = strtok_r(NULL, "\t", &save))
            fields[count++] = token;
        if (count == 2 && strcmp(fields[0], "n") == 0) {
            w->n = (size_t)strtoull(fields[1], NULL, 10);
            w->rows = calloc(w->n, sizeof(row_t));
            w->reads = calloc(w->n / 10 + 1, sizeof(int64_t));
            if (!w->rows || !w->reads) die("out of memory");
        } else if (count == 6 && strcmp(fields[0], "row") == 0 && rows < w->n) {
            row_t *r = &w->rows[rows++];
            r->id = strtoll(fields[1], NULL, 10);
            r->name = copy_field(fields[2]);
            r->age = strtoll(fields[3], NULL, 10);
            r->score = strtod(fields[4], NULL);
            r->city = copy_field(fields[5]);
        } else if (count == 2 && strcmp(fields[0], "read") == 0 && reads < w->n / 10 + 1) {
            w->reads[reads++] = strtoll(fields[1], NULL, 10);
        } else if (count == 10 && strcmp(fields[0], "expect") == 0) {
            expected_t *e = &w->expect;
            e->c = strtoll(fields[1], NULL, 10);
            e->d_count = strtoll(fields[2], NULL, 10);
            e->d_sum = strtoll(fields[3], NULL, 10);
            e->e_count = strtoll(fields[4], NULL, 10);
            e->e_sum = strtoll(fields[5], NULL, 10);
            e->f_sum = strtod(fields[6], NULL);
            e->g_id = strtoll(fields[7], NULL, 10);
            e->g_age = strtoll(fields[8], NULL, 10);
            snprintf(e->g_name, sizeof e->g_name, "%s", fields[9]);
        } else {
            die("%s: unexpected line starting '%s'", path, count ? fields[0] : "");
        }
    }
    fclose(file);
    if (rows != w->n || w->n == 0) die("%s: expected %zu rows, read %zu", path, w->n, rows);
    w->num_reads = reads;
}

/* ---- measuring ----------------------------------------------------------------------------- */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Size of a file in bytes; 0 when it does not exist (SQLite's -wal may not). */
static int64_t file_size(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) return (int64_t)st.st_size;
    if (errno != ENOENT) die("cannot stat %s", path);
    return 0;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of count values (sorts them). */
static double median(double *values, size_t count) {
    qsort(values, count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* Brackets a phase whose instructions the callgrind mode counts: zero the counters at its start,
 * dump them as "<engine>-<letter>" at its end (no-ops when not under valgrind). */
#define COUNT_START() CALLGRIND_ZERO_STATS
#define COUNT_END(engine, letter) CALLGRIND_DUMP_STATS_AT(engine "-" letter)

enum { PHASE_COUNT = 11 };
static const char *const phase_names[PHASE_COUNT] = {
    "a bulk insert N (1 write tx)", "b N/10 point reads by id", "c count age > 50 (x20)",
    "d age 20..30 AND city=='city_7' -> ids (x20)", "e name BEGINSWITH 'ab' -> ids (x20)",
    "f sum+avg(score) (x20)", "g sort age,name take 100 (x20)", "h update every score (1 write tx)",
    "i delete even ids, N/2 (1 write tx)", "j close + reopen + count",
    "k 1-object write commit, fsync (median of 200)",
};

/* What one engine measured: seconds per phase (k: the median commit), the answers, checked
 * afterwards, the size of its files after a and after i, and its peak RSS. */
typedef struct measured {
    double seconds[PHASE_COUNT];
    int64_t read_age_sum;
    double read_score_sum;
    int64_t c, d_count, d_sum, e_count, e_sum;
    double f_sum, f_avg, sum_after_update;
    int64_t g_count, g_id, g_age;
    char g_name[64];
    int64_t updated, deleted, count_after, count_after_commits;
    int64_t bytes_after_insert, bytes_after_delete;
    long peak_rss_kib;
} measured_t;

/* ---- realmdb --------------------------------------------------------------------------------- */

enum { P_ID, P_NAME, P_AGE, P_SCORE, P_CITY, P_COUNT };

typedef struct realm_bench {
    char path[4096];
    db_realm_t *realm;
    db_class_key_t cls;
    db_property_key_t key[P_COUNT];
} realm_bench_t;

static void db_check(bool ok, const char *what) {
    db_error_t error;
    if (ok) return;
    db_get_last_error(&error);
    die("realmdb: %s failed: %s", what, error.message ? error.message : "(no message)");
}

static void realm_open(realm_bench_t *b) {
    static const db_property_info_t props[P_COUNT] = {
        {.name = "id", .type = DB_PROPERTY_TYPE_INT, .flags = DB_PROPERTY_FLAG_PRIMARY_KEY, .key = -1},
        {.name = "name", .type = DB_PROPERTY_TYPE_STRING, .flags = DB_PROPERTY_FLAG_INDEXED, .key = -1},
        {.name = "age", .type = DB_PROPERTY_TYPE_INT, .flags = 0, .key = -1},
        {.name = "score", .type = DB_PROPERTY_TYPE_DOUBLE, .flags = 0, .key = -1},
        {.name = "city", .type = DB_PROPERTY_TYPE_STRING, .flags = 0, .key = -1},
    };
    static const char *const age_name[] = {"age", "name"}, *const city_age[] = {"city", "age"};
    const db_index_info_t indexes[2] = {{age_name, 2}, {city_age, 2}};
    db_class_info_t info;
    db_schema_t *schema;
    db_config_t *config;
    int i;
    memset(&info, 0, sizeof info);
    info.name = "Person";
    info.properties = props;
    info.num_properties = P_COUNT;
    info.indexes = indexes;
    info.num_indexes = 2;
    schema = db_schema_new(&info, 1);
    db_check(schema != NULL, "db_schema_new");
    config = db_config_new(b->path);
    db_check(config != NULL, "db_config_new");
    db_check(db_config_set_schema(config, schema) == DB_OK, "db_config_set_schema");
    b->realm = db_realm_open(config);
    db_check(b->realm != NULL, "db_realm_open");
    db_config_release(config);
    db_schema_release(schema);
    db_check(db_realm_find_class(b->realm, "Person", &b->cls) == DB_OK, "db_realm_find_class");
    for (i = 0; i < P_COUNT; i++)
        db_check(db_realm_find_property(b->realm, b->cls, props[i].name, &b->key[i]) == DB_OK, "db_realm_find_property");
}

static db_value_t int_value(int64_t v) { db_value_t x; memset(&x, 0, sizeof x); x.type = DB_VALUE_INT; x.integer = v; return x; }
static db_value_t double_value(double v) { db_value_t x; memset(&x, 0, sizeof x); x.type = DB_VALUE_DOUBLE; x.dnum = v; return x; }
static db_value_t string_value(const char *s) {
    db_value_t x;
    memset(&x, 0, sizeof x);
    x.type = DB_VALUE_STRING;
    x.string.data = s;
    x.string.size = strlen(s);
    return x;
}

static void realm_insert(realm_bench_t *b, const workload_t *w) {
    enum { CHUNK = 65536 };
    db_value_t *values = malloc(sizeof(db_value_t) * P_COUNT * CHUNK);
    size_t start, created;
    if (!values) die("out of memory");
    db_check(db_realm_begin_write(b->realm) == DB_OK, "begin_write");
    for (start = 0; start < w->n; start += CHUNK) {
        size_t count = w->n - start < CHUNK ? w->n - start : CHUNK, i;
        for (i = 0; i < count; i++) {
            const row_t *r = &w->rows[start + i];
            db_value_t *v = values + i * P_COUNT;
            v[P_ID] = int_value(r->id);
            v[P_NAME] = string_value(r->name);
            v[P_AGE] = int_value(r->age);
            v[P_SCORE] = double_value(r->score);
            v[P_CITY] = string_value(r->city);
        }
        db_check(db_object_create_many(b->realm, b->cls, b->key, P_COUNT, values, count, DB_UPSERT_NONE, &created) == DB_OK,
                 "db_object_create_many");
    }
    db_check(db_realm_commit(b->realm) == DB_OK, "commit");
    free(values);
}

static db_results_t *realm_query(realm_bench_t *b, const char *query, const db_value_t *args, size_t num_args) {
    db_query_arg_t query_args[4];
    db_results_t *all = db_results_from_class(b->realm, b->cls), *filtered;
    size_t i;
    db_check(all != NULL, "db_results_from_class");
    for (i = 0; i < num_args; i++) {
        query_args[i].num_values = 1;
        query_args[i].is_list = false;
        query_args[i].values = &args[i];
    }
    filtered = db_results_filter(all, query, query_args, num_args);
    db_check(filtered != NULL, query);
    db_results_release(all);
    return filtered;
}

/* The ids of the results: count and sum (read in batches, as a binding would). */
static void realm_ids(realm_bench_t *b, const db_results_t *results, int64_t *count, int64_t *sum) {
    db_value_t values[1024];
    size_t start = 0, got, total, i;
    db_check(db_results_count(results, &total) == DB_OK, "db_results_count");
    *count = 0;
    *sum = 0;
    while (start < total) {
        db_check(db_results_get_values(results, b->key[P_ID], start, 1024, values, &got) == DB_OK, "db_results_get_values");
        for (i = 0; i < got; i++) *sum += values[i].integer;
        *count += (int64_t)got;
        start += got;
    }
}

static void run_realmdb(const workload_t *w, const char *dir, measured_t *m) {
    realm_bench_t b;
    double t;
    int rep;
    size_t i;
    memset(&b, 0, sizeof b);
    memset(m, 0, sizeof *m);
    join_path(b.path, sizeof b.path, dir, "bench.realm");
    realm_open(&b);

    t = now();
    COUNT_START();
    realm_insert(&b, w);
    COUNT_END("realmdb", "a");
    m->seconds[0] = now() - t;
    m->bytes_after_insert = file_size(b.path);

    t = now();
    COUNT_START();
    for (i = 0; i < w->num_reads; i++) {
        /* The lookup and the read in one call, the strings copied into `text` (no handle). */
        db_value_t pk = int_value(w->reads[i]), values[P_COUNT];
        db_object_key_t key;
        char text[256];
        bool found = false;
        db_check(db_object_get_values_by_primary_key(b.realm, b.cls, &pk, b.key, P_COUNT, values, text, sizeof text,
                                                     &key, &found) == DB_OK, "db_object_get_values_by_primary_key");
        if (!found) die("realmdb: id %lld not found", (long long)w->reads[i]);
        m->read_age_sum += values[P_AGE].integer;
        m->read_score_sum += values[P_SCORE].dnum;
    }
    COUNT_END("realmdb", "b");
    m->seconds[1] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        db_value_t age = int_value(50);
        db_results_t *r = realm_query(&b, "age > $0", &age, 1);
        size_t count;
        db_check(db_results_count(r, &count) == DB_OK, "count");
        m->c = (int64_t)count;
        db_results_release(r);
    }
    COUNT_END("realmdb", "c");
    m->seconds[2] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        db_value_t args[3];
        db_results_t *r;
        args[0] = int_value(20);
        args[1] = int_value(30);
        args[2] = string_value("city_7");
        r = realm_query(&b, "age BETWEEN {$0, $1} AND city == $2", args, 3);
        realm_ids(&b, r, &m->d_count, &m->d_sum);
        db_results_release(r);
    }
    COUNT_END("realmdb", "d");
    m->seconds[3] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        db_value_t prefix = string_value("ab");
        db_results_t *r = realm_query(&b, "name BEGINSWITH $0", &prefix, 1);
        realm_ids(&b, r, &m->e_count, &m->e_sum);
        db_results_release(r);
    }
    COUNT_END("realmdb", "e");
    m->seconds[4] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        db_results_t *r = db_results_from_class(b.realm, b.cls);
        db_value_t sum, avg;
        bool found;
        db_check(r != NULL, "from_class");
        db_check(db_results_aggregate(r, b.key[P_SCORE], DB_AGGREGATE_SUM, &sum, &found) == DB_OK, "sum");
        db_check(db_results_aggregate(r, b.key[P_SCORE], DB_AGGREGATE_AVERAGE, &avg, &found) == DB_OK, "average");
        m->f_sum = sum.dnum;
        m->f_avg = avg.dnum;
        db_results_release(r);
    }
    COUNT_END("realmdb", "f");
    m->seconds[5] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        db_sort_key_t keys[2] = {{0, true}, {0, true}};
        db_results_t *all = db_results_from_class(b.realm, b.cls), *sorted, *top;
        db_value_t ids[TOP], ages[TOP], names[TOP];
        size_t got;
        keys[0].property_key = b.key[P_AGE];
        keys[1].property_key = b.key[P_NAME];
        sorted = db_results_sort(all, keys, 2);
        top = db_results_limit(sorted, TOP);
        db_check(top != NULL, "sort + limit");
        db_check(db_results_get_values(top, b.key[P_ID], 0, TOP, ids, &got) == DB_OK, "ids");
        db_check(db_results_get_values(top, b.key[P_AGE], 0, TOP, ages, &got) == DB_OK, "ages");
        db_check(db_results_get_values(top, b.key[P_NAME], 0, TOP, names, &got) == DB_OK, "names");
        m->g_count = (int64_t)got;
        if (got) {
            m->g_id = ids[0].integer;
            m->g_age = ages[0].integer;
            snprintf(m->g_name, sizeof m->g_name, "%.*s", (int)names[0].string.size, names[0].string.data);
        }
        db_results_release(top);
        db_results_release(sorted);
        db_results_release(all);
    }
    COUNT_END("realmdb", "g");
    m->seconds[6] = now() - t;

    t = now();
    {
        /* Read the scores in batches, add 1.0, write them back in batches (positions are stable:
         * the results are unsorted and the write does not change membership). */
        enum { BATCH = 65536 };
        db_results_t *all;
        db_value_t *scores = malloc(sizeof(db_value_t) * BATCH);
        size_t start = 0, got, total, j;
        COUNT_START();
        all = db_results_from_class(b.realm, b.cls);
        if (!scores) die("out of memory");
        db_check(all != NULL, "from_class");
        db_check(db_realm_begin_write(b.realm) == DB_OK, "begin_write");
        db_check(db_results_count(all, &total) == DB_OK, "count");
        while (start < total) {
            db_check(db_results_get_values(all, b.key[P_SCORE], start, BATCH, scores, &got) == DB_OK, "get_values");
            for (j = 0; j < got; j++) scores[j].dnum += 1.0;
            db_check(db_results_set_values(all, b.key[P_SCORE], start, scores, got) == DB_OK, "set_values");
            start += got;
        }
        db_check(db_realm_commit(b.realm) == DB_OK, "commit");
        m->updated = (int64_t)total;
        free(scores);
        db_results_release(all);
        COUNT_END("realmdb", "h");
    }
    m->seconds[7] = now() - t;
    {
        db_results_t *all = db_results_from_class(b.realm, b.cls);
        db_value_t sum;
        bool found;
        db_check(db_results_aggregate(all, b.key[P_SCORE], DB_AGGREGATE_SUM, &sum, &found) == DB_OK, "sum");
        m->sum_after_update = sum.dnum;
        db_results_release(all);
    }

    t = now();
    COUNT_START();
    db_check(db_realm_begin_write(b.realm) == DB_OK, "begin_write");
    for (i = 2; i <= w->n; i += 2) {
        db_value_t pk = int_value((int64_t)i);
        bool found = false;
        db_object_t *object = db_object_find_with_primary_key(b.realm, b.cls, &pk, &found);
        if (!object || !found) die("realmdb: id %zu not found for delete", i);
        db_check(db_object_delete(object) == DB_OK, "delete");
        db_object_release(object);
        m->deleted++;
    }
    db_check(db_realm_commit(b.realm) == DB_OK, "commit");
    COUNT_END("realmdb", "i");
    m->seconds[8] = now() - t;
    m->bytes_after_delete = file_size(b.path);

    t = now();
    {
        size_t count;
        db_realm_release(b.realm);
        realm_open(&b);
        db_check(db_realm_count_objects(b.realm, b.cls, &count) == DB_OK, "count_objects");
        m->count_after = (int64_t)count;
    }
    m->seconds[9] = now() - t;

    {
        /* k: one object created per transaction, each commit durable. */
        double times[COMMITS];
        size_t count;
        int k;
        for (k = 0; k < COMMITS; k++) {
            char name[32];
            db_value_t values[P_COUNT];
            db_object_t *object;
            snprintf(name, sizeof name, "commit_%d", k);
            values[P_ID] = int_value((int64_t)w->n + 1 + k);
            values[P_NAME] = string_value(name);
            values[P_AGE] = int_value(k % 100);
            values[P_SCORE] = double_value(0.5);
            values[P_CITY] = string_value("city_0");
            t = now();
            db_check(db_realm_begin_write(b.realm) == DB_OK, "begin_write");
            object = db_object_create(b.realm, b.cls, b.key, values, P_COUNT, DB_UPSERT_NONE);
            db_check(object != NULL, "db_object_create");
            db_object_release(object);
            db_check(db_realm_commit(b.realm) == DB_OK, "commit");
            times[k] = now() - t;
        }
        m->seconds[10] = median(times, COMMITS);
        db_check(db_realm_count_objects(b.realm, b.cls, &count) == DB_OK, "count_objects");
        m->count_after_commits = (int64_t)count;
    }
    db_realm_release(b.realm);
}

/* ---- SQLite ---------------------------------------------------------------------------------- */

static void sql_check(sqlite3 *db, int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) die("sqlite: %s failed: %s", what, sqlite3_errmsg(db));
}

static void sql_exec(sqlite3 *db, const char *sql) { sql_check(db, sqlite3_exec(db, sql, NULL, NULL, NULL), sql); }

static sqlite3_stmt *sql_prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = NULL;
    sql_check(db, sqlite3_prepare_v2(db, sql, -1, &statement, NULL), sql);
    return statement;
}

static sqlite3 *sql_open(const char *path) {
    sqlite3 *db = NULL;
    if (sqlite3_open(path, &db) != SQLITE_OK) die("sqlite: cannot open %s", path);
    sql_exec(db, "PRAGMA journal_mode=WAL");
    sql_exec(db, "PRAGMA synchronous=NORMAL");
    return db;
}

/* Steps a statement selecting ids to the end: count and sum; then finalizes it. */
static void sql_ids(sqlite3_stmt *statement, int64_t *count, int64_t *sum) {
    *count = 0;
    *sum = 0;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        (*count)++;
        *sum += sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
}

static void run_sqlite(const workload_t *w, const char *dir, measured_t *m) {
    char path[4096], wal_path[4200];
    sqlite3 *db;
    sqlite3_stmt *s;
    double t;
    int rep;
    size_t i;
    memset(m, 0, sizeof *m);
    join_path(path, sizeof path, dir, "bench.sqlite");
    snprintf(wal_path, sizeof wal_path, "%s-wal", path);
    db = sql_open(path);
    sql_exec(db, "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL, "
                 "score REAL NOT NULL, city TEXT NOT NULL);"
                 "CREATE INDEX idx_age_name ON person(age, name);"
                 "CREATE INDEX idx_city_age ON person(city, age);"
                 "CREATE INDEX idx_name ON person(name);");

    t = now();
    COUNT_START();
    sql_exec(db, "BEGIN");
    s = sql_prepare(db, "INSERT INTO person(id, name, age, score, city) VALUES (?,?,?,?,?)");
    for (i = 0; i < w->n; i++) {
        const row_t *r = &w->rows[i];
        sqlite3_bind_int64(s, 1, r->id);
        sqlite3_bind_text(s, 2, r->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 3, r->age);
        sqlite3_bind_double(s, 4, r->score);
        sqlite3_bind_text(s, 5, r->city, -1, SQLITE_STATIC);
        sql_check(db, sqlite3_step(s), "insert");
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    sql_exec(db, "COMMIT");
    COUNT_END("sqlite", "a");
    m->seconds[0] = now() - t;
    m->bytes_after_insert = file_size(path) + file_size(wal_path);

    t = now();
    COUNT_START();
    sql_exec(db, "BEGIN");
    s = sql_prepare(db, "SELECT id, name, age, score, city FROM person WHERE id=?");
    for (i = 0; i < w->num_reads; i++) {
        sqlite3_bind_int64(s, 1, w->reads[i]);
        if (sqlite3_step(s) != SQLITE_ROW) die("sqlite: id %lld not found", (long long)w->reads[i]);
        (void)sqlite3_column_text(s, 1);
        m->read_age_sum += sqlite3_column_int64(s, 2);
        m->read_score_sum += sqlite3_column_double(s, 3);
        (void)sqlite3_column_text(s, 4);
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    sql_exec(db, "COMMIT");
    COUNT_END("sqlite", "b");
    m->seconds[1] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        sql_exec(db, "BEGIN");
        s = sql_prepare(db, "SELECT COUNT(*) FROM person WHERE age > ?");
        sqlite3_bind_int64(s, 1, 50);
        sql_check(db, sqlite3_step(s), "count");
        m->c = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        sql_exec(db, "COMMIT");
    }
    COUNT_END("sqlite", "c");
    m->seconds[2] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        sql_exec(db, "BEGIN");
        s = sql_prepare(db, "SELECT id FROM person WHERE city = ? AND age BETWEEN ? AND ?");
        sqlite3_bind_text(s, 1, "city_7", -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, 20);
        sqlite3_bind_int64(s, 3, 30);
        sql_ids(s, &m->d_count, &m->d_sum);
        sql_exec(db, "COMMIT");
    }
    COUNT_END("sqlite", "d");
    m->seconds[3] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        sql_exec(db, "BEGIN");
        s = sql_prepare(db, "SELECT id FROM person WHERE name GLOB ?");
        sqlite3_bind_text(s, 1, "ab*", -1, SQLITE_STATIC);
        sql_ids(s, &m->e_count, &m->e_sum);
        sql_exec(db, "COMMIT");
    }
    COUNT_END("sqlite", "e");
    m->seconds[4] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        sql_exec(db, "BEGIN");
        s = sql_prepare(db, "SELECT SUM(score), AVG(score) FROM person");
        sql_check(db, sqlite3_step(s), "sum");
        m->f_sum = sqlite3_column_double(s, 0);
        m->f_avg = sqlite3_column_double(s, 1);
        sqlite3_finalize(s);
        sql_exec(db, "COMMIT");
    }
    COUNT_END("sqlite", "f");
    m->seconds[5] = now() - t;

    t = now();
    COUNT_START();
    for (rep = 0; rep < QUERY_REPEATS; rep++) {
        sql_exec(db, "BEGIN");
        s = sql_prepare(db, "SELECT id, age, name FROM person ORDER BY age, name LIMIT ?");
        sqlite3_bind_int64(s, 1, TOP);
        m->g_count = 0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            if (m->g_count++ == 0) {
                m->g_id = sqlite3_column_int64(s, 0);
                m->g_age = sqlite3_column_int64(s, 1);
                snprintf(m->g_name, sizeof m->g_name, "%s", (const char *)sqlite3_column_text(s, 2));
            }
        }
        sqlite3_finalize(s);
        sql_exec(db, "COMMIT");
    }
    COUNT_END("sqlite", "g");
    m->seconds[6] = now() - t;

    t = now();
    COUNT_START();
    sql_exec(db, "BEGIN");
    s = sql_prepare(db, "UPDATE person SET score = score + ?");
    sqlite3_bind_double(s, 1, 1.0);
    sql_check(db, sqlite3_step(s), "update");
    m->updated = sqlite3_changes(db);
    sqlite3_finalize(s);
    sql_exec(db, "COMMIT");
    COUNT_END("sqlite", "h");
    m->seconds[7] = now() - t;
    s = sql_prepare(db, "SELECT SUM(score) FROM person");
    sql_check(db, sqlite3_step(s), "sum");
    m->sum_after_update = sqlite3_column_double(s, 0);
    sqlite3_finalize(s);

    t = now();
    COUNT_START();
    sql_exec(db, "BEGIN");
    s = sql_prepare(db, "DELETE FROM person WHERE id=?");
    for (i = 2; i <= w->n; i += 2) {
        sqlite3_bind_int64(s, 1, (sqlite3_int64)i);
        sql_check(db, sqlite3_step(s), "delete");
        sqlite3_reset(s);
        m->deleted++;
    }
    sqlite3_finalize(s);
    sql_exec(db, "COMMIT");
    COUNT_END("sqlite", "i");
    m->seconds[8] = now() - t;
    m->bytes_after_delete = file_size(path) + file_size(wal_path);

    t = now();
    sqlite3_close(db);
    db = sql_open(path);
    s = sql_prepare(db, "SELECT COUNT(*) FROM person");
    sql_check(db, sqlite3_step(s), "count");
    m->count_after = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    m->seconds[9] = now() - t;

    {
        /* k: one row inserted per transaction, each commit durable (synchronous=FULL syncs the
         * WAL at every commit; NORMAL, used above as in peers.py, would not). */
        double times[COMMITS];
        int k;
        sql_exec(db, "PRAGMA synchronous=FULL");
        s = sql_prepare(db, "INSERT INTO person(id, name, age, score, city) VALUES (?,?,?,?,?)");
        for (k = 0; k < COMMITS; k++) {
            char name[32];
            snprintf(name, sizeof name, "commit_%d", k);
            t = now();
            sql_exec(db, "BEGIN");
            sqlite3_bind_int64(s, 1, (sqlite3_int64)w->n + 1 + k);
            sqlite3_bind_text(s, 2, name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 3, k % 100);
            sqlite3_bind_double(s, 4, 0.5);
            sqlite3_bind_text(s, 5, "city_0", -1, SQLITE_STATIC);
            sql_check(db, sqlite3_step(s), "insert");
            sqlite3_reset(s);
            sql_exec(db, "COMMIT");
            times[k] = now() - t;
        }
        sqlite3_finalize(s);
        m->seconds[10] = median(times, COMMITS);
        s = sql_prepare(db, "SELECT COUNT(*) FROM person");
        sql_check(db, sqlite3_step(s), "count");
        m->count_after_commits = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
}

/* ---- checking and reporting --------------------------------------------------------------- */

static int failures = 0;

static void expect(bool ok, const char *engine, const char *what) {
    if (ok) return;
    fprintf(stderr, "peers_bench: %s: wrong answer for %s\n", engine, what);
    failures++;
}

static bool close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b))); }

static void check(const char *engine, const measured_t *m, const workload_t *w, const measured_t *reference) {
    const expected_t *e = &w->expect;
    size_t n = w->n;
    expect(m->c == e->c, engine, "c (count)");
    expect(m->d_count == e->d_count && m->d_sum == e->d_sum, engine, "d (ids)");
    expect(m->e_count == e->e_count && m->e_sum == e->e_sum, engine, "e (ids)");
    expect(close_to(m->f_sum, e->f_sum) && close_to(m->f_avg, e->f_sum / (double)n), engine, "f (sum, average)");
    expect(m->g_count == TOP || m->g_count == (int64_t)n, engine, "g (count)");
    expect(m->g_id == e->g_id && m->g_age == e->g_age && strcmp(m->g_name, e->g_name) == 0, engine, "g (first row)");
    expect(m->updated == (int64_t)n && close_to(m->sum_after_update, e->f_sum + (double)n), engine, "h (update)");
    expect(m->deleted == (int64_t)(n / 2) && m->count_after == (int64_t)(n - n / 2), engine, "i/j (delete, count)");
    expect(m->count_after_commits == (int64_t)(n - n / 2) + COMMITS, engine, "k (count after the commits)");
    if (reference)
        expect(m->read_age_sum == reference->read_age_sum && close_to(m->read_score_sum, reference->read_score_sum),
               engine, "b (point reads differ between engines)");
}

/* Throughput for bulk phases, milliseconds per query for queries. */
static void print_row(int phase, const workload_t *w, const measured_t *ours, const measured_t *sqlite) {
    double work, a, b;
    const char *unit;
    switch (phase) {
    case 0: case 7: work = (double)w->n; unit = "obj/s"; break;
    case 8: work = (double)(w->n / 2); unit = "obj/s"; break;
    case 1: work = (double)w->num_reads; unit = "reads/s"; break;
    case 9: case 10: work = 0; unit = "ms"; break;
    default: work = -QUERY_REPEATS; unit = "ms/query"; break;
    }
    if (work > 0) {
        a = work / ours->seconds[phase];
        b = work / sqlite->seconds[phase];
        printf("| %-46s | %12.0f | %12.0f | %-8s | %6.2fx |\n", phase_names[phase], a, b, unit, a / b);
    } else {
        double scale = work < 0 ? 1000.0 / -work : 1000.0;
        a = ours->seconds[phase] * scale;
        b = sqlite->seconds[phase] * scale;
        printf("| %-46s | %12.3f | %12.3f | %-8s | %6.2fx |\n", phase_names[phase], a, b, unit, b / a);
    }
}

/* A size in MiB, with the ratio sqlite / realmdb (above 1: realmdb is smaller). */
static void print_size_row(const char *name, double ours_bytes, double sqlite_bytes) {
    const double mib = 1024.0 * 1024.0;
    printf("| %-46s | %12.1f | %12.1f | %-8s | %6.2fx |\n", name, ours_bytes / mib, sqlite_bytes / mib, "MiB",
           sqlite_bytes / ours_bytes);
}

/* The anonymous resident memory of this process (Linux: RssAnon in /proc/self/status), in KiB;
 * -1 when unknown. */
static long anonymous_rss_kib(void) {
    FILE *file = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!file) return -1;
    while (fgets(line, sizeof line, file))
        if (strncmp(line, "RssAnon:", 8) == 0) kib = strtol(line + 8, NULL, 10);
    fclose(file);
    return kib;
}

typedef void (*engine_run_t)(const workload_t *, const char *, measured_t *);

/* Runs one engine in a child process of its own, so that its peak RSS is its own (plus the
 * workload the child inherits), and copies back what it measured through a pipe. */
static void run_in_child(engine_run_t run, const char *engine, const workload_t *w, const char *dir, measured_t *m) {
    int fds[2], status;
    pid_t pid;
    size_t got = 0;
    if (pipe(fds) != 0) die("pipe failed");
    fflush(NULL);
    pid = fork();
    if (pid < 0) die("fork failed");
    if (pid == 0) {
        struct rusage usage;
        const char *bytes = (const char *)m;
        size_t sent = 0;
        close(fds[0]);
        run(w, dir, m);
        getrusage(RUSAGE_SELF, &usage);
        m->peak_rss_kib = usage.ru_maxrss;
        while (sent < sizeof *m) {
            ssize_t n = write(fds[1], bytes + sent, sizeof *m - sent);
            if (n <= 0) _exit(1);
            sent += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    while (got < sizeof *m) {
        ssize_t n = read(fds[0], (char *)m + got, sizeof *m - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) die("waitpid failed");
    if (got != sizeof *m || !WIFEXITED(status) || WEXITSTATUS(status) != 0) die("the %s run failed", engine);
}

int main(int argc, char **argv) {
    workload_t w;
    measured_t ours, sqlite;
    char dir[2048];
    char template_path[2000];
    long driver_kib;
    int phase;
    if (argc < 2) {
        fprintf(stderr, "usage: %s WORKLOAD [SCRATCH_DIR]\n(write WORKLOAD with bench/c/export_workload.py)\n", argv[0]);
        return 2;
    }
    load_workload(argv[1], &w);
    driver_kib = anonymous_rss_kib();
    join_path(template_path, sizeof template_path, argc > 2 ? argv[2] : "/tmp", "peers-bench-XXXXXX");
    if (!mkdtemp(template_path)) die("cannot create a directory under %s", argc > 2 ? argv[2] : "/tmp");
    join_path(dir, sizeof dir, template_path, ".");

    fprintf(stderr, "realmdb %s, SQLite %s, N = %zu\n", db_library_version_string(), sqlite3_libversion(), w.n);
    run_in_child(run_realmdb, "realmdb", &w, dir, &ours);
    run_in_child(run_sqlite, "sqlite", &w, dir, &sqlite);
    check("realmdb", &ours, &w, NULL);
    check("sqlite", &sqlite, &w, &ours);

    printf("| phase (N = %zu) | realmdb | sqlite | unit | realmdb vs sqlite |\n", w.n);
    printf("|---|---:|---:|---|---:|\n");
    for (phase = 0; phase < PHASE_COUNT; phase++) print_row(phase, &w, &ours, &sqlite);
    print_size_row("files after a (insert)", (double)ours.bytes_after_insert, (double)sqlite.bytes_after_insert);
    print_size_row("files after i (delete)", (double)ours.bytes_after_delete, (double)sqlite.bytes_after_delete);
    print_size_row("peak RSS of the engine's process", (double)ours.peak_rss_kib * 1024.0,
                   (double)sqlite.peak_rss_kib * 1024.0);
    printf("\nRatios above 1 mean realmdb is faster (in the MiB rows: smaller). Every answer was checked against "
           "peers.py's oracle%s.\n",
           failures ? " and SOME WERE WRONG (see stderr)" : "");
    printf("SQLite runs as peers.py sets it up (WAL, synchronous=NORMAL), except in k: synchronous=FULL, so that "
           "each commit syncs the WAL; every realmdb commit syncs. k creates one object per transaction, after j.\n");
    printf("Files: realmdb's .realm file (not its -lock); SQLite's database plus its -wal (not -shm); apparent "
           "sizes, just after the phase's commit, the database open.\n");
    printf("Peak RSS: ru_maxrss of the child process that ran the engine alone; it includes the workload rows the "
           "child inherits from the driver (the driver's anonymous RSS before forking: %.1f MiB).\n",
           (double)driver_kib / 1024.0);

    {
        char command[2100];
        int written = snprintf(command, sizeof command, "rm -rf '%s'", template_path);
        if (written < 0 || (size_t)written >= sizeof command || system(command) != 0) fprintf(stderr, "peers_bench: could not remove %s\n", dir);
    }
    return failures ? 1 : 0;
}
