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
    private var lastObjectCreated: [FastID: Int] = [:]
    /// The table of the last object created and when, kept aside as `recentColumn` is.
    private var recentTable: FastID?
    private var recentTableAt = 0
    private var lastColumnWrite: [FastColumnKey: Int] = [:]
    /// The column written last and when, kept out of the dictionary until another is written:
    /// a loop that writes one column of many objects updates no dictionary.
    private var recentColumn: FastColumnKey?
    private var recentColumnAt = 0

    /// A change that may reach any table, made as mutation `count`.
    mutating func changedAnywhere(at count: Int) {
        lastAnywhere = count
    }

    /// An object created in `table` as mutation `count`.
    mutating func createdObject(table: UInt32, at count: Int) {
        let key = FastID(table)
        if let recent = recentTable, recent != key { lastObjectCreated[recent] = recentTableAt }
        recentTable = key
        recentTableAt = count
    }

    /// Values of `column` of `table` written as mutation `count`.
    mutating func wrote(table: UInt32, column: UInt32, at count: Int) {
        let key = FastColumnKey(table: table, column: column)
        if let recent = recentColumn, recent != key { lastColumnWrite[recent] = recentColumnAt }
        recentColumn = key
        recentColumnAt = count
    }

    /// Whether no mutation after mutation `count` can have changed which objects of `table` there
    /// are or the values of `columns` (ids of `table`'s columns).
    func isUnchanged(table: UInt32, columns: [UInt32], since count: Int) -> Bool {
        let tableKey = FastID(table)
        if lastAnywhere > count || (recentTable == tableKey && recentTableAt > count)
            || (lastObjectCreated[tableKey] ?? 0) > count { return false }
        for column in columns {
            let key = FastColumnKey(table: table, column: column)
            if recentColumn == key, recentColumnAt > count { return false }
            if (lastColumnWrite[key] ?? 0) > count { return false }
        }
        return true
    }
}
