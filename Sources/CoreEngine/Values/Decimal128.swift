/// An IEEE 754-2008 decimal128 in binary integer decimal (BID) encoding.
///
/// The engine stores and compares the 128 bits; it formats them for descriptions.
/// Arithmetic arrives with the query language's aggregates.
package struct Decimal128: Hashable, Sendable, CustomStringConvertible {
    /// Low and high 64 bits.
    package var low: UInt64
    package var high: UInt64

    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    private static let exponentBias = 6176

    var isNegative: Bool { high >> 63 == 1 }

    /// The textual form, e.g. "-1.50E+3" style reduced to plain digits when the exponent is small.
    package var description: String {
        let combination = (high >> 58) & 0x1F
        if combination == 0x1F { return "NaN" }
        if combination == 0x1E { return isNegative ? "-Infinity" : "Infinity" }
        var coefficient: UInt128
        let exponent: Int
        if (high >> 61) & 0x3 == 0x3 {
            // Large-coefficient form: the coefficient would exceed 10^34, so it is non-canonical: zero.
            exponent = Int((high >> 47) & 0x3FFF) - Self.exponentBias
            coefficient = 0
        } else {
            exponent = Int((high >> 49) & 0x3FFF) - Self.exponentBias
            coefficient = (UInt128(high & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(low)
            if coefficient >= 10_000_000_000_000_000_000_000_000_000_000_000 { coefficient = 0 }
        }
        var digits = String(coefficient)
        var text: String
        if exponent == 0 {
            text = digits
        } else if exponent < 0 && -exponent < 40 {
            let scale = -exponent
            if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
            let split = digits.index(digits.endIndex, offsetBy: -scale)
            text = digits[..<split] + "." + digits[split...]
        } else {
            text = digits + "E" + (exponent > 0 ? "+" : "") + String(exponent)
        }
        return isNegative ? "-" + text : text
    }
}
