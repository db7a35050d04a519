import XCTest
@testable import CoreEngine

final class ValueTests: XCTestCase {
    func testDecimal128Description() {
        XCTAssertEqual(Decimal128(integer: 0).description, "0")
        XCTAssertEqual(Decimal128(integer: -42).description, "-42")
        // 150 x 10^-2
        XCTAssertEqual(Decimal128(low: 150, high: UInt64(6176 - 2) << 49).description, "1.50")
        XCTAssertEqual(Decimal128(low: 5, high: UInt64(6176 - 3) << 49).description, "0.005")
        XCTAssertEqual(Decimal128(low: 5, high: UInt64(6176 + 3) << 49).description, "5E+3")
        XCTAssertEqual(Decimal128(low: 0, high: 0x7C00_0000_0000_0000).description, "NaN")
        XCTAssertEqual(Decimal128(low: 0, high: 0xF800_0000_0000_0000).description, "-Infinity")
    }

    func testTimestampISO8601() {
        XCTAssertEqual(Timestamp(seconds: 0, nanoseconds: 0).iso8601, "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp(seconds: 1_709_294_400, nanoseconds: 1).iso8601, "2024-03-01T12:00:00.000000001Z")
        XCTAssertEqual(Timestamp(seconds: -1, nanoseconds: -500_000_000).iso8601, "1969-12-31T23:59:58.500000000Z")
        XCTAssertEqual(Timestamp(seconds: 951_782_400, nanoseconds: 0).iso8601, "2000-02-29T00:00:00Z")
    }

    func testCoercion() throws {
        XCTAssertEqual(try PropertyType.double.coerce(.int(3)), .double(3))
        XCTAssertEqual(try PropertyType.float.coerce(.double(0.5)), .float(0.5))
        XCTAssertEqual(try PropertyType.decimal128.coerce(.int(-2)), .decimal128(Decimal128(integer: -2)))
        XCTAssertThrowsError(try PropertyType.int.coerce(.double(1)))
        XCTAssertThrowsError(try PropertyType.string.coerce(.data([])))
        XCTAssertThrowsError(try PropertyType.bool.coerce(.int(1)))
    }

    func testEqualityIsTheDatabasesSameValue() {
        XCTAssertNotEqual(Value.string("\u{E9}cole"), .string("e\u{301}cole"), "code points, not canonical equivalence")
        XCTAssertNotEqual(Value.string("\u{212A}"), .string("K"))
        XCTAssertEqual(Value.double(.nan), .double(-.nan), "one NaN")
        XCTAssertEqual(Value.double(0), .double(-0.0))
        XCTAssertEqual(Set([Value.double(.nan), .double(.nan), .double(0), .double(-0.0), .string("\u{E9}"), .string("e\u{301}")]).count, 4)
    }

    // MARK: Order

    private func decimal(_ text: String) -> Value { .decimal128(Decimal128(parsing: text)!) }

    /// Values of every kind, with numbers close to each other across types.
    private var orderPool: [Value] {
        [.null, .bool(false), .bool(true), .int(-5), .int(0), .int(1), .int(9_007_199_254_740_992), .int(9_007_199_254_740_993),
         .int(.max), .int(.min), .float(0.5), .float(1), .float(.infinity), .float(.nan), .double(-0.0), .double(0.5), .double(1),
         .double(0.1), .double(9_007_199_254_740_992), .double(9.3e18), .double(-.infinity), .double(.nan), .double(5e-324),
         decimal("-5"), decimal("0"), decimal("0E+400"), decimal("1"), decimal("1.00"), decimal("0.1"),
         decimal("0.1000000000000000000000000000000001"), decimal("9007199254740993"), decimal("1E-400"), decimal("-Infinity"),
         decimal("NaN"), decimal("1E+6000"), .string(""), .string("x"), .data([1]), .timestamp(Timestamp(seconds: 0, nanoseconds: 0)),
         .objectID(ObjectID(bytes: Array(0..<12))!), .uuid(UUIDValue(bytes: Array(0..<16))!), .link(ObjectLink(table: 1, key: 2))]
    }

    /// Sorting and set order are total orders: no cycle (decimal128 ranked after strings made
    /// 1 < "x" < decimal128(0) < 1), whatever the types. (Sorting compares numbers of different
    /// types through Double, as queries do: it is left out where that rounds.)
    func testSortAndSetOrdersAreTransitive() {
        let roundsThroughDouble: Set<Value> = [.int(9_007_199_254_740_993), .int(.max), decimal("9007199254740993"),
                                               decimal("0.1000000000000000000000000000000001"), decimal("0E+400"),
                                               decimal("1E-400"), decimal("1E+6000")]
        for (name, compare, pool) in [("sortCompare", ValueOrdering.sortCompare, orderPool.filter { !roundsThroughDouble.contains($0) }),
                                      ("set order", CollectionOrdering.compare, orderPool)] {
            for a in pool {
                XCTAssertEqual(compare(a, a), 0, "\(name): \(a) equals itself")
                for b in pool {
                    XCTAssertEqual(compare(a, b), -compare(b, a), "\(name): \(a) vs \(b) is antisymmetric")
                    for c in pool where compare(a, b) <= 0 && compare(b, c) <= 0 {
                        XCTAssertLessThanOrEqual(compare(a, c), 0, "\(name): \(a) <= \(b) <= \(c)")
                    }
                }
            }
        }
        XCTAssertLessThan(ValueOrdering.sortCompare(decimal("0"), .int(1)), 0)
        XCTAssertLessThan(ValueOrdering.sortCompare(decimal("5"), .string("x")), 0, "numbers sort before strings, decimals too")
    }

    /// In a set, two values are the same element exactly when they have the same type and value.
    func testSetOrderComparesNumbersExactly() {
        func same(_ a: Value, _ b: Value) -> Bool { CollectionOrdering.compare(a, b) == 0 }
        XCTAssertGreaterThan(CollectionOrdering.compare(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)), 0,
                             "2^53 + 1 is more than the double 2^53 (not equal through Double)")
        XCTAssertLessThan(CollectionOrdering.compare(decimal("0.1"), decimal("0.1000000000000000000000000000000001")), 0)
        XCTAssertLessThan(CollectionOrdering.compare(decimal("0.1"), .double(0.1)), 0, "the double 0.1 is a little more than 1/10")
        XCTAssertLessThan(CollectionOrdering.compare(.int(.max), .double(9.3e18)), 0)
        XCTAssertLessThan(CollectionOrdering.compare(decimal("1E-400"), .double(5e-324)), 0)
        XCTAssertGreaterThan(CollectionOrdering.compare(decimal("1E-400"), .int(0)), 0)
        XCTAssertGreaterThan(CollectionOrdering.compare(decimal("1E+6000"), .double(.greatestFiniteMagnitude)), 0)
        XCTAssertLessThan(CollectionOrdering.compare(decimal("1E+6000"), .float(.infinity)), 0)
        XCTAssertTrue(same(decimal("1"), decimal("1.00")))
        XCTAssertTrue(same(decimal("0E+400"), decimal("0")))
        XCTAssertTrue(same(.double(-0.0), .double(0)))
        XCTAssertTrue(same(.double(.nan), .double(-.nan)))
        XCTAssertFalse(same(.int(1), .double(1)), "equal values of different types are different elements")
        XCTAssertFalse(same(.double(1), decimal("1")))
        XCTAssertFalse(same(.double(.nan), decimal("NaN")))
        // Equal values of different types order by type, next to each other.
        let ones: [Value] = [decimal("1"), .double(1), .float(1), .int(1)]
        XCTAssertEqual(ones.sorted { CollectionOrdering.compare($0, $1) < 0 }, [.int(1), .float(1), .double(1), decimal("1")])
    }

    func testNormalizedSetRepairsAnOutOfOrderSet() {
        let stored: [Value] = [.int(1), .string("x"), decimal("-5"), decimal("0"), .int(1)]
        XCTAssertEqual(CollectionOrdering.normalizedSet(stored), [decimal("-5"), decimal("0"), .int(1), .string("x")])
        let sorted: [Value] = [.null, decimal("-5"), .int(1), .string("x")]
        XCTAssertEqual(CollectionOrdering.normalizedSet(sorted), sorted)
    }
}
