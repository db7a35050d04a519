/// A live list, set or dictionary property of one object: every read shows the realm's current
/// state (inside a write, the write's changes), every change is validated before it is made and
/// needs a write transaction. Subclasses add the operations of their kind.
public class CollectionAccessor {
    /// The object that owns the collection.
    public let object: ObjectAccessor
    public let property: PropertyInfo

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

    var realm: Realm { object.realm }
    var table: UInt32 { object.classInfo.tableID }
    /// The type of each element (each value, for a dictionary).
    public var elementType: PropertyType { property.type }
    public var isOptional: Bool { property.isOptional }

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
            let transaction = try object.requireValid()
            let write = try realm.writeTransaction()
            var contents = try transaction.collection(table: table, column: property.column, key: object.key)
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
    public func count() throws -> Int {
        let contents = try self.contents()
        return property.collection == .dictionary ? contents.count / 2 : contents.count
    }

    /// Whether the owning object still exists and its realm is open.
    public func isValid() throws -> Bool { try object.isValid() }

    /// The class of linked objects, for collections of objects.
    public func targetClass() throws -> ClassInfo? {
        guard property.type == .object, let target = property.linkTarget else { return nil }
        return try realm.classInfo(tableID: target)
    }

    /// Creates an embedded object for this collection (the caller stores the link).
    func createEmbedded(values: [(PropertyInfo, Value)]) throws -> ObjectAccessor {
        guard let target = try targetClass(), target.isEmbedded else {
            throw DBError(.logic, "property '\(object.classInfo.name).\(property.name)' does not hold embedded objects")
        }
        return try realm.createObject(target, values: values)
    }
}
