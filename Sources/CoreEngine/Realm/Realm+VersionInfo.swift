/// What pins the file's old versions: the readers of every process, and how far behind the
/// oldest one is. A version stays pinned while any reader (an open realm's snapshot, a frozen
/// view, a read transaction) reads it, and the file grows with every commit meanwhile.
package struct VersionInfo: Equatable, Sendable {
    /// Distinct versions pinned by readers in every process, plus the latest.
    package var activeVersions: Int
    /// Reader slots holding a snapshot, in every process.
    package var readers: Int
    /// Commits made since the oldest pinned snapshot (0 when every reader reads the latest).
    package var oldestReaderLag: Int
    /// The process holding the oldest pinned snapshot (0 when no reader lags).
    package var oldestReaderPID: Int32
    /// Reader slots of processes that no longer exist, cleared by this call.
    package var staleReadersCleared: Int
}

extension Realm {
    /// The file's format number at the pinned version (docs/FORMAT.md): `StorageTransaction.formatNumber`
    /// for the files this library writes; 1 for a file written before record seals, until a write
    /// upgrades it.
    /// - Throws: `.closedRealm`, `.wrongThread`.
    package func fileFormat() throws -> UInt32 {
        try lock.withLock { try currentTransaction().fileFormat }
    }

    /// Clears the reader slots of dead processes, then reports what pins old versions.
    /// - Throws: `.closedRealm`, `.wrongThread`.
    package func versionInfo() throws -> VersionInfo {
        try lock.withLock {
            let environment = try requireOpen()
            let cleared = environment.clearStaleReaders()
            let readers = environment.readers()
            let latest = environment.latestWrittenVersion()
            let oldest = readers.min { $0.transaction < $1.transaction }
            let lag = oldest.map { max(0, latest - $0.transaction) } ?? 0
            return VersionInfo(activeVersions: environment.activeVersionCount(includingLatest: true), readers: readers.count,
                               oldestReaderLag: lag, oldestReaderPID: lag > 0 ? oldest?.pid ?? 0 : 0,
                               staleReadersCleared: cleared)
        }
    }
}
