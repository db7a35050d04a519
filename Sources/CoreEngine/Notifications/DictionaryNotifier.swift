/// The callbacks registered on a dictionary property, and its entries as they were last told.
///
/// A dictionary's elements are its entries in key order, identified by key, whatever its values
/// are: a key added is an insertion, a key removed a deletion (at its old index), and a key whose
/// value was replaced (by another value, another object, or null) a modification. In a dictionary
/// of objects, a key also counts as modified when the object it holds changed in a property the
/// subscription's key paths select (all of them, and those of the objects it links to, without
/// key paths), as a list of objects reports its objects. When the owning object is deleted,
/// every entry is reported deleted once.
final class DictionaryNotifier: CollectionObserving {
    static let initialChange = CollectionChange.initial
    let collection: CollectionAccessor
    var subscriptions: [Subscription<CollectionChange>] = []
    /// The table of the objects the values link to; nil for a dictionary of values.
    private let target: UInt32?
    private var entries: [(key: Value, value: Value)]?
    private var version: UInt64 = 0
    private var finished = false

    init(collection: CollectionAccessor, target: ClassInfo?) {
        self.collection = collection
        self.target = target?.tableID
    }

    /// The entries in key order, or nil when the owner is gone.
    private func read(_ transaction: StorageTransaction) throws -> [(key: Value, value: Value)]? {
        guard let contents = try collection.contents(in: transaction) else { return nil }
        return stride(from: 0, to: contents.count - 1, by: 2).map { (contents[$0], contents[$0 + 1]) }
    }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if finished || isUnused { return [] }
        guard let old = entries else {
            entries = try read(transaction) ?? []
            version = transaction.version
            return takeInitialCalls()
        }
        let initial = takeInitialCalls()
        guard transaction.version != version else { return initial }
        let since = version
        version = transaction.version
        guard let new = try read(transaction) else {
            finished = true
            return initial + calls(CollectionChange(deletions: Array(old.indices)))
        }
        entries = new
        let oldValues = Dictionary(old, uniquingKeysWith: { first, _ in first })
        let newValues = Dictionary(new, uniquingKeysWith: { first, _ in first })
        let oldKeys = old.map(\.key), newKeys = new.map(\.key)
        func replaced(_ key: Value) -> Bool { !(oldValues[key]?.isIdentical(to: newValues[key] ?? .null) ?? true) }
        guard let target else {
            let change = CollectionChange.between(oldKeys, newKeys, isModified: replaced)
            return change.isEmpty ? initial : initial + calls(change)
        }
        // Objects: each subscription's key paths select which of the held objects changed.
        let changes = try CoalescedChanges(transaction, from: since, to: transaction.version)
        var perSubscription: [CollectionChange] = []
        for subscription in subscriptions {
            let modifiedObjects: Set<Int64>? = changes.isComplete
                ? try subscription.paths?.modifiedKeys(changes, root: target, transaction) ?? []
                : nil  // records missing: any held object may have changed
            perSubscription.append(CollectionChange.between(oldKeys, newKeys) { key in
                if replaced(key) { return true }
                guard case let .link(link)? = newValues[key] else { return false }
                return modifiedObjects?.contains(link.key) ?? true
            })
        }
        guard perSubscription.contains(where: { !$0.isEmpty }) else { return initial }
        return initial + calls(perSubscription)
    }
}
