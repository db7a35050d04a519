import CLMDBGuard
#if canImport(Glibc)
import Glibc
#endif

/// fork(): what a child process may and may not do with what it inherits from its parent.
///
/// LMDB's documentation is plain: an environment must not be used in a forked child, which must
/// open its own. The parent's environments carry its process id in their reader slots, its
/// memory maps, its file descriptors (whose POSIX locks belong to the parent) and its write lock,
/// and a child that touched them (even to close them) could release the parent's snapshot or
/// locks: `mdb_txn_abort` of an inherited read transaction frees the parent's pinned version,
/// `mdb_env_close` clears the parent's reader slots and, by closing descriptors of the lock file,
/// drops the child's own POSIX locks on it.
///
/// So the child abandons them: every environment and realm records the process that opened it,
/// and in any other process
/// - an inherited realm (and everything read through it) fails with `.wrongThread` ("opened by
///   another process"), and closing or releasing it only forgets it;
/// - inherited environments and transactions are never closed, aborted, reset or unmapped (their
///   memory, maps and descriptors are left as they are: a little memory and address space);
/// - opening a file opens a fresh environment (the registry drops the inherited ones);
/// - the commit watcher starts a new thread (the parent's does not exist in the child) with its
///   own inotify descriptor and pipe (the inherited ones are the parent's).
///
/// The current process id is cached (`current`), updated by a `pthread_atfork` child handler, so
/// the check costs a load, not a system call. The same handlers hold the engine's process-wide
/// locks (`RecursiveLock(heldAcrossFork:)`: the environment registry, the watcher's table, the
/// serial counter) across `fork()`, so a child never inherits one locked by a thread that does not
/// exist in it.
enum ProcessFork {
    /// This process's id (the child handler updates it).
    nonisolated(unsafe) private(set) static var current: pid_t = getpid()
    /// The locks held across fork, in registration order; guarded by `listMutex`.
    nonisolated(unsafe) private static var locks: [RecursiveLock] = []
    /// What children abandoned: kept alive so that no deinit ever runs on them, and LMDB handles
    /// kept (never freed, never used) so that they stay reachable rather than leaked.
    nonisolated(unsafe) private static var abandoned: [AnyObject] = []
    nonisolated(unsafe) private static var abandonedHandles: [OpaquePointer] = []
    private static let listMutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    private static let installed: Bool = {
        _ = current
        _ = listMutex
        // The metadata a child needs to abandon what it inherited, made here in the parent: the
        // Swift runtime's metadata locks are not fork-safe, and a child that first needs a type
        // while another thread of the parent was making metadata at the fork blocks for good
        // (seen: a child opening a realm right after its parent subscribed to commits).
        abandoned.reserveCapacity(4)
        abandonedHandles.reserveCapacity(4)
        // The guard's handlers first, so that its prepare handler runs after this one: a thread
        // may hold one of these locks while registering with the guard (its first guarded call,
        // which takes the guard's thread list), never the other way round.
        realmdb_guard_install_fork_handlers()
        pthread_atfork({ ProcessFork.prepare() }, { ProcessFork.afterFork(child: false) }, { ProcessFork.afterFork(child: true) })
        return true
    }()

    /// Installs the fork handlers (once).
    static func install() { _ = installed }

    /// Makes `lock` one of those held across fork (for process-wide leaf locks).
    static func register(_ lock: RecursiveLock) {
        install()
        pthread_mutex_lock(listMutex)
        locks.append(lock)
        pthread_mutex_unlock(listMutex)
    }

    /// Keeps `object` alive for the life of the process (an inherited handle nothing may close).
    static func abandon(_ object: AnyObject) {
        pthread_mutex_lock(listMutex)
        abandoned.append(object)
        pthread_mutex_unlock(listMutex)
    }

    /// Keeps an inherited LMDB handle (a transaction) without touching it.
    static func abandon(_ handle: OpaquePointer) {
        pthread_mutex_lock(listMutex)
        abandonedHandles.append(handle)
        pthread_mutex_unlock(listMutex)
    }

    /// Whether something opened by process `pid` was inherited across fork.
    @inline(__always)
    static func isInherited(_ pid: pid_t) -> Bool { pid != current }

    /// Before fork: takes every registered lock (leaf locks, never nested, so any order is safe).
    private static func prepare() {
        pthread_mutex_lock(listMutex)
        for lock in locks { lock.lockForFork() }
    }

    /// After fork: releases them (in the child, makes them anew, unlocked) and, in the child,
    /// notes the new process id.
    private static func afterFork(child: Bool) {
        if child { current = getpid() }
        for lock in locks.reversed() { lock.unlockAfterFork(inChild: child) }
        if child { pthread_mutex_init(listMutex, nil) } else { pthread_mutex_unlock(listMutex) }
    }
}
