/// What `create` does when an object with the same primary key exists.
package enum UpsertMode: Int32, Sendable {
    /// Fail with `.duplicatePrimaryKey`.
    case none = 0
    /// Update the existing object, writing (and reporting as changed) only values that differ.
    case modified = 1
    /// Update the existing object, writing every given value.
    case all = 2
}

/// Creating, finding and counting objects.
extension Realm {
    /// Creates an object with all its initial values in one call, or updates an existing one with the
    /// same primary key when `upsert` allows. Values are validated before anything is written.
    /// - Parameter values: property/value pairs; optional properties left out are null.
    /// - Throws: `.wrongTransactionState`, `.missingValue` (a required property left out),
    ///   `.wrongType`, `.notNullable`, `.duplicatePrimaryKey`, `.invalidArgument` (a property given twice).
    package func create(_ classInfo: ClassInfo, values: [(PropertyInfo, Value)], upsert: UpsertMode = .none) throws -> ObjectAccessor {
        try lock.withLock {
            guard !classInfo.isEmbedded else {
                throw DBError(.logic, "'\(classInfo.name)' is an embedded class: its objects are created in place, as the value of a parent's property")
            }
            return try createObject(classInfo, values: values, upsert: upsert)
        }
    }

    /// Creates an embedded object (the caller links it to its parent): required properties not
    /// given start at their type's default.
    func createEmbedded(_ classInfo: ClassInfo, values: [(PropertyInfo, Value)]) throws -> ObjectAccessor {
        let given = Set(values.map(\.0.columnID))
        let defaults = classInfo.properties.filter { $0.isScalar && !$0.isOptional && !given.contains($0.columnID) }
            .map { ($0, $0.type.defaultValue) }
        return try createObject(classInfo, values: values + defaults)
    }

    /// `create` without the embedded check: the path of embedded objects created in place.
    func createObject(_ classInfo: ClassInfo, values: [(PropertyInfo, Value)], upsert: UpsertMode = .none) throws -> ObjectAccessor {
        try lock.withLock {
            let write = try writeTransaction()
            var given = [Value?](repeating: nil, count: classInfo.properties.count)
            for (property, value) in values {
                guard let index = classInfo.properties.firstIndex(where: { $0.columnID == property.columnID }) else {
                    throw DBError(.notFound, "class '\(classInfo.name)' has no property with key \(property.columnID)")
                }
                guard given[index] == nil else {
                    throw DBError(.invalidArgument, "property '\(classInfo.name).\(property.name)' is given twice")
                }
                try property.requireSingleValue(in: classInfo)
                given[index] = try property.validate(value, in: classInfo, realm: self)
            }
            if let pk = classInfo.primaryKey {
                let pkIndex = classInfo.properties.firstIndex { $0.columnID == pk.columnID }!
                if given[pkIndex] == nil && !pk.isOptional {
                    throw DBError(.missingValue, "missing value for primary key '\(classInfo.name).\(pk.name)'")
                }
                let pkValue = given[pkIndex] ?? .null
                if let existing = try write.indexFirst(table: classInfo.tableID, column: pk.column, value: pkValue) {
                    guard upsert != .none else {
                        throw DBError(.duplicatePrimaryKey, "an object of class '\(classInfo.name)' with primary key \(pkValue.displayString) already exists")
                    }
                    for (index, property) in classInfo.properties.enumerated() where index != pkIndex {
                        guard let value = given[index] else { continue }
                        if upsert == .modified,
                           try write.value(table: classInfo.tableID, column: property.column, key: existing).isIdentical(to: value) {
                            continue
                        }
                        try write.setValue(value, table: classInfo.tableID, column: property.column, key: existing)
                    }
                    return ObjectAccessor(realm: self, classInfo: classInfo, key: existing)
                }
            }
            for (index, property) in classInfo.properties.enumerated()
            where given[index] == nil && !property.isOptional && property.isScalar {
                throw DBError(.missingValue, "missing value for required property '\(classInfo.name).\(property.name)' (\(property.property.typeDescription))")
            }
            let key = try write.createObject(table: classInfo.tableID)
            for (index, property) in classInfo.properties.enumerated() where property.column.holdsSingleValue {
                let value = given[index] ?? .null
                // A fresh slot already reads as null; skip writing nulls of optional non-indexed columns.
                if value.isNull && !property.column.isIndexed { continue }
                try write.setValue(value, table: classInfo.tableID, column: property.column, key: key, isNewObject: true)
            }
            // The compound index entries from the values just written, not read back.
            try write.indexNewObject(table: classInfo.tableID, key: key) { column in
                classInfo.properties.firstIndex { $0.columnID == column.id }.flatMap { given[$0] } ?? .null
            }
            return ObjectAccessor(realm: self, classInfo: classInfo, key: key)
        }
    }

    /// Finds an object by primary key.
    /// - Returns: nil when no object has that key.
    /// - Throws: `.logic` for a class without a primary key, `.wrongType` for a key of the wrong type.
    package func object(_ classInfo: ClassInfo, primaryKey: Value) throws -> ObjectAccessor? {
        try lock.withLock {
            guard let pk = classInfo.primaryKey else {
                throw DBError(.logic, "class '\(classInfo.name)' has no primary key")
            }
            let value = try pk.type.coerce(primaryKey)
            guard let key = try currentTransaction().indexFirst(table: classInfo.tableID, column: pk.column, value: value) else {
                return nil
            }
            return ObjectAccessor(realm: self, classInfo: classInfo, key: key)
        }
    }

    /// The object with a given key.
    /// - Throws: `.notFound` when no live object has that key.
    package func object(_ classInfo: ClassInfo, key: Int64) throws -> ObjectAccessor {
        try lock.withLock {
            guard try currentTransaction().objectExists(table: classInfo.tableID, key: key) else {
                throw DBError(.notFound, "no \(classInfo.name) object with key \(key)")
            }
            return ObjectAccessor(realm: self, classInfo: classInfo, key: key)
        }
    }

    /// The number of objects of a class, without reading them.
    package func objectCount(_ classInfo: ClassInfo) throws -> Int {
        try lock.withLock { try currentTransaction().objectCount(table: classInfo.tableID) }
    }

    /// Keys of every object of a class, ascending.
    package func objectKeys(_ classInfo: ClassInfo) throws -> [Int64] {
        try lock.withLock {
            var keys: [Int64] = []
            try currentTransaction().forEachObjectKey(table: classInfo.tableID) { keys.append($0) }
            return keys
        }
    }
}
