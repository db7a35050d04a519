/// A property bound to its column in an open realm.
///
/// A class, compared by value: it is handed along with every value a create, a write or a read
/// takes (`[(PropertyInfo, Value)]`), and copying a struct of it retained each of its strings.
package final class PropertyInfo: Hashable, Sendable {
    package let property: Property
    /// The column id: stable across opens, the C API's property key.
    package let columnID: UInt32
    let column: ColumnSpec

    init(property: Property, column: StoredColumn) {
        self.property = property
        columnID = column.id
        // Nullability and indexing follow the declared schema; the type is the stored one (they match).
        var spec = ColumnSpec(column)
        spec.isOptional = property.isOptional
        spec.isIndexed = column.isIndexed
        self.column = spec
    }

    package static func == (lhs: PropertyInfo, rhs: PropertyInfo) -> Bool {
        lhs === rhs || (lhs.columnID == rhs.columnID && lhs.column == rhs.column && lhs.property == rhs.property)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(columnID)
        hasher.combine(property)
        hasher.combine(column)
    }

    package var name: String { property.name }
    package var type: PropertyType { property.type }
    package var isOptional: Bool { property.isOptional }
    package var isPrimaryKey: Bool { property.isPrimaryKey }
    package var collection: CollectionKind { property.collection }
    /// The table (class key) a link, a collection of links or backlinks point to.
    package var linkTarget: UInt32? { column.linkTarget }
    /// Whether the property holds one scalar value stored in the object (queryable, sortable, indexable).
    package var isScalar: Bool { column.isScalar }
}

/// A class bound to its table in an open realm: the lookup structure every object accessor uses.
package final class ClassInfo: @unchecked Sendable {
    package let name: String
    /// The table id: stable across opens, the C API's class key.
    package let tableID: UInt32
    package let properties: [PropertyInfo]
    /// Objects of an embedded class live inside one parent object (see `ObjectSchema.isEmbedded`).
    package let isEmbedded: Bool
    package let primaryKey: PropertyInfo?
    /// The primary key's position in `properties` (and `columns`).
    let primaryKeyIndex: Int?
    /// The class's compound indexes, each with its properties in key order.
    let compoundIndexes: [(index: CompoundIndexSpec, properties: [PropertyInfo])]
    private let indexByName: [String: Int]
    private let indexByColumn: [UInt32: Int]
    let columns: [ColumnSpec]

    /// Binds a declared object schema to its stored table (matched by persisted names).
    init(objectSchema: ObjectSchema, table: StoredTable) throws {
        name = objectSchema.name
        tableID = table.id
        isEmbedded = table.isEmbedded
        properties = try objectSchema.properties.map { property in
            guard let column = table.column(named: property.persistedName) else {
                throw DBError(.internal, "column '\(property.persistedName)' of '\(table.name)' is missing from the file's schema")
            }
            guard column.type == property.type, column.collection == property.collection else {
                throw DBError(.internal, "column '\(table.name).\(column.name)' is stored as \(column.type.name)\(column.collection.suffix), not \(property.typeDescription)")
            }
            return PropertyInfo(property: property, column: column)
        }
        primaryKey = properties.first(where: \.isPrimaryKey)
        primaryKeyIndex = properties.firstIndex(where: \.isPrimaryKey)
        indexByName = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.name, $0) })
        indexByColumn = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.columnID, $0) })
        columns = properties.map(\.column)
        let byColumn = indexByColumn, properties = properties
        compoundIndexes = table.indexes.compactMap { stored in
            let members = stored.columns.compactMap { byColumn[$0].map { properties[$0] } }
            return members.count == stored.columns.count ? (CompoundIndexSpec(stored, table: table), members) : nil
        }
    }

    /// Binds a stored table as it is (public names = persisted names), e.g. the old schema of a migration.
    convenience init(table: StoredTable, in stored: StoredSchema) throws {
        try self.init(objectSchema: stored.objectSchema(of: table), table: table)
    }

    package func property(named name: String) -> PropertyInfo? { indexByName[name].map { properties[$0] } }
    package func property(columnID: UInt32) -> PropertyInfo? {
        propertyIndex(columnID: columnID).map { properties[$0] }
    }

    /// The position of the property with this column id in `properties` (and `columns`).
    func propertyIndex(columnID: UInt32) -> Int? {
        // Most classes have a few properties: comparing ids costs less than hashing one, and the
        // C API looks properties up by key on every call.
        if columns.count <= 16 { return columns.firstIndex { $0.id == columnID } }
        return indexByColumn[columnID]
    }

    /// Calls `body` with the columns of the single-valued properties `columnIDs` names (the C
    /// API's property keys), in their order, without building an array.
    /// - Throws: `.notFound` when an id names no property, `.wrongType` for a collection or
    ///   backlinks; before `body` runs.
    func withColumns<R>(ofColumnIDs columnIDs: UnsafeBufferPointer<Int64>,
                        _ body: (UnsafeBufferPointer<ColumnSpec>) throws -> R) throws -> R {
        try withUnsafeTemporaryAllocation(of: ColumnSpec.self, capacity: max(columnIDs.count, 1)) { buffer in
            for (i, id) in columnIDs.enumerated() {
                guard id >= 0, id <= Int64(UInt32.max), let position = propertyIndex(columnID: UInt32(id)) else {
                    buffer.baseAddress!.deinitialize(count: i)
                    throw DBError(.notFound, "class '\(name)' has no property with key \(id)")
                }
                if !columns[position].isSingleValued {
                    do { try properties[position].requireSingleValue(in: self) } catch {
                        buffer.baseAddress!.deinitialize(count: i)
                        throw error
                    }
                }
                (buffer.baseAddress! + i).initialize(to: columns[position])
            }
            defer { buffer.baseAddress!.deinitialize(count: columnIDs.count) }
            return try body(UnsafeBufferPointer(start: buffer.baseAddress!, count: columnIDs.count))
        }
    }

    /// The declared schema of this class (public names).
    package var objectSchema: ObjectSchema {
        ObjectSchema(name: name, properties: properties.map(\.property),
                     compoundIndexes: compoundIndexes.map { $0.properties.map(\.name) }, isEmbedded: isEmbedded)
    }

    package func requireProperty(named name: String) throws -> PropertyInfo {
        guard let property = property(named: name) else {
            throw DBError(.notFound, "class '\(self.name)' has no property named '\(name)'")
        }
        return property
    }

    package func requireProperty(columnID: UInt32) throws -> PropertyInfo {
        guard let property = property(columnID: columnID) else {
            throw DBError(.notFound, "class '\(name)' has no property with key \(columnID)")
        }
        return property
    }
}
