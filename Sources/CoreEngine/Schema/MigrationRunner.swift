/// Running a schema change: checking the schema version rules, then applying the change and the
/// user's migration function in one write transaction, and finishing (dropping removed data,
/// rebuilding and verifying indexes). Opening a realm (Realm+Open) decides when it is needed.
extension Realm {
    /// Checks the version rules before any write.
    func validateVersion(stored: StoredSchema, plan: SchemaPlan, isNewFile: Bool) throws {
        guard !isNewFile else { return }
        let fileVersion = stored.schemaVersion, version = configuration.schemaVersion
        if version < fileVersion {
            throw DBError(.schemaInvalid, "schema version \(version) is lower than the file's schema version \(fileVersion)")
        }
        if !plan.destructiveChanges.isEmpty && (version == fileVersion || configuration.migration == nil) {
            let changes = plan.destructiveChanges.map { "- " + $0 }.joined(separator: "\n")
            let remedy = version == fileVersion
                ? "increase the schema version (now \(version)) and provide a migration function"
                : "provide a migration function"
            throw DBError(.migrationRequired, "the schema differs from the file's and needs a migration (\(remedy)):\n\(changes)")
        }
        if !plan.versionedChanges.isEmpty && version == fileVersion {
            let changes = plan.versionedChanges.map { "- " + $0 }.joined(separator: "\n")
            throw DBError(.migrationRequired, "the schema differs from the file's: increase the schema version (now \(version)) to apply the change (no migration function is needed):\n\(changes)")
        }
    }

    /// Applies the schema change and runs the migration function in one write transaction.
    func migrate(declared: Schema, environment: LMDBEnvironment) throws {
        let write = try environment.beginWriteTransaction()
        defer { environment.didEndWrite() }
        do {
            // Plan again inside the write: another process may have changed the file meanwhile.
            let isNewFile = !write.isInitialized
            let oldSchema = write.storedSchema
            let plan = SchemaPlan(stored: oldSchema, declared: declared)
            try validateVersion(stored: oldSchema, plan: plan, isNewFile: isNewFile)
            var target = plan.target
            target.schemaVersion = configuration.schemaVersion
            write.replaceSchema(target)
            transaction = write
            try bind(target, declared: declared)
            let runsMigration = !isNewFile && configuration.schemaVersion > oldSchema.schemaVersion
            var migration: Migration?
            if runsMigration, let function = configuration.migration {
                let context = try Migration(realm: self, oldSchema: oldSchema, newSchema: declared)
                migration = context
                activeMigration = context
                defer { activeMigration = nil; context.end() }
                do {
                    try function(context, oldSchema.schemaVersion)
                } catch let error as DBError where error.code == .migrationFailed || error.code == .duplicatePrimaryKey {
                    throw error
                } catch {
                    throw DBError(.migrationFailed, "the migration function failed: \(error)")
                }
                // Savepoints the function left open keep their changes (as at a commit).
                try write.releaseAllSavepoints()
            }
            try finishMigration(plan: plan, write: write, deletedClasses: migration?.deletedClasses ?? [])
            transaction = nil
            try write.commit()
        } catch {
            transaction = nil
            write.abort()
            throw error
        }
    }

    /// Drops removed data and rebuilds and verifies indexes once the migration function has run.
    private func finishMigration(plan: SchemaPlan, write: StorageTransaction, deletedClasses: Set<UInt32>) throws {
        var schema = write.storedSchema
        for (table, column) in plan.columnsToDrop { try write.dropColumn(table: table, column: column) }
        for table in deletedClasses where !classes.contains(where: { $0.tableID == table }) {
            schema.tables.removeAll { $0.id == table }
        }
        for (table, column) in plan.indexesToDrop { try write.dropIndex(table: table, column: column) }
        for (table, column) in plan.indexesToBuild {
            if let spec = schema.table(id: table)?.column(id: column) { try write.rebuildIndex(table: table, column: ColumnSpec(spec)) }
        }
        for (table, index) in plan.compoundIndexesToDrop { try write.dropCompoundIndex(table: table, index: index) }
        for (table, index) in plan.compoundIndexesToBuild where schema.table(id: table) != nil {
            try write.rebuildCompoundIndex(table: table, index: index)
        }
        for (tableID, columnID) in plan.primaryKeysToVerify {
            guard let table = schema.table(id: tableID), let column = table.column(id: columnID) else { continue }
            var seen = Set<Value>()
            try write.forEachObjectKey(table: tableID) { key in
                let value = try write.value(table: tableID, column: ColumnSpec(column), key: key)
                guard seen.insert(value).inserted else {
                    throw DBError(.duplicatePrimaryKey, "after the migration, primary key '\(table.name).\(column.name)' has the duplicate value \(value.displayString); make the values unique in the migration function")
                }
            }
            try write.rebuildIndex(table: tableID, column: ColumnSpec(column))
        }
        write.replaceSchema(schema)
    }
}
