#if canImport(Glibc)
import Glibc
#endif

/// An open realm: a file (or in-memory identifier), its schema, and the handle's current
/// transaction: a read snapshot or a write in progress.
///
/// A handle belongs to the thread that opened it (others get `.wrongThread`), in the process that
/// opened it (in a fork child, it gets `.wrongThread` too; see `ProcessFork`). Reads see the
/// snapshot pinned at open, at the last `refresh()`, `commitWrite()` or `cancelWrite()`; inside a
/// write they see its uncommitted changes. A frozen realm (`freeze()`) reads one version forever
/// and may be used from any thread.
package final class Realm {
    package let configuration: RealmConfiguration
    /// Serializes the handle's calls. A frozen realm shares its source's lock, because the two
    /// may read through the same snapshot.
    let lock: RecursiveLock
    /// A frozen realm reads one version forever, from any thread, and cannot change.
    package let isFrozen: Bool
    /// For a frozen realm: the live realm it was frozen from (what `thaw` returns objects of).
    private(set) weak var liveSource: Realm?
    private(set) var environment: LMDBEnvironment?
    /// The current transaction; nil after `invalidate()` (the next read pins the latest version).
    /// Every change of it, and every write through it, moves `changeCounter`.
    var transaction: StorageTransaction? {
        didSet {
            changeCounter.bump()
            if let transaction, transaction.isWrite { transaction.changeCounter = changeCounter }
        }
    }
    /// Moves whenever what this handle shows may have changed (see `ChangeCounter`).
    package let changeCounter = ChangeCounter()
    /// Moves whenever the classes are bound again (`bind`: another handle changed the schema)
    /// and when the realm closes: a binding that keeps a `ClassInfo` checks it with one load
    /// instead of a lookup by name.
    package let bindingCounter = ChangeCounter()
    /// The serial of the last write transaction this realm committed (under `lock`): what live
    /// results computed inside it check before keeping their keys after it (see
    /// `Results.isCacheCurrent`).
    var lastCommittedWrite: Int?
    /// The bound classes of the declared schema (or of the file's schema for a dynamic open).
    package private(set) var classes: [ClassInfo] = []
    private var classesByName: [String: ClassInfo] = [:]
    private var classesByTable = ClassesByTable()
    private var boundSchema: StoredSchema?
    /// Set while a migration function runs: primary keys may change then.
    var activeMigration: Migration?
    /// Set by `closeUnlessInUse` inside one of the realm's calls: the delivery (or the changesets
    /// computed ahead) in progress closes the realm when it ends. Guarded by `lock`.
    var closeWhenDelivered = false
    /// Notification callbacks registered through this handle (see Realm+Notifications).
    let notifications = NotificationRegistry()
    /// The process that opened the handle. In a fork child the handle is unusable (its LMDB
    /// environment and transaction are the parent's; see `ProcessFork`).
    private let ownerProcess = ProcessFork.current

    /// Opens a realm, creating the file and applying schema changes as the configuration allows.
    /// - Throws: `.fileAccess`, `.fileFormat`, `.schemaInvalid`, `.migrationRequired`, `.migrationFailed`,
    ///   `.duplicatePrimaryKey` (a migration left duplicates), `.readOnly`.
    /// Wakes the commit watcher after each commit of this process (once per process, before
    /// the first realm can commit).
    private static let commitHookInstalled: Void = {
        StorageTransaction.didCommit = { CommitWatcher.shared.poke() }
    }()

    package init(configuration: RealmConfiguration) throws {
        _ = Self.commitHookInstalled
        self.configuration = configuration
        lock = RecursiveLock(level: .realm, name: "realm")
        isFrozen = false
        let environment = try LMDBEnvironment.acquire(path: configuration.path, inMemory: configuration.inMemory,
                                                      readOnly: configuration.readOnly,
                                                      shouldCompact: configuration.shouldCompactOnLaunch)
        self.environment = environment
        do {
            try openSchema()
        } catch {
            close()
            throw error
        }
    }

    /// A frozen realm reading `source`'s current version (see `freeze()`).
    private init(frozenFrom source: Realm, snapshot: StorageTransaction) throws {
        configuration = source.configuration
        lock = source.lock
        isFrozen = true
        liveSource = source.isFrozen ? source.liveSource : source
        environment = try LMDBEnvironment.acquire(path: configuration.path, inMemory: configuration.inMemory,
                                                  readOnly: configuration.readOnly)
        classes = source.classes
        classesByName = source.classesByName
        classesByTable = source.classesByTable
        boundSchema = source.boundSchema
        snapshot.pins += 1
        transaction = snapshot
    }

    /// An immutable view of this realm at the version it reads now, usable from any thread until
    /// closed. It pins that version (see `RealmConfiguration.maxActiveVersions`): close frozen
    /// realms, and release their objects and results, when done, or the file keeps growing.
    /// Objects, results and collections frozen from this realm read through such a realm.
    /// - Throws: `.wrongTransactionState` inside a write transaction, `.closedRealm`, `.wrongThread`.
    package func freeze() throws -> Realm {
        if isFrozen { return self }
        return try lock.withLock {
            if transaction?.isWrite == true {
                throw DBError(.wrongTransactionState, "cannot freeze inside a write transaction: commit or cancel it first")
            }
            return try Realm(frozenFrom: self, snapshot: try currentTransaction())
        }
    }

    /// The live realm a frozen one was frozen from (this realm when it is live).
    /// - Throws: `.closedRealm` when that realm has been closed or released.
    package func thaw() throws -> Realm {
        guard isFrozen else { return self }
        guard let live = liveSource, !live.isClosed else {
            throw DBError(.closedRealm, "the realm this one was frozen from has been closed")
        }
        return live
    }

    /// Drops the current read transaction, aborting it unless frozen realms still read through it.
    private func dropReadTransaction() {
        guard let transaction else { return }
        if isFrozen {
            transaction.pins -= 1
        } else if transaction.pins == 0 {
            transaction.abort()
        }
        self.transaction = nil
    }

    /// Keeps a read transaction of this realm open after the realm moves on to another version,
    /// for a notifier that reads the version it last delivered (with the lock held).
    func pin(_ snapshot: StorageTransaction) {
        snapshot.pins += 1
    }

    /// Lets a pinned transaction go: aborted when nothing pins it and the realm no longer reads it
    /// (with the lock held; before the realm releases its environment).
    func unpin(_ snapshot: StorageTransaction) {
        snapshot.pins -= 1
        if snapshot.pins == 0 && snapshot !== transaction { snapshot.abort() }
    }

    func requireLive(_ action: String) throws {
        if isFrozen { throw DBError(.logic, "a frozen realm cannot \(action); thaw it (or use the live realm) instead") }
    }

    deinit { close() }

    package var isClosed: Bool { lock.withLock { environment == nil } }
    package var isInWriteTransaction: Bool { lock.withLock { transaction?.isWrite ?? false } }
    package var isReadOnly: Bool { configuration.readOnly }
    /// The data file's canonical path (for in-memory realms, the temporary file).
    package var filePath: String? { lock.withLock { environment?.path } }

    /// Closes the realm once nothing uses it any more (its last owner, such as a Swift handle, is
    /// going): now, unless this thread is inside one of the realm's own calls. That happens when
    /// a notifier drops the last callback holding the owner while it prepares a delivery, under
    /// the realm's lock (on the owner's thread, or on the commit watcher's as it computes
    /// changesets ahead); closing there would take the commit watcher's lock inside the realm's
    /// (against the lock order). That call closes it instead, once it has let go of the lock.
    package func closeUnlessInUse() {
        if lock.isHeldByCurrentThread {
            closeWhenDelivered = true
            return
        }
        close()
    }

    /// Closes the handle: ends its transaction (a write is rolled back) and releases the file.
    /// Objects of this realm become invalid. Closing twice is harmless.
    package func close() {
        // Inherited across fork: nothing of it is this process's to end (see `ProcessFork`). Not
        // even its lock is taken: a thread of the parent may have held it at the fork.
        if ProcessFork.isInherited(ownerProcess) { return }
        // First, outside the lock: a wake-up call in progress may be waiting for it.
        CommitWatcher.shared.unsubscribe(ObjectIdentifier(self))
        lock.withLock {
            guard let environment else { return }
            if let transaction, transaction.isWrite {
                transaction.abort()
                environment.didEndWrite()
                self.transaction = nil
            } else if writeReservation == .reserved {
                environment.writeTurn.give()
            }
            writeReservation = .none
            // The notifiers first: they may pin read transactions, which end before the environment.
            notifications.removeAll()
            dropReadTransaction()
            self.environment = nil
            bindingCounter.bump()  // what a binding kept of the classes no longer holds
            environment.release()
        }
    }

    /// The thread that opened the handle: the only one that may use it. (LMDB ties a write
    /// transaction to its thread, and notifications are delivered on the owner's thread.)
    let ownerThread = pthread_self()

    /// Where this realm stands with the turn to write outside a write transaction (see
    /// Realm+WriteReservation). Guarded by `lock`.
    var writeReservation = WriteReservation.none

    /// The environment of an open handle used on its own thread.
    /// - Throws: `.closedRealm`; `.wrongThread` on any other thread (open another handle there).
    func requireOpen() throws -> LMDBEnvironment {
        guard let environment else { throw DBError(.closedRealm, "the realm has been closed") }
        try requireOwnProcess()
        guard isFrozen || pthread_equal(pthread_self(), ownerThread) != 0 else {
            throw DBError(.wrongThread, "this realm handle belongs to the thread that opened it; open another handle of the file on this thread")
        }
        return environment
    }

    /// Checks that this handle may be used here: open, in its own process, on its own thread
    /// unless frozen.
    /// - Throws: `.closedRealm`, `.wrongThread`.
    package func requireUsable() throws {
        _ = try lock.withLock { try requireOpen() }
    }

    /// The environment of an open handle, from any thread (for what is not confined: closing,
    /// setting the scheduler).
    func requireOpenOnAnyThread() throws -> LMDBEnvironment {
        guard let environment else { throw DBError(.closedRealm, "the realm has been closed") }
        try requireOwnProcess()
        return environment
    }

    /// - Throws: `.wrongThread` in a fork child of the process that opened the handle.
    func requireOwnProcess() throws {
        guard ProcessFork.isInherited(ownerProcess) else { return }
        throw DBError(.wrongThread, "this realm was opened in another process (\(ownerProcess)) and inherited across fork(); LMDB environments cannot be used in a forked child: open the file again in this process (\(ProcessFork.current))")
    }

    /// The current transaction, pinning the latest version if none is pinned.
    func currentTransaction() throws -> StorageTransaction {
        let environment = try requireOpen()
        if let transaction { return transaction }
        let snapshot = try StorageTransaction(environment: environment, write: false)
        try rebindIfSchemaChanged(snapshot.storedSchema)
        transaction = snapshot
        return snapshot
    }

    func writeTransaction() throws -> StorageTransaction {
        let txn = try currentTransaction()
        guard txn.isWrite else {
            try requireLive("be modified")  // not "begin a write first": a frozen realm cannot
            if configuration.readOnly { throw DBError(.readOnly, "the realm was opened read-only") }
            throw DBError(.wrongTransactionState, "cannot modify the realm outside a write transaction; begin a write transaction first")
        }
        return txn
    }

    // MARK: Classes

    func bind(_ stored: StoredSchema, declared: Schema) throws {
        classes = try declared.objectSchemas.map { objectSchema in
            guard let table = stored.table(named: objectSchema.name) else {
                throw DBError(.internal, "class '\(objectSchema.name)' is missing from the file's schema")
            }
            return try ClassInfo(objectSchema: objectSchema, table: table)
        }
        classesByName = Dictionary(uniqueKeysWithValues: classes.map { ($0.name, $0) })
        classesByTable = ClassesByTable(classes)
        boundSchema = stored
        bindingCounter.bump()
    }

    /// Another handle or process may have changed the stored schema (additively) since we bound it.
    private func rebindIfSchemaChanged(_ stored: StoredSchema) throws {
        guard stored != boundSchema else { return }
        let declared = configuration.schema ?? stored.schema
        let plan = SchemaPlan(stored: stored, declared: declared)
        if plan.hasChanges && configuration.schema != nil && !stored.tables.isEmpty {
            throw DBError(.migrationRequired, "the file's schema was changed by another handle or process and no longer matches this realm's schema")
        }
        try bind(stored, declared: configuration.schema.map { _ in declared } ?? stored.schema)
    }

    /// Looks up a class by name.
    package func classInfo(named name: String) throws -> ClassInfo {
        try lock.withLock {
            _ = try requireOpen()
            guard let info = classesByName[name] else { throw DBError(.notFound, "no class named '\(name)' in the schema") }
            return info
        }
    }

    /// Looks up a class by table id (the C API's class key).
    package func classInfo(tableID: UInt32) throws -> ClassInfo {
        try lock.withLock {
            _ = try requireOpen()
            return try boundClass(tableID: tableID)
        }
    }

    /// The class bound to a table id now (with the lock held, the realm open).
    func boundClass(tableID: UInt32) throws -> ClassInfo {
        guard let info = classesByTable[tableID] else { throw DBError(.notFound, "no class with key \(tableID) in the schema") }
        return info
    }

    /// The schema in use, with public names.
    package var schema: Schema { lock.withLock { (try? Schema(classes.map(\.objectSchema))) ?? (try! Schema([])) } }

    /// The file's schema version.
    package func schemaVersion() throws -> UInt64 {
        try lock.withLock { try currentTransaction().storedSchema.schemaVersion }
    }

    // MARK: Transactions

    /// The commit counter of the pinned version (inside a write: of the version it started from).
    package func version() throws -> UInt64 { try lock.withLock { try currentTransaction().version } }

    /// Starts a write transaction, waiting for writers in other threads and processes to finish.
    /// The realm advances to the latest version first.
    /// - Throws: `.wrongTransactionState` when already in a write (or this thread writes through
    ///   another handle), `.readOnly`, `.tooManyActiveVersions` when the new version would exceed
    ///   `maxActiveVersions`.
    package func beginWrite() throws {
        try lock.withLock {
            let environment = try requireOpen()
            try requireLive("write")
            if configuration.readOnly { throw DBError(.readOnly, "the realm was opened read-only") }
            if transaction?.isWrite == true { throw DBError(.wrongTransactionState, "the realm is already in a write transaction") }
            if writeReservation == .waiting {
                throw DBError(.wrongTransactionState, "the realm is waiting for its turn to write on another thread (a reservation): begin the write once the wait has returned")
            }
            // A process killed while reading pins its version: clear such slots as writers go.
            environment.clearStaleReadersIfDue()
            dropReadTransaction()
            let limit = configuration.maxActiveVersions
            if limit > 0 {
                let pinned = environment.activeVersionCount(includingLatest: false)
                if UInt64(pinned + 1) > limit {
                    throw DBError(.tooManyActiveVersions, "number of active versions (\(pinned + 1)) would exceed the limit of \(limit): \(pinned) version(s) are pinned by open realms, frozen views or unreleased read transactions; refresh, invalidate or close them")
                }
            }
            let turnTaken = writeReservation == .reserved
            writeReservation = .none  // used now: a failed begin gives the turn back
            let write = try environment.beginWriteTransaction(turnTaken: turnTaken)
            do {
                try rebindIfSchemaChanged(write.storedSchema)
            } catch {
                write.abort()
                environment.didEndWrite()
                throw error
            }
            transaction = write
        }
    }

    /// Commits the write transaction durably and pins the version it produced (if another process
    /// commits in the instant between, the realm pins that later version).
    /// - Returns: what the commit changed.
    @discardableResult
    package func commitWrite() throws -> CommitRecord {
        let changes = try commitWriteLocked()
        deliverNotificationsAfterChange()
        return changes
    }

    private func commitWriteLocked() throws -> CommitRecord {
        try endWrite("commit") { write in
            let record = try write.commit()
            lastCommittedWrite = write.serial
            return record
        }
    }

    /// Rolls back the write transaction and pins the latest version.
    package func cancelWrite() throws {
        try endWrite("cancel") { write in write.abort() }
    }

    /// Ends the write transaction with `finish` (commit or abort), then pins right away, so the
    /// realm reads the version it produced (or, if another process committed in the instant
    /// between, the next one), not whatever is latest at its next read.
    private func endWrite<Outcome>(_ verb: String, _ finish: (StorageTransaction) throws -> Outcome) throws -> Outcome {
        try lock.withLock {
            let environment = try requireOpen()
            guard let write = transaction, write.isWrite else {
                throw DBError(.wrongTransactionState, "cannot \(verb): the realm is not in a write transaction")
            }
            transaction = nil
            defer { environment.didEndWrite() }
            let outcome = try finish(write)
            transaction = try? StorageTransaction(environment: environment, write: false)
            return outcome
        }
    }

    /// Advances to the latest version.
    /// - Returns: whether the pinned version changed.
    /// Registered notification callbacks are then called (on this thread) with what changed.
    @discardableResult
    package func refresh() throws -> Bool {
        let changed = try refreshLocked()
        deliverNotificationsAfterChange()
        return changed
    }

    private func refreshLocked() throws -> Bool {
        try lock.withLock {
            let environment = try requireOpen()
            try requireLive("refresh")
            if transaction?.isWrite == true { throw DBError(.wrongTransactionState, "cannot refresh inside a write transaction") }
            let before = transaction?.lmdb.snapshotID
            if let before, before == environment.latestWrittenVersion() { return false }
            dropReadTransaction()
            return try currentTransaction().lmdb.snapshotID != before
        }
    }

    /// Releases the pinned version so the file can reclaim space; the next read pins the latest.
    package func invalidate() throws {
        try lock.withLock {
            _ = try requireOpen()
            try requireLive("invalidate")
            if transaction?.isWrite == true { throw DBError(.wrongTransactionState, "cannot invalidate inside a write transaction; commit or cancel it first") }
            // The notifiers' snapshots go too (their next comparison looks for old places by a pass).
            notifications.releaseSnapshots()
            dropReadTransaction()
        }
    }

    /// Distinct versions pinned by readers of this file (all processes), plus the latest version.
    package func activeVersionCount() throws -> Int {
        try lock.withLock { try requireOpen().activeVersionCount(includingLatest: true) }
    }

    /// The change record of a commit, while the file retains it (see docs/FORMAT.md).
    package func commitRecord(version: UInt64) throws -> CommitRecord? {
        try lock.withLock { try currentTransaction().commitRecord(version: version) }
    }
}
