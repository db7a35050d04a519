import Foundation
import XCTest
import RealmDB

/// The operations every collection of objects shares, through the `RealmCollection` protocol
/// and `AnyRealmCollection`: Results, List, MutableSet and LinkingObjects alike.
final class RealmCollectionTests: RealmTestCase {
    final class Owner: Object {
        @Persisted var name: String
        @Persisted var dogs: List<Dog>
        @Persisted var favorites: MutableSet<Dog>
    }

    private var realm: Realm!
    private var owner: Owner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        configuration.objectTypes = [Owner.self, Dog.self]
        realm = try openRealm()
        owner = Owner(value: ["name": "Ann"])
        try realm.write {
            realm.add(owner)
            for (id, name, age) in [(1, "Rex", 3), (2, "Fido", 7), (3, "Bella", 1), (4, "Max", 7)] {
                let dog = Dog(value: ["id": id, "name": name, "age": age])
                owner.dogs.append(dog)
                if age == 7 { owner.favorites.insert(dog) }
            }
        }
    }

    override func tearDownWithError() throws {
        owner = nil
        realm = nil
        try super.tearDownWithError()
    }

    /// The same generic code on every kind of collection.
    private func summary<C: RealmCollection>(_ collection: C) -> String where C.Element == Dog {
        let old = collection.filter("age > %@", 2).sorted(byKeyPath: "name").map(\.name)
        let oldest: Int? = collection.max(ofProperty: "age")
        let position = collection.index(matching: { $0.name == "Max" }).map(String.init) ?? "-"
        return "\(collection.count) \(old) max \(oldest.map(String.init) ?? "-") Max at \(position)"
    }

    func testEveryCollectionSharesTheOperations() throws {
        XCTAssertEqual(summary(owner.dogs), "4 [\"Fido\", \"Max\", \"Rex\"] max 7 Max at 3", "a list keeps its order")
        XCTAssertEqual(summary(realm.objects(Dog.self).sorted(byKeyPath: "id")), "4 [\"Fido\", \"Max\", \"Rex\"] max 7 Max at 3")
        XCTAssertTrue(summary(owner.favorites).hasPrefix("2 [\"Fido\", \"Max\"] max 7 Max at "), summary(owner.favorites))
        XCTAssertEqual(summary(AnyRealmCollection(owner.dogs)), summary(owner.dogs))
        let rex = realm.object(ofType: Dog.self, forPrimaryKey: 1)!
        try realm.write { realm.add(Person(value: ["name": "Bo", "dogs": [rex]])) }
        XCTAssertEqual(AnyRealmCollection(rex.owners).map(\.name), ["Bo"])
        XCTAssertEqual(owner.dogs.where { $0.age == 7 }.count, 2)
        XCTAssertEqual(owner.dogs.value(forKey: "name") as? [String], ["Rex", "Fido", "Bella", "Max"])
        let collections: [AnyRealmCollection<Dog>] = [AnyRealmCollection(owner.dogs), AnyRealmCollection(owner.favorites),
                                                      AnyRealmCollection(realm.objects(Dog.self))]
        XCTAssertEqual(collections.map(\.count), [4, 2, 4])
    }

    /// The key-path forms apply to every collection: a list sorts, aggregates and observes by `\Dog.age`.
    func testKeyPathFormsOnAList() throws {
        XCTAssertEqual(owner.dogs.sorted(by: \Dog.age, ascending: false).map(\.name).prefix(2).sorted(), ["Fido", "Max"])
        XCTAssertEqual(owner.dogs.min(of: \Dog.age), 1)
        XCTAssertEqual(owner.dogs.max(of: \Dog.age), 7)
        XCTAssertEqual(owner.dogs.sum(of: \Dog.age), 18)
        XCTAssertEqual(owner.favorites.average(of: \Dog.age), 7)
        XCTAssertEqual(owner.dogs.distinct(by: [\Dog.age]).count, 3)
        var updates = 0
        let token = owner.dogs.observe(keyPaths: [\Dog.name]) { change in
            if case .update = change { updates += 1 }
        }
        runLoop(until: { true })
        spinRunLoop(0.05)
        try realm.write { owner.dogs[0].age += 1 }
        spinRunLoop(0.1)
        XCTAssertEqual(updates, 0, "age is not observed")
        try realm.write { owner.dogs[0].name = "Rexy" }
        runLoop(until: { updates == 1 })
        token.invalidate()
    }

    func testListFreezeThawAndObserve() throws {
        let frozen = owner.dogs.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { owner.dogs.removeAll() }
        XCTAssertEqual(frozen.count, 4, "frozen at its version")
        let box = UncheckedBox(frozen)
        onOtherThread { XCTAssertEqual(box.value.map(\.name), ["Rex", "Fido", "Bella", "Max"]) }
        XCTAssertEqual(frozen.thaw()?.count, 0)
        var changes: [String] = []
        let token = owner.dogs.observe { change in
            switch change {
            case .initial(let list): changes.append("initial \(list.count)")
            case .update(let list, _, let insertions, _): changes.append("update \(list.count) +\(insertions)")
            case .error(let error): changes.append("error \(error)")
            }
        }
        runLoop(until: { changes.count == 1 })
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.objects(Owner.self).first!.dogs.append(realm.object(ofType: Dog.self, forPrimaryKey: 2)!) }
        }
        runLoop(until: { changes.count == 2 })
        XCTAssertEqual(changes, ["initial 0", "update 1 +[0]"])
        token.invalidate()
    }
}
