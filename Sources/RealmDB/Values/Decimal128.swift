import CoreEngine

/// A 128-bit IEEE 754-2008 decimal floating-point number, stored and compared exactly.
public struct Decimal128: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    var raw: CoreEngine.Decimal128

    init(raw: CoreEngine.Decimal128) { self.raw = raw }

    /// Parses a decimal string ("1.25", "-3E+10", "NaN", "Infinity"); throws `.invalidArgument`
    /// for anything else.
    public init(string: String) throws(RealmError) {
        guard let parsed = CoreEngine.Decimal128(parsing: string) else {
            throw RealmError(.invalidArgument, "'\(string)' is not a decimal number")
        }
        raw = parsed
    }

    public init(integerLiteral value: Int64) {
        raw = CoreEngine.Decimal128(parsing: String(value))!
    }

    /// The shortest exact decimal text of the value.
    public var description: String { raw.description }
    /// The shortest exact decimal text of the value (the same as `description`).
    public var stringValue: String { raw.description }
}
