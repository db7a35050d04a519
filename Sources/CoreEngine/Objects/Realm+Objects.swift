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
        let key = try createKey(classInfo, properties: values.map(\.0), values: values.map(\.1), upsert: upsert)
        return ObjectAccessor(realm: self, classInfo: classInfo, key: key)
    }

    /// `create` for many objects: the same properties for every row, values from `row(i)`;
    /// `created(i, key)` gets each object's key (no accessor is made).
    /// - Throws: as `create`, with the failing row's number in the message when there are several
    ///   rows (the rows before it are created).
    package func createMany(_ classInfo: ClassInfo, properties: [PropertyInfo], count: Int, upsert: UpsertMode = .none,
                            row: (Int) throws -> [Value], created: (Int, Int64) -> Void) throws {
        try lock.withLock {
            for index in 0..<count {
                do {
                    created(index, try createKey(classInfo, properties: properties, values: row(index), upsert: upsert))
                } catch let error as DBError where count > 1 {
                    throw DBError(error.code, "row \(index): \(error.message)")
                }
            }
        }
    }

    /// `create` with the properties and values in parallel arrays, returning the object's key.
    private func createKey(_ classInfo: ClassInfo, properties: [PropertyInfo], values: [Value], upsert: UpsertMode) throws -> Int64 {
        try lock.withLock {
            guard !classInfo.isEmbedded else {
                throw DBError(.logic, "'\(classInfo.name)' is an embedded class: its objects are created in place, as the value of a parent's property")
            }
            return try createObjectKey(classInfo, properties: properties, values: values, upsert: upsert)
        }
    }

    /// Creates an embedded object (the caller links it to its parent): required properties not
    /// given start at their type's default.
    func createEmbedded(_ classInfo: ClassInfo, values: [(PropertyInfo, Value)]) throws -> ObjectAccessor {
        let given = Set(values.map(\.0.columnID))
        let defaults = classInfo.properties.filter { $0.isScalar && !$0.isOptional && !given.contains($0.columnID) }
            .map { ($0, $0.type.defaultValue) }
        let all = values + defaults
        let key = try createObjectKey(classInfo, properties: all.map(\.0), values: all.map(\.1), upsert: .none)
        return ObjectAccessor(realm: self, classInfo: classInfo, key: key)
    }

    /// Creates (or upserts) one object, without the embedded check: the path of every create.
    /// The class's properties are read by position (`columns`), never copied per object.
    private func createObjectKey(_ classInfo: ClassInfo, properties: [PropertyInfo], values: [Value], upsert: UpsertMode) throws -> Int64 {
        try lock.withLock {
            let write = try writeTransaction()
            let columns = classInfo.columns
            let table = classInfo.tableID
            var given = [Value?](repeating: nil, count: columns.count)
            for argument in properties.indices {
                guard let index = classInfo.propertyIndex(columnID: properties[argument].columnID) else {
                    throw DBError(.notFound, "class '\(classInfo.name)' has no property with key \(properties[argument].columnID)")
                }
                guard given[index] == nil else {
                    throw DBError(.invalidArgument, "property '\(classInfo.name).\(properties[argument].name)' is given twice")
                }
                if !columns[index].isSingleValued { try properties[argument].requireSingleValue(in: classInfo) }
                given[index] = try properties[argument].validate(values[argument], in: classInfo, realm: self)
            }
            if let pkIndex = classInfo.primaryKeyIndex {
                if given[pkIndex] == nil && !columns[pkIndex].isOptional {
                    throw DBError(.missingValue, "missing value for primary key '\(classInfo.name).\(classInfo.properties[pkIndex].name)'")
                }
                let pkValue = given[pkIndex] ?? .null
                if let existing = try write.indexFirst(table: table, column: columns[pkIndex], value: pkValue) {
                    guard upsert != .none else {
                        throw DBError(.duplicatePrimaryKey, "an object of class '\(classInfo.name)' with primary key \(pkValue.displayString) already exists")
                    }
                    for index in columns.indices where index != pkIndex {
                        guard let value = given[index] else { continue }
                        if upsert == .modified, try write.value(table: table, column: columns[index], key: existing).isIdentical(to: value) {
                            continue
                        }
                        try write.setValue(value, table: table, column: columns[index], key: existing)
                    }
                    return existing
                }
            }
            for index in columns.indices where given[index] == nil && !columns[index].isOptional && columns[index].isScalar {
                let property = classInfo.properties[index]
                throw DBError(.missingValue, "missing value for required property '\(classInfo.name).\(property.name)' (\(property.property.typeDescription))")
            }
            let key = try write.createObject(table: table)
            for index in columns.indices where columns[index].holdsSingleValue {
                let value = given[index] ?? .null
                // A fresh slot already reads as null; skip writing nulls of optional non-indexed columns.
                if value.isNull && !columns[index].isIndexed { continue }
                try write.setValue(value, table: table, column: columns[index], key: key, isNewObject: true)
            }
            // The compound index entries from the values just written, not read back.
            try write.indexNewObject(table: table, key: key) { column in
                classInfo.propertyIndex(columnID: column.id).flatMap { given[$0] } ?? .null
            }
            return key
        }
    }

    /// Finds an object by primary key.
    /// - Returns: nil when no object has that key.
    /// - Throws: `.logic` for a class without a primary key, `.wrongType` for a key of the wrong type.
    package func object(_ classInfo: ClassInfo, primaryKey: Value) throws -> ObjectAccessor? {
        try objectKey(classInfo, primaryKey: primaryKey).map { ObjectAccessor(realm: self, classInfo: classInfo, key: $0) }
    }

    /// The key of the object with a primary key (as `object(_:primaryKey:)`, with no accessor made).
    package func objectKey(_ classInfo: ClassInfo, primaryKey: Value) throws -> Int64? {
        try lock.withLock {
            guard let index = classInfo.primaryKeyIndex else {
                throw DBError(.logic, "class '\(classInfo.name)' has no primary key")
            }
            let column = classInfo.columns[index]  // not the PropertyInfo, whose copy cost more than the checks
            return try currentTransaction().indexFirst(table: classInfo.tableID, column: column, value: try column.type.coerce(primaryKey))
        }
    }

    /// An accessor to the object with a given key, without looking the object up: each read and
    /// write through it checks that the object exists (`.invalidated` when it does not), so a
    /// single read or write costs one lookup instead of two.
    package func unverifiedObject(_ classInfo: ClassInfo, key: Int64) -> ObjectAccessor {
        ObjectAccessor(realm: self, classInfo: classInfo, key: key)
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

    /// The values of one property of the objects with the given keys, in one call: what a
    /// binding reads ahead for the objects it is about to hand out one at a time.
    /// - Parameter checkPresence: false when the caller knows every key is a live object at the
    ///   current version (keys its results found since the last change): the keys are then read
    ///   in runs, as `Results.values(of:)` reads them.
    /// - Throws: `.invalidated` when an object is gone; `.wrongType` for a collection property.
    /// Not generic over the keys: called from another module, a generic one ran unspecialized,
    /// at several times the cost of the read.
    package func values(of property: PropertyInfo, in classInfo: ClassInfo, keys: ArraySlice<Int64>,
                        checkPresence: Bool = true) throws -> [Value] {
        try lock.withLock {
            try property.requireSingleValue(in: classInfo)
            return try currentTransaction().values(table: classInfo.tableID, column: property.column, keys: keys,
                                                   checkPresence: checkPresence)
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
