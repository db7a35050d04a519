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
