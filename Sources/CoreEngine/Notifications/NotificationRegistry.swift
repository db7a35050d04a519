/// The notification callbacks registered through one realm handle. Used under the realm's lock.
final class NotificationRegistry {
    var collections: [ObjectIdentifier: any CollectionObserving] = [:]
    var objects: [ObjectNotifier] = []
    var sectioned: [ObjectIdentifier: SectionedNotifier] = [:]

    /// Compares every registration with the transaction's version; returns the calls to make.
    func prepare(_ transaction: StorageTransaction) throws -> [() -> Void] {
        var calls: [() -> Void] = []
        for (id, notifier) in collections {
            if notifier.isUnused {
                notifier.release()
                collections[id] = nil
                continue
            }
            calls += try notifier.prepare(transaction)
        }
        objects.removeAll(where: \.isUnused)
        for notifier in objects { calls += try notifier.prepare(transaction) }
        for (id, notifier) in sectioned {
            if notifier.isUnused {
                notifier.release()
                sectioned[id] = nil
                continue
            }
            calls += try notifier.prepare(transaction)
        }
        return calls
    }

    /// Computes the results' comparisons with a newer snapshot ahead of delivery.
    func precompute(_ transaction: StorageTransaction) throws {
        for notifier in collections.values {
            try (notifier as? CollectionNotifier)?.precompute(transaction)
        }
        for notifier in sectioned.values { try notifier.precompute(transaction) }
    }

    var isEmpty: Bool { collections.isEmpty && objects.isEmpty && sectioned.isEmpty }

    /// The newest version a changeset was computed ahead for (nil: none).
    var precomputedVersion: UInt64? {
        (collections.values.compactMap { ($0 as? CollectionNotifier)?.precomputedVersion }
            + sectioned.values.compactMap(\.precomputedVersion)).max()
    }

    /// Comparisons of sorted and sectioned results that found old places by binary search, and
    /// by a pass over the keys (see `CollectionNotifier.oldIndexSearches`).
    var oldIndexLookups: (searches: Int, scans: Int) {
        let results = collections.values.compactMap { $0 as? CollectionNotifier }
            .reduce(into: (0, 0)) { $0.0 += $1.oldIndexSearches; $0.1 += $1.oldIndexScans }
        return sectioned.values.reduce(into: results) { $0.0 += $1.oldPlaceSearches; $0.1 += $1.oldPlaceScans }
    }

    /// Deliveries that used a changeset computed ahead, off the owner's thread.
    var precomputedDeliveries: Int {
        collections.values.reduce(0) { $0 + (($1 as? CollectionNotifier)?.precomputedDeliveries ?? 0) }
            + sectioned.values.reduce(0) { $0 + $1.precomputedDeliveries }
    }

    /// Adds a callback to the notifier of `collection` (made by `make` for its first callback).
    func register(on collection: AnyObject, paths: ObservedKeyPaths?, _ callback: @escaping (CollectionChange) -> Void,
                              make: () -> any CollectionObserving) -> NotificationToken {
        let token = NotificationToken()
        let id = ObjectIdentifier(collection)
        let notifier = collections[id] ?? make()
        notifier.add(.init(token: token, paths: paths, callback: callback))
        collections[id] = notifier
        return token
    }

    /// Lets go of the read transactions the notifiers keep (`Realm.pin`).
    func releaseSnapshots() {
        for notifier in collections.values { notifier.release() }
        for notifier in sectioned.values { notifier.release() }
    }

    /// Forgets every registration (the realm is closing).
    func removeAll() {
        releaseSnapshots()
        collections = [:]
        objects = []
        sectioned = [:]
    }
}
