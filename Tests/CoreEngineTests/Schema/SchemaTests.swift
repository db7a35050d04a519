import XCTest
@testable import CoreEngine

final class SchemaTests: XCTestCase {
    private func assertInvalid(_ objectSchemas: [ObjectSchema], _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Schema(objectSchemas), file: file, line: line) { error in
            let error = error as? DBError
            XCTAssertEqual(error?.code, .schemaInvalid, file: file, line: line)
            XCTAssertTrue(error?.message.contains(fragment) ?? false, "\(error?.message ?? "") lacks '\(fragment)'", file: file, line: line)
        }
    }

    func testValidation() {
        assertInvalid([ObjectSchema(name: "", properties: [])], "class name")
        assertInvalid([ObjectSchema(name: "A", properties: []), ObjectSchema(name: "A", properties: [])], "declared twice")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "x", type: .int), Property(name: "x", type: .int)])], "'A.x' is declared twice")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "x", type: .int), Property(name: "y", persistedName: "x", type: .int)])], "persisted name 'x'")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "x", type: .double, isPrimaryKey: true)])], "cannot be a primary key")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "x", type: .float, isIndexed: true)])], "cannot be indexed")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "x", type: .int, isPrimaryKey: true), Property(name: "y", type: .string, isPrimaryKey: true)])], "2 primary keys")
        assertInvalid([ObjectSchema(name: "A", properties: [Property(name: "a.b", type: .int)])], "'A.a.b'")
    }

    func testStoredSchemaRoundTrip() throws {
        var stored = SchemaPlan(stored: StoredSchema(), declared: RealmTestCase.personSchema).target
        stored.schemaVersion = 9
        XCTAssertEqual(try StoredSchema.decode(stored.encoded()), stored)
        XCTAssertThrowsError(try StoredSchema.decode([1, 2, 3]))
    }

    func testPlanClassifiesChanges() throws {
        let base = SchemaPlan(stored: StoredSchema(), declared: RealmTestCase.personSchema).target
        func plan(_ properties: [Property]) throws -> SchemaPlan {
            SchemaPlan(stored: base, declared: try Schema([ObjectSchema(name: "Person", properties: properties)]))
        }
        let person = RealmTestCase.personSchema.objectSchemas[0].properties

        let same = try plan(person)
        XCTAssertFalse(same.hasChanges)

        let added = try plan(person + [Property(name: "email", type: .string, isOptional: true)])
        XCTAssertTrue(added.hasChanges)
        XCTAssertTrue(added.destructiveChanges.isEmpty, "adding a property is additive")

        var reindexed = person
        reindexed[1].isIndexed = true
        XCTAssertTrue(try plan(reindexed).destructiveChanges.isEmpty, "index changes are automatic")
        XCTAssertEqual(try plan(reindexed).indexesToBuild.count, 1)

        let removed = try plan(Array(person.dropLast()))
        XCTAssertEqual(removed.destructiveChanges, ["property 'Person.town' was removed"])

        var retyped = person
        retyped[1].type = .int
        XCTAssertTrue(try plan(retyped).hasChanges)
        XCTAssertEqual(try plan(retyped).destructiveChanges.count, 1)
        XCTAssertEqual(try plan(retyped).columnsToDrop.count, 1)

        var newKey = person.map { property -> Property in var p = property; p.isPrimaryKey = false; return p }
        newKey.append(Property(name: "code", type: .int, isPrimaryKey: true))
        let rekeyed = try plan(newKey)
        XCTAssertTrue(rekeyed.destructiveChanges.contains("property 'Person.code' was added as the primary key"))
        XCTAssertEqual(rekeyed.primaryKeysToVerify.count, 1, "the new key's uniqueness is checked after the migration")

        var optional = person
        optional[1].isOptional = true
        XCTAssertEqual(try plan(optional).destructiveChanges, ["property 'Person.name' changed from string to string?"])
        XCTAssertTrue(try plan(optional).columnsToDrop.isEmpty, "nullability changes keep the column's data")
    }
}
