/// The realm state a cached value was computed in: which transaction, how many writes it had
/// made, the version it reads, and whether it writes. A refresh, a commit (another transaction)
/// or a write through the same one changes it.
struct StateStamp: Equatable {
    let transaction: Int
    let mutations: Int
    let version: UInt64
    let isWrite: Bool

    init(_ transaction: StorageTransaction) {
        self.transaction = transaction.serial
        mutations = transaction.mutationCount
        version = transaction.version
        isWrite = transaction.isWrite
    }
}
