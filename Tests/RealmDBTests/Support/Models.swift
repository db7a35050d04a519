import Foundation
import RealmDB

/// The models of the seed pages' examples.
final class Toy: Object {
    @Persisted var name: String
    @Persisted var brand: String
}

final class Dog: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
    @Persisted var owner: Person?
    @Persisted var toys: List<Toy>
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

final class Person: Object {
    @Persisted(primaryKey: true) var id: ObjectId = ObjectId.generate()
    @Persisted(indexed: true) var name: String
    @Persisted var dogs: List<Dog>
    @Persisted var nickname: String?
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var favorites: Map<String, Dog?>
    @Persisted var extra: AnyRealmValue
}

/// One property of each stored type, required and optional.
final class AllTypes: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var bool: Bool
    @Persisted var int: Int
    @Persisted var int8: Int8
    @Persisted var int16: Int16
    @Persisted var int32: Int32
    @Persisted var int64: Int64
    @Persisted var float: Float
    @Persisted var double: Double
    @Persisted var string: String
    @Persisted var data: Data
    @Persisted var date: Date
    @Persisted var uuid: UUID
    @Persisted var objectId: ObjectId
    @Persisted var decimal: Decimal128
    @Persisted var optionalInt: Int?
    @Persisted var optionalString: String?
    @Persisted var optionalDate: Date?
    @Persisted var optionalDouble: Double?
    @Persisted var scores: List<Int>
    @Persisted var tags: List<String?>
    @Persisted var defaulted = 42
}

/// The legacy class methods instead of @Persisted options.
final class LegacyKeyed: Object {
    @Persisted var code: String
    @Persisted var rank: Int
    @Persisted var scratch: String
    @Persisted var stored: String

    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["rank"] }
    override class func ignoredProperties() -> [String] { ["scratch"] }
    override class func propertiesMapping() -> [String: String] { ["stored": "stored_name"] }
}

/// A subclass's properties follow its superclass's.
class Animal: Object {
    @Persisted var legs: Int
}

final class Bird: Animal {
    @Persisted var wingspan: Double
}

/// Embedded objects: one parent each.
final class Address: EmbeddedObject {
    @Persisted var street: String
    @Persisted var city: String
}

final class Contact: Object {
    @Persisted(primaryKey: true) var name: String
    @Persisted var home: Address?
    @Persisted var previous: List<Address>
    @Persisted var byLabel: Map<String, Address?>
}
