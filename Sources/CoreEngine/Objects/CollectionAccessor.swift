/// A live list, set or dictionary property of one object: every read shows the realm's current
/// state (inside a write, the write's changes), every change is validated before it is made and
/// needs a write transaction. Subclasses add the operations of their kind.
package class CollectionAccessor {
    /// The object that owns the collection.
    package let object: ObjectAccessor
    package let property: PropertyInfo
    /// The objects of a collection of objects as the Results its observers share.
    private var observed: Results?

    init(object: ObjectAccessor, property: PropertyInfo, kind: CollectionKind) throws {
        guard case let .collection(actual, _, _) = property.column.kind, actual == kind else {
            throw DBError(.wrongType, "property '\(object.classInfo.name).\(property.name)' (\(property.property.typeDescription)) is not a \(Self.kindName(kind))")
        }
        self.object = object
        self.property = property
    }

    static func kindName(_ kind: CollectionKind) -> String {
        switch kind {
        case .list: return "list"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .none: return "collection"
        }
    }

    /// `results()`, made once: tokens on one collection share a notifier.
    func observedResults() throws -> Results {
        if let observed { return observed }
        let results = try self.results()
        observed = results
        return results
    }

    var realm: Realm { object.realm }
    var table: UInt32 { object.classInfo.tableID }
    /// The type of each element (each value, for a dictionary).
    package var elementType: PropertyType { property.type }
    package var isOptional: Bool { property.isOptional }

    /// The stored contents (a dictionary's as key, value, key, value, ...).
    func contents() throws -> [Value] {
        try realm.lock.withLock {
            try object.requireValid().collection(table: table, column: property.column, key: object.key)
        }
    }

    /// Changes the contents inside the realm's write transaction and records the object as modified.
    /// `body` returns its result; the contents are stored only if it does not throw.
    func modify<R>(_ body: (inout [Value]) throws -> R) throws -> R {
        try realm.lock.withLock {
            if object.isReadOnly { throw DBError(.readOnly, "old objects of a migration are read-only; write through the new object") }
            _ = try object.requireValid()  // a deleted object is reported before a missing write
            let write = try realm.writeTransaction()
            var contents = try write.collection(table: table, column: property.column, key: object.key)
            let before = contents
            let result = try body(&contents)
            if !contents.elementsEqual(before, by: { $0.isIdentical(to: $1) }) {
                try write.storeCollection(contents, table: table, column: property.column, key: object.key)
                write.changes.recordModification(table: table, column: property.column.id, key: object.key)
            }
            return result
        }
    }

    /// Checks and coerces an element (a dictionary value) for this collection.
    func validate(_ value: Value) throws -> Value {
        try property.validate(value, in: object.classInfo, realm: realm)
    }

    /// The number of elements (entries, for a dictionary).
    package func count() throws -> Int {
        let contents = try self.contents()
        return property.collection == .dictionary ? contents.count / 2 : contents.count
    }

    /// Whether the owning object still exists and its realm is open.
    package func isValid() throws -> Bool { try object.isValid() }

    /// The class of linked objects, for collections of objects.
    package func targetClass() throws -> ClassInfo? {
        guard property.type == .object, let target = property.linkTarget else { return nil }
        return try realm.classInfo(tableID: target)
    }

    /// Creates an embedded object for this collection (the caller stores the link).
    func createEmbedded(values: [(PropertyInfo, Value)]) throws -> ObjectAccessor {
        guard let target = try targetClass(), target.isEmbedded else {
            throw DBError(.logic, "property '\(object.classInfo.name).\(property.name)' does not hold embedded objects")
        }
        return try realm.createEmbedded(target, values: values)
    }
}

/// Collections as collections: live results over the linked objects, and aggregates, sorting
/// and distinct over scalar elements.
extension CollectionAccessor {
    /// The values the collection holds (a dictionary's values), in its order.
    package func elementValues() throws -> [Value] {
        let contents = try self.contents()
        guard property.collection == .dictionary else { return contents }
        return stride(from: 1, to: contents.count, by: 2).map { contents[$0] }
    }

    /// The stored contents as `transaction` sees them (elements; a dictionary's keys and values
    /// alternating), or nil when the owning object is gone there: what the notifiers of the
    /// collection read at each version.
    func contents(in transaction: StorageTransaction) throws -> [Value]? {
        let owner = object.classInfo.tableID, ownerKey = object.key
        guard try transaction.objectExists(table: owner, key: ownerKey) else { return nil }
        return try transaction.collection(table: owner, column: property.column, key: ownerKey)
    }

    /// The linked objects as live results (filter, sort, distinct, aggregate them like any results):
    /// a list's in order with duplicates, a set's, a dictionary's non-null values.
    /// - Throws: `.wrongType` for a collection of scalars or mixed values.
    package func results() throws -> Results {
        guard let target = try targetClass() else {
            throw DBError(.wrongType, "property '\(object.classInfo.name).\(property.name)' (\(property.property.typeDescription)) does not hold objects; aggregate or sort its values instead")
        }
        let owner = object.classInfo.tableID, ownerKey = object.key, column = property.column
        let isDictionary = property.collection == .dictionary
        return Results(realm: realm, classInfo: target, predicate: .constant(true), operations: [], source: .keys { transaction in
            guard try transaction.objectExists(table: owner, key: ownerKey) else { return [] }
            let contents = try transaction.collection(table: owner, column: column, key: ownerKey)
            return contents.enumerated().compactMap { index, value in
                guard !isDictionary || index % 2 == 1, case let .link(link) = value else { return nil }
                return link.key
            }
        })
    }

    /// The positions of the values a query over values matches (`self > 3`, see `ValueFilter`),
    /// ascending: of a list's elements, a set's in its order, a dictionary's values in its order.
    /// - Throws: `.wrongType` for a collection of objects (filter its `results()` instead),
    ///   `.query` for a query that does not parse or type-check for the element type.
    package func positions(matching query: String, arguments: [QueryArgument]) throws -> [Int] {
        guard try targetClass() == nil else {
            throw DBError(.wrongType, "property '\(object.classInfo.name).\(property.name)' holds objects; filter its objects as results instead")
        }
        let filter = try ValueFilter(query, arguments: arguments, elementType: elementType, isOptional: property.isOptional)
        let values = try elementValues()
        return filter.filtered(Array(values.indices), of: values)
    }

    /// min, max, sum or average of a collection of scalars (nulls skipped; nil for min, max
    /// and average of no values, 0 for a sum). Collections of objects aggregate a property
    /// through `results()`.
    package func aggregate(_ aggregate: Results.Aggregate) throws -> Value? {
        try Self.aggregate(aggregate, of: try elementValues(), elementType: elementType) {
            "'\(object.classInfo.name).\(property.name)' (\(property.property.typeDescription))"
        }
    }

    /// min, max, sum or average of values of one type, as a stored collection of them gives it:
    /// also for the values of a collection not stored in a realm (an unmanaged list's).
    /// - Parameter what: names the values in the error for a type that has no such aggregate.
    /// - Throws: `.wrongType` (no such aggregate of the type), `.notSupported` (a decimal sum or average).
    package static func aggregate(_ aggregate: Results.Aggregate, of values: [Value], elementType: PropertyType,
                                  _ what: () -> String) throws -> Value? {
        let allowed: [PropertyType] = aggregate == .min || aggregate == .max
            ? [.int, .float, .double, .decimal128, .timestamp, .mixed] : [.int, .float, .double, .decimal128, .mixed]
        guard allowed.contains(elementType) else {
            throw DBError(.wrongType, "cannot compute the \(aggregate) of \(what())")
        }
        if elementType == .decimal128 && (aggregate == .sum || aggregate == .average) {
            throw DBError(.notSupported, "the \(aggregate) of decimal128 values is not supported yet")
        }
        var accumulator = Accumulator(aggregate: aggregate, type: elementType == .mixed ? .double : elementType)
        for value in values {
            if elementType == .mixed { accumulator.addMixed(value) } else { accumulator.add(value) }
        }
        return try accumulator.result()
    }
}
