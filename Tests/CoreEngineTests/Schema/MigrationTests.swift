import XCTest
@testable import CoreEngine

final class MigrationTests: RealmTestCase {
    static let v1 = try! Schema([ObjectSchema(name: "Person", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string),
        Property(name: "age", type: .int),
    ])])

    private func seed() throws {
        let realm = try open(Self.v1)
        let person = try realm.classInfo(named: "Person")
        try realm.beginWrite()
        for (id, name, age) in [(1, "Ann Lee", 30), (2, "Bob Ray", 40), (3, "Cy Young", 50)] {
            _ = try realm.create(person, values: [(person.property(named: "id")!, .int(Int64(id))),
                                                  (person.property(named: "name")!, .string(name)),
                                                  (person.property(named: "age")!, .int(Int64(age)))])
        }
        try realm.commitWrite()
        realm.close()
    }

    private func names(_ realm: Realm, _ property: String) throws -> [Value] {
        let person = try realm.classInfo(named: "Person")
        return try realm.objectKeys(person).map { try value(realm.object(person, key: $0), property) }
    }

    func testAdditiveChangesMigrateAutomatically() throws {
        try seed()
        let v2 = try Schema(Self.v1.objectSchemas + [ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)])])
        var schema = v2
        schema = try Schema([ObjectSchema(name: "Person", properties: Self.v1.objectSchemas[0].properties + [
            Property(name: "nickname", type: .string, isOptional: true), Property(name: "level", type: .int)])] + [v2.objectSchemas[1]])
        // As in Realm: a new class alone needs nothing; new properties need a higher schema
        // version, and no migration function.
        let withDog = try open(v2)
        withDog.close()
        assertThrows(.migrationRequired) { _ = try self.open(schema) }
        let realm = try open(schema, version: 1)
        XCTAssertEqual(try names(realm, "nickname"), [.null, .null, .null])
        XCTAssertEqual(try names(realm, "level"), [.int(0), .int(0), .int(0)], "a new required property reads its default")
        XCTAssertEqual(try realm.schemaVersion(), 1)
    }

    func testAddedIndexedPropertyIndexesExistingObjects() throws {
        try seed()
        let schema = try Schema([ObjectSchema(name: "Person", properties: Self.v1.objectSchemas[0].properties + [
            Property(name: "level", type: .int, isIndexed: true), Property(name: "tag", type: .string, isOptional: true, isIndexed: true)])])
        let realm = try open(schema, version: 1)
        let person = try realm.classInfo(named: "Person")
        for (name, value) in [("level", Value.int(0)), ("tag", .null)] {
            let predicate = CompiledPredicate.compare(.property(person.property(named: name)!), .equal, .constant(value), [])
            guard case let .indexExact(keys) = try IndexPlanner(classInfo: person, predicate: predicate).accessPath(realm.currentTransaction()) else {
                return XCTFail("an equality on the new indexed property '\(name)' is answered by its index")
            }
            XCTAssertEqual(keys.count, 3, "the index of a new property covers the objects that read its default")
            XCTAssertEqual(try realm.objects(person).filter(predicate).count(), 3)
        }
    }

    func testDestructiveChangeWithoutMigrationFailsAndKeepsData() throws {
        try seed()
        let removed = try Schema([ObjectSchema(name: "Person", properties: Array(Self.v1.objectSchemas[0].properties.prefix(2)))])
        assertThrows(.migrationRequired) { _ = try self.open(removed) }
        assertThrows(.migrationRequired) { _ = try self.open(removed, version: 1) }  // higher version but no function
        let realm = try open(Self.v1)
        XCTAssertEqual(try names(realm, "age"), [.int(30), .int(40), .int(50)])
        realm.close()
        _ = try open(Self.v1, version: 2)  // a version bump with no change needs no function
        assertThrows(.schemaInvalid) { _ = try self.open(Self.v1, version: 1) }  // lower than the file's
    }

    func testMigrationRenamesTransformsCreatesAndDeletes() throws {
        try seed()
        let v2 = try Schema([ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "first", type: .string),
            Property(name: "last", type: .string),
            Property(name: "years", type: .int),
        ])])
        var calls: [UInt64] = []
        let realm = try open(v2, version: 1) { migration, oldVersion in
            calls.append(oldVersion)
            XCTAssertNotNil(migration.oldSchema.objectSchema(named: "Person")?.property(named: "name"))
            try migration.renameProperty(onType: "Person", from: "age", to: "years")
            try migration.enumerateObjects(ofType: "Person") { old, new in
                guard let new else { return XCTFail("class still exists") }
                guard case let .string(name) = try old.value(of: old.classInfo.property(named: "name")!) else { return XCTFail() }
                let parts = name.split(separator: " ").map(String.init)
                try new.setValue(.string(parts[0]), for: new.classInfo.property(named: "first")!)
                try new.setValue(.string(parts[1]), for: new.classInfo.property(named: "last")!)
                XCTAssertThrowsError(try old.setValue(.string("x"), for: old.classInfo.property(named: "name")!))
                if parts[0] == "Bob" { try new.delete() }
            }
            let person = try migration.realm.classInfo(named: "Person")
            _ = try migration.realm.create(person, values: [
                (person.property(named: "id")!, .int(9)), (person.property(named: "first")!, .string("New")),
                (person.property(named: "last")!, .string("Person")), (person.property(named: "years")!, .int(1))])
        }
        XCTAssertEqual(calls, [0])
        XCTAssertEqual(try names(realm, "first"), [.string("Ann"), .string("Cy"), .string("New")])
        XCTAssertEqual(try names(realm, "years"), [.int(30), .int(50), .int(1)])
        XCTAssertEqual(try realm.schemaVersion(), 1)
        realm.close()
        XCTAssertNoThrow(try open(v2, version: 1), "no migration runs again at the same version")
    }

    func testRetypedPropertyIsFilledFromTheOldColumn() throws {
        try seed()
        let v2 = try Schema([ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true), Property(name: "name", type: .string),
            Property(name: "age", type: .string)])])
        let realm = try open(v2, version: 1) { migration, _ in
            try migration.enumerateObjects(ofType: "Person") { old, new in
                guard case let .int(age) = try old.value(of: old.classInfo.property(named: "age")!) else { return XCTFail() }
                try new!.setValue(.string("\(age) years"), for: new!.classInfo.property(named: "age")!)
            }
        }
        XCTAssertEqual(try names(realm, "age"), [.string("30 years"), .string("40 years"), .string("50 years")])
    }

    func testFailingMigrationChangesNothing() throws {
        try seed()
        struct Boom: Error {}
        let v2 = try Schema([ObjectSchema(name: "Person", properties: Array(Self.v1.objectSchemas[0].properties.prefix(2)))])
        assertThrows(.migrationFailed) {
            _ = try self.open(v2, version: 1) { migration, _ in
                try migration.deleteData(forType: "Person")
                throw Boom()
            }
        }
        let realm = try open(Self.v1)
        XCTAssertEqual(try names(realm, "age"), [.int(30), .int(40), .int(50)])
        XCTAssertEqual(try realm.schemaVersion(), 0)
    }

    func testDeleteDataAndPrimaryKeyVerification() throws {
        try seed()
        // Making "age" the primary key requires unique values; make two equal and the migration must fail.
        let v2 = try Schema([ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int), Property(name: "name", type: .string),
            Property(name: "age", type: .int, isPrimaryKey: true)])])
        assertThrows(.duplicatePrimaryKey) {
            _ = try self.open(v2, version: 1) { migration, _ in
                try migration.enumerateObjects(ofType: "Person") { _, new in
                    try new?.setValue(.int(7), for: new!.classInfo.property(named: "age")!)
                }
            }
        }
        let realm = try open(v2, version: 1) { _, _ in }
        XCTAssertEqual(try value(XCTUnwrap(realm.object(realm.classInfo(named: "Person"), primaryKey: .int(40))), "name"), .string("Bob Ray"))
        realm.close()
        let emptied = try open(v2, version: 2) { migration, _ in try migration.deleteData(forType: "Person") }
        XCTAssertEqual(try emptied.objectCount(emptied.classInfo(named: "Person")), 0)
    }
}
