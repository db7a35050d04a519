import CLMDB
#if canImport(Glibc)
import Glibc
#endif

/// LMDB's reader table: the read snapshots of every process, the versions they pin, and the
/// slots of processes that died holding one.
///
/// A reader pins its snapshot's pages: while it lives, commits cannot reuse them and the file
/// grows. A process killed while reading leaves its slot behind, pinning that version until
/// someone clears it (`mdb_reader_check`, which tests whether each slot's process still exists).
/// Opening an environment clears such slots; writers clear them again as they go, at most every
/// `staleReaderCheckInterval`, so a dead reader never grows the file for long.
extension LMDBEnvironment {
    /// One slot in use: the process and the LMDB transaction id of the snapshot it reads.
    struct Reader: Equatable {
        var pid: Int32
        var transaction: Int
    }

    /// Writers clear dead processes' reader slots every this many writes, or sooner when this
    /// much time (nanoseconds) has passed: while a dead reader pins a version, every commit
    /// grows the file, so the check follows the commits, not only the clock. A check costs a
    /// scan of the reader table and one `fcntl` per other process.
    static let staleReaderCheckWrites = 8
    static let staleReaderCheckInterval: UInt64 = 100_000_000

    /// The reader slots in use that hold a snapshot, in every process.
    func readers() -> [Reader] {
        final class Collector { var readers: [Reader] = [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = mdb_reader_list(env, { message, context in
            guard let message, let context else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            // Lines are "pid thread txnid" (a header line first); "-" marks an idle slot.
            let fields = String(cString: message).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            if fields.count >= 3, let pid = Int32(fields[0]), let transaction = Int(fields[2]) {
                collector.readers.append(Reader(pid: pid, transaction: transaction))
            }
            return 0
        }, context)
        return collector.readers
    }

    /// Distinct snapshots pinned by readers of this file in every process, plus the latest one.
    func activeVersionCount(includingLatest: Bool) -> Int {
        var versions = Set(readers().map(\.transaction))
        if includingLatest { versions.insert(latestWrittenVersion()) }
        return versions.count
    }

    /// Frees the reader slots of processes that no longer exist; returns how many.
    @discardableResult
    func clearStaleReaders() -> Int {
        var dead: Int32 = 0
        _ = mdb_reader_check(env, &dead)
        return Int(dead)
    }

    /// For writers: clears dead readers every `staleReaderCheckWrites` writes, or once the
    /// interval has passed.
    func clearStaleReadersIfDue() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        let due = withWriterLock {
            writesSinceStaleReaderCheck += 1
            guard writesSinceStaleReaderCheck >= Self.staleReaderCheckWrites
                    || nanoseconds &- lastStaleReaderCheck >= Self.staleReaderCheckInterval else { return false }
            lastStaleReaderCheck = nanoseconds
            writesSinceStaleReaderCheck = 0
            return true
        }
        if due { clearStaleReaders() }
    }
}
