import CDBTypes
import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

// Library-level functions: version, status strings, the last error, freeing returned strings.

private let versionString: StaticString = "0.1.0"

/// The library's version, e.g. "0.1.0". Any thread.
/// @return Borrowed, valid until the program exits (a static string); never NULL.
@c public func db_library_version_string() -> UnsafePointer<CChar> {
    UnsafeRawPointer(versionString.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// A short English description of a status code ("invalid argument", ...). Any thread.
/// @return Borrowed, valid until the program exits (a static string); "unknown status" for codes
///   this version does not define. Never NULL.
@c public func db_status_string(_ code: db_status_e) -> UnsafePointer<CChar> {
    let text: StaticString
    switch code {
    case DB_OK: text = "ok"
    case DB_ERR_INVALID_ARGUMENT: text = "invalid argument"
    case DB_ERR_NOT_FOUND: text = "not found"
    case DB_ERR_WRONG_TYPE: text = "wrong type"
    case DB_ERR_NOT_NULLABLE: text = "property is not nullable"
    case DB_ERR_MISSING_VALUE: text = "missing value for a required property"
    case DB_ERR_WRONG_TRANSACTION_STATE: text = "wrong transaction state"
    case DB_ERR_INVALIDATED: text = "object or realm invalidated"
    case DB_ERR_CLOSED_REALM: text = "realm is closed"
    case DB_ERR_DUPLICATE_PRIMARY_KEY: text = "duplicate primary key"
    case DB_ERR_SCHEMA_INVALID: text = "invalid schema"
    case DB_ERR_MIGRATION_REQUIRED: text = "migration required"
    case DB_ERR_MIGRATION_FAILED: text = "migration failed"
    case DB_ERR_READ_ONLY: text = "read-only"
    case DB_ERR_FILE_ACCESS: text = "file access error"
    case DB_ERR_FILE_FORMAT: text = "invalid file format"
    case DB_ERR_TOO_MANY_ACTIVE_VERSIONS: text = "too many active versions"
    case DB_ERR_OUT_OF_RANGE: text = "index out of range"
    case DB_ERR_LOGIC: text = "logic error"
    case DB_ERR_STORAGE: text = "storage error"
    case DB_ERR_CALLBACK: text = "callback failed"
    case DB_ERR_QUERY: text = "query error"
    case DB_ERR_WRONG_THREAD: text = "wrong thread"
    case DB_ERR_NOT_SUPPORTED: text = "not supported"
    case DB_ERR_OUT_OF_MEMORY: text = "out of memory"
    case DB_ERR_INTERNAL: text = "internal error"
    default: text = "unknown status"
    }
    return UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Reads the last error of the calling thread (each thread has its own).
///
/// Every call into the library resets it on success, so read it right after the failing call.
/// @param[out] out_error Filled with the code, message (borrowed: valid until the next call into
///   the library on this thread) and query offset (-1 when not a query error). Filled with DB_OK,
///   an empty message and -1 when the last call succeeded.
/// @return true if the last call on this thread failed.
@c public func db_get_last_error(_ out_error: UnsafeMutablePointer<db_error_t>?) -> Bool {
    let state = ThreadState.current
    if let out_error {
        out_error.pointee = db_error_t(code: state.code,
                                       message: UnsafePointer(state.message) ?? UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self),
                                       offset: state.offset)
    }
    return state.code != DB_OK
}

/// Clears the calling thread's last error.
@c public func db_clear_last_error() {
    ThreadState.current.clearError()
}

/// Frees a string the library returned as new (db_object_description, ...). NULL is a no-op.
/// Any thread.
@c public func db_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}
