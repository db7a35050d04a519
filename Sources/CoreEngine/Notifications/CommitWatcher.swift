#if canImport(Glibc)
import Glibc
#endif

/// Wakes realm handles when their file has a new commit, from this process or another, so that
/// a host can refresh them on their own thread (see `Realm.setScheduler`).
///
/// One background thread serves the whole process. It sleeps in `poll(2)` on an inotify
/// descriptor watching each observed data file (LMDB writes committed pages with `pwrite`, so a
/// commit in any process modifies the file) and on a pipe that commits in this process write to.
///
/// A wake-up is due when the version a reader would now see (`latestReadableVersion`) has moved
/// past the one the watcher last announced. That version, not the file's last written one, is
/// what the owner's refresh will read: a committing process writes its pages and meta page (the
/// inotify events) a moment before it publishes the commit to readers, so a look right after an
/// event can find nothing new yet. Such a look is repeated after 1, 2, 4, ... 64 ms, and every
/// file is looked at every 250 ms regardless, so a published commit is always announced (and at
/// most 250 ms late on a file system without inotify events).
///
/// Locks (see `LockLevel`): a subscriber's lock (`scheduler`) is held while its wake-up function
/// runs, so that unsubscribing waits for a call in progress; the watch table's lock is a leaf,
/// never held while a subscriber's lock is taken or a wake-up function runs.
final class CommitWatcher: @unchecked Sendable {
    static let shared = CommitWatcher()

    /// A handle's wake-up function.
    final class Subscriber {
        let notify: () -> Void
        let lock = RecursiveLock(level: .scheduler, name: "commit watcher subscriber")
        /// Guarded by `lock`: false once unsubscribed.
        var isActive = true
        /// Guarded by the watcher's table lock: a wake-up was asked for without a new commit
        /// (a new observer waits for its initial call).
        var wakeRequested = true
        init(notify: @escaping () -> Void) { self.notify = notify }
    }

    private struct Watch {
        let environment: LMDBEnvironment
        var descriptor: Int32
        /// The newest readable version announced to the subscribers.
        var announced: Int
        var subscribers: [ObjectIdentifier: Subscriber]
    }

    private let lock = RecursiveLock(level: .leaf, name: "commit watcher table", heldAcrossFork: true)
    private var watches: [String: Watch] = [:]
    private var inotify: Int32 = -1
    private var pipeFDs: [Int32] = [-1, -1]
    private var started = false
    /// The process whose thread serves the table (see `forgetParentIfForked`).
    private var threadProcess: pid_t = 0

    /// The slowest look: a file system without inotify events is noticed this late at most.
    static let lookInterval: Int32 = 250
    /// After an event that showed no new readable version: look again after 1, 2, 4, ... ms.
    static let maxRecheckDelay: Int32 = 64

    private init() {}

    /// Calls `notify` (from the watcher thread) whenever the file of `environment` gets a commit,
    /// and once soon after subscribing.
    func subscribe(_ id: ObjectIdentifier, environment: LMDBEnvironment, notify: @escaping () -> Void) {
        let replaced: Subscriber? = lock.withLock {
            forgetParentIfForked()
            startIfNeeded()
            var watch = watches[environment.path] ?? Watch(environment: environment, descriptor: -1,
                                                          announced: environment.latestReadableVersion() ?? 0, subscribers: [:])
            if watch.descriptor < 0 && inotify >= 0 {
                watch.descriptor = inotify_add_watch(inotify, environment.path, UInt32(IN_MODIFY | IN_CLOSE_WRITE))
            }
            let replaced = watch.subscribers[id]
            watch.subscribers[id] = Subscriber(notify: notify)
            watches[environment.path] = watch
            return replaced
        }
        replaced?.lock.withLock { replaced?.isActive = false }
        poke()
    }

    /// Stops calling the handle's function; waits for a call in progress (unless it is this
    /// thread's). Must not be called while holding a realm's lock (the call may be waiting for it).
    func unsubscribe(_ id: ObjectIdentifier) {
        let removed: Subscriber? = lock.withLock {
            forgetParentIfForked()
            for (path, var watch) in watches {
                guard let subscriber = watch.subscribers.removeValue(forKey: id) else { continue }
                if watch.subscribers.isEmpty {
                    if watch.descriptor >= 0 { inotify_rm_watch(inotify, watch.descriptor) }
                    watches[path] = nil
                } else {
                    watches[path] = watch
                }
                return subscriber
            }
            return nil
        }
        removed?.lock.withLock { removed?.isActive = false }
    }

    /// Asks for one call of the handle's function soon, without a commit (a new observer's
    /// initial call). Does nothing for a handle without one.
    func requestWake(_ id: ObjectIdentifier) {
        let found: Bool = lock.withLock {
            forgetParentIfForked()
            for watch in watches.values {
                if let subscriber = watch.subscribers[id] {
                    subscriber.wakeRequested = true
                    return true
                }
            }
            return false
        }
        if found { poke() }
    }

    /// Wakes the thread now rather than at its next look (a commit in this process, a request).
    func poke() {
        guard lock.withLock({ forgetParentIfForked(); return started }) else { return }
        var byte: UInt8 = 1
        _ = write(pipeFDs[1], &byte, 1)
    }

    /// In a fork child (under the table's lock): the parent's thread does not exist here, its
    /// inotify descriptor and pipe are shared with the parent (reading them would steal its
    /// events, removing a watch would remove the parent's) and its watches hold the parent's
    /// environments and subscribers. Abandons all of it (closing only this process's copies of
    /// the two descriptors) so that the next subscription starts afresh.
    private func forgetParentIfForked() {
        guard started, ProcessFork.isInherited(threadProcess) else { return }
        for watch in watches.values { ProcessFork.abandon(watch.environment); watch.subscribers.values.forEach(ProcessFork.abandon) }
        watches = [:]
        for fd in [inotify] + pipeFDs where fd >= 0 { close(fd) }
        inotify = -1
        pipeFDs = [-1, -1]
        started = false
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        threadProcess = ProcessFork.current
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if pipe(&pipeFDs) == 0 {
            for fd in pipeFDs {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            pipeFDs = [-1, -1]
        }
        Self.instantiateLoopMetadata()
        var thread = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<CommitWatcher>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, context)
        pthread_detach(thread)
    }

    /// The thread's buffer for draining the descriptors, and the subscribers it is calling. Not
    /// locals of `run`: in a fork child, where the thread does not exist, they stay reachable
    /// rather than leaked.
    private var drainBuffer = [UInt8](repeating: 0, count: 4096)
    private var calling: [Subscriber] = []

    private func drain(_ fd: Int32) {
        guard fd >= 0 else { return }
        while drainBuffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Instantiates, on the subscribing thread, the type metadata the loop needs before the loop's
    /// thread starts. The Swift runtime's metadata locks are not fork-safe: a fork while the new
    /// thread instantiated the `(pollfd, pollfd)` tuple left a child's own watcher blocked on that
    /// lock for good (a child that subscribes right after its parent did).
    private static func instantiateLoopMetadata() {
        var fds = (pollfd(fd: -1, events: 0, revents: 0), pollfd(fd: -1, events: 0, revents: 0))
        _ = withUnsafeMutableBytes(of: &fds) { $0.count }
        var subscribers = [Subscriber]()
        for subscriber in subscribers where subscriber.isActive { subscriber.notify() }
        subscribers.removeAll(keepingCapacity: true)
        let watches: [String: Watch] = [:]
        for (_, watch) in watches { subscribers += watch.subscribers.values.filter(\.wakeRequested) }
    }

    private func run() {
        var recheckDelay: Int32 = 0  // 0: not rechecking
        let descriptors = (inotify, pipeFDs[0])
        while true {
            // On the stack (see `drainBuffer`).
            var fds = (pollfd(fd: descriptors.0, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: descriptors.1, events: Int16(POLLIN), revents: 0))
            let timeout = recheckDelay > 0 ? recheckDelay : Self.lookInterval
            let events = withUnsafeMutableBytes(of: &fds) { poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeout) }
            // Under the table's lock, which fork() waits for (see ProcessFork): a fork never
            // lands while this thread is in the middle of Swift work of its own.
            lock.withLock {
                drain(descriptors.0)
                drain(descriptors.1)
                calling = dueSubscribers()
            }
            for subscriber in calling {
                subscriber.lock.withLock {
                    if subscriber.isActive { subscriber.notify() }
                }
            }
            calling.removeAll(keepingCapacity: true)
            // After writes, a commit may be written but not yet readable: look again shortly,
            // backing off, until the events stop.
            if events > 0 {
                recheckDelay = 1
            } else if recheckDelay > 0 {
                recheckDelay = recheckDelay >= Self.maxRecheckDelay ? 0 : recheckDelay * 2
            }
        }
    }

    /// The subscribers to call: those of every file whose readable version moved past the one
    /// announced, and those that asked for a wake-up.
    private func dueSubscribers() -> [Subscriber] {
        lock.withLock {
            var due: [Subscriber] = []
            for (path, var watch) in watches {
                if let readable = watch.environment.latestReadableVersion(), readable != watch.announced {
                    watch.announced = readable
                    due += watch.subscribers.values
                } else {
                    due += watch.subscribers.values.filter(\.wakeRequested)
                }
                for subscriber in watch.subscribers.values { subscriber.wakeRequested = false }
                watches[path] = watch
            }
            return due
        }
    }
}
