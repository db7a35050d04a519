import XCTest
@testable import RealmDB

/// The set of objects a run of plain writes wrote answers as Swift's `Set` of the same objects.
final class WrittenObjectsTests: XCTestCase {
    private struct Object: Hashable {
        let table: UInt32
        let key: Int64
    }

    func testItHoldsWhatASetHoldsThroughGrowthAndClearing() {
        var written = WrittenObjects()
        var expected = Set<Object>()
        var generator = SystemRandomNumberGenerator()
        let extremes: [Int64] = [.min, -1, 0, 1, .max]
        for round in 0..<6 {
            // Runs of several sizes: clustered keys (as one cluster's objects), spread keys, the
            // extremes, in several tables including the last table id.
            let size = [0, 1, 63, 64, 5_000, 20_000][round]
            for index in 0..<size {
                let table: UInt32 = index % 7 == 0 ? .max : UInt32(index % 3)
                let key = index % 11 == 0 ? extremes[index % 5] : (index % 2 == 0 ? Int64(index) : Int64.random(in: .min ... .max, using: &generator))
                written.insert(table: table, key: key)
                expected.insert(Object(table: table, key: key))
            }
            XCTAssertEqual(written.count, expected.count, "round \(round)")
            for object in expected {
                XCTAssertTrue(written.contains(table: object.table, key: object.key))
            }
            for probe in 0..<2_000 {
                let object = Object(table: UInt32(probe % 4), key: Int64(probe) - 1_000)
                XCTAssertEqual(written.contains(table: object.table, key: object.key), expected.contains(object))
            }
            XCTAssertFalse(written.contains(table: 5, key: 0), "another table's key 0")
            written.removeAll()
            expected.removeAll()
            XCTAssertEqual(written.count, 0)
            XCTAssertFalse(written.contains(table: .max, key: .min))
            XCTAssertFalse(written.contains(table: 0, key: 0))
        }
    }

    func testInsertingAgainKeepsOneEntry() {
        var written = WrittenObjects()
        for _ in 0..<3 { for key in 0..<100 { written.insert(table: 1, key: Int64(key)) } }
        XCTAssertEqual(written.count, 100)
        XCTAssertTrue(written.contains(table: 1, key: 99))
        XCTAssertFalse(written.contains(table: 2, key: 99))
    }
}
