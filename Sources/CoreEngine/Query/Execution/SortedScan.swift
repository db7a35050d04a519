/// A row being sorted: an object key and its sort values, in descriptor order.
typealias SortRow = (key: Int64, values: [Value])

/// The order of rows under sort descriptors: `ValueOrdering.sortCompare` per descriptor, ties by
/// key (shared by the sorted scan, sorts of keys already found, and notifications that re-place
/// changed objects).
enum RowOrdering {
    /// Orders rows by the descriptors; ties are broken by `tieBreak` (by default key order, the
    /// order objects were created).
    static func precedes(_ a: SortRow, _ b: SortRow, _ descriptors: [SortDescriptor],
                         tieBreak: (Int64, Int64) -> Bool = { $0 < $1 }) -> Bool {
        for (index, descriptor) in descriptors.enumerated() {
            let order = ValueOrdering.sortCompare(a.values[index], b.values[index])
            if order != 0 { return descriptor.ascending ? order < 0 : order > 0 }
        }
        return tieBreak(a.key, b.key)
    }

    /// The index in `keys` (sorted by the descriptors, ties by key) before which `target` goes:
    /// the index of its own key when `keys` holds it. Reads O(log n) rows through `row`.
    static func insertionIndex(of target: SortRow, in keys: [Int64], _ descriptors: [SortDescriptor],
                               row: (Int64) throws -> SortRow) throws -> Int {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if precedes(try row(keys[mid]), target, descriptors) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Sorts rows by the descriptors, ties by key. One int or double descriptor sorts plain
    /// (rank, value, key) triples instead of comparing `Value` arrays: the same order
    /// (`ValueOrdering.sortCompare`: null, then NaN, then values), several times faster.
    static func sort(_ rows: inout [SortRow], _ descriptors: [SortDescriptor]) {
        guard descriptors.count == 1, rows.count > 1 else {
            rows.sort { precedes($0, $1, descriptors) }
            return
        }
        let ascending = descriptors[0].ascending
        // rank: 0 null, 1 NaN, 2 a value; both directions break ties by key, ascending.
        var triples: [(rank: Int8, int: Int64, double: Double, row: Int32)] = []
        triples.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            switch row.values[0] {
            case .null: triples.append((0, 0, 0, Int32(i)))
            case let .int(v): triples.append((2, v, 0, Int32(i)))
            case let .double(v) where v.isNaN: triples.append((1, 0, 0, Int32(i)))
            case let .double(v): triples.append((2, 0, v, Int32(i)))
            default:
                rows.sort { precedes($0, $1, descriptors) }
                return
            }
        }
        guard rows.count <= Int(Int32.max) else {
            rows.sort { precedes($0, $1, descriptors) }
            return
        }
        triples.sort { a, b in
            if a.rank != b.rank { return ascending ? a.rank < b.rank : a.rank > b.rank }
            if a.int != b.int { return ascending ? a.int < b.int : a.int > b.int }
            if a.double != b.double { return ascending ? a.double < b.double : a.double > b.double }
            return rows[Int(a.row)].key < rows[Int(b.row)].key
        }
        rows = triples.map { rows[Int($0.row)] }
    }
}

/// Matching and sorting in one scan: the sort values are read in place from the blocks the
/// predicate is evaluated on; with a limit, only the best rows are kept as the scan goes (top-k).
struct SortedScan {
    let classInfo: ClassInfo
    let predicate: CompiledPredicate
    let descriptors: [SortDescriptor]

    /// The keys of the matching objects in sort order, only the first `limit` when given.
    func keys(_ transaction: StorageTransaction, limit: Int?) throws -> [Int64] {
        if limit == 0 { return [] }
        let columns = descriptors.map(\.property.columnID)
        let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate, extraColumns: columns)
        var rows: [SortRow] = []
        let keep = limit ?? .max
        let flushAt = limit.map { max(2 * $0, 1024) } ?? .max
        // Once `keep` rows are held, the first sort value of the worst of them: a row whose first
        // value sorts after it cannot enter, and is skipped before its other values are read
        // (for a sort by age and name, most rows cost one int comparison, not a string).
        var cutoff: Value?
        let firstAscending = descriptors.first?.ascending ?? true
        try evaluator.run(transaction) { scan, mask in
            let blocks = descriptors.map { evaluator.block($0.property.columnID, in: scan) }
            func value(_ i: Int, _ slot: Int) -> Value {
                let property = descriptors[i].property
                guard let block = blocks[i] else { return property.isOptional ? .null : property.type.defaultValue }
                return block.value(at: slot, type: property.type, optional: property.isOptional)
            }
            mask.forEach { slot in
                if let cutoff {
                    let order = ValueOrdering.sortCompare(value(0, slot), cutoff)
                    if firstAscending ? order > 0 : order < 0 { return }
                }
                rows.append((scan.key(slot), descriptors.indices.map { value($0, slot) }))
            }
            if rows.count >= flushAt {
                RowOrdering.sort(&rows, descriptors)
                rows.removeLast(rows.count - keep)
                cutoff = rows.last?.values.first
            }
            return true
        }
        RowOrdering.sort(&rows, descriptors)
        if rows.count > keep { rows.removeLast(rows.count - keep) }
        return rows.map(\.key)
    }
}
