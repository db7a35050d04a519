import CoreEngine
import Foundation

/// A `List` or `MutableSet` of values (`List<Int>`, `MutableSet<String>`), observed on its own
/// as a `RealmCollection` of objects is: `.initial`, then an `.update` after each commit that
/// changes it, with the positions of the values removed (in the old state) and inserted (in the
/// new). A value replaced in place (`scores[0] = 7`) is a deletion and an insertion at its
/// position. Values have no key paths: observing with any fails with `.error`.
///
/// The requirements are the library's own hooks; `List` and `MutableSet` of values conform.
public protocol _ObservableValueCollection: AnyObject {
    /// The realm managing the collection, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the collection's object was deleted or its realm closed.
    var isInvalidated: Bool { get }
    /// Whether the collection belongs to a frozen realm.
    var isFrozen: Bool { get }
    /// The collection at the version it shows now, readable on any thread.
    func freeze() -> Self
    /// The same collection read through another handle of its realm's file. A library hook.
    func _rlmReopened(in realm: Realm) throws(RealmError) -> Self
    /// Registers `block` on this thread's run loop (see `observe(keyPaths:_:)`). A library hook.
    func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension _ObservableValueCollection {
    /// Calls `block` with the collection at once (`.initial`) and after each commit that changes
    /// it, from any thread or process, on this thread's run loop (which must be running; commits
    /// of this thread deliver on their return). An unmanaged or frozen collection, or a call
    /// inside a write transaction, gets `.error` at once and an invalidated token.
    ///
    /// ```swift
    /// let token = dog.weights.observe { change in
    ///     if case .update(let weights, let deletions, let insertions, _) = change { ... }
    /// }
    /// ```
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        _rlmObserveOnRunLoop(keyPaths: keyPaths, block)
    }

    /// Calls `block` on `queue` with the collection, frozen, when first read and after each
    /// commit that changes it. A thread of the library observes: no run loop is needed.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return NotifierDelivery.onQueue(queue, register(keyPaths), block)
    }

    /// The frozen changes of this collection, in order: `for await change in dog.weights.changes`.
    /// Ending the loop (or the task) stops observing.
    public var changes: AsyncStream<RealmCollectionChange<Self>> { changes(keyPaths: nil) }

    /// `changes`, with key paths (which values do not have: any gives one `.error`).
    public func changes(keyPaths: [String]?) -> AsyncStream<RealmCollectionChange<Self>> {
        NotifierDelivery.stream(register(keyPaths)) { if case .error = $0 { true } else { false } }
    }

    /// Calls `block` isolated to `actor` with the frozen collection when first read and after
    /// each commit that changes it, in order.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void) async -> NotificationToken {
        NotifierDelivery.onActor(actor, register(keyPaths), block)
    }

    private func register(_ keyPaths: [String]?) -> NotifierDelivery.Register<RealmCollectionChange<Self>> {
        let source = UncheckedSendable(self)
        return NotifierDelivery.reopening(realm: realm, isFrozen: isFrozen) { realm, deliver in
            try source.value._rlmReopened(in: realm).observe(keyPaths: keyPaths) { change in
                // A collection whose object was deleted has no version to freeze: it goes as it is.
                deliver(change.mapCollection { $0.isInvalidated ? $0 : $0.freeze() })
            }
        }
    }
}

extension List: _ObservableValueCollection where Element: _PersistableValue {
    /// The list read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> List<Element> { try reopened(in: realm.handle) }

    /// Registers `block` on this thread's run loop.
    public func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observeOnRunLoop(keyPaths: keyPaths, block)
    }
}

extension MutableSet: _ObservableValueCollection where Element: _PersistableValue {
    /// The set read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> MutableSet<Element> { try reopened(in: realm.handle) }

    /// Registers `block` on this thread's run loop.
    public func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        observeOnRunLoop(keyPaths: keyPaths, block)
    }
}

extension ManagedCollectionHolder {
    /// The engine's observation of the managed collection, delivered on this thread's run loop
    /// with the collection made anew for each call; `.error` when unmanaged.
    func observeOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        guard let managed = managedCollection else {
            let token = NotificationToken()
            token.invalidate()
            block(.error(RealmError(.invalidArgument, "an unmanaged collection cannot be observed: add its object to a realm first")))
            return token
        }
        let accessor = managed.accessor
        return managed.handle.observeOnRunLoop({ try accessor.observe(keyPaths: keyPaths, $0) },
                                               collection: { Self(managed: ManagedCollection(accessor: accessor, handle: $0)) },
                                               block)
    }
}
