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
