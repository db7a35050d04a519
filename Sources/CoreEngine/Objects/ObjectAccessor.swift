/// An accessor to one object of a realm: its class, its key, and the realm it reads through.
///
/// Reads and writes go through the realm's current transaction, so an accessor always shows the
/// version its realm has pinned. It becomes invalid when the object is deleted or the realm closes.
package final class ObjectAccessor: Hashable, CustomStringConvertible {
    package let realm: Realm
    package let classInfo: ClassInfo
    /// The object's key in its table (never reused).
    package let key: Int64
    /// Old objects of a migration are read-only.
    package let isReadOnly: Bool
    /// Objects lent to a migration callback die when the callback returns.
    var isBorrowedAlive = true

    init(realm: Realm, classInfo: ClassInfo, key: Int64, isReadOnly: Bool = false) {
        self.realm = realm
        self.classInfo = classInfo
        self.key = key
        self.isReadOnly = isReadOnly
    }

    /// Whether the object still exists in the realm's current version and the realm is open.
    package func isValid() throws -> Bool {
        try realm.lock.withLock {
            guard isBorrowedAlive, !realm.isClosed else { return false }
            return try realm.currentTransaction().objectExists(table: classInfo.tableID, key: key)
        }
    }

    func requireValid() throws -> StorageTransaction {
        try requireBorrowedAlive()
        return try realm.transaction(holding: classInfo, key: key)
    }

    /// Refuses an object lent to a migration callback that has returned.
    private func requireBorrowedAlive() throws {
        guard isBorrowedAlive else { throw DBError(.invalidated, "this object was lent to a migration callback that has returned") }
    }

    /// Reads a property.
    /// - Throws: `.invalidated`, `.closedRealm`.
    package func value(of property: PropertyInfo) throws -> Value {
        try realm.lock.withLock {
            try property.requireSingleValue(in: classInfo)
            return try requireValid().value(table: classInfo.tableID, column: property.column, key: key)
        }
    }

    /// Reads several properties in one locked call.
    package func values(of properties: [PropertyInfo]) throws -> [Value] {
        for property in properties { try property.requireSingleValue(in: classInfo) }
        return try realm.lock.withLock {
            try requireBorrowedAlive()
            var values = [Value](repeating: .null, count: properties.count)
            try withUnsafeTemporaryAllocation(of: ColumnSpec.self, capacity: max(properties.count, 1)) { buffer in
                for (index, property) in properties.enumerated() { (buffer.baseAddress! + index).initialize(to: property.column) }
                defer { buffer.baseAddress!.deinitialize(count: properties.count) }
                try realm.readLiveRow(classInfo, key: key, columns: UnsafeBufferPointer(start: buffer.baseAddress!, count: properties.count),
                                      try realm.currentTransaction()) { index, contents in values[index] = contents.value }
            }
            return values
        }
    }

    /// Calls `body(i, contents)` with the value of each property `columnIDs[i]` names (the C API's
    /// property keys), in order: the per-call path of point reads, which builds no array of ids,
    /// columns or values and copies no `PropertyInfo`. Every id is checked before any value is read.
    /// - Throws: `.notFound` (no property has an id), `.wrongType` (a collection or backlinks),
    ///   then as `values(of:)`.
    package func forEachValue(ofColumnIDs columnIDs: UnsafeBufferPointer<Int64>, _ body: (Int, StoredContents) -> Void) throws {
        let classInfo = classInfo
        try classInfo.withColumns(ofColumnIDs: columnIDs) { columns in
            try realm.lock.withLock {
                try requireBorrowedAlive()
                try realm.readLiveRow(classInfo, key: key, columns: columns, try realm.currentTransaction(), body)
            }
        }
    }

    /// Writes one property: the path of every attribute assignment, without the array of
    /// (property, value) pairs `setValues` builds (copying them cost more than the write).
    /// - Throws: `.wrongTransactionState` outside a write, `.readOnly`, `.wrongType`, `.notNullable`,
    ///   `.logic` when changing a primary key outside a migration, `.invalidated`.
    package func setValue(_ value: Value, for property: PropertyInfo) throws {
        try realm.lock.withLock {
            try requireWritable()
            try realm.setValue(value, for: property, of: classInfo, key: key)
        }
    }

    /// Writes several properties; all are validated before any is written.
    package func setValues(_ assignments: [(PropertyInfo, Value)]) throws {
        try realm.lock.withLock {
            let write = try writableTransaction()
            let coerced = try assignments.map { property, value in
                (property, try realm.checkedAssignment(value, to: property, of: classInfo, key: key, in: write))
            }
            for (property, value) in coerced {
                try write.setValue(value, table: classInfo.tableID, column: property.column, key: key)
            }
        }
    }

    /// Refuses writes through an old object of a migration, or one lent to a callback that returned.
    private func requireWritable() throws {
        if isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; write through the new object") }
        try requireBorrowedAlive()
    }

    /// The write transaction to set this object's values in (under the realm's lock).
    private func writableTransaction() throws -> StorageTransaction {
        try requireWritable()
        return try realm.writableTransaction(of: classInfo, key: key)
    }

    // MARK: Relationships

    private func collectionCount(_ property: PropertyInfo) throws -> Int {
        switch property.collection {
        case .list: return try list(of: property).count()
        case .set: return try set(of: property).count()
        case .dictionary: return try dictionary(of: property).count()
        case .none: return 0
        }
    }

    package func list(of property: PropertyInfo) throws -> ListAccessor { try ListAccessor(object: self, property: property) }
    package func set(of property: PropertyInfo) throws -> SetAccessor { try SetAccessor(object: self, property: property) }
    package func dictionary(of property: PropertyInfo) throws -> DictionaryAccessor {
        try DictionaryAccessor(object: self, property: property)
    }

    /// The object a to-one link property points to, or nil.
    package func linkedObject(of property: PropertyInfo) throws -> ObjectAccessor? {
        guard case let .link(link) = try value(of: property) else { return nil }
        return ObjectAccessor(realm: realm, classInfo: try realm.classInfo(tableID: link.table), key: link.key)
    }

    /// Creates an embedded object as the value of a to-one link property (deleting the embedded
    /// object it held before).
    package func createEmbedded(for property: PropertyInfo, values: [(PropertyInfo, Value)] = []) throws -> ObjectAccessor {
        try realm.lock.withLock {
            if isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; write through the new object") }
            // A closed realm or a deleted object is reported as such before the property is judged.
            _ = try requireValid()
            guard case let .link(target) = property.column.kind, let targetClass = try? realm.classInfo(tableID: target),
                  targetClass.isEmbedded else {
                throw DBError(.logic, "property '\(classInfo.name).\(property.name)' is not a link to an embedded class")
            }
            _ = try requireValid()
            let write = try realm.writeTransaction()
            let child = try realm.createEmbedded(targetClass, values: values)
            try write.setValue(.link(ObjectLink(table: target, key: child.key)), table: classInfo.tableID,
                               column: property.column, key: key)
            return child
        }
    }

    /// The keys of the objects that link here through a linkingObjects property's origin, ascending.
    package func linkingObjectKeys(of property: PropertyInfo) throws -> [Int64] {
        try realm.lock.withLock {
            let results = try linkingObjects(of: property)
            _ = try requireValid()
            return try results.keys()
        }
    }

    /// The objects that link here through a linkingObjects property's origin, as live results.
    package func linkingObjects(of property: PropertyInfo) throws -> Results {
        guard case let .backlinks(origin, column) = property.column.kind else {
            throw DBError(.wrongType, "property '\(classInfo.name).\(property.name)' is not a linkingObjects property")
        }
        return try backlinks(fromClass: realm.classInfo(tableID: origin), columnID: column)
    }

    /// The objects of `originClass` whose property `columnID` links here, as live results: the
    /// backlinks of any link property, declared as linkingObjects or not.
    package func backlinks(fromClass originClass: ClassInfo, columnID: UInt32) throws -> Results {
        guard let origin = originClass.property(columnID: columnID), origin.type == .object || origin.type == .mixed else {
            throw DBError(.wrongType, "class '\(originClass.name)' has no link property with key \(columnID)")
        }
        let table = classInfo.tableID, key = key
        return Results(realm: realm, classInfo: originClass, predicate: .constant(true), operations: [], source: .keys { transaction in
            guard try transaction.objectExists(table: table, key: key) else { return [] }
            return try transaction.backlinks(to: ObjectLink(table: table, key: key), column: columnID)
                .filter { try transaction.objectExists(table: originClass.tableID, key: $0) }
        })
    }

    /// How many objects link to this one, through any property (each linking object once per property).
    package func backlinkCount() throws -> Int {
        try realm.lock.withLock {
            try requireValid().backlinkCount(to: ObjectLink(table: classInfo.tableID, key: key))
        }
    }

    /// Deletes the object.
    package func delete() throws {
        try realm.lock.withLock {
            if isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; delete the new object") }
            _ = try requireValid()
            let write = try realm.writeTransaction()
            try write.writeBackIfLarge()
            try write.deleteObject(table: classInfo.tableID, columns: classInfo.columns, key: key)
        }
    }

    /// "Person {\n\tid = 1;\n\tname = Ann;\n}" (as Realm prints objects); "[invalid object]" when deleted.
    package var description: String {
        let single = classInfo.properties.filter(\.column.holdsSingleValue)
        guard let values = try? values(of: single) else { return "[invalid object]" }
        var text = classInfo.name + " {\n"
        var byColumn = Dictionary(uniqueKeysWithValues: zip(single.map(\.columnID), values))
        for property in classInfo.properties {
            if let value = byColumn.removeValue(forKey: property.columnID) {
                var shown = value.displayString
                if case let .link(link) = value, let target = try? realm.classInfo(tableID: link.table) {
                    shown = "\(target.name)(key \(link.key))"
                }
                text += "\t\(property.name) = \(shown);\n"
            } else if property.collection != .none, let count = try? collectionCount(property) {
                text += "\t\(property.name) = \(property.property.typeDescription) (\(count) \(count == 1 ? "element" : "elements"));\n"
            }
        }
        return text + "}"
    }

    /// Same database object: same file, class and key (Realm's `isSameObject`).
    package static func == (a: ObjectAccessor, b: ObjectAccessor) -> Bool {
        a.classInfo.tableID == b.classInfo.tableID && a.key == b.key
            && (a.realm === b.realm || (a.realm.filePath != nil && a.realm.filePath == b.realm.filePath))
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(classInfo.tableID)
        hasher.combine(key)
    }
}

extension PropertyInfo {
    /// Coerces a value to this property's type (its element type, for a collection), checks
    /// nullability and, for links, that the object exists in `realm` and is of the right class.
    /// - Parameter allowEmbedded: accept a link to an embedded object (one just created in place).
    func validate(_ value: Value, in classInfo: ClassInfo, realm: Realm, allowEmbedded: Bool = false) throws -> Value {
        let coerced: Value
        do {
            coerced = try type.coerce(value)
        } catch let error as DBError {
            throw DBError(error.code, "property '\(classInfo.name).\(name)': \(error.message)")
        }
        if coerced.isNull && !isOptional {
            throw DBError(.notNullable, "property '\(classInfo.name).\(name)' of type \(property.typeDescription) is not optional and cannot be set to null")
        }
        if case let .link(link) = coerced {
            try realm.validateLink(link, for: self, in: classInfo, allowEmbedded: allowEmbedded)
        }
        return coerced
    }

    /// Throws unless the property holds one value (not a collection or backlinks).
    package func requireSingleValue(in classInfo: ClassInfo) throws {
        switch column.kind {
        case .collection:
            let accessor = collection == .list ? "list" : (collection == .set ? "set" : "dictionary")
            throw DBError(.wrongType, "property '\(classInfo.name).\(name)' is a \(accessor) (\(property.typeDescription)): read and change it through its \(accessor) accessor")
        case .backlinks:
            throw DBError(.wrongType, "property '\(classInfo.name).\(name)' is computed linking objects: read it as results, it cannot be set")
        default:
            return
        }
    }
}

extension Realm {
    /// A link may only point to a live object of this realm of the property's class (any
    /// non-embedded class for mixed); embedded objects are only linked when created in place.
    func validateLink(_ link: ObjectLink, for property: PropertyInfo, in classInfo: ClassInfo, allowEmbedded: Bool) throws {
        let what = "property '\(classInfo.name).\(property.name)'"
        guard let target = try? self.classInfo(tableID: link.table) else {
            throw DBError(.wrongType, "\(what): the link names class key \(link.table), which is not in this realm's schema")
        }
        if let expected = property.linkTarget, property.type == .object, expected != link.table {
            let expectedName = (try? self.classInfo(tableID: expected).name) ?? "class \(expected)"
            throw DBError(.wrongType, "\(what) links to \(expectedName) objects, not \(target.name)")
        }
        guard try currentTransaction().objectExists(table: link.table, key: link.key) else {
            throw DBError(.invalidated, "\(what): the linked \(target.name) object does not exist (deleted, or from another realm)")
        }
        if target.isEmbedded && !allowEmbedded {
            throw DBError(.logic, property.type == .mixed
                ? "\(what): a mixed value cannot link to an embedded object (\(target.name))"
                : "\(what): \(target.name) is embedded and already has a parent; create a new one in place instead")
        }
    }
}
