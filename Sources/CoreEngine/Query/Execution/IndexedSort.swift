/// Serves `SORT(...)` followed by `LIMIT(n)` by reading an index in order instead of sorting.
///
/// An index serves a sort when its properties are exactly the sort's properties, in order, all
/// ascending or all descending: a single-property index for a one-key sort, a compound index for
/// a multi-key one. Index order is sort order (nulls first, strings by code points), and entries
/// with equal values are ordered by object key, which is the stable sort's tie order; descending
/// walks read each run of equal values forwards so ties keep it too. The walk evaluates the
/// query on the entries it reads, a batch at a time, and stops once it has `limit` matches.
///
/// It gives up (the caller then sorts) when no index fits, when an entry's value was truncated
/// in the index (long strings order only by their first bytes there), or when a selective query
/// makes the walk read many entries for few matches.
struct IndexedSort {
    let classInfo: ClassInfo
    let predicate: CompiledPredicate
    let descriptors: [SortDescriptor]

    /// Entries read per predicate evaluation.
    private static let batchSize = 256

    /// The first `limit` keys in sort order, or nil when no index can serve the sort.
    func keys(_ transaction: StorageTransaction, limit: Int) throws -> [Int64]? {
        guard limit > 0, let first = descriptors.first,
              descriptors.allSatisfy({ $0.ascending == first.ascending }),
              let source = indexSource() else { return nil }
        let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate)
        let filters: Bool
        if case .constant(true) = predicate { filters = false } else { filters = true }
        let maxEntries = filters ? max(8192, 16 * limit) : .max

        var result: [Int64] = []
        var batch: [Int64] = []
        var read = 0
        var gaveUp = false
        func flush() throws {
            if filters {
                let matching = try evaluator.matches(among: batch, transaction)
                result += batch.lazy.filter { matching.contains($0) }.prefix(limit - result.count)
            } else {
                result += batch.prefix(limit - result.count)
            }
            batch.removeAll(keepingCapacity: true)
        }
        // Takes one run of entries with equal values (object keys ascending); false to stop.
        func take(_ run: [Int64]) throws -> Bool {
            batch += run
            read += run.count
            if batch.count >= Self.batchSize || (!filters && result.count + batch.count >= limit) { try flush() }
            if result.count >= limit { return false }
            if read > maxEntries { gaveUp = true; return false }
            return true
        }
        // Without a query, exactly `limit` entries are needed: hand them over in one run.
        let completed = try walk(source, ascending: first.ascending, runLength: filters ? Self.batchSize : min(limit, Self.batchSize),
                                 transaction, take)
        if gaveUp || !completed { return nil }
        if result.count < limit { try flush() }
        return result
    }

    private enum Source {
        case column(UInt32, PropertyType)
        case compound(CompoundIndexSpec)
    }

    private func indexSource() -> Source? {
        let columns = descriptors.map(\.property.columnID)
        if columns.count == 1, descriptors[0].property.column.isIndexed {
            return .column(columns[0], descriptors[0].property.type)
        }
        return classInfo.compoundIndexes.first { $0.properties.map(\.columnID) == columns }.map { .compound($0.index) }
    }

    /// Walks the index in order, handing runs of equal values to `take`; returns false when an
    /// entry was truncated (the order is not exact there).
    private func walk(_ source: Source, ascending: Bool, runLength: Int, _ transaction: StorageTransaction,
                      _ take: ([Int64]) throws -> Bool) throws -> Bool {
        let prefix: [UInt8]
        let truncation: Truncation
        switch source {
        case let .column(column, type):
            prefix = StorageKeys.blockPrefix(table: classInfo.tableID, column: column)
            // table | column | marker | payload: a full payload may have been cut.
            truncation = type == .string || type == .data ? .atLength(9 + IndexKeyEncoding.maxPayload) : .never
        case let .compound(index):
            prefix = StorageKeys.blockPrefix(table: classInfo.tableID, column: index.id)
            let types = index.columns.map(\.type)
            if types.contains(where: { $0 == .string || $0 == .data }) {
                // A cut component holds its whole budget plus a marker and a terminator.
                let budget = CompoundIndexKeyEncoding.budget(componentCount: types.count)
                truncation = .components(types, shortestCut: prefix.count + 3 + budget)
            } else {
                truncation = .never
            }
        }
        var entries = try IndexEntryCursor(transaction.lmdb, prefix: prefix, reverse: !ascending)
        var run: [Int64] = []
        run.reserveCapacity(runLength)
        if ascending {
            while let (key, objectKey) = try entries.next() {
                if truncation.applies(to: key) { return false }
                run.append(objectKey)
                if run.count >= runLength {
                    defer { run.removeAll(keepingCapacity: true) }
                    if try !take(run) { return true }
                }
            }
            if !run.isEmpty { _ = try take(run) }
        } else {
            // Backwards, a run of equal values arrives in descending key order: collect it whole
            // and hand it over reversed.
            var runKey: [UInt8] = []
            while let (key, objectKey) = try entries.next() {
                if truncation.applies(to: key) { return false }
                if !run.isEmpty && !key.elementsEqual(runKey) {
                    defer { run.removeAll(keepingCapacity: true) }
                    if try !take(run.reversed()) { return true }
                }
                if run.isEmpty { runKey = Array(key) }
                run.append(objectKey)
            }
            if !run.isEmpty { _ = try take(run.reversed()) }
        }
        return true
    }

    /// Which index keys may have been cut short (their order is then not exact).
    private enum Truncation {
        case never
        /// A single-property key of this length or longer.
        case atLength(Int)
        /// A compound key with a cut component; none shorter than `shortestCut` has one.
        case components([PropertyType], shortestCut: Int)

        func applies(to key: UnsafeRawBufferPointer) -> Bool {
            switch self {
            case .never: return false
            case let .atLength(length): return key.count >= length
            case let .components(types, shortestCut):
                return key.count >= shortestCut && CompoundIndexKeyEncoding.isTruncated(key, types: types)
            }
        }
    }
}
