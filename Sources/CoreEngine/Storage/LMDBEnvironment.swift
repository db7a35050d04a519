import CLMDB
import CLMDBGuard
#if canImport(Glibc)
import Glibc
#endif

/// One LMDB environment (one realm file), shared by every realm handle on that file in this process.
///
/// LMDB must not open the same file twice in one process (closing either would drop the other's
/// POSIX locks), so environments live in a process-wide registry keyed by canonical path and are
/// reference-counted by the realms that use them. In-memory realms are files in the temporary
/// directory, opened without fsync, keyed by their identifier and deleted when the last handle closes.
///
/// A new file is created complete before LMDB opens it (LMDBEnvironment+Create). An environment
/// belongs to the process that opened it: a fork child never uses, closes or releases an inherited
/// one, and opens its own (see `ProcessFork`).
final class LMDBEnvironment: @unchecked Sendable {
    let env: OpaquePointer
    /// The process that opened the environment (the only one that may use or close it).
    let ownerPID: pid_t
    /// Canonical path of the data file (for in-memory realms, the temporary file).
    let path: String
    let isInMemory: Bool
    let isReadOnly: Bool
    private let registryKey: String
    fileprivate var referenceCount = 0
    /// Whose turn it is to write the file (see `WriteTurn`); closed after `env`.
    let writeTurn: WriteTurn

    /// The named databases (see docs/FORMAT.md).
    private(set) var metaDB: MDB_dbi = 0
    private(set) var blocksDB: MDB_dbi = 0
    private(set) var indexDB: MDB_dbi = 0
    private(set) var changesDB: MDB_dbi = 0
    /// Their names and flags, in the order `openDatabases` opens them.
    static let namedDatabases: [(name: String, flags: UInt32)] = [
        ("meta", 0), ("blocks", 0), ("index", UInt32(MDB_DUPSORT | MDB_DUPFIXED)), ("changes", 0),
    ]

    /// The thread that holds this environment's write transaction, if any (guards against a
    /// thread waiting for its own write lock through a second handle, which would deadlock).
    private let writerLock = RecursiveLock(level: .leaf, name: "environment writer record")
    private var writerThread: pthread_t?
    /// When writers last cleared the reader slots of dead processes (monotonic nanoseconds;
    /// see LMDBEnvironment+Readers). Guarded by `writerLock`.
    var lastStaleReaderCheck: UInt64 = 0
    var writesSinceStaleReaderCheck = 0
    func withWriterLock<R>(_ body: () throws -> R) rethrows -> R { try writerLock.withLock(body) }

    /// Virtual address space reserved for the map, tried largest first: the file grows only as data
    /// is written, but a process with limited address space (ulimit -v, valgrind) cannot reserve
    /// 256 GiB, so smaller reservations are tried before giving up.
    static let mapSizes = [1 << 38, 1 << 36, 1 << 34, 1 << 32, 1 << 30]
    static let maxReaders: UInt32 = 1022

    private init(path: String, registryKey: String, inMemory: Bool, readOnly: Bool, mapSizes: [Int] = mapSizes) throws {
        var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
        if readOnly { flags |= UInt32(MDB_RDONLY) }
        if inMemory { flags |= UInt32(MDB_NOSYNC | MDB_NOMETASYNC) }
        writeTurn = WriteTurn(lockFilePath: path + "-lock")
        env = try Self.openEnvironment(path: path, flags: flags, mapSizes: mapSizes)
        ownerPID = ProcessFork.current
        self.path = path
        self.registryKey = registryKey
        isInMemory = inMemory
        isReadOnly = readOnly
        // Every stored property is set: if this throws, deinit closes `env` (so nothing else may).
        var dead: Int32 = 0
        _ = mdb_reader_check(env, &dead)  // clear reader slots of crashed processes
        try openDatabases()
    }

    /// `check` for a guarded call on this file: a fault on a truncated file says so.
    func checkRead(_ rc: Int32, _ context: @autoclosure () -> String) throws {
        guard rc != MDB_SUCCESS else { return }
        var error = DBError.lmdb(rc, context())
        // A fault reading a truncated file is most likely a page past its end: say so (a loop
        // stopped by the CPU limit says what it is).
        if rc == REALMDB_GUARD_FAULT, realmdb_guard_fault_kind() != REALMDB_GUARD_CPU_LIMIT,
           let truncation = truncationDescription() {
            error.message = "\(context()): the file is damaged: \(truncation) (restore it from a copy)"
        }
        throw error
    }

    /// When the file is shorter than the pages its meta page counts, says so (for the message of
    /// a read that faulted past its end). Not an error by itself: LMDB may count pages at the end
    /// that it allocated and freed in one transaction without writing them, and a truncation
    /// that removed only free pages loses nothing. Reads of pages that are gone fault, and the
    /// guard (CLMDBGuard) turns that into `.fileFormat` with this description.
    func truncationDescription() -> String? { Self.truncationDescription(env, path: path) }

    static func truncationDescription(_ env: OpaquePointer, path: String) -> String? {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        var fd: Int32 = -1
        var file = Glibc.stat()
        guard mdb_env_info(env, &info) == MDB_SUCCESS, mdb_env_stat(env, &stat) == MDB_SUCCESS,
              mdb_env_get_fd(env, &fd) == MDB_SUCCESS, fstat(fd, &file) == 0 else { return nil }
        let pageSize = Int(stat.ms_psize)
        guard pageSize > 0 else { return nil }
        let needed = (Int(info.me_last_pgno) + 1) * pageSize
        guard Int(file.st_size) < needed else { return nil }
        // The first page not wholly in the file: one cut short counts as missing. (Rounding up
        // gave a range past the last page when the file ended inside it: a fuzzer's finding.)
        let firstMissing = Int(file.st_size) / pageSize
        if pagesAreFree(env, firstMissing...Int(info.me_last_pgno)) { return nil }
        return "'\(path)' is truncated: it has \(file.st_size) bytes, but its pages reach byte \(needed)"
    }

    /// Whether every page of `pages` is free at the latest version (in LMDB's free list): the
    /// pages a transaction allocated and freed again without writing them, which may lie past the
    /// file's end without anything being lost. Reads the free list under the guard; a free list
    /// that cannot be read (it lies past the end too) answers false.
    private static func pagesAreFree(_ env: OpaquePointer, _ pages: ClosedRange<Int>) -> Bool {
        var missing = Set(pages)
        var txn: OpaquePointer?
        guard realmdb_guarded_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn) == MDB_SUCCESS, let txn else { return false }
        defer { realmdb_guarded_txn_abort(txn) }
        var cursor: OpaquePointer?
        guard mdb_cursor_open(txn, 0 /* FREE_DBI */, &cursor) == MDB_SUCCESS, let cursor else { return false }
        defer { realmdb_guarded_cursor_close(cursor) }
        var key = MDB_val()
        var data = MDB_val()
        var operation = MDB_FIRST
        while !missing.isEmpty {
            let rc = realmdb_guarded_cursor_get(cursor, &key, &data, operation)
            if rc == MDB_NOTFOUND { break }
            guard rc == MDB_SUCCESS, let base = data.mv_data else { return false }
            operation = MDB_NEXT
            // An ID list: its length, then that many page numbers (pgno_t is size_t).
            let words = data.mv_size / MemoryLayout<Int>.size
            guard words >= 1 else { return false }
            let count = base.loadUnaligned(as: Int.self)
            guard count >= 0, count < words else { return false }
            for i in stride(from: 1, through: count, by: 1) {
                missing.remove(base.loadUnaligned(fromByteOffset: i * MemoryLayout<Int>.size, as: Int.self))
            }
        }
        return missing.isEmpty
    }

    /// Creates and opens an LMDB environment, closing it again on failure.
    /// - Parameter mapSizes: the reservations to try, largest first. Each failed try closes its
    ///   environment, which drops every lock this process holds on the lock file.
    static func openEnvironment(path: String, flags: UInt32, mapSizes: [Int] = mapSizes) throws -> OpaquePointer {
        var lastError: Int32 = 0
        for mapSize in mapSizes {
            var envPointer: OpaquePointer?
            try check(mdb_env_create(&envPointer), "mdb_env_create")
            guard let env = envPointer else { throw DBError(.internal, "mdb_env_create returned no environment") }
            realmdb_guard_env(env)
            var rc = mdb_env_set_mapsize(env, mapSize)
            if rc == MDB_SUCCESS { rc = mdb_env_set_maxdbs(env, 8) }
            if rc == MDB_SUCCESS { rc = mdb_env_set_maxreaders(env, maxReaders) }
            if rc == MDB_SUCCESS { rc = realmdb_guarded_env_open(env, path, flags, 0o644) }
            if rc == MDB_SUCCESS { return env }
            // After a fault the environment is half set up: leave it rather than fault closing it.
            if rc != REALMDB_GUARD_FAULT { mdb_env_close(env) }
            lastError = rc
            guard rc == EINVAL || rc == ENOMEM else { break }  // only address-space failures are retried
        }
        throw DBError.lmdb(lastError, "cannot open '\(path)'")
    }

    private func openDatabases() throws {
        var txn: OpaquePointer?
        try checkRead(realmdb_guarded_txn_begin(env, nil, isReadOnly ? UInt32(MDB_RDONLY) : 0, &txn), "begin setup transaction")
        var committed = false
        defer { if !committed { realmdb_guarded_txn_abort(txn) } }
        func open(_ name: String, _ flags: UInt32) throws -> MDB_dbi? {
            var dbi: MDB_dbi = 0
            let rc = realmdb_guarded_dbi_open(txn, name, flags, &dbi)
            if rc == MDB_NOTFOUND { return nil }
            try checkRead(rc, "open table '\(name)'")
            return dbi
        }
        var dbis = try Self.namedDatabases.map { try open($0.name, $0.flags) }
        if let missing = zip(Self.namedDatabases, dbis).first(where: { $0.1 == nil })?.0.name {
            // Only an empty environment (an empty file LMDB has just initialized) may lack its
            // tables: they are created. A file that has some of them, or other records in their
            // place, is damaged (an overwritten catalog page would otherwise open as a new realm).
            guard !isReadOnly, dbis.allSatisfy({ $0 == nil }), try mainDatabaseIsEmpty(txn) else {
                throw DBError(.fileFormat, "'\(path)' is not a realmdb file, or its table catalog is damaged (no '\(missing)' table)")
            }
            dbis = try Self.namedDatabases.map { try open($0.name, $0.flags | UInt32(MDB_CREATE)) }
        }
        (metaDB, blocksDB, indexDB, changesDB) = (dbis[0]!, dbis[1]!, dbis[2]!, dbis[3]!)
        try checkRead(realmdb_guarded_txn_commit(txn), "commit setup transaction")
        committed = true
    }

    /// Whether LMDB's main database (the catalog of named databases) holds no record.
    private func mainDatabaseIsEmpty(_ txn: OpaquePointer?) throws -> Bool {
        var cursor: OpaquePointer?
        // LMDB numbers its main database 1 (MAIN_DBI in mdb.c; 0 is its free list).
        try checkRead(mdb_cursor_open(txn, 1, &cursor), "open the table catalog")
        defer { realmdb_guarded_cursor_close(cursor) }
        var key = MDB_val(), value = MDB_val()
        let rc = realmdb_guarded_cursor_get(cursor, &key, &value, MDB_FIRST)
        if rc == MDB_NOTFOUND { return true }
        try checkRead(rc, "read the table catalog")
        return false
    }

    /// Whether this environment was opened by another process (this one is its fork child).
    var isInherited: Bool { ProcessFork.isInherited(ownerPID) }

    /// An inherited environment is left as it is: closing it would clear the parent's reader slots
    /// and, closing descriptors of the lock file, drop this process's own locks on it.
    deinit {
        guard !isInherited else { return }
        mdb_env_close(env)
        if heldLockFile >= 0 { close(heldLockFile) }
    }

    /// A descriptor of the lock file kept open with the environment (see `compactIfIdle`), or -1.
    fileprivate var heldLockFile: Int32 = -1

    // MARK: Registry

    private static let registryLock = RecursiveLock(level: .leaf, name: "environment registry", heldAcrossFork: true)
    nonisolated(unsafe) private static var registry: [String: LMDBEnvironment] = [:]

    /// Returns the shared environment for a file path (or in-memory identifier), opening it if needed.
    /// Each call must be balanced by `release()`.
    /// - Parameter shouldCompact: when a writable file is opened that no process has open, called
    ///   with its space; true replaces the file by its compacted copy first (see
    ///   LMDBEnvironment+Compact). Called on this thread, with no lock held.
    static func acquire(path: String, inMemory: Bool, readOnly: Bool,
                        shouldCompact: ((FileSpace) throws -> Bool)? = nil) throws -> LMDBEnvironment {
        ProcessFork.install()
        if let shouldCompact, !inMemory, !readOnly,
           let compacted = try compactIfIdle(try canonicalPath(path), decide: shouldCompact) {
            return compacted
        }
        while true {
            if let environment = try acquireUnlessCompacting(path: path, inMemory: inMemory, readOnly: readOnly) {
                return environment
            }
            usleep(1000)  // another thread of this process is compacting the file
        }
    }

    /// Compacts the file at `filePath` (see `compactOnOpen`) unless this process has it open, and
    /// then opens it; nil when it did not compact.
    private static func compactIfIdle(_ filePath: String, decide: (FileSpace) throws -> Bool) throws -> LMDBEnvironment? {
        let key = "file:" + filePath
        let claimed: Bool = try registryLock.withLock {
            if compactingPaths[key]?.isCurrentThread == true {
                throw DBError(.logic, "cannot open '\(filePath)' while deciding whether to compact it (from its compaction function)")
            }
            guard registry[key] == nil, compactingPaths[key]?.isRunning != true, nameExists(filePath) else { return false }
            compactingPaths[key] = Compactor()
            return true
        }
        guard claimed else { return nil }
        defer { registryLock.withLock { compactingPaths[key] = nil } }
        guard let (lockFile, mapSize) = try compactOnOpen(path: filePath, decide: decide) else { return nil }
        // This process still holds the write lock on the lock file, so the environment opened now
        // is LMDB's first opener: it resets the lock file for the new file before any other
        // process, waiting for that lock, reads it. Closing `lockFile` would drop every lock this
        // process holds on the lock file, the environment's too: it is closed with the environment.
        // So would a failed try at opening: only the reservation known to work is tried.
        return try registryLock.withLock {
            let environment: LMDBEnvironment
            do {
                environment = try LMDBEnvironment(path: filePath, registryKey: key, inMemory: false, readOnly: false,
                                                  mapSizes: [mapSize])
            } catch {
                close(lockFile)
                throw error
            }
            environment.heldLockFile = lockFile
            environment.referenceCount = 1
            registry[key] = environment
            return environment
        }
    }

    /// `acquire`, or nil while another thread compacts the file.
    private static func acquireUnlessCompacting(path: String, inMemory: Bool, readOnly: Bool) throws -> LMDBEnvironment? {
        try registryLock.withLock {
            // In a fork child: the parent's environments are abandoned, never reused or closed.
            for (key, environment) in registry where environment.isInherited {
                ProcessFork.abandon(environment)
                registry[key] = nil
            }
            let key: String
            let filePath: String
            if inMemory {
                key = "memory:" + path
                filePath = registry[key]?.path ?? temporaryPath(for: path)
            } else {
                filePath = try canonicalPath(path)
                key = "file:" + filePath
                if readOnly && access(filePath, F_OK) != 0 {
                    throw DBError(.fileAccess, "cannot open '\(path)' read-only: the file does not exist")
                }
            }
            if let compactor = compactingPaths[key], compactor.isRunning {
                if compactor.isCurrentThread {
                    throw DBError(.logic, "cannot open '\(path)' while deciding whether to compact it (from its compaction function)")
                }
                return nil
            }
            if let existing = registry[key] {
                if existing.isReadOnly && !readOnly {
                    throw DBError(.fileAccess, "'\(path)' is already open read-only in this process; close those handles before opening it for writing")
                }
                existing.referenceCount += 1
                return existing
            }
            if !inMemory && !readOnly { try createFileIfMissing(at: filePath) }
            let environment = try LMDBEnvironment(path: filePath, registryKey: key, inMemory: inMemory, readOnly: readOnly)
            environment.referenceCount = 1
            registry[key] = environment
            return environment
        }
    }

    /// Adds a reference, for a wait that must keep the environment registered (a realm waiting
    /// for its turn to write, on another thread, while it may be closed).
    func retain() {
        Self.registryLock.withLock { referenceCount += 1 }
    }

    /// Drops one reference; the last one closes the environment (and deletes an in-memory realm's files).
    func release() {
        guard !isInherited else { return }  // the parent's: see `ProcessFork`
        Self.registryLock.withLock {
            referenceCount -= 1
            guard referenceCount == 0 else { return }
            Self.registry[registryKey] = nil
            if isInMemory {
                unlink(path)
                unlink(path + "-lock")
            }
        }
    }

    static func canonicalPath(_ path: String) throws -> String {
        guard !path.isEmpty else { throw DBError(.invalidArgument, "the realm path is empty") }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        // The file does not exist yet: canonicalize its directory.
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(directory, nil) else {
            throw DBError(.fileAccess, "cannot open '\(path)': directory '\(directory)' does not exist")
        }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + name
    }

    nonisolated(unsafe) private static var temporaryCounter = 0

    private static func temporaryPath(for identifier: String) -> String {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let safe = String(identifier.unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return (c.isLetter || c.isNumber) && scalar.isASCII ? c : "_"
        }.prefix(40))
        temporaryCounter += 1
        return "\(directory)/realmdb-memory-\(getpid())-\(temporaryCounter)-\(safe)"
    }

    // MARK: Writer ownership

    /// Records that the calling thread is about to wait for the write lock.
    /// - Throws: `.wrongTransactionState` if this thread already holds it through another handle.
    func claimWriter() throws {
        try writerLock.withLock {
            if let owner = writerThread, pthread_equal(owner, pthread_self()) != 0 {
                throw DBError(.wrongTransactionState, "this thread already has a write transaction open on '\(path)' through another realm handle; waiting for it would deadlock")
            }
        }
    }

    /// Starts the calling thread's write transaction: takes the turn to write (unless the caller
    /// holds it already, `turnTaken`), then LMDB's write lock. On failure the turn is given back.
    /// - Throws: as `claimWriter`, `WriteTurn.take` and `StorageTransaction.init`.
    func beginWriteTransaction(turnTaken: Bool = false) throws -> StorageTransaction {
        do {
            try claimWriter()
            if !turnTaken { try writeTurn.take(for: pthread_self()) }
        } catch {
            if turnTaken { writeTurn.give() }
            throw error
        }
        do {
            let write = try StorageTransaction(environment: self, write: true)
            didBeginWrite()
            return write
        } catch {
            writeTurn.give()
            throw error
        }
    }

    private func didBeginWrite() { writerLock.withLock { writerThread = pthread_self() } }

    /// After the write transaction's commit or abort: gives the turn to write back.
    func didEndWrite() {
        writerLock.withLock { writerThread = nil }
        writeTurn.give()
    }

    // MARK: Versions

    /// The id of the newest commit a reader starting now sees. A committing process writes its
    /// meta page (which `mdb_env_info` reads) before it publishes the commit to new readers, so
    /// only a read transaction tells what a refresh would see. Nil when no reader slot is free.
    func latestReadableVersion() -> Int? {
        var txn: OpaquePointer?
        guard realmdb_guarded_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn) == MDB_SUCCESS, let txn else { return nil }
        defer { realmdb_guarded_txn_abort(txn) }
        return Int(mdb_txn_id(txn))
    }

    /// The id of the newest commit written to the file (possibly not yet readable; see
    /// `latestReadableVersion`). Reads the lock file's shared memory only: no I/O, no reader slot.
    func latestWrittenVersion() -> Int {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return Int(info.me_last_txnid)
    }
}
