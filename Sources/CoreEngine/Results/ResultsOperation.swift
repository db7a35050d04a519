/// What a Results does to its matching objects, in the order given (as in Realm, where
/// `sorted`, `distinct` and `LIMIT` apply in the order they were written).
package enum ResultsOperation: Sendable {
    case sort([SortDescriptor])
    case distinct([PropertyPath])
    case limit(Int)
}
