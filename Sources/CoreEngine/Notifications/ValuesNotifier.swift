/// The callbacks registered on a list, set or dictionary of values (not objects), and the
/// elements they were last told about.
///
/// Elements have no identity beyond their value: the n-th occurrence of a value before is the
/// same element as its n-th occurrence after (`CollectionChange.between`). A dictionary's
/// elements are its entries in key order, identified by key; an entry whose value changed is a
/// modification. When the owning object is deleted, every element is reported deleted once.
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

    /// The elements (a dictionary's keys and values), or nil when the owner is gone.
    private func read(_ transaction: StorageTransaction) throws -> [Value]? {
        let owner = collection.object
        guard try transaction.objectExists(table: owner.classInfo.tableID, key: owner.key) else { return nil }
        return try transaction.collection(table: owner.classInfo.tableID, column: collection.property.column, key: owner.key)
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
        let isDictionary = collection.property.collection == .dictionary
        guard let new = try read(transaction) else {
            finished = true
            let count = isDictionary ? old.count / 2 : old.count
            return initial + calls(CollectionChange(deletions: Array(0..<count)))
        }
        elements = new
        let change: CollectionChange
        if isDictionary {
            let before = Self.entries(old), after = Self.entries(new)
            let oldValues = Dictionary(before, uniquingKeysWith: { first, _ in first })
            let newValues = Dictionary(after, uniquingKeysWith: { first, _ in first })
            change = CollectionChange.between(before.map(\.key), after.map(\.key)) { key in
                oldValues[key].map { !$0.isIdentical(to: newValues[key] ?? .null) } ?? false
            }
        } else {
            change = CollectionChange.between(old, new) { _ in false }
        }
        guard !change.isEmpty else { return initial }
        return initial + calls(change)
    }

    private static func entries(_ contents: [Value]) -> [(key: Value, value: Value)] {
        stride(from: 0, to: contents.count - 1, by: 2).map { (contents[$0], contents[$0 + 1]) }
    }
}
