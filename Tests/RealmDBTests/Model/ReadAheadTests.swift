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

    func testPagesTrustOnlyKeysFoundAtTheCurrentVersion() throws {
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        var iterator = dogs.makeIterator()
        XCTAssertEqual(iterator.next()?.name, "d0")
        XCTAssertEqual(iterator.iteration.page?.keysAreLive, true, "keys found at this version: no presence checks")
        XCTAssertEqual(dogs[300].name, "d300")
        try realm.write { realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: 400)!) }
        for id in 1..<256 { XCTAssertEqual(iterator.next()?.name, "d\(id)") }
        XCTAssertEqual(iterator.next()?.name, "d256")  // a new page, of keys found before the delete
        XCTAssertEqual(iterator.iteration.page?.keysAreLive, false, "keys found before a delete are checked")
        for id in 257..<400 { XCTAssertEqual(iterator.next()?.age, id) }
        XCTAssertEqual(iterator.next()?.isInvalidated, true, "the deleted object is handed out invalidated")
        XCTAssertEqual(iterator.next()?.name, "d401", "and the rest of its page reads its own values")
        XCTAssertEqual(dogs[399].name, "d399", "the results' own keys are found again at the new version")
        XCTAssertEqual(dogs[400].name, "d401")
        XCTAssertEqual(dogs.readAhead.page(containing: 400, of: try dogs.engineResults.keys(), dogs.engineResults,
                                           handle: dogs.handle).0.keysAreLive, true)
    }

    func testALoopThatDeletesObjectsAheadReadsEveryOtherObject() throws {
        // As a program writes it: inside one write, a loop over sorted results deletes objects
        // further on (in the page being read and in the next ones) and reads the rest.
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        var names: [String] = [], skipped: [Int] = []
        try realm.write {
            for (position, dog) in dogs.enumerated() {
                if position % 100 == 5 {
                    for id in [position + 3, position + 300] where id < 600 {
                        realm.delete(realm.object(ofType: Dog.self, forPrimaryKey: id)!)
                    }
                }
                if dog.isInvalidated { skipped.append(position); continue }
                names.append(dog.name)
                dog.age += 1
            }
        }
        var deleted = Set<Int>()
        for position in stride(from: 5, to: 600, by: 100) {
            for id in [position + 3, position + 300] where id < 600 { deleted.insert(id) }
        }
        XCTAssertEqual(Set(skipped), deleted)
        XCTAssertEqual(names, (0..<600).filter { !deleted.contains($0) }.map { "d\($0)" })
        XCTAssertEqual(dogs.map(\.age), (0..<600).filter { !deleted.contains($0) }.map { $0 + 1 })
    }
}
