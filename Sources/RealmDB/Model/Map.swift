import CoreEngine

/// String keys to values, the type of a dictionary property: `@Persisted var scores: Map<String, Int>`.
/// Keys may not contain "." or start with "$" (they are key path components in queries).
///
/// Unmanaged, it holds its entries; managed, it reads and writes the realm's dictionary (writes
/// inside a write transaction).
public final class Map<Key: _MapKey, Value: _Persistable>: CustomStringConvertible {
    private var unmanagedEntries: [(key: String, value: Value)] = []
    private let managed: ManagedCollection<DictionaryAccessor>?

    /// A new, empty, unmanaged map.
    public init() { managed = nil }

    init(accessor: DictionaryAccessor, handle: RealmHandle) { managed = ManagedCollection(accessor: accessor, handle: handle) }

    init(managed: ManagedCollection<DictionaryAccessor>) { self.managed = managed }

    /// The realm managing this map, nil when unmanaged.
    public var realm: Realm? { managed?.realm }
    /// Whether the object owning the map was deleted or its realm closed.
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }
    /// Whether the map belongs to a frozen realm; false when unmanaged.
    public var isFrozen: Bool { managed?.isFrozen ?? false }

    /// The number of entries.
    public var count: Int {
        guard let managed else { return unmanagedEntries.count }
        return engineOrTrap { try managed.accessor.count() }
    }

    /// Whether the map has no entries.
    public var isEmpty: Bool { count == 0 }

    /// The value for a key; setting nil removes the entry (inside a write when managed).
    public subscript(key: Key) -> Value? {
        get {
            guard let managed else { return unmanagedEntries.first { $0.key == key.stringKey }?.value }
            return engineOrTrap {
                try managed.accessor.value(forKey: key.stringKey).map { try Value._rlmFrom(_StoredValue($0), in: managed.handle) }
            }
        }
        set {
            guard let managed else {
                unmanagedEntries.removeAll { $0.key == key.stringKey }
                if let newValue { unmanagedEntries.append((key.stringKey, newValue)) }
                return
            }
            engineOrTrap {
                if let embedded = newValue as? EmbeddedObject {
                    try embedded.storeEmbedded(in: managed.handle) { values in
                        try managed.accessor.setEmbedded(forKey: key.stringKey, values: values)
                    }
                } else if let newValue {
                    try managed.accessor.set(try newValue._rlmValue(in: managed.handle).raw, forKey: key.stringKey)
                } else {
                    _ = try managed.accessor.remove(key: key.stringKey)
                }
            }
        }
    }

    /// The keys, in the stored order.
    public var keys: [Key] { entries.map { Key(stringKey: $0.key) } }

    /// The values, in the order of `keys`.
    public var values: [Value] { entries.map(\.value) }

    /// The entries, in the stored order.
    public var entries: [(key: String, value: Value)] {
        guard let managed else { return unmanagedEntries }
        return engineOrTrap {
            try managed.accessor.entries().map { ($0.key, try Value._rlmFrom(_StoredValue($0.value), in: managed.handle)) }
        }
    }

    /// Removes the entry for a key, if there is one.
    public func removeObject(for key: Key) { self[key] = nil }

    /// Removes every entry.
    public func removeAll() {
        guard let managed else { unmanagedEntries.removeAll(); return }
        engineOrTrap { try managed.accessor.removeAll() }
    }

    public var description: String { "Map<\(Key.self), \(Value.self)> [\(entries.map { "\($0.key): \($0.value)" }.joined(separator: ", "))]" }
}

extension Map: ManagedCollectionHolder {
    var managedCollection: ManagedCollection<DictionaryAccessor>? { managed }

    /// The map at the version it shows now, readable on any thread (an unmanaged one is returned
    /// as it is).
    public func freeze() -> Map<Key, Value> { frozenCollection() }

    /// The live map a frozen one came from, or nil when its object is gone.
    public func thaw() -> Map<Key, Value>? { thawedCollection() }
}

/// The key type of a `Map`: `String`.
public protocol _MapKey: Hashable {
    var stringKey: String { get }
    init(stringKey: String)
}

extension String: _MapKey {
    /// The string itself: the key as the map stores it.
    public var stringKey: String { self }
    public init(stringKey: String) { self = stringKey }
}

extension Map: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Value._rlmShape
        shape.collection = .dictionary
        if shape.type == .object { shape.isOptional = true }
        return shape
    }

    public static var _rlmDefault: Map<Key, Value> { Map() }

    public static func _rlmGet(_ property: _ManagedProperty) throws -> Map<Key, Value> {
        Map(accessor: try property.object.dictionary(of: property.info), handle: property.realm)
    }

    public static func _rlmSet(_ value: Map<Key, Value>, _ property: _ManagedProperty) throws {
        let accessor = try property.object.dictionary(of: property.info)
        if value.entries.contains(where: { $0.value is EmbeddedObject }) {
            let entries = value.entries
            try accessor.removeAll()
            let map = Map(accessor: accessor, handle: property.realm)
            for (key, entry) in entries { map[Key(stringKey: key)] = entry }
            return
        }
        let entries = try value.entries.map { ($0.key, try $0.value._rlmValue(in: property.realm).raw) }
        try accessor.replaceAll(with: entries)
    }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        throw RealmError(.wrongType, "a Map is not a single value")
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Map<Key, Value> {
        throw RealmError(.wrongType, "a Map is not a single value")
    }

    public static func _rlmConvert(_ value: Any?) throws -> Map<Key, Value> {
        if let map = value as? Map<Key, Value> { return map }
        guard let entries = value as? [String: Any] else {
            throw RealmError(.wrongType, "\(value.map { "\(type(of: $0))" } ?? "nil") is not a dictionary of \(Value.self)")
        }
        let map = Map()
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) { map[Key(stringKey: key)] = try Value._rlmConvert(entry) }
        return map
    }
}
