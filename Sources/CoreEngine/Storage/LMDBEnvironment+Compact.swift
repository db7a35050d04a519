import CLMDB
import CLMDBGuard
#if canImport(Glibc)
import Glibc
#endif

/// Compacted copies of a realm file, and compaction when a file is opened.
///
/// LMDB never gives pages back to the file system: pages freed by a commit are reused by later
/// commits, but the file keeps its largest size (a large delete, or a version pinned across many
/// commits, leaves it mostly free). `mdb_env_copyfd2(MDB_CP_COMPACT)` writes the pages in use of
/// the latest version, renumbered, into a new file: that is the compacted copy.
///
/// - `writeCompactedCopy(to:)` builds the copy under `<destination>-creating` and gives it its
///   name only when complete and synced (as a new file is created, see LMDBEnvironment+Create):
///   a crash leaves no file at the destination, never a partial one.
/// - `compactOnOpen(path:decide:)` replaces the file itself by its compacted copy, only when no
///   process has it open. It holds the lock that LMDB's first opener takes (a write lock on byte
///   0 of `<path>-lock`), so every other process's open waits in LMDB until the new file has the
///   name and this process has opened it (resetting the lock file, whose transaction ids belong
///   to the old file); other threads of this process wait in `acquire` (`compactingPaths`). The
///   copy is built and synced under `<path>-compacting` and renamed over `<path>`: a crash
///   leaves either the old file or the new one (and a `-compacting` leftover that the next
///   compaction overwrites).
/// How much of a realm file is in use: what `RealmConfiguration.shouldCompactOnLaunch` decides
/// from, and what `Realm.fileSpace()` reports.
package struct FileSpace: Equatable, Sendable {
    /// The file's size.
    package var fileBytes: Int
    /// The bytes of its pages in use (about the size of a compacted copy); the rest is free
    /// space that later commits reuse.
    package var usedBytes: Int
}

extension LMDBEnvironment {
    /// The space of the file this environment has open.
    func fileSpace() throws -> FileSpace { try Self.fileSpace(of: env, path: path) }

    private static func fileSpace(of env: OpaquePointer, path: String) throws -> FileSpace {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        var fd: Int32 = -1
        var file = Glibc.stat()
        try check(mdb_env_info(env, &info), "read the size of '\(path)'")
        try check(mdb_env_stat(env, &stat), "read the size of '\(path)'")
        try check(mdb_env_get_fd(env, &fd), "read the size of '\(path)'")
        guard fstat(fd, &file) == 0 else { throw fileError(errno, "cannot read the size of '\(path)'") }
        let pages = Int(info.me_last_pgno) + 1
        let free = try freePageCount(env, path: path)
        return FileSpace(fileBytes: Int(file.st_size), usedBytes: max(pages - free, 0) * Int(stat.ms_psize))
    }

    /// The pages on LMDB's free list (database 0): each record is a page-number list whose first
    /// word is its length.
    private static func freePageCount(_ env: OpaquePointer, path: String) throws -> Int {
        var txn: OpaquePointer?
        try check(realmdb_guarded_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn), "read the free pages of '\(path)'")
        defer { realmdb_guarded_txn_abort(txn) }
        var cursor: OpaquePointer?
        try check(mdb_cursor_open(txn, 0, &cursor), "read the free pages of '\(path)'")
        defer { realmdb_guarded_cursor_close(cursor) }
        var key = MDB_val(), data = MDB_val()
        var total = 0
        var rc = realmdb_guarded_cursor_get(cursor, &key, &data, MDB_FIRST)
        while rc == MDB_SUCCESS {
            if data.mv_size >= MemoryLayout<Int>.size, let words = data.mv_data {
                total += words.loadUnaligned(as: Int.self)
            }
            rc = realmdb_guarded_cursor_get(cursor, &key, &data, MDB_NEXT)
        }
        guard rc == MDB_NOTFOUND else { throw DBError.lmdb(rc, "read the free pages of '\(path)'") }
        return total
    }

    /// Copies the pages in use of `env`'s latest version into `fd`, after checking that the file
    /// is not truncated (a copy of a truncated file would fault; see realmdb_guarded_env_copyfd2).
    private static func copyCompacted(_ env: OpaquePointer, into fd: Int32, source: String, destination: String,
                                      truncation: String?) throws {
        if let truncation {
            throw DBError(.fileFormat, "cannot copy '\(source)': the file is damaged: \(truncation) (restore it from a copy)")
        }
        let rc = realmdb_guarded_env_copyfd2(env, fd, UInt32(MDB_CP_COMPACT))
        guard rc == MDB_SUCCESS else {
            if rc == REALMDB_GUARD_FAULT {
                throw DBError(.fileFormat, "cannot copy '\(source)': the file is damaged (\(String(cString: realmdb_guard_message())))")
            }
            throw DBError.lmdb(rc, "cannot copy '\(source)' to '\(destination)'")
        }
    }

    /// Writes a compacted copy of the latest committed version to the new file `destination`.
    /// - Throws: `.fileAccess` when something has that name already, or it cannot be written;
    ///   `.fileFormat` when this file is damaged.
    func writeCompactedCopy(to destination: String) throws {
        let target = try Self.canonicalPath(destination)
        guard target != path else {
            throw DBError(.fileAccess, "cannot copy '\(path)' onto itself")
        }
        let created = try Self.createFile(at: target) { temporary, fd in
            try Self.copyCompacted(env, into: fd, source: path, destination: destination, truncation: truncationDescription())
        }
        guard created else {
            throw DBError(.fileAccess, "cannot copy the realm to '\(destination)': the file exists (remove it, or choose another name)")
        }
    }

    // MARK: Compaction on open

    /// The paths (registry keys) being compacted by `compactOnOpen`, with the compacting thread:
    /// `acquire` waits for them. Guarded by the registry lock.
    nonisolated(unsafe) static var compactingPaths: [String: Compactor] = [:]

    /// A thread compacting a file (in a fork child, the parent's entries are left over: ignored).
    struct Compactor {
        let process = getpid()
        let thread = pthread_self()

        var isRunning: Bool { process == getpid() }
        var isCurrentThread: Bool { isRunning && pthread_equal(thread, pthread_self()) != 0 }
    }

    /// The name a compacted file is built under before it replaces the file.
    static func compactionPath(for path: String) -> String { path + "-compacting" }

    /// Replaces the file at `path` (canonical) by its compacted copy when no process has it open
    /// and `decide(space)` says so. Called by `acquire` without any lock held, with `path` in
    /// `compactingPaths`.
    /// - Returns: when it compacted, a descriptor of `<path>-lock` holding the write lock on its
    ///   byte 0: the caller opens the environment before closing it (the new file's txn ids start
    ///   over, so the lock file must be reset by a first opener before anyone else reads it),
    ///   with the map reservation that worked here (a failed try would drop the lock). Nil when
    ///   it did not (the lock is released then).
    static func compactOnOpen(path: String, decide: (FileSpace) throws -> Bool) throws -> (lockFile: Int32, mapSize: Int)? {
        let lockPath = path + "-lock"
        let lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { throw fileError(errno, "cannot open '\(lockPath)' to compact '\(path)'") }
        var keepLock = false
        defer { if !keepLock { close(lockFD) } }  // closing releases the lock below
        // LMDB's first opener takes this lock; every other opener holds a read lock on the byte.
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        while fcntl(lockFD, F_SETLK, &lock) != 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { return nil }  // open elsewhere: not now
            throw fileError(errno, "cannot lock '\(lockPath)' to compact '\(path)'")
        }
        // Nobody else has the file open, and nobody can open it until the lock is released: read
        // it without LMDB's lock file (whose contents the next first opener resets).
        let env = try openEnvironment(path: path, flags: UInt32(MDB_NOSUBDIR | MDB_NOTLS | MDB_NOLOCK | MDB_RDONLY))
        defer { mdb_env_close(env) }
        var info = MDB_envinfo()
        try check(mdb_env_info(env, &info), "read the map size of '\(path)'")
        guard try decide(try fileSpace(of: env, path: path)) else { return nil }
        let temporary = compactionPath(for: path)
        let fd = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw fileError(errno, "cannot create '\(temporary)' to compact '\(path)'") }
        defer { close(fd) }
        do {
            try copyCompacted(env, into: fd, source: path, destination: temporary, truncation: truncationDescription(env, path: path))
            guard fsync(fd) == 0 else { throw fileError(errno, "cannot compact '\(path)': fsync") }
            // The lock file's transaction ids are the old file's. Emptied, it cannot be misread:
            // an opener that is not LMDB's first (one waiting for this lock, should this process
            // die before opening the new file) fails to map it, and a first opener rebuilds it.
            guard ftruncate(lockFD, 0) == 0 else { throw fileError(errno, "cannot reset '\(lockPath)'") }
            guard rename(temporary, path) == 0 else { throw fileError(errno, "cannot rename '\(temporary)' to '\(path)'") }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(of: path)
        keepLock = true
        return (lockFD, Int(info.me_mapsize))
    }
}
