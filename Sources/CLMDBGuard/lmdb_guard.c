/* lmdb_guard.c: see include/lmdb_guard.h. */
#define _GNU_SOURCE
#include "lmdb_guard.h"
#include "lmdb_guard_internal.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The guard of the call in progress on this thread (NULL outside guarded calls). */
static __thread sigjmp_buf *guard_jump;
static __thread char guard_text[400];
static __thread realmdb_guard_fault_kind_t guard_kind;

static struct sigaction previous_segv, previous_bus, previous_fpe, previous_xcpu;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/* Leaves the guarded call: back to its sigsetjmp, which returns REALMDB_GUARD_FAULT. */
static void leave(void) {
    sigjmp_buf *jump = guard_jump;
    guard_jump = NULL;
    siglongjmp(*jump, 1);
}

static void on_fault(int sig, siginfo_t *info, void *context) {
    if (guard_jump) {
        guard_kind = REALMDB_GUARD_SIGNAL;
        snprintf(guard_text, sizeof guard_text, "%s reading the file's pages at address %p",
                 sig == SIGBUS   ? "SIGBUS (a page past the end of the file, or an I/O error)"
                 : sig == SIGFPE ? "SIGFPE (a damaged size in a header)"
                                 : "SIGSEGV (a page pointer off the map)",
                 info ? info->si_addr : NULL);
        /* The handler runs with `sig` blocked; the jump (sigsetjmp without a saved mask, which
         * would cost a system call on every guarded call) does not restore it. */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        leave();
    }
    /* Not ours: hand the fault to whoever handled it before. */
    struct sigaction *previous = sig == SIGBUS ? &previous_bus : sig == SIGFPE ? &previous_fpe : &previous_segv;
    if (previous->sa_flags & SA_SIGINFO) {
        previous->sa_sigaction(sig, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(sig);
    } else {
        /* Back to the default action; returning re-runs the faulting instruction. */
        sigaction(sig, previous, NULL);
    }
}

/* The watchdog found this thread over the CPU limit in one call (lmdb_watchdog.c). */
static void on_cpu_limit(int sig, siginfo_t *info, void *context) {
    struct guard_thread *self = realmdb_guard_thread_record;
    int from_watchdog = info && info->si_code == SI_TKILL && info->si_pid == getpid();
    if (guard_jump && self && from_watchdog &&
        __atomic_load_n(&self->overdue_call, __ATOMIC_ACQUIRE) == __atomic_load_n(&self->call, __ATOMIC_ACQUIRE)) {
        guard_kind = REALMDB_GUARD_CPU_LIMIT;
        snprintf(guard_text, sizeof guard_text,
                 "LMDB spent more than %.0f s of CPU time in one call without finishing (a damaged page that "
                 "leads back into the file's own structure)", realmdb_guard_cpu_limit());
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        leave();
    }
    if (from_watchdog) return;  /* the call it meant has ended meanwhile */
    /* Not ours (a CPU rlimit): whoever handled it before, else its default action. */
    if (previous_xcpu.sa_flags & SA_SIGINFO) {
        previous_xcpu.sa_sigaction(sig, info, context);
    } else if (previous_xcpu.sa_handler != SIG_DFL && previous_xcpu.sa_handler != SIG_IGN) {
        previous_xcpu.sa_handler(sig);
    } else if (previous_xcpu.sa_handler == SIG_DFL) {
        sigaction(sig, &previous_xcpu, NULL);
        raise(sig);
    }
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
    sigaction(SIGFPE, &action, &previous_fpe);
    action.sa_sigaction = on_cpu_limit;
    sigaction(SIGXCPU, &action, &previous_xcpu);
}

/* LMDB calls this for a failed assertion, then aborts unless it does not return. */
static void on_assert(MDB_env *env, const char *message) {
    (void)env;
    if (guard_jump) {
        guard_kind = REALMDB_GUARD_ASSERTION;
        snprintf(guard_text, sizeof guard_text, "LMDB found a damaged page: %s", message);
        leave();
    }
}

void realmdb_guard_env(MDB_env *env) {
    pthread_once(&install_once, install);
    realmdb_guard_start_watchdog();
    mdb_env_set_assert(env, on_assert);
}

/* Marks this thread as inside (odd) or outside (even) a guarded call, for the watchdog. */
static inline struct guard_thread *enter_call(void) {
    struct guard_thread *self = realmdb_guard_thread_record;
    if (!self) self = realmdb_guard_this_thread();
    if (self) __atomic_store_n(&self->call, self->call + 1, __ATOMIC_RELEASE);
    return self;
}

static inline void leave_call(struct guard_thread *self) {
    if (self) __atomic_store_n(&self->call, self->call + 1, __ATOMIC_RELEASE);
}

const char *realmdb_guard_message(void) { return guard_text; }

realmdb_guard_fault_kind_t realmdb_guard_fault_kind(void) { return guard_kind; }

/* Reads one byte of every page of a value, and its last, so that reading it later cannot fault. */
static void probe(const MDB_val *value) {
    const volatile unsigned char *bytes = value->mv_data;
    size_t i;
    if (!bytes || value->mv_size == 0) return;
    for (i = 0; i < value->mv_size; i += 4096) (void)bytes[i];
    (void)bytes[value->mv_size - 1];
}

/* GUARDED(call, probes): runs `call` under the guard (and the watchdog's eye, when not nested
 * in another guarded call); probes the values it returned. */
#define GUARDED(call, probes)                                          \
    do {                                                               \
        sigjmp_buf jump;                                               \
        sigjmp_buf *outer = guard_jump;                                \
        struct guard_thread *volatile watched = NULL;                  \
        int rc;                                                        \
        if (sigsetjmp(jump, 0)) {                                      \
            leave_call(watched);                                       \
            guard_jump = outer;                                        \
            return REALMDB_GUARD_FAULT;                                \
        }                                                              \
        if (!outer) watched = enter_call();                            \
        guard_jump = &jump;                                            \
        rc = (call);                                                   \
        if (rc == MDB_SUCCESS) { probes; }                             \
        guard_jump = outer;                                            \
        leave_call(watched);                                           \
        return rc;                                                     \
    } while (0)

int realmdb_guarded_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) {
    GUARDED(mdb_get(txn, dbi, key, data), probe(data));
}

int realmdb_guarded_put(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data, unsigned int flags) {
    GUARDED(mdb_put(txn, dbi, key, data, flags), (void)0);
}

int realmdb_guarded_del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) {
    GUARDED(mdb_del(txn, dbi, key, data), (void)0);
}

int realmdb_guarded_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op) {
    GUARDED(mdb_cursor_get(cursor, key, data, op), (probe(key), probe(data)));
}

int realmdb_guarded_cursor_count(MDB_cursor *cursor, size_t *count) {
    GUARDED(mdb_cursor_count(cursor, count), (void)0);
}

int realmdb_guarded_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi) {
    GUARDED(mdb_dbi_open(txn, name, flags, dbi), (void)0);
}

int realmdb_guarded_txn_begin(MDB_env *env, MDB_txn *parent, unsigned int flags, MDB_txn **txn) {
    GUARDED(mdb_txn_begin(env, parent, flags, txn), (void)0);
}

int realmdb_guarded_txn_renew(MDB_txn *txn) {
    GUARDED(mdb_txn_renew(txn), (void)0);
}

int realmdb_guarded_env_open(MDB_env *env, const char *path, unsigned int flags, mdb_mode_t mode) {
    GUARDED(mdb_env_open(env, path, flags, mode), (void)0);
}

int realmdb_guarded_txn_commit(MDB_txn *txn) {
    GUARDED(mdb_txn_commit(txn), (void)0);
}

/* GUARDED_VOID(call): runs a call with no result under the guard; a fault is dropped. */
#define GUARDED_VOID(call)                        \
    do {                                          \
        sigjmp_buf jump;                          \
        sigjmp_buf *outer = guard_jump;           \
        if (sigsetjmp(jump, 0)) {                 \
            guard_jump = outer;                   \
            return;                               \
        }                                         \
        guard_jump = &jump;                       \
        call;                                     \
        guard_jump = outer;                       \
    } while (0)

void realmdb_guarded_txn_abort(MDB_txn *txn) {
    GUARDED_VOID(mdb_txn_abort(txn));
}

void realmdb_guarded_cursor_close(MDB_cursor *cursor) {
    GUARDED_VOID(mdb_cursor_close(cursor));
}
