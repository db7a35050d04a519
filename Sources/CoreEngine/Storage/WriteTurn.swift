#if canImport(Glibc)
import Glibc
#endif

/// Whose turn it is to write a realm file: one writer at a time, across the threads of this
/// process and across processes. A writer takes the turn before LMDB's write lock and gives it
/// back after LMDB's commit or abort, so a writer that holds the turn begins its transaction
/// without waiting.
///
/// LMDB's write lock belongs to the thread that takes it, so waiting for it cannot be moved off a
/// thread that must not block (an event loop). The turn belongs to no thread: one thread may wait
/// for it and another (the realm's owner) begin the write and give it back at the end.
///
/// - In this process: a flag under a mutex, with a condition for the threads that wait.
/// - Across processes: a POSIX record lock on one byte of the environment's lock file, far past
///   what LMDB locks (byte 0). The kernel drops it when the process dies, and a fork child does
///   not inherit it. Closing any descriptor of the lock file would drop it too (and LMDB's own
///   locks): the descriptor is opened once and closed with the environment, after LMDB's.
///
/// Writes that happen while a file is opened (creating it, its first setup, a migration taking
/// the turn as any write does) are short; LMDB's lock alone still keeps every write exclusive.
final class WriteTurn: @unchecked Sendable {
    private let lockFilePath: String
    private let ownerPID: pid_t
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let given = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The thread whose realm holds the turn (the one that will write), or nil. Guarded by `mutex`.
    private var holder: pthread_t?
    /// A descriptor of the lock file, opened by the first writer; used only by the holder.
    private var descriptor: Int32 = -1

    /// The byte of the lock file that writers lock (LMDB locks byte 0 only).
    static let lockedByte: off_t = 1 << 40

    init(lockFilePath: String) {
        self.lockFilePath = lockFilePath
        ownerPID = ProcessFork.current
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(given, nil)
    }

    /// Closes the descriptor: call only after LMDB's environment is closed (see above). A fork
    /// child leaves an inherited turn alone (its mutex may have been held at the fork).
    deinit {
        guard !ProcessFork.isInherited(ownerPID) else { return }
        if descriptor >= 0 { close(descriptor) }
        pthread_cond_destroy(given)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        given.deallocate()
    }

    /// Takes the turn for a writer whose realm belongs to `owner`, waiting while another writer
    /// holds it.
    /// - Parameter shouldStop: nil to wait as long as it takes (the owner's own begin); otherwise
    ///   asked every few milliseconds while waiting, and true gives up with `.closedRealm` (a wait
    ///   on another thread, for a realm that may be closed meanwhile).
    /// - Throws: `.wrongTransactionState` when `owner`'s thread holds the turn already (through
    ///   another realm: waiting would deadlock); `.closedRealm`; `.storage` when the lock file
    ///   cannot be locked.
    func take(for owner: pthread_t, shouldStop: (() -> Bool)? = nil) throws {
        try takeInProcess(for: owner, shouldStop: shouldStop)
        do {
            try lockAcrossProcesses(shouldStop: shouldStop)
        } catch {
            giveInProcess()
            throw error
        }
    }

    /// Gives the turn back, from any thread of this process.
    func give() {
        if descriptor >= 0 {
            var region = Self.region(F_UNLCK)
            _ = fcntl(descriptor, F_SETLK, &region)
        }
        giveInProcess()
    }

    private func takeInProcess(for owner: pthread_t, shouldStop: (() -> Bool)?) throws {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while let current = holder {
            if pthread_equal(current, owner) != 0 {
                throw DBError(.wrongTransactionState, "this thread already holds the turn to write '\(lockFilePath.dropLast(5))' through another realm handle; waiting for it would deadlock")
            }
            guard let shouldStop else {
                pthread_cond_wait(given, mutex)
                continue
            }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += 10_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(given, mutex, &deadline)
            if holder != nil {
                pthread_mutex_unlock(mutex)  // `shouldStop` takes the realm's lock: not under ours
                let stop = shouldStop()
                pthread_mutex_lock(mutex)
                if stop { throw DBError(.closedRealm, "the realm was closed while waiting for its turn to write") }
            }
        }
        holder = owner
    }

    private func giveInProcess() {
        pthread_mutex_lock(mutex)
        holder = nil
        pthread_cond_broadcast(given)
        pthread_mutex_unlock(mutex)
    }

    /// Locks `lockedByte`: blocking when nothing can stop the wait, else polling (0.2 ms, doubling
    /// up to 5 ms) so that `shouldStop` is asked between tries.
    private func lockAcrossProcesses(shouldStop: (() -> Bool)?) throws {
        if descriptor < 0 {
            descriptor = open(lockFilePath, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw DBError.lmdb(errno, "cannot open '\(lockFilePath)' to take the turn to write") }
        }
        var region = Self.region(F_WRLCK)
        var pause: UInt32 = 200
        while fcntl(descriptor, shouldStop == nil ? F_SETLKW : F_SETLK, &region) != 0 {
            let error = errno
            if error == EINTR { continue }
            guard let shouldStop, error == EAGAIN || error == EACCES else {
                throw DBError.lmdb(error, "cannot lock '\(lockFilePath)' to take the turn to write")
            }
            if shouldStop() { throw DBError(.closedRealm, "the realm was closed while waiting for its turn to write") }
            usleep(pause)
            pause = min(pause * 2, 5000)
        }
    }

    private static func region(_ type: Int32) -> flock {
        var region = flock()
        region.l_type = Int16(type)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = lockedByte
        region.l_len = 1
        return region
    }
}
