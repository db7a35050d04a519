extension Realm {
    /// Reads the whole file at the latest version and checks it: every object's stored values
    /// decode, counters match the objects, links lead to live objects, text is UTF-8, indexes
    /// hold exactly one entry per object with its value, and every block belongs to the schema.
    /// Takes time in proportion to the file. `progress(done, total)` counts classes.
    /// - Returns: what was read.
    /// - Throws: `.fileFormat` naming the first damage found; `.wrongTransactionState` inside a
    ///   write; `.closedRealm`, `.wrongThread`.
    package func check(progress: (Int, Int) -> Void = { _, _ in }) throws -> FileCheckReport {
        let environment: LMDBEnvironment = try lock.withLock {
            if transaction?.isWrite == true {
                throw DBError(.wrongTransactionState, "cannot check the file inside a write transaction: commit or cancel it first")
            }
            return try requireOpen()
        }
        // A snapshot of its own: the realm's pinned version and its reads are left alone.
        let snapshot = try StorageTransaction(environment: environment, write: false)
        defer { snapshot.abort() }
        return try snapshot.verify(progress: progress)
    }
}
