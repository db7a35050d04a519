/// Reads and writes fixed-width values (every type but string and data) at a raw address,
/// little-endian and unaligned. Column blocks and their mutable buffers share it.
enum FixedWidthCodec {
    static func read(_ type: PropertyType, at base: UnsafeRawPointer) -> Value {
        switch type {
        case .bool:
            return .bool(base.load(as: UInt8.self) != 0)
        case .int:
            return .int(Int64(littleEndian: base.loadUnaligned(as: Int64.self)))
        case .float:
            return .float(Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(as: UInt32.self))))
        case .double:
            return .double(Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))))
        case .timestamp:
            return .timestamp(Timestamp(
                seconds: Int64(littleEndian: base.loadUnaligned(as: Int64.self)),
                nanoseconds: Int32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: Int32.self))))
        case .objectID:
            return .objectID(ObjectID(bytes: Array(UnsafeRawBufferPointer(start: base, count: 12)))!)
        case .uuid:
            return .uuid(UUIDValue(bytes: Array(UnsafeRawBufferPointer(start: base, count: 16)))!)
        case .decimal128:
            return .decimal128(Decimal128(
                low: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)),
                high: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self))))
        case .string, .data, .object, .linkingObjects, .mixed:
            preconditionFailure("type \(type) has no fixed-width encoding")
        }
    }

    /// Writes `value` (already coerced to `type`; null writes zeros) at `base`.
    static func write(_ value: Value, at base: UnsafeMutableRawPointer, width: Int) {
        switch value {
        case .null:
            base.initializeMemory(as: UInt8.self, repeating: 0, count: width)
        case let .bool(b):
            base.storeBytes(of: b ? 1 : 0, as: UInt8.self)
        case let .int(i):
            base.storeBytes(of: i.littleEndian, as: Int64.self)
        case let .float(f):
            base.storeBytes(of: f.bitPattern.littleEndian, as: UInt32.self)
        case let .double(d):
            base.storeBytes(of: d.bitPattern.littleEndian, as: UInt64.self)
        case let .timestamp(t):
            base.storeBytes(of: t.seconds.littleEndian, as: Int64.self)
            base.storeBytes(of: t.nanoseconds.littleEndian, toByteOffset: 8, as: Int32.self)
        case let .objectID(o):
            o.bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 12) }
        case let .uuid(u):
            u.bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 16) }
        case let .decimal128(d):
            base.storeBytes(of: d.low.littleEndian, as: UInt64.self)
            base.storeBytes(of: d.high.littleEndian, toByteOffset: 8, as: UInt64.self)
        case .string, .data, .link:
            preconditionFailure("\(value.typeName) value written to a fixed-width column")
        }
    }
}
