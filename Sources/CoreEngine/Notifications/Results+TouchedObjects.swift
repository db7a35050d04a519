/// What notifiers of live results ask about the objects a range of commits touched, to compare
/// only those instead of evaluating the results again (see `CollectionNotifier` and
/// `IncrementalSections`).
extension Results {
    /// Whether only changes to this class's own objects can change the results: a whole class,
    /// a query, sorts and distincts that read the objects' own properties (no links followed).
    var isSelfContained: Bool {
        guard isWholeClass, !predicate.readsKeyPaths else { return false }
        for operation in operations {
            if case let .sort(descriptors) = operation, descriptors.contains(where: { !$0.path.links.isEmpty }) { return false }
            if case let .distinct(paths) = operation, paths.contains(where: { !$0.links.isEmpty }) { return false }
        }
        return true
    }

    /// The objects that may have entered, left or changed place: inserted, deleted, or written in
    /// a column the query or `extraColumns` (the sort's) read.
    func touchedKeys(_ table: CoalescedChanges.Table, extraColumns: [UInt32]) -> Set<Int64> {
        var touched = table.insertions.union(table.deletions)
        var columns = Set(extraColumns)
        if case .constant = predicate {} else { columns.formUnion(predicate.columns.map(\.columnID)) }
        if !columns.isEmpty { touched.formUnion(table.modified(in: columns)) }
        return touched
    }

    /// Which of `keys` (none deleted) match the query now.
    func matching(_ keys: Set<Int64>, _ transaction: StorageTransaction) throws -> Set<Int64> {
        if case let .constant(value) = predicate { return value ? keys : [] }
        if keys.isEmpty { return [] }
        return try PredicateEvaluator(classInfo: classInfo, predicate: predicate).matches(among: Array(keys), transaction)
    }
}
