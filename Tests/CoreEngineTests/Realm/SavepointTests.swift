import XCTest
@testable import CoreEngine

/// Savepoints inside a write transaction: a rollback undoes exactly what was done since.
final class SavepointTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string, isOptional: true, isIndexed: true),
            Property(name: "tags", type: .string, collection: .list),
            Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
            Property(name: "best", type: .object, isOptional: true, objectType: "Dog"),
            Property(name: "home", type: .object, isOptional: true, objectType: "Address"),
            Property(name: "addresses", type: .object, collection: .list, objectType: "Address"),
            Property(name: "places", type: .object, isOptional: true, collection: .dictionary, objectType: "Address"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "owners", type: .linkingObjects, objectType: "Person", linkOriginProperty: "dogs"),
        ]),
        ObjectSchema(name: "Address", properties: [
            Property(name: "street", type: .string, isOptional: true),
            Property(name: "flats", type: .object, collection: .list, objectType: "Flat"),
            Property(name: "dog", type: .object, isOptional: true, objectType: "Dog"),
        ], isEmbedded: true),
        ObjectSchema(name: "Flat", properties: [Property(name: "number", type: .int, isOptional: true)], isEmbedded: true),
    ])

    private var realm: Realm!
    private var person: ClassInfo!, dog: ClassInfo!, address: ClassInfo!, flat: ClassInfo!

    private func openRealm() throws {
        realm = try open(Self.schema)
        person = try realm.classInfo(named: "Person")
        dog = try realm.classInfo(named: "Dog")
        address = try realm.classInfo(named: "Address")
        flat = try realm.classInfo(named: "Flat")
    }

    private func p(_ name: String) -> PropertyInfo { person.property(named: name)! }
    private func link(_ object: ObjectAccessor) -> Value { .link(ObjectLink(table: object.classInfo.tableID, key: object.key)) }

    private func makePerson(_ id: Int64, name: String? = nil) throws -> ObjectAccessor {
        try realm.create(person, values: [(p("id"), .int(id))] + (name.map { [(p("name"), Value.string($0))] } ?? []))
    }

    /// Opens the realm and begins a write with person 1 in a savepoint and person 2 in a nested one.
    private func beginWriteWithTwoSavepoints() throws {
        try openRealm()
        try realm.beginWrite()
        try realm.beginSavepoint()
        _ = try makePerson(1)
        try realm.beginSavepoint()
        _ = try makePerson(2)
    }

    private func makeDog(_ id: Int64) throws -> ObjectAccessor {
        try realm.create(dog, values: [(dog.property(named: "id")!, .int(id))])
    }

    /// Everything observable about the realm's objects: keys, values, collections, backlinks, counts.
    private func state() throws -> String {
        var lines: [String] = []
        for info in [person!, dog!, address!, flat!] {
            lines.append("\(info.name): \(try realm.objectCount(info)) objects")
            guard !info.isEmbedded else { continue }
            for key in try realm.objectKeys(info) {
                let object = try realm.object(info, key: key)
                lines.append(object.description)
                for property in info.properties where property.collection != .none {
                    switch property.collection {
                    case .list: lines.append("  \(property.name): \(try describe(object.list(of: property).elements()))")
                    case .dictionary: lines.append("  \(property.name): \(try object.dictionary(of: property).entries())")
                    default: break
                    }
                }
                lines.append("  backlinks: \(try object.backlinkCount())")
                if info === person, case let .link(home) = try value(object, "home") {
                    let embedded = try realm.object(address, key: home.key)
                    lines.append("  home: \(embedded.description) flats \(try describe(embedded.list(of: address.property(named: "flats")!).elements()))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private func describe(_ values: [Value]) throws -> String {
        try values.map { value in
            guard case let .link(link) = value else { return value.displayString }
            return try realm.object(realm.classInfo(tableID: link.table), key: link.key).description
        }.joined(separator: ", ")
    }

    func testRollbackUndoesAnObjectWithItsCollectionsLinksAndEmbeddedObjects() throws {
        try openRealm()
        try realm.beginWrite()
        let rex = try makeDog(1)
        _ = try makePerson(1, name: "Ann")
        let before = try state()
        try realm.beginSavepoint()
        let bob = try makePerson(2, name: "Bob")
        try bob.list(of: p("tags")).append(contentsOf: [.string("a"), .string("b")])
        try bob.list(of: p("dogs")).append(link(rex))
        try bob.setValue(link(rex), for: p("best"))
        let home = try bob.createEmbedded(for: p("home"), values: [(address.property(named: "street")!, .string("Main"))])
        _ = try home.list(of: address.property(named: "flats")!).insertEmbedded(at: 0)
        try home.setValue(link(rex), for: address.property(named: "dog")!)
        _ = try bob.dictionary(of: p("places")).setEmbedded(forKey: "work")
        XCTAssertEqual(try rex.backlinkCount(), 3)
        try realm.rollbackSavepoint()

        XCTAssertEqual(try state(), before)
        XCTAssertFalse(try bob.isValid())
        XCTAssertFalse(try home.isValid())
        XCTAssertNil(try realm.object(person, primaryKey: .int(2)), "the primary key index forgot Bob")
        XCTAssertEqual(try realm.objects(person).filter("name == 'Bob'").count(), 0)
        XCTAssertEqual(try rex.backlinkCount(), 0)
        // The write goes on: Bob can be created again, and gets a new key.
        let again = try makePerson(2, name: "Bob")
        XCTAssertNotEqual(again.key, bob.key, "object keys are never handed out twice")
        XCTAssertFalse(try bob.isValid())
        let changes = try realm.commitWrite()
        XCTAssertEqual(changes.tables[person.tableID]?.insertions.count, 2, "Ann and the second Bob")
        XCTAssertNil(changes.tables[address.tableID], "the rolled back embedded objects are not reported")
        XCTAssertEqual(try realm.check().objects, 3)
    }

    func testRollbackKeepsTheOldEmbeddedObjectThatAReplacementDeleted() throws {
        try openRealm()
        try realm.beginWrite()
        let ann = try makePerson(1)
        let old = try ann.createEmbedded(for: p("home"), values: [(address.property(named: "street")!, .string("Old"))])
        let item = try ann.list(of: p("addresses")).insertEmbedded(at: 0, values: [(address.property(named: "street")!, .string("In list"))])
        try realm.commitWrite()

        try realm.beginWrite()
        let before = try state()
        try realm.beginSavepoint()
        let replacement = try ann.createEmbedded(for: p("home"))
        XCTAssertFalse(try old.isValid(), "assigning a new embedded object deletes the old one")
        _ = try ann.list(of: p("addresses")).insertEmbedded(at: 0)
        _ = try ann.list(of: p("addresses")).remove(at: 1)
        XCTAssertFalse(try item.isValid(), "removing an embedded object from its list deletes it")
        try realm.rollbackSavepoint()
        XCTAssertEqual(try state(), before)
        XCTAssertTrue(try old.isValid())
        XCTAssertTrue(try item.isValid())
        XCTAssertFalse(try replacement.isValid())
        XCTAssertEqual(try value(old, "street"), .string("Old"))
        XCTAssertEqual(try ann.list(of: p("addresses")).elements(), [link(item)])
        try realm.commitWrite()
        XCTAssertEqual(try realm.check().objects, 3)
    }

    func testNestedSavepoints() throws {
        try beginWriteWithTwoSavepoints()
        XCTAssertEqual(realm.savepointDepth, 2)
        try realm.rollbackSavepoint()  // drops 2, keeps 1
        XCTAssertEqual(try realm.objectCount(person), 1)
        try realm.beginSavepoint()
        _ = try makePerson(3)
        try realm.releaseSavepoint()  // 3 joins the outer savepoint
        XCTAssertEqual(try realm.objectCount(person), 2)
        try realm.rollbackSavepoint()  // drops 1 and 3
        XCTAssertEqual(try realm.objectCount(person), 0)
        XCTAssertEqual(realm.savepointDepth, 0)
        _ = try makePerson(4)
        try realm.commitWrite()
        XCTAssertEqual(try realm.objectKeys(person).count, 1)
        XCTAssertNotNil(try realm.object(person, primaryKey: .int(4)))
    }

    func testCommitKeepsOpenSavepointsAndCancelDiscardsThem() throws {
        try beginWriteWithTwoSavepoints()
        try realm.commitWrite()
        XCTAssertEqual(realm.savepointDepth, 0)
        XCTAssertEqual(try realm.objectCount(person), 2)
        try realm.beginWrite()
        try realm.beginSavepoint()
        _ = try makePerson(3)
        try realm.cancelWrite()
        XCTAssertEqual(try realm.objectCount(person), 2)
        realm.close()
        try openRealm()
        XCTAssertEqual(try realm.objectCount(person), 2)
        XCTAssertEqual(try realm.check().objects, 2)
    }

    func testSavepointErrors() throws {
        try openRealm()
        assertThrows(.wrongTransactionState) { try self.realm.beginSavepoint() }
        assertThrows(.wrongTransactionState) { try self.realm.rollbackSavepoint() }
        try realm.beginWrite()
        assertThrows(.wrongTransactionState) { try self.realm.rollbackSavepoint() }
        assertThrows(.wrongTransactionState) { try self.realm.releaseSavepoint() }
        let frozen = try { try realm.cancelWrite(); return try realm.freeze() }()
        assertThrows(.wrongTransactionState) { try frozen.beginSavepoint() }
        frozen.close()
        realm.close()
        assertThrows(.closedRealm) { try self.realm.beginSavepoint() }
    }

    func testWithSavepointRollsBackWhenTheBodyThrows() throws {
        try openRealm()
        try realm.beginWrite()
        XCTAssertThrowsError(try realm.withSavepoint {
            let ann = try makePerson(1)
            try ann.list(of: p("tags")).append(.int(5))  // wrong type
        })
        XCTAssertEqual(try realm.objectCount(person), 0)
        let id = try realm.withSavepoint { try makePerson(2).key }
        XCTAssertEqual(try realm.objectKeys(person), [id])
        try realm.commitWrite()
    }

    /// A scan inside a write writes the decoded blocks back to LMDB first; a rollback after it
    /// must still restore the changes made before the savepoint, which were among those blocks.
    func testRollbackAfterAScanKeepsTheChangesMadeBeforeTheSavepoint() throws {
        try openRealm()
        try realm.beginWrite()
        for id in 1...50 { _ = try makePerson(Int64(id), name: "n\(id)") }
        try realm.commitWrite()
        try realm.beginWrite()
        let first = try XCTUnwrap(realm.object(person, primaryKey: .int(1)))
        try first.setValue(.string("before"), for: p("name"))
        try first.list(of: p("tags")).append(.string("kept"))
        let before = try state()
        try realm.beginSavepoint()
        try first.setValue(.string("inside"), for: p("name"))
        try first.list(of: p("tags")).append(.string("dropped"))
        _ = try makePerson(100, name: "inside")
        XCTAssertEqual(try realm.objects(person).filter("name == 'inside'").count(), 2)  // scans
        XCTAssertEqual(try realm.objects(person).filter("tags.@count == 2").count(), 1)
        try realm.objects(person).filter("id > 40").deleteAll()
        try realm.rollbackSavepoint()
        XCTAssertEqual(try state(), before)
        XCTAssertEqual(try realm.objects(person).filter("name == 'before'").count(), 1)
        XCTAssertEqual(try realm.objects(person).filter("name == 'inside'").count(), 0)
        XCTAssertEqual(try realm.objects(person).count(), 50)
        let changes = try realm.commitWrite()
        XCTAssertEqual(changes.tables[person.tableID]?.modifications.values.flatMap { $0 }.sorted(), [first.key, first.key])
        XCTAssertEqual(changes.tables[person.tableID]?.deletions, [])
        XCTAssertEqual(try realm.check().objects, 50)
        XCTAssertEqual(try value(first, "name"), .string("before"))
        XCTAssertEqual(try first.list(of: p("tags")).elements(), [.string("kept")])
    }

    func testMigrationCanUseSavepoints() throws {
        do {
            try openRealm()
            try realm.beginWrite()
            _ = try makePerson(1)
            try realm.commitWrite()
            realm.close()
        }
        let migrated = try open(Self.schema, version: 1) { migration, _ in
            let realm = migration.realm
            let person = try realm.classInfo(named: "Person")
            try realm.beginSavepoint()
            try migration.deleteData(forType: "Person")
            _ = try realm.create(person, values: [(person.property(named: "id")!, .int(7))])
            try realm.rollbackSavepoint()
            try realm.beginSavepoint()  // left open: kept, as at a commit
            _ = try realm.create(person, values: [(person.property(named: "id")!, .int(2))])
        }
        let person = try migrated.classInfo(named: "Person")
        XCTAssertEqual(try migrated.objectCount(person), 2)
        XCTAssertNotNil(try migrated.object(person, primaryKey: .int(1)), "the deletion was rolled back")
        XCTAssertNotNil(try migrated.object(person, primaryKey: .int(2)))
        XCTAssertEqual(try migrated.check().objects, 2)
    }
}
