import Foundation
import XCTest
@testable import RealmDB
@testable import CoreEngine

/// The schema found from the classes by reflection.
final class ObjectSchemaDiscoveryTests: XCTestCase {
    func testPropertiesTypesAndOptions() throws {
        let schema = try ObjectSchemaDiscovery.schema(of: [Dog.self])
        XCTAssertEqual(schema.objectSchemas.map(\.name), ["Dog", "Person", "Toy"], "linked classes are found")
        let dog = try XCTUnwrap(schema.objectSchema(named: "Dog"))
        XCTAssertEqual(dog.properties.map(\.name), ["id", "name", "age", "owner", "toys", "owners"])
        XCTAssertEqual(dog.property(named: "owners")?.typeDescription, "linkingObjects(Person.dogs)")
        XCTAssertEqual(dog.primaryKey?.name, "id")
        XCTAssertEqual(dog.property(named: "owner")?.typeDescription, "Person?")
        XCTAssertEqual(dog.property(named: "toys")?.typeDescription, "Toy[]")
        let person = try XCTUnwrap(schema.objectSchema(named: "Person"))
        XCTAssertEqual(person.property(named: "name")?.isIndexed, true)
        XCTAssertEqual(person.property(named: "nickname")?.typeDescription, "string?")
        XCTAssertEqual(person.property(named: "id")?.typeDescription, "objectId")
        XCTAssertEqual(person.property(named: "tags")?.typeDescription, "string<>")
        XCTAssertEqual(person.property(named: "scores")?.typeDescription, "int{}")
        XCTAssertEqual(person.property(named: "favorites")?.typeDescription, "Dog?{}")
        XCTAssertEqual(person.property(named: "extra")?.typeDescription, "mixed")
    }

    func testEveryStoredType() throws {
        let schema = try ObjectSchemaDiscovery.schema(of: [AllTypes.self])
        let types = try XCTUnwrap(schema.objectSchema(named: "AllTypes")).properties.map { "\($0.name): \($0.typeDescription)" }
        XCTAssertEqual(types, ["id: int", "bool: bool", "int: int", "int8: int", "int16: int", "int32: int", "int64: int",
                               "float: float", "double: double", "string: string", "data: data", "date: date",
                               "uuid: uuid", "objectId: objectId", "decimal: decimal128", "optionalInt: int?",
                               "optionalString: string?", "optionalDate: date?", "optionalDouble: double?",
                               "scores: int[]", "tags: string?[]", "defaulted: int"])
    }

    func testLegacyClassMethods() throws {
        let schema = try ObjectSchemaDiscovery.schema(of: [LegacyKeyed.self])
        let legacy = try XCTUnwrap(schema.objectSchema(named: "LegacyKeyed"))
        XCTAssertEqual(legacy.properties.map(\.name), ["code", "rank", "stored"], "ignored properties are not stored")
        XCTAssertEqual(legacy.primaryKey?.name, "code")
        XCTAssertEqual(legacy.property(named: "rank")?.isIndexed, true)
        XCTAssertEqual(legacy.property(named: "stored")?.persistedName, "stored_name")
    }

    func testSubclassPropertiesFollowTheSuperclass() throws {
        let schema = try ObjectSchemaDiscovery.schema(of: [Bird.self])
        XCTAssertEqual(schema.objectSchema(named: "Bird")?.properties.map(\.name), ["legs", "wingspan"])
    }

    /// Each property access finds its property by its storage's key path: a subclass's and its
    /// superclass's properties each read their own column.
    func testKeyPathsFindTheirProperty() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realmdb-swift-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("birds.realm"),
                                                                 objectTypes: [Bird.self]))
        try realm.write { realm.add(Bird(value: ["legs": 2, "wingspan": 1.5])) }
        let bird = try XCTUnwrap(realm.objects(Bird.self).first)
        XCTAssertEqual(bird.legs, 2)
        XCTAssertEqual(bird.wingspan, 1.5)
        try realm.write { bird.legs = 3 }
        XCTAssertEqual(realm.objects(Bird.self).filter("legs == 3 AND wingspan == 1.5").count, 1)
    }

    func testClassesWithTheSameNameAreAnError() {
        XCTAssertThrowsError(try ObjectSchemaDiscovery.schema(of: [Dog.self, OtherModule.Dog.self])) { error in
            XCTAssertEqual((error as? RealmError)?.code, .schemaInvalid)
            XCTAssertTrue("\(error)".contains("two classes are named 'Dog'"), "\(error)")
        }
    }
}

/// A second class named Dog.
enum OtherModule {
    final class Dog: Object {
        @Persisted var name: String
    }
}
