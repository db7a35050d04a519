/// Order-preserving byte encodings of indexable values, for the "index" database.
///
/// Comparing two encodings byte by byte gives the same order as comparing the values: null first,
/// then false < true, integers and dates numerically, strings by UTF-8 bytes (which is Unicode
/// code-point order), objectIds and uuids by bytes. Strings and data longer than
/// `maxPayload` bytes are truncated; lookups then confirm candidates against the stored value.
enum IndexKeyEncoding {
    /// Keeps table | column | marker | payload within LMDB's 511-byte key limit.
    static let maxPayload = 500

    /// Returns the encoding and whether it was truncated.
    static func encode(_ value: Value) -> (bytes: [UInt8], truncated: Bool) {
        var out: [UInt8] = []
        let truncated = encode(value, into: &out)
        return (out, truncated)
    }

    /// The length of an integer's index key: table, column, the non-null marker, the value.
    static let intKeySize = 4 + 4 + 1 + 8

    /// Calls `body` with the index key of an integer (table | column | `encode(.int(value))`, the
    /// bytes `StorageTransaction` otherwise builds in an array), built on the stack: integer keys
    /// (most primary keys) are looked up, added and removed for every point read, create and
    /// delete, and appending them to an array was a tenth of a lookup by primary key (callgrind).
    @inline(__always)
    static func withIntKey<R>(table: UInt32, column: UInt32, value: Int64,
                              _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: intKeySize, alignment: 8) { raw in
            raw.storeBytes(of: table.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: column.bigEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: 1, toByteOffset: 8, as: UInt8.self)
            raw.storeBytes(of: (UInt64(bitPattern: value) ^ (1 << 63)).bigEndian, toByteOffset: 9, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(raw))
        }
    }

    /// Appends the encoding to `out`; returns whether it was truncated.
    static func encode(_ value: Value, into out: inout [UInt8]) -> Bool {
        func flipped(_ v: Int64) { out.appendBigEndian(UInt64(bitPattern: v) ^ (1 << 63)) }
        switch value {
        case .null:
            out.append(0)
        case let .bool(b):
            out.append(1); out.append(b ? 1 : 0)
        case let .int(i):
            out.append(1); flipped(i)
        case let .timestamp(t):
            out.append(1); flipped(t.seconds)
            out.appendBigEndian(UInt32(bitPattern: t.nanoseconds) ^ (1 << 31))
        case let .string(s):
            out.append(1)
            let utf8 = s.utf8
            out.append(contentsOf: utf8.prefix(maxPayload))
            return utf8.count >= maxPayload
        case let .data(d):
            out.append(1)
            out.append(contentsOf: d.prefix(maxPayload))
            return d.count >= maxPayload
        case let .objectID(o):
            out.append(1); out.append(contentsOf: o.bytes)
        case let .uuid(u):
            out.append(1); out.append(contentsOf: u.bytes)
        case let .float(f):
            out.append(1); out.appendBigEndian(f.bitPattern)
        case let .double(d):
            out.append(1); out.appendBigEndian(d.bitPattern)
        case let .decimal128(d):
            out.append(1)
            out.appendBigEndian(d.high)
            out.appendBigEndian(d.low)
        case let .link(link):
            out.append(1)
            out.appendBigEndian(link.table)
            flipped(link.key)
        }
        return false
    }
}

/// Keys of compound indexes: table | index id | one component per column, each self-delimiting so
/// that concatenations compare like tuples.
///
/// Fixed-width values are encoded as in single-column indexes. Strings and data are escaped
/// (`00` becomes `00 FF`) and terminated by `00 00`; one longer than the component's byte budget
/// is cut to the budget and terminated by `00 01`, which still orders it correctly against any
/// shorter value, though not against another value sharing its first budget bytes (the later
/// components of such entries are then out of order; ordered reads check `isTruncated`).
enum CompoundIndexKeyEncoding {
    /// Raw bytes kept of each string or data component of an index over `count` columns, so that
    /// the whole key (escaping can double bytes) stays within LMDB's limit.
    static func budget(componentCount count: Int) -> Int {
        (IndexKeyEncoding.maxPayload / max(count, 1) - 3) / 2
    }

    /// Appends one component; returns whether it was truncated.
    @discardableResult
    static func appendComponent(_ value: Value, budget: Int, to out: inout [UInt8]) -> Bool {
        func escaped<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
            out.append(1)
            // The common case, no NUL among the bytes kept, is copied in one go.
            let copied: Bool?? = bytes.withContiguousStorageIfAvailable { raw -> Bool? in
                let kept = UnsafeBufferPointer(rebasing: raw.prefix(budget))
                guard !kept.contains(0) else { return nil }
                out.append(contentsOf: kept)
                let truncated = raw.count > budget
                out.append(0)
                out.append(truncated ? 1 : 0)
                return truncated
            }
            if let copied, let truncated = copied { return truncated }
            var written = 0
            for byte in bytes {
                if written == budget { out.append(0); out.append(1); return true }
                out.append(byte)
                if byte == 0 { out.append(0xFF) }
                written += 1
            }
            out.append(0); out.append(0)
            return false
        }
        switch value {
        case let .string(s): return escaped(s.utf8)
        case let .data(d): return escaped(d)
        default: return IndexKeyEncoding.encode(value, into: &out)
        }
    }

    /// Whether any component of a stored compound key (after table | index id) was truncated.
    /// - Parameter types: the index's column types, in key order.
    static func isTruncated(_ key: UnsafeRawBufferPointer, types: [PropertyType]) -> Bool {
        var i = 8
        for type in types {
            guard i < key.count else { return false }
            if key[i] == 0 { i += 1; continue }  // null
            i += 1
            switch type {
            case .string, .data:
                scanning: while i + 1 < key.count {
                    guard key[i] == 0 else { i += 1; continue }
                    switch key[i + 1] {
                    case 0: i += 2; break scanning  // terminator
                    case 1: return true              // truncated
                    default: i += 2                  // escaped NUL
                    }
                }
            case .bool: i += 1
            case .int: i += 8
            case .timestamp: i += 12
            case .objectID: i += 12
            case .uuid: i += 16
            default: return false  // not indexable
            }
        }
        return false
    }
}
