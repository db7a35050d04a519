import CoreEngine
import Foundation

/// A value of any stored type, or a link to an object of any class, or nothing: the type of a
/// mixed property (`@Persisted var extra: AnyRealmValue`).
public enum AnyRealmValue: Hashable {
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    case object(Object)

    /// Whether both hold the same value; two objects are equal when they are the same object (`isSameObject(as:)`).
    public static func == (a: AnyRealmValue, b: AnyRealmValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x.isSameObject(as: y)
        case (.object, _), (_, .object): return false
        default: return (try? a._rlmValue(in: nil).raw) == (try? b._rlmValue(in: nil).raw)
        }
    }

    public func hash(into hasher: inout Hasher) {
        if case .object(let object) = self {
            hasher.combine(object.managed?.key)
        } else {
            hasher.combine(try? _rlmValue(in: nil).raw)
        }
    }

    /// The value of `.int`, or nil for any other case.
    public var intValue: Int? { if case .int(let value) = self { return value } else { return nil } }
    /// The value of `.string`, or nil for any other case.
    public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    /// The value of `.double`, or nil for any other case.
    public var doubleValue: Double? { if case .double(let value) = self { return value } else { return nil } }
    /// The value of `.bool`, or nil for any other case.
    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    /// The object of `.object`, or nil for any other case.
    public var objectValue: Object? { if case .object(let value) = self { return value } else { return nil } }
}

extension AnyRealmValue: _Persistable {
    public static var _rlmShape: _PropertyShape { _PropertyShape(.mixed, isOptional: true) }
    public static var _rlmDefault: AnyRealmValue { .none }

    public func _rlmValue(in realm: RealmHandle?) throws -> _StoredValue {
        switch self {
        case .none: return _StoredValue(.null)
        case .int(let value): return value._rlmValue(in: realm)
        case .bool(let value): return value._rlmValue(in: realm)
        case .float(let value): return value._rlmValue(in: realm)
        case .double(let value): return value._rlmValue(in: realm)
        case .string(let value): return value._rlmValue(in: realm)
        case .data(let value): return value._rlmValue(in: realm)
        case .date(let value): return value._rlmValue(in: realm)
        case .objectId(let value): return value._rlmValue(in: realm)
        case .decimal128(let value): return value._rlmValue(in: realm)
        case .uuid(let value): return value._rlmValue(in: realm)
        case .object(let object): return try object._rlmValue(in: realm)
        }
    }

    public static func _rlmFrom(_ value: _StoredValue, in realm: RealmHandle) throws -> AnyRealmValue {
        switch value.raw {
        case .null: return .none
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(Int(number))
        case .float(let number): return .float(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .data(let bytes): return .data(Data(bytes))
        case .timestamp: return .date(try Date._rlmFrom(value, in: realm))
        case .objectID(let id): return .objectId(ObjectId(raw: id))
        case .uuid(let id): return .uuid(UUID(storedBytes: id.bytes))
        case .decimal128(let number): return .decimal128(Decimal128(raw: number))
        case .link(let link):
            let accessor = try translatingErrors { () -> ObjectAccessor in
                try realm.engine.object(try realm.engine.classInfo(tableID: link.table), key: link.key)
            }
            let type = realm.types[accessor.classInfo.name] ?? DynamicObject.self
            return .object(type.materialize(accessor, in: realm))
        }
    }

    public static func _rlmConvert(_ value: Any?) throws -> AnyRealmValue {
        guard let value, !isNil(value) else { return .none }
        switch value {
        case let mixed as AnyRealmValue: return mixed
        case let object as Object: return .object(object)
        case let number as Int: return .int(number)
        case let flag as Bool: return .bool(flag)
        case let number as Float: return .float(number)
        case let number as Double: return .double(number)
        case let text as String: return .string(text)
        case let data as Data: return .data(data)
        case let date as Date: return .date(date)
        case let id as ObjectId: return .objectId(id)
        case let number as Decimal128: return .decimal128(number)
        case let uuid as UUID: return .uuid(uuid)
        case let number as any BinaryInteger:
            guard let exact = Int(exactly: number) else { throw RealmError(.outOfRange, "\(number) does not fit in 64 bits") }
            return .int(exact)
        default: throw RealmError(.wrongType, "\(type(of: value)) cannot be stored in an AnyRealmValue")
        }
    }
}

extension AnyRealmValue: _QueryComparable {}

/// An object of a class this program has no Swift class for (a link in an `AnyRealmValue` to a
/// class outside `objectTypes`): properties by name only, through `subscript`.
public final class DynamicObject: Object {}
