import Foundation
import XCTest
@testable import RealmDB

/// The pages `Results.subscript` reads values ahead in: kept across this thread's plain writes
/// while the engine keeps the results' keys, dropped when the keys or anything else changed.
final class ReadAheadTests: DogsTestCase {
    func testAnIndexLoopOfPlainWritesKeepsItsPages() throws {
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        try realm.write {
            for i in 0..<dogs.count {
                let dog = dogs[i]
                dog.age = dog.age + 1
                XCTAssertEqual(dogs[i].age, i + 1, "the object written reads its new value through the results")
                if i > 0 { XCTAssertEqual(dogs[i - 1].age, i, "and so does the one before") }
            }
        }
        XCTAssertEqual(dogs.readAhead.pagesMade, 3, "600 objects: three pages, each made once")
        XCTAssertEqual(dogs.map(\.age), Array(1...600))
    }

    func testWritingTheSortKeyOrTheFilteredPropertyShowsAtOnce() throws {
        let byAge = realm.objects(Dog.self).sorted(byKeyPath: "age")
        let young = realm.objects(Dog.self).filter("age < 300").sorted(byKeyPath: "id")
        XCTAssertEqual(byAge[0].id, 0)
        XCTAssertEqual(young[0].id, 0)
        try realm.write {
            // Every page read in this transaction first, so that a kept page would be used.
            XCTAssertEqual((0..<600).map { byAge[$0].id }, Array(0..<600))
            XCTAssertEqual((0..<300).map { young[$0].id }, Array(0..<300))
            byAge[0].age = 1000  // the sort's property: dog 0 goes last, the others move up
            XCTAssertEqual((0..<600).map { byAge[$0].id }, Array(1..<600) + [0])
            XCTAssertEqual(byAge[599].age, 1000)
            young[0].age = 500  // the query's property: dog 1 leaves
            XCTAssertEqual(young.count, 298)
            XCTAssertEqual((0..<298).map { young[$0].id }, Array(2..<300))
            XCTAssertEqual(young[0].age, 2)
        }
    }

    func testOtherWritesDropThePages() throws {
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        XCTAssertEqual(dogs[10].name, "d10")
        try realm.write {
            XCTAssertEqual(dogs[10].name, "d10")  // (beginning the write moved the counter: a new page)
            let made = dogs.readAhead.pagesMade
            dogs[10].name = "ten"  // plain
            XCTAssertEqual(dogs[11].name, "d11")
            XCTAssertEqual(dogs.readAhead.pagesMade, made, "kept across a plain write")
            realm.add(Dog(value: ["id": 1000, "name": "new"]))  // not plain: a create
            XCTAssertEqual(dogs[10].name, "ten")
            XCTAssertEqual(dogs[600].name, "new")
            XCTAssertGreaterThan(dogs.readAhead.pagesMade, made, "dropped after a create")
            dogs[12].owner = Person(value: ["name": "Ann"])  // not plain: a link
            XCTAssertEqual(dogs[12].owner?.name, "Ann")
        }
        try realm.write { realm.delete(dogs[0]) }
        XCTAssertEqual(dogs[0].id, 1)
        XCTAssertEqual(dogs[9].name, "ten")
    }
}
