import Foundation
import XCTest
import RealmDB

/// Values of several kinds in lists and a set, sorted and made distinct.
final class Measurements: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var counts: List<Int>
    @Persisted var maybe: List<Double?>
    @Persisted var words: List<String>
    @Persisted var days: List<Date>
    @Persisted var anything: List<AnyRealmValue>
    @Persisted var labels: MutableSet<String>
}

/// `sorted(ascending:)` and `distinct()` of lists and sets of values, as the seeds' RealmCollection
/// has them where the elements are SortableType: `Results` of the values, live like the
/// collection, aggregated and sorted again; the same answers unmanaged.
final class ValueResultsTests: RealmTestCase {
    private var realm: Realm!
    private var item: Measurements!

    override func setUpWithError() throws {
        try super.setUpWithError()
        var configuration = self.configuration!
        configuration.objectTypes = [Measurements.self]
        realm = try Realm(configuration: configuration)
        item = Measurements()
        item.id = 1
        item.counts.append(objectsIn: [5, -3, 12, 5, 7, -3])
        item.maybe.append(objectsIn: [2.5, nil, .nan, -1, nil])
        item.words.append(objectsIn: ["pear", "Apple", "apple", "Äpfel", "banana"])
        item.days.append(objectsIn: [Date(timeIntervalSince1970: 300), Date(timeIntervalSince1970: -20), Date(timeIntervalSince1970: 0)])
        item.anything.append(objectsIn: [.string("b"), .int(3), .double(1.5), .none, .bool(true), .string("a")])
        item.labels.insert(objectsIn: ["red", "blue", "green"])
        try realm.write { realm.add(item) }
    }

    override func tearDownWithError() throws {
        item = nil
        realm = nil
        try super.tearDownWithError()
    }

    func testSortedAndDistinctValues() {
        let ascending: Results<Int> = item.counts.sorted()
        XCTAssertEqual(Array(ascending), [-3, -3, 5, 5, 7, 12])
        XCTAssertEqual(Array(item.counts.sorted(ascending: false)), [12, 7, 5, 5, -3, -3])
        XCTAssertEqual(Array(item.counts.distinct()), [5, -3, 12, 7], "the first of each, in list order")
        XCTAssertEqual(Array(item.counts.distinct().sorted(ascending: false)), [12, 7, 5, -3])
        XCTAssertEqual(Array(item.counts.sorted().distinct()), [-3, 5, 7, 12])
        XCTAssertEqual(ascending.count, 6)
        XCTAssertEqual(ascending[5], 12)
        XCTAssertEqual(ascending.first, -3)
        XCTAssertEqual(ascending.last, 12)
        XCTAssertEqual(ascending.map { $0 * 2 }, [-6, -6, 10, 10, 14, 24])
        var seen: [Int] = []
        for value in item.counts.distinct() { seen.append(value) }
        XCTAssertEqual(seen, [5, -3, 12, 7])
    }

    func testNullsNaNStringsDatesAndMixedValuesSortAsTheEngineSorts() {
        let maybe = Array(item.maybe.sorted())
        XCTAssertEqual(maybe.count, 5)
        XCTAssertNil(maybe[0] ?? nil)
        XCTAssertNil(maybe[1] ?? nil, "nulls first ascending")
        XCTAssertTrue(maybe[2]!.isNaN, "then NaN")
        XCTAssertEqual(Array(maybe[3...]), [-1, 2.5])
        XCTAssertEqual(Array(item.maybe.sorted(ascending: false)).last ?? 0, nil, "nulls last descending")
        XCTAssertEqual(Array(item.words.sorted()), ["Apple", "apple", "banana", "pear", "Äpfel"], "strings by code point")
        XCTAssertEqual(Array(item.days.sorted()).map(\.timeIntervalSince1970), [-20, 0, 300])
        XCTAssertEqual(Array(item.anything.sorted()), [.none, .bool(true), .double(1.5), .int(3), .string("a"), .string("b")],
                       "null, bool, numbers by value, then strings")
        XCTAssertEqual(Array(item.labels.sorted()), ["blue", "green", "red"])
        XCTAssertEqual(Set(item.labels.distinct()), ["blue", "green", "red"])
    }

    func testResultsOfValuesAggregate() {
        XCTAssertEqual(item.counts.distinct().sum(), 21, "each value once")
        XCTAssertEqual(item.counts.sorted().sum(), 23)
        XCTAssertEqual(item.counts.distinct().min(), -3)
        XCTAssertEqual(item.counts.distinct().max(), 12)
        XCTAssertEqual(item.counts.distinct().average() as Double?, 5.25)
        XCTAssertEqual(item.maybe.distinct().min(), .some(-1), "nulls and NaN skipped")
        XCTAssertNil(Measurements().counts.distinct().min())
        XCTAssertEqual(Measurements().counts.sorted().sum(), 0)
    }

    func testLiveFrozenAndInvalidated() throws {
        let sorted = item.counts.sorted()
        let frozen = sorted.freeze()
        XCTAssertTrue(frozen.isFrozen)
        XCTAssertFalse(sorted.isFrozen)
        XCTAssertNotNil(sorted.realm)
        try realm.write { item.counts.append(-50) }
        XCTAssertEqual(sorted.first, -50, "live: reads the list's current values")
        XCTAssertEqual(sorted.count, 7)
        XCTAssertEqual(Array(frozen), [-3, -3, 5, 5, 7, 12], "frozen: the version it was frozen at")
        let readOnAnotherThread = expectation(description: "frozen values read on another thread")
        let handOver = UncheckedBox(frozen)
        DispatchQueue.global().async {
            XCTAssertEqual(handOver.value.count, 6)
            readOnAnotherThread.fulfill()
        }
        wait(for: [readOnAnotherThread], timeout: 10)
        XCTAssertEqual(frozen.thaw().map(Array.init), [-50, -3, -3, 5, 5, 7, 12])
        XCTAssertFalse(sorted.isInvalidated)
        try realm.write { realm.delete(item) }
        XCTAssertTrue(sorted.isInvalidated, "its object deleted")
        XCTAssertEqual(Array(frozen), [-3, -3, 5, 5, 7, 12], "a frozen one still reads its version")
    }

    func testUnmanagedCollectionsSortTheirValues() {
        let loose = Measurements()
        loose.counts.append(objectsIn: [3, 1, 2, 1])
        loose.words.append(objectsIn: ["b", "a"])
        let sorted = loose.counts.sorted()
        XCTAssertNil(sorted.realm)
        XCTAssertEqual(Array(sorted), [1, 1, 2, 3])
        XCTAssertEqual(Array(loose.counts.distinct()), [3, 1, 2])
        XCTAssertEqual(Array(loose.words.sorted(ascending: false)), ["b", "a"])
        XCTAssertEqual(loose.counts.distinct().sum(), 6)
        loose.counts.append(0)
        XCTAssertEqual(Array(sorted), [1, 1, 2, 3], "the values the unmanaged list held when sorted")
        XCTAssertEqual(sorted.description, "Results<Int> [1, 1, 2, 3]")
    }

    func testQueriesOverValuesNameEachValueSelf() throws {
        let high: Results<Int> = item.counts.filter("self > %@", 4)
        XCTAssertEqual(Array(high), [5, 12, 5, 7], "in list order")
        XCTAssertEqual(Array(item.counts.filter("self BETWEEN {$0, $1} AND self != 7", -3, 10)), [5, -3, 5, -3])
        XCTAssertEqual(Array(item.counts.filter("self IN %@", [12, -3])), [-3, 12, -3])
        XCTAssertEqual(Array(item.counts.sorted(ascending: false).filter("self < 6").distinct()), [5, -3])
        XCTAssertEqual(item.counts.filter("self > 4").sum(), 29)
        XCTAssertEqual(item.counts.index(matching: "self > 10"), 2)
        XCTAssertNil(item.counts.index(matching: "self > 100"))
        XCTAssertEqual(Array(item.maybe.filter("self == nil")).count, 2)
        XCTAssertEqual(Array(item.maybe.filter("self < 0")), [-1], "NaN and nulls are not less than anything")
        XCTAssertEqual(Array(item.words.filter("self BEGINSWITH[cd] 'ap'")), ["Apple", "apple", "Äpfel"])
        XCTAssertEqual(Array(item.words.filter("self.@size > 5")), ["Äpfel", "banana"], "UTF-8 bytes: Ä is two")
        XCTAssertEqual(Array(item.anything.filter("self.@type == 'string'")), [.string("b"), .string("a")])
        XCTAssertEqual(Array(item.anything.filter("self > 2")), [.int(3)], "numbers compare with numbers only")
        XCTAssertEqual(Array(item.labels.filter("self CONTAINS 'e'").sorted()), ["blue", "green", "red"])
        XCTAssertEqual(Array(item.labels.filter("self ENDSWITH 'n'")), ["green"])
        XCTAssertEqual(item.days.filter("self < %@", Date(timeIntervalSince1970: 1)).count, 2)
    }

    func testAQueryOverValuesIsLiveAndFrozenAndItsErrorsAreTyped() throws {
        let high = item.counts.filter("self > 6")
        let frozen = high.freeze()
        try realm.write { item.counts.append(objectsIn: [100, 1]) }
        XCTAssertEqual(Array(high), [12, 7, 100], "live: the list's values now")
        XCTAssertEqual(Array(frozen), [12, 7])
        let loose = Measurements()
        loose.counts.append(objectsIn: [1, 8, 9])
        XCTAssertEqual(Array(loose.counts.filter("self >= 8")), [8, 9], "an unmanaged list's values")
        XCTAssertThrowsError(try item.counts.sorted().query("age > 3")) { error in
            XCTAssertEqual((error as? RealmError)?.code, .query, "a value has no property but self")
        }
        XCTAssertThrowsError(try item.counts.sorted().query("self BEGINSWITH 'a'")) { error in
            XCTAssertEqual((error as? RealmError)?.code, .query, "a string operator on ints")
        }
        XCTAssertThrowsError(try item.words.sorted().query("self == 3")) { error in
            XCTAssertEqual((error as? RealmError)?.code, .query, "a string compared with a number")
        }
        XCTAssertThrowsError(try item.counts.sorted().query("self > $1", 1)) { error in
            XCTAssertEqual((error as? RealmError)?.code, .query, "a missing argument")
        }
    }

    func testHostileQueriesOverValuesFailAsQueryErrors() throws {
        try realm.write { item.words.append("nul\0inside") }
        XCTAssertEqual(Array(item.words.filter("self == %@", "nul\0inside")), ["nul\0inside"], "a NUL is a character")
        let long = Array(repeating: "self != 1", count: 20_000).joined(separator: " AND ")
        XCTAssertEqual(item.counts.filter(long).count, 6, "a long chain is a list, not deep recursion")
        let deep = String(repeating: "(", count: 100_000) + "self > 1" + String(repeating: ")", count: 100_000)
        // Each with its one argument, if any: none where the query wants one, a list where it
        // wants a value, a date where it wants ints.
        let cases: [(String, Any?)] = [
            (deep, nil), ("self > 99999999999999999999", nil), ("self > %@", nil), ("self > %@ AND self < %@", 1),
            ("self IN %@", [Date()]), ("self > $0", ["a list"]), ("self > %@", Date()), ("", nil), ("self >", nil),
            ("SUBQUERY(self, $x, $x > 1).@count > 0", nil), ("self.name == 'x'", nil), ("self > 1 LIMIT(1)", nil),
        ]
        for (query, argument) in cases {
            let label = String(query.prefix(40))
            XCTAssertThrowsError(try argument.map { try item.counts.sorted().query(query, $0) } ?? item.counts.sorted().query(query),
                                 label) { error in
                XCTAssertEqual((error as? RealmError)?.code, .query, "\(label): \(error)")
            }
        }
    }

    /// The seed's example: dates from the most recent to the oldest.
    func testSeedExampleSortsDates() {
        let dates = item.days
        XCTAssertEqual(dates.sorted(ascending: false).first, Date(timeIntervalSince1970: 300))
        XCTAssertEqual(dates.sorted(ascending: true).first, Date(timeIntervalSince1970: -20))
    }
}
