/// Splits a query string into tokens, one at a time, with UTF-8 byte ranges.
///
/// The lexer is lazy so that the parser reports the first error in the text, whether it is
/// lexical or syntactic. It never traps: every malformed input becomes a `DBError(.query)`
/// whose `offset` is a byte offset in `0...text.utf8.count`.
///
/// Lexical decisions (see also `QueryParser`):
/// - Keywords are case-insensitive; `inf`, `infinity` and `nan` are float keywords.
/// - Numbers start with a digit: `.5` is an error (write `0.5`), and so is `1.` (write `1.0`).
///   Integers are decimal or hex (`0x1F`); their magnitude must fit in a `UInt64` here (the
///   parser then checks the signed range). Floats with `.` or an exponent keep their exact text;
///   a float that overflows a `Double` is an error (use `decimal128(...)`).
/// - Strings take `'` or `"` and the escapes `\\ \' \" \n \t \r \0 \uXXXX` (surrogate pairs
///   combine; a lone surrogate is an error); other characters, newlines included, stand for
///   themselves.
/// - Dates: `YYYY-MM-DD@HH:MM:SS[:NANOS]` (also with `T` instead of `@`, as Realm accepts),
///   UTC, year 0...9999 (1 to 4 digits), NANOS the nanosecond count (1 to 9 digits); and
///   `T<seconds>:<nanoseconds>` where both may be negative but must not have opposite signs.
/// - `oid(24 hex)`, `uuid(8-4-4-4-12 hex)`, `decimal128(number|inf|nan)` and `B64"..."` take no
///   spaces inside; their prefixes are case-insensitive.
package struct QueryLexer {
    package let text: String
    let bytes: [UInt8]
    var position = 0

    package init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    /// All tokens of `text`, ending with `.end`.
    ///
    /// - Throws: `DBError(.query)` with the byte offset of the first lexical error.
    /// - Complexity: O(n) in the length of `text`.
    package static func tokenize(_ text: String) throws -> [QueryToken] {
        var lexer = QueryLexer(text)
        var tokens: [QueryToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    /// The next token; `.end` (repeatedly) once the input is exhausted.
    ///
    /// - Throws: `DBError(.query)` with the byte offset of the offending character.
    package mutating func next() throws -> QueryToken {
        skipWhitespace()
        let start = position
        guard let c = byte(at: start) else { return QueryToken(.end, start..<start) }
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let date = try lexDateIfPresent() { return date }
            return try lexNumber()
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            let value = try lexString()
            return QueryToken(.string(value), start..<position)
        case UInt8(ascii: "$"):
            return try lexArgument()
        case UInt8(ascii: "@"):
            return try lexAt()
        case UInt8(ascii: "."):
            // `.5` is an error, but in `a.1` the `.` joins a key path and the parser reports the `1`.
            if let d = byte(at: start + 1), isDigit(d), !isIdentifierContinue(before: start) {
                throw error("a number must start with a digit: write 0\(digitsText(from: start)) instead of \(digitsText(from: start))", start)
            }
            position += 1
            return QueryToken(.dot, start..<position)
        case UInt8(ascii: "["):
            if let modifier = lexModifierIfPresent() { return modifier }
            position += 1
            return QueryToken(.leftBracket, start..<position)
        default:
            if let op = try lexOperatorIfPresent() { return op }
            if isIdentifierStart(at: start) { return try lexWord() }
            throw error("unexpected character \(characterDescription(at: start))", start)
        }
    }

    // MARK: - Errors and character classes

    func error(_ message: String, _ offset: Int) -> DBError {
        DBError(.query, "\(message) at offset \(offset)", offset: offset)
    }

    func byte(at index: Int) -> UInt8? { index >= 0 && index < bytes.count ? bytes[index] : nil }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    func isHexDigit(_ b: UInt8) -> Bool { hexValue(b) != nil }

    func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The Unicode scalar starting at byte `index` and its UTF-8 length, or nil at the end.
    /// `text` is valid UTF-8, but a continuation byte in the middle still decodes to U+FFFD.
    func scalar(at index: Int) -> (Unicode.Scalar, Int)? {
        guard let lead = byte(at: index) else { return nil }
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= bytes.count else { return ("\u{FFFD}", 1) }
        var iterator = bytes[index..<(index + length)].makeIterator()
        var decoder = UTF8()
        if case let .scalarValue(s) = decoder.decode(&iterator) { return (s, length) }
        return ("\u{FFFD}", 1)
    }

    func isIdentifierStart(at index: Int) -> Bool {
        guard let (s, _) = scalar(at: index) else { return false }
        if s.isASCII { return (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" }
        return s.properties.isAlphabetic
    }

    func isIdentifierContinue(at index: Int) -> Bool {
        guard let (s, _) = scalar(at: index) else { return false }
        if s.isASCII { return (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" || (s >= "0" && s <= "9") }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return s.properties.isAlphabetic
        }
    }

    /// `L<class>:<object>` (realm-core's link literal): `word` is `L` and digits, then `:` and
    /// digits follow. Nil, consuming nothing more, for anything else.
    private mutating func lexObjectLinkIfPresent(_ word: String, start: Int) throws -> QueryToken? {
        guard word.count > 1, word.first == "L", word.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
              byte(at: position) == UInt8(ascii: ":"), let first = byte(at: position + 1), isDigit(first) else { return nil }
        var end = position + 1
        while let b = byte(at: end), isDigit(b) { end += 1 }
        guard let table = UInt32(word.dropFirst()) else { throw error("class key \(word.dropFirst()) of a link literal is too large", start) }
        guard let key = Int64(text((position + 1)..<end)) else { throw error("object key of a link literal is too large", position + 1) }
        if isIdentifierContinue(at: end) { throw error("unexpected \(characterDescription(at: end)) after link literal \(text(start..<end))", end) }
        position = end
        return QueryToken(.objectLink(table: table, key: key), start..<end)
    }

    /// The whitespace character that `\ `, `\t`, `\n` or `\r` at `index` stands for inside a name.
    func escapedWhitespace(at index: Int) -> Character? {
        guard byte(at: index) == UInt8(ascii: "\\"), let next = byte(at: index + 1) else { return nil }
        switch next {
        case UInt8(ascii: " "): return " "
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        default: return nil
        }
    }

    /// Whether the byte before `index` ends an identifier (ASCII letter, digit, `_`, or part of
    /// a non-ASCII scalar).
    func isIdentifierContinue(before index: Int) -> Bool {
        guard let b = byte(at: index - 1) else { return false }
        return b >= 0x80 || b == UInt8(ascii: "_") || isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z"))
    }

    func characterDescription(at index: Int) -> String {
        guard let (s, _) = scalar(at: index) else { return "end of query" }
        if s.value < 0x20 || s.value == 0x7F || s == "\u{FFFD}" || s.properties.isWhitespace {
            let hex = String(s.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(s)'"
    }

    func text(_ range: Range<Int>) -> String {
        let lower = max(0, min(range.lowerBound, bytes.count)), upper = max(lower, min(range.upperBound, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    private func digitsText(from start: Int) -> String {
        var end = start + 1
        while let b = byte(at: end), isDigit(b) { end += 1 }
        return text(start..<end)
    }

    private mutating func skipWhitespace() {
        while let (s, length) = scalar(at: position), s.properties.isWhitespace { position += length }
    }

    // MARK: - Small tokens

    private mutating func lexOperatorIfPresent() throws -> QueryToken? {
        let start = position
        guard let c = byte(at: start) else { return nil }
        let n = byte(at: start + 1)
        let kind: QueryToken.Kind, length: Int
        switch (c, n) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")): (kind, length) = (.equal, 2)
        case (UInt8(ascii: "="), UInt8(ascii: "<")): (kind, length) = (.lessOrEqual, 2)
        case (UInt8(ascii: "="), UInt8(ascii: ">")): (kind, length) = (.greaterOrEqual, 2)
        case (UInt8(ascii: "="), _): (kind, length) = (.equal, 1)
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): (kind, length) = (.notEqual, 2)
        case (UInt8(ascii: "!"), _): (kind, length) = (.bang, 1)
        case (UInt8(ascii: "<"), UInt8(ascii: ">")): (kind, length) = (.notEqual, 2)
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): (kind, length) = (.lessOrEqual, 2)
        case (UInt8(ascii: "<"), _): (kind, length) = (.less, 1)
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): (kind, length) = (.greaterOrEqual, 2)
        case (UInt8(ascii: ">"), _): (kind, length) = (.greater, 1)
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): (kind, length) = (.ampersandAmpersand, 2)
        case (UInt8(ascii: "&"), _): throw error("'&' is not an operator (use && or AND)", start)
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): (kind, length) = (.pipePipe, 2)
        case (UInt8(ascii: "|"), _): throw error("'|' is not an operator (use || or OR)", start)
        case (UInt8(ascii: "+"), _): (kind, length) = (.plus, 1)
        case (UInt8(ascii: "-"), _): (kind, length) = (.minus, 1)
        case (UInt8(ascii: "*"), _): (kind, length) = (.star, 1)
        case (UInt8(ascii: "/"), _): (kind, length) = (.slash, 1)
        case (UInt8(ascii: "("), _): (kind, length) = (.leftParen, 1)
        case (UInt8(ascii: ")"), _): (kind, length) = (.rightParen, 1)
        case (UInt8(ascii: "{"), _): (kind, length) = (.leftBrace, 1)
        case (UInt8(ascii: "}"), _): (kind, length) = (.rightBrace, 1)
        case (UInt8(ascii: "]"), _): (kind, length) = (.rightBracket, 1)
        case (UInt8(ascii: ","), _): (kind, length) = (.comma, 1)
        default: return nil
        }
        position += length
        return QueryToken(kind, start..<position)
    }

    /// `[c]`, `[d]`, `[cd]`, `[dc]` in any letter case; anything else stays a `[` token.
    private mutating func lexModifierIfPresent() -> QueryToken? {
        let start = position
        var end = start + 1
        var letters: [UInt8] = []
        while let b = byte(at: end), letters.count < 3, b != UInt8(ascii: "]") {
            letters.append(b | 0x20)  // ASCII lowercase; non-letters never match below
            end += 1
        }
        guard byte(at: end) == UInt8(ascii: "]") else { return nil }
        let c = UInt8(ascii: "c"), d = UInt8(ascii: "d")
        let kind: QueryToken.Kind
        switch letters {
        case [c]: kind = .modifier(caseInsensitive: true, diacriticInsensitive: false)
        case [d]: kind = .modifier(caseInsensitive: false, diacriticInsensitive: true)
        case [c, d], [d, c]: kind = .modifier(caseInsensitive: true, diacriticInsensitive: true)
        default: return nil
        }
        position = end + 1
        return QueryToken(kind, start..<position)
    }

    /// The argument number whose digits start at `index` (0 and `index` when there are none),
    /// and where they end.
    private func argumentNumber(at index: Int, start: Int) throws -> (value: Int, end: Int) {
        var end = index, value = 0
        while let b = byte(at: end), isDigit(b) {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(b - UInt8(ascii: "0")))
            guard !o1, !o2, sum <= Int(Int32.max) else { throw error("argument number is too large", start) }
            value = sum
            end += 1
        }
        return (value, end)
    }

    private mutating func lexArgument() throws -> QueryToken {
        let start = position
        let number = try argumentNumber(at: start + 1, start: start)
        let value = number.value
        var end = number.end
        if end == start + 1, byte(at: end) == UInt8(ascii: "K"), let digit = byte(at: end + 1), isDigit(digit) {
            // `$K0`: a key path argument (realm-core's KP_ARG; never a variable name).
            let (n, kEnd) = try argumentNumber(at: end + 1, start: start)
            if !isIdentifierContinue(at: kEnd) && byte(at: kEnd) != UInt8(ascii: "-") && byte(at: kEnd) != UInt8(ascii: "$") {
                position = kEnd
                return QueryToken(.keyPathArgument(n), start..<kEnd)
            }
        }
        if end == start + 1, isIdentifierStart(at: end) {
            // `$d`: a SUBQUERY variable. As in realm-core's grammar, its name may go on with
            // `-` and `$` as well (`$x-1` is one variable, not `$x` minus 1).
            while isIdentifierContinue(at: end) || byte(at: end) == UInt8(ascii: "-") || byte(at: end) == UInt8(ascii: "$") {
                end += scalar(at: end)?.1 ?? 1
            }
            position = end
            return QueryToken(.variable(text((start + 1)..<end)), start..<end)
        }
        guard end > start + 1 else { throw error("'$' must be followed by an argument number (e.g. $0) or a SUBQUERY variable name", start) }
        if isIdentifierContinue(at: end) { throw error("unexpected \(characterDescription(at: end)) after argument $\(value)", end) }
        position = end
        return QueryToken(.argument(value), start..<end)
    }

    private mutating func lexAt() throws -> QueryToken {
        let start = position
        position += 1
        guard isIdentifierStart(at: position) else { return QueryToken(.at, start..<position) }
        let nameStart = position
        while isIdentifierContinue(at: position) { position += scalar(at: position)?.1 ?? 1 }
        let name = text(nameStart..<position).lowercased()
        guard queryAtComponents.contains(name) else {
            let known = queryAtComponents.sorted().map { "@" + $0 }.joined(separator: ", ")
            throw error("unknown keyword '@\(text(nameStart..<position))' (expected one of \(known))", start)
        }
        return QueryToken(.atComponent(name), start..<position)
    }

    /// An identifier, a keyword, or a literal introduced by a word: `oid(`, `uuid(`,
    /// `decimal128(`, `B64"`, `T<seconds>:`.
    private mutating func lexWord() throws -> QueryToken {
        let start = position
        if let timestamp = try lexSecondsTimestampIfPresent() { return timestamp }
        var escaped: String?  // the name with its escapes resolved, once one is met
        while true {
            if isIdentifierContinue(at: position) {
                let length = scalar(at: position)?.1 ?? 1
                escaped? += text(position..<(position + length))
                position += length
            } else if let whitespace = escapedWhitespace(at: position) {
                // `first\ name`: a name with whitespace in it (realm-core: `\ `, `\t`, `\n`, `\r`).
                escaped = (escaped ?? text(start..<position)) + String(whitespace)
                position += 2
            } else {
                break
            }
        }
        if let escaped { return QueryToken(.identifier(escaped), start..<position) }
        let word = text(start..<position)
        let next = byte(at: position)
        if let link = try lexObjectLinkIfPresent(word, start: start) { return link }
        switch (word.lowercased(), next) {
        case ("oid", UInt8(ascii: "(")?): return try lexObjectID(start: start)
        case ("uuid", UInt8(ascii: "(")?): return try lexUUID(start: start)
        case ("decimal128", UInt8(ascii: "(")?): return try lexDecimal128(start: start)
        case ("b64", UInt8(ascii: "\"")?), ("b64", UInt8(ascii: "'")?): return try lexBase64(start: start)
        default: break
        }
        if let keyword = QueryKeyword(word: word) { return QueryToken(.keyword(keyword), start..<position) }
        return QueryToken(.identifier(word), start..<position)
    }

    // MARK: - Numbers

    private mutating func lexNumber() throws -> QueryToken {
        let start = position
        if byte(at: start) == UInt8(ascii: "0"), let x = byte(at: start + 1), x | 0x20 == UInt8(ascii: "x") {
            position = start + 2
            var value: UInt64 = 0
            while let b = byte(at: position), let digit = hexValue(b) {
                guard value >> 60 == 0 else { throw error("hex literal \(hexText(from: start)) does not fit in 64 bits", start) }
                value = value << 4 | UInt64(digit)
                position += 1
            }
            guard position > start + 2 else { throw error("expected hex digits after '0x'", position) }
            try rejectIdentifierCharacter(after: "number")
            return QueryToken(.integer(value), start..<position)
        }
        while let b = byte(at: position), isDigit(b) { position += 1 }
        var isFloat = false
        if byte(at: position) == UInt8(ascii: ".") {
            guard let b = byte(at: position + 1), isDigit(b) else {
                throw error("expected a digit after the decimal point (write \(text(start..<position)).0)", position + 1)
            }
            isFloat = true
            position += 1
            while let b = byte(at: position), isDigit(b) { position += 1 }
        }
        if let e = byte(at: position), e | 0x20 == UInt8(ascii: "e") {
            isFloat = true
            var p = position + 1
            if let sign = byte(at: p), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { p += 1 }
            guard let b = byte(at: p), isDigit(b) else { throw error("expected digits in the exponent of a number", p) }
            position = p
            while let b = byte(at: position), isDigit(b) { position += 1 }
        }
        try rejectIdentifierCharacter(after: "number")
        let literal = text(start..<position)
        if isFloat {
            guard let value = Double(literal), value.isFinite else {
                throw error("number \(literal) is out of range for a double (use decimal128(\(literal)))", start)
            }
            return QueryToken(.float(value, text: literal), start..<position)
        }
        guard let value = UInt64(literal) else {
            throw error("integer \(literal) does not fit in a 64-bit integer", start)
        }
        return QueryToken(.integer(value), start..<position)
    }

    private func hexText(from start: Int) -> String {
        var end = start + 2
        while let b = byte(at: end), isHexDigit(b) { end += 1 }
        return text(start..<end)
    }

    func rejectIdentifierCharacter(after what: String) throws {
        if isIdentifierContinue(at: position) || byte(at: position) == UInt8(ascii: ".") {
            throw error("unexpected \(characterDescription(at: position)) after a \(what)", position)
        }
    }
}
