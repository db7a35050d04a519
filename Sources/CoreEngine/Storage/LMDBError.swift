import CLMDB
import CLMDBGuard
#if canImport(Glibc)
import Glibc
#endif

extension DBError {
    /// Maps an LMDB (or errno) return code to an engine error.
    static func lmdb(_ rc: Int32, _ context: String) -> DBError {
        if rc == REALMDB_GUARD_FAULT {
            return DBError(.fileFormat, "\(context): the file is damaged: \(String(cString: realmdb_guard_message())) (restore it from a copy)")
        }
        let text = String(cString: mdb_strerror(rc))
        switch rc {
        case ENOENT, EACCES, EPERM, EROFS, ENOTDIR, EISDIR, ENAMETOOLONG, ELOOP:
            return DBError(.fileAccess, "\(context): \(text)")
        case MDB_INVALID, MDB_VERSION_MISMATCH:
            return DBError(.fileFormat, "\(context): not a realmdb file (\(text))")
        case MDB_READERS_FULL:
            return DBError(.tooManyActiveVersions, "\(context): \(text)")
        case ENOMEM:
            return DBError(.outOfMemory, "\(context): \(text)")
        case MDB_TXN_FULL:
            // LMDB tracks a bounded number of changed pages per write; a write deleting millions
            // of objects (about 5M of five indexed properties) can run out of them.
            return DBError(.storage, "\(context): \(text): cancel this write (nothing of it is saved) and make the change in "
                + "several smaller writes, e.g. deleting at most a million objects in each")
        default:
            return DBError(.storage, "\(context): \(text)")
        }
    }
}

/// Throws unless `rc` is MDB_SUCCESS.
@inline(__always)
func check(_ rc: Int32, _ context: @autoclosure () -> String) throws {
    if rc != MDB_SUCCESS { throw DBError.lmdb(rc, context()) }
}
