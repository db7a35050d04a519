import CoreEngine
import Foundation

/// A type a `@Persisted` property may have: the scalars (`Bool`, `Int`, `Int64`, `Int32`, `Int16`,
/// `Int8`, `Float`, `Double`, `String`, `Data`, `Date`, `UUID`, `ObjectId`, `Decimal128`), their
/// optionals, optional links to `Object` subclasses, and `List`s of these.
///
/// The requirements are the library's own (their names start with `_rlm`); conform new types by
/// building on these, not by implementing them.
public protocol _Persistable: SendableMetatype {
    /// The schema of a property of this type.
    static var _rlmShape: _PropertyShape { get }
    /// The value of a new object's property that was given none.
    static var _rlmDefault: Self { get }
    /// Reads the property of a managed object.
    static func _rlmGet(_ property: _ManagedProperty) throws -> Self
    /// Writes the property of a managed object (inside a write transaction).
    static func _rlmSet(_ value: Self, _ property: _ManagedProperty) throws
    /// This value as the engine stores it; `realm` is where linked objects get added.
    func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue
    /// A value read from storage.
    static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Self
    /// A value given dynamically (`init(value:)`, `setValue(_:forKey:)`), checked and converted.
    static func _rlmConvert(_ value: Any?) throws -> Self
    /// What a property of this type returns while a key path is recorded (`KeyPathRecorder`):
    /// for a link, an object that records on.
    static func _rlmProbe(_ recorder: _KeyPathRecorder) -> Self
}

extension _Persistable {
    public static func _rlmProbe(_ recorder: _KeyPathRecorder) -> Self { _rlmDefault }

    public static func _rlmConvert(_ value: Any?) throws -> Self {
        if let value = value as? Self { return value }
        // A number of another type that holds the same value exactly: a dictionary literal's Int
        // for an Int32 or Double property, its 2.0 for an Int one, or a Double for a Float one (rounded) (`["age": 2, "weight": 1.5]`
        // is a [String: Double]).
        if let integerType = Self.self as? any _PersistableInteger.Type {
            if let number = value as? any BinaryInteger, let converted = integerType.init(exactly: number) as? Self { return converted }
            if let number = value as? any BinaryFloatingPoint, let converted = integerType.init(exactly: number) as? Self { return converted }
        }
        if let floatingType = Self.self as? any (BinaryFloatingPoint & _Persistable).Type {
            if let number = value as? any BinaryInteger, let converted = floatingType.init(exactly: number) as? Self { return converted }
            if let number = value as? any BinaryFloatingPoint, let converted = floatingType.init(number) as? Self { return converted }
        }
        throw RealmError(.wrongType, "\(value.map { "\(type(of: $0))" } ?? "nil") is not a \(Self.self)")
    }

    public static func _rlmGet(_ property: _ManagedProperty) throws -> Self {
        try _rlmFrom(_StoredValue(try property.value()), in: property.realm)
    }

    public static func _rlmSet(_ value: Self, _ property: _ManagedProperty) throws {
        try property.object.setValue(try value._rlmValue(in: property.realm).raw, for: property.info)
    }
}

/// The schema of a property, as a `_Persistable` type describes it.
public struct _PropertyShape: Sendable {
    var type: PropertyType
    var isOptional = false
    var collection: CollectionKind = .none
    /// For links: the linked class.
    var objectType: Object.Type?

    init(_ type: PropertyType, isOptional: Bool = false, collection: CollectionKind = .none, objectType: Object.Type? = nil) {
        self.type = type
        self.isOptional = isOptional
        self.collection = collection
        self.objectType = objectType
    }
}

/// One value as the engine stores it.
public struct _StoredValue {
    var raw: Value
    init(_ raw: Value) { self.raw = raw }
}

/// A property of a managed object: the object, the property and the realm they belong to.
public struct _ManagedProperty {
    let object: ObjectAccessor
    let bound: BoundProperty
    let realm: RealmHandle
    var readAhead: ReadAhead? = nil

    init(object: ObjectAccessor, bound: BoundProperty, realm: RealmHandle, readAhead: ReadAhead? = nil) {
        self.object = object
        self.bound = bound
        self.realm = realm
        self.readAhead = readAhead
    }

    init(object: ObjectAccessor, info: PropertyInfo, realm: RealmHandle) {
        self.init(object: object, bound: BoundProperty(info), realm: realm)
    }

    var info: PropertyInfo { _read { yield bound.info } }

    /// The stored single value: read ahead when it was, else from the engine.
    @inline(__always)
    func value() throws -> Value {
        if let readAhead, let value = try readAhead.value(of: bound) { return value }
        return try object.value(of: bound.info)
    }
}

/// The error for a stored value of another type than the Swift property's (a schema mismatch).
func typeMismatch(_ value: _StoredValue, _ expected: String) -> RealmError {
    RealmError(.wrongType, "the stored value \(value.raw.typeName) is not a \(expected): the Swift class does not match the realm's schema")
}

extension Bool: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.bool) }
    public static var _rlmDefault: Bool { false }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.bool(self)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Bool {
        guard case .bool(let flag) = value.raw else { throw typeMismatch(value, "Bool") }
        return flag
    }
}

/// The integer types share one stored type, a 64-bit integer; narrower ones check their range on write.
public protocol _PersistableInteger: _Persistable, FixedWidthInteger {}

extension _PersistableInteger {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.int) }
    public static var _rlmDefault: Self { 0 }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.int(Int64(self))) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Self {
        guard case .int(let number) = value.raw else { throw typeMismatch(value, "\(Self.self)") }
        guard let narrowed = Self(exactly: number) else {
            throw RealmError(.outOfRange, "the stored integer \(number) does not fit in \(Self.self)")
        }
        return narrowed
    }
}

extension Int: _PersistableInteger {}
extension Int64: _PersistableInteger {}
extension Int32: _PersistableInteger {}
extension Int16: _PersistableInteger {}
extension Int8: _PersistableInteger {}

extension Float: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.float) }
    public static var _rlmDefault: Float { 0 }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.float(self)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Float {
        guard case .float(let number) = value.raw else { throw typeMismatch(value, "Float") }
        return number
    }
}

extension Double: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.double) }
    public static var _rlmDefault: Double { 0 }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.double(self)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Double {
        guard case .double(let number) = value.raw else { throw typeMismatch(value, "Double") }
        return number
    }
}

extension String: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.string) }
    public static var _rlmDefault: String { "" }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.string(self)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> String {
        guard case .string(let text) = value.raw else { throw typeMismatch(value, "String") }
        return text
    }
}

extension Data: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.data) }
    public static var _rlmDefault: Data { Data() }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.data([UInt8](self))) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Data {
        guard case .data(let bytes) = value.raw else { throw typeMismatch(value, "Data") }
        return Data(bytes)
    }
}

extension Date: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.timestamp) }
    /// The reference date, as Realm's SDK (a new object's required `Date` property without a value).
    public static var _rlmDefault: Date { Date(timeIntervalSince1970: 0) }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.timestamp(Timestamp(self))) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Date {
        guard case .timestamp(let stamp) = value.raw else { throw typeMismatch(value, "Date") }
        return Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanoseconds) / 1e9)
    }
}

extension Timestamp {
    /// Whole seconds rounded down, and the nanoseconds after them (rounded to the nearest).
    init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanoseconds = ((interval - seconds) * 1e9).rounded()
        if nanoseconds >= 1e9 { seconds += 1; nanoseconds -= 1e9 }
        self.init(seconds: Int64(seconds), nanoseconds: Int32(nanoseconds))
    }
}

extension UUID: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.uuid) }
    public static var _rlmDefault: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue {
        let bytes = withUnsafeBytes(of: uuid) { Array($0) }
        return _StoredValue(.uuid(UUIDValue(uncheckedBytes: bytes)))
    }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> UUID {
        guard case .uuid(let id) = value.raw else { throw typeMismatch(value, "UUID") }
        return UUID(storedBytes: id.bytes)
    }

    /// A UUID from its 16 stored bytes.
    init(storedBytes bytes: [UInt8]) {
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes) }
        self.init(uuid: uuid)
    }
}

extension ObjectId: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.objectID) }
    public static var _rlmDefault: ObjectId { ObjectId() }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.objectID(raw)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> ObjectId {
        guard case .objectID(let id) = value.raw else { throw typeMismatch(value, "ObjectId") }
        return ObjectId(raw: id)
    }
}

extension Decimal128: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.decimal128) }
    public static var _rlmDefault: Decimal128 { 0 }
    public func _rlmValue(in realm: RealmHandle?) -> _StoredValue { _StoredValue(.decimal128(raw)) }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Decimal128 {
        guard case .decimal128(let number) = value.raw else { throw typeMismatch(value, "Decimal128") }
        return Decimal128(raw: number)
    }
}

/// An optional scalar may be nil; an optional `Object` subclass is a link (links are always optional).
extension Optional: _Persistable where Wrapped: _Persistable {
    public static var _rlmShape: _PropertyShape {
        var shape = Wrapped._rlmShape
        shape.isOptional = true
        return shape
    }
    public static var _rlmDefault: Wrapped? { nil }
    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        guard let self else { return _StoredValue(.null) }
        return try self._rlmValue(in: realm)
    }
    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> Wrapped? {
        if value.raw.isNull { return nil }
        return try Wrapped._rlmFrom(value, in: realm)
    }
    public static func _rlmSet(_ value: Wrapped?, _ property: _ManagedProperty) throws {
        if try storeLink(value, property) { return }
        try property.object.setValue(try value._rlmValue(in: property.realm).raw, for: property.info)
    }
    public static func _rlmProbe(_ recorder: _KeyPathRecorder) -> Wrapped? {
        guard let objectType = Wrapped.self as? Object.Type else { return nil }
        return recorder.probe(objectType) as? Wrapped
    }
    public static func _rlmConvert(_ value: Any?) throws -> Wrapped? {
        guard let value else { return nil }
        if let optional = value as? Wrapped? { return optional }
        return try Wrapped._rlmConvert(value)
    }
}
