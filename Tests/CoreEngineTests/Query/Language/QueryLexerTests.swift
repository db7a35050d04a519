import XCTest
@testable import CoreEngine

final class QueryLexerTests: XCTestCase {
    private func kinds(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [QueryToken.Kind] {
        do {
            return try QueryLexer.tokenize(text).map(\.kind).dropLast()
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return []
        }
    }

    private func single(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> QueryToken.Kind? {
        let k = kinds(text, file: file, line: line)
        XCTAssertEqual(k.count, 1, "\(text) -> \(k)", file: file, line: line)
        return k.first
    }

    private func ts(_ s: Int64, _ ns: Int32) -> QueryToken.Kind { .timestamp(Timestamp(seconds: s, nanoseconds: ns)) }

    // MARK: - Token kinds

    func testOperatorsAndPunctuation() {
        let table: [(String, QueryToken.Kind)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
            ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual),
            ("=>", .greaterOrEqual), ("&&", .ampersandAmpersand), ("||", .pipePipe), ("!", .bang),
            ("+", .plus), ("-", .minus), ("*", .star), ("/", .slash), ("(", .leftParen), (")", .rightParen),
            ("{", .leftBrace), ("}", .rightBrace), ("[", .leftBracket), ("]", .rightBracket), (",", .comma),
            (".", .dot), ("@", .at),
        ]
        for (text, kind) in table { XCTAssertEqual(single(text), kind, text) }
        XCTAssertEqual(kinds("a<=b"), [.identifier("a"), .lessOrEqual, .identifier("b")])
        XCTAssertEqual(kinds("!a"), [.bang, .identifier("a")])
        XCTAssertEqual(kinds("a==-1"), [.identifier("a"), .equal, .minus, .integer(1)])
    }

    func testKeywordsAreCaseInsensitive() {
        for keyword in QueryKeyword.allCases {
            for spelling in [keyword.rawValue, keyword.rawValue.lowercased(), keyword.rawValue.uppercased()] {
                XCTAssertEqual(single(spelling), .keyword(keyword), spelling)
            }
        }
        XCTAssertEqual(single("BeginsWith"), .keyword(.beginsWith))
        XCTAssertEqual(single("ANDY"), .identifier("ANDY"))
    }

    func testIdentifiers() {
        let table: [(String, String)] = [
            ("name", "name"), ("_private", "_private"), ("a1_b2", "a1_b2"), ("école", "école"),
            ("名前", "名前"), ("Straße", "Straße"), ("e\u{301}cole", "e\u{301}cole"), ("T1", "T1"), ("Tx", "Tx"),
            ("oid", "oid"), ("uuid", "uuid"), ("B64", "B64"), ("decimal128", "decimal128"),
        ]
        for (text, name) in table { XCTAssertEqual(single(text), .identifier(name), text) }
        XCTAssertEqual(kinds("a.b.c"), [.identifier("a"), .dot, .identifier("b"), .dot, .identifier("c")])
        XCTAssertEqual(kinds("T-5"), [.identifier("T"), .minus, .integer(5)])
        // Escaped whitespace inside a name, as realm-core's lexer reads it.
        XCTAssertEqual(single("first\\ name"), .identifier("first name"))
        XCTAssertEqual(single("a\\tb\\nc\\rd"), .identifier("a\tb\nc\rd"))
        XCTAssertEqual(kinds("first\\ name == 1"), [.identifier("first name"), .equal, .integer(1)])
        XCTAssertEqual(kinds("and\\ more"), [.identifier("and more")], "an escaped name is never a keyword")
        XCTAssertThrowsError(try QueryLexer.tokenize("a\\x"), "only \\ , \\t, \\n and \\r continue a name")
        // `$K<n>` is a key path argument, never a variable; `$K` alone and `$K0x` are variables.
        XCTAssertEqual(single("$K0"), .keyPathArgument(0))
        XCTAssertEqual(single("$K12"), .keyPathArgument(12))
        XCTAssertEqual(single("$K"), .variable("K"))
        XCTAssertEqual(single("$K0x"), .variable("K0x"))
        XCTAssertEqual(kinds("$K0.a"), [.keyPathArgument(0), .dot, .identifier("a")])
    }

    func testAtComponents() {
        for name in queryAtComponents {
            XCTAssertEqual(single("@" + name), .atComponent(name))
            XCTAssertEqual(single("@" + name.uppercased()), .atComponent(name))
        }
        XCTAssertEqual(kinds("list.@count"), [.identifier("list"), .dot, .atComponent("count")])
    }

    func testArgumentsAndModifiers() {
        XCTAssertEqual(single("$0"), .argument(0))
        XCTAssertEqual(single("$12"), .argument(12))
        XCTAssertEqual(single("$dog"), .variable("dog"))
        XCTAssertEqual(kinds("$d.age"), [.variable("d"), .dot, .identifier("age")])
        // realm-core's grammar: a variable name goes on with letters, digits, `_`, `-` and `$`.
        XCTAssertEqual(kinds("$anyNAME_-0123456789.price"), [.variable("anyNAME_-0123456789"), .dot, .identifier("price")])
        XCTAssertEqual(single("$x$y"), .variable("x$y"))
        XCTAssertEqual(kinds("$0-1"), [.argument(0), .minus, .integer(1)], "an argument is digits only")
        let table: [(String, Bool, Bool)] = [("[c]", true, false), ("[d]", false, true), ("[cd]", true, true),
                                             ("[dc]", true, true), ("[C]", true, false), ("[CD]", true, true)]
        for (text, c, d) in table { XCTAssertEqual(single(text), .modifier(caseInsensitive: c, diacriticInsensitive: d), text) }
        XCTAssertEqual(kinds("==[c]"), [.equal, .modifier(caseInsensitive: true, diacriticInsensitive: false)])
        XCTAssertEqual(kinds("[x]"), [.leftBracket, .identifier("x"), .rightBracket])
        XCTAssertEqual(kinds("[cc]"), [.leftBracket, .identifier("cc"), .rightBracket])
    }

    func testNumbers() {
        let ints: [(String, UInt64)] = [("0", 0), ("42", 42), ("007", 7), ("0x1F", 31), ("0X1f", 31), ("0xffffffffffffffff", .max),
                                        ("18446744073709551615", .max), ("9223372036854775808", 9_223_372_036_854_775_808)]
        for (text, value) in ints { XCTAssertEqual(single(text), .integer(value), text) }
        let floats: [(String, Double)] = [("1.5", 1.5), ("0.25", 0.25), ("1e-3", 0.001), ("1E+3", 1000), ("2.5e2", 250),
                                          ("1e308", 1e308), ("1e-400", 0)]
        for (text, value) in floats { XCTAssertEqual(single(text), .float(value, text: text), text) }
        XCTAssertEqual(single("inf"), .keyword(.inf))
        XCTAssertEqual(single("NaN"), .keyword(.nan))
        XCTAssertEqual(single("Infinity"), .keyword(.infinity))
    }

    func testStringsAndEveryEscape() {
        let table: [(String, String)] = [
            ("'abc'", "abc"), ("\"abc\"", "abc"), ("''", ""), ("\"it's\"", "it's"), ("'say \"hi\"'", "say \"hi\""),
            (#"'a\\b'"#, "a\\b"), (#"'\''"#, "'"), (#"'\"'"#, "\""), (#"'\n'"#, "\n"), (#"'\t'"#, "\t"),
            (#"'\r'"#, "\r"), (#"'\0'"#, "\0"), (#"'\u00e9'"#, "é"), (#"'\u00C9'"#, "É"), (#"'\uD83D\uDE00'"#, "😀"),
            ("'école 😀'", "école 😀"), ("'line\nbreak'", "line\nbreak"),
        ]
        for (text, value) in table { XCTAssertEqual(single(text), .string(value), text) }
    }

    func testDates() {
        let table: [(String, QueryToken.Kind)] = [
            ("2024-03-01@12:00:00", ts(1_709_294_400, 0)),
            ("2024-03-01T12:00:00", ts(1_709_294_400, 0)),
            ("2024-03-01@12:00:00:123456789", ts(1_709_294_400, 123_456_789)),
            ("2024-03-01@12:00:00:1", ts(1_709_294_400, 1)),
            ("1970-01-01@00:00:00", ts(0, 0)),
            ("2000-02-29@00:00:00", ts(951_782_400, 0)),
            ("1969-12-31@23:59:59", ts(-1, 0)),
            // Before 1970 the nanoseconds count away from the epoch, as in realm-core.
            ("1969-12-31@23:59:59:500000000", ts(-1, -500_000_000)),
            ("1969-12-31@23:59:58:500000000", ts(-2, -500_000_000)),
            ("1969-12-31@23:59:59:1", ts(-1, -1)),
            ("1969-12-31T23:59:59:1", ts(-1, -1)),
            ("1900-01-01@00:00:00:7", ts(-2_208_988_800, -7)),
            ("1-1-1@0:0:0", ts(-62_135_596_800, 0)),
            ("T1700000000:0", ts(1_700_000_000, 0)),
            ("T0:5", ts(0, 5)), ("T0:-5", ts(0, -5)), ("T-10:-5", ts(-10, -5)), ("T-10:0", ts(-10, 0)),
            ("T9223372036854775807:999999999", ts(.max, 999_999_999)),
        ]
        for (text, kind) in table { XCTAssertEqual(single(text), kind, text) }
        // Without the time, a date-like text is arithmetic.
        XCTAssertEqual(kinds("2024-03-01"), [.integer(2024), .minus, .integer(3), .minus, .integer(1)])
    }

    func testObjectIdUUIDBinaryDecimal() throws {
        let oid = try XCTUnwrap(ObjectID(bytes: [0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11]))
        XCTAssertEqual(single("oid(507f1f77bcf86cd799439011)"), .objectID(oid))
        XCTAssertEqual(single("OID(507F1F77BCF86CD799439011)"), .objectID(oid))
        let uuid = try XCTUnwrap(UUIDValue(bytes: [0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00]))
        XCTAssertEqual(single("uuid(123e4567-e89b-12d3-a456-426614174000)"), .uuid(uuid))
        let b64: [(String, [UInt8])] = [("B64\"\"", []), ("B64\"AQ==\"", [1]), ("B64\"AQ\"", [1]), ("B64\"AQI=\"", [1, 2]),
                                        ("B64'AQID'", [1, 2, 3]), ("b64\"aGVsbG8=\"", Array("hello".utf8)), ("B64\"+/8=\"", [0xfb, 0xff])]
        for (text, bytes) in b64 { XCTAssertEqual(single(text), .binary(bytes), text) }
        let decimals = ["1.23E-4", "-5", "+5", ".5", "5.", "1e6144", "inf", "-Infinity", "NaN", "123456789012345678901234567890123"]
        for text in decimals { XCTAssertEqual(single("decimal128(\(text))"), .decimal128(text), text) }
    }

    func testRangesAreUTF8ByteOffsets() throws {
        let tokens = try QueryLexer.tokenize("école == 'ü' AND  x.@count >= $1")
        XCTAssertEqual(tokens.map(\.range), [0..<6, 7..<9, 10..<14, 15..<18, 20..<21, 21..<22, 22..<28, 29..<31, 32..<34, 34..<34])
        let dates = try QueryLexer.tokenize(" 2024-03-01@12:00:00 T1:2 oid(507f1f77bcf86cd799439011)")
        XCTAssertEqual(dates.map(\.range), [1..<20, 21..<25, 26..<55, 55..<55])
    }

    // MARK: - Errors

    func testErrorsCarryExactOffsets() {
        let table: [(String, Int, String)] = [
            ("name == 'abc", 8, "unterminated string starting at offset 8"),
            ("name == \"abc\\\"", 8, "unterminated string"),
            ("'abc\\", 0, "unterminated string"),
            ("a == 'x\\qy'", 7, "invalid escape \\q"),
            ("a == 'x\\u12'", 7, "\\u must be followed by 4 hex digits"),
            ("a == 'x\\u12G4'", 7, "\\u must be followed by 4 hex digits"),
            ("'\\uD83D'", 1, "unpaired surrogate"),
            ("'\\uDE00'", 1, "unpaired surrogate"),
            ("'\\uD83D\\u0041'", 1, "unpaired surrogate"),
            ("a == .5", 5, "write 0.5 instead of .5"),
            ("a == 1.", 7, "expected a digit after the decimal point"),
            ("a == 1.x", 7, "expected a digit after the decimal point"),
            ("a == 1e", 7, "expected digits in the exponent"),
            ("a == 1e+", 8, "expected digits in the exponent"),
            ("a == 12abc", 7, "unexpected 'a' after a number"),
            ("a == 0x", 7, "expected hex digits after '0x'"),
            ("a == 0x1G", 8, "unexpected 'G' after a number"),
            ("a == 0x1ffffffffffffffff", 5, "does not fit in 64 bits"),
            ("a == 18446744073709551616", 5, "does not fit in a 64-bit integer"),
            ("a == 1e999", 5, "out of range for a double"),
            ("a == $", 5, "'$' must be followed by an argument number"),
            ("a == $ ", 5, "'$' must be followed by an argument number"),
            ("a == $1x", 7, "after argument $1"),
            ("a == $99999999999", 5, "argument number is too large"),
            ("a.@foo", 2, "unknown keyword '@foo'"),
            ("a & b", 2, "use && or AND"),
            ("a | b", 2, "use || or OR"),
            ("a # b", 2, "unexpected character '#'"),
            ("a \u{1} b", 2, "unexpected character U+0001"),
            ("a == 2024-13-01@00:00:00", 10, "month 13 is out of range"),
            ("a == 2023-02-29@00:00:00", 13, "day 29 is out of range 1...28"),
            ("a == 2024-01-01@24:00:00", 16, "hour 24"),
            ("a == 2024-01-01@00:60:00", 19, "minute 60"),
            ("a == 2024-01-01@00:00:60", 22, "second 60"),
            ("a == 2024-01-01@00:00", 21, "expected a date as YYYY-MM-DD@HH:MM:SS"),
            ("a == 2024-01-01@x", 16, "expected a date"),
            ("a == 2024-01-01@00:00:00:", 25, "expected 1 to 9 digits of nanoseconds"),
            ("a == 2024-01-01@00:00:00:1234567890", 25, "expected 1 to 9 digits of nanoseconds"),
            ("a == T1:", 8, "expected nanoseconds after ':'"),
            ("a == T1:1000000000", 8, "nanoseconds of a timestamp must be between"),
            ("a == T1:-1", 8, "must not have opposite signs"),
            ("a == T-1:1", 9, "must not have opposite signs"),
            ("a == T99999999999999999999:0", 6, "do not fit in 64 bits"),
            ("a == oid(507f1f77bcf86cd79943901)", 32, "oid(...) expects 24 hex digits"),
            ("a == oid(507f1f77bcf86cd7994390111)", 33, "oid(...) expects 24 hex digits"),
            ("a == oid(507f1f77bcf86cd79943901x)", 32, "oid(...) expects 24 hex digits"),
            ("a == oid( 507f1f77bcf86cd799439011)", 9, "oid(...) expects 24 hex digits"),
            ("a == uuid(123e4567-e89b-12d3-a456-42661417400)", 45, "uuid(...) expects 8-4-4-4-12"),
            ("a == uuid(123e4567e89b-12d3-a456-426614174000)", 18, "uuid(...) expects 8-4-4-4-12"),
            ("a == B64\"AQ=x\"", 12, "invalid character 'x' in a B64 literal"),
            ("a == B64\"A*==\"", 10, "invalid character '*'"),
            ("a == B64\"A===\"", 12, "too much '=' padding"),
            ("a == B64\"A\"", 10, "truncated B64 literal"),
            ("a == B64\"AQ=\"", 12, "truncated B64 literal"),
            ("a == B64\"AQ", 5, "unterminated B64 literal"),
            ("a == decimal128()", 16, "decimal128(...) expects a number"),
            ("a == decimal128(1.2.3)", 19, "decimal128(...) expects a number"),
            ("a == decimal128(1e)", 18, "decimal128(...) expects a number"),
            ("a == decimal128(abc)", 16, "decimal128(...) expects a number"),
            ("a == decimal128(.)", 17, "decimal128(...) expects a number"),
            ("a == decimal128(1", 17, "decimal128(...) expects a number"),
            ("é == 'x\\é'", 8, "invalid escape \\é"),
        ]
        for (text, offset, message) in table {
            XCTAssertThrowsError(try QueryLexer.tokenize(text), text) { error in
                guard let e = error as? DBError else { return XCTFail("\(text): \(error)") }
                XCTAssertEqual(e.code, .query, text)
                XCTAssertEqual(e.offset, offset, "\(text): \(e.message)")
                XCTAssertTrue(e.message.contains(message), "\(text): \(e.message)")
                XCTAssertTrue(e.message.hasSuffix("at offset \(offset)"), "\(text): \(e.message)")
            }
        }
    }
}
