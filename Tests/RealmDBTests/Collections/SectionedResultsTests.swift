import Foundation
import XCTest
import RealmDB

/// Sectioned results: by a property, by a key block, live and observed.
final class SectionedResultsTests: RealmTestCase {
    private var realm: Realm!

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try openRealm()
        try realm.write {
            for (id, name, age) in [(1, "Rex", 3), (2, "Fido", 7), (3, "Bella", 1), (4, "Bruno", 7), (5, "Rosie", 3)] {
                realm.add(Dog(value: ["id": id, "name": name, "age": age]))
            }
        }
    }

    override func tearDownWithError() throws {
        realm = nil
        try super.tearDownWithError()
    }

    func testSectionedByAKeyBlock() {
        let byInitial = realm.objects(Dog.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) { String($0.name.prefix(1)) }
        XCTAssertEqual(byInitial.allKeys, ["B", "F", "R"])
        XCTAssertEqual(byInitial.map { $0.map(\.name) }, [["Bella", "Bruno"], ["Fido"], ["Rex", "Rosie"]])
        XCTAssertEqual(byInitial[2].key, "R")
        XCTAssertEqual(byInitial[IndexPath(indexes: [0, 1])].name, "Bruno")
    }

    func testSectionedByAProperty() {
        let byAge = realm.objects(Dog.self).sectioned(by: \Dog.age, ascending: false)
        XCTAssertEqual(byAge.allKeys, [7, 3, 1])
        XCTAssertEqual(byAge[0].count, 2)
        let sorted = realm.objects(Dog.self).sectioned(by: \Dog.age, sortDescriptors: [SortDescriptor(keyPath: "age"), SortDescriptor(keyPath: "name")])
        XCTAssertEqual(sorted.map { $0.map(\.name) }, [["Bella"], ["Rex", "Rosie"], ["Bruno", "Fido"]])
    }

    func testSectionedObserveWithKeyPaths() throws {
        let byAge = realm.objects(Dog.self).sectioned(by: \Dog.age)
        var updates = 0
        let token = byAge.observe(keyPaths: [\Dog.name]) { change in
            if case .update = change { updates += 1 }
        }
        runLoop(until: { true })
        spinRunLoop(0.05)
        let rex = realm.objects(Dog.self).where { $0.name == "Rex" }.first!
        try realm.write { rex.owner = Person(value: ["name": "Ann"]) }
        spinRunLoop(0.1)
        XCTAssertEqual(updates, 0, "owner is not observed")
        try realm.write { rex.name = "Rexy" }
        runLoop(until: { updates == 1 })
        token.invalidate()
    }

    func testSectionedResultsAreLiveAndObserved() throws {
        let byInitial = realm.objects(Dog.self).sectioned(sortDescriptors: [SortDescriptor(keyPath: "name")]) { String($0.name.prefix(1)) }
        var changes: [String] = []
        let token = byInitial.observe { change in
            switch change {
            case .initial(let sections): changes.append("initial \(sections.count)")
            case .update(_, let deletions, let insertions, _, let sectionsToInsert, let sectionsToDelete):
                changes.append("update -\(deletions.map(Array.init)) +\(insertions.map(Array.init)) sections +\(Array(sectionsToInsert)) -\(Array(sectionsToDelete))")
            case .error(let error): changes.append("error \(error)")
            }
        }
        defer { token.invalidate() }
        runLoop(until: { changes.count == 1 })
        onOtherThread {
            let realm = try self.openRealm()
            try realm.write { realm.add(Dog(value: ["id": 6, "name": "Max", "age": 2])) }
        }
        runLoop(until: { changes.count == 2 })
        XCTAssertEqual(changes, ["initial 3", "update -[] +[] sections +[2] -[]"], "a new section brings its objects: they are not listed again")
        XCTAssertEqual(byInitial.allKeys, ["B", "F", "M", "R"])
        let frozen = byInitial.freeze()
        try realm.write { realm.delete(realm.objects(Dog.self).filter("name == 'Fido'")) }
        XCTAssertEqual(frozen.allKeys, ["B", "F", "M", "R"])
        XCTAssertEqual(byInitial.allKeys, ["B", "M", "R"])
    }
}
