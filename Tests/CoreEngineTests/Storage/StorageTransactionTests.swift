import XCTest
@testable import CoreEngine

/// `StorageTransaction` driven directly (Storage/StorageTransaction*.swift), beneath objects and
/// queries: objects and slots, index entries, savepoints, and the commit record a commit returns.
final class StorageTransactionTests: RealmTestCase {
    private var realm: Realm!
    private var person: ClassInfo!
    private var table: UInt32 { person.tableID }
    private func column(_ name: String) -> ColumnSpec { person.property(named: name)!.column }

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open()
        person = try realm.classInfo(named: "Person")
    }

    func testObjectsAndSlotsWithoutTheLayersAbove() throws {
        try realm.beginWrite()
        let storage = try realm.writeTransaction()
        let first = try storage.createObject(table: table), second = try storage.createObject(table: table)
        XCTAssertEqual(second, first + 1, "keys are handed out in order")
        try storage.setValue(.int(41), table: table, column: column("age"), key: first, isNewObject: true)
        try storage.setValue(.string("x"), table: table, column: column("name"), key: second, isNewObject: true)
        XCTAssertEqual(try storage.value(table: table, column: column("age"), key: first), .int(41))
        XCTAssertEqual(try storage.value(table: table, column: column("age"), key: second), .null, "an optional slot never written")
        XCTAssertEqual(try storage.objectCount(table: table), 2)
        try storage.deleteObject(table: table, key: first)
        XCTAssertFalse(try storage.objectExists(table: table, key: first))
        XCTAssertEqual(try storage.objectCount(table: table), 1)
        let record = try realm.commitWrite()
        XCTAssertEqual(record.tables[table]?.insertions, [second], "the object created and deleted in one write is no insertion")
        XCTAssertEqual(try realm.currentTransaction().commitRecord(version: record.version), record, "the record is kept in the file")
    }

    /// A write remembers the stored blocks it read until it writes blocks back (a query inside
    /// the write does) or opens a savepoint; every read before and after reads the latest values.
    func testReadsInAWriteBeforeAndAfterItsBlocksChange() throws {
        try realm.write { for id in 0..<3000 as Range<Int64> { try createPerson(realm, id: id, age: id % 50) } }
        try realm.beginWrite()
        let storage = try realm.writeTransaction()
        let age = column("age")
        func ages(_ keys: [Int64]) throws -> [Value] { try keys.map { try storage.value(table: table, column: age, key: $0) } }
        XCTAssertEqual(try ages([0, 1500, 2999]), [.int(0), .int(0), .int(49)])
        XCTAssertFalse(storage.lmdb.blocksTouched, "reads and index lookups leave the blocks database alone")
        try storage.deleteObject(table: table, key: 10)
        try storage.setValue(.int(77), table: table, column: age, key: 1500)
        XCTAssertEqual(try ages([0, 1500, 2999]), [.int(0), .int(77), .int(49)])
        try storage.writeBackBlocks(table: table)  // what a query inside the write does
        XCTAssertTrue(storage.lmdb.blocksTouched)
        XCTAssertEqual(try ages([0, 1500, 2999]), [.int(0), .int(77), .int(49)])
        for key in stride(from: 0 as Int64, to: 3000, by: 7) where key != 10 {
            try storage.setValue(.int(key % 3), table: table, column: age, key: key)
        }
        try storage.writeBackBlocks(table: table)
        XCTAssertEqual(try ages([0, 7, 1500, 2999]), [.int(0), .int(1), .int(77), .int(2999 % 7 == 0 ? 2999 % 3 : 49)])
        XCTAssertFalse(try storage.objectExists(table: table, key: 10))
        try realm.commitWrite()
        XCTAssertEqual(try realm.check().objects, 2999)
    }

    /// A write of many objects writes its decoded blocks back before commit once they are many
    /// (`dirtyBlockLimit`, lowered here): memory stays bounded, every read sees the latest values,
    /// and a savepoint rolled back across early write-backs undoes them.
    func testALargeWriteWritesItsBlocksBackEarlyAndStaysCorrect() throws {
        try realm.beginWrite()
        let storage = try realm.writeTransaction()
        storage.dirtyBlockLimit = 6
        let age = column("age"), name = column("name")
        for id in 0..<3000 as Range<Int64> { try createPerson(realm, id: id, name: "p\(id)", age: id % 40) }
        XCTAssertTrue(storage.lmdb.blocksTouched, "blocks were written back before commit")
        XCTAssertLessThanOrEqual(storage.dirtyBlocks.count + storage.dirtyPresence.count, 6 + person.columns.count)
        try storage.beginSavepoint()
        for id in 3000..<6000 as Range<Int64> { try createPerson(realm, id: id, name: "p\(id)", age: id % 40) }
        for key in stride(from: 0 as Int64, to: 3000, by: 3) {
            try ObjectAccessor(realm: realm, classInfo: person, key: key).setValue(.int(99), for: person.property(named: "age")!)
        }
        try realm.objects(person).filter("id >= 1000 AND id < 2000").deleteAll()
        XCTAssertEqual(try storage.objectCount(table: table), 5000)
        try storage.rollbackSavepoint()
        XCTAssertEqual(try storage.objectCount(table: table), 3000, "the savepoint's creates, writes and deletes are undone")
        XCTAssertEqual(try storage.value(table: table, column: age, key: 3), .int(3))
        XCTAssertEqual(try storage.value(table: table, column: name, key: 1500), .string("p1500"))
        try realm.objects(person).filter("id < 500").deleteAll()
        let record = try realm.commitWrite()
        XCTAssertEqual(record.tables[table]?.insertions, Array(500..<3000), "the record is the write's, early write-backs aside")
        XCTAssertEqual(try realm.check().objects, 2500, "blocks and index entries agree")
        XCTAssertEqual(try realm.objects(person).filter("age == 7").count(), (500..<3000).filter { $0 % 40 == 7 }.count)
        XCTAssertEqual(try realm.objects(person).filter("name == 'p2999'").count(), 1)
    }

    /// Blocks of large values reach the byte limit before the block limit.
    func testLargeValuesAreWrittenBackByTheirSize() throws {
        try realm.beginWrite()
        let storage = try realm.writeTransaction()
        storage.dirtyByteLimit = 256 << 10
        let long = String(repeating: "x", count: 2000)
        for id in 0..<(StorageTransaction.dirtyBytesCheckInterval - 1) { try createPerson(realm, id: Int64(id), name: long) }
        XCTAssertFalse(storage.lmdb.blocksTouched, "the size is checked every \(StorageTransaction.dirtyBytesCheckInterval) calls")
        try createPerson(realm, id: 1_000_000, name: long)
        XCTAssertTrue(storage.lmdb.blocksTouched, "about 500 KiB of names went back to the file before commit")
        try realm.commitWrite()
        XCTAssertEqual(try realm.objects(person).filter("name == '\(long)'").count(), StorageTransaction.dirtyBytesCheckInterval)
    }

    func testIndexEntriesFollowEveryWrite() throws {
        try realm.beginWrite()
        for id in 0..<5 as Range<Int64> { try createPerson(realm, id: id, age: id % 2) }
        let storage = try realm.writeTransaction()
        let age = column("age")
        XCTAssertEqual(try storage.indexLookup(table: table, column: age, value: .int(1)).count, 2)
        XCTAssertEqual(try storage.indexCount(table: table, column: age.id, value: .int(0)), 3)
        let key = try storage.indexFirst(table: table, column: age, value: .int(1))!
        try storage.setValue(.int(7), table: table, column: age, key: key)
        XCTAssertEqual(try storage.indexLookup(table: table, column: age, value: .int(7)), [key])
        XCTAssertEqual(try storage.indexLookup(table: table, column: age, value: .int(1)).count, 1, "the old entry went")
        let range = try storage.indexRange(table: table, column: age.id, lower: .init(value: .int(1), inclusive: true),
                                           upper: .init(value: .int(7), inclusive: false))
        XCTAssertEqual(range?.count, 1, "1 <= age < 7")
        XCTAssertNil(try storage.indexRange(table: table, column: age.id, lower: nil, upper: nil, limit: 2), "over the limit")
        try realm.commitWrite()
        XCTAssertEqual(try realm.check().objects, 5, "the file's check agrees with the index")
    }

    func testSavepointsUndoSlotsIndexEntriesAndTheRecord() throws {
        try realm.beginWrite()
        try createPerson(realm, id: 1, age: 10)
        let storage = try realm.writeTransaction()
        try storage.beginSavepoint()
        XCTAssertEqual(storage.savepointDepth, 1)
        let key = try storage.indexFirst(table: table, column: column("age"), value: .int(10))!
        try storage.setValue(.int(11), table: table, column: column("age"), key: key)
        try createPerson(realm, id: 2, age: 12)
        try storage.rollbackSavepoint()
        XCTAssertEqual(storage.savepointDepth, 0)
        XCTAssertEqual(try storage.value(table: table, column: column("age"), key: key), .int(10))
        XCTAssertEqual(try storage.indexLookup(table: table, column: column("age"), value: .int(11)), [])
        XCTAssertEqual(try storage.objectCount(table: table), 1)
        XCTAssertThrowsError(try storage.rollbackSavepoint(), "no savepoint is open")
        let record = try realm.commitWrite()
        XCTAssertEqual(record.tables[table]?.insertions, [key])
        XCTAssertEqual(record.tables[table]?.modifications ?? [:], [:], "the rolled-back change left no trace")
    }
}
