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

    /// Empty strings of a decoded block, after clears compact the arena, still read as "" (they
    /// used to keep their old offset, past the compacted arena: reading one trapped).
    func testEmptyStringsSurviveCompaction() throws {
        var written = ColumnBuffer(type: .string)
        for slot in 0..<100 { written.set(.string(slot % 3 == 0 ? "" : String(repeating: "x", count: 200)), at: slot, optional: false) }
        let (view, bytes) = try roundTrip(written)
        var decoded = ColumnBuffer(type: .string, decoding: view)
        withExtendedLifetime(bytes) {}
        for slot in 0..<100 where slot % 3 != 0 && slot < 90 { decoded.clear(slot) }
        for slot in stride(from: 0, to: 100, by: 3) { XCTAssertEqual(decoded.value(at: slot, optional: false), .string(""), "slot \(slot)") }
        XCTAssertEqual(decoded.value(at: 91, optional: false), .string(String(repeating: "x", count: 200)))
        let (again, againBytes) = try roundTrip(decoded)
        XCTAssertEqual(again.value(at: 99, type: .string, optional: false), .string(""))
        XCTAssertEqual(again.value(at: 92, type: .string, optional: false), .string(String(repeating: "x", count: 200)))
        withExtendedLifetime(againBytes) {}
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
        // A range beyond 32 bits: the ints stay 8 bytes each.
        for slot in 0..<1024 { buffer.set(.int(Int64(slot) << 33), at: slot, optional: false) }
        let (view, bytes) = try roundTrip(buffer)
        XCTAssertEqual(view.layout, .fixed)
        XCTAssertEqual(view.width, 8)
        XCTAssertEqual(bytes.count, columnBlockHeaderSize + 1024 * 8, "a required int column is a header plus a plain array")
    }

    /// Ints whose range fits in 1, 2 or 4 bytes are stored as offsets from the lowest: every
    /// value reads back, nulls included, at the edges of each width and of Int64.
    func testIntsArePackedByTheirRange() throws {
        let cases: [(values: [Int64], width: Int)] = [
            ((0..<1024).map { 20 + $0 % 80 }, 1),
            ((0..<1024).map { Int64.min + $0 % 256 }, 1),
            ((0..<1024).map { Int64.max - $0 % 256 }, 1),
            ((0..<1024).map { -1000 + $0 * 2 }, 2),
            ((0..<1024).map { $0 == 7 ? 65_535 : 0 }, 2),
            ((0..<1024).map { $0 == 7 ? 65_536 : -1 }, 4),
            ((0..<1024).map { 1_000_000_000_000 + $0 * 4_000_000 }, 4),
            ((0..<1024).map { $0 == 7 ? 4_294_967_295 : 0 }, 4),
            ((0..<1024).map { $0 == 7 ? 4_294_967_296 : 0 }, 8),
            ((0..<1024).map { $0 % 2 == 0 ? Int64.min : Int64.max }, 8),
        ]
        for (values, width) in cases {
            for withNulls in [false, true] {
                var buffer = ColumnBuffer(type: .int)
                for (slot, v) in values.enumerated() {
                    // Nulls hold no value: a null where the extreme value was must not widen the block.
                    buffer.set(withNulls && slot % 5 == 1 ? .null : .int(v), at: slot, optional: withNulls)
                }
                let (view, bytes) = try roundTrip(buffer)
                let kept = values.enumerated().filter { !(withNulls && $0.offset % 5 == 1) }.map(\.element)
                let span = UInt64(bitPattern: kept.max()! &- kept.min()!)
                let expectedWidth = span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : span <= 0xFFFF_FFFF ? 4 : 8
                XCTAssertEqual(view.layout, expectedWidth < 8 ? .packedInt : .fixed, "\(values.prefix(3))")
                XCTAssertEqual(view.width, expectedWidth)
                if !withNulls { XCTAssertEqual(view.width, width) }
                for (slot, v) in values.enumerated() {
                    let expected: Value = withNulls && slot % 5 == 1 ? .null : .int(v)
                    XCTAssertEqual(view.value(at: slot, type: .int, optional: true), expected, "slot \(slot)")
                }
                let decoded = ColumnBuffer(type: .int, decoding: view)
                XCTAssertEqual(decoded.value(at: 7, optional: true), buffer.value(at: 7, optional: true))
                XCTAssertEqual(decoded.encoded(), bytes, "decoding and encoding again gives the same bytes")
            }
        }
        // A block of one int is not worth packing: 8 bytes of base for 7 saved.
        var one = ColumnBuffer(type: .int)
        one.set(.int(5), at: 0, optional: false)
        XCTAssertEqual(try roundTrip(one).0.layout, .fixed)
        // Every slot null: packed, with base 0.
        var nulls = ColumnBuffer(type: .int)
        for slot in 0..<100 { nulls.set(.null, at: slot, optional: true) }
        let (allNull, allNullBytes) = try roundTrip(nulls)
        XCTAssertEqual(allNull.layout, .packedInt)
        XCTAssertEqual(allNull.value(at: 50, type: .int, optional: true), .null)
        withExtendedLifetime(allNullBytes) {}
    }

    func testDamagedPackedBlocksThrow() throws {
        // layout 4, width 3 (no such width); then width 1 with a base cut short; then offsets cut short.
        for bytes: [UInt8] in [[4, 0, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9],
                               [4, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0],
                               [4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0]] {
            try bytes.withUnsafeBytes { raw in
                XCTAssertThrowsError(try ColumnBlockView(raw)) { XCTAssertEqual(($0 as? DBError)?.code, .fileFormat) }
            }
        }
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
