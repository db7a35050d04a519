/// Results grouped into sections by a key: a property (through to-one links) or a function of
/// each object.
///
/// The results are sorted first (by the key path, or by the given sort descriptors); sections
/// appear in the order their first object appears, and each holds its objects in results order.
/// As the seeds require, the primary sort should decide the section key (sorting by `name` and
/// sectioning by its first letter); objects with one key are grouped even when the sort does not
/// make them adjacent. Live, lazy and re-evaluated when the realm's version changes, as Results.
package final class SectionedResults {
    /// How each object's section key is found.
    package enum SectionKey {
        case keyPath(PropertyPath)
        /// Called on the realm's thread for each object, during evaluation, with no realm lock
        /// held: it is the caller's code, free to read this realm or to release another.
        case function((ObjectAccessor) throws -> Value)
    }

    /// One section: its key and the keys of its objects, in results order.
    package struct Section: Equatable {
        package let key: Value
        package let objectKeys: [Int64]
    }

    /// The sorted results whose objects are sectioned.
    package let results: Results
    package let sectionKey: SectionKey
    private var cached: [Section] = []
    private var cacheStamp: StateStamp?

    init(results: Results, sectionKey: SectionKey) {
        self.results = results
        self.sectionKey = sectionKey
    }

    package var realm: Realm { results.realm }
    package var isFrozen: Bool { results.isFrozen }
    /// Whether the realm has been closed (then every read fails).
    package var isInvalidated: Bool { results.realm.isClosed }

    /// The sections at the realm's current version.
    package func sections() throws -> [Section] {
        guard case let .function(function) = sectionKey else {
            return try realm.lock.withLock {
                let transaction = try realm.currentTransaction()
                if cacheStamp == StateStamp(transaction) { return cached }
                cached = try evaluate(transaction)
                cacheStamp = StateStamp(transaction)
                return cached
            }
        }
        // The keys under the lock; the key function after it is released.
        let pending: (keys: [Int64], stamp: StateStamp)? = try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            return cacheStamp == StateStamp(transaction) ? nil : (try results.evaluateKeys(transaction), StateStamp(transaction))
        }
        guard let pending else { return realm.lock.withLock { cached } }
        let sections = try grouped(pending.keys, by: function)
        realm.lock.withLock {
            // Kept only if the function left the realm at the version the keys were read at.
            if let transaction = try? realm.currentTransaction(), StateStamp(transaction) == pending.stamp {
                cached = sections
                cacheStamp = pending.stamp
            }
        }
        return sections
    }

    /// The sections by a key path at `transaction` (another snapshot is allowed; the cache is
    /// left alone). A key function is not called here (see `grouped(_:by:)`).
    func evaluate(_ transaction: StorageTransaction) throws -> [Section] {
        let keys = try results.evaluateKeys(transaction)
        let table = results.classInfo.tableID
        switch sectionKey {
        case let .keyPath(path) where path.links.isEmpty:
            // A property of the objects themselves is read in one batch, a block per cluster.
            let values = try transaction.values(table: table, column: path.property.column, keys: keys, checkPresence: false)
            return Self.group(keys) { values[$0] }
        case let .keyPath(path):
            return try Self.group(keys) { try path.value(table: table, key: keys[$0], transaction) }
        case .function:
            throw DBError(.internal, "a key function is called outside the realm's lock, through grouped(_:by:)")
        }
    }

    /// The sections of `keys` by a key function. Call it with no realm lock held: the function
    /// reads the objects through the realm as any caller does.
    func grouped(_ keys: [Int64], by function: (ObjectAccessor) throws -> Value) throws -> [Section] {
        try Self.group(keys) { try function(ObjectAccessor(realm: realm, classInfo: results.classInfo, key: keys[$0])) }
    }

    /// Sections in order of first appearance, each with its keys in results order.
    private static func group(_ keys: [Int64], sectionKeyAt: (Int) throws -> Value) rethrows -> [Section] {
        var order: [Value] = []
        var members: [Value: [Int64]] = [:]
        for (index, key) in keys.enumerated() {
            let sectionKey = try sectionKeyAt(index)
            if members[sectionKey] == nil { order.append(sectionKey) }
            members[sectionKey, default: []].append(key)
        }
        return order.map { Section(key: $0, objectKeys: members[$0]!) }
    }

    package func count() throws -> Int { try sections().count }

    /// - Throws: `.outOfRange` for a section or object index past the end.
    package func section(at index: Int) throws -> Section {
        let sections = try self.sections()
        guard index >= 0, index < sections.count else {
            throw DBError(.outOfRange, "section \(index) is out of range (there are \(sections.count) sections)")
        }
        return sections[index]
    }

    package func object(section: Int, item: Int) throws -> ObjectAccessor {
        let keys = try self.section(at: section).objectKeys
        guard item >= 0, item < keys.count else {
            throw DBError(.outOfRange, "object \(item) is out of range (section \(section) has \(keys.count) objects)")
        }
        return ObjectAccessor(realm: realm, classInfo: results.classInfo, key: keys[item])
    }

    /// The same sections at the version the realm reads now, immutable, usable from any thread.
    package func freeze() throws -> SectionedResults {
        if isFrozen { return self }
        return SectionedResults(results: try results.freeze(), sectionKey: sectionKey)
    }

    /// The same sections read through another handle of the same realm file (for a thread that
    /// observes on behalf of another).
    package func reopened(in other: Realm) throws -> SectionedResults {
        SectionedResults(results: try results.reopened(in: other), sectionKey: sectionKey)
    }

    /// The live sectioned results (in the realm these were frozen from).
    package func thaw() throws -> SectionedResults {
        guard isFrozen else { return self }
        return SectionedResults(results: try results.thaw(), sectionKey: sectionKey)
    }
}

extension Results {
    /// Sorts by a key path (a property, through to-one links) and makes a section for each of
    /// its values.
    package func sectioned(by keyPath: String, ascending: Bool = true) throws -> SectionedResults {
        let path = try propertyPath(keyPath)
        return SectionedResults(results: sorted(by: [SortDescriptor(path: path, ascending: ascending)]), sectionKey: .keyPath(path))
    }

    /// Sorts by `descriptors` (the first should decide the key) and sections by a key path's value.
    package func sectioned(by keyPath: String, sortedBy descriptors: [SortDescriptor]) throws -> SectionedResults {
        SectionedResults(results: descriptors.isEmpty ? self : sorted(by: descriptors), sectionKey: .keyPath(try propertyPath(keyPath)))
    }

    /// Sorts by `descriptors` (none: the results' own order) and sections by a function's value
    /// for each object (called on the realm's thread as the sections are evaluated).
    package func sectioned(sortedBy descriptors: [SortDescriptor],
                          key: @escaping (ObjectAccessor) throws -> Value) -> SectionedResults {
        SectionedResults(results: descriptors.isEmpty ? self : sorted(by: descriptors), sectionKey: .function(key))
    }
}
