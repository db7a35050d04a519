/*
 * lmdb_watchdog.c: the time limit of guarded LMDB calls (see lmdb_guard.h).
 *
 * A damaged page can send LMDB round a loop that never ends (a page that leads back to itself).
 * No signal comes of that, so a watchdog thread looks at the threads inside guarded calls once a
 * second: one that has spent more than the limit of CPU time in a single call is sent SIGXCPU,
 * and the guard ends that call as it ends a fault. CPU time, not wall time, so that a commit
 * waiting for a slow disk is never cut short.
 */
#define _GNU_SOURCE
#include "lmdb_guard_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct guard_thread *threads;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int watchdog_running;
__thread struct guard_thread *realmdb_guard_thread_record;
#define this_thread realmdb_guard_thread_record

static double seconds(clockid_t clock) {
    struct timespec now;
    if (clock_gettime(clock, &now) != 0) return -1;
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

double realmdb_guard_cpu_limit(void) {
    static double limit;
    if (limit == 0) {
        const char *text = getenv("REALMDB_LMDB_CPU_LIMIT");
        double value = text ? strtod(text, NULL) : 0;
        limit = value > 0 ? value : 20.0;
    }
    return limit;
}

static void forget_thread(void *record) {
    struct guard_thread *self = record, **link;
    pthread_mutex_lock(&threads_lock);
    for (link = &threads; *link; link = &(*link)->next) {
        if (*link == self) { *link = self->next; break; }
    }
    pthread_mutex_unlock(&threads_lock);
    free(self);
}

static void make_key(void) { pthread_key_create(&thread_key, forget_thread); }

struct guard_thread *realmdb_guard_this_thread(void) {
    if (this_thread) return this_thread;
    struct guard_thread *self = calloc(1, sizeof *self);
    if (!self) return NULL;
    self->thread = pthread_self();
    if (pthread_getcpuclockid(self->thread, &self->cpu_clock) != 0) { free(self); return NULL; }
    pthread_once(&key_once, make_key);
    pthread_setspecific(thread_key, self);
    pthread_mutex_lock(&threads_lock);
    self->next = threads;
    threads = self;
    pthread_mutex_unlock(&threads_lock);
    this_thread = self;
    return self;
}

static void *watch(void *unused) {
    (void)unused;
    for (;;) {
        struct timespec pause = {1, 0};
        while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
        double limit = realmdb_guard_cpu_limit();
        pthread_mutex_lock(&threads_lock);
        for (struct guard_thread *t = threads; t; t = t->next) {
            unsigned long call = __atomic_load_n(&t->call, __ATOMIC_ACQUIRE);
            if (!(call & 1)) continue;  /* outside guarded calls */
            double cpu = seconds(t->cpu_clock);
            if (call != t->seen_call) {
                t->seen_call = call;
                t->seen_cpu = cpu;
            } else if (cpu - t->seen_cpu > limit) {
                __atomic_store_n(&t->overdue_call, call, __ATOMIC_RELEASE);
                pthread_kill(t->thread, SIGXCPU);
            }
        }
        pthread_mutex_unlock(&threads_lock);
    }
    return NULL;
}

/* Around fork: the list is not changing while the child's copy is made. In the child only the
 * forking thread exists, and no watchdog (the next guarded environment starts one). */
static void before_fork(void) { pthread_mutex_lock(&threads_lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&threads_lock); }
static void after_fork_in_child(void) {
    struct guard_thread *self = this_thread, *t = threads;
    pthread_mutex_unlock(&threads_lock);
    while (t) {
        struct guard_thread *next = t->next;
        if (t != self) free(t);
        t = next;
    }
    threads = self;
    if (self) {
        self->next = NULL;
        self->thread = pthread_self();
        pthread_getcpuclockid(self->thread, &self->cpu_clock);
    }
    watchdog_running = 0;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

/* Prepare handlers run in the reverse order of registration: registered first, this one runs
 * last, after the engine's (see lmdb_guard.h). */
void realmdb_guard_install_fork_handlers(void) { pthread_once(&atfork_once, register_atfork); }

void realmdb_guard_start_watchdog(void) {
    realmdb_guard_install_fork_handlers();
    pthread_mutex_lock(&threads_lock);
    if (!watchdog_running) {
        pthread_attr_t attributes;
        pthread_t thread;
        sigset_t all, previous;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&attributes, 64 * 1024);
        /* The watchdog takes no signals: they belong to the threads that run the program. */
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &previous);
        if (pthread_create(&thread, &attributes, watch, NULL) == 0) watchdog_running = 1;
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
        pthread_attr_destroy(&attributes);
    }
    pthread_mutex_unlock(&threads_lock);
}
