/// The realm state a cached value was computed in: which transaction, and how many writes it had
/// made. A refresh, a commit (another transaction) or a write through the same one changes it.
struct StateStamp: Equatable {
    let transaction: Int
    let mutations: Int

    init(_ transaction: StorageTransaction) {
        self.transaction = transaction.serial
        mutations = transaction.mutationCount
    }
}
