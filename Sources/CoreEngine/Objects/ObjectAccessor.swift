/// An accessor to one object of a realm: its class, its key, and the realm it reads through.
///
/// Reads and writes go through the realm's current transaction, so an accessor always shows the
/// version its realm has pinned. It becomes invalid when the object is deleted or the realm closes.
public final class ObjectAccessor: Hashable, CustomStringConvertible {
    public let realm: Realm
    public let classInfo: ClassInfo
    /// The object's key in its table (never reused).
    public let key: Int64
    /// Old objects of a migration are read-only.
    public let isReadOnly: Bool
    /// Objects lent to a migration callback die when the callback returns.
    var isBorrowedAlive = true

    init(realm: Realm, classInfo: ClassInfo, key: Int64, isReadOnly: Bool = false) {
        self.realm = realm
        self.classInfo = classInfo
        self.key = key
        self.isReadOnly = isReadOnly
    }

    /// Whether the object still exists in the realm's current version and the realm is open.
    public func isValid() throws -> Bool {
        try realm.lock.withLock {
            guard isBorrowedAlive, !realm.isClosed else { return false }
            return try realm.currentTransaction().objectExists(table: classInfo.tableID, key: key)
        }
    }

    private func requireValid() throws -> StorageTransaction {
        guard isBorrowedAlive else { throw DBError(.invalidated, "this object was lent to a migration callback that has returned") }
        let transaction = try realm.currentTransaction()
        guard try transaction.objectExists(table: classInfo.tableID, key: key) else {
            throw DBError(.invalidated, "the \(classInfo.name) object has been deleted or is not in this version of the realm")
        }
        return transaction
    }

    /// Reads a property.
    /// - Throws: `.invalidated`, `.closedRealm`.
    public func value(of property: PropertyInfo) throws -> Value {
        try realm.lock.withLock {
            try requireValid().value(table: classInfo.tableID, column: property.column, key: key)
        }
    }

    /// Reads several properties in one locked call.
    public func values(of properties: [PropertyInfo]) throws -> [Value] {
        try realm.lock.withLock {
            let transaction = try requireValid()
            return try properties.map { try transaction.value(table: classInfo.tableID, column: $0.column, key: key) }
        }
    }

    /// Writes a property.
    /// - Throws: `.wrongTransactionState` outside a write, `.readOnly`, `.wrongType`, `.notNullable`,
    ///   `.logic` when changing a primary key outside a migration, `.invalidated`.
    public func setValue(_ value: Value, for property: PropertyInfo) throws {
        try setValues([(property, value)])
    }

    /// Writes several properties; all are validated before any is written.
    public func setValues(_ assignments: [(PropertyInfo, Value)]) throws {
        try realm.lock.withLock {
            if isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; write through the new object") }
            // As in Realm: a deleted object is reported before a missing write transaction.
            _ = try requireValid()
            let write = try realm.writeTransaction()
            let coerced = try assignments.map { property, value -> (PropertyInfo, Value) in
                let checked = try property.validate(value, in: classInfo)
                if property.isPrimaryKey && realm.activeMigration == nil {
                    let current = try write.value(table: classInfo.tableID, column: property.column, key: key)
                    if !current.isIdentical(to: checked) {
                        throw DBError(.logic, "the primary key '\(classInfo.name).\(property.name)' cannot be changed after the object is created (only in a migration)")
                    }
                }
                return (property, checked)
            }
            for (property, value) in coerced {
                try write.setValue(value, table: classInfo.tableID, column: property.column, key: key)
            }
        }
    }

    /// Deletes the object.
    public func delete() throws {
        try realm.lock.withLock {
            if isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; delete the new object") }
            _ = try requireValid()
            let write = try realm.writeTransaction()
            try write.deleteObject(table: classInfo.tableID, columns: classInfo.columns, key: key)
        }
    }

    /// "Person {\n\tid = 1;\n\tname = Ann;\n}" (as Realm prints objects); "[invalid object]" when deleted.
    public var description: String {
        guard let values = try? values(of: classInfo.properties) else { return "[invalid object]" }
        var text = classInfo.name + " {\n"
        for (property, value) in zip(classInfo.properties, values) {
            text += "\t\(property.name) = \(value.displayString);\n"
        }
        return text + "}"
    }

    /// Same database object: same file, class and key (Realm's `isSameObject`).
    public static func == (a: ObjectAccessor, b: ObjectAccessor) -> Bool {
        a.classInfo.tableID == b.classInfo.tableID && a.key == b.key
            && (a.realm === b.realm || (a.realm.filePath != nil && a.realm.filePath == b.realm.filePath))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(classInfo.tableID)
        hasher.combine(key)
    }
}

extension PropertyInfo {
    /// Coerces a value to this property's type and checks nullability.
    func validate(_ value: Value, in classInfo: ClassInfo) throws -> Value {
        let coerced: Value
        do {
            coerced = try type.coerce(value)
        } catch let error as DBError {
            throw DBError(error.code, "property '\(classInfo.name).\(name)': \(error.message)")
        }
        if coerced.isNull && !isOptional {
            throw DBError(.notNullable, "property '\(classInfo.name).\(name)' of type \(type.name) is not optional and cannot be set to null")
        }
        return coerced
    }
}
