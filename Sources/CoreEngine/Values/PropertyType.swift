/// The type of a property. Raw values equal the C API's `db_property_type_e`.
package enum PropertyType: UInt8, Sendable, CaseIterable {
    case bool = 1
    case int = 2
    case float = 3
    case double = 4
    case string = 5
    case data = 6
    case timestamp = 7
    case objectID = 8
    case uuid = 9
    case decimal128 = 10
    /// A link to an object of another (or the same) class, named by `Property.objectType`.
    case object = 11
    /// Backlinks: the objects of `Property.objectType` whose `Property.linkOriginProperty` links
    /// here. Computed from the links, never stored or written.
    case linkingObjects = 12
    /// Any scalar value, a link to an object of any class, or null.
    case mixed = 13

    /// The name used in schemas and messages ("int", "objectId", ...).
    package var name: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .timestamp: return "date"
        case .objectID: return "objectId"
        case .uuid: return "uuid"
        case .decimal128: return "decimal128"
        case .object: return "object"
        case .linkingObjects: return "linkingObjects"
        case .mixed: return "mixed"
        }
    }

    /// Whether values of this type are stored in the object itself (everything but links,
    /// backlinks and mixed, which may hold a link).
    package var isScalar: Bool { rawValue <= PropertyType.decimal128.rawValue }

    /// Whether the type may be a primary key (as in Realm: int, string, objectId, uuid).
    package var canBePrimaryKey: Bool { [.int, .string, .objectID, .uuid].contains(self) }

    /// Whether the type may have a search index (as in Realm: bool, int, string, date, objectId, uuid).
    package var canBeIndexed: Bool { [.bool, .int, .string, .timestamp, .objectID, .uuid].contains(self) }

    /// Bytes per element in a fixed-width column block, or nil for variable-width types.
    var fixedWidth: Int? {
        switch self {
        case .bool: return 1
        case .int, .double: return 8
        case .float: return 4
        case .timestamp: return 12
        case .objectID: return 12
        case .uuid, .decimal128: return 16
        case .string, .data, .object, .linkingObjects, .mixed: return nil
        }
    }

    /// The value a required property holds before anything is written to it
    /// (a property added by a schema change reads this for existing objects).
    var defaultValue: Value {
        switch self {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .timestamp: return .timestamp(Timestamp(seconds: 0, nanoseconds: 0))
        case .objectID: return .objectID(ObjectID(bytes: [UInt8](repeating: 0, count: 12))!)
        case .uuid: return .uuid(UUIDValue(bytes: [UInt8](repeating: 0, count: 16))!)
        case .decimal128: return .decimal128(Decimal128(low: 0, high: 0x3040_0000_0000_0000))
        case .object, .linkingObjects, .mixed: return .null
        }
    }

    /// Converts `value` to this type, or throws `.wrongType`. Integers widen to float,
    /// double and decimal128; float and double convert to each other; nothing else converts.
    /// Links pass for `object` and `mixed` (whether the linked class fits is the caller's check).
    /// Null is returned unchanged (the caller checks nullability).
    func coerce(_ value: Value) throws -> Value {
        switch (self, value) {
        case (_, .null): return .null
        case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.string, .string),
             (.data, .data), (.timestamp, .timestamp), (.objectID, .objectID), (.uuid, .uuid),
             (.decimal128, .decimal128):
            return value
        case let (.float, .double(d)): return .float(Float(d))
        case let (.float, .int(i)): return .float(Float(i))
        case let (.double, .float(f)): return .double(Double(f))
        case let (.double, .int(i)): return .double(Double(i))
        case let (.decimal128, .int(i)): return .decimal128(Decimal128(integer: i))
        case (.object, .link): return value
        case (.mixed, _): return value  // any value; a link's class is checked by the caller
        default:
            throw DBError(.wrongType, "expected a value of type \(name), got \(value.typeName)")
        }
    }
}

extension Decimal128 {
    /// The exact decimal128 of an integer (exponent 0).
    init(integer: Int64) {
        let magnitude = integer.magnitude
        self.init(low: magnitude, high: (integer < 0 ? 1 << 63 : 0) | (UInt64(6176) << 49))
    }
}
