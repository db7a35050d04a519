import CColumnKernels
import CLMDB

/// Per-table counters kept in the "meta" database: the next object key and the live object count.
struct TableCounters {
    var nextKey: Int64 = 0
    var count: Int64 = 0
}

/// A snapshot of the file (read) or a write in progress, with the object-level operations
/// the realm layer builds on.
///
/// A write transaction keeps the column blocks it touches decoded in memory (`dirtyBlocks`) and
/// writes each one back once, at commit; reads inside the write see those buffers first. Index
/// entries go straight to LMDB, whose write transaction sees its own writes.
final class StorageTransaction {
    let lmdb: LMDBTransaction
    var isWrite: Bool { lmdb.isWrite }
    var environment: LMDBEnvironment { lmdb.environment }

    /// The schema recorded in this snapshot; a migration replaces it before commit.
    var storedSchema: StoredSchema {
        didSet { lmdb.names = storedSchema }
    }
    /// The commit counter of this snapshot.
    private(set) var version: UInt64
    /// The file's format number as this snapshot read it (docs/FORMAT.md): `formatNumber`, or 1
    /// for a file written before seals that no write has upgraded yet.
    private(set) var fileFormat: UInt32 = StorageTransaction.formatNumber

    // In-memory state of a write (internal for the savepoint journal, StorageTransaction+Savepoints).
    var dirtyBlocks: [BlockKey: ColumnBuffer] = [:]
    /// The stored blocks (column and presence) looked up, nil where none is stored (see
    /// `storedBytes`).
    private var storedRecords = StoredBlockCache()
    var dirtyPresence: [BlockKey: PresenceBitmap] = [:]
    var counters: [FastID: TableCounters] = [:]
    var dirtyCounters = Set<FastID>()
    var schemaDirty = false
    /// What rolls the in-memory state back to each open savepoint (see StorageTransaction+Savepoints).
    var savepointUndo: [SavepointUndo] = []
    var savepointFrames: [SavepointFrame] = []
    var changes = CommitRecorder()
    /// Frozen realms and notifiers reading through this (read) transaction: while any do, the
    /// live realm that opened it drops it without aborting it (see `Realm.pin`).
    var pins = 0
    /// Counts the writes made through this transaction, so that live results can tell they are stale.
    var mutationCount = 0 {
        didSet { changeCounter?.bump() }
    }
    /// The counter of the realm writing through this transaction (see `ChangeCounter`).
    var changeCounter: ChangeCounter?
    /// What each mutation changed, for live results' caches (see `MutationFootprint`).
    var footprint = MutationFootprint()
    /// Unique per transaction in this process (object addresses are reused; serials are not).
    let serial: Int = StorageTransaction.nextSerial()

    private static let serialLock = RecursiveLock(level: .leaf, name: "transaction serial counter", heldAcrossFork: true)
    nonisolated(unsafe) private static var lastSerial = 0
    private static func nextSerial() -> Int { serialLock.withLock { lastSerial += 1; return lastSerial } }
    /// Compound indexes per table, derived from `storedSchema` (see `compoundIndexes(table:)`).
    var compoundIndexCache: [FastID: [CompoundIndexSpec]] = [:]
    /// Columns that may link to each table, derived from `storedSchema` (see `linkingColumns(to:)`).
    var linkingColumnCache: [FastID: [(table: UInt32, column: ColumnSpec)]] = [:]
    /// Decoded collections (see StorageTransaction+Collections); inside a write, the ones in
    /// `dirtyCollections` are newer than their slots and are encoded back by `writeBackBlocks`.
    var collectionCache: [CollectionID: [Value]] = [:]
    var dirtyCollections = Set<CollectionID>()
    /// A reusable buffer for building keys (see `takeScratch`).
    private var scratch: [UInt8] = []

    /// Lends the scratch buffer, empty; give it back with `returnScratch` (nested use gets a fresh one).
    func takeScratch() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    func returnScratch(_ buffer: [UInt8]) { scratch = buffer }

    /// Called after every commit of this process, outside any lock of the storage layer. Storage
    /// knows nothing above it: the realm layer sets this once (to wake the commit watcher).
    nonisolated(unsafe) static var didCommit: () -> Void = {}

    /// How many change records the file keeps; older ones are pruned at commit (see docs/FORMAT.md).
    static let retainedChangeRecords: UInt64 = 1000
    /// The format record's payload: the name, NUL, the format number as u32 LE (docs/FORMAT.md).
    static let formatMagic: [UInt8] = formatRecord(3)
    /// The format this library writes. It also reads format 1 (no seals), which the first write
    /// upgrades, and format 2 (no packed int blocks), which the first write marks as format 3.
    static let formatNumber: UInt32 = 3
    static let formatName: [UInt8] = Array("realmdb".utf8) + [0]

    static func formatRecord(_ number: UInt32) -> [UInt8] {
        formatName + withUnsafeBytes(of: number.littleEndian) { Array($0) }
    }

    /// Opens a snapshot (or a write) and reads its version and schema.
    /// A file with no "format" record is initialized when `write` is true and rejected otherwise.
    init(environment: LMDBEnvironment, write: Bool) throws {
        lmdb = try LMDBTransaction(environment: environment, write: write)
        storedSchema = StoredSchema()
        version = 0
        try loadHeader()
    }

    private func loadHeader() throws {
        let env = environment
        guard let format = try lmdb.getRecord(env.metaDB, StorageKeys.formatKey) else {
            // A new file: nothing is written until a write transaction commits.
            storedSchema = StoredSchema()
            version = 0
            return
        }
        let name = Self.formatName
        guard format.count >= name.count + 4, format.starts(with: name) else {
            throw DBError(.fileFormat, "'\(env.path)' is not a realmdb file, or its format record is damaged")
        }
        let number = UInt32(littleEndian: format.loadUnaligned(fromByteOffset: name.count, as: UInt32.self))
        switch number {
        case 1 where format.count == name.count + 4:
            // Format 1 had no seals: read it as it is; a write upgrades it first, in the same transaction.
            lmdb.sealsRecords = false
            fileFormat = 1
            if isWrite {
                try upgradeFormat1()
                fileFormat = Self.formatNumber
            }
        case 2, Self.formatNumber:
            try StorageKeys.formatKey.withUnsafeBytes { key in
                guard try lmdb.unseal(env.metaDB, key: key, record: format).elementsEqual(Self.formatRecord(number)) else {
                    throw lmdb.damaged(env.metaDB, key: key)
                }
            }
            fileFormat = number
            if number == 2 && isWrite {
                // Format 3 only adds a block layout (packed ints), which this write may store:
                // the file says so from this write on, so that format 2 readers refuse it.
                try lmdb.put(env.metaDB, StorageKeys.formatKey, Self.formatMagic)
                fileFormat = Self.formatNumber
            }
        default:
            throw DBError(.fileFormat, "'\(env.path)' was written in realmdb file format \(number); this library reads formats 1 to \(Self.formatNumber)")
        }
        version = try lmdb.get(env.metaDB, StorageKeys.versionKey).map { $0.loadUnaligned(as: UInt64.self).littleEndian } ?? 0
        if let schemaBytes = try lmdb.get(env.metaDB, StorageKeys.schemaKey) {
            storedSchema = try StoredSchema.decode(Array(schemaBytes))
        }
    }

    /// Whether anything was ever committed to the file (a new file has its format record from its
    /// creation, but no version: see LMDBEnvironment+Create).
    var isInitialized: Bool { version > 0 }

    func requireWrite() throws {
        guard isWrite else {
            throw DBError(.wrongTransactionState, "cannot modify the realm outside a write transaction; begin a write transaction first")
        }
    }

    // MARK: Schema

    /// Replaces the stored schema; written at commit.
    func replaceSchema(_ schema: StoredSchema) {
        journalSchema()
        storedSchema = schema
        compoundIndexCache = [:]
        linkingColumnCache = [:]
        schemaDirty = true
        changes.recordSchemaChange()
    }

    // MARK: Counters

    func counters(_ table: UInt32) throws -> TableCounters {
        if let cached = counters[FastID(table)] { return cached }
        var result = TableCounters()
        if let raw = try lmdb.get(environment.metaDB, StorageKeys.tableCounters(table)), raw.count == 16 {
            result.nextKey = Int64(littleEndian: raw.loadUnaligned(as: Int64.self))
            result.count = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        }
        counters[FastID(table)] = result
        if isWrite { changes.noteTableLoaded(table, nextKey: result.nextKey) }
        return result
    }

    private func updateCounters(_ table: UInt32, _ body: (inout TableCounters) -> Void) throws {
        var value = try counters(table)
        journalCounters(table, value)
        body(&value)
        counters[FastID(table)] = value
        dirtyCounters.insert(FastID(table))
    }

    // MARK: Blocks

    /// The stored block (zero-copy) when the write has not touched it.
    /// The stored block of a key, zero-copy (valid until the next write or the end of the transaction).
    func storedBlockView(_ key: BlockKey) throws -> ColumnBlockView? { try storedBlock(key) }

    /// The stored block of `key` as a column block (zero-copy), nil when none is stored; parsed
    /// once per transaction, as `storedBytes` looks it up once.
    private func storedBlock(_ key: BlockKey) throws -> ColumnBlockView? {
        if isWrite && lmdb.blocksTouched { return try storedBytes(key).map { try ColumnBlockView($0) } }
        switch storedRecords.lookupView(key) {
        case let .view(view):
            return view
        case .absent:
            return nil
        case let .bytes(raw):
            let view = try ColumnBlockView(raw)
            storedRecords.setView(key, view)
            return view
        case .unknown:
            let dbi = environment.blocksDB
            guard let raw = try StorageKeys.withBlockKey(key, { try lmdb.get(dbi, $0) }) else {
                storedRecords.insert(key, nil)
                return nil
            }
            let view = try ColumnBlockView(raw)
            storedRecords.insert(key, raw, view: view)
            return view
        }
    }

    /// The stored bytes of a block (zero-copy), nil when none is stored. The transaction
    /// remembers what it looked up, so that reading objects of one cluster one at a time descends
    /// LMDB's B-tree once per block, not once per value. A write remembers only until it changes
    /// the blocks database or begins a savepoint (`lmdb.blocksTouched`): before, what it reads is
    /// on committed pages, which stay put; after, it may be on pages LMDB moves as it writes.
    func storedBytes(_ key: BlockKey) throws -> UnsafeRawBufferPointer? {
        let dbi = environment.blocksDB
        if isWrite && lmdb.blocksTouched {
            if !storedRecords.isEmpty { storedRecords.removeAll() }
            return try StorageKeys.withBlockKey(key) { try lmdb.get(dbi, $0) }
        }
        if let known = storedRecords.lookup(key) { return known }
        let raw = try StorageKeys.withBlockKey(key) { try lmdb.get(dbi, $0) }
        storedRecords.insert(key, raw)
        return raw
    }

    func presence(table: UInt32, cluster: Int64) throws -> PresenceBitmap? {
        let key = BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)
        if let dirty = dirtyPresence[key] { return dirty }
        guard let raw = try storedBytes(key) else { return nil }
        return try PresenceBitmap(raw)
    }

    private func modifyPresence(table: UInt32, cluster: Int64, _ body: (inout PresenceBitmap) -> Void) throws {
        let key = BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)
        journalPresence(key)
        if dirtyPresence[key] == nil { dirtyPresence[key] = try presence(table: table, cluster: cluster) ?? PresenceBitmap() }
        body(&dirtyPresence[key]!)
    }

    /// Changes the decoded block of `key` in place, decoding it first if this write has not yet.
    /// One hash lookup when the block is already decoded (the common case: a write touches the
    /// same clusters again and again).
    private func modifyBlock(_ key: BlockKey, type: PropertyType, _ body: (inout ColumnBuffer) -> Void) throws {
        journalBlock(key)
        if let index = dirtyBlocks.index(forKey: key) {
            body(&dirtyBlocks.values[index])
            return
        }
        var buffer = try storedBlock(key).map { ColumnBuffer(type: type, decoding: $0) } ?? ColumnBuffer(type: type)
        body(&buffer)
        dirtyBlocks[key] = buffer
    }

    // MARK: Objects

    @inline(__always) private func locate(_ key: Int64) -> (cluster: Int64, slot: Int) {
        (key >> Int64(StorageKeys.clusterShift), Int(key & StorageKeys.clusterMask))
    }

    func objectExists(table: UInt32, key: Int64) throws -> Bool {
        guard key >= 0 else { return false }
        let (cluster, slot) = locate(key)
        let blockKey = BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)
        if !dirtyPresence.isEmpty, let dirty = dirtyPresence[blockKey] { return dirty.contains(slot) }
        // Test the one bit in place rather than decoding the bitmap.
        guard let raw = try storedBytes(blockKey) else { return false }
        return try Self.presenceByte(of: slot, in: raw).load(as: UInt8.self) & (1 << UInt8(slot & 7)) != 0
    }

    /// The byte of a stored presence block that holds `slot`'s bit.
    /// - Throws: `.fileFormat` when the bytes are not the size of a presence block.
    private static func presenceByte(of slot: Int, in raw: UnsafeRawBufferPointer) throws -> UnsafeRawPointer {
        guard raw.count == columnBlockHeaderSize + PresenceBitmap.wordCount * 8 else {
            throw DBError(.fileFormat, "corrupt presence block")
        }
        return raw.baseAddress! + columnBlockHeaderSize + slot >> 3
    }

    func objectCount(table: UInt32) throws -> Int {
        let count = try counters(table).count
        guard count < 0 else { return Int(count) }
        // Files written before embedded deletions were counted once held negative counts:
        // count the live objects instead (check() still reports the stored counter).
        var live = 0
        try forEachObjectKey(table: table) { _ in live += 1 }
        return live
    }

    /// How many decoded blocks (column and presence) a write keeps before `writeBackIfLarge`
    /// writes them back ahead of commit: about 40 MiB for five columns of short strings and numbers.
    /// Tests lower it to drive early write-backs with few objects.
    var dirtyBlockLimit = 2048
    /// How many bytes of decoded blocks a write keeps (blocks of large strings or data reach it
    /// before `dirtyBlockLimit`): checked every `dirtyBytesCheckInterval` calls of `writeBackIfLarge`.
    var dirtyByteLimit = 64 << 20
    static let dirtyBytesCheckInterval = 256
    private var callsSinceBytesChecked = 0

    /// Writes the decoded blocks back to LMDB once there are `dirtyBlockLimit` of them or they
    /// hold `dirtyByteLimit` bytes, so that a write of millions of objects holds a bounded amount
    /// of decoded memory (LMDB bounds its own dirty pages by spilling them to the file).
    /// Object-level operations call it as they start, never while a zero-copy view of a stored
    /// block is held: writing the blocks database may move the pages such a view points into.
    func writeBackIfLarge() throws {
        if dirtyBlocks.count + dirtyPresence.count >= dirtyBlockLimit { return try writeBackBlocks(table: nil) }
        callsSinceBytesChecked += 1
        guard callsSinceBytesChecked >= Self.dirtyBytesCheckInterval else { return }
        callsSinceBytesChecked = 0
        var bytes = 0
        for buffer in dirtyBlocks.values { bytes += buffer.approximateBytes }
        if bytes >= dirtyByteLimit { try writeBackBlocks(table: nil) }
    }

    /// Allocates a key and marks the object live. Values are written separately.
    func createObject(table: UInt32) throws -> Int64 {
        try requireWrite()
        try writeBackIfLarge()
        mutationCount += 1
        footprint.createdObject(table: table, at: mutationCount)
        let key = try counters(table).nextKey
        guard key <= RecordSealing.maxIndexedObjectKey else {
            throw DBError(.outOfRange, "class \(storedSchema.className(table: table) ?? "#\(table)") has used all 2^47 object keys")
        }
        try updateCounters(table) { $0.nextKey += 1; $0.count += 1 }
        let (cluster, slot) = locate(key)
        try modifyPresence(table: table, cluster: cluster) { $0.insert(slot) }
        changes.recordInsertion(table: table, key: key)
        return key
    }

    /// Reads one value. A slot never written reads as null (optional) or the type's default.
    /// Links read as `.link`, mixed values decoded; a collection column reads its encoded slot
    /// (use `collection(table:column:key:)`).
    func value(table: UInt32, column: ColumnSpec, key: Int64) throws -> Value {
        let stored = try slotValue(table: table, column: column, key: key)
        return column.isScalar ? stored : column.userValue(stored)
    }

    /// Reads one value as `contents`: a string's or binary's stored bytes in place, anything else
    /// as `value(table:column:key:)` reads it. The bytes are valid while the transaction neither
    /// writes nor ends.
    func contents(table: UInt32, column: ColumnSpec, key: Int64) throws -> StoredContents {
        guard column.isScalar else { return .value(try value(table: table, column: column, key: key)) }
        let (cluster, slot) = locate(key)
        return try scalarContents(table: table, column: column, cluster: cluster, slot: slot)
    }

    /// Reads the values in `columns` of the object with `key`, in order, as `contents` reads
    /// each: the object's cluster located once, each block found (and parsed) once per transaction.
    /// `readLiveRow`'s path inside a write that changed blocks.
    private func readRow(table: UInt32, key: Int64, columns: UnsafeBufferPointer<ColumnSpec>,
                 _ body: (Int, StoredContents) -> Void) throws {
        let (cluster, slot) = locate(key)
        for index in columns.indices {
            let column = columns[index]
            if column.isScalar {
                body(index, try scalarContents(table: table, column: column, cluster: cluster, slot: slot))
            } else {
                body(index, .value(try value(table: table, column: column, key: key)))
            }
        }
    }

    /// `readRow` of a live object: false (and `body` not called) when `key` is not one. Outside
    /// writes that changed blocks, every load the read makes is started at once, before any is
    /// used: the object's presence bit, then the slot of each column. Each column is a block of
    /// its own, and in a large realm each load would otherwise wait for memory in turn (reading
    /// five properties of one of 1M objects by primary key went from 3.7 to about 1.9 us).
    func readLiveRow(table: UInt32, key: Int64, columns: UnsafeBufferPointer<ColumnSpec>,
                     _ body: (Int, StoredContents) -> Void) throws -> Bool {
        guard key >= 0, dirtyBlocks.isEmpty, dirtyPresence.isEmpty, !(isWrite && lmdb.blocksTouched) else {
            guard try objectExists(table: table, key: key) else { return false }
            try readRow(table: table, key: key, columns: columns, body)
            return true
        }
        let (cluster, slot) = locate(key)
        guard let presence = try storedBytes(BlockKey(table: table, column: StorageKeys.presenceColumn, cluster: cluster)) else {
            return false
        }
        let liveByte = try Self.presenceByte(of: slot, in: presence)
        realmdb_prefetch(liveByte)
        return try withUnsafeTemporaryAllocation(of: ColumnBlockView?.self, capacity: columns.count) { views in
            for index in columns.indices {
                let column = columns[index]
                let view = column.isScalar ? try storedBlock(BlockKey(table: table, column: column.id, cluster: cluster)) : nil
                view?.prefetch(slot)
                views.initializeElement(at: index, to: view)
            }
            defer { views.deinitialize() }
            guard liveByte.load(as: UInt8.self) & (1 << UInt8(slot & 7)) != 0 else { return false }
            for index in columns.indices {
                let column = columns[index]
                if let view = views[index] {
                    body(index, view.contents(at: slot, type: column.type, optional: column.isOptional))
                } else if column.isScalar {
                    body(index, .value(column.isOptional ? .null : column.type.defaultValue))
                } else {
                    body(index, .value(try value(table: table, column: column, key: key)))
                }
            }
            return true
        }
    }

    private func scalarContents(table: UInt32, column: ColumnSpec, cluster: Int64, slot: Int) throws -> StoredContents {
        let blockKey = BlockKey(table: table, column: column.id, cluster: cluster)
        if !dirtyBlocks.isEmpty, let buffer = dirtyBlocks[blockKey] { return .value(buffer.value(at: slot, optional: column.isOptional)) }
        guard let view = try storedBlock(blockKey) else { return .value(column.isOptional ? .null : column.type.defaultValue) }
        return view.contents(at: slot, type: column.type, optional: column.isOptional)
    }

    func slotValue(table: UInt32, column: ColumnSpec, key: Int64) throws -> Value {
        let (cluster, slot) = locate(key)
        let blockKey = BlockKey(table: table, column: column.id, cluster: cluster)
        if !dirtyBlocks.isEmpty, let buffer = dirtyBlocks[blockKey] { return buffer.value(at: slot, optional: column.isOptional) }
        guard let view = try storedBlock(blockKey) else { return column.isOptional ? .null : column.type.defaultValue }
        return view.value(at: slot, type: column.type, optional: column.isOptional)
    }

    /// Writes a slot (a value as readers see it) with no index or link bookkeeping.
    func writeSlot(_ value: Value, table: UInt32, column: ColumnSpec, key: Int64) throws {
        let (cluster, slot) = locate(key)
        try modifyBlock(BlockKey(table: table, column: column.id, cluster: cluster), type: column.type) {
            $0.set(column.storedValue(value), at: slot, optional: column.isOptional)
        }
    }

    /// Writes one value (already validated and coerced) and keeps the column's indexes in step.
    /// - Parameter isNewObject: skip reading the old value for the index (the object was just
    ///   created; its compound index entries are added by `indexNewObject` once all values are set).
    func setValue(_ value: Value, table: UInt32, column: ColumnSpec, key: Int64, isNewObject: Bool = false) throws {
        try requireWrite()
        mutationCount += 1
        // (A new object's values need no mark: creating it marked its table.)
        if !isNewObject { footprint.wrote(table: table, column: column.id, at: mutationCount) }
        if case .collection = column.kind {
            throw DBError(.internal, "a collection column is written with storeCollection, not setValue")
        }
        if column.holdsLinks {
            let old = isNewObject ? [] : links(in: try self.value(table: table, column: column, key: key))
            try replaceLinks(from: old, to: links(in: value), table: table, column: column.id, key: key)
            try writeSlot(value, table: table, column: column, key: key)
            if !isNewObject { changes.recordModification(table: table, column: column.id, key: key) }
            return
        }
        let compound = isNewObject ? [] : compoundIndexes(table: table).filter { $0.contains(column: column.id) }
        for index in compound { try removeCompoundIndexEntry(index, table: table, key: key) }
        if column.isIndexed {
            if !isNewObject {
                let old = try self.value(table: table, column: column, key: key)
                try removeIndexEntry(table: table, column: column.id, value: old, key: key)
            }
            try addIndexEntry(table: table, column: column.id, value: value, key: key)
        }
        let (cluster, slot) = locate(key)
        try modifyBlock(BlockKey(table: table, column: column.id, cluster: cluster), type: column.type) {
            $0.set(value, at: slot, optional: column.isOptional)
        }
        for index in compound { try addCompoundIndexEntry(index, table: table, key: key) }
        if !isNewObject { changes.recordModification(table: table, column: column.id, key: key) }
    }

    /// Writes one value per object for a scalar column that no index covers, one block access
    /// per cluster: the batch path of `Results.setValues`. Other columns (indexed ones, links and
    /// mixed values, which keep backlinks and are stored encoded) go through `setValue`.
    /// - Parameter keys: live objects, each at most once.
    func setValues(_ values: [Value], keys: [Int64], table: UInt32, column: ColumnSpec) throws {
        try requireWrite()
        guard column.isScalar, !column.isIndexed,
              !compoundIndexes(table: table).contains(where: { $0.contains(column: column.id) }) else {
            for (key, value) in zip(keys, values) { try setValue(value, table: table, column: column, key: key) }
            return
        }
        mutationCount += 1
        footprint.wrote(table: table, column: column.id, at: mutationCount)
        var i = 0
        while i < keys.count {
            let cluster = locate(keys[i]).cluster
            var end = i + 1
            while end < keys.count && locate(keys[end]).cluster == cluster { end += 1 }
            try modifyBlock(BlockKey(table: table, column: column.id, cluster: cluster), type: column.type) { buffer in
                for k in i..<end { buffer.set(values[k], at: locate(keys[k]).slot, optional: column.isOptional) }
            }
            changes.recordModifications(table: table, column: column.id, keys: keys[i..<end])
            i = end
        }
    }

    /// Deletes an object with the columns the file records for its table.
    func deleteObject(table: UInt32, key: Int64) throws {
        let columns = (storedSchema.table(id: table)?.columns ?? []).filter(\.isStored).map(ColumnSpec.init)
        try deleteObject(table: table, columns: columns, key: key)
    }

    /// Deletes an object: clears the links to it and from it (deleting the embedded objects it
    /// owns), removes its index entries, frees its variable-width values, clears its presence bit.
    func deleteObject(table: UInt32, columns: [ColumnSpec], key: Int64) throws {
        try requireWrite()
        // Deleting an embedded object removes the link that owns it, and removing that link
        // deletes the object it owned: the object is then gone, and must not be deleted (and
        // counted) a second time.
        guard try objectExists(table: table, key: key) else { return }
        mutationCount += 1
        footprint.changedAnywhere(at: mutationCount)
        try removeLinks(to: ObjectLink(table: table, key: key))
        guard try objectExists(table: table, key: key) else { return }
        try removeOutgoingLinks(table: table, columns: columns, key: key)
        let (cluster, slot) = locate(key)
        // Each indexed value is read once, though several indexes may hold it (a property with
        // its own index is often in a compound index too).
        var read: [(column: UInt32, value: Value)] = []
        read.reserveCapacity(columns.count)
        func valueOf(_ column: ColumnSpec) throws -> Value {
            if let known = read.first(where: { $0.column == column.id }) { return known.value }
            let value = try self.value(table: table, column: column, key: key)
            read.append((column.id, value))
            return value
        }
        for index in compoundIndexes(table: table) { try removeCompoundIndexEntry(index, table: table, key: key, valueOf: valueOf) }
        for column in columns {
            let blockKey = BlockKey(table: table, column: column.id, cluster: cluster)
            if column.isIndexed {
                try removeIndexEntry(table: table, column: column.id, value: try valueOf(column), key: key)
            }
            if case .collection = column.kind {
                let id = CollectionID(table: table, column: column.id, key: key)
                journalCollection(id)
                collectionCache[id] = nil
                dirtyCollections.remove(id)
            }
            if column.type.fixedWidth == nil, try dirtyBlocks[blockKey] != nil || storedBlock(blockKey) != nil {
                try modifyBlock(blockKey, type: column.type) { $0.clear(slot) }
            }
        }
        try modifyPresence(table: table, cluster: cluster) { $0.remove(slot) }
        try updateCounters(table) { $0.count -= 1 }
        changes.recordDeletion(table: table, key: key)
    }

    /// Keys of the table's live objects in ascending order, one cluster at a time.
    /// The body may modify or delete objects: each cluster's keys are collected before it runs.
    func forEachObjectKey(table: UInt32, _ body: (Int64) throws -> Void) throws {
        var clusters = Set<Int64>()
        try lmdb.scan(environment.blocksDB, prefix: StorageKeys.blockPrefix(table: table, column: StorageKeys.presenceColumn)) { key, _ in
            clusters.insert(StorageKeys.cluster(fromBlockKey: key))
            return true
        }
        for key in dirtyPresence.keys where key.table == table { clusters.insert(key.cluster) }
        for cluster in clusters.sorted() {
            guard let bitmap = try presence(table: table, cluster: cluster) else { continue }
            for slot in bitmap.slots { try body(cluster << Int64(StorageKeys.clusterShift) | Int64(slot)) }
        }
    }

    /// Removes a column's data (blocks and index entries) from the file.
    func dropColumn(table: UInt32, column: UInt32) throws {
        try requireWrite()
        for key in dirtyBlocks.keys where key.table == table && key.column == column {
            journalBlock(key)
            dirtyBlocks[key] = nil
        }
        for id in dirtyCollections where id.table == table && id.column == column {
            journalCollection(id)
            dirtyCollections.remove(id)
        }
        collectionCache = collectionCache.filter { $0.key.table != table || $0.key.column != column }
        try lmdb.deletePrefix(environment.blocksDB, prefix: StorageKeys.blockPrefix(table: table, column: column))
        try lmdb.deletePrefix(environment.indexDB, prefix: StorageKeys.blockPrefix(table: table, column: column))
    }

    /// Removes a table's objects and data from the file (its counters keep the next key, so keys are never reused).
    func dropTableData(table: UInt32) throws {
        try requireWrite()
        mutationCount += 1
        footprint.changedAnywhere(at: mutationCount)
        let columns = (storedSchema.table(id: table)?.columns ?? []).filter(\.isStored).map(ColumnSpec.init)
        if !linkingColumns(to: table).isEmpty || columns.contains(where: \.holdsLinks) {
            // Links to or from these objects: delete them one by one so that every link is cleared.
            try forEachObjectKey(table: table) { try deleteObject(table: table, columns: columns, key: $0) }
        }
        try forEachObjectKey(table: table) { changes.recordDeletion(table: table, key: $0) }
        changes.recordTableCleared(table)
        for key in dirtyBlocks.keys where key.table == table {
            journalBlock(key)
            dirtyBlocks[key] = nil
        }
        for key in dirtyPresence.keys where key.table == table {
            journalPresence(key)
            dirtyPresence[key] = nil
        }
        for id in dirtyCollections where id.table == table { journalCollection(id) }
        dirtyCollections = dirtyCollections.filter { $0.table != table }
        collectionCache = collectionCache.filter { $0.key.table != table }
        try lmdb.deletePrefix(environment.blocksDB, prefix: StorageKeys.blockPrefix(table: table))
        try lmdb.deletePrefix(environment.indexDB, prefix: StorageKeys.blockPrefix(table: table))
        try updateCounters(table) { $0.count = 0 }
    }

    // MARK: Commit

    /// Writes the dirty blocks, counters, schema, the new version and its change record, then commits.
    /// - Returns: the commit record (what the commit changed).
    @discardableResult
    func commit() throws -> CommitRecord {
        try requireWrite()
        try releaseAllSavepoints()
        let env = environment
        let newVersion = version + 1
        if !isInitialized {
            try lmdb.put(env.metaDB, StorageKeys.formatKey, Self.formatMagic)
            schemaDirty = true
        }
        try writeBackBlocks(table: nil)
        for dirty in dirtyCounters {
            let table = dirty.id, value = counters[dirty]!
            var bytes = [UInt8]()
            withUnsafeBytes(of: value.nextKey.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: value.count.littleEndian) { bytes.append(contentsOf: $0) }
            try lmdb.put(env.metaDB, StorageKeys.tableCounters(table), bytes)
        }
        if schemaDirty { try lmdb.put(env.metaDB, StorageKeys.schemaKey, storedSchema.encoded()) }
        try withUnsafeBytes(of: newVersion.littleEndian) { versionBytes in
            try StorageKeys.versionKey.withUnsafeBytes { try lmdb.put(env.metaDB, $0, versionBytes) }
        }
        let record = changes.commitRecord(version: newVersion)
        try lmdb.put(env.changesDB, StorageKeys.change(version: newVersion), record.encoded())
        if newVersion > Self.retainedChangeRecords {
            try lmdb.delete(env.changesDB, StorageKeys.change(version: newVersion - Self.retainedChangeRecords))
        }
        try lmdb.commit()
        version = newVersion
        Self.didCommit()
        return record
    }

    /// Writes the decoded blocks (of one table, or all) back to LMDB and drops them from the cache.
    /// Clusters whose objects are all gone lose every block. Commit calls it for all tables; a scan
    /// inside a write calls it for its table so that it reads one representation, zero-copy.
    func writeBackBlocks(table: UInt32?) throws {
        let env = environment
        try flushCollections(table: table)
        var emptiedClusters = Set<BlockKey>()
        for (key, bitmap) in dirtyPresence where table == nil || key.table == table {
            if bitmap.isEmpty {
                emptiedClusters.insert(key)
                try lmdb.delete(env.blocksDB, StorageKeys.block(key))
            } else {
                try lmdb.put(env.blocksDB, StorageKeys.block(key), bitmap.encoded())
            }
            journalPresence(key)
            dirtyPresence[key] = nil
        }
        for (key, buffer) in dirtyBlocks where table == nil || key.table == table {
            journalBlock(key)
            dirtyBlocks[key] = nil
            if emptiedClusters.contains(BlockKey(table: key.table, column: 0, cluster: key.cluster)) { continue }
            try lmdb.put(env.blocksDB, StorageKeys.block(key), buffer.encoded())
        }
        for cluster in emptiedClusters {
            for column in storedSchema.table(id: cluster.table)?.columns ?? [] {
                try lmdb.delete(env.blocksDB, StorageKeys.block(BlockKey(table: cluster.table, column: column.id, cluster: cluster.cluster)))
            }
        }
    }

    func abort() {
        savepointFrames.removeAll()
        savepointUndo.removeAll()
        lmdb.abort()
    }

    /// The change record of a commit, if still retained.
    func commitRecord(version: UInt64) throws -> CommitRecord? {
        guard let raw = try lmdb.get(environment.changesDB, StorageKeys.change(version: version)) else { return nil }
        return try CommitRecord.decode(Array(raw))
    }
}

/// Names in messages about damaged records.
extension StoredSchema {
    func className(table: UInt32) -> String? { self.table(id: table)?.name }

    func propertyName(table: UInt32, column: UInt32) -> String? {
        guard let stored = self.table(id: table) else { return nil }
        if let name = stored.column(id: column)?.name { return name }
        guard let index = stored.indexes.first(where: { $0.id == column }) else { return nil }
        return "(" + index.columns.compactMap { stored.column(id: $0)?.name }.joined(separator: ", ") + ")"
    }
}
