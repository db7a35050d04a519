/*
 * A hostile-input sweep of the whole C API. Every function db.h declares has a row in
 * SWEEP_FUNCTIONS below, and each test makes one call per case, with every other argument valid:
 *
 *   valid_calls      every function once with valid arguments (the fixture the cases build on)
 *   null_pointers    each pointer parameter NULL in turn, and NULL inside structs and arrays
 *   hostile_numbers  counts, indices, limits, keys and versions: 0, SIZE_MAX, 1<<60, 1<<40, -1,
 *                    INT64_MIN, INT64_MAX; counts that cannot describe the caller's buffer
 *   bad_enums        enum values out of range (also inside values and class descriptions)
 *   hostile_strings  invalid UTF-8, empty and 1 MB names, queries, paths, keys and key paths
 *   closed_realm     after db_realm_close, every function on that realm's handles
 *   wrong_thread     every function, valid arguments, in a fork child and on another thread: a row
 *                    flagged F_WRONG_THREAD (its doc names DB_ERR_WRONG_THREAD) must fail with it in
 *                    one of them, any other row in neither
 *   validity         every db_*_is_valid: true for the fixture's handle, false for NULL, false
 *                    once the realm is released (and for a token, once invalidated)
 *
 * A hostile call must fail cleanly (an error status, NULL, or the documented false/0, and a last
 * error with a code and a message) or, where the value is meaningful, succeed; never crash, abort
 * or hang. Each variant's `expect` says which (E_FAIL, E_CLEAN: either, E_OK).
 *
 * A row of SWEEP_FUNCTIONS:
 *
 *   FN(db_list_get, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(OUT, out_value))
 *
 * is the function, its return kind (R_*: what failure looks like), flags (F_WRITE: called inside
 * a write transaction; F_SAVEPOINT: with a savepoint open in it; F_CLOSED_OK: success on a closed
 * realm is harmless; F_WRONG_THREAD: documented to fail with DB_ERR_WRONG_THREAD off its realm's
 * thread or in a fork child, which tools/api_sweep.py checks against db.h), the call's arguments
 * (fields of sw_arg_t by C type) and a kind for each parameter with the parameter's name. A kind
 * (SWEEP_KINDS) says what a valid argument is (valid_arg) and, through its hostility class (H_*),
 * which hostile values to try (the rows of `variants` for that class).
 *
 * Each case runs in its own process: the test forks, and the child execs this binary again with
 * REALMDB_SWEEP_CASE=<n>, builds a fresh fixture in its own directory, makes the call, checks it
 * and exits 0 (passed) or 1 (wrong result, explained on stderr); a crash kills only the child and
 * is reported with its signal. Exec rather than fork alone: valgrind does not follow exec
 * (--trace-children=no), so under valgrind the cases run natively and fast, and the parent, which
 * makes no library calls, has nothing to leak.
 *
 * known_crashes lists the cases that crash or abort today (library bugs): they print
 * "KNOWN CRASH: ..." and fail only with REALMDB_SWEEP_STRICT=1. Delete an entry once its bug is
 * fixed; an entry that no longer crashes fails the sweep, so the list stays current.
 *
 * Under AddressSanitizer (tests/c/run_asan.sh) a child also checks for leaks: LeakSanitizer is
 * off while it builds the fixture and on only during the call, a handle the call returned is
 * released, then __lsan_do_recoverable_leak_check() (the child leaves by _exit, which skips the
 * check at exit). Releasing first matters: LeakSanitizer cannot follow Swift's tagged pointers
 * (an indirect enum's box, a string's storage) and would call a live handle's parts leaked.
 *
 * REALMDB_SWEEP_ONLY=<text> runs only the cases whose label contains <text> ("db_list_get(",
 * "=SIZE_MAX"); REALMDB_SWEEP_VERBOSE=1 prints what every call returned.
 *
 * tools/api_sweep.py --check (run by `python3 -m pytest tools/tests`) fails when a function of
 * db.h has no row, or a row's parameter names, order or argument fields do not match the header;
 * it prints a row to start from.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "fixtures.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(SW_ASAN)
#define SW_ASAN 1
#endif
#ifdef SW_ASAN
#include <sanitizer/lsan_interface.h>
#define SW_LSAN_DISABLE() __lsan_disable()
#define SW_LSAN_ENABLE() __lsan_enable()
#else
#define SW_LSAN_DISABLE() ((void)0)
#define SW_LSAN_ENABLE() ((void)0)
#endif

/* ---- arguments, results, kinds ------------------------------------------------------------ */

/* One argument of any parameter type; the row's call reads the field of the parameter's C type. */
typedef union sw_arg {
    void *p; /* handles, buffers, strings: C converts void * to any object pointer */
    size_t z;
    uint64_t u;
    int64_t i; /* property and object keys */
    double d;
    db_class_key_t ck;
    int e; /* enums */
    bool b;
    db_migration_func_t migration_fn;
    db_migration_object_func_t migration_object_fn;
    db_collection_change_func_t collection_cb;
    db_object_change_func_t object_cb;
    db_sectioned_change_func_t sectioned_cb;
    db_section_key_func_t section_key_fn;
    db_scheduler_notify_func_t notify_fn;
    db_check_progress_func_t progress_fn;
    db_should_compact_func_t should_compact_fn;
    db_free_userdata_func_t free_fn;
} sw_arg_t;

typedef void (*sw_release_fn)(void *);

typedef struct sw_result {
    db_status_e status;
    const void *ptr;
    sw_release_fn release; /* how to release `ptr` when the call returned a new handle or string */
    bool b;
    size_t z;
} sw_result_t;

/* What failure looks like for a return type. */
typedef enum sw_ret {
    R_STATUS,      /* != DB_OK */
    R_PTR,         /* NULL */
    R_PTR_OR_NONE, /* NULL with an error (NULL with DB_OK means "none": a result) */
    R_FALSE,       /* false (documented for NULL) */
    R_TRUE,        /* true (documented for NULL) */
    R_ZERO,        /* 0 (documented for NULL) */
    R_VOID,        /* nothing to check but that it returns */
    R_STR,         /* a static string, never NULL */
    R_ANY          /* any result (db_get_last_error) */
} sw_ret_t;

enum { F_WRITE = 1, F_CLOSED_OK = 2, F_SAVEPOINT = 4, F_WRONG_THREAD = 8 };

typedef enum sw_field {
    F_p, F_z, F_u, F_i, F_d, F_ck, F_e, F_b, F_migration_fn, F_migration_object_fn, F_collection_cb,
    F_object_cb, F_sectioned_cb, F_section_key_fn, F_notify_fn, F_progress_fn, F_should_compact_fn, F_free_fn
} sw_field_t;

/* Hostility classes: which rows of `variants` apply to a parameter. */
typedef enum sw_hostility {
    H_NONE, H_REQUIRED, H_OPTIONAL, H_INDEX, H_START, H_MAX_COUNT, H_LIMIT, H_COUNT, H_CLASS_KEY,
    H_KEY, H_VERSION, H_ENUM, H_STATUS_CODE, H_NAME, H_PATH, H_QUERY, H_KEY_PATH, H_DICT_KEY,
    H_NEW_DICT_KEY, H_VALUE, H_MATCH, H_PROP_KEYS, H_SORT_KEYS, H_SORT_PATHS, H_KEY_PATHS,
    H_OBSERVE_PATHS, H_QUERY_ARGS, H_CLASS_INFOS, H_OPEN_CONFIG
} sw_hostility_t;
#define HM(h) (1ULL << H_##h)

/* Kinds: K(name, field, hostility). valid_arg() gives each kind's valid argument. */
#define SWEEP_KINDS(K)                                                                        \
    K(CONFIG, p, REQUIRED) K(OPEN_CONFIG, p, OPEN_CONFIG) K(SCHEMA, p, REQUIRED)              \
    /* REALM ... TOKEN: the fixture realm's handles, which closed_realm closes (keep together) */ \
    K(REALM, p, REQUIRED) K(FROZEN_REALM, p, REQUIRED) K(OBJECT, p, REQUIRED)                 \
    K(FROZEN_OBJECT, p, REQUIRED) K(RESULTS, p, REQUIRED) K(FROZEN_RESULTS, p, REQUIRED)      \
    K(LIST, p, REQUIRED) K(OBJ_LIST, p, REQUIRED) K(EMB_LIST, p, REQUIRED)                    \
    K(FROZEN_LIST, p, REQUIRED) K(SET, p, REQUIRED) K(OBJ_SET, p, REQUIRED)                   \
    K(FROZEN_SET, p, REQUIRED) K(DICT, p, REQUIRED) K(OBJ_DICT, p, REQUIRED)                  \
    K(EMB_DICT, p, REQUIRED) K(FROZEN_DICT, p, REQUIRED) K(SECTIONED, p, REQUIRED)            \
    K(FROZEN_SECTIONED, p, REQUIRED) K(WRITER, p, REQUIRED) K(CREATOR, p, REQUIRED)          \
    K(READER, p, REQUIRED) K(PK_READER, p, REQUIRED) K(TOKEN, p, REQUIRED)                    \
    K(OWNED_STRING, p, OPTIONAL)                                                              \
    /* handles that exist only during a callback */                                           \
    K(MIGRATION, p, REQUIRED) K(COLL_CHANGE, p, REQUIRED) K(OBJ_CHANGE, p, REQUIRED)          \
    K(SECT_CHANGE, p, REQUIRED)                                                               \
    /* keys: Item's class; Keyed's (it has a primary key); Item's properties */               \
    K(CLASS_KEY, ck, CLASS_KEY) K(PK_CLASS, ck, CLASS_KEY) K(OBJ_KEY, i, KEY)                 \
    K(PK_ANY, i, KEY) K(PK_NUM, i, KEY) K(PK_INTS, i, KEY) K(PK_SET, i, KEY)                  \
    K(PK_DICT, i, KEY) K(PK_SUB, i, KEY) K(PK_ITEMS, i, KEY) K(PK_LINKED_FROM, i, KEY)        \
    /* numbers; COUNT is the length of an input array */                                      \
    K(INDEX, z, INDEX) K(START, z, START) K(MAX_COUNT, z, MAX_COUNT) K(LIMIT, z, LIMIT)       \
    K(COUNT, z, COUNT) K(VERSION, u, VERSION)                                                 \
    K(AGGREGATE, e, ENUM) K(UPSERT, e, ENUM) K(STATUS_CODE, e, STATUS_CODE) K(BOOL, b, NONE)  \
    K(INT, i, NONE) K(DOUBLE, d, NONE)                                                        \
    /* strings */                                                                             \
    K(PATH, p, PATH) K(NEW_PATH, p, PATH) K(CLASS_NAME, p, NAME) K(PROP_NAME, p, NAME) K(OLD_PROP, p, NAME)        \
    K(NEW_PROP, p, NAME) K(QUERY, p, QUERY) K(VALUE_QUERY, p, QUERY) K(KEY_PATH, p, KEY_PATH) K(DICT_KEY, p, DICT_KEY) \
    K(NEW_DICT_KEY, p, NEW_DICT_KEY)                                                          \
    /* input arrays and structs; VALUE(S) are written, MATCH_VALUE(S) only compared */        \
    K(VALUE, p, VALUE) K(VALUES, p, VALUE) K(MATCH_VALUE, p, MATCH) K(MATCH_VALUES, p, MATCH) \
    K(PROP_KEYS, p, PROP_KEYS) K(PK_PROP_KEYS, p, PROP_KEYS) K(SORT_KEYS, p, SORT_KEYS) K(SORT_PATHS, p, SORT_PATHS)        \
    K(KEY_PATHS, p, KEY_PATHS) K(OBSERVE_PATHS, p, OBSERVE_PATHS)                             \
    K(QUERY_ARGS, p, QUERY_ARGS) K(CLASS_INFOS, p, CLASS_INFOS)                               \
    /* outputs; OUT_OPT is documented "may be NULL" */                                        \
    K(OUT, p, REQUIRED) K(OUT_OPT, p, OPTIONAL)                                               \
    /* callbacks and userdata */                                                              \
    K(USERDATA, p, OPTIONAL) K(FREE_FN, free_fn, OPTIONAL)                                    \
    K(MIGRATION_FN, migration_fn, OPTIONAL) K(NOTIFY_FN, notify_fn, OPTIONAL)                 \
    K(PROGRESS_FN, progress_fn, OPTIONAL) K(SHOULD_COMPACT_FN, should_compact_fn, OPTIONAL)   \
    K(MIGRATION_OBJECT_FN, migration_object_fn, REQUIRED)                                     \
    K(COLLECTION_CB, collection_cb, REQUIRED) K(OBJECT_CB, object_cb, REQUIRED)               \
    K(SECTIONED_CB, sectioned_cb, REQUIRED) K(SECTION_KEY_FN, section_key_fn, REQUIRED)

#define SW_KIND_ENUM(name, field, hostility) K_##name,
typedef enum sw_kind { SWEEP_KINDS(SW_KIND_ENUM) K_END } sw_kind_t;

typedef struct sw_kind_info {
    sw_field_t field;
    sw_hostility_t hostility;
} sw_kind_info_t;

#define SW_KIND_INFO(name, field, hostility) {F_##field, H_##hostility},
static const sw_kind_info_t kinds[K_END] = {SWEEP_KINDS(SW_KIND_INFO)};

/* ---- the functions ------------------------------------------------------------------------ */

#define SWEEP_FUNCTIONS(FN) \
    /* Library */ \
    FN(db_clear_last_error, VOID, 0, (), ) \
    FN(db_get_last_error, ANY, 0, (a[0].p), P(OUT_OPT, out_error)) \
    FN(db_library_version_string, STR, 0, (), ) \
    FN(db_status_string, STR, 0, (a[0].e), P(STATUS_CODE, code)) \
    FN(db_string_free, VOID, 0, (a[0].p), P(OWNED_STRING, string)) \
    /* Schema */ \
    FN(db_schema_find_class, STATUS, 0, (a[0].p, a[1].p, a[2].p), P(SCHEMA, schema) P(CLASS_NAME, name) P(OUT, out_index)) \
    FN(db_schema_get_class, STATUS, 0, (a[0].p, a[1].z, a[2].p), P(SCHEMA, schema) P(INDEX, index) P(OUT, out_class)) \
    FN(db_schema_get_class_count, ZERO, 0, (a[0].p), P(SCHEMA, schema)) \
    FN(db_schema_new, PTR, 0, (a[0].p, a[1].z), P(CLASS_INFOS, classes) P(COUNT, num_classes)) \
    FN(db_schema_release, VOID, 0, (a[0].p), P(SCHEMA, schema)) \
    /* Config */ \
    FN(db_config_new, PTR, 0, (a[0].p), P(PATH, path)) \
    FN(db_config_release, VOID, 0, (a[0].p), P(CONFIG, config)) \
    FN(db_config_set_in_memory, STATUS, 0, (a[0].p, a[1].b), P(CONFIG, config) P(BOOL, in_memory)) \
    FN(db_config_set_max_active_versions, STATUS, 0, (a[0].p, a[1].u), P(CONFIG, config) P(VERSION, max_versions)) \
    FN(db_config_set_migration_function, STATUS, 0, (a[0].p, a[1].migration_fn, a[2].p, a[3].free_fn), \
       P(CONFIG, config) P(MIGRATION_FN, fn) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_config_set_should_compact_on_launch, STATUS, 0, (a[0].p, a[1].should_compact_fn, a[2].p, a[3].free_fn), \
       P(CONFIG, config) P(SHOULD_COMPACT_FN, fn) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_config_set_read_only, STATUS, 0, (a[0].p, a[1].b), P(CONFIG, config) P(BOOL, read_only)) \
    FN(db_config_set_schema, STATUS, 0, (a[0].p, a[1].p), P(CONFIG, config) P(SCHEMA, schema)) \
    FN(db_config_set_schema_version, STATUS, 0, (a[0].p, a[1].u), P(CONFIG, config) P(VERSION, version)) \
    /* Realm */ \
    FN(db_realm_begin_savepoint, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_begin_write, STATUS, F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_cancel_write, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_close, STATUS, F_CLOSED_OK, (a[0].p), P(REALM, realm)) \
    FN(db_realm_commit, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_count_objects, STATUS, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p), P(REALM, realm) P(CLASS_KEY, class_key) P(OUT, out_count)) \
    FN(db_realm_deliver_notifications, STATUS, F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_find_class, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(REALM, realm) P(CLASS_NAME, class_name) P(OUT, out_class_key)) \
    FN(db_realm_find_property, STATUS, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].p), \
       P(REALM, realm) P(CLASS_KEY, class_key) P(PROP_NAME, property_name) P(OUT, out_property_key)) \
    FN(db_realm_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_get_active_version_count, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_count)) \
    FN(db_realm_get_schema, PTR, 0, (a[0].p), P(REALM, realm)) \
    FN(db_realm_get_file_format, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_format)) \
    FN(db_realm_get_schema_version, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_version)) \
    FN(db_realm_get_version, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_version)) \
    FN(db_realm_get_change_counter, STATUS, 0, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_counter)) \
    FN(db_realm_get_version_info, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT, out_info)) \
    FN(db_realm_check, STATUS, F_WRONG_THREAD, (a[0].p, a[1].progress_fn, a[2].p, a[3].p), \
       P(REALM, realm) P(PROGRESS_FN, progress) P(USERDATA, userdata) P(OUT_OPT, out_report)) \
    FN(db_realm_write_copy, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(NEW_PATH, path)) \
    FN(db_realm_get_file_space, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), \
       P(REALM, realm) P(OUT, out_file_bytes) P(OUT, out_used_bytes)) \
    FN(db_realm_invalidate, STATUS, F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_is_frozen, FALSE, 0, (a[0].p), P(REALM, realm)) \
    FN(db_realm_is_in_write, FALSE, 0, (a[0].p), P(REALM, realm)) \
    FN(db_realm_is_valid, FALSE, 0, (a[0].p), P(REALM, realm)) \
    FN(db_realm_open, PTR, 0, (a[0].p), P(OPEN_CONFIG, config)) \
    FN(db_realm_refresh, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT_OPT, out_did_advance)) \
    FN(db_realm_release_write_reservation, STATUS, F_CLOSED_OK | F_WRONG_THREAD, (a[0].p, a[1].p), P(REALM, realm) P(OUT_OPT, out_released)) \
    FN(db_realm_reserve_write, STATUS, F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_release, VOID, 0, (a[0].p), P(REALM, realm)) \
    FN(db_realm_release_savepoint, STATUS, F_WRITE | F_SAVEPOINT | F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_rollback_savepoint, STATUS, F_WRITE | F_SAVEPOINT | F_WRONG_THREAD, (a[0].p), P(REALM, realm)) \
    FN(db_realm_set_scheduler, STATUS, F_WRONG_THREAD, (a[0].p, a[1].notify_fn, a[2].p, a[3].free_fn), \
       P(REALM, realm) P(NOTIFY_FN, notify) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_realm_thaw, PTR, 0, (a[0].p), P(FROZEN_REALM, realm)) \
    /* Objects */ \
    FN(db_object_change_get_num_properties, STATUS, 0, (a[0].p, a[1].p), P(OBJ_CHANGE, change) P(OUT, out_count)) \
    FN(db_object_change_get_property, STATUS, 0, (a[0].p, a[1].z, a[2].p, a[3].p, a[4].p), P(OBJ_CHANGE, change) \
       P(INDEX, index) P(OUT_OPT, out_property_key) P(OUT_OPT, out_old_value) P(OUT_OPT, out_new_value)) \
    FN(db_object_change_is_deleted, STATUS, 0, (a[0].p, a[1].p), P(OBJ_CHANGE, change) P(OUT, out_deleted)) \
    FN(db_object_create, PTR, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].p, a[4].z, a[5].e), P(REALM, realm) \
       P(CLASS_KEY, class_key) P(PROP_KEYS, property_keys) P(VALUES, values) P(COUNT, count) P(UPSERT, mode)) \
    FN(db_object_create_embedded, PTR, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i), P(OBJECT, object) P(PK_SUB, property_key)) \
    FN(db_object_create_many, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].z, a[4].p, a[5].z, a[6].e, a[7].p), \
       P(REALM, realm) P(CLASS_KEY, class_key) P(PROP_KEYS, property_keys) P(COUNT, num_keys) P(VALUES, values) \
       P(COUNT, num_objects) P(UPSERT, mode) P(OUT_OPT, out_num_created)) \
    FN(db_object_create_many_with_keys, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].z, a[4].p, a[5].z, a[6].e, a[7].p), \
       P(REALM, realm) P(CLASS_KEY, class_key) P(PROP_KEYS, property_keys) P(COUNT, num_keys) P(VALUES, values) \
       P(COUNT, num_objects) P(UPSERT, mode) P(OUT, out_keys)) \
    FN(db_object_delete, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(OBJECT, object)) \
    FN(db_object_description, PTR, F_WRONG_THREAD, (a[0].p), P(OBJECT, object)) \
    FN(db_object_get_realm, PTR, F_WRONG_THREAD, (a[0].p), P(OBJECT, object)) \
    FN(db_object_equals, FALSE, F_CLOSED_OK, (a[0].p, a[1].p), P(OBJECT, a) P(OBJECT, b)) \
    FN(db_object_find_with_primary_key, PTR_OR_NONE, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].p), \
       P(REALM, realm) P(PK_CLASS, class_key) P(MATCH_VALUE, primary_key) P(OUT_OPT, out_found)) \
    FN(db_object_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(OBJECT, object)) \
    FN(db_object_get_backlinks, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].i), \
       P(OBJECT, object) P(CLASS_KEY, origin_class) P(PK_ITEMS, origin_property)) \
    FN(db_object_get_by_key, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].i), P(REALM, realm) P(CLASS_KEY, class_key) P(OBJ_KEY, object_key)) \
    FN(db_object_find_key_with_primary_key, STATUS, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].p, a[4].p), \
       P(REALM, realm) P(PK_CLASS, class_key) P(MATCH_VALUE, primary_key) P(OUT, out_key) P(OUT, out_found)) \
    FN(db_object_get_values_by_primary_key, STATUS, F_WRONG_THREAD, \
       (a[0].p, a[1].ck, a[2].p, a[3].p, a[4].z, a[5].p, a[6].p, a[7].z, a[8].p, a[9].p), \
       P(REALM, realm) P(PK_CLASS, class_key) P(MATCH_VALUE, primary_key) P(PK_PROP_KEYS, property_keys) P(COUNT, count) \
       P(OUT, out_values) P(OUT_OPT, buffer) P(COUNT, buffer_size) P(OUT, out_key) P(OUT, out_found)) \
    FN(db_object_get_values_by_key, STATUS, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].i, a[3].p, a[4].z, a[5].p, a[6].p, a[7].z), \
       P(REALM, realm) P(CLASS_KEY, class_key) P(OBJ_KEY, object_key) P(PROP_KEYS, property_keys) P(COUNT, count) \
       P(OUT, out_values) P(OUT_OPT, buffer) P(COUNT, buffer_size)) \
    FN(db_object_get_class_key, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(OBJECT, object) P(OUT, out_class_key)) \
    FN(db_object_get_dictionary, PTR, F_WRONG_THREAD, (a[0].p, a[1].i), P(OBJECT, object) P(PK_DICT, property_key)) \
    FN(db_object_get_key, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(OBJECT, object) P(OUT, out_key)) \
    FN(db_object_get_linking_objects, PTR, F_WRONG_THREAD, (a[0].p, a[1].i), P(OBJECT, object) P(PK_LINKED_FROM, property_key)) \
    FN(db_object_get_list, PTR, F_WRONG_THREAD, (a[0].p, a[1].i), P(OBJECT, object) P(PK_INTS, property_key)) \
    FN(db_object_get_set, PTR, F_WRONG_THREAD, (a[0].p, a[1].i), P(OBJECT, object) P(PK_SET, property_key)) \
    FN(db_object_get_value, STATUS, F_WRONG_THREAD, (a[0].p, a[1].i, a[2].p), P(OBJECT, object) P(PK_ANY, property_key) P(OUT, out_value)) \
    FN(db_object_get_value_by_name, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), \
       P(OBJECT, object) P(PROP_NAME, property_name) P(OUT, out_value)) \
    FN(db_object_get_values, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].p), \
       P(OBJECT, object) P(PROP_KEYS, property_keys) P(COUNT, count) P(OUT, out_values)) \
    FN(db_object_is_frozen, FALSE, 0, (a[0].p), P(OBJECT, object)) \
    FN(db_object_is_valid, FALSE, F_WRONG_THREAD, (a[0].p), P(OBJECT, object)) \
    FN(db_object_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].object_cb, a[4].p, a[5].free_fn), P(OBJECT, object) \
       P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(OBJECT_CB, callback) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_object_release, VOID, 0, (a[0].p), P(OBJECT, object)) \
    FN(db_object_set_value, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i, a[2].p), P(OBJECT, object) P(PK_ANY, property_key) P(VALUE, value)) \
    FN(db_object_set_value_by_key, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].i, a[3].i, a[4].p), \
       P(REALM, realm) P(CLASS_KEY, class_key) P(OBJ_KEY, object_key) P(PK_ANY, property_key) P(VALUE, value)) \
    FN(db_object_set_value_by_name, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), \
       P(OBJECT, object) P(PROP_NAME, property_name) P(VALUE, value)) \
    FN(db_object_set_values, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].z), \
       P(OBJECT, object) P(PROP_KEYS, property_keys) P(VALUES, values) P(COUNT, count)) \
    FN(db_object_thaw, PTR_OR_NONE, F_WRONG_THREAD, (a[0].p), P(FROZEN_OBJECT, object)) \
    /* Object creators (of Item rows giving `any`) */ \
    FN(db_object_creator_new, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].z, a[4].e), P(REALM, realm) \
       P(CLASS_KEY, class_key) P(PROP_KEYS, property_keys) P(COUNT, count) P(UPSERT, mode)) \
    FN(db_object_creator_create, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(CREATOR, creator) \
       P(VALUES, values) P(OUT, out_key)) \
    FN(db_object_creator_is_valid, FALSE, 0, (a[0].p), P(CREATOR, creator)) \
    FN(db_object_creator_release, VOID, 0, (a[0].p), P(CREATOR, creator)) \
    /* Object readers (READER: of Item's prop_keys; PK_READER: of Keyed's, for finds) */ \
    FN(db_object_reader_new, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].p, a[3].z, a[4].z), P(REALM, realm) \
       P(CLASS_KEY, class_key) P(PROP_KEYS, property_keys) P(COUNT, count) P(COUNT, buffer_size)) \
    FN(db_object_reader_values, PTR, F_CLOSED_OK, (a[0].p), P(READER, reader)) \
    FN(db_object_reader_read, STATUS, F_WRONG_THREAD, (a[0].p, a[1].i), P(READER, reader) P(OBJ_KEY, object_key)) \
    FN(db_object_reader_find, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].p), P(PK_READER, reader) \
       P(MATCH_VALUE, primary_key) P(OUT, out_key) P(OUT, out_found)) \
    FN(db_object_reader_is_valid, FALSE, 0, (a[0].p), P(READER, reader)) \
    FN(db_object_reader_release, VOID, 0, (a[0].p), P(READER, reader)) \
    /* Property writers (of Item.any, a mixed: any number is a valid write) */ \
    FN(db_property_writer_new, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck, a[2].i), P(REALM, realm) P(CLASS_KEY, class_key) \
       P(PK_ANY, property_key)) \
    FN(db_property_writer_set_int, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i, a[2].i), P(WRITER, writer) \
       P(OBJ_KEY, object_key) P(INT, value)) \
    FN(db_property_writer_set_double, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i, a[2].d), P(WRITER, writer) \
       P(OBJ_KEY, object_key) P(DOUBLE, value)) \
    FN(db_property_writer_is_valid, FALSE, 0, (a[0].p), P(WRITER, writer)) \
    FN(db_property_writer_release, VOID, 0, (a[0].p), P(WRITER, writer)) \
    /* Migration */ \
    FN(db_migration_delete_data, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(MIGRATION, migration) P(CLASS_NAME, class_name)) \
    FN(db_migration_enumerate_objects, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].migration_object_fn, a[3].p), \
       P(MIGRATION, migration) P(CLASS_NAME, class_name) P(MIGRATION_OBJECT_FN, fn) P(USERDATA, userdata)) \
    FN(db_migration_get_new_schema, PTR, 0, (a[0].p), P(MIGRATION, migration)) \
    FN(db_migration_get_old_schema, PTR, 0, (a[0].p), P(MIGRATION, migration)) \
    FN(db_migration_get_realm, PTR, 0, (a[0].p), P(MIGRATION, migration)) \
    FN(db_migration_rename_property, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].p), \
       P(MIGRATION, migration) P(CLASS_NAME, class_name) P(OLD_PROP, old_name) P(NEW_PROP, new_name)) \
    /* Collection changes */ \
    FN(db_collection_change_get_counts, STATUS, 0, (a[0].p, a[1].p), P(COLL_CHANGE, change) P(OUT, out_counts)) \
    FN(db_collection_change_get_indices, STATUS, 0, (a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].p), P(COLL_CHANGE, change) \
       P(OUT_OPT, out_deletions) P(OUT_OPT, out_insertions) P(OUT_OPT, out_modifications) \
       P(OUT_OPT, out_modifications_new) P(OUT_OPT, out_moves)) \
    /* Dictionary */ \
    FN(db_dictionary_aggregate, STATUS, F_WRONG_THREAD, (a[0].p, a[1].e, a[2].p, a[3].p), \
       P(DICT, dictionary) P(AGGREGATE, aggregate) P(OUT, out_value) P(OUT, out_found)) \
    FN(db_dictionary_clear, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(DICT, dictionary)) \
    FN(db_dictionary_erase, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(DICT, dictionary) P(DICT_KEY, key) P(OUT_OPT, out_erased)) \
    FN(db_dictionary_find, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].p), \
       P(DICT, dictionary) P(DICT_KEY, key) P(OUT, out_value) P(OUT, out_found)) \
    FN(db_dictionary_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(DICT, dictionary)) \
    FN(db_dictionary_get_entries, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z, a[3].p, a[4].p, a[5].p), P(DICT, dictionary) \
       P(START, start) P(MAX_COUNT, max_count) P(OUT, out_keys) P(OUT, out_values) P(OUT, out_count)) \
    FN(db_dictionary_insert, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(DICT, dictionary) P(NEW_DICT_KEY, key) P(VALUE, value)) \
    FN(db_dictionary_insert_embedded, PTR, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p), P(EMB_DICT, dictionary) P(NEW_DICT_KEY, key)) \
    FN(db_dictionary_is_frozen, FALSE, 0, (a[0].p), P(DICT, dictionary)) \
    FN(db_dictionary_is_valid, FALSE, F_WRONG_THREAD, (a[0].p), P(DICT, dictionary)) \
    FN(db_dictionary_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].collection_cb, a[4].p, a[5].free_fn), P(OBJ_DICT, dictionary) \
       P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(COLLECTION_CB, callback) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_dictionary_release, VOID, 0, (a[0].p), P(DICT, dictionary)) \
    FN(db_dictionary_size, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(DICT, dictionary) P(OUT, out_size)) \
    FN(db_dictionary_thaw, PTR_OR_NONE, F_WRONG_THREAD, (a[0].p), P(FROZEN_DICT, dictionary)) \
    FN(db_dictionary_to_results, PTR, F_WRONG_THREAD, (a[0].p), P(OBJ_DICT, dictionary)) \
    /* List */ \
    FN(db_list_aggregate, STATUS, F_WRONG_THREAD, (a[0].p, a[1].e, a[2].p, a[3].p), \
       P(LIST, list) P(AGGREGATE, aggregate) P(OUT, out_value) P(OUT, out_found)) \
    FN(db_list_assign, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z), P(LIST, list) P(VALUES, values) P(COUNT, count)) \
    FN(db_list_clear, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(LIST, list)) \
    FN(db_list_erase, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z), P(LIST, list) P(INDEX, index)) \
    FN(db_list_find, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].p), \
       P(LIST, list) P(MATCH_VALUE, value) P(OUT, out_index) P(OUT, out_found)) \
    FN(db_list_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(LIST, list)) \
    FN(db_list_get, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(OUT, out_value)) \
    FN(db_list_get_values, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z, a[3].p, a[4].p), \
       P(LIST, list) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_values) P(OUT, out_count)) \
    FN(db_list_positions_matching, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].z, a[4].p, a[5].z, a[6].p), \
       P(LIST, list) P(VALUE_QUERY, query) P(QUERY_ARGS, args) P(COUNT, num_args) P(OUT, out_positions) \
       P(MAX_COUNT, capacity) P(OUT, out_count)) \
    FN(db_list_insert, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(VALUE, value)) \
    FN(db_list_insert_embedded, PTR, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z), P(EMB_LIST, list) P(INDEX, index)) \
    FN(db_list_is_frozen, FALSE, 0, (a[0].p), P(LIST, list)) \
    FN(db_list_is_valid, FALSE, F_WRONG_THREAD, (a[0].p), P(LIST, list)) \
    FN(db_list_move, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z), P(LIST, list) P(INDEX, from_index) P(INDEX, to_index)) \
    FN(db_list_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].collection_cb, a[4].p, a[5].free_fn), P(OBJ_LIST, list) \
       P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(COLLECTION_CB, callback) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_list_release, VOID, 0, (a[0].p), P(LIST, list)) \
    FN(db_list_set, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(LIST, list) P(INDEX, index) P(VALUE, value)) \
    FN(db_list_size, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(LIST, list) P(OUT, out_size)) \
    FN(db_list_swap, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z), P(LIST, list) P(INDEX, i) P(INDEX, j)) \
    FN(db_list_thaw, PTR_OR_NONE, F_WRONG_THREAD, (a[0].p), P(FROZEN_LIST, list)) \
    FN(db_list_to_results, PTR, F_WRONG_THREAD, (a[0].p), P(OBJ_LIST, list)) \
    /* Notification */ \
    FN(db_notification_token_invalidate, STATUS, F_CLOSED_OK, (a[0].p), P(TOKEN, token)) \
    FN(db_notification_token_is_valid, FALSE, 0, (a[0].p), P(TOKEN, token)) \
    FN(db_notification_token_release, VOID, 0, (a[0].p), P(TOKEN, token)) \
    /* Results */ \
    FN(db_results_aggregate, STATUS, F_WRONG_THREAD, (a[0].p, a[1].i, a[2].e, a[3].p, a[4].p), P(RESULTS, results) \
       P(PK_NUM, property_key) P(AGGREGATE, aggregate) P(OUT, out_value) P(OUT, out_found)) \
    FN(db_results_count, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(RESULTS, results) P(OUT, out_count)) \
    FN(db_results_delete_all, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p), P(RESULTS, results) P(OUT_OPT, out_num_deleted)) \
    FN(db_results_description, PTR, F_WRONG_THREAD, (a[0].p), P(RESULTS, results)) \
    FN(db_results_distinct, PTR, 0, (a[0].p, a[1].p, a[2].z), P(RESULTS, results) P(PROP_KEYS, property_keys) P(COUNT, num_keys)) \
    FN(db_results_distinct_by_key_paths, PTR, 0, (a[0].p, a[1].p, a[2].z), \
       P(RESULTS, results) P(KEY_PATHS, key_paths) P(COUNT, num_key_paths)) \
    FN(db_results_filter, PTR, 0, (a[0].p, a[1].p, a[2].p, a[3].z), \
       P(RESULTS, results) P(QUERY, query) P(QUERY_ARGS, args) P(COUNT, num_args)) \
    FN(db_results_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(RESULTS, results)) \
    FN(db_results_from_class, PTR, F_WRONG_THREAD, (a[0].p, a[1].ck), P(REALM, realm) P(CLASS_KEY, class_key)) \
    FN(db_results_get, PTR, F_WRONG_THREAD, (a[0].p, a[1].z), P(RESULTS, results) P(INDEX, index)) \
    FN(db_results_get_keys, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z, a[3].p, a[4].p), \
       P(RESULTS, results) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_keys) P(OUT, out_count)) \
    FN(db_results_get_values, STATUS, F_WRONG_THREAD, (a[0].p, a[1].i, a[2].z, a[3].z, a[4].p, a[5].p), P(RESULTS, results) \
       P(PK_ANY, property_key) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_values) P(OUT, out_count)) \
    FN(db_results_get_values_by_key_path, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].z, a[4].p, a[5].p), \
       P(RESULTS, results) P(KEY_PATH, key_path) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_values) P(OUT, out_count)) \
    FN(db_results_get_value_lists_by_key_path, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].z, a[4].p, a[5].z, a[6].p, a[7].p, \
       a[8].p, a[9].p), P(RESULTS, results) P(KEY_PATH, key_path) P(START, start) P(MAX_COUNT, max_objects) P(OUT, out_values) \
       P(MAX_COUNT, values_capacity) P(OUT, out_offsets) P(OUT, out_object_count) P(OUT, out_value_count) P(OUT_OPT, out_single_valued)) \
    FN(db_results_get_values_into, STATUS, F_WRONG_THREAD, (a[0].p, a[1].i, a[2].z, a[3].z, a[4].p, a[5].p, a[6].z, a[7].p), \
       P(RESULTS, results) P(PK_ANY, property_key) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_values) \
       P(OUT_OPT, buffer) P(COUNT, buffer_size) P(OUT, out_count)) \
    FN(db_results_index_of, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].p), \
       P(RESULTS, results) P(OBJECT, object) P(OUT_OPT, out_index) P(OUT, out_found)) \
    FN(db_results_index_matching, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].z, a[4].p, a[5].p), \
       P(RESULTS, results) P(QUERY, query) P(QUERY_ARGS, args) P(COUNT, num_args) P(OUT_OPT, out_index) P(OUT, out_found)) \
    FN(db_results_is_frozen, FALSE, 0, (a[0].p), P(RESULTS, results)) \
    FN(db_results_get_realm, PTR, F_WRONG_THREAD, (a[0].p), P(RESULTS, results)) \
    FN(db_results_is_valid, FALSE, 0, (a[0].p), P(RESULTS, results)) \
    FN(db_results_limit, PTR, 0, (a[0].p, a[1].z), P(RESULTS, results) P(LIMIT, limit)) \
    FN(db_results_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].collection_cb, a[4].p, a[5].free_fn), P(RESULTS, results) \
       P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(COLLECTION_CB, callback) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_results_release, VOID, 0, (a[0].p), P(RESULTS, results)) \
    FN(db_results_sectioned_by_function, PTR, 0, (a[0].p, a[1].p, a[2].z, a[3].section_key_fn, a[4].p, a[5].free_fn), \
       P(RESULTS, results) P(SORT_PATHS, sort) P(COUNT, num_sort) P(SECTION_KEY_FN, fn) P(USERDATA, userdata) \
       P(FREE_FN, userdata_free)) \
    FN(db_results_sectioned_by_key_path, PTR, 0, (a[0].p, a[1].p, a[2].b), \
       P(RESULTS, results) P(KEY_PATH, key_path) P(BOOL, ascending)) \
    FN(db_results_sectioned_by_key_path_sorted, PTR, 0, (a[0].p, a[1].p, a[2].p, a[3].z), \
       P(RESULTS, results) P(KEY_PATH, key_path) P(SORT_PATHS, sort) P(COUNT, num_sort)) \
    FN(db_results_set_value, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i, a[2].p), P(RESULTS, results) P(PK_ANY, property_key) P(VALUE, value)) \
    FN(db_results_set_values, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].i, a[2].z, a[3].p, a[4].z), P(RESULTS, results) \
       P(PK_ANY, property_key) P(INDEX, start) P(VALUES, values) P(COUNT, count)) \
    FN(db_results_snapshot, PTR, F_WRONG_THREAD, (a[0].p), P(RESULTS, results)) \
    FN(db_results_sort, PTR, 0, (a[0].p, a[1].p, a[2].z), P(RESULTS, results) P(SORT_KEYS, keys) P(COUNT, num_keys)) \
    FN(db_results_sort_by_key_paths, PTR, 0, (a[0].p, a[1].p, a[2].z), P(RESULTS, results) P(SORT_PATHS, keys) P(COUNT, num_keys)) \
    FN(db_results_thaw, PTR, 0, (a[0].p), P(FROZEN_RESULTS, results)) \
    /* Sectioned */ \
    FN(db_sectioned_change_get_counts, STATUS, 0, (a[0].p, a[1].p), P(SECT_CHANGE, change) P(OUT, out_counts)) \
    FN(db_sectioned_change_get_indices, STATUS, 0, (a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].p), P(SECT_CHANGE, change) \
       P(OUT_OPT, out_sections_inserted) P(OUT_OPT, out_sections_deleted) P(OUT_OPT, out_insertions) \
       P(OUT_OPT, out_deletions) P(OUT_OPT, out_modifications)) \
    FN(db_sectioned_results_count, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(SECTIONED, sectioned) P(OUT, out_count)) \
    FN(db_sectioned_results_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(SECTIONED, sectioned)) \
    FN(db_sectioned_results_get, PTR, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z), P(SECTIONED, sectioned) P(INDEX, section) P(INDEX, item)) \
    FN(db_sectioned_results_get_key, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(SECTIONED, sectioned) P(INDEX, section) P(OUT, out_key)) \
    FN(db_sectioned_results_is_frozen, FALSE, 0, (a[0].p), P(SECTIONED, sectioned)) \
    FN(db_sectioned_results_get_realm, PTR, F_WRONG_THREAD, (a[0].p), P(SECTIONED, sectioned)) \
    FN(db_sectioned_results_is_valid, FALSE, 0, (a[0].p), P(SECTIONED, sectioned)) \
    FN(db_sectioned_results_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].sectioned_cb, a[4].p, a[5].free_fn), \
       P(SECTIONED, sectioned) P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(SECTIONED_CB, callback) P(USERDATA, userdata) \
       P(FREE_FN, userdata_free)) \
    FN(db_sectioned_results_release, VOID, 0, (a[0].p), P(SECTIONED, sectioned)) \
    FN(db_sectioned_results_section_count, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), \
       P(SECTIONED, sectioned) P(INDEX, section) P(OUT, out_count)) \
    FN(db_sectioned_results_thaw, PTR, 0, (a[0].p), P(FROZEN_SECTIONED, sectioned)) \
    /* Set */ \
    FN(db_set_aggregate, STATUS, F_WRONG_THREAD, (a[0].p, a[1].e, a[2].p, a[3].p), P(SET, set) P(AGGREGATE, aggregate) P(OUT, out_value) P(OUT, out_found)) \
    FN(db_set_assign, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z), P(SET, set) P(VALUES, values) P(COUNT, count)) \
    FN(db_set_clear, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p), P(SET, set)) \
    FN(db_set_contains, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(SET, set) P(MATCH_VALUE, value) P(OUT, out_found)) \
    FN(db_set_erase, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(SET, set) P(MATCH_VALUE, value) P(OUT_OPT, out_erased)) \
    FN(db_set_freeze, PTR, F_WRONG_THREAD, (a[0].p), P(SET, set)) \
    FN(db_set_get, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].p), P(SET, set) P(INDEX, index) P(OUT, out_value)) \
    FN(db_set_positions_matching, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p, a[3].z, a[4].p, a[5].z, a[6].p), \
       P(SET, set) P(VALUE_QUERY, query) P(QUERY_ARGS, args) P(COUNT, num_args) P(OUT, out_positions) \
       P(MAX_COUNT, capacity) P(OUT, out_count)) \
    FN(db_set_get_values, STATUS, F_WRONG_THREAD, (a[0].p, a[1].z, a[2].z, a[3].p, a[4].p), \
       P(SET, set) P(START, start) P(MAX_COUNT, max_count) P(OUT, out_values) P(OUT, out_count)) \
    FN(db_set_insert, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].p), P(SET, set) P(VALUE, value) P(OUT_OPT, out_inserted)) \
    FN(db_set_intersect, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z), P(SET, set) P(MATCH_VALUES, values) P(COUNT, count)) \
    FN(db_set_is_frozen, FALSE, 0, (a[0].p), P(SET, set)) \
    FN(db_set_is_valid, FALSE, F_WRONG_THREAD, (a[0].p), P(SET, set)) \
    FN(db_set_observe, PTR, F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z, a[3].collection_cb, a[4].p, a[5].free_fn), P(OBJ_SET, set) \
       P(OBSERVE_PATHS, key_paths) P(COUNT, num_key_paths) P(COLLECTION_CB, callback) P(USERDATA, userdata) P(FREE_FN, userdata_free)) \
    FN(db_set_release, VOID, 0, (a[0].p), P(SET, set)) \
    FN(db_set_size, STATUS, F_WRONG_THREAD, (a[0].p, a[1].p), P(SET, set) P(OUT, out_size)) \
    FN(db_set_subtract, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z), P(SET, set) P(MATCH_VALUES, values) P(COUNT, count)) \
    FN(db_set_thaw, PTR_OR_NONE, F_WRONG_THREAD, (a[0].p), P(FROZEN_SET, set)) \
    FN(db_set_to_results, PTR, F_WRONG_THREAD, (a[0].p), P(OBJ_SET, set)) \
    FN(db_set_union, STATUS, F_WRITE | F_WRONG_THREAD, (a[0].p, a[1].p, a[2].z), P(SET, set) P(VALUES, values) P(COUNT, count))

#define SW_MAX_PARAMS 10

typedef struct sw_param {
    sw_kind_t kind;
    const char *name;
} sw_param_t;

typedef struct sw_fn {
    const char *name;
    void (*call)(const sw_arg_t *a, sw_result_t *r);
    sw_ret_t ret;
    int flags;
    sw_param_t params[SW_MAX_PARAMS + 1]; /* ends with K_END */
} sw_fn_t;

#define SW_STORE_STATUS(r, call) (r)->status = (call)
/* The release function for a returned pointer, by its type (_Generic does not evaluate `call`). */
static void sw_free_string(void *p) { db_string_free(p); }
static void sw_free_schema(void *p) { db_schema_release(p); }
static void sw_free_config(void *p) { db_config_release(p); }
static void sw_free_realm(void *p) { db_realm_release(p); }
static void sw_free_object(void *p) { db_object_release(p); }
static void sw_free_list(void *p) { db_list_release(p); }
static void sw_free_set(void *p) { db_set_release(p); }
static void sw_free_dictionary(void *p) { db_dictionary_release(p); }
static void sw_free_results(void *p) { db_results_release(p); }
static void sw_free_sectioned(void *p) { db_sectioned_results_release(p); }
static void sw_free_token(void *p) { db_notification_token_release(p); }
static void sw_free_writer(void *p) { db_property_writer_release(p); }
static void sw_free_creator(void *p) { db_object_creator_release(p); }
static void sw_free_reader(void *p) { db_object_reader_release(p); }
#define SW_RELEASER(call)                                                                         \
    _Generic((call), char *: sw_free_string, db_schema_t *: sw_free_schema,                      \
             db_config_t *: sw_free_config, db_realm_t *: sw_free_realm,                         \
             db_object_t *: sw_free_object, db_list_t *: sw_free_list, db_set_t *: sw_free_set,  \
             db_dictionary_t *: sw_free_dictionary, db_results_t *: sw_free_results,             \
             db_sectioned_results_t *: sw_free_sectioned, db_notification_token_t *: sw_free_token, \
             db_property_writer_t *: sw_free_writer, db_object_creator_t *: sw_free_creator,                \
             db_object_reader_t *: sw_free_reader,                                               \
             default: (sw_release_fn)NULL)
#define SW_STORE_PTR(r, call) ((r)->ptr = (call), (r)->release = SW_RELEASER(call))
#define SW_STORE_PTR_OR_NONE(r, call) ((r)->ptr = (call), (r)->release = SW_RELEASER(call))
#define SW_STORE_STR(r, call) (r)->ptr = (call)
#define SW_STORE_FALSE(r, call) (r)->b = (call)
#define SW_STORE_TRUE(r, call) (r)->b = (call)
#define SW_STORE_ANY(r, call) (r)->b = (call)
#define SW_STORE_ZERO(r, call) (r)->z = (call)
#define SW_STORE_VOID(r, call) call

/* One small function per row that makes the call: call_db_list_get(a, r). */
#define SW_THUNK(name, ret, flags, args, params) \
    static void call_##name(const sw_arg_t *a, sw_result_t *r) { (void)a; (void)r; SW_STORE_##ret(r, name args); }
SWEEP_FUNCTIONS(SW_THUNK)

#define P(kind, name) {K_##kind, #name},
#define SW_ROW(name, ret, flags, args, params) {#name, call_##name, R_##ret, flags, {params {K_END, NULL}}},
static const sw_fn_t functions[] = {SWEEP_FUNCTIONS(SW_ROW)};
#undef P

/* ---- known crashes ------------------------------------------------------------------------ */

/* Cases that crash or abort the library today (bugs to fix), by label, with the signal seen. */
static const char *const known_crashes[] = {
    NULL, /* none today: a label goes here only while the fix of its crash is pending */
};

/* ---- the fixture -------------------------------------------------------------------------- */

/*
 * Item    { name: string?, num: int?, any: mixed, ints: [int], set: <int>, dict: {string: mixed},
 *           items: [Item], item_set: <Item>, item_dict: {string: Item?}, subs: [Sub],
 *           sub_dict: {string: Sub?}, sub: Sub?, linked_from: linkingObjects(Item.items) }
 * Keyed   { id: int (primary key) }
 * Sub     { label: string? }  -- embedded
 *
 * Two Items: item 1 ("a", num 1) holds two elements in each collection (items: [item 1]), item 2
 * ("b", num 2) is empty; one Keyed (id 1).
 */
#define SW_LINKS(n, t, c, f, target) {.name = (n), .type = (t), .collection_type = (c), .flags = (f), .key = -1, .link_target = (target)}
static const db_property_info_t item_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("num", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("any", DB_PROPERTY_TYPE_MIXED, 0),
    SW_LINKS("ints", DB_PROPERTY_TYPE_INT, DB_COLLECTION_LIST, 0, NULL),
    SW_LINKS("set", DB_PROPERTY_TYPE_INT, DB_COLLECTION_SET, 0, NULL),
    SW_LINKS("dict", DB_PROPERTY_TYPE_MIXED, DB_COLLECTION_DICTIONARY, 0, NULL),
    SW_LINKS("items", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_LIST, 0, "Item"),
    SW_LINKS("item_set", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_SET, 0, "Item"),
    SW_LINKS("item_dict", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_DICTIONARY, DB_PROPERTY_FLAG_NULLABLE, "Item"),
    SW_LINKS("subs", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_LIST, 0, "Sub"),
    SW_LINKS("sub_dict", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_DICTIONARY, DB_PROPERTY_FLAG_NULLABLE, "Sub"),
    SW_LINKS("sub", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_NONE, DB_PROPERTY_FLAG_NULLABLE, "Sub"),
    {.name = "linked_from", .type = DB_PROPERTY_TYPE_LINKING_OBJECTS, .key = -1, .link_target = "Item",
     .link_origin_property = "items"},
};
static const db_property_info_t keyed_props[] = {FX_PROP("id", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_PRIMARY_KEY)};
static const db_property_info_t sub_props[] = {FX_PROP("label", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE)};

/* The migration context: Item's "legacy" becomes "renamed" at schema version 2. */
static const db_property_info_t old_item_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("legacy", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_NULLABLE),
};
static const db_property_info_t new_item_props[] = {
    FX_PROP("name", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE),
    FX_PROP("renamed", DB_PROPERTY_TYPE_INT, DB_PROPERTY_FLAG_NULLABLE),
};

#define SW_SCRATCH_BYTES 8192 /* per output parameter: more than any call writes */

typedef struct fixture {
    db_schema_t *schema;
    db_config_t *config;
    db_realm_t *realm, *frozen_realm;
    db_class_key_t item, keyed;
    db_property_key_t name, num, any, ints, set, dict, items, item_set, item_dict, subs, sub_dict, sub, linked_from;
    db_object_key_t item_key;
    db_object_t *object, *frozen_object;
    db_results_t *results, *frozen_results;
    db_list_t *list, *obj_list, *emb_list, *frozen_list;
    db_set_t *set_handle, *obj_set, *frozen_set;
    db_dictionary_t *dict_handle, *obj_dict, *emb_dict, *frozen_dict;
    db_sectioned_results_t *sectioned, *frozen_sectioned;
    db_notification_token_t *token;
    db_property_writer_t *writer;
    db_object_creator_t *creator;
    db_object_reader_t *reader, *pk_reader;
    char *description;
    /* Input arrays (each just before an unreadable page: see guarded); variants damage them. */
    db_value_t *value, *values, *match_value, *match_values, *arg_value; /* 1, 2, 1, 2, 1 */
    db_property_key_t *prop_keys;                                         /* 2 */
    db_property_key_t *pk_prop_keys; /* 2: of Keyed (PK_CLASS), as prop_keys are of Item */
    db_sort_key_t *sort_keys;                                             /* 1 */
    db_sort_path_t *sort_paths;                                           /* 1 */
    const char **key_paths;                                               /* 1 */
    db_query_arg_t *args;                                                 /* 1 */
    db_class_info_t *classes;                                             /* 1 */
    db_property_info_t *class_props;                                      /* 3 */
    db_index_info_t *class_indexes;                                       /* 1 */
    const char **index_props;                                             /* 2 */
    int userdata;
    _Alignas(16) unsigned char scratch[SW_MAX_PARAMS][SW_SCRATCH_BYTES];
} fixture_t;

static void noop_free(void *userdata) { (void)userdata; }
static void noop_notify(void *userdata) { (void)userdata; }
static void noop_progress(void *userdata, size_t done, size_t total) { (void)userdata; (void)done; (void)total; }
static bool noop_should_compact(void *userdata, uint64_t file_bytes, uint64_t used_bytes) {
    (void)userdata;
    (void)file_bytes;
    (void)used_bytes;
    return false;
}
static void noop_collection(void *userdata, const db_collection_change_t *change) { (void)userdata; (void)change; }
static void noop_object(void *userdata, const db_object_change_t *change) { (void)userdata; (void)change; }
static void noop_sectioned(void *userdata, const db_sectioned_change_t *change) { (void)userdata; (void)change; }
static bool noop_migration(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata; (void)migration; (void)old_version;
    return true;
}
static bool visit_object(void *userdata, const db_object_t *old_object, db_object_t *new_object) {
    (void)userdata; (void)old_object; (void)new_object;
    return true;
}
static bool section_key(void *userdata, const db_object_t *object, db_value_t *out_key) {
    (void)userdata; (void)object;
    *out_key = v_int(0);
    return true;
}

static db_schema_t *item_schema(const db_property_info_t *props, size_t n, bool with_others) {
    db_class_info_t c[3];
    c[0] = fx_class("Item", props, n);
    c[1] = fx_class("Keyed", keyed_props, FX_COUNT(keyed_props));
    c[2] = fx_class("Sub", sub_props, FX_COUNT(sub_props));
    c[2].flags = DB_CLASS_FLAG_EMBEDDED;
    return (db_schema_t *)REQUIRE_PTR(db_schema_new(c, with_others ? 3 : 1));
}

static db_object_t *make_item(fixture_t *fx, const char *name, int64_t num) {
    db_property_key_t keys[3] = {fx->name, fx->num, fx->any};
    db_value_t values[3] = {v_str(name), v_int(num), v_int(num)};
    return (db_object_t *)REQUIRE_PTR(db_object_create(fx->realm, fx->item, keys, values, 3, DB_UPSERT_NONE));
}

/* Gives item 1 two elements in every collection. */
static void fill_collections(fixture_t *fx, db_object_t *item) {
    db_value_t one = v_int(1), two = v_int(2), link = v_link(item);
    db_list_t *items = (db_list_t *)REQUIRE_PTR(db_object_get_list(item, fx->items));
    db_set_t *item_set = (db_set_t *)REQUIRE_PTR(db_object_get_set(item, fx->item_set));
    db_dictionary_t *item_dict = (db_dictionary_t *)REQUIRE_PTR(db_object_get_dictionary(item, fx->item_dict));
    db_list_t *subs = (db_list_t *)REQUIRE_PTR(db_object_get_list(item, fx->subs));
    db_dictionary_t *sub_dict = (db_dictionary_t *)REQUIRE_PTR(db_object_get_dictionary(item, fx->sub_dict));
    REQUIRE_OK(db_list_insert(fx->list, 0, &one));
    REQUIRE_OK(db_list_insert(fx->list, 1, &two));
    REQUIRE_OK(db_set_insert(fx->set_handle, &one, NULL));
    REQUIRE_OK(db_set_insert(fx->set_handle, &two, NULL));
    REQUIRE_OK(db_dictionary_insert(fx->dict_handle, "x", &one));
    REQUIRE_OK(db_dictionary_insert(fx->dict_handle, "y", &two));
    REQUIRE_OK(db_list_insert(items, 0, &link));
    REQUIRE_OK(db_set_insert(item_set, &link, NULL));
    REQUIRE_OK(db_dictionary_insert(item_dict, "x", &link));
    db_object_release((db_object_t *)REQUIRE_PTR(db_list_insert_embedded(subs, 0)));
    db_object_release((db_object_t *)REQUIRE_PTR(db_dictionary_insert_embedded(sub_dict, "x")));
    db_object_release((db_object_t *)REQUIRE_PTR(db_object_create_embedded(item, fx->sub)));
    db_list_release(items);
    db_set_release(item_set);
    db_dictionary_release(item_dict);
    db_list_release(subs);
    db_dictionary_release(sub_dict);
}

/* `size` bytes that end where an unreadable page begins: a call that reads past the end of an
 * input array (believing a count that lies) crashes at once, whatever memory would follow. */
static void *guarded(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *base = (unsigned char *)mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(base != MAP_FAILED && size <= page && mprotect(base + page, page, PROT_NONE) == 0);
    return base + page - size;
}
#define GUARDED(field, n) ((field) = guarded(sizeof *(field) * (n)))

/* The input arrays, valid: variants then damage one of them. */
static void fill_inputs(fixture_t *fx) {
    GUARDED(fx->value, 1);
    GUARDED(fx->values, 2);
    GUARDED(fx->match_value, 1);
    GUARDED(fx->match_values, 2);
    GUARDED(fx->arg_value, 1);
    GUARDED(fx->prop_keys, 2);
    GUARDED(fx->pk_prop_keys, 2);
    GUARDED(fx->sort_keys, 1);
    GUARDED(fx->sort_paths, 1);
    GUARDED(fx->key_paths, 1);
    GUARDED(fx->args, 1);
    GUARDED(fx->classes, 1);
    GUARDED(fx->class_props, 3);
    GUARDED(fx->class_indexes, 1);
    GUARDED(fx->index_props, 2);
    fx->value[0] = v_int(7);
    fx->values[0] = v_int(7);
    fx->values[1] = v_int(8);
    fx->match_value[0] = v_int(1);
    fx->match_values[0] = v_int(1);
    fx->match_values[1] = v_int(2);
    fx->arg_value[0] = v_int(1);
    fx->prop_keys[0] = fx->prop_keys[1] = fx->any;
    fx->pk_prop_keys[0] = fx->pk_prop_keys[1] = fx_prop_key(fx->realm, "Keyed", "id");
    fx->sort_keys[0].property_key = fx->num;
    fx->sort_keys[0].ascending = true;
    fx->sort_paths[0].key_path = "name";
    fx->sort_paths[0].ascending = true;
    fx->key_paths[0] = "num";
    fx->args[0].num_values = 1;
    fx->args[0].is_list = false;
    fx->args[0].values = fx->arg_value;
    /* Thing { n: int, s: string?, next: Thing?, index (n, s) } for db_schema_new */
    fx->class_props[0] = (db_property_info_t)FX_PROP("n", DB_PROPERTY_TYPE_INT, 0);
    fx->class_props[1] = (db_property_info_t)FX_PROP("s", DB_PROPERTY_TYPE_STRING, DB_PROPERTY_FLAG_NULLABLE);
    fx->class_props[2] = (db_property_info_t)SW_LINKS("next", DB_PROPERTY_TYPE_OBJECT, DB_COLLECTION_NONE,
                                                      DB_PROPERTY_FLAG_NULLABLE, "Thing");
    fx->index_props[0] = "n";
    fx->index_props[1] = "s";
    fx->class_indexes[0].properties = fx->index_props;
    fx->class_indexes[0].num_properties = 2;
    fx->classes[0] = fx_class("Thing", fx->class_props, 3);
    fx->classes[0].indexes = fx->class_indexes;
    fx->classes[0].num_indexes = 1;
}

/* Opens "sweep.realm" in the current directory with Item, Keyed and Sub, and every handle. */
static void fixture_open(fixture_t *fx) {
    db_object_t *item2, *keyed;
    db_value_t id = v_int(1);
    db_property_key_t id_key;
    memset(fx, 0, sizeof *fx);
    fx->schema = item_schema(item_props, FX_COUNT(item_props), true);
    fx->config = fx_config("sweep.realm", fx->schema, 1);
    fx->realm = (db_realm_t *)REQUIRE_PTR(db_realm_open(fx->config));
    fx->item = fx_class_key(fx->realm, "Item");
    fx->keyed = fx_class_key(fx->realm, "Keyed");
    {
        struct { db_property_key_t *key; const char *name; } props[] = {
            {&fx->name, "name"}, {&fx->num, "num"}, {&fx->any, "any"}, {&fx->ints, "ints"}, {&fx->set, "set"},
            {&fx->dict, "dict"}, {&fx->items, "items"}, {&fx->item_set, "item_set"}, {&fx->item_dict, "item_dict"},
            {&fx->subs, "subs"}, {&fx->sub_dict, "sub_dict"}, {&fx->sub, "sub"}, {&fx->linked_from, "linked_from"},
        };
        size_t i;
        for (i = 0; i < FX_COUNT(props); i++) *props[i].key = fx_prop_key(fx->realm, "Item", props[i].name);
    }
    id_key = fx_prop_key(fx->realm, "Keyed", "id");
    REQUIRE_OK(db_realm_begin_write(fx->realm));
    fx->object = make_item(fx, "a", 1);
    item2 = make_item(fx, "b", 2);
    keyed = (db_object_t *)REQUIRE_PTR(db_object_create(fx->realm, fx->keyed, &id_key, &id, 1, DB_UPSERT_NONE));
    fx->list = (db_list_t *)REQUIRE_PTR(db_object_get_list(fx->object, fx->ints));
    fx->set_handle = (db_set_t *)REQUIRE_PTR(db_object_get_set(fx->object, fx->set));
    fx->dict_handle = (db_dictionary_t *)REQUIRE_PTR(db_object_get_dictionary(fx->object, fx->dict));
    fill_collections(fx, fx->object);
    REQUIRE_OK(db_realm_commit(fx->realm));
    db_object_release(item2);
    db_object_release(keyed);
    REQUIRE_OK(db_object_get_key(fx->object, &fx->item_key));
    fx->obj_list = (db_list_t *)REQUIRE_PTR(db_object_get_list(fx->object, fx->items));
    fx->emb_list = (db_list_t *)REQUIRE_PTR(db_object_get_list(fx->object, fx->subs));
    fx->obj_set = (db_set_t *)REQUIRE_PTR(db_object_get_set(fx->object, fx->item_set));
    fx->obj_dict = (db_dictionary_t *)REQUIRE_PTR(db_object_get_dictionary(fx->object, fx->item_dict));
    fx->emb_dict = (db_dictionary_t *)REQUIRE_PTR(db_object_get_dictionary(fx->object, fx->sub_dict));
    fx->results = (db_results_t *)REQUIRE_PTR(db_results_from_class(fx->realm, fx->item));
    fx->sectioned = (db_sectioned_results_t *)REQUIRE_PTR(db_results_sectioned_by_key_path(fx->results, "name", true));
    fx->token = (db_notification_token_t *)REQUIRE_PTR(db_results_observe(fx->results, NULL, 0, noop_collection, NULL, NULL));
    fx->writer = (db_property_writer_t *)REQUIRE_PTR(db_property_writer_new(fx->realm, fx->item, fx->any));
    fx->creator = (db_object_creator_t *)REQUIRE_PTR(db_object_creator_new(fx->realm, fx->item, &fx->any, 1, DB_UPSERT_NONE));
    fx->frozen_realm = (db_realm_t *)REQUIRE_PTR(db_realm_freeze(fx->realm));
    fx->frozen_object = (db_object_t *)REQUIRE_PTR(db_object_freeze(fx->object));
    fx->frozen_results = (db_results_t *)REQUIRE_PTR(db_results_freeze(fx->results));
    fx->frozen_list = (db_list_t *)REQUIRE_PTR(db_list_freeze(fx->list));
    fx->frozen_set = (db_set_t *)REQUIRE_PTR(db_set_freeze(fx->set_handle));
    fx->frozen_dict = (db_dictionary_t *)REQUIRE_PTR(db_dictionary_freeze(fx->dict_handle));
    fx->frozen_sectioned = (db_sectioned_results_t *)REQUIRE_PTR(db_sectioned_results_freeze(fx->sectioned));
    fx->description = (char *)REQUIRE_PTR(db_object_description(fx->object));
    fill_inputs(fx);
    /* After the inputs: readers copy the keys they are made with. */
    fx->reader = (db_object_reader_t *)REQUIRE_PTR(db_object_reader_new(fx->realm, fx->item, fx->prop_keys, 2, 64));
    fx->pk_reader = (db_object_reader_t *)REQUIRE_PTR(db_object_reader_new(fx->realm, fx->keyed, fx->pk_prop_keys, 2, 64));
}

/* The valid argument of each kind. */
static sw_arg_t valid_arg(fixture_t *fx, sw_kind_t kind, int position) {
    sw_arg_t a;
    memset(&a, 0, sizeof a);
    switch (kind) {
    case K_CONFIG: case K_OPEN_CONFIG: a.p = fx->config; break;
    case K_SCHEMA: a.p = fx->schema; break;
    case K_REALM: a.p = fx->realm; break;
    case K_FROZEN_REALM: a.p = fx->frozen_realm; break;
    case K_OBJECT: a.p = fx->object; break;
    case K_FROZEN_OBJECT: a.p = fx->frozen_object; break;
    case K_RESULTS: a.p = fx->results; break;
    case K_FROZEN_RESULTS: a.p = fx->frozen_results; break;
    case K_LIST: a.p = fx->list; break;
    case K_OBJ_LIST: a.p = fx->obj_list; break;
    case K_EMB_LIST: a.p = fx->emb_list; break;
    case K_FROZEN_LIST: a.p = fx->frozen_list; break;
    case K_SET: a.p = fx->set_handle; break;
    case K_OBJ_SET: a.p = fx->obj_set; break;
    case K_FROZEN_SET: a.p = fx->frozen_set; break;
    case K_DICT: a.p = fx->dict_handle; break;
    case K_OBJ_DICT: a.p = fx->obj_dict; break;
    case K_EMB_DICT: a.p = fx->emb_dict; break;
    case K_FROZEN_DICT: a.p = fx->frozen_dict; break;
    case K_SECTIONED: a.p = fx->sectioned; break;
    case K_FROZEN_SECTIONED: a.p = fx->frozen_sectioned; break;
    case K_TOKEN: a.p = fx->token; break;
    case K_WRITER: a.p = fx->writer; break;
    case K_CREATOR: a.p = fx->creator; break;
    case K_READER: a.p = fx->reader; break;
    case K_PK_READER: a.p = fx->pk_reader; break;
    case K_OWNED_STRING: a.p = fx->description; break;
    case K_MIGRATION: case K_COLL_CHANGE: case K_OBJ_CHANGE: case K_SECT_CHANGE: break; /* set in the callback */
    case K_CLASS_KEY: a.ck = fx->item; break;
    case K_PK_CLASS: a.ck = fx->keyed; break;
    case K_OBJ_KEY: a.i = fx->item_key; break;
    case K_PK_ANY: a.i = fx->any; break;
    case K_PK_NUM: a.i = fx->num; break;
    case K_PK_INTS: a.i = fx->ints; break;
    case K_PK_SET: a.i = fx->set; break;
    case K_PK_DICT: a.i = fx->dict; break;
    case K_PK_SUB: a.i = fx->sub; break;
    case K_PK_ITEMS: a.i = fx->items; break;
    case K_PK_LINKED_FROM: a.i = fx->linked_from; break;
    case K_INDEX: case K_START: a.z = 0; break;
    case K_MAX_COUNT: a.z = 2; break;
    case K_LIMIT: case K_COUNT: a.z = 1; break;
    case K_VERSION: a.u = 1; break;
    case K_AGGREGATE: a.e = DB_AGGREGATE_MIN; break;
    case K_UPSERT: a.e = DB_UPSERT_NONE; break;
    case K_STATUS_CODE: a.e = DB_ERR_NOT_FOUND; break;
    case K_BOOL: a.b = true; break;
    case K_INT: a.i = 7; break;
    case K_DOUBLE: a.d = 2.5; break;
    case K_PATH: a.p = (void *)"other.realm"; break;
    case K_NEW_PATH: { /* a file that does not exist yet: each call makes one */
        static char name[64];
        static unsigned made;
        snprintf(name, sizeof name, "copy-%ld-%u.realm", (long)getpid(), made++);
        a.p = name;
        break;
    }
    case K_CLASS_NAME: a.p = (void *)"Item"; break;
    case K_PROP_NAME: a.p = (void *)"any"; break;
    case K_OLD_PROP: a.p = (void *)"legacy"; break;
    case K_NEW_PROP: a.p = (void *)"renamed"; break;
    case K_QUERY: a.p = (void *)"num == $0"; break;
    case K_VALUE_QUERY: a.p = (void *)"self == $0"; break;
    case K_KEY_PATH: a.p = (void *)"name"; break;
    case K_DICT_KEY: a.p = (void *)"x"; break;
    case K_NEW_DICT_KEY: a.p = (void *)"k"; break;
    case K_VALUE: a.p = fx->value; break;
    case K_VALUES: a.p = fx->values; break;
    case K_MATCH_VALUE: a.p = fx->match_value; break;
    case K_MATCH_VALUES: a.p = fx->match_values; break;
    case K_PROP_KEYS: a.p = fx->prop_keys; break;
    case K_PK_PROP_KEYS: a.p = fx->pk_prop_keys; break;
    case K_SORT_KEYS: a.p = fx->sort_keys; break;
    case K_SORT_PATHS: a.p = fx->sort_paths; break;
    case K_KEY_PATHS: case K_OBSERVE_PATHS: a.p = fx->key_paths; break;
    case K_QUERY_ARGS: a.p = fx->args; break;
    case K_CLASS_INFOS: a.p = fx->classes; break;
    case K_OUT: case K_OUT_OPT: a.p = fx->scratch[position]; break;
    case K_USERDATA: a.p = &fx->userdata; break;
    case K_FREE_FN: a.free_fn = noop_free; break;
    case K_MIGRATION_FN: a.migration_fn = noop_migration; break;
    case K_NOTIFY_FN: a.notify_fn = noop_notify; break;
    case K_PROGRESS_FN: a.progress_fn = noop_progress; break;
    case K_SHOULD_COMPACT_FN: a.should_compact_fn = noop_should_compact; break;
    case K_MIGRATION_OBJECT_FN: a.migration_object_fn = visit_object; break;
    case K_COLLECTION_CB: a.collection_cb = noop_collection; break;
    case K_OBJECT_CB: a.object_cb = noop_object; break;
    case K_SECTIONED_CB: a.sectioned_cb = noop_sectioned; break;
    case K_SECTION_KEY_FN: a.section_key_fn = section_key; break;
    case K_END: break;
    }
    return a;
}

/* ---- hostile variants --------------------------------------------------------------------- */

typedef enum sw_category { C_VALID, C_NULL, C_NUMBER, C_ENUM, C_STRING, C_CLOSED, C_THREAD } sw_category_t;
typedef enum sw_expect { E_FAIL, E_CLEAN, E_OK } sw_expect_t;

typedef struct sw_variant sw_variant_t;
typedef void (*sw_mutate_fn)(fixture_t *fx, sw_arg_t *a, const sw_variant_t *v);

struct sw_variant {
    uint64_t classes; /* HM(...): the hostility classes it applies to */
    sw_category_t category;
    const char *label;
    sw_expect_t expect;
    uint64_t clean_for; /* HM(...): classes for which a success is also fine */
    uint64_t number;    /* the number; for a string, its length (text[0] repeated) if not 0 */
    const char *text;
    sw_mutate_fn mutate; /* NULL: pass `number` as the argument */
};

#define BAD_UTF8 "\xff\xfe"
#define MB (1ULL << 20)

/* The variant's string: `text`, or text[0] repeated `number` times (1 MB strings). */
static const char *text_of(const sw_variant_t *v) {
    char *s;
    if (!v->text || v->number == 0) return v->text;
    s = (char *)malloc(v->number + 1); /* the child exits after one call: never freed */
    if (!s) abort();
    memset(s, v->text[0], v->number);
    s[v->number] = '\0';
    return s;
}

/* A copy of `text` (without its NUL) just before an unreadable page; NULL for NULL. */
static const char *guarded_text(const char *text) {
    char *copy;
    if (!text) return NULL;
    copy = (char *)guarded(strlen(text));
    memcpy(copy, text, strlen(text));
    return copy;
}

static db_config_t *config_with(fixture_t *fx, const char *path, uint64_t version) {
    db_config_t *config = db_config_new(path);
    if (config) {
        REQUIRE_OK(db_config_set_schema(config, fx->schema));
        REQUIRE_OK(db_config_set_schema_version(config, version));
    }
    return config;
}

#define MUTATOR(name, body) \
    static void name(fixture_t *fx, sw_arg_t *a, const sw_variant_t *v) { (void)fx; (void)a; (void)v; body; }
#define VALUE0 (*(db_value_t *)a->p)
MUTATOR(m_null, memset(a, 0, sizeof *a))
MUTATOR(m_text, a->p = (void *)text_of(v))
MUTATOR(m_paths_text, ((const char **)a->p)[0] = text_of(v))
MUTATOR(m_sort_path, ((db_sort_path_t *)a->p)[0].key_path = text_of(v))
MUTATOR(m_prop_key, ((db_property_key_t *)a->p)[0] = (db_property_key_t)v->number)
MUTATOR(m_sort_key, ((db_sort_key_t *)a->p)[0].property_key = (db_property_key_t)v->number)
MUTATOR(m_value_type, VALUE0.type = (db_value_type_e)(int)v->number)
MUTATOR(m_value_string, VALUE0 = v_strn(guarded_text(v->text), (size_t)v->number))
MUTATOR(m_value_string_1mb, VALUE0 = v_strn(text_of(v), (size_t)v->number))
MUTATOR(m_value_data, VALUE0 = v_data(guarded_text(v->text), (size_t)v->number))
MUTATOR(m_value_link_class, VALUE0.type = DB_VALUE_LINK; VALUE0.link.class_key = (db_class_key_t)v->number;
        VALUE0.link.object_key = fx->item_key)
MUTATOR(m_value_link_object, VALUE0.type = DB_VALUE_LINK; VALUE0.link.class_key = fx->item;
        VALUE0.link.object_key = (db_object_key_t)v->number)
MUTATOR(m_value_timestamp_ns, VALUE0 = v_ts(0, (int32_t)v->number))
MUTATOR(m_arg_values_null, fx->args[0].values = NULL)
MUTATOR(m_arg_num_values, fx->args[0].num_values = (size_t)v->number)
MUTATOR(m_arg_value_type, fx->arg_value[0].type = (db_value_type_e)(int)v->number)
MUTATOR(m_class_name, fx->classes[0].name = text_of(v))
MUTATOR(m_class_props_null, fx->classes[0].properties = NULL)
MUTATOR(m_class_num_props, fx->classes[0].num_properties = (size_t)v->number)
MUTATOR(m_class_flags, fx->classes[0].flags = (int)v->number)
MUTATOR(m_class_indexes_null, fx->classes[0].indexes = NULL)
MUTATOR(m_class_num_indexes, fx->classes[0].num_indexes = (size_t)v->number)
MUTATOR(m_prop_name, fx->class_props[0].name = text_of(v))
MUTATOR(m_prop_persisted, fx->class_props[0].persisted_name = text_of(v))
MUTATOR(m_prop_type, fx->class_props[0].type = (db_property_type_e)(int)v->number)
MUTATOR(m_prop_collection, fx->class_props[0].collection_type = (db_collection_type_e)(int)v->number)
MUTATOR(m_prop_flags, fx->class_props[0].flags = (int)v->number)
MUTATOR(m_link_target, fx->class_props[2].link_target = text_of(v))
MUTATOR(m_index_props_null, fx->class_indexes[0].properties = NULL)
MUTATOR(m_index_num_props, fx->class_indexes[0].num_properties = (size_t)v->number)
MUTATOR(m_index_prop, fx->index_props[0] = text_of(v))
MUTATOR(m_config_path, a->p = config_with(fx, text_of(v), 1))
MUTATOR(m_config_version, a->p = config_with(fx, "sweep.realm", v->number))

/* Pointers that must not be NULL. */
#define HM_POINTERS                                                                                 \
    (HM(REQUIRED) | HM(OPEN_CONFIG) | HM(NAME) | HM(PATH) | HM(QUERY) | HM(KEY_PATH) | HM(DICT_KEY) | \
     HM(NEW_DICT_KEY) | HM(VALUE) | HM(MATCH) | HM(PROP_KEYS) | HM(SORT_KEYS) | HM(SORT_PATHS) |     \
     HM(KEY_PATHS) | HM(QUERY_ARGS) | HM(CLASS_INFOS))
#define HM_VALUES (HM(VALUE) | HM(MATCH))
#define HM_PATHS (HM(KEY_PATHS) | HM(OBSERVE_PATHS))

static const sw_variant_t variants[] = {
    /* NULL */
    {HM_POINTERS, C_NULL, "NULL", E_FAIL, 0, 0, NULL, m_null},
    {HM(OPTIONAL), C_NULL, "NULL", E_OK, 0, 0, NULL, m_null},
    {HM(OBSERVE_PATHS), C_NULL, "NULL", E_CLEAN, 0, 0, NULL, m_null}, /* NULL: every property */
    {HM_PATHS, C_NULL, "{NULL}", E_FAIL, 0, 0, NULL, m_paths_text},
    {HM(SORT_PATHS), C_NULL, "{.key_path=NULL}", E_FAIL, 0, 0, NULL, m_sort_path},
    {HM_VALUES, C_NULL, "{STRING .data=NULL .size=3}", E_FAIL, 0, 3, NULL, m_value_string},
    {HM_VALUES, C_NULL, "{DATA .data=NULL .size=3}", E_FAIL, 0, 3, NULL, m_value_data},
    {HM(QUERY_ARGS), C_NULL, "{.values=NULL}", E_FAIL, 0, 0, NULL, m_arg_values_null},
    {HM(CLASS_INFOS), C_NULL, "{.name=NULL}", E_FAIL, 0, 0, NULL, m_class_name},
    {HM(CLASS_INFOS), C_NULL, "{.properties=NULL}", E_FAIL, 0, 0, NULL, m_class_props_null},
    {HM(CLASS_INFOS), C_NULL, "{.properties[0].name=NULL}", E_FAIL, 0, 0, NULL, m_prop_name},
    {HM(CLASS_INFOS), C_NULL, "{.properties[2].link_target=NULL}", E_FAIL, 0, 0, NULL, m_link_target},
    {HM(CLASS_INFOS), C_NULL, "{.indexes=NULL}", E_FAIL, 0, 0, NULL, m_class_indexes_null},
    {HM(CLASS_INFOS), C_NULL, "{.indexes[0].properties=NULL}", E_FAIL, 0, 0, NULL, m_index_props_null},
    {HM(CLASS_INFOS), C_NULL, "{.indexes[0].properties[0]=NULL}", E_FAIL, 0, 0, NULL, m_index_prop},

    /* Numbers. Indices past the end fail; starts, limits and capacities may also succeed. */
    {HM(INDEX), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(INDEX), C_NUMBER, "SIZE_MAX", E_FAIL, 0, SIZE_MAX, NULL, NULL},
    {HM(INDEX), C_NUMBER, "1<<60", E_FAIL, 0, 1ULL << 60, NULL, NULL},
    {HM(INDEX), C_NUMBER, "1<<40", E_FAIL, 0, 1ULL << 40, NULL, NULL},
    {HM(MAX_COUNT) | HM(LIMIT), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(START) | HM(MAX_COUNT) | HM(LIMIT), C_NUMBER, "SIZE_MAX", E_CLEAN, 0, SIZE_MAX, NULL, NULL},
    {HM(START) | HM(MAX_COUNT) | HM(LIMIT), C_NUMBER, "1<<60", E_CLEAN, 0, 1ULL << 60, NULL, NULL},
    {HM(START) | HM(MAX_COUNT) | HM(LIMIT), C_NUMBER, "1<<40", E_CLEAN, 0, 1ULL << 40, NULL, NULL},
    /* The length of a real array of one or two elements: 0 may be meaningful; a length no
     * memory can have must be rejected before the array is read. (1<<40 elements could exist:
     * a lie that large is the caller's fault, as for 1000.) */
    {HM(COUNT), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(COUNT), C_NUMBER, "SIZE_MAX", E_FAIL, 0, SIZE_MAX, NULL, NULL},
    {HM(COUNT), C_NUMBER, "1<<60", E_FAIL, 0, 1ULL << 60, NULL, NULL},
    {HM(CLASS_KEY), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(CLASS_KEY), C_NUMBER, "UINT32_MAX", E_FAIL, 0, UINT32_MAX, NULL, NULL},
    {HM(CLASS_KEY), C_NUMBER, "1<<31", E_FAIL, 0, 1ULL << 31, NULL, NULL},
    {HM(KEY), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(KEY), C_NUMBER, "-1", E_FAIL, 0, (uint64_t)-1, NULL, NULL},
    {HM(KEY), C_NUMBER, "INT64_MIN", E_FAIL, 0, (uint64_t)INT64_MIN, NULL, NULL},
    {HM(KEY), C_NUMBER, "INT64_MAX", E_FAIL, 0, (uint64_t)INT64_MAX, NULL, NULL},
    {HM(VERSION), C_NUMBER, "0", E_CLEAN, 0, 0, NULL, NULL},
    {HM(VERSION), C_NUMBER, "UINT64_MAX", E_CLEAN, 0, UINT64_MAX, NULL, NULL},
    {HM(VERSION), C_NUMBER, "1<<60", E_CLEAN, 0, 1ULL << 60, NULL, NULL},
    {HM(VERSION), C_NUMBER, "1<<40", E_CLEAN, 0, 1ULL << 40, NULL, NULL},
    {HM(PROP_KEYS), C_NUMBER, "{-1}", E_FAIL, 0, (uint64_t)-1, NULL, m_prop_key},
    {HM(PROP_KEYS), C_NUMBER, "{INT64_MIN}", E_FAIL, 0, (uint64_t)INT64_MIN, NULL, m_prop_key},
    {HM(PROP_KEYS), C_NUMBER, "{INT64_MAX}", E_FAIL, 0, (uint64_t)INT64_MAX, NULL, m_prop_key},
    {HM(SORT_KEYS), C_NUMBER, "{.property_key=-1}", E_FAIL, 0, (uint64_t)-1, NULL, m_sort_key},
    {HM(SORT_KEYS), C_NUMBER, "{.property_key=INT64_MAX}", E_FAIL, 0, (uint64_t)INT64_MAX, NULL, m_sort_key},
    /* A value that is written must be sound; a value only compared may simply not match. */
    {HM_VALUES, C_NUMBER, "{STRING .size=1<<60}", E_FAIL, HM(MATCH), 1ULL << 60, "ab", m_value_string},
    {HM_VALUES, C_NUMBER, "{STRING .size=SIZE_MAX}", E_FAIL, HM(MATCH), SIZE_MAX, "ab", m_value_string},
    {HM_VALUES, C_NUMBER, "{DATA .size=1<<60}", E_FAIL, HM(MATCH), 1ULL << 60, "ab", m_value_data},
    {HM_VALUES, C_NUMBER, "{LINK .class_key=UINT32_MAX}", E_FAIL, HM(MATCH), UINT32_MAX, NULL, m_value_link_class},
    {HM_VALUES, C_NUMBER, "{LINK .object_key=INT64_MAX}", E_FAIL, HM(MATCH), INT64_MAX, NULL, m_value_link_object},
    {HM_VALUES, C_NUMBER, "{TIMESTAMP .nanoseconds=INT32_MAX}", E_FAIL, HM(MATCH), INT32_MAX, NULL, m_value_timestamp_ns},
    {HM(QUERY_ARGS), C_NUMBER, "{.num_values=0}", E_FAIL, 0, 0, NULL, m_arg_num_values},
    {HM(QUERY_ARGS), C_NUMBER, "{.num_values=1<<60}", E_FAIL, 0, 1ULL << 60, NULL, m_arg_num_values},
    {HM(QUERY_ARGS), C_NUMBER, "{.num_values=SIZE_MAX}", E_FAIL, 0, SIZE_MAX, NULL, m_arg_num_values},
    {HM(CLASS_INFOS), C_NUMBER, "{.num_properties=0}", E_CLEAN, 0, 0, NULL, m_class_num_props},
    {HM(CLASS_INFOS), C_NUMBER, "{.num_properties=1<<60}", E_FAIL, 0, 1ULL << 60, NULL, m_class_num_props},
    {HM(CLASS_INFOS), C_NUMBER, "{.num_properties=SIZE_MAX}", E_FAIL, 0, SIZE_MAX, NULL, m_class_num_props},
    {HM(CLASS_INFOS), C_NUMBER, "{.num_indexes=1<<60}", E_FAIL, 0, 1ULL << 60, NULL, m_class_num_indexes},
    {HM(CLASS_INFOS), C_NUMBER, "{.indexes[0].num_properties=1<<60}", E_FAIL, 0, 1ULL << 60, NULL, m_index_num_props},
    {HM(OPEN_CONFIG), C_NUMBER, "{.schema_version=0}", E_FAIL, 0, 0, NULL, m_config_version}, /* below the file's */
    {HM(OPEN_CONFIG), C_NUMBER, "{.schema_version=UINT64_MAX}", E_CLEAN, 0, UINT64_MAX, NULL, m_config_version},

    /* Enums */
    {HM(ENUM), C_ENUM, "999", E_FAIL, 0, 999, NULL, NULL},
    {HM(ENUM), C_ENUM, "-1", E_FAIL, 0, (uint64_t)-1, NULL, NULL},
    {HM(STATUS_CODE), C_ENUM, "999", E_CLEAN, 0, 999, NULL, NULL}, /* "unknown status" */
    {HM(STATUS_CODE), C_ENUM, "-1", E_CLEAN, 0, (uint64_t)-1, NULL, NULL},
    {HM_VALUES, C_ENUM, "{.type=999}", E_FAIL, 0, 999, NULL, m_value_type},
    {HM_VALUES, C_ENUM, "{.type=-1}", E_FAIL, 0, (uint64_t)-1, NULL, m_value_type},
    {HM(QUERY_ARGS), C_ENUM, "{.values[0].type=999}", E_FAIL, 0, 999, NULL, m_arg_value_type},
    {HM(CLASS_INFOS), C_ENUM, "{.properties[0].type=999}", E_FAIL, 0, 999, NULL, m_prop_type},
    {HM(CLASS_INFOS), C_ENUM, "{.properties[0].type=0}", E_FAIL, 0, 0, NULL, m_prop_type},
    {HM(CLASS_INFOS), C_ENUM, "{.properties[0].collection_type=999}", E_FAIL, 0, 999, NULL, m_prop_collection},
    {HM(CLASS_INFOS), C_ENUM, "{.properties[0].flags=1024}", E_FAIL, 0, 1024, NULL, m_prop_flags},
    {HM(CLASS_INFOS), C_ENUM, "{.flags=1024}", E_FAIL, 0, 1024, NULL, m_class_flags},

    /* Strings */
    {HM(NAME) | HM(KEY_PATH) | HM(QUERY) | HM(NEW_DICT_KEY), C_STRING, "invalid UTF-8", E_FAIL, 0, 0, BAD_UTF8, m_text},
    {HM(PATH) | HM(DICT_KEY), C_STRING, "invalid UTF-8", E_CLEAN, 0, 0, BAD_UTF8, m_text},
    {HM(NAME) | HM(KEY_PATH), C_STRING, "\"\"", E_FAIL, 0, 0, "", m_text},
    {HM(PATH) | HM(QUERY) | HM(DICT_KEY) | HM(NEW_DICT_KEY), C_STRING, "\"\"", E_CLEAN, 0, 0, "", m_text},
    {HM(NAME) | HM(KEY_PATH) | HM(QUERY), C_STRING, "1 MB", E_FAIL, 0, MB, "x", m_text},
    {HM(PATH) | HM(DICT_KEY) | HM(NEW_DICT_KEY), C_STRING, "1 MB", E_CLEAN, 0, MB, "x", m_text},
    {HM(QUERY), C_STRING, "1 MB of '('", E_FAIL, 0, MB, "(", m_text},
    {HM(NEW_DICT_KEY), C_STRING, "\"a.b\"", E_FAIL, 0, 0, "a.b", m_text},
    {HM(NEW_DICT_KEY), C_STRING, "\"$x\"", E_FAIL, 0, 0, "$x", m_text},
    {HM_PATHS, C_STRING, "{invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_paths_text},
    {HM_PATHS, C_STRING, "{\"\"}", E_FAIL, 0, 0, "", m_paths_text},
    {HM_PATHS, C_STRING, "{1 MB}", E_FAIL, 0, MB, "x", m_paths_text},
    {HM(SORT_PATHS), C_STRING, "{.key_path=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_sort_path},
    {HM(SORT_PATHS), C_STRING, "{.key_path=\"\"}", E_FAIL, 0, 0, "", m_sort_path},
    {HM(SORT_PATHS), C_STRING, "{.key_path=1 MB}", E_FAIL, 0, MB, "x", m_sort_path},
    {HM_VALUES, C_STRING, "{STRING invalid UTF-8}", E_CLEAN, 0, 2, BAD_UTF8, m_value_string},
    {HM_VALUES, C_STRING, "{STRING 1 MB}", E_CLEAN, 0, MB, "x", m_value_string_1mb},
    {HM(CLASS_INFOS), C_STRING, "{.name=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_class_name},
    {HM(CLASS_INFOS), C_STRING, "{.name=\"\"}", E_FAIL, 0, 0, "", m_class_name},
    {HM(CLASS_INFOS), C_STRING, "{.name=1 MB}", E_CLEAN, 0, MB, "x", m_class_name},
    {HM(CLASS_INFOS), C_STRING, "{.properties[0].name=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_prop_name},
    {HM(CLASS_INFOS), C_STRING, "{.properties[0].name=\"\"}", E_FAIL, 0, 0, "", m_prop_name},
    {HM(CLASS_INFOS), C_STRING, "{.properties[0].name=1 MB}", E_CLEAN, 0, MB, "x", m_prop_name},
    {HM(CLASS_INFOS), C_STRING, "{.properties[0].persisted_name=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_prop_persisted},
    {HM(CLASS_INFOS), C_STRING, "{.properties[2].link_target=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_link_target},
    {HM(CLASS_INFOS), C_STRING, "{.properties[2].link_target=\"\"}", E_FAIL, 0, 0, "", m_link_target},
    {HM(CLASS_INFOS), C_STRING, "{.indexes[0].properties[0]=invalid UTF-8}", E_FAIL, 0, 0, BAD_UTF8, m_index_prop},
    {HM(OPEN_CONFIG), C_STRING, "{.path=invalid UTF-8}", E_CLEAN, 0, 0, BAD_UTF8, m_config_path},
    {HM(OPEN_CONFIG), C_STRING, "{.path=\"\"}", E_FAIL, 0, 0, "", m_config_path},
    {HM(OPEN_CONFIG), C_STRING, "{.path=1 MB}", E_FAIL, 0, MB, "x", m_config_path},
    {HM(OPEN_CONFIG), C_STRING, "{.path=\"no/such/dir/x.realm\"}", E_FAIL, 0, 0, "no/such/dir/x.realm", m_config_path},
};

/* ---- cases -------------------------------------------------------------------------------- */

typedef struct sw_case {
    const sw_fn_t *fn;
    int param;                 /* the hostile parameter; -1 for C_VALID and C_CLOSED */
    const sw_variant_t *variant;
    char label[256];           /* "db_list_get(index=SIZE_MAX)" */
} sw_case_t;

static size_t num_params(const sw_fn_t *fn) {
    size_t n = 0;
    while (fn->params[n].kind != K_END) n++;
    return n;
}

static bool is_callback_handle(sw_kind_t kind) {
    return kind == K_MIGRATION || kind == K_COLL_CHANGE || kind == K_OBJ_CHANGE || kind == K_SECT_CHANGE;
}

/* Handles that belong to the fixture's realm: closing it must invalidate them. */
static bool is_realm_handle(sw_kind_t kind) {
    return kind >= K_REALM && kind <= K_TOKEN;
}

/* The position of a parameter that only exists during a callback, or -1. */
static int callback_param(const sw_fn_t *fn) {
    size_t i;
    for (i = 0; i < num_params(fn); i++)
        if (is_callback_handle(fn->params[i].kind)) return (int)i;
    return -1;
}

static bool has_closed_case(const sw_fn_t *fn) {
    size_t i;
    bool realm = false;
    if (callback_param(fn) >= 0) return false;
    for (i = 0; i < num_params(fn); i++) realm = realm || is_realm_handle(fn->params[i].kind);
    return realm;
}

/* The index-th case of a category, in a fixed order (parent and child agree on it). */
static bool case_at(sw_category_t category, size_t index, sw_case_t *out) {
    size_t f, p, v, n = 0;
    for (f = 0; f < FX_COUNT(functions); f++) {
        const sw_fn_t *fn = &functions[f];
        if (category == C_VALID || category == C_CLOSED || category == C_THREAD) {
            if (category == C_CLOSED && !has_closed_case(fn)) continue;
            if (n++ != index) continue;
            out->fn = fn;
            out->param = -1;
            out->variant = NULL;
            snprintf(out->label, sizeof out->label, "%s(%s)", fn->name,
                     category == C_CLOSED ? "closed realm" : category == C_THREAD ? "wrong thread" : "valid");
            return true;
        }
        for (p = 0; p < num_params(fn); p++) {
            uint64_t mask = 1ULL << kinds[fn->params[p].kind].hostility;
            for (v = 0; v < FX_COUNT(variants); v++) {
                if (variants[v].category != category || !(variants[v].classes & mask)) continue;
                if (n++ != index) continue;
                out->fn = fn;
                out->param = (int)p;
                out->variant = &variants[v];
                snprintf(out->label, sizeof out->label, "%s(%s=%s)", fn->name, fn->params[p].name, variants[v].label);
                return true;
            }
        }
    }
    return false;
}

/* ---- one case, in the child --------------------------------------------------------------- */

static struct {
    const sw_case_t *c;
    sw_arg_t args[SW_MAX_PARAMS];
    int context_param;
    bool called;
    sw_result_t result;
    harness_error_t error;
    bool wrong_thread_probe; /* C_THREAD: the call is made in a fork child and on another thread */
    int fork_code, fork_signal, thread_code;
} sw_run;

/* The row's call on a thread of its own: the last error it leaves is that thread's. */
static void *call_on_thread(void *unused) {
    (void)unused;
    db_clear_last_error();
    sw_run.c->fn->call(sw_run.args, &sw_run.result);
    sw_run.thread_code = harness_last_error().code;
    return NULL;
}

/* C_THREAD: the row's call, with every argument valid, first in a fork child of the process
 * that made the handles (which sees its own copy of them, so this process's are untouched), then
 * on another thread than the one that made them. Records the last error each left. */
static void probe_wrong_thread(void) {
    int fds[2], status = 0, code = -1;
    pthread_t thread;
    pid_t pid;
    REQUIRE(pipe(fds) == 0);
    fflush(NULL);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        alarm(10);
        close(fds[0]);
        db_clear_last_error();
        sw_run.c->fn->call(sw_run.args, &sw_run.result);
        code = harness_last_error().code;
        if (write(fds[1], &code, sizeof code) != (ssize_t)sizeof code) _exit(2);
        _exit(0);
    }
    close(fds[1]);
    if (read(fds[0], &code, sizeof code) != (ssize_t)sizeof code) code = -1;
    close(fds[0]);
    REQUIRE(waitpid(pid, &status, 0) == pid);
    sw_run.fork_code = code;
    sw_run.fork_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    REQUIRE(pthread_create(&thread, NULL, call_on_thread, NULL) == 0);
    REQUIRE(pthread_join(thread, NULL) == 0);
}

static void make_the_call(void *context) {
    if (sw_run.context_param >= 0 && sw_run.context_param != sw_run.c->param)
        sw_run.args[sw_run.context_param].p = context;
    memset(&sw_run.result, 0, sizeof sw_run.result);
    if (sw_run.wrong_thread_probe) {
        probe_wrong_thread();
        sw_run.called = true;
        return;
    }
    SW_LSAN_ENABLE();
    sw_run.c->fn->call(sw_run.args, &sw_run.result);
    SW_LSAN_DISABLE();
    sw_run.error = harness_last_error();
    sw_run.called = true;
}

static bool in_migration(void *userdata, db_migration_t *migration, uint64_t old_version) {
    (void)userdata; (void)old_version;
    make_the_call(migration);
    return true;
}
static void in_collection_change(void *userdata, const db_collection_change_t *change) {
    (void)userdata;
    if (!sw_run.called) make_the_call((void *)change);
}
static void in_object_change(void *userdata, const db_object_change_t *change) {
    (void)userdata;
    if (!sw_run.called) make_the_call((void *)change);
}
static void in_sectioned_change(void *userdata, const db_sectioned_change_t *change) {
    (void)userdata;
    if (!sw_run.called) make_the_call((void *)change);
}

/* Opens "migrate.realm" at version 1, then at version 2 with the call as the migration. */
static void call_in_migration(void) {
    db_schema_t *old_schema = item_schema(old_item_props, FX_COUNT(old_item_props), false);
    db_schema_t *new_schema = item_schema(new_item_props, FX_COUNT(new_item_props), false);
    db_realm_t *realm = fx_open_with("migrate.realm", old_schema, 1);
    db_property_key_t legacy = fx_prop_key(realm, "Item", "legacy");
    db_value_t five = v_int(5);
    db_config_t *config = fx_config("migrate.realm", new_schema, 2);
    REQUIRE_OK(db_realm_begin_write(realm));
    db_object_release((db_object_t *)REQUIRE_PTR(db_object_create(realm, fx_class_key(realm, "Item"), &legacy, &five, 1, DB_UPSERT_NONE)));
    REQUIRE_OK(db_realm_commit(realm));
    db_realm_release(realm);
    REQUIRE_OK(db_config_set_migration_function(config, in_migration, NULL, NULL));
    db_realm_release(db_realm_open(config));
}

/* Makes the call, inside the callback that lends its handle when there is one. */
static void call_in_context(fixture_t *fx) {
    sw_kind_t kind = sw_run.context_param >= 0 ? sw_run.c->fn->params[sw_run.context_param].kind : K_END;
    db_value_t five = v_int(5);
    switch (kind) {
    case K_MIGRATION: call_in_migration(); break;
    case K_COLL_CHANGE:
        REQUIRE_PTR(db_results_observe(fx->results, NULL, 0, in_collection_change, NULL, NULL));
        REQUIRE_OK(db_realm_deliver_notifications(fx->realm));
        break;
    case K_SECT_CHANGE:
        REQUIRE_PTR(db_sectioned_results_observe(fx->sectioned, NULL, 0, in_sectioned_change, NULL, NULL));
        REQUIRE_OK(db_realm_deliver_notifications(fx->realm));
        break;
    case K_OBJ_CHANGE:
        REQUIRE_PTR(db_object_observe(fx->object, NULL, 0, in_object_change, NULL, NULL));
        REQUIRE_OK(db_realm_begin_write(fx->realm));
        REQUIRE_OK(db_object_set_value(fx->object, fx->num, &five));
        REQUIRE_OK(db_realm_commit(fx->realm)); /* delivers */
        break;
    default: make_the_call(NULL); break;
    }
}

static const char *expect_name(sw_expect_t e) {
    return e == E_FAIL ? "an error" : e == E_OK ? "success" : "success or an error";
}

/* C_THREAD: a row flagged F_WRONG_THREAD (its documentation names DB_ERR_WRONG_THREAD) must fail
 * with it in a fork child or on another thread; any other row must fail with it in neither. */
static bool judge_wrong_thread(const sw_case_t *c) {
    bool seen = sw_run.fork_code == DB_ERR_WRONG_THREAD || sw_run.thread_code == DB_ERR_WRONG_THREAD;
    bool flagged = (c->fn->flags & F_WRONG_THREAD) != 0;
    if (getenv("REALMDB_SWEEP_VERBOSE"))
        fprintf(stderr, "    %s: fork child: %s, other thread: %s\n", c->label, harness_status_name(sw_run.fork_code),
                harness_status_name(sw_run.thread_code));
    if (sw_run.fork_signal) {
        fprintf(stderr, "    %s: the fork child's call ended with signal %d\n", c->label, sw_run.fork_signal);
        return false;
    }
    if (seen == flagged) return true;
    fprintf(stderr, "    %s: %s DB_ERR_WRONG_THREAD (fork child: %s, other thread: %s), but the row %s F_WRONG_THREAD\n",
            c->label, seen ? "returned" : "never returned", harness_status_name(sw_run.fork_code),
            harness_status_name(sw_run.thread_code), flagged ? "has" : "lacks");
    return false;
}

/* Checks the call's outcome; prints why and returns false when it is wrong. */
static bool judge(const sw_case_t *c, sw_category_t category) {
    const sw_result_t *r = &sw_run.result;
    const harness_error_t *e = &sw_run.error;
    sw_ret_t ret = c->fn->ret;
    sw_expect_t expect = category == C_VALID ? E_OK : category == C_CLOSED ? E_FAIL : c->variant->expect;
    bool failed = false, predicate = ret == R_FALSE || ret == R_TRUE || ret == R_ZERO;
    char got[128];
    if (category == C_CLOSED && (c->fn->flags & F_CLOSED_OK)) expect = E_CLEAN;
    if (c->variant && (c->variant->clean_for & (1ULL << kinds[c->fn->params[c->param].kind].hostility))) expect = E_CLEAN;
    switch (ret) {
    case R_STATUS: failed = r->status != DB_OK; snprintf(got, sizeof got, "%s", harness_status_name(r->status)); break;
    case R_PTR: case R_STR: failed = r->ptr == NULL; snprintf(got, sizeof got, "%s", r->ptr ? "a pointer" : "NULL"); break;
    case R_PTR_OR_NONE: /* valid arguments name objects that exist */
        failed = r->ptr == NULL && (e->code != DB_OK || category == C_VALID);
        snprintf(got, sizeof got, "%s", r->ptr ? "a pointer" : failed ? "NULL" : "NULL with DB_OK (none)");
        break;
    case R_FALSE: case R_TRUE: failed = r->b == (ret == R_TRUE); snprintf(got, sizeof got, "%s", r->b ? "true" : "false"); break;
    case R_ZERO: failed = r->z == 0; snprintf(got, sizeof got, "%zu", r->z); break;
    case R_VOID: case R_ANY: return true;
    }
    if (ret == R_STR) {
        if (!failed) return true;
        fprintf(stderr, "    %s: returned NULL, expected a string\n", c->label);
        return false;
    }
    if (predicate && category == C_VALID) failed = e->code != DB_OK; /* any answer is right */
    if (getenv("REALMDB_SWEEP_VERBOSE"))
        fprintf(stderr, "    %s: returned %s, last error %s \"%s\"\n", c->label, got, harness_status_name(e->code), e->message);
    if ((expect == E_FAIL && !failed) || (expect == E_OK && failed)) {
        fprintf(stderr, "    %s: returned %s, expected %s\n", c->label, got, expect_name(expect));
        if (failed) fprintf(stderr, "      last error: %s \"%s\"\n", harness_status_name(e->code), e->message);
        return false;
    }
    if (!failed || (predicate && category == C_CLOSED)) return true;
    if (!e->present || e->code == DB_OK || e->message[0] == '\0' || (ret == R_STATUS && e->code != (int)r->status)) {
        fprintf(stderr, "    %s: returned %s, but the last error is %s \"%s\"%s\n", c->label, got,
                harness_status_name(e->code), e->message, e->message[0] ? "" : " (no message)");
        return false;
    }
    if (category == C_CLOSED && e->code != DB_ERR_CLOSED_REALM && e->code != DB_ERR_INVALIDATED) {
        fprintf(stderr, "    %s: failed with %s \"%s\", expected DB_ERR_CLOSED_REALM or DB_ERR_INVALIDATED\n", c->label,
                harness_status_name(e->code), e->message);
        return false;
    }
    return true;
}

static void set_number(sw_arg_t *a, sw_field_t field, uint64_t number) {
    switch (field) {
    case F_z: a->z = (size_t)number; break;
    case F_u: a->u = number; break;
    case F_i: a->i = (int64_t)number; break;
    case F_ck: a->ck = (db_class_key_t)number; break;
    case F_e: a->e = (int)number; break;
    default: REQUIRE(!"a number for a parameter that is not a number");
    }
}

/* The child's work: a fresh fixture in its own directory, one call, exit 0 if right, else 1. */
static void run_case(sw_category_t category, size_t index) {
    static fixture_t fx;
    static sw_case_t c;
    char dir[4096];
    size_t i;
    const char *base = getenv("REALMDB_SWEEP_DIR");
    REQUIRE(case_at(category, index, &c));
    snprintf(dir, sizeof dir, "%s/%zu", base ? base : ".", index);
    REQUIRE(mkdir(dir, 0700) == 0 && chdir(dir) == 0);
    alarm(10); /* a hang is reported as SIGALRM */
    SW_LSAN_DISABLE(); /* on during the call only (make_the_call) */
    fixture_open(&fx);
    sw_run.c = &c;
    sw_run.wrong_thread_probe = category == C_THREAD;
    sw_run.context_param = callback_param(c.fn);
    for (i = 0; i < num_params(c.fn); i++) sw_run.args[i] = valid_arg(&fx, c.fn->params[i].kind, (int)i);
    if (c.variant && c.variant->mutate) c.variant->mutate(&fx, &sw_run.args[c.param], c.variant);
    else if (c.variant) set_number(&sw_run.args[c.param], kinds[c.fn->params[c.param].kind].field, c.variant->number);
    if (c.fn->flags & F_WRITE) REQUIRE_OK(db_realm_begin_write(fx.realm));
    if (c.fn->flags & F_SAVEPOINT) REQUIRE_OK(db_realm_begin_savepoint(fx.realm));
    if (category == C_CLOSED) {
        REQUIRE_OK(db_realm_close(fx.frozen_realm));
        REQUIRE_OK(db_realm_close(fx.realm));
    }
    call_in_context(&fx);
    if (!sw_run.called) {
        fprintf(stderr, "    %s: the callback that makes the call never ran\n", c.label);
        _exit(1);
    }
    if (category == C_THREAD) _exit(judge_wrong_thread(&c) ? 0 : 1);
    if (!judge(&c, category)) _exit(1);
#ifdef SW_ASAN
    /* The migration's realm is borrowed: the one returned pointer that is not the caller's. */
    if (sw_run.result.ptr && sw_run.result.release && strcmp(c.fn->name, "db_migration_get_realm") != 0)
        sw_run.result.release((void *)sw_run.result.ptr);
    if (__lsan_do_recoverable_leak_check()) {
        fprintf(stderr, "    %s: leaked memory (LeakSanitizer's report above)\n", c.label);
        _exit(1);
    }
#endif
    _exit(0);
}

/* ---- the parent: one child per case ------------------------------------------------------- */

static const char *signal_name(int sig) {
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGTRAP, "SIGTRAP"}, {SIGALRM, "SIGALRM (hung for 10 s)"}, {SIGKILL, "SIGKILL"},
    };
    size_t i;
    for (i = 0; i < FX_COUNT(names); i++)
        if (names[i].sig == sig) return names[i].name;
    return "a signal";
}

static bool is_known_crash(const char *label) {
    size_t i;
    for (i = 0; i < FX_COUNT(known_crashes); i++)
        if (known_crashes[i] && strcmp(known_crashes[i], label) == 0) return true;
    return false;
}

/* Runs case `index` in a child (this binary, exec'd); returns its wait status. */
static int run_child(const char *self, const char *dir, size_t index) {
    char number[32];
    int status = 0;
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        char *argv[3];
        if (devnull >= 0) dup2(devnull, STDOUT_FILENO); /* the harness's own lines */
        setenv("SWIFT_BACKTRACE", "enable=no", 0);     /* a crash prints its one-line reason */
        snprintf(number, sizeof number, "%zu", index);
        setenv("REALMDB_SWEEP_CASE", number, 1);
        setenv("REALMDB_SWEEP_DIR", dir, 1);
        argv[0] = (char *)self;
        argv[1] = (char *)harness_current;
        argv[2] = NULL;
        execv(self, argv);
        _exit(127);
    }
    REQUIRE(pid > 0);
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return status;
}

static void sweep(sw_category_t category) {
    const char *case_env = getenv("REALMDB_SWEEP_CASE");
    const char *only = getenv("REALMDB_SWEEP_ONLY");
    const char *strict = getenv("REALMDB_SWEEP_STRICT");
    bool is_strict = strict && strcmp(strict, "1") == 0;
    char self[4096];
    const char *dir;
    sw_case_t c;
    size_t index, ran = 0, known = 0, failed = 0;
    ssize_t n;
    if (case_env) run_case(category, (size_t)strtoull(case_env, NULL, 10));
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    REQUIRE(n > 0);
    self[n] = '\0';
    dir = harness_tmpdir();
    for (index = 0; case_at(category, index, &c); index++) {
        int status;
        bool known_crash = is_known_crash(c.label);
        if (only && !strstr(c.label, only)) continue;
        ran++;
        status = run_child(self, dir, index);
        harness_checks++;
        if (WIFSIGNALED(status) && known_crash && !is_strict) {
            printf("KNOWN CRASH: %s: %s\n", c.label, signal_name(WTERMSIG(status)));
            known++;
        } else if (WIFSIGNALED(status)) {
            harness_fail(__FILE__, __LINE__, "CRASH: %s: %s%s", c.label, signal_name(WTERMSIG(status)),
                         known_crash ? " (a known crash; REALMDB_SWEEP_STRICT=1)" : "");
            failed++;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            harness_fail(__FILE__, __LINE__, "%s: the child did not start (exit 127: exec, or loading libdb.so, failed)",
                         c.label);
            failed++;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            harness_fail(__FILE__, __LINE__, "%s: wrong result (exit %d; see above)", c.label,
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            failed++;
        } else if (known_crash) {
            harness_fail(__FILE__, __LINE__, "%s passes now: remove it from known_crashes", c.label);
            failed++;
        }
    }
    printf("%s: %zu cases, %zu known crashes, %zu failed\n", harness_current, ran, known, failed);
}

/* A db_*_is_valid function. */
static bool is_validity_function(const sw_fn_t *fn) {
    size_t len = strlen(fn->name);
    return len >= 9 && strcmp(fn->name + len - 9, "_is_valid") == 0;
}

/* What validity function `fn` says of `handle` (the result starts as the opposite of what is expected). */
static bool call_validity_function(const sw_fn_t *fn, sw_arg_t handle, bool expected) {
    sw_result_t r;
    memset(&r, 0, sizeof r);
    r.b = !expected;
    fn->call(&handle, &r);
    return r.b;
}

/* Every db_*_is_valid: true for the fixture's handle, false for NULL, false once the handle's
 * realm is released (the handles themselves still allocated), and a token's once invalidated. */
TEST(validity) {
    static fixture_t fx;
    size_t f, n = 0;
    char cwd[4096];
    REQUIRE(getcwd(cwd, sizeof cwd) != NULL);
    REQUIRE(chdir(harness_tmpdir()) == 0);
    fixture_open(&fx);
    for (f = 0; f < FX_COUNT(functions); f++) {
        const sw_fn_t *fn = &functions[f];
        sw_arg_t a;
        if (!is_validity_function(fn)) continue;
        CHECK(fn->ret == R_FALSE && num_params(fn) == 1 && is_realm_handle(fn->params[0].kind));
        n++;
        a = valid_arg(&fx, fn->params[0].kind, 0);
        if (!call_validity_function(fn, a, true)) harness_fail(__FILE__, __LINE__, "%s(valid handle) returned false", fn->name);
        a.p = NULL;
        if (call_validity_function(fn, a, false)) harness_fail(__FILE__, __LINE__, "%s(NULL) returned true", fn->name);
    }
    CHECK(n >= 10); /* realm, object, results, list, set, dictionary, sectioned results, token, writer, creator, reader */
    {
        db_notification_token_t *other = (db_notification_token_t *)REQUIRE_PTR(
            db_results_observe(fx.results, NULL, 0, noop_collection, NULL, NULL));
        CHECK(db_notification_token_is_valid(other));
        REQUIRE_OK(db_notification_token_invalidate(other));
        CHECK(!db_notification_token_is_valid(other));
        db_notification_token_release(other);
    }
    db_realm_release(fx.frozen_realm);
    db_realm_release(fx.realm);
    for (f = 0; f < FX_COUNT(functions); f++) {
        const sw_fn_t *fn = &functions[f];
        if (!is_validity_function(fn)) continue;
        if (fn->params[0].kind == K_REALM) continue; /* released itself: nothing left to ask */
        if (call_validity_function(fn, valid_arg(&fx, fn->params[0].kind, 0), false))
            harness_fail(__FILE__, __LINE__, "%s returned true after its realm was released", fn->name);
    }
    /* The handles outlive their realm: release them now (this test runs in the harness process,
     * which valgrind's memcheck stage checks for leaks). */
    db_notification_token_release(fx.token);
    db_property_writer_release(fx.writer);
    db_object_creator_release(fx.creator);
    db_object_reader_release(fx.reader);
    db_object_reader_release(fx.pk_reader);
    db_sectioned_results_release(fx.sectioned);
    db_sectioned_results_release(fx.frozen_sectioned);
    db_dictionary_release(fx.dict_handle);
    db_dictionary_release(fx.obj_dict);
    db_dictionary_release(fx.emb_dict);
    db_dictionary_release(fx.frozen_dict);
    db_set_release(fx.set_handle);
    db_set_release(fx.obj_set);
    db_set_release(fx.frozen_set);
    db_list_release(fx.list);
    db_list_release(fx.obj_list);
    db_list_release(fx.emb_list);
    db_list_release(fx.frozen_list);
    db_results_release(fx.results);
    db_results_release(fx.frozen_results);
    db_object_release(fx.object);
    db_object_release(fx.frozen_object);
    REQUIRE(chdir(cwd) == 0);
}

TEST(valid_calls) { sweep(C_VALID); }
TEST(null_pointers) { sweep(C_NULL); }
TEST(hostile_numbers) { sweep(C_NUMBER); }
TEST(bad_enums) { sweep(C_ENUM); }
TEST(hostile_strings) { sweep(C_STRING); }
TEST(closed_realm) { sweep(C_CLOSED); }
TEST(wrong_thread) { sweep(C_THREAD); }

HARNESS_MAIN("api_sweep",
    HARNESS_ENTRY(valid_calls),
    HARNESS_ENTRY(null_pointers),
    HARNESS_ENTRY(hostile_numbers),
    HARNESS_ENTRY(bad_enums),
    HARNESS_ENTRY(hostile_strings),
    HARNESS_ENTRY(closed_realm),
    HARNESS_ENTRY(wrong_thread),
    HARNESS_ENTRY(validity))
