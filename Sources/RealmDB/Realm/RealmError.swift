import CoreEngine

/// An error thrown by RealmDB: what kind of failure (`code`), a message that says what to do, and
/// for query errors the byte offset of the token at fault. `Realm.Error` names the same type.
public struct RealmError: Swift.Error, CustomStringConvertible, Equatable, Sendable {
    /// The kind of failure. The raw values are the C API's `db_status_e` codes, so a failure reads
    /// the same from Swift, C and Python.
    public enum Code: Int32, Sendable {
        case invalidArgument = 1, notFound, wrongType, notNullable, missingValue, wrongTransactionState,
             invalidated, closedRealm, duplicatePrimaryKey, schemaInvalid, migrationRequired, migrationFailed,
             readOnly, fileAccess, fileFormat, tooManyActiveVersions, outOfRange, logic, storage, callback,
             query, wrongThread, notSupported, outOfMemory, `internal`
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// For `.query`: the byte offset of the offending token in the query string.
    public let offset: Int?

    /// An error of a kind, with its message and, for `.query`, the byte offset of the token at fault.
    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    init(_ error: DBError) {
        self.init(Code(rawValue: error.code.rawValue) ?? .internal, error.message, offset: error.offset)
    }

    /// The code and the message, with the offset where the message does not already say it
    /// (the engine's query errors do).
    public var description: String {
        guard let offset, !message.contains("offset \(offset)") else { return "\(code): \(message)" }
        return "\(code): \(message) (at offset \(offset))"
    }
}

extension Realm {
    /// The errors RealmDB throws (`Realm.Error.Code` tells them apart).
    public typealias Error = RealmError
}

/// Runs an engine call, turning its errors into `RealmError`s: the only place they are translated.
@usableFromInline @inline(__always)
func translatingErrors<R>(_ body: () throws -> R) throws(RealmError) -> R {
    do {
        return try body()
    } catch let error as DBError {
        throw RealmError(error)
    } catch let error as RealmError {
        throw error
    } catch {
        throw RealmError(.callback, "\(error)")
    }
}

/// For accessors that cannot throw (property getters and setters, as in Realm's Swift SDK, where
/// the same misuse raises an exception): stops with the error's message.
@usableFromInline @inline(__always)
func engineOrTrap<R>(_ body: () throws -> R, file: StaticString = #file, line: UInt = #line) -> R {
    do {
        return try translatingErrors(body)
    } catch {
        fatalError("RealmDB: \(error)", file: file, line: line)
    }
}
