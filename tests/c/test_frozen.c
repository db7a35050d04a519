/*
 * Frozen handles through the C API: db_realm_freeze, db_object_freeze, db_results_freeze,
 * db_list_freeze (and set, dictionary) with their thaw and is_frozen; frozen handles read from
 * another thread; what frozen handles refuse; releasing them unpins their version.
 */
#include "fixtures.h"
#include <pthread.h>

static int64_t age_of(const db_object_t *o, db_property_key_t age) {
    db_value_t v;
    REQUIRE_OK(db_object_get_value(o, age, &v));
    return v.integer;
}

typedef struct reader_args {
    const db_results_t *results;
    const db_object_t *object;
    db_property_key_t age;
    int bad;
} reader_args_t;

static void *read_frozen(void *arg) {
    reader_args_t *a = (reader_args_t *)arg;
    for (int i = 0; i < 100; i++) {
        size_t n = 0;
        db_value_t v;
        if (db_results_count(a->results, &n) != DB_OK || n != 1) a->bad++;
        if (db_object_get_value(a->object, a->age, &v) != DB_OK || v.integer != 3) a->bad++;
    }
    return NULL;
}

static void ignore_change(void *userdata, const db_collection_change_t *change) {
    (void)userdata;
    (void)change;
}

TEST(frozen_handles_keep_their_version) {
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("frozen.realm"));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_object_t *rex = fx_dog(&d, "Rex", 3);
    db_list_t *scores = REQUIRE_PTR(db_object_get_list(rex, d.scores));
    db_value_t one = v_int(1);
    REQUIRE_OK(db_list_insert(scores, 0, &one));
    REQUIRE_OK(db_realm_commit(d.realm));

    db_realm_t *frozen_realm = REQUIRE_PTR(db_realm_freeze(d.realm));
    db_object_t *frozen_rex = REQUIRE_PTR(db_object_freeze(rex));
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    db_results_t *frozen_all = REQUIRE_PTR(db_results_freeze(all));
    db_list_t *frozen_scores = REQUIRE_PTR(db_list_freeze(scores));
    db_set_t *tags = REQUIRE_PTR(db_object_get_set(rex, d.tags));
    db_dictionary_t *meta = REQUIRE_PTR(db_object_get_dictionary(rex, d.meta));
    db_set_t *frozen_tags = REQUIRE_PTR(db_set_freeze(tags));
    db_dictionary_t *frozen_meta = REQUIRE_PTR(db_dictionary_freeze(meta));
    CHECK(db_realm_is_frozen(frozen_realm) && db_object_is_frozen(frozen_rex) && db_results_is_frozen(frozen_all));
    CHECK(db_list_is_frozen(frozen_scores) && db_set_is_frozen(frozen_tags) && db_dictionary_is_frozen(frozen_meta));
    CHECK(!db_realm_is_frozen(d.realm) && !db_object_is_frozen(rex) && !db_list_is_frozen(scores));
    CHECK(!db_realm_is_frozen(NULL) && !db_object_is_frozen(NULL));

    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_value_t nine = v_int(9);
    REQUIRE_OK(db_object_set_value(rex, d.age, &nine));
    REQUIRE_OK(db_list_insert(scores, 1, &nine));
    db_object_release(fx_dog(&d, "Rex", 3));
    REQUIRE_OK(db_realm_commit(d.realm));

    CHECK_EQ_INT(age_of(frozen_rex, d.age), 3);
    CHECK_EQ_UINT(fx_results_count(frozen_all), 1);
    CHECK_EQ_UINT(fx_results_count(all), 2);
    size_t n = 0;
    REQUIRE_OK(db_list_size(frozen_scores, &n));
    CHECK_EQ_UINT(n, 1);

    /* Read from another thread while the live realm goes on. */
    reader_args_t args = {frozen_all, frozen_rex, d.age, 0};
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, read_frozen, &args) == 0);
    db_object_release(fx_write_dog(&d, "Rex", 3));
    REQUIRE(pthread_join(thread, NULL) == 0);
    CHECK_EQ_INT(args.bad, 0);

    /* Frozen handles refuse changes and observers. */
    CHECK_STATUS(db_realm_begin_write(frozen_realm), DB_ERR_LOGIC);
    CHECK_STATUS(db_realm_refresh(frozen_realm, NULL), DB_ERR_LOGIC);
    CHECK_NULL_ERR(db_results_observe(frozen_all, NULL, 0, ignore_change, NULL, NULL), DB_ERR_LOGIC);
    CHECK_NULL_ERR(db_list_observe(frozen_scores, NULL, 0, ignore_change, NULL, NULL), DB_ERR_LOGIC);

    /* Thaw. */
    db_object_t *thawed = REQUIRE_PTR(db_object_thaw(frozen_rex));
    CHECK_EQ_INT(age_of(thawed, d.age), 9);
    db_results_t *thawed_all = REQUIRE_PTR(db_results_thaw(frozen_all));
    CHECK_EQ_UINT(fx_results_count(thawed_all), 3);
    db_realm_t *live = REQUIRE_PTR(db_realm_thaw(frozen_realm));
    db_realm_release(live); /* does not close the live realm */
    CHECK(db_realm_is_valid(d.realm));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    REQUIRE_OK(db_object_delete(rex));
    REQUIRE_OK(db_realm_commit(d.realm));
    /* Thawing what no longer exists gives NULL, and that is not an error. */
    CHECK_NULL_ERR(db_object_thaw(frozen_rex), DB_OK);
    CHECK_NULL_ERR(db_list_thaw(frozen_scores), DB_OK);
    CHECK_EQ_INT(age_of(frozen_rex, d.age), 3); /* still readable frozen */

    /* Releasing the frozen handles unpins their version. */
    uint64_t pinned = 0, after = 0;
    REQUIRE_OK(db_realm_get_active_version_count(d.realm, &pinned));
    db_object_release(thawed);
    db_results_release(thawed_all);
    db_object_release(frozen_rex);
    db_results_release(frozen_all);
    db_list_release(frozen_scores);
    db_set_release(frozen_tags);
    db_dictionary_release(frozen_meta);
    db_realm_release(frozen_realm);
    REQUIRE_OK(db_realm_get_active_version_count(d.realm, &after));
    CHECK(after < pinned);
    db_set_release(tags);
    db_dictionary_release(meta);
    db_list_release(scores);
    db_object_release(rex);
    db_results_release(all);
    db_realm_release(d.realm);
}

HARNESS_MAIN("frozen",
    HARNESS_ENTRY(frozen_handles_keep_their_version))
