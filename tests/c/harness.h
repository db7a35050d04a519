/*
 * harness.h: a tiny test framework for realmdb's C harness.
 *
 * A test file defines tests with TEST(name) { ... } at the start of a line
 * (CMakeLists.txt reads those lines and adds one ctest test per name) and
 * ends with HARNESS_MAIN(name, name, ...). The binary runs every test, or
 * only those named on its command line; `--list` prints the names.
 *
 *   CHECK(cond)                 non-fatal: report and go on
 *   REQUIRE(cond)               fatal: report and end this test
 *   CHECK_EQ_INT(a, b)          integers, both values printed on failure
 *   CHECK_EQ_STR(a, b)          NUL-terminated strings (NULL allowed)
 *   CHECK_EQ_MEM(a, b, n)       bytes
 *   CHECK_OK(call)              call returns DB_OK (on failure, the last error is printed)
 *   CHECK_STATUS(call, code)    call returns `code`, last error has `code` and a message
 *   CHECK_NULL_ERR(call, code)  pointer call returns NULL, last error has `code` (DB_OK: no error)
 *   CHECK_LAST_ERROR(code)      the thread's last error is `code` (with a message unless DB_OK)
 *   REQUIRE_OK / REQUIRE_PTR    fatal versions for set-up steps
 *
 * Every failure prints file:line, the expression, the values and the
 * library's last error (code name and message).
 *
 * Temporary directories: harness_tmpdir() makes one with mkdtemp() under
 * $TMPDIR (or /tmp); all are removed when the test ends, pass or fail.
 * harness_at_end(fn, arg) runs fn(arg) when the test ends, pass or fail (the
 * last registered first), before the directories are removed.
 */
#ifndef REALMDB_TEST_HARNESS_H
#define REALMDB_TEST_HARNESS_H

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"

typedef void (*harness_test_fn)(void);

typedef struct harness_test {
    const char *name;
    harness_test_fn fn;
} harness_test_t;

/* State of the test being run (one test at a time, on the main thread). */
static int harness_failures;
static int harness_checks;
static jmp_buf harness_abort;
static const char *harness_current = "";
#define HARNESS_MAX_TMPDIRS 16
static char *harness_tmpdirs[HARNESS_MAX_TMPDIRS];
static int harness_num_tmpdirs;
#define HARNESS_MAX_AT_END 16
static struct harness_at_end_entry {
    void (*fn)(void *);
    void *arg;
} harness_at_end_entries[HARNESS_MAX_AT_END];
static int harness_num_at_end;

static inline const char *harness_status_name(int code) {
    static const char *const names[] = {
        "DB_OK", "DB_ERR_INVALID_ARGUMENT", "DB_ERR_NOT_FOUND", "DB_ERR_WRONG_TYPE",
        "DB_ERR_NOT_NULLABLE", "DB_ERR_MISSING_VALUE", "DB_ERR_WRONG_TRANSACTION_STATE",
        "DB_ERR_INVALIDATED", "DB_ERR_CLOSED_REALM", "DB_ERR_DUPLICATE_PRIMARY_KEY",
        "DB_ERR_SCHEMA_INVALID", "DB_ERR_MIGRATION_REQUIRED", "DB_ERR_MIGRATION_FAILED",
        "DB_ERR_READ_ONLY", "DB_ERR_FILE_ACCESS", "DB_ERR_FILE_FORMAT",
        "DB_ERR_TOO_MANY_ACTIVE_VERSIONS", "DB_ERR_OUT_OF_RANGE", "DB_ERR_LOGIC",
        "DB_ERR_STORAGE", "DB_ERR_CALLBACK", "DB_ERR_QUERY", "DB_ERR_WRONG_THREAD",
        "DB_ERR_NOT_SUPPORTED", "DB_ERR_OUT_OF_MEMORY", "DB_ERR_INTERNAL",
    };
    if (code >= 0 && code < (int)(sizeof names / sizeof names[0])) return names[code];
    return "(unknown status)";
}

/* The last error, copied (its message is only valid until the next call). */
typedef struct harness_error {
    bool present;
    int code;
    char message[512];
    int64_t offset;
} harness_error_t;

static inline harness_error_t harness_last_error(void) {
    harness_error_t e;
    db_error_t err;
    memset(&e, 0, sizeof e);
    memset(&err, 0, sizeof err);
    err.code = (db_status_e)-1;
    e.present = db_get_last_error(&err);
    e.code = (int)err.code;
    e.offset = err.offset;
    if (err.message) snprintf(e.message, sizeof e.message, "%s", err.message);
    return e;
}

/* Counts a failure and prints "file:line: FAILED in <test>: <message>" without the newline. */
static inline void harness_vfail(const char *file, int line, const char *fmt, va_list ap) {
    harness_failures++;
    fprintf(stderr, "%s:%d: FAILED in %s: ", file, line, harness_current);
    vfprintf(stderr, fmt, ap);
}

static inline void harness_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_vfail(file, line, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static inline void harness_fail_with_error(const char *file, int line, const harness_error_t *e,
                                           const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    harness_vfail(file, line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n    last error: %s (%d) \"%s\"%s\n", harness_status_name(e->code), e->code,
            e->message, e->present ? "" : " [db_get_last_error returned false]");
}

#define HARNESS_FATAL() longjmp(harness_abort, 1)

#define CHECK(cond)                                                                  \
    do {                                                                             \
        harness_checks++;                                                            \
        if (!(cond)) harness_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);           \
    } while (0)

#define REQUIRE(cond)                                                                \
    do {                                                                             \
        harness_checks++;                                                            \
        if (!(cond)) {                                                               \
            harness_error_t e_ = harness_last_error();                               \
            harness_fail_with_error(__FILE__, __LINE__, &e_, "REQUIRE(%s)", #cond);  \
            HARNESS_FATAL();                                                         \
        }                                                                            \
    } while (0)

static inline void harness_check_eq_int(long long a, long long b, const char *file, int line, const char *a_text,
                                        const char *b_text) {
    harness_checks++;
    if (a != b) harness_fail(file, line, "%s == %s: %lld != %lld", a_text, b_text, a, b);
}

static inline void harness_check_eq_uint(unsigned long long a, unsigned long long b, const char *file, int line,
                                         const char *a_text, const char *b_text) {
    harness_checks++;
    if (a != b) harness_fail(file, line, "%s == %s: %llu != %llu", a_text, b_text, a, b);
}

#define CHECK_EQ_INT(a, b) harness_check_eq_int((long long)(a), (long long)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_EQ_UINT(a, b) \
    harness_check_eq_uint((unsigned long long)(a), (unsigned long long)(b), __FILE__, __LINE__, #a, #b)

#define CHECK_EQ_STR(a, b)                                                           \
    do {                                                                             \
        const char *a_ = (a), *b_ = (b);                                             \
        harness_checks++;                                                            \
        if (!((a_ == NULL && b_ == NULL) || (a_ && b_ && strcmp(a_, b_) == 0)))      \
            harness_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,    \
                         a_ ? a_ : "(null)", b_ ? b_ : "(null)");                   \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                             \
    do {                                                                             \
        const char *h_ = (haystack), *n_ = (needle);                                 \
        harness_checks++;                                                            \
        if (!h_ || !strstr(h_, n_))                                                  \
            harness_fail(__FILE__, __LINE__, "%s contains \"%s\": got \"%s\"",      \
                         #haystack, n_, h_ ? h_ : "(null)");                         \
    } while (0)

#define CHECK_EQ_MEM(a, b, n)                                                        \
    do {                                                                             \
        harness_checks++;                                                            \
        if (memcmp((a), (b), (n)) != 0)                                              \
            harness_fail(__FILE__, __LINE__, "%s == %s (%zu bytes)", #a, #b, (size_t)(n)); \
    } while (0)

/* The last error on this thread is `code`; a failure has a non-empty message. */
#define CHECK_LAST_ERROR(code) harness_check_last_error(__FILE__, __LINE__, (int)(code), #code)

static inline int harness_check_last_error(const char *file, int line, int code, const char *code_text) {
    harness_error_t e = harness_last_error();
    harness_checks++;
    if (code == DB_OK) {
        if (e.present || e.code != DB_OK) {
            harness_fail_with_error(file, line, &e, "expected no last error (DB_OK)");
            return 0;
        }
        return 1;
    }
    if (!e.present || e.code != code) {
        harness_fail_with_error(file, line, &e, "expected last error %s", code_text);
        return 0;
    }
    if (e.message[0] == '\0') {
        harness_fail_with_error(file, line, &e, "last error %s has an empty message", code_text);
        return 0;
    }
    return 1;
}

/* One check that `status` is DB_OK; on failure prints the call and the last error. */
static inline int harness_check_ok(int status, const char *file, int line, const char *call) {
    harness_error_t e;
    harness_checks++;
    if (status == DB_OK) return 1;
    e = harness_last_error();
    harness_fail_with_error(file, line, &e, "%s returned %s, expected DB_OK", call, harness_status_name(status));
    return 0;
}

#define CHECK_OK(call) ((void)harness_check_ok((int)(call), __FILE__, __LINE__, #call))

#define REQUIRE_OK(call)                                                             \
    do {                                                                             \
        if (!harness_check_ok((int)(call), __FILE__, __LINE__, #call)) HARNESS_FATAL(); \
    } while (0)

/* `call` returns the status `code`, and the last error says the same. */
#define CHECK_STATUS(call, code)                                                     \
    do {                                                                             \
        int s_ = (int)(call);                                                        \
        harness_checks++;                                                            \
        if (s_ != (int)(code)) {                                                     \
            harness_error_t e_ = harness_last_error();                               \
            harness_fail_with_error(__FILE__, __LINE__, &e_, "%s returned %s, expected %s", \
                                    #call, harness_status_name(s_), #code);          \
        } else {                                                                     \
            CHECK_LAST_ERROR(code);                                                  \
        }                                                                            \
    } while (0)

/* `call` returns NULL, and the last error is `code`. */
#define CHECK_NULL_ERR(call, code)                                                   \
    do {                                                                             \
        const void *p_ = (const void *)(call);                                       \
        harness_checks++;                                                            \
        if (p_ != NULL) {                                                            \
            harness_fail(__FILE__, __LINE__, "%s returned %p, expected NULL with %s", \
                         #call, p_, #code);                                          \
        } else {                                                                     \
            CHECK_LAST_ERROR(code);                                                  \
        }                                                                            \
    } while (0)

/* Set-up step returning a pointer: fatal when NULL. */
#define REQUIRE_PTR(expr)                                                            \
    harness_require_ptr((expr), __FILE__, __LINE__, #expr)

static inline void *harness_require_ptr(const void *p, const char *file, int line, const char *expr) {
    harness_checks++;
    if (p == NULL) {
        harness_error_t e = harness_last_error();
        harness_fail_with_error(file, line, &e, "%s returned NULL", expr);
        HARNESS_FATAL();
    }
    return (void *)p;
}

/* ---- temporary directories -------------------------------------------- */

static inline int harness_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static inline void harness_rm_rf(const char *path) {
    nftw(path, harness_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A new empty directory, removed with its contents when the test ends. */
static inline const char *harness_tmpdir(void) {
    const char *base = getenv("TMPDIR");
    char templ[4096];
    char *dir;
    if (!base || !*base) base = "/tmp";
    snprintf(templ, sizeof templ, "%s/realmdb-c-%s-XXXXXX", base, harness_current);
    if (harness_num_tmpdirs >= HARNESS_MAX_TMPDIRS || !mkdtemp(templ)) {
        harness_fail(__FILE__, __LINE__, "mkdtemp(%s): %s", templ, strerror(errno));
        HARNESS_FATAL();
    }
    dir = strdup(templ);
    harness_tmpdirs[harness_num_tmpdirs++] = dir;
    return dir;
}

/* "<new tmpdir>/<name>": a path that does not exist yet. Valid until the test ends. */
static inline const char *harness_tmpfile(const char *name) {
    static char paths[8][4096];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 4096, "%s/%s", harness_tmpdir(), name);
    return p;
}

static inline void harness_cleanup_tmpdirs(void) {
    int i;
    for (i = 0; i < harness_num_tmpdirs; i++) {
        harness_rm_rf(harness_tmpdirs[i]);
        free(harness_tmpdirs[i]);
        harness_tmpdirs[i] = NULL;
    }
    harness_num_tmpdirs = 0;
}

/* ---- the end of a test ------------------------------------------------- */

static inline void harness_at_end(void (*fn)(void *), void *arg) {
    REQUIRE(harness_num_at_end < HARNESS_MAX_AT_END);
    harness_at_end_entries[harness_num_at_end].fn = fn;
    harness_at_end_entries[harness_num_at_end].arg = arg;
    harness_num_at_end++;
}

static inline void harness_run_at_end(void) {
    while (harness_num_at_end > 0) {
        harness_num_at_end--;
        harness_at_end_entries[harness_num_at_end].fn(harness_at_end_entries[harness_num_at_end].arg);
    }
}

/* ---- runner ------------------------------------------------------------ */

static inline int harness_run_one(const harness_test_t *t) {
    int before = harness_failures;
    harness_current = t->name;
    printf("[ RUN      ] %s\n", t->name);
    fflush(stdout);
    db_clear_last_error();
    if (setjmp(harness_abort) == 0) {
        t->fn();
    } else {
        fprintf(stderr, "    (test ended by a failed REQUIRE)\n");
    }
    harness_run_at_end();
    harness_cleanup_tmpdirs();
    if (harness_failures == before) {
        printf("[       OK ] %s\n", t->name);
        return 1;
    }
    printf("[  FAILED  ] %s (%d failure%s)\n", t->name, harness_failures - before,
           harness_failures - before == 1 ? "" : "s");
    return 0;
}

static inline int harness_main(int argc, char **argv, const char *suite, const harness_test_t *tests,
                               size_t count) {
    size_t i;
    int passed = 0, failed = 0, a;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (i = 0; i < count; i++) printf("%s\n", tests[i].name);
        return 0;
    }
    for (a = 1; a < argc; a++) {
        int found = 0;
        for (i = 0; i < count; i++)
            if (strcmp(argv[a], tests[i].name) == 0) found = 1;
        if (!found) {
            fprintf(stderr, "%s: no test named %s (--list shows them)\n", suite, argv[a]);
            return 2;
        }
    }
    for (i = 0; i < count; i++) {
        int selected = argc <= 1;
        for (a = 1; a < argc; a++)
            if (strcmp(argv[a], tests[i].name) == 0) selected = 1;
        if (!selected) continue;
        if (harness_run_one(&tests[i])) passed++; else failed++;
    }
    printf("%s: %d passed, %d failed\n", suite, passed, failed);
    printf("%s: %d checks\n", suite, harness_checks);
    return failed ? 1 : 0;
}

/* TEST(name) must start a line: CMakeLists.txt greps for it. */
#define TEST(name) static void name(void)

#define HARNESS_ENTRY(name) {#name, name}
#define HARNESS_MAIN(suite, ...)                                                     \
    int main(int argc, char **argv) {                                                \
        static const harness_test_t tests_[] = {__VA_ARGS__};                        \
        return harness_main(argc, argv, suite, tests_, sizeof tests_ / sizeof tests_[0]); \
    }

#endif /* REALMDB_TEST_HARNESS_H */
