#if canImport(Glibc)
import Glibc
#endif

/// The one order in which the engine's locks are taken. A thread holding a lock of some level
/// may block on a lock of a later level only (or take again a lock it already holds). Every
/// lock that can be held while another is taken has a level here; debug builds check the order
/// at each acquisition and stop at the first violation, naming both locks.
///
/// 1. `callback`: a notification token's delivery lock, held while its user callback runs. The
///    callback may call back into anything: read results (a realm lock), close its realm or
///    remove a scheduler (which waits for a scheduler call, level 2).
/// 2. `scheduler`: a commit-watcher subscriber's lock, held while the host's wake-up function
///    runs on the watcher thread. That function may compute changesets ahead (a realm lock,
///    taken with `tryLock` so that a busy owner is skipped, never waited for).
/// 3. `realm`: a realm handle's lock (shared with the realm's frozen views), held for the
///    length of one engine call. Nothing under it takes a token's or a subscriber's lock:
///    whether a token is invalidated is read from its state lock (level 4).
/// 4. `leaf`: locks around a few fields (a token's state, the watcher's table, the environment
///    registry, the writer record, the serial counter). Nothing is taken while one is held.
///
/// Callbacks therefore run outside every realm lock (notifiers return the calls to make and the
/// realm makes them after unlocking), and removing a token, a scheduler or closing a realm
/// never happens while holding a realm lock.
enum LockLevel: Int, Comparable, CustomStringConvertible {
    case callback = 1
    case scheduler = 2
    case realm = 3
    case leaf = 4

    static func < (lhs: LockLevel, rhs: LockLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String {
        switch self {
        case .callback: return "callback"
        case .scheduler: return "scheduler"
        case .realm: return "realm"
        case .leaf: return "leaf"
        }
    }
}

#if DEBUG
/// A bare mutex (outside the lock order) for the checker's own bookkeeping.
final class PlainMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}

/// The locks the current thread holds, innermost last (debug builds only).
enum LockOrderChecker {
    /// One entry per acquisition (a recursive re-entry pushes the same lock again).
    final class HeldLocks {
        var entries: [(lock: ObjectIdentifier, level: LockLevel, name: String)] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let held = Unmanaged<HeldLocks>.fromOpaque(pointer)
            LockOrderChecker.allLock.locked { LockOrderChecker.all.removeAll { $0 === held.takeUnretainedValue() } }
            held.release()
        }
        return key
    }()

    /// Every thread's record, also reachable from here: in a fork child, the records of the
    /// parent's other threads (which do not exist there) are then kept, not leaked.
    nonisolated(unsafe) private static var all: [HeldLocks] = []
    /// Held across fork(): a child must not inherit it locked by a parent thread that does not
    /// exist there (the child's commit watcher once blocked on it for good). The forking thread
    /// makes sure of its own record first, so that nothing takes the lock again while it is held.
    private static let allLock: PlainMutex = {
        let mutex = PlainMutex()
        pthread_atfork({ _ = LockOrderChecker.held; LockOrderChecker.allLock.lock() },
                       { LockOrderChecker.allLock.unlock() },
                       { LockOrderChecker.allLock.unlock() })
        return mutex
    }()

    /// Tests replace the stop with a record of the violation.
    nonisolated(unsafe) static var violationHandler: ((String) -> Void)?

    static var held: HeldLocks {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<HeldLocks>.fromOpaque(pointer).takeUnretainedValue()
        }
        let held = HeldLocks()
        pthread_setspecific(key, Unmanaged.passRetained(held).toOpaque())
        allLock.locked { all.append(held) }
        return held
    }

    /// Checks that the thread may block on `lock` now. `blocking` is false for `tryLock`, which
    /// cannot deadlock and so may be taken out of order.
    static func willAcquire(_ lock: ObjectIdentifier, level: LockLevel, name: String, blocking: Bool) {
        let held = self.held
        guard blocking, !held.entries.contains(where: { $0.lock == lock }) else { return }
        // Tokens may nest (a callback that invalidates another token waits for that one's
        // callback); two callbacks on two threads invalidating each other's tokens is the
        // remaining hazard, documented on NotificationToken.invalidate.
        if let violation = held.entries.last(where: { $0.level > level || ($0.level == level && level != .callback) }) {
            let message = "lock order violated: taking \(name) (\(level)) while holding \(violation.name) (\(violation.level)); see LockOrder.swift"
            if let handler = violationHandler {
                handler(message)
            } else {
                fputs(message + "\n", stderr)
                assertionFailure(message)
            }
        }
    }

    static func didAcquire(_ lock: ObjectIdentifier, level: LockLevel, name: String) {
        held.entries.append((lock, level, name))
    }

    static func willRelease(_ lock: ObjectIdentifier) {
        let held = self.held
        if let index = held.entries.lastIndex(where: { $0.lock == lock }) {
            held.entries.remove(at: index)
        }
    }
}
#endif
