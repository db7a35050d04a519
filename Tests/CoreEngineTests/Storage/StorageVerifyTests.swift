import XCTest
@testable import CoreEngine

/// The whole-file check (StorageTransaction+Verify, Realm.check): a sound file reports what it
/// read; each kind of damage it looks for is written behind the engine's back (raw slot writes,
/// a removed index entry, a wrong counter) and named in the error.
final class StorageVerifyTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "best", type: .object, isOptional: true, objectType: "Person"),
            Property(name: "friends", type: .object, collection: .list, objectType: "Person"),
        ]),
    ])

    private var realm: Realm!
    private var person: ClassInfo!
    private func p(_ name: String) -> PropertyInfo { person.property(named: name)! }

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open(Self.schema) { realm in
            self.person = try realm.classInfo(named: "Person")
            var previous: ObjectAccessor?
            for id in 0..<50 as Range<Int64> {
                var values: [(PropertyInfo, Value)] = [(self.p("id"), .int(id)), (self.p("name"), .string("name \(id)"))]
                if let previous { values.append((self.p("best"), .link(ObjectLink(table: self.person.tableID, key: previous.key)))) }
                previous = try realm.create(self.person, values: values)
            }
        }
    }

    /// Runs `damage` in a write transaction that bypasses the engine's bookkeeping, commits it.
    private func damage(_ body: (StorageTransaction) throws -> Void) throws {
        try realm.beginWrite()
        try body(try realm.writeTransaction())
        try realm.commitWrite()
    }

    func testASoundFileReportsWhatItRead() throws {
        var calls: [(Int, Int)] = []
        let report = try realm.check { calls.append(($0, $1)) }
        XCTAssertEqual(report.classes, 1)
        XCTAssertEqual(report.objects, 50)
        XCTAssertEqual(report.values, 50 * 4, "id, name, best, friends")
        XCTAssertEqual(report.indexEntries, 100, "the primary key's and the name's")
        XCTAssertGreaterThan(report.blocks, 0)
        XCTAssertEqual(calls.first?.0, 0)
        XCTAssertEqual(calls.last?.0, calls.last?.1)
    }

    func testADanglingLinkIsNamed() throws {
        try damage { try $0.writeSlot(.link(ObjectLink(table: person.tableID, key: 9_999)), table: person.tableID,
                                      column: p("best").column, key: 3) }
        assertThrows(.fileFormat) { _ = try self.realm.check() }
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertTrue("\(error)".contains("'Person.best' of object 3 links to object 9999"), "\(error)")
        }
    }

    func testAMissingIndexEntryIsNamed() throws {
        try damage { try $0.removeIndexEntry(table: person.tableID, column: p("name").column.id, value: .string("name 7"), key: 7) }
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertEqual((error as? DBError)?.code, .fileFormat)
            XCTAssertTrue("\(error)".contains("the index of 'Person.name' has no entry for object 7"), "\(error)")
        }
    }

    func testAnExtraIndexEntryIsNamed() throws {
        try damage { try $0.addIndexEntry(table: person.tableID, column: p("name").column.id, value: .string("ghost"), key: 12) }
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertTrue("\(error)".contains("the index of 'Person.name' has an entry for object 12 that is not its value"), "\(error)")
        }
    }

    func testAnIndexEntryOfADeletedObjectIsNamed() throws {
        try damage { try $0.addIndexEntry(table: person.tableID, column: p("name").column.id, value: .string("ghost"), key: 4_000) }
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertTrue("\(error)".contains("the index of 'Person.name' has an entry for object 4000, which does not exist"), "\(error)")
        }
    }

    /// A column of few values (each shared by a fifth of the objects) checks sound, and an entry
    /// moved to another value is found.
    func testAnIndexOfFewValues() throws {
        let people = try open(RealmTestCase.personSchema, path: directory + "/few.realm")
        try people.write { for id in 0..<5_000 as Range<Int64> { try self.createPerson(people, id: id, age: id % 5) } }
        XCTAssertEqual(try people.check().indexEntries, 15_000, "id, age and city: one entry per object each")
        let person = try people.classInfo(named: "Person")
        let age = person.property(named: "age")!.columnID
        try people.beginWrite()
        let write = try people.writeTransaction()
        try write.removeIndexEntry(table: person.tableID, column: age, value: .int(3), key: 3_003)
        try write.addIndexEntry(table: person.tableID, column: age, value: .int(4), key: 3_003)
        try people.commitWrite()
        XCTAssertThrowsError(try people.check()) { error in
            XCTAssertTrue("\(error)".contains("the index of 'Person.age' has an entry for object 3003 that is not its value"), "\(error)")
        }
    }

    func testAListOfAMissingObjectIsNamed() throws {
        let bytes = PackedValues.encode([.link(ObjectLink(table: person.tableID, key: 4_242))])
        try damage { try $0.writeSlot(.data(bytes), table: person.tableID, column: p("friends").column, key: 5) }
        XCTAssertThrowsError(try realm.check()) { error in
            XCTAssertTrue("\(error)".contains("'Person.friends' of object 5 lists object 4242"), "\(error)")
        }
    }

    func testCheckingInsideAWriteIsRefused() throws {
        try realm.beginWrite()
        assertThrows(.wrongTransactionState) { _ = try self.realm.check() }
        try realm.cancelWrite()
    }
}
