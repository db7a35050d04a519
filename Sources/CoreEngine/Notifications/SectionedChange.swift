/// A position in sectioned results: a section and an object within it.
public struct IndexPath: Hashable, Sendable {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }
}

/// What changed in sectioned results since the previous notification.
///
/// To turn the previous sections into the new ones: remove the objects at `deletions` (old
/// paths), then the sections at `sectionsDeleted` (old indices, with all their objects), then
/// insert the sections at `sectionsInserted` (new indices, with all their objects), then the
/// objects at `insertions` (new paths). `modifications` are the new paths of objects in both
/// whose observed properties changed. A section whose position among the others changed is
/// deleted and inserted; an object that moved is deleted and inserted.
public struct SectionedChange: Equatable, Sendable {
    public var isInitial = false
    public var sectionsInserted: [Int] = []
    public var sectionsDeleted: [Int] = []
    public var insertions: [IndexPath] = []
    public var deletions: [IndexPath] = []
    public var modifications: [IndexPath] = []

    public init(isInitial: Bool = false) { self.isInitial = isInitial }

    public var isEmpty: Bool {
        !isInitial && sectionsInserted.isEmpty && sectionsDeleted.isEmpty && insertions.isEmpty
            && deletions.isEmpty && modifications.isEmpty
    }

    /// The change from `old` to `new` sections; sections are identified by their key.
    static func between(_ old: [SectionedResults.Section], _ new: [SectionedResults.Section],
                        isModified: (Int64) -> Bool) -> SectionedChange {
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
            let items = CollectionChange.between(old[pair.old].objectKeys, new[pair.new].objectKeys, isModified: isModified)
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

/// The callbacks registered on sectioned results and the sections they were last told about.
final class SectionedNotifier: SubscribedNotifier {
    static let initialChange = SectionedChange(isInitial: true)
    let sectioned: SectionedResults
    var subscriptions: [Subscription<SectionedChange>] = []
    private var sections: [SectionedResults.Section]?
    private var version: UInt64 = 0

    init(sectioned: SectionedResults) {
        self.sectioned = sectioned
    }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if isUnused { return [] }
        guard let old = sections else {
            sections = try sectioned.evaluate(transaction)
            version = transaction.version
            return takeInitialCalls()
        }
        let initial = takeInitialCalls()
        guard transaction.version != version else { return initial }
        let changes = try CoalescedChanges(transaction, from: version, to: transaction.version)
        version = transaction.version
        let classInfo = sectioned.results.classInfo
        let modified: Set<Int64>? = changes.isComplete
            ? try ObservedKeyPaths.deep(classInfo, sectioned.realm).modifiedKeys(changes, root: classInfo.tableID, transaction)
            : nil
        let new = try sectioned.evaluate(transaction)
        sections = new
        let change = SectionedChange.between(old, new) { modified?.contains($0) ?? true }
        return change.isEmpty ? initial : initial + calls(change)
    }
}
