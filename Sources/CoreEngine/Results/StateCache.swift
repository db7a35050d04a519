/// A value computed from a realm's current state, kept until that state changes: another
/// transaction (a refresh, a commit) or a write through the same one.
struct StateCache<Value> {
    private var value: Value?
    private var stamp: (transaction: Int, mutations: Int)?

    /// The cached value, if `transaction` is still in the state it was computed in.
    func current(_ transaction: StorageTransaction) -> Value? {
        guard let stamp, stamp == (transaction.serial, transaction.mutationCount) else { return nil }
        return value
    }

    /// The cached value, computed anew when the state changed.
    mutating func value(for transaction: StorageTransaction, _ compute: () throws -> Value) rethrows -> Value {
        if let cached = current(transaction) { return cached }
        let fresh = try compute()
        value = fresh
        stamp = (transaction.serial, transaction.mutationCount)
        return fresh
    }
}
