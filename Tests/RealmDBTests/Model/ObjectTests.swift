import Foundation
import XCTest
@testable import RealmDB

/// Objects: unmanaged values, `init(value:)`, access by name, becoming managed on `add`.
final class ObjectTests: RealmTestCase {
    func testUnmanagedObjectHoldsItsValues() {
        let dog = Dog()
        XCTAssertEqual(dog.name, "")
        XCTAssertEqual(dog.age, 0)
        XCTAssertNil(dog.owner)
        XCTAssertEqual(dog.toys.count, 0)
        dog.name = "Rex"
        dog.age = 3
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.age, 3)
        XCTAssertNil(dog.realm)
        XCTAssertFalse(dog.isInvalidated)
        XCTAssertEqual(AllTypes().defaulted, 42, "an initial value in the declaration is the unmanaged default")
    }

    func testInitWithDictionaryAndArray() {
        let dog = Dog(value: ["id": 7, "name": "Rex", "age": 3, "toys": [["name": "ball", "brand": "Acme"]]])
        XCTAssertEqual(dog.id, 7)
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.toys.count, 1)
        XCTAssertEqual(dog.toys[0].brand, "Acme")
        let toy = Toy(value: ["bone", "Chewy"])
        XCTAssertEqual(toy.name, "bone")
        XCTAssertEqual(toy.brand, "Chewy")
        // A later write through the property wins over the value given by name.
        dog.name = "Max"
        XCTAssertEqual(dog.name, "Max")
        XCTAssertEqual(dog["name"] as? String, "Max")
    }

    func testSubscriptReadsAndWritesByName() throws {
        let realm = try openRealm()
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        dog["age"] = 4
        XCTAssertEqual(dog.age, 4)
        try realm.write { realm.add(dog) }
        XCTAssertEqual(dog["name"] as? String, "Rex")
        try realm.write { dog["name"] = "Rexy" }
        XCTAssertEqual(dog.name, "Rexy")
        XCTAssertEqual(dog.value(forKey: "age") as? Int, 4)
    }

    func testAddMakesTheObjectAndItsLinksManaged() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann"])
        let dog = Dog(value: ["id": 1, "name": "Rex", "age": 2])
        dog.owner = person
        dog.toys.append(Toy(value: ["ball", "Acme"]))
        person.dogs.append(dog)
        try realm.write { realm.add(dog) }
        XCTAssertNotNil(dog.realm)
        XCTAssertNotNil(person.realm, "a linked unmanaged object is added with the object")
        XCTAssertEqual(realm.objects(Person.self).count, 1, "a cycle of new objects adds each once")
        XCTAssertEqual(realm.objects(Toy.self).count, 1)
        let stored = try XCTUnwrap(realm.object(ofType: Dog.self, forPrimaryKey: 1))
        XCTAssertEqual(stored.owner?.name, "Ann")
        XCTAssertEqual(stored.owner?.dogs.first?.name, "Rex")
        XCTAssertEqual(stored.toys.map(\.brand), ["Acme"])
        XCTAssertTrue(stored.isSameObject(as: dog))
        XCTAssertFalse(stored.isSameObject(as: Dog()))
    }

    func testEveryTypeRoundTrips() throws {
        let realm = try openRealm()
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = UUID()
        let objectId = ObjectId.generate()
        let object = AllTypes()
        object.id = 1
        object.bool = true
        object.int = Int.max
        object.int8 = -128
        object.int16 = 32767
        object.int32 = Int32.min
        object.int64 = Int64.min
        object.float = 1.5
        object.double = -2.25
        object.string = "héllo\u{0}wörld"
        object.data = Data([0, 1, 255])
        object.date = date
        object.uuid = uuid
        object.objectId = objectId
        object.decimal = try Decimal128(string: "123.456")
        object.optionalInt = 5
        object.optionalDate = nil
        object.scores.append(contentsOf: [3, 1, 2])
        object.tags.append(contentsOf: ["a", nil])
        try realm.write { realm.add(object) }

        let stored = try XCTUnwrap(realm.object(ofType: AllTypes.self, forPrimaryKey: 1))
        XCTAssertEqual(stored.bool, true)
        XCTAssertEqual(stored.int, Int.max)
        XCTAssertEqual(stored.int8, -128)
        XCTAssertEqual(stored.int16, 32767)
        XCTAssertEqual(stored.int32, Int32.min)
        XCTAssertEqual(stored.int64, Int64.min)
        XCTAssertEqual(stored.float, 1.5)
        XCTAssertEqual(stored.double, -2.25)
        XCTAssertEqual(stored.string, "héllo\u{0}wörld", "a NUL byte inside a string is kept")
        XCTAssertEqual(stored.data, Data([0, 1, 255]))
        XCTAssertEqual(stored.date, date)
        XCTAssertEqual(stored.uuid, uuid)
        XCTAssertEqual(stored.objectId, objectId)
        XCTAssertEqual(stored.decimal.stringValue, "123.456")
        XCTAssertEqual(stored.optionalInt, 5)
        XCTAssertNil(stored.optionalString)
        XCTAssertNil(stored.optionalDate)
        XCTAssertEqual(Array(stored.scores), [3, 1, 2])
        XCTAssertEqual(Array(stored.tags), ["a", nil])
        XCTAssertEqual(stored.defaulted, 42)

        try realm.write {
            stored.optionalInt = nil
            stored.optionalString = "set"
            stored.int8 = 127
        }
        XCTAssertNil(stored.optionalInt)
        XCTAssertEqual(stored.optionalString, "set")
        XCTAssertEqual(stored.int8, 127)
    }

    /// Values read ahead (a page of results, an object's row) never outlive their version.
    func testReadsAlwaysShowTheCurrentVersion() throws {
        let realm = try openRealm()
        try realm.write { for id in 0..<600 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) } }
        let dog = realm.object(ofType: Dog.self, forPrimaryKey: 7)!
        XCTAssertEqual(dog.name, "d7")
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 7)!.name = "seven" }
        }
        XCTAssertEqual(dog.name, "d7", "the realm still shows its version")
        realm.refresh()
        XCTAssertEqual(dog.name, "seven", "and the new one after refresh")
        let all = realm.objects(Dog.self).sorted(byKeyPath: "id")
        let first = all[0], last = all[599]
        XCTAssertEqual(first.age + last.age, 599)
        realm.beginWriteOrFail()
        first.age = 1000
        XCTAssertEqual(first.age, 1000, "a write is read back inside the transaction")
        XCTAssertEqual(all[1].age, 1)
        realm.cancelWrite()
        XCTAssertEqual(first.age, 0, "and gone after cancel")
        var ages = 0
        try realm.write {
            for dog in all {
                ages += dog.age
                dog.age += 1
            }
        }
        XCTAssertEqual(ages, 599 * 600 / 2)
        XCTAssertEqual(all.map(\.age).reduce(0, +), 599 * 600 / 2 + 600, "every object was written once, and read back")
        try realm.write { realm.delete(last) }
        XCTAssertTrue(last.isInvalidated)
        XCTAssertEqual(all.count, 599)
    }

    /// A frozen object read on its own is read by many threads at once: none of them keeps
    /// values on it (which would be a write to shared state), and each sees its version.
    func testAFrozenObjectIsReadFromManyThreadsAtOnce() throws {
        let realm = try openRealm()
        try realm.write { for id in 0..<50 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) } }
        let frozenDog = UncheckedBox(realm.object(ofType: Dog.self, forPrimaryKey: 7)!.freeze())
        let frozenDogs = UncheckedBox(realm.objects(Dog.self).sorted(byKeyPath: "id").freeze())
        try realm.write { realm.object(ofType: Dog.self, forPrimaryKey: 7)!.name = "seven" }
        let wrong = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let dog = frozenDog.value
                if dog.name != "d7" || dog.age != 7 || dog.id != 7 { wrong.withLock { $0 += 1 } }
                let other = frozenDogs.value[7]
                if other.name != "d7" || other.age != 7 { wrong.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 7)!.name, "seven")
    }

    func testDeleteInvalidatesTheObject() throws {
        let realm = try openRealm()
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        try realm.write { realm.add(dog) }
        try realm.write { realm.delete(dog) }
        XCTAssertTrue(dog.isInvalidated)
        XCTAssertNil(realm.object(ofType: Dog.self, forPrimaryKey: 1))
    }

    func testUpdatePolicies() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 1])) }
        try realm.write { realm.add(Dog(value: ["id": 1, "name": "Rex", "age": 5]), update: .modified) }
        XCTAssertEqual(realm.objects(Dog.self).count, 1)
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.age, 5)
        try realm.write { realm.create(Dog.self, value: ["id": 1, "name": "Max"], update: .all) }
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 1)?.name, "Max")
    }

    func testDescriptionListsTheProperties() throws {
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        XCTAssertTrue(dog.description.hasPrefix("Dog {"), dog.description)
        XCTAssertTrue(dog.description.contains("name = Rex;"), dog.description)
    }

    func testFreezeAndThaw() throws {
        let realm = try openRealm()
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        try realm.write { realm.add(dog) }
        let frozen = dog.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { dog.name = "Max" }
        XCTAssertEqual(frozen.name, "Rex", "a frozen object keeps its version")
        let read = expectation(description: "read on another thread")
        let sendable = UncheckedBox(frozen)
        Thread { XCTAssertEqual(sendable.value.name, "Rex"); read.fulfill() }.start()
        wait(for: [read], timeout: 10)
        XCTAssertEqual(frozen.thaw()?.name, "Max")
        XCTAssertThrowsError(try Dog().frozenCopy()) { error in
            XCTAssertEqual((error as? RealmError)?.code, .logic)
        }
    }
}

/// Hands a value to another thread in a test.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension Realm {
    func beginWriteOrFail(file: StaticString = #filePath, line: UInt = #line) {
        do { try beginWrite() } catch { XCTFail("\(error)", file: file, line: line) }
    }
}
