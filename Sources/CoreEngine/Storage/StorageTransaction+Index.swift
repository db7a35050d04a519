import CLMDB

/// Search indexes: one LMDB DUPSORT database whose keys are table | column | encoded value
/// (see `IndexKeyEncoding`) and whose duplicate values are the 8-byte big-endian object keys.
extension StorageTransaction {
    /// Calls `body` with the index key of a value (built in a reused buffer) and whether it was truncated.
    private func withIndexKey<R>(table: UInt32, column: UInt32, value: Value,
                                 _ body: (UnsafeRawBufferPointer, Bool) throws -> R) rethrows -> R {
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
