/// The callbacks registered on sectioned results and the sections they were last told about.
final class SectionedNotifier: SubscribedNotifier {
    static let initialChange = SectionedChange(isInitial: true)
    let sectioned: SectionedResults
    var subscriptions: [Subscription<SectionedChange>] = []
    private var sections: [SectionedResults.Section]?
    private var version: UInt64 = 0
    /// How the sections are updated from the commits' changes, where they can be (key-path
    /// sections whose sort starts with the key); nil: they are evaluated again at each version.
    private let incremental: IncrementalSections?

    init(sectioned: SectionedResults) {
        self.sectioned = sectioned
        incremental = IncrementalSections(sectioned)
    }

    /// Sections and their change computed ahead of delivery, off the owner's thread (`precompute`).
    private struct Computed {
        var from: UInt64
        var to: UInt64
        var sections: [SectionedResults.Section]
        var change: SectionedChange
    }

    private var pending: Computed?
    /// How many deliveries used a change computed ahead (for tests and diagnostics).
    private(set) var precomputedDeliveries = 0

    /// The version a change was computed ahead for, if any.
    var precomputedVersion: UInt64? { pending?.to }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if isUnused { return [] }
        if case let .function(function) = sectioned.sectionKey { return try prepareDeferred(transaction, function) }
        guard let old = sections else {
            sections = try sectioned.evaluate(transaction)
            version = transaction.version
            pending = nil
            return takeInitialCalls()
        }
        let initial = takeInitialCalls()
        guard transaction.version != version else { return initial }
        let computed: Computed
        if let pending, pending.from == version, pending.to == transaction.version {
            computed = pending
            precomputedDeliveries += 1
        } else {
            computed = try compute(old, transaction)
        }
        pending = nil
        sections = computed.sections
        version = computed.to
        return computed.change.isEmpty ? initial : initial + calls(computed.change)
    }

    /// Prepares the sections at `transaction` (a newer snapshot, read on the commit watcher's
    /// thread while the owner is not using the realm) and their change, for `prepare` to deliver.
    /// Sections by a key function are left to the owner: the function is the caller's code.
    func precompute(_ transaction: StorageTransaction) throws {
        guard !isUnused, case .keyPath = sectioned.sectionKey, let old = sections,
              transaction.version != version, pending?.to != transaction.version else { return }
        pending = try compute(old, transaction)
    }

    private func compute(_ old: [SectionedResults.Section], _ transaction: StorageTransaction) throws -> Computed {
        let changes = try CoalescedChanges(transaction, from: version, to: transaction.version)
        let modified = try modifiedKeys(changes, transaction)
        let new: [SectionedResults.Section]
        if let incremental, changes.isComplete, !changes.schemaChanged {
            new = try incremental.update(old, changes.tables[sectioned.results.classInfo.tableID] ?? .init(), transaction)
        } else {
            new = try sectioned.evaluate(transaction)
        }
        return Computed(from: version, to: transaction.version, sections: new,
                        change: SectionedChange.between(old, new, modified: modified))
    }

    /// For sections by a key function, which is the caller's code and must run with no realm lock
    /// held: what the lock guards (the keys, what changed) is read here; the returned call runs
    /// the function after the lock is released, then reports the change under the lock again.
    /// If the function throws, this delivery is skipped and the next compares with the last
    /// sections reported.
    private func prepareDeferred(_ transaction: StorageTransaction,
                                 _ function: @escaping (ObjectAccessor) throws -> Value) throws -> [() -> Void] {
        let initial = takeInitialCalls()
        if sections != nil && transaction.version == version { return initial }
        let modified = sections == nil ? nil
            : try modifiedKeys(CoalescedChanges(transaction, from: version, to: transaction.version), transaction)
        let (keys, from, to) = (try sectioned.results.evaluateKeys(transaction), version, transaction.version)
        version = to
        let update: () -> Void = { [self] in
            guard let new = try? sectioned.grouped(keys, by: function) else {
                sectioned.realm.lock.withLock { if version == to { version = from } }
                return
            }
            let calls: [() -> Void] = sectioned.realm.lock.withLock {
                defer { sections = new }
                guard let old = sections else { return [] }
                let change = SectionedChange.between(old, new, modified: modified)
                return change.isEmpty ? [] : self.calls(change)
            }
            for call in calls { call() }
        }
        return [update] + initial
    }

    /// The objects modified (in any property, or through the objects they link to) by `changes`;
    /// nil when the commit records no longer cover their range (then every object counts as
    /// modified).
    private func modifiedKeys(_ changes: CoalescedChanges, _ transaction: StorageTransaction) throws -> Set<Int64>? {
        guard changes.isComplete else { return nil }
        let classInfo = sectioned.results.classInfo
        return try ObservedKeyPaths.deep(classInfo, sectioned.realm).modifiedKeys(changes, root: classInfo.tableID, transaction)
    }
}
