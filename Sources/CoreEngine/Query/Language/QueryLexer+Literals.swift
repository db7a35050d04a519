/// Literals with inner structure: strings, dates, timestamps, oid, uuid, decimal128, base64.
extension QueryLexer {
    private static let ascii = (
        backslash: UInt8(ascii: "\\"), quote: UInt8(ascii: "'"), doubleQuote: UInt8(ascii: "\""),
        minus: UInt8(ascii: "-"), plus: UInt8(ascii: "+"), colon: UInt8(ascii: ":"), dot: UInt8(ascii: "."),
        closeParen: UInt8(ascii: ")"), equals: UInt8(ascii: "=")
    )

    // MARK: - Strings

    /// Reads a quoted string at `position` (which holds the quote) and resolves its escapes.
    mutating func lexString() throws -> String {
        let start = position
        let quote = byte(at: start) ?? Self.ascii.quote
        position += 1
        var out: [UInt8] = []
        while true {
            guard let b = byte(at: position) else { throw error("unterminated string starting", start) }
            if b == quote {
                position += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard b == Self.ascii.backslash else {
                out.append(b)
                position += 1
                continue
            }
            let escape = position
            guard let e = byte(at: escape + 1) else { throw error("unterminated string starting", start) }
            position += 2
            switch e {
            case Self.ascii.backslash, Self.ascii.quote, Self.ascii.doubleQuote: out.append(e)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "0"): out.append(0x00)
            case UInt8(ascii: "u"): out.append(contentsOf: Array(String(try unicodeEscape(at: escape)).utf8))
            default:
                throw error("invalid escape \\\(characterDescription(at: escape + 1).trimmingQuotes) in a string "
                    + "(allowed: \\\\ \\' \\\" \\n \\t \\r \\0 \\uXXXX)", escape)
            }
        }
    }

    /// `\uXXXX` at `escape` (the backslash), with `position` just after the `u`; a high
    /// surrogate must be followed by `\u` and a low surrogate.
    private mutating func unicodeEscape(at escape: Int) throws -> Unicode.Scalar {
        let first = try fourHexDigits(escape: escape)
        switch first {
        case 0xD800...0xDBFF:
            guard byte(at: position) == Self.ascii.backslash, byte(at: position + 1) == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in \\u escape", escape)
            }
            let second = position
            position += 2
            let low = try fourHexDigits(escape: second)
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape", escape) }
            let value = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
            guard let s = Unicode.Scalar(value) else { throw error("invalid \\u escape", escape) }
            return s
        case 0xDC00...0xDFFF:
            throw error("unpaired surrogate in \\u escape", escape)
        default:
            guard let s = Unicode.Scalar(first) else { throw error("invalid \\u escape", escape) }
            return s
        }
    }

    private mutating func fourHexDigits(escape: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let b = byte(at: position + i), let digit = hexValue(b) else {
                throw error("\\u must be followed by 4 hex digits", escape)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    // MARK: - Dates

    /// Up to `maxCount` (at least one) decimal digits at `index` not followed by another digit:
    /// their value and the index after them.
    private func digits(at index: Int, maxCount: Int) -> (value: Int64, end: Int)? {
        var end = index, value: Int64 = 0
        while let b = byte(at: end), isDigit(b) {
            guard end - index < maxCount else { return nil }
            value = value * 10 + Int64(b - UInt8(ascii: "0"))
            end += 1
        }
        return end > index ? (value, end) : nil
    }

    /// `YYYY-MM-DD@HH:MM:SS[:NANOS]` (or with `T`) at `position`, or nil when the text does not
    /// start like a date (then it is a number).
    mutating func lexDateIfPresent() throws -> QueryToken? {
        let start = position
        guard let year = digits(at: start, maxCount: 4), byte(at: year.end) == Self.ascii.minus,
              let month = digits(at: year.end + 1, maxCount: 2), byte(at: month.end) == Self.ascii.minus,
              let day = digits(at: month.end + 1, maxCount: 2),
              let separator = byte(at: day.end), separator == UInt8(ascii: "@") || separator == UInt8(ascii: "T")
        else { return nil }
        let form = "expected a date as YYYY-MM-DD@HH:MM:SS or YYYY-MM-DD@HH:MM:SS:NANOSECONDS"
        guard let hour = digits(at: day.end + 1, maxCount: 2) else { throw error(form, day.end + 1) }
        guard byte(at: hour.end) == Self.ascii.colon, let minute = digits(at: hour.end + 1, maxCount: 2) else {
            throw error(form, hour.end)
        }
        guard byte(at: minute.end) == Self.ascii.colon, let second = digits(at: minute.end + 1, maxCount: 2) else {
            throw error(form, minute.end)
        }
        var end = second.end
        var nanoseconds: Int64 = 0
        if byte(at: end) == Self.ascii.colon {
            guard let nanos = digits(at: end + 1, maxCount: 9) else {
                throw error("expected 1 to 9 digits of nanoseconds after ':'", end + 1)
            }
            nanoseconds = nanos.value
            end = nanos.end
        }
        guard (1...12).contains(month.value) else { throw error("month \(month.value) is out of range 1...12", year.end + 1) }
        let monthLength = Self.daysInMonth(Int(month.value), year: year.value)
        guard (1...Int64(monthLength)).contains(day.value) else {
            throw error("day \(day.value) is out of range 1...\(monthLength) for that month", month.end + 1)
        }
        guard hour.value < 24 else { throw error("hour \(hour.value) is out of range 0...23", day.end + 1) }
        guard minute.value < 60 else { throw error("minute \(minute.value) is out of range 0...59", hour.end + 1) }
        guard second.value < 60 else { throw error("second \(second.value) is out of range 0...59", minute.end + 1) }
        position = end
        if byte(at: end) == UInt8(ascii: ".") {
            throw error("a date's fraction of a second is written as nanoseconds after a colon (YYYY-MM-DD@HH:MM:SS:NANOSECONDS, as in 23:59:59:500000000), not after '.'", end)
        }
        try rejectIdentifierCharacter(after: "date")
        let seconds = Self.daysFromCivil(year: year.value, month: month.value, day: day.value) * 86_400
            + hour.value * 3600 + minute.value * 60 + second.value
        if seconds < 0 {
            // realm-core's reading, which timestamps keep (seconds and nanoseconds with one sign):
            // before 1970 the nanoseconds count away from the epoch, as the seconds do, so
            // 1969-12-31@23:59:59:1 is 1.000000001 s before it (not 23:59:59 and 1 ns). An
            // instant between -1 s and 0 is written T0:-500000000.
            nanoseconds = -nanoseconds
        }
        return QueryToken(.timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(nanoseconds))), start..<end)
    }

    private static func daysInMonth(_ month: Int, year: Int64) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `T<seconds>:<nanoseconds>` at `position`, or nil when the text is not `T`, an optional
    /// `-`, digits and `:` (then it is an identifier such as `T1`).
    mutating func lexSecondsTimestampIfPresent() throws -> QueryToken? {
        let start = position
        guard byte(at: start) == UInt8(ascii: "T") else { return nil }
        var p = start + 1
        if byte(at: p) == Self.ascii.minus { p += 1 }
        let digitsStart = p
        while let b = byte(at: p), isDigit(b) { p += 1 }
        guard p > digitsStart, byte(at: p) == Self.ascii.colon else { return nil }
        guard let seconds = signedInteger(start + 1..<p) else {
            throw error("the seconds of a timestamp do not fit in 64 bits", start + 1)
        }
        let nanosStart = p + 1
        p = nanosStart
        if byte(at: p) == Self.ascii.minus { p += 1 }
        let nanosDigits = p
        while let b = byte(at: p), isDigit(b) { p += 1 }
        guard p > nanosDigits else { throw error("expected nanoseconds after ':' in a timestamp", nanosStart) }
        guard let nanos = signedInteger(nanosStart..<p), nanos > -1_000_000_000, nanos < 1_000_000_000 else {
            throw error("the nanoseconds of a timestamp must be between -999999999 and 999999999", nanosStart)
        }
        guard !(seconds > 0 && nanos < 0) && !(seconds < 0 && nanos > 0) else {
            throw error("the seconds and nanoseconds of a timestamp must not have opposite signs", nanosStart)
        }
        position = p
        try rejectIdentifierCharacter(after: "timestamp")
        return QueryToken(.timestamp(Timestamp(seconds: seconds, nanoseconds: Int32(nanos))), start..<p)
    }

    /// An optional `-` and decimal digits as an Int64, or nil on overflow.
    private func signedInteger(_ range: Range<Int>) -> Int64? {
        let literal = text(range)
        return Int64(literal)
    }

    // MARK: - oid, uuid, decimal128, B64

    /// `oid(` + 24 hex digits + `)`; `position` is at the `(`.
    mutating func lexObjectID(start: Int) throws -> QueryToken {
        let bytes = try hexGroups([24], start: start, what: "oid(...) expects 24 hex digits")
        guard let id = ObjectID(bytes: bytes) else { throw error("oid(...) expects 24 hex digits", start) }
        return QueryToken(.objectID(id), start..<position)
    }

    /// `uuid(` + 8-4-4-4-12 hex digits + `)`; `position` is at the `(`.
    mutating func lexUUID(start: Int) throws -> QueryToken {
        let bytes = try hexGroups([8, 4, 4, 4, 12], start: start, what: "uuid(...) expects 8-4-4-4-12 hex digits")
        guard let uuid = UUIDValue(bytes: bytes) else { throw error("uuid(...) expects 8-4-4-4-12 hex digits", start) }
        return QueryToken(.uuid(uuid), start..<position)
    }

    /// Hex digit groups of the given lengths separated by `-`, then `)`; errors point at the
    /// first character that does not fit.
    private mutating func hexGroups(_ groups: [Int], start: Int, what: String) throws -> [UInt8] {
        var p = position + 1
        var nibbles: [UInt8] = []
        for (i, length) in groups.enumerated() {
            if i > 0 {
                guard byte(at: p) == Self.ascii.minus else { throw error(what, p) }
                p += 1
            }
            for _ in 0..<length {
                guard let b = byte(at: p), let v = hexValue(b) else { throw error(what, p) }
                nibbles.append(v)
                p += 1
            }
        }
        guard byte(at: p) == Self.ascii.closeParen else { throw error(what, p) }
        position = p + 1
        return stride(from: 0, to: nibbles.count - 1, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    /// `decimal128(` + `[+-]digits[.digits][e[+-]digits]` or `[+-]inf|infinity|nan` + `)`.
    /// The text is kept exactly, for the evaluator to convert without rounding twice.
    mutating func lexDecimal128(start: Int) throws -> QueryToken {
        let what = "decimal128(...) expects a number such as 1.5, -2E+10 or inf"
        let contentStart = position + 1
        var p = contentStart
        if let b = byte(at: p), b == Self.ascii.plus || b == Self.ascii.minus { p += 1 }
        if isIdentifierStart(at: p) {
            let wordStart = p
            while isIdentifierContinue(at: p) { p += scalar(at: p)?.1 ?? 1 }
            guard ["inf", "infinity", "nan"].contains(text(wordStart..<p).lowercased()) else { throw error(what, wordStart) }
        } else {
            var digitCount = 0
            while let b = byte(at: p), isDigit(b) { p += 1; digitCount += 1 }
            if byte(at: p) == Self.ascii.dot {
                p += 1
                while let b = byte(at: p), isDigit(b) { p += 1; digitCount += 1 }
            }
            guard digitCount > 0 else { throw error(what, p) }
            if let e = byte(at: p), e | 0x20 == UInt8(ascii: "e") {
                p += 1
                if let b = byte(at: p), b == Self.ascii.plus || b == Self.ascii.minus { p += 1 }
                let exponentStart = p
                while let b = byte(at: p), isDigit(b) { p += 1 }
                guard p > exponentStart else { throw error(what, p) }
            }
        }
        guard byte(at: p) == Self.ascii.closeParen else { throw error(what, p) }
        position = p + 1
        return QueryToken(.decimal128(text(contentStart..<p)), start..<position)
    }

    /// `B64"..."` or `B64'...'` (standard alphabet, padding optional); `position` is at the quote.
    mutating func lexBase64(start: Int) throws -> QueryToken {
        let quote = byte(at: position) ?? Self.ascii.doubleQuote
        var p = position + 1
        var sextets: [UInt8] = []
        var padding = 0
        while true {
            guard let b = byte(at: p) else { throw error("unterminated B64 literal starting", start) }
            if b == quote { break }
            if b == Self.ascii.equals {
                padding += 1
                guard padding <= 2 else { throw error("too much '=' padding in a B64 literal", p) }
            } else if padding == 0, let v = Self.base64Value(b) {
                sextets.append(v)
            } else {
                throw error("invalid character \(characterDescription(at: p)) in a B64 literal", p)
            }
            p += 1
        }
        guard sextets.count % 4 != 1, padding == 0 || (sextets.count + padding) % 4 == 0 else {
            throw error("truncated B64 literal (its length is not a valid base64 length)", p)
        }
        position = p + 1
        var out: [UInt8] = []
        out.reserveCapacity(sextets.count * 3 / 4)
        var i = 0
        while i + 1 < sextets.count {
            out.append(sextets[i] << 2 | sextets[i + 1] >> 4)
            if i + 2 < sextets.count { out.append(sextets[i + 1] << 4 | sextets[i + 2] >> 2) }
            if i + 3 < sextets.count { out.append(sextets[i + 2] << 6 | sextets[i + 3]) }
            i += 4
        }
        return QueryToken(.binary(out), start..<position)
    }

    private static func base64Value(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return b - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return b - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}

extension String {
    /// `'x'` -> `x`; other strings unchanged.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 3 ? String(dropFirst().dropLast()) : self
    }
}
