/*
 * lmdb_guard.h: LMDB calls that a damaged file cannot turn into a dead process.
 *
 * LMDB trusts the pages of its file. A damaged page can make it fail an assertion (which
 * aborts), follow a pointer off the map (SIGSEGV), read a mapped page past the end of a
 * truncated file (SIGBUS), or divide by a damaged size (SIGFPE). Each realmdb_guarded_* function makes one LMDB call under a guard:
 * such a fault ends the call with REALMDB_GUARD_FAULT, and realmdb_guard_message() says what
 * happened. The values a guarded read returns are probed (one byte per page) inside the guard,
 * so reading them afterwards cannot fault either.
 *
 * A damaged page can also send LMDB round a loop that never ends. A watchdog thread (one per
 * process, started with the first guarded environment) ends a guarded call that has used more
 * than REALMDB_LMDB_CPU_LIMIT seconds of CPU time (default 20) the same way: CPU time, so a
 * commit that waits for a slow disk is never cut short.
 *
 * After a fault the transaction, and its cursors, are in an undefined state: abort them and use
 * nothing read through them. Before it jumps out of LMDB, the guard takes LMDB's own temporary
 * cursors (in the frames it leaves) off a write transaction's cursor lists, so that the abort
 * does not free them (see lmdb_guard.c). Faults outside a guarded call go to the handlers that
 * were installed before (the process still crashes on its own bugs).
 */
#ifndef REALMDB_LMDB_GUARD_H
#define REALMDB_LMDB_GUARD_H

#include <stddef.h>
#include <lmdb.h>

/* Outside LMDB's own error codes (MDB_KEYEXIST -30799 .. MDB_LAST_ERRCODE). */
#define REALMDB_GUARD_FAULT (-30600)

/* Installs the SIGSEGV, SIGBUS and SIGFPE handlers (once per process) and routes `env`'s assertion
 * failures to the guard. Call after mdb_env_create. */
void realmdb_guard_env(MDB_env *env);

/* Registers the watchdog's fork handlers (once per process). The engine calls it before it
 * registers its own (ProcessFork), so that at a fork the engine's locks are taken before the
 * watchdog's thread list: the order a thread holding one of them while registering with the
 * watchdog (its first guarded call) takes them in. The other order deadlocked a fork. */
void realmdb_guard_install_fork_handlers(void);

/* What the last fault on this thread was (an LMDB assertion's text, or the signal). */
const char *realmdb_guard_message(void);

/* The kind of the last fault on this thread. */
typedef enum {
    REALMDB_GUARD_SIGNAL = 1,    /* SIGSEGV, SIGBUS or SIGFPE reading the file's pages */
    REALMDB_GUARD_ASSERTION = 2, /* LMDB's own assertion on a damaged page */
    REALMDB_GUARD_CPU_LIMIT = 3, /* one call ran past the CPU time limit (a loop in damaged pages) */
} realmdb_guard_fault_kind_t;
realmdb_guard_fault_kind_t realmdb_guard_fault_kind(void);

int realmdb_guarded_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data);
int realmdb_guarded_put(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data, unsigned int flags);
int realmdb_guarded_del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data);
int realmdb_guarded_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op);
int realmdb_guarded_cursor_count(MDB_cursor *cursor, size_t *count);
int realmdb_guarded_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi);
int realmdb_guarded_txn_begin(MDB_env *env, MDB_txn *parent, unsigned int flags, MDB_txn **txn);
int realmdb_guarded_txn_renew(MDB_txn *txn);
int realmdb_guarded_txn_commit(MDB_txn *txn);
/* Reads the file's header (a damaged page size once divided by zero in LMDB). */
int realmdb_guarded_env_open(MDB_env *env, const char *path, unsigned int flags, mdb_mode_t mode);
/* Copies the environment's latest version into `fd` (MDB_CP_COMPACT: only pages in use). A fault
 * (a damaged page of the source) returns REALMDB_GUARD_FAULT and leaves LMDB's copy thread and
 * its read transaction behind: callers check the file's length first, so that only damage
 * inside pages, which is rare, can cost that. */
int realmdb_guarded_env_copyfd2(MDB_env *env, int fd, unsigned int flags);
/* Aborting a transaction that faulted may fault again (its pages are damaged): such an abort
 * leaves the transaction's memory behind rather than the process dead. */
void realmdb_guarded_txn_abort(MDB_txn *txn);
void realmdb_guarded_cursor_close(MDB_cursor *cursor);

#endif
