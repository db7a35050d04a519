/*
 * fork(): a child process never uses its parent's LMDB environments. It opens the file afresh
 * (its own environment, its own reader slots), an inherited realm or object fails with
 * DB_ERR_WRONG_THREAD, releasing them leaves the parent's snapshot pinned, and notifications
 * work in the child (its own commit watcher thread).
 *
 * A child reports through its exit status: 0, or the number of failed checks (each printed).
 */
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixtures.h"

static int child_failures;

static void sleep_ms(long ms) {
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}

#define CHILD_CHECK(cond)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            db_error_t e_;                                                                  \
            db_get_last_error(&e_);                                                         \
            fprintf(stderr, "child %d: %s:%d: CHECK(%s) failed (last error %s: %s)\n",      \
                    (int)getpid(), __FILE__, __LINE__, #cond, harness_status_name(e_.code), \
                    e_.message ? e_.message : "");                                          \
            child_failures++;                                                               \
        }                                                                                   \
    } while (0)

/* Whether the last error is `code` and its message contains `text`. */
static bool last_error_is(int code, const char *text) {
    db_error_t error;
    return db_get_last_error(&error) && (int)error.code == code && error.message &&
           strstr(error.message, text) != NULL;
}

/* Forks; the child runs `body(arg)` and exits with its failure count. */
static pid_t fork_child(void (*body)(void *), void *arg) {
    pid_t pid;
    fflush(NULL);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        alarm(60); /* a hung child must not hang the test */
        body(arg);
        fflush(NULL);
        _exit(child_failures > 100 ? 100 : child_failures);
    }
    return pid;
}

/* Waits for the child; its status must be a clean exit 0. */
static void expect_child_ok(pid_t pid) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    if (WIFEXITED(status)) CHECK_EQ_INT(WEXITSTATUS(status), 0);
    else fprintf(stderr, "child ended by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static db_realm_t *child_open(const char *path) {
    db_schema_t *schema = fx_schema();
    db_config_t *config = fx_config(path, schema, 1);
    db_realm_t *realm = db_realm_open(config);
    db_config_release(config);
    db_schema_release(schema);
    return realm;
}

/* Person{id, "from the child", 7} in its own write (the fixtures' REQUIREs end a test, not a child). */
static bool child_add_person(db_realm_t *realm, int64_t id) {
    static const char *const names[3] = {"id", "name", "age"};
    db_property_key_t keys[3];
    db_value_t values[3];
    db_class_key_t cls = 0;
    db_object_t *object;
    int i;
    values[0] = v_int(id);
    values[1] = v_str("from the child");
    values[2] = v_int(7);
    if (db_realm_find_class(realm, "Person", &cls) != DB_OK) return false;
    for (i = 0; i < 3; i++)
        if (db_realm_find_property(realm, cls, names[i], &keys[i]) != DB_OK) return false;
    if (db_realm_begin_write(realm) != DB_OK) return false;
    object = db_object_create(realm, cls, keys, values, 3, DB_UPSERT_NONE);
    if (!object) {
        fprintf(stderr, "child %d: create failed\n", (int)getpid());
        db_realm_cancel_write(realm);
        return false;
    }
    db_object_release(object);
    return db_realm_commit(realm) == DB_OK;
}

static size_t child_count(db_realm_t *realm) {
    db_class_key_t cls = 0;
    size_t n = (size_t)-1;
    if (db_realm_find_class(realm, "Person", &cls) != DB_OK) return (size_t)-1;
    if (db_realm_count_objects(realm, cls, &n) != DB_OK) return (size_t)-1;
    return n;
}

/* ---- the child opens the parent's file ------------------------------------------------------ */

struct open_args {
    const char *path;
};

static void child_opens_and_writes(void *arg) {
    struct open_args *args = arg;
    db_realm_t *realm = child_open(args->path);
    db_realm_t *other;
    db_version_info_t info;
    CHILD_CHECK(realm != NULL);
    if (!realm) return;
    CHILD_CHECK(child_count(realm) == 10); /* pins a snapshot in the child */
    /* A second handle commits: the first one's snapshot now lags, and its reader slot is this
     * process's (an inherited environment would have registered the parent's pid). */
    other = child_open(args->path);
    CHILD_CHECK(other != NULL);
    CHILD_CHECK(other && child_add_person(other, 100));
    CHILD_CHECK(db_realm_get_version_info(realm, &info) == DB_OK);
    CHILD_CHECK(info.oldest_reader_lag >= 1);
    CHILD_CHECK(info.oldest_reader_pid == (int64_t)getpid());
    CHILD_CHECK(db_realm_refresh(realm, NULL) == DB_OK);
    CHILD_CHECK(child_count(realm) == 11);
    db_realm_release(other);
    db_realm_release(realm);
}

TEST(child_opens_the_parents_file_and_writes) {
    struct open_args args;
    db_realm_t *realm, *writer;
    db_version_info_t info;
    bool advanced = false;
    args.path = harness_tmpfile("fork.realm");
    realm = fx_open(args.path);
    fx_add_people(realm, 10);
    REQUIRE_OK(db_realm_invalidate(realm)); /* open, cached, no snapshot: the child's reader is the oldest */
    expect_child_ok(fork_child(child_opens_and_writes, &args));
    CHECK_EQ_UINT(fx_count(realm, "Person"), 11);
    /* The parent's own snapshot and commits still work after the child's. */
    writer = fx_open(args.path);
    REQUIRE_OK(db_realm_begin_write(writer));
    db_object_release(fx_person(writer, 200, "after the child", 1));
    REQUIRE_OK(db_realm_commit(writer));
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_INT(info.oldest_reader_pid, (int64_t)getpid());
    REQUIRE_OK(db_realm_refresh(realm, &advanced));
    CHECK(advanced);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 12);
    db_realm_release(writer);
    db_realm_release(realm);
}

/* ---- inherited handles ----------------------------------------------------------------------- */

struct inherited_args {
    db_realm_t *realm;
    db_object_t *person;
    db_realm_t *frozen;
};

static void child_uses_inherited_handles(void *arg) {
    struct inherited_args *args = arg;
    size_t n = 0;
    db_value_t value;
    db_class_key_t cls = 0;
    CHILD_CHECK(db_realm_find_class(args->realm, "Person", &cls) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(last_error_is(DB_ERR_WRONG_THREAD, "fork"));
    CHILD_CHECK(db_realm_count_objects(args->realm, 1, &n) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(db_realm_begin_write(args->realm) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(db_realm_refresh(args->realm, NULL) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(db_object_get_value_by_name(args->person, "id", &value) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(last_error_is(DB_ERR_WRONG_THREAD, "fork"));
    CHILD_CHECK(db_realm_count_objects(args->frozen, 1, &n) == DB_ERR_WRONG_THREAD);
    CHILD_CHECK(db_realm_freeze(args->realm) == NULL);
    /* Closing and releasing only forget them: the parent's snapshots stay pinned. */
    CHILD_CHECK(db_realm_close(args->realm) == DB_OK);
    db_object_release(args->person);
    db_realm_release(args->frozen);
    db_realm_release(args->realm);
}

TEST(inherited_handles_fail_and_leave_the_parent_alone) {
    struct inherited_args args;
    const char *path = harness_tmpfile("fork.realm");
    db_realm_t *writer;
    db_version_info_t info;
    db_value_t value;
    args.realm = fx_open(path);
    fx_add_people(args.realm, 3);
    args.person = fx_require_person(args.realm, 2); /* a read transaction */
    args.frozen = (db_realm_t *)REQUIRE_PTR(db_realm_freeze(args.realm));
    expect_child_ok(fork_child(child_uses_inherited_handles, &args));
    /* Another commit: the parent's snapshot lags it, so it is the oldest reader, still there. */
    writer = fx_open(path);
    REQUIRE_OK(db_realm_begin_write(writer));
    db_object_release(fx_person(writer, 50, "later", 1));
    REQUIRE_OK(db_realm_commit(writer));
    REQUIRE_OK(db_realm_get_version_info(writer, &info));
    CHECK_EQ_INT(info.oldest_reader_pid, (int64_t)getpid());
    CHECK_EQ_UINT(info.oldest_reader_lag, 1);
    CHECK_EQ_UINT(info.readers, 2); /* the parent's realm (shared with its frozen view) and the writer */
    CHECK(db_realm_is_valid(args.realm));
    CHECK_OK(db_object_get_value_by_name(args.person, "id", &value));
    CHECK_EQ_INT(value.integer, 2);
    CHECK_EQ_UINT(fx_count(args.frozen, "Person"), 3);
    CHECK_EQ_UINT(fx_count(args.realm, "Person"), 3);
    db_object_release(args.person);
    db_realm_release(args.frozen);
    db_realm_release(writer);
    db_realm_release(args.realm);
}

/* ---- notifications in the child -------------------------------------------------------------- */

static atomic_int wakes;

static void on_wake(void *userdata) {
    (void)userdata;
    atomic_fetch_add(&wakes, 1);
}

struct notify_args {
    const char *path;
    int ready[2]; /* child -> parent: subscribed */
};

static void child_gets_notified(void *arg) {
    struct notify_args *args = arg;
    db_realm_t *realm;
    atomic_store(&wakes, 0); /* the parent's count came along */
    realm = child_open(args->path);
    int waited = 0, before, seen = 0;
    char byte = 1;
    CHILD_CHECK(realm != NULL);
    if (!realm) return;
    CHILD_CHECK(db_realm_set_scheduler(realm, on_wake, NULL, NULL) == DB_OK);
    CHILD_CHECK(child_count(realm) == 0);
    while (atomic_load(&wakes) == 0 && waited++ < 500) sleep_ms(10); /* the subscription's first call */
    before = atomic_load(&wakes);
    CHILD_CHECK(write(args->ready[1], &byte, 1) == 1);
    /* Refresh only when woken, until a wake-up shows the parent's commit. A late initial call
     * (a loaded machine) may wake us before that commit: it must not count as the commit's. */
    waited = 0;
    while (!seen && waited < 2000) {
        if (atomic_load(&wakes) == before) {
            sleep_ms(10);
            waited++;
            continue;
        }
        before = atomic_load(&wakes);
        CHILD_CHECK(db_realm_refresh(realm, NULL) == DB_OK);
        seen = child_count(realm) == 1;
    }
    CHILD_CHECK(seen); /* woken by the parent's commit, and the refresh read it */
    db_realm_release(realm);
}

TEST(notifications_work_in_the_child) {
    struct notify_args args;
    db_realm_t *realm;
    char byte = 0;
    pid_t pid;
    args.path = harness_tmpfile("fork.realm");
    realm = fx_open(args.path);
    /* The parent's commit watcher runs (its thread, inotify descriptor and pipe are inherited). */
    REQUIRE_OK(db_realm_set_scheduler(realm, on_wake, NULL, NULL));
    /* Fork once the parent's watcher thread has run (its initial call came): a fork while that
     * thread is still instantiating Swift type metadata copies the runtime's metadata locks held,
     * and the child blocks on them for good (the Swift runtime is not fork-safe; see
     * docs/RELIABILITY.md, "fork()"). */
    for (int waited = 0; atomic_load(&wakes) == 0 && waited < 500; waited++) sleep_ms(10);
    sleep_ms(50);
    REQUIRE(pipe(args.ready) == 0);
    pid = fork_child(child_gets_notified, &args);
    close(args.ready[1]);
    CHECK(read(args.ready[0], &byte, 1) == 1);
    close(args.ready[0]);
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_release(fx_person(realm, 1, "from the parent", 40));
    REQUIRE_OK(db_realm_commit(realm));
    expect_child_ok(pid);
    db_realm_release(realm);
}

HARNESS_MAIN("fork",
    HARNESS_ENTRY(child_opens_the_parents_file_and_writes),
    HARNESS_ENTRY(inherited_handles_fail_and_leave_the_parent_alone),
    HARNESS_ENTRY(notifications_work_in_the_child))
