/// What a column holds, beyond its stored slot type.
enum ColumnKind: Hashable {
    /// One scalar value per object, stored as it is.
    case scalar
    /// A link to one object of `target`: the slot holds the object key (int), null for no link.
    case link(target: UInt32)
    /// Any value or a link: the slot holds its `PackedValues` encoding (data), null for null.
    case mixed
    /// A list, set or dictionary of `element` values (or links to `target`, for objects): the
    /// slot holds its `PackedValues` encoding (data), null for an empty collection.
    case collection(CollectionKind, element: PropertyType, target: UInt32)
    /// Backlinks (linkingObjects): computed from the links, nothing stored.
    case backlinks(origin: UInt32, column: UInt32)
}

/// A column as the storage layer needs it: id, stored slot type, nullability, whether it is
/// indexed, and what the slots mean (`kind`).
struct ColumnSpec: Hashable {
    var id: UInt32
    /// The type of the stored slots: the declared type for scalars, int for links (object keys),
    /// data for mixed values and collections (encoded).
    var type: PropertyType
    /// Whether a slot may be null (for collections: whether an element may be).
    var isOptional: Bool
    var isIndexed: Bool
    var kind: ColumnKind

    init(_ column: StoredColumn) {
        id = column.id
        isOptional = column.isOptional
        isIndexed = column.isIndexed
        switch (column.type, column.collection) {
        case (.linkingObjects, _):
            type = .int
            kind = .backlinks(origin: column.targetTable, column: column.originColumn)
        case (_, .list), (_, .set), (_, .dictionary):
            type = .data
            kind = .collection(column.collection, element: column.type, target: column.targetTable)
        case (.object, .none):
            type = .int
            isOptional = true
            kind = .link(target: column.targetTable)
        case (.mixed, .none):
            type = .data
            isOptional = true
            kind = .mixed
        default:
            type = column.type
            kind = .scalar
        }
    }

    var isScalar: Bool {
        // A pattern, not `kind == .scalar`: the synthesized == was a call on every value read.
        if case .scalar = kind { return true }
        return false
    }

    /// Whether an object holds one value here (a scalar, a link or a mixed value), read and
    /// written as a property; collections and backlinks have accessors of their own.
    var isSingleValued: Bool {
        switch kind {
        case .scalar, .link, .mixed: return true
        case .collection, .backlinks: return false
        }
    }

    var isDictionary: Bool {
        if case .collection(.dictionary, _, _) = kind { return true }
        return false
    }

    /// Whether the column holds one value per object (a scalar, a link or a mixed), as opposed to
    /// a collection or computed backlinks.
    var holdsSingleValue: Bool {
        switch kind {
        case .scalar, .link, .mixed: return true
        case .collection, .backlinks: return false
        }
    }

    /// The table a link, a collection of links or backlinks point to (nil for other columns).
    var linkTarget: UInt32? {
        switch kind {
        case let .link(target): return target
        case let .collection(_, element, target) where element == .object: return target
        case let .backlinks(origin, _): return origin
        default: return nil
        }
    }

    /// Whether values of this column can hold links to objects of `table` (and need backlinks).
    func canLink(to table: UInt32) -> Bool {
        switch kind {
        case .mixed: return true
        case let .collection(_, element, _) where element == .mixed: return true
        case .backlinks: return false
        default: return linkTarget == table
        }
    }

    /// Whether the column may hold links at all.
    var holdsLinks: Bool {
        switch kind {
        case .link, .mixed: return true
        case let .collection(_, element, _): return element == .object || element == .mixed
        case .scalar, .backlinks: return false
        }
    }

    /// The value a reader sees for a stored slot value: links become `.link`, mixed values are decoded.
    func userValue(_ stored: Value) -> Value {
        switch (kind, stored) {
        case let (.link(target), .int(key)): return .link(ObjectLink(table: target, key: key))
        case let (.mixed, .data(bytes)): return (try? PackedValues.decodeValue(bytes)) ?? .null
        default: return stored
        }
    }

    /// The slot value that stores a (validated) value: the inverse of `userValue`.
    func storedValue(_ value: Value) -> Value {
        switch (kind, value) {
        case let (.link, .link(link)): return .int(link.key)
        case (.mixed, .null): return .null
        case (.mixed, _): return .data(PackedValues.encodeValue(value))
        default: return value
        }
    }
}
