/// The exact order of numbers across int, float, double and decimal128: by mathematical value,
/// with no rounding through Double (which would make 2^53 + 1 equal 2^53, or two decimals of 20
/// digits equal). The order of sets (`CollectionOrdering`) is built on it.
enum ExactNumericOrder {
    /// -1, 0 or 1 by value; nil unless both are numbers and neither is NaN.
    static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case let (.int(x), .int(y)): return x < y ? -1 : (x == y ? 0 : 1)
        case let (.double(x), .double(y)): return compareDoubles(x, y)
        case let (.float(x), .float(y)): return compareDoubles(Double(x), Double(y))
        case let (.float(x), .double(y)): return compareDoubles(Double(x), y)
        case let (.double(x), .float(y)): return compareDoubles(x, Double(y))
        default:
            guard let x = ExactNumber(a), let y = ExactNumber(b) else { return nil }
            return x.compare(y)
        }
    }

    private static func compareDoubles(_ x: Double, _ y: Double) -> Int? {
        if x.isNaN || y.isNaN { return nil }
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// A number as sign x magnitude x 2^exponent2 x 10^exponent10 (or an infinity): how an int, a
/// float, a double and a decimal128 are all written exactly.
struct ExactNumber {
    /// -1, 0 (zero) or 1.
    let sign: Int
    let isInfinite: Bool
    let magnitude: UInt128
    let exponent2: Int
    let exponent10: Int

    /// nil for a non-number and for NaN.
    init?(_ value: Value) {
        switch value {
        case let .int(i):
            self.init(sign: Int(i.signum()), magnitude: UInt128(i.magnitude), exponent2: 0, exponent10: 0)
        case let .float(f):
            self.init(Double(f))
        case let .double(d):
            self.init(d)
        case let .decimal128(d):
            self.init(d)
        default:
            return nil
        }
    }

    private init(sign: Int, magnitude: UInt128, exponent2: Int, exponent10: Int, isInfinite: Bool = false) {
        self.sign = magnitude == 0 && !isInfinite ? 0 : sign
        self.magnitude = magnitude
        self.exponent2 = exponent2
        self.exponent10 = exponent10
        self.isInfinite = isInfinite
    }

    private init?(_ d: Double) {
        if d.isNaN { return nil }
        let sign = d.sign == .minus ? -1 : 1
        if d.isInfinite { self.init(sign: sign, magnitude: 0, exponent2: 0, exponent10: 0, isInfinite: true); return }
        if d == 0 { self.init(sign: 0, magnitude: 0, exponent2: 0, exponent10: 0); return }
        // d = significand x 2^(exponent - 52), the significand with its implicit leading bit.
        let fraction = UInt128(d.significandBitPattern)
        if d.isNormal {
            self.init(sign: sign, magnitude: fraction | (1 << 52), exponent2: Int(d.exponentBitPattern) - 1075, exponent10: 0)
        } else {
            self.init(sign: sign, magnitude: fraction, exponent2: -1074, exponent10: 0)
        }
    }

    private init?(_ d: Decimal128) {
        let combination = (d.high >> 58) & 0x1F
        if combination == 0x1F { return nil }  // NaN
        let sign = d.isNegative ? -1 : 1
        if combination == 0x1E { self.init(sign: sign, magnitude: 0, exponent2: 0, exponent10: 0, isInfinite: true); return }
        var coefficient: UInt128 = 0
        var exponent = 0
        // The large-coefficient form always exceeds 10^34 - 1: non-canonical, read as zero (IEEE 754).
        if (d.high >> 61) & 0x3 != 0x3 {
            exponent = Int((d.high >> 49) & 0x3FFF) - 6176
            coefficient = (UInt128(d.high & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(d.low)
            if coefficient >= 10_000_000_000_000_000_000_000_000_000_000_000 { coefficient = 0 }
        }
        self.init(sign: sign, magnitude: coefficient, exponent2: 0, exponent10: exponent)
    }

    func compare(_ other: ExactNumber) -> Int {
        if sign != other.sign { return sign < other.sign ? -1 : 1 }
        if sign == 0 { return 0 }
        let order = compareMagnitudes(other)
        return sign > 0 ? order : -order
    }

    /// Compares |self| and |other| (both non-zero).
    private func compareMagnitudes(_ other: ExactNumber) -> Int {
        if isInfinite || other.isInfinite { return isInfinite == other.isInfinite ? 0 : (isInfinite ? 1 : -1) }
        // log2 of a magnitude lies in [estimate - 1, estimate): far apart, the estimates decide.
        let a = estimatedLog2, b = other.estimatedLog2
        if a - b > 2 { return 1 }
        if b - a > 2 { return -1 }
        // Close, with one base: scale one side in 128 bits (what does not fit there is larger).
        if exponent2 == other.exponent2, let order = Self.compareScaled(magnitude, other.magnitude, exponent10 - other.exponent10, power: 10) {
            return order
        }
        if exponent10 == other.exponent10, let order = Self.compareScaled(magnitude, other.magnitude, exponent2 - other.exponent2, power: 2) {
            return order
        }
        // Else compare exactly. 10^k = 5^k x 2^k; the integers stay small (a few thousand bits
        // at most: the exponents can only be far apart where the magnitudes make up for it).
        var left = BigNatural(magnitude), right = BigNatural(other.magnitude)
        let five = exponent10 - other.exponent10
        if five > 0 { left.multiplyByPowerOfFive(five) } else if five < 0 { right.multiplyByPowerOfFive(-five) }
        let two = (exponent2 + exponent10) - (other.exponent2 + other.exponent10)
        if two > 0 { left.shiftLeft(two) } else if two < 0 { right.shiftLeft(-two) }
        return left.compare(right)
    }

    /// Compares a x power^difference with b in 128 bits; nil when the scale factor itself does not fit.
    private static func compareScaled(_ a: UInt128, _ b: UInt128, _ difference: Int, power: UInt128) -> Int? {
        guard difference != 0 else { return a < b ? -1 : (a == b ? 0 : 1) }
        guard abs(difference) <= (power == 10 ? 38 : 127) else { return nil }
        var factor: UInt128 = 1
        for _ in 0..<abs(difference) { factor *= power }
        if difference > 0 {
            let (scaled, overflow) = a.multipliedReportingOverflow(by: factor)
            if overflow { return 1 }
            return scaled < b ? -1 : (scaled == b ? 0 : 1)
        }
        let (scaled, overflow) = b.multipliedReportingOverflow(by: factor)
        if overflow { return -1 }
        return a < scaled ? -1 : (a == scaled ? 0 : 1)
    }

    private var estimatedLog2: Double {
        Double(128 - magnitude.leadingZeroBitCount) + Double(exponent2) + Double(exponent10) * 3.321928094887362
    }
}

/// A non-negative integer of any size, as 64-bit limbs (least significant first): just what
/// exact comparison needs.
struct BigNatural {
    private var limbs: [UInt64]

    init(_ value: UInt128) {
        limbs = [UInt64(truncatingIfNeeded: value), UInt64(truncatingIfNeeded: value >> 64)]
        trim()
    }

    private mutating func trim() {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    private mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let (high, low) = limbs[i].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[i] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
    }

    mutating func multiplyByPowerOfFive(_ exponent: Int) {
        var remaining = exponent
        while remaining >= 27 {  // 5^27 is the largest power of five below 2^64
            multiply(by: 7_450_580_596_923_828_125)
            remaining -= 27
        }
        var factor: UInt64 = 1
        for _ in 0..<remaining { factor *= 5 }
        if factor > 1 { multiply(by: factor) }
    }

    mutating func shiftLeft(_ bits: Int) {
        guard !limbs.isEmpty, bits > 0 else { return }
        let whole = bits / 64, part = bits % 64
        if part > 0 {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let limb = limbs[i]
                limbs[i] = (limb << UInt64(part)) | carry
                carry = limb >> UInt64(64 - part)
            }
            if carry != 0 { limbs.append(carry) }
        }
        if whole > 0 { limbs.insert(contentsOf: repeatElement(0, count: whole), at: 0) }
    }

    func compare(_ other: BigNatural) -> Int {
        if limbs.count != other.limbs.count { return limbs.count < other.limbs.count ? -1 : 1 }
        for i in limbs.indices.reversed() where limbs[i] != other.limbs[i] {
            return limbs[i] < other.limbs[i] ? -1 : 1
        }
        return 0
    }
}
