import CoreEngine
import Foundation

/// A map observed the ways a collection is (see `_ObservableCollection`), with the changes told
/// as keys: `RealmMapChange`.
extension Map {
    /// Calls `block` with the map when first read (`.initial`) and after each commit that changes
    /// it (`.update` with the keys removed, added and modified), from any thread or process.
    /// Without a queue, calls come through this thread's run loop (a commit of this thread
    /// delivers on its return); with one, a thread of the library observes and the map handed to
    /// the block is frozen. An unmanaged or frozen map, an unknown key path or a call inside a
    /// write transaction gets `.error` at once and an invalidated token.
    ///
    /// ```swift
    /// let token = owner.pets.observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change { ... }
    /// }
    /// ```
    /// - Parameter keyPaths: for a map of objects, the properties of the objects that count as
    ///   modifications of their keys (`["name"]`); nil for all of them, and those of the objects
    ///   they link to. A map of values has none.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmMapChange<Map>) -> Void) -> NotificationToken {
        guard let queue else { return observeKeysOnRunLoop(keyPaths: keyPaths, block) }
        return NotifierDelivery.onQueue(queue, register(keyPaths), block)
    }

    /// Calls `block` isolated to `actor` with the frozen map when first read and after each
    /// commit that changes it, in order.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map>) -> Void) async -> NotificationToken {
        NotifierDelivery.onActor(actor, register(keyPaths), block)
    }

    /// The frozen changes of this map, in order, from a thread of the library:
    /// `for await change in owner.pets.changes { ... }`. Ending the loop (or the task) stops
    /// observing.
    public var changes: AsyncStream<RealmMapChange<Map>> { changes(keyPaths: nil) }

    /// `changes` with the key paths that count as modifications.
    public func changes(keyPaths: [String]?) -> AsyncStream<RealmMapChange<Map>> {
        NotifierDelivery.stream(register(keyPaths)) { if case .error = $0 { true } else { false } }
    }

    /// How to observe this map on a notifier thread: reopened through the thread's handle, each
    /// change told as keys there (in order), then handed over with the map frozen.
    private func register(_ keyPaths: [String]?) -> NotifierDelivery.Register<RealmMapChange<Map>> {
        let source = UncheckedSendable(self)
        return NotifierDelivery.reopening(realm: realm, isFrozen: isFrozen, error: { .error($0) }) { realm, deliver in
            try source.value.reopened(in: realm.handle).observeKeysOnRunLoop(keyPaths: keyPaths) { deliver($0.frozen()) }
        }
    }

    /// The engine's observation on this thread's run loop, its positions (the entries in key
    /// order) told as the keys at those positions: deletions in the keys of the previous call,
    /// insertions and modifications in today's.
    private func observeKeysOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmMapChange<Map>) -> Void) -> NotificationToken {
        var previousKeys: [Key] = []
        func keys(of map: Map) -> [Key] { map.isInvalidated ? [] : map.keys }
        return observeOnRunLoop(keyPaths: keyPaths) { (change: RealmCollectionChange<Map>) in
            switch change {
            case .initial(let map):
                previousKeys = keys(of: map)
                block(.initial(map))
            case let .update(map, deletions, insertions, modifications):
                let now = keys(of: map)
                let removed = deletions.map { previousKeys[$0] }
                previousKeys = now
                block(.update(map, deletions: removed, insertions: insertions.map { now[$0] },
                              modifications: modifications.map { now[$0] }))
            case .error(let error):
                block(.error(error))
            }
        }
    }
}

extension RealmMapChange {
    /// The same change with the map frozen (as it is when its object was deleted: invalidated),
    /// or `.error` when it cannot be frozen.
    func frozen<Key, Value>() -> RealmMapChange<Map<Key, Value>> where Collection == Map<Key, Value> {
        func freeze(_ map: Map<Key, Value>) throws -> Map<Key, Value> { map.isInvalidated ? map : try map.frozenCollectionOrError() }
        do {
            switch self {
            case .initial(let map): return .initial(try freeze(map))
            case let .update(map, deletions, insertions, modifications):
                return .update(try freeze(map), deletions: deletions, insertions: insertions, modifications: modifications)
            case .error(let error): return .error(error)
            }
        } catch {
            return .error(error)
        }
    }
}
