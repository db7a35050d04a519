import CChecksum
import CLMDB
import XCTest
@testable import CoreEngine

/// Record seals (Storage/RecordSealing, LMDBTransaction): every record is written with a checksum
/// and checked when read, so damage is an error naming the record instead of a different value.
/// The damage here is written behind the engine's back, through the unsealed LMDB path.
final class RecordSealingTests: PeopleTestCase {
    override class var people: [Row] { (0..<40 as Range<Int64>).map { ($0, "name \($0)", $0, Double($0), nil) } }

    private func column(_ name: String) -> ColumnSpec { person.property(named: name)!.column }

    /// Replaces the stored bytes of one record (seal included) with `change` applied, unsealed.
    private func tamper(_ dbi: (LMDBEnvironment) -> MDB_dbi, key: [UInt8], _ change: (inout [UInt8]) -> Void) throws {
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        let db = dbi(write.environment)
        var record = Array(try XCTUnwrap(write.lmdb.getRecord(db, key)))
        change(&record)
        write.lmdb.sealsRecords = false
        try write.lmdb.put(db, key, record)
        write.lmdb.sealsRecords = true
        try realm.commitWrite()
    }

    private func blockKey(_ column: ColumnSpec) -> [UInt8] {
        StorageKeys.block(BlockKey(table: person.tableID, column: column.id, cluster: 0))
    }

    private func assertDamaged(_ expected: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? DBError)?.code, .fileFormat, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(expected), "\(error)", file: file, line: line)
        }
    }

    func testAFlippedBitInANumberIsAnErrorInReadsScansAndCheck() throws {
        // The block's payload: header (8 bytes), then 8-byte doubles; flip a bit of object 5's score.
        try tamper({ $0.blocksDB }, key: blockKey(column("score"))) { $0[8 + 5 * 8 + 2] ^= 0x10 }
        let damaged = "the block of 'Person.score' for objects 0-1023 does not match its checksum"
        let object = try realm.object(person, key: 5)
        assertDamaged(damaged) { _ = try object.value(of: self.person.property(named: "score")!) }
        let scoreAbove = try QueryCompiler(classInfo: person).compile("score > 3").predicate
        assertDamaged(damaged) { _ = try self.realm.objects(self.person).filter(scoreAbove).count() }
        assertDamaged(damaged) { _ = try self.realm.check() }
        // Other columns of the same objects still read.
        XCTAssertEqual(try object.value(of: person.property(named: "name")!), .string("name 5"))
    }

    func testADamagedPresenceBlockIsNamed() throws {
        try tamper({ $0.blocksDB }, key: StorageKeys.block(BlockKey(table: person.tableID, column: StorageKeys.presenceColumn, cluster: 0))) { $0[8] ^= 0x01 }
        assertDamaged("the list of live objects 0-1023 of 'Person' does not match its checksum") {
            _ = try self.realm.objectKeys(self.person)
        }
        assertDamaged("the list of live objects 0-1023 of 'Person'") { _ = try self.realm.object(self.person, key: 3) }
    }

    /// Flips a bit of the object key that the entry of `Person.id == id` holds (a DUPSORT
    /// value, so it is replaced by deleting and putting, unsealed).
    private func damageIndexEntry(id: Int64, byte: Int) throws {
        var key = StorageKeys.blockPrefix(table: person.tableID, column: column("id").id)
        _ = IndexKeyEncoding.encode(.int(id), into: &key)
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        var stored = Array(try XCTUnwrap(write.lmdb.getRecord(write.environment.indexDB, key)))
        try write.lmdb.delete(write.environment.indexDB, key)
        stored[byte] ^= 0x01
        write.lmdb.sealsRecords = false
        try write.lmdb.put(write.environment.indexDB, key, stored)
        write.lmdb.sealsRecords = true
        try realm.commitWrite()
    }

    func testADamagedIndexEntryIsAnErrorNotAnotherObject() throws {
        // The primary key's entry for id 9: its object key would otherwise find another object.
        try damageIndexEntry(id: 9, byte: 4)
        assertDamaged("an index entry of 'Person.id' does not match its checksum") {
            _ = try self.realm.object(self.person, primaryKey: .int(9))
        }
        XCTAssertEqual(try realm.object(person, primaryKey: .int(10))?.key, 10, "other entries still read")
        assertDamaged("an index entry of 'Person.id'") { _ = try self.realm.check() }
    }

    /// A sort with a limit reads the index in order (IndexedSort, IndexEntryCursor): a damaged
    /// entry on its way is an error naming the index, in either direction; one it does not reach
    /// does not stop it.
    func testAnOrderedIndexReadStopsAtADamagedEntry() throws {
        try damageIndexEntry(id: 3, byte: 6)
        let id = person.property(named: "id")!
        func top(_ ascending: Bool, _ limit: Int) throws -> [Int64] {
            try realm.objects(person).sorted(by: [SortDescriptor(id, ascending: ascending)]).limit(limit).keys()
        }
        assertDamaged("an index entry of 'Person.id' does not match its checksum") { _ = try top(true, 10) }
        assertDamaged("an index entry of 'Person.id'") { _ = try top(false, 39) }
        XCTAssertEqual(try top(true, 3), [0, 1, 2], "the entries before it are read")
        XCTAssertEqual(try top(false, 5), [39, 38, 37, 36, 35])
    }

    func testDamagedCountersAndChangeRecordsAreNamed() throws {
        try tamper({ $0.metaDB }, key: StorageKeys.tableCounters(person.tableID)) { $0[8] ^= 0x04 }
        assertDamaged("the object counters of 'Person' does not match its checksum") { _ = try self.realm.objectCount(self.person) }
        let realm2 = try open()
        defer { realm2.close() }
        assertDamaged("the object counters of 'Person'") { _ = try realm2.check() }
    }

    func testTheMemoryOfVerifiedRecordsNeverVouchesForOtherBytes() {
        // A large sealed record, verified once (and remembered), then a damaged copy elsewhere.
        let key: [UInt8] = [1, 2, 3, 4]
        var record = [UInt8](repeating: 7, count: 4096 + Int(REALMDB_SEAL_SIZE))
        record.withUnsafeMutableBytes { realmdb_seal_record(key, key.count, $0.baseAddress, 4096) }
        record.withUnsafeBytes { bytes in
            XCTAssertEqual(realmdb_sealed_record_is_intact(key, key.count, bytes.baseAddress, bytes.count, 1), 1)
            XCTAssertEqual(realmdb_sealed_record_is_intact(key, key.count, bytes.baseAddress, bytes.count, 1), 1)
        }
        var copy = record
        copy[100] ^= 1
        copy.withUnsafeBytes { bytes in
            XCTAssertEqual(realmdb_sealed_record_is_intact(key, key.count, bytes.baseAddress, bytes.count, 1), 0)
        }
        record.withUnsafeBytes { bytes in
            XCTAssertEqual(realmdb_sealed_record_is_intact([1, 2, 3, 5], 4, bytes.baseAddress, bytes.count, 1), 0,
                           "the key is part of the seal")
        }
        // Known CRC32C values (RFC 3720's test vector: 32 zero bytes).
        XCTAssertEqual(realmdb_crc32c(0, [UInt8](repeating: 0, count: 32), 32), 0x8A91_36AA)
        XCTAssertEqual(realmdb_crc32c(0, Array("123456789".utf8), 9), 0xE306_9283)
    }

    /// A sealed block of another layout than its column's type writes (here: the int block of
    /// `score`'s neighbour `id` stored as `name`'s) reads as defaults; check() names it.
    func testCheckReportsABlockWhoseLayoutDoesNotFitItsColumn() throws {
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        let ids = Array(try XCTUnwrap(write.lmdb.get(write.environment.blocksDB, blockKey(column("id")))))
        try write.lmdb.put(write.environment.blocksDB, blockKey(column("name")), ids)
        try realm.commitWrite()
        // Reads see the type's default (reading the ints' bytes as text offsets trapped).
        let name = person.property(named: "name")!
        XCTAssertEqual(try realm.object(person, primaryKey: .int(5))?.value(of: name), .string(""))
        XCTAssertEqual(try realm.objects(person).filter(.compare(.property(name), .equal, .constant(.string("")), [])).count(), 40)
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertEqual((error as? DBError)?.code, .fileFormat)
            XCTAssertTrue("\(error)".contains("a block of 'Person.name' whose layout"), "\(error)")
        }
    }

    // MARK: Format 1

    /// Rewrites the file as format 1 wrote it: the same records without seals.
    private func rewriteAsFormat1() throws {
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        let env = write.environment
        for dbi in [env.metaDB, env.blocksDB, env.changesDB, env.indexDB] {
            var records: [([UInt8], [UInt8])] = []
            try write.lmdb.scan(dbi, prefix: []) { key, value in records.append((Array(key), Array(value))); return true }
            try write.lmdb.deletePrefix(dbi, prefix: [])
            write.lmdb.sealsRecords = false
            for (key, value) in records { try write.lmdb.put(dbi, key, value) }
            write.lmdb.sealsRecords = true
        }
        write.lmdb.sealsRecords = false
        try write.lmdb.put(env.metaDB, StorageKeys.formatKey, StorageTransaction.formatRecord(1))
        try realm.commitWrite()
        realm.close()
    }

    private func formatRecord(_ realm: Realm) throws -> [UInt8] {
        let snapshot = try StorageTransaction(environment: try realm.requireOpen(), write: false)
        return Array(try XCTUnwrap(snapshot.lmdb.getRecord(snapshot.environment.metaDB, StorageKeys.formatKey)))
    }

    func testAFormat1FileReadsAsBeforeAndTheFirstWriteSealsEveryRecord() throws {
        try rewriteAsFormat1()
        let old = try open()
        XCTAssertEqual(try formatRecord(old), StorageTransaction.formatRecord(1))
        XCTAssertEqual(try old.fileFormat(), 1)
        XCTAssertEqual(try old.objectCount(person), 40)
        XCTAssertEqual(try old.object(person, primaryKey: .int(33))?.value(of: person.property(named: "name")!), .string("name 33"))
        XCTAssertEqual(try old.check().objects, 40)

        try old.beginWrite()
        try createPerson(old, id: 100, name: "new")
        try old.commitWrite()
        XCTAssertEqual(Array(try formatRecord(old).prefix(12)), StorageTransaction.formatMagic)
        XCTAssertEqual(try old.fileFormat(), 3)
        XCTAssertEqual(try old.objectCount(person), 41)
        XCTAssertEqual(try old.object(person, primaryKey: .int(33))?.key, 33)
        let report = try old.check()
        XCTAssertEqual(report.objects, 41)
        XCTAssertEqual(report.indexEntries, 41 * 3, "id, age and city indexes, every entry sealed")
        old.close()
    }

    /// Format 2 lacks only packed int blocks: it reads as it is, and its first write marks it
    /// format 3 (a write that is cancelled leaves it format 2).
    func testAFormat2FileIsMarkedFormat3ByItsFirstWrite() throws {
        for id in 100..<400 { try realm.write { try createPerson(realm, id: Int64(id), age: Int64(id % 90)) } }
        let adultCount = (0..<40).filter { $0 >= 18 }.count + (100..<400).filter { $0 % 90 >= 18 }.count
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        try write.lmdb.put(write.environment.metaDB, StorageKeys.formatKey, StorageTransaction.formatRecord(2))
        try realm.commitWrite()
        realm.close()
        let old = try open()
        XCTAssertEqual(try old.fileFormat(), 2)
        let adults = old.objects(person).filter(.compare(.property(person.property(named: "age")!), .greaterOrEqual, .constant(.int(18)), []))
        XCTAssertEqual(try adults.count(), adultCount)
        try old.beginWrite()
        try createPerson(old, id: 1000, age: 50)
        try old.cancelWrite()
        XCTAssertEqual(Array(try formatRecord(old).prefix(12)), StorageTransaction.formatRecord(2), "a cancelled write changes nothing")
        try old.write { try createPerson(old, id: 1000, age: 50) }
        XCTAssertEqual(Array(try formatRecord(old).prefix(12)), StorageTransaction.formatMagic)
        XCTAssertEqual(try old.fileFormat(), 3)
        XCTAssertEqual(try adults.count(), adultCount + 1)
        XCTAssertEqual(try old.check().objects, 341)
        old.close()
    }

    func testAFutureFormatIsRefusedByNumber() throws {
        try realm.beginWrite()
        let write = try realm.writeTransaction()
        try write.lmdb.put(write.environment.metaDB, StorageKeys.formatKey, StorageTransaction.formatRecord(9))
        try realm.commitWrite()
        realm.close()
        XCTAssertThrowsError(try open()) { error in
            XCTAssertTrue("\(error)".contains("realmdb file format 9; this library reads formats 1 to 3"), "\(error)")
        }
    }
}
