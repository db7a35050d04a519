/// Sorting by a property, ascending or descending.
public struct SortDescriptor: Sendable {
    public let property: PropertyInfo
    public let ascending: Bool

    public init(_ property: PropertyInfo, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }
}

/// What a Results does to its matching objects, in the order given (as in Realm, where
/// `sorted`, `distinct` and `LIMIT` apply in the order they were written).
public enum ResultsOperation: Sendable {
    case sort([SortDescriptor])
    case distinct([PropertyInfo])
    case limit(Int)
}
