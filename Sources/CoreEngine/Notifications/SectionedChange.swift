/// What changed in sectioned results since the previous notification.
///
/// To turn the previous sections into the new ones: remove the objects at `deletions` (old
/// paths), then the sections at `sectionsDeleted` (old indices, with all their objects), then
/// insert the sections at `sectionsInserted` (new indices, with all their objects), then the
/// objects at `insertions` (new paths). `modifications` are the new paths of objects in both
/// whose observed properties changed. A section whose position among the others changed is
/// deleted and inserted; an object that moved is deleted and inserted.
package struct SectionedChange: Equatable, Sendable {
    package var isInitial = false
    package var sectionsInserted: [Int] = []
    package var sectionsDeleted: [Int] = []
    package var insertions: [IndexPath] = []
    package var deletions: [IndexPath] = []
    package var modifications: [IndexPath] = []

    package init(isInitial: Bool = false) { self.isInitial = isInitial }

    package var isEmpty: Bool {
        !isInitial && sectionsInserted.isEmpty && sectionsDeleted.isEmpty && insertions.isEmpty
            && deletions.isEmpty && modifications.isEmpty
    }

    /// The change from `old` to `new` sections; sections are identified by their key.
    /// - Parameters:
    ///   - modified: the objects whose observed properties changed (nil: every object). A section
    ///     whose keys are the very array it had before (an incremental update left it alone) is
    ///     compared in one pass that only looks for these,
    ///   - modifiedInUntouched: or, where the update located them, by old section index, their
    ///     indices there (`IncrementalSections.Update`).
    static func between(_ old: [SectionedResults.Section], _ new: [SectionedResults.Section],
                        modified: Set<Int64>?, modifiedInUntouched: [Int: [Int]]? = nil) -> SectionedChange {
        var change = SectionedChange()
        var oldIndex: [Value: Int] = [:]
        for (index, section) in old.enumerated() { oldIndex[section.key] = index }
        var pairs: [(old: Int, new: Int)] = []
        for (index, section) in new.enumerated() {
            if let before = oldIndex[section.key] { pairs.append((before, index)) }
        }
        // Sections in both that kept their order among themselves stay; the rest are replaced.
        let kept = CollectionChange.longestIncreasingSubsequence(pairs.map(\.old))
        var keptOld = Set<Int>(), keptNew = Set<Int>()
        for (i, pair) in pairs.enumerated() where kept[i] {
            keptOld.insert(pair.old)
            keptNew.insert(pair.new)
            let before = old[pair.old].objectKeys, after = new[pair.new].objectKeys
            if let modified, before.sharesStorage(with: after) {
                let items = modifiedInUntouched.map { $0[pair.old] ?? [] } ?? after.positions(of: modified).map(\.index)
                change.modifications += items.map { IndexPath(section: pair.new, item: $0) }
                continue
            }
            let items = CollectionChange.between(uniqueKeys: before, after, modified: modified)
            change.deletions += items.deletions.map { IndexPath(section: pair.old, item: $0) }
            change.insertions += items.insertions.map { IndexPath(section: pair.new, item: $0) }
            change.modifications += items.modificationsNew.sorted().map { IndexPath(section: pair.new, item: $0) }
        }
        change.sectionsDeleted = old.indices.filter { !keptOld.contains($0) }
        change.sectionsInserted = new.indices.filter { !keptNew.contains($0) }
        change.deletions.sort { ($0.section, $0.item) < ($1.section, $1.item) }
        change.insertions.sort { ($0.section, $0.item) < ($1.section, $1.item) }
        change.modifications.sort { ($0.section, $0.item) < ($1.section, $1.item) }
        return change
    }
}

extension Array where Element == Int64 {
    /// Whether both arrays are one buffer (so equal without comparing their elements).
    func sharesStorage(with other: [Int64]) -> Bool {
        count == other.count && withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
