extension Realm {
    /// Writes a compacted copy of the latest committed version to a new file at `path`: only the
    /// pages in use, so the copy is as small as the data allows. The copy is complete and synced
    /// before it gets its name; open it as any realm. The realm stays open and usable.
    /// Takes time in proportion to the data.
    /// - Throws: `.fileAccess` when `path` exists or cannot be written; `.wrongTransactionState`
    ///   inside a write (its changes are not committed yet); `.fileFormat` when this file is
    ///   damaged; `.closedRealm`, `.wrongThread`.
    package func writeCopy(toFile path: String) throws {
        let environment: LMDBEnvironment = try lock.withLock {
            if transaction?.isWrite == true {
                throw DBError(.wrongTransactionState, "cannot copy the realm inside a write transaction: commit or cancel it first")
            }
            return try requireOpen()
        }
        try environment.writeCompactedCopy(to: path)
    }

    /// The file's size and how much of it is in use.
    /// - Throws: `.closedRealm`, `.wrongThread`.
    package func fileSpace() throws -> FileSpace {
        try lock.withLock { try requireOpen().fileSpace() }
    }
}
