/// The read transaction of the version a notifier last delivered, kept open (`Realm.pin`) until
/// its next delivery, so that the values objects held then can still be read: the old sort
/// values of the objects a commit touched, by which their old places are found. Used under the
/// realm's lock.
struct PinnedSnapshot {
    private var transaction: StorageTransaction?

    /// Keeps `transaction` (the realm's current read transaction) in place of the one kept.
    mutating func keep(_ transaction: StorageTransaction, of realm: Realm) {
        guard self.transaction !== transaction else { return }
        release(from: realm)
        realm.pin(transaction)
        self.transaction = transaction
    }

    /// Lets go of the transaction kept, if any.
    mutating func release(from realm: Realm) {
        if let transaction { realm.unpin(transaction) }
        transaction = nil
    }

    /// The transaction kept, when it reads `version` and is still open.
    func reading(_ version: UInt64) -> StorageTransaction? {
        guard let transaction, transaction.version == version, transaction.lmdb.isOpen else { return nil }
        return transaction
    }
}
