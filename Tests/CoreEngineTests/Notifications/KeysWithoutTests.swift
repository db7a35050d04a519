import XCTest
@testable import CoreEngine

/// `KeysWithout` and `positions(of:)` against the plain array operations they replace.
final class KeysWithoutTests: XCTestCase {
    func testReadsAndAppendsLikeTheFilteredArray() {
        var generator = SeededGenerator(seed: 7)
        for round in 0..<500 {
            let count = Int.random(in: 0...60, using: &generator)
            let old = (0..<count).map { _ in Int64.random(in: -1000...1000, using: &generator) }
            let removed = (0..<count).filter { _ in Int.random(in: 0...3, using: &generator) == 0 || round % 7 == 0 }
            let expected = old.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            let kept = KeysWithout(old, removing: removed)
            XCTAssertEqual(kept.count, expected.count)
            XCTAssertEqual((0..<kept.count).map { kept[$0] }, expected, "round \(round)")
            // Any split into consecutive ranges appends the same keys.
            var out: [Int64] = []
            var start = 0
            while start < kept.count {
                let end = min(kept.count, start + Int.random(in: 0...7, using: &generator))
                kept.append(start..<end, to: &out)
                start = end
            }
            XCTAssertEqual(out, expected, "round \(round)")
        }
    }

    func testReplacingInPlaceGivesTheMergedArray() {
        var generator = SeededGenerator(seed: 13)
        for round in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &generator)
            var keys = (0..<count).map { Int64($0) }
            let removed = (0..<count).filter { _ in Int.random(in: 0...(round % 3 == 0 ? 1 : 12), using: &generator) == 0 }
            let keptCount = count - removed.count
            let inserted = (0..<Int.random(in: 0...4, using: &generator)).map { Int64(1_000 + $0) }
            let keptBefore = inserted.map { _ in Int.random(in: 0...keptCount, using: &generator) }.sorted()
            // The plain merge: kept elements, each inserted one after keptBefore of them.
            let kept = keys.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            var expected: [Int64] = []
            var next = 0
            for (p, key) in inserted.enumerated() {
                expected += kept[next..<keptBefore[p]]
                expected.append(key)
                next = keptBefore[p]
            }
            expected += kept[next...]
            keys.replace(removing: removed, inserting: inserted, keptBefore: keptBefore)
            XCTAssertEqual(keys, expected, "round \(round): removing \(removed), inserting at \(keptBefore)")
        }
    }

    func testPositionsFindEveryOccurrence() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let old = (0..<Int.random(in: 0...300, using: &generator)).map { _ in Int64.random(in: -50...50, using: &generator) }
            let wanted = Set((0..<Int.random(in: 0...10, using: &generator)).map { _ in Int64.random(in: -60...60, using: &generator) })
            let expected = old.enumerated().filter { wanted.contains($0.element) }.map { [$0.offset, Int($0.element)] }
            XCTAssertEqual(old.positions(of: wanted).map { [$0.index, Int($0.key)] }, expected)
        }
        let extremes: [Int64] = [.min, .max, 0, -1, .max, .min]
        XCTAssertEqual(extremes.positions(of: [.max, .min]).map(\.index), [0, 1, 4, 5])
    }
}
