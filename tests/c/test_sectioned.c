/*
 * Sectioned results through the C API: by key path, by key path with a sort, by a key function;
 * section counts, keys and objects; freeze/thaw; observing section changes (counts first, then
 * index paths into caller arrays); and the error paths.
 */
#include "fixtures.h"

/* The Dog realm with Rex 3, Ace 5, Bo 3, Rio 1, Amy 5. */
static fx_dogs_t open_dogs(void) {
    static const char *const names[] = {"Rex", "Ace", "Bo", "Rio", "Amy"};
    static const int64_t ages[] = {3, 5, 3, 1, 5};
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("sectioned.realm"));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    for (int i = 0; i < 5; i++) db_object_release(fx_dog(&d, names[i], ages[i]));
    REQUIRE_OK(db_realm_commit(d.realm));
    return d;
}

static size_t sections_of(const db_sectioned_results_t *s) {
    size_t n = 0;
    REQUIRE_OK(db_sectioned_results_count(s, &n));
    return n;
}

static bool first_letter(void *userdata, const db_object_t *object, db_value_t *out_key) {
    db_property_key_t name = *(const db_property_key_t *)userdata;
    db_value_t v;
    if (db_object_get_value(object, name, &v) != DB_OK || v.type != DB_VALUE_STRING || v.string.size == 0) return false;
    *out_key = v_strn(v.string.data, 1);
    return true;
}

static bool failing_key(void *userdata, const db_object_t *object, db_value_t *out_key) {
    (void)userdata;
    (void)object;
    (void)out_key;
    return false;
}

static int changes_seen;
static db_sectioned_change_counts_t last_counts;
static db_index_path_t last_insertions[8];
static size_t last_sections_inserted[8];

static void on_sections(void *userdata, const db_sectioned_change_t *change) {
    (void)userdata;
    changes_seen++;
    REQUIRE_OK(db_sectioned_change_get_counts(change, &last_counts));
    REQUIRE(last_counts.num_insertions <= 8 && last_counts.num_sections_inserted <= 8);
    REQUIRE_OK(db_sectioned_change_get_indices(change, last_sections_inserted, NULL, last_insertions, NULL, NULL));
}

TEST(sections_by_key_path_and_function) {
    fx_dogs_t d = open_dogs();
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    db_sectioned_results_t *by_age = REQUIRE_PTR(db_results_sectioned_by_key_path(all, "age", true));
    CHECK_EQ_UINT(sections_of(by_age), 3);
    db_value_t key;
    REQUIRE_OK(db_sectioned_results_get_key(by_age, 1, &key));
    CHECK_EQ_INT(key.integer, 3);
    size_t n = 0;
    REQUIRE_OK(db_sectioned_results_section_count(by_age, 1, &n));
    CHECK_EQ_UINT(n, 2);
    db_object_t *bo = REQUIRE_PTR(db_sectioned_results_get(by_age, 1, 1));
    char buf[16];
    CHECK_EQ_STR(fx_get_str(bo, "name", buf, sizeof buf), "Bo");
    db_object_release(bo);

    db_sort_path_t sort = {.key_path = "name", .ascending = true};
    db_property_key_t name = d.name;
    db_sectioned_results_t *by_letter = REQUIRE_PTR(db_results_sectioned_by_function(all, &sort, 1, first_letter, &name, NULL));
    CHECK_EQ_UINT(sections_of(by_letter), 3);
    REQUIRE_OK(db_sectioned_results_get_key(by_letter, 0, &key));
    CHECK(key.type == DB_VALUE_STRING && key.string.size == 1 && key.string.data[0] == 'A');
    db_sectioned_results_t *sorted = REQUIRE_PTR(db_results_sectioned_by_key_path_sorted(all, "age", &sort, 1));
    CHECK_EQ_UINT(sections_of(sorted), 3);

    /* Observe: a new dog "Cy" makes a new section C between B and R. */
    changes_seen = 0;
    db_notification_token_t *token = REQUIRE_PTR(db_sectioned_results_observe(by_letter, NULL, 0, on_sections, NULL, NULL));
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    CHECK_EQ_INT(changes_seen, 1);
    CHECK(last_counts.is_initial);
    db_sectioned_results_t *frozen = REQUIRE_PTR(db_sectioned_results_freeze(by_letter));
    CHECK(db_sectioned_results_is_frozen(frozen) && !db_sectioned_results_is_frozen(by_letter));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_object_release(fx_dog(&d, "Cy", 2));
    db_object_release(fx_dog(&d, "Ava", 2));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_INT(changes_seen, 2);
    CHECK_EQ_UINT(last_counts.num_sections_inserted, 1);
    CHECK_EQ_UINT(last_sections_inserted[0], 2);
    CHECK_EQ_UINT(last_counts.num_insertions, 1); /* Ava, in section A (Ace, Amy, Ava) */
    CHECK_EQ_UINT(last_insertions[0].section, 0);
    CHECK_EQ_UINT(last_insertions[0].item, 2);
    CHECK_EQ_UINT(sections_of(frozen), 3);
    CHECK_EQ_UINT(sections_of(by_letter), 4);
    db_sectioned_results_t *thawed = REQUIRE_PTR(db_sectioned_results_thaw(frozen));
    CHECK_EQ_UINT(sections_of(thawed), 4);
    CHECK_NULL_ERR(db_sectioned_results_observe(frozen, NULL, 0, on_sections, NULL, NULL), DB_ERR_LOGIC);

    /* Errors. */
    db_sectioned_results_t *failing = REQUIRE_PTR(db_results_sectioned_by_function(all, NULL, 0, failing_key, NULL, NULL));
    CHECK_STATUS(db_sectioned_results_count(failing, &n), DB_ERR_CALLBACK);
    CHECK_NULL_ERR(db_results_sectioned_by_key_path(all, "nope", true), DB_ERR_QUERY);
    CHECK_NULL_ERR(db_results_sectioned_by_function(all, NULL, 0, NULL, NULL, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_sectioned_results_get_key(by_letter, 9, &key), DB_ERR_OUT_OF_RANGE);
    CHECK_NULL_ERR(db_sectioned_results_get(by_letter, 0, 9), DB_ERR_OUT_OF_RANGE);
    CHECK_STATUS(db_sectioned_results_count(NULL, &n), DB_ERR_INVALID_ARGUMENT);
    CHECK(!db_sectioned_results_is_valid(NULL));

    db_notification_token_release(token);
    db_sectioned_results_release(failing);
    db_sectioned_results_release(thawed);
    db_sectioned_results_release(frozen);
    db_sectioned_results_release(sorted);
    db_sectioned_results_release(by_letter);
    db_sectioned_results_release(by_age);
    db_results_release(all);
    db_realm_release(d.realm);
}

HARNESS_MAIN("sectioned",
    HARNESS_ENTRY(sections_by_key_path_and_function))
