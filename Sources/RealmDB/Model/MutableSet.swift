import CoreEngine

/// An unordered collection without duplicates, the type of a set property:
/// `@Persisted var tags: MutableSet<String>`, `@Persisted var friends: MutableSet<Person>`.
///
/// Unmanaged, it holds its elements; managed, it reads and writes the realm's set (writes inside
/// a write transaction). Positions are those of the stored order, stable until the set changes.
public final class MutableSet<Element: _Persistable>: RandomAccessCollection, CustomStringConvertible {
    private var unmanagedElements: [Element]
    private let managed: ManagedCollection<SetAccessor>?

    /// A new, empty, unmanaged set.
    public init() {
        unmanagedElements = []
        managed = nil
    }

    init(managed: ManagedCollection<SetAccessor>) {
        unmanagedElements = []
        self.managed = managed
    }

    init(accessor: SetAccessor, handle: RealmHandle) {
        unmanagedElements = []
        managed = ManagedCollection(accessor: accessor, handle: handle)
    }

    /// The realm managing this set, nil when unmanaged.
    public var realm: Realm? { managed?.realm }
    /// Whether the object owning the set was deleted or its realm closed.
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }
    /// Whether the set belongs to a frozen realm; false when unmanaged.
    public var isFrozen: Bool { managed?.isFrozen ?? false }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        guard let managed else { return unmanagedElements.count }
        return engineOrTrap { try managed.accessor.count() }
    }

    /// The element at a position in the stored order; a position out of range stops the program.
    public subscript(position: Int) -> Element {
        guard let managed else { return unmanagedElements[position] }
        return engineOrTrap {
            let elements = try managed.accessor.elements()
            guard elements.indices.contains(position) else {
                throw RealmError(.outOfRange, "position \(position) of a set of \(elements.count)")
            }
            return try Element._rlmFrom(_StoredValue(elements[position]), in: managed.handle)
        }
    }

    /// Whether the set holds `element`.
    public func contains(_ element: Element) -> Bool {
        guard let managed else { return unmanagedElements.contains { stored($0) == stored(element) } }
        return engineOrTrap { try managed.accessor.contains(try element._rlmValue(in: managed.handle).raw) }
    }

    /// Adds `element` unless the set holds it (an unmanaged object is added to the realm).
    public func insert(_ element: Element) {
        guard let managed else {
            if !contains(element) { unmanagedElements.append(element) }
            return
        }
        _ = engineOrTrap { try managed.accessor.insert(try element._rlmValue(in: managed.handle).raw) }
    }

    /// Removes `element` if the set holds it.
    public func remove(_ element: Element) {
        guard let managed else { unmanagedElements.removeAll { stored($0) == stored(element) }; return }
        _ = engineOrTrap { try managed.accessor.remove(try element._rlmValue(in: managed.handle).raw) }
    }

    /// Removes every element.
    public func removeAll() {
        guard let managed else { unmanagedElements.removeAll(); return }
        engineOrTrap { try managed.accessor.removeAll() }
    }

    /// Adds each element of a sequence the set does not hold: Realm's name for `formUnion(_:)`.
    public func insert<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        formUnion(elements)
    }

    /// Adds every element of `other`.
    public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
        guard let managed else { for element in other { insert(element) }; return }
        engineOrTrap { try managed.accessor.formUnion(try other.map { try $0._rlmValue(in: managed.handle).raw }) }
    }

    /// Keeps only the elements also in `other`.
    public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
        guard let managed else {
            let kept = Set(other.map(stored))
            unmanagedElements.removeAll { !kept.contains(stored($0)) }
            return
        }
        engineOrTrap { try managed.accessor.formIntersection(try other.map { try $0._rlmValue(in: managed.handle).raw }) }
    }

    /// Removes the elements of `other`.
    public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
        guard let managed else { for element in other { remove(element) }; return }
        engineOrTrap { try managed.accessor.subtract(try other.map { try $0._rlmValue(in: managed.handle).raw }) }
    }

    public var description: String { "MutableSet<\(Element.self)> {\(map { "\($0)" }.joined(separator: ", "))}" }

    /// An unmanaged element as the engine would store it, for comparing (objects by identity).
    private func stored(_ element: Element) -> StoredIdentity {
        if let object = element as? Object { return .object(ObjectIdentifier(object)) }
        return .value((try? element._rlmValue(in: nil).raw) ?? .null)
    }

    private enum StoredIdentity: Hashable {
        case value(Value)
        case object(ObjectIdentifier)
    }

    func storedElements(in handle: RealmHandle) throws -> [Value] { try map { try $0._rlmValue(in: handle).raw } }
}

extension MutableSet: _Persistable, _QueryCollection {
    public static var _rlmShape: _PropertyShape {
        var shape = Element._rlmShape
        shape.collection = .set
        if shape.type == .object { shape.isOptional = false }
        return shape
    }

    public static var _rlmDefault: MutableSet<Element> { MutableSet() }

    public static func _rlmGet(_ property: _ManagedProperty) throws -> MutableSet<Element> {
        MutableSet(accessor: try property.object.set(of: property.info), handle: property.realm)
    }

    public static func _rlmSet(_ value: MutableSet<Element>, _ property: _ManagedProperty) throws {
        try property.object.set(of: property.info).replaceAll(with: try value.storedElements(in: property.realm))
    }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        throw RealmError(.wrongType, "a MutableSet is not a single value")
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> MutableSet<Element> {
        throw RealmError(.wrongType, "a MutableSet is not a single value")
    }

    public static func _rlmConvert(_ value: Any?) throws -> MutableSet<Element> {
        if let set = value as? MutableSet<Element> { return set }
        guard let elements = value as? [Any] else {
            throw RealmError(.wrongType, "\(value.map { "\(type(of: $0))" } ?? "nil") is not a set of \(Element.self)")
        }
        let set = MutableSet()
        for element in elements { set.insert(try Element._rlmConvert(element)) }
        return set
    }
}

extension MutableSet: ManagedCollectionHolder {
    var managedCollection: ManagedCollection<SetAccessor>? { managed }

    /// The set's objects as results (a set of objects), for filtering, sorting and observing.
    func objectResults<Object: RealmDB.Object>() -> Results<Object> { objectResults("MutableSet") }

    /// The collection at the version it shows now, readable on any thread (an unmanaged one is
    /// returned as it is).
    public func freeze() -> MutableSet<Element> { frozenCollection() }

    /// The live collection a frozen one came from, or nil when its object is gone.
    public func thaw() -> MutableSet<Element>? { thawedCollection() }
}
