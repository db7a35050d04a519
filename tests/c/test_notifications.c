/*
 * Notifications through the C API: db_results_observe, db_list_observe, db_dictionary_observe and
 * db_object_observe; the change readers (counts first, then indices into caller arrays); key
 * paths; tokens invalidated and released (also from inside their own callback); userdata freed
 * exactly once; delivery by db_realm_deliver_notifications, db_realm_commit and db_realm_refresh;
 * and the error paths.
 */
#define _DEFAULT_SOURCE /* usleep */
#include "fixtures.h"
#include <pthread.h>
#include <unistd.h>

/* What a collection callback saw: the last change, read with the two readers. */
typedef struct seen {
    int calls;
    db_collection_change_counts_t counts;
    size_t deletions[16], insertions[16], modifications[16], modifications_new[16];
    db_index_move_t moves[16];
    db_notification_token_t *release_me; /* released from inside the callback when set */
} seen_t;

static void on_change(void *userdata, const db_collection_change_t *change) {
    seen_t *seen = (seen_t *)userdata;
    seen->calls++;
    REQUIRE_OK(db_collection_change_get_counts(change, &seen->counts));
    REQUIRE(seen->counts.num_deletions <= 16 && seen->counts.num_insertions <= 16 &&
            seen->counts.num_modifications <= 16 && seen->counts.num_moves <= 16);
    REQUIRE_OK(db_collection_change_get_indices(change, seen->deletions, seen->insertions, seen->modifications,
                                                seen->modifications_new, seen->moves));
    if (seen->release_me) {
        db_notification_token_release(seen->release_me);
        seen->release_me = NULL;
    }
}

static int freed;
static void count_free(void *userdata) {
    (void)userdata;
    freed++;
}

TEST(results_changes_and_key_paths) {
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("notify_results.realm"));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_object_t *a = fx_dog(&d, "a", 1), *b = fx_dog(&d, "b", 2);
    REQUIRE_OK(db_realm_commit(d.realm));
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    db_results_t *sorted = REQUIRE_PTR(db_results_filter(all, "TRUEPREDICATE SORT(age DESC)", NULL, 0));
    seen_t any = {0}, ages = {0};
    const char *age_only[] = {"age"};
    freed = 0;
    db_notification_token_t *t1 = REQUIRE_PTR(db_results_observe(sorted, NULL, 0, on_change, &any, count_free));
    db_notification_token_t *t2 = REQUIRE_PTR(db_results_observe(all, age_only, 1, on_change, &ages, NULL));
    CHECK_EQ_INT(any.calls, 0);
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    CHECK_EQ_INT(any.calls, 1);
    CHECK(any.counts.is_initial);
    CHECK_EQ_INT(ages.calls, 1);

    /* a becomes the oldest: sorted by age descending it moves from 1 to 0; a new dog comes last. */
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_value_t v = v_int(5);
    REQUIRE_OK(db_object_set_value(a, d.age, &v));
    db_object_release(fx_dog(&d, "c", 0));
    REQUIRE_OK(db_realm_commit(d.realm)); /* delivers */
    CHECK_EQ_INT(any.calls, 2);
    CHECK(!any.counts.is_initial);
    CHECK_EQ_UINT(any.counts.num_moves, 1);
    CHECK_EQ_UINT(any.moves[0].from, 1);
    CHECK_EQ_UINT(any.moves[0].to, 0);
    CHECK_EQ_UINT(any.counts.num_insertions, 2); /* the move's new index and the new dog */
    CHECK_EQ_UINT(any.insertions[0], 0);
    CHECK_EQ_UINT(any.insertions[1], 2);
    CHECK_EQ_UINT(any.counts.num_modifications, 1);
    CHECK_EQ_UINT(any.modifications[0], 1);
    CHECK_EQ_UINT(any.modifications_new[0], 0);
    CHECK_EQ_INT(ages.calls, 2);
    CHECK_EQ_UINT(ages.counts.num_modifications, 1);

    /* A name change does not satisfy the "age" key path. */
    REQUIRE_OK(db_realm_begin_write(d.realm));
    v = v_str("B");
    REQUIRE_OK(db_object_set_value(b, d.name, &v));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_INT(any.calls, 3);
    CHECK_EQ_INT(ages.calls, 2);

    /* Released tokens: no more calls; the userdata is freed once. */
    db_notification_token_release(t1);
    CHECK_EQ_INT(freed, 1);
    CHECK_OK(db_notification_token_invalidate(t2));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_object_release(fx_dog(&d, "d", 9));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_INT(any.calls, 3);
    CHECK_EQ_INT(ages.calls, 2);
    db_notification_token_release(t2);
    db_notification_token_release(NULL);
    db_object_release(a);
    db_object_release(b);
    db_results_release(sorted);
    db_results_release(all);
    db_realm_release(d.realm);
}

TEST(release_from_inside_the_callback_and_changes_from_another_handle) {
    char path[4096];
    snprintf(path, sizeof path, "%s", harness_tmpfile("notify_release.realm"));
    fx_dogs_t d = fx_open_dogs(path);
    fx_dogs_t other = fx_open_dogs(path); /* a second handle on the same file */
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    seen_t seen = {0};
    freed = 0;
    seen.release_me = REQUIRE_PTR(db_results_observe(all, NULL, 0, on_change, &seen, count_free));
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    CHECK_EQ_INT(seen.calls, 1);
    CHECK_EQ_INT(freed, 1);
    CHECK(seen.release_me == NULL);

    seen_t later = {0};
    db_notification_token_t *token = REQUIRE_PTR(db_results_observe(all, NULL, 0, on_change, &later, NULL));
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    db_object_release(fx_write_dog(&other, "x", 1));
    CHECK_EQ_INT(later.calls, 1);
    bool advanced = false;
    REQUIRE_OK(db_realm_refresh(d.realm, &advanced));
    CHECK(advanced);
    CHECK_EQ_INT(later.calls, 2);
    CHECK_EQ_UINT(later.counts.num_insertions, 1);
    CHECK_EQ_INT(seen.calls, 1);
    db_notification_token_release(token);
    db_results_release(all);
    db_realm_release(other.realm);
    db_realm_release(d.realm);
}

static int object_calls;
static bool object_deleted;
static int64_t old_age, new_age;
static db_property_key_t changed_key;

static void on_object(void *userdata, const db_object_change_t *change) {
    (void)userdata;
    object_calls++;
    REQUIRE_OK(db_object_change_is_deleted(change, &object_deleted));
    size_t n = 0;
    REQUIRE_OK(db_object_change_get_num_properties(change, &n));
    if (n > 0) {
        db_value_t before, after;
        REQUIRE_OK(db_object_change_get_property(change, 0, &changed_key, &before, &after));
        old_age = before.integer;
        new_age = after.integer;
        CHECK_STATUS(db_object_change_get_property(change, n, NULL, NULL, NULL), DB_ERR_OUT_OF_RANGE);
    }
}

TEST(object_changes) {
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("notify_object.realm"));
    db_object_t *rex = fx_write_dog(&d, "Rex", 3);
    object_calls = 0;
    db_notification_token_t *token = REQUIRE_PTR(db_object_observe(rex, NULL, 0, on_object, NULL, NULL));
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    CHECK_EQ_INT(object_calls, 0); /* no initial call */
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_value_t v = v_int(4);
    REQUIRE_OK(db_object_set_value(rex, d.age, &v));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_INT(object_calls, 1);
    CHECK(!object_deleted);
    CHECK_EQ_INT(changed_key, d.age);
    CHECK_EQ_INT(old_age, 3);
    CHECK_EQ_INT(new_age, 4);
    REQUIRE_OK(db_realm_begin_write(d.realm));
    REQUIRE_OK(db_object_delete(rex));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_INT(object_calls, 2);
    CHECK(object_deleted);
    db_notification_token_release(token);
    db_object_release(rex);
    db_realm_release(d.realm);
}

TEST(list_and_dictionary_of_values) {
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("notify_values.realm"));
    db_object_t *rex = fx_write_dog(&d, "Rex", 3);
    db_list_t *scores = REQUIRE_PTR(db_object_get_list(rex, d.scores));
    db_dictionary_t *meta = REQUIRE_PTR(db_object_get_dictionary(rex, d.meta));
    seen_t list_seen = {0}, dict_seen = {0};
    db_notification_token_t *t1 = REQUIRE_PTR(db_list_observe(scores, NULL, 0, on_change, &list_seen, NULL));
    db_notification_token_t *t2 = REQUIRE_PTR(db_dictionary_observe(meta, NULL, 0, on_change, &dict_seen, NULL));
    const char *bad[] = {"x"};
    CHECK_NULL_ERR(db_list_observe(scores, bad, 1, on_change, &list_seen, NULL), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_value_t one = v_int(1), two = v_int(2), x = v_str("x");
    REQUIRE_OK(db_list_insert(scores, 0, &one));
    REQUIRE_OK(db_list_insert(scores, 1, &two));
    REQUIRE_OK(db_dictionary_insert(meta, "k", &x));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_UINT(list_seen.counts.num_insertions, 2);
    CHECK_EQ_UINT(dict_seen.counts.num_insertions, 1);
    REQUIRE_OK(db_realm_begin_write(d.realm));
    db_value_t y = v_str("y");
    REQUIRE_OK(db_dictionary_insert(meta, "k", &y));
    REQUIRE_OK(db_realm_commit(d.realm));
    CHECK_EQ_UINT(dict_seen.counts.num_modifications, 1);
    db_notification_token_release(t1);
    db_notification_token_release(t2);
    db_list_release(scores);
    db_dictionary_release(meta);
    db_object_release(rex);
    db_realm_release(d.realm);
}

/* A dictionary of objects reports by key in key order, null values included: the key whose dog
 * was renamed, and the keys pointed at another dog or at null, are modifications. */
static const db_property_info_t kennel_owner_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_PRIMARY_KEY),
    {.name = "pets", .type = DB_PROPERTY_TYPE_OBJECT, .flags = DB_PROPERTY_FLAG_NULLABLE, .key = -1,
     .collection_type = DB_COLLECTION_DICTIONARY, .link_target = "Pet"},
};
static const db_property_info_t kennel_pet_props[] = {FX_PROP("name", DB_PROPERTY_TYPE_STRING, 0)};

TEST(dictionary_of_objects_by_key) {
    db_class_info_t c[2];
    c[0] = fx_class("Owner", kennel_owner_props, FX_COUNT(kennel_owner_props));
    c[1] = fx_class("Pet", kennel_pet_props, FX_COUNT(kennel_pet_props));
    db_schema_t *schema = REQUIRE_PTR(db_schema_new(c, 2));
    db_realm_t *realm = fx_open_with(harness_tmpfile("notify_dict_objects.realm"), schema, 1);
    db_schema_release(schema);
    const char *owner_names[] = {"name"}, *pet_names[] = {"name"};
    db_value_t ann_v[] = {v_str("Ann")}, a_v[] = {v_str("A")}, b_v[] = {v_str("B")};
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_t *ann = REQUIRE_PTR(fx_create(realm, "Owner", owner_names, ann_v, 1, DB_UPSERT_NONE));
    db_object_t *a = REQUIRE_PTR(fx_create(realm, "Pet", pet_names, a_v, 1, DB_UPSERT_NONE));
    db_object_t *b = REQUIRE_PTR(fx_create(realm, "Pet", pet_names, b_v, 1, DB_UPSERT_NONE));
    db_dictionary_t *pets = REQUIRE_PTR(db_object_get_dictionary(ann, fx_prop_key(realm, "Owner", "pets")));
    db_value_t null_v = v_null(), link_a = v_link(a), link_b = v_link(b);
    REQUIRE_OK(db_dictionary_insert(pets, "x", &null_v));
    REQUIRE_OK(db_dictionary_insert(pets, "y", &link_a));
    REQUIRE_OK(db_dictionary_insert(pets, "z", &link_b));
    REQUIRE_OK(db_realm_commit(realm));
    seen_t seen = {0};
    const char *bad[] = {"nope"};
    CHECK_NULL_ERR(db_dictionary_observe(pets, bad, 1, on_change, &seen, NULL), DB_ERR_INVALID_ARGUMENT);
    db_notification_token_t *token = REQUIRE_PTR(db_dictionary_observe(pets, NULL, 0, on_change, &seen, NULL));
    REQUIRE_OK(db_realm_deliver_notifications(realm));
    CHECK_EQ_INT(seen.calls, 1);
    REQUIRE_OK(db_realm_begin_write(realm));
    db_value_t renamed = v_str("B2");
    REQUIRE_OK(db_object_set_value(b, fx_prop_key(realm, "Pet", "name"), &renamed));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_INT(seen.calls, 2);
    CHECK_EQ_UINT(seen.counts.num_modifications, 1);
    CHECK_EQ_UINT(seen.modifications_new[0], 2); /* key z, third in key order (B is the second non-null) */
    REQUIRE_OK(db_realm_begin_write(realm));
    REQUIRE_OK(db_dictionary_insert(pets, "x", &link_b));
    REQUIRE_OK(db_dictionary_insert(pets, "z", &null_v));
    REQUIRE_OK(db_realm_commit(realm));
    CHECK_EQ_UINT(seen.counts.num_deletions + seen.counts.num_insertions, 0);
    CHECK_EQ_UINT(seen.counts.num_modifications, 2);
    CHECK_EQ_UINT(seen.modifications_new[0], 0);
    CHECK_EQ_UINT(seen.modifications_new[1], 2);
    db_notification_token_release(token);
    db_dictionary_release(pets);
    db_object_release(a);
    db_object_release(b);
    db_object_release(ann);
    db_realm_release(realm);
}

TEST(registration_errors_free_the_userdata) {
    fx_dogs_t d = fx_open_dogs(harness_tmpfile("notify_errors.realm"));
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    seen_t seen = {0};
    const char *unknown[] = {"nope"};
    freed = 0;
    CHECK_NULL_ERR(db_results_observe(all, unknown, 1, on_change, &seen, count_free), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(freed, 1);
    CHECK_NULL_ERR(db_results_observe(all, NULL, 0, NULL, &seen, count_free), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(freed, 2);
    CHECK_NULL_ERR(db_results_observe(NULL, NULL, 0, on_change, &seen, count_free), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(freed, 3);
    CHECK_NULL_ERR(db_results_observe(all, NULL, 1, on_change, &seen, NULL), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_begin_write(d.realm));
    CHECK_NULL_ERR(db_results_observe(all, NULL, 0, on_change, &seen, count_free), DB_ERR_WRONG_TRANSACTION_STATE);
    CHECK_EQ_INT(freed, 4);
    REQUIRE_OK(db_realm_cancel_write(d.realm));
    CHECK_STATUS(db_collection_change_get_counts(NULL, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_notification_token_invalidate(NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_realm_deliver_notifications(NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_NULL_ERR(db_object_observe(NULL, NULL, 0, on_object, NULL, NULL), DB_ERR_INVALID_ARGUMENT);
    db_results_release(all);
    db_realm_release(d.realm);
}

static volatile int wakes;
static void on_wake(void *userdata) {
    (void)userdata;
    __sync_fetch_and_add(&wakes, 1);
}

static void *commit_from_thread(void *path) {
    fx_dogs_t other = fx_open_dogs((const char *)path);
    if (db_realm_begin_write(other.realm) == DB_OK) {
        db_object_release(fx_dog(&other, "t", 1));
        (void)db_realm_commit(other.realm);
    }
    db_realm_release(other.realm);
    return NULL;
}

TEST(scheduler_is_woken_by_commits_elsewhere) {
    char path[4096];
    snprintf(path, sizeof path, "%s", harness_tmpfile("notify_scheduler.realm"));
    fx_dogs_t d = fx_open_dogs(path);
    wakes = 0;
    freed = 0;
    REQUIRE_OK(db_realm_set_scheduler(d.realm, on_wake, NULL, count_free));
    db_results_t *all = REQUIRE_PTR(db_results_from_class(d.realm, d.cls));
    seen_t seen = {0};
    db_notification_token_t *token = REQUIRE_PTR(db_results_observe(all, NULL, 0, on_change, &seen, NULL));
    REQUIRE_OK(db_realm_deliver_notifications(d.realm));
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, commit_from_thread, path) == 0);
    pthread_join(thread, NULL);
    for (int i = 0; i < 500 && wakes == 0; i++) usleep(10000);
    CHECK(wakes > 0);
    CHECK_EQ_INT(seen.calls, 1); /* nothing is delivered until the owner refreshes */
    REQUIRE_OK(db_realm_refresh(d.realm, NULL));
    CHECK_EQ_INT(seen.calls, 2);
    CHECK_EQ_UINT(seen.counts.num_insertions, 1);
    /* Replacing the scheduler frees the old userdata; NULL removes it. */
    REQUIRE_OK(db_realm_set_scheduler(d.realm, NULL, NULL, NULL));
    CHECK_EQ_INT(freed, 1);
    int before = wakes;
    REQUIRE(pthread_create(&thread, NULL, commit_from_thread, path) == 0);
    pthread_join(thread, NULL);
    usleep(400000);
    CHECK_EQ_INT(wakes, before);
    CHECK_STATUS(db_realm_set_scheduler(NULL, on_wake, NULL, count_free), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(freed, 2);
    db_notification_token_release(token);
    db_results_release(all);
    db_realm_release(d.realm);
}

HARNESS_MAIN("notifications",
    HARNESS_ENTRY(scheduler_is_woken_by_commits_elsewhere),
    HARNESS_ENTRY(results_changes_and_key_paths),
    HARNESS_ENTRY(dictionary_of_objects_by_key),
    HARNESS_ENTRY(release_from_inside_the_callback_and_changes_from_another_handle),
    HARNESS_ENTRY(object_changes),
    HARNESS_ENTRY(list_and_dictionary_of_values),
    HARNESS_ENTRY(registration_errors_free_the_userdata))
