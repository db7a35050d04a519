import CLMDB
import CLMDBGuard
import Glibc

/// Reads the entries of the index database under one key prefix, in key order or backwards,
/// one `next()` at a time: each entry's key and the object key it holds, checked against its seal.
///
/// Ordered reads (`IndexedSort`) take a few entries per query and stop; handing each entry to a
/// closure through `LMDBTransaction.scan` cost several times the cursor step itself.
/// A key returned points into the memory map: it is valid until the next call, and only while
/// the transaction neither writes nor ends.
struct IndexEntryCursor: ~Copyable {
    private let transaction: LMDBTransaction
    private let cursor: OpaquePointer?
    private let prefix: [UInt8]
    private let step: MDB_cursor_op
    private var key = MDB_val(), value = MDB_val()
    /// LMDB's code for the entry the cursor is on, not yet returned (MDB_SUCCESS), or why none is.
    private var pending: Int32
    private var positioned = false

    /// Opens a cursor on the first entry under `prefix` (the last, with `reverse`).
    init(_ transaction: LMDBTransaction, prefix: [UInt8], reverse: Bool) throws {
        precondition(!prefix.isEmpty, "an index read names its table and column")
        var cursor: OpaquePointer?
        try transaction.check(mdb_cursor_open(transaction.txn, transaction.environment.indexDB, &cursor), "open cursor")
        self.transaction = transaction
        self.cursor = cursor
        self.prefix = prefix
        step = reverse ? MDB_PREV : MDB_NEXT
        var key = MDB_val(), value = MDB_val()
        if reverse {
            // The first key after the prefix (its last non-FF byte incremented), then one back;
            // with no such key, the last key of the database.
            var successor = prefix
            while let last = successor.last, last == 0xFF { successor.removeLast() }
            if successor.isEmpty {
                pending = realmdb_guarded_cursor_get(cursor, &key, &value, MDB_LAST)
            } else {
                successor[successor.count - 1] += 1
                let rc = cursorSeek(cursor, atLeast: successor, &key, &value)
                pending = rc == MDB_NOTFOUND ? realmdb_guarded_cursor_get(cursor, &key, &value, MDB_LAST)
                    : rc == MDB_SUCCESS ? realmdb_guarded_cursor_get(cursor, &key, &value, MDB_PREV) : rc
            }
        } else {
            pending = cursorSeek(cursor, atLeast: prefix, &key, &value)
        }
        self.key = key
        self.value = value
        positioned = true
    }

    deinit { realmdb_guarded_cursor_close(cursor) }

    /// The next entry under the prefix, or nil past its last one. Entries that hold no object
    /// key are skipped.
    /// - Throws: `.fileFormat` for an entry that does not match its seal, or a damaged page.
    mutating func next() throws -> (key: UnsafeRawBufferPointer, objectKey: Int64)? {
        while true {
            if positioned {
                positioned = false
            } else if pending == MDB_SUCCESS {
                pending = realmdb_guarded_cursor_get(cursor, &key, &value, step)
            }
            guard pending == MDB_SUCCESS else {
                if pending != MDB_NOTFOUND { try transaction.check(pending, "cursor") }
                return nil
            }
            let bytes = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
            guard bytes.count >= prefix.count, memcmp(bytes.baseAddress!, prefix, prefix.count) == 0 else {
                pending = MDB_NOTFOUND
                return nil
            }
            guard value.mv_size == 8 else { continue }
            let record = UnsafeRawBufferPointer(start: value.mv_data, count: 8)
            let objectKey = try transaction.unsealObjectKey(transaction.environment.indexDB, key: bytes, value: record)
            return (bytes, Int64(bitPattern: objectKey))
        }
    }
}
