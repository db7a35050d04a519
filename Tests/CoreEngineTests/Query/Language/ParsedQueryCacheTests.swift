import Foundation
import XCTest
@testable import CoreEngine

/// The cache of parsed query trees: the same tree as a fresh parse, errors every time, and
/// bounded in entries and in text length, from several threads at once.
final class ParsedQueryCacheTests: XCTestCase {
    func testATextIsParsedOnceAndGivesTheSameTree() throws {
        let cache = ParsedQueryCache()
        var parses = 0
        func parse(_ text: String) throws -> Query {
            parses += 1
            return try QueryParser.parseUncached(text)
        }
        let text = "age BETWEEN {$0, $1} AND city == $2 SORT(name DESC) LIMIT(10)"
        let first = try cache.tree(of: text, parse)
        let second = try cache.tree(of: text, parse)
        XCTAssertEqual(parses, 1)
        XCTAssertEqual(first, second)
        XCTAssertEqual(first, try QueryParser.parseUncached(text))
        XCTAssertEqual(cache.count, 1)
    }

    func testFailuresAreNotKeptAndThrowEachTime() {
        let cache = ParsedQueryCache()
        for _ in 0..<3 {
            XCTAssertThrowsError(try cache.tree(of: "age >", QueryParser.parseUncached)) { error in
                XCTAssertEqual((error as? DBError)?.code, .query)
                XCTAssertEqual((error as? DBError)?.offset, 5)
            }
        }
        XCTAssertEqual(cache.count, 0)
    }

    func testLongTextsAreNotKeptAndEntriesAreBounded() throws {
        let cache = ParsedQueryCache()
        let long = "id IN {" + (0..<1000).map(String.init).joined(separator: ", ") + "}"
        XCTAssertGreaterThan(long.utf8.count, ParsedQueryCache.maxTextLength)
        XCTAssertEqual(try cache.tree(of: long, QueryParser.parseUncached), try QueryParser.parseUncached(long))
        XCTAssertEqual(cache.count, 0)
        for n in 0..<(ParsedQueryCache.capacity * 3) {
            let text = "age > \(n)"
            XCTAssertEqual(try cache.tree(of: text, QueryParser.parseUncached), try QueryParser.parseUncached(text))
            XCTAssertLessThanOrEqual(cache.count, ParsedQueryCache.capacity)
        }
        var parsed = false
        _ = try cache.tree(of: "age > \(ParsedQueryCache.capacity * 3 - 1)") { parsed = true; return try QueryParser.parseUncached($0) }
        XCTAssertFalse(parsed, "the newest text is kept")
    }

    func testThreadsShareTheCache() throws {
        let cache = ParsedQueryCache()
        let texts = (0..<40).map { "name BEGINSWITH[c] 'n\($0)' OR age < \($0 % 7)" }
        let expected = try texts.map(QueryParser.parseUncached)
        let failures = NSLock()
        var wrong = 0
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<200 {
                let index = (thread * 13 + round) % texts.count
                if (try? cache.tree(of: texts[index], QueryParser.parseUncached)) != expected[index] {
                    failures.withLock { wrong += 1 }
                }
            }
        }
        XCTAssertEqual(wrong, 0)
        XCTAssertEqual(cache.count, texts.count)
    }
}
