import XCTest
@testable import CoreEngine

/// `ModifiedKeys` against the set it stands for, over random inserts and removals in and out of
/// order.
final class ModifiedKeysTests: XCTestCase {
    func testBehavesAsASetAndListsItsKeysInOrder() {
        var generator = SeededGenerator(seed: 21)
        for round in 0..<500 {
            var keys = ModifiedKeys(), model = Set<Int64>()
            var next: Int64 = 0
            for _ in 0..<Int.random(in: 0...80, using: &generator) {
                let key: Int64
                switch Int.random(in: 0..<4, using: &generator) {
                case 0, 1:  // the common case: ascending, sometimes again
                    next += Int64.random(in: 0...2, using: &generator)
                    key = next
                default:
                    key = Int64.random(in: -5...(next + 5), using: &generator)
                }
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    XCTAssertEqual(keys.remove(key), model.remove(key) != nil, "round \(round): remove \(key)")
                } else {
                    XCTAssertEqual(keys.insert(key), model.insert(key).inserted, "round \(round): insert \(key)")
                }
                XCTAssertEqual(keys.isEmpty, model.isEmpty, "round \(round)")
            }
            XCTAssertEqual(keys.sorted(), model.sorted(), "round \(round)")
        }
    }

    func testAscendingKeysAreKeptInTheirOrder() {
        var keys = ModifiedKeys()
        for key in stride(from: Int64(0), to: 100_000, by: 3) { XCTAssertTrue(keys.insert(key)) }
        XCTAssertFalse(keys.insert(99_999))
        XCTAssertTrue(keys.remove(3))
        XCTAssertTrue(keys.insert(4))
        XCTAssertEqual(keys.sorted().prefix(4), [0, 4, 6, 9])
        XCTAssertEqual(keys.sorted().count, 33_334)
    }
}
