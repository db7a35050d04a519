/// Where the objects of a Results come from before its predicate and operations apply.
enum ResultsSource {
    /// Every object of the class.
    case table
    /// The objects a relationship holds, read anew at each evaluation: a list of objects (in
    /// order, duplicates kept), a set, a dictionary's values, or an object's backlinks.
    case keys((StorageTransaction) throws -> [Int64])
}

/// The objects of a class that match a predicate, optionally sorted, made distinct and limited.
///
/// Lazy and live: nothing is evaluated until first asked, and every access re-evaluates when the
/// realm's version or its uncommitted writes have changed since the last evaluation, so a Results
/// always shows what its realm shows (inside a write, the write's changes). Counting and aggregating
/// a Results without sort/distinct/limit scans columns and never materializes objects.
public final class Results {
    public let realm: Realm
    public let classInfo: ClassInfo
    public let predicate: CompiledPredicate
    public let operations: [ResultsOperation]
    let source: ResultsSource
    /// A snapshot's fixed keys; nil for live results.
    private let frozenKeys: [Int64]?

    private var cachedKeys: [Int64] = []
    private var cacheStamp: StateStamp?

    public convenience init(realm: Realm, classInfo: ClassInfo, predicate: CompiledPredicate = .constant(true),
                            operations: [ResultsOperation] = []) {
        self.init(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations, source: .table)
    }

    init(realm: Realm, classInfo: ClassInfo, predicate: CompiledPredicate, operations: [ResultsOperation], source: ResultsSource) {
        self.realm = realm
        self.classInfo = classInfo
        self.predicate = predicate
        self.operations = operations
        self.source = source
        frozenKeys = nil
    }

    /// Whether the objects come from a whole class (so counts and aggregates can scan columns).
    var isWholeClass: Bool { if case .table = source { return true } else { return false } }

    private init(snapshotOf results: Results, keys: [Int64]) {
        realm = results.realm
        classInfo = results.classInfo
        predicate = results.predicate
        operations = results.operations
        source = results.source
        frozenKeys = keys
    }

    public var isSnapshot: Bool { frozenKeys != nil }

    /// The same results read through another realm handle of the file (frozen or live).
    func rebound(to other: Realm) -> Results {
        Results(realm: other, classInfo: (try? other.classInfo(tableID: classInfo.tableID)) ?? classInfo,
                predicate: predicate, operations: operations, source: source)
    }

    // MARK: Deriving

    /// Narrows the results: both predicates must hold. Sort, distinct and limit are kept.
    public func filter(_ predicate: CompiledPredicate) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: .all([self.predicate, predicate]), operations: operations, source: source)
    }

    public func sorted(by descriptors: [SortDescriptor]) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.sort(descriptors)], source: source)
    }

    public func distinct(by properties: [PropertyInfo]) -> Results {
        distinct(byPaths: properties.map { PropertyPath(property: $0) })
    }

    /// Keeps the first object of each distinct combination of values (through to-one links).
    public func distinct(byPaths paths: [PropertyPath]) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.distinct(paths)], source: source)
    }

    /// - Throws: `.invalidArgument` for a negative limit.
    public func limit(_ count: Int) throws -> Results {
        guard count >= 0 else { throw DBError(.invalidArgument, "the limit must not be negative (got \(count))") }
        return Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.limit(count)], source: source)
    }

    /// A frozen list of the current objects: later writes do not change which objects it holds
    /// (an object deleted later stays in it, invalid).
    public func snapshot() throws -> Results {
        Results(snapshotOf: self, keys: try keys())
    }

    // MARK: Evaluation

    /// The keys of the matching objects, in results order.
    public func keys() throws -> [Int64] {
        if let frozenKeys { return frozenKeys }
        return try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            if cacheStamp == StateStamp(transaction) { return cachedKeys }
            cachedKeys = try evaluate(transaction)
            cacheStamp = StateStamp(transaction)
            return cachedKeys
        }
    }

    /// The keys at `transaction`, which may be another snapshot than the realm's (notifications
    /// compute ahead on another thread); the results' cache is left alone.
    func evaluateKeys(_ transaction: StorageTransaction) throws -> [Int64] {
        if let frozenKeys { return frozenKeys }
        return try evaluate(transaction)
    }

    private func evaluate(_ transaction: StorageTransaction) throws -> [Int64] {
        for operation in operations {
            let paths: [PropertyPath]
            switch operation {
            case let .sort(descriptors): paths = descriptors.map(\.path)
            case let .distinct(distinct): paths = distinct
            case .limit: paths = []
            }
            if let other = paths.first(where: { !$0.property.isScalar }) {
                throw DBError(.wrongType, "cannot sort or make distinct by '\(classInfo.name).\(other.name)' (\(other.property.property.typeDescription)): only properties with one scalar value can be used")
            }
        }
        var remaining = operations[...]
        var keys: [Int64]
        if case let .keys(provider) = source {
            keys = try provider(transaction)
            if case .constant(true) = predicate {} else {
                let matching = try PredicateEvaluator(classInfo: classInfo, predicate: predicate).matches(among: keys, transaction)
                keys = keys.filter(matching.contains)
            }
        } else if case let .sort(descriptors)? = remaining.first, descriptors.allSatisfy({ $0.path.links.isEmpty }) {
            // A leading sort reads its values in place during the scan; with a LIMIT right after
            // it, only the best `limit` rows are kept as the scan goes (top-k).
            remaining = remaining.dropFirst()
            var limit: Int?
            if case let .limit(count)? = remaining.first { limit = count; remaining = remaining.dropFirst() }
            if let limit, let served = try IndexedSort(classInfo: classInfo, predicate: predicate, descriptors: descriptors)
                .keys(transaction, limit: limit) {
                keys = served
            } else {
                keys = try sortedScan(transaction, descriptors, limit: limit)
            }
        } else {
            keys = try PredicateEvaluator(classInfo: classInfo, predicate: predicate).matchingKeys(transaction)
        }
        for operation in remaining {
            switch operation {
            case let .sort(descriptors): keys = try sort(keys, descriptors, transaction)
            case let .distinct(properties): keys = try distinct(keys, properties, transaction)
            case let .limit(count): if keys.count > count { keys.removeLast(keys.count - count) }
            }
        }
        return keys
    }

    typealias SortRow = (key: Int64, values: [Value])

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

    /// Sorts rows by the descriptors, ties by key. One int or double descriptor sorts plain
    /// (rank, value, key) triples instead of comparing `Value` arrays: the same order
    /// (`ValueOrdering.sortCompare`: null, then NaN, then values), several times faster.
    private static func sortRows(_ rows: inout [SortRow], _ descriptors: [SortDescriptor]) {
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

    private func sortedScan(_ transaction: StorageTransaction, _ descriptors: [SortDescriptor], limit: Int?) throws -> [Int64] {
        if limit == 0 { return [] }
        let columns = descriptors.map(\.property.columnID)
        let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate, extraColumns: columns)
        var rows: [SortRow] = []
        let keep = limit ?? .max
        let flushAt = limit.map { max(2 * $0, 1024) } ?? .max
        try evaluator.run(transaction) { scan, mask in
            let blocks = descriptors.map { evaluator.block($0.property.columnID, in: scan) }
            mask.forEach { slot in
                let values = descriptors.indices.map { i -> Value in
                    let property = descriptors[i].property
                    guard let block = blocks[i] else { return property.isOptional ? .null : property.type.defaultValue }
                    return block.value(at: slot, type: property.type, optional: property.isOptional)
                }
                rows.append((scan.key(slot), values))
            }
            if rows.count >= flushAt {
                Self.sortRows(&rows, descriptors)
                rows.removeLast(rows.count - keep)
            }
            return true
        }
        Self.sortRows(&rows, descriptors)
        if rows.count > keep { rows.removeLast(rows.count - keep) }
        return rows.map(\.key)
    }

    private func sort(_ keys: [Int64], _ descriptors: [SortDescriptor], _ transaction: StorageTransaction) throws -> [Int64] {
        guard !descriptors.isEmpty else { return keys }
        let table = classInfo.tableID
        let rows: [SortRow] = try keys.map { key in
            (key, try descriptors.map { try $0.path.value(table: table, key: key, transaction) })
        }
        // Stable: ties keep their current order (their position, not their key; a list of objects
        // may hold one object twice).
        let order = rows.indices.sorted { a, b in
            Self.precedes((Int64(a), rows[a].values), (Int64(b), rows[b].values), descriptors)
        }
        return order.map { keys[$0] }
    }

    private func distinct(_ keys: [Int64], _ paths: [PropertyPath], _ transaction: StorageTransaction) throws -> [Int64] {
        var seen = Set<[Value]>()
        let table = classInfo.tableID
        return try keys.filter { key in
            seen.insert(try paths.map { try $0.value(table: table, key: key, transaction) }).inserted
        }
    }

    // MARK: Access

    /// The number of matching objects. Without sort/distinct/limit it counts in place.
    public func count() throws -> Int {
        if frozenKeys != nil || !operations.isEmpty || !isWholeClass { return try keys().count }
        return try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            if cacheStamp == StateStamp(transaction) { return cachedKeys.count }
            return try PredicateEvaluator(classInfo: classInfo, predicate: predicate).matchCount(transaction)
        }
    }

    /// The object at a position.
    /// - Throws: `.outOfRange` for a negative index or one past the end.
    public func object(at index: Int) throws -> ObjectAccessor {
        let keys = try self.keys()
        guard index >= 0, index < keys.count else {
            throw DBError(.outOfRange, "index \(index) is out of range (the results have \(keys.count) objects)")
        }
        return ObjectAccessor(realm: realm, classInfo: classInfo, key: keys[index])
    }

    public func first() throws -> ObjectAccessor? {
        try keys().first.map { ObjectAccessor(realm: realm, classInfo: classInfo, key: $0) }
    }

    public func last() throws -> ObjectAccessor? {
        try keys().last.map { ObjectAccessor(realm: realm, classInfo: classInfo, key: $0) }
    }

    /// The position of an object, or nil if it is not in the results.
    public func index(of object: ObjectAccessor) throws -> Int? {
        guard object.classInfo.tableID == classInfo.tableID,
              object.realm === realm || object.realm.filePath == realm.filePath else { return nil }
        return try keys().firstIndex(of: object.key)
    }

    /// The position of the first object that also matches `predicate`.
    public func index(matching predicate: CompiledPredicate) throws -> Int? {
        let matching = Set(try Results(realm: realm, classInfo: classInfo, predicate: predicate).keys())
        return try keys().firstIndex { matching.contains($0) }
    }

    /// The objects at several positions.
    public func objects(at indexes: [Int]) throws -> [ObjectAccessor] {
        try indexes.map { try object(at: $0) }
    }
}
