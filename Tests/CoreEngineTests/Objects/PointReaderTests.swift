import XCTest
@testable import CoreEngine

/// PointReader: point reads whose class and properties are resolved once, read again and again.
final class PointReaderTests: RealmTestCase {
    private func reader(_ realm: Realm, _ names: [String]) throws -> PointReader {
        let person = try realm.classInfo(named: "Person")
        let ids = names.map { Int64(person.property(named: $0)!.columnID) }
        return try ids.withUnsafeBufferPointer { try PointReader(realm: realm, classInfo: person, columnIDs: $0) }
    }

    /// The values a read gives, strings decoded.
    private func values(_ read: ((Int, StoredContents) -> Void) throws -> Void) rethrows -> [Value] {
        var values: [Value] = []
        try read { index, contents in
            XCTAssertEqual(index, values.count)
            switch contents {
            case let .value(value): values.append(value)
            case let .text(bytes): values.append(.string(String(decoding: bytes, as: UTF8.self)))
            case let .binary(bytes): values.append(.data(Array(bytes)))
            }
        }
        return values
    }

    func testReadsByKeyAndByPrimaryKeyWhatTheObjectHolds() throws {
        let realm = try open(Self.personSchema) { realm in
            try createPerson(realm, id: 1, name: "Ann", age: nil, score: 2.5)
            try createPerson(realm, id: 2, name: "Bo", age: 40, score: -1)
        }
        let reader = try reader(realm, ["score", "name", "age", "id"])
        var key: Int64?
        let bo = try values { body in key = try reader.find(primaryKey: .int(2), body) }
        XCTAssertEqual(bo, [.double(-1), .string("Bo"), .int(40), .int(2)])
        let ann = try realm.object(realm.classInfo(named: "Person"), primaryKey: .int(1))!
        XCTAssertEqual(try values { try reader.read(key: ann.key, $0) }, [.double(2.5), .string("Ann"), .null, .int(1)])
        XCTAssertEqual(try values { try reader.read(key: key!, $0) }, bo)
        XCTAssertEqual(try values { body in XCTAssertNil(try reader.find(primaryKey: .int(3), body)) }, [])
        // A primary key of another type, a key no object has, a class without a primary key.
        XCTAssertThrowsError(try reader.find(primaryKey: .string("2")) { _, _ in }) { XCTAssertEqual(($0 as? DBError)?.code, .wrongType) }
        XCTAssertThrowsError(try reader.read(key: 999) { _, _ in }) { XCTAssertEqual(($0 as? DBError)?.code, .invalidated) }
        XCTAssertThrowsError(try reader.read(key: -1) { _, _ in }) { XCTAssertEqual(($0 as? DBError)?.code, .invalidated) }
    }

    func testSeesTheWritesOfItsRealmAndRefusesAClosedOne() throws {
        let realm = try open(Self.personSchema) { try createPerson($0, id: 1, name: "Ann", age: 30, score: 1) }
        let reader = try reader(realm, ["name", "age"])
        try realm.beginWrite()
        let person = try realm.object(realm.classInfo(named: "Person"), primaryKey: .int(1))!
        try person.setValue(.string("Anna"), for: realm.classInfo(named: "Person").property(named: "name")!)
        // Inside the write: the write's own values (decoded blocks), not the stored ones.
        XCTAssertEqual(try values { body in _ = try reader.find(primaryKey: .int(1), body) }, [.string("Anna"), .int(30)])
        try realm.cancelWrite()
        XCTAssertEqual(try values { body in _ = try reader.find(primaryKey: .int(1), body) }, [.string("Ann"), .int(30)])
        realm.close()
        XCTAssertThrowsError(try reader.read(key: person.key) { _, _ in }) { XCTAssertEqual(($0 as? DBError)?.code, .closedRealm) }
    }

    func testResolvesItsPropertiesAgainWhenAnotherHandleAddsSome() throws {
        let first = try open(Self.personSchema) { try createPerson($0, id: 1, name: "Ann", age: 30, score: 1) }
        first.close()
        // A handle that reads the file's own schema rebinds its classes when another adds to it.
        let dynamic = try open(nil)
        let reader = try reader(dynamic, ["age", "name"])
        let before = try dynamic.classInfo(named: "Person")
        let wider = try Schema([ObjectSchema(name: "Person", properties: Self.personSchema.objectSchemas[0].properties
                                             + [Property(name: "nickname", type: .string, isOptional: true)])])
        let other = try open(wider, version: 1)
        try other.beginWrite()
        try createPerson(other, id: 2, name: "Bo", age: 41, score: 2)
        try other.commitWrite()
        _ = try dynamic.refresh()
        XCTAssertFalse(try dynamic.classInfo(named: "Person") === before, "the handle rebound its classes")
        XCTAssertEqual(try values { body in _ = try reader.find(primaryKey: .int(2), body) }, [.int(41), .string("Bo")])
        XCTAssertEqual(try values { body in _ = try reader.find(primaryKey: .int(1), body) }, [.int(30), .string("Ann")])
    }

    func testRefusesAPropertyAnotherHandleRemoved() throws {
        let first = try open(Self.personSchema) { try createPerson($0, id: 1, name: "Ann", age: 30, score: 1) }
        first.close()
        let dynamic = try open(nil)
        let reader = try reader(dynamic, ["name", "score"])
        XCTAssertEqual(try values { body in _ = try reader.find(primaryKey: .int(1), body) }, [.string("Ann"), .double(1)])
        let narrower = try Schema([ObjectSchema(name: "Person", properties: Self.personSchema.objectSchemas[0].properties
                                                .filter { $0.name != "score" })])
        let other = try open(narrower, version: 1, migration: { _, _ in })
        other.close()
        _ = try dynamic.refresh()
        XCTAssertThrowsError(try reader.find(primaryKey: .int(1)) { _, _ in }) { XCTAssertEqual(($0 as? DBError)?.code, .notFound) }
    }

    func testRefusesWhatItCannotRead() throws {
        let realm = try open(Self.personSchema)
        let person = try realm.classInfo(named: "Person")
        for ids: [Int64] in [[9999], [-1], [Int64(UInt32.max) + 1]] {
            XCTAssertThrowsError(try ids.withUnsafeBufferPointer { try PointReader(realm: realm, classInfo: person, columnIDs: $0) }) {
                XCTAssertEqual(($0 as? DBError)?.code, .notFound)
            }
        }
    }
}
