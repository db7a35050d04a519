/// Point reads: several properties of one object, found by its key or its primary key, in one
/// locked call and without an accessor. This is the per-object path of the C API's
/// `db_object_get_values_by_key` and `db_object_get_values_by_primary_key`, through which
/// bindings that keep objects as keys read rows.
extension Realm {
    /// Calls `body(i, contents)` with property `columnIDs[i]` of the object with `key`, in order.
    /// Every id is checked before anything is read.
    /// - Throws: `.notFound` (an id names no property), `.wrongType` (a collection or backlinks),
    ///   `.invalidated` (no live object has this key in the version the realm reads),
    ///   `.closedRealm`, `.wrongThread`.
    package func readValues(of classInfo: ClassInfo, key: Int64, columnIDs: UnsafeBufferPointer<Int64>,
                            _ body: (Int, StoredContents) -> Void) throws {
        try classInfo.withColumns(ofColumnIDs: columnIDs) { columns in
            try lock.withLock {
                try readLiveRow(classInfo, key: key, columns: columns, try currentTransaction(), body)
            }
        }
    }

    /// As `readValues(of:key:columnIDs:_:)` for the object with a primary key: its key, or nil
    /// (and `body` is not called) when there is none.
    /// - Throws: `.logic` (the class has no primary key), `.wrongType` (a value the primary key
    ///   cannot hold), then as `readValues(of:key:columnIDs:_:)`.
    package func readValues(of classInfo: ClassInfo, primaryKey: Value, columnIDs: UnsafeBufferPointer<Int64>,
                            _ body: (Int, StoredContents) -> Void) throws -> Int64? {
        let (column, value) = try primaryKeyLookup(classInfo, primaryKey)
        return try classInfo.withColumns(ofColumnIDs: columnIDs) { columns in
            try lock.withLock {
                let transaction = try currentTransaction()
                guard let key = try indexedKey(classInfo, column, value, transaction) else { return nil }
                try readLiveRow(classInfo, key: key, columns: columns, transaction, body)
                return key
            }
        }
    }

    /// The primary key's column (a plain value: copying its PropertyInfo cost more than the
    /// lookup's checks) and `primaryKey` as that column holds it.
    /// - Throws: `.logic` (the class has no primary key), `.wrongType`.
    func primaryKeyLookup(_ classInfo: ClassInfo, _ primaryKey: Value) throws -> (ColumnSpec, Value) {
        guard let index = classInfo.primaryKeyIndex else { throw DBError(.logic, "class '\(classInfo.name)' has no primary key") }
        let column = classInfo.columns[index]
        return (column, try column.type.coerce(primaryKey))
    }

    /// The key the primary key's index gives for `value` (in `column`), nil when none has it.
    /// The index and the objects change in the same writes, so an entry for a missing object is
    /// damage: `readLiveRow` reports it as a read by key does, rather than reading defaults.
    func indexedKey(_ classInfo: ClassInfo, _ column: ColumnSpec, _ value: Value, _ transaction: StorageTransaction) throws -> Int64? {
        try transaction.indexFirst(table: classInfo.tableID, column: column, value: value)
    }

    /// Reads `columns` of the live object with `key` (`StorageTransaction.readLiveRow`).
    /// - Throws: `.invalidated` (no live object has this key in the version the realm reads).
    func readLiveRow(_ classInfo: ClassInfo, key: Int64, columns: UnsafeBufferPointer<ColumnSpec>,
                     _ transaction: StorageTransaction, _ body: (Int, StoredContents) -> Void) throws {
        guard try transaction.readLiveRow(table: classInfo.tableID, key: key, columns: columns, body) else {
            throw invalidated(classInfo)
        }
    }

    /// `.invalidated` unless the object with `key` exists in `transaction`.
    func requireLive(_ classInfo: ClassInfo, _ key: Int64, _ transaction: StorageTransaction) throws {
        guard try transaction.objectExists(table: classInfo.tableID, key: key) else { throw invalidated(classInfo) }
    }

    private func invalidated(_ classInfo: ClassInfo) -> DBError {
        DBError(.invalidated, "the \(classInfo.name) object has been deleted or is not in this version of the realm")
    }
}
