import XCTest
@testable import CoreEngine

/// `PackedValues` (Storage/PackedValues): the stored form of mixed values and collections, round
/// trips of every type, and damaged bytes refused as file-format errors instead of read as values.
final class PackedValuesTests: XCTestCase {
    static let everyType: [Value] = [
        .null, .bool(true), .bool(false), .int(0), .int(-1), .int(.max), .int(.min), .float(-0.5), .double(.infinity),
        .double(.nan), .string(""), .string("é\u{0}x"), .data([]), .data([0, 255, 7]),
        .timestamp(Timestamp(seconds: -3, nanoseconds: -999_999_999)), .objectID(ObjectID(bytes: Array(0..<12))!),
        .uuid(UUIDValue(bytes: Array(repeating: 0xAB, count: 16))!), .decimal128(Decimal128(low: 1, high: 0x3040_0000_0000_0000)),
        .link(ObjectLink(table: 7, key: 1 << 40)),
    ]

    func testEveryTypeRoundTripsAloneAndInACollection() throws {
        for value in Self.everyType {
            XCTAssertEqual(try PackedValues.decodeValue(PackedValues.encodeValue(value)), value, "\(value)")
        }
        XCTAssertEqual(try PackedValues.decode(PackedValues.encode(Self.everyType)), Self.everyType)
        XCTAssertEqual(try PackedValues.decode(PackedValues.encode([])), [])
    }

    func testLinkKeysReadOnlyAllLinkCollections() {
        let links = PackedValues.encode([.link(ObjectLink(table: 2, key: 5)), .link(ObjectLink(table: 2, key: 9))])
        XCTAssertEqual(links.withUnsafeBytes { PackedValues.linkKeys($0) }, [5, 9])
        let mixed = PackedValues.encode([.link(ObjectLink(table: 2, key: 5)), .int(9)])
        XCTAssertNil(mixed.withUnsafeBytes { PackedValues.linkKeys($0) }, "not every element is a link")
    }

    func testEveryTruncationOfACollectionIsAnErrorNotAValue() {
        let bytes = PackedValues.encode(Self.everyType)
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try PackedValues.decode(Array(bytes[0..<length])), "\(length) of \(bytes.count) bytes") { error in
                XCTAssertEqual((error as? DBError)?.code, .fileFormat, "\(error)")
            }
        }
    }

    func testACountBeyondTheBytesAndAnUnknownTagAreRefused() {
        XCTAssertThrowsError(try PackedValues.decode([0xFF, 0xFF, 0x03, 0])) { error in
            XCTAssertEqual((error as? DBError)?.code, .fileFormat)
        }
        XCTAssertThrowsError(try PackedValues.decodeValue([200])) { error in
            XCTAssertEqual((error as? DBError)?.code, .fileFormat)
        }
    }
}
