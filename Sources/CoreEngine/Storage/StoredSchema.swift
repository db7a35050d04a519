/// A column as recorded in the file: a stable id plus what the engine needs to read it.
struct StoredColumn: Hashable {
    var id: UInt32
    /// The persisted name (the public name can differ; see `Property.persistedName`).
    var name: String
    /// The declared type (of each element, for a collection).
    var type: PropertyType
    var isOptional: Bool
    var isPrimaryKey: Bool
    var isIndexed: Bool
    var collection: CollectionKind = .none
    /// For links and backlinks: the id of the linked table (0 for other columns).
    var targetTable: UInt32 = 0
    /// For backlinks: the id of the link column, in `targetTable`, that is counted back.
    var originColumn: UInt32 = 0

    /// Whether the column holds data in column blocks (backlinks are computed from links).
    var isStored: Bool { type != .linkingObjects }
}

extension StoredColumn {
    /// A column for a declared property. Links are resolved to ids by the caller (see SchemaPlan).
    /// (An extension, so the memberwise initializer stays.)
    init(id: UInt32, property: Property) {
        self.init(id: id, name: property.persistedName, type: property.type, isOptional: property.isOptional,
                  isPrimaryKey: property.isPrimaryKey, isIndexed: property.isIndexed, collection: property.collection)
    }
}

/// A compound index as recorded in the file: its own id (from the column id space, so its
/// entries never share a prefix with a column's index) and its columns in key order.
struct StoredIndex: Hashable {
    var id: UInt32
    var columns: [UInt32]
}

/// A class as recorded in the file.
struct StoredTable: Hashable {
    var id: UInt32
    var name: String
    var columns: [StoredColumn]
    var indexes: [StoredIndex] = []
    var isEmbedded = false

    func column(named name: String) -> StoredColumn? { columns.first { $0.name == name } }
    func column(id: UInt32) -> StoredColumn? { columns.first { $0.id == id } }
    var primaryKey: StoredColumn? { columns.first(where: \.isPrimaryKey) }
}

/// Everything the file records about its schema: classes, columns and their ids, the schema version.
/// Stored under the "schema" key of the "meta" database.
struct StoredSchema: Hashable {
    var schemaVersion: UInt64 = 0
    var nextTableID: UInt32 = 1
    /// Column ids are unique in the file; 0 is the presence column of every table.
    var nextColumnID: UInt32 = 1
    var tables: [StoredTable] = []

    func table(named name: String) -> StoredTable? { tables.first { $0.name == name } }
    func table(id: UInt32) -> StoredTable? { tables.first { $0.id == id } }

    mutating func allocateTableID() -> UInt32 { defer { nextTableID += 1 }; return nextTableID }
    mutating func allocateColumnID() -> UInt32 { defer { nextColumnID += 1 }; return nextColumnID }

    /// The schema as stored, with persisted names as public names.
    var schema: Schema { (try? Schema(tables.map(objectSchema(of:)))) ?? (try! Schema([])) }

    /// The schema a user would declare to read a table as stored (persisted names as public names).
    func objectSchema(of table: StoredTable) -> ObjectSchema {
        ObjectSchema(name: table.name, properties: table.columns.map { property(of: $0) },
                     compoundIndexes: table.indexes.map { $0.columns.compactMap { table.column(id: $0)?.name } },
                     isEmbedded: table.isEmbedded)
    }

    /// The property a column stores, with its persisted name as public name.
    func property(of column: StoredColumn) -> Property {
        let target = column.targetTable == 0 ? nil : self.table(id: column.targetTable)
        return Property(name: column.name, type: column.type, isOptional: column.isOptional,
                        isPrimaryKey: column.isPrimaryKey, isIndexed: column.isIndexed, collection: column.collection,
                        objectType: target?.name,
                        linkOriginProperty: column.originColumn == 0 ? nil : target?.column(id: column.originColumn)?.name)
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u8(3)  // schema record format (1 had no compound indexes, 2 no links or collections)
        w.u64(schemaVersion)
        w.u32(nextTableID)
        w.u32(nextColumnID)
        w.varint(UInt64(tables.count))
        for table in tables {
            w.u32(table.id)
            w.string(table.name)
            w.varint(UInt64(table.columns.count))
            for column in table.columns {
                w.u32(column.id)
                w.string(column.name)
                w.u8(column.type.rawValue)
                w.u8((column.isOptional ? 1 : 0) | (column.isPrimaryKey ? 2 : 0) | (column.isIndexed ? 4 : 0))
                w.u8(column.collection.rawValue)
                w.u32(column.targetTable)
                w.u32(column.originColumn)
            }
            w.varint(UInt64(table.indexes.count))
            for index in table.indexes {
                w.u32(index.id)
                w.varint(UInt64(index.columns.count))
                for column in index.columns { w.u32(column) }
            }
            w.u8(table.isEmbedded ? 1 : 0)
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> StoredSchema {
        var r = ByteReader(bytes)
        let format = try r.u8()
        guard (1...3).contains(format) else { throw DBError(.fileFormat, "unknown schema record format") }
        var schema = StoredSchema()
        schema.schemaVersion = try r.u64()
        schema.nextTableID = try r.u32()
        schema.nextColumnID = try r.u32()
        for _ in 0..<(try r.varint()) {
            var table = StoredTable(id: try r.u32(), name: try r.string(), columns: [])
            for _ in 0..<(try r.varint()) {
                let id = try r.u32(), name = try r.string()
                guard let type = PropertyType(rawValue: try r.u8()) else {
                    throw DBError(.fileFormat, "unknown property type in column '\(name)'")
                }
                let flags = try r.u8()
                var column = StoredColumn(id: id, name: name, type: type, isOptional: flags & 1 != 0,
                                          isPrimaryKey: flags & 2 != 0, isIndexed: flags & 4 != 0)
                if format >= 3 {
                    guard let collection = CollectionKind(rawValue: try r.u8()) else {
                        throw DBError(.fileFormat, "unknown collection kind in column '\(name)'")
                    }
                    column.collection = collection
                    column.targetTable = try r.u32()
                    column.originColumn = try r.u32()
                }
                table.columns.append(column)
            }
            if format >= 2 {
                for _ in 0..<(try r.varint()) {
                    let id = try r.u32()
                    var columns: [UInt32] = []
                    for _ in 0..<(try r.varint()) { columns.append(try r.u32()) }
                    guard columns.allSatisfy({ table.column(id: $0) != nil }) else {
                        throw DBError(.fileFormat, "corrupt schema: an index of table '\(table.name)' names a missing column")
                    }
                    table.indexes.append(StoredIndex(id: id, columns: columns))
                }
            }
            if format >= 3 { table.isEmbedded = try r.u8() & 1 != 0 }
            guard Set(table.columns.map(\.name)).count == table.columns.count,
                  Set(table.columns.map(\.id)).count == table.columns.count else {
                throw DBError(.fileFormat, "corrupt schema: table '\(table.name)' repeats a column")
            }
            schema.tables.append(table)
        }
        for table in schema.tables {
            for column in table.columns where column.targetTable != 0 {
                guard let target = schema.table(id: column.targetTable),
                      column.originColumn == 0 || target.column(id: column.originColumn) != nil else {
                    throw DBError(.fileFormat, "corrupt schema: column '\(table.name).\(column.name)' links to a missing table or column")
                }
            }
        }
        guard Set(schema.tables.map(\.name)).count == schema.tables.count,
              Set(schema.tables.map(\.id)).count == schema.tables.count else {
            throw DBError(.fileFormat, "corrupt schema: a table is repeated")
        }
        return schema
    }
}
