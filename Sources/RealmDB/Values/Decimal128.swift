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

/// A Decimal128 encodes as its exact decimal text (a JSON number would be read back as a
/// Double, rounded), and decodes from such text or from a number.
extension Decimal128: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else {
            text = String(try container.decode(Double.self))
        }
        do { self = try Decimal128(string: text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}
