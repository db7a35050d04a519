import Foundation
import XCTest
import RealmDB

/// MutableSet, Map, LinkingObjects and AnyRealmValue, unmanaged and managed.
final class CollectionTypesTests: RealmTestCase {
    func testMutableSet() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann", "tags": ["a", "b", "a"]])
        XCTAssertEqual(person.tags.count, 2, "an unmanaged set keeps no duplicates")
        try realm.write { realm.add(person) }
        XCTAssertEqual(Set(person.tags), ["a", "b"])
        try realm.write {
            person.tags.insert("c")
            person.tags.insert("a")
            person.tags.remove("b")
        }
        XCTAssertEqual(Set(person.tags), ["a", "c"])
        XCTAssertTrue(person.tags.contains("c"))
        XCTAssertFalse(person.tags.contains("b"))
        try realm.write { person.tags.formUnion(["x", "y"]); person.tags.formIntersection(["x", "a", "q"]) }
        XCTAssertEqual(Set(person.tags), ["a", "x"])
        try realm.write { person.tags.subtract(["a"]) }
        XCTAssertEqual(Array(person.tags), ["x"])
        XCTAssertEqual(realm.objects(Person.self).where { $0.tags.contains("x") }.count, 1)
    }

    func testMap() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann"])
        person.scores["math"] = 90
        person.scores["art"] = 70
        person.scores["art"] = nil
        XCTAssertEqual(person.scores.count, 1)
        try realm.write { realm.add(person) }
        XCTAssertEqual(person.scores["math"], 90)
        try realm.write {
            person.scores["music"] = 80
            person.scores["math"] = 95
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: person.scores.entries.map { ($0.key, $0.value) }), ["math": 95, "music": 80])
        XCTAssertNil(person.scores["nosuch"])
        try realm.write {
            person.favorites["best"] = Dog(value: ["id": 1, "name": "Rex"])
        }
        XCTAssertEqual(person.favorites["best"]??.name, "Rex")
        XCTAssertEqual(realm.objects(Person.self).filter("scores['music'] == 80").count, 1)
        try realm.write { person.scores.removeAll() }
        XCTAssertTrue(person.scores.isEmpty)
    }

    func testLinkingObjects() throws {
        let realm = try openRealm()
        let rex = Dog(value: ["id": 1, "name": "Rex"])
        XCTAssertEqual(rex.owners.count, 0, "unmanaged objects have no linking objects")
        try realm.write {
            realm.add(Person(value: ["name": "Ann", "dogs": [rex]]))
            realm.add(Person(value: ["name": "Bo", "dogs": [rex]]))
        }
        XCTAssertEqual(rex.owners.map(\.name).sorted(), ["Ann", "Bo"])
        XCTAssertEqual(rex.owners.filter("name == 'Bo'").count, 1)
        try realm.write { realm.delete(realm.objects(Person.self).filter("name == 'Bo'")) }
        XCTAssertEqual(rex.owners.map(\.name), ["Ann"], "live")
        XCTAssertEqual(realm.objects(Dog.self).filter("owners.@count == 1").count, 1)
    }

    func testAnyRealmValue() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann", "extra": 5])
        XCTAssertEqual(person.extra, .int(5))
        try realm.write { realm.add(person) }
        XCTAssertEqual(person.extra.intValue, 5)
        let values: [AnyRealmValue] = [.none, .bool(true), .string("x\u{0}y"), .double(1.5), .float(2.5),
                                       .date(Date(timeIntervalSince1970: 5)), .data(Data([1, 2])), .objectId(ObjectId.generate()),
                                       .uuid(UUID()), .decimal128(try Decimal128(string: "1.5"))]
        for value in values {
            try realm.write { person.extra = value }
            XCTAssertEqual(person.extra, value)
        }
        let dog = Dog(value: ["id": 1, "name": "Rex"])
        try realm.write { person.extra = .object(dog) }
        XCTAssertEqual((person.extra.objectValue as? Dog)?.name, "Rex", "a link comes back as its class")
        try realm.write { person.extra = .int(3) }
        XCTAssertEqual(realm.objects(Person.self).where { $0.extra == .int(3) }.count, 1)
        XCTAssertEqual(realm.objects(Person.self).filter("extra == 3").count, 1)
    }
}
