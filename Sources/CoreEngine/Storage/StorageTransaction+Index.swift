import CLMDB

/// Search indexes: one LMDB DUPSORT database whose keys are table | column | encoded value
/// (see `IndexKeyEncoding`) and whose duplicate values are the 8-byte big-endian object keys.
extension StorageTransaction {
    private func indexKey(table: UInt32, column: UInt32, value: Value) -> (key: [UInt8], truncated: Bool) {
        var key = StorageKeys.blockPrefix(table: table, column: column)
        let (encoded, truncated) = IndexKeyEncoding.encode(value)
        key.append(contentsOf: encoded)
        return (key, truncated)
    }

    private func objectKeyBytes(_ key: Int64) -> [UInt8] {
        var bytes = [UInt8]()
        StorageKeys.append(UInt64(bitPattern: key), to: &bytes)
        return bytes
    }

    func addIndexEntry(table: UInt32, column: UInt32, value: Value, key: Int64) throws {
        try lmdb.put(environment.indexDB, indexKey(table: table, column: column, value: value).key, objectKeyBytes(key))
    }

    func removeIndexEntry(table: UInt32, column: UInt32, value: Value, key: Int64) throws {
        try lmdb.delete(environment.indexDB, indexKey(table: table, column: column, value: value).key, value: objectKeyBytes(key))
    }

    /// Keys of the objects whose value in an indexed column equals `value`, ascending.
    func indexLookup(table: UInt32, column: ColumnSpec, value: Value) throws -> [Int64] {
        let (key, truncated) = indexKey(table: table, column: column.id, value: value)
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
