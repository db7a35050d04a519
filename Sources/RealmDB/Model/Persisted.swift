import CoreEngine

/// Declares a stored property of an `Object` subclass:
///
/// ```swift
/// @Persisted(primaryKey: true) var id: ObjectId
/// @Persisted(indexed: true) var name: String
/// @Persisted var age = 3
/// @Persisted var owner: Person?
/// @Persisted var toys: List<Toy>
/// ```
///
/// On an unmanaged object the property holds its value; on a managed one every read and write
/// goes to the realm (writes inside a write transaction). A property without an initial value
/// starts as its type's zero (0, "", false, nil, an empty list).
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    /// The value while the object is unmanaged.
    var unmanagedValue: Value
    let options: PersistedOptions
    /// Set only on a probe object, to find which property a key path names (see `ObjectSchemaDiscovery`).
    var isProbeMarker = false

    public init() { self.init(wrappedValue: Value._rlmDefault) }

    public init(wrappedValue value: Value) {
        unmanagedValue = value
        options = PersistedOptions()
    }

    /// - Parameter primaryKey: whether this property is the class's primary key (Int, String,
    ///   ObjectId or UUID, or their optionals); primary keys are indexed.
    public init(primaryKey: Bool) {
        unmanagedValue = Value._rlmDefault
        options = PersistedOptions(isPrimaryKey: primaryKey)
    }

    public init(wrappedValue value: Value, primaryKey: Bool) {
        unmanagedValue = value
        options = PersistedOptions(isPrimaryKey: primaryKey)
    }

    /// - Parameter indexed: whether to keep an index of this property, for faster equality and
    ///   range queries (Bool, integers, String, Date, ObjectId, UUID).
    public init(indexed: Bool) {
        unmanagedValue = Value._rlmDefault
        options = PersistedOptions(isIndexed: indexed)
    }

    public init(wrappedValue value: Value, indexed: Bool) {
        unmanagedValue = value
        options = PersistedOptions(isIndexed: indexed)
    }

    init(wrappedValue value: Value, options: PersistedOptions) {
        unmanagedValue = value
        self.options = options
    }

    @available(*, unavailable, message: "@Persisted is only available on properties of Object subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object: to the realm when it is managed.
    public static subscript<EnclosingSelf: Object>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        get {
            guard let managed = object.managed, let handle = object.handle else {
                if let recorder = object.keyPathRecorder {
                    recorder.names.append(ObjectSchemaDiscovery.propertyName(storageKeyPath, of: EnclosingSelf.self))
                    return Value._rlmProbe(recorder)
                }
                if !object.unmanagedValuesByName.isEmpty,
                   let value = object.unmanagedValuesByName[ObjectSchemaDiscovery.propertyName(storageKeyPath, of: EnclosingSelf.self)] {
                    return value as! Value
                }
                return object[keyPath: storageKeyPath].unmanagedValue
            }
            let name = ObjectSchemaDiscovery.propertyName(storageKeyPath, of: EnclosingSelf.self)
            return engineOrTrap {
                let info = try managed.classInfo.requireProperty(named: name)
                return try Value._rlmGet(_ManagedProperty(object: managed, info: info, realm: handle))
            }
        }
        set {
            guard let managed = object.managed, let handle = object.handle else {
                if !object.unmanagedValuesByName.isEmpty {
                    object.unmanagedValuesByName[ObjectSchemaDiscovery.propertyName(storageKeyPath, of: EnclosingSelf.self)] = nil
                }
                object[keyPath: storageKeyPath].unmanagedValue = newValue
                return
            }
            let name = ObjectSchemaDiscovery.propertyName(storageKeyPath, of: EnclosingSelf.self)
            engineOrTrap {
                let info = try managed.classInfo.requireProperty(named: name)
                try Value._rlmSet(newValue, _ManagedProperty(object: managed, info: info, realm: handle))
            }
        }
    }
}

/// What `@Persisted(...)` says besides the type.
struct PersistedOptions: Sendable {
    var isPrimaryKey = false
    var isIndexed = false
    /// For linking objects: the property of the other class whose links are counted back.
    var originProperty: String?
}

/// What schema discovery reads from a `@Persisted` property it finds by reflection.
protocol PersistedProperty {
    var options: PersistedOptions { get }
    var isProbeMarker: Bool { get }
    /// The unmanaged value.
    var anyValue: Any { get }
    /// The property's type, seen through its Swift type (for access by name).
    var valueType: any _Persistable.Type { get }
}

extension Persisted: PersistedProperty {
    var anyValue: Any { unmanagedValue }
    var valueType: any _Persistable.Type { Value.self }
}
