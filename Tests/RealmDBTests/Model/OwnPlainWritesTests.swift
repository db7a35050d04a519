import Foundation
import XCTest
import RealmDB

/// Values read ahead for the objects of an iteration stay in use across this thread's plain
/// writes, except for the objects written; anything else makes them stale. Each test would
/// read a stale value if the record kept values current that are not.
final class OwnPlainWritesTests: DogsTestCase {
    private var dogs: Results<Dog> { realm.objects(Dog.self).sorted(byKeyPath: "id") }

    func testALoopThatWritesWhatItIteratesReadsEachValueOnce() throws {
        try realm.write {
            for dog in dogs {
                let age = dog.age
                dog.age = age + 1
                XCTAssertEqual(dog.age, age + 1, "the object written reads its new value")
                dog.name = dog.name + "!"
            }
        }
        XCTAssertEqual(dogs.map(\.age), Array(1...600))
        XCTAssertEqual(dogs.map(\.name), (0..<600).map { "d\($0)!" })
    }

    func testAnotherInstanceOfAnObjectAheadIsReadAgain() throws {
        try realm.write {
            for dog in dogs {
                _ = dog.age  // the page's ages are read at the first object
                if dog.id == 10 {
                    // The same stored object as the 20th, through another instance.
                    realm.object(ofType: Dog.self, forPrimaryKey: 20)!.age = -1
                }
                if dog.id == 20 { XCTAssertEqual(dog.age, -1) }
            }
        }
    }

    func testWritesByNameAndLinksMakeEveryValueStale() throws {
        try realm.write {
            for dog in dogs {
                _ = dog.age  // the page's ages are read at the first object
                if dog.id == 3 { dog.age = 3 }  // a plain write: a run starts
                if dog.id == 5 {
                    // By name: not recorded as a plain write, so every value read ahead is stale.
                    realm.object(ofType: Dog.self, forPrimaryKey: 40)!.setValue(-4, forKey: "age")
                    // A link: not a plain write either.
                    dog.owner = Person(value: ["name": "Ann"])
                }
                if dog.id == 6 { dog.age = 1000 }  // a plain write after them starts a new run, not the old one
                if dog.id == 40 { XCTAssertEqual(dog.age, -4) }
            }
        }
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 40)!.age, -4)
    }

    func testACancelledWriteMakesValuesStale() throws {
        let held = Array(dogs)
        try realm.beginWrite()
        for dog in held { dog.age += 1000 }
        XCTAssertEqual(held[599].age, 1599)
        try realm.cancelWrite()
        XCTAssertEqual(held.map(\.age), Array(0..<600), "the values the realm shows again")
    }

    func testMoreWritesThanOneRunRecords() throws {
        try realm.write {
            for id in 600..<20_000 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) }
        }
        try realm.write {
            for dog in dogs { dog.age = dog.age * 2 }
        }
        let ages = dogs.map(\.age)
        XCTAssertEqual(ages.count, 20_000)
        XCTAssertEqual(ages, (0..<20_000).map { $0 * 2 })
    }

    func testACommitOfAnotherThreadIsSeenAfterRefresh() throws {
        let held = Array(dogs)
        _ = held.map(\.age)  // read ahead
        onOtherThread {
            let other = try self.openRealm()
            try other.write { other.objects(Dog.self).where { $0.id == 7 }.first!.age = 77 }
        }
        try realm.write { held[0].age = 5 }  // beginWrite moves to the latest version
        XCTAssertEqual(held[7].age, 77)
    }

    /// Objects handed out by live results write plain values by key, without an accessor: the
    /// writes reach the realm, its observers and the objects' other uses as any write does.
    func testWritesByKeyReachTheRealmTheObserversAndTheObjects() throws {
        var updates: [[Int]] = []
        var initial = false
        let token = dogs.observe(keyPaths: ["age"]) { change in
            switch change {
            case .initial: initial = true
            case .update(_, _, _, let modifications): updates.append(modifications)
            case .error(let error): XCTFail("\(error)")
            }
        }
        runLoop(until: { initial })
        let kept = Array(dogs.prefix(3))
        try realm.write {
            for dog in dogs where dog.id % 2 == 0 { dog.age = -dog.id }
            kept[1].name = "renamed"  // an object kept from before: by key as well
        }
        runLoop(until: { !updates.isEmpty })
        XCTAssertEqual(updates.first, Array(stride(from: 0, to: 600, by: 2)), "every even dog, dog 0 too (a write is a modification)")
        XCTAssertEqual(realm.object(ofType: Dog.self, forPrimaryKey: 10)?.age, -10)
        XCTAssertEqual(realm.objects(Dog.self).filter("age < 0").count, 299)
        XCTAssertEqual(kept[1].name, "renamed")
        // The objects written by key still do what needs an accessor.
        XCTAssertFalse(kept[0].isInvalidated)
        try realm.write { kept[2].owner = Person(value: ["name": "Ann"]) }  // a link: through the accessor
        XCTAssertEqual(kept[2].owner?.name, "Ann")
        try realm.write { realm.delete(kept[0]) }
        XCTAssertTrue(kept[0].isInvalidated)
        token.invalidate()
    }
}
