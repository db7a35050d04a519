/// A migration in progress, handed to the configuration's migration function.
///
/// It runs inside the write transaction that opens the realm: the realm already has the new
/// schema, and the columns of removed or retyped properties stay readable through the old
/// objects until the function returns. Nothing is committed if the function throws.
package final class Migration {
    /// The realm under the new schema, in the migration's write transaction.
    package let realm: Realm
    /// The file's schema before the migration (persisted names as public names).
    package let oldSchema: Schema
    package let newSchema: Schema
    private let oldStored: StoredSchema
    private let oldClasses: [String: ClassInfo]
    private(set) var deletedClasses = Set<UInt32>()
    /// `deletedClasses` when each open savepoint was taken (a rollback restores it).
    private var deletedClassesAtSavepoints: [Set<UInt32>] = []
    private var isActive = true

    init(realm: Realm, oldSchema stored: StoredSchema, newSchema: Schema) throws {
        self.realm = realm
        oldStored = stored
        oldSchema = stored.schema
        self.newSchema = newSchema
        oldClasses = try Dictionary(uniqueKeysWithValues: stored.tables.map { ($0.name, try ClassInfo(table: $0, in: stored)) })
    }

    func end() { isActive = false }

    func savepointTaken() { deletedClassesAtSavepoints.append(deletedClasses) }

    func savepointEnded(rolledBack: Bool) {
        guard let saved = deletedClassesAtSavepoints.popLast() else { return }
        if rolledBack { deletedClasses = saved }
    }

    private func requireActive() throws {
        guard isActive else { throw DBError(.invalidated, "the migration has ended") }
    }

    /// The classes of the old schema bound to the file's tables: their keys are the ones the
    /// old objects of `enumerateObjects` read with.
    package var oldClassInfos: [ClassInfo] { Array(oldClasses.values) }

    private func oldClass(_ name: String) throws -> ClassInfo {
        guard let info = oldClasses[name] else { throw DBError(.notFound, "the old schema has no class named '\(name)'") }
        return info
    }

    /// Calls `body` with every object of a class of the old schema: `old` reads it under the old
    /// schema (read-only), `new` reads and writes it under the new one (nil if the class is gone
    /// from the new schema, or the object was deleted by an earlier call).
    package func enumerateObjects(ofType className: String, _ body: (ObjectAccessor, ObjectAccessor?) throws -> Void) throws {
        try requireActive()
        let old = try oldClass(className)
        let new = try? realm.classInfo(named: className)
        let write = try realm.writeTransaction()
        guard !deletedClasses.contains(old.tableID) else { return }
        try write.forEachObjectKey(table: old.tableID) { key in
            let oldObject = ObjectAccessor(realm: realm, classInfo: old, key: key, isReadOnly: true)
            let newObject = new.map { ObjectAccessor(realm: realm, classInfo: $0, key: key) }
            defer { oldObject.isBorrowedAlive = false; newObject?.isBorrowedAlive = false }
            try body(oldObject, (try newObject?.isValid()) == true ? newObject : nil)
        }
    }

    /// Moves the values of a property of the old schema into a property of the new schema.
    /// - Throws: `.notFound` for unknown names; `.logic` if the old property still exists in the new
    ///   schema or the new one existed in the old schema; `.wrongType` if the types differ.
    package func renameProperty(onType className: String, from oldName: String, to newName: String) throws {
        try requireActive()
        let old = try oldClass(className)
        let new = try realm.classInfo(named: className)
        guard let source = old.property(named: oldName) else {
            throw DBError(.notFound, "the old schema of '\(className)' has no property '\(oldName)'")
        }
        let destination = try new.requireProperty(named: newName)
        if new.properties.contains(where: { $0.property.persistedName == oldName }) {
            throw DBError(.logic, "cannot rename '\(className).\(oldName)': it still exists in the new schema")
        }
        if old.property(named: destination.property.persistedName) != nil {
            throw DBError(.logic, "cannot rename to '\(className).\(newName)': it already existed in the old schema")
        }
        guard source.type == destination.type else {
            throw DBError(.wrongType, "cannot rename '\(className).\(oldName)' (\(source.property.typeDescription)) to '\(newName)' (\(destination.property.typeDescription)): the types differ")
        }
        let write = try realm.writeTransaction()
        try write.forEachObjectKey(table: old.tableID) { key in
            var value = try write.value(table: old.tableID, column: source.column, key: key)
            if value.isNull && !destination.isOptional { value = destination.type.defaultValue }
            try write.setValue(value, table: new.tableID, column: destination.column, key: key)
        }
    }

    /// Deletes every object of a class; if the class is not in the new schema, its table is removed too.
    package func deleteData(forType className: String) throws {
        try requireActive()
        let old = try oldClass(className)
        try realm.writeTransaction().dropTableData(table: old.tableID)
        deletedClasses.insert(old.tableID)
    }
}
