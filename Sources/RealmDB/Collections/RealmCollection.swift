import CoreEngine
import Foundation

/// A collection of objects of one class in a realm, with the operations Realm's SDK gives every
/// such collection: `Results`, `LinkingObjects`, and `List` and `MutableSet` of objects (and
/// `AnyRealmCollection`, which holds any of them). Filtering, sorting and aggregating a list or
/// a set gives `Results` over its objects, in its order.
public protocol RealmCollection<Element>: RandomAccessCollection, CustomStringConvertible, SendableMetatype, _ObservableCollection
    where Index == Int, Element: Object {
    /// The realm managing the collection, nil when unmanaged.
    var realm: Realm? { get }
    /// Whether the collection can no longer be read (its realm closed, its object deleted).
    var isInvalidated: Bool { get }
    /// Whether the collection is frozen: one version, readable on any thread.
    var isFrozen: Bool { get }
    /// The objects of the collection as `Results`, in its order: what the shared operations run
    /// on. A library hook; an unmanaged list or set has none (using one stops the program).
    var _rlmResults: Results<Element> { get }
    /// The collection at the version it shows now, readable on any thread.
    func freeze() -> Self
    /// The live collection a frozen one came from, or nil when it is gone.
    func thaw() -> Self?
    /// The same collection read through another handle of its realm's file: how a thread of the
    /// library observes it for a queue or an actor. A library hook.
    func _rlmReopened(in realm: Realm) throws(RealmError) -> Self
}

extension RealmCollection {
    /// The position of the first object matching a query (see `Results.filter`), or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        _rlmResults.index(matching: predicateFormat, arguments: args)
    }

    /// The position of the first object matching a type-safe query, or nil.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        _rlmResults.index(matching: isIncluded)
    }

    /// The objects matching a query in the Realm Query Language, in the collection's order.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        engineOrTrap { try _rlmResults.query(predicateFormat, args) }
    }

    /// The objects matching a type-safe query, in the collection's order.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        _rlmResults.where(isIncluded)
    }

    /// The objects sorted by a property (or a key path through to-one links).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        _rlmResults.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The objects sorted by several properties.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        _rlmResults.sorted(by: sortDescriptors)
    }

    /// One object per distinct combination of the key paths' values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        _rlmResults.distinct(by: keyPaths)
    }

    /// The smallest value of a property, or nil when there is none.
    public func min<T: _Persistable>(ofProperty property: String) -> T? { _rlmResults.min(ofProperty: property) }
    /// The largest value of a property, or nil when there is none.
    public func max<T: _Persistable>(ofProperty property: String) -> T? { _rlmResults.max(ofProperty: property) }
    /// The sum of a numeric property (0 for no objects).
    public func sum<T: _Persistable>(ofProperty property: String) -> T { _rlmResults.sum(ofProperty: property) }
    /// The average of a numeric property, or nil for no objects.
    public func average<T: _Persistable>(ofProperty property: String) -> T? { _rlmResults.average(ofProperty: property) }

    /// The value of a property of every object, in order.
    public func value(forKey key: String) -> [Any?] { _rlmResults.value(forKey: key) }
    /// The values of a key path of every object, in order.
    public func value(forKeyPath keyPath: String) -> [Any?] { _rlmResults.value(forKeyPath: keyPath) }
    /// Writes a value to a property of every object (inside a write).
    public func setValue(_ value: Any?, forKey key: String) { _rlmResults.setValue(value, forKey: key) }

    /// Registers `block` on this thread's run loop through the collection's objects as results
    /// (see `Results.observe(keyPaths:_:)`), handing it the collection itself.
    public func _rlmObserveOnRunLoop(keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        let collection = self
        return _rlmResults.observe(keyPaths: keyPaths) { change in
            switch change {
            case .initial: block(.initial(collection))
            case .update(_, let deletions, let insertions, let modifications):
                block(.update(collection, deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}

/// Results of objects are observable (results of values are not, as in Realm's SDK).
extension Results: _ObservableCollection where Element: Object {}

extension Results: RealmCollection where Element: Object {
    /// These results.
    public var _rlmResults: Results<Element> { self }

    /// These results frozen, or the error freezing them is.
    public func _rlmFrozen() throws(RealmError) -> Results<Element> {
        Results(source: try translatingErrors { try source.freeze() })
    }

    /// These results read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> Results<Element> {
        Results(try translatingErrors { try engineResults.reopened(in: realm.handle.engine) }, handle: realm.handle)
    }
}

extension LinkingObjects: RealmCollection {
    /// The linking objects as results.
    public var _rlmResults: Results<Element> {
        guard let managed else { fatalError("RealmDB: an unmanaged object has no linking objects") }
        return managed
    }

    /// The linking objects at the version they show now, readable on any thread.
    public func freeze() -> LinkingObjects<Element> { managed.map { LinkingObjects(results: $0.freeze()) } ?? self }

    /// The linking objects frozen, or the error freezing them is.
    public func _rlmFrozen() throws(RealmError) -> LinkingObjects<Element> {
        guard let managed else { return self }
        return LinkingObjects(results: try managed._rlmFrozen())
    }

    /// The live linking objects frozen ones came from.
    public func thaw() -> LinkingObjects<Element>? {
        guard let managed else { return self }
        return managed.thaw().map(LinkingObjects.init(results:))
    }

    /// The linking objects read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> LinkingObjects<Element> {
        guard let managed else { return self }
        return LinkingObjects(results: try managed._rlmReopened(in: realm))
    }
}

extension List: RealmCollection where Element: Object {
    /// The objects of the list as results, in list order.
    public var _rlmResults: Results<Element> { objectResults() }
}

extension MutableSet: RealmCollection where Element: Object {
    /// The objects of the set as results.
    public var _rlmResults: Results<Element> { objectResults() }
}

/// Any `RealmCollection` of objects of one class, through one type: `AnyRealmCollection(dogs)`,
/// `AnyRealmCollection(person.dogs)`.
public struct AnyRealmCollection<Element: Object>: RealmCollection {
    private let results: Results<Element>
    private let freezeBase: () throws(RealmError) -> AnyRealmCollection<Element>
    private let thawBase: () -> AnyRealmCollection<Element>?
    private let reopenBase: (Realm) throws(RealmError) -> AnyRealmCollection<Element>
    private let isBaseInvalidated: () -> Bool

    /// Wraps a collection.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        results = base._rlmResults
        freezeBase = { () throws(RealmError) in AnyRealmCollection(try base._rlmFrozen()) }
        thawBase = { base.thaw().map { AnyRealmCollection($0) } }
        reopenBase = { realm throws(RealmError) in AnyRealmCollection(try base._rlmReopened(in: realm)) }
        isBaseInvalidated = { base.isInvalidated }
    }

    /// The realm of the collection.
    public var realm: Realm? { results.realm }
    /// Whether the collection can no longer be read (a list's or set's object deleted, the realm closed).
    public var isInvalidated: Bool { isBaseInvalidated() }
    /// Whether the collection is frozen.
    public var isFrozen: Bool { results.isFrozen }
    /// The wrapped collection's objects as results.
    public var _rlmResults: Results<Element> { results }
    public var startIndex: Int { 0 }
    public var endIndex: Int { results.count }
    /// The object at a position.
    public subscript(position: Int) -> Element { results[position] }
    public var description: String { results.description }
    /// The wrapped collection, frozen.
    public func freeze() -> AnyRealmCollection<Element> { engineOrTrap { try freezeBase() } }
    /// The wrapped collection frozen, or the error freezing it is.
    public func _rlmFrozen() throws(RealmError) -> AnyRealmCollection<Element> { try freezeBase() }
    /// The live collection a frozen one came from.
    public func thaw() -> AnyRealmCollection<Element>? { thawBase() }
    /// The wrapped collection read through another handle of the file.
    public func _rlmReopened(in realm: Realm) throws(RealmError) -> AnyRealmCollection<Element> { try reopenBase(realm) }
}
