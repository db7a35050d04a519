import XCTest
@testable import CoreEngine

final class ColumnBlockTests: XCTestCase {
    private func roundTrip(_ buffer: ColumnBuffer) throws -> (ColumnBlockView, [UInt8]) {
        let bytes = buffer.encoded()
        return (try bytes.withUnsafeBytes { try ColumnBlockView(UnsafeRawBufferPointer(start: $0.baseAddress, count: $0.count)) }, bytes)
    }

    func testFixedWidthValuesRoundTripForEveryType() throws {
        let samples: [(PropertyType, Value)] = [
            (.bool, .bool(true)), (.int, .int(-42)), (.float, .float(1.25)), (.double, .double(-3.5e300)),
            (.timestamp, .timestamp(Timestamp(seconds: -5, nanoseconds: -7))),
            (.objectID, .objectID(ObjectID(bytes: Array(1...12))!)), (.uuid, .uuid(UUIDValue(bytes: Array(1...16))!)),
            (.decimal128, .decimal128(Decimal128(low: 12345, high: 0x3040_0000_0000_0000))),
            (.string, .string("héllo\0world")), (.data, .data([0, 255, 7])),
        ]
        for (type, value) in samples {
            var buffer = ColumnBuffer(type: type)
            buffer.set(value, at: 3, optional: true)
            buffer.set(.null, at: 5, optional: true)
            let bytes = buffer.encoded()
            try bytes.withUnsafeBytes { raw in
                let view = try ColumnBlockView(raw)
                XCTAssertEqual(view.value(at: 3, type: type, optional: true), value, "\(type)")
                XCTAssertEqual(view.value(at: 0, type: type, optional: true), .null, "slots skipped by an optional column are null")
                XCTAssertEqual(view.value(at: 5, type: type, optional: true), .null)
                XCTAssertEqual(view.value(at: 900, type: type, optional: true), .null, "beyond count")
                XCTAssertEqual(view.value(at: 900, type: type, optional: false), type.defaultValue)
                // Decoding back into a buffer keeps everything.
                let decoded = ColumnBuffer(type: type, decoding: view)
                XCTAssertEqual(decoded.value(at: 3, optional: true), value)
                XCTAssertEqual(decoded.value(at: 5, optional: true), .null)
                XCTAssertEqual(decoded.encoded(), bytes)
            }
        }
    }

    func testCorruptBlocksThrowInsteadOfTrapping() throws {
        for bytes: [UInt8] in [[], [9, 0, 0, 0, 1, 0, 0, 0], [1, 0, 8, 0, 200, 0, 0, 0, 1, 2], [2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 99, 0, 0, 0]] {
            try bytes.withUnsafeBytes { raw in
                XCTAssertThrowsError(try ColumnBlockView(raw)) { XCTAssertEqual(($0 as? DBError)?.code, .fileFormat) }
            }
        }
    }

    func testFixedWidthScanReadsContiguousMemory() throws {
        var buffer = ColumnBuffer(type: .int)
        for slot in 0..<1024 { buffer.set(.int(Int64(slot * 2)), at: slot, optional: false) }
        let (view, bytes) = try roundTrip(buffer)
        _ = bytes
        XCTAssertEqual(view.layout, .fixed)
        XCTAssertEqual(view.width, 8)
        XCTAssertEqual(bytes.count, columnBlockHeaderSize + 1024 * 8, "a required int column is a header plus a plain array")
    }

    func testPresenceBitmap() throws {
        var bitmap = PresenceBitmap()
        for slot in [0, 63, 64, 1023] { bitmap.insert(slot) }
        bitmap.remove(63)
        XCTAssertEqual(bitmap.slots, [0, 64, 1023])
        XCTAssertEqual(bitmap.count, 3)
        let decoded = try bitmap.encoded().withUnsafeBytes { try PresenceBitmap($0) }
        XCTAssertEqual(decoded, bitmap)
    }
}
