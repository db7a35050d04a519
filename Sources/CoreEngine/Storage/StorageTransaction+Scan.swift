import CLMDB

/// One cluster of a column scan: which slots hold live objects, and the column's block (zero-copy).
struct ClusterScan {
    let cluster: Int64
    /// The presence bits: 1024 bits, bit `s` set when slot `s` holds a live object.
    let presence: UnsafeRawBufferPointer
    /// The column's block; nil when nothing was ever written to the column in this cluster.
    let block: ColumnBlockView?

    @inline(__always) func isLive(_ slot: Int) -> Bool { presence[slot >> 3] & (1 << UInt8(slot & 7)) != 0 }

    /// The object key of a slot.
    @inline(__always) func key(_ slot: Int) -> Int64 { cluster << Int64(StorageKeys.clusterShift) | Int64(slot) }
}

/// Column scans: the primitive that queries and aggregates run on. A scan walks the table's
/// presence blocks and the column's blocks with two LMDB cursors in step (both ordered by cluster),
/// handing out views into the memory map, so a fixed-width column is read as plain arrays.
extension StorageTransaction {
    /// Calls `body` for every cluster of a table that has live objects, in cluster order.
    /// Inside a write, the table's decoded blocks are written back first so the scan sees them.
    /// Buffers are valid only during the call. `body` returns false to stop.
    /// - Complexity: O(clusters), each cluster's block read in place.
    func scanColumn(table: UInt32, column: UInt32, _ body: (ClusterScan) throws -> Bool) throws {
        if isWrite { try writeBackBlocks(table: table) }
        guard let txn = lmdb.txn else { throw DBError(.internal, "scan outside a transaction") }
        let dbi = environment.blocksDB
        var presenceCursor: OpaquePointer?, columnCursor: OpaquePointer?
        try check(mdb_cursor_open(txn, dbi, &presenceCursor), "open cursor")
        defer { mdb_cursor_close(presenceCursor) }
        try check(mdb_cursor_open(txn, dbi, &columnCursor), "open cursor")
        defer { mdb_cursor_close(columnCursor) }

        let presencePrefix = StorageKeys.blockPrefix(table: table, column: StorageKeys.presenceColumn)
        let columnPrefix = StorageKeys.blockPrefix(table: table, column: column)
        var pk = MDB_val(), pv = MDB_val(), ck = MDB_val(), cv = MDB_val()
        var prc = seek(presenceCursor, presencePrefix, &pk, &pv)
        var crc = column == StorageKeys.presenceColumn ? MDB_NOTFOUND : seek(columnCursor, columnPrefix, &ck, &cv)

        func cluster(_ key: MDB_val, _ prefix: [UInt8]) -> Int64? {
            let bytes = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
            guard bytes.count == 16, bytes.prefix(8).elementsEqual(prefix) else { return nil }
            return StorageKeys.cluster(fromBlockKey: bytes)
        }

        while prc == MDB_SUCCESS, let presenceCluster = cluster(pk, presencePrefix) {
            let presence = UnsafeRawBufferPointer(start: pv.mv_data, count: pv.mv_size)
            guard presence.count == columnBlockHeaderSize + PresenceBitmap.wordCount * 8 else {
                throw DBError(.fileFormat, "corrupt presence block")
            }
            // Advance the column cursor to this cluster (blocks of clusters without objects are skipped).
            var block: ColumnBlockView?
            while crc == MDB_SUCCESS, let columnCluster = cluster(ck, columnPrefix), columnCluster < presenceCluster {
                crc = mdb_cursor_get(columnCursor, &ck, &cv, MDB_NEXT)
            }
            if crc == MDB_SUCCESS, let columnCluster = cluster(ck, columnPrefix), columnCluster == presenceCluster {
                block = try ColumnBlockView(UnsafeRawBufferPointer(start: cv.mv_data, count: cv.mv_size))
            }
            let scan = ClusterScan(cluster: presenceCluster,
                                   presence: UnsafeRawBufferPointer(rebasing: presence[columnBlockHeaderSize...]),
                                   block: block)
            guard try body(scan) else { return }
            prc = mdb_cursor_get(presenceCursor, &pk, &pv, MDB_NEXT)
        }
        if prc != MDB_SUCCESS && prc != MDB_NOTFOUND { try check(prc, "scan") }
    }

    private func seek(_ cursor: OpaquePointer?, _ prefix: [UInt8], _ key: inout MDB_val, _ value: inout MDB_val) -> Int32 {
        prefix.withUnsafeBytes { bytes in
            key = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            return mdb_cursor_get(cursor, &key, &value, MDB_SET_RANGE)
        }
    }
}
