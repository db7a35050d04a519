/// Savepoints: a mark inside a write transaction that the write can be rolled back to, undoing
/// everything done since while keeping what was done before (Realm.beginSavepoint and friends).
///
/// A write's state lives in two places, and each is rolled back its own way:
/// - LMDB (index entries, backlinks, blocks written back early): each savepoint opens a nested
///   LMDB transaction, aborted on rollback and folded into its parent on release;
/// - memory (decoded blocks, presence bitmaps, counters, collections, the schema, the change
///   record): before a piece of it changes for the first time after a savepoint, its previous
///   state is journaled (`SavepointUndo`); a rollback restores the journal in reverse order.
/// The cost is proportional to what changes inside the savepoint, not to the transaction.
///
/// Object keys are never handed out twice: a rollback keeps each table's next key, so a handle to
/// an object created and rolled back stays invalid instead of naming a later object.

/// The state of one piece of a write's memory before its first change inside a savepoint.
enum SavepointUndo {
    /// A decoded block (nil: it was not decoded, so the stored one is current).
    case block(BlockKey, ColumnBuffer?)
    case presence(BlockKey, PresenceBitmap?)
    case counters(UInt32, TableCounters, wasDirty: Bool)
    /// A collection's contents when they were newer than its slot (`wasDirty`); else nothing to keep.
    case collection(CollectionID, [Value]?, wasDirty: Bool)
    case schema(StoredSchema, wasDirty: Bool)
}

/// One open savepoint: where its journal starts and what it has journaled already.
struct SavepointFrame {
    let undoMark: Int
    var blocks = Set<BlockKey>()
    var presence = Set<BlockKey>()
    var counters = Set<UInt32>()
    var collections = Set<CollectionID>()
    var schema = false
}

extension StorageTransaction {
    /// The number of open savepoints.
    var savepointDepth: Int { savepointFrames.count }

    /// Takes a savepoint (they nest).
    func beginSavepoint() throws {
        try requireWrite()
        try lmdb.beginLevel()
        savepointFrames.append(SavepointFrame(undoMark: savepointUndo.count))
        changes.beginSavepoint()
    }

    /// Undoes everything since the innermost savepoint, and removes it.
    func rollbackSavepoint() throws {
        try requireWrite()
        guard !savepointFrames.isEmpty else { throw noSavepoint("roll back") }
        try lmdb.endLevel(commit: false)
        restoreInnermostFrame()
    }

    /// Keeps everything since the innermost savepoint (it now belongs to the enclosing savepoint,
    /// or to the transaction), and removes the savepoint.
    /// - Throws: when LMDB cannot fold the nested transaction into its parent; the savepoint's
    ///   changes are then rolled back (LMDB has discarded its part of them).
    func releaseSavepoint() throws {
        try requireWrite()
        guard !savepointFrames.isEmpty else { throw noSavepoint("release") }
        do {
            try lmdb.endLevel(commit: true)
        } catch let error as DBError {
            restoreInnermostFrame()
            throw DBError(error.code, "the savepoint could not be released and its changes were rolled back: \(error.message)")
        }
        let frame = savepointFrames.removeLast()
        if savepointFrames.isEmpty {
            savepointUndo.removeAll(keepingCapacity: true)
        } else {
            // The enclosing savepoint journals from here on what this one journaled already.
            savepointFrames[savepointFrames.count - 1].merge(frame)
        }
        changes.releaseSavepoint()
    }

    /// Releases every open savepoint (before a commit).
    func releaseAllSavepoints() throws {
        while !savepointFrames.isEmpty { try releaseSavepoint() }
    }

    private func noSavepoint(_ action: String) -> DBError {
        DBError(.wrongTransactionState, "cannot \(action) a savepoint: none is open in this write transaction")
    }

    private func restoreInnermostFrame() {
        let frame = savepointFrames.removeLast()
        var schemaRestored = false
        while savepointUndo.count > frame.undoMark {
            switch savepointUndo.removeLast() {
            case let .block(key, buffer):
                dirtyBlocks[key] = buffer
            case let .presence(key, bitmap):
                dirtyPresence[key] = bitmap
            case let .counters(table, old, wasDirty):
                // The count goes back; the next key does not (keys are never handed out twice).
                let nextKey = max(counters[FastID(table)]?.nextKey ?? old.nextKey, old.nextKey)
                counters[FastID(table)] = TableCounters(nextKey: nextKey, count: old.count)
                if wasDirty || nextKey != old.nextKey { dirtyCounters.insert(FastID(table)) } else { dirtyCounters.remove(FastID(table)) }
            case let .collection(id, contents, wasDirty):
                collectionCache[id] = wasDirty ? contents : nil
                if wasDirty { dirtyCollections.insert(id) } else { dirtyCollections.remove(id) }
            case let .schema(schema, wasDirty):
                storedSchema = schema
                schemaDirty = wasDirty
                schemaRestored = true
            }
        }
        // Collections decoded inside the savepoint may show its changes: read them again.
        collectionCache = collectionCache.filter { dirtyCollections.contains($0.key) }
        if schemaRestored {
            compoundIndexCache = [:]
            linkingColumnCache = [:]
        }
        changes.rollbackSavepoint()
        mutationCount += 1  // live results computed inside the savepoint are stale
        footprint.changedAnywhere(at: mutationCount)
    }

    // MARK: Journal (called before each change of the in-memory state)

    @inline(__always) func journalBlock(_ key: BlockKey) {
        guard !savepointFrames.isEmpty, savepointFrames[savepointFrames.count - 1].blocks.insert(key).inserted else { return }
        savepointUndo.append(.block(key, dirtyBlocks[key]))
    }

    @inline(__always) func journalPresence(_ key: BlockKey) {
        guard !savepointFrames.isEmpty, savepointFrames[savepointFrames.count - 1].presence.insert(key).inserted else { return }
        savepointUndo.append(.presence(key, dirtyPresence[key]))
    }

    @inline(__always) func journalCounters(_ table: UInt32, _ current: TableCounters) {
        guard !savepointFrames.isEmpty, savepointFrames[savepointFrames.count - 1].counters.insert(table).inserted else { return }
        savepointUndo.append(.counters(table, current, wasDirty: dirtyCounters.contains(FastID(table))))
    }

    @inline(__always) func journalCollection(_ id: CollectionID) {
        guard !savepointFrames.isEmpty, savepointFrames[savepointFrames.count - 1].collections.insert(id).inserted else { return }
        let wasDirty = dirtyCollections.contains(id)
        savepointUndo.append(.collection(id, wasDirty ? collectionCache[id] : nil, wasDirty: wasDirty))
    }

    func journalSchema() {
        guard !savepointFrames.isEmpty, !savepointFrames[savepointFrames.count - 1].schema else { return }
        savepointFrames[savepointFrames.count - 1].schema = true
        savepointUndo.append(.schema(storedSchema, wasDirty: schemaDirty))
    }
}

extension SavepointFrame {
    /// Takes in what an inner savepoint, now released, journaled.
    mutating func merge(_ inner: SavepointFrame) {
        blocks.formUnion(inner.blocks)
        presence.formUnion(inner.presence)
        counters.formUnion(inner.counters)
        collections.formUnion(inner.collections)
        schema = schema || inner.schema
    }
}
