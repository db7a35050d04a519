import CLMDB
import CLMDBGuard

/// A thin wrapper over one LMDB transaction: byte-level get, put, delete and cursors.
///
/// Every LMDB call that reads pages runs under CLMDBGuard: a damaged page that would make LMDB
/// assert, or fault reading past the map or the file, is a `.fileFormat` error instead, and the
/// values returned have been probed, so reading them cannot fault either.
///
/// Buffers returned by `get` and cursors point into LMDB's memory map and are valid only
/// until the transaction ends or (in a write transaction) the next write to the same database.
final class LMDBTransaction {
    let environment: LMDBEnvironment
    private(set) var txn: OpaquePointer?
    let isWrite: Bool

    init(environment: LMDBEnvironment, write: Bool) throws {
        self.environment = environment
        isWrite = write
        var handle: OpaquePointer?
        try check(realmdb_guarded_txn_begin(environment.env, nil, write ? 0 : UInt32(MDB_RDONLY), &handle),
                  write ? "begin write transaction" : "begin read transaction")
        txn = handle
    }

    /// A transaction inherited across fork() is left as it is (see `ProcessFork`): aborting it
    /// would release the parent's snapshot or write lock.
    deinit {
        guard let txn else { return }
        if environment.isInherited { ProcessFork.abandon(txn) } else { realmdb_guarded_txn_abort(txn) }
    }

    var isOpen: Bool { txn != nil }

    func commit() throws {
        guard let handle = txn else { return }
        if environment.isInherited { throw DBError(.wrongThread, "cannot commit a transaction of another process (inherited across fork)") }
        txn = nil
        let rc = realmdb_guarded_txn_commit(handle)
        // A damaged page stopped the commit midway: roll back (releasing the write lock).
        if rc == REALMDB_GUARD_FAULT { realmdb_guarded_txn_abort(handle) }
        try check(rc, "commit")
    }

    func abort() {
        guard let handle = txn else { return }
        txn = nil
        if environment.isInherited { return ProcessFork.abandon(handle) }  // the parent's: see `ProcessFork`
        realmdb_guarded_txn_abort(handle)
    }

    /// For read transactions: releases the snapshot but keeps the reader slot for `renew()`.
    func reset() { if let txn { mdb_txn_reset(txn) } }

    /// For read transactions after `reset()`: pins the latest snapshot.
    func renew() throws { try check(realmdb_guarded_txn_renew(txn), "renew read transaction") }

    /// Throws unless `rc` is MDB_SUCCESS; a guarded call's fault on a truncated file says so.
    func check(_ rc: Int32, _ context: @autoclosure () -> String) throws {
        try environment.checkRead(rc, context())
    }

    /// LMDB's transaction id: increases with every commit to the file.
    var snapshotID: Int { txn.map { Int(mdb_txn_id($0)) } ?? 0 }

    // MARK: Access

    func get(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = realmdb_guarded_get(txn, dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "read")
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { try get(dbi, $0) }
    }

    func put(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: Int32 = 0) throws {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
        try check(realmdb_guarded_put(txn, dbi, &k, &v, UInt32(flags)), "write")
    }

    func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], flags: Int32 = 0) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(dbi, k, v, flags: flags) } }
    }

    /// Deletes a key (all its duplicates), or one key/value pair of a DUPSORT database.
    /// - Returns: whether anything was deleted.
    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer? = nil) throws -> Bool {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var rc: Int32
        if let value {
            var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            rc = realmdb_guarded_del(txn, dbi, &k, &v)
        } else {
            rc = realmdb_guarded_del(txn, dbi, &k, nil)
        }
        if rc == MDB_NOTFOUND { return false }
        try check(rc, "delete")
        return true
    }

    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: [UInt8], value: [UInt8]? = nil) throws -> Bool {
        try key.withUnsafeBytes { k in
            if let value { return try value.withUnsafeBytes { try delete(dbi, k, value: $0) } }
            return try delete(dbi, k)
        }
    }

    /// Opens a cursor for the duration of `body`.
    func withCursor<R>(_ dbi: MDB_dbi, _ body: (OpaquePointer?) throws -> R) throws -> R {
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, dbi, &cursor), "open cursor")
        defer { realmdb_guarded_cursor_close(cursor) }
        return try body(cursor)
    }

    /// From the entry the cursor is on (`rc` of the positioning call), hands each entry whose key
    /// starts with `prefix` to `body`, moving with `step` (MDB_NEXT or MDB_PREV), until a key
    /// leaves the prefix, the database ends or `body` returns false.
    private func walk(_ cursor: OpaquePointer?, from rc: Int32, _ k: inout MDB_val, _ v: inout MDB_val, prefix: [UInt8],
                      step: MDB_cursor_op, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        var rc = rc
        while rc == MDB_SUCCESS {
            let key = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
            guard key.count >= prefix.count, zip(key, prefix).allSatisfy({ $0 == $1 }) else { return }
            guard try body(key, UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)) else { return }
            rc = realmdb_guarded_cursor_get(cursor, &k, &v, step)
        }
        if rc != MDB_NOTFOUND { try check(rc, "cursor") }
    }

    /// Calls `body` with every key/value pair whose key starts with `prefix`, in key order
    /// (each duplicate of a DUPSORT database separately); an empty prefix walks the whole
    /// database. `body` returns false to stop.
    func scan(_ dbi: MDB_dbi, prefix: [UInt8], from start: [UInt8]? = nil,
              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try withCursor(dbi) { cursor in
            var k = MDB_val(), v = MDB_val()
            let seek = start ?? prefix
            // LMDB refuses an empty key to seek to: start from the first entry instead.
            let rc = seek.isEmpty ? realmdb_guarded_cursor_get(cursor, &k, &v, MDB_FIRST) : cursorSeek(cursor, atLeast: seek, &k, &v)
            try walk(cursor, from: rc, &k, &v, prefix: prefix, step: MDB_NEXT, body)
        }
    }

    /// Walks the entries whose key starts with `prefix` backwards (last key first; a DUPSORT key's
    /// values last to first) while `body` returns true.
    func scanReverse(_ dbi: MDB_dbi, prefix: [UInt8], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try withCursor(dbi) { cursor in
            // Seek to the first key after the prefix (the prefix with its last non-FF byte
            // incremented), then step back; with no such key, start from the last key of the database.
            var successor = prefix
            while let last = successor.last, last == 0xFF { successor.removeLast() }
            var k = MDB_val(), v = MDB_val()
            var rc: Int32
            if successor.isEmpty {
                rc = realmdb_guarded_cursor_get(cursor, &k, &v, MDB_LAST)
            } else {
                successor[successor.count - 1] += 1
                rc = cursorSeek(cursor, atLeast: successor, &k, &v)
                rc = rc == MDB_NOTFOUND ? realmdb_guarded_cursor_get(cursor, &k, &v, MDB_LAST) : (rc == MDB_SUCCESS ? realmdb_guarded_cursor_get(cursor, &k, &v, MDB_PREV) : rc)
            }
            try walk(cursor, from: rc, &k, &v, prefix: prefix, step: MDB_PREV, body)
        }
    }

    /// Walks the distinct keys of a DUPSORT database from `start` while `body` returns true, giving
    /// each key and its number of duplicates (O(distinct keys), not O(entries)).
    func scanDistinct(_ dbi: MDB_dbi, from start: [UInt8], _ body: (UnsafeRawBufferPointer, Int) throws -> Bool) throws {
        try withCursor(dbi) { cursor in
            var k = MDB_val(), v = MDB_val()
            var rc = cursorSeek(cursor, atLeast: start, &k, &v)
            while rc == MDB_SUCCESS {
                var count = 0
                try check(realmdb_guarded_cursor_count(cursor, &count), "count duplicates")
                guard try body(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size), count) else { return }
                rc = realmdb_guarded_cursor_get(cursor, &k, &v, MDB_NEXT_NODUP)
            }
            if rc != MDB_NOTFOUND { try check(rc, "cursor") }
        }
    }

    /// The number of values stored under a key of a DUPSORT database (0 when absent).
    func duplicateCount(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> Int {
        try withCursor(dbi) { cursor in
            try key.withUnsafeBytes { bytes in
                var k = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                var v = MDB_val()
                let rc = realmdb_guarded_cursor_get(cursor, &k, &v, MDB_SET)
                if rc == MDB_NOTFOUND { return 0 }
                try check(rc, "seek")
                var count = 0
                try check(realmdb_guarded_cursor_count(cursor, &count), "count duplicates")
                return count
            }
        }
    }

    /// Deletes every key that starts with `prefix`.
    func deletePrefix(_ dbi: MDB_dbi, prefix: [UInt8]) throws {
        var keys: [[UInt8]] = []
        try scan(dbi, prefix: prefix) { key, _ in
            if keys.last.map({ !$0.elementsEqual(key) }) ?? true { keys.append(Array(key)) }
            return true
        }
        for key in keys { try delete(dbi, key) }
    }
}

/// Positions a cursor on the first key at or after `bytes` (MDB_SET_RANGE); returns LMDB's code.
func cursorSeek(_ cursor: OpaquePointer?, atLeast bytes: [UInt8], _ key: inout MDB_val, _ value: inout MDB_val) -> Int32 {
    bytes.withUnsafeBytes { buffer in
        key = MDB_val(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        return realmdb_guarded_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
    }
}
