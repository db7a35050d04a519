/// A property of the objects of a Results, possibly reached through to-one links
/// (`owner.name`): what sorts and DISTINCT read.
public struct PropertyPath: Sendable {
    /// The to-one link properties followed, in order (empty for the object's own property).
    public let links: [PropertyInfo]
    /// The property read on the object the links lead to: one scalar value.
    public let property: PropertyInfo

    public init(links: [PropertyInfo] = [], property: PropertyInfo) {
        self.links = links
        self.property = property
    }

    /// `owner.name`, for messages.
    public var name: String { (links.map(\.name) + [property.name]).joined(separator: ".") }

    /// The value for the object `key` of `table`: null when a link on the way is null.
    func value(table: UInt32, key: Int64, _ transaction: StorageTransaction) throws -> Value {
        var table = table, key = key
        for link in links {
            guard case let .link(target) = try transaction.value(table: table, column: link.column, key: key) else { return .null }
            table = target.table
            key = target.key
        }
        return try transaction.value(table: table, column: property.column, key: key)
    }
}

/// Sorting by a property (or a property through to-one links), ascending or descending.
public struct SortDescriptor: Sendable {
    public let path: PropertyPath
    public let ascending: Bool

    /// The property read (through `path.links`).
    public var property: PropertyInfo { path.property }

    public init(_ property: PropertyInfo, ascending: Bool = true) {
        self.init(path: PropertyPath(property: property), ascending: ascending)
    }

    public init(path: PropertyPath, ascending: Bool = true) {
        self.path = path
        self.ascending = ascending
    }
}

/// What a Results does to its matching objects, in the order given (as in Realm, where
/// `sorted`, `distinct` and `LIMIT` apply in the order they were written).
public enum ResultsOperation: Sendable {
    case sort([SortDescriptor])
    case distinct([PropertyPath])
    case limit(Int)
}
