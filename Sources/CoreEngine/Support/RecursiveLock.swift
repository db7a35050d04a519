#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recursive mutex with a place in the engine's lock order (see `LockLevel`). A realm's lock
/// is recursive because a migration callback, which runs while the realm is being opened, calls
/// back into the same realm; a token's because a callback may invalidate its own token.
final class RecursiveLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    let level: LockLevel
    /// What the lock guards, for lock-order reports.
    let name: String

    /// - Parameter heldAcrossFork: for process-wide leaf locks (which live as long as the
    ///   process): `fork()` waits until no other thread holds the lock and the child gets it
    ///   unlocked (see `ProcessFork`).
    init(level: LockLevel, name: String, heldAcrossFork: Bool = false) {
        self.level = level
        self.name = name
        initializeMutex()
        if heldAcrossFork { ProcessFork.register(self) }
    }

    private func initializeMutex() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock if no other thread holds it; call `unlock()` after a true result. Never
    /// blocks, so it may be used against the lock order (the watcher thread does, for a realm).
    func tryLock() -> Bool {
        #if DEBUG
        LockOrderChecker.willAcquire(ObjectIdentifier(self), level: level, name: name, blocking: false)
        #endif
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        #if DEBUG
        LockOrderChecker.didAcquire(ObjectIdentifier(self), level: level, name: name)
        #endif
        return true
    }

    func lock() {
        #if DEBUG
        LockOrderChecker.willAcquire(ObjectIdentifier(self), level: level, name: name, blocking: true)
        #endif
        pthread_mutex_lock(mutex)
        #if DEBUG
        LockOrderChecker.didAcquire(ObjectIdentifier(self), level: level, name: name)
        #endif
    }

    func unlock() {
        #if DEBUG
        LockOrderChecker.willRelease(ObjectIdentifier(self))
        #endif
        pthread_mutex_unlock(mutex)
    }

    /// For `ProcessFork`'s handlers only, outside the lock order's bookkeeping: taken before
    /// fork, released after it in the parent, made anew in the child (whose thread has another
    /// id than the owner a recursive mutex records, so it could not unlock it).
    func lockForFork() { pthread_mutex_lock(mutex) }
    func unlockAfterFork(inChild: Bool) {
        if inChild { initializeMutex() } else { pthread_mutex_unlock(mutex) }
    }

    /// Whether the calling thread holds the lock. Taken once more without blocking (which only
    /// its owner or anyone when it is free can do), glibc's recursive mutex counts its owner's
    /// depth: above one, this thread held it already. Outside the lock order's bookkeeping.
    var isHeldByCurrentThread: Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        defer { pthread_mutex_unlock(mutex) }
        return mutex.pointee.__data.__count > 1
    }

    @discardableResult
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
