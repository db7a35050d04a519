import CDBTypes
import CoreEngine
#if canImport(Glibc)
import Glibc
#endif

// The one place where Swift errors become C status codes. Every exported function runs its body
// through `boundary`, so nothing throws or traps across the C boundary: a DBError becomes its code
// and message, any other error DB_ERR_INTERNAL. Each call resets the thread's last error.

/// Per-thread state: the last error and the copies of strings handed out by getters.
final class ThreadState {
    var code: db_status_e = DB_OK
    var message: UnsafeMutablePointer<CChar>?
    var offset: Int64 = -1
    /// Strings and binaries returned by the last value-reading call on this thread.
    private let borrowed = LentMemory()

    deinit {
        free(message)
    }

    func setError(_ code: db_status_e, _ text: String, offset: Int64 = -1) {
        self.code = code
        free(message)
        message = strdup(text)
        self.offset = offset
    }

    func clearError() {
        guard code != DB_OK else { return }
        code = DB_OK
        free(message)
        message = nil
        offset = -1
    }

    func releaseBorrowed() {
        borrowed.releaseAll()
    }

    /// Copies bytes into memory that stays valid until the next `releaseBorrowed` on this thread
    /// (which every function with a db_value_t output calls once it can no longer fail), or until
    /// the thread exits.
    func lend(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        borrowed.copy(bytes)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
        }
        return key
    }()

    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}

func status(_ code: DBError.Code) -> db_status_e { db_status_e(rawValue: UInt32(code.rawValue)) }

private func record(_ error: Error) -> db_status_e {
    let state = ThreadState.current
    if let error = error as? DBError {
        state.setError(status(error.code), error.message, offset: error.offset.map(Int64.init) ?? -1)
        return status(error.code)
    }
    state.setError(DB_ERR_INTERNAL, "internal error: \(error)")
    return DB_ERR_INTERNAL
}

/// Runs a fallible body and returns its status.
func boundary(_ body: () throws -> Void) -> db_status_e {
    do {
        try body()
        ThreadState.current.clearError()
        return DB_OK
    } catch {
        return record(error)
    }
}

/// Runs a fallible body that returns a pointer; NULL on failure.
func boundary<T>(_ body: () throws -> T?) -> T? {
    do {
        let result = try body()
        ThreadState.current.clearError()
        return result
    } catch {
        _ = record(error)
        return nil
    }
}

/// For functions that answer a question with a bool and cannot fail (false on any error).
func boundaryBool(_ body: () throws -> Bool) -> Bool {
    boundary(body) ?? false
}

/// For functions that answer a question and cannot fail: `fallback` on any error (a NULL or
/// unusable handle), which is recorded as the last error as everywhere else.
func boundaryAnswer<T>(_ fallback: T, _ body: () throws -> T) -> T {
    boundary(body) ?? fallback
}

func invalidArgument(_ message: String) -> DBError { DBError(.invalidArgument, message) }

/// Converts a C `size_t` index, position or limit to `Int`, rejecting values no array could have.
/// (For the length of a caller's array, use `bufferCount`.)
func count(_ value: UInt, _ name: String) throws -> Int {
    guard let count = Int(exactly: value) else { throw invalidArgument("'\(name)' is too large (\(value))") }
    return count
}

/// The most bytes one caller's buffer can span: the 47-bit user address space of x86-64 and
/// AArch64 Linux.
let maxBufferBytes = 1 << 47

/// The length of a caller's array of `elementSize`-byte elements as `Int`, rejecting lengths
/// that no buffer in this address space could hold (2^60 elements, a negative number cast to
/// size_t) before the buffer is touched. A length the caller's buffer does not back (1000 for
/// an array of 2) cannot be detected here; as in any C API, reading it is undefined.
func bufferCount(_ value: UInt, _ name: @autoclosure () -> String, elementSize: Int) throws -> Int {
    guard let count = Int(exactly: value), count <= maxBufferBytes / max(elementSize, 1) else {
        throw invalidArgument("'\(name())' (\(value)) is more elements than any array of \(elementSize)-byte elements can hold")
    }
    return count
}

/// `bufferCount` for a `size_t` field that Swift imports as `Int`.
func bufferCount(_ value: Int, _ name: @autoclosure () -> String, elementSize: Int) throws -> Int {
    try bufferCount(UInt(bitPattern: value), name(), elementSize: elementSize)
}

/// Unwraps a required pointer argument.
func require<T>(_ pointer: T?, _ name: @autoclosure () -> String) throws -> T {
    guard let pointer else { throw invalidArgument("'\(name())' must not be NULL") }
    return pointer
}

/// Reads a required NUL-terminated UTF-8 argument.
func requireString(_ pointer: UnsafePointer<CChar>?, _ name: String) throws -> String {
    guard let pointer else { throw invalidArgument("'\(name)' must not be NULL") }
    guard let string = String(validatingCString: pointer) else { throw invalidArgument("'\(name)' is not valid UTF-8") }
    return string
}
