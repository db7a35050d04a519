import XCTest
@testable import CoreEngine

final class CommitRecordTests: XCTestCase {
    func testEncodingRoundTripsRunsAndGaps() throws {
        var changes = CommitRecord.TableChanges()
        changes.insertions = Array(100..<2000)
        changes.deletions = [0, 2, 4, 5, 6, 1_000_000]
        changes.modifications = [7: [1, 3], 9: Array(stride(from: 10, to: 500, by: 2))]
        let set = CommitRecord(version: 42, tables: [3: changes], schemaChanged: true)
        XCTAssertEqual(try CommitRecord.decode(set.encoded()), set)
        XCTAssertLessThan(set.encoded().count, 1200, "runs compress: 1900 consecutive insertions take a few bytes")
    }

    func testRecorderReportsOnlyNetChanges() {
        var recorder = CommitRecorder()
        recorder.noteTableLoaded(1, nextKey: 10)
        recorder.recordInsertion(table: 1, key: 10)
        recorder.recordInsertion(table: 1, key: 11)
        recorder.recordModification(table: 1, column: 5, key: 10)  // new object: an insertion, not a modification
        recorder.recordDeletion(table: 1, key: 11)                   // created and deleted: reported nowhere
        recorder.recordModification(table: 1, column: 5, key: 3)
        recorder.recordModification(table: 1, column: 6, key: 4)
        recorder.recordDeletion(table: 1, key: 4)                    // deleted: no longer modified
        let set = recorder.commitRecord(version: 1)
        XCTAssertEqual(set.tables[1]?.insertions, [10])
        XCTAssertEqual(set.tables[1]?.deletions, [4])
        XCTAssertEqual(set.tables[1]?.modifications, [5: [3]])
    }

    func testCorruptRecordThrows() {
        XCTAssertThrowsError(try CommitRecord.decode([1, 0, 0]))
        XCTAssertThrowsError(try CommitRecord.decode([7]))
    }
}
