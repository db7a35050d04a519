/// Savepoints: marks inside a write transaction to roll back to, undoing what was done since
/// while keeping what was done before. They nest; committing the write keeps the changes of
/// savepoints still open, cancelling it discards everything.
///
/// They make a composite change atomic: take a savepoint, make the change in several calls, and
/// release the savepoint, or roll back to it when a call fails (`withSavepoint` does this). A
/// rollback restores objects, values, collections, links and backlinks, indexes, object counts
/// and what the commit will report to observers. Accessors to objects created since the
/// savepoint become invalid; object keys are never handed out again.
extension Realm {
    /// The number of savepoints open in the write transaction (0 outside one).
    package var savepointDepth: Int {
        lock.withLock { transaction?.isWrite == true ? transaction!.savepointDepth : 0 }
    }

    /// Takes a savepoint in the write transaction.
    /// - Throws: `.wrongTransactionState` outside a write transaction, `.closedRealm`, `.wrongThread`.
    package func beginSavepoint() throws {
        try lock.withLock {
            let write = try savepointTransaction()
            try write.beginSavepoint()
            activeMigration?.savepointTaken()
        }
    }

    /// Undoes everything done since the innermost open savepoint, and removes that savepoint.
    /// - Throws: `.wrongTransactionState` when no savepoint is open, `.closedRealm`, `.wrongThread`.
    package func rollbackSavepoint() throws {
        try lock.withLock {
            let write = try savepointTransaction()
            try write.rollbackSavepoint()
            activeMigration?.savepointEnded(rolledBack: true)
        }
    }

    /// Keeps everything done since the innermost open savepoint, and removes that savepoint (its
    /// changes belong to the enclosing savepoint, if any, from then on).
    /// - Throws: `.wrongTransactionState` when no savepoint is open, `.closedRealm`, `.wrongThread`;
    ///   `.storage` when the changes could not be kept (they were rolled back).
    package func releaseSavepoint() throws {
        try lock.withLock {
            let write = try savepointTransaction()
            do {
                try write.releaseSavepoint()
                activeMigration?.savepointEnded(rolledBack: false)
            } catch {
                activeMigration?.savepointEnded(rolledBack: true)
                throw error
            }
        }
    }

    /// Runs `body` inside a savepoint: its changes are kept if it returns, and rolled back if it
    /// throws (the error is rethrown).
    package func withSavepoint<R>(_ body: () throws -> R) throws -> R {
        try beginSavepoint()
        let result: R
        do {
            result = try body()
        } catch {
            try? rollbackSavepoint()
            throw error
        }
        try releaseSavepoint()
        return result
    }

    private func savepointTransaction() throws -> StorageTransaction {
        _ = try requireOpen()
        guard let write = transaction, write.isWrite else {
            throw DBError(.wrongTransactionState, "savepoints exist only inside a write transaction; begin a write transaction first")
        }
        return write
    }
}
