import XCTest
@testable import CoreEngine

/// `CoalescedChanges` (Notifications/CoalescedChanges): consecutive commit records read as one
/// change, from records built by hand and from the records real commits leave in the file.
final class CoalescedChangesTests: RealmTestCase {
    private typealias Changes = CommitRecord.TableChanges

    private func record(_ version: UInt64, table: UInt32 = 1, _ changes: Changes) -> CommitRecord {
        CommitRecord(version: version, tables: [table: changes])
    }

    func testAnObjectInsertedThenDeletedIsNeither() {
        var coalesced = CoalescedChanges()
        coalesced.add(record(1, Changes(insertions: [5, 6])))
        coalesced.add(record(2, Changes(deletions: [5], modifications: [9: [6]])))
        let table = coalesced.tables[1]!
        XCTAssertEqual(table.insertions, [6])
        XCTAssertEqual(table.deletions, [], "5 came and went")
        XCTAssertEqual(table.modified(in: nil), [], "a new object's later change is part of its insertion")
    }

    func testADeletedObjectIsNoLongerModified() {
        var coalesced = CoalescedChanges()
        coalesced.add(record(1, Changes(modifications: [3: [1, 2], 4: [2]])))
        coalesced.add(record(2, Changes(deletions: [2])))
        let table = coalesced.tables[1]!
        XCTAssertEqual(table.deletions, [2])
        XCTAssertEqual(table.modified(in: nil), [1])
        XCTAssertEqual(table.modified(in: [4]), [], "only column 3 still names a live object")
        XCTAssertEqual(table.modified(in: [3]), [1])
    }

    func testUnchangedAsksTheTablesAndTheWholeRange() {
        var coalesced = CoalescedChanges()
        XCTAssertTrue(coalesced.isUnchanged([1, 2]))
        coalesced.add(record(1, table: 2, Changes(insertions: [1])))
        XCTAssertTrue(coalesced.isUnchanged([1]))
        XCTAssertFalse(coalesced.isUnchanged([1, 2]))
        var schema = CoalescedChanges()
        schema.add(CommitRecord(version: 1, schemaChanged: true))
        XCTAssertFalse(schema.isUnchanged([1]), "a schema change may change anything")
    }

    func testRecordsOfRealCommitsCoalesceAcrossVersions() throws {
        let realm = try open()
        let person = try realm.classInfo(named: "Person")
        let start = try realm.currentTransaction().version
        try realm.beginWrite()
        let ann = try createPerson(realm, id: 1, name: "Ann")
        let bob = try createPerson(realm, id: 2, name: "Bob")
        try realm.commitWrite()
        try realm.beginWrite()
        try ann.setValue(.string("Anna"), for: person.property(named: "name")!)
        try bob.delete()
        try realm.commitWrite()
        let transaction = try realm.currentTransaction()
        let coalesced = try CoalescedChanges(transaction, from: start, to: transaction.version)
        XCTAssertTrue(coalesced.isComplete)
        let table = try XCTUnwrap(coalesced.tables[person.tableID])
        XCTAssertEqual(table.insertions, [ann.key], "Bob came and went; Ann's rename is part of her insertion")
        XCTAssertEqual(table.deletions, [])
        XCTAssertEqual(table.modified(in: nil), [])
        let later = try CoalescedChanges(transaction, from: transaction.version - 1, to: transaction.version)
        XCTAssertEqual(later.tables[person.tableID]?.modified(in: nil), [ann.key])
        XCTAssertEqual(later.tables[person.tableID]?.deletions, [bob.key])
        XCTAssertTrue(try CoalescedChanges(transaction, from: transaction.version, to: transaction.version).isUnchanged([person.tableID]))
    }
}
