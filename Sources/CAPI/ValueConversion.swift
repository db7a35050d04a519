import CDBTypes
import CoreEngine

// db_value_t <-> Value. Incoming strings and binaries are copied; outgoing ones are lent from the
// thread's state: valid until the next call on the thread that succeeds and has a db_value_t output
// (it calls ThreadState.releaseBorrowed after its last throwing step, before writing its values),
// or until the thread exits (the rule db_types.h states for db_value_t).

func engineValue(_ value: db_value_t) throws -> Value {
    switch value.type {
    case DB_VALUE_NULL: return .null
    case DB_VALUE_BOOL:
        // Read the byte: a C bool holding something other than 0 or 1 is still a valid input.
        var copy = value
        return .bool(withUnsafeBytes(of: &copy.boolean) { $0[0] } != 0)
    case DB_VALUE_INT: return .int(value.integer)
    case DB_VALUE_FLOAT: return .float(value.fnum)
    case DB_VALUE_DOUBLE: return .double(value.dnum)
    case DB_VALUE_STRING:
        let bytes = try borrowedBytes(UnsafeRawPointer(value.string.data), value.string.size, "string")
        guard let string = validatedString(bytes) else {
            throw DBError(.invalidArgument, "string value is not valid UTF-8")
        }
        return .string(string)
    case DB_VALUE_DATA:
        return .data(Array(try borrowedBytes(UnsafeRawPointer(value.binary.data), value.binary.size, "binary")))
    case DB_VALUE_TIMESTAMP:
        let t = value.timestamp
        guard t.nanoseconds > -1_000_000_000, t.nanoseconds < 1_000_000_000,
              t.seconds == 0 || t.nanoseconds == 0 || (t.seconds > 0) == (t.nanoseconds > 0) else {
            throw DBError(.invalidArgument, "timestamp nanoseconds \(t.nanoseconds) must be in (-1e9, 1e9) with the sign of seconds")
        }
        return .timestamp(Timestamp(seconds: t.seconds, nanoseconds: t.nanoseconds))
    case DB_VALUE_OBJECT_ID:
        var id = value.object_id
        return .objectID(ObjectID(bytes: withUnsafeBytes(of: &id.bytes) { Array($0) })!)
    case DB_VALUE_UUID:
        var id = value.uuid
        return .uuid(UUIDValue(bytes: withUnsafeBytes(of: &id.bytes) { Array($0) })!)
    case DB_VALUE_DECIMAL128:
        return .decimal128(Decimal128(low: value.decimal128.w.0, high: value.decimal128.w.1))
    case DB_VALUE_LINK:
        return .link(ObjectLink(table: value.link.class_key, key: value.link.object_key))
    default:
        throw DBError(.invalidArgument, "unknown value type \(value.type.rawValue)")
    }
}

/// The largest string or binary value, in bytes.
let maxValueBytes = Int(Int32.max)

/// UTF-8 input as a String, nil when it is not valid UTF-8. ASCII, the common case, is checked
/// eight bytes at a time and decoded directly; other text goes through the validating decoder
/// (which costs about a thousand instructions for a short string).
private func validatedString(_ raw: UnsafeRawBufferPointer) -> String? {
    let bytes = raw.bindMemory(to: UInt8.self)
    var index = 0
    var high: UInt64 = 0
    if let base = raw.baseAddress {
        while index + 8 <= raw.count {
            high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
    }
    var isASCII = high & 0x8080_8080_8080_8080 == 0
    while isASCII && index < bytes.count {
        isASCII = bytes[index] < 0x80
        index += 1
    }
    if isASCII { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
}

private func borrowedBytes(_ pointer: UnsafeRawPointer?, _ size: Int, _ what: String) throws -> UnsafeRawBufferPointer {
    // size_t fields arrive as Int: a size of 2^63 or more is negative here.
    guard size >= 0 else { throw DBError(.invalidArgument, "\(what) value has an impossible size") }
    guard size <= maxValueBytes else {
        throw DBError(.invalidArgument, "\(what) value of \(size) bytes is larger than the \(maxValueBytes) bytes a value may hold")
    }
    if size == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
    guard let pointer else { throw DBError(.invalidArgument, "\(what) value has size \(size) but a NULL data pointer") }
    return UnsafeRawBufferPointer(start: pointer, count: size)
}

/// Writes a value for C; string and binary bytes are lent by `state`.
func cValue(_ value: Value, _ state: ThreadState) -> db_value_t {
    cValue(value) { state.lend($0) }
}

/// Writes a number a batch read handed over for C.
func cValue(_ number: StoredNumber) -> db_value_t {
    var out = db_value_t()
    switch number {
    case .null: out.type = DB_VALUE_NULL
    case let .bool(b): out.type = DB_VALUE_BOOL; out.boolean = b
    case let .int(i): out.type = DB_VALUE_INT; out.integer = i
    case let .float(f): out.type = DB_VALUE_FLOAT; out.fnum = f
    case let .double(d): out.type = DB_VALUE_DOUBLE; out.dnum = d
    }
    return out
}

/// Writes a value a point read handed over for C; string and binary bytes go where `place` copies them.
func cValue(_ contents: StoredContents, _ place: (UnsafeRawBufferPointer) -> UnsafeMutableRawPointer) -> db_value_t {
    var out = db_value_t()
    switch contents {
    case let .value(value):
        return cValue(value, place)
    case let .text(bytes):
        out.type = DB_VALUE_STRING
        out.string = db_string_t(data: place(bytes).assumingMemoryBound(to: CChar.self), size: bytes.count)
    case let .binary(bytes):
        out.type = DB_VALUE_DATA
        out.binary = db_binary_t(data: place(bytes).assumingMemoryBound(to: UInt8.self), size: bytes.count)
    }
    return out
}

/// Writes a value for C; string and binary bytes go where `place` copies them.
func cValue(_ value: Value, _ place: (UnsafeRawBufferPointer) -> UnsafeMutableRawPointer) -> db_value_t {
    var out = db_value_t()
    switch value {
    case .null:
        out.type = DB_VALUE_NULL
    case let .bool(b):
        out.type = DB_VALUE_BOOL; out.boolean = b
    case let .int(i):
        out.type = DB_VALUE_INT; out.integer = i
    case let .float(f):
        out.type = DB_VALUE_FLOAT; out.fnum = f
    case let .double(d):
        out.type = DB_VALUE_DOUBLE; out.dnum = d
    case let .string(s):
        var s = s
        out.type = DB_VALUE_STRING
        s.withUTF8 { utf8 in
            let copy = place(UnsafeRawBufferPointer(utf8))
            out.string = db_string_t(data: copy.assumingMemoryBound(to: CChar.self), size: utf8.count)
        }
    case let .data(d):
        out.type = DB_VALUE_DATA
        d.withUnsafeBytes { bytes in
            let copy = place(bytes)
            out.binary = db_binary_t(data: copy.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        }
    case let .timestamp(t):
        out.type = DB_VALUE_TIMESTAMP
        out.timestamp = db_timestamp_t(seconds: t.seconds, nanoseconds: t.nanoseconds)
    case let .objectID(o):
        out.type = DB_VALUE_OBJECT_ID
        withUnsafeMutableBytes(of: &out.object_id.bytes) { $0.copyBytes(from: o.bytes) }
    case let .uuid(u):
        out.type = DB_VALUE_UUID
        withUnsafeMutableBytes(of: &out.uuid.bytes) { $0.copyBytes(from: u.bytes) }
    case let .decimal128(d):
        out.type = DB_VALUE_DECIMAL128
        out.decimal128.w = (d.low, d.high)
    case let .link(link):
        out.type = DB_VALUE_LINK
        out.link = db_link_t(class_key: link.table, object_key: link.key)
    }
    return out
}

/// Caller memory that a read copies strings and binaries into, in order and back to back, until
/// one does not fit (the `buffer` of db_object_get_values_by_key, db_results_get_values_into):
/// the caller reads them from its own memory, and the thread lends (mallocs) none. The value that
/// does not fit, and every one after it, is lent by the thread as usual, so that the copied
/// bytes are always a prefix of the values' bytes in order.
struct CallerBytes {
    private var next: UnsafeMutableRawPointer?
    private var room: Int

    /// `buffer` may be NULL (every value is then lent; `size` is ignored).
    init(_ buffer: UnsafeMutableRawPointer?, _ size: UInt) throws {
        next = buffer
        room = buffer == nil ? 0 : try bufferCount(size, "buffer_size", elementSize: 1)
    }

    /// Where `bytes` go: the caller's buffer until they do not fit, then memory lent by `state`.
    mutating func place(_ bytes: UnsafeRawBufferPointer, _ state: ThreadState) -> UnsafeMutableRawPointer {
        guard let next, bytes.count <= room else {
            self.next = nil  // full: the rest is lent, so the buffer holds a prefix in order
            return state.lend(bytes)
        }
        if let base = bytes.baseAddress, bytes.count > 0 { next.copyMemory(from: base, byteCount: bytes.count) }
        self.next = next + bytes.count
        room -= bytes.count
        return next
    }
}

/// Reads `count` values from a C array.
func engineValues(_ values: UnsafePointer<db_value_t>?, _ count: Int, _ name: @autoclosure () -> String) throws -> [Value] {
    if count == 0 { return [] }
    let values = try require(values, name())
    return try (0..<count).map { index in
        do {
            return try engineValue(values[index])
        } catch let error as DBError {
            throw DBError(error.code, "\(name())[\(index)]: \(error.message)")
        }
    }
}

/// Resolves `count` property keys of a class.
func properties(_ keys: UnsafePointer<db_property_key_t>?, _ count: Int, of classInfo: ClassInfo) throws -> [PropertyInfo] {
    if count == 0 { return [] }
    let keys = try require(keys, "property_keys")
    return try (0..<count).map { try classInfo.property(key: keys[$0]) }
}
