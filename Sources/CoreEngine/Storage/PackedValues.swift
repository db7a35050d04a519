/// The stored form of a mixed value and of a collection's contents (see docs/FORMAT.md): a
/// self-describing sequence of tagged values, kept in one variable-width slot of a column block.
///
///     value:       u8 tag | payload
///                  tag 0 null; 1-10 the scalar types (db_property_type_e), payload fixed-width
///                  little-endian as in column blocks, or varint length + bytes for string and data;
///                  11 link, payload u32 table id | i64 object key
///     collection:  varint count | count values (a dictionary: count pairs of string key, value)
enum PackedValues {
    static let linkTag: UInt8 = 11

    static func encodeValue(_ value: Value) -> [UInt8] {
        var writer = ByteWriter(capacity: 24)
        append(value, to: &writer)
        return writer.bytes
    }

    static func decodeValue(_ bytes: [UInt8]) throws -> Value {
        var reader = ByteReader(bytes)
        return try read(&reader)
    }

    static func encode(_ values: [Value]) -> [UInt8] {
        var writer = ByteWriter(capacity: 8 + values.count * 10)
        writer.varint(UInt64(values.count))
        for value in values { append(value, to: &writer) }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> [Value] {
        var reader = ByteReader(bytes)
        let count = try reader.varint()
        guard count <= UInt64(bytes.count) else { throw DBError(.fileFormat, "corrupt collection: \(count) elements in \(bytes.count) bytes") }
        var values: [Value] = []
        values.reserveCapacity(Int(count))
        for _ in 0..<count { values.append(try read(&reader)) }
        return values
    }

    /// The object keys of an encoded collection made only of links (a list or set of objects),
    /// read in place; nil when it holds anything else (then decode it).
    static func linkKeys(_ bytes: UnsafeRawBufferPointer) -> [Int64]? {
        var position = 0, count: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { return nil }
            let byte = bytes[position]
            position += 1
            count |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        guard count <= UInt64(bytes.count) else { return nil }
        var keys: [Int64] = []
        keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard position + 13 <= bytes.count, bytes[position] == linkTag else { return nil }
            keys.append(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 5, as: Int64.self)))
            position += 13
        }
        return keys
    }

    static func append(_ value: Value, to writer: inout ByteWriter) {
        switch value {
        case .null:
            writer.u8(0)
        case let .string(s):
            writer.u8(PropertyType.string.rawValue)
            writer.bytes(Array(s.utf8))
        case let .data(d):
            writer.u8(PropertyType.data.rawValue)
            writer.bytes(d)
        case let .link(link):
            writer.u8(linkTag)
            writer.u32(link.table)
            writer.i64(link.key)
        default:
            let type = value.propertyType!, width = type.fixedWidth!
            writer.u8(type.rawValue)
            var payload = [UInt8](repeating: 0, count: width)
            payload.withUnsafeMutableBytes { FixedWidthCodec.write(value, at: $0.baseAddress!, width: width) }
            writer.raw(payload)
        }
    }

    static func read(_ reader: inout ByteReader) throws -> Value {
        let tag = try reader.u8()
        if tag == 0 { return .null }
        if tag == linkTag { return .link(ObjectLink(table: try reader.u32(), key: try reader.i64())) }
        guard let type = PropertyType(rawValue: tag), type.isScalar else {
            throw DBError(.fileFormat, "corrupt packed value: unknown tag \(tag)")
        }
        switch type {
        case .string: return .string(try reader.string())
        case .data: return .data(try reader.bytes())
        default:
            let payload = try reader.raw(type.fixedWidth!)
            return payload.withUnsafeBytes { FixedWidthCodec.read(type, at: $0.baseAddress!) }
        }
    }
}
