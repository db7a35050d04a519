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
package final class Results {
    package let realm: Realm
    package let classInfo: ClassInfo
    package let predicate: CompiledPredicate
    package let operations: [ResultsOperation]
    let source: ResultsSource
    /// A snapshot's fixed keys; nil for live results.
    private let frozenKeys: [Int64]?

    private var cachedKeys: [Int64] = []
    private var cacheStamp: StateStamp?
    /// For self-contained results, the columns of the class their keys depend on (the query's,
    /// the sorts' and the distincts'); nil for others, whose keys any write may change.
    private lazy var cacheDependencies: [UInt32]? = {
        guard isSelfContained else { return nil }
        var columns = predicate.columns.map(\.columnID)
        for operation in operations {
            switch operation {
            case let .sort(descriptors): columns += descriptors.map(\.property.columnID)
            case let .distinct(paths): columns += paths.map(\.property.columnID)
            case .limit: break
            }
        }
        return columns
    }()

    package convenience init(realm: Realm, classInfo: ClassInfo, predicate: CompiledPredicate = .constant(true),
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

    package var isSnapshot: Bool { frozenKeys != nil }

    /// The same results read through another realm handle of the file (frozen or live).
    func rebound(to other: Realm) -> Results {
        Results(realm: other, classInfo: (try? other.classInfo(tableID: classInfo.tableID)) ?? classInfo,
                predicate: predicate, operations: operations, source: source)
    }

    // MARK: Deriving

    /// Narrows the results: both predicates must hold. Sort, distinct and limit are kept.
    package func filter(_ predicate: CompiledPredicate) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: .all([self.predicate, predicate]), operations: operations, source: source)
    }

    package func sorted(by descriptors: [SortDescriptor]) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.sort(descriptors)], source: source)
    }

    package func distinct(by properties: [PropertyInfo]) -> Results {
        distinct(byPaths: properties.map { PropertyPath(property: $0) })
    }

    /// Keeps the first object of each distinct combination of values (through to-one links).
    package func distinct(byPaths paths: [PropertyPath]) -> Results {
        Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.distinct(paths)], source: source)
    }

    /// - Throws: `.invalidArgument` for a negative limit.
    package func limit(_ count: Int) throws -> Results {
        guard count >= 0 else { throw DBError(.invalidArgument, "the limit must not be negative (got \(count))") }
        return Results(realm: realm, classInfo: classInfo, predicate: predicate, operations: operations + [.limit(count)], source: source)
    }

    /// A frozen list of the current objects: later writes do not change which objects it holds
    /// (an object deleted later stays in it, invalid).
    package func snapshot() throws -> Results {
        Results(snapshotOf: self, keys: try keys())
    }

    // MARK: Evaluation

    /// The keys of the matching objects, in results order.
    package func keys() throws -> [Int64] {
        if let frozenKeys { return frozenKeys }
        return try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            if isCacheCurrent(transaction) { return cachedKeys }
            cachedKeys = try evaluate(transaction)
            cacheStamp = StateStamp(transaction)
            return cachedKeys
        }
    }

    /// Whether the cached keys are what `transaction` shows (under the realm's lock). For
    /// self-contained results, no change since they were computed may have touched their class's
    /// objects (created, deleted) or the columns they read: within the transaction, as its
    /// `MutationFootprint` tells; across transactions, as the commit records between the two
    /// versions tell, from a read transaction or from a write this realm committed (a cancelled
    /// one's keys may hold what it undid). A write of another column leaves them current.
    private func isCacheCurrent(_ transaction: StorageTransaction) -> Bool {
        let now = StateStamp(transaction)
        guard let stamp = cacheStamp else { return false }
        if stamp == now { return true }
        guard let columns = cacheDependencies else { return false }
        let table = classInfo.tableID
        if stamp.transaction == now.transaction {
            guard transaction.footprint.isUnchanged(table: table, columns: columns, since: stamp.mutations) else { return false }
        } else {
            guard stamp.version <= now.version, !stamp.isWrite || realm.lastCommittedWrite == stamp.transaction,
                  transaction.footprint.isUnchanged(table: table, columns: columns, since: 0),
                  let changes = try? CoalescedChanges(transaction, from: stamp.version, to: now.version),
                  changes.isComplete, !changes.schemaChanged
            else { return false }
            if let changed = changes.tables[table] {
                guard changed.insertions.isEmpty, changed.deletions.isEmpty,
                      changed.modified(in: Set(columns)).isEmpty else { return false }
            }
        }
        cacheStamp = now
        return true
    }

    /// The keys at `transaction`, which may be another snapshot than the realm's (notifications
    /// compute ahead on another thread); the results' cache is left alone.
    func evaluateKeys(_ transaction: StorageTransaction) throws -> [Int64] {
        if let frozenKeys { return frozenKeys }
        return try evaluate(transaction)
    }

    /// How these results find their keys (see `QueryPlan`).
    func plan() throws -> QueryPlan {
        try QueryPlan(classInfo: classInfo, predicate: predicate, operations: operations, source: source)
    }

    private func evaluate(_ transaction: StorageTransaction) throws -> [Int64] {
        evaluations += 1
        return try QueryExecutor(plan: plan()).keys(transaction)
    }

    /// How many times these results found their keys for `keys()` or `count()` (for tests and
    /// diagnostics: reads after writes that cannot change them find none).
    package private(set) var evaluations = 0

    // MARK: Access

    /// The number of matching objects. Without sort/distinct/limit it counts in place, except
    /// when an index finds the candidates: then it keeps the matching keys for the reads to come.
    package func count() throws -> Int {
        if frozenKeys != nil || !operations.isEmpty || !isWholeClass { return try keys().count }
        return try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            if isCacheCurrent(transaction) { return cachedKeys.count }
            let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate)
            if case .constant(true) = predicate { return try evaluator.matchCount(transaction) }
            let access = try evaluator.accessPath(transaction)
            if case .clusterScan = access { return try evaluator.matchCount(transaction, through: access) }
            // An index found the candidates: keep the matching keys (what `keys()` evaluates the
            // same way), since reading the results usually comes next, rather than scanning the
            // index again then.
            evaluations += 1
            cachedKeys = try evaluator.matchingKeys(transaction, through: access)
            cacheStamp = StateStamp(transaction)
            return cachedKeys.count
        }
    }

    /// The object at a position.
    /// - Throws: `.outOfRange` for a negative index or one past the end.
    package func object(at index: Int) throws -> ObjectAccessor {
        let keys = try self.keys()
        guard index >= 0, index < keys.count else {
            throw DBError(.outOfRange, "index \(index) is out of range (the results have \(keys.count) objects)")
        }
        return ObjectAccessor(realm: realm, classInfo: classInfo, key: keys[index])
    }

    package func first() throws -> ObjectAccessor? {
        try keys().first.map { ObjectAccessor(realm: realm, classInfo: classInfo, key: $0) }
    }

    package func last() throws -> ObjectAccessor? {
        try keys().last.map { ObjectAccessor(realm: realm, classInfo: classInfo, key: $0) }
    }

    /// The position of an object, or nil if it is not in the results.
    package func index(of object: ObjectAccessor) throws -> Int? {
        guard object.classInfo.tableID == classInfo.tableID,
              object.realm === realm || object.realm.filePath == realm.filePath else { return nil }
        return try keys().firstIndex(of: object.key)
    }

    /// The position of the first object that also matches `predicate`.
    package func index(matching predicate: CompiledPredicate) throws -> Int? {
        let matching = Set(try Results(realm: realm, classInfo: classInfo, predicate: predicate).keys())
        return try keys().firstIndex { matching.contains($0) }
    }

    /// How many objects `description` shows; the rest are counted.
    package static let describedObjects = 100

    /// "Results<Person> (\n\t[0] Person {\n\t\tname = Ann;\n\t},\n...)", as Realm describes a
    /// collection: its first `describedObjects` objects, then how many more there are.
    package func description() throws -> String {
        let keys = try self.keys()
        var text = "Results<\(classInfo.name)> ("
        for (index, key) in keys.prefix(Self.describedObjects).enumerated() {
            let object = ObjectAccessor(realm: realm, classInfo: classInfo, key: key).description
            text += (index == 0 ? "\n" : ",\n") + "\t[\(index)] " + object.replacingNewlines(with: "\n\t")
        }
        if keys.count > Self.describedObjects {
            let more = keys.count - Self.describedObjects
            text += ",\n\t... and \(more) more \(more == 1 ? "object" : "objects")"
        }
        return text + (keys.isEmpty ? ")" : "\n)")
    }

    /// The objects at several positions.
    package func objects(at indexes: [Int]) throws -> [ObjectAccessor] {
        try indexes.map { try object(at: $0) }
    }
}

private extension String {
    /// The text with each newline replaced (to indent a nested description).
    func replacingNewlines(with replacement: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
