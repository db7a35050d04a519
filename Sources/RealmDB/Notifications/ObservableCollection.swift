import CoreEngine
import Foundation

/// A collection observed the ways Realm's SDK observes one: on this thread's run loop, on a
/// `DispatchQueue`, on an actor, and as an `AsyncStream` of changes. Every `RealmCollection`
/// (results, lists and sets of objects, linking objects, `AnyRealmCollection`) and every `List`
/// and `MutableSet` of values (`List<Int>`, `MutableSet<String>`) is one.
///
/// Away from the run loop, a thread of the library reads the collection through a handle of its
/// own (`_rlmReopened(in:)`) and hands over each version frozen.
///
/// For a collection of values, a value has no identity but its value: one replaced in place
/// (`scores[0] = 7`) is a deletion and an insertion at its position; deleting the owning object
/// reports every value deleted, once. Values have no key paths: observing with any fails with
/// `.error`.
///
/// The requirements are the library's own hooks.
public protocol _ObservableCollection {
    /// The realm managing the collection, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the collection can no longer be read (its realm closed, its object deleted).
    var isInvalidated: Bool { get }
    /// Whether the collection is frozen: one version, readable on any thread.
    var isFrozen: Bool { get }
    /// The collection at the version it shows now, readable on any thread.
    func freeze() -> Self
    /// `freeze()`, throwing what it would stop the program with: how a thread of the library
    /// freezes each change it hands over (the file may be gone by then). A library hook.
    func _rlmFrozen() throws(RealmError) -> Self
    /// The same collection read through another handle of its realm's file. A library hook.
    func _rlmReopened(in realm: Realm) throws(RealmError) -> Self
    /// Registers `block` on this thread's run loop (see `observe(keyPaths:_:)`). A library hook.
    func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension _ObservableCollection {
    /// Calls `block` with the collection when first evaluated (`.initial`) and after each commit
    /// that changes it (`.update` with the positions deleted, inserted and modified), from any
    /// thread or process, on this thread's run loop: it must run (the main queue on the main
    /// thread); a commit of this thread delivers on its return. An unmanaged or frozen
    /// collection, an unknown key path or a call inside a write transaction gets `.error` at once
    /// and an invalidated token.
    ///
    /// ```swift
    /// let token = dog.weights.observe { change in
    ///     if case .update(let weights, let deletions, let insertions, _) = change { ... }
    /// }
    /// ```
    /// - Parameter keyPaths: what counts as a modification (`["name", "toys.brand"]`); nil for
    ///   every property of the objects and of the objects they link to.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        _rlmObserveOnRunLoop(keyPaths: keyPaths, block)
    }

    /// Calls `block` on `queue` with the collection when first evaluated and after each commit
    /// that changes it (see `observe(keyPaths:_:)`). The collection handed to the block is frozen
    /// (one version, readable on any thread); `thaw()` it on a thread with a live realm to write.
    /// Observing with a queue needs no run loop: a thread of the library observes.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        guard let queue else { return observe(keyPaths: keyPaths, block) }
        return NotifierDelivery.onQueue(queue, register(keyPaths), block)
    }

    /// The frozen changes of this collection, in order, from a thread of the library:
    /// `for await change in dogs.changes { ... }`. Ending the loop (or the task) stops observing.
    public var changes: AsyncStream<RealmCollectionChange<Self>> { changes(keyPaths: nil) }

    /// `changes` with the key paths that count as modifications.
    public func changes(keyPaths: [String]?) -> AsyncStream<RealmCollectionChange<Self>> {
        NotifierDelivery.stream(register(keyPaths)) { if case .error = $0 { true } else { false } }
    }

    /// Calls `block` isolated to `actor` with the frozen collection when first evaluated and after
    /// each commit that changes it, in order.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void) async -> NotificationToken {
        NotifierDelivery.onActor(actor, register(keyPaths), block)
    }

    /// How to observe this collection on a notifier thread: reopened through the thread's
    /// handle, each change handed over with the collection frozen.
    private func register(_ keyPaths: [String]?) -> NotifierDelivery.Register<RealmCollectionChange<Self>> {
        let source = UncheckedSendable(self)
        return NotifierDelivery.reopening(realm: realm, isFrozen: isFrozen) { realm, deliver in
            try source.value._rlmReopened(in: realm).observe(keyPaths: keyPaths) { deliver($0.frozen()) }
        }
    }
}

/// Lists and sets of any element: the engine observes the list or set itself (through its
/// objects as results, for a collection of objects).
extension List: _ObservableCollection {
    /// The list frozen, or the error freezing it is.
    public func _rlmFrozen() throws(RealmError) -> List<Element> { try frozenCollectionOrError() }

    /// The list read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> List<Element> { try reopened(in: realm.handle) }

    /// Registers `block` on this thread's run loop.
    public func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observeOnRunLoop(keyPaths: keyPaths, block)
    }
}

extension MutableSet: _ObservableCollection {
    /// The set frozen, or the error freezing it is.
    public func _rlmFrozen() throws(RealmError) -> MutableSet<Element> { try frozenCollectionOrError() }

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
