import XCTest
@testable import CoreEngine

final class IndexKeyEncodingTests: XCTestCase {
    private func assertOrdered(_ values: [Value], file: StaticString = #filePath, line: UInt = #line) {
        let encoded = values.map { IndexKeyEncoding.encode($0).bytes }
        for (a, b) in zip(encoded, encoded.dropFirst()) {
            XCTAssertTrue(a.lexicographicallyPrecedes(b), "\(a) !< \(b)", file: file, line: line)
        }
    }

    func testIntegerOrderIncludingNegatives() {
        assertOrdered([.null, .int(.min), .int(-1), .int(0), .int(1), .int(.max)])
    }

    func testStringOrderIsCodePointOrder() {
        assertOrdered([.string(""), .string("A"), .string("Z"), .string("a"), .string("ab"), .string("é"), .string("😀")])
    }

    func testTimestampOrder() {
        assertOrdered([.timestamp(Timestamp(seconds: -2, nanoseconds: -5)), .timestamp(Timestamp(seconds: -2, nanoseconds: 0)),
                       .timestamp(Timestamp(seconds: 0, nanoseconds: 0)), .timestamp(Timestamp(seconds: 0, nanoseconds: 1)),
                       .timestamp(Timestamp(seconds: 1, nanoseconds: 0))])
    }

    func testLongStringsAreTruncatedAndFlagged() {
        let long = String(repeating: "x", count: 2000)
        let (bytes, truncated) = IndexKeyEncoding.encode(.string(long))
        XCTAssertTrue(truncated)
        XCTAssertLessThanOrEqual(bytes.count + 8, 511, "fits LMDB's key limit with the table and column prefix")
        XCTAssertFalse(IndexKeyEncoding.encode(.string("short")).truncated)
    }
}
