import CLMDB
import CLMDBGuard

/// One cluster of a scan: which slots hold live objects, and each scanned column's block (zero-copy).
struct ClusterScan {
    let cluster: Int64
    /// The presence bits: 1024 bits, bit `s` set when slot `s` holds a live object.
    let presence: UnsafeRawBufferPointer
    /// The scanned columns' blocks, in the order requested; nil where nothing was ever written.
    let blocks: [ColumnBlockView?]

    /// The first scanned column's block.
    var block: ColumnBlockView? { blocks.first ?? nil }

    @inline(__always) func isLive(_ slot: Int) -> Bool { presence[slot >> 3] & (1 << UInt8(slot & 7)) != 0 }

    /// The object key of a slot.
    @inline(__always) func key(_ slot: Int) -> Int64 { cluster << Int64(StorageKeys.clusterShift) | Int64(slot) }
}

/// Column scans: the primitive that queries and aggregates run on. A scan walks the table's
/// presence blocks and the requested columns' blocks with LMDB cursors in step (all ordered by
/// cluster), handing out views into the memory map, so a fixed-width column is read as plain arrays.
extension StorageTransaction {
    /// Calls `body` for every cluster of a table that has live objects, in cluster order.
    /// Inside a write, the table's decoded blocks are written back first so the scan sees them.
    /// Buffers are valid only during the call. `body` returns false to stop.
    /// - Complexity: O(clusters x columns), each block read in place.
    func scanColumns(table: UInt32, columns: [UInt32], _ body: (ClusterScan) throws -> Bool) throws {
        if isWrite { try writeBackBlocks(table: table) }
        guard let txn = lmdb.txn else { throw DBError(.internal, "scan outside a transaction") }
        let dbi = environment.blocksDB
        var cursors: [OpaquePointer?] = []
        defer { for cursor in cursors { realmdb_guarded_cursor_close(cursor) } }
        for _ in 0...columns.count {
            var cursor: OpaquePointer?
            try check(mdb_cursor_open(txn, dbi, &cursor), "open cursor")
            cursors.append(cursor)
        }
        let prefixes = ([StorageKeys.presenceColumn] + columns).map { StorageKeys.blockPrefix(table: table, column: $0) }
        var keys = [MDB_val](repeating: MDB_val(), count: prefixes.count)
        var values = [MDB_val](repeating: MDB_val(), count: prefixes.count)
        var codes = [Int32](repeating: MDB_NOTFOUND, count: prefixes.count)
        for i in prefixes.indices where i == 0 || columns[i - 1] != StorageKeys.presenceColumn {
            codes[i] = cursorSeek(cursors[i], atLeast: prefixes[i], &keys[i], &values[i])
        }

        // The record a cursor is on, checked against its seal.
        func opened(_ i: Int) throws -> UnsafeRawBufferPointer {
            try lmdb.unseal(dbi, key: UnsafeRawBufferPointer(start: keys[i].mv_data, count: keys[i].mv_size),
                            record: UnsafeRawBufferPointer(start: values[i].mv_data, count: values[i].mv_size))
        }

        func cluster(_ i: Int) -> Int64? {
            guard codes[i] == MDB_SUCCESS else { return nil }
            let bytes = UnsafeRawBufferPointer(start: keys[i].mv_data, count: keys[i].mv_size)
            guard bytes.count == 16, bytes.prefix(8).elementsEqual(prefixes[i]) else { return nil }
            return StorageKeys.cluster(fromBlockKey: bytes)
        }

        var blocks = [ColumnBlockView?](repeating: nil, count: columns.count)
        while let presenceCluster = cluster(0) {
            let presence = try opened(0)
            guard presence.count == columnBlockHeaderSize + PresenceBitmap.wordCount * 8 else {
                throw DBError(.fileFormat, "corrupt presence block")
            }
            for i in 1..<prefixes.count {
                // Advance this column's cursor to the cluster (blocks of clusters without objects are skipped).
                while let c = cluster(i), c < presenceCluster { codes[i] = realmdb_guarded_cursor_get(cursors[i], &keys[i], &values[i], MDB_NEXT) }
                // A column's cursor that failed (a damaged page) must not read as a missing block.
                if codes[i] != MDB_SUCCESS && codes[i] != MDB_NOTFOUND { try lmdb.check(codes[i], "scan") }
                if let c = cluster(i), c == presenceCluster {
                    blocks[i - 1] = try ColumnBlockView(opened(i))
                } else {
                    blocks[i - 1] = nil
                }
            }
            let scan = ClusterScan(cluster: presenceCluster,
                                   presence: UnsafeRawBufferPointer(rebasing: presence[columnBlockHeaderSize...]),
                                   blocks: blocks)
            guard try body(scan) else { return }
            codes[0] = realmdb_guarded_cursor_get(cursors[0], &keys[0], &values[0], MDB_NEXT)
        }
        if codes[0] != MDB_SUCCESS && codes[0] != MDB_NOTFOUND { try lmdb.check(codes[0], "scan") }
    }

    /// Scans one column (see `scanColumns`).
    func scanColumn(table: UInt32, column: UInt32, _ body: (ClusterScan) throws -> Bool) throws {
        try scanColumns(table: table, columns: [column], body)
    }

    /// One cluster's presence and blocks, for the index-driven path (a few clusters, not all);
    /// nil when the cluster has no objects.
    func clusterScan(table: UInt32, cluster: Int64, columns: [UInt32]) throws -> ClusterScan? {
        if isWrite { try writeBackBlocks(table: table) }
        let presenceKey = BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)
        guard let presence = try storedBytes(presenceKey) else { return nil }
        guard presence.count == columnBlockHeaderSize + PresenceBitmap.wordCount * 8 else {
            throw DBError(.fileFormat, "corrupt presence block")
        }
        let blocks = try columns.map { try storedBlockView(BlockKey(table: table, column: $0, cluster: cluster)) }
        return ClusterScan(cluster: cluster, presence: UnsafeRawBufferPointer(rebasing: presence[columnBlockHeaderSize...]),
                           blocks: blocks)
    }
}

/// Batch reads: one column's values for many objects, reading each cluster's blocks once.
extension StorageTransaction {
    /// The values of a column for `keys`, in their order. Consecutive keys of one cluster share
    /// its presence and column block (read in place, or, inside a write, the decoded ones the
    /// write changed), so keys in ascending order cost one lookup per cluster rather than two
    /// per object. Nothing is written during the call, so the views stay valid.
    /// - Parameter checkPresence: verify that each key is a live object (false when the caller
    ///   knows they are, e.g. keys a query found in this same transaction state).
    /// - Throws: `.invalidated` when a key is not a live object.
    func values<Keys: Collection>(table: UInt32, column: ColumnSpec, keys: Keys,
                                  checkPresence: Bool = true) throws -> [Value] where Keys.Element == Int64 {
        if !column.isScalar {
            var scalar = column
            scalar.kind = .scalar
            return try values(table: table, column: scalar, keys: keys, checkPresence: checkPresence).map(column.userValue)
        }
        var result: [Value] = []
        result.reserveCapacity(keys.count)
        try forEachSlot(table: table, column: column, keys: keys, checkPresence: checkPresence) { block, changedBlock, slot in
            if let changedBlock {
                result.append(changedBlock.value(at: slot, optional: column.isOptional))
            } else if let block {
                result.append(block.value(at: slot, type: column.type, optional: column.isOptional))
            } else {
                result.append(column.isOptional ? .null : column.type.defaultValue)
            }
        }
        return result
    }

    /// As `values(table:column:keys:checkPresence:)`, handing each value to `body` with its
    /// position in `keys` as a point read hands it over (`contents(table:column:key:)`): ASCII
    /// text and binaries as their stored bytes, valid while the transaction neither writes nor ends.
    func contents<Keys: Collection>(table: UInt32, column: ColumnSpec, keys: Keys, checkPresence: Bool = true,
                                    _ body: (Int, StoredContents) -> Void) throws where Keys.Element == Int64 {
        guard column.isScalar else {
            for (index, value) in try values(table: table, column: column, keys: keys, checkPresence: checkPresence).enumerated() {
                body(index, .value(value))
            }
            return
        }
        var index = 0
        try forEachSlot(table: table, column: column, keys: keys, checkPresence: checkPresence) { block, changedBlock, slot in
            if let changedBlock {
                body(index, .value(changedBlock.value(at: slot, optional: column.isOptional)))
            } else if let block {
                body(index, block.contents(at: slot, type: column.type, optional: column.isOptional))
            } else {
                body(index, .value(column.isOptional ? .null : column.type.defaultValue))
            }
            index += 1
        }
    }

    /// As `contents(table:column:keys:checkPresence:_:)` for a column of bools, ints, floats or
    /// doubles (`StoredNumber.holds`), handing each value over as a plain number.
    func numbers<Keys: Collection>(table: UInt32, column: ColumnSpec, keys: Keys, checkPresence: Bool = true,
                                   _ body: (Int, StoredNumber) -> Void) throws where Keys.Element == Int64 {
        guard column.isScalar, StoredNumber.holds(column.type) else {
            throw DBError(.internal, "a column of \(column.type.name) values is not read as numbers")
        }
        var index = 0
        try forEachSlot(table: table, column: column, keys: keys, checkPresence: checkPresence) { block, changedBlock, slot in
            if let changedBlock {
                body(index, StoredNumber(changedBlock.value(at: slot, optional: column.isOptional)))
            } else if let block {
                body(index, block.number(at: slot, type: column.type, optional: column.isOptional))
            } else {
                body(index, .absent(column.type, optional: column.isOptional))
            }
            index += 1
        }
    }

    /// Walks `keys` in order, calling `read` with the slot of each in its cluster's block: the
    /// block as stored, or inside a write the decoded one when the write changed it, or neither
    /// when the cluster has no block for the column (every slot reads as the default).
    @inline(__always)
    private func forEachSlot<Keys: Collection>(table: UInt32, column: ColumnSpec, keys: Keys, checkPresence: Bool,
                                               _ read: (ColumnBlockView?, ColumnBuffer?, Int) throws -> Void) throws
        where Keys.Element == Int64 {
        if !checkPresence && dirtyBlocks.isEmpty && !(isWrite && lmdb.blocksTouched) {
            try forEachStoredSlot(table: table, column: column, keys: keys, read)
            return
        }
        var currentCluster: Int64 = -1
        var presence: UnsafeRawBufferPointer?
        var changedPresence: PresenceBitmap?  // inside a write, when it changed this cluster's objects
        var block: ColumnBlockView?
        var changedBlock: ColumnBuffer?  // inside a write, when it changed this block
        // Outside a write (or a write that changed nothing yet) the two stay nil, untouched:
        // assigning an Optional<ColumnBuffer> costs an outlined copy and destroy per cluster.
        let mayHaveChanges = isWrite && (!dirtyBlocks.isEmpty || !dirtyPresence.isEmpty)
        for key in keys {
            let cluster = key >> Int64(StorageKeys.clusterShift), slot = Int(key & StorageKeys.clusterMask)
            if cluster != currentCluster || key < 0 {
                currentCluster = cluster
                if checkPresence {
                    let presenceKey = BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)
                    if mayHaveChanges { changedPresence = dirtyPresence[presenceKey] }
                    presence = key < 0 || changedPresence != nil ? nil : try storedBytes(presenceKey)
                }
                let blockKey = BlockKey(table: table, column: column.id, cluster: cluster)
                if mayHaveChanges { changedBlock = dirtyBlocks[blockKey] }
                block = changedBlock == nil ? try storedBlockView(blockKey) : nil
            }
            if checkPresence {
                let isLive: Bool
                if let changedPresence {
                    isLive = key >= 0 && changedPresence.contains(slot)
                } else if let presence, presence.count == columnBlockHeaderSize + PresenceBitmap.wordCount * 8 {
                    isLive = presence[columnBlockHeaderSize + slot >> 3] & (1 << UInt8(slot & 7)) != 0
                } else {
                    isLive = false
                }
                guard isLive else { throw DBError(.invalidated, "an object of the results has been deleted") }
            }
            try read(block, changedBlock, slot)
        }
    }

    /// `forEachSlot` for keys known to be live, reading stored blocks only: the keys go in runs
    /// of 64, each run's slots looked up and their loads started before the first is read, so
    /// that reading the sorted results' first 100 objects, spread over as many clusters, waits
    /// for memory about once per run rather than once per object.
    private func forEachStoredSlot<Keys: Collection>(table: UInt32, column: ColumnSpec, keys: Keys,
                                                     _ read: (ColumnBlockView?, ColumnBuffer?, Int) throws -> Void) throws
        where Keys.Element == Int64 {
        let runLength = 64
        try withUnsafeTemporaryAllocation(of: ColumnBlockView?.self, capacity: runLength) { views in
            var runStart = keys.startIndex
            var currentCluster: Int64 = -1
            var block: ColumnBlockView?
            while runStart != keys.endIndex {
                let runEnd = keys.index(runStart, offsetBy: runLength, limitedBy: keys.endIndex) ?? keys.endIndex
                var position = 0
                for key in keys[runStart..<runEnd] {
                    let cluster = key >> Int64(StorageKeys.clusterShift)
                    if cluster != currentCluster || key < 0 {
                        currentCluster = cluster
                        block = try storedBlockView(BlockKey(table: table, column: column.id, cluster: cluster))
                    }
                    block?.prefetch(Int(key & StorageKeys.clusterMask))
                    views.initializeElement(at: position, to: block)
                    position += 1
                }
                position = 0
                for key in keys[runStart..<runEnd] {
                    try read(views[position], nil, Int(key & StorageKeys.clusterMask))
                    position += 1
                }
                views.baseAddress!.deinitialize(count: position)
                runStart = runEnd
            }
        }
    }
}
