/// The changes of consecutive commits, as if they were one: what notifications compare a new
/// version with, read from the per-commit change records (see `CommitRecord`).
///
/// An object inserted by one commit and deleted by a later one is neither; an object deleted is no
/// longer modified; an object inserted in the range is an insertion, not a modification.
struct CoalescedChanges {
    struct Table {
        var insertions = Set<Int64>()
        var deletions = Set<Int64>()
        var modifications: [UInt32: Set<Int64>] = [:]

        /// Objects modified in any of `columns` (nil: any column).
        func modified(in columns: Set<UInt32>?) -> Set<Int64> {
            var keys = Set<Int64>()
            for (column, modified) in modifications where columns?.contains(column) ?? true { keys.formUnion(modified) }
            return keys
        }
    }

    var tables: [UInt32: Table] = [:]
    /// False when a record in the range is missing (older than the retained records): then
    /// anything may have changed, and callers must compare whole states.
    var isComplete = true
    var schemaChanged = false

    /// The changes of the commits after `from` up to and including `to`.
    init(_ transaction: StorageTransaction, from: UInt64, to: UInt64) throws {
        guard to > from else { return }
        for version in (from + 1)...to {
            guard let record = try transaction.commitRecord(version: version) else {
                isComplete = false
                continue
            }
            add(record)
        }
    }

    init() {}

    mutating func add(_ record: CommitRecord) {
        schemaChanged = schemaChanged || record.schemaChanged
        for (id, changes) in record.tables {
            var table = tables[id] ?? Table()
            for key in changes.insertions { table.insertions.insert(key) }
            for key in changes.deletions {
                if table.insertions.remove(key) == nil { table.deletions.insert(key) }
                for column in table.modifications.keys { table.modifications[column]!.remove(key) }
            }
            for (column, keys) in changes.modifications {
                var set = table.modifications[column] ?? []
                for key in keys where !table.insertions.contains(key) { set.insert(key) }
                if !set.isEmpty { table.modifications[column] = set }
            }
            tables[id] = table
        }
    }

    /// Whether nothing changed in any of `tables`.
    func isUnchanged(_ ids: Set<UInt32>) -> Bool {
        isComplete && !schemaChanged && ids.allSatisfy { id in
            guard let table = tables[id] else { return true }
            return table.insertions.isEmpty && table.deletions.isEmpty && table.modifications.isEmpty
        }
    }
}
