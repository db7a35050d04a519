import CLMDB
#if canImport(Glibc)
import Glibc
#endif

/// Wakes realm handles when their file has a new commit, from this process or another, so that
/// a host can refresh them on their own thread (see `Realm.setScheduler`).
///
/// One background thread serves the whole process. It sleeps in `poll(2)` on an inotify
/// descriptor watching each observed data file (LMDB writes committed pages with `pwrite`, so a
/// commit in any process modifies the file) and on a pipe that commits in this process write to;
/// every 250 ms it also looks, so a file system without inotify events still works. On waking it
/// compares each file's last transaction id (from LMDB's shared lock table, no I/O) with the one
/// it last saw, and calls the handles' wake-up functions for the files that changed.
final class CommitWatcher: @unchecked Sendable {
    static let shared = CommitWatcher()

    /// A handle's wake-up function. Its lock is held while it runs, so that unsubscribing waits
    /// for a call in progress.
    final class Subscriber {
        let notify: () -> Void
        let lock = RecursiveLock()
        var isActive = true
        init(notify: @escaping () -> Void) { self.notify = notify }
    }

    private struct Watch {
        let environment: LMDBEnvironment
        var descriptor: Int32
        var lastTransaction: Int
        var subscribers: [ObjectIdentifier: Subscriber]
    }

    private let lock = RecursiveLock()
    private var watches: [String: Watch] = [:]
    private var inotify: Int32 = -1
    private var pipeFDs: [Int32] = [-1, -1]
    private var started = false

    private init() {}

    private static func lastTransaction(_ environment: LMDBEnvironment) -> Int {
        var info = MDB_envinfo()
        mdb_env_info(environment.env, &info)
        return Int(info.me_last_txnid)
    }

    /// Calls `notify` (from the watcher thread) whenever the file of `environment` gets a commit.
    func subscribe(_ id: ObjectIdentifier, environment: LMDBEnvironment, notify: @escaping () -> Void) {
        lock.withLock {
            startIfNeeded()
            var watch = watches[environment.path] ?? Watch(environment: environment, descriptor: -1,
                                                          lastTransaction: Self.lastTransaction(environment), subscribers: [:])
            if watch.descriptor < 0 && inotify >= 0 {
                watch.descriptor = inotify_add_watch(inotify, environment.path, UInt32(IN_MODIFY | IN_CLOSE_WRITE))
            }
            watch.subscribers[id]?.lock.withLock { watch.subscribers[id]?.isActive = false }
            watch.subscribers[id] = Subscriber(notify: notify)
            watches[environment.path] = watch
        }
    }

    /// Stops calling the handle's function; waits for a call in progress (unless it is this thread's).
    func unsubscribe(_ id: ObjectIdentifier) {
        let removed: Subscriber? = lock.withLock {
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

    /// A commit in this process: wake the thread now rather than at its next look.
    func poke() {
        guard started else { return }
        var byte: UInt8 = 1
        _ = write(pipeFDs[1], &byte, 1)
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if pipe(&pipeFDs) == 0 {
            for fd in pipeFDs {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            pipeFDs = [-1, -1]
        }
        var thread = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<CommitWatcher>.fromOpaque(context!).takeUnretainedValue().run()
            return nil
        }, context)
        pthread_detach(thread)
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 250)
            for fd in [inotify, pipeFDs[0]] where fd >= 0 {
                while read(fd, &buffer, buffer.count) > 0 {}
            }
            for subscriber in changedSubscribers() {
                subscriber.lock.withLock {
                    if subscriber.isActive { subscriber.notify() }
                }
            }
        }
    }

    /// The subscribers of every file whose last transaction moved since the last look.
    private func changedSubscribers() -> [Subscriber] {
        lock.withLock {
            var due: [Subscriber] = []
            for (path, var watch) in watches {
                let last = Self.lastTransaction(watch.environment)
                guard last != watch.lastTransaction else { continue }
                watch.lastTransaction = last
                watches[path] = watch
                due += watch.subscribers.values
            }
            return due
        }
    }
}
