/// A point read prepared once: a class, and the single-valued properties each read gives in
/// order, resolved to their columns when it is made. Each read is then one lock, one presence
/// test and one block lookup per value, where `Realm.readValues` resolves the properties at every
/// call: the engine side of the C API's `db_object_reader_t`, through which a binding reads one
/// object at a time. Confined like its realm.
package final class PointReader {
    package let realm: Realm
    private let columnIDs: [Int64]
    /// The class as the realm bound it when `columns` were resolved: a realm that rebinds its
    /// schema (another process added properties) makes new `ClassInfo`s, and the reader resolves
    /// its columns again at its next read.
    private var classInfo: ClassInfo
    private var columns: [ColumnSpec]

    /// - Throws: `.notFound` (an id names no property), `.wrongType` (a collection or backlinks).
    package init(realm: Realm, classInfo: ClassInfo, columnIDs: UnsafeBufferPointer<Int64>) throws {
        self.realm = realm
        self.columnIDs = Array(columnIDs)
        self.classInfo = classInfo
        columns = try classInfo.withColumns(ofColumnIDs: columnIDs) { Array($0) }
    }

    /// Calls `body(i, contents)` with the value of property `i` of the object with `key`.
    /// - Throws: `.invalidated` (no live object has this key in the version the realm reads),
    ///   `.notFound` (the class or a property left the schema), `.closedRealm`, `.wrongThread`.
    package func read(key: Int64, _ body: (Int, StoredContents) -> Void) throws {
        try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            try rebindIfNeeded()
            try readRow(key, transaction, body)
        }
    }

    /// As `read(key:_:)` for the object with a primary key: its key, or nil (and `body` is not
    /// called) when there is none.
    /// - Throws: `.logic` (the class has no primary key), `.wrongType` (a value the primary key
    ///   cannot hold), then as `read(key:_:)`.
    package func find(primaryKey: Value, _ body: (Int, StoredContents) -> Void) throws -> Int64? {
        try realm.lock.withLock {
            let transaction = try realm.currentTransaction()
            try rebindIfNeeded()
            let (column, value) = try realm.primaryKeyLookup(classInfo, primaryKey)
            guard let key = try realm.indexedKey(classInfo, column, value, transaction) else { return nil }
            try readRow(key, transaction, body)
            return key
        }
    }

    /// Reads the row of the live object with `key` (`.invalidated` when there is none).
    private func readRow(_ key: Int64, _ transaction: StorageTransaction, _ body: (Int, StoredContents) -> Void) throws {
        try columns.withUnsafeBufferPointer {
            try realm.readLiveRow(classInfo, key: key, columns: $0, transaction, body)
        }
    }

    /// Resolves the columns again when the realm has rebound the class (with the lock held).
    private func rebindIfNeeded() throws {
        let current = try realm.boundClass(tableID: classInfo.tableID)
        guard current !== classInfo else { return }
        columns = try columnIDs.withUnsafeBufferPointer { ids in
            try current.withColumns(ofColumnIDs: ids) { Array($0) }
        }
        classInfo = current
    }
}
