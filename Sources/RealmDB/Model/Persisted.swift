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
///
/// The initializers and the accessor are inlinable, so that the model's module specializes
/// them for each property type: unspecialized, every access looked up `Persisted<Value>`'s
/// metadata at run time, which was most of the cost of reading a property.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    /// The value while the object is unmanaged.
    @usableFromInline var unmanagedValue: Value
    @usableFromInline let options: PersistedOptions
    /// Set only on a probe object, to find which property a key path names (see `ObjectSchemaDiscovery`).
    @usableFromInline var isProbeMarker = false
    /// Set when the object became managed and its class is `Encodable`: where `encode(to:)`
    /// reads the stored value (see `Persisted+Codable.swift`).
    @usableFromInline var encodingSource: _EncodingSource?

    /// A property starting as its type's zero (0, "", false, nil, an empty list).
    @inlinable public init() { self.init(wrappedValue: Value._rlmDefault) }

    /// A property starting as `value` (`@Persisted var age = 3`).
    @inlinable public init(wrappedValue value: Value) {
        unmanagedValue = value
        options = PersistedOptions()
    }

    /// - Parameter primaryKey: whether this property is the class's primary key (Int, String,
    ///   ObjectId or UUID, or their optionals); primary keys are indexed.
    @inlinable public init(primaryKey: Bool) {
        unmanagedValue = Value._rlmDefault
        options = PersistedOptions(isPrimaryKey: primaryKey)
    }

    /// `init(primaryKey:)` with an initial value.
    @inlinable public init(wrappedValue value: Value, primaryKey: Bool) {
        unmanagedValue = value
        options = PersistedOptions(isPrimaryKey: primaryKey)
    }

    /// - Parameter indexed: whether to keep an index of this property, for faster equality and
    ///   range queries (Bool, integers, String, Date, ObjectId, UUID).
    @inlinable public init(indexed: Bool) {
        unmanagedValue = Value._rlmDefault
        options = PersistedOptions(isIndexed: indexed)
    }

    /// `init(indexed:)` with an initial value.
    @inlinable public init(wrappedValue value: Value, indexed: Bool) {
        unmanagedValue = value
        options = PersistedOptions(isIndexed: indexed)
    }

    @inlinable init(wrappedValue value: Value, options: PersistedOptions) {
        unmanagedValue = value
        self.options = options
    }

    /// Unavailable: `@Persisted` works only on properties of `Object` subclasses.
    @available(*, unavailable, message: "@Persisted is only available on properties of Object subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    /// Reads and writes through the enclosing object: to the realm when it is managed.
    @inlinable
    public static subscript<EnclosingSelf: Object>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        get {
            if object._rlmIsManaged || object._rlmIsRecording {
                let index = fieldIndex(storageKeyPath)
                if let (stored, handle) = object._rlmReadAhead(fieldIndex: index) { return _rlmConvertOrTrap(stored, in: handle) }
                if let property = object._rlmManagedProperty(fieldIndex: index, reading: true) {
                    return _rlmReadOrTrap(property)
                }
                if let recorder = object._rlmRecord(fieldIndex: index) { return Value._rlmProbe(recorder) }
            }
            return storage(of: object, storageKeyPath).pointee.unmanagedValue
        }
        set {
            if object._rlmIsManaged {
                let index = fieldIndex(storageKeyPath)
                if object._rlmWriteByKey(newValue, fieldIndex: index) { return }
                if let property = object._rlmManagedProperty(fieldIndex: index, reading: false) {
                    _rlmWriteOrTrap(newValue, property)
                    return
                }
            }
            storage(of: object, storageKeyPath).pointee.unmanagedValue = newValue
        }
    }

    /// The property's storage in `object`, at the offset found once per key path: reading or
    /// writing through the key path itself went through the runtime's key path projection, most
    /// of the cost of setting a property of a new object.
    @inlinable
    static func storage<EnclosingSelf: Object>(
        of object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> UnsafeMutablePointer<Persisted<Value>> {
        let offset = _rlmStorageOffset(storageKeyPath, in: object) { instance in
            withUnsafeMutablePointer(to: &(instance as! EnclosingSelf)[keyPath: storageKeyPath]) { UnsafeMutableRawPointer($0) }
        }
        return Unmanaged.passUnretained(object).toOpaque().advanced(by: offset).assumingMemoryBound(to: Persisted<Value>.self)
    }

    /// The index of the property among its class's `@Persisted` fields.
    @inlinable
    static func fieldIndex<EnclosingSelf: Object>(_ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>) -> Int {
        _rlmFieldIndex(storageKeyPath, in: EnclosingSelf.self) { probe in
            (probe as! EnclosingSelf)[keyPath: storageKeyPath].isProbeMarker = true
        }
    }
}

/// Reads a managed property; misuse (a deleted object, another thread) stops with its message,
/// as Realm's SDK raises an exception.
@usableFromInline
func _rlmReadOrTrap<Value: _Persistable>(_ property: _ManagedProperty) -> Value {
    engineOrTrap { try Value._rlmGet(property) }
}

/// A value read ahead, as the property's type (a stored value of another type stops the program,
/// as `_rlmReadOrTrap` does).
@usableFromInline
func _rlmConvertOrTrap<Value: _Persistable>(_ stored: _StoredValue, in handle: RealmHandle) -> Value {
    engineOrTrap { try Value._rlmFrom(stored, in: handle) }
}

/// Writes a managed property (inside a write transaction); a plain write is noted, so that the
/// values read ahead for other objects stay current (see `OwnPlainWrites`).
@usableFromInline
func _rlmWriteOrTrap<Value: _Persistable>(_ value: Value, _ property: _ManagedProperty) {
    engineOrTrap {
        try property.realm.recordingWrite(of: property.object.classInfo.tableID, key: property.object.key,
                                          isPlain: OwnPlainWrites.isPlain(property.info)) {
            try Value._rlmSet(value, property)
        }
    }
}

/// The index in `type`'s fields of the field whose storage `keyPath` is (see
/// `ObjectSchemaDiscovery.fieldIndex`); `mark` sets the probe marker through the key path.
@usableFromInline
func _rlmFieldIndex(_ keyPath: AnyKeyPath, in type: Object.Type, mark: (Object) -> Void) -> Int {
    ObjectSchemaDiscovery.fieldIndex(keyPath, in: type, mark: mark)
}

/// The offset of the storage `keyPath` names in `object` (see `ObjectSchemaDiscovery.storageOffset`).
@usableFromInline
func _rlmStorageOffset(_ keyPath: AnyKeyPath, in object: Object, address: (Object) -> UnsafeMutableRawPointer) -> Int {
    ObjectSchemaDiscovery.storageOffset(keyPath, in: object, address: address)
}

/// What `@Persisted(...)` says besides the type.
@usableFromInline
struct PersistedOptions: Sendable {
    @usableFromInline var isPrimaryKey = false
    @usableFromInline var isIndexed = false
    /// For linking objects: the property of the other class whose links are counted back.
    @usableFromInline var originProperty: String?

    @usableFromInline
    init(isPrimaryKey: Bool = false, isIndexed: Bool = false, originProperty: String? = nil) {
        self.isPrimaryKey = isPrimaryKey
        self.isIndexed = isIndexed
        self.originProperty = originProperty
    }
}

/// What schema discovery finds a `@Persisted` field by.
protocol PersistedProperty {
    static func field(name: String, offset: Int) -> AnyPersistedField
}

extension Persisted: PersistedProperty {
    static func field(name: String, offset: Int) -> AnyPersistedField { PersistedField<Value>(name: name, offset: offset) }
}
