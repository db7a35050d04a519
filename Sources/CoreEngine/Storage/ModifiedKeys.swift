/// The keys of the objects a write transaction modified in one column, for its commit record.
///
/// A write usually modifies objects in ascending key order (a loop over results, a batch write of
/// a column): those keys are appended to an array, in order, so that recording one costs an
/// append and the commit record needs no sort. Keys that come out of order go to a set, and keys
/// of the array that are taken back (the object was deleted, a savepoint rolled back) are marked
/// removed rather than moved out of it.
struct ModifiedKeys {
    /// Keys recorded in ascending order, each once (some may be `removed`).
    private var ascending: [Int64] = []
    /// Keys recorded out of order: none of them is in `ascending`, and each is below its last.
    private var others: Set<FastObjectKey> = []
    /// Keys of `ascending` taken back since.
    private var removed: Set<FastObjectKey> = []

    var isEmpty: Bool { ascending.count == removed.count && others.isEmpty }

    /// Records `key`; false when it is recorded already.
    mutating func insert(_ key: Int64) -> Bool {
        guard let last = ascending.last, key <= last else {
            // Above every key of `ascending`, so in neither collection (`others` holds keys below
            // the last of `ascending` when they were recorded, and that last only grows).
            ascending.append(key)
            return true
        }
        if key == last || ascending.sortedIndex(of: key) != nil {
            return removed.remove(FastObjectKey(key)) != nil
        }
        return others.insert(FastObjectKey(key)).inserted
    }

    /// Takes `key` back; false when it was not recorded.
    @discardableResult
    mutating func remove(_ key: Int64) -> Bool {
        if others.remove(FastObjectKey(key)) != nil { return true }
        guard ascending.sortedIndex(of: key) != nil else { return false }
        return removed.insert(FastObjectKey(key)).inserted
    }

    /// The recorded keys, ascending.
    func sorted() -> [Int64] {
        let kept = removed.isEmpty ? ascending : ascending.filter { !removed.contains(FastObjectKey($0)) }
        if others.isEmpty { return kept }
        let rest = others.map(\.key).sorted()
        var merged: [Int64] = []
        merged.reserveCapacity(kept.count + rest.count)
        var i = 0, j = 0
        while i < kept.count && j < rest.count {
            if kept[i] < rest[j] { merged.append(kept[i]); i += 1 } else { merged.append(rest[j]); j += 1 }
        }
        merged.append(contentsOf: kept[i...])
        merged.append(contentsOf: rest[j...])
        return merged
    }
}
