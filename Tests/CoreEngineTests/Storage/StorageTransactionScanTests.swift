import XCTest
@testable import CoreEngine

final class StorageTransactionScanTests: RealmTestCase {
    /// Sums a double column and counts live objects through the scan primitive.
    private func scanScores(_ realm: Realm) throws -> (sum: Double, count: Int, keys: [Int64]) {
        let person = try realm.classInfo(named: "Person")
        let score = person.property(named: "score")!
        var sum = 0.0, count = 0, keys: [Int64] = []
        try realm.currentTransaction().scanColumn(table: person.tableID, column: score.columnID) { cluster in
            for slot in 0..<StorageKeys.clusterSize where cluster.isLive(slot) {
                count += 1
                keys.append(cluster.key(slot))
                if let block = cluster.block, case let .double(d) = block.value(at: slot, type: .double, optional: false) { sum += d }
            }
            return true
        }
        return (sum, count, keys)
    }

    /// Batch reads of one column: inside a write they read what the write changed (decoded
    /// blocks and presence) and what it did not (stored blocks), cluster by cluster; a deleted
    /// object is an error, unless the caller vouches for the keys.
    func testBatchReadsInsideAWriteSeeItsChanges() throws {
        let realm = try open(Self.personSchema) { realm in
            for id in 0..<2500 { try self.createPerson(realm, id: Int64(id), score: Double(id)) }
        }
        let person = try realm.classInfo(named: "Person")
        let score = person.property(named: "score")!
        let keys = try realm.objectKeys(person)
        try realm.beginWrite()
        try XCTUnwrap(realm.object(person, primaryKey: .int(1500))).setValue(.double(-1), for: score)  // cluster 1 decoded
        let write = try realm.currentTransaction()
        var values = try write.values(table: person.tableID, column: score.column, keys: keys)
        XCTAssertEqual(values, keys.indices.map { .double($0 == 1500 ? -1 : Double($0)) })
        try XCTUnwrap(realm.object(person, primaryKey: .int(10))).delete()    // cluster 0: changed presence
        try XCTUnwrap(realm.object(person, primaryKey: .int(2400))).delete()  // cluster 2
        XCTAssertThrowsError(try write.values(table: person.tableID, column: score.column, keys: keys)) {
            XCTAssertEqual(($0 as? DBError)?.code, .invalidated)
        }
        let live = keys.filter { $0 != keys[10] && $0 != keys[2400] }
        values = try write.values(table: person.tableID, column: score.column, keys: live.reversed())
        XCTAssertEqual(values.count, 2498)
        XCTAssertEqual(values.first, .double(2499))
        XCTAssertEqual(values[2499 - 1500 - 1], .double(-1), "keys in descending order: 2499 ... 2401, 2399 ... 1500")
        try realm.cancelWrite()
    }

    func testScanSeesLiveObjectsInsideAWriteAndAfterCommit() throws {
        let realm = try open()
        try realm.beginWrite()
        var objects: [ObjectAccessor] = []
        for id in 0..<3000 { objects.append(try createPerson(realm, id: Int64(id), score: Double(id))) }
        var scan = try scanScores(realm)
        XCTAssertEqual(scan.count, 3000)
        XCTAssertEqual(scan.sum, Double((0..<3000).reduce(0, +)))
        // Writes after a scan inside the same transaction are seen by the next scan.
        for object in objects[0..<1024] { try object.delete() }            // all of cluster 0
        try objects[2000].setValue(.double(0), for: objects[2000].classInfo.property(named: "score")!)
        scan = try scanScores(realm)
        XCTAssertEqual(scan.count, 3000 - 1024)
        XCTAssertEqual(scan.sum, Double((1024..<3000).reduce(0, +) - 2000))
        XCTAssertEqual(scan.keys.first, 1024, "the emptied cluster is gone")
        try realm.commitWrite()
        let committed = try scanScores(realm)
        XCTAssertEqual(committed.count, scan.count)
        XCTAssertEqual(committed.sum, scan.sum)
        XCTAssertEqual(committed.keys, try realm.objectKeys(realm.classInfo(named: "Person")))
    }

    func testColumnAddedLaterHasNoBlocksUntilWritten() throws {
        do {
            let realm = try open()
            try realm.beginWrite()
            for id in 0..<10 { try createPerson(realm, id: Int64(id)) }
            try realm.commitWrite()
        }
        let extended = try Schema([ObjectSchema(name: "Person", properties: RealmTestCase.personSchema.objectSchemas[0].properties
            + [Property(name: "nickname", type: .string, isOptional: true)])])
        let realm = try open(extended, version: 1)
        let person = try realm.classInfo(named: "Person")
        var clusters = 0
        try realm.currentTransaction().scanColumn(table: person.tableID, column: person.property(named: "nickname")!.columnID) { cluster in
            clusters += 1
            XCTAssertNil(cluster.block, "an added property costs nothing until it is written")
            return true
        }
        XCTAssertEqual(clusters, 1)
    }
}
