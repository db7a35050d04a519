/// A bool, int, float or double as a batch read hands it over: a plain value with nothing to
/// retain or release, where `StoredContents.value` wraps a `Value` whose copies branch on its
/// many cases (per value, that cost a column read more than finding the value did).
package enum StoredNumber: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)

    /// Whether batch reads hand over values of `type` as numbers.
    package static func holds(_ type: PropertyType) -> Bool {
        switch type {
        case .bool, .int, .float, .double: return true
        default: return false
        }
    }

    /// A value of a type numbers hold (`holds`); any other reads as null.
    init(_ value: Value) {
        switch value {
        case let .bool(b): self = .bool(b)
        case let .int(i): self = .int(i)
        case let .float(f): self = .float(f)
        case let .double(d): self = .double(d)
        default: self = .null
        }
    }

    /// What a slot without a value reads as: null, or the type's default when not optional.
    static func absent(_ type: PropertyType, optional: Bool) -> StoredNumber {
        optional ? .null : StoredNumber(type.defaultValue)
    }
}

extension ColumnBlockView {
    /// The number in `slot` of a block of `type` (`StoredNumber.holds(type)`), read as
    /// `value(at:type:optional:)` reads it.
    func number(at slot: Int, type: PropertyType, optional: Bool) -> StoredNumber {
        if slot >= count || isNull(slot) { return .absent(type, optional: optional) }
        if layout == .packedInt { return type == .int ? .int(packedInt(slot)) : .absent(type, optional: optional) }
        guard layout == .fixed, width == type.fixedWidth else { return .absent(type, optional: optional) }
        let address = fixedAddress(slot)
        switch type {
        case .bool: return .bool(address.load(as: UInt8.self) != 0)
        case .int: return .int(Int64(littleEndian: address.loadUnaligned(as: Int64.self)))
        case .float: return .float(Float(bitPattern: UInt32(littleEndian: address.loadUnaligned(as: UInt32.self))))
        case .double: return .double(Double(bitPattern: UInt64(littleEndian: address.loadUnaligned(as: UInt64.self))))
        default: return .absent(type, optional: optional)
        }
    }
}
