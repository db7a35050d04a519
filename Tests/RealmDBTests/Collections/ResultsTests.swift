import Foundation
import XCTest
@testable import RealmDB

/// Results: live, lazy, filtered with the query language and NSPredicate-style substitutions,
/// sorted, aggregated, and read by key path.
final class ResultsTests: RealmTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm()
        try realm.write {
            let ann = Person(value: ["name": "Ann"])
            let bo = Person(value: ["name": "Bo"])
            for (id, name, age, owner) in [(1, "Rex", 3, ann), (2, "Fido", 7, bo), (3, "Bella", 1, ann), (4, "Max", 7, bo)] {
                let dog = Dog(value: ["id": id, "name": name, "age": age])
                dog.owner = owner
                dog.toys.append(Toy(value: ["name": "toy\(id)", "brand": id % 2 == 0 ? "Acme" : "Chewy"]))
                owner.dogs.append(dog)
                realm.add(dog)
            }
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    func testResultsAreLive() throws {
        let old = realm.objects(Dog.self).filter("age > 5")
        XCTAssertEqual(old.count, 2)
        try realm.write { realm.add(Dog(value: ["id": 5, "name": "Odie", "age": 9])) }
        XCTAssertEqual(old.count, 3, "the same Results shows the new version")
        XCTAssertEqual(old.last?.name, "Odie")
    }

    func testFilterSubstitutions() {
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.filter("age == %@ AND name BEGINSWITH %@", 7, "F").map(\.name), ["Fido"])
        XCTAssertEqual(dogs.filter("%K > %@", "age", 2).count, 3)
        XCTAssertEqual(dogs.filter("age > $0 AND name != $1", 2, "Max").map(\.name).sorted(), ["Fido", "Rex"])
        XCTAssertEqual(dogs.filter("name IN %@", ["Rex", "Max"]).count, 2)
        XCTAssertEqual(dogs.filter("owner.name == %@", "Ann").count, 2)
        XCTAssertEqual(dogs.filter("ANY toys.brand == 'Acme'").count, 2)
        XCTAssertEqual(dogs.filter("name == '%@'").count, 0, "a % inside quotes is text")
        let ann = realm.objects(Person.self).filter("name == 'Ann'").first!
        XCTAssertEqual(dogs.filter("owner == %@", ann).count, 2, "an object argument is a link")
        XCTAssertEqual(dogs.filter("owner == %@", Optional<Person>.none as Any).count, 0)
    }

    func testChainedFilterSortDistinct() {
        let dogs = realm.objects(Dog.self).filter("age > 1").sorted(byKeyPath: "name", ascending: false)
        XCTAssertEqual(dogs.map(\.name), ["Rex", "Max", "Fido"])
        let sorted = realm.objects(Dog.self).sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
        XCTAssertEqual(sorted.map(\.name), ["Fido", "Max", "Rex", "Bella"])
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "owner.name").first?.owner?.name, "Ann")
        XCTAssertEqual(realm.objects(Dog.self).distinct(by: ["age"]).count, 3)
        XCTAssertEqual(sorted.index(matching: "name == %@", "Rex"), 2)
        XCTAssertEqual(sorted.index(of: sorted[3]), 3)
        XCTAssertEqual(sorted.objects(at: IndexSet([0, 3])).map(\.name), ["Fido", "Bella"])
    }

    func testIterationVisitsEachObjectOnceWhileChangingThem() throws {
        let young = realm.objects(Dog.self).where { $0.age < 5 }.sorted(byKeyPath: "age")
        var visited: [String] = []
        try realm.write {
            for dog in young {
                visited.append(dog.name)
                dog.age += 10  // leaves the results
            }
        }
        XCTAssertEqual(visited, ["Bella", "Rex"])
        XCTAssertEqual(young.count, 0)
    }

    /// Objects a live Results hands out write by key until a use needs their accessor: each
    /// write reads back at once, reaches an observer as a modification, and links, lists and
    /// observers on the same objects (which make the accessor) still work.
    func testObjectsOfResultsWriteAndReadBackThemselves() throws {
        let everyone = realm.objects(Dog.self).sorted(byKeyPath: "id")
        var modified: [Int] = []
        let token = everyone.observe { change in
            if case .update(_, _, _, let modifications) = change { modified = modifications }
        }
        runLoop(until: { everyone.count == 4 })
        spinRunLoop(0.05)
        try realm.write {
            for dog in everyone {
                let before = dog.age
                dog.age += 1
                XCTAssertEqual(dog.age, before + 1, "a write reads back on the same object")
                dog.name += "!"
                XCTAssertEqual(dog.name.last, "!")
            }
            let first = everyone[0]
            first.owner = nil  // a link
            first.toys.append(Toy(value: ["name": "new", "brand": "Acme"]))  // a list, through the accessor
            first.age = 100  // after the accessor was made
        }
        XCTAssertEqual(everyone.map(\.age), [100, 8, 2, 8])
        XCTAssertEqual(everyone.map(\.name), ["Rex!", "Fido!", "Bella!", "Max!"])
        XCTAssertNil(everyone[0].owner)
        XCTAssertEqual(everyone[0].toys.count, 2)
        runLoop(until: { modified == [0, 1, 2, 3] })
        token.invalidate()
    }

    /// `map` visits what iteration visits: each object once, in order, even when the transform
    /// moves it out of the results; and a transform's error reaches the caller.
    func testMapVisitsEachObjectOnceInOrder() throws {
        let young = realm.objects(Dog.self).where { $0.age < 5 }.sorted(byKeyPath: "age")
        let names = try realm.write {
            young.map { dog -> String in
                dog.age += 10  // leaves the results
                return dog.name
            }
        }
        XCTAssertEqual(names, ["Bella", "Rex"])
        XCTAssertEqual(young.count, 0)
        XCTAssertEqual(realm.objects(Dog.self).sorted(byKeyPath: "id").map(\.id), [1, 2, 3, 4])
        XCTAssertEqual(realm.objects(Dog.self).where { $0.age > 100 }.map(\.name), [])
        // More objects than a page of read-ahead values.
        try realm.write { for id in 10..<600 { realm.add(Dog(value: ["id": id, "name": "d\(id)", "age": id])) } }
        XCTAssertEqual(realm.objects(Dog.self).where { $0.id >= 10 }.sorted(byKeyPath: "id").map(\.age), Array(10..<600))
        struct Stop: Error {}
        XCTAssertThrowsError(try realm.objects(Dog.self).map { (dog: Dog) throws(Stop) -> Int in
            if dog.id == 3 { throw Stop() }
            return dog.id
        }) { XCTAssertTrue($0 is Stop) }
    }

    func testPrefixIsTheFirstObjectsOfTheOrder() {
        let oldest = realm.objects(Dog.self).sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")]).prefix(3)
        XCTAssertEqual(oldest.map(\.name), ["Fido", "Max", "Rex"])
        XCTAssertEqual(realm.objects(Dog.self).prefix(0).count, 0)
        XCTAssertEqual(realm.objects(Dog.self).prefix(-5).count, 0)
        XCTAssertEqual(realm.objects(Dog.self).prefix(100).count, 4)
    }

    func testAggregates() {
        let dogs = realm.objects(Dog.self)
        XCTAssertEqual(dogs.min(ofProperty: "age") as Int?, 1)
        XCTAssertEqual(dogs.max(ofProperty: "age") as Int?, 7)
        XCTAssertEqual(dogs.sum(ofProperty: "age") as Int, 18)
        XCTAssertEqual(dogs.average(ofProperty: "age") as Double?, 4.5)
        let none = dogs.filter("age > 100")
        XCTAssertNil(none.min(ofProperty: "age") as Int?)
        XCTAssertEqual(none.sum(ofProperty: "age") as Int, 0)
        XCTAssertNil(none.average(ofProperty: "age") as Double?)
    }

    func testKeyValueCoding() throws {
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        XCTAssertEqual(dogs.value(forKey: "name") as? [String], ["Rex", "Fido", "Bella", "Max"])
        XCTAssertEqual(dogs.value(forKeyPath: "owner.name") as? [String], ["Ann", "Bo", "Ann", "Bo"])
        let people = realm.objects(Person.self).sorted(byKeyPath: "name")
        XCTAssertEqual(people.value(forKeyPath: "dogs.name").map { $0 as? [String] }, [["Rex", "Bella"], ["Fido", "Max"]],
                       "through a to-many link, each object's values")
        try realm.write { dogs.filter("age == 7").setValue(8, forKey: "age") }
        XCTAssertEqual(dogs.filter("age == 8").count, 2)
    }

    /// `map(\.property)` reads the column; key paths that go further map object by object, and
    /// both give what mapping each object gives.
    func testMapByKeyPathReadsThePropertyOrMapsEachObject() throws {
        let dogs = realm.objects(Dog.self).sorted(byKeyPath: "id")
        XCTAssertEqual(_KeyPathRecorder.componentCount(of: \Dog.name), 1)
        XCTAssertEqual(_KeyPathRecorder.componentCount(of: \Dog.name.count), 2)
        XCTAssertNil(_KeyPathRecorder.componentCount(of: \Dog.owner?.name))
        for _ in 0..<2 {  // worked out, then remembered
            XCTAssertEqual(_KeyPathRecorder.singlePropertyName(of: \Dog.name), "name")
            XCTAssertNil(_KeyPathRecorder.singlePropertyName(of: \Dog.name.count))
            XCTAssertNil(_KeyPathRecorder.singlePropertyName(of: \Dog.owner?.name))
        }
        XCTAssertEqual(dogs.map(\.name), ["Rex", "Fido", "Bella", "Max"])
        XCTAssertEqual(dogs.map(\.age), [3, 7, 1, 7])
        XCTAssertEqual(dogs.filter("age > 5").map(\.id), [2, 4])
        // Past the property: the same answers as mapping each object.
        XCTAssertEqual(dogs.map(\.age.byteSwapped), [3, 7, 1, 7].map(\.byteSwapped))
        XCTAssertEqual(dogs.map(\.owner?.name), ["Ann", "Bo", "Ann", "Bo"])
        XCTAssertEqual(dogs.map { $0.name.count }, [3, 4, 5, 3])
        let people = realm.objects(Person.self).sorted(byKeyPath: "name")
        XCTAssertEqual(people.map(\.nickname), [nil, nil])
        XCTAssertEqual(people.map(\.id), people.map { $0.id })
        XCTAssertEqual(realm.objects(Dog.self).filter("age > 100").map(\.name), [])
    }

    func testMapByKeyPathReadsNumbersOfEveryWidthAsEachObjectDoes() throws {
        let extremes = [Int.min, -1, 0, 1, Int.max]
        let doubles = [-Double.infinity, -0.0, 0.5, .greatestFiniteMagnitude, .nan]
        try realm.write {
            // 300 objects: several clusters, and runs of 64 keys that cross them.
            for id in 0..<300 {
                realm.add(AllTypes(value: ["id": id, "int": extremes[id % 5] / (id % 3 + 1), "int32": Int32(-id),
                                           "double": doubles[id % 5], "optionalInt": id % 4 == 0 ? nil : id,
                                           "optionalDouble": id % 4 == 1 ? nil : Double(id) / 3]))
            }
        }
        func check(_ all: Results<AllTypes>, _ what: String) {
            XCTAssertEqual(all.map(\.int), all.map { $0.int }, what)
            XCTAssertEqual(all.map(\.id), all.map { $0.id }, what)
            XCTAssertEqual(all.map(\.double).map(\.bitPattern), all.map { $0.double.bitPattern }, what)
            XCTAssertEqual(all.map(\.int32), all.map { $0.int32 }, what)
            XCTAssertEqual(all.map(\.optionalInt), all.map { $0.optionalInt }, what)
            XCTAssertEqual(all.map(\.optionalDouble), all.map { $0.optionalDouble }, what)
            XCTAssertEqual(all.map(\.defaulted), Array(repeating: 42, count: all.count), what)
        }
        let byID = realm.objects(AllTypes.self).sorted(byKeyPath: "id", ascending: false)
        XCTAssertEqual(byID.map(\.int)[299], Int.min)
        XCTAssertEqual(byID.map(\.int)[295], Int.max / 2)
        XCTAssertEqual(byID.map(\.int)[296], 1)
        check(byID, "sorted")
        check(realm.objects(AllTypes.self).filter("int < 0 OR optionalInt == nil"), "filtered")
        try realm.write {
            realm.delete(realm.objects(AllTypes.self).filter("id IN {7, 64, 65, 200}"))
            byID[10].int = 12345
            check(byID, "inside a write that changed and deleted objects")
            XCTAssertEqual(byID.map(\.int)[10], 12345)
        }
        check(byID, "after the write")
        check(byID.freeze(), "frozen")
        XCTAssertEqual(byID.count, 296)
    }

    func testFrozenResults() throws {
        let frozen = realm.objects(Dog.self).freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { realm.add(Dog(value: ["id": 9])) }
        XCTAssertEqual(frozen.count, 4)
        let box = UncheckedBox(frozen)
        onOtherThread { XCTAssertEqual(box.value.filter("age == 7").count, 2) }
        XCTAssertEqual(frozen.thaw()?.count, 5)
    }

    func testMalformedQueriesThrowWithTheirOffset() {
        let dogs = realm.objects(Dog.self)
        let cases: [(String, [Any])] = [
            ("age >", []), ("nosuch == 1", []), ("age == 'text'", []), ("name == %@", []),
            ("age == %d", [1]), ("%K == 1", [5]), ("age == $3", [1]), ("name == %@", [Date.self]),
            (String(repeating: "(", count: 10_000) + "age == 1", []), ("age == %@", [UInt64.max]),
            ("age == %@", [[[1]]]), ("owner == %@", [Dog()]),
        ]
        for (query, args) in cases {
            XCTAssertThrowsError(try dogs.queryWithArguments(query, args), query) { error in
                XCTAssertTrue([.query, .invalidArgument, .wrongType, .outOfRange].contains((error as? RealmError)?.code),
                              "\(query): \(error)")
            }
        }
        XCTAssertEqual(try dogs.query("name == %@", "a\u{0}b").count, 0, "a NUL byte in an argument is a value, not an end")
        XCTAssertEqual(try dogs.query("name == 'a\u{0}b'").count, 0, "and in a quoted string")
        XCTAssertEqual(try dogs.query("age == %@", Int64.max).count, 0)
        XCTAssertThrowsError(try dogs.query("age >")) { error in
            XCTAssertEqual((error as? RealmError)?.offset, 5)
            let text = "\(error)"
            XCTAssertEqual(text.components(separatedBy: "offset 5").count, 2, "the offset said once: \(text)")
        }
    }
}

extension Results where Element: Object {
    /// `query` with an array of arguments (tests build them in tables).
    func queryWithArguments(_ format: String, _ args: [Any]) throws -> Results<Element> {
        switch args.count {
        case 0: return try query(format)
        case 1: return try query(format, args[0])
        default: return try query(format, args[0], args[1])
        }
    }
}
