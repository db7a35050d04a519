/// Identifies one collection: a column of one object.
struct CollectionID: Hashable {
    var table: UInt32
    var column: UInt32
    var key: Int64
}

/// Lists, sets and dictionaries: each is stored whole, as `PackedValues`, in its object's slot of
/// the column (null for an empty collection). Reads decode a collection once per transaction;
/// a write keeps the decoded contents and encodes them back once, when the blocks are written.
///
/// Contents as the engine holds them: a list in order; a set sorted by `CollectionOrdering`; a
/// dictionary as key, value, key, value, ... with keys (strings) in byte order.
extension StorageTransaction {
    /// Collections decoded in a read transaction beyond this many are dropped from the cache.
    private static let collectionCacheLimit = 4096

    /// The contents of an object's collection (empty when never written).
    func collection(table: UInt32, column: ColumnSpec, key: Int64) throws -> [Value] {
        let id = CollectionID(table: table, column: column.id, key: key)
        if let cached = collectionCache[id] { return cached }
        let contents: [Value]
        switch try slotValue(table: table, column: column, key: key) {
        case let .data(bytes) where !bytes.isEmpty:
            let decoded = try PackedValues.decode(bytes)
            contents = CollectionOrdering.mayNeedNormalizing(column) ? CollectionOrdering.normalizedSet(decoded) : decoded
        default: contents = []
        }
        // Only clean entries count against the limit: a write keeps every collection it changed
        // until commit, and filtering on every read once those alone pass the limit would make a
        // large write quadratic.
        if collectionCache.count - dirtyCollections.count >= Self.collectionCacheLimit {
            collectionCache = collectionCache.filter { dirtyCollections.contains($0.key) }
        }
        collectionCache[id] = contents
        return contents
    }

    /// Replaces an object's collection (contents already validated and in the kind's order),
    /// keeping backlinks in step (and deleting embedded objects it no longer holds).
    func storeCollection(_ contents: [Value], table: UInt32, column: ColumnSpec, key: Int64) throws {
        try requireWrite()
        if column.holdsLinks {
            let old = try collection(table: table, column: column, key: key).flatMap(links(in:))
            try replaceLinks(from: old, to: contents.flatMap(links(in:)), table: table, column: column.id, key: key)
        }
        let id = CollectionID(table: table, column: column.id, key: key)
        journalCollection(id)
        collectionCache[id] = contents
        dirtyCollections.insert(id)
        mutationCount += 1
        footprint.wrote(table: table, column: column.id, at: mutationCount)
    }

    /// Encodes the collections changed by this write (of one table, or all) into their slots.
    func flushCollections(table: UInt32?) throws {
        guard !dirtyCollections.isEmpty else { return }
        for id in dirtyCollections where table == nil || id.table == table {
            journalCollection(id)
            dirtyCollections.remove(id)
            guard let stored = storedSchema.table(id: id.table)?.column(id: id.column), let contents = collectionCache[id],
                  try objectExists(table: id.table, key: id.key) else { continue }
            try writeSlot(contents.isEmpty ? .null : .data(PackedValues.encode(contents)),
                          table: id.table, column: ColumnSpec(stored), key: id.key)
        }
    }
}

/// The order of a set's elements, a total order in which two elements compare equal exactly when
/// they are the same element: null, then NaN (one per number type), then bool, numbers, string,
/// data, date, objectId, uuid, link (`ValueOrdering.kindRank`). Numbers of all types compare by
/// exact value (`ExactNumericOrder`); equal values of different types (1, 1.0 and decimal128 1 in
/// a set of mixed) are different elements, ordered by type: int, float, double, decimal128.
///
/// Sets stored before this order was exact and total may be out of order (a mixed set with
/// decimal128 elements ranked them after strings), even hold a value twice: `normalizedSet`
/// repairs them as they are read.
enum CollectionOrdering {
    static func compare(_ a: Value, _ b: Value) -> Int {
        if a.isNull || b.isNull { return a.isNull ? (b.isNull ? 0 : -1) : 1 }
        let aNaN = a.isNaN, bNaN = b.isNaN
        if aNaN || bNaN { return aNaN ? (bNaN ? typeOrder(a, b) : -1) : 1 }
        if let order = ExactNumericOrder.compare(a, b) { return order != 0 ? order : typeOrder(a, b) }
        let ka = ValueOrdering.kindRank(a), kb = ValueOrdering.kindRank(b)
        if ka != kb { return ka < kb ? -1 : 1 }
        return ValueOrdering.compare(a, b) ?? 0
    }

    private static func typeOrder(_ a: Value, _ b: Value) -> Int {
        let ka = a.propertyType?.rawValue ?? 0, kb = b.propertyType?.rawValue ?? 0
        return ka < kb ? -1 : (ka > kb ? 1 : 0)
    }

    /// Whether a set column's stored order may predate `compare`: sets of mixed values or of
    /// decimal128 (the others always compared exactly, by the same order).
    static func mayNeedNormalizing(_ column: ColumnSpec) -> Bool {
        guard case let .collection(.set, element, _) = column.kind else { return false }
        return element == .mixed || element == .decimal128
    }

    /// A set's elements in order without repeats: `elements` itself when it is already so (the
    /// usual case, checked in one pass), else sorted and with repeats dropped.
    static func normalizedSet(_ elements: [Value]) -> [Value] {
        var index = 1
        while index < elements.count && compare(elements[index - 1], elements[index]) < 0 { index += 1 }
        if index >= elements.count { return elements }
        let sorted = elements.indices.sorted { i, j in
            let order = compare(elements[i], elements[j])
            return order != 0 ? order < 0 : i < j
        }.map { elements[$0] }
        var result: [Value] = []
        result.reserveCapacity(sorted.count)
        for value in sorted where result.last.map({ compare($0, value) != 0 }) ?? true { result.append(value) }
        return result
    }

    /// The position of `value` in sorted `elements`, or where it would be inserted.
    static func search(_ value: Value, in elements: [Value]) -> (index: Int, found: Bool) {
        var low = 0, high = elements.count
        while low < high {
            let mid = (low + high) / 2
            let order = compare(elements[mid], value)
            if order == 0 { return (mid, true) }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return (low, false)
    }
}
