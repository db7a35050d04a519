import XCTest
@testable import CoreEngine

/// `sortedObjectKeys()` must agree with `sorted()` on every input: the radix path (64 keys and
/// more), the generic fallback (few keys, negative keys) and input that is already sorted.
final class ObjectKeySortTests: XCTestCase {
    private func check(_ keys: [Int64], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(keys.sortedObjectKeys(), keys.sorted(), file: file, line: line)
    }

    func testEmptyAndSingle() {
        check([])
        check([42])
    }

    func testRandomKeysOfEveryWidth() {
        var generator = SeededGenerator(seed: 15)
        for bits in [1, 5, 11, 12, 22, 23, 40, 62, 63] {
            for count in [3, 63, 64, 65, 1000, 5000] {
                let limit = bits == 63 ? Int64.max : (Int64(1) << bits) - 1
                check((0..<count).map { _ in Int64.random(in: 0...limit, using: &generator) })
            }
        }
    }

    func testRepeatedKeysStayRepeated() {
        var generator = SeededGenerator(seed: 16)
        check((0..<3000).map { _ in Int64.random(in: 0...9, using: &generator) })
    }

    func testNegativeKeysFallBackToTheGenericSort() {
        var generator = SeededGenerator(seed: 17)
        check((0..<500).map { _ in Int64.random(in: -1000...1000, using: &generator) })
        check([Int64.min, Int64.max, 0, -1] + (0..<100).map { Int64($0) }.reversed())
    }

    func testFewAscendingRunsAsAnIndexScanReturnsThem() {
        var generator = SeededGenerator(seed: 18)
        let runs = (0..<11).map { _ in (0..<200).map { _ in Int64.random(in: 0...1_000_000, using: &generator) }.sorted() }
        check(runs.flatMap { $0 })
    }

    func testSortedAndReversedInput() {
        let ascending = (0..<2000).map { Int64($0) * 7 }
        check(ascending)
        check(ascending.reversed())
    }
}
