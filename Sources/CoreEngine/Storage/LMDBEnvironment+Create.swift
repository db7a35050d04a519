import CChecksum
import CLMDB
import CLMDBGuard
#if canImport(Glibc)
import Glibc
#endif

/// Creating a realm file so that a crash or power loss at any moment leaves either no file at the
/// realm's path or a complete, synced one (see docs/FORMAT.md, "Creating a file").
///
/// LMDB initializes a new file's meta pages with plain writes and no sync, so a file it creates
/// in place can be left, after a power loss, without valid meta pages: unopenable until deleted.
/// Instead, a new file is built under `<path>-creating`, next to it: opened and locked (`flock`),
/// emptied (a crashed creator may have left it), given its tables and format record by one
/// committed LMDB transaction, fsynced, and then renamed to `<path>` only if nothing has that name
/// (`renameat2(RENAME_NOREPLACE)`), with the directory fsynced before and after.
///
/// Races: every creator of the same path locks `<path>-creating` first. A creator that gets the
/// lock checks that the name still leads to the file it locked (the previous holder may have
/// renamed it into place or removed it) and starts over otherwise; it then checks `<path>` again:
/// when another process created it meanwhile, it removes `<path>-creating` and opens that file.
/// So two processes creating one realm share one file, and the only file ever left behind is one
/// `<path>-creating` (after a crash during creation), which the next creator reuses. It is never
/// opened as a realm: opening reads `<path>` only.
extension LMDBEnvironment {
    /// The name a new file is built under: next to it (the rename must not cross file systems),
    /// the same for every creator (so that crashes cannot leave more than one).
    static func creationPath(for path: String) -> String { path + "-creating" }

    /// Whether something (a file, a directory, a dangling symlink) has the name `path`.
    static func nameExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func fileError(_ code: Int32, _ context: String) -> DBError {
        DBError.lmdb(code, context)
    }

    /// Creates the file at `path` (canonical, in an existing directory) as described above,
    /// unless something has that name already.
    static func createFileIfMissing(at path: String) throws {
        try createFile(at: path) { temporary, fd in try build(temporary, fd: fd, for: path) }
    }

    /// Gives `path` (canonical, in an existing directory) a new file that `build` writes into the
    /// locked, emptied `<path>-creating` (descriptor `fd`), synced and renamed as described above.
    /// - Returns: false, without calling `build`, when something has the name `path` (before or
    ///   while waiting for the lock).
    @discardableResult
    static func createFile(at path: String, build: (_ temporary: String, _ fd: Int32) throws -> Void) throws -> Bool {
        guard !nameExists(path) else { return false }
        let temporary = creationPath(for: path)
        while true {
            let fd = open(temporary, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else { throw fileError(errno, "cannot create '\(path)' (as '\(temporary)')") }
            defer { close(fd) }  // also releases the lock
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else { throw fileError(errno, "cannot lock '\(temporary)' to create '\(path)'") }
            }
            // The previous holder may have renamed the file into place, or removed it: start over.
            var locked = stat(), named = stat()
            guard fstat(fd, &locked) == 0, lstat(temporary, &named) == 0,
                  locked.st_dev == named.st_dev, locked.st_ino == named.st_ino else { continue }
            if nameExists(path) {  // created while we waited
                unlink(temporary)
                return false
            }
            if locked.st_nlink > 1 {
                // A second name of a realm (a crash inside link-then-unlink, on a file system
                // without renameat2): its data belongs to another name. Drop this name only.
                unlink(temporary)
                continue
            }
            guard ftruncate(fd, 0) == 0 else { throw fileError(errno, "cannot empty '\(temporary)'") }
            do {
                try build(temporary, fd)
                guard fsync(fd) == 0 else { throw fileError(errno, "cannot write '\(path)': fsync") }
            } catch {
                unlink(temporary)  // still locked: nobody else uses it
                throw error
            }
            try syncDirectory(of: path)
            // A lock file without its data file is a leftover (of a deleted realm, possibly still
            // open in some process): the new file gets a new one, shared with nothing of the old.
            unlink(path + "-lock")
            if realmdb_rename_noreplace(temporary, path) != 0 {
                let code = errno
                guard code == EEXIST else { throw fileError(code, "cannot rename '\(temporary)' to '\(path)'") }
                unlink(temporary)  // made by a creator that does not lock (an older version): use it
                return false
            }
            try syncDirectory(of: path)
            return true
        }
    }

    /// Writes a complete empty realm into the locked, empty file `temporary`: the named databases
    /// and the format record in one committed (synced) transaction.
    private static func build(_ temporary: String, fd: Int32, for path: String) throws {
        // No lock file: the file is ours alone while we hold its lock.
        let env = try openEnvironment(path: temporary, flags: UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_NOLOCK))
        defer { mdb_env_close(env) }
        var txn: OpaquePointer?
        try check(realmdb_guarded_txn_begin(env, nil, 0, &txn), "cannot create '\(path)': begin")
        var committed = false
        defer { if !committed { realmdb_guarded_txn_abort(txn) } }
        var metaDB: MDB_dbi = 0
        for (name, flags) in namedDatabases {
            var dbi: MDB_dbi = 0
            try check(realmdb_guarded_dbi_open(txn, name, flags | UInt32(MDB_CREATE), &dbi), "cannot create '\(path)': table '\(name)'")
            if name == "meta" { metaDB = dbi }
        }
        // The format record, sealed as every record is (see RecordSealing).
        try StorageKeys.formatKey.withUnsafeBytes { key in
            try StorageTransaction.formatMagic.withUnsafeBytes { value in
                try check(LMDBTransaction.putSealed(txn, metaDB, key, value), "cannot create '\(path)': format record")
            }
        }
        committed = true
        try check(realmdb_guarded_txn_commit(txn), "cannot create '\(path)': commit")
    }

    /// fsync of the directory holding `path`, so that a new name in it survives a power loss.
    /// File systems that cannot sync a directory (EINVAL) are left as they are.
    static func syncDirectory(of path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw fileError(errno, "cannot open directory '\(directory)' to sync it") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL {
            throw fileError(errno, "cannot sync directory '\(directory)'")
        }
    }
}
