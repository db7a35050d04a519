/*
 * Queries and results (db_results_*): from_class, filter with arguments (lists
 * for IN), query errors with their byte offsets, sort, distinct, limit,
 * snapshot, count, get, index_of, index_matching, aggregates, batch reads of values and keys,
 * set_value, delete_all, liveness, and every error path: NULL handles and
 * outputs, unknown property keys, out-of-range positions, wrong types, writes
 * outside a write transaction, and use after the realm is closed.
 */
#include "fixtures.h"

/* ---- the Item class ------------------------------------------------------ */

static const db_property_info_t item_props[] = {
    FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY),
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0),
    FX_PROP("age", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_NULLABLE | DB_PROPERTY_FLAG_INDEXED),
    FX_PROP("score", DB_PROPERTY_TYPE_DOUBLE, 0),
    FX_PROP("city", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_INDEXED),
    FX_PROP("born", DB_PROPERTY_TYPE_TIMESTAMP, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("ratio", DB_PROPERTY_TYPE_FLOAT, 0),
    FX_PROP("flag", DB_PROPERTY_TYPE_BOOL, 0),
    FX_PROP("price", DB_PROPERTY_TYPE_DECIMAL128, DB_PROPERTY_FLAG_NULLABLE),
};
#define ITEM_PROPS 9

typedef struct items {
    db_realm_t *realm;
    db_class_key_t cls;
    db_property_key_t key[ITEM_PROPS]; /* in item_props order */
} items_t;

enum { ID, NAME, AGE, SCORE, CITY, BORN, RATIO, FLAG, PRICE };

#define BASE_TIME 1700000000

/* Item i: id i, name "item<i>", age null when i % 4 == 1 else 20 + i, score 1.5 i, city "city<i % 3>",
 * born null when i % 5 == 0 else BASE_TIME + i, ratio 0.25 i, flag i even, price null. */
static int64_t item_age(int i) { return 20 + i; }
static bool item_age_null(int i) { return i % 4 == 1; }

static void add_items(items_t *t, int first, int count) {
    db_value_t *values = (db_value_t *)calloc((size_t)count * 8, sizeof(db_value_t));
    char (*names)[16] = (char (*)[16])calloc((size_t)count, 16);
    char (*cities)[16] = (char (*)[16])calloc((size_t)count, 16);
    size_t created = 0;
    int j;
    REQUIRE(values && names && cities);
    for (j = 0; j < count; j++) {
        int i = first + j;
        db_value_t *row = values + (size_t)j * 8;
        snprintf(names[j], 16, "item%d", i);
        snprintf(cities[j], 16, "city%d", i % 3);
        row[0] = v_int(i);
        row[1] = v_str(names[j]);
        row[2] = item_age_null(i) ? v_null() : v_int(item_age(i));
        row[3] = v_double(1.5 * i);
        row[4] = v_str(cities[j]);
        row[5] = i % 5 == 0 ? v_null() : v_ts(BASE_TIME + i, 0);
        row[6] = v_float(0.25f * (float)i);
        row[7] = v_bool(i % 2 == 0);
    }
    REQUIRE_OK(db_realm_begin_write(t->realm));
    REQUIRE_OK(db_object_create_many(t->realm, t->cls, t->key, 8, values, (size_t)count, DB_UPSERT_NONE, &created));
    REQUIRE_OK(db_realm_commit(t->realm));
    CHECK_EQ_UINT(created, (size_t)count);
    free(values);
    free(names);
    free(cities);
}

static items_t items_open_path(const char *path) {
    items_t t;
    db_class_info_t c = fx_class("Item", item_props, ITEM_PROPS);
    db_schema_t *schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
    int i;
    t.realm = fx_open_with(path, schema, 1);
    db_schema_release(schema);
    t.cls = fx_class_key(t.realm, "Item");
    for (i = 0; i < ITEM_PROPS; i++) t.key[i] = fx_prop_key(t.realm, "Item", item_props[i].name);
    return t;
}

/* A new realm with items 0 .. n-1. */
static items_t items_open(int n) {
    items_t t = items_open_path(harness_tmpfile("items.realm"));
    if (n > 0) add_items(&t, 0, n);
    return t;
}

static db_results_t *all_items(const items_t *t) {
    return (db_results_t *)REQUIRE_PTR(db_results_from_class(t->realm, t->cls));
}

/* The end of a test: releases its results of all items, then the realm. */
static void items_close(items_t *t, db_results_t *all) {
    db_results_release(all);
    db_realm_release(t->realm);
}

static db_results_t *filter(const db_results_t *r, const char *query) {
    db_results_t *out = db_results_filter(r, query, NULL, 0);
    if (!out) {
        harness_error_t e = harness_last_error();
        harness_fail_with_error(__FILE__, __LINE__, &e, "filter(\"%s\") failed", query);
        HARNESS_FATAL();
    }
    return out;
}

/* The ids of the results, in order (at most `cap`); returns how many there are. */
static size_t ids_of(const items_t *t, const db_results_t *r, int64_t *out, size_t cap) {
    db_value_t values[64];
    size_t got = 0, i;
    REQUIRE(cap <= 64);
    REQUIRE_OK(db_results_get_values(r, t->key[ID], 0, cap, values, &got));
    for (i = 0; i < got; i++) {
        REQUIRE(values[i].type == DB_VALUE_INT);
        out[i] = values[i].integer;
    }
    return got;
}

/* Checks the ids of `r` against a list ending with -1. */
#define CHECK_IDS(t, r, ...) check_ids((t), (r), __FILE__, __LINE__, (const int64_t[]){__VA_ARGS__, -1})

static void check_ids(const items_t *t, const db_results_t *r, const char *file, int line, const int64_t *expected) {
    int64_t got[64];
    size_t n_expected = 0, n, i;
    char text[512];
    size_t used = 0;
    while (expected[n_expected] != -1) n_expected++;
    n = ids_of(t, r, got, 64);
    harness_checks++;
    if (n == n_expected && memcmp(got, expected, n * sizeof(int64_t)) == 0 && fx_results_count(r) == n) return;
    for (i = 0; i < n && used < sizeof text - 24; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%lld", i ? ", " : "", (long long)got[i]);
    text[used] = '\0';
    harness_fail(file, line, "ids: got [%s] (%zu), expected %zu ids starting %lld", text, n, n_expected,
                 n_expected ? (long long)expected[0] : -1LL);
}

/* The same for new results from `make` (NULL is fatal), which are released after the check. */
#define CHECK_NEW_IDS(t, make, ...) \
    check_new_ids((t), (db_results_t *)REQUIRE_PTR(make), __FILE__, __LINE__, (const int64_t[]){__VA_ARGS__, -1})

static void check_new_ids(const items_t *t, db_results_t *r, const char *file, int line, const int64_t *expected) {
    check_ids(t, r, file, line, expected);
    db_results_release(r);
}

/* `call` failed with DB_ERR_QUERY at byte `offset`. */
#define CHECK_QUERY_ERROR(call, offset) check_query_error((call) == NULL, (offset), #call, __FILE__, __LINE__)

static void check_query_error(bool failed, int64_t offset, const char *text, const char *file, int line) {
    harness_error_t e = harness_last_error();
    harness_checks++;
    if (!failed) {
        harness_fail(file, line, "%s succeeded, expected DB_ERR_QUERY at offset %lld", text, (long long)offset);
    } else if (e.code != DB_ERR_QUERY || e.offset != offset || e.message[0] == '\0') {
        harness_fail_with_error(file, line, &e, "%s: expected DB_ERR_QUERY at offset %lld, got offset %lld", text,
                                (long long)offset, (long long)e.offset);
    }
}

static db_query_arg_t arg1(const db_value_t *value) {
    db_query_arg_t a;
    a.num_values = 1;
    a.is_list = false;
    a.values = value;
    return a;
}

static db_query_arg_t arg_list(const db_value_t *values, size_t n) {
    db_query_arg_t a;
    a.num_values = n;
    a.is_list = true;
    a.values = values;
    return a;
}

/* ---- from_class and count ------------------------------------------------ */

TEST(from_class_and_count) {
    items_t t = items_open(10);
    db_results_t *r = all_items(&t);
    size_t n = 99;
    CHECK_LAST_ERROR(DB_OK);
    CHECK_EQ_UINT(fx_results_count(r), 10);
    CHECK_IDS(&t, r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    CHECK_STATUS(db_results_count(r, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_count(NULL, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_UINT(n, 99); /* outputs are written only on success */
    db_results_release(r);
    db_results_release(NULL); /* a no-op */
    db_realm_release(t.realm);
}

TEST(from_class_errors) {
    items_t t = items_open(0);
    CHECK_NULL_ERR(db_results_from_class(NULL, t.cls), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_from_class(t.realm, (db_class_key_t)0xdeadbeef), DB_ERR_NOT_FOUND);
    {
        db_results_t *r = all_items(&t);
        CHECK_EQ_UINT(fx_results_count(r), 0);
        db_results_release(r);
    }
    db_realm_release(t.realm);
}

/* ---- filter ---------------------------------------------------------------- */

TEST(filter_with_arguments) {
    items_t t = items_open(12);
    db_results_t *all = all_items(&t), *r, *narrower;
    db_value_t values[2];
    db_query_arg_t args[2];
    values[0] = v_int(25);
    values[1] = v_str("CITY0");
    args[0] = arg1(&values[0]);
    args[1] = arg1(&values[1]);
    r = (db_results_t *)REQUIRE_PTR(db_results_filter(all, "age > $0 AND city ==[c] $1", args, 2));
    CHECK_LAST_ERROR(DB_OK);
    CHECK_IDS(&t, r, 6);
    db_results_release(r);
    values[0] = v_int(21);
    r = (db_results_t *)REQUIRE_PTR(db_results_filter(all, "age > $0 AND city ==[c] $1", args, 2));
    CHECK_IDS(&t, r, 3, 6);
    /* filter of a filter narrows further */
    narrower = filter(r, "score < 5");
    CHECK_IDS(&t, narrower, 3);
    db_results_release(narrower);
    db_results_release(r);
    /* null, bool, double, timestamp arguments */
    values[0] = v_null();
    args[0] = arg1(&values[0]);
    CHECK_NEW_IDS(&t, db_results_filter(all, "age == $0", args, 1), 1, 5, 9);
    values[0] = v_bool(true);
    values[1] = v_double(9.0);
    args[0] = arg1(&values[0]);
    args[1] = arg1(&values[1]);
    CHECK_NEW_IDS(&t, db_results_filter(all, "flag == $0 AND score >= $1", args, 2), 6, 8, 10);
    values[0] = v_ts(BASE_TIME + 3, 0);
    args[0] = arg1(&values[0]);
    CHECK_NEW_IDS(&t, db_results_filter(all, "born <= $0", args, 1), 1, 2, 3);
    /* arguments are copied: the caller's buffers may change after the call */
    {
        char buf[8];
        strcpy(buf, "item3");
        values[0] = v_str(buf);
        args[0] = arg1(&values[0]);
        r = (db_results_t *)REQUIRE_PTR(db_results_filter(all, "name == $0", args, 1));
        strcpy(buf, "item4");
        CHECK_IDS(&t, r, 3);
        db_results_release(r);
    }
    items_close(&t, all);
}

TEST(filter_list_arguments_for_in) {
    items_t t = items_open(12);
    db_results_t *all = all_items(&t), *r;
    db_value_t ids[4], cities[2];
    db_query_arg_t args[2];
    ids[0] = v_int(3); ids[1] = v_int(7); ids[2] = v_int(100); ids[3] = v_int(11);
    cities[0] = v_str("city1"); cities[1] = v_str("nowhere");
    args[0] = arg_list(ids, 4);
    CHECK_NEW_IDS(&t, db_results_filter(all, "id IN $0", args, 1), 3, 7, 11);
    args[1] = arg_list(cities, 2);
    CHECK_NEW_IDS(&t, db_results_filter(all, "id IN $0 AND city IN $1", args, 2), 7);
    /* an empty list matches nothing (values may be NULL then) */
    args[0] = arg_list(NULL, 0);
    r = (db_results_t *)REQUIRE_PTR(db_results_filter(all, "id IN $0", args, 1));
    CHECK_EQ_UINT(fx_results_count(r), 0);
    db_results_release(r);
    /* a single (non-list) argument after IN is a list of one */
    args[0] = arg1(&ids[1]);
    CHECK_NEW_IDS(&t, db_results_filter(all, "id IN $0", args, 1), 7);
    /* a list with a null, against an optional property */
    ids[0] = v_null();
    args[0] = arg_list(ids, 2);
    CHECK_NEW_IDS(&t, db_results_filter(all, "age IN $0", args, 1), 1, 5, 9);
    /* a list after any operator: any of its values (realm-core's reading), ALL or NONE if written */
    args[0] = arg_list(ids, 2);
    CHECK_NEW_IDS(&t, db_results_filter(all, "age == $0", args, 1), 1, 5, 9);
    CHECK_NEW_IDS(&t, db_results_filter(all, "age == NONE $0 AND id < 4", args, 1), 0, 2, 3);
    /* a list element of the wrong type, in arithmetic and after IN */
    args[0] = arg_list(cities, 2);
    CHECK_QUERY_ERROR(db_results_filter(all, "age + $0 > 1", args, 1), 6);
    CHECK_QUERY_ERROR(db_results_filter(all, "age IN $0", args, 1), 7);
    items_close(&t, all);
}

TEST(filter_argument_errors) {
    items_t t = items_open(3);
    db_results_t *all = all_items(&t);
    db_value_t values[2], bad;
    db_query_arg_t args[1];
    values[0] = v_int(1); values[1] = v_int(2);
    CHECK_NULL_ERR(db_results_filter(NULL, "id > 0", NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_filter(all, NULL, NULL, 0), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_filter(all, "id > $0", NULL, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_filter(all, "id > \xff\xfe", NULL, 0), DB_ERR_INVALID_ARGUMENT); /* not UTF-8 */
    /* a single value must have num_values == 1 */
    args[0] = arg1(values);
    args[0].num_values = 2;
    CHECK_NULL_ERR(db_results_filter(all, "id > $0", args, 1), DB_ERR_INVALID_ARGUMENT);
    args[0].num_values = 0;
    CHECK_NULL_ERR(db_results_filter(all, "id > $0", args, 1), DB_ERR_INVALID_ARGUMENT);
    /* values NULL with values to read */
    args[0] = arg_list(NULL, 2);
    CHECK_NULL_ERR(db_results_filter(all, "id IN $0", args, 1), DB_ERR_INVALID_ARGUMENT);
    /* an unknown value type */
    bad = v_int(1);
    bad.type = (db_value_type_e)99;
    args[0] = arg1(&bad);
    CHECK_NULL_ERR(db_results_filter(all, "id > $0", args, 1), DB_ERR_INVALID_ARGUMENT);
    {
        db_error_t err;
        db_get_last_error(&err);
        CHECK_EQ_INT(err.offset, -1); /* not a query error: no offset */
    }
    items_close(&t, all);
}

TEST(query_errors_carry_the_byte_offset) {
    static const struct {
        const char *query;
        int64_t offset;
    } cases[] = {
        {"nope > 1", 0},                     /* unknown property */
        {"age > 1 AND nope == 2", 12},
        {"age > 'x'", 6},                    /* int compared with a string */
        {"name == 5", 8},
        {"age BEGINSWITH 'a'", 0},           /* string operator on an int */
        {"age ==[c] 3", 0},                  /* [c] on an int */
        {"age >", 5},                        /* unexpected end */
        {"age > 1 AND", 11},
        {"(age > 1", 8},
        {"age > 1)", 7},
        {"", 0},                             /* empty */
        {"age > $0", 6},                     /* no arguments given */
        {"name == 'abc", 8},                 /* unterminated string */
        {"name == '\xc3\xa9' AND nope > 1", 17}, /* bytes, not characters: 'é' is two */
        {"age > 1 SORT(nope ASC)", 13},
        {"age > 1 LIMIT(-1)", 14},
        {"age IN 3", 7},
        {"name LIKE[x] 'a'", 9},
        {"score > 1e999", 8},
    };
    items_t t = items_open(3);
    db_results_t *all = all_items(&t);
    size_t i;
    for (i = 0; i < FX_COUNT(cases); i++) {
        db_results_t *r = db_results_filter(all, cases[i].query, NULL, 0);
        harness_error_t e = harness_last_error();
        harness_checks++;
        if (r != NULL || e.code != DB_ERR_QUERY || e.offset != cases[i].offset || e.message[0] == '\0')
            harness_fail_with_error(__FILE__, __LINE__, &e, "query \"%s\": expected DB_ERR_QUERY at %lld, got %s at %lld",
                                    cases[i].query, (long long)cases[i].offset, r ? "success" : harness_status_name(e.code),
                                    (long long)e.offset);
        db_results_release(r);
    }
    /* the error is cleared by the next successful call */
    db_results_release(filter(all, "age > 1"));
    CHECK_LAST_ERROR(DB_OK);
    {
        db_error_t err;
        CHECK(!db_get_last_error(&err));
        CHECK_EQ_INT(err.offset, -1);
    }
    items_close(&t, all);
}

TEST(query_suffixes) {
    items_t t = items_open(12);
    db_results_t *all = all_items(&t), *r;
    CHECK_NEW_IDS(&t, filter(all, "TRUEPREDICATE SORT(score DESC) LIMIT(2)"), 11, 10);
    r = filter(all, "TRUEPREDICATE LIMIT(2) SORT(score DESC)"); /* in the order written */
    CHECK_IDS(&t, r, 1, 0);
    db_results_release(r);
    CHECK_NEW_IDS(&t, filter(all, "id > 2 DISTINCT(city) SORT(id DESC)"), 5, 4, 3);
    r = filter(all, "FALSEPREDICATE");
    CHECK_EQ_UINT(fx_results_count(r), 0);
    db_results_release(r);
    items_close(&t, all);
}

/* ---- sort, distinct, limit ------------------------------------------------- */

TEST(sort) {
    items_t t = items_open(9);
    db_results_t *all = all_items(&t), *r;
    db_sort_key_t keys[2];
    keys[0].property_key = t.key[AGE];
    keys[0].ascending = true;
    r = (db_results_t *)REQUIRE_PTR(db_results_sort(all, keys, 1));
    CHECK_LAST_ERROR(DB_OK);
    CHECK_IDS(&t, r, 1, 5, 0, 2, 3, 4, 6, 7, 8); /* nulls first, in creation order */
    db_results_release(r);
    keys[0].ascending = false;
    CHECK_NEW_IDS(&t, db_results_sort(all, keys, 1), 8, 7, 6, 4, 3, 2, 0, 1, 5); /* nulls last, still in creation order */
    keys[0].property_key = t.key[CITY];
    keys[0].ascending = true;
    keys[1].property_key = t.key[ID];
    keys[1].ascending = false;
    CHECK_NEW_IDS(&t, db_results_sort(all, keys, 2), 6, 3, 0, 7, 4, 1, 8, 5, 2);
    /* no keys: unchanged */
    CHECK_NEW_IDS(&t, db_results_sort(all, NULL, 0), 0, 1, 2, 3, 4, 5, 6, 7, 8);
    /* errors */
    CHECK_NULL_ERR(db_results_sort(NULL, keys, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_sort(all, NULL, 1), DB_ERR_INVALID_ARGUMENT);
    keys[1].property_key = 0x7fffffff;
    CHECK_NULL_ERR(db_results_sort(all, keys, 2), DB_ERR_NOT_FOUND);
    keys[1].property_key = -1;
    CHECK_NULL_ERR(db_results_sort(all, keys, 2), DB_ERR_NOT_FOUND);
    items_close(&t, all);
}

TEST(sort_strings_by_code_point) {
    items_t t = items_open(0);
    static const char *const names[] = {"b", "B", "a", "\xc3\xa9", "e", "Z", "", "aa"};
    db_property_key_t keys[6];
    db_value_t row[6];
    db_results_t *all, *r;
    db_sort_key_t sk;
    db_value_t out[8];
    size_t i, got = 0;
    keys[0] = t.key[ID]; keys[1] = t.key[NAME]; keys[2] = t.key[CITY]; keys[3] = t.key[SCORE];
    keys[4] = t.key[RATIO]; keys[5] = t.key[FLAG];
    REQUIRE_OK(db_realm_begin_write(t.realm));
    for (i = 0; i < FX_COUNT(names); i++) {
        row[0] = v_int((int64_t)i); row[1] = v_str(names[i]); row[2] = v_str(""); row[3] = v_double(0);
        row[4] = v_float(0); row[5] = v_bool(false);
        db_object_release((db_object_t *)REQUIRE_PTR(db_object_create(t.realm, t.cls, keys, row, 6, DB_UPSERT_NONE)));
    }
    REQUIRE_OK(db_realm_commit(t.realm));
    all = all_items(&t);
    sk.property_key = t.key[NAME];
    sk.ascending = true;
    r = (db_results_t *)REQUIRE_PTR(db_results_sort(all, &sk, 1));
    REQUIRE_OK(db_results_get_values(r, t.key[NAME], 0, 8, out, &got));
    REQUIRE(got == 8);
    {
        static const char *const sorted[] = {"", "B", "Z", "a", "aa", "b", "e", "\xc3\xa9"};
        for (i = 0; i < 8; i++) {
            CHECK(out[i].type == DB_VALUE_STRING);
            CHECK(out[i].string.size == strlen(sorted[i]) && memcmp(out[i].string.data, sorted[i], out[i].string.size) == 0);
        }
    }
    db_results_release(r);
    items_close(&t, all);
}

TEST(distinct) {
    items_t t = items_open(9);
    db_results_t *all = all_items(&t), *r, *sorted;
    db_property_key_t keys[2];
    db_sort_key_t sk;
    keys[0] = t.key[CITY];
    r = (db_results_t *)REQUIRE_PTR(db_results_distinct(all, keys, 1));
    CHECK_LAST_ERROR(DB_OK);
    CHECK_IDS(&t, r, 0, 1, 2);
    db_results_release(r);
    keys[0] = t.key[AGE]; /* one null kept */
    CHECK_NEW_IDS(&t, db_results_distinct(all, keys, 1), 0, 1, 2, 3, 4, 6, 7, 8);
    keys[0] = t.key[CITY];
    keys[1] = t.key[FLAG];
    CHECK_NEW_IDS(&t, db_results_distinct(all, keys, 2), 0, 1, 2, 3, 4, 5);
    /* distinct keeps the first of each group in the current order */
    sk.property_key = t.key[ID];
    sk.ascending = false;
    sorted = (db_results_t *)REQUIRE_PTR(db_results_sort(all, &sk, 1));
    CHECK_NEW_IDS(&t, db_results_distinct(sorted, keys, 1), 8, 7, 6);
    db_results_release(sorted);
    /* errors */
    CHECK_NULL_ERR(db_results_distinct(NULL, keys, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_distinct(all, NULL, 1), DB_ERR_INVALID_ARGUMENT);
    keys[1] = 0x7fffffff;
    CHECK_NULL_ERR(db_results_distinct(all, keys, 2), DB_ERR_NOT_FOUND);
    items_close(&t, all);
}

TEST(limit) {
    items_t t = items_open(6);
    db_results_t *all = all_items(&t), *r, *sorted;
    db_sort_key_t sk;
    CHECK_NEW_IDS(&t, db_results_limit(all, 2), 0, 1);
    r = (db_results_t *)REQUIRE_PTR(db_results_limit(all, 0));
    CHECK_EQ_UINT(fx_results_count(r), 0);
    db_results_release(r);
    r = (db_results_t *)REQUIRE_PTR(db_results_limit(all, 100));
    CHECK_EQ_UINT(fx_results_count(r), 6);
    db_results_release(r);
    sk.property_key = t.key[SCORE];
    sk.ascending = false;
    sorted = (db_results_t *)REQUIRE_PTR(db_results_sort(all, &sk, 1));
    CHECK_NEW_IDS(&t, db_results_limit(sorted, 2), 5, 4);
    db_results_release(sorted);
    CHECK_NULL_ERR(db_results_limit(NULL, 1), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_results_limit(all, (size_t)-1), DB_ERR_INVALID_ARGUMENT); /* beyond INT64_MAX */
    items_close(&t, all);
}

/* ---- get, index_of ----------------------------------------------------------- */

TEST(get_by_position) {
    items_t t = items_open(5);
    db_results_t *all = all_items(&t), *odd = filter(all, "id IN {1, 3}");
    db_object_t *o = (db_object_t *)REQUIRE_PTR(db_results_get(odd, 1));
    CHECK_LAST_ERROR(DB_OK);
    CHECK_EQ_INT(fx_get_int(o, "id"), 3);
    db_object_release(o);
    CHECK_NULL_ERR(db_results_get(odd, 2), DB_ERR_OUT_OF_RANGE);
    CHECK_NULL_ERR(db_results_get(odd, (size_t)-1), DB_ERR_OUT_OF_RANGE);
    CHECK_NULL_ERR(db_results_get(NULL, 0), DB_ERR_INVALID_ARGUMENT);
    db_results_release(odd);
    items_close(&t, all);
}

TEST(index_of) {
    items_t t = items_open(6);
    db_results_t *all = all_items(&t), *r;
    db_sort_key_t sk;
    db_object_t *three = (db_object_t *)REQUIRE_PTR(db_results_get(all, 3));
    db_object_t *one = (db_object_t *)REQUIRE_PTR(db_results_get(all, 1));
    size_t index = 99;
    bool found = false;
    sk.property_key = t.key[ID];
    sk.ascending = false;
    r = (db_results_t *)REQUIRE_PTR(db_results_sort(all, &sk, 1));
    CHECK_OK(db_results_index_of(r, three, &index, &found));
    CHECK(found);
    CHECK_EQ_UINT(index, 2);
    db_results_release(r);
    r = filter(all, "id >= 2");
    index = 99;
    CHECK_OK(db_results_index_of(r, one, &index, &found));
    CHECK(!found);
    CHECK_EQ_UINT(index, 99); /* untouched when not found */
    CHECK_OK(db_results_index_of(r, three, NULL, &found)); /* out_index may be NULL */
    CHECK(found);
    CHECK_STATUS(db_results_index_of(r, three, &index, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_index_of(r, NULL, &index, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_index_of(NULL, three, &index, &found), DB_ERR_INVALID_ARGUMENT);
    /* an object of another file is not in the results */
    {
        items_t other = items_open(6);
        db_results_t *other_all = all_items(&other);
        db_object_t *other_three = (db_object_t *)REQUIRE_PTR(db_results_get(other_all, 3));
        found = true;
        CHECK_OK(db_results_index_of(r, other_three, &index, &found));
        CHECK(!found);
        db_object_release(other_three);
        db_results_release(other_all);
        db_realm_release(other.realm);
    }
    /* a deleted object is not in the results */
    REQUIRE_OK(db_realm_begin_write(t.realm));
    REQUIRE_OK(db_object_delete(three));
    found = true;
    CHECK_OK(db_results_index_of(r, three, &index, &found));
    CHECK(!found);
    REQUIRE_OK(db_realm_cancel_write(t.realm));
    db_results_release(r);
    db_object_release(one);
    db_object_release(three);
    items_close(&t, all);
}

TEST(index_matching) {
    /* Items 0..5: age null for 1 and 5, else 20 + i; sorted by id descending: 5 4 3 2 1 0. */
    items_t t = items_open(6);
    db_results_t *all = all_items(&t), *r;
    db_sort_key_t sk;
    db_value_t value = v_int(22);
    db_query_arg_t arg = arg1(&value);
    size_t index = 99;
    bool found = false;
    sk.property_key = t.key[ID];
    sk.ascending = false;
    r = (db_results_t *)REQUIRE_PTR(db_results_sort(all, &sk, 1));
    CHECK_OK(db_results_index_matching(r, "age > $0", &arg, 1, &index, &found));
    CHECK(found);
    CHECK_EQ_UINT(index, 1); /* item 4 (age 24), at position 1 of the descending order */
    CHECK_OK(db_results_index_matching(all, "age > $0", &arg, 1, &index, &found));
    CHECK(found);
    CHECK_EQ_UINT(index, 3);
    CHECK_OK(db_results_index_matching(r, "age == nil", NULL, 0, NULL, &found)); /* out_index may be NULL */
    CHECK(found);
    index = 99;
    CHECK_OK(db_results_index_matching(r, "age > 100", NULL, 0, &index, &found));
    CHECK(!found);
    CHECK_EQ_UINT(index, 99); /* untouched when nothing matches */
    /* errors: a bad query (with its offset), a suffix, missing pointers and arguments */
    CHECK_STATUS(db_results_index_matching(r, "age >", NULL, 0, &index, &found), DB_ERR_QUERY);
    CHECK_STATUS(db_results_index_matching(r, "age > 1 SORT(age ASC)", NULL, 0, &index, &found), DB_ERR_QUERY);
    CHECK_STATUS(db_results_index_matching(r, "age > $0", NULL, 0, &index, &found), DB_ERR_QUERY);
    CHECK_STATUS(db_results_index_matching(r, "age > 1", NULL, 0, &index, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_index_matching(r, NULL, NULL, 0, &index, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_index_matching(NULL, "age > 1", NULL, 0, &index, &found), DB_ERR_INVALID_ARGUMENT);
    /* live: a write inside the transaction moves the answer */
    REQUIRE_OK(db_realm_begin_write(t.realm));
    {
        db_object_t *five = (db_object_t *)REQUIRE_PTR(db_results_get(r, 0));
        db_value_t old = v_int(99);
        REQUIRE_OK(db_object_set_value(five, t.key[AGE], &old));
        CHECK_OK(db_results_index_matching(r, "age > $0", &arg, 1, &index, &found));
        CHECK(found);
        CHECK_EQ_UINT(index, 0);
        db_object_release(five);
    }
    REQUIRE_OK(db_realm_cancel_write(t.realm));
    db_results_release(r);
    items_close(&t, all);
}

TEST(realm_of_objects_results_and_sections) {
    items_t t = items_open(4);
    db_results_t *all = all_items(&t), *frozen_all;
    db_object_t *first = (db_object_t *)REQUIRE_PTR(db_results_get(all, 0));
    db_sectioned_results_t *sections = (db_sectioned_results_t *)REQUIRE_PTR(db_results_sectioned_by_key_path(all, "city", true));
    db_realm_t *of_object = (db_realm_t *)REQUIRE_PTR(db_object_get_realm(first));
    db_realm_t *of_results = (db_realm_t *)REQUIRE_PTR(db_results_get_realm(all));
    db_realm_t *of_sections = (db_realm_t *)REQUIRE_PTR(db_sectioned_results_get_realm(sections));
    db_realm_t *of_frozen;
    db_class_key_t cls;
    /* each is a working handle to the same realm: a write through one is seen through the others */
    CHECK_OK(db_realm_find_class(of_object, "Item", &cls));
    CHECK_EQ_INT((int)cls, (int)t.cls);
    REQUIRE_OK(db_realm_begin_write(of_results));
    CHECK(db_realm_is_in_write(t.realm));
    REQUIRE_OK(db_realm_cancel_write(of_sections));
    CHECK(!db_realm_is_in_write(t.realm));
    /* releasing them does not close the realm */
    db_realm_release(of_object);
    db_realm_release(of_results);
    db_realm_release(of_sections);
    CHECK_EQ_UINT(fx_results_count(all), 4);
    /* frozen results belong to a frozen realm */
    frozen_all = (db_results_t *)REQUIRE_PTR(db_results_freeze(all));
    of_frozen = (db_realm_t *)REQUIRE_PTR(db_results_get_realm(frozen_all));
    CHECK(db_realm_is_frozen(of_frozen));
    db_realm_release(of_frozen);
    db_results_release(frozen_all);
    /* NULL, and a closed realm */
    CHECK_NULL_ERR(db_object_get_realm(NULL), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_close(t.realm));
    CHECK_NULL_ERR(db_object_get_realm(first), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_get_realm(all), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_sectioned_results_get_realm(sections), DB_ERR_CLOSED_REALM);
    db_sectioned_results_release(sections);
    db_object_release(first);
    items_close(&t, all);
}

TEST(description) {
    items_t t = items_open(3);
    db_results_t *all = all_items(&t), *none = filter(all, "id > 100"), *many;
    char *text = (char *)REQUIRE_PTR(db_results_description(all));
    {
        static const char start[] = "Results<Item> (\n\t[0] Item {\n\t\tid = 0;\n\t\tname = 'item0';";
        CHECK(strncmp(text, start, sizeof start - 1) == 0);
    }
    CHECK(strstr(text, "\n\t},\n\t[1] Item {") != NULL);
    CHECK(strcmp(text + strlen(text) - 5, "\n\t}\n)") == 0);
    db_string_free(text);
    text = (char *)REQUIRE_PTR(db_results_description(none));
    CHECK(strcmp(text, "Results<Item> ()") == 0);
    db_string_free(text);
    /* past 100 objects: how many more */
    add_items(&t, 3, 102);
    many = filter(all, "TRUEPREDICATE");
    text = (char *)REQUIRE_PTR(db_results_description(many));
    CHECK(strstr(text, "[99] Item {") != NULL);
    CHECK(strstr(text, "[100]") == NULL);
    CHECK(strstr(text, ",\n\t... and 5 more objects\n)") != NULL);
    db_string_free(text);
    CHECK_NULL_ERR(db_results_description(NULL), DB_ERR_INVALID_ARGUMENT);
    db_results_release(many);
    db_results_release(none);
    items_close(&t, all);
}

/* ---- aggregates --------------------------------------------------------------- */

static db_value_t aggregate(const db_results_t *r, db_property_key_t key, db_aggregate_e kind, bool *found) {
    db_value_t v = v_null();
    v.type = (db_value_type_e)-1;
    *found = false;
    REQUIRE_OK(db_results_aggregate(r, key, kind, &v, found));
    return v;
}

TEST(aggregates) {
    items_t t = items_open(10); /* ages 20, -, 22, 23, 24, -, 26, 27, 28, - */
    db_results_t *all = all_items(&t), *none = filter(all, "FALSEPREDICATE"), *limited;
    db_value_t v;
    bool found;
    v = aggregate(all, t.key[AGE], DB_AGGREGATE_MIN, &found);
    CHECK(found && v.type == DB_VALUE_INT && v.integer == 20);
    v = aggregate(all, t.key[AGE], DB_AGGREGATE_MAX, &found);
    CHECK(found && v.type == DB_VALUE_INT && v.integer == 28);
    v = aggregate(all, t.key[AGE], DB_AGGREGATE_SUM, &found); /* nulls skipped */
    CHECK(found && v.type == DB_VALUE_INT && v.integer == 20 + 22 + 23 + 24 + 26 + 27 + 28);
    v = aggregate(all, t.key[AGE], DB_AGGREGATE_AVERAGE, &found);
    CHECK(found && v.type == DB_VALUE_DOUBLE && v.dnum - 170.0 / 7 < 1e-12 && 170.0 / 7 - v.dnum < 1e-12);
    v = aggregate(all, t.key[SCORE], DB_AGGREGATE_SUM, &found);
    CHECK(found && v.type == DB_VALUE_DOUBLE && v.dnum == 1.5 * 45);
    v = aggregate(all, t.key[RATIO], DB_AGGREGATE_SUM, &found); /* sums keep the property's type */
    CHECK(found && v.type == DB_VALUE_FLOAT && v.fnum == 0.25f * 45);
    v = aggregate(all, t.key[RATIO], DB_AGGREGATE_MAX, &found);
    CHECK(found && v.type == DB_VALUE_FLOAT && v.fnum == 2.25f);
    v = aggregate(all, t.key[BORN], DB_AGGREGATE_MIN, &found);
    CHECK(found && v.type == DB_VALUE_TIMESTAMP && v.timestamp.seconds == BASE_TIME + 1);
    v = aggregate(all, t.key[BORN], DB_AGGREGATE_MAX, &found);
    CHECK(found && v.type == DB_VALUE_TIMESTAMP && v.timestamp.seconds == BASE_TIME + 9);
    /* of no values: min/max/average not found, sum 0 and found */
    v = aggregate(none, t.key[AGE], DB_AGGREGATE_MIN, &found);
    CHECK(!found && v.type == DB_VALUE_NULL);
    v = aggregate(none, t.key[SCORE], DB_AGGREGATE_AVERAGE, &found);
    CHECK(!found && v.type == DB_VALUE_NULL);
    v = aggregate(none, t.key[AGE], DB_AGGREGATE_SUM, &found);
    CHECK(found && v.type == DB_VALUE_INT && v.integer == 0);
    v = aggregate(all, t.key[PRICE], DB_AGGREGATE_MAX, &found); /* only nulls */
    CHECK(!found);
    /* over sort + limit: only the kept objects */
    limited = filter(all, "TRUEPREDICATE SORT(score DESC) LIMIT(3)");
    v = aggregate(limited, t.key[SCORE], DB_AGGREGATE_SUM, &found);
    CHECK(found && v.dnum == 1.5 * (9 + 8 + 7));
    db_results_release(limited);
    db_results_release(none);
    items_close(&t, all);
}

TEST(aggregate_errors) {
    items_t t = items_open(3);
    db_results_t *all = all_items(&t);
    db_value_t v = v_int(7);
    bool found = true;
    int kind;
    for (kind = DB_AGGREGATE_MIN; kind <= DB_AGGREGATE_AVERAGE; kind++) {
        CHECK_STATUS(db_results_aggregate(all, t.key[NAME], (db_aggregate_e)kind, &v, &found), DB_ERR_WRONG_TYPE);
        CHECK_STATUS(db_results_aggregate(all, t.key[FLAG], (db_aggregate_e)kind, &v, &found), DB_ERR_WRONG_TYPE);
        CHECK_STATUS(db_results_aggregate(all, 0x7fffffff, (db_aggregate_e)kind, &v, &found), DB_ERR_NOT_FOUND);
        CHECK_STATUS(db_results_aggregate(all, t.key[AGE], (db_aggregate_e)kind, NULL, &found), DB_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(db_results_aggregate(all, t.key[AGE], (db_aggregate_e)kind, &v, NULL), DB_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(db_results_aggregate(NULL, t.key[AGE], (db_aggregate_e)kind, &v, &found), DB_ERR_INVALID_ARGUMENT);
    }
    CHECK_STATUS(db_results_aggregate(all, t.key[BORN], DB_AGGREGATE_SUM, &v, &found), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_results_aggregate(all, t.key[BORN], DB_AGGREGATE_AVERAGE, &v, &found), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_results_aggregate(all, t.key[PRICE], DB_AGGREGATE_SUM, &v, &found), DB_ERR_NOT_SUPPORTED);
    CHECK_STATUS(db_results_aggregate(all, t.key[PRICE], DB_AGGREGATE_AVERAGE, &v, &found), DB_ERR_NOT_SUPPORTED);
    CHECK_STATUS(db_results_aggregate(all, t.key[AGE], (db_aggregate_e)99, &v, &found), DB_ERR_INVALID_ARGUMENT);
    CHECK(v.type == DB_VALUE_INT && v.integer == 7 && found); /* outputs untouched on failure */
    items_close(&t, all);
}

/* ---- batch reads ---------------------------------------------------------------- */

/* Lent strings of every size: hundreds of kilobytes in one call (more than one chunk of the
 * thread's lending memory), one larger than a chunk, empty ones, each checked byte for byte
 * after the call; the next successful call lends them again, and a failed one keeps them. */
TEST(get_values_lends_many_and_large_strings) {
    db_realm_t *realm = fx_open_new();
    db_class_key_t person = fx_class_key(realm, "Person");
    db_property_key_t name = fx_prop_key(realm, "Person", "name"), id = fx_prop_key(realm, "Person", "id");
    enum { PEOPLE = 600, LARGE = 200000 };
    static char text[LARGE + 26 + 1]; /* the alphabet over and over: person i's name starts at letter i % 26 */
    db_value_t out[PEOPLE];
    size_t got = 0, i;
    int round;
    bool ok = true;
    db_results_t *unsorted, *all;
    for (i = 0; i < LARGE + 26; i++) text[i] = (char)('a' + i % 26);
    REQUIRE_OK(db_realm_begin_write(realm));
    for (i = 0; i < PEOPLE; i++) {
        /* lengths 0, 1, ..., 999 (odd sizes pack tightly), and one of 200,000 bytes */
        size_t length = i == 300 ? LARGE : (i * 37) % 1000;
        char *name_text = text + i % 26, saved = name_text[length];
        name_text[length] = 0;
        db_object_release(fx_person(realm, (int64_t)i, name_text, 1));
        name_text[length] = saved;
    }
    REQUIRE_OK(db_realm_commit(realm));
    unsorted = REQUIRE_PTR(db_results_from_class(realm, person));
    all = REQUIRE_PTR(db_results_sort(unsorted, &(db_sort_key_t){id, true}, 1));
    for (round = 0; round < 3; round++) {
        REQUIRE_OK(db_results_get_values(all, name, 0, PEOPLE, out, &got));
        CHECK_EQ_UINT(got, PEOPLE);
        if (round == 2) { /* a failed call keeps the strings the last one lent */
            db_value_t spare[1];
            CHECK_STATUS(db_results_get_values(all, name, PEOPLE + 1, 1, spare, &got), DB_ERR_OUT_OF_RANGE);
            CHECK_STATUS(db_results_get_values(all, 0x7fffffff, 0, 1, spare, &got), DB_ERR_NOT_FOUND);
        }
        for (i = 0; i < PEOPLE; i++) {
            size_t length = i == 300 ? LARGE : (i * 37) % 1000;
            if (out[i].type != DB_VALUE_STRING || out[i].string.size != length ||
                (length > 0 && memcmp(out[i].string.data, text + i % 26, length) != 0))
                ok = false;
        }
        CHECK(ok);
    }
    db_results_release(all);
    db_results_release(unsorted);
    db_realm_release(realm);
}

TEST(get_values_in_batches) {
    items_t t = items_open(2500);
    db_results_t *all = all_items(&t), *r = filter(all, "id >= 1000");
    db_value_t out[700];
    size_t start = 0, got = 0, total = 0;
    bool ok = true;
    /* strings are borrowed until the next value-reading call: check them at once */
    for (;;) {
        size_t i;
        REQUIRE_OK(db_results_get_values(r, t.key[NAME], start, 700, out, &got));
        for (i = 0; i < got; i++) {
            char want[16];
            int n = snprintf(want, sizeof want, "item%zu", 1000 + start + i);
            if (out[i].type != DB_VALUE_STRING || out[i].string.size != (size_t)n ||
                memcmp(out[i].string.data, want, (size_t)n) != 0)
                ok = false;
        }
        total += got;
        start += got;
        if (got < 700) break;
    }
    CHECK(ok);
    CHECK_EQ_UINT(total, 1500);
    /* optional values come back as nulls */
    REQUIRE_OK(db_results_get_values(all, t.key[AGE], 0, 6, out, &got));
    CHECK_EQ_UINT(got, 6);
    CHECK(out[0].type == DB_VALUE_INT && out[0].integer == 20);
    CHECK(out[1].type == DB_VALUE_NULL && out[5].type == DB_VALUE_NULL);
    REQUIRE_OK(db_results_get_values(all, t.key[RATIO], 4, 1, out, &got));
    CHECK(got == 1 && out[0].type == DB_VALUE_FLOAT && out[0].fnum == 1.0f);
    /* the end, and beyond it */
    CHECK_OK(db_results_get_values(r, t.key[ID], 1500, 10, out, &got));
    CHECK_EQ_UINT(got, 0);
    got = 77;
    CHECK_STATUS(db_results_get_values(r, t.key[ID], 1501, 10, out, &got), DB_ERR_OUT_OF_RANGE);
    CHECK_EQ_UINT(got, 77);
    /* max_count 0 needs no buffer */
    CHECK_OK(db_results_get_values(r, t.key[ID], 0, 0, NULL, &got));
    CHECK_EQ_UINT(got, 0);
    /* errors */
    CHECK_STATUS(db_results_get_values(r, t.key[ID], 0, 10, NULL, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values(r, t.key[ID], 0, 10, out, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values(NULL, t.key[ID], 0, 10, out, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values(r, 0x7fffffff, 0, 10, out, &got), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_results_get_values(r, -5, 0, 10, out, &got), DB_ERR_NOT_FOUND);
    db_results_release(r);
    items_close(&t, all);
}

TEST(get_keys_in_batches) {
    items_t t = items_open(20);
    db_results_t *all = all_items(&t), *r = filter(all, "id >= 15 SORT(id DESC)");
    db_object_key_t keys[8];
    size_t got = 0, i;
    REQUIRE_OK(db_results_get_keys(r, 0, 8, keys, &got));
    REQUIRE(got == 5);
    for (i = 0; i < got; i++) {
        db_object_t *o = (db_object_t *)REQUIRE_PTR(db_object_get_by_key(t.realm, t.cls, keys[i]));
        CHECK_EQ_INT(fx_get_int(o, "id"), 19 - (int64_t)i);
        db_object_release(o);
    }
    REQUIRE_OK(db_results_get_keys(r, 3, 8, keys, &got));
    CHECK_EQ_UINT(got, 2);
    CHECK_OK(db_results_get_keys(r, 5, 8, keys, &got));
    CHECK_EQ_UINT(got, 0);
    CHECK_STATUS(db_results_get_keys(r, 6, 8, keys, &got), DB_ERR_OUT_OF_RANGE);
    CHECK_OK(db_results_get_keys(r, 0, 0, NULL, &got));
    CHECK_STATUS(db_results_get_keys(r, 0, 8, NULL, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_keys(r, 0, 8, keys, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_keys(NULL, 0, 8, keys, &got), DB_ERR_INVALID_ARGUMENT);
    db_results_release(r);
    items_close(&t, all);
}

/* ---- writes ------------------------------------------------------------------- */

TEST(set_value) {
    items_t t = items_open(9);
    db_results_t *all = all_items(&t), *city0 = filter(all, "city == 'city0'"), *zero;
    db_value_t v = v_double(0.0), bad;
    CHECK_STATUS(db_results_set_value(city0, t.key[SCORE], &v), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_begin_write(t.realm));
    CHECK_OK(db_results_set_value(city0, t.key[SCORE], &v));
    v = v_int(7); /* ints widen to double */
    CHECK_OK(db_results_set_value(city0, t.key[SCORE], &v));
    v = v_null();
    CHECK_OK(db_results_set_value(city0, t.key[AGE], &v));
    bad = v_str("x");
    CHECK_STATUS(db_results_set_value(city0, t.key[SCORE], &bad), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_results_set_value(city0, t.key[NAME], &v), DB_ERR_NOT_NULLABLE);
    bad = v_int(100);
    CHECK_STATUS(db_results_set_value(city0, t.key[ID], &bad), DB_ERR_LOGIC);
    CHECK_STATUS(db_results_set_value(city0, 0x7fffffff, &bad), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_results_set_value(city0, t.key[SCORE], NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_set_value(NULL, t.key[SCORE], &bad), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_commit(t.realm));
    zero = filter(all, "score == 7 AND age == nil");
    CHECK_IDS(&t, zero, 0, 3, 6);
    db_results_release(zero);
    db_results_release(city0);
    items_close(&t, all);
}

/* Strings copied into the caller's buffer, back to back and in order, until one does not fit;
 * that one and those after it borrowed. */
TEST(get_values_into_a_buffer) {
    items_t t = items_open(30);
    db_results_t *all = all_items(&t);
    db_value_t out[30];
    char buffer[40];
    size_t got = 0, i, used = 0;
    REQUIRE_OK(db_results_get_values_into(all, t.key[NAME], 0, 30, out, buffer, sizeof buffer, &got));
    CHECK_EQ_UINT(got, 30);
    for (i = 0; i < got; i++) {
        char want[16];
        int n = snprintf(want, sizeof want, "item%zu", i);
        CHECK(out[i].type == DB_VALUE_STRING && out[i].string.size == (size_t)n &&
              memcmp(out[i].string.data, want, (size_t)n) == 0);
        if (i < 8) { /* item0 .. item7: 5 bytes each, 40 in all */
            CHECK(out[i].string.data == buffer + used);
            used += (size_t)n;
        } else {
            CHECK(out[i].string.data < buffer || out[i].string.data >= buffer + sizeof buffer);
        }
    }
    CHECK_EQ_UINT(used, 40);
    /* non-strings and a NULL buffer: as db_results_get_values */
    REQUIRE_OK(db_results_get_values_into(all, t.key[ID], 0, 3, out, NULL, 999, &got));
    CHECK(got == 3 && out[2].type == DB_VALUE_INT);
    REQUIRE_OK(db_results_get_values_into(all, t.key[NAME], 0, 3, out, NULL, 0, &got));
    CHECK(got == 3 && memcmp(out[2].string.data, "item2", 5) == 0);
    CHECK_STATUS(db_results_get_values_into(all, t.key[NAME], 0, 3, out, buffer, SIZE_MAX, &got), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_results_get_values_into(all, t.key[NAME], 31, 3, out, buffer, sizeof buffer, &got), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_results_get_values_into(all, t.key[NAME], 0, 3, NULL, buffer, sizeof buffer, &got), DB_ERR_INVALID_ARGUMENT);
    items_close(&t, all);
}

TEST(set_values) {
    items_t t = items_open(9);
    db_results_t *all = all_items(&t), *city0 = filter(all, "city == 'city0'"), *check; /* ids 0, 3, 6 */
    db_value_t v[3], bad[2];
    v[0] = v_double(10.0);
    v[1] = v_int(30); /* ints widen to double */
    v[2] = v_double(60.0);
    CHECK_STATUS(db_results_set_values(city0, t.key[SCORE], 0, v, 3), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_begin_write(t.realm));
    CHECK_OK(db_results_set_values(city0, t.key[SCORE], 0, v, 3));
    CHECK_OK(db_results_set_values(city0, t.key[SCORE], 3, NULL, 0)); /* empty, at the end */
    CHECK_STATUS(db_results_set_values(city0, t.key[SCORE], 2, v, 2), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_results_set_values(city0, t.key[SCORE], 4, v, 0), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_results_set_values(city0, t.key[SCORE], 0, NULL, 1), DB_ERR_INVALID_ARGUMENT);
    bad[0] = v_double(1.0);
    bad[1] = v_str("x");
    CHECK_STATUS(db_results_set_values(city0, t.key[SCORE], 0, bad, 2), DB_ERR_WRONG_TYPE);
    CHECK_STATUS(db_results_set_values(city0, t.key[ID], 0, v + 1, 1), DB_ERR_LOGIC);
    CHECK_STATUS(db_results_set_values(city0, 0x7fffffff, 0, v, 1), DB_ERR_NOT_FOUND);
    CHECK_STATUS(db_results_set_values(NULL, t.key[SCORE], 0, v, 1), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_commit(t.realm));
    check = filter(all, "score IN {10, 30, 60}");
    CHECK_IDS(&t, check, 0, 3, 6); /* and the failed batch wrote nothing */
    db_results_release(check);
    db_results_release(city0);
    items_close(&t, all);
}

TEST(delete_all) {
    items_t t = items_open(9);
    db_results_t *all = all_items(&t), *city1 = filter(all, "city == 'city1'");
    size_t n = 99;
    CHECK_STATUS(db_results_delete_all(city1, &n), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_EQ_UINT(n, 99);
    REQUIRE_OK(db_realm_begin_write(t.realm));
    CHECK_OK(db_results_delete_all(city1, &n));
    CHECK_EQ_UINT(n, 3);
    CHECK_OK(db_results_delete_all(city1, NULL)); /* out may be NULL; nothing left */
    CHECK_OK(db_results_delete_all(city1, &n));
    CHECK_EQ_UINT(n, 0);
    CHECK_STATUS(db_results_delete_all(NULL, &n), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_commit(t.realm));
    CHECK_EQ_UINT(fx_results_count(all), 6);
    CHECK_EQ_UINT(fx_count(t.realm, "Item"), 6);
    db_results_release(city1);
    items_close(&t, all);
}

/* ---- snapshot and liveness ---------------------------------------------------- */

TEST(snapshot_is_frozen) {
    items_t t = items_open(6);
    db_results_t *all = all_items(&t), *city0 = filter(all, "city == 'city0'"), *snap;
    db_object_t *three;
    db_value_t out[4];
    size_t got;
    snap = (db_results_t *)REQUIRE_PTR(db_results_snapshot(city0));
    CHECK_NULL_ERR(db_results_snapshot(NULL), DB_ERR_INVALID_ARGUMENT);
    add_items(&t, 6, 3); /* adds 6 to city0 */
    CHECK_IDS(&t, city0, 0, 3, 6);
    CHECK_IDS(&t, snap, 0, 3);
    three = (db_object_t *)REQUIRE_PTR(db_results_get(snap, 1));
    REQUIRE_OK(db_realm_begin_write(t.realm));
    REQUIRE_OK(db_object_delete(three));
    REQUIRE_OK(db_realm_commit(t.realm));
    CHECK_EQ_UINT(fx_results_count(snap), 2); /* still holds the deleted object */
    CHECK_IDS(&t, city0, 0, 6);
    CHECK_STATUS(db_results_get_values(snap, t.key[ID], 0, 4, out, &got), DB_ERR_INVALIDATED);
    CHECK_OK(db_results_get_values(snap, t.key[ID], 0, 1, out, &got)); /* the live part reads */
    CHECK(got == 1 && out[0].integer == 0);
    db_object_release(three);
    db_results_release(snap);
    db_results_release(city0);
    items_close(&t, all);
}

TEST(results_are_live) {
    const char *path = harness_tmpfile("live.realm");
    items_t t = items_open_path(path), other;
    db_results_t *all = all_items(&t), *city2 = filter(all, "city == 'city2'");
    bool advanced = false;
    CHECK_EQ_UINT(fx_results_count(city2), 0);
    add_items(&t, 0, 3);
    CHECK_IDS(&t, city2, 2);
    /* inside a write, the uncommitted objects */
    REQUIRE_OK(db_realm_begin_write(t.realm));
    {
        db_property_key_t keys[6];
        db_value_t row[6];
        keys[0] = t.key[ID]; keys[1] = t.key[NAME]; keys[2] = t.key[SCORE]; keys[3] = t.key[CITY]; keys[4] = t.key[RATIO];
        keys[5] = t.key[FLAG];
        row[0] = v_int(50); row[1] = v_str("x"); row[2] = v_double(1); row[3] = v_str("city2"); row[4] = v_float(0);
        row[5] = v_bool(false);
        db_object_release((db_object_t *)REQUIRE_PTR(db_object_create(t.realm, t.cls, keys, row, 6, DB_UPSERT_NONE)));
    }
    CHECK_IDS(&t, city2, 2, 50);
    REQUIRE_OK(db_realm_cancel_write(t.realm));
    CHECK_IDS(&t, city2, 2);
    /* commits of another handle, after refresh */
    other = items_open_path(path);
    add_items(&other, 3, 3);
    CHECK_OK(db_realm_refresh(t.realm, &advanced));
    CHECK(advanced);
    CHECK_IDS(&t, city2, 2, 5);
    db_realm_release(other.realm);
    db_results_release(city2);
    items_close(&t, all);
}

/* ---- after the realm is closed ------------------------------------------------- */

/* Items with compound indexes on (city, age) and (age, name): the same answers as without them,
 * through the index (equality plus range; sort plus limit, also descending and filtered). */
TEST(compound_indexes_answer_queries_and_sorts) {
    static const char *const city_age[] = {"city", "age"};
    static const char *const age_name[] = {"age", "name"};
    db_index_info_t indexes[2];
    db_class_info_t c = fx_class("Item", item_props, ITEM_PROPS);
    db_schema_t *schema;
    items_t t, plain;
    db_results_t *r, *q, *s;
    int64_t a[64], b[64];
    size_t na, nb;
    db_value_t hundred;
    int i;
    const char *queries[] = {
        "city == 'city1' AND age BETWEEN {22, 40}",
        "age > 25 AND city == 'city2' AND age <= 40",
        "city == 'city0' AND age == null",
        "city == 'city2' SORT(age ASC, name ASC) LIMIT(5)",
        "TRUEPREDICATE SORT(age ASC, name ASC) LIMIT(7)",
        "TRUEPREDICATE SORT(age DESC, name DESC) LIMIT(7)",
        "flag == true SORT(age ASC, name ASC) LIMIT(6)",
    };
    indexes[0].properties = city_age;
    indexes[0].num_properties = 2;
    indexes[1].properties = age_name;
    indexes[1].num_properties = 2;
    c.indexes = indexes;
    c.num_indexes = 2;
    schema = (db_schema_t *)REQUIRE_PTR(db_schema_new(&c, 1));
    t.realm = fx_open_with(harness_tmpfile("indexed.realm"), schema, 1);
    db_schema_release(schema);
    t.cls = fx_class_key(t.realm, "Item");
    for (i = 0; i < ITEM_PROPS; i++) t.key[i] = fx_prop_key(t.realm, "Item", item_props[i].name);
    add_items(&t, 0, 60);
    plain = items_open(60);
    for (i = 0; i < (int)(sizeof queries / sizeof queries[0]); i++) {
        r = all_items(&t);
        q = filter(r, queries[i]);
        na = ids_of(&t, q, a, 64);
        db_results_release(q);
        db_results_release(r);
        r = all_items(&plain);
        q = filter(r, queries[i]);
        nb = ids_of(&plain, q, b, 64);
        db_results_release(q);
        db_results_release(r);
        CHECK_EQ_UINT(na, nb);
        CHECK(na > 0);
        CHECK(memcmp(a, b, na * sizeof(int64_t)) == 0);
    }
    /* An update moves the object within both indexes. */
    r = all_items(&t);
    q = filter(r, "city == 'city1' AND age BETWEEN {23, 24}");
    CHECK_IDS(&t, q, 4);
    REQUIRE_OK(db_realm_begin_write(t.realm));
    s = filter(r, "id == 4");
    hundred = v_int(100);
    REQUIRE_OK(db_results_set_value(s, t.key[AGE], &hundred));
    CHECK_EQ_UINT(fx_results_count(q), 0);
    db_results_release(s);
    REQUIRE_OK(db_realm_commit(t.realm));
    s = filter(r, "TRUEPREDICATE SORT(age DESC, name DESC) LIMIT(1)");
    CHECK_IDS(&t, s, 4);
    db_results_release(s);
    db_results_release(q);
    db_results_release(r);
    db_realm_release(t.realm);
    db_realm_release(plain.realm);
}

TEST(use_after_realm_close) {
    items_t t = items_open(5);
    db_results_t *all = all_items(&t), *snap = (db_results_t *)REQUIRE_PTR(db_results_snapshot(all));
    db_object_t *o = (db_object_t *)REQUIRE_PTR(db_results_get(all, 0));
    db_value_t values[4], v = v_double(1);
    db_object_key_t keys[4];
    db_sort_key_t sk;
    size_t n = 0, index = 0;
    bool found = false;
    sk.property_key = t.key[ID];
    sk.ascending = true;
    REQUIRE_OK(db_realm_close(t.realm));
    /* Everything that reads or writes objects fails with DB_ERR_CLOSED_REALM, never crashes. */
    CHECK_STATUS(db_results_count(all, &n), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_get(all, 0), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_get_values(all, t.key[ID], 0, 4, values, &n), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_get_values(snap, t.key[ID], 0, 4, values, &n), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_get_keys(all, 0, 4, keys, &n), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_aggregate(all, t.key[SCORE], DB_AGGREGATE_SUM, values, &found), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_aggregate(snap, t.key[SCORE], DB_AGGREGATE_SUM, values, &found), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_index_of(all, o, &index, &found), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_set_value(all, t.key[SCORE], &v), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_delete_all(all, &n), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_delete_all(snap, &n), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_filter(all, "id > 1", NULL, 0), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_snapshot(all), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_from_class(t.realm, t.cls), DB_ERR_CLOSED_REALM);
    /* Deriving fails too, and a snapshot's count (it needs no reading) does as well: one rule. */
    CHECK_NULL_ERR(db_results_sort(all, &sk, 1), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_distinct(all, &t.key[CITY], 1), DB_ERR_CLOSED_REALM);
    CHECK_NULL_ERR(db_results_limit(all, 2), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_count(snap, &n), DB_ERR_CLOSED_REALM);
    CHECK_STATUS(db_results_set_values(all, t.key[SCORE], 0, &v, 1), DB_ERR_CLOSED_REALM);
    /* Results outlive the realm handle: releasing them afterwards is safe. */
    db_realm_release(t.realm);
    CHECK_STATUS(db_results_count(all, &n), DB_ERR_CLOSED_REALM);
    db_object_release(o);
    db_results_release(snap);
    db_results_release(all);
}

HARNESS_MAIN("results",
    HARNESS_ENTRY(from_class_and_count),
    HARNESS_ENTRY(from_class_errors),
    HARNESS_ENTRY(filter_with_arguments),
    HARNESS_ENTRY(filter_list_arguments_for_in),
    HARNESS_ENTRY(filter_argument_errors),
    HARNESS_ENTRY(query_errors_carry_the_byte_offset),
    HARNESS_ENTRY(query_suffixes),
    HARNESS_ENTRY(sort),
    HARNESS_ENTRY(sort_strings_by_code_point),
    HARNESS_ENTRY(distinct),
    HARNESS_ENTRY(limit),
    HARNESS_ENTRY(get_by_position),
    HARNESS_ENTRY(index_of),
    HARNESS_ENTRY(index_matching),
    HARNESS_ENTRY(realm_of_objects_results_and_sections),
    HARNESS_ENTRY(description),
    HARNESS_ENTRY(aggregates),
    HARNESS_ENTRY(aggregate_errors),
    HARNESS_ENTRY(get_values_lends_many_and_large_strings),
    HARNESS_ENTRY(get_values_in_batches),
    HARNESS_ENTRY(get_values_into_a_buffer),
    HARNESS_ENTRY(get_keys_in_batches),
    HARNESS_ENTRY(set_value),
    HARNESS_ENTRY(set_values),
    HARNESS_ENTRY(delete_all),
    HARNESS_ENTRY(snapshot_is_frozen),
    HARNESS_ENTRY(results_are_live),
    HARNESS_ENTRY(compound_indexes_answer_queries_and_sorts),
    HARNESS_ENTRY(use_after_realm_close))
