import XCTest
@testable import CoreEngine

/// `IncrementalSections` against evaluating the sections again: after each of many random
/// commits, the sections it derives from the last ones and the commits' changes must be exactly
/// the evaluated ones (sections appearing, emptying and reappearing, nulls, ties, descending keys,
/// a query objects enter and leave, objects created and deleted in one commit).
final class IncrementalSectionsTests: RealmTestCase {
    static let schema = try! Schema([
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, isOptional: true),
            Property(name: "score", type: .double),
            Property(name: "price", type: .decimal128, isOptional: true),
            Property(name: "owner", type: .object, isOptional: true, objectType: "Dog"),
        ]),
    ])

    private var realm: Realm!
    private var dog: ClassInfo!
    private func d(_ name: String) -> PropertyInfo { dog.property(named: name)! }

    override func setUpWithError() throws {
        try super.setUpWithError()
        realm = try open(Self.schema)
        dog = try realm.classInfo(named: "Dog")
    }

    private func randomValues(_ rng: inout SeededGenerator) -> [(PropertyInfo, Value)] {
        let age: Value = Int.random(in: 0..<6, using: &rng) == 0 ? .null : .int(Int64.random(in: 0..<6, using: &rng))
        return [(d("name"), .string(["ann", "bo", "cy", "di"].randomElement(using: &rng)!)), (d("age"), age),
                (d("score"), .double([0.0, -0.0, 0.5, 1.0, 2.5].randomElement(using: &rng)!))]
    }

    func testUpdatesGiveTheSectionsAnEvaluationGives() throws {
        var rng = SeededGenerator(seed: 23)
        try realm.write { for _ in 0..<120 { _ = try realm.create(dog, values: randomValues(&rng)) } }
        let all = realm.objects(dog)
        let watched = [
            try all.sectioned(by: "age", ascending: false),
            try all.filter("score > 0.2").sectioned(by: "name"),
            try all.sectioned(by: "age", sortedBy: [SortDescriptor(d("age")), SortDescriptor(d("name"), ascending: false)]),
            try all.filter("name != 'bo'").sectioned(by: "score", sortedBy: [SortDescriptor(d("score"), ascending: false),
                                                                          SortDescriptor(d("age"))]),
        ]
        let updaters = watched.map { IncrementalSections($0) }
        XCTAssertTrue(updaters.allSatisfy { $0 != nil })
        var previous = try watched.map { try $0.evaluate(realm.currentTransaction()) }
        var version = try realm.currentTransaction().version
        var created = 0, deleted = 0, changedSections = 0
        for round in 0..<300 {
            // The previous version stays readable through a frozen realm: every other round, the
            // update finds the touched objects' old places with their old values.
            let frozen = try realm.freeze()
            let before = round % 2 == 0 ? try frozen.currentTransaction() : nil
            try realm.beginWrite()
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let keys = try all.keys()
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    _ = try realm.create(dog, values: randomValues(&rng))
                    created += 1
                case 1 where keys.count > 20:
                    try realm.object(dog, key: keys.randomElement(using: &rng)!).delete()
                    deleted += 1
                case 2:
                    // Created and deleted in one commit: no change at all.
                    try realm.create(dog, values: randomValues(&rng)).delete()
                default:
                    guard let key = keys.randomElement(using: &rng) else { continue }
                    let (property, value) = randomValues(&rng).randomElement(using: &rng)!
                    try realm.object(dog, key: key).setValue(value, for: property)
                }
            }
            if round % 50 == 0 {
                // Every object into one section, then the next round spreads them again.
                try all.setValue(.int(3), for: d("age"))
            }
            try realm.commitWrite()
            let transaction = try realm.currentTransaction()
            let changes = try CoalescedChanges(transaction, from: version, to: transaction.version)
            version = transaction.version
            for (index, sectioned) in watched.enumerated() {
                let updated = try updaters[index]!.update(previous[index], changes.tables[dog.tableID] ?? .init(), transaction,
                                                           before: before, modified: nil).sections
                let evaluated = try sectioned.evaluate(transaction)
                XCTAssertEqual(updated, evaluated, "round \(round), sections \(index)")
                if updated.map(\.key) != previous[index].map(\.key) { changedSections += 1 }
                previous[index] = evaluated
            }
            frozen.close()
        }
        XCTAssertGreaterThan(created, 100)
        XCTAssertGreaterThan(deleted, 50)
        XCTAssertGreaterThan(changedSections, 50, "sections appeared and disappeared")
    }

    func testOnlySectionsThatAreRunsOfTheSortAreUpdated() throws {
        let all = realm.objects(dog)
        XCTAssertNil(IncrementalSections(all.sectioned(sortedBy: [SortDescriptor(d("name"))]) { _ in .int(1) }), "a key function")
        XCTAssertNil(IncrementalSections(try all.sectioned(by: "price")), "decimal128: equal in order is not equal in value")
        XCTAssertNil(IncrementalSections(try all.sectioned(by: "owner.name")), "a key path through a link")
        XCTAssertNil(IncrementalSections(try all.sectioned(by: "age", sortedBy: [SortDescriptor(d("name"))])),
                     "the sort does not start with the key")
        XCTAssertNil(IncrementalSections(try all.sorted(by: [SortDescriptor(d("name"))]).sectioned(by: "age")), "two sorts")
        XCTAssertNil(IncrementalSections(try all.filter("owner.age > 1").sectioned(by: "age")), "a query through a link")
        XCTAssertNotNil(IncrementalSections(try all.filter("age > 1").sectioned(by: "age")))
    }
}
