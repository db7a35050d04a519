/// What opening a realm with a declared schema does to the file's stored schema.
///
/// Additive changes (a new class, a new property, adding or removing an index) apply automatically.
/// Every other change (a property removed, its type, nullability or primary-key status changed)
/// is "destructive": it needs a higher schema version and a migration function. Classes stored in
/// the file but absent from the declared schema are left alone.
struct SchemaPlan {
    /// The stored schema after the change (without the columns that are dropped).
    var target: StoredSchema
    /// Human-readable descriptions of destructive changes; empty when the change is additive.
    var destructiveChanges: [String] = []
    /// Whether the target differs from the stored schema at all.
    var hasChanges = false
    /// Columns whose data is removed once the migration function has run.
    var columnsToDrop: [(table: UInt32, column: UInt32)] = []
    /// Indexes to (re)build after the migration function has run.
    var indexesToBuild: [(table: UInt32, column: UInt32)] = []
    var indexesToDrop: [(table: UInt32, column: UInt32)] = []
    /// Compound indexes to build, and ids of compound indexes to drop, after the migration function.
    var compoundIndexesToBuild: [(table: UInt32, index: StoredIndex)] = []
    var compoundIndexesToDrop: [(table: UInt32, index: UInt32)] = []
    /// Primary keys whose uniqueness must be verified after the migration function has run.
    var primaryKeysToVerify: [(table: UInt32, column: UInt32)] = []

    init(stored: StoredSchema, declared: Schema) {
        target = stored
        for objectSchema in declared.objectSchemas {
            guard let table = stored.table(named: objectSchema.name) else {
                var table = StoredTable(id: target.allocateTableID(), name: objectSchema.name, columns: [])
                for property in objectSchema.properties {
                    table.columns.append(StoredColumn(id: target.allocateColumnID(), property: property))
                }
                table.indexes = planIndexes(objectSchema, columns: table.columns, stored: [], table: table.id)
                target.tables.append(table)
                hasChanges = true
                continue
            }
            planTable(table, objectSchema)
        }
    }

    private mutating func planTable(_ table: StoredTable, _ objectSchema: ObjectSchema) {
        let cls = objectSchema.name
        var columns: [StoredColumn] = []
        for property in objectSchema.properties {
            let name = "'\(cls).\(property.name)'"
            guard let old = table.column(named: property.persistedName) else {
                let column = StoredColumn(id: target.allocateColumnID(), property: property)
                columns.append(column)
                hasChanges = true
                // Existing objects read the default value: their index entries must exist too.
                if column.isIndexed { indexesToBuild.append((table.id, column.id)) }
                if column.isPrimaryKey {
                    // Existing objects would all share the default key: only a migration can fill it.
                    destructiveChanges.append("property \(name) was added as the primary key")
                    primaryKeysToVerify.append((table.id, column.id))
                }
                continue
            }
            if old.type != property.type {
                hasChanges = true
                destructiveChanges.append("property \(name) changed type from \(old.property.typeDescription) to \(property.typeDescription)")
                let column = StoredColumn(id: target.allocateColumnID(), property: property)
                columns.append(column)
                columnsToDrop.append((table.id, old.id))
                if column.isPrimaryKey { primaryKeysToVerify.append((table.id, column.id)) }
                continue
            }
            let column = StoredColumn(id: old.id, property: property)
            if old.isOptional != property.isOptional {
                destructiveChanges.append("property \(name) changed from \(old.property.typeDescription) to \(property.typeDescription)")
                if column.isIndexed { indexesToBuild.append((table.id, column.id)) }
            }
            if old.isPrimaryKey != property.isPrimaryKey {
                destructiveChanges.append(property.isPrimaryKey ? "property \(name) became the primary key"
                                                                : "property \(name) is no longer the primary key")
                if property.isPrimaryKey { primaryKeysToVerify.append((table.id, column.id)) }
            }
            if old.isIndexed != column.isIndexed {
                if column.isIndexed { indexesToBuild.append((table.id, column.id)) } else { indexesToDrop.append((table.id, column.id)) }
            }
            if column != old { hasChanges = true }
            columns.append(column)
        }
        for old in table.columns where objectSchema.properties.allSatisfy({ $0.persistedName != old.name }) {
            destructiveChanges.append("property '\(cls).\(old.name)' was removed")
            columnsToDrop.append((table.id, old.id))
        }
        if columns.count != table.columns.count { hasChanges = true }
        let indexes = planIndexes(objectSchema, columns: columns, stored: table.indexes, table: table.id)
        if indexes != table.indexes { hasChanges = true }
        if let index = target.tables.firstIndex(where: { $0.id == table.id }) {
            target.tables[index].columns = columns
            target.tables[index].indexes = indexes
        }
    }

    /// The declared compound indexes as stored ones: an index over the same columns keeps its id,
    /// a new one gets an id and is built, a stored one no longer declared is dropped. Adding or
    /// removing a compound index is an additive change.
    private mutating func planIndexes(_ objectSchema: ObjectSchema, columns: [StoredColumn], stored: [StoredIndex],
                                      table: UInt32) -> [StoredIndex] {
        var result: [StoredIndex] = []
        for names in objectSchema.compoundIndexes {
            let ids = names.compactMap { name in
                objectSchema.property(named: name).flatMap { property in columns.first { $0.name == property.persistedName }?.id }
            }
            guard ids.count == names.count else { continue }  // Schema validation rules this out
            if let existing = stored.first(where: { $0.columns == ids }) {
                result.append(existing)
            } else {
                let index = StoredIndex(id: target.allocateColumnID(), columns: ids)
                result.append(index)
                compoundIndexesToBuild.append((table, index))
            }
        }
        for old in stored where !result.contains(old) { compoundIndexesToDrop.append((table, old.id)) }
        return result
    }
}
