import XCTest
@testable import CoreEngine


final class QueryParserRandomTests: XCTestCase {
    // MARK: - Random trees

    private struct TreeGenerator {
        var rng: SeededGenerator

        mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func keyPath() -> QueryKeyPath {
            var components = [QueryKeyPath.Component(pick(["a", "b", "name", "age", "école", "名前", "_x1", "limit", "sort", "desc", "T1"]))]
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                if chance(0.3) {
                    components.append(.init(pick(Array(queryAtComponents)), isAtComponent: true))
                } else {
                    components.append(.init(pick(["c", "dogs", "AND", "in", "true", "Ünïcode", "asc", "oid", "B64"])))
                }
            }
            return QueryKeyPath(components)
        }

        mutating func string() -> String {
            let pieces = ["a", "Z", " ", "'", "\"", "\\", "\n", "\t", "\r", "\0", "\u{1}", "\u{7F}", "é", "e\u{301}", "ß", "😀", "*", "?", "名"]
            return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pick(pieces) }.joined()
        }

        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }

        mutating func literal() -> QueryLiteral {
            switch Int.random(in: 0..<11, using: &rng) {
            case 0: return .null
            case 1: return .bool(chance(0.5))
            case 2: return .int(pick([0, 1, -1, .max, .min, Int64.random(in: .min ... .max, using: &rng)]))
            case 3:
                let value = pick([0.5, 1.0, -2.25, 1e-5, 6.02e23, -1e300, Double.random(in: -1e6...1e6, using: &rng)])
                return .double(value, text: "\(value)")
            case 4: return pick([.double(.infinity, text: "inf"), .double(-.infinity, text: "-inf"), .double(.nan, text: "nan")])
            case 5: return .string(string())
            case 6:
                let seconds = Int64.random(in: -100_000_000_000...100_000_000_000, using: &rng)
                let nanos = Int32.random(in: 0..<1_000_000_000, using: &rng)
                return .timestamp(Timestamp(seconds: seconds, nanoseconds: seconds < 0 ? -nanos : nanos))
            case 7: return ObjectID(bytes: bytes(12)).map { .objectID($0) } ?? .null
            case 8: return UUIDValue(bytes: bytes(16)).map { .uuid($0) } ?? .null
            case 9: return .binary(bytes(Int.random(in: 0...7, using: &rng)))
            default: return .decimal128(pick(["1.23E-4", "-5", "0.1", "inf", "-NaN", "1e6144", ".5", "5."]))
            }
        }

        mutating func expression(_ depth: Int) -> QueryExpression {
            let leaf = depth <= 0 || chance(0.4)
            switch leaf ? Int.random(in: 0..<3, using: &rng) : Int.random(in: 3..<5, using: &rng) {
            case 0: return QueryExpression(.keyPath(keyPath()))
            case 1: return QueryExpression(.literal(literal()))
            case 2: return QueryExpression(.argument(Int.random(in: 0...20, using: &rng)))
            case 3: return QueryExpression(.negate(expression(depth - 1)))
            default:
                return QueryExpression(.arithmetic(pick(QueryArithmeticOperator.allCases), expression(depth - 1), expression(depth - 1)))
            }
        }

        mutating func predicate(_ depth: Int) -> QueryPredicate {
            let leaf = depth <= 0 || chance(0.3)
            switch leaf ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 4..<7, using: &rng) {
            case 0: return QueryPredicate(chance(0.5) ? .truePredicate : .falsePredicate)
            case 1:
                let between = QueryBetween(expression(2), lower: expression(1), upper: expression(1), quantifier: quantifier())
                return QueryPredicate(.between(between))
            case 2, 3:
                let op = pick(QueryComparisonOperator.allCases)
                let options = op.acceptsStringOptions
                    ? QueryStringOptions(caseInsensitive: chance(0.5), diacriticInsensitive: chance(0.5)) : .none
                let rhs = op == .in && chance(0.7)
                    ? QueryExpression(.list((0..<Int.random(in: 0...3, using: &rng)).map { _ in expression(1) }))
                    : expression(2)
                return QueryPredicate(.comparison(QueryComparison(expression(2), op, rhs, options: options, quantifier: quantifier())))
            case 4: return QueryPredicate(.not(predicate(depth - 1)))
            // A chain's first operand joins it when it is a chain of the same operator, as the parser does.
            case 5: return QueryPredicate(.and(QueryParser.chainStart(predicate(depth - 1), or: false)
                                               + (1..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth - 1) }))
            default: return QueryPredicate(.or(QueryParser.chainStart(predicate(depth - 1), or: true)
                                               + (1..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(depth - 1) }))
            }
        }

        mutating func quantifier() -> QueryQuantifier? { chance(0.8) ? nil : pick([.any, .all, .none]) }

        mutating func query() -> Query {
            let suffixes: [QuerySuffix] = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    return QuerySuffix(.sort((0...Int.random(in: 0...2, using: &rng)).map { _ in QuerySortKey(keyPath(), ascending: chance(0.5)) }))
                case 1: return QuerySuffix(.distinct((0...Int.random(in: 0...2, using: &rng)).map { _ in keyPath() }))
                default: return QuerySuffix(.limit(pick([0, 1, 100, .max])))
                }
            }
            return Query(predicate: predicate(4), suffixes: suffixes)
        }
    }

    /// Random trees print to text that parses back to the same tree and prints the same.
    func testRandomTreesRoundTripThroughText() throws {
        var generator = TreeGenerator(rng: SeededGenerator(seed: 0x5EED_0003))
        for i in 0..<3000 {
            let query = generator.query()
            let text = query.description
            do {
                let parsed = try QueryParser.parse(text)
                XCTAssertEqual(parsed, query, "#\(i): \(text)\nreparsed: \(parsed)")
                XCTAssertEqual(parsed.description, text, "#\(i)")
                XCTAssertEqual(parsed.range, 0..<text.utf8.count)
            } catch {
                XCTFail("#\(i): \(text): \(error)")
            }
        }
    }

    // MARK: - No-crash fuzz

    private static let alphabet = [
        "a", "b.c", "x.@count", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "(", ")", "(", ")", "{", "}", "[c]", "[cd]",
        "[x]", "[", "]", ",", ".", "AND", "or", "NOT", "!", "&&", "||", "&", "|", "BEGINSWITH", "LIKE", "IN", "BETWEEN", "ANY", "all",
        "SORT", "DISTINCT", "LIMIT", "ASC", "DESC", "SUBQUERY", "TRUEPREDICATE", "$0", "$", "$99999999999", "1", "-", "+", "*", "/",
        "1.5", "1.", ".5", "1e", "1e999", "0x", "0x1F", "0xFFFFFFFFFFFFFFFFF", "9223372036854775808", "'str'", "'unterminated",
        "\"a\\", "'\\u'", "'\\uD800'", "'\\q'", "2024-03-01@12:00:00", "2024-02-30@00:00:00", "2024-03-01@", "T1:2", "T-1:5", "T1:",
        "oid(", "oid(507f1f77bcf86cd799439011)", "uuid(", "uuid(123e4567-e89b-12d3-a456-426614174000)", "B64\"", "B64\"AQ==\"",
        "decimal128(", "decimal128(1.5)", "@count", "@", "@foo", "é", "😀", "\u{301}", "true", "null", "nil", "inf", "nan", " ", "  ", "\n",
    ]

    private static let mutationBytes = Array("()'\"\\{}[],.$@-0x9eT:=<>!&| a".utf8) + [0x00, 0x80, 0xC3, 0xFF]

    /// Any input either parses or throws `DBError(.query)` with an offset inside the text; what
    /// parses also round-trips through its description.
    func testFuzzNeverTrapsAndReportsOffsetsInsideTheText() {
        var rng = SeededGenerator(seed: 0xF022_0003)
        let corpus = QueryParserTests.corpus
        var parsedCount = 0
        for i in 0..<20_000 {
            let text: String
            switch i % 4 {
            case 0, 1:
                let count = Int.random(in: 1...20, using: &rng)
                text = (0..<count).map { _ in Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &rng)] }
                    .joined(separator: Bool.random(using: &rng) ? " " : "")
            case 2:
                let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                text = String(decoding: bytes, as: UTF8.self)
            default:
                // A valid query with a few bytes inserted, deleted or replaced.
                var bytes = Array(corpus[Int.random(in: 0..<corpus.count, using: &rng)].utf8)
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let at = Int.random(in: 0...bytes.count, using: &rng)
                    let byte = Self.mutationBytes[Int.random(in: 0..<Self.mutationBytes.count, using: &rng)]
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes.insert(byte, at: at)
                    case 1: if at < bytes.count { bytes.remove(at: at) }
                    default: if at < bytes.count { bytes[at] = byte }
                    }
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            do {
                let query = try QueryParser.parse(text)
                parsedCount += 1
                XCTAssertEqual(try? QueryParser.parse(query.description), query, "#\(i): \(text) -> \(query)")
            } catch let error as DBError {
                XCTAssertEqual(error.code, .query, "#\(i): \(text)")
                guard let offset = error.offset else { XCTFail("#\(i): \(text): no offset"); continue }
                XCTAssertTrue((0...text.utf8.count).contains(offset), "#\(i): \(text): offset \(offset)")
                XCTAssertTrue(error.message.hasSuffix("at offset \(offset)"), "#\(i): \(error.message)")
            } catch {
                XCTFail("#\(i): \(text): \(error)")
            }
        }
        // The fuzz must exercise the success path too, not only errors.
        XCTAssertGreaterThan(parsedCount, 200)
    }
}
