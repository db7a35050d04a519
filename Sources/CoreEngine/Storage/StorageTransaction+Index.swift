import CLMDB

/// Search indexes: one LMDB DUPSORT database whose keys are table | column | encoded value
/// (see `IndexKeyEncoding`) and whose duplicate values are the 8-byte big-endian object keys.
extension StorageTransaction {
    /// Calls `body` with the index key of a value (built in a reused buffer) and whether it was truncated.
    private func withIndexKey<R>(table: UInt32, column: UInt32, value: Value,
                                 _ body: (UnsafeRawBufferPointer, Bool) throws -> R) rethrows -> R {
        if case let .int(integer) = value {
            return try IndexKeyEncoding.withIntKey(table: table, column: column, value: integer) { try body($0, false) }
        }
        var key = takeScratch()
        defer { returnScratch(key) }
        StorageKeys.append(table, to: &key)
        StorageKeys.append(column, to: &key)
        let truncated = IndexKeyEncoding.encode(value, into: &key)
        return try key.withUnsafeBytes { try body($0, truncated) }
    }

    private func withObjectKeyBytes<R>(_ key: Int64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: UInt64(bitPattern: key).bigEndian) { try body($0) }
    }

    func addIndexEntry(table: UInt32, column: UInt32, value: Value, key: Int64) throws {
        let dbi = environment.indexDB
        try withIndexKey(table: table, column: column, value: value) { indexKey, _ in
            try withObjectKeyBytes(key) { try lmdb.put(dbi, indexKey, $0) }
        }
    }

    func removeIndexEntry(table: UInt32, column: UInt32, value: Value, key: Int64) throws {
        let dbi = environment.indexDB
        try withIndexKey(table: table, column: column, value: value) { indexKey, _ in
            _ = try withObjectKeyBytes(key) { try lmdb.delete(dbi, indexKey, value: $0) }
        }
    }

    /// Keys of the objects whose value in an indexed column equals `value`, ascending.
    func indexLookup(table: UInt32, column: ColumnSpec, value: Value) throws -> [Int64] {
        var key = StorageKeys.blockPrefix(table: table, column: column.id)
        let truncated = IndexKeyEncoding.encode(value, into: &key)
        var keys: [Int64] = []
        try lmdb.scan(environment.indexDB, prefix: key) { entryKey, entryValue in
            guard entryKey.count == key.count else { return false }
            if entryValue.count == 8 {
                keys.append(Int64(bitPattern: UInt64(bigEndian: entryValue.loadUnaligned(as: UInt64.self))))
            }
            return true
        }
        if truncated {
            keys = try keys.filter { try self.value(table: table, column: column, key: $0) == value }
        }
        return keys
    }

    /// The first object (lowest key) whose indexed value equals `value`, without a cursor when the
    /// value's encoding is exact. The primary-key path of create and find.
    func indexFirst(table: UInt32, column: ColumnSpec, value: Value) throws -> Int64? {
        let dbi = environment.indexDB
        let found: Int64?? = try withIndexKey(table: table, column: column.id, value: value) { key, truncated in
            if truncated { return nil }  // resolved below, by comparing values
            guard let found = try lmdb.get(dbi, key), found.count == 8 else { return .some(nil) }
            return .some(Int64(bitPattern: UInt64(bigEndian: found.loadUnaligned(as: UInt64.self))))
        }
        if let found { return found }
        return try indexLookup(table: table, column: column, value: value).first
    }

    /// Rebuilds a column's index from its values (after a migration adds the index or changes the data).
    func rebuildIndex(table: UInt32, column: ColumnSpec) throws {
        try lmdb.deletePrefix(environment.indexDB, prefix: StorageKeys.blockPrefix(table: table, column: column.id))
        try forEachObjectKey(table: table) { key in
            try addIndexEntry(table: table, column: column.id, value: value(table: table, column: column, key: key), key: key)
        }
    }

    func dropIndex(table: UInt32, column: UInt32) throws {
        try lmdb.deletePrefix(environment.indexDB, prefix: StorageKeys.blockPrefix(table: table, column: column))
    }
}

/// Ordered index scans: the index orders entries by encoded value, so ranges and prefixes are
/// contiguous runs of keys.
extension StorageTransaction {
    /// One end of an index range.
    struct IndexBound {
        var value: Value
        var inclusive: Bool
    }

    /// Keys of objects whose indexed value lies in a range (nulls never do), in value order.
    /// Truncated long strings may add candidates that are not in the range: callers re-check.
    /// - Parameter limit: stop after this many keys and return nil (the range is not selective).
    func indexRange(table: UInt32, column: UInt32, lower: IndexBound?, upper: IndexBound?, limit: Int = .max) throws -> [Int64]? {
        let prefix = StorageKeys.blockPrefix(table: table, column: column)
        var start = prefix, end = prefix
        var lowerExclusive: [UInt8]? = nil, upperExclusive: [UInt8]? = nil, upperTruncated = false
        if let lower {
            let truncated = IndexKeyEncoding.encode(lower.value, into: &start)
            if !lower.inclusive && !truncated { lowerExclusive = start }
        } else {
            start.append(1)  // skip nulls (encoded 00)
        }
        if let upper {
            upperTruncated = IndexKeyEncoding.encode(upper.value, into: &end)
            if !upper.inclusive && !upperTruncated { upperExclusive = end }
        }
        // Size the range first by distinct values (cheap for low-cardinality columns): a range
        // too large to be worth it is abandoned without reading its entries.
        // Byte order is value order (strings have no terminator: "ab" < "abc"). A truncated
        // bound cannot decide for keys that extend it: keep those, callers re-check.
        func beyondUpper(_ key: UnsafeRawBufferPointer) -> Bool {
            guard upper != nil else { return false }
            if ValueOrdering.compareBytes(key, end) > 0 && !(upperTruncated && key.starts(with: end)) { return true }
            if let upperExclusive, key.elementsEqual(upperExclusive) { return true }
            return false
        }
        if limit < .max {
            var total = 0
            try lmdb.scanDistinct(environment.indexDB, from: start) { key, count in
                guard key.starts(with: prefix), !beyondUpper(key) else { return false }
                if let lowerExclusive, key.elementsEqual(lowerExclusive) { return true }
                total += count
                return total <= limit
            }
            if total > limit { return nil }
        }
        var keys: [Int64] = []
        var exceeded = false
        try lmdb.scan(environment.indexDB, prefix: prefix, from: start) { key, value in
            if let lowerExclusive, key.elementsEqual(lowerExclusive) { return true }
            if beyondUpper(key) { return false }
            guard value.count == 8 else { return true }
            keys.append(Int64(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))))
            if keys.count > limit { exceeded = true; return false }
            return true
        }
        return exceeded ? nil : keys
    }

    /// Keys of objects whose indexed string (or data) starts with `prefix` bytes, in value order.
    /// The index keeps the first `IndexKeyEncoding.maxPayload` bytes of a value: for a longer
    /// prefix these are candidates that start with its first `maxPayload` bytes only.
    func indexPrefix(table: UInt32, column: UInt32, prefix: [UInt8], limit: Int = .max) throws -> [Int64]? {
        var start = StorageKeys.blockPrefix(table: table, column: column)
        start.append(1)
        start.append(contentsOf: prefix.prefix(IndexKeyEncoding.maxPayload))
        var keys: [Int64] = []
        var exceeded = false
        try lmdb.scan(environment.indexDB, prefix: start) { _, value in
            guard value.count == 8 else { return true }
            keys.append(Int64(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))))
            if keys.count > limit { exceeded = true; return false }
            return true
        }
        return exceeded ? nil : keys
    }

    /// How many objects have exactly this indexed value (LMDB counts duplicates in O(1)).
    func indexCount(table: UInt32, column: UInt32, value: Value) throws -> Int {
        var key = StorageKeys.blockPrefix(table: table, column: column)
        _ = IndexKeyEncoding.encode(value, into: &key)
        return try lmdb.duplicateCount(environment.indexDB, key)
    }
}
