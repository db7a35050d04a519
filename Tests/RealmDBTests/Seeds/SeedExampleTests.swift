import Foundation
import XCTest
import RealmDB

/// The code examples of the seed pages (../shared/seeds: RealmCollection, Object,
/// RealmSectionedResult), compiled as written where Swift on Linux allows, with what their
/// comments say asserted.
final class SeedExampleTests: RealmTestCase {
    enum Seed {
        final class Toy: Object {
            @Persisted var name: String
            @Persisted var brand: String
        }

        final class Dog: Object {
            @Persisted var name: String
            @Persisted var age: Int
            @Persisted var adopted: Bool
            @Persisted var toys: List<Toy>
            @Persisted var siblings: List<Dog>
        }

        final class Person: Object {
            @Persisted var dogs: List<Dog>
        }

        /// Object's `propertiesMapping()` example.
        final class MappedPerson: Object {
            @Persisted var firstName: String
            @Persisted var birthDate: Date
            @Persisted var age: Int

            override class public func propertiesMapping() -> [String: String] {
                ["firstName": "first_name", "birthDate": "birth_date"]
            }
        }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        configuration.objectTypes = [Seed.Dog.self, Seed.Person.self, Seed.Toy.self, Seed.MappedPerson.self]
    }

    /// RealmCollection, observe(keyPaths:on:_:): a write right after `observe` comes before the
    /// initial notification, which then shows the state after the write; `.update` is not hit.
    func testObserveInitialReflectsTheWriteThatFollowedIt() throws {
        let realm = try openRealm()
        let person = Seed.Person()
        try realm.write { realm.add(person) }
        let dogs = realm.objects(Seed.Dog.self)
        XCTAssertEqual(dogs.count, 0)  // print("dogs.count: \(dogs?.count)") // => 0
        var printed: [String] = []
        let token = dogs.observe { changes in
            switch changes {
            case .initial(let dogs):
                // Will print "dogs.count: 1"
                printed.append("dogs.count: \(dogs.count)")
            case .update:
                // Will not be hit in this example
                printed.append("update")
            case .error:
                break
            }
        }
        try! realm.write {
            let dog = Seed.Dog()
            dog.name = "Rex"
            person.dogs.append(dog)
        }
        // end of run loop execution context
        spinRunLoop(0.2)
        XCTAssertEqual(printed, ["dogs.count: 1"])
        token.invalidate()
    }

    /// observe(keyPaths: ["name"]) and its key path form [\Dog.name]: inserting a dog and
    /// changing a name are updates; changing an age is not.
    func testObserveKeyPathsOfTheSeed() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Seed.Dog(value: ["name": "Rex", "age": 1])) }
        for form in 0..<2 {
            let dogs = realm.objects(Seed.Dog.self)
            var updates = 0
            let block: (RealmCollectionChange<Results<Seed.Dog>>) -> Void = { changes in
                if case .update = changes { updates += 1 }
            }
            let token = form == 0 ? dogs.observe(keyPaths: ["name"], block) : dogs.observe(keyPaths: [\Seed.Dog.name], block)
            runLoop(until: { true })
            spinRunLoop(0.05)
            try realm.write { dogs.first!.age += 1 }  // This block is not triggered
            spinRunLoop(0.1)
            XCTAssertEqual(updates, 0, "form \(form): a value other than name")
            try realm.write { dogs.first!.name += "!" }  // the name property of an object in the collection is modified
            runLoop(until: { updates == 1 })
            try realm.write { realm.add(Seed.Dog(value: ["name": "Max"])) }  // an element is inserted
            runLoop(until: { updates == 2 })
            token.invalidate()
        }
    }

    /// Object.observe(keyPaths: ["adopted"]) and [\Dog.adopted]: only `adopted` counts.
    func testObjectObserveKeyPaths() throws {
        let realm = try openRealm()
        let dog = Seed.Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        var changes: [[String]] = []
        let token = dog.observe(keyPaths: ["adopted"], { (change: ObjectChange<Seed.Dog>) in
            if case .change(_, let properties) = change { changes.append(properties.map(\.name)) }
        })
        let keyPathToken = dog.observe(keyPaths: [\Seed.Dog.adopted], { (change: ObjectChange<Seed.Dog>) in
            if case .change(_, let properties) = change { changes.append(properties.map(\.name)) }
        })
        try realm.write { dog.name = "Max" }
        spinRunLoop(0.1)
        XCTAssertEqual(changes, [])
        try realm.write { dog.adopted = true }
        runLoop(until: { changes.count == 2 })
        XCTAssertEqual(changes, [["adopted"], ["adopted"]])
        token.invalidate()
        keyPathToken.invalidate()
    }

    /// Object.propertiesMapping(): the stored names differ, the Swift names are used everywhere.
    func testPropertiesMapping() throws {
        let realm = try openRealm()
        try realm.write { realm.add(Seed.MappedPerson(value: ["firstName": "Ann", "age": 30])) }
        XCTAssertEqual(realm.objects(Seed.MappedPerson.self).filter("firstName == 'Ann'").count, 1)
        XCTAssertEqual(realm.objects(Seed.MappedPerson.self).first?.firstName, "Ann")
    }

    /// Object.isSameObject(as:), freeze() and thaw().
    func testSameObjectFreezeThaw() throws {
        let realm = try openRealm()
        let dog = Seed.Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        let again = realm.objects(Seed.Dog.self).first!
        XCTAssertTrue(dog.isSameObject(as: again))
        XCTAssertFalse(dog === again)
        let frozen = dog.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertTrue(frozen.thaw()!.isSameObject(as: dog))
    }

    /// RealmSectionedResult's example: sectioned by age; count 0; after a write, sections appear.
    func testSectionedResultsObserve() throws {
        let realm = try openRealm()
        let dogs = realm.objects(Seed.Dog.self)
        let sectionedResults = dogs.sectioned(by: \.age, ascending: true)
        XCTAssertEqual(sectionedResults.count, 0)  // print("sectionedResults.count: ...") // => 0
        var counts: [Int] = []
        let token = sectionedResults.observe { changes in
            switch changes {
            case .initial(let sections), .update(let sections, _, _, _, _, _): counts.append(sections.count)
            case .error: break
            }
        }
        try realm.write {
            realm.add(Seed.Dog(value: ["name": "Rex", "age": 2]))
            realm.add(Seed.Dog(value: ["name": "Max", "age": 3]))
        }
        runLoop(until: { !counts.isEmpty })
        XCTAssertEqual(counts, [2], "the initial notification shows the state after the write")
        XCTAssertEqual(sectionedResults.allKeys, [2, 3])
        token.invalidate()
    }

    /// RealmCollection's type-safe `where` and KeyPath aggregates.
    func testTypeSafeWhereAndAggregates() throws {
        let realm = try openRealm()
        try realm.write {
            realm.add(Seed.Dog(value: ["name": "Rex", "age": 7]))
            realm.add(Seed.Dog(value: ["name": "Rover", "age": 3]))
            realm.add(Seed.Dog(value: ["name": "Fido", "age": 9]))
        }
        let dogs = realm.objects(Seed.Dog.self)
        XCTAssertEqual(dogs.where { ($0.age > 5) && $0.name.starts(with: "R") }.map(\.name), ["Rex"])
        XCTAssertEqual(dogs.min(of: \.age), 3)
        XCTAssertEqual(dogs.max(of: \.age), 9)
        XCTAssertEqual(dogs.sum(of: \.age), 19)
        XCTAssertEqual(dogs.index(matching: "name == %@", "Fido"), 2)
    }

    /// Migration examples of Object: enumerateObjects and renameProperty.
    func testMigrationExamples() throws {
        enum V1 { final class Person: Object { @Persisted var first_name: String } }
        enum V2 { final class Person: Object { @Persisted var complete_name: String } }
        let url = directory.appendingPathComponent("migration.realm")
        onOtherThread {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [V1.Person.self]))
            try realm.write { realm.add(V1.Person(value: ["first_name": "Ann"])) }
        }
        var seen: [String] = []
        let migrationBlock: Realm.MigrationBlock = { migration, oldSchemaVersion in
            migration.enumerateObjects(ofType: "Person", { oldObj, newObj in
                seen.append(oldObj?["first_name"] as? String ?? "?")  // Use this value in migration
            })
            migration.renameProperty(onType: "Person", from: "first_name", to: "complete_name")
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, migrationBlock: migrationBlock,
                                                                 objectTypes: [V2.Person.self]))
        XCTAssertEqual(seen, ["Ann"])
        XCTAssertEqual(realm.objects(V2.Person.self).first?.complete_name, "Ann")
    }

    /// Encodable collections (RealmCollection's encode(to:), where Element: Encodable).
    func testEncodableResults() throws {
        final class Tag: Object, Encodable {
            @Persisted var label: String
            enum CodingKeys: String, CodingKey { case label }
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(label, forKey: .label)
            }
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.appendingPathComponent("tags.realm"), objectTypes: [Tag.self]))
        try realm.write { realm.add(Tag(value: ["a"])); realm.add(Tag(value: ["b"])) }
        let json = String(decoding: try JSONEncoder().encode(realm.objects(Tag.self).sorted(byKeyPath: "label")), as: UTF8.self)
        XCTAssertEqual(json, #"[{"label":"a"},{"label":"b"}]"#)
    }
}
