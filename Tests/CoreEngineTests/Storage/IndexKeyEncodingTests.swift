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

    /// A compound key's string and data components, against the byte-by-byte definition: `01`,
    /// the bytes with each `00` escaped as `00 FF`, then `00 00`, or `00 01` when cut at the budget.
    func testCompoundComponentsEscapeNulsAndCutAtTheBudget() {
        func reference(_ bytes: [UInt8], budget: Int) -> ([UInt8], Bool) {
            var out: [UInt8] = [1]
            for (written, byte) in bytes.enumerated() {
                if written == budget { return (out + [0, 1], true) }
                out.append(byte)
                if byte == 0 { out.append(0xFF) }
            }
            return (out + [0, 0], false)
        }
        var rng = SeededGenerator(seed: 0xC0DE)
        for round in 0..<3000 {
            let budget = 1 + rng.next(12)
            let bytes = (0..<rng.next(20)).map { _ in rng.next(4) == 0 ? 0 : UInt8(truncatingIfNeeded: 0x61 + rng.next(26)) }
            let expected = reference(bytes, budget: budget)
            var fromData: [UInt8] = []
            XCTAssertEqual(CompoundIndexKeyEncoding.appendComponent(.data(bytes), budget: budget, to: &fromData), expected.1, "round \(round)")
            XCTAssertEqual(fromData, expected.0, "round \(round): \(bytes), budget \(budget)")
            var fromString: [UInt8] = [9]
            let text = String(decoding: bytes, as: UTF8.self)
            let textExpected = reference(Array(text.utf8), budget: budget)
            XCTAssertEqual(CompoundIndexKeyEncoding.appendComponent(.string(text), budget: budget, to: &fromString), textExpected.1)
            XCTAssertEqual(fromString, [9] + textExpected.0, "appends after what is there")
        }
    }

    /// The key built on the stack for integers is the general encoding's, byte for byte: a
    /// difference would make every integer index (primary keys) miss what it stored.
    func testIntegerKeysOnTheStackMatchTheEncoding() {
        let samples: [Int64] = [0, 1, -1, 42, -42, 255, 256, Int64(Int32.max), Int64(Int32.min), .max, .min, .max - 1, .min + 1]
        for (table, column) in [(UInt32(1), UInt32(2)), (0xABCD_0123, 0xFFFF_FFFF), (0, 0)] {
            for value in samples {
                var expected = StorageKeys.blockPrefix(table: table, column: column)
                XCTAssertFalse(IndexKeyEncoding.encode(.int(value), into: &expected))
                let built = IndexKeyEncoding.withIntKey(table: table, column: column, value: value) { Array($0) }
                XCTAssertEqual(built, expected, "table \(table), column \(column), value \(value)")
                XCTAssertEqual(built.count, IndexKeyEncoding.intKeySize)
            }
        }
    }
}
