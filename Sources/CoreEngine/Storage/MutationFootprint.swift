/// Where a write transaction's mutations landed, by `mutationCount`: when each column's values
/// last changed, when each table last got an object, and when the last change that may reach
/// anywhere happened (a delete, which also clears links in other tables and deletes the
/// embedded objects it owned; a table's data dropped; a savepoint rolled back).
///
/// What live results ask to keep their keys across writes that cannot change them (see
/// `Results.isCacheCurrent`): a loop that writes one property of each object of a query that does
/// not read it no longer evaluates the query again at each step.
struct MutationFootprint {
    private var lastAnywhere = 0
    private var objectCreated = LastMarks<FastID>()
    private var columnWritten = LastMarks<FastColumnKey>()

    /// A change that may reach any table, made as mutation `count`.
    mutating func changedAnywhere(at count: Int) {
        lastAnywhere = count
    }

    /// An object created in `table` as mutation `count`.
    mutating func createdObject(table: UInt32, at count: Int) {
        objectCreated.mark(FastID(table), at: count)
    }

    /// Values of `column` of `table` written as mutation `count`.
    mutating func wrote(table: UInt32, column: UInt32, at count: Int) {
        columnWritten.mark(FastColumnKey(table: table, column: column), at: count)
    }

    /// Whether no mutation after mutation `count` can have changed which objects of `table` there
    /// are or the values of `columns` (ids of `table`'s columns).
    func isUnchanged(table: UInt32, columns: [UInt32], since count: Int) -> Bool {
        if lastAnywhere > count || objectCreated.last(FastID(table)) > count { return false }
        return columns.allSatisfy { columnWritten.last(FastColumnKey(table: table, column: $0)) <= count }
    }
}

/// The last mutation count marked for each key. The key marked last and its count are kept out
/// of the dictionary until another key is marked: a loop that writes one column of many objects
/// (or creates many objects of one class) updates no dictionary.
private struct LastMarks<Key: Hashable> {
    private var earlier: [Key: Int] = [:]
    private var recent: Key?
    private var recentAt = 0

    mutating func mark(_ key: Key, at count: Int) {
        if let recent, recent != key { earlier[recent] = recentAt }
        recent = key
        recentAt = count
    }

    /// The last count marked for `key`, 0 when none.
    func last(_ key: Key) -> Int {
        recent == key ? recentAt : earlier[key] ?? 0
    }
}
