/// Appends little-endian integers, varints and length-prefixed bytes to a buffer.
/// Used for everything the engine stores that is not a column block: the schema,
/// the change log and table counters. `ByteReader` reads the same encodings back.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    /// LEB128 unsigned varint.
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func bytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        varint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    mutating func string(_ value: String) { bytes(Array(value.utf8)) }

    mutating func raw<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }
}

/// Reads what `ByteWriter` wrote. Every read is bounds-checked and throws
/// `DBError(.fileFormat)` on truncated or corrupt input instead of trapping.
struct ByteReader {
    private let buffer: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { buffer = bytes }

    var isAtEnd: Bool { position >= buffer.count }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, buffer.count - position >= count else {
            throw DBError(.fileFormat, "truncated record at byte \(position)")
        }
        defer { position += count }
        return buffer[position..<(position + count)]
    }

    mutating func u8() throws -> UInt8 { try take(1).first! }

    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(0) { ($0 << 8) | UInt32($1) }
    }

    mutating func u64() throws -> UInt64 {
        try take(8).reversed().reduce(0) { ($0 << 8) | UInt64($1) }
    }

    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            guard shift < 64 else { throw DBError(.fileFormat, "varint too long at byte \(position)") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// The next `count` bytes, uninterpreted.
    mutating func raw(_ count: Int) throws -> ArraySlice<UInt8> { try take(count) }

    mutating func bytes() throws -> [UInt8] {
        let count = try varint()
        guard count <= UInt64(buffer.count) else { throw DBError(.fileFormat, "length \(count) exceeds record") }
        return Array(try take(Int(count)))
    }

    mutating func string() throws -> String {
        let raw = try bytes()
        guard let s = String(validating: raw, as: UTF8.self) else {
            throw DBError(.fileFormat, "invalid UTF-8 in stored string")
        }
        return s
    }
}
