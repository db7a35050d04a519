/// Key encodings of the LMDB databases (see docs/FORMAT.md). All integers are big-endian so
/// that LMDB's byte order is numeric order: one column's clusters are adjacent, in key order.
enum StorageKeys {
    /// Objects per cluster: object key `k` lives in cluster `k >> clusterShift`, slot `k & clusterMask`.
    static let clusterShift = 10
    static let clusterSize = 1 << clusterShift
    static let clusterMask = Int64(clusterSize - 1)
    /// Column id 0 of every table holds the presence bitmaps (which slots hold live objects).
    static let presenceColumn: UInt32 = 0

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.appendBigEndian(value)
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        bytes.appendBigEndian(value)
    }

    /// Calls `body` with the 16-byte "blocks" key of `key`, built on the stack.
    @inline(__always)
    static func withBlockKey<R>(_ key: BlockKey, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let raw = (key.table.bigEndian, key.column.bigEndian, UInt64(bitPattern: key.cluster).bigEndian)
        return try withUnsafeBytes(of: raw) { try body($0) }
    }

    /// "blocks" key: table | column | cluster.
    static func block(_ key: BlockKey) -> [UInt8] {
        var bytes = [UInt8](); bytes.reserveCapacity(16)
        append(key.table, to: &bytes); append(key.column, to: &bytes); append(UInt64(key.cluster), to: &bytes)
        return bytes
    }

    /// Prefix of every block of one column (or, with `column` nil, of one table).
    static func blockPrefix(table: UInt32, column: UInt32? = nil) -> [UInt8] {
        var bytes = [UInt8]()
        append(table, to: &bytes)
        if let column { append(column, to: &bytes) }
        return bytes
    }

    static func cluster(fromBlockKey key: UnsafeRawBufferPointer) -> Int64 {
        Int64(bitPattern: UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// "meta" key of a table's counters.
    static func tableCounters(_ table: UInt32) -> [UInt8] {
        var bytes: [UInt8] = Array("t/".utf8)
        append(table, to: &bytes)
        return bytes
    }

    /// "changes" key of a commit.
    static func change(version: UInt64) -> [UInt8] {
        var bytes = [UInt8]()
        append(version, to: &bytes)
        return bytes
    }

    static let formatKey: [UInt8] = Array("format".utf8)
    static let versionKey: [UInt8] = Array("version".utf8)
    static let schemaKey: [UInt8] = Array("schema".utf8)
}

/// Identifies one column block: a column of a table, for one cluster of objects.
struct BlockKey: Hashable {
    var table: UInt32
    var column: UInt32
    var cluster: Int64

    /// Two words into the hasher rather than three fields: the decoded-block tables of a write
    /// are looked up for every value it sets.
    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(table) << 32 | UInt64(column))
        hasher.combine(cluster)
    }

    /// The hash `Dictionary` uses, without `Hasher`: a write looks its decoded blocks up several
    /// times per value it sets or object it deletes, and SipHash took about a tenth of a delete's
    /// instructions (callgrind, C bench phase i). Keys are positions in the file, not text a user
    /// chooses, and every bit of the three fields reaches the low bits that pick a bucket.
    func _rawHashValue(seed: Int) -> Int {
        mixedHash((UInt64(table) << 32 | UInt64(column)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: cluster) &* 0xC2B2_AE3D_27D4_EB4F,
                  seed: seed)
    }
}

/// Which of a cluster's slots hold live objects: 1024 bits.
struct PresenceBitmap: Equatable {
    static let wordCount = StorageKeys.clusterSize / 64
    private(set) var words = [UInt64](repeating: 0, count: wordCount)

    init() {}

    /// Decodes the stored form: the column block header followed by 128 bytes of bits.
    init(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count == columnBlockHeaderSize + Self.wordCount * 8 else {
            throw DBError(.fileFormat, "corrupt presence block")
        }
        for i in 0..<Self.wordCount {
            words[i] = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: columnBlockHeaderSize + i * 8, as: UInt64.self))
        }
    }

    func contains(_ slot: Int) -> Bool { words[slot >> 6] & (1 << UInt64(slot & 63)) != 0 }
    mutating func insert(_ slot: Int) { words[slot >> 6] |= 1 << UInt64(slot & 63) }
    mutating func remove(_ slot: Int) { words[slot >> 6] &= ~(1 << UInt64(slot & 63)) }
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Live slots in ascending order.
    var slots: [Int] {
        var result: [Int] = []
        for (i, word) in words.enumerated() where word != 0 {
            var w = word
            while w != 0 {
                result.append(i * 64 + w.trailingZeroBitCount)
                w &= w - 1
            }
        }
        return result
    }

    func encoded() -> [UInt8] {
        var out: [UInt8] = [3, 0, 0, 0]
        withUnsafeBytes(of: UInt32(StorageKeys.clusterSize).littleEndian) { out.append(contentsOf: $0) }
        for word in words { withUnsafeBytes(of: word.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }
}
