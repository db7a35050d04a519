/// An error raised by the engine. Every failure the engine can report is one of these;
/// the C API maps `code` to `db_status_e` in exactly one place.
package struct DBError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure this is. Raw values equal the C API's `db_status_e` codes.
    package enum Code: Int32, Sendable {
        case invalidArgument = 1
        case notFound = 2
        case wrongType = 3
        case notNullable = 4
        case missingValue = 5
        case wrongTransactionState = 6
        case invalidated = 7
        case closedRealm = 8
        case duplicatePrimaryKey = 9
        case schemaInvalid = 10
        case migrationRequired = 11
        case migrationFailed = 12
        case readOnly = 13
        case fileAccess = 14
        case fileFormat = 15
        case tooManyActiveVersions = 16
        case outOfRange = 17
        case logic = 18
        case storage = 19
        case callback = 20
        case query = 21
        case wrongThread = 22
        case notSupported = 23
        case outOfMemory = 24
        case `internal` = 25
    }

    package var code: Code
    package var message: String
    /// Byte offset in a query string for query errors, otherwise nil.
    package var offset: Int?

    package init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    package var description: String { "\(code): \(message)" }
}
