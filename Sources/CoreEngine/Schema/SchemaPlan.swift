/// What opening a realm with a declared schema does to the file's stored schema.
///
/// As in Realm, a new class and adding or removing an index apply automatically. A new property
/// of an existing class applies automatically once the schema version is increased (without a
/// migration function). Every other change (a property removed, its type, nullability or
/// primary-key status changed) is "destructive": it needs a higher schema version and a
/// migration function. Classes stored in the file but absent from the declared schema are left
/// alone.
struct SchemaPlan {
    /// The stored schema after the change (without the columns that are dropped).
    var target: StoredSchema
    /// Human-readable descriptions of destructive changes; empty when the change is additive.
    var destructiveChanges: [String] = []
    /// Additive changes that still need a higher schema version (properties added to a class the
    /// file has), as Realm requires.
    var versionedChanges: [String] = []
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
        // New classes get their ids first, so that links between new classes resolve.
        for objectSchema in declared.objectSchemas where stored.table(named: objectSchema.name) == nil {
            target.tables.append(StoredTable(id: target.allocateTableID(), name: objectSchema.name, columns: [],
                                             isEmbedded: objectSchema.isEmbedded))
            hasChanges = true
        }
        for objectSchema in declared.objectSchemas {
            guard let table = stored.table(named: objectSchema.name) else {
                var table = target.table(named: objectSchema.name)!
                for property in objectSchema.properties {
                    table.columns.append(newColumn(property))
                }
                table.indexes = planIndexes(objectSchema, columns: table.columns, stored: [], table: table.id)
                target.tables[target.tables.firstIndex { $0.id == table.id }!] = table
                continue
            }
            planTable(table, objectSchema)
        }
        resolveBacklinks(declared)
    }

    /// A column for a property the file does not have yet, with its link target resolved.
    private mutating func newColumn(_ property: Property) -> StoredColumn {
        var column = StoredColumn(id: target.allocateColumnID(), property: property)
        column.targetTable = property.objectType.flatMap { target.table(named: $0)?.id } ?? 0
        return column
    }

    /// Backlink columns name the link column they count: resolved once every table is planned.
    private mutating func resolveBacklinks(_ declared: Schema) {
        for objectSchema in declared.objectSchemas {
            guard let tableIndex = target.tables.firstIndex(where: { $0.name == objectSchema.name }) else { continue }
            for property in objectSchema.properties where property.type == .linkingObjects {
                guard let origin = property.objectType.flatMap({ declared.objectSchema(named: $0) }),
                      let originProperty = property.linkOriginProperty.flatMap({ origin.property(named: $0) }),
                      let originTable = target.table(named: origin.name),
                      let originColumn = originTable.column(named: originProperty.persistedName),
                      let columnIndex = target.tables[tableIndex].columns.firstIndex(where: { $0.name == property.persistedName })
                else { continue }  // Schema validation rules this out
                if target.tables[tableIndex].columns[columnIndex].originColumn != originColumn.id {
                    target.tables[tableIndex].columns[columnIndex].originColumn = originColumn.id
                    hasChanges = true
                }
            }
        }
    }

    private mutating func planTable(_ table: StoredTable, _ objectSchema: ObjectSchema) {
        let cls = objectSchema.name
        var columns: [StoredColumn] = []
        for property in objectSchema.properties {
            let name = "'\(cls).\(property.name)'"
            guard let old = table.column(named: property.persistedName) else {
                let column = newColumn(property)
                columns.append(column)
                hasChanges = true
                // Backlinks store nothing: adding one changes no data.
                if property.type != .linkingObjects { versionedChanges.append("property \(name) was added") }
                // Existing objects read the default value: their index entries must exist too.
                if column.isIndexed { indexesToBuild.append((table.id, column.id)) }
                if column.isPrimaryKey {
                    // Existing objects would all share the default key: only a migration can fill it.
                    destructiveChanges.append("property \(name) was added as the primary key")
                    primaryKeysToVerify.append((table.id, column.id))
                }
                continue
            }
            let oldDescription = target.property(of: old).typeDescription
            let targetTable = property.objectType.flatMap { target.table(named: $0)?.id } ?? 0
            if old.type != property.type || old.collection != property.collection
                || (property.type == .object && old.targetTable != targetTable) {
                hasChanges = true
                let column = newColumn(property)
                columns.append(column)
                // Backlinks are computed: changing what they count loses nothing.
                if property.type != .linkingObjects || old.type != .linkingObjects {
                    destructiveChanges.append("property \(name) changed type from \(oldDescription) to \(property.typeDescription)")
                    columnsToDrop.append((table.id, old.id))
                }
                if column.isPrimaryKey { primaryKeysToVerify.append((table.id, column.id)) }
                continue
            }
            var column = StoredColumn(id: old.id, property: property)
            column.targetTable = old.targetTable
            column.originColumn = old.originColumn
            if old.isOptional != property.isOptional && property.type != .linkingObjects {
                destructiveChanges.append("property \(name) changed from \(oldDescription) to \(property.typeDescription)")
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
            // Backlinks store nothing: removing one is additive.
            if old.isStored { destructiveChanges.append("property '\(cls).\(old.name)' was removed") }
            columnsToDrop.append((table.id, old.id))
        }
        if table.isEmbedded != objectSchema.isEmbedded {
            destructiveChanges.append("class '\(cls)' \(objectSchema.isEmbedded ? "became" : "is no longer") embedded")
            hasChanges = true
        }
        if columns.count != table.columns.count { hasChanges = true }
        let indexes = planIndexes(objectSchema, columns: columns, stored: table.indexes, table: table.id)
        if indexes != table.indexes { hasChanges = true }
        if let index = target.tables.firstIndex(where: { $0.id == table.id }) {
            target.tables[index].columns = columns
            target.tables[index].indexes = indexes
            target.tables[index].isEmbedded = objectSchema.isEmbedded
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
