import CoreEngine

/// A managed list, set or map: the engine's accessor of the property and the realm handle it
/// reads through. What `List`, `MutableSet` and `Map` share once managed.
struct ManagedCollection<Accessor: CollectionAccessor> {
    let accessor: Accessor
    let handle: RealmHandle

    var realm: Realm { Realm(handle: handle) }
    /// Whether the owning object was deleted or its realm closed.
    var isInvalidated: Bool { !((try? accessor.isValid()) ?? false) }
    var isFrozen: Bool { accessor.object.realm.isFrozen }

    /// The collection's objects as results, in its order (a collection of objects).
    func objectResults<Element: Object>() -> Results<Element> {
        engineOrTrap { Results(try accessor.results(), handle: handle) }
    }

    /// The collection at the version its realm shows now, readable on any thread.
    func frozen() -> ManagedCollection {
        engineOrTrap { ManagedCollection(accessor: try accessor.freeze() as! Accessor, handle: try handle.frozen()) }
    }

    /// The same collection read through another handle of its realm's file.
    func reopened(in other: RealmHandle) throws(RealmError) -> ManagedCollection {
        ManagedCollection(accessor: try translatingErrors { try accessor.reopened(in: other.engine) } as! Accessor, handle: other)
    }

    /// The live collection a frozen one came from, or nil when its object is gone.
    func thawed() -> ManagedCollection? {
        guard isFrozen else { return self }
        guard let live = try? handle.live(), let accessor = try? accessor.thaw() else { return nil }
        return ManagedCollection(accessor: accessor as! Accessor, handle: live)
    }
}
