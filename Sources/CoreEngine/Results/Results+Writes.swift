/// Writing through results: setting a property on every object, deleting every object.
extension Results {
    /// Sets a property on every object of the results (inside a write transaction).
    /// - Throws: as `ObjectAccessor.setValue`, before anything is written.
    package func setValue(_ value: Value, for property: PropertyInfo) throws {
        let keys = try self.keys()
        try realm.lock.withLock {
            let write = try realm.writeTransaction()
            try property.requireSingleValue(in: classInfo)
            let checked = try property.validate(value, in: classInfo, realm: realm)
            if property.isPrimaryKey && realm.activeMigration == nil && !keys.isEmpty {
                throw DBError(.logic, "the primary key '\(classInfo.name).\(property.name)' cannot be changed after objects are created (only in a migration)")
            }
            for key in keys where try write.objectExists(table: classInfo.tableID, key: key) {
                try write.writeBackIfLarge()
                try write.setValue(checked, table: classInfo.tableID, column: property.column, key: key)
            }
        }
    }

    /// Sets a property of the objects at positions `start ..< start + values.count` to one value
    /// each (inside a write transaction): a batch of per-object writes in one call. Positions are
    /// those of the results when the call starts; objects deleted since a snapshot are skipped.
    /// - Throws: `.outOfRange` when the positions run past the end, and as `ObjectAccessor.setValue`;
    ///   every value is checked before anything is written.
    package func setValues(_ values: [Value], for property: PropertyInfo, start: Int) throws {
        let keys = try self.keys()
        guard start >= 0, start <= keys.count, values.count <= keys.count - start else {
            throw DBError(.outOfRange, "positions \(start) ..< \(start + values.count) run past the end (\(keys.count) objects)")
        }
        try realm.lock.withLock {
            let write = try realm.writeTransaction()
            try property.requireSingleValue(in: classInfo)
            let checked = try values.map { try property.validate($0, in: classInfo, realm: realm) }
            if property.isPrimaryKey && realm.activeMigration == nil && !checked.isEmpty {
                throw DBError(.logic, "the primary key '\(classInfo.name).\(property.name)' cannot be changed after objects are created (only in a migration)")
            }
            var targets: [Int64] = [], targetValues: [Value] = []
            targets.reserveCapacity(checked.count)
            targetValues.reserveCapacity(checked.count)
            for (offset, value) in checked.enumerated() {
                let key = keys[start + offset]
                // Live results hold live objects; a snapshot may hold deleted ones (skipped).
                if isSnapshot, try !write.objectExists(table: classInfo.tableID, key: key) { continue }
                targets.append(key)
                targetValues.append(value)
            }
            try write.writeBackIfLarge()
            try write.setValues(targetValues, keys: targets, table: classInfo.tableID, column: property.column)
        }
    }

    /// Deletes every object of the results (inside a write transaction).
    ///
    /// When they are every object of their class, the class's data goes in one sweep of the file
    /// (`StorageTransaction.dropTableData`) instead of object by object: a delete of millions
    /// of objects then rewrites each page once, in order, instead of visiting index pages at
    /// random, which LMDB's dirty-page list makes quadratic once a write outgrows it.
    /// - Returns: how many objects were deleted.
    @discardableResult
    package func deleteAll() throws -> Int {
        let keys = try self.keys()
        return try realm.lock.withLock {
            let write = try realm.writeTransaction()
            if isWholeClass, !isSnapshot, !keys.isEmpty, try keys.count == write.objectCount(table: classInfo.tableID) {
                try write.dropTableData(table: classInfo.tableID)
                return keys.count
            }
            var deleted = 0
            for key in keys where try write.objectExists(table: classInfo.tableID, key: key) {
                try write.writeBackIfLarge()
                try write.deleteObject(table: classInfo.tableID, columns: classInfo.columns, key: key)
                deleted += 1
            }
            return deleted
        }
    }
}
