import Foundation
import XCTest
import RealmDB

/// Readings of several kinds, in lists and a set of values.
final class Readings: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var counts: List<Int>
    @Persisted var small: List<Int8>
    @Persisted var maybe: List<Double?>
    @Persisted var times: List<Date>
    @Persisted var prices: List<Decimal128>
    @Persisted var distinct: MutableSet<Int>
}

/// min(), max(), sum() and average() of lists and sets of values, as the seeds' RealmCollection
/// has them where the elements are MinMaxType or AddableType: the same answers unmanaged (over the
/// elements held) and managed (by the engine), nulls skipped, nil or 0 when empty.
final class ValueAggregatesTests: RealmTestCase {
    private func filled() -> Readings {
        let readings = Readings()
        readings.id = 1
        readings.counts.append(objectsIn: [5, -3])  // Realm's name
        readings.counts.append(contentsOf: [12, 7])
        readings.small.append(contentsOf: [100, 27])
        readings.maybe.append(contentsOf: [nil, 2.5, nil, 0.5])
        readings.times.append(contentsOf: [Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: -50)])
        readings.prices.append(contentsOf: [try! Decimal128(string: "1.25"), Decimal128(integerLiteral: -7)])
        readings.distinct.insert(objectsIn: [4, 9, 4])  // Realm's name
        readings.distinct.formUnion([4, 1])
        return readings
    }

    private func check(_ readings: Readings, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(readings.counts.min(), -3, context, file: file, line: line)
        XCTAssertEqual(readings.counts.max(), 12, context, file: file, line: line)
        XCTAssertEqual(readings.counts.sum(), 21, context, file: file, line: line)
        XCTAssertEqual(readings.counts.average() as Double?, 5.25, context, file: file, line: line)
        XCTAssertEqual(readings.small.sum(), Int8(127), context, file: file, line: line)
        XCTAssertEqual(readings.maybe.min(), .some(0.5), context, file: file, line: line)
        XCTAssertEqual(readings.maybe.max(), .some(2.5), context, file: file, line: line)
        XCTAssertEqual(readings.maybe.sum(), 3.0, context, file: file, line: line)
        XCTAssertEqual(readings.maybe.average() as Double?, 1.5, "\(context): nulls are not counted", file: file, line: line)
        XCTAssertEqual(readings.times.min(), Date(timeIntervalSince1970: -50), context, file: file, line: line)
        XCTAssertEqual(readings.times.max(), Date(timeIntervalSince1970: 200), context, file: file, line: line)
        XCTAssertEqual(readings.prices.min(), Decimal128(integerLiteral: -7), context, file: file, line: line)
        XCTAssertEqual(readings.prices.max(), try! Decimal128(string: "1.25"), context, file: file, line: line)
        XCTAssertEqual(readings.distinct.min(), 1, context, file: file, line: line)
        XCTAssertEqual(readings.distinct.sum(), 14, "\(context): a set adds each value once", file: file, line: line)
        XCTAssertEqual(readings.distinct.average() as Double?, 14.0 / 3, context, file: file, line: line)
    }

    func testUnmanagedAndManagedGiveTheSameAnswers() throws {
        let readings = filled()
        check(readings, "unmanaged")
        var configuration = self.configuration!
        configuration.objectTypes = [Readings.self]
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(readings) }
        check(readings, "managed")
        check(realm.object(ofType: Readings.self, forPrimaryKey: 1)!.freeze(), "frozen")
        try realm.write {
            readings.counts.append(objectsIn: [-10])
            readings.distinct.insert(objectsIn: [1, 20])
        }
        XCTAssertEqual(readings.distinct.sum(), 34)
        XCTAssertEqual(readings.counts.min(), -10, "a live list reads its realm's current version")
        XCTAssertEqual(readings.counts.sum(), 11)
    }

    func testEmptyAndAllNullCollections() throws {
        let readings = Readings()
        XCTAssertNil(readings.counts.min())
        XCTAssertNil(readings.counts.max())
        XCTAssertEqual(readings.counts.sum(), 0)
        XCTAssertNil(readings.counts.average() as Double?)
        readings.maybe.append(contentsOf: [nil, nil])
        XCTAssertNil(readings.maybe.min())
        XCTAssertEqual(readings.maybe.sum(), 0.0)
        XCTAssertNil(readings.maybe.average() as Double?)
        var configuration = self.configuration!
        configuration.objectTypes = [Readings.self]
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(readings) }
        XCTAssertNil(readings.counts.min())
        XCTAssertEqual(readings.counts.sum(), 0)
        XCTAssertNil(readings.maybe.max())
        XCTAssertNil(readings.maybe.average() as Double?)
    }
}
