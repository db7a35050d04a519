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
    func frozen() throws(RealmError) -> ManagedCollection {
        let handle = try self.handle.frozen()
        return ManagedCollection(accessor: try translatingErrors { try accessor.freeze() } as! Accessor, handle: handle)
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

/// `List` and `MutableSet`: their elements while unmanaged, a `ManagedCollection` once their object
/// is stored. Moving to another version or handle is the same for both: a new collection around
/// the moved `ManagedCollection`, or the unmanaged one as it is.
protocol ManagedCollectionHolder {
    associatedtype Accessor: CollectionAccessor
    /// The managed collection; nil while unmanaged.
    var managedCollection: ManagedCollection<Accessor>? { get }
    init(managed: ManagedCollection<Accessor>)
}

extension ManagedCollectionHolder {
    /// The objects as results, for filtering, sorting and observing; an unmanaged collection
    /// has none (using one stops the program with a message naming `typeName`).
    func objectResults<Object: RealmDB.Object>(_ typeName: String) -> Results<Object> {
        guard let managed = managedCollection else {
            fatalError("RealmDB: an unmanaged \(typeName) cannot be queried: add its object to a realm first")
        }
        return managed.objectResults()
    }

    /// The collection at the version it shows now, readable on any thread.
    func frozenCollection() -> Self { engineOrTrap { try frozenCollectionOrError() } }

    /// `frozenCollection()`, throwing instead of stopping the program.
    func frozenCollectionOrError() throws(RealmError) -> Self {
        guard let managed = managedCollection else { return self }
        return Self(managed: try managed.frozen())
    }

    /// The live collection a frozen one came from, or nil when its object is gone.
    func thawedCollection() -> Self? {
        guard let managed = managedCollection else { return self }
        return managed.thawed().map { Self(managed: $0) }
    }

    /// The same collection read through another handle of its realm's file.
    func reopened(in handle: RealmHandle) throws(RealmError) -> Self {
        guard let managed = managedCollection else { return self }
        return Self(managed: try managed.reopened(in: handle))
    }
}
