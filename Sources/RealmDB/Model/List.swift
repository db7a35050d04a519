import CoreEngine

/// An ordered collection of values or objects, the type of a to-many property:
/// `@Persisted var toys: List<Toy>`, `@Persisted var scores: List<Int>`.
///
/// On an unmanaged object it is a plain array; on a managed one it reads and writes the
/// realm's list (writes inside a write transaction) and always shows the realm's current version.
public final class List<Element: _Persistable>: RandomAccessCollection, CustomStringConvertible {
    private var unmanagedElements: [Element]
    private let managed: ManagedCollection<ListAccessor>?

    /// A new, empty, unmanaged list.
    public init() {
        unmanagedElements = []
        managed = nil
    }

    init(managed: ManagedCollection<ListAccessor>) {
        unmanagedElements = []
        self.managed = managed
    }

    init(accessor: ListAccessor, handle: RealmHandle) {
        unmanagedElements = []
        managed = ManagedCollection(accessor: accessor, handle: handle)
    }

    /// The realm managing this list, nil when unmanaged.
    public var realm: Realm? { managed?.realm }

    /// Whether the object owning the list was deleted or its realm closed.
    public var isInvalidated: Bool {
        guard let managed else { return false }
        return !((try? managed.accessor.isValid()) ?? false)
    }

    /// Whether the list belongs to a frozen realm; false when unmanaged.
    public var isFrozen: Bool { managed?.isFrozen ?? false }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        guard let managed else { return unmanagedElements.count }
        return engineOrTrap { try managed.accessor.count() }
    }

    /// The element at a position; setting it replaces the element. A position out of range stops the program.
    public subscript(position: Int) -> Element {
        get {
            guard let managed else { return unmanagedElements[position] }
            return engineOrTrap { try Element._rlmFrom(_StoredValue(try managed.accessor.get(position)), in: managed.handle) }
        }
        set {
            guard let managed else { unmanagedElements[position] = newValue; return }
            engineOrTrap {
                if let embedded = newValue as? EmbeddedObject {
                    _ = try managed.accessor.remove(at: position)
                    return try Self.insertEmbedded(embedded, at: position, managed)
                }
                try managed.accessor.set(try newValue._rlmValue(in: managed.handle).raw, at: position)
            }
        }
    }

    /// Appends an element (an unmanaged object is added to the realm).
    public func append(_ element: Element) {
        guard let managed else { unmanagedElements.append(element); return }
        engineOrTrap {
            if let embedded = element as? EmbeddedObject { return try Self.insertEmbedded(embedded, at: try managed.accessor.count(), managed) }
            try managed.accessor.append(try element._rlmValue(in: managed.handle).raw)
        }
    }

    /// Appends the elements of a sequence (unmanaged objects are added to the realm).
    public func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        guard let managed else { unmanagedElements.append(contentsOf: elements); return }
        if Element.self is EmbeddedObject.Type || Element.self is EmbeddedObject?.Type {
            for element in elements { append(element) }
            return
        }
        engineOrTrap { try managed.accessor.append(contentsOf: try elements.map { try $0._rlmValue(in: managed.handle).raw }) }
    }

    /// Appends the elements of a sequence: Realm's name for `append(contentsOf:)`.
    public func append<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        append(contentsOf: elements)
    }

    /// Inserts an element at a position (an unmanaged object is added to the realm).
    public func insert(_ element: Element, at index: Int) {
        guard let managed else { unmanagedElements.insert(element, at: index); return }
        engineOrTrap {
            if let embedded = element as? EmbeddedObject { return try Self.insertEmbedded(embedded, at: index, managed) }
            try managed.accessor.insert(try element._rlmValue(in: managed.handle).raw, at: index)
        }
    }

    /// Removes the element at a position and returns it.
    @discardableResult
    public func remove(at index: Int) -> Element {
        guard let managed else { return unmanagedElements.remove(at: index) }
        let element = self[index]
        _ = engineOrTrap { try managed.accessor.remove(at: index) }
        return element
    }

    /// Removes every element.
    public func removeAll() {
        guard let managed else { unmanagedElements.removeAll(); return }
        engineOrTrap { try managed.accessor.removeAll() }
    }

    /// Moves the element at position `from` to position `to`.
    public func move(from: Int, to: Int) {
        guard let managed else { unmanagedElements.insert(unmanagedElements.remove(at: from), at: to); return }
        engineOrTrap { try managed.accessor.move(from: from, to: to) }
    }

    /// Swaps the elements at positions `i` and `j`.
    public func swapAt(_ i: Int, _ j: Int) {
        guard let managed else { unmanagedElements.swapAt(i, j); return }
        engineOrTrap { try managed.accessor.swapAt(i, j) }
    }

    public var description: String { "List<\(Element.self)> [\(map { "\($0)" }.joined(separator: ", "))]" }

    private static func insertEmbedded(_ object: EmbeddedObject, at index: Int, _ managed: ManagedCollection<ListAccessor>) throws {
        try object.storeEmbedded(in: managed.handle) { values in try managed.accessor.insertEmbedded(at: index, values: values) }
    }

    /// The elements as the engine stores them, for `add`.
    func storedElements(in handle: RealmHandle) throws -> [Value] {
        try map { try $0._rlmValue(in: handle).raw }
    }
}

extension List: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Element._rlmShape
        shape.collection = .list
        if shape.type == .object { shape.isOptional = false }
        return shape
    }

    public static var _rlmDefault: List<Element> { List() }

    public static func _rlmGet(_ property: _ManagedProperty) throws -> List<Element> {
        List(accessor: try property.object.list(of: property.info), handle: property.realm)
    }

    public static func _rlmSet(_ value: List<Element>, _ property: _ManagedProperty) throws {
        let accessor = try property.object.list(of: property.info)
        if Element.self is EmbeddedObject.Type {
            let elements = Array(value)
            try accessor.removeAll()
            for (index, element) in elements.enumerated() {
                try insertEmbedded(element as! EmbeddedObject, at: index, ManagedCollection(accessor: accessor, handle: property.realm))
            }
            return
        }
        try accessor.replaceAll(with: try value.storedElements(in: property.realm))
    }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        throw RealmError(.wrongType, "a List is not a single value")
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> List<Element> {
        throw RealmError(.wrongType, "a List is not a single value")
    }

    public static func _rlmConvert(_ value: Any?) throws -> List<Element> {
        if let list = value as? List<Element> { return list }
        guard let elements = value as? [Any?] ?? (value as? [Any])?.map({ $0 }) else {
            throw RealmError(.wrongType, "\(value.map { "\(type(of: $0))" } ?? "nil") is not a list of \(Element.self)")
        }
        let list = List()
        list.unmanagedElements = try elements.map { try Element._rlmConvert($0) }
        return list
    }
}

extension List where Element: Equatable {
    /// The position of the first element equal to `element`.
    public func index(of element: Element) -> Int? { firstIndex(of: element) }
}

extension List: ManagedCollectionHolder {
    var managedCollection: ManagedCollection<ListAccessor>? { managed }

    /// The list's objects as results (a list of objects), for filtering, sorting and observing.
    func objectResults<Object: RealmDB.Object>() -> Results<Object> { objectResults("List") }

    /// The collection at the version it shows now, readable on any thread (an unmanaged one is
    /// returned as it is).
    public func freeze() -> List<Element> { frozenCollection() }

    /// The live collection a frozen one came from, or nil when its object is gone.
    public func thaw() -> List<Element>? { thawedCollection() }
}
