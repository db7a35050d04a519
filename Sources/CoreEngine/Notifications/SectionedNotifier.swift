/// The callbacks registered on sectioned results and the sections they were last told about.
final class SectionedNotifier: SubscribedNotifier {
    static let initialChange = SectionedChange(isInitial: true)
    let sectioned: SectionedResults
    var subscriptions: [Subscription<SectionedChange>] = []
    private var sections: [SectionedResults.Section]?
    private var version: UInt64 = 0
    /// For incremental updates: the realm's read transaction at `version` (see
    /// `CollectionNotifier.snapshot`).
    private var snapshot = PinnedSnapshot()
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
        /// What each subscription is told (see `changes(_:_:_:)`); nil: nothing to report.
        var changes: [SectionedChange]?
        /// The subscriptions the changes are for, by token.
        var tokens: [ObjectIdentifier?]
    }

    /// What each subscription counts as modified, by token (nil: every object).
    private typealias ModifiedByToken = [ObjectIdentifier?: Set<Int64>?]

    private var tokenIDs: [ObjectIdentifier?] { subscriptions.map { $0.token.map(ObjectIdentifier.init) } }

    private var pending: Computed?
    /// How many deliveries used a change computed ahead (for tests and diagnostics).
    private(set) var precomputedDeliveries = 0
    /// How many incremental updates found the touched objects' old places by binary search in
    /// the pinned snapshot, and how many by a pass over the sections (tests, diagnostics).
    private(set) var oldPlaceSearches = 0, oldPlaceScans = 0

    /// The version a change was computed ahead for, if any.
    var precomputedVersion: UInt64? { pending?.to }

    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        if isUnused { return [] }
        if case let .function(function) = sectioned.sectionKey { return try prepareDeferred(transaction, function) }
        guard let old = sections else {
            sections = try sectioned.evaluate(transaction)
            version = transaction.version
            pending = nil
            keep(transaction)
            return takeInitialCalls()
        }
        let initial = takeInitialCalls()
        guard transaction.version != version else { return initial }
        let computed: Computed
        if let pending, pending.from == version, pending.to == transaction.version, pending.tokens == tokenIDs {
            computed = pending
            precomputedDeliveries += 1
        } else {
            computed = try compute(old, transaction)
        }
        pending = nil
        sections = computed.sections
        version = computed.to
        keep(transaction)
        return computed.changes.map { initial + calls($0) } ?? initial
    }

    /// Pins `transaction` as the snapshot of the delivered sections (incremental updates only).
    private func keep(_ transaction: StorageTransaction) {
        if incremental != nil { snapshot.keep(transaction, of: sectioned.realm) }
    }

    /// Lets go of the pinned snapshot (the notifier is being removed; with the lock held).
    func release() {
        snapshot.release(from: sectioned.realm)
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
        let modified = try modifiedByToken(changes, transaction)
        let any = anyModified(modified)
        let new: [SectionedResults.Section]
        var modifiedInUntouched: [Int: [Int]]?
        if let incremental, changes.isComplete, !changes.schemaChanged {
            let before = snapshot.reading(version)
            let update = try incremental.update(old, changes.tables[sectioned.results.classInfo.tableID] ?? .init(), transaction,
                                                before: before, modified: any)
            new = update.sections
            modifiedInUntouched = update.modifiedInUntouched
            switch update.searchedOldPlaces {
            case true?: oldPlaceSearches += 1
            case false?: oldPlaceScans += 1
            case nil: break
            }
        } else {
            new = try sectioned.evaluate(transaction)
        }
        return Computed(from: version, to: transaction.version, sections: new,
                        changes: self.changes(old, new, modified, any: any, modifiedInUntouched: modifiedInUntouched), tokens: tokenIDs)
    }

    /// The objects any subscription counts as modified (nil: every object).
    private func anyModified(_ modified: ModifiedByToken) -> Set<Int64>? {
        let perSubscription = tokenIDs.map { modified[$0] ?? nil }
        return perSubscription.contains { $0 == nil } ? nil : perSubscription.reduce(into: Set<Int64>()) { $0.formUnion($1!) }
    }

    /// The change each subscription is told, in subscription order: the sections' structural
    /// change, with the modifications its own key paths select. Nil when nobody has anything to
    /// report; otherwise every subscription is called, as with Results.
    private func changes(_ old: [SectionedResults.Section], _ new: [SectionedResults.Section],
                         _ modified: ModifiedByToken, any: Set<Int64>?, modifiedInUntouched: [Int: [Int]]? = nil) -> [SectionedChange]? {
        let perSubscription = tokenIDs.map { modified[$0] ?? nil }
        let base = SectionedChange.between(old, new, modified: any, modifiedInUntouched: modifiedInUntouched)
        if base.isEmpty { return nil }
        return perSubscription.map { own in
            guard let own else { return base }
            var change = base
            change.modifications = base.modifications.filter { own.contains(new[$0.section].objectKeys[$0.item]) }
            return change
        }
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
        let modified = sections == nil ? [:]
            : try modifiedByToken(CoalescedChanges(transaction, from: version, to: transaction.version), transaction)
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
                return self.changes(old, new, modified, any: anyModified(modified)).map { self.calls($0) } ?? []
            }
            for call in calls { call() }
        }
        return [update] + initial
    }

    /// What each subscription counts as modified in `changes`, by token: the objects written in
    /// its key paths, or without key paths in any property or through the objects they link to
    /// (four links deep). Nil for every one when the commit records no longer cover the range
    /// (then every object counts as modified).
    private func modifiedByToken(_ changes: CoalescedChanges, _ transaction: StorageTransaction) throws -> ModifiedByToken {
        var result: ModifiedByToken = [:]
        let classInfo = sectioned.results.classInfo
        var deep: Set<Int64>??
        for subscription in subscriptions {
            let id = subscription.token.map(ObjectIdentifier.init)
            guard changes.isComplete else { result[id] = .some(nil); continue }
            if let paths = subscription.paths {
                result[id] = .some(try paths.modifiedKeys(changes, root: classInfo.tableID, transaction))
            } else {
                if deep == nil {
                    deep = .some(try ObservedKeyPaths.deep(classInfo, sectioned.realm).modifiedKeys(changes, root: classInfo.tableID, transaction))
                }
                result[id] = .some(deep!)
            }
        }
        return result
    }
}
