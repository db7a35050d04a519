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

    /// An unmanaged object's properties are read and written at their storage's offset, found
    /// from the key path: each property reaches its own storage, in a subclass too, and an
    /// `init()` that sets properties works before its class was ever discovered.
    func testUnmanagedPropertiesReachTheirOwnStorage() throws {
        let made = SelfInitializing()
        XCTAssertEqual(made.label, "made in init")
        XCTAssertEqual(made.count, 7)
        XCTAssertEqual(try ObjectSchemaDiscovery.schema(of: [SelfInitializing.self]).objectSchema(named: "SelfInitializing")?
            .properties.map(\.name), ["label", "count"])

        let values = AllTypes()
        values.id = 11; values.bool = true; values.int = -2; values.int8 = -3; values.int16 = 4; values.int32 = -5
        values.int64 = .min; values.float = 6.5; values.double = -7.25; values.string = "eight"
        values.data = Data([9]); values.optionalInt = 10; values.optionalString = "eleven"; values.optionalDouble = 12
        let bird = Bird()
        bird.legs = 2
        bird.wingspan = 1.5
        // The fields as discovery found them by reflection (their own offsets) hold what the
        // accessors wrote.
        func stored(_ object: Object, _ name: String) -> Any? {
            ObjectSchemaDiscovery.metadata(of: type(of: object)).fields.first { $0.name == name }?.value(of: object)
        }
        XCTAssertEqual(stored(values, "id") as? Int, 11)
        XCTAssertEqual(stored(values, "bool") as? Bool, true)
        XCTAssertEqual(stored(values, "int") as? Int, -2)
        XCTAssertEqual(stored(values, "int8") as? Int8, -3)
        XCTAssertEqual(stored(values, "int16") as? Int16, 4)
        XCTAssertEqual(stored(values, "int32") as? Int32, -5)
        XCTAssertEqual(stored(values, "int64") as? Int64, .min)
        XCTAssertEqual(stored(values, "float") as? Float, 6.5)
        XCTAssertEqual(stored(values, "double") as? Double, -7.25)
        XCTAssertEqual(stored(values, "string") as? String, "eight")
        XCTAssertEqual(stored(values, "data") as? Data, Data([9]))
        XCTAssertEqual(stored(values, "optionalInt") as? Int?, 10)
        XCTAssertEqual(stored(values, "optionalString") as? String?, "eleven")
        XCTAssertEqual(stored(values, "optionalDouble") as? Double?, 12)
        XCTAssertEqual(stored(values, "defaulted") as? Int, 42)
        XCTAssertEqual(stored(bird, "legs") as? Int, 2)
        XCTAssertEqual(stored(bird, "wingspan") as? Double, 1.5)
        // And the accessors read back what was written, of every object.
        let other = AllTypes()
        other.string = "other"
        XCTAssertEqual(values.string, "eight")
        XCTAssertEqual(other.string, "other")
        XCTAssertEqual(values.int64, .min)
        XCTAssertEqual(values.optionalString, "eleven")
        XCTAssertNil(other.optionalString)
        XCTAssertEqual(bird.legs, 2)
        XCTAssertEqual(bird.wingspan, 1.5)
        let animal = Animal()
        animal.legs = 4
        XCTAssertEqual(animal.legs, 4, "the superclass alone, through the same key path")
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

/// A model whose `init()` sets its properties: discovery makes instances of it, so setting a
/// property of a new object must not itself start a discovery.
private final class SelfInitializing: Object {
    @Persisted var label: String
    @Persisted var count: Int

    required init() {
        super.init()
        label = "made in init"
        count = 7
    }
}
