/// Writing through results: setting a property on every object, deleting every object.
extension Results {
    /// Sets a property on every object of the results (inside a write transaction).
    /// - Throws: as `ObjectAccessor.setValue`, before anything is written.
    public func setValue(_ value: Value, for property: PropertyInfo) throws {
        let keys = try self.keys()
        try realm.lock.withLock {
            let write = try realm.writeTransaction()
            let checked = try property.validate(value, in: classInfo)
            if property.isPrimaryKey && realm.activeMigration == nil && !keys.isEmpty {
                throw DBError(.logic, "the primary key '\(classInfo.name).\(property.name)' cannot be changed after objects are created (only in a migration)")
            }
            for key in keys where try write.objectExists(table: classInfo.tableID, key: key) {
                try write.setValue(checked, table: classInfo.tableID, column: property.column, key: key)
            }
        }
    }

    /// Deletes every object of the results (inside a write transaction).
    /// - Returns: how many objects were deleted.
    @discardableResult
    public func deleteAll() throws -> Int {
        let keys = try self.keys()
        return try realm.lock.withLock {
            let write = try realm.writeTransaction()
            var deleted = 0
            for key in keys where try write.objectExists(table: classInfo.tableID, key: key) {
                try write.deleteObject(table: classInfo.tableID, columns: classInfo.columns, key: key)
                deleted += 1
            }
            return deleted
        }
    }
}
