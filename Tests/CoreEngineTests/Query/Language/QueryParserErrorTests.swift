import XCTest
#if os(Linux)
import Glibc
#endif
@testable import CoreEngine

final class QueryParserErrorTests: XCTestCase {
    private func assertError(_ text: String, _ offset: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try QueryParser.parse(text), text, file: file, line: line) { error in
            guard let e = error as? DBError else { return XCTFail("\(text): \(error)", file: file, line: line) }
            XCTAssertEqual(e.code, .query, text, file: file, line: line)
            XCTAssertEqual(e.offset, offset, "\(text): \(e.message)", file: file, line: line)
            XCTAssertTrue(e.message.contains(message), "\(text): \(e.message)", file: file, line: line)
            XCTAssertTrue(e.message.hasSuffix(" at offset \(offset)"), "\(text): \(e.message)", file: file, line: line)
        }
    }

    /// Each invalid query, the byte offset of the token the error names, and part of the message.
    func testSyntaxErrorsNameTheOffendingToken() {
        let table: [(String, Int, String)] = [
            ("", 0, "the query is empty (use TRUEPREDICATE"),
            ("   ", 3, "the query is empty"),
            ("a ==", 4, "expected a value after '==', found end of query"),
            ("age > 30 AND name == ", 21, "expected a value after '==', found end of query"),
            ("a == )", 5, "expected a value after '==', found ')'"),
            ("a == AND b", 5, "expected a value after '==', found 'AND'"),
            ("a == == 1", 5, "expected a value after '=='"),
            ("a + == 1", 4, "expected a value after '+'"),
            ("-", 1, "expected a value after '-'"),
            ("== 1", 0, "expected a condition such as name == 'x', found '=='"),
            ("a == 1 AND", 10, "expected a condition after 'AND', found end of query"),
            ("a == 1 || ", 10, "expected a condition after '||'"),
            ("NOT", 3, "expected a condition after 'NOT'"),
            ("a == 1 b", 7, "expected AND, OR, SORT, DISTINCT, LIMIT or the end of the query after '1', found 'b'"),
            ("a < b < c", 6, "expected AND, OR"),
            ("a == 1)", 6, "unmatched ')'"),
            ("(a == 1", 7, "expected ')' to close the '(' at offset 0, found end of query"),
            ("a == (1 + 2", 11, "expected ')' to close the '(' at offset 5"),
            ("a", 1, "expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, TEXT, IN, BETWEEN or GEOWITHIN) after 'a', found end of query"),
            ("(a)", 3, "expected a comparison operator"),
            ("(a AND b == 1)", 3, "after 'a', found 'AND'"),
            ("(NOT a)", 6, "after 'a', found ')'"),
            ("a BEGINSWITHX 'b'", 2, "found 'BEGINSWITHX'"),
            ("ANY a", 5, "expected a comparison operator"),
            ("(ANY a)", 6, "expected a comparison operator"),
            ("(a == 1) + 2", 9, "a condition in parentheses cannot be compared or used in arithmetic, found '+'"),
            ("(a == 1) == true", 9, "a condition in parentheses cannot be compared"),
            ("a <[c] 'x'", 3, "'[c]' cannot follow '<' (only ==, !=, IN, BEGINSWITH, ENDSWITH, CONTAINS and LIKE take [c], [d] or [cd])"),
            ("a >=[cd] 'x'", 4, "'[cd]' cannot follow '>='"),
            ("a ==[x] 'y'", 4, "'[x]' is not a string operator modifier (use [c], [d] or [cd])"),
            ("a CONTAINS[ci] 'y'", 10, "'[ci]' is not a string operator modifier"),
            ("a CONTAINS[ 'y'", 10, "'[' is not a string operator modifier"),
            ("a BETWEEN[c] {1, 2}", 9, "'[c]' cannot follow BETWEEN"),
            ("a BETWEEN 1", 10, "BETWEEN expects {lower, upper}, found '1'"),
            ("a BETWEEN {1}", 12, "BETWEEN expects {lower, upper}: expected ','"),
            ("a BETWEEN {1, 2, 3}", 15, "BETWEEN expects {lower, upper}: expected '}'"),
            ("a IN {1, 2", 10, "expected ',' or '}' in a list, found end of query"),
            ("a IN {1 2}", 8, "expected ',' or '}' in a list, found '2'"),
            ("a IN {1,}", 8, "expected a value after ','"),
            ("{1}.@count > 2", 3, "expected a comparison operator"),
            ("l GEOWITHIN NULL", 12, "GEOWITHIN expects geoBox(...), geoCircle(...), geoPolygon(...) or an argument $n, found 'NULL'"),
            ("l GEOWITHIN 1.2", 12, "GEOWITHIN expects geoBox"),
            ("l GEOWITHIN geoSquare([0, 0], 1)", 12, "found 'geoSquare'"),
            ("l GEOWITHIN geoBox[0, 0]", 18, "expected '(' after geoBox"),
            ("l GEOWITHIN geoBox([0, 0] [1, 1])", 26, "geoBox expects two corners"),
            ("l GEOWITHIN geoCircle([0 0], 1)", 25, "a point is [longitude, latitude]: expected ','"),
            ("l GEOWITHIN geoCircle([0, 0, 0, 0], 1)", 30, "expected ']' after a point's longitude, latitude and optional altitude"),
            ("l GEOWITHIN geoCircle([0, 'a'], 1)", 26, "expected a number or an argument $n in a shape"),
            ("l GEOWITHIN geoCircle([0, -x], 1)", 27, "expected a number or an argument $n in a shape"),
            ("l GEOWITHIN geoPolygon([0, 0])", 23, "geoPolygon expects rings"),
            ("l GEOWITHIN geoPolygon({[0, 0] [1, 1]})", 31, "expected ',' or '}' in a ring"),
            ("l GEOWITHIN geoCircle([0, 0], 1", 31, "expected ')' to close geoCircle("),
            ("(l GEOWITHIN $0) > 1", 17, "a condition in parentheses cannot be compared"),
            ("$K0.name == 1", 3, "a key path argument $K0 is a whole key path: nothing may follow it"),
            ("a == ANY 5", 9, "'ANY' after '==' must be followed by a list {...}, a list argument $n or a collection"),
            ("a == 9223372036854775808", 5, "integer 9223372036854775808 does not fit in a 64-bit signed integer"),
            ("a == -9223372036854775809", 5, "integer -9223372036854775809 does not fit"),
            ("a == 0x8000000000000000", 5, "does not fit in a 64-bit signed integer"),
            ("d == 2017-12-04T10:00:00.5", 24, "fraction of a second is written as nanoseconds after a colon"),
            ("a.", 2, "expected a property name after '.', found end of query"),
            ("a. == 1", 3, "expected a property name after '.', found '=='"),
            ("a.1 == 1", 2, "expected a property name after '.', found '1'"),
            ("a.$0 == 1", 2, "expected a property name after '.'"),
            ("true", 4, "after 'true', found end of query"),
            ("SUBQUERY(items, $x, $x.price > 5) > 0", 34, "must be followed by .@count or .@size"),
            ("SUBQUERY(items, $x, $x.price > 5).@sum > 0", 34, "must be followed by .@count or .@size"),
            ("SUBQUERY(items, x, x.price > 5).@count > 0", 16, "expected a variable such as $x"),
            ("SUBQUERY(items $x, $x.price > 5).@count > 0", 15, "expected ','"),
            ("a == subquery", 13, "expected '(' after SUBQUERY"),
            ("scores[middle] == 1", 7, "expected FIRST, LAST, a position, a dictionary key, * or an argument"),
            ("scores[1 == 1", 9, "expected ']'"),
            ("a == 'x' AND b == 'unterminated", 18, "unterminated string starting at offset 18"),
            ("a == $0 $1", 8, "found '$1'"),
            ("a == 1 @", 7, "found '@'"),
            ("a == @", 5, "expected a value after '=='"),
            ("a == [c]", 8, "expected a value after '[c]'"),
            // Suffixes.
            ("SORT(a ASC)", 0, "a query needs a condition before 'SORT' (use TRUEPREDICATE SORT(...))"),
            ("limit(5)", 0, "a query needs a condition before 'limit'"),
            ("TRUEPREDICATE LIMIT(-1)", 20, "LIMIT expects a non-negative integer, found '-'"),
            ("TRUEPREDICATE LIMIT(1.5)", 20, "LIMIT expects a non-negative integer"),
            ("TRUEPREDICATE LIMIT($0)", 20, "LIMIT expects a non-negative integer"),
            ("TRUEPREDICATE LIMIT()", 20, "LIMIT expects a non-negative integer, found ')'"),
            ("TRUEPREDICATE LIMIT(9223372036854775808)", 20, "LIMIT expects a non-negative integer"),
            ("TRUEPREDICATE LIMIT 5", 20, "expected '(' after 'LIMIT', found '5'"),
            ("TRUEPREDICATE LIMIT(5", 21, "expected ')' after the LIMIT count"),
            ("TRUEPREDICATE SORT()", 19, "expected a key path in SORT(...), found ')'"),
            ("TRUEPREDICATE SORT(a UP)", 21, "expected ASC, DESC, ',' or ')' in SORT(...), found 'UP'"),
            ("TRUEPREDICATE SORT(a ASC,)", 25, "expected a key path in SORT(...)"),
            ("TRUEPREDICATE SORT(1)", 19, "expected a key path in SORT(...), found '1'"),
            ("TRUEPREDICATE DISTINCT(a b)", 25, "expected ',' or ')' in DISTINCT(...), found 'b'"),
            ("TRUEPREDICATE DISTINCT()", 23, "expected a key path in DISTINCT(...)"),
            ("TRUEPREDICATE SORT(a ASC) AND b == 1", 26, "expected SORT, DISTINCT, LIMIT or the end of the query after ')', found 'AND'"),
            // Lexical errors surface through the parser with their own offsets.
            ("é == 'x", 6, "unterminated string starting at offset 6"),
            ("a == 1 & b == 2", 7, "'&' is not an operator (use && or AND)"),
        ]
        for (text, offset, message) in table { assertError(text, offset, message) }
    }

    func testNestingIsCappedWithAnError() throws {
        let depth = QueryParser.maxDepth
        // Exactly at the cap parses; one more level is an error at the token that exceeds it.
        let ok = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        XCTAssertNoThrow(try QueryParser.parse(ok))
        let parens = String(repeating: "(", count: depth + 1) + "a == 1" + String(repeating: ")", count: depth + 1)
        assertError(parens, depth, "the query is nested too deeply (more than \(depth) levels)")
        assertError(String(repeating: "!", count: depth + 1) + "a == 1", depth, "nested too deeply")
        assertError(String(repeating: "NOT ", count: depth + 1) + "a == 1", 4 * depth, "nested too deeply")
        assertError("a == " + String(repeating: "-", count: depth + 1) + "1", 5 + depth, "nested too deeply")
        assertError("a == " + String(repeating: "(", count: depth + 1) + "1" + String(repeating: ")", count: depth + 1),
                    5 + depth, "nested too deeply")
        XCTAssertNoThrow(try QueryParser.parse("a == " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)))
        // Long flat inputs are fine: the limit is on nesting, not length.
        let wide = (0..<5000).map { "a == \($0)" }.joined(separator: " OR ")
        XCTAssertNoThrow(try QueryParser.parse(wide))
        // Far too deep is the same error, not a stack overflow.
        assertError(String(repeating: "(", count: 100_000), depth, "nested too deeply")
    }

    /// `a + 1 + 1 ...` nests one level per operator (each is the left operand of the next), so
    /// a long chain is capped like parentheses are: it once overflowed the stack when compiled.
    func testLongArithmeticIsCappedWithAnError() throws {
        let depth = QueryParser.maxDepth
        XCTAssertNoThrow(try QueryParser.parse("a" + String(repeating: " + 1", count: depth) + " > 0"))
        XCTAssertNoThrow(try QueryParser.parse("a > 0" + String(repeating: " * 2", count: depth)))
        let long = "a" + String(repeating: " + 1", count: 100_000) + " > 0"
        // The operator after the 100th is where the error is.
        assertError(long, 2 + 4 * depth, "the arithmetic is too long or nested too deeply")
        assertError("a == " + String(repeating: "1 * ", count: 100_000) + "1", 7 + 4 * depth, "the arithmetic is too long")
        // A query at the limit reads back from its description: a negated negative number
        // prints without parentheses, which would be one level more (a fuzzer's finding).
        func negated(_ count: Int) -> String { "bo < ----Set - " + String(repeating: "-", count: count) + "2.03" }
        let most = try XCTUnwrap((1...depth + 5).last { (try? QueryParser.parse(negated($0))) != nil })
        XCTAssertLessThan(most, depth, "the limit applies")
        let parsed = try QueryParser.parse(negated(most))
        XCTAssertEqual(try QueryParser.parse(parsed.description), parsed, parsed.description)
        // Lists nest as parentheses do (a fuzzer's finding: 100,000 braces overflowed the stack).
        XCTAssertNoThrow(try QueryParser.parse("a IN " + String(repeating: "{", count: depth - 1) + "1" + String(repeating: "}", count: depth - 1)))
        assertError("a IN " + String(repeating: "{", count: 100_000) + "1", 5 + depth, "nested too deeply")
        // Flat lists stay unlimited.
        XCTAssertNoThrow(try QueryParser.parse("a IN {" + (0..<10_000).map(String.init).joined(separator: ", ") + "}"))
    }

    #if os(Linux)
    #if DEBUG
    private static let stackSize = 1 << 20  // debug frames are about three times larger
    #else
    private static let stackSize = 1 << 19  // macOS's default for secondary threads
    #endif

    /// The deepest accepted queries parse on a thread with a 512 KiB stack (1 MiB in debug
    /// builds), so `maxDepth` is safe off the main thread. (Checked: debug traps at 512 KiB.)
    func testMaximumNestingFitsInASmallThreadStack() {
        let d = QueryParser.maxDepth
        let texts = [
            String(repeating: "(", count: d) + "a == 1" + String(repeating: ")", count: d),
            String(repeating: "a == 1 OR (", count: d) + "a == 1" + String(repeating: ")", count: d),
            String(repeating: "(NOT ", count: d / 2) + "a == 1" + String(repeating: ")", count: d / 2),
            "a == " + String(repeating: "(", count: d) + "1" + String(repeating: ")", count: d),
            "a == " + String(repeating: "-(", count: d / 2) + "1" + String(repeating: ")", count: d / 2),
            String(repeating: "!", count: d) + "a == 1",
        ]
        final class Job { let text: String; var parsed = false; init(_ text: String) { self.text = text } }
        for text in texts {
            let job = Job(text)
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            pthread_attr_setstacksize(&attributes, Self.stackSize)
            var thread = pthread_t()
            let context = Unmanaged.passRetained(job).toOpaque()
            XCTAssertEqual(pthread_create(&thread, &attributes, { raw in
                guard let raw else { return nil }
                let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
                job.parsed = (try? QueryParser.parse(job.text)) != nil
                return nil
            }, context), 0)
            pthread_join(thread, nil)
            pthread_attr_destroy(&attributes)
            XCTAssertTrue(job.parsed, String(text.prefix(20)))
        }
    }
    #endif
}
