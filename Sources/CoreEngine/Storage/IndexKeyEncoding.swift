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

    /// Appends the encoding to `out`; returns whether it was truncated.
    static func encode(_ value: Value, into out: inout [UInt8]) -> Bool {
        func flipped(_ v: Int64) { withUnsafeBytes(of: (UInt64(bitPattern: v) ^ (1 << 63)).bigEndian) { out.append(contentsOf: $0) } }
        switch value {
        case .null:
            out.append(0)
        case let .bool(b):
            out.append(1); out.append(b ? 1 : 0)
        case let .int(i):
            out.append(1); flipped(i)
        case let .timestamp(t):
            out.append(1); flipped(t.seconds)
            withUnsafeBytes(of: (UInt32(bitPattern: t.nanoseconds) ^ (1 << 31)).bigEndian) { out.append(contentsOf: $0) }
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
            out.append(1); withUnsafeBytes(of: f.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        case let .double(d):
            out.append(1); withUnsafeBytes(of: d.bitPattern.bigEndian) { out.append(contentsOf: $0) }
        case let .decimal128(d):
            out.append(1)
            withUnsafeBytes(of: d.high.bigEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: d.low.bigEndian) { out.append(contentsOf: $0) }
        }
        return false
    }
}
