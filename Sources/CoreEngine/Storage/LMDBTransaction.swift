import CChecksum
import CLMDB
import CLMDBGuard
import Glibc

/// A thin wrapper over one LMDB transaction: byte-level get, put, delete and cursors.
///
/// Every LMDB call that reads pages runs under CLMDBGuard: a damaged page that would make LMDB
/// assert, or fault reading past the map or the file, is a `.fileFormat` error instead, and the
/// values returned have been probed, so reading them cannot fault either.
///
/// Every record is sealed as it is written and checked as it is read (`RecordSealing`): a record
/// whose checksum does not match is a `.fileFormat` error naming it, never a wrong value.
///
/// Buffers returned by `get` and cursors point into LMDB's memory map and are valid only
/// until the transaction ends or (in a write transaction) the next write to the same database.
final class LMDBTransaction {
    let environment: LMDBEnvironment
    /// The transaction every call goes through: the innermost nested transaction begun for a
    /// savepoint, else `root`.
    private(set) var txn: OpaquePointer?
    /// The transaction begun by `init`.
    private var root: OpaquePointer?
    /// The nested LMDB transactions of the open savepoints, outermost first (`txn` is the last).
    private var levels: [OpaquePointer] = []
    let isWrite: Bool
    /// Whether this write changed the blocks database or began a savepoint. Until it does, every
    /// block it reads is on a committed page, which stays where it is for the whole transaction
    /// (a write never changes a committed page in place, nor reuses it); after, a block may be
    /// on a page dirty in this transaction, which LMDB may move (spill) on any later write. See
    /// `StorageTransaction.storedBytes`.
    private(set) var blocksTouched = false
    /// False only while a file of format 1, which had no seals, is read to be upgraded.
    var sealsRecords = true
    /// Whether a large record this process verified before may go unsummed (false: a whole-file check).
    var remembersVerifiedRecords = true
    /// Names classes and properties in messages about damaged records: the schema of the
    /// transaction that reads through this one. A copy, not a weak reference to that transaction:
    /// a weakly referenced object pays for every retain and release through a side table, and
    /// the engine retains its transaction at nearly every call.
    var names: StoredSchema?
    /// Where `get` on the index database puts the object key it unsealed.
    private let unsealedObjectKey = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 8)

    init(environment: LMDBEnvironment, write: Bool) throws {
        self.environment = environment
        isWrite = write
        var handle: OpaquePointer?
        try check(realmdb_guarded_txn_begin(environment.env, nil, write ? 0 : UInt32(MDB_RDONLY), &handle),
                  write ? "begin write transaction" : "begin read transaction")
        root = handle
        txn = handle
    }

    /// A transaction inherited across fork() is left as it is (see `ProcessFork`): aborting it
    /// would release the parent's snapshot or write lock.
    deinit {
        abort()
        unsealedObjectKey.deallocate()
    }

    var isOpen: Bool { root != nil }

    /// Commits the transaction, with the nested transactions of open savepoints folded in.
    func commit() throws {
        guard root != nil else { return }
        if environment.isInherited { throw DBError(.wrongThread, "cannot commit a transaction of another process (inherited across fork)") }
        while !levels.isEmpty { try endLevel(commit: true) }
        guard let handle = root else { return }
        root = nil
        txn = nil
        let rc = realmdb_guarded_txn_commit(handle)
        // A damaged page stopped the commit midway: roll back (releasing the write lock).
        if rc == REALMDB_GUARD_FAULT { realmdb_guarded_txn_abort(handle) }
        try check(rc, "commit")
    }

    /// Aborts the transaction and the nested transactions of open savepoints.
    func abort() {
        if environment.isInherited {
            // The parent's, nested ones included: see `ProcessFork`.
            for handle in levels.reversed() + (root.map { [$0] } ?? []) { ProcessFork.abandon(handle) }
            levels = []
            root = nil
            txn = nil
            return
        }
        while !levels.isEmpty { try? endLevel(commit: false) }
        guard let handle = root else { return }
        root = nil
        txn = nil
        realmdb_guarded_txn_abort(handle)
    }

    // MARK: Savepoints (nested write transactions)

    /// Opens a savepoint level: a nested transaction, whose writes `endLevel(commit: false)` undoes.
    /// Savepoint boundaries are API call boundaries, so no cursor or borrowed buffer of the
    /// enclosing transaction is in use when a level begins or ends.
    func beginLevel() throws {
        blocksTouched = true
        guard isWrite, let parent = txn else { throw DBError(.wrongTransactionState, "savepoints need a write transaction") }
        var child: OpaquePointer?
        try check(realmdb_guarded_txn_begin(environment.env, parent, 0, &child), "begin savepoint")
        guard let child else { throw DBError(.internal, "LMDB began no nested transaction") }
        levels.append(child)
        txn = child
    }

    /// Closes the innermost savepoint level: its writes join the enclosing level (`commit`) or are
    /// discarded. A failed commit has discarded them too (LMDB aborts a nested transaction whose
    /// commit fails): the error says so, and the write transaction should then be cancelled.
    func endLevel(commit: Bool) throws {
        guard let handle = levels.popLast() else { return }
        txn = levels.last ?? root
        if commit {
            let rc = realmdb_guarded_txn_commit(handle)
            if rc == REALMDB_GUARD_FAULT { realmdb_guarded_txn_abort(handle) }
            try check(rc, "release savepoint")
        } else {
            realmdb_guarded_txn_abort(handle)
        }
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
    var snapshotID: Int { root.map { Int(mdb_txn_id($0)) } ?? 0 }

    // MARK: Seals

    /// The error for a record whose seal does not match.
    func damaged(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer) -> DBError {
        let what = environment.describeRecord(dbi, key: key, names: names)
        return DBError(.fileFormat, "'\(environment.path)' is damaged: \(what) does not match its checksum (restore the file from a copy)")
    }

    /// The payload of a sealed record read from `dbi`, checked against its seal.
    @inline(__always)
    func unseal(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, record: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        guard sealsRecords else { return record }
        guard realmdb_sealed_record_is_intact(key.baseAddress, key.count, record.baseAddress, record.count,
                                              remembersVerifiedRecords ? 1 : 0) != 0 else {
            throw damaged(dbi, key: key)
        }
        return UnsafeRawBufferPointer(rebasing: record[..<(record.count - Int(REALMDB_SEAL_SIZE))])
    }

    /// The object key (8 bytes, big-endian) an index entry holds, checked against its seal.
    @inline(__always)
    func unsealObjectKey(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws -> UInt64 {
        guard sealsRecords else { return UInt64(bigEndian: value.loadUnaligned(as: UInt64.self)) }
        guard let objectKey = RecordSealing.objectKey(key: key, sealedValue: value) else { throw damaged(dbi, key: key) }
        return objectKey
    }

    /// The stored form of an index entry's value (an 8-byte big-endian object key).
    private func sealedIndexValue(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws -> UInt64 {
        guard value.count == 8 else { throw DBError(.internal, "an index entry holds an 8-byte object key") }
        let objectKey = UInt64(bigEndian: value.loadUnaligned(as: UInt64.self))
        guard sealsRecords else { return objectKey.bigEndian }
        guard objectKey <= UInt64(RecordSealing.maxIndexedObjectKey) else {
            throw DBError(.outOfRange, "object key \(objectKey) is beyond the largest an index holds (2^47 - 1)")
        }
        return RecordSealing.sealedIndexValue(key: key, objectKey: objectKey)
    }

    /// Hands `body` the value of a record as callers see it: unsealed, or for the index the object key.
    @inline(__always)
    private func withOpened<R>(_ dbi: MDB_dbi, key: UnsafeRawBufferPointer, record: UnsafeRawBufferPointer,
                               _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        switch environment.sealing(of: dbi) {
        case .trailer:
            return try body(unseal(dbi, key: key, record: record))
        case .objectKeyCheck:
            guard record.count == 8 else { return try body(record) }
            let objectKey = try unsealObjectKey(dbi, key: key, value: record).bigEndian
            return try withUnsafeBytes(of: objectKey) { try body($0) }
        }
    }

    // MARK: Access

    /// The value stored under `key`, checked against its seal; for the index database, the first
    /// object key stored there (valid until the next `get`).
    func get(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        guard let record = try getRecord(dbi, key) else { return nil }
        switch environment.sealing(of: dbi) {
        case .trailer:
            return try unseal(dbi, key: key, record: record)
        case .objectKeyCheck:
            guard record.count == 8 else { return record }
            unsealedObjectKey.storeBytes(of: try unsealObjectKey(dbi, key: key, value: record).bigEndian, as: UInt64.self)
            return UnsafeRawBufferPointer(unsealedObjectKey)
        }
    }

    /// The stored bytes under `key`, seal included.
    func getRecord(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val()
        let rc = realmdb_guarded_get(txn, dbi, &k, &v)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "read")
        return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
    }

    func getRecord(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { try getRecord(dbi, $0) }
    }

    func get(_ dbi: MDB_dbi, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { try get(dbi, $0) }
    }

    /// Stores `value` under `key`, sealed (for the index database, `value` is an 8-byte object key);
    /// stored as it is while `sealsRecords` is false.
    func put(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: Int32 = 0) throws {
        if dbi == environment.blocksDB { blocksTouched = true }
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        switch environment.sealing(of: dbi) {
        case .trailer where !sealsRecords:
            var v = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
            try check(realmdb_guarded_put(txn, dbi, &k, &v, UInt32(flags)), "write")
        case .trailer:
            try check(Self.putSealed(txn, dbi, key, value, flags: UInt32(flags)), "write")
        case .objectKeyCheck:
            var sealed = try sealedIndexValue(key: key, value: value)
            try withUnsafeMutableBytes(of: &sealed) { bytes in
                var v = MDB_val(mv_size: 8, mv_data: bytes.baseAddress)
                try check(realmdb_guarded_put(txn, dbi, &k, &v, UInt32(flags)), "write")
            }
        }
    }

    /// Stores `value` and its seal under `key` in `txn` (the one sealed put, also used while a new
    /// file is built): LMDB reserves room for both, filled in place, so the payload is copied once.
    /// - Returns: LMDB's status.
    static func putSealed(_ txn: OpaquePointer?, _ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer,
                          flags: UInt32 = 0) -> Int32 {
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var v = MDB_val(mv_size: value.count + Int(REALMDB_SEAL_SIZE), mv_data: nil)
        let rc = realmdb_guarded_put(txn, dbi, &k, &v, flags | UInt32(MDB_RESERVE))
        guard rc == MDB_SUCCESS, let room = v.mv_data else { return rc == MDB_SUCCESS ? MDB_PANIC : rc }
        if let base = value.baseAddress, value.count > 0 { room.copyMemory(from: base, byteCount: value.count) }
        realmdb_seal_record(key.baseAddress, key.count, room, value.count)
        return MDB_SUCCESS
    }

    func put(_ dbi: MDB_dbi, _ key: [UInt8], _ value: [UInt8], flags: Int32 = 0) throws {
        try key.withUnsafeBytes { k in try value.withUnsafeBytes { v in try put(dbi, k, v, flags: flags) } }
    }

    /// Deletes a key (all its duplicates), or one key/value pair of a DUPSORT database.
    /// - Returns: whether anything was deleted.
    @discardableResult
    func delete(_ dbi: MDB_dbi, _ key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer? = nil) throws -> Bool {
        if dbi == environment.blocksDB { blocksTouched = true }
        var k = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var rc: Int32
        if let value {
            // Only the index database holds duplicates: the value to delete is an object key.
            var sealed = try sealedIndexValue(key: key, value: value)
            rc = withUnsafeMutableBytes(of: &sealed) { bytes in
                var v = MDB_val(mv_size: 8, mv_data: bytes.baseAddress)
                return realmdb_guarded_del(txn, dbi, &k, &v)
            }
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
    /// Values reach `body` opened (see `withOpened`) unless `opened` is false.
    private func walk(_ dbi: MDB_dbi, _ cursor: OpaquePointer?, from rc: Int32, _ k: inout MDB_val, _ v: inout MDB_val,
                      prefix: [UInt8], step: MDB_cursor_op, opened: Bool = true,
                      _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        var rc = rc
        while rc == MDB_SUCCESS {
            let key = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
            // memcmp: comparing the bytes pairwise through zip cost as much as stepping the cursor.
            guard key.count >= prefix.count, prefix.isEmpty || memcmp(key.baseAddress!, prefix, prefix.count) == 0 else { return }
            let record = UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
            let more = opened ? try withOpened(dbi, key: key, record: record) { try body(key, $0) } : try body(key, record)
            guard more else { return }
            rc = realmdb_guarded_cursor_get(cursor, &k, &v, step)
        }
        if rc != MDB_NOTFOUND { try check(rc, "cursor") }
    }

    /// Calls `body` with every key/value pair whose key starts with `prefix`, in key order
    /// (each duplicate of a DUPSORT database separately); an empty prefix walks the whole
    /// database. `body` returns false to stop.
    /// - Parameter opened: false hands over the stored records, seals included, unchecked.
    func scan(_ dbi: MDB_dbi, prefix: [UInt8], from start: [UInt8]? = nil, opened: Bool = true,
              _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        try withCursor(dbi) { cursor in
            var k = MDB_val(), v = MDB_val()
            let seek = start ?? prefix
            // LMDB refuses an empty key to seek to: start from the first entry instead.
            let rc = seek.isEmpty ? realmdb_guarded_cursor_get(cursor, &k, &v, MDB_FIRST) : cursorSeek(cursor, atLeast: seek, &k, &v)
            try walk(dbi, cursor, from: rc, &k, &v, prefix: prefix, step: MDB_NEXT, opened: opened, body)
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

    /// Deletes every key that starts with `prefix` (damaged records included: nothing is read).
    func deletePrefix(_ dbi: MDB_dbi, prefix: [UInt8]) throws {
        // In batches of keys, each scan starting again at the prefix (the keys before are gone),
        // so that deleting millions of entries holds a few thousand keys in memory, not all of them.
        let batch = 4096
        var keys: [[UInt8]] = []
        repeat {
            keys.removeAll(keepingCapacity: true)
            try scan(dbi, prefix: prefix, opened: false) { key, _ in
                if keys.last.map({ !$0.elementsEqual(key) }) ?? true {
                    if keys.count == batch { return false }
                    keys.append(Array(key))
                }
                return true
            }
            for key in keys { try delete(dbi, key) }
        } while keys.count == batch
    }
}

/// Positions a cursor on the first key at or after `bytes` (MDB_SET_RANGE); returns LMDB's code.
func cursorSeek(_ cursor: OpaquePointer?, atLeast bytes: [UInt8], _ key: inout MDB_val, _ value: inout MDB_val) -> Int32 {
    bytes.withUnsafeBytes { buffer in
        key = MDB_val(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        return realmdb_guarded_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
    }
}
