/// The callbacks registered on a list or set of values (not objects), and the elements they were
/// last told about (dictionaries have `DictionaryNotifier`).
///
/// Elements have no identity beyond their value: the n-th occurrence of a value before is the
/// same element as its n-th occurrence after (`CollectionChange.between`). When the owning object
/// is deleted, every element is reported deleted once.
final class ValuesNotifier: CollectionObserving {
    static let initialChange = CollectionChange.initial
    let collection: CollectionAccessor
    var subscriptions: [Subscription<CollectionChange>] = []
    private var elements: [Value]?
    private var version: UInt64 = 0
    private var finished = false

    init(collection: CollectionAccessor) {
        self.collection = collection
    }

    /// The elements, or nil when the owner is gone.
    private func read(_ transaction: StorageTransaction) throws -> [Value]? {
        try collection.contents(in: transaction)
    }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if finished || isUnused { return [] }
        guard let old = elements else {
            elements = try read(transaction) ?? []
            version = transaction.version
            return takeInitialCalls()
        }
        let initial = takeInitialCalls()
        guard transaction.version != version else { return initial }
        version = transaction.version
        guard let new = try read(transaction) else {
            finished = true
            return initial + calls(CollectionChange(deletions: Array(old.indices)))
        }
        elements = new
        let change = CollectionChange.between(old, new) { _ in false }
        guard !change.isEmpty else { return initial }
        return initial + calls(change)
    }
}
