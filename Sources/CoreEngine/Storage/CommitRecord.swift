/// What one commit changed, per table: objects inserted, objects deleted, and for each column
/// the objects whose value in it was written. Stored under the commit's version in the
/// "changes" database, in the same LMDB transaction as the data, so the record exists exactly
/// when the commit does. Live notifications and other processes read these records.
package struct CommitRecord: Equatable, Sendable {
    package struct TableChanges: Equatable, Sendable {
        /// Keys of objects created by the commit (and still alive at its end), ascending.
        package var insertions: [Int64] = []
        /// Keys of objects that existed before the commit and were deleted, ascending.
        package var deletions: [Int64] = []
        /// For each column id: keys of pre-existing, surviving objects whose value was written, ascending.
        package var modifications: [UInt32: [Int64]] = [:]

        package var isEmpty: Bool { insertions.isEmpty && deletions.isEmpty && modifications.isEmpty }
    }

    /// The version the commit produced.
    package var version: UInt64
    /// Keyed by table id.
    package var tables: [UInt32: TableChanges]
    /// True when the commit changed the schema (a migration or an additive schema change).
    package var schemaChanged: Bool

    package init(version: UInt64, tables: [UInt32: TableChanges] = [:], schemaChanged: Bool = false) {
        self.version = version
        self.tables = tables
        self.schemaChanged = schemaChanged
    }

    // MARK: Encoding: sorted key lists are written as varint (gap, run length) pairs.

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u8(1)  // record format
        w.u64(version)
        w.u8(schemaChanged ? 1 : 0)
        w.varint(UInt64(tables.count))
        for (table, changes) in tables.sorted(by: { $0.key < $1.key }) {
            w.u32(table)
            Self.writeKeys(changes.insertions, &w)
            Self.writeKeys(changes.deletions, &w)
            w.varint(UInt64(changes.modifications.count))
            for (column, keys) in changes.modifications.sorted(by: { $0.key < $1.key }) {
                w.u32(column)
                Self.writeKeys(keys, &w)
            }
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> CommitRecord {
        var r = ByteReader(bytes)
        guard try r.u8() == 1 else { throw DBError(.fileFormat, "unknown change record format") }
        var set = CommitRecord(version: try r.u64())
        set.schemaChanged = try r.u8() != 0
        for _ in 0..<(try r.varint()) {
            let table = try r.u32()
            var changes = TableChanges()
            changes.insertions = try readKeys(&r)
            changes.deletions = try readKeys(&r)
            for _ in 0..<(try r.varint()) {
                let column = try r.u32()
                changes.modifications[column] = try readKeys(&r)
            }
            set.tables[table] = changes
        }
        return set
    }

    private static func writeKeys(_ keys: [Int64], _ w: inout ByteWriter) {
        var runs: [(start: Int64, length: Int64)] = []
        for key in keys {
            if let last = runs.last, last.start + last.length == key {
                runs[runs.count - 1].length += 1
            } else {
                runs.append((key, 1))
            }
        }
        w.varint(UInt64(runs.count))
        var previousEnd: Int64 = 0
        for run in runs {
            w.varint(UInt64(run.start - previousEnd))
            w.varint(UInt64(run.length))
            previousEnd = run.start + run.length
        }
    }

    private static func readKeys(_ r: inout ByteReader) throws -> [Int64] {
        var keys: [Int64] = []
        var previousEnd: Int64 = 0
        for _ in 0..<(try r.varint()) {
            let gap = try r.varint(), runLength = try r.varint()
            guard gap < 1 << 62, runLength <= 1 << 32, previousEnd < 1 << 62 else {
                throw DBError(.fileFormat, "corrupt change record")
            }
            let start = previousEnd + Int64(gap)
            let length = Int64(runLength)
            keys.append(contentsOf: start..<(start + length))
            previousEnd = start + length
        }
        return keys
    }
}

/// Collects a write transaction's changes as they happen, then produces its `CommitRecord`.
///
/// Inside a savepoint it also keeps what undoes each change, so that rolling the savepoint back
/// forgets exactly the changes made since (in time proportional to them, not to the transaction).
struct CommitRecorder {
    /// Per table: the first object key allocated by this transaction. Keys at or above it are insertions.
    private var firstNewKey: [FastID: Int64] = [:]
    private var inserted: [FastID: [Int64]] = [:]
    private var insertedThenDeleted: [FastID: Set<FastObjectKey>] = [:]
    /// Keys of pre-existing objects deleted, in the order they were (each at most once: an object
    /// is deleted once, and keys are never reused); an array, not a set, for writes that delete
    /// millions of objects.
    private var deleted: [FastID: [Int64]] = [:]
    private var modified: [FastID: [FastID: ModifiedKeys]] = [:]
    private(set) var schemaChanged = false

    /// How to take back one recorded change.
    private enum Undo {
        case inserted(FastID)                               // drop the last key of inserted[table]
        case insertedThenDeleted(FastID, FastObjectKey)     // remove the key
        case deleted(FastID)                                // drop the last key of deleted[table]
        case modified(FastID, FastID, Int64)                // take the key back from the column's keys
        case unmodified(FastID, FastID, Int64)              // put back a key a deletion removed
        case tableCleared(FastID, [Int64]?, Set<FastObjectKey>?, [FastID: ModifiedKeys]?)
        case schemaChanged                                  // back to false
    }
    private var undo: [Undo] = []
    /// `undo.count` when each open savepoint was taken, outermost first.
    private var savepointMarks: [Int] = []
    private var journaling: Bool { !savepointMarks.isEmpty }

    mutating func noteTableLoaded(_ table: UInt32, nextKey: Int64) {
        let table = FastID(table)
        if firstNewKey[table] == nil { firstNewKey[table] = nextKey }
    }

    private func isNew(_ table: FastID, _ key: Int64) -> Bool { key >= (firstNewKey[table] ?? .max) }

    mutating func recordInsertion(table: UInt32, key: Int64) {
        let table = FastID(table)
        inserted[table, default: []].append(key)
        if journaling { undo.append(.inserted(table)) }
    }

    mutating func recordDeletion(table: UInt32, key: Int64) {
        let table = FastID(table), recorded = FastObjectKey(key)
        if isNew(table, key) {
            if insertedThenDeleted[table, default: []].insert(recorded).inserted, journaling {
                undo.append(.insertedThenDeleted(table, recorded))
            }
        } else {
            deleted[table, default: []].append(key)
            if journaling { undo.append(.deleted(table)) }
            if var columns = modified[table] {
                for column in columns.keys where columns[column]!.remove(key) {
                    if journaling { undo.append(.unmodified(table, column, key)) }
                }
                modified[table] = columns
            }
        }
    }

    mutating func recordModification(table: UInt32, column: UInt32, key: Int64) {
        let table = FastID(table), column = FastID(column)
        guard !isNew(table, key) else { return }
        if modified[table, default: [:]][column, default: ModifiedKeys()].insert(key), journaling {
            undo.append(.modified(table, column, key))
        }
    }

    /// `recordModification` for many objects of one column (one dictionary access).
    mutating func recordModifications<Keys: Sequence>(table: UInt32, column: UInt32, keys: Keys) where Keys.Element == Int64 {
        let table = FastID(table), column = FastID(column)
        var columns = modified.removeValue(forKey: table) ?? [:]
        var recorded = columns.removeValue(forKey: column) ?? ModifiedKeys()
        for key in keys where !isNew(table, key) {
            if recorded.insert(key) && journaling { undo.append(.modified(table, column, key)) }
        }
        columns[column] = recorded
        modified[table] = columns
    }

    mutating func recordSchemaChange() {
        guard !schemaChanged else { return }
        schemaChanged = true
        if journaling { undo.append(.schemaChanged) }
    }

    /// Forgets everything recorded for a table (it was dropped or emptied by a migration).
    mutating func recordTableCleared(_ table: UInt32) {
        let table = FastID(table)
        if journaling { undo.append(.tableCleared(table, inserted[table], insertedThenDeleted[table], modified[table])) }
        inserted[table] = nil
        insertedThenDeleted[table] = nil
        modified[table] = nil
    }

    // MARK: Savepoints

    mutating func beginSavepoint() { savepointMarks.append(undo.count) }

    /// Keeps the changes recorded since the innermost savepoint (they now belong to the enclosing one).
    mutating func releaseSavepoint() {
        guard savepointMarks.popLast() != nil else { return }
        if savepointMarks.isEmpty { undo.removeAll(keepingCapacity: true) }
    }

    /// Forgets the changes recorded since the innermost savepoint.
    mutating func rollbackSavepoint() {
        guard let mark = savepointMarks.last else { return }
        while undo.count > mark {
            switch undo.removeLast() {
            case let .inserted(table):
                inserted[table]?.removeLast()
                if inserted[table]?.isEmpty == true { inserted[table] = nil }
            case let .insertedThenDeleted(table, key):
                insertedThenDeleted[table]?.remove(key)
            case let .deleted(table):
                deleted[table]?.removeLast()
                if deleted[table]?.isEmpty == true { deleted[table] = nil }
            case let .modified(table, column, key):
                modified[table]?[column]?.remove(key)
                if modified[table]?[column]?.isEmpty == true { modified[table]![column] = nil }
                if modified[table]?.isEmpty == true { modified[table] = nil }
            case let .unmodified(table, column, key):
                _ = modified[table, default: [:]][column, default: ModifiedKeys()].insert(key)
            case let .tableCleared(table, insertions, insertedDeleted, modifications):
                inserted[table] = insertions
                insertedThenDeleted[table] = insertedDeleted
                modified[table] = modifications
            case .schemaChanged:
                schemaChanged = false
            }
        }
        savepointMarks.removeLast()
        if savepointMarks.isEmpty { undo.removeAll(keepingCapacity: true) }
    }

    /// Keeps every change (the transaction commits with savepoints still open).
    mutating func releaseAllSavepoints() {
        savepointMarks.removeAll()
        undo.removeAll()
    }

    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty && !schemaChanged }

    func commitRecord(version: UInt64) -> CommitRecord {
        var set = CommitRecord(version: version, schemaChanged: schemaChanged)
        let tables = Set(inserted.keys).union(deleted.keys).union(modified.keys)
        for table in tables {
            var changes = CommitRecord.TableChanges()
            let gone = insertedThenDeleted[table] ?? []
            changes.insertions = (inserted[table] ?? []).filter { !gone.contains(FastObjectKey($0)) }
            changes.deletions = (deleted[table] ?? []).sorted()
            for (column, keys) in modified[table] ?? [:] where !keys.isEmpty {
                changes.modifications[column.id] = keys.sorted()
            }
            if !changes.isEmpty { set.tables[table.id] = changes }
        }
        return set
    }
}
