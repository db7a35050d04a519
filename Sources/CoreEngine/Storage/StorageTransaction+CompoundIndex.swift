import CLMDB

/// A compound index as the storage layer uses it: its id and its columns in key order.
struct CompoundIndexSpec: Hashable {
    var id: UInt32
    var columns: [ColumnSpec]
    /// Raw bytes kept of each string or data component (see `CompoundIndexKeyEncoding`).
    var budget: Int

    init(_ index: StoredIndex, table: StoredTable) {
        id = index.id
        columns = index.columns.compactMap { table.column(id: $0).map(ColumnSpec.init) }
        budget = CompoundIndexKeyEncoding.budget(componentCount: columns.count)
    }

    func contains(column: UInt32) -> Bool { columns.contains { $0.id == column } }
}

/// Compound indexes live in the same DUPSORT database as single-column ones, keyed
/// table | index id | components (see `CompoundIndexKeyEncoding`), with the object key as value.
/// Writes keep them in step: `setValue` replaces the entry of every index over the column,
/// `deleteObject` removes the object's entries, and object creation adds them once all values
/// are written (`indexNewObject`).
extension StorageTransaction {
    func compoundIndexes(table: UInt32) -> [CompoundIndexSpec] {
        if let cached = compoundIndexCache[FastID(table)] { return cached }
        let specs = storedSchema.table(id: table).map { stored in stored.indexes.map { CompoundIndexSpec($0, table: stored) } } ?? []
        compoundIndexCache[FastID(table)] = specs
        return specs
    }

    /// Builds the entry key of an object from its values: `valueOf` gives the value of a column
    /// (by default, the object's current value, read back).
    private func compoundKey(_ index: CompoundIndexSpec, table: UInt32, key: Int64,
                             valueOf: ((ColumnSpec) throws -> Value)? = nil) throws -> [UInt8] {
        // Room first: growing the 8-byte prefix to fit the components reallocated it.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        StorageKeys.append(table, to: &bytes)
        StorageKeys.append(index.id, to: &bytes)
        for column in index.columns {
            let value = try valueOf?(column) ?? self.value(table: table, column: column, key: key)
            CompoundIndexKeyEncoding.appendComponent(value, budget: index.budget, to: &bytes)
        }
        return bytes
    }

    func addCompoundIndexEntry(_ index: CompoundIndexSpec, table: UInt32, key: Int64,
                               valueOf: ((ColumnSpec) throws -> Value)? = nil) throws {
        let entry = try compoundKey(index, table: table, key: key, valueOf: valueOf)
        try withUnsafeBytes(of: UInt64(bitPattern: key).bigEndian) { objectKey in
            try entry.withUnsafeBytes { try lmdb.put(environment.indexDB, $0, objectKey) }
        }
    }

    func removeCompoundIndexEntry(_ index: CompoundIndexSpec, table: UInt32, key: Int64,
                                  valueOf: ((ColumnSpec) throws -> Value)? = nil) throws {
        let entry = try compoundKey(index, table: table, key: key, valueOf: valueOf)
        _ = try withUnsafeBytes(of: UInt64(bitPattern: key).bigEndian) { objectKey in
            try entry.withUnsafeBytes { try lmdb.delete(environment.indexDB, $0, value: objectKey) }
        }
    }

    /// Adds a new object's entries to every compound index of its table, once its values are
    /// written. `valueOf` gives the value just written to a column (saving a read-back per
    /// component); without it the values are read back.
    func indexNewObject(table: UInt32, key: Int64, valueOf: ((ColumnSpec) throws -> Value)? = nil) throws {
        for index in compoundIndexes(table: table) { try addCompoundIndexEntry(index, table: table, key: key, valueOf: valueOf) }
    }

    /// Rebuilds a compound index from the objects' values (after a migration adds it).
    func rebuildCompoundIndex(table: UInt32, index: StoredIndex) throws {
        try dropCompoundIndex(table: table, index: index.id)
        guard let stored = storedSchema.table(id: table) else { return }
        let spec = CompoundIndexSpec(index, table: stored)
        try forEachObjectKey(table: table) { try addCompoundIndexEntry(spec, table: table, key: $0) }
    }

    func dropCompoundIndex(table: UInt32, index: UInt32) throws {
        try lmdb.deletePrefix(environment.indexDB, prefix: StorageKeys.blockPrefix(table: table, column: index))
    }

    /// Keys of the objects whose first `equal.count` indexed values equal `equal` and whose next
    /// value lies in the range (when a bound is given; nulls never do), in index order. Exact:
    /// no candidate needs re-checking. Returns nil when a constant is too long for the index (it
    /// cannot answer exactly then) or when more than `limit` keys match.
    func compoundIndexScan(table: UInt32, index: CompoundIndexSpec, equal: [Value],
                           lower: IndexBound?, upper: IndexBound?, limit: Int = .max) throws -> [Int64]? {
        var prefix = StorageKeys.blockPrefix(table: table, column: index.id)
        prefix.reserveCapacity(64)
        for value in equal {
            if CompoundIndexKeyEncoding.appendComponent(value, budget: index.budget, to: &prefix) { return nil }
        }
        let ranged = lower != nil || upper != nil
        var start = prefix, end = prefix
        var lowerExclusive = false, upperExclusive = false
        if let lower {
            if CompoundIndexKeyEncoding.appendComponent(lower.value, budget: index.budget, to: &start) { return nil }
            lowerExclusive = !lower.inclusive
        } else if ranged {
            start.append(1)  // skip nulls (encoded 00)
        }
        if let upper {
            if CompoundIndexKeyEncoding.appendComponent(upper.value, budget: index.budget, to: &end) { return nil }
            upperExclusive = !upper.inclusive
        }
        // Components are self-delimiting, so comparing a key's first bytes with a bound's encoding
        // compares the component (a longer key that starts with the bound has an equal component).
        var keys: [Int64] = []
        keys.reserveCapacity(min(limit, 32))  // most plans find few keys: no regrowth for those
        var exceeded = false
        try end.withUnsafeBytes { endBytes in
            try lmdb.scan(environment.indexDB, prefix: prefix, from: start) { key, value in
                if lowerExclusive, key.starts(with: start) { return true }
                if upper != nil {
                    let head = UnsafeRawBufferPointer(rebasing: key.prefix(endBytes.count))
                    let order = ValueOrdering.compareBytes(head, endBytes)
                    if order > 0 || (order == 0 && upperExclusive) { return false }
                }
                guard value.count == 8 else { return true }
                keys.append(Int64(bitPattern: UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))))
                if keys.count > limit { exceeded = true; return false }
                return true
            }
        }
        return exceeded ? nil : keys
    }
}
