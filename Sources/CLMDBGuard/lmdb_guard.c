/* lmdb_guard.c: see include/lmdb_guard.h. */
#define _GNU_SOURCE
#include "lmdb_guard.h"
#include "lmdb_guard_internal.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* The guard of the call in progress on this thread (NULL outside guarded calls), the call's
 * transaction (NULL when it has none yet) and the guarded function's frame. */
static __thread sigjmp_buf *guard_jump;
static __thread MDB_txn *guard_txn;
static __thread const char *guard_frame;
static __thread char guard_text[400];
static __thread realmdb_guard_fault_kind_t guard_kind;

/*
 * Cursors left behind by a fault. A write transaction keeps a list of cursors per database, and
 * LMDB puts its own temporary cursors, which live in its stack frames, at the head of that list
 * while it writes (WITH_CURSOR_TRACKING in mdb_put, mdb_del, mdb_dbi_open, page splits and
 * merges). A fault jumps out of those frames before LMDB takes its cursors off the list, and
 * aborting the transaction then frees them: free() on a stack address, which glibc answers with
 * abort() ("free(): invalid pointer") or a damaged heap. So before the jump, while the frames are
 * still intact, the guard unlinks every cursor that lies in them (between the faulting stack
 * pointer and the guarded function's frame): only cursors from mdb_cursor_open, which are on
 * the heap, remain.
 *
 * That needs two fields of LMDB's private MDB_txn (the cursor lists and the number of
 * databases) and the first field of MDB_cursor (the next cursor). Their layout below is the
 * same in every LMDB from 0.9.14 to 0.9.33; it is used only when mdb_version() is in that range
 * and the transaction's environment and id, read through it, match mdb_txn_env() and
 * mdb_txn_id(). Otherwise nothing is unlinked (and such an abort may still fail as above).
 */
struct lmdb_cursor_head {
    struct lmdb_cursor_head *mc_next;
};
struct lmdb_txn_head {
    MDB_txn *mt_parent, *mt_child;
    size_t mt_next_pgno, mt_txnid; /* pgno_t, txnid_t: MDB_ID, a size_t */
    MDB_env *mt_env;
    size_t *mt_free_pgs;
    void *mt_loose_pgs;
    int mt_loose_count;
    size_t *mt_spill_pgs;
    void *mt_u;
    void *mt_dbxs, *mt_dbs;
    unsigned int *mt_dbiseqs;
    struct lmdb_cursor_head **mt_cursors; /* NULL in read-only transactions: nothing tracked */
    unsigned char *mt_dbflags;
    MDB_dbi mt_numdbs;
};
static int txn_layout_known;

/* Unlinks the tracked cursors of the guarded call's transaction that lie in [low, guard_frame). */
static void unlink_dead_cursors(const char *low) {
    struct lmdb_txn_head *txn = (struct lmdb_txn_head *)guard_txn;
    MDB_dbi dbi;
    if (!txn_layout_known || !txn || !low || !guard_frame) return;
    if (txn->mt_env != mdb_txn_env(guard_txn) || txn->mt_txnid != mdb_txn_id(guard_txn)) return;
    if (!txn->mt_cursors || txn->mt_numdbs > 4096) return;
    for (dbi = 0; dbi < txn->mt_numdbs; dbi++) {
        struct lmdb_cursor_head **link = &txn->mt_cursors[dbi];
        while (*link) {
            const char *at = (const char *)*link;
            if (at >= low && at < guard_frame) *link = (*link)->mc_next;
            else link = &(*link)->mc_next;
        }
    }
}

/* The stack pointer when the signal came (NULL where unknown: then nothing is unlinked), less
 * x86-64's red zone, where a leaf function may keep its locals. */
static const char *fault_stack_pointer(void *context) {
    ucontext_t *uc = context;
    if (!uc) return NULL;
#if defined(__x86_64__)
    return (const char *)uc->uc_mcontext.gregs[REG_RSP] - 128;
#elif defined(__aarch64__)
    return (const char *)uc->uc_mcontext.sp;
#else
    return NULL;
#endif
}

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
        unlink_dead_cursors(fault_stack_pointer(context));
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
        unlink_dead_cursors(fault_stack_pointer(context));
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
    int major = 0, minor = 0, patch = 0;
    mdb_version(&major, &minor, &patch);
    txn_layout_known = major == 0 && minor == 9 && patch >= 14 && patch <= 33;
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
        /* Called from inside LMDB: its frames are all above this one. */
        unlink_dead_cursors((const char *)__builtin_frame_address(0));
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

/* GUARD_ENTER(txn, fault_result): starts a guarded call on `txn` (saving the state of an enclosing
 * one, and under the watchdog's eye when there is none); a fault returns `fault_result` from the
 * function. GUARD_LEAVE(): ends it. */
#define GUARD_ENTER(txn, fault_result)                      \
    sigjmp_buf jump;                                        \
    sigjmp_buf *outer = guard_jump;                         \
    MDB_txn *outer_txn = guard_txn;                         \
    const char *outer_frame = guard_frame;                  \
    struct guard_thread *volatile watched = NULL;           \
    if (sigsetjmp(jump, 0)) {                               \
        GUARD_LEAVE();                                      \
        return fault_result;                                \
    }                                                       \
    if (!outer) watched = enter_call();                     \
    guard_txn = (txn);                                      \
    guard_frame = (const char *)__builtin_frame_address(0); \
    guard_jump = &jump
#define GUARD_LEAVE() (leave_call(watched), guard_jump = outer, guard_txn = outer_txn, guard_frame = outer_frame)

/* GUARDED(txn, call, probes): runs `call` on `txn` under the guard; probes the values it returned. */
#define GUARDED(txn, call, probes)                \
    do {                                          \
        int rc;                                   \
        GUARD_ENTER(txn, REALMDB_GUARD_FAULT);    \
        rc = (call);                              \
        if (rc == MDB_SUCCESS) { probes; }        \
        GUARD_LEAVE();                            \
        return rc;                                \
    } while (0)

int realmdb_guarded_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) {
    GUARDED(txn, mdb_get(txn, dbi, key, data), probe(data));
}

int realmdb_guarded_put(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data, unsigned int flags) {
    GUARDED(txn, mdb_put(txn, dbi, key, data, flags), (void)0);
}

int realmdb_guarded_del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) {
    GUARDED(txn, mdb_del(txn, dbi, key, data), (void)0);
}

int realmdb_guarded_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op) {
    GUARDED(mdb_cursor_txn(cursor), mdb_cursor_get(cursor, key, data, op), (probe(key), probe(data)));
}

int realmdb_guarded_cursor_count(MDB_cursor *cursor, size_t *count) {
    GUARDED(mdb_cursor_txn(cursor), mdb_cursor_count(cursor, count), (void)0);
}

int realmdb_guarded_dbi_open(MDB_txn *txn, const char *name, unsigned int flags, MDB_dbi *dbi) {
    GUARDED(txn, mdb_dbi_open(txn, name, flags, dbi), (void)0);
}

int realmdb_guarded_txn_begin(MDB_env *env, MDB_txn *parent, unsigned int flags, MDB_txn **txn) {
    GUARDED(parent, mdb_txn_begin(env, parent, flags, txn), (void)0);
}

int realmdb_guarded_txn_renew(MDB_txn *txn) {
    GUARDED(txn, mdb_txn_renew(txn), (void)0);
}

int realmdb_guarded_env_open(MDB_env *env, const char *path, unsigned int flags, mdb_mode_t mode) {
    GUARDED(NULL, mdb_env_open(env, path, flags, mode), (void)0);
}

int realmdb_guarded_txn_commit(MDB_txn *txn) {
    GUARDED(txn, mdb_txn_commit(txn), (void)0);
}

int realmdb_guarded_env_copyfd2(MDB_env *env, int fd, unsigned int flags) {
    GUARDED(NULL, mdb_env_copyfd2(env, fd, flags), (void)0);
}

/* GUARDED_VOID(txn, call): runs a call with no result under the guard; a fault is dropped. */
#define GUARDED_VOID(txn, call)                   \
    do {                                          \
        GUARD_ENTER(txn, /* nothing */);          \
        call;                                     \
        GUARD_LEAVE();                            \
    } while (0)

void realmdb_guarded_txn_abort(MDB_txn *txn) {
    GUARDED_VOID(txn, mdb_txn_abort(txn));
}

void realmdb_guarded_cursor_close(MDB_cursor *cursor) {
    GUARDED_VOID(mdb_cursor_txn(cursor), mdb_cursor_close(cursor));
}
