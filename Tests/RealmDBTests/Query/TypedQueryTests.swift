import Foundation
import XCTest
@testable import RealmDB

/// Type-safe queries: each is checked against the same query written as text, so that a
/// mistranslated operator or operand fails.
final class TypedQueryTests: RealmTestCase {
    private var realm: Realm!
    private var dogs: Results<Dog>!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm()
        try realm.write {
            let ann = Person(value: ["name": "Ann", "nickname": "annie"])
            let bo = Person(value: ["name": "Bo"])
            let rows: [(Int, String, Int, Person, [String])] = [
                (1, "Rex", 3, ann, ["Ball", "bone"]), (2, "Fido", 7, bo, ["rope"]), (3, "Bella", 1, ann, []),
                (4, "Max", 7, bo, ["ball", "Frisbee", "stick"]), (5, "Rüdiger", 12, bo, ["Ball"]),
            ]
            for (id, name, age, owner, toys) in rows {
                let dog = Dog(value: ["id": id, "name": name, "age": age])
                dog.owner = owner
                for toy in toys { dog.toys.append(Toy(value: ["name": toy, "brand": toy.count > 4 ? "Acme" : "Chewy"])) }
                realm.add(dog)
            }
        }
        dogs = realm.objects(Dog.self)
    }

    override func tearDownWithError() throws {
        dogs = nil
        realm = nil
        try super.tearDownWithError()
    }

    private func ids(_ results: Results<Dog>) -> [Int] { results.map(\.id).sorted() }

    private func check(_ typed: Results<Dog>, _ text: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) {
        let expected = ids(dogs.filter(text, args))
        XCTAssertEqual(ids(typed), expected, text, file: file, line: line)
        XCTAssertFalse(expected.isEmpty || expected.count == dogs.count, "\(text) should select some dogs, not none or all",
                       file: file, line: line)
    }

    func testComparisonsAndLogic() {
        check(dogs.where { $0.age > 5 }, "age > 5")
        check(dogs.where { $0.age >= 7 }, "age >= 7")
        check(dogs.where { $0.age < 3 }, "age < 3")
        check(dogs.where { $0.age <= 3 }, "age <= 3")
        check(dogs.where { $0.age == 7 }, "age == 7")
        check(dogs.where { $0.age != 7 }, "age != 7")
        check(dogs.where { $0.age > 2 && $0.name.starts(with: "R") }, "age > 2 AND name BEGINSWITH 'R'")
        check(dogs.where { $0.age == 1 || $0.age == 12 }, "age == 1 OR age == 12")
        check(dogs.where { !($0.age == 7) }, "NOT age == 7")
        check(dogs.where { $0.age.contains(3...7) }, "age BETWEEN {3, 7}")
        check(dogs.where { $0.id.in([1, 4, 9]) }, "id IN {1, 4, 9}")
        check(dogs.where { $0.age * 2 > 10 }, "age * 2 > 10")
        check(dogs.where { $0.age + $0.id == 11 }, "age + id == 11")
    }

    func testStrings() {
        check(dogs.where { $0.name.ends(with: "x") }, "name ENDSWITH 'x'")
        check(dogs.where { $0.name.contains("E", options: .caseInsensitive) }, "name CONTAINS[c] 'E'")
        check(dogs.where { $0.name.equals("rudiger", options: [.caseInsensitive, .diacriticInsensitive]) }, "name ==[cd] 'rudiger'")
        check(dogs.where { $0.name.like("?e*") }, "name LIKE '?e*'")
        check(dogs.where { $0.name == "Max" }, "name == 'Max'")
    }

    func testLinksAndLists() {
        check(dogs.where { $0.owner.name == "Ann" }, "owner.name == 'Ann'")
        check(dogs.where { $0.owner.nickname == "annie" }, "owner.nickname == 'annie'")
        check(dogs.where { $0.owner.nickname == nil }, "owner.nickname == nil")
        check(dogs.where { $0.toys.name.contains("ball", options: .caseInsensitive) }, "ANY toys.name CONTAINS[c] 'ball'")
        check(dogs.where { $0.toys.brand == "Acme" }, "ANY toys.brand == 'Acme'")
        check(dogs.where { $0.toys.count > 1 }, "toys.@count > 1")
        let ann = realm.objects(Person.self).where { $0.name == "Ann" }.first!
        check(dogs.where { $0.owner == ann }, "owner == %@", ann)
        let bone = realm.objects(Toy.self).where { $0.name == "bone" }.first!
        check(dogs.where { $0.toys.contains(bone) }, "%@ IN toys", bone)
    }

    func testValuesAreArgumentsNotText() {
        // A value that would change the query if spliced into text matches itself only.
        XCTAssertEqual(dogs.where { $0.name == "x' OR name != '" }.count, 0)
        XCTAssertEqual(dogs.where { $0.name == "a\u{0}b" }.count, 0)
    }

    /// Every stored type as an argument (scalars convert through their own type, links and
    /// mixed values another way): each typed query selects what the same text query does.
    func testEveryStoredTypeAsAnArgument() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25), uuid = UUID(), objectId = ObjectId.generate()
        let decimal = try Decimal128(string: "12.5")
        try realm.write {
            realm.add(AllTypes(value: ["id": 1, "bool": true, "int": Int.min, "int8": Int8.min, "int16": Int16.max,
                                       "int32": Int32.min, "int64": Int64.max, "float": Float(1.5), "double": -0.0,
                                       "string": "a\u{0}b", "data": Data([0, 255]), "date": date, "uuid": uuid,
                                       "objectId": objectId, "decimal": decimal, "optionalInt": 7,
                                       "optionalString": "é", "optionalDate": date, "optionalDouble": 2.5]))
            realm.add(AllTypes(value: ["id": 2]))
        }
        let all = realm.objects(AllTypes.self)
        func same(_ typed: Results<AllTypes>, _ text: String, _ arg: Any, expected: [Int], line: UInt = #line) {
            XCTAssertEqual(typed.map(\.id).sorted(), expected, text, line: line)
            XCTAssertEqual(all.filter(text, arg).map(\.id).sorted(), expected, text, line: line)
        }
        same(all.where { $0.bool == true }, "bool == %@", true, expected: [1])
        same(all.where { $0.int == Int.min }, "int == %@", Int.min, expected: [1])
        same(all.where { $0.int8 == Int8.min }, "int8 == %@", Int8.min, expected: [1])
        same(all.where { $0.int16 > 0 }, "int16 > %@", 0, expected: [1])
        same(all.where { $0.int32 < Int32(0) }, "int32 < %@", Int32(0), expected: [1])
        same(all.where { $0.int64 == Int64.max }, "int64 == %@", Int64.max, expected: [1])
        same(all.where { $0.float == 1.5 }, "float == %@", Float(1.5), expected: [1])
        same(all.where { $0.double == 0.0 }, "double == %@", 0.0, expected: [1, 2])
        same(all.where { $0.string == "a\u{0}b" }, "string == %@", "a\u{0}b", expected: [1])
        same(all.where { $0.data == Data([0, 255]) }, "data == %@", Data([0, 255]), expected: [1])
        same(all.where { $0.date == date }, "date == %@", date, expected: [1])
        same(all.where { $0.uuid == uuid }, "uuid == %@", uuid, expected: [1])
        same(all.where { $0.objectId == objectId }, "objectId == %@", objectId, expected: [1])
        same(all.where { $0.decimal > Decimal128(integerLiteral: 12) }, "decimal > %@", Decimal128(integerLiteral: 12), expected: [1])
        same(all.where { $0.optionalInt == nil }, "optionalInt == %@", NSNull(), expected: [2])
        same(all.where { $0.optionalInt > 6 }, "optionalInt > %@", 6, expected: [1])
        same(all.where { $0.optionalString == "é" }, "optionalString == %@", "é", expected: [1])
        same(all.where { $0.optionalDate != nil }, "optionalDate != %@", NSNull(), expected: [1])
        same(all.where { $0.optionalDouble * 2 == 5 }, "optionalDouble * 2 == %@", 5.0, expected: [1])
    }

    func testKeyPathForms() throws {
        XCTAssertEqual(dogs.sorted(by: \Dog.age, ascending: false).first?.name, "Rüdiger")
        XCTAssertEqual(dogs.sorted(by: [SortDescriptor(keyPath: \Dog.age), SortDescriptor(keyPath: \Dog.name)]).map(\.id), [3, 1, 2, 4, 5])
        XCTAssertEqual(dogs.min(of: \Dog.age), 1)
        XCTAssertEqual(dogs.max(of: \Dog.age), 12)
        XCTAssertEqual(dogs.sum(of: \Dog.age), 30)
        XCTAssertEqual(dogs.average(of: \Dog.age), 6)
        XCTAssertEqual(dogs.distinct(by: [\Dog.age]).count, 4)
        XCTAssertEqual(try _KeyPathRecorder.name(of: \Dog.owner?.name), "owner.name")
        XCTAssertEqual(try _KeyPathRecorder.name(of: \Dog.toys), "toys")
        XCTAssertThrowsError(try _KeyPathRecorder.name(of: \Dog.description)) { error in
            XCTAssertEqual((error as? RealmError)?.code, .invalidArgument)
        }
    }
}
