import CoreEngine

/// The objects that link to this one through a property: computed from the links, never written.
///
/// ```swift
/// class Dog: Object {
///     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
/// }
/// ```
///
/// Unmanaged objects have none. Managed, it is live, like `Results`, and can be filtered,
/// sorted and observed through `results`.
public struct LinkingObjects<Element: Object>: RandomAccessCollection, CustomStringConvertible {
    let managed: Results<Element>?

    /// Empty, unmanaged linking objects (what an unmanaged object has).
    public init() { managed = nil }

    init(results: Results<Element>) { managed = results }

    /// The linking objects as `Results` (for filtering, sorting, observing); nil when unmanaged.
    public var results: Results<Element>? { managed }

    /// The realm of the linking objects, nil when unmanaged.
    public var realm: Realm? { managed?.realm }
    /// Whether the realm of the linking objects was closed (false when unmanaged).
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }
    /// Whether these are frozen linking objects.
    public var isFrozen: Bool { managed?.isFrozen ?? false }
    public var startIndex: Int { 0 }
    public var endIndex: Int { managed?.count ?? 0 }

    /// The object at a position; on an unmanaged object, which has none, it stops the program.
    public subscript(position: Int) -> Element {
        guard let managed else { fatalError("RealmDB: an unmanaged object has no linking objects") }
        return managed[position]
    }

    /// The linking objects matching a query (see `Results.filter`).
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        guard let managed else { fatalError("RealmDB: an unmanaged object has no linking objects to filter") }
        return engineOrTrap { try managed.query(predicateFormat, args) }
    }

    public var description: String { managed?.description ?? "LinkingObjects<\(Element.className())> []" }
}

extension LinkingObjects: _Persistable, _QueryCollection {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.linkingObjects, objectType: Element.self) }
    public static var _rlmDefault: LinkingObjects<Element> { LinkingObjects() }

    public static func _rlmGet(_ property: _ManagedProperty) throws -> LinkingObjects<Element> {
        LinkingObjects(results: Results(try property.object.linkingObjects(of: property.info), handle: property.realm))
    }

    public static func _rlmSet(_ value: LinkingObjects<Element>, _ property: _ManagedProperty) throws {
        throw RealmError(.logic, "linking objects are computed from the links: write the links instead")
    }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        throw RealmError(.wrongType, "linking objects are not a value")
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> LinkingObjects<Element> {
        throw RealmError(.wrongType, "linking objects are not a value")
    }

    public static func _rlmConvert(_ value: Any?) throws -> LinkingObjects<Element> {
        throw RealmError(.logic, "linking objects are computed from the links: they cannot be given a value")
    }
}

extension Persisted where Value: _LinkingObjectsProperty {
    /// Declares linking objects: the objects of `Value`'s class whose property `originProperty`
    /// links to this object.
    public init(originProperty: String) {
        self.init(wrappedValue: Value._rlmDefault, options: PersistedOptions(originProperty: originProperty))
    }
}

/// `LinkingObjects`, for `@Persisted(originProperty:)`.
public protocol _LinkingObjectsProperty: _Persistable {}
extension LinkingObjects: _LinkingObjectsProperty {}
