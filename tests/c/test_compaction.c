/*
 * Compaction: db_realm_write_copy, db_realm_get_file_space and
 * db_config_set_should_compact_on_launch, within one process and across processes.
 */
#include <signal.h>
#include <time.h>
#include <sys/wait.h>

#include "fixtures.h"

static long long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* A file at `path` that is mostly free space: people 1..2000 written, 401..2000 deleted. */
static void make_mostly_free_file(const char *path) {
    db_realm_t *realm = fx_open(path);
    int id;
    fx_add_people(realm, 2000);
    REQUIRE_OK(db_realm_begin_write(realm));
    for (id = 401; id <= 2000; id++) {
        db_object_t *person = fx_require_person(realm, id);
        REQUIRE_OK(db_object_delete(person));
        db_object_release(person);
    }
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
}

/* The survivors of make_mostly_free_file are there, as written, and the file checks sound. */
static void check_survivors(const db_realm_t *realm) {
    db_object_t *gone = fx_find_person(realm, 401);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 400);
    fx_check_person(realm, 1);
    fx_check_person(realm, 400);
    CHECK(gone == NULL);
    db_object_release(gone);
    CHECK_OK(db_realm_check(realm, NULL, NULL, NULL));
}

/* ---- db_realm_write_copy -------------------------------------------------- */

TEST(write_copy_is_compact_and_opens) {
    const char *path = harness_tmpfile("big.realm");
    char copy[4200];
    uint64_t file_bytes = 0, used_bytes = 0;
    db_realm_t *realm, *copied;
    make_mostly_free_file(path);
    realm = fx_open(path);
    REQUIRE_OK(db_realm_get_file_space(realm, &file_bytes, &used_bytes));
    CHECK_EQ_INT(file_bytes, file_size(path));
    CHECK(used_bytes < file_bytes / 2);
    snprintf(copy, sizeof copy, "%s.copy", path);
    REQUIRE_OK(db_realm_write_copy(realm, copy));
    CHECK(file_size(copy) < (long long)file_bytes / 2);
    CHECK(file_size(copy) <= (long long)used_bytes + 4 * 4096);
    /* The source goes on; the copy is a realm of its own, with the same data. */
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_release(fx_person(realm, 3000, "after the copy", 30));
    REQUIRE_OK(db_realm_commit(realm));
    copied = fx_open(copy);
    check_survivors(copied);
    db_realm_release(copied);
    db_realm_release(realm);
}

TEST(write_copy_refusals) {
    const char *path = harness_tmpfile("source.realm");
    char copy[4200], missing[4200];
    db_realm_t *realm = fx_open(path);
    long long size;
    fx_add_people(realm, 3);
    snprintf(copy, sizeof copy, "%s.copy", path);
    snprintf(missing, sizeof missing, "%s.d/no/copy.realm", path);
    REQUIRE_OK(db_realm_write_copy(realm, copy));
    size = file_size(copy);
    CHECK_STATUS(db_realm_write_copy(realm, copy), DB_ERR_FILE_ACCESS); /* never overwritten */
    CHECK_EQ_INT(file_size(copy), size);
    CHECK_STATUS(db_realm_write_copy(realm, path), DB_ERR_FILE_ACCESS);
    CHECK_STATUS(db_realm_write_copy(realm, missing), DB_ERR_FILE_ACCESS);
    CHECK_STATUS(db_realm_write_copy(realm, ""), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_realm_write_copy(realm, NULL), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_realm_write_copy(NULL, copy), DB_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(db_realm_get_file_space(realm, NULL, NULL), DB_ERR_INVALID_ARGUMENT);
    REQUIRE_OK(db_realm_begin_write(realm));
    CHECK_STATUS(db_realm_write_copy(realm, missing), DB_ERR_WRONG_TRANSACTION_STATE);
    REQUIRE_OK(db_realm_cancel_write(realm));
    REQUIRE_OK(db_realm_close(realm));
    CHECK_STATUS(db_realm_write_copy(realm, missing), DB_ERR_CLOSED_REALM);
    db_realm_release(realm);
}

/* ---- db_config_set_should_compact_on_launch -------------------------------- */

typedef struct {
    int calls;
    uint64_t file_bytes, used_bytes;
    bool answer;
} decision_t;

static bool decide(void *userdata, uint64_t file_bytes, uint64_t used_bytes) {
    decision_t *d = userdata;
    d->calls++;
    d->file_bytes = file_bytes;
    d->used_bytes = used_bytes;
    return d->answer;
}

static int freed;
static void count_free(void *userdata) {
    (void)userdata;
    freed++;
}

static db_realm_t *open_deciding(const char *path, decision_t *d) {
    db_config_t *config = fx_config(path, fx_test_schema(), 1);
    db_realm_t *realm;
    REQUIRE_OK(db_config_set_should_compact_on_launch(config, decide, d, NULL));
    realm = db_realm_open(config);
    db_config_release(config);
    return realm;
}

TEST(compact_on_launch_when_asked) {
    const char *path = harness_tmpfile("launch.realm");
    decision_t d = {0, 0, 0, true};
    long long before;
    db_realm_t *realm;
    make_mostly_free_file(path);
    before = file_size(path);
    realm = REQUIRE_PTR(open_deciding(path, &d));
    CHECK_EQ_INT(d.calls, 1);
    CHECK_EQ_INT(d.file_bytes, before);
    CHECK(d.used_bytes < d.file_bytes / 2);
    CHECK(file_size(path) < before / 2);
    check_survivors(realm);
    REQUIRE_OK(db_realm_begin_write(realm)); /* writable, on the new file */
    db_object_release(fx_person(realm, 3000, "after compacting", 30));
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
}

TEST(compact_on_launch_declined) {
    const char *path = harness_tmpfile("declined.realm");
    decision_t d = {0, 0, 0, false};
    long long before;
    make_mostly_free_file(path);
    before = file_size(path);
    db_realm_release(REQUIRE_PTR(open_deciding(path, &d)));
    CHECK_EQ_INT(d.calls, 1);
    CHECK_EQ_INT(file_size(path), before);
}

TEST(compact_on_launch_userdata_freed) {
    db_config_t *config = fx_config(harness_tmpfile("free.realm"), fx_test_schema(), 1);
    freed = 0;
    REQUIRE_OK(db_config_set_should_compact_on_launch(config, decide, NULL, count_free));
    REQUIRE_OK(db_config_set_should_compact_on_launch(config, NULL, NULL, count_free)); /* replaces: frees both */
    CHECK_EQ_INT(freed, 2);
    CHECK_STATUS(db_config_set_should_compact_on_launch(NULL, decide, NULL, count_free), DB_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(freed, 2);
    db_config_release(config);
}

/* A child process holds the file open until its stdin closes: no compaction meanwhile. */
TEST(compact_on_launch_waits_for_other_processes) {
    const char *path = harness_tmpfile("shared.realm");
    decision_t d = {0, 0, 0, true};
    int ready[2], hold[2], status;
    char byte;
    long long before;
    pid_t pid;
    make_mostly_free_file(path);
    before = file_size(path);
    REQUIRE(pipe(ready) == 0 && pipe(hold) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        db_realm_t *realm;
        close(hold[1]);
        close(ready[0]);
        realm = fx_open(path);
        if (write(ready[1], "r", 1) != 1) _exit(2);
        if (read(hold[0], &byte, 1) < 0) _exit(3); /* returns 0 when the parent closes it */
        db_realm_release(realm);
        _exit(0);
    }
    close(ready[1]);
    close(hold[0]);
    REQUIRE(read(ready[0], &byte, 1) == 1);
    db_realm_release(REQUIRE_PTR(open_deciding(path, &d)));
    CHECK_EQ_INT(d.calls, 0);
    CHECK_EQ_INT(file_size(path), before);
    close(hold[1]);
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    db_realm_release(REQUIRE_PTR(open_deciding(path, &d)));
    CHECK_EQ_INT(d.calls, 1);
    CHECK(file_size(path) < before / 2);
}

/* A process that opens the file while another compacts it waits, then writes to the new file. */
typedef struct {
    const char *path;
    pid_t child;
} racing_t;

static bool decide_while_a_child_opens(void *userdata, uint64_t file_bytes, uint64_t used_bytes) {
    racing_t *r = userdata;
    (void)file_bytes;
    (void)used_bytes;
    r->child = fork();
    if (r->child == 0) {
        db_config_t *config = fx_config(r->path, fx_test_schema(), 1);
        db_realm_t *realm = db_realm_open(config);
        db_object_t *person;
        db_config_release(config); /* the child's leaks fail it under valgrind too */
        if (!realm || db_realm_begin_write(realm) != DB_OK) _exit(2);
        person = fx_person(realm, 5000, "written by the child", 50);
        if (db_realm_commit(realm) != DB_OK) _exit(3);
        db_object_release(person);
        db_realm_release(realm);
        _exit(0);
    }
    {
        struct timespec pause = {0, 200000000};
        nanosleep(&pause, NULL); /* the child is now waiting in its open */
    }
    return true;
}

TEST(compact_on_launch_blocks_other_openers) {
    const char *path = harness_tmpfile("race.realm");
    racing_t r = {path, -1};
    db_config_t *config = fx_config(path, fx_test_schema(), 1);
    db_realm_t *realm;
    db_object_t *person;
    int status;
    make_mostly_free_file(path);
    REQUIRE_OK(db_config_set_should_compact_on_launch(config, decide_while_a_child_opens, &r, NULL));
    realm = REQUIRE_PTR(db_realm_open(config));
    db_config_release(config);
    REQUIRE(r.child > 0);
    REQUIRE(waitpid(r.child, &status, 0) == r.child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    REQUIRE_OK(db_realm_refresh(realm, NULL));
    person = fx_find_person(realm, 5000);
    CHECK(person != NULL); /* the child wrote to the file this process has open */
    db_object_release(person);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 401);
    db_realm_release(realm);
}

HARNESS_MAIN("compaction",
    HARNESS_ENTRY(write_copy_is_compact_and_opens),
    HARNESS_ENTRY(write_copy_refusals),
    HARNESS_ENTRY(compact_on_launch_when_asked),
    HARNESS_ENTRY(compact_on_launch_declined),
    HARNESS_ENTRY(compact_on_launch_userdata_freed),
    HARNESS_ENTRY(compact_on_launch_waits_for_other_processes),
    HARNESS_ENTRY(compact_on_launch_blocks_other_openers))
