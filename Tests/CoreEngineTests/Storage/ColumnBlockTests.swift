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

    /// Variable-width values share one arena: rewrites and clears leave garbage that compaction and
    /// encoding drop, while every slot keeps reading its latest value (a model array says which).
    func testVariableWidthRewritesKeepEverySlot() throws {
        var generator = SeededGenerator(seed: 3)
        for type in [PropertyType.string, .data] {
            var buffer = ColumnBuffer(type: type)
            var model = [Value](repeating: .null, count: 300)
            for round in 0..<20_000 {
                let slot = Int.random(in: 0..<300, using: &generator)
                let length = Int.random(in: 0...40, using: &generator)
                let value: Value
                switch Int.random(in: 0...9, using: &generator) {
                case 0: value = .null
                case 1:
                    buffer.clear(slot)
                    if model[slot] != .null { model[slot] = type == .string ? .string("") : .data([]) }  // a null stays null
                    continue
                default:
                    value = type == .string ? .string(String(repeating: Character(UnicodeScalar(UInt8(97 + round % 26))), count: length))
                                            : .data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* round) })
                }
                buffer.set(value, at: slot, optional: true)
                model[slot] = value
                if round % 4_999 == 0 {
                    // Through the stored form and back into a buffer: the same values.
                    let (view, bytes) = try roundTrip(buffer)
                    _ = bytes
                    buffer = ColumnBuffer(type: type, decoding: view)
                }
            }
            let (view, bytes) = try roundTrip(buffer)
            let live = model.reduce(0) { total, value in
                switch value { case let .string(s): return total + s.utf8.count; case let .data(d): return total + d.count; default: return total }
            }
            XCTAssertLessThanOrEqual(bytes.count, columnBlockHeaderSize + 64 + 4 * 301 + live, "no garbage is stored")
            for slot in 0..<300 {
                let expected = model[slot]
                let isEmptyValue = expected == .string("") || expected == .data([])
                XCTAssertEqual(buffer.value(at: slot, optional: true), expected, "\(type) slot \(slot)")
                if !isEmptyValue { XCTAssertEqual(view.value(at: slot, type: type, optional: true), expected, "\(type) slot \(slot)") }
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
