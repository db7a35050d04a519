/// Point writes: one property of one object found by its key, in one locked call. This is the
/// path of every attribute assignment (`ObjectAccessor.setValue`) and, without an accessor, of
/// the C API's `db_object_set_value_by_key`, through which bindings that keep objects as keys
/// write them (making and releasing an accessor was a fifth of such a write).
extension Realm {
    /// Writes property `property` of the object with `key`.
    /// - Throws: `.invalidated` (no live object has this key; reported first, as in Realm),
    ///   `.wrongTransactionState` outside a write, `.readOnly`, `.wrongType`, `.notNullable`,
    ///   `.logic` when changing a primary key outside a migration, `.closedRealm`, `.wrongThread`.
    package func setValue(_ value: Value, for property: PropertyInfo, of classInfo: ClassInfo, key: Int64) throws {
        try lock.withLock { try setValueLocked(value, for: property, of: classInfo, key: key) }
    }

    /// `setValue(_:for:of:key:)` with the lock held.
    func setValueLocked(_ value: Value, for property: PropertyInfo, of classInfo: ClassInfo, key: Int64) throws {
        let write = try writableTransaction(of: classInfo, key: key)
        let checked = try checkedAssignment(value, to: property, of: classInfo, key: key, in: write)
        try write.setValue(checked, table: classInfo.tableID, column: property.column, key: key)
    }

    /// The write transaction in which to write the object with `key` (under the realm's lock):
    /// `.invalidated` when it does not exist, then `.wrongTransactionState` outside a write.
    func writableTransaction(of classInfo: ClassInfo, key: Int64) throws -> StorageTransaction {
        let write = try transaction(holding: classInfo, key: key)
        // Outside a write, writeTransaction throws the reason (frozen, read-only, no write begun);
        // inside one, the transaction found is the write (looked up once: a point write's third).
        guard write.isWrite else { return try writeTransaction() }
        try write.writeBackIfLarge()
        return write
    }

    /// The current transaction, in which the object with `key` must exist (`.invalidated`).
    func transaction(holding classInfo: ClassInfo, key: Int64) throws -> StorageTransaction {
        let transaction = try currentTransaction()
        try requireLive(classInfo, key, transaction)
        return transaction
    }

    /// `value` as `property` stores it, or the error assigning it is.
    func checkedAssignment(_ value: Value, to property: PropertyInfo, of classInfo: ClassInfo, key: Int64,
                           in write: StorageTransaction) throws -> Value {
        try property.requireSingleValue(in: classInfo)
        let checked = try property.validate(value, in: classInfo, realm: self)
        if property.isPrimaryKey && activeMigration == nil {
            let current = try write.value(table: classInfo.tableID, column: property.column, key: key)
            if !current.isIdentical(to: checked) {
                throw DBError(.logic, "the primary key '\(classInfo.name).\(property.name)' cannot be changed after the object is created (only in a migration)")
            }
        }
        return checked
    }
}
