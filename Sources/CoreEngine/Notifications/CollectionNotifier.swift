/// The callbacks registered on one Results, and the state they were last told about.
///
/// At each delivery the notifier compares the results at the realm's new version with the keys it
/// last delivered, using the change records of the commits in between. For results of a whole
/// class filtered by conditions on its own properties (no sort, distinct or limit), only the
/// objects the commits touched are evaluated, so the cost follows the size of the change, not of
/// the results; other results are evaluated again and compared whole.
///
/// Tokens share the comparison: when any token's key paths are satisfied (or objects were inserted
/// or deleted), every token of the collection is called, each with the modifications its own key
/// paths select, as the seeds describe.
final class CollectionNotifier: CollectionObserving {
    static let initialChange = CollectionChange.initial
    let results: Results
    var subscriptions: [Subscription<CollectionChange>] = []
    private var keys: [Int64]?
    private var version: UInt64 = 0
    /// For sorted results: the realm's read transaction at `version`, so that the old indices of
    /// the objects a commit touched are found by binary search with their old sort values
    /// instead of a pass over every key.
    private var snapshot = PinnedSnapshot()

    init(results: Results) {
        self.results = results
    }

    /// A comparison computed ahead of delivery, possibly off the owner's thread (`precompute`).
    private struct Computed {
        var from: UInt64
        var to: UInt64
        var tokens: [ObjectIdentifier?]
        var keys: [Int64]
        var perToken: [CollectionChange]
        var triggered: Bool
    }

    private var pending: Computed?
    /// How many deliveries used a comparison computed ahead (for tests and diagnostics).
    private(set) var precomputedDeliveries = 0
    /// How many comparisons of sorted results found the touched objects' old indices by binary
    /// search in the pinned snapshot, and how many by a pass over the keys (tests, diagnostics).
    private(set) var oldIndexSearches = 0, oldIndexScans = 0

    /// The version a comparison was computed ahead for, if any.
    var precomputedVersion: UInt64? { pending?.to }

    private var tokenIDs: [ObjectIdentifier?] { subscriptions.map { $0.token.map(ObjectIdentifier.init) } }

    /// Compares the results at `transaction` with the last delivered state; returns the calls to
    /// make (outside the realm's lock). Uses the comparison `precompute` prepared when it is for
    /// this version and these tokens.
    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if isUnused { return [] }
        guard keys != nil else {
            keys = try results.evaluateKeys(transaction)
            version = transaction.version
            pending = nil
            keep(transaction)
            return takeInitialCalls()
        }
        let calls = takeInitialCalls()
        guard transaction.version != version else { return calls }
        let computed: Computed
        if let pending, pending.from == version, pending.to == transaction.version, pending.tokens == tokenIDs {
            computed = pending
            precomputedDeliveries += 1
        } else {
            // The keys leave the notifier for the comparison, so that sorted results change them
            // in place (a copy of a million keys cost more than the rest); put back if it fails.
            var old = keys ?? []
            keys = nil
            do {
                computed = try compute(transaction, &old)
            } catch {
                keys = old
                throw error
            }
        }
        pending = nil
        keys = computed.keys
        version = computed.to
        keep(transaction)
        return computed.triggered ? calls + self.calls(computed.perToken) : calls
    }

    /// Pins `transaction` as the snapshot of the delivered keys (sorted results only).
    private func keep(_ transaction: StorageTransaction) {
        if sortedIncrementally { snapshot.keep(transaction, of: results.realm) }
    }

    func release() {
        snapshot.release(from: results.realm)
    }

    /// Whether `compare` resorts the results incrementally: a whole class's objects, one sort.
    private var sortedIncrementally: Bool {
        guard results.isSelfContained, results.operations.count == 1, case .sort = results.operations[0] else { return false }
        return true
    }

    /// Prepares the comparison with `transaction` (a newer snapshot, read on another thread while
    /// the owner is not using the realm), for `prepare` to deliver.
    func precompute(_ transaction: StorageTransaction) throws {
        guard !isUnused, var old = keys, transaction.version != version, pending?.to != transaction.version else { return }
        pending = try compute(transaction, &old)
    }

    /// The comparison of `old` (the delivered keys, at `version`) with the results at `transaction`.
    /// `old` may be changed in place into the new keys (the result's `keys`).
    private func compute(_ transaction: StorageTransaction, _ old: inout [Int64]) throws -> Computed {
        var computed = Computed(from: version, to: transaction.version, tokens: tokenIDs, keys: [], perToken: [], triggered: false)
        let changes = try CoalescedChanges(transaction, from: version, to: transaction.version)
        if results.isSelfContained && changes.isUnchanged(dependentTables) {
            computed.keys = old
            return computed
        }
        let root = results.classInfo.tableID
        let modifiedPerToken = try subscriptions.map { subscription -> Set<Int64>? in
            // Without the records, every object that is still there may have changed.
            guard changes.isComplete, let paths = subscription.paths else { return nil }
            return try paths.modifiedKeys(changes, root: root, transaction)
        }
        let base = try compare(&old, changes, transaction, modifiedPerToken: modifiedPerToken)
        computed.keys = old
        let new = computed.keys
        computed.triggered = !base.deletions.isEmpty || !base.insertions.isEmpty
        for modified in modifiedPerToken {
            var change = base
            let pairs = zip(base.modifications, base.modificationsNew).filter { modified?.contains(new[$0.1]) ?? true }
            change.modifications = pairs.map(\.0)
            change.modificationsNew = pairs.map(\.1)
            computed.triggered = computed.triggered || !change.modifications.isEmpty
            computed.perToken.append(change)
        }
        return computed
    }

    /// Tables whose changes can affect self-contained results: the class, and what the tokens
    /// observe. (Other results, whose query, sort or source reads other classes, are compared
    /// at every new version.)
    private var dependentTables: Set<UInt32> {
        var tables: Set<UInt32> = [results.classInfo.tableID]
        for subscription in subscriptions { tables.formUnion(subscription.paths?.tables ?? []) }
        return tables
    }

    /// The structural change from `keys`, the old keys, which it replaces by the new
    /// (modifications: every element in both that any token considers modified).
    private func compare(_ keys: inout [Int64], _ changes: CoalescedChanges, _ transaction: StorageTransaction,
                         modifiedPerToken: [Set<Int64>?]) throws -> CollectionChange {
        let anyModified: Set<Int64>? = modifiedPerToken.contains { $0 == nil } ? nil
            : modifiedPerToken.reduce(into: Set<Int64>()) { $0.formUnion($1!) }
        if results.isSelfContained, changes.isComplete, !changes.schemaChanged {
            let table = changes.tables[results.classInfo.tableID] ?? .init()
            if results.operations.isEmpty {
                let (new, change) = try compareIncrementally(keys, table, transaction, anyModified ?? [])
                keys = new
                return change
            }
            if results.operations.count == 1, case let .sort(descriptors) = results.operations[0] {
                return try resortIncrementally(&keys, table, descriptors, transaction, anyModified ?? [])
            }
        }
        let new = try results.evaluateKeys(transaction)
        let change = CollectionChange.between(keys, new) { anyModified?.contains($0) ?? true }
        keys = new
        return change
    }

    /// Sorted results of a whole class: the objects the commits did not touch keep their order
    /// (their values did not change); the touched ones that match are placed by binary search,
    /// reading O(log n) sort values each, instead of sorting the class again. Their old indices
    /// are found the same way, with their old values read in the pinned snapshot of the old keys
    /// (one pass over the old keys where there is none), and the keys change in place between
    /// the first and the last index that moved.
    private func resortIncrementally(_ keys: inout [Int64], _ table: CoalescedChanges.Table, _ descriptors: [SortDescriptor],
                                     _ transaction: StorageTransaction, _ modified: Set<Int64>) throws -> CollectionChange {
        let touched = results.touchedKeys(table, extraColumns: descriptors.map(\.property.columnID))
        if touched.isEmpty && modified.isEmpty { return CollectionChange() }
        let root = results.classInfo.tableID
        func row(_ key: Int64, in transaction: StorageTransaction) throws -> SortRow {
            (key, try descriptors.map { try transaction.value(table: root, column: $0.property.column, key: key) })
        }
        var placed = try results.matching(touched.subtracting(table.deletions), transaction).map { try row($0, in: transaction) }
        placed.sort { RowOrdering.precedes($0, $1, descriptors) }

        // The old indices of the touched and modified objects; the untouched ones keep their order.
        var oldIndex: [Int64: Int] = [:]
        var touchedOld: [Int] = []  // ascending
        for (index, key) in try oldPositions(of: touched.union(modified), in: keys, descriptors, row: row) {
            oldIndex[key] = index
            if touched.contains(key) { touchedOld.append(index) }
        }

        // keptBefore, per placed object: the untouched objects before it in the new order (each
        // goes before the first untouched one it precedes).
        let keptBefore = try KeysWithout(keys, removing: touchedOld).ranks(of: placed, by: descriptors) { try row($0, in: transaction) }
        var newIndex: [Int64: Int] = [:]
        for (p, entry) in placed.enumerated() { newIndex[entry.key] = keptBefore[p] + p }

        var change = CollectionChange()
        // Touched objects in both: those keeping their rank among the untouched objects and their
        // order among themselves (a longest increasing subsequence) stay; the others moved.
        var both: [(key: Int64, old: Int, new: Int)] = []
        var sameRank: [Int] = []
        for (p, entry) in placed.enumerated() {
            let after = newIndex[entry.key]!
            guard let before = oldIndex[entry.key] else {
                change.insertions.append(after)
                continue
            }
            if before - touchedOld.countBelow(before) == keptBefore[p] { sameRank.append(both.count) }
            both.append((entry.key, before, after))
        }
        for key in touched where newIndex[key] == nil {
            if let before = oldIndex[key] { change.deletions.append(before) }
        }
        var stays = [Bool](repeating: false, count: both.count)
        let kept2 = CollectionChange.longestIncreasingSubsequence(sameRank.map { both[$0].old })
        for (j, i) in sameRank.enumerated() where kept2[j] { stays[i] = true }
        for (i, pair) in both.enumerated() where !stays[i] {
            change.moves.append(CollectionChange.Move(from: pair.old, to: pair.new))
            change.deletions.append(pair.old)
            change.insertions.append(pair.new)
        }
        change.deletions.sort()
        change.insertions.sort()
        change.moves.sort { $0.from < $1.from }

        // Modifications: touched objects in both, and untouched ones written in other columns
        // (their new index: their rank among the untouched plus the placed objects before them).
        var pairs = both.filter { modified.contains($0.key) }.map { ($0.old, $0.new) }
        for key in modified where !touched.contains(key) {
            guard let before = oldIndex[key] else { continue }
            let rank = before - touchedOld.countBelow(before)
            pairs.append((before, rank + keptBefore.countBelow(rank, orEqual: true)))
        }
        pairs.sort { $0.0 < $1.0 }
        change.modifications = pairs.map(\.0)
        change.modificationsNew = pairs.map(\.1)
        keys.replace(removing: touchedOld, inserting: placed.map(\.key), keptBefore: keptBefore)
        return change
    }

    /// The indices in `keys` (sorted by `descriptors` at the notifier's version) at which `wanted`
    /// occur, ascending. With the pinned snapshot of that version, each is found by binary search
    /// with its old sort values; a pass over the keys otherwise, when the searches would cost more
    /// (a search reads about log2(n) rows, some 3 us at a million keys, where the pass reads 8 MB
    /// in some 0.4 ms: more than about n / 8192 objects, and more than 16, whose searches cost
    /// microseconds at any size), or when a search misses an object the old results held (an
    /// order the search does not reproduce).
    private func oldPositions(of wanted: Set<Int64>, in keys: [Int64], _ descriptors: [SortDescriptor],
                              row: (Int64, StorageTransaction) throws -> SortRow) throws -> [(index: Int, key: Int64)] {
        if wanted.isEmpty { return [] }
        guard let before = snapshot.reading(version), wanted.count <= max(16, keys.count / 8192) else {
            oldIndexScans += 1
            return keys.positions(of: wanted)
        }
        let root = results.classInfo.tableID
        var found: [(index: Int, key: Int64)] = []
        var present = Set<Int64>()
        for key in wanted where try before.objectExists(table: root, key: key) { present.insert(key) }
        let held = try results.matching(present, before)
        for key in held {
            let low = try RowOrdering.insertionIndex(of: row(key, before), in: keys, descriptors) { try row($0, before) }
            guard low < keys.count, keys[low] == key else {
                oldIndexScans += 1
                return keys.positions(of: wanted)
            }
            found.append((low, key))
        }
        oldIndexSearches += 1
        found.sort { $0.index < $1.index }
        return found
    }

    /// Results in key order of a whole class with conditions on its own properties: only the
    /// objects the commits inserted, deleted or modified are looked at.
    private func compareIncrementally(_ old: [Int64], _ table: CoalescedChanges.Table, _ transaction: StorageTransaction,
                                      _ modified: Set<Int64>) throws -> ([Int64], CollectionChange) {
        let predicate = results.predicate
        var candidates = table.insertions
        if case .constant = predicate {} else {
            candidates.formUnion(table.modified(in: Set(predicate.columns.map(\.columnID))))
        }
        candidates.subtract(table.deletions)
        let matching: Set<Int64>
        if case let .constant(value) = predicate {
            matching = value ? candidates : []
        } else {
            matching = candidates.isEmpty ? [] : try PredicateEvaluator(classInfo: results.classInfo, predicate: predicate)
                .matches(among: Array(candidates), transaction)
        }
        var removed = Set<Int64>(), added: [Int64] = []
        for key in table.deletions where old.sortedIndex(of: key) != nil { removed.insert(key) }
        for key in candidates {
            let wasIn = old.sortedIndex(of: key) != nil, isIn = matching.contains(key)
            if wasIn && !isIn { removed.insert(key) }
            if !wasIn && isIn { added.append(key) }
        }
        var change = CollectionChange()
        var new = old
        if !removed.isEmpty || !added.isEmpty {
            change.deletions = removed.compactMap { old.sortedIndex(of: $0) }.sorted()
            var kept = old
            if !removed.isEmpty { kept.removeAll { removed.contains($0) } }
            added.sort()
            new = []
            new.reserveCapacity(kept.count + added.count)
            var i = 0
            for key in added {
                while i < kept.count && kept[i] < key { new.append(kept[i]); i += 1 }
                new.append(key)
            }
            new.append(contentsOf: kept[i...])
            change.insertions = added.compactMap { new.sortedIndex(of: $0) }
        }
        for key in modified.sorted() {
            guard let before = old.sortedIndex(of: key), let after = new.sortedIndex(of: key) else { continue }
            change.modifications.append(before)
            change.modificationsNew.append(after)
        }
        return (new, change)
    }
}

/// What the registry asks of a collection's notifier.
protocol CollectionObserving: SubscribedNotifier where Change == CollectionChange {
    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void]
    /// Lets go of what the notifier holds of the realm (it is being removed; with the lock held).
    func release()
}

extension CollectionObserving {
    func release() {}
}
