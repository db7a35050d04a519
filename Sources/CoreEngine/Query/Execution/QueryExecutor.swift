/// Runs a `QueryPlan` against one snapshot (or write) and returns the keys in results order.
struct QueryExecutor {
    let plan: QueryPlan

    func keys(_ transaction: StorageTransaction) throws -> [Int64] {
        let classInfo = plan.classInfo, predicate = plan.predicate
        var keys: [Int64]
        switch plan.firstStep {
        case let .relationshipKeys(provider):
            keys = try provider(transaction)
            if case .constant(true) = predicate {} else {
                let matching = try PredicateEvaluator(classInfo: classInfo, predicate: predicate).matches(among: keys, transaction)
                keys = keys.filter(matching.contains)
            }
        case let .indexOrderedTopK(descriptors, limit):
            if let served = try IndexedSort(classInfo: classInfo, predicate: predicate, descriptors: descriptors)
                .keys(transaction, limit: limit) {
                keys = served
            } else {
                keys = try SortedScan(classInfo: classInfo, predicate: predicate, descriptors: descriptors).keys(transaction, limit: limit)
            }
        case let .sortedScan(descriptors, limit):
            keys = try SortedScan(classInfo: classInfo, predicate: predicate, descriptors: descriptors).keys(transaction, limit: limit)
        case .matchingKeys:
            let evaluator = PredicateEvaluator(classInfo: classInfo, predicate: predicate)
            keys = try evaluator.matchingKeys(transaction, through: try evaluator.accessPath(transaction))
        }
        for operation in plan.remaining {
            switch operation {
            case let .sort(descriptors): keys = try sort(keys, descriptors, transaction)
            case let .distinct(paths): keys = try distinct(keys, paths, transaction)
            case let .limit(count): if keys.count > count { keys.removeLast(keys.count - count) }
            }
        }
        return keys
    }

    /// Sorts keys already found by values read per object (through links too). Stable: ties
    /// keep their current order (their position, not their key: a list may hold one object twice).
    private func sort(_ keys: [Int64], _ descriptors: [SortDescriptor], _ transaction: StorageTransaction) throws -> [Int64] {
        guard !descriptors.isEmpty else { return keys }
        let table = plan.classInfo.tableID
        let rows: [SortRow] = try keys.map { key in
            (key, try descriptors.map { try $0.path.value(table: table, key: key, transaction) })
        }
        let order = rows.indices.sorted { a, b in
            RowOrdering.precedes((Int64(a), rows[a].values), (Int64(b), rows[b].values), descriptors)
        }
        return order.map { keys[$0] }
    }

    /// Keeps the first object of each distinct combination of values.
    private func distinct(_ keys: [Int64], _ paths: [PropertyPath], _ transaction: StorageTransaction) throws -> [Int64] {
        var seen = Set<[Value]>()
        let table = plan.classInfo.tableID
        return try keys.filter { key in
            seen.insert(try paths.map { try $0.value(table: table, key: key, transaction) }).inserted
        }
    }
}
