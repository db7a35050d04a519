import XCTest
@testable import RealmDB

/// A map as a collection (Map+Collection.swift): iteration in key order, several entries written
/// at once, and its values sorted, queried and aggregated, managed and unmanaged alike.
final class MapTests: RealmTestCase {
    /// The same checks on an unmanaged map and on the map of a stored object.
    private func forBothMaps(_ body: (Map<String, Int>, Realm?) throws -> Void) throws {
        try body(Map<String, Int>(), nil)
        let realm = try openRealm()
        let ann = Person(value: ["name": "Ann"])
        try realm.write { realm.add(ann) }
        try realm.beginWrite()
        try body(ann.scores, realm)
        try realm.commitWrite()
    }

    func testIterationGivesEntriesInKeyOrder() throws {
        try forBothMaps { scores, realm in
            scores["b"] = 2
            scores["a"] = 1
            scores.updateValue(3, forKey: "c")
            let entries = Array(scores)
            if realm != nil {
                XCTAssertEqual(entries.map(\.key), ["a", "b", "c"], "a stored map keeps its keys in order")
            }
            XCTAssertEqual(Set(entries.map(\.key)), ["a", "b", "c"])
            XCTAssertEqual(entries.first { $0.key == "c" }, SingleMapEntry(key: "c", value: 3))
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: scores.asKeyValueSequence().map { ($0.key, $0.value) }),
                           ["a": 1, "b": 2, "c": 3])
            XCTAssertEqual(scores.object(forKey: "b"), 2)
            XCTAssertNil(scores.object(forKey: "nope"))
            XCTAssertTrue(scores.contains { $0.value == 3 })
        }
    }

    func testMergeCombinesTheValuesOfKeysItHas() throws {
        try forBothMaps { scores, _ in
            scores["a"] = 1
            scores.merge([(key: "a", value: 10), (key: "b", value: 20)]) { old, new in old + new }
            scores.merge(["b": 5, "c": 7]) { old, _ in old }
            XCTAssertEqual(scores["a"], 11)
            XCTAssertEqual(scores["b"], 20, "the combine kept the old value")
            XCTAssertEqual(scores["c"], 7)
            struct Refused: Error {}
            XCTAssertThrowsError(try scores.merge(["a": 0]) { _, _ in throw Refused() })
            XCTAssertEqual(scores["a"], 11, "a combine that throws leaves the key as it was")
        }
    }

    func testValuesSortedQueriedAndAggregated() throws {
        try forBothMaps { scores, _ in
            XCTAssertNil(scores.min())
            XCTAssertEqual(scores.sum(), 0)
            XCTAssertNil(scores.average() as Double?)
            for (key, value) in ["x": 5, "y": -2, "z": 9, "w": 5] { scores[key] = value }
            XCTAssertEqual(Array(scores.sorted()), [-2, 5, 5, 9])
            XCTAssertEqual(Array(scores.sorted(ascending: false)), [9, 5, 5, -2])
            XCTAssertEqual(Array(scores.filter("self >= %@", 5).sorted()), [5, 5, 9])
            XCTAssertEqual(scores.min(), -2)
            XCTAssertEqual(scores.max(), 9)
            XCTAssertEqual(scores.sum(), 17)
            XCTAssertEqual(scores.average() as Double?, 4.25)
        }
    }

    func testValueResultsOfAStoredMapAreLive() throws {
        let realm = try openRealm()
        let ann = Person(value: ["name": "Ann"])
        try realm.write {
            realm.add(ann)
            ann.scores["a"] = 3
        }
        let sorted = ann.scores.sorted()
        let high = ann.scores.filter("self > 2")
        XCTAssertEqual(Array(sorted), [3])
        try realm.write {
            ann.scores["b"] = 1
            ann.scores["c"] = 7
        }
        XCTAssertEqual(Array(sorted), [1, 3, 7])
        XCTAssertEqual(Array(high), [3, 7])
        XCTAssertEqual(ann.scores.freeze().max(), 7)
    }
}
