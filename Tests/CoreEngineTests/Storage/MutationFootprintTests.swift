import XCTest
@testable import CoreEngine

/// The marks live results read to keep their keys across writes that cannot change them.
final class MutationFootprintTests: XCTestCase {
    func testColumnsTablesAndChangesAnywhere() {
        var footprint = MutationFootprint()
        XCTAssertTrue(footprint.isUnchanged(table: 1, columns: [1, 2], since: 0))
        footprint.wrote(table: 1, column: 3, at: 1)
        XCTAssertTrue(footprint.isUnchanged(table: 1, columns: [1, 2], since: 0), "another column")
        XCTAssertFalse(footprint.isUnchanged(table: 1, columns: [3], since: 0))
        XCTAssertTrue(footprint.isUnchanged(table: 1, columns: [3], since: 1), "not since the mark")
        XCTAssertTrue(footprint.isUnchanged(table: 2, columns: [3], since: 0), "the same column id of another table")
        // The column written last is kept aside; writing another moves it to the dictionary.
        footprint.wrote(table: 1, column: 3, at: 2)
        footprint.wrote(table: 1, column: 4, at: 3)
        footprint.wrote(table: 2, column: 4, at: 4)
        XCTAssertFalse(footprint.isUnchanged(table: 1, columns: [3], since: 1))
        XCTAssertTrue(footprint.isUnchanged(table: 1, columns: [3], since: 2))
        XCTAssertFalse(footprint.isUnchanged(table: 1, columns: [4], since: 2))
        XCTAssertFalse(footprint.isUnchanged(table: 2, columns: [4], since: 3))
        XCTAssertTrue(footprint.isUnchanged(table: 2, columns: [4], since: 4))
        // An object created: its table, whatever the columns (none here: a whole class).
        footprint.createdObject(table: 5, at: 5)
        XCTAssertFalse(footprint.isUnchanged(table: 5, columns: [], since: 4))
        XCTAssertTrue(footprint.isUnchanged(table: 6, columns: [], since: 4))
        footprint.createdObject(table: 7, at: 5)  // (the same count: marks compare by count only)
        XCTAssertFalse(footprint.isUnchanged(table: 5, columns: [], since: 4), "table 5 moved aside")
        XCTAssertFalse(footprint.isUnchanged(table: 7, columns: [], since: 4))
        XCTAssertTrue(footprint.isUnchanged(table: 5, columns: [], since: 5))
        // A change that may reach anywhere: every table.
        footprint.changedAnywhere(at: 6)
        XCTAssertFalse(footprint.isUnchanged(table: 6, columns: [], since: 5))
        XCTAssertTrue(footprint.isUnchanged(table: 6, columns: [], since: 6))
    }
}
