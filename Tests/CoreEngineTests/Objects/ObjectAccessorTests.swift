import XCTest
@testable import CoreEngine

final class ObjectAccessorTests: RealmTestCase {
    static let allTypes = try! Schema([
        ObjectSchema(name: "All", properties: PropertyType.allCases.filter(\.isScalar).flatMap { type in [
            Property(name: type.name, type: type),
            Property(name: type.name + "_opt", type: type, isOptional: true),
        ] }),
    ])

    func testEveryTypeRoundTripsThroughCommitAndReopen() throws {
        let values: [String: Value] = [
            "bool": .bool(true), "int": .int(.min), "float": .float(-0.5), "double": .double(.pi),
            "string": .string("naïve ☃"), "data": .data([0, 1, 2, 255]),
            "date": .timestamp(Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789)),
            "objectId": .objectID(ObjectID(bytes: Array(100..<112))!), "uuid": .uuid(UUIDValue(bytes: Array(200..<216))!),
            "decimal128": .decimal128(Decimal128(low: 150, high: 0xB03E_0000_0000_0000)),
        ]
        do {
            let realm = try open(Self.allTypes)
            let all = try realm.classInfo(named: "All")
            try realm.beginWrite()
            var assignments: [(PropertyInfo, Value)] = []
            for (name, value) in values {
                assignments.append((all.property(named: name)!, value))
                assignments.append((all.property(named: name + "_opt")!, value))
            }
            _ = try realm.create(all, values: assignments)
            _ = try realm.create(all, values: values.map { (all.property(named: $0.key)!, $0.value) })
            try realm.commitWrite()
        }
        let realm = try open(Self.allTypes)
        let all = try realm.classInfo(named: "All")
        let keys = try realm.objectKeys(all)
        XCTAssertEqual(keys.count, 2)
        let first = try realm.object(all, key: keys[0]), second = try realm.object(all, key: keys[1])
        for (name, expected) in values {
            XCTAssertEqual(try value(first, name), expected, name)
            XCTAssertEqual(try value(first, name + "_opt"), expected, name)
            XCTAssertEqual(try value(second, name + "_opt"), .null, "optional left out is null")
        }
    }

    func testValidationErrors() throws {
        let realm = try open()
        let person = try realm.classInfo(named: "Person")
        try realm.beginWrite()
        assertThrows(.missingValue) { _ = try realm.create(person, values: [(person.property(named: "id")!, .int(1))]) }
        assertThrows(.missingValue) { _ = try realm.create(person, values: [(person.property(named: "name")!, .string("x"))]) }
        assertThrows(.wrongType) { try createPerson(realm, id: 1, name: "x", age: nil, score: 1) ; try realm.create(person, values: [(person.property(named: "id")!, .string("1"))]) }
        let ann = try realm.object(person, primaryKey: .int(1))!
        assertThrows(.wrongType) { try ann.setValue(.string("old"), for: person.property(named: "age")!) }
        assertThrows(.notNullable) { try ann.setValue(.null, for: person.property(named: "name")!) }
        assertThrows(.logic) { try ann.setValue(.int(2), for: person.property(named: "id")!) }
        try ann.setValue(.int(1), for: person.property(named: "id")!)  // same value: allowed
        try ann.setValue(.int(3), for: person.property(named: "score")!)  // int widens to double
        XCTAssertEqual(try value(ann, "score"), .double(3))
        try realm.commitWrite()
        assertThrows(.wrongTransactionState) { try ann.setValue(.string("x"), for: person.property(named: "name")!) }
    }

    func testUpsertModes() throws {
        let realm = try open()
        let person = try realm.classInfo(named: "Person")
        try realm.beginWrite()
        let ann = try createPerson(realm, id: 1, name: "Ann", age: 30)
        try realm.commitWrite()

        try realm.beginWrite()
        assertThrows(.duplicatePrimaryKey) { try createPerson(realm, id: 1) }
        let same = try createPerson(realm, id: 1, name: "Ann", age: 31, upsert: .modified)
        XCTAssertEqual(same, ann)
        var set = try realm.commitWrite()
        XCTAssertEqual(set.tables[person.tableID]?.modifications.keys.sorted(), [person.property(named: "age")!.columnID],
                       "'modified' writes only values that differ")

        try realm.beginWrite()
        try createPerson(realm, id: 1, name: "Ann", age: 31, upsert: .all)
        set = try realm.commitWrite()
        XCTAssertEqual(set.tables[person.tableID]?.modifications.count, 3, "'all' writes every given value but the key")
        XCTAssertEqual(try realm.objectCount(person), 1)
    }

    func testDeleteAndValidity() throws {
        let realm = try open()
        try realm.beginWrite()
        let ann = try createPerson(realm, id: 1, city: "Oslo")
        try createPerson(realm, id: 2, city: "Oslo")
        XCTAssertTrue(try ann.isValid())
        try ann.delete()
        XCTAssertFalse(try ann.isValid())
        assertThrows(.invalidated) { _ = try self.value(ann, "name") }
        assertThrows(.invalidated) { try ann.delete() }
        try realm.commitWrite()
        let person = try realm.classInfo(named: "Person")
        XCTAssertNil(try realm.object(person, primaryKey: .int(1)), "the primary-key index forgets deleted objects")
        let city = person.property(named: "city")!
        XCTAssertEqual(try realm.currentTransaction().indexLookup(table: person.tableID, column: city.column, value: .string("Oslo")).count, 1)
    }

    /// An object's several values read together (`values(of:)`, and `forEachValue` for the C
    /// API's handles) are its own, in the order asked, across clusters, inside a write too; a
    /// deleted object's are an error.
    func testSeveralValuesAreReadTogether() throws {
        let realm = try open(RealmTestCase.personSchema) { realm in
            for id in 0..<Int64(2_100) {
                try self.createPerson(realm, id: id, name: "p\(id)", age: id % 3 == 0 ? nil : id % 90, score: Double(id) / 4,
                                      city: id % 2 == 0 ? "c\(id % 7)" : nil)
            }
        }
        let person = try realm.classInfo(named: "Person")
        let names = ["city", "score", "id", "age", "name"]
        let properties = names.map { person.property(named: $0)! }
        func expected(_ id: Int64) -> [Value] {
            [id % 2 == 0 ? .string("c\(id % 7)") : .null, .double(Double(id) / 4), .int(id),
             id % 3 == 0 ? .null : .int(id % 90), .string("p\(id)")]
        }
        for id in stride(from: Int64(2_099), through: 0, by: -97) {
            let object = try XCTUnwrap(realm.object(person, primaryKey: .int(id)))
            XCTAssertEqual(try object.values(of: properties), expected(id), "id \(id)")
            var handed: [Value?] = Array(repeating: nil, count: names.count)
            try properties.map { Int64($0.columnID) }.withUnsafeBufferPointer { ids in
                try object.forEachValue(ofColumnIDs: ids) { index, contents in handed[index] = contents.value }
            }
            XCTAssertEqual(handed.map { $0! }, expected(id), "id \(id)")
        }
        let object = try XCTUnwrap(realm.object(person, primaryKey: .int(1_500)))
        try realm.beginWrite()
        try object.setValue(.double(-1), for: person.property(named: "score")!)
        XCTAssertEqual(try object.values(of: properties)[1], .double(-1))
        try realm.cancelWrite()
        try realm.write { try object.delete() }
        assertThrows(.invalidated) { _ = try object.values(of: properties) }
        assertThrows(.invalidated) {
            try [Int64(properties[0].columnID)].withUnsafeBufferPointer { ids in
                try object.forEachValue(ofColumnIDs: ids) { _, _ in XCTFail("a deleted object has no values") }
            }
        }
    }

    func testDeletingAWholeClusterRemovesItsBlocks() throws {
        let realm = try open()
        try realm.beginWrite()
        let objects = try (0..<2048).map { try createPerson(realm, id: Int64($0)) }
        try realm.commitWrite()
        try realm.beginWrite()
        for object in objects.prefix(1024) { try object.delete() }
        try realm.commitWrite()
        let person = try realm.classInfo(named: "Person")
        XCTAssertEqual(try realm.objectCount(person), 1024)
        XCTAssertEqual(try realm.objectKeys(person).first, 1024)
        XCTAssertNil(try realm.currentTransaction().presence(table: person.tableID, cluster: 0))
        XCTAssertEqual(try value(realm.object(person, primaryKey: .int(2000))!, "id"), .int(2000))
    }

    func testPrimaryKeyLookupsForEveryPrimaryKeyType() throws {
        let schema = try Schema([
            ObjectSchema(name: "S", properties: [Property(name: "k", type: .string, isPrimaryKey: true)]),
            ObjectSchema(name: "O", properties: [Property(name: "k", type: .objectID, isPrimaryKey: true)]),
            ObjectSchema(name: "U", properties: [Property(name: "k", type: .uuid, isOptional: true, isPrimaryKey: true)]),
            ObjectSchema(name: "N", properties: [Property(name: "v", type: .int)]),
        ])
        let realm = try open(schema)
        let long = String(repeating: "k", count: 3000)
        let keys: [(String, Value)] = [("S", .string("a")), ("S", .string(long)), ("S", .string(long + "!")),
                                       ("O", .objectID(ObjectID(bytes: Array(0..<12))!)), ("U", .null),
                                       ("U", .uuid(UUIDValue(bytes: Array(0..<16))!))]
        try realm.beginWrite()
        for (cls, key) in keys {
            let info = try realm.classInfo(named: cls)
            _ = try realm.create(info, values: [(info.primaryKey!, key)])
        }
        try realm.commitWrite()
        for (cls, key) in keys {
            let info = try realm.classInfo(named: cls)
            let found = try XCTUnwrap(realm.object(info, primaryKey: key), "\(cls) \(key.displayString.prefix(20))")
            XCTAssertEqual(try found.value(of: info.primaryKey!), key)
        }
        XCTAssertNil(try realm.object(realm.classInfo(named: "S"), primaryKey: .string("b")))
        assertThrows(.logic) { _ = try realm.object(realm.classInfo(named: "N"), primaryKey: .int(1)) }
        assertThrows(.wrongType) { _ = try realm.object(realm.classInfo(named: "S"), primaryKey: .int(1)) }
    }

    func testPersistedNamesAreUsedOnDiskAndPublicNamesInTheAPI() throws {
        do {
            let realm = try open()
            try realm.beginWrite(); try createPerson(realm, id: 1, city: "Rome"); try realm.commitWrite()
        }
        // The file knows the column as "town".
        let raw = try open(nil)
        let stored = try raw.classInfo(named: "Person")
        XCTAssertNotNil(stored.property(named: "town"))
        XCTAssertNil(stored.property(named: "city"))
        XCTAssertEqual(try value(raw.object(stored, primaryKey: .int(1))!, "town"), .string("Rome"))
    }

    func testDescriptionAndIdentity() throws {
        let realm = try open()
        try realm.beginWrite()
        let ann = try createPerson(realm, id: 1, name: "Ann", age: nil, score: 2.5)
        try realm.commitWrite()
        XCTAssertEqual(ann.description, "Person {\n\tid = 1;\n\tname = 'Ann';\n\tage = null;\n\tscore = 2.5;\n\tcity = null;\n}")
        let other = try open()
        let again = try other.object(other.classInfo(named: "Person"), primaryKey: .int(1))!
        XCTAssertEqual(ann, again, "same database object through another handle")
        XCTAssertEqual(ann.hashValue, again.hashValue)
    }
}
