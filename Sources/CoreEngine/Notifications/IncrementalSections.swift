/// New sections from the last ones and the objects a range of commits touched, without
/// evaluating the results again: the sectioned results' counterpart of
/// `CollectionNotifier.resortIncrementally`.
///
/// It applies where sections are runs of the sorted results, in the order of their keys:
/// sections by a property of the objects themselves that is also the first sort key (what
/// `Results.sectioned(by:)` makes), over self-contained results (`Results.isSelfContained`) with
/// no operation but that sort. Objects the commits did not touch keep their section and their
/// order, since none of the values they are sorted or sectioned by changed. The touched ones that
/// still match are placed by binary search in their section, reading O(log n) sort values each;
/// sections left empty go, and new ones are placed by their key. The cost is one pass over the old
/// keys plus what the change touched, instead of a sort and a grouping of every object.
struct IncrementalSections {
    let results: Results
    let descriptors: [SortDescriptor]

    /// nil when the sections cannot be updated this way (see the type's description).
    init?(_ sectioned: SectionedResults) {
        let results = sectioned.results
        guard case let .keyPath(path) = sectioned.sectionKey, path.links.isEmpty, results.isSelfContained,
              results.operations.count == 1, case let .sort(descriptors) = results.operations[0],
              let first = descriptors.first, first.path.links.isEmpty,
              first.property.columnID == path.property.columnID else { return nil }
        // Sections are keyed by value equality and placed by sort order: the two must agree. They do
        // for every scalar type but decimal128 (1.0 and 1.00 are equal in order, not in value) and
        // mixed (1 and 1.0).
        switch path.property.column.type {
        case .bool, .int, .float, .double, .string, .data, .timestamp, .objectID, .uuid: break
        default: return nil
        }
        guard path.property.column.isScalar else { return nil }
        self.results = results
        self.descriptors = descriptors
    }

    /// The new sections, and where the modified objects the update did not move are.
    struct Update {
        var sections: [SectionedResults.Section]
        /// By old section index, for sections the update left as they were (the same arrays):
        /// the indices of the objects of `modified` in them. Nil when they were not located
        /// (`SectionedChange.between` then looks for them).
        var modifiedInUntouched: [Int: [Int]]?
        /// Whether the touched objects' old places were found by search (true) or by a pass over
        /// the sections (false); nil when no object was touched.
        var searchedOldPlaces: Bool?
    }

    /// The sections after the commits whose changes to the class are `table`.
    /// - Parameters:
    ///   - before: the snapshot `old` was computed in, if still open: the touched objects' old
    ///     places are then found by binary search with their old values, not by a pass over
    ///     every section.
    ///   - modified: the objects whose observed properties changed (nil: every object).
    func update(_ old: [SectionedResults.Section], _ table: CoalescedChanges.Table, _ transaction: StorageTransaction,
                before: StorageTransaction?, modified: Set<Int64>?) throws -> Update {
        let touched = results.touchedKeys(table, extraColumns: descriptors.map(\.property.columnID))
        let root = results.classInfo.tableID
        func row(_ key: Int64, in transaction: StorageTransaction) throws -> SortRow {
            (key, try descriptors.map { try transaction.value(table: root, column: $0.property.column, key: key) })
        }
        func row(_ key: Int64) throws -> SortRow { try row(key, in: transaction) }
        // Modified objects the commits did not move keep their place: found with today's values.
        let untouchedModified = modified.map { $0.subtracting(touched) }
        let modifiedPlaces = try untouchedModified.flatMap { try locate($0, in: old, transaction, row: row) }
        if touched.isEmpty {
            return Update(sections: old, modifiedInUntouched: modifiedPlaces.map { Self.itemsBySection($0) }, searchedOldPlaces: nil)
        }
        let oldPlaces = try before.flatMap { try locate(touched, in: old, $0, row: row) }
        let removedBySection = oldPlaces.map { Self.itemsBySection($0) }
        var placed = try results.matching(touched.subtracting(table.deletions), transaction).map(row)
        placed.sort { RowOrdering.precedes($0, $1, descriptors) }
        // The placed objects by section, in section order (the first sort value is the section key).
        var groups: [(key: Value, rows: ArraySlice<SortRow>)] = []
        var start = 0
        for end in placed.indices.dropFirst() where placed[end].values[0] != placed[start].values[0] {
            groups.append((placed[start].values[0], placed[start..<end]))
            start = end
        }
        if start < placed.count { groups.append((placed[start].values[0], placed[start...])) }
        let first = descriptors[0]
        func sectionPrecedes(_ a: Value, _ b: Value) -> Bool {
            let order = ValueOrdering.sortCompare(a, b)
            return first.ascending ? order < 0 : order > 0
        }
        let oldKeys = Set(old.map(\.key))
        var placedIn: [Value: ArraySlice<SortRow>] = [:]
        var newGroups: [(key: Value, rows: ArraySlice<SortRow>)] = []
        for group in groups {
            if oldKeys.contains(group.key) { placedIn[group.key] = group.rows } else { newGroups.append(group) }
        }

        var sections: [SectionedResults.Section] = []
        sections.reserveCapacity(old.count + newGroups.count)
        var nextNew = 0
        var modifiedInUntouched: [Int: [Int]]? = modifiedPlaces.map { _ in [:] }
        let modifiedItems = modifiedPlaces.map { Self.itemsBySection($0) }
        for (index, section) in old.enumerated() {
            while nextNew < newGroups.count && sectionPrecedes(newGroups[nextNew].key, section.key) {
                sections.append(SectionedResults.Section(key: newGroups[nextNew].key, objectKeys: newGroups[nextNew].rows.map(\.key)))
                nextNew += 1
            }
            let removed = removedBySection.map { $0[index] ?? [] } ?? section.objectKeys.positions(of: touched).map(\.index)
            let entering = placedIn[section.key] ?? []
            if removed.isEmpty && entering.isEmpty {
                sections.append(section)  // untouched: the same array, which `between` recognizes
                if let items = modifiedItems?[index] { modifiedInUntouched?[index] = items }
                continue
            }
            let placed = Array(entering)
            let ranks = try KeysWithout(section.objectKeys, removing: removed).ranks(of: placed, by: descriptors, row: row)
            var keys = section.objectKeys
            keys.replace(removing: removed, inserting: placed.map(\.key), keptBefore: ranks)
            if !keys.isEmpty { sections.append(SectionedResults.Section(key: section.key, objectKeys: keys)) }
        }
        for group in newGroups[nextNew...] {
            sections.append(SectionedResults.Section(key: group.key, objectKeys: group.rows.map(\.key)))
        }
        return Update(sections: sections, modifiedInUntouched: modifiedInUntouched, searchedOldPlaces: oldPlaces != nil)
    }

    /// Where each of `keys` is in `sections` (as they were at `transaction`'s version): its
    /// section's index and its index there, found by binary search with its values at that
    /// version. Objects not in the sections then are left out. Nil when there are too many to
    /// search for (a pass costs less: see `CollectionNotifier.oldPositions`) or a search misses.
    private func locate(_ keys: Set<Int64>, in sections: [SectionedResults.Section], _ transaction: StorageTransaction,
                        row: (Int64, StorageTransaction) throws -> SortRow) throws -> [(section: Int, item: Int)]? {
        if keys.isEmpty { return [] }
        let total = sections.reduce(0) { $0 + $1.objectKeys.count }
        guard keys.count <= max(16, total / 8192) else { return nil }
        let root = results.classInfo.tableID
        var present = Set<Int64>()
        for key in keys where try transaction.objectExists(table: root, key: key) { present.insert(key) }
        var sectionIndex: [Value: Int] = [:]
        for (index, section) in sections.enumerated() { sectionIndex[section.key] = index }
        var places: [(section: Int, item: Int)] = []
        for key in try results.matching(present, transaction) {
            let target = try row(key, transaction)
            guard let index = sectionIndex[target.values[0]] else { return nil }
            let objectKeys = sections[index].objectKeys
            let low = try RowOrdering.insertionIndex(of: target, in: objectKeys, descriptors) { try row($0, transaction) }
            guard low < objectKeys.count, objectKeys[low] == key else { return nil }
            places.append((index, low))
        }
        return places
    }

    /// Places grouped by section, each section's items ascending.
    private static func itemsBySection(_ places: [(section: Int, item: Int)]) -> [Int: [Int]] {
        var items: [Int: [Int]] = [:]
        for place in places { items[place.section, default: []].append(place.item) }
        for section in items.keys { items[section]!.sort() }
        return items
    }
}
