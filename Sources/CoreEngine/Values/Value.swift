/// A seconds-and-nanoseconds point in time, as stored for `date` properties.
package struct Timestamp: Hashable, Comparable, Sendable {
    package var seconds: Int64
    /// In (-1e9, 1e9), with the sign of `seconds` (either sign when `seconds` is 0).
    package var nanoseconds: Int32

    package init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    package static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}

/// An identifier of a fixed number of bytes, ordered byte by byte from the first.
package protocol FixedWidthIdentifier: Hashable, Comparable, Sendable {
    static var width: Int { get }
    /// Always `width` bytes.
    var bytes: [UInt8] { get }
    /// Only for bytes already known to be `width` long.
    init(uncheckedBytes: [UInt8])
}

extension FixedWidthIdentifier {
    /// nil unless `bytes` holds exactly `width` bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.width else { return nil }
        self.init(uncheckedBytes: bytes)
    }

    package static func < (a: Self, b: Self) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

/// A 12-byte ObjectId, most significant byte first.
package struct ObjectID: FixedWidthIdentifier {
    package static let width = 12
    package let bytes: [UInt8]
    package init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}

/// A 16-byte UUID in RFC 4122 byte order.
package struct UUIDValue: FixedWidthIdentifier {
    package static let width = 16
    package let bytes: [UInt8]
    package init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }
}

/// A reference to one object: its class (table id, the C API's class key) and its key.
package struct ObjectLink: Hashable, Comparable, Sendable {
    package var table: UInt32
    package var key: Int64

    package init(table: UInt32, key: Int64) {
        self.table = table
        self.key = key
    }

    package static func < (a: ObjectLink, b: ObjectLink) -> Bool { (a.table, a.key) < (b.table, b.key) }
}

/// One value of any property type, or null.
///
/// Values are plain Swift data: reading a property copies it out of storage, so a `Value`
/// stays valid after its transaction ends.
///
/// Equality is the database's notion of "the same value", used by DISTINCT, upserts and
/// primary-key checks: strings are equal when their UTF-8 bytes are (not Swift's canonical
/// equivalence: "é" and "e\u{301}" are different values, as the index and queries see them);
/// every NaN equals every other NaN of its type, and 0.0 equals -0.0.
package enum Value: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data([UInt8])
    case timestamp(Timestamp)
    case objectID(ObjectID)
    case uuid(UUIDValue)
    case decimal128(Decimal128)
    /// A link to an object (the value of an object property, a list-of-objects element, a mixed).
    case link(ObjectLink)

    package var isNull: Bool { if case .null = self { return true } else { return false } }

    package static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.float(x), .float(y)): return x == y || (x.isNaN && y.isNaN)
        case let (.double(x), .double(y)): return x == y || (x.isNaN && y.isNaN)
        case let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
        case let (.data(x), .data(y)): return x == y
        case let (.timestamp(x), .timestamp(y)): return x == y
        case let (.objectID(x), .objectID(y)): return x == y
        case let (.uuid(x), .uuid(y)): return x == y
        case let (.decimal128(x), .decimal128(y)): return x == y
        case let (.link(x), .link(y)): return x == y
        default: return false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(1); hasher.combine(b)
        case let .int(i): hasher.combine(2); hasher.combine(i)
        case let .float(f): hasher.combine(3); hasher.combine(f.isNaN ? Float.nan.bitPattern : (f == 0 ? 0 : f.bitPattern))
        case let .double(d): hasher.combine(4); hasher.combine(d.isNaN ? Double.nan.bitPattern : (d == 0 ? 0 : d.bitPattern))
        case let .string(s): hasher.combine(5); for byte in s.utf8 { hasher.combine(byte) }
        case let .data(d): hasher.combine(6); hasher.combine(d)
        case let .timestamp(t): hasher.combine(7); hasher.combine(t)
        case let .objectID(o): hasher.combine(8); hasher.combine(o)
        case let .uuid(u): hasher.combine(9); hasher.combine(u)
        case let .decimal128(d): hasher.combine(10); hasher.combine(d)
        case let .link(l): hasher.combine(11); hasher.combine(l)
        }
    }

    /// The property type this value belongs to; nil for null.
    package var propertyType: PropertyType? {
        switch self {
        case .null: return nil
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .data
        case .timestamp: return .timestamp
        case .objectID: return .objectID
        case .uuid: return .uuid
        case .decimal128: return .decimal128
        case .link: return .object
        }
    }

    /// The name of the value's type as used in error messages ("int", "string", ..., "link", "null").
    package var typeName: String {
        if case .link = self { return "link" }
        return propertyType?.name ?? "null"
    }

    /// Bitwise identity used to decide whether an upsert "modified" a value: NaN equals NaN
    /// and -0.0 differs from 0.0, so that writing back the same bits is never a modification.
    package func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case let (.float(a), .float(b)): return a.bitPattern == b.bitPattern
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        default: return self == other
        }
    }
}
