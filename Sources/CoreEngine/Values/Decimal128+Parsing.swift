extension Decimal128 {
    /// Parses a decimal number exactly: `[+-]digits[.digits][(e|E)[+-]digits]`, `NaN`, `Inf`, `Infinity`.
    /// - Returns: nil for malformed text, more than 34 significant digits, or an exponent out of range.
    package init?(parsing text: String) {
        var chars = Substring(text)
        var negative = false
        if let sign = chars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            chars = chars.dropFirst()
        }
        let word = chars.lowercased()
        if word == "nan" { self.init(low: 0, high: 0x7C00_0000_0000_0000); return }
        if word == "inf" || word == "infinity" {
            self.init(low: 0, high: (negative ? 1 << 63 : 0) | 0x7800_0000_0000_0000)
            return
        }
        var digits: [UInt8] = [], fractionDigits = 0, seenPoint = false, seenDigit = false
        var exponent = 0
        var index = chars.startIndex
        while index < chars.endIndex {
            let c = chars[index]
            if let d = c.wholeNumberValue, c.isASCII {
                seenDigit = true
                if !(digits.isEmpty && d == 0) { digits.append(UInt8(d)) }
                if seenPoint { fractionDigits += 1 }
            } else if c == "." && !seenPoint {
                seenPoint = true
            } else if (c == "e" || c == "E") && seenDigit {
                let rest = chars[chars.index(after: index)...]
                guard let e = Int(rest), abs(e) < 100_000 else { return nil }
                exponent = e
                index = chars.endIndex
                break
            } else {
                return nil
            }
            index = chars.index(after: index)
        }
        guard seenDigit, digits.count <= 34 else { return nil }
        let biased = exponent - fractionDigits + 6176
        guard biased >= 0, biased <= 12287 else { return nil }
        var coefficient: UInt128 = 0
        for d in digits { coefficient = coefficient * 10 + UInt128(d) }
        self.init(low: UInt64(truncatingIfNeeded: coefficient),
                  high: (negative ? 1 << 63 : 0) | UInt64(biased) << 49 | UInt64(truncatingIfNeeded: coefficient >> 64))
    }
}
