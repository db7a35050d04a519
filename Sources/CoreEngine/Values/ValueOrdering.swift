#if canImport(Glibc)
import Glibc
#endif

/// How values compare in queries, sorting and min/max: one definition for all three.
///
/// - Numbers (int, float, double, decimal128) compare by numeric value across types.
/// - Strings compare by Unicode code points (their UTF-8 bytes), data by bytes.
/// - false < true; dates by time; objectIds and uuids by bytes.
/// - NaN equals nothing in a query (IEEE); in sorting it comes after null and before every number.
/// - Null is equal only to null; `<`-style comparisons with null are false; null sorts first.
enum ValueOrdering {
    /// -1, 0 or 1 for two non-null values of comparable types; nil when the types are incomparable
    /// or a NaN is involved.
    static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.string(x), .string(y)): return compareBytes(x.utf8, y.utf8)
        case let (.data(x), .data(y)): return compareBytes(x, y)
        case let (.bool(x), .bool(y)): return x == y ? 0 : (x ? 1 : -1)
        case let (.timestamp(x), .timestamp(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.objectID(x), .objectID(y)): return compareBytes(x.bytes, y.bytes)
        case let (.uuid(x), .uuid(y)): return compareBytes(x.bytes, y.bytes)
        case let (.link(x), .link(y)): return x < y ? -1 : (x == y ? 0 : 1)
        default:
            guard let x = a.numericValue, let y = b.numericValue else { return nil }
            return compareNumbers(x, y)
        }
    }

    private static func compareNumbers(_ x: Double, _ y: Double) -> Int? {
        if x.isNaN || y.isNaN { return nil }
        return x < y ? -1 : (x == y ? 0 : 1)
    }

    /// Byte order of two buffers (memcmp, then length).
    static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let order = memcmp(pa, pb, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int where A.Element == UInt8, B.Element == UInt8 {
        var i = a.makeIterator(), j = b.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (x?, y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// Query equality: null == null; NaN equals nothing; numbers across types by value.
    static func equal(_ a: Value, _ b: Value) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return compare(a, b) == 0
    }

    /// The total order used for sorting (ascending): null, then NaN, then values by `compare`;
    /// values of different kinds order by kind (`kindRank`) so that sorting never fails.
    static func sortCompare(_ a: Value, _ b: Value) -> Int {
        if a.isNull || b.isNull { return a.isNull ? (b.isNull ? 0 : -1) : 1 }
        let aNaN = a.isNaN, bNaN = b.isNaN
        if aNaN || bNaN { return aNaN ? (bNaN ? 0 : -1) : 1 }
        if let result = compare(a, b) { return result }
        let ka = kindRank(a), kb = kindRank(b)
        return ka < kb ? -1 : (ka == kb ? 0 : 1)
    }

    /// Where values of different kinds sort: bool, numbers, string, data, date, objectId, uuid,
    /// link. Numbers of every type share one rank: they compare by value among themselves, and a
    /// kind ranked between two number types (decimal128 comes after string, data... in
    /// `PropertyType`) would make the order cycle: 1 < "x" < decimal128(0) < 1.
    static func kindRank(_ value: Value) -> UInt8 {
        switch value {
        case .int, .float, .double, .decimal128: return PropertyType.int.rawValue
        default: return value.propertyType?.rawValue ?? 0
        }
    }
}

extension Value {
    /// The value as a Double, for int, float, double and decimal128.
    var numericValue: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .float(f): return Double(f)
        case let .double(d): return d
        case let .decimal128(d): return d.doubleValue
        default: return nil
        }
    }

    var isNaN: Bool {
        switch self {
        case let .float(f): return f.isNaN
        case let .double(d): return d.isNaN
        case let .decimal128(d): return d.isNaN
        default: return false
        }
    }
}

extension Decimal128 {
    var isNaN: Bool { (high >> 58) & 0x1F == 0x1F }

    /// The nearest Double (exact for up to 15-16 significant digits).
    var doubleValue: Double {
        let combination = (high >> 58) & 0x1F
        if combination == 0x1F { return .nan }
        if combination == 0x1E { return isNegative ? -.infinity : .infinity }
        var coefficient: UInt128
        let exponent: Int
        if (high >> 61) & 0x3 == 0x3 {
            return isNegative ? -0.0 : 0.0
        } else {
            exponent = Int((high >> 49) & 0x3FFF) - 6176
            coefficient = (UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(low)
        }
        if coefficient >= 10_000_000_000_000_000_000_000_000_000_000_000 { coefficient = 0 }
        let magnitude = Double(coefficient) * pow10(exponent)
        return isNegative ? -magnitude : magnitude
    }

    private func pow10(_ exponent: Int) -> Double {
        var result = 1.0, base = 10.0, e = abs(exponent)
        while e > 0 { if e & 1 == 1 { result *= base }; base *= base; e >>= 1 }
        return exponent < 0 ? 1 / result : result
    }
}
