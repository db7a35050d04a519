import XCTest
@testable import CoreEngine

final class QueryParserTests: XCTestCase {
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Query? {
        do {
            return try QueryParser.parse(text)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return nil
        }
    }

    private func path(_ names: String...) -> QueryExpression { QueryExpression(.keyPath(QueryKeyPath(names.map { .init($0) }))) }
    private func int(_ v: Int64) -> QueryExpression { QueryExpression(.literal(.int(v))) }
    private func cmp(_ l: QueryExpression, _ op: QueryComparisonOperator, _ r: QueryExpression,
                     _ options: QueryStringOptions = .none) -> QueryPredicate {
        QueryPredicate(.comparison(QueryComparison(l, op, r, options: options)))
    }

    // MARK: - Canonical form

    /// Each query and its canonical description; the description must parse back to the same tree.
    func testCanonicalDescriptions() {
        let table: [(String, String)] = [
            // Comparison operators and their alternative spellings.
            ("a == 1", "a == 1"), ("a = 1", "a == 1"), ("a != 1", "a != 1"), ("a <> 1", "a != 1"),
            ("a < 1", "a < 1"), ("a <= 1", "a <= 1"), ("a =< 1", "a <= 1"), ("a > 1", "a > 1"),
            ("a >= 1", "a >= 1"), ("a => 1", "a >= 1"), ("1 < a", "1 < a"), ("a == b", "a == b"),
            // String operators and modifiers.
            ("name BEGINSWITH 'a'", "name BEGINSWITH \"a\""), ("name endswith \"z\"", "name ENDSWITH \"z\""),
            ("name Contains 'x'", "name CONTAINS \"x\""), ("name LIKE 'a*b?'", "name LIKE \"a*b?\""),
            ("name BEGINSWITH[c] 'a'", "name BEGINSWITH[c] \"a\""), ("name ENDSWITH[d] 'a'", "name ENDSWITH[d] \"a\""),
            ("name CONTAINS[cd] 'a'", "name CONTAINS[cd] \"a\""), ("name LIKE[dc] 'a'", "name LIKE[cd] \"a\""),
            ("name ==[c] 'a'", "name ==[c] \"a\""), ("name !=[cd] 'a'", "name !=[cd] \"a\""),
            ("name == [c] 'a'", "name ==[c] \"a\""), ("name IN[c] {'a', 'b'}", "name IN[c] {\"a\", \"b\"}"),
            // Key paths through links and collections, subscripts, SUBQUERY and its variables.
            ("owner.name == 'a'", "owner.name == \"a\""), ("ANY dogs.age > 1", "ANY dogs.age > 1"),
            ("all dogs.age > 1", "ALL dogs.age > 1"), ("SOME dogs.age > 1", "ANY dogs.age > 1"),
            ("dogs.@avg.age > 1", "dogs.@avg.age > 1"), ("@links.Person.dogs.@count > 0", "@links.Person.dogs.@count > 0"),
            ("scores[first] == 1", "scores[FIRST] == 1"), ("scores[Last] == 1", "scores[LAST] == 1"),
            ("dogs[2].age == 1", "dogs[2].age == 1"), ("meta['a b'] == 1", "meta[\"a b\"] == 1"),
            ("'x' IN tags", "\"x\" IN tags"),
            ("SUBQUERY(dogs, $d, $d.age > 3 AND $d.name == 'a').@count > 1",
             "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name == \"a\").@count > 1"),
            ("subquery(dogs,$d,$d == $0).@SIZE == 0", "SUBQUERY(dogs, $d, $d == $0).@size == 0"),
            // Logic and precedence: OR < AND < NOT < comparison.
            ("a == 1 AND b == 2 OR c == 3", "a == 1 AND b == 2 OR c == 3"),
            ("a == 1 OR b == 2 AND c == 3", "a == 1 OR b == 2 AND c == 3"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("a == 1 && b == 2 || c == 3", "a == 1 AND b == 2 OR c == 3"),
            ("NOT a == 1 AND b == 2", "NOT a == 1 AND b == 2"), ("!(a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
            ("not not a == 1", "NOT NOT a == 1"), ("((a == 1))", "a == 1"),
            ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
            ("(a == 1 AND b == 2) AND c == 3", "a == 1 AND b == 2 AND c == 3"),
            ("truepredicate", "TRUEPREDICATE"), ("FALSEPREDICATE OR TRUEPREDICATE", "FALSEPREDICATE OR TRUEPREDICATE"),
            // Arithmetic: * / bind tighter than + -, left-associative, unary minus.
            ("a + b * c == 1", "a + b * c == 1"), ("(a + b) * c == 1", "(a + b) * c == 1"),
            ("a - (b - c) == 1", "a - (b - c) == 1"), ("a - b - c == 1", "a - b - c == 1"),
            ("a / b / c == 1", "a / b / c == 1"), ("a * (b / c) == 1", "a * (b / c) == 1"),
            ("-a == 1", "-a == 1"), ("-(a + 1) == 1", "-(a + 1) == 1"), ("a == -1", "a == -1"), ("a == - 1", "a == -1"),
            ("o < ANY AN\\ \u{618}yq", "o < ANY AN\\ \u{618}yq"), ("a == --2.5", "a == - -2.5"), ("a == -(2.5)", "a == -(2.5)"), ("a == ---1", "a == -- -1"),
            ("a == -(1)", "a == -(1)"), ("a == --1", "a == - -1"), ("a == -1.5", "a == -1.5"), ("a == 0x10", "a == 16"),
            ("((a + 1)) * 2 > 3", "(a + 1) * 2 > 3"), ("(a) == 1", "a == 1"), ("(a + 1) == (b)", "a + 1 == b"),
            ("a-1 == 0", "a - 1 == 0"), ("a == -9223372036854775808", "a == -9223372036854775808"),
            // Literals.
            ("a == true", "a == true"), ("a == FALSE", "a == false"), ("a == nil", "a == null"), ("a == NULL", "a == null"),
            ("a == 1.50", "a == 1.50"), ("a == 1e-3", "a == 1e-3"), ("a == inf", "a == inf"), ("a == -Infinity", "a == -inf"),
            ("a == NaN", "a == nan"), ("a == 'x\\ty\\u00e9\\0'", "a == \"x\\tyé\\0\""), ("a == \"\\u0001\"", "a == \"\\u0001\""),
            ("a == 2024-03-01@12:00:00", "a == T1709294400:0"), ("a == T-5:-1", "a == T-5:-1"),
            ("a == oid(507F1F77BCF86CD799439011)", "a == oid(507f1f77bcf86cd799439011)"),
            ("a == uuid(123E4567-E89B-12D3-A456-426614174000)", "a == uuid(123e4567-e89b-12d3-a456-426614174000)"),
            ("a == B64\"AQI\"", "a == B64\"AQI=\""), ("a == decimal128(1.23E-4)", "a == decimal128(1.23E-4)"),
            // IN, BETWEEN, arguments, quantifiers, key paths.
            ("a IN {1, 2, 3}", "a IN {1, 2, 3}"), ("a in {}", "a IN {}"), ("a IN $0", "a IN $0"), ("a IN list", "a IN list"),
            ("a > ANY {1, 2}", "a > ANY {1, 2}"), ("a == none $1", "a == NONE $1"), ("ALL a BEGINSWITH all {'x'}", "ALL a BEGINSWITH ALL {\"x\"}"),
            ("first\\ name == 1", "first\\ name == 1"), ("a\\tb.c\\ d > 2", "a\\tb.c\\ d > 2"),
            ("bio text 'a b*'", "bio TEXT \"a b*\""), ("text TEXT 'x'", "text TEXT \"x\""),
            ("$K0 == 1", "$K0 == 1"), ("$k0 == $K1", "$k0 == $K1"), ("best == L3:4", "best == L3:4"), ("O5 == a", "O5 == a"),
            ("{1, 2} == a", "{1, 2} == a"), ("all {1} in b", "ALL {1} IN b"), ("ANY {1,2,3} == ALL b", "ANY {1, 2, 3} == ALL b"),
            ("NONE {} < none b.c", "NONE {} < NONE b.c"), ("5 < any b", "5 < ANY b"),
            ("o == obj('C', 5)", "o == obj(\"C\", 5)"), ("o == OBJ ( \"C\" , $0 )", "o == obj(\"C\", $0)"),
            ("d[*] == 1", "d[*] == 1"), ("d[$2] == 1", "d[$2] == 1"), ("d.@keys == {}", "d.@keys == {}"),
            ("l[SIZE] == 3", "l.@size == 3"), ("l[ size ] > 1", "l.@size > 1"), ("b == bin('ab')", "b == B64\"YWI=\""),
            ("b == BINARY(B64\"YWI=\")", "b == B64\"YWI=\""), ("bin == 1", "bin == 1"),
            ("a BETWEEN {1, 10}", "a BETWEEN {1, 10}"), ("a between {$0, $1 + 1}", "a BETWEEN {$0, $1 + 1}"),
            ("a == $0 AND b > $12", "a == $0 AND b > $12"), ("ANY tags == 'x'", "ANY tags == \"x\""),
            ("SOME tags == 'x'", "ANY tags == \"x\""), ("ALL scores > 5", "ALL scores > 5"), ("NONE scores > 5", "NONE scores > 5"),
            ("any a BETWEEN {1, 2}", "ANY a BETWEEN {1, 2}"), ("list.@count > 2", "list.@count > 2"),
            ("a.b.c == 1", "a.b.c == 1"), ("a . b == 1", "a.b == 1"), ("@links.Person.dogs.@COUNT == 0", "@links.Person.dogs.@count == 0"),
            ("a.AND == 1", "a.AND == 1"), ("limit > 5", "limit > 5"), ("desc == 1 SORT(desc DESC)", "desc == 1 SORT(desc DESC)"),
            // GEOWITHIN and its shapes (the names in any case, not reserved).
            ("loc geoWithin geoBox([0.2, 0.2], [0.7, 0.7])", "loc GEOWITHIN geoBox([0.2, 0.2], [0.7, 0.7])"),
            ("loc GEOWITHIN GEOCIRCLE([-1, $0, 3.5], 1)", "loc GEOWITHIN geoCircle([-1, $0, 3.5], 1)"),
            ("ANY a.loc geowithin geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[-0.5, -0.5], [0, 1], [0, 0]})",
             "ANY a.loc GEOWITHIN geoPolygon({[0, 0], [1, 0], [1, 1], [0, 0]}, {[-0.5, -0.5], [0, 1], [0, 0]})"),
            ("loc GEOWITHIN $1 AND geoBox == 2", "loc GEOWITHIN $1 AND geoBox == 2"), ("geoWithin == 1", "geoWithin == 1"),
            ("(loc GEOWITHIN $0)", "loc GEOWITHIN $0"), ("NOT loc GEOWITHIN $0", "NOT loc GEOWITHIN $0"),
            // Suffixes in any order and number.
            ("TRUEPREDICATE SORT(a ASC, b DESC)", "TRUEPREDICATE SORT(a ASC, b DESC)"),
            ("TRUEPREDICATE sort(a ascending, b descending)", "TRUEPREDICATE SORT(a ASC, b DESC)"),
            ("TRUEPREDICATE SORT(a)", "TRUEPREDICATE SORT(a ASC)"),
            ("a > 1 LIMIT(5) DISTINCT(a, b.c) SORT(a DESC) LIMIT(0x2)", "a > 1 LIMIT(5) DISTINCT(a, b.c) SORT(a DESC) LIMIT(2)"),
            ("a > 1 distinct(a) distinct(b)", "a > 1 DISTINCT(a) DISTINCT(b)"),
        ]
        for (input, expected) in table {
            guard let query = parse(input) else { continue }
            XCTAssertEqual(query.description, expected, input)
            XCTAssertEqual(parse(query.description), query, "round trip of \(input)")
        }
    }

    func testPrecedenceTrees() {
        let a1 = cmp(path("a"), .equal, int(1)), b2 = cmp(path("b"), .equal, int(2)), c3 = cmp(path("c"), .equal, int(3))
        XCTAssertEqual(parse("a == 1 OR b == 2 AND c == 3")?.predicate,
                       QueryPredicate(.or([a1, QueryPredicate(.and([b2, c3]))])))
        XCTAssertEqual(parse("a == 1 AND b == 2 OR c == 3")?.predicate,
                       QueryPredicate(.or([QueryPredicate(.and([a1, b2])), c3])))
        XCTAssertEqual(parse("NOT a == 1 AND b == 2")?.predicate, QueryPredicate(.and([QueryPredicate(.not(a1)), b2])))
        // A chain is one list; parentheses keep a sub-chain apart.
        XCTAssertEqual(parse("a == 1 AND b == 2 AND c == 3")?.predicate, QueryPredicate(.and([a1, b2, c3])))
        XCTAssertEqual(parse("(a == 1 AND b == 2) AND c == 3")?.predicate, QueryPredicate(.and([a1, b2, c3])))
        XCTAssertEqual(parse("a == 1 AND (b == 2 AND c == 3)")?.predicate,
                       QueryPredicate(.and([a1, QueryPredicate(.and([b2, c3]))])))
        XCTAssertEqual(parse("a == 1 AND (b == 2 AND c == 3)")?.description, "a == 1 AND (b == 2 AND c == 3)")
        let abc = QueryExpression(.arithmetic(.add, path("a"), QueryExpression(.arithmetic(.multiply, path("b"), path("c")))))
        XCTAssertEqual(parse("a + b * c > 1")?.predicate, cmp(abc, .greater, int(1)))
        let minus = QueryExpression(.arithmetic(.subtract, QueryExpression(.arithmetic(.subtract, path("a"), path("b"))), path("c")))
        XCTAssertEqual(parse("a - b - c > 1")?.predicate, cmp(minus, .greater, int(1)))
        XCTAssertEqual(parse("-a * 2 > 1")?.predicate,
                       cmp(QueryExpression(.arithmetic(.multiply, QueryExpression(.negate(path("a"))), int(2))), .greater, int(1)))
        XCTAssertEqual(parse("a == -5")?.predicate, cmp(path("a"), .equal, int(-5)))
        XCTAssertEqual(parse("a == -(5)")?.predicate, cmp(path("a"), .equal, QueryExpression(.negate(int(5)))))
        XCTAssertEqual(parse("name ==[cd] 'x'")?.predicate,
                       cmp(path("name"), .equal, QueryExpression(.literal(.string("x"))),
                           QueryStringOptions(caseInsensitive: true, diacriticInsensitive: true)))
        let between = QueryBetween(path("a"), lower: int(1), upper: QueryExpression(.argument(0)))
        XCTAssertEqual(parse("a BETWEEN {1, $0}")?.predicate, QueryPredicate(.between(between)))
        XCTAssertEqual(parse("a IN {1, 2}")?.predicate, cmp(path("a"), .in, QueryExpression(.list([int(1), int(2)]))))
        XCTAssertEqual(parse("TRUEPREDICATE SORT(a DESC) LIMIT(3)")?.suffixes,
                       [QuerySuffix(.sort([QuerySortKey(QueryKeyPath("a"), ascending: false)])), QuerySuffix(.limit(3))])
    }

    func testLiteralValues() throws {
        func rhs(_ q: String) -> QueryLiteral? {
            guard case let .comparison(c)? = parse("a == " + q)?.predicate.kind, case let .literal(l) = c.rhs.kind else { return nil }
            return l
        }
        XCTAssertEqual(rhs("9223372036854775807"), .int(.max))
        XCTAssertEqual(rhs("-9223372036854775808"), .int(.min))
        XCTAssertEqual(rhs("-0x8000000000000000"), .int(.min))
        guard case let .double(v, text)? = rhs("-2.5e1") else { return XCTFail() }
        XCTAssertEqual(v, -25)
        XCTAssertEqual(text, "-2.5e1")
        guard case let .double(n, _)? = rhs("nan") else { return XCTFail() }
        XCTAssertTrue(n.isNaN)
        XCTAssertEqual(rhs("T1:2"), .timestamp(Timestamp(seconds: 1, nanoseconds: 2)))
        XCTAssertEqual(rhs("B64\"aGk=\""), .binary(Array("hi".utf8)))
        XCTAssertEqual(rhs("decimal128(-1.5E+3)"), .decimal128("-1.5E+3"))
        XCTAssertEqual(rhs("'\\u00e9'"), .string("é"))
    }

    // MARK: - Ranges

    func testNodeRangesAreByteOffsets() throws {
        let text = "(é + 1) * 2 > $0 AND NOT name BEGINSWITH[c] 'ü' SORT(é DESC) LIMIT(2)"
        let query = try QueryParser.parse(text)
        let bytes = Array(text.utf8)
        func slice(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
        XCTAssertEqual(query.range, 0..<bytes.count)
        guard case let .and(operands) = query.predicate.kind, operands.count == 2,
              case let lhs = operands[0], case let rhs = operands[1], case let .comparison(c) = lhs.kind,
              case let .not(inner) = rhs.kind, case let .comparison(s) = inner.kind,
              case let .arithmetic(_, sum, two) = c.lhs.kind else { return XCTFail("shape") }
        XCTAssertEqual(slice(query.predicate.range), "(é + 1) * 2 > $0 AND NOT name BEGINSWITH[c] 'ü'")
        XCTAssertEqual(slice(lhs.range), "(é + 1) * 2 > $0")
        XCTAssertEqual(slice(c.lhs.range), "(é + 1) * 2")
        XCTAssertEqual(slice(sum.range), "é + 1")
        XCTAssertEqual(slice(two.range), "2")
        XCTAssertEqual(slice(c.rhs.range), "$0")
        XCTAssertEqual(slice(rhs.range), "NOT name BEGINSWITH[c] 'ü'")
        XCTAssertEqual(slice(s.lhs.range), "name")
        XCTAssertEqual(slice(s.rhs.range), "'ü'")
        XCTAssertEqual(query.suffixes.map { slice($0.range) }, ["SORT(é DESC)", "LIMIT(2)"])
        guard case let .sort(keys) = query.suffixes[0].kind else { return XCTFail() }
        XCTAssertEqual(slice(keys[0].range), "é DESC")
        XCTAssertEqual(slice(keys[0].keyPath.range), "é")

        let path = try QueryParser.parse("a.b.@count == - 1")
        guard case let .comparison(p) = path.predicate.kind, case let .keyPath(kp) = p.lhs.kind else { return XCTFail() }
        XCTAssertEqual(kp.components.map(\.range), [0..<1, 2..<3, 4..<10])
        XCTAssertEqual(p.rhs.range, 14..<17)
    }

    // MARK: - Round trip over a corpus

    static let corpus = [
        "name == 'Alice'", "age > 30", "age >= 18 AND age < 65", "name BEGINSWITH[c] 'a' OR name ENDSWITH[d] 'z'",
        "NOT (age == 1 OR age == 2)", "!(a == 1) && b != 2 || c <> 3", "score * 2 + bonus > total / 3",
        "(score + 1) * (bonus - 2) <= 10", "-score < -(bonus)", "a - -b == 0", "a == --5",
        "name CONTAINS[cd] 'école'", "name LIKE 'J?hn*'", "name ==[c] $0", "name IN {'a', 'b', \"c\"}",
        "age IN $0", "age IN {}", "age BETWEEN {18, 65}", "age BETWEEN {$0, $1}", "ANY tags.name == 'x'",
        "ALL scores > 0", "NONE scores < 0", "SOME scores == 3", "dogs.@count > 2", "dogs.@sum.age < 100",
        "@links.Person.dogs.@count == 0", "dict.@keys == 'k'", "created > 2024-03-01@12:00:00",
        "created < 2024-03-01@12:00:00:123456789", "created == T1700000000:0", "created == T-1:-5",
        "id == oid(507f1f77bcf86cd799439011)", "u == uuid(123e4567-e89b-12d3-a456-426614174000)",
        "data == B64\"aGVsbG8=\"", "price == decimal128(1.23E-4)", "price > 1.50", "ratio == 1e-3",
        "ratio != inf", "ratio != -inf", "ratio == nan", "flag == true", "flag != FALSE", "opt == nil", "opt != null",
        "x == 0x7FFFFFFFFFFFFFFF", "x == -9223372036854775808", "s == 'tab\\there'", "s == \"quote\\\"d\"",
        "s == 'nul\\0'", "s == '\\uD83D\\uDE00'", "TRUEPREDICATE", "FALSEPREDICATE",
        "TRUEPREDICATE SORT(age DESC, name ASC) LIMIT(10)", "age > 3 DISTINCT(name) SORT(age ASC)",
        "age > 3 LIMIT(5) LIMIT(2)", "a == 1 AND (b == 2 OR c == 3) AND NOT d == 4",
        "(((a == 1)))", "((a + 1)) * 2 > 3", "a == 1 OR b == 2 OR c == 3", "a == 1 OR (b == 2 OR c == 3)",
        "sort == 1 AND limit == 2 SORT(sort ASC)", "é.ü == 'ß'",
    ]

    func testCorpusRoundTripsThroughDescription() throws {
        XCTAssertGreaterThanOrEqual(Self.corpus.count, 60)
        for text in Self.corpus {
            guard let query = parse(text) else { continue }
            let printed = query.description
            guard let reparsed = parse(printed) else { continue }
            XCTAssertEqual(reparsed, query, "\(text) -> \(printed)")
            XCTAssertEqual(reparsed.description, printed, text)
        }
    }
}
