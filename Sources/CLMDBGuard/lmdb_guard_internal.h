/* lmdb_guard_internal.h: what lmdb_guard.c and lmdb_watchdog.c share (not part of the module). */
#ifndef REALMDB_LMDB_GUARD_INTERNAL_H
#define REALMDB_LMDB_GUARD_INTERNAL_H

#include <pthread.h>
#include <time.h>

/* A thread that has made guarded calls, as the watchdog sees it. */
struct guard_thread {
    pthread_t thread;
    clockid_t cpu_clock;
    /* Odd while the thread is inside a guarded call; incremented on entry and on exit. */
    unsigned long call;
    /* The call the watchdog found over the limit (the SIGXCPU handler ends only that one). */
    unsigned long overdue_call;
    /* The watchdog's own record: the call it saw last, and the thread's CPU time then. */
    unsigned long seen_call;
    double seen_cpu;
    struct guard_thread *next;
};

/* This thread's record, once it has made a guarded call (NULL before). */
extern __thread struct guard_thread *realmdb_guard_thread_record;

/* This thread's record, registered with the watchdog on first use (NULL if that failed). */
struct guard_thread *realmdb_guard_this_thread(void);

/* Starts the watchdog thread, once per process (and again in a child after fork). */
void realmdb_guard_start_watchdog(void);

/* Seconds of CPU time one guarded call may use: REALMDB_LMDB_CPU_LIMIT, else 20. */
double realmdb_guard_cpu_limit(void);

#endif
