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
}

