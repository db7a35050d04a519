/*
 * Versions pinned by readers: db_realm_get_version_info, and readers of processes that died
 * (SIGKILL while holding a snapshot or a frozen view), which writers clear as they go so that
 * the file does not grow without bound.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The reader child of the running test, killed at exit if a failed REQUIRE ended the test
 * before it could be (an orphan would keep the harness's output open). */
static pid_t live_child = 0;

static void kill_live_child(void) {
    if (live_child > 0) kill(live_child, SIGKILL);
}

/* A child that opens the file, freezes its version, says so through a pipe, and waits to be
 * killed (or for its parent to end). Returns its pid once the frozen view exists. Call it while
 * this process has the file closed: LMDB environments must not cross a fork. */
static pid_t spawn_frozen_reader(const char *path) {
    int fds[2];
    char ready = 0;
    pid_t pid;
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        db_schema_t *schema = fx_schema();
        db_realm_t *realm = fx_open_with(path, schema, 1);
        db_realm_t *frozen = db_realm_freeze(realm);
        char byte = frozen ? 1 : 2;
        pid_t parent = getppid();
        (void)!write(fds[1], &byte, 1);
        close(fds[1]);
        while (getppid() == parent) sleep(1);
        _exit(0);
    }
    live_child = pid;
    atexit(kill_live_child);
    close(fds[1]);
    REQUIRE(read(fds[0], &ready, 1) == 1 && ready == 1);
    close(fds[0]);
    return pid;
}

static void kill_and_reap(pid_t pid) {
    int status = 0;
    REQUIRE(kill(pid, SIGKILL) == 0);
    REQUIRE(waitpid(pid, &status, 0) == pid);
    live_child = 0;
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void commit_one_person(db_realm_t *realm, int64_t id) {
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_release(fx_person(realm, id, "someone with a name", 30));
    REQUIRE_OK(db_realm_commit(realm));
}

TEST(version_info_reports_readers_and_lag) {
    db_realm_t *realm = fx_open_new();
    db_version_info_t info;
    db_realm_t *frozen;
    int i;
    memset(&info, 0xff, sizeof info);
    CHECK_EQ_UINT(fx_count(realm, "Person"), 0); /* a read pins the latest version */
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_UINT(info.oldest_reader_lag, 0);
    CHECK_EQ_INT(info.oldest_reader_pid, 0);
    CHECK_EQ_UINT(info.readers, 1);
    CHECK_EQ_UINT(info.active_versions, 1);
    frozen = (db_realm_t *)REQUIRE_PTR(db_realm_freeze(realm));
    for (i = 1; i <= 5; i++) commit_one_person(realm, i);
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_UINT(info.oldest_reader_lag, 5);
    CHECK_EQ_INT(info.oldest_reader_pid, (int64_t)getpid());
    CHECK(info.active_versions >= 2);
    CHECK_EQ_UINT(info.stale_readers_cleared, 0);
    db_realm_release(frozen);
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_UINT(info.oldest_reader_lag, 0);
    CHECK(db_realm_get_version_info(realm, NULL) == DB_ERR_INVALID_ARGUMENT);
    CHECK(db_realm_get_version_info(NULL, &info) == DB_ERR_INVALID_ARGUMENT);
    db_realm_close(realm);
    CHECK(db_realm_get_version_info(realm, &info) == DB_ERR_CLOSED_REALM);
    db_realm_release(realm);
}

/* A new file at `path` with ten people, and a child process reading it through a frozen view. */
static db_realm_t *open_with_frozen_child(const char *path, pid_t *child) {
    db_realm_t *realm = fx_open(path);
    fx_add_people(realm, 10);
    db_realm_release(realm);
    *child = spawn_frozen_reader(path);
    realm = fx_open(path);
    return realm;
}

TEST(a_killed_readers_version_is_cleared_by_writers) {
    pid_t child;
    char path[4096];
    db_realm_t *realm;
    db_version_info_t info;
    long before, after;
    int i;
    snprintf(path, sizeof path, "%s", harness_tmpfile("test.realm"));
    realm = open_with_frozen_child(path, &child);
    commit_one_person(realm, 100);
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_INT(info.oldest_reader_pid, (int64_t)child);
    CHECK(info.oldest_reader_lag >= 1);
    kill_and_reap(child);
    before = file_size(path);
    /* 3,000 small commits: with the dead reader's version pinned, each would add pages. */
    for (i = 0; i < 3000; i++) commit_one_person(realm, 1000 + i);
    after = file_size(path);
    CHECK(after - before < 1024L * 1024);
    if (getenv("REALMDB_TEST_VERBOSE") || after - before >= 1024L * 1024)
        fprintf(stderr, "file grew from %ld to %ld bytes\n", before, after);
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK_EQ_INT(info.oldest_reader_pid, 0);
    CHECK_EQ_UINT(info.oldest_reader_lag, 0);
    db_realm_release(realm);
}

TEST(version_info_clears_a_killed_reader_itself) {
    pid_t child;
    db_realm_t *realm = open_with_frozen_child(harness_tmpfile("test.realm"), &child);
    db_version_info_t info;
    commit_one_person(realm, 100);
    kill_and_reap(child);
    REQUIRE_OK(db_realm_get_version_info(realm, &info));
    CHECK(info.stale_readers_cleared >= 1);
    CHECK_EQ_UINT(info.oldest_reader_lag, 0);
    db_realm_release(realm);
}

HARNESS_MAIN("versions",
    HARNESS_ENTRY(version_info_reports_readers_and_lag),
    HARNESS_ENTRY(a_killed_readers_version_is_cleared_by_writers),
    HARNESS_ENTRY(version_info_clears_a_killed_reader_itself))
