import Foundation
import XCTest
import RealmDB

/// Lists on managed objects: live, written inside write transactions.
final class ListTests: RealmTestCase {
    func testManagedListOperations() throws {
        let realm = try openRealm()
        let object = AllTypes(value: ["id": 1, "scores": [5, 1, 4]])
        try realm.write { realm.add(object) }
        let scores = object.scores
        XCTAssertNotNil(scores.realm)
        XCTAssertEqual(Array(scores), [5, 1, 4])
        try realm.write {
            scores.append(9)
            scores.insert(0, at: 0)
            scores.remove(at: 2)
            scores[0] = -1
            scores.move(from: 0, to: 3)
            scores.swapAt(0, 1)
        }
        XCTAssertEqual(Array(scores), [4, 5, 9, -1])
        XCTAssertEqual(scores.index(of: 9), 2)
        XCTAssertEqual(Array(object.scores), [4, 5, 9, -1], "another read of the property sees the same list")
        try realm.write { object.scores = List() }
        XCTAssertEqual(object.scores.count, 0, "assigning a list replaces the contents")
        try realm.write { scores.append(contentsOf: [1, 2]); scores.removeAll() }
        XCTAssertTrue(scores.isEmpty)
    }

    func testListOfObjects() throws {
        let realm = try openRealm()
        let person = Person(value: ["name": "Ann"])
        try realm.write { realm.add(person) }
        try realm.write {
            person.dogs.append(Dog(value: ["id": 1, "name": "Rex"]))
            person.dogs.append(realm.create(Dog.self, value: ["id": 2, "name": "Fido"]))
        }
        XCTAssertEqual(person.dogs.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(realm.objects(Dog.self).count, 2, "an unmanaged object appended is added")
        try realm.write { realm.delete(person.dogs[0]) }
        XCTAssertEqual(person.dogs.map(\.name), ["Fido"], "a deleted object leaves the list")
    }

    func testListOfTheDeletedObjectIsInvalidated() throws {
        let realm = try openRealm()
        let object = AllTypes(value: ["id": 1, "scores": [1]])
        try realm.write { realm.add(object) }
        let scores = object.scores
        try realm.write { realm.delete(object) }
        XCTAssertTrue(scores.isInvalidated)
    }
}
